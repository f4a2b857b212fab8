//! `cargo xtask fuzz`: coverage-guided fuzzing of every c64kit parser and loader with
//! libFuzzer, on stable Rust.
//!
//! ```sh
//! cargo xtask fuzz                              # every target, 60 s each, one after another
//! cargo xtask fuzz --target asm --seconds 600   # one target (repeatable)
//! cargo xtask fuzz --runs 1000000 --jobs 2      # a number of executions, two targets at once
//! cargo xtask fuzz --target asm --keep-going    # do not stop at the first finding
//! cargo xtask fuzz --target asm --minimize fuzz/reproducers/asm/timeout-...  # shrink one
//! ```
//!
//! The targets are the functions of `c64kit-fuzz` (fuzz/targets: prg, basic, asm, cbmprj,
//! t64, d64, config, keyscript, scenario, interpreter); fuzz/libfuzzer holds one libFuzzer binary per
//! target, outside the workspace. This command builds them in release with sanitizer coverage
//! (`-Cpasses=sancov-module` and LLVM's `-sanitizer-coverage-*` options, which stable rustc
//! accepts: cargo-fuzz's `--sanitizer none` build, without `-Z` flags) plus debug assertions
//! and overflow checks, into target/fuzz, for the host target only (build scripts and proc
//! macros stay uninstrumented). It needs a C++ compiler: libfuzzer-sys compiles libFuzzer.
//!
//! Each target then runs with `-timeout=2 -rss_limit_mb=256 -malloc_limit_mb=256`: a panic,
//! a run over 2 s or more than 256 MB is a finding, which libFuzzer keeps in
//! fuzz/reproducers/TARGET/ (`crash-…`, `timeout-…`, `oom-…`). `cargo test -p c64kit-fuzz`
//! runs every file there as a regression test, so commit a reproducer with its fix. The
//! corpus grows in target/fuzz/corpus/TARGET (kept between runs), starting from the committed
//! seeds in fuzz/seeds/TARGET (never written to). Logs: target/fuzz/logs/TARGET.log.
//!
//! At the end a table gives per target the executions, executions per second, coverage
//! (libFuzzer's `cov`: edges, `ft`: features), the corpus size, time and findings; the exit
//! code is non-zero if anything was found. `--keep-going` runs libFuzzer in fork mode
//! (`-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1`), so a campaign goes on
//! past findings. The machine is shared: run it with `nice`. A libFuzzer run that cannot end
//! by itself (its timeout handler can deadlock in malloc without a sanitizer, after printing
//! "ALARM: working on the last Unit"; or far past its time budget) is stopped, with its
//! fork-mode jobs, and reported.
//!
//! Instrumentation makes some targets much slower (asm five to seven times: comparison tracing
//! in its lexer), so a libFuzzer `timeout-…` may be a run that takes well under 2 s in a
//! release build. `cargo run --release -p c64kit-fuzz --example replay -- T FILE...` tells
//! (time and peak memory, uninstrumented), and `--example havoc -- T RUNS` runs the smoke
//! fuzzer's mutations uninstrumented over the corpus libFuzzer grew, for a million runs of a
//! slow target (see fuzz/README.md).

use c64kit_files::{errln, outln};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xtask::WHAT;

/// The compiler flags of the libFuzzer build (on top of the release profile of
/// fuzz/libfuzzer, which adds debug assertions, overflow checks and line tables).
const RUSTFLAGS: &[&str] = &[
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
    "--cfg",
    "fuzzing",
];

/// Input size limits (libFuzzer's -max_len) where its default (the largest seed, at least
/// 4096) does not fit. d64 reads a compact form of disk images (`c64kit_fuzz::d64_image`), so
/// inputs stay small and the whole image among the seeds is cut to this. asm takes about
/// 1 ms per KB of source: short sources keep a few thousand executions a second (the
/// nesting that makes sources slow fits in a few lines).
const MAX_LEN: &[(&str, usize)] = &[("d64", 16384), ("asm", 2048)];

