//! Our own tests: the real-chip results of the opcodes the netlist gets wrong, JAM, and whole
//! programs (loops, subroutines, decimal arithmetic, an IRQ arriving during a busy loop).

use c64kit_cpu::{flag, Bus, Cpu, FlatRam, Interrupts};

/// Runs `code` at $0200 on flat RAM until the PC sits in a one-instruction loop (`JMP *`)
/// or the instruction budget runs out.
fn run(code: &[u8], setup: impl FnOnce(&mut Cpu)) -> (Cpu, FlatRam) {
    let mut bus = FlatRam::new();
    bus.load(0x0200, code);
    let mut cpu = Cpu::new();
    cpu.pc = 0x0200;
    setup(&mut cpu);
    for _ in 0..100_000 {
        let before = cpu.pc;
        cpu.step(&mut bus);
        if cpu.pc == before || cpu.jammed {
            return (cpu, bus);
        }
    }
    panic!("program did not finish");
}

/// One immediate-mode instruction followed by `JMP *`.
fn imm(op: u8, a: u8, operand: u8, p: u8) -> Cpu {
    let (cpu, _) = run(&[op, operand, 0x4C, 0x02, 0x02], |c| {
        c.a = a;
        c.set_p(p);
    });
    cpu
}

#[test]
fn anc_ands_and_copies_n_to_carry() {
    let c = imm(0x0B, 0x80, 0xC0, 0);
    assert_eq!(c.a, 0x80);
    assert_eq!(c.p() & (flag::N | flag::C), flag::N | flag::C);
    let c = imm(0x2B, 0x7F, 0x3F, flag::C);
    assert_eq!(c.a, 0x3F);
    assert_eq!(c.p() & (flag::N | flag::C), 0);
}

#[test]
fn alr_ands_then_shifts_right() {
    let c = imm(0x4B, 0xFF, 0x0F, 0);
    assert_eq!(c.a, 0x07);
    assert!(c.carry());
    let c = imm(0x4B, 0xF0, 0x0F, flag::C);
    assert_eq!(c.a, 0x00);
    assert!(!c.carry());
    assert!(c.zero());
}

#[test]
fn arr_binary_mode_flags_come_from_bits_6_and_5() {
    // A & imm = $FF, rotated with C=1: $FF; C = bit 6 = 1, V = bit 6 ^ bit 5 = 0.
    let c = imm(0x6B, 0xFF, 0xFF, flag::C);
    assert_eq!(c.a, 0xFF);
    assert_eq!(c.p() & (flag::N | flag::V | flag::C), flag::N | flag::C);
    // $C0 >> 1 = $60 (C=0): C = 1, V = 1 ^ 1 = 0.
    let c = imm(0x6B, 0xC0, 0xFF, 0);
    assert_eq!(c.a, 0x60);
    assert_eq!(c.p() & (flag::V | flag::C), flag::C);
    // $40 >> 1 = $20: C = 0, V = 0 ^ 1 = 1.
    let c = imm(0x6B, 0x40, 0xFF, 0);
    assert_eq!(c.a, 0x20);
    assert_eq!(c.p() & (flag::V | flag::C), flag::V);
}

#[test]
fn arr_decimal_mode_applies_the_nmos_bcd_fixup() {
    // t = $FF, C = 0: ROR gives $7F, low nibble fix -> $75, high nibble fix -> $D5, C = 1.
    let c = imm(0x6B, 0xFF, 0xFF, flag::D);
    assert_eq!(c.a, 0xD5);
    assert!(c.carry());
    assert_eq!(c.p() & flag::N, 0, "N is the old carry");
    // t = $0F, C = 1: ROR gives $87 (N = old C = 1), low fix -> $8D, high nibble untouched.
    let c = imm(0x6B, 0x0F, 0xFF, flag::D | flag::C);
    assert_eq!(c.a, 0x8D);
    assert!(!c.carry());
    assert_eq!(c.p() & flag::N, flag::N);
    // t = $22: no fix-up at all; V from bit 6 changing ($22 -> $11: no).
    let c = imm(0x6B, 0x22, 0xFF, flag::D);
    assert_eq!(c.a, 0x11);
    assert_eq!(c.p() & (flag::V | flag::C), 0);
}

#[test]
fn las_ands_memory_with_s_into_a_x_and_s() {
    // LDX #$3C; TXS; LAS $0300,Y with Y=0; JMP *
    let code = [0xA2, 0x3C, 0x9A, 0xBB, 0x00, 0x03, 0x4C, 0x06, 0x02];
    let (cpu, _) = run(&code, |_| {});
    // $0300 holds 0 (fresh RAM) -> all zero; use a second run with data.
    assert_eq!((cpu.a, cpu.x, cpu.s), (0, 0, 0));
    let mut bus = FlatRam::new();
    bus.load(0x0200, &code);
    bus.mem[0x0300] = 0xF0;
    let mut cpu = Cpu::new();
    cpu.pc = 0x0200;
    for _ in 0..3 {
        cpu.step(&mut bus);
    }
    assert_eq!((cpu.a, cpu.x, cpu.s), (0x30, 0x30, 0x30));
}

#[test]
fn jam_stops_the_cpu_at_the_opcode() {
    let (cpu, _) = run(&[0xEA, 0x02, 0xEA], |_| {});
    assert!(cpu.jammed);
    assert_eq!(cpu.pc, 0x0201);
}

