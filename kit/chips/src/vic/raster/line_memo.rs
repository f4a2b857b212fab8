//! The line memos. A line with no sprite on it draws the same picture row and leaves the
//! same pipeline as the last time that raster line was drawn from the same pipeline state,
//! registers and fetched bytes. A line with sprites draws the same graphics (before sprites,
//! border and colours are put over them) as the last time from the same graphics state,
//! registers and fetched bytes. Its fetches are always stepped cycle by cycle (they move the
//! counters and fill the matrix buffer); its drawing, the costly part, is done once and
//! reused while nothing it depends on changes (a still screen, the border, the lines
//! between a game's sprites).
//!
//! What the drawing of such a line depends on: the pipeline's state at the line's start
//! (but for the sprite shift registers, which only pass through a line no sprite is shown
//! on), the registers (unchanged through the line: a register write first brings the
//! engine up to date, so a line stepped in one go saw none), and, cycle by cycle, what the
//! fetches leave for the drawing ([`LineInputs`]). The matrix buffer is read by the drawing
//! only after the line's fetch of the same entry (the drawing's index trails VMLI), so its
//! state at the line's end stands for what the drawing read. The sprite data a shift
//! register loads is recorded as it is loaded (sprite 2's bytes for a line are fetched
//! partly in the line before, and its next bytes come before the line ends).
//!
//! Both kinds need a line stepped in one go with nothing waiting from a write (a colour,
//! an X position, a collision register read): [`Raster::steady`].

use super::sprite_line::LineGraphics;
use super::timing::{Timing, MAX_CYCLES};
use super::{ColourRegisters, GraphicsPipe, Phi1, Pipeline, Raster, VicMemory};

/// The registers the drawing reads: $D011 (modes), $D016 (modes, XSCROLL, CSEL) and the
/// sprite priority, multicolour and X expansion the sequencers take every cycle. The rest
/// reach the drawing through the pipeline's state (colours, X positions) or only the
/// fetches (pointers, Y positions, enables).
const DRAWING_REGISTERS: [usize; 5] = [0x11, 0x16, 0x1B, 0x1C, 0x1D];

/// The colour codes of the sprite colours ($D025-$D02E), looked up only for sprite pixels.
const SPRITE_COLOURS: std::ops::RangeInclusive<usize> = 0x25..=0x2E;

impl Pipeline {
    /// The pipeline without what a sprite-free line neither uses nor changes: the sprite
    /// shift registers (loaded, never shown), X positions, sprite colours and the sprite
    /// sequencers' pixel and flip-flops (the multicolour ones are cleared by a multicolour
    /// switch, so they count when one is due). A game's sprites move and change colour
    /// every frame; the lines between them stay the same.
    // Inlined into each line timing's copy of the caller, as into the one caller it had.
    #[inline(always)]
    fn without_sprite_inputs(&self, regs: &[u8]) -> Pipeline {
        let mut p = self.clone();
        p.keep_sprite_inputs_of(&Pipeline::default(), self.multicolour == regs[0x1C]);
        p
    }

    /// Takes what a sprite-free line neither uses nor changes from `now` (zeros from a
    /// default pipeline); the multicolour flip-flops only if no multicolour switch was due
    /// when the line started.
    fn keep_sprite_inputs_of(&mut self, now: &Pipeline, with_mc_flops: bool) {
        self.shift = now.shift;
        self.sprite_x = now.sprite_x;
        self.start_cycles = now.start_cycles;
        self.sprite_pixel = now.sprite_pixel;
        self.x_expand_flops = now.x_expand_flops;
        if with_mc_flops {
            self.mc_flops = now.mc_flops;
        }
        for code in SPRITE_COLOURS {
            self.cregs.0[code] = now.cregs.0[code];
        }
    }
}

/// What the fetches leave for the drawing in each cycle of a line (bit r of a mask: cycle r;
/// past the line's end 0).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct LineInputs {
    pub(super) gbuf: [u8; MAX_CYCLES],
    pub(super) gbuf_rom: u128,
    pub(super) vborder: u128,
    pub(super) idle: u128,
    pub(super) main_border: u128,
}

impl Default for LineInputs {
    fn default() -> Self {
        LineInputs {
            gbuf: [0; MAX_CYCLES],
            gbuf_rom: 0,
            vborder: 0,
            idle: 0,
            main_border: 0,
        }
    }
}

/// What a line's fetches leave for its drawing: the record, and the matrix buffer as the
/// line ends; and whether the drawing makes a picture.
#[derive(Clone, PartialEq, Eq)]
struct FetchedLine {
    picture_on: bool,
    inputs: LineInputs,
    matrix: [u8; 64],
    colour: [u8; 64],
}

