//! One line to a statement (label, then an instruction, directive, macro call, origin or
//! assignment), and the text work on lines: operand lists split on commas, macro arguments
//! and their `/1` .. `/9` parameters.

use crate::directives::Directive;
use crate::encode::mnemonic;
use crate::lexer::{code_end, lex, Token};
use crate::limits::{substituted_too_long, MAX_LINE_CHARS};
use c64kit_files::quote;
use std::borrow::Cow;

/// A parsed statement.
pub(crate) enum Body {
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

pub(crate) struct Stmt {
    pub label: Option<String>,
    pub body: Body,
}

/// Splits a line into label and statement. `is_macro` tells whether a word names a macro.
pub(crate) fn parse_stmt(text: &str, is_macro: &dyn Fn(&str) -> bool) -> Result<Stmt, String> {
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
    let keyword = |w: &str| mnemonic(w).is_some() || Directive::named(w).is_some() || is_macro(w);
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
    let rest = text[op.end..code_end(text)].trim().to_string();
    Ok(Stmt {
        label,
        body: Body::Op {
            word,
            operand: after(toks, idx + 1),
            rest,
        },
    })
}

/// Splits on commas that are outside parentheses and quotes.
pub(crate) fn split_top(toks: &[Token]) -> Vec<&[Token]> {
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
pub(crate) fn split_args(rest: &str) -> Vec<String> {
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
pub(crate) fn substitute_params<'a>(
    line: &'a str,
    args: &[String],
) -> Result<Cow<'a, str>, String> {
    if !line.contains('/') {
        return Ok(Cow::Borrowed(line));
    }
    let end = code_end(line);
    let mut out = String::with_capacity(line.len());
    let mut chars = line[..end].chars().peekable();
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
    out.push_str(&line[end..]);
    if out.len() > MAX_LINE_CHARS && out.chars().count() > MAX_LINE_CHARS {
        return Err(substituted_too_long());
    }
    Ok(Cow::Owned(out))
}
