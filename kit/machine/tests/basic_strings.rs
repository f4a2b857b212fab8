//! Our BASIC's string routines (programs/basic/strings.asm) at routine level: memory laid
//! out in Commodore's formats (descriptors, variables, arrays, the temporary stack, string
//! space), a routine called, memory read back. With Commodore's images in `C64KIT_ROMS`,
//! the same calls run on Commodore's routines at their documented addresses and memory must
//! come out the same; without them (CI) those comparisons say so and pass.
//!
//! Until the routines our string code calls exist (BLTUC, CHKCLS, CONINT, SNGFLT, ... are
//! the other files' and still placeholders), the tests stand in for them in Rust when a
//! call reaches the placeholder, doing what Microsoft's routine does; once a routine is
//! written, the real one runs.

mod common;

use c64kit_machine::{Machine, Roms, StopReason};
use common::{commodores_basic_on_our_kernal, no_roms};

// BASIC's RAM (Commodore's layout, programs/basic/zeropage.asm).
const CHARAC: u16 = 0x07;
const ENDCHR: u16 = 0x08;
const VALTYP: u16 = 0x0D;
const GARBFL: u16 = 0x0F;
const TEMPPT: u16 = 0x16;
const LASTPT: u16 = 0x17;
const TEMPST: u16 = 0x19;
const INDEX: u16 = 0x22;
const TXTTAB: u16 = 0x2B;
const VARTAB: u16 = 0x2D;
const ARYTAB: u16 = 0x2F;
const STREND: u16 = 0x31;
const FRETOP: u16 = 0x33;
const FRESPC: u16 = 0x35;
const MEMSIZ: u16 = 0x37;
const FOUR6: u16 = 0x53;
const HIGHDS: u16 = 0x58;
const HIGHTR: u16 = 0x5A;
const LOWTR: u16 = 0x5F;
const FACEXP: u16 = 0x61;
const FACMO: u16 = 0x64;
const FACLO: u16 = 0x65;
const STRNG2: u16 = 0x71;
const TXTPTR: u16 = 0x7A;
const BUF: u16 = 0x0200;

/// Where Commodore's routines are (the C64 memory maps; Microsoft's names).
const COMMODORE: &[(&str, u16)] = &[
    ("STRD", 0xB465),
    ("STRINI", 0xB475),
    ("STRSPA", 0xB47D),
    ("STRLIT", 0xB487),
    ("STRLT2", 0xB48D),
    ("PUTNEW", 0xB4CA),
    ("GETSPA", 0xB4F4),
    ("GARBAG", 0xB526),
    ("CAT", 0xB63D),
    ("MOVINS", 0xB67A),
    ("MOVSTR", 0xB688),
    ("FRESTR", 0xB6A3),
    ("FREFAC", 0xB6A6),
    ("FRETMP", 0xB6AA),
    ("FRETMS", 0xB6DB),
    ("CHRD", 0xB6EC),
    ("LEFTD", 0xB700),
    ("RIGHTD", 0xB72C),
    ("MIDD", 0xB737),
    ("PREAM", 0xB761),
    ("LEN", 0xB77C),
    ("LEN1", 0xB782),
    ("ASC", 0xB78B),
    ("VAL", 0xB7AD),
    // The routines the string code calls.
    ("ERROR", 0xA437),
    ("TSTOP", 0xADB8),
    ("FCERR", 0xB248),
];

/// The driver: SEI; JSR $C010; JMP * (at $C004). The code under test starts at $C010.
const DRIVER: u16 = 0xC000;
const DONE: u16 = 0xC004;
const BODY: u16 = 0xC010;

/// How a call ended.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum End {
    Returned,
    /// BASIC's ERROR reached with this error number.
    Error(u8),
    /// "ILLEGAL QUANTITY" from the string code's own FCERR jump (ASC, MID$).
    IllegalQuantity,
}

/// What a stand-in did at the placeholder.
enum Stand {
    /// Emulated the routine: return to its caller (RTS).
    Return,
    /// Not a call this test stands in for.
    Unknown,
}

fn commodores_roms() -> Option<Roms> {
    let roms = common::commodores_roms();
    if roms.is_none() {
        no_roms("no comparison with Commodore's routines");
    }
    roms
}

fn own(name: &str) -> Option<u16> {
    c64kit_basic_rom::label(name)
}

fn notyet() -> u16 {
    own("NOTYET").expect("stubs.asm defines NOTYET")
}

/// True when our BASIC has this routine (not its placeholder).
fn written(name: &str) -> bool {
    own(name).is_some_and(|a| a != notyet())
}

struct Rig {
    m: Machine,
    ours: bool,
    /// A stand-in ran (the cycles are not the routine's).
    stood_in: bool,
    /// Cycles from the first call's start to the last one's end.
    cycles: u64,
}

impl Rig {
    fn ours() -> Rig {
        Rig::new(Roms::own_basic(), true)
    }

    fn commodores() -> Option<Rig> {
        commodores_roms().map(|r| Rig::new(r, false))
    }

    fn new(roms: Roms, ours: bool) -> Rig {
        // After BASIC's cold start: its RAM vectors (IEVAL) and CHRGET are in place.
        let _ = ours;
        let mut m = Machine::boot_basic(roms).expect("BASIC boots to READY.");
        // The screen blanked: the two boots end at different raster positions, and bad
        // lines would then steal different cycles from the calls compared.
        m.poke(0xD011, 0x0B);
        m.start_at(DRIVER, 0x0803);
        // A known pattern in the RAM the tests use, the same on both machines.
        for a in 0x0800..0xA000usize {
            m.bus.ram[a] = (a * 7 + (a >> 8)) as u8;
        }
        m.load_raw(
            DRIVER,
            &[0x78, 0x20, BODY as u8, (BODY >> 8) as u8, 0x4C, 0x04, 0xC0],
        );
        let mut rig = Rig {
            m,
            ours,
            stood_in: false,
            cycles: 0,
        };
        // BASIC's pointers for an empty program ending at $0900; strings up to $A000.
        rig.w16(TXTTAB, 0x0801);
        for p in [VARTAB, ARYTAB, STREND] {
            rig.w16(p, 0x0900);
        }
        for p in [FRETOP, FRESPC, MEMSIZ] {
            rig.w16(p, 0xA000);
        }
        rig.set(TEMPPT, TEMPST as u8);
        rig.w16(LASTPT, 0);
        rig.set(FOUR6, 3);
        // The last value was a number (as power-on leaves it; a boot's may not).
        rig.set(VALTYP, 0);
        rig
    }

