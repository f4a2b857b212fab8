//! Plugins both ways: every built-in plugin is also loaded from its dynamic library (which
//! `cargo test` builds beside this test, the plugins being dependencies of c64kit) and must
//! give the same results. Broken libraries and panicking plugins give clear errors, never an
//! abort of the host.

use c64kit_machine::VicModel;
use c64kit_plugin_api::abi::{Clock, PluginHeader, Screen, FLAG_PIXELS, VIDEO_PAL};
use c64kit_plugin_api::host::{load_library, Collect, Kind, Origin, Plugin};
use c64kit_plugin_api::{FrameView, Picture, PictureKind, RunEndInfo, SoundBlock};
use std::path::{Path, PathBuf};

mod common;

use common::{hi_prg, library, temp_dir};

/// The built-in plugin and the same plugin from its library.
fn both(header: &'static PluginHeader, crate_name: &str) -> (Plugin, Plugin) {
    let builtin = Plugin::builtin(header).unwrap();
    let path = library(crate_name);
    let mut loaded = load_library(&path).unwrap();
    assert_eq!(loaded.len(), 1, "{crate_name} holds one plugin");
    let loaded = loaded.remove(0);
    assert_eq!(loaded.origin, Origin::Library(path));
    assert_eq!(builtin.origin, Origin::BuiltIn);
    assert_eq!(
        (
            &builtin.kind,
            &builtin.name,
            &builtin.version,
            &builtin.description
        ),
        (
            &loaded.kind,
            &loaded.name,
            &loaded.version,
            &loaded.description
        )
    );
    assert_eq!(builtin.extensions, loaded.extensions);
    (builtin, loaded)
}

/// A PAL C64's clock, as the host hands it over.
fn pal_clock() -> Clock {
    let pal = VicModel::Mos6569;
    Clock {
        cycles_per_second: pal.clock_hz(),
        cycles_per_frame: pal.cycles_per_frame(),
        video: VIDEO_PAL,
    }
}

/// The end of a (made-up) run on a PAL C64.
fn run_end(reason: &str, exit_code: i32, cycles: u64, pc: u16) -> RunEndInfo {
    RunEndInfo {
        reason: reason.into(),
        exit_code,
        cycles,
        pc,
        clock: pal_clock(),
    }
}

fn sample_screen(cycles: u64) -> Screen {
    let mut s = Screen::blank();
    s.cycles = cycles;
    s.frame = cycles / pal_clock().cycles_per_frame;
    s.vic[0x11] = 0x1B;
    s.vic[0x16] = 0xC8;
    s.vic[0x18] = 0x15;
    for (i, b) in b"\x08\x05\x0c\x0c\x0f \x17\x0f\x12\x0c\x04 \xa0\x41\x51\x66"
        .iter()
        .enumerate()
    {
        s.chars[i] = *b;
        s.colours[i] = (i % 16) as u8;
    }
    s
}

/// A made-up picture: blue with a border, a red pixel whose place moves with `cycles`.
fn sample_pixels(cycles: u64) -> Vec<u8> {
    let mut px = vec![14u8; 384 * 272];
    for y in 35..235 {
        px[y * 384 + 32..y * 384 + 352].fill(6);
    }
    px[35 * 384 + 32 + (cycles / pal_clock().cycles_per_frame) as usize % 320] = 2;
    px
}

/// A frame as the host hands it over: the screen, and the picture if the display asked.
fn sample_frame<'a>(screen: &'a Screen, pixels: &'a [u8], flags: u32) -> FrameView<'a> {
    FrameView {
        screen,
        picture: (flags & FLAG_PIXELS != 0).then_some(Picture {
            pixels,
            width: 384,
            height: 272,
            kind: PictureKind::Still,
            cycles: screen.cycles,
        }),
        clock: pal_clock(),
        palette: c64kit_plugin_api::palette::PEPTO,
    }
}

/// Runs a display through a whole (made-up) run; returns what it printed, its notes with
/// `dir` replaced by "DIR", and the files it wrote.
/// The options with "DIR" standing for the output folder `dir`.
fn options_in(options: &[(&str, &str)], dir: &Path) -> Vec<(String, String)> {
    options
        .iter()
        .map(|(k, v)| (k.to_string(), v.replace("DIR", &dir.display().to_string())))
        .collect()
}

