//! SID tests against independent per-cycle reference models.

use c64kit_chips::sid::{
    noise_clock, noise_clock_n, noise_output, BUS_VALUE_TTL_6581, BUS_VALUE_TTL_8580,
    LFSR_FILL_6581, NOISE_SEED,
};
use c64kit_chips::{Sid, SidModel};

/// Deterministic test randomness.
use fastrand::Rng;

/// Voice 3 oscillator stepped one cycle at a time, written independently of
/// the crate: accumulator += freq, LFSR shifted 2 cycles after every 0->1 of
/// bit 19.
struct RefVoice {
    acc: u32,
    lfsr: u32,
    freq: u32,
    test: bool,
    cycle: u64,
    pipeline: u8,
    test_since: u64,
}

impl RefVoice {
    fn new() -> Self {
        RefVoice {
            acc: 0x55_5555,
            lfsr: 0x7F_FFFE,
            freq: 0,
            test: false,
            cycle: 0,
            pipeline: 0,
            test_since: 0,
        }
    }

    fn run_to(&mut self, now: u64) {
        while self.cycle < now {
            self.cycle += 1;
            if self.test {
                if self.cycle - self.test_since >= LFSR_FILL_6581 {
                    self.lfsr = 0x7F_FFFF;
                }
                continue;
            }
            let before = self.acc;
            self.acc = (self.acc + self.freq) % (1 << 24);
            let rose = before & (1 << 19) == 0 && self.acc & (1 << 19) != 0;
            if rose {
                self.pipeline = 2;
            } else if self.pipeline > 0 {
                self.pipeline -= 1;
                if self.pipeline == 0 {
                    let feedback = ((self.lfsr >> 22) & 1) ^ ((self.lfsr >> 17) & 1);
                    self.lfsr = ((self.lfsr << 1) & 0x7F_FFFF) | feedback;
                }
            }
        }
    }

    fn set_control(&mut self, control: u8) {
        let test = control & 0x08 != 0;
        if test && !self.test {
            self.acc = 0;
            self.pipeline = 0;
            self.test_since = self.cycle;
        } else if !test && self.test {
            // The release completes a shift, NOT bit 17 entering bit 0.
            let feedback = !(self.lfsr >> 17) & 1;
            self.lfsr = ((self.lfsr << 1) & 0x7F_FFFF) | feedback;
        }
        self.test = test;
    }

    fn noise(&self) -> u8 {
        let bit = |n: u32| ((self.lfsr >> n) & 1) as u8;
        // The die-photo taps VICE's reSID and reSIDfp use.
        bit(20) << 7
            | bit(18) << 6
            | bit(14) << 5
            | bit(11) << 4
            | bit(9) << 3
            | bit(5) << 2
            | bit(2) << 1
            | bit(0)
    }
}

#[test]
fn noise_register_matches_reference_lfsr_over_time() {
    let mut sid = Sid::new();
    let mut reference = RefVoice::new();
    let mut rng = Rng::with_seed(0x1234_5678_9ABC_DEF1);
    let mut now = 5;
    sid.write(0x0E, 0xFF, now);
    sid.write(0x0F, 0xFF, now);
    sid.write(0x12, 0x80, now);
    reference.run_to(now);
    reference.freq = 0xFFFF;
    reference.set_control(0x80);
    let mut distinct = std::collections::BTreeSet::new();
    for i in 0..3000 {
        now += 1 + if i % 50 == 0 {
            rng.u64(..200_000)
        } else {
            rng.u64(..300)
        };
        if i % 97 == 0 {
            // New frequency now and then, including slow ones and 0.
            let freq = match rng.u64(..4) {
                0 => 0,
                1 => rng.u64(..0x100) as u16,
                _ => rng.u16(..),
            };
            reference.run_to(now);
            reference.freq = u32::from(freq);
            sid.write(0x0E, freq as u8, now);
            sid.write(0x0F, (freq >> 8) as u8, now);
        }
        reference.run_to(now);
        let value = sid.read(0x1B, now);
        assert_eq!(value, reference.noise(), "OSC3 at cycle {now}");
        distinct.insert(value);
    }
    assert!(
        distinct.len() > 200,
        "noise should wander: {}",
        distinct.len()
    );
}