    fn entry(&self, name: &str) -> u16 {
        if self.ours {
            own(name).unwrap_or_else(|| panic!("our BASIC has no {name}"))
        } else {
            COMMODORE
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("no address for Commodore's {name}"))
                .1
        }
    }

    fn get(&self, a: u16) -> u8 {
        self.m.bus.ram[a as usize]
    }
    fn set(&mut self, a: u16, v: u8) {
        self.m.bus.ram[a as usize] = v;
    }
    fn r16(&self, a: u16) -> u16 {
        u16::from_le_bytes([self.get(a), self.get(a + 1)])
    }
    fn w16(&mut self, a: u16, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        self.set(a, lo);
        self.set(a + 1, hi);
    }
    fn put(&mut self, a: u16, bytes: &[u8]) {
        self.m.load_raw(a, bytes);
    }
    fn bytes(&self, a: u16, len: usize) -> Vec<u8> {
        (0..len).map(|i| self.get(a + i as u16)).collect()
    }
    /// A descriptor's text.
    fn text_of(&self, descriptor: u16) -> Vec<u8> {
        let len = self.get(descriptor) as usize;
        self.bytes(self.r16(descriptor + 1), len)
    }

    /// Runs `body` (6502 code placed at $C010, called by the driver) until it returns, BASIC
    /// reports an error, or a placeholder is reached that `stand` does not know.
    fn run(&mut self, body: &[u8], stand: &mut dyn FnMut(&mut Rig, u16) -> Stand) -> End {
        let start = self.m.cycles();
        let end = self.run_body(body, stand);
        self.cycles += self.m.cycles() - start;
        end
    }

    fn run_body(&mut self, body: &[u8], stand: &mut dyn FnMut(&mut Rig, u16) -> Stand) -> End {
        self.put(BODY, body);
        self.m.cpu.pc = DRIVER;
        let error = if self.ours {
            own("ERROR").unwrap_or(notyet())
        } else {
            self.entry("ERROR")
        };
        let fcerr = 0xB798; // the string code's own JMP FCERR (both ROMs)
        self.m.set_breakpoint(DONE);
        self.m.set_breakpoint(fcerr);
        self.m.set_breakpoint(error);
        if self.ours {
            self.m.set_breakpoint(notyet());
            if written("TSTOP") {
                self.m.set_breakpoint(own("TSTOP").unwrap());
            }
        } else {
            self.m.set_breakpoint(self.entry("TSTOP"));
        }
        loop {
            match self.m.run(50_000_000) {
                StopReason::Breakpoint { pc } if pc == DONE => return End::Returned,
                StopReason::Breakpoint { pc } if pc == fcerr => return End::IllegalQuantity,
                StopReason::Breakpoint { pc } if self.ours && pc == notyet() => {
                    // The instruction after the JSR that called it (if one did).
                    let s = self.m.cpu.s as u16;
                    let next = u16::from_le_bytes([
                        self.get(0x100 + ((s + 1) & 0xFF)),
                        self.get(0x100 + ((s + 2) & 0xFF)),
                    ])
                    .wrapping_add(1);
                    match stand(self, next) {
                        Stand::Return => {
                            self.stood_in = true;
                            self.m.cpu.s = self.m.cpu.s.wrapping_add(2);
                            self.m.cpu.pc = next;
                        }
                        Stand::Unknown if pc == error => return End::Error(self.m.cpu.x),
                        Stand::Unknown => panic!("a placeholder reached, returning to ${next:04X}"),
                    }
                }
                StopReason::Breakpoint { pc } if pc == error => return End::Error(self.m.cpu.x),
                StopReason::Breakpoint { pc } if pc != DONE && !self.ours => {
                    // TSTOP: CAT is done.
                    return End::Returned;
                }
                StopReason::Breakpoint { .. } => return End::Returned, // our TSTOP
                other => panic!("the call stopped: {other}"),
            }
        }
    }

    /// JSR `routine` with these registers.
    fn call(&mut self, routine: &str, a: u8, x: u8, y: u8) -> End {
        let at = self.entry(routine);
        let body = [vec![0xA9, a, 0xA2, x, 0xA0, y], jsr(at), vec![RTS]].concat();
        self.run(&body, &mut stand_ins)
    }
}

// 6502 code for the bodies the tests run.
const RTS: u8 = 0x60;
/// Stops the driver where a routine drops its caller's return address (the functions).
const JAM: u8 = 0x02;

/// JSR `at`.
fn jsr(at: u16) -> Vec<u8> {
    let [lo, hi] = at.to_le_bytes();
    vec![0x20, lo, hi]
}

/// LDA #a; LDY #y; JSR `at`: a routine given a pointer in A (low) and Y (high).
fn jsr_ay(a: u8, y: u8, at: u16) -> Vec<u8> {
    [vec![0xA9, a, 0xA0, y], jsr(at)].concat()
}

/// The arguments of a string function as the dispatch stacks them: the string's
/// descriptor pointer (high byte first), then N.
fn push_arguments(descriptor: u16, n: u8) -> Vec<u8> {
    let [lo, hi] = descriptor.to_le_bytes();
    vec![0xA9, hi, 0x48, 0xA9, lo, 0x48, 0xA9, n, 0x48]
}