/// What an output plugin said (the folder written as "DIR") and the files it left in
/// `dir`, by name.
fn notes_and_files(mut sink: Collect, dir: &Path) -> (Collect, Vec<(String, Vec<u8>)>) {
    let dir_text = dir.display().to_string();
    for n in sink.notes.iter_mut() {
        *n = n.replace(&dir_text, "DIR");
    }
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    (sink, files)
}

fn exercise_display(
    plugin: &Plugin,
    options: &[(&str, &str)],
    dir: &Path,
) -> (Collect, Vec<(String, Vec<u8>)>) {
    let options = options_in(options, dir);
    let mut sink = Collect::default();
    let mut d = plugin.open_display(&options, &mut sink).unwrap();
    d.chrout(b"HELLO\rWORLD\x93", &mut sink).unwrap();
    for f in 1..4u64 {
        let cycles = f * pal_clock().cycles_per_frame;
        if d.wants_frame(cycles) {
            let (screen, pixels) = (sample_screen(cycles), sample_pixels(cycles));
            d.frame(&sample_frame(&screen, &pixels, d.flags), &mut sink)
                .unwrap();
        }
    }
    d.chrout(b"\x05BYE", &mut sink).unwrap();
    let (screen, pixels) = (sample_screen(123_456), sample_pixels(123_456));
    d.finish(
        &run_end("returned to BASIC", 0, 123_456, 0xE147),
        &sample_frame(&screen, &pixels, d.flags),
        &mut sink,
    )
    .unwrap();
    drop(d);
    notes_and_files(sink, dir)
}

#[test]
fn displays_behave_the_same_built_in_and_loaded() {
    type Case = (
        &'static PluginHeader,
        &'static str,
        Vec<(&'static str, &'static str)>,
    );
    let cases: Vec<Case> = vec![
        (
            c64kit_display_transcript::plugin(),
            "c64kit-display-transcript",
            vec![],
        ),
        (
            c64kit_display_transcript::plugin(),
            "c64kit-display-transcript",
            vec![("style", "petcat")],
        ),
        (
            c64kit_display_png::plugin(),
            "c64kit-display-png",
            vec![("output", "DIR/shot.png"), ("at", "30000"), ("scale", "2")],
        ),
        (
            c64kit_display_html::plugin(),
            "c64kit-display-html",
            vec![("output", "DIR/page.html"), ("sequence", "true")],
        ),
        (
            c64kit_display_terminal::plugin(),
            "c64kit-display-terminal",
            vec![("mode", "final"), ("view", "text")],
        ),
        (
            c64kit_display_terminal::plugin(),
            "c64kit-display-terminal",
            vec![("mode", "final"), ("view", "pixels"), ("scale", "4")],
        ),
        (
            c64kit_display_gif::plugin(),
            "c64kit-display-gif",
            vec![("output", "DIR/run.gif")],
        ),
    ];
    for (i, (header, crate_name, options)) in cases.into_iter().enumerate() {
        let (builtin, loaded) = both(header, crate_name);
        assert_eq!(builtin.kind, Kind::Display);
        let a = exercise_display(&builtin, &options, &temp_dir(&format!("d{i}a")));
        let b = exercise_display(&loaded, &options, &temp_dir(&format!("d{i}b")));
        assert_eq!(a, b, "{crate_name} {options:?}");
        // And each did something.
        assert!(!a.0.stdout.is_empty() || !a.1.is_empty(), "{crate_name}");
    }
    // The transcript is what `c64kit run` always printed.
    let (builtin, _) = both(
        c64kit_display_transcript::plugin(),
        "c64kit-display-transcript",
    );
    let (out, _) = exercise_display(&builtin, &[], &temp_dir("transcript"));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "HELLO\nWORLD{clr}{wht}BYE\n"
    );
    // The png display took the "at" shot at the first frame at or after cycle 30000.
    let (builtin, _) = both(c64kit_display_png::plugin(), "c64kit-display-png");
    let (out, files) = exercise_display(
        &builtin,
        &[("output", "DIR/shot.png"), ("at", "30000")],
        &temp_dir("png"),
    );
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["shot-30000.png", "shot.png"]);
    assert_eq!(
        out.notes,
        [
            "wrote DIR/shot-30000.png (384x272, cycle 39312, redrawn from memory and registers \
             without the CPU)",
            "wrote DIR/shot.png (384x272, cycle 123456, redrawn from memory and registers \
             without the CPU)"
        ]
    );
}

