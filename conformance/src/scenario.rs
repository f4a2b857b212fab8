//! Scenario files: conformance/scenarios/*.toml, each with one or more `[[scenario]]`
//! (built into c64kit: see build.rs).

use serde::Deserialize;

/// One replay of a published fact.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// The published fact it checks: "F15" (published.md).
    pub fact: String,
    /// The fact in a sentence, as the report shows it.
    pub claim: String,
    /// What the report must say beside the fact: where published.md and the spec
    /// disagree, or a part of the fact that cannot be checked as stated.
    #[serde(default)]
    pub note: Option<String>,
    /// One of our programs by name ("ryg3-v10", "ryg-v19", "ramunder"): a project of
    /// programs/, built into c64kit.
    pub program: String,
    /// The keyboard script (key-script syntax: a newline is RETURN). With keys (even ""),
    /// the program is RUN and typed at until it stops; a scenario with only `call`s and no
    /// keys loads the program without running it, as sim6502 does.
    #[serde(default)]
    pub keys: Option<String>,
    /// Give up after this many cycles.
    pub max_cycles: u64,
    /// The stop reason the run must end with, as printed ("input exhausted").
    #[serde(default)]
    pub stop: Option<String>,
    /// Our frozen transcript, relative to conformance/golden.
    #[serde(default)]
    pub golden: Option<String>,
    /// The published program's transcript (a file of ../shared/ryg/reference): compared
    /// whole, informative (a cosmetic change makes it differ; the facts decide).
    #[serde(default)]
    pub reference: Option<String>,
    #[serde(default)]
    pub expect: Vec<Expectation>,
    /// Routine-level checks, after the key script (if any), in order, on the same machine.
    #[serde(default)]
    pub call: Vec<Call>,
}

/// A call of one routine: set memory and registers, JSR to it (as SYS does: its RTS ends
/// the call), then check registers, memory and the cycles it took.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Call {
    /// A label of the program ("eval") or an address ("$0823"), optionally `label+n`.
    pub routine: String,
    /// What the call does, for the report ("eval of the start position").
    #[serde(default)]
    pub what: Option<String>,
    /// Registers on entry (SYS's $030C..$030E), 0 when not given.
    #[serde(default)]
    pub a: u8,
    #[serde(default)]
    pub x: u8,
    #[serde(default)]
    pub y: u8,
    /// Memory written before the call.
    #[serde(default)]
    pub poke: Vec<Poke>,
    /// Give up after this many cycles (default 10,000,000).
    #[serde(default = "default_call_cycles")]
    pub max_cycles: u64,
    #[serde(default)]
    pub expect: Vec<Expectation>,
}

fn default_call_cycles() -> u64 {
    10_000_000
}

/// Bytes written at a label or address before a call.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Poke {
    /// "BOARD", "BOARD+12" or "$4600".
    pub at: String,
    pub bytes: Vec<u8>,
}

/// A check on the run's result. Exactly one of the kinds is given per entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// This exact line appears in the transcript.
    pub line: Option<String>,
    /// These lines appear one after another.
    pub lines: Option<Vec<String>>,
    /// The regular expression matches the transcript; with `equals`/`at_most` its capture
    /// group `group` (default 1) is read as a number in `radix` (default 10) and compared.
    pub regex: Option<String>,
    /// What is checked, short ("nodes over the 8 iterations"): the report's name for it.
    pub value: Option<String>,
    /// The published value as the blog states it ("< 90 s on a real C64"), when the
    /// report should show that rather than the value the check compares against.
    pub published: Option<String>,
    pub group: Option<usize>,
    pub radix: Option<u32>,
    pub equals: Option<u64>,
    pub at_most: Option<u64>,
    /// The capture group must read exactly this text (a move: "H8G7").
    pub text_equals: Option<String>,
    /// The capture group of every match, in order, must read these texts.
    pub texts_equal: Option<Vec<String>>,
    /// The regex must match exactly this many times.
    pub count: Option<usize>,
    /// This text must not appear in the transcript.
    pub absent: Option<String>,
    /// Memory after the run: `bytes` at `address`, or at `at` (a label, "label+n" or "$hhhh").
    pub address: Option<u16>,
    pub at: Option<String>,
    pub bytes: Option<Vec<u8>>,
    /// The run (or the call) must take at most this many cycles.
    pub cycles_at_most: Option<u64>,
    /// The call must take fewer than this many cycles.
    pub cycles_below: Option<u64>,
    /// After a call: register "a", "x" or "y" must equal `equals`.
    pub register: Option<String>,
    /// Screen row (0-24) must read `text` (trailing spaces ignored).
    pub screen_row: Option<usize>,
    pub text: Option<String>,
}

