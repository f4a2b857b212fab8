//! The programs of ../shared/basic-v2 on our BASIC V2 (`Roms::own_basic`): each tokenized
//! with c64kit-basic's tokenizer, started through `Machine::start` (BASIC's cold start, the
//! program placed as LOAD places it, RUN), its `.keys` as the key script, until BASIC is
//! back at `READY.` waiting for a line. What it sent through CHROUT ($FFD2) is compared
//! byte for byte with the `.chrout` file Commodore's ROMs made, the final screen with the
//! `.screen` file, the cycles from RUN to the last CHROUT with `.meta`'s where comparable.
//! A table says which are identical, and where the first difference is.
//!
//! Every program must give the reference's stream and screen (for programs printing TI:
//! the same but for the digits), and where the cycles are comparable, be within 2% of them. With `C64KIT_ROMS` naming a folder with Commodore's
//! images, every program also runs on them through the same start path, and each must give
//! its `.chrout` file exactly: a check that this harness runs programs as the reference did.

mod common;

use c64kit_basic::parse_key_script;
use c64kit_machine::basic_run::CHRIN_ENTRY;
use c64kit_machine::{Machine, Prg, Program, Roms, RunSettings, StopReason};
use common::{commodores_roms, shared_dir as folder};

/// The programs whose CHROUT stream is identical to Commodore's on our BASIC.
/// CHROUT in the KERNAL's jump table: what the reference recorded.
const CHROUT_ENTRY: u16 = 0xFFD2;
/// Where the CPU's IRQ vector leads in both KERNALs (it pushes A, X, Y).
const IRQ_ENTRY: u16 = 0xFF48;
/// GETIN calls finding no key once the script is used up before the run ends: a program's
/// GET may find nothing and go on, as on a C64.
const IDLE_POLLS: u32 = 1000;
/// The KERNAL's keyboard buffer count.
const NDX: u16 = 0xC6;
/// Cycles the trap KERNAL may take to end the run once BASIC waits at READY.
const END_CYCLES: u64 = 1_000_000;
/// Cycles allowed beyond twice the reference's, for start and end.
const SPARE_CYCLES: u64 = 5_000_000;
/// The reference's cycle count, where comparable, must be met within this fraction.
const CYCLE_TOLERANCE: f64 = 0.02;

struct Reference {
    name: String,
    program: Program,
    keys: String,
    chrout: Vec<u8>,
    screen: Vec<String>,
    /// `run_cycles`, unless the run depends on typing or prints timings.
    cycles: Option<u64>,
    /// The output holds TI values: its digits depend on the run's speed.
    timings: bool,
    budget: u64,
}

fn references() -> Vec<Reference> {
    common::shared_names()
        .unwrap_or_default()
        .into_iter()
        .map(|name| {
            let read = |ext: &'static str| common::shared_file(&name, ext).ok_or(ext);
            let source = read("bas").unwrap();
            let prg = c64kit_basic::tokenize(&source, 0x0801)
                .unwrap_or_else(|e| panic!("{name}.bas does not tokenize: {e}"));
            let prg = Prg::parse(&prg, &name).unwrap();
            let chrout = common::hex_bytes(&read("chrout").unwrap());
            let screen = read("screen")
                .unwrap()
                .lines()
                .map(|l| l.trim_start_matches('|').trim_end_matches('|').to_string())
                .collect();
            let meta = read("meta").unwrap();
            let field = |key: &str| {
                meta.lines()
                    .find_map(|l| l.strip_prefix(key)?.trim().strip_prefix('='))
                    .map(|v| v.trim().to_string())
            };
            let run_cycles: u64 = field("run_cycles").unwrap().parse().unwrap();
            let timings = field("prints_timings").as_deref() == Some("true");
            let comparable = field("typed_input").as_deref() == Some("false") && !timings;
            Reference {
                timings,
                program: Program::from_prg(&prg),
                keys: read("keys").unwrap_or_default(),
                chrout,
                screen,
                cycles: comparable.then_some(run_cycles),
                budget: run_cycles * 2 + SPARE_CYCLES,
                name,
            }
        })
        .collect()
}

