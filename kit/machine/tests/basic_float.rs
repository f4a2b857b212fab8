//! Our BASIC's 5-byte floating point (programs/basic/float.asm), bit for bit.
//!
//! - `float_model` (in this folder) is a Rust model of the arithmetic written from Microsoft's
//!   algorithms: FADD, FMULT, FDIV, INT, FIN and FOUT. Our 6502 routines must agree with it
//!   on thousands of random operands (CI: no ROM needed); every difference is a failure that
//!   prints its operands.
//! - With Commodore's images in `C64KIT_ROMS`, the model and our routines are also compared
//!   with Commodore's routines at their addresses (random operands, the same calls), and our
//!   routines' RAM side effects and registers with Commodore's. Without the variable each of
//!   those tests says so and passes.
//! - Edge cases: zero, overflow, underflow, the rounding byte, negative zero's sign, 1E38,
//!   2.9E-39, INT of negatives, FOUT at E notation's thresholds.

mod common;
mod float_model;

use c64kit_machine::{Machine, Roms, StopReason};
use float_model::{Fac, ModelError};

/// The routines, at Commodore's addresses (memory maps; ours are pinned there too, and a
/// test checks our labels agree).
const FADD: u16 = 0xB867;
const FSUB: u16 = 0xB850;
const FMULT: u16 = 0xBA28;
const FDIV: u16 = 0xBB0F;
const MOVFM: u16 = 0xBBA2;
const MOVMF: u16 = 0xBBD4;
const MUL10: u16 = 0xBAE2;
const DIV10: u16 = 0xBAFE;
const FCOMP: u16 = 0xBC5B;
const SGN: u16 = 0xBC39;
const QINT: u16 = 0xBC9B;
const INT: u16 = 0xBCCC;
const FIN: u16 = 0xBCF3;
const LINPRT: u16 = 0xBDCD;
const FOUT: u16 = 0xBDDD;
const FLOAT: u16 = 0xBC3C;
const ROUND: u16 = 0xBC1B;
/// FOUT's digit loop, entered by TI$ with Y = FDCEND-FOUTBL (the TI$ table).
const FOUTIM: u16 = 0xBE68;
const TI_TABLE: u8 = 0x24;
/// Commodore's ERROR (X = the error number) and STROUT (A/Y = the text).
const CBM_ERROR: u16 = 0xA437;
const CBM_STROUT: u16 = 0xAB1E;

/// Our driver: SEI, P from the stack, X, Y, A, JSR CHRGOT (for FIN) or not, JSR the
/// routine, the registers saved at $C0F0-$C0F3, then JMP * (the end).
const DRIVER: u16 = 0xC000;
const SAVED: u16 = 0xC0F0;
/// Where operands are put: a packed number for the A/Y entries, FIN's text.
const OPERAND: u16 = 0xC100;
const TEXT: u16 = 0xC200;
const TXTPTR: u16 = 0x7A;
const FACEXP: u16 = 0x61;
const FACOV: u16 = 0x70;
const ERR_OVERFLOW: u8 = 15;
const ERR_DIVISION_BY_ZERO: u8 = 20;

/// How a call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ended {
    /// It returned: A, X, Y and P (N V Z C) after it.
    Returned { a: u8, x: u8, y: u8, p: u8 },
    /// It reached ERROR (X = the error number) or STROUT (A/Y = the text): A, X, Y there.
    Left { a: u8, x: u8, y: u8 },
}

/// What a call left: how it ended, BASIC's zero page $02-$8F, the number buffer
/// $00FF-$0110, and the cycles it took (with the driver's).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Outcome {
    ended: Ended,
    zp: Vec<u8>,
    buf: Vec<u8>,
    cycles: u64,
}

impl Outcome {
    fn fac(&self) -> Fac {
        let z = |a: u16| self.zp[a as usize - 2];
        Fac {
            exp: z(0x61),
            mant: u32::from_be_bytes([z(0x62), z(0x63), z(0x64), z(0x65)]),
            sign: z(0x66),
            ov: z(0x70),
        }
    }
    fn fout_text(&self) -> String {
        let text = &self.buf[1..];
        let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
        String::from_utf8_lossy(&text[..end]).into_owned()
    }
    fn differences(&self, other: &Outcome) -> String {
        let mut out = String::new();
        if self.ended != other.ended {
            out += &format!(" ended {:?} / {:?};", self.ended, other.ended);
        }
        if self.cycles != other.cycles {
            out += &format!(" cycles {} / {};", self.cycles, other.cycles);
        }
        for (i, (a, b)) in self.zp.iter().zip(&other.zp).enumerate() {
            if a != b {
                out += &format!(" ${:02X}: {a:02X}/{b:02X}", i + 2);
            }
        }
        for (i, (a, b)) in self.buf.iter().zip(&other.buf).enumerate() {
            if a != b {
                out += &format!(" ${:04X}: {a:02X}/{b:02X}", i + 0xFF);
            }
        }
        out
    }
}

