//! How RUN reaches a program's machine code: its first statement is a `SYS`.
//!
//! c64kit starts such a program from the state RUN leaves at the SYS (as VICE's autostart
//! leaves it) where RUN would run nothing but that SYS: the lines before it may hold only
//! REMs (or nothing), and the SYS must be its line's first statement; any other program BASIC
//! itself RUNs. SYS's argument is evaluated as BASIC would at that moment
//! (a number, or an expression of numbers, `PEEK`, `INT`, `ABS`, `SGN`, parentheses and
//! `+ - * /`, as in the common `SYS PEEK(43)+256*PEEK(44)+26`), with PEEK reading the memory
//! the caller gives.

use crate::basic::{keyword, walk_lines, BasicLine};
use std::fmt;

const TOKEN_REM: u8 = 0x8f;
const TOKEN_SYS: u8 = 0x9e;
const TOKEN_PLUS: u8 = 0xaa;
const TOKEN_MINUS: u8 = 0xab;
const TOKEN_TIMES: u8 = 0xac;
const TOKEN_DIVIDE: u8 = 0xad;
const TOKEN_SGN: u8 = 0xb4;
const TOKEN_INT: u8 = 0xb5;
const TOKEN_ABS: u8 = 0xb6;
const TOKEN_PEEK: u8 = 0xc2;

/// BASIC's formula stack allows only so much nesting ("FORMULA TOO COMPLEX"); this bounds
/// the work a hostile line can cause as well.
const MAX_NESTING: usize = 16;

/// The SYS that RUN executes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SysStatement {
    /// The address SYS calls (its argument, evaluated).
    pub address: u16,
    /// Its line's number (CURLIN while the SYS runs).
    pub line: u16,
    /// The memory address of its line's link.
    pub line_address: u16,
    /// Where CHRGOT stands after evaluating the argument (TXTPTR): the first byte after it
    /// that is not a space.
    pub after_argument: u16,
}

/// Why RUN would not go straight to machine code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSys {
    /// No line before the end of the program starts with a SYS.
    Missing,
    /// A statement other than REM or SYS runs first: it needs a BASIC interpreter.
    BasicFirst { line: u16, statement: String },
    /// The SYS's argument is not one c64kit can evaluate, or not an address.
    Argument { line: u16, problem: String },
}

impl fmt::Display for NoSys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoSys::Missing => write!(f, "no SYS in the BASIC program"),
            NoSys::BasicFirst { line, statement } => {
                write!(f, "line {line} runs BASIC ({statement}) before any SYS")
            }
            NoSys::Argument { line, problem } => {
                write!(f, "the SYS in line {line}: {problem}")
            }
        }
    }
}

impl std::error::Error for NoSys {}

/// The SYS RUN would execute first in this PRG (load address first), evaluating its argument
/// with `peek` for PEEK. Damage after the SYS line is tolerated, as RUN never gets there.
pub fn find_sys(prg: &[u8], peek: impl Fn(u16) -> u8) -> Result<SysStatement, NoSys> {
    let (lines, _) = walk_lines(prg);
    for line in lines {
        let at = line.text.iter().position(|&b| b != b' ' && b != b':');
        match at.map(|i| (i, line.text[i])) {
            None | Some((_, TOKEN_REM)) => continue,
            Some((i, TOKEN_SYS)) => return sys_statement(&line, i + 1, &peek),
            Some((_, b)) => {
                let statement = keyword(b)
                    .map(|k| k.to_uppercase())
                    .unwrap_or_else(|| "an assignment".to_string());
                return Err(NoSys::BasicFirst {
                    line: line.number,
                    statement,
                });
            }
        }
    }
    Err(NoSys::Missing)
}

/// Whether RUN would go straight to a SYS (whatever its argument's value).
pub fn starts_with_sys(prg: &[u8]) -> bool {
    !matches!(
        find_sys(prg, |_| 0),
        Err(NoSys::Missing | NoSys::BasicFirst { .. })
    )
}

fn sys_statement(
    line: &BasicLine<'_>,
    argument: usize,
    peek: &dyn Fn(u16) -> u8,
) -> Result<SysStatement, NoSys> {
    let problem = |problem: String| NoSys::Argument {
        line: line.number,
        problem,
    };
    let mut eval = Evaluator {
        text: line.text,
        at: argument,
        peek,
    };
    let value = eval.expression(0).map_err(problem)?;
    // What follows the argument matters only if the machine code returns to BASIC (loaders
    // often put a title there: `0 SYS2069 /T.L.R/`).
    eval.skip_spaces();
    let address = address(value).map_err(problem)?;
    // The line's text starts 4 bytes after its link.
    let text_address = line.address as usize + 4;
    Ok(SysStatement {
        address,
        line: line.number,
        line_address: line.address,
        after_argument: (text_address + eval.at).min(0xFFFF) as u16,
    })
}

