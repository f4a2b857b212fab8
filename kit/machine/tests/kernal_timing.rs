//! The trap KERNAL's routines take the cycles Commodore's KERNAL (901227-03) takes on the
//! same path, measured on the real ROM (see `kernal::timing`): checked here on the traps
//! alone, so CI (which has no Commodore ROM) holds them. programs/tests/real_kernal_timing.rs
//! compares whole runs with the real ROMs when they are at hand.

use c64kit_machine::{Machine, StopReason};

/// Runs `code` at $C000 and returns the cycle at each arrival at one of `stops`.
fn arrivals(
    code: &[u8],
    stops: &[u16],
    setup: impl Fn(&mut Machine),
    count: usize,
) -> Vec<(u16, u64)> {
    let mut m = Machine::builtin();
    m.load_raw(0xC000, code);
    m.start_at(0xC000, 0x0803);
    setup(&mut m);
    for &s in stops {
        m.set_breakpoint(s);
    }
    let mut out = Vec::new();
    while out.len() < count {
        match m.run(10_000_000) {
            StopReason::Breakpoint { pc } => out.push((pc, m.cycles())),
            other => panic!("{other:?}"),
        }
    }
    out
}

/// The IRQs' lengths, from the interrupt's first cycle to the end of RTI, with the CPU in a
/// two-instruction loop at $C006 (NOP; JMP $C006).
fn irq_lengths(code: &[u8], setup: impl Fn(&mut Machine), count: usize) -> Vec<u64> {
    let mut m = Machine::builtin();
    m.load_raw(0xC000, code);
    m.start_at(0xC000, 0x0803);
    setup(&mut m);
    for stop in [0xFF48, 0xC006, 0xC007] {
        m.set_breakpoint(stop);
    }
    let (mut out, mut entered) = (Vec::new(), None);
    while out.len() < count {
        match m.run(10_000_000) {
            // $FF48 is reached after the 7-cycle interrupt sequence.
            StopReason::Breakpoint { pc: 0xFF48 } => entered = Some(m.cycles() - 7),
            StopReason::Breakpoint { .. } => {
                if let Some(first) = entered.take() {
                    out.push(m.cycles() - first);
                }
            }
            other => panic!("{other:?}"),
        }
    }
    out
}

// LDA #$0B; STA $D011 (screen blanked: no bad lines); CLI; NOP; JMP $C006.
const IDLE_BLANKED: [u8; 10] = [0xA9, 0x0B, 0x8D, 0x11, 0xD0, 0x58, 0xEA, 0x4C, 0x06, 0xC0];

#[test]
fn an_irq_with_no_key_and_no_blink_costs_219_cycles() {
    let lengths = irq_lengths(&IDLE_BLANKED, |m| m.poke(0xCC, 1), 12);
    assert_eq!(lengths, vec![219; 12]);
}

#[test]
fn the_blinking_cursor_costs_what_commodores_does() {
    // BLNSW = 0: 226 a jiffy, 281 or 332 when the cursor turns off or on (every 20th).
    let lengths = irq_lengths(
        &IDLE_BLANKED,
        |m| {
            m.poke(0xCC, 0);
            m.poke(0xCD, 1);
        },
        45,
    );
    assert!(
        lengths.iter().all(|l| [226, 281, 332].contains(l)),
        "{lengths:?}"
    );
    assert_eq!(
        lengths.iter().filter(|&&l| l == 332).count(),
        2,
        "{lengths:?}"
    );
    assert_eq!(
        lengths.iter().filter(|&&l| l == 281).count(),
        1,
        "{lengths:?}"
    );
}

#[test]
fn a_bad_line_stretches_the_irq_as_it_does_real_code() {
    // Screen on: an IRQ over a bad line takes 43 cycles more (262), as on Commodore's.
    let mut code = IDLE_BLANKED;
    code[1] = 0x1B;
    let lengths = irq_lengths(&code, |m| m.poke(0xCC, 1), 30);
    assert!(
        lengths.iter().all(|l| [219, 262].contains(l)),
        "{lengths:?}"
    );
    assert!(
        lengths.contains(&262) && lengths.contains(&219),
        "{lengths:?}"
    );
}

#[test]
fn the_jiffy_clock_carry_costs_7_cycles() {
    let lengths = irq_lengths(&IDLE_BLANKED, |m| m.poke(0xA2, 0xFE), 3);
    assert_eq!(lengths, vec![219, 219 + 7, 219]);
}

