//! The plugins c64kit knows: the built-in ones (linked in) and those loaded from libraries
//! (`--plugin`, `plugins = [...]` in the config). A loaded plugin with the name of a built-in
//! one (of the same kind) replaces it.

use anyhow::{bail, Result};
use c64kit::config::Config;
use c64kit_plugin_api::host::{load_library, Kind, Origin, Plugin};
use std::path::{Path, PathBuf};

/// The display used when neither the command line nor the config names one.
pub const DEFAULT_DISPLAY: &str = "transcript";
/// The loader for files no loader claims.
pub const DEFAULT_LOADER: &str = "prg";
/// The audio output that writes the file `--audio FILE` names.
pub const DEFAULT_AUDIO: &str = "wav";

pub struct Registry {
    /// Built-ins first, then libraries in the order given.
    pub plugins: Vec<Plugin>,
}

/// The headers of the plugins linked into c64kit.
pub fn builtin_headers() -> Vec<&'static c64kit_plugin_api::abi::PluginHeader> {
    vec![
        c64kit_display_transcript::plugin(),
        c64kit_display_terminal::plugin(),
        c64kit_display_png::plugin(),
        c64kit_display_html::plugin(),
        c64kit_display_gif::plugin(),
        c64kit_loader_prg::plugin(),
        c64kit_loader_basic::plugin(),
        c64kit_loader_asm::plugin(),
        c64kit_loader_t64::plugin(),
        c64kit_loader_d64::plugin(),
        c64kit_audio_wav::plugin(),
    ]
}

impl Registry {
    /// The built-ins plus every library from the config and the command line.
    pub fn new(config: &Config, libraries: &[PathBuf]) -> Result<Registry> {
        let mut plugins = Vec::new();
        for h in builtin_headers() {
            plugins.push(Plugin::builtin(h).map_err(|e| anyhow::anyhow!("built-in plugin: {e}"))?);
        }
        let mut seen = Vec::new();
        let named = config
            .plugins
            .iter()
            .enumerate()
            .map(|(i, p)| (p, config.key(&format!("plugins[{i}]"))))
            .chain(libraries.iter().map(|p| (p, "--plugin".to_string())));
        for (path, origin) in named {
            // The same library named twice (config and command line) is loaded once.
            let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let loaded = load_library(path).map_err(|e| anyhow::anyhow!("{origin}: {e}"))?;
            plugins.extend(loaded);
        }
        let registry = Registry { plugins };
        // Options for a plugin nobody has are a typo or a plugin that failed to load.
        for name in config.options.keys() {
            if !registry.plugins.iter().any(|p| &p.name == name) {
                bail!(
                    "{}: no plugin is named {name:?} (plugins: {}, {}, {}; see `c64kit plugins`)",
                    config.key(&format!("[plugin.{name}]")),
                    registry.names(Kind::Display),
                    registry.names(Kind::Loader),
                    registry.names(Kind::Audio)
                );
            }
        }
        Ok(registry)
    }

    /// The plugin of this kind and name that is in force (the last one given).
    pub fn find(&self, kind: Kind, name: &str) -> Option<&Plugin> {
        self.plugins
            .iter()
            .rev()
            .find(|p| p.kind == kind && p.name == name)
    }

    /// True if a later plugin of the same kind and name replaces `p`.
    pub fn is_overridden(&self, p: &Plugin) -> bool {
        self.find(p.kind, &p.name)
            .is_some_and(|winner| !std::ptr::eq(winner, p))
    }

