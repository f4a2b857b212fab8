//! The VIC-II's raster engine (every model), cycle by cycle: what the chip fetches (matrix,
//! graphics, sprite, refresh and idle accesses), its counters (VC, VCBASE, RC, VMLI, the
//! idle and display states), the border flip-flops, the sprite DMA and display logic, and
//! the pixel pipeline that draws the picture and finds the collisions.
//!
//! Line cycles `r` are 0-62 on the 6569 (the usual descriptions' cycles 1-63, as in
//! `dma.rs`), 0-64 and 0-63 on the NTSC chips: each model's line is a [`timing`]. One
//! [`Raster::step`] is the chip's work from the second half of cycle r-1 (the sprite fetches
//! of phi2) through the second half of cycle r, all before the CPU's access in cycle r: a
//! CPU write in cycle r is seen from step r+1 on. The drawing works one cycle behind the
//! fetches (the sequencers shift out the previous cycle's data) and resolves colour
//! registers a cycle later still, as the chip's pipeline does. VICE's x64sc keeps the same
//! order, so our picture and its screenshots agree pixel for pixel.
//!
//! Two speeds: with the picture off and no sprite enabled or fetching nothing a program can
//! see depends on what the chip reads or draws, so the engine only keeps its counters
//! ([`Raster::needs_pixels`] decides); otherwise it fetches and draws every cycle, a whole
//! line at a time where nothing changes in it (`fetch_line`, `line_memo`, `sprite_line`:
//! the same result as the line's steps, on every model's line).

mod fetch_line;
mod line_memo;
mod sprite_line;
mod timing;

use super::dma::{
    BAD_LINE_BA, DEN_LINE, DMA_CHECK_1, DMA_CHECK_2, LAST_BAD_LINE, SPRITE_CRUNCH, UPDATE_MCBASE,
};
use super::model::{Phi1, VicModel, SPRITE_EXPAND_CYCLE};
use super::picture::{Picture, FIRST_LINE, HEIGHT, WIDTH};
use crate::PAL_CYCLES_PER_LINE;
use line_memo::LineMemos;
use timing::{Ntsc64, Ntsc65, Pal, Timing};

/// What the VIC-II can read: the RAM of its 16K bank, the character ROM (at $1000-$1FFF of
/// banks 0 and 2) and colour RAM.
pub struct VicMemory<'a> {
    pub ram: &'a [u8; 0x10000],
    pub char_rom: &'a [u8; 0x1000],
    pub colour: &'a [u8; 0x400],
    /// The bank, 0-3 ($0000, $4000, $8000, $C000), as CIA 2 selects it.
    pub bank: u8,
}

impl VicMemory<'_> {
    /// A fetch at the VIC's 14-bit address `addr`: the value and whether it came from the
    /// character ROM.
    #[inline]
    fn read(&self, addr: u16) -> (u8, bool) {
        let a = addr & 0x3FFF;
        if char_rom_at(self.bank, a) {
            (self.char_rom[usize::from(a & 0x0FFF)], true)
        } else {
            (
                self.ram[usize::from(self.bank & 3) * 0x4000 + usize::from(a)],
                false,
            )
        }
    }

    fn is_char_rom(&self, addr: u16) -> bool {
        char_rom_at(self.bank, addr)
    }
}

/// Whether the VIC's address `addr` (14 bits) in `bank` reads the character ROM: $1000-$1FFF
/// of banks 0 and 2.
const fn char_rom_at(bank: u8, addr: u16) -> bool {
    bank & 1 == 0 && addr & 0x3000 == 0x1000
}

/// The 256-byte pages of the VIC's bank whose RAM its fetches may read (bit p: bank offset
/// $p00-$pFF): in any line, and only in a bad line's matrix fetches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FetchedPages {
    pub every_line: u64,
    pub bad_lines: u64,
}

/// Line cycle `r`'s phi1 access on the 6569 (the engine's hot path; [`VicModel::phi1_access`]
/// is every model's, and agrees).
const fn phi1_access(r: u64) -> Phi1 {
    match r {
        0..=9 => {
            let n = 3 + (r / 2) as usize;
            if r & 1 == 0 {
                Phi1::SpritePointer(n)
            } else {
                Phi1::SpriteData(n)
            }
        }
        10..=14 => Phi1::Refresh,
        15..=54 => Phi1::Graphics,
        55 | 56 => Phi1::Idle,
        _ => {
            let n = ((r - 57) / 2) as usize;
            if (r - 57) & 1 == 0 {
                Phi1::SpritePointer(n)
            } else {
                Phi1::SpriteData(n)
            }
        }
    }
}

const _: () = {
    let mut r = 0;
    while r < PAL_CYCLES_PER_LINE {
        let (a, b) = (phi1_access(r), VicModel::Mos6569.phi1_access(r));
        assert!(match (a, b) {
            (Phi1::SpritePointer(m), Phi1::SpritePointer(n)) => m == n,
            (Phi1::SpriteData(m), Phi1::SpriteData(n)) => m == n,
            (Phi1::Refresh, Phi1::Refresh)
            | (Phi1::Graphics, Phi1::Graphics)
            | (Phi1::Idle, Phi1::Idle) => true,
            _ => false,
        });
        r += 1;
    }
};

/// Line cycle `r`'s phi1 access on `model` (a table lookup but on the 6569).
#[inline(always)]
fn access_of(model: VicModel, r: u64) -> Phi1 {
    match model {
        VicModel::Mos6569 | VicModel::Mos8565 => Pal::access(r),
        VicModel::Mos6567R8 | VicModel::Mos8562 => Ntsc65::access(r),
        VicModel::Mos6567R56A => Ntsc64::access(r),
    }
}

/// Whether the phi2 after cycle `now` is a sprite data fetch, which reads the internal bus
/// while the CPU still has the bus (so a register read in `now` can be seen).
pub(super) fn sprite_fetch_follows(model: VicModel, now: u64) -> bool {
    matches!(
        access_of(model, model.line_cycle(now)),
        Phi1::SpritePointer(_) | Phi1::SpriteData(_)
    )
}

/// At most this many deferred bus values wait for the engine: a raster poll reads every
/// few cycles (16 of a line's cycles are sprite fetches), and the CPU waits for the bus in
/// each bad line and sprite DMA; about a frame's worth of a polling loop.
const MAX_DEFERRED_BUS_VALUES: usize = 1024;

/// The cycle a deferred value is taken in: the CPU's from its cycle, a register read's in
/// the next (its phi2 sprite fetch is stepped with that cycle).
const fn due((at, _, bus): (u64, u8, DeferredBus)) -> u64 {
    match bus {
        DeferredBus::Cpu => at,
        DeferredBus::Internal => at + 1,
    }
}

/// Which bus a value the engine has not reached yet was driven on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DeferredBus {
    /// A register read drove the chip's internal bus (a sprite fetch in the next phi2 sees
    /// it).
    Internal,
    /// The CPU drives the data bus in phi2 from then on (its I/O write, or the read it waits
    /// on while BA is low): a matrix fetch in the 3 cycles after BA fell reads it.
    Cpu,
}

/// The line cycles whose phi2 may fetch the video matrix (and whose graphics are in the
/// 40 columns).
const MATRIX_CYCLES: std::ops::RangeInclusive<u64> = 14..=53;
/// Line cycles with a graphics fetch and nothing else to do but the border's top and
/// bottom and the bad line's matrix fetches ([`Raster::step_middle`]).
const MIDDLE_CYCLES: std::ops::RangeInclusive<u64> = 18..=53;
const UPDATE_VC: u64 = 13;
/// The left border ends here with 40 columns (CSEL set), one cycle later with 38.
const BORDER_LEFT_40: u64 = 16;
const BORDER_LEFT_38: u64 = 17;
const SPRITE_EXPAND: u64 = SPRITE_EXPAND_CYCLE;
const _: () = assert!(SPRITE_EXPAND == DMA_CHECK_2);
/// The right border starts here with 38 columns, one cycle later with 40.
const BORDER_RIGHT_38: u64 = 55;
const BORDER_RIGHT_40: u64 = 56;
const SPRITE_DISPLAY: u64 = 57;
const UPDATE_RC: u64 = 57;
/// The first and last lines that can be bad lines (DEN is looked at during the first).
const FIRST_DMA_LINE: u16 = DEN_LINE as u16;
const LAST_DMA_LINE: u16 = LAST_BAD_LINE as u16;
/// Where the vertical border ends and starts, for 25 and 24 rows.
const TOP_25: u16 = 0x33;
const TOP_24: u16 = 0x37;
const BOTTOM_25: u16 = 0xFB;
const BOTTOM_24: u16 = 0xF7;

/// The X coordinate the sprite sequencers compare with in the cycle after line cycle `r`
/// (the X of its phi1, to the 8-pixel cell): cycle 0 is at $194, X wraps at $1F8.
const fn sprite_x_of(r: u64) -> u16 {
    (((0x194 + 8 * r) % 0x1F8) & 0x1F8) as u16
}

