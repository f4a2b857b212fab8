//! An independent model of the first-series RYG engine as ryg1.md specifies it (rules,
//! evaluation per version, the game tree in creation order, minimax, the cats' choice, the
//! opening book), written in Rust from the spec alone, plus helpers that drive our 6502
//! program (programs/ryg) through the kit's entry points. The other ryg1_* test files include
//! this file with `#[path = "ryg1_model.rs"] mod model;`; its own tests check the model
//! against numbers stated in published.md.
//!
//! Entry points of the program (programs/ryg/README.md, "Entry points"): JMP vectors at
//! $0820 (the game, SYS2080), $0823 eval, $0826 think, $0829 check depth, $082C play on;
//! the game state at fixed addresses from $0830.
#![allow(dead_code)]

use c64kit_basic::parse_key_script;
use c64kit_machine::{Machine, Prg, StopReason};
use c64kit_programs::build;

pub const VERSIONS: [u32; 5] = [15, 16, 17, 18, 19];
pub const MOUSE_STEPS: [i32; 4] = [-9, -7, 9, 7];
pub const CAT_STEPS: [i32; 2] = [7, 9];
pub const TREE_BASE: usize = 0x2000;

// ---------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub mouse: u8,
    pub cats: [u8; 4],
}

pub fn usable(sq: i32) -> bool {
    (0..64).contains(&sq) && (sq / 8 + sq % 8) % 2 == 0
}

impl Pos {
    pub const START: Pos = Pos {
        mouse: 59,
        cats: [0, 2, 4, 6],
    };

    pub fn new(mouse: u8, cats: [u8; 4]) -> Pos {
        Pos { mouse, cats }
    }

    fn free(&self, sq: i32) -> bool {
        usable(sq) && sq as u8 != self.mouse && !self.cats.contains(&(sq as u8))
    }

    /// The mouse's legal destinations, in the order -9, -7, +9, +7.
    pub fn mouse_moves(&self) -> Vec<u8> {
        MOUSE_STEPS
            .iter()
            .map(|s| self.mouse as i32 + s)
            .filter(|&d| self.free(d))
            .map(|d| d as u8)
            .collect()
    }

    /// The cats' legal moves (cat, destination): cat 0..3, steps +7, +9.
    pub fn cat_moves(&self) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        for (i, &c) in self.cats.iter().enumerate() {
            for s in CAT_STEPS {
                let d = c as i32 + s;
                if self.free(d) {
                    out.push((i, d as u8));
                }
            }
        }
        out
    }
}

/// The leaf value of ryg1.md "Evaluation", for the given build version.
pub fn eval(p: &Pos, version: u32) -> u8 {
    let row = (p.mouse / 8) as i32;
    let mut v: i32 = 0x80;
    v += if row == 0 { 32 } else { 7 - row };
    v += match p.mouse_moves().len() {
        4 => 0,
        3 => -2,
        2 => -4,
        1 => -8,
        _ => -32,
    };
    let rows = p.cats.map(|c| (c / 8) as i32);
    let (min, max) = (*rows.iter().min().unwrap(), *rows.iter().max().unwrap());
    if version >= 16 {
        v += match max - min {
            0 => -16,
            1 => -8,
            _ => 0,
        };
    }
    if version >= 17 && min >= row {
        v += 32;
    }
    assert!(
        (0x30..=0xD0).contains(&v),
        "value {v:#x} out of range for {p:?}"
    );
    v as u8
}

pub fn record_size(version: u32) -> usize {
    if version >= 18 {
        29
    } else {
        88
    }
}

pub fn max_depth(version: u32) -> u8 {
    if version >= 18 {
        4
    } else {
        3
    }
}

#[derive(Clone, Debug)]
pub struct Rec {
    pub level: u8,
    pub turn: u8,
    pub value: u8,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    pub pos: Pos,
}

/// A game tree in creation order: record i lives at TREE_BASE + i * record size.
pub struct Tree {
    pub recs: Vec<Rec>,
    pub version: u32,
}

