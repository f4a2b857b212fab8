//! The binary interface, version 5: `#[repr(C)]` types and `extern "C"` function pointers
//! only, so a plugin built by another compiler version (or in another language) works.
//!
//! A plugin library exports one or more functions named `c64kit_plugin_entry…` (any suffix,
//! so several plugins can be linked into one program without their names clashing). Each
//! takes nothing and returns a pointer to a static [`PluginHeader`]. The header starts with
//! [`MAGIC`] and [`ABI_VERSION`]; the host reads nothing else unless both match, so these two
//! fields keep their place in every future version.
//!
//! Versions: one host speaks one version. A plugin built for another is refused when it is
//! loaded, naming the file and both versions ("speaks c64kit plugin ABI 4; this c64kit speaks
//! 5: rebuild it against c64kit-plugin-api ..."): rebuilding is all it takes, and a host that
//! translated between versions would be a second interface to keep correct.
//!
//! - Version 1 handed displays a text screen only.
//! - Version 2 hands them [`Frame`]s: the text model of the screen and, when they ask for it
//!   ([`FLAG_PIXELS`]), the VIC-II's picture.
//! - Version 3 adds audio outputs ([`KIND_AUDIO`], [`AudioVTable`]): the SID's sound as
//!   blocks of 16-bit samples. The header gained the `audio` table pointer, so a version 2
//!   header is shorter than the host would read.
//! - Version 4 hands `chrout` the character set each byte was printed in (`sets`, one
//!   [`CHARSET_UPPER`] or [`CHARSET_LOWER`] a byte), so a transcript shows text after
//!   CHR$(14), a POKE 53272 or SHIFT+C= as the screen did.
//! - Version 5 hands displays and audio outputs the machine's [`Clock`] (cycles per second
//!   and per frame, PAL or NTSC) in every [`Frame`] and [`RunEnd`], so they turn cycles into
//!   time on whatever C64 ran (an NTSC frame is 1/59.826 s, a PAL one 1/50.125 s), and
//!   hands displays the palette in every [`Frame`] (Pepto's, or the VIC-II model's own).
//!
//! Ownership: everything a plugin is handed (strings, bytes, frames, the host table) is
//! borrowed for the duration of the call. Everything a plugin hands back goes through the
//! host's callbacks in [`Host`] during the call, which copy it. Memory never changes owner.
//!
//! Failure: every function returns a status ([`STATUS_OK`], [`STATUS_ERROR`],
//! [`STATUS_PANIC`]). Before returning an error a plugin calls [`Host::error`] with the
//! reason. Plugins must not unwind across the boundary: they catch panics and report them as
//! [`STATUS_PANIC`] (the glue in [`crate::plugin`] does this for Rust plugins).

use std::ffi::c_void;

/// The version of this interface. Bumped whenever any type in this module changes.
pub const ABI_VERSION: u32 = 5;

/// `chrout`'s `sets`: the byte was printed while the VIC-II showed the upper-case/graphics
/// half of the character ROM (the power-on set), or a character set in RAM.
pub const CHARSET_UPPER: u8 = 0;
/// `chrout`'s `sets`: the byte was printed while the VIC-II showed the lower/upper-case half
/// of the character ROM (after CHR$(14), POKE 53272,23 or SHIFT+C=).
pub const CHARSET_LOWER: u8 = 1;

/// First bytes of every plugin header.
pub const MAGIC: [u8; 8] = *b"C64KITPL";

/// Exported entry functions start with this name.
pub const ENTRY_PREFIX: &str = "c64kit_plugin_entry";

/// [`PluginHeader::kind`]: shows a run (CHROUT stream, screens, end of run).
pub const KIND_DISPLAY: u32 = 1;
/// [`PluginHeader::kind`]: turns a file into a program to run.
pub const KIND_LOADER: u32 = 2;
/// [`PluginHeader::kind`]: hears a run: the SID's sound as 16-bit samples (a WAV file, a
/// sound card).
pub const KIND_AUDIO: u32 = 3;

/// The call succeeded.
pub const STATUS_OK: u32 = 0;
/// The call failed; the plugin called [`Host::error`] with the reason.
pub const STATUS_ERROR: u32 = 1;
/// The plugin panicked; it called [`Host::error`] with the panic message. The instance must
/// not be used again (but must still be destroyed).
pub const STATUS_PANIC: u32 = 2;
/// The plugin does not offer this (optional) operation.
pub const STATUS_UNSUPPORTED: u32 = 3;

