//! The envelope generator (ENV3): rate counter, exponential decay counter,
//! envelope counter, and the pipeline delays between them as measured on real
//! chips (the same on the 6581 and the 8580).
//!
//! Per cycle, in this order:
//! 1. a pending state change (gate on: attack after 2 cycles; gate off:
//!    release after 2, or 3 if an envelope step is under way; $FF reached in
//!    attack: decay after 3) advances;
//! 2. a pending envelope step lands (the counter moves by 1);
//! 3. a pending exponential-counter overflow lands: the exponential counter
//!    restarts and, in decay below sustain or in release, a step is queued
//!    for the next cycle;
//!    otherwise, if the rate counter matched last cycle, it restarts at 0 and
//!    the match counts: in attack a step is queued 2 cycles ahead (and the
//!    exponential counter restarts); elsewhere the exponential counter counts
//!    and, on reaching its period, its overflow is queued (2 cycles ahead, 1
//!    for period 1);
//! 4. the 15-bit rate counter counts unless it equals the period (it then
//!    flags a match). A period lowered below the counter is only met after
//!    the counter wraps past $7FFF to 1: the "ADSR delay bug".
//!
//! A step of the rate counter therefore takes `RATE_PERIODS[i] + 1` cycles
//! (9, 32, 63, ... as the data sheet's rate table implies). Between matches
//! only the rate counter moves, so [`Envelope::clock_n`] jumps straight to
//! the next match, and folds whole idle periods (held at 0, or resting at the
//! sustain level) arithmetically.

