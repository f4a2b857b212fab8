//! The drive on its own, driven as the KERNAL drives it, over scratch folders.

use super::*;
use tempfile::TempDir;

fn folder(files: &[(&str, &[u8])]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    dir
}

/// The host files in a folder, sorted (hidden ones included: nothing may be left behind).
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// OPEN on `channel`, the bytes, CLOSE: as SAVE or PRINT# does.
fn write_file(d: &mut Drive, channel: u8, name: &str, bytes: &[u8]) {
    d.open(channel, name.as_bytes());
    d.listen(Some(channel));
    for &b in bytes {
        d.receive(b);
    }
    d.unlisten();
    d.close(channel);
}

/// Everything a channel sends, up to EOI or a time-out (None: nothing was sent at all).
fn read_channel(d: &mut Drive, channel: u8) -> Option<Vec<u8>> {
    d.talk(Some(channel));
    let mut out = Vec::new();
    loop {
        match d.send() {
            Some((b, eoi)) => {
                out.push(b);
                if eoi {
                    break;
                }
            }
            None if out.is_empty() => return None,
            None => break,
        }
    }
    d.untalk();
    Some(out)
}

fn read_file(d: &mut Drive, channel: u8, name: &str) -> Option<Vec<u8>> {
    d.open(channel, name.as_bytes());
    let got = read_channel(d, channel);
    d.close(channel);
    got
}

fn status_line(d: &mut Drive) -> String {
    String::from_utf8(read_channel(d, 15).unwrap()).unwrap()
}

/// Sends a command as PRINT#15 does.
fn command(d: &mut Drive, cmd: &str) {
    d.listen(Some(15));
    for b in cmd.bytes().chain([0x0D]) {
        d.receive(b);
    }
    d.unlisten();
}

#[test]
fn the_status_channel_says_73_at_power_on_then_00_once_read() {
    let dir = folder(&[]);
    let mut d = Drive::read_only(dir.path());
    assert_eq!(status_line(&mut d), "73,CBM DOS V2.6 1541,00,00\r");
    assert_eq!(status_line(&mut d), "00, OK,00,00\r");
    command(&mut d, "UJ");
    assert_eq!(status_line(&mut d), "73,CBM DOS V2.6 1541,00,00\r");
    command(&mut d, "I0");
    assert_eq!(status_line(&mut d), "00, OK,00,00\r");
    command(&mut d, "N0:DISK,ID");
    assert_eq!(status_line(&mut d), "31,SYNTAX ERROR,00,00\r");
    let long = "X".repeat(70);
    command(&mut d, &format!("S0:{long}"));
    assert_eq!(status_line(&mut d), "32,SYNTAX ERROR,00,00\r");
    let notes = d.take_notes();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].starts_with("command \"N0:DISK,ID\": 31,SYNTAX ERROR,00,00: "));
}

#[test]
fn a_name_that_would_leave_the_folder_is_a_syntax_error_and_nothing_is_written() {
    let parent = tempfile::tempdir().unwrap();
    let inner = parent.path().join("drive");
    std::fs::create_dir(&inner).unwrap();
    let mut d = Drive::writable(&inner);
    for name in [
        "../X", "/TMP/ABS", "A\0B", "A\rB", "..", ".PROFILE", "C:\\X",
    ] {
        write_file(&mut d, 1, name, b"\x01\x08data");
        let status = d.status();
        assert_eq!(status.code, DosCode::Syntax, "{name:?}");
        let notes = d.take_notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with(&format!(
                "SAVE \"{}\": 30,SYNTAX ERROR,00,00: ",
                shown(name.as_bytes())
            )),
            "{notes:?}"
        );
    }
    assert!(listing(&inner).is_empty());
    assert_eq!(listing(parent.path()), vec!["drive"]);
}

#[test]
fn a_read_only_drive_refuses_every_write_with_write_protect_on() {
    let dir = folder(&[("old", b"x")]);
    let mut d = Drive::read_only(dir.path());
    d.set_write_protect_hint("use --drive-dir");
    write_file(&mut d, 1, "NEW", b"\x01\x08");
    assert_eq!(d.status().code, DosCode::WriteProtectOn);
    let notes = d.take_notes();
    assert!(notes[0].starts_with("SAVE \"NEW\": 26,WRITE PROTECT ON,00,00: drive 8 may read "));
    assert!(
        notes[0].ends_with("but not write there; use --drive-dir"),
        "{notes:?}"
    );
    write_file(&mut d, 2, "OLD,S,A", b"more");
    assert_eq!(d.status().code, DosCode::WriteProtectOn);
    command(&mut d, "S0:OLD");
    assert_eq!(d.status().code, DosCode::WriteProtectOn);
    command(&mut d, "R0:NEW=OLD");
    assert_eq!(d.status().code, DosCode::WriteProtectOn);
    assert_eq!(listing(dir.path()), vec!["old"]);
    assert_eq!(std::fs::read(dir.path().join("old")).unwrap(), b"x");
    // Reading still works.
    assert_eq!(read_file(&mut d, 0, "OLD").unwrap(), b"x");
}

