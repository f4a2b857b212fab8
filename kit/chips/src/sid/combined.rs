//! Combined waveforms: two or three of triangle, sawtooth and pulse selected
//! at once.
//!
//! **Why not the AND.** The waveform selector connects every selected
//! waveform's bit `k` to output bit line `k`. A driver at 0 is stronger than
//! one at 1 (NMOS logic: an enhancement pull-down against a depletion load),
//! and the lines are not independent: the triangle's bit `k` is the
//! accumulator's bit `k - 1`, the sawtooth's bit `k` the accumulator's bit
//! `k`, so with both selected the lines and the accumulator bits form one
//! chain; pulse ties every line to one comparator output. A 1 therefore
//! survives only where its neighbours hold up too: the real chips read far
//! less than the AND of the outputs (the 6581's sawtooth+triangle is 0 over
//! most of the period, its MSB never 1).
//!
//! **Model.** Each bit line's level is the drive-weighted mean of the
//! selected waveforms' bits (a 0 and a 1 driver have their own strengths per
//! waveform). An output bit reads 1 when the average of all twelve line
//! levels, weighted by `exp(-distance / decay)` (its own line by `own`),
//! passes a threshold.
//!
//! **Parameters** were fitted, per chip model and combination, to samples of
//! real chips: the reference dumps in VICE testprogs SID/resid-test
//! (`oscsample0/1-6581/8580`: OSC3 over the whole sawtooth period, with pulse
//! width 0 and $100, one 6581 and one 8580, dumped by Dag Lem). Those dumps
//! also show that combined waveforms vary between chips and even between
//! runs; the fit is a model of one chip each, not a table. How far each fit
//! is from its samples (OSC3's 8 bits; samples are 4,088 or 8,184 per
//! combination) is listed with its parameters.

use std::sync::OnceLock;

use super::voice::triangle_output;
use super::SidModel;

/// One combination's fitted parameters.
#[derive(Clone, Copy, Debug)]
struct Params {
    /// How fast a line's influence falls off with distance, in bits.
    decay: f64,
    /// The weighted level an output bit needs to read 1 (a line's level runs
    /// from 0 to 1).
    threshold: f64,
    /// The drive of a sawtooth bit at 0 (a 1 drives with 1).
    saw_zero: f64,
    /// The drive of a triangle bit at 0.
    tri_zero: f64,
    /// The drive of the pulse at 0...
    pulse_zero: f64,
    /// ...and at 1.
    pulse_one: f64,
    /// The weight of an output bit's own line (a neighbour at distance d has
    /// `exp(-d / decay)`).
    own: f64,
}

/// The combinations, in table order: control bits 7-4 = 3 (sawtooth +
/// triangle), 5 (pulse + triangle), 6 (pulse + sawtooth), 7 (all three).
const COMBINATIONS: [u8; 4] = [3, 5, 6, 7];

/// The 6581's parameters (bit errors of the fit / of the AND of the
/// outputs, over OSC3's 8 bits of the samples).
const PARAMS_6581: [Params; 4] = [
    // 92 / 6,504 bit errors over 4,088 samples.
    Params {
        decay: 1.1149,
        threshold: 0.8738,
        saw_zero: 9.1786,
        tri_zero: 5.8490,
        pulse_zero: 51.093,
        pulse_one: 6.3601,
        own: 1.0,
    },
    // 968 / 29,142 over 8,184.
    Params {
        decay: 6.1878,
        threshold: 0.7805,
        saw_zero: 0.4787,
        tri_zero: 1.6095,
        pulse_zero: 15.863,
        pulse_one: 0.3220,
        own: 1.0,
    },
    // 239 / 13,009 over 4,088.
    Params {
        decay: 10.185,
        threshold: 0.7874,
        saw_zero: 4.8036,
        tri_zero: 0.8816,
        pulse_zero: 2.4782,
        pulse_one: 1.2539,
        own: 1.0,
    },
    // 8 / 6,880 over 4,088.
    Params {
        decay: 13.992,
        threshold: 0.7943,
        saw_zero: 7.6729,
        tri_zero: 10.935,
        pulse_zero: 21.007,
        pulse_one: 0.2138,
        own: 1.0,
    },
];

/// The 8580's parameters.
const PARAMS_8580: [Params; 4] = [
    // 1,054 / 18,670 over 8,184.
    Params {
        decay: 1.6582,
        threshold: 0.8639,
        saw_zero: 16.786,
        tri_zero: 0.01644,
        pulse_zero: 14.894,
        pulse_one: 1.7709,
        own: 1.0,
    },
    // 3,546 / 23,435 over 8,184.
    Params {
        decay: 2.8172,
        threshold: 0.8946,
        saw_zero: 6.5874,
        tri_zero: 2.9807,
        pulse_zero: 18.463,
        pulse_one: 0.5191,
        own: 7.0119,
    },
    // 3,073 / 23,821 over 8,184.
    Params {
        decay: 3.8794,
        threshold: 0.8718,
        saw_zero: 26.905,
        tri_zero: 16.786,
        pulse_zero: 4.6310,
        pulse_one: 0.03375,
        own: 8.5767,
    },
    // 940 / 17,989 over 8,184.
    Params {
        decay: 2.0175,
        threshold: 0.8910,
        saw_zero: 54.665,
        tri_zero: 0.003753,
        pulse_zero: 48.930,
        pulse_one: 12.863,
        own: 1.0,
    },
];

