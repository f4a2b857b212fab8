//! The direct path: instructions run straight on the RAM a bus lends ([`DirectMemory`]),
//! with their cycle counts added per instruction instead of one bus call per cycle.
//!
//! It is the cycle-by-cycle core's twin, exact by construction: an instruction runs here only
//! if every access it makes, dummy reads included, is a plain RAM access (no side effect) and
//! its interrupt poll falls before the bus's `quiet_until` (the poll would find the inputs as
//! they are now, and they are quiet). Anything else — I/O or ROM addresses, the 6510 port,
//! an interrupt due, BRK, JAM, the unstable opcodes — is left untouched for `step`: the
//! checks come before any register or memory changes, so handing an instruction back costs
//! nothing but the check. The shared vectors run through this path too (tests/direct.rs).
//!
//! Speed: each opcode is its own function (`handler::<OP>`), which ends by fetching the
//! next opcode and calling its handler through a table, in tail position: the optimiser
//! turns that into a jump, so every handler has its own indirect jump (the host's branch
//! predictor learns which opcode follows which) and the hot registers stay in the host's
//! argument registers. A chain of handlers runs at most `CHAIN_CYCLES` cycles, so even a
//! build that does not turn the calls into jumps keeps a small stack.

use super::Cpu;
use crate::bus::{Bus, DirectMemory};

/// The longest instruction (read-modify-write with (zp),Y or abs,X): its poll is at most
/// this many cycles minus one after it starts.
const MAX_CYCLES: u64 = 8;

/// Cycles one chain of handlers may run before it returns to `run_direct`. An optimised
/// build turns the handlers' calls into jumps, and the bound only sets how often the chain
/// restarts; an unoptimised one makes real calls (about 600 bytes of stack each), so there
/// it is kept short: at most one frame per 2 cycles.
const CHAIN_CYCLES: i64 = if cfg!(debug_assertions) { 1024 } else { 8192 };

/// What the handlers share besides the registers they pass each other.
struct Shared<'a> {
    ram: &'a mut [u8; 0x10000],
    /// Bit r: region $r000 readable; bit 16 + r: writable.
    masks: u64,
    /// For each region, the highest PC from which an opcode and two operand bytes are all
    /// lent (its end, or 3 bytes before it if the next region is not readable; below its
    /// start if it is not readable).
    fetch_limit: [u16; 16],
    floor: u16,
    irq_held: bool,
    // The registers that change rarely live here, not in arguments.
    s: u8,
    vf: bool,
    df: bool,
    iflag: bool,
    /// Where the chain stopped.
    stop: Hot,
}

/// The registers handlers pass in arguments (see `Handler`).
#[derive(Clone, Copy)]
struct Hot {
    state: i64,
    a: u8,
    nz: u16,
    x: u8,
    y: u8,
}

