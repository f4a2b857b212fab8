//! c64kit-conformance: runs scenarios on the kit, judges them and reports, with evidence.
//! Two suites use this one engine: the RYG blog's published facts
//! (../shared/ryg/published.md, `c64kit conform`), and a user's own scenario files
//! (`c64kit test`, docs/testing.md). Each scenario names the program, the keys to type, the
//! routines to call and what must come out. The RYG suite (its scenarios, golden files, the
//! published facts and the published program's transcripts) is built into the crate, so
//! `c64kit conform` works from any folder; `cargo xtask conform` and `cargo test` run the
//! same library.

// Standard output and error go through c64kit_files::stdio (outln!, errln!), which never
// panics; println! and eprintln! panic when the reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod app;
pub mod check;
pub mod host;
pub mod labels;
pub mod report;
pub mod scenario;
pub mod sound;
pub mod test;

mod suite_files {
    include!(concat!(env!("OUT_DIR"), "/suite_files.rs"));
}

use c64kit_basic::NoSys;
use c64kit_machine::{Entry, Machine, RomPaths, Roms, StartError};
pub use c64kit_machine::{Prg, StopReason};
use check::{Check, Kind, Verdict};
use labels::Labels;
pub use scenario::{Expectation, Origin, Scenario};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// conformance/ in the checkout this crate was built from (for rewriting golden files).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where the golden files live in the checkout (the suite reads the built-in copies).
pub fn golden_dir() -> PathBuf {
    root().join("golden")
}

/// Every scenario of the suite, as built in. Each states the published fact it checks.
pub fn all_scenarios() -> Result<Vec<Scenario>, String> {
    let all = scenario::parse_all(suite_files::SCENARIO_FILES.iter().copied())?;
    if let Some(s) = all.iter().find(|s| s.fact.is_empty() || s.claim.is_empty()) {
        return Err(format!(
            "scenario {:?}: the RYG suite's scenarios name their fact and claim",
            s.name
        ));
    }
    Ok(all)
}

fn find(files: &'static [(&'static str, &'static str)], name: &str) -> Option<&'static str> {
    files.iter().find(|(f, _)| *f == name).map(|(_, t)| *t)
}

/// A golden transcript, as built in.
pub fn golden(file: &str) -> Option<&'static str> {
    find(suite_files::GOLDEN_FILES, file)
}

/// A published reference transcript, as built in (None when ../shared/ryg/reference was
/// missing at build time).
pub fn reference(file: &str) -> Option<&'static str> {
    find(suite_files::REFERENCE_FILES, file)
}

/// A fact of published.md, and where the suite checks it.
#[derive(Debug, Clone)]
pub struct PublishedFact {
    /// "F15".
    pub id: String,
    /// Its text in published.md.
    pub text: String,
    /// The programs the suite's scenarios for it run on (empty: no scenario checks it).
    pub programs: Vec<String>,
}

/// The published facts, F1..F19, each with its text (from published.md, as built in) and
/// the programs the suite's `scenarios` (all of them) check it on.
pub fn published_facts(scenarios: &[Scenario]) -> Vec<PublishedFact> {
    let Some(text) = suite_files::PUBLISHED else {
        return Vec::new();
    };
    let mut facts: Vec<PublishedFact> = Vec::new();
    for line in text.lines() {
        let t = line.trim_start_matches(['-', ' ']);
        let id: String = t.chars().take_while(|c| *c != '.').collect();
        let is_fact = id.len() >= 2
            && id.starts_with('F')
            && id[1..].bytes().all(|b| b.is_ascii_digit())
            && line.starts_with("- F");
        if is_fact {
            let mut programs: Vec<String> = scenarios
                .iter()
                .filter(|s| s.fact.eq_ignore_ascii_case(&id))
                .map(|s| s.program.clone())
                .collect();
            programs.sort();
            programs.dedup();
            facts.push(PublishedFact {
                text: t[id.len() + 1..].trim().to_string(),
                id,
                programs,
            });
        } else if let Some(f) = facts.last_mut().filter(|_| line.starts_with("  ")) {
            f.text.push(' ');
            f.text.push_str(line.trim());
        }
    }
    facts
}