#[test]
fn randomizer_loop_sees_changing_deterministic_values() {
    // RYG: frequency $FFFF, noise on, read $D41B in a tight loop.
    let run = || {
        let mut sid = Sid::new();
        sid.write(0x0E, 0xFF, 100);
        sid.write(0x0F, 0xFF, 104);
        sid.write(0x12, 0x80, 108);
        (0..200u64)
            .map(|i| sid.read(0x1B, 112 + i * 7))
            .collect::<Vec<u8>>()
    };
    let first = run();
    assert_eq!(first, run(), "same cycles, same values");
    let changes = first.windows(2).filter(|w| w[0] != w[1]).count();
    // At $FFFF the LFSR is clocked every 16 cycles: roughly every other read.
    assert!(changes > 50, "only {changes} changes");
    assert!(first.iter().any(|&v| v != 0));
}

#[test]
fn test_bit_fills_the_noise_register_and_release_shifts_once() {
    // The 6581's noise register charges to all ones while the test bit is on
    // (after LFSR_FILL_6581 cycles); the release shifts once, NOT bit 17 in.
    let mut sid = Sid::new();
    let mut reference = RefVoice::new();
    sid.write(0x0E, 0x34, 0);
    sid.write(0x0F, 0x92, 0);
    reference.freq = 0x9234;
    sid.write(0x12, 0x80, 10);
    reference.run_to(10);
    reference.set_control(0x80);
    assert_eq!(sid.read(0x1B, 50_000), {
        reference.run_to(50_000);
        reference.noise()
    });

    sid.write(0x12, 0x88, 60_000);
    reference.run_to(60_000);
    reference.set_control(0x88);
    let before = reference.noise();
    assert_eq!(sid.read(0x1B, 60_001), before, "not filled yet");
    // A real 6581 kept its register through 34,811 cycles of the test bit
    // (SID/resid-test oscsample's reference).
    assert_eq!(sid.read(0x1B, 60_000 + 34_811), before, "not filled yet");
    assert_eq!(sid.read(0x1B, 60_000 + LFSR_FILL_6581), 0xFF, "all ones");
    // Sawtooth reads the accumulator: held at 0.
    sid.write(0x12, 0x28, 2_000_000);
    assert_eq!(sid.read(0x1B, 2_100_000), 0);
    sid.write(0x12, 0x88, 2_100_000);

    reference.run_to(2_200_000);
    sid.write(0x12, 0x80, 2_200_000);
    reference.set_control(0x80);
    assert_eq!(reference.lfsr, 0x7F_FFFE);
    assert_eq!(sid.read(0x1B, 2_200_000), noise_output(0x7F_FFFE));
    for now in (2_200_001..2_260_000).step_by(333) {
        reference.run_to(now);
        assert_eq!(
            sid.read(0x1B, now),
            reference.noise(),
            "after release at {now}"
        );
    }
}

#[test]
fn power_on_accumulators_and_waveforms() {
    // SID/oscinit: the accumulator is $555555 at power-on, so with frequency 0
    // OSC3 reads $55 as sawtooth and $AA as triangle; noise reads $FE, pulse
    // with width 0 $FF, no waveform $00.
    let mut sid = Sid::new();
    let mut read = |wave: u8, now: u64| {
        sid.write(0x12, wave, now);
        sid.read(0x1B, now + 1)
    };
    assert_eq!(read(0x00, 10), 0x00);
    assert_eq!(read(0x80, 20), 0xFE);
    assert_eq!(read(0x40, 30), 0xFF);
    assert_eq!(read(0x20, 40), 0x55);
    assert_eq!(read(0x10, 50), 0xAA);
}

#[test]
fn ring_modulation_inverts_with_the_inverted_source_msb() {
    // SID/ringmod: both accumulators 0, ring-modulated triangle reads $FF
    // (the triangle's MSB is XORed with NOT the source's MSB).
    let mut sid = Sid::new();
    sid.write(0x0B, 0x08, 0);
    sid.write(0x12, 0x08, 0);
    sid.write(0x12, 0x15, 4);
    assert_eq!(sid.read(0x1B, 8), 0xFF);
    // Without the ring bit the triangle at 0 reads 0.
    sid.write(0x12, 0x08, 12);
    sid.write(0x12, 0x10, 16);
    assert_eq!(sid.read(0x1B, 20), 0x00, "plain triangle at 0");
}

