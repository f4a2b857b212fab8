//! Our BASIC's statement loop and control flow (programs/basic/exec.asm: NEWSTT, GONE, LIST,
//! FOR/NEXT, GOTO/GOSUB/RETURN, IF, ON, STOP/END/CONT, RUN, RESTORE, DATA/REM, LINGET).
//!
//! Without Commodore's ROMs: LINGET, DATAN and REMN of our BASIC ROM (`Roms::own_basic`)
//! called as routines on text in RAM.
//!
//! With Commodore's BASIC image in `C64KIT_ROMS` (CI has none: the test says so and passes),
//! the same programs run on Commodore's BASIC alone and with exec.asm in it (its part of
//! Commodore's KERNAL image too; our KERNAL, whose transcript records CHROUT), and must print
//! the same, byte for byte:
//! - exec.asm laid over Commodore's image at its own addresses, nothing redirected (every
//!   entry is where Commodore's is): also in the same cycles, to the last one;
//! - exec.asm assembled $2000 higher (at $Cxxx) with Commodore's statement table, vectors
//!   and entries pointed at it, some handlers left Commodore's (our FOR with their NEXT,
//!   their GOSUB with our RETURN ...): the stack frames are Commodore's.
//!
//! The programs are those of ../shared/basic-v2 (the number printing exactly what was
//! recorded is reported) and our own for what those leave out (LIST's ranges, CONT, RUN n,
//! GO TO, the statements' errors).

mod common;

use c64kit_machine::{Machine, Roms, StopReason};
use common::{commodores_basic_on_our_kernal, no_roms, readable};

/// CHRGET in zero page (BASIC's cold start puts it there) and its text pointer.
const CHRGET: u16 = 0x0073;
const TXTPTR: u16 = 0x007A;
const LINNUM: u16 = 0x0014;
/// Our driver routines go here (the cassette buffer).
const DRIVER: u16 = 0x033C;

fn word(m: &Machine, at: u16) -> u16 {
    u16::from_le_bytes([m.peek(at), m.peek(at + 1)])
}

fn own_label(name: &str) -> u16 {
    c64kit_basic_rom::label(name).unwrap_or_else(|| panic!("our BASIC has no label {name}"))
}

/// Where a routine of ours stops a run that reaches a routine not written yet (a
/// placeholder) or `name` once it exists.
fn own_label_or_placeholder(name: &str) -> u16 {
    c64kit_basic_rom::label(name).unwrap_or_else(|| own_label("NOTYET"))
}

/// Calls `routine` of our BASIC on `text` (placed at $0900): after a JSR CHRGET from just
/// before it, or with TXTPTR at its first byte (as DATAN and REMN are called); then STA $FB;
/// STY $FC and a JMP to itself. The machine there, or how the run stopped elsewhere.
fn call_on_text(routine: u16, text: &[u8], chrget_first: bool) -> Result<Machine, StopReason> {
    let mut m = Machine::new(Roms::own_basic());
    m.load_raw(0x0900, text);
    let before = if chrget_first { 0x08FFu16 } else { 0x0900 };
    m.load_raw(TXTPTR, &before.to_le_bytes());
    let [rl, rh] = routine.to_le_bytes();
    let mut code = vec![];
    if chrget_first {
        code.extend_from_slice(&[0x20, CHRGET as u8, 0x00]);
    }
    code.extend_from_slice(&[0x20, rl, rh, 0x85, 0xFB, 0x84, 0xFC]);
    let [el, eh] = (DRIVER + code.len() as u16).to_le_bytes();
    code.extend_from_slice(&[0x4C, el, eh]);
    m.load_raw(DRIVER, &code);
    let end = DRIVER + code.len() as u16 - 3;
    m.set_breakpoint(end);
    m.set_breakpoint(own_label_or_placeholder("SNERR"));
    m.sys(DRIVER, 0, 0, 0, 0x0803);
    match m.run(1_000_000) {
        StopReason::Breakpoint { pc } if pc == end => Ok(m),
        stop => Err(stop),
    }
}

