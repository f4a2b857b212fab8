//! The picture the VIC-II draws, as VICE's screenshots crop it: 384x272 pixels of a PAL
//! frame, the first pixel of the 320x200 text area at (32, 35), each pixel a palette index
//! 0-15. So a c64kit picture and a VICE screenshot of the same moment compare pixel by pixel.
//!
//! The buffer is drawn into line by line as the raster goes (a picture taken mid-frame
//! shows the new frame above the raster and the previous one below it, as VICE's does).

use super::model::VicModel;

/// Width of the visible area (PAL), in pixels.
pub const WIDTH: usize = 384;
/// Height of the visible area (PAL), in lines.
pub const HEIGHT: usize = 272;
/// Where the first pixel of the 320x200 text area is (x, y).
pub const TEXT_ORIGIN: (usize, usize) = (32, 35);
/// The first raster line shown (the picture's row 0).
pub const FIRST_LINE: u16 = 16;

/// A PAL frame's visible area as palette indices, with what each pixel drawn from
/// character ROM data could have been (for comparisons with pictures taken on a machine
/// whose character ROM differs from ours: we ship no Commodore ROM).
#[derive(Clone, PartialEq, Eq)]
pub struct Picture {
    pixels: Vec<u8>,
    rom_colours: Vec<u16>,
    /// Frames completed since power-on.
    pub frames: u64,
    /// The model whose visible area the picture is: a 6569's fills it, an NTSC chip's the
    /// first 247 rows (VICE's NTSC crop, lines 28-274), the text area at (32, 23).
    model: VicModel,
}

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Picture({WIDTH}x{HEIGHT}, frame {})", self.frames)
    }
}

impl Default for Picture {
    fn default() -> Self {
        Picture {
            pixels: vec![0; WIDTH * HEIGHT],
            rom_colours: vec![0; WIDTH * HEIGHT],
            frames: 0,
            model: VicModel::Mos6569,
        }
    }
}

impl Picture {
    /// No pixels at all: for a raster engine that only answers questions and never draws
    /// (no 300 KB to allocate and clear).
    pub(super) fn none() -> Picture {
        Picture {
            pixels: Vec::new(),
            rom_colours: Vec::new(),
            frames: 0,
            model: VicModel::Mos6569,
        }
    }

    /// The picture of a `model` chip (its visible area and text origin).
    pub(super) fn set_model(&mut self, model: VicModel) {
        self.model = model;
    }

    /// The visible area's size (width, height) as VICE crops this chip's screenshots: 384x272
    /// on a 6569, 384x247 on the NTSC chips (the rows below are not drawn).
    pub fn visible_size(&self) -> (usize, usize) {
        self.model.visible_size()
    }

    /// Where the 320x200 text area's first pixel is: (32, 35) on a 6569, (32, 23) on NTSC.
    pub fn text_origin(&self) -> (usize, usize) {
        self.model.text_origin()
    }

    /// All pixels, row by row (palette indices 0-15).
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The palette index at (x, y); 0 outside the picture.
    pub fn pixel(&self, x: usize, y: usize) -> u8 {
        if x < WIDTH && y < HEIGHT {
            self.pixels[y * WIDTH + x]
        } else {
            0
        }
    }

    /// For a pixel the graphics drew from character ROM data: bit n set for each colour n
    /// its cell could show there (the pixel's own colour among them). 0 for every other
    /// pixel (RAM graphics, sprites, border) and outside the picture.
    pub fn rom_colours(&self, x: usize, y: usize) -> u16 {
        if x < WIDTH && y < HEIGHT {
            self.rom_colours[y * WIDTH + x]
        } else {
            0
        }
    }

    /// A picture of the given pixels (palette indices) and ROM colours, WIDTH x HEIGHT each,
    /// row by row; None if a length is wrong. For tests of code that compares pictures.
    #[doc(hidden)]
    pub fn from_pixels(pixels: Vec<u8>, rom_colours: Vec<u16>) -> Option<Picture> {
        (pixels.len() == WIDTH * HEIGHT && rom_colours.len() == WIDTH * HEIGHT).then_some(Picture {
            pixels,
            rom_colours,
            frames: 0,
            model: VicModel::Mos6569,
        })
    }

    /// Row `y`'s pixels and ROM colours (y < HEIGHT).
    pub(super) fn row(&self, y: usize) -> (&[u8], &[u16]) {
        let i = y * WIDTH;
        (&self.pixels[i..i + WIDTH], &self.rom_colours[i..i + WIDTH])
    }

    /// Sets row `y` (y < HEIGHT) from a row of the same width.
    pub(super) fn set_row(&mut self, y: usize, pixels: &[u8], rom: &[u16]) {
        let i = y * WIDTH;
        self.pixels[i..i + WIDTH].copy_from_slice(pixels);
        self.rom_colours[i..i + WIDTH].copy_from_slice(rom);
    }

    /// Sets the 8 pixels from (x, y) on (the drawing's own access; x + 8 <= WIDTH).
    #[inline]
    pub(super) fn set_chunk(&mut self, x: usize, y: usize, colours: &[u8; 8], rom: &[u16; 8]) {
        let i = y * WIDTH + x;
        self.pixels[i..i + 8].copy_from_slice(colours);
        self.rom_colours[i..i + 8].copy_from_slice(rom);
    }
}
