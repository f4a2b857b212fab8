//! The text view: the 40x25 screen's characters (graphics as their Unicode look-alikes) in
//! the C64's colours inside its border, or plain; the part a [`TextFit`] shows.

use crate::layout::TextFit;
use crate::paint::Painter;
use crate::resample::rgb;
use c64kit_basic::petscii::screen_code_to_char;
use c64kit_plugin_api::abi::Screen;
use c64kit_plugin_api::palette::Palette;

/// Terminal rows of the part of the screen `fit` shows. In colour: with the border where it
/// shows, two columns either side and a row above and below. Plain: the characters alone,
/// without trailing spaces (shifted space, $A0, as `█` so it shows).
pub fn text_rows(s: &Screen, palette: &Palette, colour: bool, fit: &TextFit) -> Vec<Vec<u8>> {
    let lower = s.lowercase != 0;
    let rows = fit.first_row..fit.first_row + fit.rows;
    let cols = fit.first_col..fit.first_col + fit.cols;
    let mut p = Painter::default();
    if !colour {
        for row in rows {
            let line: String = cols
                .clone()
                .map(|col| match s.chars[row * 40 + col] {
                    0xA0 => '█',
                    code => screen_code_to_char(code, lower),
                })
                .collect();
            p.plain(line.trim_end());
            p.end_row();
        }
        return p.rows();
    }
    let b = rgb(palette, s.border);
    let blank = s.vic[0x11] & 0x10 == 0;
    let width = fit.size().cols;
    let border_row = |p: &mut Painter| {
        (0..width).for_each(|_| p.put(b, b, ' '));
        p.end_row();
    };
    if fit.border_rows {
        border_row(&mut p);
    }
    for row in rows {
        if fit.border_cols {
            p.put(b, b, ' ');
            p.put(b, b, ' ');
        }
        for col in cols.clone() {
            if blank {
                p.put(b, b, ' ');
                continue;
            }
            let cell = s.text_cell(row * 40 + col);
            let (f, g) = cell.shown_colours();
            p.put(
                rgb(palette, f),
                rgb(palette, g),
                screen_code_to_char(cell.glyph, lower),
            );
        }
        if fit.border_cols {
            p.put(b, b, ' ');
            p.put(b, b, ' ');
        }
        p.end_row();
    }
    if fit.border_rows {
        border_row(&mut p);
    }
    p.rows()
}
