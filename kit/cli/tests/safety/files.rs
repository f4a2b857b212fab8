//! Running anyone's program safely, through the binary: inputs that are not regular files or
//! are larger than they can usefully be are refused, no output ever replaces an input, output
//! that cannot be written is an error (a closed pipe is not), usage errors exit 2, and every
//! message names the file, setting or option at fault.

use crate::common::{c64kit, stderr_of, stdout_of, stub_asm, write};
use std::path::Path;

/// Prints "HELLO" then returns to BASIC.
fn hello() -> Vec<u8> {
    stub_asm(
        "    ldx #0
loop lda msg,x
    beq done
    jsr $ffd2
    inx
    bne loop
done rts
msg text \"hello\"
    byte 13, 0",
    )
}

fn refused(args: &[&str], code: i32) -> String {
    let out = c64kit().args(args).assert().code(code);
    stderr_of(&out)
}

#[test]
fn jmp_star_stops_with_exit_6_however_the_program_started() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // RUN through the BASIC stub: SYS leaves I clear and CIA 1's timer interrupts going,
    // but the KERNAL's own handler always returns to the loop.
    let prg = write(d, "end.prg", &stub_asm("    lda #1\nhere jmp here"));
    let e = refused(&["run", &prg], 6);
    assert!(
        e.contains("stuck in a one-instruction loop at $0822"),
        "{e}"
    );
    // A branch to itself is a one-instruction loop too.
    let prg = write(d, "bne.prg", &stub_asm("    lda #1\nhere bne here"));
    refused(&["run", &prg], 6);
    // --start, and a raw binary with --load.
    let raw = write(d, "raw.bin", &[0xEA, 0x4C, 0x01, 0xC0]);
    refused(&["run", "--load", "0xc000", &raw], 6);
    refused(&["run", &prg, "--start", "0x0820"], 6);
    // With a breakpoint or a trace the checking loop sees it the same way.
    let trace = d.join("t.txt").display().to_string();
    refused(&["run", &prg, "--trace", &trace], 6);
}

#[test]
fn a_loop_waiting_for_its_own_interrupt_is_not_stuck() {
    let dir = tempfile::tempdir().unwrap();
    // The program's IRQ handler at $0314 does the work while the main loop idles in JMP *:
    // that is a running program, not an end.
    let prg = write(
        dir.path(),
        "irq.prg",
        &stub_asm(
            "    sei
    lda #<irq
    sta $0314
    lda #>irq
    sta $0315
    cli
here jmp here
irq inc $d020
    jmp $ea31",
        ),
    );
    let e = refused(&["run", &prg, "--max-cycles", "100000"], 4);
    assert!(e.contains("cycle budget"), "{e}");
    // Its own vector at $FFFE with the KERNAL banked out, likewise.
    let prg = write(
        dir.path(),
        "ram.prg",
        &stub_asm(
            "    sei
    lda #$35
    sta $01
    lda #<irq
    sta $fffe
    lda #>irq
    sta $ffff
    cli
here jmp here
irq pha
    lda $dc0d
    pla
    rti",
        ),
    );
    refused(&["run", &prg, "--max-cycles", "100000"], 4);
    // I set and the KERNAL's handler: nothing can leave.
    let prg = write(dir.path(), "sei.prg", &stub_asm("    sei\nhere jmp here"));
    refused(&["run", &prg], 6);
}

