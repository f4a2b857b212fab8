//! The shared NMOS 6502 vectors (../shared/vectors/6502), read where CI has them: beside the
//! checkout, never copied in. Used by the exact path's and the direct path's tests.
#![allow(dead_code)] // each test binary uses its own part

use c64kit_cpu::Cpu;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
pub struct State {
    pub pc: u16,
    pub s: u8,
    pub a: u8,
    pub x: u8,
    pub y: u8,
    pub p: u8,
    pub ram: Vec<(u16, u8)>,
}

#[derive(Deserialize)]
pub struct Case {
    pub name: String,
    pub initial: State,
    #[serde(rename = "final")]
    pub fin: State,
    pub cycles: Vec<(u16, u8, String)>,
    #[serde(default)]
    pub interrupts: Vec<(u64, String, u8)>,
}

impl State {
    /// A CPU with these registers, and the netlist's ANE/LXA magic constant (the vectors
    /// record the simulation).
    pub fn cpu(&self) -> Cpu {
        let mut cpu = Cpu::new();
        cpu.ane_magic = c64kit_cpu::NETLIST_MAGIC;
        cpu.lxa_magic = c64kit_cpu::NETLIST_MAGIC;
        cpu.pc = self.pc;
        cpu.a = self.a;
        cpu.x = self.x;
        cpu.y = self.y;
        cpu.s = self.s;
        cpu.set_p(self.p);
        cpu
    }
}

pub fn vectors_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors/6502");
    dir.is_dir().then_some(dir)
}

pub fn load(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The vector files of `sub` (a folder below the vectors root, "" for the root), sorted;
/// panics if the vectors are missing or the count is not `expect_files`.
pub fn files(sub: &str, expect_files: usize) -> Vec<PathBuf> {
    let Some(root) = vectors_dir() else {
        panic!(
            "../shared/vectors/6502 not found beside the checkout: the CPU vectors are required"
        );
    };
    let dir = root.join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert_eq!(
        files.len(),
        expect_files,
        "number of vector files in {}",
        dir.display()
    );
    files
}

/// A file's opcode, from its name (`a9.json`).
pub fn opcode_of(file: &Path) -> u8 {
    let stem = file.file_stem().unwrap().to_string_lossy();
    u8::from_str_radix(&stem, 16).unwrap_or_else(|_| panic!("{}: not an opcode", file.display()))
}
