//! The terminal display: the screen in a terminal, in 24-bit colour (the palette the
//! host hands over: Pepto's unless `--palette chip`),
//! either as the VIC-II's picture (*pixels*: two pixels a character, `▀` in the upper
//! pixel's colour on the lower one's) or as the 40x25 text (*text*: graphics as their
//! Unicode look-alikes, inside a border).
//!
//! Live (for `c64kit play`, or `c64kit run --display terminal` in a terminal): the screen
//! fills the terminal as it is and as it changes (`layout`), redrawn at frame boundaries
//! where it changed, by cursor positioning (never scrolling); the run is paced to real time
//! (the machine's frame rate: about 50 frames a second on PAL, 60 on NTSC), and keys typed
//! go into the C64's keyboard buffer as PETSCII (letters unshifted, Shift+letter shifted,
//! arrows, Home/Shift+Home, Insert, Backspace/Delete, F1-F8). Esc or Ctrl-C quits.
//! Otherwise the final screen is printed once at the end, as wide as the terminal if the
//! output is one.
//!
//! Options: `mode` (`auto` default, `live`, `final`), `view` (`auto` default: pixels when
//! the terminal says it shows 24-bit colour, `COLORTERM=truecolor` or `24bit`, else text;
//! `pixels`, `text`), `scale` (pixels: 1-4 C64 pixels a column, when the terminal holds
//! that; default the largest picture the terminal holds, 2 off a terminal), `colour` (text:
//! true/false, default true), `border` (true/false, default true).

use c64kit_plugin_api::abi::{FLAG_FRAMES, FLAG_INPUT, FLAG_PIXELS, FLAG_REALTIME};
use c64kit_plugin_api::{DisplayBackend, FrameView, HostRef, Options, RunEndInfo};
use crossterm::event::{self, Event};
use crossterm::style::ResetColor;
use crossterm::{cursor, queue, terminal};
use std::io::{IsTerminal, Write};
use std::time::Duration;

mod keys;
mod layout;
mod paint;
mod pixels;
mod resample;
mod text;

pub use keys::{map_key, KeyAction};
use layout::{fit_picture, fit_text, Note, PictureFit, Size, TextFit};

/// How the screen was laid out in the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Layout {
    Picture(PictureFit),
    Text(TextFit),
}

/// The screen as terminal rows, each drawn from column 0 of its row, and their layout.
struct Shown {
    layout: Layout,
    rows: Vec<Vec<u8>>,
}

pub struct TerminalDisplay {
    live: bool,
    /// The picture (else the text).
    pixels: bool,
    /// The picture's size asked for: C64 pixels a column.
    scale: Option<usize>,
    colour: bool,
    border: bool,
    /// Raw mode and the alternate screen are on (restored on finish or drop).
    entered: bool,
    /// The terminal's size as last heard (live).
    size: Size,
    /// What was drawn last, to redraw only the rows that changed (all after a new layout).
    last: Option<Shown>,
}

/// Whether the terminal says it shows 24-bit colour.
fn truecolor() -> bool {
    std::env::var("COLORTERM").is_ok_and(|v| {
        let v = v.to_ascii_lowercase();
        v == "truecolor" || v == "24bit"
    })
}

/// A terminal's size as it reports it. A pseudo-terminal nobody sized says 0x0: taken as
/// 80x24, the size terminals start at, so the screen shows at all.
fn terminal_size(reported: (u16, u16)) -> Size {
    match reported {
        (0, _) | (_, 0) => Size { cols: 80, rows: 24 },
        (cols, rows) => Size {
            cols: cols.into(),
            rows: rows.into(),
        },
    }
}

impl TerminalDisplay {
    fn enter(&mut self) -> Result<(), String> {
        terminal::enable_raw_mode()
            .map_err(|e| format!("cannot switch the terminal to raw mode: {e}"))?;
        self.entered = true;
        let mut out = std::io::stdout();
        queue!(
            out,
            terminal::EnterAlternateScreen,
            cursor::Hide,
            terminal::Clear(terminal::ClearType::All)
        )
        .and_then(|_| out.flush())
        .map_err(|e| format!("cannot set up the terminal: {e}"))
    }

