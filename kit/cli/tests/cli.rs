//! The `c64kit` binary as a user runs it: output, stop reasons, exit codes, error messages.

mod common;

use common::{
    assert_stderr_has, c64kit, debug_cart_value, stderr_of, stdout_of, stub_asm, stub_prg,
    temp_dir, write, READY,
};

#[test]
fn run_prints_the_transcript_and_exits_0_on_return_to_basic() {
    let dir = tempfile::tempdir().unwrap();
    // LDA #'H'; JSR CHROUT; LDA #'I'; JSR CHROUT; RTS
    let prg = write(
        dir.path(),
        "hi.prg",
        &stub_prg(&[
            0xA9, 0x48, 0x20, 0xD2, 0xFF, 0xA9, 0x49, 0x20, 0xD2, 0xFF, 0x60,
        ]),
    );
    let out = c64kit()
        .args(["run", &prg, "--dump-screen"])
        .assert()
        .code(0);
    let stdout = stdout_of(&out);
    assert!(stdout.starts_with("HI\n"), "{stdout}");
    assert!(stdout.contains("|HI|"), "screen dump: {stdout}");
    assert!(stderr_of(&out).contains("returned to BASIC"));
}

#[test]
fn input_runs_out_with_exit_code_3() {
    let dir = tempfile::tempdir().unwrap();
    // loop: JSR GETIN; BEQ loop; JSR CHROUT; JMP loop
    let prg = write(
        dir.path(),
        "echo.prg",
        &stub_prg(&[
            0x20, 0xE4, 0xFF, 0xF0, 0xFB, 0x20, 0xD2, 0xFF, 0x4C, 0x20, 0x08,
        ]),
    );
    let out = c64kit()
        .args(["run", &prg, "--input", "e1{DEL}f2"])
        .assert()
        .code(3);
    assert_eq!(stdout_of(&out), "E1{del}F2\n");
    assert!(stderr_of(&out).contains("input exhausted"));
}

#[test]
fn bare_mode_runs_a_raw_binary_until_jmp_star() {
    let dir = tempfile::tempdir().unwrap();
    // $0400: LDX #3; loop: DEX; BNE loop; JMP $0405
    let bin = write(
        dir.path(),
        "t.bin",
        &[0xA2, 0x03, 0xCA, 0xD0, 0xFD, 0x4C, 0x05, 0x04],
    );
    let out = c64kit()
        .args(["run", "--bare", "--load", "0x0400", &bin])
        .assert()
        .code(6);
    let stderr = stderr_of(&out);
    assert!(stderr.contains("one-instruction loop at $0405"), "{stderr}");
    // 2 + 3 * (2 + 3) - 1 + 3 cycles before the JMP at $0405 loops.
    assert!(stderr.contains("after 19 cycles"), "{stderr}");
}

#[test]
fn trace_lines_follow_the_vice_monitor_format() {
    let dir = tempfile::tempdir().unwrap();
    let prg = write(dir.path(), "t.prg", &stub_prg(&[0xA9, 0x00, 0x60]));
    let trace = dir.path().join("trace.txt");
    c64kit()
        .args(["run", &prg, "--trace"])
        .arg(&trace)
        .assert()
        .code(0);
    let text = std::fs::read_to_string(&trace).unwrap();
    let first = text.lines().next().unwrap();
    assert!(first.starts_with(".C:0820  A9 00     LDA #$00"), "{first}");
    assert!(first.contains("A:00 X:00 Y:00 SP:f6"), "{first}");
}

#[test]
fn a_jam_is_reported_with_exit_code_7() {
    let dir = tempfile::tempdir().unwrap();
    let prg = write(dir.path(), "jam.prg", &stub_prg(&[0xEA, 0x02]));
    let out = c64kit().args(["run", &prg]).assert().code(7);
    assert!(stderr_of(&out).contains("CPU jammed at $0821"));
}

