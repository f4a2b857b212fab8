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
//! The raster engine steps each model's own line: the phi1 accesses (where the sprite
//! fetches fall, [`VicModel::phi1_access`]), the X coordinate of each cycle
//! ([`VicModel::phi1_x`]) and the sprite DMA checks follow the model's table; the graphics,
//! refresh and bad line fetches, the border and the counters' updates are in the same line
//! cycles on all three, and so is the X of every visible cycle.

/// What the chip fetches in the first half (phi1) of a line cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phi1 {
    /// Sprite n's pointer (and in phi2 its first data byte).
    SpritePointer(usize),
    /// Sprite n's second data byte (and in phi2 its third).
    SpriteData(usize),
    Refresh,
    Graphics,
    Idle,
}

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
    /// The PAL 8565 (a C64C's): the 6569's timing, without its colour latency
    /// ([`ModelFacts::new_chip`]).
    Mos8565,
    /// The NTSC 8562 (a C64C's): the 6567R8's timing, as the 8565 is the 6569's.
    Mos8562,
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
    /// The X coordinate of line cycle 0's phi1 (it counts 8 a cycle, 4 each half).
    pub first_x: u16,
    /// X wraps to 0 here (the 6569's 504 pixels a line; the NTSC chips count all 512).
    pub x_wrap: u16,
    /// The "new" (HMOS) chips, the 8565 and 8562 (VICE's `color_latency` 0): the output
    /// stage looks a pixel's colour register up as the pixel leaves (the 6569 and 6567 look
    /// pixel 0 of a cycle up a cycle early), so a colour register written in the cycle its
    /// first pixel is looked up shows light grey (colour 15) there, "the grey dot"; their
    /// graphics fetch and ECM/BMM take $D011 as of the cycle before; a sprite's multicolour
    /// switch flips its pixel pairing at pixel 6 (where the sprite's X-expansion
    /// flip-flop is clear) rather than resetting it at pixel 7; and the light pen's X is one
    /// less (VICE's vicii-draw-cycle.c, vicii-fetch.c, vicii-lightpen.c).
    pub new_chip: bool,
    /// The line cycle in which X stands still (`u64::MAX`: none): the 6567R8's 520 pixels
    /// a line are 8 more than its 512 X coordinates, so X holds at $184 for a cycle (in
    /// VICE's table: phi2 of cycle 62 and phi1 of 63, counted from 1, repeat $184).
    pub x_stall_cycle: u64,
    /// The first revision's light pen interrupt (the 6567R56A; VICE's
    /// `lightpen_old_irq_mode`, which it gives the 6567R56A and the 6569R1): an LP edge
    /// latches $D013/$D014 as on the later chips but does not raise $D019 bit 3; only LP
    /// held low as a frame starts (the retrigger) raises it. A real 6569R1 shows it in VICE's
    /// VICII/split-tests/lightpen dumps: bit 3 set in 10 of the 256 measured cycles, those
    /// whose LP pulse spans the frame start, where a 6569R3 sets it in 202.
    pub light_pen_old_irq: bool,
    /// The luminance of colours 0-15 in Pepto's units (0 black to 32 white; "Calculating the
    /// colours of the VIC-II", pepto.de/projects/colorvic, 2017): [`LUMA_FIRST_REVISION`] or
    /// [`LUMA_LATER_REVISIONS`]. `--palette chip` computes each model's colours from it.
    pub luma: [u8; 16],
}

/// The first revision's luminances (the 6567R56A and 6569R1): black, white and 3 uniform
/// levels between (Pepto's 0, 8, 16, 24, 32: 0, 0.25, 0.5, 0.75, 1; VICE's measured 6569R1
/// is 0, 0.237, 0.5, 0.763, 1), so dark grey is as bright as red and blue, grey as purple
/// and green, light grey as cyan and yellow: on a monochrome monitor they are one.
pub const LUMA_FIRST_REVISION: [u8; 16] =
    [0, 32, 8, 24, 16, 16, 8, 24, 16, 8, 16, 8, 16, 24, 16, 24];
/// Every later revision's (the 6569R3/R5, the 6567R8, the 8565 and 8562): the levels
/// doubled to 9 (0, 8, 10, 12, 15, 16, 20, 24, 32), so at most two colours share one.
pub const LUMA_LATER_REVISIONS: [u8; 16] =
    [0, 32, 10, 20, 12, 16, 8, 24, 12, 8, 16, 10, 15, 24, 15, 20];

/// The line cycles in which BA is low for a bad line's matrix fetches (all models: the
/// matrix fetches are in cycles 14-53, BA falls 3 cycles before).
pub const BAD_LINE_BA: std::ops::RangeInclusive<u64> = 11..=53;
/// The graphics fetches' line cycles (all models).
pub const GRAPHICS_CYCLES: std::ops::RangeInclusive<u64> = 15..=54;
/// The line cycle whose second half toggles the Y-expansion flip-flops (all models: after
/// the 6569's second DMA check, the NTSC chips' first).
pub const SPRITE_EXPAND_CYCLE: u64 = 55;

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
    first_x: 0x194,
    x_wrap: 0x1F8,
    x_stall_cycle: u64::MAX,
    new_chip: false,
    light_pen_old_irq: false,
    luma: LUMA_LATER_REVISIONS,
};

