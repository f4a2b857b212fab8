//! MOS 6569 VIC-II (PAL): register file, raster counter, raster interrupt, cycle
//! stealing, and the raster engine that fetches and draws the picture.
//!
//! Registers: index = `addr & 0x3F` (the 64-byte window repeats over
//! $D000-$D3FF); 47 registers, $2F-$3F read $FF and ignore writes.
//!
//! Raster: 63 cycles per line, 312 lines per frame, frame 0 starting at cycle
//! 0, so at cycle `now` the raster line is `(now / 63) % 312` and $D012 /
//! $D011 bit 7 read its bits 0-7 / bit 8.
//!
//! Raster interrupt: writing $D012 (bits 0-7) or $D011 bit 7 (bit 8) sets the
//! compare line. At the first cycle of each line equal to it, $D019 bit 0 is
//! set (whether or not enabled); writing the compare line to equal the
//! line of the next cycle also sets it (the comparison is edge-triggered and
//! sees a write from the next cycle on: not the line a write in its last
//! cycle ends).
//! Lines 312-511 never match. The IRQ output is `$D019 & $D01A & $0F != 0`;
//! $D019 reads that as bit 7. Writing 1s to $D019 acknowledges those bits; the
//! 6510 sees a release by a $D019 or $D01A write a cycle late (`irq` still low
//! in the write's cycle), so INC $D019 after CLI is still interrupted.
//! The line counter resets a cycle into the frame: in line 0's first cycle
//! $D011/$D012 still read 311 and line 0 matches a cycle late. At power-on
//! the compare line is 0, so bit 0 of $D019 is set at cycle 1: programs
//! acknowledge $D019 before enabling the raster interrupt.
//!
//! Read-back as on the real chip: unused bits read 1 ($D016 bits 6-7, $D018
//! bit 0, $D019 bits 4-6, $D01A bits 4-7, colour registers $D020-$D02E bits
//! 4-7, which also only store 4 bits). The collision registers $D01E/$D01F
//! latch what the drawing finds and clear after a read; the first collision
//! after a clear raises $D019 bit 2 (sprite-sprite) or bit 1 (sprite-background).
//!
//! Cycle stealing: bad lines and sprite DMA hold BA low ([`dma`] has the rules);
//! [`Vic::bus_free_from`] says when a CPU read started in a cycle completes and
//! [`Vic::next_ba_low`] when BA next falls.
//!
//! The picture: [`raster`] is the chip cycle by cycle (fetches, counters, border
//! unit, sprites, the pixel pipeline). The machine brings it up to date
//! ([`Vic::run_to`]) before an access that depends on it or changes it, and
//! while it draws, before a RAM write in its bank. It draws only after
//! [`Vic::enable_picture`] or once a program looks at collisions or open I/O.
//!
//! The light pen: LP's falling edge latches $D013/$D014 once a frame (`light_pen.rs`); on
//! the 6567R56A only LP held low at a frame's start raises the interrupt.
//!
//! Models: the PAL 6569 and 8565, the NTSC 6567R8, 6567R56A and 8562 (`model.rs`: each
//! model's facts, its sprite fetch cycles and X coordinates, which the raster engine steps).
//!
//! The 8565 and 8562 (a C64C's) are the 6569 and 6567R8 without the colour latency: the
//! grey dot and the rest [`model::ModelFacts::new_chip`] lists.
//!
//! Colours: the picture holds colour indices; by default every display shows them in one
//! palette, Pepto's (`c64kit_plugin_api::palette`), on every model. That is what VICE's testbench
//! gives x64sc (`-VICIIextpal -VICIIpalette pepto-pal.vpl` in x64sc-hooks.sh, whatever the
//! chip), so pictures compare with its references on every model. x64sc's own default is a
//! measured palette per chip (viciisc/vicii-color.c): the 6569R5's for the 6569 and
//! 6567R8, the 8565R2's (the same 9 luminances) for the new chips, and for the 6567R56A the
//! 6569R1's, whose 5 luminances (0, 0.237, 0.5, 0.763, 1) make dark grey, grey and light
//! grey as bright as red, green and cyan. `--palette chip` shows that difference: the host
//! hands the displays the palette Pepto's calculation gives for the model's luminances
//! ([`model::ModelFacts::luma`]).
//!
//! Not modelled: the BA timing (`dma.rs`) does not see sprite crunching, which the
//! raster engine does.

