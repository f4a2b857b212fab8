//! The suite must catch a build that no longer behaves as published: our v10 with its move
//! ordering patched out fails F15, and the message names the fact and the numbers.

use c64kit_conformance::{all_scenarios, run_scenario, Programs};

#[test]
fn v10_without_move_ordering_fails_f15_naming_the_numbers() {
    let src = c64kit_programs::programs_dir().join("ryg3");
    let tmp = tempfile::tempdir().unwrap();
    let mut patched = 0;
    for entry in std::fs::read_dir(&src).unwrap().flatten() {
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let mut text = std::fs::read_to_string(&path).unwrap_or_default();
        if path.file_name().is_some_and(|n| n == "engine.asm") {
            patched = text.matches("jsr reorder").count();
            text = text.replace("jsr reorder", "nop");
        }
        std::fs::write(tmp.path().join(entry.file_name()), text).unwrap();
    }
    assert!(
        patched > 0,
        "the engine no longer calls `reorder`: update this test"
    );

    let scenario = all_scenarios()
        .unwrap()
        .into_iter()
        .find(|s| s.name == "f15-v10-e1f2-depth8")
        .expect("the F15 v10 scenario exists");
    let mut programs = Programs::default();
    programs.replace("ryg3-v10", tmp.path().join("ryg3-v10.cbmprj"));
    let outcome = run_scenario(&scenario, programs.get("ryg3-v10"), |_| {});

    assert!(outcome.error.is_none(), "{:?}", outcome.error);
    assert!(
        !outcome.facts_hold(),
        "a build without move ordering must not pass F15"
    );
    let failures = outcome.failures().join("\n");
    assert!(failures.contains("(F15)"), "{failures}");
    assert!(
        failures.contains("nodes over the 8 iterations: expected 10744 ($29F8), got"),
        "{failures}"
    );
}
