//! The 16 VIC-II colours as RGB: Philip "Pepto" Timmermann's PAL palette ("Calculating the
//! colours of the VIC-II", 2001, pepto.de/projects/colorvic/2001), the values VICE ships as
//! `pepto-pal`. Measured from the chip's luminances and hue angles, not taken from any ROM.

/// RGB of colours 0-15: black, white, red, cyan, purple, green, blue, yellow, orange, brown,
/// light red, dark grey, grey, light green, light blue, light grey.
pub const PEPTO: [[u8; 3]; 16] = [
    [0x00, 0x00, 0x00],
    [0xFF, 0xFF, 0xFF],
    [0x68, 0x37, 0x2B],
    [0x70, 0xA4, 0xB2],
    [0x6F, 0x3D, 0x86],
    [0x58, 0x8D, 0x43],
    [0x35, 0x28, 0x79],
    [0xB8, 0xC7, 0x6F],
    [0x6F, 0x4F, 0x25],
    [0x43, 0x39, 0x00],
    [0x9A, 0x67, 0x59],
    [0x44, 0x44, 0x44],
    [0x6C, 0x6C, 0x6C],
    [0x9A, 0xD2, 0x84],
    [0x6C, 0x5E, 0xB5],
    [0x95, 0x95, 0x95],
];

/// 16 colours as RGB, colour 0 first: what a display shows each picture index as.
pub type Palette = [[u8; 3]; 16];

/// The hue of colours 0-15 as Pepto's model places them: sector n of 16 (22.5 degrees each,
/// the first centred at 11.25 degrees) on the U/V plane, or none (the greys, black, white).
/// Purple 2, red and light red 4, orange 5, brown 6, yellow 7, green and light green 10,
/// cyan 12, blue and light blue 15.
const SECTORS: [Option<u8>; 16] = [
    None,
    None,
    Some(4),
    Some(12),
    Some(2),
    Some(10),
    Some(15),
    Some(7),
    Some(5),
    Some(6),
    Some(4),
    None,
    None,
    Some(10),
    Some(15),
    None,
];

/// The palette of a VIC-II whose colours 0-15 have luminances `luma` (0 black to 32 white, a
/// model's `ModelFacts::luma`), calculated as Pepto's "Calculating the colours of the VIC-II"
/// (pepto.de/projects/colorvic, 2017) does at its default settings (brightness 50, contrast
/// 100, saturation 50): each colour a YUV vector (luma 8 a unit, chroma of one saturation at
/// its hue sector), scaled by the contrast plus the screen's fifth, to RGB with PAL's
/// coefficients, then from PAL's gamma (2.8) to sRGB's (2.2). On the later revisions'
/// luminances it gives the article's palette (grey #7b7b7b, red #813338).
pub fn calculate(luma: &[u8; 16]) -> Palette {
    const SCREEN: f64 = 1.0 / 5.0;
    let sector = 360.0 / 16.0;
    // The article's settings: brightness 50, contrast 100, saturation 50 (of 100), each
    // normalised as it does (brightness - 50, contrast / 100, saturation less the screen's).
    const BRIGHTNESS: f64 = 50.0;
    const CONTRAST: f64 = 100.0;
    let (brightness, contrast) = (BRIGHTNESS - 50.0, CONTRAST / 100.0);
    let saturation = 50.0 * (1.0 - SCREEN);
    let gamma = |v: f64| {
        let v = v.clamp(0.0, 255.0);
        let linear = 255f64.powf(1.0 - 2.8) * v.powf(2.8);
        (255f64.powf(1.0 - 1.0 / 2.2) * linear.powf(1.0 / 2.2)).round() as u8
    };
    std::array::from_fn(|c| {
        let (u, v) = match SECTORS[c] {
            Some(n) => {
                let angle = (sector / 2.0 + f64::from(n) * sector).to_radians();
                (angle.cos() * saturation, angle.sin() * saturation)
            }
            None => (0.0, 0.0),
        };
        let scale = contrast + SCREEN;
        let y = (8.0 * f64::from(luma[c]) + brightness) * scale;
        let (u, v) = (u * scale, v * scale);
        [
            gamma(y + 1.140 * v),
            gamma(y - 0.396 * u - 0.581 * v),
            gamma(y + 2.029 * u),
        ]
    })
}

/// The colour names, for people.
pub const NAMES: [&str; 16] = [
    "black",
    "white",
    "red",
    "cyan",
    "purple",
    "green",
    "blue",
    "yellow",
    "orange",
    "brown",
    "light red",
    "dark grey",
    "grey",
    "light green",
    "light blue",
    "light grey",
];

/// `#rrggbb` of colour `c` (the low nibble is used) in `palette`.
pub fn hex(palette: &Palette, c: u8) -> String {
    let [r, g, b] = palette[(c & 15) as usize];
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The later revisions' luminances (c64kit_chips' `LUMA_LATER_REVISIONS`; this crate
    /// does not depend on the chips).
    const LATER: [u8; 16] = [0, 32, 10, 20, 12, 16, 8, 24, 12, 8, 16, 10, 15, 24, 15, 20];

    #[test]
    fn the_calculation_gives_the_articles_palette() {
        let p = calculate(&LATER);
        // The article's (colodore's) values at the default settings.
        assert_eq!(p[0], [0, 0, 0]);
        assert_eq!(p[1], [0xFF, 0xFF, 0xFF]);
        assert_eq!(p[2], [0x81, 0x33, 0x38], "red");
        assert_eq!(p[11], [0x4A, 0x4A, 0x4A], "dark grey");
        assert_eq!(p[12], [0x7B, 0x7B, 0x7B], "grey");
        // Each hue is near Pepto's 2001 palette's: the same colour, redder, bluer...
        for c in 0..16 {
            let d: i32 = (0..3)
                .map(|i| (i32::from(p[c][i]) - i32::from(PEPTO[c][i])).abs())
                .max()
                .unwrap();
            assert!(
                d < 0x50,
                "colour {c} ({}): {:?} vs {:?}",
                NAMES[c],
                p[c],
                PEPTO[c]
            );
        }
    }
}
