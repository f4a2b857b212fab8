//! The NMOS 6502 core of the 6510: every opcode, documented or not, cycle by cycle.

use crate::bus::Bus;

#[macro_use]
mod regular;
mod direct;

/// Status register bits as PHP pushes them.
pub mod flag {
    pub const C: u8 = 0x01;
    pub const Z: u8 = 0x02;
    pub const I: u8 = 0x04;
    pub const D: u8 = 0x08;
    pub const B: u8 = 0x10;
    pub const U: u8 = 0x20;
    pub const V: u8 = 0x40;
    pub const N: u8 = 0x80;
}

/// Where the 6502 finds its NMI, RESET and IRQ/BRK handlers.
pub const NMI_VECTOR: u16 = 0xFFFA;
pub const RESET_VECTOR: u16 = 0xFFFC;
pub const IRQ_VECTOR: u16 = 0xFFFE;

/// The "magic" constants of the unstable ANE ($8B: A = (A | magic) & X & imm) and LXA ($AB:
/// A = X = (A | magic) & imm) opcodes. Real chips differ, and drift with temperature; these
/// are what most NMOS 6510s measured show and VICE's defaults: ANE $EF, LXA $EE. The
/// default of every `Cpu`.
pub const ANE_MAGIC: u8 = 0xEF;
pub const LXA_MAGIC: u8 = 0xEE;
/// The netlist simulation's value for both (shared/vectors record it): ANE gives A & X & imm
/// and LXA gives A = X = A & imm.
pub const NETLIST_MAGIC: u8 = 0x00;

/// The CPU registers and the little interrupt state the NMOS core keeps between instructions.
#[derive(Clone, Debug)]
pub struct Cpu {
    pub pc: u16,
    pub a: u8,
    pub x: u8,
    pub y: u8,
    pub s: u8,
    /// N and Z in one value, so that most instructions set both with one store (the last
    /// result): Z is set when the low byte is zero, N when bit 7 or bit 15 is set (bit 15
    /// lets BIT and decimal mode set N apart from Z; see `set_n_z`).
    nz: u16,
    /// Carry as 0 or 1, ready for ADC/SBC/ROL/ROR.
    cf: u8,
    vf: bool,
    df: bool,
    iflag: bool,
    /// An interrupt was latched at the last poll and starts before the next instruction.
    irq_pending: bool,
    /// An NMI edge was latched and not yet serviced.
    nmi_latched: bool,
    /// Set by a JAM opcode: the CPU no longer executes. `pc` stays at the JAM opcode.
    pub jammed: bool,
    /// ANE's and LXA's magic constants ([`ANE_MAGIC`], [`LXA_MAGIC`]; [`NETLIST_MAGIC`]).
    pub ane_magic: u8,
    pub lxa_magic: u8,
    /// The direct path's fetch limits for the last lending it saw (not CPU state: a cache).
    fetch_ends: direct::FetchEnds,
}

impl Default for Cpu {
    fn default() -> Self {
        Self::new()
    }
}

impl Cpu {
    /// Registers as a fresh NMOS 6502 after RESET's stack decrements: S = $FD, I set.
    pub fn new() -> Self {
        Cpu {
            pc: 0,
            a: 0,
            x: 0,
            y: 0,
            s: 0xFD,
            nz: 1,
            cf: 0,
            vf: false,
            df: false,
            iflag: true,
            irq_pending: false,
            nmi_latched: false,
            jammed: false,
            ane_magic: ANE_MAGIC,
            lxa_magic: LXA_MAGIC,
            fetch_ends: direct::FetchEnds::NONE,
        }
    }

    /// Power-on/RESET: load PC from $FFFC/$FFFD (two bus reads), set I, S = $FD.
    pub fn reset<B: Bus>(&mut self, bus: &mut B) {
        // The chip's own constants survive a RESET.
        let (ane, lxa) = (self.ane_magic, self.lxa_magic);
        *self = Cpu::new();
        (self.ane_magic, self.lxa_magic) = (ane, lxa);
        let lo = bus.read(RESET_VECTOR);
        let hi = bus.read(RESET_VECTOR + 1);
        self.pc = u16::from_le_bytes([lo, hi]);
    }

