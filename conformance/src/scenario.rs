//! Scenario files, each with one or more `[[scenario]]`: the RYG suite's
//! (conformance/scenarios/*.toml, built into c64kit: see build.rs) and a user's own
//! (`c64kit test`, docs/testing.md). One format for both; the keys only the RYG suite uses
//! (`fact`, `claim`, `reference`) are refused in a user's files, and a user's `program` and
//! `golden` name files relative to the scenario file.

use crate::host::Setup;
use serde::Deserialize;
use std::path::{Component, Path, PathBuf};

/// One run of a program with what must come out: a replay of a published fact (the RYG
/// suite) or a user's test.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    /// The published fact it checks: "F15" (published.md). The RYG suite only.
    #[serde(default)]
    pub fact: String,
    /// The fact in a sentence, as the report shows it. The RYG suite only.
    #[serde(default)]
    pub claim: String,
    /// What the report must say beside the fact: where published.md and the spec
    /// disagree, or a part of the fact that cannot be checked as stated.
    #[serde(default)]
    pub note: Option<String>,
    /// The RYG suite: one of our programs by name ("ryg3-v10", "ryg-v19", "ramunder"), a
    /// project of programs/, built into c64kit. A user's scenario: a file relative to the
    /// scenario file (.prg, .bas, .asm or .cbmprj).
    pub program: String,
    /// A file inside the program when it is a tape or disk image (.t64, .d64): its name as
    /// `c64kit run --entry` takes it (`*` and `?` match as LOAD's do).
    #[serde(default)]
    pub entry: Option<String>,
    /// The keyboard script (key-script syntax: a newline is RETURN). With keys (even ""),
    /// the program is RUN and typed at until it stops; a scenario with only `call`s and no
    /// keys loads the program without running it, as sim6502 does.
    #[serde(default)]
    pub keys: Option<String>,
    /// Give up after this many cycles (default: 10 minutes of PAL C64 time, as `c64kit run`).
    #[serde(default = "default_max_cycles")]
    pub max_cycles: u64,
    /// The stop reason the run must end with, as printed ("input exhausted").
    #[serde(default)]
    pub stop: Option<String>,
    /// The status the program returned to BASIC with (ST, $90): a cc65 program's `main`
    /// return value or `exit` code.
    #[serde(default)]
    pub exit_status: Option<u8>,
    /// The whole transcript, as `c64kit run` prints it.
    #[serde(default)]
    pub transcript: Option<String>,
    /// The frozen transcript: relative to conformance/golden (the RYG suite), or to the
    /// scenario file's folder (a user's).
    #[serde(default)]
    pub golden: Option<String>,
    /// A golden picture (a user's scenario): the screen when the run ends, compared with
    /// this PNG (relative to the scenario file's folder) by VICE's testbench rule; written
    /// by `c64kit test --update`.
    #[serde(default)]
    pub screenshot: Option<String>,
    /// The published program's transcript (a file of ../shared/ryg/reference): compared
    /// whole, informative (a cosmetic change makes it differ; the facts decide).
    #[serde(default)]
    pub reference: Option<String>,
    /// The run's settings (a user's scenario): the keys of c64kit.toml, read by the
    /// command line's reader of it (see [`crate::host`]) into `setup`.
    #[serde(default)]
    pub settings: Option<toml::Table>,
    /// What `settings` say (set when the scenario file is read, not a key).
    #[serde(skip)]
    pub setup: Setup,
    #[serde(default)]
    pub expect: Vec<Expectation>,
    /// Routine-level checks, after the key script (if any), in order, on the same machine.
    #[serde(default)]
    pub call: Vec<Call>,
    /// Where the scenario was read from (set by the parser, not a key).
    #[serde(skip)]
    pub origin: Origin,
}

/// 10 minutes of PAL C64 time: a runaway program ends with a clear reason, as under
/// `c64kit run`.
fn default_max_cycles() -> u64 {
    600 * c64kit_machine::PAL_HZ
}

