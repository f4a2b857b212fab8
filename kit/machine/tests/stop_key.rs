//! RUN/STOP: held down by a key script (`{STOP}`), the trap KERNAL's interrupt keeps the STOP
//! key's row in STKEY ($91) as UDTIM does, and STOP ($FFE1) reports it as Commodore's does
//! (Z and C set, CLRCHN, the keyboard buffer emptied), so BASIC breaks: "BREAK IN 10",
//! READY., CONT goes on, LIST stops. Without Commodore's ROMs (CI) our BASIC and KERNAL are
//! checked alone; with `C64KIT_ROMS` the same runs on Commodore's BASIC and KERNAL must
//! print the same, and STOP's registers and cycles are compared.

use c64kit_basic::parse_key_script;
use c64kit_machine::{Entry, Machine, Program, RomPaths, Roms, RunSettings, Segment, StopReason};

const BASIC_START: u16 = 0x0801;
const CHROUT: u16 = 0xFFD2;
const STKEY: u16 = 0x0091;
const NDX: u16 = 0x00C6;

fn commodores() -> Option<Roms> {
    let Some(dir) = std::env::var_os("C64KIT_ROMS") else {
        println!("C64KIT_ROMS is not set: no comparison with Commodore's ROMs");
        return None;
    };
    let paths = RomPaths::commodores_basic_and_kernal_in(std::path::Path::new(&dir));
    Some(Roms::load(&paths).expect("the ROM images in C64KIT_ROMS"))
}

/// `program` RUN on `roms` with the key script `keys`: every byte sent to CHROUT ($FFD2
/// caught, so Commodore's KERNAL is heard too) and how the run ended.
fn run(roms: impl Fn() -> Roms, program: &str, keys: &str) -> (Vec<u8>, StopReason) {
    let prg = c64kit_basic::tokenize(program, BASIC_START).unwrap();
    let program = Program {
        segments: vec![Segment {
            address: BASIC_START,
            bytes: prg[2..].to_vec(),
        }],
        entry: Entry::Run,
    };
    let settings = |keys: &str| RunSettings {
        roms: roms(),
        keys: parse_key_script(keys).unwrap(),
        breakpoints: vec![CHROUT],
        ..Default::default()
    };
    // A script's waits count from power-on, and Commodore's KERNAL boots through its reset
    // (2 M cycles) where ours starts at READY.: the first wait is made to count from the
    // program's start on both, found by a start without keys.
    let started = Machine::start(Some(&program), settings(""))
        .unwrap()
        .cycles();
    let keys = format!("{{WAIT {started}}}{keys}");
    let mut m = Machine::start(Some(&program), settings(&keys)).unwrap();
    let mut out = vec![];
    let end = m.cycles() + 100_000_000;
    loop {
        match m.run(end.saturating_sub(m.cycles())) {
            StopReason::Breakpoint { pc: CHROUT } => out.push(m.cpu.a),
            other => return (out, other),
        }
    }
}

fn readable(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            b' '..=b'~' => (b as char).to_string(),
            b'\r' => "\\r".to_string(),
            _ => format!("{{{b:02X}}}"),
        })
        .collect()
}

fn contains(out: &[u8], want: &[u8]) -> bool {
    out.windows(want.len()).any(|w| w == want)
}

/// The runs: program, keys (their waits counted from the program's start), what the output
/// must hold.
fn runs() -> Vec<(String, &'static str, Vec<&'static [u8]>)> {
    // A program that lists 200 lines of its own: far longer than the wait before RUN/STOP.
    let mut listed = "10 PRINT \"A\"\n20 LIST\n".to_string();
    for line in 0..200 {
        listed += &format!("{} REM {line}\n", 100 + line);
    }
    vec![
        (
            "10 GOTO 10\n".to_string(),
            "{WAIT 2000000}{STOP}",
            vec![b"\r\nBREAK IN 10\r\nREADY.\r\n"],
        ),
        (
            "10 I=I+1:GOTO 10\n".to_string(),
            "{WAIT 2000000}{STOP}{WAIT 300000}CONT\n{WAIT 200000}{STOP}{WAIT 300000}?I>0\n",
            vec![b"BREAK IN 10\r\nREADY.\r\n", b"BREAK IN 10", b"\r-1\x1d\r"],
        ),
        (
            listed,
            "{WAIT 2000000}{STOP}",
            vec![b"BREAK IN 20\r\nREADY.\r\n"],
        ),
        // A GET loop: the statement loop's STOP empties the buffer before GET sees $03.
        (
            "10 GET A$:IF A$=\"\" THEN 10\n20 PRINT ASC(A$)\n".to_string(),
            "{WAIT 2000000}{STOP}",
            vec![b"\r\nBREAK IN 10\r\nREADY.\r\n"],
        ),
    ]
}

