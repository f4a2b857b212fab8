//! Sprites, border and colours over a line's graphics in one go, for a line stepped whole
//! with nothing waiting from a write ([`Raster::steady`]): what [`Raster::draw_over_graphics`]
//! does cycle by cycle, exactly (the same picture row, collision latches, interrupt flags
//! and pipeline), at a fraction of the cost.
//!
//! In such a line the registers do not change and no colour write or collision read is
//! pending, so:
//! - the sprite sequencers' state changes only at fixed pixels of the line (the model's
//!   [`events`]: each sprite's pointer and data fetches, the registers taken in cycle 0,
//!   the sprites to show taken after cycle 57) and at the pixels where X is a sprite's X
//!   position (where it may start: one a line, two on the 6567R8 for X $180-$187, none
//!   past the 6569's last X). The line's pixels (8 a cycle, pixel `8r + i` drawn in line
//!   cycle r: 504 on the 6569, 520 and 512 on the NTSC chips) are run from one of these to
//!   the next, the shown sprites pixel by pixel, the others not at all;
//! - then the sprites' pixels are put over the graphics by priority, the collision latches
//!   set and their interrupt flags raised;
//! - the border is applied over whole cycles;
//! - the output stage looks the row up in the colour registers once, a cycle of like
//!   pixels at a time (its lookup one pixel ahead matters only when a colour changes in
//!   the line, which cannot happen here).
//!
//! The border is drawn only where someone sees it: in the picture and in the last cycle,
//! whose pixels wait in the pipeline as the line ends.
//!
//! [`Raster::draw_over_graphics`] stays the reference: every other line (not stepped whole,
//! or with a write waiting) is drawn by it, and the tests compare the two on random sprites
//! and states.

use super::line_memo::LineInputs;
use super::timing::{Timing, MAX_CYCLES};
use super::{
    sequencer_pixel, sprite_code, Phi1, Pipeline, Raster, BORDER, PICTURE_LEFT, SPRITE_DISPLAY,
    SPRITE_HALT_PIXEL, SPRITE_LOAD_PIXEL, SPRITE_REGS_PIXEL, SPRITE_RESUME_PIXEL,
    SPRITE_STOP_PIXEL, WIDTH,
};
use crate::vic::model::VicModel;

/// The cycles whose pixels are in the picture (those drawn after them in the next).
const PICTURE_CYCLES: std::ops::Range<usize> = PICTURE_LEFT / 8..(PICTURE_LEFT + WIDTH) / 8;

/// The cycles of a `T` line whose pixels are seen: the picture's, and the last, whose pixels
/// wait in the pipeline as the line ends.
const fn seen_cycles<T: Timing>() -> u128 {
    (u128::MAX >> (128 - PICTURE_CYCLES.end) & u128::MAX << PICTURE_CYCLES.start)
        | 1 << (T::CYCLES - 1)
}

/// The line's pixel at pixel `i` of the cycle drawn after line cycle `previous` of a line of
/// `cycles` cycles (the drawing of cycle r shows the cycle after r - 1; pixel `8r + i` is
/// pixel i of line cycle r's drawing).
const fn pixel_of(cycles: u64, previous: u64, i: u16) -> u16 {
    (8 * ((previous + 1) % cycles)) as u16 + i
}

