//! Commodore BASIC V2: the token table, a `petcat -2` style lister and a `petcat -w2` style
//! tokenizer.
//!
//! A program file (PRG) is a 2-byte load address followed by lines, each: 2-byte link to the
//! next line's address, 2-byte line number, tokenized text, $00. A link whose high byte is $00
//! ends the program (the C64 checks only the high byte, and so do we).

use c64kit_files::quote;
use std::fmt;

use crate::petscii::{code_for_name, push_rendered, RenderOptions, RenderStyle};

/// BASIC V2 keywords for tokens $80-$CB, spelled as petcat lists them (lower case).
pub const KEYWORDS: [&str; 76] = [
    "end", "for", "next", "data", "input#", "input", "dim", "read", // $80
    "let", "goto", "run", "if", "restore", "gosub", "return", "rem", // $88
    "stop", "on", "wait", "load", "save", "verify", "def", "poke", // $90
    "print#", "print", "cont", "list", "clr", "cmd", "sys", "open", // $98
    "close", "get", "new", "tab(", "to", "fn", "spc(", "then", // $A0
    "not", "step", "+", "-", "*", "/", "^", "and", // $A8
    "or", ">", "=", "<", "sgn", "int", "abs", "usr", // $B0
    "fre", "pos", "sqr", "rnd", "log", "exp", "cos", "sin", // $B8
    "tan", "atn", "peek", "len", "str$", "val", "asc", "chr$", // $C0
    "left$", "right$", "mid$", "go", // $C8
];

/// The first token, END.
pub const FIRST_TOKEN: u8 = 0x80;
/// The last BASIC V2 token, GO.
pub const LAST_TOKEN: u8 = 0xcb;
/// π is stored as the single byte $FF (petcat writes it as `~`).
pub const PI: u8 = 0xff;

const TOKEN_DATA: u8 = 0x83;
const TOKEN_REM: u8 = 0x8f;
const TOKEN_PRINT: u8 = 0x99;

/// Longest line body we emit: the KERNAL/BASIC walk a line with an 8-bit index, so header,
/// text and terminator must stay below 256 bytes.
const MAX_LINE_BODY: usize = 250;
const MAX_LINE_NUMBER: u32 = 63999;

/// The keyword for a BASIC V2 token ($80-$CB).
pub fn keyword(token: u8) -> Option<&'static str> {
    KEYWORDS
        .get(token.checked_sub(FIRST_TOKEN)? as usize)
        .copied()
}

/// Why a PRG could not be listed. `offset` is the byte offset in the PRG file (load address
/// included) where the problem was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PRG offset {} (${:04x}): {}",
            self.offset, self.offset, self.message
        )
    }
}

impl std::error::Error for ListError {}

/// One line of a program as stored in a PRG.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BasicLine<'a> {
    /// Byte offset of the line's link in the PRG file.
    pub offset: usize,
    /// Memory address of the line's link once loaded.
    pub address: u16,
    /// The stored link to the next line.
    pub link: u16,
    pub number: u16,
    /// Tokenized text, without the $00 terminator.
    pub text: &'a [u8],
}

/// Walks the lines of a PRG in file order, the way the C64's LINKPRG does, stopping at the end
/// marker. Stored links are returned but not checked; see [`program_lines`] for the checked walk.
/// On a malformed file, returns the lines read before the problem along with the error.
pub(crate) fn walk_lines(prg: &[u8]) -> (Vec<BasicLine<'_>>, Result<(), ListError>) {
    let mut lines = Vec::new();
    let result = walk_into(prg, &mut lines);
    (lines, result)
}

