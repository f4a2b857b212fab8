//! The SID's digital-to-analogue converters and the levels of a voice, as
//! lookup tables built once per chip model.
//!
//! **R-2R ladders.** The waveform (12-bit), envelope (8-bit) and cutoff
//! (11-bit) DACs are R-2R resistor ladders (Bob Yannes on the SID's design).
//! Published measurements of the chips describe the 6581's ladders as having
//! 2R/R of about 2.20 and no termination resistor at the LSB end, which makes
//! them non-linear (a bit's weight is not exactly half the next one's, most
//! visibly at the major carries $400/$800 of the cutoff register, where real
//! 6581s jump: midibox.org forum, "Possible filter bug?"), and the
//! 8580's as 2R/R = 2.00, terminated: linear. [`r2r_weights`] solves the
//! ladder's nodal equations for each bit (superposition: the ladder is
//! linear in its inputs), so a code's output is the sum of its bits' weights.
//!
//! **A voice** outputs `(wave - 1/2) * envelope + voice DC`, in units of one
//! voice's full swing: `wave` and `envelope` are the DAC outputs scaled to
//! 0..1, the waveform swinging around the middle of its DAC's range (an
//! approximation: the 6581's true zero level sits lower, which makes
//! envelopes thump; not modelled). The voice DC does not depend on the
//! envelope: with every envelope at 0 the three voices and the mixer still
//! put a DC level into the master volume stage, and writing the volume
//! register moves it: the "$D418 digi". On the 6581 that DC is large; on the
//! 8580 it was reduced so far that such digis play very quietly (Marko
//! Mäkelä and Richard Atkinson on cbm-hackers, May 2000; C=Hacking #20,
//! "The C64 Digi", 2001). The sizes here are estimates ([`VOICE_DC_6581`],
//! [`MIXER_DC_6581`], ...): a full volume sweep moves a 6581 by about one
//! voice's full swing, an 8580 by about 3% of that.

use super::voice::{waveform_with_pulse, Inputs};
use super::SidModel;
use std::sync::OnceLock;

/// Fixed-point scale of the waveform levels: one voice's full swing.
pub const LEVEL_ONE: i32 = 1 << 16;

/// Each 6581 voice's DC offset, in voice full swings (an estimate, see the
/// module documentation).
pub const VOICE_DC_6581: f64 = 0.2;
/// The 6581 mixer's own DC offset, in voice full swings (an estimate).
pub const MIXER_DC_6581: f64 = 0.3;
/// Each 8580 voice's DC offset: none measurable.
pub const VOICE_DC_8580: f64 = 0.0;
/// The 8580 mixer's DC offset, in voice full swings (an estimate: digis
/// about 30 dB quieter than on a 6581).
pub const MIXER_DC_8580: f64 = 0.03;

/// 2R/R of the 6581's ladders (published measurements).
const LADDER_RATIO_6581: f64 = 2.20;

/// The normalised weight of each bit of an `bits`-bit R-2R ladder whose 2R
/// legs are `ratio` times its R steps (bit 0 first; the weights sum to 1, so
/// the full code reads 1). `terminated`: the LSB end has its 2R resistor to
/// ground. The output is the MSB node, unloaded.
pub fn r2r_weights(bits: usize, ratio: f64, terminated: bool) -> Vec<f64> {
    let (g, g2) = (1.0, 1.0 / ratio);
    // Nodal equations: diag[i] * V[i] - g * (V[i-1] + V[i+1]) = g2 * s[i].
    let diag: Vec<f64> = (0..bits)
        .map(|i| {
            let mut d = g2;
            if i > 0 {
                d += g;
            }
            if i + 1 < bits {
                d += g;
            }
            if i == 0 && terminated {
                d += g2;
            }
            d
        })
        .collect();
    let mut weights: Vec<f64> = (0..bits)
        .map(|bit| {
            let rhs: Vec<f64> = (0..bits).map(|i| if i == bit { g2 } else { 0.0 }).collect();
            solve_tridiagonal(&diag, -g, &rhs)[bits - 1]
        })
        .collect();
    let total: f64 = weights.iter().sum();
    for w in &mut weights {
        *w /= total;
    }
    weights
}

