//! One test per error message: each names the file and line and says what is wrong.

use c64kit_asm::{assemble_source, Options};

/// The errors of a source that must fail, one "file:line: message" string each.
fn errors(src: &str) -> Vec<String> {
    match assemble_source("t.asm", src, &Options::default()) {
        Ok(a) => panic!("expected errors, got {:02X?}\nsource:\n{src}", a.bytes),
        Err(e) => e.0.iter().map(|e| e.to_string()).collect(),
    }
}

fn one_error(src: &str) -> String {
    let e = errors(src);
    assert_eq!(e.len(), 1, "expected one error, got {e:#?}");
    e.into_iter().next().unwrap()
}

#[test]
fn unknown_mnemonic() {
    assert_eq!(
        one_error("*=$1000\n ldaa #1\n"),
        "t.asm:2: unknown mnemonic, directive or macro 'ldaa'"
    );
    assert_eq!(
        one_error("*=$1000\nlabel foo 1\n"),
        "t.asm:2: unknown mnemonic, directive or macro 'foo'"
    );
}

#[test]
fn unknown_directive() {
    assert_eq!(
        one_error("*=$1000\n .fill 3\n"),
        "t.asm:2: unknown directive '.fill'"
    );
}

#[test]
fn bad_addressing_mode() {
    assert_eq!(
        one_error("*=$1000\n stx $1234,x\n"),
        "t.asm:2: STX does not support absolute,X addressing"
    );
    assert_eq!(
        one_error("*=$1000\n jmp #1\n"),
        "t.asm:2: JMP does not support immediate addressing"
    );
    assert_eq!(
        one_error("*=$1000\n lda ($1234)\n"),
        "t.asm:2: LDA does not support indirect addressing"
    );
    assert_eq!(
        one_error("*=$1000\n sty $1234,x\n"),
        "t.asm:2: STY has no absolute,X mode and $1234 does not fit in zero page"
    );
    assert_eq!(
        one_error("*=$1000\n lda\n"),
        "t.asm:2: LDA needs an operand"
    );
    assert_eq!(
        one_error("*=$1000\n rts #1\n"),
        "t.asm:2: RTS takes no operand"
    );
    assert_eq!(
        one_error("*=$1000\n lda ($1234),y\n"),
        "t.asm:2: pointer address $1234 is not in zero page ($00-$FF)"
    );
}

#[test]
fn undefined_label() {
    assert_eq!(
        one_error("*=$1000\n jmp nowhere\n"),
        "t.asm:2: undefined label 'nowhere'"
    );
    assert_eq!(
        one_error("*=$1000\n if MISSING = 1\n nop\n endif\n"),
        "t.asm:2: undefined label 'MISSING'"
    );
}

#[test]
fn value_out_of_range() {
    assert_eq!(
        one_error("*=$1000\n lda #256\n"),
        "t.asm:2: value 256 ($100) does not fit in a byte"
    );
    assert_eq!(
        one_error("*=$1000\n byte 1, -129\n"),
        "t.asm:2: value -129 ($FFFFFF7F) does not fit in a byte"
    );
    assert_eq!(
        one_error("*=$1000\n word $10000\n"),
        "t.asm:2: value 65536 does not fit in a word"
    );
    assert_eq!(
        one_error("*=$1000\n lda $10000\n"),
        "t.asm:2: address 65536 is outside $0000-$FFFF"
    );
}

#[test]
fn branch_out_of_range_gives_distance() {
    let mut src = String::from("*=$1000\n bne far\n");
    src += &" nop\n".repeat(128);
    src += "far rts\n";
    assert_eq!(
        one_error(&src),
        "t.asm:2: branch out of range: target $1082 is 128 bytes away (allowed -128..+127)"
    );
    let mut src = String::from("*=$1000\nback\n");
    src += &" nop\n".repeat(127);
    src += " bne back\n";
    assert_eq!(
        one_error(&src),
        "t.asm:130: branch out of range: target $1000 is -129 bytes away (allowed -128..+127)"
    );
}

#[test]
fn duplicate_label() {
    assert_eq!(
        one_error("*=$1000\ndup nop\ndup nop\n"),
        "t.asm:3: duplicate label 'dup' (first defined at t.asm:2)"
    );
    assert_eq!(
        one_error("A = 1\nA = 2\n"),
        "t.asm:2: duplicate label 'A' (first defined at t.asm:1)"
    );
    // The same value twice is allowed for a constant.
    assert!(assemble_source("t", "A = 1\nA = 1\n", &Options::default()).is_ok());
}

#[test]
fn unterminated_string() {
    assert_eq!(
        one_error("*=$1000\n text \"abc\n"),
        "t.asm:2: unterminated string \"abc"
    );
}

#[test]
fn overlapping_code() {
    assert_eq!(
        one_error("*=$1000\n nop\n nop\n*=$1001\n lda #1\n"),
        "t.asm:5: code at $1001 overlaps earlier code from t.asm:3"
    );
}