const MOS8565: ModelFacts = ModelFacts {
    name: "8565",
    new_chip: true,
    ..MOS6569
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
    first_x: 0x19C,
    x_wrap: 0x200,
    x_stall_cycle: 62,
    new_chip: false,
    light_pen_old_irq: false,
    luma: LUMA_LATER_REVISIONS,
};

const MOS8562: ModelFacts = ModelFacts {
    name: "8562",
    new_chip: true,
    ..MOS6567R8
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
    first_x: 0x19C,
    x_wrap: 0x200,
    x_stall_cycle: u64::MAX,
    new_chip: false,
    light_pen_old_irq: true,
    luma: LUMA_FIRST_REVISION,
};

impl VicModel {
    /// Every model, in the order `--vic` lists them.
    pub const ALL: [VicModel; 5] = [
        VicModel::Mos6569,
        VicModel::Mos8565,
        VicModel::Mos6567R8,
        VicModel::Mos6567R56A,
        VicModel::Mos8562,
    ];

    /// This model's facts.
    pub const fn facts(self) -> &'static ModelFacts {
        match self {
            VicModel::Mos6569 => &MOS6569,
            VicModel::Mos6567R8 => &MOS6567R8,
            VicModel::Mos6567R56A => &MOS6567R56A,
            VicModel::Mos8565 => &MOS8565,
            VicModel::Mos8562 => &MOS8562,
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

    /// Whether the chip is a PAL one (the 6569 or 8565: the same timing).
    pub const fn is_pal(self) -> bool {
        matches!(self, VicModel::Mos6569 | VicModel::Mos8565)
    }

    /// Whether the chip is an 8565 or 8562 ([`ModelFacts::new_chip`]).
    #[inline(always)]
    pub const fn is_new(self) -> bool {
        matches!(self, VicModel::Mos8565 | VicModel::Mos8562)
    }

    /// The older chip with this one's timing (the 6569 for the 8565, the 6567R8 for the
    /// 8562; itself otherwise): the tables the raster engine and the bus claims step.
    #[inline(always)]
    pub const fn timing(self) -> VicModel {
        match self {
            VicModel::Mos8565 => VicModel::Mos6569,
            VicModel::Mos8562 => VicModel::Mos6567R8,
            m => m,
        }
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
            VicModel::Mos6569 | VicModel::Mos8565 => t % MOS6569.cycles_per_line,
            VicModel::Mos6567R8 | VicModel::Mos8562 => t % MOS6567R8.cycles_per_line,
            VicModel::Mos6567R56A => t % MOS6567R56A.cycles_per_line,
        }
    }

    /// The line count since power-on at cycle `t`.
    #[inline(always)]
    pub const fn line_count(self, t: u64) -> u64 {
        match self {
            VicModel::Mos6569 | VicModel::Mos8565 => t / MOS6569.cycles_per_line,
            VicModel::Mos6567R8 | VicModel::Mos8562 => t / MOS6567R8.cycles_per_line,
            VicModel::Mos6567R56A => t / MOS6567R56A.cycles_per_line,
        }
    }

    /// The raster line (0 to lines - 1) at cycle `t`.
    #[inline(always)]
    pub const fn raster_line(self, t: u64) -> u64 {
        match self {
            VicModel::Mos6569 | VicModel::Mos8565 => t / MOS6569.cycles_per_line % MOS6569.lines,
            VicModel::Mos6567R8 | VicModel::Mos8562 => {
                t / MOS6567R8.cycles_per_line % MOS6567R8.lines
            }
            VicModel::Mos6567R56A => t / MOS6567R56A.cycles_per_line % MOS6567R56A.lines,
        }
    }

    /// The frame number (from 0) at cycle `t`.
    #[inline(always)]
    pub const fn frame_of(self, t: u64) -> u64 {
        match self {
            VicModel::Mos6569 | VicModel::Mos8565 => t / MOS6569.cycles_per_line / MOS6569.lines,
            VicModel::Mos6567R8 | VicModel::Mos8562 => {
                t / MOS6567R8.cycles_per_line / MOS6567R8.lines
            }
            VicModel::Mos6567R56A => t / MOS6567R56A.cycles_per_line / MOS6567R56A.lines,
        }
    }

    /// The first line of the frame line count `line` (counted since power-on) is in.
    #[inline(always)]
    pub const fn frame_first_line(self, line: u64) -> u64 {
        match self {
            VicModel::Mos6569 | VicModel::Mos8565 => line - line % MOS6569.lines,
            VicModel::Mos6567R8 | VicModel::Mos8562 => line - line % MOS6567R8.lines,
            VicModel::Mos6567R56A => line - line % MOS6567R56A.lines,
        }
    }

