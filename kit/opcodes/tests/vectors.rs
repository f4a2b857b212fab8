//! Checks the table's cycle counts against the shared perfect6502 test vectors: each case's
//! bus trace length must equal the base count plus the page-crossing/branch extras that the
//! case's own operands and registers imply.

use c64kit_opcodes::{Mode, OPCODES};
use serde_json::Value;
use std::path::PathBuf;

fn vector_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors/6502")
}

fn num(v: &Value, what: &str) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("{what} is not a number: {v}"))
}

/// Cycle count the table predicts for one vector case.
fn predicted(opcode: u8, case: &Value) -> u32 {
    let info = &OPCODES[opcode as usize];
    let init = &case["initial"];
    let name = case["name"].as_str().expect("name");
    let bytes: Vec<u8> = name
        .split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).expect("hex byte in name"))
        .collect();
    let x = num(&init["x"], "x") as u16;
    let y = num(&init["y"], "y") as u16;
    let p = num(&init["p"], "p") as u8;
    let pc = num(&init["pc"], "pc") as u16;
    let ram = |addr: u16| -> u8 {
        init["ram"]
            .as_array()
            .expect("ram")
            .iter()
            .find(|e| num(&e[0], "addr") as u16 == addr)
            .map(|e| num(&e[1], "val") as u8)
            .unwrap_or_else(|| panic!("{name}: ram at {addr:04x} not listed"))
    };
    let abs = u16::from_le_bytes([bytes[1], bytes[2]]);
    let crosses = |base: u16, index: u16| (base & 0xFF) + index > 0xFF;
    let mut cycles = info.cycles as u32;
    if info.page_penalty {
        let crossed = match info.mode {
            Mode::AbsoluteX => crosses(abs, x),
            Mode::AbsoluteY => crosses(abs, y),
            Mode::IndirectY => {
                let zp = bytes[1];
                let ptr = u16::from_le_bytes([ram(zp as u16), ram(zp.wrapping_add(1) as u16)]);
                crosses(ptr, y)
            }
            m => panic!("page penalty on mode {m:?}"),
        };
        cycles += crossed as u32;
    }
    if info.mode == Mode::Relative {
        let flag = match opcode >> 6 {
            0 => 0x80, // BPL/BMI: N
            1 => 0x40, // BVC/BVS: V
            2 => 0x01, // BCC/BCS: C
            _ => 0x02, // BNE/BEQ: Z
        };
        let want_set = opcode & 0x20 != 0;
        if (p & flag != 0) == want_set {
            let next = pc.wrapping_add(2);
            let target = next.wrapping_add(bytes[1] as i8 as u16);
            cycles += 1 + (next & 0xFF00 != target & 0xFF00) as u32;
        }
    }
    cycles
}

#[test]
fn cycle_counts_match_vectors() {
    let dir = vector_dir();
    if !dir.is_dir() {
        println!("note: {} not found, skipping vector check", dir.display());
        return;
    }
    let mut files = 0;
    for sub in ["", "unstable", "netlist_inaccurate"] {
        for opcode in 0..=255u8 {
            let path = dir.join(sub).join(format!("{opcode:02x}.json"));
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            files += 1;
            let cases: Value = serde_json::from_str(&text).expect("valid JSON");
            let cases = cases.as_array().expect("array");
            let info = &OPCODES[opcode as usize];
            assert!(!info.is_jam(), "vectors exist for JAM opcode {opcode:02x}");
            let mut min = u32::MAX;
            for case in cases {
                let got = case["cycles"].as_array().expect("cycles").len() as u32;
                min = min.min(got);
                let want = predicted(opcode, case);
                assert_eq!(
                    got, want,
                    "opcode {opcode:02x} ({} {:?}) case {}: vector {got} cycles, table predicts {want}",
                    info.mnemonic, info.mode, case["name"]
                );
            }
            assert_eq!(
                min, info.cycles as u32,
                "opcode {opcode:02x}: minimum cycles in vectors differs from base"
            );
        }
    }
    println!("checked {files} opcode vector files");
    assert!(
        files > 200,
        "expected the full vector set, found {files} files"
    );
}

#[test]
fn operand_lengths_match_vectors() {
    // The final PC of a non-branch, non-jump instruction is pc + length.
    let dir = vector_dir();
    if !dir.is_dir() {
        println!("note: {} not found, skipping", dir.display());
        return;
    }
    for opcode in 0..=255u8 {
        let info = &OPCODES[opcode as usize];
        if matches!(info.mnemonic, "JMP" | "JSR" | "RTS" | "RTI" | "BRK")
            || info.mode == Mode::Relative
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(dir.join(format!("{opcode:02x}.json"))) else {
            continue;
        };
        let cases: Value = serde_json::from_str(&text).expect("valid JSON");
        for case in cases.as_array().expect("array") {
            let pc = num(&case["initial"]["pc"], "pc") as u16;
            let fin = num(&case["final"]["pc"], "pc") as u16;
            assert_eq!(
                fin,
                pc.wrapping_add(info.size() as u16),
                "opcode {opcode:02x} length"
            );
        }
    }
}
