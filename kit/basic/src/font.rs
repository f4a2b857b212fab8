//! c64kit's own 8x8 font for the two character sets of the C64 (upper-case/graphics and
//! lower/upper-case), drawn for this project: letters, digits and signs in `glyphs.txt`, the
//! block and line graphics computed here. No Commodore ROM content. Used when no CHARGEN
//! image is configured.

use std::collections::HashMap;
use std::sync::OnceLock;

/// 256 glyphs (screen codes $00-$FF; $80-$FF reversed), 8 rows each, bit 7 leftmost.
pub type Charset = [[u8; 8]; 256];

const SOURCE: &str = include_str!("glyphs.txt");

/// The glyphs of `glyphs.txt` by name (their first character).
fn drawn() -> HashMap<char, [u8; 8]> {
    let mut map = HashMap::new();
    let mut lines = SOURCE.lines().filter(|l| !l.starts_with("# "));
    while let Some(line) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        let name = if let Some(hex) = line.strip_prefix("U+") {
            u32::from_str_radix(hex.trim(), 16)
                .ok()
                .and_then(char::from_u32)
                .expect("glyphs.txt: bad U+ name")
        } else {
            line.chars().next().expect("glyphs.txt: empty name")
        };
        let mut glyph = [0u8; 8];
        for row in glyph.iter_mut() {
            let bits = lines.next().expect("glyphs.txt: glyph cut short");
            assert_eq!(bits.len(), 8, "glyphs.txt: glyph {name:?} row {bits:?}");
            for (i, c) in bits.chars().enumerate() {
                if c == '#' {
                    *row |= 0x80 >> i;
                }
            }
        }
        map.insert(name, glyph);
    }
    map
}

/// A glyph built from rectangles and patterns.
struct Canvas([u8; 8]);

impl Canvas {
    fn new() -> Canvas {
        Canvas([0; 8])
    }
    /// Sets rows r0..=r1, columns c0..=c1.
    fn rect(mut self, r0: usize, r1: usize, c0: usize, c1: usize) -> Canvas {
        for r in r0..=r1 {
            for c in c0..=c1 {
                self.0[r] |= 0x80 >> c;
            }
        }
        self
    }
    fn rows(self, r0: usize, r1: usize) -> Canvas {
        self.rect(r0, r1, 0, 7)
    }
    fn cols(self, c0: usize, c1: usize) -> Canvas {
        self.rect(0, 7, c0, c1)
    }
    fn pattern(mut self, f: impl Fn(usize, usize) -> bool) -> Canvas {
        for r in 0..8 {
            for c in 0..8 {
                if f(r, c) {
                    self.0[r] |= 0x80 >> c;
                }
            }
        }
        self
    }
}

/// Screen codes $40-$7F of the upper-case/graphics set.
fn graphic(code: u8, d: &HashMap<char, [u8; 8]>) -> [u8; 8] {
    let c = Canvas::new();
    let named = |ch: char| d[&ch];
    let g = match code {
        0x40 => c.rows(3, 4),
        0x41 => return named('♠'),
        0x42 | 0x5D => c.cols(3, 4),
        0x43 => c.rows(4, 5),
        0x44 => c.rows(2, 3),
        0x45 => c.rows(1, 2),
        0x46 => c.rows(5, 6),
        0x47 => c.cols(1, 2),
        0x48 => c.cols(4, 5),
        0x49 => return named('╮'),
        0x4A => return named('╰'),
        0x4B => return named('╯'),
        0x4C => c.cols(0, 1).rows(6, 7),
        0x4D => c.pattern(|r, col| col == r || col == r + 1),
        0x4E => c.pattern(|r, col| col + r == 7 || col + r == 6),
        0x4F => c.cols(0, 1).rows(0, 1),
        0x50 => c.cols(6, 7).rows(0, 1),
        0x51 => return named('●'),
        0x52 => c.rows(6, 7),
        0x53 => return named('♥'),
        0x54 => c.cols(0, 1),
        0x55 => return named('╭'),
        0x56 => c.pattern(|r, col| col == r || col + r == 7),
        0x57 => return named('○'),
        0x58 => return named('♣'),
        0x59 => c.cols(6, 7),
        0x5A => return named('♦'),
        0x5B => c.rows(3, 4).cols(3, 4),
        0x5C => c.pattern(|r, col| col < 4 && (r + col) % 2 == 0),
        0x5E => return named('π'),
        0x5F => c.pattern(|r, col| col >= r),
        0x60 => c,
        0x61 => c.cols(0, 3),
        0x62 => c.rows(4, 7),
        0x63 => c.rows(0, 0),
        0x64 => c.rows(7, 7),
        0x65 => c.cols(0, 0),
        0x66 => c.pattern(|r, col| (r + col) % 2 == 0),
        0x67 => c.cols(7, 7),
        0x68 => c.pattern(|r, col| r >= 4 && (r + col) % 2 == 0),
        0x69 => c.pattern(|r, col| r + col <= 7),
        0x6A => c.cols(6, 7),
        0x6B => c.cols(3, 4).rect(3, 4, 3, 7),
        0x6C => c.rect(4, 7, 4, 7),
        0x6D => c.rect(0, 4, 3, 4).rect(3, 4, 3, 7),
        0x6E => c.rect(3, 4, 0, 4).rect(3, 7, 3, 4),
        0x6F => c.rows(6, 7),
        0x70 => c.rect(3, 4, 3, 7).rect(3, 7, 3, 4),
        0x71 => c.rows(3, 4).rect(0, 4, 3, 4),
        0x72 => c.rows(3, 4).rect(3, 7, 3, 4),
        0x73 => c.cols(3, 4).rect(3, 4, 0, 4),
        0x74 => c.cols(0, 1),
        0x75 => c.cols(0, 2),
        0x76 => c.cols(5, 7),
        0x77 => c.rows(0, 1),
        0x78 => c.rows(0, 2),
        0x79 => c.rows(5, 7),
        0x7A => c.cols(6, 7).rows(6, 7),
        0x7B => c.rect(4, 7, 0, 3),
        0x7C => c.rect(0, 3, 4, 7),
        0x7D => c.rect(3, 4, 0, 4).rect(0, 4, 3, 4),
        0x7E => c.rect(0, 3, 0, 3),
        0x7F => c.rect(0, 3, 0, 3).rect(4, 7, 4, 7),
        _ => c,
    };
    g.0
}

