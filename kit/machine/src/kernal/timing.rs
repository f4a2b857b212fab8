//! What the real KERNAL's routines cost in CPU cycles, so that a trap takes the time the
//! routine would. Measured on c64kit itself running Commodore's KERNAL 901227-03 (and BASIC
//! 901226-01) with its cycle-exact CPU, with the screen blanked or on lines without bad
//! lines (so no cycle was stolen), IRQs masked where a routine enables them: c64kit's
//! `--trace` gives the cycle of every instruction. Each cost counts from the first cycle of
//! the routine's first instruction to the end of its RTS (or to its exit, for the IRQ
//! handler), the path named. A trap spends these cycles through the bus
//! (`C64Bus::spend_cpu_cycles`), so bad lines and sprite DMA stretch them as they would the
//! real code.
//!
//! Limits: paths not listed cost what the nearest listed one does (a control code the table
//! lacks costs a printable character); the IRQ's
//! keyboard scan with a key down is measured for unshifted keys (SHIFT, C= and CTRL add a few
//! cycles on a real C64); the clock's wrap after 24 hours and
//! SCROL's slow-down while CTRL is held are left out; a long routine's interrupt is taken
//! after it (the real routine may take it midway).

/// What the trap's own entry and exit cost: the JAM opcode's fetch (the routine's first
/// cycle) and the RTS the machine does (6 cycles).
pub const TRAP_ENTRY_AND_RTS: u64 = 1 + 6;

// ---- the IRQ handler ($EA31 up to $EA81, where it restores the registers) ----
// From the interrupt's first cycle to RTI's end, no key down, cursor not blinking, no
// carry in the jiffy clock: 219 cycles (262 when a bad line falls in it). The IRQ
// sequence (7), the entry at $FF48 (29) and the exit at $EA81 (22) are real code in our
// image too, so the part in between is 219 - 58.

/// $EA31 to $EA81: UDTIM with no carry and STOP not down, BLNSW set (no blink), the cassette
/// sense, SCNKEY finding no key ($DC01 = $FF with every column low), the ICR read.
pub const IRQ_HANDLER: u64 = 219 - 58;
/// UDTIM's INC $A2 carrying into $A1 (BNE not taken, INC, BNE taken): 7 more.
pub const IRQ_CLOCK_CARRY: u64 = 7;
/// UDTIM's carry reaching $A0 (two INCs, two BNEs not taken): 11 more.
pub const IRQ_CLOCK_CARRY_TWICE: u64 = 11;
/// BLNSW = 0 (a CHRIN prompt): DEC BLNCT and its branch, 7 more (226 in all).
pub const IRQ_BLINK_COUNT: u64 = 7;
/// BLNCT reaching 0, the cursor turning off (BLNON set): 281 in all, 55 over the count.
pub const IRQ_BLINK_OFF: u64 = 281 - 226;
/// BLNCT reaching 0, the cursor turning on (saving the character and colour under it):
/// 332 in all, 106 over the count.
pub const IRQ_BLINK_ON: u64 = 332 - 226;
/// SCNKEY with a key down: the full scan of the 64 keys, the decode through KEYLOG and the
/// repeat delay: 1,606 in all for a key held since the last scan (A, E, 1, RETURN).
pub const IRQ_KEY_HELD: u64 = 1606 - 219;
/// A key the last scan did not see: into the keyboard buffer, 1,623 in all.
pub const IRQ_KEY_NEW: u64 = 1623 - 1606;
/// BLNCT's reload when it reaches 0 (20 jiffies between blinks).
pub const BLINK_JIFFIES: u8 = 20;

// ---- CHROUT to the screen ($F1CA to its RTS; the jump table's JMP ($0326) is real code) ----

