//! The terminal display: the screen in a terminal, in 24-bit colour (Pepto's palette),
//! either as the VIC-II's picture (*pixels*: two pixels a character, `▀` in the upper
//! pixel's colour on the lower one's) or as the 40x25 text (*text*: graphics as their
//! Unicode look-alikes, inside a border).
//!
//! Live (for `c64kit play`, or `c64kit run --display terminal` in a terminal): the screen is
//! redrawn at frame boundaries when it changed, the run is paced to 50 frames a second, and
//! keys typed go into the C64's keyboard buffer as PETSCII (letters unshifted, Shift+letter
//! shifted, arrows, Home/Shift+Home, Insert, Backspace/Delete, F1-F8). Esc or Ctrl-C quits.
//! Otherwise (output not a terminal) the final screen is printed once at the end.
//!
//! Options: `mode` (`auto` default, `live`, `final`), `view` (`auto` default: pixels when
//! the terminal says it shows 24-bit colour, `COLORTERM=truecolor` or `24bit`, else text;
//! `pixels`, `text`), `scale` (pixels: 1-4 C64 pixels a column, default the largest picture
//! the terminal holds, 2 off a terminal), `colour` (text: true/false, default true), `border`
//! (true/false, default true).

use c64kit_basic::petscii::screen_code_to_char;
use c64kit_plugin_api::abi::{
    Screen, TextCell, FLAG_FRAMES, FLAG_INPUT, FLAG_PIXELS, FLAG_REALTIME,
};
use c64kit_plugin_api::palette::PEPTO;
use c64kit_plugin_api::{DisplayBackend, FrameView, HostRef, Options, Picture, RunEndInfo};
use crossterm::event::{self, Event};
use crossterm::style::{Color, ResetColor, SetBackgroundColor, SetForegroundColor};
use crossterm::{cursor, queue, terminal};
use std::io::{IsTerminal, Write};
use std::time::Duration;

mod keys;
pub use keys::{map_key, KeyAction};

fn rgb(c: u8) -> Color {
    let [r, g, b] = PEPTO[(c & 15) as usize];
    Color::Rgb { r, g, b }
}

/// The screen as terminal text: with colour, 24-bit escape codes and a border of two columns
/// and one row; without, plain lines.
pub fn render(s: &Screen, colour: bool, border: bool, newline: &str) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(16_000);
    let lower = s.lowercase != 0;
    let blank = s.vic[0x11] & 0x10 == 0;
    if !colour {
        for row in 0..25 {
            let line: String = (0..40)
                .map(|col| {
                    let code = s.chars[row * 40 + col];
                    if code == 0xA0 {
                        '█'
                    } else {
                        screen_code_to_char(code, lower)
                    }
                })
                .collect();
            out.extend_from_slice(line.trim_end().as_bytes());
            out.extend_from_slice(newline.as_bytes());
        }
        return out;
    }
    let mut p = Painter { out, cur: None };
    let b = s.border & 15;
    if border {
        for _ in 0..44 {
            p.put(b, b, ' ');
        }
        p.end_line(newline);
    }
    for row in 0..25 {
        if border {
            p.put(b, b, ' ');
            p.put(b, b, ' ');
        }
        for col in 0..40 {
            let i = row * 40 + col;
            if blank {
                p.put(b, b, ' ');
                continue;
            }
            let TextCell {
                glyph,
                fg,
                bg,
                reversed,
            } = s.text_cell(i);
            let (f, g) = if reversed { (bg, fg) } else { (fg, bg) };
            p.put(f, g, screen_code_to_char(glyph, lower));
        }
        if border {
            p.put(b, b, ' ');
            p.put(b, b, ' ');
        }
        p.end_line(newline);
    }
    if border {
        for _ in 0..44 {
            p.put(b, b, ' ');
        }
        p.end_line(newline);
    }
    p.out
}

/// The picture with half blocks: each character is one column of `scale` C64 pixels and two
/// rows, `▀` in the upper pixel's colour on the lower one's (a pixel every `scale` in each
/// direction). The whole picture, or its 320x200 text area without `border`.
pub fn render_pixels(picture: &Picture, scale: usize, border: bool, newline: &str) -> Vec<u8> {
    let img = picture.image(border, 1);
    let scale = scale.max(1);
    let mut p = Painter {
        out: Vec::with_capacity(img.width * img.height),
        cur: None,
    };
    let at = |x: usize, y: usize| img.pixels[y * img.width + x];
    let rows: Vec<usize> = (0..img.height).step_by(scale).collect();
    for pair in rows.chunks(2) {
        for x in (0..img.width).step_by(scale) {
            let top = at(x, pair[0]);
            // An odd last row: its lower half is the terminal's own background.
            match pair.get(1) {
                Some(&y) => p.put(top, at(x, y), '▀'),
                None => p.put_fg(top, '▀'),
            }
        }
        p.end_line(newline);
    }
    p.out
}

/// The largest picture (smallest scale, 1-4) that fits `cols` x `rows` characters.
pub fn fitting_scale(cols: usize, rows: usize, border: bool) -> usize {
    let (w, h): (usize, usize) = if border { (384, 272) } else { (320, 200) };
    (1..=4)
        .find(|s| w.div_ceil(*s) <= cols && h.div_ceil(*s).div_ceil(2) <= rows)
        .unwrap_or(4)
}

