//! VIC-II tests: raster counter, raster interrupt, register read-back.

use c64kit_chips::{Vic, VicModel, PAL_CYCLES_PER_FRAME, PAL_CYCLES_PER_LINE, PAL_LINES};

fn raster(vic: &mut Vic, now: u64) -> u16 {
    let high = u16::from(vic.read(0x11, now) & 0x80) << 1;
    high | u16::from(vic.read(0x12, now))
}

#[test]
fn raster_counter_follows_the_cycle_count() {
    let mut vic = Vic::new();
    for now in [
        0u64,
        62,
        63,
        64,
        255 * 63,
        256 * 63,
        311 * 63 + 62,
        312 * 63,
        1_234_567,
    ] {
        let expected = ((now / 63) % 312) as u16;
        assert_eq!(vic.raster_line(now), expected);
        // The counter resets a cycle into the frame: line 0's first cycle reads 311.
        let counter = if now % PAL_CYCLES_PER_FRAME == 0 {
            311
        } else {
            expected
        };
        assert_eq!(raster(&mut vic, now), counter, "cycle {now}");
    }
    let later = 100 * PAL_CYCLES_PER_FRAME;
    assert_eq!(
        raster(&mut vic, later + 300 * 63),
        300,
        "bit 8 in $D011 bit 7"
    );
    assert_eq!(vic.peek(0x11, later + 300 * 63) & 0x80, 0x80);
    assert_eq!(
        vic.peek(0x11, later + PAL_CYCLES_PER_FRAME + 200 * 63) & 0x80,
        0x00
    );
}

#[test]
fn frame_helpers() {
    let vic = Vic::new();
    assert_eq!(vic.cycles_per_frame(), 19_656);
    assert_eq!(PAL_CYCLES_PER_FRAME, PAL_CYCLES_PER_LINE * PAL_LINES);
    assert_eq!(vic.frame_of(19_655), 0);
    assert_eq!(vic.frame_of(19_656), 1);
    assert_eq!(vic.next_frame_start(0), 19_656);
    assert_eq!(vic.next_frame_start(19_655), 19_656);
    assert_eq!(vic.next_frame_start(19_656), 39_312);
    assert_eq!(vic.line_cycle(63 * 5 + 7), 7);
}

#[test]
fn raster_irq_fires_at_the_compare_line_and_ack_clears_it() {
    let mut vic = Vic::new();
    // Power-on compare line 0 matches at cycle 1 (line 0 a cycle late): acknowledge first.
    assert_eq!(vic.read(0x19, 0), 0x70);
    assert_eq!(vic.read(0x19, 1), 0x71);
    vic.write(0x19, 0x0F, 1);
    vic.write(0x12, 100, 1);
    vic.write(0x1A, 0x01, 1);
    let line_start = 100 * 63;
    assert_eq!(vic.next_event(), line_start);
    assert!(!vic.irq(line_start - 1));
    assert_eq!(vic.read(0x19, line_start - 1), 0x70);
    assert!(vic.irq(line_start));
    assert_eq!(vic.read(0x19, line_start), 0xF1);
    assert_eq!(vic.next_event(), u64::MAX, "asserted until acknowledged");

    vic.write(0x19, 0x01, line_start + 20);
    // The 6510 sees the release a cycle late (VICE keeps the source pending for its check).
    assert!(vic.irq(line_start + 20));
    assert_eq!(vic.next_event(), line_start + 21);
    assert!(!vic.irq(line_start + 21));
    assert_eq!(vic.read(0x19, line_start + 21), 0x70);
    // Once per frame.
    assert_eq!(vic.next_event(), line_start + PAL_CYCLES_PER_FRAME);
    assert!(!vic.irq(line_start + PAL_CYCLES_PER_FRAME - 1));
    assert!(vic.irq(line_start + PAL_CYCLES_PER_FRAME));
}

