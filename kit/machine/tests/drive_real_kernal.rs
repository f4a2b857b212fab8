//! Drive 8 through Commodore's KERNAL: its serial-bus routines are trapped onto c64kit's
//! drive (kit/machine/src/kernal/serial.rs), so BASIC's SAVE, LOAD, LOAD"$", OPEN, PRINT#,
//! INPUT#, GET#, CLOSE and the status channel work on Commodore's ROMs with every rule of
//! the drive folder. Each program runs twice, on Commodore's BASIC and KERNAL and on
//! Commodore's BASIC over our KERNAL (whose drive 8 is the same `Drive`, reached by its own
//! traps), each over a scratch folder of its own with the same files: the screens, the ST
//! values printed and the folders afterwards must be the same; and each says what it must
//! show on its own. They need Commodore's ROM images (`C64KIT_ROMS`, a folder: CI has
//! none) and say they were skipped without them.

use c64kit_basic::parse_key_script;
use c64kit_machine::{Drive, Machine, Prg, Program, Roms, RunSettings, StopReason};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// More than any program here takes (a LOAD of 2,540 bytes takes about 6 s of C64 time).
const BUDGET: u64 = 60 * c64kit_machine::PAL_HZ;

mod common;

use common::{commodores_basic_on_our_kernal, commodores_roms_in as commodores};

fn rom_dir() -> Option<PathBuf> {
    let dir = common::rom_dir();
    if dir.is_none() {
        common::no_roms("drive 8 through Commodore's KERNAL is not tested");
    }
    dir
}

/// Commodore's BASIC (with its part of the KERNAL ROM) over our KERNAL.
fn commodores_basic_on_ours() -> Roms {
    commodores_basic_on_our_kernal().expect("C64KIT_ROMS, checked by the caller")
}

/// What a run left.
struct Run {
    stop: StopReason,
    screen: Vec<String>,
    /// The drive folder's files and their bytes afterwards.
    folder: BTreeMap<String, Vec<u8>>,
    /// Files written beside the drive folder (never: the folder confines the drive).
    beside: Vec<String>,
    notes: Vec<String>,
}

impl Run {
    fn shows(&self, text: &str) -> bool {
        self.screen.iter().any(|l| l.contains(text))
    }

    fn screen(&self) -> String {
        self.screen.join("\n")
    }
}

/// Runs `source` (RUN, then `keys` typed at READY.) with drive 8 over a scratch folder
/// "disk" holding `files`, writable or not.
fn run(roms: Roms, source: &str, keys: &str, files: &[(&str, &[u8])], writable: bool) -> Run {
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let folder = scratch.path().join("disk");
    std::fs::create_dir(&folder).unwrap();
    for (name, bytes) in files {
        std::fs::write(folder.join(name), bytes).unwrap();
    }
    let prg = c64kit_basic::tokenize(source, 0x0801).expect("the program tokenizes");
    let program = Program::from_prg(&Prg::parse(&prg, "the test program").unwrap());
    let drive = if writable {
        Drive::writable(&folder)
    } else {
        Drive::read_only(&folder)
    };
    let settings = RunSettings {
        roms,
        drive,
        keys: parse_key_script(keys).expect("a key script"),
        ..RunSettings::default()
    };
    let mut m = Machine::start(Some(&program), settings).expect("the program starts");
    let stop = m.run(BUDGET);
    m.kernal.drive.finish();
    let files = |dir: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        v
    };
    Run {
        stop,
        screen: m.screen_text(),
        folder: files(&folder)
            .into_iter()
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read(&p).unwrap())
            })
            .collect(),
        beside: files(scratch.path())
            .into_iter()
            .filter(|p| *p != folder)
            .map(|p| p.display().to_string())
            .collect(),
        notes: m
            .kernal
            .drive
            .take_notes()
            .into_iter()
            .map(|n| n.replace(&folder.display().to_string(), "DISK"))
            .collect(),
    }
}

