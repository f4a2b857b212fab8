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
use std::path::{Path, PathBuf};
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
    let cli = Cli::parse();
    if let Some(code) = measure_in_release(&cli.command) {
        return code;
    }
    let code = command(cli);
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

/// `bench` and `testbench` measure speed and run hundreds of programs: they run in the
/// optimised (release) build. `cargo xtask` itself runs the tests' (dev) build, so that the
/// README's two commands, `cargo xtask conform` and `cargo test --workspace`, build the
/// workspace once between them; from there these two start the release build of xtask with
/// the same arguments (cargo builds it the first time) and end with its exit code.
fn measure_in_release(command: &Command) -> Option<ExitCode> {
    if !cfg!(debug_assertions) || !matches!(command, Command::Bench(_) | Command::Testbench(_)) {
        return None;
    }
    errln!("cargo xtask: this command runs in the release build (cargo run --release -p xtask)");
    let status = std::process::Command::new(cargo())
        .args(["run", "--release", "--package", "xtask", "--"])
        .args(std::env::args_os().skip(1))
        .current_dir(workspace_root())
        .status();
    Some(match status {
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| c.clamp(0, 255) as u8)),
        Err(e) => {
            errln!("cargo xtask: cannot start cargo: {e}");
            ExitCode::FAILURE
        }
    })
}

/// The checkout: xtask's parent folder, spelled without `..` so the paths shown are clean.
pub fn workspace_root() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().unwrap_or(xtask).to_path_buf()
}

/// The cargo that runs us (so the same toolchain), else the one on PATH.
pub fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// target/ of the workspace.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
}

/// A path as shown to the user: relative to the current folder when it is inside it
/// (target/programs/ryg3-v10.prg), else as it is.
pub fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|here| path.strip_prefix(here).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
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
                    shown(&file)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_shown_are_clean() {
        use std::path::Component;
        let root = workspace_root();
        assert!(
            !root.components().any(|c| c == Component::ParentDir),
            "{}",
            root.display()
        );
        assert!(root.join("Cargo.lock").is_file(), "{}", root.display());
        let here = std::env::current_dir().unwrap();
        let inside = here.join("target").join("x.prg");
        assert_eq!(
            shown(&inside),
            Path::new("target").join("x.prg").display().to_string()
        );
        let elsewhere = Path::new("/nowhere/x.prg");
        assert_eq!(shown(elsewhere), "/nowhere/x.prg");
    }
}
