//! c64kit-machine: the Commodore 64 around the CPU — memory and the PLA's banking, the I/O
//! chips on the bus, a KERNAL made of traps, drive 8 (a 1541 over a host folder), loading
//! and RUN (one start path: [`Machine::start`] with a [`Program`] and its [`RunSettings`]),
//! and the run loop with its stop reasons. It knows nothing of plugins: front ends
//! read the transcript, screen and memory (and the drive's notes).

pub mod basic_run;
pub mod boot;
pub mod drive;
pub mod input;
pub mod kernal;
pub mod loader;
pub mod machine;
pub mod memory;
pub mod pla;
mod real_kernal;
pub mod roms;
pub mod settings;
pub mod start;
pub mod stop;
pub mod text_screen;

pub use c64kit_chips::cia::CiaModel;
pub use c64kit_chips::sid::audio::SAMPLE_RATES as AUDIO_SAMPLE_RATES;
pub use c64kit_chips::sid::SidModel;
pub use c64kit_chips::vic::{picture, Picture, VicModel};
pub use c64kit_chips::{PAL_CYCLES_PER_FRAME, PAL_CYCLES_PER_LINE};
pub use drive::Drive;
pub use loader::{Prg, PrgError};
pub use machine::{trace_line, Machine, PAL_HZ};
pub use memory::GlueLogic;
pub use roms::{RomPaths, Roms};
pub use settings::{load_name_of, runs_basic_first, Entry, Program, RunSettings, Segment};
pub use start::StartError;
pub use stop::StopReason;
pub use text_screen::TextScreen;
