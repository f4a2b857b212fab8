//! `c64kit run` and `c64kit play`: load the file through a loader plugin, RUN it, feed keys,
//! show the run through display plugins (by default the transcript on stdout), hear it
//! through audio plugins when asked (`--audio`), exit with the stop reason's code.

use crate::labels::RunLabels;
use crate::registry::{Registry, DEFAULT_AUDIO, DEFAULT_DISPLAY};
use crate::session::{open_displays, print_drive_notes, CliSink, Drive, Outcome};
use crate::sound::{Heard, Sound};
use crate::trace_file::TraceFile;
use crate::GlobalArgs;
use anyhow::{bail, Result};
use c64kit::config::{C64Model, CiaModel, Config, PaletteChoice, SidModel, VicModel};
use c64kit::parse_address;
use c64kit::{limits, usage, NotProvided};
use c64kit_basic::{parse_key_script, NoSys};
use c64kit_cpu::{Cpu, FlatRam, ANE_MAGIC, LXA_MAGIC};
use c64kit_files::{errln, stdio};
use c64kit_machine::input::{default_key_hold, hold_cycles_on};
use c64kit_machine::kernal::{AfterReturn, DEFAULT_IDLE_POLL_LIMIT};
use c64kit_machine::roms::RomError;
use c64kit_machine::{
    load_name_of, trace_line, Entry, Machine, RomPaths, Roms, RunSettings, Segment, StartError,
    StopReason, PAL_HZ,
};
use c64kit_plugin_api::host::{Collect, Kind};
use c64kit_plugin_api::{Options, Program, Start};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Default budget: 10 minutes of C64 time, so a runaway program ends with a clear reason.
const DEFAULT_MAX_CYCLES: u64 = 600 * PAL_HZ;