mod dma;
mod light_pen;
pub mod model;
pub mod picture;
mod raster;

pub use model::VicModel;
pub use picture::Picture;
use raster::Raster;
pub use raster::{FetchedPages, VicMemory};

use crate::{PAL_CYCLES_PER_FRAME, PAL_CYCLES_PER_LINE, PAL_LINES};

use dma::BusClaims;
use light_pen::LightPen;

/// Number of VIC-II registers ($D000-$D02E).
pub const REGISTER_COUNT: usize = 0x2F;

/// The 6569 VIC-II. See the module documentation for what is modelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vic {
    /// Registers as stored ($D011/$D012 hold the written values; colour
    /// registers hold 4 bits).
    regs: [u8; REGISTER_COUNT],
    irq_flags: u8,
    irq_mask: u8,
    /// The last cycle the IRQ output still holds the line after a register write released
    /// it: the 6510 sees the release a cycle late, so an acknowledge in an instruction's
    /// last two cycles (INC $D019's first write) comes too late for its interrupt poll.
    /// The CIAs release a cycle after the ICR read; VICE's interrupt core keeps any source
    /// pending for its check up to two cycles after the release.
    irq_held_until: Option<u64>,
    /// First cycle whose raster compare has not been evaluated yet.
    pending_from: u64,
    /// Bad lines and sprite DMA: when BA is low.
    claims: BusClaims,
    /// What the chip fetches and draws, cycle by cycle (brought up to date by
    /// [`Vic::run_to`] before every access).
    raster: Box<Raster>,
    light_pen: LightPen,
    /// The chip's model (also kept by the raster engine and the bus claims).
    model: VicModel,
}

impl Default for Vic {
    fn default() -> Self {
        Self::new()
    }
}

impl Vic {
    /// Power-on state of a 6569: all registers 0, raster compare line 0, no interrupts.
    pub fn new() -> Self {
        Self::with_model(VicModel::Mos6569)
    }

    /// Power-on state of a `model`.
    pub fn with_model(model: VicModel) -> Self {
        let mut raster = Box::<Raster>::default();
        raster.model = model;
        raster.picture.set_model(model);
        Vic {
            regs: [0; REGISTER_COUNT],
            irq_flags: 0,
            irq_mask: 0,
            irq_held_until: None,
            pending_from: 0,
            claims: BusClaims {
                sprites: dma::SpriteDma::starting_at(0, model),
                ..BusClaims::default()
            },
            raster,
            light_pen: LightPen::default(),
            model,
        }
    }

    /// The chip's model.
    pub fn model(&self) -> VicModel {
        self.model
    }

    /// Back to the power-on state (the raster position follows the cycle
    /// count and is unaffected).
    pub fn reset(&mut self) {
        let pending_from = self.pending_from;
        *self = Vic::with_model(self.model);
        self.pending_from = pending_from;
        self.claims.sprites = dma::SpriteDma::starting_at(pending_from, self.model);
        self.claims.d011_since = pending_from;
    }

    /// Cycles per frame (19,656 on the 6569).
    pub const fn cycles_per_frame(&self) -> u64 {
        self.model.cycles_per_frame()
    }

    /// Frame number (from 0) being displayed at cycle `now`.
    pub const fn frame_of(&self, now: u64) -> u64 {
        self.model.frame_of(now)
    }

    /// First cycle of the frame after the one at `now`.
    pub const fn next_frame_start(&self, now: u64) -> u64 {
        (self.model.frame_of(now) + 1) * self.model.cycles_per_frame()
    }

    /// Raster line (0-311 on the 6569) at cycle `now`.
    pub const fn raster_line(&self, now: u64) -> u16 {
        self.model.raster_line(now) as u16
    }

