//! The VIC-II's claims on the bus (6569, PAL): bad lines and sprite DMA pull BA low, and the
//! CPU's reads wait while it is low. Writes go on: the VIC takes the bus only 3 cycles after
//! BA falls, and the 6510 never makes more than 3 writes in a row.
//!
//! Cycles here are the machine's line cycles 0-62; the usual descriptions of the chip (and
//! VICE) count 1-63, so "cycle 55" there is 54 here.
//!
//! - **Bad lines:** a line $30-$F7 whose low 3 bits equal YSCROLL, in a frame where DEN was
//!   set during some cycle of line $30. BA is low in cycles 11-53 while that holds (the
//!   condition is looked at every cycle, so a $D011 write can start or end it mid-line).
//! - **Sprites:** sprite n's pointer and data fetches need BA low for 5 cycles from cycle
//!   54 + 2n (sprites 5-7 and the ends of 3 and 4 fall into the next line's first cycles).
//!   Its DMA turns on in cycle 54 or 55 when it is enabled, its Y equals the raster line's
//!   low 8 bits and it is off; MCBASE then restarts at 0. The line's 3 fetches leave MC at
//!   MCBASE + 3; in cycle 15 MCBASE takes MC where the Y-expansion flip-flop is set, and at
//!   63 the DMA turns off. The flip-flop is set when the DMA turns on, toggles in cycle 55
//!   where the sprite is Y-expanded, and is set by a $D017 write that clears the sprite's
//!   bit while it is clear; such a write in cycle 14 also mixes MC with MCBASE (sprite
//!   crunching), as the raster engine does (`raster.rs`).

use super::model::{VicModel, SPRITE_EXPAND_CYCLE};
use crate::PAL_CYCLES_PER_LINE;

/// BA is low for a bad line's character fetches in these line cycles.
pub(super) const BAD_LINE_BA: std::ops::RangeInclusive<u64> = 11..=53;
/// The first line cycle of sprite 0's BA window; sprite n's starts 2n cycles later.
pub(super) const SPRITE_BA_START: u64 = 54;
/// BA is low this many cycles for a sprite's fetches (3 cycles' warning, then 2 fetching).
pub(super) const SPRITE_BA_CYCLES: u64 = 5;
/// BA is low in line cycle `r` for sprite n's fetches when bit n is set.
const fn sprite_ba_mask(r: u64) -> u8 {
    let mut mask = 0u8;
    let mut n = 0;
    while n < 8 {
        let start = (SPRITE_BA_START + 2 * n as u64) % PAL_CYCLES_PER_LINE;
        if (r + PAL_CYCLES_PER_LINE - start) % PAL_CYCLES_PER_LINE < SPRITE_BA_CYCLES {
            mask |= 1 << n;
        }
        n += 1;
    }
    mask
}

/// Which sprites' fetches hold BA low in each line cycle.
pub(super) const SPRITE_BA: [u8; 63] = {
    let mut t = [0u8; 63];
    let mut r = 0;
    while r < 63 {
        t[r] = sprite_ba_mask(r as u64);
        r += 1;
    }
    t
};

/// Which sprites' fetches hold BA low in each line cycle of `model`, from its table
/// (`model.rs`): BA falls 3 cycles before sprite n's pointer fetch and rises after its data.
/// The raster engine fetches in the same cycles (`VicModel::phi1_access`). A table longer
/// than the model's line is 0 past it.
pub(super) const fn sprite_ba_table<const L: usize>(model: VicModel) -> [u8; L] {
    let first = model.facts().sprite0_pointer_cycle;
    let len = model.cycles_per_line();
    let mut t = [0u8; L];
    let mut r = 0;
    while r < L && (r as u64) < len {
        let mut n = 0;
        while n < 8 {
            let start = (first + 2 * n + len - 3) % len;
            if (r as u64 + len - start) % len < SPRITE_BA_CYCLES {
                t[r] |= 1 << n;
            }
            n += 1;
        }
        r += 1;
    }
    t
}
/// The 6569's table from its facts is the one the engine has always used.
const _: () = {
    let from_facts = sprite_ba_table::<63>(VicModel::Mos6569);
    let mut r = 0;
    while r < 63 {
        assert!(from_facts[r] == SPRITE_BA[r]);
        r += 1;
    }
};
const SPRITE_BA_6567R8: [u8; 65] = sprite_ba_table::<65>(VicModel::Mos6567R8);
const SPRITE_BA_6567R56A: [u8; 64] = sprite_ba_table::<64>(VicModel::Mos6567R56A);