/// A handler: (shared, state, A, NZ, X, Y), six arguments so that all travel in host
/// registers and the call in tail position becomes a jump. `state` is
/// `(cycles left << 17) | (carry << 16) | pc`; NZ is the core's `nz`.
type Handler = fn(&mut Shared<'_>, i64, u8, u16, u8, u8);

/// Bit of `state` that holds the carry; cycles start one bit above.
const CARRY: i64 = 1 << 16;
const CYCLE: i64 = 1 << 17;

/// Fetches the next opcode and runs its handler, unless the cycles are used up or the
/// opcode and its operands (3 bytes from `pc`) are not all lent memory.
#[inline(always)]
fn dispatch(sh: &mut Shared<'_>, st: i64, a: u8, nz: u16, x: u8, y: u8) {
    let pc = st as u16;
    if st < CYCLE || pc > sh.fetch_limit[(pc >> 12) as usize] {
        sh.stop = Hot {
            state: st,
            a,
            nz,
            x,
            y,
        };
        return;
    }
    let op = sh.ram[pc as usize];
    HANDLERS[op as usize](sh, st, a, nz, x, y)
}

/// One opcode. Each arm checks its addresses (`break 'run` leaves the instruction
/// untouched, for the exact path), then does its work, then goes on to the next one.
fn handler<const OP: u8>(sh: &mut Shared<'_>, st: i64, a: u8, nz: u16, x: u8, y: u8) {
    let pc = st as u16;
    let (masks, floor, irq_held) = (sh.masks, sh.floor, sh.irq_held);
    let (s, vf, df, iflag) = (sh.s, sh.vf, sh.df, sh.iflag);
    let mut c = Cpu {
        pc,
        a,
        x,
        y,
        s,
        nz,
        cf: ((st & CARRY) != 0) as u8,
        vf,
        df,
        iflag,
        irq_pending: false,
        nmi_latched: false,
        jammed: false,
    };
    macro_rules! readable {
        ($a:expr) => {
            (masks >> ($a >> 12)) & 1 != 0
        };
    }
    macro_rules! writable {
        ($a:expr) => {
            (masks >> (16 + ($a >> 12))) & 1 != 0 && $a >= floor
        };
    }
    macro_rules! word {
        ($lo:expr, $hi:expr) => {
            $lo as u16 | ($hi as u16) << 8
        };
    }
    'run: {
        let ram: &mut [u8; 0x10000] = sh.ram;
        let b1 = ram[pc.wrapping_add(1) as usize];
        let abs = word!(b1, ram[pc.wrapping_add(2) as usize]);
        let zp_word =
            |ram: &[u8; 0x10000], p: u8| word!(ram[p as usize], ram[p.wrapping_add(1) as usize]);

        // The instruction is done: go on with the next one (a tail call: no stack grows
        // in an optimised build). The rare registers kept in `sh` are stored only where
        // changed (the optimiser sees which arms can change them).
        macro_rules! goto {
            ($state:expr) => {{
                let state: i64 = $state;
                if c.s != s {
                    sh.s = c.s;
                }
                if (c.vf, c.df, c.iflag) != (vf, df, iflag) {
                    (sh.vf, sh.df, sh.iflag) = (c.vf, c.df, c.iflag);
                }
                // Flip the carry bit only if the carry changed.
                let cf = ((st & CARRY) != 0) as u8;
                let state = state ^ ((c.cf ^ cf) as i64) << 16;
                return dispatch(sh, state, c.a, c.nz, c.x, c.y);
            }};
            ($target:expr, $cycles:expr) => {{
                goto!(((st & !0xFFFF) | $target as i64) - $cycles * CYCLE)
            }};
        }
        macro_rules! done {
            ($len:expr, $cycles:expr) => {
                goto!(st + $len - $cycles * CYCLE)
            };
        }
        // An indexed address: (base, effective address, 1 if a page was crossed).
        macro_rules! indexed {
            ($base:expr, $index:expr) => {{
                let base: u16 = $base;
                let ea = base.wrapping_add($index as u16);
                (base, ea, ((base ^ ea) >> 8 != 0) as i64)
            }};
        }
        macro_rules! read {
            (imm, $f:ident) => {{
                c.$f(b1);
                done!(2, 2);
            }};
            (zp, $f:ident) => {{
                c.$f(ram[b1 as usize]);
                done!(2, 3);
            }};
            (zpx, $f:ident) => {{
                c.$f(ram[b1.wrapping_add(c.x) as usize]);
                done!(2, 4);
            }};
            (zpy, $f:ident) => {{
                c.$f(ram[b1.wrapping_add(c.y) as usize]);
                done!(2, 4);
            }};
            (abs, $f:ident) => {{
                if !readable!(abs) {
                    break 'run;
                }
                c.$f(ram[abs as usize]);
                done!(3, 4);
            }};
            (absx, $f:ident) => {{
                read!(@indexed abs, c.x, 3, 4, $f)
            }};
            (absy, $f:ident) => {{
                read!(@indexed abs, c.y, 3, 4, $f)
            }};
            (izx, $f:ident) => {{
                let ea = zp_word(ram, b1.wrapping_add(c.x));
                if !readable!(ea) {
                    break 'run;
                }
                c.$f(ram[ea as usize]);
                done!(2, 6);
            }};
            (izy, $f:ident) => {{
                read!(@indexed zp_word(ram, b1), c.y, 2, 5, $f)
            }};
            // The dummy read on a page cross is in the base's page.
            (@indexed $base:expr, $index:expr, $len:expr, $cycles:expr, $f:ident) => {{
                let (base, ea, crossed) = indexed!($base, $index);
                if !readable!(ea) || (crossed != 0 && !readable!(base)) {
                    break 'run;
                }
                c.$f(ram[ea as usize]);
                done!($len, $cycles + crossed);
            }};
        }
        macro_rules! store {
            (zp, $v:expr) => {{
                store!(@zp b1, $v, 3)
            }};
            (zpx, $v:expr) => {{
                store!(@zp b1.wrapping_add(c.x), $v, 4)
            }};
            (zpy, $v:expr) => {{
                store!(@zp b1.wrapping_add(c.y), $v, 4)
            }};
            (abs, $v:expr) => {{
                if !writable!(abs) {
                    break 'run;
                }
                ram[abs as usize] = $v;
                done!(3, 4);
            }};
            (absx, $v:expr) => {{
                store!(@indexed abs, c.x, 3, 5, $v)
            }};
            (absy, $v:expr) => {{
                store!(@indexed abs, c.y, 3, 5, $v)
            }};
            (izx, $v:expr) => {{
                let ea = zp_word(ram, b1.wrapping_add(c.x));
                if !writable!(ea) {
                    break 'run;
                }
                ram[ea as usize] = $v;
                done!(2, 6);
            }};
            (izy, $v:expr) => {{
                store!(@indexed zp_word(ram, b1), c.y, 2, 6, $v)
            }};
            (@zp $ea:expr, $v:expr, $cycles:expr) => {{
                let ea = $ea as u16;
                if ea < floor {
                    break 'run;
                }
                ram[ea as usize] = $v;
                done!(2, $cycles);
            }};
            // Writes always make the dummy read in the base's page first.
            (@indexed $base:expr, $index:expr, $len:expr, $cycles:expr, $v:expr) => {{
                let (base, ea, _) = indexed!($base, $index);
                if !writable!(ea) || !readable!(base) {
                    break 'run;
                }
                ram[ea as usize] = $v;
                done!($len, $cycles);
            }};
        }
        // Read-modify-write: the NMOS double write leaves the same end state in RAM.
        macro_rules! rmw {
            (acc, $f:ident) => {{
                c.a = c.$f(c.a);
                done!(1, 2);
            }};
            (zp, $f:ident) => {{
                rmw!(@zp b1, 5, $f)
            }};
            (zpx, $f:ident) => {{
                rmw!(@zp b1.wrapping_add(c.x), 6, $f)
            }};
            (abs, $f:ident) => {{
                rmw!(@at abs, 3, 6, $f)
            }};
            (izx, $f:ident) => {{
                rmw!(@at zp_word(ram, b1.wrapping_add(c.x)), 2, 8, $f)
            }};
            (absx, $f:ident) => {{
                rmw!(@indexed abs, c.x, 3, 7, $f)
            }};
            (absy, $f:ident) => {{
                rmw!(@indexed abs, c.y, 3, 7, $f)
            }};
            (izy, $f:ident) => {{
                rmw!(@indexed zp_word(ram, b1), c.y, 2, 8, $f)
            }};
            (@zp $ea:expr, $cycles:expr, $f:ident) => {{
                let ea = $ea as u16;
                if ea < floor {
                    break 'run;
                }
                ram[ea as usize] = c.$f(ram[ea as usize]);
                done!(2, $cycles);
            }};
            (@at $ea:expr, $len:expr, $cycles:expr, $f:ident) => {{
                let ea: u16 = $ea;
                if !readable!(ea) || !writable!(ea) {
                    break 'run;
                }
                ram[ea as usize] = c.$f(ram[ea as usize]);
                done!($len, $cycles);
            }};
            (@indexed $base:expr, $index:expr, $len:expr, $cycles:expr, $f:ident) => {{
                let (base, ea, _) = indexed!($base, $index);
                if !readable!(ea) || !writable!(ea) || !readable!(base) {
                    break 'run;
                }
                ram[ea as usize] = c.$f(ram[ea as usize]);
                done!($len, $cycles);
            }};
        }
        macro_rules! implied {
            ($body:expr) => {{
                $body;
                done!(1, 2);
            }};
        }
        macro_rules! branch {
            ($cond:expr) => {{
                if $cond {
                    let next = pc.wrapping_add(2);
                    let target = next.wrapping_add(b1 as i8 as u16);
                    goto!(target, 3 + ((next ^ target) >> 8 != 0) as i64);
                } else {
                    done!(2, 2);
                }
            }};
        }
        // The stack is page 1: plain RAM whenever direct memory is lent.
        macro_rules! push {
            ($v:expr) => {{
                ram[0x100 | c.s as usize] = $v;
                c.s = c.s.wrapping_sub(1);
            }};
        }
        macro_rules! pull {
            () => {{
                c.s = c.s.wrapping_add(1);
                ram[0x100 | c.s as usize]
            }};
        }

        match OP {
            // ---- loads
            0xA9 => read!(imm, lda),
            0xA5 => read!(zp, lda),
            0xB5 => read!(zpx, lda),
            0xAD => read!(abs, lda),
            0xBD => read!(absx, lda),
            0xB9 => read!(absy, lda),
            0xA1 => read!(izx, lda),
            0xB1 => read!(izy, lda),
            0xA2 => read!(imm, ldx),
            0xA6 => read!(zp, ldx),
            0xB6 => read!(zpy, ldx),
            0xAE => read!(abs, ldx),
            0xBE => read!(absy, ldx),
            0xA0 => read!(imm, ldy),
            0xA4 => read!(zp, ldy),
            0xB4 => read!(zpx, ldy),
            0xAC => read!(abs, ldy),
            0xBC => read!(absx, ldy),
            // ---- stores
            0x85 => store!(zp, c.a),
            0x95 => store!(zpx, c.a),
            0x8D => store!(abs, c.a),
            0x9D => store!(absx, c.a),
            0x99 => store!(absy, c.a),
            0x81 => store!(izx, c.a),
            0x91 => store!(izy, c.a),
            0x86 => store!(zp, c.x),
            0x96 => store!(zpy, c.x),
            0x8E => store!(abs, c.x),
            0x84 => store!(zp, c.y),
            0x94 => store!(zpx, c.y),
            0x8C => store!(abs, c.y),
            // ---- ALU
            0x69 => read!(imm, adc),
            0x65 => read!(zp, adc),
            0x75 => read!(zpx, adc),
            0x6D => read!(abs, adc),
            0x7D => read!(absx, adc),
            0x79 => read!(absy, adc),
            0x61 => read!(izx, adc),
            0x71 => read!(izy, adc),
            0xE9 | 0xEB => read!(imm, sbc),
            0xE5 => read!(zp, sbc),
            0xF5 => read!(zpx, sbc),
            0xED => read!(abs, sbc),
            0xFD => read!(absx, sbc),
            0xF9 => read!(absy, sbc),
            0xE1 => read!(izx, sbc),
            0xF1 => read!(izy, sbc),
            0x29 => read!(imm, and),
            0x25 => read!(zp, and),
            0x35 => read!(zpx, and),
            0x2D => read!(abs, and),
            0x3D => read!(absx, and),
            0x39 => read!(absy, and),
            0x21 => read!(izx, and),
            0x31 => read!(izy, and),
            0x09 => read!(imm, ora),
            0x05 => read!(zp, ora),
            0x15 => read!(zpx, ora),
            0x0D => read!(abs, ora),
            0x1D => read!(absx, ora),
            0x19 => read!(absy, ora),
            0x01 => read!(izx, ora),
            0x11 => read!(izy, ora),
            0x49 => read!(imm, eor),
            0x45 => read!(zp, eor),
            0x55 => read!(zpx, eor),
            0x4D => read!(abs, eor),
            0x5D => read!(absx, eor),
            0x59 => read!(absy, eor),
            0x41 => read!(izx, eor),
            0x51 => read!(izy, eor),
            0xC9 => read!(imm, cmp),
            0xC5 => read!(zp, cmp),
            0xD5 => read!(zpx, cmp),
            0xCD => read!(abs, cmp),
            0xDD => read!(absx, cmp),
            0xD9 => read!(absy, cmp),
            0xC1 => read!(izx, cmp),
            0xD1 => read!(izy, cmp),
            0xE0 => read!(imm, cpx),
            0xE4 => read!(zp, cpx),
            0xEC => read!(abs, cpx),
            0xC0 => read!(imm, cpy),
            0xC4 => read!(zp, cpy),
            0xCC => read!(abs, cpy),
            0x24 => read!(zp, bit),
            0x2C => read!(abs, bit),
            // ---- shifts, increments
            0x0A => rmw!(acc, asl),
            0x4A => rmw!(acc, lsr),
            0x2A => rmw!(acc, rol),
            0x6A => rmw!(acc, ror),
            0x06 => rmw!(zp, asl),
            0x16 => rmw!(zpx, asl),
            0x0E => rmw!(abs, asl),
            0x1E => rmw!(absx, asl),
            0x46 => rmw!(zp, lsr),
            0x56 => rmw!(zpx, lsr),
            0x4E => rmw!(abs, lsr),
            0x5E => rmw!(absx, lsr),
            0x26 => rmw!(zp, rol),
            0x36 => rmw!(zpx, rol),
            0x2E => rmw!(abs, rol),
            0x3E => rmw!(absx, rol),
            0x66 => rmw!(zp, ror),
            0x76 => rmw!(zpx, ror),
            0x6E => rmw!(abs, ror),
            0x7E => rmw!(absx, ror),
            0xE6 => rmw!(zp, inc),
            0xF6 => rmw!(zpx, inc),
            0xEE => rmw!(abs, inc),
            0xFE => rmw!(absx, inc),
            0xC6 => rmw!(zp, dec),
            0xD6 => rmw!(zpx, dec),
            0xCE => rmw!(abs, dec),
            0xDE => rmw!(absx, dec),
            0xE8 => implied!(c.x = c.inc(c.x)),
            0xCA => implied!(c.x = c.dec(c.x)),
            0xC8 => implied!(c.y = c.inc(c.y)),
            0x88 => implied!(c.y = c.dec(c.y)),
            // ---- transfers and flags
            0xAA => implied!(c.ldx(c.a)),
            0xA8 => implied!(c.ldy(c.a)),
            0x8A => implied!(c.lda(c.x)),
            0x98 => implied!(c.lda(c.y)),
            0xBA => implied!(c.ldx(c.s)),
            0x9A => implied!(c.s = c.x),
            0x18 => implied!(c.cf = 0),
            0x38 => implied!(c.cf = 1),
            0xB8 => implied!(c.vf = false),
            0xD8 => implied!(c.df = false),
            0xF8 => implied!(c.df = true),
            0x78 => implied!(c.iflag = true),
            // Clearing I with /IRQ held makes the next poll take it: the exact path.
            0x58 if !irq_held => implied!(c.iflag = false),
            0xEA | 0x1A | 0x3A | 0x5A | 0x7A | 0xDA | 0xFA => done!(1, 2),
            // ---- stack
            0x48 => {
                push!(c.a);
                done!(1, 3);
            }
            0x08 => {
                push!(c.p());
                done!(1, 3);
            }
            0x68 => {
                let v = pull!();
                c.lda(v);
                done!(1, 4);
            }
            0x28 if !irq_held => {
                let v = pull!();
                c.set_p(v);
                done!(1, 4);
            }
            // ---- jumps and subroutines
            0x4C => {
                goto!(abs, 3);
            }
            0x6C => {
                // The NMOS page-wrap bug: the high byte comes from the same page.
                if !readable!(abs) {
                    break 'run;
                }
                let hi = (abs & 0xFF00) | (abs.wrapping_add(1) & 0x00FF);
                goto!(word!(ram[abs as usize], ram[hi as usize]), 5);
            }
            0x20 => {
                let ret = pc.wrapping_add(2);
                push!((ret >> 8) as u8);
                push!(ret as u8);
                goto!(abs, 6);
            }
            0x60 => {
                // RTS ends with a dummy read at the return address.
                let s = c.s;
                let ret = word!(
                    ram[0x100 | s.wrapping_add(1) as usize],
                    ram[0x100 | s.wrapping_add(2) as usize]
                );
                if !readable!(ret) {
                    break 'run;
                }
                c.s = s.wrapping_add(2);
                goto!(ret.wrapping_add(1), 6);
            }
            0x40 if !irq_held => {
                let p = pull!();
                c.set_p(p);
                let lo = pull!();
                let hi = pull!();
                goto!(word!(lo, hi), 6);
            }
            // ---- branches
            0x10 => branch!(!c.negative()),
            0x30 => branch!(c.negative()),
            0x50 => branch!(!c.vf),
            0x70 => branch!(c.vf),
            0x90 => branch!(c.cf == 0),
            0xB0 => branch!(c.cf != 0),
            0xD0 => branch!(!c.zero()),
            0xF0 => branch!(c.zero()),
            // ---- undocumented: NOPs that read
            0x80 | 0x82 | 0x89 | 0xC2 | 0xE2 => read!(imm, nop_read),
            0x04 | 0x44 | 0x64 => read!(zp, nop_read),
            0x14 | 0x34 | 0x54 | 0x74 | 0xD4 | 0xF4 => read!(zpx, nop_read),
            0x0C => read!(abs, nop_read),
            0x1C | 0x3C | 0x5C | 0x7C | 0xDC | 0xFC => read!(absx, nop_read),
            // ---- undocumented: loads and stores
            0xA7 => read!(zp, lax),
            0xB7 => read!(zpy, lax),
            0xAF => read!(abs, lax),
            0xBF => read!(absy, lax),
            0xA3 => read!(izx, lax),
            0xB3 => read!(izy, lax),
            0x87 => store!(zp, c.a & c.x),
            0x97 => store!(zpy, c.a & c.x),
            0x8F => store!(abs, c.a & c.x),
            0x83 => store!(izx, c.a & c.x),
            // ---- undocumented: immediate
            0x0B | 0x2B => read!(imm, anc),
            0x4B => read!(imm, alr),
            0x6B => read!(imm, arr),
            0xCB => read!(imm, sbx),
            // ---- undocumented: read-modify-write combinations
            0x07 => rmw!(zp, slo),
            0x17 => rmw!(zpx, slo),
            0x0F => rmw!(abs, slo),
            0x1F => rmw!(absx, slo),
            0x1B => rmw!(absy, slo),
            0x03 => rmw!(izx, slo),
            0x13 => rmw!(izy, slo),
            0x27 => rmw!(zp, rla),
            0x37 => rmw!(zpx, rla),
            0x2F => rmw!(abs, rla),
            0x3F => rmw!(absx, rla),
            0x3B => rmw!(absy, rla),
            0x23 => rmw!(izx, rla),
            0x33 => rmw!(izy, rla),
            0x47 => rmw!(zp, sre),
            0x57 => rmw!(zpx, sre),
            0x4F => rmw!(abs, sre),
            0x5F => rmw!(absx, sre),
            0x5B => rmw!(absy, sre),
            0x43 => rmw!(izx, sre),
            0x53 => rmw!(izy, sre),
            0x67 => rmw!(zp, rra),
            0x77 => rmw!(zpx, rra),
            0x6F => rmw!(abs, rra),
            0x7F => rmw!(absx, rra),
            0x7B => rmw!(absy, rra),
            0x63 => rmw!(izx, rra),
            0x73 => rmw!(izy, rra),
            0xC7 => rmw!(zp, dcp),
            0xD7 => rmw!(zpx, dcp),
            0xCF => rmw!(abs, dcp),
            0xDF => rmw!(absx, dcp),
            0xDB => rmw!(absy, dcp),
            0xC3 => rmw!(izx, dcp),
            0xD3 => rmw!(izy, dcp),
            0xE7 => rmw!(zp, isc),
            0xF7 => rmw!(zpx, isc),
            0xEF => rmw!(abs, isc),
            0xFF => rmw!(absx, isc),
            0xFB => rmw!(absy, isc),
            0xE3 => rmw!(izx, isc),
            0xF3 => rmw!(izy, isc),
            // BRK and the interrupt sequence, JAM, the unstable opcodes, and CLI/PLP/RTI
            // with /IRQ held: the exact path.
            0x00 | 0x02 | 0x12 | 0x22 | 0x32 | 0x42 | 0x52 | 0x62 | 0x72 | 0x92 | 0xB2 | 0xD2
            | 0xF2 | 0x8B | 0xAB | 0xBB | 0x93 | 0x9F | 0x9E | 0x9C | 0x9B | 0x58 | 0x28 | 0x40 => {
                break 'run
            }
        }
    }
    // Here only by `break 'run`: the exact path runs this instruction.
    sh.stop = Hot {
        state: st,
        a,
        nz,
        x,
        y,
    };
}

