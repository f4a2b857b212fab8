//! Drive 8 through the binary: names that would leave the drive folder, writing without
//! consent, files that exist, the status channel, sequential files, and the folder options.

use crate::common::{c64kit, stderr_of, stdout_of, write, READY};
use std::path::Path;

/// A PRG from assembly (CBM prg Studio dialect): a "10 SYS2061" stub, then `source`.
fn program(source: &str) -> Vec<u8> {
    let text =
        format!("*=$0801\n byte $0b,$08,$0a,$00,$9e,\"2061\",0,0,0\n{source}\n{STATUS_ROUTINE}");
    let asm = c64kit_asm::assemble_source("test.asm", &text, &Default::default())
        .unwrap_or_else(|e| panic!("the test program does not assemble: {e}"));
    let mut prg = asm.load_address.to_le_bytes().to_vec();
    prg.extend_from_slice(&asm.bytes);
    prg
}

/// `status`: reads drive 8's status line from channel 15 and prints it on the screen.
const STATUS_ROUTINE: &str = r#"
status  lda #0
        jsr $ffbd               ; SETNAM: no name
        lda #15
        ldx #8
        ldy #15
        jsr $ffba               ; SETLFS 15,8,15
        jsr $ffc0               ; OPEN
        ldx #15
        jsr $ffc6               ; CHKIN 15
@char   jsr $ffcf               ; CHRIN
        jsr $ffd2               ; CHROUT (to the screen)
        cmp #13
        bne @char
        jsr $ffcc               ; CLRCHN
        lda #15
        jmp $ffc3               ; CLOSE 15
"#;

