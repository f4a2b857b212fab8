//! The KERNAL's channel I/O: OPEN, CLOSE, CHKIN, CHKOUT, CLRCHN, CLALL, LOAD, SAVE, and
//! CHRIN/GETIN/CHROUT on the serial bus, where drive 8 ([`crate::drive::Drive`]) is the one
//! device. The open files live where the real KERNAL keeps them: LDTND ($98) and the tables
//! LAT ($0259), FAT ($0263) and SAT ($026D), so programs that read them see what they expect.
//!
//! # What the KERNAL returns
//!
//! As the real routines do (sources: the C64 KERNAL source, `nopen`/`openi`, `nclose`,
//! `nchkin`, `nckout`, `clrch`, `nload`, `nsave`/`clsei`, `nbasin`, `error1`-`error9`; the
//! 1541 User's Manual on SAVE):
//! - The KERNAL knows only whether a device answers; what the drive thinks of a name
//!   (missing, refused, exists, write-protected) is on its status channel, not in C and A.
//!   `nsave` returns C set only for errors 5, 8, 9 and the STOP key, so a SAVE the drive
//!   refuses returns C clear and BASIC prints READY.; the manual: the DOS checks the name,
//!   the directory and the room, "If everything is OK ... the program is stored. If not, the
//!   error light will flash". ST is left 0 (`openi` clears it; the drive takes the bytes and
//!   drops them). OPEN of a file the drive refuses returns C clear too.
//! - Reading a channel the drive has no file on times out: ST = $42 (EOI and read time-out)
//!   and CHRIN gives what ACPTR's exit leaves in A (`serial::read_timeout_byte`: $C7 in VIC
//!   bank 0); once ST is not 0, `nbasin` gives CR without asking.
//!   `nload` checks the time-out bit after the first byte and gives error 4 FILE NOT FOUND
//!   (A = 4, C set) with ST = $42. A successful LOAD leaves ST = $40 (EOI).
//! - Errors 1-9 come where the real routines give them: OPEN of logical file 0 (6), of an
//!   open file (2), of an 11th file (1); CHKIN/CHKOUT of a file not open (3), CHKOUT to the
//!   keyboard (7); LOAD/SAVE with no name (8), of devices 0, 2 and 3 (9); any serial device
//!   but 8 is not present (5, ST bit 7) when the KERNAL addresses it. Every error first
//!   restores the default channels (CLRCHN), and prints "I/O ERROR #n" if MSGFLG bit 6 is
//!   set; with MSGFLG bit 7 set LOAD and SAVE print SEARCHING FOR, LOADING, SAVING.
//!
//! Differences from the real machine, on purpose: there is no datasette, so LOAD and SAVE on
//! device 1 give error 5 (a real C64 waits for PLAY forever); tape and RS-232 files open but
//! carry nothing; input from the screen (device 3) reads the keyboard line as device 0
//! does; a LOAD of a file shorter than its 2-byte address is error 4 (a real C64 waits for
//! the missing byte forever). A LOAD past $FFFF wraps to $0000, as the real routine does.

use super::traps::{Kernal, TrapOutcome};
use super::vars::*;
use crate::memory::C64Bus;
use c64kit_cpu::Cpu;

/// The drive channel a secondary address (as kept in SAT, ORed with $60) addresses; None
/// when there is none (bit 7 set: SETLFS with $FF).
fn channel(sa: u8) -> Option<u8> {
    (sa & 0x80 == 0).then_some(sa & 0x0F)
}

fn ram(bus: &C64Bus, at: u16) -> u8 {
    bus.ram[at as usize]
}

fn set(bus: &mut C64Bus, at: u16, v: u8) {
    bus.ram[at as usize] = v;
}

fn word(bus: &C64Bus, at: u16) -> u16 {
    u16::from_le_bytes([ram(bus, at), ram(bus, at + 1)])
}

fn set_word(bus: &mut C64Bus, at: u16, v: u16) {
    let [lo, hi] = v.to_le_bytes();
    set(bus, at, lo);
    set(bus, at + 1, hi);
}

fn or_status(bus: &mut C64Bus, bits: u8) {
    bus.ram[STATUS as usize] |= bits;
}

