//! `cargo xtask conform`: run the scenarios in parallel with progress, print the table.

use c64kit_conformance::{self as conformance, report, Outcome, Prg, Programs, Scenario};
use comfy_table::Table;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

#[derive(clap::Args)]
pub struct ConformArgs {
    /// Only the scenario with this name (repeatable).
    #[arg(long)]
    scenario: Vec<String>,
    /// Only scenarios checking this published fact (e.g. F15; repeatable).
    #[arg(long)]
    fact: Vec<String>,
    /// Only scenarios of this engine (program name prefix, e.g. ryg3 or ryg3-v10).
    #[arg(long)]
    engine: Option<String>,
    /// Write the table to this file: .html for a page, anything else for Markdown.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Judge this build (a .prg, .cbmprj or .asm) instead of ours; needs --as.
    #[arg(long, requires = "as_name")]
    program: Option<PathBuf>,
    /// The program the build claims to be, e.g. ryg3-v10: only its scenarios run.
    #[arg(long = "as", value_name = "NAME", requires = "program")]
    as_name: Option<String>,
    /// Scenarios run at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
}

fn selected(args: &ConformArgs, s: &Scenario) -> bool {
    (args.scenario.is_empty() || args.scenario.contains(&s.name))
        && (args.fact.is_empty() || args.fact.iter().any(|f| f.eq_ignore_ascii_case(&s.fact)))
        && args
            .engine
            .as_ref()
            .is_none_or(|e| s.program.starts_with(e.as_str()))
        && args.as_name.as_ref().is_none_or(|n| &s.program == n)
}

pub fn run(args: ConformArgs) -> ExitCode {
    let scenarios = match conformance::all_scenarios() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("conform: {e}");
            return ExitCode::FAILURE;
        }
    };
    let scenarios: Vec<Scenario> = scenarios
        .into_iter()
        .filter(|s| selected(&args, s))
        .collect();
    if scenarios.is_empty() {
        eprintln!("conform: no scenario matches the filters");
        return ExitCode::FAILURE;
    }
    if let Err(e) = crate::build() {
        eprintln!("conform: building our programs failed:\n{e}");
        return ExitCode::FAILURE;
    }
    let mut programs = Programs::default();
    if let (Some(path), Some(name)) = (&args.program, &args.as_name) {
        programs.replace(name, path.clone());
        println!("Judging {} as {name}", path.display());
    }
    // Build each program once, up front (assembly errors show before any run).
    let mut jobs: Vec<(Scenario, Result<Prg, String>)> = Vec::new();
    for s in scenarios {
        let prg = programs.get(&s.program);
        jobs.push((s, prg));
    }
    let outcomes = run_parallel(jobs, args.jobs);
    let update = std::env::var("UPDATE_GOLDENFILES").is_ok_and(|v| v == "1");
    if update && std::env::var("CI").is_ok_and(|v| v == "true") {
        eprintln!(
            "conform: refusing UPDATE_GOLDENFILES=1 under CI: golden files change only on purpose"
        );
        return ExitCode::FAILURE;
    }
    print_table(&outcomes);
    let mut all_pass = true;
    for (s, o) in &outcomes {
        if update && o.facts_hold() && !o.golden_matches() {
            match conformance::update_golden(s, o) {
                Ok(Some(p)) => {
                    println!("UPDATED golden file {} (UPDATE_GOLDENFILES=1)", p.display())
                }
                Ok(None) => {}
                Err(e) => eprintln!("conform: {e}"),
            }
            continue;
        }
        if !o.passed() {
            all_pass = false;
            for f in o.failures() {
                eprintln!("FAILED {f}");
            }
        }
    }
    if args.program.is_some() {
        let facts = outcomes.iter().all(|(_, o)| o.facts_hold());
        let golden = outcomes.iter().all(|(_, o)| o.golden_matches());
        println!(
            "Published facts: {}. Golden transcripts (our engine's exact output): {}.",
            if facts {
                "all hold"
            } else {
                "SOME DO NOT HOLD"
            },
            if golden {
                "identical"
            } else {
                "differ (see diffs)"
            }
        );
    }
    if let Some(path) = &args.report {
        let list: Vec<Outcome> = outcomes.iter().map(|(_, o)| o.clone()).collect();
        let text = if path.extension().is_some_and(|e| e == "html") {
            report::html(&list)
        } else {
            report::markdown(&list)
        };
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("conform: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("Report written to {}", path.display());
    }
    let passed = outcomes.iter().filter(|(_, o)| o.passed()).count();
    println!("{passed} of {} scenarios passed", outcomes.len());
    if all_pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn run_parallel(
    jobs: Vec<(Scenario, Result<Prg, String>)>,
    threads: Option<usize>,
) -> Vec<(Scenario, Outcome)> {
    let threads = threads
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(2)
        .max(1);
    let bars = MultiProgress::new();
    let overall = bars.add(ProgressBar::new(jobs.len() as u64));
    overall.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} scenarios {elapsed}").unwrap(),
    );
    let n = jobs.len();
    let queue = Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let results = Mutex::new(Vec::with_capacity(n));
    std::thread::scope(|scope| {
        for _ in 0..threads.min(n) {
            scope.spawn(|| loop {
                let Some((i, (s, prg))) = queue.lock().unwrap().pop() else {
                    break;
                };
                let bar = bars.insert_before(&overall, ProgressBar::new_spinner());
                bar.set_style(ProgressStyle::with_template("{spinner} {msg} {elapsed}").unwrap());
                bar.enable_steady_tick(Duration::from_millis(120));
                bar.set_message(format!("{} ({})", s.name, s.fact));
                let outcome = conformance::run_scenario(&s, prg, |cycles| {
                    bar.set_message(format!(
                        "{} ({}): {:.1} s of C64 time",
                        s.name,
                        s.fact,
                        cycles as f64 / 985_248.0
                    ));
                });
                bar.finish_and_clear();
                overall.inc(1);
                results.lock().unwrap().push((i, s, outcome));
            });
        }
    });
    overall.finish_and_clear();
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _, _)| *i);
    results.into_iter().map(|(_, s, o)| (s, o)).collect()
}

fn print_table(outcomes: &[(Scenario, Outcome)]) {
    let mut table = Table::new();
    table.set_header(report::HEADER);
    for (_, o) in outcomes {
        table.add_row(report::row(o));
    }
    println!("{table}");
}