/// Runs the program on Commodore's KERNAL and on ours (both with Commodore's BASIC): they
/// must leave the same screen and folder. Returns the run on Commodore's KERNAL.
fn both(dir: &Path, source: &str, keys: &str, files: &[(&str, &[u8])], writable: bool) -> Run {
    let real = run(commodores(dir), source, keys, files, writable);
    let ours = run(commodores_basic_on_ours(), source, keys, files, writable);
    println!(
        "Commodore's KERNAL:\n{}\nnotes: {:?}",
        real.screen(),
        real.notes
    );
    assert_eq!(real.stop, StopReason::ReturnedToBasic, "{}", real.screen());
    assert_eq!(ours.stop, real.stop, "{}", ours.screen());
    assert_eq!(
        real.screen(),
        ours.screen(),
        "the screens differ (left: Commodore's KERNAL, right: ours)"
    );
    assert_eq!(real.folder, ours.folder, "the folders differ");
    assert_eq!(real.notes, ours.notes, "the drive's notes differ");
    assert!(
        real.beside.is_empty(),
        "written outside the folder: {:?}",
        real.beside
    );
    real
}

#[test]
fn save_then_load_then_list() {
    let Some(dir) = rom_dir() else { return };
    let source = "10 PRINT \"HELLO\"\n20 A=1\n";
    let r = both(
        &dir,
        source,
        "SAVE\"X\",8\nNEW\nLIST\nLOAD\"X\",8\nLIST\n",
        &[],
        true,
    );
    // The file holds the program as SAVE sends it: its address, then the lines.
    let prg = c64kit_basic::tokenize(source, 0x0801).unwrap();
    assert_eq!(r.folder.get("x"), Some(&prg), "the saved file");
    // Direct mode: the KERNAL's messages, then the program listed again after the LOAD.
    for line in [
        "SAVING X",
        "SEARCHING FOR X",
        "LOADING",
        "10 PRINT \"HELLO\"",
        "20 A=1",
    ] {
        assert!(
            r.shows(line),
            "{line:?} is not on the screen:\n{}",
            r.screen()
        );
    }
}

/// VERIFY against the program in memory, then after a change; LOAD",8,1 to the file's own
/// address (here $C000, outside BASIC's program).
#[test]
fn verify_and_load_to_its_own_address() {
    let Some(dir) = rom_dir() else { return };
    let r = both(
        &dir,
        "10 REM\n",
        "SAVE\"P\",8\nVERIFY\"P\",8\nPOKE 2054,65\nVERIFY\"P\",8\nLOAD\"C\",8,1\n\
         PRINT PEEK(49152);PEEK(49153)\n",
        &[("c", &[0x00, 0xC0, 0x12, 0x34])],
        true,
    );
    for line in ["VERIFYING", "OK", "?VERIFY  ERROR", " 18  52"] {
        assert!(
            r.shows(line),
            "{line:?} is not on the screen:\n{}",
            r.screen()
        );
    }
}

#[test]
fn load_dollar_lists_the_folder() {
    let Some(dir) = rom_dir() else { return };
    let r = both(
        &dir,
        "10 REM\n",
        "LOAD\"$\",8\nLIST\n",
        &[("game.prg", &[0x01, 0x08, 0, 0]), ("notes", &[0; 300])],
        false,
    );
    for line in [
        "0 \"DISK",
        "1    \"GAME\"",
        "2    \"NOTES\"",
        "BLOCKS FREE.",
    ] {
        assert!(
            r.shows(line),
            "{line:?} is not on the screen:\n{}",
            r.screen()
        );
    }
}

/// The status channel: the drive's message after power-on, after a command, after an error.
#[test]
fn the_status_channel() {
    let Some(dir) = rom_dir() else { return };
    let r = both(
        &dir,
        "10 OPEN 15,8,15:GOSUB 100\n\
         20 PRINT#15,\"S0:NONE\":GOSUB 100\n\
         30 PRINT#15,\"X\":GOSUB 100:CLOSE 15\n\
         40 OPEN 15,8,15,\"I\":GOSUB 100:CLOSE 15:END\n\
         100 INPUT#15,A,B$,C,D:PRINT A;B$;C;D;ST:RETURN\n",
        "",
        &[],
        true,
    );
    for line in [
        " 73 CBM DOS V2.6 1541 0  0  64",
        " 1 FILES SCRATCHED 0  0  64",
        " 31 SYNTAX ERROR 0  0  64",
        " 0 OK 0  0  64",
    ] {
        assert!(
            r.shows(line),
            "{line:?} is not on the screen:\n{}",
            r.screen()
        );
    }
}

