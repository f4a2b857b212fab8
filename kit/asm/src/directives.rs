//! The directives: one table of their names, and what each does. Adding a directive means
//! a row in [`TABLE`], a [`Directive`] and its arm in [`Assembler::directive`]; the block
//! structure words (`if`, `repeat`, `defm` and their ends), which decide which lines run,
//! are run by the pass driver (`assembler.rs`).

use crate::assembler::Assembler;
use crate::lexer::{Quote, Tok, Token};
use crate::limits::{nested_too_deeply, MAX_NESTING};
use crate::loader::LoadError;
use crate::petscii::encode;
use crate::source::Source;
use crate::statement::split_top;
use std::rc::Rc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Directive {
    Bytes,
    Null,
    Words,
    IncAsm,
    IncBin,
    If,
    IfDef,
    IfNDef,
    Else,
    EndIf,
    Repeat,
    EndRepeat,
    Defm,
    Endm,
    Operator,
    Align,
    Org,
    /// IDE settings, editor folding, debugger watches: nothing to assemble.
    Ignored,
}

/// Every directive name (lower case; they are written in any case).
const TABLE: &[(&str, Directive)] = &[
    ("byte", Directive::Bytes),
    ("byt", Directive::Bytes),
    ("db", Directive::Bytes),
    ("dcb", Directive::Bytes),
    ("dc.b", Directive::Bytes),
    ("text", Directive::Bytes),
    ("null", Directive::Null),
    ("word", Directive::Words),
    ("dw", Directive::Words),
    ("dc.w", Directive::Words),
    ("incasm", Directive::IncAsm),
    ("incbin", Directive::IncBin),
    ("if", Directive::If),
    ("ifdef", Directive::IfDef),
    ("ifndef", Directive::IfNDef),
    ("else", Directive::Else),
    ("endif", Directive::EndIf),
    ("repeat", Directive::Repeat),
    ("endrepeat", Directive::EndRepeat),
    ("defm", Directive::Defm),
    ("endm", Directive::Endm),
    ("operator", Directive::Operator),
    ("align", Directive::Align),
    ("org", Directive::Org),
    ("target", Directive::Ignored),
    ("region", Directive::Ignored),
    ("endregion", Directive::Ignored),
    ("watch", Directive::Ignored),
];

/// The block-structure words: the lines that open and close `if`, `repeat` and `defm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Block {
    Repeat,
    EndRepeat,
    Defm,
    Endm,
    If,
    Else,
    Endif,
}

impl Directive {
    /// The directive a word names, in any case.
    pub fn named(word: &str) -> Option<Directive> {
        if word.len() > 9 {
            return None;
        }
        TABLE
            .iter()
            .find(|(name, _)| word.eq_ignore_ascii_case(name))
            .map(|&(_, d)| d)
    }

    /// Its part in the block structure, if it opens or closes a block.
    pub fn block(self) -> Option<Block> {
        Some(match self {
            Directive::If | Directive::IfDef | Directive::IfNDef => Block::If,
            Directive::Else => Block::Else,
            Directive::EndIf => Block::Endif,
            Directive::Repeat => Block::Repeat,
            Directive::EndRepeat => Block::EndRepeat,
            Directive::Defm => Block::Defm,
            Directive::Endm => Block::Endm,
            _ => return None,
        })
    }

    /// Its operand starts with a file name, which may be written without quotes.
    pub fn names_file(self) -> bool {
        matches!(self, Directive::IncAsm | Directive::IncBin)
    }
}

impl Assembler {
    /// Runs a directive that is not part of the block structure (those are run by
    /// `run_lines`).
    pub(crate) fn directive(&mut self, d: Directive, src: &Rc<Source>, operand: &[Token]) {
        match d {
            Directive::Bytes => self.data(operand, 1, false),
            Directive::Null => self.data(operand, 1, true),
            Directive::Words => self.data(operand, 2, false),
            Directive::IncAsm => self.include(src, operand),
            Directive::IncBin => self.incbin(operand),
            Directive::Org => self.origin(operand),
            Directive::Operator => self.operator(operand),
            Directive::Align => self.align(operand),
            Directive::Ignored => {}
            Directive::If
            | Directive::IfDef
            | Directive::IfNDef
            | Directive::Else
            | Directive::EndIf
            | Directive::Repeat
            | Directive::EndRepeat
            | Directive::Defm
            | Directive::Endm => {}
        }
    }

    pub(crate) fn origin(&mut self, toks: &[Token]) {
        if let Some(v) = self.value(toks) {
            if (0..=0xFFFF).contains(&v) {
                self.pass.pc = v;
                self.pass.pc_overflow_reported = false;
            } else {
                self.error(format!("origin {v} is outside $0000-$FFFF"));
            }
        }
    }

