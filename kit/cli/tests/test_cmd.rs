//! `c64kit test` as a user runs it: the example suites of examples/testing (which
//! docs/testing.md shows) pass, golden files are written beside their scenario file by
//! `--update` and nowhere else, a failure shows its evidence and exits 1, and a scenario file
//! with a mistake says its file, line and key and exits 2, never panicking.

mod common;

use common::*;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn suites() -> PathBuf {
    repo().join("examples/testing")
}

/// The names of every scenario in the example suites, read with the parser `test` uses.
fn example_names() -> Vec<String> {
    let mut names = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(suites())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for s in c64kit_conformance::scenario::parse_file(&text, &f).unwrap() {
            names.push(s.name);
        }
    }
    assert!(names.len() >= 5, "the example suites have scenarios");
    names
}

/// Every file under `dir` with its bytes, sorted by path.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.push((p.strip_prefix(dir).unwrap().to_path_buf(), bytes));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_example_suites_pass_with_every_report() {
    let dir = temp_dir("test-examples");
    let junit = dir.join("junit.xml");
    let report = dir.join("report.md");
    let json = dir.join("report.json");
    let out = c64kit()
        .current_dir(repo())
        .args(["test", "examples/testing", "--junit"])
        .arg(&junit)
        .arg("--report")
        .arg(&report)
        .arg("--json")
        .arg(&json)
        .assert();
    let stdout = stdout_of(&out);
    assert_eq!(
        out.get_output().status.code(),
        Some(0),
        "{stdout}{}",
        stderr_of(&out)
    );
    let names = example_names();
    for name in &names {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("PASS {name} (examples/testing/"))),
            "no PASS line for {name}:\n{stdout}"
        );
    }
    assert!(
        stdout.contains(&format!("{} scenarios: all pass", names.len())),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("failures=\"0\""), "{xml}");
    assert!(xml.contains("classname=\"guess-in-three\""), "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(md.starts_with("# c64kit test: examples/testing\n"), "{md}");
    assert!(
        md.contains("| scenario | file | program | checks |"),
        "{md}"
    );
    assert!(
        md.contains("- exit status (ST): expected 0, measured 0 - holds"),
        "{md}"
    );
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(data["passed"], true);
    let selftest = data["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "selftest")
        .unwrap();
    assert_eq!(
        selftest["checks"][1],
        serde_json::json!({"what": "exit status (ST)", "expected": "0", "measured": "0",
            "verdict": "holds", "detail": null})
    );
    assert_eq!(
        data["scenarios"].as_array().map(Vec::len),
        Some(names.len())
    );
}

/// The transcript a scenario compares is what `c64kit run` prints: the golden file of the
/// BASIC example is byte for byte the run's stdout.
#[test]
fn golden_transcripts_are_what_run_prints() {
    let out = c64kit()
        .current_dir(repo())
        .args(["run", "examples/testing/guess.bas", "--input", "5\n9\n7\n"])
        .assert()
        .success();
    let golden = std::fs::read(suites().join("golden/guess-in-three.txt")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.get_output().stdout),
        String::from_utf8_lossy(&golden)
    );
}

/// examples/testing/hello.prg is examples/hello.asm assembled, as prg.toml says.
#[test]
fn the_example_prg_is_hello_asm_assembled() {
    let asm =
        c64kit_asm::assemble_path(&repo().join("examples/hello.asm"), &Default::default()).unwrap();
    let prg = std::fs::read(suites().join("hello.prg")).unwrap();
    assert_eq!(
        prg,
        asm.prg(),
        "c64kit asm examples/hello.asm -o examples/testing/hello.prg"
    );
}

#[test]
fn update_writes_missing_golden_files_beside_the_scenario_and_nothing_else() {
    let dir = temp_dir("test-update");
    let suite = dir.join("suite");
    copy_tree(&suites(), &suite);
    std::fs::remove_dir_all(suite.join("golden")).unwrap();
    let before = tree(&dir);
    // Without the golden file, its scenario fails and says how to make it.
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "suite/basic.toml"])
        .assert();
    let stdout = stdout_of(&out);
    assert_eq!(out.get_output().status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "the transcript against golden/guess-in-three.txt: expected identical, measured \
             missing (c64kit test --update writes it) - DOES NOT HOLD"
        ),
        "{stdout}"
    );
    assert_eq!(tree(&dir), before, "a run without --update writes nothing");
    // Refused under CI.
    let out = c64kit()
        .current_dir(&dir)
        .env("CI", "true")
        .args(["test", "--update", "suite/basic.toml"])
        .assert()
        .code(2);
    assert_stderr_has(&out, "refusing --update under CI");
    assert_eq!(tree(&dir), before);
    let out = c64kit()
        .current_dir(&dir)
        .env_remove("CI")
        .args(["test", "--update", "suite/basic.toml"])
        .assert()
        .success();
    assert!(
        stdout_of(&out).contains("UPDATED golden file suite/golden/guess-in-three.txt"),
        "{}",
        stdout_of(&out)
    );
    let after = tree(&dir);
    let added: Vec<&PathBuf> = after
        .iter()
        .filter(|f| !before.contains(f))
        .map(|(p, _)| p)
        .collect();
    assert_eq!(added, [&PathBuf::from("suite/golden/guess-in-three.txt")]);
    assert_eq!(
        std::fs::read(suite.join("golden/guess-in-three.txt")).unwrap(),
        std::fs::read(suites().join("golden/guess-in-three.txt")).unwrap()
    );
    c64kit()
        .current_dir(&dir)
        .args(["test", "suite/basic.toml"])
        .assert()
        .success();
}