/// Everything a sprite-free line's drawing depends on.
#[derive(Clone, PartialEq, Eq)]
struct LineKey {
    /// The registers the drawing reads ([`DRAWING_REGISTERS`]).
    regs: [u8; DRAWING_REGISTERS.len()],
    /// The pipeline at the line's start without what a sprite-free line neither uses nor
    /// changes ([`Pipeline::without_sprite_inputs`]).
    start: Pipeline,
    fetched: FetchedLine,
}

/// A line as last drawn: its key, the pipeline it left and its picture row (if it has one).
struct LineMemo {
    key: LineKey,
    end: Pipeline,
    row: Option<(Vec<u8>, Vec<u16>)>,
}

/// Everything a line's graphics depend on (the drawing's graphics part reads only $D011
/// and $D016 of the registers, and the colour registers for the character-ROM colours).
#[derive(Clone, PartialEq, Eq)]
struct GraphicsKey {
    regs: [u8; 2],
    start: GraphicsPipe,
    cregs: ColourRegisters,
    fetched: FetchedLine,
}

/// A line's graphics as last drawn: its key, the graphics pipeline it left, and each
/// cycle's 8 pixels before sprites and border (colour codes, foreground bits, ROM colours).
struct GraphicsMemo {
    key: GraphicsKey,
    end: GraphicsPipe,
    render: [[u8; 8]; MAX_CYCLES],
    foreground: [u8; MAX_CYCLES],
    rom: [[u16; 8]; MAX_CYCLES],
}

/// One memo of each kind per raster line, and what the fetch pass of the line being
/// stepped records. A cache, not state: a copy of the engine starts without memos, and two
/// engines compare equal whatever their memos hold.
#[derive(Default)]
pub(super) struct LineMemos {
    lines: Vec<Option<Box<LineMemo>>>,
    graphics: Vec<Option<Box<GraphicsMemo>>>,
    pub(super) recording: LineInputs,
    /// The data each sprite's shift register loaded in the line (by sprite).
    pub(super) loaded: [u32; 8],
}

impl Clone for LineMemos {
    fn clone(&self) -> Self {
        LineMemos::default()
    }
}

impl PartialEq for LineMemos {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for LineMemos {}

/// What the drawing of one cycle takes from the fetch state.
#[derive(Clone, Copy)]
struct DrawInputs {
    gbuf: u8,
    gbuf_rom: bool,
    vborder: bool,
    idle: bool,
    main_border: bool,
}

impl LineInputs {
    /// Records what the drawing of cycle `r` takes (a line's record starts at its cycle 0).
    #[inline]
    fn record(&mut self, r: u64, now: DrawInputs) {
        if r == 0 {
            *self = LineInputs::default();
        }
        self.gbuf[r as usize] = now.gbuf;
        self.gbuf_rom |= cycle_bit(r, now.gbuf_rom);
        self.vborder |= cycle_bit(r, now.vborder);
        self.idle |= cycle_bit(r, now.idle);
        self.main_border |= cycle_bit(r, now.main_border);
    }

    /// What the drawing of cycle `r` took.
    fn at(&self, r: u64) -> DrawInputs {
        DrawInputs {
            gbuf: self.gbuf[r as usize],
            gbuf_rom: has_cycle(self.gbuf_rom, r),
            vborder: has_cycle(self.vborder, r),
            idle: has_cycle(self.idle, r),
            main_border: has_cycle(self.main_border, r),
        }
    }
}

/// Bit r of a line mask set if `on` (in 64-bit halves: the 6569's lines fit the low one).
#[inline(always)]
fn cycle_bit(r: u64, on: bool) -> u128 {
    if r < 64 {
        u128::from(u64::from(on) << r)
    } else {
        u128::from(u64::from(on) << (r - 64)) << 64
    }
}

/// Whether bit r of a line mask is set (as [`cycle_bit`]).
#[inline(always)]
fn has_cycle(mask: u128, r: u64) -> bool {
    if r < 64 {
        (mask as u64) >> r & 1 != 0
    } else {
        ((mask >> 64) as u64) >> (r - 64) & 1 != 0
    }
}

impl Raster {
    /// Nothing waits to be applied from a write or a read (collision clears, colour writes,
    /// X positions): a line stepped whole from here can be fetched first and drawn after.
    /// What a register access leaves on the internal bus reaches only the sprite fetches,
    /// which are stepped as always (and their loads recorded).
    #[inline(always)]
    pub(super) fn steady(&self) -> bool {
        let p = &self.pipe;
        self.clear_collisions == 0
            && !self.sprite_x_stale
            && p.colour_write.is_none()
            && p.colour_latched.is_none()
    }