/// Calls `f` with each line cycle set in `mask` (bit r: cycle r), lowest first: a half at a
/// time (the 6569's lines fit the low one).
#[inline(always)]
fn for_each_cycle(mask: u128, mut f: impl FnMut(usize)) {
    for (half, first) in [(mask as u64, 0), ((mask >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            let r = first + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            f(r);
        }
    }
}

// What happens to the sequencers at an event.
/// The priority and X expansion registers are taken.
const REGS: u8 = 0;
/// The multicolour register is taken (a switch resets a sprite's pixel pairing).
const MULTICOLOUR: u8 = 1;
/// The sprites to show are taken (after cycle 57).
const PENDING: u8 = 2;
/// A sprite's pointer fetch halts it.
const HALT: u8 = 3;
/// A sprite's data fetch stops it showing ...
const STOP: u8 = 4;
/// ... loads its shift register ...
const LOAD: u8 = 5;
/// ... and lets it go on.
const RESUME: u8 = 6;

/// Where the sprites to show are taken (the same pixel on every model: the cycle after
/// cycle 57 is in every line).
const PENDING_PIXEL: u16 = (8 * (SPRITE_DISPLAY + 1)) as u16 + SPRITE_LOAD_PIXEL;

/// A change of the sequencers' state at a pixel of the line (`sprite`: whose, for the
/// kinds that are one sprite's).
#[derive(Clone, Copy)]
struct Event {
    at: u16,
    kind: u8,
    sprite: u8,
}

/// The sequencers' events in a line of `model`, in pixel order, from the chip's cycle table
/// ([`VicModel::phi1_access`]) and the pixels at which they change state
/// ([`Raster::sprite_event`]). Events at one pixel change different things, so their order
/// among them does not matter.
const fn events(model: VicModel) -> [Event; 3 + 4 * 8] {
    const fn event(at: u16, kind: u8, sprite: u8) -> Event {
        Event { at, kind, sprite }
    }
    let cycles = model.cycles_per_line();
    let mut all = [event(0, 0, 0); 3 + 4 * 8];
    all[0] = event(pixel_of(cycles, cycles - 1, SPRITE_REGS_PIXEL), REGS, 0);
    all[1] = event(
        pixel_of(cycles, cycles - 1, SPRITE_RESUME_PIXEL),
        MULTICOLOUR,
        0,
    );
    all[2] = event(PENDING_PIXEL, PENDING, 0);
    let mut len = 3;
    let mut previous = 0;
    while previous < cycles {
        match model.phi1_access(previous) {
            Phi1::SpritePointer(n) => {
                let at = pixel_of(cycles, previous, SPRITE_HALT_PIXEL);
                all[len] = event(at, HALT, n as u8);
                len += 1;
            }
            Phi1::SpriteData(n) => {
                let at = pixel_of(cycles, previous, SPRITE_STOP_PIXEL);
                all[len] = event(at, STOP, n as u8);
                let at = pixel_of(cycles, previous, SPRITE_LOAD_PIXEL);
                all[len + 1] = event(at, LOAD, n as u8);
                let at = pixel_of(cycles, previous, SPRITE_RESUME_PIXEL);
                all[len + 2] = event(at, RESUME, n as u8);
                len += 3;
            }
            _ => {}
        }
        previous += 1;
    }
    assert!(len == all.len());
    // Insertion sort by pixel.
    let mut i = 1;
    while i < len {
        let mut j = i;
        while j > 0 && all[j - 1].at > all[j].at {
            (all[j - 1], all[j]) = (all[j], all[j - 1]);
            j -= 1;
        }
        i += 1;
    }
    all
}

/// The line's first pixel of the 8 of each X group (X / 8) in a line of `model` (the pixel
/// of a sprite at X is this plus X's low 3 bits): up to two, as the 6567R8's X stands still
/// for a cycle; `u16::MAX`: none.
const fn group_pixels(model: VicModel) -> [[u16; 2]; 64] {
    let cycles = model.cycles_per_line();
    let mut t = [[u16::MAX; 2]; 64];
    let mut r = 0;
    while r < cycles {
        let g = (model.phi1_x(r) >> 3) as usize & 63;
        let k = if t[g][0] == u16::MAX { 0 } else { 1 };
        assert!(t[g][k] == u16::MAX);
        t[g][k] = pixel_of(cycles, r, 0);
        r += 1;
    }
    t
}

/// What a line of timing `T` does to the sprite sequencers: its events and where each X
/// comes (for every timing, from its model).
trait SpriteTiming: Timing {
    const EVENTS: [Event; 3 + 4 * 8] = events(Self::MODEL);
    const GROUP_PIXELS: [[u16; 2]; 64] = group_pixels(Self::MODEL);
    /// Some X comes twice in a line (the 6567R8's).
    const X_TWICE: bool = Self::MODEL.facts().x_stall_cycle != u64::MAX;

    /// The pixels of the line at which a sprite at X position `x` may start: where X is
    /// `x` (none past the 6569's last X, $1F7; twice on the 6567R8 for X $180-$187).
    #[inline(always)]
    fn start_pixels(x: u16) -> [Option<u16>; 2] {
        let [first, second] = Self::GROUP_PIXELS[usize::from(x >> 3) & 63];
        let at = |base: u16| (base != u16::MAX).then(|| base + (x & 7));
        [at(first), if Self::X_TWICE { at(second) } else { None }]
    }
}
impl<T: Timing> SpriteTiming for T {}

/// The sprites' pixels of a line: which sprites show a pixel (value 1-3) at each pixel and
/// the value of the front one (the lowest numbered), by cycle; bit r of `cycles`: some
/// sprite may show a pixel in cycle r.
struct SpritePixels {
    hits: [[u8; 8]; MAX_CYCLES],
    value: [[u8; 8]; MAX_CYCLES],
    cycles: u128,
}

impl Pipeline {
    /// Pixels `from..to` of the shown sprites, no event among them; from 7 down, so the
    /// front one's value is written last.
    #[inline]
    fn show_sprites(&mut self, from: usize, to: usize, out: &mut SpritePixels) {
        let mut shown = self.active;
        while shown != 0 {
            let n = 7 - shown.leading_zeros() as usize;
            shown &= !(1 << n);
            self.show_sprite(n, from, to, out);
        }
    }

    /// Sprite `n`'s X position has come: it starts if it is pending, neither shown nor
    /// halted.
    #[inline]
    pub(super) fn start(&mut self, n: usize) {
        let m = 1u8 << n;
        if self.pending & m != 0 && (self.active | self.halted) & m == 0 {
            self.x_expand_flops |= m;
            self.mc_flops |= m;
            self.active |= m;
        }
    }

    /// Pixels `from..to` of shown sprite `n`, no event among them (until it ends).
    #[inline]
    fn show_sprite(&mut self, n: usize, from: usize, to: usize, out: &mut SpritePixels) {
        let m = 1u8 << n;
        let (halted, x_expand) = (self.halted & m != 0, self.x_expand & m != 0);
        let multicolour = self.multicolour & m != 0;
        let (mut shift, mut pixel) = (self.shift[n], self.sprite_pixel[n]);
        let mut x_flop = self.x_expand_flops & m != 0;
        let mut mc_flop = self.mc_flops & m != 0;
        let mut t = from;
        while t < to {
            if shift == 0 && pixel == 0 {
                self.active &= !m;
                break;
            }
            if !halted {
                sequencer_pixel(
                    &mut shift,
                    &mut pixel,
                    &mut x_flop,
                    &mut mc_flop,
                    x_expand,
                    multicolour,
                );
            }
            if pixel != 0 {
                let (r, i) = (t >> 3, t & 7);
                out.hits[r][i] |= m;
                out.value[r][i] = pixel;
            }
            t += 1;
        }
        if t > from {
            out.cycles |= (u128::MAX >> (127 - ((t - 1) >> 3))) & (u128::MAX << (from >> 3));
        }
        self.shift[n] = shift;
        self.sprite_pixel[n] = pixel;
        self.x_expand_flops = self.x_expand_flops & !m | u8::from(x_flop) << n;
        self.mc_flops = self.mc_flops & !m | u8::from(mc_flop) << n;
    }
}

/// A line's graphics pixels before sprites, border and colours (by cycle): colour codes,
/// foreground bits and ROM colours.
pub(super) struct LineGraphics<'a> {
    pub render: &'a [[u8; 8]; MAX_CYCLES],
    pub foreground: &'a [u8; MAX_CYCLES],
    pub rom: &'a [[u16; 8]; MAX_CYCLES],
}

