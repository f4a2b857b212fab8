//! The evaluation of every version (F7, ryg1.md "Evaluation") on hand-made positions.
//!
//! How: each position is poked into the game state at $0830 (mouse, cat 0..3) and the
//! program's eval entry point ($0823) is called; it leaves the value at $0837. The expected
//! values are worked out by hand below from ryg1.md's table of terms:
//!   row bonus rows 7..0: +0 +1 +2 +3 +4 +5 +6 +32; mobility 4..0 steps: -0 -2 -4 -8 -32;
//!   v16+: cat row spread 0: -16, 1: -8; v17+: min cat row >= mouse row: +32.

#[path = "ryg1_model.rs"]
mod model;

use model::*;

struct Case {
    what: &'static str,
    pos: Pos,
    /// values for v15, v16, v17 (v18 and v19 evaluate like v17)
    v15: u8,
    v16: u8,
    v17: u8,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            // mouse row 7 (+0), steps 50 and 52 only (-4); cats all on row 1: spread 0
            what: "start after the book: spread 0",
            pos: Pos::new(59, [9, 11, 13, 15]),
            v15: 0x80 - 4,
            v16: 0x80 - 4 - 16,
            v17: 0x80 - 4 - 16,
        },
        Case {
            // mouse 11 = row 1 (+6), steps 2, 4, 20, 18 all free (0); cat rows 2..5:
            // spread 3 (0); min cat row 2 >= 1: passed (+32 from v17)
            what: "the mouse has passed the cats",
            pos: Pos::new(11, [16, 25, 34, 43]),
            v15: 0x86,
            v16: 0x86,
            v17: 0x86 + 32,
        },
        Case {
            // mouse 36 = row 4 (+3): 27, 29, 45, 43 free (0); cat rows 4, 5, 6, 7: spread 3;
            // the lowest cat row equals the mouse's: ">=" counts it as passed (+32, v17)
            what: "passed: a cat on the mouse's row",
            pos: Pos::new(36, [32, 41, 50, 57]),
            v15: 0x83,
            v16: 0x83,
            v17: 0x83 + 32,
        },
        Case {
            // mouse 36 = row 4 (+3); 27 holds a cat, 29, 45, 43 free: 3 steps (-2);
            // cat rows 3, 2, 2, 3: spread 1 (-8); min row 2 < 4
            what: "spread 1, three mouse steps",
            pos: Pos::new(36, [27, 18, 20, 31]),
            v15: 0x80 + 3 - 2,
            v16: 0x80 + 3 - 2 - 8,
            v17: 0x80 + 3 - 2 - 8,
        },
        Case {
            // mouse 57 = row 7 (+0); 48 and 50 hold cats, 64 and 66 are off the board:
            // no step (-32); cat rows 6, 6, 0, 0: spread 6
            what: "the mouse is trapped",
            pos: Pos::new(57, [48, 50, 0, 2]),
            v15: 0x60,
            v16: 0x60,
            v17: 0x60,
        },
        Case {
            // mouse 4 = row 0 (+32); -9 and -7 leave the board, 13 and 11 hold cats: no
            // step (-32); cats all on row 1: spread 0 (-16); min row 1 >= 0 (+32)
            what: "mouse on row 0 with no step",
            pos: Pos::new(4, [9, 11, 13, 15]),
            v15: 0x80,
            v16: 0x70,
            v17: 0x90,
        },
        Case {
            // mouse 63 = row 7 (+0): 54 free, 56 is row 7 column 0 (edge wrap: the other
            // colour), 70 and 72 off the board: 1 step (-8); cats on row 0: spread 0
            what: "edge wrap-around",
            pos: Pos::new(63, [0, 2, 4, 6]),
            v15: 0x80 - 8,
            v16: 0x80 - 8 - 16,
            v17: 0x80 - 8 - 16,
        },
        Case {
            // mouse 2 = row 0 (+32): steps 11 and 9 (-4); cats all on row 5: spread 0
            // (-16); passed (+32)
            what: "the largest value",
            pos: Pos::new(2, [41, 43, 45, 47]),
            v15: 0x80 + 32 - 4,
            v16: 0x80 + 32 - 4 - 16,
            v17: 0x80 + 32 - 4 - 16 + 32,
        },
        Case {
            // mouse 50 = row 6 (+1): 41, 43, 59, 57 free (0); cats on row 0: spread 0
            what: "row 6, four steps",
            pos: Pos::new(50, [0, 2, 4, 6]),
            v15: 0x81,
            v16: 0x81 - 16,
            v17: 0x81 - 16,
        },
        Case {
            // mouse 27 = row 3 (+4): 18, 20, 36, 34 free; cat rows 0, 1, 2, 1: spread 2 (0)
            what: "row 3, spread 2",
            pos: Pos::new(27, [0, 11, 22, 13]),
            v15: 0x84,
            v16: 0x84,
            v17: 0x84,
        },
    ]
}

fn expected(c: &Case, v: u32) -> u8 {
    match v {
        15 => c.v15,
        16 => c.v16,
        _ => c.v17,
    }
}

#[test]
fn every_version_evaluates_the_hand_made_positions() {
    for v in VERSIONS {
        let mut e = Engine::new(v);
        for c in cases() {
            let got = e.eval(&c.pos);
            assert_eq!(got, expected(&c, v), "v{v}: {}", c.what);
            // and the model agrees with the hand computation
            assert_eq!(eval(&c.pos, v), expected(&c, v), "model v{v}: {}", c.what);
        }
    }
}

#[test]
fn row_bonus_for_every_row() {
    // v15 (row and mobility only): the mouse with four free steps on rows 1..6 (cats on
    // row 7 do not block a mouse on rows 1..5; on row 6 they stand on row 0).
    let expected_bonus = [32u8, 6, 5, 4, 3, 2, 1, 0];
    let mut e = Engine::new(15);
    for row in 1..=6u8 {
        let mouse = row * 8 + if row % 2 == 0 { 2 } else { 3 };
        let cats = if row <= 5 {
            [57, 59, 61, 63]
        } else {
            [0, 2, 4, 6]
        };
        let p = Pos::new(mouse, cats);
        assert_eq!(p.mouse_moves().len(), 4);
        assert_eq!(e.eval(&p), 0x80 + expected_bonus[row as usize], "row {row}");
    }
}

#[test]
fn leaf_values_in_the_tree_are_the_evaluation() {
    // A depth-1 tree: every child of the root is a leaf whose value the program evaluated
    // while thinking; read them back from the records (value at +5, children at +8).
    for v in VERSIONS {
        let mut e = Engine::new(v);
        let p = Pos::new(27, [0, 11, 22, 13]);
        let t = e.think(&p, 13, 1);
        let moves = p.cat_moves();
        assert_eq!(t.records, 1 + moves.len());
        for (k, (cat, dest)) in moves.into_iter().enumerate() {
            let a = e.word(TREE_BASE + 8 + 2 * k);
            let mut q = p;
            q.cats[cat] = dest;
            assert_eq!(e.ram(a + 5), eval(&q, v), "v{v} child {k}");
        }
    }
}
