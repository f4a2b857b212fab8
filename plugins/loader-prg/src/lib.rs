//! The PRG loader: a 2-byte little-endian load address, then the bytes; started with RUN
//! (the SYS in its BASIC stub). The default for files no other loader claims.

use c64kit_plugin_api::{Options, Program, ProgramLoader};

pub struct PrgLoader;

impl ProgramLoader for PrgLoader {
    const EXTENSIONS: &'static str = "prg";

    fn load(path: &str, bytes: &[u8], options: &Options) -> Result<Program, String> {
        options.check_known(&[])?;
        let mut p = Program::from_prg(bytes, String::new())?;
        let s = &p.segments[0];
        p.description = format!(
            "{path}: PRG, ${:04X}-${:04X} ({} bytes)",
            s.address,
            s.address as usize + s.bytes.len(),
            s.bytes.len()
        );
        Ok(p)
    }
}

c64kit_plugin_api::export_loader!(
    c64kit_plugin_entry_prg,
    PrgLoader,
    "prg",
    "PRG files: load address then bytes, started with RUN"
);

#[cfg(test)]
mod tests {
    use super::*;
    use c64kit_plugin_api::Start;

    #[test]
    fn loads_a_stub_and_refuses_short_files() {
        let p = PrgLoader::load("a.prg", &[0x01, 0x08, 1, 2, 3], &Options::default()).unwrap();
        assert_eq!(p.segments[0].address, 0x0801);
        assert_eq!(p.segments[0].bytes, vec![1, 2, 3]);
        assert_eq!(p.start, Start::Run);
        assert!(p.description.contains("$0801-$0804"), "{}", p.description);
        let e = PrgLoader::load("a.prg", &[1], &Options::default()).unwrap_err();
        assert!(e.contains("not a PRG"), "{e}");
    }
}