#[test]
fn usage_errors_exit_2() {
    let e = refused(&["run"], 2);
    assert!(e.contains("nothing to run"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let prg = write(dir.path(), "h.prg", &hello());
    let e = refused(&["run", &prg, "-O", "png.scale2"], 2);
    assert!(
        e.contains("--option png.scale2: expected NAME.KEY=VALUE"),
        "{e}"
    );
    let e = refused(&["run", &prg, "-O", "scale=2"], 2);
    assert!(e.contains("expected NAME.KEY=VALUE"), "{e}");
}

#[test]
fn entry_is_for_images_only() {
    let dir = tempfile::tempdir().unwrap();
    let prg = write(dir.path(), "h.prg", &hello());
    let e = refused(&["run", &prg, "--loader", "prg", "--entry", "GAME*"], 1);
    assert!(!e.contains("unknown option"), "{e}");
    assert!(
        e.contains("--entry GAME*: ") && e.contains("inside a tape or disk image"),
        "{e}"
    );
}

#[test]
fn what_is_not_a_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prg = write(d, "h.prg", &hello());
    let folder = d.display().to_string();
    // A folder as ROM image: one message, the OS error not repeated.
    let e = refused(&["run", &prg, "--chargen-rom", &folder], 1);
    assert_eq!(
        e.trim(),
        format!("c64kit: --chargen-rom: {folder}: is a folder, not a file")
    );
    let e = refused(&["run", "/dev/zero"], 1);
    assert!(e.contains("/dev/zero: is a character device"), "{e}");
    let e = refused(&["run", &prg, "--input-file", "/dev/urandom"], 1);
    assert!(e.contains("/dev/urandom: is a character device"), "{e}");
    let e = refused(&["run", "--load", "0xc000", "/dev/zero"], 1);
    assert!(e.contains("/dev/zero: is a character device"), "{e}");
    let e = refused(&["--config", "/dev/zero", "run", &prg], 1);
    assert!(e.contains("/dev/zero: is a character device"), "{e}");
    let e = refused(&["list", &folder], 1);
    assert!(e.contains("is a folder"), "{e}");
    // A FIFO nobody writes to would block a plain read forever.
    let fifo = d.join("pipe.prg");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .map(|s| s.success());
    if made.unwrap_or(false) {
        let e = refused(&["run", &fifo.display().to_string()], 1);
        assert!(e.contains("is a FIFO"), "{e}");
        let e = refused(&["tokenize", &fifo.display().to_string()], 1);
        assert!(e.contains("is a FIFO"), "{e}");
    }
}

#[test]
fn files_larger_than_they_can_matter_are_refused_naming_the_size() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let big = write(d, "big.prg", &vec![1u8; 70_000]);
    let e = refused(&["list", &big], 1);
    assert!(
        e.contains("68.4 KiB is more than a PRG can be (64.0 KiB)"),
        "{e}"
    );
    let raw = write(d, "big.bin", &vec![0u8; 0x10001]);
    let e = refused(&["run", "--load", "0", &raw], 1);
    assert!(
        e.contains("is more than a raw binary can be (64 KiB)"),
        "{e}"
    );
    // A sparse 150 MiB file costs the test nothing and must cost c64kit nothing either.
    let huge = d.join("huge.d64");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(150 * 1024 * 1024)
        .unwrap();
    let e = refused(&["run", &huge.display().to_string()], 1);
    assert!(
        e.contains("150 MiB is more than a program file can be (16 MiB)"),
        "{e}"
    );
    let rom = write(d, "kernal.bin", &vec![0u8; 0x2001]);
    let e = refused(&["run", &big, "--kernal-rom", &rom], 1);
    assert!(
        e.contains("--kernal-rom: ") && e.contains("KERNAL ROM image"),
        "{e}"
    );
}

#[test]
fn no_output_replaces_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prg = write(d, "h.prg", &hello());
    let keys = write(d, "keys.txt", b"x");
    let before = std::fs::read(&prg).unwrap();
    for args in [
        vec!["run", &prg, "--screenshot", &prg],
        vec!["run", &prg, "--trace", &prg],
        vec!["run", &prg, "--input-file", &keys, "--html", &keys],
        vec![
            "run",
            &prg,
            "--display",
            "png",
            "-O",
            &format!("png.output={prg}"),
        ],
    ] {
        let e = refused(&args, 1);
        assert!(
            e.contains("never writes over one of its inputs"),
            "{args:?}: {e}"
        );
    }
    // Another spelling of the same file, and a hard link to it.
    let spelled = format!("{}/./h.prg", d.display());
    let e = refused(&["run", &prg, "--trace", &spelled], 1);
    assert!(
        e.contains(&spelled) && e.contains(&prg),
        "both paths named: {e}"
    );
    let link = d.join("link.prg");
    std::fs::hard_link(&prg, &link).unwrap();
    refused(
        &["run", &prg, "--screenshot", &link.display().to_string()],
        1,
    );
    // A screenshot named after the program (the png display's default) is fine...
    let shot = write(d, "shot.png", b"old");
    c64kit()
        .current_dir(d)
        .args(["run", &prg, "--screenshot", &shot])
        .assert()
        .code(0);
    // ...but numbered shots that could land on an input are refused before the run.
    let numbered = write(d, "s-19656.png", b"input");
    let e = refused(
        &[
            "run",
            &prg,
            "--load",
            "0xc000",
            &numbered,
            "--screenshot",
            &d.join("s.png").display().to_string(),
            "--screenshot-at",
            "1",
        ],
        1,
    );
    assert!(e.contains("--screenshot-at"), "{e}");
    assert_eq!(
        std::fs::read(&prg).unwrap(),
        before,
        "the program is untouched"
    );
    assert_eq!(std::fs::read(&numbered).unwrap(), b"input");
}

