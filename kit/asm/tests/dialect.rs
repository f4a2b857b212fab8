//! The CBM prg Studio dialect as its users write it (issue 17): labels in any case, labels
//! of the same name in several files, `incbin` without quotes, screen codes in single
//! quotes, `$(fb),y`, several files in build order, the listing and the label file.
//! Expected bytes are worked out by hand from the 6502 instruction set and the C64's
//! character codes.

use c64kit_asm::{assemble_files, assemble_source, Assembly, Options};
use std::path::{Path, PathBuf};

fn build(src: &str) -> Assembly {
    assemble_source("t.asm", src, &Options::default())
        .unwrap_or_else(|e| panic!("assembly failed:\n{e}\nsource:\n{src}"))
}

fn bytes(src: &str) -> Vec<u8> {
    build(src).bytes
}

fn error(src: &str) -> String {
    match assemble_source("t.asm", src, &Options::default()) {
        Ok(a) => panic!("assembled to {:02X?}, expected an error", a.bytes),
        Err(e) => e.to_string(),
    }
}

/// Writes the files (name, text) into a new folder; returns it with their paths.
fn folder(files: &[(&str, &[u8])]) -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    let paths = files
        .iter()
        .map(|(name, text)| {
            let p = dir.path().join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
            p
        })
        .collect();
    (dir, paths)
}

