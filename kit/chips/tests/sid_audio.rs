//! The SID's synthesised sound, measured on the samples it makes: spectra
//! (a Hann-windowed DFT at chosen frequencies), envelope timing, filter,
//! volume, digis, write timing, and that audio never changes what programs
//! read.

use c64kit_chips::sid::envelope::RATE_PERIODS;
use c64kit_chips::{Sid, SidModel, PAL_CYCLES_PER_SECOND};
use fastrand::Rng;
use std::f64::consts::PI;

const CLOCK: f64 = PAL_CYCLES_PER_SECOND as f64;
const RATE: u32 = 48_000;

/// The frequency register value nearest to `hz`, and the frequency it plays.
fn freq_reg(hz: f64) -> (u16, f64) {
    let reg = (hz * 16_777_216.0 / CLOCK).round() as u16;
    (reg, f64::from(reg) * CLOCK / 16_777_216.0)
}

/// A SID making sound from cycle 0, driven by register writes 4 cycles apart.
struct Rig {
    sid: Sid,
    now: u64,
}

impl Rig {
    fn new(model: SidModel) -> Self {
        let mut sid = Sid::with_model(model);
        sid.start_audio(RATE, 0).unwrap();
        Rig { sid, now: 0 }
    }

    fn write(&mut self, reg: u8, value: u8) {
        self.sid.write(reg, value, self.now);
        self.now += 4;
    }

    /// Voice `voice` (0-2) at `freq`, pulse width `pw`, envelope `ad`/`sr`,
    /// control `control` (gate included).
    fn voice(&mut self, voice: u8, freq: u16, pw: u16, ad: u8, sr: u8, control: u8) {
        let base = voice * 7;
        let [lo, hi] = freq.to_le_bytes();
        self.write(base, lo);
        self.write(base + 1, hi);
        let [lo, hi] = pw.to_le_bytes();
        self.write(base + 2, lo);
        self.write(base + 3, hi);
        self.write(base + 5, ad);
        self.write(base + 6, sr);
        self.write(base + 4, control);
    }

    /// The samples made over the next `cycles` cycles.
    fn run(&mut self, cycles: u64) -> Vec<i16> {
        self.now += cycles;
        let mut out = Vec::new();
        self.sid.take_audio(self.now, &mut out);
        out
    }

    fn seconds(&mut self, s: f64) -> Vec<i16> {
        self.run((s * CLOCK) as u64)
    }
}

/// Magnitude of the Hann-windowed DFT of `x` at `hz` (a sine of amplitude A
/// gives about A/2).
fn magnitude(x: &[i16], hz: f64) -> f64 {
    let n = x.len() as f64;
    let (mut re, mut im, mut norm) = (0.0, 0.0, 0.0);
    for (i, &s) in x.iter().enumerate() {
        let w = 0.5 - 0.5 * (2.0 * PI * i as f64 / n).cos();
        let phase = 2.0 * PI * hz * i as f64 / f64::from(RATE);
        re += f64::from(s) * w * phase.cos();
        im -= f64::from(s) * w * phase.sin();
        norm += w;
    }
    (re * re + im * im).sqrt() / norm
}

fn rms(x: &[i16]) -> f64 {
    (x.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>() / x.len() as f64).sqrt()
}

const TRIANGLE: u8 = 0x10;
const SAWTOOTH: u8 = 0x20;
const PULSE: u8 = 0x40;
const NOISE: u8 = 0x80;
const GATE: u8 = 0x01;
const SYNC: u8 = 0x02;
const RING: u8 = 0x04;
const TEST: u8 = 0x08;

#[test]
fn a_440_hz_triangle_peaks_at_440_hz() {
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        let mut rig = Rig::new(model);
        rig.write(0x18, 0x0F);
        let (reg, hz) = freq_reg(440.0);
        rig.voice(0, reg, 0, 0x00, 0xF0, TRIANGLE | GATE);
        rig.seconds(0.05);
        let x = rig.seconds(0.5);
        let peak = magnitude(&x, hz);
        // Full swing / 2 * (8 / pi^2) for a triangle's fundamental, halved
        // by the DFT: about 2000 units.
        assert!(peak > 1500.0, "{model:?}: {peak}");
        for other in [220.0, 330.0, 400.0, 480.0, 660.0, 880.0, 1320.0] {
            let m = magnitude(&x, other);
            assert!(m * 5.0 < peak, "{model:?}: {other} Hz: {m} vs {peak}");
        }
    }
}

