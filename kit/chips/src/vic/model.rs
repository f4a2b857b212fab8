//! The VIC-II models c64kit knows, and every fact that differs between them: the one place
//! each is kept. The chip decides the machine's clock (its crystal feeds both), so the
//! clock, the mains frequency the CIAs' TOD counts and what the real KERNAL sets from it
//! are here too.
//!
//! Sources: Christian Bauer, "The MOS 6567/6569 video controller (VIC-II) and its
//! application in the Commodore 64" (sections 3.4 and 3.6: cycles per line, lines per frame,
//! the fetch diagrams); VICE's viciisc (vicii-chip-model.c: each model's cycle table;
//! vicii-timing.h: the lines each model's picture shows); Commodore's KERNAL 901227-03 (the
//! timer A latch it starts for PAL and NTSC, and $02A6).
//!
//! Cycles here are line cycles from 0 (the descriptions' cycles 1-63/64/65 minus one).
//!
//! The raster engine steps the 6569's schedule ([`VicModel::engine_cycle`]): an NTSC line
//! is the 6569's 63 cycles and a cycle or two at its end in which the engine stands still
//! (the graphics, refresh and bad line fetches, and the X of every visible cycle, are the
//! same on all three; the sprite fetches move). BA and the sprite DMA checks follow each
//! chip's own cycles. What the engine does not yet follow is listed at
//! [`VicModel::engine_differences`].

/// A VIC-II model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VicModel {
    /// The PAL 6569 (R3 and later): 63 cycles, 312 lines.
    #[default]
    Mos6569,
    /// The NTSC 6567R8 (from 1984): 65 cycles, 263 lines.
    Mos6567R8,
    /// The first NTSC 6567 (R56A): 64 cycles, 262 lines.
    Mos6567R56A,
}

/// One model's facts (see the module documentation for the sources).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelFacts {
    /// The name `--vic` and c64kit.toml take.
    pub name: &'static str,
    pub cycles_per_line: u64,
    pub lines: u64,
    /// The CPU clock in Hz (the colour carrier's crystal divided down: PAL 17.734475 MHz
    /// / 18, NTSC 14.31818 MHz / 14).
    pub clock_hz: u64,
    /// The mains frequency the CIAs' TOD input counts (50 Hz where PAL is, 60 Hz where NTSC).
    pub mains_hz: u64,
    /// The CIA 1 timer A latch Commodore's KERNAL starts for its 60 Hz IRQ (IOINIT): the
    /// clock / 60, less one.
    pub kernal_irq_latch: u16,
    /// What Commodore's KERNAL stores at $02A6 (CINT's raster test: 1 = PAL, 0 = NTSC).
    pub kernal_pal_flag: u8,
    /// The first and last raster line of the picture as VICE crops it (its "normal"
    /// borders); on NTSC the last is past the frame's end: lines 0-11 of the next frame are
    /// shown below the bottom border.
    pub first_visible_line: u64,
    pub last_visible_line: u64,
    /// The line cycle of sprite 0's pointer fetch; sprite n's is 2n cycles later (wrapping
    /// into the next line), its two data cycles follow it, and BA is low from 3 cycles
    /// before the pointer to the last data cycle.
    pub sprite0_pointer_cycle: u64,
    /// The two line cycles in which the sprite DMA checks each sprite's Y.
    pub sprite_dma_checks: [u64; 2],
    /// Where the raster engine, which steps the 6569's 63 cycles, stands still in this
    /// model's longer line (in order; `u64::MAX` fills the unused places): past the
    /// visible picture's last cycle (60), so that every visible pixel is drawn in the cycle
    /// the chip draws it (the visible cycles 13-60 have the same X on all three). The
    /// 6567R8's X counter itself stands still in cycle 63 (at $184).
    pub extra_cycles: [u64; 2],
}

/// The line cycles in which BA is low for a bad line's matrix fetches (all models: the
/// matrix fetches are in cycles 14-53, BA falls 3 cycles before).
pub const BAD_LINE_BA: std::ops::RangeInclusive<u64> = 11..=53;
/// The graphics fetches' line cycles (all models).
pub const GRAPHICS_CYCLES: std::ops::RangeInclusive<u64> = 15..=54;
/// The side border: the flip-flop switches at the same X coordinates on every model, and
/// the extra NTSC cycles come after the right border (VICE's X counter stands at $184 in
/// them), so the border's line cycles are the 6569's.
pub const SIDE_BORDER_SAME_ON_ALL: bool = true;