/// Stand-ins for the routines of the other files that the string code calls, as Microsoft's
/// do, recognised by where they return to.
fn stand_ins(rig: &mut Rig, next: u16) -> Stand {
    let after = |name: &str, offset: u16| own(name).map(|a| a + offset);
    if Some(next) == after("GCMOVE", 37) {
        bltuc(rig);
        Stand::Return
    } else if Some(next) == after("PREAM", 3) {
        // CHKCLS: the ")" at TXTPTR, stepped over.
        let t = rig.r16(TXTPTR);
        assert_eq!(rig.get(t), b')', "PREAM's CHKCLS wants a )");
        rig.w16(TXTPTR, t + 1);
        Stand::Return
    } else if Some(next) == after("FRESTR", 3) {
        // CHKSTR: the tests hand FRESTR strings.
        Stand::Return
    } else if Some(next) == after("CHRD", 3) {
        // CONINT: FAC (a small whole number) into X.
        let x = fac_to_byte(rig);
        rig.m.cpu.x = x;
        Stand::Return
    } else if Some(next) == after("STRD", 3) || Some(next) == after("CAT", 12) {
        // CHKNUM, CHKSTR: the tests hand them the right type.
        Stand::Return
    } else if Some(next) == after("STRD", 8) {
        // FOUTC with Y = 0: the number in FAC (a small whole one here) as text from $00FF.
        let text = format!(" {}\0", fac_to_byte(rig));
        rig.put(0x00FF, text.as_bytes());
        Stand::Return
    } else if Some(next) == after("STRVAL", 40) {
        // FIN: the digits at TXTPTR as a number, up to the first other byte.
        let mut t = rig.r16(TXTPTR);
        let mut v = 0u32;
        while rig.get(t).is_ascii_digit() {
            v = v * 10 + (rig.get(t) - b'0') as u32;
            t += 1;
        }
        rig.w16(TXTPTR, t);
        byte_to_fac(rig, v.min(255) as u8);
        Stand::Return
    } else if Some(next) == after("CAT", 9) {
        // EVAL: the string literal after TXTPTR (at the "+") as a temporary pointing into
        // the text.
        let t = rig.r16(TXTPTR) + 1;
        assert_eq!(rig.get(t), b'"', "CAT's operand is a literal");
        let len = (1..).take_while(|&i| rig.get(t + i) != b'"').count() as u8;
        let slot = rig.get(TEMPPT) as u16;
        rig.put(slot, &[len, (t + 1) as u8, ((t + 1) >> 8) as u8]);
        rig.set(LASTPT, slot as u8);
        rig.set(TEMPPT, slot as u8 + 3);
        rig.w16(FACMO, slot);
        rig.set(VALTYP, 0xFF);
        rig.w16(TXTPTR, t + len as u16 + 2);
        Stand::Return
    } else if next == BODY + 3 && rig.m.cpu.x == rig.get(TEMPPT) {
        // TSTOP, jumped to by CAT (called first thing in the body) right after PUTNEW (X =
        // TEMPPT; a JMP to ERROR has the error number there): the formula goes on.
        Stand::Return
    } else if next == BODY + 9 {
        // SNGFLT, jumped to by LEN and ASC, or ZEROFC by VAL of "" (then Y = 0): Y as a
        // number in FAC (`Rig::call`'s JSR returns to BODY + 9).
        let y = rig.m.cpu.y;
        byte_to_fac(rig, y);
        rig.set(VALTYP, 0);
        Stand::Return
    } else {
        Stand::Unknown
    }
}

/// BLTUC as Microsoft's: moves LOWTR..HIGHTR up to end at HIGHDS, highest byte first;
/// leaves HIGHTR = LOWTR - 256, HIGHDS = the lowest byte written - 256, INDEX = the
/// count's low byte, X = Y = 0.
fn bltuc(rig: &mut Rig) {
    let (low, high, dest) = (rig.r16(LOWTR), rig.r16(HIGHTR), rig.r16(HIGHDS));
    let n = high.wrapping_sub(low);
    let start = dest.wrapping_sub(n);
    for i in (0..n).rev() {
        let b = rig.get(low.wrapping_add(i));
        rig.set(start.wrapping_add(i), b);
    }
    rig.w16(HIGHTR, low.wrapping_sub(256));
    rig.w16(HIGHDS, start.wrapping_sub(256));
    rig.set(INDEX, n as u8);
    rig.m.cpu.x = 0;
    rig.m.cpu.y = 0;
}

/// A byte as BASIC's unpacked FAC holds it (exponent, 4 mantissa bytes, sign).
fn byte_to_fac(rig: &mut Rig, v: u8) {
    let (exp, man) = if v == 0 {
        (0, 0)
    } else {
        let bits = 8 - v.leading_zeros() as u8;
        (0x80 + bits, v << (8 - bits))
    };
    rig.put(FACEXP, &[exp, man, 0, 0, 0, 0]);
}

fn fac_to_byte(rig: &Rig) -> u8 {
    let exp = rig.get(FACEXP);
    if exp == 0 {
        0
    } else {
        rig.get(FACEXP + 1) >> (0x88 - exp)
    }
}

/// Runs `test` on our routines and, with C64KIT_ROMS, on Commodore's; then the RAM BASIC
/// uses (zero page up to CHRGET, $0200-$02FF, $0800-$9FFF) and the registers must match.
fn both(test: impl Fn(&mut Rig) -> End) -> (Rig, End) {
    let mut ours = Rig::ours();
    let end = test(&mut ours);
    if let Some(mut theirs) = Rig::commodores() {
        let their_end = test(&mut theirs);
        assert_eq!(end, their_end, "how the call ended");
        // Where a stand-in did another file's work, only the string routines' RAM is
        // compared (the stand-in leaves that routine's work bytes as they were).
        let ranges: &[(u16, u16)] = if ours.stood_in {
            &[(0x16, 0x21), (0x2B, 0x38), (0x200, 0x2FF), (0x800, 0x9FFF)]
        } else {
            &[(0x02, 0x72), (0x200, 0x2FF), (0x800, 0x9FFF)]
        };
        for &(from, to) in ranges {
            for a in from..=to {
                assert_eq!(
                    ours.get(a),
                    theirs.get(a),
                    "${a:04X}: ours {:02X}, Commodore's {:02X}",
                    ours.get(a),
                    theirs.get(a)
                );
            }
        }
        if end == End::Returned && !ours.stood_in {
            let (o, t) = (&ours.m.cpu, &theirs.m.cpu);
            assert_eq!((o.a, o.x, o.y), (t.a, t.x, t.y), "A, X, Y");
        }
        // The same algorithms take about the same time (interrupts are off): ours alone
        // take Commodore's cycles exactly; the other files' routines they call (EVAL, ...)
        // are held to the 2%.
        if !ours.stood_in {
            let off = (ours.cycles as f64 - theirs.cycles as f64) / theirs.cycles as f64;
            assert!(
                off.abs() <= 0.02,
                "cycles: ours {}, Commodore's {}",
                ours.cycles,
                theirs.cycles
            );
        }
    }
    (ours, end)
}

#[test]
fn the_entries_are_where_the_memory_maps_put_them() {
    for &(name, at) in COMMODORE {
        if ["ERROR", "TSTOP", "FCERR"].contains(&name) {
            continue;
        }
        assert_eq!(own(name), Some(at), "{name}");
    }
}

