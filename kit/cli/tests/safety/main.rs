//! Running anyone's program safely, through the binary (issue 13): one test binary for the
//! refusals, in four parts.
//!
//! - `files`: inputs that are not regular files or larger than they can matter, outputs that
//!   would replace an input, output that cannot be written, usage errors, settings errors,
//!   stuck loops, `--bare`.
//! - `drive`: drive 8 keeps programs inside the drive folder.
//! - `asm`: the assembler's reads and writes.
//! - `outputs`: every output by one rule (FIFOs, devices, links), and no panic when stdout
//!   or stderr goes away or fills up.

#[path = "../common/mod.rs"]
mod common;

mod asm;
mod drive;
mod files;
mod outputs;
