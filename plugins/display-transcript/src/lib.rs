//! The transcript display: every CHROUT byte, rendered as text (petcat's `{names}` for control
//! codes), streamed to standard output as the run goes. This is what `c64kit run` prints by
//! default; the output is byte for byte what it printed before displays were plugins.
//!
//! Options: `style = screen` (default: each character as the character set it was printed in
//! shows it: upper-case/graphics, or lower/upper-case after CHR$(14), a POKE 53272,23 or
//! SHIFT+C=) or `petcat` (pure ASCII, as `petcat` prints, whatever the set).

use c64kit_basic::{render_petscii, RenderOptions, RenderStyle};
use c64kit_plugin_api::abi::CHARSET_LOWER;
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
        self.chrout_in_sets(bytes, &[], host)
    }

    fn chrout_in_sets(&mut self, bytes: &[u8], sets: &[u8], host: &HostRef) -> Result<(), String> {
        // Rendering is per byte, so rendering in pieces gives the same text as all at once:
        // each run of bytes printed in one set is rendered in it.
        let mut text = String::with_capacity(bytes.len());
        let mut start = 0;
        while start < bytes.len() {
            let set = sets.get(start).copied();
            let end = (start + 1..bytes.len())
                .find(|&i| sets.get(i).copied() != set)
                .unwrap_or(bytes.len());
            let options = RenderOptions {
                lowercase_charset: set == Some(CHARSET_LOWER),
                ..self.options
            };
            text.push_str(&render_petscii(&bytes[start..end], &options));
            start = end;
        }
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
