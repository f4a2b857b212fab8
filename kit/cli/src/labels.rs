//! `c64kit run --labels FILE`: a VICE monitor label file (`al C:0820 .main`, what `c64kit asm
//! --labels` writes), so that `--break` and `--start` take names and the trace and the stop
//! reason show them. The file is read by the conformance suite's reader, which its routine-level checks
//! use too.

use anyhow::{bail, Result};
use c64kit_conformance::labels::Labels;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The labels of a run (none without `--labels`).
#[derive(Default)]
pub struct RunLabels {
    labels: Labels,
    /// The names at each address as VICE writes them (`.main .start`), for the trace and
    /// the stop reason.
    by_address: BTreeMap<u16, String>,
    file: Option<PathBuf>,
}

/// A label file is text of one line per label: a MiB is tens of thousands of labels.
const MAX_LABEL_FILE: u64 = c64kit_files::MIB;

impl RunLabels {
    pub fn load(file: Option<&Path>) -> Result<RunLabels> {
        let Some(file) = file else {
            return Ok(RunLabels::default());
        };
        let text = c64kit_files::read_text(file, MAX_LABEL_FILE, "a VICE label file")?;
        let labels =
            Labels::parse_vice(&text, &file.display().to_string()).map_err(anyhow::Error::msg)?;
        let mut by_address: BTreeMap<u16, String> = BTreeMap::new();
        for (name, addr) in labels.iter() {
            let names = by_address.entry(addr).or_default();
            if !names.is_empty() {
                names.push(' ');
            }
            names.push('.');
            names.push_str(name);
        }
        Ok(RunLabels {
            labels,
            by_address,
            file: Some(file.to_path_buf()),
        })
    }

    /// The address `option` (`--break`, `--start`) gives: an address (`$0820`, `2080`,
    /// `%...`, `0x0820`) or a label, with or without VICE's `.` (`main`, `.main`, `main+3`).
    pub fn address(&self, option: &str, spec: &str) -> Result<u16> {
        let spec = spec.trim();
        if spec.starts_with(['$', '%']) || spec.starts_with(|c: char| c.is_ascii_digit()) {
            return c64kit::parse_address(spec)
                .map_err(|e| anyhow::anyhow!("{option} {spec}: {e}"));
        }
        let name = spec.strip_prefix('.').unwrap_or(spec);
        let Some(file) = &self.file else {
            bail!(
                "{option} {spec}: {name:?} is not an address, and there are no labels to find \
                 it in (give --labels FILE, a VICE label file such as `c64kit asm --labels` \
                 writes, or an address like $0820)"
            );
        };
        self.labels.resolve(name).map_err(|e| {
            anyhow::anyhow!(
                "{option} {spec}: {e} (in the label file {})",
                file.display()
            )
        })
    }

    /// The names at `addr`, as VICE writes them (`.main`), or None.
    pub fn names_at(&self, addr: u16) -> Option<&str> {
        self.by_address.get(&addr).map(String::as_str)
    }

    /// The trace, with the names of each traced address after its line (`... 123456
    /// .main`), when there are labels.
    pub fn trace(&self, out: Box<dyn Write>) -> Box<dyn Write> {
        if self.by_address.is_empty() {
            return out;
        }
        Box::new(NamedTrace {
            names: self.by_address.clone(),
            out,
            line: Vec::new(),
        })
    }
}

/// Appends the label names to each trace line (`.C:0820  A9 00 ...`) that starts at a
/// labelled address.
struct NamedTrace {
    names: BTreeMap<u16, String>,
    out: Box<dyn Write>,
    /// The line being written, up to its newline.
    line: Vec<u8>,
}

impl NamedTrace {
    fn finish_line(&mut self) -> std::io::Result<()> {
        let addr = self
            .line
            .strip_prefix(b".C:")
            .and_then(|rest| rest.get(..4))
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u16::from_str_radix(hex, 16).ok());
        self.out.write_all(&self.line)?;
        if let Some(names) = addr.and_then(|a| self.names.get(&a)) {
            write!(self.out, "  {names}")?;
        }
        self.line.clear();
        self.out.write_all(b"\n")
    }
}

impl Write for NamedTrace {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                self.finish_line()?;
            } else {
                self.line.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.line.is_empty() {
            self.out.write_all(&self.line)?;
            self.line.clear();
        }
        self.out.flush()
    }
}
