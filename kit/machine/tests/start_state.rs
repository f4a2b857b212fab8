//! The state a program finds when c64kit RUNs it (`boot::power_on`, `boot::enter_sys`),
//! against a real PAL C64 after power-on, the KERNAL's boot, `LOAD"TEST",8,1` and RUN, as
//! VICE's test program C64/autostart/defaults records it (its refio.s and refmem.s).

use c64kit_cpu::Bus;
use c64kit_machine::boot;
use c64kit_machine::memory::power_on_ram;
use c64kit_machine::Roms;
use c64kit_machine::{Drive, Machine, Prg, Program, RunSettings, StopReason};
use std::path::PathBuf;

mod common;

/// `0 SYS2064:REM` (SYS's argument followed by a colon) and `code` at $0810.
fn stub_prg(code: &[u8]) -> Prg {
    let mut data = vec![
        0x0D, 0x08, 0x00, 0x00, 0x9E, b'2', b'0', b'6', b'4', b':', 0x8F, 0, 0, 0,
    ];
    data.resize(0x0810 - 0x0801, 0);
    data.extend_from_slice(code);
    Prg {
        load_address: 0x0801,
        data,
    }
}

fn word(m: &Machine, at: usize) -> u16 {
    u16::from_le_bytes([m.bus.ram[at], m.bus.ram[at + 1]])
}

#[test]
fn ram_powers_on_in_vices_pattern() {
    let period: Vec<u8> = (0..16).map(power_on_ram).collect();
    assert_eq!(
        period,
        [0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0]
    );
    // Inverted in every other 16 KiB.
    for (at, first) in [(0x4000, 0xFF), (0x8000, 0x00), (0xC000, 0xFF)] {
        assert_eq!(power_on_ram(at), first, "${at:04X}");
    }
    // Where neither the boot nor the program writes, a fresh machine has it.
    let m = Machine::builtin();
    for at in (0x1000..0x1100).chain(0x4000..0x4100).chain(0xE000..0xE100) {
        assert_eq!(m.bus.ram[at], power_on_ram(at as u16), "${at:04X}");
    }
    // The stack above what the boot used, and the RAM under the KERNAL's vectors.
    for at in (0x0110..0x01F0).chain(0xFFF0..=0xFFFF) {
        assert_eq!(m.bus.ram[at], power_on_ram(at as u16), "${at:04X}");
    }
}

#[test]
fn ramtas_clears_the_zero_page_to_0101_and_finds_the_basic_rom() {
    let m = Machine::builtin();
    // RAMTAS's memory test stopped at the BASIC ROM and left its $55 in the RAM beneath.
    assert_eq!(m.bus.ram[0xA000], 0x55);
    assert_eq!(m.bus.ram[0xA001], power_on_ram(0xA001));
    assert_eq!(word(&m, 0x00C1), 0xA000, "STAL");
    assert_eq!(word(&m, 0x0283), 0xA000, "MEMSIZ");
    assert_eq!(word(&m, 0x0281), 0x0800, "MEMSTR");
    // A program calling RAMTAS ($FF87) again: pages 0, 2 and 3 and $0100-$0101 cleared,
    // $0102 on (the stack) kept.
    let mut m = Machine::builtin();
    m.load_and_run_prg(&stub_prg(&[0x20, 0x87, 0xFF, 0x60]))
        .unwrap();
    m.bus.ram[0x0102] = 0x77;
    assert_eq!(m.run(100_000), StopReason::ReturnedToBasic);
    // All zero but the pointers RAMTAS sets itself: TAPE1 ($B2) and STAL's high byte.
    let set = [0xB2, 0xB3, 0xC2];
    for at in (0x0002..=0x0101).filter(|a| !set.contains(a)) {
        assert_eq!(m.bus.ram[at], 0, "${at:04X}");
    }
    assert_eq!(m.bus.ram[0x0102], 0x77);
    assert!(m.bus.ram[0x0200..0x0281].iter().all(|&b| b == 0));
    assert_eq!(word(&m, 0x00B2), 0x033C, "TAPE1");
    assert_eq!(word(&m, 0x00C1), 0xA000, "STAL");
}

