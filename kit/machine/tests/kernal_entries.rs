//! The KERNAL's internal entries cc65's C64 library calls (LP2 $E5B4 as KBDREAD, SCOLOR
//! $EA24 as UPDCRAMPTR) and the revision byte its `get_ostype()` reads ($FF80): the
//! registers, flags and RAM the real routines leave. With Commodore's ROM images in
//! `C64KIT_ROMS` (a folder: CI has none) the same program also runs on the real KERNAL and
//! must leave the same.

use c64kit_machine::{Machine, Prg, RomPaths, Roms, StopReason};

/// Where the program stores what each call left: A, X, Y, P (as PHP pushes it).
const RESULTS: u16 = 0x0340;
/// The JAM that ends the program.
const END: u16 = 0x0820 + PROGRAM.len() as u16 - 1;

/// At $0820 ("10 SYS2080" before it).
#[rustfmt::skip]
const PROGRAM: [u8; 127] = [
    0x78,                   // SEI
    // SCOLOR with PNT = $06C8 (row 18 of the screen at $0400), X/Y/C to be kept.
    0xA9, 0xC8, 0x85, 0xD1, // LDA #$C8; STA $D1
    0xA9, 0x06, 0x85, 0xD2, // LDA #$06; STA $D2
    0xA9, 0x00, 0x85, 0xF3, 0x85, 0xF4, // LDA #0; STA $F3; STA $F4
    0xA2, 0x11, 0xA0, 0x22, 0x38, // LDX #$11; LDY #$22; SEC
    0x20, 0x24, 0xEA,       // JSR $EA24
    0x08, 0x8D, 0x40, 0x03, 0x8E, 0x41, 0x03, 0x8C, 0x42, 0x03, // PHP; STA/STX/STY $0340-2
    0x68, 0x8D, 0x43, 0x03, // PLA; STA $0343
    // LP2 with three keys in the buffer ("ABC") and $EE after them, I and C set.
    0xA9, 0x03, 0x85, 0xC6, // LDA #3; STA $C6
    0xA9, 0x41, 0x8D, 0x77, 0x02, // LDA #"A"; STA $0277
    0xA9, 0x42, 0x8D, 0x78, 0x02, // LDA #"B"; STA $0278
    0xA9, 0x43, 0x8D, 0x79, 0x02, // LDA #"C"; STA $0279
    0xA9, 0xEE, 0x8D, 0x7A, 0x02, // LDA #$EE; STA $027A
    0xA2, 0x55, 0xA0, 0x66, 0x38, // LDX #$55; LDY #$66; SEC
    0x20, 0xB4, 0xE5,       // JSR $E5B4
    0x08, 0x78,             // PHP; SEI
    0x8D, 0x44, 0x03, 0x8E, 0x45, 0x03, 0x8C, 0x46, 0x03, // STA/STX/STY $0344-6
    0x68, 0x8D, 0x47, 0x03, // PLA; STA $0347
    0xA5, 0xC6, 0x8D, 0x4D, 0x03, // LDA $C6; STA $034D
    0xAD, 0x80, 0xFF, 0x8D, 0x48, 0x03, // LDA $FF80; STA $0348
    // GETIN with one key ("Z") in the buffer, I and C set: SEI, then LP2.
    0xA9, 0x01, 0x85, 0xC6, // LDA #1; STA $C6
    0xA9, 0x5A, 0x8D, 0x77, 0x02, // LDA #"Z"; STA $0277
    0xA2, 0x77, 0x38, 0x78, // LDX #$77; SEC; SEI
    0x20, 0xE4, 0xFF,       // JSR GETIN
    0x08, 0x78,             // PHP; SEI
    0x8D, 0x49, 0x03, 0x8E, 0x4A, 0x03, 0x8C, 0x4B, 0x03, // STA/STX/STY $0349-B
    0x68, 0x8D, 0x4C, 0x03, // PLA; STA $034C
    0x02,                   // JAM: the end
];

fn program() -> Prg {
    let mut data = vec![
        0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0,
    ];
    data.resize(0x0820 - 0x0801, 0);
    data.extend_from_slice(&PROGRAM);
    Prg {
        load_address: 0x0801,
        data,
    }
}

/// What the program left: the results ($0340-$034D), USER ($F3/$F4), NDX ($C6) and the
/// keyboard buffer ($0277-$027A).
fn run(roms: Roms) -> Vec<u8> {
    let mut m = Machine::new(roms);
    m.load_and_run_prg(&program()).unwrap();
    let stop = m.run(1_000_000);
    assert_eq!(
        stop,
        StopReason::Jammed {
            pc: END,
            opcode: 0x02
        }
    );
    let mut left: Vec<u8> = (0..14).map(|i| m.bus.peek(RESULTS + i)).collect();
    left.extend([0xF3, 0xF4, 0xC6].map(|a| m.bus.peek(a)));
    left.extend((0x0277..0x027B).map(|a| m.bus.peek(a)));
    left
}

