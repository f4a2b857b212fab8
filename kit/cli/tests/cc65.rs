//! C programs built with cc65 (`cl65 -t c64`) on c64kit's own KERNAL: small programs of ours
//! (tests/cc65/*.c: conio, stdio, files on drive 8, the joystick and mouse drivers, TGI, the
//! exit status) and every sample of cc65's that builds for the C64, each checked on its
//! screen, picture, files or exit status against what a real C64 shows. Everything is built
//! once, into a temporary folder (never into the checkout). Without cl65 the tests say they
//! skipped; CI's .ci/run installs Debian's cc65, whose samples are beside its target folder.

mod common;

use common::{c64kit, decode_png, temp_dir};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Where the 320x200 text area starts in a screenshot (VICE's screenshot area), and its width.
const X0: usize = 32;
const Y0: usize = 35;
const WIDTH: usize = 384;

/// The row BASIC's READY. leaves on the screen when a program returns into it (after a blank
/// row when the program's text ended with a new line), in the lower-case set cc65's start-up
/// switches to.
const READY: &str = "ready.";

/// Our programs (tests/cc65/NAME.c).
const OURS: [&str; 7] = [
    "conio", "stdio", "files", "joystick", "mouse", "tgi", "status",
];
/// cc65's samples that build for the C64 with its standard configuration (the makefile's
/// EXELIST_c64 without the two overlay demos, built apart).
const SAMPLES: [&str; 11] = [
    "ascii",
    "enumdevdir",
    "fire",
    "gunzip65",
    "hello",
    "mandelbrot",
    "mousedemo",
    "nachtm",
    "plasma",
    "sieve",
    "tgidemo",
];

struct Built {
    /// The PRGs: NAME.prg; the overlay demos in folders of their own with their overlays.
    dir: PathBuf,
    /// cc65's loadable drivers for the C64 (target/c64/drv).
    drivers: PathBuf,
    /// cc65's samples were found and built.
    samples: bool,
}

fn cl65(dir: &Path, args: &[&str]) {
    let out = Command::new("cl65")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("cl65 runs");
    assert!(
        out.status.success(),
        "cl65 {} (in {}):\n{}",
        args.join(" "),
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn copy_files(from: &Path, to: &Path, ext: &[&str]) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let wanted = path
            .extension()
            .is_some_and(|e| ext.iter().any(|x| e == *x));
        if path.is_file() && wanted {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// Builds everything once; None (and a note) without cl65.
fn built() -> Option<&'static Built> {
    static BUILT: OnceLock<Option<Built>> = OnceLock::new();
    let built = BUILT.get_or_init(build).as_ref();
    if built.is_none() {
        eprintln!(
            "SKIPPED: cc65's cl65 is not installed, so no C program ran (apt-get install cc65)"
        );
    }
    built
}

fn build() -> Option<Built> {
    let target = Command::new("cl65")
        .arg("--print-target-path")
        .output()
        .ok()?;
    if !target.status.success() {
        return None;
    }
    let target = PathBuf::from(String::from_utf8_lossy(&target.stdout).trim());
    let dir = temp_dir("cc65");
    // cl65 writes its object files beside the sources: it compiles copies.
    let ours = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cc65");
    copy_files(&ours, &dir, &["c", "s", "gz", "txt"]);
    for name in OURS {
        cl65(
            &dir,
            &[
                "-t",
                "c64",
                "-O",
                "-o",
                &format!("{name}.prg"),
                &format!("{name}.c"),
            ],
        );
    }
    // The same conio program on cc65's 80-column software screen (a bitmap).
    cl65(
        &dir,
        &[
            "-t",
            "c64",
            "-O",
            "-o",
            "conio80.prg",
            "conio.c",
            "c64-soft80.o",
        ],
    );
    let from = target.parent().map(|p| p.join("samples"));
    let samples = from.as_ref().is_some_and(|s| s.join("hello.c").is_file());
    if samples {
        let from = from.unwrap();
        let src = dir.join("samples");
        copy_files(&from, &src, &["c"]);
        copy_files(&from.join("tutorial"), &src.join("tutorial"), &["c", "s"]);
        // The makefile's options.
        for name in SAMPLES {
            let out = format!("../{name}.prg");
            cl65(
                &src,
                &[
                    "-t",
                    "c64",
                    "-Ors",
                    "--codesize",
                    "500",
                    "-o",
                    &out,
                    &format!("{name}.c"),
                ],
            );
        }
        for (name, source) in [("multdemo", "multidemo.c"), ("ovrldemo", "overlaydemo.c")] {
            std::fs::create_dir_all(dir.join(name)).unwrap();
            let out = format!("../{name}/{name}");
            cl65(
                &src,
                &[
                    "-t",
                    "c64",
                    "-Ors",
                    "-C",
                    "c64-overlay.cfg",
                    "-o",
                    &out,
                    source,
                ],
            );
        }
        cl65(
            &src.join("tutorial"),
            &["-t", "c64", "-o", "../../tutorial.prg", "hello.c", "text.s"],
        );
        // enumdevdir with cc65's later fix of devicestr (see tests/cc65/devicestr.s).
        cl65(
            &src,
            &[
                "-t",
                "c64",
                "-O",
                "-o",
                "../enumfixed.prg",
                "enumdevdir.c",
                "../devicestr.s",
            ],
        );
    } else {
        eprintln!(
            "SKIPPED: cc65's samples are not beside its target folder {} (Debian's cc65 has \
             them in /usr/share/cc65/samples), so they did not run",
            target.display()
        );
    }
    Some(Built {
        dir,
        drivers: target.join("c64/drv"),
        samples,
    })
}

impl Built {
    fn prg(&self, name: &str) -> String {
        self.dir.join(format!("{name}.prg")).display().to_string()
    }

    /// The samples, or None (they were not found: the note is printed once).
    fn samples(&self) -> Option<&Self> {
        self.samples.then_some(self)
    }

    /// A drive folder for one test holding these of cc65's drivers (kind/name).
    fn drive_with(&self, test: &str, drivers: &[&str]) -> PathBuf {
        let d = temp_dir(test);
        for driver in drivers {
            let from = self.drivers.join(driver);
            std::fs::copy(&from, d.join(from.file_name().unwrap())).unwrap();
        }
        d
    }
}

/// What a run left: exit code, the screen rows (`--dump-screen`), stderr.
struct Run {
    code: i32,
    screen: Vec<String>,
    stderr: String,
}

impl Run {
    fn row(&self, n: usize) -> &str {
        self.screen.get(n).map_or("", String::as_str)
    }

    /// The rows that are not empty, in order.
    fn text(&self) -> Vec<&str> {
        self.screen
            .iter()
            .map(String::as_str)
            .filter(|r| !r.trim().is_empty())
            .collect()
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "exit {}, screen:", self.code)?;
        for r in &self.screen {
            writeln!(f, "|{r}|")?;
        }
        write!(f, "stderr:\n{}", self.stderr)
    }
}

/// `c64kit run` in `dir` with these arguments, the screen dumped (transcript quiet).
fn run(dir: &Path, args: &[&str]) -> Run {
    let out = c64kit()
        .current_dir(dir)
        .arg("run")
        .args(args)
        .args(["--dump-screen", "-q"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    Run {
        code: out.status.code().expect("an exit code"),
        screen: stdout
            .lines()
            .filter_map(|l| l.strip_prefix('|').and_then(|l| l.strip_suffix('|')))
            .map(str::to_string)
            .collect(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A screenshot's palette indices (the C64's colour numbers).
fn picture(path: &Path) -> Vec<u8> {
    let (w, h, px, _) = decode_png(path);
    assert_eq!((w, h), (WIDTH, 272));
    px
}

/// The colour at (x, y) of the 320x200 area.
fn at(px: &[u8], x: usize, y: usize) -> u8 {
    px[(Y0 + y) * WIDTH + X0 + x]
}

/// The colours in the character cell at column `col`, row `row`, and how often each is.
fn cell(px: &[u8], col: usize, row: usize) -> Vec<(u8, usize)> {
    let mut count = [0usize; 16];
    for y in 0..8 {
        for x in 0..8 {
            count[at(px, col * 8 + x, row * 8 + y) as usize & 15] += 1;
        }
    }
    (0..16u8)
        .filter(|&c| count[c as usize] > 0)
        .map(|c| (c, count[c as usize]))
        .collect()
}

fn colours(px: &[u8], col: usize, row: usize) -> BTreeSet<u8> {
    cell(px, col, row).into_iter().map(|(c, _)| c).collect()
}

/// Text as cc65 writes it into files on a CBM (its character set): a-z as PETSCII's
/// unshifted letters, A-Z as the shifted ones, '\n' as RETURN.
fn petscii(text: &str) -> Vec<u8> {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' => b - 0x20,
            b'A'..=b'Z' => b + 0x80,
            b'\n' => 0x0D,
            b => b,
        })
        .collect()
}

const BLACK: u8 = 0;
const WHITE: u8 = 1;
const RED: u8 = 2;
const GREEN: u8 = 5;
const BLUE: u8 = 6;
const YELLOW: u8 = 7;
const ORANGE: u8 = 8;

#[test]
fn conio_puts_text_and_colours_where_the_program_says() {
    let Some(b) = built() else { return };
    let dir = temp_dir("cc65-conio");
    // Three keys, then RETURN: main returns how many came before it.
    let r = run(
        &dir,
        &[
            &b.prg("conio"),
            "--input",
            "a{SHIFT-B}1{RETURN}",
            "--exit-status",
            "--screenshot",
            "conio.png",
        ],
    );
    assert_eq!(r.code, 3, "{r}");
    assert_eq!(r.row(1), "  gotoxy 2,1                  X", "{r}");
    assert_eq!(r.row(3), "  Reverse", "{r}");
    assert_eq!(r.row(5), format!("  {}", "─".repeat(10)), "{r}");
    for row in [6, 8] {
        assert_eq!(r.row(row), " │", "{r}");
    }
    assert_eq!(r.row(7), " │  12+30=42, Mixed Case", "{r}");
    assert_eq!(r.row(9), "    at 4,9", "{r}");
    // cgetc gives PETSCII: A, shifted B, 1.
    assert_eq!(r.row(11), "keys: 41 c2 31", "{r}");
    let px = picture(&dir.join("conio.png"));
    assert_eq!(px[0], RED, "the border");
    assert_eq!(
        colours(&px, 20, 20),
        BTreeSet::from([BLUE]),
        "the background"
    );
    for col in (2..12).filter(|&c| c != 8) {
        assert_eq!(
            colours(&px, col, 1),
            BTreeSet::from([BLUE, YELLOW]),
            "yellow text, column {col}"
        );
    }
    assert_eq!(
        colours(&px, 30, 1),
        BTreeSet::from([BLUE, YELLOW]),
        "cputcxy's X"
    );
    for col in 2..9 {
        let c = cell(&px, col, 3);
        let green = c.iter().find(|(c, _)| *c == GREEN).map_or(0, |g| g.1);
        assert!(
            green > 32,
            "reversed green text: mostly green, column {col}: {c:?}"
        );
    }
    for col in 2..12 {
        assert!(
            colours(&px, col, 5).contains(&WHITE),
            "chline, column {col}"
        );
    }
    for row in 6..9 {
        assert!(colours(&px, 1, row).contains(&WHITE), "cvline, row {row}");
    }
}

#[test]
fn cgetc_after_the_last_scripted_key_ends_the_run_as_input_exhausted() {
    // conio waits for RETURN with cgetc, which polls the keyboard buffer's count itself
    // (never GETIN): with the script used up and nothing else that could put a key there,
    // the run ends as GETIN's and CHRIN's do, not at the cycle budget.
    let Some(b) = built() else { return };
    let dir = temp_dir("cc65-cgetc-exhausted");
    for keys in ["a{SHIFT-B}", ""] {
        let r = run(&dir, &[&b.prg("conio"), "--input", keys]);
        assert_eq!(r.code, 3, "{keys:?}: {r}");
        assert!(r.stderr.contains("input exhausted"), "{keys:?}: {r}");
    }
    // A key still to come is waited for.
    let r = run(
        &dir,
        &[&b.prg("conio"), "--input", "a{RETURN}", "--exit-status"],
    );
    assert_eq!(r.code, 1, "{r}");
}

#[test]
fn conio_on_cc65s_80_column_screen() {
    let Some(b) = built() else { return };
    let dir = temp_dir("cc65-conio80");
    let prg = b.prg("conio80");
    // Before RETURN, with the picture; soft80 draws 4-pixel characters into a bitmap.
    let r = run(
        &dir,
        &[
            &prg,
            "--input",
            "a{SHIFT-B}1",
            "--max-cycles",
            "2000000",
            "--screenshot",
            "c.png",
        ],
    );
    // cgetc waits for RETURN after the script's last key: input exhausted.
    assert_eq!(r.code, 3, "{r}");
    let px = picture(&dir.join("c.png"));
    assert_eq!(px[0], RED, "the border");
    let colours_in = |x: std::ops::Range<usize>, row: usize| -> BTreeSet<u8> {
        x.flat_map(|x| (row * 8..row * 8 + 8).map(move |y| (x, y)))
            .map(|(x, y)| at(&px, x, y))
            .collect()
    };
    assert_eq!(
        colours_in(8..48, 1),
        BTreeSet::from([BLUE, YELLOW]),
        "gotoxy 2,1"
    );
    assert_eq!(
        colours_in(120..124, 1),
        BTreeSet::from([BLUE, YELLOW]),
        "cputcxy's X at 30"
    );
    assert!(colours_in(8..36, 3).contains(&GREEN), "Reverse");
    assert_eq!(
        colours_in(0..56, 11),
        BTreeSet::from([BLUE, WHITE]),
        "keys: 41 c2 31"
    );
    assert_eq!(
        colours_in(60..320, 11),
        BTreeSet::from([BLUE]),
        "nothing after the keys"
    );
    // RETURN: three keys came before it.
    let r = run(
        &dir,
        &[&prg, "--input", "a{SHIFT-B}1{RETURN}", "--exit-status"],
    );
    assert_eq!(r.code, 3, "{r}");
}

#[test]
fn stdio_reads_the_lines_typed() {
    let Some(b) = built() else { return };
    let dir = temp_dir("cc65-stdio");
    let r = run(
        &dir,
        &[
            &b.prg("stdio"),
            "--input",
            "{SHIFT-W}orld{RETURN}6 7{RETURN}",
            "--exit-status",
        ],
    );
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        r.text(),
        [
            "Name? World",
            "Hello, World!",
            "Two numbers? 6 7",
            "6*7=42",
            READY
        ],
        "{r}"
    );
}

#[test]
fn files_on_drive_8_are_written_and_read() {
    let Some(b) = built() else { return };
    let drive = temp_dir("cc65-files");
    std::fs::write(drive.join("given"), petscii("Given File\n")).unwrap();
    let r = run(
        &drive,
        &[&b.prg("files"), "--drive-dir", ".", "--exit-status"],
    );
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        r.text(),
        [
            "read: Line one",
            "read: Line Two",
            "bytes: 256 back, same",
            "given: Given File",
            READY
        ],
        "{r}"
    );
    // The drive folder holds what a 1541 would: the text in PETSCII, the bytes as written.
    assert_eq!(
        std::fs::read(drive.join("notes")).unwrap(),
        petscii("Line one\nLine Two\n")
    );
    let bytes: Vec<u8> = (0..=255u8).rev().collect();
    assert_eq!(std::fs::read(drive.join("bytes")).unwrap(), bytes);
}

#[test]
fn the_exit_status_is_mains_return_value_or_exits_argument() {
    let Some(b) = built() else { return };
    let dir = temp_dir("cc65-status");
    let prg = b.prg("status");
    let r = run(&dir, &[&prg, "--input", "{RETURN}", "--exit-status"]);
    assert_eq!(r.code, 3, "return 3: {r}");
    assert!(r.stderr.contains("returned to BASIC (ST = 3)"), "{r}");
    let r = run(&dir, &[&prg, "--input", "x", "--exit-status"]);
    assert_eq!(r.code, 42, "exit(42): {r}");
    let r = run(&dir, &[&prg, "--input", "x"]);
    assert_eq!(r.code, 0, "without --exit-status: {r}");
    assert!(r.stderr.contains("returned to BASIC (ST = 42)"), "{r}");
}

#[test]
fn the_joystick_driver_reads_the_scripted_joystick() {
    let Some(b) = built() else { return };
    let dir = temp_dir("cc65-joystick");
    let script = "{WAIT 50000}{JOY2 UP 3f}{JOY2 LEFT 3f}{JOY2 DOWN RIGHT 3f}{JOY2 FIRE 3f}";
    let r = run(
        &dir,
        &[&b.prg("joystick"), "--input", script, "--exit-status"],
    );
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        r.text(),
        ["up", "left", "down", "right", "fire", READY],
        "{r}"
    );
}

#[test]
fn the_mouse_driver_follows_the_scripted_mouse() {
    let Some(b) = built() else { return };
    let dir = temp_dir("cc65-mouse");
    // 20 right and 10 up, then 7 left; the screen's y grows downwards.
    let script = "{WAIT 50000}{MOUSE1 20 10}{WAIT 20000}{MOUSE1 -7 0}{WAIT 20000}{MOUSE1 LEFT}";
    let r = run(&dir, &[&b.prg("mouse"), "--input", script, "--exit-status"]);
    assert_eq!(r.code, 0, "{r}");
    let numbers = |row: &str, word: &str| -> (i32, i32) {
        let rest = row
            .strip_prefix(word)
            .unwrap_or_else(|| panic!("{word}: {r}"));
        let v: Vec<i32> = rest
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect();
        (v[0], v[1])
    };
    let (x, y) = numbers(r.row(0), "start ");
    assert_eq!(numbers(r.row(1), "left "), (x + 13, y - 10), "{r}");
}

#[test]
fn tgi_draws_into_the_bitmap() {
    let Some(b) = built() else { return };
    let dir = temp_dir("cc65-tgi");
    let r = run(&dir, &[&b.prg("tgi"), "--screenshot", "tgi.png"]);
    // It ends in a loop of its own with the picture on show.
    assert_eq!(r.code, 6, "{r}");
    let px = picture(&dir.join("tgi.png"));
    for (x, y) in [
        (0, 0),
        (319, 199),
        (300, 10),
        (100, 50),
        (149, 99),
        (125, 75),
    ] {
        assert_eq!(at(&px, x, y), WHITE, "({x}, {y})");
    }
    for (x, y) in [
        (319, 0),
        (0, 199),
        (301, 10),
        (299, 10),
        (300, 9),
        (300, 11),
        (99, 75),
        (150, 75),
    ] {
        assert_eq!(at(&px, x, y), BLACK, "({x}, {y})");
    }
    for y in 50..100 {
        for x in 100..150 {
            assert_eq!(at(&px, x, y), WHITE, "the bar at ({x}, {y})");
        }
    }
}

#[test]
fn sample_hello_draws_its_frame_and_clears_at_a_key() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let dir = temp_dir("cc65-hello");
    let r = run(
        &dir,
        &[
            &b.prg("hello"),
            "--max-cycles",
            "500000",
            "--screenshot",
            "hello.png",
        ],
    );
    assert_eq!(r.code, 3, "waiting for a key nobody types: {r}");
    let line = "─".repeat(38);
    assert_eq!(r.row(0), format!("┌{line}┐"), "{r}");
    assert_eq!(r.row(24), format!("└{line}┘"), "{r}");
    let empty = format!("│{}│", " ".repeat(38));
    for row in (1..24).filter(|&row| row != 12) {
        assert_eq!(r.row(row), empty, "row {row}: {r}");
    }
    // "Hello world!" in the middle: column (40 - 12) / 2, row 25 / 2.
    assert_eq!(
        r.row(12),
        format!("│{}Hello world!{}│", " ".repeat(13), " ".repeat(13)),
        "{r}"
    );
    let px = picture(&dir.join("hello.png"));
    assert_eq!(px[0], BLACK, "black border");
    assert_eq!(
        colours(&px, 14, 12),
        BTreeSet::from([BLACK, WHITE]),
        "white on black"
    );
    let r = run(&dir, &[&b.prg("hello"), "--input", "x", "--exit-status"]);
    assert_eq!(r.code, 0, "{r}");
    // A clear screen at the end, then BASIC's CR LF READY. below the home row.
    assert_eq!(r.text(), [READY], "a clear screen at the end: {r}");
    assert_eq!(r.row(1), READY, "{r}");
}