/// Solves a symmetric tridiagonal system with constant off-diagonal `off`
/// (the Thomas algorithm; the ladder's matrix is diagonally dominant).
fn solve_tridiagonal(diag: &[f64], off: f64, rhs: &[f64]) -> Vec<f64> {
    let n = diag.len();
    let mut c = vec![0.0; n];
    let mut d = vec![0.0; n];
    c[0] = off / diag[0];
    d[0] = rhs[0] / diag[0];
    for i in 1..n {
        let m = diag[i] - off * c[i - 1];
        c[i] = off / m;
        d[i] = (rhs[i] - off * d[i - 1]) / m;
    }
    let mut x = vec![0.0; n];
    x[n - 1] = d[n - 1];
    for i in (0..n - 1).rev() {
        x[i] = d[i] - c[i] * x[i + 1];
    }
    x
}

/// A DAC's output for every code, from its ladder.
fn dac_table(model: SidModel, bits: usize) -> Vec<f64> {
    let weights = match model {
        SidModel::Mos6581 => r2r_weights(bits, LADDER_RATIO_6581, false),
        SidModel::Mos8580 => r2r_weights(bits, 2.0, true),
    };
    (0..1usize << bits)
        .map(|code| {
            (0..bits)
                .filter(|b| code >> b & 1 != 0)
                .map(|b| weights[b])
                .sum()
        })
        .collect()
}

/// Everything the synthesis looks up, for one chip model.
pub(crate) struct Tables {
    /// A 12-bit waveform output's level (`LEVEL_ONE` = one full swing,
    /// centred on the DAC's middle).
    pub(crate) wave: Box<[i32; 4096]>,
    /// For each triangle/sawtooth/pulse selection (control bits 4-6), the
    /// level by the accumulator's top 12 bits, with the pulse high...
    pub(crate) shapes: Box<[[i32; 4096]; 8]>,
    /// ...and with the pulse low (pulse alone then outputs 0; combined, not
    /// always: see [`super::combined`]).
    pub(crate) shapes_pulse_low: Box<[[i32; 4096]; 8]>,
    /// Noise alone: the level of each 8-bit noise output.
    pub(crate) noise: Box<[i32; 256]>,
    /// The envelope DAC's output for each counter value, 0..1.
    pub(crate) envelope: Box<[f64; 256]>,
    /// The cutoff DAC's output for each 11-bit register value, 0..1.
    pub(crate) cutoff: Box<[f64; 2048]>,
    /// Each voice's DC offset and the mixer's, in full swings.
    pub(crate) voice_dc: f64,
    pub(crate) mixer_dc: f64,
}

impl Tables {
    fn build(model: SidModel) -> Tables {
        let wave_dac = dac_table(model, 12);
        let mut wave = Box::new([0i32; 4096]);
        for (level, dac) in wave.iter_mut().zip(&wave_dac) {
            *level = ((dac - 0.5) * f64::from(LEVEL_ONE)).round() as i32;
        }
        let shape_table = |pulse_high: bool| {
            let mut shapes = Box::new([[0i32; 4096]; 8]);
            for (selection, shape) in shapes.iter_mut().enumerate().skip(1) {
                for (top, level) in shape.iter_mut().enumerate() {
                    let inputs = Inputs {
                        control: (selection as u8) << 4,
                        acc: (top as u32) << 12,
                        ring_acc: 0,
                        pulse_width: 0,
                        lfsr: 0,
                    };
                    *level = wave[usize::from(waveform_with_pulse(model, &inputs, pulse_high))];
                }
            }
            shapes[0] = [wave[0]; 4096];
            shapes
        };
        let shapes = shape_table(true);
        let shapes_pulse_low = shape_table(false);
        let mut noise = Box::new([0i32; 256]);
        for (out, level) in noise.iter_mut().enumerate() {
            *level = wave[out << 4];
        }
        let mut envelope = Box::new([0f64; 256]);
        envelope.copy_from_slice(&dac_table(model, 8));
        let mut cutoff = Box::new([0f64; 2048]);
        cutoff.copy_from_slice(&dac_table(model, 11));
        let (voice_dc, mixer_dc) = match model {
            SidModel::Mos6581 => (VOICE_DC_6581, MIXER_DC_6581),
            SidModel::Mos8580 => (VOICE_DC_8580, MIXER_DC_8580),
        };
        Tables {
            wave,
            shapes,
            shapes_pulse_low,
            noise,
            envelope,
            cutoff,
            voice_dc,
            mixer_dc,
        }
    }
}

