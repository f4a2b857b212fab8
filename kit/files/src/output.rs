//! Writing the files a command is told to write, by one rule, whatever the command (`conform`'s
//! reports, `run`'s trace, screenshots, page, recording and sound, a plugin's output, `asm`,
//! `tokenize`, the developer commands' reports and pictures):
//!
//! - a regular file, or a name that does not exist yet, is written beside it and renamed
//!   into place: a reader never sees half a file, and a failed write (a full disk) leaves what
//!   was there before;
//! - a device, FIFO or socket (`/dev/null`, `/dev/stdout`, a named pipe), or a link to one,
//!   is written straight into, as a shell's `>` would, and never replaced;
//! - a link to a regular file is followed: its target is replaced and the link kept;
//! - a folder is refused.
//!
//! Drive 8's files keep a rule of their own ([`write_atomic`]): they stay inside the drive
//! folder, so a link there is replaced, never followed, and nothing is replaced unless the
//! program asked (`@0:`).

use std::io;
use std::path::{Path, PathBuf};

/// Links followed before giving up, as Linux does (`ELOOP`).
const MAX_LINKS: usize = 40;

/// Where an output goes once its links are followed.
enum Target {
    /// A regular file or a new name: written beside it and renamed into place.
    File(PathBuf),
    /// A device, FIFO or socket: written straight into.
    Stream(PathBuf),
}

/// Follows `path`'s links to what it names (the kernel follows them, /proc/self/fd's
/// included: `/dev/stdout` may be a pipe, which has no name to follow by hand).
fn target(path: &Path) -> io::Result<Target> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(io::Error::other("is a folder, not a file")),
        // Written beside the file the links end at, and renamed onto it.
        Ok(m) if m.is_file() => Ok(Target::File(std::fs::canonicalize(path)?)),
        Ok(_) => Ok(Target::Stream(path.to_path_buf())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Target::File(link_end(path)?)),
        Err(e) => Err(e),
    }
}

/// Where a name that does not exist yet will be made: the name itself, or, for a link to a
/// name not there yet, that name (as `>` would make it). A relative link is taken from the
/// folder it is in.
fn link_end(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(folder) => folder.join(to),
                    None => to,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The folder a file is written in ("." for a bare name).
fn folder_of(file: &Path) -> &Path {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Starts `file` beside its name; a folder that does not exist is named, with what to do.
fn start_beside(file: &Path) -> io::Result<AtomicFile> {
    AtomicFile::create(file).map_err(|e| {
        let folder = folder_of(file);
        if e.kind() == io::ErrorKind::NotFound && !folder.exists() {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "the folder {} does not exist (create it first, or choose another name)",
                    folder.display()
                ),
            )
        } else {
            e
        }
    })
}

/// Opens a device or FIFO for writing, as `>` does: never created, never truncated, never
/// made the controlling terminal. A FIFO waits for its reader.
fn open_stream(at: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOCTTY);
    options.open(at)
}

/// Checks, before a command does its work, that `path` can be written by [`OutputFile`]'s
/// rule, so that a long run never ends failing to write its result: its folder exists and
/// takes a new file (one is made there and removed), or it is an existing device or FIFO
/// (not opened: a FIFO's reader would see it end).
pub fn check_output(path: &Path) -> io::Result<()> {
    match target(path)? {
        Target::Stream(_) => Ok(()),
        Target::File(file) => start_beside(&file).map(drop),
    }
}

/// An output file being written, by the rule of this module: [`OutputFile::commit`] puts a
/// file in place (dropped without it, it leaves nothing behind) or flushes a device.
pub enum OutputFile {
    Atomic(AtomicFile),
    Direct(std::fs::File),
}

impl OutputFile {
    /// Starts the output (a folder that does not exist fails now, not at the end).
    pub fn create(path: &Path) -> io::Result<OutputFile> {
        match target(path)? {
            Target::Stream(at) => Ok(OutputFile::Direct(open_stream(&at)?)),
            Target::File(file) => Ok(OutputFile::Atomic(start_beside(&file)?)),
        }
    }

    /// The complete file: put in place, or flushed into the device.
    pub fn commit(self) -> io::Result<()> {
        match self {
            OutputFile::Atomic(f) => f.commit(true),
            OutputFile::Direct(mut f) => io::Write::flush(&mut f),
        }
    }
}

impl io::Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            OutputFile::Atomic(f) => f.write(buf),
            OutputFile::Direct(f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            OutputFile::Atomic(f) => f.flush(),
            OutputFile::Direct(f) => f.flush(),
        }
    }
}

/// Writes a whole output file (see [`OutputFile`]): every command's one way to write a file.
pub fn write_output(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use io::Write;
    let mut file = OutputFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// Drive 8's rule, not a command's output: writes `bytes` to `path` as it is named, through
/// a temporary file in the same folder renamed into place (a link at `path` is replaced,
/// never followed, so the drive's files stay in its folder). With `replace` false an
/// existing file is not replaced (the error's kind is `AlreadyExists`).
pub fn write_atomic(path: &Path, bytes: &[u8], replace: bool) -> io::Result<()> {
    use io::Write;
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit(replace)
}

/// A file written in pieces (a recording that grows as a run goes) through a temporary file
/// in the same folder as `path`, put in place by [`AtomicFile::commit`]; dropped without a
/// commit, it leaves nothing behind.
pub struct AtomicFile {
    tmp: tempfile::NamedTempFile,
    path: PathBuf,
}

impl AtomicFile {
    /// Starts the file (so a folder that does not exist fails now, not at the end).
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(".c64kit-");
        // A temporary file is private (0600); the output gets the modes any new file gets
        // (0666 less the umask), as `File::create` would give it.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let tmp = builder.tempfile_in(folder_of(path))?;
        Ok(AtomicFile {
            tmp,
            path: path.to_path_buf(),
        })
    }

    /// Puts the complete file in place. With `replace` false an existing file is not
    /// replaced (the error's kind is `AlreadyExists`).
    pub fn commit(self, replace: bool) -> io::Result<()> {
        self.tmp.as_file().sync_all()?;
        if replace {
            self.tmp.persist(&self.path).map_err(|e| e.error)?;
        } else {
            self.tmp
                .persist_noclobber(&self.path)
                .map_err(|e| e.error)?;
        }
        Ok(())
    }
}

