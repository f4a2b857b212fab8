//! PETSCII: screen codes, rendering for humans, and the `{name}` control-code names.
//!
//! Names follow VICE's `petcat` (`{clr}`, `{rvon}`, `{rght}`, `{f1}`, ...) so listings produced
//! here read the same as petcat's and petcat-style sources can be fed back in.

use std::fmt::Write as _;

pub use crate::keyscript::{
    joy, parse_hold, parse_key_script, Hold, KeyEvent, ScriptError, DEFAULT_JOYSTICK_HOLD,
};

/// Converts a printable PETSCII code to the screen code the KERNAL's CHROUT stores in screen
/// RAM (before reverse mode adds $80). Returns `None` for the control ranges $00-$1F and $80-$9F.
///
/// This is the same bit arithmetic as the KERNAL's print routine ($E716 and $E7D4), so codes
/// that share a glyph (e.g. $60-$7F and $C0-$DF) give the same screen code.
pub fn petscii_to_screen_code(b: u8) -> Option<u8> {
    match b {
        0x00..=0x1f | 0x80..=0x9f => None,
        0x20..=0x3f => Some(b),
        0x40..=0x5f => Some(b & 0x3f),
        0x60..=0x7f => Some(b & 0xdf),
        0xff => Some(0x5e),
        // $A0-$FE: the KERNAL strips bit 7 and ORs in $40.
        _ => Some((b & 0x7f) | 0x40),
    }
}

/// The petcat name of a PETSCII control code (without braces), if it has one.
pub fn control_name(b: u8) -> Option<&'static str> {
    CONTROL_NAMES
        .iter()
        .find(|(code, _)| *code == b)
        .map(|(_, name)| *name)
}

/// Canonical names, as petcat prints them (its `ctrl1`/`ctrl2` tables, function keys in lower case).
const CONTROL_NAMES: &[(u8, &str)] = &[
    (0x03, "stop"),
    (0x05, "wht"),
    (0x08, "dish"),
    (0x09, "ensh"),
    (0x0e, "swlc"),
    (0x11, "down"),
    (0x12, "rvon"),
    (0x13, "home"),
    (0x14, "del"),
    (0x1b, "esc"),
    (0x1c, "red"),
    (0x1d, "rght"),
    (0x1e, "grn"),
    (0x1f, "blu"),
    (0x81, "orng"),
    (0x83, "run"),
    (0x85, "f1"),
    (0x86, "f3"),
    (0x87, "f5"),
    (0x88, "f7"),
    (0x89, "f2"),
    (0x8a, "f4"),
    (0x8b, "f6"),
    (0x8c, "f8"),
    (0x8d, "sret"),
    (0x8e, "swuc"),
    (0x90, "blk"),
    (0x91, "up"),
    (0x92, "rvof"),
    (0x93, "clr"),
    (0x94, "inst"),
    (0x95, "brn"),
    (0x96, "lred"),
    (0x97, "gry1"),
    (0x98, "gry2"),
    (0x99, "lgrn"),
    (0x9a, "lblu"),
    (0x9b, "gry3"),
    (0x9c, "pur"),
    (0x9d, "left"),
    (0x9e, "yel"),
    (0x9f, "cyn"),
];

/// Extra spellings accepted on input (petcat's alternative tables and common long forms).
const ALIASES: &[(&str, u8)] = &[
    ("return", 0x0d),
    ("cr", 0x0d),
    ("shift return", 0x8d),
    ("shift-return", 0x8d),
    ("white", 0x05),
    ("lower case", 0x0e),
    ("upper case", 0x8e),
    ("cursor down", 0x11),
    ("rvs on", 0x12),
    ("rvson", 0x12),
    ("reverse on", 0x12),
    ("rvs off", 0x92),
    ("rvsoff", 0x92),
    ("reverse off", 0x92),
    ("clear", 0x93),
    ("clr home", 0x93),
    ("delete", 0x14),
    ("insert", 0x94),
    ("ins", 0x94),
    ("right", 0x1d),
    ("cursor right", 0x1d),
    ("cursor left", 0x9d),
    ("cursor up", 0x91),
    ("green", 0x1e),
    ("blue", 0x1f),
    ("orange", 0x81),
    ("black", 0x90),
    ("brown", 0x95),
    ("lt red", 0x96),
    ("light red", 0x96),
    ("pink", 0x96),
    ("grey1", 0x97),
    ("gray1", 0x97),
    ("dark grey", 0x97),
    ("dark gray", 0x97),
    ("grey2", 0x98),
    ("gray2", 0x98),
    ("grey", 0x98),
    ("gray", 0x98),
    ("lt green", 0x99),
    ("light green", 0x99),
    ("lt blue", 0x9a),
    ("light blue", 0x9a),
    ("grey3", 0x9b),
    ("gray3", 0x9b),
    ("light grey", 0x9b),
    ("light gray", 0x9b),
    ("purple", 0x9c),
    ("yellow", 0x9e),
    ("cyan", 0x9f),
    ("space", 0x20),
    ("shift-space", 0xa0),
    ("shift space", 0xa0),
    ("pound", 0x5c),
    ("up arrow", 0x5e),
    ("left arrow", 0x5f),
    ("arrow left", 0x5f),
    ("pi", 0xff),
    ("null", 0x00),
];

