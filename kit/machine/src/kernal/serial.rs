//! Drive 8 behind Commodore's KERNAL. With a real KERNAL image no routine of ours runs: its
//! OPEN, CLOSE, CHKIN, CHKOUT, CHRIN, CHROUT, LOAD and SAVE drive the serial bus through
//! CIA 2, where c64kit has no 1541. So, as VICE's virtual-device traps do, the image's
//! serial-bus routines are traps, carried out on c64kit's drive ([`Drive`], the one drive
//! model: the same folder rules as with our KERNAL) a whole byte or command at a time. Our
//! own KERNAL's entries of the same routines run the same code, so a program calling them
//! itself (or ACPTR and CIOUT after our CHKIN and CHKOUT) gets what it gets on Commodore's.
//!
//! # Which routines
//!
//! The eight the jump table leads to: LISTEN ($ED0C, from $FFB1), TALK ($ED09, $FFB4),
//! SECOND ($EDB9, $FF93), TKSA ($EDC7, $FF96), CIOUT ($EDDD, $FFA8), ACPTR ($EE13, $FFA5),
//! UNTLK ($EDEF, $FFAB), UNLSN ($EDFE, $FFAE) (addresses: the C64 memory maps and the
//! jump table's JMPs in Commodore's image); the KERNAL's own OPEN, CLOSE, CHKIN, CHKOUT,
//! CHRIN, CHROUT, LOAD and SAVE call the bus only through them, but for one more entry:
//! TKATN ($EDCC), TKSA's second half (the turnaround, where the computer waits for the
//! talker to take the clock line), which CHKIN calls for a file opened without a
//! secondary address. SCATN ($EDBE, releasing ATN), which CHKOUT calls for such a file,
//! waits for nothing and runs as it is.
//!
//! An image is trapped when its jump table jumps to those eight addresses (Commodore's
//! does, in every revision of the C64 KERNAL); then, as VICE writes its trap opcode into
//! the ROM, each entry's first byte becomes a JAM ($02), which the machine recognises
//! (`Machine::handle_jam`): a program reading those nine bytes of the ROM sees $02. An
//! image laid out otherwise keeps its code, and has no drive 8 (nothing answers on the
//! bus: "device not present").
//!
//! # The protocol
//!
//! The byte each routine sends under ATN says what the drive does: LISTEN/TALK address a
//! device; after LISTEN, SECOND $Fx opens channel x with the name that CIOUT sends until
//! UNLSN (OPEN, LOAD and SAVE's first step), $Ex closes it (CLOSE), $6x makes the drive
//! listen on it (CHKOUT, SAVE's data); after TALK, TKSA $6x makes it talk from it (CHKIN,
//! LOAD's data), and ACPTR reads its bytes, the last with EOI. Only device 8 answers.
//!
//! # What the KERNAL sees
//!
//! As the real routines leave it (the C64 KERNAL's source, `isour`, `acptr`, `nodev`,
//! `csberr`; compared with the image running on c64kit's bus, where no device answers):
//! - Every routine returns with C clear and I clear (they end with CLI); X and Y kept.
//! - A byte under ATN (LISTEN, TALK, SECOND, TKSA) for a device that is not there: ST bit 7
//!   ($80, "device not present"; OPEN, CHKIN, CHKOUT, LOAD and SAVE then give error 5),
//!   as are bytes CIOUT sends with no device listening. UNLSN and UNTLK address every
//!   device, and drive 8 is always on the bus: they never set it.
//! - ACPTR: A = the byte (N and Z from it), kept in BSOUR1 ($A4); the last byte of a file
//!   sets ST bit 6 ($40, EOI). A channel with nothing to send (no file, a file not found, a
//!   file read to its end) times out: ST $42 (the KERNAL's first 256 µs wait sets EOI, the
//!   second the time-out; LOAD tells FILE NOT FOUND by it), and A = CIA 2's port A with the
//!   bus lines released, masked with $DF, as the routine's exit leaves it ($C7 in bank 0).
//! - CIOUT keeps its byte in BSOUR ($95), as every routine keeps the byte it sends.
//!
//! The serial lines on CIA 2's port A are not touched: no device is on them (VICE's traps
//! leave them too), so a program reading $DD00 sees the lines as it left them.
//!
//! # Timing
//!
//! Each routine takes what a real drive's handshake takes (see `timing::SERIAL_*`): about
//! 1.5 ms for a byte under ATN, and 400 bytes a second for the data, the speed of a 1541
//! with Commodore's KERNAL; a read time-out takes the KERNAL's two waits. The cycles are
//! spent after the work as the routine's own, with interrupts held off as the routines
//! hold them (they run under SEI): the interrupt comes after the RTS. Not modelled: the
//! time a 1541 takes to find a file after OPEN (it delays the first byte on a real drive),
//! and the disk's rotation.

