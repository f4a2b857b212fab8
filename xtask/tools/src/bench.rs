//! `cargo xtask bench`: how fast c64kit runs real programs, side by side with other 6502
//! emulators on the same instruction stream, and how long `cargo xtask conform` takes.
//!
//! Workloads are our RYG3 engine thinking (F15: v09 at depth 8 after E1F2; v11 at its default
//! depth 10 after E1F2) and a smaller v09 search that py65 can run in seconds. Each runs in:
//! - c64kit: the full C64 (`Machine`: PLA banking, CIAs and their IRQ, the trap KERNAL);
//!   instructions are counted once in a separate run (`count_instructions`), then the hot
//!   loop is timed, with the direct path and without it (cycle by cycle);
//! - c64kit-cpu on flat RAM in the flat harness (bench/flat.rs), to tell the core's speed from
//!   the C64's around it, again on the direct path (between KERNAL calls) and cycle by cycle;
//! - the `mos6502` crate in the same flat harness;
//! - py65 in a throw-away virtual environment (xtask/bench/py65_run.py), smaller workload only.
//!
//! Apart from those: I/O-heavy loops on the full C64, our sprite game (programs/sprites)
//! with the VIC-II drawing its picture every frame, a small player program with the SID's
//! sound synthesised (three voices, the filter swept), and `c64kit test` on a suite of 50
//! scenarios of a few million cycles each (the release binary, as a user runs it).
//!
//! The flat harnesses handle CHROUT/GETIN by looking at the PC, so their instruction counts
//! differ a little from the C64's (no IRQ handler, no `JMP ($0326)` in the jump table); each
//! emulator's rate uses its own count, and its transcript must equal c64kit's for its speed to
//! be reported. This is a bench, not a test: nothing here runs under `cargo test`.

mod flat;
mod py65;

use c64kit_files::{errln, outln};
use c64kit_machine::{
    Machine, Prg, Program, RomPaths, Roms, RunSettings, StopReason, VicModel, PAL_CYCLES_PER_FRAME,
    PAL_HZ,
};
use comfy_table::{CellAlignment, Table};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};
use xtask::{cargo, workspace_root, WHAT};

/// Emulation speed of c64kit on the RYG3 engine, side by side with the `mos6502` crate and
/// py65 (Python, in a throw-away venv under the target folder; skipped with a reason if it
/// cannot be installed), and the wall time of `cargo xtask conform`. The criterion
/// micro-benchmarks (`cargo bench -p c64kit-benches --features criterion`) run only with
/// --criterion.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Timed runs per emulator and workload (the median is reported).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Search depth of the smaller v09 workload that py65 runs (1-9).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=9))]
    py65_depth: u8,
    /// Timed runs of py65.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    py65_runs: u32,
    /// The Python that creates the venv for py65.
    #[arg(long, default_value = "python3")]
    python: String,
    /// Skip py65.
    #[arg(long)]
    no_py65: bool,
    /// Skip the mos6502 crate.
    #[arg(long)]
    no_mos6502: bool,
    /// Skip timing `cargo xtask conform`.
    #[arg(long)]
    no_conform: bool,
    /// Timed runs of `cargo xtask conform`.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    conform_runs: u32,
    /// Also write the results, as a Markdown page, to FILE (docs/speed.md is the page the
    /// README points to).
    #[arg(long, value_name = "FILE")]
    write: Option<PathBuf>,
    /// Also run the criterion micro-benchmarks afterwards (CPU on flat RAM, the C64 machine;
    /// a fat-LTO bench build and about a minute of measuring).
    #[arg(long)]
    criterion: bool,
    /// Only time `c64kit test` on the suite of 50 scenarios (the other workloads take
    /// minutes).
    #[arg(long)]
    test_suite_only: bool,
    /// Only time the sprite game, on every VIC-II model (the other workloads take minutes).
    #[arg(long, conflicts_with = "test_suite_only")]
    sprites_only: bool,
    /// With --sprites-only: the sprite game on this VIC-II model alone (6569, 8565, 6567r8,
    /// 6567r56a, 8562), for a profiler.
    #[arg(long, requires = "sprites_only", value_parser = parse_vic)]
    vic: Option<VicModel>,
    /// With --vic: frames of the sprite game per run.
    #[arg(long, requires = "vic", default_value_t = GAME_FRAMES,
          value_parser = clap::value_parser!(u64).range(1..))]
    frames: u64,
}

/// A VIC-II model by the name `--vic` takes.
fn parse_vic(name: &str) -> Result<VicModel, String> {
    VicModel::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = VicModel::ALL.iter().map(|m| m.name()).collect();
        format!("no VIC-II model {name:?} (one of {})", names.join(", "))
    })
}

/// What the bench found, as it prints it: kept for `--write`, which makes the page of
/// figures the README points to (docs/speed.md), so no figure is copied by hand.
static REPORT: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// A line of the results: printed, and kept for `--write`. (Progress lines are only
/// printed.)
macro_rules! say {
    ($($arg:tt)*) => {{
        let line = format!($($arg)*);
        outln!(WHAT, "{line}");
        let mut report = REPORT.lock().unwrap_or_else(|e| e.into_inner());
        report.push_str(&line);
        report.push('\n');
    }};
}

/// More than any workload needs (v09 at depth 8 is 37.4M cycles).
const MAX_CYCLES: u64 = 2_000_000_000;
const MAX_INSTRUCTIONS: u64 = 1_000_000_000;

struct Workload {
    label: String,
    program: &'static str,
    keys: String,
    /// py65 runs this one.
    py65: bool,
}

fn workloads(py65_depth: u8) -> Vec<Workload> {
    vec![
        Workload {
            label: "ryg3-v09: .d8 e1f2 .g (F15)".into(),
            program: "ryg3-v09",
            keys: ".d8\ne1f2\n.g\n".into(),
            py65: false,
        },
        // `.D` takes one digit (`.d10` would set depth 1): v11's default depth is 10.
        Workload {
            label: "ryg3-v11: e1f2 .g (default depth 10)".into(),
            program: "ryg3-v11",
            keys: "e1f2\n.g\n".into(),
            py65: false,
        },
        Workload {
            label: format!("ryg3-v09: .d{py65_depth} e1f2 .g (py65 size)"),
            program: "ryg3-v09",
            keys: format!(".d{py65_depth}\ne1f2\n.g\n"),
            py65: true,
        },
    ]
}

/// One emulator on one workload.
struct Row {
    emulator: String,
    result: Result<Measured, Problem>,
    /// Transcript compared with c64kit's.
    transcript: String,
}

