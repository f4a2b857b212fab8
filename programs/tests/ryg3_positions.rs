//! RYG3 through the kit on hand-made positions and short games: move generation order (9.1),
//! evaluation with wrap-around (10.1), maintained keys (10.2), undo after a computer move
//! (9.3, 5.2 .U), both win messages and the cats-have-no-move win (7.1), the empty move list
//! (14.1) and the game-record overflow into the initial board (14.2).
//!
//! Hand-made positions are set up the way the spec itself allows (7.2, 14.2): the initial-board
//! table is overwritten and `.N` loads it (eval recomputed, mouse to move, moves generated,
//! keys left stale). Key values are XORs of ryg3-tables.toml [hash.*] entries, worked out in
//! the comments.

#[path = "ryg3_session.rs"]
mod session;

use session::*;

const VERSIONS: [&str; 3] = ["09", "10", "11"];

/// The `#:..,L:..,E:..` line of a board display in `out`.
fn keys_line(out: &str) -> &str {
    out.lines()
        .find(|l| l.starts_with("#:"))
        .unwrap_or_else(|| panic!("no board in:\n{out}"))
}

/// A key script of moves separated by spaces, one command per move.
fn moves(list: &str) -> String {
    list.split_whitespace().map(|m| format!("{m}\n")).collect()
}

// ---------------------------------------------------------------------------------------------
// 9.1 generation order

