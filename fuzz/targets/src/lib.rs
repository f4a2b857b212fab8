//! c64kit's fuzz targets: one function per parser or loader, each taking any bytes and
//! calling the real public code the way the command line does. `Ok` and `Err` are both
//! fine; only a panic, a hang (more than 2 s) or a memory blow-up (more than 256 MB) is a
//! finding.
//!
//! [`TARGETS`] lists them by name. They are driven three ways:
//! - `cargo xtask fuzz`: libFuzzer, coverage-guided, through the binaries in fuzz/libfuzzer
//!   (outside the workspace: they need special compiler flags);
//! - `tests/reproducers.rs`: every committed seed (fuzz/seeds/TARGET/) and every reproducer
//!   a campaign kept (fuzz/reproducers/TARGET/), one test per target;
//! - `tests/smoke.rs`: a short in-process fuzz of every target without libFuzzer
//!   ([`havoc`] mutations of the seeds), which CI runs.
//!
//! Two examples help with campaigns: `replay` (CPU time and peak memory of inputs,
//! uninstrumented) and `havoc` (the smoke fuzzer's mutations, optimised, over a corpus, for
//! targets that instrumentation makes too slow); `make-seeds` writes the generated seeds.
//!
//! Text inputs (BASIC, assembly, TOML, key scripts) that are not UTF-8 are read as the
//! replacement character where a byte is wrong ([`text`]), so every input reaches the parser;
//! such an input stands for the same text saved as UTF-8.

pub mod havoc;
pub mod interpreter;
pub mod limits;

use c64kit_plugin_api::host::{Collect, Plugin};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A fuzz target: any bytes in, nothing out; only a panic, hang or blow-up matters.
pub type Target = fn(&[u8]);

/// Every target: name (the folder under fuzz/seeds and fuzz/reproducers, the libFuzzer
/// binary) and function.
pub const TARGETS: &[(&str, Target)] = &[
    ("prg", prg),
    ("basic", basic),
    ("asm", asm),
    ("cbmprj", cbmprj),
    ("t64", t64),
    ("d64", d64),
    ("config", config),
    ("keyscript", keyscript),
    ("scenario", scenario),
    ("interpreter", interpreter),
];

/// A target's function by name.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// fuzz/ in the checkout.
pub fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The committed seed corpus of a target: inputs found nowhere else in the repository.
pub fn seeds_dir(target: &str) -> PathBuf {
    fuzz_dir().join("seeds").join(target)
}

/// Folders of the repository whose files of an extension are real inputs of a target
/// (our programs, the assembler's test project, the conformance scenarios): they seed it
/// where they are, so the seed corpus holds no copies that could go stale.
const REPOSITORY_SEEDS: &[(&str, &str, &str)] = &[
    ("asm", "programs/ryg3", "asm"),
    ("asm", "programs/ryg", "asm"),
    ("asm", "programs/ramunder", "asm"),
    ("asm", "kit/asm/tests/data/demo", "asm"),
    ("cbmprj", "programs/ryg3", "cbmprj"),
    ("cbmprj", "programs/ryg", "cbmprj"),
    ("cbmprj", "programs/ramunder", "cbmprj"),
    ("cbmprj", "kit/asm/tests/data/demo", "cbmprj"),
    ("scenario", "conformance/scenarios", "toml"),
];

/// Every seed of a target: the committed corpus, the repository's own inputs of its kind
/// and the seeds made from material beside the checkout ([`generated_seeds`]).
pub fn seed_files(target: &str) -> Vec<PathBuf> {
    let mut files = corpus_files(&seeds_dir(target));
    let root = fuzz_dir().join("..");
    for (t, folder, ext) in REPOSITORY_SEEDS {
        if *t == target {
            files.extend(
                corpus_files(&root.join(folder))
                    .into_iter()
                    .filter(|p| p.extension().is_some_and(|e| e == *ext)),
            );
        }
    }
    files.extend(generated_seeds(target));
    files
}

