//! The host side against plugins defined here: header checks, the call protocol, errors and
//! panics caught at the boundary.

use c64kit_plugin_api::abi::{
    self, AudioBlock, AudioVTable, Clock, DisplayVTable, PluginHeader, RSlice, Screen, FLAG_FRAMES,
    FLAG_PIXELS, KIND_DISPLAY, MAGIC, VIDEO_NTSC,
};
use c64kit_plugin_api::host::{Collect, Kind, Origin, Plugin};
use c64kit_plugin_api::{
    AudioOutput, Confidence, DisplayBackend, FrameView, HostRef, Options, Picture, PictureKind,
    Program, ProgramLoader, RunEndInfo, SoundBlock, Start,
};

/// A made-up clock (the host hands plugins whatever the machine's is).
const CLOCK: Clock = Clock {
    cycles_per_second: 1_000_000,
    cycles_per_frame: 20_000,
    video: VIDEO_NTSC,
};

/// A frame with the text screen only.
fn text_frame(s: &Screen) -> FrameView<'_> {
    FrameView {
        screen: s,
        picture: None,
        clock: CLOCK,
        palette: c64kit_plugin_api::palette::PEPTO,
    }
}

/// The end of a run on [`CLOCK`].
fn end(reason: &str, exit_code: i32, cycles: u64, pc: u16) -> RunEndInfo {
    RunEndInfo {
        reason: reason.into(),
        exit_code,
        cycles,
        pc,
        clock: CLOCK,
    }
}

mod echo {
    use super::*;

    /// Echoes CHROUT bytes in brackets, counts frames, notes the pictures it gets, fails on
    /// request; wants a frame from cycle 1000 on.
    pub struct Echo {
        frames: usize,
        fail_on: Option<String>,
    }

    fn describe(frame: &FrameView) -> String {
        let c = frame.clock;
        let clock = format!(
            "{} Hz, {} a frame, {}: ",
            c.cycles_per_second,
            c.cycles_per_frame,
            c.video_name()
        );
        clock
            + &match &frame.picture {
                None => "no picture".into(),
                Some(p) => format!(
                    "{}x{} {:?} at {}, pixel (1, 0) {}, sum {}",
                    p.width,
                    p.height,
                    p.kind,
                    p.cycles,
                    p.pixel(1, 0),
                    p.pixels.iter().map(|&b| u64::from(b)).sum::<u64>()
                ),
            }
    }

    impl DisplayBackend for Echo {
        fn create(options: &Options, host: &HostRef) -> Result<Self, String> {
            options.check_known(&["fail_on"])?;
            host.note("created");
            Ok(Echo {
                frames: 0,
                fail_on: options.get("fail_on").map(str::to_string),
            })
        }
        fn flags(&self) -> u32 {
            FLAG_FRAMES | FLAG_PIXELS
        }
        fn next_frame(&self) -> u64 {
            1000 + self.frames as u64
        }
        fn chrout(&mut self, bytes: &[u8], host: &HostRef) -> Result<(), String> {
            if self.fail_on.as_deref() == Some("chrout") {
                return Err("cannot echo".into());
            }
            if bytes == b"PANIC" {
                panic!("asked to panic");
            }
            host.write_stdout(b"[");
            host.write_stdout(bytes);
            host.write_stdout(b"]");
            Ok(())
        }
        fn frame(&mut self, frame: &FrameView, host: &HostRef) -> Result<(), String> {
            self.frames += 1;
            host.note(&describe(frame));
            Ok(())
        }
        fn poll_input(&mut self, host: &HostRef) -> Result<(), String> {
            host.push_key(0x41);
            host.quit();
            Ok(())
        }
        fn finish(
            &mut self,
            end: &RunEndInfo,
            f: &FrameView,
            host: &HostRef,
        ) -> Result<(), String> {
            host.note(&format!(
                "{} frames, {} (code {}) at {} ({} s) ${:04X}, border {}, {}",
                self.frames,
                end.reason,
                end.exit_code,
                end.cycles,
                end.clock.seconds(end.cycles),
                end.pc,
                f.screen.border,
                describe(f)
            ));
            Ok(())
        }
    }

    c64kit_plugin_api::export_display!(c64kit_plugin_entry_test_echo, Echo, "echo", "test echo");
}

mod two {
    use super::*;

    pub struct Two;