/// Pulse harmonics: a 50% square has odd harmonics only; at 25% the 2nd
/// harmonic is sin(pi/2) / (2 sin(pi/4)) = 0.71 of the fundamental.
#[test]
fn pulse_width_shapes_the_harmonics() {
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        let (reg, hz) = freq_reg(500.0);
        let ratios = |pw: u16| {
            let mut rig = Rig::new(model);
            rig.write(0x18, 0x0F);
            rig.voice(0, reg, pw, 0x00, 0xF0, PULSE | GATE);
            rig.seconds(0.05);
            let x = rig.seconds(0.5);
            let f = magnitude(&x, hz);
            (magnitude(&x, 2.0 * hz) / f, magnitude(&x, 3.0 * hz) / f)
        };
        let (second, third) = ratios(0x800);
        assert!(second < 0.02, "{model:?} 50%: 2nd {second}");
        assert!(
            (third - 1.0 / 3.0).abs() < 0.05,
            "{model:?} 50%: 3rd {third}"
        );
        let (second, third) = ratios(0x400);
        assert!((second - 0.707).abs() < 0.07, "{model:?} 25%: 2nd {second}");
        assert!(third > 0.15, "{model:?} 25%: 3rd {third}");
    }
}

/// The data sheet's envelope times at 1 MHz (attack; decay and release).
const ATTACK_MS: [f64; 16] = [
    2.0, 8.0, 16.0, 24.0, 38.0, 56.0, 68.0, 80.0, 100.0, 250.0, 500.0, 800.0, 1000.0, 3000.0,
    5000.0, 8000.0,
];
const DECAY_MS: [f64; 16] = [
    6.0, 24.0, 48.0, 72.0, 114.0, 168.0, 204.0, 240.0, 300.0, 750.0, 1500.0, 2400.0, 3000.0,
    9000.0, 15000.0, 24000.0,
];

