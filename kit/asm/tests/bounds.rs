//! The limits on time, memory and reading: sources made to make the assembler work for
//! ever or fill the memory end with one error naming the file and line, and files beyond
//! their useful size or not regular files are refused. Every case here stays fast in the
//! unoptimised test build; the times of the worst cases with the release build are in
//! docs/assembler.md ("Limits").

use c64kit_asm::limits::*;
use c64kit_asm::{assemble_file, assemble_project, assemble_source, Errors, Options};
use std::path::Path;

fn errors(name: &str, src: &str) -> Errors {
    match assemble_source(name, src, &Options::default()) {
        Ok(a) => panic!("expected errors, got {} bytes", a.bytes.len()),
        Err(e) => e,
    }
}

/// The one error of a source that must fail, as "file:line: message".
fn one_error(src: &str) -> String {
    let e = errors("t.asm", src);
    assert_eq!(e.0.len(), 1, "expected one error, got {e}");
    e.0[0].to_string()
}

fn work_error() -> String {
    format!(
        "more than {MAX_WORK} units of work in all passes together (a unit per character of \
         each line run, each time, and per byte placed: a runaway macro or repeat?)"
    )
}

#[test]
fn an_exponential_macro_with_long_lines_runs_out_of_work() {
    // m20 expands to 2^20 lines of 10,000 characters: 10 GB of text. The statement count
    // (a million a pass) would allow it all; the work budget stops it at 32 MB.
    let mut src = format!("*=$1000\ndefm m0\n nop ; {}\nendm\n", "x".repeat(10_000));
    for i in 1..=20 {
        src += &format!(
            "defm m{i}\n m{} ; {}\n m{}\nendm\n",
            i - 1,
            "y".repeat(10_000),
            i - 1
        );
    }
    src += " m20\n";
    let e = errors("t.asm", &src);
    assert_eq!(e.0.len(), 1, "{e}");
    // At the line of a macro body that was running when the budget ran out.
    let (file, line) = (&e.0[0].file, e.0[0].line);
    assert!(file == "t.asm" && line > 2 && line < 85, "{e}");
    let e = e.0[0].to_string();
    assert!(e.contains(&work_error()), "{e}");
    // Where it came from, without all the levels.
    assert!(e.contains("(in macro m20 called at t.asm:85, ... "), "{e}");
    assert!(e.len() < 600, "{} characters: {e}", e.len());
}

#[test]
fn a_macro_that_doubles_its_argument_stops_at_the_line_length() {
    let e = one_error(&format!("defm r\n r /1/1\nendm\n r {}\n", "z".repeat(1000)));
    assert!(
        e.starts_with(&format!(
            "t.asm:2: line is longer than {MAX_LINE_CHARS} characters once macro parameters \
             are replaced (in macro r called at t.asm:4, "
        )),
        "{e}"
    );
}

#[test]
fn endless_recursion_and_repeats_end_with_the_statement_limit() {
    // Each call runs the macro twice: 2^64 calls, cut off at a million statements.
    let e = one_error("defm m\n m\n m\nendm\n m\n");
    assert!(
        e.starts_with(&format!(
            "t.asm:3: more than {MAX_STATEMENTS} statements in one pass (endless repeat or \
             macro recursion?) (in macro m called at t.asm:5, ... "
        )),
        "{e}"
    );
    // A program that never settles runs 20 passes: all of them together are bounded too.
    let e = one_error(
        "*=$00F0\n if end < $100\n byte 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n endif\n \
         repeat 400\n repeat 1000\n\n endrepeat\n endrepeat\nend\n",
    );
    assert_eq!(
        e,
        format!("t.asm:7: more than {MAX_TOTAL_STATEMENTS} statements in all passes together")
    );
}

#[test]
fn bytes_placed_count_as_work() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.bin"), vec![0u8; 1 << 20]).unwrap();
    let main = dir.path().join("m.asm");
    std::fs::write(
        &main,
        "*=$1000\n repeat 65536\n incbin \"b.bin\"\n endrepeat\n",
    )
    .unwrap();
    let e = assemble_file(&main, &Options::default()).unwrap_err();
    assert_eq!(e.0.len(), 1, "{e}");
    assert!(e.0[0].file.ends_with("m.asm") && e.0[0].line == 3, "{e}");
    assert_eq!(e.0[0].message, work_error());
}

