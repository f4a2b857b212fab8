//! The `conform` command, shared by `c64kit conform` and `cargo xtask conform`: choose the
//! scenarios, judge a build or ours, run them in parallel with progress, print the table,
//! write the reports. Exit code: 0 when every published fact checked holds, 1 when one does
//! not (or a scenario could not run, or the program cannot be read), 2 for usage errors.

use crate::check::Verdict;
use crate::report::{self, Standing};
use crate::{Outcome, Program, Programs, Scenario};
use c64kit_files::{errln, outln};
use c64kit_machine::{RomPaths, Roms};
use comfy_table::{Cell, Color, Table};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

/// What the command writes to standard output, for the message when it cannot.
const WHAT: &str = "the results";

#[derive(clap::Args, Debug, Default)]
pub struct ConformArgs {
    /// Judge this build (a .prg, or a .cbmprj/.asm assembled on the fly) instead of ours;
    /// --as says which program it is.
    #[arg(value_name = "PROGRAM")]
    pub program_file: Option<PathBuf>,
    /// The same as PROGRAM.
    #[arg(long, value_name = "PROGRAM", conflicts_with = "program_file")]
    pub program: Option<PathBuf>,
    /// The program the build claims to be (e.g. ryg3-v10): only its scenarios run.
    #[arg(long = "as", value_name = "NAME")]
    pub as_name: Option<String>,
    /// A VICE label file for the build (`al C:0820 .main`), for routine-level checks on a
    /// PRG (a .cbmprj/.asm brings its own labels).
    #[arg(short = 'l', long = "labels", value_name = "FILE")]
    pub labels: Option<PathBuf>,
    /// Only the scenario with this name (repeatable).
    #[arg(long)]
    pub scenario: Vec<String>,
    /// Only scenarios checking this published fact (e.g. F15; repeatable).
    #[arg(long)]
    pub fact: Vec<String>,
    /// Only scenarios of this engine (program name prefix, e.g. ryg3 or ryg3-v10).
    #[arg(long)]
    pub engine: Option<String>,
    /// Commodore's BASIC ROM image (8 KiB; with --kernal-rom): the scenarios run on a C64
    /// booted through Commodore's KERNAL and BASIC, each program autostarted as VICE does.
    #[arg(long, value_name = "FILE")]
    pub basic_rom: Option<PathBuf>,
    /// Commodore's KERNAL ROM image (8 KiB; with --basic-rom).
    #[arg(long, value_name = "FILE")]
    pub kernal_rom: Option<PathBuf>,
    /// A character ROM image (4 KiB).
    #[arg(long, value_name = "FILE")]
    pub chargen_rom: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// What `conform` and `test` both write and how they run: the report files, the diffs'
/// length, the scenarios at once.
#[derive(clap::Args, Debug, Default)]
pub struct OutputArgs {
    /// Write every check with its evidence: .html for a page, anything else for Markdown.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Write JUnit XML (a testcase per check, the scenario as its class).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write the results as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Show whole transcript diffs (default: at most 40 lines per scenario).
    #[arg(long)]
    pub full_diff: bool,
    /// Scenarios run at once (default: the number of cores).
    #[arg(long, value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

impl ConformArgs {
    fn judged(&self) -> Option<&PathBuf> {
        self.program_file.as_ref().or(self.program.as_ref())
    }

    /// The ROM images given (none: c64kit's own).
    fn rom_paths(&self) -> RomPaths {
        RomPaths {
            basic: self.basic_rom.clone(),
            kernal: self.kernal_rom.clone(),
            chargen: self.chargen_rom.clone(),
        }
    }

    fn selects(&self, s: &Scenario) -> bool {
        (self.scenario.is_empty() || self.scenario.contains(&s.name))
            && (self.fact.is_empty() || self.fact.iter().any(|f| f.eq_ignore_ascii_case(&s.fact)))
            && self
                .engine
                .as_ref()
                .is_none_or(|e| s.program.starts_with(e.as_str()))
            && self.as_name.as_ref().is_none_or(|n| &s.program == n)
    }
}

/// 15 for "F15" (facts with other names last).
pub fn fact_number(fact: &str) -> u32 {
    fact.get(1..)
        .and_then(|n| n.parse().ok())
        .unwrap_or(u32::MAX)
}

/// `--jobs`: 1 or more.
fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("the number of scenarios to run at once is 1 or more".into()),
    }
}

/// An error before any scenario runs: printed once, exit 1.
pub(crate) fn fail(message: impl std::fmt::Display) -> ExitCode {
    errln!("c64kit: {message}");
    ExitCode::FAILURE
}

