//! c64kit-screen: the C64 KERNAL screen editor, headless.
//!
//! [`ScreenEditor::chrout`] does what CHROUT ($FFD2) does for device 3 (the screen): it is a
//! routine-by-routine port of the KERNAL's editor (901227-03, $E500-$EA30), and it keeps every
//! piece of state where the KERNAL keeps it, in RAM the caller owns:
//!
//! | address | KERNAL name | meaning |
//! |---|---|---|
//! | $D1/$D2 | PNT | start of the cursor's logical line in screen RAM |
//! | $D3 | PNTR | cursor column within the logical line (0-79) |
//! | $D4 | QTSW | quote mode |
//! | $D5 | LNMX | last column of the logical line (39 or 79) |
//! | $D6 | TBLX | cursor row (0-24) |
//! | $D7 | DATA | last character printed |
//! | $D8 | INSRT | pending inserts (after INST) |
//! | $D9-$F2 | LDTB1 | line link table: per row, screen high byte; bit 7 set = row starts a logical line |
//! | $F3/$F4 | USER | colour RAM pointer matching PNT |
//! | $C7 | RVS | reverse mode |
//! | $0286 | COLOR | current text colour |
//! | $0288 | HIBASE | screen RAM page (4 = $0400) |
//! | $0291 | MODE | SHIFT+C= lock (CHR$(8)/CHR$(9)) |
//! | $0292 | AUTODN | insert a line on wrap (set while typing) |
//!
//! So a program that PEEKs or POKEs them sees and steers the same values as on a real C64, and
//! 40-column rows are linked into 80-column logical lines exactly like the KERNAL does.
//!
//! CHR$(14) and CHR$(142) switch the character set where the KERNAL does, in the VIC-II's
//! register $D018 ([`ScreenMemory::vic_memory_setup`]): the editor keeps no copy of its own,
//! so a program's POKE 53272 and the editor always agree.
//!
//! Not modelled: the cursor blink (done by the IRQ, which belongs to the machine), the CTRL
//! key slowing down scrolling, and the VIC register writes of CINT other than the character
//! set.

use c64kit_basic::petscii::screen_code_to_char;

/// One row of screen codes as text for humans, in the lower/upper-case set or the
/// upper-case/graphics one: graphics as Unicode look-alikes, a reversed space as '█', other
/// reversed characters as their plain glyph. Trailing spaces are trimmed.
pub fn screen_row_text(codes: &[u8], lowercase: bool) -> String {
    let line: String = codes
        .iter()
        .map(|&code| {
            if code == 0xa0 {
                '█'
            } else {
                screen_code_to_char(code, lowercase)
            }
        })
        .collect();
    line.trim_end_matches(' ').to_string()
}

/// Memory owned by the machine that the editor works on.
pub trait ScreenMemory {
    /// The 64 KiB of RAM (screen RAM and the KERNAL's variables live here).
    fn ram(&self) -> &[u8; 0x10000];
    fn ram_mut(&mut self) -> &mut [u8; 0x10000];
    /// The 1 KiB of colour RAM at $D800 (only the low 4 bits are kept).
    fn colour_ram(&self) -> &[u8; 0x400];
    fn colour_ram_mut(&mut self) -> &mut [u8; 0x400];
    /// The VIC-II's memory setup register $D018 as the CPU reads it (the editor reads it with
    /// the banking in force, as the KERNAL's LDA $D018 does).
    fn vic_memory_setup(&self) -> u8;
    /// Writes $D018. CHR$(14) sets bit 1 (the character ROM's lower/upper-case half, 21 ->
    /// 23 after power-on), CHR$(142) clears it; so does CINT.
    fn set_vic_memory_setup(&mut self, value: u8);
}

/// $D018's bit that picks the lower/upper-case half of the character ROM (CB11).
pub const LOWERCASE_BIT: u8 = 0x02;

/// Plain RAM and colour RAM, for using the editor on its own (tests, tools).
#[derive(Clone)]
pub struct PlainMemory {
    pub ram: Box<[u8; 0x10000]>,
    pub colour: Box<[u8; 0x400]>,
    /// $D018 as stored (its unused bit 0 reads as 1).
    pub vic_memory_setup: u8,
}

impl Default for PlainMemory {
    fn default() -> Self {
        PlainMemory {
            ram: Box::new([0; 0x10000]),
            colour: Box::new([0; 0x400]),
            // What CINT's VIC-II table leaves: screen $0400, characters from $1000 (the
            // character ROM's upper-case/graphics half).
            vic_memory_setup: 0x14,
        }
    }
}

impl ScreenMemory for PlainMemory {
    fn ram(&self) -> &[u8; 0x10000] {
        &self.ram
    }
    fn ram_mut(&mut self) -> &mut [u8; 0x10000] {
        &mut self.ram
    }
    fn colour_ram(&self) -> &[u8; 0x400] {
        &self.colour
    }
    fn colour_ram_mut(&mut self) -> &mut [u8; 0x400] {
        &mut self.colour
    }
    fn vic_memory_setup(&self) -> u8 {
        self.vic_memory_setup | 0x01
    }
    fn set_vic_memory_setup(&mut self, value: u8) {
        self.vic_memory_setup = value;
    }
}