#[test]
fn the_cycle_budget_ends_a_runaway_program_with_exit_code_4() {
    let dir = tempfile::tempdir().unwrap();
    // INC $D020; JMP $0820: runs forever, but is not a one-instruction loop.
    let prg = write(
        dir.path(),
        "loop.prg",
        &stub_prg(&[0xEE, 0x20, 0xD0, 0x4C, 0x20, 0x08]),
    );
    let out = c64kit()
        .args(["run", &prg, "--max-cycles", "100000"])
        .assert()
        .code(4);
    // The budget and the cycles run are told apart: an instruction is never cut, so the run
    // ends a few cycles past the budget.
    let stderr = stderr_of(&out);
    let after = stderr
        .strip_prefix("c64kit: cycle budget of 100000 cycles reached after ")
        .unwrap_or_else(|| panic!("{stderr}"));
    let cycles: u64 = after.split(' ').next().unwrap().parse().unwrap();
    assert!((100_000..100_010).contains(&cycles), "{stderr}");
    let out = c64kit()
        .args(["run", &prg, "--max-cycles", "1"])
        .assert()
        .code(4);
    assert_stderr_has(&out, "cycle budget of 1 cycle reached after ");
    // The same on a bare 6502.
    let bin = write(dir.path(), "loop.bin", &[0xE8, 0x4C, 0x00, 0x04]);
    let out = c64kit()
        .args([
            "run",
            "--bare",
            "--load",
            "$0400",
            &bin,
            "--max-cycles",
            "$100",
        ])
        .assert()
        .code(4);
    assert_stderr_has(&out, "cycle budget of 256 cycles reached after ");
    // A budget is a positive count: said so, for negative numbers too.
    for (budget, code) in [("-5", 2), ("0", 2)] {
        let out = c64kit()
            .args(["run", &prg, "--max-cycles", budget])
            .assert()
            .code(code);
        assert_stderr_has(&out, "a cycle budget is a positive count of cycles");
        assert!(!stderr_of(&out).contains("-- -5"), "{}", stderr_of(&out));
    }
}

#[test]
fn malformed_files_give_errors_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let prg = write(dir.path(), "short.prg", &[0x01]);
    let out = c64kit().args(["run", &prg]).assert().code(1);
    let stderr = stderr_of(&out);
    assert!(stderr.contains("short.prg"), "{stderr}");

    // An empty BASIC program (its end marker only) RUNs on our BASIC: straight to READY.
    let nosys = write(dir.path(), "nosys.prg", &[0x01, 0x08, 0x00, 0x00]);
    let out = c64kit().args(["run", &nosys]).assert().code(0);
    assert_stderr_has(&out, "returned to BASIC");

    let asm = write(dir.path(), "bad.asm", b"*=$0801\n  lda #1\n  ldq #2\n");
    let out = c64kit().args(["asm", &asm]).assert().code(1);
    let stderr = stderr_of(&out);
    assert!(stderr.contains("bad.asm:3"), "{stderr}");
}

/// A file RUN cannot start says what it is, and the advice it gives works: run as told, the
/// program runs.
#[test]
fn files_run_cannot_start_get_advice_that_works() {
    let dir = temp_dir("cannot-start");
    let fails = |file: &str| {
        let out = c64kit().args(["run", file]).assert().code(1);
        let stderr = stderr_of(&out);
        assert!(stderr.starts_with(&format!("c64kit: {file}: ")), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        stderr.trim_end().to_string()
    };
    // Text is not a PRG, whatever its first two characters make of a load address.
    let notes = write(&dir, "notes.txt", b"Things to try:\n- depth 8\n");
    let e = fails(&notes);
    assert!(e.contains("it reads as text, not a PRG"), "{e}");
    assert!(!e.contains("--start"), "{e}");
    // Numbered BASIC text that RUN would start: read as BASIC, it runs. SYS 65490 is
    // CHROUT, which prints A ($030C, 0 here) and returns to BASIC.
    let basic = write(&dir, "basic.txt", b"10 SYS 65490\n");
    let e = fails(&basic);
    assert!(
        e.ends_with("run it with --loader basic (or name it .bas)"),
        "{e}"
    );
    c64kit()
        .args(["run", &basic, "--loader", "basic"])
        .assert()
        .code(0);
    // ... and so does BASIC text that runs BASIC first: our BASIC RUNs it.
    let print = write(&dir, "print.txt", b"10 PRINT \"HI\"\n");
    let e = fails(&print);
    assert!(
        e.ends_with("run it with --loader basic (or name it .bas)"),
        "{e}"
    );
    c64kit()
        .args(["run", &print, "--loader", "basic"])
        .assert()
        .code(0);
    // Nothing after the load address.
    let e = fails(&write(&dir, "empty.prg", &[0x00, 0xC0]));
    assert!(
        e.ends_with("the PRG has no bytes after its load address ($C000): nothing to run"),
        "{e}"
    );
    // Machine code away from $0801 is started where it loads, as SYS 49152 would.
    // LDA #'M'; JSR CHROUT; RTS at $C000.
    let code = write(
        &dir,
        "code.prg",
        &[0x00, 0xC0, 0xA9, b'M', 0x20, 0xD2, 0xFF, 0x60],
    );
    let e = fails(&code);
    assert!(
        e.contains("machine code at $C000, not a BASIC program"),
        "{e}"
    );
    let advice = e.rsplit_once("start it with ").expect("advice").1;
    let out = c64kit()
        .args(["run", &code])
        .args(advice.split(' '))
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), "M\n");
}

