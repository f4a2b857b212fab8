//! Assembles every project of programs/ at build time, so our programs (PRG and VICE label
//! file) are built into whatever uses this crate: an installed `c64kit conform` needs no
//! checkout. An assembly error is a build error naming the file and line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    let mut table = String::from("pub static BUILT_IN: &[BuiltIn] = &[\n");
    let mut failed = Vec::new();
    for (name, project) in projects(&root) {
        println!(
            "cargo:rerun-if-changed={}",
            project.parent().unwrap().display()
        );
        match c64kit_asm::assemble_path(&project, &c64kit_asm::Options::default()) {
            Ok(a) => {
                let prg = out.join(format!("{name}.prg"));
                let labels = out.join(format!("{name}.lbl"));
                std::fs::write(&prg, a.prg()).expect("OUT_DIR is writable");
                std::fs::write(&labels, a.vice_symbols()).expect("OUT_DIR is writable");
                writeln!(
                    table,
                    "    BuiltIn {{ name: {name:?}, prg: include_bytes!({:?}), labels: include_str!({:?}) }},",
                    prg.display().to_string(),
                    labels.display().to_string()
                )
                .unwrap();
            }
            Err(e) => failed.push(format!("{}:\n{e}", project.display())),
        }
    }
    table += "];\n";
    if !failed.is_empty() {
        eprintln!("our programs do not assemble:\n{}", failed.join("\n"));
        std::process::exit(1);
    }
    std::fs::write(out.join("built_in.rs"), table).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=build.rs");
    // The whole folder: a new project folder is a new program.
    println!("cargo:rerun-if-changed={}", root.display());
}

/// (name, project) for every `.cbmprj` one folder down, sorted by name.
fn projects(root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(root).into_iter().flatten().flatten() {
        // Our BASIC is a ROM, not a program: kit/basic-rom builds it.
        if dir.file_name() == "basic" {
            continue;
        }
        for f in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "cbmprj") {
                let name = p.file_stem().unwrap().to_string_lossy().to_string();
                out.push((name, p));
            }
        }
    }
    out.sort();
    out
}