fn exercise_loader(plugin: &Plugin, path: &Path, options: &[(&str, &str)]) -> String {
    let bytes = std::fs::read(path).unwrap();
    let shown = path.display().to_string();
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let probe = plugin.probe(&shown, &bytes).unwrap();
    let mut sink = Collect::default();
    let loaded = plugin.load(&shown, &bytes, &options, &mut sink);
    let dir = plugin.directory(&shown, &bytes);
    format!("probe {probe}\n{loaded:?}\n{dir:?}\n{sink:?}")
}

#[test]
fn loaders_behave_the_same_built_in_and_loaded() {
    let dir = temp_dir("loaders");
    let prg = dir.join("hi.prg");
    std::fs::write(&prg, hi_prg()).unwrap();
    let bas = dir.join("hi.bas");
    std::fs::write(&bas, "10 sys2061\n").unwrap();
    let asm = dir.join("hi.asm");
    std::fs::write(&asm, "*=$c000\n lda #$48\n jsr $ffd2\n rts\n").unwrap();
    let t64 = dir.join("hi.t64");
    std::fs::write(
        &t64,
        c64kit_loader_t64::build_image("TAPE", &[("HI", 0x0801, &hi_prg()[2..])]),
    )
    .unwrap();
    let d64 = dir.join("hi.d64");
    std::fs::write(
        &d64,
        c64kit_loader_d64::build_image(
            "DISK",
            "01",
            &[("OTHER", &[0, 0xC0, 1]), ("HI", &hi_prg())],
        ),
    )
    .unwrap();
    let bad = dir.join("bad.d64");
    std::fs::write(&bad, [0u8; 100]).unwrap();
    type Case = (
        &'static PluginHeader,
        &'static str,
        PathBuf,
        Vec<(&'static str, &'static str)>,
    );
    let cases: Vec<Case> = vec![
        (
            c64kit_loader_prg::plugin(),
            "c64kit-loader-prg",
            prg.clone(),
            vec![],
        ),
        (
            c64kit_loader_prg::plugin(),
            "c64kit-loader-prg",
            bas.clone(),
            vec![],
        ),
        (
            c64kit_loader_basic::plugin(),
            "c64kit-loader-basic",
            bas,
            vec![],
        ),
        (
            c64kit_loader_asm::plugin(),
            "c64kit-loader-asm",
            asm,
            vec![("define", "X=1")],
        ),
        (
            c64kit_loader_t64::plugin(),
            "c64kit-loader-t64",
            t64.clone(),
            vec![],
        ),
        (
            c64kit_loader_t64::plugin(),
            "c64kit-loader-t64",
            prg,
            vec![],
        ),
        (
            c64kit_loader_d64::plugin(),
            "c64kit-loader-d64",
            d64.clone(),
            vec![("file", "H*")],
        ),
        (
            c64kit_loader_d64::plugin(),
            "c64kit-loader-d64",
            bad,
            vec![],
        ),
    ];
    for (header, crate_name, path, options) in cases {
        let (builtin, loaded) = both(header, crate_name);
        assert_eq!(builtin.kind, Kind::Loader);
        let a = exercise_loader(&builtin, &path, &options);
        let b = exercise_loader(&loaded, &path, &options);
        assert_eq!(a, b, "{crate_name} {}", path.display());
    }
    let (builtin, _) = both(c64kit_loader_d64::plugin(), "c64kit-loader-d64");
    let out = exercise_loader(&builtin, &d64, &[("file", "H*")]);
    assert!(out.contains("segments: [Segment { address: 2049"), "{out}");
    assert!(out.contains("0 \\\"DISK            \\\" 01 2A"), "{out}");
}

