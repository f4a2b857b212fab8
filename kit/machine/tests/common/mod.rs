//! What the BASIC test files (basic_*.rs) share: Commodore's ROM images from `C64KIT_ROMS`
//! (CI has none: the tests that need them say so and pass), one file of programs/basic
//! assembled and laid over Commodore's BASIC at its own addresses, the programs of
//! ../shared/basic-v2, a CHROUT stream as text, and RUN by BASIC's own routines.
//!
//! Each test file is a crate of its own that uses a part of this module.
#![allow(dead_code)]

use c64kit_machine::{Machine, RomPaths, Roms, StopReason};
use std::path::{Path, PathBuf};

// ---- Commodore's ROMs ----------------------------------------------------------------------

/// The folder `C64KIT_ROMS` names (Commodore's images under VICE's names), if it is set.
pub fn rom_dir() -> Option<PathBuf> {
    std::env::var_os("C64KIT_ROMS").map(PathBuf::from)
}

/// Says that a test (or a part of one) is not run without Commodore's images: `what`.
pub fn no_roms(what: &str) {
    println!("C64KIT_ROMS is not set: {what}");
}

/// Commodore's BASIC and KERNAL images from `dir` (the character ROM stays c64kit's).
pub fn commodores_roms_in(dir: &Path) -> Roms {
    Roms::load(&RomPaths::commodores_basic_and_kernal_in(dir))
        .expect("the ROM images in C64KIT_ROMS")
}

/// Commodore's BASIC and KERNAL, if `C64KIT_ROMS` is set.
pub fn commodores_roms() -> Option<Roms> {
    rom_dir().map(|dir| commodores_roms_in(&dir))
}

/// Commodore's BASIC on our KERNAL (whose transcript records CHROUT and whose drive 8
/// LOADs and SAVEs), with BASIC's part of Commodore's KERNAL image ($E000-$E4DF, where
/// our KERNAL leaves room for a BASIC), if `C64KIT_ROMS` is set.
pub fn commodores_basic_on_our_kernal() -> Option<Roms> {
    let dir = rom_dir()?;
    let read =
        |name: &str| std::fs::read(dir.join(name)).expect("Commodore's images in C64KIT_ROMS");
    let basic: [u8; 0x2000] = read(c64kit_machine::roms::COMMODORE_BASIC_IMAGE)
        .try_into()
        .expect("an 8 KiB BASIC image");
    let kernal = read(c64kit_machine::roms::COMMODORE_KERNAL_IMAGE);
    let mut roms = Roms::builtin();
    roms.put_basic_over_our_kernal(&basic, &kernal);
    Some(roms)
}

// ---- one file of our BASIC over Commodore's --------------------------------------------------

/// programs/basic, our BASIC's source.
pub fn basic_source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../programs/basic")
}

/// programs/basic's `file` after the files every part needs (BASIC's RAM, the KERNAL's
/// names, the error numbers), assembled alone: `defines` give the routines of the other
/// files it calls (Commodore's addresses, from memory maps). `edit` may change the file's
/// text first (exec.asm moved $2000 higher).
pub fn assemble_part(
    file: &str,
    defines: &[(&str, u16)],
    edit: impl FnOnce(String) -> String,
) -> c64kit_asm::Assembly {
    let dir = basic_source_dir();
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("programs/basic/{name}: {e}"))
    };
    let text = [
        read("zeropage.asm"),
        read("kernal.asm"),
        read("errors.asm"),
        edit(read(file)),
    ]
    .join("\n");
    let options = c64kit_asm::Options {
        defines: defines
            .iter()
            .map(|&(name, addr)| (name.to_string(), addr as i64))
            .collect(),
        ..Default::default()
    };
    c64kit_asm::assemble_source(file, &text, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// The bytes `asm` assembled into `areas` ((first, last) address), in place of the ROM
/// bytes there: the BASIC image ($A000-$BFFF) or the KERNAL image ($E000-$FFFF, where
/// BASIC goes on). Where an area goes on past the file's last byte, the ROM's stay.
pub fn lay_over(roms: &mut Roms, asm: &c64kit_asm::Assembly, areas: &[(u16, u16)]) {
    for &(first, last) in areas {
        for addr in first..=last {
            let Some(&b) = addr
                .checked_sub(asm.load_address)
                .and_then(|i| asm.bytes.get(usize::from(i)))
            else {
                continue;
            };
            match addr {
                0xA000..=0xBFFF => roms.basic[(addr - 0xA000) as usize] = b,
                0xE000..=0xFFFF => roms.kernal[(addr - 0xE000) as usize] = b,
                _ => panic!("${addr:04X} is in no ROM"),
            }
        }
    }
}

/// An assembly's label (any case), or a panic naming the file.
pub fn label_in(asm: &c64kit_asm::Assembly, file: &str, name: &str) -> u16 {
    asm.labels
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, &at)| at)
        .unwrap_or_else(|| panic!("{file} has no {name}"))
}