/// Cycles of `JSR $FFD2` with A = each byte (screen blanked, IRQs off): from the JSR's
/// first cycle to the end of the routine's RTS, less the JSR's 6.
fn chrout_costs(bytes: &[u8], setup: impl Fn(&mut Machine)) -> Vec<u64> {
    // SEI; LDA #$0B; STA $D011; then LDA #b; JSR $FFD2 for each; JMP *
    let mut code = vec![0x78, 0xA9, 0x0B, 0x8D, 0x11, 0xD0];
    let mut stops = Vec::new();
    for &b in bytes {
        stops.push(0xC000 + code.len() as u16);
        code.extend([0xA9, b, 0x20, 0xD2, 0xFF]);
    }
    let end = 0xC000 + code.len() as u16;
    stops.push(end);
    code.extend([0x4C, end as u8, (end >> 8) as u8]);
    let hits = arrivals(&code, &stops, setup, stops.len());
    hits.windows(2)
        .map(|w| w[1].1 - w[0].1 - 2 - 6) // LDA #, JSR
        .collect()
}

#[test]
fn chrout_to_the_screen_costs_what_commodores_does() {
    // Through the jump table's JMP ($0326): a letter 272, RETURN 225, CLR 37,689 (25 rows
    // blanked), HOME 443, a colour code 336.
    let costs = chrout_costs(&[0x41, 0x0D, 0x93, 0x13, 0x05], |_| {});
    assert_eq!(costs, vec![272, 225, 37_689, 443, 336]);
}

#[test]
fn a_scroll_costs_what_commodores_does() {
    // RETURN on the last row scrolls the screen: 31,686 cycles with the jump table's JMP.
    let costs = chrout_costs(&[0x0D], |m| {
        // The cursor on row 24 (PLOT's effect: TBLX, and PNT through the line table).
        m.poke(0xD6, 24);
        m.poke(0xD3, 0);
        m.poke(0xD1, 0xC0);
        m.poke(0xD2, 0x07);
    });
    assert_eq!(costs, vec![31_686]);
}

#[test]
fn getin_costs_what_commodores_does() {
    // SEI; three keys in the buffer (NDX = 3); JSR $FFE4; JMP *: 93 cycles with the jump
    // table's JMP ($032A), as Commodore's (54 + 2 * 17 + 5).
    let code = [
        0x78, 0xA9, 0x41, 0x8D, 0x77, 0x02, 0xA9, 0x03, 0x85, 0xC6, 0x20, 0xE4, 0xFF, 0x4C, 0x0D,
        0xC0,
    ];
    let hits = arrivals(&code, &[0xC00A, 0xC00D], |_| {}, 2);
    assert_eq!(hits[1].1 - hits[0].1 - 6, 93);
}

#[test]
fn no_jiffy_is_lost_while_chrout_scrolls() {
    // CLI; 30 times RETURN on the last row (30 scrolls of 31,686 cycles: 58 IRQ periods of
    // CIA 1's timer, $4025 + 1 cycles); SEI; JMP *. An IRQ that comes during a scroll is
    // taken then (the trap goes on after it), as in Commodore's code, so the jiffy clock
    // counts every period.
    let code = [
        0x58, 0xA2, 0x1E, 0xA9, 0x0D, 0x20, 0xD2, 0xFF, 0xCA, 0xD0, 0xF8, 0x78, 0x4C, 0x0C, 0xC0,
    ];
    let mut m = Machine::builtin();
    m.load_raw(0xC000, &code);
    m.start_at(0xC000, 0x0803);
    m.poke(0xD6, 24);
    m.poke(0xD1, 0xC0);
    m.poke(0xD2, 0x07);
    m.poke(0xA2, 0);
    m.set_breakpoint(0xC00C);
    let start = m.cycles();
    assert!(matches!(m.run(10_000_000), StopReason::Breakpoint { .. }));
    let periods = (m.cycles() - start) / 0x4026;
    let jiffies = m.peek(0xA2) as u64;
    assert!(periods >= 55, "{periods}");
    assert!(
        jiffies.abs_diff(periods) <= 1,
        "{jiffies} jiffies in {periods} periods"
    );
}

