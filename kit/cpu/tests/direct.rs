//! The direct path (`Cpu::run_direct`) against the exact one (`Cpu::step`) on every shared
//! vector: where it runs an instruction it must leave the same registers, memory and cycle
//! count; it must run every instruction whose accesses all fall in lent memory (unless the
//! opcode always takes the exact path) and none that touches anything else, whichever
//! regions the bus withholds or lends as ROM, and none that starts in a watched page.

mod common;

use c64kit_cpu::{Bus, Cpu, DirectMemory, FlatRam};
use common::{files, load, opcode_of, Case};
use std::collections::BTreeSet;

/// Flat RAM that lends only some regions to the direct path, and may have ROM over some
/// (reads there see `rom`, writes go to `mem`, as on the exact path).
#[derive(Clone)]
struct Lent {
    mem: Box<[u8; 0x10000]>,
    rom: Box<[u8; 0x10000]>,
    cycles: u64,
    lending: Lending,
    quiet_until: u64,
    irq: bool,
}

/// What a lending lends, withholds or lends as ROM, and its watched pages: apart from
/// `Lent`'s memory, so that the many lendings of each case share one (see `run_folder`).
#[derive(Clone, Copy, Debug)]
struct Lending {
    readable: u16,
    rom_readable: u16,
    writable: u16,
    write_floor: u16,
    write_guard: Option<u8>,
    watched: [u64; 4],
    /// The one address watched in the watched pages (`None`: all of them).
    watched_at: Option<u16>,
}

impl Lending {
    const EVERYTHING: Lending = Lending {
        readable: 0xFFFF,
        rom_readable: 0,
        writable: 0xFFFF,
        write_floor: 0,
        write_guard: None,
        watched: [0; 4],
        watched_at: None,
    };

    /// Region `r` is ROM for reads (lent as such), RAM for writes.
    fn rom_in(r: u16) -> Self {
        Lending {
            readable: !(1 << r),
            rom_readable: 1 << r,
            ..Lending::EVERYTHING
        }
    }

    fn watch(&mut self, page: u16) {
        self.watched[page as usize / 64] |= 1 << (page % 64);
    }
}

impl Lent {
    fn everything() -> Self {
        Lent {
            mem: Box::new([0; 0x10000]),
            rom: Box::new([0; 0x10000]),
            cycles: 0,
            lending: Lending::EVERYTHING,
            quiet_until: u64::MAX,
            irq: false,
        }
    }

    fn is_rom(&self, addr: u16) -> bool {
        let l = &self.lending;
        l.rom_readable & !l.readable & 1 << (addr >> 12) != 0
    }

    /// Lends as `l` says, the case's addresses cleared (what an earlier run left there)
    /// and the cycle count zero: ready for `set_up`.
    fn lend(&mut self, l: Lending, case: &Case) {
        self.lending = l;
        self.cycles = 0;
        let addresses = case.initial.ram.iter().map(|&(a, _)| a);
        for a in addresses.chain(case.cycles.iter().map(|(a, _, _)| *a)) {
            self.mem[a as usize] = 0;
            self.rom[a as usize] = 0;
        }
    }

    /// The case's memory: in ROM, its bytes in `rom` and others (inverted) in the RAM under
    /// it, so that a read of the wrong one shows.
    fn set_up(&mut self, case: &Case) {
        for &(addr, v) in &case.initial.ram {
            if self.is_rom(addr) {
                self.rom[addr as usize] = v;
                self.mem[addr as usize] = !v;
            } else {
                self.mem[addr as usize] = v;
            }
        }
    }
}

impl Bus for Lent {
    fn read(&mut self, addr: u16) -> u8 {
        self.cycles += 1;
        if self.is_rom(addr) {
            self.rom[addr as usize]
        } else {
            self.mem[addr as usize]
        }
    }

    fn write(&mut self, addr: u16, value: u8) {
        self.cycles += 1;
        self.mem[addr as usize] = value;
    }

    fn direct_memory(&mut self) -> Option<DirectMemory<'_>> {
        Some(DirectMemory {
            ram: &mut self.mem,
            rom: Some(&self.rom),
            readable: self.lending.readable,
            rom_readable: self.lending.rom_readable,
            writable: self.lending.writable,
            write_floor: self.lending.write_floor,
            write_guard: self.lending.write_guard,
            watched: self.lending.watched,
            watched_at: self.lending.watched_at.as_ref().map(std::slice::from_ref),
            cycles: &mut self.cycles,
            quiet_until: self.quiet_until,
            irq: self.irq,
        })
    }
}

fn registers(c: &Cpu) -> [u16; 6] {
    [
        c.pc,
        c.a as u16,
        c.x as u16,
        c.y as u16,
        c.s as u16,
        c.p() as u16,
    ]
}