/// What a run gave.
struct Outcome {
    chrout: Vec<u8>,
    screen: Vec<String>,
    /// From RUN to the last CHROUT.
    cycles: u64,
    /// How it ended: "READY." or why not.
    end: String,
    at_ready: bool,
}

/// The CHROUT stream as the reference recorded it, at CHROUT's entry in the jump table;
/// an interrupt taken just there comes back to it: the same call, not logged again.
struct ChroutLog {
    bytes: Vec<u8>,
    /// The cycle of the last call logged.
    last: Option<u64>,
    again: bool,
}

impl ChroutLog {
    /// Logs `m`'s CHROUT calls from now on (breakpoints at CHROUT's, CHRIN's and the IRQ's
    /// entries).
    fn watch(m: &mut Machine) -> ChroutLog {
        for at in [CHROUT_ENTRY, CHRIN_ENTRY, IRQ_ENTRY] {
            m.set_breakpoint(at);
        }
        ChroutLog {
            bytes: Vec::new(),
            last: None,
            again: false,
        }
    }

    /// Runs `m` for up to `cycles`, logging, until BASIC waits for a line at `READY.` with
    /// the key script used up (None) or the run stops otherwise (why).
    fn run(&mut self, m: &mut Machine, cycles: u64) -> Option<StopReason> {
        let limit = m.cycles() + cycles;
        loop {
            match m.run(limit.saturating_sub(m.cycles())) {
                StopReason::Breakpoint { pc: CHROUT_ENTRY } => {
                    if !std::mem::take(&mut self.again) {
                        self.bytes.push(m.cpu.a);
                        self.last = Some(m.cycles());
                    }
                }
                StopReason::Breakpoint { pc: IRQ_ENTRY } => {
                    // The interrupted PC is under the pushed P.
                    let s = m.cpu.s as u16;
                    let pc = u16::from_le_bytes([m.peek(0x100 + s + 2), m.peek(0x100 + s + 3)]);
                    self.again |= pc == CHROUT_ENTRY;
                }
                StopReason::Breakpoint { pc: CHRIN_ENTRY } => {
                    if m.basic_waits_for_a_line() && m.bus.input.is_exhausted() && m.peek(NDX) == 0
                    {
                        return None;
                    }
                }
                other => return Some(other),
            }
        }
    }
}

fn run(roms: Roms, r: &Reference) -> Outcome {
    let settings = RunSettings {
        roms,
        keys: parse_key_script(&r.keys).unwrap(),
        idle_poll_limit: IDLE_POLLS,
        ..RunSettings::default()
    };
    let mut m = match Machine::start(Some(&r.program), settings) {
        Ok(m) => m,
        Err(e) => {
            return Outcome {
                chrout: Vec::new(),
                screen: Vec::new(),
                cycles: 0,
                end: format!("did not start: {e}"),
                at_ready: false,
            }
        }
    };
    let start = m.cycles();
    let mut log = ChroutLog::watch(&mut m);
    let end = log.run(&mut m, r.budget).map(|other| other.to_string());
    let screen = m.screen_text();
    let at_ready = end.is_none();
    // The run then ends by itself: returned to BASIC, or (on our BASIC and KERNAL) the
    // error BASIC printed.
    let end = end.unwrap_or_else(|| {
        m.clear_breakpoints();
        match m.run(END_CYCLES) {
            stop @ (StopReason::ReturnedToBasic | StopReason::BasicError { .. }) => {
                format!("READY. ({stop})")
            }
            stop => format!("READY., but then: {stop}"),
        }
    });
    Outcome {
        cycles: log.last.unwrap_or(start) - start,
        chrout: log.bytes,
        screen,
        at_ready: at_ready && end.starts_with("READY.") && !end.contains("but then"),
        end,
    }
}

