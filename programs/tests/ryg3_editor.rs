//! RYG3 through the kit: the line editor (ryg3.md section 4) and the text of every dot command
//! (5.2, 5.2.1), in all three versions.
//!
//! Expected texts come from ryg3-tables.toml [strings] and the rules of sections 4 and 5; each
//! case says why. Transcripts are shown as the spec's model prints them: RETURN as a newline,
//! DEL's echo (byte 20) as `{14}`.

#[path = "ryg3_session.rs"]
mod session;

use c64kit_machine::StopReason;
use session::*;

const VERSIONS: [&str; 3] = ["09", "10", "11"];

/// The board of section 8 at program start (`S: M,P:00,H:00`, keys 00/00, eval 10).
fn start_board() -> String {
    board_text(&INITIAL, 0, 0, 0, 0x00, 0x00, 0x10)
}

#[test]
fn del_in_every_state_of_the_line_editor() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        let steps: &[(&str, &str)] = &[
            // State 1 ignores DEL completely (no echo); key 0 is never stored or echoed.
            ("{DEL}{DEL}.{0}h\n", "? .H\nHELP\n"),
            // DEL then RETURN: the DEL is ignored, cmd1 = 13 -> move input -> ILLEGAL.
            ("{DEL}\n", "? \nILLEGAL\n"),
            // State 2 echoes DEL and goes back to state 1: the next key is cmd1 again. Buffer
            // B,13: not a dot command, not a move -> ILLEGAL.
            (".{DEL}b\n", "? .{14}B\nILLEGAL\n"),
            // State 3 -> 2 -> 1 with two DELs, both echoed; then ".B" is read afresh.
            (
                "e1{DEL}{DEL}.b\n",
                &format!("? E1{{14}}{{14}}.B\n{}", start_board()),
            ),
            // State 4 -> 3: G is replaced by F; the fifth key (RETURN) is echoed as 13.
            // E1F2 is legal: echoed line, then the move again (5.4).
            ("e1g{DEL}f2\n", "? E1G{14}F2\nE1F2\n"),
            (".u\n", "? .U\nUNDO\n"),
            // A fifth key ends the line and is swallowed: it is echoed as 13, not as X.
            ("e1d2x", "? E1D2\nE1D2\n"),
            (".u\n", "? .U\nUNDO\n"),
            // State 5 -> 4 -> 3 (two DELs), then RETURN is stored in cmd3: buffer E,1,13,20.
            ("e1f2{DEL}{DEL}\n", "? E1F2{14}{14}\nILLEGAL\n"),
            // State 5 -> 4, 3 replaces 2: buffer E1F3, well formed but not a legal move.
            ("e1f2{DEL}3\n", "? E1F2{14}3\nILLEGAL\n"),
            // cmd2 X replaced by H (state 3 -> 2): .H
            (".x{DEL}h\n", "? .X{14}H\nHELP\n"),
            // Four keys then a fifth that is not DEL: .BXY = .B (cmd3/cmd4 ignored).
            (".bxyz", &format!("? .BXY\n{}", start_board())),
        ];
        for (keys, want) in steps {
            assert_eq!(&s.type_(keys), want, "v{v}, keys {keys:?}");
        }
    }
}

#[test]
fn every_dot_command_prints_its_text() {
    for v in VERSIONS {
        let v11 = v == "11";
        let mut s = Session::new(v);
        let empty_dump = "\n--MOUSE:00,0000,00\n\n---CATS:00,0000,00\n";
        let hist_or_illegal = if v11 { "\n---HIST\n" } else { "ILLEGAL\n" };
        let steps: Vec<(&str, String)> = vec![
            (".b\n", start_board()),
            (".h\n", "HELP\n".into()),
            (".hzz\n", "HELP\n".into()), // cmd3/cmd4 ignored
            // 9.1: mouse on e1: only NE (f2) and NW (d2) exist, in that order.
            (".m\n", "E1F2,E1D2\n".into()),
            (".o\n", "OFF\n".into()),
            (".e\n", empty_dump.into()),
            // .F: v11 history dump (empty table: just the label); v09/v10 have no F row.
            (".f\n", hist_or_illegal.into()),
            (".n\n", "NEW GAME\n".into()),
            // .U with hply = 0 prints UNDO and changes nothing (board still the start).
            (".u\n", "UNDO\n".into()),
            (".b\n", start_board()),
            // .S switches sides only: the board says C, .M still lists the mouse's moves.
            (".s\n", "SWITCH SIDES\n".into()),
            (".b\n", board_text(&INITIAL, 1, 0, 0, 0, 0, 0x10)),
            (".m\n", "E1F2,E1D2\n".into()),
            (".s\n", "SWITCH SIDES\n".into()),
            // Unknown second characters fall through to move input: ILLEGAL ('.' is no file).
            (".z\n", "ILLEGAL\n".into()),
            (".\n", "ILLEGAL\n".into()),
            (".1\n", "ILLEGAL\n".into()),
        ];
        for (keys, want) in &steps {
            let echo = format!("? {}\n", keys.trim_end().to_uppercase());
            assert_eq!(
                s.type_(keys),
                format!("{echo}{want}"),
                "v{v}, keys {keys:?}"
            );
        }
    }
}

