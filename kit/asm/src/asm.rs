//! The assembler proper: runs the source once per pass until every symbol keeps its
//! value from one pass to the next, then turns the last pass into an [`Assembly`].
//!
//! Someone else's source must not be able to make it run for ever, fill the memory or read
//! what it should not: every file is read through c64kit-files (regular files only, each
//! kind with its own size cap), lines have a maximum length, and besides the statement
//! counts there is a budget on the total work of all passes (the limits below).

use crate::expr::{eval, Env, Val};
use crate::lexer::{lex, Tok, Token};
use crate::petscii::petscii_str;
use crate::{AsmError, Assembly, Errors, Options};
use c64kit_files::{quote, size_text, FileError, MIB};
use c64kit_opcodes::{find_opcode, Mode, ALIASES, OPCODES};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::OnceLock;

pub const MAX_PASSES: usize = 20;
/// From this pass on, an instruction that once needed absolute addressing keeps it, so
/// that zero-page/absolute choices cannot oscillate for ever.
const STICKY_PASS: usize = 5;
/// How deep macro calls, `incasm` and `repeat` blocks may nest (all three together). Each
/// level is a recursion of the assembler, so this keeps the stack small; real programs use
/// a handful of levels, and endless macro recursion or self-inclusion stops here.
pub const MAX_NESTING: usize = 64;
pub const MAX_REPEAT: i64 = 65536;
/// Statements (lines, taken or skipped) one pass may run: turns an endless repeat or macro
/// recursion into an error long before it could matter for time or memory.
pub const MAX_STATEMENTS: usize = 1_000_000;
/// Statements all passes together may run. A program that never settles runs
/// [`MAX_PASSES`] passes; this keeps 20 passes of a million statements (several seconds)
/// from happening, while a real program (a few thousand statements, two or three passes)
/// stays far below it.
pub const MAX_TOTAL_STATEMENTS: usize = 4_000_000;
/// The budget on the total work of an assembly, all passes together: one unit per
/// character of every line run or skipped (each time: macro expansions and repeat bodies
/// count once per use), per character of a name made by repeat-variable substitution, per
/// byte placed, and [`FS_LOOK_WORK`] per look at the file system when finding a file named
/// in the source. The statement counts alone do not bound the work, since one statement
/// may be a long line, place a large `incbin` or name a file thousands of folders up: this
/// does. The RYG engines use 0.12
/// million (about 60,000 characters of source, two passes), so a program 250 times their
/// size still fits; the densest lines (thousands of tokens each) use the budget up in about
/// half a second of CPU.
pub const MAX_WORK: u64 = 32_000_000;
/// The longest line, in characters, also after macro parameters are replaced. Lines are
/// lexed whole and macro arguments are copied into lines, so this bounds the memory of one
/// statement and stops a macro that doubles its argument at every call. Hand-written and
/// generated sources (a 256-entry table is about 1,000 characters) stay far below it.
pub const MAX_LINE_CHARS: usize = 16_384;
/// The largest source file (`.asm`, build-list entry or `incasm`). Sources of real programs
/// are tens of KiB; this leaves room for big generated data while keeping a whole file (its
/// text and line index) in memory cheap.
pub const MAX_SOURCE_BYTES: u64 = 16 * MIB;
/// The largest `.cbmprj` project file. CBM prg Studio projects are a few KiB of XML even
/// with hundreds of files; the XML tree takes several times the file's size in memory.
pub const MAX_PROJECT_BYTES: u64 = 4 * MIB;
/// The largest file `incbin` reads. At most 64 KiB of it can ever be placed, but `incbin`
/// takes an offset, so a slice may come from further in: 2 MiB covers the largest C64
/// cartridge image (1 MiB EasyFlash, as a .crt with its chip headers) and disk images
/// (a .d81 is 800 KiB).
pub const MAX_INCBIN_BYTES: u64 = 2 * MIB;
/// Everything one assembly reads (project, sources, `incbin` files), each file counted
/// once. Sources stay in memory for the whole assembly, with a line index of up to four
/// bytes per line: this bounds that memory whatever the number of files.
pub const MAX_READ_BYTES: u64 = 24 * MIB;
/// Errors reported at most: the first ones matter, and a broken file could give millions.
pub(crate) const MAX_ERRORS: usize = 200;

pub(crate) fn out_of_work(limit: u64) -> String {
    format!(
        "more than {limit} units of work in all passes together (a unit per character of \
         each line run, each time, and per byte placed: a runaway macro or repeat?)"
    )
}

fn nested_too_deeply() -> String {
    format!(
        "macros, includes and repeats nested too deeply (more than {MAX_NESTING} levels: \
         recursion?)"
    )
}

/// Directive words (lower case). Anything in column 1 that is not one of these, a
/// mnemonic or a macro name is a label.
const DIRECTIVES: &[&str] = &[
    "byte",
    "byt",
    "db",
    "dcb",
    "dc.b",
    "word",
    "dw",
    "dc.w",
    "text",
    "null",
    "incasm",
    "incbin",
    "if",
    "else",
    "endif",
    "ifdef",
    "ifndef",
    "repeat",
    "endrepeat",
    "defm",
    "endm",
    "operator",
    "align",
    "org",
    "target",
    "region",
    "endregion",
    "watch",
];

/// One loaded source file: its text, where each line starts, and its block structure.
pub(crate) struct Source {
    /// Name used in messages and the listing.
    pub display: Rc<str>,
    /// Directory that relative includes start from (None for in-memory sources).
    pub dir: Option<PathBuf>,
    text: String,
    /// Byte offset in `text` where each line starts, then `text.len() + 1` (where a line
    /// after the last would start). u32: a source is at most [`MAX_SOURCE_BYTES`].
    starts: Vec<u32>,
    /// The block word of each line that has one (few do), by line index.
    blocks: HashMap<u32, Block>,
    /// For each `repeat` and `defm` line, the line of its `endrepeat` or `endm`.
    ends: HashMap<u32, u32>,
}

impl Source {
    /// Splits `text` into lines (LF or CR LF; a UTF-8 BOM is dropped) and works out its
    /// block structure once, so that finding the end of a `repeat` or `defm` costs nothing
    /// however often it runs. A line longer than [`MAX_LINE_CHARS`] is refused:
    /// `Err((line, message))`, line 0 for the file as a whole.
    pub fn from_text(
        display: &str,
        dir: Option<PathBuf>,
        mut text: String,
    ) -> Result<Source, (usize, String)> {
        if text.starts_with('\u{FEFF}') {
            text.drain(..'\u{FEFF}'.len_utf8());
        }
        if text.len() as u64 > MAX_SOURCE_BYTES {
            return Err((
                0,
                format!(
                    "{} of source text is more than a source file can be ({})",
                    size_text(text.len() as u64),
                    size_text(MAX_SOURCE_BYTES)
                ),
            ));
        }
        let mut starts = vec![0u32];
        starts.extend(after_newlines(&text));
        starts.push(text.len() as u32 + 1);
        let mut src = Source {
            display: display.into(),
            dir,
            text,
            starts,
            blocks: HashMap::new(),
            ends: HashMap::new(),
        };
        // Matching opens and closes with a stack gives each `repeat` the first `endrepeat`
        // where the nesting after it returns to zero: what scanning ahead would find.
        let mut open_repeats = Vec::new();
        let mut open_macros = Vec::new();
        for i in 0..src.len() {
            let line = src.line(i);
            if line.len() > MAX_LINE_CHARS {
                let chars = line.chars().count();
                if chars > MAX_LINE_CHARS {
                    return Err((i + 1, line_too_long(chars)));
                }
            }
            let Some(word) = block_word(line) else {
                continue;
            };
            src.blocks.insert(i as u32, word);
            let (opens, close) = match word {
                Block::Repeat | Block::Defm => {
                    let stack = if word == Block::Repeat {
                        &mut open_repeats
                    } else {
                        &mut open_macros
                    };
                    stack.push(i as u32);
                    continue;
                }
                Block::EndRepeat => (&mut open_repeats, i as u32),
                Block::Endm => (&mut open_macros, i as u32),
                _ => continue,
            };
            if let Some(open) = opens.pop() {
                src.ends.insert(open, close);
            }
        }
        Ok(src)
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `i` (0-based) without its line end.
    pub fn line(&self, i: usize) -> &str {
        let line = &self.text[self.starts[i] as usize..self.starts[i + 1] as usize - 1];
        line.strip_suffix('\r').unwrap_or(line)
    }

    fn block(&self, i: usize) -> Option<Block> {
        self.blocks.get(&(i as u32)).copied()
    }

    /// The line that closes the `repeat` or `defm` on line `open`, if it comes before `limit`.
    fn end_of(&self, open: usize, limit: usize) -> Option<usize> {
        self.ends
            .get(&(open as u32))
            .map(|&e| e as usize)
            .filter(|&e| e < limit)
    }
}

/// The offset just after each `\n`: where the next line starts.
fn after_newlines(text: &str) -> impl Iterator<Item = u32> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i as u32 + 1)
}