/// The pixels of a cycle at which the sprite sequencers change state (see
/// [`Raster::sprite_event`]): in the cycle after a sprite's second data byte (phi1) it
/// stops showing; in the cycle after its pointer it halts; its shift register loads in the
/// cycle after its data (and the sprites to show are taken after cycle 57); the priority
/// and X expansion registers are taken; the multicolour register is taken and a halted
/// sprite goes on.
const SPRITE_STOP_PIXEL: u16 = 2;
const SPRITE_HALT_PIXEL: u16 = 3;
const SPRITE_LOAD_PIXEL: u16 = 4;
const SPRITE_REGS_PIXEL: u16 = 6;
const SPRITE_RESUME_PIXEL: u16 = 7;

/// The pixels drawn after line cycle 0 on (X $194 on) left of the picture's first column.
const PICTURE_LEFT: usize = 104;

/// Colour codes in the drawing pipeline: 0-15 are colours, these name a register whose
/// value is looked up when the pixel leaves the pipeline.
const BORDER: u8 = 0x20;
const BACKGROUND_0: u8 = 0x21;
const BACKGROUND_1: u8 = 0x22;
const BACKGROUND_2: u8 = 0x23;
const SPRITE_MC_0: u8 = 0x25;
const SPRITE_MC_1: u8 = 0x26;
const SPRITE_COLOUR_0: u8 = 0x27;
/// What the 8565/8562 show for a pixel whose colour register changes as it is looked up
/// (light grey; `ModelFacts::new_chip`).
const GREY_DOT: u8 = 15;

/// The graphics part of the drawing pipeline: what only the graphics depend on and change.
#[derive(Clone, Default, PartialEq, Eq)]
struct GraphicsPipe {
    // Graphics: the fetched bytes go through two pipeline stages, then into the sequencer
    // at the pixel XSCROLL says.
    g_pipe: [u8; 2],
    c_pipe: [u8; 2],
    v_pipe: [u8; 2],
    rom_pipe: [bool; 2],
    xscroll: u8,
    /// ECM/BMM (bits 4 and 3) and MCM (bit 2) as the sequencer sees them.
    mode_11: u8,
    mode_16: u8,
    mode_16_late: u8,
    shifter: u8,
    shifter_rom: bool,
    mc_flop: bool,
    pixel: u8,
    colour: u8,
    matrix: u8,
    /// Index into the line's matrix buffer (the drawing's VMLI: it counts display-state cells).
    column: usize,
    // What the cell in the shifter shows, worked out when the cell, the mode or a colour
    // register changes (`cell_ready` false) rather than for every pixel: whether it is drawn
    // in multicolour, the pixel value of a set hires bit, the colour code of each pixel
    // value, and the ROM colours mask of its pixels (see `Picture::rom_colours`).
    cell_ready: bool,
    cell_multicolour: bool,
    hires_on: u8,
    /// Packed, pixel value n's code in byte n (one store when the cell changes, one load
    /// per run of pixels).
    codes: u32,
    rom_mask: u16,
}

/// The drawing pipeline's state (everything between the fetches and the picture).
#[derive(Clone, Default, PartialEq, Eq)]
struct Pipeline {
    /// The graphics sequencer and the stages before it.
    g: GraphicsPipe,
    // Sprites.
    sprite_x: [u16; 8],
    /// Bit r: some sprite's X position lies in the 8 pixels drawn after cycle r (from
    /// `sprite_x`): elsewhere no sprite can start.
    start_cycles: u64,
    priority: u8,
    multicolour: u8,
    x_expand: u8,
    pending: u8,
    active: u8,
    halted: u8,
    shift: [u32; 8],
    sprite_pixel: [u8; 8],
    x_expand_flops: u8,
    mc_flops: u8,
    border: bool,
    // This cycle's 8 pixels (colour codes), whether each is foreground graphics, and the
    // colours a character-ROM pixel could have been (0: not from ROM).
    render: [u8; 8],
    /// Bit i: pixel i is foreground graphics.
    foreground: u8,
    rom: [u16; 8],
    // The previous cycle's pixels, resolved one pixel ahead of output.
    out: [u8; 8],
    out_rom: [u16; 8],
    /// The colour code of `out[0]` (which is looked up a cycle early): the 8565's grey dot
    /// shows where it names the colour register written as it leaves.
    out0_code: u8,
    /// Colour registers as the output stage sees them (0-15 map to themselves).
    cregs: ColourRegisters,
    /// The CPU's last colour register write, and the one the output stage applies next.
    colour_write: Option<(u8, u8)>,
    colour_latched: Option<(u8, u8)>,
}

impl GraphicsPipe {
    fn refresh_cell(&mut self, cregs: &ColourRegisters, picture_on: bool) {
        let multicolour_cell = self.mode_11 & 0x08 != 0 || self.colour & 0x08 != 0;
        self.cell_multicolour = self.mode_16_late != 0 && multicolour_cell;
        self.hires_on = if self.mode_16_late == 0 && multicolour_cell {
            2
        } else {
            3
        };
        let mode = self.mode_11 | self.mode_16;
        self.codes = u32::from_le_bytes(cell_codes(mode, self.matrix, self.colour));
        self.rom_mask = 0;
        if picture_on && self.shifter_rom {
            // Every colour the cell could show here, whatever the ROM's bits.
            let alternatives: &[u8] = if self.cell_multicolour {
                &[0, 1, 2, 3]
            } else {
                &[0, self.hires_on]
            };
            for &alt in alternatives {
                let code = code_of(self.codes, alt);
                self.rom_mask |= 1 << (cregs[usize::from(code)] & 0x0F);
            }
        }
    }
}

/// The colour registers as the output stage sees them, by colour code (64 entries, so a
/// code's lookup needs no bounds check: codes are below $2F).
#[derive(Clone, PartialEq, Eq)]
struct ColourRegisters([u8; 64]);

impl Default for ColourRegisters {
    /// Codes 0-15 are themselves; the registers start at 0.
    fn default() -> Self {
        ColourRegisters(std::array::from_fn(|i| if i < 16 { i as u8 } else { 0 }))
    }
}

impl std::ops::Index<usize> for ColourRegisters {
    type Output = u8;
    #[inline]
    fn index(&self, code: usize) -> &u8 {
        &self.0[code & 63]
    }
}

impl ColourRegisters {
    /// Colour register `reg` ($20-$2E) now holds `value` (4 bits).
    fn set(&mut self, reg: u8, value: u8) {
        self.0[usize::from(reg & 63)] = value & 0x0F;
    }
}

/// The engine: fetch state, sprite logic, pipeline and picture.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Raster {
    /// The next cycle to step.
    pub done: u64,
    vc: u16,
    vcbase: u16,
    rc: u8,
    vmli: usize,
    idle: bool,
    bad_line: bool,
    allow_bad_lines: bool,
    matrix: [u8; 64],
    colour: [u8; 64],
    gbuf: u8,
    gbuf_rom: bool,
    refresh: u8,
    /// Counts down the 3 cycles after BA fell, in which the CPU still has the bus.
    prefetch: u8,
    /// $D011 as of the previous cycle (a graphics fetch's mode lags by a cycle).
    d011_delayed: u8,
    last_bus_phi2: u8,
    /// What the last phi1 fetch read (what the C64 sees on open I/O).
    pub last_phi1: u8,
    vborder: bool,
    set_vborder: bool,
    main_border: bool,
    // Sprites.
    dma: u8,
    display: u8,
    expand_flop: u8,
    mc: [u8; 8],
    mcbase: [u8; 8],
    pointer: [u8; 8],
    data: [u32; 8],
    /// The collision latches ($D01E, $D01F).
    pub sprite_sprite: u8,
    pub sprite_background: u8,
    /// A read of $D01E or $D01F clears it after the next cycle's drawing.
    pub clear_collisions: u8,
    /// Collision interrupt flags raised ($D019 bits 1 and 2) not yet taken by the chip.
    pub raised: u8,
    pipe: Pipeline,
    /// An X register ($D000-$D010) was written since the sequencers last took the X
    /// positions.
    pub sprite_x_stale: bool,
    pub picture_on: bool,
    /// A program read open I/O (the last fetch): fetch every cycle from then on.
    pub keep_fetching: bool,
    pub picture: Box<Picture>,
    /// Sprite-free lines as last drawn (see [`line_memo`]).
    line_memos: LineMemos,
    /// What the CPU drives on the data bus in phi2, as of the cycle the engine has reached.
    cpu_bus: u8,
    /// Values driven on a bus in cycles the engine has not reached yet (cycle, value, bus),
    /// oldest first.
    deferred_bus: std::collections::VecDeque<(u64, u8, DeferredBus)>,
    /// The cycle the first of `deferred_bus` is due in (`u64::MAX`: none waits).
    bus_due: u64,
    /// Whether sprite-free lines may be drawn from the memo (off only to test that it
    /// changes nothing).
    pub line_memo: bool,
    /// The chip's model: its lines, line length and where its extra idle cycles are.
    pub model: VicModel,
}

impl std::fmt::Debug for Raster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Raster(up to cycle {})", self.done)
    }
}

impl Default for Raster {
    fn default() -> Self {
        Raster::drawing_into(Picture::default())
    }
}