/// Zero-page and page-2 locations of the KERNAL editor.
pub mod addr {
    pub const NDX: u16 = 0xc6;
    pub const RVS: u16 = 0xc7;
    pub const INDX: u16 = 0xc8;
    pub const LSXP: u16 = 0xc9;
    pub const LSTP: u16 = 0xca;
    pub const BLNSW: u16 = 0xcc;
    pub const BLNCT: u16 = 0xcd;
    pub const GDBLN: u16 = 0xce;
    pub const BLNON: u16 = 0xcf;
    pub const CRSW: u16 = 0xd0;
    pub const PNT: u16 = 0xd1;
    pub const PNTR: u16 = 0xd3;
    pub const QTSW: u16 = 0xd4;
    pub const LNMX: u16 = 0xd5;
    pub const TBLX: u16 = 0xd6;
    pub const DATA: u16 = 0xd7;
    pub const INSRT: u16 = 0xd8;
    pub const LDTB1: u16 = 0xd9;
    pub const USER: u16 = 0xf3;
    pub const DFLTN: u16 = 0x99;
    pub const DFLTO: u16 = 0x9a;
    pub const KEYD: u16 = 0x0277;
    pub const COLOR: u16 = 0x0286;
    pub const GDCOL: u16 = 0x0287;
    pub const HIBASE: u16 = 0x0288;
    pub const XMAX: u16 = 0x0289;
    pub const KOUNT: u16 = 0x028b;
    pub const DELAY: u16 = 0x028c;
    pub const KEYLOG: u16 = 0x028f;
    pub const MODE: u16 = 0x0291;
    pub const AUTODN: u16 = 0x0292;
    pub const LINTMP: u16 = 0x02a5;
}

use addr::*;

const LLEN: u8 = 40;
const NLINES: u8 = 25;
const MAXCHR_1: u8 = 79;
const COLOR_RAM: u16 = 0xd800;
/// The colour codes in KERNAL order: the index is the colour number.
const COLTAB: [u8; 16] = [
    0x90, 0x05, 0x1c, 0x9f, 0x9c, 0x1e, 0x1f, 0x9e, 0x81, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b,
];
/// "LOAD\rRUN\r", what SHIFT+RUN/STOP puts in the keyboard buffer.
const RUNTB: &[u8; 9] = b"LOAD\rRUN\r";
/// Bounds loops that the KERNAL runs on a table a program may have corrupted, so a bad POKE
/// cannot hang the emulator (the real loops end within 256 steps on a sane table).
const LOOP_GUARD: usize = 1024;

/// The screen editor. Its state lives in RAM and in $D018 (see the crate docs); this struct
/// only remembers whether a CHRIN line input is in progress.
#[derive(Debug, Clone, Default)]
pub struct ScreenEditor {
    waiting_for_line: bool,
    /// How much of the real editor's slow work the calls so far did (the trap KERNAL
    /// charges the real routine's cycles for it).
    pub work: Work,
}

/// Counts of the screen editor's row moves, for timing: each costs the real KERNAL's loop
/// over a row's 40 characters and colours.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// Rows copied to another row (SCRLIN, $E9C8), in scrolling or opening a line.
    pub rows_copied: u64,
    /// Rows blanked (CLRLN, $E9FF), in clearing the screen, scrolling or opening a line.
    pub rows_cleared: u64,
    /// Scrolls of the whole screen up one row (SCROL's loop, $E8EA).
    pub scrolls: u64,
    /// Of the rows copied, the bytes read past a page's end (SCRLIN's indexed reads of the
    /// row and its colours each take a cycle more there).
    pub copied_bytes_past_page: u64,
    /// Rows opened inside the screen for a logical line (BMT1, $E967: a line that wraps
    /// while it is typed, INST on a full row), and the rows each moved down.
    pub lines_opened: u64,
    pub rows_moved_down: u64,
}

impl ScreenEditor {
    pub fn new() -> Self {
        Self::default()
    }

    /// Power-on: sets HIBASE to $04 (as the KERNAL's RAM test does) and runs [`Self::cint`].
    pub fn reset(&mut self, mem: &mut impl ScreenMemory) {
        mem.ram_mut()[HIBASE as usize] = 0x04;
        self.cint(mem);
    }

    /// CINT ($FF81): default devices, keyboard settings, colour light blue (14), upper-case
    /// character set, clear screen and home the cursor. Uses the screen page in HIBASE ($0288).
    pub fn cint(&mut self, mem: &mut impl ScreenMemory) {
        self.waiting_for_line = false;
        let mut k = Kernal::new(mem, &mut self.work);
        k.poke(DFLTO, 3);
        k.poke(DFLTN, 0);
        // The real CINT writes its whole VIC-II table (the machine's part); here only the
        // character set, left alone when the table already chose upper case.
        if k.mem.vic_memory_setup() & LOWERCASE_BIT != 0 {
            k.set_charset(false);
        }
        k.poke(MODE, 0);
        k.poke(BLNON, 0);
        k.poke(KEYLOG, 0x48);
        k.poke(KEYLOG + 1, 0xeb);
        k.poke(XMAX, 10);
        k.poke(DELAY, 10);
        self.colour_and_clear(mem, 14);
    }

