//! The character sets: CHR$(14) and CHR$(142) switch the VIC-II's $D018 as the KERNAL's
//! editor does, CHR$(8)/CHR$(9) lock and unlock SHIFT+C=, and the transcript and
//! `--dump-screen` show text in the set the VIC-II showed (issue 31).

mod common;

use c64kit_basic::petscii::screen_code_to_char;
use common::{c64kit, stdout_of, stub_asm, temp_dir, write, READY};

/// BASIC's READY. at the program's end in the lower-case set (and as petcat renders it).
fn ready_lower_case() -> String {
    READY.to_lowercase()
}

/// Prints the 0-terminated bytes at `label` (x is used).
fn print(label: &str) -> String {
    format!(
        "ldx #0\n@p{label} lda {label},x\nbeq @d{label}\njsr $ffd2\ninx\nbne @p{label}\n@d{label}\n"
    )
}

/// `hexd018`: prints PEEK(53272) in hex and a space.
const HEX_D018: &str = "hexd018 lda $d018\npha\nlsr\nlsr\nlsr\nlsr\ntax\nlda hex,x\njsr $ffd2\n\
    pla\nand #$0f\ntax\nlda hex,x\njsr $ffd2\nlda #32\njmp $ffd2\n\
    hex byte $30,$31,$32,$33,$34,$35,$36,$37,$38,$39,$41,$42,$43,$44,$45,$46\n";

/// "Hello" as PETSCII: SHIFT-H ($C8, a capital in the lower-case set), then "ello".
const HELLO: &str = "byte $c8,$45,$4c,$4c,$4f,32,0";

#[test]
fn chr14_switches_the_vic_to_lower_case_and_chr142_back() {
    let dir = temp_dir("charsets-chr14");
    let prg = write(
        &dir,
        "chr14.prg",
        &stub_asm(&format!(
            "lda #14\njsr $ffd2\n{}jsr hexd018\nlda #142\njsr $ffd2\n{}jsr hexd018\nrts\n\
             {HEX_D018}hello {HELLO}\nhi byte $48,$49,32,0\n",
            print("hello"),
            print("hi"),
        )),
    );
    // 21 ($15) after power-on, 23 ($17) after CHR$(14): the KERNAL ORs in bit 1.
    let out = c64kit()
        .args(["run", &prg, "--dump-screen"])
        .assert()
        .code(0);
    let text = stdout_of(&out);
    let mut lines = text.lines();
    // Each byte in the set in force when it was printed: "Hello" and "HI" as they showed.
    assert_eq!(lines.next(), Some("{swlc}Hello 17 {swuc}HI 15 "));
    // Then BASIC's READY. (CR LF READY. CR LF), in upper case.
    assert_eq!(lines.next(), Some("{$0a}READY."));
    assert_eq!(lines.next(), Some("{$0a}"));
    // The screen shows the set the VIC-II shows at the end: upper case again, where "Hello"
    // shows its shifted H as a graphic.
    let h = screen_code_to_char(0x48, false);
    assert_eq!(lines.next(), Some(format!("|{h}ELLO 17 HI 15|").as_str()));
    assert_eq!(lines.next(), Some("|READY.|"));
    // The petcat style renders bytes alike in either set, as petcat does.
    let out = c64kit()
        .args(["run", &prg, "-O", "transcript.style=petcat"])
        .assert()
        .code(0);
    assert_eq!(
        stdout_of(&out),
        format!("{{swlc}}Hello 17 {{swuc}}hi 15 {}", ready_lower_case())
    );
}

#[test]
fn the_screen_dump_follows_d018_not_the_editor() {
    // POKE 53272,23 with no CHR$(14): the VIC-II shows lower case, so does the dump; the
    // transcript shows what came before the POKE in upper case, what came after in lower.
    let dir = temp_dir("charsets-poke");
    let prg = write(
        &dir,
        "poke.prg",
        &stub_asm(&format!(
            "{}lda #$17\nsta $d018\n{}rts\nhi byte $48,$49,32,0\nhello {HELLO}\n",
            print("hi"),
            print("hello"),
        )),
    );
    let out = c64kit()
        .args(["run", &prg, "--dump-screen"])
        .assert()
        .code(0);
    let text = stdout_of(&out);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("HI Hello "));
    // BASIC's READY. after the POKE: lower case.
    assert_eq!(lines.next(), Some("{$0a}ready."));
    assert_eq!(lines.next(), Some("{$0a}"));
    assert_eq!(lines.next(), Some("|hi Hello|"));
    assert_eq!(lines.next(), Some("|ready.|"));
    // A character set in RAM ($2000): the text counts as upper-case/graphics.
    let prg = write(
        &dir,
        "ram.prg",
        &stub_asm(&format!(
            "lda #$18\nsta $d018\n{}rts\nhello {HELLO}\n",
            print("hello")
        )),
    );
    let out = c64kit()
        .args(["run", &prg, "--dump-screen"])
        .assert()
        .code(0);
    let h = screen_code_to_char(0x48, false);
    assert_eq!(
        stdout_of(&out),
        format!("{h}ELLO {READY}|{h}ELLO|\n|READY.|\n{}", "||\n".repeat(23))
    );
}