/// Compares our CHROUT stream with the reference's. The reference was recorded at
/// CHROUT's entry, and where an interrupt came just as a call reached it, the call was
/// recorded twice (the byte repeated, where the screen shows it once): such repeats in the
/// reference are passed over, and counted. Our stream is recorded without them. Gives the
/// reference's repeats passed over, or the offset in our stream of the first difference.
fn compare_run(r: &Reference, o: &Outcome) -> Result<usize, usize> {
    if !r.timings {
        return compare(&o.chrout, &r.chrout);
    }
    // TI's values: every digit stands for any digit.
    let mask = |b: &[u8]| -> Vec<u8> {
        b.iter()
            .map(|&c| if c.is_ascii_digit() { b'0' } else { c })
            .collect()
    };
    compare(&mask(&o.chrout), &mask(&r.chrout))
}

fn compare(ours: &[u8], reference: &[u8]) -> Result<usize, usize> {
    let (mut i, mut j, mut repeats) = (0, 0, 0);
    while i < ours.len() && j < reference.len() {
        if ours[i] == reference[j] {
            i += 1;
            j += 1;
        } else if j > 0 && reference[j] == reference[j - 1] {
            j += 1;
            repeats += 1;
        } else {
            return Err(i);
        }
    }
    // A repeat of our last byte may end the reference.
    while j > 0 && j < reference.len() && reference[j] == reference[j - 1] && i == ours.len() {
        j += 1;
        repeats += 1;
    }
    if i == ours.len() && j == reference.len() {
        Ok(repeats)
    } else {
        Err(i)
    }
}

/// A few bytes from `at` as text (printable ASCII as is, others as {$XX}).
fn excerpt(bytes: &[u8], at: usize) -> String {
    let from = at.saturating_sub(8);
    bytes[from.min(bytes.len())..(at + 16).min(bytes.len())]
        .iter()
        .map(|&b| match b {
            0x20..=0x7E => (b as char).to_string(),
            _ => format!("{{${b:02X}}}"),
        })
        .collect()
}

/// The screens alike but for the cursor's cell (the blink puts a reversed space there on
/// Commodore's KERNAL when it is on) and for the letters' case (the reference's screens
/// are rendered in the upper-case set whichever set the VIC-II showed).
fn same_screen(ours: &[String], reference: &[String]) -> bool {
    let norm = |rows: &[String]| -> Vec<String> {
        rows.iter()
            .map(|r| r.replace('█', " ").trim_end().to_uppercase())
            .collect()
    };
    norm(ours) == norm(reference)
}

fn verdict(r: &Reference, o: &Outcome) -> String {
    let stream = match compare_run(r, o) {
        Ok(0) => "identical".to_string(),
        Ok(n) => format!("identical (the reference repeats {n} byte(s) at an interrupt)"),
        Err(at) => format!(
            "differs at byte {at}: {:?} where the reference has {:?}",
            excerpt(&o.chrout, at),
            excerpt(&r.chrout, at)
        ),
    };
    let screen = if same_screen(&o.screen, &r.screen) {
        "screen same"
    } else {
        "screen differs"
    };
    let cycles = match r.cycles {
        Some(c) if o.at_ready => {
            format!("cycles {:+.2}%", (o.cycles as f64 / c as f64 - 1.0) * 100.0)
        }
        _ => "cycles not comparable".to_string(),
    };
    format!("{stream}; {screen}; {cycles}; ended: {}", o.end)
}

