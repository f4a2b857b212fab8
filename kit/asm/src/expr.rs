//! Expression evaluation over a token slice.
//!
//! Precedence, lowest first: comparisons (`= == <> != < > <= >=`), `|` / `!` (or), `^`
//! (xor), `&` (and), `<< >>`, `+ -`, `* /`, unary `- + < >`. In CBM prg Studio's default
//! "Operator HiLo" mode `<` and `>` apply to the term right after them
//! (`<label+1` = `(<label)+1`); after `Operator Calc` they apply to the whole rest of the
//! expression (`<label+1` = `<(label+1)`).

use crate::lexer::{Tok, Token};
use crate::petscii::char_code;
use c64kit_files::quote;

/// An expression value: known, or not yet known because the named symbol is not (yet)
/// defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    Known(i64),
    Unknown(String),
}

pub trait Env {
    /// The value of a symbol as written in the source.
    fn symbol(&mut self, name: &str) -> Result<Val, String>;
    /// The program counter at the start of the statement (`*`).
    fn pc(&self) -> i64;
    /// True after `Operator Calc`.
    fn calc_mode(&self) -> bool;
}

const MAX_DEPTH: usize = 200;

pub fn eval(tokens: &[Token], env: &mut dyn Env) -> Result<Val, String> {
    if tokens.is_empty() {
        return Err("missing expression".into());
    }
    let mut p = Parser {
        toks: tokens,
        pos: 0,
        env,
        depth: 0,
    };
    let v = p.compare()?;
    if let Some(t) = p.toks.get(p.pos) {
        return Err(format!(
            "unexpected '{}' in expression",
            quote(&t.tok.to_string())
        ));
    }
    Ok(v)
}

struct Parser<'a, 'e> {
    toks: &'a [Token],
    pos: usize,
    env: &'e mut dyn Env,
    depth: usize,
}

fn bin(a: Val, b: Val, f: impl FnOnce(i64, i64) -> Result<i64, String>) -> Result<Val, String> {
    match (a, b) {
        (Val::Known(x), Val::Known(y)) => Ok(Val::Known(f(x, y)?)),
        (Val::Unknown(n), _) | (_, Val::Unknown(n)) => Ok(Val::Unknown(n)),
    }
}

fn un(a: Val, f: impl FnOnce(i64) -> i64) -> Val {
    match a {
        Val::Known(x) => Val::Known(f(x)),
        u => u,
    }
}