    /// `operator calc` / `operator hilo`: how `<` and `>` apply.
    fn operator(&mut self, operand: &[Token]) {
        let mode = match operand {
            [t] => t.ident().map(str::to_ascii_lowercase),
            _ => None,
        };
        match mode.as_deref() {
            Some("calc") => self.pass.calc = true,
            Some("hilo") => self.pass.calc = false,
            _ => self.error("'operator' needs Calc or HiLo"),
        }
    }

    fn align(&mut self, operand: &[Token]) {
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
        let pad = (size - self.pass.pc.rem_euclid(size)) % size;
        self.emit(&vec![fill; pad as usize]);
    }

    /// `byte`, `text`, `null` (size 1) and `word` (size 2) lists.
    fn data(&mut self, operand: &[Token], size: usize, terminate: bool) {
        if operand.is_empty() {
            self.error("missing data");
            return;
        }
        for item in split_top(operand) {
            // A lone string in a byte list is its bytes (PETSCII in "", screen codes in
            // ''); in a word list a one-character string is a number like anywhere else.
            if let [Token {
                tok: Tok::Str(s, q),
                ..
            }] = item
            {
                if size == 1 {
                    if *q == Quote::Single && s.chars().any(|c| c.is_ascii_uppercase()) {
                        self.warn(capitals_in_screen_codes(s));
                    }
                    match encode(s, *q) {
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

    /// The file name an `incasm` or `incbin` starts with: in quotes, or (the lexer gives
    /// it as a string too) without.
    fn file_operand(&mut self, operand: &[Token], what: &str) -> Option<String> {
        match operand.first().map(|t| &t.tok) {
            Some(Tok::Str(s, _)) if !s.is_empty() => Some(s.clone()),
            _ => {
                self.error(format!("'{what}' needs a file name"));
                None
            }
        }
    }

    /// `incasm "file"`: runs another source file here. Its labels are its own file's.
    fn include(&mut self, from: &Rc<Source>, operand: &[Token]) {
        let Some(name) = self.file_operand(operand, "incasm") else {
            return;
        };
        if operand.len() > 1 {
            self.error("unexpected text after the file name");
        }
        if self.pass.depth >= MAX_NESTING {
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
        // Shown as found: its real name (the source may spell it in another case), in the
        // folder it was found in (beside the including file or in an include folder).
        let display = path.display().to_string();
        match self.loader.source(&path, &display) {
            Ok(src) => {
                let (file, line) = (self.pass.file.clone(), self.pass.line);
                self.pass.depth += 1;
                self.run_file(&src);
                self.pass.depth -= 1;
                self.pass.file = file;
                self.pass.line = line;
            }
            Err(LoadError::File(e)) => self.error(e.to_string()),
            Err(LoadError::Line(e)) => self.push_error(e),
        }
    }

    /// `incbin "file"[, offset[, length]]`: a file's bytes.
    fn incbin(&mut self, operand: &[Token]) {
        let parts = split_top(operand);
        let Some(name) = self.file_operand(parts[0], "incbin") else {
            return;
        };
        if parts[0].len() > 1 || parts.len() > 3 {
            self.error("'incbin' takes \"file\"[, offset[, length]]");
            return;
        }
        let dir = self.pass.cur_src.as_ref().and_then(|s| s.dir.clone());
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
}

/// Capitals in single quotes are the shifted set's letters ($41-$5A), which the C64's
/// standard character set shows as graphics: authors who write them mostly meant letters.
fn capitals_in_screen_codes(s: &str) -> String {
    format!(
        "'{s}': capitals in single quotes are screen codes $41-$5A, graphics in the standard \
         character set (letters only in the lower/upper case set); write '{}' for letters",
        s.to_ascii_lowercase()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_any_case() {
        assert_eq!(Directive::named("BYTE"), Some(Directive::Bytes));
        assert_eq!(Directive::named("Dc.W"), Some(Directive::Words));
        assert_eq!(Directive::named("EndRepeat"), Some(Directive::EndRepeat));
        assert_eq!(Directive::named("lda"), None);
        assert_eq!(
            Directive::named("ifdef").and_then(Directive::block),
            Some(Block::If)
        );
        assert!(Directive::named("incbin").is_some_and(Directive::names_file));
    }

    #[test]
    fn every_name_is_lower_case_and_fits_the_length_check() {
        for (name, _) in TABLE {
            assert_eq!(*name, name.to_ascii_lowercase());
            assert!(name.len() <= 9, "{name}");
        }
    }
}