/// Which sprites' fetches hold BA low in line cycle `r` of `model`.
#[inline(always)]
pub(super) fn sprite_ba(model: VicModel, r: u64) -> u8 {
    match model {
        VicModel::Mos6569 | VicModel::Mos8565 => SPRITE_BA[r as usize],
        VicModel::Mos6567R8 | VicModel::Mos8562 => SPRITE_BA_6567R8[r as usize],
        VicModel::Mos6567R56A => SPRITE_BA_6567R56A[r as usize],
    }
}

/// No sprite's fetches hold BA from MCBASE's update to the first DMA check.
const _: () = {
    let mut r = UPDATE_MCBASE as usize;
    while r < DMA_CHECK_1 as usize {
        assert!(SPRITE_BA[r] == 0);
        r += 1;
    }
};

/// The line cycles at which the sprite DMA logic acts.
pub(super) const SPRITE_CRUNCH: u64 = 14;
pub(super) const UPDATE_MCBASE: u64 = 15;
pub(super) const DMA_CHECK_1: u64 = 54;
pub(super) const DMA_CHECK_2: u64 = 55;
/// The line whose DEN decides whether the frame has bad lines; the first that can be one.
pub(super) const DEN_LINE: u64 = 0x30;
/// The last line that can be a bad line.
pub(super) const LAST_BAD_LINE: u64 = 0xF7;
/// The 6569's DMA checks are the model table's.
const _: () = {
    let [a, b] = VicModel::Mos6569.facts().sprite_dma_checks;
    assert!(a == DMA_CHECK_1 && b == DMA_CHECK_2);
};

/// The line cycles at which `model`'s DMA logic acts, in order (the NTSC chips check the
/// sprites' Y a cycle later than the 6569).
#[inline(always)]
const fn dma_events(model: VicModel) -> [u64; 3] {
    let [a, b] = model.facts().sprite_dma_checks;
    [UPDATE_MCBASE, a, b]
}

/// MCBASE's value after a sprite's last line.
const MCBASE_END: u8 = 63;

/// The registers the DMA logic reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct DmaRegisters {
    pub d011: u8,
    pub enabled: u8,
    pub y_expand: u8,
    pub sprite_y: [u8; 8],
}

/// The sprite DMA state, advanced lazily through the events of each line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SpriteDma {
    /// Bit n: sprite n's DMA is on.
    on: u8,
    /// Bit n: sprite n's Y-expansion flip-flop is set (MCBASE advances).
    expand_ff: u8,
    mcbase: [u8; 8],
    /// Bit n: a $D017 write in cycle 14 crunched sprite n's MC to `crunched_mc[n]` (MC is
    /// MCBASE + 3 otherwise when MCBASE takes it).
    crunched: u8,
    crunched_mc: [u8; 8],
    /// Events at cycles below this have been applied.
    done_until: u64,
    /// The chip's model (its line length and lines).
    pub model: VicModel,
}

impl SpriteDma {
    /// No sprite on, nothing to do before `t`.
    pub fn starting_at(t: u64, model: VicModel) -> Self {
        SpriteDma {
            done_until: t,
            model,
            ..SpriteDma::default()
        }
    }

    /// Applies every event at a cycle up to and including `to`.
    pub fn advance(&mut self, regs: &DmaRegisters, to: u64) {
        if to < self.done_until {
            return;
        }
        // Nothing can start or change while no sprite is on or enabled.
        if self.on == 0 && regs.enabled == 0 {
            self.done_until = to + 1;
            return;
        }
        // Most calls come a cycle or two apart: nothing to do before the next event.
        let model = self.model;
        let line_cycles = model.cycles_per_line();
        let c = model.line_cycle(self.done_until);
        let events = dma_events(model);
        let next = events
            .into_iter()
            .find(|&e| e >= c)
            .unwrap_or(line_cycles + events[0]);
        if to < self.done_until - c + next {
            self.done_until = to + 1;
            return;
        }
        let mut t = self.done_until;
        while t <= to {
            if self.waiting() {
                // Only a DMA check whose line matches a sprite's Y can change anything.
                let next = next_dma_start_line(model, regs, t).saturating_mul(line_cycles);
                if next > to {
                    break;
                }
                t = t.max(next);
            }
            let line_start = t - model.line_cycle(t);
            let mut event = None;
            for c in events {
                let at = line_start + c;
                if at >= t && at <= to {
                    event = Some(at);
                    break;
                }
            }
            match event {
                Some(at) => {
                    self.event(regs, at);
                    t = at + 1;
                }
                None => t = line_start + line_cycles,
            }
            if self.on == 0 && regs.enabled == 0 {
                break;
            }
        }
        self.done_until = to + 1;
    }