impl Raster {
    /// Draws sprites, border and colours over the graphics of the steady line just fetched
    /// (`inputs`: its record; the pipeline is where the line started but for the graphics),
    /// as [`Raster::draw_over_graphics`] would in each of its cycles.
    pub(super) fn draw_over_line<T: Timing>(
        &mut self,
        regs: &[u8],
        line: u16,
        inputs: &LineInputs,
        graphics: LineGraphics,
    ) {
        debug_assert!(self.steady());
        let mut render = *graphics.render;
        let mut rom = *graphics.rom;
        let mut sprites = SpritePixels {
            hits: [[0; 8]; MAX_CYCLES],
            value: [[0; 8]; MAX_CYCLES],
            cycles: 0,
        };
        self.run_sequencers::<T>(regs, &mut sprites);

        // Sprites over the graphics by priority: the front sprite's pixel shows unless the
        // graphics are foreground and it is behind them (until the priority register is
        // taken in cycle 0, the old one counts).
        let (old_priority, priority) = (self.pipe.priority, regs[0x1B]);
        let (mut sprite_sprite, mut sprite_background) = (0u8, 0u8);
        for_each_cycle(sprites.cycles, |r| {
            if u64::from_ne_bytes(sprites.hits[r]) == 0 {
                return;
            }
            let foreground = graphics.foreground[r];
            for i in 0..8 {
                let hits = sprites.hits[r][i];
                if hits == 0 {
                    continue;
                }
                let s = hits.trailing_zeros() as usize;
                let front = foreground & 1 << i != 0;
                let priority = if r == 0 && i < usize::from(SPRITE_REGS_PIXEL) {
                    old_priority
                } else {
                    priority
                };
                if !(front && priority & 1 << s != 0) {
                    render[r][i] = sprite_code(s, sprites.value[r][i]);
                    rom[r][i] = 0;
                }
                if front {
                    sprite_background |= hits;
                }
                if hits & hits.wrapping_sub(1) != 0 {
                    sprite_sprite |= hits;
                }
            }
        });
        // (No read clears a latch in a steady line: they only gain bits.)
        let before = (self.sprite_sprite, self.sprite_background);
        self.sprite_sprite |= sprite_sprite;
        self.sprite_background |= sprite_background;
        self.raise_collision_flags(before.0, before.1);

        // The border over both, a cycle after the flip-flop (at pixel 7 with 38 columns),
        // where anyone sees it.
        let columns_40 = regs[0x16] & 0x08 != 0;
        let seen = const { seen_cycles::<T>() };
        let at_start = inputs.main_border << 1 | u128::from(self.pipe.border);
        for_each_cycle(at_start & seen, |r| {
            let last = (render[r][7], rom[r][7]);
            render[r] = [BORDER; 8];
            rom[r] = [0; 8];
            if !columns_40 {
                (render[r][7], rom[r][7]) = last;
            }
        });
        if !columns_40 {
            for_each_cycle(inputs.main_border & seen, |r| {
                render[r][7] = BORDER;
                rom[r][7] = 0;
            });
        }

        // The output stage: the row, and the last cycle's pixels as they wait to leave.
        let p = &mut self.pipe;
        let last = T::CYCLES as usize - 1;
        p.border = inputs.main_border & 1 << last != 0;
        p.render = render[last];
        p.foreground = graphics.foreground[last];
        p.rom = rom[last];
        p.out = p.render;
        p.out[0] = p.cregs[usize::from(p.render[0])];
        p.out0_code = p.render[0];
        p.out_rom = p.rom;
        if let (true, Some(y)) = (self.picture_on, T::picture_row(line)) {
            let mut pixels = [0u8; WIDTH];
            // Runs of like cycles are common (background, border): each looked up once.
            let (mut codes, mut colours) = ([u8::MAX; 8], [0u8; 8]);
            for (chunk, cycle) in pixels.chunks_exact_mut(8).zip(&render[PICTURE_CYCLES]) {
                if *cycle != codes {
                    codes = *cycle;
                    colours = codes.map(|code| p.cregs[usize::from(code)]);
                }
                chunk.copy_from_slice(&colours);
            }
            self.picture
                .set_row(y, &pixels, rom[PICTURE_CYCLES].as_flattened());
        }
    }

