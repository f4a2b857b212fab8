//! The pass driver: runs the source once per pass until every symbol keeps its value from
//! one pass to the next, then turns the last pass into an [`Assembly`].
//!
//! What a pass builds (symbols, bytes, listing, errors) is in [`Pass`], made new for each
//! pass; what passes hand on to each other (the previous pass's symbols, the macros, the
//! addressing choices, the work done) is in [`Across`].
//!
//! Someone else's source must not be able to make it run for ever or fill the memory:
//! besides the statement counts there is a budget on the total work of all passes (see
//! `limits`).

use crate::blocks::{Cond, Macro};
use crate::directives::Directive;
use crate::encode::mnemonic;
use crate::expr::{eval, Env, Val};
use crate::image::Image;
use crate::lexer::Token;
use crate::limits::{
    out_of_work, MAX_ERRORS, MAX_PASSES, MAX_STATEMENTS, MAX_TOTAL_STATEMENTS, MAX_WORK,
};
use crate::listing::Listing;
use crate::loader::Loader;
use crate::source::{block_word, Source, Unit};
use crate::statement::{parse_stmt, substitute_params, Body};
use crate::symbols::{
    fold, lookup, replace_ignoring_case, Defined, Kind, SymDef, Symbols, COMMAND_LINE,
};
use crate::{AsmError, Assembly, Errors, Options};
use c64kit_files::quote;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::ops::Range;
use std::path::PathBuf;
use std::rc::Rc;

/// Where the running line came from, for error messages ("in macro m called at
/// main.asm:4", "repeat i = 2"); formatted only when there is an error.
pub(crate) enum Ctx {
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

/// The caller's settings, the same for every pass.
struct Settings {
    defines: Vec<(String, i64)>,
    start_pc: i64,
    padding: u8,
}

/// What passes hand on to each other.
pub(crate) struct Across {
    /// The pass running (1 for the first).
    pub number: usize,
    /// Every macro known: those defined in the last pass (so they can be called above
    /// their definition) and those defined so far in this one.
    pub macros: HashMap<String, Rc<Macro>>,
    /// The previous pass's symbols: the values of symbols not yet defined in this pass.
    prev: Symbols,
    /// By instruction number: it once needed absolute addressing (see `encode`).
    pub abs_seen: Vec<bool>,
    /// Statements run in all passes, against [`MAX_TOTAL_STATEMENTS`].
    total_statements: usize,
    /// A limit was hit: stop everything, no further pass.
    pub stopped: bool,
}

/// What one pass builds.
pub(crate) struct Pass {
    pub symbols: Symbols,
    /// The macros this pass defined (by folded name).
    pub macros_defined: HashSet<String>,
    pub pc: i64,
    image: Image,
    listing: Listing,
    errors: Vec<AsmError>,
    warnings: Vec<AsmError>,
    /// `Operator Calc` is on.
    pub calc: bool,
    /// The last global label: the scope of `@` labels.
    pub scope: String,
    pub macro_count: usize,
    pub repeat_vars: Vec<(Rc<str>, i64)>,
    pub ctx: Vec<Ctx>,
    /// Instructions run so far: numbers them for `Across::abs_seen`.
    pub instr_seq: usize,
    /// Where the running line is.
    pub file: Rc<str>,
    pub line: usize,
    /// The file the running line's labels belong to (a macro's lines: the caller's).
    unit: Unit,
    /// The file whose line is running (`incbin` names are relative to it).
    pub cur_src: Option<Rc<Source>>,
    /// Macro calls, includes and repeats open, against [`MAX_NESTING`].
    pub depth: usize,
    /// Statements run this pass, against [`MAX_STATEMENTS`].
    statements: usize,
    line_overlap_reported: bool,
    pub pc_overflow_reported: bool,
}

impl Pass {
    fn new(start_pc: i64) -> Pass {
        Pass {
            symbols: Symbols::default(),
            macros_defined: HashSet::new(),
            pc: start_pc,
            image: Image::new(),
            listing: Listing::default(),
            errors: Vec::new(),
            warnings: Vec::new(),
            calc: false,
            scope: String::new(),
            macro_count: 0,
            repeat_vars: Vec::new(),
            ctx: Vec::new(),
            instr_seq: 0,
            file: "".into(),
            line: 0,
            unit: 0,
            cur_src: None,
            depth: 0,
            statements: 0,
            line_overlap_reported: false,
            pc_overflow_reported: false,
        }
    }
}

pub(crate) struct Assembler {
    pub loader: Loader,
    settings: Settings,
    pub across: Across,
    pub pass: Pass,
}

/// Symbol lookups for one expression; notes the references that had to choose between
/// several files' definitions, for a warning once the expression is done.
struct Names<'a> {
    asm: &'a Assembler,
    ambiguous: Vec<String>,
}

