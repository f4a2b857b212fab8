//! Screenshot tests, judged by VICE's rule (its testbench's cmpscreens): our picture and the
//! reference are aligned on the first pixel of the 320x200 text area, and every pixel of the
//! area both cover must show the same colour, each reference pixel taken as the nearest of
//! the 16 Pepto colours.
//!
//! A second, lenient result forgives what our missing character ROM explains: c64kit ships
//! no Commodore ROM, so text drawn from the character ROM has other shapes. A differing pixel
//! counts as matching when the picture says it was drawn from character ROM data in a cell
//! that could show the reference's colour there.

use c64kit_machine::picture::{HEIGHT, WIDTH};
use c64kit_machine::Picture;
use c64kit_plugin_api::palette::{NAMES, PEPTO};
use std::fmt;
use std::path::{Path, PathBuf};

/// A reference PNG larger than this is no screenshot (VICE's are a few KiB).
pub const MAX_REFERENCE_FILE: u64 = 8 * c64kit_files::MIB;

/// Nor is one wider or taller than this (a PAL frame is 384x272 pixels).
pub const MAX_REFERENCE_SIDE: u32 = 2048;

/// The chip variants a reference may be named after, tried in this order when a test has
/// no plain `references/<prg>.png`.
pub const VARIANTS: [&str; 4] = ["8565", "8565early", "8562", "8562early"];

/// The reference pictures a test may have, in the order they are tried: the plain
/// `references/<prg>.png` first (the name keeps `.prg`), then `<prg>-<variant>.png`.
/// VICE's testbench runs an 8565 and so tries `-8565` first; c64kit models the 6569, whose
/// picture is the plain one wherever a variant exists.
pub fn reference_candidates(test_dir: &Path, prg: &str) -> Vec<PathBuf> {
    let dir = test_dir.join("references");
    std::iter::once(format!("{prg}.png"))
        .chain(VARIANTS.iter().map(|v| format!("{prg}-{v}.png")))
        .map(|name| dir.join(name))
        .collect()
}

/// The first reference picture that exists.
pub fn find_reference(test_dir: &Path, prg: &str) -> Option<PathBuf> {
    reference_candidates(test_dir, prg)
        .into_iter()
        .find(|p| p.is_file())
}

/// Where the text area's first pixel is in a reference of this size. VICE's screenshots of
/// a PAL C64 are 384x272 with it at (32, 35), of an NTSC one 384x247 at (32, 23) (VICE's
/// testbench tells them by the `_ntsc` in the name; the size says the same). Any other size
/// is taken as VICE's testbench takes it: a PAL screenshot, (32, 35).
pub fn reference_origin(width: usize, height: usize) -> (usize, usize) {
    if (width, height) == (384, 247) {
        (32, 23)
    } else {
        (32, 35)
    }
}

/// The Pepto colour nearest to `rgb` (squared distance in RGB; the lower index on a tie).
pub fn nearest_colour(rgb: [u8; 3]) -> u8 {
    let distance = |c: &[u8; 3]| -> u32 {
        (0..3)
            .map(|i| (rgb[i] as i32 - c[i] as i32).pow(2) as u32)
            .sum()
    };
    let mut best = 0;
    for (i, c) in PEPTO.iter().enumerate() {
        if distance(c) < distance(&PEPTO[best]) {
            best = i;
        }
    }
    best as u8
}

/// A reference picture as palette indices.
#[derive(Clone, PartialEq, Eq)]
pub struct Reference {
    pub width: usize,
    pub height: usize,
    /// Where the text area's first pixel is ([`reference_origin`]).
    pub origin: (usize, usize),
    /// Palette indices 0-15, row by row.
    pub pixels: Vec<u8>,
    /// Pixels whose colour is no Pepto colour exactly (taken as the nearest).
    pub off_palette: usize,
}

impl fmt::Debug for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Reference({}x{}, origin {:?})",
            self.width, self.height, self.origin
        )
    }
}

