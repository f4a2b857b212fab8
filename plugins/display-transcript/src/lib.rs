//! The transcript display: every CHROUT byte, rendered as text (petcat's `{names}` for control
//! codes), streamed to standard output as the run goes. This is what `c64kit run` prints by
//! default; the output is byte for byte what it printed before displays were plugins.
//!
//! Options: `style = screen` (default: characters as the upper-case/graphics set shows
//! them) or `petcat` (pure ASCII, as `petcat` prints).

use c64kit_basic::{render_petscii, RenderOptions, RenderStyle};
use c64kit_plugin_api::{DisplayBackend, FrameView, HostRef, Options, RunEndInfo};

pub struct Transcript {
    options: RenderOptions,
    wrote_any: bool,
    ends_with_newline: bool,
}

impl DisplayBackend for Transcript {
    fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
        options.check_known(&["style"])?;
        let style = match options.get("style").unwrap_or("screen") {
            "screen" => RenderStyle::Screen,
            "petcat" => RenderStyle::Petcat,
            other => {
                return Err(format!(
                    "option style: {other:?} is neither screen nor petcat"
                ))
            }
        };
        Ok(Transcript {
            options: RenderOptions {
                style,
                ..RenderOptions::default()
            },
            wrote_any: false,
            ends_with_newline: false,
        })
    }

    fn chrout(&mut self, bytes: &[u8], host: &HostRef) -> Result<(), String> {
        // Rendering is per byte, so rendering in pieces gives the same text as all at once.
        let text = render_petscii(bytes, &self.options);
        if !text.is_empty() {
            self.wrote_any = true;
            self.ends_with_newline = text.ends_with('\n');
            host.write_stdout(text.as_bytes());
        }
        Ok(())
    }

    fn finish(
        &mut self,
        _end: &RunEndInfo,
        _frame: &FrameView,
        host: &HostRef,
    ) -> Result<(), String> {
        if self.wrote_any && !self.ends_with_newline {
            host.write_stdout(b"\n");
        }
        Ok(())
    }
}

c64kit_plugin_api::export_display!(
    c64kit_plugin_entry_transcript,
    Transcript,
    "transcript",
    "the CHROUT stream as readable text on standard output (PETSCII controls as {names})"
);
