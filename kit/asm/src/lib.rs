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

// The pass driver and its state.
mod assembler;
// if, repeat and macros: which lines run, how often.
mod blocks;
// What each directive does, and the one table of their names.
mod directives;
// Instructions and addressing modes.
mod encode;
mod expr;
// The bytes assembled, by address.
mod image;
mod lexer;
pub mod limits;
mod listing;
// Finding and reading files.
mod loader;
mod petscii;
mod project;
// A source file's lines and block structure.
mod source;
// A line to a statement.
mod statement;
// Labels: case, files, passes.
mod symbols;

pub use petscii::{petscii, petscii_str, screen_code, screen_code_str};
pub use project::{parse_project, Project};

use assembler::Assembler;
use loader::LoadError;
use source::Source;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Component, Path, PathBuf};
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
    /// The work budget (see [`limits::MAX_WORK`], the default). Only ever lowered: a larger
    /// value is taken as the default. The fuzzer lowers it so that its instrumented build,
    /// several times slower, spends milliseconds, not seconds, on a runaway source.
    pub max_work: Option<u64>,
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
    /// Every symbol (labels, constants, predefined), by full name as its definition spells
    /// it (names are not case-sensitive, so there is one spelling each). Local labels are
    /// named `scope@name`, where scope is the global label before them or
    /// `macroname#N` inside the N-th macro expansion. A label several files define is here
    /// once, with the first definition's value (build order).
    pub symbols: BTreeMap<String, i64>,
    /// The address labels only (no `=` constants).
    pub labels: BTreeMap<String, u16>,
    /// Address, bytes and source line, one line per executed source line.
    pub listing: String,
    /// A project's `<Executable>` name, if any.
    pub output_name: Option<String>,
    /// How many passes it took.
    pub passes: usize,
    /// Every file the assembly read, with what it is ("a project file", "a source file",
    /// "an incbin file"): the project, every source, every `incasm` and `incbin` file. An
    /// output must never be one of them ([`Assembly::ensure_not_input`]).
    pub inputs: Vec<(PathBuf, String)>,
    /// What assembled but may not mean what was meant (a reference to a label several
    /// other files define), located like errors.
    pub warnings: Vec<AsmError>,
}

impl Assembly {
    /// Refuses `output` if it is one of the files the assembly read (any spelling of it,
    /// hard links included), naming both: `output_is` says what it is ("the output PRG").
    pub fn ensure_not_input(&self, output: &Path, output_is: &str) -> Result<(), String> {
        c64kit_files::ensure_not_input(output, output_is, &self.inputs)
    }

    /// Where a project's PRG goes when the caller does not say: the project's
    /// `<Executable>`/`<OutputFile>` name, in the folder of `project` (None if it names
    /// none). The output stays inside the project's folder: a name that is an absolute
    /// path or goes up with `..` is refused, and the caller must say where to write.
    pub fn project_output(&self, project: &Path) -> Result<Option<PathBuf>, String> {
        let Some(name) = &self.output_name else {
            return Ok(None);
        };
        let norm = name.replace('\\', "/");
        let rel = Path::new(&norm);
        // `\\server\x` and `C:\x` are absolute on Windows, where CBM prg Studio wrote them.
        let absolute =
            rel.has_root() || rel.is_absolute() || (norm.len() >= 2 && norm.as_bytes()[1] == b':');
        let up = rel.components().any(|c| c == Component::ParentDir);
        if absolute || up {
            return Err(format!(
                "{}: the project's output file '{}' {}: c64kit writes a project's output only \
                 inside the project's folder (give -o to say where it goes)",
                project.display(),
                c64kit_files::quote(name),
                if absolute {
                    "is an absolute path"
                } else {
                    "goes up out of the project's folder with '..'"
                }
            ));
        }
        Ok(Some(project.parent().unwrap_or(Path::new("")).join(rel)))
    }

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
        vice_lines(self.labels.iter().map(|(n, a)| (n, *a as i64)))
    }

    /// The same with the `=` constants that fit an address too (`BOARD = $4600`), as
    /// routine-level checks need them to name the program's variables.
    pub fn vice_symbols(&self) -> String {
        vice_lines(self.symbols.iter().map(|(n, v)| (n, *v)))
    }
}

