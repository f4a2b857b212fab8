//! The VIC-II's picture through the machine's API: where the text area, the border and a
//! sprite land in the 384x272 picture (VICE's screenshot area), the display modes' colours,
//! and the collision registers a program reads.

use c64kit_chips::vic::picture::{HEIGHT, TEXT_ORIGIN, WIDTH};
use c64kit_machine::Machine;

/// Colours used below.
const BORDER: u8 = 14;
const BACKGROUND: u8 = 6;
const INK: u8 = 1;
const SPRITE: u8 = 7;

/// A machine with a character set in RAM at $3000 whose glyph 1 is a left half (columns
/// 0-3 set) and every other glyph blank; the screen at $0400 blank but for glyph 1 in the
/// top-left cell; running `JMP *` at $C000 with the picture on.
fn machine() -> Machine {
    let mut m = Machine::builtin();
    for a in 0x3000..0x3800u16 {
        m.poke(a, 0);
    }
    for row in 0..8 {
        m.poke(0x3008 + row, 0xF0);
    }
    for i in 0..1000 {
        m.poke(0x0400 + i, 0);
        m.poke(0xD800 + i, INK);
    }
    m.poke(0x0400, 1);
    m.poke(0xD018, 0x1C); // screen $0400, characters $3000
    m.poke(0xD011, 0x1B);
    m.poke(0xD016, 0x08);
    m.poke(0xD020, BORDER);
    m.poke(0xD021, BACKGROUND);
    start_program(&mut m, &[0x4C, 0x00, 0xC0]);
    m.enable_picture();
    m
}

/// 6502 code that waits until the raster line's low 8 bits read `line`.
fn wait_for_line(line: u8) -> [u8; 7] {
    [
        0xAD, 0x12, 0xD0, // wait: LDA $D012
        0xC9, line, //       CMP #line
        0xD0, 0xF9, //       BNE wait
    ]
}

/// Loads `program` at $C000 and starts it there.
fn start_program(m: &mut Machine, program: &[u8]) {
    m.load_raw(0xC000, program);
    m.start_at(0xC000, 0x0801);
}

/// Runs two whole frames (the picture then shows the registers as they are).
fn frames(m: &mut Machine) {
    let stop = m.run(2 * c64kit_machine::PAL_CYCLES_PER_FRAME);
    assert!(
        matches!(stop, c64kit_machine::StopReason::CycleBudget { .. }),
        "{stop:?}"
    );
}

#[test]
fn the_text_area_starts_at_32_35_inside_the_border() {
    let mut m = machine();
    frames(&mut m);
    let (x0, y0) = TEXT_ORIGIN;
    let p = m.picture();
    assert_eq!((WIDTH, HEIGHT), (384, 272));
    // Glyph 1's left half in ink, right half background.
    for y in y0..y0 + 8 {
        for x in x0..x0 + 4 {
            assert_eq!(p.pixel(x, y), INK, "({x}, {y})");
        }
        for x in x0 + 4..x0 + 8 {
            assert_eq!(p.pixel(x, y), BACKGROUND, "({x}, {y})");
        }
    }
    // Border all round the 320x200 area, background inside.
    assert_eq!(p.pixel(x0 - 1, y0), BORDER);
    assert_eq!(p.pixel(x0, y0 - 1), BORDER);
    assert_eq!(p.pixel(x0 + 320, y0 + 100), BORDER);
    assert_eq!(p.pixel(x0 + 319, y0 + 199), BACKGROUND);
    assert_eq!(p.pixel(x0 + 100, y0 + 200), BORDER);
    assert_eq!(p.pixel(0, 0), BORDER);
    assert_eq!(p.pixel(383, 271), BORDER);
    // Nothing here was drawn from character ROM data.
    assert_eq!(p.rom_colours(x0, y0), 0);
}