/// [`DisplayVTable::flags`]: call `frame` at every frame boundary (the machine's frame rate:
/// about 50 per emulated second on PAL, 60 on NTSC; see [`Clock`]).
/// Without it, `frame` is called at the first boundary at or after the cycle `next_frame`
/// names, or never.
pub const FLAG_FRAMES: u32 = 1;
/// The host paces the run to real time (the machine's [`Clock`]).
pub const FLAG_REALTIME: u32 = 2;
/// Call `poll_input` at every frame boundary: the plugin reads a person's keyboard.
pub const FLAG_INPUT: u32 = 4;
/// The frames handed to `frame` and `finish` carry the VIC-II's picture. Drawing costs time:
/// with [`FLAG_FRAMES`] too the machine draws all the time (about 30 times slower than
/// without), otherwise the host redraws each picture asked for from the machine's state
/// (see [`PICTURE_STILL`]).
pub const FLAG_PIXELS: u32 = 8;

/// [`Frame::picture`]: no picture (the display did not ask for pixels).
pub const PICTURE_NONE: u32 = 0;
/// [`Frame::picture`]: a whole frame the VIC-II drew while the program ran, raster effects
/// (colours or modes changed by interrupts mid-frame) included; complete at
/// [`Frame::picture_cycles`], a frame boundary.
pub const PICTURE_LIVE: u32 = 1;
/// [`Frame::picture`]: redrawn from memory and the VIC-II's registers as they were at
/// [`Frame::picture_cycles`], by the raster engine alone over one frame without the CPU:
/// exact for a picture that stands still, but without what the program changes during a
/// frame (raster splits, moving sprites' in-between positions).
pub const PICTURE_STILL: u32 = 2;

/// Width of the picture in pixels: VICE's screenshot area of a PAL frame (an NTSC one is as
/// wide; its height is in [`Frame::height`]).
pub const PICTURE_WIDTH: usize = 384;
/// Height of the picture in lines.
pub const PICTURE_HEIGHT: usize = 272;
/// Where the first pixel of the 320x200 text area is in the picture (x, y).
pub const TEXT_ORIGIN: (usize, usize) = (32, 35);

/// [`Host::start`]: RUN the program (follow the SYS in its BASIC stub).
pub const START_RUN: u32 = 0;
/// [`Host::start`]: start at the address, as SYS would.
pub const START_AT: u32 = 1;

/// [`Clock::video`]: a PAL C64 (a 6569 or 8565 VIC-II).
pub const VIDEO_PAL: u32 = 0;
/// [`Clock::video`]: an NTSC C64 (a 6567R8, 6567R56A or 8562 VIC-II).
pub const VIDEO_NTSC: u32 = 1;

/// The machine's clock (new in version 5), in every [`Frame`] and [`RunEnd`]: what turns the
/// cycle counts a plugin is handed into time. The host takes it from the machine's VIC-II
/// model, whose crystal drives both the CPU and the frames; a plugin never assumes PAL's.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// CPU cycles per second (never 0).
    pub cycles_per_second: u64,
    /// CPU cycles per frame of the VIC-II, i.e. between two frame boundaries (never 0).
    pub cycles_per_frame: u64,
    /// [`VIDEO_PAL`] or [`VIDEO_NTSC`]: which C64 it is, for people.
    pub video: u32,
}

impl Clock {
    /// `cycles` as seconds.
    pub fn seconds(&self, cycles: u64) -> f64 {
        cycles as f64 / self.cycles_per_second.max(1) as f64
    }

    /// Frames per second (a fraction: 50.125 on PAL, 59.826 on an NTSC 6567R8).
    pub fn frames_per_second(&self) -> f64 {
        self.cycles_per_second as f64 / self.cycles_per_frame.max(1) as f64
    }

    /// `cycles` as a whole number of `1 / per_second` s, rounded to the nearest (halves up),
    /// exactly (no floating point): a GIF's hundredths are `ticks(cycles, 100)`. Durations
    /// taken as differences of `ticks` of cycle counts since one start never drift.
    pub fn ticks(&self, cycles: u64, per_second: u64) -> u64 {
        let hz = u128::from(self.cycles_per_second.max(1));
        let scaled = u128::from(cycles) * u128::from(per_second);
        u64::try_from((scaled + hz / 2) / hz).unwrap_or(u64::MAX)
    }