/// A sequential file written with PRINT# and read back with INPUT# and GET#, to its end
/// (ST = 64 with the last byte).
#[test]
fn files_written_and_read_back() {
    let Some(dir) = rom_dir() else { return };
    let r = both(
        &dir,
        "10 OPEN 2,8,2,\"F,S,W\":PRINT#2,\"HELLO\";\",\";1:PRINT#2,\"AB\":CLOSE 2\n\
         20 OPEN 2,8,2,\"F,S,R\":INPUT#2,A$,B:PRINT A$;B;ST:INPUT#2,C$:PRINT C$;ST:CLOSE 2\n\
         30 OPEN 2,8,2,\"F,S,R\"\n\
         40 GET#2,A$:PRINT ASC(A$+CHR$(0));:IF ST=0 THEN 40\n\
         50 PRINT \"/\";ST:GET#2,A$:PRINT ASC(A$+CHR$(0));ST:CLOSE 2\n\
         60 OPEN 3,8,3,\"NONE,S,R\":GET#3,A$:PRINT \"NONE\";ST:CLOSE 3\n",
        "",
        &[],
        true,
    );
    assert_eq!(
        r.folder.get("f").map(Vec::as_slice),
        Some(&b"HELLO, 1 \rAB\r"[..]),
        "the file written"
    );
    for line in [
        "HELLO 1  0",
        "AB 64",
        " 72  69  76  76  79  44  32  49  32  13",
        " 65  66  13 / 64",
        // Past the end: CHKIN clears ST, the drive sends nothing: the read times out.
        " 199  66",
        "NONE 66",
    ] {
        assert!(
            r.shows(line),
            "{line:?} is not on the screen:\n{}",
            r.screen()
        );
    }
}

/// Without a writable folder every write is refused as on our KERNAL: SAVE ends READY.
/// with ST 0, the status channel says why, nothing is written.
#[test]
fn writes_to_a_read_only_drive_are_refused() {
    let Some(dir) = rom_dir() else { return };
    let r = both(
        &dir,
        "10 SAVE \"X\",8:PRINT \"ST\";ST\n\
         20 OPEN 15,8,15:INPUT#15,A,B$:PRINT A;B$\n\
         30 OPEN 2,8,2,\"F,S,W\":PRINT#2,\"HI\":CLOSE 2:INPUT#15,A,B$:PRINT A;B$:CLOSE 15\n",
        "",
        &[],
        false,
    );
    assert!(r.folder.is_empty(), "written: {:?}", r.folder.keys());
    assert!(r.shows("ST 0"), "{}", r.screen());
    assert_eq!(
        r.screen
            .iter()
            .filter(|l| l.contains(" 26 WRITE PROTECT ON"))
            .count(),
        2,
        "{}",
        r.screen()
    );
    assert!(!r.notes.is_empty(), "the refusals are noted");
}

/// FILE EXISTS, `@0:` replacing, a name that would leave the folder.
#[test]
fn the_folder_rules_hold() {
    let Some(dir) = rom_dir() else { return };
    let r = both(
        &dir,
        "10 OPEN 15,8,15\n\
         20 SAVE \"X\",8:GOSUB 100:SAVE \"X\",8:GOSUB 100\n\
         30 POKE 2049,0:SAVE \"@0:X\",8:GOSUB 100\n\
         40 SAVE \"../ESCAPE\",8:GOSUB 100:CLOSE 15:END\n\
         100 INPUT#15,A,B$:PRINT A;B$:RETURN\n",
        "",
        &[],
        true,
    );
    for line in [" 0 OK", " 63 FILE EXISTS", " 30 SYNTAX ERROR"] {
        assert!(
            r.shows(line),
            "{line:?} is not on the screen:\n{}",
            r.screen()
        );
    }
    assert_eq!(r.folder.len(), 1, "{:?}", r.folder.keys());
    // The second SAVE kept the first file; @0: replaced it with the program as changed.
    assert_eq!(r.folder["x"][2], 0, "the replaced file");
}

/// A file opened without a secondary address (SA 255): CHKIN makes the drive talk with TALK
/// and TKSA's second half (TKATN) alone (which on the bus would wait for a talker), CHKOUT
/// with LISTEN alone; c64kit's drive, as with our KERNAL, has no channel for such a file:
/// a read times out, a write is dropped.
#[test]
fn a_file_without_a_secondary_address() {
    let Some(dir) = rom_dir() else { return };
    let r = both(
        &dir,
        "10 OPEN 1,8,255,\"C\":GET#1,A$:PRINT \"IN\";ST;ASC(A$+CHR$(0))\n\
         20 PRINT#1,\"X\":PRINT \"OUT\";ST:CLOSE 1\n",
        "",
        &[("c", b"AB")],
        true,
    );
    for line in ["IN 66  199", "OUT 0"] {
        assert!(
            r.shows(line),
            "{line:?} is not on the screen:\n{}",
            r.screen()
        );
    }
}

