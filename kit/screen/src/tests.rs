use super::*;

const SCREEN: usize = 0x0400;

fn setup() -> (ScreenEditor, PlainMemory) {
    let mut mem = PlainMemory::default();
    let mut ed = ScreenEditor::new();
    ed.reset(&mut mem);
    (ed, mem)
}

fn row(mem: &PlainMemory, r: usize) -> &[u8] {
    &mem.ram[SCREEN + r * 40..SCREEN + r * 40 + 40]
}

fn colour_row(mem: &PlainMemory, r: usize) -> &[u8] {
    &mem.colour[r * 40..r * 40 + 40]
}

fn text(ed: &ScreenEditor, mem: &PlainMemory) -> Vec<String> {
    ed.screen_text(mem)
}

#[test]
fn reset_clears_in_light_blue_and_homes() {
    let mut mem = PlainMemory::default();
    mem.ram[SCREEN..SCREEN + 1000].fill(0x41);
    let mut ed = ScreenEditor::new();
    ed.reset(&mut mem);
    assert!(mem.ram[SCREEN..SCREEN + 1000].iter().all(|&b| b == 0x20));
    assert!(mem.colour[..1000].iter().all(|&c| c == 14));
    assert_eq!(mem.ram[0x0286], 14);
    assert_eq!(mem.ram[0x0288], 4);
    assert_eq!(ed.plot_get(&mem), (0, 0));
    assert_eq!((mem.ram[0xd1], mem.ram[0xd2]), (0x00, 0x04));
    assert_eq!((mem.ram[0xf3], mem.ram[0xf4]), (0x00, 0xd8));
    assert_eq!(mem.ram[0xd5], 39);
    // Every row starts a logical line, high byte of its address in the low bits.
    assert_eq!(mem.ram[0xd9], 0x84);
    assert_eq!(mem.ram[0xd9 + 7], 0x85);
    assert_eq!(mem.ram[0xd9 + 24], 0x87);
}

#[test]
fn hello_lands_in_screen_ram() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"HELLO");
    assert_eq!(&row(&mem, 0)[..6], &[0x08, 0x05, 0x0c, 0x0c, 0x0f, 0x20]);
    assert_eq!(&colour_row(&mem, 0)[..5], &[14; 5]);
    assert_eq!(ed.plot_get(&mem), (0, 5));
    assert_eq!(mem.ram[0xd7], b'O');
    assert_eq!(text(&ed, &mem)[0], "HELLO");
}

#[test]
fn return_goes_to_next_line_and_ends_reverse_and_quote() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"\x12\"AB\rC");
    assert_eq!(&row(&mem, 0)[..3], &[0xa2, 0x81, 0x82]);
    assert_eq!(row(&mem, 1)[0], 0x03, "reverse is off after RETURN");
    assert_eq!(mem.ram[0xc7], 0);
    assert_eq!(mem.ram[0xd4], 0);
    assert_eq!(ed.plot_get(&mem), (1, 1));
    // Shifted RETURN does the same.
    ed.print(&mut mem, b"\x12\x8dD");
    assert_eq!(row(&mem, 2)[0], 0x04);
}

#[test]
fn clear_and_home() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"ABC\rDEF\x13X");
    assert_eq!(text(&ed, &mem)[..2], ["XBC", "DEF"]);
    ed.print(&mut mem, b"\x1c\x93");
    assert!(mem.ram[SCREEN..SCREEN + 1000].iter().all(|&b| b == 0x20));
    assert!(
        mem.colour[..1000].iter().all(|&c| c == 2),
        "cleared in the current colour"
    );
    assert_eq!(ed.plot_get(&mem), (0, 0));
}

