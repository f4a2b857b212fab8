//! SID tests against independent per-cycle reference models.

use c64kit_chips::sid::{noise_clock, noise_clock_n, noise_output, BUS_VALUE_TTL, NOISE_SEED};
use c64kit_chips::Sid;

/// Deterministic test randomness.
use fastrand::Rng;

/// Voice 3 oscillator stepped one cycle at a time, written independently of
/// the crate: accumulator += freq, LFSR shifted on every 0->1 of bit 19.
struct RefVoice {
    acc: u32,
    lfsr: u32,
    freq: u32,
    test: bool,
    cycle: u64,
}

impl RefVoice {
    fn new() -> Self {
        RefVoice {
            acc: 0,
            lfsr: 0x7F_FFF8,
            freq: 0,
            test: false,
            cycle: 0,
        }
    }

    fn run_to(&mut self, now: u64) {
        while self.cycle < now {
            self.cycle += 1;
            if self.test {
                continue;
            }
            let before = self.acc;
            self.acc = (self.acc + self.freq) % (1 << 24);
            let rose = before & (1 << 19) == 0 && self.acc & (1 << 19) != 0;
            if rose {
                let feedback = ((self.lfsr >> 22) & 1) ^ ((self.lfsr >> 17) & 1);
                self.lfsr = ((self.lfsr << 1) & 0x7F_FFFF) | feedback;
            }
        }
    }

    fn set_control(&mut self, control: u8) {
        let test = control & 0x08 != 0;
        if test {
            self.acc = 0;
            self.lfsr = 0;
        } else if self.test {
            self.lfsr = 0x7F_FFF8;
        }
        self.test = test;
    }