#[test]
fn raster_irq_above_line_255_and_unreachable_lines() {
    let mut vic = Vic::new();
    vic.write(0x12, 0x2C, 0);
    vic.write(0x11, 0x9B, 0); // compare $12C = 300
    vic.write(0x19, 0x0F, 0);
    vic.write(0x1A, 0x01, 0);
    assert_eq!(vic.raster_compare(), 300);
    assert_eq!(vic.next_event(), 300 * 63);
    assert!(vic.irq(300 * 63));
    vic.write(0x19, 0xFF, 300 * 63 + 1);
    vic.write(0x12, 0x40, 300 * 63 + 1); // $140 = 320: never reached
    assert_eq!(
        vic.next_event(),
        300 * 63 + 2,
        "the acknowledged line's release"
    );
    assert!(!vic.irq(300 * 63 + 2));
    assert_eq!(vic.next_event(), u64::MAX);
    assert!(!vic.irq(10 * PAL_CYCLES_PER_FRAME));
}

#[test]
fn flag_latches_while_disabled() {
    let mut vic = Vic::new();
    vic.write(0x12, 10, 0);
    vic.write(0x19, 0x0F, 0);
    assert_eq!(vic.next_event(), u64::MAX, "disabled");
    assert!(!vic.irq(20 * 63));
    assert_eq!(vic.read(0x19, 20 * 63), 0x71, "flag set, no IRQ");
    vic.write(0x1A, 0x01, 20 * 63);
    assert!(vic.irq(20 * 63), "enabling a pending flag asserts at once");
    assert_eq!(vic.read(0x1A, 20 * 63), 0xF1);
}

#[test]
fn writing_the_current_line_triggers() {
    let mut vic = Vic::new();
    vic.write(0x19, 0x0F, 1);
    vic.write(0x1A, 0x01, 1);
    let now = 50 * 63 + 30;
    assert!(!vic.irq(now));
    vic.write(0x12, 50, now);
    assert!(vic.irq(now));
    vic.write(0x19, 0x01, now + 1);
    vic.write(0x12, 50, now + 2);
    assert!(!vic.irq(now + 2), "rewriting the same value is no edge");
}

#[test]
fn colour_registers_read_upper_nibble_as_ones() {
    let mut vic = Vic::new();
    vic.write(0x20, 0x0E, 0);
    vic.write(0x21, 0x36, 0);
    assert_eq!(vic.read(0x20, 0), 0xFE);
    assert_eq!(vic.read(0x21, 0), 0xF6);
    assert_eq!(vic.border_color(), 0x0E);
    assert_eq!(vic.background_color(0), 0x06);
    for reg in 0x22..=0x2E {
        vic.write(reg, 0x05, 0);
        assert_eq!(vic.read(reg, 0), 0xF5, "reg {reg:X}");
    }
}

#[test]
fn other_read_back_rules() {
    let mut vic = Vic::new();
    for reg in 0x2F..=0x3F {
        vic.write(reg, 0x00, 0);
        assert_eq!(vic.read(reg, 0), 0xFF, "reg {reg:X}");
    }
    vic.write(0x16, 0x08, 0);
    assert_eq!(vic.read(0x16, 0), 0xC8);
    vic.write(0x18, 0x14, 0);
    assert_eq!(vic.read(0x18, 0), 0x15);
    vic.write(0x00, 0xAB, 0);
    assert_eq!(vic.read(0x40, 0), 0xAB, "mirrored every 64");
    vic.write(0x15, 0xFF, 0);
    assert_eq!(vic.read(0x15, 0), 0xFF, "sprite registers stored");
    assert_eq!(vic.read(0x1E, 0), 0x00);
    assert_eq!(vic.read(0x1F, 0), 0x00);
    vic.write(0x11, 0x1B, 1);
    assert_eq!(vic.read(0x11, 1), 0x1B);
}

#[test]
fn memory_setup() {
    let mut vic = Vic::new();
    vic.write(0x18, 0x14, 0); // KERNAL default: screen $0400, chars $1000
    assert_eq!(vic.screen_base(0), 0x0400);
    assert_eq!(vic.char_base(0), 0x1000);
    vic.write(0x18, 0x38, 0);
    assert_eq!(vic.screen_base(3), 0xC000 + 0x0C00);
    assert_eq!(vic.char_base(3), 0xC000 + 0x2000);
    assert_eq!(vic.bitmap_base(3), 0xE000);
    assert_eq!(Vic::bank_base(2), 0x8000);
}

