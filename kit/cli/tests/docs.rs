//! Every command the README and the docs show, run as written with the `c64kit` this build
//! made, on the files the repository ships (examples/, programs/), so that no example names a
//! file that does not exist or an option that does not work.
//!
//! How a document's code blocks are read:
//! - ` ```sh ` blocks: every line (joined over `\` line ends) that is not blank or a `#`
//!   comment is a command.
//! - ` ```console ` blocks: a line starting with `$ ` is a command; the lines under it, up to
//!   the next command, are what it prints (stdout or stderr): each must be a line of its
//!   output, where `...` stands for any text.
//! - ` ```toml ` blocks whose first line is `# c64kit.toml` are the settings file of the
//!   next command (written as c64kit.toml in its folder, removed after it).
//!
//! A document's commands run in order in one scratch folder holding copies of examples/ and
//! programs/, so a later command may use what an earlier one wrote. A `c64kit` command must
//! not end in a c64kit error or a usage error (exit 1 or 2) nor panic; a `cargo` command is
//! a developer's, checked but not run (packages, paths and xtask commands must exist).
//! Commands that need what a test cannot give (a person at a terminal, a sound card) are
//! listed in `SKIPPED` with the reason, and printed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Commands (by their start) that are shown but cannot run here, and why.
const SKIPPED: &[(&str, &str)] = &[
    (
        "c64kit play",
        "play is for a person at a terminal (tests/play_terminal.rs runs it under tmux)",
    ),
    (
        "c64kit --plugin target/release/libc64kit_audio_cpal.so",
        "needs `cargo xtask audio-cpal` (ALSA's headers) and a sound card",
    ),
];

/// The longest a documented command may take: they are meant to be tried by hand.
const COMMAND_TIME: Duration = Duration::from_secs(120);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The documents whose examples must run: the README and every Markdown file of docs/ (but
/// docs/ci.md, whose GitHub Actions job tests/ci_doc.rs runs), examples/ and programs/.
fn documents() -> Vec<PathBuf> {
    let root = repo();
    let mut docs = vec![root.join("README.md")];
    for dir in ["docs", "examples", "programs"] {
        let mut found = Vec::new();
        collect_markdown(&root.join(dir), &mut found);
        found.sort();
        docs.extend(found.into_iter().filter(|p| !p.ends_with("docs/ci.md")));
    }
    docs
}

fn collect_markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_markdown(&p, out);
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
}

/// One documented command: where it is, its text, and the output shown under it.
#[derive(Debug, Default)]
struct Example {
    line: usize,
    command: String,
    shown: Vec<String>,
    settings: Option<String>,
}

/// The commands of one Markdown document, in order.
fn examples(text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut settings: Option<String> = None;
    let mut lines = text.lines().enumerate().peekable();
    while let Some((_, line)) = lines.next() {
        let Some(lang) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let lang = lang.trim().to_string();
        let mut body: Vec<(usize, String)> = Vec::new();
        for (i, l) in lines.by_ref() {
            if l.trim_start().starts_with("```") {
                break;
            }
            body.push((i + 1, l.to_string()));
        }
        match lang.as_str() {
            "sh" | "bash" | "shell" => {
                for (line, command) in logical_lines(&body) {
                    let t = command.trim();
                    if t.is_empty() || t.starts_with('#') {
                        continue;
                    }
                    out.push(Example {
                        line,
                        command: t.to_string(),
                        settings: settings.take(),
                        ..Default::default()
                    });
                }
            }
            "console" => {
                for (line, text) in logical_lines(&body) {
                    if let Some(cmd) = text.strip_prefix("$ ") {
                        out.push(Example {
                            line,
                            command: cmd.trim().to_string(),
                            settings: settings.take(),
                            ..Default::default()
                        });
                    } else if let Some(e) = out.last_mut() {
                        if !text.trim().is_empty() {
                            e.shown.push(text.trim_end().to_string());
                        }
                    }
                }
            }
            "toml"
                if body
                    .first()
                    .is_some_and(|(_, l)| l.trim() == "# c64kit.toml") =>
            {
                let lines: Vec<&str> = body.iter().map(|(_, l)| l.as_str()).collect();
                settings = Some(lines.join("\n") + "\n");
            }
            _ => {}
        }
    }
    out
}

