//! Throws random and half-valid lines at the assembler: it must return errors, never panic
//! or hang. A seeded generator keeps the runs reproducible.

use c64kit_asm::{assemble_source, Options};
use fastrand::Rng;

const PIECES: &[&str] = &[
    "lda",
    "sta",
    "jmp",
    "bne",
    "LDX",
    "rts",
    "lsr",
    "jam",
    "sax",
    "byte",
    "word",
    "text",
    "null",
    "if",
    "else",
    "endif",
    "ifdef",
    "ifndef",
    "repeat",
    "endrepeat",
    "defm",
    "endm",
    "incasm",
    "incbin",
    "operator",
    "align",
    "org",
    "M",
    "label",
    "@loc",
    "i",
    "x",
    "y",
    "a",
    "*",
    "=",
    "*=",
    "#",
    "<",
    ">",
    "(",
    ")",
    ",",
    "+",
    "-",
    "/",
    "/1",
    "/9",
    "$",
    "%",
    "$ff",
    "$10000",
    "%101",
    "255",
    "-1",
    "99999999999",
    "\"",
    "\"ab\"",
    "'c'",
    ";",
    ":",
    "<>",
    "<=",
    "!",
    "&",
    "|",
    "^",
    "<<",
    ">>",
    "[",
    "]",
    "calc",
    "hilo",
    "0",
    "1",
    "3",
    "\t",
    " ",
    "é",
    "\u{0}",
    "$0801",
    "repeat 0,3,i",
    "defm M",
    "M 1,2",
];

fn random_line(rng: &mut Rng) -> String {
    let mut line = String::new();
    if rng.usize(..3) == 0 {
        line.push(' ');
    }
    for _ in 0..rng.usize(..7) {
        if rng.usize(..10) == 0 {
            // Raw random characters, printable or not.
            let c = char::from_u32(rng.usize(..0x250) as u32).unwrap_or('?');
            line.push(c);
        } else {
            line.push_str(PIECES[rng.usize(..PIECES.len())]);
        }
        if rng.usize(..2) == 0 {
            line.push(' ');
        }
    }
    line
}

#[test]
fn random_lines_never_panic() {
    let mut rng = Rng::with_seed(0x9E37_79B9_7F4A_7C15);
    let opts = Options::default();
    let mut failures = 0;
    // C64KIT_FUZZ_ITERS=200000 for a longer run by hand.
    let iters: usize = std::env::var("C64KIT_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
        .max(3000);
    for _ in 0..iters {
        let n = 1 + rng.usize(..12);
        let src: Vec<String> = (0..n).map(|_| random_line(&mut rng)).collect();
        let src = src.join("\n");
        if assemble_source("fuzz.asm", &src, &opts).is_err() {
            failures += 1;
        }
    }
    // Almost all random programs are wrong; this checks the generator is not trivial.
    assert!(
        failures > 1000,
        "only {failures} of 3000 random programs failed"
    );
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::with_seed(12345);
    for _ in 0..500 {
        let bytes: Vec<u8> = (0..rng.usize(..300)).map(|_| rng.u8(..)).collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = assemble_source("bytes.asm", &text, &Options::default());
    }
}

#[test]
fn pathological_inputs_finish() {
    let cases = [
        "defm A\n A\n endm\n A\n".to_string(),
        " repeat 65536\n repeat 65536\n nop\n endrepeat\n endrepeat\n".to_string(),
        format!(" byte {}1{}\n", "(".repeat(5000), ")".repeat(5000)),
        format!(" byte {}1\n", "-".repeat(5000)),
        format!(" byte {}1\n", "<".repeat(5000)),
        "*=$FFFF\n repeat 1000\n nop\n endrepeat\n".to_string(),
        " if\n endif\n".to_string(),
        " repeat\n endrepeat\n".to_string(),
        "x = x + 1\n".to_string(),
        "a = b\nb = a\n".to_string(),
        "@\n:\n*\n*=\n=\n".to_string(),
        " repeat $7FFFFFFFFFFFFFFF, -$7FFFFFFFFFFFFFFF, i\n endrepeat\n".to_string(),
        " bne -$7FFFFFFFFFFFFFFF-1\n".to_string(),
        " lda #$7FFFFFFFFFFFFFFF*$7FFFFFFFFFFFFFFF+(-$7FFFFFFFFFFFFFFF-1)/-1\n".to_string(),
        " align -$7FFFFFFFFFFFFFFF-1\n".to_string(),
        " byte 1 << 99, 1 >> -5, -$7FFFFFFFFFFFFFFF-1-1\n lda 99999\n".to_string(),
    ];
    for src in cases {
        let r = assemble_source("p.asm", &src, &Options::default());
        assert!(r.is_err(), "expected an error for {src:?}");
    }
}