#[test]
fn deselected_waveform_holds_then_fades() {
    // SID/osc3-wave0: with no waveform OSC3 keeps the last output, then
    // fades to 0 (6581 ~200000 cycles, 8580 ~5 s).
    // The 8580's OSC3 shows its output through a latch: one cycle later.
    for (model, ttl) in [(SidModel::Mos6581, 200_000), (SidModel::Mos8580, 5_000_001)] {
        let mut sid = Sid::with_model(model);
        sid.write(0x12, 0x40, 0); // pulse, width 0: $FF
        assert_eq!(sid.read(0x1B, 4), 0xFF);
        sid.write(0x12, 0x00, 8);
        assert_eq!(sid.read(0x1B, 12), 0xFF, "{model:?} held");
        assert_eq!(sid.read(0x1B, 8 + ttl - 1), 0xFF, "{model:?} still held");
        assert_eq!(sid.read(0x1B, 8 + ttl), 0x00, "{model:?} faded");
    }
}

#[test]
fn noise_shift_lands_two_cycles_after_bit_19_rises() {
    // SID/noisewriteback: the LFSR shifts 2 cycles after accumulator bit 19
    // rises (detect, shift phase 1, shift phase 2).
    let mut sid = Sid::new();
    sid.write(0x12, 0x88, 0); // test: acc 0
    sid.write(0x0F, 0x80, 1); // +$8000 per cycle: bit 19 rises after 16 cycles
    sid.write(0x12, 0x80, 2); // release: one shift, seed -> ...
    let released = sid.read(0x1B, 3);
    assert_eq!(sid.read(0x1B, 2 + 16), released, "rise");
    assert_eq!(sid.read(0x1B, 2 + 17), released, "phase 1");
    assert_ne!(sid.read(0x1B, 2 + 18), released, "phase 2: shifted");
}

#[test]
fn combined_noise_writes_back_into_the_register() {
    // Noise with triangle at accumulator 0 reads 0 and clears every tap of
    // the LFSR: after switching back to noise alone OSC3 shows the zeros.
    let mut sid = Sid::new();
    sid.write(0x12, 0x08, 0);
    sid.write(0x12, 0x90, 4); // noise + triangle, test released
    assert_eq!(sid.read(0x1B, 8), 0x00);
    sid.write(0x12, 0x80, 12);
    assert_eq!(sid.read(0x1B, 16), 0x00, "taps cleared by the write-back");
}

#[test]
fn sawtooth_combined_pulls_the_6581_accumulator_msb_down() {
    // SID/osc_topbit: on the 6581 a 0 output MSB of saw+pulse (pulse low)
    // enters the accumulator's MSB; the 8580 buffers it.
    for (model, msb) in [(SidModel::Mos6581, 0x00), (SidModel::Mos8580, 0x80)] {
        let mut sid = Sid::with_model(model);
        sid.write(0x10, 0xFF, 0);
        sid.write(0x11, 0xFF, 0); // width $FFF: pulse low
        sid.write(0x12, 0x08, 0);
        sid.write(0x0F, 0x80, 1);
        sid.write(0x12, 0x20, 2); // saw from 0, +$8000 a cycle
                                  // (One cycle later than the MSB rises: the 8580's OSC3 shows it through its latch.)
        assert_eq!(sid.read(0x1B, 2 + 257) & 0x80, 0x80, "MSB up");
        sid.write(0x12, 0x60, 2 + 256);
        sid.write(0x12, 0x20, 2 + 260);
        assert_eq!(sid.read(0x1B, 2 + 261) & 0x80, msb, "{model:?}");
    }
}

