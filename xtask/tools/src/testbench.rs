//! `cargo xtask testbench`: VICE's hardware test programs on c64kit, per area beside x64sc's
//! verdicts, with what changed since the recorded run (testbench/results/exitcode.tsv and
//! screenshot.tsv, each rewritten after a full run of its type so a regression shows in
//! review). With Commodore's ROMs (`--roms DIR`, or `C64KIT_ROMS`) the same tests run on a
//! machine with their KERNAL, BASIC and character ROM, recorded apart (exitcode-roms.tsv,
//! screenshot-roms.tsv).

use c64kit_files::{errln, outln};
use c64kit_testbench::{self as bench, CommodoreRoms, Kind, Outcome, RomSet, Test, Verdict};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use xtask::WHAT;

#[derive(clap::Args)]
pub struct TestbenchArgs {
    /// Only tests whose folder/name contains this (e.g. CIA/tod, Lorenz).
    #[arg(long)]
    only: Option<String>,
    /// Only tests of this type.
    #[arg(long = "type", value_parser = ["exitcode", "screenshot"])]
    kind: Option<String>,
    /// With --only: write the chosen tests' verdicts into the recorded results, in place of
    /// their lines there (a full run rewrites the files whole anyway).
    #[arg(long, requires = "only")]
    record: bool,
    /// Also write the per-test results as Markdown here.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Tests run at once (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// For every screenshot test that is not "ok", write our picture (NAME.png) and where it
    /// differs from the reference (NAME-diff.png: black same, white different, dark grey
    /// different but character-ROM text, blue not compared) into this folder.
    #[arg(long, value_name = "DIR")]
    save_pictures: Option<PathBuf>,
    /// Run on Commodore's KERNAL, BASIC and character ROM from this folder (VICE's names:
    /// kernal-901227-03.bin, basic-901226-01.bin, chargen-901225-01.bin); default: the
    /// folder C64KIT_ROMS names, if set. Screenshots must then match pixel for pixel, and
    /// the results are recorded in testbench/results/exitcode-roms.tsv and screenshot-roms.tsv.
    #[arg(long, value_name = "DIR")]
    roms: Option<PathBuf>,
    /// Run on c64kit's own ROMs even when C64KIT_ROMS is set.
    #[arg(long, conflicts_with = "roms")]
    own_roms: bool,
}

/// Commodore's ROMs if `--roms` or `C64KIT_ROMS` names them (and not `--own-roms`).
fn chosen_roms(args: &TestbenchArgs) -> Result<Option<CommodoreRoms>, String> {
    if args.own_roms {
        return Ok(None);
    }
    match &args.roms {
        Some(dir) => CommodoreRoms::in_dir(dir)
            .map(Some)
            .map_err(|e| format!("--roms {}: {e}", dir.display())),
        None => CommodoreRoms::from_env().transpose(),
    }
}

