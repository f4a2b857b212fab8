//! Drive 8: a small 1541 over a host folder (the "drive folder").
//!
//! The KERNAL talks to it as it talks to a 1541 on the serial bus: OPEN sends a name to a
//! channel, CHKIN/CHKOUT make the drive talk or listen on a channel, CHRIN/CHROUT move bytes,
//! CLOSE closes the channel. Channels 0-14 carry files (0 is LOAD's, 1 is SAVE's), channel
//! 15 is the command channel: reading it gives the status line, writing it sends commands.
//!
//! What a 1541 does, the drive does, with the folder's safety rules on top:
//! - Names are parsed as CBM DOS parses them (`name.rs`); a name the folder cannot hold as a
//!   plain file of its own (a path, `..`, a control byte, a hidden file) is refused with
//!   "30,SYNTAX ERROR", so nothing is ever written outside the folder.
//! - Reading: a host file matches a name exactly in any case, or with ".prg" added; `*` and
//!   `?` match as on a 1541 (the first match in name order wins). Only regular, visible files
//!   (not starting with ".") of printable ASCII names are on the "disk", each read whole and
//!   at most [`DISK_BYTES`] long (a larger file could not be on a 1541 disk: 62).
//! - Writing needs a writable drive (else "26,WRITE PROTECT ON"). A new file is created with
//!   the name in lower case, cut to 16 characters as a 1541 cuts it. An existing file is not
//!   replaced ("63,FILE EXISTS") unless the name starts with `@` (`@0:NAME`). The file is
//!   written when its channel is closed, through a temporary file in the folder renamed into
//!   place, so it is never half-written; a file never closed is not written (a 1541 leaves
//!   such a file unusable). The file type (`,S`, `,P`, `,U`) is not kept on the host.
//! - `LOAD"$",8` (and `"$0:PATTERN"`) gives the directory as a BASIC program, as a 1541
//!   does (`directory.rs`); every file is listed as PRG.
//! - Channel 15 commands: I, UI/UJ (reset: 73), S0:NAME[,NAME] (scratch), R0:NEW=OLD
//!   (rename); anything else is "31,SYNTAX ERROR".
//! - One run writes at most one 1541 disk's worth: [`DISK_BYTES`] in at most [`DISK_FILES`]
//!   files, then "72,DISK FULL" (the file is not written).
//! - Every refusal leaves the 1541's status on channel 15 and a note (see
//!   [`Drive::take_notes`]) saying what was refused and why; the drive never prints.

mod directory;
mod name;
mod status;

pub use name::{check, matches, parse, shown, Access, FileSpec, FileType, Refusal, NAME_MAX};
pub use status::{DosCode, Status};

use name::{host_name, split_drive};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A 1541 disk has 664 free blocks of 254 data bytes: the largest file it can hold, and
/// what one run may write to the drive folder in all.
pub const DISK_BYTES: u64 = 664 * 254;
/// A 1541 directory holds 144 files: the most files one run may create.
pub const DISK_FILES: usize = 144;
/// The command channel.
pub const COMMAND_CHANNEL: u8 = 15;
/// The 1541's command buffer; a longer command is "32,SYNTAX ERROR".
const COMMAND_MAX: usize = 58;
/// Notes kept for the front end; more are counted, not kept.
const NOTES_MAX: usize = 100;

/// A file open on a data channel.
enum Channel {
    /// Bytes to send, the next at `at`.
    Read {
        data: Vec<u8>,
        at: usize,
    },
    Write(WriteFile),
}

struct WriteFile {
    /// The host file it becomes.
    host: String,
    /// What the program asked for, for notes: `SAVE "NAME"`.
    request: String,
    bytes: Vec<u8>,
    /// An existing file may be replaced (`@`, or an append).
    replace: bool,
    /// How long the file may grow (the run's share of the disk left).
    room: u64,
    /// It outgrew `room`: it will not be written.
    full: bool,
}

