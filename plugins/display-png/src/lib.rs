//! The PNG display: screenshots of the VIC-II's picture, 384x272 pixels as VICE's screenshots
//! crop a PAL frame (the 320x200 text area at (32, 35)), 384x247 an NTSC one (at (32, 23)),
//! every pixel one of the 16 colours,
//! written as an indexed PNG with the palette the host hands over (Pepto's unless
//! `--palette chip`).
//!
//! The final screenshot and the `at` shots are still pictures, redrawn from memory and
//! registers at that moment (the run itself does not draw, so it keeps its speed); exact for
//! a picture that stands still. With `live = true` the machine draws every frame and the
//! shots are whole frames drawn as the program ran, raster effects included (about 30 times
//! slower). The note for each file says which it is.
//!
//! Options: `output` (file; default the program's name with .png, else screen.png), `at`
//! (repeatable: also write `<output>-<cycles>.png` at the first frame boundary at or after
//! that many cycles), `scale` (1-8, default 1), `border` (true/false, default true: false
//! keeps the 320x200 text area), `live` (true/false, default false).

use c64kit_plugin_api::abi::{FLAG_FRAMES, FLAG_PIXELS};
use c64kit_plugin_api::palette::Palette;
use c64kit_plugin_api::picture::encode_png;
use c64kit_plugin_api::{DisplayBackend, FrameView, HostRef, Options, Picture, RunEndInfo};
use std::path::{Path, PathBuf};

pub struct PngDisplay {
    output: PathBuf,
    /// Pending `at` shots, in increasing order.
    at: Vec<u64>,
    scale: usize,
    border: bool,
    live: bool,
}

impl PngDisplay {
    fn write(
        &self,
        path: &Path,
        picture: &Picture,
        palette: &Palette,
        host: &HostRef,
    ) -> Result<(), String> {
        let img = picture.image(self.border, self.scale);
        let bytes = encode_png(&img, palette)?;
        c64kit_files::write_output(path, &bytes)
            .map_err(|e| format!("cannot write {}: {}", path.display(), io_reason(&e)))?;
        host.note(&format!(
            "wrote {} ({}x{}, {})",
            path.display(),
            img.width,
            img.height,
            picture.origin()
        ));
        Ok(())
    }

    fn at_path(&self, cycles: u64) -> PathBuf {
        let stem = self
            .output
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "screen".into());
        self.output.with_file_name(format!("{stem}-{cycles}.png"))
    }
}

fn io_reason(e: &std::io::Error) -> String {
    c64kit_files::io_reason(e)
}

impl DisplayBackend for PngDisplay {
    fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
        options.check_known(&["output", "at", "scale", "border", "live"])?;
        let mut at = options
            .all("at")
            .iter()
            .map(|v| c64kit_plugin_api::parse_number_option("at", v))
            .collect::<Result<Vec<u64>, String>>()?;
        at.sort_unstable();
        at.dedup();
        let scale = options.number("scale")?.unwrap_or(1);
        if !(1..=8).contains(&scale) {
            return Err(format!("option scale: {scale} is not 1-8"));
        }
        let output = options.output_path("png");
        // The shots are written as the run goes and at its end: their folder is checked now.
        c64kit_files::check_output(&output)
            .map_err(|e| format!("cannot write {}: {}", output.display(), io_reason(&e)))?;
        Ok(PngDisplay {
            output,
            at,
            scale: scale as usize,
            border: options.flag("border")?.unwrap_or(true),
            live: options.flag("live")?.unwrap_or(false),
        })
    }

    fn flags(&self) -> u32 {
        if self.live {
            FLAG_PIXELS | FLAG_FRAMES
        } else {
            FLAG_PIXELS
        }
    }

    fn next_frame(&self) -> u64 {
        self.at.first().copied().unwrap_or(u64::MAX)
    }

    fn frame(&mut self, frame: &FrameView, host: &HostRef) -> Result<(), String> {
        while let Some(&next) = self.at.first() {
            if frame.screen.cycles < next {
                break;
            }
            let picture = frame.need_picture()?;
            self.write(&self.at_path(next), &picture, &frame.palette, host)?;
            self.at.remove(0);
        }
        Ok(())
    }

    fn finish(
        &mut self,
        end: &RunEndInfo,
        frame: &FrameView,
        host: &HostRef,
    ) -> Result<(), String> {
        for at in &self.at {
            host.note(&format!(
                "no screenshot at cycle {at}: the run ended at cycle {}",
                end.cycles
            ));
        }
        let picture = frame.need_picture()?;
        self.write(&self.output.clone(), &picture, &frame.palette, host)
    }
}

c64kit_plugin_api::export_display!(
    c64kit_plugin_entry_png,
    PngDisplay,
    "png",
    "PNG screenshots of the VIC-II's picture (384x272 with border, 384x247 on NTSC; Pepto's \
     palette or the chip's)"
);