/// SAVEs the program itself ($0801 up to `end`) under `name` (raw bytes), then prints the
/// drive's status.
fn saver(name: &[u8]) -> Vec<u8> {
    let bytes: Vec<String> = name.iter().map(|b| format!("${b:02x}")).collect();
    program(&format!(
        r#"
        lda #{len}
        ldx #<name
        ldy #>name
        jsr $ffbd               ; SETNAM
        lda #1
        ldx #8
        ldy #1
        jsr $ffba               ; SETLFS 1,8,1
        lda #$01
        sta $fb
        lda #$08
        sta $fc
        lda #$fb
        ldx #<end
        ldy #>end
        jsr $ffd8               ; SAVE $0801-end
        jsr status
        rts
name    byte {list}
end
"#,
        len = name.len(),
        list = bytes.join(","),
    ))
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// Runs `prg` with `--drive-dir disk`; the run must end with `code`.
fn run_with_drive(prg: &str, disk: &Path, code: i32) -> assert_cmd::assert::Assert {
    c64kit()
        .args(["run", prg, "--drive-dir"])
        .arg(disk)
        .assert()
        .code(code)
}

/// A scratch folder with an empty drive folder "disk" in it and the program beside it.
fn setup(prg: &[u8]) -> (tempfile::TempDir, String, std::path::PathBuf) {
    let top = tempfile::tempdir().unwrap();
    let disk = top.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    let prg = write(top.path(), "prog.prg", prg);
    (top, prg, disk)
}

#[test]
fn a_name_with_a_path_is_a_syntax_error_and_nothing_is_written_outside() {
    let (top, prg, disk) = setup(&saver(b"../X"));
    let out = run_with_drive(&prg, &disk, 0);
    assert!(
        stdout_of(&out).contains("30,SYNTAX ERROR,00,00"),
        "{}",
        stdout_of(&out)
    );
    let err = stderr_of(&out);
    assert!(
        err.contains("c64kit: drive 8: SAVE \"../X\": 30,SYNTAX ERROR,00,00: "),
        "{err}"
    );
    assert!(err.contains("returned to BASIC"), "{err}");
    assert_eq!(files_in(top.path()), vec!["disk", "prog.prg"]);
    assert!(files_in(&disk).is_empty());
}

#[test]
fn an_absolute_name_is_refused() {
    let top = tempfile::tempdir().unwrap();
    let target = top.path().join("abs");
    let name = target.display().to_string();
    let (_top, prg, disk) = setup(&saver(name.as_bytes()));
    let out = run_with_drive(&prg, &disk, 0);
    assert!(stdout_of(&out).contains("30,SYNTAX ERROR,00,00"));
    assert!(stderr_of(&out).contains("30,SYNTAX ERROR,00,00"));
    assert!(!target.exists());
    assert!(files_in(&disk).is_empty());
}

#[test]
fn names_with_nul_or_control_bytes_are_refused() {
    for name in [&b"A\x00B"[..], b"A\x0dB", b"\x93"] {
        let (_top, prg, disk) = setup(&saver(name));
        let out = run_with_drive(&prg, &disk, 0);
        let err = stderr_of(&out);
        assert!(err.contains("30,SYNTAX ERROR,00,00"), "{err}");
        assert!(err.contains("control byte"), "{err}");
        assert!(files_in(&disk).is_empty(), "{name:?}");
    }
}

#[test]
fn without_a_drive_folder_save_is_write_protected_and_says_how_to_allow_it() {
    let (top, prg, _) = setup(&saver(b"NEW"));
    let out = c64kit()
        .current_dir(top.path())
        .args(["run", &prg])
        .assert()
        .code(0);
    assert!(stdout_of(&out).contains("26,WRITE PROTECT ON,00,00"));
    let err = stderr_of(&out);
    assert!(
        err.contains("c64kit: drive 8: SAVE \"NEW\": 26,WRITE PROTECT ON,00,00: "),
        "{err}"
    );
    assert!(err.contains("--drive-dir DIR"), "{err}");
    assert_eq!(files_in(top.path()), vec!["disk", "prog.prg"]);
}

#[test]
fn an_existing_file_is_kept_and_at_0_replaces_it() {
    let (_top, prg, disk) = setup(&saver(b"PROG"));
    write(&disk, "prog", b"old");
    let out = run_with_drive(&prg, &disk, 0);
    assert!(stdout_of(&out).contains("63,FILE EXISTS,00,00"));
    assert!(stderr_of(&out).contains("SAVE \"PROG\": 63,FILE EXISTS,00,00"));
    assert_eq!(std::fs::read(disk.join("prog")).unwrap(), b"old");

    let replacer = saver(b"@0:PROG");
    let (_top2, prg, _) = setup(&replacer);
    let out = run_with_drive(&prg, &disk, 0);
    assert!(
        stdout_of(&out).contains("00, OK,00,00"),
        "{}",
        stdout_of(&out)
    );
    assert!(!stderr_of(&out).contains("drive 8"), "{}", stderr_of(&out));
    // The saved file is the program up to its name, and nothing else was left in the folder.
    let saved = std::fs::read(disk.join("prog")).unwrap();
    assert!(
        replacer.starts_with(&saved) && saved.ends_with(b"@0:PROG"),
        "{saved:?}"
    );
    assert_eq!(files_in(&disk), vec!["prog"]);
}

#[test]
fn a_missing_drive_folder_is_an_error_before_the_run() {
    let (top, prg, _) = setup(&saver(b"NEW"));
    let missing = top.path().join("no-such-folder");
    let out = run_with_drive(&prg, &missing, 1);
    let err = stderr_of(&out);
    assert!(err.contains(&missing.display().to_string()), "{err}");
    assert!(err.contains("no such folder"), "{err}");
    assert_eq!(stdout_of(&out), "", "the program did not run");

    let file = write(top.path(), "plain", b"");
    let out = c64kit()
        .args(["run", &prg, "--drive-dir", &file])
        .assert()
        .code(1);
    assert!(stderr_of(&out).contains("is not a folder"));

    let config = write(top.path(), "c64kit.toml", b"drive_dir = \"gone\"\n");
    let out = c64kit()
        .args(["--config", &config, "run", &prg])
        .assert()
        .code(1);
    let err = stderr_of(&out);
    assert!(err.contains("drive_dir"), "{err}");
    assert!(
        err.contains(&top.path().join("gone").display().to_string()),
        "{err}"
    );
}

#[test]
fn drive_dir_in_the_settings_makes_the_folder_writable() {
    let (top, prg, disk) = setup(&saver(b"NEW"));
    let config = write(top.path(), "c64kit.toml", b"drive_dir = \"disk\"\n");
    let out = c64kit()
        .args(["--config", &config, "run", &prg])
        .assert()
        .code(0);
    assert!(
        stdout_of(&out).contains("00, OK,00,00"),
        "{}",
        stdout_of(&out)
    );
    assert_eq!(files_in(&disk), vec!["new"]);
}

#[test]
fn a_program_reads_the_status_channel() {
    let (_top, prg, disk) = setup(&program(
        "        jsr status\n        jsr status\n        rts",
    ));
    let out = run_with_drive(&prg, &disk, 0);
    assert_eq!(
        stdout_of(&out),
        format!("73,CBM DOS V2.6 1541,00,00\n00, OK,00,00\n{READY}")
    );
}

#[test]
fn a_sequential_file_is_written_and_read_back() {
    let (_top, prg, disk) = setup(&program(
        r#"
        lda #7
        ldx #<wname
        ldy #>wname
        jsr $ffbd
        lda #2
        ldx #8
        ldy #2
        jsr $ffba
        jsr $ffc0               ; OPEN 2,8,2,"LOG,S,W"
        ldx #2
        jsr $ffc9               ; CHKOUT 2
        ldy #0
@put    lda msg,y
        jsr $ffd2
        iny
        cpy #6
        bne @put
        jsr $ffcc
        lda #2
        jsr $ffc3               ; CLOSE 2: the file is written now
        lda #7
        ldx #<rname
        ldy #>rname
        jsr $ffbd
        lda #3
        ldx #8
        ldy #3
        jsr $ffba
        jsr $ffc0               ; OPEN 3,8,3,"LOG,S,R"
        ldx #3
        jsr $ffc6               ; CHKIN 3
@get    jsr $ffcf
        jsr $ffd2               ; to the screen
        jsr $ffb7               ; READST: $40 with the last byte
        beq @get
        jsr $ffcc
        lda #3
        jsr $ffc3
        rts
wname   text "log,s,w"
rname   text "log,s,r"
msg     text "hello",13
"#,
    ));
    let out = run_with_drive(&prg, &disk, 0);
    // Only what went to the screen is in the transcript: the file's bytes, read back once,
    // then BASIC's READY.
    assert_eq!(stdout_of(&out), format!("HELLO\n{READY}"));
    assert_eq!(std::fs::read(disk.join("log")).unwrap(), b"HELLO\r");
    assert_eq!(files_in(&disk), vec!["log"]);
}

#[test]
fn notes_appear_when_the_run_ends_another_way() {
    // SAVE a bad name, then spin until the cycle budget ends the run.
    let spin = program(
        r#"
        lda #4
        ldx #<name
        ldy #>name
        jsr $ffbd
        lda #1
        ldx #8
        ldy #1
        jsr $ffba
        lda #$fb
        ldx #$01
        ldy #$08
        jsr $ffd8
@spin   nop
        jmp @spin
name    text "../x"
"#,
    );
    let (_top, prg, disk) = setup(&spin);
    let out = c64kit()
        .args(["run", &prg, "--max-cycles", "200000", "--drive-dir"])
        .arg(&disk)
        .assert()
        .code(4);
    assert!(stderr_of(&out).contains("c64kit: drive 8: SAVE \"../X\": 30,SYNTAX ERROR"));
}

#[test]
fn a_program_cannot_replace_one_of_the_runs_inputs() {
    // The program lies in the drive folder and saves "@0:PROG" over itself.
    let top = tempfile::tempdir().unwrap();
    let me = saver(b"@0:PROG");
    let prg = write(top.path(), "prog.prg", &me);
    let out = c64kit()
        .args(["run", &prg, "--drive-dir"])
        .arg(top.path())
        .assert()
        .code(0);
    assert!(
        stdout_of(&out).contains("26,WRITE PROTECT ON,00,00"),
        "{}",
        stdout_of(&out)
    );
    let e = stderr_of(&out);
    assert!(
        e.contains("SAVE \"@0:PROG\": 26,WRITE PROTECT ON")
            && e.contains("prog.prg is the program"),
        "{e}"
    );
    assert_eq!(std::fs::read(&prg).unwrap(), me, "the program is untouched");
}