use super::timing;
use super::traps::{Kernal, TrapOutcome};
use super::vars::{BSOUR, BSOUR1, DRIVE, STATUS, ST_DEVICE_NOT_PRESENT, ST_EOI, ST_READ_TIMEOUT};
use super::{rom, Trap};
use crate::memory::C64Bus;
use c64kit_cpu::{flag, Cpu};

/// The serial-bus routines: trapped in a real KERNAL image, and our KERNAL's own entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Routine {
    Listen,
    Talk,
    Second,
    Tksa,
    /// TKSA's second half: the turnaround after TALK without a secondary address.
    Tkatn,
    Ciout,
    Acptr,
    Untlk,
    Unlsn,
}

/// What a run that sent drive code stops for (as a routine c64kit does not provide).
const DRIVE_CODE: &str = "(a 1541's processor: the program sent code for the drive to run)";

/// TKATN: TKSA's second half, where the computer hands the bus to the talker (the C64
/// KERNAL's source; CHKIN calls it at $F23F in 901227-03).
const TKATN: u16 = 0xEDCC;

/// Each routine and its entry in the jump table (None: an internal entry).
const ROUTINES: [(Routine, Option<Trap>); 9] = [
    (Routine::Listen, Some(Trap::Listen)),
    (Routine::Talk, Some(Trap::Talk)),
    (Routine::Second, Some(Trap::Second)),
    (Routine::Tksa, Some(Trap::Tksa)),
    (Routine::Tkatn, None),
    (Routine::Ciout, Some(Trap::Ciout)),
    (Routine::Acptr, Some(Trap::Acptr)),
    (Routine::Untlk, Some(Trap::Untlk)),
    (Routine::Unlsn, Some(Trap::Unlsn)),
];

/// The "talk" and "listen" commands (LISTEN ORs the device number with $20, TALK with $40;
/// device 31 makes them UNLISTEN and UNTALK); the secondary commands ($60 data, $E0 close,
/// $F0 open, ORed with the channel).
const LISTEN: u8 = 0x20;
const TALK: u8 = 0x40;
const DEVICE_BITS: u8 = 0x1F;
const ALL_DEVICES: u8 = 31;
const SECONDARY_DATA: u8 = 0x60;
const SECONDARY_CLOSE: u8 = 0xE0;
const SECONDARY_OPEN: u8 = 0xF0;
/// The longest name an OPEN sends (FNLEN is a byte); more bytes are dropped.
const NAME_MAX: usize = 255;

impl Routine {
    /// The routine's entry in the KERNAL ROM.
    pub fn address(self) -> u16 {
        match ROUTINES.iter().find(|r| r.0 == self) {
            Some((_, Some(trap))) => trap.address(),
            _ => TKATN,
        }
    }

    /// The routine whose entry is `addr`.
    pub fn at(addr: u16) -> Option<Routine> {
        ROUTINES.iter().map(|r| r.0).find(|r| r.address() == addr)
    }
}

/// True if `image` (a KERNAL ROM, $E000-$FFFF) has its serial routines where Commodore's
/// has them: its jump table jumps to each.
pub fn has_commodores_serial_routines(image: &[u8; 0x2000]) -> bool {
    let at = |a: u16| image[(a - rom::ROM_BASE) as usize];
    ROUTINES.iter().filter_map(|r| r.1).all(|trap| {
        rom::jump_table_entry_to(trap.address())
            .is_some_and(|e| [at(e), at(e + 1), at(e + 2)] == jmp(trap.address()))
    })
}

fn jmp(to: u16) -> [u8; 3] {
    let [lo, hi] = to.to_le_bytes();
    [0x4C, lo, hi]
}

/// Traps the serial routines of a real KERNAL image (see the module's notes): a JAM at
/// each entry, if the image has them where Commodore's has them. Returns whether it did.
pub fn trap_serial_routines(image: &mut [u8; 0x2000]) -> bool {
    if !has_commodores_serial_routines(image) {
        return false;
    }
    for (routine, _) in ROUTINES {
        image[(routine.address() - rom::ROM_BASE) as usize] = rom::JAM;
    }
    true
}

