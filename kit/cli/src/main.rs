//! `c64kit`: the command line over the kit's libraries.

// Standard output and error go through c64kit_files::stdio (outln!, errln!), which never
// panics; println! and eprintln! panic when the reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

mod asm;
mod frames;
mod labels;
mod registry;
mod run;
mod session;
mod sound;
mod test_host;
mod trace_file;

use anyhow::{bail, Result};
use c64kit::{config, derived_output, exit_code, limits, UsageError};
use c64kit_files::{errln, io_reason, stdio};
use c64kit_machine::Prg;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "c64kit",
    version,
    about = "Run Commodore 64 programs headless, fast and exactly"
)]
struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

/// Options for every command that uses plugins.
#[derive(clap::Args, Debug, Default)]
pub struct GlobalArgs {
    /// Load display, loader or audio plugins from this library (.so, .dylib, .dll).
    /// Repeatable.
    #[arg(long = "plugin", global = true, value_name = "LIBRARY")]
    pub plugins: Vec<PathBuf>,
    /// Settings file (default: c64kit.toml in the current folder, if there is one).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Load a program and RUN it; print what it printed.
    Run(run::RunArgs),
    /// Load a program and RUN it in real time in the terminal, for a person at the keyboard
    /// (Esc or Ctrl-C quits).
    Play(run::PlayArgs),
    /// List the display, loader and audio plugins: built-in and loaded, with versions.
    Plugins,
    /// Print the directory of a disk or tape image (.d64, .t64).
    Dir {
        /// The image.
        file: PathBuf,
        /// Read it with this loader instead of the one chosen by content and extension.
        #[arg(long)]
        loader: Option<String>,
    },
    /// Assemble a CBM prg Studio .cbmprj project, or source files in build order, into a PRG.
    Asm(asm::AsmArgs),
    /// List a tokenized BASIC program (like petcat -2).
    List {
        /// The PRG file.
        file: PathBuf,
    },
    /// Judge a program against the RYG blog's published facts (the conformance suite, built
    /// in): `c64kit conform my-ryg3.prg --as ryg3-v10`; without a program, our own.
    Conform(c64kit_conformance::app::ConformArgs),
    /// Run your own scenario files (default: the tests folder): a program (.prg, .bas, .asm,
    /// .cbmprj), the keys to type, and what must come out (docs/testing.md).
    Test(c64kit_conformance::test::TestArgs),
    /// Tokenize a BASIC text file into a PRG (like petcat -w2).
    Tokenize {
        /// The BASIC text file ("10 PRINT ..." lines).
        file: PathBuf,
        /// Output PRG (default: the input with .prg; NAME-tokenized.prg for a NAME.prg, so
        /// the input is never written over).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let code = match Cli::try_parse() {
        Ok(cli) => command(cli),
        Err(e) => parse_failed(e),
    };
    // Whatever the command, a standard output that failed (a full disk) fails it.
    stdio::exit_code(code, "c64kit")
}

fn command(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Conform(args) => return c64kit_conformance::app::run(&args, "c64kit conform"),
        Command::Test(_) if cli.global.config.is_some() => Err(c64kit::usage(
            "--config: c64kit test reads no settings file, so a suite runs the same from any \
             folder; give each scenario its settings under [scenario.settings] \
             (docs/testing.md)",
        )),
        Command::Test(args) => {
            // The loaders of `c64kit run`: the built-in ones and those of --plugin.
            match registry::Registry::new(&config::Config::default(), &cli.global.plugins) {
                Ok(registry) => {
                    let host = test_host::TestHost { registry };
                    return c64kit_conformance::test::run(&args, "c64kit test", &host);
                }
                Err(e) => Err(e),
            }
        }
        Command::Run(args) => run::run(args, &cli.global, run::Mode::Run, false),
        Command::Play(args) => run::run(args.run, &cli.global, run::Mode::Play, args.joy_keys),
        Command::Plugins => plugins(&cli.global).map(|_| 0),
        Command::Dir { file, loader } => dir(&cli.global, &file, loader.as_deref()).map(|_| 0),
        Command::Asm(args) => asm::asm(args).map(|_| 0),
        Command::List { file } => list(&file).map(|_| 0),
        Command::Tokenize { file, output } => tokenize(&file, output).map(|_| 0),
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) if e.is::<UsageError>() => {
            errln!("c64kit: {e}\n\nFor more information, try '--help'.");
            ExitCode::from(exit_code(&e))
        }
        Err(e) => {
            errln!("c64kit: {e:#}");
            ExitCode::from(exit_code(&e))
        }
    }
}

/// What the argument parser found: help and the version as it prints them, and mistakes as
/// c64kit's other errors begin ("c64kit: ..."), exit code 2.
fn parse_failed(e: clap::Error) -> ExitCode {
    let text = e.render().to_string();
    if !e.use_stderr() {
        // --help and --version: on stdout, through the path that knows a full disk.
        stdio::print(&text, "the help");
        return ExitCode::SUCCESS;
    }
    errln!(
        "c64kit: {}",
        text.strip_prefix("error: ").unwrap_or(&text).trim_end()
    );
    ExitCode::from(c64kit::USAGE_EXIT_CODE)
}

fn list(file: &Path) -> Result<()> {
    let bytes = c64kit_files::read(file, Prg::MAX_FILE_SIZE, "a PRG")?;
    let text = c64kit_basic::list_program(&bytes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    stdio::print(&text, "the listing");
    Ok(())
}

fn tokenize(file: &Path, output: Option<PathBuf>) -> Result<()> {
    let text = c64kit_files::read_text(file, limits::BASIC_TEXT, "BASIC text")?;
    let out = output.unwrap_or_else(|| derived_output(file, "prg", "tokenized"));
    c64kit_files::ensure_not_input(
        &out,
        "the output",
        &[(file.to_path_buf(), "the BASIC text".to_string())],
    )
    .map_err(anyhow::Error::msg)?;
    let prg = c64kit_basic::tokenize(&text, 0x0801)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    c64kit_files::write_output(&out, &prg)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", out.display(), io_reason(&e)))?;
    Ok(())
}

fn plugins(global: &GlobalArgs) -> Result<()> {
    let config = config::Config::find(global.config.as_deref())?;
    let registry = registry::Registry::new(&config, &global.plugins)?;
    let default_display = config
        .display
        .as_ref()
        .and_then(|d| d.first().cloned())
        .unwrap_or_else(|| registry::DEFAULT_DISPLAY.to_string());
    stdio::print(&registry.listing(&default_display), "the plugin list");
    Ok(())
}

fn dir(global: &GlobalArgs, file: &Path, loader: Option<&str>) -> Result<()> {
    let config = config::Config::find(global.config.as_deref())?;
    let registry = registry::Registry::new(&config, &global.plugins)?;
    let shown = file.display().to_string();
    let bytes = c64kit_files::read(file, limits::PROGRAM_FILE, "a disk or tape image")?;
    let loader = match loader {
        Some(name) => registry.loader(name)?,
        None => registry.loader_for(file, &bytes)?,
    };
    match loader.directory(&shown, &bytes) {
        Ok(Some(text)) => {
            stdio::print(&text, "the directory");
            Ok(())
        }
        Ok(None) => bail!(
            "{shown}: the {} loader has no directory listing (not a disk or tape image?)",
            loader.name
        ),
        Err(e) if e.panicked => bail!("{shown}: {} {}", loader.label(), e.message),
        Err(e) if e.message.starts_with(&shown) => bail!("{}", e.message),
        Err(e) => bail!("{shown}: {}", e.message),
    }
}
