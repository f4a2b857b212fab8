//! The KERNAL without a ROM: our image (`rom`) routes each routine to a trap, and the
//! handlers here do in Rust what the real routine does, leaving registers, flags and the
//! KERNAL's RAM variables as it would.

mod io;
pub mod rom;
pub mod serial;
pub mod timing;
mod traps;
pub mod vars;

pub use traps::{AfterReturn, Kernal, TrapOutcome, DEFAULT_IDLE_POLL_LIMIT};

/// Every KERNAL routine we recognise, at the address the real KERNAL has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trap {
    Chrout,
    Getin,
    Chrin,
    Open,
    Close,
    Chkin,
    Chkout,
    Clrchn,
    Clall,
    Stop,
    Load,
    Save,
    Plot,
    Scnkey,
    Rdtim,
    Settim,
    Udtim,
    Setlfs,
    Setnam,
    Readst,
    Cint,
    Ioinit,
    Ramtas,
    Restor,
    Vector,
    Memtop,
    Membot,
    Screen,
    Iobase,
    Setmsg,
    Settmo,
    Second,
    Tksa,
    Acptr,
    Ciout,
    Untlk,
    Unlsn,
    Listen,
    Talk,
    /// The default IRQ handler ($EA31): clock, keyboard, acknowledge CIA 1; then $EA81.
    IrqDefault,
    /// Inside the default NMI handler, after the registers are saved.
    NmiDefault,
    /// The default BRK handler (the real one warm-starts BASIC).
    BrkDefault,
    /// Where RTS from a routine called as SYS calls it ([`Machine::start_at`], `--start`)
    /// lands: the end of the call (`rom::RETURN_FROM_CALL`).
    ReturnToBasic,
    /// The RESET entry.
    Reset,
    /// CINT's screen part ($E518): the VIC-II table, the screen editor's defaults, clear
    /// screen (CINT without the PAL test and system timer).
    ScreenInit,
    /// CINT's last part ($E536): text colour A, then clear the screen. Not a jump-table
    /// entry, but programs jump in with their own colour.
    ColourAndClear,
    /// CLSR ($E544): clear the screen and home the cursor (programs call it directly).
    ClearScreen,
    /// NXTD ($E566): home the cursor.
    Home,
    /// LP2 ($E5B4): take the first key from the keyboard buffer (GETIN's keyboard half;
    /// cc65's `cgetc` calls it as KBDREAD once NDX says a key waits).
    TakeKey,
    /// SCOLOR ($EA24): point the colour RAM pointer USER ($F3/$F4) at PNT's line (cc65's
    /// UPDCRAMPTR, called after every PLOT that moves the cursor: `gotoxy`, `cputcxy`).
    SyncColourPointer,
    /// The rest of a long routine's cycles, after an interrupt the CPU took during it (see
    /// `rom::RESUME`).
    Resume,
}

/// Each trap with the real KERNAL address of its routine and the name programmers know.
const TABLE: [(Trap, u16, &str); 51] = {
    use Trap::*;
    [
        (Chrout, 0xF1CA, "CHROUT"),
        (Getin, 0xF13E, "GETIN"),
        (Chrin, 0xF157, "CHRIN"),
        (Open, 0xF34A, "OPEN"),
        (Close, 0xF291, "CLOSE"),
        (Chkin, 0xF20E, "CHKIN"),
        (Chkout, 0xF250, "CHKOUT"),
        (Clrchn, 0xF333, "CLRCHN"),
        (Clall, 0xF32F, "CLALL"),
        (Stop, 0xF6ED, "STOP"),
        (Load, 0xF4A5, "LOAD"),
        (Save, 0xF5ED, "SAVE"),
        (Plot, 0xE50A, "PLOT"),
        (Scnkey, 0xEA87, "SCNKEY"),
        (Rdtim, 0xF6DD, "RDTIM"),
        (Settim, 0xF6E4, "SETTIM"),
        (Udtim, 0xF69B, "UDTIM"),
        (Setlfs, 0xFE00, "SETLFS"),
        (Setnam, 0xFDF9, "SETNAM"),
        (Readst, 0xFE07, "READST"),
        (Cint, 0xFF5B, "CINT"),
        (Ioinit, 0xFDA3, "IOINIT"),
        (Ramtas, 0xFD50, "RAMTAS"),
        (Restor, 0xFD15, "RESTOR"),
        (Vector, 0xFD1A, "VECTOR"),
        (Memtop, 0xFE25, "MEMTOP"),
        (Membot, 0xFE34, "MEMBOT"),
        (Screen, 0xE505, "SCREEN"),
        (Iobase, 0xE500, "IOBASE"),
        (Setmsg, 0xFE18, "SETMSG"),
        (Settmo, 0xFE21, "SETTMO"),
        (Second, 0xEDB9, "SECOND"),
        (Tksa, 0xEDC7, "TKSA"),
        (Acptr, 0xEE13, "ACPTR"),
        (Ciout, 0xEDDD, "CIOUT"),
        (Untlk, 0xEDEF, "UNTLK"),
        (Unlsn, 0xEDFE, "UNLSN"),
        (Listen, 0xED0C, "LISTEN"),
        (Talk, 0xED09, "TALK"),
        (IrqDefault, 0xEA31, "IRQ handler"),
        (NmiDefault, 0xFE4C, "NMI handler"),
        (BrkDefault, 0xFE66, "BRK handler"),
        (
            ReturnToBasic,
            rom::RETURN_FROM_CALL,
            "the end of a call (return from SYS)",
        ),
        (Reset, 0xFCE2, "RESET"),
        (ScreenInit, 0xE518, "CINT's screen part"),
        (ColourAndClear, 0xE536, "CINT's colour and clear"),
        (ClearScreen, 0xE544, "CLSR"),
        (Home, 0xE566, "NXTD"),
        (TakeKey, 0xE5B4, "LP2"),
        (SyncColourPointer, 0xEA24, "SCOLOR"),
        (
            Resume,
            rom::RESUME + 1,
            "(the rest of a KERNAL routine an interrupt broke into)",
        ),
    ]
};

impl Trap {
    /// Every KERNAL trap, in table order.
    pub fn all() -> impl Iterator<Item = Trap> {
        TABLE.iter().map(|e| e.0)
    }

    /// The routine's address in the real ROM (and in our image).
    pub fn address(self) -> u16 {
        TABLE.iter().find(|e| e.0 == self).map_or(0, |e| e.1)
    }

    /// The trap whose entry is `addr`.
    pub fn at(addr: u16) -> Option<Trap> {
        TABLE.iter().find(|e| e.1 == addr).map(|e| e.0)
    }

    /// The name C64 programmers know the routine by.
    pub fn name(self) -> &'static str {
        TABLE.iter().find(|e| e.0 == self).map_or("?", |e| e.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_trap_has_one_entry_and_a_distinct_address() {
        for (i, (t, a, _)) in TABLE.iter().enumerate() {
            assert_eq!(Trap::at(*a), Some(*t));
            assert!(
                TABLE[i + 1..].iter().all(|e| e.0 != *t && e.1 != *a),
                "{t:?}"
            );
        }
    }
}