    /// "PAL" or "NTSC" (a video standard this interface does not know is shown as its number).
    pub fn video_name(&self) -> std::borrow::Cow<'static, str> {
        match self.video {
            VIDEO_PAL => "PAL".into(),
            VIDEO_NTSC => "NTSC".into(),
            v => format!("video standard {v}").into(),
        }
    }

    /// Why the clock cannot be used (a count of 0), if it cannot.
    pub fn check(&self) -> Result<(), String> {
        if self.cycles_per_second == 0 || self.cycles_per_frame == 0 {
            return Err(format!(
                "the host's clock has {} cycles per second and {} per frame (neither may be 0)",
                self.cycles_per_second, self.cycles_per_frame
            ));
        }
        Ok(())
    }
}

/// Bytes (or UTF-8 text) borrowed for the duration of a call, or `'static` in headers.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RSlice {
    pub ptr: *const u8,
    pub len: usize,
}

impl RSlice {
    pub const EMPTY: RSlice = RSlice {
        ptr: std::ptr::null(),
        len: 0,
    };

    pub const fn from_static(s: &'static str) -> RSlice {
        RSlice {
            ptr: s.as_ptr(),
            len: s.len(),
        }
    }

    pub fn new(bytes: &[u8]) -> RSlice {
        RSlice {
            ptr: bytes.as_ptr(),
            len: bytes.len(),
        }
    }

    /// # Safety
    /// `ptr` must point to `len` readable bytes that live for `'a` (or be null with `len` 0).
    pub unsafe fn as_bytes<'a>(self) -> &'a [u8] {
        if self.ptr.is_null() || self.len == 0 {
            &[]
        } else {
            // SAFETY: the caller guarantees ptr/len describe live memory.
            unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
        }
    }

    /// The text, with invalid UTF-8 replaced.
    ///
    /// # Safety
    /// As [`RSlice::as_bytes`].
    pub unsafe fn to_string_lossy(self) -> String {
        // SAFETY: forwarded to the caller.
        String::from_utf8_lossy(unsafe { self.as_bytes() }).into_owned()
    }
}

/// One `key = value` option given to a display or loader (from the command line or the
/// config file; values are text, numbers written as decimal).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct KeyValue {
    pub key: RSlice,
    pub value: RSlice,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct OptionList {
    pub items: *const KeyValue,
    pub len: usize,
}

/// What the host offers a plugin during one call. Callbacks that do not apply to the call
/// (e.g. `segment` during a display call) are ignored by the host.
#[repr(C)]
pub struct Host {
    pub ctx: *mut c_void,
    /// Bytes for the run's standard output (the transcript display writes here).
    pub write_stdout: extern "C" fn(ctx: *mut c_void, bytes: RSlice),
    /// A message for the person running c64kit (shown on stderr), e.g. "wrote screen.png".
    pub note: extern "C" fn(ctx: *mut c_void, text: RSlice),
    /// Why the call is about to fail. Called before returning an error status.
    pub error: extern "C" fn(ctx: *mut c_void, text: RSlice),
    /// Display `poll_input`: a key typed by the person, as PETSCII, for the keyboard buffer.
    pub push_key: extern "C" fn(ctx: *mut c_void, petscii: u8),
    /// Display `poll_input`: the person asked to stop the run (Esc, Ctrl-C).
    pub quit: extern "C" fn(ctx: *mut c_void),
    /// Loader `load`: place `bytes` at `address` (segments are placed in the order given).
    pub segment: extern "C" fn(ctx: *mut c_void, address: u16, bytes: RSlice),
    /// Loader `load`: how to start: [`START_RUN`] or [`START_AT`] with the address.
    pub start: extern "C" fn(ctx: *mut c_void, how: u32, address: u16),
    /// Loader `load`: a one-line human-readable description of what was loaded.
    pub describe: extern "C" fn(ctx: *mut c_void, text: RSlice),
}