    /// Whether the line about to start (its cycle 0 next) can be drawn from the line memo:
    /// steady, and no sprite is shown, pending or starting on it.
    #[inline(always)]
    pub(super) fn sprite_free(&self, regs: &[u8], line: u16) -> bool {
        let p = &self.pipe;
        self.steady()
            && self.dma == 0
            && self.display == 0
            && p.pending == 0
            && p.active == 0
            && !(0..8)
                .any(|n| regs[0x15] & 1 << n != 0 && u16::from(regs[2 * n + 1]) == line & 0xFF)
    }

    /// Steps a sprite-free line: its fetches cycle by cycle, recording what its drawing
    /// takes from them; then its drawing from the memo if the key matches, else from the
    /// record (and remembered).
    pub(super) fn run_memo_line<T: Timing>(&mut self, regs: &[u8], mem: &VicMemory, line: u16) {
        let row = T::picture_row(line);
        let start = self.pipe.without_sprite_inputs(regs);
        self.fetch_line::<T>(regs, mem, line);
        let key = LineKey {
            regs: DRAWING_REGISTERS.map(|i| regs[i]),
            start,
            fetched: self.fetched_line(),
        };
        if self.line_from_memo(regs, line, T::LINES, row, &key) {
            return;
        }
        self.draw_recorded_line::<T>(regs, line, &key.fetched.inputs);
        self.remember_line(line, row, key);
    }

    /// The line memo's part of [`Raster::run_memo_line`] (one copy for every line timing, so
    /// that what it calls is inlined as into one caller): whether raster line `line` (of a
    /// frame of `lines`) was drawn from its memo, whose key is `key`, into picture row `row`.
    #[inline(never)]
    fn line_from_memo(
        &mut self,
        regs: &[u8],
        line: u16,
        lines: u64,
        row: Option<usize>,
        key: &LineKey,
    ) -> bool {
        if self.line_memos.lines.len() < lines as usize {
            self.line_memos.lines.resize_with(lines as usize, || None);
        }
        let slot = usize::from(line);
        // Taken out while in use (and put back): no copy of its row.
        let memo = self.line_memos.lines[slot].take();
        let Some(memo) = memo.filter(|m| m.key == *key && (row.is_none() || m.row.is_some()))
        else {
            return false;
        };
        // The fetch pass left the pipeline as the line started but for the shift registers.
        let mut end = memo.end.clone();
        end.keep_sprite_inputs_of(&self.pipe, self.pipe.multicolour == regs[0x1C]);
        self.pipe = end;
        if let (Some(y), Some((pixels, rom))) = (row, &memo.row) {
            self.picture.set_row(y, pixels, rom);
        }
        self.line_memos.lines[slot] = Some(memo);
        true
    }

    /// Keeps raster line `line` as just drawn (into picture row `row`) in its memo, with its
    /// key.
    #[inline(never)]
    fn remember_line(&mut self, line: u16, row: Option<usize>, key: LineKey) {
        let row = row.map(|y| {
            let (pixels, rom) = self.picture.row(y);
            (pixels.to_vec(), rom.to_vec())
        });
        self.line_memos.lines[usize::from(line)] = Some(Box::new(LineMemo {
            key,
            end: self.pipe.clone(),
            row,
        }));
    }

    /// Draws the line just fetched from its record: the pipeline is still where the line
    /// started (the fetch pass changed only the sprite shift registers, which the drawing
    /// loads again from the recorded data).
    fn draw_recorded_line<T: Timing>(&mut self, regs: &[u8], line: u16, inputs: &LineInputs) {
        self.replay::<T>(inputs, |raster, previous, r| {
            raster.draw_cycle::<T>(regs, previous, line, r);
        });
    }

    /// Runs `draw` for each cycle of the line just fetched with the fetch state its drawing
    /// saw then (from the record), and puts the state the fetches left back after.
    pub(super) fn replay<T: Timing>(
        &mut self,
        inputs: &LineInputs,
        mut draw: impl FnMut(&mut Raster, u64, u64),
    ) {
        let fetched = (self.draw_inputs(), self.data);
        let loaded = self.line_memos.loaded;
        for r in 0..T::CYCLES {
            self.set_draw_inputs(inputs.at(r));
            let previous = T::previous(r);
            if let Phi1::SpriteData(n) = T::access(previous) {
                self.data[n] = loaded[n];
            }
            draw(self, previous, r);
        }
        self.set_draw_inputs(fetched.0);
        self.data = fetched.1;
    }

    /// Steps the line's fetches, counters and sprite DMA without drawing, recording what its
    /// drawing takes from them: in one go where [`Raster::fetch_whole_line`] applies.
    fn fetch_line<T: Timing>(&mut self, regs: &[u8], mem: &VicMemory, line: u16) {
        if !self.fetch_whole_line::<T>(regs, mem, line) {
            self.fetch_line_by_steps::<T>(regs, mem, line);
        }
    }

