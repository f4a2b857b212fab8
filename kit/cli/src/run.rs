//! `c64kit run` and `c64kit play`: load the file through a loader plugin, RUN it, feed keys,
//! show the run through display plugins (by default the transcript on stdout), exit with the
//! stop reason's code.

use crate::registry::{Registry, DEFAULT_DISPLAY};
use crate::session::{open_displays, CliSink, Drive};
use crate::GlobalArgs;
use anyhow::{bail, Context, Result};
use c64kit::config::Config;
use c64kit::parse_address;
use c64kit_basic::parse_key_script;
use c64kit_cpu::{Cpu, FlatRam};
use c64kit_machine::{Machine, Prg, RomPaths, Roms, StopReason, PAL_HZ};
use c64kit_plugin_api::host::Collect;
use c64kit_plugin_api::{Program, Start};
use std::path::{Path, PathBuf};

/// Default budget: 10 minutes of C64 time, so a runaway program ends with a clear reason.
const DEFAULT_MAX_CYCLES: u64 = 600 * PAL_HZ;

#[derive(clap::Args)]
pub struct RunArgs {
    /// The program: a PRG, BASIC text (.bas), assembly (.asm, .cbmprj), a tape (.t64) or disk
    /// image (.d64), or any kind a loaded plugin reads; see `c64kit plugins`.
    file: Option<PathBuf>,
    /// Keys to type: text (a newline is RETURN; letters are sent as the unshifted PETSCII
    /// codes a C64 keyboard gives), {NAME} for special keys ({RETURN}, {DEL}, {F1}...),
    /// {WAIT n} to wait n cycles, {WAITINPUT} to wait until the program asks.
    #[arg(long, conflicts_with = "input_file")]
    input: Option<String>,
    /// Read the key script from a file.
    #[arg(long)]
    input_file: Option<PathBuf>,
    /// Stop after this many cycles (default: 10 minutes of PAL C64 time).
    #[arg(long, value_parser = parse_cycles)]
    max_cycles: Option<u64>,
    /// Start here instead of following the BASIC stub's SYS.
    #[arg(long, value_parser = parse_addr)]
    start: Option<u16>,
    /// Place a raw binary (no load address) at ADDR: --load ADDR FILE. Repeatable.
    #[arg(long, num_args = 2, value_names = ["ADDR", "FILE"])]
    load: Vec<String>,
    /// A plain 6502 with 64 KiB of flat RAM: no C64 devices, port, ROM or KERNAL (like sim65).
    #[arg(long)]
    bare: bool,
    /// Stop when the PC reaches ADDR. Repeatable.
    #[arg(long = "break", value_parser = parse_addr)]
    breaks: Vec<u16>,
    /// Write one line per instruction (VICE monitor format) to FILE.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Print the 40x25 screen at the end.
    #[arg(long)]
    dump_screen: bool,
    /// Print nothing of the transcript (the exit code and --dump-screen still tell).
    #[arg(long, short)]
    quiet: bool,
    /// The folder drive 8 reads and writes (default: the current folder).
    #[arg(long)]
    drive_dir: Option<PathBuf>,
    #[arg(long)]
    basic_rom: Option<PathBuf>,
    #[arg(long)]
    kernal_rom: Option<PathBuf>,
    #[arg(long)]
    chargen_rom: Option<PathBuf>,
    /// How to show the run: transcript (default), terminal, png, html, or a loaded display.
    /// Repeatable, or comma-separated.
    #[arg(long, value_delimiter = ',')]
    display: Vec<String>,
    /// An option for a display or loader plugin: NAME.KEY=VALUE (e.g. png.scale=2). Repeatable.
    #[arg(long = "option", short = 'O', value_name = "NAME.KEY=VALUE")]
    options: Vec<String>,
    /// Write a PNG screenshot of the final screen to FILE (adds the png display).
    #[arg(long, value_name = "FILE")]
    screenshot: Option<PathBuf>,
    /// Also take a screenshot at the first frame boundary at or after CYCLES. Repeatable.
    #[arg(long, value_name = "CYCLES", value_parser = parse_cycles)]
    screenshot_at: Vec<u64>,
    /// Write the final screen as a self-contained HTML page to FILE (adds the html display).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Read the file with this loader instead of the one chosen by content and extension.
    #[arg(long)]
    loader: Option<String>,
    /// For tape and disk images: the file to run (a name, * and ? as wildcards); default the
    /// first PRG.
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
}