    /// Runs the sprite sequencers through the line, event by event, each shown sprite pixel
    /// by pixel between them; leaves their state at the line's end in the pipeline and
    /// the pixels the sprites show in `out` (cleared).
    fn run_sequencers<T: Timing>(&mut self, regs: &[u8], out: &mut SpritePixels) {
        let (display, loaded) = (self.display, &self.line_memos.loaded);
        let p = &mut self.pipe;
        // The starts that can happen (a sprite is pending at its X only if it was before
        // the sprites to show are taken, or is to be shown after), in pixel order (and an
        // end mark).
        let mut starts = [(u16::MAX, 0u8); 2 * 8 + 1];
        let mut count = 0;
        for n in 0..8 {
            for at in T::start_pixels(p.sprite_x[n]).into_iter().flatten() {
                let pending = if at >= PENDING_PIXEL {
                    display
                } else {
                    p.pending
                };
                if pending & 1 << n == 0 {
                    continue;
                }
                let mut i = count;
                while i > 0 && starts[i - 1].0 > at {
                    starts[i] = starts[i - 1];
                    i -= 1;
                }
                starts[i] = (at, n as u8);
                count += 1;
            }
        }
        // Each event after the starts before it and the pixels shown before it (a start
        // comes after the events at its pixel: it waits while the next event is there).
        let mut k = 0;
        let mut t = 0;
        for ev in &T::EVENTS {
            while starts[k].0 < ev.at {
                let at = usize::from(starts[k].0);
                p.show_sprites(t, at, out);
                t = at;
                p.start(usize::from(starts[k].1));
                k += 1;
            }
            let at = usize::from(ev.at);
            p.show_sprites(t, at, out);
            t = at;
            let (n, m) = (usize::from(ev.sprite), 1u8 << ev.sprite);
            match ev.kind {
                REGS => {
                    p.priority = regs[0x1B];
                    p.x_expand = regs[0x1D];
                }
                MULTICOLOUR => {
                    p.mc_flops &= !(regs[0x1C] ^ p.multicolour);
                    p.multicolour = regs[0x1C];
                }
                PENDING => p.pending = display,
                HALT => p.halted |= m,
                STOP => p.active &= !m,
                LOAD => p.shift[n] = loaded[n],
                RESUME => p.halted &= !m,
                _ => unreachable!("no other event kinds"),
            }
        }
        while k < count {
            let at = usize::from(starts[k].0);
            p.show_sprites(t, at, out);
            t = at;
            p.start(usize::from(starts[k].1));
            k += 1;
        }
        p.show_sprites(t, 8 * T::CYCLES as usize, out);
    }
}

