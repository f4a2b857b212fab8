//! The assembler proper: runs the source once per pass until every symbol keeps its
//! value from one pass to the next, then turns the last pass into an [`Assembly`].

use crate::expr::{eval, Env, Val};
use crate::lexer::{lex, Tok, Token};
use crate::petscii::petscii_str;
use crate::{AsmError, Assembly, Errors, Options};
use c64kit_opcodes::{find_opcode, Mode, ALIASES, OPCODES};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::OnceLock;

const MAX_PASSES: usize = 20;
/// From this pass on, an instruction that once needed absolute addressing keeps it, so
/// that zero-page/absolute choices cannot oscillate for ever.
const STICKY_PASS: usize = 5;
const MAX_NESTING: usize = 64;
const MAX_REPEAT: i64 = 65536;
const MAX_STATEMENTS: usize = 1_000_000;
const MAX_ERRORS: usize = 200;

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

/// One loaded source file.
pub(crate) struct Source {
    /// Name used in messages and the listing.
    pub display: Rc<str>,
    /// Directory that relative includes start from (None for in-memory sources).
    pub dir: Option<PathBuf>,
    pub lines: Vec<String>,
}

impl Source {
    pub fn from_text(display: &str, dir: Option<PathBuf>, text: &str) -> Source {
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        Source {
            display: display.into(),
            dir,
            lines: text
                .split('\n')
                .map(|l| l.strip_suffix('\r').unwrap_or(l).to_string())
                .collect(),
        }
    }
}

/// Source files may be UTF-8 or (from Windows editors) Latin-1/CP1252.
pub(crate) fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    }
}

/// Finds and caches files named by `incasm`/`incbin`.
pub(crate) struct Loader {
    search_dirs: Vec<PathBuf>,
    sources: HashMap<PathBuf, Rc<Source>>,
    binaries: HashMap<PathBuf, Rc<Vec<u8>>>,
}

/// `rel` under `base`, matching each path component without regard to case (CBM prg
/// Studio runs on Windows, whose file names are case-insensitive).
fn find_ignoring_case(base: &Path, rel: &Path) -> Option<PathBuf> {
    let mut cur = base.to_path_buf();
    for comp in rel.components() {
        let want = comp.as_os_str();
        let exact = cur.join(want);
        if exact.exists() {
            cur = exact;
            continue;
        }
        let want = want.to_str()?;
        let entry = std::fs::read_dir(&cur).ok()?.flatten().find(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.eq_ignore_ascii_case(want))
        })?;
        cur = entry.path();
    }
    Some(cur)
}

impl Loader {
    pub fn new(search_dirs: Vec<PathBuf>) -> Loader {
        Loader {
            search_dirs,
            sources: HashMap::new(),
            binaries: HashMap::new(),
        }
    }

    pub fn resolve(&self, name: &str, from: Option<&Path>) -> Result<PathBuf, String> {
        let norm = name.replace('\\', "/");
        let rel = Path::new(&norm);
        if rel.is_absolute() {
            return if rel.exists() {
                Ok(rel.to_path_buf())
            } else {
                Err(format!("cannot find file '{name}'"))
            };
        }
        let dirs: Vec<&Path> = from
            .into_iter()
            .chain(self.search_dirs.iter().map(PathBuf::as_path))
            .collect();
        for dir in &dirs {
            if let Some(p) = find_ignoring_case(dir, rel) {
                if p.is_file() {
                    return Ok(p);
                }
            }
        }
        if dirs.is_empty() {
            return Err(format!(
                "cannot find file '{name}': no include directory given"
            ));
        }
        let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        Err(format!(
            "cannot find file '{name}' (looked in {})",
            looked.join(", ")
        ))
    }

    pub fn source(&mut self, path: &Path, display: &str) -> Result<Rc<Source>, String> {
        if let Some(s) = self.sources.get(path) {
            return Ok(s.clone());
        }
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        let src = Rc::new(Source::from_text(
            display,
            path.parent().map(Path::to_path_buf),
            &decode(&bytes),
        ));
        self.sources.insert(path.to_path_buf(), src.clone());
        Ok(src)
    }