#[test]
fn linget_reads_a_line_number_and_stops_at_the_next_character() {
    let linget = own_label("LINGET");
    for (text, want, rest) in [
        (&b"12345:X"[..], 12345u16, 5u16),
        (b"0\0", 0, 1),
        (b"63999:", 63999, 5),
        (b"1 2 3\0", 123, 5),
        (b"A", 0, 0),
    ] {
        let m = call_on_text(linget, text, true).unwrap_or_else(|s| panic!("{text:?}: {s:?}"));
        assert_eq!(word(&m, LINNUM), want, "{text:?}");
        assert_eq!(word(&m, TXTPTR), 0x0900 + rest, "{text:?}");
        assert_eq!(m.peek(0xFB), text[rest as usize], "{text:?}: A");
    }
    // 64000 and above: SYNTAX (before the digit that would pass 63999 is taken).
    for text in [&b"64000"[..], b"99999", b"640000"] {
        let stop = call_on_text(linget, text, true).err();
        let pc = own_label_or_placeholder("SNERR");
        assert_eq!(stop, Some(StopReason::Breakpoint { pc }), "{text:?}");
    }
}

#[test]
fn datan_and_remn_find_the_statement_and_line_end_outside_quotes() {
    let y_after = |routine: &str, text: &[u8]| {
        let m = call_on_text(own_label(routine), text, false)
            .unwrap_or_else(|s| panic!("{routine} {text:?}: {s:?}"));
        m.peek(0xFC)
    };
    let text = b"AB\"C:D\":E\"F:\0";
    assert_eq!(
        y_after("DATAN", text),
        7,
        "the colon after the closed quote"
    );
    assert_eq!(y_after("REMN", text), 12, "the line's 0");
    // An open quote hides the colon to the line's end.
    assert_eq!(y_after("DATAN", b"\"A:B\0"), 4);
    assert_eq!(y_after("DATAN", b":"), 0);
}

// ---- Inside Commodore's BASIC -------------------------------------------------------------

/// What the tests inside Commodore's BASIC say without its image.
const NOT_INSIDE: &str = "exec.asm not run inside Commodore's BASIC";

/// Commodore's addresses of the routines exec.asm calls and of what it reads (memory maps;
/// each checked against the image's first bytes in `commodore_entry` where ours replaces it).
const COMMODORE_NAMES: &[(&str, u16)] = &[
    ("READY", 0xA474),
    ("WARMST", 0xE37B),
    ("ERROR", 0xA437),
    ("ERRFIN", 0xA469),
    ("BRKTXT", 0xA381),
    ("SNERR", 0xAF08),
    ("GETSTK", 0xA3FB),
    ("FNDLIN", 0xA613),
    ("FNDLNC", 0xA617),
    ("RUNC", 0xA659),
    ("CLEARC", 0xA660),
    ("RESLST", 0xA09E),
    ("STMDSP", 0xA00C),
    ("ST_LET", 0xA9A5),
    ("PTRGET", 0xB08B),
    ("FRMEVL", 0xAD9E),
    ("FRMNUM", 0xAD8A),
    ("CHKNUM", 0xAD8D),
    ("SYNCHR", 0xAEFF),
    ("GETBYT", 0xB79E),
    ("FADD", 0xB867),
    ("FCOMPN", 0xBC5D),
    ("MOVFM", 0xBBA2),
    ("MOVVF", 0xBBD0),
    ("ROUND", 0xBC1B),
    ("SIGN", 0xBC2B),
    ("FONE", 0xB9BC),
    ("LINPRT", 0xBDCD),
    ("CRDO", 0xAAD7),
    ("OUTDO", 0xAB47),
    ("PUSHF", 0xAE38),
    ("FORPSH", 0xAE43),
    // Not a routine: the zero-page pointer FNDLIN leaves (main's zeropage.asm names it).
    ("LOWTR", 0x5F),
];

/// Entries of Commodore's BASIC that its other code (the main loop, CLR, READ, DEF, SYS's
/// return, ...) reaches directly: each gets a JMP to ours. With the bytes it starts with in
/// the image, so a wrong address fails here.
const REDIRECTED: &[(&str, u16, [u8; 3])] = &[
    ("FNDFOR", 0xA38A, [0xBA, 0xE8, 0xE8]),
    ("NEWSTT", 0xA7AE, [0x20, 0x2C, 0xA8]),
    ("GONE", 0xA7E1, [0x6C, 0x08, 0x03]),
    ("NGONE", 0xA7E4, [0x20, 0x73, 0x00]),
    ("GONE3", 0xA7ED, [0xF0, 0x3C, 0xE9]),
    ("ST_RESTORE", 0xA81D, [0x38, 0xA5, 0x2B]),
    ("RESFIN", 0xA827, [0x85, 0x41, 0x84]),
    ("ISCNTC", 0xA82C, [0x20, 0xE1, 0xFF]),
    ("ST_GOTO", 0xA8A0, [0x20, 0x6B, 0xA9]),
    ("ST_DATA", 0xA8F8, [0x20, 0x06, 0xA9]),
    ("ADDON", 0xA8FB, [0x98, 0x18, 0x65]),
    ("DATAN", 0xA906, [0xA2, 0x3A, 0x2C]),
    ("REMN", 0xA909, [0xA2, 0x00, 0x86]),
    ("LINGET", 0xA96B, [0xA2, 0x00, 0x86]),
    ("ST_NEXT", 0xAD1E, [0xD0, 0x04, 0xA0]),
];