/// Writes cells, changing colours only when they change.
struct Painter {
    out: Vec<u8>,
    cur: Option<(u8, u8)>,
}

impl Painter {
    fn put(&mut self, fg: u8, bg: u8, ch: char) {
        if self.cur != Some((fg, bg)) {
            let _ = queue!(
                self.out,
                SetForegroundColor(rgb(fg)),
                SetBackgroundColor(rgb(bg))
            );
            self.cur = Some((fg, bg));
        }
        let mut buf = [0u8; 4];
        self.out
            .extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }

    /// A cell on the terminal's own background.
    fn put_fg(&mut self, fg: u8, ch: char) {
        let _ = queue!(self.out, ResetColor, SetForegroundColor(rgb(fg)));
        self.cur = None;
        let mut buf = [0u8; 4];
        self.out
            .extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }

    fn end_line(&mut self, newline: &str) {
        let _ = queue!(self.out, ResetColor);
        self.cur = None;
        self.out.extend_from_slice(newline.as_bytes());
    }
}

pub struct TerminalDisplay {
    live: bool,
    /// The picture (else the text).
    pixels: bool,
    scale: usize,
    colour: bool,
    border: bool,
    /// Raw mode and the alternate screen are on (restored on finish or drop).
    entered: bool,
    /// What was drawn last, to redraw only on a change.
    last: Vec<u8>,
}

/// Whether the terminal says it shows 24-bit colour.
fn truecolor() -> bool {
    std::env::var("COLORTERM").is_ok_and(|v| {
        let v = v.to_ascii_lowercase();
        v == "truecolor" || v == "24bit"
    })
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

    /// What this display shows of a frame, with `newline` between lines.
    fn render(&self, frame: &FrameView, newline: &str) -> Result<Vec<u8>, String> {
        if self.pixels {
            let picture = frame.need_picture()?;
            Ok(render_pixels(&picture, self.scale, self.border, newline))
        } else {
            Ok(render(frame.screen, self.colour, self.border, newline))
        }
    }

    fn draw(&mut self, frame: &FrameView) -> Result<(), String> {
        let shown = self.render(frame, "\r\n")?;
        if shown == self.last {
            return Ok(());
        }
        let mut buf = Vec::new();
        let _ = queue!(buf, cursor::MoveTo(0, 0));
        buf.extend_from_slice(&shown);
        let mut out = std::io::stdout();
        out.write_all(&buf)
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write to the terminal: {e}"))?;
        self.last = shown;
        Ok(())
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
            return Err(
                "live display needs a terminal: standard input and output are not both a \
                 terminal (use --display transcript, or -O terminal.mode=final)"
                    .into(),
            );
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
            Some(s @ 1..=4) => s as usize,
            Some(s) => return Err(format!("option scale: {s} is not 1-4")),
            None if live => terminal::size()
                .map(|(c, r)| fitting_scale(c.into(), usize::from(r).saturating_sub(1), border))
                .unwrap_or(2),
            None => 2,
        };
        let mut t = TerminalDisplay {
            live,
            pixels,
            scale,
            colour,
            border,
            entered: false,
            last: Vec::new(),
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
            let ev = event::read().map_err(|e| format!("cannot read the keyboard: {e}"))?;
            if let Event::Key(key) = ev {
                match map_key(&key) {
                    KeyAction::Petscii(p) => host.push_key(p),
                    KeyAction::Quit => host.quit(),
                    KeyAction::Ignore => {}
                }
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
        // Leave the alternate screen, then print the final screen where it stays visible.
        self.leave();
        host.write_stdout(&self.render(frame, "\n")?);
        Ok(())
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

    #[test]
    fn renders_plain_and_coloured() {
        let mut s = Screen::blank();
        s.vic[0x11] = 0x1B;
        s.chars[0] = 0x08;
        s.chars[1] = 0x09;
        let plain = String::from_utf8(render(&s, false, false, "\n")).unwrap();
        assert!(plain.starts_with("HI\n\n"), "{plain:?}");
        assert_eq!(plain.lines().count(), 25);
        let coloured = String::from_utf8(render(&s, true, true, "\n")).unwrap();
        assert_eq!(coloured.lines().count(), 27);
        assert!(
            coloured.contains("\x1b[38;2;108;94;181m"),
            "light blue text"
        );
        assert!(coloured.contains("HI"));
    }

    #[test]
    fn renders_pixels_as_half_blocks() {
        use c64kit_plugin_api::PictureKind;
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
        let out = String::from_utf8(render_pixels(&p, 1, true, "\n")).unwrap();
        assert_eq!(out.lines().count(), 136);
        assert!(
            out.starts_with("\x1b[38;2;104;55;43m\x1b[48;2;112;164;178m▀\x1b[38;2;53;40;121m\x1b[48;2;53;40;121m▀"),
            "{out:?}"
        );
        assert_eq!(out.lines().next().unwrap().matches('▀').count(), 384);
        let small = String::from_utf8(render_pixels(&p, 2, false, "\n")).unwrap();
        assert_eq!(small.lines().count(), 50);
        assert_eq!(small.lines().next().unwrap().matches('▀').count(), 160);
        assert_eq!(fitting_scale(200, 60, true), 3);
        assert_eq!(fitting_scale(400, 140, true), 1);
        assert_eq!(fitting_scale(10, 10, true), 4);
    }
}