fn line_too_long(chars: usize) -> String {
    format!("line is {chars} characters long (at most {MAX_LINE_CHARS})")
}

fn substituted_too_long() -> String {
    format!("line is longer than {MAX_LINE_CHARS} characters once macro parameters are replaced")
}

/// Source files may be UTF-8 or (from Windows editors, as CBM prg Studio's own files often
/// are) Latin-1/CP1252: a file that is not valid UTF-8 is read byte for byte as Latin-1,
/// so nothing is ever refused for its encoding.
fn decode(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    }
}

/// True for names that are absolute on any system: `/x`, `\x`, `\\server\x`, `C:\x`, `C:x`.
fn is_absolute_name(norm: &str) -> bool {
    let b = norm.as_bytes();
    norm.starts_with('/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
}

/// Why a file named in the source could not be used.
#[derive(Clone)]
pub(crate) enum LoadError {
    /// The file cannot be read (or should not be): reported where it is named.
    File(FileError),
    /// A line of the file itself is at fault (too long): reported there.
    Line(AsmError),
}

/// Finds, reads and caches the files an assembly uses, and remembers them (they are its
/// inputs, which no output may overwrite).
pub(crate) struct Loader {
    search_dirs: Vec<PathBuf>,
    sources: HashMap<PathBuf, Result<Rc<Source>, LoadError>>,
    binaries: HashMap<PathBuf, Result<Rc<Vec<u8>>, String>>,
    /// Bytes read so far, against [`MAX_READ_BYTES`].
    read: u64,
    /// Where each name was found (or why not), by name and including folder: a name in a
    /// repeated block or a macro is looked up once.
    resolved: HashMap<(String, Option<PathBuf>), Result<PathBuf, String>>,
    /// The most work the assembly may do ([`MAX_WORK`] unless the options say less).
    pub work_limit: u64,
    /// The work done by the whole assembly, against `work_limit`: here, so that looking
    /// for files counts too (a `Cell`: names are built, and charged for, while
    /// expressions borrow the assembler).
    work: Cell<u64>,
    /// Every file read: (path, what it is).
    pub inputs: Vec<(PathBuf, String)>,
}

/// The work one look at the file system counts (a `stat` or opening a folder), besides
/// one unit per byte of the path: a system call walks the path, a few microseconds, as
/// long as lexing a few hundred characters. A name in the source may have thousands of
/// components (`../../..`), each looked at.
const FS_LOOK_WORK: u64 = 256;
/// The work each folder entry read while matching a name without regard to case counts.
const FS_ENTRY_WORK: u64 = 16;

/// `rel` under `base`, matching each path component without regard to case (CBM prg
/// Studio runs on Windows, whose file names are case-insensitive). Each look at the file
/// system is charged to `work`; the walk gives up once that is over `limit`.
fn find_ignoring_case(base: &Path, rel: &Path, work: &Cell<u64>, limit: u64) -> Option<PathBuf> {
    let charge = |units: u64| work.set(work.get().saturating_add(units));
    let mut cur = base.to_path_buf();
    for comp in rel.components() {
        if work.get() > limit {
            return None;
        }
        let want = comp.as_os_str();
        let exact = cur.join(want);
        charge(FS_LOOK_WORK.saturating_add(exact.as_os_str().len() as u64));
        if exact.exists() {
            cur = exact;
            continue;
        }
        let want = want.to_str()?;
        charge(FS_LOOK_WORK.saturating_add(cur.as_os_str().len() as u64));
        let entry = std::fs::read_dir(&cur).ok()?.flatten().find(|e| {
            charge(FS_ENTRY_WORK);
            e.file_name()
                .to_str()
                .is_some_and(|n| n.eq_ignore_ascii_case(want))
        })?;
        cur = entry.path();
    }
    Some(cur)
}

impl Loader {
    pub fn add_work(&self, units: u64) {
        self.work.set(self.work.get().saturating_add(units));
    }

    /// True once the assembly has done more than its work limit.
    pub fn out_of_work(&self) -> bool {
        self.work.get() > self.work_limit
    }

    pub fn new(search_dirs: Vec<PathBuf>, work_limit: u64) -> Loader {
        Loader {
            search_dirs,
            work_limit,
            sources: HashMap::new(),
            binaries: HashMap::new(),
            read: 0,
            resolved: HashMap::new(),
            work: Cell::new(0),
            inputs: Vec::new(),
        }
    }

    /// Where a file named in the source (or a project's build list) is: relative to the
    /// including file's folder, then the search folders. Names are relative (`..` allowed:
    /// `../lib/x.asm`); absolute ones are refused, so a source can read only what its
    /// author laid out beside it, never `/etc/...` or a device.
    pub fn resolve(&mut self, name: &str, from: Option<&Path>) -> Result<PathBuf, String> {
        let key = (name.to_string(), from.map(Path::to_path_buf));
        if let Some(found) = self.resolved.get(&key) {
            return found.clone();
        }
        let found = self.find(name, from);
        self.resolved.insert(key, found.clone());
        found
    }

    fn find(&self, name: &str, from: Option<&Path>) -> Result<PathBuf, String> {
        let norm = name.replace('\\', "/");
        if norm.is_empty() {
            return Err("empty file name".into());
        }
        if is_absolute_name(&norm) || Path::new(&norm).is_absolute() {
            return Err(format!(
                "'{}' is an absolute path: files are named relative to the source or \
                 project that uses them (like ../lib/x.asm)",
                quote(name)
            ));
        }
        let rel = Path::new(&norm);
        let mut dirs: Vec<&Path> = Vec::new();
        for dir in from
            .into_iter()
            .chain(self.search_dirs.iter().map(PathBuf::as_path))
        {
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        // The first file found wins; failing that, the first thing of that name that is
        // not a file, so that reading it says what it is ("is a folder, not a file").
        let mut other = None;
        for dir in &dirs {
            if let Some(p) = find_ignoring_case(dir, rel, &self.work, self.work_limit) {
                self.add_work(FS_LOOK_WORK);
                if p.is_file() {
                    return Ok(p);
                }
                other.get_or_insert(p);
            }
        }
        if let Some(p) = other {
            return Ok(p);
        }
        if dirs.is_empty() {
            return Err(format!(
                "cannot find file '{}': no include directory given",
                quote(name)
            ));
        }
        let looked: Vec<String> = dirs
            .iter()
            .map(|d| match d.as_os_str().is_empty() {
                true => ".".to_string(),
                false => d.display().to_string(),
            })
            .collect();
        Err(format!(
            "cannot find file '{}' (looked in {})",
            quote(name),
            looked.join(", ")
        ))
    }

    /// Reads a file of at most `max` bytes through c64kit-files, counting it against
    /// [`MAX_READ_BYTES`] and recording it as an input.
    fn read(&mut self, path: &Path, max: u64, what: &str) -> Result<Vec<u8>, FileError> {
        self.add_work(FS_LOOK_WORK);
        let bytes = c64kit_files::read(path, max, what)?;
        self.read += bytes.len() as u64;
        if self.read > MAX_READ_BYTES {
            return Err(FileError {
                path: path.to_path_buf(),
                reason: format!(
                    "with this file, the files of this assembly together are more than {} \
                     (the most one assembly reads): refused",
                    size_text(MAX_READ_BYTES)
                ),
            });
        }
        self.inputs.push((path.to_path_buf(), what.to_string()));
        Ok(bytes)
    }

    /// A source file (read once, then shared), shown as `display` in messages.
    pub fn source(&mut self, path: &Path, display: &str) -> Result<Rc<Source>, LoadError> {
        if let Some(s) = self.sources.get(path) {
            return s.clone();
        }
        let loaded = self
            .read(path, MAX_SOURCE_BYTES, "a source file")
            .map_err(LoadError::File)
            .and_then(|bytes| {
                Source::from_text(display, path.parent().map(Path::to_path_buf), decode(bytes))
                    .map(Rc::new)
                    .map_err(|(line, message)| {
                        LoadError::Line(AsmError {
                            file: display.to_string(),
                            line,
                            message,
                        })
                    })
            });
        self.sources.insert(path.to_path_buf(), loaded.clone());
        loaded
    }

    /// The project file's XML text (read once per assembly, recorded as an input).
    pub fn project(&mut self, path: &Path) -> Result<String, FileError> {
        self.read(path, MAX_PROJECT_BYTES, "a project file")
            .map(decode)
    }

    fn binary(&mut self, path: &Path) -> Result<Rc<Vec<u8>>, String> {
        if let Some(b) = self.binaries.get(path) {
            return b.clone();
        }
        let loaded = self
            .read(path, MAX_INCBIN_BYTES, "an incbin file")
            .map(Rc::new)
            .map_err(|e| e.to_string());
        self.binaries.insert(path.to_path_buf(), loaded.clone());
        loaded
    }
}

/// Display name for a file included from `parent`.
fn child_display(parent: &str, name: &str) -> String {
    let norm = name.replace('\\', "/");
    match Path::new(parent).parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !Path::new(&norm).is_absolute() => {
            dir.join(&norm).display().to_string()
        }
        _ => norm,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Label,
    Constant,
    /// From [`Options::defines`]: wins over assignments in the source.
    Define,
}

struct SymDef {
    value: i64,
    kind: Kind,
    file: Rc<str>,
    line: usize,
}

struct Macro {
    src: Rc<Source>,
    body: Range<usize>,
    file: Rc<str>,
    line: usize,
}

struct Cond {
    parent_active: bool,
    value: bool,
    in_else: bool,
    line: usize,
}

impl Cond {
    fn taking(&self) -> bool {
        self.parent_active && (self.value != self.in_else)
    }
}

/// One line of the listing. Kept small (no copy of the text unless macro parameters
/// changed it): a pass may list a million lines.
struct ListLine {
    addr: Option<u16>,
    /// The line's bytes in `Assembler::list_bytes`.
    bytes: Range<u32>,
    src: Rc<Source>,
    /// 0-based line index in `src`.
    line: u32,
    /// The text run, when it is not the source line itself.
    text: Option<Box<str>>,
}

/// Where the running line came from, for error messages ("in macro m called at
/// main.asm:4", "repeat i = 2"); formatted only when there is an error.
enum Ctx {
    Macro {
        name: String,
        file: Rc<str>,
        line: usize,
    },
    Repeat {
        var: Rc<str>,
        value: i64,
    },
}

impl std::fmt::Display for Ctx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ctx::Macro { name, file, line } => {
                write!(f, "in macro {} called at {file}:{line}", quote(name))
            }
            Ctx::Repeat { var, value } => write!(f, "repeat {} = {value}", quote(var)),
        }
    }
}

