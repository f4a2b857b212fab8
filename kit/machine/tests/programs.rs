//! Small hand-assembled programs run through the whole machine: BASIC stub, RUN, KERNAL
//! traps, the screen editor, banking and the system IRQ.

use c64kit_basic::parse_key_script;
use c64kit_machine::{Machine, Prg, StopReason};

const BUDGET: u64 = 2_000_000;

/// "10 SYS2080" (published fact F18) and `code` at $0820, as a PRG.
fn stub_prg(code: &[u8]) -> Prg {
    let mut data = vec![
        0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0,
    ];
    data.resize(0x0820 - 0x0801, 0);
    data.extend_from_slice(code);
    Prg {
        load_address: 0x0801,
        data,
    }
}

fn run(code: &[u8], keys: &str) -> (Machine, StopReason) {
    let mut m = Machine::builtin();
    m.load_and_run_prg(&stub_prg(code)).unwrap();
    m.feed_keys(parse_key_script(keys).unwrap());
    let stop = m.run(BUDGET);
    (m, stop)
}

#[test]
fn hello_then_a_line_of_input() {
    let mut code = vec![
        0xA2, 0x00, // $0820 LDX #0
        0xBD, 0x40, 0x08, // $0822 LDA msg,X
        0xF0, 0x06, // $0825 BEQ $082D
        0x20, 0xD2, 0xFF, // $0827 JSR CHROUT
        0xE8, // $082A INX
        0xD0, 0xF5, // $082B BNE $0822
        0xA0, 0x00, // $082D LDY #0
        0x20, 0xCF, 0xFF, // $082F JSR CHRIN
        0x99, 0x00, 0x09, // $0832 STA $0900,Y
        0xC8, // $0835 INY
        0xC9, 0x0D, // $0836 CMP #13
        0xD0, 0xF5, // $0838 BNE $082F
        0x60, // $083A RTS
    ];
    code.resize(0x20, 0xEA);
    code.extend_from_slice(b"HELLO\r\0");
    let (mut m, stop) = run(&code, "world\n");
    assert_eq!(stop, StopReason::ReturnedToBasic);
    // The editor echoes typed keys on the screen, not through CHROUT.
    assert_eq!(m.transcript(), b"HELLO\r");
    assert_eq!(&m.bus.ram[0x0900..0x0906], b"WORLD\r");
    // Screen codes: H=8 E=5 L=12 O=15 on row 0, the typed line on row 1.
    assert_eq!(&m.bus.ram[0x0400..0x0405], &[8, 5, 12, 12, 15]);
    assert_eq!(&m.bus.ram[0x0428..0x042D], &[23, 15, 18, 12, 4]);
    let screen = m.screen_text();
    assert_eq!(screen[0].trim_end(), "HELLO");
    assert_eq!(screen[1].trim_end(), "WORLD");
}

#[test]
fn getin_returns_keys_then_the_run_stops_when_input_runs_out() {
    let code = [
        0x20, 0xE4, 0xFF, // $0820 JSR GETIN
        0xF0, 0xFB, // $0823 BEQ $0820
        0x20, 0xD2, 0xFF, // JSR CHROUT
        0x4C, 0x20, 0x08, // JMP $0820
    ];
    let (m, stop) = run(&code, "e1f2");
    assert_eq!(stop, StopReason::InputExhausted);
    assert_eq!(m.transcript(), &[0x45, 0x31, 0x46, 0x32]);
}

#[test]
fn a_loop_polling_the_keyboard_buffer_stops_when_nothing_can_type() {
    // As cc65's cgetc: wait on NDX ($C6) itself, then take the key with LP2 ($E5B4).
    let polling = |wait: &[u8]| {
        let mut code = vec![0x58]; // $0820 CLI
        code.extend(wait); // $0821: until NDX is not 0
        code.extend([0x20, 0xB4, 0xE5, 0x20, 0xD2, 0xFF, 0x4C, 0x21, 0x08]); // LP2, CHROUT
        code
    };
    for wait in [
        &[0xA5, 0xC6, 0xF0, 0xFC][..],       // LDA $C6; BEQ
        &[0xAE, 0xC6, 0x00, 0xF0, 0xFB][..], // LDX $00C6; BEQ
    ] {
        let (m, stop) = run(&polling(wait), "e1");
        assert_eq!(stop, StopReason::InputExhausted, "{wait:02X?}");
        assert_eq!(m.transcript(), b"E1");
    }
    // Not when the loop does more than wait (it may end by itself), nor when a handler of
    // the program's own could put a key there.
    let busy = [0xE6, 0xFB, 0xA5, 0xC6, 0xF0, 0xFA]; // INC $FB; LDA $C6; BEQ
    let (_, stop) = run(&polling(&busy), "e1");
    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
    let mut own_irq = polling(&[0xA5, 0xC6, 0xF0, 0xFC]);
    // Then at $0830: SEI; point $0314 at $0840 (JMP $EA31); JMP $0820.
    own_irq.resize(0x10, 0xEA);
    own_irq.extend([
        0x78, 0xA9, 0x40, 0x8D, 0x14, 0x03, 0xA9, 0x08, 0x8D, 0x15, 0x03,
    ]);
    own_irq.extend([0x4C, 0x20, 0x08]);
    own_irq.resize(0x20, 0xEA);
    own_irq.extend([0x4C, 0x31, 0xEA]);
    let mut m = Machine::builtin();
    m.load_and_run_prg(&stub_prg(&own_irq)).unwrap();
    m.start_at(0x0830, 0x0900);
    m.feed_keys(parse_key_script("e1").unwrap());
    let stop = m.run(BUDGET);
    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
    assert_eq!(m.transcript(), b"E1");
}