/// Mice on g1 (rank 1: only NE, NW), a4 (a-file: only SE, NE), d4 (all four, NE blocked by a
/// cat), h5 (h-file: SW, NW), b8 (rank 8: SW, SE). Cats: cat4 on a3 (a-file: SE only), cat2 on
/// h4 (h-file: SW only), cat3 on e5 (SW blocked by the d4 mouse), a code-5 piece on d6 (moves
/// like a cat, 9.1), cat1 on g7 and cat1 on c1 (rank 1: no move).
#[test]
fn generation_order_for_mouse_and_cats_including_edges() {
    let pieces = [
        ("g1", 0u8),
        ("a4", 0),
        ("d4", 0),
        ("h5", 0),
        ("b8", 0),
        ("a3", 4),
        ("h4", 2),
        ("e5", 3),
        ("d6", 5),
        ("g7", 1),
        ("c1", 1),
    ];
    for v in VERSIONS {
        let mut s = Session::new(v);
        s.position(&pieces);
        // Squares in increasing order (g1=6, a4=24, d4=27, h5=39, b8=57); per mouse SW, SE,
        // NE, NW, skipping off-board and occupied squares.
        let mouse = "G1H2,G1F2,A4B3,A4B5,D4C3,D4E3,D4C5,H5G4,H5G6,B8A7,B8C7";
        assert_eq!(s.type_(".m\n"), format!("? .M\n{mouse}\n"), "v{v}");
        // 10.1: mice 0+3+3+4+7 = 17; cats: only cat3 on e5 is in its lane (e/f, rank 5: 22);
        // cat4 a3, cat2 h4, cat1 g7/c1 are outside their lanes (0); code 5 has no value.
        // 128 + 17 - 22 = 123 = 7B. Keys: still 00/00 (never recomputed, 10.2). The code-5
        // piece prints nothing (8), so rank 6 is one glyph short.
        let b = board(&pieces);
        assert_eq!(
            s.type_(".b\n"),
            format!("? .B\n{}", board_text(&b, 0, 0, 0, 0, 0, 0x7B))
        );
        // .S does not regenerate: still the mouse's list (5.3).
        assert_eq!(s.type_(".s\n"), "? .S\nSWITCH SIDES\n");
        assert_eq!(s.type_(".m\n"), format!("? .M\n{mouse}\n"), "v{v}");
        // A well-formed but illegal move regenerates for the side to move (5.4 step 2).
        assert_eq!(s.type_("a1a1\n"), "? A1A1\nILLEGAL\n");
        // Cats by square (c1=2: none, a3=16, h4=31, e5=36, d6=43, g7=54), SW then SE.
        let cats = "A3B2,H4G3,E5F4,D6C5,G7F6,G7H6";
        assert_eq!(s.type_(".m\n"), format!("? .M\n{cats}\n"), "v{v}");
        // The code-5 piece moves; it changes neither keys nor eval (10.1, 10.2).
        assert_eq!(s.type_("d6c5\n"), "? D6C5\nD6C5\n");
        let mut b2 = b;
        b2[sq("d6") as usize] = 6;
        b2[sq("c5") as usize] = 5;
        assert_eq!(
            s.type_(".b\n"),
            format!("? .B\n{}", board_text(&b2, 0, 0, 1, 0, 0, 0x7B))
        );
        // The mouse's list after the cats' move: c5 is now occupied (d4 loses NW).
        assert_eq!(
            s.type_(".m\n"),
            "? .M\nG1H2,G1F2,A4B3,A4B5,D4C3,D4E3,H5G4,H5G6,B8A7,B8C7\n"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 10.1 evaluation

#[test]
fn evaluation_is_computed_mod_256() {
    let mut s = Session::new("10");
    // 64 mice: m = 8·(0+1+...+7) = 224; 128 + 224 = 352 = 256 + 96 -> 60.
    s.position_board(&[0u8; 64]);
    assert_eq!(keys_line(&s.type_(".b\n")), "#:00,L:00,E:60");
    // Cat1 on all seven scoring squares of its lane (b2 7, a3 13, b4 18, a5 22, b6 25,
    // a7 27, b8 28 = 140), no mouse: 128 - 140 = -12 -> F4.
    s.position(&[
        ("b2", 1),
        ("a3", 1),
        ("b4", 1),
        ("a5", 1),
        ("b6", 1),
        ("a7", 1),
        ("b8", 1),
    ]);
    assert_eq!(keys_line(&s.type_(".b\n")), "#:00,L:00,E:F4");
    // Each lane with its own cat, one cat outside its lane, codes 5, 7, 200 (no value):
    // mouse c6 = 5; cat1 h8 0, cat2 d2 7, cat3 e3 13, cat4 h4 18 -> 128 + 5 - 38 = 95 = 5F.
    s.position(&[
        ("c6", 0),
        ("h8", 1),
        ("d2", 2),
        ("e3", 3),
        ("h4", 4),
        ("g7", 5),
        ("a1", 7),
        ("b8", 200),
    ]);
    assert_eq!(keys_line(&s.type_(".b\n")), "#:00,L:00,E:5F");
}

/// Eval kept through make/take back across the wrap: mice on every square of ranks 1..7
/// except a1 and g7, cat4 on h8: m = 8·(0+...+6) - 0 - 6 = 162, c = 28: 262 -> 06.
/// b2-a1 loses one rank: 05; undo: 06 again. Keys: b2a1 XORs hash_mouse[9]^hash_mouse[0] =
/// B1^24 = 95 and lock_mouse[9]^lock_mouse[0] = B0^74 = C4 into the stale 00/00.
#[test]
fn evaluation_wraps_through_moves_and_undo() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        let mut b = [6u8; 64];
        b[..56].fill(0);
        b[sq("a1") as usize] = 6;
        b[sq("g7") as usize] = 6;
        b[sq("h8") as usize] = 4;
        s.position_board(&b);
        assert_eq!(keys_line(&s.type_(".b\n")), "#:00,L:00,E:06", "v{v}");
        // The cats still have h8-g7, so this is no win (7.1).
        assert_eq!(s.type_("b2a1\n"), "? B2A1\nB2A1\n");
        assert_eq!(keys_line(&s.type_(".b\n")), "#:95,L:C4,E:05", "v{v}");
        assert_eq!(s.type_(".u\n"), "? .U\nUNDO\n");
        assert_eq!(keys_line(&s.type_(".b\n")), "#:00,L:00,E:06", "v{v}");
    }
}

// ---------------------------------------------------------------------------------------------
// 10.2 keys

#[test]
fn keys_are_xor_maintained_and_differ_in_v09_only_at_lock_mouse_h2() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        // Program start: 00/00, not the start position's AD/9B.
        assert_eq!(keys_line(&s.type_(".b\n")), "#:00,L:00,E:10");
        // e1-d2 from 00/00: hash_mouse[4]^hash_mouse[11] = 2C^7D = 51,
        // lock_mouse[4]^lock_mouse[11] = BC^F7 = 4B (18).
        s.type_("e1d2\n");
        assert_eq!(keys_line(&s.type_(".b\n")), "#:51,L:4B,E:11");
        s.type_(".u\n");
        assert_eq!(keys_line(&s.type_(".b\n")), "#:00,L:00,E:10");
        // e1 -> f2 -> g1 -> h2 (the mouse moves three times with .S between): the f2 and g1
        // terms cancel, leaving hash_mouse[4]^hash_mouse[15] = 2C^33 = 1F and
        // lock_mouse[4]^lock_mouse[15] = BC^49 = F5 (v10/v11), BC^5C = E0 (v09: 92 = 5C).
        s.type_("e1f2\n.s\nf2g1\n.s\ng1h2\n");
        let lock = if v == "09" { "E0" } else { "F5" };
        assert_eq!(
            keys_line(&s.type_(".b\n")),
            format!("#:1F,L:{lock},E:11"),
            "v{v}"
        );
        // A new game does not reset the keys (7.2): stale 1F/.. with the start position.
        assert_eq!(s.type_(".n\n"), "? .N\nNEW GAME\n");
        assert_eq!(
            keys_line(&s.type_(".b\n")),
            format!("#:1F,L:{lock},E:10"),
            "v{v}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 9.3 / 5.2 undo after a computer move

#[test]
fn undo_after_a_computer_move() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        s.type_(".d1\n");
        let out = s.type_(".g\n");
        // Depth 1: both mouse moves give 11; v09's >= test takes the later one (E1D2), v10/v11's
        // strict test the first (E1F2) (12.2). The think set the true keys AD/9B (start), the
        // move XORs them: e1f2 -> 01/B4, e1d2 -> FC/D0 (10.2).
        let (mv, to, keys) = if v == "09" {
            ("E1D2", "d2", (0xFC, 0xD0))
        } else {
            ("E1F2", "f2", (0x01, 0xB4))
        };
        let after = board(&[(to, 0), ("b8", 1), ("d8", 2), ("f8", 3), ("h8", 4)]);
        assert_eq!(
            out,
            format!(
                "? .G\nGO\n01:00000001,11\n{mv}\nCOMPUTER'S MOVE:{mv}\n{}",
                board_text(&after, 1, 0, 1, keys.0, keys.1, 0x11)
            ),
            "v{v}"
        );
        // .U: UNDO, the computer is switched off (the next prompt comes at once, no think,
        // although the mouse - the computer's side - is to move again), one move taken back:
        // the keys XOR back to the true start keys AD/9B (18: v09 `... .u|.b|` -> #:AD,L:9B).
        assert_eq!(s.type_(".u\n"), "? .U\nUNDO\n");
        assert_eq!(
            s.type_(".b\n"),
            format!("? .B\n{}", board_text(&INITIAL, 0, 0, 0, 0xAD, 0x9B, 0x10))
        );
        assert_eq!(s.type_(".m\n"), "? .M\nE1F2,E1D2\n");
        // hply is 0 now: UNDO again changes nothing.
        assert_eq!(s.type_(".u\n"), "? .U\nUNDO\n");
        assert_eq!(keys_line(&s.type_(".b\n")), "#:AD,L:9B,E:10");
    }
}

