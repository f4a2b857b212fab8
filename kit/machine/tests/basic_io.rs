//! Our BASIC's input and output statements (programs/basic/io.asm: PRINT, CMD, PRINT#,
//! INPUT, INPUT#, GET, GET#, READ, OPEN, CLOSE, SYS, LOAD/SAVE/VERIFY and the KERNAL glue)
//! against Commodore's.
//!
//! Until the rest of our BASIC exists, io.asm is tried inside Commodore's BASIC: with the ROM
//! images in `C64KIT_ROMS` (CI has none: those tests say so and pass), io.asm is assembled
//! with the routines it calls in other files at Commodore's addresses (memory maps), its
//! areas ($AA80-$AD1D, $E0F9-$E263) replace Commodore's, and Commodore's statement dispatch
//! table points at its handlers. Such a "hybrid" runs BASIC programs whose every PRINT,
//! INPUT, GET, READ ... is ours; its CHROUT stream must be Commodore's byte for byte: the
//! reference outputs of ../shared/basic-v2 where they exist, else what the real ROMs print
//! running the same program in the same test.
//!
//! Without the ROMs, the output primitives (OUTDO, OUTSPC, OUTQST, CRDO) run in our own
//! BASIC ROM, called from machine code.

mod common;

use c64kit_basic::parse_key_script;
use c64kit_machine::{Machine, Roms, StopReason};
use common::{commodores_roms_in as real_roms, no_roms, readable as text};
use std::path::{Path, PathBuf};

/// Commodore's addresses of what io.asm calls in the other files (C64 memory maps).
const COMMODORE: &[(&str, u16)] = &[
    ("ERROR", 0xA437),
    ("READY", 0xA474),
    ("LNKPRG", 0xA533),
    ("INLIN", 0xA560),
    ("RUNC", 0xA659),
    ("CLEARC", 0xA660), // CLR from its CLALL on (io.asm enters 3 bytes after it)
    ("FLOAD", 0xA677),
    ("STXTPT", 0xA68E),
    ("RESFIN", 0xA827),
    ("ST_DATA", 0xA8F8),
    ("ADDON", 0xA8FB),
    ("DATAN", 0xA906),
    ("QINTGR", 0xA9C2),
    ("INPCOM", 0xA9DA),
    ("FRMNUM", 0xAD8A),
    ("FRMEVL", 0xAD9E),
    ("STRTXT", 0xAEBD),
    ("CHKCOM", 0xAEFD),
    ("SYNCHR", 0xAEFF),
    ("SNERR", 0xAF08),
    ("PTRGET", 0xB08B),
    ("ERRDIR", 0xB3A6),
    ("STRLIT", 0xB487),
    ("STRLT2", 0xB48D),
    ("FRESTR", 0xB6A3),
    ("FREFAC", 0xB6A6),
    ("GTBYTC", 0xB79B),
    ("GETBYT", 0xB79E),
    ("ST2TXT", 0xB7E2),
    ("GETADR", 0xB7F7),
    ("FIN", 0xBCF3),
    ("FOUT", 0xBDDD),
];

/// The statements io.asm handles: token and handler.
const STATEMENTS: &[(u8, &str)] = &[
    (0x84, "ST_INPUTN"),
    (0x85, "ST_INPUT"),
    (0x87, "ST_READ"),
    (0x93, "ST_LOAD"),
    (0x94, "ST_SAVE"),
    (0x95, "ST_VERIFY"),
    (0x98, "ST_PRINTN"),
    (0x99, "ST_PRINT"),
    (0x9D, "ST_CMD"),
    (0x9E, "ST_SYS"),
    (0x9F, "ST_OPEN"),
    (0xA0, "ST_CLOSE"),
    (0xA1, "ST_GET"),
];

/// io.asm's areas: (first, last) address.
const AREAS: [(u16, u16); 2] = [(0xAA80, 0xAD1D), (0xE0F9, 0xE263)];

fn rom_dir() -> Option<PathBuf> {
    let dir = common::rom_dir();
    if dir.is_none() {
        no_roms("no comparison with Commodore's ROMs");
    }
    dir
}

/// Commodore's ROMs with io.asm in its areas and the dispatch table pointing at it.
fn hybrid_roms(dir: &Path) -> Roms {
    with_our_io(real_roms(dir))
}

