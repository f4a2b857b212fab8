//! The light pen input (LP, wired to CIA 1's PB4 and joystick 1's fire line): its falling
//! edge latches the beam position into LPX/LPY ($D013/$D014) and raises $D019 bit 3, once a
//! frame. Timing as VICE's x64sc has the 6569R3: the latch happens in the VIC cycle after
//! the edge; LPX is the cycle's X coordinate (its phi1 X, to 8 pixels) / 2 plus 2; an edge
//! in the last line latches nothing (except in its first cycle) but still uses up the
//! frame's trigger (as a real 6569R3 shows: VICE's VICII/split-tests/lightpen dumps). The
//! trigger re-arms in the second cycle of each frame, and if LP is still low then, it
//! latches again at once (LPX $D1 on the PAL chips, $D5 on the NTSC ones; LPY 0).

//!
//! On the NTSC models the frame and line lengths are theirs, and X is their cycle's
//! (`VicModel::phi1_x`).
//!
//! The 6567R56A (`ModelFacts::light_pen_old_irq`) latches the same way but raises $D019
//! bit 3 only in the frame-start retrigger, never for an edge.

use super::model::VicModel;

/// What the 6569R3 adds to X / 2 (its colour latency: 2, where the 8565's is 1).
const X_EXTRA: u16 = 2;
/// The 8565's and 8562's (VICE's vicii-lightpen.c: 1 without the colour latency).
const X_EXTRA_NEW: u16 = 1;

