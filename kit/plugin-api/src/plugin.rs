//! The plugin side: implement [`DisplayBackend`], [`ProgramLoader`] or [`AudioOutput`] in
//! plain Rust and export it with [`export_display!`](crate::export_display),
//! [`export_loader!`](crate::export_loader) or [`export_audio!`](crate::export_audio). The glue here turns the trait into the C tables
//! of [`crate::abi`] and catches every panic at the boundary.

use crate::abi::{
    AudioBlock, AudioVTable, Clock, DisplayVTable, Frame, Host, KeyValue, LoaderVTable, OptionList,
    RSlice, RunEnd, Screen, PICTURE_NONE, START_AT, START_RUN, STATUS_ERROR, STATUS_OK,
    STATUS_PANIC, STATUS_UNSUPPORTED,
};
use crate::picture::{Picture, PictureKind};
use std::any::Any;
use std::cell::Cell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The host's services during one call.
#[derive(Clone, Copy)]
pub struct HostRef<'a> {
    raw: &'a Host,
}

impl<'a> HostRef<'a> {
    /// # Safety
    /// `host` must be the valid pointer the host passed to this call.
    pub unsafe fn from_raw(host: *const Host) -> HostRef<'a> {
        // SAFETY: the host passes a table that lives for the call.
        HostRef {
            raw: unsafe { &*host },
        }
    }

    /// Bytes for the run's standard output.
    pub fn write_stdout(&self, bytes: &[u8]) {
        (self.raw.write_stdout)(self.raw.ctx, RSlice::new(bytes));
    }

    /// A message for the person (shown on stderr).
    pub fn note(&self, text: &str) {
        (self.raw.note)(self.raw.ctx, RSlice::new(text.as_bytes()));
    }

    fn error(&self, text: &str) {
        (self.raw.error)(self.raw.ctx, RSlice::new(text.as_bytes()));
    }

    /// A key the person typed (PETSCII), for the keyboard buffer.
    pub fn push_key(&self, petscii: u8) {
        (self.raw.push_key)(self.raw.ctx, petscii);
    }

    /// The person asked to stop the run.
    pub fn quit(&self) {
        (self.raw.quit)(self.raw.ctx);
    }
}

/// The `key = value` options a plugin was given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub items: Vec<(String, String)>,
}

impl Options {
    pub fn new(items: Vec<(String, String)>) -> Options {
        Options { items }
    }

    /// # Safety
    /// `list` must describe `len` valid [`KeyValue`]s with valid slices.
    unsafe fn from_raw(list: OptionList) -> Options {
        if list.items.is_null() || list.len == 0 {
            return Options::default();
        }
        // SAFETY: the host passes a valid list for the call.
        let items = unsafe { std::slice::from_raw_parts(list.items, list.len) };
        Options {
            items: items
                .iter()
                .map(|kv: &KeyValue| {
                    // SAFETY: as above.
                    unsafe { (kv.key.to_string_lossy(), kv.value.to_string_lossy()) }
                })
                .collect(),
        }
    }

    /// The last value given for `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.items
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every value given for `key`, in order.
    pub fn all(&self, key: &str) -> Vec<&str> {
        self.items
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// A number option (decimal, `$hex` or `0xhex`).
    pub fn number(&self, key: &str) -> Result<Option<u64>, String> {
        self.get(key)
            .map(|v| parse_number_option(key, v))
            .transpose()
    }

    /// A yes/no option (`true`/`false`, `yes`/`no`, `1`/`0`, `on`/`off`).
    pub fn flag(&self, key: &str) -> Result<Option<bool>, String> {
        self.get(key)
            .map(|v| match v.to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" | "on" => Ok(true),
                "false" | "no" | "0" | "off" => Ok(false),
                _ => Err(format!("option {key}: expected true or false, not {v:?}")),
            })
            .transpose()
    }