/// Commodore's BASIC (with its part of the KERNAL ROM, $E000-$E4DF) on our KERNAL, whose
/// drive 8 LOADs and SAVEs.
fn commodores_basic_on_our_kernal() -> Roms {
    common::commodores_basic_on_our_kernal().expect("C64KIT_ROMS, checked by the caller")
}

/// `roms` with io.asm in its areas and the dispatch table pointing at it.
fn with_our_io(mut roms: Roms) -> Roms {
    let asm = common::assemble_part("io.asm", COMMODORE, |io| io);
    let inside = |addr: usize| {
        AREAS
            .iter()
            .any(|&(first, last)| (first as usize..=last as usize).contains(&addr))
    };
    for (i, &b) in asm.bytes.iter().enumerate() {
        let addr = asm.load_address as usize + i;
        if !inside(addr) {
            assert_eq!(b, 0, "io.asm has code at ${addr:04X}");
        }
    }
    for (name, &addr) in &asm.labels {
        assert!(
            inside(addr as usize),
            "io.asm's {name} is outside its areas"
        );
    }
    common::lay_over(&mut roms, &asm, &AREAS);
    for &(token, handler) in STATEMENTS {
        common::point_statement(&mut roms, token, common::label_in(&asm, "io.asm", handler));
    }
    roms
}

/// At $C000: relink the program (LNKPRG), RUNC (text pointer to its start, CLR), then the
/// statement loop (NEWSTT): RUN, as the reference outputs were made.
const RUN_STUB: [u8; 9] = [0x20, 0x33, 0xA5, 0x20, 0x59, 0xA6, 0x4C, 0xAE, 0xA7];
/// CHROUT's RAM vector (the jump table's `JMP ($0326)`).
const IBSOUT: u16 = 0x0326;
/// At $C010, where IBSOUT points while a program runs: every byte CHROUT is given is logged
/// in the RAM under the BASIC ROM (the KERNAL writes there, the ROM is read), then CHROUT
/// goes on: PHP; STA $A000 (the operand steps on); INC; BNE; INC; PLP; JMP (the KERNAL's).
/// (A breakpoint on $FFD2 would log a byte twice when an interrupt is taken there.)
const LOGGER: u16 = 0xC010;
const LOG: u16 = 0xA000;
const LOG_SIZE: usize = 0x2000;
const BUDGET: u64 = 400_000_000;

/// What a run left: the CHROUT stream, the cycles it took up to the slice where the last
/// `READY.` came, and RAM ($0000-$FFFF).
struct Run {
    out: Vec<u8>,
    cycles: u64,
    ram: Vec<u8>,
}

/// Runs a BASIC program (text, tokenized here) with `keys` typed, up to BASIC's
/// `readies`-th `READY.` (lines typed in direct mode after the program ends run too), or
/// until the cycle budget runs out.
fn run_until_ready(roms: Roms, source: &str, keys: &str, readies: usize) -> Run {
    let prg = c64kit_basic::tokenize(source, 0x0801).expect("the program tokenizes");
    let mut m = Machine::new(roms);
    // This harness watches for READY. itself: an empty GET after the last key (32-get's
    // line 50) is the program's, not the end of the run.
    m.kernal.idle_poll_limit = u32::MAX;
    m.load_raw(0x0801, &prg[2..]);
    let end = 0x0801 + (prg.len() - 2) as u16;
    m.load_raw(0xC000, &RUN_STUB);
    let [k0, k1] = [m.peek(IBSOUT), m.peek(IBSOUT + 1)];
    let [l0, l1] = LOG.to_le_bytes();
    let at = LOGGER;
    let [s0, s1] = (at + 2).to_le_bytes();
    let [t0, t1] = (at + 3).to_le_bytes();
    let logger = [
        0x08, // PHP
        0x8D, l0, l1, // STA LOG
        0xEE, s0, s1, // INC the STA's operand
        0xD0, 0x03, // BNE +3
        0xEE, t0, t1,   // INC its high byte
        0x28, // PLP
        0x4C, k0, k1, // JMP the KERNAL's CHROUT
    ];
    m.load_raw(LOGGER, &logger);
    m.load_raw(IBSOUT, &LOGGER.to_le_bytes());
    m.start_at(0xC000, end);
    m.feed_keys(parse_key_script(keys).expect("a key script"));
    let logged = |m: &Machine| {
        let next = u16::from_le_bytes([m.peek(at + 2), m.peek(at + 3)]);
        let len = (next - LOG) as usize;
        assert!(len < LOG_SIZE, "the output fits the log");
        (0..len as u16)
            .map(|i| m.bus.ram[(LOG + i) as usize])
            .collect::<Vec<u8>>()
    };
    // Each CHROUT stops at the logger, before it logs A: the cycles of the last one. (An
    // interrupt taken just there stops twice; the log has the byte once.)
    m.set_breakpoint(LOGGER);
    let start = m.cycles();
    let mut last = start;
    let mut out = Vec::new();
    while m.cycles() - start < BUDGET {
        match m.run(BUDGET) {
            StopReason::Breakpoint { pc: LOGGER } => {
                last = m.cycles();
                out = logged(&m);
                out.push(m.cpu.a);
                let seen = out.windows(10).filter(|w| w == b"\r\nREADY.\r\n").count();
                if seen >= readies && out.ends_with(b"\r\nREADY.\r\n") {
                    break;
                }
            }
            other => {
                println!("stopped: {other}");
                out = logged(&m);
                break;
            }
        }
    }
    Run {
        out,
        cycles: last - start,
        ram: m.bus.ram.to_vec(),
    }
}

