//! RAM $0000/$0001 under the 6510's port: a write to $00 or $01 does not drive the data
//! bus, so the RAM there takes the byte the VIC-II fetched in that cycle's phi1 (C. Bauer's
//! VIC-II article). The CPU still reads the port there; the VIC-II reads the RAM (a sprite
//! over it finds it through the collision register).

use c64kit_asm::{assemble_source, Options};
use c64kit_machine::{Machine, StopReason};

/// With the screen blanked long enough for no bad line to leave display state, every phi1
/// fetch reads $3FFF, $3F00-$3FFF (refresh) or the sprite pointers $07F8-$07FF: all $A5
/// here. Then $2F and $37 are written to $00 and $01 (the port as it was), and sprite 0
/// (pointer 0: its top row is RAM $00-$02) is shown with sprite 1 (one pixel, at X + `dx`).
/// $FB: $D01E a frame later; $FC: the CPU's read of $00.
fn program(dx: u8, prime_collisions: bool) -> String {
    let prime = if prime_collisions { "lda $d01e" } else { "" };
    format!(
        r#"
        *=$c000
        sei
        {prime}
        lda #$0b
        sta $d011
        lda #$a5
        ldx #0
fill    sta $3f00,x
        inx
        bne fill
        ldx #7
ptrs    sta $07f8,x
        dex
        bpl ptrs
        jsr frame
        jsr frame
        lda #$2f
        sta $00
        lda #$37
        sta $01
        lda #0
        sta $07f8
        ldx #$3f
clear   sta $2000,x
        dex
        bpl clear
        lda #$80
        sta $07f9
        sta $2000
        sta $d000
        sta $d001
        sta $d003
        clc
        adc #{dx}
        sta $d002
        lda #0
        sta $d010
        sta $d017
        sta $d01b
        sta $d01c
        sta $d01d
        lda #3
        sta $d015
        lda #$1b
        sta $d011
        jsr frame
        lda $d01e
        jsr frame
        jsr frame
        lda $d01e
        sta $fb
        lda $00
        sta $fc
stop    jmp stop
frame   bit $d011
        bpl frame
wait    bit $d011
        bmi wait
        rts
"#
    )
}

