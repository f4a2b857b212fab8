//! Splits one source line into tokens. Comments (`;` outside quotes) end the line.
//!
//! Two places where CBM prg Studio's users write text that is not made of tokens:
//! - after `incbin` or `incasm`, a file name without quotes (`incbin Sprites.bin`,
//!   `incbin 1st level.bin`) is one string token running to the next comma;
//! - `$(fb),y` is `($fb),y`: the `$` before the parenthesis makes the number in it hex.

use crate::directives::Directive;
use c64kit_files::quote;
use std::fmt;

/// Which quotes a string was written in: CBM prg Studio gives `"..."` PETSCII and `'...'`
/// screen codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quote {
    Double,
    Single,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    Num(i64),
    /// Text between quotes, unconverted.
    Str(String, Quote),
    Ident(String),
    Op(&'static str),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Num(n) => write!(f, "{n}"),
            Tok::Str(s, Quote::Double) => write!(f, "\"{s}\""),
            Tok::Str(s, Quote::Single) => write!(f, "'{s}'"),
            Tok::Ident(s) => write!(f, "{s}"),
            Tok::Op(s) => write!(f, "{s}"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Token {
    pub tok: Tok,
    /// Byte offset of the token's first character in the line.
    pub start: usize,
    /// Byte offset just past the token.
    pub end: usize,
}

impl Token {
    pub fn is_op(&self, op: &str) -> bool {
        matches!(&self.tok, Tok::Op(o) if *o == op)
    }
    pub fn ident(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident(s) => Some(s),
            _ => None,
        }
    }
}

// Longest first, so "<=" wins over "<".
const OPS: [&str; 25] = [
    "<=", ">=", "<>", "==", "!=", "<<", ">>", "+", "-", "*", "/", "(", ")", ",", "#", "<", ">",
    "=", "&", "|", "!", "^", ":", "[", "]",
];

pub fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '@' || c == '.'
}

pub fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'
}

/// Byte offset where the comment starts (or the line length). Quotes are respected.
pub fn code_end(line: &str) -> usize {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == ';' => return i,
            None => {}
        }
    }
    line.len()
}

/// All tokens of a line.
pub fn lex(line: &str) -> Result<Vec<Token>, String> {
    Lexer::new(line).collect()
}

/// The tokens of a line's code (the part before any comment), one at a time.
pub struct Lexer<'a> {
    code: &'a str,
    pos: usize,
    /// After `$(`: the next run of letters and digits is hex without its `$`.
    hex_next: bool,
    /// After a directive that names a file: the next token may be a name without quotes.
    file_next: bool,
}

impl<'a> Lexer<'a> {
    pub fn new(line: &'a str) -> Lexer<'a> {
        Lexer {
            code: &line[..code_end(line)],
            pos: 0,
            hex_next: false,
            file_next: false,
        }
    }

    /// A number from `start` (its prefix, if any, ends at `digits_start`).
    fn number(&mut self, start: usize, digits_start: usize, radix: u32) -> Result<Token, String> {
        let bytes = self.code.as_bytes();
        let mut end = digits_start;
        while end < bytes.len() && bytes[end].is_ascii_alphanumeric() {
            end += 1;
        }
        let digits = &self.code[digits_start..end];
        let shown = &self.code[start..end];
        if digits.is_empty() {
            return Err(match radix {
                16 => "'$' must be followed by hex digits".to_string(),
                _ => "'%' must be followed by binary digits".to_string(),
            });
        }
        let value = i64::from_str_radix(digits, radix).map_err(|_| {
            if digits.chars().all(|d| d.is_digit(radix)) {
                format!("number {} is too large", quote(shown))
            } else {
                format!("bad number '{}'", quote(shown))
            }
        })?;
        self.pos = end;
        Ok(Token {
            tok: Tok::Num(value),
            start,
            end,
        })
    }

    fn token(&mut self) -> Option<Result<Token, String>> {
        let skipped = self.code.len() - self.code[self.pos..].trim_start().len();
        self.pos = skipped;
        let i = self.pos;
        let c = self.code[i..].chars().next()?;
        if std::mem::take(&mut self.hex_next) {
            // `$(fb),y`: the `$` before the parenthesis makes the address inside it hex.
            if !c.is_ascii_alphanumeric() {
                return Some(Err(
                    "'$(' must be followed by hex digits, as in $(fb),y".into()
                ));
            }
            return Some(
                self.number(i, i, 16)
                    .map_err(|_| "'$(' must be followed by hex digits, as in $(fb),y".to_string()),
            );
        }
        if std::mem::take(&mut self.file_next) && c != '"' && c != '\'' {
            let len = self.code[i..].find(',').unwrap_or(self.code.len() - i);
            let name = self.code[i..i + len].trim_end();
            self.pos = i + len;
            return Some(Ok(Token {
                tok: Tok::Str(name.to_string(), Quote::Double),
                start: i,
                end: i + name.len(),
            }));
        }
        if c == '"' || c == '\'' {
            let body = &self.code[i + 1..];
            let Some(len) = body.find(c) else {
                return Some(Err(format!("unterminated string {c}{}", quote(body))));
            };
            self.pos = i + 1 + len + 1;
            let kind = if c == '"' {
                Quote::Double
            } else {
                Quote::Single
            };
            return Some(Ok(Token {
                tok: Tok::Str(body[..len].to_string(), kind),
                start: i,
                end: self.pos,
            }));
        }
        if c == '$' && self.code[i + 1..].starts_with('(') {
            self.pos = i + 2;
            self.hex_next = true;
            return Some(Ok(Token {
                tok: Tok::Op("("),
                start: i,
                end: i + 2,
            }));
        }
        if c == '$' || c == '%' || c.is_ascii_digit() {
            return Some(match c {
                '$' => self.number(i, i + 1, 16),
                '%' => self.number(i, i + 1, 2),
                _ => self.number(i, i, 10),
            });
        }
        if is_ident_start(c) {
            let len = self.code[i..]
                .char_indices()
                .skip(1)
                .find(|&(_, d)| !is_ident_char(d))
                .map_or(self.code.len() - i, |(j, _)| j);
            self.pos = i + len;
            let word = &self.code[i..self.pos];
            self.file_next = Directive::named(word).is_some_and(Directive::names_file);
            return Some(Ok(Token {
                tok: Tok::Ident(word.to_string()),
                start: i,
                end: self.pos,
            }));
        }
        let rest = &self.code[i..];
        let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) else {
            return Some(Err(format!(
                "unexpected character '{}'",
                quote(&c.to_string())
            )));
        };
        self.pos = i + op.len();
        Some(Ok(Token {
            tok: Tok::Op(op),
            start: i,
            end: self.pos,
        }))
    }
}