/// What the exact path does with a case on flat RAM: registers, the case's memory, cycles.
fn exact(case: &Case) -> ([u16; 6], Vec<u8>, u64) {
    let mut bus = FlatRam::new();
    for &(addr, v) in &case.initial.ram {
        bus.mem[addr as usize] = v;
    }
    let mut cpu = case.initial.cpu();
    cpu.step(&mut bus);
    let mem = case
        .initial
        .ram
        .iter()
        .map(|&(a, _)| bus.mem[a as usize])
        .collect();
    (registers(&cpu), mem, bus.cycles)
}

/// What the exact path does with a case on `lent` lending as `l` (its ROM included):
/// registers, the case's memory (RAM), cycles.
fn exact_on(case: &Case, l: Lending, lent: &mut Lent) -> ([u16; 6], Vec<u8>, u64) {
    lent.lend(l, case);
    lent.set_up(case);
    let mut cpu = case.initial.cpu();
    cpu.step(lent);
    let mem = case
        .initial
        .ram
        .iter()
        .map(|&(a, _)| lent.mem[a as usize])
        .collect();
    (registers(&cpu), mem, lent.cycles)
}

/// Does any access of the case fall outside what `lent` lends, or does it start in a
/// watched page?
fn touches_withheld(case: &Case, lent: &Lent) -> bool {
    let lent = &lent.lending;
    let pc = case.initial.pc;
    (lent.watched[(pc >> 14) as usize] >> ((pc >> 8) & 63) & 1 != 0
        && lent.watched_at.is_none_or(|at| at == pc))
        || case.cycles.iter().any(|(addr, _, kind)| {
            let bit = 1 << (addr >> 12);
            if kind == "write" {
                lent.writable & bit == 0
                    || *addr < lent.write_floor
                    || lent.write_guard == Some((addr >> 8) as u8)
            } else {
                (lent.readable | lent.rom_readable) & bit == 0
            }
        })
}

/// Runs the case directly on `lent` lending as `l` and checks it against the exact path on
/// the same memory.
fn check(case: &Case, op: u8, l: Lending, lent: &mut Lent) -> Result<(), String> {
    let expected = &exact_on(case, l, lent);
    lent.lend(l, case);
    lent.set_up(case);
    let initial: Vec<u8> = case
        .initial
        .ram
        .iter()
        .map(|&(a, _)| lent.mem[a as usize])
        .collect();
    let mut cpu = case.initial.cpu();
    let before = registers(&cpu);
    let must_bail = touches_withheld(case, lent);
    // Allowed to take the exact path anyway: these opcodes, and an instruction in the last
    // 3 bytes of a region whose next region is not lent (or of $F000-$FFFF).
    // Zero page and stack must be lent for the direct path to run at all.
    let may_bail = must_bail
        || lent.lending.readable & lent.lending.writable & 1 == 0
        || Cpu::EXACT_PATH_OPCODES.contains(&op)
        || case.initial.pc & 0x0FFF >= 0x0FFD
        // A jump or branch to itself (a stuck loop, for the exact path to see).
        || case.fin.pc == case.initial.pc
        // A JSR whose pushes land on its own high operand byte.
        || (op == 0x20 && {
            let high = case.initial.pc.wrapping_add(2);
            let s = case.initial.s;
            high == 0x100 | s as u16 || high == 0x100 | s.wrapping_sub(1) as u16
        });
    cpu.run_direct(lent, 1);
    let mem: Vec<u8> = case
        .initial
        .ram
        .iter()
        .map(|&(a, _)| lent.mem[a as usize])
        .collect();
    if lent.cycles == 0 {
        if !may_bail {
            return Err("handed to the exact path, but every access was in lent memory".into());
        }
        if registers(&cpu) != before || mem != initial {
            return Err("changed state although handed to the exact path".into());
        }
        return Ok(());
    }
    if must_bail {
        return Err("ran directly although it touches memory that was not lent".into());
    }
    let got = (registers(&cpu), mem, lent.cycles);
    if &got != expected {
        return Err(format!(
            "direct (pc a x y s p, memory, cycles) {got:02X?}\n  exact {expected:02X?}"
        ));
    }
    Ok(())
}