#[test]
fn sample_ascii_shows_the_codes_of_the_keys_typed() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let dir = temp_dir("cc65-ascii");
    let r = run(
        &dir,
        &[
            &b.prg("ascii"),
            "--input",
            "a{SHIFT-B}1{SHIFT-Q}",
            "--exit-status",
        ],
    );
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        r.text(),
        [
            "Type characters to see",
            "their hexadecimal code",
            "numbers - 'Q' quits:",
            "a=$41 B=$c2 1=$31 Q=$d1",
            READY,
        ],
        "{r}"
    );
    assert_eq!(r.row(3), "", "{r}");
}

/// The primes below `n`.
fn primes(n: usize) -> Vec<usize> {
    (2..n)
        .filter(|&p| (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0))
        .collect()
}

#[test]
fn sample_sieve_counts_its_time_and_lists_the_primes() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let dir = temp_dir("cc65-sieve");
    let r = run(
        &dir,
        &[
            &b.prg("sieve"),
            "--input",
            "{WAIT 3500000}q",
            "--exit-status",
        ],
    );
    assert_eq!(r.code, 0, "{r}");
    let text = r.text();
    assert_eq!(
        text[..3],
        [
            "Sieve benchmark - calculating primes",
            "between 2 and 16384",
            "Please wait patiently ..."
        ],
        "{r}"
    );
    // The jiffy clock's count of the sieve's time (the run took 3.5 s in all).
    let secs: f64 = text[3]
        .strip_prefix("Time used: ")
        .and_then(|t| t.strip_suffix(" seconds"))
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{r}"));
    assert!((1.0..3.5).contains(&secs), "{secs} s: {r}");
    assert_eq!(text[4], "Q to quit, any other key for list", "{r}");
    // Another key lists the primes, 23 a page.
    let r = run(
        &dir,
        &[
            &b.prg("sieve"),
            "--input",
            "{WAIT 3500000}x",
            "--max-cycles",
            "6000000",
        ],
    );
    let text = r.text();
    let page: Vec<String> = primes(100)[..23].iter().map(|p| format!("{p:4}")).collect();
    let n = text.len();
    assert!(n >= 24, "{r}");
    assert_eq!(text[n - 24..n - 1], page, "{r}");
    assert_eq!(text[n - 1], "Q to quit, any other key continues", "{r}");
}

