//! Every file a command writes goes by one rule (issue 30): a regular file or a new name is
//! written beside it and renamed into place; a device or FIFO, or a link to one, is written
//! straight into and never replaced; a link to a regular file is followed (its target
//! replaced, the link kept). Each command's outputs over each kind of target, through the
//! binary. And no command panics when its reader goes away or its disk is full.

use crate::common::{c64kit, stub_asm};
use std::io::Read;
use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What an output's name is before the command runs.
#[derive(Clone, Copy, Debug)]
enum Target {
    Fifo,
    LinkToFifo,
    LinkToFile,
    DevNull,
    /// A character device made with mknod (/dev/null's numbers), where the test may.
    CharDevice,
}

/// One output of one command: its arguments, with `OUT` where the output's name goes.
struct Case {
    args: &'static [&'static str],
    /// The output's extension.
    ext: &'static str,
    /// Whether bytes are what this output holds (its magic, or a line it must have).
    looks_right: fn(&[u8]) -> bool,
}

fn has(bytes: &[u8], text: &str) -> bool {
    String::from_utf8_lossy(bytes).contains(text)
}

const CASES: &[Case] = &[
    Case {
        args: &["conform", "--fact", "F19", "--report", "OUT"],
        ext: "md",
        looks_right: |b| b.starts_with(b"# ") && has(b, "F19"),
    },
    Case {
        args: &["conform", "--fact", "F19", "--junit", "OUT"],
        ext: "xml",
        looks_right: |b| b.starts_with(b"<?xml") && has(b, "testcase"),
    },
    Case {
        args: &["conform", "--fact", "F19", "--json", "OUT"],
        ext: "json",
        looks_right: |b| b.starts_with(b"{") && has(b, "\"passed\": true"),
    },
    Case {
        args: &["run", "hello.prg", "--trace", "OUT"],
        ext: "txt",
        looks_right: |b| b.starts_with(b".C:0820"),
    },
    Case {
        args: &["run", "hello.prg", "--screenshot", "OUT"],
        ext: "png",
        looks_right: |b| b.starts_with(b"\x89PNG"),
    },
    Case {
        args: &["run", "hello.prg", "--html", "OUT"],
        ext: "html",
        looks_right: |b| has(b, "<html"),
    },
    Case {
        args: &["run", "hello.prg", "--record", "OUT"],
        ext: "gif",
        looks_right: |b| b.starts_with(b"GIF89a"),
    },
    Case {
        args: &["run", "hello.prg", "--audio", "OUT"],
        ext: "wav",
        looks_right: |b| b.starts_with(b"RIFF") && has(b, "WAVE"),
    },
    // A plugin's own output option.
    Case {
        args: &[
            "run",
            "hello.prg",
            "--display",
            "png",
            "-O",
            "png.output=OUT",
        ],
        ext: "png",
        looks_right: |b| b.starts_with(b"\x89PNG"),
    },
    Case {
        args: &["asm", "s.asm", "-o", "OUT"],
        ext: "prg",
        looks_right: |b| b == [0x00, 0xC0, 0x60],
    },
    Case {
        args: &["asm", "s.asm", "-o", "s.prg", "--listing", "OUT"],
        ext: "lst",
        looks_right: |b| has(b, "$C000  60"),
    },
    Case {
        args: &["asm", "s.asm", "-o", "s.prg", "--labels", "OUT"],
        ext: "lbl",
        looks_right: |b| has(b, "al C:c000 .start"),
    },
    Case {
        args: &["tokenize", "t.bas", "-o", "OUT"],
        ext: "prg",
        looks_right: |b| b.starts_with(&[0x01, 0x08]) && b.contains(&0x99),
    },
];

/// A folder with every command's inputs.
fn inputs() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hello = stub_asm("    lda #72\n    jsr $ffd2\n    rts");
    std::fs::write(d.join("hello.prg"), hello).unwrap();
    std::fs::write(d.join("s.asm"), "*=$c000\nstart rts\n").unwrap();
    std::fs::write(d.join("t.bas"), "10 print \"hi\"\n").unwrap();
    dir
}

fn run(dir: &Path, case: &Case, out: &str) -> std::process::Output {
    let args: Vec<String> = case.args.iter().map(|a| a.replace("OUT", out)).collect();
    c64kit().current_dir(dir).args(&args).output().unwrap()
}

