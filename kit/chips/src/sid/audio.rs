//! The SID's sound: the analogue output synthesised as 16-bit samples.
//!
//! **Timing.** While audio is on, every catch-up of the chip (at each
//! register access, and at [`Sid::take_audio`]) first renders the cycles it
//! covers from the chip's state, then lets the chip advance as it does
//! without audio: the synthesis only observes, so what programs read is the
//! same with audio on or off. A register write at cycle N therefore changes
//! the sound from cycle N on: the voices, envelopes, routing and volume at
//! that cycle, the filter's cutoff, resonance and mode from the sample
//! containing N.
//!
//! **Signal path**, per sample:
//! 1. each voice's waveform level ([`super::dac`]'s DAC tables), cycle by
//!    cycle ([`super::render`]), summed over the sample's cycles with a
//!    triangular window two samples wide (each cycle weighs into the two
//!    samples around it): an anti-aliasing low-pass whose response (sinc²)
//!    falls to nothing at multiples of the sample rate;
//! 2. times the envelope DAC's mean output over the sample's piece (a piece
//!    ends at the sample's end or at a register access), plus the voice's DC
//!    offset; all three envelopes use the chip's envelope model
//!    ([`super::envelope`]): voice 3's is the chip's own ENV3, voices 1 and 2
//!    have their own that the synthesis keeps;
//! 3. routed by $D417 into the filter ([`super::filter`]) or straight to the
//!    mixer (voice 3 not at all with $D418 bit 7 set, unless filtered);
//! 4. the mixer adds the filter's selected outputs (inverted) and its own DC
//!    offset, the master volume ($D418 bits 0-3, linear) scales it all;
//! 5. the C64's output stage (16 Hz high-pass, 16 kHz low-pass), then
//!    [`OUTPUT_SCALE`]: three voices at full swing fit in 16 bits with 10%
//!    to spare; louder peaks (resonance) saturate instead of wrapping.
//!
//! **Approximations** beyond those of the DAC and filter modules: the
//! envelope multiplies a piece's waveform sum as its mean over the piece
//! (exact when either is constant over the piece); if audio starts
//! mid-run, voices 1 and 2's envelopes start released (or attacking, if the
//! gate is on).
//!
//! **Cost.** Nothing while audio is off. While on: a few integer operations
//! per voice and cycle, the filter and mixer once per sample.

use super::dac::{tables, LEVEL_ONE};
use super::envelope::Envelope;
use super::filter::{OutputStage, Svf};
use super::render::{render, Piece, Sums};
use super::voice::GATE;
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
    synth: Box<Synth>,
}

/// The lowest and highest sample rates [`Sid::start_audio`] accepts.
pub const SAMPLE_RATES: std::ops::RangeInclusive<u32> = 8_000..=192_000;

/// Output units per voice full swing: three voices swinging fully fit in
/// 16 bits with 10% to spare.
pub const OUTPUT_SCALE: f64 = 32_767.0 / 3.3;

/// Pieces rendered at most in one go (bounds the scratch buffers).
const MAX_PIECES: usize = 512;

/// Running sums over the current sample's cycles: `s0` = sum of values,
/// `s1` = sum of value * (cycle's index in the sample).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Moments {
    s0: f64,
    s1: f64,
}

impl Moments {
    fn add(&mut self, s0: f64, t: f64, offset: u32) {
        self.s0 += s0;
        self.s1 += t + f64::from(offset) * s0;
    }

    /// The weighted sum for the window's rising half (weights (i + 1/2) / n).
    fn rising(&self, n: f64) -> f64 {
        (self.s1 + 0.5 * self.s0) / n
    }
}

/// The three signals summed per sample: filter input, mixer input (volume
/// applied), volume (which scales the filter's output).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Signals {
    filter: Moments,
    direct: Moments,
    volume: Moments,
}

