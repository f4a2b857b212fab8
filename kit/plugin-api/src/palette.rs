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

/// `#rrggbb` of colour `c` (the low nibble is used).
pub fn hex(c: u8) -> String {
    let [r, g, b] = PEPTO[(c & 15) as usize];
    format!("#{r:02x}{g:02x}{b:02x}")
}