#[test]
fn cursor_keys() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"\x11\x11\x1d\x1d\x1d");
    assert_eq!(ed.plot_get(&mem), (2, 3));
    ed.print(&mut mem, b"\x91\x9d");
    assert_eq!(ed.plot_get(&mem), (1, 2));
    // Up at the top row and left at home do nothing.
    ed.print(&mut mem, b"\x13\x91\x9d");
    assert_eq!(ed.plot_get(&mem), (0, 0));
    // Left at column 0 goes to the end of the previous line.
    ed.print(&mut mem, b"\x11\x9d");
    assert_eq!(ed.plot_get(&mem), (0, 39));
    // Right at column 39 of a one-row line goes to the next row.
    ed.print(&mut mem, b"\x1d");
    assert_eq!(ed.plot_get(&mem), (1, 0));
    // Cursor keys do not print anything.
    assert!(mem.ram[SCREEN..SCREEN + 1000].iter().all(|&b| b == 0x20));
}

#[test]
fn cursor_down_at_the_bottom_scrolls() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"TOP");
    ed.plot_set(&mut mem, 24, 5);
    ed.print(&mut mem, b"\x11");
    assert_eq!(ed.plot_get(&mem), (24, 5));
    assert_eq!(row(&mem, 0)[0], 0x20, "TOP scrolled off");
}

#[test]
fn colour_codes_set_the_colour() {
    let codes = [
        0x90, 0x05, 0x1c, 0x9f, 0x9c, 0x1e, 0x1f, 0x9e, 0x81, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a,
        0x9b,
    ];
    let (mut ed, mut mem) = setup();
    for (colour, &code) in codes.iter().enumerate() {
        ed.print(&mut mem, &[code, b'*']);
        assert_eq!(mem.ram[0x0286], colour as u8, "code {code:#04x}");
        assert_eq!(ed.colour(&mem), colour as u8);
        assert_eq!(mem.colour[colour], colour as u8);
    }
    assert_eq!(ed.plot_get(&mem), (0, 16), "colour codes take no room");
}

#[test]
fn a_program_can_set_the_colour_by_poking_0286() {
    let (mut ed, mut mem) = setup();
    mem.ram[0x0286] = 7;
    ed.print(&mut mem, b"Y");
    assert_eq!(mem.colour[0], 7);
}

#[test]
fn reverse_on_and_off() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"\x12A \x92B");
    assert_eq!(&row(&mem, 0)[..3], &[0x81, 0xa0, 0x02]);
    assert_eq!(text(&ed, &mem)[0], "A█B");
}

#[test]
fn long_lines_wrap_into_a_logical_line() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, &[b'A'; 45]);
    assert!(row(&mem, 0).iter().all(|&b| b == 1));
    assert_eq!(&row(&mem, 1)[..6], &[1, 1, 1, 1, 1, 0x20]);
    assert_eq!(
        ed.plot_get(&mem),
        (1, 45),
        "PLOT counts within the logical line"
    );
    assert_eq!(ed.cursor(&mem), (1, 5));
    assert_eq!(mem.ram[0xd5], 79, "LNMX");
    assert_eq!(mem.ram[0xd9 + 1] & 0x80, 0, "row 1 continues row 0");
    assert_eq!(mem.ram[0xd9 + 2] & 0x80, 0x80);
    // RETURN leaves the whole logical line.
    ed.print(&mut mem, b"\rB");
    assert_eq!(row(&mem, 2)[0], 2);
    // An 80-column logical line is full: the 81st character starts a new line.
    ed.print(&mut mem, b"\x13");
    ed.print(&mut mem, &[b'C'; 81]);
    assert_eq!(row(&mem, 2)[0], 3);
    assert_eq!(mem.ram[0xd9 + 2] & 0x80, 0x80);
}

#[test]
fn printing_past_the_bottom_scrolls_everything_up() {
    let (mut ed, mut mem) = setup();
    for i in 0..30 {
        ed.print(&mut mem, format!("L{i}\r").as_bytes());
        if i == 7 {
            ed.print(&mut mem, b"\x1c"); // red from line 8 on
        }
    }
    let lines = text(&ed, &mem);
    assert_eq!(lines[0], "L6");
    assert_eq!(lines[23], "L29");
    assert_eq!(lines[24], "");
    assert_eq!(ed.plot_get(&mem), (24, 0));
    // Colours scroll with the text.
    assert_eq!(colour_row(&mem, 1)[0], 14, "L7 was printed in light blue");
    assert_eq!(colour_row(&mem, 2)[0], 2, "L8 was printed in red");
}