    /// The `output` option, else the program's file name (the host passes `program`) with
    /// the extension `ext` in the current folder, else `screen.<ext>`.
    pub fn output_path(&self, ext: &str) -> std::path::PathBuf {
        use std::path::{Path, PathBuf};
        if let Some(o) = self.get("output") {
            return PathBuf::from(o);
        }
        self.get("program")
            .and_then(|p| Path::new(p).file_stem())
            .map(|s| PathBuf::from(s).with_extension(ext))
            .unwrap_or_else(|| PathBuf::from(format!("screen.{ext}")))
    }

    /// Fails naming the first option not in `known`. The options the host passes to every
    /// plugin, `program` (the program's file name) and `play` (`true` under `c64kit play`),
    /// are always accepted.
    pub fn check_known(&self, known: &[&str]) -> Result<(), String> {
        for (k, _) in &self.items {
            if k != "program" && k != "play" && !known.contains(&k.as_str()) {
                let list = if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                };
                return Err(format!("unknown option {k:?} (known options: {list})"));
            }
        }
        Ok(())
    }
}

/// Parses `$hex`, `0xhex` or decimal (with `_` separators); errors name the option `key`.
pub fn parse_number_option(key: &str, v: &str) -> Result<u64, String> {
    let t = v.trim();
    let parsed = if let Some(h) = t.strip_prefix('$').or_else(|| t.strip_prefix("0x")) {
        u64::from_str_radix(h, 16)
    } else {
        t.replace('_', "").parse()
    };
    parsed.map_err(|_| format!("option {key}: not a number: {v:?}"))
}

/// How a run ended, as a display sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunEndInfo {
    pub reason: String,
    pub exit_code: i32,
    pub cycles: u64,
    pub pc: u16,
    /// The machine's clock: `cycles` in seconds is `clock.seconds(cycles)`.
    pub clock: Clock,
}

/// What a display is handed at a frame boundary and at the end of the run: the screen as
/// text, if the display asked for pixels (`FLAG_PIXELS`) the VIC-II's picture, and the
/// machine's clock (what its cycle counts are in time).
#[derive(Clone, Copy, Debug)]
pub struct FrameView<'a> {
    pub screen: &'a Screen,
    pub picture: Option<Picture<'a>>,
    pub clock: Clock,
    /// The RGB the colour indices show as (the host's choice: Pepto's by default).
    pub palette: crate::palette::Palette,
}

impl<'a> FrameView<'a> {
    /// The C form, borrowing from `self`.
    pub fn to_raw(&self) -> Frame {
        match &self.picture {
            Some(p) => Frame {
                screen: self.screen,
                picture: p.kind.to_raw(),
                width: p.width as u32,
                height: p.height as u32,
                picture_cycles: p.cycles,
                pixels: RSlice::new(p.pixels),
                clock: self.clock,
                palette: self.palette,
            },
            None => Frame {
                screen: self.screen,
                picture: PICTURE_NONE,
                width: 0,
                height: 0,
                picture_cycles: 0,
                pixels: RSlice::EMPTY,
                clock: self.clock,
                palette: self.palette,
            },
        }
    }

    /// The Rust form of a frame the host passed; a picture whose size does not match its
    /// pixels, or a clock with a count of 0, is refused.
    ///
    /// # Safety
    /// `frame` must be null or valid for `'a`, with a valid screen and pixel slice.
    pub unsafe fn from_raw(frame: *const Frame) -> Result<FrameView<'a>, String> {
        // SAFETY: forwarded to the caller.
        let Some(f) = (unsafe { frame.as_ref() }) else {
            return Err("the host passed no frame".into());
        };
        // SAFETY: as above.
        let Some(screen) = (unsafe { f.screen.as_ref() }) else {
            return Err("the host passed a frame without a screen".into());
        };
        f.clock.check()?;
        let picture = match PictureKind::from_raw(f.picture) {
            None => None,
            Some(kind) => {
                // SAFETY: as above.
                let pixels = unsafe { f.pixels.as_bytes() };
                let (width, height) = (f.width as usize, f.height as usize);
                if width.checked_mul(height) != Some(pixels.len()) {
                    return Err(format!(
                        "the host's picture is {width}x{height} but has {} pixels",
                        pixels.len()
                    ));
                }
                Some(Picture {
                    pixels,
                    width,
                    height,
                    kind,
                    cycles: f.picture_cycles,
                })
            }
        };
        Ok(FrameView {
            screen,
            picture,
            clock: f.clock,
            palette: f.palette,
        })
    }

    /// The picture, or an error for a display that needs one (and asked with `FLAG_PIXELS`).
    pub fn need_picture(&self) -> Result<Picture<'a>, String> {
        self.picture
            .ok_or_else(|| "the host handed no picture (this display needs FLAG_PIXELS)".into())
    }
}

