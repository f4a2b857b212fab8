//! Reads that wait for the bus (RDY low: on a C64 the VIC-II's DMA): the interrupt poll of
//! an instruction whose last read waited, and the unstable stores that lose their AND.

use c64kit_cpu::{Bus, Cpu, Interrupts};

/// Plain RAM whose reads wait while the cycle falls in `stall` (they complete at its end),
/// with /IRQ held low from cycle `irq_from` on.
struct StallingBus {
    mem: Vec<u8>,
    cycles: u64,
    stall: std::ops::Range<u64>,
    stalls: u64,
    irq_from: u64,
}

impl StallingBus {
    fn new(code: &[u8], stall: std::ops::Range<u64>, irq_from: u64) -> Self {
        let mut mem = vec![0xEA; 0x10000];
        mem[0x1000..0x1000 + code.len()].copy_from_slice(code);
        // The IRQ handler at $2000.
        mem[0xFFFE] = 0x00;
        mem[0xFFFF] = 0x20;
        StallingBus {
            mem,
            cycles: 0,
            stall,
            stalls: 0,
            irq_from,
        }
    }
}

impl Bus for StallingBus {
    fn read(&mut self, addr: u16) -> u8 {
        self.cycles += 1;
        if self.stall.contains(&self.cycles) {
            self.cycles = self.stall.end;
            self.stalls += 1;
        }
        self.mem[addr as usize]
    }

    fn write(&mut self, addr: u16, value: u8) {
        self.cycles += 1;
        self.mem[addr as usize] = value;
    }

    fn poll_interrupts(&mut self) -> Interrupts {
        Interrupts {
            irq: self.cycles >= self.irq_from,
            nmi_edge: false,
        }
    }

    fn poll_interrupts_after_stall(&mut self) -> Interrupts {
        Interrupts {
            irq: self.cycles > self.irq_from, // at cycles - 1
            nmi_edge: false,
        }
    }

    fn stall_count(&self) -> u64 {
        self.stalls
    }
}

fn cpu_at_1000() -> Cpu {
    let mut cpu = Cpu::new();
    cpu.pc = 0x1000;
    cpu.set_p(0x20); // I clear
    cpu
}

#[test]
fn an_irq_arriving_while_the_last_read_waits_is_taken_after_that_instruction() {
    // NOP (cycles 1-2; the read in cycle 2 waits until cycle 10), then NOP, NOP.
    // IRQ from cycle 6, during the wait.
    let mut bus = StallingBus::new(&[0xEA, 0xEA, 0xEA], 2..10, 6);
    let mut cpu = cpu_at_1000();
    cpu.step(&mut bus);
    assert_eq!(bus.cycles, 10);
    cpu.step(&mut bus); // the interrupt sequence, not the second NOP
    assert_eq!(cpu.pc, 0x2000);
    // Without a wait, an IRQ that late is taken only after the next instruction.
    let mut bus = StallingBus::new(&[0xEA, 0xEA, 0xEA], 0..0, 2);
    let mut cpu = cpu_at_1000();
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(cpu.pc, 0x1002);
}

#[test]
fn sei_that_waits_does_not_take_an_irq_arriving_meanwhile_and_cli_does() {
    let mut bus = StallingBus::new(&[0x78, 0xEA], 2..10, 6);
    let mut cpu = cpu_at_1000();
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(cpu.pc, 0x1002, "SEI: the NOP runs, no interrupt");
    let mut bus = StallingBus::new(&[0x58, 0xEA], 2..10, 6);
    let mut cpu = cpu_at_1000();
    cpu.set_p(0x24); // I set
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(cpu.pc, 0x2000, "CLI: taken right after it");
}

#[test]
fn sha_whose_dummy_read_waits_stores_a_and_x_without_the_high_byte() {
    // LDA #$FF, LDX #$FF, LDY #$00, SHA $3000,Y: stores A & X & ($30 + 1) = $31 normally.
    let code = [0xA9, 0xFF, 0xA2, 0xFF, 0xA0, 0x00, 0x9F, 0x00, 0x30];
    let mut bus = StallingBus::new(&code, 0..0, u64::MAX);
    let mut cpu = cpu_at_1000();
    for _ in 0..4 {
        cpu.step(&mut bus);
    }
    assert_eq!(bus.mem[0x3000], 0x31);
    // The SHA starts at cycle 7; its dummy read is its 4th cycle (10): let it wait.
    let mut bus = StallingBus::new(&code, 10..20, u64::MAX);
    let mut cpu = cpu_at_1000();
    for _ in 0..4 {
        cpu.step(&mut bus);
    }
    assert_eq!(bus.mem[0x3000], 0xFF);
}

#[test]
fn a_taken_branch_counts_an_irq_arriving_while_its_operand_read_waits_not_its_dummy_read() {
    // BEQ +0 (taken, no page cross: cycles 1-3), then NOPs. Z is set by set_p below.
    let start = |stall: std::ops::Range<u64>, irq_from: u64| {
        let mut bus = StallingBus::new(&[0xF0, 0x00, 0xEA, 0xEA], stall, irq_from);
        let mut cpu = Cpu::new();
        cpu.pc = 0x1000;
        cpu.set_p(0x22); // I clear, Z set
        cpu.step(&mut bus);
        cpu.step(&mut bus);
        cpu.pc
    };
    // The operand read (cycle 2) waits until cycle 10; the IRQ arrives at 6: taken after
    // the branch, as after any instruction whose last poll point waited.
    assert_eq!(start(2..10, 6), 0x2000);
    // The dummy read (cycle 3) waits until 10: the same IRQ is taken one instruction later.
    assert_eq!(start(3..10, 6), 0x1003);
    // Without a wait an IRQ from cycle 2 is too late for the branch.
    assert_eq!(start(0..0, 2), 0x1003);
}

#[test]
fn a_branch_not_taken_whose_operand_read_waits_takes_an_irq_arriving_meanwhile() {
    let mut bus = StallingBus::new(&[0xF0, 0x00, 0xEA], 2..10, 6);
    let mut cpu = cpu_at_1000(); // Z clear: not taken
    cpu.step(&mut bus);
    cpu.step(&mut bus);
    assert_eq!(cpu.pc, 0x2000);
}
