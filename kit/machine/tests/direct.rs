//! The direct path against the cycle-by-cycle one on the whole machine: random programs that
//! mix RAM work with I/O reads and writes (CIA timers and ICRs, VIC raster, SID noise),
//! banking changes through $01, ROM reads, page crossings into I/O, stack work, decimal mode,
//! KERNAL calls, a random subroutine in the BASIC ROM (banking itself out midway, when its
//! code goes on in the RAM under it), and CIA/VIC interrupts and CIA 2 NMIs arriving all the
//! time. Every program
//! runs twice, in the same random slices of cycles, and after each slice both machines must
//! be in the same state: registers, cycle counter, stop reason, all RAM, colour RAM, the
//! chips' registers and the transcript. Any instruction run directly that a device could
//! have told apart shows up as a difference.

use c64kit_machine::{Machine, Roms, StopReason};
use fastrand::Rng;

/// Seeded randomness with the few draws the generator needs.
trait Draw {
    fn below(&mut self, n: u64) -> u64;
    fn pick<T: Copy>(&mut self, items: &[T]) -> T;
    fn chance(&mut self, percent: u64) -> bool;
}

impl Draw for Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.u64(..n)
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.usize(..items.len())]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.u64(..100) < percent
    }
}

const PROLOGUE: u16 = 0xC000;
const BODY: u16 = 0xC100;
const SUBROUTINE: u16 = 0xC600;
/// A random subroutine in the BASIC ROM image; the RAM under it holds NOPs up to its RTS.
const ROM_SUBROUTINE: u16 = 0xA100;
const IRQ_RAM: u16 = 0xC700;
const IRQ_KERNAL: u16 = 0xC720;
const NMI: u16 = 0xC740;
/// Interrupt counters the handlers increment.
const COUNTERS: u16 = 0x0340;

/// Addressing modes, by the operand they need.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Imm,
    Zp,
    ZpIndexed,
    Abs,
    AbsIndexed,
    IndX,
    IndY,
}

/// Opcodes the body draws from (control flow, stack and TXS come as whole patterns).
const READS: &[(u8, Mode)] = &[
    (0xA9, Mode::Imm),
    (0xA5, Mode::Zp),
    (0xB5, Mode::ZpIndexed),
    (0xAD, Mode::Abs),
    (0xBD, Mode::AbsIndexed),
    (0xB9, Mode::AbsIndexed),
    (0xA1, Mode::IndX),
    (0xB1, Mode::IndY),
    (0xA2, Mode::Imm),
    (0xA6, Mode::Zp),
    (0xAE, Mode::Abs),
    (0xBE, Mode::AbsIndexed),
    (0xA0, Mode::Imm),
    (0xA4, Mode::Zp),
    (0xAC, Mode::Abs),
    (0xBC, Mode::AbsIndexed),
    (0x69, Mode::Imm),
    (0x6D, Mode::Abs),
    (0x7D, Mode::AbsIndexed),
    (0x71, Mode::IndY),
    (0xE9, Mode::Imm),
    (0xED, Mode::Abs),
    (0xF9, Mode::AbsIndexed),
    (0xE1, Mode::IndX),
    (0x29, Mode::Imm),
    (0x2D, Mode::Abs),
    (0x09, Mode::Imm),
    (0x1D, Mode::AbsIndexed),
    (0x49, Mode::Imm),
    (0x51, Mode::IndY),
    (0xC9, Mode::Imm),
    (0xCD, Mode::Abs),
    (0xD1, Mode::IndY),
    (0xE0, Mode::Imm),
    (0xEC, Mode::Abs),
    (0xC0, Mode::Imm),
    (0x24, Mode::Zp),
    (0x2C, Mode::Abs),
    (0xA7, Mode::Zp),
    (0xBF, Mode::AbsIndexed),
    (0xB3, Mode::IndY),
    (0x0B, Mode::Imm),
    (0x4B, Mode::Imm),
    (0x6B, Mode::Imm),
    (0xCB, Mode::Imm),
    (0x0C, Mode::Abs),
    (0x1C, Mode::AbsIndexed),
    (0x04, Mode::Zp),
    (0xBB, Mode::AbsIndexed),
    (0x8B, Mode::Imm),
    (0xAB, Mode::Imm),
];
const WRITES: &[(u8, Mode)] = &[
    (0x85, Mode::Zp),
    (0x95, Mode::ZpIndexed),
    (0x8D, Mode::Abs),
    (0x9D, Mode::AbsIndexed),
    (0x99, Mode::AbsIndexed),
    (0x81, Mode::IndX),
    (0x91, Mode::IndY),
    (0x86, Mode::Zp),
    (0x8E, Mode::Abs),
    (0x84, Mode::Zp),
    (0x8C, Mode::Abs),
    (0x87, Mode::Zp),
    (0x8F, Mode::Abs),
    (0x06, Mode::Zp),
    (0x16, Mode::ZpIndexed),
    (0x0E, Mode::Abs),
    (0x1E, Mode::AbsIndexed),
    (0x4E, Mode::Abs),
    (0x2E, Mode::Abs),
    (0x7E, Mode::AbsIndexed),
    (0xE6, Mode::Zp),
    (0xEE, Mode::Abs),
    (0xFE, Mode::AbsIndexed),
    (0xCE, Mode::Abs),
    (0xD6, Mode::ZpIndexed),
    (0x0F, Mode::Abs),
    (0x1B, Mode::AbsIndexed),
    (0x33, Mode::IndY),
    (0x47, Mode::Zp),
    (0x7F, Mode::AbsIndexed),
    (0xC3, Mode::IndX),
    (0xEF, Mode::Abs),
    (0xF3, Mode::IndY),
];
const IMPLIED: &[u8] = &[
    0x0A, 0x4A, 0x2A, 0x6A, 0xE8, 0xCA, 0xC8, 0x88, 0xAA, 0xA8, 0x8A, 0x98, 0xBA, 0x18, 0x38, 0xB8,
    0xEA, 0x1A, 0xD8, 0xF8, 0x58, 0x78,
];

