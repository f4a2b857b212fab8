//! CIA 2's interrupt line is the 6510's NMI, which is edge-triggered: every fall of the line
//! is an NMI, however short the release before it. A timer with latch 1 underflows every
//! other cycle, so after the handler's ICR read the line is high for only a cycle or two;
//! on the 6526A (which asserts in the underflow cycle itself) it is always one cycle, which
//! falls between two of the CPU's interrupt polls.

use c64kit_machine::{CiaModel, Machine, StopReason};

/// Timer A of CIA 2 with latch 1, its NMI enabled; the handler at $C040 counts in $FB and
/// acknowledges, until the tenth NMI jumps to itself at $C04C. If the NMIs stop, the main
/// program's wait runs out and it jumps to itself at $C032.
const PROGRAM: [u8; 0x4F] = {
    let mut code = [0xEA; 0x4F];
    let main = [
        0x78, // SEI
        0xA9, 0x35, 0x85, 0x01, // LDA #$35; STA $01: RAM at $E000-$FFFF, I/O in
        0xA9, 0x40, 0x8D, 0xFA, 0xFF, // LDA #<nmi; STA $FFFA
        0xA9, 0xC0, 0x8D, 0xFB, 0xFF, // LDA #>nmi; STA $FFFB
        0xA9, 0x7F, 0x8D, 0x0D, 0xDD, // LDA #$7F; STA $DD0D
        0xAD, 0x0D, 0xDD, // LDA $DD0D
        0xA9, 0x01, 0x8D, 0x04, 0xDD, // LDA #1; STA $DD04
        0xA9, 0x00, 0x8D, 0x05, 0xDD, // LDA #0; STA $DD05
        0x85, 0xFB, // STA $FB
        0xA9, 0x81, 0x8D, 0x0D, 0xDD, // LDA #$81; STA $DD0D
        0xA9, 0x11, 0x8D, 0x0E, 0xDD, // LDA #$11; STA $DD0E: load, start, continuous
        0xA2, 0x00, // LDX #0
        0xCA, 0xD0, 0xFD, // DEX; BNE: 1,280 cycles
        0x4C, 0x32, 0xC0, // $C032: JMP * (the NMIs stopped)
    ];
    let handler = [
        0xE6, 0xFB, // $C040: INC $FB
        0xA5, 0xFB, 0xC9, 0x0A, // LDA $FB; CMP #10
        0xF0, 0x04, // BEQ $C04C
        0xAD, 0x0D, 0xDD, // LDA $DD0D: acknowledge
        0x40, // RTI
        0x4C, 0x4C, 0xC0, // $C04C: JMP * (ten NMIs)
    ];
    let mut i = 0;
    while i < main.len() {
        code[i] = main[i];
        i += 1;
    }
    let mut i = 0;
    while i < handler.len() {
        code[0x40 + i] = handler[i];
        i += 1;
    }
    code
};

#[test]
fn each_fall_of_cia_2s_line_is_an_nmi() {
    for model in [CiaModel::Mos6526, CiaModel::Mos6526A] {
        let mut m = Machine::builtin();
        m.bus.cia2.set_model(model);
        m.load_raw(0xC000, &PROGRAM);
        m.start_at(0xC000, 0x0801);
        // The handler's JMP * never ends (the line stays low, unacknowledged): run a while.
        let stop = m.run(20_000);
        assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
        assert_eq!(m.bus.ram[0xFB], 10, "{model:?}: NMIs taken");
        assert_eq!(m.cpu.pc, 0xC04C, "{model:?}");
    }
}
