//! RYG3 through the kit: the search and its tables. Best-move table store/lookup and the
//! collision counters (11, 13.1), lock mismatch (11.2), the hash-move bonus (12.4: v10 adds 10
//! mod 256, v11 saturates) and the reordering it drives (12.5), the improvement test (12.2),
//! the history table and its saturation (12.6, 13.2), and the iteration/PV output (12.7),
//! including the section 16 worked example and the published observations of section 18.
//!
//! Table slots are poked while the program waits for a command; keys are the XOR of the
//! ryg3-tables.toml [hash.*] entries of the position's pieces (10.2), worked out in comments.

#[path = "ryg3_session.rs"]
mod session;

use session::*;

const VERSIONS: [&str; 3] = ["09", "10", "11"];

fn name(sq: u8) -> String {
    if sq >= 64 {
        return String::new(); // ryg3.md 0: a name of a byte >= 64 prints nothing
    }
    format!("{}{}", (b'A' + sq % 8) as char, (b'1' + sq / 8) as char)
}

// ---------------------------------------------------------------------------------------------
// 11, 13.1: store, dump, collision counters

#[test]
fn table_dump_and_collision_counters() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        s.type_(".d1\n");
        s.type_(".g\n");
        // Depth 1 at the start stores the root's best at slot cur_hash = AD with lock 9B:
        // v10/v11 E1F2 (strict test keeps the first of two equal moves), v09 E1D2 (>=).
        // check = from ^ to ^ lock: 04^0D^9B = 92, 04^0B^9B = 94.
        let (mv, check) = if v == "09" {
            ("E1D2", "94")
        } else {
            ("E1F2", "92")
        };
        let dump = |coll: &str| {
            format!("? .E\nAD:{mv}9B,\n--MOUSE:01,{coll},{check}\n\n---CATS:00,0000,00\n")
        };
        assert_eq!(s.type_(".e\n"), dump("0000"), "v{v}");
        // The same think again: the slot is not empty, so the store counts a collision even
        // though it writes the same entry (11.1).
        s.type_(".u\n");
        s.type_(".g\n");
        assert_eq!(s.type_(".e\n"), dump("0001"), "v{v}");
        // 16-bit counter, wraps at 65536 (14.5).
        s.poke(COLL_M, 0xFF);
        s.poke(COLL_M + 1, 0xFF);
        s.type_(".u\n");
        s.type_(".g\n");
        assert_eq!(s.type_(".e\n"), dump("0000"), "v{v}");
        // Printed high byte first.
        s.poke(COLL_C, 0x34);
        s.poke(COLL_C + 1, 0x12);
        assert!(s.type_(".e\n").ends_with("\n---CATS:00,1234,00\n"));
    }
}

/// 13.1 on a full table: total is 8 bits (256 -> 00); a slot is used iff from != FF, whatever
/// the to and lock bytes hold; a square byte >= 64 prints no name.
#[test]
fn dump_total_wraps_and_only_from_marks_a_slot_used() {
    let mut s = Session::new("10");
    let mut mouse = String::new();
    let mut check = 0u8;
    for x in 0..=255u8 {
        let (f, t, l) = (x & 63, x.wrapping_mul(7) & 63, x ^ 0x5A);
        s.set_slot(0, x, f, t, l);
        mouse.push_str(&format!("{x:02X}:{}{}{l:02X},", name(f), name(t)));
        check ^= f ^ t ^ l;
    }
    s.set_slot(1, 0x7F, 0x40, 0xFF, 0x12);
    s.set_slot(1, 0x80, 0x05, 0xFF, 0xFF);
    let cats = "7F:12,80:F1FF,";
    let want = format!(
        "? .E\n{mouse}\n--MOUSE:00,0000,{check:02X}\n{cats}\n---CATS:02,0000,{:02X}\n",
        0x40 ^ 0xFF ^ 0x12 ^ 0x05 ^ 0xFF ^ 0xFF
    );
    assert_eq!(s.type_(".e\n"), want);
}

// ---------------------------------------------------------------------------------------------
// 11.2 lookup, 12.4 bonus, 12.5 reorder