#[test]
fn depth_and_time_commands_parse_as_specified() {
    for v in VERSIONS {
        let v11 = v == "11";
        let dump = "\n--MOUSE:00,0000,00\n\n---CATS:00,0000,00\n".to_string();
        let hist_or_illegal = if v11 { "\n---HIST\n" } else { "ILLEGAL\n" }.to_string();
        let illegal = "ILLEGAL\n".to_string();
        let mut cases: Vec<(String, String)> = Vec::new();
        for d in '1'..='9' {
            cases.push((format!(".d{d}"), "SET DEPTH\n".into()));
            cases.push((format!(".t{d}"), "SET TIME\n".into()));
        }
        // 5.2.1: a bad digit continues the dispatch with cmd3 in place of cmd2:
        // .D -> T, S, U, E, F (v11), move input; .T -> S, U, E, F (v11), move input.
        for (c3, want) in [
            ("s", "SWITCH SIDES\n".to_string()),
            ("u", "UNDO\n".to_string()),
            ("e", dump.clone()),
            ("f", hist_or_illegal.clone()),
        ] {
            cases.push((format!(".d{c3}"), want.clone()));
            cases.push((format!(".t{c3}"), want));
        }
        // .DT: the T row matches but its digit test (cmd3 = T) fails -> S,U,E,F -> ILLEGAL.
        // Rows before D (B, G, H, M, N, O, Q) are never reached with cmd3: .DQ does not quit,
        // .DB shows no board. 0, ':' and a missing digit are not 1..9.
        for bad in [
            ".dt", ".d0", ".d:", ".d", ".dq", ".db", ".dh", ".dd", ".t0", ".tt", ".t:", ".t",
            ".tq", ".tg",
        ] {
            cases.push((bad.to_string(), illegal.clone()));
        }
        let mut s = Session::new(v);
        for (keys, want) in &cases {
            let got = s.type_(&format!("{keys}\n"));
            assert_eq!(
                got,
                format!("? {}\n{want}", keys.to_uppercase()),
                "v{v} {keys}"
            );
        }
        // The program is still running (.DQ did not quit) and the board is the start
        // position with the mouse to move again (.DS/.TS twice each = no change).
        assert_eq!(s.type_(".b\n"), format!("? .B\n{}", start_board()));
    }
}

/// `.Tn` sets max_depth to the byte at $0014 (5.2.1). The kit's RUN of `10 SYS2080` leaves
/// LINNUM = 2080 = $0820, so that byte is $20; with it set to 2 a think runs 2 iterations.
#[test]
fn set_time_takes_max_depth_from_address_0014() {
    let mut s = Session::new("10");
    assert_eq!(s.peek(LINNUM), 0x20, "LINNUM low byte after SYS2080");
    s.poke(LINNUM, 2);
    assert_eq!(s.type_(".t7\n"), "? .T7\nSET TIME\n");
    let out = s.type_(".g\n");
    // Two iterations, then the move read from the table (6). Derivation (v10):
    // depth 1: root + leaves: 1 node; E1F2 and E1D2 both eval 11 (mouse to rank 2: +1);
    //   strict test keeps E1F2 (12.2), stored at slot AD (start keys AD/9B).
    // depth 2: the root's table hit gives E1F2 +10 (already first). E1F2 -> cats node: the
    //   best reply is a cat staying in its lane (b8a7: cat1 28 -> 27), eval 12; the first
    //   such (B8A7) is kept. Back at the root alpha = 12; E1D2 -> cats node with alpha 12:
    //   B8A7 gives 12 <= alpha: cut-off. Nodes 1 + (root + 2 cats nodes) = 4, value 12.
    //   PV: root slot E1F2, then the cats slot of the position after E1F2: B8A7; 2 moves.
    let after = board(&[("f2", 0), ("b8", 1), ("d8", 2), ("f8", 3), ("h8", 4)]);
    let want = format!(
        "? .G\nGO\n01:00000001,11\nE1F2\n02:00000004,12\nE1F2,B8A7\nCOMPUTER'S MOVE:E1F2\n{}",
        // 10.2: the keys after the think are the true keys of the start (AD/9B) XOR-updated
        // by e1-f2: 01/B4 (ryg3.md 10.2 example).
        board_text(&after, 1, 0, 1, 0x01, 0xB4, 0x11)
    );
    assert_eq!(out, want);
}