    /// The line counter as $D011/$D012 and the raster compare see it at cycle `now`: the
    /// raster line, except in line 0's first cycle, where the counter still holds the last
    /// line (311 on the 6569: it resets a cycle into the frame).
    const fn counter_line(&self, now: u64) -> u16 {
        if self.model.is_pal() {
            // Every register read asks: the 6569's as it always was.
            return if now.is_multiple_of(PAL_CYCLES_PER_FRAME) {
                (PAL_LINES - 1) as u16
            } else {
                ((now / PAL_CYCLES_PER_LINE) % PAL_LINES) as u16
            };
        }
        if self.model.line_cycle(now) == 0 && self.model.raster_line(now) == 0 {
            (self.model.lines() - 1) as u16
        } else {
            self.raster_line(now)
        }
    }

    /// Cycle within the raster line (0-62 on the 6569) at cycle `now`.
    pub const fn line_cycle(&self, now: u64) -> u8 {
        self.model.line_cycle(now) as u8
    }

    /// Raster interrupt compare line (0-511) from $D012 and $D011 bit 7.
    pub fn raster_compare(&self) -> u16 {
        (u16::from(self.regs[0x11] & 0x80) << 1) | u16::from(self.regs[0x12])
    }

    /// Registers as stored, for display backends (no read-back masking).
    pub fn registers(&self) -> &[u8; REGISTER_COUNT] {
        &self.regs
    }

    /// Border colour (0-15).
    pub fn border_color(&self) -> u8 {
        self.regs[0x20]
    }

    /// Background colour `index` 0-3 ($D021-$D024; other indices wrap).
    pub fn background_color(&self, index: usize) -> u8 {
        self.regs[0x21 + (index & 3)]
    }

    /// Start of the VIC bank `bank` (0-3, as from CIA2, see
    /// `Cia::vic_bank`) as seen by the CPU.
    pub const fn bank_base(bank: u8) -> u16 {
        (bank as u16 & 3) * 0x4000
    }

    /// Screen (video matrix) address: bank + ($D018 >> 4) * 1024.
    pub fn screen_base(&self, bank: u8) -> u16 {
        Self::bank_base(bank) + u16::from(self.regs[0x18] >> 4) * 0x400
    }

    /// Character generator address: bank + (($D018 >> 1) & 7) * 2048. In
    /// banks 0 and 2, $1000-$1FFF of the bank shows the character ROM.
    pub fn char_base(&self, bank: u8) -> u16 {
        Self::bank_base(bank) + u16::from((self.regs[0x18] >> 1) & 7) * 0x800
    }

    /// Bitmap address: bank + ($D018 bit 3) * 8192.
    pub fn bitmap_base(&self, bank: u8) -> u16 {
        Self::bank_base(bank) + u16::from(self.regs[0x18] & 0x08) * 0x400
    }

    /// Bad line condition for `line` with the current $D011: display enabled
    /// (DEN as it is now; the cycle stealing uses DEN as latched in line $30),
    /// line in $30-$F7 and its low 3 bits equal YSCROLL.
    pub fn is_bad_line(&self, line: u16) -> bool {
        let d011 = self.regs[0x11];
        dma::is_bad_line(d011, d011 & 0x10 != 0, u64::from(line))
    }

    /// Whether a write to register `reg` can change when BA is low ($D011, the sprite
    /// Y positions, $D015, $D017).
    pub const fn claims_bus(reg: u8) -> bool {
        matches!(
            reg & 0x3F,
            0x11 | 0x15 | 0x17 | 0x01 | 0x03 | 0x05 | 0x07 | 0x09 | 0x0B | 0x0D | 0x0F
        )
    }

    /// The first cycle from `t` on in which BA is high: a CPU read started in cycle `t`
    /// completes then (bad lines and sprite DMA stall it until then).
    pub fn bus_free_from(&mut self, t: u64) -> u64 {
        self.claims.bus_free_from(t)
    }

