//! The host side: check a plugin's header, call it through safe wrappers, and open plugin
//! libraries. Built-in plugins (linked in) and library plugins go through the same C tables,
//! so they behave the same.

use crate::abi::{
    self, AudioBlock, AudioVTable, DisplayVTable, EntryFn, Frame, Host, KeyValue, LoaderVTable,
    OptionList, PluginHeader, RSlice, RunEnd, START_AT, START_RUN, STATUS_OK, STATUS_PANIC,
    STATUS_UNSUPPORTED,
};
use crate::plugin::{FrameView, Program, RunEndInfo, Segment, SoundBlock, Start};
use std::ffi::c_void;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// What a plugin does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Display,
    Loader,
    Audio,
}

impl Kind {
    /// "a display", "a loader", "an audio output": the kind in a sentence.
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Display => "a display",
            Kind::Loader => "a loader",
            Kind::Audio => "an audio output",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Display => "display",
            Kind::Loader => "loader",
            Kind::Audio => "audio",
        })
    }
}

/// Where a plugin came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    BuiltIn,
    Library(PathBuf),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::BuiltIn => f.write_str("built-in"),
            Origin::Library(p) => write!(f, "{}", p.display()),
        }
    }
}

/// A failed call into a plugin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallError {
    pub message: String,
    /// The plugin panicked (caught at its boundary).
    pub panicked: bool,
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CallError {}

/// Where the host sends what plugins hand over during calls.
pub trait HostSink {
    /// Bytes for standard output.
    fn stdout(&mut self, bytes: &[u8]);
    /// A message for the person.
    fn note(&mut self, text: &str);
    /// A key the person typed.
    fn key(&mut self, _petscii: u8) {}
    /// The person asked to stop.
    fn quit(&mut self) {}
}

/// A sink that keeps everything, for tests and for callers that post-process.
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct Collect {
    pub stdout: Vec<u8>,
    pub notes: Vec<String>,
    pub keys: Vec<u8>,
    pub quit: bool,
}

impl HostSink for Collect {
    fn stdout(&mut self, bytes: &[u8]) {
        self.stdout.extend_from_slice(bytes);
    }
    fn note(&mut self, text: &str) {
        self.notes.push(text.to_string());
    }
    fn key(&mut self, petscii: u8) {
        self.keys.push(petscii);
    }
    fn quit(&mut self) {
        self.quit = true;
    }
}

type CreateFn = unsafe extern "C" fn(OptionList, *const Host, *mut *mut c_void) -> u32;
type FlagsFn = unsafe extern "C" fn(*mut c_void) -> u32;
type NextFrameFn = unsafe extern "C" fn(*mut c_void) -> u64;
type ChroutFn = unsafe extern "C" fn(*mut c_void, RSlice, RSlice, *const Host) -> u32;
type FrameFn = unsafe extern "C" fn(*mut c_void, *const Frame, *const Host) -> u32;
type PollFn = unsafe extern "C" fn(*mut c_void, *const Host) -> u32;
type FinishFn = unsafe extern "C" fn(*mut c_void, *const RunEnd, *const Frame, *const Host) -> u32;
type DestroyFn = unsafe extern "C" fn(*mut c_void);
type ProbeFn = unsafe extern "C" fn(RSlice, RSlice, *const Host, *mut u32) -> u32;
type LoadFn = unsafe extern "C" fn(RSlice, RSlice, OptionList, *const Host) -> u32;
type DirFn = unsafe extern "C" fn(RSlice, RSlice, *const Host) -> u32;
type RateFn = unsafe extern "C" fn(*mut c_void) -> u32;
type SamplesFn = unsafe extern "C" fn(*mut c_void, *const AudioBlock, *const Host) -> u32;
type AudioFinishFn = unsafe extern "C" fn(*mut c_void, *const RunEnd, *const Host) -> u32;