#[test]
fn plot_sets_and_reads_the_cursor() {
    let code = [
        0x18, // CLC
        0xA2, 0x05, // LDX #5
        0xA0, 0x0A, // LDY #10
        0x20, 0xF0, 0xFF, // JSR PLOT
        0xA9, 0x58, // LDA #'X'
        0x20, 0xD2, 0xFF, // JSR CHROUT
        0x38, // SEC
        0x20, 0xF0, 0xFF, // JSR PLOT
        0x8E, 0x00, 0x09, // STX $0900
        0x8C, 0x01, 0x09, // STY $0901
        0x60,
    ];
    let (m, stop) = run(&code, "");
    assert_eq!(stop, StopReason::ReturnedToBasic);
    assert_eq!(m.bus.ram[0x0400 + 5 * 40 + 10], 0x18, "screen code of X");
    assert_eq!((m.bus.ram[0x0900], m.bus.ram[0x0901]), (5, 11));
}

#[test]
fn with_the_kernal_banked_out_ffd2_runs_ram() {
    let code = [
        0xA9, 0x35, 0x85, 0x01, // LDA #$35; STA $01 (HIRAM = 0)
        0x20, 0xD2, 0xFF, // JSR $FFD2: the RAM below the KERNAL
        0xA9, 0x37, 0x85, 0x01, // LDA #$37; STA $01
        0xA9, 0x41, // LDA #'A'
        0x20, 0xD2, 0xFF, // JSR CHROUT
        0x60,
    ];
    let mut m = Machine::builtin();
    m.load_and_run_prg(&stub_prg(&code)).unwrap();
    // RAM under $FFD2: INC $0900; RTS
    m.load_raw(0xFFD2, &[0xEE, 0x00, 0x09, 0x60]);
    let stop = m.run(BUDGET);
    assert_eq!(stop, StopReason::ReturnedToBasic);
    assert_eq!(m.bus.ram[0x0900], 1, "the RAM routine ran once");
    assert_eq!(m.transcript(), b"A", "only the banked-in call printed");
}

#[test]
fn f6_ram_under_the_basic_rom() {
    // Published fact F6/F19: with LORAM=1 a byte stored at $A000 reads back as the ROM's
    // (our filler's) value; after clearing LORAM it reads back as stored.
    let code = [
        0xA9, 0x42, 0x8D, 0x00, 0xA0, // LDA #$42; STA $A000
        0xAD, 0x00, 0xA0, 0x8D, 0x00, 0x09, // LDA $A000; STA $0900
        0xA9, 0x36, 0x85, 0x01, // LDA #$36; STA $01 (LORAM = 0)
        0xAD, 0x00, 0xA0, 0x8D, 0x01, 0x09, // LDA $A000; STA $0901
        0x60,
    ];
    let (m, stop) = run(&code, "");
    assert_eq!(stop, StopReason::ReturnedToBasic);
    assert_eq!(
        m.bus.ram[0x0900], m.bus.roms.basic[0],
        "the ROM's first byte"
    );
    assert_ne!(m.bus.ram[0x0900], 0x42);
    assert_eq!(m.bus.ram[0x0901], 0x42);
}

#[test]
fn the_system_irq_advances_the_jiffy_clock() {
    let code = [
        0xA5, 0xA2, // LDA $A2
        0xC5, 0xA2, // loop: CMP $A2
        0xF0, 0xFC, // BEQ loop
        0x60,
    ];
    let (m, stop) = run(&code, "");
    assert_eq!(stop, StopReason::ReturnedToBasic);
    assert!(m.cycles() > 10_000, "waited for a timer interrupt");
    assert!(
        m.cycles() < 40_000,
        "one tick is 1/60 s: {} cycles",
        m.cycles()
    );
}