    /// What the chip fetches in the first half (phi1) of line cycle `r`: the graphics
    /// (cycles 15-54) and refresh (10-14) fetches are in the same cycles on every model; the
    /// 16 sprite cycles (pointer, then data, for sprites 0-7) start at the model's sprite 0
    /// pointer cycle and wrap into the next line; the cycles left over are idle.
    pub const fn phi1_access(self, r: u64) -> Phi1 {
        let f = self.facts();
        match r {
            10..=14 => Phi1::Refresh,
            15..=54 => Phi1::Graphics,
            _ => {
                let k = (r + f.cycles_per_line - f.sprite0_pointer_cycle) % f.cycles_per_line;
                if k >= 16 {
                    Phi1::Idle
                } else if k & 1 == 0 {
                    Phi1::SpritePointer((k / 2) as usize)
                } else {
                    Phi1::SpriteData((k / 2) as usize)
                }
            }
        }
    }

    /// The X coordinate of line cycle `r`'s phi1 (phi2's is 4 more, except where X stands
    /// still).
    pub const fn phi1_x(self, r: u64) -> u16 {
        let f = self.facts();
        let counted = if r >= f.x_stall_cycle { r - 1 } else { r };
        ((f.first_x as u64 + 8 * counted) % f.x_wrap as u64) as u16
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_adds_up() {
        for m in VicModel::ALL {
            let f = m.facts();
            // 16 sprite cycles, 5 refreshes, 40 graphics fetches; the rest idle.
            let accesses: Vec<Phi1> = (0..f.cycles_per_line).map(|r| m.phi1_access(r)).collect();
            let idle = accesses.iter().filter(|a| **a == Phi1::Idle).count() as u64;
            assert_eq!(16 + 5 + 40 + idle, f.cycles_per_line, "{}", f.name);
            for n in 0..8 {
                let p = (f.sprite0_pointer_cycle + 2 * n as u64) % f.cycles_per_line;
                assert_eq!(accesses[p as usize], Phi1::SpritePointer(n), "{}", f.name);
            }
            // X counts every coordinate below the wrap once a line (the 6567R8 one group
            // of 4 three times).
            let xs: std::collections::BTreeSet<u16> =
                (0..f.cycles_per_line).map(|r| m.phi1_x(r)).collect();
            assert_eq!(xs.len() as u64 * 8, u64::from(f.x_wrap), "{}", f.name);
            // The KERNAL's latch is a 60th of a second (Commodore's rounding).
            let latch = u64::from(f.kernal_irq_latch);
            assert!((f.clock_hz / 60).abs_diff(latch) <= 1, "{}", f.name);
            assert_eq!(m.frame_of(m.cycles_per_frame() * 3 + 5), 3);
            assert_eq!(VicModel::from_name(&f.name.to_uppercase()), Some(m));
            assert_eq!(m.picture_row(f.first_visible_line), Some(0));
        }
        // VICE's tables (vicii-chip-model.c, cycles counted from 1 there): X 0 at phi2 of
        // cycle 13, sprite 3's data in cycle 1 on the 6567R8, its pointer on the others.
        for m in VicModel::ALL {
            assert_eq!(m.phi1_x(13), 4);
            assert_eq!((m.phi1_x(12) + 4) % m.facts().x_wrap, 0);
        }
        assert_eq!(VicModel::Mos6569.phi1_x(0), 0x194);
        assert_eq!(VicModel::Mos6569.phi1_x(62), 0x18C);
        assert_eq!(VicModel::Mos6567R8.phi1_x(0), 0x19C);
        assert_eq!(VicModel::Mos6567R8.phi1_x(61), 0x184);
        assert_eq!(VicModel::Mos6567R8.phi1_x(62), 0x184);
        assert_eq!(VicModel::Mos6567R8.phi1_x(64), 0x194);
        assert_eq!(VicModel::Mos6567R56A.phi1_x(63), 0x194);
        assert_eq!(VicModel::Mos6567R8.phi1_access(0), Phi1::SpriteData(3));
        assert_eq!(VicModel::Mos6567R8.phi1_access(9), Phi1::Idle);
        assert_eq!(VicModel::Mos6567R8.phi1_access(57), Phi1::Idle);
        assert_eq!(VicModel::Mos6567R8.phi1_access(58), Phi1::SpritePointer(0));
        assert_eq!(VicModel::Mos6567R56A.phi1_access(0), Phi1::SpritePointer(3));
        assert_eq!(VicModel::Mos6567R56A.phi1_access(9), Phi1::SpriteData(7));
        assert_eq!(VicModel::Mos6569.phi1_access(57), Phi1::SpritePointer(0));
        assert_eq!(VicModel::Mos6569.phi1_access(56), Phi1::Idle);
        assert_eq!(VicModel::Mos6569.visible_size(), (384, 272));
        assert_eq!(VicModel::Mos6569.text_origin(), (32, 35));
        assert_eq!(VicModel::Mos6567R8.visible_size(), (384, 247));
        assert_eq!(VicModel::Mos6567R8.text_origin(), (32, 23));
        // Lines 0-11 of the next frame show below the NTSC bottom border.
        assert_eq!(VicModel::Mos6567R8.picture_row(0), Some(235));
        assert_eq!(VicModel::Mos6567R8.picture_row(12), None);
    }
}