/// Reads a FIFO to its end on a thread (the command waits for a reader, as with `>`).
fn read_fifo(path: PathBuf) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .unwrap()
            .read_to_end(&mut bytes)
            .unwrap();
        bytes
    })
}

fn make(tool: &str, args: &[&str]) -> bool {
    Command::new(tool)
        .args(args)
        .status()
        .is_ok_and(|s| s.success())
}

fn is_fifo(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_fifo())
}

fn is_link(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

fn is_char_device(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_char_device())
}

/// The file's inode (None if there is none): a file renamed into place has a new one.
fn inode(p: &Path) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(p).ok().map(|m| m.ino())
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `case` writing into `target`; panics naming both if the rule is broken.
fn check(case: &Case, target: Target) {
    let dir = inputs();
    let d = dir.path();
    let name = format!("out.{}", case.ext);
    let out = d.join(&name);
    let said = format!("{:?} {target:?}", case.args);
    let reader = match target {
        Target::Fifo => {
            assert!(make("mkfifo", &[out.to_str().unwrap()]));
            Some(read_fifo(out.clone()))
        }
        Target::LinkToFifo => {
            assert!(make("mkfifo", &[d.join("pipe").to_str().unwrap()]));
            symlink("pipe", &out).unwrap();
            Some(read_fifo(d.join("pipe")))
        }
        Target::LinkToFile => {
            std::fs::create_dir(d.join("real")).unwrap();
            std::fs::write(d.join("real/target"), b"old").unwrap();
            symlink("real/target", &out).unwrap();
            None
        }
        Target::DevNull | Target::CharDevice => None,
    };
    let written_to = match target {
        Target::DevNull => "/dev/null".to_string(),
        Target::CharDevice => {
            assert!(make("mknod", &[out.to_str().unwrap(), "c", "1", "3"]));
            name.clone()
        }
        _ => name.clone(),
    };
    let old_inode = inode(&d.join("real/target"));
    let result = run(d, case, &written_to);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(0), "{said}: {stderr}");
    match target {
        Target::Fifo | Target::LinkToFifo => {
            let fifo = if matches!(target, Target::Fifo) {
                out.clone()
            } else {
                assert!(is_link(&out), "{said}: the link was replaced");
                d.join("pipe")
            };
            assert!(is_fifo(&fifo), "{said}: the FIFO was replaced");
            // A writer that comes and goes: the reader sees the end even if the command
            // never opened the FIFO (opening it to read and write never waits).
            drop(
                std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&fifo)
                    .unwrap(),
            );
            let bytes = reader.unwrap().join().unwrap();
            assert!(
                (case.looks_right)(&bytes),
                "{said}: the reader got {bytes:?}"
            );
        }
        Target::LinkToFile => {
            assert!(is_link(&out), "{said}: the link was replaced");
            assert_ne!(
                inode(&d.join("real/target")),
                old_inode,
                "{said}: written over in place, not beside it and renamed"
            );
            let bytes = std::fs::read(d.join("real/target")).unwrap();
            assert!(
                (case.looks_right)(&bytes),
                "{said}: the link's target holds {bytes:?}"
            );
            // Written beside the target and renamed: nothing else left there.
            assert_eq!(names_in(&d.join("real")), ["target"], "{said}");
        }
        Target::DevNull => assert!(is_char_device(Path::new("/dev/null")), "{said}"),
        Target::CharDevice => assert!(is_char_device(&out), "{said}: the device was replaced"),
    }
}

/// Whether this test may make devices (root, with the right to mknod).
fn can_mknod() -> bool {
    let dir = tempfile::tempdir().unwrap();
    make(
        "mknod",
        &[dir.path().join("n").to_str().unwrap(), "c", "1", "3"],
    )
}

#[test]
fn every_output_writes_into_fifos_and_devices_and_follows_links_to_files() {
    let mut targets = vec![
        Target::Fifo,
        Target::LinkToFifo,
        Target::LinkToFile,
        Target::DevNull,
    ];
    if can_mknod() {
        targets.push(Target::CharDevice);
    }
    for case in CASES {
        for &target in &targets {
            check(case, target);
        }
    }
}

#[test]
fn a_link_to_standard_output_is_written_into_not_replaced() {
    let dir = inputs();
    let d = dir.path();
    // /proc/self/fd/1 names the pipe only through the kernel: there is no file to follow.
    symlink("/proc/self/fd/1", d.join("out.json")).unwrap();
    let out = c64kit()
        .current_dir(d)
        .args(["conform", "--fact", "F19", "--json", "out.json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(is_link(&d.join("out.json")), "the link was replaced");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"passed\": true"), "{stdout}");
}