/// A table entry for the start position (slot AD) holding E1D2. With the right lock (9B) it is
/// a hit: v10/v11 give E1D2 the bonus, the reorder brings it to the front, it is searched
/// first and, both moves being worth 11, kept by the strict test: the computer plays E1D2.
/// With lock 9A it is a miss (11.2): no bonus, generation order, E1F2. v09 has no bonus.
#[test]
fn table_hit_puts_the_hash_move_first_and_a_lock_mismatch_does_not() {
    for v in VERSIONS {
        for (lock, expect_hit) in [(0x9B, true), (0x9A, false)] {
            let mut s = Session::new(v);
            s.type_(".d1\n");
            s.set_slot(0, 0xAD, sq("e1"), sq("d2"), lock);
            let out = s.type_(".g\n");
            let mv = if v == "09" || expect_hit {
                "E1D2"
            } else {
                "E1F2"
            };
            assert!(
                out.starts_with(&format!(
                    "? .G\nGO\n01:00000001,11\n{mv}\nCOMPUTER'S MOVE:{mv}\n"
                )),
                "v{v} lock {lock:02X}:\n{out}"
            );
            // The root's store overwrites the slot and counts one collision either way.
            let check = if mv == "E1D2" { "94" } else { "92" };
            assert_eq!(
                s.type_(".e\n"),
                format!("? .E\nAD:{mv}9B,\n--MOUSE:01,0001,{check}\n\n---CATS:00,0000,00\n"),
                "v{v}"
            );
        }
    }
}

/// The reordered root list made visible. Mice on d2 and a3, no cats. Generation: d2 (square
/// 11) SW c1, SE e1, NE e3, NW c3, then a3 (16) SE b2, NE b4: indexes 0..5. Keys
/// hash_mouse[11]^hash_mouse[16] = 7D^6F = 12, lock F7^F5 = 02; the poked slot 12 holds A3B4
/// (index 5). Bonus: score[5] = 10 (v10) / 255 (v11); reorder at c = 0 moves it to the front
/// and entries 0..4 up one, keeping their order (12.5); later reorders see equal scores.
/// Depth 1: A3B4 (b4 = rank 4: eval 80+1+3 = 84) is first and not beaten (D2E3, D2C3 also 84).
/// The cats then have no move: MOUSE WINS, and the new game loads an empty board, whose
/// generation is empty, so `.M` shows all 256 stale bytes (14.1): the root list as the
/// search left it, its to-squares and scores at 100..105 (score 10 = C2, 0 = A1, 255 = no
/// name), the scores again as from-bytes at 200.., and game_from[0] = A3 at 220.
#[test]
fn hash_move_is_rotated_to_the_front_and_the_rest_keep_their_order() {
    for v in ["10", "11"] {
        let mut s = Session::new(v);
        s.position(&[("d2", 0), ("a3", 0)]);
        assert_eq!(s.type_(".m\n"), "? .M\nD2C1,D2E1,D2E3,D2C3,A3B2,A3B4\n");
        s.set_slot(0, 0x12, sq("a3"), sq("b4"), 0x02);
        s.set_initial_board(&[6; 64]);
        s.type_(".d1\n");
        // Keys after the move: 12 ^ hash_mouse[16] ^ hash_mouse[25] = 12^6F^BD = C0,
        // 02 ^ F5 ^ 0D = FA.
        let after = board(&[("d2", 0), ("b4", 0)]);
        assert_eq!(
            s.type_(".g\n"),
            format!(
                "? .G\nGO\n01:00000001,84\nA3B4\nCOMPUTER'S MOVE:A3B4\n{}*** MOUSE WINS!! ***\n\n",
                board_text(&after, 1, 0, 1, 0xC0, 0xFA, 0x84)
            ),
            "v{v}"
        );
        let (s100, s200) = if v == "10" {
            ("B4C2", "C2A1")
        } else {
            ("B4", "A1")
        };
        let want = scan256(&[
            (0, "A3B4"),
            (1, "D2C1"),
            (2, "D2E1"),
            (3, "D2E3"),
            (4, "D2C3"),
            (5, "A3B2"),
            (100, s100),
            (101, "C1A1"),
            (102, "E1A1"),
            (103, "E3A1"),
            (104, "C3A1"),
            (105, "B2A1"),
            (200, s200),
            (220, "A1A3"),
        ]);
        assert_eq!(s.type_(".m\n"), format!("? .M\n{want}"), "v{v}");
    }
}

