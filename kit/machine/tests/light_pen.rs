//! The VIC-II's light pen through the machine: a falling edge on CIA 1's PB4 (driven by a
//! program, or joystick 1's fire held by the key script) latches the beam's line in
//! $D014 and raises $D019 bit 3, once a frame.

use c64kit_machine::{Machine, StopReason};

/// SEI; port B all outputs, high (the data first: with DDR first, the power-on data $00
/// would pull PB4 low, an edge); acknowledge the VIC; wait for raster line 100; PB4 low then
/// high (`pulses` times); JMP *.
fn program(pulses: usize) -> Vec<u8> {
    let mut code = vec![
        0x78, // SEI
        0xA9, 0xFF, 0x8D, 0x01, 0xDC, // LDA #$FF; STA $DC01: PB4 high
        0x8D, 0x03, 0xDC, // STA $DC03
        0xA9, 0x0F, 0x8D, 0x19, 0xD0, // LDA #$0F; STA $D019
        0xA9, 100, 0xCD, 0x12, 0xD0, 0xD0, 0xFB, // LDA #100; CMP $D012; BNE *-3
    ];
    for _ in 0..pulses {
        code.extend_from_slice(&[0xA2, 0xEF, 0x8E, 0x01, 0xDC]); // LDX #$EF; STX $DC01
        code.extend_from_slice(&[0xA2, 0xFF, 0x8E, 0x01, 0xDC]); // LDX #$FF; STX $DC01
        code.extend_from_slice(&[0xEA; 40]); // the next pulse about a line later
    }
    let at = 0xC000 + code.len() as u16;
    code.extend_from_slice(&[0x4C, at as u8, (at >> 8) as u8]);
    code
}

fn run(code: &[u8], keys: &str) -> Machine {
    let mut m = Machine::builtin();
    m.load_raw(0xC000, code);
    m.start_at(0xC000, 0x0801);
    m.feed_keys(c64kit_basic::parse_key_script(keys).unwrap());
    let stop = m.run(30_000);
    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
    m
}

#[test]
fn a_pb4_pulse_latches_the_line_and_raises_the_flag() {
    let m = run(&program(1), "");
    assert_eq!(m.bus.peek(0xD014), 100);
    assert_ne!(m.bus.peek(0xD013), 0);
    assert_eq!(m.bus.peek(0xD019) & 0x08, 0x08);
}

#[test]
fn only_the_first_edge_of_a_frame_counts() {
    let m = run(&program(3), "");
    assert_eq!(
        m.bus.peek(0xD014),
        100,
        "the later pulses came in lines 101 and 102"
    );
}

#[test]
fn no_edge_no_latch() {
    let m = run(&program(0), "");
    assert_eq!((m.bus.peek(0xD013), m.bus.peek(0xD014)), (0, 0));
    assert_eq!(m.bus.peek(0xD019) & 0x08, 0);
}

#[test]
fn joystick_1_fire_is_the_light_pen_button() {
    // The hold starts at cycle 10,000 (line 158); port B stays input, so only the
    // joystick pulls PB4 low.
    let code = [0x78, 0x4C, 0x01, 0xC0]; // SEI; JMP *
    let m = run(&code, "{WAIT 10000}{JOY1 FIRE 2000c}");
    assert_eq!(m.bus.peek(0xD014), (10_000 / 63) as u8);
    assert_eq!(m.bus.peek(0xD019) & 0x08, 0x08);
    // Held through the frame's start, it latches again there: X $D1, line 0.
    let m = run(&code, "{WAIT 10000}{JOY1 FIRE 1f}");
    assert_eq!((m.bus.peek(0xD013), m.bus.peek(0xD014)), (0xD1, 0));
}