/// A display backend. One instance per run; calls come in this order: `create`, then
/// `chrout`/`frame`/`poll_input` as the run goes, then `finish` once, then drop.
pub trait DisplayBackend: Sized + 'static {
    fn create(options: &Options, host: &HostRef) -> Result<Self, String>;

    /// `FLAG_*` bits of [`crate::abi`]; asked once, after `create`.
    fn flags(&self) -> u32 {
        0
    }

    /// Without `FLAG_FRAMES`: the first cycle at or after which the display wants its next
    /// frame (`u64::MAX`: none). Asked after `create` and after each `frame`.
    fn next_frame(&self) -> u64 {
        u64::MAX
    }

    fn chrout(&mut self, _bytes: &[u8], _host: &HostRef) -> Result<(), String> {
        Ok(())
    }

    /// CHROUT bytes with the character set each was printed in (`sets[i]` for `bytes[i]`:
    /// [`crate::abi::CHARSET_UPPER`] or [`crate::abi::CHARSET_LOWER`]). By default
    /// [`DisplayBackend::chrout`] with the bytes alone.
    fn chrout_in_sets(&mut self, bytes: &[u8], _sets: &[u8], host: &HostRef) -> Result<(), String> {
        self.chrout(bytes, host)
    }

    fn frame(&mut self, _frame: &FrameView, _host: &HostRef) -> Result<(), String> {
        Ok(())
    }

    fn poll_input(&mut self, _host: &HostRef) -> Result<(), String> {
        Ok(())
    }

    fn finish(&mut self, end: &RunEndInfo, frame: &FrameView, host: &HostRef)
        -> Result<(), String>;
}

/// Bytes to place at an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub address: u16,
    pub bytes: Vec<u8>,
}

/// How to start a loaded program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// RUN: follow the SYS in the BASIC stub of the first segment.
    Run,
    /// Start here, as SYS would.
    At(u16),
}

/// A loaded program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub segments: Vec<Segment>,
    pub start: Start,
    /// One line for people: what was loaded from where.
    pub description: String,
}

impl Program {
    /// One segment from a PRG's bytes (load address first), started with RUN.
    pub fn from_prg(prg: &[u8], description: String) -> Result<Program, String> {
        if prg.len() < 2 {
            return Err(format!(
                "not a PRG file: {} byte(s), but a PRG starts with a 2-byte load address",
                prg.len()
            ));
        }
        let address = u16::from_le_bytes([prg[0], prg[1]]);
        let end = address as usize + prg.len() - 2;
        if end > 0x10000 {
            return Err(format!(
                "{} bytes loaded at ${address:04X} would run past $FFFF (to ${end:05X})",
                prg.len() - 2
            ));
        }
        Ok(Program {
            segments: vec![Segment {
                address,
                bytes: prg[2..].to_vec(),
            }],
            start: Start::Run,
            description,
        })
    }
}

/// How sure a loader is that a file is its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    No = 0,
    Maybe = 1,
    Yes = 2,
}

