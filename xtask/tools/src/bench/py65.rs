//! py65 side by side: a throw-away virtual environment under the target folder with py65
//! installed by pip, and `xtask/tools/bench/py65_run.py` run in it. Anything missing (no python3,
//! no venv module, pip unable to reach the registry) is a reason to skip, not an error.

use c64kit_files::outln;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use xtask::WHAT;

/// What py65 did: one (time, instructions, cycles) per run, the stop, the last transcript.
pub struct Py65Result {
    pub runs: Vec<(Duration, u64, u64)>,
    pub stop: String,
    pub transcript: Vec<u8>,
    pub version: String,
}

/// The driver script beside this crate.
fn driver() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bench/py65_run.py")
}

fn venv_python(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts/python.exe")
    } else {
        venv.join("bin/python")
    }
}

/// Output of a command, or why it failed (with its stderr).
fn output(cmd: &mut Command, what: &str) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last: Vec<&str> = err.lines().rev().take(4).collect();
        let last: Vec<&str> = last.into_iter().rev().collect();
        return Err(format!("{what}: {} ({})", out.status, last.join(" / ")));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Creates `venv` with `python` if needed and installs py65 into it; the venv's python.
pub fn ensure_venv(python: &str, venv: &Path) -> Result<PathBuf, String> {
    let py = venv_python(venv);
    if !py.exists() {
        outln!(
            WHAT,
            "py65: creating a virtual environment in {}",
            venv.display()
        );
        output(
            Command::new(python).args(["-m", "venv"]).arg(venv),
            &format!("{python} -m venv"),
        )?;
    }
    let have = Command::new(&py)
        .args(["-c", "import py65"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        outln!(WHAT, "py65: pip install py65");
        output(
            Command::new(&py).args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "py65",
            ]),
            "pip install py65",
        )?;
    }
    Ok(py)
}

/// Runs the PRG file `prg` `runs` times in py65.
pub fn run(
    py: &Path,
    prg: &Path,
    sys: u16,
    keys: &[u8],
    runs: usize,
    max_instructions: u64,
) -> Result<Py65Result, String> {
    let version = output(
        Command::new(py).args([
            "-c",
            "import importlib.metadata as m; print(m.version('py65'))",
        ]),
        "py65 version",
    )
    .map(|v| v.trim().to_string())
    .unwrap_or_else(|_| "?".into());
    let hex: String = keys.iter().map(|k| format!("{k:02x}")).collect();
    let text = output(
        Command::new(py)
            .arg(driver())
            .arg(prg)
            .arg(sys.to_string())
            .arg(&hex)
            .arg(runs.to_string())
            .arg(max_instructions.to_string()),
        "py65_run.py",
    )?;
    let mut result = Py65Result {
        runs: Vec::new(),
        stop: String::new(),
        transcript: Vec::new(),
        version,
    };
    for line in text.lines() {
        let (tag, rest) = line.split_once(' ').unwrap_or((line, ""));
        match tag {
            "run" => {
                let f: Vec<&str> = rest.split_whitespace().collect();
                let bad = || format!("py65_run.py: bad line {line:?}");
                if f.len() != 3 {
                    return Err(bad());
                }
                let secs: f64 = f[0].parse().map_err(|_| bad())?;
                let instructions = f[1].parse().map_err(|_| bad())?;
                let cycles = f[2].parse().map_err(|_| bad())?;
                result
                    .runs
                    .push((Duration::from_secs_f64(secs), instructions, cycles));
            }
            "stop" => result.stop = rest.to_string(),
            "transcript" => {
                result.transcript = (0..rest.len() / 2)
                    .map(|i| u8::from_str_radix(&rest[2 * i..2 * i + 2], 16))
                    .collect::<Result<_, _>>()
                    .map_err(|_| "py65_run.py: bad transcript".to_string())?;
            }
            _ => {}
        }
    }
    if result.runs.is_empty() {
        return Err("py65_run.py printed no run".into());
    }
    Ok(result)
}
