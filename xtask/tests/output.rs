//! xtask's commands write as c64kit's do (issue 30): files by c64kit_files' one rule, and
//! standard output without a panic when its reader goes away or its disk is full.

use std::path::Path;
use std::process::{Command, Stdio};

/// `cargo xtask ARGS` with its target folder (where `build` writes) in `target`.
fn xtask(target: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_xtask"));
    c.args(args)
        .env("CARGO_TARGET_DIR", target)
        .env("RUST_BACKTRACE", "1");
    c
}

#[test]
fn build_follows_a_link_to_a_file_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("programs")).unwrap();
    std::fs::write(d.join("kept.prg"), b"old").unwrap();
    let link = d.join("programs/ryg3-v10.prg");
    std::os::unix::fs::symlink(d.join("kept.prg"), &link).unwrap();
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let before = inode(&d.join("kept.prg"));
    let out = xtask(d, &["build"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced"
    );
    let prg = std::fs::read(d.join("kept.prg")).unwrap();
    assert_eq!(&prg[..2], &[0x01, 0x08], "the link's target holds the PRG");
    assert_ne!(
        inode(&d.join("kept.prg")),
        before,
        "written over in place, not beside it and renamed"
    );
}

#[test]
fn conform_never_panics_when_its_reader_goes_away_or_its_disk_is_full() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["conform", "--fact", "F19"];
    // The reader goes away before anything is written (`| head`): its own exit code.
    let mut child = xtask(dir.path(), &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // A full disk: exit 1, naming standard output.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = xtask(dir.path(), &args).stdout(full).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("to standard output: No space left on device")
            && !stderr.contains("panicked"),
        "{stderr}"
    );
}