/// The table index of logical file `la` (the KERNAL's `jltlk`, searching from the end).
fn lookup(bus: &C64Bus, la: u8) -> Option<u8> {
    (0..ram(bus, LDTND))
        .rev()
        .find(|&i| ram(bus, LAT + i as u16) == la)
}

/// The KERNAL's `jz100`: LA, FA and SA from the table; returns (FA, SA).
fn select(bus: &mut C64Bus, i: u8) -> (u8, u8) {
    let i = i as u16;
    let (la, fa, sa) = (ram(bus, LAT + i), ram(bus, FAT + i), ram(bus, SAT + i));
    set(bus, LA, la);
    set(bus, FA, fa);
    set(bus, SA, sa);
    (fa, sa)
}

impl Kernal {
    /// The name SETNAM gave, as the CPU sees memory.
    pub(super) fn file_name(&self, bus: &C64Bus) -> Vec<u8> {
        let at = word(bus, FNADR);
        (0..ram(bus, FNLEN) as u16)
            .map(|i| bus.peek(at.wrapping_add(i)))
            .collect()
    }

    /// The KERNAL's `error1`-`error9`: default channels back, the message if asked for,
    /// A = the error number, C set.
    pub(super) fn io_error(&mut self, cpu: &mut Cpu, bus: &mut C64Bus, e: IoError) -> TrapOutcome {
        self.clrchn(bus);
        if ram(bus, MSGFLG) & 0x40 != 0 {
            self.message(bus, MSG_IO_ERROR);
            self.output(bus, b'0' + e as u8);
        }
        cpu.load_a(e as u8);
        cpu.set_carry(true);
        TrapOutcome::Return
    }

    fn message(&mut self, bus: &mut C64Bus, text: &[u8]) {
        for &b in text {
            self.output(bus, b);
        }
    }

    /// A control message (SEARCHING, LOADING, SAVING), printed when MSGFLG bit 7 is set.
    fn control_message(&mut self, bus: &mut C64Bus, parts: &[&[u8]]) {
        if ram(bus, MSGFLG) & 0x80 != 0 {
            for p in parts {
                self.message(bus, p);
            }
        }
    }

    /// CLRCHN: UNLISTEN and UNTALK the serial devices in use, keyboard and screen again.
    pub(super) fn clrchn(&mut self, bus: &mut C64Bus) {
        if ram(bus, DFLTO) > SCREEN {
            self.drive.unlisten();
            self.serial.unaddressed(true);
        }
        if ram(bus, DFLTN) > SCREEN {
            self.drive.untalk();
            self.serial.unaddressed(false);
        }
        set(bus, DFLTO, SCREEN);
        set(bus, DFLTN, KEYBOARD);
    }

    /// CLALL: forgets every open file (without closing them on their devices), then CLRCHN.
    pub(super) fn clall(&mut self, bus: &mut C64Bus) {
        set(bus, LDTND, 0);
        self.clrchn(bus);
    }

    /// OPEN: LA, FA, SA from SETLFS, the name from SETNAM.
    pub(super) fn open(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        let la = ram(bus, LA);
        if la == 0 {
            return self.io_error(cpu, bus, IoError::NotInputFile);
        }
        set(bus, STATUS, 0);
        if lookup(bus, la).is_some() {
            return self.io_error(cpu, bus, IoError::FileOpen);
        }
        let n = ram(bus, LDTND);
        if n >= MAX_FILES {
            return self.io_error(cpu, bus, IoError::TooManyFiles);
        }
        set(bus, LDTND, n + 1);
        let sa = ram(bus, SA) | 0x60;
        let fa = ram(bus, FA);
        set(bus, SA, sa);
        set(bus, LAT + n as u16, la);
        set(bus, SAT + n as u16, sa);
        set(bus, FAT + n as u16, fa);
        // Serial devices are sent the name (the KERNAL's `openi`); the file stays in the
        // table even if no device answers, as on the real machine.
        if fa > SCREEN && ram(bus, FNLEN) > 0 {
            if let Some(ch) = channel(sa) {
                if fa != DRIVE {
                    or_status(bus, ST_DEVICE_NOT_PRESENT);
                    return self.io_error(cpu, bus, IoError::DeviceNotPresent);
                }
                let name = self.file_name(bus);
                self.drive.open(ch, &name);
            }
        }
        cpu.set_carry(false);
        TrapOutcome::Return
    }