#[cfg(test)]
mod tests {
    use super::super::timing::{Ntsc64, Ntsc65, Pal};
    use super::super::{start_cycles, VicMemory};
    use super::*;
    use fastrand::Rng;

    /// The reference: [`Raster::draw_over_graphics`] in each cycle of the line.
    fn draw_per_cycle<T: Timing>(
        raster: &mut Raster,
        regs: &[u8],
        line: u16,
        inputs: &LineInputs,
        graphics: &LineGraphics,
    ) {
        raster.replay::<T>(inputs, |raster, previous, r| {
            let (p, i) = (&mut raster.pipe, r as usize);
            p.render = graphics.render[i];
            p.foreground = graphics.foreground[i];
            p.rom = graphics.rom[i];
            raster.draw_over_graphics::<T>(regs, previous, line, r);
        });
    }

    /// The pipeline's fields that differ (for a failure's message).
    fn differences(a: &Raster, b: &Raster) -> String {
        let (p, q) = (&a.pipe, &b.pipe);
        let mut out = String::new();
        macro_rules! field {
            ($($f:ident),*) => {$(
                if p.$f != q.$f {
                    out += &format!("{}: {:?} vs {:?}\n", stringify!($f), p.$f, q.$f);
                }
            )*};
        }
        field!(
            active,
            halted,
            pending,
            shift,
            sprite_pixel,
            x_expand_flops,
            mc_flops,
            priority,
            x_expand,
            multicolour,
            border,
            render,
            foreground,
            rom,
            out,
            out_rom
        );
        if p.g != q.g {
            out += "graphics\n";
        }
        if a.picture != b.picture {
            out += "picture\n";
        }
        out
    }

