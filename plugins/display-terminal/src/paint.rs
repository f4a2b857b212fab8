//! Cells as terminal bytes, a terminal row at a time: colours are set only where they
//! change, and each row ends in the terminal's own colours, so any row can be redrawn alone.

use crate::resample::Rgb;
use crossterm::style::{Color, ResetColor, SetBackgroundColor, SetForegroundColor};
use crossterm::{cursor, queue};

/// Builds rows of cells.
#[derive(Default)]
pub struct Painter {
    rows: Vec<Vec<u8>>,
    out: Vec<u8>,
    /// The colours set: foreground and background (`None`: the terminal's own).
    cur: Option<(Rgb, Option<Rgb>)>,
}

fn color([r, g, b]: Rgb) -> Color {
    Color::Rgb { r, g, b }
}

impl Painter {
    /// A cell: `ch` in `fg` on `bg`.
    pub fn put(&mut self, fg: Rgb, bg: Rgb, ch: char) {
        if self.cur != Some((fg, Some(bg))) {
            let _ = queue!(
                self.out,
                SetForegroundColor(color(fg)),
                SetBackgroundColor(color(bg))
            );
            self.cur = Some((fg, Some(bg)));
        }
        self.char(ch);
    }

    /// A cell on the terminal's own background.
    pub fn put_fg(&mut self, fg: Rgb, ch: char) {
        if self.cur != Some((fg, None)) {
            let _ = queue!(self.out, ResetColor, SetForegroundColor(color(fg)));
            self.cur = Some((fg, None));
        }
        self.char(ch);
    }

    /// Text in the terminal's own colours.
    pub fn plain(&mut self, text: &str) {
        self.reset();
        self.out.extend_from_slice(text.as_bytes());
    }

    pub fn end_row(&mut self) {
        self.reset();
        self.rows.push(std::mem::take(&mut self.out));
    }

    pub fn rows(self) -> Vec<Vec<u8>> {
        self.rows
    }

    fn char(&mut self, ch: char) {
        let mut buf = [0u8; 4];
        self.out
            .extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }

    fn reset(&mut self) {
        if self.cur.take().is_some() {
            let _ = queue!(self.out, ResetColor);
        }
    }
}

/// Adds `text` to terminal row `row` (rows drawn from column 0) at column `col`, in the
/// terminal's own colours; the rows grow to reach it.
pub fn add_at(rows: &mut Vec<Vec<u8>>, row: usize, col: usize, text: &str) {
    if rows.len() <= row {
        rows.resize(row + 1, Vec::new());
    }
    let line = &mut rows[row];
    if col > 0 {
        // Wherever the row's cells end: the column is absolute.
        let _ = queue!(line, cursor::MoveToColumn(col as u16));
    }
    line.extend_from_slice(text.as_bytes());
}