    /// The status register with bits 4 and 5 set, as PHP pushes it.
    #[inline(always)]
    pub fn p(&self) -> u8 {
        let mut p = flag::U | flag::B;
        if self.negative() {
            p |= flag::N;
        }
        if self.vf {
            p |= flag::V;
        }
        if self.df {
            p |= flag::D;
        }
        if self.iflag {
            p |= flag::I;
        }
        if self.zero() {
            p |= flag::Z;
        }
        p | self.cf
    }

    /// Sets N V D I Z C from `p` (bits 4 and 5 do not exist in the chip).
    #[inline(always)]
    pub fn set_p(&mut self, p: u8) {
        self.vf = p & flag::V != 0;
        self.df = p & flag::D != 0;
        self.iflag = p & flag::I != 0;
        self.set_n_z(p & flag::N != 0, p & flag::Z != 0);
        self.cf = p & flag::C;
    }

    pub fn carry(&self) -> bool {
        self.cf != 0
    }

    pub fn set_carry(&mut self, c: bool) {
        self.cf = c as u8;
    }

    #[inline(always)]
    pub fn zero(&self) -> bool {
        self.nz & 0xFF == 0
    }

    #[inline(always)]
    pub fn negative(&self) -> bool {
        self.nz & 0x8080 != 0
    }

    /// Sets N and Z apart (BIT, decimal mode, PLP).
    #[inline(always)]
    fn set_n_z(&mut self, n: bool, z: bool) {
        self.nz = !z as u16 | (n as u16) << 15;
    }

    /// Sets N and Z from a result, as loads and transfers do.
    pub fn set_nz(&mut self, v: u8) {
        self.nz = v as u16;
    }

    /// A = `v` with N and Z set as a load does (for routines emulated outside the CPU).
    pub fn load_a(&mut self, v: u8) {
        self.a = v;
        self.set_nz(v);
    }

    /// Whether the next `step` takes an interrupt (IRQ or NMI latched) instead of running the
    /// instruction at `pc`: that instruction then runs after the handler returns.
    pub fn takes_interrupt_next(&self) -> bool {
        self.irq_pending
    }

    pub fn interrupt_disabled(&self) -> bool {
        self.iflag
    }

    /// Runs instructions while `keep_going(bus)` holds and the CPU is not jammed. The loop
    /// lives here so that `step` is inlined into it: the emulator's hot path.
    #[inline]
    pub fn run_while<B: Bus>(&mut self, bus: &mut B, mut keep_going: impl FnMut(&B) -> bool) {
        while !self.jammed && keep_going(bus) {
            self.step_inline(bus);
        }
    }

    /// Runs one instruction, or the interrupt sequence that was latched at the end of the
    /// previous one. Does nothing once jammed.
    pub fn step<B: Bus>(&mut self, bus: &mut B) {
        self.step_inline(bus);
    }

    #[inline(always)]
    fn step_inline<B: Bus>(&mut self, bus: &mut B) {
        if self.irq_pending {
            self.interrupt_sequence(bus);
            return;
        }
        if self.jammed {
            return;
        }
        let op = bus.read(self.pc);
        self.pc = self.pc.wrapping_add(1);
        self.execute(bus, op);
    }

    // ---- interrupt handling -------------------------------------------------------------

    /// Latches the interrupt inputs: called right before an instruction's last cycle.
    #[inline(always)]
    fn poll<B: Bus>(&mut self, bus: &mut B) {
        let lines = bus.poll_interrupts();
        if !(lines.irq | lines.nmi_edge) {
            self.irq_pending = self.nmi_latched;
            return;
        }
        self.nmi_latched |= lines.nmi_edge;
        self.irq_pending = self.nmi_latched || (lines.irq && !self.iflag);
    }

    /// Like `poll`, but never clears an interrupt already latched (second poll of a branch
    /// that crosses a page).
    #[inline(always)]
    fn poll_again<B: Bus>(&mut self, bus: &mut B) {
        let was = self.irq_pending;
        self.poll(bus);
        self.irq_pending |= was;
    }

