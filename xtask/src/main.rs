//! Developer commands: `cargo xtask conform | build | bench | fuzz | testbench |
//! audio-cpal`.

// Standard output and error go through c64kit_files::stdio (outln!, errln!), which never
// panics; println! and eprintln! panic when the reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

mod audio_cpal;
mod bench;
mod conform;
mod fuzz;
mod testbench;

use c64kit_files::{errln, io_reason, outln, stdio};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build our programs and replay every published fact; exit 0 only if all pass.
    Conform(c64kit_conformance::app::ConformArgs),
    /// Assemble every program in programs/ into target/programs/NAME.prg.
    Build,
    /// Emulation speed on the RYG3 engine next to mos6502 and py65, and the time of
    /// `conform`; the criterion benchmarks only with --criterion.
    Bench(bench::BenchArgs),
    /// Coverage-guided fuzzing of every parser and loader with libFuzzer (stable Rust);
    /// findings are kept in fuzz/reproducers/ as regression tests.
    Fuzz(fuzz::FuzzArgs),
    /// VICE's hardware test programs (../shared/vice-testprogs) on c64kit, per area beside
    /// x64sc's verdicts; records the results in testbench/results/exitcode.tsv and
    /// screenshot.tsv.
    Testbench(testbench::TestbenchArgs),
    /// Build the live sound plugin (plugins/audio-cpal, outside the workspace: it needs the
    /// system's sound library, ALSA's headers on Linux) into target/release.
    AudioCpal,
}

/// What xtask writes to standard output, for the message when it cannot.
const WHAT: &str = "the results";

fn main() -> ExitCode {
    let code = command(Cli::parse());
    // Whatever the command, a standard output that failed (a full disk) fails it.
    stdio::exit_code(code, "xtask")
}

fn command(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Conform(args) => conform::run(args),
        Command::Build => match build() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                errln!("xtask build: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Bench(args) => bench::run(args),
        Command::Fuzz(args) => fuzz::run(args),
        Command::Testbench(args) => testbench::run(args),
        Command::AudioCpal => match audio_cpal::build() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                errln!("xtask audio-cpal: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

/// target/ of the workspace.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"))
}

/// Assembles every project into target/programs.
pub fn build() -> Result<(), String> {
    let out = target_dir().join("programs");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut errors = Vec::new();
    for (name, path) in c64kit_programs::projects() {
        match c64kit_programs::build_project(&path) {
            Ok(prg) => {
                let file = out.join(format!("{name}.prg"));
                c64kit_files::write_output(&file, &prg.to_bytes())
                    .map_err(|e| format!("{}: {}", file.display(), io_reason(&e)))?;
                outln!(
                    WHAT,
                    "{:<12} ${:04X}-${:04X} {:>6} bytes -> {}",
                    name,
                    prg.load_address,
                    prg.end_address(),
                    prg.data.len(),
                    file.display()
                );
            }
            Err(e) => errors.push(format!("{}:\n{e}", path.display())),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}