#[derive(Clone, Copy)]
struct DisplayFns {
    create: CreateFn,
    flags: FlagsFn,
    next_frame: NextFrameFn,
    chrout: ChroutFn,
    frame: FrameFn,
    poll_input: PollFn,
    finish: FinishFn,
    destroy: DestroyFn,
}

#[derive(Clone, Copy)]
struct LoaderFns {
    probe: ProbeFn,
    load: LoadFn,
    directory: DirFn,
}

#[derive(Clone, Copy)]
struct AudioFns {
    create: CreateFn,
    sample_rate: RateFn,
    samples: SamplesFn,
    finish: AudioFinishFn,
    destroy: DestroyFn,
}

#[derive(Clone, Copy)]
enum Fns {
    Display(DisplayFns),
    Loader(LoaderFns),
    Audio(AudioFns),
}

/// A checked plugin, ready to call.
#[derive(Clone)]
pub struct Plugin {
    pub kind: Kind,
    pub name: String,
    pub version: String,
    pub description: String,
    pub origin: Origin,
    /// Loaders: the extensions they declare (lower case, no dots).
    pub extensions: Vec<String>,
    /// Audio outputs: plays the sound to a person as it comes (see
    /// [`abi::AudioVTable::live`]).
    pub live: bool,
    fns: Fns,
}

impl fmt::Debug for Plugin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Plugin")
            .field("kind", &self.kind)
            .field("name", &self.name)
            .field("version", &self.version)
            .field("origin", &self.origin)
            .finish()
    }
}

/// Reads a header string: UTF-8, at most `max` bytes.
///
/// # Safety
/// `s` must be valid (it comes from a header whose magic and version matched).
unsafe fn header_str(s: RSlice, what: &str, max: usize) -> Result<String, String> {
    if s.len > max {
        return Err(format!(
            "its {what} is {} bytes long (at most {max})",
            s.len
        ));
    }
    // SAFETY: forwarded to the caller.
    let bytes = unsafe { s.as_bytes() };
    String::from_utf8(bytes.to_vec()).map_err(|_| format!("its {what} is not UTF-8"))
}

/// Why a plugin of another ABI version is refused. One host speaks one version: an old
/// plugin is rebuilt, not translated (see the `abi` module's documentation).
fn abi_mismatch(version: u32) -> String {
    let mut e = format!(
        "it speaks c64kit plugin ABI {version}; this c64kit speaks {}: rebuild it against \
         c64kit-plugin-api {} (ABI {})",
        abi::ABI_VERSION,
        env!("CARGO_PKG_VERSION"),
        abi::ABI_VERSION
    );
    // What changed since the plugin's version (the `abi` module's version history).
    match version {
        1 => e.push_str(
            ", whose displays get frames with the VIC-II's picture, each CHROUT byte's \
             character set and the machine's clock, and which has audio outputs",
        ),
        2 => e.push_str(
            ", which has audio outputs and whose displays get each CHROUT byte's character set \
             and the machine's clock",
        ),
        3 => e.push_str(
            ", whose displays get each CHROUT byte's character set and the machine's clock",
        ),
        4 => e.push_str(
            ", whose displays and audio outputs get the machine's clock (cycles per second \
             and per frame, PAL or NTSC) with each frame and at the end of the run",
        ),
        _ => {}
    }
    e
}

fn need<F>(f: Option<F>, what: &str) -> Result<F, String> {
    f.ok_or_else(|| format!("its function table lacks `{what}`"))
}

impl Plugin {
    /// A plugin linked into this program (its crate's `plugin()`).
    pub fn builtin(header: &'static PluginHeader) -> Result<Plugin, String> {
        // SAFETY: a `&'static PluginHeader` is valid for ever.
        unsafe { Plugin::from_header(header, Origin::BuiltIn) }
    }