/// The screen as text: the 40x25 text matrix the VIC-II shows, for displays that show text.
/// What it looks like, pixel by pixel, is [`Frame`]'s picture.
#[repr(C)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Screen {
    /// CPU cycles since power-on.
    pub cycles: u64,
    /// The frame number: `cycles` / [`Clock::cycles_per_frame`].
    pub frame: u64,
    /// The 40x25 video matrix (screen codes), row by row, from where the VIC reads it.
    pub chars: [u8; 1000],
    /// Colour RAM for each cell (0-15).
    pub colours: [u8; 1000],
    /// $D020 (0-15).
    pub border: u8,
    /// $D021-$D024 (0-15).
    pub background: [u8; 4],
    /// 1 if the lower/upper-case character set is shown, 0 for upper-case/graphics (or a
    /// character set in RAM, whose glyphs only the picture shows).
    pub lowercase: u8,
    /// The cursor's row and column (0-24, 0-39).
    pub cursor_row: u8,
    pub cursor_col: u8,
    /// The VIC-II registers $D000-$D02E as last written ($2F unused).
    pub vic: [u8; 48],
}

/// What one text-mode cell shows (see [`Screen::text_cell`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextCell {
    /// The glyph's screen code (without the reverse bit).
    pub glyph: u8,
    /// Foreground and background colours (0-15).
    pub fg: u8,
    pub bg: u8,
    /// Reverse video: the glyph is drawn with the colours swapped.
    pub reversed: bool,
}

impl TextCell {
    /// The colours the glyph's set and clear pixels show: (fg, bg), swapped in reverse video.
    pub fn shown_colours(&self) -> (u8, u8) {
        if self.reversed {
            (self.bg, self.fg)
        } else {
            (self.fg, self.bg)
        }
    }
}

impl Screen {
    /// Cell `i` (0-999) of the text matrix as the VIC draws it: in extended-background-colour
    /// mode the top two bits pick the background register; otherwise bit 7 is reverse video.
    pub fn text_cell(&self, i: usize) -> TextCell {
        let code = self.chars[i];
        let fg = self.colours[i] & 15;
        if self.vic[0x11] & 0x40 != 0 {
            TextCell {
                glyph: code & 0x3F,
                fg,
                bg: self.background[(code >> 6) as usize] & 15,
                reversed: false,
            }
        } else {
            TextCell {
                glyph: code & 0x7F,
                fg,
                bg: self.background[0] & 15,
                reversed: code & 0x80 != 0,
            }
        }
    }

    /// A power-on screen: spaces, light blue on blue with a light blue border.
    pub fn blank() -> Screen {
        Screen {
            cycles: 0,
            frame: 0,
            chars: [0x20; 1000],
            colours: [14; 1000],
            border: 14,
            background: [6, 0, 0, 0],
            lowercase: 0,
            cursor_row: 0,
            cursor_col: 0,
            vic: [0; 48],
        }
    }

    /// The VIC-II shows text: the display is on and no bitmap mode is set ($D011 bits 4, 5).
    pub fn shows_text(&self) -> bool {
        self.vic[0x11] & 0x30 == 0x10
    }
}

/// What a display is handed at a frame boundary and at the end of the run.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// The text model of the screen, now.
    pub screen: *const Screen,
    /// [`PICTURE_NONE`], [`PICTURE_LIVE`] or [`PICTURE_STILL`]: how `pixels` was drawn.
    pub picture: u32,
    /// The picture's size: [`PICTURE_WIDTH`] x [`PICTURE_HEIGHT`] (0 x 0 without one).
    pub width: u32,
    pub height: u32,
    /// The cycle the picture shows: where a live frame was complete (a frame boundary,
    /// which at the end of a run can be before `screen.cycles`), or the moment a still
    /// picture was redrawn from.
    pub picture_cycles: u64,
    /// `width * height` palette indices (0-15), row by row; empty without a picture.
    pub pixels: RSlice,
    /// The machine's clock (new in version 5).
    pub clock: Clock,
    /// The RGB of colours 0-15 as the person chose to see them (new in version 5): Pepto's
    /// palette by default, or the running VIC-II's own (`--palette chip`). Displays show
    /// `pixels` and the screen's colours in it.
    pub palette: [[u8; 3]; 16],
}

