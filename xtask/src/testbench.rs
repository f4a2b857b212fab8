//! `cargo xtask testbench`: VICE's hardware test programs on c64kit, per area beside x64sc's
//! verdicts, with what changed since the recorded run (testbench/results/exitcode.tsv,
//! rewritten after every full run so a regression shows in review).

use c64kit_testbench::{self as bench, Kind, Outcome, Test, Verdict};
use comfy_table::{presets::ASCII_MARKDOWN, Table};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

#[derive(clap::Args)]
pub struct TestbenchArgs {
    /// Only tests whose folder/name contains this (e.g. CIA/tod, Lorenz).
    #[arg(long)]
    only: Option<String>,
    /// Only tests of this type.
    #[arg(long = "type", value_parser = ["exitcode", "screenshot"])]
    kind: Option<String>,
    /// Also write the per-test results as Markdown here.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Tests run at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
}

pub fn run(args: TestbenchArgs) -> ExitCode {
    let all = match bench::tests() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("testbench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let chosen: Vec<Test> = all
        .into_iter()
        .filter(|t| {
            args.only
                .as_ref()
                .is_none_or(|p| t.name().contains(p.as_str()))
        })
        .filter(|t| match args.kind.as_deref() {
            Some("exitcode") => t.kind == Kind::Exitcode,
            Some("screenshot") => t.kind == Kind::Screenshot,
            _ => true,
        })
        .collect();
    if chosen.is_empty() {
        eprintln!("testbench: no test matches");
        return ExitCode::FAILURE;
    }
    let full = args.only.is_none() && args.kind.as_deref() != Some("screenshot");
    let results = run_all(chosen, args.jobs);

    // Per area: c64kit's verdicts beside x64sc's.
    let mut areas: BTreeMap<String, [usize; 6]> = BTreeMap::new();
    for (t, o) in &results {
        let a = areas.entry(t.area().to_string()).or_default();
        a[0] += 1;
        a[1] += (t.x64sc == "ok") as usize;
        a[2] += (o.verdict == Verdict::Ok) as usize;
        a[3] += (t.x64sc == "ok" && o.verdict == Verdict::Ok) as usize;
        a[4] += matches!(o.verdict, Verdict::NotApplicable(_)) as usize;
        a[5] +=
            (t.x64sc == "ok" && matches!(o.verdict, Verdict::Error | Verdict::Timeout)) as usize;
    }
    let mut table = Table::new();
    table.load_preset(ASCII_MARKDOWN);
    table.set_header([
        "area",
        "tests",
        "x64sc ok",
        "c64kit ok",
        "both ok",
        "c64kit n/a",
        "x64sc ok, c64kit fails",
    ]);
    let mut total = [0usize; 6];
    for (area, a) in &areas {
        let mut row = vec![area.clone()];
        row.extend(a.iter().map(|n| n.to_string()));
        table.add_row(row);
        for i in 0..6 {
            total[i] += a[i];
        }
    }
    let mut row = vec!["all".to_string()];
    row.extend(total.iter().map(|n| n.to_string()));
    table.add_row(row);
    println!("{table}");

    // What changed since the recorded run.
    let recorded: BTreeMap<String, String> = bench::read_results(&bench::results_file())
        .into_iter()
        .map(|(n, v, _)| (n, v))
        .collect();
    let mut changes = Vec::new();
    for (t, o) in &results {
        let now = o.verdict.word();
        match recorded.get(&t.name()) {
            Some(before) if before != now => {
                changes.push(format!("{}: {before} -> {now} ({})", t.name(), o.explain()))
            }
            None => changes.push(format!("{}: new, {now}", t.name())),
            _ => {}
        }
    }
    if changes.is_empty() {
        println!("No change since the recorded run.");
    } else {
        println!("Changed since the recorded run ({}):", changes.len());
        for c in &changes {
            println!("  {c}");
        }
    }
    if let Some(path) = &args.report {
        if let Err(e) = std::fs::write(path, markdown(&results)) {
            eprintln!("testbench: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("Report written to {}", path.display());
    }
    if full {
        let path = bench::results_file();
        let exitcode: Vec<(Test, Outcome)> = results
            .into_iter()
            .filter(|(t, _)| t.kind == Kind::Exitcode)
            .collect();
        if let Err(e) = std::fs::write(&path, bench::results_text(&exitcode)) {
            eprintln!("testbench: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("Recorded in {}", path.display());
    }
    ExitCode::SUCCESS
}

fn run_all(tests: Vec<Test>, jobs: Option<usize>) -> Vec<(Test, Outcome)> {
    let threads = jobs
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(2)
        .max(1);
    let n = tests.len();
    let queue = Mutex::new(tests.into_iter().enumerate().collect::<Vec<_>>());
    let done = Mutex::new(Vec::with_capacity(n));
    std::thread::scope(|s| {
        for _ in 0..threads.min(n) {
            s.spawn(|| loop {
                let Some((i, t)) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop() else {
                    break;
                };
                let o = bench::run(&t);
                done.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, t, o));
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(i, _, _)| *i);
    done.into_iter().map(|(_, t, o)| (t, o)).collect()
}

fn markdown(results: &[(Test, Outcome)]) -> String {
    let mut s = String::from(
        "# VICE test programs on c64kit\n\n| test | x64sc | c64kit | detail |\n|---|---|---|---|\n",
    );
    for (t, o) in results {
        let detail = o.explain();
        s += &format!(
            "| {} | {} | {} | {} |\n",
            t.name(),
            t.x64sc,
            o.verdict.word(),
            detail.replace('|', "\\|")
        );
    }
    s
}