/// A printable character, not in the last column: 267.
pub const CHROUT_PRINTABLE: u64 = 267;
/// A printable character in the last column of a logical line's first row (column 39: the
/// line grows to a second row): 352, besides any rows moved to open it.
pub const CHROUT_PRINTABLE_ROW_END: u64 = 352;
/// A printable character in a logical line's last column (79: on to the next line): 402.
pub const CHROUT_PRINTABLE_LINE_END: u64 = 402;
/// The quote, which also toggles quote mode.
pub const CHROUT_QUOTE: u64 = 276;
/// RETURN without scrolling (220; 221 on rows whose table lookup crosses a page).
pub const CHROUT_RETURN: u64 = 220;
/// CLR ($93) besides its 25 row clears.
pub const CHROUT_CLEAR: u64 = 37_684 - 25 * ROW_CLEAR;
/// CLSR ($E544) called directly, besides its 25 row clears: from its entry to its RTS's end,
/// 37,541 cycles on KERNAL 901227-03 (measured with the IRQ off and the screen blanked).
pub const CLSR: u64 = 37_541 - 25 * ROW_CLEAR;
/// HOME ($13).
pub const CHROUT_HOME: u64 = 438;
/// Cursor up ($91), right ($1D), left ($9D) within the screen.
pub const CHROUT_UP: u64 = 236;
pub const CHROUT_RIGHT: u64 = 179;
pub const CHROUT_LEFT: u64 = 184;
/// RVS ON ($12), RVS OFF ($92), a colour code ($05 white).
pub const CHROUT_RVS_ON: u64 = 343;
pub const CHROUT_RVS_OFF: u64 = 351;
pub const CHROUT_COLOUR: u64 = 331;
/// DEL ($14) and INST ($94) in the middle of a row (the row's rest moves by one).
pub const CHROUT_DELETE: u64 = 1609;
pub const CHROUT_INSERT: u64 = 1592;
/// SCRLIN ($E9C8, JSR to its RTS): one row and its colours copied (1,158), from a row that
/// lies in one page.
pub const ROW_COPY: u64 = 1158;
/// SCRLIN's reads of the row and its colours each take a cycle more for a byte past a
/// page's end: a row copied from row 19 of the screen at $0400 (32 bytes past): 1,222.
pub const ROW_COPY_PER_BYTE_PAST_PAGE: u64 = 2;
/// What a full scroll's 24 copies read past pages on the screen at $0400: rows 6, 12 and 19
/// (24, 8 and 32 bytes).
const SCROLL_BYTES_PAST_PAGE: u64 = 24 + 8 + 32;
/// BMT1 ($E967) opening a row for a line that wraps while it is typed (AUTODN set), besides
/// the rows it copies and clears: 139 more than CHROUT's wrap onto a second row with the row
/// below free (a letter in column 39 of row 23: 1,975), and 85 for each row it moves down
/// (setting the row's pointer, the link table's loop): row 0, 23 rows moved: 30,692.
pub const OPEN_LINE: u64 = 139;
pub const OPEN_LINE_PER_ROW: u64 = 85;
/// CLRLN ($E9FF): one row blanked with the background colour (1,473).
pub const ROW_CLEAR: u64 = 1473;
/// SCROL's work besides its 24 row copies and 1 row clear: the link table, the CTRL-key
/// check. RETURN on the last row costs 31,681 in all.
pub const SCROLL_OVERHEAD: u64 = 31_681
    - CHROUT_RETURN
    - 24 * ROW_COPY
    - SCROLL_BYTES_PAST_PAGE * ROW_COPY_PER_BYTE_PAST_PAGE
    - ROW_CLEAR;
/// SCROL's loop again in the same call (a logical line of two rows scrolls out whole): 119
/// less than the first time (a print loop's scrolls of two-row lines, screen blanked).
pub const SCROLL_AGAIN_OVERHEAD: u64 = SCROLL_OVERHEAD - 119;

// ---- small routines (entry to RTS) ----

/// GETIN from the keyboard with the buffer empty ($F13E): 19.
pub const GETIN_KEYBOARD: u64 = 19;
/// GETIN taking a key: its 15 cycles, then a jump into LP2: 54 with one key, 88 with
/// three, 207 with ten.
pub fn getin_key(keys_in_buffer: u8) -> u64 {
    15 + lp2(keys_in_buffer.max(1))
}
/// LP2 ($E5B4, JSR to RTS less the JSR), taking the first key and moving the rest down:
/// 22, and 17 for each key the buffer held (39 with one key, 192 with ten). With none its
/// loop runs 256 times, 120 of them with a page crossed: 4,494.
pub fn lp2(keys_in_buffer: u8) -> u64 {
    match keys_in_buffer {
        0 => 22 + 17 * 256 + 120,
        n => 22 + LP2_PER_KEY * u64::from(n),
    }
}
/// LP2's loop: one turn for each key in the buffer.
pub const LP2_PER_KEY: u64 = 17;
/// SCOLOR ($EA24, the colour pointer from the line pointer): 22.
pub const SCOLOR: u64 = 22;

// ---- CHRIN from the keyboard (BASIN $F157, then the screen editor's line input) ----
// Measured with CIA 1's interrupts off and the screen blanked, keys put in the buffer before
// the call, JSR $FFCF to the instruction after it, less the JSR (6) and the jump table's
// JMP ($0324) (5).

