//! `Machine::still_picture`: a copy of the VIC-II redraws one whole frame from the machine's
//! state without the CPU. For a screen that stands still it is the very picture the machine
//! draws live, pixel for pixel; the machine itself is left as it was.

use c64kit_machine::Machine;

/// A text screen in a RAM character set, a multicolour sprite over it, 38 columns, and
/// `JMP *` at $C000; nothing changes once it runs.
fn still_screen() -> Machine {
    let mut m = Machine::builtin();
    for a in 0x3000..0x3800u16 {
        m.poke(a, (a as u8).wrapping_mul(37));
    }
    for i in 0..1000u16 {
        m.poke(0x0400 + i, i as u8);
        m.poke(0xD800 + i, (i % 16) as u8);
    }
    for a in 0x0340..0x0380u16 {
        m.poke(a, 0b1110_0100);
    }
    m.poke(0x07F8, 13);
    m.poke(0xD000, 100);
    m.poke(0xD001, 120);
    m.poke(0xD01C, 1);
    m.poke(0xD027, 7);
    m.poke(0xD015, 1);
    m.poke(0xD018, 0x1C);
    m.poke(0xD016, 0x00);
    m.poke(0xD020, 2);
    m.poke(0xD021, 11);
    m.load_raw(0xC000, &[0x4C, 0x00, 0xC0]);
    m.start_at(0xC000, 0x0801);
    m
}

#[test]
fn a_still_picture_is_the_live_picture_of_a_still_screen() {
    // Mid-frame on purpose (the copy first runs to the end of this frame).
    let mut live = still_screen();
    live.enable_picture();
    live.run(3 * 19_656 + 5_000);
    let mut still = still_screen();
    still.run(3 * 19_656 + 5_000);
    assert_eq!(still.cycles(), live.cycles());
    let before = still.bus.vic.clone();
    let picture = still.still_picture();
    let drawn = live.picture().clone();
    assert!(picture.pixels().contains(&7), "the sprite is in it");
    let differ = (0..picture.pixels().len())
        .filter(|&i| picture.pixels()[i] != drawn.pixels()[i])
        .count();
    assert_eq!(differ, 0, "pixels that differ from the live picture");
    assert_eq!(still.bus.vic, before, "the machine's VIC-II is untouched");
}