/// Data addresses: RAM, RAM just below I/O (indexing crosses into it), I/O registers with
/// side effects, ROM areas (BASIC, KERNAL, character ROM depending on the banking).
const READ_ADDRESSES: &[u16] = &[
    0x4000, 0x4080, 0x40F8, 0x4FF8, 0xCFF8, 0xD012, 0xD011, 0xD019, 0xD41B, 0xD41C, 0xDC04, 0xDC05,
    0xDC0D, 0xDC0E, 0xDD0D, 0xDD04, 0xD800, 0xA000, 0xBFF8, 0xE000, 0xFFF8, 0xD000, 0xDE00, 0x01F8,
    0x0000,
];
const WRITE_ADDRESSES: &[u16] = &[
    0x4000, 0x4080, 0x40F8, 0x4FF8, 0xCFF8, 0xD020, 0xD012, 0xD019, 0xD800, 0xDC04, 0xDC05, 0xDC06,
    0xDC0E, 0xDD04, 0xDD0E, 0xD418, 0xD412, 0xA000, 0xE000, 0xBFF8,
];
/// Zero-page bytes the body may write ($80-$9F hold the pointers, read only).
const ZP_DATA: std::ops::Range<u8> = 0x02..0x80;
/// The pointers (zp),Y and (zp,X) use: set up in the prologue.
const POINTERS: &[u16] = &[
    0x4000, 0x40F0, 0xCFF0, 0xD000, 0xD3F8, 0xDC00, 0xDD00, 0xA000, 0xE000, 0xD800,
];

struct Asm {
    code: Vec<u8>,
    base: u16,
}

impl Asm {
    fn new(base: u16) -> Self {
        Asm {
            code: Vec::new(),
            base,
        }
    }
    fn pc(&self) -> u16 {
        self.base + self.code.len() as u16
    }
    fn emit(&mut self, bytes: &[u8]) {
        self.code.extend_from_slice(bytes);
    }
    fn word(&mut self, op: u8, addr: u16) {
        self.emit(&[op, addr as u8, (addr >> 8) as u8]);
    }
    /// LDA #v : STA addr
    fn poke(&mut self, addr: u16, v: u8) {
        self.emit(&[0xA9, v]);
        self.word(0x8D, addr);
    }
}