    /// No sprite's DMA is on and no crunch is pending: the events change nothing until a
    /// DMA check turns a sprite on.
    fn waiting(&self) -> bool {
        self.on == 0 && self.crunched == 0
    }

    /// The MC sprite n's fetches have left by cycle 15 (MCBASE + 3 while its DMA is on).
    fn mc(&self, n: usize) -> u8 {
        let bit = 1 << n;
        if self.crunched & bit != 0 {
            self.crunched_mc[n]
        } else if self.on & bit != 0 {
            (self.mcbase[n] + 3) & 0x3F
        } else {
            self.mcbase[n]
        }
    }

    fn event(&mut self, regs: &DmaRegisters, at: u64) {
        match self.model.line_cycle(at) {
            UPDATE_MCBASE => {
                for n in 0..8 {
                    let bit = 1 << n;
                    if self.expand_ff & bit != 0 {
                        self.mcbase[n] = self.mc(n);
                        if self.mcbase[n] == MCBASE_END {
                            self.on &= !bit;
                        }
                    }
                }
                self.crunched = 0;
            }
            c => {
                let line = self.model.raster_line(at) as u8;
                for n in 0..8 {
                    let bit = 1 << n;
                    if regs.enabled & bit != 0 && regs.sprite_y[n] == line && self.on & bit == 0 {
                        self.on |= bit;
                        self.mcbase[n] = 0;
                        self.expand_ff |= bit;
                    }
                }
                if c == SPRITE_EXPAND_CYCLE {
                    self.expand_ff ^= self.on & regs.y_expand;
                }
            }
        }
    }

    /// $D017 changed from `old` to `value` in cycle `now` (events up to `now` applied): a
    /// cleared bit sets a clear flip-flop, and in cycle 14 crunches MC.
    pub fn y_expand_written(&mut self, old: u8, value: u8, now: u64) {
        if old == value {
            return;
        }
        for n in 0..8 {
            let bit = 1 << n;
            if value & bit == 0 && self.expand_ff & bit == 0 {
                if self.model.line_cycle(now) == SPRITE_CRUNCH {
                    let (mc, mcbase) = (self.mc(n), self.mcbase[n]);
                    self.crunched_mc[n] = (0x2A & (mcbase & mc)) | (0x15 & (mcbase | mc));
                    self.crunched |= bit;
                }
                self.expand_ff |= bit;
            }
        }
    }

    /// Whether a sprite's fetches hold BA low in cycle `t` (events up to `t` applied).
    #[cfg(test)]
    fn holds_ba(&self, t: u64) -> bool {
        self.on & sprite_ba(self.model, self.model.line_cycle(t)) != 0
    }
}

/// The first line (counted from power-on) whose DMA checks come at or after cycle `t` and
/// find an enabled sprite's Y there (`u64::MAX`: no sprite enabled). A line matches a Y
/// when its low 8 bits equal it, so lines 0-55 also match at 256-311.
fn next_dma_start_line(model: VicModel, regs: &DmaRegisters, t: u64) -> u64 {
    let line = model.line_count(t);
    let first = if model.line_cycle(t) > model.facts().sprite_dma_checks[1] {
        line + 1
    } else {
        line
    };
    let lines = model.lines();
    let frame_start = model.frame_first_line(first);
    let mut best = u64::MAX;
    for n in (0..8).filter(|n| regs.enabled & (1 << n) != 0) {
        let y = u64::from(regs.sprite_y[n]);
        for frame in [frame_start, frame_start + lines] {
            for l in [y, y + 256].into_iter().filter(|&l| l < lines) {
                if frame + l >= first {
                    best = best.min(frame + l);
                }
            }
        }
    }
    best
}