#[derive(clap::Args)]
pub struct RunArgs {
    /// The program: a PRG, BASIC text (.bas), assembly (.asm, .cbmprj), a tape (.t64) or disk
    /// image (.d64), or any kind a loaded plugin reads; see `c64kit plugins`. Without it,
    /// `play` boots BASIC to READY. (type programs there) and `run --input KEYS` types the
    /// keys at READY.
    file: Option<PathBuf>,
    /// Keys to type: text (a newline is RETURN; letters are sent as the unshifted PETSCII
    /// codes a C64 keyboard gives), {NAME} for special keys ({RETURN}, {DEL}, {F1}...),
    /// {WAIT n} to wait n cycles, {WAITINPUT} to wait until the program asks, {SHIFT-1},
    /// {CBM-K}, {CTRL-9} for combinations, {SHIFT-CBM} to switch the character set,
    /// {RESTORE}, {JOY2 UP FIRE 25f} for joysticks,
    /// {PADDLE1 128} and {PADDLE1 FIRE} for paddles, {MOUSE1 5 -3} and {MOUSE1 LEFT} for a
    /// 1351 mouse.
    #[arg(long, conflicts_with = "input_file")]
    input: Option<String>,
    /// Read the key script from a file.
    #[arg(long)]
    input_file: Option<PathBuf>,
    /// Stop after this many cycles (default: 10 minutes of PAL C64 time).
    #[arg(long, value_parser = parse_budget, allow_negative_numbers = true)]
    max_cycles: Option<u64>,
    /// Start here instead of following the BASIC stub's SYS: ADDR, or LABEL of the --labels
    /// file.
    #[arg(long, value_name = "ADDR|LABEL")]
    start: Option<String>,
    /// Place a raw binary (no load address) at ADDR: --load ADDR FILE. Repeatable.
    #[arg(long, num_args = 2, value_names = ["ADDR", "FILE"])]
    load: Vec<String>,
    /// A plain 6502 with 64 KiB of flat RAM: no C64 devices, port, ROM or KERNAL (like sim65).
    #[arg(long)]
    bare: bool,
    /// Stop when the PC reaches ADDR, or LABEL of the --labels file (`main`, `.main`,
    /// `main+3`). Repeatable.
    #[arg(long = "break", value_name = "ADDR|LABEL")]
    breaks: Vec<String>,
    /// A VICE monitor label file (`al C:0820 .main`, as `c64kit asm --labels` writes): --break
    /// and --start take its names, and the trace and a breakpoint's stop reason show them.
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    /// Write one line per instruction (VICE monitor format) to FILE.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Print the 40x25 screen at the end.
    #[arg(long)]
    dump_screen: bool,
    /// Print nothing of the transcript (the exit code and --dump-screen still tell).
    #[arg(long, short)]
    quiet: bool,
    /// ANE's and LXA's "magic" constants, "ANE,LXA" or one value for both: default
    /// "$EF,$EE" (what most C64s show, and VICE's); "$00" is the netlist simulation's.
    #[arg(long, value_name = "MAGIC", value_parser = c64kit::parse_cpu_magic)]
    cpu_magic: Option<(u8, u8)>,
    /// The CIAs: `6526` (the default: the "old" chip of a PAL breadbin C64) or `6526a` (the
    /// "new" chip of a C64C: interrupts one cycle earlier, no timer B bug).
    #[arg(long, value_name = "6526|6526a", value_parser = c64kit::config::parse_cia_model)]
    cia: Option<CiaModel>,
    /// The SID: `6581` (the default: the "old" chip of a breadbin C64) or `8580` (the "new"
    /// chip of a C64C: other combined waveforms, longer-lived bus value and floating output).
    #[arg(long, value_name = "6581|8580", value_parser = c64kit::config::parse_sid_model)]
    sid: Option<SidModel>,
    /// The VIC-II: `6569` (the default: PAL, 63 cycles a line, 312 lines, 985,248 Hz),
    /// `6567r8` (NTSC: 65 cycles, 263 lines, 1,022,727 Hz), `6567r56a` (the first NTSC
    /// chip: 64 cycles, 262 lines), or a C64C's `8565` (PAL) or `8562` (NTSC), which have
    /// the 6569's and 6567R8's timing without their colour latency (the grey dot). It
    /// decides the clock and mains frequency too: the real KERNAL's 60 Hz timer, the CIAs'
    /// TOD, real time under `play`.
    #[arg(long, value_name = "6569|6567r8|6567r56a|8565|8562", value_parser = c64kit::config::parse_vic_model)]
    vic: Option<VicModel>,
    /// The colours the displays show: `pepto` (the default: Pepto's PAL palette on every
    /// model, as VICE's testbench shows x64sc's pictures) or `chip` (the VIC-II model's own,
    /// calculated from its luminances as Pepto's article does: on the first NTSC chip,
    /// `6567r56a`, dark grey, grey and light grey are as bright as red, purple and cyan).
    #[arg(long, value_name = "pepto|chip", value_parser = c64kit::config::parse_palette)]
    palette: Option<PaletteChoice>,
    /// A C64 as VICE's x64sc `-model` names it: `c64` (PAL), `c64-ntsc`, `c64-ntsc-old`,
    /// `c64c` or `c64c-ntsc` (8565/8562, 6526A, 8580, the C64C's glue chip before the
    /// VIC-II's bank), choosing the VIC-II, CIAs and SID together; `--vic`, `--cia` and
    /// `--sid` override it.
    #[arg(long, value_name = "c64|c64-ntsc|c64-ntsc-old|c64c|c64c-ntsc", value_parser = c64kit::config::parse_c64_model)]
    model: Option<C64Model>,
    /// What a return to BASIC does: `return` ends the run (the default of `run`); `wait`
    /// prints READY. and idles as BASIC would, interrupts on, so a program that installed an
    /// interrupt routine keeps running, until the budget or the key script's end (the
    /// default of `play`).
    #[arg(long, value_name = "return|wait", value_parser = ["return", "wait"])]
    after_return: Option<String>,
    /// How long each scripted (or typed) key is held down in the C64's keyboard matrix, for
    /// programs that scan the keyboard themselves: frames (3f, the default), milliseconds
    /// (60ms) or cycles (59000c). The next key a program's own scan can take comes one frame
    /// after the release; the KERNAL's GETIN still takes keys when it asks.
    #[arg(long, value_name = "TIME", value_parser = parse_key_hold)]
    key_hold: Option<c64kit_basic::Hold>,
    /// Plug in VICE's debug cartridge: the program's first write to $D7FF ends the run with
    /// that value ("debug cartridge: $00"; exit code 0 for $00, 11 for any other value).
    /// Off by default: $D7FF is a SID mirror on a real C64.
    #[arg(long)]
    debugcart: bool,
    /// When the program returns to BASIC, exit with the status it left in ST ($90) instead
    /// of 0, as sim65 exits with a program's code: cc65 programs leave `main`'s return value
    /// (or `exit`'s) there; assembly programs LDA #code, STA $90, RTS. Other stops keep
    /// their exit codes.
    #[arg(long)]
    exit_status: bool,
    /// The folder drive 8 reads and writes (a 1541 over the folder; it must exist). Without
    /// it (or drive_dir in c64kit.toml) drive 8 reads the current folder and refuses writes.
    #[arg(long)]
    drive_dir: Option<PathBuf>,
    /// Commodore's BASIC ROM image (8 KiB, $A000-$BFFF) instead of c64kit's own; goes with
    /// --kernal-rom. c64kit ships no Commodore ROM.
    #[arg(long, value_name = "FILE")]
    basic_rom: Option<PathBuf>,
    /// Commodore's KERNAL ROM image (8 KiB, $E000-$FFFF) instead of c64kit's trap KERNAL.
    #[arg(long, value_name = "FILE")]
    kernal_rom: Option<PathBuf>,
    /// Commodore's character ROM image (4 KiB) for the VIC-II's text instead of c64kit's own.
    #[arg(long, value_name = "FILE")]
    chargen_rom: Option<PathBuf>,
    /// How to show the run: transcript (default), terminal, png, html, gif, or a loaded
    /// display (`c64kit plugins` lists them).
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
    /// Record the run's frames as an animated GIF to FILE (adds the gif display). The machine
    /// then draws every frame, which makes the run slower (still far faster than real time).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// With --record: keep every Nth frame (default 1: all 50 a second).
    #[arg(long, value_name = "N", requires = "record", value_parser = clap::value_parser!(u64).range(1..))]
    record_every: Option<u64>,
    /// Hear the run: a FILE (out.wav) records the SID's sound as a WAV file (the wav audio
    /// output); a NAME uses that audio output (wav, or a loaded one: cpal plays it live);
    /// `none`: no sound. Repeatable. Sound is synthesised only when an output is asked for.
    #[arg(long, value_name = "FILE|NAME")]
    audio: Vec<String>,
    /// Samples per second of the sound, for every audio output (default: the first output's
    /// own; wav's is 44,100).
    #[arg(long, value_name = "HZ", value_parser = parse_audio_rate)]
    audio_rate: Option<u32>,
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

fn parse_budget(s: &str) -> Result<u64, String> {
    c64kit::parse_budget(s).map_err(|e| e.to_string())
}

fn parse_audio_rate(s: &str) -> Result<u32, String> {
    c64kit::config::parse_audio_rate(s).map_err(|e| e.to_string())
}

/// A key hold (`3f`, `60ms`, `59000c`): in cycles once the C64's VIC-II is known (its frames
/// and clock).
pub fn parse_key_hold(s: &str) -> Result<c64kit_basic::Hold, String> {
    c64kit_basic::parse_hold(s)
}

/// `c64kit play`: `run`'s options, and the keys a person uses as a joystick.
#[derive(clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Use the keyboard as joystick 2: the cursor keys are up, down, left and right, the
    /// space bar is fire; each press holds the line for 6 frames (a terminal's key repeat
    /// keeps it held). Those keys then type nothing; the other keys type as usual.
    #[arg(long)]
    pub joy_keys: bool,
}

