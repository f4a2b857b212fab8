//! One test (or a few) per directive and syntax feature. Expected bytes are worked out by
//! hand from the 6502 instruction set, not copied from the assembler's output.

use c64kit_asm::{assemble_source, Assembly, Options};

fn build(src: &str) -> Assembly {
    assemble_source("t.asm", src, &Options::default())
        .unwrap_or_else(|e| panic!("assembly failed:\n{e}\nsource:\n{src}"))
}

/// Bytes assembled, starting at the load address.
fn bytes(src: &str) -> Vec<u8> {
    build(src).bytes
}

#[test]
fn origin_and_labels() {
    let a = build("*=$1000\nstart lda #1\n jmp start\n");
    assert_eq!(a.load_address, 0x1000);
    assert_eq!(a.bytes, vec![0xA9, 0x01, 0x4C, 0x00, 0x10]);
    assert_eq!(a.labels["start"], 0x1000);
    assert_eq!(a.prg(), vec![0x00, 0x10, 0xA9, 0x01, 0x4C, 0x00, 0x10]);
}

#[test]
fn origin_spellings() {
    assert_eq!(bytes("* = $0820\n rts"), vec![0x60]);
    assert_eq!(build("  *=2080\n rts").load_address, 0x0820);
    assert_eq!(build("org $0900\n rts").load_address, 0x0900);
}

#[test]
fn gaps_are_padded() {
    let a = build("*=$1000\n byte 1\n*=$1004\n byte 2\n");
    assert_eq!(a.bytes, vec![1, 0, 0, 0, 2]);
    let opts = Options {
        padding: Some(0xEA),
        ..Options::default()
    };
    let a = assemble_source("t.asm", "*=$1004\n byte 2\n*=$1000\n byte 1\n", &opts).unwrap();
    assert_eq!(a.load_address, 0x1000);
    assert_eq!(a.bytes, vec![1, 0xEA, 0xEA, 0xEA, 2]);
}

#[test]
fn default_origin_is_basic_start() {
    assert_eq!(build(" rts").load_address, 0x0801);
}

#[test]
fn label_forms() {
    // Column-1 label with and without colon, indented label with colon, label alone.
    let a = build("*=$2000\none\ntwo: nop\n  three: nop\nfour nop\n");
    assert_eq!(a.labels["one"], 0x2000);
    assert_eq!(a.labels["two"], 0x2000);
    assert_eq!(a.labels["three"], 0x2001);
    assert_eq!(a.labels["four"], 0x2002);
    // Labels are not case-sensitive: one label, however a reference spells it.
    let a = build("*=$2000\nLoop nop\n jmp LOOP\n jmp loop\n");
    assert_eq!(a.bytes, vec![0xEA, 0x4C, 0x00, 0x20, 0x4C, 0x00, 0x20]);
}

#[test]
fn mnemonics_any_case() {
    assert_eq!(
        bytes("*=$1000\n LSR A\n lsr a\n lsr\n Lda #$10\n"),
        vec![0x4A, 0x4A, 0x4A, 0xA9, 0x10]
    );
}

#[test]
fn mnemonic_in_column_one() {
    assert_eq!(bytes("*=$1000\nlda #1\nrts\n"), vec![0xA9, 0x01, 0x60]);
}

#[test]
fn numbers() {
    assert_eq!(
        bytes("*=$1000\n byte $0a, %1010, 10, \"a\", \"A\", 'A', \".\"\n"),
        vec![10, 10, 10, 0x41, 0xC1, 0x41, 0x2E]
    );
}

#[test]
fn negative_numbers_in_data() {
    assert_eq!(bytes("*=$1000\n byte -1,-1,9\n"), vec![0xFF, 0xFF, 0x09]);
    assert_eq!(bytes("*=$1000\n word -2\n"), vec![0xFE, 0xFF]);
    assert_eq!(bytes("*=$1000\n lda #-1\n"), vec![0xA9, 0xFF]);
}

#[test]
fn constants() {
    let a = build(
        "SCREEN = $0400\ncount=3\n  Other EQU 7\n*=$1000\n lda #count\n sta SCREEN\n ldx #Other\n",
    );
    assert_eq!(a.bytes, vec![0xA9, 3, 0x8D, 0x00, 0x04, 0xA2, 7]);
    assert_eq!(a.symbols["SCREEN"], 0x400);
    assert!(
        !a.labels.contains_key("SCREEN"),
        "constants are not address labels"
    );
}

