//! A read of open I/O ($DE00-$DFFF with no cartridge) sees the data bus as the VIC-II's
//! phi1 fetch left it in that cycle (nothing drives it in phi2): with the screen blanked
//! every phi1 fetch reads $3FFF, $3F00-$3FFF (refresh) or a sprite pointer $07F8-$07FF.
//! The first such read must see it too, while the VIC-II still keeps only its counters.

use c64kit_asm::{assemble_source, Options};
use c64kit_machine::{Machine, StopReason};

const PROGRAM: &str = r#"
        *=$c000
        sei
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
        lda $de00
        sta $fb
        lda $df80
        sta $fc
stop    jmp stop
frame   bit $d011
        bpl frame
wait    bit $d011
        bmi wait
        rts
"#;

#[test]
fn the_first_open_bus_read_sees_the_vic_fetch() {
    let asm =
        assemble_source("test.asm", PROGRAM, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut m = Machine::builtin();
    m.load_raw(asm.load_address, &asm.bytes);
    m.start_at(asm.load_address, 0x0801);
    m.stop_on_stuck_loop = true;
    let stop = m.run(10_000_000);
    assert!(matches!(stop, StopReason::StuckLoop { .. }), "{stop:?}");
    assert_eq!(m.bus.ram[0xFB], 0xA5, "the first read");
    assert_eq!(m.bus.ram[0xFC], 0xA5, "the second");
}
