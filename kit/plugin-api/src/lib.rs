//! c64kit-plugin-api: the interface between c64kit and its plugins.
//!
//! c64kit shows a run through *display* plugins (the CHROUT stream, the screen at frame
//! boundaries, the end of the run), turns files into programs through *loader* plugins and
//! hands the SID's sound to *audio* plugins (a WAV file, a sound card). All kinds are ordinary crates built as `cdylib` (loaded at run time with `--plugin`) and
//! `rlib` (linked into c64kit as its built-in defaults).
//!
//! - [`abi`]: the binary interface, version [`abi::ABI_VERSION`]: `#[repr(C)]` structs and
//!   `extern "C"` functions only, so plugins and host need not share a compiler version.
//!   Frames and the end of the run carry the machine's [`Clock`] (cycles per second and per
//!   frame, PAL or NTSC): what a display's cycle counts are in time.
//! - [`plugin`]: what a Rust plugin implements ([`DisplayBackend`], [`ProgramLoader`],
//!   [`AudioOutput`]) and
//!   the macros that export it; panics are caught at the boundary.
//! - [`host`] (feature `host`): checking headers, calling plugins, opening libraries.
//! - [`picture`]: the VIC-II's picture as displays get it, cropped, scaled, as PNG.
//! - [`palette`]: the colours displays use.
//!
//! A display in a dozen lines:
//!
//! ```
//! use c64kit_plugin_api::{DisplayBackend, FrameView, HostRef, Options, RunEndInfo};
//!
//! struct Count(usize);
//!
//! impl DisplayBackend for Count {
//!     fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
//!         options.check_known(&[])?;
//!         Ok(Count(0))
//!     }
//!     fn chrout(&mut self, bytes: &[u8], _host: &HostRef) -> Result<(), String> {
//!         self.0 += bytes.len();
//!         Ok(())
//!     }
//!     fn finish(&mut self, e: &RunEndInfo, _f: &FrameView, host: &HostRef) -> Result<(), String> {
//!         // Cycles become time on the machine's own clock (PAL or NTSC), never an assumed one.
//!         let seconds = e.clock.seconds(e.cycles);
//!         host.note(&format!("{} bytes printed in {seconds:.1} s", self.0));
//!         Ok(())
//!     }
//! }
//!
//! c64kit_plugin_api::export_display!(c64kit_plugin_entry_count, Count, "count", "Counts bytes");
//! ```

pub mod abi;
#[cfg(feature = "host")]
pub mod host;
pub mod names;
pub mod palette;
pub mod picture;
pub mod plugin;

pub use abi::Clock;
pub use picture::{Image, Picture, PictureKind};
pub use plugin::{
    panic_message, parse_number_option, AudioOutput, Confidence, DisplayBackend, FrameView,
    HostRef, Options, Program, ProgramLoader, RunEndInfo, Segment, SoundBlock, Start,
};
