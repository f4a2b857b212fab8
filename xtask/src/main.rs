//! Developer commands: `cargo xtask conform | build | bench | fuzz | testbench |
//! audio-cpal`.
//!
//! This binary is the light one: `conform` and `build` need only the conformance suite and
//! our programs, so `cargo xtask conform` builds no more than it needs, and on the tests'
//! dev build (the alias in .cargo/config.toml), which `cargo test --workspace` shares.
//! `bench`, `fuzz` and `testbench` live in xtask-tools (xtask/tools), with the emulators,
//! fuzz targets and test programs they drive: this binary starts it with the same arguments,
//! in the release build for the two that measure speed or run hundreds of programs.

// Standard output and error go through c64kit_files::stdio (outln!, errln!), which never
// panics; println! and eprintln! panic when the reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

mod audio_cpal;
mod conform;

use c64kit_files::{errln, stdio};
use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::process::ExitCode;
use xtask::{build, cargo, workspace_root};

#[derive(Parser)]
#[command(name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build our programs and replay every published fact; exit 0 only if all pass.
    Conform(Box<c64kit_conformance::app::ConformArgs>),
    /// Assemble every program in programs/ into target/programs/NAME.prg.
    Build,
    /// Emulation speed on the RYG3 engine next to mos6502 and py65, and the time of
    /// `conform`; the criterion benchmarks only with --criterion (xtask-tools, release
    /// build; `cargo xtask bench --help` for its options).
    #[command(disable_help_flag = true)]
    Bench(Passed),
    /// Coverage-guided fuzzing of every parser and loader with libFuzzer (stable Rust);
    /// findings are kept in fuzz/reproducers/ as regression tests (xtask-tools).
    #[command(disable_help_flag = true)]
    Fuzz(Passed),
    /// VICE's hardware test programs (../shared/vice-testprogs) on c64kit, per area beside
    /// x64sc's verdicts; records the results in testbench/results/exitcode.tsv and
    /// screenshot.tsv, or with Commodore's ROMs (`--roms DIR`, default C64KIT_ROMS) in
    /// exitcode-roms.tsv and screenshot-roms.tsv (xtask-tools, release build).
    #[command(disable_help_flag = true)]
    Testbench(Passed),
    /// Build the live sound plugin (plugins/audio-cpal, outside the workspace: it needs the
    /// system's sound library, ALSA's headers on Linux) into target/release.
    AudioCpal,
}

/// The arguments of a command xtask-tools runs, passed on as they are (its own --help
/// included).
#[derive(clap::Args)]
struct Passed {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<OsString>,
}

fn main() -> ExitCode {
    let code = command(Cli::parse());
    // Whatever the command, a standard output that failed (a full disk) fails it.
    stdio::exit_code(code, "xtask")
}

fn command(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Conform(args) => conform::run(*args),
        Command::Build => match build() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                errln!("xtask build: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Bench(p) => tools("bench", p, true),
        Command::Fuzz(p) => tools("fuzz", p, false),
        Command::Testbench(p) => tools("testbench", p, true),
        Command::AudioCpal => match audio_cpal::build() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                errln!("xtask audio-cpal: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

/// Runs `xtask-tools COMMAND ARGS` through cargo (which builds it the first time), in the
/// release build when asked, and ends with its exit code.
fn tools(command: &str, passed: Passed, release: bool) -> ExitCode {
    let mut cargo_run = std::process::Command::new(cargo());
    cargo_run.arg("run");
    if release {
        cargo_run.arg("--release");
    }
    let status = cargo_run
        .args(["--package", "xtask-tools", "--", command])
        .args(passed.args)
        .current_dir(workspace_root())
        .status();
    match status {
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| c.clamp(0, 255) as u8)),
        Err(e) => {
            errln!("cargo xtask: cannot start cargo: {e}");
            ExitCode::FAILURE
        }
    }
}