/// Whether DEN was set during line $30 of the frame of cycle `t`, given the $D011 written at
/// `d011_since` (unchanged since) and the frame an earlier value latched (`latched_frame`).
pub(super) fn den_latched(
    model: VicModel,
    regs: &DmaRegisters,
    d011_since: u64,
    latched_frame: u64,
    t: u64,
) -> bool {
    let frame = model.frame_of(t);
    if latched_frame == frame + 1 {
        return true;
    }
    let line = model.cycles_per_line();
    let line_30 = frame * model.cycles_per_frame() + DEN_LINE * line;
    regs.d011 & 0x10 != 0 && t >= line_30 && d011_since < line_30 + line
}

/// The frame (plus one; 0 = none) whose line $30 saw DEN set while the $D011 written at
/// `d011_since` held, up to cycle `now`: what to remember before $D011 changes.
pub(super) fn den_latch_before_write(
    model: VicModel,
    regs: &DmaRegisters,
    d011_since: u64,
    now: u64,
) -> Option<u64> {
    den_latched(model, regs, d011_since, 0, now).then_some(model.frame_of(now) + 1)
}

/// Whether cycle `t` is in a bad line's BA window.
fn bad_line_ba(model: VicModel, regs: &DmaRegisters, den: bool, t: u64) -> bool {
    let line = model.raster_line(t);
    is_bad_line(regs.d011, den, line) && BAD_LINE_BA.contains(&model.line_cycle(t))
}

/// The bad line condition for raster `line` under $D011 `d011`, `den` saying whether DEN
/// counts for the frame.
pub(super) fn is_bad_line(d011: u8, den: bool, line: u64) -> bool {
    den && (DEN_LINE..=LAST_BAD_LINE).contains(&line) && line & 7 == u64::from(d011 & 7)
}

/// The whole bus state the VIC keeps for BA.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct BusClaims {
    pub regs: DmaRegisters,
    pub sprites: SpriteDma,
    /// When $D011 was last written.
    pub d011_since: u64,
    /// The frame + 1 whose line $30 saw DEN under an earlier $D011 (0: none).
    pub den_frame: u64,
}

/// How far ahead [`BusClaims::next_ba_low`] looks before saying "not soon", in frames (two:
/// every enabled sprite's Y comes round once a frame).
const LOOKAHEAD_FRAMES: u64 = 2;

impl BusClaims {
    /// Brings the sprite logic up to cycle `now` under the registers before a write in it.
    pub fn before_write(&mut self, now: u64) {
        self.sprites.advance(&self.regs, now);
    }

    /// $D011 written in cycle `now`: remember whether the old value already gave this
    /// frame its bad lines.
    pub fn set_d011(&mut self, value: u8, now: u64) {
        if let Some(frame) = den_latch_before_write(self.model(), &self.regs, self.d011_since, now)
        {
            self.den_frame = frame;
        }
        self.regs.d011 = value;
        self.d011_since = now;
    }

    /// Whether BA is low in cycle `t` (advancing the sprite logic to `t`): cycle by cycle,
    /// the reference the scans are tested against.
    #[cfg(test)]
    pub fn ba_low(&mut self, t: u64) -> bool {
        self.sprites.advance(&self.regs, t);
        self.sprites.holds_ba(t) || {
            let den = den_latched(self.model(), &self.regs, self.d011_since, self.den_frame, t);
            bad_line_ba(self.model(), &self.regs, den, t)
        }
    }

    /// The chip's model (the sprite logic keeps it).
    #[inline(always)]
    pub fn model(&self) -> VicModel {
        self.sprites.model
    }

    /// No sprite fetches now or to come while the registers stay: only bad lines claim
    /// the bus, and both questions have closed answers (the common case, kept cheap: it is
    /// asked at every bad line).
    fn sprites_idle(&self) -> bool {
        self.sprites.on == 0 && self.regs.enabled == 0
    }

    /// The first cycle from `t` on in which BA is high: where a read the CPU starts in
    /// cycle `t` completes.
    pub fn bus_free_from(&mut self, mut t: u64) -> u64 {
        if self.sprites_idle() {
            self.sprites.advance(&self.regs, t);
            let model = self.model();
            let den = den_latched(model, &self.regs, self.d011_since, self.den_frame, t);
            return if bad_line_ba(model, &self.regs, den, t) {
                t - model.line_cycle(t) + BAD_LINE_BA.end() + 1
            } else {
                t
            };
        }
        loop {
            let model = self.model();
            let line_start = t - model.line_cycle(t);
            if let Some(free) = self.first_in_line(t, line_start, false) {
                return free;
            }
            t = line_start + model.cycles_per_line();
        }
    }

