//! The C64 keyboard in one place: where each key sits in the 8x8 matrix that CIA 1 scans, and
//! the PETSCII code it gives alone, with SHIFT, with C= and with CTRL (the facts the real
//! KERNAL keeps in its four decode tables at $EB81, $EBC2, $EC03 and $EC78).
//!
//! The matrix: a program drives a *column* low through $DC00 (port A, bit n = column n) and
//! reads the *rows* of the keys pressed in it as low bits of $DC01 (port B). A key's index
//! (the KERNAL's keyboard code, $CB) is `column * 8 + row`. Written from the published
//! matrix and key-code tables (c64-wiki "Keyboard code", the C64 keyboard layout table
//! for $DC00/$DC01) and the key-to-PETSCII tables (c64os.com "Key Map to Screen Editor").
//!
//! RESTORE is not in the matrix: it pulls the CPU's NMI line (see the machine).

/// What a decode table holds for a key that types nothing (as in the ROM's tables).
const NONE: u8 = 0xFF;

/// Key names by index (`column * 8 + row`), as the keycaps say.
pub const KEY_NAMES: [&str; 64] = [
    "DEL",
    "RETURN",
    "CRSR RIGHT",
    "F7",
    "F1",
    "F3",
    "F5",
    "CRSR DOWN", //
    "3",
    "W",
    "A",
    "4",
    "Z",
    "S",
    "E",
    "LEFT SHIFT", //
    "5",
    "R",
    "D",
    "6",
    "C",
    "F",
    "T",
    "X", //
    "7",
    "Y",
    "G",
    "8",
    "B",
    "H",
    "U",
    "V", //
    "9",
    "I",
    "J",
    "0",
    "M",
    "K",
    "O",
    "N", //
    "+",
    "P",
    "L",
    "-",
    ".",
    ":",
    "@",
    ",", //
    "£",
    "*",
    ";",
    "HOME",
    "RIGHT SHIFT",
    "=",
    "↑",
    "/", //
    "1",
    "←",
    "CTRL",
    "2",
    "SPACE",
    "C=",
    "Q",
    "STOP", //
];

/// The modifier keys' indices (the left SHIFT is the one scripts press).
pub const LEFT_SHIFT: u8 = 15;
pub const RIGHT_SHIFT: u8 = 52;
pub const CTRL: u8 = 58;
pub const CBM: u8 = 61;

/// What the KERNAL's keyboard scan leaves in LSTX ($C5) and SFDX ($CB) when no key but the
/// modifiers is down: the index one past the matrix's last key.
pub const NO_KEY: u8 = 64;

/// SHFLAG's ($028D) bits, one per kind of modifier key down (the KERNAL ORs into it the code
/// its decode table gives the modifier keys: 1, 2 and 4).
pub const SHFLAG_SHIFT: u8 = 1;
pub const SHFLAG_CBM: u8 = 2;
pub const SHFLAG_CTRL: u8 = 4;

/// The SHFLAG bit a key sets while down: SHIFT (either), C= or CTRL; 0 for any other key.
pub fn shflag_bit(key: u8) -> u8 {
    match key {
        LEFT_SHIFT | RIGHT_SHIFT => SHFLAG_SHIFT,
        CBM => SHFLAG_CBM,
        CTRL => SHFLAG_CTRL,
        _ => 0,
    }
}

/// What the KERNAL's keyboard scan (SCNKEY, every jiffy) reads from the keys down
/// (`matrix[column]` bit `row`): SFDX, the key it decodes (it goes through the 64 keys in
/// index order, so with several down the highest index that is not a modifier; [`NO_KEY`]
/// if none), and SHFLAG, the modifiers down.
pub fn scan(matrix: [u8; 8]) -> (u8, u8) {
    let down = (0..64u8).filter(|&k| matrix[usize::from(k >> 3)] & (1 << (k & 7)) != 0);
    down.fold((NO_KEY, 0), |(key, flags), k| match shflag_bit(k) {
        0 => (k, flags),
        bit => (key, flags | bit),
    })
}

/// The modifier whose decode table the KERNAL's scan uses for SHFLAG `flags`: SHIFT, C=,
/// else CTRL when CTRL is down; the unshifted table for none and for SHIFT+C= (which
/// switches the character set instead).
pub fn table_for(flags: u8) -> Modifier {
    match flags {
        SHFLAG_SHIFT => Modifier::Shift,
        SHFLAG_CBM => Modifier::Cbm,
        f if f & SHFLAG_CTRL != 0 => Modifier::Ctrl,
        _ => Modifier::None,
    }
}

