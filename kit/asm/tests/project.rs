//! The multi-file project under tests/data/demo, with the expected bytes worked out by
//! hand from its source (see the comments).

use c64kit_asm::{assemble_file, assemble_path, assemble_project, Options};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn expected() -> Vec<u8> {
    let mut v = vec![
        // $0801: 10 SYS2080 - next line $080B, line 10, SYS, "2080", end of line and program.
        0x0B, 0x08, 0x0A, 0x00, 0x9E, 0x32, 0x30, 0x38, 0x30, 0x00, 0x00, 0x00,
    ];
    // $080D-$081F: the project's padding byte 170.
    v.extend([0xAA; 0x13]);
    v.extend([
        0xA2, 0x00, // $0820 start: ldx #0
        0xBD, 0x3D, 0x08, // $0822 @loop: lda message,x (message = $083D)
        0xF0, 0x06, // $0825 beq @done ($082D)
        0x9D, 0x00, 0x04, // $0827 sta SCREEN,x
        0xE8, // $082A inx
        0xD0, 0xF5, // $082B bne @loop (-11)
        0xA9, 0x44, // $082D @done: lda #<squares ($0844)
        0x85, 0xFB, // $082F sta PTR (zero page)
        0xA9, 0x08, // $0831 lda #>squares
        0x85, 0xFC, // $0833 sta PTR+1
        0xA0, 0x03, // $0835 ldy #3
        0xB1, 0xFB, // $0837 lda (PTR),y
        0x8D, 0x00, 0xC0, // $0839 sta RESULT
        0x60, // $083C rts
        // tables.asm, $083D: "hi c64" in PETSCII, then 0.
        0x48, 0x49, 0x20, 0x43, 0x36, 0x34, 0x00, // $0844 squares: 0..7 squared.
        0, 1, 4, 9, 16, 25, 36, 49, // $084C lows: <sq_0 .. <sq_3.
        0x44, 0x45, 0x46, 0x47, // $0850 word start, squares.
        0x20, 0x08, 0x44, 0x08, // $0854 incbin "glyph.bin", 1, 3.
        0x02, 0x03, 0x04,
    ]);
    v
}

#[test]
fn demo_project_assembles_to_expected_bytes() {
    let a = assemble_project(&data("demo/demo.cbmprj"), &Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.load_address, 0x0801);
    assert_eq!(a.bytes, expected());
    assert_eq!(a.output_name.as_deref(), Some("demo.prg"));
    let prg = a.prg();
    assert_eq!(&prg[..2], &[0x01, 0x08]);
    assert_eq!(a.labels["start"], 0x0820);
    assert_eq!(a.labels["message"], 0x083D);
    assert_eq!(a.labels["sq_7"], 0x084B);
    assert_eq!(a.symbols["start@loop"], 0x0822);
    assert_eq!(a.symbols["SCREEN"], 0x0400);
    let vice = a.vice_labels();
    assert!(vice.contains("al C:0820 .start\n"), "{vice}");
    assert!(!vice.contains("SCREEN"), "constants are not labels: {vice}");
    assert!(a.listing.contains("main.asm:12"), "{}", a.listing);
    assert!(a.listing.contains("tables.asm:4"), "{}", a.listing);
    // The include is written "Consts.asm"; the listing shows the real file name.
    assert!(a.listing.contains("demo/consts.asm:1"), "{}", a.listing);
}

#[test]
fn dispatch_by_extension_and_padding_override() {
    let opts = Options {
        padding: Some(0),
        ..Options::default()
    };
    let a = assemble_path(&data("demo/demo.cbmprj"), &opts).unwrap();
    assert_eq!(a.bytes[0x0C..0x1F], [0u8; 0x13]);
}

#[test]
fn single_file_with_include() {
    // main.asm alone lacks tables.asm's labels.
    let e = assemble_path(&data("demo/main.asm"), &Options::default()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("main.asm:12: undefined label 'message'"),
        "{text}"
    );
    assert!(text.contains("undefined label 'squares'"), "{text}");
    assert_eq!(e.0.len(), 3, "{text}");
}

#[test]
fn missing_project_files() {
    // The path once, then the reason.
    let e = assemble_project(&data("nope.cbmprj"), &Options::default()).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("nope.cbmprj: "), "{text}");
    assert!(text.ends_with("No such file or directory"), "{text}");
    assert_eq!(text.matches("nope.cbmprj").count(), 1, "{text}");
    let e = assemble_file(&data("nope.asm"), &Options::default()).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("nope.asm: "), "{text}");
    assert!(text.ends_with("No such file or directory"), "{text}");
    assert_eq!(text.matches("nope.asm").count(), 1, "{text}");
    let dir = std::env::temp_dir().join(format!("c64kit-asm-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prj = dir.join("bad.cbmprj");
    std::fs::write(
        &prj,
        "<Project><BuildList><FileName>gone.asm</FileName></BuildList></Project>",
    )
    .unwrap();
    let e = assemble_project(&prj, &Options::default()).unwrap_err();
    assert!(
        e.to_string()
            .contains("build list: cannot find file 'gone.asm'"),
        "{e}"
    );
    std::fs::write(&prj, "<Project></Project>").unwrap();
    let e = assemble_project(&prj, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("no files in its <BuildList>"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A scratch folder with the given files, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str, files: &[(&str, &[u8])]) -> Scratch {
        let dir = std::env::temp_dir().join(format!("c64kit-asm-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, data) in files {
            std::fs::write(dir.join(name), data).unwrap();
        }
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

#[test]
fn include_errors_name_the_included_file() {
    let s = Scratch::new(
        "inc",
        &[
            ("main.asm", b"*=$1000\n incasm \"sub\\part.asm\"\n"),
            ("self.asm", b" incasm \"self.asm\"\n"),
            (
                "bin.asm",
                b"*=$1000\n incbin \"data.bin\", 2, 5\n incbin \"none.bin\"\n",
            ),
            ("data.bin", b"\x01\x02\x03\x04"),
        ],
    );
    std::fs::create_dir_all(s.0.join("sub")).unwrap();
    std::fs::write(s.0.join("sub/part.asm"), " nop\n lda #999\n").unwrap();
    let e = assemble_file(&s.0.join("main.asm"), &Options::default()).unwrap_err();
    assert_eq!(e.0.len(), 1, "{e}");
    assert!(e.0[0].file.ends_with("sub/part.asm"), "{e}");
    assert_eq!(e.0[0].line, 2);
    assert_eq!(e.0[0].message, "value 999 ($3E7) does not fit in a byte");

    let e = assemble_file(&s.0.join("self.asm"), &Options::default()).unwrap_err();
    assert!(e.to_string().contains("nested too deeply"), "{e}");

    let e = assemble_file(&s.0.join("bin.asm"), &Options::default()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("bin.asm:2: incbin range 2+5 is outside the file's 4 bytes"),
        "{text}"
    );
    assert!(
        text.contains("bin.asm:3: cannot find file 'none.bin'"),
        "{text}"
    );
}

#[test]
fn include_dirs_from_options() {
    let s = Scratch::new("dirs", &[("lib.asm", b"VALUE = 42\n")]);
    let opts = Options {
        include_dirs: vec![s.0.clone()],
        ..Options::default()
    };
    let a = c64kit_asm::assemble_source(
        "m.asm",
        " incasm \"lib.asm\"\n*=$1000\n lda #VALUE\n",
        &opts,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.bytes, vec![0xA9, 42]);
}