/// A program to judge: what the machine loads and how it starts, and, for routine-level
/// checks, its labels.
#[derive(Debug, Clone)]
pub struct Program {
    pub start: c64kit_machine::Program,
    pub labels: Labels,
    /// The name LOAD was given (a user's file name; none for ours, as the suite always ran).
    pub load_name: Option<Vec<u8>>,
}

impl Program {
    /// A PRG, started by RUN.
    pub fn from_prg(prg: &Prg, labels: Labels) -> Program {
        Program {
            start: c64kit_machine::Program::from_prg(prg),
            labels,
            load_name: None,
        }
    }

    /// Where the program's bytes end (BASIC's pointers after a SYS to a routine).
    pub fn end_address(&self) -> u16 {
        self.start
            .segments
            .first()
            .map_or(c64kit_machine::boot::BASIC_START, |s| {
                (s.address as usize + s.bytes.len()).min(0xFFFF) as u16
            })
    }
}

/// Where the programs come from: ours, built into c64kit, unless replaced by a reader's
/// build (`--program path --as ryg3-v10`).
#[derive(Default)]
pub struct Programs {
    overrides: HashMap<String, (PathBuf, Option<PathBuf>)>,
    built: HashMap<String, Result<Program, String>>,
}

impl Programs {
    /// Judge `path` (a .prg, .cbmprj or .asm) in place of our program `name`; `labels` is
    /// a VICE label file for routine-level checks on a PRG.
    pub fn replace(&mut self, name: &str, path: PathBuf, labels: Option<PathBuf>) {
        self.overrides.insert(name.to_string(), (path, labels));
        self.built.remove(name);
    }

    /// The names of our programs ("ramunder", "ryg-v15", ..., "ryg3-v11").
    pub fn names() -> Vec<&'static str> {
        c64kit_programs::BUILT_IN.iter().map(|b| b.name).collect()
    }

    /// The program for a scenario, loaded once and cached.
    pub fn get(&mut self, name: &str) -> Result<Program, String> {
        if let Some(p) = self.built.get(name) {
            return p.clone();
        }
        let result = match self.overrides.get(name) {
            Some((path, labels)) => load_program_file(path, labels.as_deref()),
            None => built_in(name),
        };
        self.built.insert(name.to_string(), result.clone());
        result
    }
}

fn built_in(name: &str) -> Result<Program, String> {
    let b = c64kit_programs::built_in(name).ok_or_else(|| {
        format!(
            "no program named {name:?} is built into c64kit (there are: {})",
            Programs::names().join(", ")
        )
    })?;
    Ok(Program::from_prg(
        &Prg::parse(b.prg, name).map_err(|e| e.to_string())?,
        Labels::parse_vice(b.labels, name)?,
    ))
}

/// A source file or project assembled, with its labels.
fn assemble(path: &Path) -> Result<(Prg, Labels), String> {
    let a = c64kit_asm::assemble_path(path, &c64kit_asm::Options::default())
        .map_err(|e| e.to_string())?;
    let labels = Labels::parse_vice(&a.vice_symbols(), &path.display().to_string())?;
    if a.load_address as usize + a.bytes.len() > 0x10000 {
        return Err(format!(
            "{}: assembled code runs past $FFFF",
            path.display()
        ));
    }
    let prg = Prg {
        load_address: a.load_address,
        data: a.bytes,
    };
    Ok((prg, labels))
}

/// Whether `path` is assembly: a CBM prg Studio source (.asm) or project (.cbmprj).
fn is_source(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("cbmprj") || e.eq_ignore_ascii_case("asm"))
}

/// Whether `path` is a program this crate reads itself (`c64kit test`): a PRG (.prg),
/// BASIC text (.bas), or assembly (.asm, .cbmprj), whose labels it keeps. Other files (tape
/// and disk images, formats of loader plugins) are read by the command line's loaders.
pub fn is_own_format(path: &Path) -> bool {
    is_source(path)
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("prg") || e.eq_ignore_ascii_case("bas"))
}

/// The most BASIC text a `.bas` program may be (as `c64kit tokenize` reads it): a tokenized
/// program fits in 38,911 bytes of BASIC RAM.
const BASIC_TEXT_LIMIT: u64 = c64kit_files::MIB;

