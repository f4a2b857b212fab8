//! The VIC-II's picture as displays get it ([`Picture`]: 384x272 palette indices, VICE's
//! screenshot area), and what they make of it: the whole picture or its 320x200 text area,
//! scaled ([`Picture::image`]), and an indexed PNG of that (feature `png`).

use crate::abi::{PICTURE_LIVE, PICTURE_STILL, TEXT_ORIGIN};

/// How a picture was drawn (see [`crate::abi::PICTURE_LIVE`] and
/// [`crate::abi::PICTURE_STILL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureKind {
    /// A whole frame drawn while the program ran.
    Live,
    /// Redrawn from memory and registers at one moment, without the CPU.
    Still,
}

impl PictureKind {
    pub(crate) fn from_raw(kind: u32) -> Option<PictureKind> {
        match kind {
            PICTURE_LIVE => Some(PictureKind::Live),
            PICTURE_STILL => Some(PictureKind::Still),
            _ => None,
        }
    }

    pub(crate) fn to_raw(self) -> u32 {
        match self {
            PictureKind::Live => PICTURE_LIVE,
            PictureKind::Still => PICTURE_STILL,
        }
    }
}

/// The VIC-II's picture, borrowed for a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picture<'a> {
    /// `width * height` palette indices (0-15), row by row.
    pub pixels: &'a [u8],
    pub width: usize,
    pub height: usize,
    pub kind: PictureKind,
    /// The cycle it shows (see [`crate::abi::Frame::picture_cycles`]).
    pub cycles: u64,
}

/// An image of palette indices (0-15), row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

impl Picture<'_> {
    /// The palette index at (x, y); 0 outside the picture.
    pub fn pixel(&self, x: usize, y: usize) -> u8 {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] & 15
        } else {
            0
        }
    }

    /// Where the picture comes from, for people: "the frame complete at cycle N", or "cycle
    /// N, redrawn from memory and registers" (a still picture says so: it lacks what a
    /// program changes during a frame).
    pub fn origin(&self) -> String {
        match self.kind {
            PictureKind::Live => format!("the frame complete at cycle {}", self.cycles),
            PictureKind::Still => format!(
                "cycle {}, redrawn from memory and registers without the CPU",
                self.cycles
            ),
        }
    }

    /// The whole picture (`border`) or its 320x200 text area, each pixel `scale` x `scale`
    /// (at least 1).
    pub fn image(&self, border: bool, scale: usize) -> Image {
        let scale = scale.max(1);
        let (x0, y0, w, h) = if border {
            (0, 0, self.width, self.height)
        } else {
            (TEXT_ORIGIN.0, TEXT_ORIGIN.1, 320, 200)
        };
        let mut pixels = Vec::with_capacity(w * h * scale * scale);
        for y in 0..h {
            let row: Vec<u8> = (0..w)
                .flat_map(|x| std::iter::repeat_n(self.pixel(x0 + x, y0 + y), scale))
                .collect();
            for _ in 0..scale {
                pixels.extend_from_slice(&row);
            }
        }
        Image {
            width: w * scale,
            height: h * scale,
            pixels,
        }
    }
}

/// The image as a PNG file: 8-bit indexed colour with the 16 colours of `palette` (the
/// frame's), so each pixel keeps its exact C64 colour index.
#[cfg(feature = "png")]
pub fn encode_png(img: &Image, palette: &crate::palette::Palette) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, img.width as u32, img.height as u32);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(palette.iter().flatten().copied().collect::<Vec<u8>>());
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&img.pixels)
            .map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crops_to_the_text_area_and_scales() {
        let mut px = vec![14u8; 384 * 272];
        px[35 * 384 + 32] = 1; // the text area's first pixel
        let p = Picture {
            pixels: &px,
            width: 384,
            height: 272,
            kind: PictureKind::Still,
            cycles: 7,
        };
        let whole = p.image(true, 1);
        assert_eq!((whole.width, whole.height), (384, 272));
        let text = p.image(false, 2);
        assert_eq!((text.width, text.height), (640, 400));
        assert_eq!(&text.pixels[..3], &[1, 1, 14]);
        assert_eq!(&text.pixels[640..643], &[1, 1, 14]);
        assert!(p.origin().contains("redrawn"));
    }
}