impl Raster {
    /// A raster engine at power-on that draws into `picture`.
    pub fn drawing_into(picture: Picture) -> Self {
        Raster {
            done: 0,
            vc: 0,
            vcbase: 0,
            rc: 0,
            vmli: 0,
            idle: true,
            bad_line: false,
            allow_bad_lines: false,
            matrix: [0; 64],
            colour: [0; 64],
            gbuf: 0,
            gbuf_rom: false,
            refresh: 0xFF,
            prefetch: 4,
            d011_delayed: 0,
            last_bus_phi2: 0xFF,
            last_phi1: 0xFF,
            vborder: true,
            set_vborder: true,
            main_border: true,
            dma: 0,
            display: 0,
            expand_flop: 0xFF,
            mc: [0; 8],
            mcbase: [0; 8],
            pointer: [0; 8],
            data: [0; 8],
            sprite_sprite: 0,
            sprite_background: 0,
            clear_collisions: 0,
            raised: 0,
            pipe: Pipeline::default(),
            sprite_x_stale: true,
            picture_on: false,
            keep_fetching: false,
            picture: Box::new(picture),
            line_memos: LineMemos::default(),
            cpu_bus: 0xFF,
            deferred_bus: std::collections::VecDeque::new(),
            bus_due: u64::MAX,
            line_memo: true,
            model: VicModel::Mos6569,
        }
    }
}

impl Raster {
    /// The sprites whose DMA is on (as of the cycle the engine has reached).
    pub fn sprite_dma_on(&self) -> u8 {
        self.dma
    }

    /// Whether the engine must fetch and draw: the picture is wanted, or a program looks at
    /// what only drawing finds (the collision registers or their interrupts, open I/O), or
    /// a sprite is still being drawn. Otherwise it keeps only its counters and the sprite
    /// DMA, which cost little (sprites cost the CPU cycles either way: `dma.rs`).
    pub fn needs_pixels(&self) -> bool {
        self.picture_on || self.keep_fetching || self.pipe.active != 0
    }

    /// Draw from now on (the cell's ROM colours are worked out only for a picture).
    pub fn enable_picture(&mut self) {
        self.picture_on = true;
        self.pipe.g.cell_ready = false;
    }

    /// Steps every cycle up to and including `to`.
    pub fn run_to(&mut self, regs: &[u8], mem: &VicMemory, to: u64) {
        if to < self.done {
            return;
        }
        if !self.model.is_pal() {
            self.run_to_ntsc(regs, mem, to);
            return;
        }
        self.run_to_on::<Pal>(regs, mem, to);
    }

    /// [`Raster::run_to`] on a model whose lines are longer than the 6569's.
    #[inline(never)]
    fn run_to_ntsc(&mut self, regs: &[u8], mem: &VicMemory, to: u64) {
        if self.model.timing() == VicModel::Mos6567R56A {
            self.run_to_on::<Ntsc64>(regs, mem, to);
        } else {
            self.run_to_on::<Ntsc65>(regs, mem, to);
        }
    }

    /// [`Raster::run_to`] on the line timing `T` (the model's).
    #[inline(always)]
    fn run_to_on<T: Timing>(&mut self, regs: &[u8], mem: &VicMemory, to: u64) {
        if self.needs_pixels() {
            self.steps::<true, T>(regs, mem, to);
            return;
        }
        // Counters only. With the registers unchanged, a whole frame leaves them as the
        // frame before did: after one full frame, skip the frames in between.
        let frame = T::CYCLES * T::LINES;
        if to - self.done > 3 * frame {
            let first = self.done + frame;
            self.steps::<false, T>(regs, mem, first - 1);
            let frames = (to - self.done) / frame - 1;
            self.done += frames * frame;
            self.picture.frames += frames;
        }
        self.steps::<false, T>(regs, mem, to);
    }

    /// Steps from `done` through `to`, counting line cycles and lines as it goes.
    #[inline]
    fn steps<const PIXELS: bool, T: Timing>(&mut self, regs: &[u8], mem: &VicMemory, to: u64) {
        let mut r = self.done % T::CYCLES;
        let mut line = (self.done / T::CYCLES % T::LINES) as u16;
        while self.done <= to {
            if PIXELS && self.line_memo && r == 0 && to - self.done >= T::CYCLES - 1 {
                // A whole line with nothing waiting from a write: fetched, then drawn from a
                // memo or the record.
                let alike = self.drawn_as_on_the_6569(regs);
                if alike && self.sprite_free(regs, line) {
                    self.run_memo_line::<T>(regs, mem, line);
                    line = (line + 1) % T::LINES as u16;
                    continue;
                }
                if alike && self.steady() {
                    self.run_sprite_line::<T>(regs, mem, line);
                    line = (line + 1) % T::LINES as u16;
                    continue;
                }
            }
            self.step::<PIXELS, PIXELS, T>(regs, mem, r, line);
            self.done += 1;
            r += 1;
            if r == T::CYCLES {
                r = 0;
                line += 1;
                if line == T::LINES as u16 {
                    line = 0;
                }
            }
        }
    }

    /// Whether a line about to start is drawn as the 6569 would draw it: on an 8565 only
    /// while no multicolour or ECM/BMM switch is still due (those are where the two draw
    /// differently, and the whole-line paths know the 6569's way).
    #[inline(always)]
    fn drawn_as_on_the_6569(&self, regs: &[u8]) -> bool {
        !self.model.is_new()
            || (self.pipe.multicolour == regs[0x1C]
                && self.pipe.g.mode_11 == (regs[0x11] & 0x60) >> 2)
    }

    /// The frame's last line (the line counter still holds it in line 0's first cycle).
    #[inline(always)]
    fn last_line<T: Timing>(&self) -> u16 {
        T::LINES as u16 - 1
    }

    /// A colour register written by the CPU: the output stage takes it two cycles on.
    pub fn colour_written(&mut self, reg: u8, value: u8) {
        if !self.needs_pixels() {
            // Nothing is drawn: the output stage simply has the new value when it starts.
            self.pipe.cregs.set(reg, value);
            self.pipe.g.cell_ready = false;
            return;
        }
        if let Some((older, v)) = self.pipe.colour_write.replace((reg, value)) {
            // Two writes in one cycle come only from outside the CPU (a loader's pokes):
            // the older one takes effect at once.
            if older != reg {
                self.pipe.cregs.set(older, v);
            }
        }
    }

    /// $D017 written in the cycle the engine last stepped: a sprite whose expansion is
    /// switched off while its flip-flop is clear gets it set, and in cycle 14 its MC is
    /// mixed with MCBASE (sprite crunching).
    pub fn y_expand_written(&mut self, old: u8, value: u8) {
        if old == value {
            return;
        }
        let r = self.model.line_cycle(self.done.saturating_sub(1));
        for n in 0..8 {
            let bit = 1 << n;
            if value & bit == 0 && self.expand_flop & bit == 0 {
                if r == SPRITE_CRUNCH {
                    let (mc, mcbase) = (self.mc[n], self.mcbase[n]);
                    self.mc[n] = (0x2A & (mcbase & mc)) | (0x15 & (mcbase | mc));
                }
                self.expand_flop |= bit;
            }
        }
    }

    /// A register written in this cycle drives the VIC's internal bus (sprite fetches in the
    /// 3 cycles after BA fell read it).
    pub fn bus_written(&mut self, value: u8) {
        self.last_bus_phi2 = value;
    }

    /// A register read in cycle `at`, which the engine has not stepped yet, drove `value` on
    /// the internal bus: the phi2 sprite fetch after it sees it when the engine gets there.
    pub fn defer_bus_read(&mut self, at: u64, value: u8) {
        self.defer((at, value, DeferredBus::Internal));
    }

    fn defer(&mut self, entry: (u64, u8, DeferredBus)) {
        self.deferred_bus.push_back(entry);
        self.update_bus_due();
    }

    fn update_bus_due(&mut self) {
        self.bus_due = self
            .deferred_bus
            .front()
            .map_or(u64::MAX, |&entry| due(entry));
    }

    /// The CPU drives `value` on the data bus in phi2 from cycle `at` on (an I/O write, or a
    /// read waiting for the bus): the engine takes it when it gets there, so a wait in a bad
    /// line need not stop the engine mid-line.
    pub fn cpu_bus_from(&mut self, at: u64, value: u8) {
        if at < self.done {
            self.cpu_bus = value;
        } else {
            self.defer((at, value, DeferredBus::Cpu));
        }
    }

    /// The CPU drives `value` from now on while the engine does not draw: nothing reads it
    /// before the drawing starts (which brings the engine up to date first), so it is taken
    /// at once, and the CPU's older values still waiting are dropped.
    pub fn set_cpu_bus(&mut self, value: u8) {
        self.cpu_bus = value;
        self.deferred_bus
            .retain(|&(_, _, bus)| bus != DeferredBus::Cpu);
        self.update_bus_due();
    }

    /// Whether enough values wait that the engine should catch up first.
    pub fn deferred_bus_full(&self) -> bool {
        self.deferred_bus.len() >= MAX_DEFERRED_BUS_VALUES
    }

    /// The deferred values due in this cycle: the CPU's from its cycle on, a register read's
    /// in the cycle after it.
    fn take_deferred_bus(&mut self) {
        if let Some(value) = self.bus_read_for(self.done) {
            self.last_bus_phi2 = value;
        }
    }