#[test]
fn thirty_eight_columns_and_24_rows_cover_the_edges() {
    let mut m = machine();
    m.poke(0xD016, 0x00);
    m.poke(0xD011, 0x13);
    frames(&mut m);
    let (x0, y0) = TEXT_ORIGIN;
    let p = m.picture();
    // 38 columns: 7 pixels on the left, 9 on the right; 24 rows: 4 lines top and bottom.
    assert_eq!(p.pixel(x0 + 6, y0 + 50), BORDER);
    assert_eq!(p.pixel(x0 + 7, y0 + 50), BACKGROUND);
    assert_eq!(p.pixel(x0 + 310, y0 + 50), BACKGROUND);
    assert_eq!(p.pixel(x0 + 311, y0 + 50), BORDER);
    assert_eq!(p.pixel(x0 + 50, y0 + 3), BORDER);
    assert_eq!(p.pixel(x0 + 50, y0 + 4), BACKGROUND);
    assert_eq!(p.pixel(x0 + 50, y0 + 195), BACKGROUND);
    assert_eq!(p.pixel(x0 + 50, y0 + 196), BORDER);
}

#[test]
fn multicolour_bitmap_takes_its_colours_from_the_matrix_and_colour_ram() {
    let mut m = machine();
    // Bitmap at $2000: the first byte's pairs are 00, 01, 10, 11.
    for a in 0x2000..0x4000u16 {
        m.poke(a, 0);
    }
    m.poke(0x2000, 0b0001_1011);
    m.poke(0x0400, 0x23); // %01 -> 2, %10 -> 3
    m.poke(0xD800, 4); // %11 -> 4
    m.poke(0xD018, 0x18); // screen $0400, bitmap $2000
    m.poke(0xD011, 0x3B);
    m.poke(0xD016, 0x18);
    frames(&mut m);
    let (x0, y0) = TEXT_ORIGIN;
    let p = m.picture();
    let row: Vec<u8> = (x0..x0 + 8).map(|x| p.pixel(x, y0)).collect();
    assert_eq!(row, [BACKGROUND, BACKGROUND, 2, 2, 3, 3, 4, 4]);
    // ECM with BMM is an invalid mode: black.
    m.poke(0xD011, 0x7B);
    frames(&mut m);
    let p = m.picture();
    assert!((x0..x0 + 8).all(|x| p.pixel(x, y0) == 0));
}

/// Sprite n at (x, y), its data at $0340 (block 13) all set.
fn sprite(m: &mut Machine, n: u16, x: u8, y: u8) {
    for a in 0x0340..0x0380u16 {
        m.poke(a, 0xFF);
    }
    m.poke(0x07F8 + n, 13);
    m.poke(0xD000 + 2 * n, x);
    m.poke(0xD001 + 2 * n, y);
    m.poke(0xD027 + n, SPRITE);
    let enabled = m.peek(0xD015);
    m.poke(0xD015, enabled | 1 << n);
}

#[test]
fn a_sprite_at_24_50_covers_the_first_text_cell() {
    // A sprite shows from the line after its Y.
    let mut m = machine();
    sprite(&mut m, 0, 24, 50);
    frames(&mut m);
    let (x0, y0) = TEXT_ORIGIN;
    let p = m.picture();
    assert_eq!(p.pixel(x0, y0), SPRITE);
    assert_eq!(p.pixel(x0 + 23, y0 + 20), SPRITE);
    assert_eq!(p.pixel(x0 + 24, y0), BACKGROUND);
    assert_eq!(p.pixel(x0, y0 + 21), BACKGROUND);
    assert_eq!(p.pixel(x0 - 1, y0), BORDER);
}

#[test]
fn collisions_are_latched_and_cleared_by_reading() {
    let mut m = machine();
    // The program reads the registers (so the VIC looks for collisions), then idles.
    start_program(
        &mut m,
        &[0xAD, 0x1E, 0xD0, 0xAD, 0x1F, 0xD0, 0x4C, 0x06, 0xC0],
    );
    sprite(&mut m, 0, 24, 51); // over the ink of glyph 1
    sprite(&mut m, 1, 30, 60); // overlapping sprite 0
    sprite(&mut m, 2, 200, 200); // alone on background
    frames(&mut m);
    // The chip is read directly: bring it up to date first, as a program's read would.
    m.picture();
    assert_eq!(m.bus.vic.read(0x1E, m.cycles()), 0x03);
    assert_eq!(m.bus.vic.read(0x1F, m.cycles()), 0x01);
    frames(&mut m);
    // Read again after a frame: set again (each frame collides anew).
    m.picture();
    assert_eq!(m.bus.vic.read(0x1E, m.cycles()), 0x03);
}