#[test]
fn bad_lines() {
    let mut vic = Vic::new();
    vic.write(0x11, 0x1B, 0); // DEN, YSCROLL 3
    assert!(vic.is_bad_line(0x33));
    assert!(!vic.is_bad_line(0x34));
    assert!(!vic.is_bad_line(0x2B));
    assert!(vic.is_bad_line(0xF3));
    assert!(!vic.is_bad_line(0xFB));
    vic.write(0x11, 0x0B, 0); // display off
    assert!(!vic.is_bad_line(0x33));
}

#[test]
fn next_event_protocol_sees_every_raster_irq() {
    let mut vic = Vic::new();
    vic.write(0x19, 0x0F, 1);
    vic.write(0x1A, 0x01, 1);
    let mut seen = Vec::new();
    loop {
        let at = vic.next_event();
        if at > 5 * PAL_CYCLES_PER_FRAME {
            break;
        }
        if !vic.irq(at) {
            continue; // the release of the line acknowledged a cycle before
        }
        seen.push(at);
        vic.write(0x19, 0x01, at + 10);
        // Move the compare line every frame, like a split-screen handler.
        let line = if seen.len() % 2 == 1 { 0xFA } else { 0x32 };
        vic.write(0x12, line, at + 10);
    }
    let frame = PAL_CYCLES_PER_FRAME;
    let expected = vec![
        frame + 1, // line 0 matches in its second cycle
        frame + 0xFA * 63,
        2 * frame + 0x32 * 63,
        2 * frame + 0xFA * 63,
        3 * frame + 0x32 * 63,
        3 * frame + 0xFA * 63,
        4 * frame + 0x32 * 63,
        4 * frame + 0xFA * 63,
    ];
    assert_eq!(seen, expected);
}

#[test]
fn reset_keeps_raster_position() {
    let mut vic = Vic::new();
    vic.write(0x20, 0x01, 0);
    vic.write(0x1A, 0x01, 0);
    vic.reset();
    assert_eq!(vic.read(0x20, 5_000), 0xF0);
    assert_eq!(vic.read(0x1A, 5_000), 0xF0);
    assert_eq!(raster(&mut vic, 5_000), (5_000 / 63) as u16);
}

#[test]
fn sprite_crunching_keeps_the_dma_going_for_the_cpu_too() {
    // $D017 cleared in cycle 15 and set again in 22 of every line (VICII/spritecrunch2):
    // each clear sets the Y-expansion flip-flop just after MCBASE's update, which the
    // expansion toggles off again in cycle 55, so MCBASE never moves and the sprite's DMA
    // never ends. The bus's BA prediction must agree with the raster engine: it counted
    // MCBASE on by 3 every other line and ended the DMA after 42 lines, so the CPU ran 5
    // cycles a line too fast from there.
    let mut vic = Vic::new();
    let line = PAL_CYCLES_PER_LINE;
    vic.write(0x01, 100, 0); // sprite 0 at Y 100
    vic.write(0x17, 0xFF, 0);
    vic.write(0x15, 0x01, 0);
    for l in 101..200 {
        vic.write(0x17, 0x00, l * line + 15);
        vic.write(0x17, 0xFF, l * line + 22);
        // Sprite 0's fetches for the next line: BA low in cycles 54-58.
        assert_eq!(vic.bus_free_from(l * line + 55), l * line + 59, "line {l}");
    }
}

