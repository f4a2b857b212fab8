//! `cargo xtask conform`: build our programs into target/programs, then the same command as
//! `c64kit conform` (c64kit_conformance::app), with the same options.

use c64kit_conformance::app::{self, ConformArgs};
use c64kit_files::errln;
use std::process::ExitCode;

pub fn run(args: ConformArgs) -> ExitCode {
    if let Err(e) = xtask::build() {
        errln!("c64kit: building our programs failed:\n{e}");
        return ExitCode::FAILURE;
    }
    app::run(&args, "cargo xtask conform")
}