/// petcat's names for $A0-$BF (index = code & $1F), printed for $A1-$BF.
const CBM_KEYS: [&str; 32] = [
    "SHIFT-SPACE",
    "CBM-K",
    "CBM-I",
    "CBM-T",
    "CBM-@",
    "CBM-G",
    "CBM-+",
    "CBM-M",
    "CBM-POUND",
    "SHIFT-POUND",
    "CBM-N",
    "CBM-Q",
    "CBM-D",
    "CBM-Z",
    "CBM-S",
    "CBM-P",
    "CBM-A",
    "CBM-E",
    "CBM-R",
    "CBM-W",
    "CBM-H",
    "CBM-J",
    "CBM-L",
    "CBM-Y",
    "CBM-U",
    "CBM-O",
    "SHIFT-@",
    "CBM-F",
    "CBM-C",
    "CBM-X",
    "CBM-V",
    "CBM-B",
];

/// petcat's names for the remaining shifted keys it spells out.
const SHIFT_KEYS: &[(u8, &str)] = &[
    (0xc0, "SHIFT-*"),
    (0xdb, "SHIFT-+"),
    (0xdc, "CBM--"),
    (0xdd, "SHIFT--"),
    (0xdf, "CBM-*"),
];

/// petcat's key name for $A1-$BF and the shifted keys it spells out (`CBM-K`, `SHIFT-*`).
#[cfg(test)]
pub(crate) fn petcat_key_name(code: u8) -> Option<&'static str> {
    match code {
        0xa1..=0xbf => Some(CBM_KEYS[(code & 0x1f) as usize]),
        _ => SHIFT_KEYS.iter().find(|(c, _)| *c == code).map(|(_, n)| *n),
    }
}

/// Looks up the byte for the inside of a `{...}` escape: a control-code name (any case, petcat
/// names and aliases), `CBM-x`/`SHIFT-x`, `SHIFT-a`..`SHIFT-z` (shifted letters), `$xx` hex or a
/// decimal code 0-255.
pub fn code_for_name(name: &str) -> Option<u8> {
    let norm = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower = norm.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix('$') {
        return u8::from_str_radix(hex, 16).ok().filter(|_| hex.len() <= 2);
    }
    if !lower.is_empty() && lower.bytes().all(|c| c.is_ascii_digit()) {
        return lower.parse::<u8>().ok();
    }
    if let Some((code, _)) = CONTROL_NAMES.iter().find(|(_, n)| *n == lower) {
        return Some(*code);
    }
    if let Some((_, code)) = ALIASES.iter().find(|(n, _)| *n == lower) {
        return Some(*code);
    }
    let upper = norm.to_ascii_uppercase();
    if let Some(i) = CBM_KEYS.iter().position(|n| *n == upper) {
        return Some(0xa0 + i as u8);
    }
    if let Some((code, _)) = SHIFT_KEYS.iter().find(|(_, n)| *n == upper) {
        return Some(*code);
    }
    // SHIFT-A .. SHIFT-Z: the shifted letters $C1-$DA.
    if let Some(letter) = upper.strip_prefix("SHIFT-") {
        if let [c @ b'A'..=b'Z'] = letter.as_bytes() {
            return Some(0xc1 + (c - b'A'));
        }
    }
    None
}

/// How [`render_petscii`] shows printable characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RenderStyle {
    /// As the screen shows them in the upper-case/graphics character set: $41-$5A as 'A'-'Z',
    /// $C1-$DA (which are graphics in that set) as their Unicode look-alikes (♠, │, ...),
    /// £ ↑ ← π for $5C $5E $5F $FF; or, with [`RenderOptions::lowercase_charset`], in the
    /// lower/upper-case set. Control codes as `{name}`.
    #[default]
    Screen,
    /// Byte for byte as `petcat` prints: $41-$5A as 'a'-'z', $C1-$DA as 'A'-'Z', $5C as '\',
    /// $FF as '~', other graphics as `{CBM-x}`/`{SHIFT-x}`/`{$xx}`. Pure ASCII, and readable
    /// back by the tokenizer.
    Petcat,
}

/// Options for [`render_petscii`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenderOptions {
    pub style: RenderStyle,
    /// [`RenderStyle::Screen`] only: draw with the lower/upper-case character set (after
    /// CHR$(14)), where $41-$5A are 'a'-'z' and $C1-$DA are 'A'-'Z'.
    pub lowercase_charset: bool,
}