/// Lines joined over a trailing `\`, each with its first line's number.
fn logical_lines(body: &[(usize, String)]) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (n, l) in body {
        if open {
            let last = out.last_mut().unwrap();
            last.1.push(' ');
            last.1.push_str(l.trim());
        } else {
            out.push((*n, l.clone()));
        }
        open = l.ends_with('\\');
        if open {
            let last = out.last_mut().unwrap();
            last.1 = last.1.trim_end_matches('\\').trim_end().to_string();
        }
    }
    out
}

/// A shown line matches an output line when its pieces between `...` appear in it in order
/// (the first at its start, the last at its end, unless `...` stands there).
fn matches(shown: &str, actual: &str) -> bool {
    let actual = actual.trim_end();
    let pieces: Vec<&str> = shown.split("...").collect();
    if pieces.len() == 1 {
        return actual == shown;
    }
    let mut rest = actual;
    for (i, piece) in pieces.iter().enumerate() {
        if i == 0 {
            match rest.strip_prefix(piece) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if i == pieces.len() - 1 {
            return rest.ends_with(piece);
        } else {
            match rest.find(piece) {
                Some(at) => rest = &rest[at + piece.len()..],
                None => return false,
            }
        }
    }
    true
}

/// The workspace's package names and xtask's commands, for the `cargo` lines.
struct Workspace {
    packages: Vec<String>,
    xtask_commands: Vec<String>,
}

impl Workspace {
    fn read() -> Workspace {
        let root = repo();
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let mut packages = Vec::new();
        let members = manifest
            .split("members = [")
            .nth(1)
            .and_then(|s| s.split(']').next())
            .expect("the workspace lists its members");
        for member in members.split(',').map(|m| m.trim().trim_matches('"')) {
            if member.is_empty() {
                continue;
            }
            let toml = std::fs::read_to_string(root.join(member).join("Cargo.toml")).unwrap();
            let name = toml
                .lines()
                .find_map(|l| l.strip_prefix("name = "))
                .expect("a package has a name");
            packages.push(name.trim_matches('"').to_string());
        }
        // xtask's commands: the variants of its `enum Command`, as clap names them.
        let main = std::fs::read_to_string(root.join("xtask/src/main.rs")).unwrap();
        let body = main
            .split("enum Command {")
            .nth(1)
            .and_then(|s| s.split("\n}").next())
            .expect("xtask has enum Command");
        let xtask_commands = body
            .lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("///") && !l.starts_with('#'))
            .filter_map(|l| {
                let name: String = l.chars().take_while(|c| c.is_alphanumeric()).collect();
                (!name.is_empty()).then(|| kebab(&name))
            })
            .collect();
        Workspace {
            packages,
            xtask_commands,
        }
    }

    /// What is wrong with a developer's `cargo` command, if anything.
    fn check_cargo(&self, command: &str) -> Option<String> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "cargo")?;
        let args = &words[at + 1..];
        if args.first() == Some(&"xtask") {
            let sub = args.get(1).copied().unwrap_or("");
            if !self.xtask_commands.iter().any(|c| c == sub) {
                return Some(format!(
                    "`cargo xtask {sub}`: xtask has no such command (it has {})",
                    self.xtask_commands.join(", ")
                ));
            }
        }
        for (i, w) in args.iter().enumerate() {
            let value = args.get(i + 1).copied().unwrap_or("");
            match *w {
                "-p" | "--package" if !self.packages.iter().any(|p| p == value) => {
                    return Some(format!("no package {value:?} in the workspace"));
                }
                "--path" | "--manifest-path" if !repo().join(value).exists() => {
                    return Some(format!("{w} {value}: no such path in the repository"));
                }
                _ => {}
            }
        }
        None
    }
}

fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Runs one command with bash in `dir`, `c64kit` on the PATH; its exit code and output.
fn run(dir: &Path, bin: &Path, command: &str) -> (Option<i32>, String, String) {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = std::process::Command::new("bash")
        .args(["-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("COLORTERM")
        .env_remove("RUST_BACKTRACE")
        // Documented commands are what a person types, not a CI job: `CI` would refuse
        // `--update`, which here writes only into this temporary copy of examples/.
        .env_remove("CI")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut s).unwrap();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut s).unwrap();
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > COMMAND_TIME {
            let _ = child.kill();
            panic!("`{command}` ran over {COMMAND_TIME:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    (status.code(), stdout, stderr)
}

#[test]
fn every_documented_command_runs_as_written() {
    let workspace = Workspace::read();
    let bin = common::temp_dir("docs-bin");
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("c64kit"), bin.join("c64kit")).unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for doc in documents() {
        let name = doc
            .strip_prefix(repo())
            .unwrap_or(&doc)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&doc).unwrap();
        let dir = common::temp_dir(&format!("docs-{}", name.replace('/', "-")));
        common::copy_tree(&repo().join("examples"), &dir.join("examples"));
        common::copy_tree(&repo().join("programs"), &dir.join("programs"));
        for e in examples(&text) {
            let at = format!("{name}:{}", e.line);
            let first = e.command.split_whitespace().next().unwrap_or("");
            if first == "cargo" || e.command.starts_with("nice cargo") {
                if let Some(problem) = workspace.check_cargo(&e.command) {
                    failures.push(format!("{at}: `{}`: {problem}", e.command));
                }
                continue;
            }
            if first != "c64kit" {
                failures.push(format!(
                    "{at}: `{}`: a shown command is c64kit's or cargo's",
                    e.command
                ));
                continue;
            }
            if let Some((_, why)) = SKIPPED.iter().find(|(s, _)| e.command.starts_with(s)) {
                println!("skipped {at}: `{}`: {why}", e.command);
                continue;
            }
            let settings = dir.join("c64kit.toml");
            if let Some(s) = &e.settings {
                std::fs::write(&settings, s).unwrap();
            }
            let (code, stdout, stderr) = run(&dir, &bin, &e.command);
            let _ = std::fs::remove_file(&settings);
            ran += 1;
            let output = || format!("stdout:\n{stdout}\nstderr:\n{stderr}");
            if matches!(code, Some(1) | Some(2) | None) || stderr.contains("panicked") {
                failures.push(format!(
                    "{at}: `{}` failed (exit {code:?})\n{}",
                    e.command,
                    output()
                ));
                continue;
            }
            let actual: Vec<&str> = stdout.lines().chain(stderr.lines()).collect();
            for shown in &e.shown {
                if !actual.iter().any(|a| matches(shown, a)) {
                    failures.push(format!(
                        "{at}: `{}` does not print the shown line {shown:?}\n{}",
                        e.command,
                        output()
                    ));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 10, "only {ran} documented commands ran");
}

#[test]
fn shown_lines_match_with_and_without_elisions() {
    assert!(matches("HELLO, WORLD!", "HELLO, WORLD!  "));
    assert!(!matches("HELLO, WORLD!", "HELLO, WORLD!!"));
    assert!(matches(
        "c64kit: returned to BASIC after ...",
        "c64kit: returned to BASIC after 9 cycles"
    ));
    assert!(matches("... cycles ...", "after 9 cycles (0.1 s)"));
    assert!(!matches("c64kit: ... budget", "c64kit: breakpoint"));
    assert!(matches("a...b...c", "a-b-c"));
    assert!(!matches("a...b...c", "a-c-b"));
}

#[test]
fn blocks_are_read_as_documented() {
    let doc = "text\n```sh\n# a comment\nc64kit run a.prg \\\n  --input x\n```\n\
               ```console\n$ c64kit run b.prg\nHI\n...\n$ c64kit list b.prg\n```\n\
               ```toml\n# c64kit.toml\nmax_cycles = 5\n```\n```sh\nc64kit run c.prg\n```\n";
    let e = examples(doc);
    let commands: Vec<&str> = e.iter().map(|e| e.command.as_str()).collect();
    assert_eq!(
        commands,
        [
            "c64kit run a.prg --input x",
            "c64kit run b.prg",
            "c64kit list b.prg",
            "c64kit run c.prg"
        ]
    );
    assert_eq!(e[1].shown, ["HI", "..."]);
    assert_eq!(e[0].line, 4);
    assert_eq!(
        e[3].settings.as_deref(),
        Some("# c64kit.toml\nmax_cycles = 5\n")
    );
    assert!(e[2].settings.is_none());
}