fn files(paths: &[PathBuf]) -> Assembly {
    assemble_files(paths, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn shown(p: &Path) -> String {
    p.display().to_string()
}

// ---- 1. Labels are not case-sensitive --------------------------------------------------

#[test]
fn a_label_is_one_label_in_any_case() {
    // STA abs: 8D lo hi, to dtTextLo at $1000 however it is spelt.
    let a = build("*=$1000\ndtTextLo byte 0\n sta dtTextlo\n sta DTTEXTLO\n");
    assert_eq!(a.bytes, [0x00, 0x8D, 0x00, 0x10, 0x8D, 0x00, 0x10]);
    // The label file and the symbols keep the definition's spelling.
    assert_eq!(a.vice_labels(), "al C:1000 .dtTextLo\n");
    assert_eq!(a.symbols["dtTextLo"], 0x1000);
    // Constants, local labels, ifdef and repeat variables too.
    assert_eq!(
        bytes("Screen = $0400\n*=$1000\n sta SCREEN\n ifdef screen\n byte 1\n endif\n"),
        [0x8D, 0x00, 0x04, 0x01]
    );
    assert_eq!(
        bytes("*=$1000\nmain\n@Loop dex\n bne @LOOP\n"),
        [0xCA, 0xD0, 0xFD]
    );
    assert_eq!(
        bytes("*=$1000\n repeat 0, 1, idx\ntab_idx byte IDX\n endrepeat\n word TAB_1\n"),
        [0x00, 0x01, 0x01, 0x10]
    );
}

#[test]
fn labels_in_macro_arguments_ignore_case() {
    let src = "defm put\n sta /1\n endm\n*=$1000\nValue byte 0\n put VALUE\n put value\n";
    assert_eq!(bytes(src), [0x00, 0x8D, 0x00, 0x10, 0x8D, 0x00, 0x10]);
}

#[test]
fn defines_ignore_case() {
    let opts = Options {
        defines: vec![("version".into(), 3)],
        ..Options::default()
    };
    let a = assemble_source("t.asm", "VERSION = 0\n*=$1000\n byte Version\n", &opts).unwrap();
    assert_eq!(a.bytes, [0x03]);
}

#[test]
fn names_differing_only_in_case_are_a_duplicate_in_one_file() {
    let e = error("*=$1000\nloop nop\nLOOP nop\n");
    assert_eq!(
        e,
        "t.asm:3: duplicate label 'LOOP' (first defined at t.asm:2)"
    );
}

#[test]
fn labels_ignore_case_across_files() {
    let (_d, p) = folder(&[
        ("a.asm", b"*=$1000\n jmp PrintText\n"),
        ("b.asm", b"printtext rts\n"),
    ]);
    assert_eq!(files(&p).bytes, [0x4C, 0x03, 0x10, 0x60]);
}

// ---- 2. incbin takes an unquoted file name ----------------------------------------------

#[test]
fn incbin_and_incasm_without_quotes() {
    let (_d, p) = folder(&[
        (
            "main.asm",
            b"*=$1000\n incbin Sprites.bin\n incbin sprites.bin, 1, 2\n incbin \"Sprites.bin\", 3\n \
              incbin 1st level.bin ; a comment\n incasm more.asm\n",
        ),
        ("Sprites.bin", &[1, 2, 3, 4]),
        ("1st level.bin", &[9]),
        ("more.asm", b" byte $AA\n"),
    ]);
    assert_eq!(files(&p[..1]).bytes, [1, 2, 3, 4, 2, 3, 4, 9, 0xAA]);
}

#[test]
fn incbin_without_a_name_is_an_error() {
    assert_eq!(error(" incbin\n"), "t.asm:1: 'incbin' needs a file name");
}

// ---- 3. A label may be defined in more than one file -----------------------------------

#[test]
fn each_file_references_its_own_label() {
    let (_d, p) = folder(&[
        ("a.asm", b"*=$1000\nloop dex\n bne loop\n"),
        ("b.asm", b"loop dey\n bne loop\n"),
    ]);
    let a = files(&p);
    assert_eq!(a.bytes, [0xCA, 0xD0, 0xFD, 0x88, 0xD0, 0xFD]);
    assert!(a.warnings.is_empty(), "{:?}", a.warnings);
    // Named once, by the first definition in build order.
    assert_eq!(a.vice_labels(), "al C:1000 .loop\n");
}

#[test]
fn a_files_own_label_wins_even_when_defined_further_down() {
    // b.asm's JMP goes to b's loop ($1005), not to a's ($1000), defined before it.
    let (_d, p) = folder(&[
        ("a.asm", b"*=$1000\nloop nop\n"),
        ("b.asm", b" jmp loop\n nop\nloop nop\n"),
    ]);
    assert_eq!(files(&p).bytes, [0xEA, 0x4C, 0x05, 0x10, 0xEA, 0xEA]);
}

#[test]
fn a_reference_from_a_third_file_takes_the_first_and_warns() {
    let (_d, p) = folder(&[
        ("a.asm", b"*=$1000\nloop dex\n bne loop\n"),
        ("b.asm", b"loop dey\n bne loop\n"),
        ("c.asm", b" jmp loop\n jmp other\n"),
        ("d.asm", b"other rts\n"),
    ]);
    let a = files(&p);
    assert_eq!(
        a.bytes,
        [0xCA, 0xD0, 0xFD, 0x88, 0xD0, 0xFD, 0x4C, 0x00, 0x10, 0x4C, 0x0C, 0x10, 0x60]
    );
    // A label only one file defines is no question: one warning, for `loop`.
    let (a_asm, b_asm, c_asm) = (shown(&p[0]), shown(&p[1]), shown(&p[2]));
    let warnings: Vec<String> = a.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [format!(
            "{c_asm}:1: 'loop' is defined in several files ({a_asm}:2, {b_asm}:1) but not in \
             this one: this uses the first, {a_asm}:2"
        )]
    );
}

#[test]
fn an_included_file_has_labels_of_its_own() {
    let (_d, p) = folder(&[
        (
            "a.asm",
            b"*=$1000\nloop dex\n bne loop\n incasm \"inc.asm\"\n",
        ),
        ("inc.asm", b"loop dey\n bne loop\n"),
    ]);
    assert_eq!(files(&p[..1]).bytes, [0xCA, 0xD0, 0xFD, 0x88, 0xD0, 0xFD]);
}

#[test]
fn a_macros_lines_belong_to_the_calling_file() {
    // The macro's `jmp dest` goes to the `dest` of the file that calls it.
    let (_d, p) = folder(&[
        ("m.asm", b"defm go\n jmp dest\n endm\n"),
        ("a.asm", b"*=$1000\ndest nop\n go\n"),
        ("b.asm", b"dest nop\n go\n"),
    ]);
    assert_eq!(
        files(&p).bytes,
        [0xEA, 0x4C, 0x00, 0x10, 0xEA, 0x4C, 0x04, 0x10]
    );
}

#[test]
fn constants_of_the_same_name_in_two_files() {
    let (_d, p) = folder(&[
        ("a.asm", b"N = 1\n*=$1000\n byte N\n"),
        ("b.asm", b"N = 2\n byte N\n"),
    ]);
    assert_eq!(files(&p).bytes, [1, 2]);
}

#[test]
fn one_file_named_twice_is_refused() {
    let (_d, p) = folder(&[("a.asm", b" rts\n")]);
    let e = assemble_files(&[p[0].clone(), p[0].clone()], &Options::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: named twice: each source file is assembled once",
            shown(&p[0])
        )
    );
}

// ---- 4. Single quotes give screen codes, double quotes PETSCII --------------------------

