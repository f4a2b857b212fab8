//! `c64kit conform` on a terminal of 80 columns: `script` gives it one, and every line must
//! fit, each scenario's name whole on its own line (a table squeezed to 80 columns broke
//! names and numbers mid-word). Without `script` the test says so and checks nothing.

use std::process::Command;

#[test]
fn an_80_column_terminal_gets_whole_names_and_lines_that_fit() {
    let bin = assert_cmd::cargo::cargo_bin("c64kit");
    let command = format!(
        "stty cols 80 rows 40; '{}' conform --engine ryg-v15",
        bin.display()
    );
    let Ok(out) = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("NO_COLOR", "1")
        .output()
    else {
        eprintln!("SKIPPED: `script` (util-linux) is not installed, so no terminal is tried");
        return;
    };
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    // The live progress lines end in carriage returns and erase codes: keep what stays.
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| l.trim_end_matches('\r').rsplit('\r').next().unwrap_or(""))
        .map(strip_ansi)
        .filter(|l| !l.trim().is_empty())
        .collect();
    for l in &lines {
        assert!(l.chars().count() <= 80, "wider than the terminal: {l:?}");
    }
    let name = "f1-start-position-and-row-0-win";
    assert!(
        lines.iter().any(|l| l.starts_with(name)),
        "{name} whole at a line's start:\n{}",
        lines.join("\n")
    );
    assert!(lines.iter().any(|l| l.contains("hold 6/6")), "{lines:#?}");
}

/// The text without ANSI escape sequences (colours, cursor moves).
fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