/// The tables of `model`, built on first use and shared by every SID.
pub(crate) fn tables(model: SidModel) -> &'static Tables {
    static TABLES: [OnceLock<Tables>; 2] = [OnceLock::new(), OnceLock::new()];
    let index = match model {
        SidModel::Mos6581 => 0,
        SidModel::Mos8580 => 1,
    };
    TABLES[index].get_or_init(|| Tables::build(model))
}

/// The output of `model`'s `bits`-bit DAC (8: envelope, 11: cutoff, 12:
/// waveform) for `code`, 0..1.
pub fn dac_output(model: SidModel, bits: usize, code: u16) -> f64 {
    let t = tables(model);
    match bits {
        8 => t.envelope[usize::from(code & 0xFF)],
        11 => t.cutoff[usize::from(code & 0x7FF)],
        _ => f64::from(t.wave[usize::from(code & 0xFFF)]) / f64::from(LEVEL_ONE) + 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminated_2r_ladder_is_binary() {
        let w = r2r_weights(12, 2.0, true);
        for (bit, weight) in w.iter().enumerate() {
            let ideal = f64::from(1u32 << bit) / 4095.0;
            assert!(
                (weight - ideal).abs() < 1e-12,
                "bit {bit}: {weight} vs {ideal}"
            );
        }
    }

    #[test]
    fn the_6581_ladder_is_not() {
        let w = r2r_weights(12, LADDER_RATIO_6581, false);
        // Increasing weights summing to 1...
        assert!(w.windows(2).all(|p| p[0] < p[1]));
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // ...but without the termination the LSB weighs more than half of
        // bit 1, and at 2R/R > 2 the MSB less than all lower bits together.
        assert!(w[0] > 0.55 * w[1], "{} vs {}", w[0], w[1]);
        assert!(w[11] < w[..11].iter().sum::<f64>());
        // So the 6581's DACs step down at their major carries.
        let wave = |code| dac_output(SidModel::Mos6581, 12, code);
        assert!(wave(0x800) < wave(0x7FF), "{} {}", wave(0x800), wave(0x7FF));
        let env = |code| dac_output(SidModel::Mos6581, 8, code);
        assert!(env(0x80) < env(0x7F), "{} {}", env(0x80), env(0x7F));
        let cutoff = |code| dac_output(SidModel::Mos6581, 11, code);
        assert!(
            cutoff(0x400) < cutoff(0x3FF),
            "{} {}",
            cutoff(0x400),
            cutoff(0x3FF)
        );
    }

    #[test]
    fn the_8580_tables_are_linear() {
        for code in [0u16, 1, 0x7FF, 0x800, 0xFFF] {
            let out = dac_output(SidModel::Mos8580, 12, code);
            assert!(
                (out - f64::from(code) / 4095.0).abs() < 1e-4,
                "{code}: {out}"
            );
        }
        assert_eq!(dac_output(SidModel::Mos8580, 8, 0), 0.0);
        assert!((dac_output(SidModel::Mos8580, 8, 255) - 1.0).abs() < 1e-12);
    }
}