    /// CINT's last part ($E536): text colour A, key repeat and cursor blink timers reset,
    /// clear screen and home. Programs jump in here with their own colour in A.
    pub fn colour_and_clear(&mut self, mem: &mut impl ScreenMemory, colour: u8) {
        let mut k = Kernal::new(mem, &mut self.work);
        k.poke(COLOR, colour);
        k.poke(KOUNT, 4);
        k.poke(BLNCT, 0x0c);
        k.poke(BLNSW, 0x0c);
        k.clsr();
    }

    /// CLSR ($E544): clear the screen and home the cursor. Not in the jump table, but programs
    /// call it directly as often as CHROUT.
    pub fn clear_screen(&mut self, mem: &mut impl ScreenMemory) {
        Kernal::new(mem, &mut self.work).clsr();
    }

    /// NXTD ($E566): home the cursor.
    pub fn home(&mut self, mem: &mut impl ScreenMemory) {
        Kernal::new(mem, &mut self.work).nxtd();
    }

    /// SCOLOR ($EA24): USER ($F3/$F4) = the colour RAM address matching PNT ($D1/$D2).
    /// Not in the jump table; cc65 calls it after PLOT (its UPDCRAMPTR).
    pub fn sync_colour_pointer(&mut self, mem: &mut impl ScreenMemory) {
        Kernal::new(mem, &mut self.work).scolor();
    }

    /// CHROUT ($FFD2) to the screen: prints one PETSCII code or performs its control function.
    pub fn chrout(&mut self, mem: &mut impl ScreenMemory, byte: u8) {
        Kernal::new(mem, &mut self.work).prt(byte);
    }

    /// Prints several codes with [`Self::chrout`].
    pub fn print(&mut self, mem: &mut impl ScreenMemory, bytes: &[u8]) {
        let mut k = Kernal::new(mem, &mut self.work);
        for &b in bytes {
            k.prt(b);
        }
    }

    /// PLOT ($FFF0) with carry set: (row TBLX, column PNTR). As on the C64 the column counts
    /// within the logical line, so it is 40-79 on the second row of a wrapped line.
    pub fn plot_get(&self, mem: &impl ScreenMemory) -> (u8, u8) {
        let ram = mem.ram();
        (ram[TBLX as usize], ram[PNTR as usize])
    }

    /// PLOT ($FFF0) with carry clear: moves the cursor to `row`, `col` (not range-checked, as
    /// in the KERNAL).
    pub fn plot_set(&mut self, mem: &mut impl ScreenMemory, row: u8, col: u8) {
        let mut k = Kernal::new(mem, &mut self.work);
        k.poke(TBLX, row);
        k.poke(PNTR, col);
        k.stupt();
    }

    /// The cursor's physical (row 0-24, column 0-39).
    pub fn cursor(&self, mem: &impl ScreenMemory) -> (u8, u8) {
        let ram = mem.ram();
        let row = ram[TBLX as usize];
        let mut col = ram[PNTR as usize];
        let mut r = row;
        // Each continuation row above the cursor's row accounts for 40 columns.
        while r > 0 && r < NLINES && col >= LLEN && ram[(LDTB1 + r as u16) as usize] & 0x80 == 0 {
            col -= LLEN;
            r -= 1;
        }
        (row, col % LLEN)
    }

    /// The current text colour ($0286).
    pub fn colour(&self, mem: &impl ScreenMemory) -> u8 {
        mem.ram()[COLOR as usize]
    }

    /// True after CHR$(14) (lower/upper-case set), false after CHR$(142) or CINT: bit 1 of
    /// $D018, where the editor keeps it.
    pub fn lowercase(&self, mem: &impl ScreenMemory) -> bool {
        mem.vic_memory_setup() & LOWERCASE_BIT != 0
    }

    /// Address of screen RAM (HIBASE * 256).
    pub fn screen_base(&self, mem: &impl ScreenMemory) -> u16 {
        (mem.ram()[HIBASE as usize] as u16) << 8
    }

    /// The 25 screen rows at HIBASE as text for humans, in the character set bit 1 of $D018
    /// picks ([`screen_row_text`]).
    pub fn screen_text(&self, mem: &impl ScreenMemory) -> Vec<String> {
        let base = self.screen_base(mem) as usize;
        let ram = mem.ram();
        let lowercase = self.lowercase(mem);
        (0..NLINES as usize)
            .map(|row| {
                let codes: Vec<u8> = (0..LLEN as usize)
                    .map(|col| ram[(base + row * 40 + col) & 0xffff])
                    .collect();
                screen_row_text(&codes, lowercase)
            })
            .collect()
    }

    /// The keyboard scan's SHIFT+C= switch (the KERNAL's keyboard decode, $EB48, entered
    /// once per press of the two keys together): flips the character set in $D018 unless
    /// CHR$(8) locked it (MODE $0291 bit 7).
    pub fn shift_cbm(&mut self, mem: &mut impl ScreenMemory) {
        let k = Kernal::new(mem, &mut self.work);
        if k.peek(MODE) & 0x80 == 0 {
            let v = k.mem.vic_memory_setup() ^ LOWERCASE_BIT;
            k.mem.set_vic_memory_setup(v);
        }
    }

