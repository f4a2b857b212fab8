//! A run shown through display plugins. The machine runs one PAL frame (19,656 cycles) at a
//! time: after each, the displays get the new CHROUT bytes, the screen (if they asked for
//! frames) and a chance to read the keyboard; the run is paced to 50 frames a second if one
//! of them asked for real time. Running in frame-sized pieces does not change what the
//! program does: `Machine::run` stops between instructions and the next call carries on
//! exactly there.

use anyhow::Result;
use c64kit_machine::{Machine, StopReason};
use c64kit_plugin_api::abi::{Screen, FLAG_FRAMES, FLAG_INPUT, FLAG_REALTIME};
use c64kit_plugin_api::host::{DisplayInstance, HostSink, Plugin};
use std::io::Write;
use std::time::{Duration, Instant};

/// CPU cycles per PAL frame: 312 lines of 63 cycles.
pub const CYCLES_PER_FRAME: u64 = 312 * 63;

/// One PAL frame of real time.
const FRAME_TIME: Duration = Duration::from_micros(1_000_000 * CYCLES_PER_FRAME / 985_248);

/// How a shown run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Stopped(StopReason),
    /// The person pressed Esc or Ctrl-C.
    Quit,
}

impl Outcome {
    pub fn text(&self) -> String {
        match self {
            Outcome::Stopped(s) => s.to_string(),
            Outcome::Quit => "stopped by the user".to_string(),
        }
    }

    pub fn exit_code(&self) -> i32 {
        match self {
            Outcome::Stopped(s) => s.exit_code(),
            Outcome::Quit => 0,
        }
    }
}

/// Where display output goes: stdout, notes on stderr, keys for the machine.
#[derive(Default)]
pub struct CliSink {
    /// The plugin being called, for notes.
    pub current: String,
    pub keys: Vec<u8>,
    pub quit: bool,
    /// The first failure writing stdout; nothing more is written after it. A closed pipe
    /// is fine, a full disk fails the run at its end.
    pub stdout_error: Option<std::io::Error>,
}

impl HostSink for CliSink {
    fn stdout(&mut self, bytes: &[u8]) {
        if self.stdout_error.is_some() {
            return;
        }
        let mut out = std::io::stdout().lock();
        if let Err(e) = out.write_all(bytes).and_then(|_| out.flush()) {
            self.stdout_error = Some(e);
        }
    }

    fn note(&mut self, text: &str) {
        eprintln!("c64kit: {}: {text}", self.current);
    }

    fn key(&mut self, petscii: u8) {
        self.keys.push(petscii);
    }

    fn quit(&mut self) {
        self.quit = true;
    }
}

/// A display taking part in the run.
pub struct Shown {
    /// "display plugin png (built-in)".
    pub label: String,
    pub name: String,
    pub instance: DisplayInstance,
}

/// Opens each display with its options.
pub fn open_displays(
    chosen: &[(&Plugin, Vec<(String, String)>)],
    sink: &mut CliSink,
) -> Result<Vec<Shown>> {
    let mut shown = Vec::new();
    for (plugin, options) in chosen {
        sink.current = plugin.name.clone();
        let instance = plugin
            .open_display(options, sink)
            .map_err(|e| anyhow::anyhow!("{} failed: {e}", plugin.label()))?;
        shown.push(Shown {
            label: plugin.label(),
            name: plugin.name.clone(),
            instance,
        });
    }
    Ok(shown)
}

/// What drives a shown run.
pub struct Drive<'a> {
    pub displays: &'a mut [Shown],
    pub sink: &'a mut CliSink,
    /// A configured CHARGEN image (4 KiB), for the screens handed to displays.
    pub chargen: Option<&'a [u8; 0x1000]>,
    /// Pace to 50 frames a second even if no display asked (`c64kit play`).
    pub realtime: bool,
    /// Typed cursor keys and space are joystick 2 (`play --joy-keys`).
    pub joy_keys: bool,
}

/// How long a key typed as a joystick line holds it: 6 frames, long enough that a
/// terminal's key repeat (about 30 a second once it starts) keeps a held key held.
pub const JOY_KEY_HOLD: u64 = 6 * CYCLES_PER_FRAME;

/// The joystick line a typed key stands for under `play --joy-keys`: the cursor keys
/// (PETSCII 145, 17, 157, 29) and the space bar for fire.
pub fn joy_key_line(petscii: u8) -> Option<u8> {
    use c64kit_basic::joy;
    match petscii {
        145 => Some(joy::UP),
        17 => Some(joy::DOWN),
        157 => Some(joy::LEFT),
        29 => Some(joy::RIGHT),
        b' ' => Some(joy::FIRE),
        _ => None,
    }
}

fn failed(d: &Shown, e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("{} failed: {e}", d.label)
}

