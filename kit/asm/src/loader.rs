//! Finds, reads and caches the files an assembly uses (sources, `incbin` files, the
//! project), and counts the work of the whole assembly. Every file is read through
//! c64kit-files: regular files only, each kind with its own size cap.

use crate::limits::{MAX_INCBIN_BYTES, MAX_PROJECT_BYTES, MAX_READ_BYTES, MAX_SOURCE_BYTES};
use crate::source::{decode, Source, Unit};
use crate::AsmError;
use c64kit_files::{quote, size_text, FileError};
use std::cell::Cell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// True for names that are absolute on any system: `/x`, `\x`, `\\server\x`, `C:\x`, `C:x`.
fn is_absolute_name(norm: &str) -> bool {
    let b = norm.as_bytes();
    norm.starts_with('/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
}

/// Why a file named in the source could not be used.
#[derive(Clone)]
pub(crate) enum LoadError {
    /// The file cannot be read (or should not be): reported where it is named.
    File(FileError),
    /// A line of the file itself is at fault (too long): reported there.
    Line(AsmError),
}

/// Finds, reads and caches the files an assembly uses, and remembers them (they are its
/// inputs, which no output may overwrite).
pub(crate) struct Loader {
    search_dirs: Vec<PathBuf>,
    sources: HashMap<PathBuf, Result<Rc<Source>, LoadError>>,
    binaries: HashMap<PathBuf, Result<Rc<Vec<u8>>, String>>,
    /// Bytes read so far, against [`MAX_READ_BYTES`].
    read: u64,
    /// Where each name was found (or why not), by name and including folder: a name in a
    /// repeated block or a macro is looked up once.
    resolved: HashMap<(String, Option<PathBuf>), Result<PathBuf, String>>,
    /// The most work the assembly may do ([`MAX_WORK`] unless the options say less).
    pub work_limit: u64,
    /// The work done by the whole assembly, against `work_limit`: here, so that looking
    /// for files counts too (a `Cell`: names are built, and charged for, while
    /// expressions borrow the assembler).
    work: Cell<u64>,
    /// Every file read: (path, what it is).
    pub inputs: Vec<(PathBuf, String)>,
    /// The label unit the next source file gets (0 is text given in memory).
    next_unit: Unit,
}

/// The work one look at the file system counts (a `stat` or opening a folder), besides
/// one unit per byte of the path: a system call walks the path, a few microseconds, as
/// long as lexing a few hundred characters. A name in the source may have thousands of
/// components (`../../..`), each looked at.
const FS_LOOK_WORK: u64 = 256;
/// The work each folder entry read while matching a name without regard to case counts.
const FS_ENTRY_WORK: u64 = 16;

/// `rel` under `base`, matching each path component without regard to case (CBM prg
/// Studio runs on Windows, whose file names are case-insensitive). Each look at the file
/// system is charged to `work`; the walk gives up once that is over `limit`.
fn find_ignoring_case(base: &Path, rel: &Path, work: &Cell<u64>, limit: u64) -> Option<PathBuf> {
    let charge = |units: u64| work.set(work.get().saturating_add(units));
    let mut cur = base.to_path_buf();
    for comp in rel.components() {
        if work.get() > limit {
            return None;
        }
        let want = comp.as_os_str();
        let exact = cur.join(want);
        charge(FS_LOOK_WORK.saturating_add(exact.as_os_str().len() as u64));
        if exact.exists() {
            cur = exact;
            continue;
        }
        let want = want.to_str()?;
        charge(FS_LOOK_WORK.saturating_add(cur.as_os_str().len() as u64));
        let entry = std::fs::read_dir(&cur).ok()?.flatten().find(|e| {
            charge(FS_ENTRY_WORK);
            e.file_name()
                .to_str()
                .is_some_and(|n| n.eq_ignore_ascii_case(want))
        })?;
        cur = entry.path();
    }
    Some(cur)
}

impl Loader {
    pub fn add_work(&self, units: u64) {
        self.work.set(self.work.get().saturating_add(units));
    }

    /// True once the assembly has done more than its work limit.
    pub fn out_of_work(&self) -> bool {
        self.work.get() > self.work_limit
    }

    pub fn new(search_dirs: Vec<PathBuf>, work_limit: u64) -> Loader {
        Loader {
            search_dirs,
            work_limit,
            sources: HashMap::new(),
            binaries: HashMap::new(),
            read: 0,
            resolved: HashMap::new(),
            work: Cell::new(0),
            inputs: Vec::new(),
            next_unit: 1,
        }
    }

    /// Where a file named in the source (or a project's build list) is: relative to the
    /// including file's folder, then the search folders. Names are relative (`..` allowed:
    /// `../lib/x.asm`); absolute ones are refused, so a source can read only what its
    /// author laid out beside it, never `/etc/...` or a device.
    pub fn resolve(&mut self, name: &str, from: Option<&Path>) -> Result<PathBuf, String> {
        let key = (name.to_string(), from.map(Path::to_path_buf));
        if let Some(found) = self.resolved.get(&key) {
            return found.clone();
        }
        let found = self.find(name, from);
        self.resolved.insert(key, found.clone());
        found
    }

    fn find(&self, name: &str, from: Option<&Path>) -> Result<PathBuf, String> {
        let norm = name.replace('\\', "/");
        if norm.is_empty() {
            return Err("empty file name".into());
        }
        if is_absolute_name(&norm) || Path::new(&norm).is_absolute() {
            return Err(format!(
                "'{}' is an absolute path: files are named relative to the source or \
                 project that uses them (like ../lib/x.asm)",
                quote(name)
            ));
        }
        let rel = Path::new(&norm);
        let mut dirs: Vec<&Path> = Vec::new();
        for dir in from
            .into_iter()
            .chain(self.search_dirs.iter().map(PathBuf::as_path))
        {
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        // The first file found wins; failing that, the first thing of that name that is
        // not a file, so that reading it says what it is ("is a folder, not a file").
        let mut other = None;
        for dir in &dirs {
            if let Some(p) = find_ignoring_case(dir, rel, &self.work, self.work_limit) {
                self.add_work(FS_LOOK_WORK);
                if p.is_file() {
                    return Ok(p);
                }
                other.get_or_insert(p);
            }
        }
        if let Some(p) = other {
            return Ok(p);
        }
        if dirs.is_empty() {
            return Err(format!(
                "cannot find file '{}': no include directory given",
                quote(name)
            ));
        }
        let looked: Vec<String> = dirs
            .iter()
            .map(|d| match d.as_os_str().is_empty() {
                true => ".".to_string(),
                false => d.display().to_string(),
            })
            .collect();
        Err(format!(
            "cannot find file '{}' (looked in {})",
            quote(name),
            looked.join(", ")
        ))
    }

    /// Reads a file of at most `max` bytes through c64kit-files, counting it against
    /// [`MAX_READ_BYTES`] and recording it as an input.
    fn read(&mut self, path: &Path, max: u64, what: &str) -> Result<Vec<u8>, FileError> {
        self.add_work(FS_LOOK_WORK);
        let bytes = c64kit_files::read(path, max, what)?;
        self.read += bytes.len() as u64;
        if self.read > MAX_READ_BYTES {
            return Err(FileError {
                path: path.to_path_buf(),
                reason: format!(
                    "with this file, the files of this assembly together are more than {} \
                     (the most one assembly reads): refused",
                    size_text(MAX_READ_BYTES)
                ),
            });
        }
        self.inputs.push((path.to_path_buf(), what.to_string()));
        Ok(bytes)
    }

    /// A source file (read once, then shared), shown as `display` in messages.
    pub fn source(&mut self, path: &Path, display: &str) -> Result<Rc<Source>, LoadError> {
        if let Some(s) = self.sources.get(path) {
            return s.clone();
        }
        let unit = self.next_unit;
        self.next_unit += 1;
        let loaded = self
            .read(path, MAX_SOURCE_BYTES, "a source file")
            .map_err(LoadError::File)
            .and_then(|bytes| {
                let dir = path.parent().map(Path::to_path_buf);
                Source::from_text(display, dir, unit, decode(bytes))
                    .map(Rc::new)
                    .map_err(|(line, message)| {
                        LoadError::Line(AsmError {
                            file: display.to_string(),
                            line,
                            message,
                        })
                    })
            });
        self.sources.insert(path.to_path_buf(), loaded.clone());
        loaded
    }

    /// The project file's XML text (read once per assembly, recorded as an input).
    pub fn project(&mut self, path: &Path) -> Result<String, FileError> {
        self.read(path, MAX_PROJECT_BYTES, "a project file")
            .map(decode)
    }

    pub fn binary(&mut self, path: &Path) -> Result<Rc<Vec<u8>>, String> {
        if let Some(b) = self.binaries.get(path) {
            return b.clone();
        }
        let loaded = self
            .read(path, MAX_INCBIN_BYTES, "an incbin file")
            .map(Rc::new)
            .map_err(|e| e.to_string());
        self.binaries.insert(path.to_path_buf(), loaded.clone());
        loaded
    }
}