/// A scenario folder of its own: hello.prg and one scenario file.
fn suite_with(dir: &Path, toml: &str) -> PathBuf {
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::copy(suites().join("hello.prg"), tests.join("hello.prg")).unwrap();
    std::fs::copy(suites().join("hello.prg"), tests.join("other.prg")).unwrap();
    std::fs::write(tests.join("hello.toml"), toml).unwrap();
    tests
}

#[test]
fn a_failure_shows_its_evidence_and_exits_1() {
    let dir = temp_dir("test-failure");
    suite_with(
        &dir,
        r#"
[[scenario]]
name = "greets-mars"
program = "hello.prg"
keys = "world\n"
transcript = "\nWHAT IS YOUR NAME? \nHELLO, MARS!\n"

[[scenario.expect]]
line = "HELLO, MARS!"

[[scenario.expect]]
screen_contains = "HELLO, WORLD!"

[[scenario]]
name = "greets-world"
program = "hello.prg"
keys = "world\n"

[[scenario.expect]]
line = "HELLO, WORLD!"
"#,
    );
    let junit = dir.join("j.xml");
    // The default folder: tests/.
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "--junit", "j.xml"])
        .assert()
        .code(1);
    let stdout = stdout_of(&out);
    for line in [
        "FAIL greets-mars (tests/hello.toml:2): 2 of 3 checks failed",
        "    line printed: expected \"HELLO, MARS!\", measured not printed - DOES NOT HOLD",
        "    the transcript: expected identical, measured differs in ",
        "    the run ended: returned to BASIC",
        "    -HELLO, MARS!",
        "    +HELLO, WORLD!",
        "PASS greets-world (tests/hello.toml:14): 1 check,",
        "2 scenarios: 1 FAILED",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(line)),
            "no line {line:?} in:\n{stdout}"
        );
    }
    let xml = std::fs::read_to_string(junit).unwrap();
    assert!(xml.contains("failures=\"2\""), "{xml}");
    assert!(xml.contains("<failure message=\"line printed"), "{xml}");
    // --scenario runs only the one named.
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "--scenario", "greets-world"])
        .assert()
        .success();
    assert!(
        stdout_of(&out).contains("1 scenario: all pass"),
        "{}",
        stdout_of(&out)
    );
}

/// A C program's `return 1`: the status a program returns to BASIC with fails a scenario
/// that expects 0.
#[test]
fn an_exit_status_other_than_the_expected_fails() {
    let dir = temp_dir("test-exit-status");
    let tests = suite_with(
        &dir,
        r#"
[[scenario]]
name = "returns-1"
program = "ret1.prg"
keys = ""
exit_status = 0
"#,
    );
    write(&tests, "ret1.prg", &stub_asm(" lda #1\n sta $90\n rts"));
    let out = c64kit().current_dir(&dir).arg("test").assert().code(1);
    assert!(
        stdout_of(&out).contains("exit status (ST): expected 0, measured 1 - DOES NOT HOLD"),
        "{}",
        stdout_of(&out)
    );
}

