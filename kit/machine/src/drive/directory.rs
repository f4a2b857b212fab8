//! `LOAD"$",8`: the directory as a 1541 sends it, a BASIC program to LIST: a header line
//! with the disk name, a line per file (its size in blocks as the line number), and the
//! blocks free.

use super::name::{matches, NAME_MAX};

/// Where a 1541 says the directory program loads.
const LOAD_ADDRESS: u16 = 0x0401;
/// Data bytes in a 1541 block.
pub const BLOCK_BYTES: u64 = 254;
/// BASIC line links are fixed up by LOAD; a 1541 sends $0101 for each.
const LINK: [u8; 2] = [0x01, 0x01];
const REVERSE_ON: u8 = 0x12;

/// One file as the directory shows it.
pub struct Entry {
    /// The name a program uses for it (the host name without ".prg"), upper case.
    pub name: String,
    pub size: u64,
    pub file_type: &'static str,
}

fn line(out: &mut Vec<u8>, number: u64, text: &[u8]) {
    out.extend_from_slice(&LINK);
    out.extend_from_slice(&(number.min(0xFFFF) as u16).to_le_bytes());
    out.extend_from_slice(text);
    out.push(0);
}

/// The directory program for the files matching `pattern` (`*` for all).
pub fn listing(disk_name: &str, entries: &[Entry], free_blocks: u64, pattern: &[u8]) -> Vec<u8> {
    let mut out = LOAD_ADDRESS.to_le_bytes().to_vec();
    let mut header = vec![REVERSE_ON, b'"'];
    header.extend(format!("{disk_name:<16.16}").bytes());
    header.extend_from_slice(b"\" 00 2A");
    line(&mut out, 0, &header);
    for e in entries
        .iter()
        .filter(|e| matches(pattern, e.name.as_bytes()))
    {
        let blocks = e.size.div_ceil(BLOCK_BYTES);
        // Names start in the same column whatever the number of blocks.
        let pad = match blocks {
            0..=9 => 3,
            10..=99 => 2,
            100..=999 => 1,
            _ => 0,
        };
        let quoted = format!("\"{}\"", &e.name[..e.name.len().min(NAME_MAX)]);
        let text = format!("{:pad$}{quoted:<18} {}", "", e.file_type);
        line(&mut out, blocks, text.as_bytes());
    }
    line(&mut out, free_blocks, b"BLOCKS FREE.");
    out.extend_from_slice(&[0, 0]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_like_a_1541() {
        let entries = [
            Entry {
                name: "HELLO".into(),
                size: 300,
                file_type: "PRG",
            },
            Entry {
                name: "DATA".into(),
                size: 0,
                file_type: "SEQ",
            },
        ];
        let bytes = listing("MY DISK", &entries, 664, b"*");
        let mut want = vec![0x01, 0x04];
        want.extend_from_slice(b"\x01\x01\x00\x00\x12\"MY DISK         \" 00 2A\0");
        // 300 bytes are 2 blocks.
        want.extend_from_slice(b"\x01\x01\x02\x00   \"HELLO\"            PRG\0");
        want.extend_from_slice(b"\x01\x01\x00\x00   \"DATA\"             SEQ\0");
        want.extend_from_slice(b"\x01\x01\x98\x02BLOCKS FREE.\0\0\0");
        assert_eq!(bytes, want, "{}", String::from_utf8_lossy(&bytes));
        let some = listing("X", &entries, 0, b"H*");
        assert!(!some.windows(4).any(|w| w == b"DATA"));
    }
}