/// Raw binaries from --load pairs.
fn raw_loads(pairs: &[String]) -> Result<Vec<(u16, Vec<u8>, PathBuf)>> {
    pairs
        .chunks(2)
        .map(|pair| {
            let addr = parse_address(&pair[0])?;
            let path = PathBuf::from(&pair[1]);
            let bytes = c64kit_files::read(&path, limits::RAW_BINARY, "a raw binary")?;
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
            let malformed = || usage(format!("--option {o}: expected NAME.KEY=VALUE"));
            let (target, value) = o.split_once('=').ok_or_else(malformed)?;
            let (name, key) = target.split_once('.').ok_or_else(malformed)?;
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
/// transcript (terminal for `play`); `--quiet` drops the transcript; `--screenshot`,
/// `--html` and `--record` add png, html and gif.
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
    if args.record.is_some() {
        ensure("gif");
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
            let mut options = plugin_options(&name, args, config, cli, mode);
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
            if name == "gif" {
                if let Some(f) = &args.record {
                    options.push(("output".to_string(), f.display().to_string()));
                }
                if let Some(n) = args.record_every {
                    options.push(("every".to_string(), n.to_string()));
                }
            }
            (name, options)
        })
        .collect()
}

/// The options every output plugin is opened with: the program's path, whether the run is
/// `play`, and the plugin's own settings (the config's, then the command line's).
fn plugin_options(
    name: &str,
    args: &RunArgs,
    config: &Config,
    cli: &[(String, String, String)],
    mode: Mode,
) -> Vec<(String, String)> {
    let mut options = Vec::new();
    if let Some(f) = &args.file {
        options.push(("program".to_string(), f.display().to_string()));
    }
    if mode == Mode::Play {
        options.push(("play".to_string(), "true".to_string()));
    }
    options.extend(options_for(name, config, cli));
    options
}

/// A plugin to open, by name, and its options.
type Spec = (String, Vec<(String, String)>);

/// The audio outputs asked for and their options: `--audio` (a plugin's name, else a file
/// with an extension or a folder for the wav output; `none` for no sound), else the settings' `audio` (names), else, under
/// `play`, the live output loaded last (a sound card), if any. The second value is true for
/// that last case: an output nobody named, which the run does without if it cannot open.
fn audio_specs(
    args: &RunArgs,
    config: &Config,
    cli: &[(String, String, String)],
    registry: &Registry,
    mode: Mode,
) -> Result<(Vec<Spec>, bool)> {
    let mut chosen: Vec<(String, Option<String>)> = Vec::new();
    let mut implicit = false;
    if !args.audio.is_empty() {
        for a in &args.audio {
            if registry.find(Kind::Audio, a).is_some() {
                chosen.push((a.clone(), None));
            } else if a == "none" {
            } else if is_bare_word(a) {
                // A plugin's name, most likely, whose library is not loaded: a WAV file
                // named after it would hide the mistake.
                bail!(
                    "--audio {a}: no audio output is named {a:?} (there are: {}); load \
                     another with --plugin LIBRARY (or plugins = [...] in c64kit.toml); a file \
                     to write needs an extension or a folder: {a}.wav, ./{a}",
                    registry.names(Kind::Audio)
                );
            } else {
                chosen.push((DEFAULT_AUDIO.to_string(), Some(a.clone())));
            }
        }
        if args.audio.iter().any(|a| a == "none") {
            chosen.clear();
        }
    } else if let Some(names) = &config.audio {
        if !names.iter().any(|n| n == "none") {
            for n in names {
                registry
                    .audio(n)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", config.key("audio")))?;
                chosen.push((n.clone(), None));
            }
        }
    } else if mode == Mode::Play {
        if let Some(p) = registry.live_audio() {
            chosen.push((p.name.clone(), None));
            implicit = true;
        }
    }
    let mut unique: Vec<(String, Option<String>)> = Vec::new();
    for c in chosen {
        if !unique.contains(&c) {
            unique.push(c);
        }
    }
    let specs = unique
        .into_iter()
        .map(|(name, file)| {
            let mut options = plugin_options(&name, args, config, cli, mode);
            if let Some(f) = file {
                options.push(("output".to_string(), f));
            }
            if let Some(rate) = args.audio_rate.or(config.audio_rate) {
                options.push(("rate".to_string(), rate.to_string()));
            }
            (name, options)
        })
        .collect();
    Ok((specs, implicit))
}

/// A word with no extension and no folder (`cpal`): a name, not a file to write.
fn is_bare_word(a: &str) -> bool {
    let path = Path::new(a);
    path.extension().is_none() && path.parent().is_none_or(|p| p.as_os_str().is_empty())
}

/// Opens the audio outputs. Without a rate asked for, the first output's own rate is passed
/// to the others, so that all take the one sound the machine makes. An output nobody named
/// (`play`'s sound card) that cannot open is left out with a note: the run goes on silent.
fn open_audio(
    registry: &Registry,
    specs: &[Spec],
    implicit: bool,
    sink: &mut CliSink,
) -> Result<Vec<Heard>> {
    let mut heard: Vec<Heard> = Vec::new();
    for (name, options) in specs {
        let plugin = registry.audio(name)?;
        let mut options = options.clone();
        if let Some(first) = heard.first() {
            if !options.iter().any(|(k, _)| k == "rate") {
                options.push(("rate".to_string(), first.instance.sample_rate.to_string()));
            }
        }
        match Heard::open(plugin, &options, sink) {
            Ok(h) => heard.push(h),
            Err(e) if implicit => errln!("c64kit: no sound: {e}"),
            Err(e) => return Err(e),
        }
    }
    Ok(heard)
}

/// Reads `file` and turns it into a program with the loader that fits (or `--loader`).
/// `entry` (`--entry`) names a file inside a tape or disk image; `entry_key` is how a
/// message names it (`--entry`, or a scenario's key).
pub fn load_program(
    registry: &Registry,
    file: &Path,
    forced: Option<&str>,
    entry: Option<&str>,
    entry_key: &str,
    options: &dyn Fn(&str) -> Vec<(String, String)>,
) -> Result<(Program, String)> {
    let shown = file.display().to_string();
    let bytes = c64kit_files::read(file, limits::PROGRAM_FILE, "a program file")?;
    let loader = match forced {
        Some(name) => registry.loader(name)?,
        None => registry.loader_for(file, &bytes)?,
    };
    if let Some(entry) = entry {
        // Only a loader with a directory (a tape or disk image) has files to choose from.
        if let Ok(None) = loader.directory(&shown, &bytes) {
            bail!(
                "{entry_key} {}: {shown} is read by the {} loader as one program; \
                 {entry_key} chooses a file inside a tape or disk image (.t64, .d64)",
                c64kit_files::quote(entry),
                loader.name
            );
        }
    }
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
        errln!("c64kit: {}: {n}", loader.name);
    }
    Ok((program, loader.name.clone()))
}