/// The four decode tables, by key index: alone, SHIFT, C=, CTRL. $FF: no code (the
/// modifier keys, and keys a modifier silences).
#[rustfmt::skip]
const DECODE: [[u8; 64]; 4] = [
    // Alone ($EB81).
    [
        0x14, 0x0D, 0x1D, 0x88, 0x85, 0x86, 0x87, 0x11,
        0x33, 0x57, 0x41, 0x34, 0x5A, 0x53, 0x45, NONE,
        0x35, 0x52, 0x44, 0x36, 0x43, 0x46, 0x54, 0x58,
        0x37, 0x59, 0x47, 0x38, 0x42, 0x48, 0x55, 0x56,
        0x39, 0x49, 0x4A, 0x30, 0x4D, 0x4B, 0x4F, 0x4E,
        0x2B, 0x50, 0x4C, 0x2D, 0x2E, 0x3A, 0x40, 0x2C,
        0x5C, 0x2A, 0x3B, 0x13, NONE, 0x3D, 0x5E, 0x2F,
        0x31, 0x5F, NONE, 0x32, 0x20, NONE, 0x51, 0x03,
    ],
    // SHIFT ($EBC2).
    [
        0x94, 0x8D, 0x9D, 0x8C, 0x89, 0x8A, 0x8B, 0x91,
        0x23, 0xD7, 0xC1, 0x24, 0xDA, 0xD3, 0xC5, NONE,
        0x25, 0xD2, 0xC4, 0x26, 0xC3, 0xC6, 0xD4, 0xD8,
        0x27, 0xD9, 0xC7, 0x28, 0xC2, 0xC8, 0xD5, 0xD6,
        0x29, 0xC9, 0xCA, 0x30, 0xCD, 0xCB, 0xCF, 0xCE,
        0xDB, 0xD0, 0xCC, 0xDD, 0x3E, 0x5B, 0xBA, 0x3C,
        0xA9, 0xC0, 0x5D, 0x93, NONE, 0x3D, 0xDE, 0x3F,
        0x21, 0x5F, NONE, 0x22, 0xA0, NONE, 0xD1, 0x83,
    ],
    // C= ($EC03).
    [
        0x94, 0x8D, 0x9D, 0x8C, 0x89, 0x8A, 0x8B, 0x91,
        0x96, 0xB3, 0xB0, 0x97, 0xAD, 0xAE, 0xB1, NONE,
        0x98, 0xB2, 0xAC, 0x99, 0xBC, 0xBB, 0xA3, 0xBD,
        0x9A, 0xB7, 0xA5, 0x9B, 0xBF, 0xB4, 0xB8, 0xBE,
        0x29, 0xA2, 0xB5, 0x30, 0xA7, 0xA1, 0xB9, 0xAA,
        0xA6, 0xAF, 0xB6, 0xDC, 0x3E, 0x5B, 0xA4, 0x3C,
        0xA8, 0xDF, 0x5D, 0x93, NONE, 0x3D, 0xDE, 0x3F,
        0x81, 0x5F, NONE, 0x95, 0xA0, NONE, 0xAB, 0x83,
    ],
    // CTRL ($EC78): letters give their control codes, digits 1-8 colours, 9/0 reverse.
    [
        NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE,
        0x1C, 0x17, 0x01, 0x9F, 0x1A, 0x13, 0x05, NONE,
        0x9C, 0x12, 0x04, 0x1E, 0x03, 0x06, 0x14, 0x18,
        0x1F, 0x19, 0x07, 0x9E, 0x02, 0x08, 0x15, 0x16,
        0x12, 0x09, 0x0A, 0x92, 0x0D, 0x0B, 0x0F, 0x0E,
        NONE, 0x10, 0x0C, NONE, NONE, 0x1B, 0x00, NONE,
        0x1C, NONE, 0x1D, NONE, NONE, 0x1F, 0x1E, NONE,
        0x90, 0x06, NONE, 0x05, NONE, NONE, 0x11, NONE,
    ],
];

/// The modifier held with a key, in the order a typed code prefers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Modifier {
    None,
    Shift,
    Cbm,
    Ctrl,
}

impl Modifier {
    pub const ALL: [Modifier; 4] = [
        Modifier::None,
        Modifier::Shift,
        Modifier::Cbm,
        Modifier::Ctrl,
    ];

    /// The modifier key pressed with it, if any.
    pub fn key(self) -> Option<u8> {
        match self {
            Modifier::None => None,
            Modifier::Shift => Some(LEFT_SHIFT),
            Modifier::Cbm => Some(CBM),
            Modifier::Ctrl => Some(CTRL),
        }
    }
}

/// A key (index `column * 8 + row`) pressed with a modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyPress {
    pub key: u8,
    pub modifier: Modifier,
}