#[test]
fn jump_ahead_equals_stepping() {
    let mut state = NOISE_SEED;
    let mut stepped = vec![state];
    for _ in 0..20_000 {
        state = noise_clock(state);
        stepped.push(state);
    }
    for n in [
        0usize, 1, 2, 22, 23, 24, 64, 65, 66, 100, 1000, 4095, 12_345, 20_000,
    ] {
        assert_eq!(noise_clock_n(NOISE_SEED, n as u64), stepped[n], "n = {n}");
    }
    // From arbitrary states too.
    for start in [1usize, 777, 5000] {
        assert_eq!(
            noise_clock_n(stepped[start], 10_000),
            stepped[start + 10_000],
            "start {start}"
        );
    }
    // The LFSR is maximal length: period 2^23 - 1.
    let period = (1u64 << 23) - 1;
    assert_eq!(noise_clock_n(0x12_3456, period), 0x12_3456);
    assert_ne!(noise_clock_n(0x12_3456, period / 3), 0x12_3456);
    assert_ne!(noise_clock_n(0x12_3456, period / 7), 0x12_3456);
}

#[test]
fn noise_output_bit_selection() {
    // Bits 20,18,14,11,9,5,2,0 (die photographs, as VICE's reSID and
    // reSIDfp read them; SID/wb_testsuite needs bit 0 as OSC3's bit 0).
    assert_eq!(noise_output(1 << 20), 0x80);
    assert_eq!(noise_output(1 << 18), 0x40);
    assert_eq!(noise_output(1 << 14), 0x20);
    assert_eq!(noise_output(1 << 11), 0x10);
    assert_eq!(noise_output(1 << 9), 0x08);
    assert_eq!(noise_output(1 << 5), 0x04);
    assert_eq!(noise_output(1 << 2), 0x02);
    assert_eq!(noise_output(1 << 0), 0x01);
    assert_eq!(noise_output(!((1 << 20) | 1) & 0x7F_FFFF), 0x7E);
    assert_eq!(noise_output(1 << 22 | 1 << 21), 0x00, "not taps");
    assert_eq!(noise_output(NOISE_SEED), 0xFE);
}

#[test]
fn sawtooth_triangle_and_pulse_follow_the_accumulator() {
    let mut sid = Sid::new();
    sid.write(0x12, 0x08, 0); // test bit: accumulator 0
    sid.write(0x0E, 0x00, 0);
    sid.write(0x0F, 0x10, 0); // +$1000 per cycle
    sid.write(0x12, 0x20, 0); // sawtooth
    assert_eq!(sid.read(0x1B, 0x10), 0x01); // acc $010000
    assert_eq!(sid.read(0x1B, 0x7F0), 0x7F);
    assert_eq!(sid.read(0x1B, 0x1000 + 0x10), 0x01, "wraps at 2^24");

    sid.write(0x12, 0x10, 0x1010); // triangle
    assert_eq!(sid.read(0x1B, 0x1020), 0x04); // acc $020000 -> $020000 >> 15
    assert_eq!(sid.read(0x1B, 0x17F0), 0xFE); // acc $7F0000: rising, near the top
    assert_eq!(sid.read(0x1B, 0x1800), 0xFF); // acc $800000: folded top
    assert_eq!(sid.read(0x1B, 0x1810), 0xFD); // acc $810000: falling

    sid.write(0x10, 0x00, 0x1810);
    sid.write(0x11, 0x08, 0x1810); // pulse width $800
    sid.write(0x12, 0x40, 0x1810); // pulse
    assert_eq!(sid.read(0x1B, 0x1820), 0xFF, "acc $820000: $820 >= $800");
    assert_eq!(sid.read(0x1B, 0x2010), 0x00, "acc $010000: $010 < $800");
    sid.write(0x12, 0x48, 0x2010); // test bit forces pulse high
    assert_eq!(sid.read(0x1B, 0x2020), 0xFF);
}