/// The scenarios of one file's text; `name` names the file in errors.
pub fn parse(text: &str, name: &str) -> Result<Vec<Scenario>, String> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        scenario: Vec<Scenario>,
    }
    let file: File = toml::from_str(text)
        .map_err(|e| format!("{name}: {}", c64kit_files::clip_lines(&e.to_string())))?;
    for s in &file.scenario {
        for (i, e) in s.expect.iter().enumerate() {
            e.validate()
                .map_err(|m| format!("{name}: scenario {:?}, expect #{}: {m}", s.name, i + 1))?;
        }
        for (c, call) in s.call.iter().enumerate() {
            for (i, e) in call.expect.iter().enumerate() {
                e.validate().map_err(|m| {
                    format!(
                        "{name}: scenario {:?}, call #{} ({}), expect #{}: {m}",
                        s.name,
                        c + 1,
                        call.routine,
                        i + 1
                    )
                })?;
            }
        }
    }
    Ok(file.scenario)
}

/// Every scenario of these files (name, text), in the files' order then declaration order.
/// Names must be unique.
pub fn parse_all<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Vec<Scenario>, String> {
    let mut all: Vec<Scenario> = Vec::new();
    for (file, text) in files {
        for s in parse(text, file)? {
            if all.iter().any(|o| o.name == s.name) {
                return Err(format!("{file}: scenario name {:?} is used twice", s.name));
            }
            all.push(s);
        }
    }
    Ok(all)
}

impl Expectation {
    fn kinds(&self) -> usize {
        [
            self.line.is_some(),
            self.lines.is_some(),
            self.regex.is_some(),
            self.absent.is_some(),
            self.address.is_some() || self.at.is_some(),
            self.cycles_at_most.is_some(),
            self.cycles_below.is_some(),
            self.register.is_some(),
            self.screen_row.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count()
    }

    fn validate(&self) -> Result<(), String> {
        if self.kinds() != 1 {
            return Err(
                "give exactly one of line, lines, regex, absent, address (or at), \
                        cycles_at_most, cycles_below, register, screen_row"
                    .into(),
            );
        }
        if (self.address.is_some() || self.at.is_some()) != self.bytes.is_some() {
            return Err("address (or at) and bytes go together".into());
        }
        if self.address.is_some() && self.at.is_some() {
            return Err("give address or at, not both".into());
        }
        let numeric = self.equals.is_some() || self.at_most.is_some();
        if self.regex.is_none() && self.register.is_none() && numeric {
            return Err("equals and at_most go with regex or register".into());
        }
        let texts = self.text_equals.is_some() || self.texts_equal.is_some();
        if self.regex.is_none() && (self.count.is_some() || texts) {
            return Err("count, text_equals and texts_equal go with regex".into());
        }
        if let Some(r) = &self.register {
            if !matches!(r.as_str(), "a" | "x" | "y") || self.equals.is_none() {
                return Err("register is \"a\", \"x\" or \"y\", with equals".into());
            }
        }
        if self.screen_row.is_some() != self.text.is_some() {
            return Err("screen_row and text go together".into());
        }
        if let Some(r) = &self.regex {
            regex::Regex::new(r).map_err(|e| format!("bad regex: {e}"))?;
        }
        Ok(())
    }
}