/// A program loader. Stateless: each call gets the whole file.
pub trait ProgramLoader: 'static {
    /// Lower-case extensions without dots, comma-separated.
    const EXTENSIONS: &'static str;

    /// Looks at the content (not the name): magic bytes, plausible size.
    fn probe(_path: &str, _bytes: &[u8]) -> Confidence {
        Confidence::No
    }

    fn load(path: &str, bytes: &[u8], options: &Options) -> Result<Program, String>;

    /// A directory listing for images; `None` if the loader has no such thing.
    fn directory(_path: &str, _bytes: &[u8]) -> Option<Result<String, String>> {
        None
    }
}

/// A block of sound as an audio output sees it (see [`crate::abi::AudioBlock`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoundBlock<'a> {
    /// Mono, signed 16-bit samples at the instance's rate.
    pub samples: &'a [i16],
    /// The index of the first sample since the sound started.
    pub first_sample: u64,
    /// The CPU cycle at which the first sample's period begins.
    pub first_cycle: u64,
}

impl<'a> SoundBlock<'a> {
    /// The C form, borrowing from `self`.
    pub fn to_raw(&self) -> AudioBlock {
        AudioBlock {
            samples: if self.samples.is_empty() {
                std::ptr::null()
            } else {
                self.samples.as_ptr()
            },
            len: self.samples.len(),
            first_sample: self.first_sample,
            first_cycle: self.first_cycle,
        }
    }

    /// The Rust form of a block the host passed; a misaligned sample pointer is refused.
    ///
    /// # Safety
    /// `block` must be null or valid for `'a`, its samples `len` readable `i16`s.
    pub unsafe fn from_raw(block: *const AudioBlock) -> Result<SoundBlock<'a>, String> {
        // SAFETY: forwarded to the caller.
        let Some(b) = (unsafe { block.as_ref() }) else {
            return Err("the host passed no block of sound".into());
        };
        let samples = if b.len == 0 {
            &[][..]
        } else if b.samples.is_null() || !b.samples.is_aligned() {
            return Err(format!(
                "the host's block of {} samples is at {:p}, not a 2-byte aligned address",
                b.len, b.samples
            ));
        } else {
            // SAFETY: aligned, and the caller guarantees `len` readable samples.
            unsafe { std::slice::from_raw_parts(b.samples, b.len) }
        };
        Ok(SoundBlock {
            samples,
            first_sample: b.first_sample,
            first_cycle: b.first_cycle,
        })
    }
}

/// An audio output: hears the SID's sound. One instance per run; calls come in this order:
/// `create`, `sample_rate`, then `samples` as the run goes, then `finish` once, then drop.
pub trait AudioOutput: Sized + 'static {
    /// True for an output that plays the sound to a person as it comes (a sound card): the
    /// host paces the run to real time and `c64kit play` uses it when none is named.
    const LIVE: bool = false;

    fn create(options: &Options, host: &HostRef) -> Result<Self, String>;

    /// Samples per second this instance takes; asked once, after `create`.
    fn sample_rate(&self) -> u32;

    fn samples(&mut self, block: &SoundBlock, host: &HostRef) -> Result<(), String>;

    fn finish(&mut self, end: &RunEndInfo, host: &HostRef) -> Result<(), String>;
}

/// The panic's message, if it was a string.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

thread_local! {
    /// Whether this thread is inside a call into the plugin (see [`catch`]).
    static IN_PLUGIN_CALL: Cell<bool> = const { Cell::new(false) };
}

/// Runs a call into the plugin, catching its panic without Rust's report of it ("thread
/// 'main' panicked at ...", a backtrace): the host shows only its own message naming the
/// plugin, with the panic's text. The first call installs a panic hook that stays quiet
/// inside plugin calls and hands every other panic to the hook it replaced. A plugin built
/// as a library has its own copy of std, so its own hook: it is installed there the same way.
fn catch<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    static QUIET_HOOK: std::sync::Once = std::sync::Once::new();
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_PLUGIN_CALL.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let outer = IN_PLUGIN_CALL.with(|c| c.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_PLUGIN_CALL.with(|c| c.set(outer));
    result
}