#[test]
fn broken_libraries_are_refused_naming_the_file() {
    let wrong = library("c64kit-plugin-wrong-abi");
    let e = load_library(&wrong).unwrap_err();
    assert!(e.starts_with(&wrong.display().to_string()), "{e}");
    assert!(
        e.contains(
            "`c64kit_plugin_entry_wrong_abi`: it speaks c64kit plugin ABI 4; this c64kit speaks \
             5: rebuild it against c64kit-plugin-api"
        ),
        "{e}"
    );
    let dir = temp_dir("broken");
    let text = dir.join("notes.so");
    std::fs::write(&text, "just text").unwrap();
    let e = load_library(&text).unwrap_err();
    assert!(
        e.starts_with(&format!("{}: not a shared library", text.display())),
        "{e}"
    );
    // A real executable that exports no plugin entry.
    let exe = std::env::current_exe().unwrap();
    let e = load_library(&exe).unwrap_err();
    assert!(
        e.contains("not a c64kit plugin: the library exports no `c64kit_plugin_entry…` function"),
        "{e}"
    );
    let e = load_library(&dir.join("missing.so")).unwrap_err();
    assert!(e.contains("missing.so: cannot read"), "{e}");
}

#[test]
fn a_panicking_plugin_is_an_error_not_an_abort() {
    let mut plugins = load_library(&library("c64kit-plugin-panicky")).unwrap();
    plugins.sort_by(|a, b| a.name.cmp(&b.name));
    let (display, audio, loader) = (&plugins[0], &plugins[1], &plugins[2]);
    assert!(audio.live, "the fixture says it is a sound card");
    assert_eq!(
        (
            display.name.as_str(),
            audio.name.as_str(),
            loader.name.as_str()
        ),
        ("panicky", "panicky-audio", "panicky-loader")
    );
    let mut sink = Collect::default();
    let opts = |call: &str| vec![("panic_in".to_string(), call.to_string())];
    let e = display
        .open_display(&opts("create"), &mut sink)
        .err()
        .unwrap();
    assert!(e.panicked);
    assert_eq!(
        e.message,
        "panicked: panicky display: deliberate panic in create"
    );
    let mut d = display.open_display(&opts("frame"), &mut sink).unwrap();
    d.chrout(b"A", &mut sink).unwrap();
    let blank = Screen::blank();
    let e = d
        .frame(&sample_frame(&blank, &[], 0), &mut sink)
        .unwrap_err();
    assert!(
        e.panicked && e.message.contains("deliberate panic in frame"),
        "{e:?}"
    );
    // After a panic the instance is not called again.
    let e = d.chrout(b"B", &mut sink).unwrap_err();
    assert!(e.message.contains("panicked earlier"), "{e:?}");
    drop(d);
    let e = loader.load("x", b"", &[], &mut sink).unwrap_err();
    assert!(
        e.panicked && e.message.contains("deliberate panic in load"),
        "{e:?}"
    );
    // The built-in route catches it the same way.
    let builtin = Plugin::builtin(c64kit_plugin_panicky::display::plugin()).unwrap();
    let mut d = builtin.open_display(&opts("finish"), &mut sink).unwrap();
    let e = d
        .finish(
            &run_end("x", 0, 0, 0),
            &sample_frame(&blank, &[], 0),
            &mut sink,
        )
        .unwrap_err();
    assert!(
        e.panicked && e.message.contains("deliberate panic in finish"),
        "{e:?}"
    );
    // An audio output that panics: in create, when asked its rate (it then has none), on a
    // block of sound, at the end; from the library and built in alike.
    let e = audio.open_audio(&opts("create"), &mut sink).err().unwrap();
    assert_eq!(
        (e.message.as_str(), e.panicked),
        ("panicked: panicky audio: deliberate panic in create", true)
    );
    let a = audio.open_audio(&opts("sample_rate"), &mut sink).unwrap();
    assert_eq!(a.sample_rate, 0, "a panic in sample_rate is no rate");
    let block = SoundBlock {
        samples: &[1, 2, 3],
        first_sample: 0,
        first_cycle: 0,
    };
    let builtin_audio = Plugin::builtin(c64kit_plugin_panicky::audio::plugin()).unwrap();
    for p in [audio, &builtin_audio] {
        let mut a = p.open_audio(&opts("samples"), &mut sink).unwrap();
        let e = a.samples(&block, &mut sink).unwrap_err();
        assert!(
            e.panicked && e.message == "panicked: panicky audio: deliberate panic in samples",
            "{e:?}"
        );
        let e = a.finish(&run_end("x", 0, 0, 0), &mut sink).unwrap_err();
        assert!(e.message.contains("panicked earlier"), "{e:?}");
        let mut a = p.open_audio(&opts("finish"), &mut sink).unwrap();
        a.samples(&block, &mut sink).unwrap();
        let e = a.finish(&run_end("x", 0, 0, 0), &mut sink).unwrap_err();
        assert!(
            e.panicked && e.message.contains("deliberate panic in finish"),
            "{e:?}"
        );
    }
}