const MOS6569: ModelFacts = ModelFacts {
    name: "6569",
    cycles_per_line: 63,
    lines: 312,
    clock_hz: 985_248,
    mains_hz: 50,
    kernal_irq_latch: 0x4025,
    kernal_pal_flag: 1,
    first_visible_line: 16,
    last_visible_line: 287,
    sprite0_pointer_cycle: 57,
    sprite_dma_checks: [54, 55],
    extra_cycles: [u64::MAX, u64::MAX],
};

const MOS6567R8: ModelFacts = ModelFacts {
    name: "6567r8",
    cycles_per_line: 65,
    lines: 263,
    clock_hz: 1_022_727,
    mains_hz: 60,
    kernal_irq_latch: 0x4295,
    kernal_pal_flag: 0,
    first_visible_line: 28,
    last_visible_line: 274,
    sprite0_pointer_cycle: 58,
    sprite_dma_checks: [55, 56],
    extra_cycles: [62, 64],
};

const MOS6567R56A: ModelFacts = ModelFacts {
    name: "6567r56a",
    cycles_per_line: 64,
    lines: 262,
    clock_hz: 1_022_727,
    mains_hz: 60,
    kernal_irq_latch: 0x4295,
    kernal_pal_flag: 0,
    first_visible_line: 28,
    last_visible_line: 274,
    sprite0_pointer_cycle: 58,
    sprite_dma_checks: [55, 56],
    extra_cycles: [63, u64::MAX],
};

impl VicModel {
    /// Every model, in the order `--vic` lists them.
    pub const ALL: [VicModel; 3] = [
        VicModel::Mos6569,
        VicModel::Mos6567R8,
        VicModel::Mos6567R56A,
    ];

