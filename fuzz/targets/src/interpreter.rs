//! The `interpreter` target: random BASIC programs RUN on c64kit's own BASIC V2
//! (`Roms::own_basic`, 6502 code in programs/basic) through `Machine::start`, for a bounded
//! number of cycles. BASIC must keep control: whatever the program's tokens, the run ends at
//! `READY.`, with an error BASIC printed, waiting for keys that never come, or at the cycle
//! budget, never anywhere else.
//!
//! # The input
//!
//! The bytes are a BASIC program and a key script ([`Input::decode`]):
//! - Lines are split at $00 bytes, as they end in memory. A line's leading ASCII digits
//!   (up to five, at most 63999) are its number, as typed, and the spaces after them are
//!   dropped; a line without digits is numbered one more than the line before it (the
//!   first: 1), so that small GOTO and GOSUB targets exist in random programs. A later line
//!   of the same number replaces an earlier one and lines are put in order, as typing them
//!   would. The rest of the line is its text, bytes as they come (tokens, PETSCII, anything
//!   but $00), at most [`MAX_LINE_TEXT`] bytes, and each line gets its link.
//! - An empty line (a $00 first or right after another $00) ends the program: the bytes
//!   after that $00 are the keys typed, one PETSCII code each (at most [`MAX_KEYS`]), which
//!   INPUT and GET read.
//!
//! Drive 8 reads a folder that does not exist and cannot write ([`NO_FOLDER`]): an empty
//! disk, so LOAD, SAVE, OPEN and the rest reach the KERNAL and the drive without touching
//! the host's files.
//!
//! # What counts as a finding
//!
//! A panic (in the emulation or here), a run over libFuzzer's limits (2 s, 256 MB), and a
//! run that left BASIC's control in a way no BASIC program can: any stop other than
//! BASIC's `READY.` (the run ends when BASIC's main loop first asks for a line, so keys left
//! are never typed as direct commands), an error BASIC printed, input exhausted, or the
//! cycle budget. That is: a JAM anywhere (the BASIC ROM area, NOTYET at $E4DF, RAM), a BRK
//! reaching the KERNAL's handler, a KERNAL routine or address c64kit does not provide, a
//! jump to RESET. Such a stop panics with what the machine was doing.
//!
//! Three things a BASIC program can do on purpose end the judging: the run goes on (a
//! panic or the harness's limits still count) but its stop is not judged once
//! - a SYS statement started (a program whose RUN goes straight to a SYS starts there:
//!   `runs_basic_first`);
//! - a POKE is about to store (at its `STA (LINNUM),Y`) outside the screen ($0400-$07FF)
//!   and the I/O area ($D000-$DFFF: the chips and colour RAM), the places where a POKE
//!   cannot take BASIC's control away;
//! - a byte at or past GO's token ($CB-$FE, not pi) is evaluated as a function: typed
//!   outside quotes, shifted letters are such bytes, and Commodore's EVAL, like ours
//!   (Microsoft's ISFUN), then indexes past its function table and jumps wherever the
//!   bytes there point (checked against Commodore's ROMs: both end in a BRK).
//!
//! USR and WAIT stay judged: USR jumps through the vector at $0311, which only a POKE
//! changes (its default gives ?ILLEGAL QUANTITY), and WAIT only reads. LOAD finds nothing
//! but the empty directory ("$", which loads at $0401 with `,1`), so it brings in no code.
//!
//! # The budget
//!
//! [`CYCLE_BUDGET`] C64 cycles from RUN (after BASIC's cold start). Measured: a run to the
//! budget takes about 15 ms in the debug test build (the machine is optimised there too),
//! the havoc fuzzer runs 300-550 inputs a second there and libFuzzer's instrumented build
//! 70-90: far under the 2 s limit (fuzz/README.md).

use c64kit_basic::KeyEvent;
use c64kit_machine::basic_run::CHRIN_ENTRY;
use c64kit_machine::{
    runs_basic_first, Drive, Entry, Machine, Program, Roms, RunSettings, Segment, StopReason,
};

