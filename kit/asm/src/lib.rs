//! c64kit-asm: an assembler for the CBM prg Studio 6502 dialect.
//!
//! ```
//! use c64kit_asm::{assemble_source, Options};
//! let asm = assemble_source("demo.asm", "*=$c000\nstart lda #$01\n rts\n", &Options::default())
//!     .unwrap();
//! assert_eq!(asm.load_address, 0xC000);
//! assert_eq!(asm.bytes, vec![0xA9, 0x01, 0x60]);
//! assert_eq!(asm.labels["start"], 0xC000);
//! ```
//!
//! The dialect as implemented is described in `docs/assembler.md`.

mod asm;
mod expr;
mod lexer;
mod petscii;
mod project;

pub use petscii::{petscii, petscii_str};
pub use project::{parse_project, Project};

use asm::{decode, Assembler, Source};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Settings from the caller.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Predefined symbols (like 64tass `-D NAME=VALUE`). They win over assignments of the
    /// same name in the source, so `NAME = 0` there acts as a default.
    pub defines: Vec<(String, i64)>,
    /// Byte that fills gaps between origins. Overrides a project's `PaddingByte`;
    /// default 0.
    pub padding: Option<u8>,
    /// Extra directories searched by `incasm`/`incbin` after the including file's own.
    /// [`assemble_source`] can include files only from these.
    pub include_dirs: Vec<PathBuf>,
    /// Program counter before the first `*=`. Overrides a project's `StartAddress`;
    /// default $0801.
    pub start_address: Option<u16>,
}

/// One error, located at a source line (`line` 0: the file as a whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

/// All errors of a failed assembly, in source order, one per line when displayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Errors(pub Vec<AsmError>);

impl fmt::Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Errors {}

impl Errors {
    fn single(file: &str, message: String) -> Errors {
        Errors(vec![AsmError {
            file: file.to_string(),
            line: 0,
            message,
        }])
    }
}

/// A successful assembly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembly {
    /// Address of `bytes[0]`: the lowest address any byte was assembled to.
    pub load_address: u16,
    /// Everything from the lowest to the highest assembled address, gaps padded.
    pub bytes: Vec<u8>,
    /// Every symbol (labels, constants, predefined), by full name. Local labels are
    /// named `scope@name`, where scope is the global label before them or
    /// `macroname#N` inside the N-th macro expansion.
    pub symbols: BTreeMap<String, i64>,
    /// The address labels only (no `=` constants).
    pub labels: BTreeMap<String, u16>,
    /// Address, bytes and source line, one line per executed source line.
    pub listing: String,
    /// A project's `<Executable>` name, if any.
    pub output_name: Option<String>,
    /// How many passes it took.
    pub passes: usize,
}

impl Assembly {
    /// The PRG file: load address (little endian) then the bytes.
    pub fn prg(&self) -> Vec<u8> {
        let mut out = self.load_address.to_le_bytes().to_vec();
        out.extend_from_slice(&self.bytes);
        out
    }

    /// A label file for VICE's monitor (`ll "file"`): one `al C:xxxx .name` line per
    /// global address label. Local and macro-internal labels are left out; characters
    /// VICE does not accept in names become `_`.
    pub fn vice_labels(&self) -> String {
        let mut out = String::new();
        for (name, addr) in &self.labels {
            if name.contains('@') || name.contains('#') {
                continue;
            }
            let clean: String = name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            out.push_str(&format!("al C:{addr:04x} .{clean}\n"));
        }
        out
    }
}

/// Assembles text held in memory. `name` is used in messages; includes are looked up in
/// `opts.include_dirs` only.
pub fn assemble_source(name: &str, text: &str, opts: &Options) -> Result<Assembly, Errors> {
    let src = Rc::new(Source::from_text(name, None, text));
    Assembler::new(opts, opts.include_dirs.clone(), None).run(&[src])
}

/// Assembles one source file (includes relative to it, then `opts.include_dirs`).
pub fn assemble_file(path: &Path, opts: &Options) -> Result<Assembly, Errors> {
    let display = path.display().to_string();
    let bytes = std::fs::read(path)
        .map_err(|e| Errors::single(&display, format!("cannot read file: {e}")))?;
    let src = Rc::new(Source::from_text(
        &display,
        path.parent().map(Path::to_path_buf),
        &decode(&bytes),
    ));
    Assembler::new(opts, opts.include_dirs.clone(), None).run(&[src])
}

/// Assembles a CBM prg Studio project (`.cbmprj`): every file of its build list, in
/// order, as one program with one set of global labels.
pub fn assemble_project(path: &Path, opts: &Options) -> Result<Assembly, Errors> {
    let display = path.display().to_string();
    let xml = std::fs::read(path)
        .map_err(|e| Errors::single(&display, format!("cannot read project: {e}")))?;
    let project = parse_project(&decode(&xml)).map_err(|e| Errors::single(&display, e))?;
    if project.build_list.is_empty() {
        return Err(Errors::single(
            &display,
            "project has no files in its <BuildList>".into(),
        ));
    }
    let dir = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut search = vec![dir.clone()];
    search.extend(opts.include_dirs.iter().cloned());
    let mut asm = Assembler::new(opts, search, project.start_address);
    if opts.padding.is_none() {
        asm.set_padding(project.padding.unwrap_or(0));
    }
    let mut roots = Vec::new();
    let mut errors = Vec::new();
    for name in &project.build_list {
        let shown = asm_display(&display, name);
        let src = asm
            .loader()
            .resolve(name, Some(&dir))
            .and_then(|p| asm.loader().source(&p, &shown));
        match src {
            Ok(s) => roots.push(s),
            Err(e) => errors.push(AsmError {
                file: display.clone(),
                line: 0,
                message: format!("build list: {e}"),
            }),
        }
    }
    if !errors.is_empty() {
        return Err(Errors(errors));
    }
    let mut out = asm.run(&roots)?;
    out.output_name = project.executable;
    Ok(out)
}

fn asm_display(project: &str, name: &str) -> String {
    let norm = name.replace('\\', "/");
    match Path::new(project).parent() {
        Some(d) if !d.as_os_str().is_empty() => d.join(norm).display().to_string(),
        _ => norm,
    }
}

/// [`assemble_project`] for `.cbmprj` files, [`assemble_file`] for anything else.
pub fn assemble_path(path: &Path, opts: &Options) -> Result<Assembly, Errors> {
    let is_project = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("cbmprj"));
    if is_project {
        assemble_project(path, opts)
    } else {
        assemble_file(path, opts)
    }
}