/// Where a scenario comes from, which decides how its files are found and its transcript
/// shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Origin {
    /// The RYG suite, built in: programs by name, golden files in conformance/golden, the
    /// transcript as the published reference files write it.
    #[default]
    BuiltIn,
    /// A user's scenario file (`c64kit test`): files relative to `dir`, the transcript as
    /// `c64kit run` prints it.
    File {
        /// The scenario file as named on the command line (or found in a folder).
        file: PathBuf,
        /// Its folder.
        dir: PathBuf,
        /// The line of its `[[scenario]]` (1-based).
        line: usize,
        /// The line of each key of its settings: its own `[scenario.settings]`, then the
        /// file's `[settings]` where it gives no such key.
        settings_lines: Vec<(String, usize)>,
        /// The keys of its settings that come from the file's `[settings]`.
        file_settings: Vec<String>,
    },
}

impl Scenario {
    /// The clock of the machine it runs on (its VIC-II model's, the default's when its
    /// settings name none), cycles per second: what its cycles are in C64 time.
    pub fn clock_hz(&self) -> u64 {
        self.setup.vic.unwrap_or_default().clock_hz()
    }

    /// "tests/greeting.toml:3" for a user's scenario, "" for the RYG suite's.
    pub fn location(&self) -> String {
        match &self.origin {
            Origin::BuiltIn => String::new(),
            Origin::File { file, line, .. } => format!("{}:{line}", file.display()),
        }
    }

    /// How an error names a key of the scenario's `[scenario.settings]`:
    /// `tests/x.toml:7: scenario "ntsc": key `settings.vic``, at the key's line.
    pub fn settings_key(&self, key: &str) -> String {
        let Origin::File {
            file,
            line,
            settings_lines,
            file_settings,
            ..
        } = &self.origin
        else {
            return format!("scenario {:?}: key `settings.{key}`", self.name);
        };
        // A key of a table under settings ("roms.kernal") is on its table's line at least.
        let top = key.split(['.', ' ']).next().unwrap_or("");
        let at = settings_lines
            .iter()
            .find(|(k, _)| k == top)
            .map_or(*line, |(_, l)| *l);
        let key = if key.is_empty() {
            "settings".to_string()
        } else {
            format!("settings.{key}")
        };
        if file_settings.iter().any(|k| k == top) {
            return format!(
                "{}:{at}: key `{key}` of the file's [settings] (for scenario {:?})",
                file.display(),
                self.name
            );
        }
        format!(
            "{}:{at}: scenario {:?}: key `{key}`",
            file.display(),
            self.name
        )
    }

    /// The scenario's `program` file (a user's scenario only).
    pub fn program_path(&self) -> Option<PathBuf> {
        match &self.origin {
            Origin::BuiltIn => None,
            Origin::File { dir, .. } => Some(dir.join(&self.program)),
        }
    }

    /// The scenario's golden file (a user's scenario with `golden` only).
    pub fn golden_path(&self) -> Option<PathBuf> {
        match (&self.origin, &self.golden) {
            (Origin::File { dir, .. }, Some(g)) => Some(dir.join(g)),
            _ => None,
        }
    }

