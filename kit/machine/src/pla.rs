//! The C64's PLA: which chip answers a CPU access, from the three 6510 port lines
//! (LORAM, HIRAM, CHAREN) and the two cartridge lines (EXROM, GAME).

/// What the CPU sees in one 4 KiB region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Ram,
    BasicRom,
    KernalRom,
    CharRom,
    Io,
    /// Cartridge ROM low ($8000-$9FFF).
    CartLo,
    /// Cartridge ROM high ($A000-$BFFF, or $E000-$FFFF in Ultimax mode).
    CartHi,
    /// Nothing answers (Ultimax mode holes): reads see open bus.
    Open,
}

/// The five lines the PLA decodes, as levels (true = high).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lines {
    pub loram: bool,
    pub hiram: bool,
    pub charen: bool,
    pub game: bool,
    pub exrom: bool,
}

impl Lines {
    /// Every combination of the five lines (32).
    pub fn all() -> impl Iterator<Item = Lines> {
        (0..32u8).map(|bits| Lines {
            loram: bits & 1 != 0,
            hiram: bits & 2 != 0,
            charen: bits & 4 != 0,
            game: bits & 8 != 0,
            exrom: bits & 16 != 0,
        })
    }

    /// No cartridge: GAME and EXROM are pulled up.
    pub fn from_port(port_lines: u8) -> Lines {
        Lines {
            loram: port_lines & 1 != 0,
            hiram: port_lines & 2 != 0,
            charen: port_lines & 4 != 0,
            game: true,
            exrom: true,
        }
    }
}

/// The CPU's view of the 16 regions of 4 KiB, for reads. Writes always reach RAM except in
/// the I/O region (and the Ultimax holes).
pub fn read_map(l: Lines) -> [Region; 16] {
    use Region::*;
    let mut map = [Ram; 16];
    if l.exrom && !l.game {
        // Ultimax: only 4 KiB of RAM, cartridge ROM at $8000 and $E000, I/O always on.
        for r in map.iter_mut().skip(1) {
            *r = Open;
        }
        map[8] = CartLo;
        map[9] = CartLo;
        map[0xD] = Io;
        map[0xE] = CartHi;
        map[0xF] = CartHi;
        return map;
    }
    // With LORAM = HIRAM = 0 the CPU sees RAM everywhere (cartridge or not).
    if !l.loram && !l.hiram {
        return map;
    }
    let cart16 = !l.exrom && !l.game;
    let cart8 = !l.exrom && l.game;
    map[0xD] = if l.charen {
        Io
    } else if cart16 && !l.hiram {
        Ram
    } else {
        CharRom
    };
    if l.hiram {
        map[0xE] = KernalRom;
        map[0xF] = KernalRom;
    }
    if l.loram && l.hiram {
        if cart8 || cart16 {
            map[8] = CartLo;
            map[9] = CartLo;
        }
        if !cart16 {
            map[0xA] = BasicRom;
            map[0xB] = BasicRom;
        }
    }
    if cart16 && l.hiram {
        map[0xA] = CartHi;
        map[0xB] = CartHi;
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use Region::*;

    fn map(exrom: bool, game: bool, charen: bool, hiram: bool, loram: bool) -> [Region; 16] {
        read_map(Lines {
            loram,
            hiram,
            charen,
            game,
            exrom,
        })
    }

    /// ($A000, $D000, $E000) of the map.
    fn abc(m: [Region; 16]) -> (Region, Region, Region) {
        (m[0xA], m[0xD], m[0xE])
    }

    #[test]
    fn no_cartridge_all_eight_port_combinations() {
        // The C64 memory map table for EXROM = GAME = 1 (modes 24..31).
        let expect = [
            (Ram, Ram, Ram),                // 000
            (Ram, CharRom, Ram),            // 001
            (Ram, CharRom, KernalRom),      // 010
            (BasicRom, CharRom, KernalRom), // 011
            (Ram, Ram, Ram),                // 100
            (Ram, Io, Ram),                 // 101
            (Ram, Io, KernalRom),           // 110
            (BasicRom, Io, KernalRom),      // 111
        ];
        for (mode, want) in expect.iter().enumerate() {
            let m = map(true, true, mode & 4 != 0, mode & 2 != 0, mode & 1 != 0);
            assert_eq!(abc(m), *want, "mode {mode:03b}");
            for r in [0usize, 1, 7, 8, 9, 0xC] {
                assert_eq!(m[r], Ram, "mode {mode:03b} region {r:X}");
            }
        }
    }

    #[test]
    fn eight_k_cartridge() {
        let m = map(false, true, true, true, true);
        assert_eq!(
            (m[8], m[0xA], m[0xD], m[0xE]),
            (CartLo, BasicRom, Io, KernalRom)
        );
        let m = map(false, true, true, true, false);
        assert_eq!((m[8], m[0xA]), (Ram, Ram));
    }

    #[test]
    fn sixteen_k_cartridge() {
        let m = map(false, false, true, true, true);
        assert_eq!(
            (m[8], m[0xA], m[0xD], m[0xE]),
            (CartLo, CartHi, Io, KernalRom)
        );
        let m = map(false, false, true, true, false);
        assert_eq!((m[8], m[0xA], m[0xE]), (Ram, CartHi, KernalRom));
        let m = map(false, false, false, false, true);
        assert_eq!(m, [Ram; 16], "mode 1 is all RAM");
        let m = map(false, false, true, false, true);
        assert_eq!((m[0xA], m[0xD], m[0xE]), (Ram, Io, Ram));
    }

    #[test]
    fn ultimax() {
        let m = map(true, false, false, false, false);
        assert_eq!(m[0], Ram);
        assert_eq!(
            (m[1], m[8], m[0xA], m[0xD], m[0xE]),
            (Open, CartLo, Open, Io, CartHi)
        );
    }

    /// The bus keeps one copy of each ROM at the addresses it may answer (memory.rs,
    /// `rom_view`), which holds only if no region shows two ROMs in different modes.
    #[test]
    fn a_region_shows_at_most_one_rom_in_all_32_modes() {
        assert_eq!(Lines::all().count(), 32);
        for r in 0..16 {
            let mut roms: Vec<Region> = Lines::all()
                .map(|l| read_map(l)[r])
                .filter(|region| matches!(region, BasicRom | KernalRom | CharRom))
                .collect();
            roms.sort_by_key(|region| *region as u8);
            roms.dedup();
            assert!(roms.len() <= 1, "region {r:X}: {roms:?}");
        }
    }
}