    /// Checks a header: magic, ABI version, kind, function table, strings.
    ///
    /// # Safety
    /// `header` must be null or point to memory that stays valid for the rest of the
    /// program (a static of a library that is never unloaded).
    pub unsafe fn from_header(
        header: *const PluginHeader,
        origin: Origin,
    ) -> Result<Plugin, String> {
        if header.is_null() {
            return Err("its entry function returned no header (null)".into());
        }
        // Only the magic and version are read before they are known to match.
        // SAFETY: the caller guarantees the pointer is valid; these two fields have the same
        // place in every version.
        let (magic, version) = unsafe {
            (
                std::ptr::addr_of!((*header).magic).read_unaligned(),
                std::ptr::addr_of!((*header).abi_version).read_unaligned(),
            )
        };
        if magic != abi::MAGIC {
            return Err(
                "its entry function does not return a c64kit plugin header (bad magic)".into(),
            );
        }
        if version != abi::ABI_VERSION {
            return Err(abi_mismatch(version));
        }
        // SAFETY: magic and version match, so the layout is ours.
        let h = unsafe { &*header };
        // SAFETY: strings of a matching header are valid.
        let name = unsafe { header_str(h.name, "name", 64)? };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        {
            return Err(format!(
                "its name {name:?} is not a plugin name (lower-case letters, digits, - and _)"
            ));
        }
        // SAFETY: as above.
        let version = unsafe { header_str(h.version, "version", 64)? };
        let description = unsafe { header_str(h.description, "description", 1024)? };
        let mut live = false;
        let (kind, fns, extensions) = match h.kind {
            abi::KIND_DISPLAY => {
                if h.display.is_null() {
                    return Err("it says it is a display but has no display function table".into());
                }
                // SAFETY: non-null table of a matching header.
                let t: &DisplayVTable = unsafe { &*h.display };
                let fns = DisplayFns {
                    create: need(t.create, "create")?,
                    flags: need(t.flags, "flags")?,
                    next_frame: need(t.next_frame, "next_frame")?,
                    chrout: need(t.chrout, "chrout")?,
                    frame: need(t.frame, "frame")?,
                    poll_input: need(t.poll_input, "poll_input")?,
                    finish: need(t.finish, "finish")?,
                    destroy: need(t.destroy, "destroy")?,
                };
                (Kind::Display, Fns::Display(fns), Vec::new())
            }
            abi::KIND_LOADER => {
                if h.loader.is_null() {
                    return Err("it says it is a loader but has no loader function table".into());
                }
                // SAFETY: non-null table of a matching header.
                let t: &LoaderVTable = unsafe { &*h.loader };
                let fns = LoaderFns {
                    probe: need(t.probe, "probe")?,
                    load: need(t.load, "load")?,
                    directory: need(t.directory, "directory")?,
                };
                // SAFETY: as above.
                let ext = unsafe { header_str(t.extensions, "extension list", 1024)? };
                let extensions = ext
                    .split(',')
                    .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
                    .filter(|e| !e.is_empty())
                    .collect();
                (Kind::Loader, Fns::Loader(fns), extensions)
            }
            abi::KIND_AUDIO => {
                if h.audio.is_null() {
                    return Err(
                        "it says it is an audio output but has no audio function table".into(),
                    );
                }
                // SAFETY: non-null table of a matching header.
                let t: &AudioVTable = unsafe { &*h.audio };
                let fns = AudioFns {
                    create: need(t.create, "create")?,
                    sample_rate: need(t.sample_rate, "sample_rate")?,
                    samples: need(t.samples, "samples")?,
                    finish: need(t.finish, "finish")?,
                    destroy: need(t.destroy, "destroy")?,
                };
                live = t.live != 0;
                (Kind::Audio, Fns::Audio(fns), Vec::new())
            }
            other => {
                return Err(format!(
                    "its kind {other} is none of display (1), loader (2) and audio (3)"
                ))
            }
        };
        Ok(Plugin {
            kind,
            name,
            version,
            description,
            origin,
            extensions,
            live,
            fns,
        })
    }

    /// "display plugin png (built-in)" — how errors name a plugin.
    pub fn label(&self) -> String {
        format!("{} plugin {} ({})", self.kind, self.name, self.origin)
    }

