//! The direct path running code from ROM against the cycle-by-cycle one: BASIC programs
//! (the Rugg/Feldman benchmarks of `cargo xtask bench`) RUN on our BASIC V2, whose
//! interpreter is 6502 code in the BASIC ROM and in $E000-$E4DF of the KERNAL ROM, and with
//! Commodore's BASIC and KERNAL images when `C64KIT_ROMS` names them (skipped with a note
//! otherwise). Each program runs on two machines, one with the direct path and one without,
//! in the same random slices of cycles; after each slice both must be in the same state:
//! registers, cycle counter, stop reason, RAM, colour RAM and transcript. Breakpoints in ROM,
//! which the direct path leaves to the exact step, must stop both at the same cycles.

mod common;

use c64kit_machine::{Machine, Prg, Program, Roms, RunSettings, StopReason};
use fastrand::Rng;

/// Rugg/Feldman benchmarks 3 (arithmetic on variables, FOR loops), 7 (GOSUB, arrays) and 8
/// (the power function, LOG, SIN), as `cargo xtask bench` runs them.
const PROGRAMS: [(&str, &str); 3] = [
    (
        "BM3",
        include_str!("../../../xtask/tools/bench/basic/bm3.bas"),
    ),
    (
        "BM7",
        include_str!("../../../xtask/tools/bench/basic/bm7.bas"),
    ),
    (
        "BM8",
        include_str!("../../../xtask/tools/bench/basic/bm8.bas"),
    ),
];

/// Enough for each program to end at READY. (BM8, the longest, takes under 60 M cycles).
const BUDGET: u64 = 200_000_000;

fn program(name: &str, text: &str) -> Program {
    let bytes = c64kit_basic::tokenize(text, 0x0801).unwrap();
    Program::from_prg(&Prg::parse(&bytes, name).unwrap())
}

fn start(program: &Program, roms: Roms, direct: bool) -> Machine {
    let settings = RunSettings {
        roms,
        ..RunSettings::default()
    };
    let mut m = Machine::start(Some(program), settings).unwrap();
    m.direct_path = direct;
    m
}

/// Everything the two runs must agree on, RAM aside.
fn state(m: &Machine) -> String {
    let c = &m.cpu;
    format!(
        "pc ${:04X} a ${:02X} x ${:02X} y ${:02X} s ${:02X} p ${:02X} jammed {} cycles {}",
        c.pc,
        c.a,
        c.x,
        c.y,
        c.s,
        c.p(),
        c.jammed,
        m.cycles()
    )
}

/// The first difference in memory or output, if any.
fn difference(a: &Machine, b: &Machine) -> Option<String> {
    if a.bus.colour != b.bus.colour {
        return Some("colour RAM differs".into());
    }
    if a.transcript() != b.transcript() {
        return Some(format!(
            "transcripts differ: {:?} / {:?}",
            String::from_utf8_lossy(a.transcript()),
            String::from_utf8_lossy(b.transcript())
        ));
    }
    (0..0x10000)
        .find(|&i| a.bus.ram[i] != b.bus.ram[i])
        .map(|i| {
            format!(
                "RAM ${i:04X}: direct ${:02X}, exact ${:02X}",
                a.bus.ram[i], b.bus.ram[i]
            )
        })
}

/// Runs `program` on `roms` both ways in the same random slices until it stops; returns
/// the stop and the cycles it took.
fn compare(name: &str, program: &Program, roms: impl Fn() -> Roms, seed: u64) -> (StopReason, u64) {
    let mut direct = start(program, roms(), true);
    let mut exact = start(program, roms(), false);
    let begin = exact.cycles();
    assert_eq!(state(&direct), state(&exact), "{name}: after the start");
    let mut rng = Rng::with_seed(seed);
    loop {
        let slice = rng.u64(1..2_000_000);
        let stop_direct = direct.run(slice);
        let stop_exact = exact.run(slice);
        assert_eq!(
            (&stop_direct, state(&direct)),
            (&stop_exact, state(&exact)),
            "{name}: direct (left) and exact (right) differ"
        );
        if let Some(diff) = difference(&direct, &exact) {
            panic!("{name} after {} cycles: {diff}", exact.cycles());
        }
        if !matches!(stop_exact, StopReason::CycleBudget { .. }) {
            return (stop_exact, exact.cycles() - begin);
        }
        assert!(exact.cycles() - begin < BUDGET, "{name} did not end");
    }
}

#[test]
fn basic_programs_on_our_basic_run_the_same_directly_and_cycle_by_cycle() {
    for (seed, (name, text)) in PROGRAMS.into_iter().enumerate() {
        let (stop, cycles) = compare(name, &program(name, text), Roms::builtin, seed as u64);
        assert_eq!(stop, StopReason::ReturnedToBasic, "{name}");
        println!("{name}: {cycles} cycles the same both ways");
    }
}

#[test]
fn basic_programs_on_commodores_roms_run_the_same_directly_and_cycle_by_cycle() {
    if common::commodores_roms().is_none() {
        common::no_roms("not run on Commodore's BASIC and KERNAL");
        return;
    }
    for (seed, (name, text)) in PROGRAMS.into_iter().enumerate() {
        let roms = || common::commodores_roms().unwrap();
        let (stop, cycles) = compare(name, &program(name, text), roms, 100 + seed as u64);
        // The real KERNAL's CHRIN is watched for BASIC back at READY.: the direct path
        // leaves its page to the run loop, which sees the end at the same cycle.
        assert_eq!(stop, StopReason::ReturnedToBasic, "{name}");
        println!("{name}: {cycles} cycles the same both ways on Commodore's ROMs");
    }
}

#[test]
fn breakpoints_in_rom_stop_both_paths_at_the_same_cycles() {
    let (name, text) = PROGRAMS[1];
    let program = program(name, text);
    // Our BASIC's statement loop and the floating-point addition: in the BASIC ROM, run
    // hundreds of times by the program.
    let breakpoints = [
        c64kit_basic_rom::label("NEWSTT").expect("NEWSTT"),
        c64kit_basic_rom::label("FADD").expect("FADD"),
    ];
    let mut runs: Vec<Machine> = [true, false]
        .into_iter()
        .map(|direct| {
            let mut m = start(&program, Roms::builtin(), direct);
            for b in breakpoints {
                m.set_breakpoint(b);
            }
            m
        })
        .collect();
    let mut stops = 0;
    loop {
        let results: Vec<(StopReason, String)> =
            runs.iter_mut().map(|m| (m.run(BUDGET), state(m))).collect();
        assert_eq!(
            results[0], results[1],
            "stop {stops}: direct (left), exact (right)"
        );
        if let Some(diff) = difference(&runs[0], &runs[1]) {
            panic!("stop {stops}: {diff}");
        }
        match &results[0].0 {
            StopReason::Breakpoint { pc } => assert!(breakpoints.contains(pc)),
            StopReason::ReturnedToBasic => break,
            other => panic!("stop {stops}: {other}"),
        }
        stops += 1;
        if stops == 300 {
            // Then without breakpoints to the end.
            for m in &mut runs {
                m.clear_breakpoints();
            }
        }
    }
    assert!(stops >= 300, "only {stops} breakpoint stops");
}
