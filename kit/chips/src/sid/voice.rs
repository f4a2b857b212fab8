//! One voice's waveform generator: the 24-bit phase accumulator and the
//! waveform outputs, as OSC3 reads them.

use super::combined::combined;
use super::noise::{noise_output, noise_pulse, NOISE_SEED};
use super::SidModel;

/// The accumulator's 24 bits.
pub(crate) const ACC_MASK: u32 = 0xFF_FFFF;
/// At power-on every accumulator bit is 1, the odd ones stored inverted.
pub const ACC_POWER_ON: u32 = 0x55_5555;

/// Control register bits.
pub(crate) const GATE: u8 = 0x01;
pub(crate) const SYNC: u8 = 0x02;
pub(crate) const RING: u8 = 0x04;
pub(crate) const TEST: u8 = 0x08;
/// The noise waveform's select bit.
pub(crate) const NOISE: u8 = 0x80;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Voice {
    pub(crate) acc: u32,
    /// The noise shift register.
    pub(crate) lfsr: u32,
    /// LFSR clocks owed, applied before the LFSR is looked at (mod its period).
    pub(crate) pending: u64,
    /// Cycles until the LFSR shift that a rise of accumulator bit 19 queued
    /// (it lands 2 cycles after the rise; 0: none queued).
    pub(crate) shift_pipeline: u8,
    /// With the test bit on: the cycle the LFSR's bits have all charged to 1.
    pub(crate) lfsr_full_at: u64,
    /// With no waveform selected: the value the floating output holds...
    pub(crate) held: u16,
    /// ...until this cycle, when it has faded to 0.
    pub(crate) held_until: u64,
}

impl Default for Voice {
    fn default() -> Self {
        Voice {
            acc: ACC_POWER_ON,
            lfsr: NOISE_SEED,
            pending: 0,
            shift_pipeline: 0,
            lfsr_full_at: u64::MAX,
            held: 0,
            held_until: 0,
        }
    }
}

/// The inputs of one voice's waveform selector.
pub(crate) struct Inputs {
    pub(crate) control: u8,
    pub(crate) acc: u32,
    /// The ring modulation source's (previous voice's) accumulator.
    pub(crate) ring_acc: u32,
    pub(crate) pulse_width: u16,
    pub(crate) lfsr: u32,
}

/// The 12-bit waveform output for a selected waveform (control bits 4-7 not
/// all 0).
pub(crate) fn waveform(model: SidModel, v: &Inputs) -> u16 {
    waveform_with_pulse(model, v, pulse_high(v))
}

/// The pulse comparator's output: the accumulator's upper 12 bits at or above
/// the pulse width, or the test bit on.
pub(crate) fn pulse_high(v: &Inputs) -> bool {
    v.control & TEST != 0 || (v.acc >> 12) as u16 >= v.pulse_width
}

/// The triangle's 12-bit output: the accumulator's bits 22-12, inverted
/// when `msb` (the accumulator's MSB, or the ring-modulated one) is set.
pub(crate) fn triangle_output(acc: u32, msb: bool) -> u16 {
    let folded = if msb { !acc } else { acc };
    ((folded >> 11) & 0xFFE) as u16
}

/// [`waveform`] with the pulse comparator's output given (a 6581's OSC3 sees it
/// through a latch, one cycle late).
pub(crate) fn waveform_with_pulse(model: SidModel, v: &Inputs, pulse_high: bool) -> u16 {
    let wave = v.control >> 4;
    // Triangle: the accumulator's bits 22-12, folded (inverted) when the MSB
    // is 1. With ring modulation (and no sawtooth) the MSB is XORed with the
    // inverse of the ring source's MSB.
    let triangle = || {
        let ring = v.control & RING != 0 && wave & 2 == 0;
        let msb = if ring {
            (v.acc ^ !v.ring_acc) & 0x80_0000
        } else {
            v.acc & 0x80_0000
        };
        triangle_output(v.acc, msb != 0)
    };
    let sawtooth = || (v.acc >> 12) as u16;
    let pulse = || if pulse_high { 0xFFF } else { 0 };
    let tone = match wave & 7 {
        0 => 0xFFF,
        1 => triangle(),
        2 => sawtooth(),
        4 => pulse(),
        w => combined(model, w, triangle(), sawtooth(), pulse_high),
    };
    if wave & 8 == 0 {
        return tone;
    }
    with_noise(model, wave, tone, v.lfsr)
}

/// The selector's output for waveform selection `wave` (noise among it):
/// the other selected waveforms' output `tone` (0xFFF for noise alone) ANDed
/// with the noise bits, then noise+pulse's pull-down.
pub(crate) fn with_noise(model: SidModel, wave: u8, tone: u16, lfsr: u32) -> u16 {
    let out = tone & (u16::from(noise_output(lfsr)) << 4);
    if wave & 4 != 0 {
        noise_pulse(model, out)
    } else {
        out
    }
}