fn operand(rng: &mut Rng, asm: &mut Asm, op: u8, mode: Mode, write: bool) {
    let addresses = if write {
        WRITE_ADDRESSES
    } else {
        READ_ADDRESSES
    };
    let zp = |rng: &mut Rng| if write { rng.u8(ZP_DATA) } else { rng.u8(..) };
    match mode {
        Mode::Imm => asm.emit(&[op, rng.u8(..)]),
        Mode::Zp | Mode::ZpIndexed => asm.emit(&[op, zp(rng)]),
        Mode::Abs | Mode::AbsIndexed => {
            let addr = rng.pick(addresses).wrapping_add(rng.below(8) as u16);
            asm.word(op, addr)
        }
        Mode::IndX | Mode::IndY => {
            asm.emit(&[op, 0x80 + 2 * rng.below(POINTERS.len() as u64) as u8])
        }
    }
}

/// One random instruction or pattern.
fn pattern(rng: &mut Rng, asm: &mut Asm, depth: u32) {
    match rng.below(100) {
        0..=34 => {
            let (op, mode) = rng.pick(READS);
            operand(rng, asm, op, mode, false);
        }
        35..=59 => {
            let (op, mode) = rng.pick(WRITES);
            operand(rng, asm, op, mode, true);
        }
        60..=71 => asm.emit(&[rng.pick(IMPLIED)]),
        72..=75 => {
            // A short delay loop: straight RAM work the direct path takes over.
            asm.emit(&[0xA2, rng.below(40) as u8 + 1, 0xCA, 0xD0, 0xFD]);
        }
        76..=79 if depth < 2 => {
            // A forward branch over a few instructions.
            let mut inner = Asm::new(asm.pc() + 2);
            for _ in 0..rng.below(4) + 1 {
                pattern(rng, &mut inner, depth + 1);
            }
            if inner.code.len() <= 120 {
                let branch = rng.pick(&[0x10, 0x30, 0x50, 0x70, 0x90, 0xB0, 0xD0, 0xF0]);
                asm.emit(&[branch, inner.code.len() as u8]);
                asm.emit(&inner.code);
            }
        }
        80..=83 if depth < 2 => {
            // Balanced stack work around other instructions.
            let (push, pull) = rng.pick(&[(0x48, 0x68), (0x08, 0x28)]);
            asm.emit(&[push]);
            pattern(rng, asm, depth + 1);
            asm.emit(&[pull]);
        }
        84..=86 => asm.word(0x20, SUBROUTINE),
        87..=88 => asm.word(0x20, 0xFFD2), // CHROUT (an RTS in RAM when banked out)
        89..=90 => {
            // Banking: BASIC and KERNAL in or out, I/O or character ROM.
            let port = rng.pick(&[0x37, 0x36, 0x35, 0x37, 0x33]);
            asm.poke(0x0001, port);
            if port == 0x33 {
                pattern(rng, asm, depth + 1);
                asm.poke(0x0001, 0x37);
            }
        }
        91..=92 => asm.word(0x2C, 0xDC0D), // acknowledge CIA 1 (BIT)
        93 => asm.poke(0xD019, 0xFF),
        94..=95 => asm.word(0x20, ROM_SUBROUTINE),
        _ => asm.emit(&[0xEA]),
    }
}

