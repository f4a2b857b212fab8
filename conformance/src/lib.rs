//! c64kit-conformance: replays the RYG blog's published facts (../shared/ryg/published.md)
//! on the kit. Each scenario (conformance/scenarios/*.toml) names the fact it checks, the
//! program, the keys to type and what must come out; `cargo xtask conform` runs them all and
//! `cargo test` runs them as tests.

pub mod check;
pub mod report;
pub mod scenario;

use c64kit_machine::Machine;
pub use c64kit_machine::{Prg, StopReason};
use check::CheckResult;
pub use scenario::{Expectation, Scenario};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// conformance/ in the checkout.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn scenarios_dir() -> PathBuf {
    root().join("scenarios")
}

pub fn golden_dir() -> PathBuf {
    root().join("golden")
}

/// The published program's transcripts, beside the checkout.
pub fn reference_dir() -> PathBuf {
    root().join("../../shared/ryg/reference")
}

/// Every scenario of the suite.
pub fn all_scenarios() -> Result<Vec<Scenario>, String> {
    scenario::load_dir(&scenarios_dir())
}

/// Where the programs come from: ours, built from programs/, unless replaced by a reader's
/// build (`--program path --as ryg3-v10`).
#[derive(Default)]
pub struct Programs {
    overrides: HashMap<String, PathBuf>,
    built: HashMap<String, Result<Prg, String>>,
}

impl Programs {
    /// Judge `path` (a .prg, .cbmprj or .asm) in place of our program `name`.
    pub fn replace(&mut self, name: &str, path: PathBuf) {
        self.overrides.insert(name.to_string(), path);
        self.built.remove(name);
    }

    pub fn is_replaced(&self, name: &str) -> bool {
        self.overrides.contains_key(name)
    }

    /// The program for a scenario, built once and cached.
    pub fn get(&mut self, name: &str) -> Result<Prg, String> {
        if let Some(p) = self.built.get(name) {
            return p.clone();
        }
        let result = match self.overrides.get(name) {
            Some(path) => load_program_file(path),
            None if name.contains('/') || name.contains('.') => {
                load_program_file(&root().join("..").join(name))
            }
            None => c64kit_programs::build(name),
        };
        self.built.insert(name.to_string(), result.clone());
        result
    }
}

/// A PRG file, or a source/project assembled on the fly.
pub fn load_program_file(path: &Path) -> Result<Prg, String> {
    let is_source = path
        .extension()
        .is_some_and(|e| e == "cbmprj" || e == "asm");
    if is_source {
        return c64kit_programs::build_project(path);
    }
    let bytes = c64kit_files::read(path, Prg::MAX_FILE_SIZE, "a PRG").map_err(|e| e.to_string())?;
    Prg::parse(&bytes, &path.display().to_string()).map_err(|e| e.to_string())
}

/// How a scenario went.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub name: String,
    pub fact: String,
    pub claim: String,
    pub program: String,
    /// The program could not be built or run at all.
    pub error: Option<String>,
    pub stop: Option<StopReason>,
    /// Published-fact checks (expectations, expected stop, the reference transcript).
    pub facts: Vec<CheckResult>,
    /// Golden transcript: None = no golden file for this scenario; Some(None) = equal;
    /// Some(Some(diff)) = differs.
    pub golden: Option<Option<String>>,
    pub cycles: u64,
    pub elapsed: Duration,
    /// The transcript as text (RETURN as newline).
    pub transcript: String,
}

impl Outcome {
    pub fn facts_hold(&self) -> bool {
        self.error.is_none() && self.facts.iter().all(|c| c.passed)
    }

    pub fn golden_matches(&self) -> bool {
        !matches!(self.golden, Some(Some(_)))
    }

    pub fn passed(&self) -> bool {
        self.facts_hold() && self.golden_matches()
    }

    /// Every failure, one per line, naming the fact.
    pub fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(e) = &self.error {
            out.push(format!("{} ({}): {e}", self.name, self.fact));
        }
        for c in self.facts.iter().filter(|c| !c.passed) {
            out.push(format!("{} ({}): {}", self.name, self.fact, c.message));
        }
        if let Some(Some(d)) = &self.golden {
            out.push(format!(
                "{} ({}): transcript differs from its golden file (- golden, + this run):\n{d}",
                self.name, self.fact
            ));
        }
        out
    }
}

