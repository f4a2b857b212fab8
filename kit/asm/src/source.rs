//! One loaded source file: its text, where each line starts, and its block structure
//! (which `repeat` and `defm` each `endrepeat` and `endm` closes), worked out once when it
//! is read.

use crate::directives::{Block, Directive};
use crate::lexer::{is_ident_char, lex};
use crate::limits::{line_too_long, MAX_LINE_CHARS, MAX_SOURCE_BYTES};
use c64kit_files::size_text;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

/// Which file a label belongs to: labels of the same name in different files are different
/// labels (see `symbols`). Each source file read gets its own.
pub(crate) type Unit = u32;

pub(crate) struct Source {
    /// Name used in messages and the listing.
    pub display: Rc<str>,
    /// Directory that relative includes start from (None for in-memory sources).
    pub dir: Option<PathBuf>,
    /// The file its labels belong to.
    pub unit: Unit,
    text: String,
    /// Byte offset in `text` where each line starts, then `text.len() + 1` (where a line
    /// after the last would start). u32: a source is at most [`MAX_SOURCE_BYTES`].
    starts: Vec<u32>,
    /// The block word of each line that has one (few do), by line index.
    blocks: HashMap<u32, Block>,
    /// For each `repeat` and `defm` line, the line of its `endrepeat` or `endm`.
    ends: HashMap<u32, u32>,
}

impl Source {
    /// Splits `text` into lines (LF or CR LF; a UTF-8 BOM is dropped) and works out its
    /// block structure once, so that finding the end of a `repeat` or `defm` costs nothing
    /// however often it runs. A line longer than [`MAX_LINE_CHARS`] is refused:
    /// `Err((line, message))`, line 0 for the file as a whole.
    pub fn from_text(
        display: &str,
        dir: Option<PathBuf>,
        unit: Unit,
        mut text: String,
    ) -> Result<Source, (usize, String)> {
        if text.starts_with('\u{FEFF}') {
            text.drain(..'\u{FEFF}'.len_utf8());
        }
        if text.len() as u64 > MAX_SOURCE_BYTES {
            return Err((
                0,
                format!(
                    "{} of source text is more than a source file can be ({})",
                    size_text(text.len() as u64),
                    size_text(MAX_SOURCE_BYTES)
                ),
            ));
        }
        let mut starts = vec![0u32];
        starts.extend(after_newlines(&text));
        starts.push(text.len() as u32 + 1);
        let mut src = Source {
            display: display.into(),
            dir,
            unit,
            text,
            starts,
            blocks: HashMap::new(),
            ends: HashMap::new(),
        };
        // Matching opens and closes with a stack gives each `repeat` the first `endrepeat`
        // where the nesting after it returns to zero: what scanning ahead would find.
        let mut open_repeats = Vec::new();
        let mut open_macros = Vec::new();
        for i in 0..src.len() {
            let line = src.line(i);
            if line.len() > MAX_LINE_CHARS {
                let chars = line.chars().count();
                if chars > MAX_LINE_CHARS {
                    return Err((i + 1, line_too_long(chars)));
                }
            }
            let Some(word) = block_word(line) else {
                continue;
            };
            src.blocks.insert(i as u32, word);
            let (opens, close) = match word {
                Block::Repeat | Block::Defm => {
                    let stack = if word == Block::Repeat {
                        &mut open_repeats
                    } else {
                        &mut open_macros
                    };
                    stack.push(i as u32);
                    continue;
                }
                Block::EndRepeat => (&mut open_repeats, i as u32),
                Block::Endm => (&mut open_macros, i as u32),
                _ => continue,
            };
            if let Some(open) = opens.pop() {
                src.ends.insert(open, close);
            }
        }
        Ok(src)
    }

    /// Number of lines.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `i` (0-based) without its line end.
    pub fn line(&self, i: usize) -> &str {
        let line = &self.text[self.starts[i] as usize..self.starts[i + 1] as usize - 1];
        line.strip_suffix('\r').unwrap_or(line)
    }

    pub fn block(&self, i: usize) -> Option<Block> {
        self.blocks.get(&(i as u32)).copied()
    }

    /// The line that closes the `repeat` or `defm` on line `open`, if it comes before `limit`.
    pub fn end_of(&self, open: usize, limit: usize) -> Option<usize> {
        self.ends
            .get(&(open as u32))
            .map(|&e| e as usize)
            .filter(|&e| e < limit)
    }
}

/// The offset just after each `\n`: where the next line starts.
fn after_newlines(text: &str) -> impl Iterator<Item = u32> + '_ {
    text.bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i as u32 + 1)
}

/// Source files may be UTF-8 or (from Windows editors, as CBM prg Studio's own files often
/// are) Latin-1/CP1252: a file that is not valid UTF-8 is read byte for byte as Latin-1,
/// so nothing is ever refused for its encoding.
pub(crate) fn decode(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    }
}

fn block(word: &str) -> Option<Block> {
    Directive::named(word).and_then(Directive::block)
}

/// The block-structure word of a line (`repeat`, `endm`, ...), if any: the first word, or
/// the word after a label.
pub(crate) fn block_word(line: &str) -> Option<Block> {
    // The words looked at are the line's first two runs of name characters: most lines
    // (instructions, data) are told apart by them without lexing the whole line.
    let runs = line
        .split(|c: char| !(is_ident_char(c) || c == '@'))
        .filter(|w| !w.is_empty());
    if !runs.take(2).any(|w| block(w).is_some()) {
        return None;
    }
    let toks = lex(line).ok()?;
    let mut it = toks.iter();
    let first = it.next()?.ident()?;
    if let Some(b) = block(first) {
        return Some(b);
    }
    let mut next = it.next()?;
    if next.is_op(":") {
        next = it.next()?;
    }
    block(next.ident()?)
}