#[derive(clap::Args)]
pub struct FuzzArgs {
    /// Only this target (repeatable; default: all of them).
    #[arg(long = "target", value_name = "T")]
    targets: Vec<String>,
    /// Seconds per target (default 60 unless --runs is given).
    #[arg(long)]
    seconds: Option<u64>,
    /// Executions per target (libFuzzer's -runs), instead of or as well as --seconds.
    #[arg(long)]
    runs: Option<u64>,
    /// Targets fuzzed at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Go on after a finding (libFuzzer's fork mode), keeping every one.
    #[arg(long)]
    keep_going: bool,
    /// Shrink this reproducer (libFuzzer's -minimize_crash=1 for --seconds, default 60);
    /// writes FILE.min beside it. Needs exactly one --target.
    #[arg(long, value_name = "FILE")]
    minimize: Option<PathBuf>,
    /// Only build the fuzzers.
    #[arg(long)]
    build_only: bool,
    /// More libFuzzer options, passed through (e.g. -- -dict=my.dict).
    #[arg(last = true)]
    libfuzzer_args: Vec<String>,
}

/// The checkout.
fn root() -> PathBuf {
    let root = xtask::workspace_root();
    root.canonicalize().unwrap_or(root)
}

fn fuzz_dir() -> PathBuf {
    root().join("fuzz")
}

/// target/fuzz: the fuzzers' build, corpora and logs.
fn out_dir() -> PathBuf {
    xtask::target_dir().join("fuzz")
}

/// The targets, in the order of c64kit_fuzz::TARGETS (cheap formats first); each must have
/// its binary in fuzz/libfuzzer/fuzz_targets.
fn all_targets() -> Result<Vec<String>, String> {
    let dir = fuzz_dir().join("libfuzzer/fuzz_targets");
    let names: Vec<String> = c64kit_fuzz::TARGETS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    for n in &names {
        let bin = dir.join(format!("{n}.rs"));
        if !bin.is_file() {
            return Err(format!(
                "target {n} has no libFuzzer binary {}",
                bin.display()
            ));
        }
    }
    Ok(names)
}