/// Runs `f`, turning its error or panic into a status and a message for the host.
fn guarded(
    host: &HostRef,
    poisoned: Option<&mut bool>,
    f: impl FnOnce() -> Result<(), String>,
) -> u32 {
    if let Some(p) = &poisoned {
        if **p {
            host.error("the plugin panicked earlier in this run and cannot be used again");
            return STATUS_PANIC;
        }
    }
    match catch(f) {
        Ok(Ok(())) => STATUS_OK,
        Ok(Err(message)) => {
            host.error(&message);
            STATUS_ERROR
        }
        Err(payload) => {
            if let Some(p) = poisoned {
                *p = true;
            }
            host.error(&format!("panicked: {}", panic_message(payload.as_ref())));
            STATUS_PANIC
        }
    }
}

struct Instance<T> {
    inner: T,
    poisoned: bool,
}

unsafe extern "C" fn display_create<T: DisplayBackend>(
    options: OptionList,
    host: *const Host,
    out: *mut *mut c_void,
) -> u32 {
    // SAFETY: forwarded from the host's call.
    unsafe { create_instance(options, host, out, T::create) }
}

/// An instance's `create` (displays and audio outputs alike): `create` makes the value, which
/// the host gets boxed through `out`.
///
/// # Safety
/// The pointers are the host's for the call: valid options, host and out place.
unsafe fn create_instance<T>(
    options: OptionList,
    host: *const Host,
    out: *mut *mut c_void,
    create: impl FnOnce(&Options, &HostRef) -> Result<T, String>,
) -> u32 {
    // SAFETY: forwarded to the caller.
    let host = unsafe { HostRef::from_raw(host) };
    let options = unsafe { Options::from_raw(options) };
    guarded(&host, None, || {
        let inner = create(&options, &host)?;
        let boxed = Box::new(Instance {
            inner,
            poisoned: false,
        });
        // SAFETY: `out` is a valid place for the host to receive the instance.
        unsafe { *out = Box::into_raw(boxed).cast::<c_void>() };
        Ok(())
    })
}

/// The run's end as a plugin sees it; a clock with a count of 0 is refused.
///
/// # Safety
/// `end` must be null or valid for the call, with a valid `reason`.
unsafe fn run_end_info(end: *const RunEnd) -> Result<RunEndInfo, String> {
    // SAFETY: forwarded to the caller.
    let Some(end) = (unsafe { end.as_ref() }) else {
        return Err("the host passed no end of run".into());
    };
    end.clock.check()?;
    Ok(RunEndInfo {
        // SAFETY: forwarded to the caller.
        reason: unsafe { end.reason.to_string_lossy() },
        exit_code: end.exit_code,
        cycles: end.cycles,
        pc: end.pc,
        clock: end.clock,
    })
}

/// # Safety
/// `instance` must come from `create_instance::<T>` and not be destroyed.
unsafe fn instance<'a, T>(instance: *mut c_void) -> &'a mut Instance<T> {
    // SAFETY: forwarded to the caller.
    unsafe { &mut *instance.cast::<Instance<T>>() }
}

unsafe extern "C" fn display_flags<T: DisplayBackend>(inst: *mut c_void) -> u32 {
    // SAFETY: the host passes an instance from create.
    let inst = unsafe { instance::<T>(inst) };
    if inst.poisoned {
        return 0;
    }
    catch(|| inst.inner.flags()).unwrap_or(0)
}

unsafe extern "C" fn display_next_frame<T: DisplayBackend>(inst: *mut c_void) -> u64 {
    // SAFETY: the host passes an instance from create.
    let inst = unsafe { instance::<T>(inst) };
    if inst.poisoned {
        return u64::MAX;
    }
    catch(|| inst.inner.next_frame()).unwrap_or(u64::MAX)
}