/// ryg1.md "Board records and the tree": the root (the cats to move), then for a node at
/// remaining depth > 0 all its children are created, then each is visited in order.
pub fn think(pos: Pos, level: u8, depth: u8, version: u32) -> Tree {
    let mut t = Tree {
        recs: vec![Rec {
            level,
            turn: 0xFF,
            value: 0,
            parent: None,
            children: vec![],
            pos,
        }],
        version,
    };
    visit(&mut t, 0, depth);
    t
}

fn visit(t: &mut Tree, i: usize, remaining: u8) {
    let (pos, turn, level) = (t.recs[i].pos, t.recs[i].turn, t.recs[i].level);
    if remaining > 0 {
        let children: Vec<Pos> = if turn == 0xFF {
            pos.cat_moves()
                .into_iter()
                .map(|(c, d)| {
                    let mut p = pos;
                    p.cats[c] = d;
                    p
                })
                .collect()
        } else {
            pos.mouse_moves()
                .into_iter()
                .map(|d| Pos { mouse: d, ..pos })
                .collect()
        };
        for p in children {
            let k = t.recs.len();
            t.recs.push(Rec {
                level: level + 1,
                turn: if turn == 0xFF { 0x01 } else { 0xFF },
                value: 0,
                parent: Some(i),
                children: vec![],
                pos: p,
            });
            t.recs[i].children.push(k);
        }
    }
    let children = t.recs[i].children.clone();
    if children.is_empty() {
        t.recs[i].value = eval(&pos, t.version);
        return;
    }
    for &c in &children {
        visit(t, c, remaining - 1);
    }
    let values = children.iter().map(|&c| t.recs[c].value);
    t.recs[i].value = if turn == 0x01 {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    };
}

impl Tree {
    /// The cats' move: the first root child whose value equals the root's.
    pub fn choice(&self) -> (usize, u8) {
        let root = &self.recs[0];
        let c = *root
            .children
            .iter()
            .find(|&&c| self.recs[c].value == root.value)
            .expect("a root child with the root's value");
        let p = self.recs[c].pos;
        let cat = (0..4).find(|&k| p.cats[k] != root.pos.cats[k]).unwrap();
        (cat, p.cats[cat])
    }

    pub fn addr(&self, i: usize) -> usize {
        TREE_BASE + i * record_size(self.version)
    }

    /// The bytes record i must hold in memory (ryg1.md record layouts).
    pub fn record_bytes(&self, i: usize) -> Vec<u8> {
        let r = &self.recs[i];
        let mut b = vec![0xAA, 0xAA, 0xAA, r.level, r.turn, r.value];
        let parent = r.parent.map_or(0, |p| self.addr(p));
        b.extend([parent as u8, (parent >> 8) as u8]);
        for k in 0..8 {
            let a = r.children.get(k).map_or(0, |&c| self.addr(c));
            b.extend([a as u8, (a >> 8) as u8]);
        }
        if record_size(self.version) == 29 {
            b.push(r.pos.mouse);
            b.extend(r.pos.cats);
        } else {
            let mut m = [0u8; 64];
            m[r.pos.mouse as usize] = 0x01;
            for c in r.pos.cats {
                m[c as usize] = 0xFF;
            }
            b.extend(m);
        }
        assert_eq!(b.len(), record_size(self.version));
        b
    }

    pub fn end(&self) -> usize {
        self.addr(self.recs.len())
    }
}

/// Worst-case records of a depth-d tree: 1 + 8 + 8*4 + 8*4*8 + ...
pub fn worst_case_records(depth: u32) -> u64 {
    let (mut total, mut level) = (1u64, 1u64);
    for i in 1..=depth {
        level *= if i % 2 == 1 { 8 } else { 4 };
        total += level;
    }
    total
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    Mouse,
    Cats,
}

/// A game as the model plays it: the mouse's moves from `policy`, the cats' from the
/// book (v19, level < 8) or the tree.
pub struct Game {
    /// The key script: depth, the mouse's moves as "rc" + RETURN, then "n" for OTRA when
    /// the game ended.
    pub keys: String,
    /// The mouse's moves typed, as "rc".
    pub mouse_moves: Vec<String>,
    /// The cats' moves as the program prints them ("GATO n: aa-bb").
    pub cat_lines: Vec<String>,
    /// Levels at which the cats searched.
    pub searched_at: Vec<u8>,
    /// None when the game was cut after `max_moves` mouse moves.
    pub winner: Option<Winner>,
    pub final_pos: Pos,
    pub final_level: u8,
}