/// `Vic::phi1_bus` worked out from the counters alone (a chip that does not draw) gives, in
/// every cycle of two frames, what a drawing chip's phi1 fetch read: character and bitmap
/// rows, idle and refresh reads, sprite pointers and sprite data (two sprites, one Y-expanded
/// and crossing the frame's bad lines).
#[test]
fn phi1_bus_without_drawing_matches_the_drawing_fetch() {
    use c64kit_chips::vic::VicMemory;
    // Every byte different from its neighbours (a fetch from the wrong address shows).
    let mut ram = Box::new([0u8; 0x10000]);
    for (a, b) in ram.iter_mut().enumerate() {
        *b = (a as u32).wrapping_mul(2_654_435_761).rotate_left(7) as u8;
    }
    ram[0x07F8] = 0x80; // sprite 0's data at $2000
    ram[0x07FB] = 0x81; // sprite 3's at $2040
    let char_rom = Box::new([0x3Cu8; 0x1000]);
    let colour = Box::new([0x0Eu8; 0x400]);
    let mem = VicMemory {
        ram: &ram,
        char_rom: &char_rom,
        colour: &colour,
        bank: 0,
    };
    let setup = |vic: &mut Vic| {
        // Screen $0400, characters at $2000 (RAM): text mode, then a bitmap part below.
        for (reg, value) in [
            (0x11, 0x1B),
            (0x18, 0x18),
            (0x15, 0x09),
            (0x17, 0x08),
            (0x01, 0x40),
            (0x07, 0x70),
            (0x00, 0x60),
            (0x06, 0x90),
        ] {
            vic.write(reg, value, 0);
        }
    };
    let mut drawing = Vic::new();
    let mut lazy = Vic::new();
    setup(&mut drawing);
    setup(&mut lazy);
    drawing.last_fetch(); // fetch every cycle from now on
    let bitmap_from = PAL_CYCLES_PER_FRAME + 150 * PAL_CYCLES_PER_LINE;
    for now in 1..2 * PAL_CYCLES_PER_FRAME {
        if now == bitmap_from {
            drawing.write(0x11, 0x3B, now);
            lazy.write(0x11, 0x3B, now);
        }
        let expected = drawing.phi1_bus(now, &mem);
        assert_eq!(
            lazy.phi1_bus(now, &mem),
            expected,
            "cycle {now} (line {}, cycle {})",
            drawing.raster_line(now),
            drawing.line_cycle(now)
        );
    }
}

#[test]
fn ntsc_models_count_their_lines_and_cycles() {
    for (model, cycles, lines) in [
        (VicModel::Mos6567R8, 65u64, 263u64),
        (VicModel::Mos6567R56A, 64, 262),
    ] {
        let mut vic = Vic::with_model(model);
        assert_eq!(vic.cycles_per_frame(), cycles * lines);
        // Line 0's first cycle still reads the last line; then the lines count up.
        assert_eq!(raster(&mut vic, cycles * lines), (lines - 1) as u16);
        assert_eq!(raster(&mut vic, cycles * lines + 1), 0);
        let frame = cycles * lines;
        assert_eq!(raster(&mut vic, frame + 200 * cycles + cycles - 1), 200);
        assert_eq!(raster(&mut vic, frame + 201 * cycles), 201);
        // No line 263 or beyond: a compare line past the frame never matches.
        let t = frame + 202 * cycles;
        vic.write(0x19, 0xFF, t);
        vic.write(0x1A, 0x01, t);
        vic.write(0x11, 0x9B, t);
        vic.write(0x12, (lines & 0xFF) as u8, t);
        assert_eq!(vic.next_event(), u64::MAX);
        // The last line matches once a frame.
        vic.write(0x12, ((lines - 1) & 0xFF) as u8, t + 1);
        let at = vic.next_event();
        assert_eq!(at, frame + (lines - 1) * cycles);
        assert!(vic.irq(at));
    }
}