/// Statement tokens whose handlers are ours (the rest stay Commodore's).
const OUR_STATEMENTS: &[(u8, &str)] = &[
    (0x80, "ST_END"),
    (0x81, "ST_FOR"),
    (0x82, "ST_NEXT"),
    (0x83, "ST_DATA"),
    (0x89, "ST_GOTO"),
    (0x8A, "ST_RUN"),
    (0x8B, "ST_IF"),
    (0x8C, "ST_RESTORE"),
    (0x8D, "ST_GOSUB"),
    (0x8E, "ST_RETURN"),
    (0x8F, "ST_REM"),
    (0x90, "ST_STOP"),
    (0x91, "ST_ON"),
    (0x9A, "ST_CONT"),
    (0x9B, "ST_LIST"),
];

/// exec.asm (with BASIC's RAM, the KERNAL's names and the error numbers) assembled $2000
/// higher ($Cxxx for $Axxx), the routines it calls at Commodore's addresses.
fn exec_at_cxxx() -> c64kit_asm::Assembly {
    exec_assembled(true)
}

/// exec.asm (with BASIC's RAM, the KERNAL's names and the error numbers), the routines it
/// calls at Commodore's addresses; `moved`: $2000 higher ($Cxxx for $Axxx).
fn exec_assembled(moved: bool) -> c64kit_asm::Assembly {
    common::assemble_part("exec.asm", COMMODORE_NAMES, |exec| {
        assert!(exec.contains("*=$A69C") && exec.contains("*=$AD1E"));
        assert!(!exec.contains("*=$C"), "exec.asm places code at $Cxxx");
        if moved {
            exec.replace("*=$A", "*=$C")
        } else {
            exec
        }
    })
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Basic {
    Commodores,
    /// Ours, except the handlers named (left Commodore's: their stack frames must fit ours).
    WithOurExecBut(&'static [&'static str]),
    /// exec.asm's bytes in place of Commodore's, at the same addresses (its areas), nothing
    /// redirected: Commodore's code and vectors reach ours at Commodore's entries.
    LaidOver,
}

/// exec.asm's areas (the README's, with NEXT to $AD89 and FNDFOR's $A38A).
const EXEC_AREAS: [(u16, u16); 3] = [(0xA38A, 0xA3B7), (0xA69C, 0xA9A4), (0xAD1E, 0xAD89)];

const ALL_OURS: Basic = Basic::WithOurExecBut(&[]);

/// Runs `program` (BASIC text) as RUN would, typing `keys` when it reads the keyboard (and
/// after it ends): everything printed, and how the run stopped.
/// Also the cycles the run took.
fn run(basic: Basic, program: &str, keys: &str) -> (Vec<u8>, StopReason, u64) {
    let mut roms = commodores_basic_on_our_kernal().unwrap();
    let (exec, theirs) = match basic {
        Basic::Commodores => (None, &[][..]),
        Basic::WithOurExecBut(theirs) => (Some(exec_at_cxxx()), theirs),
        Basic::LaidOver => {
            common::lay_over(&mut roms, &exec_assembled(false), &EXEC_AREAS);
            (None, &[][..])
        }
    };
    if let Some(asm) = &exec {
        let ours = |name: &str| common::label_in(asm, "exec.asm", name);
        // Into (our copy of) Commodore's BASIC image: JMPs to ours at the entries, our
        // handlers in its statement table (each entry the address - 1).
        let image = &mut roms.basic;
        for &(name, at, first) in REDIRECTED.iter().filter(|r| !theirs.contains(&r.0)) {
            let i = (at - 0xA000) as usize;
            assert_eq!(image[i..i + 3], first, "{name} at ${at:04X}");
            let [lo, hi] = ours(name).to_le_bytes();
            image[i..i + 3].copy_from_slice(&[0x4C, lo, hi]);
        }
        for &(token, name) in OUR_STATEMENTS.iter().filter(|s| !theirs.contains(&s.1)) {
            common::point_statement(&mut roms, token, ours(name));
        }
    }
    common::run_program(roms, program, keys, |m| {
        if let Some(asm) = &exec {
            m.load_raw(asm.load_address, &asm.bytes);
            // LIST's RTS for SYNTAX is the one ending main.asm's STXTPT, just before it.
            let list = asm.labels.iter().find(|(n, _)| *n == "ST_LIST").unwrap().1;
            m.load_raw(list - 1, &[0x60]);
            for (vector, name) in [(0x0306u16, "NQPLOP"), (0x0308, "NGONE")] {
                let at = common::label_in(asm, "exec.asm", name);
                m.load_raw(vector, &at.to_le_bytes());
            }
        }
    })
}

