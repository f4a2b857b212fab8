//! What the CLI tests share: the binary, test programs, scratch files and the output.
#![allow(dead_code)] // each test file uses its own part

use assert_cmd::Command;
use std::path::{Path, PathBuf};

pub fn c64kit() -> Command {
    let mut c = Command::cargo_bin("c64kit").unwrap();
    // The terminal display shows pixels where the terminal says it can: tests choose.
    c.env_remove("COLORTERM");
    c
}

/// "10 SYS2080" and `code` at $0820.
pub fn stub_prg(code: &[u8]) -> Vec<u8> {
    let mut v = vec![
        0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'8', b'0', 0, 0, 0,
    ];
    v.resize(2 + 0x0820 - 0x0801, 0);
    v.extend_from_slice(code);
    v
}

/// A PRG with the "10 SYS2080" stub and this assembly (CBM prg Studio dialect) at $0820.
pub fn stub_asm(source: &str) -> Vec<u8> {
    let text = format!("*=$0820\n{source}\n");
    let asm = c64kit_asm::assemble_source("test.asm", &text, &Default::default())
        .unwrap_or_else(|e| panic!("test program does not assemble: {e}"));
    let mut prg = stub_prg(&[]);
    prg.truncate(2 + 0x0820 - 0x0801);
    prg.extend_from_slice(&asm.bytes);
    prg
}

/// Writes `bytes` to `dir/name`; returns the path as text for command lines.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

pub fn path_in(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

pub fn stderr_of(out: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&out.get_output().stderr).to_string()
}

/// The command's stderr says `text` (the whole stderr is shown when it does not).
pub fn assert_stderr_has(out: &assert_cmd::assert::Assert, text: &str) {
    let stderr = stderr_of(out);
    assert!(stderr.contains(text), "stderr lacks {text:?}:\n{stderr}");
}

/// The value a `--debugcart` run reported ("debug cartridge: $81" -> "81").
pub fn debug_cart_value(out: &assert_cmd::assert::Assert) -> String {
    let err = stderr_of(out);
    let at = err
        .find("debug cartridge: $")
        .unwrap_or_else(|| panic!("the program reports nothing:\n{err}"))
        + 18;
    err[at..at + 2].to_string()
}

pub fn stdout_of(out: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&out.get_output().stdout).to_string()
}

/// The dynamic library of a plugin crate, from the target folder this test was built in.
pub fn library(crate_name: &str) -> PathBuf {
    let file = format!(
        "{}{}{}",
        std::env::consts::DLL_PREFIX,
        crate_name.replace('-', "_"),
        std::env::consts::DLL_SUFFIX
    );
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    for dir in [deps, deps.parent().unwrap()] {
        let p = dir.join(&file);
        if p.is_file() {
            return p;
        }
    }
    panic!(
        "{file} is not in {} or its parent: the plugin crates are dependencies of c64kit, \
         so `cargo test -p c64kit` builds their libraries there",
        deps.display()
    );
}

/// Whether cc65's `cl65` is missing; if so, says that the test skipped `what` (CI's .ci/run
/// installs cc65).
pub fn no_cl65(what: &str) -> bool {
    let missing = std::process::Command::new("cl65")
        .arg("--version")
        .output()
        .is_err();
    if missing {
        eprintln!("SKIPPED: cc65's cl65 is not installed, so {what}");
    }
    missing
}

/// Copies the folder `from` to `to`, subfolders included.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_tree(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// A fresh folder for one test's files, named after the test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("c64kit-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A PRG that prints "HI" and returns: a BASIC stub SYS 2061, then the code.
pub fn hi_prg() -> Vec<u8> {
    let mut p = vec![
        0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E, b'2', b'0', b'6', b'1', 0, 0, 0,
    ];
    p.extend_from_slice(&[
        0xA9, 0x48, 0x20, 0xD2, 0xFF, 0xA9, 0x49, 0x20, 0xD2, 0xFF, 0x60,
    ]);
    p
}

/// The palette indices and size of a PNG file.
pub fn decode_png(path: &Path) -> (usize, usize, Vec<u8>, Vec<u8>) {
    decode_png_bytes(&std::fs::read(path).unwrap())
}

pub fn decode_png_bytes(bytes: &[u8]) -> (usize, usize, Vec<u8>, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let palette = reader.info().palette.as_ref().unwrap().to_vec();
    buf.truncate(info.buffer_size());
    (info.width as usize, info.height as usize, buf, palette)
}

/// Standard base64, for the tests' own check of the html page's picture.
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|c| {
            let n = c
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes[..c.len() - 1].to_vec()
        })
        .collect()
}

/// Each frame of a GIF as the viewer shows it (frames drawn over the ones before), with its
/// delay; and the global palette.
pub fn decode_gif(path: &Path) -> (Vec<(Vec<u8>, u16)>, Vec<u8>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let palette = decoder.global_palette().unwrap().to_vec();
    let (w, h) = (decoder.width() as usize, decoder.height() as usize);
    assert!(
        [(384, 272), (384, 247)].contains(&(w, h)),
        "a PAL or NTSC picture: {w}x{h}"
    );
    let mut canvas = vec![0u8; w * h];
    let mut frames = Vec::new();
    while let Some(f) = decoder.read_next_frame().unwrap() {
        assert!(f.palette.is_none(), "one palette for all frames");
        let (l, t, fw) = (f.left as usize, f.top as usize, f.width as usize);
        for (i, &p) in f.buffer.iter().enumerate() {
            canvas[(t + i / fw) * w + l + i % fw] = p;
        }
        frames.push((canvas.clone(), f.delay));
    }
    (frames, palette)
}

/// The folder of Commodore's ROM images (`C64KIT_ROMS`: CI has none); `None` after saying
/// which tests were skipped (`what`).
pub fn commodores_roms(what: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("C64KIT_ROMS").map(PathBuf::from);
    if dir.is_none() {
        eprintln!("SKIPPED: C64KIT_ROMS is not set: {what} on Commodore's ROMs is not tested");
    }
    dir
}

/// `--kernal-rom` and `--basic-rom` with Commodore's images in `dir` (the names VICE gives).
pub fn commodores_rom_args(dir: &Path) -> Vec<String> {
    vec![
        "--kernal-rom".into(),
        dir.join("kernal-901227-03.bin").display().to_string(),
        "--basic-rom".into(),
        dir.join("basic-901226-01.bin").display().to_string(),
    ]
}

/// What BASIC prints when a program RUN from it ends (machine code's RTS from its SYS goes
/// back into BASIC, which ends the program): CR, LF, `READY.`, CR, LF, as Commodore's BASIC
/// prints it (../shared/basic-v2/README.md), in the transcript's rendering (CR a new line, LF
/// `{$0a}`); the CLI ends the transcript with a new line.
pub const READY: &str = "\n{$0a}READY.\n{$0a}\n";
