//! c64kit-opcodes: the NMOS 6502/6510 opcode table (all 256 opcodes, documented and
//! undocumented) and a one-instruction disassembler with VICE-monitor-like output.
//!
//! Undocumented mnemonics follow the names used by VICE and the "No More Secrets"
//! document: SLO RLA SRE RRA SAX LAX DCP ISC ANC ALR ARR SBX ANE LXA SHA SHX SHY TAS
//! LAS, NOP for the multi-byte no-ops and JAM for the 12 opcodes that halt the CPU.

use std::fmt::Write as _;

/// Addressing mode of an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// No operand (`CLC`, `RTS`).
    Implied,
    /// Operates on A (`ASL A`).
    Accumulator,
    /// `#$nn`
    Immediate,
    /// `$nn`
    ZeroPage,
    /// `$nn,X`
    ZeroPageX,
    /// `$nn,Y`
    ZeroPageY,
    /// `$nnnn`
    Absolute,
    /// `$nnnn,X`
    AbsoluteX,
    /// `$nnnn,Y`
    AbsoluteY,
    /// `($nnnn)` (JMP only)
    Indirect,
    /// `($nn,X)`
    IndirectX,
    /// `($nn),Y`
    IndirectY,
    /// Branch offset, signed 8 bits from the next instruction.
    Relative,
}

impl Mode {
    /// Number of operand bytes after the opcode (0, 1 or 2).
    pub const fn operand_len(self) -> u8 {
        match self {
            Mode::Implied | Mode::Accumulator => 0,
            Mode::Immediate
            | Mode::ZeroPage
            | Mode::ZeroPageX
            | Mode::ZeroPageY
            | Mode::IndirectX
            | Mode::IndirectY
            | Mode::Relative => 1,
            Mode::Absolute | Mode::AbsoluteX | Mode::AbsoluteY | Mode::Indirect => 2,
        }
    }

    /// Every mode, for iteration.
    pub const ALL: [Mode; 13] = [
        Mode::Implied,
        Mode::Accumulator,
        Mode::Immediate,
        Mode::ZeroPage,
        Mode::ZeroPageX,
        Mode::ZeroPageY,
        Mode::Absolute,
        Mode::AbsoluteX,
        Mode::AbsoluteY,
        Mode::Indirect,
        Mode::IndirectX,
        Mode::IndirectY,
        Mode::Relative,
    ];
}

/// One opcode's description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpInfo {
    /// Upper-case mnemonic, e.g. "LDA", "SLO", "JAM".
    pub mnemonic: &'static str,
    pub mode: Mode,
    /// Base cycle count. Branches take 2 when not taken, +1 when taken and +1 more when the
    /// target is in another page than the next instruction. JAM opcodes never finish; their
    /// value is 0.
    pub cycles: u8,
    /// One extra cycle when the indexed address crosses a page (reads only; stores and
    /// read-modify-write instructions always take the fixed count). Branches are `false`:
    /// their extra cycles follow the rule above.
    pub page_penalty: bool,
    /// Part of the documented MOS instruction set.
    pub documented: bool,
}

impl OpInfo {
    /// Total instruction length in bytes, opcode included.
    pub const fn size(&self) -> u8 {
        1 + self.mode.operand_len()
    }

    /// True for the 12 opcodes that halt the CPU.
    pub fn is_jam(&self) -> bool {
        self.mnemonic == "JAM"
    }
}

const fn op(mnemonic: &'static str, mode: Mode, cycles: u8, page_penalty: bool) -> OpInfo {
    OpInfo {
        mnemonic,
        mode,
        cycles,
        page_penalty,
        documented: true,
    }
}

/// Undocumented opcode.
const fn ud(mnemonic: &'static str, mode: Mode, cycles: u8, page_penalty: bool) -> OpInfo {
    OpInfo {
        mnemonic,
        mode,
        cycles,
        page_penalty,
        documented: false,
    }
}

const JAM: OpInfo = ud("JAM", Mode::Implied, 0, false);

use Mode::{
    Absolute as ABS, AbsoluteX as ABX, AbsoluteY as ABY, Accumulator as ACC, Immediate as IMM,
    Implied as IMP, Indirect as IND, IndirectX as IZX, IndirectY as IZY, Relative as REL,
    ZeroPage as ZP, ZeroPageX as ZPX, ZeroPageY as ZPY,
};