/// refio.s's VIC-II, CIA 1 and CIA 2 references (registers as read) and masks (set bits are
/// checked; the rest may differ: raster, timer A, TOD, CIA 2's serial inputs).
const VIC_REF: [u8; 0x30] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, //
    0x00, 0x1B, 0x00, 0x00, 0x00, 0x00, 0xC8, 0x00, //
    0x15, 0x71, 0xF0, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0xFE, 0xF6, 0xF1, 0xF2, 0xF3, 0xF4, 0xF0, 0xF1, //
    0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xFC, 0xFF,
];
const VIC_MASK_ROW_2: [u8; 8] = [0xFF, 0x7F, 0, 0, 0, 0xFF, 0xFF, 0xFF];
const CIA1_REF: [u8; 16] = [
    0x7F, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0xFF, 0x04, //
    0x00, 0x00, 0x00, 0x01, 0x00, 0x81, 0x01, 0x08,
];
const CIA1_MASK: [u8; 16] = [
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0xFF, 0xFF, //
    0xFF, 0xFF, 0xFE, 0x6F, 0xFF, 0xFF, 0xFF, 0xFF,
];
const CIA2_REF: [u8; 16] = [
    0xC7, 0xFF, 0x3F, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, //
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x08, 0x08,
];
const CIA2_MASK: [u8; 16] = [
    0x3F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, //
    0xFF, 0xFF, 0xFE, 0x6F, 0xFF, 0xFF, 0xFF, 0xFF,
];

fn vic_mask(reg: usize) -> u8 {
    if reg / 8 == 2 {
        VIC_MASK_ROW_2[reg % 8]
    } else {
        0xFF
    }
}