// ---------------------------------------------------------------------------------------------
// 7.1 results

/// Shortest human-only game in which the cats trap the mouse (found by breadth-first search
/// over the rules of 9.1): after F6G5 the mouse on h6 has g5 and g7 occupied, h-file edge.
#[test]
fn cats_win_when_the_mouse_has_no_move() {
    let mut s = Session::new("10");
    let out = s.type_(&moves("e1f2 b8a7 f2g3 d8e7 g3h4 e7f6 h4g5 f8g7 g5h6"));
    assert!(!out.contains("***"), "{out}");
    let out = s.type_("f6g5\n");
    assert_eq!(out, "? F6G5\nF6G5\n*** CATS WIN!! ***\n\n");
    // A new game started: start position, mouse to move, its two moves; keys stale.
    assert_eq!(s.type_(".m\n"), "? .M\nE1F2,E1D2\n");
    let b = s.type_(".b\n");
    assert!(b.contains("S: M,P:00,H:00\n"), "{b}");
    assert!(
        b.contains("8 .C.C.C.C 8\n") && b.contains("1 X.X.M.X. 1\n"),
        "{b}"
    );
}

/// The mouse reaches rank 8 (the f13-game-end scenario's game): one message, new game.
#[test]
fn mouse_wins_on_rank_8() {
    let mut s = Session::new("10");
    s.type_(&moves(
        "e1d2 h8g7 d2c3 g7h6 c3b4 h6g5 b4a5 g5h4 a5b6 b8c7 b6a7 h4g3",
    ));
    assert_eq!(s.type_("a7b8\n"), "? A7B8\nA7B8\n*** MOUSE WINS!! ***\n\n");
    assert_eq!(s.type_(".m\n"), "? .M\nE1F2,E1D2\n");
}

