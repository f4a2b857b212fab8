//! Running a BASIC program on a BASIC interpreter in ROM: c64kit's own (`Roms::own_basic`),
//! or Commodore's image. The machine boots as a C64 does: the KERNAL's reset (done in Rust,
//! [`boot::kernal_reset`]), then BASIC's own cold start on the CPU, entered through the
//! vector at $A000, up to `READY.` waiting for a line. The program is then placed as LOAD
//! places it (TXTTAB at $0801, VARTAB after its end) and RUN by calling RUN's routines
//! directly rather than by typing `RUN` at `READY.`: typed, the editor would echo the line
//! and the CHROUT stream and the screen would begin with it, where the reference runs
//! (../shared/basic-v2, made with a direct line ending `PRINTCHR$(147);:RUN`) begin on a
//! clear screen. So: KERNAL messages off (RUN's SETMSG with 0), the screen cleared (CLSR,
//! $E544, what that PRINT does through the editor), then RUNC ($A659: text pointer to the
//! program's start, CLR) returning into NEWSTT ($A7AE), the statement loop, as a
//! decruncher RUNs the program it unpacked. These are the documented entries, so the same
//! path runs on Commodore's ROMs.
//!
//! The run ends when BASIC's main loop is back at `READY.` asking the keyboard for a line
//! with the key script used up: "returned to BASIC" (the trap KERNAL's CHRIN says so, see
//! `Kernal::basic_ready_ends_run`; on a real KERNAL image the run loop watches CHRIN's
//! entry). On our BASIC and KERNAL, an error BASIC printed ends it as a `BasicError`.

use crate::boot;
use crate::kernal::vars::{DFLTN, KEYD, MSGFLG, NDX};
use crate::kernal::AfterReturn;
use crate::kernal::Trap;
use crate::machine::Machine;
use crate::memory::C64Bus;
use crate::roms::Roms;
use crate::stop::StopReason;
use c64kit_chips::VicModel;
use c64kit_screen::addr::CRSW;

/// RUNC: RUN's text pointer to the program's start and CLR (C64 memory maps' address).
const RUNC: u16 = 0xA659;
/// NEWSTT: BASIC's statement loop.
const NEWSTT: u16 = 0xA7AE;
/// The cold start vector: the KERNAL's reset ends with JMP ($A000).
pub const COLD_START_VECTOR: u16 = 0xA000;
/// CHRIN in the KERNAL's jump table: BASIC's line input calls it.
pub const CHRIN_ENTRY: u16 = 0xFFCF;
/// The KERNAL's reset leaves S here (LDX #$FF; TXS) before it enters BASIC.
const RESET_STACK_POINTER: u8 = 0xFF;
/// IGONE: BASIC's vector to the routine that runs the next statement.
const IGONE: u16 = 0x0308;
/// The KERNAL's keyboard buffer holds 10 keys (XMAX's value).
const KEYBOARD_BUFFER_SIZE: usize = 10;
/// More than power-on to `READY.` takes (Commodore's KERNAL's reset and BASIC's cold start
/// take about 2.0 M cycles, most of it RAMTAS's memory test; our BASIC's cold start after the
/// reset done in Rust under 0.1 M), and than a line typed there takes to start: a boot that
/// does not get there within it is stuck.
const BOOT_BUDGET: u64 = 20_000_000;

impl Machine {
    /// A C64 after power-on, the KERNAL's reset and BASIC's cold start from the ROM image
    /// (ours or Commodore's), with BASIC at `READY.` waiting for a line; the start message
    /// is on the screen but not in the transcript. The error is why BASIC did not get there
    /// (a jam in a routine our BASIC lacks, a budget used up).
    pub fn boot_basic(roms: Roms) -> Result<Machine, StopReason> {
        Self::boot_basic_with_vic(roms, VicModel::Mos6569)
    }