#[test]
fn single_quotes_are_screen_codes() {
    assert_eq!(bytes("*=$1000\n lda #'@'\n"), [0xA9, 0x00]);
    assert_eq!(
        bytes("*=$1000\n text 'puntos: '\n"),
        [0x10, 0x15, 0x0E, 0x14, 0x0F, 0x13, 0x3A, 0x20]
    );
    assert_eq!(
        bytes("*=$1000\n text \"puntos: \"\n"),
        [0x50, 0x55, 0x4E, 0x54, 0x4F, 0x53, 0x3A, 0x20]
    );
    // Upper case: the shifted set's letters, $41-$5A.
    assert_eq!(bytes("*=$1000\n byte 'AZ', 'a'+1\n"), [0x41, 0x5A, 0x02]);
    assert_eq!(
        bytes("*=$1000\n null 'ok'\n word 'z'\n"),
        [0x0F, 0x0B, 0x00, 0x1A, 0x00]
    );
    assert_eq!(bytes("*=$1000\n cmp #'0'\n"), [0xC9, 0x30]);
}

// ---- 5. `$` before the parenthesis of an indirect address -----------------------------

#[test]
fn dollar_before_the_parenthesis() {
    assert_eq!(
        bytes("*=$1000\n sta $(fb),y\n lda $(fb,x)\n LDA $(FB),Y\n jmp $(0314)\n"),
        [0x91, 0xFB, 0xA1, 0xFB, 0xB1, 0xFB, 0x6C, 0x14, 0x03]
    );
    assert_eq!(
        error("*=$1000\n lda $(ptr),y\n"),
        "t.asm:2: '$(' must be followed by hex digits, as in $(fb),y"
    );
}

// ---- 6. Several files in build order, include folders ---------------------------------

#[test]
fn later_files_may_place_code_below_earlier_ones() {
    let (_d, p) = folder(&[
        ("a.asm", b"*=$2000\n byte 1\n"),
        ("b.asm", b"*=$1ffe\n byte 2\n"),
    ]);
    let a = files(&p);
    assert_eq!(a.load_address, 0x1FFE);
    assert_eq!(a.bytes, [2, 0, 1]);
}

#[test]
fn overlapping_files_name_both() {
    let (_d, p) = folder(&[
        ("a.asm", b"*=$2000\n byte 1\n"),
        ("b.asm", b"*=$2000\n byte 2\n"),
    ]);
    let e = assemble_files(&p, &Options::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}:2: code at $2000 overlaps earlier code from {}:2",
            shown(&p[1]),
            shown(&p[0])
        )
    );
}

#[test]
fn includes_are_found_in_include_folders() {
    let (d, p) = folder(&[
        ("main.asm", b"*=$1000\n incasm \"macros.asm\"\n border 2\n"),
        (
            "lib/macros.asm",
            b"defm border\n lda #/1\n sta $d020\n endm\n",
        ),
    ]);
    let e = assemble_files(&p[..1], &Options::default()).unwrap_err();
    assert!(
        e.to_string().contains("cannot find file 'macros.asm'"),
        "{e}"
    );
    let opts = Options {
        include_dirs: vec![d.path().join("lib")],
        ..Options::default()
    };
    let a = assemble_files(&p[..1], &opts).unwrap();
    assert_eq!(a.bytes, [0xA9, 0x02, 0x8D, 0x20, 0xD0]);
    // The listing names the file where it was found.
    assert!(a.listing.contains("lib/macros.asm:2"), "{}", a.listing);
}

// ---- 7. The listing and the label file --------------------------------------------------

#[test]
fn listing_and_label_file() {
    let a = build("*=$0820\nmain lda #1\n jsr out\n rts\nout rts\nLIMIT = $C000\n");
    // Address, up to 8 bytes (23 columns), file:line, the source line.
    let line = |addr: &str, bytes: &str, at: usize, text: &str| {
        format!("{addr:<5}  {bytes:<23}  t.asm:{at}  {text}")
            .trim_end()
            .to_string()
            + "\n"
    };
    let expected = [
        line("$0801", "", 1, "*=$0820"),
        line("$0820", "A9 01", 2, "main lda #1"),
        line("$0822", "20 26 08", 3, " jsr out"),
        line("$0825", "60", 4, " rts"),
        line("$0826", "60", 5, "out rts"),
        line("$0827", "", 6, "LIMIT = $C000"),
        line("$0827", "", 7, ""),
    ];
    assert_eq!(a.listing, expected.concat());
    assert_eq!(a.vice_labels(), "al C:0820 .main\nal C:0826 .out\n");
    assert_eq!(
        a.vice_symbols(),
        "al C:c000 .LIMIT\nal C:0820 .main\nal C:0826 .out\n"
    );
}
