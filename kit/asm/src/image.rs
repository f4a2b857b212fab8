//! The 64 KiB the program is assembled into, with which statement placed each byte, so
//! that code placed twice at one address is an error naming the first.

use std::rc::Rc;

pub(crate) struct Image {
    mem: Vec<u8>,
    /// Index+1 into `locs` of the statement that wrote each address (0 = free).
    owner: Vec<u32>,
    /// (file, line) of each statement that placed bytes.
    locs: Vec<(Rc<str>, usize)>,
    /// Lowest and highest address written (`lo` is `usize::MAX` while nothing is).
    lo: usize,
    hi: usize,
}

impl Image {
    pub fn new() -> Image {
        Image {
            mem: vec![0; 0x10000],
            owner: vec![0; 0x10000],
            locs: Vec::new(),
            lo: usize::MAX,
            hi: 0,
        }
    }

    /// Places `b` at `addr` for the statement at `file:line`. If an earlier statement
    /// placed a byte there, the byte is still written and that statement is returned.
    pub fn place(
        &mut self,
        addr: u16,
        b: u8,
        file: &Rc<str>,
        line: usize,
    ) -> Result<(), (Rc<str>, usize)> {
        let a = addr as usize;
        let taken = match self.owner[a] {
            0 => {
                if self
                    .locs
                    .last()
                    .is_none_or(|(f, l)| f != file || *l != line)
                {
                    self.locs.push((file.clone(), line));
                }
                self.owner[a] = self.locs.len() as u32;
                None
            }
            o => Some(self.locs[o as usize - 1].clone()),
        };
        self.mem[a] = b;
        self.lo = self.lo.min(a);
        self.hi = self.hi.max(a);
        taken.map_or(Ok(()), Err)
    }

    /// The lowest address written and everything from there to the highest, gaps filled
    /// with `padding`; None if nothing was written.
    pub fn bytes(&self, padding: u8) -> Option<(u16, Vec<u8>)> {
        if self.lo == usize::MAX {
            return None;
        }
        let bytes = (self.lo..=self.hi)
            .map(|a| match self.owner[a] {
                0 => padding,
                _ => self.mem[a],
            })
            .collect();
        Some((self.lo as u16, bytes))
    }
}