/// The 12-bit triangle output for a 12-bit accumulator value (no ring
/// modulation: it applies only without the sawtooth).
fn triangle_of(acc12: u16) -> u16 {
    triangle_output(u32::from(acc12) << 12, acc12 & 0x800 != 0)
}

/// The model's output for one set of selector inputs.
fn model_output(p: &Params, wave: u8, sawtooth: u16, triangle: u16, pulse: bool) -> u16 {
    let level = |k: usize| {
        let (mut sum, mut drive) = (0.0, 0.0);
        let mut add = |bit: bool, zero: f64, one: f64| {
            let d = if bit { one } else { zero };
            drive += d;
            if bit {
                sum += d;
            }
        };
        if wave & 1 != 0 {
            add(triangle >> k & 1 != 0, p.tri_zero, 1.0);
        }
        if wave & 2 != 0 {
            add(sawtooth >> k & 1 != 0, p.saw_zero, 1.0);
        }
        if wave & 4 != 0 {
            add(pulse, p.pulse_zero, p.pulse_one);
        }
        sum / drive
    };
    let levels: [f64; 12] = std::array::from_fn(level);
    (0..12).fold(0, |out, j| {
        let (mut sum, mut weights) = (0.0, 0.0);
        for (k, level) in levels.iter().enumerate() {
            let w = if j == k {
                p.own
            } else {
                (-(j.abs_diff(k) as f64) / p.decay).exp()
            };
            sum += w * level;
            weights += w;
        }
        if sum / weights > p.threshold {
            out | 1 << j
        } else {
            out
        }
    })
}

/// One model's outputs: [combination][pulse][key], the key being the
/// sawtooth (12-bit accumulator value) for combinations with the sawtooth,
/// the triangle's 12-bit output for pulse + triangle.
type Tables = [[[u16; 4096]; 2]; 4];

fn build(params: &[Params; 4]) -> Box<Tables> {
    let mut tables = Box::new([[[0u16; 4096]; 2]; 4]);
    for (c, (&wave, p)) in COMBINATIONS.iter().zip(params).enumerate() {
        for (pulse, table) in tables[c].iter_mut().enumerate() {
            for (key, out) in table.iter_mut().enumerate() {
                let key = key as u16;
                let (sawtooth, triangle) = if wave & 2 != 0 {
                    (key, triangle_of(key))
                } else {
                    (0, key)
                };
                *out = model_output(p, wave, sawtooth, triangle, pulse != 0);
            }
        }
    }
    tables
}

fn tables(model: SidModel) -> &'static Tables {
    static TABLES_6581: OnceLock<Box<Tables>> = OnceLock::new();
    static TABLES_8580: OnceLock<Box<Tables>> = OnceLock::new();
    match model {
        SidModel::Mos6581 => TABLES_6581.get_or_init(|| build(&PARAMS_6581)),
        SidModel::Mos8580 => TABLES_8580.get_or_init(|| build(&PARAMS_8580)),
    }
}

/// The 12-bit output of combination `wave` (control bits 6-4: 3, 5, 6 or
/// 7) for the selector's inputs.
pub(crate) fn combined(
    model: SidModel,
    wave: u8,
    triangle: u16,
    sawtooth: u16,
    pulse: bool,
) -> u16 {
    let c = match wave {
        3 => 0,
        5 => 1,
        6 => 2,
        _ => 3,
    };
    let key = if wave & 2 != 0 { sawtooth } else { triangle };
    tables(model)[c][usize::from(pulse)][usize::from(key & 0xFFF)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_6581s_sawtooth_triangle_never_shows_its_msb() {
        // SID/detect and SID/osc_topbit: a real 6581 never shows OSC3's MSB
        // with sawtooth + triangle.
        for acc in 0..4096 {
            let out = combined(SidModel::Mos6581, 3, triangle_of(acc), acc, true);
            assert_eq!(out & 0x800, 0, "accumulator ${acc:03X}xxx");
        }
    }

    #[test]
    fn a_one_needs_its_neighbours() {
        // Sawtooth + triangle at $800: the AND is $800, a lone 1 pulled down
        // by eleven 0s.
        for model in [SidModel::Mos6581, SidModel::Mos8580] {
            assert_eq!(combined(model, 3, triangle_of(0x800), 0x800, true), 0);
        }
    }
}