/// A BASIC program that runs BASIC before its SYS RUNs on c64kit's own BASIC (the default
/// ROMs have none until a program needs it): "10 PRINT2080" prints the number, BASIC ends
/// at READY., exit 0.
#[test]
fn basic_before_the_sys_runs_on_our_basic() {
    let dir = temp_dir("basic-first");
    let mut prg = stub_prg(&[0x60]);
    prg[6] = 0x99; // "10 PRINT2080"
    let prg = write(&dir, "basic.prg", &prg);
    let out = c64kit().args(["run", &prg]).assert().code(0);
    assert!(
        stdout_of(&out).starts_with(" 2080{rght}\n"),
        "{}",
        stdout_of(&out)
    );
    assert!(stdout_of(&out).contains("READY."), "{}", stdout_of(&out));
    assert_stderr_has(&out, "returned to BASIC");
}

#[test]
fn tokenize_then_list_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let bas = write(dir.path(), "p.bas", b"10 SYS2080\n");
    let prg = dir.path().join("p.prg");
    c64kit().args(["tokenize", &bas]).assert().code(0);
    let bytes = std::fs::read(&prg).unwrap();
    assert_eq!(
        bytes,
        [0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0]
    );
    let out = c64kit()
        .args(["list", &prg.display().to_string()])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), "10 sys2080\n");
}

#[test]
fn asm_accepts_negative_defines() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "d.asm", b"*=$1000\n  byte VALUE\n");
    let out = dir.path().join("d.prg");
    c64kit()
        .args(["asm", &src, "-D", "VALUE=-1", "-o"])
        .arg(&out)
        .assert()
        .code(0);
    assert_eq!(std::fs::read(&out).unwrap(), [0x00, 0x10, 0xFF]);
}

#[test]
fn save_and_load_use_the_drive_folder() {
    let dir = tempfile::tempdir().unwrap();
    // SETNAM "T" (at $0860); SETLFS 1,8,0; SAVE $0820-$082F from the pointer in $FB;
    // LOAD "T" with SA=0 to $C000; copy $C000 to $0900; RTS.
    let mut code = vec![
        0xA9, 0x01, 0xA2, 0x60, 0xA0, 0x08, 0x20, 0xBD, 0xFF, // SETNAM
        0xA9, 0x01, 0xA2, 0x08, 0xA0, 0x00, 0x20, 0xBA, 0xFF, // SETLFS 1,8,0
        0xA9, 0x20, 0x85, 0xFB, 0xA9, 0x08, 0x85, 0xFC, // $FB/$FC = $0820
        0xA9, 0xFB, 0xA2, 0x30, 0xA0, 0x08, 0x20, 0xD8, 0xFF, // SAVE up to $0830
        0xA9, 0x00, 0xA2, 0x00, 0xA0, 0xC0, 0x20, 0xD5, 0xFF, // LOAD to $C000
        0xAD, 0x00, 0xC0, 0x8D, 0x00, 0x09, 0x60,
    ];
    assert!(code.len() <= 0x40);
    code.resize(0x40, 0xEA);
    code.push(b'T');
    let prg = write(dir.path(), "saver.prg", &stub_prg(&code));
    c64kit()
        .args(["run", &prg, "--drive-dir"])
        .arg(dir.path())
        .assert()
        .code(0);
    let saved = std::fs::read(dir.path().join("t")).expect("SAVE wrote the file");
    assert_eq!(&saved[..2], &[0x20, 0x08], "load address");
    assert_eq!(saved.len(), 2 + 0x10);
    assert_eq!(saved[2], 0xA9, "the first code byte");
}

