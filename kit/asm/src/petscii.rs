//! Source text to C64 bytes, as CBM prg Studio converts strings for the unshifted (upper
//! case/graphics) character set:
//!
//! - `"..."` gives PETSCII, what CHROUT prints: lower-case letters become the upper-case
//!   codes $41-$5A, upper-case letters the shifted codes $C1-$DA, and digits and
//!   punctuation keep their ASCII codes.
//! - `'...'` gives screen codes, what is stored in screen memory: the PETSCII code's
//!   screen code, so `@` is $00, `a`-`z` $01-$1A, digits and punctuation $20-$3F, and
//!   upper-case letters $41-$5A (the shifted set's letters, graphics in the unshifted set).

use crate::lexer::Quote;

/// One character to its PETSCII code.
pub fn petscii(c: char) -> Result<u8, String> {
    Ok(match c {
        'a'..='z' => c as u8 - 0x20,
        'A'..='Z' => c as u8 + 0x80,
        ' '..='~' => c as u8,
        '£' => 0x5C,
        '↑' => 0x5E,
        '←' => 0x5F,
        'π' => 0xFF,
        _ => {
            return Err(format!(
                "character '{}' (U+{:04X}) has no PETSCII code",
                c.escape_debug(),
                c as u32
            ))
        }
    })
}

/// A whole string.
pub fn petscii_str(s: &str) -> Result<Vec<u8>, String> {
    s.chars().map(petscii).collect()
}

/// One character to its screen code: the screen code of its PETSCII code (the KERNAL's
/// own mapping when it prints).
pub fn screen_code(c: char) -> Result<u8, String> {
    let p = petscii(c)?;
    Ok(match p {
        0x00..=0x1F => p + 0x80,
        0x20..=0x3F => p,
        0x40..=0x5F => p - 0x40,
        0x60..=0x7F => p - 0x20,
        0x80..=0x9F => p + 0x40,
        0xA0..=0xBF => p - 0x40,
        0xC0..=0xFE => p - 0x80,
        0xFF => 0x5E,
    })
}

/// A whole string as screen codes.
pub fn screen_code_str(s: &str) -> Result<Vec<u8>, String> {
    s.chars().map(screen_code).collect()
}

/// A character in the given quotes.
pub fn char_code(c: char, quote: Quote) -> Result<u8, String> {
    match quote {
        Quote::Double => petscii(c),
        Quote::Single => screen_code(c),
    }
}

/// A string in the given quotes.
pub fn encode(s: &str, quote: Quote) -> Result<Vec<u8>, String> {
    s.chars().map(|c| char_code(c, quote)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_swap_case() {
        assert_eq!(petscii_str("az").unwrap(), vec![0x41, 0x5A]);
        assert_eq!(petscii_str("AZ").unwrap(), vec![0xC1, 0xDA]);
        assert_eq!(petscii_str("09 .,!").unwrap(), b"09 .,!".to_vec());
        assert!(petscii('é').is_err());
    }

    #[test]
    fn screen_codes() {
        assert_eq!(screen_code_str("@az").unwrap(), vec![0x00, 0x01, 0x1A]);
        assert_eq!(screen_code_str("AZ").unwrap(), vec![0x41, 0x5A]);
        assert_eq!(
            screen_code_str(" 09:?").unwrap(),
            vec![0x20, 0x30, 0x39, 0x3A, 0x3F]
        );
        assert_eq!(
            screen_code_str("[£]↑←π").unwrap(),
            vec![0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x5E]
        );
        assert!(screen_code('é').is_err());
    }
}