    /// The first cycle from `from` to the end of the line starting at `line_start` in which
    /// BA is low (`low`) or high (not `low`), advancing the sprite logic as it goes. Between
    /// the DMA logic's events the sprites holding BA stay the same, and whether the line is
    /// a bad line does not change in it (the registers stay), so each stretch between
    /// events is read from the tables.
    fn first_in_line(&mut self, from: u64, line_start: u64, low: bool) -> Option<u64> {
        let model = self.model();
        let den = den_latched(model, &self.regs, self.d011_since, self.den_frame, from);
        let line = model.raster_line(line_start);
        let bad = is_bad_line(self.regs.d011, den, line);
        let line_cycles = model.cycles_per_line();
        let mut r = from - line_start;
        while r < line_cycles {
            let end = dma_events(model)
                .into_iter()
                .find(|&e| e > r)
                .unwrap_or(line_cycles);
            if r == UPDATE_MCBASE && !bad {
                // No sprite holds BA from MCBASE's update to the first DMA check
                // (checked at compile time): BA is high there, and the sprite logic can
                // wait for the next call.
                if !low {
                    return Some(line_start + r);
                }
                r = end;
                continue;
            }
            self.sprites.advance(&self.regs, line_start + r);
            let on = self.sprites.on;
            for c in r..end {
                let ba = (bad && BAD_LINE_BA.contains(&c)) || on & sprite_ba(model, c) != 0;
                if ba == low {
                    return Some(line_start + c);
                }
            }
            r = end;
        }
        None
    }

    /// The first cycle from `from` on in which BA is low, if the registers stay as they
    /// are (`u64::MAX`: not within two frames).
    pub fn next_ba_low(&self, from: u64) -> u64 {
        if self.sprites_idle() {
            return self.next_bad_line_ba(from);
        }
        let mut ahead = *self;
        let model = self.model();
        let line_cycles = model.cycles_per_line();
        let first_line = model.line_count(from);
        let mut line = first_line;
        while line < first_line + LOOKAHEAD_FRAMES * model.lines() {
            let line_start = line * line_cycles;
            let start = from.max(line_start);
            ahead.sprites.advance(&ahead.regs, start);
            if ahead.sprites.waiting() {
                // Nothing claims the bus before the next bad line or sprite DMA start.
                let sprite = next_dma_start_line(model, &ahead.regs, start);
                let bad = model.line_count(ahead.next_bad_line_ba(start));
                let next = sprite.min(bad);
                if next > line {
                    line = next;
                    continue;
                }
            }
            line += 1;
            if ahead.line_is_quiet(line_start) {
                continue;
            }
            if let Some(t) = ahead.first_in_line(start, line_start, true) {
                return t;
            }
        }
        u64::MAX
    }

    /// [`BusClaims::next_ba_low`] when only bad lines can claim the bus.
    pub(super) fn next_bad_line_ba(&self, from: u64) -> u64 {
        let yscroll = u64::from(self.regs.d011 & 7);
        let model = self.model();
        let line_cycles = model.cycles_per_line();
        let first_frame = model.frame_of(from);
        for frame in first_frame..first_frame + 2 {
            let frame_start = frame * model.cycles_per_frame();
            let first_line = if frame == first_frame {
                model.line_count(from - frame_start)
            } else {
                0
            }
            .max(DEN_LINE);
            // The first line from there whose low bits equal YSCROLL.
            let mut line = first_line + ((yscroll + 8 - (first_line & 7)) & 7);
            while line <= LAST_BAD_LINE {
                let line_start = frame_start + line * line_cycles;
                if line_start + BAD_LINE_BA.end() >= from {
                    let t = from.max(line_start + BAD_LINE_BA.start());
                    // DEN's latch is the same for every bad line of a frame.
                    if den_latched(model, &self.regs, self.d011_since, self.den_frame, t) {
                        return t;
                    }
                    break;
                }
                line += 8;
            }
        }
        u64::MAX
    }

    /// Whether the line starting at `line_start` is a bad line (its BA window's first cycle
    /// is low), the registers staying as they are.
    fn bad_line_claims(&self, line_start: u64) -> bool {
        let probe = line_start + BAD_LINE_BA.start();
        let model = self.model();
        let den = den_latched(model, &self.regs, self.d011_since, self.den_frame, probe);
        bad_line_ba(model, &self.regs, den, probe)
    }