    /// The 7-cycle IRQ/NMI sequence.
    fn interrupt_sequence<B: Bus>(&mut self, bus: &mut B) {
        self.irq_pending = false;
        bus.read(self.pc); // the opcode fetch that is thrown away
        bus.read(self.pc);
        let nmi = self.nmi_latched;
        self.push_pc_and_p(bus, self.pc, nmi, flag::U);
    }

    /// Cycles 2..6 shared by IRQ, NMI and BRK: push PC and P, read the vector. Handles the
    /// NMOS quirks around an NMI arriving during the sequence (see shared/vectors README).
    fn push_pc_and_p<B: Bus>(&mut self, bus: &mut B, pc: u16, nmi: bool, pushed_bits: u8) {
        self.push(bus, (pc >> 8) as u8);
        self.push(bus, pc as u8);
        // An NMI edge up to here (cycle 3) hijacks an IRQ/BRK sequence.
        let mut vector = IRQ_VECTOR;
        if nmi || self.nmi_latched || bus.poll_interrupts().nmi_edge {
            vector = NMI_VECTOR;
            self.nmi_latched = false;
        }
        let p = (self.p() & !(flag::B | flag::U)) | pushed_bits;
        self.push(bus, p);
        self.iflag = true;
        let lo = bus.read(vector);
        if vector == NMI_VECTOR {
            // Further NMI edges during an NMI sequence (cycles 0..5) are lost.
            bus.poll_interrupts();
        }
        let hi = bus.read(vector.wrapping_add(1));
        // An edge in cycles 4..6 is kept only if the line is still low now; it is served
        // after the handler's first instruction (no poll sets `irq_pending` here).
        if bus.poll_interrupts().nmi_edge && bus.nmi_line() {
            self.nmi_latched = true;
        }
        self.pc = u16::from_le_bytes([lo, hi]);
    }

    // ---- bus helpers ---------------------------------------------------------------------

    #[inline(always)]
    fn fetch<B: Bus>(&mut self, bus: &mut B) -> u8 {
        let v = bus.read(self.pc);
        self.pc = self.pc.wrapping_add(1);
        v
    }

    /// The last cycle of an instruction, a read: interrupts are latched just before it.
    #[inline(always)]
    fn read_last<B: Bus>(&mut self, bus: &mut B, addr: u16) -> u8 {
        self.poll(bus);
        let stalls = bus.stall_count();
        let v = bus.read(addr);
        self.poll_again_if_waited(bus, stalls);
        v
    }

    /// The poll again, with the inputs as they were at the end of a wait in the last cycle
    /// (never clearing what the first poll latched).
    #[cold]
    fn poll_after_stall<B: Bus>(&mut self, bus: &mut B) {
        let lines = bus.poll_interrupts_after_stall();
        self.nmi_latched |= lines.nmi_edge;
        self.irq_pending |= self.nmi_latched || (lines.irq && !self.iflag);
    }

    /// The last cycle of an instruction, a write.
    #[inline(always)]
    fn write_last<B: Bus>(&mut self, bus: &mut B, addr: u16, v: u8) {
        self.poll(bus);
        bus.write(addr, v);
    }

    #[inline(always)]
    fn push<B: Bus>(&mut self, bus: &mut B, v: u8) {
        bus.write(0x100 | self.s as u16, v);
        self.s = self.s.wrapping_sub(1);
    }

    // ---- addressing modes: all cycles before the final data access ------------------------

    #[inline(always)]
    fn imm_addr(&mut self) -> u16 {
        let a = self.pc;
        self.pc = self.pc.wrapping_add(1);
        a
    }

    #[inline(always)]
    fn zp<B: Bus>(&mut self, bus: &mut B) -> u16 {
        self.fetch(bus) as u16
    }

    #[inline(always)]
    fn zp_indexed<B: Bus>(&mut self, bus: &mut B, index: u8) -> u16 {
        let base = self.fetch(bus);
        bus.read(base as u16); // dummy read while adding the index
        base.wrapping_add(index) as u16
    }