    /// [`Machine::boot_basic`] on a C64 with a `vic` VIC-II. The KERNAL's reset is the
    /// image's own code on a real KERNAL (the CPU's RESET through $FFFC, the real IOINIT,
    /// RAMTAS, RESTOR and CINT, then its JMP ($A000)); on our KERNAL, whose reset routines
    /// are traps, it is done in Rust ([`boot::kernal_reset`]) and the CPU starts at BASIC's
    /// cold start, the cycles of the real reset not spent. From there on both are one path:
    /// BASIC's cold start on the CPU up to `READY.`.
    pub fn boot_basic_with_vic(roms: Roms, vic: VicModel) -> Result<Machine, StopReason> {
        let mut m = Machine::without_power_on(roms, vic);
        if m.bus.roms.trap_kernal {
            boot::kernal_reset(&mut m.bus, &mut m.kernal);
            m.cpu.s = RESET_STACK_POINTER;
            m.cpu.set_p(m.cpu.p() & !c64kit_cpu::flag::I);
            m.cpu.pc = u16::from_le_bytes([
                m.bus.peek(COLD_START_VECTOR),
                m.bus.peek(COLD_START_VECTOR + 1),
            ]);
        } else {
            m.cpu.reset(&mut m.bus);
        }
        m.run_until_basic_waits(BOOT_BUDGET)?;
        m.kernal.transcript.clear();
        m.kernal.transcript_sets.clear();
        Ok(m)
    }

    /// A program ending at `program_end` placed in RAM at `READY.`, left as LOAD leaves it
    /// (VICE's autostart injects a PRG and sets the same pointers): the file parameters, ST
    /// and the serial bus's traces of a LOAD from drive 8 ([`boot::loaded_from_drive`]),
    /// TXTTAB at $0801, VARTAB, ARYTAB, STREND and EAL after its end (VICE also sets SAL to
    /// the start; a real C64's LOAD leaves it 0, as C64/autostart/defaults records).
    pub(crate) fn autostart_loaded(&mut self, program_end: u16) {
        boot::loaded_from_drive(&mut self.bus);
        boot::set_run_pointers(&mut self.bus, program_end);
    }

    /// Types `line` and RETURN at `READY.` as VICE's autostart does: straight into the
    /// KERNAL's keyboard buffer (KEYD, NDX), which the screen editor then reads as if typed.
    /// At most 9 characters (the buffer holds 10).
    pub(crate) fn type_at_ready(&mut self, line: &str) {
        let mut keys = line.as_bytes().to_vec();
        keys.push(b'\r');
        keys.truncate(KEYBOARD_BUFFER_SIZE);
        let at = KEYD as usize;
        self.bus.ram[at..at + keys.len()].copy_from_slice(&keys);
        self.bus.ram[NDX as usize] = keys.len() as u8;
    }

    /// Runs the line typed at `READY.` ([`Machine::type_at_ready`]) up to its first
    /// statement, where BASIC's statement loop goes through IGONE: the run of the program
    /// starts there. What went through CHROUT before (the RETURN that ends the typed line)
    /// is the typing's, not the program's, and is left out of the transcript as the boot's
    /// banner is. The error is why BASIC did not get there.
    pub(crate) fn run_typed_line(&mut self) -> Result<(), StopReason> {
        let gone = boot::peek16(&self.bus, IGONE);
        self.set_breakpoint(gone);
        let stop = self.run(BOOT_BUDGET);
        self.clear_breakpoints();
        match stop {
            StopReason::Breakpoint { pc } if pc == gone => {
                self.kernal.transcript.clear();
                self.kernal.transcript_sets.clear();
                // The program starts on a clear screen, cursor home, as on our ROMs (and as
                // the reference transcripts were made): the KERNAL's CLSR, returning to the
                // statement.
                self.push_return(gone);
                self.cpu.pc = Trap::ClearScreen.address();
                Ok(())
            }
            other => Err(other),
        }
    }

    /// Runs until BASIC's main loop asks the keyboard for a line
    /// ([`Machine::basic_waits_for_a_line`]), leaving the CPU at CHRIN's entry.
    fn run_until_basic_waits(&mut self, budget: u64) -> Result<(), StopReason> {
        let until = self.cycles() + budget;
        self.set_breakpoint(CHRIN_ENTRY);
        let result = loop {
            let left = until.saturating_sub(self.cycles());
            match self.run(left) {
                StopReason::Breakpoint { pc } if pc == CHRIN_ENTRY => {
                    if self.basic_waits_for_a_line() {
                        break Ok(());
                    }
                }
                StopReason::CycleBudget { .. } => {
                    break Err(StopReason::CycleBudget { budget });
                }
                other => break Err(other),
            }
        };
        self.clear_breakpoints();
        result
    }