    fn noise(&self) -> u8 {
        let bit = |n: u32| ((self.lfsr >> n) & 1) as u8;
        bit(22) << 7
            | bit(20) << 6
            | bit(16) << 5
            | bit(13) << 4
            | bit(11) << 3
            | bit(7) << 2
            | bit(4) << 1
            | bit(2)
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
fn test_bit_clears_and_holds_then_reseeds() {
    let mut sid = Sid::new();
    let mut reference = RefVoice::new();
    sid.write(0x0E, 0x34, 0);
    sid.write(0x0F, 0x92, 0);
    reference.freq = 0x9234;
    sid.write(0x12, 0x80, 10);
    reference.run_to(10);
    reference.set_control(0x80);
    assert_ne!(sid.read(0x1B, 50_000), 0, "noise running");

    sid.write(0x12, 0x88, 60_000);
    reference.run_to(60_000);
    reference.set_control(0x88);
    for now in [60_000, 60_001, 70_000, 2_000_000] {
        assert_eq!(
            sid.read(0x1B, now),
            0,
            "noise held at 0 by test bit at {now}"
        );
    }
    // Sawtooth reads the accumulator: held at 0 too.
    sid.write(0x12, 0x28, 2_000_000);
    assert_eq!(sid.read(0x1B, 2_100_000), 0);
    sid.write(0x12, 0x88, 2_100_000);

    reference.run_to(2_200_000);
    sid.write(0x12, 0x80, 2_200_000);
    reference.set_control(0x80);
    assert_eq!(reference.lfsr, NOISE_SEED);
    assert_eq!(sid.read(0x1B, 2_200_000), noise_output(NOISE_SEED));
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
    assert_eq!(noise_output(1 << 22), 0x80);
    assert_eq!(noise_output(1 << 20), 0x40);
    assert_eq!(noise_output(1 << 16), 0x20);
    assert_eq!(noise_output(1 << 13), 0x10);
    assert_eq!(noise_output(1 << 11), 0x08);
    assert_eq!(noise_output(1 << 7), 0x04);
    assert_eq!(noise_output(1 << 4), 0x02);
    assert_eq!(noise_output(1 << 2), 0x01);
    assert_eq!(noise_output(!((1 << 22) | (1 << 2)) & 0x7F_FFFF), 0x7E);
    assert_eq!(noise_output(NOISE_SEED), 0xFE);
}

#[test]
fn sawtooth_triangle_and_pulse_follow_the_accumulator() {
    let mut sid = Sid::new();
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
    assert_eq!(sid.read(0x19, 0), 0xFF);
    assert_eq!(sid.read(0x1A, 0), 0xFF);
    assert_eq!(sid.read(0x00, 0), 0x00, "nothing written yet");
    sid.write(0x18, 0x0F, 1000);
    assert_eq!(sid.read(0x18, 1001), 0x0F);
    assert_eq!(
        sid.read(0x05, 1000 + BUS_VALUE_TTL - 1),
        0x0F,
        "any write-only reg"
    );
    assert_eq!(
        sid.read(0x1D, 1000 + BUS_VALUE_TTL - 1),
        0x0F,
        "unused regs too"
    );
    assert_eq!(sid.read(0x18, 1000 + BUS_VALUE_TTL), 0x00, "faded");
    // Mirroring: register index is masked to 5 bits.
    assert_eq!(sid.read(0x39, 5000), 0xFF);
    assert_eq!(sid.peek(0x1B, 5000), sid.read(0x1B, 5000));
}

/// reSID 0.16's envelope generator, clocked every cycle.
struct RefEnvelope {
    counter: u8,
    state: u8, // 0 attack, 1 decay/sustain, 2 release
    rate_counter: u32,
    exp_counter: u32,
    exp_period: u32,
    hold_zero: bool,
    gate: bool,
    ad: u8,
    sr: u8,
}

const RATES: [u32; 16] = [
    9, 32, 63, 95, 149, 220, 267, 313, 392, 977, 1954, 3126, 3907, 11720, 19532, 31251,
];

impl RefEnvelope {
    fn new() -> Self {
        RefEnvelope {
            counter: 0,
            state: 2,
            rate_counter: 0,
            exp_counter: 0,
            exp_period: 1,
            hold_zero: true,
            gate: false,
            ad: 0,
            sr: 0,
        }
    }

    fn clock(&mut self) {
        let period = match self.state {
            0 => RATES[usize::from(self.ad >> 4)],
            1 => RATES[usize::from(self.ad & 15)],
            _ => RATES[usize::from(self.sr & 15)],
        };
        self.rate_counter += 1;
        if self.rate_counter & 0x8000 != 0 {
            self.rate_counter = (self.rate_counter + 1) & 0x7FFF;
        }
        if self.rate_counter != period {
            return;
        }
        self.rate_counter = 0;
        if self.state != 0 {
            self.exp_counter += 1;
            if self.exp_counter != self.exp_period {
                return;
            }
        }
        self.exp_counter = 0;
        if self.hold_zero {
            return;
        }
        match self.state {
            0 => {
                self.counter = self.counter.wrapping_add(1);
                if self.counter == 0xFF {
                    self.state = 1;
                }
            }
            1 => {
                if self.counter != (self.sr >> 4) * 0x11 {
                    self.counter = self.counter.wrapping_sub(1);
                }
            }
            _ => self.counter = self.counter.wrapping_sub(1),
        }
        self.exp_period = match self.counter {
            0xFF => 1,
            0x5D => 2,
            0x36 => 4,
            0x1A => 8,
            0x0E => 16,
            0x06 => 30,
            0x00 => {
                self.hold_zero = true;
                1
            }
            _ => self.exp_period,
        };
    }

    fn set_gate(&mut self, gate: bool) {
        if !self.gate && gate {
            self.state = 0;
            self.hold_zero = false;
        } else if self.gate && !gate {
            self.state = 2;
        }
        self.gate = gate;
    }
}

#[test]
fn envelope_matches_per_cycle_reference() {
    let mut rng = Rng::with_seed(0xDEAD_BEEF_CAFE_F00D);
    for round in 0..6 {
        let mut sid = Sid::new();
        let mut reference = RefEnvelope::new();
        let mut now = 0u64;
        for _ in 0..400 {
            let gap = match rng.u64(..10) {
                0 => rng.u64(..400_000),
                1..=3 => rng.u64(..50),
                _ => rng.u64(..5_000),
            };
            for _ in 0..gap {
                reference.clock();
            }
            now += gap;
            match rng.u64(..8) {
                0 => {
                    let gate = rng.u64(..2) == 1;
                    sid.write(0x12, 0x20 | u8::from(gate), now);
                    reference.set_gate(gate);
                }
                1 => {
                    // Fast rates more often so levels actually move.
                    let ad = (rng.u64(..256) as u8) & if round % 2 == 0 { 0x77 } else { 0xFF };
                    sid.write(0x13, ad, now);
                    reference.ad = ad;
                }
                2 => {
                    let sr = (rng.u64(..256) as u8) & if round % 2 == 0 { 0xF7 } else { 0xFF };
                    sid.write(0x14, sr, now);
                    reference.sr = sr;
                }
                _ => {}
            }
            assert_eq!(
                sid.read(0x1C, now),
                reference.counter,
                "ENV3 at cycle {now}, round {round}"
            );
        }
    }
}

#[test]
fn envelope_attack_timing() {
    let mut sid = Sid::new();
    sid.write(0x13, 0x00, 0); // attack 0: a step every 9 cycles
    sid.write(0x14, 0xF0, 0); // sustain at $FF
    sid.write(0x12, 0x01, 0);
    assert_eq!(sid.read(0x1C, 8), 0);
    assert_eq!(sid.read(0x1C, 9), 1);
    assert_eq!(sid.read(0x1C, 9 * 100), 100);
    assert_eq!(sid.read(0x1C, 9 * 255), 255);
    assert_eq!(sid.read(0x1C, 1_000_000), 255, "sustain at $FF");
}