/// A mistake in how the command was called: printed once, exit 2, as the argument parser's.
pub(crate) fn usage(message: impl std::fmt::Display) -> ExitCode {
    errln!("c64kit: {message}\n\nFor more information, try '--help'.");
    ExitCode::from(c64kit_files::stdio::USAGE_EXIT_CODE)
}

/// The programs a build can be judged as: those the scenarios run, each once.
fn judgeable(scenarios: &[Scenario]) -> Vec<&str> {
    let mut names: Vec<&str> = scenarios.iter().map(|s| s.program.as_str()).collect();
    names.sort();
    names.dedup();
    names
}

/// Runs the command; `tool` names it in the reports' title ("c64kit conform").
pub fn run(args: &ConformArgs, tool: &str) -> ExitCode {
    let scenarios = match crate::all_scenarios() {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let names = judgeable(&scenarios);
    if let Some(name) = &args.as_name {
        if !names.contains(&name.as_str()) {
            return usage(format!(
                "--as {name:?}: no scenario runs a program of that name; judge a build as \
                 one of: {}",
                names.join(", ")
            ));
        }
    }
    let mut programs = Programs::default();
    let judged = args.judged();
    if let Some(path) = judged {
        let Some(name) = &args.as_name else {
            return usage(format!(
                "{}: say which program it is with --as NAME (one of: {})",
                path.display(),
                names.join(", ")
            ));
        };
        programs.replace(name, path.clone(), args.labels.clone());
        // A build that cannot be read fails here, once, before any scenario runs.
        if let Err(e) = programs.get(name) {
            return fail(e);
        }
    } else if args.labels.is_some() {
        return usage("-l/--labels goes with a PROGRAM to judge");
    }
    let roms = args.rom_paths();
    if let Some(why) = roms.unpaired() {
        return usage(why);
    }
    // Images that cannot be used fail here, once, before any scenario runs.
    if let Err(e) = Roms::load(&roms) {
        return fail(e);
    }
    let inputs: Vec<(PathBuf, String)> = judged
        .iter()
        .map(|p| ((*p).clone(), "the judged program".to_string()))
        .chain(
            args.labels
                .iter()
                .map(|p| (p.clone(), "the label file".into())),
        )
        .collect();
    let reports = args.output.reports();
    if let Err(e) = reports.check(&inputs) {
        return fail(e);
    }
    // Every fact with where the whole suite checks it, for the reports.
    let published = crate::published_facts(&scenarios);
    let mut scenarios: Vec<Scenario> = scenarios.into_iter().filter(|s| args.selects(s)).collect();
    // In the order of the published facts (F5 before F11), then as the files declare them.
    scenarios.sort_by_key(|s| fact_number(&s.fact));
    if scenarios.is_empty() {
        return usage("no scenario matches the filters (--scenario, --fact, --engine, --as)");
    }
    let update = match crate::golden_update_requested() {
        // The golden files are c64kit's own ROMs' runs: never rewritten from another's.
        Ok(u) => u && judged.is_none() && roms.kernal.is_none() && roms.basic.is_none(),
        Err(e) => return fail(e),
    };
    if let (Some(path), Some(name)) = (judged, &args.as_name) {
        outln!(WHAT, "Judging {} as {name}", path.display());
    }
    if let Some(kernal) = &roms.kernal {
        outln!(
            WHAT,
            "On the KERNAL image {} (each C64 booted through its reset, each program \
             autostarted)",
            kernal.display()
        );
    }
    let jobs: Vec<(Scenario, Result<Program, String>)> = scenarios
        .into_iter()
        .map(|s| {
            let p = programs.get(&s.program);
            (s, p)
        })
        .collect();
    let outcomes = run_parallel_on(jobs, args.output.jobs, &roms);
    let colour = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let max_diff = args.output.max_diff();
    print_table(&outcomes, colour, max_diff);
    if update {
        for (s, o) in &outcomes {
            if o.facts_hold() && o.golden_needs_update() {
                match crate::update_golden(s, o) {
                    Ok(Some(p)) => {
                        outln!(
                            WHAT,
                            "UPDATED golden file {} (UPDATE_GOLDENFILES=1)",
                            p.display()
                        )
                    }
                    Ok(None) => {}
                    Err(e) => return fail(e),
                }
            }
        }
    }
    let list: Vec<Outcome> = outcomes.into_iter().map(|(_, o)| o).collect();
    let mut title = match (judged, &args.as_name) {
        (Some(p), Some(n)) => format!("{tool}: {} judged as {n}", p.display()),
        _ => format!("{tool}: our programs"),
    };
    if let Some(kernal) = &roms.kernal {
        title.push_str(&format!(" on the KERNAL image {}", kernal.display()));
    }
    finish(&list, &published, &title, max_diff, &reports)
}

impl OutputArgs {
    /// The report files asked for.
    pub(crate) fn reports(&self) -> Reports<'_> {
        Reports {
            report: &self.report,
            junit: &self.junit,
            json: &self.json,
        }
    }

    /// How many lines of a transcript diff are shown (0: all).
    pub(crate) fn max_diff(&self) -> usize {
        if self.full_diff {
            0
        } else {
            report::DIFF_LINES
        }
    }
}