/// The BASIC V2 reference programs beside the checkout (../shared/basic-v2: `NAME.bas` and
/// the keys typed, `NAME.keys`), which must not be copied into the repository.
fn shared_basic_programs() -> PathBuf {
    fuzz_dir().join("../../shared/basic-v2")
}

/// Seeds made when they are asked for, from material the repository may not hold: the
/// interpreter target's from the programs of [`shared_basic_programs`], when that folder is
/// there (it is not in CI), each tokenized and put in the target's input form
/// ([`interpreter::Input::encode`]) with its keys. They are written to
/// target/fuzz/generated-seeds/TARGET (each file put in place whole, so runs side by side
/// may make them at once); none when a program does not tokenize or nothing can be written.
pub fn generated_seeds(target: &str) -> Vec<PathBuf> {
    if target != "interpreter" {
        return Vec::new();
    }
    let shared = shared_basic_programs();
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| fuzz_dir().join("../target"));
    let out = target_dir.join("fuzz/generated-seeds").join(target);
    let mut files = Vec::new();
    for bas in corpus_files(&shared) {
        if bas.extension().is_none_or(|e| e != "bas") {
            continue;
        }
        let Ok(source) = std::fs::read_to_string(&bas) else {
            continue;
        };
        let Ok(prg) = c64kit_basic::tokenize(&source, 0x0801) else {
            continue;
        };
        let keys: Vec<u8> = std::fs::read_to_string(bas.with_extension("keys"))
            .ok()
            .and_then(|k| c64kit_basic::parse_key_script(&k).ok())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|e| match e {
                c64kit_basic::KeyEvent::Key(k) => Some(k),
                _ => None,
            })
            .collect();
        let Some(name) = bas.file_stem() else {
            continue;
        };
        let file = out.join(name);
        let part = out.join(format!(
            ".{}.{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let input = interpreter::Input::encode(&prg, &keys);
        let written = std::fs::create_dir_all(&out)
            .and_then(|()| std::fs::write(&part, &input))
            .and_then(|()| std::fs::rename(&part, &file));
        if written.is_ok() {
            files.push(file);
        }
    }
    files
}

/// Where campaigns keep what they found for a target (each file a regression test).
pub fn reproducers_dir(target: &str) -> PathBuf {
    fuzz_dir().join("reproducers").join(target)
}

/// The files of a corpus folder, sorted; none if it does not exist. Dot files and
/// README files are not inputs.
pub fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !name.starts_with('.') && !name.starts_with("README")
        })
        .collect();
    files.sort();
    files
}

/// Bytes as text the way the CLI reads text files (UTF-8, checked by c64kit-files), except
/// that a non-UTF-8 input is not refused but read with U+FFFD for each bad sequence.
pub fn text(data: &[u8]) -> Cow<'_, str> {
    match c64kit_files::utf8(data) {
        Ok(s) => Cow::Borrowed(s),
        Err(e) => {
            // The error message is part of what a user sees: build it too.
            let _ = e.to_string();
            String::from_utf8_lossy(data)
        }
    }
}

/// Bytes as the assembler decodes source files: UTF-8, else Latin-1 (CP1252 editors).
pub fn asm_text(data: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(data) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(data.iter().map(|&b| b as char).collect()),
    }
}

/// The built-in loaders, in the CLI registry's order, checked by the host as the CLI checks
/// them.
fn loaders() -> &'static [Plugin] {
    static LOADERS: OnceLock<Vec<Plugin>> = OnceLock::new();
    LOADERS.get_or_init(|| {
        [
            c64kit_loader_prg::plugin(),
            c64kit_loader_basic::plugin(),
            c64kit_loader_asm::plugin(),
            c64kit_loader_t64::plugin(),
            c64kit_loader_d64::plugin(),
        ]
        .into_iter()
        .map(|h| Plugin::builtin(h).expect("a built-in loader is valid"))
        .collect()
    })
}

fn loader(name: &str) -> &'static Plugin {
    loaders()
        .iter()
        .find(|p| p.name == name)
        .expect("a built-in loader of that name")
}

