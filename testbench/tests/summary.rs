//! The README's testbench figures are the recorded results' (testbench/results), worked out
//! by the same function `cargo xtask testbench` prints them with, so the two cannot drift:
//! after a full run that changed them, `UPDATE_GOLDENFILES=1 cargo test -p c64kit-testbench
//! --test summary` rewrites the README's tables. The tables of the runs on Commodore's ROMs
//! (results/*-roms.tsv) are checked the same way: the recorded files are data, so this
//! needs no ROM.

use c64kit_testbench::{recorded_area_table, Kind, RomSet};
use std::path::PathBuf;

fn readme() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md")
}

/// The text between `<!-- testbench:NAME -->` and `<!-- /testbench:NAME -->`, and where;
/// NAME is the results file's (exitcode, screenshot-roms...).
fn block(text: &str, kind: Kind, set: RomSet) -> (usize, usize) {
    let name = format!("{}{}", kind.word(), set.file_suffix());
    let open = format!("<!-- testbench:{name} -->\n");
    let close = format!("<!-- /testbench:{name} -->");
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
    for set in RomSet::ALL {
        for kind in Kind::ALL {
            let table = recorded_area_table(kind, set).unwrap_or_else(|e| panic!("{e}"));
            let (start, end) = block(&text, kind, set);
            if text[start..end] != table {
                if update {
                    text.replace_range(start..end, &table);
                } else {
                    stale.push(format!(
                        "{} tests on {}: README.md shows\n{}\nthe recorded results give\n{table}",
                        kind.word(),
                        set.describe(),
                        &text[start..end]
                    ));
                }
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

/// Every results file, on either set of ROMs, has one verdict per test of its type in the
/// list, in x64sc's words, no test twice; on Commodore's ROMs never `ok-rom` (a screenshot
/// either matches pixel for pixel or fails). Reads the recorded files only: no ROM needed.
#[test]
fn the_recorded_results_are_well_formed() {
    let list = c64kit_testbench::tests().unwrap_or_else(|e| panic!("{e}"));
    for set in RomSet::ALL {
        for kind in Kind::ALL {
            let path = c64kit_testbench::results_file(kind, set);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut words = vec!["ok", "error", "timeout", "n/a"];
            if set == RomSet::Own && kind == Kind::Screenshot {
                words.push("ok-rom");
            }
            let mut seen = std::collections::HashSet::new();
            for (i, line) in text.lines().enumerate() {
                if line.starts_with('#') {
                    continue;
                }
                let at = format!("{}:{}", path.display(), i + 1);
                let f: Vec<&str> = line.splitn(3, '\t').collect();
                assert_eq!(f.len(), 3, "{at}: expected test<TAB>verdict<TAB>detail");
                assert!(
                    words.contains(&f[1]),
                    "{at}: verdict {:?} is none of {words:?}",
                    f[1]
                );
                assert!(
                    list.iter().any(|t| t.kind == kind && t.name() == f[0]),
                    "{at}: {} is no {} test of the list",
                    f[0],
                    kind.word()
                );
                assert!(seen.insert(f[0].to_string()), "{at}: {} twice", f[0]);
            }
            let of_kind = list.iter().filter(|t| t.kind == kind).count();
            assert_eq!(seen.len(), of_kind, "{}: one line per test", path.display());
        }
    }
}