/// Drive 8. See the module documentation.
pub struct Drive {
    folder: PathBuf,
    writable: bool,
    /// How to allow writing, for the write-protect note (the front end knows its options).
    write_protect_hint: String,
    status: Status,
    /// How many bytes of the status line channel 15 has sent.
    status_sent: usize,
    channels: [Option<Channel>; 15],
    command: Vec<u8>,
    command_too_long: bool,
    listening: Option<u8>,
    talking: Option<u8>,
    /// Files this run wrote, by host name, with their sizes.
    written: BTreeMap<String, u64>,
    notes: Vec<String>,
    notes_total: usize,
    /// Files the run reads (the program, key script, ROMs...) that may sit in the drive
    /// folder: never replaced, scratched or renamed, whatever the program asks.
    protected: Vec<(PathBuf, String)>,
    /// A command asked the drive to run code of the program's (see [`Drive::take_drive_code`]).
    drive_code: bool,
}

impl Default for Drive {
    /// Reads the current folder and cannot write, like the CLI without `--drive-dir`.
    fn default() -> Self {
        Drive::read_only(".")
    }
}

/// Whether `path` can be a drive folder: an existing folder. The error says why not.
pub fn check_folder(path: &Path) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err("is not a folder".to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err("no such folder".to_string()),
        Err(e) => Err(c64kit_files::io_reason(&e)),
    }
}

impl Drive {
    /// A drive over `folder` that reads it and refuses every write ("26,WRITE PROTECT ON").
    pub fn read_only(folder: impl Into<PathBuf>) -> Drive {
        Drive::new(folder.into(), false)
    }

    /// A drive over `folder` that reads and writes it.
    pub fn writable(folder: impl Into<PathBuf>) -> Drive {
        Drive::new(folder.into(), true)
    }

    fn new(folder: PathBuf, writable: bool) -> Drive {
        Drive {
            folder,
            writable,
            write_protect_hint: "this drive was made read-only (Drive::read_only)".to_string(),
            status: Status::new(DosCode::Version),
            status_sent: 0,
            channels: Default::default(),
            command: Vec::new(),
            command_too_long: false,
            listening: None,
            talking: None,
            written: BTreeMap::new(),
            notes: Vec::new(),
            notes_total: 0,
            protected: Vec::new(),
            drive_code: false,
        }
    }

    /// Never lets a program replace, scratch or rename `path` (one of the run's inputs;
    /// `what` says which, for the note): "26,WRITE PROTECT ON" for that file alone.
    pub fn protect(&mut self, path: impl Into<PathBuf>, what: impl Into<String>) {
        self.protected.push((path.into(), what.into()));
    }

    /// Refuses a change to host file `host` if it is one of the run's inputs.
    fn check_unprotected(&self, host: &str) -> Result<(), Refusal> {
        let path = self.folder.join(host);
        match self
            .protected
            .iter()
            .find(|(p, _)| c64kit_files::same_file(p, &path))
        {
            Some((_, what)) => Err(Refusal {
                code: DosCode::WriteProtectOn,
                reason: format!(
                    "{host} is {what} of this run; c64kit never lets a program change its inputs"
                ),
            }),
            None => Ok(()),
        }
    }

    pub fn folder(&self) -> &Path {
        &self.folder
    }

    pub fn is_writable(&self) -> bool {
        self.writable
    }

    /// The sentence a write-protect note ends with: how to allow writing.
    pub fn set_write_protect_hint(&mut self, hint: impl Into<String>) {
        self.write_protect_hint = hint.into();
    }

    /// The status channel 15 would send now.
    pub fn status(&self) -> Status {
        self.status
    }

    /// True once after a command that runs the program's own code in the drive (M-E, B-E,
    /// U3-U8, &): such a program needs the 1541's processor, which this drive has not; the
    /// KERNAL stops the run there (c64kit does not provide it).
    pub fn take_drive_code(&mut self) -> bool {
        std::mem::take(&mut self.drive_code)
    }

    /// What was refused since the last call, one sentence each, for the front end to show.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The run is over: notes for files still open for writing (they are not written).
    pub fn finish(&mut self) {
        for ch in 0..self.channels.len() {
            if let Some(Channel::Write(w)) = &self.channels[ch] {
                let text = format!(
                    "{} was never closed: not written (a 1541 leaves such a file unusable)",
                    w.request
                );
                self.note(text);
            }
        }
    }