pub fn play_game(version: u32, depth: u8, policy: impl Fn(&Pos, u8) -> u8) -> Game {
    play_moves(version, depth, policy, usize::MAX)
}

pub fn play_moves(
    version: u32,
    depth: u8,
    policy: impl Fn(&Pos, u8) -> u8,
    max_moves: usize,
) -> Game {
    let mut pos = Pos::START;
    let mut level = 0u8;
    let mut keys = format!("{depth}");
    let (mut mouse_moves, mut cat_lines, mut searched_at) = (vec![], vec![], vec![]);
    let winner = loop {
        if mouse_moves.len() == max_moves {
            break None;
        }
        let d = policy(&pos, level);
        assert!(
            pos.mouse_moves().contains(&d),
            "policy plays an illegal move"
        );
        mouse_moves.push(format!("{}{}", d / 8, d % 8));
        keys += &format!("{}{}\n", d / 8, d % 8);
        pos.mouse = d;
        level += 1;
        if pos.mouse < 8 || pos.cat_moves().is_empty() {
            break Some(Winner::Mouse);
        }
        let (cat, dest) = if version >= 19 && level < 8 {
            ((level / 2) as usize, 9 + level - 1)
        } else {
            searched_at.push(level);
            think(pos, level, depth, version).choice()
        };
        cat_lines.push(format!("GATO {cat}: {:02}-{dest:02}", pos.cats[cat]));
        pos.cats[cat] = dest;
        level += 1;
        if pos.mouse_moves().is_empty() {
            break Some(Winner::Cats);
        }
        assert!(level < 100);
    };
    if winner.is_some() {
        keys += "n";
    }
    Game {
        keys,
        mouse_moves,
        cat_lines,
        searched_at,
        winner,
        final_pos: pos,
        final_level: level,
    }
}

/// A policy playing a fixed list of destinations.
pub fn scripted(moves: &[u8]) -> impl Fn(&Pos, u8) -> u8 + '_ {
    move |_, level| moves[level as usize / 2]
}

/// The full transcript ryg1.md prescribes for a game played from the start: the title, the
/// depth prompt, the boards, the mouse's prompts, the thinking output (the addresses of the
/// model's records, or a dot each before v18), the cats' moves, the end and OTRA answered N.
pub fn expected_game_transcript(version: u32, depth: u8, game: &Game) -> String {
    let mut s = format!(
        "RATON Y GATOS V{version} (ARBOL ${TREE_BASE:04X})\nPROFUNDIDAD (1-{})? {depth}\n",
        max_depth(version)
    );
    let mut pos = Pos::START;
    let mut level = 0u8;
    s += &board_text(&pos, level);
    let mut cat_lines = game.cat_lines.iter();
    for (n, k) in game.mouse_moves.iter().enumerate() {
        s += &format!("RATON? {k}\n");
        let b = k.as_bytes();
        pos.mouse = (b[0] - b'0') * 8 + (b[1] - b'0');
        level += 1;
        s += &board_text(&pos, level);
        if n == game.mouse_moves.len() - 1 && game.winner == Some(Winner::Mouse) {
            s += "*** GANA EL RATON ***\n";
            break;
        }
        if game.searched_at.contains(&level) {
            s += &thinking_text(&think(pos, level, depth, version));
        }
        let line = cat_lines.next().unwrap();
        s += line;
        s.push('\n');
        let cat = (line.as_bytes()[5] - b'0') as usize;
        pos.cats[cat] = line[11..13].parse().unwrap();
        level += 1;
        s += &board_text(&pos, level);
    }
    match game.winner {
        Some(Winner::Cats) => s + "*** GANAN LOS GATOS ***\nOTRA (S/N)? N\n",
        Some(Winner::Mouse) => s + "OTRA (S/N)? N\n",
        None => s + "RATON? ",
    }
}