/// The table, indexed by opcode byte.
pub static OPCODES: [OpInfo; 256] = [
    // $00
    op("BRK", IMP, 7, false),
    op("ORA", IZX, 6, false),
    JAM,
    ud("SLO", IZX, 8, false),
    ud("NOP", ZP, 3, false),
    op("ORA", ZP, 3, false),
    op("ASL", ZP, 5, false),
    ud("SLO", ZP, 5, false),
    op("PHP", IMP, 3, false),
    op("ORA", IMM, 2, false),
    op("ASL", ACC, 2, false),
    ud("ANC", IMM, 2, false),
    ud("NOP", ABS, 4, false),
    op("ORA", ABS, 4, false),
    op("ASL", ABS, 6, false),
    ud("SLO", ABS, 6, false),
    // $10
    op("BPL", REL, 2, false),
    op("ORA", IZY, 5, true),
    JAM,
    ud("SLO", IZY, 8, false),
    ud("NOP", ZPX, 4, false),
    op("ORA", ZPX, 4, false),
    op("ASL", ZPX, 6, false),
    ud("SLO", ZPX, 6, false),
    op("CLC", IMP, 2, false),
    op("ORA", ABY, 4, true),
    ud("NOP", IMP, 2, false),
    ud("SLO", ABY, 7, false),
    ud("NOP", ABX, 4, true),
    op("ORA", ABX, 4, true),
    op("ASL", ABX, 7, false),
    ud("SLO", ABX, 7, false),
    // $20
    op("JSR", ABS, 6, false),
    op("AND", IZX, 6, false),
    JAM,
    ud("RLA", IZX, 8, false),
    op("BIT", ZP, 3, false),
    op("AND", ZP, 3, false),
    op("ROL", ZP, 5, false),
    ud("RLA", ZP, 5, false),
    op("PLP", IMP, 4, false),
    op("AND", IMM, 2, false),
    op("ROL", ACC, 2, false),
    ud("ANC", IMM, 2, false),
    op("BIT", ABS, 4, false),
    op("AND", ABS, 4, false),
    op("ROL", ABS, 6, false),
    ud("RLA", ABS, 6, false),
    // $30
    op("BMI", REL, 2, false),
    op("AND", IZY, 5, true),
    JAM,
    ud("RLA", IZY, 8, false),
    ud("NOP", ZPX, 4, false),
    op("AND", ZPX, 4, false),
    op("ROL", ZPX, 6, false),
    ud("RLA", ZPX, 6, false),
    op("SEC", IMP, 2, false),
    op("AND", ABY, 4, true),
    ud("NOP", IMP, 2, false),
    ud("RLA", ABY, 7, false),
    ud("NOP", ABX, 4, true),
    op("AND", ABX, 4, true),
    op("ROL", ABX, 7, false),
    ud("RLA", ABX, 7, false),
    // $40
    op("RTI", IMP, 6, false),
    op("EOR", IZX, 6, false),
    JAM,
    ud("SRE", IZX, 8, false),
    ud("NOP", ZP, 3, false),
    op("EOR", ZP, 3, false),
    op("LSR", ZP, 5, false),
    ud("SRE", ZP, 5, false),
    op("PHA", IMP, 3, false),
    op("EOR", IMM, 2, false),
    op("LSR", ACC, 2, false),
    ud("ALR", IMM, 2, false),
    op("JMP", ABS, 3, false),
    op("EOR", ABS, 4, false),
    op("LSR", ABS, 6, false),
    ud("SRE", ABS, 6, false),
    // $50
    op("BVC", REL, 2, false),
    op("EOR", IZY, 5, true),
    JAM,
    ud("SRE", IZY, 8, false),
    ud("NOP", ZPX, 4, false),
    op("EOR", ZPX, 4, false),
    op("LSR", ZPX, 6, false),
    ud("SRE", ZPX, 6, false),
    op("CLI", IMP, 2, false),
    op("EOR", ABY, 4, true),
    ud("NOP", IMP, 2, false),
    ud("SRE", ABY, 7, false),
    ud("NOP", ABX, 4, true),
    op("EOR", ABX, 4, true),
    op("LSR", ABX, 7, false),
    ud("SRE", ABX, 7, false),
    // $60
    op("RTS", IMP, 6, false),
    op("ADC", IZX, 6, false),
    JAM,
    ud("RRA", IZX, 8, false),
    ud("NOP", ZP, 3, false),
    op("ADC", ZP, 3, false),
    op("ROR", ZP, 5, false),
    ud("RRA", ZP, 5, false),
    op("PLA", IMP, 4, false),
    op("ADC", IMM, 2, false),
    op("ROR", ACC, 2, false),
    ud("ARR", IMM, 2, false),
    op("JMP", IND, 5, false),
    op("ADC", ABS, 4, false),
    op("ROR", ABS, 6, false),
    ud("RRA", ABS, 6, false),
    // $70
    op("BVS", REL, 2, false),
    op("ADC", IZY, 5, true),
    JAM,
    ud("RRA", IZY, 8, false),
    ud("NOP", ZPX, 4, false),
    op("ADC", ZPX, 4, false),
    op("ROR", ZPX, 6, false),
    ud("RRA", ZPX, 6, false),
    op("SEI", IMP, 2, false),
    op("ADC", ABY, 4, true),
    ud("NOP", IMP, 2, false),
    ud("RRA", ABY, 7, false),
    ud("NOP", ABX, 4, true),
    op("ADC", ABX, 4, true),
    op("ROR", ABX, 7, false),
    ud("RRA", ABX, 7, false),
    // $80
    ud("NOP", IMM, 2, false),
    op("STA", IZX, 6, false),
    ud("NOP", IMM, 2, false),
    ud("SAX", IZX, 6, false),
    op("STY", ZP, 3, false),
    op("STA", ZP, 3, false),
    op("STX", ZP, 3, false),
    ud("SAX", ZP, 3, false),
    op("DEY", IMP, 2, false),
    ud("NOP", IMM, 2, false),
    op("TXA", IMP, 2, false),
    ud("ANE", IMM, 2, false),
    op("STY", ABS, 4, false),
    op("STA", ABS, 4, false),
    op("STX", ABS, 4, false),
    ud("SAX", ABS, 4, false),
    // $90
    op("BCC", REL, 2, false),
    op("STA", IZY, 6, false),
    JAM,
    ud("SHA", IZY, 6, false),
    op("STY", ZPX, 4, false),
    op("STA", ZPX, 4, false),
    op("STX", ZPY, 4, false),
    ud("SAX", ZPY, 4, false),
    op("TYA", IMP, 2, false),
    op("STA", ABY, 5, false),
    op("TXS", IMP, 2, false),
    ud("TAS", ABY, 5, false),
    ud("SHY", ABX, 5, false),
    op("STA", ABX, 5, false),
    ud("SHX", ABY, 5, false),
    ud("SHA", ABY, 5, false),
    // $A0
    op("LDY", IMM, 2, false),
    op("LDA", IZX, 6, false),
    op("LDX", IMM, 2, false),
    ud("LAX", IZX, 6, false),
    op("LDY", ZP, 3, false),
    op("LDA", ZP, 3, false),
    op("LDX", ZP, 3, false),
    ud("LAX", ZP, 3, false),
    op("TAY", IMP, 2, false),
    op("LDA", IMM, 2, false),
    op("TAX", IMP, 2, false),
    ud("LXA", IMM, 2, false),
    op("LDY", ABS, 4, false),
    op("LDA", ABS, 4, false),
    op("LDX", ABS, 4, false),
    ud("LAX", ABS, 4, false),
    // $B0
    op("BCS", REL, 2, false),
    op("LDA", IZY, 5, true),
    JAM,
    ud("LAX", IZY, 5, true),
    op("LDY", ZPX, 4, false),
    op("LDA", ZPX, 4, false),
    op("LDX", ZPY, 4, false),
    ud("LAX", ZPY, 4, false),
    op("CLV", IMP, 2, false),
    op("LDA", ABY, 4, true),
    op("TSX", IMP, 2, false),
    ud("LAS", ABY, 4, true),
    op("LDY", ABX, 4, true),
    op("LDA", ABX, 4, true),
    op("LDX", ABY, 4, true),
    ud("LAX", ABY, 4, true),
    // $C0
    op("CPY", IMM, 2, false),
    op("CMP", IZX, 6, false),
    ud("NOP", IMM, 2, false),
    ud("DCP", IZX, 8, false),
    op("CPY", ZP, 3, false),
    op("CMP", ZP, 3, false),
    op("DEC", ZP, 5, false),
    ud("DCP", ZP, 5, false),
    op("INY", IMP, 2, false),
    op("CMP", IMM, 2, false),
    op("DEX", IMP, 2, false),
    ud("SBX", IMM, 2, false),
    op("CPY", ABS, 4, false),
    op("CMP", ABS, 4, false),
    op("DEC", ABS, 6, false),
    ud("DCP", ABS, 6, false),
    // $D0
    op("BNE", REL, 2, false),
    op("CMP", IZY, 5, true),
    JAM,
    ud("DCP", IZY, 8, false),
    ud("NOP", ZPX, 4, false),
    op("CMP", ZPX, 4, false),
    op("DEC", ZPX, 6, false),
    ud("DCP", ZPX, 6, false),
    op("CLD", IMP, 2, false),
    op("CMP", ABY, 4, true),
    ud("NOP", IMP, 2, false),
    ud("DCP", ABY, 7, false),
    ud("NOP", ABX, 4, true),
    op("CMP", ABX, 4, true),
    op("DEC", ABX, 7, false),
    ud("DCP", ABX, 7, false),
    // $E0
    op("CPX", IMM, 2, false),
    op("SBC", IZX, 6, false),
    ud("NOP", IMM, 2, false),
    ud("ISC", IZX, 8, false),
    op("CPX", ZP, 3, false),
    op("SBC", ZP, 3, false),
    op("INC", ZP, 5, false),
    ud("ISC", ZP, 5, false),
    op("INX", IMP, 2, false),
    op("SBC", IMM, 2, false),
    op("NOP", IMP, 2, false),
    ud("SBC", IMM, 2, false),
    op("CPX", ABS, 4, false),
    op("SBC", ABS, 4, false),
    op("INC", ABS, 6, false),
    ud("ISC", ABS, 6, false),
    // $F0
    op("BEQ", REL, 2, false),
    op("SBC", IZY, 5, true),
    JAM,
    ud("ISC", IZY, 8, false),
    ud("NOP", ZPX, 4, false),
    op("SBC", ZPX, 4, false),
    op("INC", ZPX, 6, false),
    ud("ISC", ZPX, 6, false),
    op("SED", IMP, 2, false),
    op("SBC", ABY, 4, true),
    ud("NOP", IMP, 2, false),
    ud("ISC", ABY, 7, false),
    ud("NOP", ABX, 4, true),
    op("SBC", ABX, 4, true),
    op("INC", ABX, 7, false),
    ud("ISC", ABX, 7, false),
];