    /// GETIN's keyboard half (LP2, $E5B4): takes the oldest key from the keyboard buffer
    /// ($0277, count NDX in $C6) as the routine does, whatever NDX holds; returns the key
    /// and the old NDX (the routine leaves them in A and X). Callers check NDX first: on an
    /// empty buffer the routine's loop moves 256 bytes down and leaves NDX = $FF, and with
    /// NDX over 10 it moves the bytes after the buffer too.
    pub fn take_key<M: ScreenMemory + ?Sized>(mem: &mut M) -> (u8, u8) {
        let ram = mem.ram_mut();
        let count = ram[NDX as usize];
        let key = ram[KEYD as usize];
        // The loop runs until X reaches NDX (256 turns when it is 0), one byte down each.
        let mut x: u8 = 0;
        loop {
            let at = KEYD as usize + usize::from(x);
            ram[at] = ram[at + 1];
            x = x.wrapping_add(1);
            if x == count {
                break;
            }
        }
        ram[NDX as usize] = count.wrapping_sub(1);
        (key, count)
    }

    /// CHRIN ($FFCF) from the keyboard (device 0), as the KERNAL's LOOP5 does it: keys from the
    /// keyboard buffer are echoed through the editor until RETURN; then the logical line is
    /// read back from the screen one character per call, ending with 13.
    ///
    /// Returns `None` while the buffer is empty and the line is unfinished: the caller lets time
    /// pass (or supplies keys) and calls again, which continues the same input.
    pub fn chrin_keyboard(&mut self, mem: &mut impl ScreenMemory) -> Option<u8> {
        let waiting = self.waiting_for_line;
        let mut k = Kernal::new(mem, &mut self.work);
        if !waiting {
            // BASIN remembers where input started, so a prompt before it is not read back.
            let (pntr, tblx) = (k.peek(PNTR), k.peek(TBLX));
            k.poke(LSTP, pntr);
            k.poke(LSXP, tblx);
            if k.peek(CRSW) != 0 {
                return Some(k.lop5());
            }
        }
        let result = k.loop3();
        self.waiting_for_line = result.is_none();
        result
    }
}

/// The editor routines, over the caller's memory. Method names follow the KERNAL labels.
struct Kernal<'a, M: ScreenMemory + ?Sized> {
    mem: &'a mut M,
    work: &'a mut Work,
}

impl<'a, M: ScreenMemory + ?Sized> Kernal<'a, M> {
    fn new(mem: &'a mut M, work: &'a mut Work) -> Self {
        Kernal { mem, work }
    }

    fn peek(&self, a: u16) -> u8 {
        match a {
            COLOR_RAM..=0xdbff => self.mem.colour_ram()[(a - COLOR_RAM) as usize] & 0x0f,
            _ => self.mem.ram()[a as usize],
        }
    }

    fn poke(&mut self, a: u16, v: u8) {
        match a {
            COLOR_RAM..=0xdbff => self.mem.colour_ram_mut()[(a - COLOR_RAM) as usize] = v & 0x0f,
            _ => self.mem.ram_mut()[a as usize] = v,
        }
    }

    /// (zp),Y addressing.
    fn ind_y(&self, zp: u16, y: u8) -> u16 {
        let base = u16::from_le_bytes([self.peek(zp), self.peek((zp + 1) & 0xff)]);
        base.wrapping_add(y as u16)
    }

    fn ldtb1(&self, x: u8) -> u8 {
        self.peek((LDTB1 + x as u16) & 0xff)
    }

    fn set_ldtb1(&mut self, x: u8, v: u8) {
        self.poke((LDTB1 + x as u16) & 0xff, v);
    }

    /// LDTB2: low byte of each row's screen address (a ROM table in the KERNAL).
    fn ldtb2(x: u8) -> u8 {
        (x as u16 * LLEN as u16) as u8
    }

    fn dec(&mut self, a: u16) {
        let v = self.peek(a).wrapping_sub(1);
        self.poke(a, v);
    }

    fn inc(&mut self, a: u16) {
        let v = self.peek(a).wrapping_add(1);
        self.poke(a, v);
    }

    /// LOWER/UPPER ($EC44): read $D018, set or clear the lower-case bit, write it back.
    fn set_charset(&mut self, lowercase: bool) {
        let v = self.mem.vic_memory_setup();
        let v = if lowercase {
            v | LOWERCASE_BIT
        } else {
            v & !LOWERCASE_BIT
        };
        self.mem.set_vic_memory_setup(v);
    }

    /// CLSR ($E544): rebuild the line table, clear every row, home.
    fn clsr(&mut self) {
        let mut hi = self.peek(HIBASE) | 0x80;
        let mut lo: u8 = 0;
        for x in 0..=NLINES {
            self.set_ldtb1(x, hi);
            let (sum, carry) = lo.overflowing_add(LLEN);
            lo = sum;
            if carry {
                hi = hi.wrapping_add(1);
            }
        }
        // The KERNAL tags the table's end here; it lands on USER, which SCOLOR rewrites.
        self.set_ldtb1(NLINES + 1, 0xff);
        for x in (0..NLINES).rev() {
            self.clrln(x);
        }
        self.nxtd();
    }

    /// NXTD ($E566): home.
    fn nxtd(&mut self) {
        self.poke(PNTR, 0);
        self.poke(TBLX, 0);
        self.stupt();
    }

