//! The 1541's status: the codes and messages CBM DOS 2.6 sends on channel 15, as
//! "62,FILE NOT FOUND,00,00" and a carriage return.

use std::fmt;

/// The status codes c64kit's drive gives, with the 1541's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DosCode {
    Ok = 0,
    FilesScratched = 1,
    WriteError = 25,
    WriteProtectOn = 26,
    /// 30: a name or command the DOS cannot parse (also: one the drive folder cannot hold).
    Syntax = 30,
    /// 31: a command the DOS does not know.
    UnknownCommand = 31,
    /// 32: a command longer than the DOS's buffer.
    LongLine = 32,
    /// 33: a wildcard in a name to write.
    BadPattern = 33,
    /// 34: no file name where one is needed.
    NoName = 34,
    FileNotFound = 62,
    FileExists = 63,
    DiskFull = 72,
    /// 73: the DOS version, the status after power-on and reset.
    Version = 73,
    DriveNotReady = 74,
}

impl DosCode {
    /// The message as the 1541 sends it. Only "OK" starts with a space: the DOS's message
    /// table holds it that way, so a 1541 sends "00, OK,00,00" but "62,FILE NOT FOUND,00,00".
    pub fn message(self) -> &'static str {
        use DosCode::*;
        match self {
            Ok => " OK",
            FilesScratched => "FILES SCRATCHED",
            WriteError => "WRITE ERROR",
            WriteProtectOn => "WRITE PROTECT ON",
            Syntax | UnknownCommand | LongLine | BadPattern | NoName => "SYNTAX ERROR",
            FileNotFound => "FILE NOT FOUND",
            FileExists => "FILE EXISTS",
            DiskFull => "DISK FULL",
            Version => "CBM DOS V2.6 1541",
            DriveNotReady => "DRIVE NOT READY",
        }
    }
}

/// One status line: the code, its message, and the two numbers after it (the track and
/// sector of a disk error; for FILES SCRATCHED, how many files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    pub code: DosCode,
    pub track: u8,
    pub sector: u8,
}

impl Status {
    pub fn new(code: DosCode) -> Status {
        Status {
            code,
            track: 0,
            sector: 0,
        }
    }

    /// The bytes the drive sends on channel 15: the line, then a carriage return.
    pub fn bytes(&self) -> Vec<u8> {
        let mut b = self.to_string().into_bytes();
        b.push(0x0D);
        b
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:02},{},{:02},{:02}",
            self.code as u8,
            self.code.message(),
            self.track,
            self.sector
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_a_1541_sends_them() {
        assert_eq!(Status::new(DosCode::Ok).to_string(), "00, OK,00,00");
        assert_eq!(
            Status::new(DosCode::Version).to_string(),
            "73,CBM DOS V2.6 1541,00,00"
        );
        assert_eq!(
            Status::new(DosCode::FileNotFound).to_string(),
            "62,FILE NOT FOUND,00,00"
        );
        assert_eq!(
            Status::new(DosCode::BadPattern).to_string(),
            "33,SYNTAX ERROR,00,00"
        );
        let scratched = Status {
            code: DosCode::FilesScratched,
            track: 3,
            sector: 0,
        };
        assert_eq!(scratched.to_string(), "01,FILES SCRATCHED,03,00");
        assert_eq!(
            Status::new(DosCode::WriteProtectOn).bytes(),
            b"26,WRITE PROTECT ON,00,00\r"
        );
    }
}
