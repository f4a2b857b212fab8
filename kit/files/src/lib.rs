//! Reading the files c64kit is given, as a program someone else wrote might hand them to it:
//! only regular files (never `/dev/zero`, a FIFO or a folder), never more than the caller
//! says can matter, and errors that name the path once with the reason.
//!
//! Also the check every command makes before it writes (an output is never one of the
//! command's inputs), and the one way every command writes: files by one rule (`output`),
//! standard output and standard error without a panic (`stdio`).

pub mod output;
pub mod stdio;

pub use output::{check_output, write_atomic, write_output, AtomicFile, OutputFile};

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Binary prefixes for limits and sizes in messages.
pub const KIB: u64 = 1024;
pub const MIB: u64 = 1024 * KIB;

/// How many characters of someone's input an error message quotes.
pub const QUOTE_CHARS: usize = 200;

/// A file that could not be read, or should not be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub path: PathBuf,
    pub reason: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for FileError {}

fn error(path: &Path, reason: impl Into<String>) -> FileError {
    FileError {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// The OS's reason without Rust's " (os error N)" suffix: "No such file or directory".
pub fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// What a path is, when it is not a regular file: "a folder", "a FIFO"...
fn not_a_file(meta: &std::fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_char_device() {
            return Some("a character device (like /dev/zero)");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// A size for people: "812 bytes", "64 KiB", "150.0 MiB".
pub fn size_text(n: u64) -> String {
    if n < 10 * KIB {
        format!("{n} bytes")
    } else if n < 10 * MIB {
        if n.is_multiple_of(KIB) {
            format!("{} KiB", n / KIB)
        } else {
            format!("{:.1} KiB", n as f64 / KIB as f64)
        }
    } else if n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else {
        format!("{:.1} MiB", n as f64 / MIB as f64)
    }
}

fn too_big(path: &Path, size: u64, max: u64, what: &str) -> FileError {
    error(
        path,
        format!(
            "{} is more than {what} can be ({}): refused",
            size_text(size),
            size_text(max)
        ),
    )
}

#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    // A FIFO swapped in after the check must not block the open; regular files ignore it.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Reads a regular file of at most `max` bytes. `what` names the kind of file for the size
/// error ("a PRG", "a character ROM image"). Folders, devices, FIFOs and sockets are
/// refused before anything is read; a larger file is refused without reading it.
pub fn read(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, FileError> {
    let cannot = |e: std::io::Error| error(path, format!("cannot read: {}", io_reason(&e)));
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if let Some(kind) = not_a_file(&meta) {
        return Err(error(path, format!("is {kind}, not a file")));
    }
    if meta.len() > max {
        return Err(too_big(path, meta.len(), max, what));
    }
    let file = open(path).map_err(cannot)?;
    // The path may have changed between the two looks: check what was opened.
    let meta = file.metadata().map_err(cannot)?;
    if let Some(kind) = not_a_file(&meta) {
        return Err(error(path, format!("is {kind}, not a file")));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(max) as usize);
    file.take(max + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > max {
        // It grew while being read.
        return Err(too_big(path, bytes.len() as u64, max, what));
    }
    Ok(bytes)
}

/// [`read`], then the bytes as UTF-8 text; an invalid byte is named by line and column.
pub fn read_text(path: &Path, max: u64, what: &str) -> Result<String, FileError> {
    let bytes = read(path, max, what)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = Utf8Error::at(e.as_bytes(), e.utf8_error().valid_up_to());
        error(path, at.to_string())
    })
}

/// Where text stops being UTF-8: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utf8Error {
    pub line: usize,
    pub column: usize,
    pub byte: u8,
}

impl Utf8Error {
    fn at(bytes: &[u8], valid_up_to: usize) -> Utf8Error {
        // Everything before `valid_up_to` is valid UTF-8.
        let good = std::str::from_utf8(&bytes[..valid_up_to]).unwrap_or_default();
        let line_start = good.rfind('\n').map_or(0, |i| i + 1);
        Utf8Error {
            line: good.matches('\n').count() + 1,
            column: good[line_start..].chars().count() + 1,
            byte: bytes[valid_up_to],
        }
    }
}

impl fmt::Display for Utf8Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: invalid UTF-8 (byte ${:02X}); save the file as UTF-8",
            self.line, self.column, self.byte
        )
    }
}

impl std::error::Error for Utf8Error {}

/// Bytes as UTF-8 text, or where they stop being UTF-8.
pub fn utf8(bytes: &[u8]) -> Result<&str, Utf8Error> {
    std::str::from_utf8(bytes).map_err(|e| Utf8Error::at(bytes, e.valid_up_to()))
}

