//! The state a program finds when c64kit RUNs it: that of a real PAL C64 after power-on, the
//! KERNAL's reset (IOINIT, RAMTAS, RESTOR, CINT), BASIC's cold start, `LOAD"NAME",8,1` from
//! drive 8 and BASIC's RUN up to the SYS. The reference is a real C64 at that point, as VICE's
//! test program C64/autostart/defaults records it (refio.s, refmem.s; x64sc matches it).
//! What c64kit leaves out on purpose: the start-up banner and the typed LOAD and RUN lines
//! (programs start on a clear screen, cursor home), and BASIC's scratch values from parsing
//! those lines (FAC, INDEX, the temporary string stack).

use crate::kernal::rom::RAM_VECTORS;
use crate::kernal::vars::*;
use crate::kernal::{Kernal, Trap};
use crate::memory::{C64Bus, PORT_DATA_POWER_ON, PORT_DDR_POWER_ON};
use crate::pla::Region;
use c64kit_basic::{NoSys, SysStatement};
use c64kit_cpu::Cpu;

/// BASIC's memory top with the BASIC ROM in: the start of the ROM.
pub const BASIC_MEMORY_TOP: u16 = 0xA000;
/// Where BASIC programs start.
pub const BASIC_START: u16 = 0x0801;
/// The stack pointer in a routine started by SYS from a running program: BASIC resets S to
/// $FA at RUN, the statement loop's return address and SYS's return address ($E146, so RTS
/// lands on $E147) are on the stack.
pub const SYS_STACK_POINTER: u8 = 0xF6;
/// Where a routine SYS called returns to: SYS pushed $E146, so its RTS lands on $E147 (in
/// Commodore's KERNAL and ours: BASIC's part of it), with S back at [`SYS_STACK_POINTER`] + 2.
pub const SYS_RETURN: u16 = 0xE147;
/// SYS's register save area: SAREG, SXREG, SYREG, SPREG (A, X, Y, P on entry and, after
/// the routine's RTS, on return).
pub const SYS_REGISTERS: u16 = 0x030C;

/// The stack from $01F7 up as SYS enters a routine: SYS's return address ($E146: RTS lands
/// on $E147), the statement loop's ($A7E9: GONE's `JSR $A7ED` at $A7E7), then what earlier
/// calls left above BASIC's stack: the high byte of a return into the statement loop, CLR's
/// call of RESTORE ($A679) and the cold start's call of the banner printer ($E39C).
const SYS_STACK: [u8; 9] = [0x46, 0xE1, 0xE9, 0xA7, 0xA7, 0x79, 0xA6, 0x9C, 0xE3];

/// CINT's VIC-II table ($ECB9), written to $D000-$D02E: sprites off at 0,0; text mode, 25
/// rows, raster compare 311 (CINT's PAL test waits for it); 40 columns; screen $0400 and
/// the upper-case set; border light blue, background blue; the multicolour and sprite
/// colours the KERNAL gives.
const VIC_INIT: [u8; 47] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // $D000 sprite positions
    0x00, 0x9B, 0x37, 0x00, 0x00, 0x00, 0x08, 0x00, // $D010
    0x14, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // $D018
    0x0E, 0x06, 0x01, 0x02, 0x03, 0x04, 0x00, 0x01, // $D020
    0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x4C, // $D028
];

/// BASIC's RAM vectors from its cold start (INITV): IERROR $E38B, IMAIN $A483, ICRNCH $A57C,
/// IQPLOP $A71A, IGONE $A7E4, IEVAL $AE86.
const BASIC_VECTOR_DEFAULTS: [u16; 6] = [0xE38B, MAIN_LOOP, 0xA57C, 0xA71A, 0xA7E4, 0xAE86];
/// BASIC's main loop (IMAIN's default, NMAIN): it starts with the JSR INLIN that reads a
/// direct line at `READY.`.
pub const MAIN_LOOP: u16 = 0xA483;
/// ADRAY1 and ADRAY2: BASIC's float-to-integer and integer-to-float routines.
const ADRAY_DEFAULTS: [u16; 2] = [0xB1AA, 0xB391];
/// USR's default target: ILLEGAL QUANTITY.
const USR_DEFAULT: u16 = 0xB248;
/// The JMP opcode BASIC keeps before the function vector and USR's address.
const JMP: u8 = 0x4C;
/// CHRGET as BASIC's cold start copies it into RAM: step TXTPTR, then CHRGOT (at $0079)
/// reads the byte there, skips spaces and sets C for a non-digit, Z for end of statement.
/// The LDA's operand (TXTPTR) is set by RUN.
const CHRGET_CODE: [u8; 24] = [
    0xE6, 0x7A, // INC TXTPTR
    0xD0, 0x02, // BNE CHRGOT
    0xE6, 0x7B, // INC TXTPTR+1
    0xAD, 0x00, 0x00, // CHRGOT: LDA (TXTPTR)
    0xC9, 0x3A, // CMP #':'
    0xB0, 0x0A, // BCS done
    0xC9, 0x20, // CMP #' '
    0xF0, 0xEF, // BEQ CHRGET
    0x38, 0xE9, 0x30, // SEC; SBC #'0'
    0x38, 0xE9, 0xD0, // SEC; SBC #$D0
    0x60, // done: RTS
];
/// RND's seed from the cold start.
const RND_SEED: [u8; 5] = [0x80, 0x4F, 0xC7, 0x52, 0x58];
/// FOUR6: the garbage collector's descriptor step.
const FOUR6_DEFAULT: u8 = 3;