    fn not_a(&self, wanted: Kind) -> CallError {
        CallError {
            message: format!(
                "{} is {}, not {}",
                self.label(),
                self.kind.noun(),
                wanted.noun()
            ),
            panicked: false,
        }
    }

    fn display_fns(&self) -> Result<DisplayFns, CallError> {
        match self.fns {
            Fns::Display(f) => Ok(f),
            _ => Err(self.not_a(Kind::Display)),
        }
    }

    fn loader_fns(&self) -> Result<LoaderFns, CallError> {
        match self.fns {
            Fns::Loader(f) => Ok(f),
            _ => Err(self.not_a(Kind::Loader)),
        }
    }

    fn audio_fns(&self) -> Result<AudioFns, CallError> {
        match self.fns {
            Fns::Audio(f) => Ok(f),
            _ => Err(self.not_a(Kind::Audio)),
        }
    }

    /// Creates an audio output instance.
    pub fn open_audio(
        &self,
        options: &[(String, String)],
        sink: &mut dyn HostSink,
    ) -> Result<AudioInstance, CallError> {
        let fns = self.audio_fns()?;
        let inst = create_instance(fns.create, options, sink)?;
        // SAFETY: a live instance from create.
        let sample_rate = unsafe { (fns.sample_rate)(inst) };
        Ok(AudioInstance {
            fns,
            inst,
            sample_rate,
            live: self.live,
            health: Health::default(),
        })
    }

    /// Creates a display instance.
    pub fn open_display(
        &self,
        options: &[(String, String)],
        sink: &mut dyn HostSink,
    ) -> Result<DisplayInstance, CallError> {
        let fns = self.display_fns()?;
        let inst = create_instance(fns.create, options, sink)?;
        // SAFETY: a live instance from create.
        let (flags, next_frame) = unsafe { ((fns.flags)(inst), (fns.next_frame)(inst)) };
        Ok(DisplayInstance {
            fns,
            inst,
            flags,
            next_frame,
            health: Health::default(),
        })
    }

    /// How sure the loader is that it reads this file (0 no, 1 maybe, 2 yes).
    pub fn probe(&self, path: &str, bytes: &[u8]) -> Result<u32, CallError> {
        let fns = self.loader_fns()?;
        let mut score = 0u32;
        let mut sink = Collect::default();
        call(&mut sink, |host| {
            // SAFETY: valid slices, host and out pointer for the call.
            unsafe {
                (fns.probe)(
                    RSlice::new(path.as_bytes()),
                    RSlice::new(bytes),
                    host,
                    &mut score,
                )
            }
        })?;
        Ok(score.min(2))
    }

    /// Loads a program from a file's bytes.
    pub fn load(
        &self,
        path: &str,
        bytes: &[u8],
        options: &[(String, String)],
        sink: &mut dyn HostSink,
    ) -> Result<Program, CallError> {
        let fns = self.loader_fns()?;
        let kv = key_values(options);
        let list = OptionList {
            items: kv.as_ptr(),
            len: kv.len(),
        };
        let mut parts = Parts::default();
        call_with(sink, Some(&mut parts), |host| {
            // SAFETY: valid slices, options and host for the call.
            unsafe { (fns.load)(RSlice::new(path.as_bytes()), RSlice::new(bytes), list, host) }
        })?;
        let start = parts.start.ok_or_else(|| CallError {
            message: "the loader returned no start (neither RUN nor an address)".into(),
            panicked: false,
        })?;
        if parts.segments.is_empty() {
            return Err(CallError {
                message: "the loader returned no bytes to load".into(),
                panicked: false,
            });
        }
        Ok(Program {
            segments: parts.segments,
            start,
            description: parts.description.unwrap_or_default(),
        })
    }

