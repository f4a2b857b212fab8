//! `c64kit.toml`: plugin libraries, the default display, ROM images, the default cycle budget
//! and per-plugin options. Read from `--config F`, else from the current folder if there is
//! one there. Relative paths in it are relative to the file's folder.
//!
//! ```toml
//! plugins = ["target/release/libmy_display.so"]
//! display = "transcript"          # or a list: ["transcript", "png"]
//! max_cycles = 9852480            # or "$965640"
//! drive_dir = "disk"              # drive 8's folder, writable (default: "." read-only)
//! cpu_magic = "$EF,$EE"           # ANE's and LXA's magic constants (one value: both)
//! cia = "6526a"                   # the CIAs: "6526" (old, the default) or "6526a" (new)
//! sid = "8580"                    # the SID: "6581" (old, the default) or "8580" (new)
//! vic = "6567r8"                  # the VIC-II: "6569" (PAL, the default), "6567r8" (NTSC),
//!                                 # "6567r56a" (old NTSC), "8565" or "8562" (a C64C's)
//! palette = "chip"                # displays' colours: "pepto" (the default) or "chip" (the
//!                                 # VIC-II model's own, from its luminances)
//! model = "c64-ntsc"              # a C64 as x64sc's -model: "c64", "c64-ntsc",
//!                                 # "c64-ntsc-old", "c64c", "c64c-ntsc"
//! after_return = "wait"           # a return to BASIC idles (default: "return" ends the run)
//! exit_status = true              # a return to BASIC exits with ST ($90), as --exit-status
//! key_hold = "3f"                 # how long a scripted key is down in the matrix (f, ms, c)
//! audio = "cpal"                  # audio outputs by name (or a list), for run and play
//! audio_rate = 48000              # samples per second of the sound
//!
//! [roms]
//! chargen = "roms/chargen.bin"
//!
//! [plugin.png]                    # options for the plugin named png
//! scale = 2
//! ```

use anyhow::{bail, Context, Result};
pub use c64kit_machine::{CiaModel, GlueLogic, SidModel, VicModel};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A CIA model as `--cia` and `cia` take it: "6526" (old) or "6526a" (new), any case.
pub fn parse_cia_model(s: &str) -> Result<CiaModel> {
    match s.to_ascii_lowercase().as_str() {
        "6526" => Ok(CiaModel::Mos6526),
        "6526a" => Ok(CiaModel::Mos6526A),
        _ => bail!(
            "{:?} is not a CIA model: \"6526\" (old) or \"6526a\" (new)",
            c64kit_files::quote(s)
        ),
    }
}

/// A SID model as `--sid` and `sid` take it: "6581" (old) or "8580" (new).
pub fn parse_sid_model(s: &str) -> Result<SidModel> {
    match s.trim() {
        "6581" => Ok(SidModel::Mos6581),
        "8580" => Ok(SidModel::Mos8580),
        _ => bail!(
            "{:?} is not a SID model: \"6581\" (old) or \"8580\" (new)",
            c64kit_files::quote(s)
        ),
    }
}

/// The colours displays show (`--palette`, `palette`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PaletteChoice {
    /// Pepto's PAL palette on every model (the default; what VICE's testbench and its
    /// reference pictures use).
    #[default]
    Pepto,
    /// The running VIC-II's own colours, calculated from its luminances as Pepto's article
    /// does (`c64kit_plugin_api::palette::calculate`): the 6567R56A's 5 levels, the others' 9.
    Chip,
}

impl PaletteChoice {
    /// The RGB of colours 0-15 on `vic`.
    pub fn colours(self, vic: VicModel) -> c64kit_plugin_api::palette::Palette {
        match self {
            PaletteChoice::Pepto => c64kit_plugin_api::palette::PEPTO,
            PaletteChoice::Chip => c64kit_plugin_api::palette::calculate(&vic.facts().luma),
        }
    }
}

/// A palette as `--palette` and `palette` take it: "pepto" or "chip".
pub fn parse_palette(s: &str) -> Result<PaletteChoice> {
    match s.trim().to_ascii_lowercase().as_str() {
        "pepto" => Ok(PaletteChoice::Pepto),
        "chip" => Ok(PaletteChoice::Chip),
        _ => bail!(
            "{:?} is not a palette: \"pepto\" (Pepto's PAL colours, the default) or \"chip\" \
             (the VIC-II model's own)",
            c64kit_files::quote(s)
        ),
    }
}