impl io::Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tmp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.tmp.flush()
    }
}

/// A file whose header is known only at the end (a WAV's sizes) is patched in place before
/// the commit.
impl io::Seek for AtomicFile {
    fn seek(&mut self, pos: io::SeekFrom) -> io::Result<u64> {
        io::Seek::seek(&mut self.tmp, pos)
    }
}

/// Golden files change only on purpose: `UPDATE_GOLDENFILES=1`, and never under CI (a CI
/// job that rewrote them would hide the very change it should catch). One rule for every
/// golden file: the conformance suite's (`cargo test`, `cargo xtask conform`,
/// `c64kit conform`), the programs' pictures, the examples and the README's tables.
pub fn golden_update_requested() -> Result<bool, String> {
    let asked = std::env::var("UPDATE_GOLDENFILES").is_ok_and(|v| v == "1");
    if asked && under_ci() {
        return Err(
            "refusing UPDATE_GOLDENFILES=1 under CI: golden files change only on purpose".into(),
        );
    }
    Ok(asked)
}

/// Whether a CI job runs us: `CI` set to anything but empty, `false` or `0`, as GitHub
/// Actions, GitLab and most CI services set it.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn outputs_replace_files_atomically_but_write_into_devices() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.png");
        std::fs::write(&p, b"old").unwrap();
        write_output(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        let e = write_output(dir.path(), b"x").unwrap_err();
        assert_eq!(e.to_string(), "is a folder, not a file");
        #[cfg(unix)]
        {
            let e = write_output(Path::new("/dev/full"), b"x").unwrap_err();
            assert!(crate::io_reason(&e).starts_with("No space left"), "{e}");
            let m = std::fs::metadata("/dev/full").unwrap();
            assert!(!m.is_file(), "the device is still a device");
            write_output(Path::new("/dev/null"), b"x").unwrap();
        }
        // Nothing left behind.
        assert_eq!(names_in(dir.path()), ["out.png"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_file_is_followed_and_kept() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("real")).unwrap();
        std::fs::write(d.join("real/target.txt"), b"old").unwrap();
        // A relative link, taken from its own folder; and a link to that link.
        symlink("real/target.txt", d.join("link")).unwrap();
        symlink(d.join("link"), d.join("link2")).unwrap();
        write_output(&d.join("link2"), b"new").unwrap();
        assert_eq!(std::fs::read(d.join("real/target.txt")).unwrap(), b"new");
        for link in ["link", "link2"] {
            let m = std::fs::symlink_metadata(d.join(link)).unwrap();
            assert!(m.file_type().is_symlink(), "{link} is still a link");
        }
        // The temporary file was made beside the target, and is gone.
        assert_eq!(names_in(&d.join("real")), ["target.txt"]);
        // A link to a name not yet there makes that file, as `>` would.
        symlink("real/new.txt", d.join("dangling")).unwrap();
        write_output(&d.join("dangling"), b"made").unwrap();
        assert_eq!(std::fs::read(d.join("real/new.txt")).unwrap(), b"made");
        // A loop is an error, not a hang.
        symlink("loop", d.join("loop")).unwrap();
        let e = write_output(&d.join("loop"), b"x").unwrap_err();
        assert!(e.to_string().contains("symbolic links"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_device_is_written_into_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("null");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        write_output(&link, b"gone").unwrap();
        let m = std::fs::symlink_metadata(&link).unwrap();
        assert!(m.file_type().is_symlink());
        let full = dir.path().join("full");
        std::os::unix::fs::symlink("/dev/full", &full).unwrap();
        assert!(write_output(&full, b"x").is_err());
        assert!(!std::fs::metadata("/dev/full").unwrap().is_file());
    }

    #[test]
    fn a_missing_folder_is_found_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("shots/screen.png");
        let e = check_output(&p).unwrap_err();
        assert!(
            e.to_string().starts_with("the folder ") && e.to_string().contains("shots"),
            "{e}"
        );
        assert!(e
            .to_string()
            .ends_with("(create it first, or choose another name)"));
        std::fs::create_dir(dir.path().join("shots")).unwrap();
        check_output(&p).unwrap();
        // The check leaves nothing behind.
        assert!(names_in(&dir.path().join("shots")).is_empty());
        assert!(check_output(dir.path()).is_err(), "a folder is refused");
        #[cfg(unix)]
        check_output(Path::new("/dev/null")).unwrap();
    }

    #[test]
    fn drive_writes_replace_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        write_atomic(&p, b"one", false).unwrap();
        let e = write_atomic(&p, b"two", false).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"two", true).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        // No temporary files are left behind.
        assert_eq!(names_in(dir.path()), ["f"]);
    }
}