/// Envelope steps, heard: with a constant waveform (test bit + pulse:
/// output $FFF) the output follows the envelope, and the output stage's
/// high-pass turns each step into a jump (up in attack, down in decay and
/// release; between steps the high-pass only drifts back towards 0). The
/// last step is the last jump of more than a quarter of a step (the output
/// stage's low-pass leaves a tail of a unit or two after it).
/// Voice 3 plays, and a twin SID without audio gets the same writes, so
/// ENV3 tells the cycle the envelope's last step happens. Returns the
/// sample of the last jump heard and the cycle of the last step.
fn last_envelope_step(
    model: SidModel,
    ad: u8,
    sr: u8,
    release_after: Option<u64>,
    cycles: u64,
) -> (usize, u64) {
    let mut rig = Rig::new(model);
    let mut twin = Sid::with_model(model);
    let mut write = |rig: &mut Rig, reg: u8, value: u8| {
        twin.write(reg, value, rig.now);
        rig.write(reg, value);
    };
    write(&mut rig, 0x18, 0x0F);
    // The release rate is set just before the release: a rate period
    // below the rate counter at the gate's edge would wait for the counter
    // to wrap (the ADSR delay bug).
    for (reg, value) in [(0x13, ad), (0x14, sr & 0xF0), (0x12, PULSE | TEST)] {
        write(&mut rig, reg, value);
    }
    let mut taken = rig.seconds(0.2).len(); // the output stage settles
    write(&mut rig, 0x12, PULSE | TEST | GATE);
    if let Some(after) = release_after {
        taken += rig.run(after - 8).len();
        write(&mut rig, 0x14, sr);
        write(&mut rig, 0x12, PULSE | TEST);
    }
    let from = rig.now;
    let x = rig.run(cycles);
    let up = release_after.is_none() && sr >> 4 == 0xF;
    let last = x
        .windows(2)
        .rposition(|w| {
            let d = i32::from(w[1]) - i32::from(w[0]);
            if up {
                d > STEP_HEARD
            } else {
                d < -STEP_HEARD
            }
        })
        .expect("no envelope step heard");
    // The first cycle ENV3 reads its final value (it shows the counter one
    // cycle late): the last step happened in the cycle before.
    let end = rig.now;
    let last_value = twin.peek(0x1C, end);
    assert_eq!(
        last_value,
        if up { 0xFF } else { 0 },
        "{model:?} AD {ad:02X} SR {sr:02X}: envelope not finished"
    );
    let (mut lo, mut hi) = (from, end);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if twin.peek(0x1C, mid) == last_value {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    (taken + last + 1, lo - 1)
}

/// A quarter of the envelope's last step (1 of 255 of a half swing: about
/// 20 output units on the 8580, more on the 6581, whose LSB weighs more).
const STEP_HEARD: i32 = 5;

/// The sample containing `cycle` (audio started at cycle 0).
fn sample_of(cycle: u64) -> usize {
    (cycle as f64 * f64::from(RATE) / CLOCK) as usize
}

/// Attack: 255 steps of (rate period + 1) cycles; decay and release from
/// $FF to 0: 756 such steps (the exponential periods 1, 2, 4, 8, 16, 30 from
/// $FF, $5D, $36, $1A, $0E, $06 down). Both within 17% of the data sheet's
/// times at its 1 MHz clock (its 2 ms and 6 ms for rate 0 are rounded down).
/// The sound follows to the sample: each sample's anti-aliasing window spans
/// its own and the previous sample's cycles (centred on its first cycle), so
/// a step in sample k is heard mostly in sample k + 1, the first whose
/// window's centre comes after it; within a sample of that.
#[test]
fn envelope_times_match_the_data_sheet() {
    for model in [SidModel::Mos8580, SidModel::Mos6581] {
        for rate in [0usize, 1, 6, 11, 15] {
            let step = u64::from(RATE_PERIODS[rate]) + 1;
            let r = rate as u8;
            let attack = 255 * step;
            let fall = 756 * step;
            for (cycles, sheet) in [(attack, ATTACK_MS[rate]), (fall, DECAY_MS[rate])] {
                let sheet = sheet * 1000.0;
                let error = (cycles as f64 - sheet).abs() / sheet;
                assert!(error < 0.17, "rate {rate}: {cycles} cycles vs {sheet} us");
            }
            let runs = [
                // Attack at rate r, sustain 15.
                ("attack", r << 4, 0xF0, None, attack),
                // Attack at rate 0, then decay at rate r to sustain 0.
                ("decay", r, 0x00, None, 255 * 9 + fall),
                // Attack at rate 0 and sustain at $FF, then release at rate r.
                ("release", 0x00, 0xF0 | r, Some(10_000), fall),
            ];
            for (what, ad, sr, release_after, length) in runs {
                let (heard, step_cycle) =
                    last_envelope_step(model, ad, sr, release_after, length + 20_000);
                let k = sample_of(step_cycle);
                assert!(
                    (k..=k + 2).contains(&heard),
                    "{model:?} {what} {rate}: last step at cycle {step_cycle} (sample {k}), heard in sample {heard}"
                );
            }
        }
    }
}

/// Sum of squared magnitudes at `bands` (a coarse energy measure).
fn energy(x: &[i16], bands: impl IntoIterator<Item = f64>) -> f64 {
    bands.into_iter().map(|hz| magnitude(x, hz).powi(2)).sum()
}

fn band(from: f64, to: f64) -> Vec<f64> {
    let steps = 16;
    (0..=steps)
        .map(|i| from + (to - from) * f64::from(i) / f64::from(steps))
        .collect()
}

/// White-ish noise from voice 1 through the filter: `route` ($D417 low
/// bits, resonance in the high nibble) and `mode` ($D418 high nibble).
fn filtered_noise(model: SidModel, fc: u16, res_route: u8, mode: u8) -> Vec<i16> {
    let mut rig = Rig::new(model);
    rig.write(0x15, (fc & 7) as u8);
    rig.write(0x16, (fc >> 3) as u8);
    rig.write(0x17, res_route);
    rig.write(0x18, mode | 0x0F);
    rig.voice(0, 0xFFFF, 0, 0x00, 0xF0, NOISE | GATE);
    rig.seconds(0.05);
    rig.seconds(0.4)
}

#[test]
fn lowering_the_cutoff_takes_the_highs_away() {
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        let highs: Vec<f64> = [0x7FF, 0x600, 0x400, 0x200, 0x080]
            .iter()
            .map(|&fc| {
                energy(
                    &filtered_noise(model, fc, 0x01, 0x10),
                    band(5_000.0, 10_000.0),
                )
            })
            .collect();
        assert!(
            highs.windows(2).all(|w| w[1] < w[0]),
            "{model:?}: energy above 5 kHz by falling cutoff: {highs:?}"
        );
        assert!(highs[4] * 100.0 < highs[0], "{model:?}: {highs:?}");
        // Not routed, the noise keeps its highs whatever the cutoff.
        let open = energy(
            &filtered_noise(model, 0x080, 0x00, 0x10),
            band(5_000.0, 10_000.0),
        );
        assert!(
            open > highs[0] * 0.5,
            "{model:?}: unfiltered {open} vs {}",
            highs[0]
        );
    }
}