/// Where BASIC programs start (TXTTAB after the cold start).
const BASIC_START: u16 = 0x0801;
/// The largest line number BASIC accepts typed.
pub const MAX_LINE_NUMBER: u32 = 63999;
/// A line's text, at most: with its link, number and end, a line fits the 255 bytes BASIC's
/// Y-indexed scans of a line reach (a typed line holds at most 88).
pub const MAX_LINE_TEXT: usize = 250;
/// The program's bytes, at most: far below the 38 KB BASIC's RAM holds, so variables,
/// arrays and strings have room.
pub const MAX_PROGRAM: usize = 16 * 1024;
/// Keys typed, at most.
pub const MAX_KEYS: usize = 512;
/// Cycles from RUN a program may take (a C64 second is 0.985 M).
pub const CYCLE_BUDGET: u64 = 2_000_000;
/// GET and INPUT calls in a row finding no key before the run ends ("input exhausted"): a
/// program that GETs once and goes on is not cut short.
const IDLE_POLLS: u32 = 64;
/// Drive 8's folder: one that does not exist, read-only (an empty disk).
pub const NO_FOLDER: &str = "/nonexistent/c64kit-fuzz-interpreter-drive";

/// The screen and the I/O area: a POKE there leaves BASIC in control.
const SAFE_POKES: [std::ops::Range<u32>; 2] = [0x0400..0x0800, 0xD000..0xE000];
/// BASIC's integer / address register: POKE's address (zero page, Commodore's layout).
const LINNUM: u16 = 0x14;
/// The line running ($FFxx: direct mode).
const CURLIN: u16 = 0x39;
// Our BASIC's statement handlers and loop, by label (the addresses are Commodore's
// documented ones, which ours has too).
const ST_SYS: (&str, u16) = ("ST_SYS", 0xE12A);
const ST_POKE: (&str, u16) = ("ST_POKE", 0xB824);
/// POKE's store is `STA (LINNUM),Y` within this many bytes of its start (after GETNUM and
/// the byte's move to A), in Commodore's BASIC and in ours.
const POKE_STORE_SEARCH: u16 = 16;
const STA_INDIRECT_Y: u8 = 0x91;
const ISFUN: (&str, u16) = ("ISFUN", 0xAFA7);
/// Bytes at and past GO ($CB), but for pi ($FF), are no function: as a function (typed
/// outside quotes, shifted letters are these bytes) Commodore's EVAL, and ours, index
/// past the end of the function table and jump wherever the bytes there point.
const UNDEFINED_FUNCTIONS: std::ops::RangeInclusive<u8> = 0xCB..=0xFE;

/// A decoded input: the program's lines (number, text) in order, and the keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub lines: Vec<(u16, Vec<u8>)>,
    pub keys: Vec<u8>,
}

impl Input {
    /// The program and keys the bytes stand for (see the module's notes).
    pub fn decode(data: &[u8]) -> Input {
        let mut lines = std::collections::BTreeMap::new();
        let mut keys: &[u8] = &[];
        let mut previous = 0u32;
        let mut size = 0usize;
        let mut pos = 0;
        loop {
            let end = data[pos..].iter().position(|&b| b == 0).map(|e| pos + e);
            let chunk = &data[pos..end.unwrap_or(data.len())];
            if chunk.is_empty() {
                keys = end.map_or(&[][..], |e| &data[e + 1..]);
                break;
            }
            let digits = chunk
                .iter()
                .take(5)
                .take_while(|b| b.is_ascii_digit())
                .count();
            let number = if digits == 0 {
                previous + 1
            } else {
                chunk[..digits]
                    .iter()
                    .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
            }
            .min(MAX_LINE_NUMBER);
            previous = number;
            let text = &chunk[digits..];
            let text = if digits > 0 {
                &text[text.iter().take_while(|&&b| b == b' ').count()..]
            } else {
                text
            };
            let text = &text[..text.len().min(MAX_LINE_TEXT)];
            size += text.len() + 5;
            if size > MAX_PROGRAM {
                break;
            }
            lines.insert(number as u16, text.to_vec());
            match end {
                Some(e) => pos = e + 1,
                None => break,
            }
        }
        Input {
            lines: lines.into_iter().collect(),
            keys: keys[..keys.len().min(MAX_KEYS)].to_vec(),
        }
    }