/// The NTSC chips count X to $1FF (the 6569 wraps after $1F7), so a sprite at X $1FA shows
/// there (and runs on into X 0-$11, where it meets another sprite); on the 6569 it never
/// starts. And each model fetches sprite 0's pointer in its own cycle (VICE's tables:
/// cycle 58 of the 6569's line, 59 of the NTSC chips', counted from 1).
#[test]
fn ntsc_sprites_use_their_own_x_coordinates_and_fetch_cycles() {
    use c64kit_chips::vic::VicMemory;
    let mut ram = Box::new([0u8; 0x10000]);
    ram[0x07F8] = 0x80; // both sprites' data at $2000: solid
    ram[0x07F9] = 0x80;
    ram[0x2000..0x2040].fill(0xFF);
    let char_rom = Box::new([0u8; 0x1000]);
    let colour = Box::new([0u8; 0x400]);
    let mem = VicMemory {
        ram: &ram,
        char_rom: &char_rom,
        colour: &colour,
        bank: 0,
    };
    for (model, collides, pointer_cycle) in [
        (VicModel::Mos6569, false, 57),
        (VicModel::Mos6567R8, true, 58),
        (VicModel::Mos6567R56A, true, 58),
    ] {
        let mut vic = Vic::with_model(model);
        let line = vic.cycles_per_frame() / model.lines();
        for (reg, value) in [
            (0x00, 0xFA),
            (0x02, 0x04),
            (0x10, 0x01),
            (0x01, 100),
            (0x03, 100),
            (0x15, 0x03),
            (0x18, 0x10), // the video matrix (and the pointers) at $0400
        ] {
            vic.write(reg, value, 0);
        }
        vic.last_fetch(); // fetch and draw every cycle
                          // In line 101 (sprite 0's DMA on since line 100) the pointer fetch reads $80.
        let t = 101 * line + pointer_cycle;
        assert_eq!(vic.phi1_bus(t, &mem), 0x80, "{model:?}");
        assert_ne!(vic.phi1_bus(t - 1 + 2 * line, &mem), 0x80, "{model:?}");
        vic.run_to(vic.cycles_per_frame(), &mem);
        let sprite_sprite = vic.read(0x1E, vic.cycles_per_frame());
        assert_eq!(
            sprite_sprite == 0x03,
            collides,
            "{model:?}: {sprite_sprite:02x}"
        );
    }
}

/// The 8565's grey dot: a colour register written as the output stage looks up a pixel
/// that shows it (pixel 0 of a cycle) shows light grey there, where the 6569 still shows
/// the old colour; the pixels after show the new colour on both.
#[test]
fn the_8565_shows_a_grey_dot_where_a_colour_register_changes() {
    use c64kit_chips::vic::VicMemory;
    let ram = Box::new([0u8; 0x10000]);
    let char_rom = Box::new([0u8; 0x1000]);
    let colour = Box::new([0u8; 0x400]);
    let mem = VicMemory {
        ram: &ram,
        char_rom: &char_rom,
        colour: &colour,
        bank: 0,
    };
    let row_of = |model: VicModel| {
        let mut vic = Vic::with_model(model);
        vic.enable_picture();
        vic.write(0x11, 0x1B, 0);
        vic.write(0x21, 6, 0);
        let t = PAL_CYCLES_PER_FRAME + 100 * PAL_CYCLES_PER_LINE + 30;
        vic.run_to(t, &mem);
        vic.write(0x21, 2, t);
        vic.run_to(2 * PAL_CYCLES_PER_FRAME - 1, &mem);
        let (width, _) = vic.picture().visible_size();
        let y = 100 - 16;
        (0..width)
            .map(|x| vic.picture().pixel(x, y))
            .collect::<Vec<u8>>()
    };
    let old = row_of(VicModel::Mos6569);
    let new = row_of(VicModel::Mos8565);
    let first_new = old.iter().position(|&c| c == 2).unwrap();
    assert_eq!(old[first_new - 1], 6);
    assert!(!old.contains(&15));
    assert_eq!(new[first_new - 1], 15, "{new:?}");
    assert_eq!(new.iter().filter(|&&c| c == 15).count(), 1);
    assert_eq!(new[first_new..], old[first_new..]);
    assert_eq!(new[..first_new - 1], old[..first_new - 1]);
}

#[test]
fn a_compare_written_in_a_lines_last_cycle_sees_the_next_line() {
    // The comparator takes a $D012 write from the next cycle on: written with the current
    // line in its last cycle, the next cycle is already the next line and nothing matches;
    // written with the next line, that line matches at its start (VICE's viciisc compares
    // every cycle after the CPU's access).
    let line = 100u64;
    let last = line * 63 + 62;
    for (value, fires) in [(line, false), (line + 1, true)] {
        let mut vic = Vic::new();
        vic.write(0x19, 0x0F, 1);
        vic.write(0x12, 200, 1);
        vic.write(0x1A, 0x01, 1);
        vic.write(0x12, value as u8, last);
        assert_eq!(
            vic.irq(last + 1),
            fires,
            "compare {value} written in line {line}'s last cycle"
        );
        assert_eq!(vic.irq(last + 2), fires, "compare {value}");
    }
    // Mid-line, the current line matches at once.
    let mut vic = Vic::new();
    vic.write(0x19, 0x0F, 1);
    vic.write(0x1A, 0x01, 1);
    vic.write(0x12, line as u8, line * 63 + 30);
    assert!(vic.irq(line * 63 + 31));
    // Line 0's first cycle still counts line 311, but the next cycle is line 0.
    let frame = PAL_CYCLES_PER_FRAME;
    let mut vic = Vic::new();
    vic.write(0x19, 0x0F, 1);
    vic.write(0x1A, 0x01, 1);
    vic.write(0x12, 0x37, 1);
    vic.write(0x19, 0x0F, frame - 1); // line $37 matched long ago
    vic.write(0x11, 0x9B, frame); // compare $137 = 311, written in line 0's first cycle
    assert!(!vic.irq(frame + 1));
    assert!(!vic.irq(frame + 10));
}

