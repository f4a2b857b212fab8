//! The BASIC ROM routines machine code calls, done in Rust while no real BASIC image is
//! loaded: printing (STROUT, LINPRT), and what a decruncher does to RUN the BASIC program it
//! unpacked (LNKPRG, RUNC, STXTPT, then the statement loop NEWSTT). c64kit has no BASIC
//! interpreter, so NEWSTT runs the program only as far as RUN would go straight to a SYS.

use super::traps::TrapOutcome;
use super::vars::*;
use super::{Kernal, Trap};
use crate::boot::{self, peek16, poke16};
use crate::memory::C64Bus;
use crate::stop::StopReason;
use c64kit_cpu::Cpu;

/// STKINI's stack pointer: BASIC's stack starts under $01FB.
const BASIC_STACK_TOP: u8 = 0xFA;
/// A line's link, number and at least its $00 end.
const LINE_HEADER: u16 = 4;

impl Kernal {
    /// The BASIC routine `trap` (one of the BASIC table's).
    pub(super) fn basic(&mut self, trap: Trap, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        match trap {
            Trap::Strout => {
                // STRLIT's rule: the string ends at a $00 or a quote, 255 characters at most.
                let start = u16::from_le_bytes([cpu.a, cpu.y]);
                for i in 0..255u16 {
                    let b = bus.peek(start.wrapping_add(i));
                    if b == 0 || b == b'"' {
                        break;
                    }
                    self.output(bus, b);
                }
            }
            Trap::Linprt => {
                let n = u16::from_le_bytes([cpu.x, cpu.a]);
                for b in n.to_string().bytes() {
                    self.output(bus, b);
                }
            }
            Trap::Lnkprg => lnkprg(cpu, bus),
            Trap::Stxtpt => stxtpt(cpu, bus),
            Trap::Runc => {
                stxtpt(cpu, bus);
                self.clall(bus);
                clear(cpu, bus);
            }
            Trap::Newstt => {
                return match boot::sys_from_statement_loop(cpu, bus) {
                    Ok(()) => TrapOutcome::ContinueAt(cpu.pc),
                    Err(why) => TrapOutcome::Stop(StopReason::NeedsBasic {
                        pc: Trap::Newstt.address(),
                        why,
                    }),
                }
            }
            _ => unreachable!("{trap:?} is not a BASIC routine"),
        }
        TrapOutcome::Return
    }
}

/// STXTPT ($A68E): TXTPTR = TXTTAB - 1 (A holds the high byte, as the ADC leaves it).
fn stxtpt(cpu: &mut Cpu, bus: &mut C64Bus) {
    let at = peek16(bus, TXTTAB).wrapping_sub(1);
    poke16(bus, TXTPTR, at);
    cpu.load_a((at >> 8) as u8);
    cpu.set_carry(peek16(bus, TXTTAB) != 0);
}

/// CLR's work after CLALL ($A663 on): string space freed, variables and arrays dropped,
/// DATA restored, the stack reset under the caller's return address (STKINI), CONT
/// disallowed.
fn clear(cpu: &mut Cpu, bus: &mut C64Bus) {
    poke16(bus, FRETOP, peek16(bus, BASIC_MEMSIZ));
    let vartab = peek16(bus, VARTAB);
    poke16(bus, ARYTAB, vartab);
    poke16(bus, STREND, vartab);
    poke16(bus, DATPTR, peek16(bus, TXTTAB).wrapping_sub(1));
    bus.ram[TEMPPT as usize] = TEMPST;
    let s = cpu.s;
    let lo = bus.ram[0x100 | s.wrapping_add(1) as usize];
    let hi = bus.ram[0x100 | s.wrapping_add(2) as usize];
    bus.ram[0x100 | BASIC_STACK_TOP as usize] = hi;
    bus.ram[0x100 | BASIC_STACK_TOP.wrapping_sub(1) as usize] = lo;
    cpu.s = BASIC_STACK_TOP.wrapping_sub(2);
    bus.ram[OLDTXT as usize + 1] = 0;
    bus.ram[SUBFLG as usize] = 0;
    cpu.x = BASIC_STACK_TOP;
    cpu.y = lo;
    cpu.load_a(0);
}

/// LNKPRG ($A533): from TXTTAB, each line's link set to the byte after its $00 end, until a
/// link whose high byte is zero. Bounded: a line runs at most to the end of memory, and
/// the walk stops rather than wrap around it.
fn lnkprg(cpu: &mut Cpu, bus: &mut C64Bus) {
    let mut line = peek16(bus, TXTTAB);
    while bus.ram[line.wrapping_add(1) as usize] != 0 {
        let mut end = line.wrapping_add(LINE_HEADER);
        loop {
            end = end.wrapping_add(1);
            if bus.ram[end as usize] == 0 || end == 0xFFFF {
                break;
            }
        }
        let next = end.wrapping_add(1);
        poke16(bus, line, next);
        if next <= line {
            break;
        }
        line = next;
    }
    poke16(bus, INDEX, line);
    cpu.set_carry(false);
}