/// True if `image` is a real KERNAL image whose serial routines are trapped.
pub fn serial_routines_trapped(image: &[u8; 0x2000]) -> bool {
    has_commodores_serial_routines(image)
        && ROUTINES
            .iter()
            .all(|(r, _)| image[(r.address() - rom::ROM_BASE) as usize] == rom::JAM)
}

/// What the bus is doing, as the drive needs to know it.
#[derive(Debug, Default)]
pub struct SerialBus {
    /// The device the last LISTEN or TALK addressed, until UNLSN or UNTLK.
    addressed: Option<Addressed>,
    /// An OPEN under way (SECOND $Fx): the channel and the name CIOUT sent so far.
    opening: Option<(u8, Vec<u8>)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Addressed {
    Listener(u8),
    Talker(u8),
}

impl SerialBus {
    /// Our KERNAL's CHKIN (`talker`) or CHKOUT made drive 8 talk or listen, as the real
    /// ones do with TALK and LISTEN: a program may go on with ACPTR or CIOUT.
    pub(super) fn drive_addressed(&mut self, talker: bool) {
        self.addressed = Some(if talker {
            Addressed::Talker(DRIVE)
        } else {
            Addressed::Listener(DRIVE)
        });
    }

    /// Our KERNAL's CLRCHN sent UNLISTEN (`listeners`) or UNTALK.
    pub(super) fn unaddressed(&mut self, listeners: bool) {
        if matches!(
            (self.addressed, listeners),
            (Some(Addressed::Listener(_)), true) | (Some(Addressed::Talker(_)), false)
        ) {
            self.addressed = None;
        }
    }
}

impl Kernal {
    /// Runs the serial routine `routine` on drive 8: a trapped routine of a real KERNAL
    /// image, or the same entry of ours.
    pub fn serial_routine(
        &mut self,
        routine: Routine,
        cpu: &mut Cpu,
        bus: &mut C64Bus,
    ) -> TrapOutcome {
        let mut status = 0;
        let cost = match routine {
            Routine::Listen | Routine::Talk => {
                let device = cpu.a & DEVICE_BITS;
                let command = if routine == Routine::Listen {
                    LISTEN
                } else {
                    TALK
                };
                bus.ram[BSOUR as usize] = device | command;
                if device == ALL_DEVICES {
                    self.unaddress(routine == Routine::Listen);
                } else {
                    self.end_open();
                    if routine == Routine::Listen {
                        self.serial.addressed = Some(Addressed::Listener(device));
                        if device == DRIVE {
                            self.drive.listen(None);
                        }
                    } else {
                        self.serial.addressed = Some(Addressed::Talker(device));
                        if device == DRIVE {
                            self.drive.talk(None);
                        }
                    }
                    if device != DRIVE {
                        status |= ST_DEVICE_NOT_PRESENT;
                    }
                }
                timing::SERIAL_ATN_BYTE
            }
            Routine::Second => {
                bus.ram[BSOUR as usize] = cpu.a;
                if self.serial.addressed == Some(Addressed::Listener(DRIVE)) {
                    self.end_open();
                    let channel = cpu.a & 0x0F;
                    match cpu.a & 0xF0 {
                        SECONDARY_OPEN => {
                            self.drive.listen(None);
                            self.serial.opening = Some((channel, Vec::new()));
                        }
                        SECONDARY_CLOSE => {
                            self.drive.close(channel);
                            self.drive.listen(None);
                        }
                        SECONDARY_DATA => self.drive.listen(Some(channel)),
                        // A 1541 ignores other secondary addresses.
                        _ => self.drive.listen(None),
                    }
                } else {
                    status |= ST_DEVICE_NOT_PRESENT;
                }
                timing::SERIAL_ATN_BYTE
            }
            Routine::Tksa | Routine::Tkatn => {
                if routine == Routine::Tksa {
                    bus.ram[BSOUR as usize] = cpu.a;
                }
                if self.serial.addressed == Some(Addressed::Talker(DRIVE)) {
                    let channel = (routine == Routine::Tksa && cpu.a & 0xF0 == SECONDARY_DATA)
                        .then_some(cpu.a & 0x0F);
                    self.drive.talk(channel);
                } else if routine == Routine::Tksa {
                    status |= ST_DEVICE_NOT_PRESENT;
                }
                if routine == Routine::Tksa {
                    timing::SERIAL_ATN_BYTE + timing::SERIAL_TURNAROUND
                } else {
                    timing::SERIAL_TURNAROUND
                }
            }
            Routine::Ciout => {
                bus.ram[BSOUR as usize] = cpu.a;
                match (&mut self.serial.opening, self.serial.addressed) {
                    // SETNAM's length is a byte: a longer name is not a KERNAL's.
                    (Some((_, name)), _) if name.len() < NAME_MAX => name.push(cpu.a),
                    (Some(_), _) => {}
                    (None, Some(Addressed::Listener(DRIVE))) => self.drive.receive(cpu.a),
                    _ => status |= ST_DEVICE_NOT_PRESENT,
                }
                timing::SERIAL_DATA_BYTE
            }
            Routine::Acptr => {
                let got = match self.serial.addressed {
                    Some(Addressed::Talker(DRIVE)) => self.drive.send(),
                    _ => None,
                };
                match got {
                    Some((byte, eoi)) => {
                        if eoi {
                            status |= ST_EOI;
                        }
                        bus.ram[BSOUR1 as usize] = byte;
                        cpu.load_a(byte);
                        timing::SERIAL_DATA_BYTE
                    }
                    None => {
                        status |= ST_EOI | ST_READ_TIMEOUT;
                        cpu.load_a(read_timeout_byte(bus));
                        timing::SERIAL_READ_TIMEOUT
                    }
                }
            }
            Routine::Untlk => {
                bus.ram[BSOUR as usize] = TALK | ALL_DEVICES;
                self.unaddress(false);
                timing::SERIAL_ATN_BYTE
            }
            Routine::Unlsn => {
                bus.ram[BSOUR as usize] = LISTEN | ALL_DEVICES;
                self.unaddress(true);
                timing::SERIAL_ATN_BYTE
            }
        };
        if let Some(stop) = self.stop_for_drive_code(routine.address()) {
            return stop;
        }
        bus.ram[STATUS as usize] |= status;
        cpu.set_carry(false);
        cpu.set_p(cpu.p() & !flag::I);
        bus.spend_cpu_cycles(cost - timing::TRAP_ENTRY_AND_RTS, routine.address());
        TrapOutcome::Return
    }

