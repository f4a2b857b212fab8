//! Instructions: mnemonic and operand to opcode and bytes. The operand's syntax gives the
//! addressing mode (`#` immediate, `(..),Y` indirect indexed, ...); zero page or absolute is
//! chosen by the value.

use crate::assembler::Assembler;
use crate::lexer::Token;
use c64kit_opcodes::{find_opcode, Mode, ALIASES, OPCODES};
use std::collections::HashMap;
use std::sync::OnceLock;

/// From this pass on, an instruction that once needed absolute addressing keeps it, so
/// that zero-page/absolute choices cannot oscillate for ever.
const STICKY_PASS: usize = 5;

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

pub(crate) fn mnemonic(word: &str) -> Option<&'static str> {
    if word.len() > 4 {
        return None;
    }
    tables()
        .names
        .get(word.to_ascii_uppercase().as_str())
        .copied()
}

/// The addressing mode an operand is written in, with the tokens of its address or value.
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

impl Assembler {
    fn has(m: &'static str, mode: Mode) -> Option<u8> {
        tables().codes.get(&(m, mode)).copied()
    }

    pub(crate) fn instruction(&mut self, m: &'static str, operand: &[Token]) {
        let syn = match classify(operand) {
            Ok(s) => s,
            Err(e) => {
                self.error(e);
                return;
            }
        };
        let seq = self.pass.instr_seq;
        self.pass.instr_seq += 1;
        if let Some(code) = Self::has(m, Mode::Relative) {
            let Syn::Addr(toks) = syn else {
                self.error(format!("{m} needs a branch target address"));
                return;
            };
            let offset = match self.value(toks) {
                Some(target) => {
                    let d = target.wrapping_sub(self.pass.pc + 2);
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

    pub(crate) fn address_value(&mut self, toks: &[Token]) -> Option<i64> {
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
        let abs_seen = &mut self.across.abs_seen;
        let sticky =
            self.across.number >= STICKY_PASS && abs_seen.get(seq).copied().unwrap_or(false);
        let fits = v.is_some_and(|v| v <= 0xFF);
        match (zp_code, abs_code) {
            (Some(c), _) if fits && !(sticky && abs_code.is_some()) => {
                self.emit(&[c, v.unwrap_or(0) as u8]);
            }
            (_, Some(c)) => {
                if zp_code.is_some() && self.across.number >= 2 {
                    let abs_seen = &mut self.across.abs_seen;
                    if abs_seen.len() <= seq {
                        abs_seen.resize(seq + 1, false);
                    }
                    abs_seen[seq] = true;
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
