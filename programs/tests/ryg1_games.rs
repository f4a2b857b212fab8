//! Whole games and the game's end (ryg1.md "Board and rules", "Screen and input"): full
//! games scripted to the end, both kinds of mouse win and the cats' win, wrong input, OTRA.
//!
//! How: full games RUN the program from its BASIC stub with a key script that the model
//! (ryg1_model.rs) computed by playing the same game; the transcript must be the one the
//! spec prescribes, byte for byte. The end-of-game positions are poked into the game state
//! ($0830..) and played on through the "play on" entry point ($082C), the mouse to move.

#[path = "ryg1_model.rs"]
mod model;

use c64kit_machine::StopReason;
use model::*;

/// The mouse plays its last legal step (order -9, -7, +9, +7): it tends to step back.
fn last(p: &Pos, _: u8) -> u8 {
    *p.mouse_moves().last().unwrap()
}

/// The mouse plays its first legal step: it runs up and to the left.
fn first(p: &Pos, _: u8) -> u8 {
    p.mouse_moves()[0]
}

/// The mouse plays the step whose position the v19 evaluation likes best (first on ties).
fn greedy(p: &Pos, _: u8) -> u8 {
    let mut best = (0, 0);
    for d in p.mouse_moves() {
        let v = eval(&Pos { mouse: d, ..*p }, 19);
        if v > best.0 {
            best = (v, d);
        }
    }
    best.1
}

fn full_game(version: u32, depth: u8, policy: fn(&Pos, u8) -> u8, winner: Winner) -> Game {
    let game = play_game(version, depth, policy);
    assert_eq!(game.winner, Some(winner), "the model's game");
    let (stop, text, m) = run_game(version, &game.keys);
    assert_eq!(stop, StopReason::ReturnedToBasic, "N returns to BASIC");
    // The program RUN from its stub returns into BASIC, which prints READY.
    let expected =
        expected_game_transcript(version, depth, &game) + &text_of(c64kit_programs::BASIC_READY);
    if text != expected {
        // Characters, not bytes: the transcript holds characters above $7F (cursor-lefts).
        let (text, expected): (Vec<char>, Vec<char>) =
            (text.chars().collect(), expected.chars().collect());
        let at = text
            .iter()
            .zip(&expected)
            .position(|(a, b)| a != b)
            .unwrap_or(text.len().min(expected.len()));
        let around = |t: &[char]| -> String {
            t[at.saturating_sub(300).min(t.len())..(at + 200).min(t.len())]
                .iter()
                .collect()
        };
        panic!(
            "v{version} depth {depth}: transcripts differ at character {at}:\n--- program\n{}\n--- spec\n{}",
            around(&text),
            around(&expected)
        );
    }
    // the BASIC ROM is switched back in before returning
    assert_eq!(m.peek(0x0001) & 1, 1);
    game
}

#[test]
fn v19_depth_4_full_game_the_cats_win() {
    let g = full_game(19, 4, last, Winner::Cats);
    assert!(g.searched_at.len() > 10);
    assert!(g.final_pos.mouse_moves().is_empty());
}

#[test]
fn v19_depth_4_full_game_the_mouse_wins() {
    let g = full_game(19, 4, first, Winner::Mouse);
    assert!(
        g.final_pos.mouse < 8,
        "this game ends with the mouse on row 0"
    );
    eprintln!(
        "mouse wins at level {} on {}: {} searches",
        g.final_level,
        g.final_pos.mouse,
        g.searched_at.len()
    );
}

#[test]
fn full_games_of_the_other_versions() {
    full_game(18, 4, first, Winner::Cats);
    full_game(17, 3, last, Winner::Cats);
    full_game(16, 2, greedy, Winner::Mouse);
    full_game(15, 3, greedy, Winner::Mouse);
    full_game(19, 1, greedy, Winner::Mouse);
}

/// Plays on from `p` (the mouse to move) with `keys`; returns the stop and the transcript.
fn play_on(v: u32, p: Pos, level: u8, depth: u8, keys: &str) -> (StopReason, String, Engine) {
    let mut e = Engine::new(v);
    let (stop, text) = e.play(&p, level, depth, keys);
    (stop, text, e)
}

#[test]
fn the_mouse_wins_on_row_0() {
    for v in VERSIONS {
        // the mouse on 11 (row 1) steps to 2 (row 0, "02"); the cats on 16/25/34/43
        // could still move: the row decides
        let p = Pos::new(11, [16, 25, 34, 43]);
        let (stop, text, e) = play_on(v, p, 20, 1, "02\nn");
        assert_eq!(stop, StopReason::ReturnedToBasic);
        let after = Pos { mouse: 2, ..p };
        assert_eq!(
            text,
            board_text(&p, 20)
                + "RATON? 02\n"
                + &board_text(&after, 21)
                + "*** GANA EL RATON ***\nOTRA (S/N)? N\n"
        );
        assert_eq!(e.pos(), after);
    }
}

