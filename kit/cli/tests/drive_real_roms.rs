//! Drive 8 with Commodore's ROM images on the command line: `--drive-dir` is the folder
//! their KERNAL's serial bus reaches (kit/machine/src/kernal/serial.rs), writes without it
//! are refused as with c64kit's own KERNAL, and a cc65 program's `fopen` works on it. Those
//! need the images (`C64KIT_ROMS`, a folder: CI has none) and say they were skipped
//! without them. A KERNAL image c64kit cannot connect the drive to is named in a warning.

mod common;

use common::{
    c64kit, commodores_rom_args, commodores_roms, stderr_of, stdout_of, stub_asm, temp_dir, write,
};
use std::path::Path;
use std::process::Command;

/// Enough for every program here (a few hundred bytes through a 1541 take about a second).
const MAX_CYCLES: &str = "20000000";

/// OPEN 2,8,2,"OUT,S,W", "HI" through CHKOUT and CHROUT, CLOSE, then a loop: what a
/// program writing a file does, on any KERNAL.
fn writer() -> Vec<u8> {
    stub_asm(
        r#"
        lda #7
        ldx #<name
        ldy #>name
        jsr $ffbd           ; SETNAM
        lda #2
        ldx #8
        ldy #2
        jsr $ffba           ; SETLFS
        jsr $ffc0           ; OPEN
        ldx #2
        jsr $ffc9           ; CHKOUT
        lda #$48
        jsr $ffd2
        lda #$49
        jsr $ffd2
        jsr $ffcc           ; CLRCHN
        lda #2
        jsr $ffc3           ; CLOSE
@end    jmp @end
name    byte $4f,$55,$54,$2c,$53,$2c,$57
"#,
    )
}

#[test]
fn drive_dir_is_drive_8_on_commodores_kernal() {
    let Some(roms) = commodores_roms("drive 8") else {
        return;
    };
    let dir = temp_dir("drive-real-roms");
    let disk = dir.join("disk");
    std::fs::create_dir(&disk).unwrap();
    let prg = write(&dir, "writer.prg", &writer());
    let out = c64kit()
        .current_dir(&dir)
        .args([
            "run",
            &prg,
            "-q",
            "--max-cycles",
            MAX_CYCLES,
            "--drive-dir",
            "disk",
        ])
        .args(commodores_rom_args(&roms))
        .assert();
    let err = stderr_of(&out);
    assert_eq!(
        std::fs::read(disk.join("out")).ok().as_deref(),
        Some(&b"HI"[..]),
        "{err}"
    );
    assert!(!err.contains("warning"), "{err}");
    // Without --drive-dir the current folder is read-only, as with c64kit's KERNAL: the
    // file is not written and the refusal is noted.
    let out = c64kit()
        .current_dir(&disk)
        .args(["run", &prg, "-q", "--max-cycles", MAX_CYCLES])
        .args(commodores_rom_args(&roms))
        .assert();
    let err = stderr_of(&out);
    assert!(
        err.contains("26,WRITE PROTECT ON") && err.contains("--drive-dir DIR"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(&disk).unwrap().count(),
        1,
        "only the first run's file"
    );
}

/// cc65's stdio on drive 8 (tests/cc65/files.c: fopen, fputs, fgets, fwrite, fread) with
/// Commodore's KERNAL: the files it writes, and what it prints. The run may not end by
/// itself on Commodore's ROMs yet: it is bounded, and the screen and folder are checked.
#[test]
fn cc65_fopen_on_commodores_kernal() {
    let Some(roms) = commodores_roms("drive 8") else {
        return;
    };
    if Command::new("cl65").arg("--version").output().is_err() {
        eprintln!("SKIPPED: cc65's cl65 is not installed, so no C program ran");
        return;
    }
    let dir = temp_dir("drive-real-roms-cc65");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cc65/files.c");
    std::fs::copy(&source, dir.join("files.c")).unwrap();
    let built = Command::new("cl65")
        .current_dir(&dir)
        .args(["-t", "c64", "-O", "-o", "files.prg", "files.c"])
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let disk = dir.join("disk");
    std::fs::create_dir(&disk).unwrap();
    // "Given File\n" as cc65 writes text on a CBM.
    std::fs::write(disk.join("given"), b"\xc7IVEN \xc6ILE\r").unwrap();
    let prg = dir.join("files.prg").display().to_string();
    let out = c64kit()
        .current_dir(&dir)
        .args([
            "run",
            &prg,
            "-q",
            "--dump-screen",
            "--max-cycles",
            MAX_CYCLES,
        ])
        .args(["--drive-dir", "disk"])
        .args(commodores_rom_args(&roms))
        .assert();
    let screen = stdout_of(&out);
    for line in [
        "read: Line one",
        "read: Line Two",
        "bytes: 256 back, same",
        "given: Given File",
    ] {
        assert!(
            screen.contains(line),
            "{line:?} is not on the screen:\n{screen}\n{}",
            stderr_of(&out)
        );
    }
    assert_eq!(
        std::fs::read(disk.join("notes")).unwrap(),
        b"\xccINE ONE\r\xccINE \xd4WO\r"
    );
    let bytes: Vec<u8> = (0..=255u8).rev().collect();
    assert_eq!(std::fs::read(disk.join("bytes")).unwrap(), bytes);
}

/// A KERNAL image whose jump table is not Commodore's cannot have drive 8: `--drive-dir`
/// says it has no effect rather than being ignored.
#[test]
fn drive_dir_on_a_kernal_without_drive_8_is_a_warning() {
    let dir = temp_dir("drive-real-roms-other");
    let kernal = write(&dir, "other.bin", &[0xEA; 0x2000]);
    let prg = write(&dir, "writer.prg", &writer());
    let out = c64kit()
        .current_dir(&dir)
        .args([
            "run",
            &prg,
            "-q",
            "--max-cycles",
            "1000",
            "--drive-dir",
            ".",
        ])
        .args(["--kernal-rom", &kernal])
        .assert();
    let err = stderr_of(&out);
    assert!(
        err.contains("--drive-dir has no effect") && err.contains("other.bin"),
        "{err}"
    );
}
