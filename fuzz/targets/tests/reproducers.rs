//! Every committed input through its target: the seeds (fuzz/seeds/TARGET/) and what fuzzing
//! campaigns kept (fuzz/reproducers/TARGET/: crashes, hangs, blow-ups). Each must finish
//! without a panic, within ten times libFuzzer's 2 s of CPU (this is a debug build) and
//! under 256 MB. One test per target, so a failure names it.

use c64kit_fuzz::limits::{self, Counting, Finding, DEBUG_TIME_LIMIT};
use std::path::PathBuf;
use std::sync::mpsc;

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs one file on a thread of its own, so a run that never ends is reported too.
fn run_file(target: fn(&[u8]), path: PathBuf) -> Result<(), Finding> {
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name(path.display().to_string())
        .spawn(move || {
            let _ = tx.send(limits::run_checked(target, &data, DEBUG_TIME_LIMIT));
        })
        .expect("spawn a thread");
    // The thread reports a slow run itself; this catches one that never ends.
    match rx.recv_timeout(DEBUG_TIME_LIMIT * 3) {
        Ok(result) => result,
        Err(_) => Err(Finding::Slow(DEBUG_TIME_LIMIT * 3)),
    }
}

fn check_target(name: &str) {
    let target = c64kit_fuzz::target(name).expect("a target of that name");
    let mut files = c64kit_fuzz::seed_files(name);
    assert!(!files.is_empty(), "{name}: no seeds");
    files.extend(c64kit_fuzz::corpus_files(&c64kit_fuzz::reproducers_dir(
        name,
    )));
    let mut failures = Vec::new();
    for path in files {
        if let Err(finding) = run_file(target, path.clone()) {
            failures.push(format!("{}: {finding}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{name}: {} input(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn prg() {
    check_target("prg");
}

#[test]
fn basic() {
    check_target("basic");
}

#[test]
fn asm() {
    check_target("asm");
}

#[test]
fn cbmprj() {
    check_target("cbmprj");
}

#[test]
fn t64() {
    check_target("t64");
}

#[test]
fn d64() {
    check_target("d64");
}

#[test]
fn config() {
    check_target("config");
}

#[test]
fn keyscript() {
    check_target("keyscript");
}

#[test]
fn scenario() {
    check_target("scenario");
}

#[test]
fn interpreter() {
    check_target("interpreter");
}

#[test]
fn every_target_has_a_test_here() {
    let names: Vec<&str> = c64kit_fuzz::TARGETS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names,
        [
            "prg",
            "basic",
            "asm",
            "cbmprj",
            "t64",
            "d64",
            "config",
            "keyscript",
            "scenario",
            "interpreter"
        ],
        "a new target needs its #[test] in tests/reproducers.rs"
    );
}
