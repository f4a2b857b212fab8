//! Judging a run: each check names what it checks, the published value and the measured
//! one, so a report shows the evidence beside every verdict.

use crate::labels::Labels;
use crate::scenario::Expectation;
use c64kit_machine::{Machine, PAL_HZ};
use serde::Serialize;

/// What a check is about. Only facts decide whether a build behaves as published.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A number, move or message the blog states (published.md): decides pass/fail.
    Fact,
    /// The whole transcript against the published program's (../shared/ryg/reference):
    /// informative, since a cosmetic change (a message's wording) makes it differ.
    PublishedTranscript,
    /// The whole transcript against our engine's frozen output (conformance/golden):
    /// informative when judging someone else's build.
    GoldenTranscript,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Fact => "fact",
            Kind::PublishedTranscript => "published transcript",
            Kind::GoldenTranscript => "golden transcript",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Holds,
    DoesNotHold,
    /// The check could not be made (no label for a routine, no reference built in): said
    /// loudly in every report, never counted as holding.
    NotChecked,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::DoesNotHold => "DOES NOT HOLD",
            Verdict::NotChecked => "not checked",
        }
    }
}

/// One check's verdict with its evidence.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub kind: Kind,
    /// What is checked, short: "nodes over the 8 iterations".
    pub what: String,
    /// The published (or expected) value: "17,717 ($4535)".
    pub published: String,
    /// What this run shows: "17,717 ($4535)".
    pub measured: String,
    pub verdict: Verdict,
    /// A unified diff for transcripts, or why a check was not made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl Check {
    pub fn new(kind: Kind, what: impl Into<String>, published: impl Into<String>) -> Check {
        Check {
            kind,
            what: what.into(),
            published: published.into(),
            measured: String::new(),
            verdict: Verdict::NotChecked,
            detail: None,
        }
    }

    /// The verdict from `holds`, with the measured value.
    pub fn measured(mut self, measured: impl Into<String>, holds: bool) -> Check {
        self.measured = measured.into();
        self.verdict = if holds {
            Verdict::Holds
        } else {
            Verdict::DoesNotHold
        };
        self
    }

    pub fn not_checked(mut self, why: impl Into<String>) -> Check {
        self.measured = "-".into();
        self.verdict = Verdict::NotChecked;
        self.detail = Some(why.into());
        self
    }

    pub fn failed(&self) -> bool {
        self.verdict == Verdict::DoesNotHold
    }

    /// `F15 nodes over the 8 iterations: published 17,717 ($4535), measured 17,717 ($4535) - holds`
    pub fn evidence(&self, fact: &str) -> String {
        if self.kind != Kind::Fact {
            // "F15 published transcript e1f2-depth8-v10.txt: differs in 1 line"
            let mut s = format!(
                "{fact} {} {}: {}",
                self.kind.label(),
                self.what,
                self.measured
            );
            if let (Verdict::NotChecked, Some(why)) = (self.verdict, &self.detail) {
                s += &format!(" ({why})");
            }
            return s;
        }
        let mut s = format!(
            "{fact} {}: published {}, measured {} - {}",
            self.what,
            self.published,
            self.measured,
            self.verdict.word()
        );
        if self.verdict == Verdict::NotChecked {
            if let Some(why) = &self.detail {
                s += &format!(" ({why})");
            }
        }
        s
    }
}

/// 17717 -> "17,717": the way published.md writes numbers.
pub fn thousands(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A value as published.md writes it: "17,717 ($4535)" for hexadecimal output, "17,717"
/// otherwise.
pub fn shown(v: u64, radix: u32) -> String {
    if radix == 16 {
        format!("{} (${v:X})", thousands(v))
    } else {
        thousands(v)
    }
}

/// Seconds of C64 time for a cycle count, one decimal.
pub fn c64_seconds(cycles: u64) -> String {
    format!("{:.1} s", cycles as f64 / PAL_HZ as f64)
}

/// What a run (or a routine call) left to check.
pub struct Observed<'a> {
    /// The transcript text.
    pub text: &'a str,
    /// The screen's 25 lines, as the screen editor renders them.
    pub screen: &'a [String],
    pub machine: &'a Machine,
    /// Cycles the run took from RUN on, or the call from its JSR to its RTS.
    pub cycles: u64,
    /// A, X, Y after a routine call.
    pub registers: Option<(u8, u8, u8)>,
    /// For `at = "label+n"`.
    pub labels: &'a Labels,
}

/// The expected value of an expectation as a report shows it, before any run.
pub fn expected_text(e: &Expectation) -> String {
    if let Some(p) = &e.published {
        return p.clone();
    }
    if let (Some(_), Some(v)) = (&e.register, e.equals) {
        return format!("${v:02X}");
    }
    if let Some(b) = &e.bytes {
        return hex_bytes(b);
    }
    if let Some(n) = e.cycles_below {
        return format!("fewer than {} cycles", thousands(n));
    }
    "-".into()
}

