//! The picture at another size: each dot the average colour of the C64 pixels it covers,
//! weighted by how much of each it covers. Shrunk, a thin line or a character's strokes
//! tint their dot instead of vanishing or standing out at random, as picking one pixel a
//! dot would do; enlarged by a whole number, every dot is exactly one pixel's colour.
//! Colours are averaged as the palette's sRGB values (no gamma correction: the 16 colours
//! blend into plausible tints either way, and it keeps the sums in integers).

use c64kit_plugin_api::palette::Palette;

/// A 24-bit colour.
pub type Rgb = [u8; 3];

/// The colour of palette index `c` (0-15) in `palette` (the frame's).
pub fn rgb(palette: &Palette, c: u8) -> Rgb {
    palette[(c & 15) as usize]
}

/// `pixels` (`width` x `height` palette indices, row by row) as `to_width` x `to_height`
/// colours of `palette`, row by row. Empty if any size is 0.
pub fn resample(
    palette: &Palette,
    pixels: &[u8],
    width: usize,
    height: usize,
    to_width: usize,
    to_height: usize,
) -> Vec<Rgb> {
    if width == 0 || height == 0 || to_width == 0 || to_height == 0 {
        return Vec::new();
    }
    let xs = spans(width, to_width);
    let ys = spans(height, to_height);
    // Each dot's weights add up to width * height.
    let total = (width * height) as u64;
    let mut out = Vec::with_capacity(to_width * to_height);
    for y_span in &ys {
        for x_span in &xs {
            let mut sum = [0u64; 3];
            for &(y, wy) in y_span {
                let row = &pixels[y * width..(y + 1) * width];
                for &(x, wx) in x_span {
                    let weight = wy * wx;
                    for (s, c) in sum.iter_mut().zip(rgb(palette, row[x])) {
                        *s += weight * u64::from(c);
                    }
                }
            }
            out.push(sum.map(|s| ((s + total / 2) / total) as u8));
        }
    }
    out
}

/// Along one axis of `from` pixels shown as `to` dots: for each dot, the pixels it covers
/// and how much of each, in 1/`to` of a pixel (a dot's shares add up to `from`).
fn spans(from: usize, to: usize) -> Vec<Vec<(usize, u64)>> {
    (0..to)
        .map(|dot| {
            // The dot covers [dot * from, (dot + 1) * from) and pixel p covers
            // [p * to, (p + 1) * to), both in 1/to of a pixel.
            let (start, end) = (dot * from, (dot + 1) * from);
            (start / to..end.div_ceil(to))
                .map(|p| {
                    let share = end.min((p + 1) * to) - start.max(p * to);
                    (p, share as u64)
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use c64kit_plugin_api::palette::PEPTO;

    #[test]
    fn each_dot_averages_the_pixels_it_covers() {
        // Black and white columns, shrunk to half: every dot half of each.
        let stripes: Vec<u8> = (0..4 * 2).map(|i| if i % 2 == 0 { 0 } else { 1 }).collect();
        let half = resample(&PEPTO, &stripes, 4, 2, 2, 1);
        assert_eq!(half, vec![[128, 128, 128]; 2]);
        // Three pixels into two dots: the middle one is split between them.
        let three = [0u8, 1, 1];
        assert_eq!(
            resample(&PEPTO, &three, 3, 1, 2, 1),
            vec![[85, 85, 85], [255, 255, 255]]
        );
    }

    #[test]
    fn whole_multiples_and_the_same_size_keep_exact_colours() {
        let px = [2u8, 6, 14, 5];
        assert_eq!(
            resample(&PEPTO, &px, 2, 2, 2, 2),
            px.iter().map(|&c| rgb(&PEPTO, c)).collect::<Vec<_>>()
        );
        let big = resample(&PEPTO, &px, 2, 2, 6, 4);
        assert_eq!(big.len(), 24);
        assert_eq!(big[0], rgb(&PEPTO, 2));
        assert_eq!(big[2], rgb(&PEPTO, 2));
        assert_eq!(big[3], rgb(&PEPTO, 6));
        assert_eq!(big[23], rgb(&PEPTO, 5));
    }

    #[test]
    fn spans_share_every_pixel_out_exactly_once() {
        for (from, to) in [(384, 67), (272, 48), (320, 1), (5, 7), (384, 768)] {
            let spans = spans(from, to);
            assert_eq!(spans.len(), to);
            let mut per_pixel = vec![0u64; from];
            for dot in &spans {
                assert_eq!(dot.iter().map(|&(_, s)| s).sum::<u64>(), from as u64);
                for &(p, s) in dot {
                    per_pixel[p] += s;
                }
            }
            assert!(per_pixel.iter().all(|&s| s == to as u64), "{from} -> {to}");
        }
        assert!(resample(&PEPTO, &[1], 1, 1, 0, 3).is_empty());
    }
}
