//! The GIF display: records the run's frames as an animated GIF (`c64kit run --record
//! FILE.gif`). Every pixel keeps its exact colour: the GIF's one palette is the 16 colours
//! the host hands over (Pepto's unless `--palette chip`), so its LZW codes start at 4 bits. The machine draws every frame while it
//! records (about 30 times slower than a plain run).
//!
//! Each kept frame shows for as long as it did on the machine, by the clock the host hands
//! over (a frame is 1/50.125 s on PAL, 1/59.826 s on an NTSC 6567R8): until the next kept
//! frame (`every` frames when only every Nth is kept; one for the run's last picture). GIF
//! delays are whole hundredths of a second, so frames start at their time rounded from the
//! recording's start: the remainder is carried from frame to frame and the whole lasts as
//! long as the run did, within 1/200 s, however long. No frame shows for less than 2/100 s
//! (browsers play shorter ones at 1/10 s): a frame may start 1/100 s late to leave the one
//! before that long (the last one 1/100 s early, to have that long), or else replaces it, so a picture that changes every frame plays at 50
//! frames a second (see `GifDisplay::keep`). A frame identical to the one before only makes
//! that one show longer, and a frame that differs is written as the rectangle that changed,
//! over the previous one; so a still screen costs nothing and the file stays small. The
//! recording is written beside its final name and put in place at the end of the run (a
//! reader never sees half a file; a failed run leaves nothing).
//!
//! Options: `output` (file; default the program's name with .gif, else screen.gif), `every`
//! (keep every Nth frame, default 1), `max_frames` (frames written at most, default 30,000:
//! ten minutes of changing frames; the recording stops there and says so).

use c64kit_files::OutputFile;
use c64kit_plugin_api::abi::{FLAG_FRAMES, FLAG_PIXELS};
use c64kit_plugin_api::palette::Palette;
use c64kit_plugin_api::{
    Clock, DisplayBackend, FrameView, HostRef, Options, Picture, PictureKind, RunEndInfo,
};
use std::borrow::Cow;
use std::io::BufWriter;
use std::path::PathBuf;

/// GIF delays are in hundredths of a second.
const DELAYS_PER_SECOND: u64 = 100;

/// The shortest delay written: browsers show a frame of 0 or 1 hundredths for a tenth of a
/// second (Chrome, Firefox and Safari alike).
const MIN_DELAY: u64 = 2;

/// How far (in hundredths) a frame's start may move from its time so that it and the one
/// before it both show for [`MIN_DELAY`]; a frame that would have to move further replaces
/// the one before instead.
const MAX_SHIFT: u64 = 1;

type Writer = gif::Encoder<BufWriter<OutputFile>>;

/// A frame whose time on screen is not known yet (the frames after it may be the same).
struct Pending {
    pixels: Vec<u8>,
    /// The hundredth of a second it starts at in the GIF (since its first frame).
    start: u64,
    /// It shows until this cycle (so far), counted from the first frame kept; its time in
    /// hundredths is always after `start`.
    to: u64,
    /// The machine's clock, which turns cycles into hundredths.
    clock: Clock,
}

impl Pending {
    /// `cycles` since the first frame kept as a GIF time: rounded from the recording's
    /// start, so delays taken as differences of such times add up to the time they cover and
    /// rounding never accumulates.
    fn at(&self, cycles: u64) -> u64 {
        self.clock.ticks(cycles, DELAYS_PER_SECOND)
    }
}

pub struct GifDisplay {
    output: PathBuf,
    every: u64,
    max_frames: u64,
    /// The file, open from `create` (so a folder that is not there fails before the run),
    /// until the first frame's size starts the GIF in it.
    file: Option<BufWriter<OutputFile>>,
    /// The GIF from the first frame kept, taken at the end.
    writer: Option<Writer>,
    /// The pictures' size: the first frame's (384x272 on a PAL C64, 384x247 on NTSC).
    size: (usize, usize),
    /// Frames handed over (for `every`), frames kept, frames written.
    seen: u64,
    kept: u64,
    written: u64,
    pending: Option<Pending>,
    /// The frame the viewer shows after the frames written so far.
    shown: Vec<u8>,
    /// `max_frames` was reached: no more frames are kept.
    full: bool,
    /// The cycle of the last frame kept.
    last_cycles: u64,
    /// The cycle of the first frame kept: the recording's time 0.
    origin: Option<u64>,
    /// The recording's time of the last frame handed over, in cycles since `origin`.
    last_time: u64,
}