    /// The names of the plugins of a kind, sorted: "gif, html, png".
    pub fn names(&self, kind: Kind) -> String {
        let mut names: Vec<&str> = self
            .plugins
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| p.name.as_str())
            .collect();
        names.sort();
        names.dedup();
        names.join(", ")
    }

    pub fn display(&self, name: &str) -> Result<&Plugin> {
        match self.find(Kind::Display, name) {
            Some(p) => Ok(p),
            None => bail!(
                "no display named {name:?} (available: {}; see `c64kit plugins`)",
                self.names(Kind::Display)
            ),
        }
    }

    pub fn loader(&self, name: &str) -> Result<&Plugin> {
        match self.find(Kind::Loader, name) {
            Some(p) => Ok(p),
            None => bail!(
                "no loader named {name:?} (available: {}; see `c64kit plugins`)",
                self.names(Kind::Loader)
            ),
        }
    }

    pub fn audio(&self, name: &str) -> Result<&Plugin> {
        match self.find(Kind::Audio, name) {
            Some(p) => Ok(p),
            None => bail!(
                "no audio output named {name:?} (available: {}; see `c64kit plugins`)",
                self.names(Kind::Audio)
            ),
        }
    }

    /// The audio output `c64kit play` uses when none is named: the live one (a sound card)
    /// loaded last, if any.
    pub fn live_audio(&self) -> Option<&Plugin> {
        self.plugins
            .iter()
            .rev()
            .find(|p| p.kind == Kind::Audio && p.live && !self.is_overridden(p))
    }

    /// The loader for a file: one that recognises its content (magic bytes), else one that
    /// declares its extension, else one that finds it plausible, else the PRG loader.
    /// Plugins loaded later are asked first.
    pub fn loader_for(&self, path: &Path, bytes: &[u8]) -> Result<&Plugin> {
        let shown = path.display().to_string();
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase());
        let loaders: Vec<&Plugin> = self
            .plugins
            .iter()
            .rev()
            .filter(|p| p.kind == Kind::Loader && !self.is_overridden(p))
            .collect();
        let mut scores = Vec::new();
        for p in &loaders {
            let score = p
                .probe(&shown, bytes)
                .map_err(|e| anyhow::anyhow!("{shown}: {} failed: {e}", p.label()))?;
            scores.push(score);
        }
        if let Some(i) = scores.iter().position(|&s| s >= 2) {
            return Ok(loaders[i]);
        }
        if let Some(ext) = &ext {
            if let Some(p) = loaders.iter().find(|p| p.extensions.contains(ext)) {
                return Ok(p);
            }
        }
        if let Some(i) = scores.iter().position(|&s| s == 1) {
            return Ok(loaders[i]);
        }
        self.loader(DEFAULT_LOADER)
    }

    /// The table `c64kit plugins` prints.
    pub fn listing(&self, default_display: &str) -> String {
        let mut rows = vec![[
            "KIND".to_string(),
            "NAME".to_string(),
            "VERSION".to_string(),
            "FROM".to_string(),
            "DESCRIPTION".to_string(),
        ]];
        for p in &self.plugins {
            let mut notes = Vec::new();
            if !p.extensions.is_empty() {
                notes.push(format!(
                    "[{}]",
                    p.extensions
                        .iter()
                        .map(|e| format!(".{e}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            if self.is_overridden(p) {
                notes.push("(replaced by a loaded plugin)".into());
            } else if (p.kind == Kind::Display && p.name == default_display)
                || (p.kind == Kind::Loader && p.name == DEFAULT_LOADER)
            {
                notes.push("(default)".into());
            } else if p.kind == Kind::Audio && p.name == DEFAULT_AUDIO {
                notes.push("(default for --audio FILE)".into());
            } else if p.kind == Kind::Audio && p.live {
                notes.push("(live: `c64kit play` plays through it)".into());
            }
            let mut description = p.description.clone();
            for n in notes {
                description.push(' ');
                description.push_str(&n);
            }
            let from = match &p.origin {
                Origin::BuiltIn => "built-in".to_string(),
                Origin::Library(path) => path.display().to_string(),
            };
            rows.push([
                p.kind.to_string(),
                p.name.clone(),
                p.version.clone(),
                from,
                description,
            ]);
        }
        let widths: Vec<usize> = (0..4)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for r in rows {
            for (c, w) in widths.iter().enumerate() {
                out.push_str(&format!("{:<w$}  ", r[c], w = w));
            }
            out.push_str(&r[4]);
            out.push('\n');
        }
        out
    }
}