#[test]
fn the_6510_sees_an_acknowledge_a_cycle_late() {
    // INC $D019 acknowledges with its first write, in the instruction's next-to-last cycle,
    // where the 6510 polls its interrupt input: it still finds the line low and takes the
    // interrupt after the INC (VICE: a released source stays pending for the CPU's check
    // for two cycles; a CIA's line rises a cycle after the ICR read). Masking it in $D01A
    // is the same.
    for reg in [0x19, 0x1A] {
        let mut vic = Vic::new();
        vic.write(0x19, 0x0F, 1);
        vic.write(0x1A, 0x01, 1);
        vic.write(0x12, 100, 1);
        let start = 100 * 63;
        assert!(vic.irq(start + 5));
        let value = if reg == 0x19 { 0x01 } else { 0x00 };
        vic.write(reg, value, start + 10);
        assert!(
            vic.irq(start + 10),
            "${reg:02X} written in cycle 10: still low there"
        );
        assert!(
            !vic.irq(start + 11),
            "${reg:02X}: released from the next cycle"
        );
        assert_eq!(
            vic.read(0x19, start + 11) & 0x80,
            0,
            "$D019 bit 7 follows at once"
        );
    }
}

/// The 6567R56A's light pen (the first revision's interrupt mode): an LP edge latches LPX
/// and LPY as on the 6567R8 but raises no $D019 bit 3 and no IRQ; LP held low as the next
/// frame starts raises it (with the retrigger's latch, line 0).
#[test]
fn the_6567r56a_raises_the_light_pen_interrupt_only_at_a_frame_start() {
    for model in [VicModel::Mos6567R56A, VicModel::Mos6567R8] {
        let old = model == VicModel::Mos6567R56A;
        let line = model.cycles_per_line();
        let mut vic = Vic::with_model(model);
        vic.write(0x19, 0x0F, 1);
        vic.write(0x1A, 0x08, 1);
        // An edge in line 100, cycle 20: latched in cycle 21 on both.
        let edge = 100 * line + 20;
        vic.set_light_pen(true, edge);
        // Only the later chips schedule an interrupt for the edge; both, for LP held low,
        // the next frame's retrigger.
        let frame = model.cycles_per_frame();
        let next = if old { frame + 1 } else { edge + 1 };
        assert_eq!(vic.next_event(), next, "{model:?}");
        let after = edge + 2;
        assert_eq!(vic.read(0x14, after), 100, "{model:?}: LPY");
        assert_eq!(vic.irq(after), !old, "{model:?}: the edge's interrupt");
        assert_eq!(vic.read(0x19, after) & 0x08, if old { 0 } else { 0x08 });
        vic.write(0x19, 0x08, after);
        // The acknowledge releases the line a cycle later, as the 6510 sees it.
        assert!(!vic.irq(after + 1), "{model:?}: acknowledged");
        // Held low into the next frame: the retrigger in its second cycle raises it on both.
        assert_eq!(vic.next_event(), frame + 1, "{model:?}");
        assert!(!vic.irq(frame));
        assert!(vic.irq(frame + 1), "{model:?}: the retrigger's interrupt");
        assert_eq!(
            vic.read(0x14, frame + 1),
            0,
            "{model:?}: LPY of the retrigger"
        );
    }
}
