//! MOS 6581 SID: what a program can observe without listening.
//!
//! Registers: index = `addr & 0x1F` (the 32-byte window repeats over
//! $D400-$D7FF).
//!
//! | reg       | read returns                                            |
//! |-----------|---------------------------------------------------------|
//! | $00-$18   | write-only: the data bus value, see below               |
//! | $19, $1A  | paddles POTX/POTY: $FF (nothing connected)              |
//! | $1B       | OSC3: upper 8 bits of voice 3's waveform output         |
//! | $1C       | ENV3: voice 3's envelope counter                        |
//! | $1D-$1F   | unused: the data bus value                              |
//!
//! **Bus value.** Reading a write-only register returns the last byte written
//! to *any* SID register for [`BUS_VALUE_TTL`] cycles after the write, then 0
//! (the real chip's bits fade one by one; like reSID 0.16 we return the whole
//! byte, then 0).
//!
//! **Oscillators** (all three): the 24-bit phase accumulator advances by the
//! 16-bit frequency every cycle, computed in O(1) from elapsed cycles. The
//! test bit (control bit 3) clears the accumulator and holds it at 0.
//! Hard sync (control bit 1) is **not** modelled; ring modulation (bit 2) of
//! voice 3's triangle by voice 2's MSB is.
//!
//! **Noise** (voice 3, control bit 7): the 23-bit LFSR (taps 22 and 17,
//! seed `0x7FFFF8`) is clocked once per rising edge of accumulator bit 19;
//! OSC3 is LFSR bits 22,20,16,13,11,7,4,2. Edges are counted arithmetically
//! and the LFSR is advanced in O(log n) by polynomial jump-ahead, only when
//! OSC3 is read. Test bit, as in reSID 0.16: setting it clears the LFSR (the
//! real chip's bits fade to 0 over ~$2000-$4000 cycles), clearing it reloads
//! the seed `0x7FFFF8`.
//!
//! **Waveforms** for OSC3: triangle, sawtooth, pulse and noise alone are
//! exact (reSID 0.16 formulas). Combined waveforms without noise are
//! approximated by AND-ing the outputs (the real chip gives similar but not
//! identical values); combinations with noise read 0, no waveform reads 0.
//!
//! **Envelope** (voice 3 only, ENV3): reSID 0.16's envelope generator — rate
//! counter periods, exponential decay/release steps, sustain, the ADSR delay
//! bug (15-bit rate counter wrap) and the zero/0xFF freeze quirks — advanced
//! in O(level changes) rather than per cycle.
//!
//! Not modelled: audio output, filter, voices 1-2 envelopes, hard sync,
//! 8580 differences, paddle (POT) sampling.

/// Seed of the noise LFSR after reset or after the test bit is released.
pub const NOISE_SEED: u32 = 0x7F_FFF8;
/// Cycles a written byte stays readable from write-only registers (reSID 0.16).
pub const BUS_VALUE_TTL: u64 = 0x2000;

const NOISE_MASK: u32 = 0x7F_FFFF;
/// Period of the (maximal-length) 23-bit noise LFSR.
const NOISE_PERIOD: u64 = (1 << 23) - 1;
/// Characteristic polynomial of the LFSR step map: x^23 + x^5 + 1.
/// (Each state bit obeys n(t) = n(t-23) ^ n(t-18), so M^23 = M^5 + I.)
const NOISE_POLY: u64 = (1 << 23) | (1 << 5) | 1;
const ACC_MASK: u32 = 0xFF_FFFF;
/// Clocks beyond which polynomial jump-ahead beats stepping.
const NOISE_STEP_LIMIT: u64 = 64;

/// Envelope rate counter periods in cycles, indexed by the 4-bit A/D/R value.
const RATE_PERIODS: [u32; 16] = [
    9, 32, 63, 95, 149, 220, 267, 313, 392, 977, 1954, 3126, 3907, 11720, 19532, 31251,
];

/// Clocks the noise LFSR once: bit 22 XOR bit 17 shifts in at bit 0.
pub fn noise_clock(lfsr: u32) -> u32 {
    let bit0 = ((lfsr >> 22) ^ (lfsr >> 17)) & 1;
    ((lfsr << 1) | bit0) & NOISE_MASK
}