    /// The scenario's golden picture (a user's scenario with `screenshot` only).
    pub fn screenshot_path(&self) -> Option<PathBuf> {
        match (&self.origin, &self.screenshot) {
            (Origin::File { dir, .. }, Some(g)) => Some(dir.join(g)),
            _ => None,
        }
    }
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
    /// The run (or the call) must take at least this many cycles.
    pub cycles_at_least: Option<u64>,
    /// The call must take fewer than this many cycles.
    pub cycles_below: Option<u64>,
    /// After the run or a call: register "a", "x", "y", "sp", "p" (the status byte, as PHP
    /// pushes it) or "pc" must equal `equals`.
    pub register: Option<String>,
    /// After the run or a call: flag "n", "v", "d", "i", "z" or "c" must be `set` (true) or
    /// clear (false).
    pub flag: Option<String>,
    pub set: Option<bool>,
    /// Screen row (0-24) must read `text` (trailing spaces ignored).
    pub screen_row: Option<usize>,
    pub text: Option<String>,
    /// The final screen shows this text on one of its rows.
    pub screen_contains: Option<String>,
    /// The SID's sound over the run, or over a window of it (`from_frame`/`from_cycle` to
    /// `to_frame`/`to_cycle`, from RUN): "silent", "audible", "level" (`dbfs_at_least`,
    /// `dbfs_at_most`: the RMS level) or "pitch" (`hz` or `note`, within `cents`). See
    /// [`crate::sound`].
    pub sound: Option<String>,
    pub hz: Option<f64>,
    pub note: Option<String>,
    pub cents: Option<f64>,
    pub dbfs_at_least: Option<f64>,
    pub dbfs_at_most: Option<f64>,
    pub from_frame: Option<u64>,
    pub to_frame: Option<u64>,
    pub from_cycle: Option<u64>,
    pub to_cycle: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    scenario: Vec<Scenario>,
    /// Settings every scenario of the file runs with (a user's file): the keys of
    /// `[scenario.settings]`, which a scenario's own override key by key.
    #[serde(default)]
    settings: Option<toml::Table>,
}

