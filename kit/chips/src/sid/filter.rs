//! The SID's filter and the C64's audio output stage.
//!
//! **The filter** is a two-integrator-loop (state-variable) filter: a summer
//! makes the high-pass output, the first integrator the band-pass, the
//! second the low-pass; the resonance register sets the band-pass feedback
//! (Bob Yannes, as quoted in the libsidplayfp documentation). It is
//! simulated at the sample rate with the trapezoidal integrators of the
//! "topology-preserving transform" (V. Zavalishin, "The Art of VA Filter
//! Design"), which stays stable up to the Nyquist frequency and puts the
//! cutoff where the analogue filter has it. The selected outputs (mode bits
//! LP $10, BP $20, HP $40 of $D418) are summed and come out inverted, as the
//! SID's do (the summer's extra inverter).
//!
//! **Cutoff** ([`cutoff_hz`]): the 11-bit register ($D415 bits 0-2, $D416)
//! drives the cutoff DAC.
//! - 8580 (22 nF filter capacitors in the C64C): nearly linear from about
//!   30 Hz to about 12 kHz, the data sheet's range; recordings of real 8580s
//!   all look alike (Michiel Boland, "SID filter log sweep", 2024). Here:
//!   linear, 30 Hz + 5.85 Hz per step.
//! - 6581 (470 pF capacitors in the breadbin C64): roughly 200 Hz to 18 kHz,
//!   flat at the bottom of the register's range, then rising steeply and
//!   flattening again at the top, and different from chip to chip by up to a
//!   factor of two (Boland's recordings of four 6581s all differ). Here: the
//!   6581's non-linear cutoff DAC (see [`super::dac`]) feeding
//!   [`CUTOFF_6581`], a typical curve interpolated in log frequency: an
//!   approximation of the curve's shape, not of any one chip.
//!
//! **Resonance** ($D417 bits 4-7): from Q = 0.707 (no peak) at 0 up to about
//! 1.8 on the 6581, whose resonance is weak, and about 4 on the 8580, whose
//! resonance is much stronger; 1/Q moves linearly with the register (an
//! approximation: the chips switch four resistors).
//!
//! Not modelled: the 6581 filter's distortion at high levels, its
//! signal-dependent cutoff, and the external audio input (EXT IN, $D417 bit 3
//! routes silence).
//!
//! **Output stage**: the C64 board's audio output is
//! AC-coupled (a high-pass of about 16 Hz) and has an RC low-pass of about
//! 16 kHz (C64 schematics: 10 uF into 1 kOhm; 10 kOhm with 1 nF), both one
//! pole here.

use super::SidModel;
use std::f64::consts::PI;

/// The 6581's typical cutoff curve: (cutoff DAC output 0..1, Hz), to be
/// interpolated in log frequency. An approximation (see the module
/// documentation): chips differ by up to a factor of two.
pub const CUTOFF_6581: [(f64, f64); 9] = [
    (0.0, 200.0),
    (0.125, 230.0),
    (0.25, 380.0),
    (0.375, 800.0),
    (0.5, 1_800.0),
    (0.625, 4_000.0),
    (0.75, 8_500.0),
    (0.875, 14_000.0),
    (1.0, 18_000.0),
];

/// 8580 cutoff at register value 0, in Hz (data sheet).
pub const CUTOFF_8580_MIN: f64 = 30.0;
/// 8580 cutoff at register value $7FF, in Hz (data sheet: about 12 kHz).
pub const CUTOFF_8580_MAX: f64 = 12_000.0;

/// 1/Q at resonance 0 (Q = 0.707: no peak).
const DAMPING_MAX: f64 = std::f64::consts::SQRT_2;
/// 1/Q at resonance 15 on the 6581 (Q about 1.8) and the 8580 (Q about 4).
const DAMPING_MIN_6581: f64 = 0.55;
const DAMPING_MIN_8580: f64 = 0.25;

/// The output stage's high-pass (AC coupling) and low-pass corners, in Hz.
pub const OUTPUT_HIGH_PASS_HZ: f64 = 16.0;
pub const OUTPUT_LOW_PASS_HZ: f64 = 16_000.0;

/// The cutoff frequency in Hz for the 11-bit cutoff register value `fc`.
pub fn cutoff_hz(model: SidModel, fc: u16) -> f64 {
    let fc = fc & 0x7FF;
    match model {
        SidModel::Mos8580 => {
            CUTOFF_8580_MIN + (CUTOFF_8580_MAX - CUTOFF_8580_MIN) * f64::from(fc) / 2047.0
        }
        SidModel::Mos6581 => {
            let x = super::dac::dac_output(model, 11, fc);
            let i = CUTOFF_6581
                .windows(2)
                .position(|w| x <= w[1].0)
                .unwrap_or(CUTOFF_6581.len() - 2);
            let ((x0, f0), (x1, f1)) = (CUTOFF_6581[i], CUTOFF_6581[i + 1]);
            let t = ((x - x0) / (x1 - x0)).clamp(0.0, 1.0);
            (f0.ln() + t * (f1.ln() - f0.ln())).exp()
        }
    }
}

/// 1/Q for the 4-bit resonance register value `res`.
pub fn damping(model: SidModel, res: u8) -> f64 {
    let min = match model {
        SidModel::Mos6581 => DAMPING_MIN_6581,
        SidModel::Mos8580 => DAMPING_MIN_8580,
    };
    DAMPING_MAX - (DAMPING_MAX - min) * f64::from(res & 0x0F) / 15.0
}

