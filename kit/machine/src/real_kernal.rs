//! What c64kit watches while Commodore's KERNAL image runs (no traps there): the run loop
//! looks at the instructions at these addresses (`Machine::stop_before`, to which the direct
//! path leaves them: `Machine::watch_pages`) for
//! - the entry of the routine CHROUT's vector IBSOUT ($0326) points at, reached through the
//!   jump table's `JMP ($0326)` or by a program's own `JMP ($0326)`: with the output on the
//!   screen, A is the transcript's next byte, as the trap KERNAL's CHROUT records it;
//! - the entry BASIC's error vector IERROR ($0300) points at, reached with X an error number:
//!   the error BASIC is about to print, which ends the run as an error once BASIC is back at
//!   `READY.` (Commodore's BASIC; ours on our KERNAL says it through the CLRCHN trap);
//! - BASIC back at `READY.` with the script used up: the end of the run
//!   (`Machine::basic_program_ended`);
//! - the entries of GETIN's and CHRIN's vectors (IGETIN $032A, IBASIN $0324) reading the
//!   keyboard with nothing typed and the script used up: GETIN polled in vain as often as
//!   the trap KERNAL's `idle_poll_limit` allows, or CHRIN about to wait for a line nobody
//!   will type, is "input exhausted", as with the trap KERNAL; the same entries with the
//!   keyboard buffer empty are the program asking for a key, which releases a `{WAITINPUT}`.
//!
//! The vectors live in RAM page 3 and programs change them: the direct path leaves every
//! write to that page to an exact step (`C64Bus::guard_writes`), after which the run loop
//! watches the pages the vectors name then (`Machine::real_kernal_targets`).

use crate::boot::peek16;
use crate::kernal::vars::{DFLTN, DFLTO, NDX, SCREEN};
use crate::machine::Machine;
use crate::stop::StopReason;
use c64kit_screen::addr::CRSW;

/// The page of the RAM vectors below (the direct path's writes to it are watched).
pub(crate) const VECTOR_PAGE: u8 = 0x03;
/// IBSOUT: CHROUT's RAM vector.
const IBSOUT: u16 = 0x0326;
/// IBASIN: CHRIN's RAM vector.
const IBASIN: u16 = 0x0324;
/// IGETIN: GETIN's RAM vector.
const IGETIN: u16 = 0x032A;
/// IERROR: BASIC's error vector, entered with X = the error number (bit 7 set: no error).
const IERROR: u16 = 0x0300;
/// Commodore's BASIC: the table of its error messages' addresses (C64 memory maps: $A328,
/// the first for error 1, TOO MANY FILES); each message ends with bit 7 set.
const ERROR_MESSAGES: u16 = 0xA328;
/// The last error number BASIC V2 has (30: BREAK; 31..127 are not errors of its own).
const LAST_ERROR: u8 = 30;

impl Machine {
    /// The addresses `watch_real_kernal` looks at, as the RAM vectors name them now.
    pub(crate) fn real_kernal_targets(&self) -> [u16; 5] {
        let [chrout, error, getin, chrin] =
            [IBSOUT, IERROR, IGETIN, IBASIN].map(|vector| peek16(&self.bus, vector));
        [chrout, error, getin, chrin, crate::basic_run::CHRIN_ENTRY]
    }

    /// At an instruction's address, before it runs: records what the real KERNAL's CHROUT
    /// is about to print and the error BASIC is about to report; says when a wait for a key
    /// can never end.
    pub(crate) fn watch_real_kernal(&mut self) -> Option<StopReason> {
        let pc = self.cpu.pc;
        // Most instructions the exact path steps are none of these (I/O, interrupts).
        if !self.real_kernal_targets().contains(&pc) {
            return None;
        }
        // An interrupt taken here runs the entry again after its RTI: one byte, one record.
        let runs_now = !self.cpu.takes_interrupt_next();
        if runs_now && pc == peek16(&self.bus, IBSOUT) && self.bus.ram[DFLTO as usize] == SCREEN {
            self.kernal.transcript.push(self.cpu.a);
            let sets = crate::text_screen::shows_lowercase_rom(&self.bus);
            self.kernal.transcript_sets.push(sets);
        }
        let error = self.cpu.x;
        if runs_now && pc == peek16(&self.bus, IERROR) && (1..=LAST_ERROR).contains(&error) {
            // The table is in the ROM: read as the CPU reads it (boot::peek16 reads RAM).
            let entry = ERROR_MESSAGES + 2 * (u16::from(error) - 1);
            let at = u16::from_le_bytes([self.bus.peek(entry), self.bus.peek(entry + 1)]);
            self.kernal.note_error(&self.bus, at);
        }
        if pc == crate::basic_run::CHRIN_ENTRY
            && !self.bus.input.is_exhausted()
            && self.basic_waits_for_a_line()
        {
            self.kernal.forget_error();
        }
        let ram = &self.bus.ram;
        let from_keyboard = ram[DFLTN as usize] == 0;
        let nothing_typed = ram[NDX as usize] == 0 && self.bus.input.is_exhausted();
        let asks = from_keyboard && ram[NDX as usize] == 0;
        let editor_idle = ram[CRSW as usize] == 0;
        if from_keyboard && pc == peek16(&self.bus, IGETIN) {
            if asks {
                self.bus.input.program_asks();
            }
            return self.kernal.real_getin(!nothing_typed);
        }
        if asks && editor_idle && pc == peek16(&self.bus, IBASIN) {
            self.bus.input.program_asks();
        }
        if from_keyboard
            && nothing_typed
            && pc == peek16(&self.bus, IBASIN)
            && editor_idle
            && self.kernal.stops_when_input_is_exhausted()
            && !self.basic_waits_for_a_line()
        {
            return Some(StopReason::InputExhausted);
        }
        None
    }
}