#[test]
fn bad_scenario_files_name_the_file_line_and_key() {
    let cases: &[(&str, &[&str])] = &[
        (
            "[[scenario]]\nname = \"a\"\nprogam = \"hello.prg\"\n",
            &[
                "hello.toml:3: unknown field `progam`, expected one of `name`, `note`, `program`, `entry`, `keys`",
                "docs/testing.md",
            ],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\nmax_cycles = \"lots\"\n",
            &[
                "hello.toml:4: invalid type: string \"lots\", expected a whole number, in \
                 `max_cycles = \"lots\"`",
            ],
        ),
        (
            "[[scenario]]\nname = \"a\"\nkeys = \"\"\n",
            &["hello.toml:1: missing field `program`"],
        ),
        (
            "\n[[scenario]]\nname = \"a\"\nprogram = \"nothere.prg\"\n",
            &[
                "hello.toml:2: scenario \"a\": key `program`:",
                "nothere.prg does not exist",
                "relative to the scenario file's folder",
            ],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\ngolden = \"../x.txt\"\n",
            &[
                "hello.toml:4: scenario \"a\": key `golden` \"../x.txt\" leaves the scenario \
                 file's folder",
            ],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\ngolden = \"hello.toml\"\n",
            &["hello.toml:4: scenario \"a\": key `golden` \"hello.toml\" ends in .toml"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\ngolden = \"hello.prg\"\n",
            &["key `golden` \"hello.prg\" is the program"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n[[scenario]]\nname = \"b\"\n\
             program = \"hello.prg\"\ngolden = \"../tests/hello.prg\"\n",
            &["hello.toml:7: scenario \"b\": key `golden` \"../tests/hello.prg\" leaves"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"other.prg\"\n[[scenario]]\nname = \"b\"\n\
             program = \"hello.prg\"\ngolden = \"other.prg\"\n",
            &["hello.toml:4: scenario \"b\": key `golden`:", "other.prg"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"/etc/hostname\"\n",
            &["hello.toml:3: scenario \"a\": key `program`: \"/etc/hostname\" is an absolute path"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\nfact = \"F1\"\n",
            &["hello.toml:4: scenario \"a\": key `fact` is the RYG suite's only"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             line = \"x\"\nregex = \"y\"\n",
            &["hello.toml:5: scenario \"a\": expect #1: give exactly one of"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             regex = \"(\"\n",
            &["hello.toml:5: scenario \"a\": expect #1: bad regex"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n[[scenario]]\nname = \"a\"\n\
             program = \"hello.prg\"\n",
            &["hello.toml:4: scenario name \"a\" is used twice (first at tests/hello.toml:1)"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\nkeys = \"{NOSUCHKEY}\"\n",
            &["hello.toml:4: scenario \"a\": key `keys`: key script line 1, column 1: unknown key"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.call]]\n\
             routine = \"x\"\n\n[[scenario.call.expect]]\nregister = \"q\"\nequals = 1\n",
            &["hello.toml:8: scenario \"a\": call #1 (x), expect #1: register is"],
        ),
        (
            "name = \"a\"\n",
            &["hello.toml:1: unknown field `name`, expected `scenario`"],
        ),
        ("", &["missing field `scenario`", "[[scenario]] tables"]),
        ("[[scenario]\n", &["hello.toml:1: invalid table header"]),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\nentry = \"HELLO\"\n",
            &["hello.toml:4: scenario \"a\": key `entry` chooses a file inside a tape or disk"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             flag = \"q\"\nset = true\n",
            &["hello.toml:5: scenario \"a\": expect #1: flag \"q\": a flag is \"n\""],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             flag = \"c\"\n",
            &["hello.toml:5: scenario \"a\": expect #1: flag and set go together"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             register = \"sp\"\nequals = 256\n",
            &["hello.toml:5: scenario \"a\": expect #1: register \"sp\" holds 8 bits"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\nscreenshot = \"a.txt\"\n",
            &["hello.toml:4: scenario \"a\": key `screenshot` \"a.txt\": a golden picture is a PNG"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\nscreenshot = \"/tmp/a.png\"\n",
            &["hello.toml:4: scenario \"a\": key `screenshot` \"/tmp/a.png\" leaves the scenario"],
        ),
        // A scenario's settings: c64kit.toml's keys, read by its reader, named by line.
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[scenario.settings]\n\
             sid = \"8580\"\nvic = \"6568\"\n",
            &[
                "hello.toml:7: scenario \"a\": key `settings.vic`: \"6568\" is not a VIC-II \
                 model",
            ],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[scenario.settings]\n\
             colour = 3\n",
            &["hello.toml:6: scenario \"a\": key `settings.colour`: unknown field `colour`"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[scenario.settings]\n\
             model = \"c64\"\ndisplay = \"png\"\n",
            &["hello.toml:7: scenario \"a\": key `settings.display`: a scenario has no displays"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[scenario.settings]\n\
             drive_dir = \"nosuch\"\n",
            &["hello.toml:6: scenario \"a\": key `settings.drive_dir`: tests/nosuch:"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[scenario.settings]\n\
             key_hold = \"2f\"\n\n[scenario.settings.roms]\nchargen = \"nosuch.bin\"\n",
            &["hello.toml:8: scenario \"a\": key `settings.roms.chargen`: tests/nosuch.bin"],
        ),
        (
            // The settings table made by its sub-table's header alone.
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n\
             [scenario.settings.roms]\nkernal = \"nosuch.bin\"\nbasic = \"nosuch.bin\"\n",
            &["hello.toml:5: scenario \"a\": key `settings.roms.basic`: tests/nosuch.bin"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[scenario.settings]\n\
             key_hold = \"2\"\n",
            &["hello.toml:6: scenario \"a\": key `settings.key_hold`: "],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\nmax_cycles = 5000\n\n\
             [scenario.settings]\nmax_cycles = 6000\n",
            &["hello.toml:4: scenario \"a\": the budget is given twice"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[scenario.settings]\n\
             exit_status = true\n",
            &["hello.toml:6: scenario \"a\": key `settings.exit_status`: in a scenario"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\nsettings = 3\n",
            &["hello.toml:4: invalid type: integer `3`, expected a table"],
        ),
        // The file's [settings], shared by its scenarios: named as the file's, by line.
        (
            "[settings]\nsid = \"8580\"\nvic = \"6568\"\n\n[[scenario]]\nname = \"a\"\n\
             program = \"hello.prg\"\n",
            &[
                "hello.toml:3: key `settings.vic` of the file's [settings] (for scenario \"a\"): \
                 \"6568\" is not a VIC-II model",
            ],
        ),
        (
            "[settings]\ncolour = 3\n\n[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n",
            &["hello.toml:2: key `settings.colour` of the file's [settings]", "unknown field"],
        ),
        (
            "[settings.roms]\nchargen = \"nosuch.bin\"\n\n[[scenario]]\nname = \"a\"\n\
             program = \"hello.prg\"\n",
            &["hello.toml:1: key `settings.roms.chargen` of the file's [settings]"],
        ),
        (
            "settings = 3\n[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n",
            &["hello.toml:1: invalid type: integer `3`, expected a table"],
        ),
        (
            "[setings]\nsid = \"8580\"\n[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n",
            &["hello.toml:1: unknown field `setings`, expected `scenario` or `settings`"],
        ),
        // A scenario's own key wins, so the file's bad one is not what the error names.
        (
            "[settings]\nvic = \"6569\"\n\n[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n\
             [scenario.settings]\nvic = \"6568\"\n",
            &["hello.toml:9: scenario \"a\": key `settings.vic`: \"6568\""],
        ),
        // Sound expectations: their keys, named by line, with what to give.
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             sound = \"loud\"\n",
            &["hello.toml:5: scenario \"a\": expect #1: sound \"loud\": sound is \"silent\""],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             sound = \"pitch\"\n",
            &["expect #1: sound = \"pitch\" goes with hz = 440 or note = \"A4\""],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             sound = \"pitch\"\nhz = 10\n",
            &["expect #1: a pitch of 10.0 Hz cannot be measured: pitches from 30 to 4000 Hz"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             sound = \"pitch\"\nnote = \"H4\"\n",
            &["expect #1: note \"H4\": a note is a letter A-G"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             sound = \"level\"\n",
            &["expect #1: sound = \"level\" goes with dbfs_at_least and/or dbfs_at_most"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             sound = \"level\"\ndbfs_at_least = 6\n",
            &["expect #1: a level of 6 dBFS cannot be"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             sound = \"silent\"\nfrom_frame = 50\nto_frame = 10\n",
            &["expect #1: the window ends at 10, not after its start (50)"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             sound = \"silent\"\nfrom_frame = 5\nfrom_cycle = 10\n",
            &["expect #1: give from_frame or from_cycle, not both"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             line = \"HI\"\nto_frame = 10\n",
            &["expect #1: from_frame, to_frame, from_cycle, to_cycle, hz, note, cents"],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.expect]]\n\
             sound = \"audible\"\nhz = 440\n",
            &["expect #1: hz, note and cents go with sound = \"pitch\", not \"audible\""],
        ),
        (
            "[[scenario]]\nname = \"a\"\nprogram = \"hello.prg\"\n\n[[scenario.call]]\n\
             routine = \"x\"\n\n[[scenario.call.expect]]\nsound = \"silent\"\n",
            &["hello.toml:8: scenario \"a\": call #1 (x), expect #1: sound is checked over the run"],
        ),
    ];
    for (i, (toml, wanted)) in cases.iter().enumerate() {
        let dir = temp_dir(&format!("test-bad-{i}"));
        suite_with(&dir, toml);
        let before = tree(&dir);
        let out = c64kit().current_dir(&dir).arg("test").assert();
        let stderr = stderr_of(&out);
        assert_eq!(
            out.get_output().status.code(),
            Some(2),
            "case {i}: {toml}\n{stderr}"
        );
        assert!(stderr.starts_with("c64kit: tests/hello.toml"), "{stderr}");
        for w in *wanted {
            assert!(
                stderr.contains(w),
                "case {i}: {toml}\nno {w:?} in:\n{stderr}"
            );
        }
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(tree(&dir), before, "case {i} wrote a file");
    }
}

#[test]
fn usage_errors_exit_2_with_advice() {
    let dir = temp_dir("test-usage");
    let out = c64kit().current_dir(&dir).arg("test").assert().code(2);
    assert_stderr_has(&out, "no tests folder here");
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "nosuch.toml"])
        .assert()
        .code(2);
    assert_stderr_has(&out, "nosuch.toml: no such file or folder");
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    let out = c64kit().current_dir(&dir).arg("test").assert().code(2);
    assert_stderr_has(&out, "tests: no scenario files (*.toml) in this folder");
    suite_with(
        &dir,
        "[[scenario]]\nname = \"one\"\nprogram = \"hello.prg\"\nkeys = \"x\\n\"\n",
    );
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "--scenario", "two"])
        .assert()
        .code(2);
    assert_stderr_has(
        &out,
        "--scenario \"two\": no scenario has that name (there are: one)",
    );
    // A link to a folder above is not followed round and round.
    #[cfg(unix)]
    std::os::unix::fs::symlink("..", dir.join("tests/up")).unwrap();
    c64kit().current_dir(&dir).arg("test").assert().success();
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "--jobs", "0"])
        .assert()
        .code(2);
    assert_stderr_has(&out, "1 or more");
    // The settings are each scenario's own: a settings file is refused, not ignored.
    let out = c64kit()
        .current_dir(&dir)
        .args(["--config", "c64kit.toml", "test"])
        .assert()
        .code(2);
    assert_stderr_has(&out, "--config: c64kit test reads no settings file");
}

/// A program that cannot be built is that scenario's failure (exit 1), named; the others
/// still run.
#[test]
fn a_program_that_does_not_assemble_fails_its_scenario() {
    let dir = temp_dir("test-asm-error");
    let tests = suite_with(
        &dir,
        "[[scenario]]\nname = \"broken\"\nprogram = \"broken.asm\"\nkeys = \"\"\n\n\
         [[scenario]]\nname = \"fine\"\nprogram = \"hello.prg\"\nkeys = \"x\\n\"\n",
    );
    write(&tests, "broken.asm", b"*=$c000\n lda #\n");
    // Machine code with no BASIC stub, as a PRG: RUN cannot start it, and the advice says
    // what can.
    write(&tests, "c000.prg", &[0x00, 0xC0, 0x60]);
    std::fs::write(
        tests.join("more.toml"),
        "[[scenario]]\nname = \"no-stub\"\nprogram = \"c000.prg\"\nkeys = \"\"\n",
    )
    .unwrap();
    let out = c64kit().current_dir(&dir).arg("test").assert().code(1);
    let stdout = stdout_of(&out);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("ERROR broken (tests/hello.toml:1): ")
                && l.contains("broken.asm")),
        "{stdout}"
    );
    assert!(stdout.contains("PASS fine"), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with(
            "ERROR no-stub (tests/more.toml:1): c000.prg: \
             machine code at $C000"
        ) && l.contains("name its source (.asm, .cbmprj)")),
        "{stdout}"
    );
}

/// Each scenario file docs/testing.md shows (a ```toml block whose first line names it) is
/// that file of examples/testing, whole, so the page shows what the tests run.
#[test]
fn the_scenario_files_shown_in_the_docs_are_the_examples() {
    let doc = std::fs::read_to_string(repo().join("docs/testing.md")).unwrap();
    let mut shown = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```toml" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        let Some(name) = block.first().and_then(|l| l.strip_prefix("# examples/")) else {
            continue;
        };
        let file = std::fs::read_to_string(repo().join("examples").join(name)).unwrap();
        assert_eq!(
            block.join("\n") + "\n",
            file,
            "docs/testing.md shows examples/{name} otherwise"
        );
        shown.push(name.to_string());
    }
    shown.sort();
    assert_eq!(
        shown,
        [
            "cc65/tests/units.toml",
            "testing/asm.toml",
            "testing/basic.toml",
            "testing/exit-status.toml",
            "testing/game.toml",
            "testing/image.toml",
            "testing/prg.toml",
            "testing/settings.toml",
            "testing/sound.toml"
        ],
        "every example suite is shown"
    );
}

/// A scenario's settings make its machine: the budget and the chips it gives are the run's
/// (the example suite settings.toml checks the model and the drive folder).
#[test]
fn scenario_settings_are_the_runs() {
    let dir = temp_dir("test-settings");
    let tests = suite_with(
        &dir,
        r#"
[[scenario]]
name = "budget"
program = "loop.bas"
keys = ""
stop = "cycle budget of 200000 cycles reached"

[scenario.settings]
max_cycles = "$30D40"

# LXA #$FF leaves A = (A | the magic constant) & $FF: with A = 0, the constant.
[[scenario]]
name = "cpu-magic"
program = "lxa.prg"
keys = ""

[scenario.settings]
cpu_magic = "$11"

[[scenario.expect]]
address = 0xC000
bytes = [0x11]
"#,
    );
    write(&tests, "loop.bas", b"10 GOTO 10\n");
    // LDA #0, LDX #0, LXA #$FF, STA $C000, RTS.
    let lxa = [0xA9, 0, 0xA2, 0, 0xAB, 0xFF, 0x8D, 0x00, 0xC0, 0x60];
    write(&tests, "lxa.prg", &stub_prg(&lxa));
    let out = c64kit().current_dir(&dir).arg("test").assert();
    let stdout = stdout_of(&out);
    assert_eq!(out.get_output().status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("PASS budget (tests/hello.toml:2): 1 check"),
        "{stdout}"
    );
    assert!(stdout.contains("PASS cpu-magic"), "{stdout}");
    // Without the setting, the default constant is another.
    let toml = std::fs::read_to_string(tests.join("hello.toml")).unwrap();
    std::fs::write(
        tests.join("hello.toml"),
        toml.replace("cpu_magic = \"$11\"", "cia = \"6526a\""),
    )
    .unwrap();
    let out = c64kit().current_dir(&dir).arg("test").assert().code(1);
    assert!(
        stdout_of(&out).contains("FAIL cpu-magic"),
        "{}",
        stdout_of(&out)
    );
}

/// The file's `[settings]` apply to each of its scenarios; a scenario's own keys override
/// them key by key (its own `max_cycles` too), and the others still apply.
#[test]
fn file_settings_are_shared_and_overridden() {
    let dir = temp_dir("test-file-settings");
    let tests = suite_with(
        &dir,
        r#"
[settings]
model = "c64-ntsc"
max_cycles = 200_000

[[scenario]]
name = "shared"
program = "tv.bas"
keys = ""

[[scenario.expect]]
line = "NTSC C64"

[[scenario]]
name = "own-model"
program = "tv.bas"
keys = ""

[scenario.settings]
model = "c64"

[[scenario.expect]]
line = "PAL C64"

[[scenario]]
name = "shared-budget"
program = "loop.bas"
keys = ""
stop = "cycle budget of 200000 cycles reached"

[[scenario]]
name = "own-budget"
program = "loop.bas"
keys = ""
max_cycles = 300_000
stop = "cycle budget of 300000 cycles reached"
"#,
    );
    std::fs::copy(suites().join("tv.bas"), tests.join("tv.bas")).unwrap();
    write(&tests, "loop.bas", b"10 GOTO 10\n");
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "--json", "r.json"])
        .assert();
    let stdout = stdout_of(&out);
    assert_eq!(out.get_output().status.code(), Some(0), "{stdout}");
    for name in ["shared", "own-model", "shared-budget", "own-budget"] {
        assert!(stdout.contains(&format!("PASS {name} ")), "{stdout}");
    }
    // Each scenario's C64 time is on its own machine's clock.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("r.json")).unwrap()).unwrap();
    let ntsc = c64kit_machine::VicModel::Mos6567R8.clock_hz();
    let pal = c64kit_machine::VicModel::Mos6569.clock_hz();
    for (name, hz) in [("shared-budget", ntsc), ("own-model", pal)] {
        let scenario = json["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {json}"));
        let cycles = scenario["cycles"].as_u64().unwrap();
        let seconds = scenario["c64_seconds"].as_f64().unwrap();
        assert!(
            (seconds - cycles as f64 / hz as f64).abs() < 1e-9,
            "{name}: {cycles} cycles, {seconds} s"
        );
    }
    // Without the file's settings, the first scenario runs on a PAL C64 and fails.
    let toml = std::fs::read_to_string(tests.join("hello.toml")).unwrap();
    std::fs::write(
        tests.join("hello.toml"),
        toml.replace("model = \"c64-ntsc\"", ""),
    )
    .unwrap();
    let out = c64kit().current_dir(&dir).arg("test").assert().code(1);
    let stdout = stdout_of(&out);
    assert!(stdout.contains("FAIL shared "), "{stdout}");
    assert!(stdout.contains("PASS own-model "), "{stdout}");
}

/// Sound expectations measure what the SID played (examples/testing/note.bas: A4 on voice
/// 1 from about frame 8 to frame 61): a wrong pitch, silence during the note and sound
/// after it fail, each with the measured value and the window; a program that never
/// touches the SID is silent.
#[test]
fn sound_is_measured_and_a_wrong_one_fails_with_evidence() {
    let dir = temp_dir("test-sound");
    let tests = suite_with(
        &dir,
        r#"
[[scenario]]
name = "wrong-note"
program = "note.bas"
keys = ""

[[scenario.expect]]
sound = "pitch"
note = "A#4"
from_frame = 10
to_frame = 55

[[scenario.expect]]
sound = "silent"
from_cycle = 400_000
to_cycle = 500_000

[[scenario.expect]]
sound = "audible"
from_frame = 70

[[scenario.expect]]
sound = "level"
dbfs_at_most = -40
from_frame = 10
to_frame = 55

[[scenario.expect]]
sound = "pitch"
hz = 440
from_frame = 200

[[scenario]]
name = "quiet"
program = "hello.prg"
keys = "x\n"

[[scenario.expect]]
sound = "silent"
"#,
    );
    std::fs::copy(suites().join("note.bas"), tests.join("note.bas")).unwrap();
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "--json", "r.json"])
        .assert()
        .code(1);
    let stdout = stdout_of(&out);
    for wanted in [
        "FAIL wrong-note (tests/hello.toml:2): 5 of 5 checks failed",
        "sound pitch, frames 10-55: expected 466.2 Hz (A#4) within 25 cents, measured 440.0 Hz \
         (A4 +0 cents), -100 cents from the expected, in 7 of 7 sounding blocks of 93 ms",
        "sound, cycles 400,000-500,000: expected silent (RMS under -60 dBFS), measured RMS -2",
        "sound, from frame 70 to the run's end: expected audible (RMS at least -60 dBFS), \
         measured -inf dBFS (no sound at all) - DOES NOT HOLD",
        "sound level (RMS), frames 10-55: expected at most -40.0 dBFS, measured RMS -21.",
        "sound pitch, from frame 200 to the run's end: expected 440.0 Hz (A4) within 25 cents, \
         measured no sound in the window: the run ended at frame 85, before it",
        "PASS quiet ",
    ] {
        assert!(stdout.contains(wanted), "no {wanted:?} in:\n{stdout}");
    }
    let json = std::fs::read_to_string(dir.join("r.json")).unwrap();
    assert!(json.contains("sound pitch, frames 10-55"), "{json}");
    // The right note holds.
    let toml = std::fs::read_to_string(tests.join("hello.toml")).unwrap();
    std::fs::write(
        tests.join("hello.toml"),
        toml.replace("note = \"A#4\"", "note = \"A4\""),
    )
    .unwrap();
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "--scenario", "wrong-note"])
        .assert()
        .code(1);
    let stdout = stdout_of(&out);
    assert!(stdout.contains("4 of 5 checks failed"), "{stdout}");
    assert!(!stdout.contains("sound pitch, frames 10-55"), "{stdout}");
}

/// A T64 tape image holding `prg` as file `name`, in C64S's format: a 64-byte header, one
/// 32-byte entry, then the file's bytes without their load address.
fn t64_of(name: &str, prg: &[u8]) -> Vec<u8> {
    let (load, data) = (u16::from_le_bytes([prg[0], prg[1]]), &prg[2..]);
    let mut t = vec![0u8; 96];
    t[..20].copy_from_slice(b"C64S tape image file");
    t[32..38].copy_from_slice(&[0x01, 0x01, 1, 0, 1, 0]); // version, entries, used
    t[40..64].fill(b' ');
    t[64] = 1; // a normal file
    t[65] = 0x82; // PRG
    t[66..68].copy_from_slice(&load.to_le_bytes());
    t[68..70].copy_from_slice(&(load + data.len() as u16).to_le_bytes());
    t[72..76].copy_from_slice(&96u32.to_le_bytes());
    t[80..96].fill(b' ');
    t[80..80 + name.len()].copy_from_slice(name.as_bytes());
    t.extend_from_slice(data);
    t
}

/// A tape or disk image's file is a scenario's program (`entry` names it, as `c64kit run
/// --entry` does); a name the image does not hold is that scenario's error, naming what it
/// holds.
#[test]
fn a_tape_or_disk_images_file_is_the_program() {
    let dir = temp_dir("test-images");
    let tests = suite_with(
        &dir,
        r#"
[[scenario]]
name = "from-tape"
program = "hello.t64"
entry = "HEL*"
keys = "tape\n"

[[scenario.expect]]
screen_row = 2
text = "HELLO, TAPE!"

[[scenario]]
name = "not-on-the-disk"
program = "../images/disk.d64"
entry = "NOPE"
keys = ""
"#,
    );
    let hello = std::fs::read(suites().join("hello.prg")).unwrap();
    write(&tests, "hello.t64", &t64_of("HELLO", &hello));
    std::fs::create_dir_all(dir.join("images")).unwrap();
    std::fs::copy(
        repo().join("examples/examples.d64"),
        dir.join("images/disk.d64"),
    )
    .unwrap();
    let out = c64kit().current_dir(&dir).arg("test").assert().code(1);
    let stdout = stdout_of(&out);
    assert!(
        stdout.contains("PASS from-tape (tests/hello.toml:2): 1 check"),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(
            |l| l.starts_with("ERROR not-on-the-disk (tests/hello.toml:12): ")
                && l.contains("no file \"NOPE\" on the disk (it holds: \"HELLO\", \"JOYSTICK\"")
        ),
        "{stdout}"
    );
}

/// Registers and flags after a run: as the program left them at its RTS (a program started
/// at an address), as RUN's SYS saved them (examples/testing/asm.toml), or as they are where
/// the run stopped; SP and PC after a return to BASIC are BASIC's, not checked.
#[test]
fn registers_and_flags_after_the_run() {
    let dir = temp_dir("test-registers");
    let tests = suite_with(
        &dir,
        r#"
[[scenario]]
name = "at-rts"
program = "rts.asm"
keys = ""

[[scenario.expect]]
register = "y"
equals = 7

[[scenario.expect]]
flag = "c"
set = true

[[scenario.expect]]
flag = "z"
set = false

[[scenario]]
name = "stopped"
program = "loop.asm"
keys = ""
max_cycles = 10_000

[[scenario.expect]]
register = "pc"
equals = 0xC002

[[scenario.expect]]
register = "x"
equals = 9

[[scenario.expect]]
flag = "n"
set = false

[[scenario]]
name = "wrong"
program = "rts.asm"
keys = ""

[[scenario.expect]]
register = "a"
equals = 6

[[scenario.expect]]
flag = "c"
set = false

[[scenario.expect]]
register = "pc"
equals = 0xC000
"#,
    );
    write(
        &tests,
        "rts.asm",
        b"*=$c000\n lda #5\n ldy #7\n sec\n rts\n",
    );
    write(&tests, "loop.asm", b"*=$c000\n ldx #9\n jmp *\n");
    let out = c64kit().current_dir(&dir).arg("test").assert().code(1);
    let stdout = stdout_of(&out);
    for line in [
        "PASS at-rts (tests/hello.toml:2): 3 checks",
        "PASS stopped (tests/hello.toml:19): 3 checks",
        "FAIL wrong (tests/hello.toml:37): 2 of 3 checks failed",
        "    register A: expected $06, measured $05 - DOES NOT HOLD",
        "    flag C: expected clear, measured set (P = $",
        "    register PC: expected $C000 - not checked (after a return to BASIC, SP and PC are \
         BASIC's",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(line)),
            "no line {line:?} in:\n{stdout}"
        );
    }
}

/// A golden picture: missing, the scenario fails and says how to make it; `--update` writes
/// it (the committed example's, pixel for pixel: runs are exact), then it passes; a run
/// that draws another screen fails, saying how many pixels differ and where.
#[test]
fn golden_pictures_are_compared_by_vices_rule_and_written_by_update() {
    let dir = temp_dir("test-picture");
    let suite = dir.join("suite");
    copy_tree(&suites(), &suite);
    std::fs::remove_dir_all(suite.join("golden")).unwrap();
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "suite/prg.toml"])
        .assert()
        .code(1);
    assert!(
        stdout_of(&out).contains(
            "the screen against golden/hello-screen.png: expected the same picture, measured \
             missing (c64kit test --update writes it) - DOES NOT HOLD"
        ),
        "{}",
        stdout_of(&out)
    );
    let out = c64kit()
        .current_dir(&dir)
        .env_remove("CI")
        .args(["test", "--update", "suite/prg.toml"])
        .assert()
        .success();
    assert!(
        stdout_of(&out).contains("UPDATED golden picture suite/golden/hello-screen.png"),
        "{}",
        stdout_of(&out)
    );
    let written = std::fs::read(suite.join("golden/hello-screen.png")).unwrap();
    assert_eq!(
        written,
        std::fs::read(suites().join("golden/hello-screen.png")).unwrap()
    );
    let (w, h, _, _) = decode_png_bytes(&written);
    assert_eq!((w, h), (384, 272), "VICE's PAL screenshot area");
    c64kit()
        .current_dir(&dir)
        .args(["test", "suite/prg.toml"])
        .assert()
        .success();
    // Another name typed: another picture.
    let toml = std::fs::read_to_string(suite.join("prg.toml")).unwrap();
    std::fs::write(
        suite.join("prg.toml"),
        toml.replace("keys = \"world\\n\"", "keys = \"mars\\n\""),
    )
    .unwrap();
    let out = c64kit()
        .current_dir(&dir)
        .args(["test", "suite/prg.toml", "--scenario", "hello-screen"])
        .assert()
        .code(1);
    let stdout = stdout_of(&out);
    assert!(
        stdout.lines().any(|l| l.starts_with(
            "    the screen against golden/hello-screen.png: expected the same picture, \
             measured "
        ) && l.contains(" of 104,448 pixels differ, the first at (")
            && l.ends_with("the golden picture's light blue - DOES NOT HOLD")),
        "{stdout}"
    );
}

/// examples/cc65: a C program's unit tests, built with cc65 here (never a committed
/// binary) and run by `c64kit test` as docs/testing.md shows; a library with a bug makes
/// main return the number of failed tests, and the scenario fails on its exit status.
/// Without cl65 the test says it skipped (CI's .ci/run installs cc65).
#[test]
fn the_cc65_example_reports_by_exit_status() {
    if no_cl65("the cc65 example was not built") {
        return;
    }
    let dir = temp_dir("test-cc65");
    copy_tree(&repo().join("examples/cc65"), &dir);
    let build = || {
        std::fs::create_dir_all(dir.join("build")).unwrap();
        let out = std::process::Command::new("cl65")
            .current_dir(&dir)
            .args([
                "-t",
                "c64",
                "-O",
                "-o",
                "build/units.prg",
                "units.c",
                "lib.c",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    build();
    let out = c64kit().current_dir(&dir).arg("test").assert();
    let stdout = stdout_of(&out);
    assert_eq!(out.get_output().status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("PASS units (tests/units.toml:5): 4 checks"),
        "{stdout}"
    );
    // A bug in gcd: two of its tests fail, and main returns 2.
    let lib = std::fs::read_to_string(dir.join("lib.c")).unwrap();
    assert!(lib.contains("t = a % b;"));
    std::fs::write(dir.join("lib.c"), lib.replace("t = a % b;", "t = a / b;")).unwrap();
    build();
    let out = c64kit().current_dir(&dir).arg("test").assert().code(1);
    let stdout = stdout_of(&out);
    for line in [
        "FAIL units (tests/units.toml:5): 3 of 4 checks failed",
        "    exit status (ST): expected 0, measured 2 - DOES NOT HOLD",
        "    /(\\d+) tests, 0 failed/: expected 7, measured not found in the transcript",
        "    text never printed: expected no \"fail:\", measured \"fail:\" printed",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(line)),
            "no line {line:?} in:\n{stdout}"
        );
    }
}

/// A writable drive folder may hold the run's own files: the scenario file and the program
/// there are protected, as `c64kit run` protects its inputs (a 1541's 26, WRITE PROTECT ON),
/// while the program's own new files are written.
#[test]
fn a_writable_drive_folder_never_changes_the_suites_files() {
    let dir = temp_dir("test-drive-protect");
    let tests = suite_with(
        &dir,
        r#"
[[scenario]]
name = "writes"
program = "writes.bas"
keys = ""

[scenario.settings]
drive_dir = "."

[[scenario.expect]]
regex = 'SCENARIO (\d+)'
equals = 26

[[scenario.expect]]
regex = 'NEW (\d+)'
equals = 0
"#,
    );
    write(
        &tests,
        "writes.bas",
        b"10 OPEN 15,8,15\n\
          20 OPEN 2,8,2,\"@0:HELLO.TOML,S,W\":PRINT#2,\"X\":CLOSE 2\n\
          30 INPUT#15,E,E$,T,S:PRINT \"SCENARIO\";E\n\
          40 OPEN 2,8,2,\"NEW.TXT,S,W\":PRINT#2,\"X\":CLOSE 2\n\
          50 INPUT#15,E,E$,T,S:PRINT \"NEW\";E\n\
          60 CLOSE 15\n",
    );
    let before = std::fs::read(tests.join("hello.toml")).unwrap();
    let out = c64kit().current_dir(&dir).arg("test").assert();
    let stdout = stdout_of(&out);
    assert_eq!(out.get_output().status.code(), Some(0), "{stdout}");
    assert_eq!(std::fs::read(tests.join("hello.toml")).unwrap(), before);
    assert!(tests.join("new.txt").is_file(), "the program's own file");
}

/// A scenario's ROM images: Commodore's BASIC and KERNAL (from `C64KIT_ROMS`; skipped
/// without), named under [scenario.settings.roms] as in c64kit.toml. The same program and
/// checks pass on them as on c64kit's own, and the machine is Commodore's: PEEKs of 16 bytes
/// spread over the KERNAL ROM add up to what Commodore's image holds, and on c64kit's own
/// KERNAL they do not.
#[test]
fn a_scenarios_roms_are_commodores_when_it_names_them() {
    let Some(roms) = commodores_roms("c64kit test with [scenario.settings.roms]") else {
        return;
    };
    let dir = temp_dir("test-roms");
    let kernal = roms.join("kernal-901227-03.bin");
    let basic = roms.join("basic-901226-01.bin");
    // The 16 bytes at $E000 + 509 * i of Commodore's KERNAL image, read from the image.
    let image = std::fs::read(&kernal).unwrap();
    let rom_sum: u32 = (0..16).map(|i| image[i * 509] as u32).sum();
    let scenario = |settings: &str| {
        format!(
            "[[scenario]]\nname = \"real-roms\"\nprogram = \"sum.bas\"\nkeys = \"10\\n\"\n\
             stop = \"returned to BASIC\"\n\n[[scenario.expect]]\nregex = 'SUM (\\d+)'\n\
             equals = 55\n\n[[scenario.expect]]\nregex = 'ROMSUM (\\d+)'\nequals = {rom_sum}\n\
             {settings}"
        )
    };
    let settings = format!(
        "\n[scenario.settings.roms]\nbasic = \"{}\"\nkernal = \"{}\"\n",
        basic.display(),
        kernal.display()
    );
    let tests = suite_with(&dir, &scenario(&settings));
    write(
        &tests,
        "sum.bas",
        b"10 INPUT N\n20 S=0:FOR I=1 TO N:S=S+I:NEXT\n30 PRINT \"SUM\";S\n\
          40 C=0:FOR I=0 TO 15:C=C+PEEK(57344+I*509):NEXT:PRINT \"ROMSUM\";C\n",
    );
    let out = c64kit().current_dir(&dir).arg("test").assert();
    let stdout = stdout_of(&out);
    assert_eq!(
        out.get_output().status.code(),
        Some(0),
        "{stdout}{}",
        stderr_of(&out)
    );
    assert!(
        stdout.contains("PASS real-roms (tests/hello.toml:1): 3 checks"),
        "{stdout}"
    );
    // Without the setting, c64kit's own ROMs: the sum of 1..10 holds, the ROM's does not.
    std::fs::write(tests.join("hello.toml"), scenario("")).unwrap();
    let out = c64kit().current_dir(&dir).arg("test").assert().code(1);
    let stdout = stdout_of(&out);
    assert!(stdout.contains("1 of 3 checks failed"), "{stdout}");
    assert!(
        stdout.lines().any(
            |l| l.starts_with("    /ROMSUM (\\d+)/: expected ") && l.ends_with("DOES NOT HOLD")
        ),
        "{stdout}"
    );
}