/// How the run ended, for [`DisplayVTable::finish`] and [`AudioVTable::finish`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct RunEnd {
    /// The stop reason as text ("returned to BASIC", "input exhausted", ...).
    pub reason: RSlice,
    /// The process exit code c64kit gives for it.
    pub exit_code: i32,
    pub cycles: u64,
    pub pc: u16,
    /// The machine's clock (new in version 5): `cycles` in seconds is
    /// [`Clock::seconds`]`(cycles)`.
    pub clock: Clock,
}

pub type OptFn<F> = Option<F>;

/// A display backend's functions. Every field must be set (a null entry is an error the
/// host reports at load time).
#[repr(C)]
pub struct DisplayVTable {
    /// Makes an instance with the options; writes it to `out`.
    pub create: OptFn<
        unsafe extern "C" fn(options: OptionList, host: *const Host, out: *mut *mut c_void) -> u32,
    >,
    /// `FLAG_*` bits: what the instance wants from the host.
    pub flags: OptFn<unsafe extern "C" fn(instance: *mut c_void) -> u32>,
    /// CHROUT bytes since the previous call, in order, and for each the character set it was
    /// printed in (`sets`, as long as `bytes`: [`CHARSET_UPPER`] or [`CHARSET_LOWER`]).
    pub chrout: OptFn<
        unsafe extern "C" fn(
            instance: *mut c_void,
            bytes: RSlice,
            sets: RSlice,
            host: *const Host,
        ) -> u32,
    >,
    /// The first cycle at or after which the instance wants its next frame (a display without
    /// [`FLAG_FRAMES`] that wants a few, such as screenshots at given times); `u64::MAX`:
    /// none. Asked after `create` and after each `frame` call.
    pub next_frame: OptFn<unsafe extern "C" fn(instance: *mut c_void) -> u64>,
    /// The screen (and picture, with [`FLAG_PIXELS`]) at a frame boundary.
    pub frame: OptFn<
        unsafe extern "C" fn(instance: *mut c_void, frame: *const Frame, host: *const Host) -> u32,
    >,
    /// Read the person's keyboard: report keys with `push_key`, a request to stop with `quit`.
    pub poll_input: OptFn<unsafe extern "C" fn(instance: *mut c_void, host: *const Host) -> u32>,
    /// The end of the run, with the final screen (and picture, with [`FLAG_PIXELS`]).
    pub finish: OptFn<
        unsafe extern "C" fn(
            instance: *mut c_void,
            end: *const RunEnd,
            frame: *const Frame,
            host: *const Host,
        ) -> u32,
    >,
    /// Frees the instance. Called exactly once per created instance.
    pub destroy: OptFn<unsafe extern "C" fn(instance: *mut c_void)>,
}

/// A block of the SID's sound for [`AudioVTable::samples`]: mono, signed 16-bit, at the rate
/// the instance asked for ([`AudioVTable::sample_rate`]). Blocks come in order without gaps
/// or overlaps, one after each frame the machine ran (and one at the end of the run for
/// the part frame before it stopped); a block may be empty.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AudioBlock {
    /// `len` samples, borrowed for the call (2-byte aligned; null when `len` is 0).
    pub samples: *const i16,
    pub len: usize,
    /// The index of the block's first sample since the sound started (0 for the first
    /// block; each block's is the one before's plus its `len`).
    pub first_sample: u64,
    /// The CPU cycle (since power-on) at which the first sample's period begins: the cycle
    /// the sound started at plus `first_sample` periods of (cycles per second / rate),
    /// rounded down.
    pub first_cycle: u64,
}

/// An audio output's functions. Every function pointer must be set (a null entry is an
/// error the host reports at load time). The host makes the machine synthesise sound only
/// when an audio output is in use.
#[repr(C)]
pub struct AudioVTable {
    /// 1 if the output plays the sound to a person as it comes (a sound card): the host
    /// then paces the run to real time, and `c64kit play` uses it when no output is named.
    /// 0 for outputs that keep the sound (a file), which take it as fast as the run goes.
    pub live: u32,
    /// Makes an instance with the options (`rate`: the sample rate the person asked for,
    /// when they did); writes it to `out`.
    pub create: OptFn<
        unsafe extern "C" fn(options: OptionList, host: *const Host, out: *mut *mut c_void) -> u32,
    >,
    /// The sample rate the instance takes, in samples per second; asked once, after
    /// `create`. The host refuses a rate its synthesis cannot make, naming the plugin.
    pub sample_rate: OptFn<unsafe extern "C" fn(instance: *mut c_void) -> u32>,
    /// The next block of sound.
    pub samples: OptFn<
        unsafe extern "C" fn(
            instance: *mut c_void,
            block: *const AudioBlock,
            host: *const Host,
        ) -> u32,
    >,
    /// The end of the run, after the last block (write the file, drain the sound card).
    pub finish: OptFn<
        unsafe extern "C" fn(instance: *mut c_void, end: *const RunEnd, host: *const Host) -> u32,
    >,
    /// Frees the instance. Called exactly once per created instance.
    pub destroy: OptFn<unsafe extern "C" fn(instance: *mut c_void)>,
}