/// The cycles of each `JSR target` (JSR to the next instruction) in
/// `LDA #$7F; STA $DC0D` (no CIA 1 interrupts); `LDA #$0B; STA $D011` (screen blanked);
/// `JSR target; CMP #$0D; BNE` back to the JSR; `JMP *`, with `keys` in the keyboard buffer
/// (at most `max` calls).
fn call_costs(target: u16, keys: &[u8], max: usize) -> Vec<u64> {
    let code = [
        0xA9,
        0x7F,
        0x8D,
        0x0D,
        0xDC,
        0xA9,
        0x0B,
        0x8D,
        0x11,
        0xD0,
        0x20,
        target as u8,
        (target >> 8) as u8,
        0xC9,
        0x0D,
        0xD0,
        0xF9,
        0x4C,
        0x11,
        0xC0,
    ];
    let setup = |m: &mut Machine| {
        for (i, &k) in keys.iter().enumerate() {
            m.poke(0x0277 + i as u16, k);
        }
        m.poke(0xC6, keys.len() as u8);
    };
    let mut m = Machine::builtin();
    m.load_raw(0xC000, &code);
    m.start_at(0xC000, 0x0803);
    setup(&mut m);
    for s in [0xC00A, 0xC00D, 0xC011] {
        m.set_breakpoint(s);
    }
    let (mut out, mut called) = (Vec::new(), 0);
    while out.len() < max {
        match m.run(10_000_000) {
            StopReason::Breakpoint { pc: 0xC00A } => called = m.cycles(),
            StopReason::Breakpoint { pc: 0xC00D } => out.push(m.cycles() - called),
            StopReason::Breakpoint { .. } => break,
            other => panic!("{other:?}"),
        }
    }
    out
}

#[test]
fn chrin_s_line_input_costs_what_commodores_does() {
    // Measured on Commodore's KERNAL, keys in the buffer before the first call: the call
    // that echoes the keys and takes RETURN, then one call for each character and the
    // RETURN at the line's end (each with its JSR and the jump table's JMP ($0324)).
    assert_eq!(call_costs(0xFFCF, b"ABC\r", 9), vec![1904, 136, 136, 158]);
    assert_eq!(call_costs(0xFFCF, b"\r", 9), vec![822, 158]);
    assert_eq!(
        call_costs(0xFFCF, b"A1 \"B\r", 9),
        vec![2702, 135, 135, 144, 136, 158]
    );
    assert_eq!(call_costs(0xFFCF, b"ABCDEFGHI\r", 1)[0], 4475);
}

#[test]
fn lp2_and_scolor_called_on_their_own_cost_what_commodores_do() {
    // JSR to the next instruction: LP2 22 + 17 a key in the buffer, SCOLOR 22.
    assert_eq!(call_costs(0xE5B4, b"AB\r", 9), vec![6 + 73, 6 + 56, 6 + 39]);
    assert_eq!(call_costs(0xEA24, b"", 2), vec![6 + 22, 6 + 22]);
}

#[test]
fn interrupts_are_taken_while_chrin_waits_for_a_key() {
    // CLI; JSR CHRIN; JMP *, nothing typed and no script's end to stop the wait: the real
    // loop spins with interrupts on, so the system IRQ keeps the jiffy clock going (a
    // program's own interrupt routine, music or a key of its own, runs beside the wait).
    let mut m = Machine::builtin();
    m.kernal.idle_poll_limit = u32::MAX;
    m.load_raw(0xC000, &[0x58, 0x20, 0xCF, 0xFF, 0x4C, 0x04, 0xC0]);
    m.start_at(0xC000, 0x0803);
    let jiffies = |m: &Machine| u32::from_be_bytes([0, m.peek(0xA0), m.peek(0xA1), m.peek(0xA2)]);
    let before = jiffies(&m);
    // One second of PAL C64 time: CIA 1's timer interrupts every 16,422 cycles (60 Hz).
    let stop = m.run(985_248);
    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
    let ticks = jiffies(&m) - before;
    assert!((59..=60).contains(&ticks), "{ticks} jiffies");
}

#[test]
fn opening_a_row_for_a_line_typed_past_its_row_costs_what_commodores_does() {
    // SEI; screen blanked; AUTODN ($0292) = 1, as while CHRIN echoes typed keys; the cursor
    // in column 39 of `row` (PLOT); then JSR CHROUT with a letter, which wraps the line and
    // opens the row below it, moving the rows under it down: the cycles from the JSR to the
    // instruction after it. Measured on Commodore's KERNAL: 30,692 on row 0 (23 rows moved,
    // 3 of them from rows that cross a page), 15,728 on row 12, 1,975 on row 23 (none).
    let cost = |row: u8| {
        let code = [
            0x78, 0xA9, 0x0B, 0x8D, 0x11, 0xD0, 0xA9, 0x01, 0x8D, 0x92, 0x02, 0x18, 0xA2, row,
            0xA0, 0x27, 0x20, 0xF0, 0xFF, 0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x4C, 0x18, 0xC0,
        ];
        let times = arrivals(&code, &[0xC015, 0xC018], |_| {}, 2);
        times[1].1 - times[0].1
    };
    assert_eq!(cost(0), 30_692);
    assert_eq!(cost(23), 1_975);
    // Each row moved costs 84 to 89 cycles besides its copy on the real KERNAL; the trap
    // charges 85.
    assert!(cost(12).abs_diff(15_728) <= 16, "{}", cost(12));
}
