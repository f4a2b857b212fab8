//! Our own 6502 programs, built from source with the kit's assembler, and helpers to run them
//! through the kit. Each program lives in a folder here with one `.cbmprj` project per
//! version (e.g. `ryg3/ryg3-v10.cbmprj`); a program is named by the project's file stem.

use c64kit_basic::parse_key_script;
use c64kit_machine::{Machine, Prg, Program, RunSettings, StopReason};
use std::path::{Path, PathBuf};

/// One of our programs as built into this crate at build time (see build.rs).
pub struct BuiltIn {
    /// The project's name: "ryg3-v10".
    pub name: &'static str,
    /// The PRG file (load address first).
    pub prg: &'static [u8],
    /// Its global labels and address-sized constants as a VICE label file (`al C:0820 .main`).
    pub labels: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/built_in.rs"));

/// Our program of that name, as built with this crate.
pub fn built_in(name: &str) -> Option<&'static BuiltIn> {
    BUILT_IN.iter().find(|b| b.name == name)
}

/// The folder holding the program sources (this crate's folder).
pub fn programs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every project: (name, path), e.g. ("ryg3-v10", ".../ryg3/ryg3-v10.cbmprj"), sorted.
pub fn projects() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let Ok(dirs) = std::fs::read_dir(programs_dir()) else {
        return out;
    };
    for dir in dirs.flatten() {
        let Ok(files) = std::fs::read_dir(dir.path()) else {
            continue;
        };
        for f in files.flatten() {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "cbmprj") {
                let name = p
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string();
                out.push((name, p));
            }
        }
    }
    out.sort();
    out
}

/// Assembles the project of that name (e.g. "ryg3-v10") into a PRG.
pub fn build(name: &str) -> Result<Prg, String> {
    let (_, path) = projects()
        .into_iter()
        .find(|(n, _)| n == name)
        .ok_or_else(|| format!("no program named {name:?} in {}", programs_dir().display()))?;
    build_project(&path)
}

/// Assembles a .cbmprj or .asm file into a PRG.
pub fn build_project(path: &Path) -> Result<Prg, String> {
    let assembly = c64kit_asm::assemble_path(path, &c64kit_asm::Options::default())
        .map_err(|e| e.to_string())?;
    Ok(Prg {
        load_address: assembly.load_address,
        data: assembly.bytes,
    })
}

/// The result of running a program with a key script.
pub struct Run {
    pub machine: Machine,
    pub stop: StopReason,
}

impl Run {
    /// The transcript as text: RETURN as a newline, other bytes as their ASCII characters
    /// (the format of shared/ryg/reference).
    pub fn text(&self) -> String {
        transcript_text(self.machine.transcript())
    }
}

/// What BASIC prints when a program RUN from it ends (machine code's RTS from its SYS goes
/// back into BASIC's SYS, and the program has no more statements): CR, LF, `READY.`, CR, LF,
/// as Commodore's BASIC prints it (shared/basic-v2/README.md).
pub const BASIC_READY: &[u8] = b"\r\nREADY.\r\n";

/// CHROUT bytes as text: RETURN (13) as a newline, every other byte as the character with
/// that code (the format of shared/ryg/reference).
pub fn transcript_text(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| if b == 13 { '\n' } else { b as char })
        .collect()
}

/// Loads `prg`, RUNs it, types `keys` (key-script syntax: a newline is RETURN) and runs
/// until it stops or `max_cycles` pass.
pub fn run(prg: &Prg, keys: &str, max_cycles: u64) -> Result<Run, String> {
    let settings = RunSettings {
        keys: parse_key_script(keys).map_err(|e| e.to_string())?,
        ..RunSettings::default()
    };
    let mut machine = Machine::start(Some(&Program::from_prg(prg)), settings)?;
    let stop = machine.run(max_cycles);
    Ok(Run { machine, stop })
}