#[test]
fn a_scripted_run_stop_breaks_our_basic() {
    for (program, keys, wants) in runs() {
        let (out, stop) = run(Roms::own_basic, &program, keys);
        println!("{keys:?}: {}", readable(&out));
        assert_eq!(stop, StopReason::ReturnedToBasic, "{program}");
        for want in wants {
            assert!(contains(&out, want), "{program}: {}", readable(&out));
        }
        // The STOP key's $03 never reaches the screen: STOP emptied the buffer.
        assert!(!out.contains(&3), "{program}");
        // A listing broken: not every line listed.
        assert!(!contains(&out, b"299 REM 199"), "{}", readable(&out));
    }
}

#[test]
fn a_scripted_run_stop_breaks_where_commodores_basic_does() {
    let Some(_) = commodores() else { return };
    for (program, keys, _) in runs() {
        let (ours, our_stop) = run(Roms::own_basic, &program, keys);
        let (theirs, their_stop) = run(|| commodores().unwrap(), &program, keys);
        println!("{keys:?}: ours {}", readable(&ours));
        println!("{keys:?}: theirs {}", readable(&theirs));
        assert_eq!(our_stop, their_stop, "{program}");
        assert_eq!(readable(&ours), readable(&theirs), "{program}");
    }
}

/// `SEI`, the screen blanked, STKEY = `stkey`, 3 keys in the buffer, then `JSR $FFE1`; the
/// cycles of the call (JSR to the next instruction), A, X, the flags and NDX after it.
fn call_stop(roms: Roms, stkey: u8) -> (u64, u8, u8, u8, u8) {
    let code = [
        0x78, // SEI
        0xA9, 0x0B, 0x8D, 0x11, 0xD0, // LDA #$0B; STA $D011
        0x20, 0xE1, 0xFF, // JSR $FFE1
        0x4C, 0x09, 0xC0, // JMP *
    ];
    let mut m = Machine::new(roms);
    m.load_raw(0xC000, &code);
    m.start_at(0xC000, 0x0803);
    m.set_breakpoint(0xC006);
    m.set_breakpoint(0xC009);
    assert_eq!(m.run(1_000_000), StopReason::Breakpoint { pc: 0xC006 });
    m.poke(STKEY, stkey);
    for (i, k) in b"AB\r".iter().enumerate() {
        m.poke(0x0277 + i as u16, *k);
    }
    m.poke(NDX, 3);
    let from = m.cycles();
    assert_eq!(m.run(1_000_000), StopReason::Breakpoint { pc: 0xC009 });
    // N, Z and C.
    let flags = m.cpu.p() & 0x83;
    (m.cycles() - from, m.cpu.a, m.cpu.x, flags, m.peek(NDX))
}

#[test]
fn stop_reports_the_key_as_commodores_does() {
    // Up ($FF, nothing in column 7): A = $FF, C set (the CMP #$7F), Z clear, the buffer
    // kept; 6 for the JSR, 5 for the jump table's JMP ($0328).
    let up = call_stop(Roms::builtin(), 0xFF);
    assert_eq!(up, (6 + 5 + 14, 0xFF, up.2, 0x81, 3));
    let down = call_stop(Roms::builtin(), 0x7F);
    assert_eq!(down, (6 + 5 + 62, 0, 3, 0x03, 0));
    let Some(_) = commodores() else { return };
    for stkey in [0xFF, 0x7F, 0xEF] {
        let ours = call_stop(Roms::builtin(), stkey);
        let theirs = call_stop(commodores().unwrap(), stkey);
        println!("STKEY ${stkey:02X}: ours {ours:?}, Commodore's {theirs:?}");
        let ours_x = if stkey == 0x7F { ours.2 } else { theirs.2 };
        assert_eq!(
            (ours.0, ours.1, ours_x, ours.3, ours.4),
            theirs,
            "STKEY ${stkey:02X}"
        );
    }
}