/// At most [`QUOTE_CHARS`] characters of someone's input for a message, control
/// characters escaped, with how much was left out.
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    for (shown, (i, c)) in text.char_indices().enumerate() {
        if shown == QUOTE_CHARS {
            let rest = text[i..].chars().count();
            out.push_str(&format!("... ({rest} more characters)"));
            return out;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A message that may quote someone's input (a parser's error showing the offending line):
/// every line of it cut to [`QUOTE_CHARS`] characters, with how much was left out.
pub fn clip_lines(message: &str) -> String {
    message
        .split('\n')
        .map(|line| match line.char_indices().nth(QUOTE_CHARS) {
            Some((i, _)) => format!(
                "{}... ({} more characters)",
                &line[..i],
                line[i..].chars().count()
            ),
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// True if both paths name one existing file (hard links, links and other spellings
/// included).
#[cfg(unix)]
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    // By device and inode, without opening either: opening a FIFO (an output someone reads)
    // would wait for its writer.
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// True if both paths name one existing file (hard links and other spellings included).
#[cfg(not(unix))]
pub fn same_file(a: &Path, b: &Path) -> bool {
    same_file::is_same_file(a, b).unwrap_or(false)
}

/// An output about to be written, checked against the command's inputs: refused, naming
/// both, if it is one of them. `inputs` pairs each input with what it is ("the program").
pub fn ensure_not_input(
    output: &Path,
    output_is: &str,
    inputs: &[(PathBuf, String)],
) -> Result<(), String> {
    for (input, input_is) in inputs {
        if same_file(output, input) {
            return Err(format!(
                "{output_is} {} is {input_is} {}: c64kit never writes over one of its inputs \
                 (choose another output name)",
                output.display(),
                input.display()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        let dir = tempfile::tempdir().unwrap();
        let e = read(dir.path(), 100, "a PRG").unwrap_err();
        assert_eq!(e.reason, "is a folder, not a file");
        #[cfg(unix)]
        {
            let e = read(Path::new("/dev/zero"), 100, "a PRG").unwrap_err();
            assert!(e.reason.contains("character device"), "{e}");
            let fifo = dir.path().join("fifo");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            let e = read(&fifo, 100, "a PRG").unwrap_err();
            assert!(e.reason.contains("FIFO"), "{e}");
        }
        let e = read(&dir.path().join("missing"), 100, "a PRG").unwrap_err();
        assert_eq!(e.reason, "cannot read: No such file or directory");
        assert!(!e.to_string().contains("os error"), "{e}");
    }

    #[test]
    fn refuses_a_file_larger_than_its_kind_can_be() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.prg");
        std::fs::write(&p, vec![0u8; 70_000]).unwrap();
        let e = read(&p, 65_538, "a PRG").unwrap_err();
        assert_eq!(
            e.reason,
            "68.4 KiB is more than a PRG can be (64.0 KiB): refused"
        );
        assert_eq!(read(&p, 70_000, "a PRG").unwrap().len(), 70_000);
    }

    #[test]
    fn names_the_line_and_column_of_invalid_utf8() {
        let e = utf8(b"10 print\n20 g\xC3\xA9t \xFF\n").unwrap_err();
        assert_eq!((e.line, e.column, e.byte), (2, 8, 0xFF));
        assert_eq!(utf8(b"ok").unwrap(), "ok");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("keys.txt");
        std::fs::write(&p, b"abc\xFE").unwrap();
        let e = read_text(&p, 100, "a key script").unwrap_err();
        assert!(
            e.to_string().ends_with(
                "keys.txt: line 1, column 4: invalid UTF-8 (byte $FE); save the file as UTF-8"
            ),
            "{e}"
        );
    }

    #[test]
    fn quotes_at_most_200_characters() {
        let long = "x".repeat(10_000);
        let q = quote(&long);
        assert!(q.starts_with(&"x".repeat(200)));
        assert!(q.ends_with("... (9800 more characters)"), "{q}");
        assert_eq!(quote("a\tb"), "a\\tb");
    }

    #[test]
    fn clips_every_line_of_a_message() {
        let msg = format!("line 1\n{}\nend", "y".repeat(1000));
        let clipped = clip_lines(&msg);
        assert_eq!(
            clipped,
            format!("line 1\n{}... (800 more characters)\nend", "y".repeat(200))
        );
        assert_eq!(clip_lines("short"), "short");
    }

    #[test]
    fn knows_an_input_under_another_name() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.prg");
        std::fs::write(&a, b"x").unwrap();
        let link = dir.path().join("b.prg");
        std::fs::hard_link(&a, &link).unwrap();
        let inputs = vec![(dir.path().join("./a.prg"), "the program".to_string())];
        let e = ensure_not_input(&link, "the screenshot", &inputs).unwrap_err();
        assert!(
            e.contains("the screenshot") && e.contains("the program"),
            "{e}"
        );
        assert!(ensure_not_input(&dir.path().join("new.png"), "x", &inputs).is_ok());
    }
}