pub fn run(args: RunArgs, global: &GlobalArgs, mode: Mode, joy_keys: bool) -> Result<i32> {
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
        load_program(
            &registry,
            file,
            args.loader.as_deref(),
            args.entry.as_deref(),
            "--entry",
            &loader_options,
        )
    };
    // No program: `play` boots BASIC to READY. for a person to type at; `run` does when it
    // has keys to type there (`--input`), and runs until they are used up.
    let typed_at_ready = mode == Mode::Play || args.input.is_some() || args.input_file.is_some();
    if args.file.is_none() && args.load.is_empty() && (!typed_at_ready || args.start.is_some()) {
        return Err(usage(
            "nothing to run: give a program FILE, --load ADDR FILE, or --input KEYS to type \
             at BASIC's READY.",
        ));
    }
    let rom_paths = RomPaths {
        basic: args.basic_rom.clone().or(config.basic_rom.clone()),
        kernal: args.kernal_rom.clone().or(config.kernal_rom.clone()),
        chargen: args.chargen_rom.clone().or(config.chargen_rom.clone()),
    };
    let specs = display_specs(&args, &config, &cli, mode);
    let (audio, implicit_audio) = audio_specs(&args, &config, &cli, &registry, mode)?;
    let outputs: Vec<_> = specs.iter().chain(&audio).cloned().collect();
    check_outputs(&args, global, &config, &rom_paths, &outputs)?;
    let labels = RunLabels::load(args.labels.as_deref())?;
    let breaks = args
        .breaks
        .iter()
        .map(|b| labels.address("--break", b))
        .collect::<Result<Vec<u16>>>()?;
    let start = match &args.start {
        Some(s) => Some(labels.address("--start", s)?),
        None => None,
    };
    if args.bare {
        if mode == Mode::Play {
            bail!("--bare has no screen or keyboard to play with");
        }
        refuse_c64_options(&args, &specs)?;
        if !args.audio.is_empty() || args.audio_rate.is_some() {
            return Err(usage("--bare cannot take --audio (a bare 6502 has no SID)"));
        }
        let magic = args.cpu_magic.or(config.cpu_magic);
        return run_bare(&args, max_cycles, magic, &load, &labels, &breaks, start);
    }
    let mut drive_8 = drive_8(&args, &config)?;
    for (path, what) in inputs(&args, global, &config, &rom_paths) {
        drive_8.protect(path, what);
    }
    let roms = Roms::load(&rom_paths).map_err(|e| rom_error(e, &args, &config))?;
    if let Some(why) = rom_paths.unpaired().or(rom_paths.kernal_alone()) {
        errln!("c64kit: warning: {why}");
    }
    if !roms.has_drive_8() {
        let given = match (&args.drive_dir, &config.drive_dir) {
            (Some(_), _) => Some("--drive-dir".to_string()),
            (None, Some(_)) => Some(config.key("drive_dir")),
            (None, None) => None,
        };
        if let (Some(given), Some(kernal)) = (given, &rom_paths.kernal) {
            errln!(
                "c64kit: warning: {given} has no effect: the KERNAL image {} does not lay out                  its serial-bus routines as Commodore's does (its jump table at $FF93-$FFB6                  differs), so c64kit cannot connect drive 8 to it; programs see no device 8",
                kernal.display()
            );
        }
    }
    let raw_loads = raw_loads(&args.load)?
        .into_iter()
        .map(|(address, bytes, _)| Segment { address, bytes })
        .collect();
    let program = match &args.file {
        Some(file) => {
            let (program, loader) = load(file)?;
            if loader != crate::registry::DEFAULT_LOADER && !program.description.is_empty() {
                errln!("c64kit: {}", program.description);
            }
            Some(machine_program(program))
        }
        None => None,
    };
    let vic = (args.vic)
        .or(args.model.map(|m| m.vic))
        .or(config.vic_model())
        .unwrap_or_default();
    let settings = RunSettings {
        roms,
        cia: (args.cia)
            .or(args.model.map(|m| m.cia))
            .or(config.cia_model())
            .unwrap_or_default(),
        sid: (args.sid)
            .or(args.model.map(|m| m.sid))
            .or(config.sid_model())
            .unwrap_or_default(),
        vic,
        glue: (args.model.map(|m| m.glue))
            .or(config.glue_logic())
            .unwrap_or_default(),
        drive: drive_8,
        raw_loads,
        start_address: start,
        // As VICE's autostart loads a PRG: by its file name.
        load_name: args.file.as_deref().map(load_name_of),
        keys: key_script(&args)?.unwrap_or_default(),
        breakpoints: breaks,
        debug_cart: args.debugcart,
        after_return: after_return(&args, &config, mode),
        key_hold: args
            .key_hold
            .or(config.key_hold)
            .map_or(default_key_hold(vic), |h| hold_cycles_on(vic, h)),
        cpu_magic: args
            .cpu_magic
            .or(config.cpu_magic)
            .unwrap_or((ANE_MAGIC, LXA_MAGIC)),
        // A person types when they like: an empty keyboard buffer is not the end.
        idle_poll_limit: match mode {
            Mode::Run => DEFAULT_IDLE_POLL_LIMIT,
            Mode::Play => u32::MAX,
        },
        // A program that ends in `JMP *` stops there, however it was started; under `play`
        // a person decides when it ends.
        stop_on_stuck_loop: mode == Mode::Run,
    };
    let mut m = Machine::start(program.as_ref(), settings).map_err(|e| match &args.file {
        Some(file) => cannot_start(file, &e),
        None => e.into(),
    })?;
    let mut trace_file = None;
    if let Some(path) = &args.trace {
        let (file, writer) = TraceFile::create(path)?;
        m.trace = Some(labels.trace(writer));
        trace_file = Some(file);
    }
    let mut chosen = Vec::new();
    // Display names from the settings file are named as its setting when unknown.
    let from_settings = args.display.is_empty() && mode == Mode::Run && config.display.is_some();
    for (name, options) in specs {
        let display = registry.display(&name).map_err(|e| {
            if from_settings && config.display.as_ref().is_some_and(|d| d.contains(&name)) {
                anyhow::anyhow!("{}: {e}", config.key("display"))
            } else {
                e
            }
        })?;
        chosen.push((display, options));
    }
    let mut sink = CliSink::default();
    // Sound first: a note that `play` goes on silent shows before a terminal display takes
    // the screen.
    let heard = open_audio(&registry, &audio, implicit_audio, &mut sink)?;
    let mut displays = open_displays(&chosen, &mut sink)?;
    let mut sound = Sound::start(&mut m, heard)?;
    let mut drive = Drive {
        displays: &mut displays,
        sink: &mut sink,
        pictures: None,
        realtime: mode == Mode::Play,
        joy_keys,
        sound: sound.as_mut(),
        palette: (args.palette)
            .or(config.palette)
            .unwrap_or_default()
            .colours(vic),
    };
    let outcome = drive.run(&mut m, max_cycles);
    m.kernal.drive.finish();
    let traced = m.finish_trace();
    let finished = match &outcome {
        Ok(o) => drive.finish(&mut m, o),
        Err(_) => Ok(()),
    };
    drop(displays); // a terminal display restores the terminal here
    drop(sound); // a sound card is released here
    print_drive_notes(&mut m); // what is left, on the restored terminal
    let outcome = outcome?;
    finished?;
    if let Some(file) = trace_file {
        file.finish(traced)?;
    }
    if args.dump_screen {
        let lines: String = m.screen_text().iter().map(|l| format!("|{l}|\n")).collect();
        stdio::print(&lines, "the screen");
    }
    let returned = matches!(outcome, Outcome::Stopped(StopReason::ReturnedToBasic));
    let status = m.returned_status().filter(|_| returned);
    let stop = match (&outcome, status) {
        // ST is the program's exit status for cc65 (and `--exit-status`), the KERNAL's I/O
        // status for others: named as the variable it is.
        (Outcome::Stopped(s), Some(st)) => format!("{} (ST = {st})", named_stop(s, &labels)),
        (Outcome::Stopped(s), None) => named_stop(s, &labels),
        (Outcome::Quit, _) => outcome.text(),
    };
    report(&stop, m.cycles(), m.vic_model(), m.cpu.pc);
    match status {
        Some(st) if args.exit_status || config.exit_status == Some(true) => Ok(st.into()),
        _ => Ok(outcome.exit_code()),
    }
}