#[test]
fn paddles_bus_value_and_its_decay() {
    let mut sid = Sid::new();
    assert_eq!(sid.read(0x00, 0), 0x00, "nothing written yet");
    assert_eq!(sid.read(0x19, 0), 0xFF);
    assert_eq!(sid.read(0x1A, 0), 0xFF);
    sid.write(0x18, 0x0F, 1000);
    assert_eq!(sid.read(0x18, 1001), 0x0F);
    assert_eq!(
        sid.read(0x05, 1000 + BUS_VALUE_TTL_6581 - 1),
        0x0F,
        "any write-only reg"
    );
    assert_eq!(
        sid.read(0x1D, 1000 + BUS_VALUE_TTL_6581 - 1),
        0x0F,
        "unused regs too"
    );
    assert_eq!(sid.read(0x18, 1000 + BUS_VALUE_TTL_6581), 0x00, "faded");
    // Mirroring: register index is masked to 5 bits.
    assert_eq!(sid.read(0x39, 5000), 0xFF);
    assert_eq!(sid.peek(0x1B, 5000), sid.read(0x1B, 5000));
    // SID/busvalue: a read of a read-only register drives the bus too.
    sid.write(0x10, 0xA5, 6000);
    let osc3 = sid.read(0x1B, 6004);
    assert_eq!(sid.read(0x00, 6008), osc3);
    assert_eq!(sid.read(0x1E, 6012), osc3);
    // The 8580 keeps it far longer.
    let mut sid = Sid::with_model(SidModel::Mos8580);
    sid.write(0x18, 0x0F, 1000);
    assert_eq!(sid.read(0x05, 1000 + BUS_VALUE_TTL_8580 - 1), 0x0F);
    assert_eq!(sid.read(0x05, 1000 + BUS_VALUE_TTL_8580), 0x00);
}

#[test]
fn envelope_attack_timing() {
    // The rate counter reaches its compare value 8 at cycle 8, the match is
    // seen at 9 and restarts it at 10 (by then the gate's attack state, 2
    // cycles after the write, is on), the step lands 2 cycles later (12) and
    // ENV3 shows the counter one cycle late (13); then a step every 9 cycles.
    let mut sid = Sid::new();
    sid.write(0x13, 0x00, 0); // attack 0: a step every 9 cycles
    sid.write(0x14, 0xF0, 0); // sustain at $FF
    sid.write(0x12, 0x01, 0);
    assert_eq!(sid.read(0x1C, 12), 0);
    assert_eq!(sid.read(0x1C, 13), 1);
    assert_eq!(sid.read(0x1C, 4 + 9 * 100), 100);
    assert_eq!(sid.read(0x1C, 4 + 9 * 255), 255);
    assert_eq!(sid.read(0x1C, 1_000_000), 255, "sustain at $FF");
}

/// Fills voice 3's noise register with ones (test bit held for the 6581's
/// or 8580's fill time, frequency 0) and returns the cycle after.
fn filled(model: SidModel) -> (Sid, u64) {
    let mut sid = Sid::with_model(model);
    sid.write(0x12, 0x88, 0);
    let now = 1 + match model {
        SidModel::Mos6581 => LFSR_FILL_6581,
        SidModel::Mos8580 => c64kit_chips::sid::LFSR_FILL_8580,
    };
    assert_eq!(sid.read(0x1B, now), 0xFF, "{model:?} filled");
    (sid, now + 4)
}

/// SID/wb_testsuite's sequence: test bit on with `from`, released into
/// `to`, then test bit on and off with noise alone (one more shift, NOT bit
/// 17 in) and OSC3 read. Returns that read.
fn release_then_shift(model: SidModel, from: u8, to: u8) -> u8 {
    let (mut sid, now) = filled(model);
    sid.write(0x12, from, now);
    sid.write(0x12, to, now + 4);
    sid.write(0x12, 0x88, now + 16);
    sid.write(0x12, 0x80, now + 22);
    sid.read(0x1B, now + 26)
}

#[test]
fn test_release_shift_shows_at_osc3_bit_0() {
    // The bit the release shifts in (NOT bit 17: 0 from all ones) is OSC3's
    // bit 0 at once: the taps are bits 20..0, not 22..2 (SID/wb_testsuite,
    // 8->8 on real 6581s and 8580s: $FE after two shifts, $FC after three).
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        let (mut sid, now) = filled(model);
        sid.write(0x12, 0x80, now);
        assert_eq!(sid.read(0x1B, now + 2), 0xFE, "{model:?} one shift");
        assert_eq!(release_then_shift(model, 0x88, 0x80), 0xFE);
    }
}