#[test]
fn a_late_bad_line_takes_its_first_colours_from_the_read_the_cpu_waits_on() {
    // A $D011 write in mid-line starts a bad line there: in the 3 cycles after BA falls the
    // CPU still has the bus, so the matrix fetches read $FF as the character and the colour
    // nibble from the data bus, which holds the read the CPU waits on (here the next opcode,
    // LDY #0 = $A0: black), not the value last written to the VIC (LDA #$18: orange).
    let mut m = machine();
    for row in 0..8 {
        m.poke(0x37F8 + row, 0xFF); // glyph $FF all set
    }
    let mut program = wait_for_line(0x40).to_vec();
    program.extend([0xEA; 10]); // NOPs: the write lands in mid-line
    program.extend([
        0xA9, 0x18, //       LDA #$18 (YSCROLL 0: line $40 becomes a bad line)
        0x8D, 0x11, 0xD0, // STA $D011
        0xA0, 0x00, //       LDY #$00: the read the CPU waits on
    ]);
    program.extend(wait_for_line(0x50));
    program.extend([
        0xA9, 0x1B, //       LDA #$1B
        0x8D, 0x11, 0xD0, // STA $D011
        0x4C, 0x00, 0xC0, // JMP $C000
    ]);
    start_program(&mut m, &program);
    frames(&mut m);
    let p = m.picture();
    // Lines $40-$42 show the row fetched on line $40 (picture y = line - 16); then RC
    // reaches 7 and the chip goes idle.
    let (x0, _) = TEXT_ORIGIN;
    let mut counts = [0usize; 16];
    for y in 0x40 - 16..0x43 - 16 {
        for x in x0..x0 + 320 {
            counts[usize::from(p.pixel(x, y))] += 1;
        }
    }
    assert!(counts[0] >= 3 * 8, "no black $FF cell: {counts:?}");
    assert_eq!(counts[8], 0, "{counts:?}");
}

#[test]
fn a_late_bad_line_from_idle_draws_the_cells_it_fetches_not_the_rows_before() {
    // Out of idle state a bad line that starts in mid-line fetches its row into the line
    // buffer from index 0 on, lagging the columns; the drawing's index into that buffer
    // moves only in display state too, so it shows the cells just fetched (row 1, colour
    // 5), not what the buffer held at that column from row 0 (colour 2).
    let mut m = machine();
    for row in 0..8 {
        m.poke(0x37F8 + row, 0xFF); // glyph $FF all set
    }
    m.poke(0x3FFF, 0); // idle graphics: background
    for i in 0..1000 {
        m.poke(0x0400 + i, 1); // left-half glyph everywhere
        m.poke(0xD800 + i, if i < 40 { 2 } else { 5 });
    }
    // Line $3A is the last line of row 0 (RC 7).
    let mut program = wait_for_line(0x3A).to_vec();
    program.extend([
        0xA9, 0x1C, //       LDA #$1C (YSCROLL 4: line $3B is no bad line, idle)
        0x8D, 0x11, 0xD0, // STA $D011
    ]);
    program.extend(wait_for_line(0x3B));
    program.extend([0xEA; 10]); // NOPs: the write lands in mid-line
    program.extend([
        0xA9, 0x1B, //       LDA #$1B (YSCROLL 3: line $3B becomes a bad line)
        0x8D, 0x11, 0xD0, // STA $D011
        0x4C, 0x00, 0xC0, // JMP $C000: the read the CPU waits on
    ]);
    start_program(&mut m, &program);
    frames(&mut m);
    let p = m.picture();
    let (x0, _) = TEXT_ORIGIN;
    let mut counts = [0usize; 16];
    for x in x0..x0 + 320 {
        counts[usize::from(p.pixel(x, 0x3B - 16))] += 1;
    }
    // The 3 cells fetched while the CPU had the bus: $FF in the colour of JMP's $4C.
    assert!(counts[12] == 24 && counts[5] >= 4, "{counts:?}");
    assert_eq!(
        counts[12] + counts[5] + counts[usize::from(BACKGROUND)],
        320,
        "{counts:?}"
    );
}