/// "time  : 2.6s", "frames: 4", "fps   : 1.5" as fire and plasma show them: time, frames, fps.
fn stats(r: &Run) -> (f64, f64, f64) {
    let value = |row: usize, label: &str| -> f64 {
        r.row(row)
            .strip_prefix(label)
            .map(|v| v.trim_end_matches('s'))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("row {row}, {label:?}: {r}"))
    };
    (
        value(0, "time  : "),
        value(1, "frames: "),
        value(2, "fps   : "),
    )
}

/// A demo that draws until a key, in `ink` on `paper`: a key shows its statistics, which
/// must agree with each other; the picture at 2.6 M cycles (the demo's own, after the VIC-II
/// moved to its bank) in the 320x200 area, for the caller to check.
fn effect_demo(name: &str, paper: u8, ink: u8) -> Option<Vec<u8>> {
    let b = built().and_then(Built::samples)?;
    let dir = temp_dir(&format!("cc65-{name}"));
    let r = run(
        &dir,
        &[
            &b.prg(name),
            "--input",
            "{WAIT 3000000}x{WAIT 200000}y",
            "--screenshot",
            "shot.png",
            "--screenshot-at",
            "2600000",
            "-O",
            "png.live=true",
            "--exit-status",
        ],
    );
    assert_eq!(r.code, 0, "{r}");
    let (time, frames, fps) = stats(&r);
    assert!(frames >= 2.0 && time > 0.0, "{r}");
    assert!((fps - frames / time).abs() < 0.1 * fps + 0.2, "{r}");
    let px = picture(&dir.join("shot-2600000.png"));
    assert_eq!(px[0], paper, "the border");
    let area: Vec<u8> = (0..200)
        .flat_map(|y| (0..320).map(move |x| (x, y)))
        .map(|(x, y)| at(&px, x, y))
        .collect();
    assert!(area.iter().all(|&c| c == ink || c == paper), "two colours");
    Some(area)
}

