//! Judging a run: each check names what it checks, the published value and the measured
//! one, so a report shows the evidence beside every verdict.

use crate::labels::Labels;
use crate::scenario::Expectation;
use c64kit_machine::Machine;
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
    /// The published value: "17,717 ($4535)"; or, when `ours`, the value we expect.
    pub published: String,
    /// The expected value is ours, not the blog's: a bound the scenario sets (`cycles_below`,
    /// `at_most` with no `published`), how the run ends, our golden transcript.
    pub ours: bool,
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
            ours: false,
        }
    }

    /// Marks the expected value as ours, not published.
    pub fn ours(mut self) -> Check {
        self.ours = true;
        self
    }

    /// The expected value as the reports show it: "17,717 ($4535)", or "ours: fewer than
    /// 3,000" for a value the blog did not publish.
    pub fn expected(&self) -> String {
        if self.ours {
            format!("ours: {}", self.published)
        } else {
            self.published.clone()
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
    /// (`ours fewer than 3,000` for a bound of ours). Why a fact was not checked is left to
    /// [`not_checked_reasons`], which says each reason once.
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
        let source = if self.ours { "ours" } else { "published" };
        if self.verdict == Verdict::NotChecked {
            return format!(
                "{fact} {}: {source} {} - {}",
                self.what,
                self.published,
                self.verdict.word()
            );
        }
        format!(
            "{fact} {}: {source} {}, measured {} - {}",
            self.what,
            self.published,
            self.measured,
            self.verdict.word()
        )
    }

    /// The evidence as a user's scenario shows it (`c64kit test`): `line printed: expected
    /// "HELLO", measured "HELLO" printed - holds`. Every expected value there is the user's.
    pub fn test_evidence(&self) -> String {
        if self.verdict == Verdict::NotChecked {
            return format!(
                "{}: expected {} - {}",
                self.what,
                self.published,
                self.verdict.word()
            );
        }
        format!(
            "{}: expected {}, measured {} - {}",
            self.what,
            self.published,
            self.measured,
            self.verdict.word()
        )
    }

    /// The evidence with why the check was not made, for a report read check by check
    /// (JUnit).
    pub fn evidence_with_reason(&self, fact: &str) -> String {
        match (self.kind, self.verdict, &self.detail) {
            (Kind::Fact, Verdict::NotChecked, Some(why)) => {
                format!("{} ({why})", self.evidence(fact))
            }
            _ => self.evidence(fact),
        }
    }
}

/// Why facts were not checked, each reason once with how many checks it stopped, most first:
/// [(36, "no labels for this program (...)")].
pub fn not_checked_reasons<'a>(checks: impl Iterator<Item = &'a Check>) -> Vec<(usize, String)> {
    let mut reasons: Vec<(usize, String)> = Vec::new();
    for c in checks.filter(|c| c.kind == Kind::Fact && c.verdict == Verdict::NotChecked) {
        let why = c.detail.clone().unwrap_or_else(|| "no reason given".into());
        match reasons.iter_mut().find(|(_, r)| *r == why) {
            Some((n, _)) => *n += 1,
            None => reasons.push((1, why)),
        }
    }
    reasons.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    reasons
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

/// Seconds of C64 time for a cycle count on a machine whose clock runs at `clock_hz`
/// (`Machine::clock_hz`: the VIC-II model's), one decimal.
pub fn c64_seconds(cycles: u64, clock_hz: u64) -> String {
    format!("{:.1} s", cycles as f64 / clock_hz.max(1) as f64)
}

/// The 6510's registers, as a run or a call left them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Registers {
    pub a: u8,
    pub x: u8,
    pub y: u8,
    /// The status byte as PHP pushes it (bits 4 and 5 set).
    pub p: u8,
    /// The stack pointer and the PC: not known after a return to BASIC.
    pub sp: Option<u8>,
    pub pc: Option<u16>,
}

/// Why SP and PC cannot be checked after a run that returned to BASIC.
const ONLY_SYS_REGISTERS: &str = "after a return to BASIC, SP and PC are BASIC's; A, X, Y \
     and P are what the program left";

impl Registers {
    /// The CPU's registers as they are (a call that returned, a run that stopped).
    pub fn of(machine: &Machine) -> Registers {
        let cpu = &machine.cpu;
        Registers {
            a: cpu.a,
            x: cpu.x,
            y: cpu.y,
            p: cpu.p(),
            sp: Some(cpu.s),
            pc: Some(cpu.pc),
        }
    }

    /// What a program left when it returned to BASIC: A, X, Y and P as they are (`at_rts`:
    /// the run stopped at its RTS, as a program started at an address does), else as
    /// BASIC's SYS saved them at $030C-$030F (780-783), BASIC having run on since.
    pub fn returned(machine: &Machine, at_rts: bool) -> Registers {
        if at_rts {
            return Registers {
                sp: None,
                pc: None,
                ..Registers::of(machine)
            };
        }
        let at = c64kit_machine::boot::SYS_REGISTERS;
        let saved = ram_bytes(machine, at, 4);
        Registers {
            a: saved[0],
            x: saved[1],
            y: saved[2],
            p: saved[3],
            sp: None,
            pc: None,
        }
    }