#[test]
fn an_existing_file_is_kept_unless_the_name_starts_with_at() {
    let dir = folder(&[("prog", b"old")]);
    let mut d = Drive::writable(dir.path());
    write_file(&mut d, 1, "PROG", b"new");
    assert_eq!(d.status().to_string(), "63,FILE EXISTS,00,00");
    assert_eq!(std::fs::read(dir.path().join("prog")).unwrap(), b"old");
    assert!(d.take_notes()[0].contains("\"@0:PROG\" replaces it"));
    write_file(&mut d, 1, "@0:PROG", b"new");
    assert_eq!(d.status().code, DosCode::Ok);
    assert_eq!(std::fs::read(dir.path().join("prog")).unwrap(), b"new");
    write_file(&mut d, 1, "@:PROG", b"newer");
    assert_eq!(std::fs::read(dir.path().join("prog")).unwrap(), b"newer");
    // A name found as NAME.prg is that file: kept, or replaced in place.
    std::fs::write(dir.path().join("game.prg"), b"g").unwrap();
    write_file(&mut d, 1, "GAME", b"x");
    assert_eq!(d.status().code, DosCode::FileExists);
    write_file(&mut d, 1, "@0:GAME", b"y");
    assert_eq!(std::fs::read(dir.path().join("game.prg")).unwrap(), b"y");
    assert_eq!(listing(dir.path()), vec!["game.prg", "prog"]);
    assert!(d.take_notes().len() == 1);
}

#[test]
fn written_names_are_lower_case_and_cut_to_16_characters() {
    let dir = folder(&[]);
    let mut d = Drive::writable(dir.path());
    write_file(&mut d, 1, "0:HELLO", b"\x01\x08");
    write_file(&mut d, 1, "ABCDEFGHIJKLMNOPQRST", b"\x01\x08");
    assert_eq!(listing(dir.path()), vec!["abcdefghijklmnop", "hello"]);
    assert!(d.take_notes().is_empty());
}

#[test]
fn wildcards_read_and_are_refused_for_writing() {
    let dir = folder(&[("beta", b"b"), ("alpha.prg", b"a"), ("program", b"p")]);
    let mut d = Drive::writable(dir.path());
    assert_eq!(read_file(&mut d, 0, "*").unwrap(), b"a");
    assert_eq!(read_file(&mut d, 0, "PROG*").unwrap(), b"p");
    assert_eq!(read_file(&mut d, 0, "B?TA").unwrap(), b"b");
    assert_eq!(read_file(&mut d, 0, "ALPHA").unwrap(), b"a");
    assert_eq!(read_file(&mut d, 0, "alpha.PRG").unwrap(), b"a");
    write_file(&mut d, 1, "NEW*", b"x");
    assert_eq!(d.status().to_string(), "33,SYNTAX ERROR,00,00");
    write_file(&mut d, 2, "N?W,S,W", b"x");
    assert_eq!(d.status().code, DosCode::BadPattern);
    assert_eq!(listing(dir.path()), vec!["alpha.prg", "beta", "program"]);
}

#[test]
fn a_missing_file_sends_nothing_and_says_62() {
    let dir = folder(&[(".hidden", b"h")]);
    let mut d = Drive::read_only(dir.path());
    assert_eq!(read_file(&mut d, 0, "GONE"), None);
    assert_eq!(d.status().to_string(), "62,FILE NOT FOUND,00,00");
    // Hidden files (and the temporary files of atomic writes) are not on the disk.
    assert_eq!(read_file(&mut d, 2, "*"), None);
    assert_eq!(d.take_notes().len(), 2);
}

#[test]
fn a_file_larger_than_a_disk_is_not_on_it() {
    let dir = folder(&[]);
    std::fs::write(dir.path().join("big"), vec![0u8; DISK_BYTES as usize + 1]).unwrap();
    std::fs::write(dir.path().join("full"), vec![7u8; DISK_BYTES as usize]).unwrap();
    let mut d = Drive::read_only(dir.path());
    assert_eq!(read_file(&mut d, 0, "BIG"), None);
    assert_eq!(d.status().code, DosCode::FileNotFound);
    assert!(d.take_notes()[0].contains("more than a file on a 1541 disk can be"));
    assert_eq!(
        read_file(&mut d, 0, "FULL").unwrap().len(),
        DISK_BYTES as usize
    );
}