    /// The drive was asked to run the program's own code (`Drive::take_drive_code`): the
    /// run stops at `pc` (exit code 9: c64kit does not provide a 1541's processor).
    pub(super) fn stop_for_drive_code(&mut self, pc: u16) -> Option<TrapOutcome> {
        self.drive.take_drive_code().then_some(TrapOutcome::Stop(
            crate::stop::StopReason::Unimplemented {
                routine: DRIVE_CODE,
                pc,
            },
        ))
    }

    /// UNLISTEN (`listeners`) or UNTALK: an OPEN under way is done, the drive stops.
    fn unaddress(&mut self, listeners: bool) {
        self.end_open();
        match self.serial.addressed {
            Some(Addressed::Listener(d)) if listeners => {
                if d == DRIVE {
                    self.drive.unlisten();
                }
                self.serial.addressed = None;
            }
            Some(Addressed::Talker(d)) if !listeners => {
                if d == DRIVE {
                    self.drive.untalk();
                }
                self.serial.addressed = None;
            }
            _ => {}
        }
    }

    /// The name of an OPEN is complete (UNLSN, or a new command under ATN): the drive opens.
    fn end_open(&mut self) {
        if let Some((channel, name)) = self.serial.opening.take() {
            self.drive.open(channel, &name);
        }
    }
}

/// What ACPTR returns in A when the talker sends nothing (the read time-out): its exit
/// releases CLK and DATA and leaves A = CIA 2's port A ($DD00) AND $DF, that is bits 0-2
/// (the VIC bank, PA2) as they are, ATN, CLK and DATA out released (bits 3-5 clear), CLK
/// and DATA in high (bits 6 and 7: nothing holds the lines): $C7 in bank 0. CHRIN and GETIN
/// hand it on (only once ST is set do they give a carriage return without asking).
pub(super) fn read_timeout_byte(bus: &C64Bus) -> u8 {
    const PORT_A_KEPT: u8 = 0x07;
    const PORT_A_LINES_HIGH: u8 = 0xC0;
    bus.cia2.port_a_pins() & PORT_A_KEPT | PORT_A_LINES_HIGH
}