impl Env for Names<'_> {
    fn symbol(&mut self, name: &str) -> Result<Val, String> {
        let asm = self.asm;
        let full = asm.full_name(name);
        if full.bytes().all(|b| b.is_ascii_digit()) {
            // A repeat variable on its own.
            return full
                .parse::<i64>()
                .map(Val::Known)
                .map_err(|_| format!("'{}' is not a valid number", quote(name)));
        }
        let key = fold(&full);
        let Some(found) = lookup(&asm.pass.symbols, &asm.across.prev, &key, asm.pass.unit) else {
            return Ok(Val::Unknown(full));
        };
        if let Some(defs) = found.ambiguous {
            let places: Vec<String> = defs
                .iter()
                .map(|d| format!("{}:{}", d.file, d.line))
                .collect();
            self.ambiguous.push(format!(
                "'{}' is defined in several files ({}) but not in this one: this uses the first, \
                 {}",
                quote(&full),
                places.join(", "),
                places[0]
            ));
        }
        Ok(Val::Known(found.value))
    }
    fn pc(&self) -> i64 {
        self.asm.pass.pc
    }
    fn calc_mode(&self) -> bool {
        self.asm.pass.calc
    }
}

impl Assembler {
    pub fn new(opts: &Options, search_dirs: Vec<PathBuf>) -> Assembler {
        let start_pc = opts.start_address.unwrap_or(0x0801) as i64;
        Assembler {
            loader: Loader::new(
                search_dirs,
                opts.max_work.map_or(MAX_WORK, |w| w.min(MAX_WORK)),
            ),
            settings: Settings {
                defines: opts.defines.clone(),
                start_pc,
                padding: opts.padding.unwrap_or(0),
            },
            across: Across {
                number: 0,
                macros: HashMap::new(),
                prev: Symbols::default(),
                abs_seen: Vec::new(),
                total_statements: 0,
                stopped: false,
            },
            pass: Pass::new(start_pc),
        }
    }

    /// The program counter before the first `*=` (default $0801).
    pub fn set_start(&mut self, start: Option<u16>) {
        self.settings.start_pc = start.unwrap_or(0x0801) as i64;
    }

    pub fn set_padding(&mut self, padding: u8) {
        self.settings.padding = padding;
    }

    fn begin_pass(&mut self) {
        self.across.number += 1;
        self.pass = Pass::new(self.settings.start_pc);
        // The last of several defines of one name wins: defined first, it overrides the
        // others.
        for (name, value) in self.settings.defines.iter().rev() {
            self.pass.symbols.define(SymDef {
                name: name.clone(),
                value: *value,
                kind: Kind::Define,
                unit: COMMAND_LINE,
                file: "command line".into(),
                line: 0,
            });
        }
    }