#[test]
fn sample_fire_burns_until_a_key() {
    // Yellow flames from the bottom up on black: the top third black, the bottom line burns.
    let Some(area) = effect_demo("fire", BLACK, YELLOW) else {
        return;
    };
    assert!(area[..320 * 64].iter().all(|&c| c == BLACK));
    let bottom = area[320 * 184..].iter().filter(|&&c| c == YELLOW).count();
    assert!(
        bottom > 320 * 16 / 4,
        "{bottom} yellow pixels in the bottom two rows"
    );
}

#[test]
fn sample_plasma_until_a_key() {
    // Black dithered blobs on blue all over; not the stripes of RAM's power-on pattern the
    // VIC-II shows in the moment it moves to the demo's bank, before the first frame.
    let Some(area) = effect_demo("plasma", BLUE, BLACK) else {
        return;
    };
    let inked = area.iter().filter(|&&c| c == BLACK).count();
    assert!(inked > 6_400 && inked < 57_600, "{inked} pixels of ink");
    let same = (0..199)
        .filter(|&y| area[y * 320..][..320] == area[(y + 1) * 320..][..320])
        .count();
    assert!(same < 20, "{same} pixel rows like the next");
}

#[test]
fn sample_nachtm_shows_its_page_while_the_music_plays() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let dir = temp_dir("cc65-nachtm");
    let r = run(&dir, &[&b.prg("nachtm"), "--max-cycles", "3000000"]);
    assert_eq!(r.code, 4, "{r}");
    // The running time in the top line.
    assert!(
        r.row(0).starts_with("┌00:0") && r.row(0).ends_with('┐'),
        "{r}"
    );
    for (row, text) in [
        (2, "Wolfgang Amadeus Mozart"),
        (4, "\"Eine kleine Nachtmusik\""),
        (5, "(KV 525)"),
        (9, "Ported to the SID in 1987 by"),
        (19, "Ullrich von Bassewitz"),
        (23, "Press any key to quit..."),
    ] {
        let shown = r.row(row);
        let col = (40 - text.len()) / 2;
        assert_eq!(
            shown
                .chars()
                .skip(col)
                .take(text.chars().count())
                .collect::<String>(),
            text,
            "{r}"
        );
    }
    assert_eq!(r.row(7), format!("├{}┤", "─".repeat(38)), "{r}");
    let r = run(
        &dir,
        &[
            &b.prg("nachtm"),
            "--input",
            "{WAIT 2000000}x",
            "--exit-status",
        ],
    );
    assert_eq!(r.code, 0, "{r}");
    // A clear screen at the end, then BASIC's CR LF READY. below the home row.
    assert_eq!(r.text(), [READY], "a clear screen at the end: {r}");
    assert_eq!(r.row(1), READY, "{r}");
}