/// Every lending of a case: everything; the 6510's port withheld; each region the case
/// touches withheld for reads, then for writes, then lent as ROM (reads of ROM, writes to
/// the RAM under it), then as ROM but not for writes; the page it starts in watched, then
/// another page of that region.
fn lendings(case: &Case) -> Vec<Lending> {
    let mut all = vec![Lending::EVERYTHING];
    all.push(Lending {
        write_floor: 2,
        ..Lending::EVERYTHING
    });
    let regions: BTreeSet<u16> = case.cycles.iter().map(|(a, _, _)| a >> 12).collect();
    for r in regions {
        all.push(Lending {
            readable: !(1 << r),
            ..Lending::EVERYTHING
        });
        all.push(Lending {
            writable: !(1 << r),
            ..Lending::EVERYTHING
        });
        all.push(Lending::rom_in(r));
        all.push(Lending {
            writable: !(1 << r),
            ..Lending::rom_in(r)
        });
    }
    // Each page written above the stack guarded (its writes left to the bus).
    let written: BTreeSet<u16> = case
        .cycles
        .iter()
        .filter(|(a, _, kind)| kind == "write" && *a >= 0x200)
        .map(|(a, _, _)| a >> 8)
        .collect();
    for page in written {
        all.push(Lending {
            write_guard: Some(page as u8),
            ..Lending::EVERYTHING
        });
    }
    let page = case.initial.pc >> 8;
    for watched in [page, page ^ 1] {
        let mut lending = Lending::EVERYTHING;
        lending.watch(watched);
        all.push(lending);
    }
    // The page it starts in watched at its address only, then at another address only.
    for at in [case.initial.pc, case.initial.pc ^ 1] {
        let mut lending = Lending {
            watched_at: Some(at),
            ..Lending::EVERYTHING
        };
        lending.watch(page);
        all.push(lending);
    }
    all
}