#[test]
fn the_reference_programs_run_on_our_basic_as_on_commodores() {
    let refs = references();
    if refs.is_empty() {
        println!("{} holds no programs: nothing compared", folder().display());
        return;
    }
    if commodores_roms().is_none() {
        common::no_roms("the harness is not checked on Commodore's ROMs");
    }
    let (mut identical, mut lost, mut harness) = (Vec::new(), Vec::new(), Vec::new());
    let mut slow_or_fast = Vec::new();
    for r in &refs {
        let ours = run(Roms::own_basic(), r);
        println!("{:<22} ours: {}", r.name, verdict(r, &ours));
        let same = ours.at_ready && compare_run(r, &ours).is_ok();
        if same {
            // The run's end says how the program ended: with the error the reference
            // printed last, or not.
            let tail = &r.chrout[r.chrout.len().saturating_sub(48)..];
            let error = tail.windows(7).any(|w| w == b"  ERROR");
            assert_eq!(
                ours.end.contains("BASIC error"),
                error,
                "{}: the run ended {}",
                r.name,
                ours.end
            );
            identical.push(r.name.clone());
        } else {
            lost.push(r.name.clone());
        }
        if !r.timings && !same_screen(&ours.screen, &r.screen) {
            lost.push(format!("{} (screen)", r.name));
        }
        if let Some(c) = r.cycles.filter(|_| ours.at_ready) {
            if (ours.cycles as f64 / c as f64 - 1.0).abs() > CYCLE_TOLERANCE {
                slow_or_fast.push(r.name.clone());
            }
        }
        if let Some(roms) = commodores_roms() {
            let real = run(roms, r);
            println!("{:<22} Commodore's: {}", "", verdict(r, &real));
            let cycles_off = match r.cycles {
                Some(c) => (real.cycles as f64 / c as f64 - 1.0).abs() > CYCLE_TOLERANCE,
                None => false,
            };
            if !real.at_ready || compare_run(r, &real).is_err() || cycles_off {
                harness.push(r.name.clone());
            }
        }
    }
    println!(
        "identical on our BASIC: {} of {}: {}",
        identical.len(),
        refs.len(),
        identical.join(" ")
    );
    assert!(
        harness.is_empty(),
        "Commodore's ROMs did not give the reference output through this start path: {harness:?}"
    );
    assert!(lost.is_empty(), "not as Commodore's on our BASIC: {lost:?}");
    assert!(
        slow_or_fast.is_empty(),
        "cycles more than 2% from Commodore's on our BASIC: {slow_or_fast:?}"
    );
}

/// Lines typed at `READY.`: entered, replaced (20), deleted (25, and 35 that is not there),
/// with an abbreviation (P and a shifted O: POKE) and `?`, strings, REM and DATA left as
/// typed; then LIST and RUN.
const SESSION: &str = "10 PRINT \"HELLO\";:REM A \"QUOTE\" ?\n\
    20 FORI=1TO3:PRINTI;:NEXT\n\
    30 DATA ABC,\"D:E\",PRINT\n\
    40 P{SHIFT-O}53281,6:?\"X\"\n\
    25 ? \"MID\"\n\
    20 PRINT 2\n\
    35\n\
    25\n\
    LIST\n\
    RUN\n";

/// The program SESSION leaves, as c64kit-basic's tokenizer makes it.
const SESSION_PROGRAM: &str = "10 PRINT \"HELLO\";:REM A \"QUOTE\" ?\n\
    20 PRINT 2\n\
    30 DATA ABC,\"D:E\",PRINT\n\
    40 POKE53281,6:?\"X\"\n";

/// What a typed session gave: the CHROUT stream, the screen, the program in memory (TXTTAB
/// to VARTAB).
type Session = (Vec<u8>, Vec<String>, Vec<u8>);

/// Boots BASIC, types `keys` at `READY.` and runs until BASIC waits for a line with the
/// keys used up; or why BASIC did not boot.
fn typed(roms: Roms, keys: &str) -> Result<Session, StopReason> {
    let mut m = Machine::boot_basic(roms)?;
    m.feed_keys(parse_key_script(keys).unwrap());
    m.kernal.idle_poll_limit = IDLE_POLLS;
    let mut log = ChroutLog::watch(&mut m);
    if let Some(other) = log.run(&mut m, 50_000_000) {
        return Err(other);
    }
    let word = |at: u16| u16::from_le_bytes([m.peek(at), m.peek(at + 1)]);
    let program = (word(0x2B)..word(0x2D)).map(|a| m.peek(a)).collect();
    Ok((log.bytes, m.screen_text(), program))
}