#[test]
fn release_into_noise_alone_writes_nothing_back() {
    // Noise+sawtooth at accumulator 0 outputs 0, but releasing the test bit
    // into noise alone does not write it back (VICE reSID do_pre_writeback;
    // SID/wb_testsuite A->8 on real chips reads like 8->8).
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        assert_eq!(release_then_shift(model, 0xA8, 0x80), 0xFE, "{model:?}");
        // Into a combination it is written back before the shift: the
        // zeros move one bit up, and the new selection clears the taps.
        assert_eq!(release_then_shift(model, 0xA8, 0xA0), 0x6C, "{model:?}");
    }
}

#[test]
fn the_6581_writes_nothing_back_between_triangle_and_sawtooth() {
    // 6581: noise+triangle released into noise+sawtooth (or back) writes
    // nothing before the shift; the 8580 does (VICE reSID do_pre_writeback;
    // SID/wb_testsuite 9->A old reads $FE first, A->A $6C).
    assert_eq!(release_then_shift(SidModel::Mos6581, 0x98, 0xA0), 0xFE);
    assert_eq!(release_then_shift(SidModel::Mos6581, 0xA8, 0x90), 0xFE);
    assert_eq!(release_then_shift(SidModel::Mos8580, 0x98, 0xA0), 0x6C);
}

#[test]
fn noise_pulse_writes_back_only_on_the_8580_into_9_or_e() {
    // From noise+pulse (with the test bit: pulse high) the release writes
    // back only on the 8580 and only into noise+triangle or
    // noise+pulse+sawtooth (VICE reSID do_pre_writeback; SID/wb_testsuite
    // C->9 and C->E: new $FC, old $FE; C->A new is unstable, old $FE).
    assert_eq!(release_then_shift(SidModel::Mos8580, 0xC8, 0x90), 0xFC);
    assert_eq!(release_then_shift(SidModel::Mos8580, 0xC8, 0xE0), 0xFC);
    assert_eq!(release_then_shift(SidModel::Mos8580, 0xC8, 0xB0), 0xFE);
    assert_eq!(release_then_shift(SidModel::Mos6581, 0xC8, 0x90), 0xFE);
    assert_eq!(release_then_shift(SidModel::Mos6581, 0xC8, 0xE0), 0xFE);
}

#[test]
fn noise_pulse_pulls_low_bits_down() {
    // Noise+pulse: the 4 grounded low output bits pull their neighbours
    // down: from all ones a 6581 and an 8580 read $FC (VICE reSID
    // noise_pulse6581/8580; SID/wf12nsr reads $FC on a 6581).
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        let (mut sid, now) = filled(model);
        sid.write(0x12, 0xC8, now);
        assert_eq!(sid.read(0x1B, now + 1), 0xFC, "{model:?}");
    }
    // Below $F00 the 6581 reads 0; the 8580 keeps bits with a 1 below.
    let (mut sid, mut now) = filled(SidModel::Mos6581);
    for _ in 0..6 {
        // Six shifts from all ones, NOT bit 17 (0) in: $F8.
        sid.write(0x12, 0x88, now);
        sid.write(0x12, 0x80, now + 4);
        now += 8;
    }
    assert_eq!(sid.read(0x1B, now), 0xF8);
    sid.write(0x12, 0xC8, now + 2);
    assert_eq!(sid.read(0x1B, now + 4), 0xE0, "6581");
    // $F80: $F80 & $F00 & $E00 = $E00.
}

#[test]
fn the_6581_noise_pulse_does_not_write_back() {
    // A 6581 with noise+pulse selected (test bit off) leaves the register
    // alone, though its output has bits pulled down: SID/wb_testsuite 8->C
    // and C->C on real 6581s read like 8->8. The 8580 writes back.
    assert_eq!(release_then_shift(SidModel::Mos6581, 0x88, 0xC0), 0xFE);
    assert_eq!(release_then_shift(SidModel::Mos6581, 0xC8, 0xC0), 0xFE);
    // Back to noise alone without a shift: the 8580 wrote its pulled-down
    // output ($FC from $FE) into the register, the 6581 did not.
    for (model, osc3) in [(SidModel::Mos6581, 0xFE), (SidModel::Mos8580, 0xFC)] {
        let (mut sid, now) = filled(model);
        sid.write(0x12, 0xC0, now); // release into noise+pulse: $FE
        sid.write(0x12, 0x80, now + 10);
        assert_eq!(sid.read(0x1B, now + 12), osc3, "{model:?}");
    }
}

