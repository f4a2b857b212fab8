//! The README's table "Exit codes of `c64kit run`" against what the binary does: a case per
//! stop reason and per error class runs through the binary, its exit code's row must say
//! what happened, and every row of the table is some case's, so table and code cannot drift.

mod common;

use c64kit_machine::StopReason;
use common::{c64kit, stderr_of, stub_prg, temp_dir, write};
use std::collections::BTreeMap;

/// The README's table: code -> what its row says.
fn readme_table() -> BTreeMap<i32, String> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md at the workspace's root");
    let section = readme
        .split("### Exit codes of `c64kit run`")
        .nth(1)
        .expect("README.md has a section \"Exit codes of `c64kit run`\"");
    let mut rows = BTreeMap::new();
    let table = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'));
    for line in table {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        let [code, text] = cells[..] else {
            continue;
        };
        if let Ok(code) = code.trim().parse::<i32>() {
            assert!(
                rows.insert(code, text.to_string()).is_none(),
                "code {code} twice"
            );
        }
    }
    assert!(!rows.is_empty(), "no rows found in the exit code table");
    rows
}

/// What the row of a stop reason's code must say. A new stop reason does not compile here
/// until it is given its words (and then a case below and a row in the README).
fn row_says(stop: &StopReason) -> &'static str {
    match stop {
        StopReason::ReturnedToBasic => "returned to BASIC",
        StopReason::InputExhausted => "input exhausted",
        StopReason::CycleBudget { .. } => "cycle budget reached",
        StopReason::Breakpoint { .. } => "breakpoint",
        StopReason::StuckLoop { .. } => "one-instruction loop",
        StopReason::Jammed { .. } => "CPU jammed",
        StopReason::BrkNoHandler { .. } => "BRK with no handler",
        StopReason::Unimplemented { .. } => "KERNAL routine c64kit does not provide",
        // Nothing stops so since BASIC's statement loop is our BASIC's own code, which a
        // KERNAL image given alone runs with too.
        StopReason::Reset => "jumped to RESET",
        StopReason::DebugCart { value: 0 } => "wrote $00 to VICE's debug cartridge",
        StopReason::DebugCart { .. } => "a value other than $00",
        StopReason::BasicError { .. } => "stopped with an error",
    }
}

