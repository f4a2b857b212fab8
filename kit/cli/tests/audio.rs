//! `--audio`: the SID's sound through audio output plugins. The WAV files are read back with
//! hound (another crate's reader, not our writer); their length must be the run's cycles at
//! the sample rate. Errors name the rate, the file or the plugin; no output is an input.

mod common;

use c64kit_machine::PAL_HZ;
use common::{c64kit, hi_prg, library, stderr_of, stub_asm, temp_dir, write};
use std::path::Path;

/// The cycles a run reported on stderr ("... after N cycles (...").
fn cycles_of(stderr: &str) -> u64 {
    let at = stderr
        .rfind(" after ")
        .unwrap_or_else(|| panic!("no cycle count in:\n{stderr}"))
        + 7;
    stderr[at..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no cycle count in:\n{stderr}"))
}

/// A WAV file's format and samples, read by hound.
fn read_wav(path: &Path) -> (hound::WavSpec, Vec<i16>) {
    let mut reader = hound::WavReader::open(path)
        .unwrap_or_else(|e| panic!("{} is not a WAV file: {e}", path.display()));
    let spec = reader.spec();
    let samples = reader.samples::<i16>().map(Result::unwrap).collect();
    (spec, samples)
}

/// The samples a run of `cycles` makes at `rate`, as the machine counts them.
fn expected_samples(cycles: u64, rate: u32) -> u64 {
    cycles * u64::from(rate) / PAL_HZ
}

fn assert_close(samples: usize, cycles: u64, rate: u32) {
    let want = expected_samples(cycles, rate);
    assert!(
        (samples as u64).abs_diff(want) <= 1,
        "{samples} samples for {cycles} cycles at {rate} Hz (expected {want})"
    );
}

/// Runs c64kit in `dir`; returns the exit code and stderr.
fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = c64kit().current_dir(dir).args(args).assert();
    let code = out.get_output().status.code().expect("killed by a signal");
    (code, stderr_of(&out))
}

#[test]
fn audio_writes_a_wav_as_long_as_the_run() {
    let dir = temp_dir("audio-wav");
    write(&dir, "hi.prg", &hi_prg());
    // Half a second and a bit (not a whole number of frames or samples), idling after the
    // program returned.
    let (code, err) = run(
        &dir,
        &[
            "run",
            "hi.prg",
            "--after-return",
            "wait",
            "--max-cycles",
            "500001",
            "--audio",
            "out.wav",
        ],
    );
    assert_eq!(code, 4, "{err}");
    let cycles = cycles_of(&err);
    let (spec, samples) = read_wav(&dir.join("out.wav"));
    assert_eq!(
        (
            spec.channels,
            spec.sample_rate,
            spec.bits_per_sample,
            spec.sample_format
        ),
        (1, 44_100, 16, hound::SampleFormat::Int),
        "16-bit mono PCM at 44,100 Hz by default"
    );
    assert_close(samples.len(), cycles, 44_100);
    assert!(
        err.contains(&format!(
            "c64kit: wav: wrote out.wav ({:.2} s: {} samples at 44100 Hz",
            samples.len() as f64 / 44_100.0,
            samples.len()
        )),
        "{err}"
    );
    // Another rate, another length: the count follows the rate. The file is replaced.
    let (code, err) = run(
        &dir,
        &[
            "run",
            "hi.prg",
            "--after-return",
            "wait",
            "--max-cycles",
            "300000",
            "--audio",
            "out.wav",
            "--audio-rate",
            "48000",
        ],
    );
    assert_eq!(code, 4, "{err}");
    let (spec, samples) = read_wav(&dir.join("out.wav"));
    assert_eq!(spec.sample_rate, 48_000);
    assert_close(samples.len(), cycles_of(&err), 48_000);
    // A run that returns at once still writes a (short) valid file; nothing else is left
    // in the folder (no temporary file).
    let (code, err) = run(&dir, &["run", "hi.prg", "--audio", "short.wav"]);
    assert_eq!(code, 0, "{err}");
    let (_, samples) = read_wav(&dir.join("short.wav"));
    assert_close(samples.len(), cycles_of(&err), 44_100);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["hi.prg", "out.wav", "short.wav"]);
}