/// Commodore's statement dispatch table (STMDSP): for each token from $80 on, its
/// handler's address minus one (the statement loop pushes it and RTSes).
pub const STATEMENT_TABLE: u16 = 0xA00C;

/// The statement `token`'s entry in the BASIC image's dispatch table pointed at `handler`.
pub fn point_statement(roms: &mut Roms, token: u8, handler: u16) {
    let at = (STATEMENT_TABLE - 0xA000) as usize + 2 * (token - 0x80) as usize;
    roms.basic[at..at + 2].copy_from_slice(&(handler - 1).to_le_bytes());
}

// ---- RUN by BASIC's routines -------------------------------------------------------------

/// Where [`run_program`]'s driver goes (the cassette buffer).
pub const RUN_DRIVER: u16 = 0x033C;

/// LDA #0; JSR SETMSG (KERNAL messages off, as RUN does); JSR RUNC; JMP NEWSTT (at
/// Commodore's addresses, where ours are too).
pub const RUN_DRIVER_CODE: [u8; 11] = [
    0xA9, 0x00, 0x20, 0x90, 0xFF, 0x20, 0x59, 0xA6, 0x4C, 0xAE, 0xA7,
];

/// A C64 on `roms` with `program` (BASIC text, tokenized at $0801) loaded, `prepare` done
/// (more code in RAM), and RUN ready to start by the driver at [`RUN_DRIVER`], `keys` to
/// be typed when it reads the keyboard (and after it ends).
pub fn ready_to_run(
    roms: Roms,
    program: &str,
    keys: &str,
    prepare: impl FnOnce(&mut Machine),
) -> Machine {
    let mut m = Machine::new(roms);
    let prg = c64kit_basic::tokenize(program, 0x0801).unwrap();
    m.load_raw(0x0801, &prg[2..]);
    let end = 0x0801 + prg.len() as u16 - 2;
    prepare(&mut m);
    m.load_raw(RUN_DRIVER, &RUN_DRIVER_CODE);
    m.start_at(RUN_DRIVER, end);
    m.feed_keys(c64kit_basic::parse_key_script(keys).unwrap());
    m
}

/// [`ready_to_run`], run for up to 400 million cycles: what it printed (our KERNAL's
/// transcript), how the run stopped, the cycles.
pub fn run_program(
    roms: Roms,
    program: &str,
    keys: &str,
    prepare: impl FnOnce(&mut Machine),
) -> (Vec<u8>, StopReason, u64) {
    let mut m = ready_to_run(roms, program, keys, prepare);
    let stop = m.run(400_000_000);
    (m.transcript().to_vec(), stop, m.cycles())
}

// ---- ../shared/basic-v2 --------------------------------------------------------------------

/// ../shared/basic-v2: programs and what Commodore's ROMs printed running them.
pub fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/basic-v2")
}

/// The names of the shared programs (each `NAME.bas`), sorted; None (said) if the folder is
/// not there.
pub fn shared_names() -> Option<Vec<String>> {
    let dir = shared_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!(
            "{} is not there: the shared programs not run",
            dir.display()
        );
        return None;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".bas").map(str::to_string))
        .collect();
    names.sort();
    Some(names)
}

/// A shared program's file `NAME.ext` (bas, keys, chrout, screen, meta), if there is one.
pub fn shared_file(name: &str, ext: &str) -> Option<String> {
    std::fs::read_to_string(shared_dir().join(format!("{name}.{ext}"))).ok()
}

/// A shared program's text and the keys typed while it runs (none if it has no `.keys`).
pub fn shared_program(name: &str) -> (String, String) {
    let text = shared_file(name, "bas").unwrap_or_else(|| panic!("{name}.bas is not there"));
    (text, shared_file(name, "keys").unwrap_or_default())
}

/// A `.chrout` file's bytes (hex, separated by white space).
pub fn hex_bytes(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).expect("hex"))
        .collect()
}

/// What Commodore's ROMs printed running the shared program `name`, if it was recorded.
pub fn shared_chrout(name: &str) -> Option<Vec<u8>> {
    shared_file(name, "chrout").map(|text| hex_bytes(&text))
}

/// True if the shared program `name` prints TI values (its output depends on the speed).
pub fn prints_timings(name: &str) -> bool {
    shared_file(name, "meta")
        .unwrap_or_default()
        .contains("prints_timings = true")
}

// ---- output as text ------------------------------------------------------------------------

/// A CHROUT stream as text: printable ASCII as is, CR as a new line, others as {$XX}.
pub fn readable(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            b'\r' => "\n".to_string(),
            0x20..=0x7E => (b as char).to_string(),
            _ => format!("{{${b:02X}}}"),
        })
        .collect()
}