    /// Adds a note (the KERNAL adds its own about LOAD).
    pub(crate) fn note(&mut self, text: String) {
        self.notes_total += 1;
        if self.notes_total <= NOTES_MAX {
            self.notes.push(text);
        } else if self.notes_total == NOTES_MAX + 1 {
            self.notes.push(format!(
                "more than {NOTES_MAX} notes: the rest are not shown"
            ));
        }
    }

    fn set_status(&mut self, code: DosCode) {
        self.status = Status::new(code);
        self.status_sent = 0;
    }

    fn refuse(&mut self, request: &str, refusal: Refusal) {
        self.set_status(refusal.code);
        let text = format!("{request}: {}: {}", self.status, refusal.reason);
        self.note(text);
    }

    fn write_protected(&self) -> Refusal {
        let folder = if self.folder == Path::new(".") {
            "the current folder".to_string()
        } else {
            self.folder.display().to_string()
        };
        Refusal {
            code: DosCode::WriteProtectOn,
            reason: format!(
                "drive 8 may read {folder} but not write there; {}",
                self.write_protect_hint
            ),
        }
    }

    // The serial bus, as the KERNAL drives it.

    /// OPEN: a name sent to `channel` (LISTEN, SECOND $F0+channel, the name, UNLISTEN).
    /// On channel 15 the name is a command.
    pub fn open(&mut self, channel: u8, name: &[u8]) {
        self.end_listen();
        let channel = channel & 0x0F;
        if channel == COMMAND_CHANNEL {
            self.command.clear();
            self.command_too_long = false;
            for &b in name {
                self.command_byte(b);
            }
            self.run_command();
            return;
        }
        // A 1541 frees a channel before it opens it again.
        self.close(channel);
        let request = match channel {
            0 => format!("LOAD \"{}\"", shown(name)),
            1 => format!("SAVE \"{}\"", shown(name)),
            n => format!("OPEN \"{}\" (channel {n})", shown(name)),
        };
        match self.open_file(channel, name, &request) {
            Ok(ch) => {
                self.channels[channel as usize] = Some(ch);
                self.set_status(DosCode::Ok);
            }
            Err(refusal) => self.refuse(&request, refusal),
        }
    }

    fn open_file(&mut self, channel: u8, raw: &[u8], request: &str) -> Result<Channel, Refusal> {
        if let Some(rest) = raw.strip_prefix(b"$") {
            if channel != 0 {
                return Err(Refusal {
                    code: DosCode::FileNotFound,
                    reason: format!(
                        "the directory as a data file (\"$\" on channel {channel}) is not \
                         supported; LOAD\"$\",8 is"
                    ),
                });
            }
            let pattern = directory_pattern(rest)?;
            let data = self.directory(pattern);
            return Ok(Channel::Read { data, at: 0 });
        }
        let spec = parse(raw)?;
        let access = match channel {
            0 => Access::Read,
            1 => Access::Write,
            _ => spec.access.unwrap_or(Access::Read),
        };
        if access == Access::Read {
            check(&spec.name, false)?;
            let host = self.find(&spec.name).ok_or_else(|| not_found(&spec.name))?;
            let data = self.read_host(&host)?;
            return Ok(Channel::Read { data, at: 0 });
        }
        check(&spec.name, true)?;
        if !self.writable {
            return Err(self.write_protected());
        }
        let existing = self.find(&spec.name);
        let (host, bytes) = match (access, existing) {
            (Access::Append, Some(host)) => {
                let bytes = self.read_host(&host)?;
                (host, bytes)
            }
            (Access::Append, None) => return Err(not_found(&spec.name)),
            (_, Some(host)) if !spec.replace => {
                return Err(Refusal {
                    code: DosCode::FileExists,
                    reason: format!(
                        "{host} exists in the drive folder and is kept (\"@0:{}\" replaces it)",
                        shown(&spec.name)
                    ),
                })
            }
            (_, Some(host)) => (host, Vec::new()),
            (_, None) => (host_name(&spec.name), Vec::new()),
        };
        let replace = self.folder.join(&host).exists();
        if !self.written.contains_key(&host) && self.written.len() >= DISK_FILES {
            return Err(Refusal {
                code: DosCode::DiskFull,
                reason: format!("this run has written {DISK_FILES} files, a full 1541 directory"),
            });
        }
        let room = DISK_BYTES.saturating_sub(self.used_except(&host));
        Ok(Channel::Write(WriteFile {
            host,
            request: request.to_string(),
            bytes,
            replace,
            room,
            full: false,
        }))
    }