// ---- temporaries, STRLIT, GETSPA -------------------------------------------------------

#[test]
fn strlit_copies_text_from_the_input_buffer_into_string_space() {
    let (r, end) = both(|r| {
        r.put(BUF, b"HELLO\" WORLD\0");
        r.call("STRLIT", BUF as u8, 0, (BUF >> 8) as u8)
    });
    assert_eq!(end, End::Returned);
    assert_eq!(r.r16(FRETOP), 0xA000 - 5, "five bytes taken");
    assert_eq!(r.get(TEMPPT), TEMPST as u8 + 3);
    assert_eq!(r.get(LASTPT), TEMPST as u8);
    assert_eq!(r.r16(FACMO), TEMPST, "FAC points at the temporary");
    assert_eq!(r.get(VALTYP), 0xFF);
    assert_eq!(r.bytes(TEMPST, 3), [5, 0xFB, 0x9F]);
    assert_eq!(r.text_of(TEMPST), b"HELLO");
    assert_eq!(r.r16(STRNG2), BUF + 6, "after the closing quote");
}

#[test]
fn strlit_points_at_text_in_the_program_without_copying() {
    let (r, end) = both(|r| {
        r.put(0x0810, b"ABC\0");
        r.call("STRLIT", 0x10, 0, 0x08)
    });
    assert_eq!(end, End::Returned);
    assert_eq!(r.r16(FRETOP), 0xA000, "nothing taken");
    assert_eq!(r.bytes(TEMPST, 3), [3, 0x10, 0x08]);
    assert_eq!(r.r16(STRNG2), 0x0813, "at the $00: not stepped over");
}

#[test]
fn strlt2_stops_at_either_terminator() {
    let (r, end) = both(|r| {
        r.put(0x0810, b"AB,C:D\0");
        r.set(CHARAC, b':');
        r.set(ENDCHR, b',');
        let at = r.entry("STRLT2");
        let body = [jsr_ay(0x10, 0x08, at), vec![RTS]].concat();
        r.run(&body, &mut stand_ins)
    });
    assert_eq!(end, End::Returned);
    assert_eq!(r.text_of(TEMPST), b"AB");
}

#[test]
fn a_fourth_temporary_is_too_complex() {
    let (r, end) = both(|r| {
        r.put(0x0810, b"X\0");
        // STRLIT four times.
        let at = r.entry("STRLIT");
        let mut body = Vec::new();
        for _ in 0..4 {
            body.extend(jsr_ay(0x10, 0x08, at));
        }
        body.push(RTS);
        r.run(&body, &mut stand_ins)
    });
    assert_eq!(end, End::Error(25), "FORMULA TOO COMPLEX");
    assert_eq!(r.get(TEMPPT), TEMPST as u8 + 9);
    assert_eq!(r.get(LASTPT), TEMPST as u8 + 6);
}

#[test]
fn getspa_takes_space_under_fretop() {
    let (r, end) = both(|r| r.call("GETSPA", 10, 0, 0));
    assert_eq!(end, End::Returned);
    assert_eq!(r.r16(FRETOP), 0xA000 - 10);
    assert_eq!(r.r16(FRESPC), 0xA000 - 10);
    let c = &r.m.cpu;
    assert_eq!((c.a, c.x, c.y), (10, 0xF6, 0x9F));
}

#[test]
fn frefac_gives_back_the_newest_temporary_and_its_space() {
    let (r, end) = both(|r| {
        r.put(BUF, b"HELLO\"\0");
        let lit = r.entry("STRLIT");
        let free = r.entry("FREFAC");
        // STRLIT "HELLO", FREFAC.
        let body = [jsr_ay(0x00, 0x02, lit), jsr(free), vec![RTS]].concat();
        r.run(&body, &mut stand_ins)
    });
    assert_eq!(end, End::Returned);
    assert_eq!(r.get(TEMPPT), TEMPST as u8, "popped");
    assert_eq!(r.r16(FRETOP), 0xA000, "the space given back");
    let c = &r.m.cpu;
    assert_eq!((c.a, c.x, c.y), (5, 0xFB, 0x9F), "length and address");
    assert_eq!(r.r16(INDEX), 0x9FFB);
}

#[test]
fn fretmp_keeps_a_temporary_that_is_not_the_last() {
    let (r, end) = both(|r| {
        r.put(BUF, b"AB\"\0");
        let lit = r.entry("STRLIT");
        let free = r.entry("FRETMP");
        // "AB", "AB" again, FRETMP of the first.
        let body = [
            jsr_ay(0x00, 0x02, lit),
            jsr_ay(0x00, 0x02, lit),
            jsr_ay(TEMPST as u8, 0x00, free),
            vec![RTS],
        ]
        .concat();
        r.run(&body, &mut stand_ins)
    });
    assert_eq!(end, End::Returned);
    assert_eq!(r.get(TEMPPT), TEMPST as u8 + 6, "not the last: kept");
    assert_eq!(r.r16(FRETOP), 0xA000 - 4, "its space kept");
}

// ---- the string functions ----------------------------------------------------------------

/// Calls a function the way the dispatch does: the string's descriptor pointer and N on the
/// stack under the dispatch's return address (which the function drops).
fn call_function(r: &mut Rig, name: &str, descriptor: u16, n: u8) -> End {
    let at = r.entry(name);
    let body = [push_arguments(descriptor, n), jsr(at), vec![JAM]].concat();
    r.run(&body, &mut stand_ins)
}

/// "HELLO WORLD" as a string variable's text in the program, its descriptor at $0880,
/// TXTPTR at a ")".
fn hello(r: &mut Rig) {
    r.put(0x0840, b"HELLO WORLD");
    r.put(0x0880, &[11, 0x40, 0x08]);
    r.put(0x0890, b")\0");
    r.w16(TXTPTR, 0x0890);
}