#[test]
fn sequential_files_write_read_and_append() {
    let dir = folder(&[]);
    let mut d = Drive::writable(dir.path());
    write_file(&mut d, 2, "0:LOG,S,W", b"ONE\r");
    assert_eq!(std::fs::read(dir.path().join("log")).unwrap(), b"ONE\r");
    write_file(&mut d, 3, "LOG,A", b"TWO\r");
    assert_eq!(read_file(&mut d, 4, "LOG,S,R").unwrap(), b"ONE\rTWO\r");
    // Without a mode a data channel reads.
    assert_eq!(read_file(&mut d, 5, "LOG").unwrap(), b"ONE\rTWO\r");
    // Append needs the file.
    write_file(&mut d, 2, "NONE,A", b"x");
    assert_eq!(d.status().code, DosCode::FileNotFound);
    // An empty file sends one carriage return.
    write_file(&mut d, 2, "EMPTY,S,W", b"");
    assert_eq!(read_file(&mut d, 2, "EMPTY").unwrap(), b"\r");
    assert_eq!(listing(dir.path()), vec!["empty", "log"]);
}

#[test]
fn a_file_is_written_only_when_closed_and_closing_15_closes_all() {
    let dir = folder(&[]);
    let mut d = Drive::writable(dir.path());
    d.open(2, b"A,S,W");
    d.listen(Some(2));
    d.receive(b'a');
    d.unlisten();
    d.open(3, b"B,S,W");
    assert!(listing(dir.path()).is_empty());
    d.close(15);
    assert_eq!(listing(dir.path()), vec!["a", "b"]);
    // A file never closed is not written, and the end of the run says so.
    d.open(4, b"C,S,W");
    d.finish();
    let notes = d.take_notes();
    assert_eq!(notes.len(), 1);
    assert!(notes[0].starts_with("OPEN \"C,S,W\" (channel 4) was never closed"));
    command(&mut d, "UJ");
    d.close(4);
    assert_eq!(listing(dir.path()), vec!["a", "b"]);
}

#[test]
fn scratch_and_rename() {
    let dir = folder(&[("a1", b"1"), ("a2.prg", b"2"), ("b", b"3"), (".x", b"h")]);
    let mut d = Drive::writable(dir.path());
    command(&mut d, "S0:A*");
    assert_eq!(d.status().to_string(), "01,FILES SCRATCHED,02,00");
    command(&mut d, "S:ZZZ");
    assert_eq!(d.status().to_string(), "01,FILES SCRATCHED,00,00");
    command(&mut d, "S0:../B");
    assert_eq!(d.status().code, DosCode::Syntax);
    assert_eq!(listing(dir.path()), vec![".x", "b"]);
    command(&mut d, "R0:C=B");
    assert_eq!(d.status().code, DosCode::Ok);
    assert_eq!(listing(dir.path()), vec![".x", "c"]);
    command(&mut d, "R0:C=GONE");
    assert_eq!(d.status().code, DosCode::FileNotFound);
    std::fs::write(dir.path().join("d.prg"), b"4").unwrap();
    command(&mut d, "R0:D=C");
    assert_eq!(d.status().code, DosCode::FileExists);
    command(&mut d, "R0:../E=C");
    assert_eq!(d.status().code, DosCode::Syntax);
    command(&mut d, "R0:E*=C");
    assert_eq!(d.status().code, DosCode::BadPattern);
    command(&mut d, "R0:E");
    assert_eq!(d.status().code, DosCode::Syntax);
    // A file found as NAME.prg keeps its ".prg".
    command(&mut d, "R0:F=D");
    assert_eq!(listing(dir.path()), vec![".x", "c", "f.prg"]);
    assert_eq!(std::fs::read(dir.path().join("f.prg")).unwrap(), b"4");
    // Through OPEN 15,8,15,"cmd" as well.
    d.open(15, b"S0:C");
    assert_eq!(d.status().to_string(), "01,FILES SCRATCHED,01,00");
    assert_eq!(listing(dir.path()), vec![".x", "f.prg"]);
}

