//! The smoke fuzzer's havoc mutations, optimised and uninstrumented, for a number of
//! executions: for targets that sancov's instrumentation makes too slow for libFuzzer to run
//! a million times (asm: about 7x slower), mutating a corpus libFuzzer grew. Findings (a
//! panic, a run over 2 s, more than 256 MB) are written to fuzz/reproducers/TARGET/havoc-HASH.
//!
//! `cargo run --release -p c64kit-fuzz --example havoc -- TARGET RUNS [SEED] [DIR...]`
//! (default DIR: the target's seeds and target/fuzz/corpus/TARGET).

use c64kit_fuzz::havoc::Havoc;
use c64kit_fuzz::limits::{self, Counting};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: Counting = Counting;

fn keep(target: &str, data: &[u8], what: &str) {
    let hash = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let dir = c64kit_fuzz::reproducers_dir(target);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("havoc-{hash:016x}"));
    std::fs::write(&file, data).unwrap();
    eprintln!("{target}: {what}: kept {}", file.display());
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: havoc TARGET RUNS [SEED] [DIR...]");
        std::process::exit(2);
    }
    let name: &'static str = c64kit_fuzz::TARGETS
        .iter()
        .map(|(n, _)| *n)
        .find(|n| *n == args[0])
        .unwrap_or_else(|| panic!("no target {:?}", args[0]));
    let target = c64kit_fuzz::target(name).unwrap();
    let runs: u64 = args[1].parse().expect("RUNS is a number");
    let seed: u64 = args
        .get(2)
        .map_or(1, |s| s.parse().expect("SEED is a number"));
    let files: Vec<PathBuf> = if args.len() > 3 {
        args[3..]
            .iter()
            .flat_map(|d| c64kit_fuzz::corpus_files(Path::new(d)))
            .collect()
    } else {
        let grown = c64kit_fuzz::fuzz_dir().join(format!("../target/fuzz/corpus/{name}"));
        let mut files = c64kit_fuzz::seed_files(name);
        files.extend(c64kit_fuzz::corpus_files(&grown));
        files
    };
    let inputs: Vec<Vec<u8>> = files
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .filter(|d| d.len() <= 64 * 1024)
        .collect();
    let longest = inputs.iter().map(Vec::len).max().unwrap_or(0);
    println!("{name}: {} inputs to mutate, {runs} runs", inputs.len());
    let mut havoc = Havoc::new(seed, inputs, longest.clamp(4096, 64 * 1024));
    // A watchdog for a run that never ends.
    type Running = Mutex<Option<(Vec<u8>, Instant)>>;
    let current: Arc<Running> = Arc::new(Mutex::new(None));
    let watched = current.clone();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(200));
        if let Some((data, since)) = &*watched.lock().unwrap() {
            if since.elapsed() > limits::TIME_LIMIT * 5 {
                keep(name, data, "hang");
                std::process::exit(1);
            }
        }
    });
    let start = Instant::now();
    let mut findings = 0;
    for i in 1..=runs {
        let input = havoc.next_input();
        *current.lock().unwrap() = Some((input.clone(), Instant::now()));
        let result = limits::run_checked(target, &input, limits::TIME_LIMIT);
        *current.lock().unwrap() = None;
        if let Err(f) = result {
            findings += 1;
            keep(name, &input, &f.to_string());
        }
        if i.is_power_of_two() || i % 100_000 == 0 || i == runs {
            let s = start.elapsed().as_secs_f64();
            println!(
                "{name}: {i} runs in {s:.0} s, {:.0} exec/s, {findings} finding(s)",
                i as f64 / s
            );
        }
    }
    std::process::exit(i32::from(findings > 0));
}