    /// This model's facts.
    pub const fn facts(self) -> &'static ModelFacts {
        match self {
            VicModel::Mos6569 => &MOS6569,
            VicModel::Mos6567R8 => &MOS6567R8,
            VicModel::Mos6567R56A => &MOS6567R56A,
        }
    }

    /// The model named `name` (`6569`, `6567r8`, `6567r56a`; any case).
    pub fn from_name(name: &str) -> Option<VicModel> {
        Self::ALL
            .into_iter()
            .find(|m| m.facts().name.eq_ignore_ascii_case(name))
    }

    pub const fn name(self) -> &'static str {
        self.facts().name
    }

    /// Whether the chip is a PAL one (the 6569).
    pub const fn is_pal(self) -> bool {
        matches!(self, VicModel::Mos6569)
    }

    pub const fn cycles_per_line(self) -> u64 {
        self.facts().cycles_per_line
    }

    pub const fn lines(self) -> u64 {
        self.facts().lines
    }

    pub const fn cycles_per_frame(self) -> u64 {
        self.cycles_per_line() * self.lines()
    }

    /// The CPU clock in Hz.
    pub const fn clock_hz(self) -> u64 {
        self.facts().clock_hz
    }

    /// The line cycle (0 to cycles per line - 1) of cycle `t`. Each arm divides by a
    /// constant, so the 6569's costs what it did with one model.
    #[inline(always)]
    pub const fn line_cycle(self, t: u64) -> u64 {
        match self {
            VicModel::Mos6569 => t % MOS6569.cycles_per_line,
            VicModel::Mos6567R8 => t % MOS6567R8.cycles_per_line,
            VicModel::Mos6567R56A => t % MOS6567R56A.cycles_per_line,
        }
    }

    /// The line count since power-on at cycle `t`.
    #[inline(always)]
    pub const fn line_count(self, t: u64) -> u64 {
        match self {
            VicModel::Mos6569 => t / MOS6569.cycles_per_line,
            VicModel::Mos6567R8 => t / MOS6567R8.cycles_per_line,
            VicModel::Mos6567R56A => t / MOS6567R56A.cycles_per_line,
        }
    }

    /// The raster line (0 to lines - 1) at cycle `t`.
    #[inline(always)]
    pub const fn raster_line(self, t: u64) -> u64 {
        match self {
            VicModel::Mos6569 => t / MOS6569.cycles_per_line % MOS6569.lines,
            VicModel::Mos6567R8 => t / MOS6567R8.cycles_per_line % MOS6567R8.lines,
            VicModel::Mos6567R56A => t / MOS6567R56A.cycles_per_line % MOS6567R56A.lines,
        }
    }

    /// The frame number (from 0) at cycle `t`.
    #[inline(always)]
    pub const fn frame_of(self, t: u64) -> u64 {
        match self {
            VicModel::Mos6569 => t / MOS6569.cycles_per_line / MOS6569.lines,
            VicModel::Mos6567R8 => t / MOS6567R8.cycles_per_line / MOS6567R8.lines,
            VicModel::Mos6567R56A => t / MOS6567R56A.cycles_per_line / MOS6567R56A.lines,
        }
    }

    /// The first line of the frame line count `line` (counted since power-on) is in.
    #[inline(always)]
    pub const fn frame_first_line(self, line: u64) -> u64 {
        match self {
            VicModel::Mos6569 => line - line % MOS6569.lines,
            VicModel::Mos6567R8 => line - line % MOS6567R8.lines,
            VicModel::Mos6567R56A => line - line % MOS6567R56A.lines,
        }
    }

    /// The 6569 cycle whose work the raster engine does in line cycle `r` of this model, or
    /// `None` for an idle cycle the model adds (the engine stands still in it).
    #[inline(always)]
    pub const fn engine_cycle(self, r: u64) -> Option<u64> {
        let [a, b] = self.facts().extra_cycles;
        if r == a || r == b {
            None
        } else if r > b {
            Some(r - 2)
        } else if r > a {
            Some(r - 1)
        } else {
            Some(r)
        }
    }

    /// The picture row (0-271) raster line `line` is drawn in, if it is shown.
    pub const fn picture_row(self, line: u64) -> Option<usize> {
        let f = self.facts();
        let row = (line + f.lines - f.first_visible_line) % f.lines;
        if row <= f.last_visible_line - f.first_visible_line {
            Some(row as usize)
        } else {
            None
        }
    }

    /// The picture's size as VICE crops this model's screenshots (width, height) and where
    /// the 320x200 text area's first pixel is in it.
    pub const fn visible_size(self) -> (usize, usize) {
        let f = self.facts();
        (
            384,
            (f.last_visible_line - f.first_visible_line + 1) as usize,
        )
    }

    /// Where the text area's first pixel (line $33, 32 pixels into the picture) is.
    pub const fn text_origin(self) -> (usize, usize) {
        (32, (0x33 - self.facts().first_visible_line) as usize)
    }

    /// What the raster engine does differently from this chip (empty for the 6569): the
    /// known differences a program can see.
    pub const fn engine_differences(self) -> &'static str {
        match self {
            VicModel::Mos6569 => "",
            VicModel::Mos6567R8 => {
                "the engine fetches sprites 0-2 a cycle early and 3-7 a cycle late (the \
                 chip fetches sprite 0's pointer in cycle 59, sprite 3's in the last cycle \
                 of the line before) and turns a sprite's display on a cycle early (cycle \
                 58, not 59); BA and the sprite DMA checks follow the chip"
            }
            VicModel::Mos6567R56A => {
                "the engine fetches sprites 0-2 a cycle early (the chip fetches sprite 0's \
                 pointer in cycle 59); BA, the sprite DMA checks and display follow the \
                 chip; the light pen's old interrupt mode is not modelled"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_adds_up() {
        for m in VicModel::ALL {
            let f = m.facts();
            // The engine's 63 cycles and the extra idle ones fill the line.
            let extra = f.extra_cycles.iter().filter(|&&c| c != u64::MAX).count() as u64;
            assert_eq!(63 + extra, f.cycles_per_line, "{}", f.name);
            let steps: Vec<u64> = (0..f.cycles_per_line)
                .filter_map(|r| m.engine_cycle(r))
                .collect();
            assert_eq!(steps, (0..63).collect::<Vec<_>>(), "{}", f.name);
            // The KERNAL's latch is a 60th of a second (Commodore's rounding).
            let latch = u64::from(f.kernal_irq_latch);
            assert!((f.clock_hz / 60).abs_diff(latch) <= 1, "{}", f.name);
            assert_eq!(m.frame_of(m.cycles_per_frame() * 3 + 5), 3);
            assert_eq!(VicModel::from_name(&f.name.to_uppercase()), Some(m));
            assert_eq!(m.picture_row(f.first_visible_line), Some(0));
        }
        // The engine stands still only past the visible picture's last cycle (60).
        for m in VicModel::ALL {
            assert_eq!(
                (0..=60).map(|r| m.engine_cycle(r)).collect::<Vec<_>>(),
                (0..=60).map(Some).collect::<Vec<_>>()
            );
        }
        assert_eq!(VicModel::Mos6569.visible_size(), (384, 272));
        assert_eq!(VicModel::Mos6569.text_origin(), (32, 35));
        assert_eq!(VicModel::Mos6567R8.visible_size(), (384, 247));
        assert_eq!(VicModel::Mos6567R8.text_origin(), (32, 23));
        // Lines 0-11 of the next frame show below the NTSC bottom border.
        assert_eq!(VicModel::Mos6567R8.picture_row(0), Some(235));
        assert_eq!(VicModel::Mos6567R8.picture_row(12), None);
    }
}