#[test]
fn sample_mandelbrot_loads_its_driver_and_draws() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let drive = b.drive_with("cc65-mandelbrot", &["tgi/c64-hi.tgi"]);
    let r = run(
        &drive,
        &[
            &b.prg("mandelbrot"),
            "--drive-dir",
            ".",
            "--max-cycles",
            "15000000",
            "--screenshot",
            "m.png",
        ],
    );
    assert_eq!(r.code, 4, "it draws for minutes: {r}");
    let px = picture(&drive.join("m.png"));
    // The top line is far from the set (every point escapes: white), the bottom not drawn yet.
    assert!((0..320).all(|x| at(&px, x, 0) == WHITE), "{r}");
    assert!((0..320).all(|x| at(&px, x, 199) == BLACK), "{r}");
    // Without the driver on the disk: the error, and exit(EXIT_FAILURE).
    let empty = temp_dir("cc65-mandelbrot-empty");
    let r = run(
        &empty,
        &[&b.prg("mandelbrot"), "--drive-dir", ".", "--exit-status"],
    );
    assert_eq!(r.code, 1, "{r}");
    assert!(r.stderr.contains("returned to BASIC (ST = 1)"), "{r}");
    assert_eq!(
        r.text()[1..],
        [
            "Error #2 initializing graphics.",
            "Cannot load driver",
            READY
        ],
        "{r}"
    );
}

