//! Speed over the full C64 bus (instructions per second cycle by cycle; cycles per second of
//! `Machine::run` with the direct path): PLA banking, I/O dispatch and the CIA 1 system IRQ
//! (with its KERNAL trap) live, on a mixed loop; and with `C64KIT_ROMS` naming a folder with
//! Commodore's images, the same loop with their KERNAL's interrupt code running.

use c64kit_machine::{Machine, RomPaths, Roms, StopReason};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Fill a page through (zp),Y, sum it with ADC abs,X, call a subroutine; forever.
const PROGRAM: &[u8] = &[
    0xA9, 0x00, 0x85, 0xFB, 0xA9, 0x40, 0x85, 0xFC, // $C000: pointer $4000 in $FB/$FC
    0xA0, 0x00, // $C008 outer: LDY #0
    0x98, 0x91, 0xFB, 0xC8, 0xD0, 0xFA, // fill: TYA, STA ($FB),Y, INY, BNE fill
    0x18, 0xA9, 0x00, 0xA2, 0x00, // CLC, LDA #0, LDX #0
    0x7D, 0x00, 0x40, 0xE8, 0xD0, 0xFA, // sum: ADC $4000,X, INX, BNE sum
    0x20, 0x21, 0xC0, 0x4C, 0x08, 0xC0, // JSR $C021, JMP outer
    0x48, 0xE6, 0xFD, 0x68, 0x60, // $C021: PHA, INC $FD, PLA, RTS
];

fn bench_machine(c: &mut Criterion) {
    const STEPS: u64 = 1_000_000;
    let mut group = c.benchmark_group("machine");
    group.throughput(Throughput::Elements(STEPS));
    group.bench_function("c64_bus_mixed_1M_instructions", |b| {
        let mut m = Machine::builtin();
        m.load_raw(0xC000, PROGRAM);
        m.start_at(0xC000, 0x0801);
        b.iter(|| {
            for _ in 0..STEPS {
                m.cpu.step(&mut m.bus);
                if m.cpu.jammed {
                    // The IRQ handler's trap: let the machine run it.
                    m.run(1);
                }
            }
        });
        assert!(!m.cpu.jammed, "the benchmark program must not jam");
    });
    group.finish();

    // `Machine::run` as programs run: the direct path between I/O, traps and interrupts.
    const CYCLES: u64 = 4_000_000;
    let mut group = c.benchmark_group("machine_run");
    group.throughput(Throughput::Elements(CYCLES));
    group.bench_function("c64_mixed_4M_cycles", |b| {
        let mut m = Machine::builtin();
        m.load_raw(0xC000, PROGRAM);
        m.start_at(0xC000, 0x0801);
        b.iter(|| {
            let stop = m.run(CYCLES);
            assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop}");
        });
    });
    // Commodore's KERNAL: its interrupt runs as code (and writes the port 60 times a
    // second), CHROUT and the other entries are watched, not trapped.
    match std::env::var_os("C64KIT_ROMS") {
        Some(dir) => {
            let paths = RomPaths::commodores_basic_and_kernal_in(std::path::Path::new(&dir));
            group.bench_function("c64_mixed_4M_cycles_commodores_kernal", |b| {
                let roms = Roms::load(&paths).unwrap_or_else(|e| panic!("C64KIT_ROMS: {e}"));
                let mut m = Machine::new(roms);
                m.load_raw(0xC000, PROGRAM);
                m.start_at(0xC000, 0x0801);
                b.iter(|| {
                    let stop = m.run(CYCLES);
                    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop}");
                });
            });
        }
        None => eprintln!(
            "machine_run/c64_mixed_4M_cycles_commodores_kernal: skipped (C64KIT_ROMS names no \
             folder with Commodore's ROM images)"
        ),
    }
    group.finish();
}

criterion_group!(benches, bench_machine);
criterion_main!(benches);