/// VICE's debug cartridge: the first write to $D7FF ends the run with that value; off by
/// default, when $D7FF is the SID mirror it is on a real C64.
#[test]
fn debugcart_ends_the_run_with_the_value_written() {
    let dir = temp_dir("debugcart");
    let fail = write(
        &dir,
        "fail.prg",
        &stub_asm("lda #$42\nsta $d7ff\nlda #0\nsta $d7ff\nrts"),
    );
    let out = c64kit()
        .args(["run", "--debugcart", &fail])
        .assert()
        .code(11);
    assert_stderr_has(&out, "debug cartridge: $42");
    let pass = write(
        &dir,
        "pass.prg",
        &stub_asm("lda #0\nsta $d7ff\nloop jmp loop"),
    );
    let out = c64kit()
        .args(["run", "--debugcart", &pass])
        .assert()
        .code(0);
    assert_stderr_has(&out, "debug cartridge: $00");
    // Without the cartridge the write goes to the SID and the program runs on.
    let out = c64kit().args(["run", &fail]).assert().code(0);
    assert_stderr_has(&out, "returned to BASIC");
    let out = c64kit()
        .args(["run", "--bare", "--debugcart", &fail])
        .assert()
        .code(2);
    assert_stderr_has(&out, "--debugcart");
}

/// ANE and LXA use the magic constants most C64s show ($EF, $EE) unless told otherwise.
#[test]
fn cpu_magic_sets_ane_and_lxa_constants() {
    let dir = temp_dir("cpu-magic");
    // A = 0, X = $FF; ANE #$FF gives A = (A | magic) & X & $FF; its result goes to the
    // debug cartridge. Then the same for LXA #$FF: A = X = (A | magic) & $FF.
    let ane = write(
        &dir,
        "ane.prg",
        &stub_asm("lda #0\nldx #$ff\nbyte $8b,$ff\nsta $d7ff\nrts"),
    );
    let lxa = write(
        &dir,
        "lxa.prg",
        &stub_asm("lda #0\nbyte $ab,$ff\nsta $d7ff\nrts"),
    );
    let value = |prg: &str, magic: Option<&str>| {
        let mut cmd = c64kit();
        cmd.args(["run", "--debugcart", prg]);
        if let Some(m) = magic {
            cmd.args(["--cpu-magic", m]);
        }
        debug_cart_value(&cmd.assert())
    };
    assert_eq!(value(&ane, None), "EF");
    assert_eq!(value(&lxa, None), "EE");
    assert_eq!(value(&ane, Some("$00")), "00");
    assert_eq!(value(&lxa, Some("$EE,$FF")), "FF");
    let out = c64kit()
        .args(["run", "--cpu-magic", "$100", &ane])
        .assert()
        .code(2);
    assert_stderr_has(&out, "more than a byte");
}

/// `--cia 6526a` (or `cia = "6526a"` in c64kit.toml) makes the CIAs 6526As: ICR bit 7 comes
/// with the timer's flag, where the 6526 sets it a cycle later.
#[test]
fn cia_selects_the_old_or_new_chip() {
    let dir = temp_dir("cia-model");
    // Interrupts off in the CPU, timer A's on in the CIA. For timer A latches 7..0 (one-shot),
    // poll the ICR until a flag shows and AND what was read: some poll meets the underflow
    // cycle itself, which on the 6526 reads $01 (bit 7 follows a cycle later) and on the
    // 6526A $81.
    let prg = write(
        &dir,
        "icr.prg",
        &stub_asm(
            "sei\nlda #0\nsta $dc0e\nlda #$7f\nsta $dc0d\nlda #$81\nsta $dc0d\n\
             lda $dc0d\nlda #$ff\nsta $fb\nldx #7\n\
             next stx $dc04\nlda #0\nsta $dc05\nlda #$19\nsta $dc0e\n\
             poll lda $dc0d\nbeq poll\nand $fb\nsta $fb\ndex\nbpl next\n\
             lda $fb\nsta $d7ff\nrts",
        ),
    );
    assert_chip_option(
        &dir,
        &prg,
        ChipOption {
            flag: "--cia",
            key: "cia",
            default: "01",
            models: &[("6526", "01"), ("6526a", "81"), ("6526A", "81")],
            in_file: ("6526a", "81"),
            flag_wins: ("6526", "01"),
            bad: ("8520", "new"),
            error: "not a CIA model",
        },
    );
}

/// `--sid 8580` (or `sid = "8580"` in c64kit.toml) puts an 8580 in the socket: a byte
/// written to the SID stays readable from a write-only register for about $A2000 cycles,
/// where the 6581's fades after about $1D00.
#[test]
fn sid_selects_the_old_or_new_chip() {
    let dir = temp_dir("sid-model");
    // Write $5A to a SID register, wait about 12,800 cycles (between the two lifetimes),
    // read a write-only register back.
    let prg = write(
        &dir,
        "busvalue.prg",
        &stub_asm(
            "sei\nlda #$5a\nsta $d400\nldy #10\n\
             outer ldx #0\ninner dex\nbne inner\ndey\nbne outer\n\
             lda $d400\nsta $d7ff\nrts",
        ),
    );
    assert_chip_option(
        &dir,
        &prg,
        ChipOption {
            flag: "--sid",
            key: "sid",
            default: "00",
            models: &[("6581", "00"), ("8580", "5A")],
            in_file: ("8580", "5A"),
            flag_wins: ("6581", "00"),
            bad: ("6582", "new"),
            error: "not a SID model",
        },
    );
}