    /// Whether no cycle of the line starting at `line_start` can have BA low: no bad line, no
    /// sprite DMA on, none turning on in it.
    fn line_is_quiet(&mut self, line_start: u64) -> bool {
        if self.bad_line_claims(line_start) {
            return false;
        }
        self.sprites.advance(&self.regs, line_start);
        if self.sprites.on != 0 {
            return false;
        }
        let line = self.model().raster_line(line_start) as u8;
        !(0..8).any(|n| self.regs.enabled & (1 << n) != 0 && self.regs.sprite_y[n] == line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PAL_CYCLES_PER_FRAME, PAL_LINES};

    const LINE: u64 = PAL_CYCLES_PER_LINE;

    /// The cycles of `range` in which BA is low, by brute force.
    fn low_cycles(claims: &mut BusClaims, range: std::ops::Range<u64>) -> Vec<u64> {
        range.filter(|&t| claims.ba_low(t)).collect()
    }

    fn screen_on(yscroll: u8) -> BusClaims {
        let mut c = BusClaims::default();
        c.set_d011(0x18 | yscroll, 0);
        c
    }

    #[test]
    fn a_bad_line_holds_ba_in_cycles_11_to_53() {
        let mut c = screen_on(3);
        let line = 0x33 * LINE;
        assert_eq!(
            low_cycles(&mut c, line..line + LINE),
            (line + 11..=line + 53).collect::<Vec<_>>()
        );
        assert!(low_cycles(&mut c, 0x34 * LINE..0x3B * LINE).is_empty());
        assert_eq!(c.bus_free_from(line + 20), line + 54);
        assert_eq!(c.bus_free_from(line + 54), line + 54);
        // Bad lines stop after $F7 and need DEN in line $30.
        assert!(low_cycles(&mut c, 0xF8 * LINE..PAL_LINES * LINE).is_empty());
        let mut off = BusClaims::default();
        off.set_d011(0x03, 0);
        assert_eq!(off.next_ba_low(0), u64::MAX);
    }

    #[test]
    fn den_counts_only_if_set_during_line_30() {
        let mut c = BusClaims::default();
        c.set_d011(0x03, 0);
        // Set in line $31: no bad lines this frame; the next frame has them.
        c.set_d011(0x13, 0x31 * LINE + 5);
        assert!(low_cycles(&mut c, 0x33 * LINE..0x34 * LINE).is_empty());
        assert_eq!(
            c.next_ba_low(0x31 * LINE + 6),
            PAL_CYCLES_PER_FRAME + 0x33 * LINE + 11
        );
        // Set during line $30 and cleared later: this frame keeps its bad lines.
        let mut c = BusClaims::default();
        c.set_d011(0x13, 0x30 * LINE + 62);
        c.set_d011(0x03, 0x31 * LINE);
        assert!(c.ba_low(0x33 * LINE + 11));
        assert!(!c.ba_low(PAL_CYCLES_PER_FRAME + 0x33 * LINE + 11));
    }

    #[test]
    fn the_closed_form_agrees_with_the_cycle_scan() {
        // Every YSCROLL and DEN history, from many starting cycles.
        for d011 in [0x00u8, 0x10, 0x13, 0x17, 0x1B] {
            for since in [0, 0x30 * LINE + 30, 0x40 * LINE] {
                let mut c = BusClaims::default();
                c.set_d011(d011 ^ 0x10, 0);
                c.set_d011(d011, since);
                for from in (since..since + PAL_CYCLES_PER_FRAME * 2).step_by(97) {
                    let scanned = (from..from + 2 * PAL_CYCLES_PER_FRAME)
                        .find(|&t| c.clone().ba_low(t))
                        .unwrap_or(u64::MAX);
                    let closed = c.next_ba_low(from);
                    // The closed form looks two frames ahead from the frame's start.
                    if closed != u64::MAX
                        || scanned < from - from % PAL_CYCLES_PER_FRAME + 2 * PAL_CYCLES_PER_FRAME
                    {
                        assert_eq!(closed, scanned, "d011 {d011:02x} since {since} from {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_look_ahead_with_sprites_agrees_with_the_cycle_scan() {
        // Sprites starting near the frame's ends (Y below 56 matches two lines), expanded
        // or not, with and without bad lines; the look-ahead skips the lines between.
        let setups: [(u8, [u8; 8], u8, u8); 5] = [
            (0x01, [100, 0, 0, 0, 0, 0, 0, 0], 0x00, 0x1B),
            (0x81, [20, 0, 0, 0, 0, 0, 0, 250], 0x80, 0x1B),
            (0x24, [0, 0, 40, 0, 0, 200, 0, 0], 0x04, 0x0B),
            (0xFF, [10, 60, 110, 160, 210, 255, 0, 55], 0x55, 0x13),
            (0x10, [0, 0, 0, 0, 5, 0, 0, 0], 0x00, 0x00),
        ];
        for (enabled, sprite_y, y_expand, d011) in setups {
            let mut c = BusClaims::default();
            c.set_d011(d011, 0);
            c.regs.enabled = enabled;
            c.regs.sprite_y = sprite_y;
            c.regs.y_expand = y_expand;
            let mut run = c;
            for from in (0..PAL_CYCLES_PER_FRAME * 3).step_by(331) {
                // `run` is advanced through the frames as a machine would.
                run.ba_low(from);
                let scanned = (from..from + 2 * PAL_CYCLES_PER_FRAME)
                    .find(|&t| run.clone().ba_low(t))
                    .unwrap_or(u64::MAX);
                assert_eq!(run.next_ba_low(from), scanned, "{enabled:02x} from {from}");
                // Where a read started in each cycle of the next few lines completes.
                for t in from..from + 3 * LINE {
                    let free = (t..).find(|&t| !run.clone().ba_low(t)).unwrap();
                    assert_eq!(run.clone().bus_free_from(t), free, "{enabled:02x} at {t}");
                }
            }
        }
    }

    #[test]
    fn the_next_dma_start_line_is_the_first_whose_checks_match_a_y() {
        let mut regs = DmaRegisters {
            enabled: 0x85,
            ..DmaRegisters::default()
        };
        regs.sprite_y[0] = 20; // lines 20 and 276
        regs.sprite_y[2] = 255;
        regs.sprite_y[7] = 100;
        for t in (0..3 * PAL_CYCLES_PER_FRAME).step_by(29) {
            // By brute force: the lines from t's on, each whose checks are still to come.
            let expected = (t / LINE..)
                .filter(|&l| l * LINE + DMA_CHECK_2 >= t)
                .find(|&l| {
                    (0..8).any(|n| {
                        regs.enabled & (1 << n) != 0
                            && (l % PAL_LINES) & 0xFF == u64::from(regs.sprite_y[n])
                    })
                })
                .unwrap();
            assert_eq!(
                next_dma_start_line(VicModel::Mos6569, &regs, t),
                expected,
                "t {t}"
            );
        }
        regs.enabled = 0;
        assert_eq!(
            next_dma_start_line(VicModel::Mos6569, &regs, 1000),
            u64::MAX
        );
    }

    #[test]
    fn sprite_dma_takes_five_cycles_per_sprite_for_21_lines() {
        let mut c = BusClaims::default();
        c.regs.enabled = 0x81; // sprites 0 and 7
        c.regs.sprite_y[0] = 100;
        c.regs.sprite_y[7] = 100;
        let line = 100 * LINE;
        // Sprite 0: cycles 54-58 of line 100; sprite 7: cycles 5-9 of the next line.
        assert_eq!(
            low_cycles(&mut c.clone(), line..line + LINE),
            (line + 54..=line + 58).collect::<Vec<_>>()
        );
        assert_eq!(c.next_ba_low(0), line + 54);
        let mut run = c;
        assert_eq!(
            low_cycles(&mut run, line..line + 2 * LINE),
            (line + 54..=line + 58)
                .chain(line + LINE + 5..=line + LINE + 9)
                .chain(line + LINE + 54..=line + LINE + 58)
                .collect::<Vec<_>>()
        );
        // 21 lines of fetches: sprite 0 in lines 100-120, sprite 7's in 101-121.
        let mut run = c;
        let lines_with_dma: Vec<u64> = (95..130).filter(|l| run.ba_low(l * LINE + 54)).collect();
        assert_eq!(lines_with_dma, (100..=120).collect::<Vec<_>>());
        // Y-expanded: 42 lines.
        let mut c2 = c;
        c2.regs.y_expand = 0x01;
        c2.regs.enabled = 0x01;
        let lines_with_dma = (95..150).filter(|l| c2.ba_low(l * LINE + 54)).count();
        assert_eq!(lines_with_dma, 42);
    }
}