/// `over` laid over `base`, key by key: a key of both that is a table in both (`roms`) is
/// merged the same way, any other key of `over` replaces `base`'s.
fn merged(base: &toml::Table, over: &toml::Table) -> toml::Table {
    let mut out = base.clone();
    for (key, value) in over {
        let both = match (out.get(key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => Some(merged(b, o)),
            _ => None,
        };
        out.insert(
            key.clone(),
            both.map_or_else(|| value.clone(), toml::Value::Table),
        );
    }
    out
}

/// What is wrong with a scenario's expectations: (which one, counted from 1 as
/// "call #c, expect #e" or "expect #e"; the message).
fn check_expectations(s: &Scenario) -> Result<(), (Option<usize>, usize, String)> {
    for (i, e) in s.expect.iter().enumerate() {
        e.validate().map_err(|m| (None, i, m))?;
    }
    for (c, call) in s.call.iter().enumerate() {
        for (i, e) in call.expect.iter().enumerate() {
            e.validate().map_err(|m| (Some(c), i, m))?;
            if crate::sound::is_sound(e) {
                return Err((
                    Some(c),
                    i,
                    "sound is checked over the run ([[scenario.expect]]), not after a call".into(),
                ));
            }
        }
    }
    Ok(())
}

/// The scenarios of one file's text; `name` names the file in errors.
pub fn parse(text: &str, name: &str) -> Result<Vec<Scenario>, String> {
    let file: File = toml::from_str(text)
        .map_err(|e| format!("{name}: {}", c64kit_files::clip_lines(&e.to_string())))?;
    if file.settings.is_some() {
        return Err(format!(
            "{name}: the RYG suite's scenarios run on the C64 as the blog's programs did: no \
             settings"
        ));
    }
    for s in &file.scenario {
        if s.settings.is_some() || s.screenshot.is_some() {
            return Err(format!(
                "{name}: scenario {:?}: the RYG suite's scenarios run on the C64 as the blog's \
                 programs did and check published facts: no settings, no screenshot",
                s.name
            ));
        }
        check_expectations(s).map_err(|(call, i, m)| match call {
            None => format!("{name}: scenario {:?}, expect #{}: {m}", s.name, i + 1),
            Some(c) => format!(
                "{name}: scenario {:?}, call #{} ({}), expect #{}: {m}",
                s.name,
                c + 1,
                s.call[c].routine,
                i + 1
            ),
        })?;
    }
    Ok(file.scenario)
}

/// Where each scenario of a file, and each of its keys that can be wrong, begins: for
/// errors that name the line.
#[derive(Deserialize)]
struct FileSpans {
    #[serde(default)]
    scenario: Vec<toml::Spanned<ScenarioSpans>>,
    settings: Option<std::collections::BTreeMap<String, Span>>,
}

type Span = Option<toml::Spanned<serde::de::IgnoredAny>>;

#[derive(Deserialize)]
struct ScenarioSpans {
    fact: Span,
    claim: Span,
    reference: Span,
    program: Span,
    golden: Span,
    screenshot: Span,
    keys: Span,
    entry: Span,
    max_cycles: Span,
    // Not Spanned itself: a table made only by `[scenario.settings.roms]` has no span of
    // its own, and toml refuses to give one.
    settings: Option<std::collections::BTreeMap<String, Span>>,
    #[serde(default)]
    expect: Vec<toml::Spanned<serde::de::IgnoredAny>>,
    #[serde(default)]
    call: Vec<toml::Spanned<CallSpans>>,
}

#[derive(Deserialize)]
struct CallSpans {
    #[serde(default)]
    expect: Vec<toml::Spanned<serde::de::IgnoredAny>>,
}

/// The 1-based line of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// What the keys of a user's scenario file are, for errors about them.
pub const KEYS_ADVICE: &str = "docs/testing.md lists the keys a scenario file takes";

/// The scenarios of a user's scenario file (`c64kit test`): its text, read from `path`.
/// Errors name the file, the line and the key, with what to do: a key the format does not
/// have, a value of the wrong type, a missing `program`, the RYG suite's own keys, a
/// `golden` file outside the scenario's folder (golden files are written) or one that would
/// be the scenario file or its program.
pub fn parse_file(text: &str, path: &Path) -> Result<Vec<Scenario>, String> {
    let shown = path.display();
    let file: File = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        let at = line.map_or(String::new(), |l| format!(":{l}"));
        let mut message = e.message().trim_end().to_string();
        if message.starts_with("unknown field") {
            // The keys only the RYG suite takes are refused here anyway: not offered.
            for key in ["`fact`, ", "`claim`, ", "`reference`, "] {
                message = message.replace(key, "");
            }
        }
        for t in ["u64", "u32", "u8", "usize"] {
            message = message.replace(&format!("expected {t}"), "expected a whole number");
        }
        // A TOML table ([scenario.settings]) is a map to serde.
        message = message.replace("expected a map", "expected a table");
        // The line itself, for a value of the wrong type (which the message does not name).
        if let Some(l) = line.filter(|_| message.contains("invalid type")) {
            let source = text.lines().nth(l - 1).unwrap_or("").trim();
            message = format!("{message}, in `{}`", c64kit_files::quote(source));
        }
        let message = c64kit_files::clip_lines(&message);
        let advice = if message.contains("missing field `scenario`") {
            "a scenario file has one or more [[scenario]] tables, each with a name and a \
             program"
        } else if message.contains("unknown field") || message.contains("missing field") {
            KEYS_ADVICE
        } else if message.contains("invalid type") {
            "numbers go unquoted, text in quotes, lists in [ ]; docs/testing.md gives each \
             key's type"
        } else {
            "is it TOML? docs/testing.md has examples"
        };
        format!("{shown}{at}: {message} ({advice})")
    })?;
    let spans: FileSpans = toml::from_str(text).map_err(|e| format!("{shown}: {e}"))?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    // The line of each key of the file's [settings]; a key of a table made only by its
    // header ([settings.roms]) is on that header's line.
    let header = text
        .lines()
        .position(|l| {
            let l = l.trim_start();
            l.starts_with("[settings]") || l.starts_with("[settings.")
        })
        .map_or(1, |i| i + 1);
    let shared_lines: Vec<(String, usize)> = spans
        .settings
        .iter()
        .flatten()
        .map(|(key, span)| {
            let l = span
                .as_ref()
                .map_or(header, |s| line_of(text, s.span().start));
            (key.clone(), l)
        })
        .collect();
    let mut scenarios = Vec::with_capacity(file.scenario.len());
    for (mut s, spans) in file.scenario.into_iter().zip(spans.scenario) {
        let line = line_of(text, spans.span().start);
        let at = |span: &Span| {
            span.as_ref()
                .map_or(line, |s| line_of(text, s.span().start))
        };
        let err = |line: usize, m: String| format!("{shown}:{line}: scenario {:?}: {m}", s.name);
        let spans = spans.into_inner();
        for (key, span, advice) in [
            (
                "fact",
                &spans.fact,
                "it names a published RYG fact (c64kit conform); say what the scenario \
                 checks in its name, or in a # comment",
            ),
            (
                "claim",
                &spans.claim,
                "it states a published RYG fact (c64kit conform); say what the scenario \
                 checks in its name, or in a # comment",
            ),
            (
                "reference",
                &spans.reference,
                "it names a published RYG transcript built into c64kit conform; compare \
                 your program's transcript with golden = \"FILE\" or transcript = \"...\"",
            ),
        ] {
            if span.is_some() {
                return Err(err(
                    at(span),
                    format!("key `{key}` is the RYG suite's only: {advice}"),
                ));
            }
        }
        if s.program.trim().is_empty() {
            return Err(err(
                at(&spans.program),
                "key `program` is empty: name the program file (.prg, .bas, .asm or \
                 .cbmprj), relative to the scenario file"
                    .into(),
            ));
        }
        if Path::new(&s.program).is_absolute() {
            return Err(err(
                at(&spans.program),
                format!(
                    "key `program`: {:?} is an absolute path; name it relative to the \
                     scenario file's folder, so the suite works in any checkout",
                    s.program
                ),
            ));
        }
        if s.entry.is_some() && crate::is_own_format(Path::new(&s.program)) {
            return Err(err(
                at(&spans.entry),
                format!(
                    "key `entry` chooses a file inside a tape or disk image (.t64, .d64), and \
                     {:?} is one program: leave `entry` out",
                    s.program
                ),
            ));
        }
        if s.entry.as_deref().is_some_and(|e| e.trim().is_empty()) {
            return Err(err(
                at(&spans.entry),
                "key `entry` is empty: name a file of the image (c64kit dir IMAGE lists them)"
                    .into(),
            ));
        }
        for (key, file, span, ext) in [
            ("golden", &s.golden, &spans.golden, "txt"),
            ("screenshot", &s.screenshot, &spans.screenshot, "png"),
        ] {
            if let Some(why) = file
                .as_deref()
                .and_then(|f| written_file_problem(f, ext, &s, &dir, path))
            {
                return Err(err(at(span), format!("key `{key}` {why}")));
            }
        }
        if let Some(keys) = &s.keys {
            c64kit_basic::parse_key_script(keys).map_err(|e| {
                err(
                    at(&spans.keys),
                    format!(
                        "key `keys`: {e} (`c64kit run --help`, under --input, lists the key \
                         script's forms)"
                    ),
                )
            })?;
        }
        check_expectations(&s).map_err(|(call, i, m)| {
            let (eline, which) = match call {
                None => (
                    spans.expect.get(i).map(|e| line_of(text, e.span().start)),
                    format!("expect #{}", i + 1),
                ),
                Some(c) => (
                    spans.call.get(c).and_then(|cs| {
                        cs.get_ref()
                            .expect
                            .get(i)
                            .map(|e| line_of(text, e.span().start))
                    }),
                    format!("call #{} ({}), expect #{}", c + 1, s.call[c].routine, i + 1),
                ),
            };
            err(eline.unwrap_or(line), format!("{which}: {m}"))
        })?;
        let mut settings_lines = Vec::new();
        if let Some(settings) = &spans.settings {
            for (key, span) in settings {
                let l = span
                    .as_ref()
                    .map_or(line, |s| line_of(text, s.span().start));
                settings_lines.push((key.clone(), l));
            }
            let in_settings = s
                .settings
                .as_ref()
                .is_some_and(|t| t.contains_key("max_cycles"));
            if in_settings && spans.max_cycles.is_some() {
                return Err(err(
                    at(&spans.max_cycles),
                    "the budget is given twice, as `max_cycles` and as `settings.max_cycles`: \
                     give it once"
                        .into(),
                ));
            }
        }
        // The file's [settings], under the scenario's own, key by key.
        let mut file_settings = Vec::new();
        if let Some(shared) = &file.settings {
            let own = s.settings.take().unwrap_or_default();
            for (key, l) in &shared_lines {
                if !own.contains_key(key) {
                    settings_lines.push((key.clone(), *l));
                    file_settings.push(key.clone());
                }
            }
            let mut table = merged(shared, &own);
            // The scenario's own `max_cycles` is its budget, whatever the file's says.
            if spans.max_cycles.is_some() && !own.contains_key("max_cycles") {
                table.remove("max_cycles");
            }
            s.settings = Some(table);
        }
        s.origin = Origin::File {
            file: path.to_path_buf(),
            dir: dir.clone(),
            line,
            settings_lines,
            file_settings,
        };
        scenarios.push(s);
    }
    Ok(scenarios)
}

