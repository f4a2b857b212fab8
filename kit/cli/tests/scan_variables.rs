//! What the KERNAL's keyboard scan leaves beside the buffer every jiffy, from the keys down
//! in CIA 1's matrix: LSTX ($C5, PEEK(197)) and SFDX ($CB, PEEK(203)), the key's matrix
//! code (64: none), SHFLAG ($028D, PEEK(653)) and LSTSHF ($028E, PEEK(654)), the modifiers
//! (1 SHIFT, 2 C=, 4 CTRL). BASIC programs wait for and read keys with them. The expected
//! values are the C64's documented keyboard codes (A 10, SPACE 60, RETURN 1); with
//! `C64KIT_ROMS` set, Commodore's KERNAL must print the same transcript.

mod common;

use common::{c64kit, commodores_rom_args, commodores_roms, stdout_of, stub_asm, write};

/// Prints the four variables, as PRINT separates numbers (the transcript shows the cursor
/// moves after them as `{rght}`).
fn line(lstx: u8, sfdx: u8, shflag: u8, lstshf: u8) -> String {
    [lstx, sfdx, shflag, lstshf]
        .iter()
        .map(|v| format!(" {v}{{rght}}"))
        .collect::<String>()
        + "\n"
}

/// `c64kit run` of `file` with the key script `keys`, on our ROMs and, when `C64KIT_ROMS`
/// is set, on Commodore's: both transcripts must be `expected`.
fn assert_transcript(file: &str, keys: &str, expected: &str) {
    let run = |roms: &[String]| {
        let out = c64kit()
            .args(["run", "--max-cycles", "20000000", "--input", keys])
            .args(roms)
            .arg(file)
            .assert()
            .success();
        stdout_of(&out)
    };
    let ours = run(&[]);
    assert!(ours.starts_with(expected), "ours: {ours}");
    if let Some(dir) = commodores_roms("the keyboard scan's variables") {
        assert_eq!(run(&commodores_rom_args(&dir)), ours, "Commodore's KERNAL");
    }
}

#[test]
fn peek_197_waits_for_each_scripted_key_and_its_release() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "keys.bas",
        b"10 IF PEEK(197)=64 THEN 10\n\
          20 PRINT PEEK(197);PEEK(203);PEEK(653);PEEK(654):POKE 198,0\n\
          30 IF PEEK(197)<>64 THEN 30\n\
          40 PRINT PEEK(197);PEEK(203);PEEK(653);PEEK(654)\n\
          50 N=N+1:IF N<5 THEN 10\n",
    );
    let keys = "{WAIT 100000}A{WAIT 300000}{SHIFT-A}{WAIT 300000} {WAIT 300000}{RETURN}\
                {WAIT 300000}{CBM-K}";
    let up = line(64, 64, 0, 0);
    let expected = [
        line(10, 10, 0, 0),
        up.clone(),
        line(10, 10, 1, 1),
        up.clone(),
        line(60, 60, 0, 0),
        up.clone(),
        line(1, 1, 0, 0),
        up.clone(),
        line(37, 37, 2, 2),
        up,
    ]
    .concat();
    assert_transcript(&file, keys, &expected);
}

#[test]
fn with_no_key_down_the_scan_leaves_64() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "idle.bas",
        b"10 PRINT PEEK(197);PEEK(203);PEEK(653);PEEK(654)\n",
    );
    assert_transcript(&file, "", &line(64, 64, 0, 0));
}

#[test]
fn scnkey_called_with_interrupts_off_keeps_them_too() {
    // SEI, then JSR SCNKEY ($FF9F) until SFDX shows a key; then SFDX, SHFLAG and LSTX in hex
    // (and the key the scan put in the buffer thrown away).
    let dir = tempfile::tempdir().unwrap();
    let prg = stub_asm(
        "sei\n\
         wait jsr $ff9f\nlda $cb\ncmp #64\nbeq wait\n\
         jsr printhex\nlda $028d\njsr printhex\nlda $c5\njsr printhex\n\
         lda #0\nsta $c6\ncli\nrts\n\
         printhex pha\nlsr\nlsr\nlsr\nlsr\ntax\nlda hex,x\njsr $ffd2\n\
         pla\nand #$0f\ntax\nlda hex,x\njsr $ffd2\nrts\n\
         hex byte $30,$31,$32,$33,$34,$35,$36,$37,$38,$39,$41,$42,$43,$44,$45,$46\n",
    );
    let file = write(dir.path(), "scan.prg", &prg);
    // A (10) with SHIFT.
    assert_transcript(&file, "{WAIT 50000}{SHIFT-A}", "0A010A\n");
}

#[test]
fn shift_and_cbm_held_are_modifiers_without_a_key() {
    // SHIFT+C= switches the character set; the scan sees both modifiers and no key. LSTSHF
    // is read first, in the statement after the press is seen (Commodore's KERNAL sees the
    // scripted SHIFT+C= for fewer scans than ours).
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "both.bas",
        b"10 C=PEEK(653):IF C<>3 THEN 10\n\
          20 D=PEEK(654):A=PEEK(197):B=PEEK(203)\n\
          30 IF PEEK(653)=3 THEN 30\n\
          40 PRINT A;B;C;D\n",
    );
    assert_transcript(&file, "{WAIT 100000}{SHIFT-CBM}", &line(64, 64, 3, 3));
}
