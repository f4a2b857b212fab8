//! `c64kit asm` on someone else's source or project, through the binary: a project's output
//! stays in its folder, sources name files relative to themselves (never absolute paths or
//! devices), only regular files of bounded size are read, and no output is ever one of the
//! files the assembly read. Every refusal names what is at fault and writes nothing.

use crate::common::c64kit;
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// Runs `c64kit asm ARGS`, expects exit 1, returns stderr.
fn refused(args: &[&str]) -> String {
    let out = c64kit().arg("asm").args(args).assert().code(1);
    String::from_utf8_lossy(&out.get_output().stderr).to_string()
}

/// Runs `c64kit asm ARGS`, expects success.
fn assembles(args: &[&str]) {
    c64kit().arg("asm").args(args).assert().success();
}

/// The files in `dir` (names, sorted): what a command left behind.
fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    v.sort();
    v
}

const MAIN: &str = "*=$c000\n lda #1\n rts\n";

fn project(output: &str, files: &[&str]) -> String {
    let list: String = files
        .iter()
        .map(|f| format!("<FileName>{f}</FileName>"))
        .collect();
    format!("<Project><OutputFile>{output}</OutputFile><BuildList>{list}</BuildList></Project>")
}

#[test]
fn a_project_output_with_dotdot_is_refused_unless_o_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("game");
    write(&d, "main.asm", MAIN);
    let prj = write(&d, "game.cbmprj", &project("..\\evil.prg", &["main.asm"]));
    let e = refused(&[&prj]);
    assert!(e.contains("game.cbmprj"), "{e}");
    assert!(
        e.contains("'..\\evil.prg' goes up out of the project's folder"),
        "{e}"
    );
    assert!(e.contains("give -o"), "{e}");
    assert_eq!(
        files(dir.path()),
        ["game"],
        "nothing written beside the project"
    );
    assert_eq!(files(&d), ["game.cbmprj", "main.asm"]);
    // With -o the project's name is not used.
    let out = dir.path().join("chosen.prg").display().to_string();
    assembles(&[&prj, "-o", &out]);
    assert_eq!(std::fs::read(&out).unwrap(), [0x00, 0xC0, 0xA9, 0x01, 0x60]);
    // A name inside the project's folder is fine, subfolders included.
    std::fs::create_dir(d.join("bin")).unwrap();
    write(&d, "game.cbmprj", &project("bin\\game.prg", &["main.asm"]));
    assembles(&[&prj]);
    assert!(d.join("bin/game.prg").is_file());
}

#[test]
fn an_absolute_project_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "main.asm", MAIN);
    let target = d.join("abs.prg").display().to_string();
    let prj = write(d, "p.cbmprj", &project(&target, &["main.asm"]));
    let e = refused(&[&prj]);
    assert!(e.contains("is an absolute path"), "{e}");
    assert!(!d.join("abs.prg").exists());
    // A Windows path from CBM prg Studio itself is absolute too.
    write(
        d,
        "p.cbmprj",
        &project("C:\\Users\\me\\p.prg", &["main.asm"]),
    );
    let e = refused(&[&prj]);
    assert!(
        e.contains("'C:\\Users\\me\\p.prg' is an absolute path"),
        "{e}"
    );
    assert_eq!(files(d), ["main.asm", "p.cbmprj"]);
}

#[test]
fn an_absolute_incasm_path_is_refused_but_a_relative_one_may_go_up() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let lib = write(d, "lib/x.asm", " nop\n");
    let src = write(
        d,
        "game/main.asm",
        &format!("*=$c000\n incasm \"../lib/x.asm\"\n incasm \"{lib}\"\n"),
    );
    let e = refused(&[&src]);
    assert!(e.contains("main.asm:3: "), "{e}");
    assert!(e.contains("is an absolute path"), "{e}");
    assert!(
        !e.contains("main.asm:2"),
        "the relative include is allowed: {e}"
    );
    assert!(!d.join("game/main.prg").exists());
    write(d, "game/main.asm", "*=$c000\n incasm \"..\\lib\\x.asm\"\n");
    assembles(&[&src]);
    assert_eq!(
        std::fs::read(d.join("game/main.prg")).unwrap(),
        [0x00, 0xC0, 0xEA]
    );
}

#[cfg(unix)]
#[test]
fn dev_zero_as_incbin_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = write(d, "m.asm", "*=$c000\n incbin \"/dev/zero\"\n");
    let e = refused(&[&src]);
    assert!(
        e.contains("m.asm:2: '/dev/zero' is an absolute path"),
        "{e}"
    );
    // Under a relative name (a link) it is still a device, refused before reading.
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.bin")).unwrap();
    write(d, "m.asm", "*=$c000\n incbin \"zero.bin\", 0, 16\n");
    let e = refused(&[&src]);
    assert!(e.contains("m.asm:2: "), "{e}");
    assert!(e.contains("zero.bin: is a character device"), "{e}");
    assert!(!d.join("m.prg").exists());
}