#[test]
fn filter_modes_and_resonance() {
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        // A mid cutoff: about 2 kHz on either chip.
        let fc = if model == SidModel::Mos8580 {
            0x155
        } else {
            0x400
        };
        let hz = c64kit_chips::sid::filter::cutoff_hz(model, fc);
        assert!((1_500.0..2_500.0).contains(&hz), "{model:?}: {hz}");
        let (low, mid, high) = (
            band(200.0, 500.0),
            band(hz * 0.9, hz * 1.1),
            band(8_000.0, 12_000.0),
        );
        let lp = filtered_noise(model, fc, 0x01, 0x10);
        let hp = filtered_noise(model, fc, 0x01, 0x40);
        let bp = filtered_noise(model, fc, 0x01, 0x20);
        let e = |x: &[i16], b: &[f64]| energy(x, b.iter().copied());
        assert!(e(&lp, &low) > 20.0 * e(&lp, &high), "{model:?} LP");
        assert!(e(&hp, &high) > 20.0 * e(&hp, &low), "{model:?} HP");
        assert!(e(&bp, &mid) > 5.0 * e(&bp, &low), "{model:?} BP vs lows");
        assert!(e(&bp, &mid) > 5.0 * e(&bp, &high), "{model:?} BP vs highs");
        // Notch (LP + HP): the cutoff band dips below both sides.
        let notch = filtered_noise(model, fc, 0x01, 0x50);
        assert!(e(&notch, &mid) * 2.0 < e(&notch, &low), "{model:?} notch");
        // Resonance lifts the cutoff band; more on the 8580.
        let resonant = filtered_noise(model, fc, 0xF1, 0x10);
        let lift = e(&resonant, &mid) / e(&lp, &mid);
        let wanted = if model == SidModel::Mos8580 { 8.0 } else { 2.0 };
        assert!(lift > wanted, "{model:?}: resonance lifts {lift}");
    }
}

/// Three voices playing (one filtered), master volume 0: nothing at all.
#[test]
fn volume_0_is_silence() {
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        let mut rig = Rig::new(model);
        rig.write(0x16, 0x40);
        rig.write(0x17, 0xF2);
        rig.write(0x18, 0x10);
        rig.voice(0, 0x1CD6, 0x400, 0x00, 0xF0, SAWTOOTH | GATE);
        rig.voice(1, 0x2000, 0x800, 0x00, 0xF0, PULSE | GATE);
        rig.voice(2, 0x4000, 0, 0x00, 0xF0, NOISE | GATE);
        let x = rig.seconds(0.2);
        assert!(x.iter().all(|&s| s == 0), "{model:?}: {:?}", &x[..20]);
        // The same at volume 15 is loud.
        rig.write(0x18, 0x1F);
        let x = rig.seconds(0.2);
        assert!(rms(&x) > 1_000.0, "{model:?}: {}", rms(&x));
    }
}