    /// A directory listing of an image, or `None` if the loader has none.
    pub fn directory(&self, path: &str, bytes: &[u8]) -> Result<Option<String>, CallError> {
        let fns = self.loader_fns()?;
        let mut sink = Collect::default();
        let status = raw_call(&mut sink, None, |host| {
            // SAFETY: valid slices and host for the call.
            unsafe { (fns.directory)(RSlice::new(path.as_bytes()), RSlice::new(bytes), host) }
        });
        match status {
            (STATUS_UNSUPPORTED, _) => Ok(None),
            (STATUS_OK, _) => Ok(Some(String::from_utf8_lossy(&sink.stdout).into_owned())),
            (s, e) => Err(call_error(s, e)),
        }
    }
}

fn key_values(options: &[(String, String)]) -> Vec<KeyValue> {
    options
        .iter()
        .map(|(k, v)| KeyValue {
            key: RSlice::new(k.as_bytes()),
            value: RSlice::new(v.as_bytes()),
        })
        .collect()
}

/// A live display instance; destroyed when dropped.
pub struct DisplayInstance {
    fns: DisplayFns,
    inst: *mut c_void,
    /// `FLAG_*` bits it asked for.
    pub flags: u32,
    /// The first cycle at or after which it wants its next frame (see
    /// [`abi::DisplayVTable::next_frame`]); refreshed after each `frame` call.
    pub next_frame: u64,
    /// Whether a call panicked.
    health: Health,
}

/// How the run ended, for an output's `finish` (the reason borrowed from `end`, which
/// must outlive the call).
fn run_end(end: &RunEndInfo) -> RunEnd {
    RunEnd {
        reason: RSlice::new(end.reason.as_bytes()),
        exit_code: end.exit_code,
        cycles: end.cycles,
        pc: end.pc,
        clock: end.clock,
    }
}

/// Whether an instance's plugin panicked in a call: then no further calls but destroy.
#[derive(Default)]
struct Health {
    dead: bool,
}

impl Health {
    /// Passes a call's result on, remembering a panic.
    fn check(&mut self, r: Result<(), CallError>) -> Result<(), CallError> {
        if r.as_ref().is_err_and(|e| e.panicked) {
            self.dead = true;
        }
        r
    }

    /// An error if the plugin panicked earlier.
    fn alive(&self) -> Result<(), CallError> {
        if self.dead {
            Err(CallError {
                message: "the plugin panicked earlier in this run".into(),
                panicked: true,
            })
        } else {
            Ok(())
        }
    }
}

impl DisplayInstance {
    /// CHROUT bytes printed in the upper-case/graphics set (the power-on set).
    pub fn chrout(&mut self, bytes: &[u8], sink: &mut dyn HostSink) -> Result<(), CallError> {
        // No sets given: `chrout_in_sets` pads them with the upper-case set.
        self.chrout_in_sets(bytes, &[], sink)
    }

    /// CHROUT bytes and the character set each was printed in ([`abi::CHARSET_UPPER`] or
    /// [`abi::CHARSET_LOWER`]); `sets` is as long as `bytes` (cut or padded with the
    /// upper-case set if not, so a plugin can rely on it).
    pub fn chrout_in_sets(
        &mut self,
        bytes: &[u8],
        sets: &[u8],
        sink: &mut dyn HostSink,
    ) -> Result<(), CallError> {
        self.health.alive()?;
        let padded;
        let sets = if sets.len() == bytes.len() {
            sets
        } else {
            padded = (0..bytes.len())
                .map(|i| sets.get(i).copied().unwrap_or(abi::CHARSET_UPPER))
                .collect::<Vec<u8>>();
            &padded
        };
        let (f, inst) = (self.fns.chrout, self.inst);
        let r = call(sink, |host| {
            // SAFETY: live instance, valid slices and host.
            unsafe { f(inst, RSlice::new(bytes), RSlice::new(sets), host) }
        });
        self.health.check(r)
    }

    /// Whether it wants a frame at `cycles`: every frame, or the one it asked for.
    pub fn wants_frame(&self, cycles: u64) -> bool {
        self.flags & abi::FLAG_FRAMES != 0 || cycles >= self.next_frame
    }