    /// STUPT ($E56C): point PNT/PNTR/LNMX at the logical line holding TBLX.
    fn stupt(&mut self) {
        let mut x = self.peek(TBLX);
        let mut a = self.peek(PNTR);
        loop {
            if self.ldtb1(x) & 0x80 != 0 {
                break;
            }
            a = a.wrapping_add(LLEN);
            self.poke(PNTR, a);
            x = x.wrapping_sub(1);
            if x & 0x80 != 0 {
                break;
            }
        }
        self.setpnt(x);
        let mut a = LLEN - 1;
        x = x.wrapping_add(1);
        loop {
            if self.ldtb1(x) & 0x80 != 0 {
                break;
            }
            a = a.wrapping_add(LLEN);
            x = x.wrapping_add(1);
            if x & 0x80 != 0 {
                break;
            }
        }
        self.poke(LNMX, a);
        self.scolor();
    }

    /// SETPNT ($E9F0): PNT = start of row `x`.
    fn setpnt(&mut self, x: u8) {
        self.poke(PNT, Self::ldtb2(x));
        let hi = (self.ldtb1(x) & 0x03) | self.peek(HIBASE);
        self.poke(PNT + 1, hi);
    }

    /// SCOLOR ($EA24): USER = colour RAM address matching PNT.
    fn scolor(&mut self) {
        let lo = self.peek(PNT);
        let hi = (self.peek(PNT + 1) & 0x03) | 0xd8;
        self.poke(USER, lo);
        self.poke(USER + 1, hi);
    }

    /// CLRLN ($E9FF): blank row `x` in the current colour.
    fn clrln(&mut self, x: u8) {
        self.work.rows_cleared += 1;
        self.setpnt(x);
        self.scolor();
        let colour = self.peek(COLOR);
        for y in (0..LLEN).rev() {
            let c = self.ind_y(USER, y);
            self.poke(c, colour);
            let s = self.ind_y(PNT, y);
            self.poke(s, 0x20);
        }
    }

    /// DSPP ($EA13): put screen code `a` in colour `colour` at the cursor.
    fn dspp(&mut self, a: u8, colour: u8) {
        self.poke(BLNCT, 2);
        self.scolor();
        let y = self.peek(PNTR);
        let s = self.ind_y(PNT, y);
        self.poke(s, a);
        let c = self.ind_y(USER, y);
        self.poke(c, colour);
    }

    /// PRT ($E716): the screen half of CHROUT.
    fn prt(&mut self, data: u8) {
        self.poke(DATA, data);
        self.poke(CRSW, 0);
        let y = self.peek(PNTR);
        if data & 0x80 == 0 {
            self.prt_unshifted(data, y);
        } else {
            self.prt_shifted(data, y);
        }
        self.loop2();
    }

    /// Codes $00-$7F.
    fn prt_unshifted(&mut self, a: u8, y: u8) {
        if a == 0x0d {
            return self.nxt1();
        }
        if a >= 0x20 {
            let screen = if a >= 0x60 { a & 0xdf } else { a & 0x3f };
            self.qtswc(screen);
            return self.nxt3(screen);
        }
        if self.peek(INSRT) != 0 {
            return self.nc3(a);
        }
        if a == 0x14 {
            return self.delete(y);
        }
        if self.peek(QTSW) != 0 {
            return self.nc3(a);
        }
        match a {
            0x12 => self.poke(RVS, a),
            0x13 => self.nxtd(),
            0x1d => self.cursor_right(y),
            0x11 => self.cursor_down(y),
            _ => {
                self.chkcol(a);
                self.lower(a);
            }
        }
    }

    /// Codes $80-$FF.
    fn prt_shifted(&mut self, data: u8, y: u8) {
        let mut a = data & 0x7f;
        if a == 0x7f {
            a = 0x5e;
        }
        if a >= 0x20 {
            return self.nxt3(a | 0x40);
        }
        if a == 0x0d {
            return self.nxt1();
        }
        if self.peek(QTSW) != 0 {
            return self.nc3(a | 0x40);
        }
        if a == 0x14 {
            return self.insert();
        }
        if self.peek(INSRT) != 0 {
            return self.nc3(a | 0x40);
        }
        match a {
            0x11 => self.cursor_up(),
            0x12 => self.poke(RVS, 0),
            0x1d => self.cursor_left(y),
            0x13 => self.clsr(),
            _ => {
                self.chkcol(a | 0x80);
                self.upper(a | 0x80);
            }
        }
    }

    /// QTSWC ($E684): a quote toggles quote mode.
    fn qtswc(&mut self, a: u8) {
        if a == 0x22 {
            let q = self.peek(QTSW) ^ 1;
            self.poke(QTSW, q);
        }
    }

    /// NC3 ($E697): show a control code as a reversed character (quote or insert mode).
    fn nc3(&mut self, a: u8) {
        self.nvs(a | 0x80);
    }

    /// NXT3 ($E693): print a screen code, reversed if RVS is on.
    fn nxt3(&mut self, a: u8) {
        let a = if self.peek(RVS) != 0 { a | 0x80 } else { a };
        self.nvs(a);
    }

    /// NVS ($E699): one pending insert is used up, put the character, advance.
    fn nvs(&mut self, a: u8) {
        if self.peek(INSRT) != 0 {
            self.dec(INSRT);
        }
        let colour = self.peek(COLOR);
        self.dspp(a, colour);
        self.wlogic();
    }

