//! The README's testbench figures are the recorded results' (testbench/results), worked out
//! by the same function `cargo xtask testbench` prints them with, so the two cannot drift:
//! after a full run that changed them, `UPDATE_GOLDENFILES=1 cargo test -p c64kit-testbench
//! --test summary` rewrites the README's tables.

use c64kit_testbench::{recorded_area_table, Kind};
use std::path::PathBuf;

fn readme() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md")
}

/// The text between `<!-- testbench:KIND -->` and `<!-- /testbench:KIND -->`, and where.
fn block(text: &str, kind: Kind) -> (usize, usize) {
    let open = format!("<!-- testbench:{} -->\n", kind.word());
    let close = format!("<!-- /testbench:{} -->", kind.word());
    let start = text
        .find(&open)
        .unwrap_or_else(|| panic!("README.md lacks {open:?}"))
        + open.len();
    let end = start
        + text[start..]
            .find(&close)
            .unwrap_or_else(|| panic!("README.md lacks {close:?}"));
    (start, end)
}

#[test]
fn the_readme_shows_the_recorded_results() {
    let path = readme();
    let mut text = std::fs::read_to_string(&path).unwrap();
    let update = c64kit_conformance::golden_update_requested().unwrap_or_else(|e| panic!("{e}"));
    let mut stale = Vec::new();
    for kind in Kind::ALL {
        let table = recorded_area_table(kind).unwrap_or_else(|e| panic!("{e}"));
        let (start, end) = block(&text, kind);
        if text[start..end] != table {
            if update {
                text.replace_range(start..end, &table);
            } else {
                stale.push(format!(
                    "{} tests: README.md shows\n{}\nthe recorded results give\n{table}",
                    kind.word(),
                    &text[start..end]
                ));
            }
        }
    }
    if update {
        std::fs::write(&path, &text).unwrap();
    }
    assert!(
        stale.is_empty(),
        "{}\nUPDATE_GOLDENFILES=1 cargo test -p c64kit-testbench --test summary rewrites them",
        stale.join("\n")
    );
}