#[test]
fn tokenize_never_writes_over_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = b"10 print \"hi\"\n";
    let src = write(d, "t.prg", text);
    let e = refused(&["tokenize", &src, "-o", &src], 1);
    assert!(
        e.contains("the output") && e.contains("the BASIC text"),
        "{e}"
    );
    // The default output of a source named .prg is not the source.
    c64kit().args(["tokenize", &src]).assert().code(0);
    assert_eq!(std::fs::read(&src).unwrap(), text);
    assert!(d.join("t-tokenized.prg").is_file());
    let bas = write(d, "u.bas", text);
    c64kit().args(["tokenize", &bas]).assert().code(0);
    assert!(d.join("u.prg").is_file());
}

#[test]
fn output_that_cannot_be_written_is_an_error_a_closed_pipe_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prg = write(d, "h.prg", &hello());
    if Path::new("/dev/full").exists() {
        let full = || {
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap()
        };
        for (args, what) in [
            (
                vec!["run", &prg],
                "cannot write the transcript to standard output",
            ),
            (
                vec!["run", &prg, "-q", "--dump-screen"],
                "cannot write the screen",
            ),
            (vec!["list", &prg], "cannot write the listing"),
            (vec!["plugins"], "cannot write the plugin list"),
        ] {
            let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("c64kit"))
                .args(&args)
                .stdout(full())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            let e = String::from_utf8_lossy(&out.stderr);
            assert!(
                e.contains(what) && e.contains("No space left"),
                "{args:?}: {e}"
            );
        }
        let e = refused(&["run", &prg, "--trace", "/dev/full"], 1);
        assert!(e.contains("cannot write the trace /dev/full"), "{e}");
        for option in ["--screenshot", "--html", "--record"] {
            let e = refused(&["run", &prg, option, "/dev/full"], 1);
            assert!(e.contains("cannot write /dev/full: No space left"), "{e}");
            // Written into, not replaced: the device is still there.
            assert!(
                !Path::new("/dev/full").is_file(),
                "{option} replaced /dev/full"
            );
        }
        let src = write(d, "h.asm", b"*=$c000\n rts\n");
        let out = d.join("h.prg").display().to_string();
        let e = refused(&["asm", &src, "-o", &out, "--list", "/dev/full"], 1);
        assert!(e.contains("cannot write /dev/full: No space left"), "{e}");
        let e = refused(&["run", "--bare", &prg, "--trace", "/dev/full"], 1);
        assert!(e.contains("cannot write the trace /dev/full"), "{e}");
    }
    // A reader that goes away (`| head -c 1`): the run goes on to its end quietly.
    let chatty = write(
        d,
        "chatty.prg",
        &stub_asm(
            "    ldy #0
outer ldx #0
inner lda #65
    jsr $ffd2
    dex
    bne inner
    dey
    bne outer
    rts",
        ),
    );
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("c64kit"))
        .args(["run", &chatty])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let e = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{e}");
    assert!(
        !e.contains("cannot write") && !e.contains("panicked"),
        "{e}"
    );
    assert!(e.contains("returned to BASIC"), "{e}");
}

