//! Shared helpers of the ryg3_* tests (included with `#[path]`; built alone it has no tests).
//!
//! A `Session` is one RYG3 build RUN in the kit and driven in steps: type a few keys, run until
//! the program waits for the next key, look at what it printed, poke memory, type more. Pokes
//! happen while the program sits in GETIN waiting for a key, i.e. between two commands.
//!
//! Addresses used here are the ones programs/ryg3/README.md documents (memory map) and the flat
//! list layout of ryg3-tables.toml ([layout.v09] / [layout.v10_v11]).

#![allow(dead_code)]

use c64kit_basic::parse_key_script;
use c64kit_machine::{Machine, Prg, StopReason};
use std::sync::OnceLock;

/// The flat list region (move_from at offset 0, then the toml [layout] offsets).
pub const FLAT: u16 = 0x5500;
/// Best-move tables: mouse from/to/lock, cats from/to/lock, 256 slots each.
pub const TM_FROM: u16 = 0x4800;
pub const TM_TO: u16 = 0x4900;
pub const TM_LOCK: u16 = 0x4A00;
pub const TC_FROM: u16 = 0x4B00;
pub const TC_TO: u16 = 0x4C00;
pub const TC_LOCK: u16 = 0x4D00;
/// 16-bit collision counters (little endian), mouse then cats table.
pub const COLL_M: u16 = 0x5904;
pub const COLL_C: u16 = 0x5906;
/// v11: history[from][to] at HIST + 64·from + to.
pub const HIST: u16 = 0x6000;
/// LINNUM, which `.Tn` copies into max_depth (ryg3.md 5.2.1).
pub const LINNUM: u16 = 0x0014;

/// Enough for any command of these tests (the longest, `.G` at depth 10 in v11, takes ~25M).
const BUDGET: u64 = 200_000_000;

fn prg(version: &str) -> &'static Prg {
    static PRGS: OnceLock<Vec<(String, Prg)>> = OnceLock::new();
    let all = PRGS.get_or_init(|| {
        ["09", "10", "11"]
            .iter()
            .map(|v| {
                let p = c64kit_programs::build(&format!("ryg3-v{v}")).expect("ryg3 builds");
                (v.to_string(), p)
            })
            .collect()
    });
    &all.iter().find(|(v, _)| v == version).expect("version").1
}

/// Transcript bytes as text: 13 as a newline, 32..126 as themselves, anything else as `{xx}`
/// (the format of shared/ryg/model), so DEL's echo shows as `{14}`.
pub fn text_of(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        match b {
            13 => s.push('\n'),
            32..=126 => s.push(b as char),
            _ => s.push_str(&format!("{{{b:02x}}}")),
        }
    }
    s
}

pub struct Session {
    pub m: Machine,
    pub version: &'static str,
    seen: usize,
    pub stop: StopReason,
}

impl Session {
    /// The program RUN with no keys: it prints nothing and waits for the first key.
    pub fn new(version: &'static str) -> Session {
        let mut m = Machine::builtin();
        m.load_and_run_prg(prg(version)).expect("stub has SYS");
        let stop = m.run(BUDGET);
        assert_eq!(stop, StopReason::InputExhausted);
        // Start-up prints nothing (1); the main loop then prompts for the first command.
        assert_eq!(
            m.transcript(),
            b"? ",
            "start-up prints nothing, then the prompt"
        );
        Session {
            m,
            version,
            seen: 0,
            stop,
        }
    }

    /// Types `keys` (key-script syntax, newline = RETURN, `{DEL}` = DEL), runs until the
    /// program waits for a key again (or stops), returns what it printed from the prompt the
    /// keys answered (`? `) up to, not including, the prompt it now waits at.
    pub fn keys(&mut self, keys: &str) -> String {
        self.m
            .feed_keys(parse_key_script(keys).expect("key script"));
        self.stop = self.m.run(BUDGET);
        let t = self.m.transcript();
        let end = if t.ends_with(b"? ") && t.len() - 2 >= self.seen {
            t.len() - 2
        } else {
            t.len()
        };
        let out = text_of(&t[self.seen..end]);
        self.seen = end;
        out
    }

    /// As `keys`, and the program must be waiting for input afterwards.
    pub fn type_(&mut self, keys: &str) -> String {
        let out = self.keys(keys);
        assert_eq!(
            self.stop,
            StopReason::InputExhausted,
            "after {keys:?}:\n{out}"
        );
        out
    }

