//! `c64kit run`: load, RUN, feed keys, print the transcript, exit with the stop reason's code.

use crate::parse_address;
use anyhow::{bail, Context, Result};
use c64kit_basic::{parse_key_script, render_petscii, RenderOptions};
use c64kit_cpu::{Cpu, FlatRam};
use c64kit_machine::{Machine, Prg, RomPaths, Roms, StopReason, PAL_HZ};
use std::path::PathBuf;

/// Default budget: 10 minutes of C64 time, so a runaway program ends with a clear reason.
const DEFAULT_MAX_CYCLES: u64 = 600 * PAL_HZ;

#[derive(clap::Args)]
pub struct RunArgs {
    /// The program: a PRG (load address first) unless --load/--bare say otherwise.
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
}

fn parse_cycles(s: &str) -> Result<u64, String> {
    crate::parse_number(s).map_err(|e| e.to_string())
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

pub fn run(args: RunArgs) -> Result<i32> {
    let max_cycles = args.max_cycles.unwrap_or(DEFAULT_MAX_CYCLES);
    if args.bare {
        return run_bare(&args, max_cycles);
    }
    let roms = Roms::load(&RomPaths {
        basic: args.basic_rom.clone(),
        kernal: args.kernal_rom.clone(),
        chargen: args.chargen_rom.clone(),
    })?;
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
        let bytes = std::fs::read(file).with_context(|| format!("{}", file.display()))?;
        let prg = Prg::parse(&bytes, &file.display().to_string())?;
        match start {
            Some(_) => {
                m.load_prg(&prg);
                program_end = program_end.max(prg.end_address() as usize);
            }
            None => {
                m.load_and_run_prg(&prg)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            }
        }
    } else if start.is_none() {
        bail!("nothing to run: give a PRG file, or --load ADDR FILE");
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
    let stop = m.run(max_cycles);
    m.trace = None; // flushes the trace file
    if !args.quiet {
        let text = render_petscii(m.transcript(), &RenderOptions::default());
        print!("{text}");
        if !text.is_empty() && !text.ends_with('\n') {
            println!();
        }
    }
    if args.dump_screen {
        for line in m.screen_text() {
            println!("|{line}|");
        }
    }
    report(&stop, m.cycles(), m.cpu.pc);
    Ok(stop.exit_code())
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
fn report(stop: &StopReason, cycles: u64, pc: u16) {
    eprintln!(
        "c64kit: {stop} after {cycles} cycles ({:.3} s of PAL C64 time), PC=${pc:04X}",
        cycles as f64 / PAL_HZ as f64
    );
}

/// --bare: the CPU on flat RAM; ends on a stuck loop, JAM, breakpoint or the budget.
fn run_bare(args: &RunArgs, max_cycles: u64) -> Result<i32> {
    let mut ram = FlatRam::new();
    let mut start = args.start;
    for (addr, bytes, _) in raw_loads(&args.load)? {
        ram.load(addr, &bytes);
        start = start.or(Some(addr));
    }
    if let Some(file) = &args.file {
        let bytes = std::fs::read(file).with_context(|| format!("{}", file.display()))?;
        let prg = Prg::parse(&bytes, &file.display().to_string())?;
        ram.load(prg.load_address, &prg.data);
        start = start.or(Some(prg.load_address));
    }
    let Some(start) = start else {
        bail!("--bare needs a program: a PRG, or --load ADDR FILE (and --start ADDR)");
    };
    let mut cpu = Cpu::new();
    cpu.pc = start;
    let stop = loop {
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
    report(&stop, ram.cycles, cpu.pc);
    Ok(stop.exit_code())
}