    /// [`Raster::fetch_line`] cycle by cycle.
    pub(super) fn fetch_line_by_steps<T: Timing>(
        &mut self,
        regs: &[u8],
        mem: &VicMemory,
        line: u16,
    ) {
        for r in 0..T::CYCLES {
            self.step::<true, false, T>(regs, mem, r, line);
            self.done += 1;
        }
    }

    /// Records what the drawing of cycle `r` takes from the fetches (a line stepped without
    /// drawing, to be drawn from a memo or the record), and the sprite data a shift register
    /// loads in it (`previous`: the cycle before).
    #[inline]
    pub(super) fn record_draw_inputs<T: Timing>(&mut self, r: u64, previous: u64) {
        let now = self.draw_inputs();
        self.line_memos.recording.record(r, now);
        if let Phi1::SpriteData(n) = T::access(previous) {
            self.line_memos.loaded[n] = self.data[n];
        }
    }

    fn draw_inputs(&self) -> DrawInputs {
        DrawInputs {
            gbuf: self.gbuf,
            gbuf_rom: self.gbuf_rom,
            vborder: self.vborder,
            idle: self.idle,
            main_border: self.main_border,
        }
    }

    fn set_draw_inputs(&mut self, inputs: DrawInputs) {
        self.gbuf = inputs.gbuf;
        self.gbuf_rom = inputs.gbuf_rom;
        self.vborder = inputs.vborder;
        self.idle = inputs.idle;
        self.main_border = inputs.main_border;
    }

    fn fetched_line(&self) -> FetchedLine {
        FetchedLine {
            picture_on: self.picture_on,
            inputs: self.line_memos.recording,
            matrix: self.matrix,
            colour: self.colour,
        }
    }

    /// Steps a line with sprites: its fetches cycle by cycle, recording what its drawing
    /// takes from them; its graphics from the memo if the key matches, else from the record
    /// (and remembered); then sprites, border and colours over them (`sprite_line`).
    pub(super) fn run_sprite_line<T: Timing>(&mut self, regs: &[u8], mem: &VicMemory, line: u16) {
        let start = self.pipe.g.clone();
        // The sprites are drawn after the fetch pass, loading their shift registers as the
        // record says: the fetch pass's loads would come too early.
        let shift = self.pipe.shift;
        self.fetch_line::<T>(regs, mem, line);
        self.pipe.shift = shift;
        let mut cregs = self.pipe.cregs.clone();
        for code in SPRITE_COLOURS {
            cregs.0[code] = 0;
        }
        let key = GraphicsKey {
            regs: [regs[0x11], regs[0x16]],
            start,
            cregs,
            fetched: self.fetched_line(),
        };
        let slot = usize::from(line);
        let memo = match self.graphics_memo(line, T::LINES, &key) {
            Ok(memo) => memo,
            Err(old) => {
                let mut memo = old.unwrap_or_else(|| {
                    Box::new(GraphicsMemo {
                        key: key.clone(),
                        end: GraphicsPipe::default(),
                        render: [[0; 8]; MAX_CYCLES],
                        foreground: [0; MAX_CYCLES],
                        rom: [[0; 8]; MAX_CYCLES],
                    })
                });
                self.replay::<T>(&key.fetched.inputs, |raster, previous, r| {
                    raster.draw_graphics(regs, previous);
                    let (p, r) = (&raster.pipe, r as usize);
                    memo.render[r] = p.render;
                    memo.foreground[r] = p.foreground;
                    memo.rom[r] = p.rom;
                });
                memo.key = key;
                memo.end = self.pipe.g.clone();
                memo
            }
        };
        let graphics = LineGraphics {
            render: &memo.render,
            foreground: &memo.foreground,
            rom: &memo.rom,
        };
        self.draw_over_line::<T>(regs, line, &memo.key.fetched.inputs, graphics);
        self.line_memos.graphics[slot] = Some(memo);
    }

    /// The graphics memo's part of [`Raster::run_sprite_line`] (one copy for every line
    /// timing, so that what it calls is inlined as into one caller): raster line `line`'s
    /// memo (of a frame of `lines`), taken out while in use, if its key is `key`; else the
    /// memo there was, if any.
    #[inline(never)]
    fn graphics_memo(
        &mut self,
        line: u16,
        lines: u64,
        key: &GraphicsKey,
    ) -> Result<Box<GraphicsMemo>, Option<Box<GraphicsMemo>>> {
        if self.line_memos.graphics.len() < lines as usize {
            self.line_memos
                .graphics
                .resize_with(lines as usize, || None);
        }
        match self.line_memos.graphics[usize::from(line)].take() {
            Some(memo) if memo.key == *key => {
                self.pipe.g = memo.end.clone();
                Ok(memo)
            }
            old => Err(old),
        }
    }
}