/// A program that, with interrupts off, stores $FF at `target` when the raster reaches
/// line 60 and $00 when it reaches line 130, every frame. The picture of the lines between
/// must show $FF there: the chip fetched the byte before the program spoilt it. (A write to
/// memory the chip fetches must bring it up to date first; the machine skips that only for
/// pages it cannot fetch.)
fn restore_at_60_spoil_at_130(m: &mut Machine, target: u16) {
    let [lo, hi] = target.to_le_bytes();
    start_program(
        m,
        &[
            0x78, //             SEI
            0xAD, 0x12, 0xD0, // wait: LDA $D012
            0xC9, 60, //         CMP #60
            0xD0, 0xF9, //       BNE wait
            0xA9, 0xFF, //       LDA #$FF
            0x8D, lo, hi, //     STA target
            0xAD, 0x12, 0xD0, // wait2: LDA $D012
            0xC9, 130, //        CMP #130
            0xD0, 0xF9, //       BNE wait2
            0xA9, 0x00, //       LDA #$00
            0x8D, lo, hi, //     STA target
            0x4C, 0x01, 0xC0, // JMP wait
        ],
    );
}

#[test]
fn sprite_data_the_chip_fetched_shows_though_the_program_changes_it_later() {
    // Sprite 0 at Y 100: its row 15 (bytes 45-47) is fetched on line 116, between the
    // program's restore and its spoiling of byte 45. The data block's page is known only
    // through the sprite pointer.
    let mut m = machine();
    sprite(&mut m, 0, 100, 100);
    restore_at_60_spoil_at_130(&mut m, 0x0340 + 45);
    frames(&mut m);
    let (x0, y0) = TEXT_ORIGIN;
    let (x, y) = (x0 + 100 - 24, y0 + 116 - 51);
    let p = m.picture();
    for x in x..x + 24 {
        assert_eq!(p.pixel(x, y), SPRITE, "({x}, {y})");
    }
}

#[test]
fn character_data_the_chip_fetched_shows_though_the_program_changes_it_later() {
    // Glyph 1 in text row 8 (lines 115-122): its top row ($3008) is fetched on line 115.
    let mut m = machine();
    m.poke(0x0400 + 8 * 40, 1);
    restore_at_60_spoil_at_130(&mut m, 0x3008);
    frames(&mut m);
    let (x0, y0) = TEXT_ORIGIN;
    let y = y0 + 64;
    let p = m.picture();
    // The glyph's top row as restored: all 8 pixels set.
    for x in x0..x0 + 8 {
        assert_eq!(p.pixel(x, y), INK, "({x}, {y})");
    }
}

#[test]
fn colour_ram_the_chip_fetched_shows_though_the_program_changes_it_later() {
    // Glyph 1 in text row 8, its colour in colour RAM: fetched by the bad line 115 only.
    let mut m = machine();
    m.poke(0x0400 + 8 * 40, 1);
    restore_at_60_spoil_at_130(&mut m, 0xD800 + 8 * 40);
    frames(&mut m);
    let (x0, y0) = TEXT_ORIGIN;
    let p = m.picture();
    for y in y0 + 64..y0 + 72 {
        assert_eq!(p.pixel(x0, y), 15, "({x0}, {y})");
    }
}

#[test]
fn the_video_matrix_the_chip_fetched_shows_though_the_program_changes_it_later() {
    // Text row 8's first cell: glyph $FF (all set, at $37F8) when restored, glyph 0 (blank)
    // when spoilt; fetched by the bad line 115 only.
    let mut m = machine();
    for row in 0..8 {
        m.poke(0x37F8 + row, 0xFF);
    }
    restore_at_60_spoil_at_130(&mut m, 0x0400 + 8 * 40);
    frames(&mut m);
    let (x0, y0) = TEXT_ORIGIN;
    let p = m.picture();
    for y in y0 + 64..y0 + 72 {
        assert_eq!(p.pixel(x0 + 7, y), INK, "({}, {y})", x0 + 7);
    }
}
