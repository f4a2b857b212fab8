//! The BASIC ROM routines machine-code programs call to print (STROUT, LINPRT) work without
//! a BASIC image; with a real image (or anywhere else in the BASIC area) nothing is trapped.

use c64kit_machine::{Machine, Prg, StopReason};

/// "10 SYS2080", then: LDA #<$0830; LDY #>$0830; JSR STROUT; LDA #$12; LDX #$34;
/// JSR LINPRT; RTS, and at $0830 the string `HI"X` (STROUT stops at the quote).
fn program() -> Prg {
    let mut data = vec![
        0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0,
    ];
    data.resize(0x0820 - 0x0801, 0);
    data.extend_from_slice(&[
        0xA9, 0x30, 0xA0, 0x08, 0x20, 0x1E, 0xAB, 0xA9, 0x12, 0xA2, 0x34, 0x20, 0xCD, 0xBD, 0x60,
    ]);
    data.resize(0x0830 - 0x0801, 0);
    data.extend_from_slice(b"HI\"X\0");
    Prg {
        load_address: 0x0801,
        data,
    }
}

#[test]
fn strout_and_linprt_print_without_a_basic_image() {
    let mut m = Machine::builtin();
    m.load_and_run_prg(&program()).unwrap();
    assert_eq!(m.run(1_000_000), StopReason::ReturnedToBasic);
    assert_eq!(m.transcript(), b"HI4660");
}

#[test]
fn with_a_real_basic_image_nothing_is_trapped() {
    let mut m = Machine::builtin();
    m.bus.roms.trap_basic = false;
    m.load_and_run_prg(&program()).unwrap();
    assert_eq!(
        m.run(1_000_000),
        StopReason::Jammed {
            pc: 0xAB1E,
            opcode: 0x02
        }
    );
}

#[test]
fn an_internal_kernal_address_is_reported_as_not_provided() {
    // JSR $E536: inside the real KERNAL's screen editor, not an entry of ours.
    let mut prg = program();
    prg.data[0x0820 - 0x0801..0x0823 - 0x0801].copy_from_slice(&[0x20, 0x36, 0xE5]);
    let mut m = Machine::builtin();
    m.load_and_run_prg(&prg).unwrap();
    let stop = m.run(1_000_000);
    assert!(
        matches!(stop, StopReason::Unimplemented { pc: 0xE536, .. }),
        "{stop:?}"
    );
    assert_eq!(stop.exit_code(), 9);
}