/// The report files a run writes (`--report`, `--junit`, `--json`).
pub(crate) struct Reports<'a> {
    pub report: &'a Option<PathBuf>,
    pub junit: &'a Option<PathBuf>,
    pub json: &'a Option<PathBuf>,
}

impl Reports<'_> {
    /// Before any scenario runs: no report may be one of the run's `inputs`, and each must
    /// be writable (a folder that does not exist fails now, not after the run).
    pub(crate) fn check(&self, inputs: &[(PathBuf, String)]) -> Result<(), String> {
        for (out, what) in [
            (self.report, "the report"),
            (self.junit, "the JUnit report"),
            (self.json, "the JSON report"),
        ] {
            if let Some(out) = out {
                c64kit_files::ensure_not_input(out, what, inputs)?;
                c64kit_files::check_output(out).map_err(|e| {
                    format!(
                        "cannot write {}: {}",
                        out.display(),
                        c64kit_files::io_reason(&e)
                    )
                })?;
            }
        }
        Ok(())
    }
}

/// The end of a run, shared by `conform` and `test`: the report files, the summary line,
/// the exit code (0 when every deciding check holds, 1 otherwise).
pub(crate) fn finish(
    list: &[Outcome],
    published: &[crate::PublishedFact],
    title: &str,
    max_diff: usize,
    reports: &Reports,
) -> ExitCode {
    let mut written = Vec::new();
    if let Some(path) = reports.report {
        let text = if path.extension().is_some_and(|e| e == "html" || e == "htm") {
            report::html(list, published, title, max_diff)
        } else {
            report::markdown(list, published, title, max_diff)
        };
        written.push((path, text));
    }
    if let Some(path) = reports.junit {
        written.push((path, report::junit(list, title)));
    }
    if let Some(path) = reports.json {
        written.push((path, report::json(list, published, title)));
    }
    for (path, text) in written {
        if let Err(e) = c64kit_files::write_output(path, text.as_bytes()) {
            return fail(format!(
                "cannot write {}: {}",
                path.display(),
                c64kit_files::io_reason(&e)
            ));
        }
        outln!(WHAT, "Wrote {}", path.display());
    }
    outln!(WHAT, "{}", report::summary(list));
    if list.iter().all(|o| o.facts_hold()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs the scenarios on `threads` threads (default: the cores), with a progress line per
/// running scenario on a terminal; the outcomes come back in the jobs' order.
pub fn run_parallel(
    jobs: Vec<(Scenario, Result<Program, String>)>,
    threads: Option<usize>,
) -> Vec<(Scenario, Outcome)> {
    run_parallel_on(jobs, threads, &RomPaths::default())
}

/// [`run_parallel`] on the ROM images `roms` names (`crate::run_scenario_on`).
pub fn run_parallel_on(
    jobs: Vec<(Scenario, Result<Program, String>)>,
    threads: Option<usize>,
    roms: &RomPaths,
) -> Vec<(Scenario, Outcome)> {
    let threads = threads
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(2)
        .max(1);
    let bars = MultiProgress::new();
    let overall = bars.add(ProgressBar::new(jobs.len() as u64));
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} scenarios {elapsed}") {
        overall.set_style(style);
    }
    let n = jobs.len();
    let queue = Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let results = Mutex::new(Vec::with_capacity(n));
    std::thread::scope(|scope| {
        for _ in 0..threads.min(n) {
            scope.spawn(|| loop {
                let Some((i, (s, program))) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop()
                else {
                    break;
                };
                let bar = bars.insert_before(&overall, ProgressBar::new_spinner());
                if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
                    bar.set_style(style);
                }
                bar.enable_steady_tick(Duration::from_millis(120));
                // "f15-v10-e1f2-depth8 (F15)", or a user's scenario by its name.
                let label = if s.fact.is_empty() {
                    s.name.clone()
                } else {
                    format!("{} ({})", s.name, s.fact)
                };
                bar.set_message(label.clone());
                let outcome = crate::run_scenario_on(&s, program, roms, |cycles| {
                    bar.set_message(format!(
                        "{label}: {} of C64 time",
                        crate::check::c64_seconds(cycles, s.clock_hz())
                    ));
                });
                bar.finish_and_clear();
                overall.inc(1);
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, s, outcome));
            });
        }
    });
    overall.finish_and_clear();
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _, _)| *i);
    results.into_iter().map(|(_, s, o)| (s, o)).collect()
}