#[test]
fn one_run_writes_at_most_one_disk() {
    let dir = folder(&[]);
    let mut d = Drive::writable(dir.path());
    let half = vec![0u8; DISK_BYTES as usize / 2];
    write_file(&mut d, 1, "ONE", &half);
    write_file(&mut d, 1, "TWO", &half);
    assert_eq!(d.status().code, DosCode::Ok);
    write_file(&mut d, 1, "THREE", b"x");
    assert_eq!(d.status().to_string(), "72,DISK FULL,00,00");
    assert_eq!(listing(dir.path()), vec!["one", "two"]);
    // Replacing a file this run wrote gives its room back; growing past a disk does not.
    write_file(&mut d, 1, "@0:TWO", b"small");
    write_file(&mut d, 1, "THREE", b"x");
    assert_eq!(listing(dir.path()), vec!["one", "three", "two"]);
    d.take_notes();
    write_file(&mut d, 1, "@0:ONE", &vec![0u8; DISK_BYTES as usize + 10]);
    assert_eq!(d.status().code, DosCode::DiskFull);
    // The file stops growing where the disk would be full (its bytes are not kept).
    let notes = d.take_notes();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("grew past"), "{notes:?}");
    assert_eq!(
        std::fs::read(dir.path().join("one")).unwrap().len(),
        half.len()
    );
    // At most a 1541 directory of new files.
    let mut d = Drive::writable(dir.path());
    for i in 0..DISK_FILES + 1 {
        write_file(&mut d, 1, &format!("F{i}"), b"");
    }
    assert_eq!(d.status().code, DosCode::DiskFull);
    assert_eq!(listing(dir.path()).len(), 3 + DISK_FILES);
}

#[test]
fn notes_are_bounded() {
    let dir = folder(&[]);
    let mut d = Drive::read_only(dir.path());
    for _ in 0..1000 {
        write_file(&mut d, 1, "X", b"");
    }
    let notes = d.take_notes();
    assert_eq!(notes.len(), NOTES_MAX + 1);
    assert!(notes[NOTES_MAX].contains("not shown"));
}

#[test]
fn garbage_never_panics_nor_writes_outside_the_folder() {
    let parent = tempfile::tempdir().unwrap();
    let inner = parent.path().join("drive");
    std::fs::create_dir(&inner).unwrap();
    std::fs::write(inner.join("f"), b"data").unwrap();
    let mut d = Drive::writable(&inner);
    let mut rng = fastrand::Rng::with_seed(13);
    for _ in 0..3000 {
        let len = rng.usize(0..24);
        let name: Vec<u8> = (0..len)
            .map(|_| *rng.choice(b"@0:1,SPWRA*?/.\\F\0\r=IUJ-+".iter()).unwrap())
            .collect();
        let ch = rng.u8(0..20);
        match rng.u8(0..7) {
            0 => d.open(ch, &name),
            1 => d.close(ch),
            2 => d.listen(Some(ch)),
            3 => d.talk(Some(ch)),
            4 => {
                d.send();
            }
            5 => d.receive(rng.u8(..)),
            _ => d.unlisten(),
        }
    }
    d.finish();
    // Whatever was written stayed in the folder, and no temporary file was left.
    assert_eq!(listing(parent.path()), vec!["drive"]);
    assert!(listing(&inner).iter().all(|n| !n.starts_with('.')));
}

#[test]
fn load_dollar_gives_the_directory() {
    let dir = folder(&[
        ("hello.prg", &[0u8; 300]),
        ("notes", b"n"),
        (".hidden", b"h"),
    ]);
    let mut d = Drive::read_only(dir.path());
    let listing = read_file(&mut d, 0, "$").unwrap();
    assert_eq!(listing[..2], [0x01, 0x04]);
    let text = String::from_utf8_lossy(&listing);
    assert!(text.contains("\"HELLO\"            PRG"), "{text}");
    assert!(text.contains("\"NOTES\"            PRG"), "{text}");
    assert!(!text.contains("HIDDEN"), "{text}");
    assert!(text.contains("BLOCKS FREE."), "{text}");
    let some = read_file(&mut d, 0, "$0:H*").unwrap();
    assert!(!String::from_utf8_lossy(&some).contains("NOTES"));
    assert_eq!(read_file(&mut d, 2, "$"), None);
    assert_eq!(d.status().code, DosCode::FileNotFound);
    assert_eq!(read_file(&mut d, 0, "$X"), None);
    assert_eq!(d.status().code, DosCode::Syntax);
}

#[test]
fn commands_that_run_drive_code_are_told_apart() {
    for cmd in [
        &b"M-E\x00\x03"[..],
        b"m-e",
        b"B-E:2,0,18,0",
        b"U3",
        b"UC",
        b"U8",
        b"&FILE",
    ] {
        assert!(runs_drive_code(cmd), "{}", shown(cmd));
    }
    for cmd in [
        &b"M-W\x00\x03\x01\x60"[..],
        b"M-R",
        b"UI",
        b"UJ",
        b"U9",
        b"I",
        b"S0:X",
        b"",
    ] {
        assert!(!runs_drive_code(cmd), "{}", shown(cmd));
    }
    let dir = tempfile::tempdir().unwrap();
    let mut d = Drive::read_only(dir.path());
    d.open(15, b"M-W\x00\x03\x01\x60");
    assert!(!d.take_drive_code());
    d.open(15, b"M-E\x00\x03");
    assert!(d.take_drive_code(), "asked once");
    assert!(!d.take_drive_code(), "and taken");
}