    /// An X position: anywhere, or where the sequencers halt for sprite DMA, near the
    /// line's end (so the sprite goes on into the next line) or past the last X ($1F8).
    fn sprite_x(rng: &mut Rng) -> u16 {
        match rng.u8(0..4) {
            0 => rng.u16(0..0x200),
            1 => rng.u16(0x150..0x1E0),
            2 => rng.u16(0x170..0x190),
            _ => rng.u16(0x1E0..0x200),
        }
    }

    /// A mask with each bit set with probability about `percent`%.
    fn mask(rng: &mut Rng, percent: u8) -> u8 {
        (0..8).fold(0, |m, n| m | u8::from(rng.u8(0..100) < percent) << n)
    }

    /// Calls `f::<T>(model, seed)` with the line timing `T` of each model (the 6569 with
    /// `seed`, the others with seeds after it).
    macro_rules! on_every_model {
        ($f:ident, $seed:expr) => {
            for (i, model) in VicModel::ALL.into_iter().enumerate() {
                let seed = $seed + i as u64;
                match model.timing() {
                    VicModel::Mos6567R8 => $f::<Ntsc65>(model, seed),
                    VicModel::Mos6567R56A => $f::<Ntsc64>(model, seed),
                    _ => $f::<Pal>(model, seed),
                }
            }
        };
    }

    #[test]
    fn a_steady_line_draws_as_cycle_by_cycle_drawing_does() {
        on_every_model!(steady_lines_draw_as_cycle_by_cycle, 0x5B17E);
    }

    /// Random sequencer states (reachable or not: the fast path follows the same rules from
    /// any state), registers, graphics and border on a `model` (whose line is `T`'s), drawn
    /// both ways. (The 8565/8562 take a multicolour switch in their own way: the engine
    /// draws no line in one go while one is due.)
    fn steady_lines_draw_as_cycle_by_cycle<T: Timing>(model: VicModel, seed: u64) {
        let mut rng = Rng::with_seed(seed);
        let mut regs = [0u8; 0x40];
        for case in 0..3000 {
            let mut raster = Raster {
                picture_on: rng.u8(0..8) != 0,
                // Steady: the X positions taken.
                sprite_x_stale: false,
                model,
                ..Raster::default()
            };
            rng.fill(&mut regs);
            let p = &mut raster.pipe;
            for n in 0..8 {
                p.sprite_x[n] = sprite_x(&mut rng);
                p.shift[n] = match rng.u8(0..4) {
                    0 => 0,
                    _ => rng.u32(0..0x100_0000),
                };
                p.sprite_pixel[n] = rng.u8(0..4);
                raster.line_memos.loaded[n] = rng.u32(0..0x100_0000);
            }
            p.start_cycles = start_cycles(&p.sprite_x);
            let density = rng.u8(0..100);
            p.active = mask(&mut rng, density);
            p.pending = mask(&mut rng, density);
            p.halted = mask(&mut rng, 20);
            p.x_expand_flops = rng.u8(..);
            p.mc_flops = rng.u8(..);
            // Mostly the registers already taken, sometimes a change taken in cycle 0.
            let changed = rng.u8(0..4) == 0;
            p.priority = if changed { rng.u8(..) } else { regs[0x1B] };
            p.x_expand = if changed { rng.u8(..) } else { regs[0x1D] };
            p.multicolour = if changed && !model.is_new() {
                rng.u8(..)
            } else {
                regs[0x1C]
            };
            p.border = rng.bool();
            for code in 0x20..=0x2E {
                p.cregs.set(code, rng.u8(..));
            }
            raster.display = mask(&mut rng, density);
            raster.sprite_sprite = if rng.bool() { 0 } else { rng.u8(..) };
            raster.sprite_background = if rng.bool() { 0 } else { rng.u8(..) };
            let inputs = LineInputs {
                main_border: match rng.u8(0..3) {
                    0 => 0,
                    1 => u128::MAX,
                    _ => rng.u128(..),
                },
                ..LineInputs::default()
            };
            let render: [[u8; 8]; MAX_CYCLES] =
                std::array::from_fn(|_| std::array::from_fn(|_| rng.u8(0..0x2F)));
            let foreground: [u8; MAX_CYCLES] = std::array::from_fn(|_| rng.u8(..));
            let rom: [[u16; 8]; MAX_CYCLES] =
                std::array::from_fn(|_| std::array::from_fn(|_| rng.u16(..)));
            let graphics = LineGraphics {
                render: &render,
                foreground: &foreground,
                rom: &rom,
            };
            let line = rng.u16(0..model.lines() as u16);
            let mut exact = raster.clone();
            // (A copy starts without memos: the record's loads too.)
            exact.line_memos.loaded = raster.line_memos.loaded;
            draw_per_cycle::<T>(&mut exact, &regs, line, &inputs, &graphics);
            raster.draw_over_line::<T>(&regs, line, &inputs, graphics);
            assert!(
                raster.pipe == exact.pipe,
                "{} case {case}: {}",
                model.name(),
                differences(&raster, &exact)
            );
            assert_eq!(
                (
                    raster.sprite_sprite,
                    raster.sprite_background,
                    raster.raised
                ),
                (exact.sprite_sprite, exact.sprite_background, exact.raised),
                "{} case {case}: collisions and flags",
                model.name()
            );
            assert!(
                raster == exact,
                "{} case {case}: picture or engine",
                model.name()
            );
        }
    }

