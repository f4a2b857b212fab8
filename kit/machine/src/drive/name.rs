//! File names as CBM DOS reads them, and which of them a host folder can hold.
//!
//! A name given to OPEN or SAVE is `[@][0]:NAME[,TYPE][,MODE]`: `@` asks to replace an
//! existing file, `0:` (or `:`) names the drive, then the name, then options of which the
//! DOS reads only the first letter (`,S,W` = `,SEQ,WRITE`). The drive folder adds its own
//! rule: a name must stay a plain file name inside the folder (no path, no control byte, no
//! hidden file), which a 1541 would not ask; such names are refused with a 1541 syntax error.

use super::status::DosCode;

/// A 1541 directory entry holds 16 characters; a longer name is cut there when written.
pub const NAME_MAX: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileType {
    Prg,
    Seq,
    Usr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Append,
}

/// A parsed name: `@0:NAME,S,W` gives replace, `NAME`, SEQ, write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSpec {
    pub replace: bool,
    pub name: Vec<u8>,
    pub file_type: Option<FileType>,
    pub access: Option<Access>,
}

/// Why a name is refused: the 1541 status to give, and what to tell the person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: DosCode,
    pub reason: String,
}

fn refuse(code: DosCode, reason: impl Into<String>) -> Refusal {
    Refusal {
        code,
        reason: reason.into(),
    }
}

/// Splits `[@][drive]:` off a name or command argument. `Ok((replace, rest))`.
pub fn split_drive(raw: &[u8]) -> Result<(bool, &[u8]), Refusal> {
    let (replace, rest) = match raw.split_first() {
        Some((b'@', rest)) => (true, rest),
        _ => (false, raw),
    };
    let Some(colon) = rest.iter().position(|&b| b == b':') else {
        return Ok((replace, rest));
    };
    match &rest[..colon] {
        b"" | b"0" => Ok((replace, &rest[colon + 1..])),
        b"1" => Err(refuse(
            DosCode::DriveNotReady,
            "a 1541 has only drive 0 (\"0:\")",
        )),
        other => Err(refuse(
            DosCode::Syntax,
            format!("\"{}:\" is not a drive (a 1541 has \"0:\")", shown(other)),
        )),
    }
}

/// Parses a name given to OPEN, LOAD or SAVE. The name itself is not checked here (see
/// [`check`]): reading and writing check it differently.
pub fn parse(raw: &[u8]) -> Result<FileSpec, Refusal> {
    let (replace, rest) = split_drive(raw)?;
    let mut parts = rest.split(|&b| b == b',');
    let name = parts.next().unwrap_or_default().to_vec();
    let mut spec = FileSpec {
        replace,
        name,
        file_type: None,
        access: None,
    };
    for option in parts {
        let Some(&first) = option.first() else {
            continue;
        };
        match first.to_ascii_uppercase() {
            b'P' => spec.file_type = Some(FileType::Prg),
            b'S' => spec.file_type = Some(FileType::Seq),
            b'U' => spec.file_type = Some(FileType::Usr),
            // M (modify) reads a file that was not closed properly: here, reading.
            b'R' | b'M' => spec.access = Some(Access::Read),
            b'W' => spec.access = Some(Access::Write),
            b'A' => spec.access = Some(Access::Append),
            b'L' => {
                return Err(refuse(
                    DosCode::Syntax,
                    "relative files (\",L\") are not supported by c64kit's drive",
                ))
            }
            _ => {
                return Err(refuse(
                    DosCode::Syntax,
                    format!(
                        "\",{}\" is not a file type (P, S, U) or mode (R, W, A)",
                        shown(option)
                    ),
                ))
            }
        }
    }
    Ok(spec)
}