/// Where two outputs first differ, with some of each around it.
fn first_difference(ours: &[u8], theirs: &[u8]) -> String {
    let at = ours.iter().zip(theirs).take_while(|(a, b)| a == b).count();
    let from = at.saturating_sub(60);
    format!(
        "from byte {at} (of {} and {}):\nours:   {}\ntheirs: {}",
        ours.len(),
        theirs.len(),
        readable(&ours[from..ours.len().min(at + 60)]),
        readable(&theirs[from..theirs.len().min(at + 60)])
    )
}

/// The same output from both; returns it.
fn same_on_both(name: &str, program: &str, keys: &str) -> Vec<u8> {
    same_with(ALL_OURS, name, program, keys).0
}

/// The same output from Commodore's BASIC and from `ours`; returns it, and the cycles each
/// took (ours, theirs).
fn same_with(ours: Basic, name: &str, program: &str, keys: &str) -> (Vec<u8>, u64, u64) {
    let (theirs, their_stop, their_cycles) = run(Basic::Commodores, program, keys);
    let (ours, our_stop, our_cycles) = run(ours, program, keys);
    assert!(
        ours == theirs,
        "{name}: printed with our exec.asm and by Commodore's BASIC differ {}",
        first_difference(&ours, &theirs)
    );
    assert_eq!(our_stop, their_stop, "{name}");
    assert!(
        matches!(
            our_stop,
            StopReason::ReturnedToBasic
                | StopReason::BasicError { .. }
                | StopReason::InputExhausted
        ),
        "{name}: ends back at READY. or waiting for a key, with the keys used up, not \
         {our_stop:?}"
    );
    (ours, our_cycles, their_cycles)
}

#[test]
fn the_shared_programs_print_the_same_inside_commodores_basic() {
    if commodores_basic_on_our_kernal().is_none() {
        no_roms(NOT_INSIDE);
        return;
    }
    let Some(names) = common::shared_names() else {
        return;
    };
    let (mut same, mut as_recorded) = (0, 0);
    for name in &names {
        if common::prints_timings(name) {
            println!("{name}: prints TI, so depends on speed: left out");
            continue;
        }
        let (program, keys) = common::shared_program(name);
        let ours = same_on_both(name, &program, &keys);
        same += 1;
        let recorded = common::shared_chrout(name).unwrap_or_default();
        if ours == recorded {
            as_recorded += 1;
        } else {
            println!("{name}: differs from the recorded output (typed input's echo?)");
        }
    }
    println!(
        "{same} of {} programs print the same; {as_recorded} exactly as recorded",
        names.len()
    );
    assert!(same >= 40, "only {same} programs compared");
}

