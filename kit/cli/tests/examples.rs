//! The example programs of examples/: each assembles, and examples/examples.d64 holds exactly
//! what they assemble to (`UPDATE_GOLDENFILES=1 cargo test -p c64kit --test examples`
//! rewrites it). What they do when run is shown, and checked, in docs/first-program.md
//! (tests/docs.rs).

use std::path::{Path, PathBuf};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// The examples' programs as PRGs, by their name on the disk: each is one source file, or
/// (the joystick) two files in build order with a shared include folder.
fn assembled() -> Vec<(&'static str, Vec<u8>)> {
    let dir = examples();
    let options = c64kit_asm::Options {
        include_dirs: vec![dir.join("lib")],
        ..Default::default()
    };
    let builds: [(&str, Vec<PathBuf>); 3] = [
        ("HELLO", vec![dir.join("hello.asm")]),
        (
            "JOYSTICK",
            vec![dir.join("joystick/main.asm"), dir.join("joystick/ball.asm")],
        ),
        ("TUNE", vec![dir.join("tune.asm")]),
    ];
    builds
        .into_iter()
        .map(|(name, files)| {
            let asm = c64kit_asm::assemble_files(&files, &options)
                .unwrap_or_else(|e| panic!("{name} does not assemble:\n{e}"));
            (name, asm.prg())
        })
        .collect()
}

#[test]
fn every_example_assembles_and_the_disk_holds_them() {
    let programs = assembled();
    for (name, prg) in &programs {
        assert_eq!(
            &prg[..2],
            &[0x01, 0x08],
            "{name} loads at $0801, where RUN finds its SYS line"
        );
    }
    let files: Vec<(&str, &[u8])> = programs.iter().map(|(n, p)| (*n, p.as_slice())).collect();
    let image = c64kit_loader_d64::build_image("C64KIT EXAMPLES", "EX", &files);
    let golden = examples().join("examples.d64");
    let update = c64kit_conformance::golden_update_requested().unwrap_or_else(|e| panic!("{e}"));
    if update {
        std::fs::write(&golden, &image).unwrap();
        println!("UPDATED golden file {}", golden.display());
    }
    let committed = std::fs::read(&golden).unwrap_or_default();
    assert!(
        committed == image,
        "{} is not what the examples assemble to: an example changed? \
         UPDATE_GOLDENFILES=1 cargo test -p c64kit --test examples rewrites it",
        golden.display()
    );
}
