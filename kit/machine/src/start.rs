//! Why RUN cannot start a loaded file. c64kit RUNs a PRG as a C64 user does after `LOAD`:
//! RUN starts the BASIC program at $0801: c64kit follows a first statement's SYS into machine
//! code, and BASIC itself RUNs any other program. What stands in the way is said as a fact about
//! the file; the front ends (`c64kit run`, `conform`) add the advice that works for them.

use crate::boot::BASIC_START;
use crate::loader::Prg;
use crate::stop::StopReason;
use c64kit_basic::{find_sys, NoSys, SysStatement};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The file is text, not a PRG: its first two characters were read as a load address.
    /// `as_basic` is what RUN would do with it tokenized, when its lines are numbered like
    /// BASIC V2 text (`10 PRINT ...`): `Ok` when RUN would reach a SYS.
    Text {
        load_address: u16,
        as_basic: Option<Result<(), NoSys>>,
    },
    /// Nothing follows the 2-byte load address.
    Empty { load_address: u16 },
    /// Loaded elsewhere than $0801, where RUN does not look: machine code, started by a SYS
    /// to its address (`SYS 49152` after `LOAD "X",8,1`).
    MachineCode { load_address: u16 },
    /// A BASIC program at $0801 whose RUN would not go straight to a SYS.
    NoSys(NoSys),
    /// No program, no raw bytes and no start address: nothing to start.
    Nothing,
    /// The BASIC in ROM did not reach `READY.` after the reset and its cold start, or (on
    /// Commodore's ROMs) the RUN or SYS typed there did not start: why it stopped.
    BasicDidNotStart(StopReason),
}

impl StartError {
    /// RUN would run BASIC statements, which needs the BASIC interpreter c64kit does not
    /// have: the program is fine, c64kit cannot run it (exit code 9, as for a run that stops
    /// in BASIC's statement loop).
    pub fn needs_basic(&self) -> bool {
        matches!(self, StartError::NoSys(NoSys::BasicFirst { .. }))
    }
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Text {
                load_address,
                as_basic,
            } => {
                let [lo, hi] = load_address.to_le_bytes();
                write!(
                    f,
                    "it reads as text, not a PRG (a PRG starts with its 2-byte load address; \
                     this file starts with the characters {:?})",
                    format!("{}{}", lo as char, hi as char)
                )?;
                match as_basic {
                    None => Ok(()),
                    Some(Ok(())) => write!(f, "; it looks like BASIC V2 text"),
                    Some(Err(e)) => write!(f, "; it looks like BASIC V2 text, but {e}"),
                }
            }
            StartError::Empty { load_address } => write!(
                f,
                "the PRG has no bytes after its load address (${load_address:04X}): nothing \
                 to run"
            ),
            StartError::MachineCode { load_address } => write!(
                f,
                "machine code at ${load_address:04X}, not a BASIC program (RUN starts the \
                 BASIC program at ${BASIC_START:04X})"
            ),
            StartError::NoSys(NoSys::Missing) => write!(
                f,
                "no SYS in the BASIC program at ${BASIC_START:04X}, so RUN would start no \
                 machine code"
            ),
            StartError::NoSys(e) => write!(f, "the BASIC program at ${BASIC_START:04X}: {e}"),
            StartError::Nothing => write!(
                f,
                "nothing to start: no program, no raw bytes loaded, no start address, and \
                 no BASIC to boot (ROMs without one: `Roms::without_basic`)"
            ),
            StartError::BasicDidNotStart(stop) => {
                write!(
                    f,
                    "the C64 did not get from power-on to the program (the KERNAL's reset, \
                     BASIC's cold start up to READY. and, on a KERNAL image, the RUN or SYS \
                     typed there): {stop}; are the ROM images a C64's?"
                )
            }
        }
    }
}

impl std::error::Error for StartError {}

/// For callers that report errors as text.
impl From<StartError> for String {
    fn from(e: StartError) -> String {
        e.to_string()
    }
}

