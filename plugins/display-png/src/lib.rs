//! The PNG display: screenshots of the screen as the VIC-II shows it in its text modes,
//! 320x200 pixels plus the border (384x272 in all, as a PAL screen shows it), in Pepto's
//! palette. Glyphs come from the character set the VIC reads: a set in RAM, the configured
//! CHARGEN image, or else c64kit's own font (`c64kit_basic::font`).
//!
//! Text modes drawn: standard, multicolour (`$D016` bit 4) and extended background colour
//! (`$D011` bit 6); a blanked screen (`$D011` bit 4 clear) shows the border colour. Bitmap
//! modes, sprites, scrolling and 38-column/24-row windows are not drawn (the text matrix is
//! shown instead).
//!
//! Options: `output` (file; default the program's name with .png, else screen.png), `at`
//! (repeatable: also write `<output>-<cycles>.png` at the first frame boundary at or after
//! that many cycles), `scale` (1-8, default 1), `border` (true/false, default true).

use c64kit_plugin_api::abi::{Screen, FLAG_FRAMES};
use c64kit_plugin_api::palette::PEPTO;
use c64kit_plugin_api::{DisplayBackend, HostRef, Options, RunEndInfo};
use std::path::{Path, PathBuf};

/// Border widths of a PAL screen as emulators show it: 32 pixels left and right, 36 above
/// and below.
pub const BORDER_X: usize = 32;
pub const BORDER_Y: usize = 36;

/// An image in palette indices (0-15).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
}

/// Draws the screen: `scale` pixels per C64 pixel, with or without the border.
pub fn render(screen: &Screen, scale: usize, border: bool) -> Image {
    let (bx, by) = if border { (BORDER_X, BORDER_Y) } else { (0, 0) };
    let (w, h) = (320 + 2 * bx, 200 + 2 * by);
    let mut px = vec![screen.border & 15; w * h];
    let d011 = screen.vic[0x11];
    let d016 = screen.vic[0x16];
    if d011 & 0x10 != 0 {
        let ecm = d011 & 0x40 != 0;
        let mcm = d016 & 0x10 != 0;
        let own = if screen.lowercase != 0 {
            c64kit_basic::font::lower()
        } else {
            c64kit_basic::font::upper()
        };
        for cell in 0..1000 {
            let (row, col) = (cell / 40, cell % 40);
            let code = screen.chars[cell];
            let colour = screen.colours[cell] & 15;
            let (index, bg) = if ecm {
                (code & 0x3F, screen.background[(code >> 6) as usize] & 15)
            } else {
                (code, screen.background[0] & 15)
            };
            let glyph: [u8; 8] = if screen.charset_valid != 0 {
                let at = index as usize * 8;
                screen.charset[at..at + 8].try_into().unwrap_or([0; 8])
            } else {
                own[index as usize]
            };
            for (line, &bits) in glyph.iter().enumerate() {
                let y = by + row * 8 + line;
                let x0 = bx + col * 8;
                let row_px = &mut px[y * w + x0..y * w + x0 + 8];
                if mcm && !ecm && colour & 8 != 0 {
                    for pair in 0..4 {
                        let v = (bits >> (6 - 2 * pair)) & 3;
                        let c = match v {
                            0 => screen.background[0],
                            1 => screen.background[1],
                            2 => screen.background[2],
                            _ => colour & 7,
                        } & 15;
                        row_px[pair * 2] = c;
                        row_px[pair * 2 + 1] = c;
                    }
                } else {
                    for (i, p) in row_px.iter_mut().enumerate() {
                        *p = if bits & (0x80 >> i) != 0 { colour } else { bg };
                    }
                }
            }
        }
    }
    scale_image(
        Image {
            width: w,
            height: h,
            pixels: px,
        },
        scale,
    )
}

fn scale_image(img: Image, scale: usize) -> Image {
    if scale <= 1 {
        return img;
    }
    let (w, h) = (img.width * scale, img.height * scale);
    let mut pixels = Vec::with_capacity(w * h);
    for y in 0..img.height {
        let row: Vec<u8> = img.pixels[y * img.width..(y + 1) * img.width]
            .iter()
            .flat_map(|&p| std::iter::repeat_n(p, scale))
            .collect();
        for _ in 0..scale {
            pixels.extend_from_slice(&row);
        }
    }
    Image {
        width: w,
        height: h,
        pixels,
    }
}

/// The image as a PNG file: 8-bit indexed colour with the 16-colour Pepto palette.
pub fn encode_png(img: &Image) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, img.width as u32, img.height as u32);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(PEPTO.iter().flatten().copied().collect::<Vec<u8>>());
        let mut writer = enc.write_header().map_err(|e| e.to_string())?;
        writer
            .write_image_data(&img.pixels)
            .map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

pub struct PngDisplay {
    output: PathBuf,
    /// Pending `at` shots, in increasing order.
    at: Vec<u64>,
    scale: usize,
    border: bool,
}

impl PngDisplay {
    fn write(&self, path: &Path, screen: &Screen, host: &HostRef) -> Result<(), String> {
        let img = render(screen, self.scale, self.border);
        let bytes = encode_png(&img)?;
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        host.note(&format!(
            "wrote {} ({}x{}, cycle {})",
            path.display(),
            img.width,
            img.height,
            screen.cycles
        ));
        Ok(())
    }