pub fn run(args: TestbenchArgs) -> ExitCode {
    let all = match bench::tests() {
        Ok(t) => t,
        Err(e) => {
            errln!("testbench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let kinds: Vec<Kind> = Kind::ALL
        .into_iter()
        .filter(|k| args.kind.as_deref().is_none_or(|w| w == k.word()))
        .collect();
    let chosen: Vec<Test> = all
        .into_iter()
        .filter(|t| {
            args.only
                .as_ref()
                .is_none_or(|p| t.name().contains(p.as_str()))
        })
        .filter(|t| kinds.contains(&t.kind))
        .collect();
    if chosen.is_empty() {
        errln!("testbench: no test matches");
        return ExitCode::FAILURE;
    }
    if let Some(dir) = &args.save_pictures {
        // Once here rather than one error per test.
        if let Err(e) = std::fs::create_dir_all(dir) {
            errln!(
                "testbench: {}: cannot create the folder: {e}",
                dir.display()
            );
            return ExitCode::FAILURE;
        }
    }
    if let Some(path) = &args.report {
        // Written after every test has run: a folder that does not exist fails now.
        if let Err(e) = c64kit_files::check_output(path) {
            errln!(
                "testbench: {}: {}",
                path.display(),
                c64kit_files::io_reason(&e)
            );
            return ExitCode::FAILURE;
        }
    }
    let roms = match chosen_roms(&args) {
        Ok(r) => r,
        Err(e) => {
            errln!("testbench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let set = if roms.is_some() {
        RomSet::Commodores
    } else {
        RomSet::Own
    };
    if let Some(r) = &roms {
        outln!(
            WHAT,
            "On Commodore's KERNAL, BASIC and character ROM from {} (results: *-roms.tsv)",
            r.dir.display()
        );
    }
    let known: BTreeMap<String, String> = match bench::known_differences(set) {
        Ok(k) => k.into_iter().collect(),
        Err(e) => {
            errln!("testbench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let full = args.only.is_none();
    let (results, save_errors) = run_all(
        chosen,
        roms.as_ref(),
        args.jobs,
        args.save_pictures.as_deref(),
    );

    for &kind in &kinds {
        let of_kind: Vec<&(Test, Outcome)> =
            results.iter().filter(|(t, _)| t.kind == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        outln!(WHAT, "{} tests:", kind.word());
        let verdicts: Vec<(&Test, &str)> =
            of_kind.iter().map(|(t, o)| (t, o.verdict.word())).collect();
        outln!(WHAT, "{}", bench::area_table(kind, set, &verdicts));
        print_differences(set, &of_kind, &known);
        print_changes(kind, set, &of_kind);
    }
    let mut failed = false;
    for e in &save_errors {
        errln!("testbench: {e}");
        failed = true;
    }
    if let Some(dir) = &args.save_pictures {
        outln!(
            WHAT,
            "Pictures of the failing screenshot tests in {}",
            dir.display()
        );
    }
    if let Some(path) = &args.report {
        if let Err(e) = c64kit_files::write_output(path, markdown(&results, set, &known).as_bytes())
        {
            errln!(
                "testbench: {}: {}",
                path.display(),
                c64kit_files::io_reason(&e)
            );
            return ExitCode::FAILURE;
        }
        outln!(WHAT, "Report written to {}", path.display());
    }
    if full {
        for &kind in &kinds {
            let path = bench::results_file(kind, set);
            let of_kind: Vec<(Test, Outcome)> = results
                .iter()
                .filter(|(t, _)| t.kind == kind)
                .cloned()
                .collect();
            let text = bench::results_text(kind, set, &of_kind);
            if let Err(e) = c64kit_files::write_output(&path, text.as_bytes()) {
                errln!(
                    "testbench: {}: {}",
                    path.display(),
                    c64kit_files::io_reason(&e)
                );
                return ExitCode::FAILURE;
            }
            outln!(WHAT, "Recorded in {}", path.display());
        }
    }
    if args.record && !full {
        for &kind in &kinds {
            let path = bench::results_file(kind, set);
            let fresh: BTreeMap<String, String> = results
                .iter()
                .filter(|(t, _)| t.kind == kind)
                .map(|(t, o)| (t.name(), format!("{}\t{}", o.verdict.word(), o.explain())))
                .collect();
            if fresh.is_empty() {
                continue;
            }
            let text = match c64kit_files::read_text(&path, c64kit_files::MIB, "the results") {
                Ok(t) => t,
                Err(e) => {
                    errln!("testbench: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let mut out = String::new();
            for line in text.lines() {
                let name = line.split('\t').next().unwrap_or("");
                match fresh.get(name).filter(|_| !line.starts_with('#')) {
                    Some(verdict) => out += &format!("{name}\t{verdict}\n"),
                    None => out += &format!("{line}\n"),
                }
            }
            if let Err(e) = c64kit_files::write_output(&path, out.as_bytes()) {
                errln!(
                    "testbench: {}: {}",
                    path.display(),
                    c64kit_files::io_reason(&e)
                );
                return ExitCode::FAILURE;
            }
            outln!(WHAT, "Recorded the chosen tests in {}", path.display());
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// x64sc passes the test and c64kit reports the other result or times out (n/a is not a
/// failure).
fn fails_where_x64sc_passes(t: &Test, o: &Outcome) -> bool {
    bench::fails_where_x64sc_passes(t, o.verdict.word())
}

/// Each test x64sc passes and c64kit fails, with the reason testbench/known-differences.tsv
/// (-roms.tsv on Commodore's ROMs) gives, or a call to find one.
fn print_differences(set: RomSet, results: &[&(Test, Outcome)], known: &BTreeMap<String, String>) {
    let failing: Vec<&Test> = results
        .iter()
        .filter(|(t, o)| fails_where_x64sc_passes(t, o))
        .map(|(t, _)| t)
        .collect();
    if failing.is_empty() {
        return;
    }
    outln!(WHAT, "x64sc passes, c64kit does not ({}):", failing.len());
    let file = bench::known_differences_file(set);
    let file = file.file_name().unwrap_or_default().to_string_lossy();
    for t in failing {
        let name = t.name();
        match known.get(&name) {
            Some(why) => outln!(WHAT, "  {name}: {why}"),
            None => outln!(
                WHAT,
                "  {name}: NOT EXPLAINED (add it to testbench/{file} once understood)"
            ),
        }
    }
}

/// What changed since the recorded run of this type on this set of ROMs.
fn print_changes(kind: Kind, set: RomSet, results: &[&(Test, Outcome)]) {
    let recorded: BTreeMap<String, String> = bench::read_results(&bench::results_file(kind, set))
        .into_iter()
        .map(|(n, v, _)| (n, v))
        .collect();
    let mut changes = Vec::new();
    for (t, o) in results {
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
        outln!(WHAT, "No change since the recorded run.");
    } else {
        outln!(WHAT, "Changed since the recorded run ({}):", changes.len());
        for c in &changes {
            outln!(WHAT, "  {c}");
        }
    }
}

/// Runs the tests on `jobs` threads; with `save` each failing screenshot test's pictures
/// are written as soon as it ends (and dropped). Also returns the errors in writing them.
fn run_all(
    tests: Vec<Test>,
    roms: Option<&CommodoreRoms>,
    jobs: Option<usize>,
    save: Option<&Path>,
) -> (Vec<(Test, Outcome)>, Vec<String>) {
    let threads = jobs
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(2)
        .max(1);
    let n = tests.len();
    let queue = Mutex::new(tests.into_iter().enumerate().collect::<Vec<_>>());
    let done = Mutex::new(Vec::with_capacity(n));
    let errors = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.min(n) {
            s.spawn(|| loop {
                let Some((i, t)) = queue.lock().unwrap_or_else(|e| e.into_inner()).pop() else {
                    break;
                };
                let mut o = bench::run_on(&t, roms, save.is_some());
                if let Some(dir) = save {
                    if let Err(e) = bench::save_pictures(dir, &t, &o) {
                        errors.lock().unwrap_or_else(|e| e.into_inner()).push(e);
                    }
                }
                o.shot = None;
                done.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, t, o));
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(i, _, _)| *i);
    let results = done.into_iter().map(|(_, t, o)| (t, o)).collect();
    (
        results,
        errors.into_inner().unwrap_or_else(|e| e.into_inner()),
    )
}

fn markdown(results: &[(Test, Outcome)], set: RomSet, known: &BTreeMap<String, String>) -> String {
    let mut s = format!(
        "# VICE test programs on c64kit ({})\n\n| test | x64sc | c64kit | detail |\n|---|---|---|---|\n",
        set.describe()
    );
    for (t, o) in results {
        let detail = match known.get(&t.name()) {
            Some(why) if t.x64sc == "ok" && o.verdict != Verdict::Ok => {
                format!("{} (known difference: {why})", o.explain())
            }
            _ => o.explain().to_string(),
        };
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