impl Parser<'_, '_> {
    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn take_op(&mut self, ops: &[&str]) -> Option<&'static str> {
        let op = self.peek_op()?;
        if ops.contains(&op) {
            self.pos += 1;
            Some(op)
        } else {
            None
        }
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("expression nested too deeply".into());
        }
        Ok(())
    }

    fn compare(&mut self) -> Result<Val, String> {
        let mut v = self.or()?;
        while let Some(op) = self.take_op(&["=", "==", "<>", "!=", "<", ">", "<=", ">="]) {
            let r = self.or()?;
            v = bin(v, r, |a, b| {
                Ok(match op {
                    "=" | "==" => a == b,
                    "<>" | "!=" => a != b,
                    "<" => a < b,
                    ">" => a > b,
                    "<=" => a <= b,
                    _ => a >= b,
                } as i64)
            })?;
        }
        Ok(v)
    }

    fn or(&mut self) -> Result<Val, String> {
        let mut v = self.xor()?;
        while self.take_op(&["|", "!"]).is_some() {
            let r = self.xor()?;
            v = bin(v, r, |a, b| Ok(a | b))?;
        }
        Ok(v)
    }

    fn xor(&mut self) -> Result<Val, String> {
        let mut v = self.and()?;
        while self.take_op(&["^"]).is_some() {
            let r = self.and()?;
            v = bin(v, r, |a, b| Ok(a ^ b))?;
        }
        Ok(v)
    }

    fn and(&mut self) -> Result<Val, String> {
        let mut v = self.shift()?;
        while self.take_op(&["&"]).is_some() {
            let r = self.shift()?;
            v = bin(v, r, |a, b| Ok(a & b))?;
        }
        Ok(v)
    }

    fn shift(&mut self) -> Result<Val, String> {
        let mut v = self.add()?;
        while let Some(op) = self.take_op(&["<<", ">>"]) {
            let r = self.add()?;
            v = bin(v, r, |a, b| {
                let n = b.clamp(0, 63) as u32;
                Ok(if op == "<<" {
                    a.wrapping_shl(n)
                } else {
                    a.wrapping_shr(n)
                })
            })?;
        }
        Ok(v)
    }

    fn add(&mut self) -> Result<Val, String> {
        let mut v = self.mul()?;
        while let Some(op) = self.take_op(&["+", "-"]) {
            let r = self.mul()?;
            v = bin(v, r, |a, b| {
                Ok(if op == "+" {
                    a.wrapping_add(b)
                } else {
                    a.wrapping_sub(b)
                })
            })?;
        }
        Ok(v)
    }

    fn mul(&mut self) -> Result<Val, String> {
        let mut v = self.unary()?;
        while let Some(op) = self.take_op(&["*", "/"]) {
            let r = self.unary()?;
            v = bin(v, r, |a, b| {
                if op == "*" {
                    Ok(a.wrapping_mul(b))
                } else if b == 0 {
                    Err("division by zero".into())
                } else {
                    Ok(a.wrapping_div(b))
                }
            })?;
        }
        Ok(v)
    }

    fn unary(&mut self) -> Result<Val, String> {
        self.enter()?;
        let v = match self.take_op(&["-", "+", "<", ">"]) {
            Some("-") => un(self.unary()?, i64::wrapping_neg),
            Some("+") => self.unary()?,
            Some(op) => {
                let inner = if self.env.calc_mode() {
                    self.or()?
                } else {
                    self.unary()?
                };
                if op == "<" {
                    un(inner, |x| x & 0xFF)
                } else {
                    un(inner, |x| (x >> 8) & 0xFF)
                }
            }
            _ => self.primary()?,
        };
        self.depth -= 1;
        Ok(v)
    }

    fn primary(&mut self) -> Result<Val, String> {
        let Some(t) = self.toks.get(self.pos) else {
            return Err("expression ends too early".into());
        };
        self.pos += 1;
        match &t.tok {
            Tok::Num(n) => Ok(Val::Known(*n)),
            Tok::Str(s, q) => {
                // A one-character string is its code: PETSCII in "", a screen code in ''.
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Ok(Val::Known(char_code(c, *q)? as i64)),
                    _ => Err(format!("string \"{}\" used as a number", quote(s))),
                }
            }
            Tok::Ident(name) => self.env.symbol(name),
            Tok::Op("*") => Ok(Val::Known(self.env.pc())),
            Tok::Op("(") | Tok::Op("[") => {
                let close = if t.is_op("(") { ")" } else { "]" };
                self.enter()?;
                let v = self.compare()?;
                self.depth -= 1;
                if self.take_op(&[close]).is_none() {
                    return Err(format!("missing '{close}'"));
                }
                Ok(v)
            }
            other => Err(format!(
                "unexpected '{}' in expression",
                quote(&other.to_string())
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use std::collections::HashMap;

    struct E {
        syms: HashMap<String, i64>,
        calc: bool,
    }
    impl Env for E {
        fn symbol(&mut self, name: &str) -> Result<Val, String> {
            Ok(self
                .syms
                .get(name)
                .map(|v| Val::Known(*v))
                .unwrap_or(Val::Unknown(name.into())))
        }
        fn pc(&self) -> i64 {
            0x1000
        }
        fn calc_mode(&self) -> bool {
            self.calc
        }
    }

    fn ev(s: &str, calc: bool) -> Result<Val, String> {
        let mut e = E {
            syms: [("lab".to_string(), 0x12FF)].into_iter().collect(),
            calc,
        };
        eval(&lex(s).unwrap(), &mut e)
    }

    fn k(s: &str) -> i64 {
        match ev(s, false).unwrap() {
            Val::Known(v) => v,
            u => panic!("{s}: {u:?}"),
        }
    }

    #[test]
    fn arithmetic() {
        assert_eq!(k("1+2*3"), 7);
        assert_eq!(k("(1+2)*3"), 9);
        assert_eq!(k("10/3"), 3);
        assert_eq!(k("-1"), -1);
        assert_eq!(k("* + 2"), 0x1002);
        assert_eq!(k("2*3-*"), 6 - 0x1000);
        assert_eq!(k("\"a\""), 0x41);
        assert_eq!(k("'a'"), 0x01);
        assert_eq!(k("'@'"), 0x00);
        assert_eq!(k("3 = 3"), 1);
        assert_eq!(k("3 <> 3"), 0);
        assert_eq!(k("2 <= 3"), 1);
        assert_eq!(k("$F0 & $3C | 1"), 0x31);
        assert_eq!(k("1 << 4"), 16);
    }

    #[test]
    fn hilo_modes() {
        assert_eq!(k("<lab"), 0xFF);
        assert_eq!(k(">lab"), 0x12);
        // HiLo: the operator binds to the label only.
        assert_eq!(k("<lab+1"), 0x100);
        assert_eq!(k(">lab+1"), 0x13);
        // Calc: the whole expression.
        assert_eq!(ev("<lab+1", true).unwrap(), Val::Known(0x00));
        assert_eq!(ev(">lab+1", true).unwrap(), Val::Known(0x13));
    }

    #[test]
    fn errors_and_unknowns() {
        assert_eq!(ev("nope+1", false).unwrap(), Val::Unknown("nope".into()));
        assert!(ev("1/0", false).unwrap_err().contains("division by zero"));
        assert!(ev("(1+2", false).unwrap_err().contains("missing ')'"));
        assert!(ev("1 2", false).unwrap_err().contains("unexpected"));
        assert!(ev("\"ab\"", false)
            .unwrap_err()
            .contains("used as a number"));
        let deep = "(".repeat(1000) + "1" + &")".repeat(1000);
        assert!(ev(&deep, false).unwrap_err().contains("deeply"));
    }
}