/// Three voices at full swing, in phase, at volume 15 fit in 16 bits: the
/// worst case is narrow pulses (their peaks far from their mean), started
/// together, on a 6581 (whose DC offsets come on top) with the volume
/// stepped at the same time.
#[test]
fn three_full_voices_fit_in_16_bits() {
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        for (wave, pw) in [(PULSE, 0x080), (PULSE, 0xF80), (SAWTOOTH, 0), (TRIANGLE, 0)] {
            let mut rig = Rig::new(model);
            for voice in 0..3 {
                rig.voice(voice, 0x1000, pw, 0x00, 0xF0, wave | TEST | GATE);
            }
            for voice in 0..3 {
                rig.write(voice * 7 + 4, wave | GATE);
            }
            rig.write(0x18, 0x0F);
            let x = rig.seconds(0.5);
            let peak = x.iter().map(|&s| i32::from(s).abs()).max().unwrap();
            assert!(peak < 32_000, "{model:?} wave {wave:02X}: peak {peak}");
            // Three voices add up: one alone swings about 5,000 either way.
            assert!(peak > 12_000, "{model:?} wave {wave:02X}: only {peak}");
        }
    }
}

/// No voice playing, $D418 toggled between 15 and 0 at 1 kHz: the 6581
/// plays it (its DC offset is scaled by the volume), the 8580 barely.
#[test]
fn volume_register_digis_play_on_the_6581() {
    let (reg, _) = freq_reg(1000.0);
    let _ = reg;
    let half_period = (CLOCK / 2000.0) as u64;
    let tone = |model: SidModel| {
        let mut rig = Rig::new(model);
        let mut x = Vec::new();
        for i in 0..1000 {
            rig.write(0x18, if i % 2 == 0 { 0x0F } else { 0x00 });
            x.extend(rig.run(half_period - 4));
        }
        let hz = CLOCK / (2 * half_period) as f64;
        magnitude(&x[2_400..], hz)
    };
    let (old, new) = (tone(SidModel::Mos6581), tone(SidModel::Mos8580));
    assert!(old > 1_500.0, "6581: {old}");
    assert!(new > 0.0 && new * 10.0 < old, "8580: {new} vs 6581: {old}");
}

/// A write at cycle N changes the output from the sample containing N on,
/// not before (compared with the same run without the write).
#[test]
fn a_write_takes_effect_in_the_sample_containing_its_cycle() {
    let boundary = |k: u64| (k * PAL_CYCLES_PER_SECOND).div_ceil(u64::from(RATE));
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        for (k, at) in [(1000u64, 0u64), (1000, 9), (1001, 20), (1777, 0), (1777, 1)] {
            let start = boundary(k);
            let len = boundary(k + 1) - start;
            let n = start + at.min(len - 1);
            let play = |write: bool| {
                let mut rig = Rig::new(model);
                rig.write(0x18, 0x0F);
                rig.voice(0, 0x1CD6, 0x800, 0x00, 0xF0, PULSE | GATE);
                let mut x = rig.run(n - rig.now);
                if write {
                    rig.sid.write(0x01, 0x30, n); // the pitch
                    rig.sid.write(0x18, 0x08, n); // and the volume
                }
                x.extend(rig.run(2_000));
                x
            };
            let (with, without) = (play(true), play(false));
            let first = with.iter().zip(&without).position(|(a, b)| a != b);
            assert_eq!(
                first,
                Some(k as usize),
                "{model:?}: write at {n} (sample {k} is {start}..+{len})"
            );
        }
    }
}

/// Voice 3 off ($D418 bit 7) silences voice 3 unless it goes through the
/// filter.
#[test]
fn voice_3_off() {
    let play = |mode: u8, route: u8| {
        let mut rig = Rig::new(SidModel::Mos8580);
        rig.write(0x16, 0xFF);
        rig.write(0x17, route);
        rig.write(0x18, mode);
        rig.voice(2, 0x1CD6, 0, 0x00, 0xF0, SAWTOOTH | GATE);
        rig.seconds(0.05);
        rms(&rig.seconds(0.2))
    };
    assert!(play(0x0F, 0) > 1_000.0);
    assert!(play(0x8F, 0) < 1.0, "{}", play(0x8F, 0));
    assert!(play(0x9F, 0x04) > 1_000.0);
}