#[test]
fn linnum_holds_the_sys_address_and_registers_are_as_after_sys() {
    let (m, _) = run(&[0x60], "");
    assert_eq!((m.bus.ram[0x14], m.bus.ram[0x15]), (0x20, 0x08));
    assert_eq!((m.bus.ram[0x2B], m.bus.ram[0x2C]), (0x01, 0x08));
    assert_eq!(m.peek(0x0001), 0x37);
}

#[test]
fn a_jam_opcode_stops_the_run_with_its_address() {
    let (_, stop) = run(&[0xEA, 0x02], "");
    assert_eq!(
        stop,
        StopReason::Jammed {
            pc: 0x0821,
            opcode: 0x02
        }
    );
    assert_eq!(stop.to_string(), "CPU jammed at $0821 (opcode $02)");
}

#[test]
fn a_runaway_program_hits_the_cycle_budget() {
    let mut m = Machine::builtin();
    m.load_and_run_prg(&stub_prg(&[0x4C, 0x20, 0x08])).unwrap();
    let stop = m.run(5_000);
    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
    assert!(m.cycles() >= 5_000);
}

#[test]
fn brk_without_a_handler_is_reported() {
    let (_, stop) = run(&[0xEA, 0x00, 0x00], "");
    assert_eq!(stop, StopReason::BrkNoHandler { pc: 0x0821 });
}

#[test]
fn sid_noise_changes_over_time() {
    // Voice 3: frequency $FFFF, noise; read $D41B until it differs from the first read.
    let code = [
        0xA9, 0xFF, 0x8D, 0x0E, 0xD4, 0x8D, 0x0F, 0xD4, // freq $FFFF
        0xA9, 0x80, 0x8D, 0x12, 0xD4, // noise
        0xAD, 0x1B, 0xD4, 0x85, 0xFB, // first value
        0xAD, 0x1B, 0xD4, // loop: LDA $D41B
        0xC5, 0xFB, 0xF0, 0xF9, // CMP first; BEQ loop
        0x8D, 0x00, 0x09, 0x60,
    ];
    let (m, stop) = run(&code, "");
    assert_eq!(stop, StopReason::ReturnedToBasic);
    assert!(m.cycles() < 1_000, "noise changed quickly");
}

#[test]
fn a_port_bit_switched_to_input_reads_as_pulled_up_and_maps_as_1() {
    let code = [
        0xA9, 0x36, 0x85, 0x01, // LDA #$36; STA $01: LORAM = 0, $A000 is RAM
        0xA9, 0x42, 0x8D, 0x00, 0xA0, // LDA #$42; STA $A000
        0xA9, 0x2E, 0x85, 0x00, // LDA #$2E; STA $00: bit 0 becomes an input
        0xA5, 0x01, 0x8D, 0x00, 0x09, // LDA $01; STA $0900: bit 0 reads 1 (pull-up)
        0xAD, 0x00, 0xA0, 0x8D, 0x01, 0x09, // LDA $A000; STA $0901: BASIC ROM is back
        0xA5, 0x00, 0x8D, 0x02, 0x09, // LDA $00; STA $0902: the DDR reads back
        0xA9, 0x2F, 0x85, 0x00, 0xA9, 0x37, 0x85, 0x01, 0x60,
    ];
    let (m, stop) = run(&code, "");
    assert_eq!(stop, StopReason::ReturnedToBasic);
    assert_eq!(m.bus.ram[0x0900], 0x37);
    assert_eq!(
        m.bus.ram[0x0901], m.bus.roms.basic[0],
        "the ROM's first byte"
    );
    assert_eq!(m.bus.ram[0x0902], 0x2E);
}

#[test]
fn a_breakpoint_stops_before_the_instruction_and_the_next_run_steps_over_it() {
    let mut m = Machine::builtin();
    // INX; INX; INX; RTS
    m.load_and_run_prg(&stub_prg(&[0xE8, 0xE8, 0xE8, 0x60]))
        .unwrap();
    m.set_breakpoint(0x0822);
    m.count_instructions = true;
    assert_eq!(m.run(BUDGET), StopReason::Breakpoint { pc: 0x0822 });
    assert_eq!(m.cpu.x, 2);
    assert_eq!(m.instructions, 2);
    assert_eq!(m.run(BUDGET), StopReason::ReturnedToBasic);
    assert_eq!(m.cpu.x, 3);
}
