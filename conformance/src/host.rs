//! What `c64kit test` takes from the command line's side (kit/cli), so that each job has one
//! path: a scenario's `[scenario.settings]` are read by the reader of c64kit.toml, with its
//! keys and its errors, and a program that is a tape or disk image (or any format a loader
//! plugin reads) is loaded by `c64kit run`'s loaders. (The CLI depends on this crate, so it
//! hands them in.)

use c64kit_machine::input::{default_key_hold, hold_cycles_on};
use c64kit_machine::kernal::AfterReturn;
use c64kit_machine::{CiaModel, Drive, RomPaths, Roms, RunSettings, SidModel, VicModel};
use std::path::{Path, PathBuf};

/// A scenario's machine, as its `[scenario.settings]` give it (c64kit.toml's keys); what is
/// not given is as `c64kit run` has it.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// ROM images (`[roms]`): c64kit's own unless given.
    pub roms: RomPaths,
    pub cia: Option<CiaModel>,
    pub sid: Option<SidModel>,
    pub vic: Option<VicModel>,
    /// Drive 8's folder, writable (`drive_dir`); without it, drive 8 reads the scenario
    /// file's folder and cannot write.
    pub drive_dir: Option<PathBuf>,
    /// How long a scripted key is held down (`key_hold`), in the model's frames or time.
    pub key_hold: Option<c64kit_basic::Hold>,
    /// ANE's and LXA's magic constants (`cpu_magic`).
    pub cpu_magic: Option<(u8, u8)>,
    /// What a return to BASIC does (`after_return`).
    pub after_return: Option<AfterReturn>,
    /// The budget (`max_cycles`), as the scenario's own `max_cycles`.
    pub max_cycles: Option<u64>,
}

impl Setup {
    /// The run's settings: `RunSettings`' defaults with what is given; drive 8 over
    /// `drive_dir` (writable), else over `dir` (reading only), the scenario file's folder.
    pub fn run_settings(&self, dir: Option<&Path>) -> Result<RunSettings, String> {
        let mut settings = RunSettings {
            roms: Roms::load(&self.roms).map_err(|e| e.to_string())?,
            ..RunSettings::default()
        };
        if let Some(m) = self.cia {
            settings.cia = m;
        }
        if let Some(m) = self.sid {
            settings.sid = m;
        }
        if let Some(m) = self.vic {
            settings.vic = m;
        }
        // A frame or a millisecond is the model's own (60 Hz frames on NTSC), as `run` has it.
        settings.key_hold = self.key_hold.map_or(default_key_hold(settings.vic), |h| {
            hold_cycles_on(settings.vic, h)
        });
        if let Some(m) = self.cpu_magic {
            settings.cpu_magic = m;
        }
        if let Some(a) = self.after_return {
            settings.after_return = a;
        }
        settings.drive = match (&self.drive_dir, dir) {
            (Some(d), _) => Drive::writable(d),
            (None, Some(d)) => {
                let d = if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                };
                let mut drive = Drive::read_only(d);
                drive.set_write_protect_hint(
                    "to let the program write, give the scenario a folder: drive_dir = \"DIR\" \
                     under [scenario.settings] (docs/testing.md)",
                );
                drive
            }
            (None, None) => Drive::default(),
        };
        Ok(settings)
    }
}

/// The command line's side of `c64kit test` (kit/cli implements it).
pub trait Host {
    /// A scenario's `[scenario.settings]`, read with c64kit.toml's keys and rules: relative
    /// paths are relative to `dir` (the scenario file's folder); `key("vic")` names a key in
    /// an error, with the scenario file and the line it is on.
    fn settings(
        &self,
        table: &toml::Table,
        dir: &Path,
        key: &dyn Fn(&str) -> String,
    ) -> Result<Setup, String>;

    /// A program file that is not a .prg, .bas, .asm or .cbmprj, as `c64kit run FILE
    /// --entry ENTRY` loads it: a tape or disk image's file, or any format a loader reads.
    fn load(&self, path: &Path, entry: Option<&str>) -> Result<c64kit_machine::Program, String>;
}