    impl ProgramLoader for Two {
        const EXTENSIONS: &'static str = "two, .TW";
        fn probe(_path: &str, bytes: &[u8]) -> Confidence {
            if bytes.starts_with(b"TWO") {
                Confidence::Yes
            } else {
                Confidence::No
            }
        }
        fn load(path: &str, bytes: &[u8], _options: &Options) -> Result<Program, String> {
            if bytes.len() < 4 {
                return Err("too short".into());
            }
            Ok(Program {
                segments: vec![
                    c64kit_plugin_api::Segment {
                        address: 0xC000,
                        bytes: bytes[3..].to_vec(),
                    },
                    c64kit_plugin_api::Segment {
                        address: 0x0400,
                        bytes: vec![1, 2],
                    },
                ],
                start: Start::At(0xC000),
                description: format!("two from {path}"),
            })
        }
    }

    c64kit_plugin_api::export_loader!(c64kit_plugin_entry_test_two, Two, "two", "two segments");
}

mod tape {
    use super::*;

    /// Keeps the blocks it hears (their first sample, cycle and samples), says so at the end;
    /// takes the rate its `rate` option gives (default 22,050); fails or panics on request.
    pub struct Tape {
        rate: u32,
        heard: Vec<(u64, u64, Vec<i16>)>,
        fail_on: Option<String>,
    }

    impl AudioOutput for Tape {
        fn create(options: &Options, host: &HostRef) -> Result<Self, String> {
            options.check_known(&["rate", "fail_on"])?;
            host.note("tape created");
            Ok(Tape {
                rate: options.number("rate")?.unwrap_or(22_050) as u32,
                heard: Vec::new(),
                fail_on: options.get("fail_on").map(str::to_string),
            })
        }
        fn sample_rate(&self) -> u32 {
            self.rate
        }
        fn samples(&mut self, block: &SoundBlock, _host: &HostRef) -> Result<(), String> {
            match self.fail_on.as_deref() {
                Some("samples") => return Err("tape is full".into()),
                Some("panic") if !self.heard.is_empty() => panic!("tape jammed"),
                _ => {}
            }
            self.heard.push((
                block.first_sample,
                block.first_cycle,
                block.samples.to_vec(),
            ));
            Ok(())
        }
        fn finish(&mut self, end: &RunEndInfo, host: &HostRef) -> Result<(), String> {
            host.note(&format!(
                "{:?} then {} (code {}) at {} ${:04X} ({} s)",
                self.heard,
                end.reason,
                end.exit_code,
                end.cycles,
                end.pc,
                end.clock.seconds(end.cycles)
            ));
            Ok(())
        }
    }

    c64kit_plugin_api::export_audio!(c64kit_plugin_entry_test_tape, Tape, "tape", "test tape");
}

#[test]
fn an_audio_output_hears_blocks_in_order_and_the_end() {
    let p = Plugin::builtin(tape::plugin()).unwrap();
    assert_eq!(
        (p.kind, p.name.as_str(), p.live),
        (Kind::Audio, "tape", false)
    );
    let mut sink = Collect::default();
    let mut a = p
        .open_audio(&[("rate".into(), "48000".into())], &mut sink)
        .unwrap();
    assert_eq!((a.sample_rate, a.live), (48_000, false));
    let first = [1i16, -2, 3];
    a.samples(
        &SoundBlock {
            samples: &first,
            first_sample: 0,
            first_cycle: 100,
        },
        &mut sink,
    )
    .unwrap();
    // An empty block is a block too (a frame that made no whole sample).
    a.samples(
        &SoundBlock {
            samples: &[],
            first_sample: 3,
            first_cycle: 161,
        },
        &mut sink,
    )
    .unwrap();
    a.finish(&end("returned to BASIC", 0, 1234, 0xE147), &mut sink)
        .unwrap();
    assert_eq!(
        sink.notes,
        [
            "tape created",
            "[(0, 100, [1, -2, 3]), (3, 161, [])] then returned to BASIC (code 0) at 1234 $E147 \
             (0.001234 s)"
        ]
    );
    // The kinds do not mix.
    let e = p.open_display(&[], &mut sink).err().unwrap();
    assert!(
        e.message
            .ends_with("audio plugin tape (built-in) is an audio output, not a display"),
        "{e}"
    );
    let echo = Plugin::builtin(echo::plugin()).unwrap();
    let e = echo.open_audio(&[], &mut sink).err().unwrap();
    assert!(
        e.message.ends_with("is a display, not an audio output"),
        "{e}"
    );
}