    pub fn frame(&mut self, frame: &FrameView, sink: &mut dyn HostSink) -> Result<(), CallError> {
        self.health.alive()?;
        let (f, inst) = (self.fns.frame, self.inst);
        let raw = frame.to_raw();
        let r = call(sink, |host| {
            // SAFETY: live instance, valid frame (borrowed from `frame`) and host.
            unsafe { f(inst, &raw, host) }
        });
        let r = self.health.check(r);
        if !self.health.dead {
            // SAFETY: live instance.
            self.next_frame = unsafe { (self.fns.next_frame)(self.inst) };
        }
        r
    }

    pub fn poll_input(&mut self, sink: &mut dyn HostSink) -> Result<(), CallError> {
        self.health.alive()?;
        let (f, inst) = (self.fns.poll_input, self.inst);
        let r = call(sink, |host| {
            // SAFETY: live instance and host.
            unsafe { f(inst, host) }
        });
        self.health.check(r)
    }

    /// The end of the run (with the machine's clock) and the final frame.
    pub fn finish(
        &mut self,
        end: &RunEndInfo,
        frame: &FrameView,
        sink: &mut dyn HostSink,
    ) -> Result<(), CallError> {
        self.health.alive()?;
        let end = run_end(end);
        let (f, inst) = (self.fns.finish, self.inst);
        let raw = frame.to_raw();
        let r = call(sink, |host| {
            // SAFETY: live instance, valid end, frame and host.
            unsafe { f(inst, &end, &raw, host) }
        });
        self.health.check(r)
    }
}

impl Drop for DisplayInstance {
    fn drop(&mut self) {
        // SAFETY: created by this plugin's create, destroyed exactly once.
        unsafe { (self.fns.destroy)(self.inst) };
    }
}

/// A live audio output instance; destroyed when dropped.
pub struct AudioInstance {
    fns: AudioFns,
    inst: *mut c_void,
    /// The samples per second it takes.
    pub sample_rate: u32,
    /// It plays the sound as it comes: the run is paced to real time.
    pub live: bool,
    /// Whether a call panicked.
    health: Health,
}

impl AudioInstance {
    /// The next block of sound.
    pub fn samples(
        &mut self,
        block: &SoundBlock,
        sink: &mut dyn HostSink,
    ) -> Result<(), CallError> {
        self.health.alive()?;
        let (f, inst) = (self.fns.samples, self.inst);
        let raw = block.to_raw();
        let r = call(sink, |host| {
            // SAFETY: live instance, valid block (borrowed from `block`) and host.
            unsafe { f(inst, &raw, host) }
        });
        self.health.check(r)
    }

    /// The end of the run (with the machine's clock), after the last block.
    pub fn finish(&mut self, end: &RunEndInfo, sink: &mut dyn HostSink) -> Result<(), CallError> {
        self.health.alive()?;
        let end = run_end(end);
        let (f, inst) = (self.fns.finish, self.inst);
        let r = call(sink, |host| {
            // SAFETY: live instance, valid end and host.
            unsafe { f(inst, &end, host) }
        });
        self.health.check(r)
    }
}

impl Drop for AudioInstance {
    fn drop(&mut self) {
        // SAFETY: created by this plugin's create, destroyed exactly once.
        unsafe { (self.fns.destroy)(self.inst) };
    }
}

#[derive(Default)]
struct Parts {
    segments: Vec<Segment>,
    start: Option<Start>,
    description: Option<String>,
}

/// What the callbacks reach through `Host::ctx`.
struct Ctx<'a> {
    sink: &'a mut dyn HostSink,
    error: Option<String>,
    parts: Option<&'a mut Parts>,
}

fn with_ctx(ctx: *mut c_void, f: impl FnOnce(&mut Ctx<'_>)) {
    // A callback must not unwind into the plugin; a panicking sink loses its message.
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `ctx` is the `Ctx` of the call in progress (see `raw_call`).
        f(unsafe { &mut *ctx.cast::<Ctx<'_>>() })
    }));
}