/// What `LOAD"NAME",8,1` leaves: logical file 1 (BASIC's LOAD passes the secondary address
/// as both), the secondary address OPEN makes of it ($60, channel 0), and ST with EOI (the
/// file was read to its end).
const LOAD_LA: u8 = 1;
const LOAD_SA: u8 = 0x60;
const LOAD_STATUS: u8 = ST_EOI;
/// The serial bus routines' own bytes after LOAD's last command. LISTEN and TALK, sending a
/// byte CIOUT held back, set the flags' bit 7 and shift them right when done (C3PO, R2D2:
/// $40); sending a byte rotates the DATA line, released by the drive, into BSOUR eight times.
const SERIAL_FLAGS_SENT: u8 = 0x40;
const SERIAL_BSOUR_SENT: u8 = 0xFF;
/// Sending a byte starts CIA 1 timer B for the drive's 1 ms acknowledge: high byte $04
/// (the low byte keeps the power-on $FF), one-shot, so it ends stopped at $04FF.
const SERIAL_TIMER_B_HIGH: u8 = 0x04;
/// CIA 2 port A after the serial routines release ATN, CLK and DATA: VIC bank 0, RS-232 TXD
/// high, and bits 6-7 (CLK and DATA in, high on an idle bus) copied in by their
/// read-modify-writes.
const CIA2_PORT_A_IDLE_BUS: u8 = 0xC7;

/// Power-on plus everything up to RUN: the KERNAL's reset, BASIC's cold start, the LOAD from
/// drive 8 and the program-independent part of RUN. RAM itself powers on in VICE's pattern
/// ([`crate::memory::power_on_ram`]).
pub fn power_on(bus: &mut C64Bus, kernal: &mut Kernal) {
    kernal_reset(bus, kernal);
    basic_cold_start(bus);
    loaded_from_drive(bus);
    // The system IRQ has scanned the keyboard: no STOP key, no key down at the last scan
    // or now (RAMTAS left 0 in both until the first scan).
    bus.ram[STKEY as usize] = 0xFF;
    bus.ram[LSTX as usize] = c64kit_basic::keyboard::NO_KEY;
    bus.ram[SFDX as usize] = c64kit_basic::keyboard::NO_KEY;
    // RUN: the text pointer and READ start before the program; no temporary strings.
    poke16(bus, TXTPTR, BASIC_START - 1);
    poke16(bus, DATPTR, BASIC_START - 1);
    bus.ram[TEMPPT as usize] = TEMPST;
}

/// Power-on and the KERNAL's reset (IOINIT, RAMTAS, RESTOR, CINT), up to where the real
/// reset enters BASIC (CLI, then JMP through the cold start vector at $A000): what a BASIC
/// image's own cold start finds.
pub fn kernal_reset(bus: &mut C64Bus, kernal: &mut Kernal) {
    for trap in [Trap::Ioinit, Trap::Ramtas, Trap::Restor] {
        kernal_state(trap, bus);
    }
    kernal.reset_screen(bus);
    cint_chips(bus);
}

/// What IOINIT, RAMTAS and RESTOR set up, and CINT's (and its screen part's) work on the
/// chips (the screen editor's part is the caller's).
pub fn kernal_state(trap: Trap, bus: &mut C64Bus) {
    match trap {
        Trap::Ioinit => ioinit(bus),
        Trap::Cint => cint_chips(bus),
        Trap::ScreenInit => vic_init(bus),
        Trap::Ramtas => ramtas(bus),
        Trap::Restor => {
            for (at, target) in RAM_VECTORS {
                poke16(bus, at, target);
            }
        }
        _ => {}
    }
}

