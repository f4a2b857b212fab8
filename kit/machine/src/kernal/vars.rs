//! The KERNAL's RAM variables, status bits and error numbers (names from the C64 memory map
//! and the KERNAL source): the C64 facts the trap handlers share.

pub const TIME: u16 = 0x00A0; // jiffy clock, 3 bytes, high first
pub const STATUS: u16 = 0x0090; // ST
pub const STKEY: u16 = 0x0091; // keyboard row of the STOP key, as the IRQ last read it
pub const C3PO: u16 = 0x0094; // serial bus: bit 7 = a byte waits in BSOUR
pub const BSOUR: u16 = 0x0095; // serial bus: the byte to send (shifted out bit by bit)
pub const VERCK: u16 = 0x0093; // LOAD: 0 load, else verify
pub const LDTND: u16 = 0x0098; // how many files are open
pub const DFLTN: u16 = 0x0099; // current input device
pub const DFLTO: u16 = 0x009A; // current output device
pub const MSGFLG: u16 = 0x009D; // bit 7: control messages, bit 6: error messages
pub const R2D2: u16 = 0x00A3; // serial bus: bit 7 = send the next byte with EOI
pub const BSOUR1: u16 = 0x00A4; // serial bus: the byte ACPTR last received
pub const SAL: u16 = 0x00AC; // SAVE's current address
pub const EAL: u16 = 0x00AE; // end address of LOAD and SAVE
pub const TAPE1: u16 = 0x00B2; // the tape buffer's address
pub const FNLEN: u16 = 0x00B7;
pub const LA: u16 = 0x00B8;
pub const SA: u16 = 0x00B9;
pub const FA: u16 = 0x00BA;
pub const FNADR: u16 = 0x00BB;
pub const STAL: u16 = 0x00C1; // SAVE's start address; RAMTAS's memory-test pointer
pub const MEMUSS: u16 = 0x00C3; // LOAD's address when SA = 0
pub const LSTX: u16 = 0x00C5; // the keyboard scan: the key down at the last scan (64: none)
pub const NDX: u16 = 0x00C6; // keys in the buffer
pub const SFDX: u16 = 0x00CB; // the keyboard scan: the key down now (64: none)
pub const USER: u16 = 0x00F3; // colour RAM pointer of the cursor's line (SCOLOR sets it)
pub const LAT: u16 = 0x0259; // logical file numbers of the open files
pub const FAT: u16 = 0x0263; // their devices
pub const SAT: u16 = 0x026D; // their secondary addresses (ORed with $60)
pub const KEYD: u16 = 0x0277; // keyboard buffer
pub const MEMSTR: u16 = 0x0281;
pub const MEMSIZ: u16 = 0x0283;
pub const TIMOUT: u16 = 0x0285;
pub const HIBASE: u16 = 0x0288; // page of screen RAM
pub const XMAX: u16 = 0x0289; // keyboard buffer size
pub const RPTFLG: u16 = 0x028A; // key repeat: bit 7 all keys, bit 6 none
pub const SHFLAG: u16 = 0x028D; // the modifiers down now: 1 SHIFT, 2 C=, 4 CTRL
pub const LSTSHF: u16 = 0x028E; // SHFLAG when LSTX was last set
pub const PALNTS: u16 = 0x02A6; // 1 = PAL, 0 = NTSC (CINT measures it)

/// BASIC's variables, for the state BASIC's cold start and RUN leave (names from the BASIC
/// source and "Mapping the Commodore 64").
pub const ADRAY1: u16 = 0x0003; // vector: float to integer ($B1AA)
pub const ADRAY2: u16 = 0x0005; // vector: integer to float ($B391)
pub const LINNUM: u16 = 0x0014; // line number or address (SYS's)
pub const SUBFLG: u16 = 0x0010; // subscripts allowed (CLR clears it)
pub const TEMPPT: u16 = 0x0016; // next free temporary string descriptor
pub const TEMPST: u8 = 0x19; // TEMPPT when the temporary string stack ($19-$21) is empty
pub const INDEX: u16 = 0x0022; // a pointer (LNKPRG leaves it on the last line's end)
pub const TXTTAB: u16 = 0x002B; // start of the BASIC program
pub const VARTAB: u16 = 0x002D; // start of variables (end of the program)
pub const ARYTAB: u16 = 0x002F; // start of arrays
pub const STREND: u16 = 0x0031; // end of arrays
pub const FRETOP: u16 = 0x0033; // bottom of string space
pub const FRESPC: u16 = 0x0035; // the string last made
pub const BASIC_MEMSIZ: u16 = 0x0037; // top of BASIC's memory
pub const CURLIN: u16 = 0x0039; // the line being run
pub const OLDTXT: u16 = 0x003D; // where the statement being run starts (CONT)
pub const DATPTR: u16 = 0x0041; // where READ goes on
pub const FOUR6: u16 = 0x0053; // garbage collection's step
pub const JMPER: u16 = 0x0054; // a JMP opcode and its address: the function dispatch
pub const CHRGET: u16 = 0x0073; // the routine reading BASIC text
pub const TXTPTR: u16 = 0x007A; // the text pointer: CHRGET's LDA operand
pub const RNDX: u16 = 0x008B; // RND's seed, 5 bytes
pub const FOUT_BUFFER: u16 = 0x00FF; // number to text: sign, digits, $00
pub const BASIC_VECTORS: u16 = 0x0300; // IERROR, IMAIN, ICRNCH, IQPLOP, IGONE, IEVAL
pub const USRPOK: u16 = 0x0310; // USR's JMP and address

/// The file tables hold 10 files.
pub const MAX_FILES: u8 = 10;

/// Devices.
pub const KEYBOARD: u8 = 0;
pub const TAPE: u8 = 1;
pub const RS232: u8 = 2;
pub const SCREEN: u8 = 3;
/// The one serial device c64kit has: the disk drive.
pub const DRIVE: u8 = 8;

/// Bits of ST for serial devices.
pub const ST_READ_TIMEOUT: u8 = 0x02;
pub const ST_VERIFY_MISMATCH: u8 = 0x10;
pub const ST_EOI: u8 = 0x40;
pub const ST_DEVICE_NOT_PRESENT: u8 = 0x80;

/// The KERNAL's error numbers (A, with C set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoError {
    TooManyFiles = 1,
    FileOpen = 2,
    FileNotOpen = 3,
    FileNotFound = 4,
    DeviceNotPresent = 5,
    NotInputFile = 6,
    NotOutputFile = 7,
    MissingFileName = 8,
    IllegalDeviceNumber = 9,
}

/// The KERNAL's messages, printed when MSGFLG asks (the real table's text, in PETSCII).
pub const MSG_IO_ERROR: &[u8] = b"\rI/O ERROR #";
pub const MSG_SEARCHING: &[u8] = b"\rSEARCHING ";
pub const MSG_FOR: &[u8] = b"FOR ";
pub const MSG_LOADING: &[u8] = b"\rLOADING";
pub const MSG_VERIFYING: &[u8] = b"\rVERIFYING";
pub const MSG_SAVING: &[u8] = b"\rSAVING ";