    /// CLOSE: A = the logical file. A file not open is no error.
    pub(super) fn close(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) {
        cpu.set_carry(false);
        let Some(i) = lookup(bus, cpu.a) else {
            return;
        };
        let (fa, sa) = select(bus, i);
        if fa > SCREEN {
            if let Some(ch) = channel(sa) {
                if fa == DRIVE {
                    self.drive.close(ch);
                } else {
                    or_status(bus, ST_DEVICE_NOT_PRESENT);
                }
            }
        }
        // The last entry moves into the freed place.
        let last = ram(bus, LDTND) - 1;
        set(bus, LDTND, last);
        for table in [LAT, FAT, SAT] {
            let v = ram(bus, table + last as u16);
            set(bus, table + i as u16, v);
        }
    }

    /// CHKIN: X = the logical file to read from.
    pub(super) fn chkin(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        set(bus, STATUS, 0);
        let Some(i) = lookup(bus, cpu.x) else {
            return self.io_error(cpu, bus, IoError::FileNotOpen);
        };
        let (fa, sa) = select(bus, i);
        match fa {
            KEYBOARD | SCREEN | RS232 => {}
            TAPE if sa == 0x60 => {}
            TAPE => return self.io_error(cpu, bus, IoError::NotInputFile),
            DRIVE => {
                self.drive.talk(channel(sa));
                self.serial.drive_addressed(true);
            }
            _ => {
                or_status(bus, ST_DEVICE_NOT_PRESENT);
                return self.io_error(cpu, bus, IoError::DeviceNotPresent);
            }
        }
        set(bus, DFLTN, fa);
        cpu.set_carry(false);
        TrapOutcome::Return
    }

    /// CHKOUT: X = the logical file to write to.
    pub(super) fn chkout(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        set(bus, STATUS, 0);
        let Some(i) = lookup(bus, cpu.x) else {
            return self.io_error(cpu, bus, IoError::FileNotOpen);
        };
        let (fa, sa) = select(bus, i);
        match fa {
            KEYBOARD => return self.io_error(cpu, bus, IoError::NotOutputFile),
            TAPE if sa == 0x60 => return self.io_error(cpu, bus, IoError::NotOutputFile),
            SCREEN | TAPE | RS232 => {}
            DRIVE => {
                self.drive.listen(channel(sa));
                self.serial.drive_addressed(false);
            }
            _ => {
                or_status(bus, ST_DEVICE_NOT_PRESENT);
                return self.io_error(cpu, bus, IoError::DeviceNotPresent);
            }
        }
        set(bus, DFLTO, fa);
        cpu.set_carry(false);
        TrapOutcome::Return
    }

    /// CHRIN and GETIN from a serial device: a byte from the talking drive. Once ST is not
    /// 0 (the last byte came, or nothing did), the KERNAL asks no more and gives CR.
    pub(super) fn serial_input(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) {
        cpu.set_carry(false);
        if ram(bus, STATUS) != 0 {
            cpu.load_a(0x0D);
            return;
        }
        let got = if ram(bus, DFLTN) == DRIVE {
            self.drive.send()
        } else {
            None
        };
        match got {
            Some((b, eoi)) => {
                if eoi {
                    or_status(bus, ST_EOI);
                }
                cpu.load_a(b);
            }
            None => {
                or_status(bus, ST_EOI | ST_READ_TIMEOUT);
                cpu.load_a(super::serial::read_timeout_byte(bus));
            }
        }
    }