fn host_triple() -> Result<String, String> {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("-vV")
        .output()
        .map_err(|e| format!("rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| "rustc -vV did not name the host".to_string())
}

/// Builds the fuzzers; returns the folder holding the binaries.
fn build(targets: &[String]) -> Result<PathBuf, String> {
    let manifest = fuzz_dir().join("libfuzzer/Cargo.toml");
    // The same crate versions as the workspace (cargo adds libFuzzer's own).
    let lock = root().join("Cargo.lock");
    let fuzz_lock = fuzz_dir().join("libfuzzer/Cargo.lock");
    if !fuzz_lock.exists() || modified(&lock) > modified(&fuzz_lock) {
        std::fs::copy(&lock, &fuzz_lock)
            .map_err(|e| format!("copying {} to {}: {e}", lock.display(), fuzz_lock.display()))?;
    }
    let host = host_triple()?;
    let target_dir = out_dir();
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(["build", "--release", "--manifest-path"])
        .arg(&manifest)
        .args(["--target", &host])
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("RUSTFLAGS", RUSTFLAGS.join(" "))
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    for t in targets {
        cmd.args(["--bin", t]);
    }
    outln!(
        WHAT,
        "== building the fuzzers ({}) into {}",
        targets.join(", "),
        target_dir.display()
    );
    let status = cmd
        .status()
        .map_err(|e| format!("running cargo build: {e}"))?;
    if !status.success() {
        return Err(format!(
            "building the fuzzers failed ({status}); libfuzzer-sys needs a C++ compiler (g++ or \
             clang++)"
        ));
    }
    Ok(target_dir.join(host).join("release"))
}

fn modified(p: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// What one libFuzzer run reported.
#[derive(Default, Clone)]
struct Stats {
    target: String,
    execs: u64,
    exec_per_sec: u64,
    cov: u64,
    ft: u64,
    corpus: String,
    peak_rss_mb: u64,
    time: Duration,
    status: Option<i32>,
    /// Why xtask stopped libFuzzer itself, if it did (see [`Watch`]).
    stopped: Option<String>,
    findings: Vec<PathBuf>,
    /// The last lines of libFuzzer's output, for a failure that left no file.
    tail: Vec<String>,
}

/// The number after `key` in a libFuzzer status line (`cov: 123`).
fn field(line: &str, key: &str) -> Option<u64> {
    let rest = &line[line.find(key)? + key.len()..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Reads one output line of libFuzzer into the stats: status lines (`#N ... cov: ...`),
/// fork-mode lines (`#N: cov: ...`) and the final `stat::` lines.
fn read_line(s: &mut Stats, line: &str) {
    if let Some(rest) = line.strip_prefix('#') {
        let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if let (Ok(n), true) = (n.parse::<u64>(), line.contains("cov:")) {
            s.execs = s.execs.max(n);
            s.cov = field(line, "cov:").unwrap_or(s.cov);
            s.ft = field(line, "ft:").unwrap_or(s.ft);
            s.exec_per_sec = field(line, "exec/s:").unwrap_or(s.exec_per_sec);
            if let Some(i) = line.find("corp: ") {
                s.corpus = line[i + 6..]
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string();
            }
        }
    } else if let Some(v) = line.strip_prefix("stat::number_of_executed_units:") {
        // Fork mode's parent says 0 here: its jobs did the work.
        s.execs = s.execs.max(v.trim().parse().unwrap_or(0));
    } else if let Some(v) = line.strip_prefix("stat::peak_rss_mb:") {
        s.peak_rss_mb = s.peak_rss_mb.max(v.trim().parse().unwrap_or(0));
    }
}

/// Whether a line is worth showing live (the rest goes to the log only).
fn shown(line: &str) -> bool {
    line.contains("pulse")
        || line.contains("DONE")
        || line.contains("INITED")
        || line.starts_with("==")
        || line.contains("ERROR")
        || line.contains("panicked")
        || line.contains("Test unit written")
        || line.contains("SUMMARY")
        || (line.starts_with('#') && line.contains(": cov:"))
}

/// Notices a libFuzzer run that will never end by itself. Without a sanitizer, libFuzzer's
/// timeout handler allocates inside a signal handler: if the alarm interrupted an allocation,
/// the process deadlocks after printing "ALARM: working on the last Unit" (the input is then
/// lost). Also a run far past its time budget, or silent for ten minutes.
struct Watch {
    last_line: Instant,
    alarm: Option<Instant>,
}

impl Watch {
    fn new() -> Watch {
        Watch {
            last_line: Instant::now(),
            alarm: None,
        }
    }

    fn saw(&mut self, line: &str) {
        self.last_line = Instant::now();
        if line.starts_with("ALARM: working on the last Unit") {
            self.alarm.get_or_insert_with(Instant::now);
        }
    }

    fn stuck(&self, elapsed: Duration, deadline: Option<Duration>) -> Option<String> {
        if self
            .alarm
            .is_some_and(|t| t.elapsed() > Duration::from_secs(30))
        {
            return Some(
                "libFuzzer hung reporting a timeout (a deadlock in its alarm handler; the input \
                 is lost: fuzz again)"
                    .into(),
            );
        }
        if deadline.is_some_and(|d| elapsed > d) {
            return Some(format!(
                "libFuzzer is still running {:.0} s after its time budget",
                (elapsed - deadline.unwrap_or_default()).as_secs_f64()
            ));
        }
        if self.last_line.elapsed() > Duration::from_secs(600) {
            return Some("libFuzzer printed nothing for ten minutes".into());
        }
        None
    }
}

/// Stops a libFuzzer run and its fork-mode jobs (its process group).
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        let group = format!("-{}", child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
    }
    let _ = child.kill();
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// libFuzzer reads seeds from folders: a fresh one under target/fuzz/seeds with a copy of
/// every seed of the target (the committed corpus and the repository's own inputs).
fn seed_folder(target: &str) -> Result<PathBuf, String> {
    let dir = out_dir().join("seeds").join(target);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (i, file) in c64kit_fuzz::seed_files(target).iter().enumerate() {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let copy = dir.join(format!("{i:03}-{name}"));
        std::fs::copy(file, &copy).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    Ok(dir)
}

fn run_target(bin_dir: &Path, target: &str, args: &FuzzArgs) -> Result<Stats, String> {
    let corpus = out_dir().join("corpus").join(target);
    let seeds = seed_folder(target)?;
    let found = fuzz_dir().join("reproducers").join(target);
    let logs = out_dir().join("logs");
    for d in [&corpus, &found, &logs] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let before = files_in(&found);
    let mut cmd = Command::new(bin_dir.join(target));
    cmd.arg(&corpus)
        .arg(&seeds)
        .arg("-timeout=2")
        .arg("-rss_limit_mb=256")
        .arg("-malloc_limit_mb=256")
        .arg("-print_final_stats=1")
        // A trailing slash: libFuzzer prepends the prefix to the file name.
        .arg(format!("-artifact_prefix={}/", found.display()));
    let seconds = args
        .seconds
        .or(if args.runs.is_some() { None } else { Some(60) });
    if let Some(s) = seconds {
        cmd.arg(format!("-max_total_time={s}"));
    }
    if let Some(r) = args.runs {
        cmd.arg(format!("-runs={r}"));
    }
    if let Some((_, n)) = MAX_LEN.iter().find(|(t, _)| *t == target) {
        cmd.arg(format!("-max_len={n}"));
    }
    if args.keep_going {
        cmd.args([
            "-fork=1",
            "-ignore_crashes=1",
            "-ignore_timeouts=1",
            "-ignore_ooms=1",
        ]);
    }
    cmd.args(&args.libfuzzer_args);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    // Its own process group, so that a stuck run can be stopped with its fork-mode jobs.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let log_path = logs.join(format!("{target}.log"));
    // Not an output by c64kit_files' rule: a live log in xtask's own folder, read while the
    // fuzzer runs (`tail -f`), so written straight into rather than put in place at the end.
    let log = Arc::new(Mutex::new(
        std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?,
    ));
    outln!(WHAT, "== fuzzing {target} (log: {})", log_path.display());
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("{}: {e}", bin_dir.join(target).display()))?;
    let stats = Arc::new(Mutex::new(Stats {
        target: target.to_string(),
        ..Stats::default()
    }));
    let watch = Arc::new(Mutex::new(Watch::new()));
    let readers: Vec<_> = [
        Box::new(child.stdout.take().expect("piped")) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().expect("piped")),
    ]
    .into_iter()
    .map(|pipe| {
        let (stats, log, watch, target) = (
            stats.clone(),
            log.clone(),
            watch.clone(),
            target.to_string(),
        );
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                let _ = writeln!(log.lock().unwrap(), "{line}");
                watch.lock().unwrap().saw(&line);
                let mut s = stats.lock().unwrap();
                read_line(&mut s, &line);
                s.tail.push(line.clone());
                if s.tail.len() > 40 {
                    s.tail.remove(0);
                }
                drop(s);
                if shown(&line) {
                    outln!(WHAT, "[{target}] {line}");
                }
            }
        })
    })
    .collect();
    let fork_mode = args.keep_going;
    let deadline = seconds.map(|s| Duration::from_secs(s + if fork_mode { 360 } else { 60 }));
    let mut stopped = None;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| format!("{target}: {e}"))? {
            break status;
        }
        if stopped.is_none() {
            let why = watch.lock().unwrap().stuck(started.elapsed(), deadline);
            if let Some(why) = why {
                outln!(WHAT, "[{target}] xtask: {why}; stopping it");
                let _ = writeln!(log.lock().unwrap(), "xtask: {why}; stopping it");
                kill_group(&mut child);
                stopped = Some(why);
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    };
    for r in readers {
        let _ = r.join();
    }
    let mut s = stats.lock().unwrap().clone();
    s.time = started.elapsed();
    // Over the whole run, start-up and (in fork mode) restarts included.
    s.exec_per_sec = (s.execs as f64 / s.time.as_secs_f64().max(0.001)) as u64;
    s.status = status.code();
    s.stopped = stopped;
    if !status.success() && s.status.is_none() {
        s.status = Some(-1);
    }
    s.findings = files_in(&found)
        .into_iter()
        .filter(|f| !before.contains(f))
        .collect();
    Ok(s)
}

fn minimize(bin_dir: &Path, target: &str, file: &Path, args: &FuzzArgs) -> ExitCode {
    let out = PathBuf::from(format!("{}.min", file.display()));
    let status = Command::new(bin_dir.join(target))
        .arg(file)
        .arg("-minimize_crash=1")
        .arg("-timeout=2")
        .arg("-rss_limit_mb=256")
        .arg("-malloc_limit_mb=256")
        .arg(format!("-max_total_time={}", args.seconds.unwrap_or(60)))
        .arg(format!("-exact_artifact_path={}", out.display()))
        .args(&args.libfuzzer_args)
        .status();
    match status {
        Ok(_) if out.exists() => {
            let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
            outln!(
                WHAT,
                "minimized {} ({} bytes) to {} ({} bytes)",
                file.display(),
                size(file),
                out.display(),
                size(&out)
            );
            ExitCode::SUCCESS
        }
        Ok(st) => {
            errln!(
                "xtask fuzz: minimizing {} left no smaller input ({st}); does it still fail?",
                file.display()
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            errln!("xtask fuzz: {e}");
            ExitCode::FAILURE
        }
    }
}

fn table(results: &[Stats]) -> String {
    let mut out = format!(
        "{:<10} {:>12} {:>9} {:>7} {:>8} {:>12} {:>8} {:>8}  findings\n",
        "target", "executions", "exec/s", "cov", "ft", "corpus", "rss MB", "time"
    );
    for s in results {
        let findings = if let Some(why) = &s.stopped {
            format!("{why}; {} kept", s.findings.len())
        } else if s.findings.is_empty() {
            match s.status {
                Some(0) => "none".to_string(),
                other => format!("libFuzzer exited with {other:?} (see its log)"),
            }
        } else {
            s.findings
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push_str(&format!(
            "{:<10} {:>12} {:>9} {:>7} {:>8} {:>12} {:>8} {:>7.0}s  {findings}\n",
            s.target,
            s.execs,
            s.exec_per_sec,
            s.cov,
            s.ft,
            s.corpus,
            s.peak_rss_mb,
            s.time.as_secs_f64()
        ));
    }
    out
}

pub fn run(args: FuzzArgs) -> ExitCode {
    match try_run(args) {
        Ok(code) => code,
        Err(e) => {
            errln!("xtask fuzz: {e}");
            ExitCode::FAILURE
        }
    }
}

fn try_run(args: FuzzArgs) -> Result<ExitCode, String> {
    let all = all_targets()?;
    for t in &args.targets {
        if !all.contains(t) {
            return Err(format!("no target {t:?} (targets: {})", all.join(", ")));
        }
    }
    let targets = if args.targets.is_empty() {
        all
    } else {
        args.targets.clone()
    };
    let bin_dir = build(&targets)?;
    if args.build_only {
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(file) = &args.minimize {
        let [target] = &targets[..] else {
            return Err("--minimize needs exactly one --target".into());
        };
        return Ok(minimize(&bin_dir, target, file, &args));
    }
    let queue = Arc::new(Mutex::new(targets.clone()));
    let results = Arc::new(Mutex::new(Vec::new()));
    let args = Arc::new(args);
    let workers: Vec<_> = (0..args.jobs.clamp(1, targets.len()))
        .map(|_| {
            let (queue, results, args, bin_dir) = (
                queue.clone(),
                results.clone(),
                args.clone(),
                bin_dir.clone(),
            );
            std::thread::spawn(move || loop {
                let next = {
                    let mut q = queue.lock().unwrap();
                    (!q.is_empty()).then(|| q.remove(0))
                };
                let Some(t) = next else { break };
                let r = run_target(&bin_dir, &t, &args);
                results.lock().unwrap().push(r);
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    let mut ok = Vec::new();
    let mut errors = Vec::new();
    for r in results.lock().unwrap().drain(..) {
        match r {
            Ok(s) => ok.push(s),
            Err(e) => errors.push(e),
        }
    }
    ok.sort_by_key(|s| targets.iter().position(|t| *t == s.target));
    outln!(WHAT, "\n{}", table(&ok));
    let mut failed = !errors.is_empty();
    for e in errors {
        errln!("xtask fuzz: {e}");
    }
    for s in &ok {
        if !s.findings.is_empty() || s.status != Some(0) || s.stopped.is_some() {
            failed = true;
            errln!(
                "\n{}: {}",
                s.target,
                if s.findings.is_empty() {
                    "libFuzzer failed without keeping an input; its last lines:".to_string()
                } else {
                    format!(
                        "{} finding(s) kept; `cargo test -p c64kit-fuzz --test reproducers` \
                         replays them, `cargo xtask fuzz --target {} --minimize FILE` shrinks \
                         one. libFuzzer's last lines:",
                        s.findings.len(),
                        s.target
                    )
                }
            );
            for l in &s.tail {
                errln!("  {l}");
            }
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