#[test]
fn left_right_and_mid_cut_as_commodores() {
    let cases: &[(&str, u8, Option<u8>, &[u8])] = &[
        ("LEFTD", 3, None, b"HEL"),
        ("LEFTD", 0, None, b""),
        ("LEFTD", 99, None, b"HELLO WORLD"),
        ("RIGHTD", 3, None, b"RLD"),
        ("RIGHTD", 0, None, b""),
        ("RIGHTD", 200, None, b"HELLO WORLD"),
        ("MIDD", 7, None, b"WORLD"),
        ("MIDD", 20, None, b""),
        ("MIDD", 11, None, b"D"),
        ("MIDD", 4, Some(3), b"LO "),
        ("MIDD", 10, Some(5), b"LD"),
        ("MIDD", 1, Some(0), b""),
    ];
    for &(name, n, length, want) in cases {
        let (r, end) = both(|r| {
            hello(r);
            if let Some(l) = length {
                r.set(FACLO, l);
            }
            if length.is_some() {
                // MID$ with its length already read: enter after that part (MID2), as
                // the dispatch has the position on the stack and the length in FACLO.
                let mid2 = r.entry("MIDD") + 17;
                let body = [push_arguments(0x0880, n), jsr(mid2), vec![JAM]].concat();
                return r.run(&body, &mut stand_ins);
            }
            call_function(r, name, 0x0880, n)
        });
        assert_eq!(end, End::Returned, "{name} {n} {length:?}");
        assert_eq!(r.text_of(TEMPST), want, "{name} {n} {length:?}");
        assert_eq!(r.get(TEMPPT), TEMPST as u8 + 3);
        assert_eq!(r.r16(TXTPTR), 0x0891, "after the )");
        assert_eq!(
            r.r16(FRETOP),
            0xA000 - want.len() as u16,
            "{name} {n}: a copy in string space"
        );
    }
}

#[test]
fn mid_from_position_0_is_an_illegal_quantity() {
    let (_, end) = both(|r| {
        hello(r);
        call_function(r, "MIDD", 0x0880, 0)
    });
    assert_eq!(end, End::IllegalQuantity);
}

#[test]
fn a_function_of_the_newest_temporary_reuses_its_space() {
    // LEFT$ of a temporary at FRETOP: its space is freed before the copy is taken, so the
    // result lands on top of it (Commodore's memory behaviour).
    let (r, end) = both(|r| {
        r.put(BUF, b"ABCDEF\"\0");
        r.put(0x0890, b")\0");
        r.w16(TXTPTR, 0x0890);
        let lit = r.entry("STRLIT");
        let left = r.entry("LEFTD");
        // "ABCDEF", then LEFT$ of its descriptor, 2.
        let body = [
            jsr_ay(0x00, 0x02, lit),
            push_arguments(TEMPST, 2),
            jsr(left),
            vec![JAM],
        ]
        .concat();
        r.run(&body, &mut stand_ins)
    });
    assert_eq!(end, End::Returned);
    assert_eq!(r.text_of(TEMPST), b"AB");
    assert_eq!(r.get(TEMPPT), TEMPST as u8 + 3, "one temporary: the result");
    // GETSPA took 2 bytes under "ABCDEF" (at $9FFA) before FRETMP freed it: the new
    // string's space is under the old one, and FRETOP was not moved back above it.
    assert_eq!(r.r16(TEMPST + 1), 0x9FF8);
    assert_eq!(r.r16(FRETOP), 0x9FF8);
}

#[test]
fn chr_makes_a_one_character_string() {
    let (r, end) = both(|r| {
        byte_to_fac(r, 65);
        let at = r.entry("CHRD");
        r.run(&[jsr(at), vec![JAM]].concat(), &mut stand_ins)
    });
    assert_eq!(end, End::Returned);
    assert_eq!(r.text_of(TEMPST), b"A");
    assert_eq!(r.r16(FRETOP), 0x9FFF);
}

#[test]
fn len_and_asc_give_numbers() {
    for (name, want) in [("LEN", 11u8), ("ASC", b'H')] {
        let (r, end) = both(|r| {
            hello(r);
            r.w16(FACMO, 0x0880);
            r.set(VALTYP, 0xFF);
            r.call(name, 0, 0, 0)
        });
        assert_eq!(end, End::Returned, "{name}");
        assert_eq!(fac_to_byte(&r), want, "{name}");
        assert_eq!(r.get(VALTYP), 0, "{name}: a number");
    }
}

#[test]
fn asc_of_an_empty_string_is_an_illegal_quantity() {
    let (_, end) = both(|r| {
        r.put(0x0880, &[0, 0x40, 0x08]);
        r.w16(FACMO, 0x0880);
        r.set(VALTYP, 0xFF);
        r.call("ASC", 0, 0, 0)
    });
    assert_eq!(end, End::IllegalQuantity);
}

// ---- garbage collection ------------------------------------------------------------------

/// A random BASIC memory: program text, simple variables of every type, arrays, the
/// temporaries, and string space holding live strings, shared ones and garbage in any
/// order; strings also in the program text and empty ones. The same writes go to both
/// machines.
struct Heap {
    writes: Vec<(u16, Vec<u8>)>,
    pointers: Vec<(u16, u16)>,
    temps: u8,
    /// Every descriptor, in the order the collector scans them.
    descriptors: Vec<u16>,
}