impl KeyPress {
    /// The PETSCII code the KERNAL makes of this press, if any.
    pub fn petscii(self) -> Option<u8> {
        let code = DECODE[self.modifier as usize][usize::from(self.key & 63)];
        (code != NONE).then_some(code)
    }

    /// The pressed keys as CIA 1 sees them: `matrix[column]` bit `row` set for each key
    /// down (this key and its modifier).
    pub fn matrix(self) -> [u8; 8] {
        let mut m = [0; 8];
        for k in std::iter::once(self.key).chain(self.modifier.key()) {
            m[usize::from(k >> 3)] |= 1 << (k & 7);
        }
        m
    }
}

/// The key index of a keycap name (`KEY_NAMES`, any case; `POUND`, `UP ARROW`, `LEFT ARROW`
/// and `CBM` also work).
pub fn key_named(name: &str) -> Option<u8> {
    let upper = name.trim().to_uppercase();
    let upper = match upper.as_str() {
        "POUND" => "£",
        "UP ARROW" | "ARROW UP" => "↑",
        "LEFT ARROW" | "ARROW LEFT" => "←",
        "CBM" | "COMMODORE" => "C=",
        "RUN/STOP" => "STOP",
        "CLR/HOME" => "HOME",
        "INST/DEL" => "DEL",
        other => other,
    };
    KEY_NAMES.iter().position(|n| *n == upper).map(|i| i as u8)
}

/// BASIC stores π as $FF, but the key that types it (SHIFT ↑) gives $DE, the same character
/// on the screen: a script's π is that key.
const PI: u8 = 0xFF;