    /// LOOP2 ($E6A8): common exit; quote mode is off while inserts are pending.
    fn loop2(&mut self) {
        if self.peek(INSRT) != 0 {
            let q = self.peek(QTSW) >> 1;
            self.poke(QTSW, q);
        }
    }

    /// WLOGIC ($E6B6): advance after a character, linking a second row or scrolling.
    fn wlogic(&mut self) {
        let x = self.chkdwn();
        self.inc(PNTR);
        let lnmx = self.peek(LNMX);
        if lnmx >= self.peek(PNTR) {
            return;
        }
        if lnmx == MAXCHR_1 {
            // The logical line is full: continue on a fresh line.
            self.dec(TBLX);
            self.nxln();
            self.poke(PNTR, 0);
            return;
        }
        if self.peek(AUTODN) != 0 {
            return self.bmt1(x);
        }
        let mut x = self.peek(TBLX);
        if x >= NLINES {
            self.scrol();
            self.dec(TBLX);
            x = self.peek(TBLX);
        }
        self.wlog30(x);
    }

    /// WLOG30 ($E6DA): row `x` continues the logical line above it.
    fn wlog30(&mut self, x: u8) {
        let v = self.ldtb1(x) & 0x7f;
        self.set_ldtb1(x, v);
        let next = x.wrapping_add(1);
        let v = self.ldtb1(next) | 0x80;
        self.set_ldtb1(next, v);
        let lnmx = self.peek(LNMX).wrapping_add(LLEN);
        self.poke(LNMX, lnmx);
        self.findst(x);
    }

    /// FINDST ($E6ED): PNT = first row of the logical line holding row `x` (row 0 when
    /// none above starts one); returns that row.
    fn findst(&mut self, mut x: u8) -> u8 {
        while self.ldtb1(x) & 0x80 == 0 {
            x = x.wrapping_sub(1);
            if x == 0 {
                break;
            }
        }
        self.setpnt(x);
        x
    }

    /// BKLN ($E701): to the end of the previous line. Returns false at the top row, where the
    /// KERNAL abandons the whole print (PNTR = 0).
    fn bkln(&mut self) -> bool {
        if self.peek(TBLX) == 0 {
            self.poke(PNTR, 0);
            return false;
        }
        self.dec(TBLX);
        self.stupt();
        let lnmx = self.peek(LNMX);
        self.poke(PNTR, lnmx);
        true
    }

    /// DEL ($E74C).
    fn delete(&mut self, y: u8) {
        let mut y = y;
        if y == 0 {
            if !self.bkln() {
                return;
            }
            y = self.peek(LNMX);
        } else {
            self.chkbak();
            y = y.wrapping_sub(1);
            self.poke(PNTR, y);
            self.scolor();
            let lnmx = self.peek(LNMX);
            // Pull the rest of the logical line one column left.
            loop {
                y = y.wrapping_add(1);
                for zp in [PNT, USER] {
                    let v = self.peek(self.ind_y(zp, y));
                    let to = self.ind_y(zp, y.wrapping_sub(1));
                    self.poke(to, v);
                }
                if y == lnmx {
                    break;
                }
            }
        }
        let s = self.ind_y(PNT, y);
        self.poke(s, 0x20);
        let colour = self.peek(COLOR);
        let c = self.ind_y(USER, y);
        self.poke(c, colour);
    }

    /// INST ($E7EE), outside quote mode.
    fn insert(&mut self) {
        let lnmx = self.peek(LNMX);
        let last = self.peek(self.ind_y(PNT, lnmx));
        if last != 0x20 || lnmx == self.peek(PNTR) {
            if lnmx == MAXCHR_1 {
                return; // the logical line is already 80 columns long
            }
            self.newlin();
        }
        let mut y = self.peek(LNMX);
        self.scolor();
        let pntr = self.peek(PNTR);
        // Push the rest of the logical line one column right.
        loop {
            y = y.wrapping_sub(1);
            for zp in [PNT, USER] {
                let v = self.peek(self.ind_y(zp, y));
                let to = self.ind_y(zp, y.wrapping_add(1));
                self.poke(to, v);
            }
            if y == pntr {
                break;
            }
        }
        let s = self.ind_y(PNT, y);
        self.poke(s, 0x20);
        let colour = self.peek(COLOR);
        let c = self.ind_y(USER, y);
        self.poke(c, colour);
        self.inc(INSRT);
    }

    /// Cursor right ($E792).
    fn cursor_right(&mut self, y: u8) {
        let y = y.wrapping_add(1);
        self.chkdwn();
        self.poke(PNTR, y);
        if y.wrapping_sub(1) < self.peek(LNMX) {
            return;
        }
        self.dec(TBLX);
        self.nxln();
        self.poke(PNTR, 0);
    }

    /// Cursor down ($E7AD).
    fn cursor_down(&mut self, y: u8) {
        let mut a = y.wrapping_add(LLEN);
        self.inc(TBLX);
        if a <= self.peek(LNMX) {
            self.poke(PNTR, a);
            return;
        }
        self.dec(TBLX);
        // Keep the column within the 40-column row.
        while a >= LLEN {
            a -= LLEN;
            self.poke(PNTR, a);
            if a == 0 {
                break;
            }
        }
        self.nxln();
    }