#[test]
fn audio_outputs_by_name_file_default_and_settings() {
    let dir = temp_dir("audio-names");
    write(&dir, "hi.prg", &hi_prg());
    let args = ["run", "hi.prg", "--after-return", "wait", "--max-cycles"];
    // `--audio wav` names the output; its file is the program's name with .wav.
    let (code, err) = run(&dir, &[&args[..], &["100000", "--audio", "wav"]].concat());
    assert_eq!(code, 4, "{err}");
    assert_close(
        read_wav(&dir.join("hi.wav")).1.len(),
        cycles_of(&err),
        44_100,
    );
    // Two files at once, at one rate; `-O wav.rate` sets it as --audio-rate does.
    let (code, err) = run(
        &dir,
        &[
            &args[..],
            &[
                "100000",
                "--audio",
                "a.wav",
                "--audio",
                "b.wav",
                "-O",
                "wav.rate=8000",
            ],
        ]
        .concat(),
    );
    assert_eq!(code, 4, "{err}");
    let (a, b) = (read_wav(&dir.join("a.wav")), read_wav(&dir.join("b.wav")));
    assert_eq!(a, b);
    assert_eq!(a.0.sample_rate, 8000);
    assert_close(a.1.len(), cycles_of(&err), 8000);
    // The settings file: `audio` and `audio_rate`; `--audio none` turns them off.
    std::fs::write(
        dir.join("c64kit.toml"),
        "audio = \"wav\"\naudio_rate = 16000\n[plugin.wav]\noutput = \"set.wav\"\n",
    )
    .unwrap();
    let (code, err) = run(&dir, &[&args[..], &["50000"]].concat());
    assert_eq!(code, 4, "{err}");
    let (spec, samples) = read_wav(&dir.join("set.wav"));
    assert_eq!(spec.sample_rate, 16_000);
    assert_close(samples.len(), cycles_of(&err), 16_000);
    std::fs::remove_file(dir.join("set.wav")).unwrap();
    let (code, err) = run(&dir, &[&args[..], &["50000", "--audio", "none"]].concat());
    assert_eq!(code, 4, "{err}");
    assert!(
        !dir.join("set.wav").exists(),
        "no sound asked for, none written"
    );
    std::fs::write(dir.join("c64kit.toml"), "audio = [\"wave\"]\n").unwrap();
    let (code, err) = run(&dir, &["run", "hi.prg"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("c64kit.toml: audio: no audio output named \"wave\" (available: wav;"),
        "{err}"
    );
    std::fs::remove_file(dir.join("c64kit.toml")).unwrap();
    // Into a device, the header's sizes say "to the end of the stream": c64kit writes the
    // samples straight through, so a pipe can take them.
    let out = c64kit()
        .current_dir(&dir)
        .args([&args[..], &["20000", "-q", "--audio", "/dev/stdout"]].concat())
        .assert()
        .code(4);
    let bytes = &out.get_output().stdout;
    let cycles = cycles_of(&stderr_of(&out));
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(&bytes[4..8], &[0xFF; 4], "RIFF size unknown");
    assert_eq!(&bytes[40..44], &[0xFF; 4], "data size unknown");
    assert_close((bytes.len() - 44) / 2, cycles, 44_100);
}

/// A bare word is a name: one that names no audio output (a plugin not loaded) is an error
/// listing the outputs, not a WAV file named after it; a file needs an extension or a folder.
#[test]
fn a_word_that_names_no_output_is_refused_not_written() {
    let dir = temp_dir("audio-bare-word");
    write(&dir, "hi.prg", &hi_prg());
    let (code, err) = run(&dir, &["run", "hi.prg", "--audio", "cpal"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("c64kit: --audio cpal: no audio output is named \"cpal\" (there are: wav)"),
        "{err}"
    );
    assert!(err.contains("--plugin LIBRARY"), "{err}");
    assert!(!dir.join("cpal").exists(), "no file written");
    // The advice works: with a folder or an extension it is a file.
    for file in ["./cpal", "cpal.wav"] {
        let (code, err) = run(&dir, &["run", "hi.prg", "--audio", file]);
        assert_eq!(code, 0, "{err}");
        read_wav(&dir.join(file));
    }
}

#[test]
fn bad_rates_unwritable_files_and_inputs_are_refused() {
    let dir = temp_dir("audio-errors");
    write(&dir, "hi.prg", &hi_prg());
    // A rate the synthesis cannot make: a usage error naming the option and the rate.
    for rate in ["1000", "200000", "fast"] {
        let (code, err) = run(
            &dir,
            &["run", "hi.prg", "--audio", "x.wav", "--audio-rate", rate],
        );
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("invalid value '{rate}' for '--audio-rate <HZ>'")),
            "{err}"
        );
    }
    let (_, err) = run(
        &dir,
        &["run", "hi.prg", "--audio", "x.wav", "--audio-rate", "1000"],
    );
    assert!(
        err.contains("sample rate 1000 Hz: must be 8000 to 192000 Hz"),
        "{err}"
    );
    // The same rate as a plugin option reaches the machine, which refuses it naming the
    // plugin; in the settings file, naming the key.
    let (code, err) = run(
        &dir,
        &["run", "hi.prg", "--audio", "x.wav", "-O", "wav.rate=1000"],
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(
            "c64kit: audio plugin wav (built-in): sample rate 1000 Hz: must be 8000 to 192000 Hz"
        ),
        "{err}"
    );
    std::fs::write(dir.join("bad.toml"), "audio_rate = 7999\n").unwrap();
    let (code, err) = run(&dir, &["--config", "bad.toml", "run", "hi.prg"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("bad.toml: audio_rate: sample rate 7999 Hz: must be 8000 to 192000 Hz"),
        "{err}"
    );
    // A folder that is not there: the error names the file, before the run.
    let (code, err) = run(&dir, &["run", "hi.prg", "--audio", "no/such/x.wav"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("audio plugin wav (built-in) failed: cannot write no/such/x.wav: "),
        "{err}"
    );
    assert!(
        !err.contains("returned to BASIC"),
        "the run did not start: {err}"
    );
    // Never over an input: the program, under another spelling too; it is left as it was.
    for target in ["hi.prg", "./hi.prg"] {
        let (code, err) = run(&dir, &["run", "hi.prg", "--audio", target]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains(&format!(
                "the sound recording {target} is the program hi.prg: c64kit never writes over \
                 one of its inputs"
            )),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(dir.join("hi.prg")).unwrap(), hi_prg());
    // A bare 6502 has no SID.
    let (code, err) = run(
        &dir,
        &[
            "run", "--bare", "hi.prg", "--start", "2061", "--audio", "x.wav",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--bare cannot take --audio"), "{err}");
    assert!(!dir.join("x.wav").exists());
}

#[test]
fn a_panicking_audio_plugin_ends_the_run_naming_it() {
    let dir = temp_dir("audio-panic");
    write(&dir, "hi.prg", &hi_prg());
    let panicky = library("c64kit-plugin-panicky");
    let p = panicky.to_str().unwrap();
    let label = format!("audio plugin panicky-audio ({p})");
    // A run with the plugin told to panic in `call`.
    let panicking_in = |call: &str| {
        let option = format!("panicky-audio.panic_in={call}");
        let args = [
            "--plugin",
            p,
            "run",
            "hi.prg",
            "--audio",
            "panicky-audio",
            "-O",
        ];
        run(&dir, &[&args[..], &[option.as_str()]].concat())
    };
    for (call, code) in [("create", 1), ("samples", 1), ("finish", 1)] {
        let (got, err) = panicking_in(call);
        assert_eq!(got, code, "{call}: {err}");
        assert!(
            err.contains(&format!(
                "c64kit: {label} failed: panicked: panicky audio: deliberate panic in {call}"
            )),
            "{call}: {err}"
        );
    }
    // A panic when asked its rate leaves it without one: refused, naming it.
    let (code, err) = panicking_in("sample_rate");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("c64kit: {label}: sample rate 0 Hz")),
        "{err}"
    );
    // A wav file asked for beside a plugin that failed is not left half written.
    let (code, _) = run(
        &dir,
        &[
            "--plugin",
            p,
            "run",
            "hi.prg",
            "--audio",
            "x.wav",
            "--audio",
            "panicky-audio",
        ],
    );
    assert_eq!(code, 1);
    assert!(!dir.join("x.wav").exists());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "nothing but the program"
    );
}

#[test]
fn play_uses_a_live_audio_output_when_one_is_loaded() {
    let dir = temp_dir("audio-play");
    write(&dir, "hi.prg", &hi_prg());
    let panicky = library("c64kit-plugin-panicky");
    let p = panicky.to_str().unwrap();
    // The fixture says it is live (a sound card): `play` uses it unasked (here it panics on
    // the first block of sound, which ends the run naming it). `--display transcript`: no
    // terminal needed. 50,000 cycles are 1/20 s of real time.
    let play = ["--plugin", p, "play", "hi.prg", "--display", "transcript"];
    let budget = ["--max-cycles", "50000"];
    let (code, err) = run(&dir, &[&play[..], &budget].concat());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!(
            "audio plugin panicky-audio ({p}) failed: panicked: panicky audio: deliberate \
             panic in samples"
        )),
        "{err}"
    );
    // One that cannot open is left out with a note: the person plays on without sound.
    let create = ["-O", "panicky-audio.panic_in=create"];
    let (code, err) = run(&dir, &[&play[..], &budget, &create].concat());
    assert_eq!(code, 4, "{err}");
    assert!(
        err.contains(&format!(
            "c64kit: no sound: audio plugin panicky-audio ({p}) failed: panicked"
        )),
        "{err}"
    );
    // Named, the same failure ends the run.
    let named = ["--audio", "panicky-audio"];
    let (code, err) = run(&dir, &[&play[..], &budget, &create, &named].concat());
    assert_eq!(code, 1, "{err}");
    // `--audio none`, or `run` (which plays nothing unasked): no sound, nothing called.
    let (code, err) = run(&dir, &[&play[..], &budget, &["--audio", "none"]].concat());
    assert_eq!((code, err.contains("panicky")), (4, false), "{err}");
    let (code, err) = run(&dir, &["--plugin", p, "run", "hi.prg"]);
    assert_eq!((code, err.contains("panicky")), (0, false), "{err}");
}