impl GifDisplay {
    fn error(&self, e: impl std::fmt::Display) -> String {
        format!("cannot write {}: {e}", self.output.display())
    }

    fn encoding_error(&self, e: gif::EncodingError) -> String {
        match e {
            gif::EncodingError::Io(e) => self.error(c64kit_files::io_reason(&e)),
            other => self.error(other),
        }
    }

    /// Starts the GIF in the file, its pictures `width` x `height`.
    fn start(&mut self, width: usize, height: usize, palette: &Palette) -> Result<(), String> {
        let Some(file) = self.file.take() else {
            return Ok(());
        };
        let (w, h) = (
            u16::try_from(width).map_err(|e| self.error(e))?,
            u16::try_from(height).map_err(|e| self.error(e))?,
        );
        let palette: Vec<u8> = palette.iter().flatten().copied().collect();
        let mut writer =
            gif::Encoder::new(file, w, h, &palette).map_err(|e| self.encoding_error(e))?;
        writer
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| self.encoding_error(e))?;
        self.writer = Some(writer);
        self.size = (width, height);
        Ok(())
    }

    /// The recording's time (in cycles since its first frame) of a picture: never before
    /// the last one's (cycles only grow; a picture that said otherwise gets no time of its
    /// own).
    fn time_of(&mut self, picture: &Picture) -> u64 {
        let origin = *self.origin.get_or_insert(picture.cycles);
        let at = picture.cycles.saturating_sub(origin).max(self.last_time);
        self.last_time = at;
        at
    }

    /// Past `max_frames`: the frame shown last shows on for `lasts` cycles from `picture`.
    fn lengthen(&mut self, picture: &Picture, lasts: u64) {
        let at = self.time_of(picture);
        if let Some(p) = &mut self.pending {
            p.to = p.to.max(at.saturating_add(lasts));
        }
    }

    /// Keeps a frame, which shows for `lasts` cycles unless a different one follows sooner
    /// (`last`: none will): the pending one shows longer if they are the same, else it is
    /// written and this one waits.
    ///
    /// The new frame starts where the machine showed it, rounded to a hundredth. Where that
    /// would leave the pending one less than [`MIN_DELAY`], the new one starts up to
    /// [`MAX_SHIFT`] later (keeping at least a hundredth of its own); where the new one is the
    /// last and would show for less, it starts up to that much earlier; and where neither
    /// helps it replaces the pending one, which is never shown. So no frame is shorter than
    /// browsers play, time is carried on and never lost, and a picture that changes every
    /// frame is shown at the 50 frames a second a GIF can hold: a PAL recording (50.125 a
    /// second) drops one frame in 400, an NTSC one (59.826) about one in six.
    fn keep(
        &mut self,
        picture: &Picture,
        lasts: u64,
        last: bool,
        clock: Clock,
        palette: &Palette,
        host: &HostRef,
    ) -> Result<(), String> {
        if self.kept == 0 {
            self.start(picture.width, picture.height, palette)?;
        }
        self.kept += 1;
        self.last_cycles = picture.cycles;
        let from = self.time_of(picture);
        let to = from.saturating_add(lasts);
        if let Some(p) = &mut self.pending {
            if p.pixels == picture.pixels {
                p.to = p.to.max(to);
                return Ok(());
            }
        }
        if self.written + u64::from(self.pending.is_some()) >= self.max_frames {
            self.full = true;
            host.note(&format!(
                "{}: stopped recording at {} frames (max_frames) at cycle {}",
                self.output.display(),
                self.max_frames,
                picture.cycles
            ));
            return Ok(());
        }
        if (picture.width, picture.height) != self.size {
            return Err(self.error(format!(
                "the picture is {}x{}, the recording {}x{}",
                picture.width, picture.height, self.size.0, self.size.1
            )));
        }
        let mut start = clock.ticks(from, DELAYS_PER_SECOND);
        if let Some(p) = &mut self.pending {
            // The starts that leave the pending frame and this one long enough.
            let earliest = p.start + MIN_DELAY;
            let own = if last { MIN_DELAY } else { 1 };
            let latest = p.at(to).saturating_sub(own);
            let moved = start.clamp(earliest.min(latest), latest);
            if earliest <= latest && moved.abs_diff(start) <= MAX_SHIFT {
                start = moved;
            } else {
                // Too short to show: this frame takes its place and its time.
                p.pixels.clear();
                p.pixels.extend_from_slice(picture.pixels);
                p.to = p.to.max(to);
                return Ok(());
            }
        }
        self.flush(start)?;
        self.pending = Some(Pending {
            pixels: picture.pixels.to_vec(),
            start,
            to,
            clock,
        });
        Ok(())
    }

    /// Writes the pending frame, which shows until `end` (a GIF time in hundredths): the
    /// rectangle that differs from what is shown, in pieces of at most 655.35 s (the most one
    /// GIF frame can show).
    fn flush(&mut self, end: u64) -> Result<(), String> {
        let Some(p) = self.pending.take() else {
            return Ok(());
        };
        let (w, h) = self.size;
        // (At least a hundredth, which `keep` leaves every frame.)
        let mut delay = end.saturating_sub(p.start).max(1);
        let mut rect = changed(&self.shown, &p.pixels, w, h);
        while delay > 0 {
            let this = delay.min(u64::from(u16::MAX));
            delay -= this;
            // Nothing changed (the same frame again): one unchanged pixel carries the time.
            let (x, y, rw, rh) = rect.unwrap_or((0, 0, 1, 1));
            let buffer: Vec<u8> = (y..y + rh)
                .flat_map(|row| p.pixels[row * w + x..row * w + x + rw].iter().copied())
                .collect();
            let frame = gif::Frame {
                left: x as u16,
                top: y as u16,
                width: rw as u16,
                height: rh as u16,
                delay: this as u16,
                dispose: gif::DisposalMethod::Keep,
                buffer: Cow::Owned(buffer),
                ..gif::Frame::default()
            };
            let written = match self.writer.as_mut() {
                Some(writer) => writer.write_frame(&frame),
                None => return Err(self.error("the recording was already finished")),
            };
            written.map_err(|e| self.encoding_error(e))?;
            self.written += 1;
            rect = None;
        }
        self.shown = p.pixels;
        Ok(())
    }
}