/// `handler::<OP>` for every opcode, `HANDLERS[op]`.
static HANDLERS: [Handler; 256] = {
    macro_rules! row {
        ($hi:literal) => {
            [
                handler::<{ $hi * 16 }>,
                handler::<{ $hi * 16 + 1 }>,
                handler::<{ $hi * 16 + 2 }>,
                handler::<{ $hi * 16 + 3 }>,
                handler::<{ $hi * 16 + 4 }>,
                handler::<{ $hi * 16 + 5 }>,
                handler::<{ $hi * 16 + 6 }>,
                handler::<{ $hi * 16 + 7 }>,
                handler::<{ $hi * 16 + 8 }>,
                handler::<{ $hi * 16 + 9 }>,
                handler::<{ $hi * 16 + 10 }>,
                handler::<{ $hi * 16 + 11 }>,
                handler::<{ $hi * 16 + 12 }>,
                handler::<{ $hi * 16 + 13 }>,
                handler::<{ $hi * 16 + 14 }>,
                handler::<{ $hi * 16 + 15 }>,
            ]
        };
    }
    let rows: [[Handler; 16]; 16] = [
        row!(0),
        row!(1),
        row!(2),
        row!(3),
        row!(4),
        row!(5),
        row!(6),
        row!(7),
        row!(8),
        row!(9),
        row!(10),
        row!(11),
        row!(12),
        row!(13),
        row!(14),
        row!(15),
    ];
    let mut all: [Handler; 256] = [rows[0][0]; 256];
    let mut op = 0;
    while op < 256 {
        all[op] = rows[op / 16][op % 16];
        op += 1;
    }
    all
};

