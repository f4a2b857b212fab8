//! The CI smoke fuzz: every target for a few seconds on random edits of its seeds (the
//! [`havoc`](c64kit_fuzz::havoc) mutator, no libFuzzer, no coverage feedback), two targets at
//! a time. About a minute of CPU in all, half that in wall time.
//!
//! - `C64KIT_FUZZ_SMOKE_SECONDS`: seconds per target (default 6; 0 skips the smoke fuzz);
//! - `C64KIT_FUZZ_SMOKE_THREADS`: targets fuzzed at once (default 2);
//! - `C64KIT_FUZZ_SMOKE_SEED`: the mutator's seed (default fixed, so CI runs the same inputs
//!   in the same order; the time budget decides how many).
//!
//! A panic, a run beyond 20 s of CPU (this is a debug build; one still running after a
//! minute counts too) or more than 256 MB at once fails the test; the input is printed in hex
//! and written to a file in the temp folder, to copy into fuzz/reproducers/TARGET/ (where it
//! becomes a regression test).

use c64kit_fuzz::havoc::Havoc;
use c64kit_fuzz::limits::{self, Counting, DEBUG_TIME_LIMIT};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: Counting = Counting;

/// Seeds larger than this (whole disk images) are left to the regression test.
const MAX_SEED: usize = 64 * 1024;

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a whole number")),
        Err(_) => default,
    }
}

/// What a worker is running now: target, input, since when.
type Current = Mutex<Option<(&'static str, Vec<u8>, Instant)>>;

/// Keeps a finding: hex on stderr, the bytes in a temp file. Returns the report line.
fn keep(target: &str, data: &[u8], what: &str) -> String {
    let hash = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let file = std::env::temp_dir().join(format!("c64kit-fuzz-{target}-{hash:016x}"));
    let saved = match std::fs::write(&file, data) {
        Ok(()) => format!("saved as {}", file.display()),
        Err(e) => format!("could not save it as {}: {e}", file.display()),
    };
    eprintln!(
        "\n== smoke fuzz finding in target {target}: {what}\n== input ({} bytes), {saved}\n{}\n",
        data.len(),
        limits::hex(data)
    );
    format!("{target}: {what} ({} bytes, {saved})", data.len())
}

struct Stats {
    target: &'static str,
    runs: u64,
    finding: Option<String>,
}

fn fuzz_target(
    index: usize,
    name: &'static str,
    seconds: u64,
    seed: u64,
    current: &Current,
) -> Stats {
    let target = c64kit_fuzz::target(name).expect("a target");
    let seeds: Vec<Vec<u8>> = c64kit_fuzz::seed_files(name)
        .into_iter()
        .map(|p| std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .filter(|s| s.len() <= MAX_SEED)
        .collect();
    assert!(
        !seeds.is_empty(),
        "{name}: no seeds of at most {MAX_SEED} bytes"
    );
    let longest = seeds.iter().map(Vec::len).max().unwrap_or(0);
    let mut havoc = Havoc::new(
        seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        seeds,
        (longest * 2).clamp(4096, MAX_SEED),
    );
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut stats = Stats {
        target: name,
        runs: 0,
        finding: None,
    };
    while Instant::now() < end {
        let input = havoc.next_input();
        *current.lock().unwrap() = Some((name, input.clone(), Instant::now()));
        let result = limits::run_checked(target, &input, DEBUG_TIME_LIMIT);
        *current.lock().unwrap() = None;
        stats.runs += 1;
        if let Err(finding) = result {
            stats.finding = Some(keep(name, &input, &finding.to_string()));
            break;
        }
    }
    stats
}

#[test]
fn smoke_fuzz_every_target() {
    let seconds = env_number("C64KIT_FUZZ_SMOKE_SECONDS", 6);
    if seconds == 0 {
        eprintln!("smoke fuzz skipped (C64KIT_FUZZ_SMOKE_SECONDS=0)");
        return;
    }
    let threads = env_number("C64KIT_FUZZ_SMOKE_THREADS", 2).max(1) as usize;
    let seed = env_number("C64KIT_FUZZ_SMOKE_SEED", 0x00C6_4C17);
    let next = Arc::new(AtomicUsize::new(0));
    let results = Arc::new(Mutex::new(Vec::new()));
    let slots: Vec<Arc<Current>> = (0..threads).map(|_| Arc::new(Mutex::new(None))).collect();
    let started = Instant::now();
    let workers: Vec<_> = slots
        .iter()
        .map(|slot| {
            let (next, results, slot) = (next.clone(), results.clone(), slot.clone());
            std::thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(name, _)) = c64kit_fuzz::TARGETS.get(i) else {
                    break;
                };
                let stats = fuzz_target(i, name, seconds, seed, &slot);
                results.lock().unwrap().push(stats);
            })
        })
        .collect();
    // Watch for a run that never ends: the workers cannot report it themselves.
    while !workers.iter().all(|w| w.is_finished()) {
        std::thread::sleep(Duration::from_millis(100));
        for slot in &slots {
            if let Some((name, input, since)) = &*slot.lock().unwrap() {
                if since.elapsed() > DEBUG_TIME_LIMIT * 3 {
                    let line = keep(
                        name,
                        input,
                        &format!("hang: still running after {:?}", since.elapsed()),
                    );
                    panic!("smoke fuzz found a hang:\n{line}");
                }
            }
        }
    }
    for w in workers {
        if let Err(e) = w.join() {
            std::panic::resume_unwind(e);
        }
    }
    let results = results.lock().unwrap();
    let mut findings = Vec::new();
    for s in results.iter() {
        eprintln!("smoke fuzz {:<10} {:>8} runs", s.target, s.runs);
        findings.extend(s.finding.clone());
    }
    eprintln!(
        "smoke fuzz: {} targets, {seconds} s each, {:.1} s in all",
        results.len(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(results.len(), c64kit_fuzz::TARGETS.len());
    assert!(
        findings.is_empty(),
        "smoke fuzz found {} problem(s):\n{}",
        findings.len(),
        findings.join("\n")
    );
}