#[test]
fn audio_errors_and_panics_come_back_as_call_errors() {
    let p = Plugin::builtin(tape::plugin()).unwrap();
    let mut sink = Collect::default();
    let e = p
        .open_audio(&[("volume".into(), "11".into())], &mut sink)
        .err()
        .unwrap();
    assert_eq!(
        (e.message.as_str(), e.panicked),
        (
            "unknown option \"volume\" (known options: rate, fail_on)",
            false
        )
    );
    let block = SoundBlock {
        samples: &[0; 4],
        first_sample: 0,
        first_cycle: 0,
    };
    let mut a = p
        .open_audio(&[("fail_on".into(), "samples".into())], &mut sink)
        .unwrap();
    let e = a.samples(&block, &mut sink).unwrap_err();
    assert_eq!((e.message.as_str(), e.panicked), ("tape is full", false));
    let mut a = p
        .open_audio(&[("fail_on".into(), "panic".into())], &mut sink)
        .unwrap();
    a.samples(&block, &mut sink).unwrap();
    let e = a.samples(&block, &mut sink).unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.panicked),
        ("panicked: tape jammed", true)
    );
    // A plugin that panicked is not called again (but is destroyed when dropped).
    let e = a.finish(&end("x", 0, 0, 0), &mut sink).unwrap_err();
    assert!(
        e.panicked && e.message.contains("panicked earlier"),
        "{e:?}"
    );
}

#[test]
fn a_block_of_sound_crosses_the_boundary_checked() {
    let samples = [7i16, 8, 9];
    let block = SoundBlock {
        samples: &samples,
        first_sample: 5,
        first_cycle: 99,
    };
    let raw = block.to_raw();
    // SAFETY: `raw` borrows `samples`, alive here.
    assert_eq!(unsafe { SoundBlock::from_raw(&raw) }.unwrap(), block);
    let empty = SoundBlock {
        samples: &[],
        ..block
    }
    .to_raw();
    assert!(empty.samples.is_null());
    // SAFETY: null with length 0 is allowed.
    assert_eq!(
        unsafe { SoundBlock::from_raw(&empty) }.unwrap().samples,
        &[]
    );
    // A misaligned pointer is refused, not read.
    let words = [0u16; 4];
    let odd = AudioBlock {
        // One byte into an aligned array: odd, whatever the array's address.
        samples: words.as_ptr().cast::<u8>().wrapping_add(1).cast::<i16>(),
        len: 2,
        first_sample: 0,
        first_cycle: 0,
    };
    // SAFETY: the pointer is refused before it is read.
    let e = unsafe { SoundBlock::from_raw(&odd) }.unwrap_err();
    assert!(e.contains("not a 2-byte aligned address"), "{e}");
    // SAFETY: null is refused.
    assert!(unsafe { SoundBlock::from_raw(std::ptr::null()) }.is_err());
}