    /// The CPU drives `value` on the data bus in phi2 from cycle `now` on (a read waiting
    /// for the bus, or an I/O write): a bad line's matrix fetches in the cycles after BA
    /// fell, when the CPU still has the bus, read it. The chip takes it when it gets there,
    /// so a wait in a bad line need not stop its drawing mid-line; while it does not draw,
    /// nothing reads it before the drawing starts (which brings the chip up to date).
    pub fn cpu_bus_from(&mut self, now: u64, value: u8) {
        if self.reads_memory() {
            self.raster.cpu_bus_from(now, value);
        } else {
            self.raster.set_cpu_bus(value);
        }
    }

    /// Whether so many values wait for the engine that it should be brought up to date
    /// before another is added.
    pub fn bus_values_full(&self) -> bool {
        self.raster.deferred_bus_full()
    }

    /// The first cycle from `from` on in which BA will be low while the registers stay as
    /// they are (`u64::MAX`: not within two frames).
    pub fn next_ba_low(&self, from: u64) -> u64 {
        self.claims.next_ba_low(from)
    }

    /// The picture as drawn up to the last cycle [`Vic::run_to`] brought the chip to.
    pub fn picture(&self) -> &Picture {
        &self.raster.picture
    }

    /// From now on the chip draws its picture (before, it keeps only what programs can see).
    pub fn enable_picture(&mut self) {
        self.raster.enable_picture();
    }

    /// Whether the chip now fetches and draws every cycle: then a RAM write in its bank must
    /// first bring it up to date ([`Vic::run_to`]), as must a change of bank.
    pub fn reads_memory(&self) -> bool {
        self.raster.needs_pixels()
    }

    /// The 256-byte pages of bank `bank` whose RAM the chip may read from now until one of
    /// its registers or the bank changes, in any line and only in a bad line's matrix
    /// fetches (`bank_ram` is the bank's 16K). A write to another page cannot change what it
    /// fetches, so it need not bring the chip up to date first.
    pub fn pages_read(&self, bank: u8, bank_ram: &[u8]) -> FetchedPages {
        self.raster.pages_read(&self.regs, bank, bank_ram)
    }

    /// Whether a bad line's matrix fetches (of the video matrix and colour RAM) may come
    /// between the cycle the chip has reached and `now`: only then must a write there bring
    /// it up to date first.
    pub fn matrix_fetch_due(&self, now: u64) -> bool {
        self.claims.next_bad_line_ba(self.raster.done) <= now
    }

    /// [`Vic::pages_read`] while the chip keeps only its counters (nothing asked it to draw):
    /// then a sprite that is neither enabled nor fetching fetches nothing from its block.
    pub fn pages_read_by_counters(&self, bank: u8, bank_ram: &[u8]) -> FetchedPages {
        let sprites = self.regs[0x15] | self.raster.sprite_dma_on();
        self.raster
            .pages_read_by(&self.regs, bank, bank_ram, sprites)
    }

    /// Whether a whole bad line (its BA window and all its matrix fetches) lies after cycle
    /// `from` and up to cycle `to`, the registers staying as they are: every cell of the
    /// matrix the chip keeps is then fetched anew in between, so what the chip fetched
    /// before `from` no longer counts.
    pub fn matrix_fetched_anew(&self, from: u64, to: u64) -> bool {
        let line = self.model.cycles_per_line();
        let next_line = (self.model.line_count(from) + 1) * line;
        let ba = self.claims.next_bad_line_ba(next_line);
        ba != u64::MAX && (self.model.line_count(ba) + 1) * line <= to.saturating_add(1)
    }

    /// Whether an access to register `reg` must find the raster engine up to date: any, while
    /// it draws; otherwise only those its counters and sprite DMA depend on ($D011, $D015,
    /// $D016, $D017, the sprite Ys), those that make it draw ($D01A, the collision
    /// registers), and $D01E/$D01F.
    pub fn access_needs_raster(&self, reg: u8) -> bool {
        self.reads_memory() || Self::raster_depends_on(reg)
    }