    /// CLOSE: closes `channel`; a file open for writing is written now. Closing channel 15
    /// closes every channel, as on a 1541.
    pub fn close(&mut self, channel: u8) {
        self.end_listen();
        let channel = channel & 0x0F;
        if channel == COMMAND_CHANNEL {
            for ch in 0..self.channels.len() {
                self.close(ch as u8);
            }
            return;
        }
        if self.talking == Some(channel) {
            self.talking = None;
        }
        if let Some(Channel::Write(w)) = self.channels[channel as usize].take() {
            self.commit(w);
        }
    }

    /// LISTEN + SECOND: the bytes that follow go to `channel` (None: no secondary address;
    /// the drive drops them).
    pub fn listen(&mut self, channel: Option<u8>) {
        self.end_listen();
        self.listening = channel.map(|c| c & 0x0F);
    }

    /// UNLISTEN: the end of what was sent; a command sent to channel 15 runs now.
    pub fn unlisten(&mut self) {
        self.end_listen();
    }

    /// TALK + TKSA: the drive sends from `channel`.
    pub fn talk(&mut self, channel: Option<u8>) {
        self.end_listen();
        self.talking = channel.map(|c| c & 0x0F);
    }

    pub fn untalk(&mut self) {
        self.talking = None;
    }

    /// A byte from the computer (CIOUT) to the listening channel.
    pub fn receive(&mut self, byte: u8) {
        match self.listening {
            Some(COMMAND_CHANNEL) => self.command_byte(byte),
            Some(ch) => {
                let Some(Channel::Write(w)) = &mut self.channels[ch as usize] else {
                    return; // no file open for writing there: a 1541 takes the byte and drops it
                };
                if w.full {
                    return;
                }
                if w.bytes.len() as u64 >= w.room {
                    w.full = true;
                    let (request, room) = (w.request.clone(), w.room);
                    self.refuse(
                        &request,
                        Refusal {
                            code: DosCode::DiskFull,
                            reason: format!(
                                "the file grew past the {room} bytes left of this run's 1541 \
                                 disk ({DISK_BYTES} bytes): it will not be written"
                            ),
                        },
                    );
                    return;
                }
                w.bytes.push(byte);
            }
            None => {}
        }
    }

    /// A byte for the computer (ACPTR) from the talking channel, and whether it is the last
    /// (EOI). None: the drive has nothing to send there (the KERNAL's read time-out).
    pub fn send(&mut self) -> Option<(u8, bool)> {
        match self.talking? {
            COMMAND_CHANNEL => {
                let line = self.status.bytes();
                let b = line[self.status_sent.min(line.len() - 1)];
                self.status_sent += 1;
                if self.status_sent >= line.len() {
                    // Once read, the error is cleared.
                    self.set_status(DosCode::Ok);
                    return Some((b, true));
                }
                Some((b, false))
            }
            ch => match &mut self.channels[ch as usize] {
                Some(Channel::Read { data, at }) => {
                    if *at < data.len() {
                        *at += 1;
                        Some((data[*at - 1], *at == data.len()))
                    } else if data.is_empty() && *at == 0 {
                        // An empty file sends one carriage return, as a 1541 does.
                        *at = 1;
                        Some((0x0D, true))
                    } else {
                        None
                    }
                }
                _ => None,
            },
        }
    }

    /// A new bus command ends a LISTEN as UNLISTEN does.
    fn end_listen(&mut self) {
        if self.listening.take() == Some(COMMAND_CHANNEL) {
            self.run_command();
        }
    }

    fn command_byte(&mut self, b: u8) {
        if self.command.len() < COMMAND_MAX {
            self.command.push(b);
        } else {
            self.command_too_long = true;
        }
    }

    // Commands on channel 15.

