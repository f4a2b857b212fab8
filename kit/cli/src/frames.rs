//! What displays are shown of the machine: the text screen (from `Machine::text_screen`) and
//! the VIC-II's picture, and when the machine draws it.
//!
//! Drawing every frame costs far more than running, so the machine draws all the time only if a
//! display needs every frame's pixels (`FLAG_FRAMES` and `FLAG_PIXELS`: a live terminal
//! picture, a recording). A display that wants pixels now and then (a screenshot at a cycle,
//! at the end) gets a *still* picture instead: a copy of the VIC-II redraws one whole frame
//! from memory and registers as they are, without the CPU (`Machine::still_picture`, a few
//! milliseconds). That is exact for a picture that stands still and says what it is
//! (`PICTURE_STILL`): it lacks what a program changes during a frame. A live picture is
//! handed over only as a whole frame (at a frame boundary, drawn from at least one whole
//! frame after drawing began), never half drawn; at the end of the run it is the last whole
//! frame, which says at which cycle it was complete.

use c64kit_machine::picture::{FIRST_LINE, HEIGHT};
use c64kit_machine::Machine;
use c64kit_plugin_api::abi::{Clock, Screen, FLAG_FRAMES, FLAG_PIXELS, VIDEO_NTSC, VIDEO_PAL};
use c64kit_plugin_api::host::DisplayInstance;
use c64kit_plugin_api::{Picture, PictureKind};

/// The screen as text, in the plugin interface's form.
pub fn screen(m: &Machine) -> Screen {
    let t = m.text_screen();
    let mut s = Screen::blank();
    s.cycles = m.cycles();
    s.frame = s.cycles / m.cycles_per_frame();
    s.chars = t.chars;
    s.colours = t.colours;
    s.border = t.border;
    s.background = t.background;
    s.lowercase = t.lowercase as u8;
    s.cursor_row = t.cursor_row;
    s.cursor_col = t.cursor_col;
    s.vic[..t.vic.len()].copy_from_slice(&t.vic);
    s
}

/// The machine's clock, in the plugin interface's form (from its VIC-II model, which keeps
/// the facts).
pub fn clock(m: &Machine) -> Clock {
    Clock {
        cycles_per_second: m.clock_hz(),
        cycles_per_frame: m.cycles_per_frame(),
        video: if m.vic_model().is_pal() {
            VIDEO_PAL
        } else {
            VIDEO_NTSC
        },
    }
}

/// A picture the host keeps while displays look at it.
pub struct Owned {
    pixels: Vec<u8>,
    /// The model's visible area as VICE crops it (384x272 PAL, 384x247 NTSC): `pixels`
    /// holds its rows.
    size: (usize, usize),
    kind: PictureKind,
    cycles: u64,
}

impl Owned {
    pub fn view(&self) -> Picture<'_> {
        Picture {
            pixels: &self.pixels,
            width: self.size.0,
            height: self.size.1,
            kind: self.kind,
            cycles: self.cycles,
        }
    }

    fn still(m: &Machine) -> Owned {
        Owned::of(&m.still_picture(), PictureKind::Still, m.cycles())
    }

    /// The visible rows of `picture`.
    fn of(picture: &c64kit_machine::picture::Picture, kind: PictureKind, cycles: u64) -> Owned {
        let mut owned = Owned {
            pixels: Vec::new(),
            size: (0, 0),
            kind,
            cycles,
        };
        owned.take(picture);
        owned
    }

    /// Takes `picture`'s visible rows (none if it has fewer pixels).
    fn take(&mut self, picture: &c64kit_machine::picture::Picture) {
        let (w, h) = picture.visible_size();
        self.pixels.clear();
        if let Some(rows) = picture.pixels().get(..w * h) {
            self.pixels.extend_from_slice(rows);
            self.size = (w, h);
        } else {
            self.size = (0, 0);
        }
    }
}

/// When the machine draws, and the pictures handed to displays.
#[derive(Default)]
pub struct Pictures {
    /// The machine draws all the time, since this cycle.
    live_since: Option<u64>,
    /// The last whole frame drawn live.
    last_live: Option<Owned>,
}

impl Pictures {
    /// Turns drawing on if a display needs every frame's pixels.
    pub fn start(m: &mut Machine, displays: &[&DisplayInstance]) -> Pictures {
        let every = FLAG_FRAMES | FLAG_PIXELS;
        let live = displays.iter().any(|d| d.flags & every == every);
        let live_since = live.then(|| {
            m.enable_picture();
            m.cycles()
        });
        Pictures {
            live_since,
            last_live: None,
        }
    }