    /// Register `name` ([`register_bits`] names them), if known.
    fn get(&self, name: &str) -> Option<u16> {
        match name {
            "a" => Some(self.a.into()),
            "x" => Some(self.x.into()),
            "y" => Some(self.y.into()),
            "p" => Some(self.p.into()),
            "sp" => self.sp.map(u16::from),
            _ => self.pc,
        }
    }
}

/// How wide a register a check may name is: 8 bits, 16 for the PC; None for no register.
pub fn register_bits(name: &str) -> Option<u32> {
    match name {
        "a" | "x" | "y" | "sp" | "p" => Some(8),
        "pc" => Some(16),
        _ => None,
    }
}

/// A flag's bit in the status byte (the 6502's order: N V - B D I Z C).
pub fn flag_bit(name: &str) -> Option<u8> {
    let at = ["c", "z", "i", "d", "", "", "v", "n"]
        .iter()
        .position(|f| !f.is_empty() && *f == name)?;
    Some(1 << at)
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
    /// The CPU's registers when the run (or the call) ended.
    pub registers: Option<Registers>,
    /// For `at = "label+n"`.
    pub labels: &'a Labels,
    /// Whose expected values these are: the blog's (the RYG suite) or the user's.
    pub suite: crate::Suite,
    /// The sound the run made, when an expectation asked for it (never after a call).
    pub sound: Option<&'a crate::sound::Recording>,
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
    let mut c = check_as_published(e, o);
    if o.suite == crate::Suite::User {
        // The user's expected values are theirs, not published.
        c.measured = c.measured.replace(" is published", " is expected");
    }
    c
}