/// A C64 to call float routines in: ours or Commodore's ROMs.
struct Rig {
    m: Machine,
    end: u16,
    stops: Vec<u16>,
}

impl Rig {
    fn ours() -> Rig {
        let label = |n: &str| c64kit_basic_rom::label(n);
        let notyet = label("NOTYET").expect("stubs.asm's NOTYET");
        // ERROR and STROUT are the core's and io's: stop at them, or at the placeholder
        // they are until then (no other placeholder is reached by these calls).
        let error = vec![label("ERROR").unwrap_or(notyet), CBM_ERROR];
        let strout = vec![label("STROUT").unwrap_or(notyet), CBM_STROUT];
        Rig::new(Roms::own_basic(), error, strout)
    }

    fn commodores() -> Option<Rig> {
        let roms = common::commodores_roms()?;
        Some(Rig::new(roms, vec![CBM_ERROR], vec![CBM_STROUT]))
    }

    fn new(roms: Roms, error: Vec<u16>, strout: Vec<u16>) -> Rig {
        let mut m = Machine::new(roms);
        let end = DRIVER + 0x1F;
        let mut stops = vec![end];
        stops.extend(&error);
        stops.extend(&strout);
        // No interrupts and, a frame later, no bad lines: every call's cycles are its own.
        m.poke(0xDC0D, 0x7F);
        m.poke(0xD011, 0x0B);
        m.load_raw(DRIVER, &[0x78, 0x4C, 0x01, 0xC0]);
        m.start_at(DRIVER, 0x0803);
        m.run(40_000);
        for &s in &stops {
            m.set_breakpoint(s);
        }
        Rig { m, end, stops }
    }

    /// Calls `routine` with A, X, Y and the carry, after writing `zp` to $02-$72 (BASIC's
    /// zero page up to CHRGET, the same for every rig) and `ram` blocks.
    fn call(
        &mut self,
        routine: u16,
        (a, x, y, carry): (u8, u8, u8, bool),
        zp: &[u8; 0x71],
        ram: &[(u16, &[u8])],
        chrgot_first: bool,
    ) -> Outcome {
        let m = &mut self.m;
        m.start_at(DRIVER, 0x0803);
        let [lo, hi] = routine.to_le_bytes();
        let chrgot: [u8; 3] = if chrgot_first {
            [0x20, 0x79, 0x00]
        } else {
            [0xEA, 0xEA, 0xEA]
        };
        let p = 0x24 | carry as u8;
        let mut code = vec![0x78, 0xA9, p, 0x48, 0x28, 0xA2, x, 0xA0, y, 0xA9, a];
        code.extend(chrgot);
        code.extend([0x20, lo, hi, 0x08, 0x8D, 0xF0, 0xC0, 0x8E, 0xF1, 0xC0]);
        code.extend([0x8C, 0xF2, 0xC0, 0x68, 0x8D, 0xF3, 0xC0, 0x4C, 0x1F, 0xC0]);
        assert_eq!(code.len(), 0x22);
        m.load_raw(DRIVER, &code);
        m.load_raw(0x02, zp);
        m.load_raw(0x73, &CHRGET);
        m.load_raw(TXTPTR, &TEXT.to_le_bytes());
        for (at, bytes) in ram {
            m.load_raw(*at, bytes);
        }
        // BASIC and the KERNAL in, I/O in (as BASIC runs).
        m.poke(0x01, 0x37);
        let start = m.cycles();
        let stop = m.run(20_000_000);
        let pc = match stop {
            StopReason::Breakpoint { pc } if self.stops.contains(&pc) => pc,
            other => panic!("${routine:04X}: {other:?}"),
        };
        let ended = if pc != self.end {
            let cpu = &m.cpu;
            Ended::Left {
                a: cpu.a,
                x: cpu.x,
                y: cpu.y,
            }
        } else {
            let r = |at: u16| m.peek(at);
            Ended::Returned {
                a: r(SAVED),
                x: r(SAVED + 1),
                y: r(SAVED + 2),
                p: r(SAVED + 3) & 0xC3,
            }
        };
        Outcome {
            ended,
            zp: (0x02..0x90).map(|a| m.peek(a)).collect(),
            buf: (0xFF..0x111).map(|a| m.peek(a)).collect(),
            cycles: m.cycles() - start,
        }
    }
}