/// A parsed statement.
enum Body {
    None,
    Origin(Vec<Token>),
    Assign(String, Vec<Token>),
    Op {
        word: String,
        operand: Vec<Token>,
        /// Raw operand text (macro arguments are split from this).
        rest: String,
    },
}

struct Stmt {
    label: Option<String>,
    body: Body,
}

/// Upper-case mnemonic or alias -> table mnemonic, and (mnemonic, mode) -> opcode. Built
/// once: every statement looks words up several times.
struct Tables {
    names: HashMap<&'static str, &'static str>,
    codes: HashMap<(&'static str, Mode), u8>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut names: HashMap<&'static str, &'static str> =
            OPCODES.iter().map(|o| (o.mnemonic, o.mnemonic)).collect();
        names.extend(ALIASES.iter().copied());
        let mut codes = HashMap::new();
        for o in OPCODES.iter() {
            if let Some(code) = find_opcode(o.mnemonic, o.mode) {
                codes.insert((o.mnemonic, o.mode), code);
            }
        }
        Tables { names, codes }
    })
}

fn mnemonic(word: &str) -> Option<&'static str> {
    if word.len() > 4 {
        return None;
    }
    tables()
        .names
        .get(word.to_ascii_uppercase().as_str())
        .copied()
}

fn is_directive(word: &str) -> bool {
    DIRECTIVES.contains(&word.to_ascii_lowercase().as_str())
}

/// Splits a line into label and statement. `is_macro` tells whether a word names a macro.
fn parse_stmt(text: &str, is_macro: &dyn Fn(&str) -> bool) -> Result<Stmt, String> {
    // The tokens after the first `n`, moved rather than copied: a line may have thousands.
    fn after(mut toks: Vec<Token>, n: usize) -> Vec<Token> {
        toks.drain(..n.min(toks.len()));
        toks
    }
    let toks = lex(text)?;
    let Some(first) = toks.first() else {
        return Ok(Stmt {
            label: None,
            body: Body::None,
        });
    };
    let keyword = |w: &str| mnemonic(w).is_some() || is_directive(w) || is_macro(w);
    if first.is_op("*") && toks.get(1).is_some_and(|t| t.is_op("=")) {
        return Ok(Stmt {
            label: None,
            body: Body::Origin(after(toks, 2)),
        });
    }
    let mut label = None;
    let mut idx = 0;
    if let Some(name) = first.ident() {
        let next = toks.get(1);
        let assign = next.is_some_and(|t| {
            t.is_op("=") || t.ident().is_some_and(|w| w.eq_ignore_ascii_case("equ"))
        });
        if assign {
            let name = name.to_string();
            return Ok(Stmt {
                label: None,
                body: Body::Assign(name, after(toks, 2)),
            });
        }
        let colon = next.is_some_and(|t| t.is_op(":") && t.start == first.end);
        if (first.start == 0 && !keyword(name)) || colon {
            label = Some(name.to_string());
            idx = if colon { 2 } else { 1 };
        }
    } else {
        return Err(format!(
            "expected a label, mnemonic or directive, found '{}'",
            quote(&first.tok.to_string())
        ));
    }
    let Some(op) = toks.get(idx) else {
        return Ok(Stmt {
            label,
            body: Body::None,
        });
    };
    if op.is_op("*") && toks.get(idx + 1).is_some_and(|t| t.is_op("=")) {
        return Ok(Stmt {
            label,
            body: Body::Origin(after(toks, idx + 2)),
        });
    }
    let Some(word) = op.ident() else {
        return Err(format!(
            "expected a mnemonic or directive, found '{}'",
            quote(&op.tok.to_string())
        ));
    };
    let word = word.to_string();
    let code_end = crate::lexer::code_end(text);
    let rest = text[op.end..code_end].trim().to_string();
    Ok(Stmt {
        label,
        body: Body::Op {
            word,
            operand: after(toks, idx + 1),
            rest,
        },
    })
}

/// The block-structure words: the lines that open and close `if`, `repeat` and `defm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Repeat,
    EndRepeat,
    Defm,
    Endm,
    If,
    Else,
    Endif,
}

const BLOCK_WORDS: [(&str, Block); 9] = [
    ("repeat", Block::Repeat),
    ("endrepeat", Block::EndRepeat),
    ("defm", Block::Defm),
    ("endm", Block::Endm),
    ("if", Block::If),
    ("ifdef", Block::If),
    ("ifndef", Block::If),
    ("else", Block::Else),
    ("endif", Block::Endif),
];

fn block(w: &str) -> Option<Block> {
    BLOCK_WORDS
        .iter()
        .find(|(name, _)| w.eq_ignore_ascii_case(name))
        .map(|&(_, b)| b)
}

/// The block-structure word of a line (`repeat`, `endm`, ...), if any: the first word, or
/// the word after a label.
fn block_word(line: &str) -> Option<Block> {
    // The words looked at are the line's first two runs of name characters: most lines
    // (instructions, data) are told apart by them without lexing the whole line.
    let runs = line
        .split(|c: char| !(crate::lexer::is_ident_char(c) || c == '@'))
        .filter(|w| !w.is_empty());
    if !runs.take(2).any(|w| block(w).is_some()) {
        return None;
    }
    let toks = lex(line).ok()?;
    let mut it = toks.iter();
    let first = it.next()?.ident()?;
    if let Some(b) = block(first) {
        return Some(b);
    }
    let mut next = it.next()?;
    if next.is_op(":") {
        next = it.next()?;
    }
    block(next.ident()?)
}

