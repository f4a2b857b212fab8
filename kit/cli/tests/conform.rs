//! `c64kit conform` as a reader uses it: build a RYG3 engine, judge the PRG from a folder
//! holding nothing else, and read the verdicts, the evidence and the CI reports.

mod common;

use common::*;
use std::path::{Path, PathBuf};

/// Our programs/ryg3 copied to `dir/src` with `from` replaced by `to` in `file` (none when
/// `file` is empty), assembled with `c64kit asm` into `dir/NAME.prg` (and its labels).
fn build_v10(dir: &Path, name: &str, file: &str, from: &str, to: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../programs/ryg3");
    let copy = dir.join("src");
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(&src).unwrap().flatten() {
        if !entry.path().is_file() {
            continue;
        }
        let mut text = std::fs::read_to_string(entry.path()).unwrap();
        if entry.file_name() == file {
            assert!(
                text.contains(from),
                "{file} has no {from:?}: update this test"
            );
            text = text.replace(from, to);
        }
        std::fs::write(copy.join(entry.file_name()), text).unwrap();
    }
    let prg = dir.join(format!("{name}.prg"));
    let lbl = dir.join(format!("{name}.lbl"));
    c64kit()
        .args([
            "asm",
            &copy.join("ryg3-v10.cbmprj").display().to_string(),
            "-o",
        ])
        .arg(&prg)
        .arg("--labels")
        .arg(&lbl)
        .assert()
        .success();
    prg
}

