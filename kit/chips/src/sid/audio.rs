//! The SID's sound: the analogue output synthesised as 16-bit samples.
//!
//! INTERFACE STUB (session 10): the methods below are the contract between the
//! synthesis (this module) and the machine/CLI/plugin plumbing. Until the synthesis
//! lands they produce silence of the right length.

use super::Sid;
use crate::PAL_CYCLES_PER_SECOND;

/// An audio output in progress: where the synthesis is and at what rate it samples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AudioState {
    /// Samples per second (8,000 to 192,000; 44,100 or 48,000 usually).
    pub sample_rate: u32,
    /// The cycle the samples made so far reach.
    pub cycle: u64,
    /// Samples made so far (so rounding never drifts).
    pub samples: u64,
    /// The cycle audio started at.
    pub start: u64,
}

/// The lowest and highest sample rates [`Sid::start_audio`] accepts.
pub const SAMPLE_RATES: std::ops::RangeInclusive<u32> = 8_000..=192_000;

impl Sid {
    /// Starts synthesising the sound from cycle `now` on, at `sample_rate` samples per
    /// second (mono). Errors name the rate when it is outside [`SAMPLE_RATES`].
    pub fn start_audio(&mut self, sample_rate: u32, now: u64) -> Result<(), String> {
        if !SAMPLE_RATES.contains(&sample_rate) {
            return Err(format!(
                "sample rate {sample_rate} Hz: must be {} to {} Hz",
                SAMPLE_RATES.start(),
                SAMPLE_RATES.end()
            ));
        }
        self.audio = Some(AudioState {
            sample_rate,
            cycle: now,
            samples: 0,
            start: now,
        });
        Ok(())
    }

    /// Stops the synthesis (samples not yet taken are dropped).
    pub fn stop_audio(&mut self) {
        self.audio = None;
    }

    /// The sample rate, when audio is on.
    pub fn audio_rate(&self) -> Option<u32> {
        self.audio.as_ref().map(|a| a.sample_rate)
    }

    /// Runs the synthesis up to cycle `now` and appends the samples made since the last
    /// call (mono, signed 16-bit) to `out`. Nothing when audio is off.
    pub fn take_audio(&mut self, now: u64, out: &mut Vec<i16>) {
        let Some(a) = self.audio.as_mut() else {
            return;
        };
        if now <= a.cycle {
            return;
        }
        let total = u128::from(now - a.start) * u128::from(a.sample_rate)
            / u128::from(PAL_CYCLES_PER_SECOND);
        let total = total as u64;
        out.extend(std::iter::repeat_n(0, (total - a.samples) as usize));
        a.samples = total;
        a.cycle = now;
    }
}
