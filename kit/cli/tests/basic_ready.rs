//! BASIC from the command line without a program (`run --input` types at `READY.`) and
//! RUN/STOP in a key script (`{STOP}`), as a user runs them.

mod common;

use common::{c64kit, stderr_of, stdout_of, write};

#[test]
fn run_without_a_file_types_the_script_at_ready() {
    let out = c64kit()
        .args(["run", "--input", "10 PRINT 6*7\nRUN\nPRINT \"DONE\"\n"])
        .assert()
        .code(0);
    let stdout = stdout_of(&out);
    assert!(stdout.contains(" 42{rght}\n"), "{stdout}");
    assert!(stdout.contains("DONE\n"), "{stdout}");
    assert!(stdout.ends_with("READY.\n{$0a}\n"), "{stdout}");
    assert!(stderr_of(&out).contains("returned to BASIC"));
    // An error typed there ends the run with BASIC's exit code.
    let out = c64kit()
        .args(["run", "--input", "PRINT 1/0\n"])
        .assert()
        .code(12);
    assert!(
        stderr_of(&out).contains("DIVISION BY ZERO"),
        "{}",
        stderr_of(&out)
    );
    // Without keys there is still nothing to run.
    let out = c64kit().args(["run"]).assert().code(2);
    assert!(stderr_of(&out).contains("nothing to run"));
}

#[test]
fn run_stop_in_a_key_script_breaks_the_program() {
    let dir = tempfile::tempdir().unwrap();
    let bas = write(dir.path(), "loop.bas", b"10 GOTO 10\n");
    let out = c64kit()
        .args(["run", &bas, "--input", "{WAIT 2000000}{STOP}"])
        .assert()
        .code(0);
    let stdout = stdout_of(&out);
    assert!(
        stdout.ends_with("\n{$0a}BREAK IN 10\n{$0a}READY.\n{$0a}\n"),
        "{stdout}"
    );
    assert!(stderr_of(&out).contains("returned to BASIC"));
}