/// `.D` with a digit sets the number of iterations exactly.
#[test]
fn set_depth_gives_that_many_iterations() {
    for (v, d) in [("09", 3u8), ("10", 2), ("11", 3)] {
        let mut s = Session::new(v);
        s.type_(&format!(".d{d}\n"));
        let out = s.type_(".g\n");
        let n = out
            .lines()
            .filter(|l| l.len() == 14 && l.as_bytes()[2] == b':' && l.as_bytes()[11] == b',')
            .count();
        assert_eq!(n, d as usize, "v{v} .D{d}:\n{out}");
        assert!(
            out.contains(&format!("\n{:02X}:", d)),
            "last iteration is {d}"
        );
    }
}

/// `.Q` prints QUIT and returns to BASIC; nothing after it is read (2, 5.2).
#[test]
fn quit_returns_to_basic_and_reads_nothing_more() {
    for v in VERSIONS {
        let mut s = Session::new(v);
        let out = s.keys(".q\n.h\n");
        assert_eq!(out, "? .Q\nQUIT\n", "v{v}");
        assert_eq!(s.stop, StopReason::ReturnedToBasic, "v{v}");
        // Unread: still in the script, or typed into the KERNAL's buffer (NDX, $C6) by an
        // IRQ that came while QUIT was printed.
        assert_eq!(
            s.m.bus.input.pending_keys() + s.m.peek(0xC6) as usize,
            3,
            "`.h` + RETURN were never read"
        );
    }
    // 18: `.x{DEL}q|` -> QUIT (cmd2 X replaced by Q); trailing cmd3/cmd4 don't matter.
    let mut s = Session::new("11");
    assert_eq!(s.keys(".x{DEL}qzz\n"), "? .X{14}QZZ\nQUIT\n");
    assert_eq!(s.stop, StopReason::ReturnedToBasic);
}

/// The same through `run` (the kit's one-shot runner): RUN from the BASIC stub, so `.Q`'s
/// RTS goes back into BASIC, which prints READY.; the run ends "returned to BASIC".
#[test]
fn quit_through_the_one_shot_runner() {
    let prg = c64kit_programs::build("ryg3-v09").unwrap();
    let r = c64kit_programs::run(&prg, ".h\n.q\n", 5_000_000).unwrap();
    assert_eq!(r.stop, StopReason::ReturnedToBasic);
    let ready = c64kit_programs::transcript_text(c64kit_programs::BASIC_READY);
    assert_eq!(r.text(), format!("? .H\nHELP\n? .Q\nQUIT\n{ready}"));
}

/// `.O`: the computer stops answering; `.G`: the computer plays the side to move at once and
/// then answers every human move immediately (2); `.N` turns it off too (7.2).
#[test]
fn go_off_and_new_game_switch_the_computer() {
    let mut s = Session::new("10");
    s.type_(".d1\n");
    let out = s.type_(".g\n");
    // Depth 1 from the start: 1 node; E1F2 and E1D2 both give eval 11; v10 keeps the first.
    assert!(
        out.starts_with("? .G\nGO\n01:00000001,11\nE1F2\nCOMPUTER'S MOVE:E1F2\n"),
        "{out}"
    );
    // A human cat move is answered by the computer (mouse) without another .G.
    let out = s.type_("b8a7\n");
    assert!(out.starts_with("? B8A7\nB8A7\n01:00000001,"), "{out}");
    assert!(out.contains("COMPUTER'S MOVE:"), "{out}");
    assert_eq!(s.type_(".o\n"), "? .O\nOFF\n");
    // Now a cat move is not answered.
    assert_eq!(s.type_("d8c7\n"), "? D8C7\nD8C7\n");
    // .G again, then .N: after NEW GAME the mouse is to move and the computer played the
    // mouse; it does not think, because a new game switches it off.
    let out = s.type_(".g\n");
    assert!(out.contains("COMPUTER'S MOVE:"), "{out}");
    assert_eq!(s.type_(".n\n"), "? .N\nNEW GAME\n");
    assert_eq!(s.type_(".m\n"), "? .M\nE1F2,E1D2\n");
}