/// A program that sends the drive code to run (M-E after M-W, as fast loaders do) needs a
/// 1541's processor: the run stops there on both KERNALs, as c64kit does not provide it.
#[test]
fn drive_code_stops_the_run() {
    let Some(dir) = rom_dir() else { return };
    let source = "10 OPEN 15,8,15,\"M-W\"+CHR$(0)+CHR$(3)+CHR$(1)+CHR$(96)\n\
                  20 PRINT#15,\"M-E\"+CHR$(0)+CHR$(3)\n30 PRINT \"NOT HERE\"\n";
    for roms in [commodores(&dir), commodores_basic_on_ours()] {
        let r = run(roms, source, "", &[], false);
        assert!(
            matches!(r.stop, StopReason::Unimplemented { .. }),
            "{:?}\n{}",
            r.stop,
            r.screen()
        );
        assert!(!r.shows("NOT HERE"), "{}", r.screen());
        assert!(r.notes.iter().any(|n| n.contains("M-E")), "{:?}", r.notes);
    }
}

/// Only drive 8 answers: device 9 is not present, for LOAD, SAVE and OPEN.
#[test]
fn device_9_is_not_present() {
    let Some(dir) = rom_dir() else { return };
    let r = both(
        &dir,
        "10 PRINT \"GO\"\n",
        "LOAD\"X\",9\nSAVE\"X\",9\nOPEN 1,9,2,\"F\"\nPRINT ST\n",
        &[],
        true,
    );
    assert_eq!(
        r.screen
            .iter()
            .filter(|l| l.contains("?DEVICE NOT PRESENT  ERROR"))
            .count(),
        3,
        "{}",
        r.screen()
    );
    // ST's bit 7 (BASIC's ST is signed).
    assert!(r.shows("-128"), "ST after OPEN:\n{}", r.screen());
}