    /// Whether a read of register `reg` must find the raster engine up to date: as
    /// [`Vic::access_needs_raster`], except that while it draws, a read (which changes
    /// nothing) matters to it only through the value it drives on the chip's internal bus,
    /// which [`Vic::read`] hands on for the engine to take in its cycle. Raster polling
    /// loops read $D012 every few cycles; they need not stop the drawing each time.
    pub fn read_needs_raster(&self, reg: u8) -> bool {
        let drawing = self.reads_memory();
        // $D019 shows the collision flags the drawing raises; the deferred bus values wait
        // in a bounded queue.
        drawing && (reg & 0x3F == 0x19 || self.bus_values_full()) || Self::raster_depends_on(reg)
    }

    /// Whether a read of register `reg` can change when the interrupt output next changes:
    /// only the collision registers' (a read clears the latch, so a new collision raises its
    /// flag, and makes the chip draw). Other reads leave the output as it was predicted.
    pub const fn read_affects_interrupts(reg: u8) -> bool {
        matches!(reg & 0x3F, 0x1E | 0x1F)
    }

    /// Whether a collision can pull the interrupt line ($D01A bits 1 or 2).
    pub fn collision_interrupts(&self) -> bool {
        self.irq_mask & 0x06 != 0
    }

    /// The registers the counters and sprite DMA depend on ($D011, $D015-$D017, the sprite
    /// Ys), the one that makes it draw ($D01A) and the collision registers.
    fn raster_depends_on(reg: u8) -> bool {
        matches!(
            reg & 0x3F,
            0x01 | 0x03 | 0x05 | 0x07 | 0x09 | 0x0B | 0x0D | 0x0F | 0x11 | 0x15
                ..=0x17 | 0x1A | 0x1E | 0x1F
        )
    }

    /// Whether border lines with nothing but the border on them are drawn from a memo of
    /// the last one (on by default; off draws every cycle, for tests that compare the two).
    #[doc(hidden)]
    pub fn set_line_memo(&mut self, on: bool) {
        self.raster.line_memo = on;
    }

    /// What the chip's last phi1 fetch read (what open I/O at $DE00-$DFFF shows). Reading it
    /// makes the chip fetch every cycle from then on (otherwise it would not know).
    pub fn last_fetch(&mut self) -> u8 {
        self.raster.keep_fetching = true;
        self.raster.last_phi1
    }

    /// [`Vic::last_fetch`] without side effects.
    pub fn peek_last_fetch(&self) -> u8 {
        self.raster.last_phi1
    }

    /// Brings the chip up to cycle `now` (inclusive) and returns what its phi1 fetch in that
    /// cycle read: the data bus value when nothing drives it in phi2. Unlike
    /// [`Vic::last_fetch`] it leaves the chip as lazy as it was.
    pub fn phi1_bus(&mut self, now: u64, mem: &VicMemory) -> u8 {
        // (A cycle stepped already without drawing has lost its fetch: the last one kept
        // stands in. The CPU's bus accesses come in order, so it does not happen.)
        if self.raster.needs_pixels() || self.raster.done > now {
            self.run_to(now, mem);
            return self.raster.last_phi1;
        }
        if now > 0 {
            self.run_to(now - 1, mem);
        }
        let value = self.raster.phi1_value(&self.regs, mem);
        self.run_to(now, mem);
        value
    }

    /// Brings the fetching and drawing up to cycle `now` (inclusive), reading `mem`.
    pub fn run_to(&mut self, now: u64, mem: &VicMemory) {
        self.raster.run_to(&self.regs, mem, now);
        if self.raster.raised != 0 {
            self.catch_up(now);
            self.irq_flags |= self.raster.raised;
            self.raster.raised = 0;
        }
    }

    /// The next cycle [`Vic::run_to`] would step.
    pub fn drawn_until(&self) -> u64 {
        self.raster.done
    }

