//! Splits one source line into tokens. Comments (`;` outside quotes) end the line.

use c64kit_files::quote;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    Num(i64),
    /// Text between `"` or `'` quotes, unconverted.
    Str(String),
    Ident(String),
    Op(&'static str),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Num(n) => write!(f, "{n}"),
            Tok::Str(s) => write!(f, "\"{s}\""),
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

pub fn lex(line: &str) -> Result<Vec<Token>, String> {
    let code = &line[..code_end(line)];
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut chars = code.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c == '"' || c == '\'' {
            chars.next();
            let mut text = String::new();
            let mut closed = None;
            for (j, d) in chars.by_ref() {
                if d == c {
                    closed = Some(j + 1);
                    break;
                }
                text.push(d);
            }
            let Some(end) = closed else {
                return Err(format!("unterminated string {c}{}", quote(&text)));
            };
            out.push(Token {
                tok: Tok::Str(text),
                start: i,
                end,
            });
            continue;
        }
        if c == '$' || c == '%' || c.is_ascii_digit() {
            let (radix, digits_start) = match c {
                '$' => (16, i + 1),
                '%' => (2, i + 1),
                _ => (10, i),
            };
            let mut end = digits_start;
            while end < bytes.len() && (bytes[end] as char).is_ascii_alphanumeric() {
                end += 1;
            }
            let digits = &code[digits_start..end];
            if digits.is_empty() {
                return Err(match c {
                    '$' => "'$' must be followed by hex digits".to_string(),
                    _ => "'%' must be followed by binary digits".to_string(),
                });
            }
            let value = i64::from_str_radix(digits, radix).map_err(|_| {
                if digits.chars().all(|d| d.is_digit(radix)) {
                    format!("number {} is too large", quote(&code[i..end]))
                } else {
                    format!("bad number '{}'", quote(&code[i..end]))
                }
            })?;
            out.push(Token {
                tok: Tok::Num(value),
                start: i,
                end,
            });
            while chars.peek().is_some_and(|&(j, _)| j < end) {
                chars.next();
            }
            continue;
        }
        if is_ident_start(c) {
            let mut end = i + c.len_utf8();
            chars.next();
            while let Some(&(j, d)) = chars.peek() {
                if !is_ident_char(d) {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            out.push(Token {
                tok: Tok::Ident(code[i..end].to_string()),
                start: i,
                end,
            });
            continue;
        }
        let rest = &code[i..];
        let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) else {
            return Err(format!("unexpected character '{}'", quote(&c.to_string())));
        };
        for _ in 0..op.len() {
            chars.next();
        }
        out.push(Token {
            tok: Tok::Op(op),
            start: i,
            end: i + op.len(),
        });
    }
    Ok(out)
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
            vec![Tok::Ident("text".into()), Tok::Str("a;b".into())]
        );
        assert!(lex("text \"abc").unwrap_err().contains("unterminated"));
        assert!(lex("lda $").unwrap_err().contains("hex"));
        assert!(lex("lda 12ab").unwrap_err().contains("bad number"));
        assert!(lex("lda $FFFFFFFFFFFFFFFFFF")
            .unwrap_err()
            .contains("too large"));
    }
}