    pub fn peek(&self, addr: u16) -> u8 {
        self.m.bus.ram[addr as usize]
    }

    pub fn poke(&mut self, addr: u16, v: u8) {
        self.m.bus.ram[addr as usize] = v;
    }

    pub fn v09(&self) -> bool {
        self.version == "09"
    }

    /// Flat offset of the initial-board table (toml [layout.*].initial_board).
    pub fn ib_offset(&self) -> u16 {
        if self.v09() {
            420
        } else {
            520
        }
    }

    /// Writes `board` into the initial-board table (which `.N` and a won game load, 7.2).
    pub fn set_initial_board(&mut self, board: &[u8; 64]) {
        let at = FLAT + self.ib_offset();
        for (i, &b) in board.iter().enumerate() {
            self.poke(at + i as u16, b);
        }
    }

    /// A hand-made position: pokes the initial-board table, types `.N` (7.2: the board is
    /// loaded from that table, eval recomputed, mouse to move, moves generated), then puts the
    /// standard table back so later new games start normally.
    pub fn position(&mut self, pieces: &[(&str, u8)]) {
        self.position_board(&board(pieces));
    }

    /// As `position`, with the 64 piece codes given.
    pub fn position_board(&mut self, b: &[u8; 64]) {
        self.set_initial_board(b);
        assert_eq!(self.type_(".n\n"), "? .N\nNEW GAME\n");
        self.set_initial_board(&INITIAL);
    }

    /// Stores a best-move table slot: table 0 = mouse to move, 1 = cats to move.
    pub fn set_slot(&mut self, table: u8, slot: u8, from: u8, to: u8, lock: u8) {
        let (f, t, l) = if table == 0 {
            (TM_FROM, TM_TO, TM_LOCK)
        } else {
            (TC_FROM, TC_TO, TC_LOCK)
        };
        self.poke(f + slot as u16, from);
        self.poke(t + slot as u16, to);
        self.poke(l + slot as u16, lock);
    }
}

/// toml [board].initial: mouse e1, cats 1..4 on b8 d8 f8 h8, 6 = empty.
pub const INITIAL: [u8; 64] = {
    let mut b = [6u8; 64];
    b[4] = 0;
    b[57] = 1;
    b[59] = 2;
    b[61] = 3;
    b[63] = 4;
    b
};

/// Square number of a name like "e1" (ryg3.md 0: 8·rank + file).
pub fn sq(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[0].to_ascii_lowercase() - b'a') + 8 * (b[1] - b'1')
}

/// A board from (square, piece code) pairs, everything else empty (6).
pub fn board(pieces: &[(&str, u8)]) -> [u8; 64] {
    let mut b = [6u8; 64];
    for &(s, code) in pieces {
        b[sq(s) as usize] = code;
    }
    b
}

/// The `.B` display (ryg3.md 8) of a board with normal col/row tables, for comparison.
pub fn board_text(
    b: &[u8; 64],
    side: u8,
    ply: u8,
    hply: u8,
    hash: u8,
    lock: u8,
    eval: u8,
) -> String {
    let mut s = String::from("  ABCDEFGH\n");
    for r in (0..8).rev() {
        let l = (b'1' + r as u8) as char;
        s.push(l);
        s.push(' ');
        for f in 0..8 {
            match b[r * 8 + f] {
                0 => s.push('M'),
                1..=4 => s.push('C'),
                6 => s.push(if (r + f) % 2 == 1 { '.' } else { 'X' }),
                _ => {}
            }
        }
        s.push(' ');
        s.push(l);
        s.push('\n');
    }
    s.push_str("  ABCDEFGH\n");
    s.push_str(&format!(
        "S: {},P:{ply:02X},H:{hply:02X}\n#:{hash:02X},L:{lock:02X},E:{eval:02X}\n\n",
        if side == 0 { 'M' } else { 'C' }
    ));
    s
}

/// The text of `.M` over all 256 indexes of an empty move list (14.1) when every byte read is
/// 0 (name A1) except the given (index, entry) pairs.
pub fn scan256(entries: &[(usize, &str)]) -> String {
    let mut v = vec!["A1A1"; 256];
    for &(i, e) in entries {
        v[i] = e;
    }
    v.join(",") + "\n"
}