/// Our own programs for what the shared ones leave out, with what is typed after them.
const OWN_PROGRAMS: &[(&str, &str, &str)] = &[
    (
        "list ranges",
        "10 REM \"QUOTED PRINT\" AND:PRINT\n20 PRINT \"{$99}IN QUOTES\";π;\"A\":GOTO 50\n\
         30 FOR I=1 TO 2 STEP 3:NEXT I\n40 DATA 1,\"X:Y\",3\n50 END\n",
        "LIST\nLIST 20\nLIST 20-40\nLIST -30\nLIST 30-\nLIST 25\nLIST 60-\nLIST X\nLIST 10-X\n",
    ),
    (
        "stop and cont",
        "10 I=0\n20 I=I+1:PRINT I:IF I=2 THEN STOP\n30 IF I<4 THEN 20\n40 END:PRINT \"AFTER END\"\n\
         50 PRINT \"FIFTY\"\n",
        "CONT\nCONT\nCONT\nPRINT I\nRUN 50\nCONT\nCLR\nCONT\nSTOP\nEND\n",
    ),
    (
        "goto gosub return",
        "10 GOSUB 100:GO TO 30\n20 PRINT \"NOT HERE\"\n30 PRINT \"THIRTY\":GOSUB 110:GOTO 60\n\
         40 PRINT \"FORTY\":RETURN\n60 FOR I=1 TO 3:GOSUB 40:NEXT\n70 ON 2 GOSUB 100,110,40\n\
         80 GOTO 200\n100 PRINT \"SUB 100\"\n110 PRINT \"SUB 110\":RETURN\n",
        "GOTO 20\nGOTO 70000\nGOTO\nRETURN 5\nGOSUB 100\nRETURN\nRUN 40\nGO 20\nGOSUB 100:PRINT \"BACK\"\n",
    ),
    (
        "for next frames",
        "10 FOR I=1 TO 2:FOR J=1 TO 3:PRINT I;J:GOSUB 100:NEXT J,I\n\
         20 FOR I=1 TO 2:FOR J=1 TO 2:FOR I=7 TO 8:PRINT \"I\";I;:NEXT:PRINT:NEXT J\n\
         30 FOR X=10 TO 1 STEP -3:PRINT X;:NEXT:PRINT X\n\
         40 FOR X=1 TO 1.5 STEP .25:PRINT X;:NEXT X:PRINT\n\
         50 FOR X=5 TO 1:PRINT \"ONCE\";X:NEXT:FOR Y=0 TO 0 STEP -1:PRINT Y:NEXT\n\
         60 FOR A%=1 TO 2:NEXT\n\
         100 FOR K=1 TO 2:NEXT:RETURN\n",
        "NEXT\nFOR I=1 TO 3:PRINT I:NEXT\nFOR A$=1 TO 2\nFOR I=1 TO \"X\"\nFOR I=1 STEP 2\nNEXT I J\n\
         FOR A(1)=1 TO 2\nFOR I=1 TO 2 STEP\nFOR I=1 TO 2 STEP \"A\"\nFOR I=1 TO 2 X\nGO SUB 100\n{$CC}\n",
    ),
    (
        "if on restore data",
        "10 READ A,B$:PRINT A;B$:RESTORE:READ C:PRINT C\n20 DATA 5,\"S:T\",7\n\
         30 IF A=5 THEN PRINT \"YES\":IF B$ THEN PRINT \"STR\"\n40 IF A=6 THEN PRINT \"NO\":PRINT \"NO2\"\n\
         50 IF A THEN 70\n60 PRINT \"SKIPPED\"\n70 IF A GOTO 90\n80 PRINT \"SKIPPED\"\n\
         90 ON A-4 GOTO 110,120\n100 PRINT \"FELL\"\n110 ON 3 GOTO 120:ON 0 GOSUB 120:PRINT \"ON DONE\"\n\
         120 REM THE END:PRINT \"NOT PRINTED\"\n130 IF A THEN X\n",
        "ON 1 GOTO 20X\nON 1 PRINT\nIF 1 THEN GOTO 60\nIF A PRINT\nREM\nDATA X:PRINT \"AFTER DATA\"\n",
    ),
    (
        "undefined lines and running off the end",
        "10 PRINT \"A\"\n20 GOSUB 25\n",
        "RUN\nGOTO 15\nRUN 15\nLIST 5-5\nNEW\nLIST\nRUN\n",
    ),
];

#[test]
fn our_programs_print_the_same_inside_commodores_basic() {
    if commodores_basic_on_our_kernal().is_none() {
        no_roms(NOT_INSIDE);
        return;
    }
    for &(name, program, keys) in OWN_PROGRAMS {
        let out = same_on_both(name, program, keys);
        println!("--- {name}\n{}", readable(&out));
    }
}

#[test]
fn out_of_memory_from_gosub_and_for() {
    if commodores_basic_on_our_kernal().is_none() {
        no_roms(NOT_INSIDE);
        return;
    }
    same_on_both(
        "deep FOR",
        "10 N=N+1:FOR I=1 TO 2:GOSUB 20\n20 ON N AND 1 GOTO 10:FOR J=1 TO 2:GOTO 10\n",
        "PRINT N\n",
    );
}

/// Our FOR with Commodore's NEXT and the other way round, our GOSUB with Commodore's RETURN
/// and the other way round: the frames on the stack are Commodore's.
#[test]
fn our_frames_are_commodores() {
    if commodores_basic_on_our_kernal().is_none() {
        no_roms(NOT_INSIDE);
        return;
    }
    let programs: Vec<_> = OWN_PROGRAMS
        .iter()
        .filter(|p| p.0 == "for next frames" || p.0 == "goto gosub return")
        .collect();
    assert_eq!(programs.len(), 2);
    for theirs in [
        &["ST_NEXT"][..],
        &["ST_FOR"],
        &["ST_RETURN"],
        &["ST_GOSUB", "ST_GOTO"],
    ] {
        for &&(name, program, keys) in &programs {
            let name = format!("{name} with Commodore's {theirs:?}");
            same_with(Basic::WithOurExecBut(theirs), &name, program, keys);
        }
    }
}

