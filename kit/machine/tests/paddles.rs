//! Scripted paddles and the 1351 mouse as a program reads them: the SID's POTX/POTY
//! ($D419/$D41A) see the pair of POT lines CIA 1's PA6 (control port 1) or PA7 (port 2)
//! selects, measured once every 512 cycles; the fire and mouse buttons are joystick lines.

use c64kit_chips::sid::pot::{POT_CYCLE, POT_DISCHARGE};
use c64kit_machine::{Machine, StopReason};

/// SEI; port A bits 7-6 outputs with `select` on them; JMP *.
fn select_and_spin(select: u8) -> Vec<u8> {
    vec![
        0x78, // SEI
        0xA9, 0xC0, 0x8D, 0x02, 0xDC, // LDA #$C0; STA $DC02
        0xA9, select, 0x8D, 0x00, 0xDC, // LDA #select; STA $DC00
        0x4C, 0x0B, 0xC0, // JMP $C00B
    ]
}

fn run(code: &[u8], keys: &str, cycles: u64) -> Machine {
    let mut m = Machine::builtin();
    m.load_raw(0xC000, code);
    m.start_at(0xC000, 0x0801);
    m.feed_keys(c64kit_basic::parse_key_script(keys).unwrap());
    let stop = m.run(cycles);
    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
    m
}

const FOUR: &str = "{PADDLE1 100}{PADDLE2 200}{PADDLE3 30}{PADDLE4 0}";

/// The end of the first measuring cycle whose charge phase starts at or after `t`: the first
/// cycle a change at `t` can show.
fn shows_from(t: u64) -> u64 {
    let charge = (t + POT_CYCLE - 1 - POT_DISCHARGE) / POT_CYCLE * POT_CYCLE + POT_DISCHARGE;
    charge + (POT_CYCLE - POT_DISCHARGE)
}

#[test]
fn each_port_shows_its_pair_after_a_measuring_cycle() {
    let m = run(&select_and_spin(0x40), FOUR, 5_000);
    assert_eq!((m.bus.peek(0xD419), m.bus.peek(0xD41A)), (100, 200));
    let m = run(&select_and_spin(0x80), FOUR, 5_000);
    assert_eq!((m.bus.peek(0xD419), m.bus.peek(0xD41A)), (30, 0));
    // Neither selected: nothing connected.
    let m = run(&select_and_spin(0x00), FOUR, 5_000);
    assert_eq!((m.bus.peek(0xD419), m.bus.peek(0xD41A)), (0xFF, 0xFF));
    // Both: the paddles' resistances in parallel (100 || 30 = 23; anything || 0 = 0).
    let m = run(&select_and_spin(0xC0), FOUR, 5_000);
    assert_eq!((m.bus.peek(0xD419), m.bus.peek(0xD41A)), (23, 0));
}

#[test]
fn nothing_connected_reads_ff() {
    let m = run(&select_and_spin(0x40), "", 5_000);
    assert_eq!((m.bus.peek(0xD419), m.bus.peek(0xD41A)), (0xFF, 0xFF));
    // One paddle of the pair: the other line still reads $FF.
    let m = run(&select_and_spin(0x40), "{PADDLE2 7}", 5_000);
    assert_eq!((m.bus.peek(0xD419), m.bus.peek(0xD41A)), (0xFF, 7));
}

#[test]
fn a_port_switch_shows_only_after_a_whole_measuring_cycle() {
    let mut m = run(&select_and_spin(0x40), FOUR, 5_000);
    for _ in 0..3 {
        let t = m.cycles();
        m.bus.poke(0xDC00, 0x80); // port 2 from cycle t
        let new = shows_from(t);
        assert!(new > t + POT_CYCLE - POT_DISCHARGE && new <= t + POT_CYCLE + POT_DISCHARGE);
        assert_eq!(
            m.bus.sid.peek(0x19, new - 1),
            100,
            "port 1's value until {new}"
        );
        assert_eq!(m.bus.sid.peek(0x19, new), 30, "port 2's from {new}");
        m.bus.poke(0xDC00, 0x40);
        let stop = m.run(777); // another phase of the measuring cycle next time
        assert!(matches!(stop, StopReason::CycleBudget { .. }));
    }
}