/// Microsoft's CHRGET (the RAM routine at $73-$8A): the next character at TXTPTR, spaces
/// skipped, carry clear for a digit, Z for ":" or the end.
const CHRGET: [u8; 24] = [
    0xE6, 0x7A, 0xD0, 0x02, 0xE6, 0x7B, 0xAD, 0x00, 0x02, 0xC9, 0x3A, 0xB0, 0x0A, 0xC9, 0x20, 0xF0,
    0xEF, 0x38, 0xE9, 0x30, 0x38, 0xE9, 0xD0, 0x60,
];

/// A zero page to start from: random bytes (the same for every rig), with FAC set from
/// `fac` and BITS = 0 (as every routine leaves it).
fn zero_page(rng: &mut fastrand::Rng, fac: &Fac) -> [u8; 0x71] {
    let mut zp = [0u8; 0x71];
    rng.fill(&mut zp);
    let mut put = |at: u16, v: u8| zp[at as usize - 2] = v;
    put(FACEXP, fac.exp);
    for (i, b) in fac.mant.to_be_bytes().into_iter().enumerate() {
        put(0x62 + i as u16, b);
    }
    put(0x66, fac.sign);
    put(FACOV, fac.ov);
    put(0x68, 0);
    zp
}

/// A random packed number: exponents spread over the whole range, often near `near`.
fn random_packed(rng: &mut fastrand::Rng, near: Option<u8>) -> [u8; 5] {
    let mut p = [0u8; 5];
    rng.fill(&mut p);
    p[0] = match (near, rng.u8(0..10)) {
        (_, 0) => 0,
        (Some(e), 1..=6) => e.saturating_add(rng.u8(0..40)).saturating_sub(20).max(1),
        _ => rng.u8(1..=255),
    };
    match rng.u8(0..8) {
        // Short mantissas (integers, halves): the carries and exact results.
        0 => p[2..].fill(0),
        1 => p[3..].fill(0),
        2 => p[1..].fill(if rng.bool() { 0xFF } else { 0x7F }),
        _ => {}
    }
    p
}

/// An unpacked FAC with a random rounding byte half the time.
fn random_fac(rng: &mut fastrand::Rng, near: Option<u8>) -> Fac {
    let mut fac = Fac::unpack(random_packed(rng, near));
    if rng.bool() {
        fac.ov = rng.u8(..);
    }
    fac
}

/// Random text for FIN: digits, a point, an E with a sign, and something after it.
fn random_number_text(rng: &mut fastrand::Rng, signs: bool) -> String {
    let mut s = String::new();
    if signs && rng.u8(0..4) == 0 {
        s.push(if rng.bool() { '-' } else { '+' });
    }
    let digits = |rng: &mut fastrand::Rng, s: &mut String, n: usize| {
        for _ in 0..n {
            s.push(char::from(b'0' + rng.u8(0..10)));
        }
    };
    let before = [0, 1, 1, 2, 3, 5, 9, 10, 12, 20][rng.usize(0..10)];
    digits(rng, &mut s, before);
    if rng.bool() {
        s.push('.');
        let after = rng.usize(0..12);
        digits(rng, &mut s, after);
    }
    if rng.u8(0..3) == 0 {
        s.push('E');
        match rng.u8(0..4) {
            0 => s.push('-'),
            1 => s.push('+'),
            _ => {}
        }
        let n = rng.usize(0..3);
        digits(rng, &mut s, n);
    }
    if rng.u8(0..5) == 0 {
        s.push_str([" 5", ":", "A", ".", "E"][rng.usize(0..5)]);
    }
    s
}

/// One random call of a routine: its registers, zero page and RAM, for every rig alike.
struct Case {
    what: String,
    routine: u16,
    regs: (u8, u8, u8, bool),
    zp: [u8; 0x71],
    ram: Vec<(u16, Vec<u8>)>,
    chrgot: bool,
}

impl Case {
    fn run(&self, rig: &mut Rig) -> Outcome {
        let ram: Vec<(u16, &[u8])> = self.ram.iter().map(|(a, b)| (*a, &b[..])).collect();
        rig.call(self.routine, self.regs, &self.zp, &ram, self.chrgot)
    }
}

