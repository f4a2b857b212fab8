//! Writes the generated part of the seed corpus: PRGs, T64 tapes and D64 disks (in the d64
//! target's compact form, plus one whole image), built with c64kit's own tokenizer and the
//! loaders' `build_image` helpers. The text seeds are copied by hand from the repository's
//! test data and programs.
//!
//! `cargo run -p c64kit-fuzz --example make-seeds` (rewrites the files it makes).

use std::path::Path;

fn write(target: &str, name: &str, bytes: &[u8]) {
    let dir = c64kit_fuzz::seeds_dir(target);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    println!("{:>7} bytes  {}", bytes.len(), path.display());
}

fn tokenize(src: &str) -> Vec<u8> {
    c64kit_basic::tokenize(src, 0x0801).unwrap()
}

fn main() {
    // A BASIC stub followed by machine code, as the assembler makes programs.
    let mut stub = tokenize("10 SYS 2064\n");
    stub.resize(2 + 0x0810 - 0x0801, 0);
    stub.extend_from_slice(&[0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x60]);
    let basic = tokenize(
        "10 REM HELLO {CLR}\n20 PRINT \"HI{RVS ON}\";:GOTO 40\n30 DATA 1,2,\"A:B\"\n\
         40 IF X<>1 THEN ? ~*2\n50 POKE 53280,0:SYS 49152\n",
    );
    let ramunder = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../programs/ramunder/ramunder.asm"),
    )
    .unwrap();
    let ramunder = c64kit_asm::assemble_source(
        "ramunder.asm",
        std::str::from_utf8(&ramunder).unwrap(),
        &c64kit_asm::Options::default(),
    )
    .unwrap()
    .prg();
    let code = [0x00, 0xC0, 0xA2, 0x00, 0xE8, 0xD0, 0xFD, 0x60];
    // A link chain that loops back to its own line.
    let mut looping = tokenize("10 PRINT 1\n20 PRINT 2\n");
    looping[2] = 0x01;
    looping[3] = 0x08;
    write("prg", "stub.prg", &stub);
    write("prg", "basic.prg", &basic);
    write("prg", "ramunder.prg", &ramunder);
    write("prg", "code-c000.prg", &code);
    write("prg", "looping-link.prg", &looping);

    let t = |name, files: &[(&str, u16, &[u8])]| c64kit_loader_t64::build_image(name, files);
    write("t64", "one.t64", &t("ONE", &[("STUB", 0x0801, &stub[2..])]));
    write(
        "t64",
        "two.t64",
        &t(
            "TWO FILES",
            &[("BASIC", 0x0801, &basic[2..]), ("CODE", 0xC000, &code[2..])],
        ),
    );
    let mut wrong_end = t("WRONG END", &[("A", 0x0801, &stub[2..])]);
    wrong_end[64 + 4] = 0xC6;
    wrong_end[64 + 5] = 0xC3;
    write("t64", "wrong-end.t64", &wrong_end);
    write("t64", "empty.t64", &t("EMPTY", &[]));

    let d = |files: &[(&str, &[u8])]| c64kit_loader_d64::build_image("FUZZ DISK", "FZ", files);
    let big: Vec<u8> = [0x00, 0x10]
        .into_iter()
        .chain((0..1200u32).map(|i| (i * 7) as u8))
        .collect();
    write(
        "d64",
        "one.d64c",
        &c64kit_fuzz::d64_compact(&d(&[("STUB", &stub)])),
    );
    write(
        "d64",
        "three.d64c",
        &c64kit_fuzz::d64_compact(&d(&[
            ("BASIC", &basic),
            ("CODE", &code),
            ("RAMUNDER", &ramunder),
        ])),
    );
    write(
        "d64",
        "multi-sector.d64c",
        &c64kit_fuzz::d64_compact(&d(&[("BIG", &big)])),
    );
    let names: Vec<String> = (0..10).map(|i| format!("FILE{i}")).collect();
    let many: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &code[..])).collect();
    write(
        "d64",
        "two-dir-sectors.d64c",
        &c64kit_fuzz::d64_compact(&d(&many)),
    );
    write("d64", "empty.d64c", &c64kit_fuzz::d64_compact(&d(&[])));
    // One whole image: the size check and the raw path.
    write("d64", "whole.d64", &d(&[("STUB", &stub), ("CODE", &code)]));
}