    /// At a frame boundary: keeps the frame just drawn if drawing is on and it is whole.
    pub fn boundary(&mut self, m: &mut Machine) {
        let Some(since) = self.live_since else { return };
        let now = m.cycles();
        // Whole if drawing began before this frame did (the frame before sets the drawing up).
        let frame = m.cycles_per_frame();
        if since + frame <= now - now % frame {
            let kept = self.last_live.get_or_insert_with(|| Owned {
                pixels: Vec::new(),
                size: (0, 0),
                kind: PictureKind::Live,
                cycles: 0,
            });
            kept.take(m.picture());
            kept.cycles = now;
        }
    }

    /// The picture for a frame handed over now (after [`Pictures::boundary`]): the live frame
    /// just kept, else a still one.
    pub fn now(&self, m: &Machine) -> PictureRef<'_> {
        match &self.last_live {
            Some(live) if live.cycles == m.cycles() => PictureRef::Kept(live),
            _ => PictureRef::New(Owned::still(m)),
        }
    }

    /// The picture for the end of the run: the last whole live frame (this one, if the
    /// raster has left its visible lines), else a still one.
    pub fn end(&self, m: &mut Machine) -> PictureRef<'_> {
        if let Some(since) = self.live_since {
            let now = m.cycles();
            let model = m.vic_model();
            let frame_start = now - now % model.cycles_per_frame();
            let line = model.raster_line(now);
            // The last visible line's pixels reach into the line after it. (An NTSC picture
            // ends in the next frame's first lines: the last whole frame is the one kept.)
            let drawn = (FIRST_LINE as usize + HEIGHT) as u64 + 1;
            if model.is_pal() && since <= frame_start && line >= drawn {
                return PictureRef::New(Owned::of(m.picture(), PictureKind::Live, now));
            }
        }
        match &self.last_live {
            Some(live) => PictureRef::Kept(live),
            None => PictureRef::New(Owned::still(m)),
        }
    }
}

/// A picture kept by [`Pictures`] or made for one frame.
pub enum PictureRef<'a> {
    Kept(&'a Owned),
    New(Owned),
}

impl PictureRef<'_> {
    pub fn view(&self) -> Picture<'_> {
        match self {
            PictureRef::Kept(o) => o.view(),
            PictureRef::New(o) => o.view(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use c64kit_plugin_api::abi::PluginHeader;
    use c64kit_plugin_api::host::{Collect, Plugin};

    fn draws_with(header: &'static PluginHeader, options: &[(&str, &str)]) -> bool {
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let plugin = Plugin::builtin(header).unwrap();
        let display = plugin
            .open_display(&options, &mut Collect::default())
            .unwrap();
        let mut m = Machine::builtin();
        Pictures::start(&mut m, &[&display]);
        m.bus.vic.reads_memory()
    }

    #[test]
    fn the_machine_draws_only_for_displays_that_need_every_frames_pixels() {
        let dir = std::env::temp_dir().join(format!("c64kit-frames-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let gif = dir.join("x.gif").display().to_string();
        // A plain run, screenshots at the end or at a cycle, a page, a final terminal picture:
        // no drawing during the run.
        assert!(!draws_with(c64kit_display_transcript::plugin(), &[]));
        assert!(!draws_with(c64kit_display_png::plugin(), &[("at", "100")]));
        assert!(!draws_with(c64kit_display_html::plugin(), &[]));
        let terminal = c64kit_display_terminal::plugin();
        assert!(!draws_with(
            terminal,
            &[("mode", "final"), ("view", "pixels")]
        ));
        // Every frame's pixels: a recording, a page of every change, live screenshots.
        assert!(draws_with(
            c64kit_display_gif::plugin(),
            &[("output", &gif)]
        ));
        assert!(draws_with(
            c64kit_display_html::plugin(),
            &[("sequence", "true")]
        ));
        assert!(draws_with(
            c64kit_display_png::plugin(),
            &[("live", "true")]
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_still_picture_shows_the_machine_as_it_is_and_leaves_it_alone() {
        let mut m = Machine::builtin();
        m.poke(0xD020, 2);
        m.load_raw(0xC000, &[0x4C, 0x00, 0xC0]);
        m.start_at(0xC000, 0x0801);
        m.run(30_000);
        let still = Owned::still(&m);
        assert_eq!(still.view().kind, PictureKind::Still);
        assert_eq!(still.view().pixel(0, 0), 2, "the border as it is now");
        assert!(
            !m.bus.vic.reads_memory(),
            "the machine itself does not draw"
        );
    }
}