/// Splits on commas that are outside parentheses and quotes.
fn split_top(toks: &[Token]) -> Vec<&[Token]> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.is_op("(") || t.is_op("[") {
            depth += 1;
        } else if t.is_op(")") || t.is_op("]") {
            depth -= 1;
        } else if t.is_op(",") && depth == 0 {
            out.push(&toks[start..i]);
            start = i + 1;
        }
    }
    out.push(&toks[start..]);
    out
}

/// Macro arguments: the raw operand text split on top-level commas.
fn split_args(rest: &str) -> Vec<String> {
    if rest.trim().is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for c in rest.chars() {
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                }
                cur.push(c);
            }
            None => match c {
                '"' | '\'' => {
                    quote = Some(c);
                    cur.push(c);
                }
                '(' => {
                    depth += 1;
                    cur.push(c);
                }
                ')' => {
                    depth -= 1;
                    cur.push(c);
                }
                ',' if depth == 0 => out.push(std::mem::take(&mut cur).trim().to_string()),
                _ => cur.push(c),
            },
        }
    }
    out.push(cur.trim().to_string());
    out
}

/// Replaces the macro parameters `/1` .. `/9` in a body line.
fn substitute_params<'a>(line: &'a str, args: &[String]) -> Result<Cow<'a, str>, String> {
    if !line.contains('/') {
        return Ok(Cow::Borrowed(line));
    }
    let code_end = crate::lexer::code_end(line);
    let mut out = String::with_capacity(line.len());
    let mut chars = line[..code_end].chars().peekable();
    // Stop as soon as the line cannot be short enough any more (a character is at most 4
    // bytes): arguments can be long and used many times.
    let too_long = |out: &String| out.len() > 4 * MAX_LINE_CHARS;
    while let Some(c) = chars.next() {
        if c == '/' {
            if let Some(d) = chars.peek().and_then(|d| d.to_digit(10)).filter(|&d| d > 0) {
                chars.next();
                let arg = args
                    .get(d as usize - 1)
                    .ok_or_else(|| format!("parameter /{d} used but only {} given", args.len()))?;
                out.push_str(arg);
                if too_long(&out) {
                    return Err(substituted_too_long());
                }
                continue;
            }
        }
        out.push(c);
    }
    out.push_str(&line[code_end..]);
    if out.len() > MAX_LINE_CHARS && out.chars().count() > MAX_LINE_CHARS {
        return Err(substituted_too_long());
    }
    Ok(Cow::Owned(out))
}

