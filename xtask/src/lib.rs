//! What xtask's two binaries share: where the checkout and its target folder are, how
//! paths are shown, and `build` (our programs into target/programs).

// Standard output and error go through c64kit_files::stdio (outln!, errln!), which never
// panics; println! and eprintln! panic when the reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

use c64kit_files::{io_reason, outln};
use std::path::{Path, PathBuf};

/// What xtask writes to standard output, for the message when it cannot.
pub const WHAT: &str = "the results";

/// The checkout: xtask's parent folder, spelled without `..` so the paths shown are clean.
pub fn workspace_root() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().unwrap_or(xtask).to_path_buf()
}

/// The cargo that runs us (so the same toolchain), else the one on PATH.
pub fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// target/ of the workspace.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
}

/// A path as shown to the user: relative to the current folder when it is inside it
/// (target/programs/ryg3-v10.prg), else as it is.
pub fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|here| path.strip_prefix(here).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

/// Assembles every project into target/programs.
pub fn build() -> Result<(), String> {
    let out = target_dir().join("programs");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut errors = Vec::new();
    for (name, path) in c64kit_programs::projects() {
        match c64kit_programs::build_project(&path) {
            Ok(prg) => {
                let file = out.join(format!("{name}.prg"));
                c64kit_files::write_output(&file, &prg.to_bytes())
                    .map_err(|e| format!("{}: {}", file.display(), io_reason(&e)))?;
                outln!(
                    WHAT,
                    "{:<12} ${:04X}-${:04X} {:>6} bytes -> {}",
                    name,
                    prg.load_address,
                    prg.end_address(),
                    prg.data.len(),
                    shown(&file)
                );
            }
            Err(e) => errors.push(format!("{}:\n{e}", path.display())),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_shown_are_clean() {
        use std::path::Component;
        let root = workspace_root();
        assert!(
            !root.components().any(|c| c == Component::ParentDir),
            "{}",
            root.display()
        );
        assert!(root.join("Cargo.lock").is_file(), "{}", root.display());
        let here = std::env::current_dir().unwrap();
        let inside = here.join("target").join("x.prg");
        assert_eq!(
            shown(&inside),
            Path::new("target").join("x.prg").display().to_string()
        );
        let elsewhere = Path::new("/nowhere/x.prg");
        assert_eq!(shown(elsewhere), "/nowhere/x.prg");
    }
}