unsafe extern "C" fn display_chrout<T: DisplayBackend>(
    inst: *mut c_void,
    bytes: RSlice,
    sets: RSlice,
    host: *const Host,
) -> u32 {
    // SAFETY: the host passes valid pointers for the call.
    let (inst, host, bytes, sets) = unsafe {
        (
            instance::<T>(inst),
            HostRef::from_raw(host),
            bytes.as_bytes(),
            sets.as_bytes(),
        )
    };
    let Instance { inner, poisoned } = inst;
    guarded(&host, Some(poisoned), || {
        inner.chrout_in_sets(bytes, sets, &host)
    })
}

unsafe extern "C" fn display_frame<T: DisplayBackend>(
    inst: *mut c_void,
    frame: *const Frame,
    host: *const Host,
) -> u32 {
    // SAFETY: the host passes valid pointers for the call.
    let (inst, host, frame) = unsafe {
        (
            instance::<T>(inst),
            HostRef::from_raw(host),
            FrameView::from_raw(frame),
        )
    };
    let Instance { inner, poisoned } = inst;
    guarded(&host, Some(poisoned), || inner.frame(&frame?, &host))
}

unsafe extern "C" fn display_poll_input<T: DisplayBackend>(
    inst: *mut c_void,
    host: *const Host,
) -> u32 {
    // SAFETY: the host passes valid pointers for the call.
    let (inst, host) = unsafe { (instance::<T>(inst), HostRef::from_raw(host)) };
    let Instance { inner, poisoned } = inst;
    guarded(&host, Some(poisoned), || inner.poll_input(&host))
}

unsafe extern "C" fn display_finish<T: DisplayBackend>(
    inst: *mut c_void,
    end: *const RunEnd,
    frame: *const Frame,
    host: *const Host,
) -> u32 {
    // SAFETY: the host passes valid pointers for the call.
    let (inst, host, info, frame) = unsafe {
        (
            instance::<T>(inst),
            HostRef::from_raw(host),
            run_end_info(end),
            FrameView::from_raw(frame),
        )
    };
    let Instance { inner, poisoned } = inst;
    guarded(&host, Some(poisoned), || {
        inner.finish(&info?, &frame?, &host)
    })
}

/// An instance's `destroy` (displays and audio outputs alike).
unsafe extern "C" fn destroy_instance<T>(inst: *mut c_void) {
    if inst.is_null() {
        return;
    }
    // SAFETY: the instance came from Box::into_raw in create and is destroyed once.
    let boxed = unsafe { Box::from_raw(inst.cast::<Instance<T>>()) };
    // A panicking Drop must not unwind into the host; the instance is gone either way.
    let _ = catch(move || drop(boxed));
}

/// The C table for a display type (used by [`export_display!`](crate::export_display)).
pub const fn display_vtable<T: DisplayBackend>() -> DisplayVTable {
    DisplayVTable {
        create: Some(display_create::<T>),
        flags: Some(display_flags::<T>),
        next_frame: Some(display_next_frame::<T>),
        chrout: Some(display_chrout::<T>),
        frame: Some(display_frame::<T>),
        poll_input: Some(display_poll_input::<T>),
        finish: Some(display_finish::<T>),
        destroy: Some(destroy_instance::<T>),
    }
}

unsafe extern "C" fn loader_probe<T: ProgramLoader>(
    path: RSlice,
    bytes: RSlice,
    host: *const Host,
    score: *mut u32,
) -> u32 {
    // SAFETY: the host passes valid pointers for the call.
    let (host, path, bytes) = unsafe {
        (
            HostRef::from_raw(host),
            path.to_string_lossy(),
            bytes.as_bytes(),
        )
    };
    guarded(&host, None, || {
        let c = T::probe(&path, bytes);
        // SAFETY: `score` is valid for the call.
        unsafe { *score = c as u32 };
        Ok(())
    })
}

