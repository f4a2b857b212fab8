//! `c64kit play` in real terminals of 80x24, 120x40 and 200x60: tmux runs it in a pane of
//! each size (resized while it plays) and the test reads the pane back. The picture (or the
//! text view) must fill the terminal whole, never wrapping or scrolling. Without tmux the
//! terminal tests say so and check nothing. And `play` without a terminal suggests a
//! command that ends and shows the screen.

mod common;

use c64kit_plugin_api::palette::PEPTO;
use common::{c64kit, hi_prg, temp_dir};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const LIGHT_BLUE: [u8; 3] = PEPTO[14];
const BLUE: [u8; 3] = PEPTO[6];

/// A tmux server of our own (its socket in the test's folder), ended when dropped.
struct Tmux {
    dir: PathBuf,
}

impl Tmux {
    /// A server running `c64kit ARGS` (with hi.prg in its folder) in an 80x24 pane, where
    /// the terminal says it shows 24-bit colour if `truecolor`; `None` (said on stderr)
    /// where tmux is not installed.
    fn start(name: &str, truecolor: bool, args: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!(
                "SKIPPED: tmux is not installed, so c64kit is not tried in a real terminal \
                 (apt-get install tmux)"
            );
            return None;
        }
        let dir = temp_dir(name);
        std::fs::write(dir.join("hi.prg"), hi_prg()).unwrap();
        let bin = assert_cmd::cargo::cargo_bin("c64kit");
        let colour = if truecolor {
            "COLORTERM=truecolor"
        } else {
            "-u COLORTERM"
        };
        // Its exit code and stderr go to files; the pane stays open to be read.
        let command = format!(
            "env {colour} '{}' {args} 2>c64kit.err; echo $? >c64kit.exit; exec sleep 600",
            bin.display()
        );
        let tmux = Tmux { dir };
        let started = tmux
            .run(&["-f", "/dev/null", "new-session", "-d", "-s", "play"])
            .args(["-x", "80", "-y", "24", "-c"])
            .arg(&tmux.dir)
            .arg(command)
            .status()
            .unwrap();
        assert!(started.success(), "tmux starts a session");
        Some(tmux)
    }

    /// The exit code, once c64kit has ended.
    fn exit_code(&self) -> Option<String> {
        let code = std::fs::read_to_string(self.dir.join("c64kit.exit")).ok()?;
        Some(code.trim().to_string())
    }

    fn run(&self, args: &[&str]) -> Command {
        let mut c = Command::new("tmux");
        c.env_remove("TMUX")
            .arg("-S")
            .arg(self.dir.join("tmux.socket"))
            .args(args);
        c
    }

    fn resize(&self, cols: usize, rows: usize) {
        let (x, y) = (cols.to_string(), rows.to_string());
        let ok = self
            .run(&["resize-window", "-t", "play", "-x", &x, "-y", &y])
            .status()
            .unwrap();
        assert!(ok.success(), "tmux resizes the window");
    }

    /// The pane's lines, each a list of cells (`-e`: with their colours; `-N`: trailing
    /// spaces too, which show the border).
    fn capture(&self) -> Vec<Vec<Cell>> {
        let out = self
            .run(&["capture-pane", "-p", "-e", "-N", "-t", "play"])
            .output()
            .unwrap();
        // tmux sets a colour once, for as many cells (and lines) as keep it.
        let mut colours = (None, None);
        let text = String::from_utf8_lossy(&out.stdout);
        text.lines().map(|l| cells(l, &mut colours)).collect()
    }

    /// Waits until the pane passes `check` (its complaint, else `None`). The bound is long
    /// (a busy machine): it only keeps a broken run from hanging the test.
    fn wait_for(&self, what: &str, check: impl Fn(&[Vec<Cell>]) -> Option<String>) {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            let pane = self.capture();
            let Some(complaint) = check(&pane) else {
                return;
            };
            if Instant::now() > deadline || self.exit_code().is_some() {
                panic!(
                    "{what}: {complaint}\nthe pane:\n{}\nc64kit's stderr: {}",
                    pane.iter().map(|l| text(l)).collect::<Vec<_>>().join("\n"),
                    std::fs::read_to_string(self.dir.join("c64kit.err")).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Esc quits: play ends with exit code 0.
    fn quit(&self) {
        self.run(&["send-keys", "-t", "play", "Escape"])
            .status()
            .unwrap();
        assert_eq!(self.wait_for_exit(), "0", "Esc quits play");
    }

    fn wait_for_exit(&self) -> String {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            match self.exit_code() {
                Some(code) => return code,
                None if Instant::now() > deadline => panic!("c64kit does not end"),
                None => std::thread::sleep(Duration::from_millis(100)),
            }
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]).status();
    }
}

/// A character on the screen and its colours (`None`: the terminal's own).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    ch: char,
    fg: Option<[u8; 3]>,
    bg: Option<[u8; 3]>,
}

/// Colours set: foreground and background.
type Colours = (Option<[u8; 3]>, Option<[u8; 3]>);