/// The bonus arithmetic (12.4) on a score byte that is not 0, through the 256-index bonus scan
/// of an empty list (14.1/14.1a). Mouse a1 trapped by cat1 on b2: keys hash_mouse[0] ^
/// hash_cat1[9] = 24^BF = 9B, lock 74^01 = 75. The mouse table slot 9B is poked with the move
/// A7-B7 (two empty squares), and index 230 of the flat layout made to match it: from byte
/// flat[230], to byte flat[330]; its score byte is flat[430] (game_to[10], never written
/// here), preset to 250. Each iteration's root (no move) hits the table and adds the bonus:
/// v10: 250 -> 4 -> 14 -> 24 (mod 256); v11: 255 each time. v09 has no bonus.
/// The PV walk plays the stored "move" (empty squares: nothing changes), then finds no cats
/// entry: `A7B7,...` in v10/v11, `A7B7,` in v09 (12.7). The computer plays it too, without
/// any legality check (14.6).
#[test]
fn bonus_adds_10_mod_256_in_v10_and_saturates_in_v11() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        s.position(&[("a1", 0), ("b2", 1)]);
        assert_eq!(
            s.type_(".m\n"),
            format!(
                "? .M\n{}",
                scan256(&[(0, "E1F2"), (1, "E1D2"), (100, "F2A1"), (101, "D2A1")])
            )
        );
        if v != "09" {
            s.poke(FLAT + 230, sq("a7"));
            s.poke(FLAT + 330, sq("b7"));
            s.poke(FLAT + 430, 250);
        }
        s.set_slot(0, 0x9B, sq("a7"), sq("b7"), 0x75);
        s.type_(".d3\n");
        let dots = if v == "09" { "" } else { "..." };
        let pos = board(&[("a1", 0), ("b2", 1)]);
        // eval: mouse rank 1 = 0, cat1 on b2 = 7: 128 - 7 = 121 = 79.
        assert_eq!(
            s.type_(".g\n"),
            format!(
                "? .G\nGO\n01:00000001,79\nA7B7\n02:00000002,79\nA7B7,{dots}\n03:00000003,79\nA7B7,{dots}\nCOMPUTER'S MOVE:A7B7\n{}",
                board_text(&pos, 1, 0, 1, 0x9B, 0x75, 0x79)
            ),
            "v{v}"
        );
        let score = s.peek(FLAT + 430);
        match v {
            "10" => assert_eq!(score, 24, "250 + 3*10 mod 256"),
            "11" => assert_eq!(score, 255, "min(255, x + 255)"),
            _ => assert_eq!(
                score, 6,
                "v09: flat[430] is initial_board[10] (empty), no bonus"
            ),
        }
        // The cats' list after the "move": b2 -> c1 only (a1 holds the mouse).
        assert_eq!(s.type_(".m\n"), "? .M\nB2C1\n");
    }
}

// ---------------------------------------------------------------------------------------------
// 12.6 history (v11)

#[test]
fn history_table_adds_node_depth_saturates_and_is_cleared_per_think() {
    let mut s = Session::new("11");
    // Depth 1: only the root stores (E1F2, +1).
    s.type_(".d1\n.g\n");
    assert_eq!(s.type_(".f\n"), "? .F\nE1F2:01,\n---HIST\n");
    // 18: `.d5|.g|.f|` from the start (published): a fresh program, depth 5.
    let mut s = Session::new("11");
    s.type_(".d5\n.g\n");
    assert_eq!(
        s.type_(".f\n"),
        "? .F\nE1F2:0F,F2G3:2A,G3H4:2B,B8A7:14,D8C7:18,\n---HIST\n"
    );
    // E1F2:0F = 1+2+3+4+5: the root stored E1F2 in each of the 5 iterations (+d each).
    // The next think (cats, depth 1) starts from a cleared table: only its root's move.
    s.type_(".d1\n.g\n");
    let f = s.type_(".f\n");
    assert_eq!(f.lines().count(), 3, "{f}");
    assert!(f.lines().nth(1).unwrap().ends_with(":01,"), "{f}");
}

