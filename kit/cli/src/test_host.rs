//! The command line's side of `c64kit test` (`c64kit_conformance::host::Host`): a
//! scenario's settings read by c64kit.toml's reader, and programs that are tape or disk
//! images (or any format a loader plugin reads) loaded by `c64kit run`'s loaders.

use crate::registry::Registry;
use crate::run::{load_program, machine_program};
use c64kit::config::Config;
use c64kit_conformance::host::{Host, Setup};
use std::path::Path;

pub struct TestHost {
    /// The built-in loaders, and those of `--plugin` libraries.
    pub registry: Registry,
}

impl Host for TestHost {
    fn settings(
        &self,
        table: &toml::Table,
        dir: &Path,
        key: &dyn Fn(&str) -> String,
    ) -> Result<Setup, String> {
        Config::scenario_setup(table, dir, key)
    }

    fn load(&self, path: &Path, entry: Option<&str>) -> Result<c64kit_machine::Program, String> {
        // As `c64kit run FILE --entry NAME`: the entry goes to the loader as its `file`.
        let options = |_: &str| {
            entry
                .map(|e| vec![("file".to_string(), e.to_string())])
                .unwrap_or_default()
        };
        let (program, _) = load_program(&self.registry, path, None, entry, "key `entry`", &options)
            .map_err(|e| format!("{e:#}"))?;
        Ok(machine_program(program))
    }
}