/// A line as `tmux capture-pane -e` gives it: characters and SGR colour sequences, the
/// colours set at its start in `colours`, left there as set at its end.
fn cells(line: &str, colours: &mut Colours) -> Vec<Cell> {
    let (mut fg, mut bg) = *colours;
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '\x1b' {
            out.push(Cell { ch, fg, bg });
            continue;
        }
        let mut seq = String::new();
        for c in chars.by_ref() {
            if c.is_ascii_alphabetic() {
                seq.push(c);
                break;
            }
            seq.push(c);
        }
        let Some(params) = seq.strip_prefix('[').and_then(|s| s.strip_suffix('m')) else {
            continue;
        };
        let p: Vec<u16> = params
            .split([';', ':'])
            .map(|x| x.parse().unwrap_or(0))
            .collect();
        let mut i = 0;
        while i < p.len() {
            let rgb = || {
                p.get(i + 2..i + 5)
                    .map(|c| [c[0] as u8, c[1] as u8, c[2] as u8])
            };
            match p[i] {
                38 if p.get(i + 1) == Some(&2) => (fg, i) = (rgb(), i + 5),
                48 if p.get(i + 1) == Some(&2) => (bg, i) = (rgb(), i + 5),
                0 => (fg, bg, i) = (None, None, i + 1),
                39 => (fg, i) = (None, i + 1),
                49 => (bg, i) = (None, i + 1),
                _ => i += 1,
            }
        }
    }
    *colours = (fg, bg);
    out
}

fn text(line: &[Cell]) -> String {
    line.iter().map(|c| c.ch).collect()
}

/// The picture, `width` x `rows` half blocks from the top left, and nothing else: every
/// row of it there (none scrolled off, none wrapped), its top and bottom rows the border's
/// light blue, its middle row some of the text area's blue.
fn picture_check(width: usize, rows: usize) -> impl Fn(&[Vec<Cell>]) -> Option<String> {
    move |pane| {
        for (r, line) in pane.iter().enumerate() {
            let blocks = line.iter().filter(|c| c.ch == '▀').count();
            let want = if r < rows { width } else { 0 };
            if blocks != want || line.iter().any(|c| c.ch != '▀' && c.ch != ' ') {
                return Some(format!(
                    "row {r} has {blocks} half blocks, not {want} alone"
                ));
            }
        }
        if pane.len() < rows {
            return Some(format!("{} rows, not {rows}", pane.len()));
        }
        let border = |line: &[Cell]| {
            line.iter()
                .all(|c| c.fg == Some(LIGHT_BLUE) && c.bg == Some(LIGHT_BLUE))
        };
        if !border(&pane[0]) || !border(&pane[rows - 1]) {
            return Some("the first and last rows are not all border".into());
        }
        if !pane[rows / 2].iter().any(|c| c.bg == Some(BLUE)) {
            return Some("the middle row shows no text area".into());
        }
        None
    }
}

#[test]
fn play_fills_the_terminal_with_the_picture_at_every_size() {
    let Some(tmux) = Tmux::start("play-picture", true, "play hi.prg") else {
        return;
    };
    // (columns, rows) -> the picture's columns and rows: the largest that fits whole,
    // keeping the C64's shape (384x272 pixels, two a row).
    for (cols, rows, width, height) in [
        (80, 24, 67, 24),
        (120, 40, 112, 40),
        (200, 60, 169, 60),
        (80, 24, 67, 24),
    ] {
        tmux.resize(cols, rows);
        tmux.wait_for(
            &format!("the picture in {cols}x{rows}"),
            picture_check(width, height),
        );
    }
    tmux.quit();
}

/// The first of `checks` that fails, as a complaint.
fn first_failed(checks: &[(bool, &str)]) -> Option<String> {
    checks
        .iter()
        .find(|(ok, _)| !ok)
        .map(|(_, what)| format!("expected {what}"))
}

/// Where `s` starts on line `row`, in columns.
fn column_of(pane: &[Vec<Cell>], row: usize, s: &str) -> Option<usize> {
    let line = text(pane.get(row)?);
    line.find(s).map(|at| line[..at].chars().count())
}

/// The background colour at `row`, `col`: `Some(None)` for the terminal's own; `None`
/// where tmux gives no cell (it leaves out a line's trailing cells in the terminal's own
/// colours).
fn bg(pane: &[Vec<Cell>], row: usize, col: usize) -> Option<Option<[u8; 3]>> {
    pane.get(row)?.get(col).map(|c| c.bg)
}