/// The transcript as the reference files write it: byte 13 as a newline, other bytes as
/// their ASCII characters, and bytes outside $20..$7E as {$xx}.
pub fn transcript_text(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            13 => s.push('\n'),
            0x20..=0x7E => s.push(b as char),
            _ => s.push_str(&format!("{{${b:02x}}}")),
        }
    }
    s
}

/// Cycles run between progress reports.
const CHUNK: u64 = 20_000_000;

/// Runs one scenario on `prg`. `progress` is told the cycles so far, now and then.
pub fn run_scenario(
    s: &Scenario,
    prg: Result<Prg, String>,
    mut progress: impl FnMut(u64),
) -> Outcome {
    let started = Instant::now();
    let mut outcome = Outcome {
        name: s.name.clone(),
        fact: s.fact.clone(),
        claim: s.claim.clone(),
        program: s.program.clone(),
        error: None,
        stop: None,
        facts: Vec::new(),
        golden: None,
        cycles: 0,
        elapsed: Duration::ZERO,
        transcript: String::new(),
    };
    let mut machine = Machine::builtin();
    let prepared = prg.and_then(|prg| {
        machine.load_and_run_prg(&prg)?;
        let keys = c64kit_basic::parse_key_script(&s.keys)
            .map_err(|e| format!("scenario {}: keys: {e}", s.name))?;
        machine.feed_keys(keys);
        Ok(())
    });
    if let Err(e) = prepared {
        outcome.error = Some(e);
        outcome.elapsed = started.elapsed();
        return outcome;
    }
    let start_cycles = machine.cycles();
    let stop = loop {
        let spent = machine.cycles() - start_cycles;
        let left = s.max_cycles.saturating_sub(spent);
        let stop = machine.run(left.min(CHUNK));
        progress(machine.cycles() - start_cycles);
        match stop {
            StopReason::CycleBudget { .. } if machine.cycles() - start_cycles < s.max_cycles => {}
            StopReason::CycleBudget { .. } => {
                break StopReason::CycleBudget {
                    cycles: machine.cycles() - start_cycles,
                }
            }
            other => break other,
        }
    };
    outcome.cycles = machine.cycles() - start_cycles;
    outcome.transcript = transcript_text(machine.transcript());
    judge(s, &mut machine, &stop, &mut outcome);
    outcome.stop = Some(stop);
    outcome.elapsed = started.elapsed();
    outcome
}

fn judge(s: &Scenario, machine: &mut Machine, stop: &StopReason, outcome: &mut Outcome) {
    let text = outcome.transcript.clone();
    let screen = machine.screen_text();
    if let Some(want) = &s.stop {
        let got = stop.to_string();
        outcome.facts.push(CheckResult {
            passed: got.starts_with(want.as_str()),
            message: if got.starts_with(want.as_str()) {
                format!("run ended with {got}")
            } else {
                format!("run should end with {want:?} but ended with {got:?}")
            },
        });
    }
    if let Some(file) = &s.reference {
        let path = reference_dir().join(file);
        outcome.facts.push(match std::fs::read_to_string(&path) {
            Err(e) => CheckResult {
                passed: false,
                message: format!("{}: {e}", path.display()),
            },
            Ok(published) => match check::diff(&published, &text) {
                None => CheckResult {
                    passed: true,
                    message: format!("transcript identical to the published {file}"),
                },
                Some(d) => CheckResult {
                    passed: false,
                    message: format!(
                        "transcript differs from the published {file} (- published, + this run):\n{d}"
                    ),
                },
            },
        });
    }
    for e in &s.expect {
        outcome.facts.push(check::check(e, &text, &screen, machine));
    }
    if let Some(file) = &s.golden {
        let path = golden_dir().join(file);
        outcome.golden = Some(match std::fs::read_to_string(&path) {
            Ok(golden) => check::diff(&golden, &text),
            Err(e) => Some(format!(
                "{}: {e} (create it with UPDATE_GOLDENFILES=1)",
                path.display()
            )),
        });
    }
}

/// Rewrites a scenario's golden file from this run (only when asked: UPDATE_GOLDENFILES=1).
pub fn update_golden(s: &Scenario, outcome: &Outcome) -> Result<Option<PathBuf>, String> {
    let Some(file) = &s.golden else {
        return Ok(None);
    };
    let path = golden_dir().join(file);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(&path, &outcome.transcript).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(path))
}