/// The character for screen codes $00-$3F (same in both sets except letters).
fn text_char(code: u8) -> char {
    match code {
        0x00 => '@',
        0x01..=0x1A => (b'A' + code - 1) as char,
        0x1B => '[',
        0x1C => '£',
        0x1D => ']',
        0x1E => '↑',
        0x1F => '←',
        _ => code as char, // $20-$3F are ASCII
    }
}

fn build(lowercase: bool) -> Charset {
    let d = drawn();
    let mut set = [[0u8; 8]; 256];
    for code in 0..128u8 {
        let glyph = match code {
            0x01..=0x1A if lowercase => d[&((b'a' + code - 1) as char)],
            0x00..=0x3F => d[&text_char(code)],
            0x41..=0x5A if lowercase => d[&((b'A' + code - 0x41) as char)],
            0x5E if lowercase => Canvas::new().pattern(|r, c| (r + c) % 2 == 1).0,
            0x5F if lowercase => Canvas::new().pattern(|r, c| (c + 8 - r) % 4 < 2).0,
            0x69 if lowercase => Canvas::new().pattern(|r, c| (r + c) % 4 < 2).0,
            0x7A if lowercase => d[&'✓'],
            _ => graphic(code, &d),
        };
        set[code as usize] = glyph;
        set[code as usize + 128] = glyph.map(|row| !row);
    }
    set
}

/// The upper-case/graphics set (after power-on).
pub fn upper() -> &'static Charset {
    static SET: OnceLock<Charset> = OnceLock::new();
    SET.get_or_init(|| build(false))
}

/// The lower/upper-case set (after CHR$(14)).
pub fn lower() -> &'static Charset {
    static SET: OnceLock<Charset> = OnceLock::new();
    SET.get_or_init(|| build(true))
}

/// A 4K character ROM image of this font, laid out as the C64's: the upper-case/graphics
/// set at $000-$7FF, the lower/upper-case set at $800-$FFF, 8 bytes per screen code.
pub fn char_rom() -> [u8; 0x1000] {
    let mut rom = [0u8; 0x1000];
    for (half, set) in [upper(), lower()].into_iter().enumerate() {
        for (code, glyph) in set.iter().enumerate() {
            let at = half * 0x800 + code * 8;
            rom[at..at + 8].copy_from_slice(glyph);
        }
    }
    rom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_is_drawn_and_letters_differ() {
        let up = upper();
        let low = lower();
        // Space is empty, reversed space is full.
        assert_eq!(up[0x20], [0; 8]);
        assert_eq!(up[0xA0], [0xFF; 8]);
        // Every letter and digit has pixels, and no two are the same.
        let mut seen = std::collections::HashSet::new();
        for code in (0x01..=0x1A).chain(0x30..=0x39) {
            assert_ne!(up[code], [0; 8], "code {code:#x}");
            assert!(seen.insert(up[code]), "code {code:#x} looks like another");
        }
        for (code, glyph) in low.iter().enumerate().take(0x1B).skip(1) {
            assert!(
                seen.insert(*glyph),
                "lower-case {code:#x} looks like another"
            );
        }
        // The lower-case set has capitals where the upper-case set has graphics.
        assert_eq!(low[0x41], up[0x01]);
        assert_eq!(low[0x40], up[0x40]);
        // The quarter blocks tile: upper-left + lower-right = $7F.
        let combined: Vec<u8> = (0..8).map(|r| up[0x7E][r] | up[0x6C][r]).collect();
        assert_eq!(combined, up[0x7F].to_vec());
    }

    #[test]
    fn the_rom_image_has_both_sets_in_the_c64s_layout() {
        let rom = char_rom();
        assert_eq!(rom[8..16], upper()[1]);
        assert_eq!(rom[0x800 + 8..0x800 + 16], lower()[1]);
        assert_eq!(rom[0x7F8..0x800], upper()[0xFF]);
    }
}