/// Host names Windows keeps for devices; refused everywhere so a drive folder means the same
/// on every host.
const RESERVED: [&str; 22] = [
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// Whether the drive folder can hold `name` as a plain file of its own. `write`: a name to
/// create, where a wildcard is the 1541's "33, SYNTAX ERROR"; when reading, `*` and `?` match.
pub fn check(name: &[u8], write: bool) -> Result<(), Refusal> {
    if name.is_empty() {
        return Err(refuse(DosCode::NoName, "no file name"));
    }
    for &b in name {
        if b < 0x20 || b == 0x7F || (0x80..0xA0).contains(&b) {
            return Err(refuse(
                DosCode::Syntax,
                format!("the name holds the control byte ${b:02X}"),
            ));
        }
        if b >= 0xA0 {
            return Err(refuse(
                DosCode::Syntax,
                format!("the name holds ${b:02X}, which has no spelling in a host file name"),
            ));
        }
        if b == b'/' || b == b'\\' {
            return Err(refuse(
                DosCode::Syntax,
                format!(
                    "a name with \"{}\" would name a path, not a file in the drive folder",
                    b as char
                ),
            ));
        }
        if b":\"<>|".contains(&b) {
            return Err(refuse(
                DosCode::Syntax,
                format!(
                    "\"{}\" cannot be part of a file name in the drive folder",
                    b as char
                ),
            ));
        }
    }
    if name.windows(2).any(|w| w == b"..") {
        return Err(refuse(
            DosCode::Syntax,
            "a name with \"..\" could leave the drive folder",
        ));
    }
    if name[0] == b'.' {
        return Err(refuse(
            DosCode::Syntax,
            "a name starting with \".\" would be a hidden file in the drive folder",
        ));
    }
    if write && name.iter().any(|&b| b == b'*' || b == b'?') {
        return Err(refuse(
            DosCode::BadPattern,
            "a wildcard (* or ?) in the name of a file to write",
        ));
    }
    let lower = name.to_ascii_lowercase();
    let stem = lower.split(|&b| b == b'.').next().unwrap_or_default();
    if RESERVED.iter().any(|r| r.as_bytes() == stem) {
        return Err(refuse(
            DosCode::Syntax,
            "the name of a device on Windows hosts cannot be a file in the drive folder",
        ));
    }
    Ok(())
}

/// The host file name a checked name is written as: lower case, cut to [`NAME_MAX`].
pub fn host_name(name: &[u8]) -> String {
    let cut = &name[..name.len().min(NAME_MAX)];
    String::from_utf8_lossy(&cut.to_ascii_lowercase()).into_owned()
}

/// CBM DOS matching, ignoring case: `?` matches any one character, `*` everything after it.
pub fn matches(pattern: &[u8], name: &[u8]) -> bool {
    for (i, &p) in pattern.iter().enumerate() {
        if p == b'*' {
            return true;
        }
        match name.get(i) {
            Some(c) if p == b'?' || p.eq_ignore_ascii_case(c) => {}
            _ => return false,
        }
    }
    pattern.len() == name.len()
}

/// A name for messages: printable ASCII as it is, anything else (and `"`) as `{$xx}`.
pub fn shown(raw: &[u8]) -> String {
    raw.iter()
        .map(|&b| {
            if (0x20..0x7F).contains(&b) && b != b'"' {
                (b as char).to_string()
            } else {
                format!("{{${b:02X}}}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(raw: &str) -> FileSpec {
        parse(raw.as_bytes()).unwrap()
    }

    #[test]
    fn parses_replace_drive_type_and_mode() {
        let s = spec("@0:DATA,S,W");
        assert!(s.replace);
        assert_eq!(s.name, b"DATA");
        assert_eq!(s.file_type, Some(FileType::Seq));
        assert_eq!(s.access, Some(Access::Write));
        let s = spec(":PROG");
        assert!(!s.replace);
        assert_eq!(s.name, b"PROG");
        assert_eq!((s.file_type, s.access), (None, None));
        // The DOS reads only the first letter of an option, in either order.
        let s = spec("0:LOG,APPEND,SEQ");
        assert_eq!(s.access, Some(Access::Append));
        assert_eq!(s.file_type, Some(FileType::Seq));
        assert_eq!(spec("X,P,R").access, Some(Access::Read));
        assert_eq!(spec("X,U").file_type, Some(FileType::Usr));
        // "@" replaces with or without a drive; it is never part of the name.
        assert_eq!(spec("@:X").name, b"X");
        assert!(spec("@X").replace);
        assert_eq!(spec("@X").name, b"X");
        assert_eq!(spec("NAME").name, b"NAME");
    }

    #[test]
    fn refuses_what_a_1541_would_not_parse() {
        let e = parse(b"1:X").unwrap_err();
        assert_eq!(e.code, DosCode::DriveNotReady);
        let e = parse(b"C:\\X").unwrap_err();
        assert_eq!(e.code, DosCode::Syntax);
        assert!(e.reason.contains("not a drive"), "{}", e.reason);
        let e = parse(b"X,L,100").unwrap_err();
        assert_eq!(e.code, DosCode::Syntax);
        let e = parse(b"X,Q").unwrap_err();
        assert_eq!(e.code, DosCode::Syntax);
        assert!(e.reason.contains(",Q"), "{}", e.reason);
    }

    #[test]
    fn refuses_names_that_leave_the_folder_or_hide_in_it() {
        for bad in [
            &b"../X"[..],
            b"/TMP/ABS",
            b"A/B",
            b"A\\B",
            b"..",
            b"A..B",
            b".HIDDEN",
            b".",
            b"A\0B",
            b"A\rB",
            b"\x7F",
            b"\x93CLR",
            b"A\xC1",
            b"A\"B",
            b"A|B",
            b"CON",
            b"nul.txt",
        ] {
            let e = check(bad, false).unwrap_err();
            assert_eq!(e.code, DosCode::Syntax, "{}", shown(bad));
            assert!(check(bad, true).is_err());
        }
        assert_eq!(check(b"", false).unwrap_err().code, DosCode::NoName);
        assert!(check(b"HELLO WORLD-1.PRG", true).is_ok());
        assert!(check(b"CONSOLE", true).is_ok());
    }

    #[test]
    fn wildcards_match_when_reading_and_are_refused_when_writing() {
        assert!(check(b"PROG*", false).is_ok());
        assert_eq!(check(b"PROG*", true).unwrap_err().code, DosCode::BadPattern);
        assert_eq!(check(b"P?OG", true).unwrap_err().code, DosCode::BadPattern);
        assert!(matches(b"PROG*", b"program"));
        assert!(matches(b"*", b"anything"));
        assert!(matches(b"P?OG", b"prog"));
        assert!(!matches(b"P?OG", b"progs"));
        assert!(!matches(b"PROG", b"prog.prg"));
        assert!(matches(b"HeLLo", b"hello"));
        // Everything after "*" is ignored, as the DOS does.
        assert!(matches(b"A*Z", b"abc"));
        assert!(!matches(b"PROGRAM", b"prog"));
    }

    #[test]
    fn host_names_are_lower_case_and_at_most_16_characters() {
        assert_eq!(host_name(b"HELLO"), "hello");
        assert_eq!(host_name(b"ABCDEFGHIJKLMNOPQRST"), "abcdefghijklmnop");
        assert_eq!(shown(b"A\0\"B"), "A{$00}{$22}B");
    }
}