/// The synthesis state that lives beside the chip's.
#[derive(Clone, Debug, PartialEq)]
struct Synth {
    /// Voices 1 and 2's envelopes (voice 3's is the chip's ENV3).
    envelopes: [Envelope; 2],
    /// The current sample's cycles: [seg_start, seg_end).
    seg_start: u64,
    seg_end: u64,
    /// seg_end = start + ceil(k * clock / rate) for the next sample index k,
    /// kept as floor and remainder (`k * clock = floor * rate + rem`).
    next_floor: u64,
    next_rem: u64,
    /// The machine's clock in Hz (the VIC-II model's: PAL 985,248).
    clock_hz: u64,
    /// The current sample's sums so far.
    current: Signals,
    /// The previous sample's rising halves and length.
    previous: [f64; 3],
    previous_len: f64,
    svf: Svf,
    output: OutputStage,
    /// Samples made and not yet taken.
    out: Vec<i16>,
    scratch: Scratch,
}

/// Buffers reused from stretch to stretch: the pieces of the stretch being
/// rendered, per-voice sums, mean envelope DAC output per voice and piece.
/// Nothing in them outlives a stretch, so any two are equal.
#[derive(Clone, Debug, Default)]
struct Scratch {
    pieces: Vec<Piece>,
    sums: [Sums; 3],
    gains: [Vec<f64>; 3],
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Every float in the state is finite (the filters are stable and the inputs
/// bounded), so equality is reflexive and the chip stays `Eq`.
impl Eq for Synth {}

impl Synth {
    fn new(sample_rate: u32, clock_hz: u64, start: u64, regs: &[u8; 0x19]) -> Self {
        let envelopes = std::array::from_fn(|voice| {
            let mut env = Envelope::default();
            let base = voice * 7;
            env.write_sr(regs[base + 6]);
            if regs[base + 4] & GATE != 0 {
                env.set_gate(true, regs[base + 5]);
            }
            env
        });
        let mut synth = Synth {
            envelopes,
            seg_start: start,
            seg_end: start,
            next_floor: 0,
            next_rem: 0,
            clock_hz,
            current: Signals::default(),
            previous: [0.0; 3],
            previous_len: 0.0,
            svf: Svf::default(),
            output: OutputStage::new(sample_rate),
            out: Vec::new(),
            scratch: Scratch::default(),
        };
        synth.seg_end = synth.next_boundary(start, sample_rate);
        synth
    }

    /// Cuts the cycles from `from` to `end` into pieces at the samples' ends
    /// (at most [`MAX_PIECES`]) and returns the cycle the pieces reach.
    fn plan(&mut self, from: u64, end: u64, start: u64, rate: u32) -> u64 {
        self.scratch.pieces.clear();
        let mut cycle = from;
        while cycle < end && self.scratch.pieces.len() < MAX_PIECES {
            let stop = end.min(self.seg_end);
            self.scratch.pieces.push(Piece {
                len: (stop - cycle) as u32,
                offset: (cycle - self.seg_start) as u32,
                sample_len: (self.seg_end - self.seg_start) as u32,
                completes: stop == self.seg_end,
            });
            cycle = stop;
            if stop == self.seg_end {
                self.seg_start = self.seg_end;
                self.seg_end = self.next_boundary(start, rate);
            }
        }
        cycle
    }

    /// The envelope DACs' mean output over each piece: each envelope runs
    /// over the whole stretch at once (voice 3's as a copy of the chip's,
    /// which advances itself), its spans spread over the pieces.
    fn envelope_gains(&mut self, sid: &Sid, stretch: u64) {
        let t = tables(sid.model);
        let mut env3 = sid.env3;
        let pieces = &self.scratch.pieces;
        for (voice, gains) in self.scratch.gains.iter_mut().enumerate() {
            let env = if voice < 2 {
                &mut self.envelopes[voice]
            } else {
                &mut env3
            };
            let (ad, sr) = (sid.regs[voice * 7 + 5], sid.regs[voice * 7 + 6]);
            gains.clear();
            let mut lengths = pieces.iter().map(|p| u64::from(p.len));
            let mut left = lengths.next().unwrap_or(u64::MAX);
            let mut sum = 0.0;
            env.clock_spans(stretch, ad, sr, |level, mut cycles| {
                let dac = t.envelope[usize::from(level)];
                while cycles > 0 {
                    let take = cycles.min(left);
                    sum += dac * take as f64;
                    cycles -= take;
                    left -= take;
                    if left == 0 {
                        gains.push(sum / f64::from(pieces[gains.len()].len));
                        sum = 0.0;
                        left = lengths.next().unwrap_or(u64::MAX);
                    }
                }
            });
        }
    }

    /// The end of the next sample: start + ceil(k * clock / rate), k + 1.
    fn next_boundary(&mut self, start: u64, rate: u32) -> u64 {
        let rate = u64::from(rate);
        self.next_floor += self.clock_hz / rate;
        self.next_rem += self.clock_hz % rate;
        if self.next_rem >= rate {
            self.next_rem -= rate;
            self.next_floor += 1;
        }
        start + self.next_floor + u64::from(self.next_rem != 0)
    }
}

impl Sid {
    /// Starts synthesising the sound from cycle `now` on, at `sample_rate` samples per
    /// second (mono). Errors name the rate when it is outside [`SAMPLE_RATES`].
    pub fn start_audio(&mut self, sample_rate: u32, now: u64) -> Result<(), String> {
        self.start_audio_clocked(sample_rate, PAL_CYCLES_PER_SECOND, now)
    }

    /// [`Sid::start_audio`] on a machine clocked at `clock_hz` (an NTSC C64's 1,022,727 Hz):
    /// a sample is that many cycles over the rate.
    pub fn start_audio_clocked(
        &mut self,
        sample_rate: u32,
        clock_hz: u64,
        now: u64,
    ) -> Result<(), String> {
        if !SAMPLE_RATES.contains(&sample_rate) {
            return Err(format!(
                "sample rate {sample_rate} Hz: must be {} to {} Hz",
                SAMPLE_RATES.start(),
                SAMPLE_RATES.end()
            ));
        }
        self.audio = None;
        self.catch_up(now);
        let start = now.max(self.cycle);
        self.audio = Some(AudioState {
            sample_rate,
            cycle: start,
            samples: 0,
            start,
            synth: Box::new(Synth::new(sample_rate, clock_hz, start, &self.regs)),
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
    /// call (mono, signed 16-bit) to `out`. Nothing when audio is off. Samples wait
    /// inside the chip until taken, so call this regularly (every frame, say).
    pub fn take_audio(&mut self, now: u64, out: &mut Vec<i16>) {
        if self.audio.is_none() {
            return;
        }
        self.catch_up(now);
        if let Some(a) = self.audio.as_mut() {
            out.append(&mut a.synth.out);
        }
    }

    /// Renders the cycles up to `now` and advances the chip there (the
    /// chip's catch-up while audio is on).
    pub(super) fn synthesize(&mut self, now: u64) {
        let Some(mut audio) = self.audio.take() else {
            return self.advance_state(now);
        };
        while self.cycle < now {
            let end = audio.render(self, self.stretch_end(now));
            self.advance_state(end);
        }
        self.audio = Some(audio);
    }

    /// How far one stretch may go: to `now`, or to the cycle a constant
    /// output changes by itself (a floating output fades, the test bit has
    /// filled a noise register).
    fn stretch_end(&self, now: u64) -> u64 {
        (0..3).fold(now, |end, voice| {
            let v = &self.voices[voice];
            let mut end = end;
            if v.lfsr_full_at > self.cycle {
                end = end.min(v.lfsr_full_at);
            }
            if self.control(voice) >> 4 == 0 && v.held_until > self.cycle {
                end = end.min(v.held_until);
            }
            end
        })
    }

    /// A register is about to be written (audio on, the chip up to date): voices 1 and 2's envelopes follow their
    /// registers (voice 3's are the chip's; the rest is read per sample).
    pub(super) fn audio_register_written(&mut self, reg: usize, value: u8) {
        let Some(audio) = self.audio.as_mut() else {
            return;
        };
        let voice = reg / 7;
        if voice >= 2 {
            return;
        }
        let synth = &mut audio.synth;
        let env = &mut synth.envelopes[voice];
        let old = self.regs[reg];
        match reg % 7 {
            4 if (old ^ value) & GATE != 0 => env.set_gate(value & GATE != 0, self.regs[reg + 1]),
            5 => env.write_ad(value),
            6 => env.write_sr(value),
            _ => {}
        }
    }

    /// The reset line (audio on): voices 1 and 2's envelopes reset too.
    pub(super) fn audio_reset(&mut self) {
        if let Some(audio) = self.audio.as_mut() {
            audio.synth.envelopes = Default::default();
        }
    }
}

impl AudioState {
    /// Renders from the chip's cycle up to `end` at most (fewer if the
    /// scratch fills) and returns the cycle reached.
    fn render(&mut self, sid: &mut Sid, end: u64) -> u64 {
        let reached = self
            .synth
            .plan(sid.cycle, end, self.start, self.sample_rate);
        let synth = &mut *self.synth;
        synth.envelope_gains(sid, reached - sid.cycle);
        let scratch = &mut synth.scratch;
        render(sid, &scratch.pieces, &mut scratch.sums);
        // Mix per piece, finishing samples.
        let t = tables(sid.model);
        let regs = sid.regs;
        let route = regs[0x17];
        let mode_volume = regs[0x18];
        let volume = f64::from(mode_volume & 0x0F) / 15.0;
        let muted3 = mode_volume & 0x80 != 0;
        let one = f64::from(LEVEL_ONE);
        let pieces = std::mem::take(&mut synth.scratch.pieces);
        for (p, piece) in pieces.iter().enumerate() {
            let n = f64::from(piece.len);
            let ramp = n * (n - 1.0) / 2.0; // sum of the cycles' indices
            let (mut filter, mut direct) = ((0.0, 0.0), (0.0, 0.0));
            for voice in 0..3 {
                let e = synth.scratch.gains[voice][p];
                let (s0, w) = synth.scratch.sums[voice][p];
                let x0 = s0 as f64 / one * e + t.voice_dc * n;
                let x1 = w as f64 / one * e + t.voice_dc * ramp;
                if route & (1 << voice) != 0 {
                    filter = (filter.0 + x0, filter.1 + x1);
                } else if !(voice == 2 && muted3) {
                    direct = (direct.0 + x0, direct.1 + x1);
                }
            }
            direct = (
                (direct.0 + t.mixer_dc * n) * volume,
                (direct.1 + t.mixer_dc * ramp) * volume,
            );
            let sig = &mut synth.current;
            sig.filter.add(filter.0, filter.1, piece.offset);
            sig.direct.add(direct.0, direct.1, piece.offset);
            sig.volume.add(volume * n, volume * ramp, piece.offset);
            if piece.completes {
                let fc = u16::from(regs[0x15] & 7) | u16::from(regs[0x16]) << 3;
                synth.svf.tune(sid.model, fc, route >> 4, self.sample_rate);
                let first = self.samples == 0;
                let sample = synth.finish_sample(f64::from(piece.sample_len), mode_volume, first);
                synth.out.push(sample);
                self.samples += 1;
            }
        }
        synth.scratch.pieces = pieces;
        self.cycle = reached;
        reached
    }
}

impl Synth {
    /// The sample whose cycles (`len` of them) are summed in `current`.
    fn finish_sample(&mut self, len: f64, mode_volume: u8, first: bool) -> i16 {
        let c = std::mem::take(&mut self.current);
        let rising = [
            c.filter.rising(len),
            c.direct.rising(len),
            c.volume.rising(len),
        ];
        if first {
            // No previous sample: its rising half as if it were this one.
            self.previous = rising;
            self.previous_len = len;
        }
        // The triangular window: the previous sample's rising half and this
        // one's falling half (sum - rising).
        let norm = 2.0 / (self.previous_len + len);
        let window = |i: usize, m: Moments| (self.previous[i] + m.s0 - rising[i]) * norm;
        let (filter_in, direct, volume) = (
            window(0, c.filter),
            window(1, c.direct),
            window(2, c.volume),
        );
        self.previous = rising;
        self.previous_len = len;
        let (lp, bp, hp) = self.svf.process(filter_in);
        let mut filtered = 0.0;
        if mode_volume & 0x10 != 0 {
            filtered += lp;
        }
        if mode_volume & 0x20 != 0 {
            filtered += bp;
        }
        if mode_volume & 0x40 != 0 {
            filtered += hp;
        }
        let mix = direct - filtered * volume;
        if first {
            self.output.settle(mix);
        }
        let y = self.output.process(mix) * OUTPUT_SCALE;
        y.round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
    }
}