/// The SYS RUN would reach in `prg`, loaded, with PEEK reading memory through `peek`; or
/// why there is none.
pub fn basic_start(prg: &Prg, peek: impl Fn(u16) -> u8) -> Result<SysStatement, StartError> {
    let load_address = prg.load_address;
    if load_address != BASIC_START {
        // $0801's low byte is a control character: a file loading there is never text.
        let bytes = prg.to_bytes();
        return Err(if let Some(text) = as_text(&bytes) {
            StartError::Text {
                load_address,
                as_basic: as_basic_text(text),
            }
        } else if prg.data.is_empty() {
            StartError::Empty { load_address }
        } else {
            StartError::MachineCode { load_address }
        });
    }
    if prg.data.is_empty() {
        return Err(StartError::Empty { load_address });
    }
    find_sys(&prg.to_bytes(), peek).map_err(StartError::NoSys)
}

/// The file as text, if it reads as text: UTF-8 with no control characters but tabs and
/// line ends. Machine code (opcodes $00-$1F, bytes that are not UTF-8) never does.
fn as_text(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?;
    text.chars()
        .all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
        .then_some(text)
}

/// What RUN would do with the text tokenized, if its first line is numbered as BASIC V2
/// lines are and it tokenizes (as `c64kit tokenize` and `.bas` files do it).
fn as_basic_text(text: &str) -> Option<Result<(), NoSys>> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    if !first.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let prg = c64kit_basic::tokenize(text, BASIC_START).ok()?;
    Some(match find_sys(&prg, |_| 0) {
        Err(e @ (NoSys::Missing | NoSys::BasicFirst { .. })) => Err(e),
        _ => Ok(()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(bytes: &[u8]) -> Result<u16, StartError> {
        let prg = Prg::parse(bytes, "t.prg").unwrap();
        basic_start(&prg, |_| 0).map(|s| s.address)
    }

    #[test]
    fn a_stub_at_0801_starts_at_its_sys() {
        let stub = [
            0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0,
        ];
        assert_eq!(start(&stub), Ok(2080));
    }

    #[test]
    fn text_is_told_apart_from_machine_code() {
        let e = start(b"Notes about the game.\nSecond line.\n").unwrap_err();
        assert_eq!(
            e,
            StartError::Text {
                load_address: u16::from_le_bytes(*b"No"),
                as_basic: None
            }
        );
        assert!(
            e.to_string().starts_with("it reads as text, not a PRG"),
            "{e}"
        );
        assert!(e.to_string().contains("\"No\""), "{e}");
        // Numbered lines are BASIC text: whether RUN would reach a SYS is said.
        let e = start(b"10 SYS 49152\n").unwrap_err();
        assert!(
            matches!(
                e,
                StartError::Text {
                    as_basic: Some(Ok(())),
                    ..
                }
            ),
            "{e:?}"
        );
        let e = start(b"10 PRINT \"HI\"\n20 GOTO 10\n").unwrap_err();
        assert!(
            e.to_string().ends_with(
                "it looks like BASIC V2 text, but line 10 runs BASIC (PRINT) before any SYS"
            ),
            "{e}"
        );
        // Machine code at $C000: INC $D020; RTS.
        assert_eq!(
            start(&[0x00, 0xC0, 0xEE, 0x20, 0xD0, 0x60]),
            Err(StartError::MachineCode {
                load_address: 0xC000
            })
        );
    }

    #[test]
    fn empty_prgs_and_basic_that_cannot_start() {
        assert_eq!(
            start(&[0x00, 0xC0]),
            Err(StartError::Empty {
                load_address: 0xC000
            })
        );
        assert_eq!(
            start(&[0x01, 0x08]),
            Err(StartError::Empty {
                load_address: 0x0801
            })
        );
        let e = start(&c64kit_basic::tokenize("10 PRINT\n20 SYS 2080", 0x0801).unwrap());
        assert!(e.as_ref().is_err_and(StartError::needs_basic), "{e:?}");
        let e = start(&c64kit_basic::tokenize("10 REM", 0x0801).unwrap()).unwrap_err();
        assert_eq!(e, StartError::NoSys(NoSys::Missing));
        assert!(!e.needs_basic());
    }
}