fn parse_cycles(s: &str) -> Result<u64, String> {
    c64kit::parse_number(s).map_err(|e| e.to_string())
}

fn parse_addr(s: &str) -> Result<u16, String> {
    parse_address(s).map_err(|e| e.to_string())
}

/// Raw binaries from --load pairs.
fn raw_loads(pairs: &[String]) -> Result<Vec<(u16, Vec<u8>, PathBuf)>> {
    pairs
        .chunks(2)
        .map(|pair| {
            let addr = parse_address(&pair[0])?;
            let path = PathBuf::from(&pair[1]);
            let bytes = std::fs::read(&path).with_context(|| format!("{}", path.display()))?;
            if addr as usize + bytes.len() > 0x10000 {
                bail!(
                    "{}: {} bytes at ${addr:04X} run past $FFFF",
                    path.display(),
                    bytes.len()
                );
            }
            Ok((addr, bytes, path))
        })
        .collect()
}

/// `run` shows a run headless and as fast as it goes; `play` runs it in real time for a
/// person at the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Run,
    Play,
}

/// `NAME.KEY=VALUE` options from the command line, by plugin name.
fn cli_options(args: &RunArgs, registry: &Registry) -> Result<Vec<(String, String, String)>> {
    args.options
        .iter()
        .map(|o| {
            let (target, value) = o
                .split_once('=')
                .with_context(|| format!("--option {o}: expected NAME.KEY=VALUE"))?;
            let (name, key) = target
                .split_once('.')
                .with_context(|| format!("--option {o}: expected NAME.KEY=VALUE"))?;
            if !registry.plugins.iter().any(|p| p.name == name) {
                bail!("--option {o}: no plugin is named {name:?} (see `c64kit plugins`)");
            }
            Ok((name.to_string(), key.to_string(), value.to_string()))
        })
        .collect()
}

fn options_for(
    name: &str,
    config: &Config,
    cli: &[(String, String, String)],
) -> Vec<(String, String)> {
    let mut options = config.options_for(name);
    options.extend(
        cli.iter()
            .filter(|(n, _, _)| n == name)
            .map(|(_, k, v)| (k.clone(), v.clone())),
    );
    options
}

/// The displays to open and their options: `--display`, else the config's `display`, else
/// transcript (terminal for `play`); `--quiet` drops the transcript; `--screenshot` and
/// `--html` add png and html.
fn display_specs(
    args: &RunArgs,
    config: &Config,
    cli: &[(String, String, String)],
    mode: Mode,
) -> Vec<(String, Vec<(String, String)>)> {
    let mut names: Vec<String> = if !args.display.is_empty() {
        args.display.clone()
    } else if mode == Mode::Play {
        vec!["terminal".to_string()]
    } else if let Some(d) = &config.display {
        d.clone()
    } else {
        vec![DEFAULT_DISPLAY.to_string()]
    };
    names = names.iter().map(|n| n.trim().to_string()).collect();
    if args.quiet {
        names.retain(|n| n != "transcript");
    }
    let mut ensure = |n: &str| {
        if !names.iter().any(|x| x == n) {
            names.push(n.to_string());
        }
    };
    if args.screenshot.is_some() || !args.screenshot_at.is_empty() {
        ensure("png");
    }
    if args.html.is_some() {
        ensure("html");
    }
    let mut unique: Vec<String> = Vec::new();
    for n in names {
        if !n.is_empty() && !unique.contains(&n) {
            unique.push(n);
        }
    }
    unique
        .into_iter()
        .map(|name| {
            let mut options = Vec::new();
            if let Some(f) = &args.file {
                options.push(("program".to_string(), f.display().to_string()));
            }
            if mode == Mode::Play {
                options.push(("play".to_string(), "true".to_string()));
            }
            options.extend(options_for(&name, config, cli));
            if name == "png" {
                if let Some(f) = &args.screenshot {
                    options.push(("output".to_string(), f.display().to_string()));
                }
                for at in &args.screenshot_at {
                    options.push(("at".to_string(), at.to_string()));
                }
            }
            if name == "html" {
                if let Some(f) = &args.html {
                    options.push(("output".to_string(), f.display().to_string()));
                }
            }
            (name, options)
        })
        .collect()
}