/// Other names some assemblers and documents use for undocumented mnemonics, mapped to
/// the names in [`OPCODES`]. Assemblers accept these as synonyms.
pub const ALIASES: &[(&str, &str)] = &[
    ("AXS", "SBX"),
    ("ASR", "ALR"),
    ("DCM", "DCP"),
    ("ISB", "ISC"),
    ("INS", "ISC"),
    ("LSE", "SRE"),
    ("ASO", "SLO"),
    ("AXA", "SHA"),
    ("AHX", "SHA"),
    ("SXA", "SHX"),
    ("XAS", "SHX"),
    ("SYA", "SHY"),
    ("SAY", "SHY"),
    ("SHS", "TAS"),
    ("LAE", "LAS"),
    ("LAR", "LAS"),
    ("XAA", "ANE"),
    ("OAL", "LXA"),
    ("ATX", "LXA"),
    ("AAX", "SAX"),
    ("ANC2", "ANC"),
    ("KIL", "JAM"),
    ("HLT", "JAM"),
    ("DOP", "NOP"),
    ("TOP", "NOP"),
    ("SKB", "NOP"),
    ("SKW", "NOP"),
    ("USBC", "SBC"),
];

/// The preferred opcode for `mnemonic` (upper case, aliases resolved by the caller) in
/// `mode`. Documented opcodes win over undocumented ones with the same name and mode
/// (e.g. SBC #imm gives $E9, not $EB; NOP implied gives $EA).
pub fn find_opcode(mnemonic: &str, mode: Mode) -> Option<u8> {
    let mut best: Option<u8> = None;
    for (code, info) in OPCODES.iter().enumerate() {
        if info.mnemonic == mnemonic && info.mode == mode && !info.is_jam() {
            match best {
                Some(b) if OPCODES[b as usize].documented || !info.documented => {}
                _ => best = Some(code as u8),
            }
        }
    }
    if best.is_none() && mnemonic == "JAM" && mode == Mode::Implied {
        best = Some(0x02);
    }
    best
}