#[test]
fn a_wrapped_line_scrolls_off_whole() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, &[b'W'; 50]);
    ed.print(&mut mem, b"\r");
    for i in 0..22 {
        ed.print(&mut mem, format!("R{i}\r").as_bytes());
    }
    // Rows 0-1 hold the 50 Ws (one logical line), rows 2-23 R0..R21.
    assert_eq!(ed.plot_get(&mem), (24, 0));
    assert_eq!(text(&ed, &mem)[0], "W".repeat(40));
    // The next RETURN at the bottom scrolls both rows of the W line away at once.
    ed.print(&mut mem, b"X\r");
    assert_eq!(ed.plot_get(&mem), (23, 0));
    ed.print(&mut mem, b"Y\r");
    let lines = text(&ed, &mem);
    assert_eq!(lines[0], "R0");
    assert_eq!(lines[21], "R21");
    assert_eq!(lines[22], "X");
    assert_eq!(lines[23], "Y");
    assert_eq!(lines[24], "");
    assert_eq!(ed.plot_get(&mem), (24, 0));
}

#[test]
fn quote_mode_shows_control_codes_as_reversed_characters() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"\"\x93\x13\x1d\x05");
    assert_eq!(mem.ram[0xd4], 1, "quote mode on");
    // {clr} as reversed heart, {home} as reversed S, {rght} as reversed ], {wht} as reversed E.
    assert_eq!(&row(&mem, 0)[..5], &[0x22, 0xd3, 0x93, 0x9d, 0x85]);
    assert_eq!(mem.ram[0x0286], 14, "colour code did not act");
    // DEL still acts in quote mode.
    ed.print(&mut mem, b"\x14");
    assert_eq!(row(&mem, 0)[4], 0x20);
    ed.print(&mut mem, b"\"\x13Z");
    assert_eq!(mem.ram[0xd4], 0);
    assert_eq!(row(&mem, 0)[0], 0x1a, "home acted after the closing quote");
}

#[test]
fn del_at_the_start_of_a_line() {
    let (mut ed, mut mem) = setup();
    // At home DEL does nothing.
    ed.print(&mut mem, b"\x14");
    assert_eq!(ed.plot_get(&mem), (0, 0));
    // At column 0 of row 1 it blanks the last column of row 0 and moves there.
    ed.plot_set(&mut mem, 0, 39);
    ed.print(&mut mem, b"Q\x11");
    ed.plot_set(&mut mem, 1, 0);
    assert_eq!(row(&mem, 0)[39], 0x11);
    ed.print(&mut mem, b"\x14");
    assert_eq!(row(&mem, 0)[39], 0x20);
    assert_eq!(ed.plot_get(&mem), (0, 39));
}

#[test]
fn del_pulls_the_rest_of_the_line_left() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"ABC\x9d\x9d\x14");
    assert_eq!(text(&ed, &mem)[0], "BC");
    assert_eq!(ed.plot_get(&mem), (0, 0));
    // Across a wrapped line: column 40 goes back to row 0.
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, &[b'A'; 41]);
    ed.print(&mut mem, b"\x9d\x14");
    assert_eq!(ed.plot_get(&mem), (0, 39));
    assert_eq!(row(&mem, 0)[39], 1, "the A from column 40 moved up");
    assert_eq!(row(&mem, 1)[0], 0x20);
}