/// Reads `file` and turns it into a program with the loader that fits (or `--loader`).
pub fn load_program(
    registry: &Registry,
    file: &Path,
    forced: Option<&str>,
    options: &dyn Fn(&str) -> Vec<(String, String)>,
) -> Result<(Program, String)> {
    let shown = file.display().to_string();
    let bytes = std::fs::read(file).with_context(|| shown.clone())?;
    let loader = match forced {
        Some(name) => registry.loader(name)?,
        None => registry.loader_for(file, &bytes)?,
    };
    let mut sink = Collect::default();
    let program = loader
        .load(&shown, &bytes, &options(&loader.name), &mut sink)
        .map_err(|e| {
            if e.panicked {
                anyhow::anyhow!("{shown}: {} {}", loader.label(), e.message)
            } else if e.message.starts_with(&shown) {
                anyhow::anyhow!("{}", e.message)
            } else {
                anyhow::anyhow!("{shown}: {}", e.message)
            }
        })?;
    for n in sink.notes {
        eprintln!("c64kit: {}: {n}", loader.name);
    }
    Ok((program, loader.name.clone()))
}

pub fn run(args: RunArgs, global: &GlobalArgs, mode: Mode) -> Result<i32> {
    let config = Config::find(global.config.as_deref())?;
    let registry = Registry::new(&config, &global.plugins)?;
    let cli = cli_options(&args, &registry)?;
    let max_cycles = args.max_cycles.or(config.max_cycles).unwrap_or(match mode {
        Mode::Run => DEFAULT_MAX_CYCLES,
        Mode::Play => u64::MAX,
    });
    let loader_options = |name: &str| {
        let mut o = options_for(name, &config, &cli);
        if let Some(e) = &args.entry {
            o.push(("file".to_string(), e.clone()));
        }
        o
    };
    let load = |file: &Path| -> Result<(Program, String)> {
        load_program(&registry, file, args.loader.as_deref(), &loader_options)
    };
    if args.bare {
        if mode == Mode::Play {
            bail!("--bare has no screen or keyboard to play with");
        }
        return run_bare(&args, max_cycles, &load);
    }
    let rom_paths = RomPaths {
        basic: args.basic_rom.clone().or(config.basic_rom.clone()),
        kernal: args.kernal_rom.clone().or(config.kernal_rom.clone()),
        chargen: args.chargen_rom.clone().or(config.chargen_rom.clone()),
    };
    let roms = Roms::load(&rom_paths)?;
    let chargen = rom_paths.chargen.is_some().then(|| roms.chargen.clone());
    let mut m = Machine::new(roms);
    if let Some(dir) = &args.drive_dir {
        m.kernal.drive_dir = dir.clone();
    }
    let mut program_end = 0x0801;
    let mut start = args.start;
    for (addr, bytes, _) in raw_loads(&args.load)? {
        m.load_raw(addr, &bytes);
        program_end = program_end.max(addr as usize + bytes.len()).min(0xFFFF);
        start = start.or(Some(addr));
    }
    if let Some(file) = &args.file {
        let (program, loader) = load(file)?;
        if loader != crate::registry::DEFAULT_LOADER && !program.description.is_empty() {
            eprintln!("c64kit: {}", program.description);
        }
        for seg in &program.segments {
            m.load_raw(seg.address, &seg.bytes);
        }
        let first = &program.segments[0];
        let first = Prg {
            load_address: first.address,
            data: first.bytes.clone(),
        };
        match (start, program.start) {
            (Some(_), _) => {
                for seg in &program.segments {
                    program_end = program_end.max(seg.address as usize + seg.bytes.len());
                }
                program_end = program_end.min(0xFFFF);
            }
            (None, Start::At(addr)) => {
                for seg in &program.segments {
                    program_end = program_end.max(seg.address as usize + seg.bytes.len());
                }
                program_end = program_end.min(0xFFFF);
                start = Some(addr);
            }
            (None, Start::Run) => {
                let sys = first.sys_address().ok_or_else(|| {
                    anyhow::anyhow!(
                        "{}: no SYS in the BASIC program at ${:04X}; give the start address \
                         with --start",
                        file.display(),
                        first.load_address
                    )
                })?;
                m.start_at(sys, first.end_address());
            }
        }
    } else if start.is_none() {
        bail!("nothing to run: give a program file, or --load ADDR FILE");
    }
    if let Some(addr) = start {
        m.start_at(addr, program_end as u16);
    }
    if let Some(script) = key_script(&args)? {
        m.feed_keys(script);
    }
    for b in &args.breaks {
        m.set_breakpoint(*b);
    }
    if let Some(path) = &args.trace {
        let f = std::fs::File::create(path).with_context(|| format!("{}", path.display()))?;
        m.trace = Some(Box::new(std::io::BufWriter::new(f)));
    }
    // A program without the KERNAL's help usually ends in `JMP *`.
    m.stop_on_stuck_loop = args.start.is_some() || !args.load.is_empty();
    if mode == Mode::Play {
        // A person types when they like: an empty keyboard buffer is not the end.
        m.kernal.idle_poll_limit = u32::MAX;
    }
    let specs = display_specs(&args, &config, &cli, mode);
    let mut chosen = Vec::new();
    for (name, options) in specs {
        chosen.push((registry.display(&name)?, options));
    }
    let mut sink = CliSink::default();
    let mut displays = open_displays(&chosen, &mut sink)?;
    let mut drive = Drive {
        displays: &mut displays,
        sink: &mut sink,
        chargen: chargen.as_deref(),
        realtime: mode == Mode::Play,
    };
    let outcome = drive.run(&mut m, max_cycles);
    m.trace = None; // flushes the trace file
    let outcome = outcome?;
    drive.finish(&m, &outcome)?;
    drop(displays); // a terminal display restores the terminal here
    if args.dump_screen {
        for line in m.screen_text() {
            println!("|{line}|");
        }
    }
    report(&outcome.text(), m.cycles(), m.cpu.pc);
    Ok(outcome.exit_code())
}