impl Reference {
    /// Reads and decodes a reference PNG; errors name the file.
    pub fn load(path: &Path) -> Result<Reference, String> {
        let bytes = c64kit_files::read(path, MAX_REFERENCE_FILE, "a reference picture")
            .map_err(|e| e.to_string())?;
        Reference::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Decodes a PNG of any colour type and bit depth (palettes, grey and bit depths below 8
    /// expanded to 8-bit samples; alpha ignored, as cmpscreens ignores it).
    pub fn decode(bytes: &[u8]) -> Result<Reference, String> {
        let bad = |e: png::DecodingError| format!("not a usable PNG picture: {e}");
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let info = decoder.read_header_info().map_err(bad)?;
        let (w, h) = (info.width, info.height);
        // Checked before the pixels are allocated.
        if w == 0 || h == 0 || w > MAX_REFERENCE_SIDE || h > MAX_REFERENCE_SIDE {
            return Err(format!(
                "{w}x{h} pixels is no screenshot (at most \
                 {MAX_REFERENCE_SIDE}x{MAX_REFERENCE_SIDE}): refused"
            ));
        }
        let mut reader = decoder.read_info().map_err(bad)?;
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| "the picture is too large to decode".to_string())?;
        let mut buf = vec![0; size];
        let frame = reader.next_frame(&mut buf).map_err(bad)?;
        let channels = match frame.color_type {
            png::ColorType::Grayscale => 1,
            png::ColorType::GrayscaleAlpha => 2,
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            png::ColorType::Indexed => return Err("the palette was not expanded".into()),
        };
        if frame.bit_depth != png::BitDepth::Eight {
            return Err(format!("{:?} samples were not expanded", frame.bit_depth));
        }
        let (width, height) = (frame.width as usize, frame.height as usize);
        let mut pixels = Vec::with_capacity(width * height);
        let mut off_palette = 0;
        for y in 0..height {
            let row = buf
                .get(y * frame.line_size..)
                .and_then(|r| r.get(..width * channels))
                .ok_or_else(|| "the decoded rows are shorter than the picture".to_string())?;
            for px in row.chunks_exact(channels) {
                let rgb = if channels < 3 {
                    [px[0]; 3]
                } else {
                    [px[0], px[1], px[2]]
                };
                let c = nearest_colour(rgb);
                off_palette += (PEPTO[c as usize] != rgb) as usize;
                pixels.push(c);
            }
        }
        Ok(Reference {
            width,
            height,
            origin: reference_origin(width, height),
            pixels,
            off_palette,
        })
    }

    /// The palette index at (x, y) (inside the picture).
    fn at(&self, x: usize, y: usize) -> u8 {
        self.pixels[y * self.width + x]
    }
}

/// One differing pixel, in our picture's coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Difference {
    pub x: usize,
    pub y: usize,
    pub ours: u8,
    pub reference: u8,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({}, {}): ours {}, the reference's {}",
            self.x,
            self.y,
            NAMES[(self.ours & 15) as usize],
            NAMES[(self.reference & 15) as usize]
        )
    }
}

/// A rectangle of our picture: x, y, width, height.
pub type Area = (usize, usize, usize, usize);

/// How our picture compares with a reference over the area both cover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// The compared area.
    pub area: Area,
    /// Pixels of another colour than the reference's, and the first (row by row).
    pub differing: usize,
    pub first: Option<Difference>,
    /// Of those, the ones our character ROM does not explain (the lenient rule), and the first.
    pub unexplained: usize,
    pub first_unexplained: Option<Difference>,
    /// The reference's pixels off the Pepto palette ([`Reference::off_palette`]).
    pub off_palette: usize,
}

/// What a pixel of our picture is, compared with the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PixelMatch {
    Same,
    /// Differs, but is character-ROM text that could show the reference's colour.
    RomText,
    Differs,
}