fn reference(name: &str) -> (String, String, Vec<u8>) {
    let (source, keys) = common::shared_program(name);
    let chrout = common::shared_chrout(name).expect("the reference output");
    (source, keys, chrout)
}

#[test]
fn the_reference_programs_print_as_commodores_with_our_io_statements() {
    let Some(dir) = rom_dir() else { return };
    let mut failed: Vec<String> = Vec::new();
    for name in [
        "16-read-data",
        "18-print-format",
        "28-str-format",
        "31-input",
        "32-get",
        "34-sys-usr",
        "38-print-controls",
    ] {
        let (source, keys, want) = reference(name);
        let ours = run_until_ready(hybrid_roms(&dir), &source, &keys, 1);
        if ours.out != want {
            println!(
                "{name}: differs\n--- ours\n{}\n--- Commodore's\n{}",
                text(&ours.out),
                text(&want)
            );
            failed.push(name.to_string());
        } else {
            println!("{name}: identical ({} bytes)", ours.out.len());
        }
        let theirs = run_until_ready(real_roms(&dir), &source, &keys, 1);
        failed.extend(differences(name, &ours, &theirs));
    }
    assert!(failed.is_empty(), "{failed:?}");
}

/// Programs beyond the reference outputs: files and CMD (a logical file of 128 or more
/// adds a line feed), commas, TAB( and SPC( on a file, numbers on a file, the parameters
/// OPEN takes by default, GET of a number, bad and empty INPUT answers, errors.
const EXPERIMENTS: &[(&str, &str, &str)] = &[
    (
        "files",
        "10 OPEN 1,3:OPEN 130,3\n\
         20 PRINT#1,\"A\";1,\"B\":PRINT#130,\"C\";-2;TAB(15);\"D\";SPC(3);\"E\"\n\
         30 PRINT#130,\"X\"+CHR$(13)+\"Y\",5:PRINT#1\n\
         40 CMD 130,\"CMD\":PRINT 7:PRINT \"Z\",;:PRINT#130:CLOSE 130\n\
         50 CMD 1:PRINT \"ONE\";:PRINT 2:PRINT#1,:CLOSE 1\n\
         60 PRINT PEEK(184);PEEK(185);PEEK(186)\n",
        "",
    ),
    (
        "open-defaults",
        "10 OPEN 2,0:PRINT PEEK(184);PEEK(185);PEEK(186):CLOSE 2\n\
         20 OPEN 3,3:PRINT PEEK(184);PEEK(185);PEEK(186):CLOSE 3\n\
         30 OPEN 4,3,7:PRINT PEEK(184);PEEK(185);PEEK(186):CLOSE 4\n\
         40 OPEN 5,0,9:PRINT PEEK(184);PEEK(185);PEEK(186)\n",
        "",
    ),
    ("print-edges", "10 PRINT TAB(256)\n", ""),
    (
        "print-more",
        "10 PRINT ,\"A\";TAB(3)SPC(2)\"B\";:PRINT \"C\",:PRINT\n\
         20 FOR I=1 TO 9:PRINT I*I*I*I*I*I,:NEXT:PRINT\n\
         30 PRINT 1 2;\"X\"\"Y\";:PRINT TAB(0);\n\
         40 PRINT SPC(20);\"Q\"SPC(2);1E20;\n\
         50 PRINT \"END\"\n",
        "",
    ),
    (
        "get-number",
        "10 GET A:PRINT A:GET A,B$,C:PRINT A;B$;C\n20 GET Z\n",
        "7X5Q",
    ),
    ("get-direct-and-hash", "10 GET#3,A$:PRINT LEN(A$)\n", ""),
    (
        "input-edges",
        "10 A=5:INPUT A:PRINT A\n\
         20 INPUT \"P\";A$,B:PRINT A$;B\n\
         30 INPUT A$:PRINT \"[\";A$;\"]\"\n\
         40 INPUT A,B:PRINT A;B\n\
         50 INPUT \"Q\";A:PRINT A\n",
        "\n\"X,Y\",2\n  SP ACE  :Z\n1\n2\nZZ\n12\n",
    ),
    (
        "input-empty-end",
        "10 INPUT A\n20 PRINT \"AFTER\";A\n",
        "\n",
    ),
    (
        "read-edges",
        "10 READ A$,B,C$:PRINT A$;B;C$\n\
         20 READ D:PRINT D\n\
         30 DATA \"Q:Z\",  -1.5E2  ,\n\
         40 DATA ,X\n",
        "",
    ),
    ("read-out-of-data", "10 READ A,B\n20 DATA 1\n", ""),
    (
        "sys",
        "10 POKE 780,1:POKE 781,2:POKE 782,3:POKE 783,0\n\
         20 FOR I=0 TO 5:READ B:POKE 828+I,B:NEXT\n\
         30 DATA 232,200,24,105,10,96\n\
         40 SYS 828:PRINT PEEK(780);PEEK(781);PEEK(782);PEEK(783)\n\
         50 SYS 65536\n",
        "",
    ),
    (
        "get-keys",
        "10 GET A$:IF A$=\"\" THEN 10\n\
         20 PRINT ASC(A$)\n\
         30 GET B:IF B=0 THEN 30\n\
         40 PRINT B\n\
         50 GET C$:IF C$=\"\" THEN 50\n\
         60 PRINT \"[\";C$;\"]\"\n\
         70 GET E:IF E=0 THEN 70\n",
        "Q5 X",
    ),
    (
        "input-from-keyboard-file",
        "10 OPEN 1,0:INPUT#1,A$,B:PRINT A$;B:INPUT#1,C:PRINT C:CLOSE 1\n",
        "HI,3\n4\n",
    ),
    ("input-file-data", "10 OPEN 1,0:INPUT#1,A:PRINT A\n", "X\n"),
    (
        "get-hash",
        "10 OPEN 1,0\n20 GET#1,A$:IF A$=\"\" THEN 20\n30 PRINT ASC(A$):CLOSE 1\n",
        "K",
    ),
    ("load-8", "10 LOAD \"X\",8\n", ""),
    ("save-8", "10 SAVE \"X\",8\n", ""),
    ("verify-9", "10 VERIFY \"X\",9,1\n", ""),
    ("open-9", "10 OPEN 1,9,15,\"I\"\n", ""),
    ("close-unopened", "10 CLOSE 7:PRINT \"OK\"\n", ""),
    (
        "input-fields",
        "10 INPUT A$:PRINT \"[\";A$;\"]\"\n\
         20 INPUT A$,B$:PRINT \"[\";A$;\"][\";B$;\"]\"\n\
         30 INPUT A,B:PRINT A;B\n\
         40 INPUT A:PRINT A\n\
         50 INPUT A$:PRINT \"[\";A$;\"]\"\n",
        "\"AB\"C\n1,\n\n3\n1,,2\n1E\n-.5E1X\n7\n :X\n",
    ),
    (
        "read-more",
        "10 READ A$,B$,C:PRINT \"[\";A$;\"][\";B$;\"]\";C\n\
         20 A=1:DATA ,  ,.5E1\n\
         30 READ D$:PRINT D$\n\
         40 REM DATA 99\n\
         50 DATA \"A\"B\n",
        "",
    ),
    ("print-errors", "10 PRINT SPC(-1)\n", ""),
    ("print-errors-2", "10 PRINT \"A\";TAB(3\n", ""),
    (
        "print-wrap",
        "10 FOR I=1 TO 9:PRINT \"ABCDEFGHIJK\",:NEXT:PRINT\n\
         20 PRINT TAB(75);1E9,2,:PRINT\n",
        "",
    ),
    (
        "rs232",
        "10 A=5:B$=\"S\"+\"T\":PRINT FRE(0);PEEK(55);PEEK(56)\n\
         20 OPEN 2,2,0,CHR$(6):PRINT FRE(0);PEEK(55);PEEK(56);A;B$\n\
         30 PRINT#2,\"X\":CLOSE 2:PRINT FRE(0);PEEK(55);PEEK(56);A\n",
        "",
    ),
    (
        "cmd-get-input",
        "10 OPEN 1,3:CMD 1:GET A$:PRINT \"X\";LEN(A$)\n\
         20 OPEN 2,3:CMD 2:INPUT A:PRINT \"Y\";A:PRINT#2,\"Z\":CLOSE 1:CLOSE 2\n",
        "5\n",
    ),
    (
        // Machine code printing with STROUT (up to a quote or a 0) and CRDO.
        "strout",
        "10 FOR I=0 TO 12:READ B:POKE 828+I,B:NEXT\n\
         20 DATA 169,80,160,3,32,30,171,32,215,170,76,30,171\n\
         30 FOR I=0 TO 6:READ B:POKE 848+I,B:NEXT\n\
         40 DATA 72,73,34,88,0,0,0\n\
         50 SYS 828:POKE 850,0:SYS 828:POKE 848,0:SYS 828:PRINT \"END\"\n",
        "",
    ),
    (
        "t-read",
        "10 FOR I=1 TO 300:READ A:RESTORE:NEXT\n20 DATA 5\n",
        "",
    ),
    (
        "t-read-skip",
        "10 FOR I=1 TO 300:READ A:RESTORE:NEXT\n15 REM\n16 A=1:B=2\n20 DATA 5\n",
        "",
    ),
    (
        "t-reads",
        "10 FOR I=1 TO 300:READ A$:RESTORE:NEXT\n20 DATA ABC\n",
        "",
    ),
    ("t-loop", "10 FOR I=1 TO 300:RESTORE:NEXT\n20 DATA 5\n", ""),
    ("t-print", "10 FOR I=1 TO 300:PRINT \"A\";:NEXT\n", ""),
    ("t-printn", "10 FOR I=1 TO 300:PRINT 1;:NEXT\n", ""),
    ("t-comma", "10 FOR I=1 TO 300:PRINT ,;:NEXT\n", ""),
    ("t-tab", "10 FOR I=1 TO 300:PRINT TAB(3);SPC(1);:NEXT\n", ""),
    (
        "read-spaces",
        "10 READ A,B:PRINT A;B\n20 C=1:  DATA 7\n30  DATA 8\n",
        "",
    ),
    ("t-get", "10 FOR I=1 TO 300:GET A$,B:NEXT\n", ""),
    (
        "t-printn-file",
        "10 OPEN 1,3:FOR I=1 TO 300:PRINT#1,\"A\";:NEXT:CMD 1:PRINT 1,:CLOSE 1\n",
        "",
    ),
    ("t-sys", "10 POKE 828,96:FOR I=1 TO 300:SYS 828:NEXT\n", ""),
    (
        "t-open",
        "10 FOR I=1 TO 300:OPEN 1,3,1,\"N\":CLOSE 1:NEXT\n",
        "",
    ),
    (
        "t-read3",
        "10 FOR I=1 TO 300:READ A,B$,C:RESTORE:NEXT\n20 DATA 1.5, \"X\" ,-7\n",
        "",
    ),
    (
        "t-cmd",
        "10 OPEN 1,3:FOR I=1 TO 300:CMD 1,\"A\";:NEXT:CLOSE 1\n",
        "",
    ),
    ("t-close", "10 FOR I=1 TO 300:CLOSE 1:NEXT\n", ""),
    (
        "t-cmd0",
        "10 OPEN 1,3:FOR I=1 TO 300:CMD 1:NEXT:CLOSE 1\n",
        "",
    ),
    (
        "t-cmd1",
        "10 OPEN 1,3:FOR I=1 TO 300:CMD 1,:NEXT:CLOSE 1\n",
        "",
    ),
    ("t-cr", "10 FOR I=1 TO 300:PRINT:NEXT\n", ""),
    (
        "file-first-item",
        "10 OPEN 1,3:PRINT#1,TAB(5)\"A\":PRINT#1,SPC(3)\"B\":PRINT#1,,\"C\":PRINT#1,;\"D\"\n\
         20 CMD 1,TAB(4)\"E\":PRINT#1,:CLOSE 1\n",
        "",
    ),
    ("t-read-inline", "10 FOR I=1 TO 300:READ A:NEXT\n100 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n101 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n102 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n103 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n104 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n105 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n106 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n107 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n108 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n109 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n", ""),
    ("t-read-inline3", "10 FOR I=1 TO 100:READ A,B,C:NEXT\n100 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n101 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n102 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n103 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n104 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n105 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n106 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n107 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n108 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n109 DATA 7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7,7\n", ""),
    ("errors", "10 PRINT#5,\"A\"\n", ""),
    ("errors-2", "10 OPEN 1,3:OPEN 1,3\n", ""),
    ("errors-3", "10 INPUT#9,A\n", ""),
    ("errors-4", "10 OPEN\n", ""),
    ("errors-5", "10 LOAD \"X\",1,\n", ""),
];