#[test]
fn scolor_lp2_and_the_revision_byte_leave_what_the_real_kernal_leaves() {
    let left = run(Roms::builtin());
    // SCOLOR: USER = PNT with the colour RAM's page ($06 & 3 | $D8); A = that page, N set,
    // Z clear; X, Y, C and I as they were. P as pushed: N, bits 5 and 4, I, C.
    assert_eq!(left[..4], [0xDA, 0x11, 0x22, 0xB5], "SCOLOR's A X Y P");
    assert_eq!(left[14..16], [0xC8, 0xDA], "USER after SCOLOR");
    // LP2: A = Y = the first key, X = the old count; the next three bytes moved down (the
    // $EE after the keys too), NDX one less; CLI and CLC (and N, Z from "A").
    assert_eq!(left[4..8], [0x41, 0x03, 0x41, 0x30], "LP2's A X Y P");
    assert_eq!(left[13], 2, "NDX after LP2");
    // LP2 left 42 43 EE EE; GETIN then moved one byte down.
    assert_eq!(left[17..21], [0x43, 0x43, 0xEE, 0xEE], "the buffer");
    // 901227-03, the KERNAL c64kit follows.
    assert_eq!(left[8], 3, "the revision byte at $FF80");
    // GETIN takes its key with LP2: the same results, I clear after it.
    assert_eq!(left[9..13], [0x5A, 0x01, 0x5A, 0x30], "GETIN's A X Y P");
    assert_eq!(left[16], 0, "NDX after GETIN");
}

#[test]
fn the_real_kernal_leaves_the_same() {
    let Some(dir) = std::env::var_os("C64KIT_ROMS") else {
        println!("C64KIT_ROMS is not set: the comparison with Commodore's KERNAL is skipped");
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let paths = RomPaths {
        kernal: Some(dir.join(c64kit_machine::roms::COMMODORE_KERNAL_IMAGE)),
        ..RomPaths::default()
    };
    let real = run(Roms::load(&paths).expect("the KERNAL image in C64KIT_ROMS"));
    assert_eq!(run(Roms::builtin()), real);
}

/// The README's table of the KERNAL's internal entries lists every entry c64kit provides
/// outside the jump table, and nothing else: every trap that no jump-table entry leads to
/// (directly, or through its RAM vector's default) and the entries our image holds as code.
#[test]
fn the_readme_lists_every_internal_entry() {
    use c64kit_machine::kernal::{rom, Trap};
    use std::collections::BTreeSet;
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md at the workspace's root");
    let section = readme
        .split("### The KERNAL and BASIC routines c64kit provides")
        .nth(1)
        .expect("README.md has a section \"The KERNAL and BASIC routines c64kit provides\"");
    let listed: BTreeSet<u16> = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.trim_start_matches("| $").get(..4))
        .filter_map(|a| u16::from_str_radix(a, 16).ok())
        .collect();
    let image = rom::build();
    let at = |a: u16| image[(a - rom::ROM_BASE) as usize];
    let word = |a: u16| u16::from_le_bytes([at(a), at(a + 1)]);
    let mut reached = BTreeSet::new();
    for entry in (0xFF81..=0xFFF3).step_by(3) {
        match at(entry) {
            0x4C => reached.insert(word(entry + 1)),
            0x6C => {
                let vector = word(entry + 1);
                let (_, default) = rom::RAM_VECTORS.iter().find(|v| v.0 == vector).unwrap();
                reached.insert(*default)
            }
            op => panic!("jump-table entry ${entry:04X} holds ${op:02X}"),
        };
    }
    let mut internal: BTreeSet<u16> = Trap::all()
        .map(Trap::address)
        .filter(|a| !reached.contains(a))
        .collect();
    internal.extend([
        rom::IRQ_ACK_EXIT,
        rom::IRQ_EXIT,
        rom::NMI_DEFAULT,
        rom::NMI_EXIT,
        rom::REVISION.0,
    ]);
    // The trap inside the NMI handler is its part after the registers are saved; the
    // resume point after an interrupt inside a long trap is c64kit's own (the KERNAL
    // section's text names it), not a routine anyone calls.
    internal.remove(&Trap::NmiDefault.address());
    internal.remove(&Trap::Resume.address());
    let hex = |set: &BTreeSet<u16>| set.iter().map(|a| format!("${a:04X}")).collect::<Vec<_>>();
    assert_eq!(
        hex(&listed),
        hex(&internal),
        "the README's table (left) and the KERNAL's internal entries (right) differ"
    );
}