fn operand_case(rng: &mut fastrand::Rng, name: &str, routine: u16) -> (Case, Fac, [u8; 5]) {
    let fac = random_fac(rng, None);
    let mem = random_packed(rng, Some(fac.exp));
    let [lo, hi] = OPERAND.to_le_bytes();
    let case = Case {
        what: format!("{name} mem={mem:02X?} FAC={fac:?}"),
        routine,
        regs: (lo, 0, hi, rng.bool()),
        zp: zero_page(rng, &fac),
        ram: vec![(OPERAND, mem.to_vec())],
        chrgot: false,
    };
    (case, fac, mem)
}

/// The random cases of one kind, with what the model says each leaves (None: no model).
fn cases(kind: &str, n: usize, seed: u64) -> Vec<(Case, Option<Result<Fac, ModelError>>)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    for _ in 0..n {
        let item = match kind {
            "FADD" | "FSUB" | "FMULT" | "FDIV" => {
                let routine = match kind {
                    "FADD" => FADD,
                    "FSUB" => FSUB,
                    "FMULT" => FMULT,
                    _ => FDIV,
                };
                let (case, fac, mem) = operand_case(&mut rng, kind, routine);
                let arg = Fac::unpack(mem);
                let model = match kind {
                    "FADD" => float_model::fadd(arg, fac),
                    "FSUB" => float_model::fsub(arg, fac),
                    "FMULT" => float_model::fmult(arg, fac),
                    _ => float_model::fdiv(arg, fac),
                };
                (case, Some(model))
            }
            "INT" | "QINT" | "MUL10" | "DIV10" | "SGN" | "ROUND" | "FOUT" => {
                let fac = random_fac(&mut rng, Some(0xA0));
                let routine = match kind {
                    "INT" => INT,
                    "QINT" => QINT,
                    "MUL10" => MUL10,
                    "DIV10" => DIV10,
                    "SGN" => SGN,
                    "ROUND" => ROUND,
                    _ => FOUT,
                };
                let model = match kind {
                    "INT" => Some(Ok(float_model::int(fac))),
                    _ => None,
                };
                let case = Case {
                    what: format!("{kind} FAC={fac:?}"),
                    routine,
                    regs: (rng.u8(..), rng.u8(..), rng.u8(..), rng.bool()),
                    zp: zero_page(&mut rng, &fac),
                    ram: vec![],
                    chrgot: false,
                };
                (case, model)
            }
            "FCOMP" | "MOVFM" | "MOVMF" => {
                let (mut case, _, _) = operand_case(&mut rng, kind, FCOMP);
                case.routine = match kind {
                    "FCOMP" => FCOMP,
                    "MOVFM" => MOVFM,
                    _ => MOVMF,
                };
                if kind == "MOVMF" {
                    let [lo, hi] = OPERAND.to_le_bytes();
                    case.regs = (rng.u8(..), lo, hi, rng.bool());
                }
                if kind == "FCOMP" && rng.bool() {
                    // Equal but for FACOV or the last bit.
                    let z = &case.zp;
                    let mut mem = [z[0x5F], z[0x60], z[0x61], z[0x62], z[0x63]];
                    mem[1] = (mem[1] & 0x7F) | (z[0x64] & 0x80);
                    if rng.bool() {
                        mem[4] = mem[4].wrapping_add(rng.u8(0..3)).wrapping_sub(1);
                    }
                    case.ram = vec![(OPERAND, mem.to_vec())];
                    case.what = format!("FCOMP mem={mem:02X?} zp FAC={:02X?}", &z[0x5F..0x65]);
                }
                (case, None)
            }
            "FLOAT" => {
                let a = rng.u8(..);
                let fac = random_fac(&mut rng, None);
                let case = Case {
                    what: format!("FLOAT A={a:02X}"),
                    routine: FLOAT,
                    regs: (a, rng.u8(..), rng.u8(..), rng.bool()),
                    zp: zero_page(&mut rng, &fac),
                    ram: vec![],
                    chrgot: false,
                };
                (case, None)
            }
            "FOUTIM" => {
                // TI$: the jiffies (under 24 hours) in FACHO..FACLO, 6 digits, from $00FF.
                let jiffies = rng.u32(0..5_184_000);
                let mut fac = random_fac(&mut rng, None);
                fac.mant = jiffies;
                let mut zp = zero_page(&mut rng, &fac);
                zp[0x5D - 2] = 6;
                zp[0x5E - 2] = 0;
                zp[0x71 - 2] = 0xFF;
                let case = Case {
                    what: format!("FOUTIM {jiffies}"),
                    routine: FOUTIM,
                    regs: (rng.u8(..), rng.u8(..), TI_TABLE, rng.bool()),
                    zp,
                    ram: vec![],
                    chrgot: false,
                };
                (case, None)
            }
            "LINPRT" => {
                let (hi, lo) = (rng.u8(..), rng.u8(..));
                let fac = random_fac(&mut rng, None);
                let case = Case {
                    what: format!("LINPRT {}", u16::from_be_bytes([hi, lo])),
                    routine: LINPRT,
                    regs: (hi, lo, rng.u8(..), rng.bool()),
                    zp: zero_page(&mut rng, &fac),
                    ram: vec![],
                    chrgot: false,
                };
                (case, None)
            }
            "FIN" => {
                let text = random_number_text(&mut rng, negop_exists());
                let fac = random_fac(&mut rng, None);
                let model = float_model::fin(text.as_bytes(), fac.ov).map(|(fac, _)| fac);
                let mut bytes = text.clone().into_bytes();
                bytes.push(0);
                let case = Case {
                    what: format!("FIN {text:?}"),
                    routine: FIN,
                    regs: (0, 0, 0, false),
                    zp: zero_page(&mut rng, &fac),
                    ram: vec![(TEXT, bytes)],
                    chrgot: true,
                };
                (case, Some(model))
            }
            other => panic!("no such kind {other}"),
        };
        out.push(item);
    }
    out
}