#[test]
fn settings_errors_name_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prg = write(d, "h.prg", &hello());
    let cfg = write(d, "c64kit.toml", b"plugins = [\"libs/libmissing.so\"]\n");
    let e = refused(&["--config", &cfg, "run", &prg], 1);
    assert!(
        e.contains(&format!("{cfg}: plugins[0]: "))
            && e.contains("libs/libmissing.so: cannot read"),
        "{e}"
    );
    let cfg = write(d, "c64kit.toml", b"[plugin.pgn]\nscale = 2\n");
    let e = refused(&["--config", &cfg, "run", &prg], 1);
    assert!(
        e.contains(&format!("{cfg}: [plugin.pgn]: no plugin is named \"pgn\"")),
        "{e}"
    );
    let cfg = write(d, "c64kit.toml", b"[roms]\nchargen = \"roms/none.bin\"\n");
    let e = refused(&["--config", &cfg, "run", &prg], 1);
    assert!(
        e.contains(&format!("{cfg}: roms.chargen: ")) && e.contains("none.bin: cannot read"),
        "{e}"
    );
    let cfg = write(d, "c64kit.toml", b"display = [\"transcript\", \"pgn\"]\n");
    let e = refused(&["--config", &cfg, "run", &prg], 1);
    assert!(
        e.contains(&format!("{cfg}: display: no display named \"pgn\"")),
        "{e}"
    );
    let cfg = write(d, "c64kit.toml", b"display = \"png\"\n# caf\xE9\n");
    let e = refused(&["--config", &cfg, "run", &prg], 1);
    assert!(e.contains("line 2, column 6: invalid UTF-8"), "{e}");
    // A parser's error quotes at most about 200 characters of a line.
    let long = format!("display = {}\n", "x".repeat(100_000));
    let cfg = write(d, "c64kit.toml", long.as_bytes());
    let e = refused(&["--config", &cfg, "run", &prg], 1);
    assert!(
        e.contains("more characters") && e.len() < 1000,
        "{} bytes",
        e.len()
    );
    // The current folder's c64kit.toml is found and named the same way.
    write(d, "c64kit.toml", b"[plugin.nope]\nx = 1\n");
    let out = c64kit().current_dir(d).args(["run", &prg]).assert().code(1);
    assert!(
        stderr_of(&out).contains("c64kit.toml: [plugin.nope]"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn invalid_utf8_is_named_by_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prg = write(d, "h.prg", &hello());
    let keys = write(d, "keys.txt", b"abc\nd\xFFe\n");
    let e = refused(&["run", &prg, "--input-file", &keys], 1);
    assert!(
        e.contains("keys.txt: line 2, column 2: invalid UTF-8"),
        "{e}"
    );
    let bas = write(d, "p.bas", b"10 print\n20 print \"\xE9\"\n");
    let e = refused(&["tokenize", &bas], 1);
    assert!(e.contains("p.bas: line 2, column 11: invalid UTF-8"), "{e}");
    let e = refused(&["run", &bas], 1);
    assert!(e.contains("p.bas: line 2, column 11: invalid UTF-8"), "{e}");
}

#[test]
fn key_scripts_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let prg = write(dir.path(), "h.prg", &hello());
    let e = refused(&["run", &prg, "--input", "{WAIT 18446744073709551615}x"], 1);
    assert!(e.contains("more cycles than a run can count"), "{e}");
    let e = refused(
        &[
            "run",
            &prg,
            "--input",
            &format!("{{{}}}", "z".repeat(50_000)),
        ],
        1,
    );
    assert!(
        e.len() < 600,
        "quotes at most about 200 characters: {} bytes",
        e.len()
    );
}

#[test]
fn bare_takes_trace_and_refuses_what_needs_a_c64() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // LDX #3; DEX; BNE -3; JMP *
    let raw = write(
        d,
        "count.bin",
        &[0xA2, 0x03, 0xCA, 0xD0, 0xFD, 0x4C, 0x05, 0x02],
    );
    let trace = d.join("trace.txt");
    c64kit()
        .args(["run", "--bare", "--load", "0x200", &raw, "--trace"])
        .arg(&trace)
        .assert()
        .code(6);
    let lines = std::fs::read_to_string(&trace).unwrap();
    // LDX, then DEX and BNE three times, then the JMP that stops it.
    assert_eq!(lines.lines().count(), 8, "{lines}");
    assert!(lines.starts_with(".C:0200  A2 03     LDX #$03"), "{lines}");
    for (option, why) in [
        (vec!["--dump-screen"], "no screen"),
        (vec!["--input", "x"], "no keyboard"),
        (vec!["--screenshot", "x.png"], "displays"),
        (vec!["--drive-dir", "."], "no drive"),
    ] {
        let mut args = vec!["run", "--bare", "--load", "0x200", &raw];
        args.extend(option.iter().copied());
        let e = refused(&args, 2);
        assert!(e.contains("--bare cannot take") && e.contains(why), "{e}");
    }
    // Output stays the program's own: nothing on stdout in bare mode.
    let out = c64kit()
        .args(["run", "--bare", "--load", "0x200", &raw])
        .assert()
        .code(6);
    assert_eq!(stdout_of(&out), "");
}
