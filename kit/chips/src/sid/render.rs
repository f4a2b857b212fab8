//! The voices' waveform levels over a stretch of cycles, summed per piece
//! (a piece: the cycles of one output sample inside the stretch).
//!
//! For each piece and voice the renderer returns `S0 = sum of levels` and
//! `T = sum of level * i` (i: the cycle's index in the piece), all a
//! triangular anti-aliasing window needs. Levels come from the DAC tables
//! ([`super::dac`]), one per cycle.
//!
//! Most selections are rendered voice by voice from the chip's state at the
//! stretch's start without changing it (the chip then advances itself): the
//! waveform is a table lookup on the accumulator's top 12 bits (triangle,
//! sawtooth, pulse and their combinations; ring modulation flips the
//! triangle's MSB from the source voice's accumulator, hard sync clears the
//! accumulator when the source's MSB rises, the source followed in closed
//! form), noise re-reads its table when the LFSR shifts, noise combined
//! with other waveforms computes the waveform selector's output each cycle.
//! Outputs that feed back into their voice cycle by cycle (combined noise's
//! write-back, the 6581's sawtooth combinations) and sources that are
//! themselves synced are rendered by stepping a copy of the chip; a unit
//! test holds the two ways equal. The noise registers are the chip's, all
//! three; the renderer follows them in local copies.

use super::dac::{tables, Tables};
use super::noise::{noise_clock, noise_output, noise_write_back, writes_back, NOISE_CLOCK_BIT};
use super::voice::{waveform, Inputs, ACC_MASK, RING, SYNC, TEST};
use super::{source, Sid};

/// One output sample's cycles within the stretch being rendered.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece {
    /// Cycles in the piece.
    pub(crate) len: u32,
    /// Index of its first cycle in the sample's cycles.
    pub(crate) offset: u32,
    /// Cycles of the whole sample.
    pub(crate) sample_len: u32,
    /// The piece ends its sample.
    pub(crate) completes: bool,
}

/// Per-piece sums `(S0, T)` of one voice.
pub(crate) type Sums = Vec<(i64, i64)>;

/// `T` from the running sums: `run` = sum over i of (levels before i).
#[inline]
fn weighted(len: u32, s0: i64, run: i64) -> i64 {
    (i64::from(len) - 1) * s0 - run
}

/// Renders all three voices over `pieces` from the chip's state (stepping a
/// copy when the chip itself steps), into `sums`.
pub(crate) fn render(sid: &mut Sid, pieces: &[Piece], sums: &mut [Sums; 3]) {
    for s in sums.iter_mut() {
        s.clear();
    }
    sid.flush_noise();
    if must_step(sid) {
        render_stepped(sid, pieces, sums);
    } else {
        let t = tables(sid.model);
        for (voice, s) in sums.iter_mut().enumerate() {
            render_voice(sid, t, voice, pieces, s);
        }
    }
}

/// Whether the voices must be rendered by stepping a copy of the chip: an
/// output that feeds back into its voice, a sync or ring modulation source
/// that is itself synced (the renderer's loops follow a source's
/// accumulator in closed form), sync with combined noise.
fn must_step(sid: &Sid) -> bool {
    (0..3).any(|voice| {
        let control = sid.control(voice);
        let wave = control >> 4;
        let test = control & TEST != 0;
        let ring = control & RING != 0 && wave & 3 == 1;
        let sync = control & SYNC != 0 && !test;
        let source_synced = sid.control(source(voice)) & (SYNC | TEST) == SYNC;
        (!test && sid.feeds_back(voice))
            || ((sync || ring) && source_synced)
            || (sync && wave > 8 && wave & 7 != 0)
    })
}

/// The voice that syncs / ring-modulates `voice`: its accumulator and
/// frequency (0 under the test bit, which holds it).
#[derive(Clone, Copy)]
struct Source {
    acc: u32,
    freq: u32,
}

impl Source {
    fn of(sid: &Sid, voice: usize) -> Source {
        let src = source(voice);
        let freq = if sid.control(src) & TEST != 0 {
            0
        } else {
            sid.freq(src)
        };
        Source {
            acc: sid.voices[src].acc,
            freq,
        }
    }

    /// One cycle on: whether the MSB rose (which syncs).
    #[inline(always)]
    fn clock(&mut self) -> bool {
        let next = (self.acc + self.freq) & ACC_MASK;
        let rose = !self.acc & next & 0x80_0000 != 0;
        self.acc = next;
        rose
    }
}

/// A voice's inputs and its noise register's shift pipeline (the chip's
/// noise is up to date: `render` flushed it).
fn inputs_with_noise(sid: &Sid, voice: usize, control: u8) -> (Inputs, u8) {
    (sid.inputs(voice, control), sid.voices[voice].shift_pipeline)
}

fn constant(level: i32, pieces: &[Piece], out: &mut Sums) {
    let level = i64::from(level);
    out.extend(pieces.iter().map(|p| {
        let n = i64::from(p.len);
        (level * n, level * n * (n - 1) / 2)
    }));
}