/// Waits for a key with GETIN, then prints PEEK(53272); `lock` (8 or 9) printed first.
fn shift_cbm_program(lock: u8) -> Vec<u8> {
    stub_asm(&format!(
        "lda #{lock}\njsr $ffd2\nwait jsr $ffe4\nbeq wait\njsr hexd018\nrts\n{HEX_D018}"
    ))
}

#[test]
fn shift_cbm_switches_the_set_unless_chr8_locked_it() {
    let dir = temp_dir("charsets-shift-cbm");
    // CHR$(9) (the power-on state): SHIFT+C= switches to lower case, once per press.
    let unlocked = write(&dir, "unlocked.prg", &shift_cbm_program(9));
    let out = c64kit()
        .args(["run", &unlocked, "--input", "{SHIFT-CBM}x", "--dump-screen"])
        .assert()
        .code(0);
    let text = stdout_of(&out);
    assert!(
        text.starts_with(&format!(
            "{{ensh}}17 {}|17|\n|ready.|\n",
            ready_lower_case()
        )),
        "{text}"
    );
    let out = c64kit()
        .args(["run", &unlocked, "--input", "{SHIFT-C=}{CBM-SHIFT}x"])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), format!("{{ensh}}15 {READY}"));
    // CHR$(8) locks it: the set stays.
    let locked = write(&dir, "locked.prg", &shift_cbm_program(8));
    let out = c64kit()
        .args(["run", &locked, "--input", "{SHIFT-CBM}x"])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), format!("{{dish}}15 {READY}"));
}

#[test]
fn shift_cbm_holds_both_keys_in_the_matrix() {
    // A program with interrupts off reads column 1 (left SHIFT, row 7) and column 7 (C=,
    // row 5) itself until both are down, prints PEEK(53272), lets the KERNAL's interrupt
    // run for two jiffies (its scan finds the keys still down) and prints it again.
    let dir = temp_dir("charsets-matrix");
    let prg = write(
        &dir,
        "matrix.prg",
        &stub_asm(&format!(
            "sei\nwait lda #$fd\nsta $dc00\nlda $dc01\nand #$80\nbne wait\n\
             lda #$7f\nsta $dc00\nlda $dc01\nand #$20\nbne wait\njsr hexd018\ncli\n\
             lda $a2\nj1 cmp $a2\nbeq j1\nlda $a2\nj2 cmp $a2\nbeq j2\njsr hexd018\nrts\n\
             {HEX_D018}"
        )),
    );
    let out = c64kit()
        .args(["run", &prg, "--input", "{SHIFT-CBM}"])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), format!("15 17 {}", ready_lower_case()));
}

#[test]
fn a_cc65_hello_world_reads_in_lower_case() {
    // cc65's start-up prints CHR$(14); its "Hello" is then lower case with a capital H.
    let Ok(status) = std::process::Command::new("cl65").arg("--version").output() else {
        eprintln!("skipped: cl65 (cc65) is not installed");
        return;
    };
    assert!(status.status.success(), "cl65 --version failed");
    let dir = temp_dir("charsets-cc65");
    let c = dir.join("hello.c");
    std::fs::write(
        &c,
        "#include <stdio.h>\nint main(void) { printf(\"Hello, world\\n\"); return 0; }\n",
    )
    .unwrap();
    let prg = dir.join("hello.prg");
    let built = std::process::Command::new("cl65")
        .args(["-t", "c64", "-o"])
        .arg(&prg)
        .arg(&c)
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "cl65: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let out = c64kit()
        .args(["run", prg.to_str().unwrap(), "--dump-screen"])
        .assert();
    let text = stdout_of(&out);
    assert!(text.contains("Hello, world\n"), "{text}");
    assert!(text.contains("|Hello, world|"), "{text}");
}

#[test]
fn commodores_kernal_switches_alike() {
    // The same program and keys on Commodore's KERNAL (when C64KIT_ROMS names a folder with
    // kernal-901227-03.bin and basic-901226-01.bin): the screen's first row agrees.
    let Some(roms) = std::env::var_os("C64KIT_ROMS").map(std::path::PathBuf::from) else {
        eprintln!("skipped: set C64KIT_ROMS to a folder with Commodore's ROM images to run it");
        return;
    };
    let dir = temp_dir("charsets-rom");
    let prg = write(
        &dir,
        "all.prg",
        &stub_asm(&format!(
            "lda #14\njsr $ffd2\n{}jsr hexd018\nlda #142\njsr $ffd2\njsr hexd018\n\
             lda #8\njsr $ffd2\njsr key\njsr hexd018\nlda #9\njsr $ffd2\njsr key\njsr hexd018\n\
             rts\nkey jsr $ffe4\nbeq key\nrts\n{HEX_D018}hello {HELLO}\n",
            print("hello")
        )),
    );
    let keys = "{SHIFT-CBM}a{SHIFT-CBM}b";
    let first_row = |extra: &[&str]| {
        let out = c64kit()
            .args(["run", &prg, "-q", "--dump-screen", "--input", keys])
            .args(["--max-cycles", "3000000"])
            .args(extra)
            .assert();
        stdout_of(&out)
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let kernal = roms.join("kernal-901227-03.bin");
    let basic = roms.join("basic-901226-01.bin");
    let real = first_row(&[
        "--kernal-rom",
        kernal.to_str().unwrap(),
        "--basic-rom",
        basic.to_str().unwrap(),
    ]);
    assert_eq!(real, "|Hello 17 15 15 17|");
    assert_eq!(first_row(&[]), real);
}
