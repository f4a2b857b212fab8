//! c64kit's own BASIC V2, as ROM images: 6502 code assembled at build time from
//! programs/basic (see its README). Like Commodore's BASIC it fills $A000-$BFFF and goes on
//! in the first part of the KERNAL ROM ($E000-$E4DF), so it pairs with our KERNAL image,
//! which leaves that part to it.

/// Where the BASIC ROM is.
pub const BASIC_BASE: u16 = 0xA000;
/// Where BASIC's part of the KERNAL ROM begins.
pub const KERNAL_PART_BASE: u16 = 0xE000;

/// $A000-$BFFF.
pub static BASIC: &[u8; 0x2000] = include_bytes!(concat!(env!("OUT_DIR"), "/basic.bin"));
/// $E000-$E4DF.
pub static KERNAL_PART: &[u8; 0x4E0] = include_bytes!(concat!(env!("OUT_DIR"), "/kernal-part.bin"));
/// The routines' addresses as a VICE label file (`al C:a474 .READY`).
pub static LABELS: &str = include_str!(concat!(env!("OUT_DIR"), "/basic.lbl"));

/// The address of a label of our BASIC (any case), if it has one.
pub fn label(name: &str) -> Option<u16> {
    LABELS.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        let (_, addr, label) = (words.next()?, words.next()?, words.next()?);
        let addr = u16::from_str_radix(addr.strip_prefix("C:")?, 16).ok()?;
        label
            .strip_prefix('.')?
            .eq_ignore_ascii_case(name)
            .then_some(addr)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vectors_at_a000_point_at_the_cold_and_warm_starts() {
        let word = |at: usize| u16::from_le_bytes([BASIC[at], BASIC[at + 1]]);
        assert_eq!(Some(word(0)), label("COLDST"));
        assert_eq!(Some(word(2)), label("WARMST"));
    }
}