/// exec.asm laid over Commodore's BASIC at its own addresses, with nothing redirected: each
/// entry Commodore's code, statement table and vectors reach is where Commodore's is. The
/// programs print the same and take the same cycles, to the last one.
#[test]
fn laid_over_commodores_basic_at_its_addresses() {
    let Some(_) = commodores_basic_on_our_kernal() else {
        no_roms(NOT_INSIDE);
        return;
    };
    let mut programs: Vec<(String, String, String)> = OWN_PROGRAMS
        .iter()
        .map(|&(n, p, k)| (n.to_string(), p.to_string(), k.to_string()))
        .collect();
    // All the shared programs: in the same cycles even the TI values printed are the same.
    for name in common::shared_names().unwrap_or_default() {
        let (program, keys) = common::shared_program(&name);
        programs.push((name, program, keys));
    }
    for (name, program, keys) in &programs {
        let (_, ours, theirs) = same_with(Basic::LaidOver, name, program, keys);
        assert_eq!(
            ours, theirs,
            "{name}: cycles with our exec.asm and Commodore's"
        );
    }
    println!(
        "{} programs print the same in the same cycles",
        programs.len()
    );
}

/// On Commodore's BASIC and KERNAL (CHROUT caught at $FFD2: no transcript there), with
/// exec.asm laid over it or not: RUN/STOP held down (the KERNAL's STOP key flag, which its
/// interrupt keeps from the keyboard) at the `stop_at`-th STOP key check (ISCNTC: each
/// statement and each listed line), typing `keys`; what was printed in 20 million cycles.
fn run_with_stop_key(laid_over: bool, program: &str, keys: &str, stop_at: u32) -> Vec<u8> {
    let mut roms = common::commodores_roms().unwrap();
    if laid_over {
        common::lay_over(&mut roms, &exec_assembled(false), &EXEC_AREAS);
    }
    let mut m = common::ready_to_run(roms, program, keys, |_| {});
    const CHROUT: u16 = 0xFFD2;
    const ISCNTC: u16 = 0xA82C;
    const STKEY: u16 = 0x0091;
    m.set_breakpoint(CHROUT);
    m.set_breakpoint(ISCNTC);
    let end = m.cycles() + 20_000_000;
    let (mut out, mut checks) = (vec![], 0);
    while m.cycles() < end {
        match m.run(end - m.cycles()) {
            StopReason::Breakpoint { pc: CHROUT } => out.push(m.cpu.a),
            StopReason::Breakpoint { pc: ISCNTC } => {
                checks += 1;
                if checks == stop_at {
                    m.poke(STKEY, 0x7F); // the STOP key's row, as the interrupt reads it
                }
            }
            // Back at READY. with the keys used up: the run's end.
            StopReason::CycleBudget { .. } | StopReason::ReturnedToBasic => break,
            other => panic!("{other:?}"),
        }
    }
    out
}

#[test]
fn the_stop_key_breaks_a_run_and_a_listing_as_on_commodores() {
    if commodores_basic_on_our_kernal().is_none() {
        no_roms(NOT_INSIDE);
        return;
    }
    for (program, keys, stop_at, want) in [
        (
            "10 FOR I=1 TO 9:PRINT I;:NEXT:PRINT \"END\"\n",
            "{WAIT 3000000}CONT\n",
            12,
            &b"BREAK IN 10\r\nREADY.\r\n\r 6\x1d 7\x1d 8\x1d 9\x1dEND"[..],
        ),
        (
            "10 PRINT \"A\"\n20 LIST\n30 REM\n40 REM\n50 REM\n",
            "",
            5,
            b"BREAK IN 20",
        ),
    ] {
        let theirs = run_with_stop_key(false, program, keys, stop_at);
        let ours = run_with_stop_key(true, program, keys, stop_at);
        assert!(
            ours == theirs,
            "{program}: {}",
            first_difference(&ours, &theirs)
        );
        assert!(
            ours.windows(want.len()).any(|w| w == want),
            "{program}: {}",
            readable(&ours)
        );
        println!("{}", readable(&ours));
    }
}