/// One voice without sync or write-back into voice 3's noise register.
fn render_voice(sid: &Sid, t: &Tables, voice: usize, pieces: &[Piece], out: &mut Sums) {
    let control = sid.control(voice);
    let wave = control >> 4;
    if wave == 0 {
        // The floating output: constant.
        let level = t.wave[usize::from(sid.output_with(voice, control, sid.cycle))];
        return constant(level, pieces, out);
    }
    // The test bit holds the accumulator at 0 and the pulse high: constant,
    // unless the triangle is ring-modulated by a running source.
    let test = control & TEST != 0;
    let ring = control & RING != 0 && wave & 3 == 1;
    if test && !ring {
        let (inputs, _) = inputs_with_noise(sid, voice, control);
        let level = t.wave[usize::from(waveform(sid.model, &inputs))];
        return constant(level, pieces, out);
    }
    let freq = if test { 0 } else { sid.freq(voice) };
    let acc = sid.voices[voice].acc;
    let src = Source::of(sid, voice);
    let sync = control & SYNC != 0 && !test;
    if wave & 8 == 0 {
        let pulse_width = if wave & 4 != 0 && !test {
            u32::from(sid.inputs(voice, control).pulse_width)
        } else {
            0 // no pulse: the table's "pulse high" values throughout
        };
        let shape = &t.shapes[usize::from(wave & 7)];
        let low = &t.shapes_pulse_low[usize::from(wave & 7)];
        let args = (shape, low, acc, freq, pulse_width, src);
        match (ring, sync) {
            (false, false) => shaped::<false, false>(args, pieces, out),
            (true, false) => shaped::<true, false>(args, pieces, out),
            (false, true) => shaped::<false, true>(args, pieces, out),
            (true, true) => shaped::<true, true>(args, pieces, out),
        }
        return;
    }
    let (inputs, pipeline) = inputs_with_noise(sid, voice, control);
    if wave == 8 {
        noise_alone(
            t,
            acc,
            freq,
            (inputs.lfsr, pipeline),
            sync.then_some(src),
            pieces,
            out,
        )
    } else {
        combined_noise(sid, t, inputs, freq, src, pipeline, pieces, out)
    }
}

/// Triangle, sawtooth, pulse and their combinations: a table lookup on the
/// accumulator's top 12 bits (the triangle's MSB flipped by the source's
/// when `RING`; the accumulator cleared when the source's MSB rises when
/// `SYNC`).
#[inline(never)]
fn shaped<const RING_MOD: bool, const HARD_SYNC: bool>(
    (shape, low, mut acc, freq, pulse_width, mut src): (
        &[i32; 4096],
        &[i32; 4096],
        u32,
        u32,
        u32,
        Source,
    ),
    pieces: &[Piece],
    out: &mut Sums,
) {
    for p in pieces {
        let (mut s0, mut run) = (0i64, 0i64);
        for _ in 0..p.len {
            acc = (acc + freq) & ACC_MASK;
            if RING_MOD || HARD_SYNC {
                let rose = src.clock();
                if HARD_SYNC && rose {
                    acc = 0;
                }
            }
            let top = acc >> 12;
            // Ring: the triangle's MSB XOR NOT the source's MSB.
            let index = if RING_MOD {
                top ^ (!src.acc >> 12 & 0x800)
            } else {
                top
            };
            let shape = if top >= pulse_width { shape } else { low };
            let level = shape[(index & 0xFFF) as usize];
            run += s0;
            s0 += i64::from(level);
        }
        out.push((s0, weighted(p.len, s0, run)));
    }
}

/// Noise alone: the level changes only when the LFSR shifts (2 cycles after
/// accumulator bit 19 rises), the accumulator cleared by the source when
/// `sync`.
fn noise_alone(
    t: &Tables,
    mut acc: u32,
    freq: u32,
    (mut lfsr, mut pipeline): (u32, u8),
    mut sync: Option<Source>,
    pieces: &[Piece],
    out: &mut Sums,
) {
    let mut level = t.noise[usize::from(noise_output(lfsr))];
    for p in pieces {
        let (mut s0, mut run) = (0i64, 0i64);
        for _ in 0..p.len {
            let next = (acc + freq) & ACC_MASK;
            if !acc & next & NOISE_CLOCK_BIT != 0 {
                pipeline = 2;
            } else if pipeline > 0 {
                pipeline -= 1;
                if pipeline == 0 {
                    lfsr = noise_clock(lfsr);
                    level = t.noise[usize::from(noise_output(lfsr))];
                }
            }
            acc = next;
            if let Some(src) = sync.as_mut() {
                if src.clock() {
                    acc = 0;
                }
            }
            run += s0;
            s0 += i64::from(level);
        }
        out.push((s0, weighted(p.len, s0, run)));
    }
}

