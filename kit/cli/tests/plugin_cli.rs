//! The `c64kit` command with plugins: displays, loaders, `plugins`, `dir`, the config file,
//! and errors from bad plugins and bad images.

mod common;

use common::{c64kit, hi_prg, library, temp_dir, READY};
use std::path::{Path, PathBuf};

/// The RYG3 engine (version 10) as the README builds it.
fn ryg3(dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let asm = c64kit_asm::assemble_path(
        &root.join("programs/ryg3/ryg3-v10.cbmprj"),
        &c64kit_asm::Options::default(),
    )
    .unwrap();
    let p = dir.join("ryg3.prg");
    std::fs::write(&p, asm.prg()).unwrap();
    p
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str]) -> Out {
    // A panic's backtrace would show, were one ever printed.
    let o = c64kit()
        .current_dir(dir)
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    Out {
        code: o.status.code().expect("c64kit was killed by a signal"),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn decode_png(path: &Path) -> (u32, u32, Vec<u8>, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let palette = reader.info().palette.as_ref().unwrap().to_vec();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf, palette)
}

#[test]
fn default_run_prints_the_transcript_as_before() {
    let dir = temp_dir("default");
    let prg = ryg3(&dir);
    let out = run(&dir, &["run", "ryg3.prg", "--input", ".b\n"]);
    assert_eq!(out.code, 3, "input exhausted: {}", out.stderr);
    // The library's own transcript, rendered as `c64kit run` always did.
    let mut m = c64kit_machine::Machine::builtin();
    let p = c64kit_machine::Prg::parse(&std::fs::read(&prg).unwrap(), "ryg3.prg").unwrap();
    m.load_and_run_prg(&p).unwrap();
    m.feed_keys(c64kit_basic::parse_key_script(".b\n").unwrap());
    let stop = m.run(600 * c64kit_machine::PAL_HZ);
    let mut want = c64kit_basic::render_petscii(m.transcript(), &Default::default());
    if !want.ends_with('\n') {
        want.push('\n');
    }
    assert_eq!(out.stdout, want);
    assert!(out.stdout.contains("8 .C.C.C.C 8\n"), "{}", out.stdout);
    assert_eq!(
        out.stderr,
        format!(
            "c64kit: {stop} after {} cycles ({:.3} s of PAL C64 time), PC=${:04X}\n",
            m.cycles(),
            m.cycles() as f64 / c64kit_machine::PAL_HZ as f64,
            m.cpu.pc
        )
    );
    // --quiet still prints nothing; a missing file is exit code 1 naming it.
    let out = run(&dir, &["run", "ryg3.prg", "--input", ".b\n", "-q"]);
    assert_eq!((out.code, out.stdout.as_str()), (3, ""));
    let out = run(&dir, &["run", "nope.prg"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("c64kit: nope.prg: "),
        "{}",
        out.stderr
    );
    let short = dir.join("short.prg");
    std::fs::write(&short, [1]).unwrap();
    let out = run(&dir, &["run", "short.prg"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("short.prg: not a PRG file"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_ryg3_board_as_a_png_and_every_display() {
    let dir = temp_dir("board");
    ryg3(&dir);
    let out = run(
        &dir,
        &[
            "run",
            "ryg3.prg",
            "--input",
            ".b\n",
            "--screenshot",
            "board.png",
            "-q",
        ],
    );
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert!(
        out.stderr.contains("png: wrote board.png (384x272"),
        "{}",
        out.stderr
    );
    let (w, h, px, palette) = decode_png(&dir.join("board.png"));
    assert_eq!((w, h), (384, 272));
    assert_eq!(
        &palette[..6],
        &[0, 0, 0, 0xFF, 0xFF, 0xFF],
        "Pepto black, white"
    );
    assert_eq!(px[0], 14, "light blue border");
    assert_eq!(px[(35 + 199) * 384 + 32 + 319], 6, "blue background");
    // The board's rows have text pixels (light blue on blue) where the screen shows them.
    let row = |r: usize| -> usize {
        (0..8)
            .map(|y| {
                (0..320)
                    .filter(|&x| px[(35 + r * 8 + y) * 384 + 32 + x] == 14)
                    .count()
            })
            .sum()
    };
    assert!(row(2) > 100, "the board's 8th rank");
    assert_eq!(row(20), 0, "an empty row");
    // Same PNG from the library build of the png plugin, which replaces the built-in one.
    let lib = library("c64kit-display-png");
    let out = run(
        &dir,
        &[
            "--plugin",
            lib.to_str().unwrap(),
            "run",
            "ryg3.prg",
            "--input",
            ".b\n",
            "--screenshot",
            "board2.png",
            "-q",
        ],
    );
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert_eq!(
        std::fs::read(dir.join("board.png")).unwrap(),
        std::fs::read(dir.join("board2.png")).unwrap()
    );
    // Every display by name.
    for display in ["transcript", "terminal", "png", "html", "gif"] {
        let out = run(
            &dir,
            &["run", "ryg3.prg", "--input", ".b\n", "--display", display],
        );
        assert_eq!(out.code, 3, "{display}: {}", out.stderr);
        match display {
            "transcript" => assert!(out.stdout.contains("8 .C.C.C.C 8\n")),
            // Not a terminal here: the final screen is printed once, in colour.
            "terminal" => {
                assert!(out.stdout.contains("8 .C.C.C.C 8"), "{}", out.stdout);
                assert!(out.stdout.contains("\x1b[38;2;"), "colour escapes");
            }
            "png" => assert!(dir.join("ryg3.png").is_file()),
            "gif" => assert!(dir.join("ryg3.gif").is_file()),
            _ => {
                let html = std::fs::read_to_string(dir.join("ryg3.html")).unwrap();
                assert!(html.contains("<i class=\"f14\">8</i>"), "{html}");
                assert!(html.contains("input exhausted"), "{html}");
            }
        }
    }
    // Two at once, and a screenshot part way.
    let out = run(
        &dir,
        &[
            "run",
            "ryg3.prg",
            "--input",
            ".b\n",
            "--display",
            "transcript,html",
            "--html",
            "page.html",
            "--screenshot",
            "end.png",
            "--screenshot-at",
            "40000",
        ],
    );
    assert_eq!(out.code, 3, "{}", out.stderr);
    assert!(out.stdout.contains("8 .C.C.C.C 8"));
    for f in ["page.html", "end.png", "end-40000.png"] {
        assert!(dir.join(f).is_file(), "{f}: {}", out.stderr);
    }
}

#[test]
fn screenshots_use_the_character_set_the_vic_reads() {
    let dir = temp_dir("charsets");
    // A character set at $2000 whose space is a solid block.
    std::fs::write(
        dir.join("charset.asm"),
        "*=$c000\n lda #$18\n sta $d018\n ldx #7\n lda #$ff\nloop sta $2100,x\n dex\n bpl loop\n rts\n",
    )
    .unwrap();
    let out = run(&dir, &["run", "charset.asm", "--screenshot", "ram.png"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, _, px, _) = decode_png(&dir.join("ram.png"));
    assert_eq!(
        px[(35 + 190) * 384 + 32 + 300],
        14,
        "the space glyph from RAM is solid"
    );
    // A CHARGEN image given on the command line is used for the ROM character set.
    std::fs::write(dir.join("hi.prg"), hi_prg()).unwrap();
    let mut chargen = vec![0u8; 4096];
    chargen[0x20 * 8..0x20 * 8 + 8].copy_from_slice(&[0xFF; 8]);
    std::fs::write(dir.join("chargen.bin"), &chargen).unwrap();
    let out = run(
        &dir,
        &[
            "run",
            "hi.prg",
            "--chargen-rom",
            "chargen.bin",
            "--screenshot",
            "rom.png",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, _, px, _) = decode_png(&dir.join("rom.png"));
    assert_eq!(
        px[(35 + 190) * 384 + 32 + 300],
        14,
        "the image's space is solid"
    );
    let out = run(&dir, &["run", "hi.prg", "--screenshot", "own.png"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, _, px, _) = decode_png(&dir.join("own.png"));
    assert_eq!(
        px[(35 + 190) * 384 + 32 + 300],
        6,
        "our own font's space is empty"
    );
}

#[test]
fn html_page_renders_in_a_headless_browser() {
    let Some(browser) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            std::process::Command::new(b)
                .arg("--version")
                .output()
                .is_ok()
        })
    else {
        eprintln!("skipped: no chromium on this machine (apt-get install chromium to run it)");
        return;
    };
    let dir = temp_dir("browser");
    ryg3(&dir);
    let out = run(
        &dir,
        &[
            "run", "ryg3.prg", "--input", ".b\n", "--html", "b.html", "-q",
        ],
    );
    assert_eq!(out.code, 3, "{}", out.stderr);
    let page = dir.join("b.html");
    let url = format!("file://{}", page.display());
    let shot = dir.join("shot.png");
    let headless = |extra: &[String]| -> String {
        let out_file = dir.join("browser-out.txt");
        let mut child = std::process::Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .args(extra)
            .arg(&url)
            .stdout(std::fs::File::create(&out_file).unwrap())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // A browser that hangs must not hang the test suite.
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > std::time::Duration::from_secs(120) {
                let _ = child.kill();
                panic!("{browser} did not finish within 120 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        std::fs::read_to_string(&out_file).unwrap()
    };
    // The DOM the browser built holds the board's text.
    let dom = headless(&["--dump-dom".to_string()]);
    assert!(dom.contains("<i class=\"f14\">C</i>"), "{dom}");
    assert_eq!(dom.matches("class=\"row\"").count(), 25);
    // And it painted the border and background in their colours.
    headless(&[
        format!("--screenshot={}", shot.display()),
        "--window-size=800,600".to_string(),
    ]);
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let has = |rgb: [u8; 3]| {
        buf[..info.buffer_size()]
            .chunks(channels)
            .filter(|p| p[..3] == rgb)
            .count()
    };
    assert!(has([0x6C, 0x5E, 0xB5]) > 1000, "light blue border painted");
    assert!(has([0x35, 0x28, 0x79]) > 10000, "blue background painted");
}

#[test]
fn loaders_by_extension_and_content() {
    let dir = temp_dir("loaders");
    std::fs::write(dir.join("hi.prg"), hi_prg()).unwrap();
    std::fs::write(
        dir.join("tape.t64"),
        c64kit_loader_t64::build_image("MY TAPE", &[("HI", 0x0801, &hi_prg()[2..])]),
    )
    .unwrap();
    let disk = c64kit_loader_d64::build_image(
        "MY DISK",
        "42",
        &[("DATA", &[0x00, 0xC0, 1, 2, 3]), ("HI", &hi_prg())],
    );
    std::fs::write(dir.join("disk.d64"), &disk).unwrap();
    // A D64 by its size, whatever it is called.
    std::fs::write(dir.join("disk.img"), &disk).unwrap();
    // BASIC text whose REM holds the machine code SYS jumps to.
    std::fs::write(
        dir.join("hi.bas"),
        "10 sys2060:rem{$a9}{$48}{$20}{$d2}{$ff}{$a9}{$49}{$20}{$d2}{$ff}{$60}\n",
    )
    .unwrap();
    std::fs::write(dir.join("hi.asm"), "*=$c000\n lda #$48\n jsr $ffd2\n rts\n").unwrap();
    for (args, stderr) in [
        (vec!["run", "hi.prg"], ""),
        (
            vec!["run", "tape.t64"],
            "tape \"MY TAPE\", file \"HI\" $0801-$0818",
        ),
        (
            vec!["run", "disk.d64", "--entry", "h?"],
            "disk \"MY DISK\", file \"HI\"",
        ),
        (vec!["run", "disk.img", "--entry", "HI"], "disk \"MY DISK\""),
        (vec!["run", "hi.bas"], "BASIC text, 1 line(s)"),
        (vec!["run", "hi.asm", "-O", "asm.define=X=1"], "start $C000"),
        (vec!["run", "hi.bas", "--loader", "basic"], "BASIC text"),
    ] {
        let out = run(&dir, &args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        // RUN ends at BASIC's READY.; hi.asm, started at $C000 (a call), at its RTS.
        let want = if args[1] == "hi.asm" {
            "H\n".to_string()
        } else {
            format!("HI{READY}")
        };
        assert_eq!(out.stdout, want, "{args:?}");
        assert!(out.stderr.contains(stderr), "{args:?}: {}", out.stderr);
    }
    let out = run(&dir, &["dir", "disk.d64"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "0 \"MY DISK         \" 42 2A\n1    \"DATA\"             PRG\n1    \"HI\"               PRG\n662 BLOCKS FREE.\n"
    );
    let out = run(&dir, &["dir", "tape.t64"]);
    assert!(out.stdout.contains("\"HI\""), "{}", out.stdout);
    let out = run(&dir, &["dir", "hi.prg"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("hi.prg: the prg loader has no directory listing"),
        "{}",
        out.stderr
    );
    // The first PRG on the disk is DATA, which loads at $C000: not a BASIC program.
    let out = run(&dir, &["run", "disk.d64"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("disk.d64: machine code at $C000, not a BASIC program"),
        "{}",
        out.stderr
    );
}

#[test]
fn malformed_images_are_clear_errors() {
    let dir = temp_dir("malformed");
    let mut disk = c64kit_loader_d64::build_image("D", "01", &[("HI", &hi_prg())]);
    // Point the directory's first file at track 99.
    let dir_sector = ((1..18)
        .map(|t| c64kit_loader_d64::sectors_on(t) as usize)
        .sum::<usize>()
        + 1)
        * 256;
    disk[dir_sector + 3] = 99;
    std::fs::write(dir.join("bad.d64"), &disk).unwrap();
    std::fs::write(dir.join("short.d64"), [0u8; 1000]).unwrap();
    std::fs::write(
        dir.join("bad.t64"),
        b"C64S tape image file\0\0\0\0\0\0\0\0\0\0\0\0\0\x01\x01\x05\x00\x05\x00",
    )
    .unwrap();
    std::fs::write(dir.join("bad.asm"), "*=$c000\n lda #\n").unwrap();
    std::fs::write(dir.join("bad.bas"), "sys\n").unwrap();
    for (file, message) in [
        (
            "bad.d64",
            "bad.d64: file \"HI\": track 99 is out of range (the disk has tracks 1-35)",
        ),
        ("short.d64", "short.d64: not a D64 disk image: 1000 bytes"),
        ("bad.t64", "bad.t64: not a T64 tape image"),
        ("bad.asm", "bad.asm:2: "),
        ("bad.bas", "bad.bas: BASIC source line 1"),
    ] {
        let out = run(&dir, &["run", file]);
        assert_eq!(out.code, 1, "{file}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{file}: {}", out.stderr);
    }
    let out = run(&dir, &["dir", "short.d64"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("short.d64: not a D64 disk image"),
        "{}",
        out.stderr
    );
}

#[test]
fn plugins_are_listed_and_loaded_from_the_command_line_and_config() {
    let dir = temp_dir("listing");
    let out = run(&dir, &["plugins"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for name in [
        "transcript",
        "terminal",
        "png",
        "html",
        "gif",
        "prg",
        "basic",
        "asm",
        "t64",
        "d64",
    ] {
        assert!(
            out.stdout
                .lines()
                .any(|l| l.split_whitespace().nth(1) == Some(name)
                    && l.contains("built-in")
                    && l.contains(env!("CARGO_PKG_VERSION"))),
            "{name}: {}",
            out.stdout
        );
    }
    let panicky = library("c64kit-plugin-panicky");
    let html = library("c64kit-display-html");
    let out = run(
        &dir,
        &[
            "--plugin",
            panicky.to_str().unwrap(),
            "--plugin",
            html.to_str().unwrap(),
            "plugins",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains(&format!("panicky-loader  0.1.0    {}", panicky.display())),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("(replaced by a loaded plugin)"),
        "{}",
        out.stdout
    );
    // The same from c64kit.toml, with the default display and options.
    std::fs::write(dir.join("hi.prg"), hi_prg()).unwrap();
    std::fs::write(
        dir.join("c64kit.toml"),
        format!(
            "plugins = [{:?}]\ndisplay = [\"transcript\", \"png\"]\nmax_cycles = 1000000\n\
             [plugin.png]\noutput = \"cfg.png\"\nscale = 2\n",
            html.display().to_string()
        ),
    )
    .unwrap();
    let out = run(&dir, &["plugins"]);
    assert!(
        out.stdout.contains(&html.display().to_string()),
        "{}",
        out.stdout
    );
    let out = run(&dir, &["run", "hi.prg"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, format!("HI{READY}").as_str()),
        "{}",
        out.stderr
    );
    let (w, h, _, _) = decode_png(&dir.join("cfg.png"));
    assert_eq!((w, h), (768, 544));
    // --config names another file; a broken one is an error naming it.
    std::fs::write(dir.join("other.toml"), "display = \n").unwrap();
    let out = run(&dir, &["--config", "other.toml", "run", "hi.prg"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.starts_with("c64kit: other.toml: "),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("line 1"), "{}", out.stderr);
    std::fs::write(dir.join("c64kit.toml"), "plugins = [\"nowhere.so\"]\n").unwrap();
    let out = run(&dir, &["run", "hi.prg"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("nowhere.so: cannot read"),
        "{}",
        out.stderr
    );
}

#[test]
fn bad_plugins_fail_the_run_without_aborting() {
    let dir = temp_dir("bad");
    std::fs::write(dir.join("hi.prg"), hi_prg()).unwrap();
    let wrong = library("c64kit-plugin-wrong-abi");
    let out = run(
        &dir,
        &["--plugin", wrong.to_str().unwrap(), "run", "hi.prg"],
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(&format!(
            "{}: `c64kit_plugin_entry_wrong_abi`: it speaks c64kit plugin ABI 4; this c64kit \
             speaks 5: rebuild it against c64kit-plugin-api {} (ABI 5), whose displays and \
             audio outputs get the machine's clock (cycles per second and per frame, PAL or \
             NTSC) with each frame and at the end of the run",
            wrong.display(),
            env!("CARGO_PKG_VERSION")
        )),
        "{}",
        out.stderr
    );
    std::fs::write(dir.join("fake.so"), "not a library").unwrap();
    let out = run(&dir, &["--plugin", "fake.so", "plugins"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("fake.so: not a shared library"),
        "{}",
        out.stderr
    );
    let panicky = library("c64kit-plugin-panicky");
    let p = panicky.to_str().unwrap();
    // A loop that runs past a few frame boundaries after printing.
    std::fs::write(
        dir.join("loop.bin"),
        [0xA9, 0x41, 0x20, 0xD2, 0xFF, 0xE8, 0x4C, 0x05, 0xC0],
    )
    .unwrap();
    for call in ["create", "chrout", "frame", "finish"] {
        let opt = format!("panicky.panic_in={call}");
        let out = run(
            &dir,
            &[
                "--plugin",
                p,
                "run",
                "--load",
                "$c000",
                "loop.bin",
                "--max-cycles",
                "100000",
                "--display",
                "panicky",
                "-O",
                &opt,
            ],
        );
        assert_eq!(out.code, 1, "{call}: {}", out.stderr);
        // Only c64kit's message naming the plugin: not Rust's report of the panic.
        assert_eq!(
            out.stderr,
            format!("c64kit: display plugin panicky ({p}) failed: panicked: panicky display: deliberate panic in {call}\n"),
            "{call}"
        );
    }
    let out = run(
        &dir,
        &["--plugin", p, "run", "hi.prg", "--loader", "panicky-loader"],
    );
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        format!("c64kit: hi.prg: loader plugin panicky-loader ({p}) panicked: panicky loader: deliberate panic in load\n"),
    );
    let out = run(&dir, &["run", "hi.prg", "--display", "sixel"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(
            "no display named \"sixel\" (available: gif, html, png, terminal, transcript"
        ),
        "{}",
        out.stderr
    );
    let out = run(
        &dir,
        &["run", "hi.prg", "-O", "png.colour=red", "--display", "png"],
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("unknown option \"colour\""),
        "{}",
        out.stderr
    );
    // play needs a terminal.
    let out = run(&dir, &["play", "hi.prg"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("play needs a terminal"),
        "{}",
        out.stderr
    );
}