fn walk_into<'a>(prg: &'a [u8], lines: &mut Vec<BasicLine<'a>>) -> Result<(), ListError> {
    if prg.len() < 2 {
        return Err(ListError {
            offset: 0,
            message: "file is too short to hold a load address".into(),
        });
    }
    let load = u16::from_le_bytes([prg[0], prg[1]]) as usize;
    let address_of = |offset: usize| load + offset - 2;
    let mut pos = 2;
    loop {
        if address_of(pos) > 0xffff {
            return Err(ListError {
                offset: pos,
                message: format!("program runs past $FFFF (loaded at ${load:04x})"),
            });
        }
        let Some(link_bytes) = prg.get(pos..pos + 2) else {
            return Err(ListError {
                offset: pos,
                message: "file ends without the $00 $00 end-of-program marker".into(),
            });
        };
        let link = u16::from_le_bytes([link_bytes[0], link_bytes[1]]);
        if link >> 8 == 0 {
            return Ok(());
        }
        let Some(number_bytes) = prg.get(pos + 2..pos + 4) else {
            return Err(ListError {
                offset: pos,
                message: "file ends inside a line header".into(),
            });
        };
        let number = u16::from_le_bytes([number_bytes[0], number_bytes[1]]);
        let text_start = pos + 4;
        let Some(len) = prg[text_start..].iter().position(|&b| b == 0) else {
            return Err(ListError {
                offset: text_start,
                message: format!("line {number} has no $00 terminator (file truncated?)"),
            });
        };
        lines.push(BasicLine {
            offset: pos,
            address: address_of(pos) as u16,
            link,
            number,
            text: &prg[text_start..text_start + len],
        });
        pos = text_start + len + 1;
    }
}

/// The lines of a PRG, checking that every link points at the line that follows it.
pub fn program_lines(prg: &[u8]) -> Result<Vec<BasicLine<'_>>, ListError> {
    let (lines, result) = walk_lines(prg);
    result?;
    let load = u16::from_le_bytes([prg[0], prg[1]]) as usize;
    for line in &lines {
        let next = load + (line.offset + 4 + line.text.len() + 1) - 2;
        if line.link as usize != next {
            let why = if line.link <= line.address {
                "points back at or before the line itself (a loop)"
            } else {
                "does not point at the next line"
            };
            return Err(ListError {
                offset: line.offset,
                message: format!(
                    "line {}: link ${:04x} {why}; expected ${next:04x}",
                    line.number, line.link
                ),
            });
        }
    }
    Ok(lines)
}

/// Rewrites the links of a PRG from its line text, as the C64 does after LOAD (LINKPRG). Data
/// after the end-of-program marker (e.g. machine code) is kept as is.
pub fn relink(prg: &[u8]) -> Result<Vec<u8>, ListError> {
    let (lines, result) = walk_lines(prg);
    result?;
    let load = u16::from_le_bytes([prg[0], prg[1]]) as usize;
    let mut out = prg.to_vec();
    for line in &lines {
        let next = (load + (line.offset + 4 + line.text.len() + 1) - 2) as u16;
        out[line.offset..line.offset + 2].copy_from_slice(&next.to_le_bytes());
    }
    Ok(out)
}

/// Lists a PRG (load address included) as `petcat -2` does: one `NUMBER TEXT` line each,
/// keywords in lower case, letters $41-$5A lower case and shifted letters upper case, control
/// codes as `{name}`, π as `~`. Text after REM, inside quotes and inside DATA is shown as
/// characters, not keywords, so the listing tokenizes back to the same bytes.
///
/// Errors (with the PRG offset) on a broken or looping link chain and on truncation. Bytes after
/// the end-of-program marker are ignored, as petcat skips a machine-language part.
pub fn list_program(prg: &[u8]) -> Result<String, ListError> {
    let lines = program_lines(prg)?;
    let mut out = String::new();
    for line in lines {
        out.push_str(&line.number.to_string());
        out.push(' ');
        list_line_text(line.text, &mut out);
        out.push('\n');
    }
    Ok(out)
}

fn list_line_text(text: &[u8], out: &mut String) {
    let petcat = RenderOptions {
        style: RenderStyle::Petcat,
        lowercase_charset: false,
    };
    let (mut quote, mut rem, mut data) = (false, false, false);
    for &b in text {
        if b == b'"' {
            quote = !quote;
            out.push('"');
            continue;
        }
        if !quote && data && b == b':' {
            data = false;
        }
        if !quote && !rem && !data && b >= 0x80 {
            match keyword(b) {
                Some(word) => {
                    out.push_str(word);
                    rem = b == TOKEN_REM;
                    data = b == TOKEN_DATA;
                }
                None if b == PI => out.push('~'),
                None => out.push_str(&format!("{{${b:02x}}}")),
            }
            continue;
        }
        match b {
            // Keep one listing line per program line.
            0x0d | 0x0a => out.push_str(&format!("{{${b:02x}}}")),
            _ => push_rendered(out, b, &petcat),
        }
    }
}

