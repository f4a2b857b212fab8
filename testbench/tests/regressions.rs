//! Every VICE test program c64kit passes today (results/exitcode.tsv "ok", and
//! results/screenshot.tsv "ok" or "ok-rom"), as one named test each:
//! `cargo test -p c64kit-testbench -- CIA/tod` runs a folder's. A test that passed and no
//! longer does (a screenshot test: no longer as well as recorded) fails here, naming what
//! happened instead.

use c64kit_testbench::{
    guarded, keeps, known_differences, read_results, results_file, run, tests, Kind,
};
use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let list = match tests() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("the VICE test list is needed beside the checkout: {e}");
            std::process::exit(1);
        }
    };
    let mut trials = Vec::new();
    for kind in Kind::ALL {
        for (name, verdict, _) in read_results(&results_file(kind)) {
            if !guarded(&verdict) {
                continue;
            }
            let Some(test) = list.iter().find(|t| t.name() == name).cloned() else {
                trials.push(Trial::test(name.clone(), move || {
                    Err(Failed::from(format!(
                        "{name} passed when recorded but is no longer in testlist.tsv"
                    )))
                }));
                continue;
            };
            trials.push(Trial::test(name, move || {
                let o = run(&test);
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
    trials.push(known_differences_are_current(&list));
    libtest_mimic::run(&args, trials).exit();
}

/// Every line of known-differences.tsv names a test of the list that x64sc passes and whose
/// recorded verdict is not a pass: a fixed test must leave the file with its fix.
fn known_differences_are_current(list: &[c64kit_testbench::Test]) -> Trial {
    let list = list.to_vec();
    Trial::test("known_differences_are_current", move || {
        let recorded: Vec<(String, String, String)> = Kind::ALL
            .into_iter()
            .flat_map(|k| read_results(&results_file(k)))
            .collect();
        for (name, _) in known_differences()? {
            if !list.iter().any(|t| t.name() == name && t.x64sc == "ok") {
                return Err(
                    format!("known-differences.tsv: {name} is no test x64sc passes").into(),
                );
            }
            if recorded.iter().any(|(n, v, _)| *n == name && guarded(v)) {
                return Err(
                    format!("known-differences.tsv: {name} passes now: remove its line").into(),
                );
            }
        }
        Ok(())
    })
}