#[test]
fn sample_mousedemo_follows_the_mouse() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let drive = b.drive_with("cc65-mousedemo", &["mou/c64-1351.mou"]);
    let prg = b.prg("mousedemo");
    let position = |r: &Run| -> (i32, i32) {
        let find = |label: &str| {
            r.screen
                .iter()
                .find_map(|l| l.strip_prefix(label))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or_else(|| panic!("{label}: {r}"))
        };
        (find(" X  ="), find(" Y  ="))
    };
    let r = run(
        &drive,
        &[
            &prg,
            "--drive-dir",
            ".",
            "--input",
            "y",
            "--max-cycles",
            "400000",
        ],
    );
    let (x, y) = position(&r);
    assert!(r.text()[0].contains("d)ebug  h)ide   q)uit"), "{r}");
    let script = "y{WAIT 500000}{MOUSE1 20 10}{WAIT 100000}q";
    let r = run(
        &drive,
        &[&prg, "--drive-dir", ".", "--input", script, "--exit-status"],
    );
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(position(&r), (x + 20, y - 10), "{r}");
    assert!(r.text().ends_with(&["Goodbye!", READY]), "{r}");
}

#[test]
fn sample_tgidemo_draws_its_four_pictures() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let drive = b.drive_with("cc65-tgidemo", &["tgi/c64-hi.tgi"]);
    let script = "y{WAIT 4000000}x{WAIT 3000000}x{WAIT 3000000}x{WAIT 3000000}x";
    let r = run(
        &drive,
        &[
            &b.prg("tgidemo"),
            "--drive-dir",
            ".",
            "--input",
            script,
            "--screenshot",
            "shot.png",
            "--screenshot-at",
            "3000000",
            "--exit-status",
        ],
    );
    assert_eq!(r.code, 0, "{r}");
    assert!(r.text().ends_with(&["Done", READY]), "{r}");
    assert!(r.text().contains(&"OK. Please wait patiently..."), "{r}");
    // The circles: orange on white, both diagonals, a black border.
    let px = picture(&drive.join("shot-3000000.png"));
    assert_eq!(px[0], BLACK);
    for (x, y) in [(0, 0), (319, 199), (0, 199), (319, 0)] {
        assert_eq!(at(&px, x, y), ORANGE, "({x}, {y})");
    }
    let white = (0..200)
        .flat_map(|y| (0..320).map(move |x| (x, y)))
        .filter(|&(x, y)| at(&px, x, y) == WHITE)
        .count();
    assert!(white > 40_000, "{white} white pixels");
}