/// A plugin call's error: a panic inside the plugin (which its glue caught) is a finding.
fn check<T>(p: &Plugin, r: Result<T, c64kit_plugin_api::host::CallError>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) if e.panicked => panic!("{} panicked: {}", p.label(), e.message),
        Err(e) => {
            let _ = e.to_string();
            None
        }
    }
}

/// What the CLI does before loading: every loader probes the content (as
/// `Registry::loader_for` does).
fn probe_all(path: &str, data: &[u8]) {
    for p in loaders() {
        check(p, p.probe(path, data));
    }
}

/// Loads with a named built-in loader through the host, as `c64kit run` does.
fn load_with(name: &str, path: &str, data: &[u8], options: &[(String, String)]) {
    let p = loader(name);
    let mut sink = Collect::default();
    if let Some(program) = check(p, p.load(path, data, options, &mut sink)) {
        // What the machine then does with it: the BASIC stub's SYS, the listing.
        for seg in &program.segments {
            let mut prg = seg.address.to_le_bytes().to_vec();
            prg.extend_from_slice(&seg.bytes);
            let _ = c64kit_basic::find_sys(&prg, |a| a as u8);
        }
    }
}

/// A directory listing through the host, as `c64kit dir` does.
fn directory_with(name: &str, path: &str, data: &[u8]) {
    let p = loader(name);
    check(p, p.directory(path, data));
}

/// A PRG: the machine's parser and start, the PRG loader, the BASIC lister and the SYS finder.
pub fn prg(data: &[u8]) {
    if let Ok(p) = c64kit_machine::Prg::parse(data, "fuzz.prg") {
        let _ = p.end_address();
        // The one start path every front end takes, with the load name a file gives.
        let settings = c64kit_machine::RunSettings {
            load_name: Some(b"FUZZ".to_vec()),
            ..Default::default()
        };
        let program = c64kit_machine::Program::from_prg(&p);
        let _ = c64kit_machine::Machine::start(Some(&program), settings);
    }
    probe_all("fuzz.prg", data);
    load_with("prg", "fuzz.prg", data, &[]);
    if data.len() >= 2 {
        // `c64kit list`; the lister's helpers.
        let _ = c64kit_basic::list_program(data);
        let _ = c64kit_basic::relink(data);
    }
    let _ = c64kit_basic::find_sys(data, |a| a as u8);
}

/// BASIC V2 text: the tokenizer (`c64kit tokenize`), the BASIC loader, and the listing of
/// what was tokenized.
pub fn basic(data: &[u8]) {
    let source = text(data);
    for case in [
        c64kit_basic::LetterCase::Auto,
        c64kit_basic::LetterCase::Unshifted,
    ] {
        let options = c64kit_basic::TokenizeOptions { letter_case: case };
        if let Ok(prg) = c64kit_basic::tokenize_with(&source, 0x0801, &options) {
            let _ = c64kit_basic::list_program(&prg);
        }
    }
    probe_all("fuzz.bas", data);
    load_with("basic", "fuzz.bas", data, &[]);
}

/// An assembly source file, decoded as the assembler decodes files, assembled in memory
/// (includes are not found: no include folders are given).
/// The asm target's work budget: 250,000 units, 1/128 of the default
/// ([`c64kit_asm::limits::MAX_WORK`]) and twice what a whole RYG engine needs (0.12 M). The
/// budget is the same code either way; with the default, a runaway source takes up to a
/// second of release CPU, several seconds under libFuzzer's instrumentation (a false
/// "hang"), and the campaign crawls at a few hundred runs a second. The default's worst
/// cases are measured in docs/assembler.md and bounded by kit/asm/tests/bounds.rs.
pub const ASM_FUZZ_WORK: u64 = 250_000;