/// A user's program (`c64kit test`), as `c64kit run` loads it: a PRG (RUN), BASIC text
/// (.bas: tokenized to $0801 and RUN on c64kit's BASIC V2), or a source or project
/// (.asm, .cbmprj: assembled, its labels kept; RUN when it begins with a BASIC stub's SYS,
/// else started at its first byte); any other file (a tape or disk image, with `entry` the
/// file in it) by the command line's loaders (`host`), as `c64kit run FILE --entry NAME`.
pub fn load_user_program(
    path: &Path,
    entry: Option<&str>,
    host: &dyn host::Host,
) -> Result<Program, String> {
    if !is_own_format(path) {
        return Ok(Program {
            start: host.load(path, entry)?,
            labels: Labels::default(),
            load_name: Some(c64kit_machine::load_name_of(path)),
        });
    }
    let shown = path.display().to_string();
    let is_bas = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bas"));
    let (prg, labels) = if is_source(path) {
        assemble(path)?
    } else if is_bas {
        let text = c64kit_files::read_text(path, BASIC_TEXT_LIMIT, "BASIC text")
            .map_err(|e| e.to_string())?;
        let bytes = c64kit_basic::tokenize(&text, c64kit_machine::boot::BASIC_START)
            .map_err(|e| format!("{shown}: {e}"))?;
        (
            Prg::parse(&bytes, &shown).map_err(|e| e.to_string())?,
            Labels::default(),
        )
    } else {
        let bytes =
            c64kit_files::read(path, Prg::MAX_FILE_SIZE, "a PRG").map_err(|e| e.to_string())?;
        (
            Prg::parse(&bytes, &shown).map_err(|e| e.to_string())?,
            Labels::default(),
        )
    };
    let mut program = Program::from_prg(&prg, labels);
    if is_source(path) && !c64kit_basic::starts_with_sys(&prg.to_bytes()) {
        program.start.entry = Entry::At(prg.load_address);
    }
    program.load_name = Some(c64kit_machine::load_name_of(path));
    Ok(program)
}

/// A PRG file (with an optional VICE label file), or a source/project assembled on the fly
/// (its labels come from the assembly).
pub fn load_program_file(path: &Path, label_file: Option<&Path>) -> Result<Program, String> {
    let (prg, mut labels) = if is_source(path) {
        assemble(path)?
    } else {
        let bytes =
            c64kit_files::read(path, Prg::MAX_FILE_SIZE, "a PRG").map_err(|e| e.to_string())?;
        let prg = Prg::parse(&bytes, &path.display().to_string()).map_err(|e| e.to_string())?;
        (prg, Labels::default())
    };
    // The scenarios RUN the build as a reader's C64 would: one RUN cannot start fails here,
    // once, rather than in every scenario.
    let peek_nothing = |_| 0;
    if let Err(e) = c64kit_machine::start::basic_start(&prg, peek_nothing) {
        return Err(match start_advice(&e) {
            Some(advice) => format!("{}: {e}: {advice}", path.display()),
            None => format!("{}: {e}", path.display()),
        });
    }
    if let Some(file) = label_file {
        let text = c64kit_files::read_text(file, c64kit_files::MIB, "a VICE label file")
            .map_err(|e| e.to_string())?;
        labels = Labels::parse_vice(&text, &file.display().to_string())?;
    }
    Ok(Program::from_prg(&prg, labels))
}

/// What to do about a build RUN cannot start, for `conform` (which has no `--start`: the
/// scenarios start a build as the blog's programs start, by RUN).
fn start_advice(e: &StartError) -> Option<&'static str> {
    match e {
        StartError::Text { .. } => Some("judge the build's PRG, or its .cbmprj/.asm"),
        StartError::MachineCode { .. } | StartError::NoSys(NoSys::Missing) => Some(
            "the scenarios RUN the build, so it needs a BASIC stub at $0801 whose SYS starts \
             it, as the blog's programs have (10 SYS2080)",
        ),
        StartError::Empty { .. }
        | StartError::NoSys(_)
        | StartError::Nothing
        | StartError::BasicDidNotStart(_) => None,
    }
}

/// Which suite a scenario belongs to: how its checks are worded and which decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// The RYG suite (`conform`): published facts decide; the transcripts inform.
    Ryg,
    /// A user's scenarios (`c64kit test`): every check decides, transcripts included.
    User,
}