/// Runs `program(dx, prime)`: ($D01E, the CPU's $00, RAM $0000 and $0001 under the port).
fn run(dx: u8, prime: bool) -> (u8, u8, [u8; 2]) {
    let asm = assemble_source("test.asm", &program(dx, prime), &Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut m = Machine::builtin();
    m.load_raw(asm.load_address, &asm.bytes);
    m.start_at(asm.load_address, 0x0801);
    m.stop_on_stuck_loop = true;
    let stop = m.run(10_000_000);
    assert!(matches!(stop, StopReason::StuckLoop { .. }), "{stop:?}");
    let under = m.bus.ram_under_port();
    (m.bus.ram[0xFB], m.bus.ram[0xFC], under)
}

#[test]
fn a_port_write_leaves_the_vic_fetch_in_the_ram_under_it() {
    // Both ways the VIC-II may run: keeping only its counters (nothing looked at the
    // collisions yet), and fetching every cycle.
    for prime in [false, true] {
        let (collisions, port, under) = run(0, prime);
        assert_eq!(under, [0xA5, 0xA5], "primed: {prime}");
        assert_eq!(port, 0x2F, "the CPU reads the port's DDR at $00");
        // $A5's top bit is set where the port's $2F has none.
        assert_eq!(collisions & 3, 3, "primed: {prime}");
        // $A5's bit 6 is clear ($2F's too): one pixel to the right, nothing.
        let (collisions, _, _) = run(1, prime);
        assert_eq!(collisions & 3, 0, "primed: {prime}");
    }
}

/// An interrupt every `period` cycles writes the port (as Commodore's KERNAL writes $01 60
/// times a second), $01 alternating two values; with `sprite`, sprite 0 is shown with its data at $0000
/// (pointer 0), so the VIC-II reads the cells under the port. The fetches read a pattern,
/// which the main loop keeps changing with `writes` (the screen and the idle fetch's page;
/// then the interrupts write $00 and $01 in turn, else only $01).
fn periodic_port_writes(period: u16, sprite: bool, prime: bool, writes: bool) -> String {
    // Even interrupts write $00, odd ones $01; or (without `writes`) all write $01.
    let both = if writes { "bcc one" } else { "jmp one" };
    let main = if writes {
        "inx\n inc $0400,x\n inc $0700,x\n inc $3f00,x"
    } else {
        "inc $03"
    };
    // The same cycles either way: a collision register's read makes the chip fetch every
    // cycle, the border colour's does not.
    let prime = if prime { "lda $d01e" } else { "lda $d020" };
    let sprite = if sprite {
        "lda #0\n sta $07f8\n lda #$60\n sta $d000\n sta $d001\n lda #1\n sta $d015"
    } else {
        ""
    };
    format!(
        r#"
        *=$c000
        sei
        {prime}
        lda #$35
        sta $01
        ldx #0
fill    txa
        eor #$5a
        sta $3f00,x
        sta $0400,x
        sta $0500,x
        sta $0600,x
        sta $0700,x
        inx
        bne fill
        {sprite}
        lda #<irq
        sta $fffe
        lda #>irq
        sta $ffff
        lda #$7f
        sta $dc0d
        sta $dd0d
        lda $dc0d
        lda #<{period}
        sta $dc04
        lda #>{period}
        sta $dc05
        lda #$81
        sta $dc0d
        lda #$11
        sta $dc0e
        cli
loop    {main}
        jmp loop
irq     pha
        lda $dc0d
        inc $02
        lda $02
        lsr
        {both}
        lda #$2f
        sta $00
        pla
        rti
one     and #8
        ora #$35
        sta $01
        pla
        rti
"#
    )
}

/// The cells under the port after each of 12 runs of 37,129 cycles, the writes' fetches
/// worked out at once or (`defer`) when needed.
fn cells_after_periodic_writes(
    period: u16,
    sprite: bool,
    prime: bool,
    writes: bool,
    defer: bool,
) -> Vec<[u8; 2]> {
    let source = periodic_port_writes(period, sprite, prime, writes);
    let asm =
        assemble_source("test.asm", &source, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut m = Machine::builtin();
    m.load_raw(asm.load_address, &asm.bytes);
    m.start_at(asm.load_address, 0x0801);
    m.bus.set_port_fetch_deferral(defer);
    (0..12)
        .map(|_| {
            let stop = m.run(37_129);
            assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
            m.bus.ram_under_port()
        })
        .collect()
}

#[test]
fn port_writes_leave_the_same_cells_whether_the_vic_fetches_every_cycle_or_not() {
    // A VIC-II that keeps only its counters works a write's fetch out later, or not at
    // all when the cell is written again first: the cells must be those of the chip that
    // fetches every cycle. Periods: Commodore's KERNAL's interrupt, a few lines, under a
    // line (worked out at once).
    for period in [16_421, 1_000, 200, 40] {
        for sprite in [false, true] {
            let lazy = cells_after_periodic_writes(period, sprite, false, false, true);
            let fetching = cells_after_periodic_writes(period, sprite, true, false, true);
            assert_eq!(lazy, fetching, "period {period}, sprite {sprite}");
            assert!(
                lazy.windows(2).any(|w| w[0] != w[1]),
                "period {period}, sprite {sprite}: the cells never changed: {lazy:02X?}"
            );
        }
    }
}

#[test]
fn a_port_write_that_waits_for_the_vic_leaves_what_working_it_out_at_once_leaves() {
    // With the memory the chip fetches changing all the time (where the chip that keeps
    // only its counters and the one that fetches every cycle may differ: the former reads
    // a bad line's matrix when it is brought up to date).
    for period in [16_421, 1_000, 200] {
        for sprite in [false, true] {
            let deferred = cells_after_periodic_writes(period, sprite, false, true, true);
            let at_once = cells_after_periodic_writes(period, sprite, false, true, false);
            assert_eq!(deferred, at_once, "period {period}, sprite {sprite}");
        }
    }
}
