//! Source text to PETSCII, as CBM prg Studio does for the unshifted (upper case/graphics)
//! character set: lower-case letters become the upper-case codes $41-$5A, upper-case
//! letters become the shifted codes $C1-$DA, and digits and punctuation keep their ASCII
//! codes.

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
}