/// The key press that types `petscii`: the key alone if one gives it, else with SHIFT, then
/// C=, then CTRL; among several keys with the same modifier the one whose own code is lowest
/// (a digit before a letter: CTRL-9 for RVS ON rather than CTRL-R). None for codes no key
/// types (lower-case ASCII $60-$7F, $7B, $7D, most of $80-$9F's gaps...).
pub fn press_for(petscii: u8) -> Option<KeyPress> {
    let petscii = if petscii == PI { 0xDE } else { petscii };
    Modifier::ALL.into_iter().find_map(|modifier| {
        (0..64u8)
            .filter(|&key| DECODE[modifier as usize][usize::from(key)] == petscii)
            .min_by_key(|&key| DECODE[0][usize::from(key)])
            .map(|key| KeyPress { key, modifier })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(name: &str, modifier: Modifier) -> KeyPress {
        KeyPress {
            key: key_named(name).unwrap_or_else(|| panic!("{name}")),
            modifier,
        }
    }

    #[test]
    fn the_scan_decodes_the_highest_key_down_and_flags_the_modifiers() {
        // The C64's keyboard codes (PEEK(197)): A 10, SPACE 60, RETURN 1, STOP 63.
        let code = |name, m| scan(press(name, m).matrix());
        assert_eq!(code("A", Modifier::None), (10, 0));
        assert_eq!(code("space", Modifier::None), (60, 0));
        assert_eq!(code("return", Modifier::None), (1, 0));
        assert_eq!(code("stop", Modifier::None), (63, 0));
        assert_eq!(code("A", Modifier::Shift), (10, SHFLAG_SHIFT));
        assert_eq!(code("Q", Modifier::Cbm), (62, SHFLAG_CBM));
        assert_eq!(code("Q", Modifier::Ctrl), (62, SHFLAG_CTRL));
        assert_eq!(scan([0; 8]), (NO_KEY, 0));
        // Modifiers alone: no key; the right SHIFT is a SHIFT too.
        let mut both = press("right shift", Modifier::Cbm).matrix();
        assert_eq!(scan(both), (NO_KEY, SHFLAG_SHIFT | SHFLAG_CBM));
        both[0] |= 1;
        assert_eq!(scan(both), (0, SHFLAG_SHIFT | SHFLAG_CBM));
        assert_eq!(table_for(SHFLAG_SHIFT | SHFLAG_CBM), Modifier::None);
        assert_eq!(table_for(SHFLAG_SHIFT | SHFLAG_CTRL), Modifier::Ctrl);
    }

    #[test]
    fn keys_sit_where_the_matrix_tables_put_them() {
        // A: column 1 (PA1), row 2 (PB2); SPACE column 7 row 4; STOP column 7 row 7.
        assert_eq!(
            press("A", Modifier::None).matrix(),
            [0, 4, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(press("space", Modifier::None).matrix()[7], 0x10);
        assert_eq!(press("stop", Modifier::None).matrix()[7], 0x80);
        // SHIFT is the left one, column 1 row 7: with A both in column 1.
        assert_eq!(press("A", Modifier::Shift).matrix()[1], 0x84);
        assert_eq!(press("Q", Modifier::Cbm).matrix()[7], 0x40 | 0x20);
        assert_eq!(press("Q", Modifier::Ctrl).matrix()[7], 0x40 | 0x04);
        assert_eq!(key_named("right shift"), Some(RIGHT_SHIFT));
        assert_eq!(key_named("pound"), Some(48));
        assert_eq!(key_named("nope"), None);
    }

    #[test]
    fn every_letter_digit_and_symbol_round_trips() {
        let typed: Vec<u8> = (b' '..=b']')
            .chain([0x5E, 0x5F, 13, 0x8D, 0xA0])
            .chain(0xC1..=0xDA)
            .chain(0xA1..=0xBF)
            .chain([0xC0, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF])
            .chain([0x03, 0x83, 0x11, 0x91, 0x1D, 0x9D, 0x13, 0x93, 0x14, 0x94])
            .chain(0x85..=0x8C)
            .chain([0x90, 0x05, 0x1C, 0x9F, 0x9C, 0x1E, 0x1F, 0x9E, 0x12, 0x92])
            .chain([0x81, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B])
            .chain(1..=0x1A)
            .collect();
        for code in typed {
            let p = press_for(code).unwrap_or_else(|| panic!("no key types ${code:02X}"));
            assert_eq!(p.petscii(), Some(code), "${code:02X} -> {p:?}");
        }
        // π: the SHIFT ↑ key, which gives $DE.
        assert_eq!(press_for(0xFF), Some(press("↑", Modifier::Shift)));
        for none in [0x60, 0x61, 0x7A, 0x7B, 0x7D, 0x80, 0x84, 0xE0, 0xFE] {
            assert_eq!(press_for(none), None, "${none:02X}");
        }
    }

    #[test]
    fn the_plain_key_comes_first_then_shift_then_cbm_then_ctrl() {
        assert_eq!(press_for(b'A'), Some(press("A", Modifier::None)));
        assert_eq!(press_for(0xC1), Some(press("A", Modifier::Shift)));
        assert_eq!(press_for(b'!'), Some(press("1", Modifier::Shift)));
        // ")" is SHIFT 9 and C= 9: SHIFT first.
        assert_eq!(press_for(b')'), Some(press("9", Modifier::Shift)));
        // CRSR DOWN rather than CTRL Q, HOME rather than CTRL S.
        assert_eq!(press_for(0x11), Some(press("CRSR DOWN", Modifier::None)));
        assert_eq!(press_for(0x13), Some(press("HOME", Modifier::None)));
        assert_eq!(press_for(0x91), Some(press("CRSR DOWN", Modifier::Shift)));
        assert_eq!(press_for(0x93), Some(press("HOME", Modifier::Shift)));
        assert_eq!(press_for(0xA1), Some(press("K", Modifier::Cbm)));
        assert_eq!(press_for(0x81), Some(press("1", Modifier::Cbm)));
        // Colours and reverse: the digit, not the letter that gives the same code.
        assert_eq!(press_for(0x05), Some(press("2", Modifier::Ctrl)));
        assert_eq!(press_for(0x12), Some(press("9", Modifier::Ctrl)));
        assert_eq!(press_for(0x92), Some(press("0", Modifier::Ctrl)));
        assert_eq!(press_for(0x01), Some(press("A", Modifier::Ctrl)));
    }

    #[test]
    fn petcats_key_names_agree_with_the_tables() {
        // petcat names $A1-$BF after the keys that type them (CBM-x, SHIFT-x): a second
        // source for the SHIFT and C= tables.
        for code in 0xA1..=0xDFu8 {
            let Some(name) = crate::petscii::petcat_key_name(code) else {
                continue;
            };
            let (modifier, key) = name.split_once('-').unwrap();
            let modifier = match modifier {
                "CBM" => Modifier::Cbm,
                "SHIFT" => Modifier::Shift,
                other => panic!("{other}"),
            };
            let key = if key.is_empty() { "-" } else { key };
            assert_eq!(
                press(key, modifier).petscii(),
                Some(code),
                "{name} should type ${code:02X}"
            );
        }
    }

    #[test]
    fn the_plain_table_gives_each_code_to_one_key() {
        for (m, table) in DECODE.iter().enumerate().take(1) {
            for (i, &c) in table.iter().enumerate() {
                if c != NONE {
                    assert_eq!(
                        table.iter().filter(|&&d| d == c).count(),
                        1,
                        "table {m} key {i}"
                    );
                }
            }
        }
        // The modifiers type nothing.
        for k in [LEFT_SHIFT, RIGHT_SHIFT, CTRL, CBM] {
            for m in Modifier::ALL {
                assert_eq!(
                    KeyPress {
                        key: k,
                        modifier: m
                    }
                    .petscii(),
                    None
                );
            }
        }
    }
}