/// "PENSANDO:", each record announced in creation order, RETURN (ryg1.md, F8).
pub fn thinking_text(tree: &Tree) -> String {
    let mut s = String::from("PENSANDO:");
    for i in 0..tree.recs.len() {
        if tree.version >= 18 {
            s += &format!("{:04X}\u{9d}\u{9d}\u{9d}\u{9d}", tree.addr(i));
        } else {
            s.push('.');
        }
    }
    s + "\n"
}

// ---------------------------------------------------------------------------------------
// Driving the program
// ---------------------------------------------------------------------------------------

pub const API_GAME: u16 = 0x0820;
pub const API_EVAL: u16 = 0x0823;
pub const API_THINK: u16 = 0x0826;
pub const API_CHECKDEPTH: u16 = 0x0829;
pub const API_PLAY: u16 = 0x082C;
pub const POS_ADDR: usize = 0x0830;
pub const LEVEL_ADDR: usize = 0x0835;
pub const DEPTH_ADDR: usize = 0x0836;
pub const RESULT_ADDR: usize = 0x0837;
pub const BESTCAT_ADDR: usize = 0x0838;
pub const BESTDEST_ADDR: usize = 0x0839;
pub const RECCOUNT_ADDR: usize = 0x083A;
pub const TREEEND_ADDR: usize = 0x083C;
pub const VERSION_ADDR: usize = 0x083E;
pub const RECSIZE_ADDR: usize = 0x083F;
pub const TREEBASE_ADDR: usize = 0x0840;
/// SAREG: SYS loads A from here.
const SAREG: usize = 0x030C;

pub const BUDGET: u64 = 100_000_000;

pub fn text_of(bytes: &[u8]) -> String {
    c64kit_programs::transcript_text(bytes)
}

pub struct Engine {
    pub m: Machine,
    pub prg: Prg,
    pub version: u32,
}

pub struct Thought {
    pub value: u8,
    pub cat: u8,
    pub dest: u8,
    pub records: usize,
    pub end: usize,
    pub text: String,
    pub cycles: u64,
}

impl Engine {
    /// The program loaded (not run) into a fresh C64.
    pub fn new(version: u32) -> Engine {
        let prg = build(&format!("ryg-v{version}")).unwrap();
        let mut m = Machine::builtin();
        m.load_prg(&prg);
        Engine { m, prg, version }
    }

    pub fn ram(&self, addr: usize) -> u8 {
        self.m.bus.ram[addr]
    }

    pub fn word(&self, addr: usize) -> usize {
        self.ram(addr) as usize | (self.ram(addr + 1) as usize) << 8
    }

    pub fn set_state(&mut self, p: &Pos, level: u8, depth: u8) {
        let ram = &mut self.m.bus.ram;
        ram[POS_ADDR] = p.mouse;
        ram[POS_ADDR + 1..POS_ADDR + 5].copy_from_slice(&p.cats);
        ram[LEVEL_ADDR] = level;
        ram[DEPTH_ADDR] = depth;
    }

    pub fn pos(&self) -> Pos {
        let r = &self.m.bus.ram;
        Pos::new(
            r[POS_ADDR],
            [
                r[POS_ADDR + 1],
                r[POS_ADDR + 2],
                r[POS_ADDR + 3],
                r[POS_ADDR + 4],
            ],
        )
    }

    /// Calls an entry point as SYS would (A from SAREG) and runs until it stops.
    pub fn call(&mut self, addr: u16, a: u8) -> StopReason {
        self.m.bus.ram[SAREG] = a;
        self.m.start_at(addr, self.prg.end_address());
        self.m.run(BUDGET)
    }

    /// What was printed from transcript offset `from` on.
    pub fn text_from(&self, from: usize) -> String {
        text_of(&self.m.transcript()[from..])
    }

    pub fn eval(&mut self, p: &Pos) -> u8 {
        self.set_state(p, 0, 1);
        assert_eq!(self.call(API_EVAL, 0), StopReason::ReturnedToBasic);
        self.ram(RESULT_ADDR)
    }