    /// LOAD: A = 0 load, else verify; with SA = 0 to X/Y, else to the file's own address.
    pub(super) fn load(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        // What LOADSP ($F49E, behind $FFD5) does before it jumps through ($0330).
        set(bus, MEMUSS, cpu.x);
        set(bus, MEMUSS + 1, cpu.y);
        let verify = cpu.a != 0;
        set(bus, VERCK, cpu.a);
        set(bus, STATUS, 0);
        match ram(bus, FA) {
            KEYBOARD | RS232 | SCREEN => {
                return self.io_error(cpu, bus, IoError::IllegalDeviceNumber)
            }
            TAPE => return self.io_error(cpu, bus, IoError::DeviceNotPresent),
            _ => {}
        }
        if ram(bus, FNLEN) == 0 {
            return self.io_error(cpu, bus, IoError::MissingFileName);
        }
        let own_address = ram(bus, SA) != 0;
        let name = self.file_name(bus);
        self.control_message(bus, &[MSG_SEARCHING, MSG_FOR, &name]);
        set(bus, SA, 0x60);
        if ram(bus, FA) != DRIVE {
            or_status(bus, ST_DEVICE_NOT_PRESENT);
            return self.io_error(cpu, bus, IoError::DeviceNotPresent);
        }
        self.drive.open(0, &name);
        self.drive.talk(Some(0));
        let first = self.drive.send();
        let second = match first {
            Some((_, false)) => self.drive.send(),
            _ => None,
        };
        let (Some((lo, _)), Some((hi, mut eoi))) = (first, second) else {
            self.drive.untalk();
            self.drive.close(0);
            if first.is_some() {
                self.drive.note(format!(
                    "LOAD \"{}\": the file is 1 byte, too short to hold a load address",
                    crate::drive::shown(&name)
                ));
            }
            or_status(bus, ST_EOI | ST_READ_TIMEOUT);
            return self.io_error(cpu, bus, IoError::FileNotFound);
        };
        let mut at = if own_address {
            u16::from_le_bytes([lo, hi])
        } else {
            word(bus, MEMUSS)
        };
        let verb = if verify { MSG_VERIFYING } else { MSG_LOADING };
        self.control_message(bus, &[verb]);
        while !eoi {
            let Some((b, last)) = self.drive.send() else {
                break;
            };
            eoi = last;
            if !verify {
                bus.poke(at, b);
            } else if bus.peek(at) != b {
                or_status(bus, ST_VERIFY_MISMATCH);
            }
            at = at.wrapping_add(1);
        }
        or_status(bus, ST_EOI);
        self.drive.untalk();
        self.drive.close(0);
        set_word(bus, EAL, at);
        cpu.x = at as u8;
        cpu.y = (at >> 8) as u8;
        cpu.set_carry(false);
        TrapOutcome::Return
    }

    /// SAVE: A = the zero-page pointer to the start, X/Y = the end (not saved).
    pub(super) fn save(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        // What SAVESP ($F5DD, behind $FFD8) does before it jumps through ($0332).
        set(bus, EAL, cpu.x);
        set(bus, EAL + 1, cpu.y);
        let zp = cpu.a as u16;
        let start = u16::from_le_bytes([ram(bus, zp), ram(bus, (zp + 1) & 0xFF)]);
        set_word(bus, STAL, start);
        match ram(bus, FA) {
            KEYBOARD | RS232 | SCREEN => {
                return self.io_error(cpu, bus, IoError::IllegalDeviceNumber)
            }
            TAPE => return self.io_error(cpu, bus, IoError::DeviceNotPresent),
            _ => {}
        }
        set(bus, SA, 0x61);
        if ram(bus, FNLEN) == 0 {
            return self.io_error(cpu, bus, IoError::MissingFileName);
        }
        set(bus, STATUS, 0);
        if ram(bus, FA) != DRIVE {
            or_status(bus, ST_DEVICE_NOT_PRESENT);
            return self.io_error(cpu, bus, IoError::DeviceNotPresent);
        }
        let name = self.file_name(bus);
        self.drive.open(1, &name);
        self.control_message(bus, &[MSG_SAVING, &name]);
        let end = word(bus, EAL);
        self.drive.listen(Some(1));
        self.drive.receive(start as u8);
        self.drive.receive((start >> 8) as u8);
        let mut at = start;
        while at < end {
            self.drive.receive(bus.peek(at));
            at += 1;
        }
        set_word(bus, SAL, at);
        self.drive.unlisten();
        self.drive.close(1);
        cpu.set_carry(false);
        TrapOutcome::Return
    }
}
