//! The three ROMs of the C64. We ship no Commodore ROM: without image files the BASIC area
//! holds our own BASIC V2 (`c64kit_basic_rom`, 6502 code, which goes on in $E000-$E4DF of
//! the KERNAL image as Commodore's does), the character ROM c64kit's own font
//! (`c64kit_basic::font`: the VIC-II draws text with it, and a program copying the ROM gets
//! it), and the KERNAL area our own clean-room image of trap entry points (see
//! `kernal::rom`). A KERNAL image given alone gets our BASIC too, its part of the KERNAL ROM
//! laid over the image's BASIC part; only [`Roms::without_basic`] leaves the BASIC area a
//! JAM-opcode filler (so a jump into it is reported, not silently run).

use std::path::Path;

/// Byte that fills the BASIC ROM area when there is no BASIC: JAM ($02), so that executing
/// it stops the run with "jammed in the BASIC ROM area" instead of running garbage.
pub const BASIC_FILLER: u8 = 0x02;

pub struct Roms {
    pub basic: Box<[u8; 0x2000]>,
    pub kernal: Box<[u8; 0x2000]>,
    pub chargen: Box<[u8; 0x1000]>,
    /// True when `kernal` is our trap image (traps apply), false for a real KERNAL image.
    pub trap_kernal: bool,
    /// True when `basic` is the JAM filler: no BASIC ([`Roms::without_basic`]).
    pub no_basic: bool,
    /// True when `basic` is our own BASIC ([`Roms::own_basic`]), whose code goes on in
    /// $E000-$E4DF of the KERNAL image: a JAM there is BASIC's, never a KERNAL trap.
    pub own_basic: bool,
}

/// Paths of optional real ROM images.
#[derive(Clone, Debug, Default)]
pub struct RomPaths {
    pub basic: Option<std::path::PathBuf>,
    pub kernal: Option<std::path::PathBuf>,
    pub chargen: Option<std::path::PathBuf>,
}

/// The file names VICE gives Commodore's BASIC, KERNAL and character ROM images (its
/// data/C64 folder): the ones c64kit's tests compare with, from the folder `C64KIT_ROMS`
/// names.
pub const COMMODORE_BASIC_IMAGE: &str = "basic-901226-01.bin";
pub const COMMODORE_KERNAL_IMAGE: &str = "kernal-901227-03.bin";
pub const COMMODORE_CHARGEN_IMAGE: &str = "chargen-901225-01.bin";

/// The last byte of Commodore's BASIC in its KERNAL ROM: BASIC's code runs on from $E000 to
/// $E4D2 and the KERNAL's begins at $E4D3 (C64 memory maps: 901227-03's patches from $E4D3,
/// the colour RAM fill at $E4DA). Our BASIC's code there ends before it.
pub const COMMODORE_BASIC_PART_END: u16 = 0xE4D2;

impl RomPaths {
    /// Commodore's BASIC and KERNAL images in `dir`, under VICE's names (the character ROM
    /// stays c64kit's font).
    pub fn commodores_basic_and_kernal_in(dir: &Path) -> RomPaths {
        RomPaths {
            basic: Some(dir.join(COMMODORE_BASIC_IMAGE)),
            kernal: Some(dir.join(COMMODORE_KERNAL_IMAGE)),
            chargen: None,
        }
    }

    /// All three of Commodore's images in `dir`, under VICE's names: a real C64's ROMs.
    pub fn commodores_in(dir: &Path) -> RomPaths {
        RomPaths {
            chargen: Some(dir.join(COMMODORE_CHARGEN_IMAGE)),
            ..RomPaths::commodores_basic_and_kernal_in(dir)
        }
    }