#[test]
fn unbalanced_blocks() {
    assert_eq!(one_error(" if 1\n nop\n"), "t.asm:1: 'if' without 'endif'");
    assert_eq!(one_error(" nop\n endif\n"), "t.asm:2: 'endif' without 'if'");
    assert_eq!(one_error(" else\n"), "t.asm:1: 'else' without 'if'");
    assert_eq!(
        one_error(" if 1\n else\n else\n endif\n"),
        "t.asm:3: second 'else' for the same 'if'"
    );
    assert_eq!(
        one_error(" nop\n repeat 3\n nop\n"),
        "t.asm:2: 'repeat' without 'endrepeat'"
    );
    assert_eq!(
        one_error(" endrepeat\n"),
        "t.asm:1: 'endrepeat' without 'repeat'"
    );
    assert_eq!(
        one_error("defm X\n nop\n"),
        "t.asm:1: 'defm' without 'endm'"
    );
    assert_eq!(one_error(" endm\n"), "t.asm:1: 'endm' without 'defm'");
    // An if left open inside a repeat body is reported at the if.
    assert!(errors(" repeat 2\n if 1\n endrepeat\n")
        .iter()
        .all(|e| e == "t.asm:2: 'if' without 'endif'"));
}

#[test]
fn several_errors_in_one_run() {
    let e = errors("*=$1000\n ldaa\n lda #300\n jmp nowhere\n nop\n bogus\n");
    assert_eq!(
        e,
        vec![
            "t.asm:2: unknown mnemonic, directive or macro 'ldaa'",
            "t.asm:3: value 300 ($12C) does not fit in a byte",
            "t.asm:4: undefined label 'nowhere'",
            "t.asm:6: unknown mnemonic, directive or macro 'bogus'",
        ]
    );
}

#[test]
fn errors_inside_macros_and_repeats_say_where() {
    let e = one_error("defm M\n lda #/1\n endm\n M 300\n");
    assert_eq!(
        e,
        "t.asm:2: value 300 ($12C) does not fit in a byte (in macro m called at t.asm:4)"
    );
    let e = one_error(" repeat 0, 2, i\n byte 128*i\n endrepeat\n");
    assert_eq!(
        e,
        "t.asm:2: value 256 ($100) does not fit in a byte (repeat i = 2)"
    );
}

#[test]
fn misc_errors() {
    assert_eq!(one_error(" byte 1/0\n"), "t.asm:1: division by zero");
    assert_eq!(one_error(" lda #(1+2\n"), "t.asm:1: missing ')'");
    assert_eq!(
        one_error("4\n"),
        "t.asm:1: expected a label, mnemonic or directive, found '4'"
    );
    assert_eq!(
        one_error(" lda #1 2\n"),
        "t.asm:1: unexpected '2' in expression"
    );
    assert_eq!(
        one_error("*=$10000\n"),
        "t.asm:1: origin 65536 is outside $0000-$FFFF"
    );
    assert_eq!(
        one_error("*=$FFFF\n nop\n nop\n"),
        "t.asm:3: program counter runs past $FFFF"
    );
    assert_eq!(
        one_error(" repeat 0, 100000, i\n endrepeat\n"),
        "t.asm:1: repeat of 100001 iterations is too many (at most 65536)"
    );
    assert_eq!(
        one_error(" incasm \"nothere.asm\"\n"),
        "t.asm:1: cannot find file 'nothere.asm': no include directory given"
    );
    assert_eq!(
        one_error(" text \"é\"\n"),
        "t.asm:1: character 'é' (U+00E9) has no PETSCII code"
    );
    assert_eq!(
        one_error("defm M\n lda /2\n endm\n M 1\n"),
        "t.asm:2: parameter /2 used but only 1 given (in macro m called at t.asm:4)"
    );
    assert_eq!(
        one_error("defm lda\n endm\n"),
        "t.asm:1: macro name 'lda' is a mnemonic or directive"
    );
    assert_eq!(
        one_error("defm M\n endm\ndefm M\n endm\n"),
        "t.asm:3: macro 'M' is already defined (at t.asm:1)"
    );
    assert_eq!(
        one_error(" operator fast\n"),
        "t.asm:1: 'operator' needs Calc or HiLo"
    );
    // Reported once per iteration.
    assert_eq!(
        errors(" repeat 0, 1, i\ni nop\n endrepeat\n"),
        vec![
            "t.asm:2: label 'i' becomes the number 0 here; use the repeat variable inside a longer name (repeat i = 0)",
            "t.asm:2: label 'i' becomes the number 1 here; use the repeat variable inside a longer name (repeat i = 1)",
        ]
    );
}

#[test]
fn endless_recursion_is_stopped() {
    let e = errors("defm M\n M\n endm\n M\n");
    assert!(e.iter().any(|e| e.contains("nested too deeply")), "{e:#?}");
}

#[test]
fn unsettled_addresses_are_reported() {
    // The size of the code depends on a value that the size itself changes.
    let e = errors(
        "*=$00F0\n if end < $100\n byte 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n endif\nend\n",
    );
    assert!(e.iter().any(|e| e.contains("did not settle")), "{e:#?}");
}
