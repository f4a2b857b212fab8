//! The KERNAL's channel I/O with drive 8, through small assembly programs: the file table
//! and its errors, what LOAD and SAVE return, the status channel, sequential files, and
//! that output to a file stays out of the transcript.

use c64kit_asm::{assemble_source, Options};
use c64kit_machine::{Drive, Machine, Prg, StopReason};
use std::path::Path;

/// KERNAL entries, a "10 SYS2061" stub, and macros for the calls the tests make.
/// `record` keeps A, C and ST after a call at $C000+n, $C100+n, $C200+n (n counts up).
const PRELUDE: &str = r#"
readst = $ffb7
setlfs = $ffba
setnam = $ffbd
open   = $ffc0
close  = $ffc3
chkin  = $ffc6
chkout = $ffc9
clrchn = $ffcc
chrin  = $ffcf
chrout = $ffd2
load   = $ffd5
save   = $ffd8
getin  = $ffe4
clall  = $ffe7
count  = $fb

        defm files          ; logical file, device, secondary address, name, name length
        lda #/5
        ldx #</4
        ldy #>/4
        jsr setnam
        lda #/1
        ldx #/2
        ldy #/3
        jsr setlfs
        endm

        *=$0801
        byte $0b,$08,$0a,$00,$9e,"2061",0,0,0
        lda #0
        sta count
        jsr main
        rts

record  php
        sta keep_a
        ldx count
        sta $c000,x
        pla
        and #$01
        sta $c100,x
        lda $90
        sta $c200,x
        inc count
        lda keep_a
        rts
keep_a  byte 0
"#;

struct Run {
    m: Machine,
}

impl Run {
    /// (A, C, ST) of the n-th `record`.
    fn recorded(&self, n: u16) -> (u8, bool, u8) {
        (
            self.m.peek(0xC000 + n),
            self.m.peek(0xC100 + n) != 0,
            self.m.peek(0xC200 + n),
        )
    }

    fn memory(&self, at: u16, len: u16) -> Vec<u8> {
        (0..len).map(|i| self.m.peek(at + i)).collect()
    }

    fn transcript(&self) -> String {
        String::from_utf8_lossy(self.m.transcript()).into_owned()
    }
}