/// Voice 3 released from the test bit with `wave` at cycle 100, frequency `freq`, pulse width
/// `pw`; OSC3 read `k` cycles later.
fn osc3_after_release(model: SidModel, wave: u8, freq: u16, pw: u16, k: u64) -> u8 {
    let mut sid = Sid::with_model(model);
    sid.write(0x0E, freq as u8, 0);
    sid.write(0x0F, (freq >> 8) as u8, 0);
    sid.write(0x10, pw as u8, 0);
    sid.write(0x11, (pw >> 8) as u8, 0);
    sid.write(0x12, 0x08, 0);
    sid.write(0x12, wave, 100);
    sid.read(0x1B, 100 + k)
}

#[test]
fn osc3_shows_the_8580s_triangle_and_sawtooth_a_cycle_after_the_6581s() {
    // SID/detect (detect-2): sawtooth at frequency $FFFF, read 4 cycles after the test
    // bit's release: $03 on a 6581, $02 on an 8580.
    assert_eq!(osc3_after_release(SidModel::Mos6581, 0x20, 0xFFFF, 0, 4), 3);
    assert_eq!(osc3_after_release(SidModel::Mos8580, 0x20, 0xFFFF, 0, 4), 2);
    // In general: the 8580 shows what the 6581 showed the cycle before.
    // (Not combined with sawtooth: the 6581's accumulator then differs.)
    for wave in [0x10, 0x20] {
        for k in 2..300 {
            assert_eq!(
                osc3_after_release(SidModel::Mos8580, wave, 0xFFFF, 0, k),
                osc3_after_release(SidModel::Mos6581, wave, 0xFFFF, 0, k - 1),
                "wave ${wave:02X}, {k} cycles after the release"
            );
        }
    }
}

#[test]
fn osc3_shows_noise_in_the_same_cycle_on_both_models() {
    // SID/resid-test oscsample's noise references: both chips show a shift of
    // the register in the same cycle (the 8580's latch holds the other waveforms).
    // +$1000 a cycle: bit 19 rises after 128 cycles, then every 256.
    let mut changes = 0;
    for k in 1..1200 {
        let old = osc3_after_release(SidModel::Mos6581, 0x80, 0x1000, 0, k);
        assert_eq!(
            osc3_after_release(SidModel::Mos8580, 0x80, 0x1000, 0, k),
            old,
            "{k} cycles after the release"
        );
        changes +=
            usize::from(old != osc3_after_release(SidModel::Mos6581, 0x80, 0x1000, 0, k - 1));
    }
    assert!(changes >= 2, "the noise changed {changes} times");
}

#[test]
fn osc3_shows_the_pulse_a_cycle_late_on_both_models() {
    // +$1000 a cycle: the accumulator's upper 12 bits count 0, 1, 2, ...; width 5. The
    // comparator sees 5 in the 5th cycle, OSC3 shows it in the 6th (SID/waveforms, pulse).
    for model in [SidModel::Mos6581, SidModel::Mos8580] {
        assert_eq!(
            osc3_after_release(model, 0x40, 0x1000, 5, 5),
            0x00,
            "{model:?}"
        );
        assert_eq!(
            osc3_after_release(model, 0x40, 0x1000, 5, 6),
            0xFF,
            "{model:?}"
        );
    }
    // The 6581's triangle beside it is not late: triangle+pulse reads $3F at
    // $1FF and 0 at $200 (a real 6581: SID/resid-test oscsample's reference),
    // in the same cycles as the accumulator.
    let pulse_triangle = |k| osc3_after_release(SidModel::Mos6581, 0x50, 0x1000, 5, k);
    assert_eq!(pulse_triangle(0x1FF), 0x3F);
    assert_eq!(pulse_triangle(0x200), 0);
}