/// A value as SYS and PEEK take an address (BASIC's GETADR): 0 to 65535, fraction dropped.
fn address(value: f64) -> Result<u16, String> {
    if (0.0..65536.0).contains(&value) {
        Ok(value as u16)
    } else {
        Err(format!("{value} is not an address (ILLEGAL QUANTITY)"))
    }
}

fn describe(b: u8) -> String {
    match keyword(b) {
        Some(k) => k.to_uppercase(),
        None if b.is_ascii_graphic() => format!("'{}'", b as char),
        None => format!("byte ${b:02X}"),
    }
}

/// A small evaluator for the numeric expressions found in SYS lines.
struct Evaluator<'a> {
    text: &'a [u8],
    at: usize,
    peek: &'a dyn Fn(u16) -> u8,
}

impl Evaluator<'_> {
    fn skip_spaces(&mut self) {
        while self.text.get(self.at) == Some(&b' ') {
            self.at += 1;
        }
    }

    /// The next byte that is not a space, consumed when it is `want`.
    fn eat(&mut self, want: u8) -> bool {
        self.skip_spaces();
        let found = self.text.get(self.at) == Some(&want);
        self.at += found as usize;
        found
    }

    /// Sums and differences of terms.
    fn expression(&mut self, depth: usize) -> Result<f64, String> {
        if depth > MAX_NESTING {
            return Err("the expression is nested too deeply (FORMULA TOO COMPLEX)".into());
        }
        let mut value = self.term(depth)?;
        loop {
            if self.eat(TOKEN_PLUS) {
                value += self.term(depth)?;
            } else if self.eat(TOKEN_MINUS) {
                value -= self.term(depth)?;
            } else {
                return Ok(value);
            }
        }
    }

    /// Products and quotients of factors.
    fn term(&mut self, depth: usize) -> Result<f64, String> {
        let mut value = self.factor(depth)?;
        loop {
            if self.eat(TOKEN_TIMES) {
                value *= self.factor(depth)?;
            } else if self.eat(TOKEN_DIVIDE) {
                let divisor = self.factor(depth)?;
                if divisor == 0.0 {
                    return Err("division by zero (DIVISION BY ZERO)".into());
                }
                value /= divisor;
            } else {
                return Ok(value);
            }
        }
    }

    fn factor(&mut self, depth: usize) -> Result<f64, String> {
        self.skip_spaces();
        let Some(&b) = self.text.get(self.at) else {
            return Err("the argument is missing (SYNTAX ERROR)".into());
        };
        match b {
            TOKEN_MINUS => {
                self.at += 1;
                Ok(-self.factor(depth + 1)?)
            }
            TOKEN_PLUS => {
                self.at += 1;
                self.factor(depth + 1)
            }
            b'(' => {
                self.at += 1;
                let value = self.expression(depth + 1)?;
                self.close()?;
                Ok(value)
            }
            b'0'..=b'9' | b'.' => self.number(),
            TOKEN_PEEK | TOKEN_INT | TOKEN_ABS | TOKEN_SGN => {
                self.at += 1;
                if !self.eat(b'(') {
                    return Err(format!("{} without '(' (SYNTAX ERROR)", describe(b)));
                }
                let x = self.expression(depth + 1)?;
                self.close()?;
                Ok(match b {
                    TOKEN_PEEK => f64::from((self.peek)(address(x)?)),
                    TOKEN_INT => x.floor(),
                    TOKEN_ABS => x.abs(),
                    _ => x.signum() * f64::from(x != 0.0),
                })
            }
            b'A'..=b'Z' => Err(format!(
                "it uses the variable {} (only BASIC can evaluate it)",
                b as char
            )),
            _ => Err(format!(
                "{} is not supported in a SYS argument",
                describe(b)
            )),
        }
    }

    fn close(&mut self) -> Result<(), String> {
        if self.eat(b')') {
            Ok(())
        } else {
            Err("a '(' is not closed (SYNTAX ERROR)".into())
        }
    }

    /// A decimal number as BASIC reads it: digits with spaces between them allowed, an
    /// optional fraction.
    fn number(&mut self) -> Result<f64, String> {
        let mut digits = String::new();
        while let Some(&b) = self.text.get(self.at) {
            match b {
                b'0'..=b'9' | b'.' => digits.push(b as char),
                b' ' => {}
                _ => break,
            }
            self.at += 1;
        }
        // Trailing spaces belong to what follows (CHRGOT skips them there too).
        while self.at > 0 && self.text[self.at - 1] == b' ' {
            self.at -= 1;
        }
        if digits.len() > 40 {
            return Err("the number is too long".into());
        }
        digits
            .parse::<f64>()
            .map_err(|_| format!("{digits} is not a number (SYNTAX ERROR)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::basic::tokenize;

    fn run(src: &str) -> Result<u16, NoSys> {
        let prg = tokenize(src, 0x0801).unwrap();
        // Memory as after LOAD: TXTTAB at 43/44 is $0801.
        find_sys(&prg, |a| match a {
            43 => 0x01,
            44 => 0x08,
            _ => 0,
        })
        .map(|s| s.address)
    }

    #[test]
    fn plain_numbers_in_every_spelling() {
        for (src, want) in [
            ("10 SYS2080", 2080),
            ("10 SYS 2080", 2080),
            ("10 SYS(2080)", 2080),
            ("10 SYS ( 49152 )", 49152),
            ("10 SYS 20 80", 2080),
            ("10 SYS2080.9", 2080),
            ("10 REM SYS 1234\n20 SYS 4321", 4321),
            ("0 :\n1 SYS 4096:PRINT", 4096),
            ("0 SYS2069 \"(C) 1990\"", 2069),
        ] {
            assert_eq!(run(src), Ok(want), "{src}");
        }
    }

    #[test]
    fn expressions_as_basic_evaluates_them() {
        for (src, want) in [
            ("10 SYS PEEK(43)+256*PEEK(44)+26", 0x0801 + 26),
            ("10 SYS(PEEK(43)+256*PEEK(44))+26", 0x0801 + 26),
            ("10 SYS 4096+2*3-1", 4101),
            ("10 SYS (10-4)/4*4096", 6144),
            ("10 SYS -(-49152)", 49152),
            ("10 SYS INT(4096.7)+ABS(-1)+SGN(-5)", 4096),
        ] {
            assert_eq!(run(src), Ok(want), "{src}");
        }
    }

    #[test]
    fn basic_before_the_sys_needs_an_interpreter() {
        assert_eq!(
            run("10 PRINT \"SYS1\":SYS 4096"),
            Err(NoSys::BasicFirst {
                line: 10,
                statement: "PRINT".into()
            })
        );
        let e = run("10 REM\n20 A=1\n30 SYS 4096").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 20 runs BASIC (an assignment) before any SYS"
        );
        assert_eq!(
            run("10 PRINT 1\n"),
            Err(NoSys::BasicFirst {
                line: 10,
                statement: "PRINT".into()
            })
        );
        assert_eq!(run("10 REM HI"), Err(NoSys::Missing));
        assert_eq!(find_sys(&[0x01], |_| 0), Err(NoSys::Missing));
    }

    #[test]
    fn arguments_it_cannot_use_are_named() {
        for (src, says) in [
            ("10 SYS A", "variable A"),
            ("10 SYS 99999", "ILLEGAL QUANTITY"),
            ("10 SYS -1", "ILLEGAL QUANTITY"),
            ("10 SYS 1/0", "DIVISION BY ZERO"),
            ("10 SYS (1", "not closed"),
            ("10 SYS", "missing"),
            ("10 SYS RND(1)", "RND is not supported"),
            (
                "10 SYS ((((((((((((((((((1))))))))))))))))))",
                "nested too deeply",
            ),
        ] {
            let e = run(src).unwrap_err();
            assert!(matches!(e, NoSys::Argument { line: 10, .. }), "{src}: {e}");
            assert!(e.to_string().contains(says), "{src}: {e}");
        }
    }

    #[test]
    fn where_the_statement_is() {
        let prg = tokenize("10 REM\n20 SYS 2064 :REM", 0x0801).unwrap();
        let s = find_sys(&prg, |_| 0).unwrap();
        // Line 10 is 4 + 1 + 1 bytes long at $0801; line 20's text starts at $080B.
        assert_eq!(s.line, 20);
        assert_eq!(s.line_address, 0x0807);
        assert_eq!(s.after_argument, 0x080B + 7, "at the colon");
        // Damage after the SYS line is never reached.
        let prg = tokenize("10 SYS 2064\n20 PRINT", 0x0801).unwrap();
        assert_eq!(
            find_sys(&prg[..prg.len() - 4], |_| 0).unwrap().address,
            2064
        );
        assert!(starts_with_sys(&prg));
        assert!(!starts_with_sys(&tokenize("10 PRINT", 0x0801).unwrap()));
    }
}
