//! The block directives, which decide which lines run and how often: `if`/`ifdef`/`ifndef`
//! (`else`, `endif`), `repeat` ... `endrepeat` and macros (`defm` ... `endm`, and their
//! calls). The pass driver finds them by the directive table, keeps the `if`s open in the
//! lines it runs and finds each block's end; what each does is here.

use crate::assembler::{Assembler, Ctx};
use crate::directives::{Block, Directive};
use crate::encode::mnemonic;
use crate::lexer::Token;
use crate::limits::{nested_too_deeply, MAX_NESTING, MAX_REPEAT};
use crate::source::Source;
use crate::statement::{split_args, split_top};
use crate::symbols::fold;
use c64kit_files::quote;
use std::ops::Range;
use std::rc::Rc;

/// A macro: its body, a range of lines of the file that defines it.
pub(crate) struct Macro {
    src: Rc<Source>,
    body: Range<usize>,
    file: Rc<str>,
    line: usize,
}

/// An open `if`: whether the lines of its branch run.
pub(crate) struct Cond {
    parent_active: bool,
    value: bool,
    in_else: bool,
    line: usize,
}

impl Cond {
    pub fn taking(&self) -> bool {
        self.parent_active && (self.value != self.in_else)
    }
}

impl Assembler {
    /// A line inside a skipped `if` branch: only the block structure counts.
    pub(crate) fn skipped(&mut self, conds: &mut Vec<Cond>, block: Option<Block>, i: usize) {
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
    }

    /// The `if`s still open at the end of the lines that opened them.
    pub(crate) fn unclosed_ifs(&mut self, src: &Rc<Source>, conds: Vec<Cond>) {
        for c in conds {
            self.pass.file = src.display.clone();
            self.pass.line = c.line;
            self.error("'if' without 'endif'");
        }
    }

    /// `if`, `ifdef`, `ifndef`, `else` or `endif` on a line that runs (`line`, 1-based).
    pub(crate) fn conditional(
        &mut self,
        d: Directive,
        word: &str,
        operand: &[Token],
        conds: &mut Vec<Cond>,
        line: usize,
    ) {
        match d {
            Directive::Else => match conds.last_mut() {
                Some(c) if !c.in_else => c.in_else = true,
                Some(_) => self.error("second 'else' for the same 'if'"),
                None => self.error("'else' without 'if'"),
            },
            Directive::EndIf => {
                if conds.pop().is_none() {
                    self.error("'endif' without 'if'");
                }
            }
            _ => {
                let value = self.condition(d, word, operand);
                conds.push(Cond {
                    parent_active: true,
                    value,
                    in_else: false,
                    line,
                });
            }
        }
    }

    fn condition(&mut self, d: Directive, word: &str, operand: &[Token]) -> bool {
        if d == Directive::If {
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
        let defined = self.pass.symbols.contains(&fold(&self.full_name(&name)));
        defined == (d == Directive::IfDef)
    }

    pub(crate) fn repeat(
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
        if self.pass.depth >= MAX_NESTING {
            self.error(nested_too_deeply());
            return;
        }
        let step = if to >= from { 1 } else { -1 };
        let mut v = from;
        self.pass.depth += 1;
        loop {
            if let Some(name) = &var {
                self.pass.repeat_vars.push((name.clone(), v));
                self.pass.ctx.push(Ctx::Repeat {
                    var: name.clone(),
                    value: v,
                });
            }
            self.run_lines(src, body.clone(), args);
            if var.is_some() {
                self.pass.repeat_vars.pop();
                self.pass.ctx.pop();
            }
            if v == to || self.across.stopped {
                break;
            }
            v += step;
        }
        self.pass.depth -= 1;
    }

    pub(crate) fn define_macro(&mut self, src: &Rc<Source>, operand: &[Token], body: Range<usize>) {
        let name = match operand {
            [t] => t.ident().map(str::to_string),
            _ => None,
        };
        let Some(name) = name else {
            self.error("'defm' needs one macro name");
            return;
        };
        if mnemonic(&name).is_some() || Directive::named(&name).is_some() {
            self.error(format!(
                "macro name '{}' is a mnemonic or directive",
                quote(&name)
            ));
            return;
        }
        let key = name.to_ascii_lowercase();
        if !self.pass.macros_defined.insert(key.clone()) {
            let m = &self.across.macros[&key];
            let first = format!("{}:{}", m.file, m.line);
            self.error(format!(
                "macro '{}' is already defined (at {first})",
                quote(&name)
            ));
            return;
        }
        self.across.macros.insert(
            key,
            Rc::new(Macro {
                src: src.clone(),
                body,
                file: self.pass.file.clone(),
                line: self.pass.line,
            }),
        );
    }

    /// Runs a macro's body with its arguments. Its lines' labels belong to the calling
    /// file (`pass.unit` stays), its `@` labels to this expansion.
    pub(crate) fn call_macro(&mut self, word: &str, rest: &str) {
        let Some(m) = self.across.macros.get(word).cloned() else {
            return;
        };
        if self.pass.depth >= MAX_NESTING {
            self.error(nested_too_deeply());
            return;
        }
        let args = split_args(rest);
        self.pass.macro_count += 1;
        let scope = format!("{}#{}", word, self.pass.macro_count);
        let saved_scope = std::mem::replace(&mut self.pass.scope, scope);
        let (file, line) = (self.pass.file.clone(), self.pass.line);
        self.pass.ctx.push(Ctx::Macro {
            name: word.to_string(),
            file: file.clone(),
            line,
        });
        self.pass.depth += 1;
        self.run_lines(&m.src, m.body.clone(), Some(&args));
        self.pass.depth -= 1;
        self.pass.ctx.pop();
        self.pass.scope = saved_scope;
        self.pass.file = file;
        self.pass.line = line;
    }
}