    /// Cursor up ($E832).
    fn cursor_up(&mut self) {
        if self.peek(TBLX) == 0 {
            return;
        }
        self.dec(TBLX);
        let pntr = self.peek(PNTR);
        if pntr >= LLEN {
            let a = pntr - LLEN;
            self.poke(PNTR, a);
            if a & 0x80 == 0 {
                return;
            }
        }
        self.stupt();
    }

    /// Cursor left ($E854).
    fn cursor_left(&mut self, y: u8) {
        if y == 0 {
            self.bkln();
            return;
        }
        self.chkbak();
        self.poke(PNTR, y - 1);
    }

    /// NXLN ($E87C): to the start of the next logical line, scrolling at the bottom.
    fn nxln(&mut self) {
        let l = self.peek(LSXP) >> 1;
        self.poke(LSXP, l);
        let mut x = self.peek(TBLX);
        for _ in 0..LOOP_GUARD {
            x = x.wrapping_add(1);
            if x == NLINES {
                self.scrol();
                x = self.peek(TBLX);
            }
            if self.ldtb1(x) & 0x80 != 0 {
                break;
            }
        }
        self.poke(TBLX, x);
        self.stupt();
    }

    /// NXT1 ($E891): RETURN and shifted RETURN.
    fn nxt1(&mut self) {
        for a in [INSRT, RVS, QTSW, PNTR] {
            self.poke(a, 0);
        }
        self.nxln();
    }

    /// CHKBAK ($E8A1): moving left from column 40 goes up a row.
    fn chkbak(&mut self) {
        let pntr = self.peek(PNTR);
        if pntr == 0 || pntr == LLEN {
            self.dec(TBLX);
        }
    }

    /// CHKDWN ($E8B3): moving right from column 39 or 79 goes down a row. Returns X as the
    /// KERNAL leaves it (the old row when it moved, else 0), which WLOGIC passes on.
    fn chkdwn(&mut self) -> u8 {
        let pntr = self.peek(PNTR);
        if pntr == LLEN - 1 || pntr == 2 * LLEN - 1 {
            let x = self.peek(TBLX);
            if x != NLINES {
                self.inc(TBLX);
            }
            return x;
        }
        0
    }

    /// CHKCOL ($E8CB): colour codes set COLOR.
    fn chkcol(&mut self, a: u8) {
        if let Some(colour) = COLTAB.iter().position(|&c| c == a) {
            self.poke(COLOR, colour as u8);
        }
    }

    /// LOWER ($EC44): 14 selects the lower/upper-case set.
    fn lower(&mut self, a: u8) {
        if a == 0x0e {
            self.set_charset(true);
        } else {
            self.upper(a);
        }
    }

    /// UPPER/LOCK/UNLOCK ($EC4F): 142 selects upper-case/graphics, 8 and 9 lock and unlock
    /// the SHIFT+C= switch.
    fn upper(&mut self, a: u8) {
        match a {
            0x8e => self.set_charset(false),
            0x08 => {
                let m = self.peek(MODE) | 0x80;
                self.poke(MODE, m);
            }
            0x09 => {
                let m = self.peek(MODE) & 0x7f;
                self.poke(MODE, m);
            }
            _ => {}
        }
    }

    /// SCROL ($E8EA): scroll the screen up one logical line.
    fn scrol(&mut self) {
        for _ in 0..LOOP_GUARD {
            self.work.scrolls += 1;
            self.dec(TBLX);
            self.dec(LSXP);
            self.dec(LINTMP);
            for x in 0..NLINES - 1 {
                self.setpnt(x);
                let from = self.ldtb1(x + 1);
                self.scrlin(Self::ldtb2(x + 1), from);
            }
            self.clrln(NLINES - 1);
            for x in 0..NLINES - 1 {
                let mut v = self.ldtb1(x) & 0x7f;
                if self.ldtb1(x + 1) & 0x80 != 0 {
                    v |= 0x80;
                }
                self.set_ldtb1(x, v);
            }
            let v = self.ldtb1(NLINES - 1) | 0x80;
            self.set_ldtb1(NLINES - 1, v);
            // A logical line that started above the screen scrolls out whole.
            if self.ldtb1(0) & 0x80 != 0 {
                break;
            }
        }
        self.inc(TBLX);
        self.inc(LINTMP);
    }

    /// NEWLIN ($E965): open a row below the cursor's logical line and link it in.
    fn newlin(&mut self) {
        let x = self.peek(TBLX);
        self.bmt1(x);
    }

    /// BMT1 ($E967).
    fn bmt1(&mut self, mut x: u8) {
        for _ in 0..LOOP_GUARD {
            x = x.wrapping_add(1);
            if self.ldtb1(x) & 0x80 != 0 {
                break;
            }
        }
        self.poke(LINTMP, x);
        if x > NLINES - 1 {
            // Below the last row: scroll everything up instead.
            self.scrol();
            let x = self.peek(LINTMP).wrapping_sub(1);
            self.dec(TBLX);
            return self.wlog30(x);
        }
        let lintmp = x;
        self.work.lines_opened += 1;
        // Move rows LINTMP..23 down one (row 24 falls off) and blank row LINTMP.
        let mut x = NLINES;
        loop {
            x -= 1;
            self.setpnt(x);
            if x <= lintmp {
                break;
            }
            let from = self.ldtb1(x - 1);
            self.work.rows_moved_down += 1;
            self.scrlin(Self::ldtb2(x - 1), from);
        }
        self.clrln(x);
        let mut x = NLINES - 2;
        while x >= lintmp {
            let mut v = self.ldtb1(x + 1) & 0x7f;
            if self.ldtb1(x) & 0x80 != 0 {
                v |= 0x80;
            }
            self.set_ldtb1(x + 1, v);
            x -= 1;
            if x == 0 {
                break;
            }
        }
        self.wlog30(lintmp);
    }