/// What a loader made of a file, as the machine takes a program.
pub fn machine_program(program: Program) -> c64kit_machine::Program {
    c64kit_machine::Program {
        segments: program
            .segments
            .into_iter()
            .map(|s| Segment {
                address: s.address,
                bytes: s.bytes,
            })
            .collect(),
        entry: match program.start {
            Start::Run => Entry::Run,
            Start::At(addr) => Entry::At(addr),
        },
    }
}

/// What a return to BASIC does: `--after-return`, else the settings', else `return` for
/// `run` and `wait` for `play`.
fn after_return(args: &RunArgs, config: &Config, mode: Mode) -> AfterReturn {
    let after_return = args
        .after_return
        .as_deref()
        .or(config.after_return.as_deref())
        .unwrap_or(if mode == Mode::Play { "wait" } else { "return" });
    c64kit::config::after_return_mode(after_return)
}

/// A ROM image that cannot be used, named by the option or setting that gave it.
fn rom_error(e: RomError, args: &RunArgs, config: &Config) -> anyhow::Error {
    let RomError::Read(file) = &e else {
        return e.into();
    };
    let sources = [
        (
            &args.basic_rom,
            &config.basic_rom,
            "--basic-rom",
            "roms.basic",
        ),
        (
            &args.kernal_rom,
            &config.kernal_rom,
            "--kernal-rom",
            "roms.kernal",
        ),
        (
            &args.chargen_rom,
            &config.chargen_rom,
            "--chargen-rom",
            "roms.chargen",
        ),
    ];
    for (cli, configured, option, key) in sources {
        if cli.as_ref() == Some(&file.path) {
            return anyhow::anyhow!("{option}: {file}");
        }
        if cli.is_none() && configured.as_ref() == Some(&file.path) {
            return anyhow::anyhow!("{}: {file}", config.key(key));
        }
    }
    e.into()
}

