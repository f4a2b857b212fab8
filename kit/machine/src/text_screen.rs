//! The screen as text: the 40x25 text matrix the VIC-II shows, with its colours, for front
//! ends that show text (the picture itself is [`crate::Machine::picture`]).

use crate::machine::Machine;

/// What the text matrix shows now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextScreen {
    /// The 40x25 video matrix (screen codes), row by row, from where the VIC-II reads it
    /// (its bank and $D018).
    pub chars: [u8; 1000],
    /// Colour RAM for each cell (0-15).
    pub colours: [u8; 1000],
    /// $D020 (0-15).
    pub border: u8,
    /// $D021-$D024 (0-15).
    pub background: [u8; 4],
    /// The lower/upper-case set of the character ROM is shown. False for upper-case/graphics
    /// and for a character set in RAM (whose glyphs only the picture shows).
    pub lowercase: bool,
    /// The KERNAL's cursor: TBLX ($D6) row, PNTR ($D3) column within the logical line.
    pub cursor_row: u8,
    pub cursor_col: u8,
    /// The VIC-II registers $D000-$D02E as stored.
    pub vic: [u8; 0x2F],
}

/// Whether the VIC-II shows the lower/upper-case half of the character ROM. In banks 0 and 2
/// it sees the ROM at $1000-$1FFF of the bank (C64 Programmer's Reference Guide, "VIC-II
/// memory"): $D018's character base $1000 is the upper-case/graphics half, $1800 the
/// lower/upper-case one. A character set in RAM counts as upper-case/graphics: only the
/// picture shows its glyphs.
pub(crate) fn shows_lowercase_rom(bus: &crate::memory::C64Bus) -> bool {
    let bank = bus.cia2.vic_bank();
    let char_base = bus.vic.char_base(bank);
    bank & 1 == 0 && char_base & 0x3800 == 0x1800
}

impl TextScreen {
    /// The 25 rows as text for humans, in the character set the VIC-II shows
    /// (c64kit_screen::screen_row_text: trailing spaces trimmed).
    pub fn rows(&self) -> Vec<String> {
        self.chars
            .chunks(40)
            .map(|row| c64kit_screen::screen_row_text(row, self.lowercase))
            .collect()
    }

    pub(crate) fn of(m: &Machine) -> TextScreen {
        let bus = &m.bus;
        let bank = bus.cia2.vic_bank();
        let vic = &bus.vic;
        let base = vic.screen_base(bank) as usize;
        let mut chars = [0; 1000];
        let mut colours = [0; 1000];
        for i in 0..1000 {
            chars[i] = bus.ram[(base + i) & 0xFFFF];
            colours[i] = bus.colour[i] & 0x0F;
        }
        TextScreen {
            chars,
            colours,
            border: vic.border_color() & 0x0F,
            background: std::array::from_fn(|i| vic.background_color(i) & 0x0F),
            lowercase: shows_lowercase_rom(&m.bus),
            cursor_row: bus.ram[0xD6].min(24),
            cursor_col: bus.ram[0xD3] % 40,
            vic: *vic.registers(),
        }
    }
}