fn run_folder(sub: &str, expect_files: usize) {
    let mut failures = Vec::new();
    let mut direct_runs = 0;
    // One memory for every lending: each run clears the case's addresses first.
    let mut lent = Lent::everything();
    for file in files(sub, expect_files) {
        let op = opcode_of(&file);
        for case in load(&file) {
            let expected = exact(&case);
            // The exact path is checked against the netlist elsewhere (tests/vectors.rs);
            // here the direct path must agree with it, and so with the netlist.
            assert_eq!(
                expected.2 as usize,
                case.cycles.len(),
                "{}: exact cycles",
                case.name
            );
            for l in lendings(&case) {
                direct_runs += 1;
                if let Err(e) = check(&case, op, l, &mut lent) {
                    failures.push(format!(
                        "{} (readable {:016b}, ROM {:016b}, writable {:016b}, floor {}, \
                         guard {:02X?}, watched {:016X?} at {:04X?}): {e}",
                        case.name,
                        l.readable,
                        l.rom_readable,
                        l.writable,
                        l.write_floor,
                        l.write_guard,
                        l.watched,
                        l.watched_at
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {direct_runs} direct runs failed; first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    println!("{direct_runs} direct runs agree with the exact path in {sub:?}");
}

#[test]
fn direct_path_agrees_with_the_exact_path_on_every_stable_opcode() {
    run_folder("", 232);
}

#[test]
fn direct_path_agrees_on_the_netlist_inaccurate_opcodes() {
    run_folder("netlist_inaccurate", 5);
}

#[test]
fn unstable_opcodes_always_take_the_exact_path() {
    run_folder("unstable", 7);
}

/// `LDA #$01` repeated from $0200, on a bus with the given quiet time.
fn loads(quiet_until: u64, irq: bool) -> Lent {
    let mut lent = Lent {
        quiet_until,
        irq,
        ..Lent::everything()
    };
    for i in 0..0x100 {
        lent.mem[0x200 + 2 * i] = 0xA9;
        lent.mem[0x201 + 2 * i] = 0x01;
    }
    lent
}

#[test]
fn stops_where_a_poll_could_see_an_interrupt_line_change() {
    // LDA #$01 (2 cycles) at cycle 0, then DCP ($10,X) (8 cycles, polling 7 cycles after it
    // starts) at cycle 2: it runs directly only if its poll at cycle 9 comes before the
    // first cycle at which the lines may change.
    for (quiet_until, cycles) in [(10, 10), (9, 2), (3, 0), (2, 0)] {
        let mut lent = loads(quiet_until, false);
        lent.mem[0x202] = 0xC3;
        lent.mem[0x203] = 0x10;
        let mut cpu = Cpu::new();
        cpu.pc = 0x200;
        cpu.run_direct(&mut lent, 1000);
        assert_eq!(lent.cycles, cycles, "lines quiet until cycle {quiet_until}");
    }
    // And the budget: no instruction starts at or after `limit`.
    let mut lent = loads(u64::MAX, false);
    let mut cpu = Cpu::new();
    cpu.pc = 0x200;
    cpu.run_direct(&mut lent, 7);
    assert_eq!((cpu.pc, lent.cycles), (0x208, 8));
}

#[test]
fn a_held_irq_keeps_the_direct_path_out_while_it_could_be_taken() {
    // I clear and /IRQ held: the next poll takes it, so nothing runs directly.
    let mut lent = loads(u64::MAX, true);
    let mut cpu = Cpu::new();
    cpu.pc = 0x200;
    cpu.set_p(0);
    cpu.run_direct(&mut lent, 1000);
    assert_eq!(lent.cycles, 0);
    // I set: it runs, but hands CLI (and PLP, RTI) to the exact path.
    for op in [0x58, 0x28, 0x40] {
        let mut lent = loads(u64::MAX, true);
        lent.mem[0x204] = op;
        let mut cpu = Cpu::new();
        cpu.pc = 0x200;
        cpu.run_direct(&mut lent, 1000);
        assert_eq!((cpu.pc, lent.cycles), (0x204, 4), "opcode ${op:02X}");
    }
    // With /IRQ high, CLI runs directly.
    let mut lent = loads(u64::MAX, false);
    lent.mem[0x204] = 0x58;
    let mut cpu = Cpu::new();
    cpu.pc = 0x200;
    cpu.run_direct(&mut lent, 6);
    assert_eq!((cpu.pc, lent.cycles), (0x205, 6));
    assert!(!cpu.interrupt_disabled());
}

#[test]
fn long_direct_runs_fit_a_small_stack() {
    // Handlers call each other; an unoptimised build makes real calls, bounded per chain.
    let run = || {
        let mut bus = FlatRam::new();
        // LDX #0; INX; BNE -3; JMP $0200
        bus.load(0x0200, &[0xA2, 0x00, 0xE8, 0xD0, 0xFD, 0x4C, 0x00, 0x02]);
        let mut cpu = Cpu::new();
        cpu.pc = 0x0200;
        cpu.run_direct(&mut bus, 1_000_000);
        bus.cycles
    };
    let cycles = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .expect("the direct path must not overflow a 1 MiB stack");
    assert!(cycles >= 1_000_000);
}

#[test]
fn jumps_to_themselves_are_left_to_the_exact_path() {
    // LDA #$01 at $0200, then a one-instruction loop at $0202: the direct path must stop
    // there (after 2 cycles) so that a run watching for stuck loops sees it.
    let loops: [&[u8]; 5] = [
        &[0x4C, 0x02, 0x02],             // JMP $0202
        &[0xD0, 0xFE],                   // BNE * (Z clear after LDA #$01: taken)
        &[0x20, 0x02, 0x02],             // JSR $0202
        &[0x6C, 0x10, 0x00],             // JMP ($0010) with $0010 = $0202
        &[0xF0, 0xFE, 0x4C, 0x04, 0x02], // BEQ * not taken runs on, then JMP $0204 loops
    ];
    for (i, code) in loops.iter().enumerate() {
        let mut lent = loads(u64::MAX, false);
        lent.mem[0x202..0x202 + code.len()].copy_from_slice(code);
        lent.mem[0x10] = 0x02;
        lent.mem[0x11] = 0x02;
        let mut cpu = Cpu::new();
        cpu.pc = 0x200;
        cpu.run_direct(&mut lent, 1000);
        let expected = if i == 4 { (0x204, 4) } else { (0x202, 2) };
        assert_eq!((cpu.pc, lent.cycles), expected, "loop {i}: {code:02X?}");
    }
}

/// JSR pushes the return address before it fetches its high operand byte: when the stack
/// pointer points at that byte, the push changes the target. The direct path must land where
/// the exact path lands (and the exact path where the chip does).
#[test]
fn jsr_whose_pushes_overwrite_its_own_operand_lands_where_the_exact_path_does() {
    // JSR $1355 at $017E: its high operand byte is at $0180.
    //   S=$80: PCH ($01) is pushed onto it: the target is $0155.
    //   S=$81: PCH to $0181, PCL ($80) onto $0180: the target is $8055.
    //   S=$7F: both pushes below it: $1355.
    for (s, target) in [(0x80u8, 0x0155u16), (0x81, 0x8055), (0x7F, 0x1355)] {
        let setup = |mem: &mut [u8; 0x10000]| {
            mem[0x017E..0x0181].copy_from_slice(&[0x20, 0x55, 0x13]);
        };
        let mut exact_bus = FlatRam::new();
        setup(&mut exact_bus.mem);
        let mut exact = Cpu::new();
        exact.pc = 0x017E;
        exact.s = s;
        exact.step(&mut exact_bus);
        assert_eq!(exact.pc, target, "exact path, S=${s:02X}");

        // The direct path, then the exact step for whatever it leaves.
        let mut lent = Lent::everything();
        setup(&mut lent.mem);
        let mut direct = Cpu::new();
        direct.pc = 0x017E;
        direct.s = s;
        direct.run_direct(&mut lent, 6);
        if lent.cycles == 0 {
            direct.step(&mut lent);
        }
        assert_eq!(
            (direct.pc, direct.s, lent.cycles, &lent.mem[0x0100..0x0200]),
            (
                exact.pc,
                exact.s,
                exact_bus.cycles,
                &exact_bus.mem[0x0100..0x0200]
            ),
            "S=${s:02X}"
        );
    }
}