/// Every file the run reads, with what it is, for [`check_outputs`].
fn inputs(
    args: &RunArgs,
    global: &GlobalArgs,
    config: &Config,
    roms: &RomPaths,
) -> Vec<(PathBuf, String)> {
    let mut inputs = Vec::new();
    let mut add = |p: &PathBuf, what: &str| inputs.push((p.clone(), what.to_string()));
    if let Some(f) = &args.file {
        add(f, "the program");
    }
    for pair in args.load.chunks(2) {
        add(&PathBuf::from(&pair[1]), "a --load file");
    }
    if let Some(f) = &args.input_file {
        add(f, "the key script");
    }
    if let Some(f) = &args.labels {
        add(f, "the label file");
    }
    for (rom, what) in [
        (&roms.basic, "the BASIC ROM image"),
        (&roms.kernal, "the KERNAL ROM image"),
        (&roms.chargen, "the character ROM image"),
    ] {
        if let Some(p) = rom {
            add(p, what);
        }
    }
    if let Some(f) = &config.source {
        add(f, "the settings file");
    }
    for p in config.plugins.iter().chain(&global.plugins) {
        add(p, "a plugin library");
    }
    inputs
}

/// No output of the run (trace, screenshots, HTML page) may be one of its inputs.
fn check_outputs(
    args: &RunArgs,
    global: &GlobalArgs,
    config: &Config,
    roms: &RomPaths,
    specs: &[(String, Vec<(String, String)>)],
) -> Result<()> {
    let inputs = inputs(args, global, config, roms);
    let mut outputs: Vec<(PathBuf, String)> = Vec::new();
    if let Some(t) = &args.trace {
        outputs.push((t.clone(), "the trace".into()));
    }
    // The files the built-in png, html and gif displays and the wav output write, as they
    // name them.
    for (name, options) in specs {
        let (ext, what) = match name.as_str() {
            "png" => ("png", "the screenshot"),
            "html" => ("html", "the HTML page"),
            "gif" => ("gif", "the recording"),
            DEFAULT_AUDIO => ("wav", "the sound recording"),
            _ => continue,
        };
        let options = Options::new(options.clone());
        let out = options.output_path(ext);
        if ext == "png" && !options.all("at").is_empty() {
            check_numbered_shots(&out, &inputs)?;
        }
        outputs.push((out, what.to_string()));
    }
    for (out, what) in outputs {
        c64kit_files::ensure_not_input(&out, &what, &inputs).map_err(anyhow::Error::msg)?;
    }
    Ok(())
}