    /// Reads register `reg & 0x3F` at cycle `now` (collision registers clear).
    pub fn read(&mut self, reg: u8, now: u64) -> u8 {
        self.catch_up(now);
        let reg = reg & 0x3F;
        let value = self.register_value(reg, now);
        if reg == 0x1E || reg == 0x1F {
            // Cleared after the next cycle's drawing (a collision in it is lost). From now on
            // the chip draws: the program looks for collisions.
            self.raster.clear_collisions = reg;
            self.raster.keep_fetching = true;
        }
        // The value read drives the internal bus: now if the engine has stepped this cycle,
        // else when it gets there (only a sprite fetch in the next phi2 can see it).
        if self.raster.done > now {
            self.raster.bus_written(value);
        } else if self.reads_memory() && raster::sprite_fetch_follows(self.model, now) {
            self.raster.defer_bus_read(now, value);
        }
        value
    }

    /// What `read` would return at `now`, without changing anything.
    pub fn peek(&self, reg: u8, now: u64) -> u8 {
        let mut ahead = Vic {
            regs: self.regs,
            irq_flags: self.irq_flags,
            irq_mask: self.irq_mask,
            irq_held_until: self.irq_held_until,
            pending_from: self.pending_from,
            claims: self.claims,
            raster: Box::new(Raster::drawing_into(Picture::none())),
            light_pen: self.light_pen,
            model: self.model,
        };
        ahead.raster.model = self.model;
        ahead.raster.sprite_sprite = self.raster.sprite_sprite;
        ahead.raster.sprite_background = self.raster.sprite_background;
        ahead.catch_up(now);
        ahead.register_value(reg & 0x3F, now)
    }

    /// Writes register `reg & 0x3F` at cycle `now`.
    pub fn write(&mut self, reg: u8, value: u8, now: u64) {
        self.catch_up(now);
        let reg = reg & 0x3F;
        self.raster.bus_written(value);
        self.cpu_bus_from(now, value);
        match reg {
            0x00..=0x10 => self.raster.sprite_x_stale = true,
            0x17 => self.raster.y_expand_written(self.regs[0x17], value),
            0x20..=0x2E => self.raster.colour_written(reg, value & 0x0F),
            _ => {}
        }
        self.claims.before_write(now);
        match reg {
            0x11 => self.claims.set_d011(value, now),
            0x15 => self.claims.regs.enabled = value,
            0x17 => {
                let old = self.claims.regs.y_expand;
                self.claims.sprites.y_expand_written(old, value, now);
                self.claims.regs.y_expand = value;
            }
            0x01 | 0x03 | 0x05 | 0x07 | 0x09 | 0x0B | 0x0D | 0x0F => {
                self.claims.regs.sprite_y[usize::from(reg >> 1)] = value
            }
            _ => {}
        }
        match reg {
            0x11 | 0x12 => {
                let old = self.raster_compare();
                self.regs[usize::from(reg)] = value;
                let new = self.raster_compare();
                // The comparator sees the new line from the next cycle on, against the line
                // counter as it stands then: written in a line's last cycle (or in line 0's
                // first, where the counter still holds the last line), the current line no
                // longer matches (VICE's viciisc compares every cycle after the access).
                let line = self.counter_line((now + 1).max(self.pending_from));
                if new != old && new == line {
                    self.irq_flags |= 0x01;
                }
            }
            0x13 | 0x14 | 0x1E | 0x1F => {} // read-only latches
            0x19 | 0x1A => {
                let was_asserted = self.irq_flags & self.irq_mask != 0;
                if reg == 0x19 {
                    self.irq_flags &= !(value & 0x0F);
                } else {
                    self.irq_mask = value & 0x0F;
                    if value & 0x06 != 0 {
                        // Collision interrupts: the chip must draw to find them.
                        self.raster.keep_fetching = true;
                    }
                }
                if was_asserted && self.irq_flags & self.irq_mask == 0 {
                    self.irq_held_until = Some(now);
                }
            }
            0x20..=0x2E => self.regs[usize::from(reg)] = value & 0x0F,
            0x00..=0x2E => self.regs[usize::from(reg)] = value,
            _ => {}
        }
    }

    /// Interrupt output at cycle `now` (true = IRQ line pulled low).
    pub fn irq(&mut self, now: u64) -> bool {
        self.catch_up(now);
        self.irq_flags & self.irq_mask != 0 || self.irq_held_until.is_some_and(|last| now <= last)
    }