/// Hard sync: voice 1 restarts with voice 3, so it plays voice 3's
/// frequency; ring modulation: voice 1's triangle times voice 3's square
/// gives the sum and difference frequencies.
#[test]
fn sync_and_ring_modulation() {
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        let (f1, hz1) = freq_reg(1000.0);
        let (f3, hz3) = freq_reg(300.0);
        let play = |control: u8| {
            let mut rig = Rig::new(model);
            rig.write(0x18, 0x8F); // voice 3 itself silent
            rig.voice(2, f3, 0, 0, 0, TRIANGLE);
            rig.voice(0, f1, 0, 0x00, 0xF0, control | GATE);
            rig.seconds(0.05);
            rig.seconds(0.5)
        };
        let free = play(SAWTOOTH);
        let synced = play(SAWTOOTH | SYNC);
        let (with, without) = (magnitude(&synced, hz3), magnitude(&free, hz3));
        assert!(
            with > 10.0 * without && with > 200.0,
            "{model:?} sync: {with} vs {without}"
        );
        let plain = play(TRIANGLE);
        let ring = play(TRIANGLE | RING);
        for side in [hz1 - hz3, hz1 + hz3] {
            let (with, without) = (magnitude(&ring, side), magnitude(&plain, side));
            assert!(
                with > 10.0 * without && with > 200.0,
                "{model:?} ring at {side}: {with} vs {without}"
            );
        }
    }
}

/// The number of samples: every one whose cycles have passed, however the
/// takes are spaced, at any rate.
#[test]
fn sample_counts_follow_the_clock() {
    let mut rng = Rng::with_seed(18);
    for rate in [8_000, 22_050, 44_100, 48_000, 96_000, 192_000] {
        let mut sid = Sid::new();
        let start = 12_345;
        sid.start_audio(rate, start).unwrap();
        let (mut now, mut total) = (start, 0usize);
        for _ in 0..200 {
            now += rng.u64(0..30_000);
            let mut out = Vec::new();
            sid.take_audio(now, &mut out);
            total += out.len();
            let expected = (now - start) * u64::from(rate) / PAL_CYCLES_PER_SECOND;
            assert_eq!(total as u64, expected, "{rate} Hz at {now}");
        }
    }
    assert!(Sid::new()
        .start_audio(7_999, 0)
        .unwrap_err()
        .contains("7999 Hz"));
}

/// Control values the random traffic favours: each waveform, ring, sync,
/// test, and the combinations whose output feeds back (noise write-back,
/// the 6581's sawtooth combinations), which the synthesis must not disturb.
const SANE_CONTROLS: [u8; 18] = [
    0x11, 0x21, 0x41, 0x81, 0x15, 0x23, 0x43, 0x09, 0x10, 0x00, 0x31, 0x91, 0xA1, 0xB1, 0xC1, 0x33,
    0x35, 0x19,
];

/// Audio only listens: a chip with audio on reads exactly as one without,
/// through random register traffic (sync, ring, test bit, combined and
/// noise waveforms included) at random times.
#[test]
fn audio_does_not_change_what_programs_read() {
    let mut rng = Rng::with_seed(0x5D);
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        for round in 0..3 {
            let mut plain = Sid::with_model(model);
            let mut heard = Sid::with_model(model);
            heard.start_audio(44_100, 0).unwrap();
            let mut now = 0;
            let mut out = Vec::new();
            for step in 0..3_000 {
                now += match rng.u8(0..4) {
                    0 => rng.u64(0..20_000),
                    1 => rng.u64(0..30),
                    _ => rng.u64(0..500),
                };
                match rng.u8(0..6) {
                    0 | 1 => {
                        let reg = rng.u8(0..0x19);
                        let value = if reg % 7 == 4 && reg < 0x15 {
                            // Mostly sane waveforms, sometimes anything.
                            if rng.bool() {
                                rng.u8(..)
                            } else {
                                SANE_CONTROLS[rng.usize(0..SANE_CONTROLS.len())] | rng.u8(0..2)
                            }
                        } else {
                            rng.u8(..)
                        };
                        plain.write(reg, value, now);
                        heard.write(reg, value, now);
                    }
                    2 => heard.take_audio(now, &mut out),
                    _ => {
                        let reg = rng.u8(0x19..0x20);
                        assert_eq!(
                            plain.read(reg, now),
                            heard.read(reg, now),
                            "{model:?} round {round} step {step}: reg {reg:02X} at {now}"
                        );
                    }
                }
            }
        }
    }
}