/// IOINIT ($FDA3) with its tail ($FDDD, $FF6E, $EE8E), in the real routine's order.
fn ioinit(bus: &mut C64Bus) {
    let writes: &[(u16, u8)] = &[
        // All interrupts off; keyboard columns idle; every timer stopped, one-shot.
        (0xDC0D, 0x7F),
        (0xDD0D, 0x7F),
        (0xDC00, 0x7F),
        (0xDC0E, 0x08),
        (0xDD0E, 0x08),
        (0xDC0F, 0x08),
        (0xDD0F, 0x08),
        // Port B of both CIAs input, SID silent, keyboard columns output.
        (0xDC03, 0x00),
        (0xDD03, 0x00),
        (0xD418, 0x00),
        (0xDC02, 0xFF),
        // CIA 2: VIC bank 0 ($0000-$3FFF), serial bus lines released.
        (0xDD00, 0x07),
        (0xDD02, 0x3F),
        // The 6510 port: BASIC, KERNAL and I/O in. The KERNAL writes $E7; bits 6-7 are not
        // on the chip and have faded to 0 by the time a program looks ($37).
        (0x0001, PORT_DATA_POWER_ON),
        (0x0000, PORT_DDR_POWER_ON),
    ];
    for &(addr, v) in writes {
        bus.poke(addr, v);
    }
    system_timer(bus);
    // CLKLO: assert the serial CLK line, a read-modify-write of port A.
    let port_a = bus.peek(0xDD00);
    bus.poke(0xDD00, port_a | 0x10);
    bus.interrupts_changed();
}

/// RAMTAS ($FD50): clears pages 0, 2 and 3 (the real loop's `STA $0002,Y` reaches $0101),
/// then tests memory from $0400 up with $55 and $AA, putting each byte back, until a byte
/// does not read back: the first ROM byte, whose RAM keeps the $55. There memory ends.
fn ramtas(bus: &mut C64Bus) {
    bus.ram[0x0002..=0x0101].fill(0);
    bus.ram[0x0200..0x0400].fill(0);
    poke16(bus, TAPE1, 0x033C);
    // With no ROM banked in, the test's page counter wraps round to $0000. At I/O c64kit
    // stops at once (the real test writes into the chip registers until one differs).
    let top = (0x04..=0xFFu16)
        .map(|page| page << 8)
        .find(|&a| bus.region(a) != Region::Ram)
        .unwrap_or(0);
    if !matches!(bus.region(top), Region::Ram | Region::Io) {
        bus.ram[top as usize] = 0x55;
    }
    poke16(bus, STAL, top);
    poke16(bus, MEMSTR, 0x0800);
    poke16(bus, MEMSIZ, top);
    bus.ram[HIBASE as usize] = 0x04;
}

/// The tail IOINIT and CINT share ($FDDD, $FF6E): CIA 1 timer A as the system IRQ, its
/// latch a 60th of a second as CINT's PAL/NTSC flag chooses it ($4025 PAL, $4295 NTSC: the
/// VIC-II model's table), started continuous, its interrupt on (the TOD frequency bit kept).
fn system_timer(bus: &mut C64Bus) {
    let latch = bus.vic.model().facts().kernal_irq_latch;
    bus.poke(0xDC04, latch as u8);
    bus.poke(0xDC05, (latch >> 8) as u8);
    bus.poke(0xDC0D, 0x81);
    let cra = bus.peek(0xDC0E);
    bus.poke(0xDC0E, cra & 0x80 | 0x11);
}

/// The VIC-II table ($E5A0's loop), written from $D02E down as the KERNAL does.
fn vic_init(bus: &mut C64Bus) {
    for (reg, &v) in VIC_INIT.iter().enumerate().rev() {
        bus.poke(0xD000 + reg as u16, v);
    }
    bus.interrupts_changed();
}

/// CINT's ($FF5B) work on the chips: the VIC-II table, the PAL flag its raster test finds
/// and the system timer.
fn cint_chips(bus: &mut C64Bus) {
    vic_init(bus);
    // CINT waits for raster line 311, which only a PAL chip reaches.
    bus.ram[PALNTS as usize] = bus.vic.model().facts().kernal_pal_flag;
    system_timer(bus);
    bus.interrupts_changed();
}

