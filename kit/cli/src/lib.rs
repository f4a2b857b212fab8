//! The parts of the `c64kit` command line other tools (the fuzzer, tests) use too: the
//! settings file and numbers as C64 people write them.

pub mod config;

use anyhow::{bail, Context, Result};

/// Parses a number as C64 people write it: $hex, 0xhex, %binary or decimal.
pub fn parse_number(s: &str) -> Result<u64> {
    let s = s.trim();
    let parsed = if let Some(h) = s.strip_prefix('$').or_else(|| s.strip_prefix("0x")) {
        u64::from_str_radix(h, 16)
    } else if let Some(b) = s.strip_prefix('%') {
        u64::from_str_radix(b, 2)
    } else {
        s.replace('_', "").parse()
    };
    parsed.with_context(|| format!("not a number: {s:?} (use $hex, %binary or decimal)"))
}

pub fn parse_address(s: &str) -> Result<u16> {
    let v = parse_number(s)?;
    if v > 0xFFFF {
        bail!("address {s} is beyond $FFFF");
    }
    Ok(v as u16)
}