    /// Takes the deferred values due by cycle `now` (which the engine is stepping) off the
    /// list: the CPU's bus value as of `now`, and the register read of the cycle before
    /// `now`, returned.
    fn bus_read_for(&mut self, now: u64) -> Option<u8> {
        let mut read = None;
        while let Some(&entry) = self.deferred_bus.front() {
            if due(entry) > now {
                break;
            }
            match entry {
                (_, value, DeferredBus::Cpu) => self.cpu_bus = value,
                (at, value, DeferredBus::Internal) if at + 1 == now => read = Some(value),
                // A read of a cycle skipped (counters only, whole frames) no longer matters.
                _ => {}
            }
            self.deferred_bus.pop_front();
        }
        self.update_bus_due();
        read
    }

    /// One cycle (see the module documentation for what a step covers).
    #[inline]
    fn step<const PIXELS: bool, const DRAW: bool, T: Timing>(
        &mut self,
        regs: &[u8],
        mem: &VicMemory,
        r: u64,
        line: u16,
    ) {
        if MIDDLE_CYCLES.contains(&r) {
            self.step_middle::<PIXELS, DRAW, T>(regs, mem, r, line);
            return;
        }
        let previous = T::previous(r);

        // Phi2 of the previous cycle: the sprite data fetches that follow a pointer or a
        // second data byte (which see a register read of that cycle on the internal bus).
        if self.done >= self.bus_due {
            self.take_deferred_bus();
        }
        match T::access(previous) {
            Phi1::SpritePointer(n) => self.sprite_phi2_fetch::<PIXELS>(mem, n, 16),
            Phi1::SpriteData(n) => self.sprite_phi2_fetch::<PIXELS>(mem, n, 0),
            _ => {}
        }

        // Phi1.
        self.phi1_fetch::<PIXELS, T>(regs, mem, r);
        self.check_side_border(regs, r, line);
        if PIXELS && !DRAW {
            // Drawn later from a memo or the record: record what the drawing takes from the
            // fetches, and load the sprite shift registers as it would.
            self.record_draw_inputs::<T>(r, previous);
            if let Phi1::SpriteData(n) = T::access(previous) {
                self.pipe.shift[n] = self.data[n];
            }
        }
        if DRAW {
            self.draw_cycle::<T>(regs, previous, line, r);
        }

        // Phi2.
        let d011 = regs[0x11];
        if r == 0 {
            self.line_starts::<T>(d011, line);
        }
        if r == 1 && line == 0 {
            self.refresh = 0xFF;
            self.allow_bad_lines = false;
            self.vcbase = 0;
            self.vc = 0;
        }
        // Line 0's count starts a cycle late: its cycle 0 still counts as line 311.
        let counted = if line == 0 && r == 0 {
            self.last_line::<T>()
        } else {
            line
        };
        self.check_vertical_border(d011, counted);
        if r == 0 {
            self.vborder = self.set_vborder;
        }

        self.sprite_dma::<T>(regs, r, counted);
        self.check_bad_line(d011, counted);
        self.update_counters(r);
        self.update_ba::<T>(r);
        // Fetched even while nothing is drawn: `phi1_value` reads the buffer.
        if self.bad_line && MATRIX_CYCLES.contains(&r) {
            self.matrix_fetch(regs, mem);
        }
        self.last_bus_phi2 = 0xFF;
        self.d011_delayed = d011;
    }

    /// [`Raster::step`] for a cycle of [`MIDDLE_CYCLES`], where most of what a step checks
    /// cannot happen: the previous cycle's phi2 fetched no sprite data, the side border
    /// does not change, no sprite DMA or counter update is due, no sprite holds BA, and the
    /// line is not line 0's start. What is left: the graphics fetch, the vertical border,
    /// the bad line condition and its matrix fetch.
    #[inline]
    fn step_middle<const PIXELS: bool, const DRAW: bool, T: Timing>(
        &mut self,
        regs: &[u8],
        mem: &VicMemory,
        r: u64,
        line: u16,
    ) {
        if self.done >= self.bus_due {
            self.take_deferred_bus();
        }
        self.phi1_fetch::<PIXELS, T>(regs, mem, r);
        if PIXELS && !DRAW {
            self.record_draw_inputs::<T>(r, r - 1);
        }
        if DRAW {
            self.draw_cycle::<T>(regs, r - 1, line, r);
        }
        let d011 = regs[0x11];
        self.check_vertical_border(d011, line);
        self.check_bad_line(d011, line);
        if self.bad_line {
            self.prefetch = self.prefetch.saturating_sub(1);
            self.matrix_fetch(regs, mem);
        } else {
            self.prefetch = 4;
        }
        self.last_bus_phi2 = 0xFF;
        self.d011_delayed = d011;
    }

    /// The start of line `line` (phi2 of its cycle 0): the line that just ended decides
    /// whether the frame has bad lines.
    #[inline(always)]
    fn line_starts<T: Timing>(&mut self, d011: u8, line: u16) {
        let ended = if line == 0 {
            self.last_line::<T>()
        } else {
            line - 1
        };
        if ended == FIRST_DMA_LINE && d011 & 0x10 != 0 {
            self.allow_bad_lines = true;
        }
        if ended == LAST_DMA_LINE {
            self.allow_bad_lines = false;
        }
        self.bad_line = false;
        if line == 0 {
            self.picture.frames += 1;
        }
    }

    /// The sprite DMA logic in (phi2 of) line cycle `r` of line `counted` (the 6569's or,
    /// on NTSC, the model's: its DMA checks come a cycle later).
    #[inline(always)]
    fn sprite_dma<T: Timing>(&mut self, regs: &[u8], r: u64, counted: u16) {
        if T::NTSC {
            let [a, b] = T::MODEL.facts().sprite_dma_checks;
            match r {
                UPDATE_MCBASE | SPRITE_DISPLAY => self.sprite_dma_6569(regs, r, counted),
                _ if r == a || r == b => {
                    self.sprite_dma_check(regs, counted);
                    if r == SPRITE_EXPAND {
                        self.expand_flop ^= self.dma & regs[0x17];
                    }
                }
                SPRITE_EXPAND => self.expand_flop ^= self.dma & regs[0x17],
                _ => {}
            }
        } else {
            self.sprite_dma_6569(regs, r, counted);
        }
    }

    /// Enabled sprites without DMA whose Y matches line `counted` start it.
    #[inline(always)]
    fn sprite_dma_check(&mut self, regs: &[u8], counted: u16) {
        let candidates = regs[0x15] & !self.dma;
        for n in 0..8 {
            let bit = 1 << n;
            if candidates & bit != 0 && u16::from(regs[2 * n + 1]) == counted & 0xFF {
                self.dma |= bit;
                self.mcbase[n] = 0;
                self.expand_flop |= bit;
            }
        }
    }

    /// [`Raster::sprite_dma`] on the 6569.
    #[inline(always)]
    fn sprite_dma_6569(&mut self, regs: &[u8], r: u64, counted: u16) {
        match r {
            UPDATE_MCBASE => {
                for n in 0..8 {
                    if self.expand_flop & (1 << n) != 0 {
                        self.mcbase[n] = self.mc[n];
                        if self.mcbase[n] == 63 {
                            self.dma &= !(1 << n);
                        }
                    }
                }
            }
            DMA_CHECK_1 | DMA_CHECK_2 => {
                self.sprite_dma_check(regs, counted);
                if r == SPRITE_EXPAND {
                    self.expand_flop ^= self.dma & regs[0x17];
                }
            }
            SPRITE_DISPLAY => {
                // A sprite without DMA goes off; one with DMA comes on where its Y matches.
                self.mc = self.mcbase;
                self.display &= self.dma;
                let shown = self.dma & regs[0x15];
                for n in 0..8 {
                    let bit = 1 << n;
                    if shown & bit != 0 && u16::from(regs[2 * n + 1]) == counted & 0xFF {
                        self.display |= bit;
                    }
                }
            }
            _ => {}
        }
    }

    /// VC, VMLI and RC in (phi2 of) line cycle `r`, after the bad line condition.
    #[inline(always)]
    fn update_counters(&mut self, r: u64) {
        if r == UPDATE_VC {
            self.vc = self.vcbase;
            self.vmli = 0;
            if self.bad_line {
                self.rc = 0;
            }
        }
        if r == UPDATE_RC {
            if self.rc == 7 {
                self.idle = true;
                self.vcbase = self.vc;
            }
            if !self.idle || self.bad_line {
                self.rc = (self.rc + 1) & 7;
                self.idle = false;
            }
        }
    }

    /// BA in line cycle `r`: the count of cycles since it fell (the CPU keeps the bus for 3).
    #[inline(always)]
    fn update_ba<T: Timing>(&mut self, r: u64) {
        let sprites = T::sprite_ba(r);
        let ba_low = (self.bad_line && BAD_LINE_BA.contains(&r)) || self.dma & sprites != 0;
        if ba_low {
            self.prefetch = self.prefetch.saturating_sub(1);
        } else {
            self.prefetch = 4;
        }
    }

    /// The bad line condition in a cycle of line `counted` (DEN in line $30 allows bad
    /// lines for the frame; YSCROLL matching the line makes one and ends idle state).
    #[inline]
    fn check_bad_line(&mut self, d011: u8, counted: u16) {
        if counted == FIRST_DMA_LINE && !self.allow_bad_lines {
            self.allow_bad_lines = d011 & 0x10 != 0;
        }
        if self.allow_bad_lines {
            self.bad_line = counted & 7 == u16::from(d011 & 7);
            if self.bad_line {
                self.idle = false;
            }
        }
    }

