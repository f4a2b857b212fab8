//! The picture as half blocks: a column per dot across and two dots a terminal row, `▀` in
//! the upper dot's colour on the lower one's; the picture resampled to the size a
//! [`PictureFit`] gives.

use crate::layout::PictureFit;
use crate::paint::Painter;
use crate::resample::resample;
use c64kit_plugin_api::palette::Palette;
use c64kit_plugin_api::Image;

/// Terminal rows of `img` at `fit`'s size.
pub fn picture_rows(img: &Image, palette: &Palette, fit: &PictureFit) -> Vec<Vec<u8>> {
    let dots = resample(
        palette,
        &img.pixels,
        img.width,
        img.height,
        fit.width,
        fit.dots,
    );
    let mut p = Painter::default();
    let lines: Vec<&[_]> = dots.chunks(fit.width.max(1)).collect();
    for pair in lines.chunks(2) {
        for (x, &top) in pair[0].iter().enumerate() {
            // An odd last line: its lower half is the terminal's own background.
            match pair.get(1) {
                Some(lower) => p.put(top, lower[x], '▀'),
                None => p.put_fg(top, '▀'),
            }
        }
        p.end_row();
    }
    p.rows()
}