    fn binary(&mut self, path: &Path) -> Result<Rc<Vec<u8>>, String> {
        if let Some(b) = self.binaries.get(path) {
            return Ok(b.clone());
        }
        let bytes = Rc::new(
            std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?,
        );
        self.binaries.insert(path.to_path_buf(), bytes.clone());
        Ok(bytes)
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

struct ListLine {
    addr: Option<u16>,
    bytes: Vec<u8>,
    file: Rc<str>,
    line: usize,
    text: String,
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
            body: Body::Origin(toks[2..].to_vec()),
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
            return Ok(Stmt {
                label: None,
                body: Body::Assign(name.to_string(), toks[2..].to_vec()),
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
            first.tok
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
            body: Body::Origin(toks[idx + 2..].to_vec()),
        });
    }
    let Some(word) = op.ident() else {
        return Err(format!(
            "expected a mnemonic or directive, found '{}'",
            op.tok
        ));
    };
    let code_end = crate::lexer::code_end(text);
    let rest = text[op.end..code_end].trim().to_string();
    Ok(Stmt {
        label,
        body: Body::Op {
            word: word.to_string(),
            operand: toks[idx + 1..].to_vec(),
            rest,
        },
    })
}

/// The block-structure word of a line (`repeat`, `endm`, ...), lower case, if any.
fn block_word(line: &str) -> Option<String> {
    const BLOCK: [&str; 9] = [
        "repeat",
        "endrepeat",
        "defm",
        "endm",
        "if",
        "ifdef",
        "ifndef",
        "else",
        "endif",
    ];
    let toks = lex(line).ok()?;
    let mut it = toks.iter();
    let first = it.next()?.ident()?.to_ascii_lowercase();
    if BLOCK.contains(&first.as_str()) {
        return Some(first);
    }
    let mut next = it.next()?;
    if next.is_op(":") {
        next = it.next()?;
    }
    let w = next.ident()?.to_ascii_lowercase();
    BLOCK.contains(&w.as_str()).then_some(w)
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
    while let Some(c) = chars.next() {
        if c == '/' {
            if let Some(d) = chars.peek().and_then(|d| d.to_digit(10)).filter(|&d| d > 0) {
                chars.next();
                let arg = args
                    .get(d as usize - 1)
                    .ok_or_else(|| format!("parameter /{d} used but only {} given", args.len()))?;
                out.push_str(arg);
                continue;
            }
        }
        out.push(c);
    }
    out.push_str(&line[code_end..]);
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
    repeat_vars: Vec<(String, i64)>,
    ctx: Vec<String>,
    instr_seq: usize,
    file: Rc<str>,
    line: usize,
    /// The file whose line is running (`incbin` names are relative to it).
    cur_src: Option<Rc<Source>>,
    depth: usize,
    statements: usize,
    line_bytes: Vec<u8>,
    line_overlap_reported: bool,
    pc_overflow_reported: bool,
}

impl Env for &Assembler {
    fn symbol(&mut self, name: &str) -> Result<Val, String> {
        let full = self.full_name(name);
        if full.bytes().all(|b| b.is_ascii_digit()) {
            // A repeat variable on its own.
            return full
                .parse::<i64>()
                .map(Val::Known)
                .map_err(|_| format!("'{name}' is not a valid number"));
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
            loader: Loader::new(search_dirs),
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
            line_bytes: Vec::new(),
            line_overlap_reported: false,
            pc_overflow_reported: false,
        }
    }

    pub fn loader(&mut self) -> &mut Loader {
        &mut self.loader
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
                self.run_lines(root, 0..root.lines.len(), None);
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
            listing: format_listing(&self.listing),
            output_name: None,
            passes: self.pass,
        }
    }