/// What to do about a user's program that RUN cannot start (`c64kit test`).
fn user_start_advice(e: &StartError) -> Option<&'static str> {
    match e {
        StartError::MachineCode { .. } => Some(
            "give it a BASIC stub at $0801 whose SYS starts it (10 SYS49152), or name its \
             source (.asm, .cbmprj) as the program: c64kit starts that at its first byte",
        ),
        StartError::Text { .. } => {
            Some("name BASIC text .bas and assembly .asm, so c64kit tokenizes or assembles it")
        }
        _ => None,
    }
}

/// How a scenario went.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub suite: Suite,
    /// Where the scenario is written ("tests/x.toml:3"; "" for the RYG suite's).
    pub location: String,
    pub name: String,
    pub fact: String,
    pub claim: String,
    /// The scenario's note (a disagreement, a part that cannot be checked), if any.
    pub note: Option<String>,
    pub program: String,
    /// The program could not be built or run at all.
    pub error: Option<String>,
    pub stop: Option<StopReason>,
    /// Every check, with its evidence: facts, then the published and the golden transcript.
    pub checks: Vec<Check>,
    /// Cycles from RUN (or the first call) to the end.
    pub cycles: u64,
    /// The machine's clock, cycles per second (its VIC-II model's): `cycles` in C64 time.
    pub clock_hz: u64,
    pub elapsed: Duration,
    /// The transcript as text (RETURN as newline).
    pub transcript: String,
    /// A user's scenario: which check compares with its golden file.
    pub golden_check: Option<usize>,
    /// A user's scenario with `screenshot`: which check compares with its golden picture,
    /// and the picture the run ended with (what `--update` writes).
    pub screenshot_check: Option<usize>,
    pub shot: Option<Shot>,
}

/// The picture a run ended with: the visible area of its VIC-II, palette indices row by
/// row.
#[derive(Debug, Clone)]
pub struct Shot {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

impl Shot {
    /// As a PNG in the Pepto palette, as the testbench writes pictures.
    pub fn png(&self) -> Result<Vec<u8>, String> {
        c64kit_screenshot::encode_png(self.width, self.height, &self.pixels)
    }
}

impl Outcome {
    /// The checks that decide: the published facts (the RYG suite), every check (a user's).
    pub fn facts(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.kind == Kind::Fact)
    }

    /// A check's evidence as this suite words it: `F15 nodes ...: published 10,744,
    /// measured 10,744 - holds` (the RYG suite), `line printed: expected "HI", measured
    /// "HI" printed - holds` (a user's).
    pub fn evidence(&self, c: &Check) -> String {
        match self.suite {
            Suite::Ryg => c.evidence(&self.fact),
            Suite::User => c.test_evidence(),
        }
    }

    /// [`Outcome::evidence`] with why a check was not made.
    pub fn evidence_with_reason(&self, c: &Check) -> String {
        match (self.suite, c.verdict, &c.detail) {
            (Suite::Ryg, _, _) => c.evidence_with_reason(&self.fact),
            (Suite::User, Verdict::NotChecked, Some(why)) => {
                format!("{} ({why})", c.test_evidence())
            }
            (Suite::User, _, _) => c.test_evidence(),
        }
    }

    /// Every published fact the scenario checks holds (facts that could not be checked
    /// are not failures; they are reported as such).
    pub fn facts_hold(&self) -> bool {
        self.error.is_none() && self.facts().all(|c| !c.failed())
    }

    fn transcript_check(&self, kind: Kind) -> Option<&Check> {
        self.checks.iter().find(|c| c.kind == kind)
    }

    /// The published program's transcript: None when the scenario has none.
    pub fn published_transcript(&self) -> Option<&Check> {
        self.transcript_check(Kind::PublishedTranscript)
    }

    pub fn golden_transcript(&self) -> Option<&Check> {
        self.transcript_check(Kind::GoldenTranscript)
    }

    /// The scenario has a golden file that differs or is missing (what UPDATE_GOLDENFILES=1
    /// rewrites).
    pub fn golden_needs_update(&self) -> bool {
        let golden = match self.golden_check {
            Some(i) => self.checks.get(i),
            None => self.golden_transcript(),
        };
        golden.is_some_and(|c| c.verdict != Verdict::Holds)
    }

