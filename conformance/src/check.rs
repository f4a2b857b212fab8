//! Judging a run: the published-fact expectations, and the golden transcript.

use crate::scenario::Expectation;
use c64kit_machine::Machine;

/// One expectation's verdict, with a message that names the numbers.
#[derive(Debug, Clone)]
pub struct CheckResult {
    pub passed: bool,
    pub message: String,
}

fn pass(message: String) -> CheckResult {
    CheckResult {
        passed: true,
        message,
    }
}

fn fail(message: String) -> CheckResult {
    CheckResult {
        passed: false,
        message,
    }
}

/// Checks one expectation against the transcript text, the screen's 25 lines (as the
/// screen editor renders them) and the machine after the run.
pub fn check(e: &Expectation, text: &str, screen: &[String], machine: &Machine) -> CheckResult {
    if let Some(line) = &e.line {
        return match text.lines().any(|l| l == line) {
            true => pass(format!("line {line:?} printed")),
            false => fail(format!("line {line:?} was not printed")),
        };
    }
    if let Some(block) = &e.lines {
        let lines: Vec<&str> = text.lines().collect();
        let found = lines
            .windows(block.len().max(1))
            .any(|w| w.iter().zip(block).all(|(a, b)| a == b));
        return match found {
            true => pass(format!("{} consecutive lines printed", block.len())),
            false => fail(format!(
                "these {} lines were not printed one after another: {:?}",
                block.len(),
                block
            )),
        };
    }
    if let Some(absent) = &e.absent {
        return match text.contains(absent.as_str()) {
            false => pass(format!("{absent:?} not printed")),
            true => fail(format!("{absent:?} was printed but must not be")),
        };
    }
    if let Some(pattern) = &e.regex {
        return check_regex(e, pattern, text);
    }
    if let (Some(addr), Some(bytes)) = (e.address, &e.bytes) {
        let got: Vec<u8> = (0..bytes.len())
            .map(|i| {
                // RAM as stored (under any ROM), but the 6510 port at $0000/$0001.
                let a = (addr as usize + i) & 0xFFFF;
                if a < 2 {
                    machine.peek(a as u16)
                } else {
                    machine.bus.ram[a]
                }
            })
            .collect();
        return match &got == bytes {
            true => pass(format!("memory at ${addr:04X} holds {bytes:02X?}")),
            false => fail(format!(
                "memory at ${addr:04X}: expected {bytes:02X?}, found {got:02X?}"
            )),
        };
    }
    if let Some(limit) = e.cycles_at_most {
        let c = machine.cycles();
        let secs = |c: u64| c as f64 / c64kit_machine::PAL_HZ as f64;
        return match c <= limit {
            true => pass(format!(
                "{c} cycles ({:.1} s) <= {limit} ({:.1} s)",
                secs(c),
                secs(limit)
            )),
            false => fail(format!(
                "took {c} cycles ({:.1} s of C64 time), more than {limit} ({:.1} s)",
                secs(c),
                secs(limit)
            )),
        };
    }
    if let (Some(row), Some(want)) = (e.screen_row, &e.text) {
        let got = screen.get(row).map(String::as_str).unwrap_or("");
        return match got.trim_end() == want.trim_end() {
            true => pass(format!("screen row {row} reads {want:?}")),
            false => fail(format!(
                "screen row {row}: expected {want:?}, found {got:?}"
            )),
        };
    }
    fail("empty expectation".into())
}

fn check_regex(e: &Expectation, pattern: &str, text: &str) -> CheckResult {
    let re = match regex::Regex::new(pattern) {
        Ok(re) => re,
        Err(err) => return fail(format!("bad regex {pattern:?}: {err}")),
    };
    let what = e.value.clone().unwrap_or_else(|| format!("/{pattern}/"));
    if let Some(n) = e.count {
        let got = re.find_iter(text).count();
        return match got == n {
            true => pass(format!("{what}: {n} times")),
            false => fail(format!("{what}: expected {n} matches, found {got}")),
        };
    }
    let Some(caps) = re.captures(text) else {
        return fail(format!(
            "{what}: nothing in the transcript matches /{pattern}/"
        ));
    };
    if e.equals.is_none() && e.at_most.is_none() {
        return pass(format!("{what}: found {:?}", &caps[0]));
    }
    let group = e.group.unwrap_or(1);
    let Some(raw) = caps.get(group) else {
        return fail(format!("{what}: /{pattern}/ has no group {group}"));
    };
    let radix = e.radix.unwrap_or(10);
    let Ok(value) = u64::from_str_radix(raw.as_str(), radix) else {
        return fail(format!(
            "{what}: {:?} is not a base-{radix} number",
            raw.as_str()
        ));
    };
    let shown = |v: u64| {
        if radix == 16 {
            format!("{v} (${v:X})")
        } else {
            v.to_string()
        }
    };
    if let Some(want) = e.equals {
        if value != want {
            return fail(format!(
                "{what}: expected {}, got {}",
                shown(want),
                shown(value)
            ));
        }
    }
    if let Some(max) = e.at_most {
        if value > max {
            return fail(format!(
                "{what}: {} is more than {}",
                shown(value),
                shown(max)
            ));
        }
    }
    pass(format!("{what} = {}", shown(value)))
}

/// The golden comparison: `None` when equal, else a line diff (expected = golden).
pub fn diff(golden: &str, actual: &str) -> Option<String> {
    if golden == actual {
        return None;
    }
    Some(format!(
        "{}",
        pretty_assertions::StrComparison::new(golden, actual)
    ))
}