/// `--screenshot-at` shots are named `STEM-CYCLES.png` beside the screenshot: refuse if an
/// input has such a name, since the cycle is only known when the shot is taken.
fn check_numbered_shots(out: &Path, inputs: &[(PathBuf, String)]) -> Result<()> {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "screen".into());
    for (input, what) in inputs {
        let name = input.file_name().map(|n| n.to_string_lossy().into_owned());
        let numbered = name.as_deref().and_then(|n| {
            n.strip_prefix(&format!("{stem}-"))?
                .strip_suffix(".png")
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        });
        let same_folder = |p: &Path| {
            std::fs::canonicalize(
                p.parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(Path::new(".")),
            )
            .ok()
        };
        if numbered.is_some() && same_folder(input) == same_folder(out) {
            bail!(
                "the --screenshot-at shots {}-CYCLES.png could be {what} {}: c64kit never \
                 writes over one of its inputs (choose another --screenshot name)",
                out.with_file_name(&stem).display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// `--bare` is a plain 6502: the options that need a C64 are refused, not ignored.
fn refuse_c64_options(args: &RunArgs, specs: &[(String, Vec<(String, String)>)]) -> Result<()> {
    let mut given = Vec::new();
    if args.dump_screen {
        given.push("--dump-screen (a bare 6502 has no screen)");
    }
    if args.input.is_some() || args.input_file.is_some() {
        given.push("--input/--input-file (a bare 6502 has no keyboard)");
    }
    if args.drive_dir.is_some() {
        given.push("--drive-dir (a bare 6502 has no drive)");
    }
    if args.debugcart {
        given.push("--debugcart (a bare 6502 has no cartridge port)");
    }
    if args.exit_status {
        given.push("--exit-status (a bare 6502 has no BASIC to return to)");
    }
    if args.cia.is_some() {
        given.push("--cia (a bare 6502 has no CIA)");
    }
    if args.sid.is_some() {
        given.push("--sid (a bare 6502 has no SID)");
    }
    if args.vic.is_some() || args.model.is_some() {
        given.push("--vic/--model (a bare 6502 has no VIC-II)");
    }
    if args.palette.is_some() {
        given.push("--palette (a bare 6502 has no VIC-II)");
    }
    if args.key_hold.is_some() {
        given.push("--key-hold (a bare 6502 has no keyboard)");
    }
    if args.basic_rom.is_some() || args.kernal_rom.is_some() || args.chargen_rom.is_some() {
        given.push("ROM images (a bare 6502 has flat RAM only)");
    }
    if specs.iter().any(|(name, _)| name != DEFAULT_DISPLAY) || !args.options.is_empty() {
        given.push("displays and their options (a bare run prints only its stop reason)");
    }
    if given.is_empty() {
        return Ok(());
    }
    Err(usage(format!("--bare cannot take {}", given.join("; "))))
}

/// Drive 8: over `--drive-dir`, else the settings' `drive_dir` (a folder that must exist),
/// reading and writing; without either, over the current folder, reading only.
fn drive_8(args: &RunArgs, config: &Config) -> Result<c64kit_machine::Drive> {
    use c64kit_machine::drive::{check_folder, Drive};
    let (dir, given) = match (&args.drive_dir, &config.drive_dir) {
        (Some(d), _) => (d, "--drive-dir".to_string()),
        (None, Some(d)) => (d, config.key("drive_dir")),
        (None, None) => {
            let mut drive = Drive::read_only(".");
            drive.set_write_protect_hint(
                "to let programs write to a folder, run c64kit with --drive-dir DIR (or \
                 drive_dir = \"DIR\" in c64kit.toml)",
            );
            return Ok(drive);
        }
    };
    check_folder(dir).map_err(|why| anyhow::anyhow!("{given} {}: {why}", dir.display()))?;
    Ok(Drive::writable(dir))
}

fn key_script(args: &RunArgs) -> Result<Option<Vec<c64kit_basic::KeyEvent>>> {
    let text = match (&args.input, &args.input_file) {
        (Some(t), _) => t.clone(),
        (None, Some(path)) => c64kit_files::read_text(path, limits::KEY_SCRIPT, "a key script")?,
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

/// Why RUN cannot start `file`, with advice that works for `run` (each has been tried).
/// A program that would run BASIC first is one c64kit cannot run: exit code 9.
fn cannot_start(file: &Path, e: &StartError) -> anyhow::Error {
    let advice = match e {
        StartError::Text {
            as_basic: Some(_), ..
        } => Some("run it with --loader basic (or name it .bas)".to_string()),
        StartError::MachineCode { load_address } => {
            Some(format!("start it with --start ${load_address:04X}"))
        }
        StartError::NoSys(NoSys::Missing) => {
            Some("if the file holds machine code, start it with --start ADDR".to_string())
        }
        StartError::NoSys(NoSys::Argument { .. }) => {
            Some("to call the address the SYS would, start there with --start ADDR".to_string())
        }
        StartError::Text { .. }
        | StartError::Empty { .. }
        | StartError::NoSys(_)
        | StartError::Nothing
        | StartError::BasicDidNotStart(_) => None,
    };
    let message = match advice {
        Some(advice) => format!("{}: {e}: {advice}", file.display()),
        None => format!("{}: {e}", file.display()),
    };
    if e.needs_basic() {
        NotProvided(message).into()
    } else {
        anyhow::anyhow!(message)
    }
}

/// The stop reason, with the label of a breakpoint's address: "breakpoint at $0820 (.main)".
fn named_stop(stop: &StopReason, labels: &RunLabels) -> String {
    match stop {
        StopReason::Breakpoint { pc } => match labels.names_at(*pc) {
            Some(names) => format!("{stop} ({names})"),
            None => stop.to_string(),
        },
        _ => stop.to_string(),
    }
}

/// The stop reason and time on stderr, so stdout is the program's output alone.
fn report(stop: &str, cycles: u64, vic: VicModel, pc: u16) {
    let system = if vic.is_pal() { "PAL" } else { "NTSC" };
    errln!(
        "c64kit: {stop} after {cycles} cycles ({:.3} s of {system} C64 time), PC=${pc:04X}",
        cycles as f64 / vic.clock_hz() as f64
    );
}

/// --bare: the CPU on flat RAM; ends on a stuck loop, JAM, breakpoint or the budget.
fn run_bare(
    args: &RunArgs,
    max_cycles: u64,
    magic: Option<(u8, u8)>,
    load: &dyn Fn(&Path) -> Result<(Program, String)>,
    labels: &RunLabels,
    breaks: &[u16],
    start: Option<u16>,
) -> Result<i32> {
    let mut ram = FlatRam::new();
    let mut start = start;
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
    if let Some((ane, lxa)) = magic {
        (cpu.ane_magic, cpu.lxa_magic) = (ane, lxa);
    }
    cpu.pc = start;
    let (trace_file, mut trace) = match args.trace.as_deref() {
        Some(path) => {
            let (file, writer) = TraceFile::create(path)?;
            (Some(file), Some(labels.trace(writer)))
        }
        None => (None, None),
    };
    let mut trace_error = None;
    let stop = loop {
        if breaks.is_empty() && trace.is_none() {
            // Straight on RAM up to anything the exact step must see: a JAM, a jump to itself.
            cpu.run_direct(&mut ram, max_cycles);
        }
        if ram.cycles >= max_cycles {
            break StopReason::CycleBudget { budget: max_cycles };
        }
        let pc = cpu.pc;
        if breaks.contains(&pc) && ram.cycles > 0 {
            break StopReason::Breakpoint { pc };
        }
        if let Some(out) = &mut trace {
            let line = trace_line(&cpu, |a| ram.mem[a as usize], ram.cycles);
            if let Err(e) = out.write_all(line.as_bytes()) {
                trace_error = Some(e);
                trace = None;
            }
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
    if let Some(mut out) = trace {
        if let Err(e) = out.flush() {
            trace_error.get_or_insert(e);
        }
    }
    if let Some(file) = trace_file {
        file.finish(trace_error.map_or(Ok(()), Err))?;
    }
    report(
        &named_stop(&stop, labels),
        ram.cycles,
        VicModel::Mos6569,
        cpu.pc,
    );
    Ok(stop.exit_code())
}