#[test]
fn insert_opens_a_gap_and_counts_pending_inserts() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"ABC\x9d\x9d\x94");
    assert_eq!(text(&ed, &mem)[0], "A BC");
    assert_eq!(mem.ram[0xd8], 1);
    assert_eq!(ed.plot_get(&mem), (0, 1));
    // While an insert is pending a control code shows as a reversed character.
    ed.print(&mut mem, b"\x13");
    assert_eq!(row(&mem, 0)[1], 0x93);
    assert_eq!(mem.ram[0xd8], 0);
    assert_eq!(ed.plot_get(&mem), (0, 2));
    // Then it acts again.
    ed.print(&mut mem, b"\x13");
    assert_eq!(ed.plot_get(&mem), (0, 0));
}

#[test]
fn insert_on_a_full_row_links_a_second_row() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"\x11NEXT\x13");
    // A program fills row 0 directly (printing 40 characters would link row 1 already).
    mem.ram[SCREEN..SCREEN + 40].fill(6);
    ed.print(&mut mem, b"\x94");
    // The row grew into a two-row logical line and "NEXT" moved down.
    assert_eq!(row(&mem, 0)[0], 0x20);
    assert_eq!(row(&mem, 1)[0], 6);
    assert_eq!(mem.ram[0xd9 + 1] & 0x80, 0);
    assert_eq!(mem.ram[0xd5], 79);
    assert_eq!(text(&ed, &mem)[2], "NEXT");
}

#[test]
fn charset_switches_are_written_to_the_vic() {
    #[derive(Default)]
    struct Vic {
        mem: PlainMemory,
        writes: Vec<u8>,
    }
    impl ScreenMemory for Vic {
        fn ram(&self) -> &[u8; 0x10000] {
            self.mem.ram()
        }
        fn ram_mut(&mut self) -> &mut [u8; 0x10000] {
            self.mem.ram_mut()
        }
        fn colour_ram(&self) -> &[u8; 0x400] {
            self.mem.colour_ram()
        }
        fn colour_ram_mut(&mut self) -> &mut [u8; 0x400] {
            self.mem.colour_ram_mut()
        }
        fn vic_memory_setup(&self) -> u8 {
            self.mem.vic_memory_setup()
        }
        fn set_vic_memory_setup(&mut self, value: u8) {
            self.writes.push(value);
            self.mem.set_vic_memory_setup(value);
        }
    }
    let mut vic = Vic::default();
    let mut ed = ScreenEditor::new();
    ed.reset(&mut vic);
    // CINT found the upper-case set already chosen: nothing written.
    assert_eq!(vic.writes, []);
    ed.print(&mut vic, b"\x0eHi");
    // PEEK(53272): 21 after power-on, 23 after CHR$(14).
    assert_eq!(vic.mem.vic_memory_setup(), 23);
    assert!(ed.lowercase(&vic));
    assert_eq!(ed.screen_text(&vic)[0], "hI");
    ed.print(&mut vic, b"\x8e");
    assert!(!ed.lowercase(&vic));
    assert_eq!(vic.mem.vic_memory_setup(), 21);
    assert_eq!(vic.writes, [0x17, 0x15]);
    // A POKE 53272,23 is the editor's choice too, and CINT undoes it.
    vic.set_vic_memory_setup(0x16);
    assert!(ed.lowercase(&vic));
    ed.cint(&mut vic);
    assert!(!ed.lowercase(&vic));
    // Lock and unlock of SHIFT+C= live in MODE ($0291).
    ed.print(&mut vic, b"\x08");
    assert_eq!(vic.mem.ram[0x0291], 0x80);
    ed.print(&mut vic, b"\x09");
    assert_eq!(vic.mem.ram[0x0291], 0);
    // The keyboard scan's SHIFT+C= flips the set, unless CHR$(8) locked it.
    ed.shift_cbm(&mut vic);
    assert!(ed.lowercase(&vic));
    ed.print(&mut vic, b"\x08");
    ed.shift_cbm(&mut vic);
    assert!(ed.lowercase(&vic));
    ed.print(&mut vic, b"\x09");
    ed.shift_cbm(&mut vic);
    assert!(!ed.lowercase(&vic));
    assert_eq!(ed.plot_get(&vic), (0, 0));
}