#[test]
fn a_display_is_called_in_order_and_its_output_collected() {
    let p = Plugin::builtin(echo::plugin()).unwrap();
    assert_eq!(
        (p.kind, p.name.as_str(), p.origin.clone()),
        (Kind::Display, "echo", Origin::BuiltIn)
    );
    assert_eq!(p.version, env!("CARGO_PKG_VERSION"));
    let mut sink = Collect::default();
    let mut d = p.open_display(&[], &mut sink).unwrap();
    assert_eq!(d.flags, FLAG_FRAMES | FLAG_PIXELS);
    assert_eq!(d.next_frame, 1000);
    d.chrout(b"HI", &mut sink).unwrap();
    d.frame(&text_frame(&Screen::blank()), &mut sink).unwrap();
    assert_eq!(d.next_frame, 1001, "asked again after the frame");
    // A picture crosses the boundary whole: size, kind, cycle and every pixel.
    let mut pixels = vec![6u8; abi::PICTURE_WIDTH * abi::PICTURE_HEIGHT];
    pixels[1] = 2;
    let picture = Picture {
        pixels: &pixels,
        width: abi::PICTURE_WIDTH,
        height: abi::PICTURE_HEIGHT,
        kind: PictureKind::Still,
        cycles: 4321,
    };
    let blank = Screen::blank();
    let with_picture = FrameView {
        screen: &blank,
        picture: Some(picture),
        clock: CLOCK,
        palette: c64kit_plugin_api::palette::PEPTO,
    };
    d.frame(&with_picture, &mut sink).unwrap();
    d.poll_input(&mut sink).unwrap();
    let live = FrameView {
        picture: Some(Picture {
            kind: PictureKind::Live,
            ..picture
        }),
        ..with_picture
    };
    d.finish(&end("done", 3, 250_000, 0xE147), &live, &mut sink)
        .unwrap();
    assert_eq!(sink.stdout, b"[HI]");
    assert_eq!(sink.keys, [0x41]);
    assert!(sink.quit);
    let sum = 6 * (384 * 272 - 1) + 2;
    assert_eq!(
        sink.notes,
        [
            "created".to_string(),
            "1000000 Hz, 20000 a frame, NTSC: no picture".to_string(),
            format!(
                "1000000 Hz, 20000 a frame, NTSC: 384x272 Still at 4321, pixel (1, 0) 2, sum {sum}"
            ),
            format!(
                "2 frames, done (code 3) at 250000 (0.25 s) $E147, border 14, 1000000 Hz, 20000 \
                 a frame, NTSC: 384x272 Live at 4321, pixel (1, 0) 2, sum {sum}"
            ),
        ]
    );
    // A picture whose size does not match its pixels is refused, not read past its end.
    let short = FrameView {
        picture: Some(Picture {
            pixels: &pixels[..100],
            ..picture
        }),
        ..with_picture
    };
    let e = d.frame(&short, &mut sink).unwrap_err();
    assert_eq!(
        e.message,
        "the host's picture is 384x272 but has 100 pixels"
    );
    // So is a clock a plugin would divide by zero with, at a frame and at the end.
    let stopped = FrameView {
        clock: Clock {
            cycles_per_second: 0,
            ..CLOCK
        },
        ..with_picture
    };
    let e = d.frame(&stopped, &mut sink).unwrap_err();
    assert_eq!(
        e.message,
        "the host's clock has 0 cycles per second and 20000 per frame (neither may be 0)"
    );
    let mut ended = end("done", 0, 1, 0);
    ended.clock.cycles_per_frame = 0;
    let e = d.finish(&ended, &live, &mut sink).unwrap_err();
    assert_eq!(
        e.message,
        "the host's clock has 1000000 cycles per second and 0 per frame (neither may be 0)"
    );
}

#[test]
fn errors_and_panics_come_back_as_call_errors() {
    let p = Plugin::builtin(echo::plugin()).unwrap();
    let mut sink = Collect::default();
    let e = p
        .open_display(&[("colour".into(), "red".into())], &mut sink)
        .err()
        .unwrap();
    assert!(!e.panicked);
    assert_eq!(
        e.message,
        "unknown option \"colour\" (known options: fail_on)"
    );
    let mut d = p
        .open_display(&[("fail_on".into(), "chrout".into())], &mut sink)
        .unwrap();
    let e = d.chrout(b"x", &mut sink).unwrap_err();
    assert_eq!((e.message.as_str(), e.panicked), ("cannot echo", false));
    let mut d = p.open_display(&[], &mut sink).unwrap();
    let e = d.chrout(b"PANIC", &mut sink).unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.panicked),
        ("panicked: asked to panic", true)
    );
    let e = d
        .frame(&text_frame(&Screen::blank()), &mut sink)
        .unwrap_err();
    assert!(
        e.panicked && e.message.contains("panicked earlier"),
        "{e:?}"
    );
    // A display is not a loader.
    let e = p.load("x", b"", &[], &mut sink).unwrap_err();
    assert!(e.message.contains("is a display, not a loader"), "{e}");
}

#[test]
fn a_loader_hands_over_segments_start_and_description() {
    let p = Plugin::builtin(two::plugin()).unwrap();
    assert_eq!(p.extensions, ["two", "tw"]);
    assert_eq!(p.probe("f", b"TWO!").unwrap(), 2);
    assert_eq!(p.probe("f", b"ONE!").unwrap(), 0);
    let mut sink = Collect::default();
    let prog = p.load("f.two", b"TWO\x60", &[], &mut sink).unwrap();
    assert_eq!(prog.start, Start::At(0xC000));
    assert_eq!(prog.segments.len(), 2);
    assert_eq!(prog.segments[0].bytes, vec![0x60]);
    assert_eq!(prog.description, "two from f.two");
    let e = p.load("f.two", b"TW", &[], &mut sink).unwrap_err();
    assert_eq!(e.message, "too short");
    assert_eq!(p.directory("f", b"").unwrap(), None);
}