#[test]
fn expressions() {
    let src = "\
base = $1234
*=$1000
 byte <base, >base, <base+1, >base+1
 byte (2+3)*4, 20/3, 7-2*3
 word base*2, base/2
here word *
 byte <(base+$00CC), >(base+$00CC)
";
    let a = build(src);
    assert_eq!(
        a.bytes,
        vec![
            0x34, 0x12, 0x35, 0x13, // HiLo: < and > bind to the label only
            20, 6, 1, //
            0x68, 0x24, 0x1A, 0x09, //
            0x0B, 0x10, // * = address of this statement ($100B)
            0x00, 0x13,
        ]
    );
}

#[test]
fn operator_calc_and_hilo() {
    // HiLo (the default): < and > take the first term only. Calc: the whole expression.
    let src = "\
base = $0180
*=$1000
 byte >base*2, <base/2
 Operator Calc
 byte >base*2, <base/2
 operator hilo
 byte >base*2
";
    assert_eq!(bytes(src), vec![2, 0x40, 3, 0xC0, 2]);
}

#[test]
fn forward_references_and_zero_page() {
    // zp is a forward reference that fits in a byte: zero-page mode once known.
    let src = "*=$1000\n lda zp\n lda far\n rts\nzp = $FB\nfar = $C000\n";
    assert_eq!(bytes(src), vec![0xA5, 0xFB, 0xAD, 0x00, 0xC0, 0x60]);
    // A forward label address above $FF stays absolute.
    let src = "*=$1000\n jmp end\n lda tab,x\nend rts\ntab byte 1\n";
    assert_eq!(
        bytes(src),
        vec![0x4C, 0x06, 0x10, 0xBD, 0x07, 0x10, 0x60, 0x01]
    );
}

#[test]
fn zero_page_label_defined_by_origin() {
    let src = "*=$02\nptr byte 0,0\n*=$1000\n lda (ptr),y\n sta ptr\n lda ptr,x\n";
    let a = build(src);
    assert_eq!(a.load_address, 0x02);
    assert_eq!(
        &a.bytes[a.bytes.len() - 6..],
        &[0xB1, 0x02, 0x85, 0x02, 0xB5, 0x02]
    );
}

#[test]
fn byte_word_aliases() {
    assert_eq!(
        bytes("*=$1000\n byt 1\n db 2\n dcb 3\n dc.b 4\n BYTE 5\n dw $0102\n dc.w 3\n WORD 4\n"),
        vec![1, 2, 3, 4, 5, 2, 1, 3, 0, 4, 0]
    );
}

#[test]
fn text_is_petscii() {
    assert_eq!(
        bytes("*=$1000\n text \"hello, world 64!\"\n"),
        vec![
            0x48, 0x45, 0x4C, 0x4C, 0x4F, 0x2C, 0x20, 0x57, 0x4F, 0x52, 0x4C, 0x44, 0x20, 0x36,
            0x34, 0x21
        ]
    );
    assert_eq!(bytes("*=$1000\n text \"Ab\"\n"), vec![0xC1, 0x42]);
    // Strings and numbers mixed, in text and in byte.
    assert_eq!(
        bytes("*=$1000\n text \"ab\",13,\"c\"\n byte \"xy\",0\n"),
        vec![0x41, 0x42, 13, 0x43, 0x58, 0x59, 0]
    );
    assert_eq!(bytes("*=$1000\n null \"ok\"\n"), vec![0x4F, 0x4B, 0]);
}

#[test]
fn capitals_in_screen_code_text_are_shifted_letters_and_warned_of() {
    // 'Negro' as screen codes: N is the shifted set's $4E, graphics in the standard set.
    let a = build("*=$1000\n text 'Negro'\n text 'ok'\n");
    assert_eq!(a.bytes, vec![0x4E, 0x05, 0x07, 0x12, 0x0F, 0x0F, 0x0B]);
    let warnings: Vec<String> = a.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("t.asm:2: 'Negro': capitals in single quotes")
            && warnings[0].ends_with("write 'negro' for letters"),
        "{warnings:?}"
    );
}

#[test]
fn char_constants_in_operands() {
    assert_eq!(
        bytes("*=$1000\n lda #\"a\"\n cmp #'.'\n"),
        vec![0xA9, 0x41, 0xC9, 0x2E]
    );
}

