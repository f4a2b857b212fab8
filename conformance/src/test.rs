//! The `test` command (`c64kit test [FILES or FOLDERS]`): a user's own scenario files, in the
//! conformance scenario format (docs/testing.md), run on the engine `conform` uses, in
//! parallel; a compact line per scenario, the evidence of each failure, the same report
//! files. Exit code: 0 when every scenario passes, 1 when one fails (or its program cannot
//! be built or run), 2 for a usage error or a scenario file with a mistake (named by file,
//! line and key).

use crate::app::{self, fail, usage};
use crate::check::{c64_seconds, thousands, Verdict};
use crate::host::Host;
use crate::report::{self, Standing};
use crate::{Origin, Outcome, Program, Scenario};
use c64kit_files::{errln, outln};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What the command writes to standard output, for the message when it cannot.
const WHAT: &str = "the results";

/// Where scenario files are looked for when none are named.
pub const DEFAULT_FOLDER: &str = "tests";

/// The settings file's name: never a scenario file, even in a folder searched for them.
const SETTINGS_FILE: &str = "c64kit.toml";

/// The largest scenario file read (a scenario file is a few kilobytes).
const SCENARIO_FILE_LIMIT: u64 = 16 * c64kit_files::MIB;

#[derive(clap::Args, Debug, Default)]
pub struct TestArgs {
    /// Scenario files (.toml), or folders searched for them, subfolders included
    /// (default: tests).
    #[arg(value_name = "FILES or FOLDERS")]
    pub paths: Vec<PathBuf>,
    /// Only the scenario with this name (repeatable).
    #[arg(long)]
    pub scenario: Vec<String>,
    /// Write each golden file that is missing or differs from this run, beside its scenario
    /// file (never under CI). The scenario files themselves are never written.
    #[arg(long)]
    pub update: bool,
    #[command(flatten)]
    pub output: app::OutputArgs,
}

/// Every `*.toml` file under `dir` (not c64kit.toml, not in hidden folders), sorted.
fn find_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        format!(
            "{}: cannot read the folder: {}",
            dir.display(),
            c64kit_files::io_reason(&e)
        )
    })?;
    // Folders are entered only when they are folders, not links to one: a link to a folder
    // above would make the search endless.
    let mut paths: Vec<(PathBuf, bool)> = entries
        .flatten()
        .map(|e| (e.path(), e.file_type().is_ok_and(|t| t.is_dir())))
        .collect();
    paths.sort();
    for (p, is_dir) in paths {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        if name.starts_with('.') {
            continue;
        }
        if is_dir {
            find_files(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "toml") && name != SETTINGS_FILE {
            out.push(p);
        }
    }
    Ok(())
}

/// The scenario files to run, from the command line's paths (or tests/).
fn scenario_files(args: &TestArgs) -> Result<Vec<PathBuf>, String> {
    let defaulted = args.paths.is_empty();
    let paths = if defaulted {
        vec![PathBuf::from(DEFAULT_FOLDER)]
    } else {
        args.paths.clone()
    };
    let mut files = Vec::new();
    for p in &paths {
        if p.is_dir() {
            let before = files.len();
            find_files(p, &mut files)?;
            if files.len() == before {
                return Err(format!(
                    "{}: no scenario files (*.toml) in this folder; docs/testing.md shows how \
                     to write one",
                    p.display()
                ));
            }
        } else if p.exists() {
            files.push(p.clone());
        } else if defaulted {
            return Err(format!(
                "no {DEFAULT_FOLDER} folder here: name scenario files or folders (c64kit test \
                 path/to/scenarios.toml), or put scenario files in {DEFAULT_FOLDER}/ \
                 (docs/testing.md)"
            ));
        } else {
            return Err(format!(
                "{}: no such file or folder (name scenario files, .toml, or folders holding \
                 them)",
                p.display()
            ));
        }
    }
    // A file named twice (as a file and in its folder) runs once.
    let mut seen = Vec::new();
    files.retain(|f| {
        let key = f.canonicalize().unwrap_or_else(|_| f.clone());
        let new = !seen.contains(&key);
        seen.push(key);
        new
    });
    Ok(files)
}