/// Runs `args` with `stdout`; a piped stdout's reader goes away before anything is written.
/// With `stderr_gone` stderr's reader goes away too, else stderr is read. Returns the exit code
/// and what stderr said.
fn run_with(dir: &Path, args: &[&str], stdout: Stdio, stderr_gone: bool) -> (Option<i32>, String) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("c64kit"))
        .current_dir(dir)
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    if stderr_gone {
        drop(child.stderr.take());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn dev_full() -> Stdio {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap()
        .into()
}

#[test]
fn no_command_panics_when_its_reader_goes_away_or_its_disk_is_full() {
    let dir = inputs();
    let d = dir.path();
    let tape = c64kit_loader_t64::build_image("TAPE", &[("HI", 0x0801, &[0x60])]);
    std::fs::write(d.join("tape.t64"), tape).unwrap();
    let fails = stub_asm("    lda #72\n    jsr $ffd2\n    brk");
    std::fs::write(d.join("fails.prg"), fails).unwrap();
    // `list` lists what `tokenize` writes.
    c64kit()
        .current_dir(d)
        .args(["tokenize", "t.bas", "-o", "t.prg"])
        .assert()
        .success();
    // Each command, its own exit code, and whether it writes to stdout.
    let commands: &[(&[&str], i32, bool)] = &[
        (&["run", "hello.prg"], 0, true),
        (&["run", "fails.prg"], 8, true),
        (&["run", "hello.prg", "-q", "--dump-screen"], 0, true),
        (&["list", "t.prg"], 0, true),
        (&["dir", "tape.t64"], 0, true),
        (&["plugins"], 0, true),
        (&["conform", "--fact", "F19"], 0, true),
        (&["asm", "s.asm", "-o", "s.prg"], 0, false),
        (&["tokenize", "t.bas", "-o", "t2.prg"], 0, false),
    ];
    for &(args, code, writes_stdout) in commands {
        // The reader went away (`| head`): the command ends quietly with its own exit code.
        let (got, err) = run_with(d, args, Stdio::piped(), false);
        assert_eq!(got, Some(code), "{args:?}, stdout's reader gone: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("cannot write"),
            "{args:?}: {err}"
        );
        // So with stderr's reader gone too: nothing left to say anything on.
        let (got, _) = run_with(d, args, Stdio::piped(), true);
        assert_eq!(got, Some(code), "{args:?}, both readers gone");
        // A full disk is exit 1, naming standard output.
        let (got, err) = run_with(d, args, dev_full(), false);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if writes_stdout {
            assert_eq!(got, Some(1), "{args:?} into a full disk: {err}");
            assert!(
                err.contains("to standard output: No space left on device"),
                "{args:?}: {err}"
            );
        } else {
            assert_eq!(got, Some(code), "{args:?} writes nothing to stdout: {err}");
        }
    }
}

#[test]
fn an_output_in_a_missing_folder_fails_before_the_work_starts() {
    let dir = inputs();
    let d = dir.path();
    // As the README's c64kit.toml example has it: shots/ not made.
    std::fs::write(
        d.join("shots.toml"),
        "display = [\"transcript\", \"png\"]\n[plugin.png]\noutput = \"shots/screen.png\"\n",
    )
    .unwrap();
    let commands: &[&[&str]] = &[
        &["run", "hello.prg", "--trace", "missing/t.txt"],
        &["run", "hello.prg", "--screenshot", "missing/s.png"],
        &["run", "hello.prg", "--html", "missing/p.html"],
        &["run", "hello.prg", "--record", "missing/r.gif"],
        &["run", "hello.prg", "--audio", "missing/a.wav"],
        &["--config", "shots.toml", "run", "hello.prg"],
        &["conform", "--fact", "F19", "--report", "missing/r.md"],
        &["conform", "--fact", "F19", "--junit", "missing/r.xml"],
        &["conform", "--fact", "F19", "--json", "missing/r.json"],
    ];
    for args in commands {
        let out = c64kit().current_dir(d).args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains("does not exist (create it first, or choose another name)"),
            "{args:?}: {stderr}"
        );
        // Nothing ran: no transcript, no table.
        assert!(out.stdout.is_empty(), "{args:?} ran first");
    }
}
