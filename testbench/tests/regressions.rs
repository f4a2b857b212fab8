//! Every VICE test program c64kit passes today (results/exitcode.tsv, "ok"), as one named
//! test each: `cargo test -p c64kit-testbench -- CIA/tod` runs a folder's. A test that
//! passed and no longer does fails here, naming what happened instead.

use c64kit_testbench::{read_results, results_file, run, tests, Verdict};
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
    for (name, verdict, _) in read_results(&results_file()) {
        if verdict != "ok" {
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
            match o.verdict {
                Verdict::Ok => Ok(()),
                other => Err(Failed::from(format!(
                    "{}: was ok, now {} ({})",
                    test.name(),
                    other.word(),
                    o.detail
                ))),
            }
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