/// The smallest rectangle (x, y, width, height) holding every pixel where `a` and `b`
/// differ; all of `b` if `a` is not a whole picture; None if they are the same.
fn changed(a: &[u8], b: &[u8], w: usize, h: usize) -> Option<(usize, usize, usize, usize)> {
    if a.len() != b.len() {
        return Some((0, 0, w, h));
    }
    let rows: Vec<usize> = (0..h)
        .filter(|&y| a[y * w..(y + 1) * w] != b[y * w..(y + 1) * w])
        .collect();
    let (&top, &bottom) = (rows.first()?, rows.last()?);
    let differs = |x: usize| (top..=bottom).any(|y| a[y * w + x] != b[y * w + x]);
    let left = (0..w).find(|&x| differs(x))?;
    let right = (0..w).rev().find(|&x| differs(x))?;
    Some((left, top, right - left + 1, bottom - top + 1))
}

impl DisplayBackend for GifDisplay {
    fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
        options.check_known(&["output", "every", "max_frames"])?;
        let every = options.number("every")?.unwrap_or(1);
        if every == 0 {
            return Err("option every: 0 keeps no frame (1 keeps every frame)".into());
        }
        let max_frames = options.number("max_frames")?.unwrap_or(30_000);
        if max_frames == 0 {
            return Err("option max_frames: 0 records nothing".into());
        }
        let output = options.output_path("gif");
        let file = OutputFile::create(&output).map_err(|e| {
            format!(
                "cannot write {}: {}",
                output.display(),
                c64kit_files::io_reason(&e)
            )
        })?;
        Ok(GifDisplay {
            output,
            every,
            max_frames,
            file: Some(BufWriter::new(file)),
            writer: None,
            size: (
                c64kit_plugin_api::abi::PICTURE_WIDTH,
                c64kit_plugin_api::abi::PICTURE_HEIGHT,
            ),
            seen: 0,
            kept: 0,
            written: 0,
            pending: None,
            shown: Vec::new(),
            full: false,
            last_cycles: 0,
            origin: None,
            last_time: 0,
        })
    }

    fn flags(&self) -> u32 {
        FLAG_FRAMES | FLAG_PIXELS
    }

    fn frame(&mut self, frame: &FrameView, host: &HostRef) -> Result<(), String> {
        self.seen += 1;
        if !(self.seen - 1).is_multiple_of(self.every) {
            return Ok(());
        }
        let picture = frame.need_picture()?;
        // A kept frame stands for itself and the `every - 1` frames not kept after it.
        let lasts = self.every.saturating_mul(frame.clock.cycles_per_frame);
        if self.full {
            // Past max_frames only a frame's time is kept.
            self.lengthen(&picture, lasts);
            return Ok(());
        }
        self.keep(&picture, lasts, false, frame.clock, &frame.palette, host)
    }

    fn finish(
        &mut self,
        end: &RunEndInfo,
        frame: &FrameView,
        host: &HostRef,
    ) -> Result<(), String> {
        let picture = frame.need_picture()?;
        // The end's picture, if it is a whole frame newer than the last one kept (or nothing
        // was kept: a run shorter than a frame). A still picture is not a frame of the run.
        let newer = picture.kind == PictureKind::Live && picture.cycles > self.last_cycles;
        if !self.full && (newer || self.kept == 0) {
            self.keep(
                &picture,
                end.clock.cycles_per_frame,
                true,
                end.clock,
                &frame.palette,
                host,
            )?;
        }
        // The last frame shows for the rest of the time it stands for.
        let last_end = self.pending.as_ref().map_or(0, |p| p.at(p.to));
        self.flush(last_end)?;
        // (No frame kept, past max_frames from the start: an empty GIF of the usual size.)
        self.start(self.size.0, self.size.1, &frame.palette)?;
        let Some(writer) = self.writer.take() else {
            return Err(self.error("the recording was already finished"));
        };
        let file = writer
            .into_inner()
            .map_err(|e| self.encoding_error(e))?
            .into_inner()
            .map_err(|e| self.error(c64kit_files::io_reason(e.error())))?;
        file.commit()
            .map_err(|e| self.error(c64kit_files::io_reason(&e)))?;
        host.note(&format!(
            "wrote {} ({} frame{} of {} kept, {}x{}, to cycle {})",
            self.output.display(),
            self.written,
            if self.written == 1 { "" } else { "s" },
            self.kept,
            self.size.0,
            self.size.1,
            end.cycles
        ));
        Ok(())
    }
}

