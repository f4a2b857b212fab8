//! Every VICE test program c64kit passes today (results/exitcode.tsv "ok", and
//! results/screenshot.tsv "ok" or "ok-rom"), as one named test each:
//! `cargo test -p c64kit-testbench -- CIA/tod` runs a folder's. A test that passed and no
//! longer does (a screenshot test: no longer as well as recorded) fails here, naming what
//! happened instead. With `C64KIT_ROMS` naming Commodore's images, the tests recorded "ok"
//! on them (results/exitcode-roms.tsv, screenshot-roms.tsv) run too, on those ROMs, named
//! "... on Commodore's ROMs"; without it (CI has no ROMs) a note says they were skipped.

use c64kit_files::errln;
use c64kit_testbench::{
    guarded, keeps, known_differences_file, read_known_differences, read_results, results_file,
    run_on, tests, CommodoreRoms, Kind, RomSet, Test, ROMS_VARIABLE,
};
use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let list = match tests() {
        Ok(l) => l,
        Err(e) => {
            errln!("the VICE test list is needed beside the checkout: {e}");
            std::process::exit(1);
        }
    };
    let mut trials = Vec::new();
    for set in RomSet::ALL {
        let roms = match (set, CommodoreRoms::from_env()) {
            (RomSet::Own, _) => None,
            (RomSet::Commodores, Some(Ok(roms))) => Some(roms),
            (RomSet::Commodores, Some(Err(e))) => {
                trials.push(Trial::test("commodores_roms_are_readable", move || {
                    Err(Failed::from(e))
                }));
                continue;
            }
            (RomSet::Commodores, None) => {
                errln!(
                    "{ROMS_VARIABLE} is not set: the tests recorded \"ok\" on Commodore's ROMs \
                     (testbench/results/*-roms.tsv) are not run"
                );
                continue;
            }
        };
        for kind in Kind::ALL {
            for (name, verdict, _) in read_results(&results_file(kind, set)) {
                if !guarded(&verdict) {
                    continue;
                }
                let trial_name = match set {
                    RomSet::Own => name.clone(),
                    RomSet::Commodores => format!("{name} on Commodore's ROMs"),
                };
                let Some(test) = list.iter().find(|t| t.name() == name).cloned() else {
                    trials.push(Trial::test(trial_name, move || {
                        Err(Failed::from(format!(
                            "{name} passed when recorded but is no longer in testlist.tsv"
                        )))
                    }));
                    continue;
                };
                let roms = roms.clone();
                trials.push(Trial::test(trial_name, move || {
                    let o = run_on(&test, roms.as_ref(), false);
                    if keeps(&verdict, &o.verdict) {
                        Ok(())
                    } else {
                        Err(Failed::from(format!(
                            "{}: was {verdict}, now {} ({})",
                            test.name(),
                            o.verdict.word(),
                            o.explain()
                        )))
                    }
                }));
            }
        }
    }
    for set in RomSet::ALL {
        trials.push(known_differences_are_current(&list, set));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// Every line of known-differences.tsv (known-differences-roms.tsv) names a test of the list
/// that x64sc passes and whose recorded verdict on those ROMs is not a pass: a fixed test
/// must leave the file with its fix. Reads only recorded files: runs without ROMs too.
fn known_differences_are_current(list: &[Test], set: RomSet) -> Trial {
    let list = list.to_vec();
    let name = match set {
        RomSet::Own => "known_differences_are_current",
        RomSet::Commodores => "known_differences_on_commodores_roms_are_current",
    };
    Trial::test(name, move || {
        let path = known_differences_file(set);
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        let recorded: Vec<(String, String, String)> = Kind::ALL
            .into_iter()
            .flat_map(|k| read_results(&results_file(k, set)))
            .collect();
        for (name, _) in read_known_differences(&path)? {
            if !list.iter().any(|t| t.name() == name && t.x64sc == "ok") {
                return Err(format!("{file}: {name} is no test x64sc passes").into());
            }
            if recorded.iter().any(|(n, v, _)| *n == name && guarded(v)) {
                return Err(format!("{file}: {name} passes now: remove its line").into());
            }
        }
        Ok(())
    })
}