/// From BASIN's first cycle to the line input loop's first look at the buffer (LOOP3,
/// $E5CD): 37.
pub const CHRIN_TO_LOOP: u64 = 37;
/// One turn of that loop with the buffer empty: the wait, which spins with interrupts as
/// the caller left them (the key is seen at the next turn after it comes): 12.
pub const CHRIN_WAIT_TURN: u64 = 12;
/// A turn that takes a key other than RETURN and echoes it: 48, plus LP2's 17 for each key
/// in the buffer, plus what CHROUT would take for the key (`chrout_screen` and the rows
/// moved): 349 for a letter with two keys in the buffer, 383 with four.
pub const CHRIN_KEY: u64 = 48;
/// When the key comes while the blinking cursor is shown, the character under it is put
/// back first: 77 more.
pub const CHRIN_CURSOR_OFF: u64 = 77;
/// A turn that takes RETURN, to the RTS that hands back the line's first character: 88,
/// plus LP2's 17 for each key in the buffer, the search back for the line's last
/// character (`line_end_search`) and the character's cost (`chrin_character`): 775 for
/// the line "A" with the RETURN alone in the buffer.
pub const CHRIN_RETURN: u64 = 88;
/// A later call handing back the character in screen code `code` (BASIN to RTS, LOP5):
/// 124, 1 more when bit 5 is clear (letters: 125) and when bit 6 is set, 9 more for the
/// quote (which toggles quote mode), 1 more when the read crosses a page: 125 for A, 124
/// for a space or a digit, 133 for the quote.
pub fn chrin_character(code: u8, crosses_page: bool) -> u64 {
    124 + u64::from(code & 0x20 == 0)
        + u64::from(code & 0x40 != 0)
        + if code == 0x22 { 9 } else { 0 }
        + u64::from(crosses_page)
}
/// The call after the line's last character, handing back RETURN: 147 (besides the
/// RETURN echoed on the screen when the output is not the screen).
pub const CHRIN_LINE_END: u64 = 147;
/// The search back from the logical line's last column (`last`, LNMX) over blanks to the
/// last character, found in column `found` (0 when the line is blank): 14 a column, 1 more
/// where the read crosses a page from the line's start (low byte `pnt_low`); 545 for a
/// blank line of one row on the screen's first rows.
pub fn line_end_search(last: u8, found: u8, pnt_low: u8) -> u64 {
    let cross = |y: u8| u64::from(u16::from(pnt_low) + u16::from(y) > 0xFF);
    if found == 0 {
        (1..=last).map(|y| 14 + cross(y)).sum::<u64>() - 1
    } else {
        (found + 1..=last).map(|y| 14 + cross(y)).sum::<u64>() + 10 + cross(found)
    }
}
/// STOP ($F6ED), the STOP key not down: 14.
pub const STOP: u64 = 14;
/// STOP with RUN/STOP down (STKEY $7F): CLRCHN through the jump table (its path with the
/// keyboard and screen as devices), the buffer emptied: 62 (measured on KERNAL 901227-03).
pub const STOP_KEY_DOWN: u64 = 62;
/// RDTIM ($F6DD, through SETTIM's end): 30. SETTIM ($F6E4): 19.
pub const RDTIM: u64 = 30;
pub const SETTIM: u64 = 19;
/// PLOT ($E50A): reading the cursor 15, setting it 110.
pub const PLOT_GET: u64 = 15;
pub const PLOT_SET: u64 = 110;

/// CHROUT to the screen's cost for `byte` (without row moves), the cursor in column
/// `column` of its logical line (PNTR, 0-79) before.
pub fn chrout_screen(byte: u8, column: u8, quote_mode: bool) -> u64 {
    let printable = match column {
        39 => CHROUT_PRINTABLE_ROW_END,
        79 => CHROUT_PRINTABLE_LINE_END,
        _ => CHROUT_PRINTABLE,
    };
    if quote_mode && !matches!(byte, 0x0D | 0x8D | 0x22 | 0x14) {
        return printable;
    }
    match byte {
        0x0D | 0x8D => CHROUT_RETURN,
        0x22 => CHROUT_QUOTE,
        0x93 => CHROUT_CLEAR,
        0x13 => CHROUT_HOME,
        0x91 => CHROUT_UP,
        0x1D => CHROUT_RIGHT,
        0x9D => CHROUT_LEFT,
        0x12 => CHROUT_RVS_ON,
        0x92 => CHROUT_RVS_OFF,
        0x05 | 0x1C | 0x1E | 0x1F | 0x81 | 0x90 | 0x95..=0x9C | 0x9E | 0x9F => CHROUT_COLOUR,
        0x14 => CHROUT_DELETE,
        0x94 => CHROUT_INSERT,
        _ => printable,
    }
}