    /// A bad line's matrix fetch (phi2): in the 3 cycles after BA fell the CPU still has
    /// the bus, and the VIC reads $FF and the CPU's bus value's low bits instead.
    #[inline]
    fn matrix_fetch(&mut self, regs: &[u8], mem: &VicMemory) {
        let i = self.vmli & 63;
        (self.matrix[i], self.colour[i]) =
            matrix_fetch_at(regs, mem, self.vc, self.prefetch, self.cpu_bus);
    }

    fn check_vertical_border(&mut self, d011: u8, line: u16) {
        let rsel = d011 & 0x08 != 0;
        if line == if rsel { TOP_25 } else { TOP_24 } && d011 & 0x10 != 0 {
            self.vborder = false;
            self.set_vborder = false;
        }
        if line == if rsel { BOTTOM_25 } else { BOTTOM_24 } {
            self.set_vborder = true;
        }
    }

    fn check_side_border(&mut self, regs: &[u8], r: u64, line: u16) {
        let (left, right) = side_border_cycles(regs[0x16]);
        if r == left {
            let rsel = regs[0x11] & 0x08 != 0;
            if line == if rsel { BOTTOM_25 } else { BOTTOM_24 } {
                self.set_vborder = true;
            }
            self.vborder = self.set_vborder;
            if !self.vborder {
                self.main_border = false;
            }
        }
        if r == right {
            self.main_border = true;
        }
    }

    fn phi1_fetch<const PIXELS: bool, T: Timing>(&mut self, regs: &[u8], mem: &VicMemory, r: u64) {
        let access = T::access(r);
        let value = match access {
            Phi1::Graphics => {
                if self.idle {
                    let addr = idle_address(self.fetch_d011(regs));
                    let (v, rom) = if PIXELS { mem.read(addr) } else { (0, false) };
                    self.gbuf = v;
                    self.gbuf_rom = rom;
                    v
                } else {
                    let v = if PIXELS {
                        let (v, rom) = mem.read(self.graphics_address(regs, mem));
                        self.gbuf_rom = rom;
                        v
                    } else {
                        0
                    };
                    self.gbuf = v;
                    self.vmli += 1;
                    self.vc = (self.vc + 1) & 0x3FF;
                    v
                }
            }
            _ if !PIXELS => {
                match access {
                    Phi1::Refresh => self.refresh = self.refresh.wrapping_sub(1),
                    Phi1::SpriteData(n) if self.dma & (1 << n) != 0 => {
                        self.mc[n] = (self.mc[n] + 1) & 0x3F;
                    }
                    _ => {}
                }
                return;
            }
            Phi1::SpritePointer(n) => self.sprite_pointer_fetch(regs, mem, n),
            Phi1::SpriteData(n) => self.sprite_phi1_fetch(mem, n),
            Phi1::Refresh => {
                let v = mem.read(0x3F00 | u16::from(self.refresh)).0;
                self.refresh = self.refresh.wrapping_sub(1);
                v
            }
            Phi1::Idle => mem.read(0x3FFF).0,
        };
        self.last_phi1 = value;
    }

    /// What the phi1 fetch of cycle `done` (not stepped yet) will read, worked out from the
    /// counters alone, so that it holds while nothing is drawn (the pointers and the last
    /// fetch are then not kept). The phi2 before it (the previous cycle's, stepped with it)
    /// may still add one to a sprite's MC. A sprite's pointer is read again: the CPU has had
    /// no bus since its fetch.
    pub fn phi1_value(&self, regs: &[u8], mem: &VicMemory) -> u8 {
        let r = self.model.line_cycle(self.done);
        let addr = match access_of(self.model, r) {
            Phi1::Graphics if self.idle => idle_address(self.fetch_d011(regs)),
            Phi1::Graphics => self.graphics_address(regs, mem),
            Phi1::SpritePointer(n) => sprite_pointer_address(regs, n),
            Phi1::SpriteData(n) if self.dma & (1 << n) != 0 => {
                let pointer = mem.read(sprite_pointer_address(regs, n)).0;
                (u16::from(pointer) << 6) + u16::from((self.mc[n] + 1) & 0x3F)
            }
            Phi1::SpriteData(_) | Phi1::Idle => 0x3FFF,
            Phi1::Refresh => 0x3F00 | u16::from(self.refresh),
        };
        mem.read(addr).0
    }

    /// Sprite n's pointer fetch (phi1), from the end of the video matrix.
    #[inline(always)]
    fn sprite_pointer_fetch(&mut self, regs: &[u8], mem: &VicMemory, n: usize) -> u8 {
        self.pointer[n] = mem.read(sprite_pointer_address(regs, n)).0;
        self.pointer[n]
    }

    /// Sprite n's middle data byte (phi1): with its DMA on, at its pointer and MC; else the
    /// idle fetch at $3FFF.
    #[inline(always)]
    fn sprite_phi1_fetch(&mut self, mem: &VicMemory, n: usize) -> u8 {
        let v = if self.dma & (1 << n) != 0 {
            let v = mem
                .read((u16::from(self.pointer[n]) << 6) + u16::from(self.mc[n]))
                .0;
            self.mc[n] = (self.mc[n] + 1) & 0x3F;
            v
        } else {
            mem.read(0x3FFF).0
        };
        self.data[n] = (self.data[n] & 0xFF_00FF) | (u32::from(v) << 8);
        v
    }

    /// A sprite's phi2 data fetch (the byte at `shift` in its 24 bits): in the 3 cycles after
    /// BA fell the bus is still the CPU's, and the VIC reads its internal bus instead.
    #[inline(always)]
    fn sprite_phi2_fetch<const PIXELS: bool>(&mut self, mem: &VicMemory, n: usize, shift: u32) {
        let mut value = self.last_bus_phi2;
        if self.dma & (1 << n) != 0 {
            if PIXELS && self.prefetch == 0 {
                value = mem
                    .read((u16::from(self.pointer[n]) << 6) + u16::from(self.mc[n]))
                    .0;
            }
            self.mc[n] = (self.mc[n] + 1) & 0x3F;
        }
        self.data[n] = (self.data[n] & !(0xFF << shift)) | (u32::from(value) << shift);
    }

    /// The 256-byte pages of the bank (bit p: bank offset $p00-$pFF) whose RAM the fetches
    /// may read while the registers and the bank stay as they are, in two masks: those any
    /// line may read (the character set, the bitmap in (or a cycle after) bitmap mode, their
    /// images under the ECM address mask, the idle and refresh fetches' page, the sprite
    /// pointers' page and the sprites' data blocks as the pointers latched and in RAM
    /// (`bank_ram`, the bank's 16K) say), and those only a bad line's matrix fetches read
    /// (the rest of the video matrix). The character ROM's pages are not RAM the chip reads.
    pub fn pages_read(&self, regs: &[u8], bank: u8, bank_ram: &[u8]) -> FetchedPages {
        self.pages_read_by(regs, bank, bank_ram, 0xFF)
    }

    /// [`Raster::pages_read`] with the data blocks of the sprites in `sprites` only (bit n:
    /// sprite n).
    pub fn pages_read_by(
        &self,
        regs: &[u8],
        bank: u8,
        bank_ram: &[u8],
        sprites: u8,
    ) -> FetchedPages {
        let d018 = u16::from(regs[0x18]);
        let modes = regs[0x11] | self.d011_delayed;
        let screen = (d018 & 0xF0) << 6;
        let pages_of = |from: u16, len: u16| {
            let mut pages = 0u64;
            for page in (from >> 8)..((from + len) >> 8) {
                pages |= 1 << (page & 0x3F);
                if modes & 0x40 != 0 {
                    pages |= 1 << (page & 0x39);
                }
            }
            pages
        };
        let pointers = screen + 0x3F8;
        let mut every_line = pages_of(pointers, 8) | pages_of((d018 & 0x0E) << 10, 0x800);
        if modes & 0x20 != 0 {
            every_line |= pages_of((d018 & 0x08) << 10, 0x2000);
        }
        // Idle fetches ($3FFF, $39FF with ECM) and refresh ($3F00-$3FFF).
        every_line |= pages_of(0x3F00, 0x100);
        for n in (0..8).filter(|n| sprites & (1 << n) != 0) {
            let in_ram = bank_ram.get(usize::from(pointers) + n).copied();
            for pointer in [Some(self.pointer[n]), in_ram].into_iter().flatten() {
                every_line |= 1 << (pointer >> 2);
            }
        }
        let mut bad_lines = (0xF_u64 << (screen >> 8)) & !every_line;
        if bank & 1 == 0 {
            let rom = !(0xFFFF << (0x1000 >> 8));
            every_line &= rom;
            bad_lines &= rom;
        }
        FetchedPages {
            every_line,
            bad_lines,
        }
    }

    /// The graphics fetch's address in display state. On the 6569 BMM takes effect a cycle
    /// early for the fetch; and a switch from a RAM to a character-ROM address keeps the old
    /// address's low byte.
    fn graphics_address(&self, regs: &[u8], mem: &VicMemory) -> u16 {
        let now = regs[0x11];
        let before = self.d011_delayed;
        if self.model.is_new() {
            // The 8565/8562 fetch with the modes of the cycle before.
            return self.graphics_address_in(regs, before);
        }
        let addr = self.graphics_address_in(regs, now | (before & 0x20));
        if (now ^ before) & 0x20 != 0 {
            let from = self.graphics_address_in(regs, before);
            let to = self.graphics_address_in(regs, now);
            if !mem.is_char_rom(from) && mem.is_char_rom(to) {
                return (from & 0xFF) | (to & 0x3F00);
            }
        }
        addr
    }