/// Reads and checks every scenario of `files`: names unique over the run, programs that
/// exist.
fn read_scenarios(files: &[PathBuf], host: &dyn Host) -> Result<Vec<Scenario>, String> {
    let mut all: Vec<Scenario> = Vec::new();
    for file in files {
        let text = c64kit_files::read_text(file, SCENARIO_FILE_LIMIT, "a scenario file")
            .map_err(|e| e.to_string())?;
        for mut s in crate::scenario::parse_file(&text, file)? {
            if let (Some(table), Origin::File { dir, .. }) = (&s.settings, &s.origin) {
                s.setup = host.settings(table, dir, &|key| s.settings_key(key))?;
                if let Some(budget) = s.setup.max_cycles {
                    s.max_cycles = budget;
                }
            }
            if let Some(first) = all.iter().find(|o| o.name == s.name) {
                return Err(format!(
                    "{}: scenario name {:?} is used twice (first at {}): give each scenario \
                     its own name, so --scenario and the reports can tell them apart",
                    s.location(),
                    s.name,
                    first.location()
                ));
            }
            all.push(s);
        }
    }
    Ok(all)
}

/// A scenario's program file must exist: a name that does not is a mistake in the file.
fn check_program_exists(s: &Scenario) -> Result<PathBuf, String> {
    let path = s
        .program_path()
        .unwrap_or_else(|| PathBuf::from(&s.program));
    if path.is_file() {
        return Ok(path);
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or(".".to_string(), |d| d.display().to_string());
    let why = if path.exists() {
        "is not a file"
    } else {
        "does not exist"
    };
    Err(format!(
        "{}: scenario {:?}: key `program`: {} {why} (program names a .prg, .bas, .asm, \
         .cbmprj, .t64 or .d64 file relative to the scenario file's folder; here: {dir})",
        s.location(),
        s.name,
        path.display()
    ))
}

/// A scenario file with a mistake (or none to run): said once, exit 2, as for a usage error.
fn bad_file(message: impl std::fmt::Display) -> ExitCode {
    errln!("c64kit: {message}");
    ExitCode::from(c64kit_files::stdio::USAGE_EXIT_CODE)
}

/// Runs the command; `tool` names it in the reports' title ("c64kit test"); `host` reads
/// scenarios' settings as c64kit.toml is read.
pub fn run(args: &TestArgs, tool: &str, host: &dyn Host) -> ExitCode {
    let update = match crate::golden_update_requested() {
        Ok(u) => u || args.update,
        Err(e) => return usage(e),
    };
    // The rule UPDATE_GOLDENFILES=1 follows (c64kit_files::output): a CI job that
    // rewrote golden files would hide the very change it should catch.
    if args.update && c64kit_files::output::under_ci() {
        return usage(
            "refusing --update under CI (CI is set): golden files change only on purpose",
        );
    }
    let files = match scenario_files(args) {
        Ok(f) => f,
        Err(e) => return usage(e),
    };
    let scenarios = match read_scenarios(&files, host) {
        Ok(s) => s,
        Err(e) => return bad_file(e),
    };
    for name in &args.scenario {
        if !scenarios.iter().any(|s| &s.name == name) {
            let names: Vec<&str> = scenarios.iter().map(|s| s.name.as_str()).collect();
            return usage(format!(
                "--scenario {name:?}: no scenario has that name (there are: {})",
                names.join(", ")
            ));
        }
    }
    let scenarios: Vec<Scenario> = scenarios
        .into_iter()
        .filter(|s| args.scenario.is_empty() || args.scenario.contains(&s.name))
        .collect();
    let mut inputs: Vec<(PathBuf, String)> = files
        .iter()
        .map(|f| (f.clone(), "a scenario file".to_string()))
        .collect();
    let mut paths = Vec::with_capacity(scenarios.len());
    for s in &scenarios {
        match check_program_exists(s) {
            Ok(p) => {
                inputs.push((p.clone(), "a program".into()));
                let roms = &s.setup.roms;
                for rom in [&roms.basic, &roms.kernal, &roms.chargen]
                    .into_iter()
                    .flatten()
                {
                    inputs.push((rom.clone(), "a ROM image".into()));
                }
                paths.push(p);
            }
            Err(e) => return bad_file(e),
        }
    }
    // A golden file is written by --update: never over a scenario file or a program.
    let mut goldens = Vec::new();
    for s in &scenarios {
        for (key, path) in [
            ("golden", s.golden_path()),
            ("screenshot", s.screenshot_path()),
        ] {
            let Some(g) = path else { continue };
            if let Err(e) = c64kit_files::ensure_not_input(&g, "its golden file", &inputs) {
                return bad_file(format!(
                    "{}: scenario {:?}: key `{key}`: {e}",
                    s.location(),
                    s.name
                ));
            }
            goldens.push((g, "a golden file".to_string()));
        }
    }
    inputs.extend(goldens);
    let reports = args.output.reports();
    if let Err(e) = reports.check(&inputs) {
        return fail(e);
    }
    // Each program is built once, however many scenarios run it.
    let mut built: HashMap<(PathBuf, Option<String>), Result<Program, String>> = HashMap::new();
    let jobs: Vec<(Scenario, Result<Program, String>)> = scenarios
        .into_iter()
        .zip(paths)
        .map(|(s, path)| {
            let p = built
                .entry((path.clone(), s.entry.clone()))
                .or_insert_with(|| crate::load_user_program(&path, s.entry.as_deref(), host))
                .clone();
            (s, p)
        })
        .collect();
    let mut outcomes = app::run_parallel(jobs, args.output.jobs);
    if update {
        for (s, o) in outcomes.iter_mut() {
            if o.error.is_some() {
                continue;
            }
            let written = if o.golden_needs_update() {
                crate::update_golden(s, o)
            } else {
                Ok(None)
            };
            match written {
                Ok(Some(p)) => {
                    updated(o, o.golden_check);
                    outln!(WHAT, "UPDATED golden file {}", p.display());
                }
                Ok(None) => {}
                Err(e) => return fail(e),
            }
            let differs = o
                .screenshot_check
                .and_then(|i| o.checks.get(i))
                .is_some_and(|c| c.verdict != Verdict::Holds);
            if let (true, Some(path), Some(shot)) = (differs, s.screenshot_path(), &o.shot) {
                if let Err(e) = crate::write_golden(&path, &shot.png()) {
                    return fail(e);
                }
                updated(o, o.screenshot_check);
                outln!(WHAT, "UPDATED golden picture {}", path.display());
            }
        }
    }
    let colour = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let max_diff = args.output.max_diff();
    let list: Vec<Outcome> = outcomes.into_iter().map(|(_, o)| o).collect();
    for o in &list {
        print_outcome(o, colour, max_diff);
    }
    let title = format!("{tool}: {}", shown_paths(args));
    app::finish(&list, &[], &title, max_diff, &reports)
}

/// A golden file's check after `--update` wrote the file: it holds now, and says so.
fn updated(o: &mut Outcome, check: Option<usize>) {
    if let Some(c) = check.and_then(|i| o.checks.get_mut(i)) {
        c.verdict = Verdict::Holds;
        c.measured = format!("written by --update (was: {})", c.measured);
        c.detail = None;
    }
}

/// "tests", or the files and folders named.
fn shown_paths(args: &TestArgs) -> String {
    if args.paths.is_empty() {
        return DEFAULT_FOLDER.to_string();
    }
    args.paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A scenario's line, `PASS greeting (tests/hello.toml:3): 4 checks, 0.2 s of C64 time
/// (154,204 cycles)`, then, if it did not pass, the evidence of each check that failed or
/// could not be made, how the run ended, and the transcript's diff.
fn print_outcome(o: &Outcome, colour: bool, max_diff: usize) {
    let paint = |code: u8, text: &str| {
        if colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    };
    let standing = Standing::of(o);
    let word = match (standing, &o.error) {
        (_, Some(_)) => paint(31, "ERROR"),
        (Standing::Fails, None) => paint(31, "FAIL"),
        (Standing::Unchecked, None) => paint(33, "PASS?"),
        (Standing::Holds, None) => paint(32, "PASS"),
    };
    let total = o.facts().count();
    let failed = o.facts().filter(|c| c.failed()).count();
    let checks = if failed > 0 {
        format!("{failed} of {total} checks failed")
    } else {
        format!("{total} check{}", if total == 1 { "" } else { "s" })
    };
    if let Some(e) = &o.error {
        outln!(WHAT, "{word} {} ({}): {e}", o.name, o.location);
        return;
    }
    outln!(
        WHAT,
        "{word} {} ({}): {checks}, {} of C64 time ({} cycles)",
        o.name,
        o.location,
        c64_seconds(o.cycles, o.clock_hz),
        thousands(o.cycles)
    );
    if standing == Standing::Holds {
        return;
    }
    for c in o.facts().filter(|c| c.verdict != Verdict::Holds) {
        let line = o.evidence_with_reason(c);
        let code = if c.failed() { 31 } else { 33 };
        outln!(WHAT, "    {}", paint(code, &line));
    }
    if let Some(stop) = &o.stop {
        outln!(WHAT, "    the run ended: {stop}");
    }
    if let Some(d) = report::diffs(o, max_diff) {
        for line in d.lines() {
            let shown = match line.chars().next() {
                Some('-') if !line.starts_with("---") => paint(31, line),
                Some('+') if !line.starts_with("+++") => paint(32, line),
                _ => line.to_string(),
            };
            outln!(WHAT, "    {shown}");
        }
    }
}