#[test]
fn looking_for_files_counts_as_work() {
    let dir = tempfile::tempdir().unwrap();
    let main = dir.path().join("m.asm");
    // Each folder up is a look at the file system (until the path is too long for the
    // system: about 1,300 of them); 20 such names are more than the budget.
    let up = "../".repeat(5000);
    let mut src = "*=$1000\n nop\n".to_string();
    for i in 0..20 {
        src += &format!(" incasm \"{up}x{i}.asm\"\n");
    }
    std::fs::write(&main, src).unwrap();
    let e = assemble_file(&main, &Options::default()).unwrap_err();
    assert_eq!(e.0.len(), 1, "{e}");
    assert!(e.0[0].file.ends_with("m.asm"), "{e}");
    assert!((4..=22).contains(&e.0[0].line), "{e}");
    assert_eq!(e.0[0].message, work_error());
    // 1,000 up fit, and a name is looked for once however often it is used: a thousand
    // repeats are a thousand "cannot find" errors (the first 200 of them), not a thousand
    // walks up the folders.
    let up = "../".repeat(1000);
    std::fs::write(
        &main,
        format!("*=$1000\n repeat 1000\n incbin \"{up}y.bin\"\n endrepeat\n"),
    )
    .unwrap();
    let e = assemble_file(&main, &Options::default()).unwrap_err();
    assert_eq!(e.0.len(), 200, "{e}");
    assert!(
        e.0[199].message.starts_with("cannot find file '../../"),
        "{e}"
    );
}

#[test]
fn a_hundred_thousand_nested_ifs_are_fine() {
    let n = 100_000;
    let src = format!(
        "*=$1000\n{} nop\n{}",
        " if 1\n".repeat(n),
        " endif\n".repeat(n)
    );
    let a = assemble_source("t.asm", &src, &Options::default()).unwrap();
    assert_eq!(a.bytes, [0xEA]);
    // Inside a false one, nothing is assembled, and the else of the outermost still is.
    let src = format!(
        "*=$1000\n if 0\n{} nop\n{} else\n rts\n endif\n",
        " if 1\n".repeat(n),
        " endif\n".repeat(n)
    );
    let a = assemble_source("t.asm", &src, &Options::default()).unwrap();
    assert_eq!(a.bytes, [0x60]);
    // Left open, each is reported (up to the error limit) at its own line.
    let e = errors("t.asm", &" if 1\n".repeat(n));
    assert_eq!(e.0.len(), 200);
    assert_eq!(e.0[0].to_string(), "t.asm:1: 'if' without 'endif'");
}

#[test]
fn deeply_nested_repeats_stop_at_the_nesting_limit() {
    let n = 100_000;
    let src = format!(
        "*=$1000\n{} nop\n{}",
        " repeat 1\n".repeat(n),
        " endrepeat\n".repeat(n)
    );
    let e = errors("t.asm", &src);
    assert_eq!(
        e.0[0].to_string(),
        format!(
            "t.asm:{}: macros, includes and repeats nested too deeply (more than {MAX_NESTING} \
             levels: recursion?)",
            MAX_NESTING + 2
        )
    );
}

#[test]
fn a_10_mb_line_is_refused_at_its_line() {
    let src = format!("*=$1000\n lda #1 ; {}\n", "c".repeat(10_000_000));
    assert_eq!(
        one_error(&src),
        format!("t.asm:2: line is 10000010 characters long (at most {MAX_LINE_CHARS})")
    );
    // In a file, and in an included file (reported there, not at the incasm).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("long.asm"), src.as_bytes()).unwrap();
    let main = dir.path().join("main.asm");
    std::fs::write(&main, " nop\n incasm \"long.asm\"\n").unwrap();
    let e = assemble_file(&main, &Options::default()).unwrap_err();
    assert_eq!(e.0.len(), 1, "{e}");
    assert!(e.0[0].file.ends_with("long.asm") && e.0[0].line == 2, "{e}");
}

/// A file of `len` zero bytes that takes no disk space.
fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