/// Noise combined with other waveforms, cycle by cycle (with write-back
/// where the model writes back; voice 3's write-back goes through the
/// stepped path instead).
#[allow(clippy::too_many_arguments)]
fn combined_noise(
    sid: &Sid,
    t: &Tables,
    mut inputs: Inputs,
    freq: u32,
    mut src: Source,
    mut pipeline: u8,
    pieces: &[Piece],
    out: &mut Sums,
) {
    // The test bit stops the accumulator and the noise clock and write-back.
    let test = inputs.control & TEST != 0;
    let write_back = writes_back(sid.model, inputs.control >> 4) && !test;
    for p in pieces {
        let (mut s0, mut run) = (0i64, 0i64);
        for _ in 0..p.len {
            if !test {
                let next = (inputs.acc + freq) & ACC_MASK;
                if !inputs.acc & next & NOISE_CLOCK_BIT != 0 {
                    pipeline = 2;
                } else if pipeline > 0 {
                    pipeline -= 1;
                    if pipeline == 0 {
                        inputs.lfsr = noise_clock(inputs.lfsr);
                    }
                }
                inputs.acc = next;
            }
            src.clock();
            inputs.ring_acc = src.acc;
            let output = waveform(sid.model, &inputs);
            if write_back && pipeline != 1 {
                inputs.lfsr = noise_write_back(inputs.lfsr, output);
            }
            run += s0;
            s0 += i64::from(t.wave[usize::from(output)]);
        }
        out.push((s0, weighted(p.len, s0, run)));
    }
}

/// All three voices by stepping a copy of the chip cycle by cycle (the chip
/// steps itself over the same cycles afterwards).
fn render_stepped(sid: &Sid, pieces: &[Piece], sums: &mut [Sums; 3]) {
    let t = tables(sid.model);
    let mut copy = sid.clone();
    let mut now = copy.cycle;
    for p in pieces {
        let mut s0 = [0i64; 3];
        let mut run = [0i64; 3];
        for _ in 0..p.len {
            copy.step();
            now += 1;
            for voice in 0..3 {
                let output = copy.output_with(voice, copy.control(voice), now);
                run[voice] += s0[voice];
                s0[voice] += i64::from(t.wave[usize::from(output)]);
            }
        }
        for voice in 0..3 {
            sums[voice].push((s0[voice], weighted(p.len, s0[voice], run[voice])));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sid::SidModel;

    /// The per-voice loops (table lookups, closed-form ring and sync
    /// sources, noise) must give exactly the sums that stepping a copy of
    /// the chip and reading its outputs gives, whenever they are used.
    #[test]
    fn fast_loops_equal_stepping() {
        let mut seed = 0x9E37_79B9_u32;
        let mut rand = move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        let waves = [0x0, 0x1, 0x2, 0x4, 0x8, 0x5, 0x3, 0x6, 0x7, 0x9, 0xC, 0xE];
        let mut compared = 0;
        for round in 0..6000 {
            let model = [SidModel::Mos6581, SidModel::Mos8580][round % 2];
            let mut sid = Sid::with_model(model);
            for reg in sid.regs.iter_mut() {
                *reg = rand(256) as u8;
            }
            for voice in 0..3 {
                let wave = waves[rand(waves.len() as u32) as usize];
                let bits = rand(16) as u8 & if rand(4) == 0 { 0xF } else { 0x7 };
                sid.regs[voice * 7 + 4] = wave << 4 | bits;
                // The test bit clears the accumulator and the shift under way.
                let test = bits & TEST != 0;
                let v = &mut sid.voices[voice];
                v.acc = if test { 0 } else { rand(1 << 24) };
                v.lfsr = rand(1 << 23);
                v.shift_pipeline = if test { 0 } else { rand(3) as u8 };
                v.held = rand(4096) as u16;
                v.held_until = u64::MAX;
            }
            if rand(2) == 0 {
                // Low frequencies too, so that pulses and syncs are slow.
                sid.regs[rand(3) as usize * 7 + 1] = rand(4) as u8;
            }
            if must_step(&sid) {
                continue;
            }
            let pieces: Vec<Piece> = (0..1 + rand(30))
                .map(|_| {
                    let len = 1 + rand(40);
                    Piece {
                        len,
                        offset: 0,
                        sample_len: len,
                        completes: true,
                    }
                })
                .collect();
            let (mut fast, mut stepped): ([Sums; 3], [Sums; 3]) = Default::default();
            let t = tables(model);
            for (voice, out) in fast.iter_mut().enumerate() {
                render_voice(&sid, t, voice, &pieces, out);
            }
            render_stepped(&sid, &pieces, &mut stepped);
            for voice in 0..3 {
                let first = fast[voice]
                    .iter()
                    .zip(&stepped[voice])
                    .position(|(a, b)| a != b);
                assert_eq!(
                    fast[voice],
                    stepped[voice],
                    "round {round}: voice {voice} from piece {first:?}: regs {:02X?}, accs {:06X?}",
                    sid.regs,
                    sid.voices.map(|v| v.acc)
                );
            }
            compared += 1;
        }
        assert!(compared > 1000, "{compared}");
    }
}