    fn run_command(&mut self) {
        let mut cmd = std::mem::take(&mut self.command);
        let too_long = std::mem::take(&mut self.command_too_long);
        if cmd.last() == Some(&0x0D) {
            cmd.pop();
        }
        let request = format!("command \"{}\"", shown(&cmd));
        if too_long {
            let reason = format!("a 1541 takes commands of at most {COMMAND_MAX} bytes");
            return self.refuse(
                &request,
                Refusal {
                    code: DosCode::LongLine,
                    reason,
                },
            );
        }
        let Some(&letter) = cmd.first() else {
            return;
        };
        if runs_drive_code(&cmd) {
            self.drive_code = true;
            return self.refuse(
                &request,
                Refusal {
                    code: DosCode::UnknownCommand,
                    reason: "the program runs code of its own in the drive; c64kit's drive 8 \
                             is a 1541's DOS over a folder, without the 1541's processor"
                        .to_string(),
                },
            );
        }
        let result = match letter.to_ascii_uppercase() {
            b'I' => Ok(Status::new(DosCode::Ok)),
            b'U' => self.user_command(&cmd),
            b'S' => self.scratch(&cmd),
            b'R' => self.rename(&cmd),
            _ => Err(Refusal {
                code: DosCode::UnknownCommand,
                reason: "c64kit's drive knows I, UI/UJ, S (scratch) and R (rename)".to_string(),
            }),
        };
        match result {
            Ok(status) => {
                self.status = status;
                self.status_sent = 0;
            }
            Err(refusal) => self.refuse(&request, refusal),
        }
    }

    /// UI and UJ reset the drive (status 73); UI+ and UI- only set the bus timing.
    fn user_command(&mut self, cmd: &[u8]) -> Result<Status, Refusal> {
        let what = cmd.get(1).map(u8::to_ascii_uppercase);
        match (what, cmd.get(2)) {
            (Some(b'I'), Some(b'+' | b'-')) => Ok(Status::new(DosCode::Ok)),
            (Some(b'I' | b'J' | b'9' | b':'), _) => {
                self.reset(&shown(cmd));
                Ok(Status::new(DosCode::Version))
            }
            _ => Err(Refusal {
                code: DosCode::UnknownCommand,
                reason: "of the U commands c64kit's drive knows UI and UJ (reset)".to_string(),
            }),
        }
    }

    /// A reset: every channel is closed without being written, as power is lost on a 1541.
    fn reset(&mut self, why: &str) {
        for ch in 0..self.channels.len() {
            if let Some(Channel::Write(w)) = self.channels[ch].take() {
                let text = format!(
                    "{}: not written: the drive was reset (\"{why}\") before it was closed",
                    w.request
                );
                self.note(text);
            }
        }
        self.talking = None;
    }

    /// The names after a command letter: `S0:A,B` gives `A,B`.
    fn arguments(cmd: &[u8]) -> Result<&[u8], Refusal> {
        let Some(colon) = cmd.iter().position(|&b| b == b':') else {
            return Err(Refusal {
                code: DosCode::NoName,
                reason: "no file name (the form is S0:NAME or R0:NEW=OLD)".to_string(),
            });
        };
        if cmd[..colon].last() == Some(&b'1') {
            return Err(Refusal {
                code: DosCode::DriveNotReady,
                reason: "a 1541 has only drive 0".to_string(),
            });
        }
        Ok(&cmd[colon + 1..])
    }

    /// S0:NAME[,NAME...]: deletes every matching file; the status counts them.
    fn scratch(&mut self, cmd: &[u8]) -> Result<Status, Refusal> {
        let args = Self::arguments(cmd)?;
        let mut patterns = Vec::new();
        for part in args.split(|&b| b == b',') {
            let (_, pattern) = split_drive(part)?;
            check(pattern, false)?;
            patterns.push(pattern.to_vec());
        }
        if !self.writable {
            return Err(self.write_protected());
        }
        let mut count = 0u32;
        for host in self.entries() {
            if !patterns.iter().any(|p| matches_host(p, &host)) {
                continue;
            }
            if let Err(refusal) = self.check_unprotected(&host) {
                // The other matches are scratched; this one stays, and is noted.
                self.refuse(&format!("scratch {host}"), refusal);
                continue;
            }
            if std::fs::remove_file(self.folder.join(&host)).is_ok() {
                self.written.remove(&host);
                count += 1;
            }
        }
        Ok(Status {
            code: DosCode::FilesScratched,
            track: count.min(99) as u8,
            sector: 0,
        })
    }