impl Heap {
    fn random(rng: &mut fastrand::Rng, free: Option<u16>) -> Heap {
        let mut writes = Vec::new();
        let program: Vec<u8> = (0..0xFF).map(|_| rng.u8(..)).collect();
        writes.push((0x0801, program));
        let mut descriptors = Vec::new();
        let temps = rng.u8(0..=3);
        for i in 0..temps as u16 {
            descriptors.push(TEMPST + 3 * i);
        }
        let vartab = 0x0900u16;
        let mut at = vartab;
        for i in 0..rng.u16(0..=10) {
            // string, real, integer, FN: bit 7 of the two name bytes.
            let kind = rng.u8(0..4);
            let (b1, b2) = [(0, 0x80), (0, 0), (0x80, 0x80), (0x80, 0)][kind as usize];
            let mut v = vec![(0x41 + i as u8) | b1, 0x30 | b2];
            v.extend((0..5).map(|_| rng.u8(..)));
            writes.push((at, v));
            if kind == 0 {
                descriptors.push(at + 2);
            }
            at += 7;
        }
        let arytab = at;
        for i in 0..rng.u16(0..=4) {
            let kind = rng.u8(0..3);
            let (b1, b2, size) = [(0, 0x80, 3u16), (0, 0, 5), (0x80, 0x80, 2)][kind as usize];
            let dims: Vec<u16> = (0..rng.u16(1..=2)).map(|_| rng.u16(1..=4)).collect();
            let count: u16 = dims.iter().product();
            let header = 5 + 2 * dims.len() as u16;
            let total = header + size * count;
            let mut v = vec![(0x41 + i as u8) | b1, 0x31 | b2];
            v.extend(total.to_le_bytes());
            v.push(dims.len() as u8);
            for d in &dims {
                v.extend(d.to_be_bytes());
            }
            v.extend((0..size * count).map(|_| rng.u8(..)));
            writes.push((at, v));
            if kind == 0 {
                descriptors.extend((0..count).map(|e| at + header + 3 * e));
            }
            at += total;
        }
        // String space from $A000 down: each descriptor's string (or none), garbage between.
        let mut top = 0xA000u16;
        let mut order: Vec<usize> = (0..descriptors.len()).collect();
        rng.shuffle(&mut order);
        let mut given: Vec<Option<[u8; 3]>> = vec![None; descriptors.len()];
        for &i in &order {
            if rng.u8(0..4) == 0 {
                let len = rng.u16(1..=20);
                top -= len;
                writes.push((top, (0..len).map(|_| rng.u8(..)).collect()));
            }
            let earlier: Vec<[u8; 3]> = given.iter().flatten().copied().collect();
            let d = match rng.u8(0..8) {
                0 => [0, rng.u8(..), rng.u8(..)],
                1 => {
                    let a = rng.u16(0x0810..0x08E0);
                    [rng.u8(1..=16), a as u8, (a >> 8) as u8]
                }
                2 if !earlier.is_empty() => earlier[rng.usize(..earlier.len())],
                _ => {
                    let len = rng.u16(1..=40);
                    top -= len;
                    writes.push((top, (0..len).map(|_| rng.u8(..)).collect()));
                    [len as u8, top as u8, (top >> 8) as u8]
                }
            };
            given[i] = Some(d);
            writes.push((descriptors[i], d.to_vec()));
        }
        if rng.bool() {
            let len = rng.u16(1..=30);
            top -= len;
            writes.push((top, (0..len).map(|_| rng.u8(..)).collect()));
        }
        // An integer array (the collector steps over it) filling memory up to `free`
        // bytes under the strings.
        let mut strend = at;
        if let Some(free) = free {
            let total = top - free - at;
            let mut v = vec![0xC9, 0xC9];
            v.extend(total.to_le_bytes());
            v.extend([1, 0, 1]);
            writes.push((at, v));
            strend = top - free;
        }
        let mut pointers = vec![(VARTAB, vartab), (ARYTAB, arytab), (STREND, strend)];
        pointers.extend([(FRETOP, top), (FRESPC, top), (MEMSIZ, 0xA000)]);
        let last = TEMPST + 3 * temps as u16;
        pointers.push((LASTPT, last.wrapping_sub(3) & 0xFF));
        Heap {
            writes,
            pointers,
            temps,
            descriptors,
        }
    }

    fn apply(&self, r: &mut Rig) {
        for (at, bytes) in &self.writes {
            r.put(*at, bytes);
        }
        for &(at, v) in &self.pointers {
            r.w16(at, v);
        }
        r.set(TEMPPT, TEMPST as u8 + 3 * self.temps);
    }
}

/// Microsoft's collector in Rust, on a copy of RAM: pass after pass, the string with the
/// highest address under FRETOP and not under STREND (the last such in scanning order when
/// two share an address) moves up to just under FRETOP. Returns the new FRETOP.
fn model_gc(ram: &mut [u8], descriptors: &[u16]) -> u16 {
    let r16 = |ram: &[u8], a: u16| u16::from_le_bytes([ram[a as usize], ram[a as usize + 1]]);
    let strend = r16(ram, STREND);
    let mut fretop = r16(ram, MEMSIZ);
    loop {
        let mut best: Option<(u16, u16)> = None; // (address, descriptor)
        let mut floor = strend;
        for &d in descriptors {
            let (len, addr) = (ram[d as usize], r16(ram, d + 1));
            if len == 0 || addr >= fretop || addr < floor {
                continue;
            }
            floor = addr;
            best = Some((addr, d));
        }
        let Some((addr, d)) = best else {
            return fretop;
        };
        let len = ram[d as usize] as u16;
        let to = fretop - len;
        // Highest byte first, as BLTU does: a string two descriptors share may move down
        // over itself the second time, smearing (Commodore's does the same).
        for i in (0..len).rev() {
            ram[(to + i) as usize] = ram[(addr + i) as usize];
        }
        ram[d as usize + 1..d as usize + 3].copy_from_slice(&to.to_le_bytes());
        fretop = to;
    }
}

#[test]
fn garbage_collection_packs_strings_as_microsofts_algorithm_does() {
    let mut rng = fastrand::Rng::with_seed(0x5742);
    let mut unshared = 0;
    for round in 0..60 {
        let heap = Heap::random(&mut rng, None);
        let (r, end) = both(|r| {
            heap.apply(r);
            r.call("GARBAG", 0, 0, 0)
        });
        assert_eq!(end, End::Returned, "round {round}");
        let mut model = Rig::ours();
        heap.apply(&mut model);
        let texts: Vec<Vec<u8>> = heap.descriptors.iter().map(|&d| model.text_of(d)).collect();
        let mut model_before = Rig::ours();
        heap.apply(&mut model_before);
        let fretop = model_gc(&mut model.m.bus.ram[..], &heap.descriptors);
        assert_eq!(r.r16(FRETOP), fretop, "round {round}: FRETOP");
        // Every string keeps its text, unless two descriptors share a string in string
        // space: moved twice, the second time down over itself and its neighbours, it
        // smears them (Commodore's does the same; BASIC never makes such strings, LET
        // copies them).
        let strend = model_before.r16(STREND);
        let mut places: Vec<Vec<u8>> = heap
            .descriptors
            .iter()
            .map(|&d| model_before.bytes(d, 3))
            .filter(|b| b[0] > 0 && u16::from_le_bytes([b[1], b[2]]) >= strend)
            .map(|b| b[1..].to_vec())
            .collect();
        let live = places.len();
        places.sort();
        places.dedup();
        if places.len() == live {
            unshared += 1;
            for (d, text) in heap.descriptors.iter().zip(&texts) {
                assert_eq!(
                    &r.text_of(*d),
                    text,
                    "round {round}: the string at ${d:04X}"
                );
            }
        }
        for a in 0x0800..0xA000u16 {
            assert_eq!(r.get(a), model.get(a), "round {round}: ${a:04X}");
        }
    }
    assert!(unshared > 10, "{unshared} rounds without shared strings");
}