/// Checks one expectation against what a run or call left.
pub fn check(e: &Expectation, o: &Observed) -> Check {
    let (text, screen, machine, cycles) = (o.text, o.screen, o.machine, o.cycles);
    let what = |default: String| e.value.clone().unwrap_or(default);
    let published = |default: String| e.published.clone().unwrap_or(default);
    if let Some(r) = &e.register {
        let want = e.equals.unwrap_or(0);
        let c = Check::new(
            Kind::Fact,
            what(format!("register {}", r.to_uppercase())),
            published(format!("${want:02X}")),
        );
        let Some((a, x, y)) = o.registers else {
            return c.not_checked("registers are checked after a call only");
        };
        let got = match r.as_str() {
            "a" => a,
            "x" => x,
            _ => y,
        };
        return c.measured(format!("${got:02X}"), got as u64 == want);
    }
    if let Some(limit) = e.cycles_below {
        let c = Check::new(
            Kind::Fact,
            what("cycles".into()),
            published(format!("fewer than {}", thousands(limit))),
        );
        return c.measured(thousands(cycles), cycles < limit);
    }
    if let (Some(at), Some(bytes)) = (&e.at, &e.bytes) {
        let c = Check::new(
            Kind::Fact,
            what(format!("memory at {at}")),
            published(hex_bytes(bytes)),
        );
        return match o.labels.resolve(at) {
            Ok(addr) => {
                let got = ram_bytes(machine, addr, bytes.len());
                c.measured(measured_bytes(bytes, &got), &got == bytes)
            }
            Err(why) => c.not_checked(why),
        };
    }
    if let Some(line) = &e.line {
        let c = Check::new(
            Kind::Fact,
            what("line printed".into()),
            published(format!("{line:?}")),
        );
        if text.lines().any(|l| l == line) {
            return c.measured(format!("{line:?} printed"), true);
        }
        // The nearest line: one with the same text before its first colon ("COMPUTER'S
        // MOVE:B8A7" when H8G7 was expected).
        let near = line
            .split_once(':')
            .and_then(|(head, _)| text.lines().find(|l| l.starts_with(&format!("{head}:"))));
        return c.measured(
            match near {
                Some(l) => format!("not printed; printed {l:?} instead"),
                None => "not printed".into(),
            },
            false,
        );
    }
    if let Some(block) = &e.lines {
        let lines: Vec<&str> = text.lines().collect();
        let found = lines
            .windows(block.len().max(1))
            .any(|w| w.iter().zip(block).all(|(a, b)| a == b));
        let c = Check::new(
            Kind::Fact,
            what(format!("{} consecutive lines", block.len())),
            published(format!("{block:?}")),
        );
        return c.measured(
            if found {
                "printed one after another"
            } else {
                "not printed one after another"
            },
            found,
        );
    }
    if let Some(absent) = &e.absent {
        let c = Check::new(
            Kind::Fact,
            what("text never printed".into()),
            published(format!("no {absent:?}")),
        );
        let found = text.contains(absent.as_str());
        return c.measured(
            if found {
                format!("{absent:?} printed")
            } else {
                format!("no {absent:?}")
            },
            !found,
        );
    }
    if let Some(pattern) = &e.regex {
        return check_regex(e, pattern, text);
    }
    if let (Some(addr), Some(bytes)) = (e.address, &e.bytes) {
        let got = ram_bytes(machine, addr, bytes.len());
        let c = Check::new(
            Kind::Fact,
            what(format!("memory at ${addr:04X}")),
            published(hex_bytes(bytes)),
        );
        return c.measured(measured_bytes(bytes, &got), &got == bytes);
    }
    if let Some(limit) = e.cycles_at_most {
        let c = Check::new(
            Kind::Fact,
            what("C64 time".into()),
            published(format!(
                "at most {} ({} cycles)",
                c64_seconds(limit),
                thousands(limit)
            )),
        );
        return c.measured(
            format!("{} ({} cycles)", c64_seconds(cycles), thousands(cycles)),
            cycles <= limit,
        );
    }
    if let (Some(row), Some(want)) = (e.screen_row, &e.text) {
        let got = screen.get(row).map(String::as_str).unwrap_or("");
        let c = Check::new(
            Kind::Fact,
            what(format!("screen row {row}")),
            published(format!("{:?}", want.trim_end())),
        );
        return c.measured(
            format!("{:?}", got.trim_end()),
            got.trim_end() == want.trim_end(),
        );
    }
    Check::new(Kind::Fact, "empty expectation", "-").measured("-", false)
}

/// A match as a report shows it: newlines as \n, at most 60 characters.
fn clip_match(m: &str) -> String {
    let flat = m.replace('\n', "\\n");
    if flat.chars().count() <= 60 {
        return format!("{flat:?}");
    }
    format!("{:?}...", flat.chars().take(60).collect::<String>())
}

/// RAM as stored (under any ROM), but the 6510 port at $0000/$0001.
pub fn ram_bytes(machine: &Machine, addr: u16, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| {
            let a = (addr as usize + i) & 0xFFFF;
            if a < 2 {
                machine.peek(a as u16)
            } else {
                machine.bus.ram[a]
            }
        })
        .collect()
}

/// Bytes shown in full up to this many; longer runs are summarised.
const BYTES_SHOWN: usize = 16;