fn vice_lines<'a>(symbols: impl Iterator<Item = (&'a String, i64)>) -> String {
    let mut out = String::new();
    for (name, value) in symbols {
        if name.contains('@') || name.contains('#') || !(0..=0xFFFF).contains(&value) {
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
        out.push_str(&format!("al C:{value:04x} .{clean}\n"));
    }
    out
}

/// Assembles text held in memory. `name` is used in messages; includes are looked up in
/// `opts.include_dirs` only.
pub fn assemble_source(name: &str, text: &str, opts: &Options) -> Result<Assembly, Errors> {
    let src = Source::from_text(name, None, 0, text.to_string()).map_err(|(line, message)| {
        Errors(vec![AsmError {
            file: name.to_string(),
            line,
            message,
        }])
    })?;
    Assembler::new(opts, opts.include_dirs.clone()).run(&[Rc::new(src)])
}

/// A file the caller named could not be used: the error names it once.
fn load_error(display: &str, e: LoadError) -> Errors {
    match e {
        LoadError::File(e) => Errors::single(display, e.reason),
        LoadError::Line(e) => Errors(vec![e]),
    }
}

/// Assembles one source file (includes relative to it, then `opts.include_dirs`).
pub fn assemble_file(path: &Path, opts: &Options) -> Result<Assembly, Errors> {
    assemble_files(&[path.to_path_buf()], opts)
}

/// Assembles several source files in order as one program, like a project's build list:
/// one program counter running on from file to file, one set of labels (each file's own
/// first, see docs/assembler.md). Includes are looked up relative to the including file,
/// then in `opts.include_dirs`.
pub fn assemble_files(paths: &[PathBuf], opts: &Options) -> Result<Assembly, Errors> {
    if paths.is_empty() {
        return Err(Errors::single(
            "assemble_files",
            "no source file given".into(),
        ));
    }
    let mut asm = Assembler::new(opts, opts.include_dirs.clone());
    let mut roots = Vec::new();
    let mut errors = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let display = path.display().to_string();
        if paths[..i]
            .iter()
            .any(|p| p == path || c64kit_files::same_file(p, path))
        {
            errors.push(AsmError {
                file: display,
                line: 0,
                message: "named twice: each source file is assembled once".into(),
            });
            continue;
        }
        match asm.loader.source(path, &display) {
            Ok(s) => roots.push(s),
            Err(e) => errors.extend(load_error(&display, e).0),
        }
    }
    if !errors.is_empty() {
        return Err(Errors(errors));
    }
    asm.run(&roots)
}

/// Assembles a CBM prg Studio project (`.cbmprj`): every file of its build list, in
/// order, as one program (as [`assemble_files`]).
pub fn assemble_project(path: &Path, opts: &Options) -> Result<Assembly, Errors> {
    let display = path.display().to_string();
    let dir = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut search = vec![dir.clone()];
    search.extend(opts.include_dirs.iter().cloned());
    let mut asm = Assembler::new(opts, search);
    let xml = asm
        .loader
        .project(path)
        .map_err(|e| Errors::single(&display, e.reason))?;
    let project = parse_project(&xml).map_err(|e| Errors::single(&display, e))?;
    drop(xml);
    asm.set_start(opts.start_address.or(project.start_address));
    if project.build_list.is_empty() {
        return Err(Errors::single(
            &display,
            "project has no files in its <BuildList>".into(),
        ));
    }
    if opts.padding.is_none() {
        asm.set_padding(project.padding.unwrap_or(0));
    }
    let mut roots = Vec::new();
    let mut errors = Vec::new();
    for name in &project.build_list {
        if errors.len() == limits::MAX_ERRORS {
            break;
        }
        if asm.loader.out_of_work() {
            // Looking for thousands of files (`../../..`) is work too.
            break;
        }
        let shown = asm_display(&display, name);
        let at_project = |message: String| AsmError {
            file: display.clone(),
            line: 0,
            message: format!("build list: {message}"),
        };
        let src = match asm.loader.resolve(name, Some(&dir)) {
            Ok(p) => asm.loader.source(&p, &shown).map_err(|e| match e {
                LoadError::File(e) => at_project(e.to_string()),
                // A line of the file is at fault: reported there.
                LoadError::Line(e) => e,
            }),
            Err(e) => Err(at_project(e)),
        };
        match src {
            Ok(s) => roots.push(s),
            Err(e) => errors.push(e),
        }
    }
    if asm.loader.out_of_work() {
        return Err(Errors::single(
            &display,
            format!("build list: {}", limits::out_of_work(asm.loader.work_limit)),
        ));
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
