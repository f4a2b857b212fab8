//! The BASIC text loader: `10 PRINT "HI"` lines (petcat's `{names}` for control codes),
//! tokenized to a program at $0801 and started with RUN (on c64kit's own BASIC V2, or
//! Commodore's when its images are given).
//!
//! Options: `address` (load address, default $0801).

use c64kit_plugin_api::{Options, Program, ProgramLoader};

pub struct BasicLoader;

impl ProgramLoader for BasicLoader {
    const EXTENSIONS: &'static str = "bas";

    fn load(path: &str, bytes: &[u8], options: &Options) -> Result<Program, String> {
        options.check_known(&["address"])?;
        let address = match options.number("address")? {
            None => 0x0801,
            Some(a) if a <= 0xFFFF => a as u16,
            Some(a) => return Err(format!("option address: ${a:X} is beyond $FFFF")),
        };
        let text = c64kit_files::utf8(bytes).map_err(|e| format!("{e} (is it BASIC text?)"))?;
        let prg = c64kit_basic::tokenize(text, address).map_err(|e| e.to_string())?;
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
        let mut p = Program::from_prg(&prg, String::new())?;
        p.description = format!(
            "{path}: BASIC text, {lines} line(s) tokenized to ${address:04X}-${:04X}",
            address as usize + prg.len() - 2
        );
        Ok(p)
    }
}

c64kit_plugin_api::export_loader!(
    c64kit_plugin_entry_basic,
    BasicLoader,
    "basic",
    "BASIC V2 text, tokenized like petcat -w2 and RUN"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizes_to_0801() {
        let p = BasicLoader::load("t.bas", b"10 SYS 2064\n", &Options::default()).unwrap();
        assert_eq!(p.segments[0].address, 0x0801);
        assert_eq!(p.segments[0].bytes[4], 0x9E, "SYS token");
        let e = BasicLoader::load("t.bas", b"SYS\n", &Options::default()).unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        let e =
            BasicLoader::load("t.bas", b"10 PRINT\n20 ?\"\xFE", &Options::default()).unwrap_err();
        assert!(e.starts_with("line 2, column 6: invalid UTF-8"), "{e}");
    }
}
