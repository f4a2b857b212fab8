//! Speed of the bare core on flat RAM (instructions per second cycle by cycle, cycles per
//! second on the direct path), on a program that mixes loads, stores, arithmetic, indexed and
//! indirect addressing, subroutine calls and branches.

use c64kit_cpu::{Cpu, FlatRam};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// A sieve-like loop: for each X, fill a table through a (zp),Y pointer, sum it with ADC,
/// call a subroutine; forever.
const PROGRAM: &[u8] = &[
    0xA9, 0x00, 0x85, 0xFB, 0xA9, 0x40, 0x85,
    0xFC, // $0200: LDA #0, STA $FB, LDA #$40, STA $FC
    0xA0, 0x00, // $0208 outer: LDY #0
    0x98, 0x91, 0xFB, 0xC8, 0xD0, 0xFA, // $020A fill: TYA, STA ($FB),Y, INY, BNE fill
    0x18, 0xA9, 0x00, 0xA2, 0x00, // $0210: CLC, LDA #0, LDX #0
    0x7D, 0x00, 0x40, 0xE8, 0xD0, 0xFA, // $0215 sum: ADC $4000,X, INX, BNE sum
    0x20, 0x21, 0x02, 0x4C, 0x08, 0x02, // $021B: JSR $0221, JMP outer
    0x48, 0xE6, 0xFD, 0x68, 0x60, // $0221: PHA, INC $FD, PLA, RTS
];

fn bench_cpu(c: &mut Criterion) {
    const STEPS: u64 = 1_000_000;
    let mut group = c.benchmark_group("cpu");
    group.throughput(Throughput::Elements(STEPS));
    group.bench_function("flat_ram_mixed_1M_instructions", |b| {
        let mut bus = FlatRam::new();
        bus.load(0x0200, PROGRAM);
        let mut cpu = Cpu::new();
        cpu.pc = 0x0200;
        b.iter(|| {
            for _ in 0..STEPS {
                cpu.step(&mut bus);
            }
        });
        assert!(!cpu.jammed, "the benchmark program must not jam");
    });
    group.finish();

    // The direct path on the same program, measured in emulated cycles.
    const CYCLES: u64 = 4_000_000;
    let mut group = c.benchmark_group("cpu_direct");
    group.throughput(Throughput::Elements(CYCLES));
    group.bench_function("flat_ram_mixed_4M_cycles", |b| {
        let mut bus = FlatRam::new();
        bus.load(0x0200, PROGRAM);
        let mut cpu = Cpu::new();
        cpu.pc = 0x0200;
        b.iter(|| {
            let end = bus.cycles + CYCLES;
            while bus.cycles < end && !cpu.jammed {
                cpu.run_direct(&mut bus, end);
            }
        });
        assert!(!cpu.jammed, "the benchmark program must not jam");
    });
    group.finish();
}

criterion_group!(benches, bench_cpu);
criterion_main!(benches);