/// Rate counter compare values, indexed by the 4-bit A/D/R value (a rate
/// step takes one cycle more than the value).
pub const RATE_PERIODS: [u16; 16] = [
    8, 31, 62, 94, 148, 219, 266, 312, 391, 976, 1953, 3125, 3906, 11719, 19531, 31250,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EnvState {
    Attack,
    DecaySustain,
    Release,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Envelope {
    counter: u8,
    /// What ENV3 reads: the counter as sampled at the start of the last
    /// cycle (the counter as it was one cycle ago).
    pub(crate) env3: u8,
    state: EnvState,
    next_state: EnvState,
    /// Cycles until `next_state` (counted down by `state_change`).
    state_pipeline: u8,
    /// Cycles until a queued envelope step lands.
    env_pipeline: u8,
    /// Cycles until a queued exponential-counter overflow lands.
    exp_pipeline: u8,
    /// The rate counter matched last cycle: restart it this cycle.
    reset_rate: bool,
    rate_counter: u16,
    rate_period: u16,
    exp_counter: u8,
    exp_period: u8,
    hold_zero: bool,
    gate: bool,
}

impl Default for Envelope {
    fn default() -> Self {
        Envelope {
            counter: 0,
            env3: 0,
            state: EnvState::Release,
            next_state: EnvState::Release,
            state_pipeline: 0,
            env_pipeline: 0,
            exp_pipeline: 0,
            reset_rate: false,
            rate_counter: 0,
            rate_period: RATE_PERIODS[0],
            exp_counter: 0,
            exp_period: 1,
            hold_zero: true,
            gate: false,
        }
    }
}

impl Envelope {
    /// Attack/decay register written.
    pub(crate) fn write_ad(&mut self, ad: u8) {
        match self.state {
            EnvState::Attack => self.rate_period = RATE_PERIODS[usize::from(ad >> 4)],
            EnvState::DecaySustain => self.rate_period = RATE_PERIODS[usize::from(ad & 0x0F)],
            EnvState::Release => {}
        }
    }

    /// Sustain/release register written.
    pub(crate) fn write_sr(&mut self, sr: u8) {
        if self.state == EnvState::Release {
            self.rate_period = RATE_PERIODS[usize::from(sr & 0x0F)];
        }
    }

    /// Control register written: the gate bit's edges start attack or release.
    pub(crate) fn set_gate(&mut self, gate: bool, ad: u8) {
        if !self.gate && gate {
            // For its first cycle the attack runs at the decay rate, as
            // decay; a rate counter match that is still being processed
            // (or an exponential counter overflow about to land) becomes an
            // attack step.
            self.next_state = EnvState::Attack;
            self.state = EnvState::DecaySustain;
            self.rate_period = RATE_PERIODS[usize::from(ad & 0x0F)];
            self.state_pipeline = 2;
            if self.reset_rate || self.exp_pipeline == 2 {
                self.env_pipeline = if self.exp_period == 1 || self.exp_pipeline == 2 {
                    2
                } else {
                    4
                };
            } else if self.exp_pipeline == 1 {
                self.state_pipeline = 3;
            }
        } else if self.gate && !gate {
            self.next_state = EnvState::Release;
            self.state_pipeline = if self.env_pipeline > 0 { 3 } else { 2 };
        }
        self.gate = gate;
    }

    fn state_change(&mut self, ad: u8, sr: u8) {
        self.state_pipeline -= 1;
        let now = self.state_pipeline;
        match self.next_state {
            EnvState::Attack if now == 1 => {
                self.rate_period = RATE_PERIODS[usize::from(ad & 0x0F)];
            }
            EnvState::Attack if now == 0 => {
                self.state = EnvState::Attack;
                self.rate_period = RATE_PERIODS[usize::from(ad >> 4)];
                self.hold_zero = false;
            }
            EnvState::DecaySustain if now == 0 => {
                self.state = EnvState::DecaySustain;
                self.rate_period = RATE_PERIODS[usize::from(ad & 0x0F)];
            }
            EnvState::Release
                if (self.state == EnvState::Attack && now == 0)
                    || (self.state == EnvState::DecaySustain && now == 1) =>
            {
                self.state = EnvState::Release;
                self.rate_period = RATE_PERIODS[usize::from(sr & 0x0F)];
            }
            _ => {}
        }
    }

    fn set_exp_period(&mut self) {
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

    /// One cycle.
    fn clock(&mut self, ad: u8, sr: u8) {
        self.env3 = self.counter;
        if self.state_pipeline > 0 {
            self.state_change(ad, sr);
        }
        if self.env_pipeline > 0 {
            self.env_pipeline -= 1;
            if self.env_pipeline == 0 && !self.hold_zero {
                if self.state == EnvState::Attack {
                    self.counter = self.counter.wrapping_add(1);
                    if self.counter == 0xFF {
                        self.next_state = EnvState::DecaySustain;
                        self.state_pipeline = 3;
                    }
                } else {
                    self.counter = self.counter.wrapping_sub(1);
                }
                self.set_exp_period();
            }
        }
        let exp_landed = if self.exp_pipeline > 0 {
            self.exp_pipeline -= 1;
            self.exp_pipeline == 0
        } else {
            false
        };
        if exp_landed {
            self.exp_counter = 0;
            let sustain = (sr >> 4) * 0x11;
            if (self.state == EnvState::DecaySustain && self.counter != sustain)
                || self.state == EnvState::Release
            {
                self.env_pipeline = 1;
            }
        } else if self.reset_rate {
            self.rate_counter = 0;
            self.reset_rate = false;
            if self.state == EnvState::Attack {
                self.exp_counter = 0;
                self.env_pipeline = 2;
            } else if !self.hold_zero {
                self.exp_counter = self.exp_counter.wrapping_add(1);
                if self.exp_counter == self.exp_period {
                    self.exp_pipeline = if self.exp_period != 1 { 2 } else { 1 };
                }
            }
        }
        self.count_rate(1);
    }

    /// The rate counter's own step, `n` times, none of them reaching the period.
    fn count_rate(&mut self, n: u64) {
        if n == 1 && self.rate_counter == self.rate_period {
            self.reset_rate = true;
            return;
        }
        // Past $7FFF the counter wraps to 1 (it skips 0).
        let t = u64::from(self.rate_counter) + n;
        self.rate_counter = if t <= 0x7FFF { t } else { t - 0x7FFF } as u16;
    }

    /// Cycles of plain counting before the rate counter equals the period.
    fn cycles_to_match(&self) -> u64 {
        let (rc, period) = (u64::from(self.rate_counter), u64::from(self.rate_period));
        if rc <= period {
            period - rc
        } else {
            0x7FFF - rc + period
        }
    }

    fn quiet(&self) -> bool {
        self.state_pipeline == 0
            && self.env_pipeline == 0
            && self.exp_pipeline == 0
            && !self.reset_rate
    }

    /// Advances `n` cycles: per cycle around rate counter matches, by jumps
    /// in between.
    pub(crate) fn clock_n(&mut self, n: u64, ad: u8, sr: u8) {
        self.clock_spans(n, ad, sr, |_, _| {});
    }

    /// [`Envelope::clock_n`], telling `span` each stretch of cycles and the
    /// counter's value during it (after the stretch's first cycle), in order:
    /// what the envelope DAC converts, for the sound.
    pub(crate) fn clock_spans(
        &mut self,
        mut n: u64,
        ad: u8,
        sr: u8,
        mut span: impl FnMut(u8, u64),
    ) {
        while n > 0 {
            if !self.quiet() {
                self.clock(ad, sr);
                span(self.counter, 1);
                n -= 1;
                continue;
            }
            let to_match = self.cycles_to_match();
            if to_match > 0 {
                let jump = to_match.min(n);
                self.count_rate(jump);
                self.env3 = self.counter;
                span(self.counter, jump);
                n -= jump;
                continue;
            }
            // The counter sits at the period: a match follows. Whole idle
            // periods (period + 1 cycles each) change nothing but the
            // exponential counter: fold all but the last.
            let length = u64::from(self.rate_period) + 1;
            let periods = (n / length).saturating_sub(1);
            let sustain = (sr >> 4) * 0x11;
            if periods > 0 && self.state != EnvState::Attack {
                self.env3 = self.counter;
                if self.hold_zero {
                    span(self.counter, periods * length);
                    n -= periods * length;
                    continue;
                }
                if self.state == EnvState::DecaySustain
                    && self.counter == sustain
                    && self.exp_counter < self.exp_period
                {
                    let e = (u64::from(self.exp_counter) + periods) % u64::from(self.exp_period);
                    self.exp_counter = e as u8;
                    span(self.counter, periods * length);
                    n -= periods * length;
                    continue;
                }
            }
            self.clock(ad, sr);
            span(self.counter, 1);
            n -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The jumps of `clock_n` must land exactly where cycle-by-cycle clocking
    /// does (the laziness must not change what ENV3 shows).
    #[test]
    fn jumps_equal_cycle_by_cycle() {
        let mut seed = 0x1234_5678_u32;
        let mut rand = move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        for round in 0..20 {
            let (mut fast, mut slow) = (Envelope::default(), Envelope::default());
            let (mut ad, mut sr) = (0u8, 0u8);
            for _ in 0..300 {
                let gap = u64::from(match rand(4) {
                    0 => rand(200_000),
                    1 => rand(40),
                    _ => rand(4000),
                });
                fast.clock_n(gap, ad, sr);
                for _ in 0..gap {
                    slow.clock(ad, sr);
                }
                assert_eq!(fast, slow, "round {round}");
                match rand(4) {
                    0 => {
                        let gate = rand(2) == 1;
                        fast.set_gate(gate, ad);
                        slow.set_gate(gate, ad);
                    }
                    1 => {
                        ad = rand(256) as u8 & if round % 2 == 0 { 0x77 } else { 0xFF };
                        fast.write_ad(ad);
                        slow.write_ad(ad);
                    }
                    2 => {
                        sr = rand(256) as u8 & if round % 2 == 0 { 0xF7 } else { 0xFF };
                        fast.write_sr(sr);
                        slow.write_sr(sr);
                    }
                    _ => {}
                }
            }
        }
    }
}