    /// The input's bytes for a program (a PRG at $0801, as c64kit's tokenizer makes it:
    /// its lines' numbers and texts; links are not read) and keys: how seeds are made. A
    /// line whose text begins with a digit or a space would not decode as it was.
    pub fn encode(prg: &[u8], keys: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut at = 2;
        while at + 4 <= prg.len() && (prg[at] != 0 || prg[at + 1] != 0) {
            let number = u16::from_le_bytes([prg[at + 2], prg[at + 3]]);
            let text_end = prg[at + 4..]
                .iter()
                .position(|&b| b == 0)
                .map_or(prg.len(), |e| at + 4 + e);
            out.extend_from_slice(number.to_string().as_bytes());
            out.extend_from_slice(&prg[at + 4..text_end]);
            out.push(0);
            at = text_end + 1;
        }
        out.push(0);
        out.extend_from_slice(keys);
        out
    }

    /// The program as LOAD places it at $0801 (no load address): linked lines, then the
    /// end marker.
    pub fn program(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (number, text) in &self.lines {
            let link = BASIC_START as usize + out.len() + 4 + text.len() + 1;
            out.extend_from_slice(&(link as u16).to_le_bytes());
            out.extend_from_slice(&number.to_le_bytes());
            out.extend_from_slice(text);
            out.push(0);
        }
        out.extend_from_slice(&[0, 0]);
        out
    }
}

/// How a run ended, when BASIC kept control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// BASIC is back at `READY.` asking for a line.
    Ready,
    /// One of the stops a BASIC program may cause (the budget, input exhausted, ...).
    Stopped(StopReason),
    /// A SYS ran, or a POKE wrote where it could take control away: the stop is not judged.
    NotJudged(StopReason),
}

/// How a stop other than `READY.` counts: `None` if it is a finding (BASIC lost control).
pub fn judge(stop: StopReason, judged: bool) -> Option<Outcome> {
    match stop {
        _ if !judged => Some(Outcome::NotJudged(stop)),
        StopReason::CycleBudget { .. }
        | StopReason::InputExhausted
        | StopReason::ReturnedToBasic
        | StopReason::BasicError { .. } => Some(Outcome::Stopped(stop)),
        _ => None,
    }
}

/// A run BASIC kept control of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub outcome: Outcome,
    /// What the program printed (CHROUT's stream; our KERNAL's record, empty on
    /// Commodore's).
    pub output: Vec<u8>,
    /// The screen at the end, as text.
    pub screen: Vec<String>,
    /// Cycles from RUN.
    pub cycles: u64,
}

/// Runs the input on our BASIC. `Err` is a finding: how the run left BASIC's control.
pub fn run(data: &[u8]) -> Result<Run, String> {
    run_with(data, Roms::own_basic(), CYCLE_BUDGET)
}

/// Commodore's KERNAL's BRK handler (behind the vector at $0316): where a BRK ends up on
/// a real KERNAL image, which warm-starts BASIC.
const REAL_KERNAL_BRK: u16 = 0xFE66;