fn check_as_published(e: &Expectation, o: &Observed) -> Check {
    if crate::sound::is_sound(e) {
        return crate::sound::check(e, o.sound);
    }
    let (text, screen, machine, cycles) = (o.text, o.screen, o.machine, o.cycles);
    let what = |default: String| e.value.clone().unwrap_or(default);
    let published = |default: String| e.published.clone().unwrap_or(default);
    let bound = |c: Check| if e.published.is_some() { c } else { c.ours() };
    if let Some(r) = &e.register {
        let want = e.equals.unwrap_or(0);
        let c = Check::new(
            Kind::Fact,
            what(format!("register {}", r.to_uppercase())),
            published(format!("${want:02X}")),
        );
        let Some(regs) = o.registers else {
            return c.not_checked("no registers: the program did not run");
        };
        let Some(got) = regs.get(r) else {
            return c.not_checked(ONLY_SYS_REGISTERS);
        };
        let shown = if r == "pc" {
            format!("${got:04X}")
        } else {
            format!("${got:02X}")
        };
        return c.measured(shown, got as u64 == want);
    }
    if let (Some(f), Some(want)) = (&e.flag, e.set) {
        let word = |set: bool| if set { "set" } else { "clear" };
        let c = Check::new(
            Kind::Fact,
            what(format!("flag {}", f.to_uppercase())),
            published(word(want).to_string()),
        );
        let (Some(regs), Some(bit)) = (o.registers, flag_bit(f)) else {
            return c.not_checked("no registers: the program did not run");
        };
        let got = regs.p & bit != 0;
        return c.measured(format!("{} (P = ${:02X})", word(got), regs.p), got == want);
    }
    if let Some(limit) = e.cycles_below {
        let c = Check::new(
            Kind::Fact,
            what("cycles".into()),
            published(format!("fewer than {}", thousands(limit))),
        );
        return bound(c).measured(thousands(cycles), cycles < limit);
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
        let c = Check::new(
            Kind::Fact,
            what(format!("{} consecutive lines", block.len())),
            published(format!("{block:?}")),
        );
        return match sequence_printed(text, block) {
            None => c.measured("printed one after another", true),
            Some(instead) => c.measured(instead, false),
        };
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
                c64_seconds(limit, o.machine.clock_hz()),
                thousands(limit)
            )),
        );
        return bound(c).measured(
            format!(
                "{} ({} cycles)",
                c64_seconds(cycles, o.machine.clock_hz()),
                thousands(cycles)
            ),
            cycles <= limit,
        );
    }
    if let Some(least) = e.cycles_at_least {
        let c = Check::new(
            Kind::Fact,
            what("cycles".into()),
            published(format!("at least {}", thousands(least))),
        );
        return bound(c).measured(thousands(cycles), cycles >= least);
    }
    if let Some(want) = &e.screen_contains {
        let c = Check::new(
            Kind::Fact,
            what("text on the screen".into()),
            published(format!("{want:?}")),
        );
        let shown = screen.iter().any(|row| row.contains(want.as_str()));
        // The evidence of a miss: the screen's rows that hold anything.
        let rows: Vec<String> = screen
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.trim().is_empty())
            .map(|(i, r)| format!("{i}: {:?}", r.trim_end()))
            .collect();
        return c.measured(
            if shown {
                format!("{want:?} shown")
            } else if rows.is_empty() {
                "not shown: the screen is empty".into()
            } else {
                format!("not shown; the screen's rows: {}", rows.join(", "))
            },
            shown,
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

/// Whether `block` was printed as consecutive lines of `text`: `None` when it was, else what
/// was printed instead, from the longest start of it that was: `"? B8A7" printed, then "B8A7"
/// where "ILLEGAL" is published`.
fn sequence_printed(text: &str, block: &[String]) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let run = |at: usize| {
        lines[at..]
            .iter()
            .zip(block)
            .take_while(|(a, b)| **a == b.as_str())
            .count()
    };
    let best = (0..lines.len()).map(|at| (run(at), at)).max_by(|a, b| {
        // The longest; of equal ones, the first.
        a.0.cmp(&b.0).then(b.1.cmp(&a.1))
    });
    let (matched, at) = match best {
        Some((n, at)) if n > 0 => (n, at),
        _ => {
            return Some(match block.first() {
                Some(first) => format!("not printed: no line {first:?}"),
                None => "nothing printed".into(),
            })
        }
    };
    if matched == block.len() {
        return None;
    }
    let printed = match matched {
        1 => format!("{:?} printed", block[0]),
        n => format!("its first {n} lines printed"),
    };
    let wanted = &block[matched];
    Some(match lines.get(at + matched) {
        Some(next) => format!("{printed}, then {next:?} where {wanted:?} is published"),
        None => format!("{printed}, then the transcript ends where {wanted:?} is published"),
    })
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
    // A bound the blog did not state is ours.
    let c = if e.at_most.is_some() && e.published.is_none() {
        c.ours()
    } else {
        c
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    fn block(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn a_sequence_not_printed_shows_what_was_printed_instead() {
        let text = "READY\n? B8A7\nB8A7\n? E1F2\n";
        assert_eq!(sequence_printed(text, &block(&["? E1F2"])), None);
        assert_eq!(
            sequence_printed(text, &block(&["? B8A7", "ILLEGAL"])).as_deref(),
            Some("\"? B8A7\" printed, then \"B8A7\" where \"ILLEGAL\" is published")
        );
        assert_eq!(
            sequence_printed(
                text,
                &block(&["? B8A7", "B8A7", "? E1F2", "COMPUTER'S MOVE"])
            )
            .as_deref(),
            Some(
                "its first 3 lines printed, then the transcript ends where \"COMPUTER'S \
                 MOVE\" is published"
            )
        );
        assert_eq!(
            sequence_printed(text, &block(&["ILLEGAL"])).as_deref(),
            Some("not printed: no line \"ILLEGAL\"")
        );
    }

    #[test]
    fn each_reason_for_unchecked_facts_is_said_once() {
        let unchecked = |why: &str| Check::new(Kind::Fact, "x", "1").not_checked(why);
        let checks = [
            unchecked("no labels"),
            Check::new(Kind::Fact, "y", "1").measured("1", true),
            unchecked("registers after a call only"),
            unchecked("no labels"),
        ];
        assert_eq!(
            not_checked_reasons(checks.iter()),
            [
                (2, "no labels".to_string()),
                (1, "registers after a call only".to_string())
            ]
        );
        assert_eq!(checks[0].evidence("F1"), "F1 x: published 1 - not checked");
        assert_eq!(
            checks[0].evidence_with_reason("F1"),
            "F1 x: published 1 - not checked (no labels)"
        );
    }

    #[test]
    fn bounds_of_ours_are_labelled_ours() {
        let labels = Labels::default();
        let machine = Machine::builtin();
        let observed = Observed {
            text: "",
            screen: &[],
            machine: &machine,
            cycles: 100,
            registers: None,
            labels: &labels,
            suite: crate::Suite::Ryg,
            sound: None,
        };
        let ours = Expectation {
            cycles_below: Some(3_000),
            ..Default::default()
        };
        let c = check(&ours, &observed);
        assert!(c.ours);
        assert_eq!(c.expected(), "ours: fewer than 3,000");
        assert_eq!(
            c.evidence("F11"),
            "F11 cycles: ours fewer than 3,000, measured 100 - holds"
        );
        let published = Expectation {
            published: Some("< 90 s".into()),
            cycles_at_most: Some(88_672_320),
            ..Default::default()
        };
        let c = check(&published, &observed);
        assert!(!c.ours);
        assert_eq!(c.expected(), "< 90 s");
    }
}