#[test]
fn play_fits_the_text_view_to_the_terminal() {
    let Some(tmux) = Tmux::start("play-text", false, "play hi.prg") else {
        return;
    };
    // 80x24: the border's columns but not its rows, screen rows 1-24, a note beside them.
    tmux.wait_for("the text in 80x24", |pane| {
        first_failed(&[
            (pane.len() == 24, "24 rows"),
            (
                column_of(pane, 0, "HI") == Some(2),
                "HI on the first row, after the border",
            ),
            (column_of(pane, 1, "READY.") == Some(2), "READY. under it"),
            (
                column_of(pane, 0, "rows 1-24 of 25 (25 rows show all)") == Some(45),
                "the note beside the text",
            ),
            (
                bg(pane, 23, 0) == Some(Some(LIGHT_BLUE)),
                "the border's columns on the last row",
            ),
            (
                bg(pane, 23, 2) == Some(Some(BLUE)),
                "a screen row on the last row",
            ),
        ])
    });
    // 120x40: all of it, inside the whole border.
    tmux.resize(120, 40);
    tmux.wait_for("the text in 120x40", |pane| {
        first_failed(&[
            (pane.len() == 40, "40 rows"),
            (
                column_of(pane, 1, "HI") == Some(2),
                "HI under the border's row",
            ),
            (column_of(pane, 2, "READY.") == Some(2), "READY. under it"),
            (!pane.iter().any(|l| text(l).contains("rows")), "no note"),
            (
                bg(pane, 0, 0) == Some(Some(LIGHT_BLUE)),
                "the border's top row",
            ),
            (
                bg(pane, 26, 43) == Some(Some(LIGHT_BLUE)),
                "the border's bottom row",
            ),
            (
                matches!(bg(pane, 27, 0), None | Some(None)),
                "nothing under the border",
            ),
            (
                matches!(bg(pane, 1, 44), None | Some(None)),
                "nothing right of the border",
            ),
        ])
    });
    tmux.quit();
}

#[test]
fn the_final_picture_printed_in_a_terminal_fits_its_width() {
    // Not live (standard input is not the terminal): the screen is printed once at the end,
    // on the terminal's own screen, where it may scroll but must not wrap.
    let Some(tmux) = Tmux::start(
        "final-picture",
        true,
        "run hi.prg --display terminal </dev/null",
    ) else {
        return;
    };
    assert_eq!(tmux.wait_for_exit(), "0");
    let out = tmux
        .run(&["capture-pane", "-p", "-S", "-", "-t", "play"])
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = printed.lines().filter(|l| l.contains('▀')).collect();
    // 384x272 pixels at 80 columns: 80 x 56 dots, 28 rows.
    assert_eq!(rows.len(), 28, "{printed}");
    assert!(
        rows.iter().all(|l| l.trim_end().chars().count() == 80),
        "{printed}"
    );
}

/// Runs the command `play` suggested (the words after "c64kit ", up to the parenthesis).
fn suggested(dir: &Path, advice: &str, colorterm: &str) -> assert_cmd::assert::Assert {
    let start = advice.find(": c64kit run ").expect("a run command") + ": c64kit ".len();
    let end = start + advice[start..].find(" (").expect("the command ends");
    let words: Vec<&str> = advice[start..end].split_whitespace().collect();
    c64kit()
        .current_dir(dir)
        .env("COLORTERM", colorterm)
        .args(&words)
        .assert()
}

#[test]
fn play_without_a_terminal_suggests_a_run_that_ends_and_shows_the_screen() {
    let dir = temp_dir("play-no-terminal");
    std::fs::write(dir.join("hi.prg"), hi_prg()).unwrap();
    for colorterm in ["", "truecolor"] {
        // Standard input and output are not a terminal here.
        let out = c64kit()
            .current_dir(&dir)
            .env("COLORTERM", colorterm)
            .args(["play", "hi.prg"])
            .assert()
            .code(1);
        let stderr = common::stderr_of(&out);
        assert!(
            stderr.starts_with("c64kit: ") && stderr.contains("play needs a terminal"),
            "{stderr}"
        );
        assert!(!stderr.contains("mode=final"), "that would run for ever");
        let shown = suggested(&dir, &stderr, colorterm).code(0);
        let screen = common::stdout_of(&shown);
        let want = if colorterm.is_empty() { "HI" } else { "▀" };
        assert!(screen.contains(want), "the final screen: {screen}");
    }
}

#[test]
fn play_without_a_program_boots_basic_and_runs_what_is_typed() {
    let Some(tmux) = Tmux::start("play-ready", false, "play -O terminal.border=false") else {
        return;
    };
    let pane_has = |s: &'static str| {
        move |pane: &[Vec<Cell>]| {
            (!pane.iter().any(|l| text(l).contains(s))).then(|| format!("no {s:?}"))
        }
    };
    tmux.wait_for("BASIC's start message", pane_has("BASIC V2"));
    tmux.wait_for("READY.", pane_has("READY."));
    // A program typed in and RUN (lower case: the unshifted keys, which type BASIC's
    // keywords).
    for line in ["10 print 6*7", "run"] {
        tmux.run(&["send-keys", "-t", "play", "-l", line])
            .status()
            .unwrap();
        tmux.run(&["send-keys", "-t", "play", "Enter"])
            .status()
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
    }
    tmux.wait_for("the program's output", pane_has(" 42"));
    tmux.quit();
}