    /// Facts that could not be checked.
    pub fn not_checked(&self) -> usize {
        self.facts()
            .filter(|c| c.verdict == Verdict::NotChecked)
            .count()
    }
}

/// The transcript as the reference files write it: byte 13 as a newline, other bytes as
/// their ASCII characters, and bytes outside $20..$7E as {$xx}.
pub fn transcript_text(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            13 => s.push('\n'),
            0x20..=0x7E => s.push(b as char),
            _ => s.push_str(&format!("{{${b:02x}}}")),
        }
    }
    s
}

/// The transcript as `c64kit run` prints it (the transcript display,
/// plugins/display-transcript): PETSCII rendered as text in the character set each byte was
/// printed in, control codes as petcat's `{names}`, and a last newline.
pub fn run_transcript_text(bytes: &[u8], lower: &[bool]) -> String {
    use c64kit_basic::{render_petscii, RenderOptions};
    let mut text = String::with_capacity(bytes.len());
    let mut start = 0;
    while start < bytes.len() {
        let set = lower.get(start).copied().unwrap_or(false);
        let end = (start + 1..bytes.len())
            .find(|&i| lower.get(i).copied().unwrap_or(false) != set)
            .unwrap_or(bytes.len());
        let options = RenderOptions {
            lowercase_charset: set,
            ..RenderOptions::default()
        };
        text.push_str(&render_petscii(&bytes[start..end], &options));
        start = end;
    }
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The scenario's transcript as its suite shows it.
fn transcript_of(s: &Scenario, machine: &Machine) -> String {
    match s.origin {
        Origin::BuiltIn => transcript_text(machine.transcript()),
        Origin::File { .. } => run_transcript_text(machine.transcript(), machine.transcript_sets()),
    }
}

/// Cycles run between progress reports.
const CHUNK: u64 = 20_000_000;

/// Runs one scenario on `program`. `progress` is told the cycles so far, now and then.
pub fn run_scenario(
    s: &Scenario,
    program: Result<Program, String>,
    progress: impl FnMut(u64),
) -> Outcome {
    run_scenario_on(s, program, &RomPaths::default(), progress)
}

/// [`run_scenario`] on the ROM images `roms` names (c64kit's own where it names none; with
/// Commodore's KERNAL and BASIC the C64 boots through the KERNAL's reset and the program is
/// autostarted as VICE does: `Machine::start`).
pub fn run_scenario_on(
    s: &Scenario,
    program: Result<Program, String>,
    roms: &RomPaths,
    mut progress: impl FnMut(u64),
) -> Outcome {
    let started = Instant::now();
    let suite = match s.origin {
        Origin::BuiltIn => Suite::Ryg,
        Origin::File { .. } => Suite::User,
    };
    let mut outcome = Outcome {
        suite,
        location: s.location(),
        golden_check: None,
        screenshot_check: None,
        shot: None,
        name: s.name.clone(),
        fact: s.fact.clone(),
        claim: s.claim.clone(),
        note: s.note.clone(),
        program: s.program.clone(),
        error: None,
        stop: None,
        checks: Vec::new(),
        cycles: 0,
        clock_hz: s.clock_hz(),
        elapsed: Duration::ZERO,
        transcript: String::new(),
    };
    let runs = s.keys.is_some() || s.call.is_empty();
    let prepared = program.and_then(|program| {
        // RUN with the scenario's keys, or LOAD only for the routines it calls.
        let mut start = program.start.clone();
        let dir = match &s.origin {
            Origin::BuiltIn => None,
            Origin::File { dir, .. } => Some(dir.as_path()),
        };
        let mut settings = s
            .setup
            .run_settings(dir)
            .map_err(|e| format!("scenario {}: settings: {e}", s.name))?;
        settings.load_name = program.load_name.clone();
        // A writable drive folder may hold the run's own files: never changed by a program.
        if let Origin::File { file, .. } = &s.origin {
            settings.drive.protect(file, "the scenario file");
        }
        for (path, what) in [
            (s.program_path(), "the program"),
            (s.golden_path(), "a golden file"),
            (s.screenshot_path(), "a golden picture"),
        ] {
            if let Some(p) = path {
                settings.drive.protect(p, what);
            }
        }
        // `c64kit conform --kernal-rom ...`: the given ROMs replace the scenario's.
        if roms.basic.is_some() || roms.kernal.is_some() || roms.chargen.is_some() {
            settings.roms = Roms::load(roms).map_err(|e| e.to_string())?;
        }
        if runs {
            settings.keys = c64kit_basic::parse_key_script(s.keys.as_deref().unwrap_or(""))
                .map_err(|e| format!("scenario {}: keys: {e}", s.name))?;
        } else {
            start.entry = Entry::LoadOnly;
        }
        let machine = Machine::start(Some(&start), settings).map_err(|e| match s.origin {
            Origin::BuiltIn => e.to_string(),
            Origin::File { .. } => match user_start_advice(&e) {
                Some(advice) => format!("{}: {e}: {advice}", s.program),
                None => format!("{}: {e}", s.program),
            },
        })?;
        Ok((machine, program))
    });
    let (mut machine, program) = match prepared {
        Ok(p) => p,
        Err(e) => {
            outcome.error = Some(e);
            outcome.elapsed = started.elapsed();
            return outcome;
        }
    };
    outcome.clock_hz = machine.clock_hz();
    if s.screenshot.is_some() {
        // Drawn from the start, as VICE's testbench does: the picture at the end is the
        // one the raster drew (what changed during the frame included).
        machine.enable_picture();
    }
    let start_cycles = machine.cycles();
    if runs {
        // The SID's sound is rendered only for a scenario that checks it.
        let mut recording = sound::Recording::start(&mut machine, &s.expect);
        let stop = run_until_stop(
            &mut machine,
            s.max_cycles,
            &mut progress,
            recording.as_mut(),
        );
        outcome.cycles = machine.cycles() - start_cycles;
        if let Some(r) = recording.as_mut() {
            r.finish(&mut machine, outcome.cycles);
        }
        outcome.transcript = transcript_of(s, &machine);
        let at_rts = matches!(program.start.entry, Entry::At(_));
        judge(
            s,
            &mut machine,
            &stop,
            at_rts,
            &program.labels,
            recording.as_ref(),
            &mut outcome,
        );
        outcome.stop = Some(stop);
    }
    for call in &s.call {
        call_routine(s, call, &program, &mut machine, &mut outcome);
    }
    outcome.cycles = machine.cycles() - start_cycles;
    outcome.elapsed = started.elapsed();
    outcome
}

/// Runs until a stop reason other than the budget, or until `max_cycles` have passed,
/// taking the sound made into `recording` as it goes.
fn run_until_stop(
    machine: &mut Machine,
    max_cycles: u64,
    mut progress: impl FnMut(u64),
    mut recording: Option<&mut sound::Recording>,
) -> StopReason {
    let start = machine.cycles();
    loop {
        let spent = machine.cycles() - start;
        let chunk = recording
            .as_deref()
            .map_or(CHUNK, |r| r.next_chunk(spent, CHUNK));
        let stop = machine.run(max_cycles.saturating_sub(spent).min(chunk));
        if let Some(r) = recording.as_deref_mut() {
            let spent = machine.cycles() - start;
            r.take(machine, spent);
        }
        progress(machine.cycles() - start);
        match stop {
            StopReason::CycleBudget { .. } if machine.cycles() - start < max_cycles => {}
            StopReason::CycleBudget { .. } => {
                return StopReason::CycleBudget { budget: max_cycles }
            }
            other => return other,
        }
    }
}

fn judge(
    s: &Scenario,
    machine: &mut Machine,
    stop: &StopReason,
    at_rts: bool,
    labels: &Labels,
    sound: Option<&sound::Recording>,
    outcome: &mut Outcome,
) {
    let text = outcome.transcript.clone();
    let screen = machine.screen_text();
    // RUN's SYS saves the registers a program returns with; one started at an address
    // stops at its RTS.
    let registers = if *stop == StopReason::ReturnedToBasic {
        check::Registers::returned(machine, at_rts)
    } else {
        check::Registers::of(machine)
    };
    if let Some(want) = &s.stop {
        let got = stop.to_string();
        outcome.checks.push(
            Check::new(Kind::Fact, "the run ends", want.clone())
                .ours()
                .measured(got.clone(), got.starts_with(want.as_str())),
        );
    }
    if let Some(want) = s.exit_status {
        let c = Check::new(Kind::Fact, "exit status (ST)", want.to_string()).ours();
        outcome.checks.push(match machine.returned_status() {
            Some(st) if *stop == StopReason::ReturnedToBasic => {
                c.measured(st.to_string(), st == want)
            }
            _ => c.measured(format!("no return to BASIC: {stop}"), false),
        });
    }
    if let Some(want) = &s.transcript {
        let mut want = want.clone();
        if !want.is_empty() && !want.ends_with('\n') {
            want.push('\n');
        }
        let mut c = compare_transcript(Kind::Fact, "transcript", Some(&want), &text, "");
        c.what = "the transcript".into();
        outcome.checks.push(c);
    }
    for e in &s.expect {
        let observed = check::Observed {
            text: &text,
            screen: &screen,
            machine,
            cycles: outcome.cycles,
            registers: Some(registers),
            labels,
            suite: outcome.suite,
            sound,
        };
        outcome.checks.push(check::check(e, &observed));
    }
    if let Some(file) = &s.reference {
        outcome.checks.push(compare_transcript(
            Kind::PublishedTranscript,
            file,
            reference(file),
            &text,
            "../shared/ryg/reference was not there when this c64kit was built",
        ));
    }
    match (&s.golden, s.golden_path()) {
        (Some(file), None) => outcome.checks.push(compare_transcript(
            Kind::GoldenTranscript,
            file,
            golden(file),
            &text,
            "no such golden file is built in (create it with UPDATE_GOLDENFILES=1)",
        )),
        (Some(file), Some(path)) => {
            // A user's golden file decides, as every check of theirs does.
            let expected = c64kit_files::read_text(&path, GOLDEN_LIMIT, "a golden file");
            let mut c = match &expected {
                Ok(t) => compare_transcript(Kind::Fact, file, Some(t), &text, ""),
                Err(e) => Check::new(Kind::Fact, file, "identical").ours().measured(
                    if path.exists() {
                        e.to_string()
                    } else {
                        "missing (c64kit test --update writes it)".into()
                    },
                    false,
                ),
            };
            c.what = format!("the transcript against {file}");
            outcome.golden_check = Some(outcome.checks.len());
            outcome.checks.push(c);
        }
        (None, _) => {}
    }
    if let Some(path) = s.screenshot_path() {
        let file = s.screenshot.clone().unwrap_or_default();
        outcome.screenshot_check = Some(outcome.checks.len());
        let c = compare_screenshot(machine, &file, &path, outcome);
        outcome.checks.push(c);
    }
}

/// The picture the run ended with against a golden PNG, by VICE's testbench rule: every
/// pixel of the area both cover, aligned on the text area, the same Pepto colour.
fn compare_screenshot(
    machine: &mut Machine,
    file: &str,
    path: &Path,
    outcome: &mut Outcome,
) -> Check {
    use c64kit_plugin_api::palette::NAMES;
    use c64kit_screenshot::{compare, Reference};
    let picture = machine.picture();
    let (width, height) = picture.visible_size();
    let shot = Shot {
        width,
        height,
        pixels: picture.pixels()[..width * height].to_vec(),
    };
    let mut c = Check::new(Kind::Fact, file, "the same picture").ours();
    c.what = format!("the screen against {file}");
    let c = match Reference::load(path) {
        Err(_) if !path.exists() => c.measured("missing (c64kit test --update writes it)", false),
        Err(e) => c.measured(e, false),
        Ok(golden) => match compare(machine.picture(), &golden) {
            Some(cmp) => match cmp.first {
                None => c.measured("the same picture", true),
                Some(d) => {
                    let (_, _, w, h) = cmp.area;
                    c.measured(
                        format!(
                            "{} of {} pixels differ, the first at ({}, {}): ours {}, the golden \
                             picture's {}",
                            check::thousands(cmp.differing as u64),
                            check::thousands((w * h) as u64),
                            d.x,
                            d.y,
                            NAMES[(d.ours & 15) as usize],
                            NAMES[(d.reference & 15) as usize]
                        ),
                        false,
                    )
                }
            },
            None => c.measured(
                format!(
                    "no pixel in common once aligned ({}x{} against ours {width}x{height})",
                    golden.width, golden.height
                ),
                false,
            ),
        },
    };
    outcome.shot = Some(shot);
    c
}

/// The largest golden file read: a transcript of hours of output is far smaller.
const GOLDEN_LIMIT: u64 = 64 * c64kit_files::MIB;

fn compare_transcript(
    kind: Kind,
    what: &str,
    expected: Option<&str>,
    text: &str,
    missing: &str,
) -> Check {
    let c = Check::new(kind, what, "identical");
    let c = if kind == Kind::GoldenTranscript {
        c.ours()
    } else {
        c
    };
    let Some(expected) = expected else {
        return c.not_checked(missing);
    };
    match check::diff(expected, text) {
        None => c.measured("identical", true),
        Some((n, d)) => {
            let mut c = c.measured(check::differs_in(n), false);
            c.detail = Some(d);
            c
        }
    }
}

/// One routine-level call: pokes, registers, the call, then its checks.
fn call_routine(
    s: &Scenario,
    call: &scenario::Call,
    program: &Program,
    machine: &mut Machine,
    outcome: &mut Outcome,
) {
    let what = |e: &Expectation| {
        let item = e.value.clone().unwrap_or_else(|| {
            e.register
                .as_ref()
                .map(|r| format!("register {}", r.to_uppercase()))
                .or(e
                    .flag
                    .as_ref()
                    .map(|f| format!("flag {}", f.to_uppercase())))
                .or(e.at.clone().map(|a| format!("memory at {a}")))
                .unwrap_or_else(|| "result".into())
        });
        match &call.what {
            Some(w) => format!("{} ({w}): {item}", call.routine),
            None => format!("{}: {item}", call.routine),
        }
    };
    let resolved = program.labels.resolve(&call.routine).and_then(|addr| {
        let mut pokes = Vec::new();
        for p in &call.poke {
            pokes.push((program.labels.resolve(&p.at)?, &p.bytes));
        }
        Ok((addr, pokes))
    });
    let (addr, pokes) = match resolved {
        Ok(r) => r,
        Err(why) => {
            for e in &call.expect {
                let c = Check::new(Kind::Fact, what(e), check::expected_text(e));
                outcome.checks.push(c.not_checked(why.clone()));
            }
            return;
        }
    };
    for (at, bytes) in pokes {
        for (i, b) in bytes.iter().enumerate() {
            machine.poke(at.wrapping_add(i as u16), *b);
        }
    }
    machine.sys(addr, call.a, call.x, call.y, program.end_address());
    let before = machine.cycles();
    let stop = run_until_stop(machine, call.max_cycles, |_| {}, None);
    let cycles = machine.cycles() - before;
    if stop != StopReason::ReturnedToBasic {
        outcome.checks.push(
            Check::new(
                Kind::Fact,
                format!("{}: the routine returns", call.routine),
                "RTS",
            )
            .ours()
            .measured(stop.to_string(), false),
        );
        return;
    }
    outcome.transcript = transcript_of(s, machine);
    let screen = machine.screen_text();
    let registers = check::Registers::of(machine);
    for e in &call.expect {
        let observed = check::Observed {
            text: &outcome.transcript,
            screen: &screen,
            machine,
            cycles,
            registers: Some(registers),
            labels: &program.labels,
            suite: outcome.suite,
            sound: None,
        };
        let mut c = check::check(e, &observed);
        c.what = what(e);
        outcome.checks.push(c);
    }
}

pub use c64kit_files::output::golden_update_requested;

/// Rewrites a scenario's golden file from this run: in the checkout (the RYG suite), or
/// beside the scenario file (a user's).
pub fn update_golden(s: &Scenario, outcome: &Outcome) -> Result<Option<PathBuf>, String> {
    let Some(file) = &s.golden else {
        return Ok(None);
    };
    let path = s.golden_path().unwrap_or_else(|| golden_dir().join(file));
    write_golden(&path, &Ok(outcome.transcript.clone().into_bytes()))?;
    Ok(Some(path))
}

/// Writes a golden file (its folder made if need be).
pub fn write_golden(path: &Path, bytes: &Result<Vec<u8>, String>) -> Result<(), String> {
    let bytes = bytes
        .as_ref()
        .map_err(|e| format!("{}: cannot encode: {e}", path.display()))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    c64kit_files::write_output(path, bytes)
        .map_err(|e| format!("{}: {}", path.display(), c64kit_files::io_reason(&e)))
}