/// "$0B $08 $0A": bytes as a report shows them ("64 bytes: $01 $00 ... $01" when long).
pub fn hex_bytes(bytes: &[u8]) -> String {
    let hex = |b: &[u8]| {
        b.iter()
            .map(|b| format!("${b:02X}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if bytes.len() <= BYTES_SHOWN {
        return hex(bytes);
    }
    format!(
        "{} bytes: {} ... {}",
        bytes.len(),
        hex(&bytes[..8]),
        hex(&bytes[bytes.len() - 4..])
    )
}

/// What memory holds, against what it should: in full when short, else "the same" or the
/// first difference.
fn measured_bytes(want: &[u8], got: &[u8]) -> String {
    if want.len() <= BYTES_SHOWN {
        return hex_bytes(got);
    }
    match want.iter().zip(got).position(|(a, b)| a != b) {
        None => format!("the same {} bytes", got.len()),
        Some(i) => format!(
            "{} differ, the first at +{i}: ${:02X} where ${:02X} is published",
            want.iter().zip(got).filter(|(a, b)| a != b).count(),
            got[i],
            want[i]
        ),
    }
}

fn check_regex(e: &Expectation, pattern: &str, text: &str) -> Check {
    let what = e.value.clone().unwrap_or_else(|| format!("/{pattern}/"));
    let published = |default: String| e.published.clone().unwrap_or(default);
    let re = match regex::Regex::new(pattern) {
        Ok(re) => re,
        Err(err) => {
            return Check::new(Kind::Fact, what, "-").measured(format!("bad regex: {err}"), false)
        }
    };
    if let Some(n) = e.count {
        let got = re.find_iter(text).count();
        return Check::new(Kind::Fact, what, published(format!("{n} times")))
            .measured(format!("{got} times"), got == n);
    }
    let radix = e.radix.unwrap_or(10);
    let group = e.group.unwrap_or(1);
    if let Some(want) = &e.texts_equal {
        // Every match's group, in order: "10, 11, 12".
        let got: Vec<String> = re
            .captures_iter(text)
            .map(|c| c.get(group).map_or("", |m| m.as_str()).to_string())
            .collect();
        return Check::new(Kind::Fact, what, published(want.join(", "))).measured(
            if got.is_empty() {
                "nothing found".into()
            } else {
                got.join(", ")
            },
            &got == want,
        );
    }
    let expected = match (e.equals, e.at_most, &e.text_equals) {
        (Some(v), _, _) => shown(v, radix),
        (_, Some(max), _) => format!("at most {}", shown(max, radix)),
        (_, _, Some(t)) => t.clone(),
        _ => "present".into(),
    };
    let c = Check::new(Kind::Fact, what, published(expected));
    let Some(caps) = re.captures(text) else {
        return c.measured("not found in the transcript", false);
    };
    if e.equals.is_none() && e.at_most.is_none() && e.text_equals.is_none() {
        return c.measured(format!("found {}", clip_match(&caps[0])), true);
    }
    let Some(raw) = caps.get(group) else {
        return c.measured(format!("the pattern has no group {group}"), false);
    };
    if let Some(want) = &e.text_equals {
        return c.measured(raw.as_str(), raw.as_str() == want);
    }
    let Ok(value) = u64::from_str_radix(raw.as_str(), radix) else {
        return c.measured(
            format!("{:?}, not a base-{radix} number", raw.as_str()),
            false,
        );
    };
    let holds = e.equals.is_none_or(|w| value == w) && e.at_most.is_none_or(|m| value <= m);
    c.measured(shown(value, radix), holds)
}

/// A whole transcript against an expected one: `None` when identical, else the number of
/// lines that differ and a unified diff with 3 lines of context ([`clip_diff`] shortens it).
pub fn diff(expected: &str, actual: &str) -> Option<(usize, String)> {
    if expected == actual {
        return None;
    }
    let d = similar::TextDiff::from_lines(expected, actual);
    let mut changed = 0;
    for op in d.ops() {
        changed += match op {
            similar::DiffOp::Equal { .. } => 0,
            similar::DiffOp::Delete { old_len, .. } => *old_len,
            similar::DiffOp::Insert { new_len, .. } => *new_len,
            similar::DiffOp::Replace {
                old_len, new_len, ..
            } => (*old_len).max(*new_len),
        };
    }
    let text = d
        .unified_diff()
        .context_radius(3)
        .header("expected", "this run")
        .to_string();
    Some((changed.max(1), text))
}

/// At most `max_lines` lines of a diff (all when 0), saying how many were left out.
pub fn clip_diff(diff: &str, max_lines: usize) -> String {
    let lines: Vec<&str> = diff.lines().collect();
    if max_lines == 0 || lines.len() <= max_lines {
        return lines.join("\n");
    }
    format!(
        "{}\n... {} more diff lines (--full-diff shows all)",
        lines[..max_lines].join("\n"),
        lines.len() - max_lines
    )
}

/// "differs in 1 line" / "differs in 3 lines".
pub fn differs_in(n: usize) -> String {
    format!("differs in {n} line{}", if n == 1 { "" } else { "s" })
}
