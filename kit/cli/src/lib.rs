//! The parts of the `c64kit` command line other tools (the fuzzer, tests) use too: the
//! settings file and numbers as C64 people write them.

// Standard output and error go through c64kit_files::stdio (outln!, errln!), which never
// panics; println! and eprintln! panic when the reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod config;

use anyhow::{bail, Context, Result};
use c64kit_machine::VicModel;

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

/// A cycle budget (`--max-cycles`, `max_cycles`): a positive count of cycles, written as
/// [`parse_number`] reads numbers.
pub fn parse_budget(s: &str) -> Result<u64> {
    let refused = || {
        anyhow::anyhow!(
            "a cycle budget is a positive count of cycles ({} is one second of PAL C64 time, \
             {} of NTSC), not {}",
            VicModel::Mos6569.clock_hz(),
            VicModel::Mos6567R8.clock_hz(),
            s.trim()
        )
    };
    if s.trim().starts_with('-') {
        return Err(refused());
    }
    match parse_number(s)? {
        0 => Err(refused()),
        n => Ok(n),
    }
}

/// ANE's and LXA's magic constants: "$EF,$EE" (ANE, LXA) or one value for both ("$00", the
/// netlist's).
pub fn parse_cpu_magic(s: &str) -> Result<(u8, u8)> {
    let byte = |t: &str| -> Result<u8> {
        let v = parse_number(t)?;
        u8::try_from(v).map_err(|_| anyhow::anyhow!("{t} is more than a byte ($FF)"))
    };
    match s.split_once(',') {
        Some((ane, lxa)) => Ok((byte(ane)?, byte(lxa)?)),
        None => {
            let v = byte(s)?;
            Ok((v, v))
        }
    }
}

pub fn parse_address(s: &str) -> Result<u16> {
    let v = parse_number(s)?;
    if v > 0xFFFF {
        bail!("address {s} is beyond $FFFF");
    }
    Ok(v as u16)
}

pub use c64kit_files::stdio::USAGE_EXIT_CODE;

/// A mistake in how a command was called (a missing FILE, `-O` without `=`): c64kit exits
/// with 2, as for the usage errors the argument parser finds itself.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Fails with a [`UsageError`].
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}

/// The program needs what c64kit does not provide before it can even start (RUN would run
/// BASIC first, and the machine has no BASIC: a KERNAL image given without a BASIC image):
/// exit code 9, as for a run that stops on such a routine.
#[derive(Debug)]
pub struct NotProvided(pub String);

impl std::fmt::Display for NotProvided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotProvided {}

/// The exit code of a command that failed with `e` (a run that stops has its stop reason's,
/// [`c64kit_machine::StopReason::exit_code`]; the README's table lists both): 2 for a usage
/// error, 9 for a program that needs what c64kit does not provide, 1 for any other error. (A
/// reader of our output that went away is no error: `c64kit_files::stdio`.)
pub fn exit_code(e: &anyhow::Error) -> u8 {
    if e.is::<UsageError>() {
        USAGE_EXIT_CODE
    } else if e.is::<NotProvided>() {
        c64kit_machine::stop::NOT_PROVIDED_EXIT_CODE as u8
    } else {
        1
    }
}

/// The most c64kit reads of each kind of input: beyond what can matter, a file is refused
/// with its size named (a mistake, or someone's attempt to make c64kit work forever).
pub mod limits {
    use c64kit_files::MIB;

    /// A program of any kind a loader may read: the largest C64 images are far smaller
    /// (a D81 disk 800 KiB, an EasyFlash cartridge 1 MiB).
    pub const PROGRAM_FILE: u64 = 16 * MIB;
    /// A key script (a million keys is hours of typing; see `MAX_KEY_EVENTS`).
    pub const KEY_SCRIPT: u64 = 16 * MIB;
    /// c64kit.toml.
    pub const CONFIG: u64 = MIB;
    /// BASIC V2 text for `tokenize`: a tokenized program fits in 38,911 bytes of BASIC RAM,
    /// so even generously spaced text is far smaller.
    pub const BASIC_TEXT: u64 = MIB;
    /// A raw binary for `--load`: the 64 KiB address space.
    pub const RAW_BINARY: u64 = 0x10000;
}

/// The default output name for `input`: the input with extension `ext`, or, when the input
/// already has that extension, `NAME-<what>.ext`, so a default can never be the input.
pub fn derived_output(input: &std::path::Path, ext: &str, what: &str) -> std::path::PathBuf {
    let same = input
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext));
    if same {
        let stem = input
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        input.with_file_name(format!("{stem}-{what}.{ext}"))
    } else {
        input.with_extension(ext)
    }
}
