//! VICE's testbench on c64kit: the community's hardware test programs
//! (../shared/vice-testprogs/testlist.tsv, with x64sc's verdicts), run the way VICE runs them
//! with `-debugcart`: the program writes its result to $D7FF (0 = pass) or times out.
//! `cargo xtask testbench` runs them all and compares with x64sc and with the last recorded
//! results (testbench/results/exitcode.tsv); `cargo test` runs the ones that pass as
//! regression tests. No test program is recognised by name: only the options of the list
//! (the chip a test needs) and what the program itself is decide how it runs.

use c64kit_machine::drive::Drive;
use c64kit_machine::kernal::AfterReturn;
use c64kit_machine::pla::Region;
use c64kit_machine::CiaModel;
use c64kit_machine::{Machine, Prg, StopReason};
use std::path::{Path, PathBuf};

/// ../shared/vice-testprogs beside the checkout.
pub fn collection_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/vice-testprogs")
}

/// The recorded verdicts of the last full run, committed so a change shows in review.
pub fn results_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results/exitcode.tsv")
}

/// How a test reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Writes its result to the debug cartridge.
    Exitcode,
    /// Compared by a screenshot with a reference picture.
    Screenshot,
}

/// One line of testlist.tsv.
#[derive(Debug, Clone)]
pub struct Test {
    /// The folder under the collection ("CIA/tod").
    pub dir: String,
    pub prg: String,
    pub kind: Kind,
    /// VICE's limit, counted from power-on.
    pub cycles: u64,
    /// `vicii-pal`, `cia-old`, `expect:timeout`, `comment:...`
    pub options: Vec<String>,
    /// x64sc's verdict: ok, error, timeout, noref.
    pub x64sc: String,
}

impl Test {
    /// "CIA/tod/hzsync3.prg", with the chips it names when the list runs the same program
    /// for several ("general/Lorenz-2.15/src/cia2pb7.prg [cia-new]"): unique in the list.
    pub fn name(&self) -> String {
        let chips: Vec<&str> = self
            .options
            .iter()
            .map(String::as_str)
            .filter(|o| ["vicii-", "cia-", "sid-"].iter().any(|p| o.starts_with(p)))
            .collect();
        if chips.is_empty() {
            format!("{}/{}", self.dir, self.prg)
        } else {
            format!("{}/{} [{}]", self.dir, self.prg, chips.join(","))
        }
    }

    /// The top folder: CPU, CIA, interrupts, C64, general, VICII, SID.
    pub fn area(&self) -> &str {
        self.dir.split('/').next().unwrap_or(&self.dir)
    }

    pub fn has(&self, option: &str) -> bool {
        self.options.iter().any(|o| o == option)
    }

    pub fn path(&self) -> PathBuf {
        collection_dir().join(&self.dir).join(&self.prg)
    }
}

/// Reads testlist.tsv; errors name the line. Names are unique (see [`Test::name`]).
pub fn load_list(path: &Path) -> Result<Vec<Test>, String> {
    let text = c64kit_files::read_text(path, c64kit_files::MIB, "the test list")
        .map_err(|e| e.to_string())?;
    let mut tests = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let bad = |what: &str| format!("{}:{}: {what}", path.display(), n + 1);
        if f.len() < 6 {
            return Err(bad("expected 6 tab-separated fields"));
        }
        let kind = match f[2] {
            "exitcode" => Kind::Exitcode,
            "screenshot" => Kind::Screenshot,
            other => return Err(bad(&format!("unknown type {other:?}"))),
        };
        tests.push(Test {
            dir: f[0].to_string(),
            prg: f[1].to_string(),
            kind,
            cycles: f[3].parse().map_err(|_| bad("cycles is not a number"))?,
            options: f[4]
                .split(',')
                .filter(|o| !o.is_empty())
                .map(str::to_string)
                .collect(),
            x64sc: f[5].to_string(),
        });
    }
    let mut names: Vec<String> = tests.iter().map(Test::name).collect();
    names.sort();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("{}: {} is listed twice", path.display(), w[0]));
    }
    Ok(tests)
}

/// The list beside the checkout.
pub fn tests() -> Result<Vec<Test>, String> {
    load_list(&collection_dir().join("testlist.tsv"))
}

/// c64kit's verdict, in the words of x64sc's column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The test reported what it expects (a pass; for `expect:error` a reported failure).
    Ok,
    /// The test reported the other result.
    Error,
    /// It never reported within its cycles.
    Timeout,
    /// It needs a C64 c64kit does not model (the reason says which part).
    NotApplicable(String),
}

impl Verdict {
    pub fn word(&self) -> &str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Error => "error",
            Verdict::Timeout => "timeout",
            Verdict::NotApplicable(_) => "n/a",
        }
    }
}

/// What a run gave: the verdict, and what happened ("debug cartridge: $FF after ...").
#[derive(Debug, Clone)]
pub struct Outcome {
    pub verdict: Verdict,
    pub detail: String,
    pub cycles: u64,
}