    /// The $D011 an idle graphics fetch takes ECM from: the 8565/8562 the cycle before's.
    #[inline(always)]
    fn fetch_d011(&self, regs: &[u8]) -> u8 {
        if self.model.is_new() {
            self.d011_delayed
        } else {
            regs[0x11]
        }
    }

    fn graphics_address_in(&self, regs: &[u8], d011: u8) -> u16 {
        graphics_address_of(
            d011,
            regs[0x18],
            self.vc,
            self.rc,
            self.matrix[self.vmli & 63],
        )
    }

    // ---- The drawing pipeline -------------------------------------------------------

    /// The drawing of cycle `r` (in phi1, after the fetch): the 8 pixels of the cycle after
    /// `previous` (whose fetches they show), the cycle before's put into the picture, with
    /// the collision latches it sets or a read cleared and the interrupts they raise.
    fn draw_cycle<T: Timing>(&mut self, regs: &[u8], previous: u64, line: u16, r: u64) {
        self.draw_graphics(regs, previous);
        self.draw_over_graphics::<T>(regs, previous, line, r);
    }

    /// What the drawing of a cycle does on top of its graphics pixels: the sprites (and the
    /// collisions they find), the border and the output stage.
    // Inlined into each model's drawing, as into the one it was before there were two.
    #[inline(always)]
    fn draw_over_graphics<T: Timing>(&mut self, regs: &[u8], previous: u64, line: u16, r: u64) {
        let (ss_before, sb_before) = (self.sprite_sprite, self.sprite_background);
        self.draw_sprites::<T>(regs, previous);
        self.draw_border(regs);
        self.draw_colours::<T>(line, r);
        match self.clear_collisions {
            0x1E => self.sprite_sprite = 0,
            0x1F => self.sprite_background = 0,
            _ => {}
        }
        self.clear_collisions = 0;
        self.raise_collision_flags(ss_before, sb_before);
    }

    /// A collision latch that was clear and is not raises its interrupt flag ($D019 bit 2:
    /// sprite-sprite, bit 1: sprite-background).
    fn raise_collision_flags(&mut self, ss_before: u8, sb_before: u8) {
        if ss_before == 0 && self.sprite_sprite != 0 {
            self.raised |= 0x04;
        }
        if sb_before == 0 && self.sprite_background != 0 {
            self.raised |= 0x02;
        }
    }

    fn draw_graphics(&mut self, regs: &[u8], previous: u64) {
        let visible = MATRIX_CYCLES.contains(&previous);
        let p = &self.pipe;
        let mode_16 = (regs[0x16] & 0x10) >> 2;
        if p.g.mode_16 == mode_16
            && p.g.mode_16_late == mode_16
            && p.g.mode_11 == (regs[0x11] & 0x60) >> 2
        {
            // No mode edge at pixels 4, 6 or 7 (see below): the cell changes only at the
            // pixel XSCROLL says, so the cycle is two runs of one cell each.
            let xscroll = usize::from(p.g.xscroll);
            self.graphics_run(0, xscroll);
            self.load_cell();
            self.graphics_run(xscroll, 8);
        } else {
            self.graphics_pixels_with_mode_edges(regs, self.model.is_new());
        }
        self.feed_graphics(regs, visible);
    }

    /// The cycle's 8 graphics pixels when a mode bit changes in it. MCM is taken at pixel 4
    /// on every chip; ECM and BMM on the 6569 and 6567s at pixels 4 (rising) and 6
    /// (falling), on the 8565/8562 (`new_chip`) after the cycle's pixels.
    fn graphics_pixels_with_mode_edges(&mut self, regs: &[u8], new_chip: bool) {
        let ecm_bmm = (regs[0x11] & 0x60) >> 2;
        for i in 0..8 {
            let p = &mut self.pipe;
            match i {
                4 => {
                    let (m16, m11) = (p.g.mode_16, p.g.mode_11);
                    p.g.mode_16 = (regs[0x16] & 0x10) >> 2;
                    if !new_chip {
                        p.g.mode_11 |= ecm_bmm;
                    }
                    p.g.cell_ready &= m16 == p.g.mode_16 && m11 == p.g.mode_11;
                }
                6 if !new_chip => {
                    let m11 = p.g.mode_11;
                    p.g.mode_11 &= ecm_bmm;
                    p.g.cell_ready &= m11 == p.g.mode_11;
                }
                7 => {
                    if p.g.mode_16 != 0 && p.g.mode_16_late == 0 {
                        p.g.mc_flop = false;
                    }
                    p.g.cell_ready &= p.g.mode_16_late == p.g.mode_16;
                    p.g.mode_16_late = p.g.mode_16;
                }
                _ => {}
            }
            if i == usize::from(self.pipe.g.xscroll) {
                self.load_cell();
            }
            self.graphics_pixel(i);
        }
        if new_chip {
            let p = &mut self.pipe;
            let m11 = p.g.mode_11;
            p.g.mode_11 = ecm_bmm;
            p.g.cell_ready &= m11 == p.g.mode_11;
        }
    }

    /// The fetched bytes move one stage on; this cycle's enter the pipeline.
    fn feed_graphics(&mut self, regs: &[u8], visible: bool) {
        let p = &mut self.pipe;
        p.g.g_pipe[1] = p.g.g_pipe[0];
        p.g.c_pipe[1] = p.g.c_pipe[0];
        p.g.v_pipe[1] = p.g.v_pipe[0];
        p.g.rom_pipe[1] = p.g.rom_pipe[0];
        if visible && !self.vborder {
            p.g.g_pipe[0] = self.gbuf;
            p.g.rom_pipe[0] = self.gbuf_rom;
            p.g.xscroll = regs[0x16] & 7;
            // The drawing's own index into the line's buffer moves only in display state
            // (like VMLI): after a late bad line it lags the columns as VMLI does.
            (p.g.v_pipe[0], p.g.c_pipe[0]) = if self.idle {
                (0, 0)
            } else {
                let column = p.g.column.min(63);
                p.g.column += 1;
                (self.matrix[column], self.colour[column])
            };
        } else {
            p.g.g_pipe[0] = 0;
            p.g.rom_pipe[0] = false;
            p.g.column = 0;
        }
    }

    /// The sequencer takes the next cell (at the pixel XSCROLL says).
    #[inline]
    fn load_cell(&mut self) {
        let p = &mut self.pipe;
        // A cell like the one before (same matrix byte, colour and ROM-ness) keeps its codes.
        p.g.cell_ready &= p.g.matrix == p.g.v_pipe[1]
            && p.g.colour == p.g.c_pipe[1]
            && p.g.shifter_rom == p.g.rom_pipe[1];
        p.g.matrix = p.g.v_pipe[1];
        p.g.colour = p.g.c_pipe[1];
        p.g.shifter = p.g.g_pipe[1];
        p.g.shifter_rom = p.g.rom_pipe[1];
        p.g.mc_flop = true;
    }

    /// Pixels `from..to` of the cycle from the cell in the sequencer, no mode change among
    /// them.
    #[inline]
    fn graphics_run(&mut self, from: usize, to: usize) {
        if from == to {
            return;
        }
        let picture_on = self.picture_on;
        let p = &mut self.pipe;
        if !p.g.cell_ready {
            p.g.cell_ready = true;
            p.g.refresh_cell(&p.cregs, picture_on);
        }
        let (codes, rom) = (p.g.codes, p.g.rom_mask);
        let mut shifter = p.g.shifter;
        if p.g.cell_multicolour {
            let mut flop = p.g.mc_flop;
            let mut px = p.g.pixel;
            for i in from..to {
                if flop {
                    px = shifter >> 6;
                }
                shifter <<= 1;
                flop = !flop;
                p.render[i] = code_of(codes, px);
                set_bit(&mut p.foreground, i, px & 2 != 0);
            }
            p.g.mc_flop = flop;
            p.g.pixel = px;
        } else {
            // Hires: the run's pixels are the shifter's top bits, 8 at a time as bytes.
            let n = to - from;
            let run = (u64::MAX >> (64 - 8 * n)) << (8 * from);
            let set = BYTE_PER_BIT[usize::from(shifter)] << (8 * from) & run;
            let on = u64::from(code_of(codes, p.g.hires_on)) * BYTES_OF_ONE;
            let off = u64::from(code_of(codes, 0)) * BYTES_OF_ONE;
            let render = u64::from_le_bytes(p.render) & !run | set & on | (run & !set) & off;
            p.render = render.to_le_bytes();
            // A set bit is pixel value 2 or 3: foreground.
            let bits = (u16::from(shifter.reverse_bits()) << from) as u8;
            let run_bits = ((1u16 << to) - (1u16 << from)) as u8;
            p.foreground = p.foreground & !run_bits | bits & run_bits;
            let last_set = shifter & (0x80 >> (n - 1)) != 0;
            p.g.pixel = if last_set { p.g.hires_on } else { 0 };
            shifter = if n == 8 { 0 } else { shifter << n };
            p.g.mc_flop ^= n & 1 != 0;
        }
        p.g.shifter = shifter;
        p.rom[from..to].fill(rom);
    }