#[test]
fn the_boot_and_load_leave_the_chips_as_on_a_real_c64() {
    let mut m = Machine::builtin();
    // JMP * with interrupts off, for a frame: the raster passes line 311 (CINT's compare).
    m.load_and_run_prg(&stub_prg(&[0x78, 0x4C, 0x11, 0x08]))
        .unwrap();
    m.run(20_000);
    let mut wrong = Vec::new();
    for (reg, &want) in VIC_REF.iter().enumerate() {
        let got = m.bus.read(0xD000 + reg as u16);
        if (got ^ want) & vic_mask(reg) != 0 {
            wrong.push(format!("$D0{reg:02X} = ${got:02X}, not ${want:02X}"));
        }
    }
    for (base, refs, masks) in [(0xDC00, CIA1_REF, CIA1_MASK), (0xDD00, CIA2_REF, CIA2_MASK)] {
        for (at, (want, mask)) in (base..).zip(refs.into_iter().zip(masks)) {
            let got = m.bus.read(at);
            if (got ^ want) & mask != 0 {
                wrong.push(format!("${at:04X} = ${got:02X}, not ${want:02X}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    // Timer B holds what the serial routines' 1 ms timeout left: $04FF, stopped.
    assert_eq!((m.bus.peek(0xDC06), m.bus.peek(0xDC07)), (0xFF, 0x04));
    assert_eq!(m.bus.ram[0x02A6], 1, "PAL flag");
}

#[test]
fn basic_and_load_leave_their_variables_and_chrget() {
    let prg = stub_prg(&[0x60]);
    // RUN, as a front end starts the program.
    let m = Machine::start(Some(&Program::from_prg(&prg)), RunSettings::default()).unwrap();
    let ram = &m.bus.ram;
    // BASIC's cold start: vectors, JMP for functions and USR, ADRAY1/2, RND's seed.
    let vectors: Vec<u16> = (0..6).map(|i| word(&m, 0x0300 + 2 * i)).collect();
    assert_eq!(vectors, [0xE38B, 0xA483, 0xA57C, 0xA71A, 0xA7E4, 0xAE86]);
    assert_eq!(
        (ram[0x54], ram[0x0310], word(&m, 0x0311)),
        (0x4C, 0x4C, 0xB248)
    );
    assert_eq!((word(&m, 0x03), word(&m, 0x05)), (0xB1AA, 0xB391));
    assert_eq!(&ram[0x8B..0x90], &[0x80, 0x4F, 0xC7, 0x52, 0x58]);
    assert_eq!((ram[0x53], ram[0x16]), (3, 0x19), "FOUR6, TEMPPT");
    // The banner's free bytes stay in FOUT's buffer.
    assert_eq!(&ram[0xFF..0x106], b" 38911\0");
    // LOAD"...",8,1: file 1 on device 8, channel 0 ($60), ST = EOI, LOAD's X/Y = TXTTAB, its
    // end address, the serial routines' flags and the last byte they received.
    assert_eq!((ram[0xB8], ram[0xBA], ram[0xB9]), (1, 8, 0x60));
    assert_eq!((ram[0x90], ram[0x93]), (0x40, 0));
    assert_eq!(word(&m, 0xC3), 0x0801, "MEMUSS");
    assert_eq!(word(&m, 0xAE), prg.end_address(), "EAL");
    assert_eq!((ram[0x94], ram[0x95], ram[0xA3]), (0x40, 0xFF, 0x40));
    assert_eq!(ram[0xA4], *prg.data.last().unwrap(), "the last byte loaded");
    // RUN: pointers, READ's pointer, the line being run, the text pointer after "2064".
    assert_eq!(word(&m, 0x2D), prg.end_address(), "VARTAB");
    assert_eq!((word(&m, 0x33), word(&m, 0x35)), (0xA000, 0xA000));
    assert_eq!(word(&m, 0x41), 0x0800, "DATPTR");
    assert_eq!(
        (word(&m, 0x39), word(&m, 0x3D)),
        (0, 0x0800),
        "CURLIN, OLDTXT"
    );
    assert_eq!(word(&m, 0x7A), 0x080A, "TXTPTR");
    assert_eq!(word(&m, 0x14), 0x0810, "LINNUM");
    // The stack: SYS's return ($E146), the statement loop's ($A7E9), older returns above.
    assert_eq!(
        &ram[0x01F7..0x0200],
        &[0x46, 0xE1, 0xE9, 0xA7, 0xA7, 0x79, 0xA6, 0x9C, 0xE3]
    );
    assert_eq!((m.cpu.s, m.cpu.a, m.cpu.x, m.cpu.y), (0xF6, 0, 0, 0));
}

#[test]
fn chrgot_after_sys_reads_the_byte_after_the_argument() {
    // JSR CHRGOT ($0079); STA $C000; PHP; PLA; STA $C001; RTS
    let code = [
        0x20, 0x79, 0x00, 0x8D, 0x00, 0xC0, 0x08, 0x68, 0x8D, 0x01, 0xC0, 0x60,
    ];
    let mut m = Machine::builtin();
    m.load_and_run_prg(&stub_prg(&code)).unwrap();
    assert_eq!(m.run(100_000), StopReason::ReturnedToBasic);
    assert_eq!(m.bus.ram[0xC000], b':');
    // End of statement: Z set; not a digit: C set.
    assert_eq!(m.bus.ram[0xC001] & 0x03, 0x03);
}

#[test]
fn the_sys_line_is_found_only_outside_quotes_and_rem() {
    // 10 :REM"SYS2080":SYS / 20 SYS 2080  : the second line is the one run.
    let mut data = vec![
        0x11, 0x08, 0x0A, 0x00, b':', 0x8F, b'"', 0x9E, b'2', b'0', b'8', b'0',
    ];
    data.extend_from_slice(&[b'"', b':', 0x9E, 0]);
    data.extend_from_slice(&[0x1E, 0x08, 0x14, 0x00, 0x9E, b' ', b'2', b'0', b'8', b'0']);
    data.extend_from_slice(&[b' ', b' ', 0, 0, 0]);
    data.resize(0x0820 - 0x0801, 0);
    data.push(0x60);
    let prg = Prg {
        load_address: 0x0801,
        data,
    };
    let mut m = Machine::builtin();
    assert_eq!(m.load_and_run_prg(&prg), Ok(0x0820));
    assert_eq!(word(&m, 0x39), 20, "CURLIN");
    assert_eq!(word(&m, 0x3D), 0x0810, "OLDTXT: the first line's $00");
    assert_eq!(word(&m, 0x7A), 0x081D, "TXTPTR: the $00 after the spaces");
    // A statement other than REM before the SYS needs BASIC: refused, naming the line.
    let mut basic_first = prg.clone();
    basic_first.data[4] = 0x99; // PRINT
    let e = Machine::builtin()
        .load_and_run_prg(&basic_first)
        .unwrap_err();
    assert!(e.needs_basic(), "{e}");
    assert!(e.to_string().contains("line 10 runs BASIC (PRINT)"), "{e}");
    // Started elsewhere (no SYS line for it): RUN's text pointer, before the program.
    let mut m = Machine::builtin();
    m.start_at(0xC000, 0x0801);
    assert_eq!(word(&m, 0x7A), 0x0800);
}

#[test]
fn the_load_name_goes_under_memsiz() {
    let mut m = Machine::builtin();
    m.load_and_run_prg(&stub_prg(&[0x60])).unwrap();
    boot::set_load_name(&mut m.bus, b"TEST");
    assert_eq!(&m.bus.ram[0x9FFC..0xA000], b"TEST");
    assert_eq!(
        (word(&m, 0xBB), m.bus.ram[0xB7]),
        (0x9FFC, 4),
        "FNADR, FNLEN"
    );
    // From a file's path as VICE's autostart names it: the stem, upper case.
    let name = c64kit_machine::load_name_of(std::path::Path::new("tests/my-game~1.prg"));
    boot::set_load_name(&mut m.bus, &name);
    assert_eq!(&m.bus.ram[0x9FF7..0xA000], b"MY-GAME?1");
    assert_eq!((word(&m, 0xBB), m.bus.ram[0xB7]), (0x9FF7, 9));
    // A program reaching $9FFE came in after the name: its bytes stay.
    let mut data = stub_prg(&[0x60]).data;
    data.resize(0x9FFE - 0x0801, 0xEA);
    let prg = Prg {
        load_address: 0x0801,
        data,
    };
    let mut m = Machine::builtin();
    m.load_and_run_prg(&prg).unwrap();
    boot::set_load_name(&mut m.bus, b"TEST");
    assert_eq!(&m.bus.ram[0x9FFC..0xA000], b"\xEA\xEAST");
    assert_eq!(word(&m, 0xBB), 0x9FFC, "FNADR");
}

fn autostart_defaults() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/vice-testprogs/C64/autostart/defaults")
}

/// Where test.prg keeps what it read (REGBUFFER, MEMBUFFER) and its references (refio.s's
/// cpuref, the masks after them; refmem.s's pages and their mask).
const CPU_BUF: usize = 0xC400;
const CPU_REF: usize = 0x0E69;
const PAGES_BUF: usize = 0xC000;
const PAGES_REF: usize = 0x1200;
const PAGES_MASK: usize = 0x1600;

/// Bytes of pages 0-3 the reference checks that c64kit does not reproduce, and why.
const NOT_REPRODUCED: &[(&[usize], &str)] = &[
    (&[0x07, 0x0B, 0x0F], "BASIC's scan of the typed lines"),
    (&[0x17, 0x19, 0x1A, 0x1B], "the temporary string stack"),
    (
        &[0x22, 0x23, 0x24, 0x25, 0x71, 0x72],
        "BASIC's scratch pointers",
    ),
    (&[0x47, 0x49, 0x50], "BASIC's variable and string scratch"),
    (
        &[0x61, 0x64, 0x69, 0x6A],
        "FAC and ARG: the SYS argument as a float",
    ),
    (
        &[0xD1, 0xD2, 0xD6, 0xD7, 0xF3, 0xF4],
        "the cursor: c64kit starts on a clear screen",
    ),
    (
        &[0x20, 0x30, 0x01FE, 0x01FF],
        "test.prg's own variables and its first JSR",
    ),
];

/// How C64/autostart/defaults ended, its blocks' wrong bytes (offset, got, reference) and the
/// wrong addresses of pages 0-3.
type AutostartDefaults = (StopReason, Vec<(usize, u8, u8)>, Vec<usize>);

/// Runs C64/autostart/defaults on `roms` as its readme asks (LOAD"TEST",8, then RUN); the
/// stop, the reference blocks' wrong bytes (CPU, VIC-II, CIA 1, CIA 2 with the ports read as
/// input and as output, $9FF8-$9FFF) and the wrong bytes of pages 0-3 (`$ADDR` each).
fn run_autostart_defaults(roms: Roms) -> Option<AutostartDefaults> {
    let dir = autostart_defaults();
    let Ok(bytes) = std::fs::read(dir.join("test.prg")) else {
        eprintln!("skipped: {} is not there", dir.display());
        return None;
    };
    let prg = Prg::parse(&bytes, "test.prg").unwrap();
    let settings = RunSettings {
        roms,
        drive: Drive::read_only(&dir),
        load_name: Some(b"TEST".to_vec()),
        debug_cart: true,
        ..RunSettings::default()
    };
    let mut m = Machine::start(Some(&Program::from_prg(&prg)), settings).unwrap();
    let stop = m.run(50_000_000);
    // Each block a reference and a mask, right after the code.
    let buf = &m.bus.ram[CPU_BUF..CPU_BUF + 0x70];
    let refs = &m.bus.ram[CPU_REF..CPU_REF + 0x70];
    let masks = &m.bus.ram[CPU_REF + 0x70..CPU_REF + 0xE0];
    let wrong = (0..0x70)
        .filter(|&i| (buf[i] ^ refs[i]) & masks[i] != 0)
        .map(|i| (i, buf[i], refs[i]))
        .collect();
    let pages_wrong = (2..0x400)
        .filter(|&at| {
            let (got, want) = (m.bus.ram[PAGES_BUF + at], m.bus.ram[PAGES_REF + at]);
            (got ^ want) & m.bus.ram[PAGES_MASK + at] != 0
        })
        .collect();
    Some((stop, wrong, pages_wrong))
}

#[test]
fn vice_autostart_defaults_finds_a_real_c64() {
    let Some((stop, wrong, pages_wrong)) = run_autostart_defaults(Roms::builtin()) else {
        return;
    };
    // Every block matches, CIA 2's port A read with every line input included: the serial
    // bus feeds CLK and DATA out (PA4, PA5) back inverted into PA6-PA7, so with the outputs
    // floating high both inputs read 0 ($3F).
    assert_eq!(wrong, []);
    // It reports $FF all the same: it also checks the bytes listed in NOT_REPRODUCED.
    assert!(matches!(stop, StopReason::DebugCart { .. }), "{stop:?}");
    let pages_wrong: Vec<usize> = pages_wrong
        .into_iter()
        .filter(|at| !NOT_REPRODUCED.iter().any(|(bytes, _)| bytes.contains(at)))
        .collect();
    assert!(pages_wrong.is_empty(), "{pages_wrong:#X?}");
}

/// With Commodore's ROMs the machine boots through the KERNAL's own reset and RUN is typed
/// at READY. (`Machine::start`'s autostart): the chips as a real C64 has them, and of pages
/// 0-3 only what the typed lines and the clear screen leave differs (the reference typed
/// `LOAD"TEST",8` and `RUN`; c64kit types `RUN` alone, LOADs nothing and starts the program
/// on a clear screen).
#[test]
fn vice_autostart_defaults_finds_a_real_c64_through_commodores_reset() {
    let Some(roms) = common::commodores_roms() else {
        common::no_roms("C64/autostart/defaults on Commodore's reset");
        return;
    };
    let Some((stop, wrong, pages_wrong)) = run_autostart_defaults(roms) else {
        return;
    };
    assert_eq!(wrong, []);
    assert!(matches!(stop, StopReason::DebugCart { .. }), "{stop:?}");
    // Each for a reason: test.prg's own variables and first JSR; BASIC's scratch from the
    // typed LOAD line (a string temporary, a variable pointer); the cursor (PNT, TBLX, USER:
    // home on the clear screen, under the reference's LOAD messages there).
    let typed_lines = [
        0x20, 0x23, 0x30, 0x49, 0x50, 0xD1, 0xD2, 0xD6, 0xF3, 0xF4, 0x01FE, 0x01FF,
    ];
    assert_eq!(pages_wrong, typed_lines, "{pages_wrong:#X?}");
}