extern "C" fn cb_write_stdout(ctx: *mut c_void, bytes: RSlice) {
    // SAFETY: the plugin passes a slice valid for the callback.
    with_ctx(ctx, |c| c.sink.stdout(unsafe { bytes.as_bytes() }));
}

extern "C" fn cb_note(ctx: *mut c_void, text: RSlice) {
    // SAFETY: as above.
    with_ctx(ctx, |c| c.sink.note(&unsafe { text.to_string_lossy() }));
}

extern "C" fn cb_error(ctx: *mut c_void, text: RSlice) {
    // SAFETY: as above.
    with_ctx(ctx, |c| c.error = Some(unsafe { text.to_string_lossy() }));
}

extern "C" fn cb_push_key(ctx: *mut c_void, petscii: u8) {
    with_ctx(ctx, |c| c.sink.key(petscii));
}

extern "C" fn cb_quit(ctx: *mut c_void) {
    with_ctx(ctx, |c| c.sink.quit());
}

extern "C" fn cb_segment(ctx: *mut c_void, address: u16, bytes: RSlice) {
    with_ctx(ctx, |c| {
        if let Some(p) = c.parts.as_mut() {
            p.segments.push(Segment {
                address,
                // SAFETY: as above.
                bytes: unsafe { bytes.as_bytes() }.to_vec(),
            });
        }
    });
}

extern "C" fn cb_start(ctx: *mut c_void, how: u32, address: u16) {
    with_ctx(ctx, |c| {
        if let Some(p) = c.parts.as_mut() {
            p.start = match how {
                START_RUN => Some(Start::Run),
                START_AT => Some(Start::At(address)),
                _ => None,
            };
        }
    });
}

extern "C" fn cb_describe(ctx: *mut c_void, text: RSlice) {
    with_ctx(ctx, |c| {
        if let Some(p) = c.parts.as_mut() {
            // SAFETY: as above.
            p.description = Some(unsafe { text.to_string_lossy() });
        }
    });
}

/// Calls into a plugin with a host table whose callbacks reach `sink` (and `parts`);
/// returns the status and the error message the plugin gave.
fn raw_call(
    sink: &mut dyn HostSink,
    parts: Option<&mut Parts>,
    f: impl FnOnce(*const Host) -> u32,
) -> (u32, Option<String>) {
    let mut ctx = Ctx {
        sink,
        error: None,
        parts,
    };
    let host = Host {
        ctx: std::ptr::addr_of_mut!(ctx).cast::<c_void>(),
        write_stdout: cb_write_stdout,
        note: cb_note,
        error: cb_error,
        push_key: cb_push_key,
        quit: cb_quit,
        segment: cb_segment,
        start: cb_start,
        describe: cb_describe,
    };
    let status = f(&host);
    (status, ctx.error)
}

fn call_error(status: u32, message: Option<String>) -> CallError {
    let panicked = status == STATUS_PANIC;
    let message = message.unwrap_or_else(|| {
        if panicked {
            "panicked".to_string()
        } else {
            format!("failed (status {status}) without saying why")
        }
    });
    CallError { message, panicked }
}

fn call_with(
    sink: &mut dyn HostSink,
    parts: Option<&mut Parts>,
    f: impl FnOnce(*const Host) -> u32,
) -> Result<(), CallError> {
    match raw_call(sink, parts, f) {
        (STATUS_OK, _) => Ok(()),
        (s, e) => Err(call_error(s, e)),
    }
}

fn call(sink: &mut dyn HostSink, f: impl FnOnce(*const Host) -> u32) -> Result<(), CallError> {
    call_with(sink, None, f)
}

/// The largest plugin library c64kit reads: a release build of a plugin is well under a
/// MiB; one with full debug information stays far below this.
pub const MAX_LIBRARY_SIZE: u64 = 256 * c64kit_files::MIB;

