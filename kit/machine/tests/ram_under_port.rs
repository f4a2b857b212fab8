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