#[test]
fn sample_gunzip65_inflates_a_file_on_drive_8() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let drive = temp_dir("cc65-gunzip65");
    // plain.gz: `gzip -9 -n` of plain.txt.
    std::fs::copy(b.dir.join("plain.gz"), drive.join("plain.gz")).unwrap();
    let r = run(
        &drive,
        &[
            &b.prg("gunzip65"),
            "--drive-dir",
            ".",
            "--input",
            "plain.gz{RETURN}out{RETURN}",
            "--exit-status",
        ],
    );
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        r.text(),
        [
            "GZIP file name:",
            "plain.gz",
            "Inflating...",
            "Calculating CRC...",
            "Uncompressed file name:",
            "out",
            "Ok.",
            READY
        ],
        "{r}"
    );
    assert_eq!(
        std::fs::read(drive.join("out")).unwrap(),
        std::fs::read(b.dir.join("plain.txt")).unwrap()
    );
}

#[test]
fn sample_overlay_demos_load_their_overlays_from_drive_8() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let calls: Vec<String> = (1..=3)
        .flat_map(|n| {
            [
                format!("Log: Calling overlay {n} from main"),
                format!("Log: Calling main from overlay {n}"),
            ]
        })
        .collect();
    let folder = b.dir.join("ovrldemo");
    let r = run(&folder, &["ovrldemo", "--drive-dir", ".", "--exit-status"]);
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(r.text()[..calls.len()], calls, "{r}");
    assert_eq!(r.text()[calls.len()..], [READY], "{r}");
    // multdemo looks for extended memory drivers first (none on this disk), then waits for
    // RETURN (the real KERNAL's line input leaves a space before the next line's text).
    let folder = b.dir.join("multdemo");
    let r = run(
        &folder,
        &[
            "multdemo",
            "--drive-dir",
            ".",
            "--input",
            "{RETURN}",
            "--exit-status",
        ],
    );
    assert_eq!(r.code, 0, "{r}");
    let text: Vec<&str> = r.text().into_iter().map(str::trim_start).collect();
    assert!(text.contains(&"Dbg: Skipping file multdemo.9"), "{r}");
    assert!(
        text.contains(&"Log: No extended memory driver found"),
        "{r}"
    );
    assert_eq!(text[text.len() - 7..text.len() - 1], calls, "{r}");
    assert_eq!(text.last(), Some(&READY), "{r}");
}

