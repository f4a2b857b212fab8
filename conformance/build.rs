//! Builds the suite into the crate: the scenario files, our golden transcripts, and, from
//! ../shared/ryg beside the checkout, the published facts and the published program's
//! reference transcripts. An installed `c64kit conform` then needs nothing else. A build
//! without ../shared still works: its reports say the published transcripts are missing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let shared = root.join("../../shared/ryg");
    let mut code = String::new();
    table(&mut code, "SCENARIO_FILES", &root.join("scenarios"), "toml");
    table(&mut code, "GOLDEN_FILES", &root.join("golden"), "txt");
    table(
        &mut code,
        "REFERENCE_FILES",
        &shared.join("reference"),
        "txt",
    );
    let published = shared.join("published.md");
    println!("cargo:rerun-if-changed={}", published.display());
    if published.is_file() {
        writeln!(
            code,
            "pub static PUBLISHED: Option<&str> = Some(include_str!({:?}));",
            abs(&published)
        )
        .unwrap();
    } else {
        code += "pub static PUBLISHED: Option<&str> = None;\n";
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("suite_files.rs"), code).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=build.rs");
}

/// `pub static NAME: &[(&str, &str)]`: (file name, text) of every `*.ext` file in `dir`,
/// sorted by name; empty if the folder is missing.
fn table(code: &mut String, name: &str, dir: &Path, ext: &str) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    writeln!(code, "pub static {name}: &[(&str, &str)] = &[").unwrap();
    for f in files {
        let file = f.file_name().unwrap().to_string_lossy().to_string();
        writeln!(code, "    ({file:?}, include_str!({:?})),", abs(&f)).unwrap();
    }
    code.push_str("];\n");
}

fn abs(p: &Path) -> String {
    p.canonicalize()
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}