/// Where a hybrid run and Commodore's may differ in RAM: the jiffy clock, the stack (return
/// addresses into our code), the logger and its log, the screen and colour RAM's timing of
/// the cursor's blink ($CC-$CF), the keyboard's scan state.
fn compared(addr: usize) -> bool {
    !matches!(addr,
        0x00A0..=0x00A2 // TI
        | 0x00CC..=0x00CF // cursor blink
        | 0x00C5 | 0x00CB | 0x028D | 0x028E // keyboard scan
        | 0x0100..=0x01FF // the stack
        | 0xA000..=0xBFFF // the log
        | 0xC000..=0xC0FF // the start stub and the logger
        | 0xD800..=0xDBFF) // colour RAM (the cursor's blink)
}

/// What differs between our run and Commodore's: the output, RAM, the cycles (beyond 2%).
fn differences(name: &str, ours: &Run, theirs: &Run) -> Vec<String> {
    let mut found = Vec::new();
    if ours.out != theirs.out {
        found.push(format!(
            "{name}: the output differs\n--- ours\n{}\n--- Commodore's\n{}",
            text(&ours.out),
            text(&theirs.out)
        ));
    }
    let ram: Vec<String> = (0..0x10000)
        .filter(|&a| compared(a) && ours.ram[a] != theirs.ram[a])
        .take(16)
        .map(|a| format!("${a:04X}: {:02X} not {:02X}", ours.ram[a], theirs.ram[a]))
        .collect();
    if !ram.is_empty() {
        found.push(format!("{name}: RAM differs: {}", ram.join(", ")));
    }
    let off = (ours.cycles as f64 - theirs.cycles as f64) / theirs.cycles.max(1) as f64;
    println!(
        "{name}: {} cycles, Commodore's {} ({:+.3}%)",
        ours.cycles,
        theirs.cycles,
        off * 100.0
    );
    if off.abs() > 0.02 {
        found.push(format!("{name}: cycles {:+.3}%", off * 100.0));
    }
    found
}

