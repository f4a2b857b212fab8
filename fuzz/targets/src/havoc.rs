//! A small havoc mutator (in the manner of AFL's havoc stage) for the in-process smoke fuzz:
//! no coverage feedback, just stacked random edits of the seeds. Seeded, so a run with the
//! same seed makes the same inputs in the same order.

use fastrand::Rng;

/// Bytes that mean something to c64kit's formats: ends of lines, quotes, braces of
/// `{NAME}` escapes, `$`/`%` number prefixes, wildcards, PETSCII padding, limits.
const BYTES: &[u8] = &[
    0x00, 0x01, 0x02, 0x10, 0x20, 0x22, 0x24, 0x25, 0x2A, 0x2C, 0x3A, 0x3B, 0x3D, 0x3F, 0x5B, 0x5D,
    0x7B, 0x7D, 0x0A, 0x0D, 0x7F, 0x80, 0x9E, 0xA0, 0xC0, 0xFE, 0xFF,
];

/// 16-bit values (both byte orders are used): addresses and sizes at the edges.
const WORDS: &[u16] = &[
    0x0000, 0x0001, 0x00FF, 0x0100, 0x0801, 0x7FFF, 0x8000, 0xC000, 0xC3C6, 0xFFFE, 0xFFFF,
];

/// 32-bit values: offsets and counts at the edges.
const DWORDS: &[u32] = &[0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x0001_0000];

/// Mutates seeds into new inputs.
pub struct Havoc {
    rng: Rng,
    seeds: Vec<Vec<u8>>,
    max_len: usize,
}

impl Havoc {
    /// `seeds` must not be empty (an empty seed is fine). Inputs are kept to at most
    /// `max_len` bytes.
    pub fn new(seed: u64, seeds: Vec<Vec<u8>>, max_len: usize) -> Havoc {
        assert!(
            !seeds.is_empty(),
            "the havoc mutator needs at least one seed"
        );
        Havoc {
            rng: Rng::with_seed(seed),
            seeds,
            max_len: max_len.max(1),
        }
    }

    /// The next input: a seed with 1 to 64 stacked edits (mostly few), or now and then a
    /// seed as it is.
    pub fn next_input(&mut self) -> Vec<u8> {
        let mut data = self.seeds[self.rng.usize(..self.seeds.len())].clone();
        if self.rng.u8(..) == 0 {
            return data;
        }
        let edits = 1usize << self.rng.u32(0..7);
        for _ in 0..self.rng.usize(1..=edits) {
            self.mutate(&mut data);
        }
        data.truncate(self.max_len);
        data
    }

    fn mutate(&mut self, data: &mut Vec<u8>) {
        let (rng, seeds) = (&mut self.rng, &self.seeds);
        if data.is_empty() {
            let n = rng.usize(1..=8);
            data.extend((0..n).map(|_| rng.u8(..)));
            return;
        }
        let at = rng.usize(0..data.len());
        match rng.u8(0..13) {
            0 => data[at] ^= 1 << rng.u8(0..8),
            1 => data[at] = rng.u8(..),
            2 => data[at] = BYTES[rng.usize(..BYTES.len())],
            3 if data.len() >= 2 => {
                let at = rng.usize(0..data.len() - 1);
                let w = WORDS[rng.usize(..WORDS.len())];
                let b = if rng.bool() {
                    w.to_le_bytes()
                } else {
                    w.to_be_bytes()
                };
                data[at..at + 2].copy_from_slice(&b);
            }
            4 if data.len() >= 4 => {
                let at = rng.usize(0..data.len() - 3);
                let d = DWORDS[rng.usize(..DWORDS.len())];
                let b = if rng.bool() {
                    d.to_le_bytes()
                } else {
                    d.to_be_bytes()
                };
                data[at..at + 4].copy_from_slice(&b);
            }
            5 => {
                let delta = rng.u8(1..=35);
                data[at] = if rng.bool() {
                    data[at].wrapping_add(delta)
                } else {
                    data[at].wrapping_sub(delta)
                };
            }
            6 => {
                // Delete a chunk.
                let (start, len) = chunk(rng, data.len());
                data.drain(start..start + len);
            }
            7 => {
                // Insert a run of one byte or random bytes.
                let most = if rng.bool() { 8 } else { 128 };
                let n = rng.usize(1..=most);
                let fill = if rng.bool() {
                    vec![BYTES[rng.usize(..BYTES.len())]; n]
                } else {
                    (0..n).map(|_| rng.u8(..)).collect()
                };
                data.splice(at..at, fill);
            }
            8 => {
                // Duplicate a chunk of the input somewhere in it.
                let (start, len) = chunk(rng, data.len());
                let piece = data[start..start + len].to_vec();
                let to = rng.usize(0..=data.len());
                data.splice(to..to, piece);
            }
            9 => {
                // Overwrite with a chunk of the input from elsewhere.
                let (start, len) = chunk(rng, data.len());
                let piece = data[start..start + len].to_vec();
                let to = rng.usize(0..=data.len() - len);
                data[to..to + len].copy_from_slice(&piece);
            }
            10 => {
                // Insert a chunk of another seed (a dictionary of the format's own words).
                let other = rng.usize(..seeds.len());
                let other_len = seeds[other].len();
                if other_len > 0 {
                    let (start, len) = chunk(rng, other_len);
                    let piece = seeds[other][start..start + len].to_vec();
                    data.splice(at..at, piece);
                }
            }
            11 => {
                // Splice: this input's start, another seed's end.
                let other = &seeds[rng.usize(..seeds.len())];
                if !other.is_empty() {
                    let from = rng.usize(0..other.len());
                    data.truncate(at);
                    data.extend_from_slice(&other[from..]);
                }
            }
            _ => {
                // Truncate (files cut short).
                data.truncate(at);
            }
        }
    }
}

/// A random `(start, len)` inside `len_total` (> 0) bytes, biased to short chunks.
fn chunk(rng: &mut Rng, len_total: usize) -> (usize, usize) {
    let max = len_total.min(if rng.bool() { 16 } else { 1024 });
    let len = rng.usize(1..=max.max(1)).min(len_total);
    let start = rng.usize(0..=len_total - len);
    (start, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_inputs_and_bounded() {
        let seeds = vec![b"10 PRINT \"HI\"\n".to_vec(), vec![], vec![1, 8, 0, 0]];
        let mut a = Havoc::new(7, seeds.clone(), 64);
        let mut b = Havoc::new(7, seeds, 64);
        for _ in 0..2000 {
            let x = a.next_input();
            assert!(x.len() <= 64);
            assert_eq!(x, b.next_input());
        }
    }
}