#[test]
fn getspa_collects_garbage_when_full_then_fails_with_out_of_memory() {
    let mut rng = fastrand::Rng::with_seed(0x6E7);
    let (mut fitted, mut failed) = (0, 0);
    for round in 0..60 {
        let free = rng.u16(0..40);
        let heap = Heap::random(&mut rng, Some(free));
        let mut model = Rig::ours();
        heap.apply(&mut model);
        let after = model_gc(&mut model.m.bus.ram[..], &heap.descriptors);
        // The room the collection leaves (strings two descriptors share take twice the
        // space after it: the room may shrink).
        let room = after as i32 - model.r16(STREND) as i32;
        let extra = (room - free as i32).max(0) as u16;
        let want = (free + 1 + rng.u16(0..=extra + 4)).min(255) as u8;
        let (r, end) = both(|r| {
            heap.apply(r);
            r.set(GARBFL, rng_free_flag(round));
            r.call("GETSPA", want, 0, 0)
        });
        if room >= want as i32 {
            fitted += 1;
            assert_eq!(end, End::Returned, "round {round}: {want} bytes");
            assert_eq!(r.r16(FRETOP), after - want as u16, "round {round}");
            assert_eq!(r.get(GARBFL), 0x80, "round {round}: collected");
        } else {
            failed += 1;
            assert_eq!(end, End::Error(16), "round {round}: OUT OF MEMORY");
        }
        for a in 0x0800..0xA000u16 {
            assert_eq!(r.get(a), model.get(a), "round {round}: ${a:04X}");
        }
    }
    assert!(
        fitted > 5 && failed > 5,
        "both ways: {fitted} fitted, {failed} failed"
    );
}

/// Whatever GARBFL held before: GETSPA clears bit 7 itself.
fn rng_free_flag(round: u32) -> u8 {
    [0x00, 0x80, 0xFF, 0x3A][round as usize % 4]
}

// ---- concatenation, STR$, VAL ---------------------------------------------------------------

/// CAT with FAC on the temporary of `left` (a literal in the input buffer, copied to string
/// space) and TXTPTR on the `+` before the right operand `"..."` in the program text.
fn concatenate(r: &mut Rig, left: &[u8], right: &[u8]) -> End {
    let mut text = left.to_vec();
    text.extend(b"\"\0");
    r.put(BUF, &text);
    let mut operand = b"+\"".to_vec();
    operand.extend(right);
    operand.extend(b"\"\0");
    r.put(0x0890, &operand);
    r.w16(TXTPTR, 0x0890);
    let lit = r.entry("STRLIT");
    let cat = r.entry("CAT");
    // STRLIT, then CAT as a call of its own (its JMP to TSTOP finds the return to BODY+3).
    let body = [jsr_ay(0x00, 0x02, lit), vec![RTS]].concat();
    r.run(&body, &mut stand_ins);
    // JSR CAT; NOP; RTS.
    let body = [jsr(cat), vec![0xEA, RTS]].concat();
    r.run(&body, &mut stand_ins)
}

#[test]
fn cat_joins_two_strings_in_new_space() {
    let (r, end) = both(|r| concatenate(r, b"ABC", b"DEF"));
    assert_eq!(end, End::Returned);
    assert_eq!(r.text_of(TEMPST), b"ABCDEF");
    assert_eq!(
        r.get(TEMPPT),
        TEMPST as u8 + 3,
        "both operands popped, the result pushed"
    );
    assert_eq!(
        r.r16(TEMPST + 1),
        0xA000 - 3 - 6,
        "under the left one (not freed)"
    );
    assert_eq!(r.r16(FRETOP), 0xA000 - 9);
    assert_eq!(r.r16(TXTPTR), 0x0896, "after the right operand");
}

#[test]
fn cat_above_255_is_too_long() {
    let (_, end) = both(|r| concatenate(r, &[b'X'; 80], &[b'Y'; 176]));
    assert_eq!(end, End::Error(23), "STRING TOO LONG");
    let (r, end) = both(|r| concatenate(r, &[b'X'; 80], &[b'Y'; 175]));
    assert_eq!(end, End::Returned);
    assert_eq!(r.get(TEMPST), 255);
}

#[test]
fn str_makes_a_string_of_a_number() {
    for n in [0u8, 7, 12, 200] {
        let (r, end) = both(|r| {
            byte_to_fac(r, n);
            let at = r.entry("STRD");
            r.run(&[jsr(at), vec![JAM]].concat(), &mut stand_ins)
        });
        assert_eq!(end, End::Returned);
        assert_eq!(r.text_of(TEMPST), format!(" {n}").as_bytes(), "STR$({n})");
        assert_eq!(r.r16(FRETOP), 0xA000 - 1 - format!("{n}").len() as u16);
    }
}

#[test]
fn val_reads_only_the_string_and_puts_the_byte_after_it_back() {
    for (text, len, want) in [
        (&b"127"[..], 2u8, 12u8),
        (b"5X9", 3, 5),
        (b"42", 2, 42),
        (b"", 0, 0),
    ] {
        let (r, end) = both(|r| {
            r.put(0x0840, text);
            r.put(0x0840 + text.len() as u16, b"7");
            r.put(0x0880, &[len, 0x40, 0x08]);
            r.put(0x0890, b":\0");
            r.w16(TXTPTR, 0x0890);
            r.w16(FACMO, 0x0880);
            r.set(VALTYP, 0xFF);
            r.call("VAL", 0, 0, 0)
        });
        assert_eq!(end, End::Returned);
        assert_eq!(fac_to_byte(&r), want, "VAL of {len} bytes of {text:?}");
        assert_eq!(
            r.get(0x0840 + len as u16),
            [text, b"7"].concat()[len as usize],
            "put back"
        );
        assert_eq!(r.r16(TXTPTR), 0x0890, "TXTPTR put back");
        assert_eq!(r.get(VALTYP), 0, "a number");
    }
}

// ---- inside Commodore's BASIC ------------------------------------------------------------