fn header(f: impl FnOnce(&mut PluginHeader)) -> Result<Plugin, String> {
    let mut h = PluginHeader {
        magic: MAGIC,
        abi_version: abi::ABI_VERSION,
        kind: KIND_DISPLAY,
        name: RSlice::from_static("fine"),
        version: RSlice::from_static("1.0.0"),
        description: RSlice::from_static("a test"),
        display: echo::plugin().display,
        loader: std::ptr::null(),
        audio: std::ptr::null(),
    };
    f(&mut h);
    let leaked: &'static PluginHeader = Box::leak(Box::new(h));
    Plugin::builtin(leaked)
}

#[test]
fn headers_are_checked_before_use() {
    assert!(header(|_| {}).is_ok());
    let e = header(|h| h.magic = *b"NOTAPLUG").unwrap_err();
    assert!(e.contains("bad magic"), "{e}");
    // A plugin built for version 1 (displays got a text screen only), 2 (no audio outputs),
    // 3 (CHROUT bytes without their character set) or 4 (no clock: every plugin built before
    // it) is refused, naming both versions, what changed and what to do; so is one from the
    // future.
    assert_eq!(abi::ABI_VERSION, 5);
    let refused = |version: u32, changed: &str| {
        let e = header(|h| h.abi_version = version).unwrap_err();
        assert_eq!(
            e,
            format!(
                "it speaks c64kit plugin ABI {version}; this c64kit speaks 5: rebuild it \
                 against c64kit-plugin-api {} (ABI 5), {changed}",
                env!("CARGO_PKG_VERSION")
            )
        );
    };
    refused(
        1,
        "whose displays get frames with the VIC-II's picture, each CHROUT byte's character \
         set and the machine's clock, and which has audio outputs",
    );
    refused(
        2,
        "which has audio outputs and whose displays get each CHROUT byte's character set and \
         the machine's clock",
    );
    refused(
        3,
        "whose displays get each CHROUT byte's character set and the machine's clock",
    );
    refused(
        4,
        "whose displays and audio outputs get the machine's clock (cycles per second and per \
         frame, PAL or NTSC) with each frame and at the end of the run",
    );
    let e = header(|h| h.abi_version = 99).unwrap_err();
    assert!(
        e.starts_with("it speaks c64kit plugin ABI 99; this c64kit speaks 5: rebuild it"),
        "{e}"
    );
    let e = header(|h| h.kind = 9).unwrap_err();
    assert!(e.contains("kind 9"), "{e}");
    // An audio output needs its table, complete.
    let e = header(|h| h.kind = abi::KIND_AUDIO).unwrap_err();
    assert!(e.contains("no audio function table"), "{e}");
    let audio: &'static AudioVTable = Box::leak(Box::new(AudioVTable {
        samples: None,
        ..c64kit_plugin_api::plugin::audio_vtable::<tape::Tape>()
    }));
    let e = header(|h| {
        h.kind = abi::KIND_AUDIO;
        h.audio = audio;
    })
    .unwrap_err();
    assert_eq!(e, "its function table lacks `samples`");
    let e = header(|h| h.display = std::ptr::null()).unwrap_err();
    assert!(e.contains("no display function table"), "{e}");
    let e = header(|h| h.name = RSlice::from_static("Has Space")).unwrap_err();
    assert!(e.contains("is not a plugin name"), "{e}");
    let e = header(|h| h.kind = abi::KIND_LOADER).unwrap_err();
    assert!(e.contains("no loader function table"), "{e}");
    // A table with a function missing.
    let table: &'static DisplayVTable = Box::leak(Box::new(DisplayVTable {
        finish: None,
        ..c64kit_plugin_api::plugin::display_vtable::<echo::Echo>()
    }));
    let e = header(|h| h.display = table).unwrap_err();
    assert_eq!(e, "its function table lacks `finish`");
    // SAFETY: null is allowed and refused.
    let e = unsafe { Plugin::from_header(std::ptr::null(), Origin::BuiltIn) }.unwrap_err();
    assert!(e.contains("null"), "{e}");
}