impl Outcome {
    /// What happened, or why the test does not apply.
    pub fn explain(&self) -> &str {
        match &self.verdict {
            Verdict::NotApplicable(why) => why,
            _ => &self.detail,
        }
    }
}

/// The part of a real C64 a test needs that c64kit does not model, from the list's options
/// (the chip models) and its type.
pub fn unsupported(test: &Test) -> Option<String> {
    if test.kind == Kind::Screenshot {
        return Some("compared by screenshot: needs the VIC-II's picture (issue 16)".into());
    }
    let needs = [
        (
            "vicii-ntsc",
            "an NTSC VIC-II (6567R8): c64kit models the PAL 6569",
        ),
        (
            "vicii-ntscold",
            "an old NTSC VIC-II (6567R56A): c64kit models the PAL 6569",
        ),
        ("vicii-new", "the 8565 VIC-II: c64kit models the 6569"),
        ("sid-new", "the 8580 SID: c64kit has no 8580"),
    ];
    needs
        .iter()
        .find(|(o, _)| test.has(o))
        .map(|(_, why)| format!("needs {why}"))
}

/// The CIAs a test asks for: `cia-old` the 6526, `cia-new` (or nothing) the 6526A.
pub fn cia_model(test: &Test) -> CiaModel {
    // x64sc ran a test that names no CIA as a C64C, with 6526As: its verdicts are for that
    // model (the shift register's timing differs between the two).
    if test.has("cia-old") {
        CiaModel::Mos6526
    } else {
        CiaModel::Mos6526A
    }
}

/// Runs one test as VICE's testbench does: load the PRG, RUN it (its BASIC stub's SYS),
/// the debug cartridge plugged in, the test's folder as drive 8 (read only), a return to
/// BASIC idling as BASIC would, until it reports or its cycles pass.
pub fn run(test: &Test) -> Outcome {
    let na = |why: String| Outcome {
        verdict: Verdict::NotApplicable(why),
        detail: String::new(),
        cycles: 0,
    };
    if let Some(why) = unsupported(test) {
        return na(why);
    }
    let bytes = match c64kit_files::read(&test.path(), Prg::MAX_FILE_SIZE, "a PRG") {
        Ok(b) => b,
        Err(e) => return na(format!("cannot read the program: {e}")),
    };
    let prg = match Prg::parse(&bytes, &test.name()) {
        Ok(p) => p,
        Err(e) => return na(format!("not a PRG: {e}")),
    };
    let mut m = Machine::builtin();
    m.bus.set_cia_model(cia_model(test));
    m.bus.debug_cart = true;
    m.stop_on_stuck_loop = true;
    m.kernal.drive = Drive::read_only(collection_dir().join(&test.dir));
    // On a real C64 a program that returns to BASIC leaves its interrupts running (tests
    // that install one and return report from it).
    m.kernal.after_return = AfterReturn::Wait;
    if let Err(e) = m.load_and_run_prg(&prg) {
        return na(format!("VICE types RUN into its BASIC: {e}"));
    }
    m.set_load_name_from_path(Path::new(&test.prg));
    let stop = m.run(test.cycles);
    let cycles = m.cycles();
    let detail = format!("{stop} after {cycles} cycles");
    let reported = match stop {
        StopReason::DebugCart { value: 0 } => Some(true),
        StopReason::DebugCart { .. } => Some(false),
        _ => None,
    };
    let verdict = match (reported, &stop) {
        (Some(passed), _) if passed != test.has("expect:error") => Verdict::Ok,
        (Some(_), _) => Verdict::Error,
        // The program called ROM code c64kit does not have (it ships no Commodore ROM).
        (None, StopReason::Unimplemented { .. }) => {
            return na(format!("needs the real KERNAL ROM: {detail}"))
        }
        (None, StopReason::Jammed { pc, .. }) if m.bus.region(*pc) == Region::BasicRom => {
            return na(format!(
                "needs the real BASIC ROM's code at ${pc:04X} (c64kit traps only BASIC's \
                 STROUT and LINPRT)"
            ))
        }
        (None, _) if test.has("expect:timeout") => Verdict::Ok,
        (None, _) => Verdict::Timeout,
    };
    Outcome {
        verdict,
        detail,
        cycles,
    }
}

/// The recorded results: (test name, verdict word, detail), one per line, tab-separated.
pub fn read_results(path: &Path) -> Vec<(String, String, String)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.splitn(3, '\t');
            Some((
                f.next()?.to_string(),
                f.next()?.to_string(),
                f.next().unwrap_or("").to_string(),
            ))
        })
        .collect()
}

/// The results file's text for these outcomes.
pub fn results_text(results: &[(Test, Outcome)]) -> String {
    let mut s = String::from(
        "# c64kit's verdicts on ../shared/vice-testprogs (cargo xtask testbench rewrites this \
         file after a full run; cargo test re-runs every \"ok\" line)\n",
    );
    for (t, o) in results {
        s += &format!("{}\t{}\t{}\n", t.name(), o.verdict.word(), o.explain());
    }
    s
}