#[test]
fn a_turn_shows_at_the_end_of_a_measuring_cycle_and_peek_agrees() {
    let mut m = run(
        &select_and_spin(0x40),
        "{PADDLE1 10}{WAIT 3000}{PADDLE1 250}",
        2_000,
    );
    assert_eq!(m.bus.peek(0xD419), 10);
    let stop = m.run(1_500); // past the turn
    assert!(matches!(stop, StopReason::CycleBudget { .. }));
    let now = m.cycles();
    let later = m.bus.sid.peek(0x19, now + 2 * POT_CYCLE);
    assert_eq!(later, 250);
    let stop = m.run(2 * POT_CYCLE);
    assert!(matches!(stop, StopReason::CycleBudget { .. }));
    assert_eq!(m.bus.peek(0xD419), 250, "the bus's peek is the SID's");
}

#[test]
fn paddle_fire_buttons_are_the_ports_left_and_right_lines() {
    // Port 1's paddles on $DC01 bits 2 (paddle 1) and 3 (paddle 2); port 2's on $DC00.
    for (keys, addr, bit) in [
        ("{PADDLE1 FIRE 1000c}", 0xDC01, 0x04),
        ("{PADDLE2 FIRE 1000c}", 0xDC01, 0x08),
        ("{PADDLE3 FIRE 1000c}", 0xDC00, 0x04),
        ("{PADDLE4 50 FIRE 1000c}", 0xDC00, 0x08),
    ] {
        let m = run(&select_and_spin(0x40), keys, 500);
        assert_eq!(m.bus.peek(addr) & 0x1F, 0x1F & !bit, "{keys}");
        let mut m = m;
        let stop = m.run(2_000);
        assert!(matches!(stop, StopReason::CycleBudget { .. }));
        assert_eq!(m.bus.peek(addr) & 0x1F, 0x1F, "{keys}: released");
    }
}

#[test]
fn a_1351_mouse_shows_its_position_mod_64_in_bits_1_to_6() {
    let m = run(&select_and_spin(0x80), "{MOUSE2 5 -3}", 5_000);
    assert_eq!(m.bus.peek(0xD419), 5 << 1);
    assert_eq!(m.bus.peek(0xD41A), (64 - 3) << 1);
    // Moves add up and wrap; the other port has nothing.
    let m = run(
        &select_and_spin(0x80),
        "{MOUSE2 30 0}{MOUSE2 20 1}{MOUSE2 20 0}",
        5_000,
    );
    assert_eq!(
        (m.bus.peek(0xD419), m.bus.peek(0xD41A)),
        ((70 - 64) << 1, 2)
    );
    let m = run(&select_and_spin(0x40), "{MOUSE2 5 5}", 5_000);
    assert_eq!((m.bus.peek(0xD419), m.bus.peek(0xD41A)), (0xFF, 0xFF));
    // Its buttons: left is the port's fire line, right its up line.
    let m = run(&select_and_spin(0x80), "{MOUSE1 LEFT 1000c}", 500);
    assert_eq!(m.bus.peek(0xDC01) & 0x1F, 0x0F);
    let m = run(&select_and_spin(0x80), "{MOUSE2 1 1 RIGHT 1000c}", 500);
    assert_eq!(m.bus.peek(0xDC00) & 0x1F, 0x1E);
    // Paddles plugged into the mouse's port take its place.
    let m = run(&select_and_spin(0x80), "{MOUSE2 5 5}{PADDLE3 9}", 5_000);
    assert_eq!((m.bus.peek(0xD419), m.bus.peek(0xD41A)), (9, 0xFF));
}

#[test]
fn a_large_mouse_move_is_spread_over_frames_as_a_mouse_reports_it() {
    use c64kit_chips::PAL_CYCLES_PER_FRAME as FRAME;
    // 80 to the right in one go would read as 16 (80 mod 64): three readings of 26, 27, 27
    // a frame apart, each under the 32 a program can tell from a move the other way.
    let mut m = run(&select_and_spin(0x80), "{MOUSE2 80 -40}", 5_000);
    assert_eq!(m.bus.peek(0xD419), 26 << 1);
    assert_eq!(m.bus.peek(0xD41A), (64 - 13) << 1);
    let stop = m.run(FRAME);
    assert!(matches!(stop, StopReason::CycleBudget { .. }));
    assert_eq!(m.bus.peek(0xD419), 53 << 1);
    let stop = m.run(FRAME);
    assert!(matches!(stop, StopReason::CycleBudget { .. }));
    assert_eq!(m.bus.peek(0xD419), (80 - 64) << 1);
    assert_eq!(m.bus.peek(0xD41A), (64 - 40) << 1);
}
