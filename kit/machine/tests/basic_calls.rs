//! The BASIC ROM routines machine-code programs call to print (STROUT, LINPRT) and to RUN
//! a program they unpacked (LNKPRG, RUNC, NEWSTT) are our BASIC's own code, there without a
//! Commodore image; with no BASIC at all (a KERNAL image given alone) a call stops at the
//! routine's address. So do the screen editor's entries programs call directly ($E518,
//! $E536, $E544, $E566).

use c64kit_machine::{Machine, Prg, Program, Roms, RunSettings, StopReason};

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
fn strout_and_linprt_print_on_our_basic() {
    let mut m =
        Machine::start(Some(&Program::from_prg(&program())), RunSettings::default()).unwrap();
    assert_eq!(m.run(1_000_000), StopReason::ReturnedToBasic);
    // The program's RTS goes back into BASIC, which ends it at READY.
    assert_eq!(m.transcript(), b"HI4660\r\nREADY.\r\n");
}

#[test]
fn with_no_basic_a_call_stops_at_the_routine() {
    let mut m = Machine::new(Roms::without_basic());
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
    // JSR $E716: inside the real KERNAL's screen editor, not an entry of ours.
    let mut prg = program();
    prg.data[0x0820 - 0x0801..0x0823 - 0x0801].copy_from_slice(&[0x20, 0x16, 0xE7]);
    let mut m = Machine::builtin();
    m.load_and_run_prg(&prg).unwrap();
    let stop = m.run(1_000_000);
    assert!(
        matches!(stop, StopReason::Unimplemented { pc: 0xE716, .. }),
        "{stop:?}"
    );
    assert_eq!(stop.exit_code(), 9);
}

/// The program with its code at $0820 replaced by `code` (at most 16 bytes) and `tail` at
/// $0830.
fn program_with(code: &[u8], tail: &[u8]) -> Prg {
    let mut prg = program();
    let at = 0x0820 - 0x0801;
    prg.data[at..at + 16].fill(0xEA);
    prg.data[at..at + code.len()].copy_from_slice(code);
    prg.data.truncate(0x0830 - 0x0801);
    prg.data.extend_from_slice(tail);
    prg
}

/// As a decruncher ends: the unpacked BASIC program (here the stub, its SYS now 2096 and its
/// link garbage) is relinked (LNKPRG), RUNC and the statement loop NEWSTT run it.
fn decruncher(first_token: u8) -> Prg {
    let mut prg = program_with(
        &[
            0xA9, 0xFF, 0x8D, 0x01, 0x08, 0x8D, 0x02, 0x08, // link := $FFFF
            0x20, 0x33, 0xA5, // JSR LNKPRG
            0x20, 0x59, 0xA6, // JSR RUNC
            0x4C, 0xAE, // JMP NEWSTT (its high byte at $0830)
        ],
        &[0xA7, 0xA9, b'A', 0x20, 0xD2, 0xFF, 0x60], // $0831: LDA #'A'; JSR CHROUT; RTS
    );
    prg.data[0x0805 - 0x0801] = first_token;
    prg.data[0x0806 - 0x0801..0x080A - 0x0801].copy_from_slice(b"2097");
    prg
}

#[test]
fn a_decruncher_runs_the_unpacked_program_through_runc_and_newstt() {
    let mut m = Machine::builtin();
    let prg = decruncher(0x9E);
    m.load_prg(&prg);
    m.start_at(0x0820, prg.end_address());
    // NEWSTT runs line 10's SYS as RUN would; its RTS goes back into BASIC, which ends the
    // program and prints READY.
    assert_eq!(m.run(1_000_000), StopReason::ReturnedToBasic);
    assert_eq!(m.transcript(), b"A\r\nREADY.\r\n");
    // LNKPRG mended the link.
    assert_eq!([m.bus.peek(0x0801), m.bus.peek(0x0802)], [0x0B, 0x08]);
}

#[test]
fn a_decrunched_program_that_runs_basic_first_runs_on_our_basic() {
    let mut m = Machine::builtin();
    let prg = decruncher(0x99); // PRINT2097
    m.load_prg(&prg);
    m.start_at(0x0820, prg.end_address());
    assert_eq!(m.run(1_000_000), StopReason::ReturnedToBasic);
    // PRINT's number, its cursor right and RETURN; READY. between CR LFs.
    assert_eq!(m.transcript(), b" 2097\x1d\r\r\nREADY.\r\n");
}

#[test]
fn the_screen_editor_entries_programs_call_directly() {
    // Print "HI", JSR $E544 (clear, home); print "X"; LDA #1; JSR $E536 (colour 1, clear).
    let print_hi_clear = [
        0xA9, b'H', 0x20, 0xD2, 0xFF, 0x20, 0x44, 0xE5, 0xA9, b'X', 0x20, 0xD2, 0xFF, 0x4C, 0x30,
        0x08,
    ];
    let mut m = Machine::builtin();
    call(&mut m, &program_with(&print_hi_clear, &[0x60]));
    assert_eq!(m.run(1_000_000), StopReason::ReturnedToBasic);
    assert_eq!(m.screen_text()[0].trim_end(), "X");
    assert_eq!((m.bus.peek(0xD3), m.bus.peek(0xD6)), (1, 0));

    let colour_clear = [0xA9, 0x01, 0x20, 0x36, 0xE5, 0x20, 0x66, 0xE5, 0x60];
    let mut m = Machine::builtin();
    call(&mut m, &program_with(&print_hi_clear, &[0x60]));
    m.run(1_000_000);
    call(&mut m, &program_with(&colour_clear, &[]));
    assert_eq!(m.run(1_000_000), StopReason::ReturnedToBasic);
    assert_eq!(m.screen_text()[0].trim_end(), "");
    assert_eq!(m.bus.peek(0x0286), 1);
    assert_eq!((m.bus.peek(0xD3), m.bus.peek(0xD6)), (0, 0));
}

/// Loads `prg` and calls its code at $0820 (what its SYS would), the run ending at its RTS.
fn call(m: &mut Machine, prg: &Prg) {
    m.load_prg(prg);
    m.start_at(0x0820, prg.end_address());
}