    fn at_path(&self, cycles: u64) -> PathBuf {
        let stem = self
            .output
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "screen".into());
        self.output.with_file_name(format!("{stem}-{cycles}.png"))
    }
}

impl DisplayBackend for PngDisplay {
    fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
        options.check_known(&["output", "at", "scale", "border"])?;
        let mut at = options
            .all("at")
            .iter()
            .map(|v| c64kit_plugin_api::parse_number_option("at", v))
            .collect::<Result<Vec<u64>, String>>()?;
        at.sort_unstable();
        at.dedup();
        let scale = options.number("scale")?.unwrap_or(1);
        if !(1..=8).contains(&scale) {
            return Err(format!("option scale: {scale} is not 1-8"));
        }
        Ok(PngDisplay {
            output: options.output_path("png"),
            at,
            scale: scale as usize,
            border: options.flag("border")?.unwrap_or(true),
        })
    }

    fn flags(&self) -> u32 {
        if self.at.is_empty() {
            0
        } else {
            FLAG_FRAMES
        }
    }

    fn frame(&mut self, screen: &Screen, host: &HostRef) -> Result<(), String> {
        while let Some(&next) = self.at.first() {
            if screen.cycles < next {
                break;
            }
            self.write(&self.at_path(next), screen, host)?;
            self.at.remove(0);
        }
        Ok(())
    }

    fn finish(&mut self, end: &RunEndInfo, screen: &Screen, host: &HostRef) -> Result<(), String> {
        for at in &self.at {
            host.note(&format!(
                "no screenshot at cycle {at}: the run ended at cycle {}",
                end.cycles
            ));
        }
        self.write(&self.output.clone(), screen, host)
    }
}

c64kit_plugin_api::export_display!(
    c64kit_plugin_entry_png,
    PngDisplay,
    "png",
    "PNG screenshots (384x272 with border, Pepto palette, c64kit's own font or CHARGEN)"
);

#[cfg(test)]
mod tests {
    use super::*;

    fn screen_with(text: &[u8]) -> Screen {
        let mut s = Screen::blank();
        s.vic[0x11] = 0x1B;
        s.vic[0x16] = 0xC8;
        for (i, &c) in text.iter().enumerate() {
            s.chars[i] = c;
        }
        s
    }

    #[test]
    fn draws_border_background_and_glyphs() {
        let s = screen_with(&[0x01, 0xA0]); // "A", reversed space
        let img = render(&s, 1, true);
        assert_eq!((img.width, img.height), (384, 272));
        assert_eq!(img.pixels[0], 14, "border");
        let at = |x: usize, y: usize| img.pixels[(BORDER_Y + y) * img.width + BORDER_X + x];
        assert_eq!(at(100, 100), 6, "background");
        // The reversed space is all text colour.
        assert!((0..8).all(|y| (8..16).all(|x| at(x, y) == 14)));
        // "A" has some pixels of each colour.
        let a: Vec<u8> = (0..8)
            .flat_map(|y| (0..8).map(move |x| (x, y)))
            .map(|(x, y)| at(x, y))
            .collect();
        assert!(a.contains(&14) && a.contains(&6));
        let big = render(&s, 2, false);
        assert_eq!((big.width, big.height), (640, 400));
    }

    #[test]
    fn uses_the_charset_it_is_given_and_blanking() {
        let mut s = screen_with(&[0x01]);
        s.charset_valid = 1;
        s.charset[8..16].copy_from_slice(&[0xFF; 8]); // glyph 1 solid
        let img = render(&s, 1, false);
        assert!((0..8).all(|y| (0..8).all(|x| img.pixels[y * 320 + x] == 14)));
        s.vic[0x11] &= !0x10;
        s.border = 2;
        let img = render(&s, 1, true);
        assert!(
            img.pixels.iter().all(|&p| p == 2),
            "blanked screen is all border"
        );
    }

    #[test]
    fn multicolour_and_extended_colour_text() {
        let mut s = screen_with(&[0x01, 0x41]);
        s.charset_valid = 1;
        s.charset[8] = 0b00_01_10_11; // glyph 1, top row: the four multicolour values
        s.background = [6, 2, 5, 0];
        s.colours[0] = 8 | 7; // multicolour, yellow
        s.vic[0x16] |= 0x10;
        let img = render(&s, 1, false);
        assert_eq!(&img.pixels[0..8], &[6, 6, 2, 2, 5, 5, 7, 7]);
        // Extended colour: code $41 is glyph 1 on background 1.
        s.vic[0x16] &= !0x10;
        s.vic[0x11] |= 0x40;
        let img = render(&s, 1, false);
        // Glyph 1's top row 00011011 on background 1 (red), in the cell's colour.
        assert_eq!(&img.pixels[8..16], &[2, 2, 2, 14, 14, 2, 14, 14]);
    }

    #[test]
    fn encodes_an_indexed_png() {
        let img = render(&screen_with(b"\x08\x09"), 1, true);
        let png = encode_png(&img).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let reader = decoder.read_info().unwrap();
        assert_eq!(reader.info().width, 384);
        assert_eq!(reader.info().palette.as_ref().unwrap().len(), 48);
    }
}