    #[inline]
    fn graphics_pixel(&mut self, i: usize) {
        let picture_on = self.picture_on;
        let p = &mut self.pipe;
        if !p.g.cell_ready {
            p.g.cell_ready = true;
            p.g.refresh_cell(&p.cregs, picture_on);
        }
        if p.g.cell_multicolour {
            if p.g.mc_flop {
                p.g.pixel = p.g.shifter >> 6;
            }
        } else {
            p.g.pixel = if p.g.shifter & 0x80 != 0 {
                p.g.hires_on
            } else {
                0
            };
        }
        let px = p.g.pixel;
        p.g.shifter <<= 1;
        p.g.mc_flop = !p.g.mc_flop;
        p.render[i] = code_of(p.g.codes, px);
        set_bit(&mut p.foreground, i, px & 2 != 0);
        p.rom[i] = p.g.rom_mask;
    }

    // Inlined into each model's drawing, as into the one it was before there were two.
    #[inline(always)]
    fn draw_sprites<T: Timing>(&mut self, regs: &[u8], previous: u64) {
        let xpos = T::sprite_x(previous);
        let (pointer_cycle, data_cycle, data_sprite) = match T::access(previous) {
            Phi1::SpritePointer(n) => (1u8 << n, 0, 0),
            Phi1::SpriteData(n) => (0, 1u8 << n, n),
            _ => (0, 0, 0),
        };
        let p = &self.pipe;
        // (The start-cycle mask knows the 6569's X map; on NTSC the X comparison decides.)
        if p.active == 0
            && previous != SPRITE_DISPLAY
            && (p.pending == 0
                || !T::NTSC && p.start_cycles & 1 << previous == 0
                || p.pending & candidates(p, xpos) == 0)
        {
            // No sprite is being shown or can start in these 8 pixels: only the sequencers'
            // state changes.
            for i in [
                SPRITE_STOP_PIXEL,
                SPRITE_HALT_PIXEL,
                SPRITE_LOAD_PIXEL,
                SPRITE_REGS_PIXEL,
                SPRITE_RESUME_PIXEL,
            ] {
                self.sprite_event(regs, previous, i, pointer_cycle, data_cycle, data_sprite);
            }
        } else {
            self.sprite_pixels(regs, previous, xpos, pointer_cycle, data_cycle, data_sprite);
        }
        // The sequencers take the X positions after the cycle's pixels.
        if self.sprite_x_stale {
            self.sprite_x_stale = false;
            for s in 0..8 {
                self.pipe.sprite_x[s] =
                    u16::from(regs[2 * s]) | (u16::from(regs[0x10] >> s & 1) << 8);
            }
            self.pipe.start_cycles = start_cycles(&self.pipe.sprite_x);
        }
    }

    /// The cycle's 8 sprite pixels, with the sequencers' state changes at their pixels.
    fn sprite_pixels(
        &mut self,
        regs: &[u8],
        previous: u64,
        xpos: u16,
        pointer_cycle: u8,
        data_cycle: u8,
        data_sprite: usize,
    ) {
        let candidates = candidates(&self.pipe, xpos);
        for i in 0..8u16 {
            self.sprite_event(regs, previous, i, pointer_cycle, data_cycle, data_sprite);
            self.trigger_sprites(xpos + i, candidates);
            self.sprite_pixel(usize::from(i));
        }
    }

    /// What the sequencers do at pixel `i` of the cycle after `previous`, besides drawing
    /// (at the `SPRITE_*_PIXEL`s).
    #[inline(always)]
    fn sprite_event(
        &mut self,
        regs: &[u8],
        previous: u64,
        i: u16,
        pointer_cycle: u8,
        data_cycle: u8,
        data_sprite: usize,
    ) {
        let p = &mut self.pipe;
        match i {
            SPRITE_STOP_PIXEL => p.active &= !data_cycle,
            SPRITE_HALT_PIXEL => p.halted |= pointer_cycle,
            SPRITE_LOAD_PIXEL => {
                if previous == SPRITE_DISPLAY {
                    p.pending = self.display;
                }
                if data_cycle != 0 {
                    p.shift[data_sprite] = self.data[data_sprite];
                }
            }
            SPRITE_REGS_PIXEL => {
                if self.model.is_new() {
                    // On the 8565/8562 a multicolour switch flips the pixel pairing of a
                    // sprite whose X-expansion flip-flop is clear.
                    let toggled = regs[0x1C] ^ p.multicolour;
                    p.mc_flops ^= toggled & !p.x_expand_flops;
                    p.multicolour = regs[0x1C];
                }
                p.priority = regs[0x1B];
                p.x_expand = regs[0x1D];
            }
            SPRITE_RESUME_PIXEL => {
                // On the 6569 a multicolour switch resets the sprite's pixel pairing.
                let toggled = regs[0x1C] ^ p.multicolour;
                p.mc_flops &= !toggled;
                p.multicolour = regs[0x1C];
                p.halted &= !data_cycle;
            }
            _ => {}
        }
    }

    #[inline]
    fn trigger_sprites(&mut self, x: u16, candidates: u8) {
        let p = &mut self.pipe;
        if candidates & p.pending == 0 {
            return;
        }
        for s in 0..8 {
            if candidates & 1 << s != 0 && x == p.sprite_x[s] {
                p.start(s);
            }
        }
    }

    #[inline]
    fn sprite_pixel(&mut self, i: usize) {
        let p = &mut self.pipe;
        if p.active == 0 {
            return;
        }
        let mut top = None;
        let mut hits = 0u8;
        // The active sprites from 7 down, so the last one with a pixel is the front one.
        let mut active = p.active;
        while active != 0 {
            let s = 7 - active.leading_zeros() as usize;
            let m = 1u8 << s;
            active &= !m;
            if p.shift[s] == 0 && p.sprite_pixel[s] == 0 {
                p.active &= !m;
                continue;
            }
            if p.halted & m == 0 {
                let mut x_flop = p.x_expand_flops & m != 0;
                let mut mc_flop = p.mc_flops & m != 0;
                sequencer_pixel(
                    &mut p.shift[s],
                    &mut p.sprite_pixel[s],
                    &mut x_flop,
                    &mut mc_flop,
                    p.x_expand & m != 0,
                    p.multicolour & m != 0,
                );
                p.x_expand_flops = p.x_expand_flops & !m | u8::from(x_flop) << s;
                p.mc_flops = p.mc_flops & !m | u8::from(mc_flop) << s;
            }
            if p.sprite_pixel[s] != 0 {
                top = Some(s);
                hits |= m;
            }
        }
        if let Some(s) = top {
            let foreground = p.foreground & (1 << i) != 0;
            let behind = foreground && p.priority & (1 << s) != 0;
            if !behind {
                p.render[i] = sprite_code(s, p.sprite_pixel[s]);
                p.rom[i] = 0;
            }
            if foreground {
                self.sprite_background |= hits;
            }
        }
        if hits & hits.wrapping_sub(1) != 0 {
            self.sprite_sprite |= hits;
        }
    }

    fn draw_border(&mut self, regs: &[u8]) {
        let p = &mut self.pipe;
        let now = self.main_border;
        if !p.border && !now {
            return;
        }
        // With 40 columns the flip-flop's change shows a cycle later; with 38, at pixel 7.
        let until = if regs[0x16] & 0x08 != 0 { 8 } else { 7 };
        if p.border {
            p.render[..until].fill(BORDER);
            p.rom[..until].fill(0);
        }
        p.border = now;
        if until == 7 && now {
            p.render[7] = BORDER;
            p.rom[7] = 0;
        }
    }

    /// The output stage: colour registers are looked up one pixel before a pixel leaves, so
    /// a colour write changes a cycle's pixels 1-7 (pixel 0 was looked up a cycle earlier).
    fn draw_colours<T: Timing>(&mut self, line: u16, r: u64) {
        let p = &mut self.pipe;
        // The CPU's write of two cycles ago: the stage takes it a cycle after the chip.
        let applied = p.colour_latched.take();
        if let Some((reg, value)) = applied {
            p.cregs.set(reg, value);
            p.g.cell_ready = false;
        }
        let leaving_code = p.out0_code;
        p.out0_code = p.render[0];
        // Pixel 0 was looked up in the cycle before; this cycle looks up pixels 1-7 (only if
        // they are drawn: nothing else sees them), and the next cycle's pixel 0 after them.
        let leaving = p.out;
        let leaving_rom = p.out_rom;
        p.out = p.render;
        p.out[0] = p.cregs[usize::from(p.render[0])];
        p.out_rom = p.rom;
        p.colour_latched = p.colour_write.take();
        if !self.picture_on {
            return;
        }
        // The chunk drawn in cycle r shows cycle r-1's pixels: x = 8(r-1) from the line's
        // cycle 0, PICTURE_LEFT of which are left of the picture.
        let Some(y) = T::picture_row(line) else {
            return;
        };
        if r == 0 {
            return;
        }
        let x0 = 8 * (r as usize - 1);
        if !(PICTURE_LEFT..PICTURE_LEFT + WIDTH).contains(&x0) {
            return;
        }
        let mut shown = leaving;
        for c in &mut shown[1..] {
            *c = self.pipe.cregs[usize::from(*c)];
        }
        let mut shown_rom = leaving_rom;
        if let Some((reg, _)) = applied {
            if leaving_code == reg && self.model.is_new() {
                // The 8565/8562 look pixel 0 up now, as the register changes: light grey.
                shown[0] = GREY_DOT;
                shown_rom[0] = 0;
            }
        }
        self.picture
            .set_chunk(x0 - PICTURE_LEFT, y, &shown, &shown_rom);
    }
}

