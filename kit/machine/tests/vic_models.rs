//! The VIC-II model makes the machine PAL or NTSC: the clock, the frame, and what the
//! KERNAL and the CIAs' TOD take from them (kit/chips/src/vic/model.rs holds the facts).

use c64kit_machine::{Machine, Roms, StopReason, VicModel};

/// A machine of `model` idling in `JMP *` at $C000 with interrupts off, after `cycles`.
fn idle(model: VicModel, cycles: u64) -> Machine {
    let mut m = Machine::with_vic(Roms::builtin(), model);
    m.load_raw(0xC000, &[0x78, 0x4C, 0x01, 0xC0]); // SEI; JMP *
    m.start_at(0xC000, 0x0801);
    let stop = m.run(cycles);
    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
    m
}

#[test]
fn the_kernal_sets_its_timer_and_pal_flag_as_commodores_does_for_the_chip() {
    for (model, flag, latch_high) in [
        (VicModel::Mos6569, 1, 0x40),
        (VicModel::Mos6567R8, 0, 0x42),
        (VicModel::Mos6567R56A, 0, 0x42),
    ] {
        let m = idle(model, 20);
        assert_eq!(m.vic_model(), model);
        assert_eq!(m.peek(0x02A6), flag, "{model:?}: $02A6");
        // Timer A was loaded from the latch 20-odd cycles ago: its high byte is the latch's.
        assert_eq!(m.peek(0xDC05), latch_high, "{model:?}: timer A");
    }
}

#[test]
fn the_clock_and_frame_are_the_chips() {
    let pal = Machine::new(Roms::builtin());
    assert_eq!((pal.clock_hz(), pal.cycles_per_frame()), (985_248, 19_656));
    let ntsc = Machine::with_vic(Roms::builtin(), VicModel::Mos6567R8);
    assert_eq!(
        (ntsc.clock_hz(), ntsc.cycles_per_frame()),
        (1_022_727, 17_095)
    );
    let old = Machine::with_vic(Roms::builtin(), VicModel::Mos6567R56A);
    assert_eq!(old.cycles_per_frame(), 16_768);
    assert!((ntsc.seconds(1_022_727) - 1.0).abs() < 1e-12);
}

#[test]
fn the_raster_counts_the_chips_lines() {
    // Line 0 of the second frame, a cycle in (the counter resets a cycle late).
    for model in VicModel::ALL {
        let frame = model.cycles_per_frame();
        let m = idle(model, frame + 100 * model.cycles_per_line() + 5);
        let now = m.cycles();
        let line = ((now % frame) / model.cycles_per_line()) as u16;
        let read = u16::from(m.peek(0xD012)) | (u16::from(m.peek(0xD011) & 0x80) << 1);
        assert_eq!(read, line, "{model:?} at cycle {now}");
    }
}

#[test]
fn tod_counts_60_hz_mains_on_ntsc() {
    // The KERNAL leaves CRA bit 7 clear (divide by 6: right for 60 Hz). Start the clock at
    // 0 by writing hours then tenths, and read it after 2.05 s of each machine's time.
    for (model, seconds) in [(VicModel::Mos6569, 0x01), (VicModel::Mos6567R8, 0x02)] {
        let mut m = Machine::with_vic(Roms::builtin(), model);
        for (reg, value) in [(0xDC0B, 0x00), (0xDC0A, 0), (0xDC09, 0), (0xDC08, 0)] {
            m.poke(reg, value);
        }
        m.load_raw(0xC000, &[0x78, 0x4C, 0x01, 0xC0]);
        m.start_at(0xC000, 0x0801);
        let clock = m.clock_hz();
        m.run(clock * 205 / 100);
        // A PAL machine's /6 divider on 50 Hz counts 5/6 of the time: 1.7 s.
        assert_eq!(m.peek(0xDC09), seconds, "{model:?}: seconds");
    }
}