pub fn asm(data: &[u8]) {
    let source = asm_text(data);
    let opts = c64kit_asm::Options {
        max_work: Some(ASM_FUZZ_WORK),
        ..Default::default()
    };
    match c64kit_asm::assemble_source("fuzz.asm", &source, &opts) {
        Ok(asm) => {
            // What the asm loader and `c64kit asm` do with a result.
            let prg = asm.prg();
            let _ = c64kit_basic::find_sys(&prg, |a| a as u8);
            let _ = asm.vice_labels();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// A CBM prg Studio project file (XML).
pub fn cbmprj(data: &[u8]) {
    let _ = c64kit_asm::parse_project(&asm_text(data));
}

/// The name pattern (`--entry`) a target also loads with: text from the input, so
/// wildcards and odd bytes reach the name matching.
fn entry_option(raw: &[u8]) -> Vec<(String, String)> {
    let mut end = raw.len();
    while end > 0 && matches!(raw[end - 1], 0x00 | 0x20 | 0xA0) {
        end -= 1;
    }
    vec![(
        "file".to_string(),
        String::from_utf8_lossy(&raw[..end]).into_owned(),
    )]
}

/// A T64 tape image: the parser, the directory, loading the first program and loading by a
/// name pattern taken from the header's tape-name field.
pub fn t64(data: &[u8]) {
    if let Ok(tape) = c64kit_loader_t64::parse(data) {
        let _ = tape.entries.len();
    }
    probe_all("fuzz.t64", data);
    directory_with("t64", "fuzz.t64", data);
    load_with("t64", "fuzz.t64", data, &[]);
    if data.len() >= 64 {
        load_with("t64", "fuzz.t64", data, &entry_option(&data[40..64]));
    }
}

/// Byte offset of a sector in an image with `tracks` tracks.
fn sector_offset(track: u8, sector: u8) -> usize {
    ((1..track)
        .map(|t| c64kit_loader_d64::sectors_on(t) as usize)
        .sum::<usize>()
        + sector as usize)
        * 256
}

/// The sectors of an image in the order the d64 target's compact form fills them: the
/// directory track 18 first, then 1-17, then 19 up.
fn compact_order(tracks: u8) -> impl Iterator<Item = (u8, u8)> {
    std::iter::once(18)
        .chain((1..=tracks).filter(|&t| t != 18))
        .flat_map(|t| (0..c64kit_loader_d64::sectors_on(t)).map(move |s| (t, s)))
}

const D64_GEOMETRIES: [u8; 3] = [35, 40, 42];

/// Sizes of real D64 images (tracks, with or without error bytes).
fn is_d64_size(len: usize) -> bool {
    D64_GEOMETRIES.iter().any(|&t| {
        let sectors = sector_offset(t + 1, 0) / 256;
        len == sectors * 256 || len == sectors * 257
    })
}

/// The image the d64 target reads. An input of a real D64 size is the image itself. Any other
/// input is the *compact form*, so that the fuzzer need not carry 170 KB images around: its
/// first byte chooses the geometry (35, 40 or 42 tracks by `b % 3`; error bytes, all zero, if
/// `b / 3` is odd) and the rest fills the sectors from track 18 sector 0 on (18, then 1-17,
/// then 19 up), the remainder of the image being zero. So the BAM, the directory and the first
/// files of a small disk sit in the first few KB. An empty input is an empty image.
pub fn d64_image(data: &[u8]) -> Cow<'_, [u8]> {
    if data.is_empty() || is_d64_size(data.len()) {
        return Cow::Borrowed(data);
    }
    let tracks = D64_GEOMETRIES[data[0] as usize % 3];
    let errors = (data[0] / 3) % 2 == 1;
    let sectors = sector_offset(tracks + 1, 0) / 256;
    let mut img = vec![0u8; sectors * 256 + if errors { sectors } else { 0 }];
    for ((t, s), chunk) in compact_order(tracks).zip(data[1..].chunks(256)) {
        let o = sector_offset(t, s);
        img[o..o + chunk.len()].copy_from_slice(chunk);
    }
    Cow::Owned(img)
}

/// A 35-track image without error bytes in the compact form [`d64_image`] reads (trailing
/// zeros dropped): how the d64 seeds are made.
pub fn d64_compact(image: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8];
    for (t, s) in compact_order(35) {
        let o = sector_offset(t, s);
        out.extend_from_slice(&image[o..o + 256]);
    }
    while out.len() > 1 && out.last() == Some(&0) {
        out.pop();
    }
    out
}

/// A D64 disk image (raw, or in the compact form of [`d64_image`]): the disk, its directory
/// and listing, the loader's directory, loading the first PRG and loading by a name pattern
/// taken from the BAM's disk name.
pub fn d64(data: &[u8]) {
    let image = d64_image(data);
    let image: &[u8] = &image;
    let mut pattern = None;
    if let Ok(disk) = c64kit_loader_d64::Disk::new(image) {
        if let Ok(dir) = disk.directory() {
            let _ = c64kit_loader_d64::listing(&dir);
            for e in dir.entries.iter().take(16) {
                let _ = disk.chain(e.track, e.sector, "fuzz");
            }
        }
        if let Ok(bam) = disk.sector(18, 0, "BAM") {
            pattern = Some(entry_option(&bam[0x90..0xA0]));
        }
    }
    probe_all("fuzz.d64", image);
    directory_with("d64", "fuzz.d64", image);
    load_with("d64", "fuzz.d64", image, &[]);
    if let Some(options) = pattern {
        load_with("d64", "fuzz.d64", image, &options);
    }
}

/// c64kit.toml, as `--config` reads it.
pub fn config(data: &[u8]) {
    if let Ok(c) = c64kit::config::Config::parse(&text(data), Path::new("fuzz/c64kit.toml")) {
        for name in c.options.keys() {
            let _ = c.options_for(name);
        }
    }
}

/// A key script (`--input`, `--input-file`).
pub fn keyscript(data: &[u8]) {
    let _ = c64kit_basic::parse_key_script(&text(data));
}

/// A conformance scenario file, the key script of each scenario in it, and the addresses
/// its routine calls name (as resolved without labels); and the same text as a user's
/// scenario file (`c64kit test`), whose errors name lines and keys.
pub fn scenario(data: &[u8]) {
    let _ =
        c64kit_conformance::scenario::parse_file(&text(data), std::path::Path::new("fuzz.toml"));
    if let Ok(scenarios) = c64kit_conformance::scenario::parse(&text(data), "fuzz.toml") {
        let labels = c64kit_conformance::labels::Labels::default();
        for s in &scenarios {
            let _ = c64kit_basic::parse_key_script(s.keys.as_deref().unwrap_or(""));
            for call in &s.call {
                let _ = labels.resolve(&call.routine);
                for p in &call.poke {
                    let _ = labels.resolve(&p.at);
                }
            }
        }
    }
}

/// A BASIC program (made of the input's bytes: lines split at $00, token bytes as they come,
/// then keys) RUN on c64kit's own BASIC V2 for a bounded number of cycles; BASIC must keep
/// control (see [`interpreter`](mod@interpreter) for the input and what is a finding).
pub fn interpreter(data: &[u8]) {
    if let Err(finding) = interpreter::run(data) {
        panic!("{finding}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compact_d64_form_expands_to_the_image() {
        let img = c64kit_loader_d64::build_image(
            "DISK",
            "01",
            &[("A", &[0x01, 0x08, 1, 2, 3]), ("B", &[0x00, 0xC0, 9])],
        );
        let compact = d64_compact(&img);
        assert!(compact.len() < 8000, "{}", compact.len());
        assert_eq!(&d64_image(&compact)[..], &img[..]);
        assert_eq!(&d64_image(&img)[..], &img[..]);
        // Geometry: 40 tracks with error bytes.
        let mut forty = compact.clone();
        forty[0] = 4;
        assert_eq!(d64_image(&forty).len(), 768 * 257);
    }

    #[test]
    fn every_target_has_seeds() {
        for (name, _) in TARGETS {
            assert!(!seed_files(name).is_empty(), "no seeds for {name}");
        }
        // The repository's own inputs are among them, where they are.
        let scenarios = seed_files("scenario");
        assert!(
            scenarios
                .iter()
                .any(|p| p.ends_with("f15-node-counts.toml")),
            "{scenarios:?}"
        );
    }
}