/// The rectangle of our picture both cover and the shift from ours to the reference's
/// coordinates; None if they share no pixel.
fn overlap(ours: &Picture, reference: &Reference) -> Option<(Area, (isize, isize))> {
    let axis = |ours_len: usize, ours_origin: usize, ref_len: usize, ref_origin: usize| {
        let shift = ref_origin as isize - ours_origin as isize;
        let start = (-shift).max(0);
        let end = (ours_len as isize).min(ref_len as isize - shift);
        (end > start).then_some((start as usize, (end - start) as usize, shift))
    };
    // Ours is the visible area of its VIC-II (a PAL or an NTSC crop).
    let ((width, height), origin) = (ours.visible_size(), ours.text_origin());
    let (x, w, sx) = axis(width, origin.0, reference.width, reference.origin.0)?;
    let (y, h, sy) = axis(height, origin.1, reference.height, reference.origin.1)?;
    Some(((x, y, w, h), (sx, sy)))
}

/// Every pixel of the compared area: (x, y) in our picture, ours, the reference's, and
/// whether the lenient rule lets it pass.
fn each_pixel(
    ours: &Picture,
    reference: &Reference,
    mut f: impl FnMut(usize, usize, u8, u8, PixelMatch),
) -> Option<Area> {
    let ((x0, y0, w, h), (sx, sy)) = overlap(ours, reference)?;
    for y in y0..y0 + h {
        let ry = (y as isize + sy) as usize;
        for x in x0..x0 + w {
            let r = reference.at((x as isize + sx) as usize, ry);
            let o = ours.pixel(x, y);
            let m = if o == r {
                PixelMatch::Same
            } else if ours.rom_colours(x, y) & (1 << (r & 15)) != 0 {
                PixelMatch::RomText
            } else {
                PixelMatch::Differs
            };
            f(x, y, o, r, m);
        }
    }
    Some((x0, y0, w, h))
}

/// Compares by VICE's rule and by the lenient one; None if the pictures share no pixel
/// once aligned.
pub fn compare(ours: &Picture, reference: &Reference) -> Option<Comparison> {
    let (mut differing, mut unexplained) = (0, 0);
    let (mut first, mut first_unexplained) = (None, None);
    let area = each_pixel(ours, reference, |x, y, o, r, m| {
        let d = Difference {
            x,
            y,
            ours: o,
            reference: r,
        };
        if m != PixelMatch::Same {
            differing += 1;
            first.get_or_insert(d);
        }
        if m == PixelMatch::Differs {
            unexplained += 1;
            first_unexplained.get_or_insert(d);
        }
    })?;
    Some(Comparison {
        area,
        differing,
        first,
        unexplained,
        first_unexplained,
        off_palette: reference.off_palette,
    })
}

/// The outcome of a comparison in the results' words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// Every pixel the same (VICE's rule).
    Exact,
    /// Only the lenient rule passes.
    ExceptRomText,
    Differs,
}

impl Comparison {
    pub fn result(&self) -> Match {
        if self.differing == 0 {
            Match::Exact
        } else if self.unexplained == 0 {
            Match::ExceptRomText
        } else {
            Match::Differs
        }
    }

    /// For the results: how many pixels differ and where the first is.
    pub fn describe(&self) -> String {
        let (x, y, w, h) = self.area;
        let n = w * h;
        let mut s = match (self.first, self.first_unexplained) {
            (None, _) => format!("all {n} pixels match"),
            (Some(d), None) => format!(
                "{} of {n} pixels differ, the first at {d}; all in character-ROM text that \
                 could show the reference's colour",
                self.differing
            ),
            (Some(d), Some(_)) if self.unexplained == self.differing => format!(
                "{} of {n} pixels differ, the first at {d}; the character ROM explains none",
                self.differing
            ),
            (Some(d), Some(u)) => format!(
                "{} of {n} pixels differ, the first at {d}; {} even allowing for the \
                 character ROM, the first at {u}",
                self.differing, self.unexplained
            ),
        };
        if (w, h) != (WIDTH, HEIGHT) {
            s += &format!(" (compared: {w}x{h} from ({x}, {y}))");
        }
        if self.off_palette > 0 {
            s += &format!(
                "; {} reference pixels are off the Pepto palette (taken as the nearest colour)",
                self.off_palette
            );
        }
        s
    }
}