fn standing_colour(o: &Outcome) -> Color {
    match Standing::of(o) {
        Standing::Fails => Color::Red,
        Standing::Unchecked => Color::Yellow,
        Standing::Holds => Color::Green,
    }
}

/// The table's cells for a terminal too narrow for its rows: the scenario on a line, then
/// its cells named by their headers, on indented lines broken between cells.
fn print_records(outcomes: &[(Scenario, Outcome)], width: u16, colour: bool) {
    const INDENT: &str = "    ";
    let width = usize::from(width.max(40));
    for (_, o) in outcomes {
        let cells = report::row(o);
        outln!(WHAT, "{} ({}, {})", cells[0], cells[1], cells[2]);
        let (mut line, mut shown) = (String::from(INDENT), INDENT.len());
        for (i, (name, cell)) in report::HEADER.iter().zip(&cells).enumerate().skip(3) {
            let first = shown == INDENT.len();
            let plain = format!("{}{name}: {cell}", if first { "" } else { "; " });
            if !first && shown + plain.len() > width {
                outln!(WHAT, "{line};");
                (line, shown) = (String::from(INDENT), INDENT.len());
                push_named_cell(&mut line, name, cell, colour && i == 3, o);
                shown += name.len() + 2 + cell.len();
                continue;
            }
            shown += plain.len();
            if !first {
                line += "; ";
            }
            push_named_cell(&mut line, name, cell, colour && i == 3, o);
        }
        outln!(WHAT, "{line}");
    }
}

/// Appends "name: cell" to a record's line, the facts' cell in its standing's colour.
fn push_named_cell(line: &mut String, name: &str, cell: &str, coloured: bool, o: &Outcome) {
    if coloured {
        let ansi = match Standing::of(o) {
            Standing::Fails => 31,
            Standing::Unchecked => 33,
            Standing::Holds => 32,
        };
        *line += &format!("{name}: \x1b[{ansi}m{cell}\x1b[0m");
    } else {
        *line += &format!("{name}: {cell}");
    }
}

/// The compact table (one line per scenario), then under it the checks of each scenario
/// whose facts do not hold, and the diffs of transcripts that differ.
fn print_table(outcomes: &[(Scenario, Outcome)], colour: bool, max_diff: usize) {
    let mut table = Table::new();
    table.load_preset(comfy_table::presets::ASCII_BORDERS_ONLY_CONDENSED);
    // The terminal's width, asked before colour is turned off (which hides the terminal).
    let terminal_width = table.width();
    if !colour {
        table.force_no_tty();
    }
    table.set_header(report::HEADER);
    for (_, o) in outcomes {
        let cells = report::row(o);
        let mut row: Vec<Cell> = cells.iter().map(Cell::new).collect();
        row[3] = Cell::new(&cells[3]).fg(standing_colour(o));
        table.add_row(row);
    }
    // Each row stays one line, so a pipe or a CI log greps and diffs well. A terminal
    // narrower than that gets a few lines per scenario instead: wrapped cells broke names
    // and numbers mid-word.
    let needed = table.column_max_content_widths().iter().sum::<u16>() as usize
        + 3 * report::HEADER.len()
        + 1;
    match terminal_width {
        Some(width) if (width as usize) < needed => print_records(outcomes, width, colour),
        _ => outln!(WHAT, "{table}"),
    }
    for (_, o) in outcomes {
        let failing = !o.facts_hold() || o.not_checked() > 0;
        if failing {
            outln!(WHAT, "\n{} ({}): {}", o.name, o.fact, o.claim);
            if let Some(e) = &o.error {
                outln!(WHAT, "  ERROR: {e}");
            }
            for c in o.facts() {
                let line = c.evidence(&o.fact);
                let shown = match (colour, c.verdict) {
                    (true, Verdict::DoesNotHold) => format!("\x1b[31m{line}\x1b[0m"),
                    (true, Verdict::NotChecked) => format!("\x1b[33m{line}\x1b[0m"),
                    _ => line,
                };
                outln!(WHAT, "  {shown}");
            }
        }
        if let Some(d) = report::diffs(o, max_diff) {
            outln!(
                WHAT,
                "\n{} ({}): transcript differences (informative)",
                o.name,
                o.fact
            );
            for line in d.lines() {
                let shown = match (colour, line.chars().next()) {
                    (true, Some('-')) if !line.starts_with("---") => {
                        format!("\x1b[31m{line}\x1b[0m")
                    }
                    (true, Some('+')) if !line.starts_with("+++") => {
                        format!("\x1b[32m{line}\x1b[0m")
                    }
                    _ => line.to_string(),
                };
                outln!(WHAT, "  {shown}");
            }
        }
    }
}
