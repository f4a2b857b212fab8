//! Runs inputs through a target without libFuzzer's instrumentation and says how much CPU
//! time each took and how much memory it held at once: tells a real hang from one that only the
//! instrumented build makes slow.
//!
//! `cargo run --release -p c64kit-fuzz --example replay -- TARGET FILE...`

use c64kit_fuzz::limits::{self, Counting};
use std::time::Duration;

#[global_allocator]
static ALLOC: Counting = Counting;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(name), files) = (args.next(), args.collect::<Vec<_>>()) else {
        eprintln!("usage: replay TARGET FILE...");
        std::process::exit(2);
    };
    let Some(target) = c64kit_fuzz::target(&name) else {
        eprintln!("no target {name:?}");
        std::process::exit(2);
    };
    let mut failed = false;
    for file in files {
        let data = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let start = limits::thread_time();
        let result = limits::run_checked(target, &data, Duration::MAX);
        let took = limits::thread_time().saturating_sub(start);
        let verdict = match &result {
            Ok(()) if took > limits::TIME_LIMIT => "over 2 s".to_string(),
            Ok(()) => "ok".to_string(),
            Err(f) => f.to_string(),
        };
        failed |= result.is_err() || took > limits::TIME_LIMIT;
        println!(
            "{:>8.3} s  {:>6} bytes  {verdict:<10} {file}",
            took.as_secs_f64(),
            data.len()
        );
    }
    std::process::exit(i32::from(failed));
}