/// Commodore's addresses of the routines strings.asm calls (memory maps).
const CALLED: &[(&str, u16)] = &[
    ("ERROR", 0xA437),
    ("BLTUC", 0xA3BF),
    ("CHKNUM", 0xAD8D),
    ("CHKSTR", 0xAD8F),
    ("TSTOP", 0xADB8),
    ("EVAL", 0xAE83),
    ("CHKCLS", 0xAEF7),
    ("CHKCOM", 0xAEFD),
    ("FCERR", 0xB248),
    ("SNGFLT", 0xB3A2),
    ("GETBYT", 0xB79E),
    ("CONINT", 0xB7A1),
    ("ZEROFC", 0xB8F7),
    ("FIN", 0xBCF3),
    ("FOUTC", 0xBDDF),
];

/// strings.asm's two parts: its area, and VAL at Commodore's address.
const STRING_PARTS: [(u16, u16); 2] = [(0xB465, 0xB79A), (0xB7AD, 0xB7EA)];

/// Commodore's BASIC with our KERNAL (whose transcript records CHROUT), its part of the
/// KERNAL image ($E000-$E4DF) in place; with `ours`, strings.asm's bytes laid over
/// Commodore's at the same addresses (they are all at Commodore's), nothing redirected.
fn commodores_basic(ours: bool) -> Option<Roms> {
    let mut roms = commodores_basic_on_our_kernal()?;
    if ours {
        let asm = common::assemble_part("strings.asm", CALLED, |strings| strings);
        common::lay_over(&mut roms, &asm, &STRING_PARTS);
    }
    Some(roms)
}

/// RUNs `program` (BASIC text), typing `keys`: what it printed, how it stopped, the cycles.
fn run_program(roms: Roms, program: &str, keys: &str) -> (Vec<u8>, StopReason, u64) {
    common::run_program(roms, program, keys, |_| {})
}

/// What the tests inside Commodore's BASIC say without its image.
const NOT_INSIDE: &str = "strings.asm not run inside Commodore's BASIC";

#[test]
fn the_shared_programs_run_the_same_with_our_strings_inside_commodores_basic() {
    if commodores_basic(false).is_none() {
        no_roms(NOT_INSIDE);
        return;
    }
    let Some(names) = common::shared_names() else {
        return;
    };
    let (mut same, mut as_recorded) = (0, 0);
    for name in &names {
        let (program, keys) = common::shared_program(name);
        let (theirs, their_stop, their_cycles) =
            run_program(commodores_basic(false).unwrap(), &program, &keys);
        let (ours, our_stop, our_cycles) =
            run_program(commodores_basic(true).unwrap(), &program, &keys);
        assert_eq!(our_stop, their_stop, "{name}");
        assert!(
            ours == theirs,
            "{name}: printed differently with our strings"
        );
        // The same instructions at the same addresses: the same time to the cycle.
        assert_eq!(our_cycles, their_cycles, "{name}: cycles");
        same += 1;
        let recorded = common::shared_chrout(name).unwrap_or_default();
        let timed = common::prints_timings(name);
        if ours == recorded {
            as_recorded += 1;
        } else {
            println!("{name}: differs from the recorded output (timings: {timed})");
        }
    }
    println!(
        "{same} of {} programs the same with our strings; {as_recorded} as recorded",
        names.len()
    );
    assert!(as_recorded > names.len() / 2, "{as_recorded} as recorded");
}

/// Programs of our own for what the shared ones leave out: each prints the same with our
/// strings inside Commodore's BASIC as on Commodore's alone, in the same cycles.
#[test]
fn more_string_programs_run_the_same_inside_commodores_basic() {
    if commodores_basic(false).is_none() {
        no_roms(NOT_INSIDE);
        return;
    }
    let programs = [
        // Collections in the middle of expressions, temporaries live; FRE after each.
        "10 DIM A$(20):FOR I=0 TO 20:A$(I)=STR$(I*7):NEXT\n\
         20 FOR K=1 TO 40:B$=\"\":FOR I=0 TO 20:B$=B$+MID$(A$(I),2,1):NEXT\n\
         30 C$=LEFT$(B$,K/2)+RIGHT$(B$,3)+MID$(B$,K/3+1,5):PRINT C$;FRE(0):NEXT\n\
         40 X$=\"ABC\"+STR$(FRE(0))+CHR$(65)+\"DEF\":PRINT X$",
        // VAL and STR$ edge cases; ASC, LEN of results.
        "10 FOR I=1 TO 12:READ V$:PRINT VAL(V$);LEN(V$);:NEXT:PRINT\n\
         20 DATA \" 12 \",\"-3.5E2\",\"1E\",\"-\",\".\",\"12A3\",\"&\",\"\",\"+7\",\"1E38\",\"0.0001\",\"3 4\"\n\
         30 PRINT ASC(CHR$(0));ASC(\"Z\");STR$(-0);STR$(1E-10);LEN(STR$(123456789))",
        // MID$ with three arguments at every position and length.
        "10 S$=\"ABCDEFG\":FOR P=1 TO 9:FOR L=0 TO 8:PRINT MID$(S$,P,L);\"/\";:NEXT:PRINT:NEXT",
        // String too long in the middle of a formula, then OUT OF MEMORY from strings.
        "10 A$=\"\":FOR I=1 TO 17:A$=A$+\"0123456789ABCDEF\":PRINT LEN(A$):NEXT",
        "10 S$=\"\":FOR I=1 TO 20:S$=S$+\"0123456789\":NEXT\n\
         20 DIM A$(250):FOR I=0 TO 250:A$(I)=S$+\"\":PRINT I;FRE(0);LEN(A$(I)):NEXT",
        // CHR$ out of range; LEFT$ of a negative count.
        "10 PRINT CHR$(255);CHR$(256)",
        "10 PRINT LEFT$(\"AB\",-1)",
        "10 PRINT ASC(\"\")",
        // Comparisons free their temporaries; a formula too complex.
        "10 A$=\"X\":IF A$+A$<A$+A$+A$ THEN PRINT \"LT\";FRE(0)\n\
         20 PRINT (\"A\"+(\"B\"+(\"C\"+(\"D\"+\"E\"))))",
    ];
    for program in programs {
        let (theirs, their_stop, their_cycles) =
            run_program(commodores_basic(false).unwrap(), program, "");
        let (ours, our_stop, our_cycles) =
            run_program(commodores_basic(true).unwrap(), program, "");
        assert_eq!(our_stop, their_stop, "{program}");
        assert!(
            ours == theirs,
            "{program}: ours {:?}, Commodore's {:?}",
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        );
        assert_eq!(our_cycles, their_cycles, "{program}: cycles");
        assert!(theirs.len() > 20, "{program}: printed {theirs:?}");
    }
}