/// The cats have no move after the mouse's move (7.1 step 2): the shortest human-only game
/// (breadth-first search over 9.1's rules, cross-checked with the spec's model). The cats end on
/// a1, c1, e1 (rank 1, no moves) and h8, whose only move (g7) the mouse's last move H6G7
/// blocks; the mouse itself is on rank 7, so this is not the rank-8 rule. Also the scenario
/// conformance/scenarios/f13-cats-no-move.toml.
pub const CATS_NO_MOVE: &str = "e1f2 b8a7 f2e1 a7b6 e1f2 b6a5 f2e1 a5b4 e1f2 b4a3 f2e1 a3b2 e1f2 b2a1 f2e1 d8c7 e1f2 c7b6 f2e1 b6a5 e1f2 a5b4 f2e1 b4a3 e1f2 a3b2 f2e1 b2c1 e1f2 f8e7 f2e1 e7d6 e1f2 d6c5 f2g3 c5b4 g3h4 b4c3 h4g5 c3d2 g5h6 d2e1";

#[test]
fn mouse_wins_when_the_cats_have_no_move() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        let out = s.type_(&moves(CATS_NO_MOVE));
        assert!(
            !out.contains("ILLEGAL") && !out.contains("***"),
            "v{v}:\n{out}"
        );
        // Before the last move: 42 half-moves, cats a1 c1 e1 h8, mouse h6, mouse to move.
        let before = board(&[("h6", 0), ("a1", 1), ("c1", 2), ("e1", 3), ("h8", 4)]);
        let b = s.type_(".b\n");
        let want = board_text(&before, 0, 0, 0x2A, 0, 0, 0);
        let want_rows: Vec<&str> = want.lines().take(11).collect();
        assert_eq!(
            b.lines().skip(1).take(11).collect::<Vec<_>>(),
            want_rows,
            "v{v}"
        );
        assert!(b.contains("S: M,P:00,H:2A\n"), "v{v}: {b}");
        // E: mouse rank 6 (h6) = 5, every cat out of scoring (rank 1 = 0, cat4 h8 = 28):
        // 128 + 5 - 28 = 105 = 69.
        assert!(keys_line(&b).ends_with(",E:69"), "v{v}: {b}");
        assert_eq!(
            s.type_("h6g7\n"),
            "? H6G7\nH6G7\n*** MOUSE WINS!! ***\n\n",
            "v{v}"
        );
        let b = s.type_(".b\n");
        assert!(
            b.contains("8 .C.C.C.C 8\n") && b.contains("1 X.X.M.X. 1\n"),
            "v{v}: {b}"
        );
    }
}

/// Mouse to rank 8 while the cats (all on rank 1) also have no move: the rank-8 rule prints
/// the message and starts a new game; the second rule then sees the new game's 2 mouse moves
/// and does not fire again (7.1).
#[test]
fn rank_8_and_no_cat_move_together_print_one_message() {
    let mut s = Session::new("11");
    s.position(&[("b7", 0), ("a1", 1), ("c1", 2), ("e1", 3), ("g1", 4)]);
    assert_eq!(s.type_("b7c8\n"), "? B7C8\nB7C8\n*** MOUSE WINS!! ***\n\n");
    assert_eq!(s.type_(".m\n"), "? .M\nE1F2,E1D2\n");
}

// ---------------------------------------------------------------------------------------------
// 14.1 empty move list