/// A whole random program: prologue (handlers, timers, pointers), body in a loop,
/// subroutine, interrupt handlers in RAM; and the subroutine for the BASIC ROM.
fn program(seed: u64) -> (Vec<(u16, Vec<u8>)>, Vec<u8>) {
    let mut rng = Rng::with_seed(seed);
    let mut pro = Asm::new(PROLOGUE);
    pro.emit(&[0x78]);
    pro.poke(0x0314, IRQ_KERNAL as u8);
    pro.poke(0x0315, (IRQ_KERNAL >> 8) as u8);
    pro.poke(0x0318, NMI as u8);
    pro.poke(0x0319, (NMI >> 8) as u8);
    for (i, p) in POINTERS.iter().enumerate() {
        pro.poke(0x80 + 2 * i as u16, *p as u8);
        pro.poke(0x81 + 2 * i as u16, (*p >> 8) as u8);
    }
    // CIA 1 timer A IRQ, a short period.
    pro.poke(0xDC04, rng.u8(..));
    pro.poke(0xDC05, rng.below(8) as u8);
    pro.poke(0xDC0E, 0x11);
    pro.poke(0xDC0D, 0x81);
    if rng.chance(50) {
        // CIA 2 timer A NMIs.
        pro.poke(0xDD04, rng.u8(..));
        pro.poke(0xDD05, rng.below(16) as u8 + 1);
        pro.poke(0xDD0E, 0x11);
        pro.poke(0xDD0D, 0x81);
    }
    if rng.chance(50) {
        // A VIC raster IRQ.
        pro.poke(0xD012, rng.u8(..));
        pro.poke(0xD011, 0x1B);
        pro.poke(0xD01A, 0x01);
    }
    pro.emit(&[0xA2, rng.u8(..), 0xA0, rng.u8(..), 0x58]);
    pro.word(0x4C, BODY);

    let mut body = Asm::new(BODY);
    while body.code.len() < 0x400 {
        pattern(&mut rng, &mut body, 0);
    }
    body.word(0x4C, BODY);
    assert!(body.pc() < SUBROUTINE);

    let mut sub = Asm::new(SUBROUTINE);
    for _ in 0..rng.below(6) {
        pattern(&mut rng, &mut sub, 2);
    }
    sub.emit(&[0x60]);
    assert!(sub.pc() < IRQ_RAM);

    let mut rom_sub = Asm::new(ROM_SUBROUTINE);
    for _ in 0..rng.below(12) {
        pattern(&mut rng, &mut rom_sub, 2);
    }
    rom_sub.emit(&[0x60]);
    let mut under_rom_sub = vec![0xEA; rom_sub.code.len()];
    *under_rom_sub.last_mut().unwrap() = 0x60;

    // The handlers: acknowledge CIA 1 and the VIC, count, return.
    let mut irq = Asm::new(IRQ_RAM);
    irq.emit(&[0x48]);
    irq.word(0xAD, 0xDC0D);
    irq.poke(0xD019, 0xFF);
    irq.word(0xEE, COUNTERS);
    irq.emit(&[0x68, 0x40]);
    let mut irq_kernal = Asm::new(IRQ_KERNAL);
    irq_kernal.word(0xAD, 0xDC0D);
    irq_kernal.poke(0xD019, 0xFF);
    irq_kernal.word(0xEE, COUNTERS + 1);
    irq_kernal.word(0x4C, 0xEA81);
    let mut nmi = Asm::new(NMI);
    nmi.emit(&[0x48]);
    nmi.word(0xAD, 0xDD0D);
    nmi.word(0xEE, COUNTERS + 2);
    nmi.emit(&[0x68, 0x40]);

    let ram = vec![
        (ROM_SUBROUTINE, under_rom_sub),
        (PROLOGUE, pro.code),
        (BODY, body.code),
        (SUBROUTINE, sub.code),
        (IRQ_RAM, irq.code),
        (IRQ_KERNAL, irq_kernal.code),
        (NMI, nmi.code),
        // With the KERNAL banked out: vectors and CHROUT in RAM.
        (0xFFFA, vec![NMI as u8, (NMI >> 8) as u8]),
        (0xFFFE, vec![IRQ_RAM as u8, (IRQ_RAM >> 8) as u8]),
        (0xFFD2, vec![0x60]),
    ];
    (ram, rom_sub.code)
}

/// Our ROMs with `rom_sub` in the BASIC ROM at `ROM_SUBROUTINE`.
fn roms(rom_sub: &[u8]) -> Roms {
    let mut roms = Roms::builtin();
    let at = usize::from(ROM_SUBROUTINE - 0xA000);
    roms.basic[at..at + rom_sub.len()].copy_from_slice(rom_sub);
    roms
}

fn machine(parts: &[(u16, Vec<u8>)], roms: Roms, direct: bool) -> Machine {
    let mut m = Machine::new(roms);
    m.direct_path = direct;
    for (addr, bytes) in parts {
        m.load_raw(*addr, bytes);
    }
    m.start_at(PROLOGUE, 0x0801);
    m
}