#[test]
fn plot_set_follows_the_kernal() {
    let (mut ed, mut mem) = setup();
    ed.plot_set(&mut mem, 10, 20);
    ed.print(&mut mem, b"@");
    assert_eq!(mem.ram[SCREEN + 10 * 40 + 20], 0);
    assert_eq!(
        (mem.ram[0xd1], mem.ram[0xd2]),
        (((10 * 40) & 0xff) as u8, 0x05)
    );
    assert_eq!((mem.ram[0xf3], mem.ram[0xf4]), (mem.ram[0xd1], 0xd9));
}

#[test]
fn hibase_moves_the_screen() {
    let mut mem = PlainMemory::default();
    let mut ed = ScreenEditor::new();
    ed.reset(&mut mem);
    mem.ram[0x0288] = 0x20;
    ed.cint(&mut mem);
    ed.print(&mut mem, b"HI");
    assert_eq!(&mem.ram[0x2000..0x2002], &[8, 9]);
    assert_eq!(ed.screen_base(&mem), 0x2000);
    assert_eq!(ed.screen_text(&mem)[0], "HI");
}

#[test]
fn chrin_reads_the_typed_line_back_without_the_prompt() {
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, b"? ");
    assert_eq!(ed.chrin_keyboard(&mut mem), None, "nothing typed yet");
    let typed = b"42\r";
    mem.ram[0x0277..0x0277 + typed.len()].copy_from_slice(typed);
    mem.ram[0xc6] = typed.len() as u8;
    let mut got = Vec::new();
    loop {
        let c = ed.chrin_keyboard(&mut mem).expect("line is complete");
        got.push(c);
        if c == 13 {
            break;
        }
    }
    assert_eq!(got, b"42\r");
    assert_eq!(text(&ed, &mem)[0], "? 42");
    assert_eq!(mem.ram[0xc6], 0);
}

#[test]
fn chrin_handles_keys_arriving_one_by_one_and_editing() {
    let (mut ed, mut mem) = setup();
    let mut got = Vec::new();
    for &key in b"AX\x14B\"\x13\"\r" {
        mem.ram[0x0277] = key;
        mem.ram[0xc6] = 1;
        if let Some(c) = ed.chrin_keyboard(&mut mem) {
            got.push(c);
        }
    }
    while *got.last().unwrap() != 13 {
        got.push(ed.chrin_keyboard(&mut mem).unwrap());
    }
    // The DEL removed the X; the HOME typed inside quotes comes back as a HOME code.
    assert_eq!(got, b"AB\"\x13\"\r");
}

#[test]
fn take_key_empties_the_buffer_in_order_as_lp2_does() {
    let (_, mut mem) = setup();
    mem.ram[0x0277..0x027a].copy_from_slice(b"XYZ");
    mem.ram[0xc6] = 3;
    assert_eq!(ScreenEditor::take_key(&mut mem), (b'X', 3));
    assert_eq!(ScreenEditor::take_key(&mut mem), (b'Y', 2));
    assert_eq!(ScreenEditor::take_key(&mut mem), (b'Z', 1));
    assert_eq!(mem.ram[0xc6], 0);
    // On an empty buffer LP2's loop runs 256 times: every byte of $0278-$0377 moves down
    // one place and NDX becomes $FF (callers check NDX first).
    for (i, b) in mem.ram[0x0277..0x0377].iter_mut().enumerate() {
        *b = i as u8;
    }
    mem.ram[0x0377] = 0xab;
    assert_eq!(ScreenEditor::take_key(&mut mem), (0, 0));
    assert_eq!(mem.ram[0xc6], 0xff);
    assert_eq!(&mem.ram[0x0277..0x0279], &[1, 2]);
    assert_eq!(&mem.ram[0x0375..0x0378], &[0xff, 0xab, 0xab]);
}