c64kit_plugin_api::export_display!(
    c64kit_plugin_entry_gif,
    GifDisplay,
    "gif",
    "records the run's frames as an animated GIF (exact 16 colours; --record FILE.gif)"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle() {
        let a = vec![0u8; 6 * 4];
        let mut b = a.clone();
        assert_eq!(changed(&a, &b, 6, 4), None);
        b[6 + 2] = 1;
        b[2 * 6 + 4] = 1;
        assert_eq!(changed(&a, &b, 6, 4), Some((2, 1, 3, 2)));
        assert_eq!(changed(&[], &b, 6, 4), Some((0, 0, 6, 4)));
    }

    mod host {
        use c64kit_plugin_api::abi::{Host, RSlice};
        use std::ffi::c_void;

        extern "C" fn text(_: *mut c_void, _: RSlice) {}
        extern "C" fn key(_: *mut c_void, _: u8) {}
        extern "C" fn quit(_: *mut c_void) {}
        extern "C" fn segment(_: *mut c_void, _: u16, _: RSlice) {}
        extern "C" fn start(_: *mut c_void, _: u32, _: u16) {}

        /// A host that ignores everything said to it.
        pub fn deaf() -> Host {
            Host {
                ctx: std::ptr::null_mut(),
                write_stdout: text,
                note: text,
                error: text,
                push_key: key,
                quit,
                segment,
                start,
                describe: text,
            }
        }
    }

    /// A recording of `frames` frames that all differ, on a made-up clock of `hz` cycles a
    /// second and `per_frame` a frame, then the run's end one frame later: the delays.
    fn delays_of(hz: u64, per_frame: u64, frames: u64) -> Vec<u16> {
        let dir = std::env::temp_dir().join(format!(
            "c64kit-gif-{}-{hz}-{per_frame}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.gif");
        let raw = host::deaf();
        // SAFETY: a valid host table for the calls below.
        let host = unsafe { HostRef::from_raw(&raw) };
        let options = Options::new(vec![("output".into(), path.display().to_string())]);
        let mut gif = GifDisplay::create(&options, &host).unwrap();
        let clock = Clock {
            cycles_per_second: hz,
            cycles_per_frame: per_frame,
            video: c64kit_plugin_api::abi::VIDEO_NTSC,
        };
        let screen = c64kit_plugin_api::abi::Screen::blank();
        let mut pixels = vec![0u8; 4];
        for n in 1..=frames + 1 {
            // Each picture differs from the one before.
            pixels[(n % 4) as usize] = (n % 16) as u8;
            pixels[0] = (n % 7) as u8;
            let (px, cycles) = (pixels.clone(), n * per_frame);
            let view = FrameView {
                screen: &screen,
                picture: Some(Picture {
                    pixels: &px,
                    width: 2,
                    height: 2,
                    kind: PictureKind::Live,
                    cycles,
                }),
                clock,
                palette: c64kit_plugin_api::palette::PEPTO,
            };
            if n <= frames {
                gif.frame(&view, &host).unwrap();
            } else {
                let end = RunEndInfo {
                    reason: "done".into(),
                    exit_code: 0,
                    cycles,
                    pc: 0,
                    clock,
                };
                gif.finish(&end, &view, &host).unwrap();
            }
        }
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options
            .read_info(std::fs::File::open(&path).unwrap())
            .unwrap();
        let mut delays = Vec::new();
        while let Some(f) = decoder.read_next_frame().unwrap() {
            delays.push(f.delay);
        }
        std::fs::remove_dir_all(&dir).unwrap();
        delays
    }

    /// However long the recording, its delays add up to the frames' time on the clock
    /// (rounded once, not once a frame), none is under 2/100 s, and at most one frame in six
    /// is left out at 60 frames a second, one in 400 at 50.125.
    #[test]
    fn delays_carry_their_remainder_and_never_drop_under_two_hundredths() {
        let frames = 3000;
        for (per_frame, most_dropped) in [(19_950, frames / 400 + 1), (16_667, frames / 6 + 1)] {
            let hz = 1_000_000;
            let delays = delays_of(hz, per_frame, frames);
            let total: u64 = delays.iter().map(|&d| u64::from(d)).sum();
            // Every frame's time, the last one's too.
            let want = (frames + 1) as f64 * per_frame as f64 * 100.0 / hz as f64;
            assert!(
                (total as f64 - want).abs() <= 0.5,
                "{per_frame}: {total} hundredths for {want}"
            );
            assert!(delays.iter().all(|&d| d >= 2), "{per_frame}: {delays:?}");
            let dropped = frames + 1 - delays.len() as u64;
            assert!(
                dropped <= most_dropped,
                "{per_frame}: {dropped} of {} frames left out",
                frames + 1
            );
        }
    }
}