/// How the tokenizer reads letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LetterCase {
    /// [`LetterCase::Petcat`] if the source has any lower-case letter outside `{...}`, else
    /// [`LetterCase::Unshifted`]: petcat listings and all-capitals sources both work.
    #[default]
    Auto,
    /// As petcat: lower case → unshifted $41-$5A, upper case → shifted $C1-$DA; keywords only
    /// in lower case.
    Petcat,
    /// Both cases → unshifted $41-$5A and keywords in any case, as typed on a C64 in its
    /// power-on character set. Shifted letters need `{SHIFT-A}` style escapes.
    Unshifted,
}

/// Options for [`tokenize_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TokenizeOptions {
    pub letter_case: LetterCase,
}

/// Why a BASIC source could not be tokenized. `line` is the 1-based source line, `column` the
/// 1-based character column when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenizeError {
    pub line: usize,
    pub column: Option<usize>,
    pub message: String,
}

impl fmt::Display for TokenizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(
                f,
                "BASIC source line {}, column {}: {}",
                self.line, column, self.message
            ),
            None => write!(f, "BASIC source line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for TokenizeError {}

/// Tokenizes BASIC V2 source into a PRG (load address first) with [`LetterCase::Auto`]; see
/// [`tokenize_with`].
pub fn tokenize(source: &str, load_address: u16) -> Result<Vec<u8>, TokenizeError> {
    tokenize_with(source, load_address, &TokenizeOptions::default())
}

/// Tokenizes BASIC V2 source like `petcat -w2`: each line `NUMBER TEXT`; keywords become tokens
/// (longest match, none inside quotes, after REM, or in DATA up to the next `:`); `?` is PRINT
/// as on the C64; `~` and `π` are π; `{name}`, `{$xx}`, `{nnn}` and `{N name}` escapes
/// (anywhere in a line) become the bytes they name. Blank lines and lines starting with `;`
/// are skipped, as is a line with a number but no text (on a C64 that deletes the line).
/// Line numbers must be 0-63999 and increasing. Keyword abbreviations (`pO`) are not expanded.
pub fn tokenize_with(
    source: &str,
    load_address: u16,
    options: &TokenizeOptions,
) -> Result<Vec<u8>, TokenizeError> {
    let petcat_case = match options.letter_case {
        LetterCase::Petcat => true,
        LetterCase::Unshifted => false,
        LetterCase::Auto => has_lowercase_outside_escapes(source),
    };
    let mut out = load_address.to_le_bytes().to_vec();
    let mut address = load_address as usize;
    let mut last_number: Option<u32> = None;
    for (index, raw_line) in source.split('\n').enumerate() {
        let line_no = index + 1;
        let line = raw_line.strip_suffix('\r').unwrap_or(raw_line);
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            continue;
        }
        let error = |column: Option<usize>, message: String| TokenizeError {
            line: line_no,
            column,
            message,
        };
        let chars: Vec<char> = line.chars().collect();
        let mut i = chars.iter().take_while(|c| c.is_whitespace()).count();
        let digits_start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if i == digits_start {
            return Err(error(
                Some(digits_start + 1),
                "expected a line number at the start of the line".into(),
            ));
        }
        let digits: String = chars[digits_start..i].iter().collect();
        let number = digits
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= MAX_LINE_NUMBER)
            .ok_or_else(|| {
                error(
                    Some(digits_start + 1),
                    format!("line number {} is above {MAX_LINE_NUMBER}", quote(&digits)),
                )
            })?;
        if let Some(last) = last_number {
            if number <= last {
                return Err(error(
                    Some(digits_start + 1),
                    format!("line number {number} does not follow {last}; numbers must increase"),
                ));
            }
        }
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let body = tokenize_body(&chars, i, petcat_case)
            .map_err(|(column, message)| error(Some(column + 1), message))?;
        if body.is_empty() {
            continue;
        }
        if body.len() > MAX_LINE_BODY {
            return Err(error(
                None,
                format!(
                    "line {number} is {} bytes tokenized; BASIC lines hold at most {MAX_LINE_BODY}",
                    body.len()
                ),
            ));
        }
        let next = address + 4 + body.len() + 1;
        // The end-of-program marker must fit after the line too.
        if next + 2 > 0x10000 {
            return Err(error(
                None,
                format!("program no longer fits below $FFFF at line {number}"),
            ));
        }
        out.extend_from_slice(&(next as u16).to_le_bytes());
        out.extend_from_slice(&(number as u16).to_le_bytes());
        out.extend_from_slice(&body);
        out.push(0);
        address = next;
        last_number = Some(number);
    }
    out.extend_from_slice(&[0, 0]);
    Ok(out)
}