    /// RUN for the BASIC program loaded at TXTTAB and ending at `program_end`, on a machine
    /// from [`Machine::boot_basic`] (see the module's notes): VARTAB, EAL and BSOUR1 as LOAD
    /// leaves them, then the screen cleared, RUNC and NEWSTT, called as their RTSs chain.
    /// The run ends "returned to BASIC" at `READY.` once the key script is used up.
    pub fn run_basic_program(&mut self, program_end: u16) {
        self.autostart_loaded(program_end);
        self.bus.ram[MSGFLG as usize] = 0;
        let runc = self.basic_entry("RUNC", RUNC);
        let newstt = self.basic_entry("NEWSTT", NEWSTT);
        for routine in [newstt, runc] {
            self.push_return(routine);
        }
        self.cpu.pc = Trap::ClearScreen.address();
        self.cpu.jammed = false;
    }

    /// Pushes what a JSR would for a return to `routine`: an RTS then goes there.
    fn push_return(&mut self, routine: u16) {
        for byte in routine.wrapping_sub(1).to_be_bytes() {
            self.bus.ram[0x100 | self.cpu.s as usize] = byte;
            self.cpu.s = self.cpu.s.wrapping_sub(1);
        }
    }

    /// BASIC's main loop back at `READY.` asking for a line with the key script used up
    /// ends the run ("returned to BASIC", or the error our BASIC printed), when a return to
    /// BASIC does.
    pub(crate) fn watch_basic_end(&mut self) {
        let main = self.basic_entry("NMAIN", boot::MAIN_LOOP);
        self.kernal.basic_ready_ends_run = Some(main);
        self.basic_end_watch = !self.bus.roms.trap_kernal;
        self.kernal.basic_error_site = self
            .bus
            .roms
            .own_basic
            .then(|| c64kit_basic_rom::label("ERRCLR"))
            .flatten();
    }

    /// BASIC's main loop is about to read a direct line from the keyboard (`READY.` and the
    /// cursor): the input is the keyboard, the screen editor is not handing back a line
    /// entered (CRSW = 0) and, a few calls up the stack (INLIN, the KERNAL glue, CHRIN),
    /// is the return address of the main loop's JSR INLIN. CURLIN cannot tell: after an
    /// error in a program it still holds the program's line. For a CPU at CHRIN's entry.
    pub fn basic_waits_for_a_line(&self) -> bool {
        let main = self.basic_entry("NMAIN", boot::MAIN_LOOP);
        self.bus.ram[DFLTN as usize] == 0
            && self.bus.ram[CRSW as usize] == 0
            && returns_to(&self.bus, self.cpu.s, main)
    }

    /// On a real KERNAL: the CPU is at CHRIN's entry, BASIC back at `READY.` with the key
    /// script used up and nothing typed waiting, and a return to BASIC ends the run.
    pub(crate) fn basic_program_ended(&self) -> bool {
        self.cpu.pc == CHRIN_ENTRY
            && self.kernal.after_return == AfterReturn::Return
            && self.bus.input.is_exhausted()
            && self.bus.ram[NDX as usize] == 0
            && self.basic_waits_for_a_line()
    }

    /// A routine of the BASIC in ROM: our BASIC's label when it has one, else the address
    /// memory maps document (where Commodore's is, and ours will be).
    pub fn basic_entry(&self, name: &str, documented: u16) -> u16 {
        if self.bus.roms.own_basic {
            c64kit_basic_rom::label(name).unwrap_or(documented)
        } else {
            documented
        }
    }
}

/// How far up the stack the main loop's return address may be from CHRIN's entry: CHRIN's
/// caller (the KERNAL glue INCHR), INLIN, the main loop: three return addresses.
const MAIN_LOOP_DEPTH: u8 = 6;

/// The stack (pointer `s`) holds, within [`MAIN_LOOP_DEPTH`] bytes above it, the return
/// address a JSR at `routine`'s start pushes (the JSR's last byte: `routine` + 2).
pub(crate) fn returns_to(bus: &C64Bus, s: u8, routine: u16) -> bool {
    let [lo, hi] = routine.wrapping_add(2).to_le_bytes();
    (1..MAIN_LOOP_DEPTH).any(|i| {
        let at = |k: u8| bus.ram[0x100 | s.wrapping_add(k) as usize];
        at(i) == lo && at(i + 1) == hi
    })
}