    #[test]
    fn sprite_lines_draw_as_with_the_line_memos_off() {
        on_every_model!(frames_draw_as_with_the_line_memos_off, 0xD01E);
    }

    /// Whole frames of random sprites over random graphics on a `model` (whose line is
    /// `T`'s): the engine with its line memos (lines fetched and drawn in one go) and
    /// without (every cycle), compared line by line; between frames X positions move, a
    /// colour changes and a collision register is read, as a game does.
    fn frames_draw_as_with_the_line_memos_off<T: Timing>(model: VicModel, seed: u64) {
        let mut rng = Rng::with_seed(seed);
        for case in 0..12 {
            let mut ram = Box::new([0u8; 0x10000]);
            rng.fill(&mut ram[..]);
            let mut char_rom = [0u8; 0x1000];
            rng.fill(&mut char_rom);
            let mut colour = [0u8; 0x400];
            rng.fill(&mut colour);
            let mut regs = [0u8; 0x40];
            rng.fill(&mut regs);
            regs[0x11] = 0x10 | rng.u8(..) & 0x0F | if rng.u8(0..4) == 0 { 0x60 } else { 0 };
            regs[0x15] = mask(&mut rng, 80);
            let mem = VicMemory {
                ram: &ram,
                char_rom: &char_rom,
                colour: &colour,
                bank: rng.u8(0..4),
            };
            let mut fast = Raster {
                model,
                ..Raster::default()
            };
            fast.picture.set_model(model);
            fast.enable_picture();
            let mut exact = fast.clone();
            exact.line_memo = false;
            for frame in 0..3u64 {
                for n in 0..8 {
                    let x = sprite_x(&mut rng);
                    regs[2 * n] = x as u8;
                    regs[0x10] = regs[0x10] & !(1 << n) | ((x >> 8) as u8) << n;
                    regs[2 * n + 1] = rng.u8(0x20..0xFF);
                }
                for raster in [&mut fast, &mut exact] {
                    raster.sprite_x_stale = true;
                    if frame > 0 {
                        raster.colour_written(0x27, frame as u8);
                        raster.clear_collisions = 0x1E;
                    }
                }
                let lines = T::LINES;
                for line in 0..lines {
                    let to = (frame * lines + line + 1) * T::CYCLES - 1;
                    fast.run_to(&regs, &mem, to);
                    exact.run_to(&regs, &mem, to);
                    // (Equal but for the switch.)
                    exact.line_memo = true;
                    assert!(
                        fast == exact,
                        "{} case {case} frame {frame} line {line}: {}",
                        model.name(),
                        differences(&fast, &exact)
                    );
                    exact.line_memo = false;
                }
            }
        }
    }
}