/// A program that plays a note: voice 1's triangle at $1CD6 (about 433 Hz: the register
/// times the PAL clock / 2^24), attack 0, sustain 15, gate on, full volume; then it returns
/// and the run idles with the note held.
const NOTE: &str = "lda #$0f\nsta $d418\nlda #$d6\nsta $d400\nlda #$1c\nsta $d401\n\
                    lda #$00\nsta $d405\nlda #$f0\nsta $d406\nlda #$11\nsta $d404\nrts";

#[test]
fn a_note_is_heard_in_the_wav() {
    let dir = temp_dir("audio-note");
    write(&dir, "note.prg", &stub_asm(NOTE));
    let (code, err) = run(
        &dir,
        &[
            "run",
            "note.prg",
            "--after-return",
            "wait",
            "--max-cycles",
            "985248",
            "--audio",
            "note.wav",
        ],
    );
    assert_eq!(code, 4, "{err}");
    let (spec, samples) = read_wav(&dir.join("note.wav"));
    // The last half second: the attack and any start-up are over.
    let held = &samples[samples.len() / 2..];
    let mean = held.iter().map(|&s| f64::from(s)).sum::<f64>() / held.len() as f64;
    let centred: Vec<f64> = held.iter().map(|&s| f64::from(s) - mean).collect();
    let rms = (centred.iter().map(|s| s * s).sum::<f64>() / centred.len() as f64).sqrt();
    assert!(rms > 1000.0, "the note is heard: RMS {rms:.0} of 32,768");
    // Its pitch, from the crossings of its middle: the frequency register's.
    let rises = centred
        .windows(2)
        .filter(|w| w[0] < 0.0 && w[1] >= 0.0)
        .count();
    let hz = rises as f64 * f64::from(spec.sample_rate) / held.len() as f64;
    let want = f64::from(0x1CD6u32) * PAL_HZ as f64 / f64::from(1u32 << 24);
    assert!(
        (hz - want).abs() < want * 0.03,
        "{hz:.1} Hz heard, {want:.1} Hz played"
    );
}