/// Cats immobile on rank 1 (a1, c1, e1, g1), mouse d4, `.S` gives the cats the turn (14.1).
#[test]
fn empty_move_list_no_legal_moves_and_256_index_scans() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        // Fresh program: the flat region is all zero; the start generation wrote E1F2, E1D2
        // at indexes 0, 1; `.N` below writes the d4 mouse's moves over them.
        s.position(&[("d4", 0), ("a1", 1), ("c1", 2), ("e1", 3), ("g1", 4)]);
        assert_eq!(s.type_(".m\n"), "? .M\nD4C3,D4E3,D4E5,D4C5\n");
        s.type_(".s\n.d3\n");
        // Each iteration: the root is counted, has no move, returns eval (nodes 1, 2, 3);
        // eval = 128 + 3 (mouse rank 4) - 0 (every cat on rank 1) = 83. Nothing is stored, so
        // the PV misses at once: `...` in v10/v11, an empty line in v09 (12.7). The think's
        // true keys: hash_mouse[d4] ^ hash_cat1[a1] ^ hash_cat2[c1] ^ hash_cat3[e1] ^
        // hash_cat4[g1] = 5C^B7^B6^86^8D = 56; lock: 07^3B^4D^36^1B = 5C.
        let pv = if v == "09" { "" } else { "..." };
        let after = board(&[("d4", 0), ("a1", 1), ("c1", 2), ("e1", 3), ("g1", 4)]);
        assert_eq!(
            s.type_(".g\n"),
            format!(
                "? .G\nGO\n01:00000001,83\n{pv}\n02:00000002,83\n{pv}\n03:00000003,83\n{pv}\nNO LEGAL MOVES!\n{}",
                board_text(&after, 1, 0, 0, 0x56, 0x5C, 0x83)
            ),
            "v{v}"
        );
        // The regenerated list is empty: .M prints all 256 indexes (14.1). from byte i =
        // flat[i], to byte = flat[100+i] (same bytes in both layouts here): 0..3 the d4
        // moves; 100..103 = (move_to[0..3], score/first_move = 0); everything else 0 = A1A1
        // (no move was ever made, first_move[1] is 0).
        let want = scan256(&[
            (0, "D4C3"),
            (1, "D4E3"),
            (2, "D4E5"),
            (3, "D4C5"),
            (100, "C3A1"),
            (101, "E3A1"),
            (102, "E5A1"),
            (103, "C5A1"),
        ]);
        assert_eq!(want.matches(',').count(), 255);
        assert_eq!(s.type_(".m\n"), format!("? .M\n{want}"), "v{v}");
        // Move input scans the same 256 pairs: A1B2 is none of them -> ILLEGAL; D4E5 is
        // (index 2) and is played although the cats are to move: the mouse moves, side flips.
        assert_eq!(s.type_("a1b2\n"), "? A1B2\nILLEGAL\n");
        assert_eq!(s.type_("d4e5\n"), "? D4E5\nD4E5\n");
        let b = s.type_(".b\n");
        assert!(
            b.contains("S: M,P:00,H:01\n") && b.contains("5 X.X.M.X. 5\n"),
            "v{v}: {b}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 14.2 game record overflow

/// The mouse shuttles e1-f2-e1 with `.S` between its moves: 112 half-moves. Moves 100..111
/// write their to-squares through game_to[100..111] = initial_board[0..11]: 13 (f2) for even
/// moves, 4 (e1) for odd ones. The next new game loads that board: code 4 = a cat (C), code 13
/// prints nothing (8) and does not move; the mouse's e1 (square 4) now holds 13: no mouse.
#[test]
fn game_record_overflow_writes_into_the_initial_board() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        let mut script = String::new();
        for k in 0..112 {
            script.push_str(if k % 2 == 0 { "e1f2\n" } else { "f2e1\n" });
            if k < 111 {
                script.push_str(".s\n");
            }
        }
        let out = s.type_(&script);
        assert!(!out.contains("ILLEGAL") && !out.contains("***"), "v{v}");
        assert!(
            s.type_(".b\n").contains("S: C,P:00,H:70\n"),
            "112 = 70 half-moves"
        );
        assert_eq!(s.type_(".n\n"), "? .N\nNEW GAME\n");
        let mut b = INITIAL;
        for (i, x) in b.iter_mut().enumerate().take(12) {
            *x = if i % 2 == 0 { 13 } else { 4 };
        }
        // Keys: 112 moves of one mouse between e1 and f2 XOR to 00/00. Eval: the code-4
        // pieces on ranks 1-2 are outside cat4's scoring squares (0); cats home 112: 10.
        let out = s.type_(".b\n");
        assert_eq!(
            out,
            format!("? .B\n{}", board_text(&b, 0, 0, 0, 0, 0, 0x10)),
            "v{v}"
        );
        assert!(out.contains("\n1 CCCC 1\n") && out.contains("\n2 CC.X.X 2\n"));
        // No mouse: the computer finds no legal move; each iteration is just the root.
        s.type_(".d4\n");
        let out = s.type_(".g\n");
        let pv = if v == "09" { "" } else { "..." };
        let want: String = (1..=4)
            .map(|d| format!("0{d}:0000000{d},10\n{pv}\n"))
            .collect();
        assert!(
            out.starts_with(&format!("? .G\nGO\n{want}NO LEGAL MOVES!\n")),
            "v{v}:\n{out}"
        );
    }
}
