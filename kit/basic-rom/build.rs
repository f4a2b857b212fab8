//! Assembles our BASIC (programs/basic/basic.cbmprj) into the two parts of the C64's ROM it
//! occupies, as Commodore's does: $A000-$BFFF (the BASIC ROM) and $E000-$E4DF (the start of
//! the KERNAL ROM, below the KERNAL's own code). Nothing may be assembled anywhere else. An
//! assembly error is a build error naming the file and line.

use std::path::PathBuf;

const BASIC: (u32, u32) = (0xA000, 0xBFFF);
const KERNAL_PART: (u32, u32) = (0xE000, 0xE4DF);
/// Gaps read as JAM: a jump into one stops the run instead of running garbage.
const FILLER: u8 = 0x02;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let folder = root.join("../../programs/basic");
    let project = folder.join("basic.cbmprj");
    println!("cargo:rerun-if-changed={}", folder.display());
    println!("cargo:rerun-if-changed=build.rs");
    let a = match c64kit_asm::assemble_path(&project, &c64kit_asm::Options::default()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("our BASIC does not assemble: {}:\n{e}", project.display());
            std::process::exit(1);
        }
    };
    for w in &a.warnings {
        println!("cargo:warning=programs/basic: {w}");
    }
    let mut basic = vec![FILLER; 0x2000];
    let mut kernal_part = vec![FILLER; (KERNAL_PART.1 - KERNAL_PART.0 + 1) as usize];
    let mut outside = Vec::new();
    for (i, &b) in a.bytes.iter().enumerate() {
        let addr = a.load_address as u32 + i as u32;
        if (BASIC.0..=BASIC.1).contains(&addr) {
            basic[(addr - BASIC.0) as usize] = b;
        } else if (KERNAL_PART.0..=KERNAL_PART.1).contains(&addr) {
            kernal_part[(addr - KERNAL_PART.0) as usize] = b;
        } else if b != FILLER {
            outside.push(addr);
        }
    }
    // The gap between the parts is padding; a label there is code in the wrong place.
    outside.extend(a.labels.values().map(|&v| v as u32).filter(|v| {
        !(BASIC.0..=BASIC.1).contains(v) && !(KERNAL_PART.0..=KERNAL_PART.1).contains(v)
    }));
    if let Some(addr) = outside.first() {
        eprintln!(
            "our BASIC has code at ${addr:04X}: it must stay in $A000-$BFFF and $E000-$E4DF \
             (see programs/basic/README.md)"
        );
        std::process::exit(1);
    }
    std::fs::write(out.join("basic.bin"), basic).expect("OUT_DIR is writable");
    std::fs::write(out.join("kernal-part.bin"), kernal_part).expect("OUT_DIR is writable");
    std::fs::write(out.join("basic.lbl"), a.vice_labels()).expect("OUT_DIR is writable");
}
