//! The KERNAL without a ROM: our image (`rom`) routes each routine to a trap, and the
//! handlers here do in Rust what the real routine does, leaving registers, flags and the
//! KERNAL's RAM variables as it would.

pub mod rom;
mod traps;

pub use traps::{Kernal, TrapOutcome};

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
    /// Where RTS from a program started with SYS lands.
    ReturnToBasic,
    /// The RESET entry.
    Reset,
}

impl Trap {
    pub const ALL: [Trap; 44] = {
        use Trap::*;
        [
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
            IrqDefault,
            NmiDefault,
            BrkDefault,
            ReturnToBasic,
            Reset,
        ]
    };

    /// The routine's address in the real KERNAL (and in our image).
    pub const fn address(self) -> u16 {
        use Trap::*;
        match self {
            Chrout => 0xF1CA,
            Getin => 0xF13E,
            Chrin => 0xF157,
            Open => 0xF34A,
            Close => 0xF291,
            Chkin => 0xF20E,
            Chkout => 0xF250,
            Clrchn => 0xF333,
            Clall => 0xF32F,
            Stop => 0xF6ED,
            Load => 0xF4A5,
            Save => 0xF5ED,
            Plot => 0xE50A,
            Scnkey => 0xEA87,
            Rdtim => 0xF6DD,
            Settim => 0xF6E4,
            Udtim => 0xF69B,
            Setlfs => 0xFE00,
            Setnam => 0xFDF9,
            Readst => 0xFE07,
            Cint => 0xFF5B,
            Ioinit => 0xFDA3,
            Ramtas => 0xFD50,
            Restor => 0xFD15,
            Vector => 0xFD1A,
            Memtop => 0xFE25,
            Membot => 0xFE34,
            Screen => 0xE505,
            Iobase => 0xE500,
            Setmsg => 0xFE18,
            Settmo => 0xFE21,
            Second => 0xEDB9,
            Tksa => 0xEDC7,
            Acptr => 0xEE13,
            Ciout => 0xEDDD,
            Untlk => 0xEDEF,
            Unlsn => 0xEDFE,
            Listen => 0xED0C,
            Talk => 0xED09,
            IrqDefault => 0xEA31,
            NmiDefault => 0xFE4C,
            BrkDefault => 0xFE66,
            ReturnToBasic => 0xE147,
            Reset => 0xFCE2,
        }
    }

    /// The trap whose entry is `addr`.
    pub fn at(addr: u16) -> Option<Trap> {
        Trap::ALL.into_iter().find(|t| t.address() == addr)
    }

    /// The name C64 programmers know the routine by.
    pub fn name(self) -> &'static str {
        use Trap::*;
        match self {
            Chrout => "CHROUT",
            Getin => "GETIN",
            Chrin => "CHRIN",
            Open => "OPEN",
            Close => "CLOSE",
            Chkin => "CHKIN",
            Chkout => "CHKOUT",
            Clrchn => "CLRCHN",
            Clall => "CLALL",
            Stop => "STOP",
            Load => "LOAD",
            Save => "SAVE",
            Plot => "PLOT",
            Scnkey => "SCNKEY",
            Rdtim => "RDTIM",
            Settim => "SETTIM",
            Udtim => "UDTIM",
            Setlfs => "SETLFS",
            Setnam => "SETNAM",
            Readst => "READST",
            Cint => "CINT",
            Ioinit => "IOINIT",
            Ramtas => "RAMTAS",
            Restor => "RESTOR",
            Vector => "VECTOR",
            Memtop => "MEMTOP",
            Membot => "MEMBOT",
            Screen => "SCREEN",
            Iobase => "IOBASE",
            Setmsg => "SETMSG",
            Settmo => "SETTMO",
            Second => "SECOND",
            Tksa => "TKSA",
            Acptr => "ACPTR",
            Ciout => "CIOUT",
            Untlk => "UNTLK",
            Unlsn => "UNLSN",
            Listen => "LISTEN",
            Talk => "TALK",
            IrqDefault => "IRQ handler",
            NmiDefault => "NMI handler",
            BrkDefault => "BRK handler",
            ReturnToBasic => "BASIC (return from SYS)",
            Reset => "RESET",
        }
    }
}
