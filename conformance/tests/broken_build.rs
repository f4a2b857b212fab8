//! The suite must tell a behavioural change from a cosmetic one. Our v10 with its move
//! ordering patched out fails F15 naming both numbers; our v10 with "SET DEPTH" reworded to
//! "SET DEPTH!" holds every fact, and its transcript "differs in 1 line".

use c64kit_conformance::check::{Kind, Verdict};
use c64kit_conformance::{all_scenarios, run_scenario, Outcome, Programs};

/// Runs scenario `name` on a copy of programs/ryg3 (as ryg3-v10) with `from` replaced by
/// `to` in `file`.
fn run_patched(name: &str, file: &str, from: &str, to: &str) -> Outcome {
    let src = c64kit_programs::programs_dir().join("ryg3");
    let tmp = tempfile::tempdir().unwrap();
    let mut patched = 0;
    for entry in std::fs::read_dir(&src).unwrap().flatten() {
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let mut text = std::fs::read_to_string(&path).unwrap_or_default();
        if path.file_name().is_some_and(|n| n == file) {
            patched = text.matches(from).count();
            text = text.replace(from, to);
        }
        std::fs::write(tmp.path().join(entry.file_name()), text).unwrap();
    }
    assert!(
        patched > 0,
        "{file} no longer has {from:?}: update this test"
    );
    let scenario = all_scenarios()
        .unwrap()
        .into_iter()
        .find(|s| s.name == name)
        .expect("the scenario exists");
    let mut programs = Programs::default();
    programs.replace("ryg3-v10", tmp.path().join("ryg3-v10.cbmprj"), None);
    let outcome = run_scenario(&scenario, programs.get("ryg3-v10"), |_| {});
    assert!(outcome.error.is_none(), "{:?}", outcome.error);
    outcome
}

#[test]
fn v10_without_move_ordering_fails_f15_naming_both_numbers() {
    let outcome = run_patched("f15-v10-e1f2-depth8", "engine.asm", "jsr reorder", "nop");
    assert!(
        !outcome.facts_hold(),
        "a build without move ordering must not pass F15"
    );
    let failed: Vec<String> = outcome
        .facts()
        .filter(|c| c.failed())
        .map(|c| c.evidence(&outcome.fact))
        .collect();
    let nodes = failed
        .iter()
        .find(|l| l.starts_with("F15 nodes over 8 iterations: published 10,744 ($29F8), measured "))
        .unwrap_or_else(|| panic!("no F15 node-count failure in {failed:#?}"));
    assert!(nodes.ends_with("- DOES NOT HOLD"), "{nodes}");
    assert!(!nodes.contains("measured 10,744"), "{nodes}");
}

#[test]
fn rewording_set_depth_holds_every_fact_and_differs_in_one_line() {
    let outcome = run_patched(
        "f15-v10-e1f2-depth8",
        "tables.asm",
        "S_SETDEPTH   byte $53,$45,$54,$20,$44,$45,$50,$54,$48,$0D,$00",
        "S_SETDEPTH   byte $53,$45,$54,$20,$44,$45,$50,$54,$48,$21,$0D,$00",
    );
    assert!(outcome.facts_hold(), "{:#?}", outcome.checks);
    let t = outcome
        .published_transcript()
        .expect("F15 compares the published transcript");
    assert_eq!(t.kind, Kind::PublishedTranscript);
    assert_eq!(t.verdict, Verdict::DoesNotHold);
    assert_eq!(t.measured, "differs in 1 line");
    let diff = t.detail.as_deref().unwrap_or("");
    assert!(
        diff.contains("-SET DEPTH\n") && diff.contains("+SET DEPTH!\n"),
        "{diff}"
    );
}