/// What is wrong with `file`, a file `c64kit test --update` writes (a golden transcript, .txt,
/// or a golden picture, .png), relative to the scenario file's folder `dir`: None when
/// nothing is. It must stay in that folder or below it, and be neither a scenario file nor
/// the scenario file `path` nor the program.
fn written_file_problem(
    file: &str,
    ext: &str,
    s: &Scenario,
    dir: &Path,
    path: &Path,
) -> Option<String> {
    let g = Path::new(file);
    let leaves = g.is_absolute()
        || g.components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir));
    let named_dir = if dir.as_os_str().is_empty() {
        ".".to_string()
    } else {
        dir.display().to_string()
    };
    let has = |e: &str| g.extension().is_some_and(|x| x.eq_ignore_ascii_case(e));
    if file.trim().is_empty() {
        Some(format!(
            "is empty: name the file `--update` writes, e.g. \"golden/NAME.{ext}\""
        ))
    } else if leaves {
        Some(format!(
            "{file:?} leaves the scenario file's folder: c64kit test --update writes golden \
             files, so they stay in {named_dir} or below it (e.g. \"golden/{}.{ext}\")",
            s.name
        ))
    } else if has("toml") {
        Some(format!(
            "{file:?} ends in .toml, so it would be read as a scenario file; name it .{ext}"
        ))
    } else if ext == "png" && !has("png") {
        Some(format!(
            "{file:?}: a golden picture is a PNG file; name it .png"
        ))
    } else if dir.join(g) == path {
        Some(format!(
            "{file:?} is the scenario file: --update would write over it"
        ))
    } else if dir.join(g) == dir.join(&s.program) {
        Some(format!(
            "{file:?} is the program: --update would write over it"
        ))
    } else {
        None
    }
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
            self.cycles_at_least.is_some(),
            self.cycles_below.is_some(),
            self.register.is_some(),
            self.flag.is_some(),
            self.screen_row.is_some(),
            self.screen_contains.is_some(),
            self.sound.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count()
    }

    fn validate(&self) -> Result<(), String> {
        if self.kinds() != 1 {
            return Err(
                "give exactly one of line, lines, regex, absent, address (or at), \
                        cycles_at_most, cycles_at_least, cycles_below, register, flag, \
                        screen_row, screen_contains, sound"
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
            let Some(bits) = crate::check::register_bits(r) else {
                return Err(
                    "register is \"a\", \"x\", \"y\", \"sp\", \"p\" or \"pc\", with equals".into(),
                );
            };
            match self.equals {
                None => return Err(format!("register {r:?} goes with equals")),
                Some(v) if v >> bits != 0 => {
                    return Err(format!(
                        "register {r:?} holds {bits} bits: equals {v} cannot be (at most {})",
                        (1u32 << bits) - 1
                    ))
                }
                Some(_) => {}
            }
        }
        if self.flag.is_some() != self.set.is_some() {
            return Err("flag and set go together: flag = \"c\", set = true".into());
        }
        if let Some(f) = &self.flag {
            if crate::check::flag_bit(f).is_none() {
                return Err(format!(
                    "flag {f:?}: a flag is \"n\", \"v\", \"d\", \"i\", \"z\" or \"c\""
                ));
            }
        }
        if self.screen_row.is_some() != self.text.is_some() {
            return Err("screen_row and text go together".into());
        }
        if let Some(r) = &self.regex {
            regex::Regex::new(r).map_err(|e| format!("bad regex: {e}"))?;
        }
        crate::sound::validate(self)
    }
}