/// Clocks the noise LFSR `n` times in O(log n).
pub fn noise_clock_n(lfsr: u32, n: u64) -> u32 {
    let mut state = lfsr & NOISE_MASK;
    if n <= NOISE_STEP_LIMIT {
        for _ in 0..n {
            state = noise_clock(state);
        }
        return state;
    }
    // M^n = r(M) with r = x^n mod p(x); apply r to the state.
    let r = poly_x_pow_mod(n % NOISE_PERIOD);
    let mut result = 0;
    for i in 0..23 {
        if (r >> i) & 1 != 0 {
            result ^= state;
        }
        state = noise_clock(state);
    }
    result
}

/// The 8 bits of OSC3 for a given LFSR state: bits 22,20,16,13,11,7,4,2.
pub fn noise_output(lfsr: u32) -> u8 {
    const TAPS: [u32; 8] = [22, 20, 16, 13, 11, 7, 4, 2];
    TAPS.iter()
        .fold(0u8, |out, &bit| (out << 1) | ((lfsr >> bit) & 1) as u8)
}

/// Carry-less product of two polynomials below degree 23, reduced mod NOISE_POLY.
fn poly_mul_mod(a: u64, b: u64) -> u64 {
    let mut product = 0u64;
    for i in 0..23 {
        if (b >> i) & 1 != 0 {
            product ^= a << i;
        }
    }
    for bit in (23..46).rev() {
        if (product >> bit) & 1 != 0 {
            product ^= NOISE_POLY << (bit - 23);
        }
    }
    product
}