/// Renders PETSCII for humans: printable codes as text, RETURN (13) as a newline, other control
/// codes as petcat's `{name}` and codes without a name as `{$xx}`.
pub fn render_petscii(bytes: &[u8], options: &RenderOptions) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        push_rendered(&mut out, b, options);
    }
    out
}

/// Appends one rendered byte to `out` (shared with the BASIC lister).
pub(crate) fn push_rendered(out: &mut String, b: u8, options: &RenderOptions) {
    if b == 0x0d {
        out.push('\n');
        return;
    }
    match petscii_to_screen_code(b) {
        None => push_control(out, b),
        Some(screen) => match options.style {
            RenderStyle::Screen => out.push(screen_code_to_char(screen, options.lowercase_charset)),
            RenderStyle::Petcat => push_petcat_printable(out, b),
        },
    }
}

fn push_control(out: &mut String, b: u8) {
    match control_name(b) {
        Some(name) => {
            out.push('{');
            out.push_str(name);
            out.push('}');
        }
        None => push_hex(out, b),
    }
}

fn push_hex(out: &mut String, b: u8) {
    let _ = write!(out, "{{${b:02x}}}");
}

fn push_petcat_printable(out: &mut String, b: u8) {
    match b {
        0x20..=0x40 | 0x5b..=0x5f => out.push(b as char),
        0x41..=0x5a => out.push((b + 0x20) as char),
        0xc1..=0xda => out.push((b - 0x80) as char),
        0xff => out.push('~'),
        0xa1..=0xbf => {
            out.push('{');
            out.push_str(CBM_KEYS[(b & 0x1f) as usize]);
            out.push('}');
        }
        _ => match SHIFT_KEYS.iter().find(|(code, _)| *code == b) {
            Some((_, name)) => {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
            // $60-$7F, $A0, $DE, $E0-$FE share glyphs with other codes: petcat shows the byte.
            None => push_hex(out, b),
        },
    }
}

/// The character a screen code shows, ignoring reverse video (bit 7), in the upper-case/graphics
/// set or, with `lowercase`, the lower/upper-case set. Graphics map to their nearest Unicode
/// glyph (block elements, box drawing, "Symbols for Legacy Computing").
pub fn screen_code_to_char(code: u8, lowercase: bool) -> char {
    let code = code & 0x7f;
    if lowercase {
        match code {
            0x01..=0x1a => return (b'a' + code - 1) as char,
            0x41..=0x5a => return (b'A' + code - 0x41) as char,
            0x5e => return '\u{1FB95}', // checkerboard replaces π
            0x5f => return '\u{1FB98}', // diagonal fill replaces ◥
            0x69 => return '\u{1FB99}', // diagonal fill replaces ◤
            0x7a => return '\u{2713}',  // check mark
            _ => {}
        }
    }
    UPPER_GLYPHS[code as usize]
}

/// Screen codes $00-$7F of the upper-case/graphics character ROM.
const UPPER_GLYPHS: [char; 128] = [
    // $00-$1F
    '@',
    'A',
    'B',
    'C',
    'D',
    'E',
    'F',
    'G',
    'H',
    'I',
    'J',
    'K',
    'L',
    'M',
    'N',
    'O',
    'P',
    'Q',
    'R',
    'S',
    'T',
    'U',
    'V',
    'W',
    'X',
    'Y',
    'Z',
    '[',
    '£',
    ']',
    '↑',
    '←',
    // $20-$3F
    ' ',
    '!',
    '"',
    '#',
    '$',
    '%',
    '&',
    '\'',
    '(',
    ')',
    '*',
    '+',
    ',',
    '-',
    '.',
    '/',
    '0',
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
    '7',
    '8',
    '9',
    ':',
    ';',
    '<',
    '=',
    '>',
    '?',
    // $40-$5F: the shifted letters' graphics
    '\u{2500}',
    '\u{2660}',
    '\u{2502}',
    '\u{1FB79}',
    '\u{1FB78}',
    '\u{1FB77}',
    '\u{1FB7A}',
    '\u{1FB71}',
    '\u{1FB73}',
    '\u{256E}',
    '\u{2570}',
    '\u{256F}',
    '\u{1FB7C}',
    '\u{2572}',
    '\u{2571}',
    '\u{1FB7D}',
    '\u{1FB7E}',
    '\u{25CF}',
    '\u{1FB7B}',
    '\u{2665}',
    '\u{1FB70}',
    '\u{256D}',
    '\u{2573}',
    '\u{25CB}',
    '\u{2663}',
    '\u{1FB75}',
    '\u{2666}',
    '\u{253C}',
    '\u{1FB8C}',
    '\u{2502}',
    '\u{03C0}',
    '\u{25E5}',
    // $60-$7F: the Commodore-key graphics
    ' ',
    '\u{258C}',
    '\u{2584}',
    '\u{2594}',
    '\u{2581}',
    '\u{258F}',
    '\u{1FB95}',
    '\u{2595}',
    '\u{1FB8F}',
    '\u{25E4}',
    '\u{1FB87}',
    '\u{251C}',
    '\u{2597}',
    '\u{2514}',
    '\u{2510}',
    '\u{2582}',
    '\u{250C}',
    '\u{2534}',
    '\u{252C}',
    '\u{2524}',
    '\u{258E}',
    '\u{258D}',
    '\u{1FB88}',
    '\u{1FB82}',
    '\u{1FB83}',
    '\u{2583}',
    '\u{1FB7F}',
    '\u{2596}',
    '\u{259D}',
    '\u{2518}',
    '\u{2598}',
    '\u{259A}',
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_codes_follow_the_kernal() {
        // "HELLO" as typed on an unshifted C64 keyboard.
        let codes: Vec<_> = b"HELLO"
            .iter()
            .map(|&b| petscii_to_screen_code(b).unwrap())
            .collect();
        assert_eq!(codes, [0x08, 0x05, 0x0c, 0x0c, 0x0f]);
        assert_eq!(petscii_to_screen_code(b' '), Some(0x20));
        assert_eq!(petscii_to_screen_code(b'@'), Some(0x00));
        assert_eq!(petscii_to_screen_code(0xc1), Some(0x41));
        assert_eq!(petscii_to_screen_code(0x61), Some(0x41));
        assert_eq!(petscii_to_screen_code(0xa0), Some(0x60));
        assert_eq!(petscii_to_screen_code(0xe0), Some(0x60));
        assert_eq!(petscii_to_screen_code(0xff), Some(0x5e));
        for control in (0x00..=0x1f).chain(0x80..=0x9f) {
            assert_eq!(petscii_to_screen_code(control), None, "{control:#04x}");
        }
    }

    #[test]
    fn every_printable_code_has_a_screen_code_below_0x80() {
        for b in 0u8..=255 {
            if let Some(s) = petscii_to_screen_code(b) {
                assert!(s < 0x80, "{b:#04x} -> {s:#04x}");
            }
        }
    }

    #[test]
    fn renders_for_screen_readers() {
        let text = render_petscii(
            b"\x93\x05HELLO\rWORLD\xc1\x5c\xff\x01",
            &RenderOptions::default(),
        );
        assert_eq!(text, "{clr}{wht}HELLO\nWORLD♠£π{$01}");
    }

    #[test]
    fn renders_like_petcat() {
        let opts = RenderOptions {
            style: RenderStyle::Petcat,
            ..Default::default()
        };
        let text = render_petscii(b"AB\xc1\xc2\x12\x92\x85\x8c\xa1\xc0\x60\xff\\", &opts);
        assert_eq!(text, "abAB{rvon}{rvof}{f1}{f8}{CBM-K}{SHIFT-*}{$60}~\\");
    }

    #[test]
    fn lowercase_charset_swaps_letters() {
        let opts = RenderOptions {
            lowercase_charset: true,
            ..Default::default()
        };
        assert_eq!(render_petscii(&[0x48, 0x49, 0xc8, 0xc9], &opts), "hiHI");
    }

    #[test]
    fn every_name_round_trips() {
        for &(code, name) in CONTROL_NAMES {
            assert_eq!(code_for_name(name), Some(code), "{name}");
            assert_eq!(code_for_name(&name.to_uppercase()), Some(code), "{name}");
        }
        for (i, name) in CBM_KEYS.iter().enumerate() {
            assert_eq!(code_for_name(name), Some(0xa0 + i as u8), "{name}");
        }
        for &(code, name) in SHIFT_KEYS {
            assert_eq!(code_for_name(name), Some(code), "{name}");
        }
        assert_eq!(code_for_name("$0d"), Some(13));
        assert_eq!(code_for_name("147"), Some(147));
        assert_eq!(code_for_name("Return"), Some(13));
        assert_eq!(code_for_name("rvs  on"), Some(0x12));
        assert_eq!(code_for_name("shift-q"), Some(0xd1));
        assert_eq!(code_for_name("256"), None);
        assert_eq!(code_for_name("$100"), None);
        assert_eq!(code_for_name("nonsense"), None);
    }

    #[test]
    fn names_are_unique() {
        for (i, (_, a)) in CONTROL_NAMES.iter().enumerate() {
            for (_, b) in &CONTROL_NAMES[i + 1..] {
                assert_ne!(a, b);
            }
            assert!(ALIASES.iter().all(|(alias, _)| alias != a), "{a}");
        }
    }
}
