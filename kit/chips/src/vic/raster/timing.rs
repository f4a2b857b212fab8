//! The line timings the raster engine is compiled for, one per line length: the 6569's (63
//! cycles, also the 8565's), the 6567R8's (65, also the 8562's) and the 6567R56A's (64).
//! Each is a type whose constants are the model's tables (`model.rs`), so the engine's
//! per-cycle steps and its whole-line paths are the same code for every model, each
//! compiled with its model's line folded in.

use super::{phi1_access, sprite_x_of, Phi1, FIRST_LINE, HEIGHT};
use crate::vic::dma::{sprite_ba_table, SPRITE_BA};
use crate::vic::model::VicModel;

/// The longest line of any model (the 6567R8's): tables by line cycle are this long, and
/// masks by line cycle are `u128`.
pub(in crate::vic) const MAX_CYCLES: usize = 65;

/// A model's phi1 accesses by line cycle (Idle past its line).
const fn access_table(model: VicModel) -> [Phi1; MAX_CYCLES] {
    let mut t = [Phi1::Idle; MAX_CYCLES];
    let mut r = 0;
    while r < model.cycles_per_line() {
        t[r as usize] = model.phi1_access(r);
        r += 1;
    }
    t
}

/// A model's X of each line cycle's phi1, to the 8-pixel cell: what the sprite sequencers
/// compare with in the cycle after it (where the 6567R8's X stands still, two cycles
/// compare with X $180-$187, as in VICE's x64sc).
const fn sprite_x_table(model: VicModel) -> [u16; MAX_CYCLES] {
    let mut t = [0; MAX_CYCLES];
    let mut r = 0;
    while r < model.cycles_per_line() {
        t[r as usize] = model.phi1_x(r) & !7;
        r += 1;
    }
    t
}

/// A line timing (see the module documentation). The 6569's tables are the hand-written
/// ones the engine has always used ([`phi1_access`], [`sprite_x_of`], `dma::SPRITE_BA`),
/// checked against the model's below; the others are built from the model's facts.
pub(in crate::vic) trait Timing {
    /// The model whose line this is.
    const MODEL: VicModel;
    const CYCLES: u64 = Self::MODEL.cycles_per_line();
    const LINES: u64 = Self::MODEL.lines();
    /// Not the 6569's line.
    const NTSC: bool = !Self::MODEL.is_pal();
    const ACCESS: [Phi1; MAX_CYCLES] = access_table(Self::MODEL);
    const BA: [u8; MAX_CYCLES] = sprite_ba_table::<MAX_CYCLES>(Self::MODEL);
    const SPRITE_X: [u16; MAX_CYCLES] = sprite_x_table(Self::MODEL);

    /// Line cycle `r`'s phi1 access.
    #[inline(always)]
    fn access(r: u64) -> Phi1 {
        if Self::NTSC {
            Self::ACCESS[r as usize % MAX_CYCLES]
        } else {
            phi1_access(r)
        }
    }

    /// Which sprites' fetches hold BA low in line cycle `r` (bit n: sprite n).
    #[inline(always)]
    fn sprite_ba(r: u64) -> u8 {
        if Self::NTSC {
            Self::BA[r as usize % MAX_CYCLES]
        } else {
            SPRITE_BA[r as usize]
        }
    }

    /// The X the sprite sequencers compare with in the cycle after line cycle `previous`.
    #[inline(always)]
    fn sprite_x(previous: u64) -> u16 {
        if Self::NTSC {
            Self::SPRITE_X[previous as usize % MAX_CYCLES]
        } else {
            sprite_x_of(previous)
        }
    }

    /// The line cycle before `r`.
    #[inline(always)]
    fn previous(r: u64) -> u64 {
        (r + Self::CYCLES - 1) % Self::CYCLES
    }

    /// The picture row raster line `line` is drawn in, if it is shown (on NTSC lines 0-11
    /// of the next frame show below the bottom border).
    #[inline(always)]
    fn picture_row(line: u16) -> Option<usize> {
        if Self::NTSC {
            Self::MODEL.picture_row(u64::from(line))
        } else {
            line.checked_sub(FIRST_LINE).map(usize::from)
        }
        .filter(|&y| y < HEIGHT)
    }
}

/// The 6569's line (and the 8565's).
pub(in crate::vic) struct Pal;
impl Timing for Pal {
    const MODEL: VicModel = VicModel::Mos6569;
}

/// The 6567R8's line (and the 8562's).
pub(in crate::vic) struct Ntsc65;
impl Timing for Ntsc65 {
    const MODEL: VicModel = VicModel::Mos6567R8;
}

/// The 6567R56A's line.
pub(in crate::vic) struct Ntsc64;
impl Timing for Ntsc64 {
    const MODEL: VicModel = VicModel::Mos6567R56A;
}

// The 6569's hand-written tables are its model's; every line fits the tables.
const _: () = {
    let mut r = 0;
    while r < Pal::CYCLES {
        assert!(Pal::BA[r as usize] == SPRITE_BA[r as usize]);
        assert!(Pal::SPRITE_X[r as usize] == sprite_x_of(r));
        r += 1;
    }
    assert!(Ntsc65::CYCLES as usize <= MAX_CYCLES && Ntsc64::CYCLES as usize <= MAX_CYCLES);
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_timing_is_its_models_line() {
        fn check<T: Timing>() {
            let m = T::MODEL;
            for r in 0..T::CYCLES {
                assert_eq!(T::access(r), m.phi1_access(r), "{} cycle {r}", m.name());
                assert_eq!(T::sprite_x(r), m.phi1_x(r) & !7, "{} cycle {r}", m.name());
                assert_eq!(T::previous((r + 1) % T::CYCLES), r);
            }
            for line in 0..T::LINES as u16 {
                let row = m.picture_row(u64::from(line));
                assert_eq!(T::picture_row(line), row, "{} line {line}", m.name());
            }
        }
        check::<Pal>();
        check::<Ntsc65>();
        check::<Ntsc64>();
        for m in VicModel::ALL {
            let t = m.timing();
            assert_eq!(t.cycles_per_line(), m.cycles_per_line());
            assert_eq!(
                t.facts().sprite0_pointer_cycle,
                m.facts().sprite0_pointer_cycle
            );
        }
    }
}