/// A chip-model option, checked through a program that stores what tells the models apart
/// in the debug cartridge.
struct ChipOption<'a> {
    flag: &'a str,
    /// Its key in c64kit.toml.
    key: &'a str,
    /// The program's value without the option.
    default: &'a str,
    /// Models as the flag takes them, with the program's value under each.
    models: &'a [(&'a str, &'a str)],
    /// A model set in c64kit.toml (with its value), and one the flag then sets instead.
    in_file: (&'a str, &'a str),
    flag_wins: (&'a str, &'a str),
    /// A model refused by the flag, and one refused in the file; what the error says.
    bad: (&'a str, &'a str),
    error: &'a str,
}

/// The option selects each model by flag or by c64kit.toml (the flag wins over the file),
/// and a bad model is an error: a usage error from the flag, one naming the file and its key
/// from the settings.
fn assert_chip_option(dir: &std::path::Path, prg: &str, o: ChipOption) {
    let value = |args: &[&str]| {
        let out = c64kit()
            .current_dir(dir)
            .args(["run", "--debugcart", prg])
            .args(args)
            .assert();
        debug_cart_value(&out)
    };
    assert_eq!(value(&[]), o.default);
    for (model, expected) in o.models {
        assert_eq!(value(&[o.flag, model]), *expected, "{} {model}", o.flag);
    }
    let out = c64kit()
        .args(["run", o.flag, o.bad.0, prg])
        .assert()
        .code(2);
    assert_stderr_has(&out, o.error);
    let settings = dir.join("c64kit.toml");
    std::fs::write(&settings, format!("{} = \"{}\"\n", o.key, o.in_file.0)).unwrap();
    assert_eq!(value(&[]), o.in_file.1);
    assert_eq!(value(&[o.flag, o.flag_wins.0]), o.flag_wins.1);
    std::fs::write(&settings, format!("{} = \"{}\"\n", o.key, o.bad.1)).unwrap();
    let out = c64kit()
        .current_dir(dir)
        .args(["run", prg])
        .assert()
        .code(1);
    let err = stderr_of(&out);
    assert!(err.contains(&format!("c64kit.toml: {}: ", o.key)), "{err}");
    assert!(err.contains(o.error), "{err}");
}

/// A game reads joystick 2 at $DC00 and joystick 1 at $DC01; the key script holds them.
#[test]
fn scripted_joysticks_reach_a_program_that_reads_the_ports() {
    let dir = temp_dir("joystick");
    let game = write(
        &dir,
        "game.prg",
        &stub_asm(
            "fire lda $dc00\nand #$10\nbne fire\nlda #70\njsr $ffd2\n\
             up lda $dc01\nand #$01\nbne up\nlda #85\njsr $ffd2\nrts",
        ),
    );
    let out = c64kit()
        .args(["run", &game, "--input", "{JOY2 FIRE 2f}{JOY1 UP}"])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), format!("FU{READY}"));
    // Without the script the program waits for fire until the budget.
    c64kit()
        .args(["run", &game, "--max-cycles", "200000"])
        .assert()
        .code(4);
    let out = c64kit()
        .args(["run", &game, "--input", "{JOY2 JUMP}"])
        .assert()
        .code(1);
    assert_stderr_has(&out, "not UP, DOWN");
}

/// Paddles: a program selects control port 1's pair through $DC00 bits 7-6, waits a
/// measuring cycle and prints POTX and POTY as characters; `{PADDLE1 n}` sets them.
#[test]
fn scripted_paddles_reach_a_program_that_reads_the_pot_registers() {
    let dir = temp_dir("paddles");
    let game = write(
        &dir,
        "paddles.prg",
        &stub_asm(
            "sei\nlda #$c0\nsta $dc02\nlda #$40\nsta $dc00\n\
             ldy #0\nwait dey\nbne wait\n\
             lda $d419\njsr $ffd2\nlda $d41a\njsr $ffd2\nrts",
        ),
    );
    let out = c64kit()
        .args([
            "run",
            &game,
            "--input",
            "{PADDLE1 65}{paddle2 66}{PADDLE3 67}",
        ])
        .assert()
        .code(0);
    assert_eq!(stdout_of(&out), format!("AB{READY}"));
    for (script, says) in [
        ("{PADDLE5 65}", "{PADDLE5}: paddles are PADDLE1 to PADDLE4"),
        (
            "{PADDLE1 300}",
            "{PADDLE1 ...}: position 300 is not 0 to 255",
        ),
        ("{MOUSE1 5}", "{MOUSE1 ...}: a move is two numbers"),
    ] {
        let out = c64kit()
            .args(["run", &game, "--input", script])
            .assert()
            .code(1);
        assert_stderr_has(&out, says);
    }
}