/// A folder with nothing in it, to run from.
fn empty_dir(dir: &Path) -> PathBuf {
    let d = dir.join("empty");
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn judges_a_prg_from_an_empty_folder_and_writes_every_report() {
    let dir = temp_dir("conform-reports");
    let prg = build_v10(&dir, "mine", "", "", "");
    let run_in = empty_dir(&dir);
    let out = c64kit()
        .current_dir(&run_in)
        .arg("conform")
        .arg(&prg)
        .args(["--as", "ryg3-v10", "--report", "r.html", "--junit", "r.xml"])
        .args(["--json", "r.json"])
        .assert()
        .success();
    let stdout = stdout_of(&out);
    assert!(
        stdout.contains("every published fact checked holds"),
        "{stdout}"
    );
    assert!(
        !stdout.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
    let html = std::fs::read_to_string(run_in.join("r.html")).unwrap();
    for f in 1..=19 {
        assert!(
            html.contains(&format!("<b>F{f}</b>")),
            "F{f} is not listed in the report"
        );
    }
    assert!(
        html.contains(
            "nodes over 8 iterations</td><td>10,744 ($29F8)</td><td>10,744 ($29F8)</td><td>holds"
        ),
        "the F15 evidence is not in the page"
    );
    assert!(!html.contains('\x1b'));
    let xml = std::fs::read_to_string(run_in.join("r.xml")).unwrap();
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(xml.contains(" failures=\"0\""), "{xml}");
    assert!(
        xml.contains(
            "classname=\"f15-v10-e1f2-depth8\" name=\"F15 fact: nodes over 8 iterations\""
        ),
        "{xml}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run_in.join("r.json")).unwrap()).unwrap();
    assert_eq!(json["passed"], true);
    let f15 = json["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "f15-v10-e1f2-depth8")
        .expect("the F15 scenario is in the JSON");
    assert_eq!(f15["published_transcript"], "identical");
    assert!(f15["checks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["measured"] == "10,744 ($29F8)" && c["verdict"] == "holds"));
    // Markdown for anything but .html.
    c64kit()
        .current_dir(&run_in)
        .arg("conform")
        .arg(&prg)
        .args(["--as", "ryg3-v10", "--fact", "F15", "--report", "r.md"])
        .assert()
        .success();
    let md = std::fs::read_to_string(run_in.join("r.md")).unwrap();
    assert!(
        md.contains("F15 nodes over 8 iterations: published 10,744 ($29F8), measured 10,744 ($29F8) - holds"),
        "{md}"
    );
}

#[test]
fn a_cosmetic_change_holds_every_fact_and_shows_the_transcript_diff() {
    let dir = temp_dir("conform-cosmetic");
    let prg = build_v10(
        &dir,
        "reworded",
        "tables.asm",
        "S_SETDEPTH   byte $53,$45,$54,$20,$44,$45,$50,$54,$48,$0D,$00",
        "S_SETDEPTH   byte $53,$45,$54,$20,$44,$45,$50,$54,$48,$21,$0D,$00",
    );
    let out = c64kit()
        .arg("conform")
        .arg(&prg)
        .args(["--as", "ryg3-v10", "--fact", "F15"])
        .assert()
        .success();
    let stdout = stdout_of(&out);
    assert!(stdout.contains("differs in 1 line"), "{stdout}");
    assert!(
        stdout.contains("-SET DEPTH\n") && stdout.contains("+SET DEPTH!\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("every published fact checked holds"),
        "{stdout}"
    );
}

#[test]
fn a_build_without_move_ordering_fails_f15_naming_both_numbers() {
    let dir = temp_dir("conform-behaviour");
    let prg = build_v10(&dir, "unordered", "engine.asm", "jsr reorder", "nop");
    let out = c64kit()
        .current_dir(&dir)
        .arg("conform")
        .arg(&prg)
        .args(["--as", "ryg3-v10", "--fact", "F15", "--junit", "r.xml"])
        .assert()
        .code(1);
    let stdout = stdout_of(&out);
    let line = stdout
        .lines()
        .find(|l| l.contains("F15 nodes over 8 iterations: published 10,744 ($29F8), measured "))
        .unwrap_or_else(|| panic!("no F15 evidence line in:\n{stdout}"));
    assert!(line.ends_with("- DOES NOT HOLD"), "{line}");
    assert!(
        stdout.contains("published facts DO NOT HOLD in 1"),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(dir.join("r.xml")).unwrap();
    assert!(
        xml.contains("<failure message=\"F15 nodes over 8 iterations"),
        "{xml}"
    );
}

#[test]
fn a_missing_program_fails_at_once_with_one_message() {
    let dir = temp_dir("conform-missing");
    let out = c64kit()
        .current_dir(&dir)
        .args(["conform", "nosuch.prg", "--as", "ryg3-v10"])
        .assert()
        .code(1);
    assert_eq!(stdout_of(&out), "", "nothing runs, nothing is claimed");
    let stderr = stderr_of(&out);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("nosuch.prg"), "{stderr}");
}

/// Usage errors exit with 2, as documented; `--as` names only the programs scenarios run
/// (not our VIC-II mode and sprite programs).
#[test]
fn an_unknown_or_missing_name_lists_the_valid_ones() {
    let dir = temp_dir("conform-names");
    let prg = write(&dir, "x.prg", &stub_prg(&[0x60]));
    for args in [vec!["--as", "ryg3-v99"], vec!["--as", "sprites"], vec![]] {
        let out = c64kit()
            .args(["conform", &prg])
            .args(&args)
            .assert()
            .code(2);
        let stderr = stderr_of(&out);
        assert!(stderr.starts_with("c64kit: "), "{stderr}");
        assert!(
            stderr.contains(
                "ramunder, ryg-v15, ryg-v16, ryg-v17, ryg-v18, ryg-v19, ryg3-v09, ryg3-v10, \
                 ryg3-v11"
            ),
            "{args:?}: {stderr}"
        );
        assert!(
            !stderr.contains("modes") && !stderr.contains(", sprites"),
            "{args:?}: {stderr}"
        );
    }
    for args in [&["--jobs", "0"][..], &["--fact", "F99"], &["-l", "x.lbl"]] {
        let out = c64kit().arg("conform").args(args).assert().code(2);
        assert!(stderr_of(&out).starts_with("c64kit: "), "{args:?}");
        assert_eq!(stdout_of(&out), "", "{args:?}: nothing runs");
    }
}

/// A build RUN cannot start (text, or machine code with no BASIC stub) fails once, at once,
/// saying why, with advice conform can follow (it has no --start).
#[test]
fn a_build_run_cannot_start_fails_once_at_once() {
    let dir = temp_dir("conform-cannot-start");
    let notes = write(&dir, "notes.txt", b"10 PRINT \"MY RYG3\"\n");
    let code = write(&dir, "code.prg", &[0x00, 0xC0, 0x60]);
    for (file, says) in [
        (&notes, "it reads as text, not a PRG"),
        (&code, "machine code at $C000, not a BASIC program"),
    ] {
        let out = c64kit()
            .args(["conform", file, "--as", "ryg3-v10"])
            .assert()
            .code(1);
        assert_eq!(stdout_of(&out), "", "nothing runs, nothing is claimed");
        let stderr = stderr_of(&out);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("c64kit: {file}: {says}")),
            "{stderr}"
        );
        assert!(!stderr.contains("--start"), "{stderr}");
    }
}

#[test]
fn a_report_never_replaces_the_judged_program() {
    let dir = temp_dir("conform-overwrite");
    let prg = write(&dir, "x.prg", &stub_prg(&[0x60]));
    let before = std::fs::read(&prg).unwrap();
    let out = c64kit()
        .args(["conform", &prg, "--as", "ryg3-v10", "--junit", &prg])
        .assert()
        .code(1);
    let stderr = stderr_of(&out);
    assert!(
        stderr.contains("the JUnit report") && stderr.contains("the judged program"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&prg).unwrap(), before);
}

/// Colour on a terminal only, and never with NO_COLOR. The terminal is a pty from
/// util-linux's `script` (the test says so and stops if the machine has none).
#[test]
fn colour_only_on_a_terminal_and_never_with_no_color() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("no `script` command here: the terminal case is not tested");
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("c64kit");
    let command = format!("{} conform --fact F11", bin.display());
    let on_terminal = |no_color: bool| {
        let mut cmd = std::process::Command::new("script");
        cmd.args(["-qec", &command, "/dev/null"]);
        if no_color {
            cmd.env("NO_COLOR", "1");
        } else {
            cmd.env_remove("NO_COLOR");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    assert!(
        has_colour(&on_terminal(false)),
        "a terminal shows the verdicts in colour"
    );
    assert!(!has_colour(&on_terminal(true)), "NO_COLOR=1: no colour");
}

/// A terminal too narrow for the table (80 columns here) gets each scenario as a few lines
/// that fit, its name whole (a table squeezed to 80 columns broke names and numbers
/// mid-word); off a terminal each row is one line, however long.
#[test]
fn the_table_fits_the_terminal() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("no `script` command here: the terminal case is not tested");
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("c64kit");
    let command = format!("stty cols 80; {} conform --fact F11", bin.display());
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The live progress lines end in carriage returns and erase codes: keep what stays.
    let lines: Vec<String> = stdout
        .split('\n')
        .map(|l| l.trim_end_matches('\r').rsplit('\r').next().unwrap_or(""))
        .map(strip_ansi)
        .filter(|l| !l.trim().is_empty())
        .collect();
    for line in &lines {
        assert!(
            line.chars().count() <= 80,
            "wider than the terminal: {line:?}"
        );
    }
    let named = lines
        .iter()
        .filter(|l| l.starts_with("f11-") && l.ends_with(')'))
        .count();
    assert!(
        named >= 3,
        "scenario names whole, a line each:\n{}",
        lines.join("\n")
    );
    assert!(
        lines.iter().any(|l| l.contains("published facts: hold ")),
        "{lines:#?}"
    );
    let out = c64kit()
        .args(["conform", "--fact", "F11"])
        .assert()
        .success();
    let stdout = stdout_of(&out);
    let rows = stdout.lines().filter(|l| l.starts_with("| f11-")).count();
    let scenarios = c64kit_conformance::all_scenarios()
        .unwrap()
        .iter()
        .filter(|s| s.fact == "F11")
        .count();
    assert_eq!(
        rows, scenarios,
        "one line per row off a terminal:\n{stdout}"
    );
}

/// An SGR colour sequence (`ESC [ 3x m` / `ESC [ 38;5;n m`) anywhere in `s`.
fn has_colour(s: &str) -> bool {
    s.match_indices("\x1b[").any(|(i, _)| {
        let rest = &s[i + 2..];
        let end = rest.find(|c: char| !(c.is_ascii_digit() || c == ';'));
        matches!(end, Some(e) if rest[e..].starts_with('m') && rest[..e].starts_with('3'))
    })
}

#[test]
fn routine_checks_use_the_label_file_and_say_when_there_is_none() {
    let dir = temp_dir("conform-labels");
    let prg = build_v10(&dir, "mine", "", "", "");
    let labels = dir.join("mine.lbl");
    // Without labels the routine-level checks cannot find `gen`: not checked, said loudly,
    // and not a failure.
    let out = c64kit()
        .arg("conform")
        .arg(&prg)
        .args(["--as", "ryg3-v10", "--fact", "F11"])
        .assert()
        .success();
    let stdout = stdout_of(&out);
    assert!(stdout.contains("not checked"), "{stdout}");
    assert!(
        stdout.contains("give a VICE label file with -l"),
        "{stdout}"
    );
    assert!(stdout.contains("checks could not be made"), "{stdout}");
    // The reason shared by every routine-level check is said once, in the terminal and in
    // the reports; and a scenario none of whose facts could be checked never looks like a
    // pass.
    let reason = "no labels for this program";
    assert_eq!(stdout.matches(reason).count(), 1, "{stdout}");
    let unchecked = stdout
        .lines()
        .find(|l| l.contains("f11-eval-routines-v10"))
        .unwrap_or_else(|| panic!("no row for f11-eval-routines-v10:\n{stdout}"));
    assert!(unchecked.contains("not checked: 12 of 12"), "{unchecked}");
    c64kit()
        .current_dir(&dir)
        .arg("conform")
        .arg(&prg)
        .args(["--as", "ryg3-v10", "--fact", "F11", "--report", "r.md"])
        .assert()
        .success();
    let md = std::fs::read_to_string(dir.join("r.md")).unwrap();
    assert_eq!(md.matches(reason).count(), 1, "{md}");
    c64kit()
        .current_dir(&dir)
        .arg("conform")
        .arg(&prg)
        .args(["--as", "ryg3-v10", "--fact", "F11", "--report", "r.html"])
        .assert()
        .success();
    let html = std::fs::read_to_string(dir.join("r.html")).unwrap();
    assert_eq!(html.matches(reason).count(), 1, "{html}");
    assert!(
        html.contains("<tr class=\"unchecked\"><td>f11-eval-routines-v10</td>"),
        "{html}"
    );
    // With the label file `c64kit asm --labels` wrote, every check is made and holds.
    let out = c64kit()
        .arg("conform")
        .arg(&prg)
        .args(["--as", "ryg3-v10", "--fact", "F11", "-l"])
        .arg(&labels)
        .assert()
        .success();
    let stdout = stdout_of(&out);
    assert!(!stdout.contains("not checked"), "{stdout}");
    assert!(
        stdout.contains("every published fact checked holds"),
        "{stdout}"
    );
    assert!(!stdout.contains("could not be made"), "{stdout}");
}

/// The "published" column holds what the blog published: a bound the scenario sets (a cycle
/// count the blog never gave) and how we expect a run to end are labelled ours.
#[test]
fn bounds_of_ours_are_labelled_ours_in_every_report() {
    let dir = temp_dir("conform-ours");
    c64kit()
        .current_dir(&dir)
        .args([
            "conform",
            "--scenario",
            "f11-eval-routines-v10",
            "--report",
            "r.html",
        ])
        .args(["--json", "r.json"])
        .assert()
        .success();
    let html = std::fs::read_to_string(dir.join("r.html")).unwrap();
    // f11-eval-routines-v10's "one pass over the board" must take fewer than 3,000 cycles:
    // our bound (its note says so), not the blog's.
    assert!(
        html.contains("one pass over the board</td><td>ours: fewer than 3,000</td>"),
        "{html}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    let checks = json["scenarios"][0]["checks"].as_array().unwrap();
    let bound = checks
        .iter()
        .find(|c| {
            c["what"]
                .as_str()
                .unwrap()
                .ends_with("one pass over the board")
        })
        .expect("the cycle bound's check");
    assert_eq!(bound["ours"], true);
    assert!(
        checks
            .iter()
            .filter(|c| c["ours"] == false)
            .all(|c| !c["published"].as_str().unwrap().starts_with("fewer than")),
        "no bound is shown as published"
    );
    // The published facts are shown whole, however long.
    let published =
        c64kit_conformance::published_facts(&c64kit_conformance::all_scenarios().unwrap());
    assert!(
        published.iter().any(|f| f.text.len() > 300),
        "a long fact to show"
    );
    c64kit()
        .current_dir(&dir)
        .args(["conform", "--fact", "F11", "--report", "r.md"])
        .assert()
        .success();
    let md = std::fs::read_to_string(dir.join("r.md")).unwrap();
    for f in &published {
        assert!(
            md.contains(&f.text.replace('|', "\\|")),
            "{} is cut:\n{md}",
            f.id
        );
    }
}

/// A sequence of lines not printed shows what the program printed instead.
#[test]
fn a_sequence_check_shows_what_was_printed_instead() {
    let dir = temp_dir("conform-sequence");
    let prg = build_v10(
        &dir,
        "shouting",
        "tables.asm",
        "S_ILLEGAL    byte $49,$4C,$4C,$45,$47,$41,$4C,$0D,$00",
        "S_ILLEGAL    byte $49,$4C,$4C,$45,$47,$41,$4C,$21,$0D,$00",
    );
    let out = c64kit()
        .arg("conform")
        .arg(&prg)
        .args(["--as", "ryg3-v10", "--scenario", "f10-start-position-v10"])
        .assert()
        .code(1);
    let stdout = stdout_of(&out);
    assert!(
        stdout.contains(
            "a cat move at the start is refused: published [\"? B8A7\", \"ILLEGAL\"], \
             measured \"? B8A7\" printed, then \"ILLEGAL!\" where \"ILLEGAL\" is published - \
             DOES NOT HOLD"
        ),
        "{stdout}"
    );
}

#[test]
fn diffs_are_clipped_at_40_lines_per_scenario_unless_full_diff() {
    let dir = temp_dir("conform-diffs");
    let prg = build_v10(&dir, "unordered", "engine.asm", "jsr reorder", "nop");
    // The longest diff: a whole computer-against-computer game played differently.
    let diff_lines = |full: bool| {
        let mut cmd = c64kit();
        cmd.arg("conform").arg(&prg).args([
            "--as",
            "ryg3-v10",
            "--scenario",
            "f13-computer-vs-computer-depth6",
        ]);
        if full {
            cmd.arg("--full-diff");
        }
        let stdout = stdout_of(&cmd.assert());
        let start = stdout
            .find("transcript differences (informative)")
            .unwrap_or_else(|| panic!("no diff shown:\n{stdout}"));
        stdout[start..]
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .count()
    };
    let clipped = diff_lines(false);
    let full = diff_lines(true);
    assert_eq!(clipped, 41, "40 lines and the line saying how many more");
    assert!(full > 41, "--full-diff shows all {full} lines");
}

#[test]
fn golden_files_are_never_rewritten_under_ci() {
    let dir = temp_dir("conform-ci-golden");
    let out = c64kit()
        .current_dir(&dir)
        .args(["conform", "--fact", "F11"])
        .env("UPDATE_GOLDENFILES", "1")
        .env("CI", "true")
        .assert()
        .code(1);
    assert_stderr_has(&out, "refusing UPDATE_GOLDENFILES=1 under CI");
    assert_eq!(stdout_of(&out), "");
}

/// The text without ANSI escape sequences (colours, cursor moves).
fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
        } else if chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        }
    }
    out
}
