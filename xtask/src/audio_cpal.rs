//! `cargo xtask audio-cpal`: builds the live sound plugin, which lives outside the workspace
//! (plugins/audio-cpal: cpal needs the system's sound library, ALSA's headers on Linux, which
//! the headless build and CI must not), into target/release, and says how to load it.

use c64kit_files::outln;
use std::path::{Path, PathBuf};
use std::process::Command;
use xtask::WHAT;

fn root() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    root.canonicalize().unwrap_or(root)
}

fn modified(p: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

pub fn build() -> Result<(), String> {
    let dir = root().join("plugins/audio-cpal");
    // The same crate versions as the workspace (cargo adds cpal's own).
    let lock = root().join("Cargo.lock");
    let own_lock = dir.join("Cargo.lock");
    if !own_lock.exists() || modified(&lock) > modified(&own_lock) {
        std::fs::copy(&lock, &own_lock)
            .map_err(|e| format!("copying {} to {}: {e}", lock.display(), own_lock.display()))?;
    }
    let target = xtask::target_dir();
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .map_err(|e| format!("running cargo build: {e}"))?;
    if !status.success() {
        return Err(format!(
            "building plugins/audio-cpal failed ({status}); on Linux cpal needs ALSA's \
             headers and pkg-config (Debian: apt-get install libasound2-dev pkg-config)"
        ));
    }
    let lib = target.join("release").join(format!(
        "{}c64kit_audio_cpal{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    outln!(
        WHAT,
        "built {}\nplay with sound: c64kit --plugin {} play PROGRAM",
        lib.display(),
        lib.display()
    );
    Ok(())
}