#[test]
fn more_programs_run_as_on_commodores_rom() {
    let Some(dir) = rom_dir() else { return };
    let mut failed = Vec::new();
    for &(name, source, keys) in EXPERIMENTS {
        let theirs = run_until_ready(real_roms(&dir), source, keys, 1);
        let ours = run_until_ready(hybrid_roms(&dir), source, keys, 1);
        println!("{name}:\n{}", text(&ours.out));
        failed.extend(differences(name, &ours, &theirs));
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Lines typed in direct mode after a program: statements that refuse direct mode, VERIFY's
/// and LOAD's errors, CMD's output up to READY.
const DIRECT: &[(&str, &str, &str, usize)] = &[
    (
        "direct",
        "10 A=1\n",
        "GET A$\nINPUT A\nREAD A\nPRINT A,\nPRINT#3\nVERIFY \"X\",8\nLOAD \"Y\",9,1\n\
         INPUT \"P\";A\nGET#1,A\nINPUT#1,A\n",
        11,
    ),
    (
        "direct-cmd",
        "10 OPEN 130,3:CMD 130\n",
        "PRINT \"IN CMD\"\nPRINT#130,\"Y\"\nCLOSE 130\n",
        4,
    ),
];

#[test]
fn direct_mode_lines_run_as_on_commodores_rom() {
    let Some(dir) = rom_dir() else { return };
    let mut failed = Vec::new();
    for &(name, source, keys, readies) in DIRECT {
        let theirs = run_until_ready(real_roms(&dir), source, keys, readies);
        let ours = run_until_ready(hybrid_roms(&dir), source, keys, readies);
        println!("{name}:\n{}", text(&ours.out));
        failed.extend(differences(name, &ours, &theirs));
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Runs `code` at $C000 (ending in a JAM) with our own BASIC ROM: the transcript.
fn own_basic_transcript(code: &[u8], channel: u8) -> Vec<u8> {
    let mut m = Machine::new(Roms::own_basic());
    m.load_raw(0xC000, code);
    m.poke(0x13, channel);
    m.start_at(0xC000, 0x0803);
    let end = 0xC000 + code.len() as u16 - 1;
    assert_eq!(
        m.run(1_000_000),
        StopReason::Jammed {
            pc: end,
            opcode: 0x02
        }
    );
    m.transcript().to_vec()
}

fn label(name: &str) -> [u8; 2] {
    c64kit_basic_rom::label(name)
        .unwrap_or_else(|| panic!("our BASIC has {name}"))
        .to_le_bytes()
}

#[test]
fn outdo_outspc_outqst_and_crdo_print_through_chrout() {
    // JSR OUTQST; JSR OUTSPC; LDA #"A"; JSR OUTDO; JSR CRDO; JAM
    let [q0, q1] = label("OUTQST");
    let [s0, s1] = label("OUTSPC");
    let [o0, o1] = label("OUTDO");
    let [c0, c1] = label("CRDO");
    let code = [
        0x20, q0, q1, 0x20, s0, s1, 0xA9, b'A', 0x20, o0, o1, 0x20, c0, c1, 0x02,
    ];
    // On the screen a space's worth is a cursor right.
    assert_eq!(own_basic_transcript(&code, 0), b"?\x1dA\r");
}

#[test]
fn documented_entries_are_at_commodores_addresses() {
    for (name, addr) in [
        ("ST_PRINTN", 0xAA80),
        ("ST_CMD", 0xAA86),
        ("ST_PRINT", 0xAAA0),
        ("ST_GET", 0xAB7B),
        ("ST_INPUTN", 0xABA5),
        ("ST_INPUT", 0xABBF),
        ("EXIGNT", 0xACFC),
        ("TRYAGN", 0xAD0C),
        ("IOERR", 0xE0F9),
        ("FININL", 0xAACA),
        ("CRDO", 0xAAD7),
        ("STROUT", 0xAB1E),
        ("STRPRT", 0xAB21),
        ("OUTSPC", 0xAB3B),
        ("OUTQST", 0xAB45),
        ("OUTDO", 0xAB47),
        ("OUTCH", 0xE10C),
        ("INCHR", 0xE112),
        ("CQOOUT", 0xE118),
        ("CQOIN", 0xE11E),
        ("CZGETL", 0xE124),
        ("ST_SYS", 0xE12A),
        ("SYSRET", 0xE147),
        ("ST_SAVE", 0xE156),
        ("ST_VERIFY", 0xE165),
        ("ST_LOAD", 0xE168),
        ("ST_OPEN", 0xE1BE),
        ("ST_CLOSE", 0xE1C7),
        ("PARSL", 0xE1D4),
        ("PARBYT", 0xE200),
        ("PAREND", 0xE206),
        ("PARCOM", 0xE20E),
        ("PAROC", 0xE219),
    ] {
        assert_eq!(c64kit_basic_rom::label(name), Some(addr), "{name}");
    }
}

/// Runs a program with our KERNAL's drive 8 (a scratch folder) until BASIC has run every
/// line typed and asks for another.
fn run_with_drive(roms: Roms, source: &str, keys: &str) -> Run {
    let folder = tempfile::tempdir().expect("a scratch folder");
    let prg = c64kit_basic::tokenize(source, 0x0801).expect("the program tokenizes");
    let mut m = Machine::new(roms);
    m.kernal.drive = c64kit_machine::Drive::writable(folder.path());
    m.load_raw(0x0801, &prg[2..]);
    m.load_raw(0xC000, &RUN_STUB);
    m.start_at(0xC000, 0x0801 + (prg.len() - 2) as u16);
    m.feed_keys(parse_key_script(keys).expect("a key script"));
    // Back at READY. with the keys used up (the last line typed may have been an error).
    let stop = m.run(BUDGET);
    assert!(
        matches!(
            stop,
            StopReason::ReturnedToBasic | StopReason::BasicError { .. }
        ),
        "{stop:?}"
    );
    Run {
        out: m.transcript().to_vec(),
        cycles: m.cycles(),
        ram: m.bus.ram.to_vec(),
    }
}

/// Programs using drive 8, on our KERNAL: Commodore's BASIC, and Commodore's BASIC with
/// io.asm, must print and leave the same.
const DRIVE_PROGRAMS: &[(&str, &str, &str)] = &[
    (
        // LOAD runs the loaded program from its start with the variables kept; VERIFY's
        // OK and error; in direct mode SEARCHING, LOADING, READY. and the program's end
        // from the KERNAL.
        "load-save-verify",
        "10 IF A=0 THEN A=1:SAVE \"T\",8:PRINT \"SAVED\":VERIFY \"T\",8:LOAD \"T\",8\n\
         20 PRINT \"AGAIN\";A:IF A=1 THEN A=2:POKE 2060,65:VERIFY \"T\",8\n",
        "VERIFY \"T\"\nLOAD \"T\",8\nVERIFY \"T\",8\nPRINT PEEK(45);PEEK(46)\nLOAD \"NONE\",8\n\
         SAVE \"U\",8\nVERIFY \"U\",8,1\nLOAD \"U\",8,1\nSAVE \"U\",8\nLOAD\n",
    ),
    (
        // PRINT# to a file, INPUT# and GET# from it up to its end (ST), a file of 128 or
        // more (CR LF), fields left over.
        "files",
        "10 OPEN 2,8,2,\"F,S,W\":PRINT#2,\"HELLO\";1,\"X\":PRINT#2,-2.5:PRINT#2,\"A,B\":CLOSE 2\n\
         20 OPEN 2,8,2,\"F,S,R\":INPUT#2,A$,B,C$:PRINT A$;B;C$:INPUT#2,D:PRINT D\n\
         25 INPUT#2,E$:PRINT E$;ST:CLOSE 2\n\
         30 OPEN 2,8,2,\"F,S,R\"\n\
         40 GET#2,A$:IF ST=0 THEN PRINT ASC(A$+CHR$(0));:GOTO 40\n\
         50 PRINT ASC(A$+CHR$(0));ST:CLOSE 2\n\
         60 OPEN 3,8,3,\"F,S,R\":INPUT#3,A$,C$,E$,F$,G$,H$:PRINT F$;G$; \"[\";H$;\"]\";ST:CLOSE 3\n\
         70 OPEN 130,8,4,\"G,S,W\":PRINT#130,\"LF\";2:CMD 130:PRINT \"C\":PRINT#130,:CLOSE 130\n\
         80 OPEN 4,8,4,\"G,S,R\":FOR I=1 TO 12:GET#4,A$:PRINT ASC(A$+CHR$(0));:NEXT:CLOSE 4\n\
         90 OPEN 5,8,5,\"G,S,R\":INPUT#5,A$:PRINT \"[\";A$;\"]\":CLOSE 5\n",
        "",
    ),
];

#[test]
fn drive_programs_run_as_in_commodores_basic() {
    let Some(_) = rom_dir() else { return };
    let mut failed = Vec::new();
    for &(name, source, keys) in DRIVE_PROGRAMS {
        let theirs = run_with_drive(commodores_basic_on_our_kernal(), source, keys);
        let ours = run_with_drive(with_our_io(commodores_basic_on_our_kernal()), source, keys);
        println!("{name}:\n{}", text(&ours.out));
        failed.extend(differences(name, &ours, &theirs));
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