#[test]
fn lines_typed_at_ready_are_entered_listed_and_run_as_on_commodores() {
    let ours = match typed(Roms::own_basic(), SESSION) {
        Ok(ours) => ours,
        // A routine another part of our BASIC still lacks (a placeholder's JAM).
        Err(StopReason::Jammed { pc: 0xE4DF, .. }) => {
            println!("our BASIC reaches a placeholder (a routine not written yet): not run");
            return;
        }
        Err(other) => panic!("our BASIC: {other}"),
    };
    let expected = c64kit_basic::tokenize(SESSION_PROGRAM, 0x0801).unwrap();
    assert_eq!(ours.2, expected[2..], "the program entered");
    if let Some(roms) = commodores_roms() {
        let real = typed(roms, SESSION).unwrap();
        assert_eq!(real.2, ours.2, "Commodore's program");
        assert_eq!(
            compare(&ours.0, &real.0),
            Ok(0),
            "the CHROUT streams:\n{:?}\n{:?}",
            String::from_utf8_lossy(&ours.0),
            String::from_utf8_lossy(&real.0)
        );
        assert!(
            same_screen(&ours.1, &real.1),
            "{:#?}\n{:#?}",
            ours.1,
            real.1
        );
    }
}

/// BASIC's RAM after the cold start: zero page up to RND's seed, the two bytes before BUF,
/// the vectors the core sets up itself (IERROR, IMAIN, ICRNCH) and USR's JMP.
const COLD_START_RAM: [std::ops::Range<u16>; 4] = [
    0x0000..0x0090,
    0x01FC..0x01FE,
    0x0300..0x0306,
    0x0310..0x0313,
];

#[test]
fn the_cold_start_leaves_basics_ram_and_screen_as_commodores() {
    let Some(real) = commodores_roms() else {
        common::no_roms("the cold start is not compared with Commodore's");
        return;
    };
    let mut ours = match Machine::boot_basic(Roms::own_basic()) {
        Ok(m) => m,
        Err(StopReason::Jammed { pc: 0xE4DF, .. }) => {
            println!("our BASIC reaches a placeholder (a routine not written yet): not run");
            return;
        }
        Err(other) => panic!("our BASIC: {other}"),
    };
    let mut real = Machine::boot_basic(real).unwrap();
    assert_eq!(ours.screen_text(), real.screen_text(), "the start message");
    for range in COLD_START_RAM {
        let bytes = |m: &Machine| range.clone().map(|a| m.peek(a)).collect::<Vec<u8>>();
        assert_eq!(
            bytes(&ours),
            bytes(&real),
            "${:04X}-${:04X}",
            range.start,
            range.end - 1
        );
    }
}

/// RUN finds what LOAD left: the end address EAL ($AE/$AF) just after the program, as
/// VARTAB ($2D/$2E) is (VICE's C64/autostart/basic tests PEEK both), on our BASIC and,
/// through the same start path, on Commodore's ROMs.
#[test]
fn run_finds_the_end_address_load_leaves() {
    let source = "10 PRINT PEEK(174)+256*PEEK(175);PEEK(45)+256*PEEK(46)\n";
    let prg = c64kit_basic::tokenize(source, 0x0801).unwrap();
    let end = 0x0801 + prg.len() as u16 - 2;
    let program = Program::from_prg(&Prg::parse(&prg, "eal").unwrap());
    let mut roms = vec![("ours", Roms::own_basic())];
    match commodores_roms() {
        Some(real) => roms.push(("Commodore's", real)),
        None => common::no_roms("run on our BASIC only"),
    }
    for (name, roms) in roms {
        let settings = RunSettings {
            roms,
            ..RunSettings::default()
        };
        let mut m = Machine::start(Some(&program), settings).unwrap();
        assert_eq!(m.run(10_000_000), StopReason::ReturnedToBasic, "{name}");
        assert_eq!(
            m.screen_text()[0].trim_end(),
            format!(" {end}  {end}"),
            "{name}: EAL and VARTAB after the program (${end:04X})"
        );
    }
}
