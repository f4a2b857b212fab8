//! xtask-tools: the developer commands that drive emulators, fuzz targets and test programs
//! (`cargo xtask bench | fuzz | testbench` start it; see xtask/src/main.rs).

// Standard output and error go through c64kit_files::stdio (outln!, errln!), which never
// panics; println! and eprintln! panic when the reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

mod bench;
mod fuzz;
mod testbench;

use c64kit_files::stdio;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Emulation speed on the RYG3 engine next to mos6502 and py65, and the time of
    /// `conform`; the criterion benchmarks only with --criterion.
    Bench(bench::BenchArgs),
    /// Coverage-guided fuzzing of every parser and loader with libFuzzer (stable Rust);
    /// findings are kept in fuzz/reproducers/ as regression tests.
    Fuzz(fuzz::FuzzArgs),
    /// VICE's hardware test programs (../shared/vice-testprogs) on c64kit, per area beside
    /// x64sc's verdicts; records the results in testbench/results/exitcode.tsv and
    /// screenshot.tsv (on Commodore's ROMs, `--roms DIR` or C64KIT_ROMS: exitcode-roms.tsv
    /// and screenshot-roms.tsv).
    Testbench(testbench::TestbenchArgs),
}

fn main() -> ExitCode {
    let code = match Cli::parse().command {
        Command::Bench(args) => bench::run(args),
        Command::Fuzz(args) => fuzz::run(args),
        Command::Testbench(args) => testbench::run(args),
    };
    // Whatever the command, a standard output that failed (a full disk) fails it.
    stdio::exit_code(code, "xtask")
}