fn has_lowercase_outside_escapes(source: &str) -> bool {
    let mut in_escape = false;
    for c in source.chars() {
        match c {
            '{' => in_escape = true,
            '}' => in_escape = false,
            '\n' => in_escape = false,
            'a'..='z' if !in_escape => return true,
            _ => {}
        }
    }
    false
}

/// Tokenizes one line's text from `start`; errors carry a 0-based column.
fn tokenize_body(
    chars: &[char],
    start: usize,
    petcat_case: bool,
) -> Result<Vec<u8>, (usize, String)> {
    let mut out = Vec::new();
    let (mut quote, mut rem, mut data) = (false, false, false);
    let mut i = start;
    while i < chars.len() {
        let c = chars[i];
        if c == '{' {
            let close = chars[i..]
                .iter()
                .position(|&c| c == '}')
                .ok_or((i, "'{' is never closed".to_string()))?;
            let inner: String = chars[i + 1..i + close].iter().collect();
            out.extend(escape_bytes(&inner).map_err(|m| (i, m))?);
            i += close + 1;
            continue;
        }
        if c == '"' {
            quote = !quote;
            out.push(b'"');
            i += 1;
            continue;
        }
        if !quote && !rem && !data {
            if let Some((token, len)) = match_keyword(&chars[i..], petcat_case) {
                out.push(token);
                rem = token == TOKEN_REM;
                data = token == TOKEN_DATA;
                i += len;
                continue;
            }
            if c == '?' {
                out.push(TOKEN_PRINT);
                i += 1;
                continue;
            }
        }
        if data && !quote && c == ':' {
            data = false;
        }
        out.push(char_to_petscii(c, petcat_case).ok_or((
            i,
            format!("{c:?} has no PETSCII equivalent; write it as {{$xx}}"),
        ))?);
        i += 1;
    }
    Ok(out)
}