#[test]
fn repeat_with_name() {
    let src = "\
*=$1000
 repeat 0, 3, index
 byte <table_index
 endrepeat
 repeat 0, 3, index
table_index byte index*2
 endrepeat
";
    let a = build(src);
    // Four low bytes of table_0..3 at $1004..$1007, then the table itself.
    assert_eq!(a.bytes, vec![0x04, 0x05, 0x06, 0x07, 0, 2, 4, 6]);
    assert_eq!(a.labels["table_0"], 0x1004);
    assert_eq!(a.labels["table_3"], 0x1007);
}

#[test]
fn repeat_sixty_four() {
    let src = "*=$1000\n repeat 0, 63, index\ntable_index byte index\n endrepeat\n";
    let a = build(src);
    assert_eq!(a.bytes, (0..64).collect::<Vec<u8>>());
    assert_eq!(a.labels["table_63"], 0x103F);
}

#[test]
fn repeat_count_and_nesting() {
    assert_eq!(
        bytes("*=$1000\n repeat 3\n nop\n endrepeat\n"),
        vec![0xEA; 3]
    );
    let src = "\
*=$1000
 repeat 1, 2, row
 repeat 0, 1, col
 byte row*10+col
 endrepeat
 endrepeat
";
    assert_eq!(bytes(src), vec![10, 11, 20, 21]);
    // Counting down.
    assert_eq!(
        bytes("*=$1000\n repeat 3, 1, n\n byte n\n endrepeat\n"),
        vec![3, 2, 1]
    );
}

#[test]
fn conditional_assembly() {
    let src = "\
VERSION = 3
*=$1000
 if VERSION = 3
 byte 3
 else
 byte 0
 endif
 if VERSION <> 3
 byte 1
 else
 byte 2
 endif
 if VERSION >= 2
 if VERSION < 3
 byte $10
 else
 byte $11
 endif
 endif
";
    assert_eq!(bytes(src), vec![3, 2, 0x11]);
}

#[test]
fn conditional_skips_bad_lines() {
    // Lines in a false branch are not assembled (so they may even be invalid).
    let src = "*=$1000\n if 0\n bogus stuff here\n lda #$1234\n endif\n rts\n";
    assert_eq!(bytes(src), vec![0x60]);
}

#[test]
fn ifdef_ifndef() {
    let src = "\
DEBUG = 1
*=$1000
 ifdef DEBUG
 byte 1
 endif
 ifndef DEBUG
 byte 2
 endif
 ifdef NOPE
 byte 3
 else
 byte 4
 endif
";
    assert_eq!(bytes(src), vec![1, 4]);
}

#[test]
fn defines_from_options() {
    let opts = Options {
        defines: vec![("LEVEL".into(), 7)],
        ..Options::default()
    };
    let src = "LEVEL = 1\n*=$1000\n lda #LEVEL\n ifdef LEVEL\n rts\n endif\n";
    let a = assemble_source("t.asm", src, &opts).unwrap();
    assert_eq!(a.bytes, vec![0xA9, 7, 0x60]);
}

#[test]
fn macros() {
    let src = "\
defm SETCOLOR
 lda #/1
 sta /2
 endm
*=$1000
 SETCOLOR 0, $d020
 setcolor 1, $d021
";
    assert_eq!(
        bytes(src),
        vec![0xA9, 0x00, 0x8D, 0x20, 0xD0, 0xA9, 0x01, 0x8D, 0x21, 0xD0]
    );
}

#[test]
fn macro_local_labels_and_forward_use() {
    // The macro is used before it is defined; @ labels are private to each expansion.
    let src = "\
*=$1000
 WAIT 3
 WAIT 4
 rts
defm WAIT
 ldx #/1
@loop dex
 bne @loop
 endm
";
    assert_eq!(
        bytes(src),
        vec![0xA2, 3, 0xCA, 0xD0, 0xFD, 0xA2, 4, 0xCA, 0xD0, 0xFD, 0x60]
    );
}