/// The state-variable filter at one sample rate.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Svf {
    /// The integrators' states (trapezoidal: twice the capacitor current).
    s1: f64,
    s2: f64,
    /// Integrator gain tan(pi fc / fs), damping 1/Q, 1 / (1 + g (g + k)).
    g: f64,
    k: f64,
    h: f64,
    /// (model, fc, res) the coefficients are for; None: not yet set.
    key: Option<(SidModel, u16, u8)>,
}

impl Svf {
    /// Sets the coefficients for the registers, if they changed.
    pub(crate) fn tune(&mut self, model: SidModel, fc: u16, res: u8, sample_rate: u32) {
        if self.key == Some((model, fc, res)) {
            return;
        }
        self.key = Some((model, fc, res));
        let rate = f64::from(sample_rate);
        // Above ~0.45 fs the warped cutoff runs away; such cutoffs pass
        // everything the output can carry anyway.
        let hz = cutoff_hz(model, fc).min(0.45 * rate);
        self.g = (PI * hz / rate).tan();
        self.k = damping(model, res);
        self.h = 1.0 / (1.0 + self.g * (self.g + self.k));
    }

    /// One sample in; the low-pass, band-pass and high-pass outputs.
    #[inline]
    pub(crate) fn process(&mut self, x: f64) -> (f64, f64, f64) {
        let hp = (x - (self.g + self.k) * self.s1 - self.s2) * self.h;
        let v1 = self.g * hp;
        let bp = v1 + self.s1;
        self.s1 = flush(bp + v1);
        let v2 = self.g * bp;
        let lp = v2 + self.s2;
        self.s2 = flush(lp + v2);
        (lp, bp, hp)
    }
}

/// The C64 board's output: one-pole high-pass, then one-pole low-pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct OutputStage {
    hp_in: f64,
    hp_out: f64,
    lp_out: f64,
    /// High-pass pole, low-pass coefficient.
    hp_a: f64,
    lp_a: f64,
}

impl OutputStage {
    pub(crate) fn new(sample_rate: u32) -> Self {
        let rate = f64::from(sample_rate);
        OutputStage {
            hp_a: (-2.0 * PI * OUTPUT_HIGH_PASS_HZ / rate).exp(),
            lp_a: 1.0 - (-2.0 * PI * OUTPUT_LOW_PASS_HZ.min(0.45 * rate) / rate).exp(),
            ..Default::default()
        }
    }

    /// The input level the stage starts from (no thump at the start).
    pub(crate) fn settle(&mut self, x: f64) {
        self.hp_in = x;
    }

    #[inline]
    pub(crate) fn process(&mut self, x: f64) -> f64 {
        self.hp_out = flush(self.hp_a * (self.hp_out + x - self.hp_in));
        self.hp_in = x;
        self.lp_out = flush(self.lp_out + self.lp_a * (self.hp_out - self.lp_out));
        self.lp_out
    }
}

/// Tiny values to 0 (no subnormal arithmetic in long silences).
#[inline]
fn flush(x: f64) -> f64 {
    if x.abs() < 1e-30 {
        0.0
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutoff_ranges() {
        let lo = cutoff_hz(SidModel::Mos8580, 0);
        let hi = cutoff_hz(SidModel::Mos8580, 0x7FF);
        assert!((lo - 30.0).abs() < 1e-9 && (hi - 12_000.0).abs() < 1e-9);
        assert!((1..0x800)
            .all(|fc| cutoff_hz(SidModel::Mos8580, fc) > cutoff_hz(SidModel::Mos8580, fc - 1)));
        // The 6581: each point of the curve at the register value whose DAC
        // output is nearest, within the step between neighbouring values.
        for (x, hz) in CUTOFF_6581 {
            let fc = (0..0x800u16)
                .min_by(|&a, &b| {
                    let da = (super::super::dac::dac_output(SidModel::Mos6581, 11, a) - x).abs();
                    let db = (super::super::dac::dac_output(SidModel::Mos6581, 11, b) - x).abs();
                    da.total_cmp(&db)
                })
                .unwrap();
            let got = cutoff_hz(SidModel::Mos6581, fc);
            assert!(
                (got / hz - 1.0).abs() < 0.01,
                "{x}: ${fc:03X} gives {got} Hz, not {hz}"
            );
        }
    }

    /// The filter's response at its cutoff, measured on a sine: LP and HP
    /// at -3 dB with no resonance (Q = 0.707), also near the Nyquist
    /// frequency (where the cutoff must be prewarped).
    #[test]
    fn svf_responds_at_the_cutoff() {
        let rate = 48_000;
        for fc in [0x155, 0x7FF] {
            let mut svf = Svf::default();
            svf.tune(SidModel::Mos8580, fc, 0, rate);
            let hz = cutoff_hz(SidModel::Mos8580, fc);
            let (mut peak_lp, mut peak_hp) = (0.0f64, 0.0f64);
            for n in 0..48_000 {
                let x = (2.0 * PI * hz * f64::from(n) / f64::from(rate)).sin();
                let (lp, _, hp) = svf.process(x);
                if n > 24_000 {
                    peak_lp = peak_lp.max(lp.abs());
                    peak_hp = peak_hp.max(hp.abs());
                }
            }
            let half_power = std::f64::consts::FRAC_1_SQRT_2;
            assert!((peak_lp - half_power).abs() < 0.01, "{hz} Hz: LP {peak_lp}");
            assert!((peak_hp - half_power).abs() < 0.01, "{hz} Hz: HP {peak_hp}");
        }
    }
}