    /// Runs whole passes over `roots`, the files in build order, until the symbols settle.
    pub fn run(mut self, roots: &[Rc<Source>]) -> Result<Assembly, Errors> {
        let mut settled = false;
        while self.across.number < MAX_PASSES {
            self.begin_pass();
            let macros_before: HashSet<String> = self.across.macros.keys().cloned().collect();
            for root in roots {
                self.run_file(root);
            }
            if self.across.stopped {
                // A limit was hit: that error is the result.
                settled = true;
                break;
            }
            // Every macro this pass used must have been known from its start.
            let macros_stable = self.pass.macros_defined == macros_before;
            let symbols = std::mem::take(&mut self.pass.symbols);
            settled =
                self.across.number >= 2 && symbols.same_values(&self.across.prev) && macros_stable;
            self.across.prev = symbols;
            if settled {
                break;
            }
            // Macros defined later in the source are callable earlier from the next pass
            // on; drop the ones no longer defined.
            let keep = std::mem::take(&mut self.pass.macros_defined);
            self.across.macros.retain(|k, _| keep.contains(k));
        }
        if !settled {
            self.pass.errors.push(AsmError {
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
        if !self.pass.errors.is_empty() {
            let mut errors = std::mem::take(&mut self.pass.errors);
            errors.truncate(MAX_ERRORS);
            return Err(Errors(errors));
        }
        Ok(self.finish())
    }

    /// The settled last pass as an [`Assembly`]; its symbols are in `across.prev`.
    fn finish(self) -> Assembly {
        let (load_address, bytes) = self
            .pass
            .image
            .bytes(self.settings.padding)
            .unwrap_or((self.settings.start_pc as u16, Vec::new()));
        let mut symbols = BTreeMap::new();
        let mut labels = BTreeMap::new();
        // A label several files define is named once, by the first in build order.
        for def in self.across.prev.first_definitions() {
            symbols.insert(def.name.clone(), def.value);
            if def.kind == Kind::Label {
                labels.insert(def.name.clone(), def.value as u16);
            }
        }
        Assembly {
            load_address,
            bytes,
            symbols,
            labels,
            listing: self.pass.listing.format(),
            output_name: None,
            passes: self.across.number,
            inputs: self.loader.inputs,
            warnings: self.pass.warnings,
        }
    }

    /// `message` at the running line, with where the line came from (macro calls,
    /// repeats).
    fn located(&self, mut message: String) -> AsmError {
        let ctx = &self.pass.ctx;
        if !ctx.is_empty() {
            // Outermost first. Deep nesting (up to 64 levels) shows its two ends only.
            const SHOWN: usize = 4;
            let n = ctx.len();
            message.push_str(" (");
            for (i, c) in ctx.iter().enumerate() {
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
        AsmError {
            file: self.pass.file.to_string(),
            line: self.pass.line,
            message,
        }
    }

    pub(crate) fn error(&mut self, message: impl Into<String>) {
        if self.pass.errors.len() < MAX_ERRORS {
            let e = self.located(message.into());
            self.pass.errors.push(e);
        }
    }

    /// An error found elsewhere (a file's own line).
    pub(crate) fn push_error(&mut self, e: AsmError) {
        if self.pass.errors.len() < MAX_ERRORS {
            self.pass.errors.push(e);
        }
    }

    /// A warning at the running line; each only once.
    pub(crate) fn warn(&mut self, message: String) {
        let w = self.located(message);
        if self.pass.warnings.len() < MAX_ERRORS && !self.pass.warnings.contains(&w) {
            self.pass.warnings.push(w);
        }
    }

    /// Stops the assembly at the running line: a limit on time or memory was reached.
    fn stop(&mut self, message: String) {
        if !self.across.stopped {
            self.across.stopped = true;
            // The pass was cut short, so its other errors may be artefacts (labels not
            // reached yet): this one is the result.
            self.pass.errors.clear();
            self.error(message);
        }
    }

    fn charge(&self, units: usize) {
        self.loader.add_work(units as u64);
    }

    /// A symbol's name after repeat-variable substitution and local-label scoping.
    pub(crate) fn full_name(&self, raw: &str) -> String {
        let mut name = raw.to_string();
        let mut built = false;
        for (var, value) in self.pass.repeat_vars.iter().rev() {
            if let Some(replaced) = replace_ignoring_case(&name, var, &value.to_string()) {
                name = replaced;
                built = true;
            }
        }
        if name.starts_with('@') {
            name = format!("{}{}", self.pass.scope, name);
            built = true;
        }
        if built {
            // Substitution can make a name many times longer than the line it is on.
            self.charge(name.len());
        }
        name
    }

    fn is_macro(&self, word: &str) -> bool {
        self.across.macros.contains_key(&word.to_ascii_lowercase())
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
            self.pass.scope = name.clone();
        }
        let def = SymDef {
            name: name.clone(),
            value,
            kind,
            unit: self.pass.unit,
            file: self.pass.file.clone(),
            line: self.pass.line,
        };
        if let Defined::Duplicate(file, line) = self.pass.symbols.define(def) {
            self.error(format!(
                "duplicate label '{}' (first defined at {file}:{line})",
                quote(&name)
            ));
        }
    }

    /// Evaluates; reports errors. `None` = not known (yet).
    pub(crate) fn value(&mut self, toks: &[Token]) -> Option<i64> {
        let mut names = Names {
            asm: self,
            ambiguous: Vec::new(),
        };
        let result = eval(toks, &mut names);
        for w in names.ambiguous {
            self.warn(w);
        }
        match result {
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

    pub(crate) fn byte_value(&mut self, v: i64) -> u8 {
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

    /// Places bytes at the program counter.
    pub(crate) fn emit(&mut self, bytes: &[u8]) {
        self.charge(bytes.len());
        for &b in bytes {
            let pc = self.pass.pc;
            self.pass.pc += 1;
            let Ok(addr) = u16::try_from(pc) else {
                if !self.pass.pc_overflow_reported {
                    self.pass.pc_overflow_reported = true;
                    self.error("program counter runs past $FFFF");
                }
                continue;
            };
            let (file, line) = (self.pass.file.clone(), self.pass.line);
            if let Err((f, l)) = self.pass.image.place(addr, b, &file, line) {
                if !self.pass.line_overlap_reported {
                    self.pass.line_overlap_reported = true;
                    self.error(format!(
                        "code at ${addr:04X} overlaps earlier code from {f}:{l}"
                    ));
                }
            }
            self.pass.listing.push(b);
        }
    }

    /// Counts one statement and charges its text; false (and the assembly stopped) when a
    /// limit is reached.
    fn within_limits(&mut self, chars: usize) -> bool {
        self.pass.statements += 1;
        self.across.total_statements += 1;
        self.charge(chars + 1);
        if self.pass.statements > MAX_STATEMENTS {
            self.stop(format!(
                "more than {MAX_STATEMENTS} statements in one pass (endless repeat or macro \
                 recursion?)"
            ));
        } else if self.across.total_statements > MAX_TOTAL_STATEMENTS {
            self.stop(format!(
                "more than {MAX_TOTAL_STATEMENTS} statements in all passes together"
            ));
        } else if self.loader.out_of_work() {
            self.stop(out_of_work(self.loader.work_limit));
        }
        !self.across.stopped
    }

    /// Runs a whole file (a build-list file or an `incasm`): its labels are its own.
    pub(crate) fn run_file(&mut self, src: &Rc<Source>) {
        let unit = std::mem::replace(&mut self.pass.unit, src.unit);
        self.run_lines(src, 0..src.len(), None);
        self.pass.unit = unit;
    }

    fn list(&mut self, pc: i64, src: &Rc<Source>, i: usize, changed: Option<&str>) {
        self.pass.listing.list(pc, src, i, changed);
    }

    /// Runs lines `range` of `src`; `args` are the parameters inside a macro.
    pub(crate) fn run_lines(
        &mut self,
        src: &Rc<Source>,
        range: Range<usize>,
        args: Option<&[String]>,
    ) {
        let mut conds: Vec<Cond> = Vec::new();
        let mut i = range.start;
        while i < range.end {
            if self.across.stopped {
                return;
            }
            self.pass.file = src.display.clone();
            self.pass.line = i + 1;
            self.pass.cur_src = Some(src.clone());
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
                self.skipped(&mut conds, block, i);
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
            let start_pc = self.pass.pc;
            self.pass.listing.start_statement();
            self.pass.line_overlap_reported = false;
            if let Some(label) = &stmt.label {
                self.define(label, self.pass.pc, Kind::Label);
            }
            let (word, operand, rest) = match &stmt.body {
                Body::Op {
                    word,
                    operand,
                    rest,
                } => (word.to_ascii_lowercase(), operand.as_slice(), rest.as_str()),
                Body::None => {
                    self.list(start_pc, src, i, changed);
                    i += 1;
                    continue;
                }
                Body::Origin(toks) => {
                    self.origin(toks);
                    self.list(start_pc, src, i, changed);
                    i += 1;
                    continue;
                }
                Body::Assign(name, toks) => {
                    if let Some(v) = self.value(toks) {
                        self.define(name, v, Kind::Constant);
                    }
                    self.list(start_pc, src, i, changed);
                    i += 1;
                    continue;
                }
            };
            match Directive::named(&word) {
                Some(
                    d @ (Directive::If
                    | Directive::IfDef
                    | Directive::IfNDef
                    | Directive::Else
                    | Directive::EndIf),
                ) => {
                    self.conditional(d, &word, operand, &mut conds, i + 1);
                    self.list(start_pc, src, i, changed);
                }
                Some(Directive::Repeat) => {
                    self.list(start_pc, src, i, changed);
                    let Some(end) = src.end_of(i, range.end) else {
                        self.error("'repeat' without 'endrepeat'");
                        i = range.end;
                        continue;
                    };
                    self.repeat(src, operand, i + 1..end, args);
                    if self.across.stopped {
                        return;
                    }
                    self.pass.file = src.display.clone();
                    self.pass.line = end + 1;
                    self.list(self.pass.pc, src, end, None);
                    i = end + 1;
                    continue;
                }
                Some(Directive::Defm) => {
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
                Some(Directive::EndRepeat) => self.error("'endrepeat' without 'repeat'"),
                Some(Directive::Endm) => self.error("'endm' without 'defm'"),
                Some(Directive::IncAsm) => {
                    // Listed before the included file's lines.
                    self.list(start_pc, src, i, changed);
                    self.directive(Directive::IncAsm, src, operand);
                }
                Some(d) => {
                    self.directive(d, src, operand);
                    self.list(start_pc, src, i, changed);
                }
                None if self.is_macro(&word) => {
                    self.list(start_pc, src, i, changed);
                    self.call_macro(&word, rest);
                }
                None => {
                    match mnemonic(&word) {
                        Some(m) => self.instruction(m, operand),
                        None if word.starts_with('.') => {
                            self.error(format!("unknown directive '{}'", quote(&word)))
                        }
                        None => self.error(format!(
                            "unknown mnemonic, directive or macro '{}'",
                            quote(&word)
                        )),
                    }
                    self.list(start_pc, src, i, changed);
                }
            }
            i += 1;
        }
        if self.across.stopped {
            return;
        }
        self.unclosed_ifs(src, conds);
    }
}