    /// Earliest cycle at which the interrupt output may change without a
    /// register access (`u64::MAX`: never): the next start of the compare
    /// line while the raster interrupt is enabled and not already pending.
    pub fn next_event(&self) -> u64 {
        if self.irq_flags & self.irq_mask != 0 {
            return u64::MAX;
        }
        if let Some(last) = self.irq_held_until {
            if last + 1 >= self.pending_from {
                return last + 1; // the held line's release
            }
        }
        // A collision can raise its flag in any cycle the chip draws sprites.
        let collisions = if self.irq_mask & 0x06 != 0 && self.reads_memory() {
            self.raster.done
        } else {
            u64::MAX
        };
        let light_pen = if self.irq_mask & 0x08 != 0 {
            self.light_pen.next_event(self.model, self.pending_from)
        } else {
            u64::MAX
        };
        let collisions = collisions.min(light_pen);
        if self.irq_mask & 0x01 == 0 {
            return collisions;
        }
        self.next_compare_start(self.pending_from)
            .unwrap_or(u64::MAX)
            .min(collisions)
    }

    /// First cycle >= `from` at which the compare line starts, if it can.
    fn next_compare_start(&self, from: u64) -> Option<u64> {
        let line = u64::from(self.raster_compare());
        if self.model.is_pal() {
            // At every catch-up: the 6569's as it always was, with constants.
            if line >= PAL_LINES {
                return None;
            }
            let offset = line * PAL_CYCLES_PER_LINE + u64::from(line == 0);
            let frame = if from <= offset {
                0
            } else {
                (from - offset).div_ceil(PAL_CYCLES_PER_FRAME)
            };
            return Some(offset + frame * PAL_CYCLES_PER_FRAME);
        }
        if line >= self.model.lines() {
            return None;
        }
        // Line 0 matches a cycle late: its first cycle still counts the last line.
        let offset = line * self.model.cycles_per_line() + u64::from(line == 0);
        let frame_cycles = self.model.cycles_per_frame();
        let frame = if from <= offset {
            0
        } else {
            self.model.frame_of(from - offset + frame_cycles - 1)
        };
        Some(offset + frame * frame_cycles)
    }

    fn catch_up(&mut self, now: u64) {
        if now < self.pending_from {
            return;
        }
        if let Some(start) = self.next_compare_start(self.pending_from) {
            if start <= now {
                self.irq_flags |= 0x01;
            }
        }
        if self.light_pen.catch_up(self.model, self.pending_from, now) {
            self.irq_flags |= 0x08;
        }
        self.pending_from = now.saturating_add(1);
    }

    /// The light pen line (LP) is low (`low`) from cycle `now`: CIA 1's PB4 driven low, or
    /// joystick 1's fire held. A falling edge latches the beam position ($D013/$D014) and
    /// raises $D019 bit 3 (on the 6567R56A only LP held low as a frame starts raises it:
    /// see `light_pen.rs`).
    pub fn set_light_pen(&mut self, low: bool, now: u64) {
        self.catch_up(now);
        self.light_pen.set(low, now);
    }

    fn register_value(&self, reg: u8, now: u64) -> u8 {
        let line = self.counter_line(now.max(self.pending_from.saturating_sub(1)));
        let stored = self.regs.get(usize::from(reg)).copied().unwrap_or(0xFF);
        match reg {
            0x11 => (stored & 0x7F) | (((line >> 1) & 0x80) as u8),
            0x12 => line as u8,
            0x16 => stored | 0xC0,
            0x18 => stored | 0x01,
            0x19 => {
                let asserted = self.irq_flags & self.irq_mask != 0;
                self.irq_flags | 0x70 | if asserted { 0x80 } else { 0 }
            }
            0x1A => self.irq_mask | 0xF0,
            0x13 => self.light_pen.latched.0,
            0x14 => self.light_pen.latched.1,
            0x1E => self.raster.sprite_sprite,
            0x1F => self.raster.sprite_background,
            0x20..=0x2E => stored | 0xF0,
            0x2F..=0x3F => 0xFF,
            _ => stored,
        }
    }
}
