//! The flat-RAM harness: a plain 6502 with 64 KiB of RAM, the PRG loaded, started at its SYS
//! address as BASIC would, and the two KERNAL calls the RYG3 engine makes (CHROUT $FFD2,
//! GETIN $FFE4) handled by looking at the PC before each instruction. The same harness drives
//! c64kit's own core (to separate the core from the C64 around it) and the `mos6502` crate;
//! `xtask/bench/py65_run.py` does the same in Python for py65.

use std::time::{Duration, Instant};

/// CHROUT: append A to the transcript, return.
const CHROUT: u16 = 0xFFD2;
/// GETIN: the next key (A, Z clear) or, with the script used up, the end of the run.
const GETIN: u16 = 0xFFE4;
/// Where the RTS from the program's SYS lands (the return address BASIC left on the stack).
const BASIC_RETURN: u16 = 0xE147;
/// The stack pointer BASIC's SYS leaves (as c64kit's `boot::SYS_STACK_POINTER`).
const SYS_STACK_POINTER: u8 = 0xF6;

/// What a 6502 emulator must offer the harness.
pub trait FlatCpu {
    /// A fresh CPU over zeroed 64 KiB RAM.
    fn new() -> Self;
    fn ram(&mut self) -> &mut [u8; 0x10000];
    fn pc(&self) -> u16;
    fn set_pc(&mut self, pc: u16);
    fn a(&self) -> u8;
    /// Sets A with N and Z from it and C clear (what GETIN leaves).
    fn set_a_getin(&mut self, a: u8);
    fn s(&self) -> u8;
    fn set_s(&mut self, s: u8);
    /// Runs one instruction; false if the CPU could not (JAM, unknown opcode).
    fn step(&mut self) -> bool;
    /// Runs instructions without the harness looking at each, up to the first one at a
    /// KERNAL address or one it leaves to `step`, while the cycle count is below `limit`;
    /// false if this emulator has no such mode (the harness then steps every instruction).
    fn run_to_kernal(&mut self, _limit: u64) -> bool {
        false
    }
    /// Cycles as the emulator counts them.
    fn cycles(&self) -> u64;
}

/// Why a flat run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlatStop {
    /// GETIN with no key left: the normal end of a workload.
    InputExhausted,
    ReturnedToBasic,
    /// A PC in $E000-$FFFF other than CHROUT and GETIN: a KERNAL call the harness lacks.
    UnexpectedKernalCall(u16),
    Jammed(u16),
    InstructionBudget,
}

impl std::fmt::Display for FlatStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FlatStop::InputExhausted => write!(f, "input exhausted"),
            FlatStop::ReturnedToBasic => write!(f, "returned to BASIC"),
            FlatStop::UnexpectedKernalCall(pc) => write!(f, "unexpected KERNAL call ${pc:04X}"),
            FlatStop::Jammed(pc) => write!(f, "CPU could not execute at ${pc:04X}"),
            FlatStop::InstructionBudget => write!(f, "instruction budget reached"),
        }
    }
}

pub struct FlatRun {
    /// Instructions stepped one by one (those run by `run_to_kernal` are not counted).
    pub instructions: u64,
    pub cycles: u64,
    pub time: Duration,
    pub stop: FlatStop,
    pub transcript: Vec<u8>,
}

/// The program, where to start it and what to type.
pub struct FlatJob<'a> {
    pub load_address: u16,
    pub data: &'a [u8],
    pub sys: u16,
    pub keys: &'a [u8],
    pub max_instructions: u64,
}