#[test]
fn a_directory_as_a_source_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("src.asm")).unwrap();
    let prj = write(d, "p.cbmprj", &project("p.prg", &["src.asm"]));
    let e = refused(&[&prj]);
    assert!(e.contains("build list: "), "{e}");
    assert!(e.contains("src.asm: is a folder, not a file"), "{e}");
    // Given directly, and through incasm.
    let e = refused(&[&d.join("src.asm").display().to_string()]);
    assert!(e.contains("is a folder, not a file"), "{e}");
    let m = write(d, "m.asm", " incasm \"src.asm\"\n");
    let e = refused(&[&m]);
    assert!(e.contains("m.asm:1: "), "{e}");
    assert!(e.contains("is a folder, not a file"), "{e}");
    assert!(!d.join("p.prg").exists() && !d.join("m.prg").exists());
}

#[test]
fn assembling_a_source_onto_itself_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "s.asm", MAIN);
    let e = refused(&[&src, "-o", &src]);
    assert!(
        e.contains(&format!("the output PRG {src} is a source file {src}")),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&src).unwrap(), MAIN);
    // Under another spelling of the same file too.
    let other = dir.path().join(".").join("s.asm").display().to_string();
    let e = refused(&[&src, "-o", &other]);
    assert!(e.contains("never writes over one of its inputs"), "{e}");
    assert_eq!(std::fs::read_to_string(&src).unwrap(), MAIN);
}

#[test]
fn a_listing_onto_an_included_source_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let inc_text = "VALUE = 7\n";
    let inc = write(d, "inc.asm", inc_text);
    write(
        d,
        "main.asm",
        "*=$c000\n incasm \"inc.asm\"\n lda #VALUE\n incbin \"b.bin\"\n",
    );
    let bin = write(d, "b.bin", "\u{1}");
    let prj = write(d, "p.cbmprj", &project("p.prg", &["main.asm"]));
    let e = refused(&[&prj, "--list", &inc]);
    assert!(
        e.contains(&format!("the listing {inc} is a source file")),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&inc).unwrap(), inc_text);
    // The PRG would have been fine, but a refused command writes nothing at all.
    assert!(!d.join("p.prg").exists());
    // The label file onto the incbin file, the PRG onto the project.
    let e = refused(&[&prj, "--labels", &bin]);
    assert!(e.contains("the label file"), "{e}");
    assert!(e.contains("an incbin file"), "{e}");
    let e = refused(&[&prj, "-o", &prj]);
    assert!(e.contains("a project file"), "{e}");
    // Two outputs onto one file.
    let lst = d.join("p.txt").display().to_string();
    let e = refused(&[&prj, "--list", &lst, "--labels", &lst]);
    assert!(e.contains("give each output its own name"), "{e}");
    assert_eq!(files(d), ["b.bin", "inc.asm", "main.asm", "p.cbmprj"]);
    // And with proper names all three are written.
    assemble_all(&prj, d);
}

fn assemble_all(prj: &str, d: &Path) {
    let lst = d.join("p.lst").display().to_string();
    let lbl = d.join("p.lbl").display().to_string();
    assembles(&[prj, "--list", &lst, "--labels", &lbl]);
    assert_eq!(
        std::fs::read(d.join("p.prg")).unwrap(),
        [0x00, 0xC0, 0xA9, 0x07, 0x01]
    );
    assert!(std::fs::read_to_string(&lst)
        .unwrap()
        .contains("lda #VALUE"));
}

#[test]
fn the_default_output_of_a_source_named_prg_is_not_the_source() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "x.prg", MAIN);
    assembles(&[&src]);
    assert_eq!(std::fs::read_to_string(&src).unwrap(), MAIN);
    assert_eq!(
        std::fs::read(dir.path().join("x-assembled.prg")).unwrap(),
        [0x00, 0xC0, 0xA9, 0x01, 0x60]
    );
    // A source with another extension gets .prg.
    let src = write(dir.path(), "y.s", MAIN);
    assembles(&[&src]);
    assert!(dir.path().join("y.prg").is_file());
}

#[test]
fn an_oversize_project_file_is_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let prj = dir.path().join("big.cbmprj");
    // 150 MB that take no disk space: the size alone refuses it.
    let f = std::fs::File::create(&prj).unwrap();
    f.set_len(150_000_000).unwrap();
    let e = refused(&[&prj.display().to_string()]);
    assert!(
        e.contains("big.cbmprj: 143.1 MiB is more than a project file can be (4096 KiB)"),
        "{e}"
    );
    // A source file likewise, by its own cap.
    let src = dir.path().join("big.asm");
    std::fs::File::create(&src)
        .unwrap()
        .set_len(20_000_000)
        .unwrap();
    let e = refused(&[&src.display().to_string()]);
    assert!(
        e.contains("is more than a source file can be (16 MiB)"),
        "{e}"
    );
}
