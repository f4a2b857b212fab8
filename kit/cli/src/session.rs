//! A run shown through display plugins. The machine runs one frame (the VIC-II model's
//! cycles per frame) at a time: after each, the displays get the new CHROUT bytes, a frame
//! (the text screen, and the picture for those that want pixels: see `frames.rs`) if they
//! want one now, and a chance to read the keyboard; the run is paced to real time by the
//! machine's clock (about 50 frames a second on PAL, 60 on NTSC) if one of them asked for
//! it; audio outputs get the sound made during the frame (see `sound.rs`). Running in
//! frame-sized pieces does not change what the program does: `Machine::run` stops between
//! instructions and the next call carries on exactly there.

use crate::frames::{self, PictureRef, Pictures};
use crate::sound::Sound;
use anyhow::Result;
use c64kit_files::{errln, stdio};
use c64kit_machine::{Machine, StopReason};
use c64kit_plugin_api::abi::{
    Clock, CHARSET_LOWER, CHARSET_UPPER, FLAG_INPUT, FLAG_PIXELS, FLAG_REALTIME,
};
use c64kit_plugin_api::host::{DisplayInstance, HostSink, Plugin};
use c64kit_plugin_api::{FrameView, RunEndInfo};
use std::time::{Duration, Instant};

/// Real-time pacing: the wall-clock moment each cycle count is due, by the machine's clock
/// (`Machine::clock_hz`, the VIC-II model's). Times are taken from a start, not summed frame by frame, so rounding never drifts.
struct Pace {
    since: Instant,
    cycles: u64,
}

impl Pace {
    fn start(m: &Machine) -> Pace {
        Pace {
            since: Instant::now(),
            cycles: m.cycles(),
        }
    }

    /// Waits until the machine's time has come; when far behind (a slow terminal, a
    /// suspended process) it starts again from now rather than race to catch up.
    fn wait(&mut self, m: &Machine) {
        let run = m.cycles().saturating_sub(self.cycles);
        let nanos = u128::from(run) * 1_000_000_000 / u128::from(m.clock_hz().max(1));
        let due = self.since + Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX));
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        } else if now - due > Duration::from_millis(250) {
            *self = Pace::start(m);
        }
    }
}

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
}

impl HostSink for CliSink {
    /// The run goes on to its end whatever becomes of stdout: a closed pipe is fine, a full
    /// disk fails the command at its end (see `c64kit_files::stdio`).
    fn stdout(&mut self, bytes: &[u8]) {
        // Named only for the message, so the transcript's writes allocate nothing.
        let what: std::borrow::Cow<str> = match self.current.as_str() {
            crate::registry::DEFAULT_DISPLAY => "the transcript".into(),
            name => format!("the output of the {name} display").into(),
        };
        stdio::write_stdout(bytes, &what);
    }