    pub fn think(&mut self, p: &Pos, level: u8, depth: u8) -> Thought {
        self.set_state(p, level, depth);
        let from = self.m.transcript().len();
        let c0 = self.m.cycles();
        assert_eq!(self.call(API_THINK, 0), StopReason::ReturnedToBasic);
        Thought {
            value: self.ram(RESULT_ADDR),
            cat: self.ram(BESTCAT_ADDR),
            dest: self.ram(BESTDEST_ADDR),
            records: self.word(RECCOUNT_ADDR),
            end: self.word(TREEEND_ADDR),
            text: self.text_from(from),
            cycles: self.m.cycles() - c0,
        }
    }

    /// Plays on from a position (the mouse to move) with a key script.
    pub fn play(&mut self, p: &Pos, level: u8, depth: u8, keys: &str) -> (StopReason, String) {
        self.set_state(p, level, depth);
        self.m.feed_keys(parse_key_script(keys).unwrap());
        let from = self.m.transcript().len();
        let stop = self.call(API_PLAY, 0);
        (stop, self.text_from(from))
    }
}

/// The whole program RUN from its BASIC stub with a key script.
pub fn run_game(version: u32, keys: &str) -> (StopReason, String, Machine) {
    let prg = build(&format!("ryg-v{version}")).unwrap();
    let r = c64kit_programs::run(&prg, keys, BUDGET).unwrap();
    let text = r.text();
    (r.stop, text, r.machine)
}

/// The board as ryg1.md prints it, for a position and level.
pub fn board_text(p: &Pos, level: u8) -> String {
    let mut s = String::from("  01234567\n");
    for row in 0..8u8 {
        s += &format!("{row} ");
        for col in 0..8u8 {
            let sq = row * 8 + col;
            s.push(if (row + col) % 2 == 1 {
                ' '
            } else if sq == p.mouse {
                'R'
            } else if p.cats.contains(&sq) {
                'G'
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    s + &format!("JUGADA: {level:02}\n")
}

/// The addresses announced after "PENSANDO:" (v18 on): four hex digits, four cursor-lefts.
pub fn announced_addresses(text: &str) -> Vec<usize> {
    let start = text.find("PENSANDO:").expect("PENSANDO:") + "PENSANDO:".len();
    let end = start + text[start..].find('\n').expect("RETURN after the tree");
    let line = &text[start..end];
    let parts: Vec<&str> = line.split("\u{9d}\u{9d}\u{9d}\u{9d}").collect();
    assert_eq!(
        parts.last(),
        Some(&""),
        "each address ends with four cursor-lefts"
    );
    parts[..parts.len() - 1]
        .iter()
        .map(|h| {
            assert_eq!(h.len(), 4, "four hex digits: {h:?}");
            usize::from_str_radix(h, 16).unwrap()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// The model against the published numbers
// ---------------------------------------------------------------------------------------

#[test]
fn model_worst_case_matches_f5() {
    // F5: leaf boards 8, 32, 256, 1024, 8192 for depth 1..5: 29 x leaves bytes.
    let leaves = |d: u32| worst_case_records(d) - worst_case_records(d - 1);
    let bytes: Vec<u64> = (1..=5).map(|d| 29 * leaves(d)).collect();
    assert_eq!(bytes, [232, 928, 7_424, 29_696, 237_568]);
    // ryg1.md: "a depth-4 tree of 29-byte records, up to 1,321 records"
    assert_eq!(worst_case_records(4), 1321);
}

#[test]
fn model_rules_follow_f1_f2() {
    let p = Pos::START;
    assert_eq!(p.mouse_moves(), [50, 52]);
    assert_eq!(
        p.cat_moves(),
        [(0, 9), (1, 9), (1, 11), (2, 11), (2, 13), (3, 13), (3, 15)]
    );
    // 0 + 7 = 7 is row 0, column 7: the other colour (edge wrap-around).
    assert!(!usable(7));
    // the mouse on 63: 63 - 7 = 56 wraps to column 0 of row 7: rejected.
    assert_eq!(Pos::new(63, [0, 2, 4, 6]).mouse_moves(), [54]);
}
