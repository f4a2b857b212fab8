//! PRG files: a 2-byte little-endian load address, then the bytes.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prg {
    pub load_address: u16,
    pub data: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrgError {
    pub source: String,
    pub message: String,
}

impl fmt::Display for PrgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.message)
    }
}

impl std::error::Error for PrgError {}

impl Prg {
    /// The largest PRG that can matter: a 2-byte load address and the 64 KiB address space.
    pub const MAX_FILE_SIZE: u64 = 2 + 0x10000;

    /// Parses a PRG; `source` names the file in errors.
    pub fn parse(bytes: &[u8], source: &str) -> Result<Prg, PrgError> {
        let err = |message: String| PrgError {
            source: source.to_string(),
            message,
        };
        if bytes.len() < 2 {
            return Err(err(format!(
                "not a PRG file: {} byte(s), but a PRG starts with a 2-byte load address",
                bytes.len()
            )));
        }
        let load_address = u16::from_le_bytes([bytes[0], bytes[1]]);
        let data = bytes[2..].to_vec();
        let end = load_address as usize + data.len();
        if end > 0x10000 {
            return Err(err(format!(
                "{} bytes loaded at ${load_address:04X} would run past $FFFF (to ${end:05X})",
                data.len()
            )));
        }
        Ok(Prg { load_address, data })
    }

    /// The address just past the last byte.
    pub fn end_address(&self) -> u16 {
        (self.load_address as usize + self.data.len()).min(0xFFFF) as u16
    }

    /// The file's bytes again, load address first.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = self.load_address.to_le_bytes().to_vec();
        v.extend_from_slice(&self.data);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_published_stub() {
        let bytes = [
            0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0,
        ];
        let prg = Prg::parse(&bytes, "t.prg").unwrap();
        assert_eq!(prg.load_address, 0x0801);
        assert_eq!(prg.end_address(), 0x080D);
    }

    #[test]
    fn rejects_short_and_overlong_files_naming_them() {
        let e = Prg::parse(&[1], "x.prg").unwrap_err();
        assert!(e.to_string().starts_with("x.prg: not a PRG file"), "{e}");
        let mut big = vec![0x00, 0xFF];
        big.extend(std::iter::repeat_n(0, 300));
        let e = Prg::parse(&big, "big.prg").unwrap_err();
        assert!(e.to_string().contains("past $FFFF"), "{e}");
    }
}