/// The bytes of a `{...}` escape: `{name}`, `{$xx}`, `{nnn}`, `{N name}` or `{name*N}`.
fn escape_bytes(inner: &str) -> Result<Vec<u8>, String> {
    let trimmed = inner.trim();
    if let Some(code) = code_for_name(trimmed) {
        return Ok(vec![code]);
    }
    let (count, name) = match trimmed.split_once(char::is_whitespace) {
        Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => (n, rest.trim()),
        _ => match trimmed.rsplit_once('*') {
            Some((rest, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                (n, rest.trim())
            }
            _ => return Err(format!("unknown control code {{{}}}", quote(trimmed))),
        },
    };
    let code =
        code_for_name(name).ok_or_else(|| format!("unknown control code {{{}}}", quote(name)))?;
    let times = count
        .parse::<usize>()
        .ok()
        .filter(|&n| n <= MAX_LINE_BODY)
        .ok_or_else(|| format!("repeat count {} is too large", quote(count)))?;
    Ok(vec![code; times])
}

/// The longest keyword at the start of `chars`, as (token, length in chars).
fn match_keyword(chars: &[char], petcat_case: bool) -> Option<(u8, usize)> {
    let mut best: Option<(u8, usize)> = None;
    for (index, word) in KEYWORDS.iter().enumerate() {
        let len = word.len();
        if len > chars.len() || best.is_some_and(|(_, l)| l >= len) {
            continue;
        }
        let matches = word.chars().zip(chars).all(|(k, &c)| {
            if petcat_case {
                k == c
            } else {
                k == c.to_ascii_lowercase()
            }
        });
        if matches {
            best = Some((FIRST_TOKEN + index as u8, len));
        }
    }
    best
}

/// PETSCII for one source character outside escapes.
fn char_to_petscii(c: char, petcat_case: bool) -> Option<u8> {
    match c {
        'a'..='z' => Some(c as u8 - 0x20),
        'A'..='Z' if petcat_case => Some(c as u8 | 0x80),
        'A'..='Z' | ' '..='@' | '[' | ']' => Some(c as u8),
        '\\' | '£' => Some(0x5c),
        '^' | '↑' => Some(0x5e),
        '_' | '←' => Some(0x5f),
        '~' | 'π' => Some(PI),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published bytes of "10 SYS2080" at $0801.
    const SYS2080: [u8; 14] = [
        0x01, 0x08, 0x0b, 0x08, 0x0a, 0x00, 0x9e, b'2', b'0', b'8', b'0', 0x00, 0x00, 0x00,
    ];

    #[test]
    fn token_table_spans_end_to_go() {
        assert_eq!(KEYWORDS.len(), (LAST_TOKEN - FIRST_TOKEN + 1) as usize);
        assert_eq!(keyword(0x80), Some("end"));
        assert_eq!(keyword(0x8f), Some("rem"));
        assert_eq!(keyword(0x99), Some("print"));
        assert_eq!(keyword(0x9e), Some("sys"));
        assert_eq!(keyword(0xa4), Some("to"));
        assert_eq!(keyword(0xb2), Some("="));
        assert_eq!(keyword(0xc2), Some("peek"));
        assert_eq!(keyword(0xcb), Some("go"));
        assert_eq!(keyword(0xcc), None);
        assert_eq!(keyword(0x7f), None);
    }

    #[test]
    fn sys2080_bytes() {
        assert_eq!(tokenize("10 SYS2080\n", 0x0801).unwrap(), SYS2080);
        assert_eq!(tokenize("10 sys2080", 0x0801).unwrap(), SYS2080);
        assert_eq!(list_program(&SYS2080).unwrap(), "10 sys2080\n");
    }

    #[test]
    fn round_trip_with_strings_controls_rem_and_data() {
        let text = "\
10 print \"{clr}{wht}hello{rvon} world{rvof}\";
20 rem this is printed as text: print goto \"{red}\"
30 data 1,print,\"a:b\",go:read a$:print a$
40 for i=1 to 10 step 2:poke 53280,i:next
50 if a$=\"{f1}\" then goto 10
60 x=~*2:print \"Shifted Letters\";x
70 get k$:if k$=\"\" goto 70
80 print \"{CBM-K}{SHIFT-*}{$60}\"
";
        let prg = tokenize(text, 0x0801).unwrap();
        assert_eq!(list_program(&prg).unwrap(), text);
        // REM and DATA text stays untokenized; code after DATA's ':' is tokenized.
        let lines = program_lines(&prg).unwrap();
        assert_eq!(lines[1].text[0], TOKEN_REM);
        assert!(lines[1].text[1..].iter().all(|&b| b < 0x80));
        let data = lines[2].text;
        assert_eq!(data[0], TOKEN_DATA);
        assert!(!data[..data.iter().position(|&b| b == 0x87).unwrap()].contains(&TOKEN_PRINT));
        assert!(data.contains(&0x87), "READ after ':' is a token");
        // Letters: lower case → $41-$5A, upper case → $C1-$DA (petcat case rules).
        assert!(lines[5].text.windows(2).any(|w| w == [0xd3, 0x48]));
    }

    #[test]
    fn all_capitals_source_is_unshifted() {
        let prg = tokenize("10 PRINT \"HELLO\"\n20 GOTO 10\n", 0x0801).unwrap();
        assert_eq!(
            list_program(&prg).unwrap(),
            "10 print \"hello\"\n20 goto 10\n"
        );
        assert_eq!(
            &prg[6..14],
            &[0x99, b' ', b'"', b'H', b'E', b'L', b'L', b'O']
        );
    }

    #[test]
    fn tokenizing_rules() {
        let body = |src: &str| {
            let prg = tokenize(src, 0x0801).unwrap();
            prg[6..prg.len() - 3].to_vec()
        };
        // Longest match: PRINT# over PRINT, GOSUB over GO, INPUT# over INPUT.
        assert_eq!(body("1 print#1"), [0x98, b'1']);
        assert_eq!(body("1 gosub9"), [0x8d, b'9']);
        assert_eq!(body("1 go to9"), [0xcb, b' ', 0xa4, b'9']);
        // Keywords inside names are tokenized, as on a real C64.
        assert_eq!(body("1 fort=1"), [0x81, b'T', 0xb2, b'1']);
        assert_eq!(body("1 ?\"x\""), [0x99, b'"', b'X', b'"']);
        assert_eq!(body("1 a=~"), [b'A', 0xb2, 0xff]);
        assert_eq!(
            body("1 a$=\"{3 down}{home*2}\""),
            [b'A', b'$', 0xb2, b'"', 0x11, 0x11, 0x11, 0x13, 0x13, b'"']
        );
    }

    #[test]
    fn link_chain_for_several_lines() {
        let prg = tokenize("10 a=1\n20 b=2\n", 0x0801).unwrap();
        // Line 10 at $0801: 4 header + 3 text + 1 = next at $0809.
        assert_eq!(&prg[2..4], &[0x09, 0x08]);
        assert_eq!(&prg[10..12], &[0x11, 0x08]);
        assert_eq!(&prg[prg.len() - 2..], &[0, 0]);
    }

    #[test]
    fn tokenize_errors_name_the_line() {
        let e = tokenize("10 print\nprint 1\n", 0x0801).unwrap_err();
        assert_eq!(e.line, 2);
        let e = tokenize("10 print\n\n5 print\n", 0x0801).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().contains("increase"), "{e}");
        let e = tokenize("64000 end", 0x0801).unwrap_err();
        assert_eq!(e.line, 1);
        let e = tokenize("10 print \"{nope}\"", 0x0801).unwrap_err();
        assert_eq!((e.line, e.column), (1, Some(11)));
        let e = tokenize("10 print \"{clr\"", 0x0801).unwrap_err();
        assert_eq!(e.line, 1);
        let e = tokenize("10 print \"é\"", 0x0801).unwrap_err();
        assert_eq!((e.line, e.column), (1, Some(11)));
        let long = format!("10 rem {}", "x".repeat(300));
        assert!(tokenize(&long, 0x0801)
            .unwrap_err()
            .message
            .contains("at most"));
        assert!(tokenize("10 print", 0xfff8).is_ok());
        assert!(tokenize("10 print", 0xfff9).is_err());
    }

    #[test]
    fn comments_blank_and_empty_lines_are_skipped() {
        let prg = tokenize("; a comment\n\n10 end\r\n20\n", 0x0801).unwrap();
        assert_eq!(list_program(&prg).unwrap(), "10 end\n");
    }

    #[test]
    fn list_detects_broken_chains() {
        // Truncated inside a line.
        let e = list_program(&SYS2080[..9]).unwrap_err();
        assert_eq!(e.offset, 6);
        // Missing end marker.
        let e = list_program(&SYS2080[..12]).unwrap_err();
        assert_eq!(e.offset, 12);
        // A link pointing back at its own line.
        let mut looped = SYS2080;
        looped[2..4].copy_from_slice(&0x0801u16.to_le_bytes());
        let e = list_program(&looped).unwrap_err();
        assert_eq!(e.offset, 2);
        assert!(e.message.contains("loop"), "{e}");
        // A link pointing elsewhere, which relinking repairs.
        let mut stale = SYS2080;
        stale[2..4].copy_from_slice(&0x0900u16.to_le_bytes());
        assert!(list_program(&stale)
            .unwrap_err()
            .message
            .contains("expected $080b"));
        assert_eq!(relink(&stale).unwrap(), SYS2080);
        assert_eq!(crate::find_sys(&stale, |_| 0).map(|s| s.address), Ok(2080));
        // Too short for a load address.
        assert_eq!(list_program(&[1]).unwrap_err().offset, 0);
    }

    #[test]
    fn list_ignores_machine_code_after_the_end_marker() {
        let mut prg = SYS2080.to_vec();
        prg.extend_from_slice(&[0xa9, 0x00, 0x60]);
        assert_eq!(list_program(&prg).unwrap(), "10 sys2080\n");
    }

    #[test]
    fn unknown_tokens_and_embedded_returns_are_escaped() {
        let prg = [
            0x01, 0x08, 0x09, 0x08, 0x01, 0x00, 0xcc, 0x0d, 0xff, 0x00, 0x00, 0x00,
        ];
        // Link $0809 would be wrong for this 4-byte text; relink first.
        let prg = relink(&prg).unwrap();
        let text = list_program(&prg).unwrap();
        assert_eq!(text, "1 {$cc}{$0d}~\n");
        assert_eq!(tokenize(&text, 0x0801).unwrap(), prg);
    }
}