#[test]
fn sample_tutorial_says_hello() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let dir = temp_dir("cc65-tutorial");
    let r = run(&dir, &[&b.prg("tutorial"), "--exit-status"]);
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(r.text(), ["Hello world!", READY], "{r}");
}

/// cc65 2.19's enumdevdir shows "Dir 80" for drive 8: its library writes unit 8 as "80"
/// (libsrc/cbm/initcwd.s, fixed after 2.19: see tests/cc65/devicestr.s), then chdir("80")
/// fails. With that fixed, it lists the drive folder.
#[test]
fn sample_enumdevdir_lists_drive_8() {
    let Some(b) = built().and_then(Built::samples) else {
        return;
    };
    let drive = temp_dir("cc65-enumdevdir");
    std::fs::write(drive.join("hello.prg"), [1, 8, 0x60]).unwrap();
    std::fs::write(drive.join("note.txt"), b"HI\r").unwrap();
    let r = run(
        &drive,
        &[&b.prg("enumdevdir"), "--drive-dir", ".", "--exit-status"],
    );
    assert_eq!(r.code, 0, "{r}");
    let text = r.text();
    assert_eq!(text[0], "Device 8:", "{r}");
    assert!(
        text[1] == "  Dir  80" || text[1] == " Dir 8:",
        "cc65 2.19 or a fixed cc65: {r}"
    );
    let r = run(
        &drive,
        &[&b.prg("enumfixed"), "--drive-dir", ".", "--exit-status"],
    );
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(
        r.text(),
        [
            "Device 8:",
            " Dir 8:",
            "  File hello",
            "  File note.txt",
            READY
        ],
        "{r}"
    );
}