fn key_script(args: &RunArgs) -> Result<Option<Vec<c64kit_basic::KeyEvent>>> {
    let text = match (&args.input, &args.input_file) {
        (Some(t), _) => t.clone(),
        (None, Some(path)) => {
            std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?
        }
        (None, None) => return Ok(None),
    };
    let source = args
        .input_file
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "--input".into());
    let events = parse_key_script(&text).map_err(|e| anyhow::anyhow!("{source}: {e}"))?;
    Ok(Some(events))
}

/// The stop reason and time on stderr, so stdout is the program's output alone.
fn report(stop: &str, cycles: u64, pc: u16) {
    eprintln!(
        "c64kit: {stop} after {cycles} cycles ({:.3} s of PAL C64 time), PC=${pc:04X}",
        cycles as f64 / PAL_HZ as f64
    );
}

/// --bare: the CPU on flat RAM; ends on a stuck loop, JAM, breakpoint or the budget.
fn run_bare(
    args: &RunArgs,
    max_cycles: u64,
    load: &dyn Fn(&Path) -> Result<(Program, String)>,
) -> Result<i32> {
    let mut ram = FlatRam::new();
    let mut start = args.start;
    for (addr, bytes, _) in raw_loads(&args.load)? {
        ram.load(addr, &bytes);
        start = start.or(Some(addr));
    }
    if let Some(file) = &args.file {
        let (program, _) = load(file)?;
        for seg in &program.segments {
            ram.load(seg.address, &seg.bytes);
        }
        start = start.or(Some(match program.start {
            Start::At(a) => a,
            Start::Run => program.segments[0].address,
        }));
    }
    let Some(start) = start else {
        bail!("--bare needs a program: a PRG, or --load ADDR FILE (and --start ADDR)");
    };
    let mut cpu = Cpu::new();
    cpu.pc = start;
    let stop = loop {
        if args.breaks.is_empty() {
            // Straight on RAM up to anything the exact step must see: a JAM, a jump to itself.
            cpu.run_direct(&mut ram, max_cycles);
        }
        if ram.cycles >= max_cycles {
            break StopReason::CycleBudget { cycles: ram.cycles };
        }
        let pc = cpu.pc;
        if args.breaks.contains(&pc) && ram.cycles > 0 {
            break StopReason::Breakpoint { pc };
        }
        cpu.step(&mut ram);
        if cpu.jammed {
            break StopReason::Jammed {
                pc: cpu.pc,
                opcode: ram.mem[cpu.pc as usize],
            };
        }
        if cpu.pc == pc {
            break StopReason::StuckLoop { pc };
        }
    };
    report(&stop.to_string(), ram.cycles, cpu.pc);
    Ok(stop.exit_code())
}
