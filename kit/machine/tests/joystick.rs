//! Scripted joysticks as a game reads them: straight from CIA 1's ports, never through
//! GETIN. Joystick 2 is port A ($DC00), joystick 1 port B ($DC01), pressed lines low.

use c64kit_machine::{Machine, Prg, StopReason};

/// "10 SYS2080", then: wait for fire on $DC00 (bit 4 low), CHROUT "F"; wait for it to be
/// released, CHROUT "R"; wait for up on $DC01 (bit 0 low), CHROUT "U"; RTS.
fn program() -> Prg {
    let mut data = vec![
        0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0,
    ];
    data.resize(0x0820 - 0x0801, 0);
    #[rustfmt::skip]
    data.extend_from_slice(&[
        0xAD, 0x00, 0xDC, 0x29, 0x10, 0xD0, 0xF9, // $0820 LDA $DC00; AND #$10; BNE $0820
        0xA9, b'F', 0x20, 0xD2, 0xFF,             // $0827 LDA #"F"; JSR CHROUT
        0xAD, 0x00, 0xDC, 0x29, 0x10, 0xF0, 0xF9, // $082C LDA $DC00; AND #$10; BEQ $082C
        0xA9, b'R', 0x20, 0xD2, 0xFF,             // $0833 LDA #"R"; JSR CHROUT
        0xAD, 0x01, 0xDC, 0x29, 0x01, 0xD0, 0xF9, // $0838 LDA $DC01; AND #$01; BNE $0838
        0xA9, b'U', 0x20, 0xD2, 0xFF,             // $083F LDA #"U"; JSR CHROUT
        0x60,
    ]);
    Prg {
        load_address: 0x0801,
        data,
    }
}

#[test]
fn a_game_reads_the_scripted_joysticks_on_their_cycles() {
    let mut m = Machine::builtin();
    m.load_and_run_prg(&program()).unwrap();
    let keys = c64kit_basic::parse_key_script("{WAIT 100000}{JOY2 FIRE 2f}{JOY1 UP 1f}").unwrap();
    m.feed_keys(keys);
    let start = m.cycles();
    // Nothing before the wait is over.
    assert!(matches!(m.run(90_000), StopReason::CycleBudget { .. }));
    assert_eq!(m.transcript(), b"");
    // Fire is seen, then its release two frames later, then up on the other port.
    assert!(matches!(m.run(20_000), StopReason::CycleBudget { .. }));
    assert_eq!(m.transcript(), b"F");
    assert_eq!(m.run(1_000_000), StopReason::ReturnedToBasic);
    assert_eq!(m.transcript(), b"FRU");
    // Fire from cycle 100,000 of the script for 2 frames, then up for 1: the program
    // returns a few cycles after the last hold began.
    let end = m.cycles() - start;
    assert!(
        end > 100_000 + 2 * 19_656 && end < 100_000 + 3 * 19_656,
        "{end}"
    );
}