/// The colour code of sprite `s`'s pixel value `px` (1-3).
#[inline(always)]
fn sprite_code(s: usize, px: u8) -> u8 {
    match px {
        1 => SPRITE_MC_0,
        2 => SPRITE_COLOUR_0 + s as u8,
        _ => SPRITE_MC_1,
    }
}

/// The line cycles where the side border flip-flop's left edge ends the border and its
/// right edge starts it, by CSEL ($D016 bit 3).
#[inline(always)]
const fn side_border_cycles(d016: u8) -> (u64, u64) {
    if d016 & 0x08 != 0 {
        (BORDER_LEFT_40, BORDER_RIGHT_40)
    } else {
        (BORDER_LEFT_38, BORDER_RIGHT_38)
    }
}

/// Where sprite n's pointer is: the last 8 bytes of the video matrix.
#[inline(always)]
fn sprite_pointer_address(regs: &[u8], n: usize) -> u16 {
    (u16::from(regs[0x18] & 0xF0) << 6) + 0x3F8 + n as u16
}

/// The graphics fetch's address in idle state (ECM forces address bits 9 and 10 low).
#[inline(always)]
const fn idle_address(d011: u8) -> u16 {
    if d011 & 0x40 != 0 {
        0x39FF
    } else {
        0x3FFF
    }
}

/// The graphics fetch's address in display state with `d011`'s modes, from VC, RC and the
/// matrix byte of the cell.
#[inline(always)]
const fn graphics_address_of(d011: u8, d018: u8, vc: u16, rc: u8, matrix: u8) -> u16 {
    let d018 = d018 as u16;
    let mut addr = if d011 & 0x20 != 0 {
        (vc << 3) | rc as u16 | ((d018 & 0x08) << 10)
    } else {
        ((matrix as u16) << 3) | rc as u16 | ((d018 & 0x0E) << 10)
    };
    if d011 & 0x40 != 0 {
        addr &= 0x39FF;
    }
    addr
}

/// A bad line's matrix fetch at VC (matrix byte, colour nibble): in the 3 cycles after BA
/// fell (`prefetch` not 0) the CPU still has the bus, and the VIC reads $FF and the CPU's
/// bus value's low bits instead.
#[inline(always)]
fn matrix_fetch_at(regs: &[u8], mem: &VicMemory, vc: u16, prefetch: u8, cpu_bus: u8) -> (u8, u8) {
    if prefetch != 0 {
        (0xFF, cpu_bus & 0x0F)
    } else {
        let base = u16::from(regs[0x18] & 0xF0) << 6;
        (
            mem.read(base + vc).0,
            mem.colour[usize::from(vc & 0x3FF)] & 0x0F,
        )
    }
}

/// One pixel of a sprite sequencer that is not halted: with its X-expansion flip-flop set
/// the shift register moves on a bit and the pixel takes its top bit (hires) or, every
/// other time, its top two (multicolour, paired by `mc_flop`); the flip-flop toggles where
/// the sprite is X-expanded and stays set where not.
#[inline(always)]
fn sequencer_pixel(
    shift: &mut u32,
    pixel: &mut u8,
    x_flop: &mut bool,
    mc_flop: &mut bool,
    x_expand: bool,
    multicolour: bool,
) {
    if *x_flop {
        if multicolour {
            if *mc_flop {
                *pixel = ((*shift >> 22) & 3) as u8;
            }
            *mc_flop = !*mc_flop;
        } else {
            *pixel = ((*shift >> 22) & 2) as u8;
        }
        *shift = (*shift << 1) & 0xFF_FFFF;
    }
    *x_flop = !x_expand || !*x_flop;
}

/// The sprites whose X position lies in the 8 pixels from `xpos` (a multiple of 8): only
/// they can start there.
#[inline]
fn candidates(p: &Pipeline, xpos: u16) -> u8 {
    let mut found = 0u8;
    for (s, x) in p.sprite_x.iter().enumerate() {
        if xpos & 0x1F8 == x & 0x1F8 {
            found |= 1 << s;
        }
    }
    found
}

/// The cycle after which the 8 pixels of X group g (X / 8) are drawn (`u8::MAX`: none).
const GROUP_CYCLE: [u8; 64] = {
    let mut t = [u8::MAX; 64];
    let mut r = 0;
    while r < PAL_CYCLES_PER_LINE {
        t[(sprite_x_of(r) >> 3) as usize] = r as u8;
        r += 1;
    }
    t
};

/// [`Pipeline::start_cycles`] for these X positions.
fn start_cycles(sprite_x: &[u16; 8]) -> u64 {
    sprite_x
        .iter()
        .map(|&x| GROUP_CYCLE[usize::from(x >> 3) & 63])
        .filter(|&r| r != u8::MAX)
        .fold(0, |mask, r| mask | 1 << r)
}

/// Byte k (k = 0-7) is $FF where bit 7-k of the index is set: a shifter byte's pixels.
const BYTE_PER_BIT: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b & (0x80 >> k) != 0 {
                t[b] |= 0xFF << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// $01 in every byte: a byte times this fills a u64 with it.
const BYTES_OF_ONE: u64 = 0x0101_0101_0101_0101;

/// Sets or clears bit `i` of `bits`.
#[inline(always)]
fn set_bit(bits: &mut u8, i: usize, on: bool) {
    *bits = *bits & !(1 << i) | u8::from(on) << i;
}

/// The colour code of pixel value `px` (0-3) in a cell's packed codes.
#[inline(always)]
fn code_of(codes: u32, px: u8) -> u8 {
    (codes >> (8 * (px & 3))) as u8
}

/// The colour codes of a cell's pixel values 0-3 in `mode` (ECM, BMM, MCM in bits 4-2),
/// from its matrix byte and colour RAM nibble. The invalid modes are black.
#[inline]
fn cell_codes(mode: u8, matrix: u8, colour: u8) -> [u8; 4] {
    let (low, high, colour) = (matrix & 0x0F, matrix >> 4, colour & 0x0F);
    match mode & 0x1C {
        // Standard text.
        0x00 => [BACKGROUND_0, BACKGROUND_0, colour, colour],
        // Multicolour text (a hires cell's set pixel is 3: the colour's low 3 bits).
        0x04 => [BACKGROUND_0, BACKGROUND_1, BACKGROUND_2, colour & 0x07],
        // Hires bitmap.
        0x08 => [low, low, high, high],
        // Multicolour bitmap.
        0x0C => [BACKGROUND_0, high, low, colour],
        // Extended background colour: $D021-$D024 by the matrix byte's top 2 bits.
        0x10 => {
            let background = BACKGROUND_0 + (matrix >> 6);
            [background, background, colour, colour]
        }
        _ => [0; 4],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_bus_value_taken_at_once_outlives_older_ones_still_waiting() {
        // Queued while drawing, then superseded while not: the engine must not take the
        // older value when it gets to its cycle.
        let mut r = Raster::default();
        r.cpu_bus_from(100, 0x11);
        r.set_cpu_bus(0x22);
        assert_eq!(r.bus_read_for(200), None);
        assert_eq!(r.cpu_bus, 0x22);
        assert_eq!(r.bus_due, u64::MAX);
        // Left to wait, it is taken at its cycle.
        r.cpu_bus_from(300, 0x33);
        assert_eq!(r.bus_due, 300);
        r.bus_read_for(299);
        assert_eq!(r.cpu_bus, 0x22);
        r.bus_read_for(300);
        assert_eq!(r.cpu_bus, 0x33);
    }

    #[test]
    fn the_cycle_table_matches_the_chip() {
        assert!(matches!(phi1_access(0), Phi1::SpritePointer(3)));
        assert!(matches!(phi1_access(9), Phi1::SpriteData(7)));
        assert!(matches!(phi1_access(57), Phi1::SpritePointer(0)));
        assert!(matches!(phi1_access(62), Phi1::SpriteData(2)));
        assert_eq!(sprite_x_of(0), 0x190);
        assert_eq!(sprite_x_of(13), 0x000);
        assert_eq!(sprite_x_of(16), 0x018);
        assert_eq!(crate::vic::dma::SPRITE_BA[54], 0x01);
        assert_eq!(crate::vic::dma::SPRITE_BA[0], 0x18);
        assert_eq!(crate::vic::dma::SPRITE_BA[9], 0x80);
    }

    #[test]
    fn a_sprite_can_start_only_in_the_cycle_its_x_group_is_drawn() {
        // Every X position: the start-cycle mask agrees with the per-cycle X comparison.
        for x in 0..0x200u16 {
            let mask = start_cycles(&[x; 8]);
            for r in 0..PAL_CYCLES_PER_LINE {
                let compared = sprite_x_of(r) & 0x1F8 == x & 0x1F8;
                assert_eq!(mask & 1 << r != 0, compared, "x {x:03x} cycle {r}");
            }
        }
    }
}