/// Opens a plugin library and checks every plugin in it. Errors name the file and say what
/// is wrong: not a library, no plugin entry, wrong ABI version, incomplete function table.
///
/// Libraries are never unloaded (Rust libraries may leave thread-local destructors behind,
/// which would crash after an unload); plugins therefore live until the program ends.
pub fn load_library(path: &Path) -> Result<Vec<Plugin>, String> {
    let shown = path.display();
    let data = c64kit_files::read(path, MAX_LIBRARY_SIZE, "a plugin library")
        .map_err(|e| e.to_string())?;
    let entries = entry_symbols(&data).map_err(|e| format!("{shown}: {e}"))?;
    if entries.is_empty() {
        return Err(format!(
            "{shown}: not a c64kit plugin: the library exports no `{}…` function",
            abi::ENTRY_PREFIX
        ));
    }
    // SAFETY: opening a library runs its initialisers; the user chose to load this file.
    let lib = unsafe { libloading::Library::new(path) }
        .map_err(|e| format!("{shown}: cannot open the library: {e}"))?;
    let lib: &'static libloading::Library = Box::leak(Box::new(lib));
    let mut plugins = Vec::new();
    for name in entries {
        // SAFETY: the symbol is a plugin entry by name; its type is the ABI's EntryFn.
        let entry: libloading::Symbol<'static, EntryFn> = unsafe { lib.get(name.as_bytes()) }
            .map_err(|e| format!("{shown}: lacks the symbol `{name}`: {e}"))?;
        // SAFETY: calling the entry function as the ABI defines it.
        let header = unsafe { entry() };
        // SAFETY: the library is never unloaded, so its statics stay valid.
        let plugin = unsafe { Plugin::from_header(header, Origin::Library(path.to_path_buf())) }
            .map_err(|e| format!("{shown}: `{name}`: {e}"))?;
        plugins.push(plugin);
    }
    Ok(plugins)
}

/// The names of the exported plugin entry functions, read from the file's export table.
fn entry_symbols(data: &[u8]) -> Result<Vec<String>, String> {
    use object::{Object, ObjectKind};
    let file = object::File::parse(data).map_err(|e| format!("not a shared library ({e})"))?;
    if !matches!(file.kind(), ObjectKind::Dynamic | ObjectKind::Executable) {
        return Err(format!(
            "not a shared library (it is an object file of kind {:?})",
            file.kind()
        ));
    }
    let exports = file
        .exports()
        .map_err(|e| format!("cannot read the library's exports: {e}"))?;
    let mut names: Vec<String> = exports
        .filter_map(|e| e.ok())
        .filter_map(|e| match e.name() {
            object::read::NameOrOrdinal::Name(n) => String::from_utf8(n.to_vec()).ok(),
            object::read::NameOrOrdinal::Ordinal(_) => None,
        })
        .map(|n| {
            // Mach-O prefixes C symbols with an underscore that dlsym does not want.
            match n.strip_prefix('_') {
                Some(rest) if cfg!(target_vendor = "apple") => rest.to_string(),
                _ => n,
            }
        })
        .filter(|n| n.starts_with(abi::ENTRY_PREFIX))
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// Calls a display's or audio output's `create` with `options`: the new instance, or the
/// error the plugin reported (also when it claimed success but returned none).
fn create_instance(
    create: CreateFn,
    options: &[(String, String)],
    sink: &mut dyn HostSink,
) -> Result<*mut c_void, CallError> {
    let kv = key_values(options);
    let list = OptionList {
        items: kv.as_ptr(),
        len: kv.len(),
    };
    let mut inst: *mut c_void = std::ptr::null_mut();
    call(sink, |host| {
        // SAFETY: valid options, host and out pointer for the call.
        unsafe { create(list, host, &mut inst) }
    })?;
    if inst.is_null() {
        return Err(CallError {
            message: "create succeeded but returned no instance".into(),
            panicked: false,
        });
    }
    Ok(inst)
}
