//! Every opcode in the c64kit-opcodes table, written the way the disassembler prints it,
//! assembles back to the same bytes.

use c64kit_asm::{assemble_source, Options};
use c64kit_opcodes::{disassemble, find_opcode, Mode, OPCODES};

/// Operand bytes chosen so that the mode cannot be mistaken for another one (absolute
/// addresses above $FF, zero-page ones below).
fn operands(mode: Mode) -> [u8; 2] {
    match mode {
        Mode::Absolute | Mode::AbsoluteX | Mode::AbsoluteY | Mode::Indirect => [0x34, 0x12],
        Mode::Relative => [0x10, 0],
        _ => [0x56, 0],
    }
}

#[test]
fn every_opcode_round_trips_through_the_disassembler() {
    let mut checked = 0;
    for code in 0..=255u8 {
        let info = &OPCODES[code as usize];
        let [b1, b2] = operands(info.mode);
        let (text, len) = disassemble(0x1000, [code, b1, b2]);
        let src = format!("*=$1000\n {text}\n");
        let asm = assemble_source("rt.asm", &src, &Options::default())
            .unwrap_or_else(|e| panic!("opcode ${code:02X} '{text}': {e}"));
        let want = &[code, b1, b2][..len as usize];
        // Where several opcodes share mnemonic and mode (NOP variants, SBC $EB, JAM), the
        // assembler picks the preferred one; it must still mean the same instruction.
        let preferred = if info.is_jam() {
            0x02
        } else {
            find_opcode(info.mnemonic, info.mode).unwrap()
        };
        let mut want = want.to_vec();
        want[0] = preferred;
        assert_eq!(asm.bytes, want, "opcode ${code:02X} '{text}'");
        if preferred == code {
            checked += 1;
        }
        let got = &OPCODES[asm.bytes[0] as usize];
        assert_eq!((got.mnemonic, got.mode), (info.mnemonic, info.mode));
    }
    // 256 opcodes minus 11 extra JAMs, 19 extra NOPs, SBC $EB, and the second ANC/SHA.
    assert!(
        checked >= 220,
        "only {checked} opcodes assembled to themselves"
    );
}

#[test]
fn lower_case_and_spacing_variants() {
    for code in 0..=255u8 {
        let info = &OPCODES[code as usize];
        let [b1, b2] = operands(info.mode);
        let (text, _) = disassemble(0x1000, [code, b1, b2]);
        let upper = assemble_source("a", &format!("*=$1000\n {text}\n"), &Options::default())
            .unwrap()
            .bytes;
        let lower = text.to_lowercase().replace(",", " , ").replace("#", "# ");
        let lower = assemble_source("b", &format!("*=$1000\n\t{lower}\n"), &Options::default())
            .unwrap_or_else(|e| panic!("{lower}: {e}"))
            .bytes;
        assert_eq!(upper, lower, "{text}");
    }
}
