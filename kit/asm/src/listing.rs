//! The listing: address, bytes and source text of every line run, in the order run.

use crate::source::Source;
use std::fmt::Write as _;
use std::ops::Range;
use std::rc::Rc;

/// One line of the listing. Kept small (no copy of the text unless macro parameters
/// changed it): a pass may list a million lines.
struct ListLine {
    addr: Option<u16>,
    /// The line's bytes in `Listing::bytes`.
    bytes: Range<u32>,
    src: Rc<Source>,
    /// 0-based line index in `src`.
    line: u32,
    /// The text run, when it is not the source line itself.
    text: Option<Box<str>>,
}

#[derive(Default)]
pub(crate) struct Listing {
    lines: Vec<ListLine>,
    /// Bytes placed by listed lines; each line has its range.
    bytes: Vec<u8>,
    /// Where the running line's bytes start in `bytes`.
    line_start: usize,
}

impl Listing {
    /// A statement starts: bytes placed since the last listed line are not its own.
    pub fn start_statement(&mut self) {
        self.bytes.truncate(self.line_start);
    }

    pub fn push(&mut self, b: u8) {
        self.bytes.push(b);
    }

    /// Lists line `i` of `src` with the bytes placed since the last listed line. `changed`
    /// is the text run when macro parameters changed it (else the listing shows the
    /// source line).
    pub fn list(&mut self, pc: i64, src: &Rc<Source>, i: usize, changed: Option<&str>) {
        let end = self.bytes.len();
        self.lines.push(ListLine {
            addr: u16::try_from(pc).ok(),
            bytes: self.line_start as u32..end as u32,
            src: src.clone(),
            line: i as u32,
            text: changed.map(|t| t.trim_end().into()),
        });
        self.line_start = end;
    }

    /// `$0820  A9 00                    main.asm:12  start lda #0`: up to 8 bytes a line,
    /// then continuation lines with the address and the rest of the bytes.
    pub fn format(&self) -> String {
        let locs: Vec<String> = self
            .lines
            .iter()
            .map(|l| format!("{}:{}", l.src.display, l.line + 1))
            .collect();
        let width = locs.iter().map(String::len).max().unwrap_or(0);
        let mut out = String::new();
        for (l, loc) in self.lines.iter().zip(&locs) {
            let addr = l.addr.map(|a| format!("${a:04X}")).unwrap_or_default();
            let text = match &l.text {
                Some(t) => t,
                None => l.src.line(l.line as usize).trim_end(),
            };
            let mut chunks = self.bytes[l.bytes.start as usize..l.bytes.end as usize].chunks(8);
            let first = chunks.next().map(hex).unwrap_or_default();
            let line = format!("{addr:<5}  {first:<23}  {loc:<width$}  {text}");
            let _ = writeln!(out, "{}", line.trim_end());
            let mut a = l.addr.unwrap_or(0) as usize + 8;
            for c in chunks {
                let _ = writeln!(out, "${:04X}  {}", a & 0xFFFF, hex(c));
                a += 8;
            }
        }
        out
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}