    /// SCRLIN ($E9C8): copy the row at (from_lo, from_hi & 3 | HIBASE) and its colours to PNT.
    fn scrlin(&mut self, from_lo: u8, from_hi: u8) {
        self.work.rows_copied += 1;
        self.work.copied_bytes_past_page +=
            (u64::from(from_lo) + u64::from(LLEN)).saturating_sub(0x100);
        let sah = (from_hi & 0x03) | self.peek(HIBASE);
        let from = u16::from_le_bytes([from_lo, sah]);
        let from_colour = u16::from_le_bytes([from_lo, (sah & 0x03) | 0xd8]);
        self.scolor();
        for y in (0..LLEN).rev() {
            let v = self.peek(from.wrapping_add(y as u16));
            let to = self.ind_y(PNT, y);
            self.poke(to, v);
            let v = self.peek(from_colour.wrapping_add(y as u16));
            let to = self.ind_y(USER, y);
            self.poke(to, v);
        }
    }

    /// LOOP3/LOOP4 ($E5CA): echo keys until RETURN, then return the line's first character.
    fn loop3(&mut self) -> Option<u8> {
        loop {
            let ndx = self.peek(NDX);
            self.poke(BLNSW, ndx);
            self.poke(AUTODN, ndx);
            if ndx == 0 {
                return None;
            }
            if self.peek(BLNON) != 0 {
                // Put back the character under a blinked cursor.
                let (c, colour) = (self.peek(GDBLN), self.peek(GDCOL));
                self.poke(BLNON, 0);
                self.dspp(c, colour);
            }
            let (key, _) = ScreenEditor::take_key(self.mem);
            if key == 0x83 {
                // SHIFT+RUN/STOP types LOAD, RUN.
                for (i, &b) in RUNTB.iter().enumerate() {
                    self.poke(KEYD + i as u16, b);
                }
                self.poke(NDX, RUNTB.len() as u8);
                continue;
            }
            if key != 0x0d {
                self.prt(key);
                continue;
            }
            return Some(self.line_entered());
        }
    }

    /// $E602: RETURN ends the input; find the line's end and start reading it back.
    fn line_entered(&mut self) -> u8 {
        let mut y = self.peek(LNMX);
        self.poke(CRSW, y);
        while self.peek(self.ind_y(PNT, y)) == 0x20 {
            y = y.wrapping_sub(1);
            if y == 0 {
                break;
            }
        }
        self.poke(INDX, y.wrapping_add(1));
        self.poke(AUTODN, 0);
        self.poke(PNTR, 0);
        self.poke(QTSW, 0);
        let lsxp = self.peek(LSXP);
        if lsxp & 0x80 == 0 {
            // Input started on this logical line: skip the prompt before it. The line's
            // first row is looked for only when the cursor is on another row than where
            // input started (901227-03's rule, $E591): RETURN on the row input started on
            // compares that row, even when it continues a line above (a line of 40
            // characters, then RETURN alone on the row it wrapped to, reads back empty).
            let mut x = self.peek(TBLX);
            if x != lsxp {
                x = self.findst(x);
            }
            if x == lsxp {
                let lstp = self.peek(LSTP);
                self.poke(PNTR, lstp);
                if lstp >= self.peek(INDX) {
                    return self.clp2();
                }
            }
        }
        self.lop5()
    }

    /// LOP5 ($E63A): the next character of the entered line, read back from the screen.
    fn lop5(&mut self) -> u8 {
        let y = self.peek(PNTR);
        let code = self.peek(self.ind_y(PNT, y));
        let mut a = code & 0x3f;
        if code & 0x40 != 0 {
            a |= 0x80;
        }
        let reversed = code & 0x80 != 0;
        // Reversed characters inside quotes are control codes typed in quote mode.
        let control = reversed && self.peek(QTSW) != 0;
        if !control && code & 0x20 == 0 {
            a |= 0x40;
        }
        self.inc(PNTR);
        self.qtswc(a);
        if y == self.peek(INDX) {
            return self.clp2();
        }
        self.poke(DATA, a);
        if a == 0xde {
            0xff
        } else {
            a
        }
    }

    /// CLP2 ($E65D): end of line: RETURN, echoed only when input or neither channel is the
    /// screen (BASIC prints its own RETURN after INPUT).
    fn clp2(&mut self) -> u8 {
        self.poke(CRSW, 0);
        if self.peek(DFLTN) == 3 || self.peek(DFLTO) != 3 {
            self.prt(0x0d);
        }
        self.poke(DATA, 0x0d);
        0x0d
    }
}

#[cfg(test)]
mod tests;