    fn error(&mut self, message: impl Into<String>) {
        let mut message = message.into();
        if !self.ctx.is_empty() {
            let _ = write!(message, " ({})", self.ctx.join(", "));
        }
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(AsmError {
                file: self.file.to_string(),
                line: self.line,
                message,
            });
        }
    }

    /// A symbol's name after repeat-variable substitution and local-label scoping.
    fn full_name(&self, raw: &str) -> String {
        let mut name = raw.to_string();
        for (var, value) in self.repeat_vars.iter().rev() {
            if name.contains(var.as_str()) {
                name = name.replace(var.as_str(), &value.to_string());
            }
        }
        if name.starts_with('@') {
            format!("{}{}", self.scope, name)
        } else {
            name
        }
    }

    fn is_macro(&self, word: &str) -> bool {
        self.macros.contains_key(&word.to_ascii_lowercase())
    }

    fn define(&mut self, raw: &str, value: i64, kind: Kind) {
        let name = self.full_name(raw);
        if name.bytes().all(|b| b.is_ascii_digit()) {
            self.error(format!(
                "label '{raw}' becomes the number {name} here; use the repeat variable \
                 inside a longer name"
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
                "duplicate label '{name}' (first defined at {first})"
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
                self.error(format!("undefined label '{name}'"));
                None
            }
            Err(e) => {
                self.error(e);
                None
            }
        }
    }

    fn run_lines(&mut self, src: &Rc<Source>, range: Range<usize>, args: Option<&[String]>) {
        let mut conds: Vec<Cond> = Vec::new();
        let mut i = range.start;
        while i < range.end {
            self.statements += 1;
            if self.statements > MAX_STATEMENTS {
                if self.statements == MAX_STATEMENTS + 1 {
                    self.error(format!(
                        "more than {MAX_STATEMENTS} statements in one pass (endless repeat or \
                         macro recursion?)"
                    ));
                }
                return;
            }
            self.file = src.display.clone();
            self.line = i + 1;
            self.cur_src = Some(src.clone());
            let raw = &src.lines[i];
            let text = match args {
                Some(a) => match substitute_params(raw, a) {
                    Ok(t) => t,
                    Err(e) => {
                        if conds.iter().all(Cond::taking) {
                            self.error(e);
                        }
                        i += 1;
                        continue;
                    }
                },
                None => Cow::Borrowed(raw.as_str()),
            };
            let active = conds.iter().all(Cond::taking);
            if !active {
                match block_word(&text).as_deref() {
                    Some("if" | "ifdef" | "ifndef") => conds.push(Cond {
                        parent_active: false,
                        value: false,
                        in_else: false,
                        line: i + 1,
                    }),
                    Some("else") => {
                        if let Some(c) = conds.last_mut() {
                            if c.in_else && c.parent_active {
                                self.error("second 'else' for the same 'if'");
                            }
                            c.in_else = true;
                        }
                    }
                    Some("endif") => {
                        conds.pop();
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            let stmt = match parse_stmt(&text, &|w| self.is_macro(w)) {
                Ok(s) => s,
                Err(e) => {
                    self.error(e);
                    i += 1;
                    continue;
                }
            };
            let start_pc = self.pc;
            self.line_bytes.clear();
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
                    self.list(start_pc, &text);
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
                    self.list(start_pc, &text);
                }
                "else" => {
                    match conds.last_mut() {
                        Some(c) if !c.in_else => c.in_else = true,
                        Some(_) => self.error("second 'else' for the same 'if'"),
                        None => self.error("'else' without 'if'"),
                    }
                    self.list(start_pc, &text);
                }
                "endif" => {
                    if conds.pop().is_none() {
                        self.error("'endif' without 'if'");
                    }
                    self.list(start_pc, &text);
                }
                "repeat" => {
                    self.list(start_pc, &text);
                    let Some(end) = self.find_end(src, i + 1..range.end, "repeat", "endrepeat")
                    else {
                        self.error("'repeat' without 'endrepeat'");
                        i = range.end;
                        continue;
                    };
                    self.repeat(src, operand, i + 1..end, args);
                    self.file = src.display.clone();
                    self.line = end + 1;
                    self.list(self.pc, &src.lines[end]);
                    i = end + 1;
                    continue;
                }
                "defm" => {
                    self.list(start_pc, &text);
                    let Some(end) = self.find_end(src, i + 1..range.end, "defm", "endm") else {
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
                    self.list(start_pc, &text);
                    self.include(src, operand);
                }
                _ if self.is_macro(&word) => {
                    self.list(start_pc, &text);
                    self.call_macro(&word, rest);
                }
                _ => {
                    self.op(&word, operand);
                    self.list(start_pc, &text);
                }
            }
            i += 1;
        }
        for c in conds {
            self.file = src.display.clone();
            self.line = c.line;
            self.error("'if' without 'endif'");
        }
    }

    fn list(&mut self, pc: i64, text: &str) {
        self.listing.push(ListLine {
            addr: u16::try_from(pc).ok(),
            bytes: std::mem::take(&mut self.line_bytes),
            file: self.file.clone(),
            line: self.line,
            text: text.trim_end().to_string(),
        });
    }

    /// Line index of the `close` word that matches an opening at `range.start - 1`.
    fn find_end(
        &self,
        src: &Source,
        range: Range<usize>,
        open: &str,
        close: &str,
    ) -> Option<usize> {
        let mut depth = 1;
        for j in range {
            match block_word(&src.lines[j]) {
                Some(w) if w == open => depth += 1,
                Some(w) if w == close => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(j);
                    }
                }
                _ => {}
            }
        }
        None
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
                    Some([t]) if t.ident().is_some() => t.ident().map(str::to_string),
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
        let step = if to >= from { 1 } else { -1 };
        let mut v = from;
        loop {
            if let Some(name) = &var {
                self.repeat_vars.push((name.clone(), v));
                self.ctx.push(format!("repeat {name} = {v}"));
            }
            self.run_lines(src, body.clone(), args);
            if var.is_some() {
                self.repeat_vars.pop();
                self.ctx.pop();
            }
            if v == to || self.statements > MAX_STATEMENTS {
                break;
            }
            v += step;
        }
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
            self.error(format!("macro name '{name}' is a mnemonic or directive"));
            return;
        }
        let key = name.to_ascii_lowercase();
        if !self.macros_this_pass.insert(key.clone()) {
            let m = &self.macros[&key];
            let first = format!("{}:{}", m.file, m.line);
            self.error(format!("macro '{name}' is already defined (at {first})"));
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
            self.error("macros or includes nested too deeply (recursion?)");
            return;
        }
        let args = split_args(rest);
        self.macro_count += 1;
        let saved_scope =
            std::mem::replace(&mut self.scope, format!("{}#{}", word, self.macro_count));
        let call = format!("in macro {word} called at {}:{}", self.file, self.line);
        let (file, line) = (self.file.clone(), self.line);
        self.ctx.push(call);
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
            self.error("macros or includes nested too deeply (recursive incasm?)");
            return;
        }
        let src = self
            .loader
            .resolve(&name, from.dir.as_deref())
            .and_then(|p| {
                // Show the file's real name, which may differ in case from the source's.
                let real = p.file_name().and_then(|n| n.to_str()).unwrap_or(&name);
                let shown = match name.replace('\\', "/").rsplit_once('/') {
                    Some((dir, _)) => format!("{dir}/{real}"),
                    None => real.to_string(),
                };
                let display = child_display(&from.display, &shown);
                self.loader.source(&p, &display)
            });
        match src {
            Ok(src) => {
                let (file, line) = (self.file.clone(), self.line);
                self.depth += 1;
                self.run_lines(&src, 0..src.lines.len(), None);
                self.depth -= 1;
                self.file = file;
                self.line = line;
            }
            Err(e) => self.error(e),
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
            self.line_bytes.push(b);
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
            w if w.starts_with('.') => self.error(format!("unknown directive '{w}'")),
            w => self.error(format!("unknown mnemonic, directive or macro '{w}'")),
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
            None => data.len() as i64 - offset,
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

fn format_listing(lines: &[ListLine]) -> String {
    let locs: Vec<String> = lines
        .iter()
        .map(|l| format!("{}:{}", l.file, l.line))
        .collect();
    let width = locs.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for (l, loc) in lines.iter().zip(&locs) {
        let addr = l.addr.map(|a| format!("${a:04X}")).unwrap_or_default();
        let mut chunks = l.bytes.chunks(8);
        let first = chunks.next().map(hex).unwrap_or_default();
        let line = format!("{addr:<5}  {first:<23}  {loc:<width$}  {}", l.text);
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