/// Runs `job` on a fresh `C`; only the instruction loop is timed.
pub fn run<C: FlatCpu>(job: &FlatJob) -> FlatRun {
    let mut cpu = C::new();
    let ram = cpu.ram();
    for (i, b) in job.data.iter().enumerate() {
        ram[job.load_address.wrapping_add(i as u16) as usize] = *b;
    }
    // What RUN and SYS leave that the program could see: LINNUM = the SYS address, and the
    // statement loop's and SYS's return addresses on the stack (as c64kit's boot::enter_sys).
    ram[0x14..0x16].copy_from_slice(&job.sys.to_le_bytes());
    ram[0x01F7..0x01FB].copy_from_slice(&[0x46, 0xE1, 0xAD, 0xA7]);
    cpu.set_s(SYS_STACK_POINTER);
    cpu.set_pc(job.sys);

    let mut transcript = Vec::with_capacity(4096);
    let mut keys = job.keys.iter();
    let mut instructions = 0u64;
    // For emulators that do not count instructions in `run_to_kernal`: no 6502 instruction
    // takes more than 8 cycles.
    let max_cycles = job.max_instructions.saturating_mul(8);
    let start = Instant::now();
    let stop = loop {
        let pc = cpu.pc();
        if pc >= 0xE000 {
            match pc {
                CHROUT => {
                    transcript.push(cpu.a());
                    rts(&mut cpu);
                    continue;
                }
                GETIN => match keys.next() {
                    Some(&k) => {
                        cpu.set_a_getin(k);
                        rts(&mut cpu);
                        continue;
                    }
                    None => break FlatStop::InputExhausted,
                },
                BASIC_RETURN => break FlatStop::ReturnedToBasic,
                _ => break FlatStop::UnexpectedKernalCall(pc),
            }
        }
        if instructions >= job.max_instructions || cpu.cycles() >= max_cycles {
            break FlatStop::InstructionBudget;
        }
        if cpu.run_to_kernal(max_cycles) && cpu.pc() >= 0xE000 {
            continue;
        }
        if !cpu.step() {
            break FlatStop::Jammed(pc);
        }
        instructions += 1;
    };
    let time = start.elapsed();
    FlatRun {
        instructions,
        cycles: cpu.cycles(),
        time,
        stop,
        transcript,
    }
}

/// Returns from a trapped KERNAL call: pull the return address, continue after the JSR.
fn rts<C: FlatCpu>(cpu: &mut C) {
    let s = cpu.s();
    let ram = cpu.ram();
    let lo = ram[0x100 | s.wrapping_add(1) as usize];
    let hi = ram[0x100 | s.wrapping_add(2) as usize];
    cpu.set_s(s.wrapping_add(2));
    cpu.set_pc(u16::from_le_bytes([lo, hi]).wrapping_add(1));
}

/// Flat RAM that lends all but $E000-$FFFF to c64kit's direct path, so that it hands every
/// KERNAL call (and read up there) back to the harness.
pub struct KernalTrapRam(c64kit_cpu::FlatRam);

impl c64kit_cpu::Bus for KernalTrapRam {
    #[inline(always)]
    fn read(&mut self, addr: u16) -> u8 {
        self.0.read(addr)
    }
    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        self.0.write(addr, value)
    }
    #[inline(always)]
    fn direct_memory(&mut self) -> Option<c64kit_cpu::DirectMemory<'_>> {
        let mut lent = self.0.direct_memory()?;
        lent.readable = 0x3FFF;
        Some(lent)
    }
}

/// c64kit's own core (c64kit-cpu) on flat RAM: `DIRECT` runs it on its direct path between
/// KERNAL calls (as the C64 does), otherwise cycle by cycle, one `step` per instruction.
pub struct C64kitCpu<const DIRECT: bool> {
    cpu: c64kit_cpu::Cpu,
    bus: KernalTrapRam,
}

impl<const DIRECT: bool> FlatCpu for C64kitCpu<DIRECT> {
    fn new() -> Self {
        C64kitCpu {
            cpu: c64kit_cpu::Cpu::new(),
            bus: KernalTrapRam(c64kit_cpu::FlatRam::new()),
        }
    }
    fn ram(&mut self) -> &mut [u8; 0x10000] {
        &mut self.bus.0.mem
    }
    #[inline(always)]
    fn pc(&self) -> u16 {
        self.cpu.pc
    }
    fn set_pc(&mut self, pc: u16) {
        self.cpu.pc = pc;
    }
    fn a(&self) -> u8 {
        self.cpu.a
    }
    fn set_a_getin(&mut self, a: u8) {
        self.cpu.load_a(a);
        self.cpu.set_carry(false);
    }
    fn s(&self) -> u8 {
        self.cpu.s
    }
    fn set_s(&mut self, s: u8) {
        self.cpu.s = s;
    }
    #[inline(always)]
    fn step(&mut self) -> bool {
        self.cpu.step(&mut self.bus);
        !self.cpu.jammed
    }
    fn run_to_kernal(&mut self, limit: u64) -> bool {
        if DIRECT {
            self.cpu.run_direct(&mut self.bus, limit);
        }
        DIRECT
    }
    fn cycles(&self) -> u64 {
        self.bus.0.cycles
    }
}