#[test]
fn files_beyond_their_useful_size_are_refused_by_their_size() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    sparse(&d.join("big.cbmprj"), 150_000_000);
    let e = assemble_project(&d.join("big.cbmprj"), &Options::default()).unwrap_err();
    assert!(
        e.to_string().ends_with(
            "big.cbmprj: 143.1 MiB is more than a project file can be (4096 KiB): refused"
        ),
        "{e}"
    );
    sparse(&d.join("big.bin"), MAX_INCBIN_BYTES + 1);
    std::fs::write(d.join("m.asm"), "*=$1000\n incbin \"big.bin\", 0, 2\n").unwrap();
    let e = assemble_file(&d.join("m.asm"), &Options::default()).unwrap_err();
    assert!(e.to_string().contains("m.asm:2: "), "{e}");
    assert!(
        e.to_string()
            .contains("big.bin: 2048.0 KiB is more than an incbin file can be (2048 KiB)"),
        "{e}"
    );
    sparse(&d.join("big.asm"), MAX_SOURCE_BYTES + 1);
    std::fs::write(d.join("m.asm"), " incasm \"big.asm\"\n").unwrap();
    let e = assemble_file(&d.join("m.asm"), &Options::default()).unwrap_err();
    assert!(e.to_string().contains("m.asm:1: "), "{e}");
    assert!(
        e.to_string()
            .contains("is more than a source file can be (16 MiB)"),
        "{e}"
    );
}

#[test]
fn all_files_together_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Each source is allowed (zero bytes: one long line, an error of its own), but not all
    // three together.
    let each = MAX_READ_BYTES / 3 + 1;
    let mut main = String::new();
    for i in 0..3 {
        sparse(&d.join(format!("s{i}.asm")), each);
        main += &format!(" incasm \"s{i}.asm\"\n");
    }
    std::fs::write(d.join("m.asm"), main).unwrap();
    let e = assemble_file(&d.join("m.asm"), &Options::default()).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("m.asm:3: "), "{text}");
    assert!(
        text.contains("the files of this assembly together are more than 24 MiB"),
        "{text}"
    );
}

#[test]
fn errors_quote_at_most_about_200_characters_of_the_source() {
    let long = "q".repeat(10_000);
    for src in [
        format!(" {long}\n"),
        format!(" lda {long}\n"),
        format!(" text \"{long}\n"),
        format!(" lda #1 {long}\n"),
        format!(" lda #\"{long}\"\n"),
        format!("{long} nop\n{long} nop\n"),
        format!(" incasm \"{long}\"\n"),
        format!(" lda ${long}\n"),
        format!("defm {long}\nendm\ndefm {long}\nendm\n"),
    ] {
        let e = errors("t.asm", &src);
        for e in &e.0 {
            let text = e.to_string();
            assert!(text.len() < 320, "{} characters: {text:.400}", text.len());
            assert!(text.contains("more characters)"), "{text:.400}");
        }
    }
}

#[test]
fn latin1_sources_are_read_byte_for_byte() {
    // CBM prg Studio runs on Windows, whose editors save Latin-1/CP1252: 0xA3 is '£'.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("l.asm");
    std::fs::write(&p, b"*=$1000\n text \"\xA3\" ; caf\xE9\n").unwrap();
    let a = assemble_file(&p, &Options::default()).unwrap();
    assert_eq!(a.bytes, [0x5C]);
}

#[test]
fn the_work_budget_can_be_lowered_but_not_raised() {
    // 2,000 lines of 1,000 characters: 2 M units a pass.
    let src = format!(
        "*=$1000\nrepeat 2000\n nop ; {}\nendrepeat\n",
        "y".repeat(1_000)
    );
    let with = |max_work| Options {
        max_work: Some(max_work),
        ..Options::default()
    };
    assert!(assemble_source("t.asm", &src, &Options::default()).is_ok());
    let e = assemble_source("t.asm", &src, &with(1_000_000)).unwrap_err();
    assert!(
        e.to_string().contains("more than 1000000 units of work"),
        "{e}"
    );
    // Asking for more than the default gets the default.
    let huge = "x".repeat(10_000);
    let mut runaway = format!("*=$1000\ndefm m0\n nop ; {huge}\nendm\n");
    for i in 1..=16 {
        runaway += &format!("defm m{i}\n m{}\n m{}\nendm\n", i - 1, i - 1);
    }
    runaway += " m16\n";
    let e = assemble_source("t.asm", &runaway, &with(u64::MAX)).unwrap_err();
    assert!(
        e.to_string()
            .contains(&format!("more than {MAX_WORK} units")),
        "{e}"
    );
}