    /// Why a BASIC image given alone makes no working BASIC, if one is.
    pub fn unpaired(&self) -> Option<&'static str> {
        match (&self.basic, &self.kernal) {
            (Some(_), None) => Some(
                "a BASIC image without a KERNAL image: Commodore's BASIC goes on inside \
                 Commodore's KERNAL ($E000-$E4D2), which c64kit's KERNAL does not have; give \
                 --kernal-rom too",
            ),
            _ => None,
        }
    }

    /// What a KERNAL image given alone is run with, if it is (`Roms::load`: our BASIC, whose
    /// part of the KERNAL ROM replaces the image's BASIC part).
    pub fn kernal_alone(&self) -> Option<&'static str> {
        match (&self.basic, &self.kernal) {
            (None, Some(_)) => Some(
                "a KERNAL image without a BASIC image: c64kit's own BASIC runs with it, its \
                 part of the KERNAL ROM laid over the image's $E000-$E4D2 (Commodore's \
                 BASIC's part there); give --basic-rom for Commodore's BASIC",
            ),
            _ => None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RomError {
    /// Missing, not a regular file, too large: the reason once, with the path.
    #[error("{0}")]
    Read(c64kit_files::FileError),
    #[error("{path}: a {what} ROM image must be {want} bytes, this file has {got}")]
    Size {
        path: String,
        what: &'static str,
        want: usize,
        got: usize,
    },
}

impl Roms {
    /// Our defaults: our own BASIC V2, c64kit's font as the character ROM, the trap KERNAL.
    pub fn builtin() -> Self {
        let mut roms = Self::without_basic();
        roms.put_own_basic();
        roms
    }

    /// Our own BASIC V2 with our KERNAL: the defaults ([`Roms::builtin`]), named so where a
    /// test means our BASIC rather than whatever the defaults are.
    pub fn own_basic() -> Self {
        Self::builtin()
    }

    /// Our KERNAL and font with no BASIC: the BASIC area the JAM filler, as a KERNAL image
    /// given alone leaves it.
    pub fn without_basic() -> Self {
        Roms {
            basic: Box::new([BASIC_FILLER; 0x2000]),
            kernal: Box::new(crate::kernal::rom::build()),
            chargen: Box::new(c64kit_basic::font::char_rom()),
            trap_kernal: true,
            no_basic: true,
            own_basic: false,
        }
    }

    /// True if the machine can run BASIC: a BASIC image is in (ours or Commodore's).
    pub fn runs_basic(&self) -> bool {
        !self.no_basic
    }

    /// Our own BASIC V2 in the BASIC area and in $E000-$E4DF of our KERNAL image (the
    /// character ROM stays as it is).
    pub fn put_own_basic(&mut self) {
        self.put_basic_over_our_kernal(c64kit_basic_rom::BASIC, c64kit_basic_rom::KERNAL_PART);
    }

    /// A BASIC image (8 KiB) in the BASIC area and its part of the KERNAL ROM ($E000 on, at
    /// most up to $E4DF, the room our KERNAL image leaves) over our KERNAL image: ours, or
    /// Commodore's taken from its KERNAL image (the tests compare the two so).
    pub fn put_basic_over_our_kernal(&mut self, basic: &[u8; 0x2000], kernal_part: &[u8]) {
        self.basic.copy_from_slice(basic);
        let at = (c64kit_basic_rom::KERNAL_PART_BASE - crate::kernal::rom::ROM_BASE) as usize;
        let len = kernal_part.len().min(c64kit_basic_rom::KERNAL_PART.len());
        self.kernal[at..at + len].copy_from_slice(&kernal_part[..len]);
        self.no_basic = false;
        self.own_basic = true;
    }

    /// Our own BASIC V2 with a KERNAL image given alone: in the BASIC area, and its part of
    /// the KERNAL ROM over the image's BASIC part ($E000 to `COMMODORE_BASIC_PART_END`,
    /// which holds Commodore's BASIC code there, useless without Commodore's BASIC), so the
    /// KERNAL's own reset can end in a BASIC cold start as on a C64.
    fn put_own_basic_over_a_kernal_image(&mut self) {
        self.basic.copy_from_slice(c64kit_basic_rom::BASIC);
        let at = (c64kit_basic_rom::KERNAL_PART_BASE - crate::kernal::rom::ROM_BASE) as usize;
        let len = usize::from(COMMODORE_BASIC_PART_END - c64kit_basic_rom::KERNAL_PART_BASE) + 1;
        self.kernal[at..at + len].copy_from_slice(&c64kit_basic_rom::KERNAL_PART[..len]);
        self.no_basic = false;
        self.own_basic = true;
    }

    /// True if drive 8 answers on the serial bus: always on our KERNAL; on a KERNAL image,
    /// when its serial routines are trapped ([`crate::kernal::serial`]: Commodore's are).
    pub fn has_drive_8(&self) -> bool {
        self.trap_kernal || crate::kernal::serial::serial_routines_trapped(&self.kernal)
    }

    /// True if `addr` in the KERNAL ROM holds our BASIC's code, not the KERNAL's.
    pub fn is_own_basic_code(&self, addr: u16) -> bool {
        let part = c64kit_basic_rom::KERNAL_PART_BASE;
        self.own_basic && (part..part + c64kit_basic_rom::KERNAL_PART.len() as u16).contains(&addr)
    }

    /// The defaults with any real images given replacing them; a KERNAL image's serial-bus
    /// routines become traps onto drive 8 ([`crate::kernal::serial`]). Our BASIC goes on inside
    /// our KERNAL image and Commodore's inside Commodore's, so they pair up: with a KERNAL
    /// image and no BASIC image, our BASIC's part replaces the image's BASIC part
    /// ($E000-$E4D2), so the KERNAL's reset still ends in a BASIC; [`RomPaths::unpaired`]
    /// says when only one is given.
    pub fn load(paths: &RomPaths) -> Result<Self, RomError> {
        if paths.basic.is_none() && paths.kernal.is_none() {
            let mut roms = Self::builtin();
            if let Some(p) = &paths.chargen {
                roms.chargen
                    .copy_from_slice(&read_image(p, "character", 0x1000)?);
            }
            return Ok(roms);
        }
        let mut roms = Self::without_basic();
        if let Some(p) = &paths.basic {
            roms.basic.copy_from_slice(&read_image(p, "BASIC", 0x2000)?);
            roms.no_basic = false;
        }
        if let Some(p) = &paths.kernal {
            roms.kernal
                .copy_from_slice(&read_image(p, "KERNAL", 0x2000)?);
            roms.trap_kernal = false;
            // Drive 8 on its serial bus (`kernal::serial`).
            crate::kernal::serial::trap_serial_routines(&mut roms.kernal);
            if paths.basic.is_none() {
                roms.put_own_basic_over_a_kernal_image();
            }
        }
        if let Some(p) = &paths.chargen {
            roms.chargen
                .copy_from_slice(&read_image(p, "character", 0x1000)?);
        }
        Ok(roms)
    }
}

fn read_image(path: &Path, what: &'static str, want: usize) -> Result<Vec<u8>, RomError> {
    let bytes = c64kit_files::read(path, want as u64, &format!("a {what} ROM image"))
        .map_err(RomError::Read)?;
    if bytes.len() != want {
        return Err(RomError::Size {
            path: path.display().to_string(),
            what,
            want,
            got: bytes.len(),
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kernal_image_alone_gets_our_basic_over_its_basic_part() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kernal.bin");
        // Each byte its offset's low 7 bits (no JAM, so no byte looks like our filler).
        let image: Vec<u8> = (0..0x2000).map(|i| (i & 0x7F) as u8 | 0x80).collect();
        std::fs::write(&path, &image).unwrap();
        let roms = Roms::load(&RomPaths {
            kernal: Some(path),
            ..RomPaths::default()
        })
        .unwrap();
        assert!(roms.runs_basic() && roms.own_basic && !roms.trap_kernal);
        assert_eq!(&roms.basic[..], &c64kit_basic_rom::BASIC[..]);
        let part_end = usize::from(COMMODORE_BASIC_PART_END - 0xE000) + 1;
        assert_eq!(
            &roms.kernal[..part_end],
            &c64kit_basic_rom::KERNAL_PART[..part_end]
        );
        // The KERNAL's own code is the image's (the serial routines aside, trapped for
        // drive 8 only where they are laid out as Commodore's, which this image's are not).
        assert_eq!(&roms.kernal[part_end..], &image[part_end..]);
    }

    #[test]
    fn our_basic_ends_before_the_kernal_code_of_commodores_image() {
        // Our BASIC's last byte of code in the KERNAL ROM (after it only the JAM filler, and
        // the one JAM at $E4DF that no routine uses any more).
        let part = c64kit_basic_rom::KERNAL_PART;
        let used = part[..part.len() - 1]
            .iter()
            .rposition(|b| *b != BASIC_FILLER)
            .unwrap();
        assert!(
            used <= usize::from(COMMODORE_BASIC_PART_END - 0xE000),
            "our BASIC reaches ${:04X}",
            0xE000 + used
        );
    }
}
