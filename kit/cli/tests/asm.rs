//! `c64kit asm` on a teaching program's layout (a folder of .asm files and a shared lib/
//! folder, no project file), and `c64kit run --labels` with the label file it writes.

mod common;

use common::{assert_stderr_has, c64kit, stderr_of, write};
use std::path::Path;

/// main.asm and util.asm in build order, a macro in lib/: the BASIC stub, then
/// $0820 main: print "hi" (screen codes) to the screen, set the border, call wait.
fn teaching_folder(dir: &Path) {
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    write(
        dir,
        "main.asm",
        b"; 10 SYS2080\n*=$0801\n byte $0B,$08,$0A,$00,$9E,\"2080\",0,0,0\n*=$0820\n\
          main    ldx #0\nloop    lda msg,x\n        beq done\n        sta $0400,x\n\
          \x20       inx\n        bne loop\ndone    incasm macros.asm\n        border 2\n\
          \x20       jsr Wait\n        rts\n",
    );
    write(
        dir,
        "util.asm",
        b"wait   ldy #3\nloop   dey\n       bne loop\n       rts\nmsg    text 'hi'\n       byte 0\n",
    );
    write(
        &dir.join("lib"),
        "macros.asm",
        b"defm border\n lda #/1\n sta $d020\nendm\n",
    );
}

/// What the folder assembles to, worked out by hand.
fn teaching_prg() -> Vec<u8> {
    let mut prg = vec![0x01, 0x08];
    prg.extend([
        0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0,
    ]);
    prg.resize(2 + 0x20 - 0x01, 0); // padding up to $0820
    prg.extend([
        0xA2, 0x00, // $0820 main: LDX #0
        0xBD, 0x3C, 0x08, // $0822 loop: LDA msg,X
        0xF0, 0x06, // $0825 BEQ done ($082D)
        0x9D, 0x00, 0x04, // $0827 STA $0400,X
        0xE8, // $082A INX
        0xD0, 0xF5, // $082B BNE loop
        0xA9, 0x02, // $082D done: border 2 = LDA #2
        0x8D, 0x20, 0xD0, //         STA $D020
        0x20, 0x36, 0x08, // $0832 JSR Wait (wait, $0836)
        0x60, // $0835 RTS
        0xA0, 0x03, // $0836 wait: LDY #3
        0x88, // $0838 loop (util.asm's own): DEY
        0xD0, 0xFD, // $0839 BNE loop
        0x60, // $083B RTS
        0x08, 0x09, 0x00, // $083C msg: 'hi' in screen codes, 0
    ]);
    prg
}

#[test]
fn a_folder_of_sources_and_a_lib_folder_assembles() {
    let dir = tempfile::tempdir().unwrap();
    teaching_folder(dir.path());
    let out = c64kit()
        .current_dir(dir.path())
        .args([
            "asm",
            "main.asm",
            "util.asm",
            "-I",
            "lib",
            "-o",
            "x.prg",
            "--labels",
            "x.lbl",
            "--listing",
            "x.lst",
        ])
        .assert()
        .code(0);
    assert_stderr_has(&out, "x.prg: $0801-$083F (62 bytes)");
    assert_eq!(
        std::fs::read(dir.path().join("x.prg")).unwrap(),
        teaching_prg()
    );
    // The first `loop` (main.asm's) names the address; util.asm's has its own.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("x.lbl")).unwrap(),
        "al C:082d .done\nal C:0822 .loop\nal C:0820 .main\nal C:083c .msg\nal C:0836 .wait\n"
    );
    let listing = std::fs::read_to_string(dir.path().join("x.lst")).unwrap();
    assert!(
        listing.contains("$082D  A9 02                    lib/macros.asm:2   lda #2\n"),
        "{listing}"
    );
    assert!(
        listing.contains("$0838  88                       util.asm:2        loop   dey\n"),
        "{listing}"
    );
    // Without the include folder the macro file is not found, and the error says where
    // it was looked for.
    let out = c64kit()
        .current_dir(dir.path())
        .args(["asm", "main.asm", "util.asm", "-o", "y.prg"])
        .assert()
        .code(1);
    assert_stderr_has(&out, "main.asm:11: cannot find file 'macros.asm'");
    // Without -o the PRG is named after the first file; --list is the listing too.
    c64kit()
        .current_dir(dir.path())
        .args([
            "asm", "main.asm", "util.asm", "-I", "lib", "--list", "m.lst",
        ])
        .assert()
        .code(0);
    assert_eq!(
        std::fs::read(dir.path().join("main.prg")).unwrap(),
        teaching_prg()
    );
    assert!(dir.path().join("m.lst").is_file());
}