#[test]
fn garbage_in_the_editor_variables_never_panics_or_hangs() {
    let (mut ed, mut mem) = setup();
    let mut seed: u32 = 0x1234_5678;
    let mut next = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 24) as u8
    };
    for _ in 0..50 {
        for a in 0xc6..=0xf4 {
            mem.ram[a] = next();
        }
        for b in 0..=255u8 {
            ed.chrout(&mut mem, b);
        }
        let _ = ed.chrin_keyboard(&mut mem);
        let _ = ed.screen_text(&mem);
        let _ = ed.cursor(&mem);
    }
}

#[test]
fn every_code_from_a_clean_state_keeps_the_editor_consistent() {
    for b in 0..=255u8 {
        let (mut ed, mut mem) = setup();
        ed.print(&mut mem, b"AB");
        ed.chrout(&mut mem, b);
        let (row, col) = ed.plot_get(&mem);
        assert!(row < 25 && col < 80, "{b:#04x}: ({row}, {col})");
        let start = u16::from_le_bytes([mem.ram[0xd1], mem.ram[0xd2]]) as usize;
        assert!((SCREEN..SCREEN + 1000).contains(&start), "{b:#04x}");
        assert_eq!(mem.ram[0xf3], mem.ram[0xd1]);
    }
}

#[test]
fn wrapping_while_typing_inserts_a_row_instead_of_overwriting() {
    for (autodn, below) in [(0u8, "AELOW"), (1, "BELOW")] {
        let (mut ed, mut mem) = setup();
        ed.print(&mut mem, b"\x11BELOW\x13");
        mem.ram[0x0292] = autodn;
        ed.print(&mut mem, &[b'A'; 41]);
        let lines = text(&ed, &mem);
        assert_eq!(lines[0], "A".repeat(40), "AUTODN={autodn}");
        let moved = if autodn == 0 { 1 } else { 2 };
        assert_eq!(lines[moved], below, "AUTODN={autodn}");
        assert_eq!(mem.ram[0xd9 + 1] & 0x80, 0, "row 1 continues row 0");
    }
}

/// Types `keys` one at a time into CHRIN's line input, then reads the line to its RETURN.
fn type_line(ed: &mut ScreenEditor, mem: &mut PlainMemory, keys: &[u8]) -> Vec<u8> {
    let mut got = Vec::new();
    for &key in keys {
        mem.ram[0x0277] = key;
        mem.ram[0xc6] = 1;
        if let Some(c) = ed.chrin_keyboard(mem) {
            got.push(c);
        }
    }
    while got.last() != Some(&13) {
        got.push(ed.chrin_keyboard(mem).expect("a RETURN was typed"));
    }
    got
}

#[test]
fn return_on_the_row_input_started_reads_from_where_it_started_even_on_a_wrapped_line() {
    // A line of 40 characters wraps the cursor to row 1, which continues row 0's logical
    // line; after it is read, the cursor is at column 41 of that line. The next input starts
    // there: 901227-03 looks for the logical line's first row only when RETURN is pressed
    // on another row than the one input started on, so the 40 characters above are not
    // read again.
    let (mut ed, mut mem) = setup();
    let forty = [b'A'; 40];
    let mut line = forty.to_vec();
    line.push(13);
    assert_eq!(type_line(&mut ed, &mut mem, &line), line);
    assert_eq!(mem.ram[0xd9 + 1] & 0x80, 0, "row 1 continues row 0");
    assert_eq!(type_line(&mut ed, &mut mem, b"\r"), b"\r", "nothing typed");
    let (mut ed, mut mem) = setup();
    type_line(&mut ed, &mut mem, &line);
    assert_eq!(type_line(&mut ed, &mut mem, b"B\r"), b"B\r");
    // RETURN on another row than input started on looks for the logical line's first row:
    // input after a prompt of 38 characters, wrapped onto row 1, reads from the prompt's end.
    let (mut ed, mut mem) = setup();
    ed.print(&mut mem, &[b'?'; 38]);
    assert_eq!(type_line(&mut ed, &mut mem, b"BCD\r"), b"BCD\r");
}