    fn note(&mut self, text: &str) {
        errln!("c64kit: {}: {text}", self.current);
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
    /// When the machine draws (set up by `run`).
    pub pictures: Option<Pictures>,
    pub displays: &'a mut [Shown],
    pub sink: &'a mut CliSink,
    /// Pace to real time even if no display asked (`c64kit play`).
    pub realtime: bool,
    /// Typed cursor keys and space are joystick 2 (`play --joy-keys`).
    pub joy_keys: bool,
    /// The audio outputs and the sound they get, when there are any.
    pub sound: Option<&'a mut Sound>,
    /// The RGB every display shows colours 0-15 as (`--palette`).
    pub palette: c64kit_plugin_api::palette::Palette,
}

/// How long a key typed as a joystick line holds it, in the machine's frames: 6 (120 ms on
/// PAL, 100 ms on NTSC), long enough that a terminal's key repeat (about 30 a second once it
/// starts) keeps a held key held.
pub const JOY_KEY_HOLD_FRAMES: u64 = 6;

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
        let want_input = flags & FLAG_INPUT != 0;
        let realtime = self.realtime
            || flags & FLAG_REALTIME != 0
            || self.sound.as_ref().is_some_and(|s| s.live());
        let instances: Vec<&DisplayInstance> = self.displays.iter().map(|d| &d.instance).collect();
        let mut pictures = Pictures::start(m, &instances);
        let end = m.cycles().saturating_add(max_cycles);
        let mut seen = m.transcript().len();
        let mut pace = Pace::start(m);
        let outcome = loop {
            let now = m.cycles();
            let frame = m.cycles_per_frame();
            let boundary = (now / frame + 1) * frame;
            let stop = m.run(boundary.min(end).saturating_sub(now));
            if let Some(sound) = self.sound.as_deref_mut() {
                if let Err(e) = sound.deliver(m, self.sink) {
                    break Err(e);
                }
            }
            if !want_input && !realtime {
                // A live terminal display owns the screen: the notes wait for the end.
                print_drive_notes(m);
            }
            if let Err(e) = self.deliver_chrout(m, &mut seen) {
                break Err(e);
            }
            // Kept before looking at the stop: a run that ends on a boundary ends with the
            // frame it has just completed.
            if m.cycles() >= boundary {
                pictures.boundary(m);
            }
            match stop {
                StopReason::CycleBudget { .. } if m.cycles() < end => {}
                // The machine ran a frame's slice: the budget is the whole run's.
                StopReason::CycleBudget { .. } => {
                    break Ok(Outcome::Stopped(StopReason::CycleBudget {
                        budget: max_cycles,
                    }))
                }
                other => break Ok(Outcome::Stopped(other)),
            }
            if let Err(e) = self.deliver_frames(m, &pictures) {
                break Err(e);
            }
            if want_input {
                if let Err(e) = self.poll_input() {
                    break Err(e);
                }
                // Typed keys go through the script's queue: to the KERNAL when it asks,
                // and into the keyboard matrix.
                for k in self.sink.keys.drain(..) {
                    match joy_key_line(k).filter(|_| self.joy_keys) {
                        Some(line) => {
                            let hold = JOY_KEY_HOLD_FRAMES * m.vic_model().cycles_per_frame();
                            m.bus.input.press_joystick(line, m.cycles(), hold);
                        }
                        None => m.bus.input.push_key(k),
                    }
                }
                if self.sink.quit {
                    break Ok(Outcome::Quit);
                }
            }
            if realtime {
                pace.wait(m);
            }
        };
        self.pictures = Some(pictures);
        outcome
    }

    fn poll_input(&mut self) -> Result<()> {
        for d in self.displays.iter_mut() {
            if d.instance.flags & FLAG_INPUT != 0 {
                self.sink.current = d.name.clone();
                d.instance.poll_input(self.sink).map_err(|e| failed(d, e))?;
            }
        }
        Ok(())
    }

    /// A frame for each display that wants one now, with the picture for those that asked
    /// for pixels.
    fn deliver_frames(&mut self, m: &Machine, pictures: &Pictures) -> Result<()> {
        let now = m.cycles();
        let due = |d: &Shown| d.instance.wants_frame(now);
        if !self.displays.iter().any(due) {
            return Ok(());
        }
        let screen = frames::screen(m);
        let clock = frames::clock(m);
        let pixels = self
            .displays
            .iter()
            .any(|d| due(d) && d.instance.flags & FLAG_PIXELS != 0);
        let picture = pixels.then(|| pictures.now(m));
        for d in self.displays.iter_mut() {
            if !due(d) {
                continue;
            }
            let frame = frame_for(d, &screen, picture.as_ref(), clock, self.palette);
            self.sink.current = d.name.clone();
            d.instance
                .frame(&frame, self.sink)
                .map_err(|e| failed(d, e))?;
        }
        Ok(())
    }

    fn deliver_chrout(&mut self, m: &Machine, seen: &mut usize) -> Result<()> {
        let t = m.transcript();
        if t.len() > *seen {
            let new = &t[*seen..];
            let sets: Vec<u8> = m.transcript_sets()[*seen..]
                .iter()
                .map(|&lower| if lower { CHARSET_LOWER } else { CHARSET_UPPER })
                .collect();
            for d in self.displays.iter_mut() {
                self.sink.current = d.name.clone();
                d.instance
                    .chrout_in_sets(new, &sets, self.sink)
                    .map_err(|e| failed(d, e))?;
            }
            *seen = t.len();
        }
        Ok(())
    }

    /// Tells every display how the run ended, with the final screen (and picture, for those
    /// that want pixels).
    pub fn finish(&mut self, m: &mut Machine, outcome: &Outcome) -> Result<()> {
        let screen = frames::screen(m);
        let pixels = self
            .displays
            .iter()
            .any(|d| d.instance.flags & FLAG_PIXELS != 0);
        let pictures = self.pictures.take().unwrap_or_default();
        let picture = pixels.then(|| pictures.end(m));
        let clock = frames::clock(m);
        let end = RunEndInfo {
            reason: outcome.text(),
            exit_code: outcome.exit_code(),
            cycles: m.cycles(),
            pc: m.cpu.pc,
            clock,
        };
        let mut first_error = None;
        for d in self.displays.iter_mut() {
            self.sink.current = d.name.clone();
            // Every display gets its finish (to restore a terminal, write its file) even if
            // another one failed; the first failure is reported.
            let frame = frame_for(d, &screen, picture.as_ref(), clock, self.palette);
            if let Err(e) = d.instance.finish(&end, &frame, self.sink) {
                first_error.get_or_insert_with(|| failed(d, e));
            }
        }
        if let Some(sound) = self.sound.as_deref_mut() {
            let heard = sound.finish(&end, self.sink);
            if let Err(e) = heard {
                first_error.get_or_insert(e);
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
        errln!("c64kit: drive 8: {note}");
    }
}

/// What display `d` is shown: the screen, the picture if it asked for pixels, the clock and
/// the palette.
fn frame_for<'a>(
    d: &Shown,
    screen: &'a c64kit_plugin_api::abi::Screen,
    picture: Option<&'a PictureRef<'_>>,
    clock: Clock,
    palette: c64kit_plugin_api::palette::Palette,
) -> FrameView<'a> {
    FrameView {
        screen,
        picture: picture
            .filter(|_| d.instance.flags & FLAG_PIXELS != 0)
            .map(|p| p.view()),
        clock,
        palette,
    }
}