#[test]
fn the_mouse_wins_when_the_cats_cannot_move() {
    for v in VERSIONS {
        // cats 0-2 on row 7 cannot step forward; cat 3 on 47 can only go to 54 (47 + 9 = 56
        // is row 7 column 0, the other colour). The mouse steps 45 -> 54 ("66", row 6) and
        // the cats have no move left: the mouse wins though it is far from row 0.
        let p = Pos::new(45, [57, 59, 61, 47]);
        assert_eq!(p.cat_moves(), [(3, 54)]);
        // then "x" is no answer to OTRA, "s" starts a new game at the depth prompt
        let (stop, text, e) = play_on(v, p, 30, 1, "66\nxs1");
        assert_eq!(stop, StopReason::InputExhausted);
        let after = Pos { mouse: 54, ..p };
        let max = if v >= 18 { 4 } else { 3 };
        assert_eq!(
            text,
            board_text(&p, 30)
                + "RATON? 66\n"
                + &board_text(&after, 31)
                + "*** GANA EL RATON ***\nOTRA (S/N)? S\n"
                + &format!("PROFUNDIDAD (1-{max})? 1\n")
                + &board_text(&Pos::START, 0)
                + "RATON? "
        );
        assert_eq!(e.pos(), Pos::START);
    }
}

#[test]
fn the_cats_win_when_the_mouse_cannot_move() {
    for v in VERSIONS {
        // The mouse on 48 can only step to 57 ("71": 39 is the other colour, 41 holds a
        // cat, 55 the other colour). On 57 its steps are 48 and 50; 50 holds a cat and cat 2
        // (on 41) can take 48: at depth 1 that leaf is worth the least (no mouse step, -32),
        // so the cats play it and the mouse is trapped.
        let p = Pos::new(48, [0, 2, 41, 50]);
        let (stop, text, e) = play_on(v, p, 40, 1, "71\nn");
        assert_eq!(stop, StopReason::ReturnedToBasic);
        let after_mouse = Pos { mouse: 57, ..p };
        let after_cats = Pos::new(57, [0, 2, 48, 50]);
        let tree = think(after_mouse, 41, 1, v);
        assert_eq!(tree.choice(), (2, 48));
        assert_eq!(
            text,
            board_text(&p, 40)
                + "RATON? 71\n"
                + &board_text(&after_mouse, 41)
                + &thinking_text(&tree)
                + "GATO 2: 41-48\n"
                + &board_text(&after_cats, 42)
                + "*** GANAN LOS GATOS ***\nOTRA (S/N)? N\n"
        );
        assert_eq!(e.pos(), after_cats);
    }
}

#[test]
fn wrong_input_is_rejected_and_the_game_goes_on() {
    // Depth prompt: "x", "0" and "5" are no depth (v19 offers 1-4): asked again; "2" is.
    // Mouse: "a" is ignored; "55" (45, two rows away) and "99" (off the board) are no
    // mouse step; DEL takes back a digit; RETURN after one digit is ignored, a third
    // digit too; "64" (52) is legal. Then the book answers; "64" (the mouse's own square)
    // and "44" (36, two rows from 52) are refused, DEL with no digit is ignored, and "53"
    // (43) is played.
    let keys = "x052a55\n99\n7{DEL}6\n4\n64\n44\n{DEL}53\n";
    let (stop, text, m) = run_game(19, keys);
    assert_eq!(stop, StopReason::InputExhausted);
    let p1 = Pos::new(52, [0, 2, 4, 6]);
    let p2 = Pos::new(52, [9, 2, 4, 6]);
    let p3 = Pos::new(43, [9, 2, 4, 6]);
    let p4 = Pos::new(43, [9, 11, 4, 6]);
    let expected = String::from("RATON Y GATOS V19 (ARBOL $2000)\n")
        + "PROFUNDIDAD (1-4)? \n"
        + "PROFUNDIDAD (1-4)? \n"
        + "PROFUNDIDAD (1-4)? \n"
        + "PROFUNDIDAD (1-4)? 2\n"
        + &board_text(&Pos::START, 0)
        + "RATON? 55\nJUGADA NO VALIDA\n"
        + "RATON? 99\nJUGADA NO VALIDA\n"
        + "RATON? 7\u{14}64\n"
        + &board_text(&p1, 1)
        + "GATO 0: 00-09\n"
        + &board_text(&p2, 2)
        + "RATON? 64\nJUGADA NO VALIDA\n"
        + "RATON? 44\nJUGADA NO VALIDA\n"
        + "RATON? 53\n"
        + &board_text(&p3, 3)
        + "GATO 1: 02-11\n"
        + &board_text(&p4, 4)
        + "RATON? ";
    assert_eq!(text, expected);
    assert_eq!(m.peek(0x0836), 2, "depth 2");
}

#[test]
fn start_up_stub_and_memory_configuration() {
    for v in VERSIONS {
        let prg = c64kit_programs::build(&format!("ryg-v{v}")).unwrap();
        // F18: "10 SYS2080" at $0801, code at $0820
        assert_eq!(prg.load_address, 0x0801);
        assert_eq!(
            &prg.data[..12],
            &[0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0]
        );
        assert_eq!(prg.data[0x0820 - 0x0801], 0x4C, "JMP at $0820");
        assert_eq!(
            c64kit_basic::find_sys(&prg.to_bytes(), |_| 0).map(|s| s.address),
            Ok(0x0820)
        );
        // the program ends below the tree base
        assert!(prg.end_address() < TREE_BASE as u16);
        let (stop, _, m) = run_game(v, "");
        assert_eq!(stop, StopReason::InputExhausted);
        // F6: v16 on clear LORAM (bit 0 of $01) at start-up, keep KERNAL and I/O
        let port = m.peek(0x0001);
        assert_eq!(port & 1, if v >= 16 { 0 } else { 1 }, "v{v} LORAM");
        assert_eq!(port & 6, 6, "v{v} HIRAM and CHAREN stay set");
    }
}