unsafe extern "C" fn loader_load<T: ProgramLoader>(
    path: RSlice,
    bytes: RSlice,
    options: OptionList,
    host: *const Host,
) -> u32 {
    // SAFETY: the host passes valid pointers for the call.
    let (host, path, bytes, options) = unsafe {
        (
            HostRef::from_raw(host),
            path.to_string_lossy(),
            bytes.as_bytes(),
            Options::from_raw(options),
        )
    };
    guarded(&host, None, || {
        let program = T::load(&path, bytes, &options)?;
        for s in &program.segments {
            (host.raw.segment)(host.raw.ctx, s.address, RSlice::new(&s.bytes));
        }
        let (how, address) = match program.start {
            Start::Run => (START_RUN, 0),
            Start::At(a) => (START_AT, a),
        };
        (host.raw.start)(host.raw.ctx, how, address);
        (host.raw.describe)(host.raw.ctx, RSlice::new(program.description.as_bytes()));
        Ok(())
    })
}

unsafe extern "C" fn loader_directory<T: ProgramLoader>(
    path: RSlice,
    bytes: RSlice,
    host: *const Host,
) -> u32 {
    // SAFETY: the host passes valid pointers for the call.
    let (host, path, bytes) = unsafe {
        (
            HostRef::from_raw(host),
            path.to_string_lossy(),
            bytes.as_bytes(),
        )
    };
    let mut unsupported = false;
    let status = guarded(&host, None, || match T::directory(&path, bytes) {
        None => {
            unsupported = true;
            Ok(())
        }
        Some(Ok(text)) => {
            host.write_stdout(text.as_bytes());
            Ok(())
        }
        Some(Err(e)) => Err(e),
    });
    if unsupported {
        STATUS_UNSUPPORTED
    } else {
        status
    }
}

/// The C table for a loader type (used by [`export_loader!`](crate::export_loader)).
pub const fn loader_vtable<T: ProgramLoader>() -> LoaderVTable {
    LoaderVTable {
        extensions: RSlice::from_static(T::EXTENSIONS),
        probe: Some(loader_probe::<T>),
        load: Some(loader_load::<T>),
        directory: Some(loader_directory::<T>),
    }
}

unsafe extern "C" fn audio_create<T: AudioOutput>(
    options: OptionList,
    host: *const Host,
    out: *mut *mut c_void,
) -> u32 {
    // SAFETY: forwarded from the host's call.
    unsafe { create_instance(options, host, out, T::create) }
}

unsafe extern "C" fn audio_sample_rate<T: AudioOutput>(inst: *mut c_void) -> u32 {
    // SAFETY: the host passes an instance from create.
    let inst = unsafe { instance::<T>(inst) };
    if inst.poisoned {
        return 0;
    }
    // 0 is no rate: the host refuses it, naming the plugin.
    catch(|| inst.inner.sample_rate()).unwrap_or(0)
}

unsafe extern "C" fn audio_samples<T: AudioOutput>(
    inst: *mut c_void,
    block: *const AudioBlock,
    host: *const Host,
) -> u32 {
    // SAFETY: the host passes valid pointers for the call.
    let (inst, host, block) = unsafe {
        (
            instance::<T>(inst),
            HostRef::from_raw(host),
            SoundBlock::from_raw(block),
        )
    };
    let Instance { inner, poisoned } = inst;
    guarded(&host, Some(poisoned), || inner.samples(&block?, &host))
}

unsafe extern "C" fn audio_finish<T: AudioOutput>(
    inst: *mut c_void,
    end: *const RunEnd,
    host: *const Host,
) -> u32 {
    // SAFETY: the host passes valid pointers for the call.
    let (inst, host, info) = unsafe {
        (
            instance::<T>(inst),
            HostRef::from_raw(host),
            run_end_info(end),
        )
    };
    let Instance { inner, poisoned } = inst;
    guarded(&host, Some(poisoned), || inner.finish(&info?, &host))
}