#[test]
fn local_labels_scoped_to_global_label() {
    let src = "\
*=$1000
first ldx #2
@loop dex
 bne @loop
second ldy #2
@loop dey
 bne @loop
 beq @done
 nop
@done rts
";
    let a = build(src);
    assert_eq!(
        a.bytes,
        vec![0xA2, 2, 0xCA, 0xD0, 0xFD, 0xA0, 2, 0x88, 0xD0, 0xFD, 0xF0, 0x01, 0xEA, 0x60]
    );
    assert_eq!(a.symbols["first@loop"], 0x1002);
    assert_eq!(a.symbols["second@loop"], 0x1007);
}

#[test]
fn branches() {
    let src = "*=$0820\nback nop\n bne back\n beq fwd\n nop\nfwd rts\n";
    assert_eq!(bytes(src), vec![0xEA, 0xD0, 0xFD, 0xF0, 0x01, 0xEA, 0x60]);
    // Branch to * (itself).
    assert_eq!(bytes("*=$1000\n bne *\n"), vec![0xD0, 0xFE]);
    // Longest branches.
    let mut src = String::from("*=$1000\n bne far\n");
    src += &" nop\n".repeat(127);
    src += "far rts\n";
    assert_eq!(bytes(&src)[..2], [0xD0, 0x7F]);
}

#[test]
fn indirect_modes() {
    assert_eq!(
        bytes("*=$1000\n jmp ($0314)\n lda ($fb),y\n sta ($fb,x)\n lda (2+3)*2\n"),
        vec![0x6C, 0x14, 0x03, 0xB1, 0xFB, 0x81, 0xFB, 0xA5, 10]
    );
}

#[test]
fn indexed_zero_page_y_only_for_ldx_stx() {
    // LDA has no zp,Y: absolute,Y is used even for a zero-page address.
    assert_eq!(
        bytes("*=$1000\n lda $10,y\n ldx $10,y\n stx $10,y\n"),
        vec![0xB9, 0x10, 0x00, 0xB6, 0x10, 0x96, 0x10]
    );
}

#[test]
fn undocumented_opcodes() {
    assert_eq!(
        bytes("*=$1000\n lax $10\n sax $1234\n dcp $10,x\n isc ($10),y\n slo $1234,y\n anc #1\n alr #2\n arr #3\n sbx #4\n axs #5\n las $1234,y\n jam\n"),
        vec![
            0xA7, 0x10, 0x8F, 0x34, 0x12, 0xD7, 0x10, 0xF3, 0x10, 0x1B, 0x34, 0x12, 0x0B, 1,
            0x4B, 2, 0x6B, 3, 0xCB, 4, 0xCB, 5, 0xBB, 0x34, 0x12, 0x02
        ]
    );
}

#[test]
fn brk_as_data() {
    // Some CBM prg Studio sources reserve a byte with a bare brk.
    assert_eq!(bytes("*=$1000\nvar brk\n"), vec![0x00]);
}

#[test]
fn align() {
    assert_eq!(
        bytes("*=$1001\n byte 1\n align 4\n byte 2\n align 4,$ff\n byte 3\n"),
        vec![1, 0, 0, 2, 0xFF, 0xFF, 0xFF, 3]
    );
}

#[test]
fn comments_and_blank_lines() {
    assert_eq!(
        bytes("; header\n\n*=$1000 ; origin\n lda #\";\" ; semicolon in a string\n\t\n"),
        vec![0xA9, 0x3B]
    );
}

#[test]
fn crlf_and_tabs() {
    assert_eq!(
        bytes("*=$1000\r\nstart\tlda\t#1\r\n\trts\r\n"),
        vec![0xA9, 1, 0x60]
    );
}

#[test]
fn listing_and_vice_labels() {
    let a = build("*=$0820\nstart lda #1 ; load\nloop jmp loop\nCONST = 5\n");
    assert!(a.listing.contains("$0820  A9 01"), "{}", a.listing);
    assert!(a.listing.contains("t.asm:2"), "{}", a.listing);
    assert!(a.listing.contains("start lda #1 ; load"), "{}", a.listing);
    assert!(a.listing.contains("$0822  4C 22 08"), "{}", a.listing);
    assert_eq!(a.vice_labels(), "al C:0822 .loop\nal C:0820 .start\n");
}

#[test]
fn program_counter_star() {
    assert_eq!(bytes("*=$1000\n jmp *\n"), vec![0x4C, 0x00, 0x10]);
    assert_eq!(
        bytes("*=$1000\n byte 1\n*=*+2\n byte 2\n"),
        vec![1, 0, 0, 2]
    );
}