/// A LOAD takes the time a 1541 takes: about 400 bytes a second, which TI shows.
#[test]
fn a_load_takes_a_real_drives_time() {
    let Some(dir) = rom_dir() else { return };
    let big = [0u8, 0xC0]
        .into_iter()
        .chain([0x55; 2540])
        .collect::<Vec<_>>();
    let r = run(
        commodores(&dir),
        "10 IF A=0 THEN A=1:T=TI:LOAD \"BIG\",8,1\n20 PRINT \"JIFFIES\";TI-T\n",
        "",
        &[("big", &big)],
        false,
    );
    let jiffies: u32 = r
        .screen
        .iter()
        .find_map(|l| l.strip_prefix("JIFFIES"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no time on the screen:\n{}", r.screen()));
    // 2,542 bytes at 400 a second: 6.4 s, 381 jiffies (5% either way).
    assert!((362..=400).contains(&jiffies), "{jiffies} jiffies");
}

/// The serial routines' protocol on drive 8, without Commodore's ROMs (so CI runs it): our
/// KERNAL image taken as a real one (no routine of ours runs), its serial routines trapped
/// as Commodore's are (its jump table is the real one), called by a program of ours: an
/// OPEN, data and a CLOSE as the KERNAL sends them, the status channel read to its EOI, a
/// read time-out, device 9, and the registers each routine leaves.
#[test]
fn the_serial_routines_speak_the_bus_protocol() {
    let source = r#"
listen  = $ffb1
talk    = $ffb4
second  = $ff93
tksa    = $ff96
ciout   = $ffa8
acptr   = $ffa5
untlk   = $ffab
unlsn   = $ffae
st      = $90

        *=$c000
        lda #$7f                ; no timer interrupt (our IRQ handler is not there)
        sta $dc0d
        lda $dc0d
        lda #0
        sta st
        lda #8                  ; OPEN 2,8,2,"F,S,W"
        jsr listen
        lda #$f2
        jsr second
        ldy #0
@name   lda name,y
        jsr ciout
        iny
        cpy #5
        bne @name
        jsr unlsn
        lda #8                  ; PRINT#2
        jsr listen
        lda #$62
        jsr second
        lda #$48
        jsr ciout
        lda #$49
        jsr ciout
        jsr unlsn
        lda #8                  ; CLOSE 2: the file is written
        jsr listen
        lda #$e2
        jsr second
        jsr unlsn
        lda st
        sta $c100
        lda #8                  ; the status channel, up to EOI
        jsr talk
        lda #$6f
        jsr tksa
        ldy #0
@status jsr acptr
        sta $c200,y
        iny
        bit st
        bvc @status
        jsr untlk
        sty $c101
        lda st
        sta $c102
        lda #0                  ; channel 3 has no file: the read times out
        sta st
        lda #8
        jsr talk
        lda #$63
        jsr tksa
        sei
        ldx #$11
        ldy #$22
        sec
        jsr acptr
        php
        sta $c103
        pla
        sta $c104
        stx $c105
        sty $c106
        jsr untlk
        lda st
        sta $c107
        lda #0                  ; device 9 is not there
        sta st
        lda #9
        jsr listen
        lda st
        sta $c108
        lda #$6f
        jsr second
        jsr unlsn
        lda st
        sta $c109
        byte $02                ; the end
name    byte $46,$2c,$53,$2c,$57
"#;
    let asm = c64kit_asm::assemble_source("serial.asm", source, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut roms = Roms::builtin();
    roms.trap_kernal = false;
    // An image whose jump table leads elsewhere keeps its code: no drive answers there.
    let mut other = roms.kernal.clone();
    other[0xFFB2 - 0xE000] = 0x00;
    let before = other.clone();
    assert!(!c64kit_machine::kernal::serial::trap_serial_routines(
        &mut other
    ));
    assert_eq!(other, before, "the image is left as it was");
    assert!(c64kit_machine::kernal::serial::trap_serial_routines(
        &mut roms.kernal
    ));
    assert!(roms.has_drive_8());
    // The same routines are our KERNAL's own entries: the same results.
    let real = protocol(roms, &asm);
    assert_eq!(protocol(Roms::builtin(), &asm), real, "on our KERNAL");
    let (results, file, took) = real;
    let peek = |a: u16| results[(a - 0xC100) as usize];
    assert_eq!(file, b"HI");
    assert_eq!(peek(0xC100), 0, "ST after OPEN, PRINT#, CLOSE");
    let status: Vec<u8> = (0..peek(0xC101) as u16).map(|i| peek(0xC200 + i)).collect();
    assert_eq!(status, b"00, OK,00,00\r", "the status channel");
    assert_eq!(peek(0xC102), 0x40, "ST: EOI with the last byte");
    // The time-out: A = CIA 2's port with the lines released (VIC bank 0: $C7), N from it,
    // C and I clear; X and Y kept; ST $42.
    assert_eq!(peek(0xC103), 0xC7, "A after a time-out");
    assert_eq!(
        peek(0xC104) & 0x87,
        0x80,
        "N, I, Z, C: N set, the rest clear"
    );
    assert_eq!((peek(0xC105), peek(0xC106)), (0x11, 0x22), "X and Y kept");
    assert_eq!(peek(0xC107), 0x42, "ST after the time-out");
    assert_eq!(peek(0xC108), 0x80, "ST after LISTEN 9");
    assert_eq!(peek(0xC109), 0x80, "ST after SECOND and UNLSN");
    // 11 bytes under ATN, 7 data bytes sent, 14 received, a time-out: the drive's time.
    assert!((50_000..80_000).contains(&took), "{took} cycles");
}

/// Runs the protocol program: what it stored at $C100-$C2FF, the file F it wrote, cycles.
fn protocol(roms: Roms, asm: &c64kit_asm::Assembly) -> (Vec<u8>, Vec<u8>, u64) {
    let folder = tempfile::tempdir().unwrap();
    let mut m = Machine::new(roms);
    m.kernal.drive = Drive::writable(folder.path());
    m.load_raw(asm.load_address, &asm.bytes);
    m.start_at(0xC000, 0x0801);
    let start = m.cycles();
    let stop = m.run(10_000_000);
    let end = asm.load_address + asm.bytes.len() as u16 - 6;
    assert_eq!(stop, StopReason::Jammed { pc: end, opcode: 2 });
    let results = (0xC100..0xC300).map(|a| m.peek(a)).collect();
    let file = std::fs::read(folder.path().join("f")).unwrap_or_default();
    (results, file, m.cycles() - start)
}