    /// R0:NEW=OLD: renames OLD (which must exist) to NEW (which must not).
    fn rename(&mut self, cmd: &[u8]) -> Result<Status, Refusal> {
        let args = Self::arguments(cmd)?;
        let Some(eq) = args.iter().position(|&b| b == b'=') else {
            return Err(Refusal {
                code: DosCode::Syntax,
                reason: "rename is R0:NEW=OLD".to_string(),
            });
        };
        let new = &args[..eq];
        let (_, old) = split_drive(&args[eq + 1..])?;
        check(new, true)?;
        check(old, true)?;
        if !self.writable {
            return Err(self.write_protected());
        }
        let old_host = self.find(old).ok_or_else(|| not_found(old))?;
        self.check_unprotected(&old_host)?;
        if let Some(there) = self.find(new) {
            return Err(Refusal {
                code: DosCode::FileExists,
                reason: format!("{there} exists in the drive folder and is kept"),
            });
        }
        // A file found as NAME.prg keeps its ".prg".
        let mut new_host = host_name(new);
        if !old_host.eq_ignore_ascii_case(&String::from_utf8_lossy(old)) {
            new_host.push_str(&old_host[old_host.len() - 4..]);
        }
        let (from, to) = (self.folder.join(&old_host), self.folder.join(&new_host));
        rename_no_replace(&from, &to).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                Refusal {
                    code: DosCode::FileExists,
                    reason: format!("{new_host} exists in the drive folder and is kept"),
                }
            } else {
                Refusal {
                    code: DosCode::WriteError,
                    reason: format!(
                        "renaming {old_host} to {new_host}: {}",
                        c64kit_files::io_reason(&e)
                    ),
                }
            }
        })?;
        if let Some(size) = self.written.remove(&old_host) {
            self.written.insert(new_host, size);
        }
        Ok(Status::new(DosCode::Ok))
    }

    // The folder.

    /// The files on the "disk": regular, visible files with printable ASCII names, sorted.
    fn entries(&self) -> Vec<String> {
        let Ok(dir) = std::fs::read_dir(&self.folder) else {
            return Vec::new();
        };
        let mut names: Vec<String> = dir
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| {
                n.bytes().all(|b| (0x20..0x7F).contains(&b))
                    && !n.starts_with('.')
                    && self.folder.join(n).is_file()
            })
            .collect();
        names.sort();
        names
    }

    /// The host file a name (or pattern) means: the first matching exactly in any case,
    /// else the first matching with ".prg" added.
    fn find(&self, pattern: &[u8]) -> Option<String> {
        let entries = self.entries();
        let exact = entries.iter().find(|e| matches(pattern, e.as_bytes()));
        exact
            .or_else(|| {
                entries
                    .iter()
                    .find(|e| without_prg(e).is_some_and(|s| matches(pattern, s.as_bytes())))
            })
            .cloned()
    }

    /// The directory program: the folder's name as the disk name, its files (at most a
    /// 1541 directory's worth, in name order), and the blocks this run may still write.
    fn directory(&self, pattern: &[u8]) -> Vec<u8> {
        let disk_name = std::fs::canonicalize(&self.folder)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default()
            .chars()
            .filter(|c| c.is_ascii_graphic() || *c == ' ')
            .collect::<String>()
            .to_ascii_uppercase();
        let entries: Vec<directory::Entry> = self
            .entries()
            .into_iter()
            .take(DISK_FILES)
            .map(|host| {
                let size = std::fs::metadata(self.folder.join(&host)).map_or(0, |m| m.len());
                let name = without_prg(&host).unwrap_or(&host).to_ascii_uppercase();
                directory::Entry {
                    name,
                    size,
                    // The host keeps no file type: every file loads as a program.
                    file_type: "PRG",
                }
            })
            .collect();
        let used: u64 = self.written.values().sum();
        let free = DISK_BYTES.saturating_sub(used) / directory::BLOCK_BYTES;
        directory::listing(&disk_name, &entries, free, pattern)
    }

    fn read_host(&self, host: &str) -> Result<Vec<u8>, Refusal> {
        c64kit_files::read(&self.folder.join(host), DISK_BYTES, "a file on a 1541 disk").map_err(
            |e| Refusal {
                code: DosCode::FileNotFound,
                reason: format!("{host}: {}", e.reason),
            },
        )
    }

    /// Bytes this run has written, but to `host`.
    fn used_except(&self, host: &str) -> u64 {
        self.written
            .iter()
            .filter(|(h, _)| *h != host)
            .map(|(_, n)| n)
            .sum()
    }

    /// Writes a closed file into the folder.
    fn commit(&mut self, w: WriteFile) {
        if w.full {
            return; // already noted: "72,DISK FULL"
        }
        if let Err(refusal) = self.check_unprotected(&w.host) {
            return self.refuse(&w.request, refusal);
        }
        let len = w.bytes.len() as u64;
        let used = self.used_except(&w.host);
        if used + len > DISK_BYTES {
            let reason = format!(
                "this run has already written {used} bytes; with these {len} it would pass \
                 the {DISK_BYTES} bytes of a 1541 disk: not written"
            );
            return self.refuse(
                &w.request,
                Refusal {
                    code: DosCode::DiskFull,
                    reason,
                },
            );
        }
        match c64kit_files::write_atomic(&self.folder.join(&w.host), &w.bytes, w.replace) {
            Ok(()) => {
                self.written.insert(w.host, len);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let reason = format!(
                    "{} appeared in the drive folder while the file was written; it is kept",
                    w.host
                );
                self.refuse(
                    &w.request,
                    Refusal {
                        code: DosCode::FileExists,
                        reason,
                    },
                );
            }
            Err(e) => {
                let reason = format!("writing {}: {}", w.host, c64kit_files::io_reason(&e));
                self.refuse(
                    &w.request,
                    Refusal {
                        code: DosCode::WriteError,
                        reason,
                    },
                );
            }
        }
    }
}