impl Drive<'_> {
    /// Runs up to `max_cycles` more cycles; returns how the run ended. A display that fails
    /// (or panics) ends the run with an error naming it.
    pub fn run(&mut self, m: &mut Machine, max_cycles: u64) -> Result<Outcome> {
        let flags = self.displays.iter().fold(0, |f, d| f | d.instance.flags);
        let want_frames = flags & FLAG_FRAMES != 0;
        let want_input = flags & FLAG_INPUT != 0;
        let realtime = self.realtime || flags & FLAG_REALTIME != 0;
        let end = m.cycles().saturating_add(max_cycles);
        let mut seen = m.transcript().len();
        let mut deadline = Instant::now();
        loop {
            let now = m.cycles();
            let boundary = (now / CYCLES_PER_FRAME + 1) * CYCLES_PER_FRAME;
            let stop = m.run(boundary.min(end).saturating_sub(now));
            if !want_input && !realtime {
                // A live terminal display owns the screen: the notes wait for the end.
                print_drive_notes(m);
            }
            self.deliver_chrout(m, &mut seen)?;
            match stop {
                StopReason::CycleBudget { .. } if m.cycles() < end => {}
                other => return Ok(Outcome::Stopped(other)),
            }
            if want_frames {
                let screen = snapshot(m, self.chargen);
                for d in self.displays.iter_mut() {
                    if d.instance.flags & FLAG_FRAMES != 0 {
                        self.sink.current = d.name.clone();
                        d.instance
                            .frame(&screen, self.sink)
                            .map_err(|e| failed(d, e))?;
                    }
                }
            }
            if want_input {
                for d in self.displays.iter_mut() {
                    if d.instance.flags & FLAG_INPUT != 0 {
                        self.sink.current = d.name.clone();
                        d.instance.poll_input(self.sink).map_err(|e| failed(d, e))?;
                    }
                }
                // Typed keys go through the script's queue: to the KERNAL when it asks,
                // and into the keyboard matrix.
                for k in self.sink.keys.drain(..) {
                    match joy_key_line(k).filter(|_| self.joy_keys) {
                        Some(line) => m.bus.input.press_joystick(line, m.cycles(), JOY_KEY_HOLD),
                        None => m.bus.input.push_key(k),
                    }
                }
                if self.sink.quit {
                    return Ok(Outcome::Quit);
                }
            }
            if realtime {
                deadline += FRAME_TIME;
                let now = Instant::now();
                if deadline > now {
                    std::thread::sleep(deadline - now);
                } else if now - deadline > Duration::from_millis(250) {
                    // Far behind (a slow terminal, a suspended process): do not race to catch up.
                    deadline = now;
                }
            }
        }
    }

    fn deliver_chrout(&mut self, m: &Machine, seen: &mut usize) -> Result<()> {
        let t = m.transcript();
        if t.len() > *seen {
            let new = &t[*seen..];
            for d in self.displays.iter_mut() {
                self.sink.current = d.name.clone();
                d.instance
                    .chrout(new, self.sink)
                    .map_err(|e| failed(d, e))?;
            }
            *seen = t.len();
        }
        Ok(())
    }

    /// Tells every display how the run ended, with the final screen.
    pub fn finish(&mut self, m: &Machine, outcome: &Outcome) -> Result<()> {
        let screen = snapshot(m, self.chargen);
        let text = outcome.text();
        let mut first_error = None;
        for d in self.displays.iter_mut() {
            self.sink.current = d.name.clone();
            // Every display gets its finish (to restore a terminal, write its file) even if
            // another one failed; the first failure is reported.
            if let Err(e) = d.instance.finish(
                &text,
                outcome.exit_code(),
                m.cycles(),
                m.cpu.pc,
                &screen,
                self.sink,
            ) {
                first_error.get_or_insert_with(|| failed(d, e));
            }
        }
        match first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// What drive 8 refused since the last call, on stderr (before anything that could fail).
pub fn print_drive_notes(m: &mut Machine) {
    for note in m.kernal.drive.take_notes() {
        eprintln!("c64kit: drive 8: {note}");
    }
}

/// The screen as the VIC shows it now: the video matrix and character set from the VIC's
/// bank and $D018, colour RAM, border and background colours.
///
/// The machine's screen editor remembers CHR$(14)/CHR$(142) without writing $D018 (c64kit's
/// KERNAL model keeps the character set choice to itself), so the lower-case set counts as
/// shown if either says so.
pub fn snapshot(m: &Machine, chargen: Option<&[u8; 0x1000]>) -> Screen {
    let mut s = Screen::blank();
    let bus = &m.bus;
    let bank = bus.cia2.vic_bank();
    let vic = &bus.vic;
    let base = vic.screen_base(bank) as usize;
    for i in 0..1000 {
        s.chars[i] = bus.ram[(base + i) & 0xFFFF];
        s.colours[i] = bus.colour[i] & 0x0F;
    }
    s.cycles = m.cycles();
    s.frame = s.cycles / CYCLES_PER_FRAME;
    s.border = vic.border_color() & 0x0F;
    for (i, b) in s.background.iter_mut().enumerate() {
        *b = vic.background_color(i) & 0x0F;
    }
    let regs = vic.registers();
    let n = regs.len().min(s.vic.len());
    s.vic[..n].copy_from_slice(&regs[..n]);
    let char_base = vic.char_base(bank) as usize;
    // In banks 0 and 2 the VIC sees the character ROM at $1000-$1FFF of the bank.
    let in_rom = bank & 1 == 0 && (char_base & 0x3000) == 0x1000;
    if in_rom {
        let lower = char_base & 0x0800 != 0 || m.kernal.screen.lowercase();
        s.lowercase = lower as u8;
        if let Some(rom) = chargen {
            let from = if lower { 0x800 } else { 0 };
            s.charset.copy_from_slice(&rom[from..from + 0x800]);
            s.charset_valid = 1;
        }
    } else {
        for i in 0..0x800 {
            s.charset[i] = bus.ram[(char_base + i) & 0xFFFF];
        }
        s.charset_valid = 1;
    }
    // The KERNAL's cursor: TBLX ($D6) row, PNTR ($D3) column within the logical line.
    s.cursor_row = bus.ram[0xD6].min(24);
    s.cursor_col = bus.ram[0xD3] % 40;
    s
}
