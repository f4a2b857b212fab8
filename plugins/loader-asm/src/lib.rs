//! The assembly loader: a CBM prg Studio source file (`.asm`) or project (`.cbmprj`),
//! assembled by c64kit-asm as it is loaded. A program with a BASIC stub (a `SYS` line) is
//! started with RUN; any other starts at its lowest address.
//!
//! The file is read from its path (a project names other files relative to it), so the bytes
//! the host passes are not used. Options: `define = NAME=VALUE` (repeatable), `start`
//! (start address, instead of the stub or the lowest address).

use c64kit_plugin_api::{parse_number_option, Options, Program, ProgramLoader, Segment, Start};
use std::path::Path;

pub struct AsmLoader;

impl ProgramLoader for AsmLoader {
    const EXTENSIONS: &'static str = "asm,cbmprj";

    fn load(path: &str, _bytes: &[u8], options: &Options) -> Result<Program, String> {
        options.check_known(&["define", "start"])?;
        let mut opts = c64kit_asm::Options::default();
        for d in options.all("define") {
            let (name, value) = d
                .split_once('=')
                .ok_or_else(|| format!("option define: expected NAME=VALUE, not {d:?}"))?;
            let value = parse_number_option("define", value)?;
            opts.defines.push((name.trim().to_string(), value as i64));
        }
        let asm = c64kit_asm::assemble_path(Path::new(path), &opts).map_err(|e| e.to_string())?;
        let start = match options.number("start")? {
            Some(a) if a <= 0xFFFF => Start::At(a as u16),
            Some(a) => return Err(format!("option start: ${a:X} is beyond $FFFF")),
            None if c64kit_basic::starts_with_sys(&asm.prg()) => Start::Run,
            None => Start::At(asm.load_address),
        };
        let end = asm.load_address as usize + asm.bytes.len();
        if end > 0x10000 {
            return Err(format!("assembled code runs past $FFFF (to ${end:05X})"));
        }
        let how = match start {
            Start::Run => "RUN".to_string(),
            Start::At(a) => format!("start ${a:04X}"),
        };
        Ok(Program {
            description: format!(
                "{path}: assembled ${:04X}-${end:04X} ({} bytes, {} passes), {how}",
                asm.load_address,
                asm.bytes.len(),
                asm.passes
            ),
            segments: vec![Segment {
                address: asm.load_address,
                bytes: asm.bytes,
            }],
            start,
        })
    }
}

c64kit_plugin_api::export_loader!(
    c64kit_plugin_entry_asm,
    AsmLoader,
    "asm",
    "CBM prg Studio assembly and projects, assembled on load"
);

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("c64kit-loader-asm-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    }

    #[test]
    fn starts_at_the_code_or_runs_the_stub() {
        let p = write("plain.asm", "*=$c000\n lda #1\n rts\n");
        let prog = AsmLoader::load(&p, &[], &Options::default()).unwrap();
        assert_eq!(prog.start, Start::At(0xC000));
        assert_eq!(prog.segments[0].bytes, vec![0xA9, 1, 0x60]);
        let p = write(
            "stub.asm",
            "*=$0801\n byte $0b,$08,$0a,$00,$9e,$32,$30,$36,$31,0,0,0\n rts\n",
        );
        let prog = AsmLoader::load(&p, &[], &Options::default()).unwrap();
        assert_eq!(prog.start, Start::Run);
        let p = write("bad.asm", "*=$c000\n lda #\n");
        let e = AsmLoader::load(&p, &[], &Options::default()).unwrap_err();
        assert!(e.contains("bad.asm:2"), "{e}");
        let opts = Options::new(vec![("define".into(), "X=$10".into())]);
        let p = write("def.asm", "*=$c000\n lda #X\n");
        let prog = AsmLoader::load(&p, &[], &opts).unwrap();
        assert_eq!(prog.segments[0].bytes, vec![0xA9, 0x10]);
    }
}