    #[inline(always)]
    fn abs<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let lo = self.fetch(bus);
        let hi = self.fetch(bus);
        u16::from_le_bytes([lo, hi])
    }

    /// abs,X / abs,Y for reads: the dummy read at the un-carried address only on a page cross.
    #[inline(always)]
    fn abs_indexed_read<B: Bus>(&mut self, bus: &mut B, index: u8) -> u16 {
        let base = self.abs(bus);
        let ea = base.wrapping_add(index as u16);
        if (base ^ ea) & 0xFF00 != 0 {
            bus.read((base & 0xFF00) | (ea & 0x00FF));
        }
        ea
    }

    /// abs,X / abs,Y for writes and read-modify-writes: the dummy read always happens.
    #[inline(always)]
    fn abs_indexed_always<B: Bus>(&mut self, bus: &mut B, index: u8) -> u16 {
        let base = self.abs(bus);
        let ea = base.wrapping_add(index as u16);
        bus.read((base & 0xFF00) | (ea & 0x00FF));
        ea
    }

    /// (zp,X)
    #[inline(always)]
    fn indexed_indirect<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let ptr = self.zp_indexed(bus, self.x) as u8;
        let lo = bus.read(ptr as u16);
        let hi = bus.read(ptr.wrapping_add(1) as u16);
        u16::from_le_bytes([lo, hi])
    }

    /// The pointer of (zp),Y, before Y is added.
    #[inline(always)]
    fn indirect_base<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let ptr = self.fetch(bus);
        let lo = bus.read(ptr as u16);
        let hi = bus.read(ptr.wrapping_add(1) as u16);
        u16::from_le_bytes([lo, hi])
    }

    /// (zp),Y for reads.
    #[inline(always)]
    fn indirect_indexed_read<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let base = self.indirect_base(bus);
        let ea = base.wrapping_add(self.y as u16);
        if (base ^ ea) & 0xFF00 != 0 {
            bus.read((base & 0xFF00) | (ea & 0x00FF));
        }
        ea
    }

    /// (zp),Y for writes and read-modify-writes.
    #[inline(always)]
    fn indirect_indexed_always<B: Bus>(&mut self, bus: &mut B) -> u16 {
        let base = self.indirect_base(bus);
        let ea = base.wrapping_add(self.y as u16);
        bus.read((base & 0xFF00) | (ea & 0x00FF));
        ea
    }

    // ---- operations ------------------------------------------------------------------------

    #[inline(always)]
    fn adc(&mut self, m: u8) {
        if self.df {
            self.adc_decimal(m);
            return;
        }
        let sum = self.a as u16 + m as u16 + self.cf as u16;
        let r = sum as u8;
        self.vf = (!(self.a ^ m) & (self.a ^ r) & 0x80) != 0;
        self.cf = (sum >> 8) as u8;
        self.a = r;
        self.set_nz(r);
    }

    /// NMOS decimal ADC: Z from the binary sum, N and V from the sum after the low-nibble
    /// adjust only, C and A after both adjusts.
    #[inline(always)]
    fn adc_decimal(&mut self, m: u8) {
        let a = self.a;
        let binary = a.wrapping_add(m).wrapping_add(self.cf);
        let mut lo = (a & 0x0F) as u16 + (m & 0x0F) as u16 + self.cf as u16;
        if lo >= 0x0A {
            lo = ((lo + 0x06) & 0x0F) + 0x10;
        }
        let mut sum = (a & 0xF0) as u16 + (m & 0xF0) as u16 + lo;
        let signed = (a & 0xF0) as i8 as i16 + (m & 0xF0) as i8 as i16 + lo as i16;
        self.vf = !(-128..=127).contains(&signed);
        let n = sum & 0x80 != 0;
        if sum >= 0xA0 {
            sum += 0x60;
        }
        self.cf = (sum >= 0x100) as u8;
        self.set_n_z(n, binary == 0);
        self.a = sum as u8;
    }

    #[inline(always)]
    fn sbc(&mut self, m: u8) {
        if self.df {
            self.sbc_decimal(m);
            return;
        }
        self.adc(!m);
    }

    /// NMOS decimal SBC: all flags from the binary subtraction, A decimal-adjusted.
    #[inline(always)]
    fn sbc_decimal(&mut self, m: u8) {
        let a = self.a;
        let borrow = 1 - self.cf as i16;
        let diff = a as i16 - m as i16 - borrow;
        let r = diff as u8;
        self.vf = ((a ^ m) & (a ^ r) & 0x80) != 0;
        let mut lo = (a & 0x0F) as i16 - (m & 0x0F) as i16 - borrow;
        if lo < 0 {
            lo = ((lo - 0x06) & 0x0F) - 0x10;
        }
        let mut res = (a & 0xF0) as i16 - (m & 0xF0) as i16 + lo;
        if res < 0 {
            res -= 0x60;
        }
        self.cf = (diff >= 0) as u8;
        self.set_nz(r);
        self.a = res as u8;
    }

    #[inline(always)]
    fn compare(&mut self, reg: u8, m: u8) {
        let r = reg.wrapping_sub(m);
        self.cf = (reg >= m) as u8;
        self.set_nz(r);
    }

    #[inline(always)]
    fn asl(&mut self, v: u8) -> u8 {
        self.cf = v >> 7;
        let r = v << 1;
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn lsr(&mut self, v: u8) -> u8 {
        self.cf = v & 1;
        let r = v >> 1;
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn rol(&mut self, v: u8) -> u8 {
        let r = (v << 1) | self.cf;
        self.cf = v >> 7;
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn ror(&mut self, v: u8) -> u8 {
        let r = (v >> 1) | (self.cf << 7);
        self.cf = v & 1;
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn inc(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn dec(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        self.set_nz(r);
        r
    }

    #[inline(always)]
    fn bit(&mut self, m: u8) {
        self.nz = (self.a & m) as u16 | ((m & 0x80) as u16) << 8;
        self.vf = m & 0x40 != 0;
    }

    #[inline(always)]
    fn lda(&mut self, v: u8) {
        self.a = v;
        self.set_nz(v);
    }

    #[inline(always)]
    fn ldx(&mut self, v: u8) {
        self.x = v;
        self.set_nz(v);
    }

    #[inline(always)]
    fn ldy(&mut self, v: u8) {
        self.y = v;
        self.set_nz(v);
    }

    #[inline(always)]
    fn lax(&mut self, v: u8) {
        self.a = v;
        self.x = v;
        self.set_nz(v);
    }

    #[inline(always)]
    fn ora(&mut self, v: u8) {
        self.a |= v;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn and(&mut self, v: u8) {
        self.a &= v;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn eor(&mut self, v: u8) {
        self.a ^= v;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn cmp(&mut self, v: u8) {
        self.compare(self.a, v);
    }

    #[inline(always)]
    fn cpx(&mut self, v: u8) {
        self.compare(self.x, v);
    }

    #[inline(always)]
    fn cpy(&mut self, v: u8) {
        self.compare(self.y, v);
    }

    #[inline(always)]
    fn nop_read(&mut self, _v: u8) {}

    #[inline(always)]
    fn anc(&mut self, v: u8) {
        self.and(v);
        self.cf = self.a >> 7;
    }

    #[inline(always)]
    fn alr(&mut self, v: u8) {
        self.a &= v;
        self.a = self.lsr(self.a);
    }

    /// ARR: AND then ROR, with flags from the adder; in decimal mode the NMOS BCD fix-up.
    #[inline(always)]
    fn arr(&mut self, v: u8) {
        let t = self.a & v;
        let r = (t >> 1) | (self.cf << 7);
        if self.df {
            self.set_n_z(self.cf != 0, r == 0);
            self.vf = (r ^ t) & 0x40 != 0;
            let mut out = r;
            if (t & 0x0F) + (t & 0x01) > 0x05 {
                out = (out & 0xF0) | (out.wrapping_add(0x06) & 0x0F);
            }
            if (t as u16 & 0xF0) + (t as u16 & 0x10) > 0x50 {
                out = (out & 0x0F) | (out.wrapping_add(0x60) & 0xF0);
                self.cf = 1;
            } else {
                self.cf = 0;
            }
            self.a = out;
        } else {
            self.a = r;
            self.set_nz(r);
            self.cf = (r >> 6) & 1;
            self.vf = ((r >> 6) ^ (r >> 5)) & 1 != 0;
        }
    }

    #[inline(always)]
    fn sbx(&mut self, v: u8) {
        let ax = self.a & self.x;
        self.cf = (ax >= v) as u8;
        self.x = ax.wrapping_sub(v);
        self.set_nz(self.x);
    }

    #[inline(always)]
    fn ane(&mut self, v: u8) {
        self.a = (self.a | self.ane_magic) & self.x & v;
        self.set_nz(self.a);
    }

    #[inline(always)]
    fn lxa(&mut self, v: u8) {
        let r = (self.a | self.lxa_magic) & v;
        self.lax(r);
    }

    #[inline(always)]
    fn las(&mut self, v: u8) {
        let r = v & self.s;
        self.s = r;
        self.lax(r);
    }

    // combined read-modify-write operations of the undocumented opcodes
    #[inline(always)]
    fn slo(&mut self, v: u8) -> u8 {
        let r = self.asl(v);
        self.ora(r);
        r
    }

    #[inline(always)]
    fn rla(&mut self, v: u8) -> u8 {
        let r = self.rol(v);
        self.and(r);
        r
    }

    #[inline(always)]
    fn sre(&mut self, v: u8) -> u8 {
        let r = self.lsr(v);
        self.eor(r);
        r
    }

    #[inline(always)]
    fn rra(&mut self, v: u8) -> u8 {
        let r = self.ror(v);
        self.adc(r);
        r
    }

    #[inline(always)]
    fn dcp(&mut self, v: u8) -> u8 {
        let r = v.wrapping_sub(1);
        self.cmp(r);
        r
    }

    #[inline(always)]
    fn isc(&mut self, v: u8) -> u8 {
        let r = v.wrapping_add(1);
        self.sbc(r);
        r
    }

    // ---- instruction shapes ------------------------------------------------------------------

    /// Read-modify-write: read, write the old value back (the NMOS double write), write new.
    #[inline(always)]
    fn rmw<B: Bus>(&mut self, bus: &mut B, ea: u16, op: fn(&mut Self, u8) -> u8) {
        let v = bus.read(ea);
        bus.write(ea, v);
        let r = op(self, v);
        self.write_last(bus, ea, r);
    }

    /// Two-cycle implied instruction: the dummy read of the next byte is the last cycle.
    #[inline(always)]
    fn implied_start<B: Bus>(&mut self, bus: &mut B) -> u64 {
        self.poll(bus);
        let stalls = bus.stall_count();
        bus.read(self.pc);
        stalls
    }

    /// After an instruction's last read (and, for an implied one, its operation): if that
    /// read waited, poll again now, so an IRQ that arrives while CLI waits is taken right
    /// after it and one that arrives while SEI waits is not (as in VICE's x64sc).
    #[inline(always)]
    fn poll_again_if_waited<B: Bus>(&mut self, bus: &mut B, stalls: u64) {
        if bus.stall_count() != stalls {
            self.poll_after_stall(bus);
        }
    }

    #[inline(always)]
    fn branch<B: Bus>(&mut self, bus: &mut B, cond: bool) {
        // Taken or not, a branch latches interrupts during its first cycle only (an
        // interrupt that arrives while the operand read waits for the bus still counts, as
        // for any last cycle; one that arrives while the taken branch's dummy read waits
        // does not)...
        self.poll(bus);
        let stalls = bus.stall_count();
        let offset = bus.read(self.pc) as i8;
        self.poll_again_if_waited(bus, stalls);
        self.pc = self.pc.wrapping_add(1);
        if !cond {
            return;
        }
        bus.read(self.pc);
        let target = self.pc.wrapping_add(offset as u16);
        if (target ^ self.pc) & 0xFF00 != 0 {
            // ...and again in its third when it crosses a page.
            self.poll_again(bus);
            bus.read((self.pc & 0xFF00) | (target & 0x00FF));
        }
        self.pc = target;
    }

    /// SHA/SHX/SHY/TAS: store `value & (base high + 1)`; on a page cross that value also
    /// becomes the high byte of the address.
    #[inline(always)]
    fn store_and_high<B: Bus>(&mut self, bus: &mut B, base: u16, index: u8, value: u8) {
        let ea = base.wrapping_add(index as u16);
        let stalls = bus.stall_count();
        bus.read((base & 0xFF00) | (ea & 0x00FF));
        let anded = value & ((base >> 8) as u8).wrapping_add(1);
        // A page crossing puts the ANDed value on the address's high byte.
        let addr = if (base ^ ea) & 0xFF00 != 0 {
            ((anded as u16) << 8) | (ea & 0x00FF)
        } else {
            ea
        };
        // When the read before the write waited for the bus (DMA), the AND drops off (as
        // VICE's x64sc has it; the SHA/SHX/SHY tests of its collection check this).
        let v = if bus.stall_count() != stalls {
            value
        } else {
            anded
        };
        self.write_last(bus, addr, v);
    }

    fn jam(&mut self) {
        self.pc = self.pc.wrapping_sub(1);
        self.jammed = true;
    }

    /// Executes the opcode already fetched (PC points past it).
    #[inline(always)]
    fn execute<B: Bus>(&mut self, bus: &mut B, op: u8) {
        let c = self;
        macro_rules! read {
            (imm, $f:ident) => {{
                let ea = c.imm_addr();
                read!(@at ea, $f)
            }};
            (zp, $f:ident) => {{
                let ea = c.zp(bus);
                read!(@at ea, $f)
            }};
            (zpx, $f:ident) => {{
                let ea = c.zp_indexed(bus, c.x);
                read!(@at ea, $f)
            }};
            (zpy, $f:ident) => {{
                let ea = c.zp_indexed(bus, c.y);
                read!(@at ea, $f)
            }};
            (abs, $f:ident) => {{
                let ea = c.abs(bus);
                read!(@at ea, $f)
            }};
            (absx, $f:ident) => {{
                let ea = c.abs_indexed_read(bus, c.x);
                read!(@at ea, $f)
            }};
            (absy, $f:ident) => {{
                let ea = c.abs_indexed_read(bus, c.y);
                read!(@at ea, $f)
            }};
            (izx, $f:ident) => {{
                let ea = c.indexed_indirect(bus);
                read!(@at ea, $f)
            }};
            (izy, $f:ident) => {{
                let ea = c.indirect_indexed_read(bus);
                read!(@at ea, $f)
            }};
            (@at $ea:expr, $f:ident) => {{
                let v = c.read_last(bus, $ea);
                c.$f(v);
            }};
        }
        // The address of a write or read-modify-write, with its dummy accesses.
        macro_rules! write_address {
            (zp) => {
                c.zp(bus)
            };
            (zpx) => {
                c.zp_indexed(bus, c.x)
            };
            (zpy) => {
                c.zp_indexed(bus, c.y)
            };
            (abs) => {
                c.abs(bus)
            };
            (absx) => {
                c.abs_indexed_always(bus, c.x)
            };
            (absy) => {
                c.abs_indexed_always(bus, c.y)
            };
            (izx) => {
                c.indexed_indirect(bus)
            };
            (izy) => {
                c.indirect_indexed_always(bus)
            };
        }
        macro_rules! store {
            ($mode:ident, a) => {
                store!(@value $mode, c.a)
            };
            ($mode:ident, x) => {
                store!(@value $mode, c.x)
            };
            ($mode:ident, y) => {
                store!(@value $mode, c.y)
            };
            ($mode:ident, ax) => {
                store!(@value $mode, c.a & c.x)
            };
            (@value $mode:ident, $v:expr) => {{
                let ea = write_address!($mode);
                let v = $v;
                c.write_last(bus, ea, v);
            }};
        }
        macro_rules! rmw {
            (acc, $f:ident) => {{
                let stalls = c.implied_start(bus);
                c.a = c.$f(c.a);
                c.poll_again_if_waited(bus, stalls);
            }};
            ($mode:ident, $f:ident) => {{
                let ea = write_address!($mode);
                c.rmw(bus, ea, Self::$f);
            }};
        }
        macro_rules! implied {
            () => {{
                let stalls = c.implied_start(bus);
                c.poll_again_if_waited(bus, stalls);
            }};
            ($body:expr) => {{
                let stalls = c.implied_start(bus);
                $body;
                c.poll_again_if_waited(bus, stalls);
            }};
        }
        macro_rules! branch {
            ($cond:expr) => {{
                let cond = $cond;
                c.branch(bus, cond)
            }};
        }

        regular_opcodes!(op, c, {
            0x58 => implied!(c.iflag = false),
            // ---- stack
            0x48 => {
                bus.read(c.pc);
                let v = c.a;
                c.write_last(bus, 0x100 | c.s as u16, v);
                c.s = c.s.wrapping_sub(1);
            }
            0x08 => {
                bus.read(c.pc);
                let v = c.p();
                c.write_last(bus, 0x100 | c.s as u16, v);
                c.s = c.s.wrapping_sub(1);
            }
            0x68 => {
                bus.read(c.pc);
                bus.read(0x100 | c.s as u16);
                c.s = c.s.wrapping_add(1);
                let v = c.read_last(bus, 0x100 | c.s as u16);
                c.lda(v);
            }
            0x28 => {
                bus.read(c.pc);
                bus.read(0x100 | c.s as u16);
                c.s = c.s.wrapping_add(1);
                let v = c.read_last(bus, 0x100 | c.s as u16);
                c.set_p(v);
            }
            // ---- jumps and subroutines
            0x4C => {
                let lo = c.fetch(bus);
                let hi = c.read_last(bus, c.pc);
                c.pc = u16::from_le_bytes([lo, hi]);
            }
            0x6C => {
                let ptr = c.abs(bus);
                let lo = bus.read(ptr);
                // The NMOS page-wrap bug: the high byte comes from the same page.
                let hi = c.read_last(bus, (ptr & 0xFF00) | (ptr.wrapping_add(1) & 0x00FF));
                c.pc = u16::from_le_bytes([lo, hi]);
            }
            0x20 => {
                let lo = c.fetch(bus);
                bus.read(0x100 | c.s as u16);
                c.push(bus, (c.pc >> 8) as u8);
                c.push(bus, c.pc as u8);
                let hi = c.read_last(bus, c.pc);
                c.pc = u16::from_le_bytes([lo, hi]);
            }
            0x60 => {
                bus.read(c.pc);
                bus.read(0x100 | c.s as u16);
                c.s = c.s.wrapping_add(1);
                let lo = bus.read(0x100 | c.s as u16);
                c.s = c.s.wrapping_add(1);
                let hi = bus.read(0x100 | c.s as u16);
                c.pc = u16::from_le_bytes([lo, hi]);
                c.read_last(bus, c.pc);
                c.pc = c.pc.wrapping_add(1);
            }
            0x40 => {
                bus.read(c.pc);
                bus.read(0x100 | c.s as u16);
                c.s = c.s.wrapping_add(1);
                let p = bus.read(0x100 | c.s as u16);
                c.set_p(p);
                c.s = c.s.wrapping_add(1);
                let lo = bus.read(0x100 | c.s as u16);
                c.s = c.s.wrapping_add(1);
                let hi = c.read_last(bus, 0x100 | c.s as u16);
                c.pc = u16::from_le_bytes([lo, hi]);
            }
            0x00 => {
                c.fetch(bus); // the padding byte
                let nmi = c.nmi_latched;
                c.push_pc_and_p(bus, c.pc, nmi, flag::B | flag::U);
            }
            // ---- undocumented: unstable
            0x8B => read!(imm, ane),
            0xAB => read!(imm, lxa),
            0xBB => read!(absy, las),
            // stores ANDed with the address high byte + 1
            0x93 => {
                let base = c.indirect_base(bus);
                c.store_and_high(bus, base, c.y, c.a & c.x);
            }
            0x9F => {
                let base = c.abs(bus);
                c.store_and_high(bus, base, c.y, c.a & c.x);
            }
            0x9E => {
                let base = c.abs(bus);
                c.store_and_high(bus, base, c.y, c.x);
            }
            0x9C => {
                let base = c.abs(bus);
                c.store_and_high(bus, base, c.x, c.y);
            }
            0x9B => {
                let base = c.abs(bus);
                c.s = c.a & c.x;
                c.store_and_high(bus, base, c.y, c.s);
            }
            // ---- JAM: the CPU stops; the run reports it
            0x02 | 0x12 | 0x22 | 0x32 | 0x42 | 0x52 | 0x62 | 0x72 | 0x92 | 0xB2 | 0xD2 | 0xF2 => {
                c.jam()
            }
        })
    }
}
