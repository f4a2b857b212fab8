//! The 6510 polls its IRQ input in an instruction's next-to-last cycle, and sees the VIC-II
//! release the line a cycle after the write that acknowledges it: `CLI; INC $D019` (whose
//! first write acknowledges, in that very cycle) still takes the interrupt after the INC,
//! as `CLI; STA $D019` does (its write is the last cycle, after the poll). VICE keeps a
//! released source pending for the CPU's check for two more cycles; VICE testprogs
//! interrupts/irq-ackn-bug/irq-ackn_after_cli2.txt notes real C64s taking it there.

use c64kit_machine::{Machine, StopReason};

/// With the raster interrupt's flag set and enabled under SEI: `before` (bytes), CLI, then
/// `after`, then SEI, $FC = 2 and `JMP *` at $C045; the interrupt handler at $C050 sets $FB = 1
/// and jumps to itself. Returns ($FB, $FC, PC).
fn run(before: &[u8], after: &[u8]) -> (u8, u8, u16) {
    let mut code = vec![
        0x78, // SEI
        0xA9, 0x35, 0x85, 0x01, // LDA #$35; STA $01: RAM at $E000-$FFFF
        0xA9, 0x50, 0x8D, 0xFE, 0xFF, // LDA #<irq; STA $FFFE
        0xA9, 0xC0, 0x8D, 0xFF, 0xFF, // LDA #>irq; STA $FFFF
        0xA9, 0x7F, 0x8D, 0x0D, 0xDC, // LDA #$7F; STA $DC0D: no CIA interrupts
        0xAD, 0x0D, 0xDC, // LDA $DC0D
        0xA9, 0x01, 0x8D, 0x1A, 0xD0, // LDA #1; STA $D01A: raster interrupt on
        0xAD, 0x19, 0xD0, // wait: LDA $D019
        0x4A, 0x90, 0xFA, // LSR; BCC wait (until the compare line came)
    ];
    code.extend_from_slice(before);
    code.push(0x58); // CLI
    code.extend_from_slice(after);
    code.resize(0x40, 0xEA);
    code.extend_from_slice(&[0x78, 0xA9, 0x02, 0x85, 0xFC, 0x4C, 0x45, 0xC0]); // SEI; $FC = 2; JMP *
    code.resize(0x50, 0xEA);
    code.extend_from_slice(&[0xA9, 0x01, 0x85, 0xFB, 0x4C, 0x54, 0xC0]); // $FB = 1; JMP *
    let mut m = Machine::builtin();
    m.load_raw(0xC000, &code);
    m.start_at(0xC000, 0x0801);
    m.bus.ram[0xFB] = 0;
    m.bus.ram[0xFC] = 0;
    let stop = m.run(100_000);
    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
    (m.bus.ram[0xFB], m.bus.ram[0xFC], m.cpu.pc)
}

#[test]
fn an_acknowledge_in_the_polled_cycle_comes_too_late() {
    let (inc, sta) = ([0xEE, 0x19, 0xD0], [0xA9, 0x01, 0x8D, 0x19, 0xD0]);
    // INC $D019: its first write (the old value, 1) acknowledges in the polled cycle.
    assert_eq!(run(&[], &inc), (1, 0, 0xC054), "CLI; INC $D019");
    // STA $D019 acknowledges in its last cycle, after the poll.
    assert_eq!(run(&[], &sta), (1, 0, 0xC054), "CLI; LDA #1; STA $D019");
    // Acknowledged before the CLI, it is gone by the next poll: the program goes on.
    assert_eq!(run(&inc, &[]), (0, 2, 0xC045), "INC $D019; CLI");
    assert_eq!(run(&sta, &[]), (0, 2, 0xC045), "LDA #1; STA $D019; CLI");
}