/// How a case ends: with a stop reason (its code from `StopReason::exit_code`), or with an
/// error of a class (its words in the table).
enum Ends {
    Stop(StopReason),
    Error(&'static str),
}

/// One case per row and more: programs are "10 SYS2080" with their code at $0820.
fn cases(dir: &std::path::Path) -> Vec<(&'static str, Vec<String>, Ends)> {
    let prg = |name: &str, code: &[u8]| write(dir, name, &stub_prg(code));
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // "10 PRINT2080": BASIC before any SYS.
    let basic_first = |code: &[u8]| {
        let mut p = stub_prg(code);
        p[6] = 0x99;
        p
    };
    // JSR RUNC; JMP NEWSTT ($A7AE): RUN's statement loop, as a decruncher ends.
    let newstt = basic_first(&[0x20, 0x59, 0xA6, 0x4C, 0xAE, 0xA7]);
    // Any 8 KB file is a KERNAL image: given without a BASIC image, it runs with our BASIC.
    let kernal = write(dir, "kernal.bin", &[0; 0x2000]);
    let rts = prg("rts.prg", &[0x60]);
    use Ends::{Error, Stop};
    vec![
        (
            "returns",
            args(&["run", &rts]),
            Stop(StopReason::ReturnedToBasic),
        ),
        (
            "debug cartridge $00",
            // LDA #0; STA $D7FF
            args(&[
                "run",
                "--debugcart",
                &prg("dc0.prg", &[0xA9, 0, 0x8D, 0xFF, 0xD7]),
            ]),
            Stop(StopReason::DebugCart { value: 0 }),
        ),
        (
            "debug cartridge $FF",
            args(&[
                "run",
                "--debugcart",
                &prg("dcff.prg", &[0xA9, 0xFF, 0x8D, 0xFF, 0xD7]),
            ]),
            Stop(StopReason::DebugCart { value: 0xFF }),
        ),
        (
            "input exhausted",
            // loop: JSR GETIN; JMP loop
            args(&[
                "run",
                "--input",
                "a",
                &prg("getin.prg", &[0x20, 0xE4, 0xFF, 0x4C, 0x20, 0x08]),
            ]),
            Stop(StopReason::InputExhausted),
        ),
        (
            "cycle budget",
            // INC $D020; JMP $0820
            args(&[
                "run",
                "--max-cycles",
                "10000",
                &prg("loop.prg", &[0xEE, 0x20, 0xD0, 0x4C, 0x20, 0x08]),
            ]),
            Stop(StopReason::CycleBudget { budget: 10000 }),
        ),
        (
            "breakpoint",
            args(&["run", "--break", "$0821", &prg("nop.prg", &[0xEA, 0x60])]),
            Stop(StopReason::Breakpoint { pc: 0x0821 }),
        ),
        (
            "stuck loop",
            args(&["run", &prg("jmp.prg", &[0x4C, 0x20, 0x08])]),
            Stop(StopReason::StuckLoop { pc: 0x0820 }),
        ),
        (
            "jam",
            args(&["run", &prg("jam.prg", &[0x02])]),
            Stop(StopReason::Jammed {
                pc: 0x0820,
                opcode: 2,
            }),
        ),
        (
            "brk",
            args(&["run", &prg("brk.prg", &[0x00])]),
            Stop(StopReason::BrkNoHandler { pc: 0x0820 }),
        ),
        (
            "the KERNAL's internals",
            // JSR $E9FF: the screen editor's "clear a screen line", an internal KERNAL
            // routine c64kit does not provide ($E000-$E4D2 is BASIC's code, as on a C64).
            args(&["run", &prg("internal.prg", &[0x20, 0xFF, 0xE9])]),
            Stop(StopReason::Unimplemented {
                routine: "",
                pc: 0xE9FF,
            }),
        ),
        (
            // Our BASIC's statement loop runs the program (PRINT2080), then READY.
            "BASIC's statement loop",
            args(&[
                "run",
                "--start",
                "$0820",
                &write(dir, "newstt.prg", &newstt),
            ]),
            Stop(StopReason::ReturnedToBasic),
        ),
        (
            // Its reset (all BRKs) never reaches BASIC's READY. (c64kit's own BASIC, as the
            // image comes alone).
            "a KERNAL image that does not boot",
            args(&[
                "run",
                "--kernal-rom",
                &kernal,
                &write(dir, "basic-first.prg", &basic_first(&[])),
            ]),
            Error("c64kit error"),
        ),
        (
            "reset",
            // JMP ($FFFC)
            args(&["run", &prg("reset.prg", &[0x6C, 0xFC, 0xFF])]),
            Stop(StopReason::Reset),
        ),
        (
            "a BASIC error",
            args(&["run", &write(dir, "error.bas", b"10 PRINT 1/0\n")]),
            Stop(StopReason::BasicError {
                message: String::new(),
                line: None,
            }),
        ),
        (
            "a file that is not there",
            args(&["run", &dir.join("nosuch.prg").display().to_string()]),
            Error("c64kit error"),
        ),
        (
            "a file RUN cannot start",
            args(&["run", &write(dir, "notes.txt", b"Notes\n")]),
            Error("a file RUN cannot start: text"),
        ),
        ("no FILE", args(&["run"]), Error("command-line usage error")),
    ]
}

#[test]
fn the_readme_exit_code_table_is_what_the_binary_does() {
    let table = readme_table();
    let dir = temp_dir("exit-codes");
    let mut seen = std::collections::BTreeSet::new();
    for (what, args, ends) in cases(&dir) {
        let out = c64kit().current_dir(&dir).args(&args).assert();
        let code = out.get_output().status.code().expect("an exit code");
        let says = match &ends {
            Ends::Stop(stop) => {
                assert_eq!(
                    code,
                    stop.exit_code(),
                    "{what}: the binary's code is not the stop reason's:\n{}",
                    stderr_of(&out)
                );
                row_says(stop)
            }
            Ends::Error(says) => says,
        };
        let row = table.get(&code).unwrap_or_else(|| {
            panic!(
                "{what}: exit code {code} has no row in the README:\n{}",
                stderr_of(&out)
            )
        });
        assert!(
            row.contains(says),
            "{what} exits with {code}, whose README row does not say {says:?}: {row}"
        );
        seen.insert(code);
    }
    let rows: std::collections::BTreeSet<i32> = table.keys().copied().collect();
    assert_eq!(
        rows, seen,
        "README rows that no case gives (or codes it lacks)"
    );
}

/// `--exit-status` (and `exit_status = true`): a return to BASIC exits with the status the
/// program left in ST ($90), as cc65 programs leave their exit code; without it, 0. The stop
/// line gives ST either way; other stops keep their codes; `--bare` has no BASIC to return to.
#[test]
fn exit_status_is_what_the_program_left_in_st() {
    let dir = temp_dir("exit-status");
    // LDA #3; STA $90; RTS
    let st3 = write(&dir, "st3.prg", &stub_prg(&[0xA9, 3, 0x85, 0x90, 0x60]));
    let code = |args: &[&str]| {
        let out = c64kit().current_dir(&dir).args(args).assert();
        (out.get_output().status.code(), stderr_of(&out))
    };
    let (plain, err) = code(&["run", &st3]);
    assert_eq!(plain, Some(0), "{err}");
    assert!(err.contains("returned to BASIC (ST = 3) after"), "{err}");
    assert_eq!(code(&["run", "--exit-status", &st3]).0, Some(3));
    // A status of 0 is a pass, and 255 is kept whole.
    let st0 = write(&dir, "st0.prg", &stub_prg(&[0xA9, 0, 0x85, 0x90, 0x60]));
    assert_eq!(code(&["run", "--exit-status", &st0]).0, Some(0));
    let st255 = write(&dir, "st255.prg", &stub_prg(&[0xA9, 255, 0x85, 0x90, 0x60]));
    assert_eq!(code(&["run", "--exit-status", &st255]).0, Some(255));
    // The settings file's switch does the same.
    let config = write(&dir, "status.toml", b"exit_status = true\n");
    assert_eq!(code(&["--config", &config, "run", &st3]).0, Some(3));
    // A stop other than the return keeps its code: STA $90, then JAM.
    let jam = write(&dir, "jam.prg", &stub_prg(&[0xA9, 3, 0x85, 0x90, 0x02]));
    let (jammed, err) = code(&["run", "--exit-status", &jam]);
    assert_eq!(jammed, Some(7), "{err}");
    assert!(!err.contains("ST ="), "{err}");
    let (bare, err) = code(&["run", "--bare", "--exit-status", &st3]);
    assert_eq!(bare, Some(2), "{err}");
    assert!(err.contains("--exit-status"), "{err}");
}