#[derive(Debug, Clone, Copy)]
enum Syn<'t> {
    Imp,
    Acc(&'t [Token]),
    Imm(&'t [Token]),
    Addr(&'t [Token]),
    AddrX(&'t [Token]),
    AddrY(&'t [Token]),
    Ind(&'t [Token]),
    IndX(&'t [Token]),
    IndY(&'t [Token]),
}

fn matching_paren(toks: &[Token]) -> Option<usize> {
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.is_op("(") {
            depth += 1;
        } else if t.is_op(")") {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// `, X` or `, Y` at the end: returns the register and the tokens before it.
fn strip_index(toks: &[Token]) -> (Option<char>, &[Token]) {
    let n = toks.len();
    if n >= 3 && toks[n - 2].is_op(",") {
        if let Some(r) = toks[n - 1].ident() {
            if r.eq_ignore_ascii_case("x") {
                return (Some('x'), &toks[..n - 2]);
            }
            if r.eq_ignore_ascii_case("y") {
                return (Some('y'), &toks[..n - 2]);
            }
        }
    }
    (None, toks)
}

fn classify(toks: &[Token]) -> Result<Syn<'_>, String> {
    if toks.is_empty() {
        return Ok(Syn::Imp);
    }
    if toks.len() == 1 && toks[0].ident().is_some_and(|r| r.eq_ignore_ascii_case("a")) {
        return Ok(Syn::Acc(toks));
    }
    if toks[0].is_op("#") {
        if toks.len() == 1 {
            return Err("missing value after '#'".into());
        }
        return Ok(Syn::Imm(&toks[1..]));
    }
    let (index, body) = strip_index(toks);
    if body.is_empty() {
        return Err("missing address before the index register".into());
    }
    if body[0].is_op("(") && matching_paren(body) == Some(body.len() - 1) {
        let inner = &body[1..body.len() - 1];
        match index {
            Some('y') => return Ok(Syn::IndY(inner)),
            Some(_) => return Ok(Syn::AddrX(body)),
            None => {
                let (inner_index, ptr) = strip_index(inner);
                return match inner_index {
                    Some('x') => Ok(Syn::IndX(ptr)),
                    Some(_) => Err("(address,Y) does not exist; use (address),Y".into()),
                    None => Ok(Syn::Ind(inner)),
                };
            }
        }
    }
    Ok(match index {
        Some('x') => Syn::AddrX(body),
        Some(_) => Syn::AddrY(body),
        None => Syn::Addr(body),
    })
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Implied => "implied",
        Mode::Accumulator => "accumulator",
        Mode::Immediate => "immediate",
        Mode::ZeroPage => "zero page",
        Mode::ZeroPageX => "zero page,X",
        Mode::ZeroPageY => "zero page,Y",
        Mode::Absolute => "absolute",
        Mode::AbsoluteX => "absolute,X",
        Mode::AbsoluteY => "absolute,Y",
        Mode::Indirect => "indirect",
        Mode::IndirectX => "(zero page,X)",
        Mode::IndirectY => "(zero page),Y",
        Mode::Relative => "relative",
    }
}

/// Everything the assembler keeps, across passes and within one.
pub(crate) struct Assembler {
    loader: Loader,
    defines: Vec<(String, i64)>,
    start_pc: i64,
    padding: u8,
    macros: HashMap<String, Rc<Macro>>,
    prev: HashMap<String, i64>,
    abs_seen: Vec<bool>,
    pass: usize,
    // Per pass:
    cur: HashMap<String, SymDef>,
    macros_this_pass: HashSet<String>,
    pc: i64,
    mem: Vec<u8>,
    /// Index+1 into `stmt_locs` of the statement that wrote each address (0 = free).
    owner: Vec<u32>,
    stmt_locs: Vec<(Rc<str>, usize)>,
    lo: usize,
    hi: usize,
    errors: Vec<AsmError>,
    listing: Vec<ListLine>,
    calc: bool,
    scope: String,
    macro_count: usize,
    repeat_vars: Vec<(Rc<str>, i64)>,
    ctx: Vec<Ctx>,
    instr_seq: usize,
    file: Rc<str>,
    line: usize,
    /// The file whose line is running (`incbin` names are relative to it).
    cur_src: Option<Rc<Source>>,
    depth: usize,
    statements: usize,
    /// Bytes placed by listed lines, this pass; each `ListLine` has its range.
    list_bytes: Vec<u8>,
    /// Where the running line's bytes start in `list_bytes`.
    line_start: usize,
    line_overlap_reported: bool,
    pc_overflow_reported: bool,
    // Across passes:
    /// Statements run in all passes, against [`MAX_TOTAL_STATEMENTS`].
    total_statements: usize,
    /// A limit was hit: stop everything, no further pass.
    stopped: bool,
}

impl Env for &Assembler {
    fn symbol(&mut self, name: &str) -> Result<Val, String> {
        let full = self.full_name(name);
        if full.bytes().all(|b| b.is_ascii_digit()) {
            // A repeat variable on its own.
            return full
                .parse::<i64>()
                .map(Val::Known)
                .map_err(|_| format!("'{}' is not a valid number", quote(name)));
        }
        if let Some(s) = self.cur.get(&full) {
            return Ok(Val::Known(s.value));
        }
        if let Some(v) = self.prev.get(&full) {
            return Ok(Val::Known(*v));
        }
        Ok(Val::Unknown(full))
    }
    fn pc(&self) -> i64 {
        self.pc
    }
    fn calc_mode(&self) -> bool {
        self.calc
    }
}

impl Assembler {
    pub fn new(opts: &Options, search_dirs: Vec<PathBuf>, start: Option<u16>) -> Assembler {
        Assembler {
            loader: Loader::new(
                search_dirs,
                opts.max_work.map_or(MAX_WORK, |w| w.min(MAX_WORK)),
            ),
            defines: opts.defines.clone(),
            start_pc: opts.start_address.or(start).unwrap_or(0x0801) as i64,
            padding: opts.padding.unwrap_or(0),
            macros: HashMap::new(),
            prev: HashMap::new(),
            abs_seen: Vec::new(),
            pass: 0,
            cur: HashMap::new(),
            macros_this_pass: HashSet::new(),
            pc: 0,
            mem: vec![0; 0x10000],
            owner: vec![0; 0x10000],
            stmt_locs: Vec::new(),
            lo: usize::MAX,
            hi: 0,
            errors: Vec::new(),
            listing: Vec::new(),
            calc: false,
            scope: String::new(),
            macro_count: 0,
            repeat_vars: Vec::new(),
            ctx: Vec::new(),
            instr_seq: 0,
            file: "".into(),
            line: 0,
            cur_src: None,
            depth: 0,
            statements: 0,
            list_bytes: Vec::new(),
            line_start: 0,
            line_overlap_reported: false,
            pc_overflow_reported: false,
            total_statements: 0,
            stopped: false,
        }
    }

    pub fn loader(&mut self) -> &mut Loader {
        &mut self.loader
    }

    /// The program counter before the first `*=` (default $0801).
    pub fn set_start(&mut self, start: Option<u16>) {
        self.start_pc = start.unwrap_or(0x0801) as i64;
    }

    pub fn set_padding(&mut self, padding: u8) {
        self.padding = padding;
    }

    fn begin_pass(&mut self) {
        self.pass += 1;
        self.cur.clear();
        for (name, value) in &self.defines {
            self.cur.insert(
                name.clone(),
                SymDef {
                    value: *value,
                    kind: Kind::Define,
                    file: "command line".into(),
                    line: 0,
                },
            );
        }
        self.macros_this_pass.clear();
        self.pc = self.start_pc;
        self.owner.iter_mut().for_each(|o| *o = 0);
        self.stmt_locs.clear();
        self.lo = usize::MAX;
        self.hi = 0;
        self.errors.clear();
        self.listing.clear();
        self.list_bytes.clear();
        self.line_start = 0;
        self.calc = false;
        self.scope.clear();
        self.macro_count = 0;
        self.repeat_vars.clear();
        self.ctx.clear();
        self.instr_seq = 0;
        self.depth = 0;
        self.statements = 0;
        self.pc_overflow_reported = false;
    }

    /// Runs whole passes over `roots` until the symbol table settles.
    pub fn run(mut self, roots: &[Rc<Source>]) -> Result<Assembly, Errors> {
        let mut settled = false;
        while self.pass < MAX_PASSES {
            self.begin_pass();
            let macros_before: HashSet<String> = self.macros.keys().cloned().collect();
            for root in roots {
                self.run_lines(root, 0..root.len(), None);
            }
            if self.stopped {
                // A limit was hit: that error is the result.
                settled = true;
                break;
            }
            let table: HashMap<String, i64> =
                self.cur.iter().map(|(k, v)| (k.clone(), v.value)).collect();
            // Every macro this pass used must have been known from its start.
            let macros_stable = self.macros_this_pass == macros_before;
            settled = self.pass >= 2 && table == self.prev && macros_stable;
            self.prev = table;
            if settled {
                break;
            }
            // Macros defined later in the source are callable earlier from the next pass
            // on; drop the ones no longer defined.
            let keep = std::mem::take(&mut self.macros_this_pass);
            self.macros.retain(|k, _| keep.contains(k));
        }
        if !settled {
            self.errors.push(AsmError {
                file: roots
                    .first()
                    .map(|r| r.display.to_string())
                    .unwrap_or_default(),
                line: 0,
                message: format!(
                    "addresses did not settle after {MAX_PASSES} passes (a value that \
                     depends on its own size?)"
                ),
            });
        }
        if !self.errors.is_empty() {
            self.errors.truncate(MAX_ERRORS);
            return Err(Errors(self.errors));
        }
        Ok(self.finish())
    }

    fn finish(self) -> Assembly {
        let (load_address, bytes) = if self.lo == usize::MAX {
            ((self.start_pc as u16), Vec::new())
        } else {
            let bytes = (self.lo..=self.hi)
                .map(|a| {
                    if self.owner[a] != 0 {
                        self.mem[a]
                    } else {
                        self.padding
                    }
                })
                .collect();
            (self.lo as u16, bytes)
        };
        let mut symbols = BTreeMap::new();
        let mut labels = BTreeMap::new();
        for (name, def) in &self.cur {
            symbols.insert(name.clone(), def.value);
            if def.kind == Kind::Label {
                labels.insert(name.clone(), def.value as u16);
            }
        }
        Assembly {
            load_address,
            bytes,
            symbols,
            labels,
            listing: format_listing(&self.listing, &self.list_bytes),
            output_name: None,
            passes: self.pass,
            inputs: self.loader.inputs,
        }
    }

    fn error(&mut self, message: impl Into<String>) {
        if self.errors.len() >= MAX_ERRORS {
            return;
        }
        let mut message = message.into();
        if !self.ctx.is_empty() {
            // Outermost first. Deep nesting (up to 64 levels) shows its two ends only.
            const SHOWN: usize = 4;
            let n = self.ctx.len();
            message.push_str(" (");
            for (i, c) in self.ctx.iter().enumerate() {
                if n > SHOWN && (1..n + 1 - SHOWN).contains(&i) {
                    if i == 1 {
                        let _ = write!(message, ", ... {} more", n - SHOWN);
                    }
                    continue;
                }
                if i > 0 {
                    message.push_str(", ");
                }
                let _ = write!(message, "{c}");
            }
            message.push(')');
        }
        self.errors.push(AsmError {
            file: self.file.to_string(),
            line: self.line,
            message,
        });
    }

    /// Stops the assembly at the running line: a limit on time or memory was reached.
    fn stop(&mut self, message: String) {
        if !self.stopped {
            self.stopped = true;
            // The pass was cut short, so its other errors may be artefacts (labels not
            // reached yet): this one is the result.
            self.errors.clear();
            self.error(message);
        }
    }

    fn charge(&self, units: usize) {
        self.loader.add_work(units as u64);
    }

    /// A symbol's name after repeat-variable substitution and local-label scoping.
    fn full_name(&self, raw: &str) -> String {
        let mut name = raw.to_string();
        let mut built = false;
        for (var, value) in self.repeat_vars.iter().rev() {
            if name.contains(&**var) {
                name = name.replace(&**var, &value.to_string());
                built = true;
            }
        }
        if name.starts_with('@') {
            name = format!("{}{}", self.scope, name);
            built = true;
        }
        if built {
            // Substitution can make a name many times longer than the line it is on.
            self.charge(name.len());
        }
        name
    }

    fn is_macro(&self, word: &str) -> bool {
        self.macros.contains_key(&word.to_ascii_lowercase())
    }

    fn define(&mut self, raw: &str, value: i64, kind: Kind) {
        let name = self.full_name(raw);
        if name.bytes().all(|b| b.is_ascii_digit()) {
            self.error(format!(
                "label '{}' becomes the number {} here; use the repeat variable \
                 inside a longer name",
                quote(raw),
                quote(&name)
            ));
            return;
        }
        if kind == Kind::Label && !raw.starts_with('@') {
            self.scope = name.clone();
        }
        if let Some(old) = self.cur.get(&name) {
            if old.kind == Kind::Define
                || (old.kind == Kind::Constant && kind == Kind::Constant && old.value == value)
            {
                return;
            }
            let first = format!("{}:{}", old.file, old.line);
            self.error(format!(
                "duplicate label '{}' (first defined at {first})",
                quote(&name)
            ));
            return;
        }
        self.cur.insert(
            name,
            SymDef {
                value,
                kind,
                file: self.file.clone(),
                line: self.line,
            },
        );
    }

    /// Evaluates; reports errors. `None` = not known (yet).
    fn value(&mut self, toks: &[Token]) -> Option<i64> {
        let mut env: &Assembler = self;
        match eval(toks, &mut env) {
            Ok(Val::Known(v)) => Some(v),
            Ok(Val::Unknown(name)) => {
                self.error(format!("undefined label '{}'", quote(&name)));
                None
            }
            Err(e) => {
                self.error(e);
                None
            }
        }
    }

    /// Counts one statement and charges its text; false (and the assembly stopped) when a
    /// limit is reached.
    fn within_limits(&mut self, chars: usize) -> bool {
        self.statements += 1;
        self.total_statements += 1;
        self.charge(chars + 1);
        if self.statements > MAX_STATEMENTS {
            self.stop(format!(
                "more than {MAX_STATEMENTS} statements in one pass (endless repeat or macro \
                 recursion?)"
            ));
        } else if self.total_statements > MAX_TOTAL_STATEMENTS {
            self.stop(format!(
                "more than {MAX_TOTAL_STATEMENTS} statements in all passes together"
            ));
        } else if self.loader.out_of_work() {
            self.stop(out_of_work(self.loader.work_limit));
        }
        !self.stopped
    }

    fn run_lines(&mut self, src: &Rc<Source>, range: Range<usize>, args: Option<&[String]>) {
        let mut conds: Vec<Cond> = Vec::new();
        let mut i = range.start;
        while i < range.end {
            if self.stopped {
                return;
            }
            self.file = src.display.clone();
            self.line = i + 1;
            self.cur_src = Some(src.clone());
            // The innermost condition knows whether all the outer ones are taken (an `if`
            // inside a skipped block is never taken), so this is one look, not one per level.
            let active = conds.last().is_none_or(Cond::taking);
            let raw = src.line(i);
            let text = match args {
                Some(a) => match substitute_params(raw, a) {
                    Ok(t) => t,
                    Err(e) => {
                        if self.within_limits(raw.len()) && active {
                            self.error(e);
                        }
                        i += 1;
                        continue;
                    }
                },
                None => Cow::Borrowed(raw),
            };
            if !self.within_limits(text.len()) {
                return;
            }
            if !active {
                let block = match &text {
                    Cow::Borrowed(_) => src.block(i),
                    Cow::Owned(t) => block_word(t),
                };
                match block {
                    Some(Block::If) => conds.push(Cond {
                        parent_active: false,
                        value: false,
                        in_else: false,
                        line: i + 1,
                    }),
                    Some(Block::Else) => {
                        if let Some(c) = conds.last_mut() {
                            if c.in_else && c.parent_active {
                                self.error("second 'else' for the same 'if'");
                            }
                            c.in_else = true;
                        }
                    }
                    Some(Block::Endif) => {
                        conds.pop();
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            // The text, for the listing, when macro parameters changed it.
            let changed = match &text {
                Cow::Owned(t) => Some(t.as_str()),
                Cow::Borrowed(_) => None,
            };
            let stmt = match parse_stmt(&text, &|w| self.is_macro(w)) {
                Ok(s) => s,
                Err(e) => {
                    self.error(e);
                    i += 1;
                    continue;
                }
            };
            let start_pc = self.pc;
            self.list_bytes.truncate(self.line_start);
            self.line_overlap_reported = false;
            if let Some(label) = &stmt.label {
                self.define(label, self.pc, Kind::Label);
            }
            let (word, operand, rest) = match &stmt.body {
                Body::Op {
                    word,
                    operand,
                    rest,
                } => (word.to_ascii_lowercase(), operand.as_slice(), rest.as_str()),
                _ => {
                    self.simple(&stmt.body);
                    self.list(start_pc, src, i, changed);
                    i += 1;
                    continue;
                }
            };
            match word.as_str() {
                "if" | "ifdef" | "ifndef" => {
                    let value = self.condition(&word, operand);
                    conds.push(Cond {
                        parent_active: true,
                        value,
                        in_else: false,
                        line: i + 1,
                    });
                    self.list(start_pc, src, i, changed);
                }
                "else" => {
                    match conds.last_mut() {
                        Some(c) if !c.in_else => c.in_else = true,
                        Some(_) => self.error("second 'else' for the same 'if'"),
                        None => self.error("'else' without 'if'"),
                    }
                    self.list(start_pc, src, i, changed);
                }
                "endif" => {
                    if conds.pop().is_none() {
                        self.error("'endif' without 'if'");
                    }
                    self.list(start_pc, src, i, changed);
                }
                "repeat" => {
                    self.list(start_pc, src, i, changed);
                    let Some(end) = src.end_of(i, range.end) else {
                        self.error("'repeat' without 'endrepeat'");
                        i = range.end;
                        continue;
                    };
                    self.repeat(src, operand, i + 1..end, args);
                    if self.stopped {
                        return;
                    }
                    self.file = src.display.clone();
                    self.line = end + 1;
                    self.list(self.pc, src, end, None);
                    i = end + 1;
                    continue;
                }
                "defm" => {
                    self.list(start_pc, src, i, changed);
                    let Some(end) = src.end_of(i, range.end) else {
                        self.error("'defm' without 'endm'");
                        i = range.end;
                        continue;
                    };
                    self.define_macro(src, operand, i + 1..end);
                    i = end + 1;
                    continue;
                }
                "endrepeat" => self.error("'endrepeat' without 'repeat'"),
                "endm" => self.error("'endm' without 'defm'"),
                "incasm" => {
                    self.list(start_pc, src, i, changed);
                    self.include(src, operand);
                }
                _ if self.is_macro(&word) => {
                    self.list(start_pc, src, i, changed);
                    self.call_macro(&word, rest);
                }
                _ => {
                    self.op(&word, operand);
                    self.list(start_pc, src, i, changed);
                }
            }
            i += 1;
        }
        if self.stopped {
            return;
        }
        for c in conds {
            self.file = src.display.clone();
            self.line = c.line;
            self.error("'if' without 'endif'");
        }
    }

    /// Lists line `i` of `src` with the bytes placed since the last listed line. `changed`
    /// is the text run when macro parameters changed it (else the listing shows the
    /// source line).
    fn list(&mut self, pc: i64, src: &Rc<Source>, i: usize, changed: Option<&str>) {
        let end = self.list_bytes.len();
        self.listing.push(ListLine {
            addr: u16::try_from(pc).ok(),
            bytes: self.line_start as u32..end as u32,
            src: src.clone(),
            line: i as u32,
            text: changed.map(|t| t.trim_end().into()),
        });
        self.line_start = end;
    }

    fn condition(&mut self, word: &str, operand: &[Token]) -> bool {
        if word == "if" {
            return self.value(operand).is_some_and(|v| v != 0);
        }
        let name = match operand {
            [t] => t.ident().map(str::to_string),
            _ => None,
        };
        let Some(name) = name else {
            self.error(format!("'{word}' needs one symbol name"));
            return false;
        };
        let defined = self.cur.contains_key(&self.full_name(&name));
        defined == (word == "ifdef")
    }

    fn repeat(
        &mut self,
        src: &Rc<Source>,
        operand: &[Token],
        body: Range<usize>,
        args: Option<&[String]>,
    ) {
        let parts = split_top(operand);
        let (from, to, var) = match parts.as_slice() {
            [count] => match self.value(count) {
                Some(n) => (1, n, None),
                None => return,
            },
            [from, to] | [from, to, _] => {
                let var = match parts.get(2) {
                    Some([t]) if t.ident().is_some() => t.ident().map(Rc::<str>::from),
                    Some(_) => {
                        self.error("repeat variable must be a single name");
                        return;
                    }
                    None => None,
                };
                match (self.value(from), self.value(to)) {
                    (Some(f), Some(t)) => (f, t, var),
                    _ => return,
                }
            }
            _ => {
                self.error("repeat needs COUNT or FROM, TO[, NAME]");
                return;
            }
        };
        if parts.len() == 1 && to < 0 {
            self.error(format!("repeat count {to} is negative"));
            return;
        }
        let span = to.abs_diff(from);
        if span >= MAX_REPEAT as u64 {
            self.error(format!(
                "repeat of {} iterations is too many (at most {MAX_REPEAT})",
                span as u128 + 1
            ));
            return;
        }
        if parts.len() == 1 && to == 0 {
            return;
        }
        if self.depth >= MAX_NESTING {
            self.error(nested_too_deeply());
            return;
        }
        let step = if to >= from { 1 } else { -1 };
        let mut v = from;
        self.depth += 1;
        loop {
            if let Some(name) = &var {
                self.repeat_vars.push((name.clone(), v));
                self.ctx.push(Ctx::Repeat {
                    var: name.clone(),
                    value: v,
                });
            }
            self.run_lines(src, body.clone(), args);
            if var.is_some() {
                self.repeat_vars.pop();
                self.ctx.pop();
            }
            if v == to || self.stopped {
                break;
            }
            v += step;
        }
        self.depth -= 1;
    }

    fn define_macro(&mut self, src: &Rc<Source>, operand: &[Token], body: Range<usize>) {
        let name = match operand {
            [t] => t.ident().map(str::to_string),
            _ => None,
        };
        let Some(name) = name else {
            self.error("'defm' needs one macro name");
            return;
        };
        if mnemonic(&name).is_some() || is_directive(&name) {
            self.error(format!(
                "macro name '{}' is a mnemonic or directive",
                quote(&name)
            ));
            return;
        }
        let key = name.to_ascii_lowercase();
        if !self.macros_this_pass.insert(key.clone()) {
            let m = &self.macros[&key];
            let first = format!("{}:{}", m.file, m.line);
            self.error(format!(
                "macro '{}' is already defined (at {first})",
                quote(&name)
            ));
            return;
        }
        self.macros.insert(
            key,
            Rc::new(Macro {
                src: src.clone(),
                body,
                file: self.file.clone(),
                line: self.line,
            }),
        );
    }

    fn call_macro(&mut self, word: &str, rest: &str) {
        let Some(m) = self.macros.get(word).cloned() else {
            return;
        };
        if self.depth >= MAX_NESTING {
            self.error(nested_too_deeply());
            return;
        }
        let args = split_args(rest);
        self.macro_count += 1;
        let saved_scope =
            std::mem::replace(&mut self.scope, format!("{}#{}", word, self.macro_count));
        let (file, line) = (self.file.clone(), self.line);
        self.ctx.push(Ctx::Macro {
            name: word.to_string(),
            file: file.clone(),
            line,
        });
        self.depth += 1;
        self.run_lines(&m.src, m.body.clone(), Some(&args));
        self.depth -= 1;
        self.ctx.pop();
        self.scope = saved_scope;
        self.file = file;
        self.line = line;
    }

    fn file_operand(&mut self, operand: &[Token], what: &str) -> Option<String> {
        match operand.first().map(|t| &t.tok) {
            Some(Tok::Str(s)) => Some(s.clone()),
            _ => {
                self.error(format!("'{what}' needs a file name in quotes"));
                None
            }
        }
    }

    fn include(&mut self, from: &Rc<Source>, operand: &[Token]) {
        let Some(name) = self.file_operand(operand, "incasm") else {
            return;
        };
        if operand.len() > 1 {
            self.error("unexpected text after the file name");
        }
        if self.depth >= MAX_NESTING {
            self.error(nested_too_deeply());
            return;
        }
        let path = match self.loader.resolve(&name, from.dir.as_deref()) {
            Ok(p) => p,
            Err(e) => {
                self.error(e);
                return;
            }
        };
        // Show the file's real name, which may differ in case from the source's.
        let real = path.file_name().and_then(|n| n.to_str()).unwrap_or(&name);
        let shown = match name.replace('\\', "/").rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/{real}"),
            None => real.to_string(),
        };
        let display = child_display(&from.display, &shown);
        let src = self.loader.source(&path, &display);
        match src {
            Ok(src) => {
                let (file, line) = (self.file.clone(), self.line);
                self.depth += 1;
                self.run_lines(&src, 0..src.len(), None);
                self.depth -= 1;
                self.file = file;
                self.line = line;
            }
            Err(LoadError::File(e)) => self.error(e.to_string()),
            Err(LoadError::Line(e)) => {
                if self.errors.len() < MAX_ERRORS {
                    self.errors.push(e);
                }
            }
        }
    }

    fn simple(&mut self, body: &Body) {
        match body {
            Body::None | Body::Op { .. } => {}
            Body::Origin(toks) => self.origin(toks),
            Body::Assign(name, toks) => {
                if let Some(v) = self.value(toks) {
                    self.define(name, v, Kind::Constant);
                }
            }
        }
    }

    fn origin(&mut self, toks: &[Token]) {
        if let Some(v) = self.value(toks) {
            if (0..=0xFFFF).contains(&v) {
                self.pc = v;
                self.pc_overflow_reported = false;
            } else {
                self.error(format!("origin {v} is outside $0000-$FFFF"));
            }
        }
    }

    fn emit(&mut self, bytes: &[u8]) {
        self.charge(bytes.len());
        for &b in bytes {
            if !(0..=0xFFFF).contains(&self.pc) {
                if !self.pc_overflow_reported {
                    self.pc_overflow_reported = true;
                    self.error("program counter runs past $FFFF");
                }
                self.pc += 1;
                continue;
            }
            let a = self.pc as usize;
            if self.owner[a] != 0 {
                if !self.line_overlap_reported {
                    self.line_overlap_reported = true;
                    let (f, l) = self.stmt_locs[self.owner[a] as usize - 1].clone();
                    self.error(format!(
                        "code at ${a:04X} overlaps earlier code from {f}:{l}"
                    ));
                }
            } else {
                if self.stmt_locs.last() != Some(&(self.file.clone(), self.line)) {
                    self.stmt_locs.push((self.file.clone(), self.line));
                }
                self.owner[a] = self.stmt_locs.len() as u32;
            }
            self.mem[a] = b;
            self.lo = self.lo.min(a);
            self.hi = self.hi.max(a);
            self.list_bytes.push(b);
            self.pc += 1;
        }
    }

    fn op(&mut self, word: &str, operand: &[Token]) {
        if let Some(m) = mnemonic(word) {
            self.instruction(m, operand);
            return;
        }
        match word {
            "byte" | "byt" | "db" | "dcb" | "dc.b" | "text" => self.data(operand, 1, false),
            "null" => self.data(operand, 1, true),
            "word" | "dw" | "dc.w" => self.data(operand, 2, false),
            "incbin" => self.incbin(operand),
            "org" => self.origin(operand),
            "operator" => {
                let mode = match operand {
                    [t] => t.ident().map(str::to_ascii_lowercase),
                    _ => None,
                };
                match mode.as_deref() {
                    Some("calc") => self.calc = true,
                    Some("hilo") => self.calc = false,
                    _ => self.error("'operator' needs Calc or HiLo"),
                }
            }
            "align" => {
                let parts = split_top(operand);
                if parts.len() > 2 {
                    self.error("'align' takes a size and an optional fill byte");
                    return;
                }
                let Some(size) = self.value(parts[0]) else {
                    return;
                };
                let fill = match parts.get(1) {
                    Some(f) => match self.value(f) {
                        Some(v) => self.byte_value(v),
                        None => return,
                    },
                    None => 0,
                };
                if !(1..=0x10000).contains(&size) {
                    self.error(format!("align size {size} must be 1-65536"));
                    return;
                }
                let pad = (size - self.pc.rem_euclid(size)) % size;
                self.emit(&vec![fill; pad as usize]);
            }
            // IDE-only directives (build target, editor folding, debugger watches).
            "target" | "region" | "endregion" | "watch" => {}
            w if w.starts_with('.') => self.error(format!("unknown directive '{}'", quote(w))),
            w => self.error(format!(
                "unknown mnemonic, directive or macro '{}'",
                quote(w)
            )),
        }
    }

    fn byte_value(&mut self, v: i64) -> u8 {
        if (-128..=255).contains(&v) {
            v as u8
        } else {
            self.error(format!(
                "value {v} (${:X}) does not fit in a byte",
                v as u64 & 0xFFFF_FFFF
            ));
            0
        }
    }

    fn data(&mut self, operand: &[Token], size: usize, terminate: bool) {
        if operand.is_empty() {
            self.error("missing data");
            return;
        }
        for item in split_top(operand) {
            // A lone string in a byte list is its PETSCII bytes; in a word list a
            // one-character string is a number like anywhere else.
            if let [Token {
                tok: Tok::Str(s), ..
            }] = item
            {
                if size == 1 {
                    match petscii_str(s) {
                        Ok(bytes) => self.emit(&bytes),
                        Err(e) => self.error(e),
                    }
                    continue;
                }
            }
            if item.is_empty() {
                self.error("empty value in data list");
                continue;
            }
            let v = self.value(item);
            if size == 1 {
                let b = v.map(|v| self.byte_value(v)).unwrap_or(0);
                self.emit(&[b]);
            } else {
                let w = match v {
                    Some(v) if (-32768..=65535).contains(&v) => v as u16,
                    Some(v) => {
                        self.error(format!("value {v} does not fit in a word"));
                        0
                    }
                    None => 0,
                };
                self.emit(&w.to_le_bytes());
            }
        }
        if terminate {
            self.emit(&[0]);
        }
    }

    fn incbin(&mut self, operand: &[Token]) {
        let parts = split_top(operand);
        let Some(name) = self.file_operand(parts[0], "incbin") else {
            return;
        };
        if parts[0].len() > 1 || parts.len() > 3 {
            self.error("'incbin' takes \"file\"[, offset[, length]]");
            return;
        }
        let dir = self.cur_src.as_ref().and_then(|s| s.dir.clone());
        let data = self
            .loader
            .resolve(&name, dir.as_deref())
            .and_then(|p| self.loader.binary(&p));
        let data = match data {
            Ok(d) => d,
            Err(e) => {
                self.error(e);
                return;
            }
        };
        let offset = match parts.get(1) {
            Some(t) => match self.value(t) {
                Some(v) => v,
                None => return,
            },
            None => 0,
        };
        let len = match parts.get(2) {
            Some(t) => match self.value(t) {
                Some(v) => v,
                None => return,
            },
            None => (data.len() as i64).saturating_sub(offset.max(0)),
        };
        let end = offset.checked_add(len);
        if offset < 0 || len < 0 || end.is_none_or(|e| e > data.len() as i64) {
            self.error(format!(
                "incbin range {offset}+{len} is outside the file's {} bytes",
                data.len()
            ));
            return;
        }
        let slice = data[offset as usize..(offset + len) as usize].to_vec();
        self.emit(&slice);
    }

    fn has(m: &'static str, mode: Mode) -> Option<u8> {
        tables().codes.get(&(m, mode)).copied()
    }

    fn instruction(&mut self, m: &'static str, operand: &[Token]) {
        let syn = match classify(operand) {
            Ok(s) => s,
            Err(e) => {
                self.error(e);
                return;
            }
        };
        let seq = self.instr_seq;
        self.instr_seq += 1;
        if let Some(code) = Self::has(m, Mode::Relative) {
            let Syn::Addr(toks) = syn else {
                self.error(format!("{m} needs a branch target address"));
                return;
            };
            let offset = match self.value(toks) {
                Some(target) => {
                    let d = target.wrapping_sub(self.pc + 2);
                    if !(-128..=127).contains(&d) {
                        self.error(format!(
                            "branch out of range: target ${:04X} is {d} bytes away \
                             (allowed -128..+127)",
                            target & 0xFFFF
                        ));
                        0
                    } else {
                        d as u8
                    }
                }
                None => 0,
            };
            self.emit(&[code, offset]);
            return;
        }
        let bad = |mode: Mode| format!("{m} does not support {} addressing", mode_name(mode));
        match syn {
            Syn::Imp => {
                if let Some(c) = Self::has(m, Mode::Implied).or(Self::has(m, Mode::Accumulator)) {
                    self.emit(&[c]);
                } else {
                    self.error(format!("{m} needs an operand"));
                }
            }
            Syn::Acc(toks) => {
                if let Some(c) = Self::has(m, Mode::Accumulator) {
                    self.emit(&[c]);
                } else {
                    self.address(m, toks, Mode::ZeroPage, Mode::Absolute, seq);
                }
            }
            Syn::Imm(toks) => {
                let Some(c) = Self::has(m, Mode::Immediate) else {
                    if Self::has(m, Mode::Implied).is_some() {
                        self.error(format!("{m} takes no operand"));
                    } else {
                        self.error(bad(Mode::Immediate));
                    }
                    return;
                };
                let b = self.value(toks).map(|v| self.byte_value(v)).unwrap_or(0);
                self.emit(&[c, b]);
            }
            Syn::Addr(toks) => self.address(m, toks, Mode::ZeroPage, Mode::Absolute, seq),
            Syn::AddrX(toks) => self.address(m, toks, Mode::ZeroPageX, Mode::AbsoluteX, seq),
            Syn::AddrY(toks) => self.address(m, toks, Mode::ZeroPageY, Mode::AbsoluteY, seq),
            Syn::Ind(toks) => {
                let Some(c) = Self::has(m, Mode::Indirect) else {
                    self.error(bad(Mode::Indirect));
                    return;
                };
                let w = self.address_value(toks).unwrap_or(0);
                self.emit(&[c, w as u8, (w >> 8) as u8]);
            }
            Syn::IndX(toks) | Syn::IndY(toks) => {
                let mode = if matches!(syn, Syn::IndX(_)) {
                    Mode::IndirectX
                } else {
                    Mode::IndirectY
                };
                let Some(c) = Self::has(m, mode) else {
                    self.error(bad(mode));
                    return;
                };
                let b = match self.value(toks) {
                    Some(v) if (0..=255).contains(&v) => v as u8,
                    Some(v) => {
                        self.error(format!(
                            "pointer address ${:X} is not in zero page ($00-$FF)",
                            v as u64 & 0xFFFF_FFFF
                        ));
                        0
                    }
                    None => 0,
                };
                self.emit(&[c, b]);
            }
        }
    }

    fn address_value(&mut self, toks: &[Token]) -> Option<i64> {
        let v = self.value(toks)?;
        if (0..=0xFFFF).contains(&v) {
            Some(v)
        } else {
            self.error(format!("address {v} is outside $0000-$FFFF"));
            None
        }
    }

    fn address(&mut self, m: &'static str, toks: &[Token], zp: Mode, abs: Mode, seq: usize) {
        let zp_code = Self::has(m, zp);
        let abs_code = Self::has(m, abs);
        if zp_code.is_none() && abs_code.is_none() {
            if Self::has(m, Mode::Implied).is_some() && zp == Mode::ZeroPage {
                self.error(format!("{m} takes no operand"));
            } else {
                self.error(format!(
                    "{m} does not support {} addressing",
                    mode_name(abs)
                ));
            }
            return;
        }
        let v = self.address_value(toks);
        let sticky = self.pass >= STICKY_PASS && self.abs_seen.get(seq).copied().unwrap_or(false);
        let fits = v.is_some_and(|v| v <= 0xFF);
        match (zp_code, abs_code) {
            (Some(c), _) if fits && !(sticky && abs_code.is_some()) => {
                self.emit(&[c, v.unwrap_or(0) as u8]);
            }
            (_, Some(c)) => {
                if zp_code.is_some() && self.pass >= 2 {
                    if self.abs_seen.len() <= seq {
                        self.abs_seen.resize(seq + 1, false);
                    }
                    self.abs_seen[seq] = true;
                }
                let w = v.unwrap_or(0);
                self.emit(&[c, w as u8, (w >> 8) as u8]);
            }
            (Some(c), None) => {
                if let Some(v) = v {
                    self.error(format!(
                        "{m} has no {} mode and ${v:04X} does not fit in zero page",
                        mode_name(abs)
                    ));
                }
                self.emit(&[c, 0]);
            }
            (None, None) => unreachable!("checked above"),
        }
    }
}

fn format_listing(lines: &[ListLine], bytes: &[u8]) -> String {
    let locs: Vec<String> = lines
        .iter()
        .map(|l| format!("{}:{}", l.src.display, l.line + 1))
        .collect();
    let width = locs.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for (l, loc) in lines.iter().zip(&locs) {
        let addr = l.addr.map(|a| format!("${a:04X}")).unwrap_or_default();
        let text = match &l.text {
            Some(t) => t,
            None => l.src.line(l.line as usize).trim_end(),
        };
        let mut chunks = bytes[l.bytes.start as usize..l.bytes.end as usize].chunks(8);
        let first = chunks.next().map(hex).unwrap_or_default();
        let line = format!("{addr:<5}  {first:<23}  {loc:<width$}  {text}");
        let _ = writeln!(out, "{}", line.trim_end());
        let mut a = l.addr.unwrap_or(0) as usize + 8;
        for c in chunks {
            let _ = writeln!(out, "${:04X}  {}", a & 0xFFFF, hex(c));
            a += 8;
        }
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}