/// 64 KiB for the `mos6502` crate (its own `Memory` lives on the stack; this one on the heap).
pub struct Ram(Box<[u8; 0x10000]>);

impl mos6502::memory::Bus for Ram {
    #[inline(always)]
    fn get_byte(&mut self, address: u16) -> u8 {
        self.0[address as usize]
    }
    #[inline(always)]
    fn set_byte(&mut self, address: u16, value: u8) {
        self.0[address as usize] = value;
    }
}

/// The `mos6502` crate from crates.io, NMOS variant.
pub struct Mos6502(mos6502::cpu::CPU<Ram, mos6502::instruction::Nmos6502>);

impl FlatCpu for Mos6502 {
    fn new() -> Self {
        Mos6502(mos6502::cpu::CPU::new(
            Ram(Box::new([0; 0x10000])),
            mos6502::instruction::Nmos6502,
        ))
    }
    fn ram(&mut self) -> &mut [u8; 0x10000] {
        &mut self.0.memory.0
    }
    #[inline(always)]
    fn pc(&self) -> u16 {
        self.0.registers.program_counter
    }
    fn set_pc(&mut self, pc: u16) {
        self.0.registers.program_counter = pc;
    }
    fn a(&self) -> u8 {
        self.0.registers.accumulator
    }
    fn set_a_getin(&mut self, a: u8) {
        use mos6502::registers::Status;
        let r = &mut self.0.registers;
        r.accumulator = a;
        r.status.set(Status::PS_ZERO, a == 0);
        r.status.set(Status::PS_NEGATIVE, a & 0x80 != 0);
        r.status.remove(Status::PS_CARRY);
    }
    fn s(&self) -> u8 {
        self.0.registers.stack_pointer.0
    }
    fn set_s(&mut self, s: u8) {
        self.0.registers.stack_pointer.0 = s;
    }
    #[inline(always)]
    fn step(&mut self) -> bool {
        self.0.single_step()
    }
    fn cycles(&self) -> u64 {
        self.0.cycles
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LDX #0; loop: JSR GETIN; BEQ done; JSR CHROUT; INX; BNE loop; done: RTS.
    const ECHO: &[u8] = &[
        0xA2, 0x00, 0x20, 0xE4, 0xFF, 0xF0, 0x06, 0x20, 0xD2, 0xFF, 0xE8, 0xD0, 0xF5, 0x60,
    ];

    fn echo<C: FlatCpu>() -> FlatRun {
        run::<C>(&FlatJob {
            load_address: 0xC000,
            data: ECHO,
            sys: 0xC000,
            keys: b"HI",
            max_instructions: 1000,
        })
    }

    #[test]
    fn both_cores_echo_keys_and_stop_when_they_run_out() {
        for r in [echo::<C64kitCpu<false>>(), echo::<Mos6502>()] {
            assert_eq!(r.transcript, b"HI");
            assert_eq!(r.stop, FlatStop::InputExhausted);
            // LDX, then per key JSR-trap, BEQ, JSR-trap, INX, BNE.
            assert_eq!(r.instructions, 1 + 2 * 5 + 1);
        }
        // The direct path runs the same program, counting only what it steps.
        let r = echo::<C64kitCpu<true>>();
        assert_eq!(
            (r.transcript.as_slice(), r.stop),
            (&b"HI"[..], FlatStop::InputExhausted)
        );
        assert_eq!(r.cycles, echo::<C64kitCpu<false>>().cycles);
    }
}