/// The C table for an audio output type (used by [`export_audio!`](crate::export_audio)).
pub const fn audio_vtable<T: AudioOutput>() -> AudioVTable {
    AudioVTable {
        live: T::LIVE as u32,
        create: Some(audio_create::<T>),
        sample_rate: Some(audio_sample_rate::<T>),
        samples: Some(audio_samples::<T>),
        finish: Some(audio_finish::<T>),
        destroy: Some(destroy_instance::<T>),
    }
}

/// Exports a [`DisplayBackend`] type as a plugin.
///
/// ```ignore
/// c64kit_plugin_api::export_display!(c64kit_plugin_entry_png, PngDisplay, "png", "Screenshots as PNG");
/// ```
///
/// The first argument is the exported entry function's name: it must start with
/// `c64kit_plugin_entry` and be unique among the plugins linked into one program. The macro
/// also defines `pub fn plugin() -> &'static PluginHeader`, which a host that links the crate
/// directly (as c64kit does with its built-in plugins) uses instead of the library symbol.
#[macro_export]
macro_rules! export_display {
    ($entry:ident, $ty:ty, $name:expr, $description:expr) => {
        static C64KIT_DISPLAY_VTABLE: $crate::abi::DisplayVTable =
            $crate::plugin::display_vtable::<$ty>();
        $crate::export_header!(
            $entry,
            $crate::abi::KIND_DISPLAY,
            $name,
            $description,
            &C64KIT_DISPLAY_VTABLE,
            ::std::ptr::null(),
            ::std::ptr::null()
        );
    };
}

/// Exports a [`ProgramLoader`] type as a plugin; see [`export_display!`](crate::export_display).
#[macro_export]
macro_rules! export_loader {
    ($entry:ident, $ty:ty, $name:expr, $description:expr) => {
        static C64KIT_LOADER_VTABLE: $crate::abi::LoaderVTable =
            $crate::plugin::loader_vtable::<$ty>();
        $crate::export_header!(
            $entry,
            $crate::abi::KIND_LOADER,
            $name,
            $description,
            ::std::ptr::null(),
            &C64KIT_LOADER_VTABLE,
            ::std::ptr::null()
        );
    };
}

/// Exports an [`AudioOutput`] type as a plugin; see [`export_display!`](crate::export_display).
#[macro_export]
macro_rules! export_audio {
    ($entry:ident, $ty:ty, $name:expr, $description:expr) => {
        static C64KIT_AUDIO_VTABLE: $crate::abi::AudioVTable =
            $crate::plugin::audio_vtable::<$ty>();
        $crate::export_header!(
            $entry,
            $crate::abi::KIND_AUDIO,
            $name,
            $description,
            ::std::ptr::null(),
            ::std::ptr::null(),
            &C64KIT_AUDIO_VTABLE
        );
    };
}

/// The header, `plugin()` and the entry function every export macro defines (the one
/// vtable of the plugin's kind set, the others null).
#[doc(hidden)]
#[macro_export]
macro_rules! export_header {
    ($entry:ident, $kind:expr, $name:expr, $description:expr, $display:expr, $loader:expr, $audio:expr) => {
        static C64KIT_PLUGIN_HEADER: $crate::abi::PluginHeader = $crate::abi::PluginHeader {
            magic: $crate::abi::MAGIC,
            abi_version: $crate::abi::ABI_VERSION,
            kind: $kind,
            name: $crate::abi::RSlice::from_static($name),
            version: $crate::abi::RSlice::from_static(env!("CARGO_PKG_VERSION")),
            description: $crate::abi::RSlice::from_static($description),
            display: $display,
            loader: $loader,
            audio: $audio,
        };

        /// The plugin's header, for hosts that link this crate directly.
        pub fn plugin() -> &'static $crate::abi::PluginHeader {
            &C64KIT_PLUGIN_HEADER
        }

        /// The entry point hosts find in the dynamic library.
        #[no_mangle]
        pub extern "C" fn $entry() -> *const $crate::abi::PluginHeader {
            &C64KIT_PLUGIN_HEADER
        }
    };
}