/// Feeds an audio output three blocks (one empty) and ends the run; returns what it said
/// and the files it wrote in `dir`.
fn exercise_audio(
    plugin: &Plugin,
    options: &[(&str, &str)],
    dir: &Path,
) -> (Collect, Vec<(String, Vec<u8>)>) {
    let options = options_in(options, dir);
    let mut sink = Collect::default();
    let mut a = plugin.open_audio(&options, &mut sink).unwrap();
    let rate = u64::from(a.sample_rate);
    let wave: Vec<i16> = (0..1000)
        .map(|i| ((i % 50) * 600 - 15_000) as i16)
        .collect();
    let mut sent = 0u64;
    for block in [&wave[..600], &[][..], &wave[600..]] {
        let first_cycle = sent * pal_clock().cycles_per_second / rate;
        a.samples(
            &SoundBlock {
                samples: block,
                first_sample: sent,
                first_cycle,
            },
            &mut sink,
        )
        .unwrap();
        sent += block.len() as u64;
    }
    a.finish(&run_end("returned to BASIC", 0, 123_456, 0xE147), &mut sink)
        .unwrap();
    drop(a);
    notes_and_files(sink, dir)
}

#[test]
fn the_wav_output_behaves_the_same_built_in_and_loaded() {
    let (builtin, loaded) = both(c64kit_audio_wav::plugin(), "c64kit-audio-wav");
    assert_eq!((builtin.kind, builtin.live), (Kind::Audio, false));
    let options = [("output", "DIR/sound.wav"), ("rate", "22050")];
    let a = exercise_audio(&builtin, &options, &temp_dir("wav-a"));
    let b = exercise_audio(&loaded, &options, &temp_dir("wav-b"));
    assert_eq!(a, b);
    let (sink, files) = a;
    assert_eq!(files.len(), 1, "one file, no temporary left behind");
    let (name, bytes) = &files[0];
    assert_eq!(name, "sound.wav");
    // Read by another WAV reader: every sample, in order, at the rate asked for.
    let mut reader = hound::WavReader::new(std::io::Cursor::new(bytes)).unwrap();
    let spec = reader.spec();
    assert_eq!(
        (spec.channels, spec.sample_rate, spec.bits_per_sample),
        (1, 22_050, 16)
    );
    assert_eq!(spec.sample_format, hound::SampleFormat::Int);
    let samples: Vec<i16> = reader.samples::<i16>().map(Result::unwrap).collect();
    let wave: Vec<i16> = (0..1000)
        .map(|i| ((i % 50) * 600 - 15_000) as i16)
        .collect();
    assert_eq!(samples, wave);
    assert_eq!(
        sink.notes,
        ["wrote DIR/sound.wav (0.05 s: 1000 samples at 22050 Hz, 16-bit mono; peak -6.8 dBFS)"]
    );
}

#[test]
fn the_transcript_gets_each_bytes_character_set_both_ways() {
    use c64kit_plugin_api::abi::{CHARSET_LOWER as L, CHARSET_UPPER as U};
    let (builtin, loaded) = both(
        c64kit_display_transcript::plugin(),
        "c64kit-display-transcript",
    );
    for plugin in [builtin, loaded] {
        let mut sink = Collect::default();
        let mut d = plugin.open_display(&[], &mut sink).unwrap();
        // "HI", then CHR$(14) and "Hi" ($C8 $49) in the lower-case set, then a POKE back
        // to upper case (no byte says so) and "HI" again.
        d.chrout_in_sets(b"HI\x0e\xc8I", &[U, U, L, L, L], &mut sink)
            .unwrap();
        d.chrout_in_sets(b"HI", &[U, U], &mut sink).unwrap();
        // Sets shorter than the bytes are padded with the upper-case set.
        d.chrout_in_sets(b"\x0eAB", &[L, L], &mut sink).unwrap();
        assert_eq!(
            String::from_utf8(sink.stdout).unwrap(),
            "HI{swlc}HiHI{swlc}aB",
            "{:?}",
            plugin.origin
        );
    }
}
