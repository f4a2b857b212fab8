//! The 6510 port's input bits as a program reads them at $0001: pulled-up bits read 1, bit 5
//! reads 0, bit 3 keeps the level it last drove, and bits 6 and 7 keep their last driven 1
//! as a charge that fades after about a third of a second (VICE's model).

use c64kit_machine::memory::PORT_FALL_OFF_CYCLES;
use c64kit_machine::{Machine, StopReason};

/// Runs `code` at $C000 (it must end in `JMP *`) and returns what it left at $FB/$FC.
fn run(m: &mut Machine, code: &[u8]) -> [u8; 2] {
    m.load_raw(0xC000, code);
    m.start_at(0xC000, 0x0801);
    m.stop_on_stuck_loop = true;
    let stop = m.run(10_000_000);
    assert!(matches!(stop, StopReason::StuckLoop { .. }), "{stop:?}");
    [m.bus.ram[0xFB], m.bus.ram[0xFC]]
}

/// SEI; drive $F7 with every bit output; make bits 3, 6, 7 inputs again ($37 DDR);
/// LDA $01 -> $FB; wait `loops` x 2,304 cycles; LDA $01 -> $FC; JMP *.
fn program(loops: u8) -> Vec<u8> {
    vec![
        0x78, // SEI
        0xA9, 0xFF, 0x85, 0x00, // LDA #$FF; STA $00
        0xA9, 0xFF, 0x85, 0x01, // LDA #$FF; STA $01 (bits 3, 6, 7 driven high)
        0xA9, 0x37, 0x85, 0x00, // LDA #$37; STA $00: bits 3, 6, 7 inputs now
        0xA5, 0x01, 0x85, 0xFB, // LDA $01; STA $FB
        0xA0, loops, // LDY #loops
        0xA2, 0x00, // LDX #0
        0xCA, 0xEA, 0xEA, 0xD0, 0xFB, // DEX; NOP; NOP; BNE (256 x 9 cycles)
        0x88, 0xD0, 0xF6, // DEY; BNE
        0xA5, 0x01, 0x85, 0xFC, // LDA $01; STA $FC
        0x4C, 0x21, 0xC0, // JMP * (at $C021)
    ]
}

#[test]
fn floating_bits_keep_a_charge_then_fade() {
    let mut m = Machine::builtin();
    let [soon, later] = run(&mut m, &program(1));
    // Bits 0-2 and 5 are outputs ($37 DDR, $FF data): 1. Bit 4 (input) pulled up: 1.
    // Bit 3 (input) keeps the 1 it drove; 6 and 7 still hold their charge.
    assert_eq!(soon, 0xFF);
    assert_eq!(later, 0xFF, "2,304 cycles later the charge is still there");

    let mut m = Machine::builtin();
    let loops = (PORT_FALL_OFF_CYCLES / 2_304 + 20) as u8;
    assert!(u64::from(loops) * 2_304 > PORT_FALL_OFF_CYCLES);
    let [soon, later] = run(&mut m, &program(loops));
    assert_eq!(soon, 0xFF);
    assert_eq!(
        later, 0x3F,
        "bits 6 and 7 faded to 0; bit 3 keeps its level"
    );
}

#[test]
fn a_bit_never_driven_high_reads_0_and_bit_5_as_input_reads_0() {
    let mut m = Machine::builtin();
    // DDR $07: only the banking bits are outputs; data $FF written while 3-7 are inputs.
    let code = [
        0x78, 0xA9, 0x07, 0x85, 0x00, 0xA9, 0xFF, 0x85, 0x01, 0xA5, 0x01, 0x85, 0xFB, 0x85, 0xFC,
        0x4C, 0x0F, 0xC0,
    ];
    let [v, _] = run(&mut m, &code);
    // Bits 0-2 driven 1, bit 4 pulled up, bit 5 (input) 0, bit 3 never driven high since
    // power-on ($2F DDR, $37 data: bit 3 output 0): 0; bits 6 and 7 were inputs at power-on
    // and a write while input charges nothing: 0.
    assert_eq!(v, 0x17);
}