/// What `model` adds to X / 2.
const fn x_extra(model: VicModel) -> u16 {
    if model.is_new() {
        X_EXTRA_NEW
    } else {
        X_EXTRA
    }
}
/// LPX latched by the frame-start retrigger: line cycle 1's X / 2, plus 3, on every chip
/// (the new chips' one less does not apply). Real chips' dumps in VICE's
/// VICII/split-tests/lightpen: $D1 on a 6569R3 and an 8565R2, $D5 on a 6567R8 and an
/// 8562R4. The 6567R56A's X counts as the 6567R8's, so $D5 (no dump of one exists; VICE's
/// x64sc gives $D1 there with a TODO).
const fn retrigger_x(model: VicModel) -> u8 {
    (model.phi1_x(1) / 2 + 3) as u8
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct LightPen {
    /// LP is held low now.
    low: bool,
    /// The latch an edge scheduled (the VIC cycle after it).
    pending: Option<u64>,
    /// The first cycle a new edge may latch again (the frame's trigger is used up before).
    armed_from: u64,
    /// What a latch produced: (LPX, LPY).
    pub latched: (u8, u8),
}

/// A frame's trigger re-arms in its second cycle (when the chip resets its line counter).
fn rearm_cycle_after(model: VicModel, t: u64) -> u64 {
    (model.frame_of(t) + 1) * model.cycles_per_frame() + 1
}

impl LightPen {
    /// LP goes to `low` at cycle `now` (already caught up to `now`).
    pub fn set(&mut self, low: bool, now: u64) {
        if low && !self.low {
            self.pending = Some(now + 1);
        }
        self.low = low;
    }

    /// The next cycle at which something may latch (for the interrupt schedule).
    pub fn next_event(&self, model: VicModel, from: u64) -> u64 {
        let retrigger = if self.low {
            rearm_cycle_after(model, from.saturating_sub(2))
        } else {
            u64::MAX
        };
        // On the first chips an edge's latch raises no flag.
        let edge = match self.pending {
            Some(t) if !model.facts().light_pen_old_irq => t,
            _ => u64::MAX,
        };
        edge.min(retrigger)
    }

    /// Latches what happens in `from..=now`; true if the interrupt flag rises.
    pub fn catch_up(&mut self, model: VicModel, from: u64, now: u64) -> bool {
        let mut raised = false;
        if let Some(t) = self.pending.filter(|&t| t <= now) {
            self.pending = None;
            raised |= self.edge(model, t) && !model.facts().light_pen_old_irq;
        }
        if self.low && now >= 1 {
            // The last frame start in range, if any: LP held low through it retriggers.
            let start = model.frame_of(now - 1) * model.cycles_per_frame() + 1;
            if start >= from.max(1) {
                self.latched = (retrigger_x(model), 0);
                self.armed_from = rearm_cycle_after(model, start);
                raised = true;
            }
        }
        raised
    }

    /// An edge's latch in VIC cycle `t`; true if it latched.
    fn edge(&mut self, model: VicModel, t: u64) -> bool {
        if t < self.armed_from {
            return false;
        }
        self.armed_from = rearm_cycle_after(model, t);
        let cycle = model.line_cycle(t);
        let last = model.lines() - 1;
        let mut line = model.raster_line(t);
        if line == 0 && cycle == 0 {
            // The line counter still reads the last line in line 0's first cycle.
            line = last;
        } else if line == last && cycle > 0 {
            return false;
        }
        let x = model.phi1_x(cycle) & !7;
        self.latched = ((x / 2 + x_extra(model)) as u8, line as u8);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PAL_CYCLES_PER_FRAME, PAL_CYCLES_PER_LINE};
    const PAL: VicModel = VicModel::Mos6569;

    const LINE: u64 = PAL_CYCLES_PER_LINE;

    #[test]
    fn an_edge_latches_the_next_cycle_once_a_frame() {
        let mut lp = LightPen::default();
        // Edge in line 100, cycle 20: latched in cycle 21 (X $194 + 168 = $23C -> $44,
        // to 8 pixels $40).
        let now = 100 * LINE + 20;
        lp.set(true, now);
        assert!(!lp.catch_up(PAL, now, now));
        assert!(lp.catch_up(PAL, now + 1, now + 1));
        assert_eq!(lp.latched, (0x40 / 2 + 2, 100));
        // A second edge in the same frame is ignored.
        lp.set(false, now + 10);
        lp.set(true, now + 20);
        assert!(!lp.catch_up(PAL, now + 2, now + 30));
        assert_eq!(lp.latched, (0x22, 100));
    }

    #[test]
    fn held_low_it_retriggers_at_each_frame_start() {
        let mut lp = LightPen::default();
        lp.set(true, 10);
        assert!(lp.catch_up(PAL, 0, 11));
        assert_eq!(lp.next_event(PAL, 12), PAL_CYCLES_PER_FRAME + 1);
        assert!(!lp.catch_up(PAL, 12, PAL_CYCLES_PER_FRAME));
        assert!(lp.catch_up(PAL, PAL_CYCLES_PER_FRAME, PAL_CYCLES_PER_FRAME + 1));
        assert_eq!(lp.latched, (retrigger_x(PAL), 0));
    }

    #[test]
    fn the_last_line_uses_the_trigger_up_without_latching_but_in_its_first_cycle() {
        let mut lp = LightPen::default();
        let now = 311 * LINE + 5;
        lp.set(true, now);
        assert!(!lp.catch_up(PAL, now, now + 1));
        assert_eq!(lp.latched, (0, 0));
        let mut lp = LightPen::default();
        let now = 311 * LINE - 1;
        lp.set(true, now);
        assert!(lp.catch_up(PAL, now, now + 1));
        assert_eq!(lp.latched, (0xCA, 0x37));
    }

    #[test]
    fn the_6567r56a_latches_an_edge_without_raising_its_flag() {
        const OLD: VicModel = VicModel::Mos6567R56A;
        let line = OLD.cycles_per_line();
        let mut lp = LightPen::default();
        let now = 100 * line + 20;
        lp.set(true, now);
        // No interrupt to schedule for the edge, only the next frame's retrigger.
        assert_eq!(lp.next_event(OLD, now), OLD.cycles_per_frame() + 1);
        assert!(!lp.catch_up(OLD, now, now + 1));
        let x = OLD.phi1_x(21) & !7;
        assert_eq!(lp.latched, ((x / 2 + X_EXTRA) as u8, 100));
        // LP released and pressed again: used up for this frame, as on the later chips.
        lp.set(false, now + 10);
        lp.set(true, now + 20);
        assert!(!lp.catch_up(OLD, now + 2, now + 30));
        assert_eq!(lp.latched.1, 100);
        // Still low as the next frame starts: the retrigger latches and raises the flag.
        let start = OLD.cycles_per_frame() + 1;
        assert!(!lp.catch_up(OLD, now + 31, start - 1));
        assert!(lp.catch_up(OLD, start, start));
        assert_eq!(lp.latched, (retrigger_x(OLD), 0));
    }

    /// What each chip latches when LP is held low through a frame's start, as the real
    /// chips' dumps in VICE's VICII/split-tests/lightpen show ($D1 on the 6569R3 and 8565R2,
    /// $D5 on the 6567R8 and 8562R4), and the 6567R56A by its X counter.
    #[test]
    fn the_retrigger_latches_each_chips_frame_start_x() {
        for (model, x) in [
            (VicModel::Mos6569, 0xD1),
            (VicModel::Mos8565, 0xD1),
            (VicModel::Mos6567R8, 0xD5),
            (VicModel::Mos8562, 0xD5),
            (VicModel::Mos6567R56A, 0xD5),
        ] {
            let mut lp = LightPen::default();
            lp.set(true, 10);
            let start = model.cycles_per_frame() + 1;
            lp.catch_up(model, 0, start - 1);
            assert!(lp.catch_up(model, start, start), "{model:?}");
            assert_eq!(lp.latched, (x, 0), "{model:?}");
        }
    }
}
