//! File names on Commodore tapes and disks, for loaders.

/// CBM DOS style matching: `*` matches the rest, `?` any one character; letters match either
/// case (people type ASCII, images hold PETSCII).
pub fn name_matches(pattern: &[u8], name: &[u8]) -> bool {
    let mut i = 0;
    for &p in pattern {
        match p {
            b'*' => return true,
            b'?' => {
                if i >= name.len() {
                    return false;
                }
            }
            _ => match name.get(i) {
                Some(&c) if fold(c) == fold(p) => {}
                _ => return false,
            },
        }
        i += 1;
    }
    i == name.len()
}

/// PETSCII shifted letters ($C1-$DA) and ASCII lower case fold to $41-$5A.
fn fold(b: u8) -> u8 {
    match b {
        0xC1..=0xDA => b - 0x80,
        b'a'..=b'z' => b - 0x20,
        _ => b,
    }
}

/// A name for people: printable PETSCII as ASCII, others as `{$xx}`.
pub fn show_name(name: &[u8]) -> String {
    name.iter()
        .map(|&b| match b {
            0x20..=0x7E => (b as char).to_string(),
            0xC1..=0xDA => ((b - 0x80) as char).to_string(),
            _ => format!("{{${b:02x}}}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_like_cbm_dos() {
        assert!(name_matches(b"GAME", b"GAME"));
        assert!(name_matches(b"game", b"GAME"));
        assert!(!name_matches(b"GAM", b"GAME"));
        assert!(name_matches(b"G*", b"GAME"));
        assert!(name_matches(b"*", b""));
        assert!(name_matches(b"G?ME", b"GAME"));
        assert!(!name_matches(b"GAMES", b"GAME"));
        assert!(!name_matches(b"GAME?", b"GAME"));
    }

    #[test]
    fn shows_petscii_names() {
        assert_eq!(show_name(b"HELLO 1"), "HELLO 1");
        assert_eq!(show_name(&[0xC1, 0x05]), "A{$05}");
    }
}