/// Where ours differs, as a WIDTH x HEIGHT picture of palette indices: black where the
/// colours match, white where they differ, dark grey where only the lenient rule lets them
/// pass, blue outside the compared area.
pub fn diff_pixels(ours: &Picture, reference: &Reference) -> Vec<u8> {
    let mut px = vec![6; WIDTH * HEIGHT];
    each_pixel(ours, reference, |x, y, _, _, m| {
        px[y * WIDTH + x] = match m {
            PixelMatch::Same => 0,
            PixelMatch::RomText => 11,
            PixelMatch::Differs => 1,
        };
    });
    px
}

/// An 8-bit indexed PNG in the Pepto palette.
pub fn encode_png(width: usize, height: usize, pixels: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, width as u32, height as u32);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(PEPTO.iter().flatten().copied().collect::<Vec<u8>>());
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    let masked: Vec<u8> = pixels.iter().map(|p| p & 15).collect();
    writer
        .write_image_data(&masked)
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use c64kit_machine::picture::TEXT_ORIGIN;

    /// Our picture: `f(x, y)` at every pixel, with these ROM colours.
    fn ours(f: impl Fn(usize, usize) -> u8, rom: impl Fn(usize, usize) -> u16) -> Picture {
        let mut px = Vec::with_capacity(WIDTH * HEIGHT);
        let mut rc = Vec::with_capacity(WIDTH * HEIGHT);
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                px.push(f(x, y));
                rc.push(rom(x, y));
            }
        }
        Picture::from_pixels(px, rc).unwrap()
    }

    fn reference(width: usize, height: usize, f: impl Fn(usize, usize) -> u8) -> Reference {
        let pixels = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| f(x, y))
            .collect();
        Reference {
            width,
            height,
            origin: reference_origin(width, height),
            pixels,
            off_palette: 0,
        }
    }

    /// A colour pattern in text-area coordinates (the same wherever the origin is).
    fn pattern(tx: isize, ty: isize) -> u8 {
        (tx * 7 + ty * 3).rem_euclid(16) as u8
    }

    fn png_of(
        width: u32,
        height: u32,
        colour: png::ColorType,
        depth: png::BitDepth,
        palette: Option<Vec<u8>>,
        data: &[u8],
    ) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(colour);
        enc.set_depth(depth);
        if let Some(p) = palette {
            enc.set_palette(p);
        }
        let mut w = enc.write_header().unwrap();
        w.write_image_data(data).unwrap();
        w.finish().unwrap();
        out
    }

    #[test]
    fn nearest_colour_maps_to_the_pepto_palette() {
        for (i, c) in PEPTO.iter().enumerate() {
            assert_eq!(nearest_colour(*c), i as u8);
        }
        assert_eq!(nearest_colour([0x6D, 0x6B, 0x6D]), 12); // grey, slightly off
        assert_eq!(nearest_colour([0xFE, 0xFE, 0xFE]), 1);
        assert_eq!(nearest_colour([0x10, 0x08, 0x08]), 0);
        assert_eq!(nearest_colour([0x6C, 0x5E, 0xB0]), 14); // light blue, not grey
        assert_eq!(nearest_colour([0x30, 0x28, 0x80]), 6);
    }

    #[test]
    fn origin_by_size() {
        assert_eq!(reference_origin(384, 272), (32, 35));
        assert_eq!(reference_origin(384, 247), (32, 23));
        assert_eq!(reference_origin(758, 594), (32, 35));
    }

    #[test]
    fn decodes_rgb_rgba_palette_and_grey() {
        use png::{BitDepth as D, ColorType as C};
        let rgb: Vec<u8> = [PEPTO[1], PEPTO[6], [0x6D, 0x6B, 0x6D]]
            .iter()
            .flatten()
            .copied()
            .collect();
        let r = Reference::decode(&png_of(3, 1, C::Rgb, D::Eight, None, &rgb)).unwrap();
        assert_eq!((r.width, r.height, r.origin), (3, 1, (32, 35)));
        assert_eq!((r.pixels.as_slice(), r.off_palette), (&[1, 6, 12][..], 1));

        let rgba = [0x68, 0x37, 0x2B, 0, 0x9A, 0xD2, 0x84, 255];
        let r = Reference::decode(&png_of(2, 1, C::Rgba, D::Eight, None, &rgba)).unwrap();
        assert_eq!((r.pixels.as_slice(), r.off_palette), (&[2, 13][..], 0));

        // 16-bit samples are cut to their high byte.
        let rgb16 = [0x70, 0x01, 0xA4, 0x02, 0xB2, 0x03];
        let r = Reference::decode(&png_of(1, 1, C::Rgb, D::Sixteen, None, &rgb16)).unwrap();
        assert_eq!(r.pixels, [3]);

        // A 4-colour palette at 2 bits per pixel, 5 pixels: 00 01 10 11 | 10 (padded).
        let palette: Vec<u8> = [0, 7, 2, 15].iter().flat_map(|&c| PEPTO[c]).collect();
        let p = png_of(
            5,
            1,
            C::Indexed,
            D::Two,
            Some(palette),
            &[0b0001_1011, 0b1000_0000],
        );
        let r = Reference::decode(&p).unwrap();
        assert_eq!(r.pixels, [0, 7, 2, 15, 2]);

        // Grey at 1 bit: black and white; at 8 bits: a grey level.
        let g = png_of(
            3,
            2,
            C::Grayscale,
            D::One,
            None,
            &[0b1010_0000, 0b0100_0000],
        );
        let r = Reference::decode(&g).unwrap();
        assert_eq!(r.pixels, [1, 0, 1, 0, 1, 0]);
        let g = png_of(1, 1, C::Grayscale, D::Eight, None, &[0x95]);
        assert_eq!(Reference::decode(&g).unwrap().pixels, [15]);
    }

    #[test]
    fn refuses_what_is_no_screenshot() {
        let e = Reference::decode(b"GIF89a not a png").unwrap_err();
        assert!(e.starts_with("not a usable PNG picture"), "{e}");
        let wide = png_of(
            3000,
            1,
            png::ColorType::Grayscale,
            png::BitDepth::One,
            None,
            &[0; 375],
        );
        let e = Reference::decode(&wide).unwrap_err();
        assert!(e.contains("3000x1 pixels is no screenshot"), "{e}");
        // Cut short: the header is fine, the pixels are missing.
        let full = png_of(
            8,
            8,
            png::ColorType::Grayscale,
            png::BitDepth::Eight,
            None,
            &[0; 64],
        );
        assert!(Reference::decode(&full[..40]).is_err());
    }

    #[test]
    fn load_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.prg.png");
        let e = Reference::load(&missing).unwrap_err();
        assert!(e.contains("missing.prg.png"), "{e}");
        let junk = dir.path().join("junk.prg.png");
        std::fs::write(&junk, b"junk").unwrap();
        let e = Reference::load(&junk).unwrap_err();
        assert!(e.contains("junk.prg.png: not a usable PNG picture"), "{e}");
        let e = Reference::load(dir.path()).unwrap_err();
        assert!(e.contains("folder"), "{e}");
    }

    #[test]
    fn reference_names_fall_back_to_the_chip_variants() {
        let dir = tempfile::tempdir().unwrap();
        let refs = dir.path().join("references");
        std::fs::create_dir(&refs).unwrap();
        let names: Vec<String> = reference_candidates(dir.path(), "t.prg")
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "t.prg.png",
                "t.prg-8565.png",
                "t.prg-8565early.png",
                "t.prg-8562.png",
                "t.prg-8562early.png"
            ]
        );
        assert_eq!(find_reference(dir.path(), "t.prg"), None);
        for name in ["t.prg-8562.png", "t.prg-8565early.png", "t-8565.png"] {
            std::fs::write(refs.join(name), b"").unwrap();
        }
        assert_eq!(
            find_reference(dir.path(), "t.prg"),
            Some(refs.join("t.prg-8565early.png"))
        );
        std::fs::write(refs.join("t.prg.png"), b"").unwrap();
        assert_eq!(
            find_reference(dir.path(), "t.prg"),
            Some(refs.join("t.prg.png"))
        );
        // A folder of that name is not a picture.
        std::fs::create_dir(refs.join("u.prg.png")).unwrap();
        assert_eq!(find_reference(dir.path(), "u.prg"), None);
    }

    #[test]
    fn identical_pictures_match_everywhere() {
        let (ox, oy) = (TEXT_ORIGIN.0 as isize, TEXT_ORIGIN.1 as isize);
        let ours = ours(|x, y| pattern(x as isize - ox, y as isize - oy), |_, _| 0);
        let r = reference(384, 272, |x, y| pattern(x as isize - 32, y as isize - 35));
        let c = compare(&ours, &r).unwrap();
        assert_eq!(c.area, (0, 0, WIDTH, HEIGHT));
        assert_eq!((c.differing, c.unexplained, c.first), (0, 0, None));
        assert_eq!(c.result(), Match::Exact);
        assert_eq!(c.describe(), "all 104448 pixels match");
    }

    #[test]
    fn aligns_on_the_text_area_whatever_the_sizes() {
        let (ox, oy) = (TEXT_ORIGIN.0 as isize, TEXT_ORIGIN.1 as isize);
        let ours = ours(|x, y| pattern(x as isize - ox, y as isize - oy), |_, _| 0);
        // NTSC-sized: 12 lines fewer above the text area, 13 below.
        let ntsc = reference(384, 247, |x, y| pattern(x as isize - 32, y as isize - 23));
        let c = compare(&ours, &ntsc).unwrap();
        assert_eq!((c.area, c.differing), ((0, 12, 384, 247), 0));
        assert!(c.describe().contains("(compared: 384x247 from (0, 12))"));
        // Smaller than ours, origin (32, 35) by VICE's default.
        let small = reference(40, 50, |x, y| pattern(x as isize - 32, y as isize - 35));
        let c = compare(&ours, &small).unwrap();
        assert_eq!((c.area, c.differing), ((0, 0, 40, 50), 0));
        // Larger: only our picture's area is compared.
        let big = reference(500, 400, |x, y| pattern(x as isize - 32, y as isize - 35));
        let c = compare(&ours, &big).unwrap();
        assert_eq!((c.area, c.differing), ((0, 0, WIDTH, HEIGHT), 0));
        // An origin further in than ours: the reference starts left of our picture.
        let mut shifted = reference(100, 100, |x, y| pattern(x as isize - 50, y as isize - 40));
        shifted.origin = (50, 40);
        let c = compare(&ours, &shifted).unwrap();
        assert_eq!((c.area, c.differing), ((0, 0, 82, 95), 0));
        // Misaligned by one pixel: differs.
        let off = reference(384, 272, |x, y| pattern(x as isize - 33, y as isize - 35));
        assert_eq!(compare(&ours, &off).unwrap().result(), Match::Differs);
        // No pixel in common.
        let mut apart = reference(10, 10, |_, _| 0);
        apart.origin = (500, 0);
        assert_eq!(compare(&ours, &apart), None);
    }

    #[test]
    fn counts_the_differences_and_names_the_first() {
        let ours = ours(
            |x, y| match (x, y) {
                (40, 36) | (41, 36) => 14,
                (5, 200) => 2,
                _ => 6,
            },
            |_, _| 0,
        );
        let r = reference(384, 272, |_, _| 6);
        let c = compare(&ours, &r).unwrap();
        assert_eq!((c.differing, c.unexplained), (3, 3));
        let first = Difference {
            x: 40,
            y: 36,
            ours: 14,
            reference: 6,
        };
        assert_eq!((c.first, c.first_unexplained), (Some(first), Some(first)));
        assert_eq!(c.result(), Match::Differs);
        assert_eq!(
            c.describe(),
            "3 of 104448 pixels differ, the first at (40, 36): ours light blue, the \
             reference's blue; the character ROM explains none"
        );
        // Some explained: the first unexplained one is named too.
        let rom = |x, y| if (x, y) == (40, 36) { 1 << 6 } else { 0 };
        let ours = Picture::from_pixels(ours.pixels().to_vec(), {
            (0..WIDTH * HEIGHT)
                .map(|i| rom(i % WIDTH, i / WIDTH))
                .collect()
        })
        .unwrap();
        let c = compare(&ours, &r).unwrap();
        assert_eq!((c.differing, c.unexplained), (3, 2));
        assert!(
            c.describe().ends_with(
                "; 2 even allowing for the character ROM, the first at (41, 36): ours light \
                 blue, the reference's blue"
            ),
            "{}",
            c.describe()
        );
    }

    #[test]
    fn the_lenient_rule_forgives_character_rom_text() {
        // Text at (100..108, 50): ours light blue where the reference has blue background,
        // in a cell that could show light blue or blue (bits 14 and 6).
        let text = |x: usize, y: usize| (100..108).contains(&x) && y == 50;
        let ours_text = ours(
            |x, y| if text(x, y) { 14 } else { 6 },
            |x, y| if text(x, y) { 1 << 14 | 1 << 6 } else { 0 },
        );
        let r = reference(384, 272, |_, _| 6);
        let c = compare(&ours_text, &r).unwrap();
        assert_eq!((c.differing, c.unexplained), (8, 0));
        assert_eq!(c.first.map(|d| (d.x, d.y)), Some((100, 50)));
        assert_eq!(c.result(), Match::ExceptRomText);
        assert!(c
            .describe()
            .ends_with("all in character-ROM text that could show the reference's colour"));
        // A cell that could not show the reference's colour (white or light blue only).
        let ours_other = ours(
            |x, y| if text(x, y) { 14 } else { 6 },
            |x, y| if text(x, y) { 1 << 14 | 1 << 1 } else { 0 },
        );
        let c = compare(&ours_other, &r).unwrap();
        assert_eq!((c.differing, c.unexplained), (8, 8));
        assert_eq!(c.result(), Match::Differs);
        // ROM colours of a pixel that matches anyway change nothing.
        let same = ours(|_, _| 6, |_, _| 1 << 14 | 1 << 6);
        assert_eq!(compare(&same, &r).unwrap().result(), Match::Exact);
    }

    #[test]
    fn diff_picture_marks_each_kind_of_pixel() {
        // Against an NTSC-sized reference (rows 12-258 of ours compared): at row 13 one
        // pixel differs and one differs as character-ROM text could.
        let ours = ours(
            |x, y| if y == 13 && (x == 1 || x == 2) { 14 } else { 6 },
            |x, y| if (x, y) == (2, 13) { 1 << 6 } else { 0 },
        );
        let d = diff_pixels(&ours, &reference(384, 247, |_, _| 6));
        assert_eq!(d.len(), WIDTH * HEIGHT);
        assert_eq!((d[0], d[11 * WIDTH], d[259 * WIDTH]), (6, 6, 6));
        assert_eq!(d[12 * WIDTH], 0);
        assert_eq!(d[13 * WIDTH..13 * WIDTH + 4], [0, 1, 11, 0]);
    }

    #[test]
    fn saved_pictures_decode_to_the_same_colours() {
        let px: Vec<u8> = (0..WIDTH * HEIGHT).map(|i| (i % 16) as u8).collect();
        let png = encode_png(WIDTH, HEIGHT, &px).unwrap();
        let r = Reference::decode(&png).unwrap();
        assert_eq!((r.width, r.height, r.off_palette), (WIDTH, HEIGHT, 0));
        assert_eq!(r.pixels, px);
    }
}