/// Runs the input as [`run`] does, on other ROMs and with another budget: on Commodore's
/// (to tell what BASIC V2 itself does with an input), a BRK reaching the KERNAL's handler
/// counts as on ours.
pub fn run_with(data: &[u8], roms: Roms, budget: u64) -> Result<Run, String> {
    let real_kernal = !roms.trap_kernal;
    let input = Input::decode(data);
    let program = Program {
        segments: vec![Segment {
            address: BASIC_START,
            bytes: input.program(),
        }],
        entry: Entry::Run,
    };
    // A program whose RUN goes straight to a SYS starts in the routine, as BASIC's SYS
    // leaves it (`Machine::start`), never passing the breakpoint on SYS's code: a SYS
    // started all the same.
    let sys_first = !runs_basic_first(&roms, &program);
    let settings = RunSettings {
        roms,
        drive: Drive::read_only(NO_FOLDER),
        keys: input.keys.iter().map(|&k| KeyEvent::Key(k)).collect(),
        idle_poll_limit: IDLE_POLLS,
        ..RunSettings::default()
    };
    let mut m =
        Machine::start(Some(&program), settings).map_err(|e| format!("RUN did not start: {e}"))?;
    let [sys, poke, isfun] = [ST_SYS, ST_POKE, ISFUN].map(|(n, a)| m.basic_entry(n, a));
    // Where POKE stores, if its code is found: a POKE then stays judged when it writes
    // where BASIC keeps control; without it, every POKE ends the judging.
    let poke_store = (poke..poke.saturating_add(POKE_STORE_SEARCH))
        .find(|&at| m.peek(at) == STA_INDIRECT_Y && m.peek(at.wrapping_add(1)) == LINNUM as u8);
    let breakpoints = [
        Some(CHRIN_ENTRY),
        Some(sys),
        poke_store.or(Some(poke)),
        Some(isfun),
    ];
    for at in breakpoints.into_iter().flatten() {
        m.set_breakpoint(at);
    }
    if real_kernal {
        m.set_breakpoint(REAL_KERNAL_BRK);
    }
    let end = m.cycles() + budget;
    let done = |m: &mut Machine, outcome| Run {
        outcome,
        output: m.kernal.transcript.clone(),
        screen: m.screen_text(),
        cycles: m.cycles() + budget - end,
    };
    let mut judged = !sys_first;
    let stop = loop {
        let stop = m.run(end.saturating_sub(m.cycles()));
        match stop {
            StopReason::Breakpoint { pc } if pc == CHRIN_ENTRY => {
                if m.basic_waits_for_a_line() {
                    let outcome = if judged {
                        Outcome::Ready
                    } else {
                        Outcome::NotJudged(stop)
                    };
                    return Ok(done(&mut m, outcome));
                }
            }
            StopReason::Breakpoint { pc } if pc == sys => judged = false,
            StopReason::Breakpoint { pc } if Some(pc) == poke_store => {
                // The POKE's store, about to write at LINNUM + Y.
                let at = u16::from_le_bytes([m.peek(LINNUM), m.peek(LINNUM + 1)])
                    .wrapping_add(u16::from(m.cpu.y));
                if !SAFE_POKES.iter().any(|r| r.contains(&u32::from(at))) {
                    judged = false;
                }
            }
            StopReason::Breakpoint { pc } if pc == poke => judged = false,
            StopReason::Breakpoint { pc } if pc == isfun => {
                // ISFUN is entered with the token in A.
                if UNDEFINED_FUNCTIONS.contains(&m.cpu.a) {
                    judged = false;
                }
            }
            StopReason::Breakpoint {
                pc: REAL_KERNAL_BRK,
            } if real_kernal => {
                break StopReason::BrkNoHandler {
                    pc: REAL_KERNAL_BRK,
                };
            }
            StopReason::CycleBudget { .. } => break StopReason::CycleBudget { budget },
            _ => break stop,
        }
        if m.cycles() >= end {
            break StopReason::CycleBudget { budget };
        }
    };
    match judge(stop.clone(), judged) {
        Some(outcome) => Ok(done(&mut m, outcome)),
        None => {
            let line = u16::from_le_bytes([m.peek(CURLIN), m.peek(CURLIN + 1)]);
            let listing = c64kit_basic::list_program(
                &[&BASIC_START.to_le_bytes()[..], &input.program()].concat(),
            )
            .unwrap_or_default();
            Err(format!(
                "BASIC lost control: {stop} (PC ${:04X}, S ${:02X}, line {line}, {} cycles \
                 after RUN)\nprogram:\n{listing}\nkeys: {:02X?}",
                m.cpu.pc,
                m.cpu.s,
                m.cycles() + budget - end,
                input.keys
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokenized(source: &str) -> Vec<u8> {
        c64kit_basic::tokenize(source, BASIC_START).unwrap()
    }

    /// The input for a BASIC text and keys.
    fn input(source: &str, keys: &[u8]) -> Vec<u8> {
        Input::encode(&tokenized(source), keys)
    }

    fn outcome(source: &str, keys: &[u8]) -> Run {
        run(&input(source, keys)).unwrap_or_else(|finding| panic!("{finding}"))
    }

    fn text(run: &Run) -> String {
        String::from_utf8_lossy(&run.output).into_owned()
    }

    #[test]
    fn lines_are_numbered_as_typed_or_after_the_line_before() {
        let decoded = Input::decode(b"10  A\0\x80\x99\x005 B\x0010C\0\0KEYS\0");
        assert_eq!(
            decoded.lines,
            [
                (5, b"B".to_vec()),
                (10, b"C".to_vec()),
                (11, vec![0x80, 0x99])
            ],
            "sorted, a later 10 replacing the first, spaces after the number dropped"
        );
        assert_eq!(decoded.keys, b"KEYS\0");
        // At most five digits, at most 63999 (the line after it too); no digits first: 1.
        let decoded = Input::decode(b"Z\x00123456\x0099999X\0Y\0");
        assert_eq!(
            decoded.lines,
            [
                (1, b"Z".to_vec()),
                (12345, b"6".to_vec()),
                (63999, b"Y".to_vec())
            ]
        );
        assert_eq!(decoded.keys, b"");
        // A $00 first: no program, all keys.
        assert_eq!(
            Input::decode(b"\x001\0"),
            Input {
                lines: vec![],
                keys: b"1\0".to_vec()
            }
        );
        let long = Input::decode(&[b'A'; 300]);
        assert_eq!(long.lines[0].1.len(), MAX_LINE_TEXT);
        let many = Input::decode(&b"A\0".repeat(MAX_PROGRAM));
        assert!(many.program().len() <= MAX_PROGRAM + 2);
    }

    #[test]
    fn an_encoded_program_decodes_to_the_same_program() {
        for source in [
            "10 PRINT \"HI\":GOTO 10\n",
            "1 REM\n2\n63999 DATA 1,\"A B\"\n",
            "100 A$=\"{CLR}\":IF A$<>\"\" THEN 100\n200 END\n",
        ] {
            let prg = tokenized(source);
            let decoded = Input::decode(&Input::encode(&prg, b"AB\r"));
            assert_eq!(decoded.program(), prg[2..], "{source}");
            assert_eq!(decoded.keys, b"AB\r");
        }
    }

    #[test]
    fn a_program_runs_to_ready_and_keys_left_are_not_typed() {
        let r = outcome("10 PRINT 1+1:PRINT \"X\"\n", b"SYS 0\r");
        assert_eq!(r.outcome, Outcome::Ready);
        assert!(text(&r).starts_with(" 2\u{1d}\rX\r"), "{:?}", text(&r));
        let r = outcome(
            "10 GET A$:IF A$=\"\" THEN 10\n20 INPUT B:PRINT A$;B*2\n",
            b"Q21\r",
        );
        assert_eq!(r.outcome, Outcome::Ready);
        assert!(text(&r).contains("Q 42"), "{:?}", text(&r));
    }

    #[test]
    fn endless_programs_stop_at_the_budget_or_when_no_key_comes() {
        let r = outcome("10 GOTO 10\n", b"");
        assert_eq!(
            r.outcome,
            Outcome::Stopped(StopReason::CycleBudget {
                budget: CYCLE_BUDGET
            })
        );
        assert!(r.cycles >= CYCLE_BUDGET);
        let r = outcome("10 INPUT A\n", b"");
        assert_eq!(r.outcome, Outcome::Stopped(StopReason::InputExhausted));
    }

    #[test]
    fn sys_unsafe_pokes_and_undefined_functions_are_not_judged() {
        let not_judged = |r: Run| assert!(matches!(r.outcome, Outcome::NotJudged(_)), "{r:?}");
        // RUN straight to the SYS (started computed), and a SYS whose address only BASIC
        // works out (X is 0: the CPU runs the processor port and zero page).
        not_judged(outcome("10 SYS 65517\n", b""));
        not_judged(outcome("10 SYS X\n", b""));
        // Banking the ROMs out: the CPU runs into RAM.
        not_judged(outcome("10 POKE 53280,0:POKE 1,0:PRINT 1\n", b""));
        not_judged(outcome("10 POKE 785,0:PRINT USR(1)\n", b""));
        // $DA: shifted Z outside quotes.
        let mut prg = tokenized("10 PRINT Z(1)\n");
        let z = prg.iter().position(|&b| b == b'Z').unwrap();
        prg[z] = 0xDA;
        not_judged(run(&Input::encode(&prg, b"")).unwrap());
        // The screen and the chips are fair game.
        let r = outcome(
            "10 POKE 53280,0:POKE 1024,1:POKE 55296,1:PRINT PEEK(1024)\n",
            b"",
        );
        assert_eq!(r.outcome, Outcome::Ready);
        assert!(text(&r).starts_with(" 1"), "{:?}", text(&r));
    }

    #[test]
    fn leaving_basic_is_a_finding_and_basics_own_ends_are_not() {
        for stop in [
            StopReason::Jammed {
                pc: 0xE4DF,
                opcode: 0x02,
            },
            StopReason::BrkNoHandler { pc: 0x1234 },
            StopReason::Unimplemented {
                routine: "LISTEN",
                pc: 0xFFB1,
            },
            StopReason::Reset,
        ] {
            assert_eq!(judge(stop.clone(), true), None, "{stop}");
            assert!(matches!(judge(stop, false), Some(Outcome::NotJudged(_))));
        }
        for stop in [
            StopReason::CycleBudget { budget: 1 },
            StopReason::InputExhausted,
            StopReason::BasicError {
                message: "SYNTAX".into(),
                line: Some(10),
            },
        ] {
            assert_eq!(judge(stop.clone(), true), Some(Outcome::Stopped(stop)));
        }
    }

    /// With Commodore's ROM images in `C64KIT_ROMS`: every committed seed ends the same way
    /// on Commodore's BASIC and KERNAL (the harness runs them as it runs ours), without a
    /// finding.
    #[test]
    fn the_seeds_end_alike_on_commodores_roms() {
        let Some(dir) = std::env::var_os("C64KIT_ROMS") else {
            println!("C64KIT_ROMS is not set: the seeds are not run on Commodore's ROMs");
            return;
        };
        let paths = c64kit_machine::RomPaths::commodores_basic_and_kernal_in(dir.as_ref());
        let kind = |o: &Outcome| std::mem::discriminant(o);
        // Commodore's KERNAL takes keys in ten times slower than ours (the editor's
        // work at each); the seeds end well within this.
        let budget = 10 * CYCLE_BUDGET;
        for file in crate::corpus_files(&crate::seeds_dir("interpreter")) {
            let data = std::fs::read(&file).unwrap();
            let ours = run_with(&data, Roms::own_basic(), budget)
                .unwrap_or_else(|f| panic!("{}: {f}", file.display()));
            let roms = Roms::load(&paths).expect("Commodore's images");
            let theirs =
                run_with(&data, roms, budget).unwrap_or_else(|f| panic!("{}: {f}", file.display()));
            assert_eq!(
                kind(&ours.outcome),
                kind(&theirs.outcome),
                "{}: ours {:?}, Commodore's {:?}",
                file.display(),
                ours.outcome,
                theirs.outcome
            );
        }
    }
}