/// True if any opcode has this (upper-case) mnemonic.
pub fn is_mnemonic(mnemonic: &str) -> bool {
    OPCODES.iter().any(|o| o.mnemonic == mnemonic)
}

/// Disassemble one instruction at `pc` whose bytes start with `bytes[0]`. Returns the text
/// (VICE-monitor style, e.g. "LDA $1234,X", "BNE $0830", "LDA #$0A", "ASL A", "JAM") and
/// the instruction length in bytes. Unused trailing bytes are ignored.
pub fn disassemble(pc: u16, bytes: [u8; 3]) -> (String, u8) {
    let info = &OPCODES[bytes[0] as usize];
    let b = bytes[1];
    let w = u16::from_le_bytes([bytes[1], bytes[2]]);
    let mut s = String::from(info.mnemonic);
    // Writing to a String cannot fail.
    let _ = match info.mode {
        Mode::Implied => Ok(()),
        Mode::Accumulator => write!(s, " A"),
        Mode::Immediate => write!(s, " #${b:02X}"),
        Mode::ZeroPage => write!(s, " ${b:02X}"),
        Mode::ZeroPageX => write!(s, " ${b:02X},X"),
        Mode::ZeroPageY => write!(s, " ${b:02X},Y"),
        Mode::Absolute => write!(s, " ${w:04X}"),
        Mode::AbsoluteX => write!(s, " ${w:04X},X"),
        Mode::AbsoluteY => write!(s, " ${w:04X},Y"),
        Mode::Indirect => write!(s, " (${w:04X})"),
        Mode::IndirectX => write!(s, " (${b:02X},X)"),
        Mode::IndirectY => write!(s, " (${b:02X}),Y"),
        Mode::Relative => {
            let target = pc.wrapping_add(2).wrapping_add(b as i8 as u16);
            write!(s, " ${target:04X}")
        }
    };
    (s, info.size())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disassembly_formats() {
        assert_eq!(
            disassemble(0x0800, [0xBD, 0x34, 0x12]),
            ("LDA $1234,X".into(), 3)
        );
        assert_eq!(
            disassemble(0x0820, [0xD0, 0x0E, 0x00]),
            ("BNE $0830".into(), 2)
        );
        assert_eq!(
            disassemble(0x0830, [0xD0, 0xFC, 0x00]),
            ("BNE $082E".into(), 2)
        );
        assert_eq!(disassemble(0, [0xA9, 0x0A, 0x00]), ("LDA #$0A".into(), 2));
        assert_eq!(disassemble(0, [0x02, 0, 0]), ("JAM".into(), 1));
        assert_eq!(disassemble(0, [0x0A, 0, 0]), ("ASL A".into(), 1));
        assert_eq!(
            disassemble(0, [0x6C, 0xFF, 0x10]),
            ("JMP ($10FF)".into(), 3)
        );
        assert_eq!(disassemble(0, [0xB1, 0xFB, 0]), ("LDA ($FB),Y".into(), 2));
        assert_eq!(disassemble(0, [0xA1, 0xFB, 0]), ("LDA ($FB,X)".into(), 2));
        assert_eq!(disassemble(0, [0xB6, 0x10, 0]), ("LDX $10,Y".into(), 2));
        assert_eq!(
            disassemble(0xFFFF, [0xF0, 0x01, 0]),
            ("BEQ $0002".into(), 2)
        );
    }

    #[test]
    fn table_shape() {
        let jams: Vec<usize> = (0..256).filter(|&i| OPCODES[i].is_jam()).collect();
        assert_eq!(
            jams,
            vec![0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2]
        );
        // The documented set has 151 opcodes.
        assert_eq!(OPCODES.iter().filter(|o| o.documented).count(), 151);
        // Opcode column $x1/$x5/$x9/$xD holds the ALU group with the usual mode pattern.
        for hi in 0..8usize {
            let base = hi * 0x20;
            assert_eq!(OPCODES[base + 0x01].mode, Mode::IndirectX);
            assert_eq!(OPCODES[base + 0x11].mode, Mode::IndirectY);
            assert_eq!(OPCODES[base + 0x10].mode, Mode::Relative);
        }
    }

    #[test]
    fn find_prefers_documented() {
        assert_eq!(find_opcode("SBC", Mode::Immediate), Some(0xE9));
        assert_eq!(find_opcode("NOP", Mode::Implied), Some(0xEA));
        assert_eq!(find_opcode("NOP", Mode::Immediate), Some(0x80));
        assert_eq!(find_opcode("LDA", Mode::Indirect), None);
        assert_eq!(find_opcode("JAM", Mode::Implied), Some(0x02));
        for (code, info) in OPCODES.iter().enumerate() {
            let found = find_opcode(info.mnemonic, info.mode).expect("every entry findable");
            assert_eq!(
                OPCODES[found as usize].mnemonic, info.mnemonic,
                "opcode {code:02x}"
            );
        }
    }

    #[test]
    fn aliases_point_at_real_mnemonics() {
        for (alias, name) in ALIASES {
            assert!(is_mnemonic(name), "{alias} -> {name}");
            assert!(!is_mnemonic(alias), "{alias} shadows a real mnemonic");
        }
    }
}