    fn leave(&mut self) {
        if self.entered {
            self.entered = false;
            let mut out = std::io::stdout();
            let _ = queue!(
                out,
                ResetColor,
                cursor::Show,
                terminal::LeaveAlternateScreen
            );
            let _ = out.flush();
            let _ = terminal::disable_raw_mode();
        }
    }

    /// What this display shows of a frame in `room` (any size where none is known).
    fn show(&self, frame: &FrameView, room: Option<Size>) -> Result<Shown, String> {
        let (layout, mut rows, note) = if self.pixels {
            let img = frame.need_picture()?.image(self.border, 1);
            let fit = match room {
                Some(room) => fit_picture(room, (img.width, img.height), self.scale),
                None => PictureFit::fixed((img.width, img.height), self.scale.unwrap_or(2)),
            };
            let rows = pixels::picture_rows(&img, &frame.palette, &fit);
            let note = fit.note.clone();
            (Layout::Picture(fit), rows, note)
        } else {
            let s = frame.screen;
            let fit = match room {
                Some(room) => fit_text(
                    room,
                    self.border,
                    (s.cursor_row.into(), s.cursor_col.into()),
                ),
                None => TextFit::whole(self.border),
            };
            let rows = text::text_rows(s, &frame.palette, self.colour, &fit);
            let note = fit.note.clone();
            (Layout::Text(fit), rows, note)
        };
        if let Some(Note { text, row, col }) = note {
            paint::add_at(&mut rows, row, col, &text);
        }
        Ok(Shown { layout, rows })
    }

    /// Draws the frame over what is on the terminal: the rows that changed, each by moving
    /// the cursor to its start (a newline on the last row would scroll); everything, on a
    /// cleared terminal, when the layout changed.
    fn draw(&mut self, frame: &FrameView) -> Result<(), String> {
        let shown = self.show(frame, Some(self.size))?;
        let mut buf = Vec::new();
        let before = match self.last.take() {
            Some(last) if last.layout == shown.layout => last.rows,
            _ => {
                let _ = queue!(buf, terminal::Clear(terminal::ClearType::All));
                Vec::new()
            }
        };
        for (r, row) in shown.rows.iter().enumerate() {
            if before.get(r) != Some(row) {
                let _ = queue!(buf, cursor::MoveTo(0, r as u16));
                buf.extend_from_slice(row);
            }
        }
        self.last = Some(shown);
        if buf.is_empty() {
            return Ok(());
        }
        let mut out = std::io::stdout();
        out.write_all(&buf)
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write to the terminal: {e}"))
    }
}

impl Drop for TerminalDisplay {
    fn drop(&mut self) {
        self.leave();
    }
}