#[test]
fn pot_registers_change_at_the_end_of_a_measuring_cycle() {
    use c64kit_chips::sid::pot::{POT_CYCLE, POT_DISCHARGE};
    let mut sid = Sid::new();
    sid.set_pot_inputs([Some(77), None], 0);
    assert_eq!(sid.read(0x19, POT_CYCLE - 1), 0xFF, "measuring");
    assert_eq!(sid.read(0x19, POT_CYCLE), 77);
    assert_eq!(sid.read(0x1A, POT_CYCLE), 0xFF, "nothing on POTY");
    // A read drives the data bus like any read-only register's.
    assert_eq!(sid.read(0x00, POT_CYCLE + 1), 0xFF);
    assert_eq!(sid.read(0x39, POT_CYCLE + 2), 77, "mirrored");
    assert_eq!(sid.read(0x00, POT_CYCLE + 3), 77);
    // Turned in the middle of a charge phase: that cycle reads neither, the next the new one.
    let t = 5 * POT_CYCLE + POT_DISCHARGE + 40;
    sid.set_pot_inputs([Some(5), None], t);
    assert_eq!(sid.peek(0x19, 6 * POT_CYCLE - 1), 77);
    let mixed = sid.peek(0x19, 6 * POT_CYCLE);
    assert!(mixed != 77 && mixed != 5, "{mixed}");
    assert_eq!(sid.peek(0x19, 7 * POT_CYCLE), 5);
    assert_eq!(sid.read(0x19, 1_000_000), 5);
    // A reset leaves what is plugged in.
    sid.reset();
    assert_eq!(sid.read(0x19, 2_000_000), 5);
}

/// The reference dumps of VICE testprogs SID/resid-test (OSC3 of a real 6581 and 8580 over a
/// whole sawtooth period, frequency $1000): for pulse width `file` 0 ($000) or 1 ($100), the
/// 4,096 bytes of each of the 8 waveform selections $10-$80.
fn oscsample_reference(model: SidModel, file: u8) -> Vec<Vec<u8>> {
    let name = match model {
        SidModel::Mos6581 => format!("oscsample{file}-6581.prg"),
        SidModel::Mos8580 => format!("oscsample{file}-8580.prg"),
    };
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/vice-testprogs/SID/resid-test")
        .join(name);
    let prg = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    // The references follow the last file name the program saves under.
    let names_end = prg
        .windows(12)
        .position(|w| w == b"8580WF80.DAT")
        .expect("file names")
        + 12;
    (0..8)
        .map(|k| prg[names_end + k * 0x1000..names_end + (k + 1) * 0x1000].to_vec())
        .collect()
}

#[test]
fn combined_waveforms_come_close_to_real_chips() {
    // Bit errors of OSC3 against the real chips' samples, per combination: the fit's own
    // (listed in sid/combined.rs) and, for scale, the AND of the outputs'.
    let expected = [
        (
            SidModel::Mos6581,
            [
                (0x30, 92, 6_504),
                (0x50, 968, 29_142),
                (0x60, 239, 13_009),
                (0x70, 8, 6_880),
            ],
        ),
        (
            SidModel::Mos8580,
            [
                (0x30, 1_054, 18_670),
                (0x50, 3_546, 23_435),
                (0x60, 3_073, 23_821),
                (0x70, 940, 17_989),
            ],
        ),
    ];
    for (model, combinations) in expected {
        let references = [oscsample_reference(model, 0), oscsample_reference(model, 1)];
        // The 8580 shows the output a cycle late: its sample i is read a cycle later.
        let late = u64::from(model == SidModel::Mos8580);
        for (wave, fit_errors, and_errors) in combinations {
            let mut errors = 0;
            for (file, reference) in references.iter().enumerate() {
                let samples = &reference[usize::from(wave >> 4) - 1];
                // The 6581's sawtooth pulls the accumulator's MSB down: the second half
                // repeats the first, so its samples are not taken.
                let end = if model == SidModel::Mos6581 && wave & 0x20 != 0 {
                    0x800
                } else {
                    0x1000
                };
                let pw = if file == 0 { 0 } else { 0x100 };
                for (i, &want) in samples.iter().enumerate().take(end).skip(4) {
                    let got = osc3_after_release(model, wave, 0x1000, pw, i as u64 + late);
                    errors += (got ^ want).count_ones();
                }
            }
            assert!(
                errors <= fit_errors,
                "{model:?} ${wave:02X}: {errors} bit errors, the fit had {fit_errors} (the AND {and_errors})"
            );
        }
    }
}