/// FIN negates through NEGOP (math.asm's); until it exists, FIN gets no signs.
fn negop_exists() -> bool {
    c64kit_basic_rom::label("NEGOP").is_some()
}

/// What the model's result looks like in an outcome, for comparison.
fn model_matches(out: &Outcome, model: &Result<Fac, ModelError>) -> bool {
    match (model, &out.ended) {
        (Ok(fac), Ended::Returned { .. }) => out.fac().same_as(fac),
        (Err(ModelError::Overflow), Ended::Left { x, .. }) => *x == ERR_OVERFLOW,
        (Err(ModelError::DivisionByZero), Ended::Left { x, .. }) => *x == ERR_DIVISION_BY_ZERO,
        _ => false,
    }
}

/// FOUT's text (or its overflow) as the model says.
fn fout_matches(out: &Outcome, want: &Result<String, ModelError>) -> bool {
    match (want, &out.ended) {
        (Ok(text), Ended::Returned { .. }) => out.fout_text() == *text,
        (Err(ModelError::Overflow), Ended::Left { x, .. }) => *x == ERR_OVERFLOW,
        _ => false,
    }
}

const KINDS: [&str; 18] = [
    "FADD", "FSUB", "FMULT", "FDIV", "INT", "QINT", "MUL10", "DIV10", "SGN", "ROUND", "FOUT",
    "FCOMP", "MOVFM", "MOVMF", "FLOAT", "FIN", "FOUTIM", "LINPRT",
];

/// Another set of random operands: `C64KIT_FLOAT_SEED` (0 unless set).
fn seed_base() -> u64 {
    std::env::var("C64KIT_FLOAT_SEED")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(0, |v| v.wrapping_mul(1 << 20))
}

