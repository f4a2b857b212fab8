//! Scenario files: conformance/scenarios/*.toml, each with one or more `[[scenario]]`.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One replay of a published fact.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// The published fact it checks: "F15" (published.md).
    pub fact: String,
    /// The fact in a sentence, as the report shows it.
    pub claim: String,
    /// One of our programs by name ("ryg3-v10") or a path to a .prg/.cbmprj/.asm.
    pub program: String,
    /// The keyboard script (key-script syntax: a newline is RETURN).
    #[serde(default)]
    pub keys: String,
    /// Give up after this many cycles.
    pub max_cycles: u64,
    /// The stop reason the run must end with, as printed ("input exhausted").
    #[serde(default)]
    pub stop: Option<String>,
    /// Our frozen transcript, relative to conformance/golden.
    #[serde(default)]
    pub golden: Option<String>,
    /// The published program's transcript, relative to ../shared/ryg/reference: the whole
    /// transcript must be identical (a fact check, not a golden file).
    #[serde(default)]
    pub reference: Option<String>,
    #[serde(default)]
    pub expect: Vec<Expectation>,
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
    /// What the extracted value is ("nodes at depth 8"), for messages.
    pub value: Option<String>,
    pub group: Option<usize>,
    pub radix: Option<u32>,
    pub equals: Option<u64>,
    pub at_most: Option<u64>,
    /// The regex must match exactly this many times.
    pub count: Option<usize>,
    /// This text must not appear in the transcript.
    pub absent: Option<String>,
    /// Memory after the run: `bytes` at `address`.
    pub address: Option<u16>,
    pub bytes: Option<Vec<u8>>,
    /// The run must take at most this many cycles.
    pub cycles_at_most: Option<u64>,
    /// Screen row (0-24) must read `text` (trailing spaces ignored).
    pub screen_row: Option<usize>,
    pub text: Option<String>,
}

/// The largest scenario file read: a file holds a few scenarios of a few lines each.
pub const MAX_SCENARIO_FILE: u64 = c64kit_files::MIB;

/// The scenarios of one file, or an error naming the file.
pub fn load_file(path: &Path) -> Result<Vec<Scenario>, String> {
    let text = c64kit_files::read_text(path, MAX_SCENARIO_FILE, "a scenario file")
        .map_err(|e| e.to_string())?;
    parse(&text, &path.display().to_string())
}

/// The scenarios of a file's text; `name` names the file in errors.
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
    }
    Ok(file.scenario)
}

/// Every scenario under `dir`, in file then declaration order. Names must be unique.
pub fn load_dir(dir: &Path) -> Result<Vec<Scenario>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut all: Vec<Scenario> = Vec::new();
    for f in files {
        for s in load_file(&f)? {
            if all.iter().any(|o| o.name == s.name) {
                return Err(format!(
                    "{}: scenario name {:?} is used twice",
                    f.display(),
                    s.name
                ));
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
            self.address.is_some(),
            self.cycles_at_most.is_some(),
            self.screen_row.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count()
    }

    fn validate(&self) -> Result<(), String> {
        if self.kinds() != 1 {
            return Err("give exactly one of line, lines, regex, absent, address, cycles_at_most, screen_row".into());
        }
        if self.address.is_some() != self.bytes.is_some() {
            return Err("address and bytes go together".into());
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