#[test]
fn counting_loop_with_exact_cycle_count() {
    // LDX #0; LDA #0; loop: CLC; ADC #1... sums 1..10 into A via X.
    //   A2 0A      LDX #10        2
    //   A9 00      LDA #0         2
    // L 86 10      STX $10        3  (x10)
    //   18         CLC            2
    //   65 10      ADC $10        3
    //   CA         DEX            2
    //   D0 F8      BNE L          3 taken / 2 last
    //   8D 00 03   STA $0300      4
    //   4C 0F 02   JMP *          3
    let code = [
        0xA2, 0x0A, 0xA9, 0x00, 0x86, 0x10, 0x18, 0x65, 0x10, 0xCA, 0xD0, 0xF8, 0x8D, 0x00, 0x03,
        0x4C, 0x0F, 0x02,
    ];
    let (cpu, bus) = run(&code, |_| {});
    assert_eq!(bus.mem[0x0300], 55);
    assert_eq!(cpu.pc, 0x020F);
    assert_eq!(bus.cycles, 2 + 2 + 10 * (3 + 2 + 3 + 2) + 9 * 3 + 2 + 4 + 3);
}

#[test]
fn subroutines_nest_and_return() {
    //   20 10 02   JSR sub1
    //   4C 03 02   JMP *
    // $0210 sub1: E8 INX; 20 20 02 JSR sub2; E8 INX; 60 RTS
    // $0220 sub2: C8 INY; 60 RTS
    let mut code = vec![0xEA; 0x30];
    code[..6].copy_from_slice(&[0x20, 0x10, 0x02, 0x4C, 0x03, 0x02]);
    code[0x10..0x16].copy_from_slice(&[0xE8, 0x20, 0x20, 0x02, 0xE8, 0x60]);
    code[0x20..0x22].copy_from_slice(&[0xC8, 0x60]);
    let (cpu, _) = run(&code, |_| {});
    assert_eq!((cpu.x, cpu.y, cpu.s), (2, 1, 0xFD));
    assert_eq!(cpu.pc, 0x0203);
}

#[test]
fn decimal_arithmetic_adds_and_subtracts_bcd() {
    // SED; CLC; LDA #$58; ADC #$46; STA $0300; PHP; SEC; LDA #$12; SBC #$21; STA $0301; JMP *
    let code = [
        0xF8, 0x18, 0xA9, 0x58, 0x69, 0x46, 0x8D, 0x00, 0x03, 0x08, 0x38, 0xA9, 0x12, 0xE9, 0x21,
        0x8D, 0x01, 0x03, 0x4C, 0x12, 0x02,
    ];
    let (cpu, bus) = run(&code, |_| {});
    assert_eq!(bus.mem[0x0300], 0x04, "58 + 46 = 104");
    assert_eq!(
        bus.mem[0x01FD] & flag::C,
        flag::C,
        "carry out of the BCD add"
    );
    assert_eq!(bus.mem[0x0301], 0x91, "12 - 21 = -9 -> 91 with borrow");
    assert!(!cpu.carry());
}

/// Flat RAM with a device that pulls /IRQ low from a given cycle until the program writes
/// to $D000 (the acknowledge), like a timer chip.
struct TimerBus {
    ram: FlatRam,
    fire_at: u64,
    asserted: bool,
}

impl Bus for TimerBus {
    fn read(&mut self, addr: u16) -> u8 {
        self.ram.read(addr)
    }
    fn write(&mut self, addr: u16, value: u8) {
        if addr == 0xD000 {
            self.asserted = false;
            self.fire_at = self.ram.cycles + 500;
        }
        self.ram.write(addr, value)
    }
    fn poll_interrupts(&mut self) -> Interrupts {
        if self.ram.cycles >= self.fire_at {
            self.asserted = true;
        }
        Interrupts {
            irq: self.asserted,
            nmi_edge: false,
        }
    }
}

#[test]
fn irq_interrupts_a_busy_loop_and_returns() {
    // main: CLI; loop: INC $0300; BNE loop; INC $0302; JMP loop (a 16-bit counter)
    // irq at $0400: INC $0301; STA $D000 (ack); RTI
    let mut ram = FlatRam::new();
    ram.load(
        0x0200,
        &[
            0x58, 0xEE, 0x00, 0x03, 0xD0, 0xFB, 0xEE, 0x02, 0x03, 0x4C, 0x01, 0x02,
        ],
    );
    ram.load(0x0400, &[0xEE, 0x01, 0x03, 0x8D, 0x00, 0xD0, 0x40]);
    ram.load(0xFFFE, &[0x00, 0x04]);
    let mut bus = TimerBus {
        ram,
        fire_at: 300,
        asserted: false,
    };
    let mut cpu = Cpu::new();
    cpu.pc = 0x0200;
    while bus.ram.cycles < 10_000 {
        cpu.step(&mut bus);
    }
    let irqs = bus.ram.mem[0x0301];
    // First at ~300, then every ~500 cycles plus the handler: about 19.
    assert!((18..=20).contains(&irqs), "{irqs} interrupts");
    let loops = bus.ram.mem[0x0300] as u32 + 256 * bus.ram.mem[0x0302] as u32;
    assert!(loops > 500, "the main loop kept running ({loops} loops)");
    assert_eq!(cpu.s, 0xFD, "every RTI balanced its interrupt");
    assert!(!cpu.interrupt_disabled());
}