fn count() -> usize {
    std::env::var("C64KIT_FLOAT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500)
}

#[test]
fn our_routines_agree_with_the_model() {
    let mut ours = Rig::ours();
    let n = count();
    let mut failures = Vec::new();
    let mut compared = 0;
    for (seed, kind) in KINDS.iter().enumerate() {
        for (case, model) in cases(kind, n, seed_base() + seed as u64) {
            let out = case.run(&mut ours);
            if *kind == "FOUT" {
                let want = float_model::fout(Fac::from_zp(&case.zp));
                compared += 1;
                if !fout_matches(&out, &want) {
                    failures.push(format!(
                        "{}: ours {:?}, model {want:?}",
                        case.what,
                        out.fout_text()
                    ));
                }
            } else if let Some(model) = model {
                compared += 1;
                if !model_matches(&out, &model) {
                    failures.push(format!(
                        "{}: ours {:?} {:?}, model {model:?}",
                        case.what,
                        out.ended,
                        out.fac()
                    ));
                }
            }
        }
    }
    println!(
        "{compared} operands compared with the model, {} differences",
        failures.len()
    );
    for f in failures.iter().take(40) {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} differences", failures.len());
}

#[test]
fn the_model_and_our_routines_agree_with_commodores() {
    let Some(mut cbm) = Rig::commodores() else {
        common::no_roms("no comparison with Commodore's ROMs");
        return;
    };
    let mut ours = Rig::ours();
    let n = count();
    let (mut model_diffs, mut our_diffs) = (Vec::new(), Vec::new());
    let (mut model_compared, mut our_compared, mut cycles) = (0, 0, 0);
    for (seed, kind) in KINDS.iter().enumerate() {
        for (case, model) in cases(kind, n, seed_base() + 1000 + seed as u64) {
            let theirs = case.run(&mut cbm);
            let mine = case.run(&mut ours);
            our_compared += 1;
            cycles += theirs.cycles;
            if theirs != mine {
                our_diffs.push(format!("{}: {}", case.what, theirs.differences(&mine)));
            }
            if *kind == "FOUT" {
                model_compared += 1;
                let want = float_model::fout(Fac::from_zp(&case.zp));
                if !fout_matches(&theirs, &want) {
                    model_diffs.push(format!(
                        "{}: Commodore's {:?}, model {want:?}",
                        case.what,
                        theirs.fout_text()
                    ));
                }
            } else if let Some(model) = model {
                model_compared += 1;
                if !model_matches(&theirs, &model) {
                    model_diffs.push(format!(
                        "{}: Commodore's {:?} {:?}, model {model:?}",
                        case.what,
                        theirs.ended,
                        theirs.fac()
                    ));
                }
            }
        }
    }
    println!(
        "model: {model_compared} operands compared with Commodore's, {} differences; ours: {our_compared} calls compared (zero page, number buffer, registers, cycles: {cycles} in all), {} differences (Commodore's/ours)",
        model_diffs.len(),
        our_diffs.len()
    );
    for f in model_diffs.iter().take(20).chain(our_diffs.iter().take(20)) {
        println!("{f}");
    }
    assert!(model_diffs.is_empty() && our_diffs.is_empty());
}

/// FOUT's text for a packed number on a rig.
fn fout_of(rig: &mut Rig, packed: [u8; 5]) -> String {
    let fac = Fac::unpack(packed);
    let mut rng = fastrand::Rng::with_seed(7);
    let zp = zero_page(&mut rng, &fac);
    rig.call(FOUT, (0, 0, 0, false), &zp, &[], false)
        .fout_text()
}

/// FIN's FAC for a text on a rig.
fn fin_of(rig: &mut Rig, text: &str) -> Outcome {
    let mut rng = fastrand::Rng::with_seed(8);
    let zp = zero_page(&mut rng, &Fac::unpack([0; 5]));
    let mut bytes = text.as_bytes().to_vec();
    bytes.push(0);
    rig.call(FIN, (0, 0, 0, false), &zp, &[(TEXT, &bytes)], true)
}

/// A two-operand call (FADD, FMULT, FDIV) on a rig: FAC from `fac` (packed), the other at
/// A/Y.
fn op_of(rig: &mut Rig, routine: u16, mem: [u8; 5], fac: [u8; 5], ov: u8) -> Outcome {
    let mut rng = fastrand::Rng::with_seed(9);
    let mut f = Fac::unpack(fac);
    f.ov = ov;
    let zp = zero_page(&mut rng, &f);
    let [lo, hi] = OPERAND.to_le_bytes();
    rig.call(routine, (lo, 0, hi, false), &zp, &[(OPERAND, &mem)], false)
}

fn packed(x: f64) -> [u8; 5] {
    float_model::pack_f64(x)
}

#[test]
fn edge_cases() {
    let mut rigs = vec![("ours", Rig::ours())];
    if let Some(cbm) = Rig::commodores() {
        rigs.push(("Commodore's", cbm));
    } else {
        common::no_roms("the edge cases run on ours and the model only");
    }
    let one = packed(1.0);
    let zero = [0u8; 5];
    for (name, rig) in &mut rigs {
        let check = |what: &str, got: Outcome, want: Result<Fac, ModelError>| {
            assert!(
                model_matches(&got, &want),
                "{name}: {what}: {:?} {:?}, want {want:?}",
                got.ended,
                got.fac()
            );
        };
        // Zero: 0 + 0, 0 * x, x - x (exactly 0, positive), 1 + 0.
        check(
            "0+0",
            op_of(rig, FADD, zero, zero, 0),
            Ok(Fac::unpack(zero)),
        );
        check(
            "1*0",
            op_of(rig, FMULT, one, zero, 0),
            Ok(Fac::unpack(zero)),
        );
        let got = op_of(rig, FSUB, one, one, 0);
        assert_eq!(got.fac().exp, 0, "{name}: 1-1");
        check("1+0", op_of(rig, FADD, zero, one, 0), Ok(Fac::unpack(one)));
        // Overflow: 1E38 * 10, the largest number doubled; division by zero.
        let big = [0xFF, 0x7F, 0xFF, 0xFF, 0xFF];
        check(
            "max+max",
            op_of(rig, FADD, big, big, 0),
            Err(ModelError::Overflow),
        );
        check(
            "1E38*10",
            op_of(rig, FMULT, packed(10.0), packed(1e38), 0),
            Err(ModelError::Overflow),
        );
        check(
            "1/0",
            op_of(rig, FDIV, one, zero, 0),
            Err(ModelError::DivisionByZero),
        );
        // Underflow to zero: 2.9E-39 * 2.9E-39, and 2.9E-39 / 1E30.
        let tiny = packed(2.9e-39);
        let got = op_of(rig, FMULT, tiny, tiny, 0);
        assert_eq!(got.fac().exp, 0, "{name}: 2.9E-39*2.9E-39");
        check(
            "tiny*tiny",
            got,
            float_model::fmult(Fac::unpack(tiny), Fac::unpack(tiny)),
        );
        let got = op_of(rig, FDIV, packed(1e30), tiny, 0);
        assert_eq!(got.fac().exp, 0, "{name}: 2.9E-39/1E30");
        // The rounding byte: FACOV's top bit rounds FDIV's divisor and FOUT's value up.
        let got = op_of(rig, FDIV, one, one, 0x80);
        let want = float_model::fdiv(
            Fac::unpack(one),
            Fac {
                ov: 0x80,
                ..Fac::unpack(one)
            },
        );
        check("1/(1+ov)", got, want);
        // Negative zero's sign: -1 + 1 leaves FAC positive.
        let got = op_of(rig, FADD, one, packed(-1.0), 0);
        assert_eq!((got.fac().exp, got.fac().sign), (0, 0), "{name}: -1+1");
        // INT of negatives.
        for (x, want) in [
            (-0.5, -1.0),
            (-1.0, -1.0),
            (-1.5, -2.0),
            (-2147483648.5, -2147483649.0),
        ] {
            let mut rng = fastrand::Rng::with_seed(1);
            let zp = zero_page(&mut rng, &Fac::unpack(packed(x)));
            let got = rig.call(INT, (0, 0, 0, false), &zp, &[], false);
            assert_eq!(got.fac().pack(), packed(want), "{name}: INT({x})");
        }
        // FOUT at E notation's thresholds, as Commodore prints them.
        for (x, text) in [
            (1e9, " 1E+09"),
            (999999999.0, " 999999999"),
            (0.01, " .01"),
            (0.001, " 1E-03"),
            (1.0 / 3.0, " .333333333"),
            (-0.5, "-.5"),
            (0.0, " 0"),
            (1e38, " 1E+38"),
            (123456789.0, " 123456789"),
        ] {
            assert_eq!(fout_of(rig, packed(x)), text, "{name}: FOUT {x}");
            let model = float_model::fout(Fac::unpack(packed(x)));
            assert_eq!(model.as_deref(), Ok(text), "model: FOUT {x}");
        }
        // A zero with the sign bit set (a packed 0 whose sign byte is $80) prints as the
        // model says.
        let negative_zero = [0, 0x80, 0, 0, 0];
        let want = float_model::fout(Fac::unpack(negative_zero));
        assert_eq!(Ok(fout_of(rig, negative_zero)), want, "{name}: FOUT -0");
        // FOUT of the largest number with FACOV's top bit set: rounding it overflows.
        let mut rng = fastrand::Rng::with_seed(3);
        let fac = Fac {
            ov: 0x80,
            ..Fac::unpack(big)
        };
        let zp = zero_page(&mut rng, &fac);
        let got = rig.call(FOUT, (0, 0, 0, false), &zp, &[], false);
        assert!(
            fout_matches(&got, &float_model::fout(fac)),
            "{name}: FOUT max+ov"
        );
        assert!(
            matches!(
                got.ended,
                Ended::Left {
                    x: ERR_OVERFLOW,
                    ..
                }
            ),
            "{name}: FOUT max+ov"
        );
        // LINPRT prints the digits alone ("IN 10"): STROUT gets $0100, the space before it.
        let mut rng = fastrand::Rng::with_seed(2);
        let zp = zero_page(&mut rng, &Fac::unpack(one));
        let got = rig.call(LINPRT, (0, 10, 0, false), &zp, &[], false);
        assert!(
            matches!(
                got.ended,
                Ended::Left {
                    a: 0x00,
                    y: 0x01,
                    ..
                }
            ),
            "{name}: LINPRT 10 ended {:?}",
            got.ended
        );
        assert_eq!(
            (got.buf[0], got.fout_text().as_str()),
            (b' ', "10"),
            "{name}: LINPRT 10"
        );
        // FIN: 1E38, 2.9E-39, an exponent past 99 overflows.
        let got = fin_of(rig, "1E38");
        assert_eq!(
            got.fac().pack(),
            float_model::fin(b"1E38", 0).unwrap().0.pack(),
            "{name}: FIN 1E38"
        );
        let got = fin_of(rig, "1E100");
        assert!(
            matches!(
                got.ended,
                Ended::Left {
                    x: ERR_OVERFLOW,
                    ..
                }
            ),
            "{name}: FIN 1E100"
        );
        let got = fin_of(rig, "1E-100");
        assert_eq!(got.fac().exp, 0, "{name}: FIN 1E-100");
    }
}

#[test]
fn our_entries_are_at_commodores_addresses() {
    for (name, addr) in [
        ("FADD", FADD),
        ("FSUB", FSUB),
        ("FMULT", FMULT),
        ("FDIV", FDIV),
        ("MOVFM", MOVFM),
        ("MOVMF", MOVMF),
        ("MUL10", MUL10),
        ("DIV10", DIV10),
        ("FCOMP", FCOMP),
        ("SGN", SGN),
        ("QINT", QINT),
        ("INT", INT),
        ("FIN", FIN),
        ("LINPRT", LINPRT),
        ("FOUT", FOUT),
        ("FLOAT", FLOAT),
        ("ROUND", ROUND),
        ("FOUTIM", FOUTIM),
    ] {
        assert_eq!(c64kit_basic_rom::label(name), Some(addr), "{name}");
    }
}

/// LOG against Commodore's. LOG's polynomial is POLYX's (math.asm's): until it exists,
/// both stop where LOG calls it ($E043 in Commodore's ROM), and what LOG hands it (FAC, the
/// pointer in A/Y, the coefficients there, the cycles so far) is compared.
#[test]
fn log_agrees_with_commodores() {
    const LOG: u16 = 0xB9EA;
    const CBM_POLYX: u16 = 0xE043;
    let whole = c64kit_basic_rom::label("POLYX").is_some();
    let Some(mut cbm) = Rig::commodores() else {
        common::no_roms("no comparison with Commodore's ROMs");
        return;
    };
    if !whole {
        println!("POLYX is not written yet: LOG is compared up to its call");
        cbm.m.set_breakpoint(CBM_POLYX);
        cbm.stops.push(CBM_POLYX);
    }
    let mut ours = Rig::ours();
    let mut rng = fastrand::Rng::with_seed(77);
    let mut diffs = Vec::new();
    let n = count();
    for _ in 0..n {
        // Positive numbers (LOG of the others is FCERR's, the expression code's).
        let mut fac = random_fac(&mut rng, Some(0x80));
        fac.sign &= 0x7F;
        fac.exp = fac.exp.max(1);
        let case = Case {
            what: format!("LOG FAC={fac:?}"),
            routine: LOG,
            regs: (0, 0, 0, false),
            zp: zero_page(&mut rng, &fac),
            ram: vec![],
            chrgot: false,
        };
        let (theirs, mine) = (case.run(&mut cbm), case.run(&mut ours));
        let coefficients = |rig: &Rig, out: &Outcome| match out.ended {
            Ended::Left { a, y, .. } => {
                let at = u16::from_le_bytes([a, y]);
                (0..21).map(|i| rig.m.peek(at + i)).collect::<Vec<u8>>()
            }
            Ended::Returned { .. } => vec![],
        };
        if theirs != mine || coefficients(&cbm, &theirs) != coefficients(&ours, &mine) {
            diffs.push(format!("{}: {}", case.what, theirs.differences(&mine)));
        }
    }
    println!("LOG: {n} calls compared, {} differences", diffs.len());
    for d in diffs.iter().take(20) {
        println!("{d}");
    }
    assert!(diffs.is_empty());
}