/// x^n mod NOISE_POLY by square-and-multiply.
fn poly_x_pow_mod(mut n: u64) -> u64 {
    let mut result = 1u64;
    let mut base = 2u64; // the polynomial x
    while n > 0 {
        if n & 1 != 0 {
            result = poly_mul_mod(result, base);
        }
        base = poly_mul_mod(base, base);
        n >>= 1;
    }
    result
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Oscillator {
    acc: u32,
    lfsr: u32,
    /// LFSR clocks owed, applied when OSC3 is read (mod the LFSR period).
    pending: u64,
}

impl Default for Oscillator {
    fn default() -> Self {
        Oscillator {
            acc: 0,
            lfsr: NOISE_SEED,
            pending: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EnvState {
    Attack,
    DecaySustain,
    Release,
}

/// reSID 0.16 envelope generator state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Envelope {
    counter: u8,
    state: EnvState,
    /// 15-bit rate counter; values 1..=0x7FFF, and 0 right after a match.
    rate_counter: u32,
    exp_counter: u32,
    exp_period: u32,
    hold_zero: bool,
    gate: bool,
}

impl Default for Envelope {
    fn default() -> Self {
        Envelope {
            counter: 0,
            state: EnvState::Release,
            rate_counter: 0,
            exp_counter: 0,
            exp_period: 1,
            hold_zero: true,
            gate: false,
        }
    }
}

impl Envelope {
    fn rate_period(&self, ad: u8, sr: u8) -> u64 {
        let index = match self.state {
            EnvState::Attack => ad >> 4,
            EnvState::DecaySustain => ad & 0x0F,
            EnvState::Release => sr & 0x0F,
        };
        u64::from(RATE_PERIODS[usize::from(index)])
    }

    /// Cycles until the rate counter next equals `period`. When the period was
    /// lowered below the counter, it runs on to 0x7FFF and wraps (ADSR bug).
    fn cycles_to_match(&self, period: u64) -> u64 {
        let rc = u64::from(self.rate_counter);
        if rc < period {
            period - rc
        } else {
            0x7FFF - rc + period
        }
    }

    fn set_gate(&mut self, gate: bool) {
        if !self.gate && gate {
            self.state = EnvState::Attack;
            self.hold_zero = false;
        } else if self.gate && !gate {
            self.state = EnvState::Release;
        }
        self.gate = gate;
    }

    /// One rate counter match, exactly as reSID's per-cycle clock does it.
    fn rate_match(&mut self, sustain_level: u8) {
        if self.state != EnvState::Attack {
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
            EnvState::Attack => {
                self.counter = self.counter.wrapping_add(1);
                if self.counter == 0xFF {
                    self.state = EnvState::DecaySustain;
                }
            }
            EnvState::DecaySustain => {
                if self.counter != sustain_level {
                    self.counter = self.counter.wrapping_sub(1);
                }
            }
            EnvState::Release => self.counter = self.counter.wrapping_sub(1),
        }
        match self.counter {
            0xFF => self.exp_period = 1,
            0x5D => self.exp_period = 2,
            0x36 => self.exp_period = 4,
            0x1A => self.exp_period = 8,
            0x0E => self.exp_period = 16,
            0x06 => self.exp_period = 30,
            0x00 => {
                self.exp_period = 1;
                self.hold_zero = true;
            }
            _ => {}
        }
    }

    /// Advances `n` cycles, jumping straight from one level change to the next.
    fn advance(&mut self, mut n: u64, ad: u8, sr: u8) {
        let sustain_level = (sr >> 4) * 0x11;
        while n > 0 {
            let period = self.rate_period(ad, sr);
            let first = self.cycles_to_match(period);
            if n < first {
                let t = u64::from(self.rate_counter) + n;
                // Past 0x7FFF the counter wraps to 1 (it skips 0).
                self.rate_counter = if t <= 0x7FFF { t } else { t - 0x7FFF } as u32;
                return;
            }
            let idle = self.hold_zero
                || (self.state == EnvState::DecaySustain && self.counter == sustain_level);
            // Matches until the next one that changes the level (attack resets
            // the exponential counter on every match).
            let to_change = match self.state {
                EnvState::Attack => 1,
                _ => u64::from(self.exp_period.saturating_sub(self.exp_counter).max(1)),
            };
            let needed = first + (to_change - 1) * period;
            if idle || n < needed {
                // Only the counters move: fold all matches in at once.
                let matches = 1 + (n - first) / period;
                self.rate_counter = ((n - first) % period) as u32;
                self.exp_counter = if self.state == EnvState::Attack {
                    0
                } else {
                    ((u64::from(self.exp_counter) + matches) % u64::from(self.exp_period)) as u32
                };
                return;
            }
            n -= needed;
            self.rate_counter = 0;
            self.exp_counter += (to_change - 1) as u32;
            self.rate_match(sustain_level);
        }
    }
}

/// The 6581 SID. See the module documentation for what is modelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sid {
    /// $00-$18 as last written.
    regs: [u8; 0x19],
    osc: [Oscillator; 3],
    env3: Envelope,
    bus_value: u8,
    bus_written_at: Option<u64>,
    /// Cycle the oscillators and envelope are up to date with.
    cycle: u64,
}

impl Default for Sid {
    fn default() -> Self {
        Self::new()
    }
}

impl Sid {
    /// Power-on state (all registers 0, LFSR at its seed, envelope released).
    pub fn new() -> Self {
        Sid {
            regs: [0; 0x19],
            osc: [Oscillator::default(); 3],
            env3: Envelope::default(),
            bus_value: 0,
            bus_written_at: None,
            cycle: 0,
        }
    }

    /// Back to the power-on state; the time base (last update cycle) is kept.
    pub fn reset(&mut self) {
        let cycle = self.cycle;
        *self = Sid::new();
        self.cycle = cycle;
    }

    /// The write-only registers $00-$18 as last written (for audio backends).
    pub fn registers(&self) -> &[u8; 0x19] {
        &self.regs
    }

    /// Reads register `reg & 0x1F` at cycle `now`.
    pub fn read(&mut self, reg: u8, now: u64) -> u8 {
        self.catch_up(now);
        let now = now.max(self.cycle);
        match reg & 0x1F {
            0x19 | 0x1A => 0xFF,
            0x1B => self.osc3(),
            0x1C => self.env3.counter,
            _ => match self.bus_written_at {
                Some(at) if now.saturating_sub(at) < BUS_VALUE_TTL => self.bus_value,
                _ => 0,
            },
        }
    }

    /// Writes register `reg & 0x1F` at cycle `now` ($19-$1F are read-only).
    pub fn write(&mut self, reg: u8, value: u8, now: u64) {
        self.catch_up(now);
        self.bus_value = value;
        self.bus_written_at = Some(now.max(self.cycle));
        let reg = usize::from(reg & 0x1F);
        if reg >= self.regs.len() {
            return;
        }
        if reg < 0x15 && reg % 7 == 4 {
            self.write_control(reg / 7, value);
        }
        self.regs[reg] = value;
    }

    /// What `read` would return at `now`, without changing anything.
    pub fn peek(&self, reg: u8, now: u64) -> u8 {
        self.clone().read(reg, now)
    }

    /// The SID has no interrupt output.
    pub fn irq(&mut self, _now: u64) -> bool {
        false
    }

    /// The SID has no interrupt output: always `u64::MAX`.
    pub fn next_event(&self) -> u64 {
        u64::MAX
    }

    fn write_control(&mut self, voice: usize, value: u8) {
        let old = self.regs[voice * 7 + 4];
        let osc = &mut self.osc[voice];
        if value & 0x08 != 0 {
            osc.acc = 0;
            osc.lfsr = 0;
            osc.pending = 0;
        } else if old & 0x08 != 0 {
            osc.lfsr = NOISE_SEED;
            osc.pending = 0;
        }
        if voice == 2 {
            self.env3.set_gate(value & 0x01 != 0);
        }
    }

    fn catch_up(&mut self, now: u64) {
        if now <= self.cycle {
            return;
        }
        let cycles = now - self.cycle;
        for voice in 0..3 {
            let base = voice * 7;
            if self.regs[base + 4] & 0x08 != 0 {
                continue; // test bit holds the accumulator at 0
            }
            let freq = u128::from(u16::from_le_bytes([self.regs[base], self.regs[base + 1]]));
            let osc = &mut self.osc[voice];
            let start = u128::from(osc.acc);
            let end = start + freq * u128::from(cycles);
            if voice == 2 {
                // Rising edges of bit 19 = crossings of 2^19 + k*2^20 (a step
                // is < 2^19, so no edge is ever skipped).
                let half = 1u128 << 19;
                let edges = ((end + half) >> 20) - ((start + half) >> 20);
                let edges = (edges % u128::from(NOISE_PERIOD)) as u64;
                osc.pending = (osc.pending + edges) % NOISE_PERIOD;
            }
            osc.acc = (end & u128::from(ACC_MASK)) as u32;
        }
        let (ad, sr) = (self.regs[0x13], self.regs[0x14]);
        self.env3.advance(cycles, ad, sr);
        self.cycle = now;
    }

    fn osc3(&mut self) -> u8 {
        let osc = &mut self.osc[2];
        if osc.pending != 0 {
            osc.lfsr = noise_clock_n(osc.lfsr, osc.pending);
            osc.pending = 0;
        }
        (self.waveform_output(2) >> 4) as u8
    }

    /// 12-bit waveform generator output of `voice` (reSID 0.16 formulas).
    fn waveform_output(&self, voice: usize) -> u16 {
        let control = self.regs[voice * 7 + 4];
        let acc = self.osc[voice].acc;
        let triangle = || {
            let ring_source = (voice + 2) % 3;
            let msb_source = if control & 0x04 != 0 {
                acc ^ self.osc[ring_source].acc
            } else {
                acc
            };
            let folded = if msb_source & 0x80_0000 != 0 {
                !acc
            } else {
                acc
            };
            ((folded >> 11) & 0xFFF) as u16
        };
        let sawtooth = || (acc >> 12) as u16;
        let pulse = || {
            let pw =
                u16::from_le_bytes([self.regs[voice * 7 + 2], self.regs[voice * 7 + 3] & 0x0F]);
            if control & 0x08 != 0 || (acc >> 12) as u16 >= pw {
                0xFFF
            } else {
                0
            }
        };
        match control >> 4 {
            0 => 0,
            1 => triangle(),
            2 => sawtooth(),
            4 => pulse(),
            8 => u16::from(noise_output(self.osc[voice].lfsr)) << 4,
            w if w & 0x08 != 0 => 0,
            w => {
                let mut out = 0xFFF;
                if w & 1 != 0 {
                    out &= triangle();
                }
                if w & 2 != 0 {
                    out &= sawtooth();
                }
                if w & 4 != 0 {
                    out &= pulse();
                }
                out
            }
        }
    }
}