impl Iterator for Lexer<'_> {
    type Item = Result<Token, String>;

    /// The next token; after an error, nothing more.
    fn next(&mut self) -> Option<Self::Item> {
        let t = self.token();
        if matches!(t, Some(Err(_))) {
            self.pos = self.code.len();
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_and_ops() {
        assert_eq!(
            toks("lda #$0A ; comment"),
            vec![Tok::Ident("lda".into()), Tok::Op("#"), Tok::Num(10)]
        );
        assert_eq!(
            toks("%1010<=12"),
            vec![Tok::Num(10), Tok::Op("<="), Tok::Num(12)]
        );
        assert_eq!(
            toks("text \"a;b\" ; c"),
            vec![
                Tok::Ident("text".into()),
                Tok::Str("a;b".into(), Quote::Double)
            ]
        );
        assert_eq!(
            toks("text 'a'"),
            vec![
                Tok::Ident("text".into()),
                Tok::Str("a".into(), Quote::Single)
            ]
        );
        assert!(lex("text \"abc").unwrap_err().contains("unterminated"));
        assert!(lex("lda $").unwrap_err().contains("hex"));
        assert!(lex("lda 12ab").unwrap_err().contains("bad number"));
        assert!(lex("lda $FFFFFFFFFFFFFFFFFF")
            .unwrap_err()
            .contains("too large"));
    }

    #[test]
    fn dollar_before_parenthesis() {
        assert_eq!(
            toks("sta $(fb),y"),
            vec![
                Tok::Ident("sta".into()),
                Tok::Op("("),
                Tok::Num(0xFB),
                Tok::Op(")"),
                Tok::Op(","),
                Tok::Ident("y".into())
            ]
        );
        assert!(lex("lda $(,x)").unwrap_err().contains("'$('"));
        assert!(lex("lda $(zz),y").unwrap_err().contains("'$('"));
    }

    #[test]
    fn file_names_without_quotes() {
        let name = |s: &str| Tok::Str(s.into(), Quote::Double);
        assert_eq!(
            toks("incbin 1st level.bin, 2 ; c"),
            vec![
                Tok::Ident("incbin".into()),
                name("1st level.bin"),
                Tok::Op(","),
                Tok::Num(2)
            ]
        );
        assert_eq!(
            toks("x INCASM lib/a.asm"),
            vec![
                Tok::Ident("x".into()),
                Tok::Ident("INCASM".into()),
                name("lib/a.asm")
            ]
        );
        assert_eq!(
            toks("incbin 'a.bin'"),
            vec![
                Tok::Ident("incbin".into()),
                Tok::Str("a.bin".into(), Quote::Single)
            ]
        );
    }
}