impl Cpu {
    /// Runs instructions on the bus's direct memory while the bus's cycle counter is below
    /// `limit`; returns at the first instruction that needs the cycle-by-cycle path (run it
    /// with [`Cpu::step`]), or at once if the bus lends no memory now.
    pub fn run_direct<B: Bus>(&mut self, bus: &mut B, limit: u64) {
        if self.irq_pending || self.nmi_latched || self.jammed {
            return;
        }
        let Some(DirectMemory {
            ram,
            readable,
            writable,
            write_floor,
            cycles,
            quiet_until,
            irq,
        }) = bus.direct_memory()
        else {
            return;
        };
        // Zero page and stack are used without checks; a held IRQ with I clear would be
        // taken at the next poll.
        if readable & writable & 1 == 0 || (irq && !self.iflag) {
            return;
        }
        // Cycles left before `limit` or the last instruction whose poll is surely quiet.
        let end = limit.min(quiet_until.saturating_sub(MAX_CYCLES - 1));
        let start = *cycles;
        if start >= end {
            return;
        }
        let budget = (end - start).min(1 << 40) as i64;
        let region_readable = |r: usize| readable >> r & 1 != 0;
        let fetch_limit = std::array::from_fn(|r| {
            let start = (r as u16) << 12;
            // $F000's operands would wrap to $0000: like an unreadable next region, which
            // also keeps `pc + length` in the 16 bits of `state` (PC never wraps in there).
            match (region_readable(r), r < 15 && region_readable(r + 1)) {
                (true, true) => start | 0x0FFF,
                (true, false) => start | 0x0FFC,
                // Region 0 is always readable here (checked above).
                (false, _) => start.wrapping_sub(1),
            }
        });
        let mut sh = Shared {
            ram,
            masks: readable as u64 | (writable as u64) << 16,
            fetch_limit,
            floor: write_floor,
            irq_held: irq,
            s: self.s,
            vf: self.vf,
            df: self.df,
            iflag: self.iflag,
            stop: Hot {
                state: (self.cf as i64) << 16 | self.pc as i64,
                a: self.a,
                nz: self.nz,
                x: self.x,
                y: self.y,
            },
        };
        let mut left = budget;
        loop {
            let chain = left.min(CHAIN_CYCLES);
            let h = sh.stop;
            let state = (chain * CYCLE) | (h.state & (CARRY | 0xFFFF));
            dispatch(&mut sh, state, h.a, h.nz, h.x, h.y);
            let stopped = sh.stop.state;
            left -= chain - (stopped >> 17);
            // Cycles left in the chain: it stopped at an instruction for the exact path.
            if stopped >= CYCLE || left <= 0 {
                break;
            }
        }
        *cycles = start + (budget - left) as u64;
        let h = sh.stop;
        self.pc = h.state as u16;
        self.a = h.a;
        self.nz = h.nz;
        self.x = h.x;
        self.y = h.y;
        self.cf = ((h.state & CARRY) != 0) as u8;
        self.s = sh.s;
        self.vf = sh.vf;
        self.df = sh.df;
        self.iflag = sh.iflag;
    }

    /// The opcodes [`Cpu::run_direct`] always hands to the cycle-by-cycle path (whatever the
    /// addresses): BRK, the JAMs and the unstable ones (ANE, LXA, LAS, SHA, SHX, SHY, TAS).
    pub const EXACT_PATH_OPCODES: [u8; 21] = [
        0x00, 0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2, 0x8B, 0xAB,
        0xBB, 0x93, 0x9F, 0x9E, 0x9C, 0x9B,
    ];
}