/// BASIC's cold start (INIT, $E394): its RAM vectors, CHRGET, RND's seed, the program and
/// string space, then the banner, whose "38911 BASIC BYTES FREE" stays in FOUT's buffer.
fn basic_cold_start(bus: &mut C64Bus) {
    for (i, &v) in BASIC_VECTOR_DEFAULTS.iter().enumerate() {
        poke16(bus, BASIC_VECTORS + 2 * i as u16, v);
    }
    bus.ram[JMPER as usize] = JMP;
    bus.ram[USRPOK as usize] = JMP;
    poke16(bus, USRPOK + 1, USR_DEFAULT);
    poke16(bus, ADRAY1, ADRAY_DEFAULTS[0]);
    poke16(bus, ADRAY2, ADRAY_DEFAULTS[1]);
    let chrget = CHRGET as usize;
    bus.ram[chrget..chrget + CHRGET_CODE.len()].copy_from_slice(&CHRGET_CODE);
    let rndx = RNDX as usize;
    bus.ram[rndx..rndx + RND_SEED.len()].copy_from_slice(&RND_SEED);
    bus.ram[FOUR6 as usize] = FOUR6_DEFAULT;
    bus.ram[BASIC_START as usize - 1] = 0;
    poke16(bus, TXTTAB, BASIC_START);
    for at in [FRETOP, FRESPC, BASIC_MEMSIZ] {
        poke16(bus, at, BASIC_MEMORY_TOP);
    }
    let free = format!(" {}", BASIC_MEMORY_TOP - BASIC_START);
    let at = FOUT_BUFFER as usize;
    bus.ram[at..at + free.len()].copy_from_slice(free.as_bytes());
    bus.ram[at + free.len()] = 0;
}

/// What `LOAD"NAME",8,1` from drive 8 leaves that does not depend on the program: the file
/// parameters, ST, LOAD's X/Y (BASIC passes TXTTAB), and the serial bus routines' traces in
/// RAM and the CIAs.
pub(crate) fn loaded_from_drive(bus: &mut C64Bus) {
    bus.ram[LA as usize] = LOAD_LA;
    bus.ram[FA as usize] = DRIVE;
    bus.ram[SA as usize] = LOAD_SA;
    bus.ram[STATUS as usize] = LOAD_STATUS;
    bus.ram[VERCK as usize] = 0;
    poke16(bus, MEMUSS, BASIC_START);
    bus.ram[C3PO as usize] = SERIAL_FLAGS_SENT;
    bus.ram[R2D2 as usize] = SERIAL_FLAGS_SENT;
    bus.ram[BSOUR as usize] = SERIAL_BSOUR_SENT;
    // Timer B as the last byte sent left it: loaded with $04FF, one-shot, run out (stopped).
    bus.poke(0xDC07, SERIAL_TIMER_B_HIGH);
    bus.poke(0xDC0F, 0x18); // one-shot, force load, not started
    bus.poke(0xDD00, CIA2_PORT_A_IDLE_BUS);
    bus.interrupts_changed();
}

/// The file name LOAD was given, as it leaves it: BASIC copies the quoted name from the
/// input line to the top of string space (just under MEMSIZ, where RUN's CLR leaves it) and
/// LOAD keeps its address and length in FNADR and FNLEN. For front ends that know the name
/// the program was loaded by (its name on drive 8); at most 255 bytes are kept. The name
/// was there before the program came in, so where a loaded program (up to VARTAB) reaches
/// it, the program's bytes stay.
pub fn set_load_name(bus: &mut C64Bus, name: &[u8]) {
    let name = &name[..name.len().min(u8::MAX as usize)];
    let at = BASIC_MEMORY_TOP - name.len() as u16;
    let program_end = u16::from_le_bytes([bus.ram[VARTAB as usize], bus.ram[VARTAB as usize + 1]]);
    for (addr, &b) in (at..).zip(name) {
        if addr >= program_end {
            bus.ram[addr as usize] = b;
        }
    }
    poke16(bus, FNADR, at);
    bus.ram[FNLEN as usize] = name.len() as u8;
}