/// Default depth 10 from the start (v11, published in 18): the iteration line 0A, the PV,
/// the move and the board; then `.F` with several entries saturated at FF (12.6, 14.5).
/// E1F2:37 = 1+2+...+10 (the root stores E1F2 every iteration); the other values, FF
/// included, were cross-checked against the spec's executable model.
#[test]
fn default_think_v11_and_history_saturation() {
    let mut s = Session::new("11");
    let out = s.type_(".g\n");
    assert!(
        out.contains("\n0A:000021C2,1B\nE1F2,B8A7,...\nCOMPUTER'S MOVE:E1F2\n"),
        "{out}"
    );
    assert!(out.contains("\nS: C,P:00,H:01\n#:01,L:B4,E:11\n"), "{out}");
    assert!(
        out.contains("\n08:000005B0,18\nE1F2,B8A7,F2G3,D8C7,G3H4,F8E7,H4G5,H8G7\n"),
        "{out}"
    );
    let f = s.type_(".f\n");
    assert_eq!(
        f,
        "? .F\nE1F2:37,F2G3:FC,G3F2:10,G3F4:20,G3H4:FF,F4E5:2C,F4G5:60,H4G3:3C,H4G5:FF,\
         E5D4:06,E5D6:86,G5F4:44,G5F6:FF,G5H6:FF,A7B6:FF,C7D6:01,E7F6:16,G7F6:03,G7H6:12,\
         B8A7:9C,D8C7:FF,F8E7:FF,H8G7:FF,\n---HIST\n"
    );
    assert_eq!(f.matches(":FF,").count(), 8);
}

// ---------------------------------------------------------------------------------------------
// 12.7 iteration output, 16, 18

/// ryg3.md section 16, the whole transcript (v11, `e1d2|.d3|.g|`).
#[test]
fn worked_example_of_section_16() {
    let mut s = Session::new("11");
    let mut out = s.type_("e1d2\n");
    out += &s.type_(".d3\n");
    out += &s.type_(".g\n");
    let want = "? E1D2\nE1D2\n? .D3\nSET DEPTH\n? .G\nGO\n01:00000001,12\nB8A7\n\
                02:00000009,13\nB8A7,D2E3\n03:0000001B,14\nB8A7,D2E3,D8C7\n\
                COMPUTER'S MOVE:B8A7\n  ABCDEFGH\n8 .X.C.C.C 8\n7 C.X.X.X. 7\n\
                6 .X.X.X.X 6\n5 X.X.X.X. 5\n4 .X.X.X.X 4\n3 X.X.X.X. 3\n2 .X.M.X.X 2\n\
                1 X.X.X.X. 1\n  ABCDEFGH\nS: M,P:00,H:02\n#:A2,L:7C,E:12\n\n";
    assert_eq!(out, want);
}

/// v09 at its default depth 4 from the start, then `.m|.e|.f|.u|.b|` (published, 18).
#[test]
fn v09_default_think_and_dumps() {
    let mut s = Session::new("09");
    let out = s.type_(".g\n");
    assert!(
        out.contains("\n04:00000034,14\nE1D2,B8A7,D2C3,D8C7\nCOMPUTER'S MOVE:E1D2\n"),
        "{out}"
    );
    assert!(out.contains("\n#:FC,L:D0,E:11\n"), "{out}");
    assert_eq!(
        s.type_(".m\n"),
        "? .M\nB8A7,B8C7,D8C7,D8E7,F8E7,F8G7,H8G7\n"
    );
    let e = s.type_(".e\n");
    assert!(
        e.contains("\n--MOUSE:09,000B,10\n") && e.ends_with("\n---CATS:15,0008,A3\n"),
        "{e}"
    );
    assert_eq!(s.type_(".f\n"), "? .F\nILLEGAL\n");
    assert_eq!(s.type_(".u\n"), "? .U\nUNDO\n");
    assert!(s.type_(".b\n").contains("\n#:AD,L:9B,E:10\n"));
}