/// The cost of the editor's row moves and scrolls between two counts.
pub fn screen_work(before: c64kit_screen::Work, after: c64kit_screen::Work) -> u64 {
    (after.rows_copied - before.rows_copied) * ROW_COPY
        + (after.copied_bytes_past_page - before.copied_bytes_past_page)
            * ROW_COPY_PER_BYTE_PAST_PAGE
        + (after.rows_cleared - before.rows_cleared) * ROW_CLEAR
        + (after.lines_opened - before.lines_opened) * OPEN_LINE
        + (after.rows_moved_down - before.rows_moved_down) * OPEN_LINE_PER_ROW
        + match after.scrolls - before.scrolls {
            0 => 0,
            n => SCROLL_OVERHEAD + (n - 1) * SCROLL_AGAIN_OVERHEAD,
        }
}

// ---- the serial bus: Commodore's KERNAL on c64kit's drive 8 (`serial.rs`) ----
// Not measured on c64kit (its bus has no drive): what a 1541's side of the handshake takes.

/// A byte under ATN (LISTEN, TALK, SECOND, TKSA, UNLSN, UNTLK): the KERNAL waits 1 ms before
/// it (`isoura`'s `w1ms`), then clocks out eight bits and waits for the devices to
/// acknowledge the frame: about 1.5 ms.
pub const SERIAL_ATN_BYTE: u64 = 1_500;
/// TKSA's turnaround (TKATN): the computer releases the clock line and waits for the drive
/// to take it, about 100 µs.
pub const SERIAL_TURNAROUND: u64 = 100;
/// A data byte (ACPTR, CIOUT): a 1541 on Commodore's KERNAL moves about 400 bytes a second
/// (F. Prindle, 1984: "a load of a 100 block program" (25,400 bytes) is "about a 1 minute
/// operation"), most of it the drive's own work between bytes, which the computer spends
/// waiting in the routine. 2,200 cycles here, with LOAD's own loop around each call and the
/// bad lines of a screen that is on stretching them, make 400 bytes a second
/// (tests/drive_real_kernal.rs times a LOAD with TI).
pub const SERIAL_DATA_BYTE: u64 = 2_200;
/// ACPTR with no talker sending: two waits of 256 µs on CIA 1's timer B (the first ends in
/// EOI, the second in the time-out) with the handshakes around them, about 1.4 ms.
pub const SERIAL_READ_TIMEOUT: u64 = 1_400;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_irq_handler_costs_what_commodores_does() {
        // First cycle of the interrupt to RTI's end on a line with no bad line.
        assert_eq!(7 + 29 + IRQ_HANDLER + 22, 219);
        assert_eq!(7 + 29 + IRQ_HANDLER + IRQ_BLINK_COUNT + 22, 226);
        assert_eq!(7 + 29 + IRQ_HANDLER + IRQ_KEY_HELD + 22, 1606);
        assert_eq!(CHROUT_CLEAR + 25 * ROW_CLEAR, 37_684);
        assert_eq!(
            CHROUT_RETURN
                + SCROLL_OVERHEAD
                + 24 * ROW_COPY
                + SCROLL_BYTES_PAST_PAGE * ROW_COPY_PER_BYTE_PAST_PAGE
                + ROW_CLEAR,
            31_681
        );
    }

    #[test]
    fn chrin_s_line_input_costs_what_commodores_does() {
        // The routine's cycles measured on the real KERNAL, keys in the buffer beforehand.
        assert_eq!(
            CHRIN_KEY + 2 * LP2_PER_KEY + chrout_screen(b'C', 2, false),
            349
        );
        assert_eq!(
            CHRIN_KEY + 4 * LP2_PER_KEY + chrout_screen(b'A', 0, false),
            383
        );
        // "A", RETURN alone in the buffer; "ABC"; a blank line (its first character: a space).
        let ret = |found, code| {
            CHRIN_RETURN
                + LP2_PER_KEY
                + line_end_search(39, found, 0x20)
                + chrin_character(code, false)
        };
        assert_eq!(ret(0, 0x01), 775);
        assert_eq!(ret(2, 0x01), 758);
        assert_eq!(ret(8, 0x01), 674);
        assert_eq!(ret(0, 0x20), 774);
        assert_eq!(chrin_character(0x22, false), 133);
        assert_eq!(lp2(1), 39);
        assert_eq!(lp2(10), 192);
        assert_eq!(lp2(0), 4494);
        assert_eq!(getin_key(3), 88);
    }
}