/// Why a row has no speed: a short word for the table, the detail for a note under it.
struct Problem {
    what: &'static str,
    detail: String,
}

impl Problem {
    fn new(what: &'static str, detail: impl Into<String>) -> Self {
        Problem {
            what,
            detail: detail.into(),
        }
    }
}

struct Measured {
    instructions: u64,
    cycles: u64,
    times: Vec<Duration>,
}

impl Measured {
    fn median(&self) -> Duration {
        let mut t = self.times.clone();
        t.sort();
        t[t.len() / 2]
    }
    fn ips(&self) -> f64 {
        self.instructions as f64 / self.median().as_secs_f64()
    }
}

pub fn run(args: BenchArgs) -> ExitCode {
    if let Some(path) = &args.write {
        // Its folder must exist before the minutes of measuring, not after.
        if let Err(e) = c64kit_files::check_output(path) {
            errln!("bench: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    say!("cargo xtask bench: {}", machine_load());
    if args.test_suite_only {
        return match test_suite(args.runs) {
            Ok(text) => {
                say!("\n{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                errln!("bench: c64kit test: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if args.sprites_only {
        let result = match args.vic {
            Some(vic) => sprite_game_on(vic, args.frames, args.runs),
            None => sprite_game(args.runs),
        };
        return match result {
            Ok(text) => {
                say!("\n{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                errln!("bench: the sprite game: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let mut failed = false;
    let mut results: Vec<(Workload, Vec<Row>)> = Vec::new();
    for w in workloads(args.py65_depth) {
        match bench_workload(&w, &args) {
            Ok(rows) => results.push((w, rows)),
            Err(e) => {
                errln!("bench: {}: {e}", w.label);
                failed = true;
            }
        }
    }
    say!("");
    print_results(&results, args.runs, args.py65_runs);
    say!("\n{}", io_heavy(args.runs));
    say!("\n{}", sid_audio(args.runs));
    let roms_dir = std::env::var_os("C64KIT_ROMS").map(PathBuf::from);
    match basic_benchmarks(args.runs, roms_dir.as_deref()) {
        Ok(text) => say!("\n{text}"),
        Err(e) => {
            errln!("bench: the BASIC benchmarks: {e}");
            failed = true;
        }
    }
    match &roms_dir {
        Some(dir) => match ryg3_on_commodores_roms(args.runs, dir) {
            Ok(text) => say!("\n{text}"),
            Err(e) => {
                errln!("bench: RYG3 on Commodore's ROMs: {e}");
                failed = true;
            }
        },
        None => {
            say!("\nCommodore's ROMs: not measured (C64KIT_ROMS names no folder with their images)")
        }
    }
    match sprite_game(args.runs) {
        Ok(text) => say!("\n{text}"),
        Err(e) => {
            errln!("bench: the sprite game: {e}");
            failed = true;
        }
    }
    match test_suite(args.runs) {
        Ok(text) => say!("\n{text}"),
        Err(e) => {
            errln!("bench: c64kit test: {e}");
            failed = true;
        }
    }
    if !args.no_conform {
        match time_conform(args.conform_runs) {
            Ok(line) => say!("\n{line}"),
            Err(e) => {
                errln!("bench: cargo xtask conform: {e}");
                failed = true;
            }
        }
    }
    say!("\nAt the end: {}", machine_load());
    if let Some(path) = &args.write {
        if let Err(e) = write_page(path) {
            errln!("bench: {e}");
            failed = true;
        }
    }
    if args.criterion {
        outln!(
            WHAT,
            "\ncriterion: cargo bench -p c64kit-benches --features criterion"
        );
        let status = Command::new(cargo())
            .args(["bench", "-p", "c64kit-benches", "--features", "criterion"])
            .current_dir(workspace_root())
            .status();
        if !status.is_ok_and(|s| s.success()) {
            errln!("bench: the criterion benches failed");
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Cores and load average, as `uptime` would say.
fn machine_load() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(", "))
        .unwrap_or_else(|| "unknown".into());
    format!("{cores} cores, load average {load}")
}

fn bench_workload(w: &Workload, args: &BenchArgs) -> Result<Vec<Row>, String> {
    outln!(WHAT, "{}", w.label);
    let prg = c64kit_programs::build(w.program)?;
    let sys = c64kit_basic::find_sys(&prg.to_bytes(), |_| 0)
        .map_err(|e| format!("{}: {e}", w.program))?
        .address;
    let events = c64kit_basic::parse_key_script(&w.keys).map_err(|e| e.to_string())?;
    let keys: Vec<u8> = events
        .iter()
        .map(|e| match e {
            c64kit_basic::KeyEvent::Key(k) => Ok(*k),
            _ => Err("the flat harnesses take keys only, no waits".to_string()),
        })
        .collect::<Result<_, _>>()?;

    // c64kit, the full C64: its transcript is the one the others must give. Its own
    // cycle-by-cycle path (direct path off) is measured too, to show what the direct path
    // gains.
    let count = count_machine(&prg, &w.keys)?;
    let reference = count.transcript.clone();
    let mut rows = vec![Row {
        emulator: "c64kit (full C64)".into(),
        result: Ok(time_machine(&prg, &w.keys, args.runs, true, &count)?),
        transcript: "reference".into(),
    }];

    let job = flat::FlatJob {
        load_address: prg.load_address,
        data: &prg.data,
        sys,
        keys: &keys,
        max_instructions: MAX_INSTRUCTIONS,
    };
    progress("c64kit-cpu, flat RAM, cycle by cycle");
    let core_exact = bench_flat::<flat::C64kitCpu<false>>(
        "c64kit-cpu (flat RAM, cycle by cycle)",
        &job,
        &reference,
        args.runs,
    );
    progress("c64kit-cpu, flat RAM");
    let mut core =
        bench_flat::<flat::C64kitCpu<true>>("c64kit-cpu (flat RAM)", &job, &reference, args.runs);
    // The direct path does not count instructions: it runs the same ones as the core's
    // cycle-by-cycle path (checked by the cycle count).
    if let (Ok(direct), Ok(exact)) = (&mut core.result, &core_exact.result) {
        if direct.cycles == exact.cycles {
            direct.instructions = exact.instructions;
        } else {
            core.result = Err(Problem::new(
                "differs",
                format!(
                    "{} cycles on the direct path, {} cycle by cycle",
                    direct.cycles, exact.cycles
                ),
            ));
        }
    }
    rows.push(core);
    progress("c64kit, full C64, cycle by cycle");
    rows.push(Row {
        emulator: "c64kit (full C64, cycle by cycle)".into(),
        result: Ok(time_machine(&prg, &w.keys, args.runs, false, &count)?),
        transcript: "= c64kit".into(),
    });
    rows.push(core_exact);
    if !args.no_mos6502 {
        progress("mos6502, flat RAM");
        rows.push(bench_flat::<flat::Mos6502>(
            "mos6502 0.10 (flat RAM)",
            &job,
            &reference,
            args.runs,
        ));
    }
    if w.py65 && !args.no_py65 {
        progress("py65");
        rows.push(bench_py65(&prg, w.program, sys, &keys, &reference, args));
    }
    Ok(rows)
}

fn progress(what: &str) {
    outln!(WHAT, "  measuring {what} ...");
}

/// What the counting run of the full C64 found.
struct Count {
    instructions: u64,
    cycles: u64,
    transcript: Vec<u8>,
}

fn start_machine(prg: &Prg, keys: &str) -> Result<Machine, String> {
    let settings = RunSettings {
        keys: c64kit_basic::parse_key_script(keys).map_err(|e| e.to_string())?,
        ..RunSettings::default()
    };
    Ok(Machine::start(Some(&Program::from_prg(prg)), settings)?)
}

/// One run that counts instructions (the checking loop).
fn count_machine(prg: &Prg, keys: &str) -> Result<Count, String> {
    progress("c64kit, counting instructions");
    let mut m = start_machine(prg, keys)?;
    m.count_instructions = true;
    let stop = m.run(MAX_CYCLES);
    if stop != StopReason::InputExhausted {
        return Err(format!("c64kit stopped with {stop}, not input exhausted"));
    }
    Ok(Count {
        instructions: m.instructions,
        cycles: m.cycles(),
        transcript: m.transcript().to_vec(),
    })
}

/// Times `runs` runs of the hot loop, with or without the direct path; each must end like
/// the counting run.
fn time_machine(
    prg: &Prg,
    keys: &str,
    runs: u32,
    direct: bool,
    count: &Count,
) -> Result<Measured, String> {
    progress(if direct {
        "c64kit, timed"
    } else {
        "c64kit, timed, cycle by cycle"
    });
    let mut times = Vec::new();
    for _ in 0..runs {
        let mut m = start_machine(prg, keys)?;
        m.direct_path = direct;
        let t = Instant::now();
        let stop = m.run(MAX_CYCLES);
        times.push(t.elapsed());
        if stop != StopReason::InputExhausted || m.cycles() != count.cycles {
            return Err(format!(
                "a timed run differs from the counting run ({stop}, {} cycles instead of {})",
                m.cycles(),
                count.cycles
            ));
        }
        if m.transcript() != count.transcript {
            return Err("a timed run's transcript differs from the counting run's".into());
        }
    }
    Ok(Measured {
        instructions: count.instructions,
        cycles: count.cycles,
        times,
    })
}

fn bench_flat<C: flat::FlatCpu>(
    name: &str,
    job: &flat::FlatJob,
    reference: &[u8],
    runs: u32,
) -> Row {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        // A panic inside another crate's emulator is its failure, not the bench's.
        let r = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| flat::run::<C>(job)))
        {
            Ok(r) => r,
            Err(_) => {
                return Row {
                    emulator: name.into(),
                    result: Err(Problem::new("panicked", "the emulator panicked")),
                    transcript: "-".into(),
                }
            }
        };
        times.push(r.time);
        let stop_ok = r.stop == flat::FlatStop::InputExhausted;
        let same = r.transcript == reference;
        last = Some(r);
        if !stop_ok || !same {
            break;
        }
    }
    let r = last.expect("at least one run");
    let transcript = compare(&r.transcript, reference);
    let result = if r.stop != flat::FlatStop::InputExhausted {
        Err(Problem::new("stopped", format!("stopped: {}", r.stop)))
    } else if r.transcript != reference {
        Err(Problem::new("no speed", format!("transcript {transcript}")))
    } else {
        Ok(Measured {
            instructions: r.instructions,
            cycles: r.cycles,
            times,
        })
    };
    Row {
        emulator: name.into(),
        result,
        transcript,
    }
}

fn bench_py65(
    prg: &Prg,
    program: &str,
    sys: u16,
    keys: &[u8],
    reference: &[u8],
    args: &BenchArgs,
) -> Row {
    let skipped = |why: String| {
        say!("  py65 skipped: {why}");
        Row {
            emulator: "py65".into(),
            result: Err(Problem::new("skipped", why)),
            transcript: "-".into(),
        }
    };
    let dir = xtask::target_dir();
    let py = match py65::ensure_venv(&args.python, &dir.join("bench-venv")) {
        Ok(py) => py,
        Err(e) => return skipped(e),
    };
    let file = dir.join("bench").join(format!("{program}.prg"));
    if let Err(e) = std::fs::create_dir_all(dir.join("bench"))
        .and_then(|()| c64kit_files::write_output(&file, &prg.to_bytes()))
    {
        return skipped(format!("{}: {e}", file.display()));
    }
    let r = match py65::run(
        &py,
        &file,
        sys,
        keys,
        args.py65_runs as usize,
        MAX_INSTRUCTIONS,
    ) {
        Ok(r) => r,
        Err(e) => return skipped(e),
    };
    let name = format!("py65 {} (Python)", r.version);
    let transcript = compare(&r.transcript, reference);
    let result = if r.stop != "input exhausted" {
        Err(Problem::new("stopped", format!("stopped: {}", r.stop)))
    } else if r.transcript != reference {
        Err(Problem::new("no speed", format!("transcript {transcript}")))
    } else {
        Ok(Measured {
            instructions: r.runs[0].1,
            cycles: r.runs[0].2,
            times: r.runs.iter().map(|r| r.0).collect(),
        })
    };
    Row {
        emulator: name,
        result,
        transcript,
    }
}

/// "= c64kit", or where and how the transcripts differ.
fn compare(got: &[u8], reference: &[u8]) -> String {
    if got == reference {
        return "= c64kit".into();
    }
    let at = got
        .iter()
        .zip(reference)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(reference.len()));
    format!(
        "DIFFERS at byte {at} ({} bytes vs c64kit's {})",
        got.len(),
        reference.len()
    )
}

fn print_results(results: &[(Workload, Vec<Row>)], runs: u32, py65_runs: u32) {
    let mut notes: Vec<String> = Vec::new();
    let mut table = Table::new();
    table.load_preset(comfy_table::presets::ASCII_MARKDOWN);
    table.set_header(vec![
        "workload".to_string(),
        "emulator".into(),
        "instructions".into(),
        "cycles".into(),
        "time: median (min-max)".into(),
        "instructions/s".into(),
        "cycles/s".into(),
        "x real C64".into(),
        "transcript".into(),
    ]);
    for (w, rows) in results {
        for (i, row) in rows.iter().enumerate() {
            let label = if i == 0 {
                w.label.clone()
            } else {
                String::new()
            };
            let mut cells = vec![label, row.emulator.clone()];
            match &row.result {
                Ok(m) => {
                    let median = m.median().as_secs_f64();
                    let min = m.times.iter().min().expect("runs").as_secs_f64();
                    let max = m.times.iter().max().expect("runs").as_secs_f64();
                    cells.extend([
                        si(m.instructions as f64, ""),
                        si(m.cycles as f64, ""),
                        format!("{:.1} ms ({:.1}-{:.1})", median * 1e3, min * 1e3, max * 1e3),
                        si(m.ips(), "/s"),
                        si(m.cycles as f64 / median, "/s"),
                        times_real(m.cycles as f64 / PAL_HZ as f64 / median),
                    ]);
                }
                Err(p) => cells.extend([
                    {
                        notes.push(format!(
                            "[{}] {}, {}: {}",
                            notes.len() + 1,
                            w.label,
                            row.emulator,
                            p.detail
                        ));
                        format!("{} [{}]", p.what, notes.len())
                    },
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                    String::new(),
                ]),
            }
            cells.push(row.transcript.clone());
            table.add_row(cells);
        }
    }
    for col in 2..8 {
        if let Some(c) = table.column_mut(col) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    say!(
        "Emulation speed (median of {runs} timed runs, py65 {py65_runs}; instructions and \
         cycles as each emulator counts them; x real C64 = emulated time / wall time, PAL \
         985,248 Hz)"
    );
    say!("{table}");
    for n in &notes {
        say!("{n}");
    }

    // Ratios against the other emulators, instructions per second: c64kit on the full C64,
    // and c64kit's core in the same flat harness as mos6502 and py65.
    let mut ratios = Table::new();
    ratios.load_preset(comfy_table::presets::ASCII_MARKDOWN);
    ratios.set_header(vec![
        "workload",
        "emulator",
        "its instructions/s",
        "c64kit (full C64) is faster by",
        "c64kit-cpu (flat RAM) is faster by",
    ]);
    for (w, rows) in results {
        let ips = |i: usize| match rows.get(i).map(|r| &r.result) {
            Some(Ok(m)) => Some(m.ips()),
            _ => None,
        };
        let (ours, core) = (ips(0), ips(1));
        let mut first = true;
        for row in rows.iter().skip(2) {
            let label = if first {
                w.label.clone()
            } else {
                String::new()
            };
            first = false;
            let ratio = |a: Option<f64>, b: f64| a.map_or("-".into(), |a| format!("{:.2}x", a / b));
            let cells = match &row.result {
                Ok(m) => vec![
                    label,
                    row.emulator.clone(),
                    si(m.ips(), "/s"),
                    ratio(ours, m.ips()),
                    ratio(core, m.ips()),
                ],
                Err(p) => vec![
                    label,
                    row.emulator.clone(),
                    format!("{} (see above)", p.what),
                    String::new(),
                    String::new(),
                ],
            };
            ratios.add_row(cells);
        }
    }
    for col in 2..5 {
        if let Some(c) = ratios.column_mut(col) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    say!(
        "\nRatios (instructions per second, each emulator counting its own; above 1 c64kit is faster)"
    );
    say!("{ratios}");
    say!("\n{}", targets(results));
}

/// The speed targets of issue 9, held against this run: at least 300 M instructions/s on
/// the full C64 for the RYG workloads, and at least 100 times py65.
fn targets(results: &[(Workload, Vec<Row>)]) -> String {
    let verdict = |met: bool| if met { "met" } else { "NOT met" };
    let mut lines = vec!["Targets:".to_string()];
    let full: Vec<(String, f64)> = results
        .iter()
        .filter(|(w, _)| !w.py65)
        .filter_map(|(w, rows)| match &rows[0].result {
            Ok(m) => Some((w.label.clone(), m.ips())),
            Err(_) => None,
        })
        .collect();
    if let Some(min) = full.iter().map(|(_, ips)| *ips).reduce(f64::min) {
        let each: Vec<String> = full
            .iter()
            .map(|(l, ips)| format!("{l}: {}", si(*ips, "/s")))
            .collect();
        lines.push(format!(
            "- >= 300 M instructions/s on the full C64: {} (slowest {}; {})",
            verdict(min >= 300e6),
            si(min, "/s"),
            each.join(", ")
        ));
    }
    for (w, rows) in results {
        let py65 = rows.iter().find(|r| r.emulator.starts_with("py65"));
        if let (Ok(ours), Some(Ok(theirs))) = (&rows[0].result, py65.map(|r| &r.result)) {
            let x = ours.ips() / theirs.ips();
            lines.push(format!(
                "- >= 100 x py65: {} ({x:.0}x on {})",
                verdict(x >= 100.0),
                w.label
            ));
        }
    }
    lines.join("\n")
}

/// Cycles each I/O-heavy loop runs.
const IO_CYCLES: u64 = 100_000_000;

/// I/O-heavy code on the full C64, where every access goes through the chips cycle by cycle
/// (the direct path never sees I/O): the target is at least 100 M cycles/s.
fn io_heavy(runs: u32) -> String {
    // Each loop at $C000, ending in JMP $C000.
    let loops: [(&str, &[u8]); 3] = [
        (
            "LDA $D012 (raster polling)",
            &[0xAD, 0x12, 0xD0, 0x4C, 0x00, 0xC0],
        ),
        (
            "LDA $DC0D (CIA ICR polling)",
            &[0xAD, 0x0D, 0xDC, 0x4C, 0x00, 0xC0],
        ),
        ("INC $D020 (border)", &[0xEE, 0x20, 0xD0, 0x4C, 0x00, 0xC0]),
    ];
    let mut lines = vec![format!(
        "I/O-heavy loops on the full C64 ({} cycles each, median of {runs}):",
        IO_CYCLES
    )];
    let mut slowest = f64::MAX;
    for (what, code) in loops {
        let mut times = Vec::new();
        for _ in 0..runs {
            let mut m = c64kit_machine::Machine::builtin();
            m.load_raw(0xC000, code);
            m.start_at(0xC000, 0x0801);
            let t = Instant::now();
            m.run(IO_CYCLES);
            times.push(t.elapsed());
        }
        times.sort();
        let cps = IO_CYCLES as f64 / times[times.len() / 2].as_secs_f64();
        slowest = slowest.min(cps);
        lines.push(format!("- {what}: {} cycles/s", si(cps, "")));
    }
    lines.push(format!(
        "- >= 100 M cycles/s for I/O-heavy code: {} (slowest {} cycles/s)",
        if slowest >= 100e6 { "met" } else { "NOT met" },
        si(slowest, "")
    ));
    lines.join("\n")
}

/// PAL frames the SID audio bench plays in each timed run (20 s of C64 time).
const AUDIO_FRAMES: u64 = 1000;

/// A player's work on the full C64 with the SID's sound synthesised at 48 kHz and taken every
/// frame, as `run --audio` and live play have it: three voices (pulse, sawtooth, triangle),
/// two of them through the low-pass filter at full resonance, and once a frame the cutoff,
/// two pulse widths and voice 3's pitch change. The target is at least 50 times real time;
/// the same program without audio shows what the sound costs.
fn sid_audio(runs: u32) -> String {
    // At $C000: copy the table at $C040 into $D418..$D400, then forever: wait about a frame
    // (16 x 256 x DEX/BNE, in RAM), count $FB and write it to the cutoff ($D416), voice 1's
    // pulse width ($D403), voice 2's ($D40A, halved) and voice 3's pitch ($D40F, $0C-$0F).
    #[rustfmt::skip]
    let code: [u8; 0x2D] = [
        0xA2, 0x18,             // C000 LDX #$18
        0xBD, 0x40, 0xC0,       // C002 LDA $C040,X
        0x9D, 0x00, 0xD4,       // C005 STA $D400,X
        0xCA,                   // C008 DEX
        0x10, 0xF7,             // C009 BPL $C002
        0xA0, 0x10,             // C00B LDY #$10
        0xA2, 0x00,             // C00D LDX #$00
        0xCA,                   // C00F DEX
        0xD0, 0xFD,             // C010 BNE $C00F
        0x88,                   // C012 DEY
        0xD0, 0xF8,             // C013 BNE $C00D
        0xE6, 0xFB,             // C015 INC $FB
        0xA5, 0xFB,             // C017 LDA $FB
        0x8D, 0x16, 0xD4,       // C019 STA $D416
        0x8D, 0x03, 0xD4,       // C01C STA $D403
        0x4A,                   // C01F LSR A
        0x8D, 0x0A, 0xD4,       // C020 STA $D40A
        0x29, 0x07,             // C023 AND #$07
        0x09, 0x0C,             // C025 ORA #$0C
        0x8D, 0x0F, 0xD4,       // C027 STA $D40F
        0x4C, 0x0B, 0xC0,       // C02A JMP $C00B
    ];
    #[rustfmt::skip]
    let registers: [u8; 0x19] = [
        0xD6, 0x1C, 0x00, 0x08, 0x41, 0x00, 0xF0, // voice 1: pulse, sustain 15
        0x34, 0x2B, 0x00, 0x04, 0x21, 0x00, 0xF0, // voice 2: sawtooth
        0x6B, 0x0E, 0x00, 0x00, 0x11, 0x00, 0xF0, // voice 3: triangle
        0x00, 0x40, 0xF3, 0x1F,                   // cutoff, resonance 15 on 1+2, LP, volume 15
    ];
    let cycles = AUDIO_FRAMES * PAL_CYCLES_PER_FRAME;
    let time = |audio: bool| {
        let mut times = Vec::new();
        let (mut samples, mut power) = (0, 0.0);
        for _ in 0..runs {
            let mut m = Machine::builtin();
            m.load_raw(0xC000, &code);
            m.load_raw(0xC040, &registers);
            m.start_at(0xC000, 0x0801);
            if audio {
                m.start_audio(48_000).expect("48 kHz is in range");
            }
            let mut out = Vec::new();
            (samples, power) = (0, 0.0);
            let t = Instant::now();
            for _ in 0..AUDIO_FRAMES {
                m.run(PAL_CYCLES_PER_FRAME);
                m.take_audio(&mut out);
                samples += out.len();
                power += out.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>();
                out.clear();
            }
            times.push(t.elapsed());
        }
        times.sort();
        let rms = (power / samples.max(1) as f64).sqrt();
        (
            cycles as f64 / times[times.len() / 2].as_secs_f64(),
            samples,
            rms,
        )
    };
    progress("the SID audio player, sound on");
    let (on, samples, rms) = time(true);
    progress("the SID audio player, sound off");
    let (off, _, _) = time(false);
    let x = on / PAL_HZ as f64;
    format!(
        "SID audio: a player program, three voices through the filter, 48 kHz taken every \
         frame ({AUDIO_FRAMES} frames, {cycles} cycles, {samples} samples of RMS {rms:.0}, \
         median of {runs}):\n\
         - SID audio: {} cycles/s with sound, {} real time ({} cycles/s without)\n\
         - >= 50x real time with sound: {} ({})",
        si(on, ""),
        times_real(x),
        si(off, ""),
        if x >= 50.0 { "met" } else { "NOT met" },
        times_real(x)
    )
}

/// Frames the sprite game runs in each timed run (20 s of C64 time on PAL).
const GAME_FRAMES: u64 = 1000;

/// The Rugg/Feldman benchmarks (xtask/tools/bench/basic) as BASIC V2 text, in order.
const BASIC_BENCHMARKS: [(&str, &str); 8] = [
    ("BM1", include_str!("../bench/basic/bm1.bas")),
    ("BM2", include_str!("../bench/basic/bm2.bas")),
    ("BM3", include_str!("../bench/basic/bm3.bas")),
    ("BM4", include_str!("../bench/basic/bm4.bas")),
    ("BM5", include_str!("../bench/basic/bm5.bas")),
    ("BM6", include_str!("../bench/basic/bm6.bas")),
    ("BM7", include_str!("../bench/basic/bm7.bas")),
    ("BM8", include_str!("../bench/basic/bm8.bas")),
];

/// Commodore's BASIC and KERNAL images in `dir` (VICE's file names, as the tests take them).
fn commodore_roms(dir: &Path) -> Result<Roms, String> {
    Roms::load(&RomPaths::commodores_basic_and_kernal_in(dir)).map_err(|e| e.to_string())
}

/// One BASIC program RUN until READY. on `roms`, `runs` times: its cycles and the median
/// wall time.
fn time_basic(
    name: &str,
    program: &Program,
    roms: &dyn Fn() -> Result<Roms, String>,
    runs: u32,
) -> Result<(u64, f64), String> {
    let mut times = Vec::new();
    let mut cycles = 0;
    for _ in 0..runs {
        let settings = RunSettings {
            roms: roms()?,
            ..RunSettings::default()
        };
        let mut m = Machine::start(Some(program), settings).map_err(|e| format!("{name}: {e}"))?;
        let start = m.cycles();
        let t = Instant::now();
        let stop = m.run(MAX_CYCLES);
        times.push(t.elapsed());
        if stop != StopReason::ReturnedToBasic {
            return Err(format!("{name} stopped with {stop}, not at READY."));
        }
        cycles = m.cycles() - start;
    }
    times.sort();
    Ok((cycles, times[times.len() / 2].as_secs_f64()))
}

/// The Rugg/Feldman benchmarks RUN on our own BASIC V2 (6502 code on the full C64, as `c64kit
/// run prog.bas` runs them), each until BASIC is back at READY.: their C64 time (what the
/// C64 takes: the classic figures) and how fast c64kit runs them. The target is at least
/// 300 times real time. With Commodore's images (`roms_dir`), on Commodore's BASIC and
/// KERNAL too.
fn basic_benchmarks(runs: u32, roms_dir: Option<&Path>) -> Result<String, String> {
    let mut lines = vec![format!(
        "BASIC V2 (ours): the Rugg/Feldman benchmarks, RUN until READY. (median of {runs}{}):",
        if roms_dir.is_some() {
            "; then on Commodore's BASIC and KERNAL from C64KIT_ROMS"
        } else {
            ""
        }
    )];
    let mut slowest = f64::MAX;
    for (name, text) in BASIC_BENCHMARKS {
        let tokenized = c64kit_basic::tokenize(text, 0x0801).map_err(|e| format!("{name}: {e}"))?;
        let prg = Prg::parse(&tokenized, name).map_err(|e| format!("{name}: {e}"))?;
        let program = Program::from_prg(&prg);
        let (cycles, median) = time_basic(name, &program, &|| Ok(Roms::builtin()), runs)?;
        let x = cycles as f64 / PAL_HZ as f64 / median;
        slowest = slowest.min(x);
        let mut line = format!(
            "- {name}: {:.1} s of C64 time ({cycles} cycles), {} cycles/s, {} real time",
            cycles as f64 / PAL_HZ as f64,
            si(cycles as f64 / median, ""),
            times_real(x)
        );
        if let Some(dir) = roms_dir {
            let (cycles, median) = time_basic(name, &program, &|| commodore_roms(dir), runs)?;
            line.push_str(&format!(
                "; Commodore's: {cycles} cycles, {} real time",
                times_real(cycles as f64 / PAL_HZ as f64 / median)
            ));
        }
        lines.push(line);
    }
    lines.push(format!(
        "- >= 300x real time for BASIC: {} (slowest {})",
        if slowest >= 300.0 { "met" } else { "NOT met" },
        times_real(slowest)
    ));
    Ok(lines.join("\n"))
}

/// RYG3 thinking (the F15 workload) on Commodore's KERNAL and BASIC, whose code the CPU
/// runs, against our trap KERNAL: the same keys, for the cycles the run on our KERNAL takes
/// to use them up (the real KERNAL does not tell that its input ran out: it waits in its
/// own code). The two are timed in turn, run after run, so that both meet the same load.
/// The target is at least 90% of the speed on our KERNAL.
fn ryg3_on_commodores_roms(runs: u32, dir: &Path) -> Result<String, String> {
    let w = workloads(1).into_iter().next().ok_or("no RYG3 workload")?;
    let prg = c64kit_programs::build(w.program)?;
    let start = |roms: Roms| -> Result<Machine, String> {
        let settings = RunSettings {
            roms,
            keys: c64kit_basic::parse_key_script(&w.keys).map_err(|e| e.to_string())?,
            ..RunSettings::default()
        };
        Ok(Machine::start(Some(&Program::from_prg(&prg)), settings)?)
    };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut cycles = 0;
    let mut same_screen = true;
    for _ in 0..runs {
        let mut m = start(Roms::builtin())?;
        let begin = m.cycles();
        let t = Instant::now();
        let stop = m.run(MAX_CYCLES);
        ours.push(t.elapsed());
        if stop != StopReason::InputExhausted {
            return Err(format!(
                "on our KERNAL it stopped with {stop}, not input exhausted"
            ));
        }
        cycles = m.cycles() - begin;
        let mut r = start(commodore_roms(dir)?)?;
        let t = Instant::now();
        let stop = r.run(cycles);
        theirs.push(t.elapsed());
        if !matches!(stop, StopReason::CycleBudget { .. }) {
            return Err(format!("on Commodore's ROMs it stopped with {stop}"));
        }
        same_screen &= r.screen_text() == m.screen_text();
    }
    let median = |t: &mut Vec<Duration>| {
        t.sort();
        t[t.len() / 2].as_secs_f64()
    };
    let (ours, theirs) = (median(&mut ours), median(&mut theirs));
    let share = ours / theirs;
    Ok(format!(
        "Commodore's ROMs (C64KIT_ROMS): RYG3 on Commodore's KERNAL and BASIC, the CPU running \
         their code, against our KERNAL (median of {runs}, timed in turn):\n\
         - {}, {cycles} cycles: {} cycles/s on our KERNAL, {} cycles/s on Commodore's \
         ({:.0}% of our KERNAL's speed; the screen at the end {})\n\
         - within 10% of the built-in speed: {}",
        w.label,
        si(cycles as f64 / ours, ""),
        si(cycles as f64 / theirs, ""),
        100.0 * share,
        if same_screen { "the same" } else { "differs" },
        if share >= 0.9 { "met" } else { "NOT met" }
    ))
}

/// Our sprite game (programs/sprites: six rocks and the ship move, the rocks change colour
/// every frame) with the VIC-II drawing every frame, as `--record` and a live `play` have it:
/// the target is at least 100 times real time. Then the same game on each other VIC-II
/// model, each as many of its own frames: the target is each model within 10% of the
/// 6569's cycles per second.
fn sprite_game(runs: u32) -> Result<String, String> {
    let built = c64kit_programs::built_in("sprites").ok_or("not built into c64kit-programs")?;
    let prg = Prg::parse(built.prg, "sprites").map_err(|e| e.to_string())?;
    // Every model timed in turn, run by run, so that a change in the machine's load falls
    // on all of them alike; the 6569 first.
    let pal = VicModel::Mos6569;
    let vics: Vec<VicModel> = std::iter::once(pal)
        .chain(VicModel::ALL.into_iter().filter(|&m| m != pal))
        .collect();
    let medians = time_sprite_games(&prg, &vics, GAME_FRAMES, runs)?;
    let median = medians[0];
    let cycles = GAME_FRAMES * pal.cycles_per_frame();
    let pal_cps = cycles as f64 / median;
    let x = pal_cps / pal.clock_hz() as f64;
    let mut text = format!(
        "Sprite game (programs/sprites), the picture drawn every frame ({GAME_FRAMES} frames, \
         {} cycles, median of {runs}):\n\
         - {} cycles/s, {:.0} frames/s, {} real time\n\
         - >= 100x real time rendering every frame: {} ({})",
        cycles,
        si(pal_cps, ""),
        GAME_FRAMES as f64 / median,
        times_real(x),
        if x >= 100.0 { "met" } else { "NOT met" },
        times_real(x)
    );
    text.push_str(&format!(
        "\nThe same game on each VIC-II ({GAME_FRAMES} of its frames, median of {runs}, the \
         models timed in turn; the 6569's cycles/s are 100%):"
    ));
    let mut slowest = f64::INFINITY;
    for (&vic, median) in vics.iter().zip(medians).skip(1) {
        let cps = (GAME_FRAMES * vic.cycles_per_frame()) as f64 / median;
        let share = cps / pal_cps;
        slowest = slowest.min(share);
        text.push_str(&format!(
            "\n- {} ({} cycles a line, {} lines): {} cycles/s ({:.0}%), {} real time",
            vic.name(),
            vic.cycles_per_line(),
            vic.lines(),
            si(cps, ""),
            100.0 * share,
            times_real(cps / vic.clock_hz() as f64)
        ));
    }
    text.push_str(&format!(
        "\n- every model within 10% of the 6569's speed: {} (slowest {:.0}%)",
        if slowest >= 0.9 { "met" } else { "NOT met" },
        100.0 * slowest
    ));
    Ok(text)
}

/// The sprite game on `vic` alone (`--sprites-only --vic`).
fn sprite_game_on(vic: VicModel, frames: u64, runs: u32) -> Result<String, String> {
    let built = c64kit_programs::built_in("sprites").ok_or("not built into c64kit-programs")?;
    let prg = Prg::parse(built.prg, "sprites").map_err(|e| e.to_string())?;
    let median = time_sprite_games(&prg, &[vic], frames, runs)?[0];
    let cps = (frames * vic.cycles_per_frame()) as f64 / median;
    Ok(format!(
        "Sprite game on the {} ({frames} frames, median of {runs}): {} cycles/s, {} real \
         time",
        vic.name(),
        si(cps, ""),
        times_real(cps / vic.clock_hz() as f64)
    ))
}

/// The median time of `runs` runs of the sprite game on a C64 with each of `vics`, drawing
/// every one of `frames` of its frames; the models timed in turn, run by run.
fn time_sprite_games(
    prg: &Prg,
    vics: &[VicModel],
    frames: u64,
    runs: u32,
) -> Result<Vec<f64>, String> {
    let mut times = vec![Vec::new(); vics.len()];
    // A short run first, not timed, so that the first model timed does not pay for the
    // process's first pictures (page faults, cold caches).
    if let Some(&vic) = vics.first() {
        let mut m = Machine::with_vic(Roms::builtin(), vic);
        m.enable_picture();
        m.load_and_run_prg(prg)?;
        m.run(frames.min(50) * vic.cycles_per_frame());
    }
    for _ in 0..runs {
        for (&vic, times) in vics.iter().zip(&mut times) {
            let mut m = Machine::with_vic(Roms::builtin(), vic);
            m.enable_picture();
            m.load_and_run_prg(prg)?;
            let t = Instant::now();
            let stop = m.run(frames * vic.cycles_per_frame());
            times.push(t.elapsed());
            if !matches!(stop, StopReason::CycleBudget { .. }) {
                return Err(format!("{}: stopped early: {stop:?}", vic.name()));
            }
            // The picture was drawn all along: a frame completed for each one run.
            if m.picture().frames < frames {
                return Err(format!(
                    "{}: only {} frames drawn",
                    vic.name(),
                    m.picture().frames
                ));
            }
        }
    }
    Ok(times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2].as_secs_f64()
        })
        .collect())
}

/// The scenarios of the `c64kit test` suite: a BASIC program summing 1..N for a typed N,
/// each scenario another N, so each runs a few million cycles (about 3,700 a step).
const SUITE_SCENARIOS: u64 = 50;
const SUITE_FIRST_N: u64 = 500;
const SUITE_N_STEP: u64 = 10;

/// `c64kit test` on a suite of 50 scenarios, as a user runs it once it is built: the
/// release binary on a scenario file written under target/, all at once (as many as there
/// are cores) and one at a time. Each scenario checks the sum the program printed; the
/// C64 cycles are the sum of the scenarios' own.
fn test_suite(runs: u32) -> Result<String, String> {
    let dir = xtask::target_dir().join("bench/test-suite");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let program = "10 INPUT N\n20 S=0:FOR I=1 TO N:S=S+I:NEXT\n30 PRINT \"SUM\";S\n";
    let mut toml = String::from(
        "# Written by cargo xtask bench: 50 scenarios of a few million cycles each.\n",
    );
    for i in 0..SUITE_SCENARIOS {
        let n = SUITE_FIRST_N + i * SUITE_N_STEP;
        toml.push_str(&format!(
            "\n[[scenario]]\nname = \"sum-{n}\"\nprogram = \"sum.bas\"\nkeys = \"{n}\\n\"\n\
             stop = \"returned to BASIC\"\n\n[[scenario.expect]]\nregex = 'SUM (\\d+)'\n\
             equals = {}\n",
            n * (n + 1) / 2
        ));
    }
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        c64kit_files::write_output(&path, text.as_bytes())
            .map_err(|e| format!("{}: {}", path.display(), c64kit_files::io_reason(&e)))
    };
    write("sum.bas", program)?;
    write("suite.toml", &toml)?;
    outln!(WHAT, "\nc64kit test: cargo build --release -p c64kit ...");
    let built = Command::new(cargo())
        .args(["build", "--release", "--quiet", "-p", "c64kit"])
        .current_dir(workspace_root())
        .status()
        .map_err(|e| format!("cannot start cargo: {e}"))?;
    if !built.success() {
        return Err(format!("building c64kit failed ({built})"));
    }
    let bin = xtask::target_dir().join("release/c64kit");
    let time = |jobs: Option<&str>| -> Result<(Vec<Duration>, Vec<Duration>, u64), String> {
        let (mut times, mut cpu) = (Vec::new(), Vec::new());
        let mut cycles = 0;
        for _ in 0..runs {
            let cpu_before = children_cpu();
            let mut cmd = Command::new(&bin);
            cmd.arg("test").arg(dir.join("suite.toml"));
            if let Some(j) = jobs {
                cmd.args(["--jobs", j]);
            }
            let t = Instant::now();
            let out = cmd
                .stdin(Stdio::null())
                .output()
                .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
            times.push(t.elapsed());
            if let (Some(a), Some(b)) = (cpu_before, children_cpu()) {
                cpu.push(b.saturating_sub(a));
            }
            let text = String::from_utf8_lossy(&out.stdout);
            if !out.status.success() || !text.contains("50 scenarios: all pass") {
                return Err(format!("the suite did not pass ({}):\n{text}", out.status));
            }
            // "PASS sum-500 (...): 2 checks, 1.9 s of C64 time (1,876,543 cycles)"
            cycles = text
                .lines()
                .filter_map(|l| l.rsplit_once(" (")?.1.strip_suffix(" cycles)"))
                .filter_map(|n| n.replace(',', "").parse::<u64>().ok())
                .sum();
        }
        times.sort();
        cpu.sort();
        Ok((times, cpu, cycles))
    };
    let (parallel, parallel_cpu, cycles) = time(None)?;
    let (serial, serial_cpu, _) = time(Some("1"))?;
    let median = |t: &[Duration]| t[t.len() / 2].as_secs_f64();
    let cpu = |t: &[Duration]| {
        if t.is_empty() {
            "CPU time not known".to_string()
        } else {
            format!("{} CPU time", secs(median(t)))
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let first = SUITE_FIRST_N;
    let last = SUITE_FIRST_N + (SUITE_SCENARIOS - 1) * SUITE_N_STEP;
    Ok(format!(
        "c64kit test, a suite of {SUITE_SCENARIOS} scenarios (a BASIC program summing 1..N, \
         N = {first}..{last}: {} C64 cycles in all, {} a scenario on average; the release \
         binary, median of {runs}, process start and BASIC tokenizing included):\n\
         - all at once (--jobs {cores}, the cores): {} wall time ({}-{}), {}, {} C64 \
         cycles/s of wall time\n\
         - one at a time (--jobs 1): {} wall time ({}-{}), {}, {} C64 cycles/s of wall \
         time\n\
         - well under a second once built: {}",
        si(cycles as f64, ""),
        si(cycles as f64 / SUITE_SCENARIOS as f64, ""),
        secs(median(&parallel)),
        secs(parallel[0].as_secs_f64()),
        secs(parallel[parallel.len() - 1].as_secs_f64()),
        cpu(&parallel_cpu),
        si(cycles as f64 / median(&parallel), ""),
        secs(median(&serial)),
        secs(serial[0].as_secs_f64()),
        secs(serial[serial.len() - 1].as_secs_f64()),
        cpu(&serial_cpu),
        si(cycles as f64 / median(&serial), ""),
        if median(&parallel) < 0.5 {
            "met (under half a second)"
        } else if median(&parallel) < 1.0 {
            "under a second, not well under"
        } else {
            "NOT met"
        }
    ))
}

/// The CPU time (user and system) of this process's finished children, from Linux's
/// /proc/self/stat (cutime and cstime, in the kernel's USER_HZ ticks: 100 a second); None
/// elsewhere. On a loaded machine it says what the work cost where wall time cannot.
fn children_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses: state is field 3.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |field: usize| fields.get(field - 3)?.parse::<u64>().ok();
    let (cutime, cstime) = (ticks(16)?, ticks(17)?);
    Some(Duration::from_millis((cutime + cstime) * 10))
}

/// Times `cargo xtask conform` as a subprocess (its release build already made: we are it).
fn time_conform(runs: u32) -> Result<String, String> {
    outln!(WHAT, "\ncargo xtask conform ({runs} runs) ...");
    let mut times = Vec::new();
    let mut status = String::from("pass");
    for _ in 0..runs {
        let t = Instant::now();
        let out = Command::new(cargo())
            .args(["xtask", "conform"])
            .current_dir(workspace_root())
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot start: {e}"))?;
        times.push(t.elapsed());
        if !out.status.success() {
            let text = String::from_utf8_lossy(&out.stdout);
            let tail: Vec<&str> = text.lines().rev().take(5).collect();
            errln!(
                "bench: cargo xtask conform exited with {}:\n{}",
                out.status,
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
            status = format!("FAILED ({})", out.status);
        }
    }
    times.sort();
    Ok(format!(
        "cargo xtask conform: {} wall time (median of {runs}, {}-{}), scenarios: {status}",
        secs(times[times.len() / 2].as_secs_f64()),
        secs(times[0].as_secs_f64()),
        secs(times[times.len() - 1].as_secs_f64()),
    ))
}

/// The results as a Markdown page: when and how they were measured, then the report as
/// printed (its tables are Markdown already).
fn write_page(path: &std::path::Path) -> Result<(), String> {
    let report = REPORT.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let date = Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let page = format!(
        "# Speed: the last `cargo xtask bench`\n\n\
         Written by `cargo xtask bench --write docs/speed.md` on {date}, on the release build \
         (see the README's \"Speed\" for what each workload is). Figures depend on the \
         machine and on what else it was doing: the load averages before and after are in \
         the report.\n\n```text\n{report}```\n"
    );
    c64kit_files::write_output(path, page.as_bytes()).map_err(|e| {
        format!(
            "cannot write {}: {}",
            path.display(),
            c64kit_files::io_reason(&e)
        )
    })?;
    outln!(WHAT, "Wrote {}", path.display());
    Ok(())
}

/// Speed-up over real time: "274x", "2.1x".
fn times_real(x: f64) -> String {
    if x < 10.0 {
        format!("{x:.1}x")
    } else {
        format!("{x:.0}x")
    }
}

/// 12345678 -> "12.35 M".
fn si(v: f64, unit: &str) -> String {
    let (d, p) = if v >= 1e9 {
        (1e9, " G")
    } else if v >= 1e6 {
        (1e6, " M")
    } else if v >= 1e3 {
        (1e3, " k")
    } else {
        (1.0, " ")
    };
    format!("{:.2}{p}{unit}", v / d)
}

fn secs(s: f64) -> String {
    if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}