/// A program that installs an interrupt routine and returns to BASIC keeps running with
/// `--after-return wait`, as on a real C64; `return` (the default of `run`) ends there.
#[test]
fn after_return_wait_keeps_a_programs_interrupt_routine_running() {
    let dir = temp_dir("after-return");
    // The IRQ routine prints "*" on its first three calls, then chains to the KERNAL's.
    let prg = write(
        &dir,
        "irq.prg",
        &stub_asm(
            "sei\nlda #<irq\nsta $0314\nlda #>irq\nsta $0315\ncli\nrts\n\
             irq inc count\nlda count\ncmp #4\nbcs skip\nlda #42\njsr $ffd2\n\
             skip jmp $ea31\ncount byte 0",
        ),
    );
    // BASIC's own READY. after the RTS into its SYS, then the run ends: the IRQ routine
    // never ran.
    let out = c64kit().args(["run", &prg]).assert().code(0);
    assert_eq!(stdout_of(&out), READY, "{}", stderr_of(&out));
    let out = c64kit()
        .args([
            "run",
            &prg,
            "--after-return",
            "wait",
            "--max-cycles",
            "300000",
        ])
        .assert()
        .code(4);
    // BASIC's READY. (CR LF READY. CR LF), then the IRQ routine's stars at the cursor
    // while BASIC waits for a line.
    assert_eq!(stdout_of(&out), "\n{$0a}READY.\n{$0a}***\n");
    // With a key script, its end is the run's end.
    let out = c64kit()
        .args([
            "run",
            &prg,
            "--after-return",
            "wait",
            "--input",
            "{WAIT 50000}x",
        ])
        .assert()
        .code(3);
    assert!(
        stdout_of(&out).starts_with("\n{$0a}READY.\n{$0a}"),
        "{}",
        stdout_of(&out)
    );
    c64kit()
        .args(["run", &prg, "--after-return", "later"])
        .assert()
        .code(2);
}

/// A program whose bytes reach $9FFF runs intact: the file name LOAD leaves under MEMSIZ
/// ($A000) goes only where the program does not reach (it once overwrote the last bytes).
#[test]
fn a_program_reaching_9fff_keeps_its_last_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let mut prg = stub_asm(
        "         ldx #15
loop     txa
         ora #$f0
         cmp $9ff0,x
         bne bad
         dex
         bpl loop
         lda #$4f           ; O
         jsr $ffd2
         lda #$4b           ; K
         jmp $ffd2
bad      lda #$42           ; B
         jsr $ffd2
         lda #$41           ; A
         jsr $ffd2
         lda #$44           ; D
         jmp $ffd2",
    );
    // Up to $9FFF, the last 16 bytes $F0..$FF.
    prg.resize(2 + 0xA000 - 0x0801, 0xEA);
    let end = prg.len();
    for (i, b) in prg[end - 16..].iter_mut().enumerate() {
        *b = 0xF0 | i as u8;
    }
    let path = write(dir.path(), "a-long-program-name.prg", &prg);
    let out = c64kit().args(["run", &path]).assert().code(0);
    assert_eq!(stdout_of(&out), format!("OK{READY}"));
}

/// A SYS whose address only BASIC works out (a variable: X is 0 after RUN) is RUN by our
/// BASIC, as on a C64: SYS 65517 (SCREEN) returns into BASIC, which ends at READY.
#[test]
fn a_sys_with_a_variable_runs_through_basic() {
    let dir = temp_dir("sys-variable");
    let bas = write(&dir, "sysx.bas", b"10 SYS X+65517:PRINT \"BACK\"\n");
    let out = c64kit().args(["run", &bas]).assert().code(0);
    assert_eq!(stdout_of(&out), format!("BACK\n{READY}"));
    assert_stderr_has(&out, "returned to BASIC");
}
