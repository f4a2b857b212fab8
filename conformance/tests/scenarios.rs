//! `cargo test` runs every conformance scenario on our own programs, so CI fails when a
//! published fact stops holding, when our output differs from a golden file, or when it
//! differs from the published program's transcript (for our own engines that is exact
//! today, and must stay so). UPDATE_GOLDENFILES=1 rewrites golden files, on purpose only
//! and never under CI (`golden_update_requested`, the rule `conform` follows too).

use c64kit_conformance::{
    all_scenarios, golden_update_requested, update_golden, Outcome, Programs, Scenario,
};

fn run_all() -> Vec<(Scenario, Outcome)> {
    let scenarios = all_scenarios().expect("scenario files parse");
    assert!(!scenarios.is_empty(), "no scenarios found");
    let mut programs = Programs::default();
    let jobs: Vec<_> = scenarios
        .into_iter()
        .map(|s| {
            let p = programs.get(&s.program);
            (s, p)
        })
        .collect();
    let mut done = c64kit_conformance::app::run_parallel(jobs, Some(2));
    done.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    done
}

#[test]
fn every_published_fact_holds_and_every_transcript_matches() {
    let update = golden_update_requested().unwrap_or_else(|e| panic!("{e}"));
    let outcomes = run_all();
    let mut failures = Vec::new();
    for (s, o) in &outcomes {
        println!(
            "{:<36} {:<4} {:<10} cycles: {}",
            o.name, o.fact, o.program, o.cycles
        );
        for c in &o.checks {
            println!("    {}", c.evidence(&o.fact));
        }
        if let Some(e) = &o.error {
            failures.push(format!("{} ({}): {e}", o.name, o.fact));
        }
        for c in o
            .checks
            .iter()
            .filter(|c| c.verdict != c64kit_conformance::check::Verdict::Holds)
        {
            if update && c.kind == c64kit_conformance::check::Kind::GoldenTranscript {
                let path = update_golden(s, o).unwrap_or_else(|e| panic!("{e}"));
                println!("UPDATED golden file {path:?} (UPDATE_GOLDENFILES=1)");
                continue;
            }
            failures.push(format!(
                "{} ({}): {} {}\n{}",
                o.name,
                o.fact,
                c.kind.label(),
                c.evidence(&o.fact),
                c.detail.as_deref().unwrap_or("")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "conformance failures:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_published_fact_has_a_scenario() {
    let facts =
        c64kit_conformance::published_facts(&all_scenarios().expect("scenario files parse"));
    let ids: Vec<&str> = facts.iter().map(|f| f.id.as_str()).collect();
    let expected: Vec<String> = (1..=19).map(|n| format!("F{n}")).collect();
    assert_eq!(
        ids, expected,
        "published.md's facts as the suite reads them"
    );
    let missing: Vec<&str> = facts
        .iter()
        .filter(|f| f.programs.is_empty())
        .map(|f| f.id.as_str())
        .collect();
    assert!(missing.is_empty(), "facts no scenario checks: {missing:?}");
    // The first series' facts run on our first-series engines, RYG3's on RYG3.
    for f in &facts {
        let n: u32 = f.id[1..].parse().unwrap();
        let want = match n {
            1..=9 => Some("ryg-v"),
            10..=17 => Some("ryg3-v"),
            _ => None,
        };
        if let Some(prefix) = want {
            assert!(
                f.programs
                    .iter()
                    .all(|p| p.starts_with(prefix) || p == "ramunder"),
                "{}: {:?}",
                f.id,
                f.programs
            );
        }
    }
}