/// A VIC-II model as `--vic` and `vic` take it: "6569" (PAL), "8565" (a C64C's PAL chip),
/// "6567r8" (NTSC), "6567r56a" (old NTSC) or "8562" (a C64C's NTSC chip), any case.
pub fn parse_vic_model(s: &str) -> Result<VicModel> {
    if let Some(model) = VicModel::from_name(s.trim()) {
        return Ok(model);
    }
    bail!(
        "{:?} is not a VIC-II model: \"6569\" (PAL), \"8565\" (a C64C's PAL chip), \"6567r8\" \
         (NTSC), \"6567r56a\" (old NTSC) or \"8562\" (a C64C's NTSC chip)",
        c64kit_files::quote(s)
    )
}

/// A C64 as `--model` and `model` take it (x64sc's `-model`): the VIC-II, CIAs and SID
/// chosen together, and the glue logic between CIA 2 and the VIC-II's bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct C64Model {
    pub vic: VicModel,
    pub cia: CiaModel,
    pub sid: SidModel,
    pub glue: GlueLogic,
}

/// The `--model` presets, as VICE's x64sc has them: the breadbin C64s (old CIAs, 6581) and
/// the C64Cs (8565 or 8562, 6526A CIAs, 8580).
pub const C64_MODELS: [(&str, C64Model); 5] = [
    (
        "c64",
        C64Model {
            vic: VicModel::Mos6569,
            cia: CiaModel::Mos6526,
            sid: SidModel::Mos6581,
            glue: GlueLogic::Discrete,
        },
    ),
    (
        "c64-ntsc",
        C64Model {
            vic: VicModel::Mos6567R8,
            cia: CiaModel::Mos6526,
            sid: SidModel::Mos6581,
            glue: GlueLogic::Discrete,
        },
    ),
    (
        "c64-ntsc-old",
        C64Model {
            vic: VicModel::Mos6567R56A,
            cia: CiaModel::Mos6526,
            sid: SidModel::Mos6581,
            glue: GlueLogic::Discrete,
        },
    ),
    (
        "c64c",
        C64Model {
            vic: VicModel::Mos8565,
            cia: CiaModel::Mos6526A,
            sid: SidModel::Mos8580,
            glue: GlueLogic::CustomIc,
        },
    ),
    (
        "c64c-ntsc",
        C64Model {
            vic: VicModel::Mos8562,
            cia: CiaModel::Mos6526A,
            sid: SidModel::Mos8580,
            glue: GlueLogic::CustomIc,
        },
    ),
];

/// A `--model` preset by name, any case.
pub fn parse_c64_model(s: &str) -> Result<C64Model> {
    let name = s.trim().to_ascii_lowercase();
    if let Some((_, model)) = C64_MODELS.iter().find(|(n, _)| *n == name) {
        return Ok(*model);
    }
    let names: Vec<String> = C64_MODELS.iter().map(|(n, _)| format!("{n:?}")).collect();
    bail!(
        "{:?} is not a C64 model: {}",
        c64kit_files::quote(s),
        names.join(", ")
    )
}

/// What a return to BASIC does, as `--after-return` and `after_return` name it: "wait"
/// idles, "return" (anything else) ends the run.
pub fn after_return_mode(name: &str) -> c64kit_machine::kernal::AfterReturn {
    match name {
        "wait" => c64kit_machine::kernal::AfterReturn::Wait,
        _ => c64kit_machine::kernal::AfterReturn::Return,
    }
}

