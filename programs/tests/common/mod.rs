//! What the real-KERNAL test files share: Commodore's ROM images from `C64KIT_ROMS` (CI has
//! none: the tests that need them say so and pass).

use c64kit_machine::{RomPaths, Roms};

/// Commodore's BASIC and KERNAL from the folder `C64KIT_ROMS` names; `None` after saying so
/// when it is not set.
pub fn real_roms() -> Option<Roms> {
    let Some(dir) = std::env::var_os("C64KIT_ROMS") else {
        println!("C64KIT_ROMS is not set: no comparison with Commodore's ROMs");
        return None;
    };
    let dir = std::path::PathBuf::from(dir);
    let paths = RomPaths::commodores_basic_and_kernal_in(&dir);
    Some(Roms::load(&paths).expect("the ROM images in C64KIT_ROMS"))
}
