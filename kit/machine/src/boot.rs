//! The state a real C64 is in after power-on, and after BASIC's RUN reaches a SYS: what the
//! KERNAL's IOINIT, RAMTAS, RESTOR and CINT and BASIC's RUN leave in RAM and the chips.

use crate::kernal::rom::RAM_VECTORS;
use crate::kernal::{Kernal, Trap};
use crate::memory::{C64Bus, PORT_DATA_POWER_ON, PORT_DDR_POWER_ON};
use c64kit_cpu::Cpu;

/// BASIC's memory top with the BASIC ROM in: the start of the ROM.
pub const BASIC_MEMORY_TOP: u16 = 0xA000;
/// Where BASIC programs start.
pub const BASIC_START: u16 = 0x0801;
/// The stack pointer in a routine started by SYS from a running program: BASIC resets S to
/// $FA at RUN, the statement loop's return address and SYS's return address ($E146, so RTS
/// lands on $E147) are on the stack.
pub const SYS_STACK_POINTER: u8 = 0xF6;
/// SYS's register save area: SAREG, SXREG, SYREG, SPREG (A, X, Y, P on entry and, after
/// the routine's RTS, on return).
pub const SYS_REGISTERS: u16 = 0x030C;
/// CIA 1 timer A latch set by IOINIT on a PAL machine: the ~60 Hz system IRQ.
pub const PAL_IRQ_TIMER_LATCH: u16 = 0x4025;

/// Power-on plus the KERNAL's start-up: chips, RAM variables, RAM vectors, clear screen.
pub fn power_on(bus: &mut C64Bus, kernal: &mut Kernal) {
    bus.poke(0x0000, PORT_DDR_POWER_ON);
    bus.poke(0x0001, PORT_DATA_POWER_ON);
    for trap in [Trap::Ioinit, Trap::Ramtas, Trap::Restor] {
        kernal_state(trap, bus);
    }
    kernal.reset_screen(bus);
}

/// What IOINIT, RAMTAS and RESTOR set up.
pub fn kernal_state(trap: Trap, bus: &mut C64Bus) {
    match trap {
        Trap::Ioinit => ioinit(bus),
        Trap::Ramtas => ramtas(bus),
        Trap::Restor => {
            for (at, target) in RAM_VECTORS {
                poke16(bus, at as usize, target);
            }
        }
        _ => {}
    }
}

fn ioinit(bus: &mut C64Bus) {
    let writes: &[(u16, u8)] = &[
        // CIA 1: all interrupts off, keyboard port directions, timer A for the system IRQ.
        (0xDC0D, 0x7F),
        (0xDD0D, 0x7F),
        (0xDC00, 0x7F),
        (0xDC02, 0xFF),
        (0xDC03, 0x00),
        (0xDC04, PAL_IRQ_TIMER_LATCH as u8),
        (0xDC05, (PAL_IRQ_TIMER_LATCH >> 8) as u8),
        (0xDC0D, 0x81),
        (0xDC0E, 0x11),
        // CIA 2: serial bus lines idle, VIC bank 0 ($0000-$3FFF).
        (0xDD02, 0x3F),
        (0xDD00, 0x07),
        // SID silent.
        (0xD418, 0x00),
        // VIC: text mode, 25 rows, 40 columns, screen at $0400, upper-case charset.
        (0xD011, 0x1B),
        (0xD016, 0xC8),
        (0xD018, 0x15),
        (0xD020, 0x0E),
        (0xD021, 0x06),
    ];
    for &(addr, v) in writes {
        bus.poke(addr, v);
    }
    bus.interrupts_changed();
}

fn ramtas(bus: &mut C64Bus) {
    // Zero page (but the port), pages 2 and 3 cleared.
    for a in 2..0x100 {
        bus.ram[a] = 0;
    }
    for a in 0x200..0x400 {
        bus.ram[a] = 0;
    }
    poke16(bus, 0x0281, 0x0800); // MEMSTR
    poke16(bus, 0x0283, BASIC_MEMORY_TOP); // MEMSIZ
    bus.ram[0x0288] = 0x04; // HIBASE: screen at $0400
    bus.ram[0x0289] = 10; // XMAX: keyboard buffer size
    bus.ram[0x028A] = 0x00; // RPTFLG
    bus.ram[0x0286] = 14; // COLOR: light blue
    bus.ram[0x0099] = 0; // DFLTN: keyboard
    bus.ram[0x009A] = 3; // DFLTO: screen
    bus.ram[0x00B2] = 0x3C; // TAPE1 buffer pointer $033C
    bus.ram[0x00B3] = 0x03;
}

/// BASIC's RUN up to the SYS: BASIC pointers for a program ending at `program_end`, LINNUM
/// holding the SYS address (programs can observe it), the stack as SYS leaves it, and the
/// registers from SAREG/SXREG/SYREG/SPREG ($030C-$030F, all zero after RUN).
pub fn enter_sys(cpu: &mut Cpu, bus: &mut C64Bus, sys: u16, program_end: u16) {
    poke16(bus, 0x2B, BASIC_START); // TXTTAB
    for at in [0x2D, 0x2F, 0x31] {
        poke16(bus, at, program_end); // VARTAB, ARYTAB, STREND
    }
    poke16(bus, 0x33, BASIC_MEMORY_TOP); // FRETOP
    poke16(bus, 0x37, BASIC_MEMORY_TOP); // MEMSIZ
    poke16(bus, 0x14, sys); // LINNUM
                            // The statement loop's return address, then SYS's.
    bus.ram[0x01FA] = 0xA7;
    bus.ram[0x01F9] = 0xAD;
    bus.ram[0x01F8] = 0xE1;
    bus.ram[0x01F7] = 0x46;
    cpu.s = SYS_STACK_POINTER;
    let regs = SYS_REGISTERS as usize;
    cpu.a = bus.ram[regs];
    cpu.x = bus.ram[regs + 1];
    cpu.y = bus.ram[regs + 2];
    cpu.set_p(bus.ram[regs + 3]);
    cpu.pc = sys;
    cpu.jammed = false;
}

/// A little-endian word into RAM (KERNAL and BASIC pointers).
fn poke16(bus: &mut C64Bus, at: usize, v: u16) {
    bus.ram[at] = v as u8;
    bus.ram[at + 1] = (v >> 8) as u8;
}