/// A program loader's functions and data.
#[repr(C)]
pub struct LoaderVTable {
    /// File extensions it loads, lower case without dots, comma-separated ("t64").
    pub extensions: RSlice,
    /// How sure the loader is that it reads this file: writes 0 (no), 1 (maybe: plausible
    /// size or form) or 2 (yes: its magic bytes) to `score`.
    pub probe: OptFn<
        unsafe extern "C" fn(
            path: RSlice,
            bytes: RSlice,
            host: *const Host,
            score: *mut u32,
        ) -> u32,
    >,
    /// Turns the file into a program through `segment`, `start` and `describe`.
    pub load: OptFn<
        unsafe extern "C" fn(
            path: RSlice,
            bytes: RSlice,
            options: OptionList,
            host: *const Host,
        ) -> u32,
    >,
    /// Writes a directory listing of an image through `write_stdout`, or returns
    /// [`STATUS_UNSUPPORTED`].
    pub directory:
        OptFn<unsafe extern "C" fn(path: RSlice, bytes: RSlice, host: *const Host) -> u32>,
}

/// What an entry function returns a pointer to.
#[repr(C)]
pub struct PluginHeader {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// [`ABI_VERSION`] of the interface the plugin was built against.
    pub abi_version: u32,
    /// [`KIND_DISPLAY`], [`KIND_LOADER`] or [`KIND_AUDIO`].
    pub kind: u32,
    /// Short name users type (`--display png`): lower case letters, digits, `-`, `_`.
    pub name: RSlice,
    /// The plugin's own version (semver text).
    pub version: RSlice,
    /// One line saying what it does.
    pub description: RSlice,
    /// For displays; null otherwise.
    pub display: *const DisplayVTable,
    /// For loaders; null otherwise.
    pub loader: *const LoaderVTable,
    /// For audio outputs; null otherwise (new in version 3).
    pub audio: *const AudioVTable,
}

// SAFETY: headers and tables are immutable statics pointing only at other statics.
unsafe impl Sync for PluginHeader {}
unsafe impl Sync for DisplayVTable {}
unsafe impl Sync for LoaderVTable {}
unsafe impl Sync for AudioVTable {}

/// The type of an exported entry function.
pub type EntryFn = unsafe extern "C" fn() -> *const PluginHeader;

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up clock of 3 cycles a second, 2 a frame.
    const SLOW: Clock = Clock {
        cycles_per_second: 3,
        cycles_per_frame: 2,
        video: VIDEO_PAL,
    };

    #[test]
    fn a_clock_turns_cycles_into_time() {
        assert_eq!(SLOW.seconds(6), 2.0);
        assert_eq!(SLOW.frames_per_second(), 1.5);
        // Tenths of a second: 1 cycle is 3.33 tenths, 2 are 6.67, halves round up.
        let tenths: Vec<u64> = (0..=6).map(|c| SLOW.ticks(c, 10)).collect();
        assert_eq!(tenths, [0, 3, 7, 10, 13, 17, 20]);
        let half = Clock {
            cycles_per_second: 4,
            ..SLOW
        };
        assert_eq!(half.ticks(1, 2), 1, "half a tick rounds up");
        // No overflow, whatever the counts.
        assert_eq!(SLOW.ticks(u64::MAX, 3), u64::MAX);
        assert_eq!(SLOW.ticks(u64::MAX, 100), u64::MAX);
        assert_eq!(SLOW.video_name(), "PAL");
        assert_eq!(Clock { video: 7, ..SLOW }.video_name(), "video standard 7");
        assert!(SLOW.check().is_ok());
    }
}
