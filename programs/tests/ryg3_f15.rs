//! The headline check of published fact F15 on our RYG3 builds: after E1F2 at depth 8 the
//! transcript is identical to the published program's (../shared/ryg/reference).

use c64kit_machine::StopReason;
use c64kit_programs::{build, run};

fn reference(version: &str) -> String {
    let path = format!(
        "{}/../../shared/ryg/reference/e1f2-depth8-v{version}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn check(version: &str) {
    let prg = build(&format!("ryg3-v{version}")).unwrap();
    let r = run(&prg, ".d8\ne1f2\n.g\n", 500_000_000).unwrap();
    assert_eq!(r.stop, StopReason::InputExhausted);
    assert_eq!(r.text(), reference(version));
}

#[test]
fn v09_matches_the_published_transcript() {
    check("09");
}

#[test]
fn v10_matches_the_published_transcript() {
    check("10");
}

#[test]
fn v11_matches_the_published_transcript() {
    check("11");
}