/// Everything that two runs of the same program must agree on.
fn state(m: &Machine) -> String {
    let c = &m.cpu;
    let now = m.bus.now;
    let cia = |cia: &c64kit_chips::Cia| (0..16).map(|r| cia.peek(r, now)).collect::<Vec<u8>>();
    let vic: Vec<u8> = (0..0x2F).map(|r| m.bus.vic.peek(r, now)).collect();
    format!(
        "pc ${:04X} a ${:02X} x ${:02X} y ${:02X} s ${:02X} p ${:02X} jammed {} cycles {now}\n\
         cia1 {:02X?}\ncia2 {:02X?}\nvic {vic:02X?}\nsid {:02X?}\ncounters {:02X?}\ntranscript {} bytes",
        c.pc,
        c.a,
        c.x,
        c.y,
        c.s,
        c.p(),
        c.jammed,
        cia(&m.bus.cia1),
        cia(&m.bus.cia2),
        m.bus.sid.registers(),
        &m.bus.ram[COUNTERS as usize..COUNTERS as usize + 3],
        m.transcript().len(),
    )
}

/// The first differing RAM address, if any.
fn ram_difference(a: &Machine, b: &Machine) -> Option<String> {
    if a.bus.colour != b.bus.colour {
        return Some("colour RAM differs".into());
    }
    if a.transcript() != b.transcript() {
        return Some("transcripts differ".into());
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

/// Runs program `seed` both ways in the same random slices; returns how many cycles ran and
/// how many interrupts were taken.
fn compare(seed: u64, total: u64) -> (u64, u32) {
    let (parts, rom_sub) = program(seed);
    let mut direct = machine(&parts, roms(&rom_sub), true);
    let mut exact = machine(&parts, roms(&rom_sub), false);
    let mut rng = Rng::with_seed(seed ^ 0xABCD_EF01);
    let mut ran = 0;
    while ran < total {
        let slice = rng.below(60_000) + 1;
        let stop_direct = direct.run(slice);
        let stop_exact = exact.run(slice);
        let (sd, se) = (state(&direct), state(&exact));
        assert_eq!(
            (&stop_direct, &sd),
            (&stop_exact, &se),
            "program {seed}: direct (left) and exact (right) differ after {} cycles",
            exact.bus.now
        );
        if let Some(diff) = ram_difference(&direct, &exact) {
            panic!("program {seed} after {} cycles: {diff}", exact.bus.now);
        }
        ran += slice;
        if !matches!(stop_exact, StopReason::CycleBudget { .. }) {
            eprintln!("program {seed}: {stop_exact:?}");
            break;
        }
    }
    let counters = &exact.bus.ram[COUNTERS as usize..COUNTERS as usize + 3];
    (exact.bus.now, counters.iter().map(|&c| c as u32).sum())
}

#[test]
fn random_programs_run_the_same_directly_and_cycle_by_cycle() {
    let mut cycles = 0;
    let mut interrupts = 0;
    for seed in 0..120 {
        let (c, i) = compare(seed, 400_000);
        cycles += c;
        interrupts += i;
    }
    println!("{cycles} cycles compared, at least {interrupts} interrupts taken");
    // The programs must really exercise interrupts (the counters wrap, so this is a floor).
    assert!(interrupts > 1000, "only {interrupts} interrupts were taken");
}

#[test]
fn a_stuck_loop_stops_both_paths_at_the_same_cycle() {
    // $C000: LDX #200; loop: DEX; BNE loop; JMP $C005 (a one-instruction loop).
    let code = vec![(0xC000, vec![0xA2, 200, 0xCA, 0xD0, 0xFD, 0x4C, 0x05, 0xC0])];
    let stops: Vec<(StopReason, u64)> = [true, false]
        .into_iter()
        .map(|direct| {
            let mut m = machine(&code, Roms::builtin(), direct);
            m.stop_on_stuck_loop = true;
            (m.run(1_000_000), m.cycles())
        })
        .collect();
    assert_eq!(stops[0], stops[1]);
    assert_eq!(stops[0].0, StopReason::StuckLoop { pc: 0xC005 });
}
