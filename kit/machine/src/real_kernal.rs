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
//!   GETIN's entry is watched only while one of those can happen
//!   (`Machine::getin_watch_needed`): a game polling GETIN while keys are still to come
//!   runs on the direct path.
//!
//! The vectors live in RAM page 3 and programs change them: the direct path leaves every
//! write to that page to an exact step (`C64Bus::guard_writes`), after which the run loop
//! watches the pages the vectors name then (`Machine::real_kernal_vectors_changed`). The
//! targets are worked out again only when the vectors' bytes differ from those they were
//! worked out from (`RealKernalTargets`), which holds however the bytes were written (an
//! exact step, the checked loop, a serial trap's LOAD, a front end's poke).

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

/// The vectors' bytes `watch_real_kernal` depends on: IBASIN to IGETIN ($0324-$032B, ISTOP
/// between them) as one word, and IERROR.
type VectorBytes = (u64, u16);

fn vector_bytes(ram: &[u8; 0x10000]) -> VectorBytes {
    let chrin_to_getin = u64::from_le_bytes(ram[IBASIN as usize..][..8].try_into().unwrap());
    let error = u16::from_le_bytes([ram[IERROR as usize], ram[IERROR as usize + 1]]);
    (chrin_to_getin, error)
}

/// The addresses `watch_real_kernal` looks at (CHROUT's, IERROR's, GETIN's and CHRIN's
/// targets and `CHRIN_ENTRY`), kept with the vector bytes they were worked out from: looking
/// at every exact step whether the vectors changed costs two reads, working the targets out
/// again four vector reads (about 8 M host instructions in a 40 M-cycle RYG3 run).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RealKernalTargets {
    from: VectorBytes,
    at: [u16; 5],
}

impl RealKernalTargets {
    /// The targets of vectors that are all zero (RAM before the KERNAL's reset set them).
    pub(crate) fn new() -> Self {
        let mut t = RealKernalTargets {
            from: (0, 0),
            at: [0; 5],
        };
        t.work_out();
        t
    }

    fn work_out(&mut self) {
        let (chrin_to_getin, error) = self.from;
        // IBASIN at $0324, IBSOUT at $0326, IGETIN at $032A: bytes 0, 2 and 6 of the word.
        let word = |offset: u16| (chrin_to_getin >> (8 * (offset - IBASIN))) as u16;
        self.at = [
            word(IBSOUT),
            error,
            word(IGETIN),
            word(IBASIN),
            crate::basic_run::CHRIN_ENTRY,
        ];
    }

    /// Looks at the vectors' bytes: true (and the targets worked out again) if they changed.
    fn changed(&mut self, ram: &[u8; 0x10000]) -> bool {
        let now = vector_bytes(ram);
        if now == self.from {
            return false;
        }
        self.from = now;
        self.work_out();
        true
    }
}

impl Machine {
    /// The addresses `watch_real_kernal` looks at, as the RAM vectors name them now.
    pub(crate) fn real_kernal_targets(&mut self) -> [u16; 5] {
        self.real_targets.changed(&self.bus.ram);
        self.real_targets.at
    }

    /// Whether the watch must look at GETIN's entry: only while the script is used up (a
    /// poll finding nothing counts towards "input exhausted") or a `{WAITINPUT}` is at its
    /// front (the program's ask releases it); otherwise a poll there changes nothing, and a
    /// program polling GETIN while the typist types runs on the direct path.
    pub(crate) fn getin_watch_needed(&self) -> bool {
        self.bus.input.is_exhausted() || self.bus.input.waits_for_an_ask()
    }

    /// Whether the vectors' targets changed since they were last looked at (the run loop
    /// then watches their pages).
    pub(crate) fn real_kernal_vectors_changed(&mut self) -> bool {
        self.real_targets.changed(&self.bus.ram)
    }

    /// At an instruction's address, before it runs: records what the real KERNAL's CHROUT
    /// is about to print and the error BASIC is about to report; says when a wait for a key
    /// can never end.
    pub(crate) fn watch_real_kernal(&mut self) -> Option<StopReason> {
        let pc = self.cpu.pc;
        let targets = self.real_kernal_targets();
        // Most instructions the exact path steps are none of these (I/O, interrupts).
        if !targets.contains(&pc) {
            return None;
        }
        let [chrout, error_entry, getin, chrin, _] = targets;
        // An interrupt taken here runs the entry again after its RTI: one byte, one record.
        let runs_now = !self.cpu.takes_interrupt_next();
        if runs_now && pc == chrout && self.bus.ram[DFLTO as usize] == SCREEN {
            self.kernal.transcript.push(self.cpu.a);
            let sets = crate::text_screen::shows_lowercase_rom(&self.bus);
            self.kernal.transcript_sets.push(sets);
        }
        let error = self.cpu.x;
        if runs_now && pc == error_entry && (1..=LAST_ERROR).contains(&error) {
            // The table is in the ROM: read as the CPU reads it (boot::peek16 reads RAM).
            let table = self.basic_entry("ERRTAB", ERROR_MESSAGES);
            let entry = table + 2 * (u16::from(error) - 1);
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
        if from_keyboard && pc == getin {
            if asks {
                self.bus.input.program_asks();
            }
            return self.kernal.real_getin(!nothing_typed);
        }
        if asks && editor_idle && pc == chrin {
            self.bus.input.program_asks();
        }
        if from_keyboard
            && nothing_typed
            && pc == chrin
            && editor_idle
            && self.kernal.stops_when_input_is_exhausted()
            && !self.basic_waits_for_a_line()
        {
            return Some(StopReason::InputExhausted);
        }
        None
    }
}
