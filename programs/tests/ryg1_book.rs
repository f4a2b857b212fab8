//! The opening book of version 19 (F9): at levels 1, 3, 5, 7 the cats play cat 0 to 9,
//! cat 1 to 11, cat 2 to 13, cat 3 to 15 without thinking, whatever the mouse played; the
//! search starts at level 9. Earlier versions search from the first move.
//!
//! How: the whole program is RUN from its BASIC stub with a key script (depth, the mouse's
//! moves); the run ends "input exhausted" at the next "RATON? " prompt.

#[path = "ryg1_model.rs"]
mod model;

use c64kit_machine::StopReason;
use model::*;

/// The book's four replies as the program prints them (F9: +9 steps from 0, 2, 4, 6).
const BOOK_LINES: [&str; 4] = [
    "GATO 0: 00-09",
    "GATO 1: 02-11",
    "GATO 2: 04-13",
    "GATO 3: 06-15",
];

/// Plays `mouse` (destinations) in version 19 at `depth` and checks the book.
fn check_opening(mouse: &[u8], depth: u8) {
    let keys: String = format!("{depth}")
        + &mouse
            .iter()
            .map(|d| format!("{}{}\n", d / 8, d % 8))
            .collect::<String>();
    let (stop, text, m) = run_game(19, &keys);
    assert_eq!(stop, StopReason::InputExhausted);
    // the first four cat moves are the book, in order, and nothing is thought before them
    let cat_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("GATO")).collect();
    assert_eq!(&cat_lines[..4], &BOOK_LINES);
    let fifth_cat_move = text.find(cat_lines[4]).unwrap();
    let think_at = text.find("PENSANDO:").expect("the cats search at level 9");
    assert!(think_at > text.find(BOOK_LINES[3]).unwrap());
    assert!(think_at < fifth_cat_move);
    assert_eq!(text.matches("PENSANDO:").count(), 1);
    // "PENSANDO:" comes right after the board of level 9
    assert!(text[..think_at].ends_with("JUGADA: 09\n"));
    // after the book the cats stand on 9, 11, 13, 15 (board of level 8)
    let mut p = Pos::new(mouse[3], [9, 11, 13, 15]);
    let b8 = board_text(&p, 8);
    assert!(text.contains(&b8), "board after the book:\n{b8}");
    // the whole transcript is what the spec prescribes (the search from the model)
    let game = play_moves(19, depth, scripted(mouse), mouse.len());
    assert_eq!(game.searched_at, [9]);
    assert_eq!(text, expected_game_transcript(19, depth, &game));
    // and the program's position is the model's
    p.mouse = mouse[4];
    let (cat, dest) = think(p, 9, depth, 19).choice();
    p.cats[cat] = dest;
    assert_eq!(m.peek(0x0830), p.mouse);
    assert_eq!(
        [
            m.peek(0x0831),
            m.peek(0x0832),
            m.peek(0x0833),
            m.peek(0x0834)
        ],
        p.cats
    );
    assert_eq!(m.peek(0x0835), 10);
}

#[test]
fn book_when_the_mouse_runs_up_the_left() {
    // 59 -> 50 -> 41 -> 34 -> 27 -> 18
    check_opening(&[50, 41, 34, 27, 18], 1);
}

#[test]
fn book_when_the_mouse_runs_up_the_right() {
    // 59 -> 52 -> 45 -> 38 -> 31 -> 22
    check_opening(&[52, 45, 38, 31, 22], 2);
}

#[test]
fn book_when_the_mouse_goes_back_and_forth() {
    // 59 -> 50 -> 59 -> 52 -> 59 -> 50
    check_opening(&[50, 59, 52, 59, 50], 3);
}

#[test]
fn book_then_a_depth_4_search() {
    // 59 -> 52 -> 43 -> 36 -> 45 -> 36: the first search is at depth 4
    check_opening(&[52, 43, 36, 45, 36], 4);
}

#[test]
fn versions_without_the_book_search_from_the_first_move() {
    for v in [15, 16, 17, 18] {
        let (stop, text, _) = run_game(v, "1\n62\n");
        assert_eq!(stop, StopReason::InputExhausted);
        let game = play_moves(v, 1, scripted(&[50]), 1);
        assert_eq!(game.searched_at, [1]);
        assert_eq!(text, expected_game_transcript(v, 1, &game));
        assert!(text.contains("JUGADA: 01\nPENSANDO:"));
    }
}