fn run(src: &str, drive: Drive) -> Run {
    let text = format!("{PRELUDE}{src}");
    let asm =
        assemble_source("test.asm", &text, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut m = Machine::builtin();
    m.kernal.drive = drive;
    let prg = Prg {
        load_address: asm.load_address,
        data: asm.bytes,
    };
    m.load_and_run_prg(&prg).unwrap();
    let stop = m.run(20_000_000);
    assert_eq!(stop, StopReason::ReturnedToBasic, "{}", m.cpu.pc);
    Run { m }
}

fn scratch(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    dir
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn the_file_table_gives_the_kernal_errors_where_the_real_one_does() {
    let dir = scratch(&[]);
    let r = run(
        r#"
main    files 0,3,0,name,0      ; logical file 0: NOT INPUT FILE
        jsr open
        jsr record
        ldy #1                  ; files 1-10 on the screen
@more   sty $fc
        tya
        ldx #3
        ldy #0
        jsr setlfs
        jsr open
        ldy $fc
        iny
        cpy #11
        bne @more
        files 11,3,0,name,0     ; an 11th: TOO MANY FILES
        jsr open
        jsr record
        files 5,3,0,name,0      ; 5 again: FILE OPEN
        jsr open
        jsr record
        ldx #20                 ; CHKIN 20: FILE NOT OPEN
        jsr chkin
        jsr record
        ldx #20                 ; CHKOUT 20: FILE NOT OPEN
        jsr chkout
        jsr record
        jsr clall
        lda $98
        sta $c300
        files 1,9,2,name,1      ; device 9 is not there: DEVICE NOT PRESENT
        jsr open
        jsr record
        lda $98                 ; ...and the file stays in the table, as on a C64
        sta $c301
        files 2,0,0,name,0      ; CHKOUT to the keyboard: NOT OUTPUT FILE
        jsr open
        ldx #2
        jsr chkout
        jsr record
        files 3,9,2,name,0      ; device 9 without a name: OPEN is fine, CHKIN is not
        jsr open
        jsr record
        ldx #3
        jsr chkin
        jsr record
        files 4,8,0,name,0      ; LOAD with no name: MISSING FILE NAME
        lda #0
        jsr load
        jsr record
        files 4,3,0,name,1      ; LOAD from the screen: ILLEGAL DEVICE NUMBER
        lda #0
        jsr load
        jsr record
        files 4,9,0,name,1      ; LOAD from device 9: DEVICE NOT PRESENT
        lda #0
        jsr load
        jsr record
        files 4,8,0,name,0      ; SAVE with no name: MISSING FILE NAME
        lda #$fb
        ldx #0
        ldy #$c0
        jsr save
        jsr record
        jsr clall
        files 7,8,15,name,0     ; the tables in RAM: LAT, FAT, SAT (SA ORed with $60)
        jsr open
        jsr record
        lda $0259
        sta $c302
        lda $0263
        sta $c303
        lda $026d
        sta $c304
        lda #7                  ; CLOSE empties them; closing again is no error
        jsr close
        jsr record
        lda #7
        jsr close
        jsr record
        lda $98
        sta $c305
        rts
name    text "x"
"#,
        Drive::read_only(dir.path()),
    );
    let expect = [
        (6, true),  // logical file 0
        (1, true),  // an 11th file
        (2, true),  // file 5 again
        (3, true),  // CHKIN not open
        (3, true),  // CHKOUT not open
        (5, true),  // device 9
        (7, true),  // CHKOUT keyboard
        (0, false), // OPEN device 9 without a name
        (5, true),  // CHKIN device 9
        (8, true),  // LOAD no name
        (9, true),  // LOAD from the screen
        (5, true),  // LOAD from device 9
        (8, true),  // SAVE no name
    ];
    for (n, (a, c)) in expect.iter().enumerate() {
        let (got_a, got_c, _) = r.recorded(n as u16);
        if *c {
            assert_eq!((got_a, got_c), (*a, true), "call {n}");
        } else {
            assert!(!got_c, "call {n}");
        }
    }
    assert_eq!(r.recorded(5).2, 0x80, "ST after a device that is not there");
    assert_eq!(r.memory(0xC300, 2), [0, 1], "LDTND");
    assert!(!r.recorded(13).1, "OPEN 7,8,15");
    assert_eq!(r.memory(0xC302, 3), [7, 8, 0x6F], "LAT, FAT, SAT");
    assert!(!r.recorded(14).1 && !r.recorded(15).1, "CLOSE");
    assert_eq!(r.m.peek(0xC305), 0, "LDTND after CLOSE");
    // Errors restore the default channels and print nothing (MSGFLG is 0 after RUN).
    assert_eq!(r.transcript(), "");
}

#[test]
fn the_status_channel_is_read_with_chkin_and_chrin() {
    let dir = scratch(&[]);
    let r = run(
        r#"
main    files 15,8,15,name,0
        jsr open
        ldx #15
        jsr chkin
        ldy #0
@read   jsr chrin
        sta $c400,y
        iny
        jsr readst
        beq @read
        sty $c3f0
        sta $c3f1
        jsr chrin               ; past the end: CR, ST kept
        sta $c3f2
        lda $90
        sta $c3f3
        ldx #15                 ; CHKIN clears ST; the error was cleared by reading it
        jsr chkin
        ldy #0
@again  jsr getin
        sta $c500,y
        iny
        jsr readst
        beq @again
        jsr clrchn
        lda #15
        jsr close
        rts
name    byte 0
"#,
        Drive::read_only(dir.path()),
    );
    let n = r.m.peek(0xC3F0) as u16;
    assert_eq!(r.memory(0xC400, n), b"73,CBM DOS V2.6 1541,00,00\r");
    assert_eq!(r.m.peek(0xC3F1), 0x40, "ST with the last byte");
    assert_eq!(r.memory(0xC3F2, 2), [0x0D, 0x40]);
    assert_eq!(r.memory(0xC500, 13), b"00, OK,00,00\r");
}

#[test]
fn a_refused_save_returns_no_kernal_error_and_a_missing_load_returns_4() {
    let dir = scratch(&[("exists", b"\x00\xc0old")]);
    let mut r = run(
        r#"
main    files 1,8,1,exists,6    ; SAVE over a file that exists: the drive refuses, the
        lda #$00                ; KERNAL does not know
        sta $fd
        lda #$c0
        sta $fe
        lda #$fd
        ldx #$10
        ldy #$c0
        jsr save
        jsr record
        files 15,8,15,exists,0  ; the reason is on channel 15
        jsr open
        ldx #15
        jsr chkin
        ldy #0
@read   jsr chrin
        sta $c400,y
        iny
        cmp #13
        bne @read
        jsr clrchn
        files 1,8,0,missing,7   ; LOAD of a file that is not there: FILE NOT FOUND
        lda #0
        ldx #0
        ldy #$c8
        jsr load
        jsr record
        lda #$40                ; with error messages on, the KERNAL prints them
        sta $9d
        lda #0
        jsr load
        jsr record
        rts
exists  text "exists"
missing text "missing"
"#,
        Drive::writable(dir.path()),
    );
    assert_eq!(r.recorded(0), (0xfd, false, 0), "SAVE: C clear, ST 0");
    assert_eq!(r.memory(0xC400, 21), b"63,FILE EXISTS,00,00\r");
    assert_eq!(
        std::fs::read(dir.path().join("exists")).unwrap(),
        b"\x00\xc0old"
    );
    assert_eq!(
        r.recorded(1),
        (4, true, 0x42),
        "LOAD: FILE NOT FOUND, ST $42"
    );
    assert_eq!(r.recorded(2).0, 4);
    assert_eq!(r.transcript(), "\rI/O ERROR #4");
    let notes = r.m.kernal.drive.take_notes();
    assert!(
        notes[0].starts_with("SAVE \"EXISTS\": 63,FILE EXISTS,00,00"),
        "{notes:?}"
    );
    assert!(
        notes[1].starts_with("LOAD \"MISSING\": 62,FILE NOT FOUND,00,00"),
        "{notes:?}"
    );
}

#[test]
fn save_and_load_use_the_addresses_the_kernal_does() {
    let dir = scratch(&[]);
    let r = run(
        r#"
main    ldx #15                 ; 16 bytes at $C000: 0, 1, 2, ...
@fill   txa
        sta $c000,x
        dex
        bpl @fill
        files 1,8,1,name,4
        lda #$00
        sta $fd
        lda #$c0
        sta $fe
        lda #$fd
        ldx #$10
        ldy #$c0
        jsr save
        jsr record
        files 1,8,1,name,4      ; SA 1: back to the file's own address, over changed bytes
        lda #$ff
        sta $c003
        lda #0
        jsr load
        stx $c3f0
        sty $c3f1
        jsr record
        files 1,8,0,name,4      ; SA 0: to X/Y
        lda #0
        ldx #$00
        ldy #$c8
        jsr load
        stx $c3f2
        sty $c3f3
        files 1,8,1,name,4      ; VERIFY against changed memory: ST bit 4
        lda #$ee
        sta $c005
        lda #1
        jsr load
        jsr record
        rts
name    text "data"
"#,
        Drive::writable(dir.path()),
    );
    let saved = std::fs::read(dir.path().join("data")).unwrap();
    assert_eq!(saved[..2], [0x00, 0xC0]);
    assert_eq!(saved[2..], (0..16).collect::<Vec<u8>>());
    assert!(!r.recorded(0).1);
    assert!(!r.recorded(1).1, "LOAD");
    assert_eq!(r.recorded(1).2, 0x40, "ST after LOAD: EOI");
    assert_eq!(r.m.peek(0xC003), 3, "LOAD restored it");
    assert_eq!(r.memory(0xC3F0, 2), [0x10, 0xC0], "X/Y: the end");
    assert_eq!(r.memory(0xC800, 16), (0..16).collect::<Vec<u8>>());
    assert_eq!(r.memory(0xC3F2, 2), [0x10, 0xC8]);
    assert_eq!(r.recorded(2).2, 0x50, "VERIFY: mismatch and EOI");
    assert_eq!(r.m.peek(0xC005), 0xEE, "VERIFY does not store");
}

#[test]
fn sequential_files_go_through_chkout_and_chkin_and_not_into_the_transcript() {
    let dir = scratch(&[]);
    let r = run(
        r#"
main    files 2,8,2,wname,10
        jsr open
        ldx #2
        jsr chkout
        ldy #0
@write  lda msg,y
        jsr chrout
        iny
        cpy #5
        bne @write
        jsr clrchn
        lda #2
        jsr close
        lda #"k"                ; the screen still prints
        jsr chrout
        files 3,8,3,rname,9
        jsr open
        ldx #3
        jsr chkin
        ldy #0
@read   jsr getin
        sta $c400,y
        iny
        jsr readst
        beq @read
        sty $c3f0
        sta $c3f1
        jsr clrchn
        lda #3
        jsr close
        rts
wname   text "log,s,w"
        text "   "
rname   text "log,s,r"
        text "  "
msg     text "hello"
"#,
        Drive::writable(dir.path()),
    );
    assert_eq!(std::fs::read(dir.path().join("log")).unwrap(), b"HELLO");
    assert_eq!(r.memory(0xC400, 5), b"HELLO");
    assert_eq!(r.memory(0xC3F0, 2), [5, 0x40]);
    assert_eq!(r.transcript(), "K");
    assert_eq!(files_in(dir.path()), vec!["log"]);
}

#[test]
fn commands_through_chkout_run_at_clrchn() {
    let dir = scratch(&[("old", b"x"), ("gone", b"y")]);
    run(
        r#"
main    files 15,8,15,cmd1,11   ; OPEN 15,8,15,"R0:NEW=OLD"
        jsr open
        ldx #15                 ; PRINT#15,"S0:GONE"
        jsr chkout
        ldy #0
@send   lda cmd2,y
        jsr chrout
        iny
        cpy #8
        bne @send
        jsr clrchn
        lda #15
        jsr close
        rts
cmd1    text "r0:new=old",13
cmd2    text "s0:gone",13
"#,
        Drive::writable(dir.path()),
    );
    assert_eq!(files_in(dir.path()), vec!["new"]);
}

#[test]
fn messages_when_msgflg_asks() {
    let dir = scratch(&[("prog", b"\x00\xc0\x01")]);
    let r = run(
        r#"
main    lda #$80
        sta $9d
        files 1,8,1,name,4
        lda #0
        jsr load
        rts
name    text "prog"
"#,
        Drive::read_only(dir.path()),
    );
    assert_eq!(r.transcript(), "\rSEARCHING FOR PROG\rLOADING");
}

/// The serial bus's own routines after our CHKIN and CHKOUT, as programs call them to go
/// faster than CHRIN and CHROUT: ACPTR reads the channel CHKIN made drive 8 talk from,
/// CIOUT writes to the one CHKOUT made it listen on; after CLRCHN nothing talks.
#[test]
fn acptr_and_ciout_go_on_from_chkin_and_chkout() {
    let dir = scratch(&[]);
    let r = run(
        r#"
acptr   = $ffa5
ciout   = $ffa8
main    files 15,8,15,name,0
        jsr open
        ldx #15
        jsr chkin
        ldy #0
@read   jsr acptr
        sta $c400,y
        iny
        bit $90
        bvc @read
        sty $c3f0
        jsr clrchn
        lda #0
        sta $90
        jsr acptr               ; nothing talks now: a time-out
        lda $90
        sta $c3f1
        files 2,8,2,wname,5
        jsr open
        ldx #2
        jsr chkout
        lda #$4f
        jsr ciout
        lda #$4b
        jsr ciout
        jsr clrchn
        lda #2
        jsr close
        lda #15
        jsr close
        rts
name    byte 0
wname   byte $46,$2c,$53,$2c,$57
"#,
        Drive::writable(dir.path()),
    );
    let n = r.m.peek(0xC3F0) as u16;
    assert_eq!(r.memory(0xC400, n), b"73,CBM DOS V2.6 1541,00,00\r");
    assert_eq!(
        r.m.peek(0xC3F1),
        0x42,
        "ST after ACPTR with nothing talking"
    );
    assert_eq!(std::fs::read(dir.path().join("f")).unwrap(), b"OK");
}
