//! `cargo test` runs every conformance scenario, so CI fails when a published fact stops
//! holding. Golden transcripts go through goldenfile (UPDATE_GOLDENFILES=1 rewrites them, on
//! purpose only); published-fact checks are asserted with messages naming fact and numbers.

use c64kit_conformance::{all_scenarios, golden_dir, run_scenario, Outcome, Programs, Scenario};
use std::io::Write;

fn run_all() -> Vec<(Scenario, Outcome)> {
    let scenarios = all_scenarios().expect("scenario files parse");
    assert!(!scenarios.is_empty(), "no scenarios found");
    let mut programs = Programs::default();
    let jobs: Vec<_> = scenarios
        .into_iter()
        .map(|s| {
            let prg = programs.get(&s.program);
            (s, prg)
        })
        .collect();
    let next = std::sync::Mutex::new(jobs.into_iter().collect::<Vec<_>>());
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let Some((s, prg)) = next.lock().unwrap().pop() else {
                    break;
                };
                let o = run_scenario(&s, prg, |_| {});
                done.lock().unwrap().push((s, o));
            });
        }
    });
    let mut done = done.into_inner().unwrap();
    done.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    done
}

#[test]
fn every_published_fact_holds_and_every_golden_transcript_matches() {
    let outcomes = run_all();
    let mut mint = goldenfile::Mint::new(golden_dir());
    let mut failures = Vec::new();
    for (s, o) in &outcomes {
        println!(
            "{:<32} {:<4} {:<10} facts: {}  cycles: {}",
            o.name,
            o.fact,
            o.program,
            if o.facts_hold() { "hold" } else { "FAIL" },
            o.cycles
        );
        if let Some(e) = &o.error {
            failures.push(format!("{} ({}): {e}", o.name, o.fact));
        }
        for c in o.facts.iter().filter(|c| !c.passed) {
            failures.push(format!("{} ({}): {}", o.name, o.fact, c.message));
        }
        if let Some(file) = &s.golden {
            let mut f = mint.new_goldenfile(file).expect("golden file");
            f.write_all(o.transcript.as_bytes()).unwrap();
        }
    }
    assert!(
        failures.is_empty(),
        "published facts that do not hold:\n{}",
        failures.join("\n")
    );
    // Dropping the mint compares every golden file and shows a diff on mismatch.
}