/// A command that makes a 1541 run code (its DOS manual, "Memory-Execute", "Block-Execute",
/// the user commands U3-U8 (also UC-UH) jumping into buffer 2, `&` running a USR file).
fn runs_drive_code(cmd: &[u8]) -> bool {
    let up = |i: usize| cmd.get(i).map(u8::to_ascii_uppercase);
    matches!(
        (up(0), up(1), up(2)),
        (Some(b'M' | b'B'), Some(b'-'), Some(b'E'))
            | (Some(b'U'), Some(b'3'..=b'8' | b'C'..=b'H'), _)
            | (Some(b'&'), _, _)
    )
}

/// The pattern after `$`: `$`, `$0`, `$:P*`, `$0:P*` (all files without one).
fn directory_pattern(rest: &[u8]) -> Result<&[u8], Refusal> {
    let (drive, pattern) = match rest.iter().position(|&b| b == b':') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &b""[..]),
    };
    match drive {
        b"" | b"0" => Ok(if pattern.is_empty() { b"*" } else { pattern }),
        b"1" => Err(Refusal {
            code: DosCode::DriveNotReady,
            reason: "a 1541 has only drive 0".to_string(),
        }),
        _ => Err(Refusal {
            code: DosCode::Syntax,
            reason: "the directory is \"$\", \"$0\" or \"$0:PATTERN\"".to_string(),
        }),
    }
}

fn not_found(name: &[u8]) -> Refusal {
    Refusal {
        code: DosCode::FileNotFound,
        reason: format!(
            "no file in the drive folder matches \"{}\" (exactly in any case, or with .prg)",
            shown(name)
        ),
    }
}

/// "game.prg" -> "game".
fn without_prg(host: &str) -> Option<&str> {
    let cut = host.len().checked_sub(4).filter(|&n| n > 0)?;
    host.get(cut..)
        .filter(|ext| ext.eq_ignore_ascii_case(".prg"))
        .map(|_| &host[..cut])
}

/// Whether a host file is what `pattern` names (as [`Drive::find`] matches, any of them).
fn matches_host(pattern: &[u8], host: &str) -> bool {
    matches(pattern, host.as_bytes())
        || without_prg(host).is_some_and(|s| matches(pattern, s.as_bytes()))
}

/// Renames without replacing: a hard link fails if the new name exists; where links are not
/// possible, a check then a rename.
fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    match std::fs::hard_link(from, to) {
        Ok(()) => std::fs::remove_file(from),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
        Err(_) if to.exists() => Err(std::io::ErrorKind::AlreadyExists.into()),
        Err(_) => std::fs::rename(from, to),
    }
}

#[cfg(test)]
mod tests;