#[test]
fn ambiguous_references_are_warned_about() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.asm", b"*=$1000\nloop dex\n bne loop\n");
    write(dir.path(), "b.asm", b"loop dey\n bne loop\n");
    write(dir.path(), "c.asm", b" jmp loop\n");
    let out = c64kit()
        .current_dir(dir.path())
        .args(["asm", "a.asm", "b.asm", "c.asm", "-o", "x.prg"])
        .assert()
        .code(0);
    assert_stderr_has(
        &out,
        "c.asm:1: warning: 'loop' is defined in several files (a.asm:2, b.asm:1) but not in \
         this one: this uses the first, a.asm:2\n",
    );
    assert_eq!(
        std::fs::read(dir.path().join("x.prg")).unwrap(),
        [0x00, 0x10, 0xCA, 0xD0, 0xFD, 0x88, 0xD0, 0xFD, 0x4C, 0x00, 0x10]
    );
}

#[test]
fn a_project_is_assembled_alone() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.cbmprj", b"<Project/>");
    write(dir.path(), "a.asm", b" rts\n");
    let out = c64kit()
        .current_dir(dir.path())
        .args(["asm", "a.asm", "p.cbmprj"])
        .assert()
        .code(1);
    assert_stderr_has(&out, "p.cbmprj: a project is assembled on its own");
}

/// The teaching folder assembled to x.prg with its labels in x.lbl.
fn assembled_teaching_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    teaching_folder(dir.path());
    c64kit()
        .current_dir(dir.path())
        .args(["asm", "main.asm", "util.asm", "-I", "lib", "-o", "x.prg"])
        .args(["--labels", "x.lbl"])
        .assert()
        .code(0);
    dir
}

#[test]
fn run_breaks_at_labels_and_names_them() {
    let dir = assembled_teaching_folder();
    // The breakpoint stops the run (exit code 5) when the PC reaches wait ($0836).
    let out = c64kit()
        .current_dir(dir.path())
        .args(["run", "x.prg", "--labels", "x.lbl", "--break", "wait"])
        .args(["--trace", "t.txt"])
        .assert()
        .code(5);
    assert_stderr_has(&out, "c64kit: breakpoint at $0836 (.wait) after ");
    // The trace names the labelled addresses after their lines.
    let trace = std::fs::read_to_string(dir.path().join("t.txt")).unwrap();
    let lines: Vec<&str> = trace.lines().collect();
    assert!(
        lines[0].starts_with(".C:0820  A2 00     LDX #$00") && lines[0].ends_with("  .main"),
        "{trace}"
    );
    assert!(lines[1].ends_with("  .loop"), "{trace}");
    assert!(lines[2].ends_with(" 6"), "no label at $0825: {trace}");
    // `.name` (VICE's way) and an offset work too: done+2 is the STA $D020 at $082F.
    let out = c64kit()
        .current_dir(dir.path())
        .args(["run", "x.prg", "--labels", "x.lbl", "--break", ".done+2"])
        .assert()
        .code(5);
    assert_stderr_has(&out, "c64kit: breakpoint at $082F after ");
    // Plain addresses need no labels.
    let out = c64kit()
        .current_dir(dir.path())
        .args(["run", "x.prg", "--break", "$0836"])
        .assert()
        .code(5);
    assert_stderr_has(&out, "c64kit: breakpoint at $0836 after ");
}

#[test]
fn unknown_labels_are_clear_errors() {
    let dir = assembled_teaching_folder();
    let out = c64kit()
        .current_dir(dir.path())
        .args(["run", "x.prg", "--labels", "x.lbl", "--break", "nosuch"])
        .assert()
        .code(1);
    assert_eq!(
        stderr_of(&out),
        "c64kit: --break nosuch: the program has no label \"nosuch\" (in the label file \
         x.lbl)\n"
    );
    let out = c64kit()
        .current_dir(dir.path())
        .args(["run", "x.prg", "--break", "main"])
        .assert()
        .code(1);
    assert_stderr_has(
        &out,
        "--break main: \"main\" is not an address, and there are no labels to find it in \
         (give --labels FILE",
    );
    // The label file is an input: the trace may not overwrite it.
    let out = c64kit()
        .current_dir(dir.path())
        .args(["run", "x.prg", "--labels", "x.lbl", "--trace", "x.lbl"])
        .assert()
        .code(1);
    assert_stderr_has(&out, "the label file");
    assert!(std::fs::read_to_string(dir.path().join("x.lbl"))
        .unwrap()
        .starts_with("al C:"));
}