/// BASIC's RUN up to the SYS: BASIC pointers for a program ending at `program_end` (which is
/// where LOAD ended: EAL, and the last byte it read is the serial routines' BSOUR1), LINNUM
/// holding the SYS address (programs can observe it), the line being run and the text
/// pointer when the SYS is in the BASIC program, the stack as SYS leaves it, and the
/// registers from SAREG/SXREG/SYREG/SPREG ($030C-$030F, all zero after RUN).
///
/// `into_basic`: the routine's RTS goes back into SYS's code ($E147) and BASIC goes on with
/// the next statement, as RUN's SYS does; otherwise, on our KERNAL, it lands on the trap
/// that ends the call ([`Trap::ReturnToBasic`]), as a routine called on its own ends.
pub fn enter_sys(cpu: &mut Cpu, bus: &mut C64Bus, sys: u16, program_end: u16, into_basic: bool) {
    set_run_pointers(bus, program_end);
    let statement = sys_statement(bus, program_end).filter(|s| s.address == sys);
    bus.ram[0x01F7..0x0200].copy_from_slice(&SYS_STACK);
    if !into_basic && bus.roms.trap_kernal {
        let [lo, hi] = Trap::ReturnToBasic.address().wrapping_sub(1).to_le_bytes();
        bus.ram[0x01F7..0x01F9].copy_from_slice(&[lo, hi]);
    }
    cpu.s = SYS_STACK_POINTER;
    call_sys(cpu, bus, sys, statement);
}

/// SYS's call: LINNUM holds the address; where the SYS is in the program, the line being
/// run and the text pointer as SYS leaves them; the registers from SAREG/SXREG/SYREG/SPREG.
fn call_sys(cpu: &mut Cpu, bus: &mut C64Bus, sys: u16, statement: Option<SysStatement>) {
    poke16(bus, LINNUM, sys);
    if let Some(statement) = statement {
        poke16(bus, CURLIN, statement.line);
        // OLDTXT: the byte before the line (the previous line's $00, or TXTTAB - 1).
        poke16(bus, OLDTXT, statement.line_address.wrapping_sub(1));
        poke16(bus, TXTPTR, statement.after_argument);
    }
    let regs = SYS_REGISTERS as usize;
    cpu.a = bus.ram[regs];
    cpu.x = bus.ram[regs + 1];
    cpu.y = bus.ram[regs + 2];
    cpu.set_p(bus.ram[regs + 3]);
    cpu.pc = sys;
    cpu.jammed = false;
}

/// BASIC's pointers as LOAD and RUN leave them for a program ending at `program_end` (what
/// a SYS argument's PEEKs see).
pub fn set_run_pointers(bus: &mut C64Bus, program_end: u16) {
    poke16(bus, TXTTAB, BASIC_START);
    for at in [VARTAB, ARYTAB, STREND] {
        poke16(bus, at, program_end);
    }
    for at in [FRETOP, FRESPC, BASIC_MEMSIZ] {
        poke16(bus, at, BASIC_MEMORY_TOP);
    }
    set_load_end(bus, program_end);
}

/// What the KERNAL's LOAD leaves behind for a program that ended at `program_end`: EAL
/// ($AE/$AF) just after its last byte, and that byte in BSOUR1 (the serial routines' last
/// byte received). Programs read them after RUN (VICE's C64/autostart/basic tests PEEK
/// $AE/$AF).
pub fn set_load_end(bus: &mut C64Bus, program_end: u16) {
    poke16(bus, EAL, program_end);
    bus.ram[BSOUR1 as usize] = bus.ram[program_end.wrapping_sub(1) as usize];
}

/// The SYS RUN executes first in the BASIC program in RAM from BASIC_START to
/// `program_end`.
fn sys_statement(bus: &C64Bus, program_end: u16) -> Option<SysStatement> {
    basic_program_sys(bus, BASIC_START, program_end).ok()
}

/// The SYS RUN executes first in the BASIC program in RAM from `start` to `end`, found and
/// evaluated as [`c64kit_basic::find_sys`] does.
fn basic_program_sys(bus: &C64Bus, start: u16, end: u16) -> Result<SysStatement, NoSys> {
    let end = end.max(start) as usize;
    let mut image = start.to_le_bytes().to_vec();
    image.extend_from_slice(&bus.ram[start as usize..end]);
    c64kit_basic::find_sys(&image, |a| bus.peek(a))
}

/// A little-endian word from RAM.
pub(crate) fn peek16(bus: &C64Bus, at: u16) -> u16 {
    u16::from_le_bytes([bus.ram[at as usize], bus.ram[at as usize + 1]])
}

/// A little-endian word into RAM (KERNAL and BASIC pointers).
pub(crate) fn poke16(bus: &mut C64Bus, at: u16, v: u16) {
    bus.ram[at as usize] = v as u8;
    bus.ram[at as usize + 1] = (v >> 8) as u8;
}