impl DisplayBackend for TerminalDisplay {
    fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
        options.check_known(&["mode", "view", "scale", "colour", "color", "border", "play"])?;
        let play = options.flag("play")?.unwrap_or(false);
        let tty = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
        let live = match options.get("mode").unwrap_or("auto") {
            "live" => true,
            "final" => false,
            "auto" => play || tty,
            other => return Err(format!("option mode: {other:?} is not auto, live or final")),
        };
        if live && !tty {
            return Err(no_terminal(play, options.get("program")));
        }
        let colour = match options.flag("colour")? {
            Some(c) => c,
            None => options.flag("color")?.unwrap_or(true),
        };
        let pixels = match options.get("view").unwrap_or("auto") {
            "pixels" => true,
            "text" => false,
            "auto" => colour && truecolor(),
            other => {
                return Err(format!(
                    "option view: {other:?} is not auto, pixels or text"
                ))
            }
        };
        let border = options.flag("border")?.unwrap_or(true);
        let scale = match options.number("scale")? {
            Some(s @ 1..=4) => Some(s as usize),
            Some(s) => return Err(format!("option scale: {s} is not 1-4")),
            None => None,
        };
        let mut t = TerminalDisplay {
            live,
            pixels,
            scale,
            colour,
            border,
            entered: false,
            size: terminal_size(terminal::size().unwrap_or((0, 0))),
            last: None,
        };
        if live {
            t.enter()?;
        }
        Ok(t)
    }

    fn flags(&self) -> u32 {
        let pixels = if self.pixels { FLAG_PIXELS } else { 0 };
        if self.live {
            FLAG_FRAMES | FLAG_REALTIME | FLAG_INPUT | pixels
        } else {
            pixels
        }
    }

    fn frame(&mut self, frame: &FrameView, _host: &HostRef) -> Result<(), String> {
        if self.live {
            self.draw(frame)?;
        }
        Ok(())
    }

    fn poll_input(&mut self, host: &HostRef) -> Result<(), String> {
        while event::poll(Duration::ZERO).map_err(|e| format!("cannot read the keyboard: {e}"))? {
            match event::read().map_err(|e| format!("cannot read the keyboard: {e}"))? {
                Event::Key(key) => match map_key(&key) {
                    KeyAction::Petscii(p) => host.push_key(p),
                    KeyAction::Quit => host.quit(),
                    KeyAction::Ignore => {}
                },
                // The next frame is laid out for the new size and drawn whole: a terminal
                // may have cropped or rewrapped what was there.
                Event::Resize(cols, rows) => {
                    self.size = terminal_size((cols, rows));
                    self.last = None;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn finish(
        &mut self,
        _end: &RunEndInfo,
        frame: &FrameView,
        host: &HostRef,
    ) -> Result<(), String> {
        // Leave the alternate screen, then print the final screen where it stays visible:
        // as wide as the terminal, if that is where it goes (lines any longer would wrap).
        self.leave();
        let room = std::io::stdout()
            .is_terminal()
            .then(|| Size::width_only(terminal_size(terminal::size().unwrap_or((0, 0))).cols));
        let mut out = Vec::new();
        for row in self.show(frame, room)?.rows {
            out.extend_from_slice(&row);
            out.push(b'\n');
        }
        host.write_stdout(&out);
        Ok(())
    }
}

/// Why a live display cannot start without a terminal, and what to run instead.
fn no_terminal(play: bool, program: Option<&str>) -> String {
    if play {
        // `run` ends when the program returns or its cycle budget is spent, then prints
        // the final screen: what `play` can do without a person at a terminal.
        let program = program.map_or("PROGRAM".into(), shell_word);
        format!(
            "play needs a terminal, and standard input and output are not both one; to see \
             the screen without one, run the program and print its final screen: \
             c64kit run {program} --display terminal (it stops when the program ends, or at \
             --max-cycles N: 10 minutes of C64 time unless given)"
        )
    } else {
        "live display needs a terminal: standard input and output are not both a terminal \
         (use --display transcript, or -O terminal.mode=final)"
            .into()
    }
}

/// `word` as one word for a POSIX shell: as it is when nothing in it is special, else in
/// single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "._-/+,:@%=".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

c64kit_plugin_api::export_display!(
    c64kit_plugin_entry_terminal,
    TerminalDisplay,
    "terminal",
    "the picture (or text) live in a terminal in colour, with the keyboard (c64kit play); Esc quits"
);

#[cfg(test)]
mod tests {
    use super::*;
    use c64kit_plugin_api::abi::Screen;
    use c64kit_plugin_api::palette::PEPTO;
    use c64kit_plugin_api::{Image, Picture, PictureKind};

    fn lines(rows: &[Vec<u8>]) -> Vec<String> {
        rows.iter()
            .map(|r| String::from_utf8(r.clone()).unwrap())
            .collect()
    }

    #[test]
    fn renders_plain_and_coloured() {
        let mut s = Screen::blank();
        s.vic[0x11] = 0x1B;
        s.chars[0] = 0x08;
        s.chars[1] = 0x09;
        let plain = lines(&text::text_rows(&s, &PEPTO, false, &TextFit::whole(false)));
        assert_eq!(plain.len(), 25);
        assert_eq!((plain[0].as_str(), plain[1].as_str()), ("HI", ""));
        let coloured = lines(&text::text_rows(&s, &PEPTO, true, &TextFit::whole(true)));
        assert_eq!(coloured.len(), 27);
        assert!(
            coloured[1].contains("\x1b[38;2;108;94;181m"),
            "light blue text"
        );
        assert!(coloured[1].contains("HI"));
    }

    #[test]
    fn the_text_view_shows_the_rows_around_the_cursor() {
        let mut s = Screen::blank();
        s.vic[0x11] = 0x1B;
        for row in 0..25 {
            s.chars[row * 40] = 0x01 + row as u8; // A, B, C ...
        }
        let first = |cursor_row| {
            let fit = fit_text(Size { cols: 80, rows: 24 }, true, (cursor_row, 0));
            let shown = lines(&text::text_rows(&s, &PEPTO, false, &fit));
            (shown.len(), shown[0].clone())
        };
        assert_eq!(first(0), (24, "A".to_string()));
        assert_eq!(first(24), (24, "B".to_string()));
    }

    #[test]
    fn renders_pixels_as_half_blocks() {
        // Red above, cyan below at the top-left; the rest blue.
        let mut px = vec![6u8; 384 * 272];
        px[0] = 2;
        px[384] = 3;
        let p = Picture {
            pixels: &px,
            width: 384,
            height: 272,
            kind: PictureKind::Live,
            cycles: 0,
        };
        let img: Image = p.image(true, 1);
        let out = lines(&pixels::picture_rows(
            &img,
            &PEPTO,
            &PictureFit::fixed((384, 272), 1),
        ));
        assert_eq!(out.len(), 136);
        assert!(
            out[0].starts_with("\x1b[38;2;104;55;43m\x1b[48;2;112;164;178m▀\x1b[38;2;53;40;121m\x1b[48;2;53;40;121m▀"),
            "{:?}",
            out[0]
        );
        assert_eq!(out[0].matches('▀').count(), 384);
        let text_area = p.image(false, 1);
        let small = lines(&pixels::picture_rows(
            &text_area,
            &PEPTO,
            &PictureFit::fixed((320, 200), 2),
        ));
        assert_eq!(small.len(), 50);
        assert_eq!(small[0].matches('▀').count(), 160);
        // An odd number of dots: the last row's lower half is the terminal's own.
        let odd = lines(&pixels::picture_rows(
            &img,
            &PEPTO,
            &PictureFit::fixed((384, 272), 3),
        ));
        assert_eq!(odd.len(), 46);
        assert!(
            odd[45].contains("\x1b[0m\x1b[38;2;53;40;121m▀"),
            "{:?}",
            odd[45]
        );
    }

    #[test]
    fn an_unsized_terminal_is_taken_as_80x24() {
        let size = |cols, rows| Size { cols, rows };
        assert_eq!(terminal_size((0, 0)), size(80, 24));
        assert_eq!(terminal_size((0, 50)), size(80, 24));
        assert_eq!(terminal_size((132, 43)), size(132, 43));
    }

    #[test]
    fn a_note_goes_where_the_layout_puts_it() {
        let mut rows = vec![b"ab".to_vec()];
        paint::add_at(&mut rows, 0, 3, "note");
        paint::add_at(&mut rows, 2, 0, "under");
        assert_eq!(lines(&rows), ["ab\x1b[4Gnote", "", "under"]);
    }

    #[test]
    fn play_without_a_terminal_suggests_a_command_that_shell_reads_as_given() {
        let advice = no_terminal(true, Some("my game's.prg"));
        assert!(
            advice.contains("c64kit run 'my game'\\''s.prg' --display terminal ("),
            "{advice}"
        );
        assert!(no_terminal(true, Some("programs/hi.prg"))
            .contains(": c64kit run programs/hi.prg --display terminal ("));
        assert!(!no_terminal(true, None).contains("mode=final"));
    }
}
