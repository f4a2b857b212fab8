//! Scripted keys in CIA 1's keyboard matrix, as programs that scan the keyboard themselves
//! see them (never through GETIN), and RESTORE on the NMI line.

mod common;

use common::{assert_stderr_has, c64kit, stdout_of, stub_asm, temp_dir, write, READY};

/// Prints A as two hex digits.
const PRINT_HEX: &str = "printhex pha\nlsr\nlsr\nlsr\nlsr\ntax\nlda hex,x\njsr $ffd2\n\
    pla\nand #$0f\ntax\nlda hex,x\njsr $ffd2\nrts\n\
    hex byte $30,$31,$32,$33,$34,$35,$36,$37,$38,$39,$41,$42,$43,$44,$45,$46\n";

/// A program with interrupts off that scans all 8 columns itself, and for each of `keys`
/// presses waits for a key, prints its index (column * 8 + row, plus $80 with the left
/// SHIFT down) in hex, and waits for its release. Once a pass finds a key it scans again
/// (as real scanners debounce): a key pressed halfway through a pass can miss its SHIFT.
fn scanner(keys: u8) -> Vec<u8> {
    stub_asm(&format!(
        "sei\nlda #{keys}\nsta count\n\
         wait jsr scan\ncpx #$ff\nbeq wait\njsr scan\n\
         txa\nora shft\njsr printhex\n\
         rel jsr scan\ncpx #$ff\nbne rel\n\
         dec count\nbne wait\ncli\nrts\n\
         scan ldx #$ff\nstx found\nlda #0\nsta shft\nldy #0\n\
         col lda masks,y\nsta $dc00\nlda $dc01\nsta rows\n\
         tya\nasl\nasl\nasl\nsta base\nlda #0\nsta row\n\
         rowl lsr rows\nbcs next\nlda base\nora row\ncmp #15\nbne notsh\n\
         lda #$80\nsta shft\njmp next\n\
         notsh sta found\n\
         next inc row\nlda row\ncmp #8\nbne rowl\niny\ncpy #8\nbne col\n\
         ldx found\nrts\n\
         {PRINT_HEX}\
         masks byte $fe,$fd,$fb,$f7,$ef,$df,$bf,$7f\n\
         count byte 0\nfound byte 0\nshft byte 0\nrows byte 0\nbase byte 0\nrow byte 0\n"
    ))
}

#[test]
fn a_program_scanning_the_matrix_sees_the_scripted_keys() {
    let dir = temp_dir("kbd-scan");
    let prg = write(&dir, "scan5.prg", &scanner(5));
    // H = column 3 row 5, E = 1/6, L = 5/2 twice (the release gap lets the second be seen),
    // O = 4/6.
    let out = c64kit()
        .args(["run", &prg, "--input", "hello"])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), format!("1D0E2A2A26{READY}"));
    // SHIFT combinations hold the left SHIFT (column 1 row 7) with the key: "!" is SHIFT 1
    // (column 7 row 0), {SHIFT-A} and {$C1} are SHIFT A (1/2).
    let prg = write(&dir, "scan4.prg", &scanner(4));
    let out = c64kit()
        .args(["run", &prg, "--input", "{SHIFT-A}!a{$c1}"])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), format!("8AB80A8A{READY}"));
    // Without keys the program waits until the budget.
    c64kit()
        .args(["run", &prg, "--max-cycles", "300000"])
        .assert()
        .code(4);
}

/// Waits for a key with all columns selected, then counts the scans (about 1,000 cycles
/// apart) that still see it, and prints the count.
fn hold_counter() -> Vec<u8> {
    stub_asm(&format!(
        "sei\nlda #0\nsta $dc00\n\
         w1 lda $dc01\ncmp #$ff\nbeq w1\n\
         ldy #0\n\
         cnt iny\nldx #200\nd dex\nbne d\nlda $dc01\ncmp #$ff\nbne cnt\n\
         tya\njsr printhex\ncli\nrts\n{PRINT_HEX}"
    ))
}

#[test]
fn key_hold_sets_how_many_scans_see_a_key() {
    let dir = temp_dir("kbd-hold");
    let prg = write(&dir, "hold.prg", &hold_counter());
    let count = |args: &[&str]| {
        let out = c64kit()
            .args(["run", &prg, "--input", "x"])
            .args(args)
            .assert()
            .code(0);
        let stdout = stdout_of(&out);
        let count = stdout
            .strip_suffix(READY)
            .unwrap_or_else(|| panic!("no READY. at the end: {stdout:?}"));
        u8::from_str_radix(count, 16).unwrap()
    };
    // 3 frames (58,968 cycles) by default: about 58 scans; 6 frames twice as many.
    let default = count(&[]);
    assert!((50..65).contains(&default), "{default}");
    let six = count(&["--key-hold", "6f"]);
    assert!((2 * default - 3..=2 * default + 3).contains(&six), "{six}");
    assert_eq!(count(&["--key-hold", "500c"]), 1);
    // The same from the settings file; the option wins over it.
    std::fs::write(dir.join("c64kit.toml"), "key_hold = \"6f\"\n").unwrap();
    let from_file = c64kit()
        .current_dir(&dir)
        .args(["run", &prg, "--input", "x"])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&from_file), format!("{six:02X}{READY}"));
    let out = c64kit()
        .args(["run", &prg, "--key-hold", "3"])
        .assert()
        .code(2);
    assert_stderr_has(&out, "times are frames");
}

#[test]
fn restore_raises_an_nmi_that_runs_the_programs_handler() {
    let dir = temp_dir("kbd-restore");
    // The handler (through NMINV at $0318) counts; the main loop prints "N" per NMI.
    let prg = write(
        &dir,
        "nmi.prg",
        &stub_asm(
            "lda #<nmi\nsta $0318\nlda #>nmi\nsta $0319\n\
             loop lda flag\nbeq loop\nlda #78\njsr $ffd2\nlda #0\nsta flag\n\
             dec left\nbne loop\nrts\n\
             nmi inc flag\nrti\nflag byte 0\nleft byte 2",
        ),
    );
    let out = c64kit()
        .args(["run", &prg, "--input", "{WAIT 20000}{RESTORE}{RESTORE 1f}"])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), format!("NN{READY}"));
    // One press is one NMI (the line is edge-triggered): the second never comes.
    let out = c64kit()
        .args([
            "run",
            &prg,
            "--input",
            "{WAIT 20000}{RESTORE 20f}",
            "--max-cycles",
            "1000000",
        ])
        .assert()
        .code(4);
    assert_eq!(stdout_of(&out), "N\n");
}

/// A program reading keys with GETIN gets them as before, and the matrix shows each one
/// while it is held: here the program checks the matrix right after GETIN returns.
#[test]
fn keys_the_kernal_takes_are_down_in_the_matrix_too() {
    let dir = temp_dir("kbd-getin");
    // GETIN until a key; then select column 1 and print $DC01 in hex (A: row 2 -> $FB).
    let prg = write(
        &dir,
        "getin.prg",
        &stub_asm(&format!(
            "g jsr $ffe4\nbeq g\njsr $ffd2\nlda #$fd\nsta $dc00\nlda $dc01\n\
             jsr printhex\nrts\n{PRINT_HEX}"
        )),
    );
    let out = c64kit()
        .args(["run", &prg, "--input", "a"])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), format!("AFB{READY}"));
}