/// The file name looked for in the current folder.
pub const FILE_NAME: &str = "c64kit.toml";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    plugins: Vec<PathBuf>,
    display: Option<OneOrMany>,
    max_cycles: Option<toml::Value>,
    drive_dir: Option<PathBuf>,
    cpu_magic: Option<String>,
    cia: Option<String>,
    sid: Option<String>,
    vic: Option<String>,
    palette: Option<String>,
    model: Option<String>,
    after_return: Option<String>,
    exit_status: Option<bool>,
    key_hold: Option<String>,
    audio: Option<OneOrMany>,
    audio_rate: Option<toml::Value>,
    #[serde(default)]
    roms: RawRoms,
    #[serde(default)]
    plugin: BTreeMap<String, BTreeMap<String, toml::Value>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoms {
    basic: Option<PathBuf>,
    kernal: Option<PathBuf>,
    chargen: Option<PathBuf>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

/// A sample rate as `--audio-rate` and `audio_rate` take it: samples per second, within what
/// the SID's synthesis makes.
pub fn parse_audio_rate(s: &str) -> Result<u32> {
    let rates = c64kit_machine::AUDIO_SAMPLE_RATES;
    let n = crate::parse_number(s)?;
    match u32::try_from(n) {
        Ok(r) if rates.contains(&r) => Ok(r),
        _ => bail!(
            "sample rate {n} Hz: must be {} to {} Hz",
            rates.start(),
            rates.end()
        ),
    }
}

/// The settings, paths made absolute (or relative to the current folder).
#[derive(Debug, Default, Clone)]
pub struct Config {
    /// The file the settings came from (none: no settings file), for messages that name it.
    pub source: Option<PathBuf>,
    pub plugins: Vec<PathBuf>,
    pub display: Option<Vec<String>>,
    pub max_cycles: Option<u64>,
    /// The folder drive 8 reads and may write (`drive_dir`).
    pub drive_dir: Option<PathBuf>,
    /// ANE's and LXA's magic constants (`cpu_magic`).
    pub cpu_magic: Option<(u8, u8)>,
    /// The CIAs' model (`cia`).
    pub cia: Option<CiaModel>,
    /// The SID's model (`sid`).
    pub sid: Option<SidModel>,
    /// The VIC-II's model (`vic`).
    pub vic: Option<VicModel>,
    /// The colours displays show (`palette`).
    pub palette: Option<PaletteChoice>,
    /// A C64 preset (`model`): its chips unless `vic`, `cia` or `sid` says otherwise.
    pub model: Option<C64Model>,
    /// "return" or "wait" (`after_return`).
    pub after_return: Option<String>,
    /// A return to BASIC exits with the status in ST (`exit_status`, as `--exit-status`).
    pub exit_status: Option<bool>,
    /// How long a scripted key is held in the keyboard matrix (`key_hold`; in cycles once
    /// the VIC-II is known).
    pub key_hold: Option<c64kit_basic::Hold>,
    /// The audio outputs, by plugin name (`audio`).
    pub audio: Option<Vec<String>>,
    /// Samples per second of the sound (`audio_rate`).
    pub audio_rate: Option<u32>,
    pub basic_rom: Option<PathBuf>,
    pub kernal_rom: Option<PathBuf>,
    pub chargen_rom: Option<PathBuf>,
    /// Options per plugin name, values as text.
    pub options: BTreeMap<String, Vec<(String, String)>>,
}

impl Config {
    /// `--config F` if given (it must exist), else `./c64kit.toml` if it exists, else none.
    pub fn find(explicit: Option<&Path>) -> Result<Config> {
        match explicit {
            Some(p) => Config::load(p),
            None => {
                let p = Path::new(FILE_NAME);
                if p.is_file() {
                    Config::load(p)
                } else {
                    Ok(Config::default())
                }
            }
        }
    }

    pub fn load(path: &Path) -> Result<Config> {
        let text = c64kit_files::read_text(path, crate::limits::CONFIG, "a settings file")
            .context("settings file")?;
        Config::parse(&text, path)
    }

    /// Names a setting in a message: `c64kit.toml: plugins[0]`.
    pub fn key(&self, key: &str) -> String {
        match &self.source {
            Some(p) => format!("{}: {key}", p.display()),
            None => key.to_string(),
        }
    }

    /// Parses config text; `path` names the file in errors and anchors relative paths.
    pub fn parse(text: &str, path: &Path) -> Result<Config> {
        let shown = path.display();
        let raw: Raw = toml::from_str(text).map_err(|e| {
            anyhow::anyhow!("{shown}: {}", c64kit_files::clip_lines(&e.to_string()))
        })?;
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut config = Config::from_raw(raw, dir, &|key| format!("{shown}: {key}"))?;
        config.source = Some(path.to_path_buf());
        Ok(config)
    }

    /// The same keys given as a table inside another file (a `c64kit test` scenario's
    /// `[scenario.settings]`), read as [`Config::parse`] reads c64kit.toml: relative paths
    /// are relative to `dir`, and `key("vic")` names a key in errors (with the file and the
    /// line it is on).
    pub fn from_table(
        table: toml::Table,
        dir: &Path,
        key: &dyn Fn(&str) -> String,
    ) -> Result<Config> {
        let raw = Raw::deserialize(toml::Value::Table(table)).map_err(|e| {
            let message = c64kit_files::clip_lines(e.message().trim_end());
            // serde names an unknown key in its message; the others are named by toml.
            let named = message
                .strip_prefix("unknown field `")
                .and_then(|m| m.split_once('`'))
                .map(|(k, _)| k.to_string());
            match named {
                Some(k) => anyhow::anyhow!("{}: {message}", key(&k)),
                None => anyhow::anyhow!("{}: {message}", key("")),
            }
        })?;
        Config::from_raw(raw, dir, key)
    }

    fn from_raw(raw: Raw, dir: &Path, key: &dyn Fn(&str) -> String) -> Result<Config> {
        let rel = |p: PathBuf| if p.is_absolute() { p } else { dir.join(p) };
        let max_cycles = match raw.max_cycles {
            None => None,
            Some(toml::Value::Integer(n)) => Some(
                crate::parse_budget(&n.to_string())
                    .map_err(|e| anyhow::anyhow!("{}: {e}", key("max_cycles")))?,
            ),
            Some(toml::Value::String(s)) => Some(
                crate::parse_budget(&s)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", key("max_cycles")))?,
            ),
            Some(other) => bail!("{}: expected a number, not {other}", key("max_cycles")),
        };
        let audio_rate = match raw.audio_rate {
            None => None,
            Some(toml::Value::Integer(n)) => Some(
                parse_audio_rate(&n.to_string())
                    .map_err(|e| anyhow::anyhow!("{}: {e}", key("audio_rate")))?,
            ),
            Some(toml::Value::String(s)) => Some(
                parse_audio_rate(&s).map_err(|e| anyhow::anyhow!("{}: {e}", key("audio_rate")))?,
            ),
            Some(other) => bail!("{}: expected a number, not {other}", key("audio_rate")),
        };
        let mut options = BTreeMap::new();
        for (plugin, table) in raw.plugin {
            let mut list = Vec::new();
            for (name, value) in table {
                let values = match value {
                    toml::Value::Array(items) => items,
                    v => vec![v],
                };
                for v in values {
                    let text = match v {
                        toml::Value::String(s) => s,
                        toml::Value::Integer(n) => n.to_string(),
                        toml::Value::Boolean(b) => b.to_string(),
                        toml::Value::Float(f) => f.to_string(),
                        other => bail!(
                            "{}: expected text, a number or true/false, not {other}",
                            key(&format!("[plugin.{plugin}] {name}"))
                        ),
                    };
                    list.push((name.clone(), text));
                }
            }
            options.insert(plugin, list);
        }
        fn named<'a>(
            key: &'a dyn Fn(&str) -> String,
            k: &'a str,
        ) -> impl Fn(anyhow::Error) -> anyhow::Error + 'a {
            move |e| anyhow::anyhow!("{}: {e}", key(k))
        }
        Ok(Config {
            source: None,
            plugins: raw.plugins.into_iter().map(rel).collect(),
            display: raw.display.map(OneOrMany::into_vec),
            audio: raw.audio.map(OneOrMany::into_vec),
            audio_rate,
            max_cycles,
            drive_dir: raw.drive_dir.map(rel),
            cpu_magic: raw
                .cpu_magic
                .map(|m| crate::parse_cpu_magic(&m))
                .transpose()
                .map_err(named(key, "cpu_magic"))?,
            cia: raw
                .cia
                .map(|m| parse_cia_model(&m))
                .transpose()
                .map_err(named(key, "cia"))?,
            sid: raw
                .sid
                .map(|m| parse_sid_model(&m))
                .transpose()
                .map_err(named(key, "sid"))?,
            vic: raw
                .vic
                .map(|m| parse_vic_model(&m))
                .transpose()
                .map_err(named(key, "vic"))?,
            palette: raw
                .palette
                .map(|m| parse_palette(&m))
                .transpose()
                .map_err(named(key, "palette"))?,
            model: raw
                .model
                .map(|m| parse_c64_model(&m))
                .transpose()
                .map_err(named(key, "model"))?,
            after_return: match raw.after_return.as_deref() {
                None => None,
                Some(v @ ("return" | "wait")) => Some(v.to_string()),
                Some(other) => bail!(
                    "{}: {:?} is not \"return\" or \"wait\"",
                    key("after_return"),
                    c64kit_files::quote(other)
                ),
            },
            exit_status: raw.exit_status,
            key_hold: raw
                .key_hold
                .map(|t| c64kit_basic::parse_hold(&t))
                .transpose()
                .map_err(|e| anyhow::anyhow!("{}: {e}", key("key_hold")))?,
            basic_rom: raw.roms.basic.map(rel),
            kernal_rom: raw.roms.kernal.map(rel),
            chargen_rom: raw.roms.chargen.map(rel),
            options,
        })
    }

    /// A `c64kit test` scenario's `[scenario.settings]`: the keys of c64kit.toml that make
    /// the machine (ROMs, chip models, drive folder, key hold, budget...), read by
    /// [`Config::from_table`]; the ones for displays, sound and plugins are refused, since a
    /// scenario's checks see the machine itself. The ROM images and the drive folder must be
    /// there. `key` names a key in errors (file, line and key).
    pub fn scenario_setup(
        table: &toml::Table,
        dir: &Path,
        key: &dyn Fn(&str) -> String,
    ) -> std::result::Result<c64kit_conformance::host::Setup, String> {
        let c = Config::from_table(table.clone(), dir, key).map_err(|e| format!("{e:#}"))?;
        let refused = [
            ("plugins", !c.plugins.is_empty()),
            ("display", c.display.is_some()),
            ("audio", c.audio.is_some()),
            ("audio_rate", c.audio_rate.is_some()),
            ("plugin", !c.options.is_empty()),
        ];
        if let Some((k, _)) = refused.iter().find(|(_, given)| *given) {
            return Err(format!(
                "{}: a scenario has no displays, sound or plugins (its checks read the \
                 machine's screen, memory and transcript); run the program with c64kit run \
                 for those",
                key(k)
            ));
        }
        if c.exit_status.is_some() {
            return Err(format!(
                "{}: in a scenario, `exit_status = N` (not under settings) is the status the \
                 program must return to BASIC with",
                key("exit_status")
            ));
        }
        if let Some(d) = &c.drive_dir {
            c64kit_machine::drive::check_folder(d)
                .map_err(|why| format!("{}: {}: {why}", key("drive_dir"), d.display()))?;
        }
        let roms = c64kit_machine::RomPaths {
            basic: c.basic_rom.clone(),
            kernal: c.kernal_rom.clone(),
            chargen: c.chargen_rom.clone(),
        };
        if let Err(e) = c64kit_machine::Roms::load(&roms) {
            let path = match &e {
                c64kit_machine::roms::RomError::Read(f) => f.path.clone(),
                c64kit_machine::roms::RomError::Size { path, .. } => PathBuf::from(path),
            };
            let which = [
                (&roms.basic, "roms.basic"),
                (&roms.kernal, "roms.kernal"),
                (&roms.chargen, "roms.chargen"),
            ]
            .into_iter()
            .find(|(p, _)| p.as_ref() == Some(&path))
            .map_or("roms", |(_, k)| k);
            return Err(format!("{}: {e}", key(which)));
        }
        if let Some(why) = roms.unpaired() {
            return Err(format!("{}: {why}", key("roms")));
        }
        Ok(c64kit_conformance::host::Setup {
            cia: c.cia_model(),
            sid: c.sid_model(),
            vic: c.vic_model(),
            roms,
            drive_dir: c.drive_dir,
            key_hold: c.key_hold,
            cpu_magic: c.cpu_magic,
            after_return: c.after_return.as_deref().map(after_return_mode),
            max_cycles: c.max_cycles,
        })
    }

    /// The CIAs: `cia`, else the `model`'s.
    pub fn cia_model(&self) -> Option<CiaModel> {
        self.cia.or(self.model.map(|m| m.cia))
    }

    /// The glue logic: the `model`'s (a breadbin C64's unless it names a C64C).
    pub fn glue_logic(&self) -> Option<GlueLogic> {
        self.model.map(|m| m.glue)
    }

    /// The SID: `sid`, else the `model`'s.
    pub fn sid_model(&self) -> Option<SidModel> {
        self.sid.or(self.model.map(|m| m.sid))
    }

    /// The VIC-II: `vic`, else the `model`'s.
    pub fn vic_model(&self) -> Option<VicModel> {
        self.vic.or(self.model.map(|m| m.vic))
    }

    /// The options the config gives plugin `name`.
    pub fn options_for(&self, name: &str) -> Vec<(String, String)> {
        self.options.get(name).cloned().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sid_key_takes_the_two_models_and_names_a_bad_one() {
        // `sid` picks the SID model like `cia` the CIAs'; a typo is an error naming the key.
        let c = Config::parse("sid = \"8580\"\n", Path::new("c64kit.toml")).unwrap();
        assert_eq!(c.sid, Some(SidModel::Mos8580));
        let c = Config::parse("sid = \"6581\"\n", Path::new("c64kit.toml")).unwrap();
        assert_eq!(c.sid, Some(SidModel::Mos6581));
        let e = Config::parse("sid = \"6582\"\n", Path::new("c64kit.toml")).unwrap_err();
        assert!(e.to_string().contains("sid: "), "{e}");
        let c = Config::parse("vic = \"6567R8\"\n", Path::new("c64kit.toml")).unwrap();
        assert_eq!(c.vic, Some(VicModel::Mos6567R8));
        let c = Config::parse("vic = \"8565\"\n", Path::new("c64kit.toml")).unwrap();
        assert_eq!(c.vic, Some(VicModel::Mos8565));
        let v = Config::parse("vic = \"8566\"\n", Path::new("c64kit.toml")).unwrap_err();
        assert!(v.to_string().contains("vic: "), "{v}");
        let c = Config::parse("model = \"c64-ntsc-old\"\n", Path::new("c64kit.toml")).unwrap();
        assert_eq!(c.model.map(|m| m.vic), Some(VicModel::Mos6567R56A));
        let c = Config::parse("model = \"c64c-ntsc\"\n", Path::new("c64kit.toml")).unwrap();
        let c64c_ntsc = c.model.map(|m| (m.vic, m.cia, m.sid));
        let expected = (VicModel::Mos8562, CiaModel::Mos6526A, SidModel::Mos8580);
        assert_eq!(c64c_ntsc, Some(expected));
        let m = Config::parse("model = \"c128\"\n", Path::new("c64kit.toml")).unwrap_err();
        assert!(m.to_string().contains("model: "), "{m}");
        assert!(e.to_string().contains("not a SID model"), "{e}");
    }

    #[test]
    fn reads_every_setting_relative_to_the_file() {
        let c = Config::parse(
            "plugins = [\"lib/a.so\", \"/abs/b.so\"]\ndisplay = [\"transcript\", \"png\"]\n\
             max_cycles = \"$100\"\n[roms]\nchargen = \"roms/c.bin\"\n\
             [plugin.png]\nscale = 2\nat = [100, 200]\nborder = false\n",
            Path::new("cfg/c64kit.toml"),
        )
        .unwrap();
        assert_eq!(
            c.plugins,
            vec![PathBuf::from("cfg/lib/a.so"), PathBuf::from("/abs/b.so")]
        );
        assert_eq!(c.display, Some(vec!["transcript".into(), "png".into()]));
        assert_eq!(c.max_cycles, Some(256));
        assert_eq!(c.chargen_rom, Some(PathBuf::from("cfg/roms/c.bin")));
        assert_eq!(
            c.options_for("png"),
            vec![
                ("at".to_string(), "100".to_string()),
                ("at".to_string(), "200".to_string()),
                ("border".to_string(), "false".to_string()),
                ("scale".to_string(), "2".to_string()),
            ]
        );
        let one = Config::parse("display = \"png\"", Path::new("x.toml")).unwrap();
        assert_eq!(one.display, Some(vec!["png".into()]));
    }

    #[test]
    fn the_drive_folder_is_relative_to_the_file() {
        let c = Config::parse("drive_dir = \"disk\"", Path::new("cfg/c64kit.toml")).unwrap();
        assert_eq!(c.drive_dir, Some(PathBuf::from("cfg/disk")));
        let c = Config::parse("drive_dir = \"/abs\"", Path::new("cfg/c64kit.toml")).unwrap();
        assert_eq!(c.drive_dir, Some(PathBuf::from("/abs")));
        let none = Config::parse("", Path::new("c.toml")).unwrap();
        assert_eq!(none.drive_dir, None);
    }

    #[test]
    fn broken_files_are_named_with_the_line() {
        let e = Config::parse("display = \n", Path::new("my.toml")).unwrap_err();
        let msg = format!("{e:#}");
        assert!(msg.starts_with("my.toml: "), "{msg}");
        assert!(msg.contains("line 1"), "{msg}");
        let e = Config::parse("colour = 3\n", Path::new("my.toml")).unwrap_err();
        assert!(format!("{e:#}").contains("unknown field `colour`"), "{e:#}");
        let e = Config::parse("max_cycles = true\n", Path::new("my.toml")).unwrap_err();
        assert!(format!("{e:#}").contains("max_cycles"), "{e:#}");
    }

    #[test]
    fn audio_keys_take_names_and_a_rate() {
        let c = Config::parse(
            "audio = \"cpal\"\naudio_rate = 48000\n",
            Path::new("c.toml"),
        )
        .unwrap();
        assert_eq!(c.audio, Some(vec!["cpal".to_string()]));
        assert_eq!(c.audio_rate, Some(48_000));
        let c = Config::parse(
            "audio = [\"wav\", \"cpal\"]\naudio_rate = \"$BB80\"",
            Path::new("c.toml"),
        )
        .unwrap();
        assert_eq!(c.audio.unwrap().len(), 2);
        assert_eq!(c.audio_rate, Some(48_000));
        for bad in [
            "audio_rate = 1000",
            "audio_rate = -1",
            "audio_rate = \"fast\"",
        ] {
            let e = Config::parse(bad, Path::new("c.toml")).unwrap_err();
            assert!(
                format!("{e:#}").starts_with("c.toml: audio_rate: "),
                "{e:#}"
            );
        }
        let e = Config::parse("audio_rate = 1000", Path::new("c.toml")).unwrap_err();
        assert!(
            format!("{e:#}").contains("sample rate 1000 Hz: must be 8000 to 192000 Hz"),
            "{e:#}"
        );
    }

    #[test]
    fn a_table_in_another_file_is_read_by_the_same_rules() {
        // A scenario's [scenario.settings]: the same keys, paths relative to its folder, and
        // each error naming the key as the caller says (file and line included).
        let table: toml::Table =
            toml::from_str("vic = \"6567r8\"\ndrive_dir = \"disk\"\n[roms]\nkernal = \"k.bin\"\n")
                .unwrap();
        let key = |k: &str| format!("t.toml:9: key `settings.{k}`");
        let c = Config::from_table(table, Path::new("suite"), &key).unwrap();
        assert_eq!(c.vic_model(), Some(VicModel::Mos6567R8));
        assert_eq!(c.drive_dir, Some(PathBuf::from("suite/disk")));
        assert_eq!(c.kernal_rom, Some(PathBuf::from("suite/k.bin")));
        assert_eq!(c.source, None);
        for (text, wanted) in [
            (
                "sid = \"6582\"",
                "t.toml:9: key `settings.sid`: \"6582\" is not a SID model",
            ),
            (
                "colour = 1",
                "t.toml:9: key `settings.colour`: unknown field `colour`",
            ),
            (
                "max_cycles = 0",
                "t.toml:9: key `settings.max_cycles`: a cycle budget",
            ),
        ] {
            let table: toml::Table = toml::from_str(text).unwrap();
            let e = Config::from_table(table, Path::new(""), &key).unwrap_err();
            assert!(format!("{e:#}").starts_with(wanted), "{e:#}");
        }
        // The model's chips, unless a chip is named.
        let c = Config::parse("model = \"c64-ntsc\"\nvic = \"6569\"", Path::new("c.toml")).unwrap();
        assert_eq!(c.vic_model(), Some(VicModel::Mos6569));
        assert_eq!(c.cia_model(), Some(CiaModel::Mos6526));
    }

    #[test]
    fn key_hold_takes_a_time() {
        let c = Config::parse("key_hold = \"5f\"", Path::new("c.toml")).unwrap();
        assert_eq!(c.key_hold, Some(c64kit_basic::Hold::Frames(5)));
        let c = Config::parse("key_hold = \"1000c\"", Path::new("c.toml")).unwrap();
        assert_eq!(c.key_hold, Some(c64kit_basic::Hold::Cycles(1000)));
        let e = Config::parse("key_hold = \"5\"", Path::new("c.toml")).unwrap_err();
        assert!(format!("{e:#}").contains("c.toml: key_hold: "), "{e:#}");
    }
}
