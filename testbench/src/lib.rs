//! VICE's testbench on c64kit: the community's hardware test programs
//! (../shared/vice-testprogs/testlist.tsv, with x64sc's verdicts), run the way VICE runs them
//! with `-debugcart`: the program writes its result to $D7FF (0 = pass) or times out; a
//! screenshot test's picture is then compared with a reference ([`screenshot`]).
//! `cargo xtask testbench` runs them all and compares with x64sc and with the last recorded
//! results (testbench/results/exitcode.tsv and screenshot.tsv); `cargo test` runs the ones
//! that pass as regression tests. No test program is recognised by name: only the options of
//! the list (the chip a test needs) and what the program itself is decide how it runs.
//!
//! The same tests run on Commodore's ROMs too ([`RomSet::Commodores`], `--roms DIR` or
//! `C64KIT_ROMS`): the machine built with their KERNAL, BASIC and character ROM, screenshots
//! held to VICE's rule alone, the results recorded apart (exitcode-roms.tsv,
//! screenshot-roms.tsv).

// Standard output and error go through c64kit_files::stdio (outln!, errln!), which never
// panics; println! and eprintln! panic when the reader goes away.
#![warn(clippy::print_stdout, clippy::print_stderr)]

/// Screenshot tests' rule, shared with `c64kit test`'s golden pictures.
pub use c64kit_screenshot as screenshot;

use c64kit_machine::drive::Drive;
use c64kit_machine::kernal::AfterReturn;
use c64kit_machine::picture::{HEIGHT, WIDTH};
use c64kit_machine::pla::Region;
use c64kit_machine::{load_name_of, Machine, Picture, Prg, Program, RunSettings, StopReason};
use c64kit_machine::{CiaModel, GlueLogic, SidModel, VicModel};
use c64kit_machine::{RomPaths, Roms};
use screenshot::{Comparison, Match, Reference};
use std::path::{Path, PathBuf};

/// ../shared/vice-testprogs beside the checkout (spelled without `..`: the path is shown).
pub fn collection_dir() -> PathBuf {
    let testbench = Path::new(env!("CARGO_MANIFEST_DIR"));
    let checkout = testbench.parent().unwrap_or(testbench);
    let beside = checkout.parent().unwrap_or(checkout);
    beside.join("shared/vice-testprogs")
}

/// The recorded verdicts of the last full run of a type on a set of ROMs, committed so a
/// change shows in review: results/exitcode.tsv, screenshot.tsv (c64kit's own ROMs),
/// exitcode-roms.tsv, screenshot-roms.tsv (Commodore's).
pub fn results_file(kind: Kind, set: RomSet) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!(
        "results/{}{}.tsv",
        kind.word(),
        set.file_suffix()
    ))
}

/// The ROMs a run's machine has: the two sets are recorded apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RomSet {
    /// c64kit's own KERNAL, BASIC V2 and character ROM (the default: c64kit ships no
    /// Commodore ROM). ROM code c64kit does not have makes a test n/a; screenshots may pass
    /// as `ok-rom`.
    Own,
    /// Commodore's KERNAL, BASIC and character ROM ([`CommodoreRoms`]): every screenshot is
    /// held to VICE's rule, pixel for pixel.
    Commodores,
}

impl RomSet {
    pub const ALL: [RomSet; 2] = [RomSet::Own, RomSet::Commodores];

    /// What the results files' names add: "" or "-roms".
    pub fn file_suffix(&self) -> &'static str {
        match self {
            RomSet::Own => "",
            RomSet::Commodores => "-roms",
        }
    }

    /// For titles: "c64kit's own ROMs", "Commodore's ROMs".
    pub fn describe(&self) -> &'static str {
        match self {
            RomSet::Own => "c64kit's own ROMs",
            RomSet::Commodores => "Commodore's ROMs",
        }
    }
}

/// The variable that names a folder with Commodore's images (VICE's file names), for the
/// tests and `cargo xtask testbench` when `--roms` is not given.
pub const ROMS_VARIABLE: &str = "C64KIT_ROMS";

/// Commodore's KERNAL, BASIC and character ROM images in a folder, under VICE's names
/// (kernal-901227-03.bin, basic-901226-01.bin, chargen-901225-01.bin), checked once.
#[derive(Debug, Clone)]
pub struct CommodoreRoms {
    pub dir: PathBuf,
    paths: RomPaths,
}

impl CommodoreRoms {
    /// The images in `dir`; the error names the file that is missing or is no such image,
    /// and what the folder must hold.
    pub fn in_dir(dir: &Path) -> Result<CommodoreRoms, String> {
        let roms = CommodoreRoms {
            dir: dir.to_path_buf(),
            paths: RomPaths::commodores_in(dir),
        };
        roms.roms().map(|_| roms)
    }

    /// The folder `C64KIT_ROMS` names, if it is set (and not empty).
    pub fn from_env() -> Option<Result<CommodoreRoms, String>> {
        let dir = std::env::var_os(ROMS_VARIABLE).filter(|d| !d.is_empty())?;
        Some(
            CommodoreRoms::in_dir(Path::new(&dir))
                .map_err(|e| format!("{ROMS_VARIABLE} ({}): {e}", Path::new(&dir).display())),
        )
    }

    /// A machine's ROMs, read from the images (a few KiB: each run reads its own).
    fn roms(&self) -> Result<Roms, String> {
        Roms::load(&self.paths).map_err(|e| {
            format!(
                "{e} (the folder must hold Commodore's images under VICE's names: {}, {}, {})",
                c64kit_machine::roms::COMMODORE_KERNAL_IMAGE,
                c64kit_machine::roms::COMMODORE_BASIC_IMAGE,
                c64kit_machine::roms::COMMODORE_CHARGEN_IMAGE
            )
        })
    }
}

/// How a test reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Writes its result to the debug cartridge.
    Exitcode,
    /// Compared by a screenshot with a reference picture.
    Screenshot,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::Exitcode, Kind::Screenshot];

    /// The list's word for it.
    pub fn word(&self) -> &'static str {
        match self {
            Kind::Exitcode => "exitcode",
            Kind::Screenshot => "screenshot",
        }
    }
}

/// One line of testlist.tsv.
#[derive(Debug, Clone)]
pub struct Test {
    /// The folder under the collection ("CIA/tod").
    pub dir: String,
    pub prg: String,
    pub kind: Kind,
    /// VICE's limit, counted from power-on.
    pub cycles: u64,
    /// `vicii-pal`, `cia-old`, `expect:timeout`, `comment:...`
    pub options: Vec<String>,
    /// x64sc's verdict: ok, error, timeout, noref.
    pub x64sc: String,
}

impl Test {
    /// "CIA/tod/hzsync3.prg", with the chips it names when the list runs the same program
    /// for several ("general/Lorenz-2.15/src/cia2pb7.prg [cia-new]"): unique in the list.
    pub fn name(&self) -> String {
        let chips: Vec<&str> = self
            .options
            .iter()
            .map(String::as_str)
            .filter(|o| ["vicii-", "cia-", "sid-"].iter().any(|p| o.starts_with(p)))
            .collect();
        if chips.is_empty() {
            format!("{}/{}", self.dir, self.prg)
        } else {
            format!("{}/{} [{}]", self.dir, self.prg, chips.join(","))
        }
    }

    /// The top folder: CPU, CIA, interrupts, C64, general, VICII, SID.
    pub fn area(&self) -> &str {
        self.dir.split('/').next().unwrap_or(&self.dir)
    }

    pub fn has(&self, option: &str) -> bool {
        self.options.iter().any(|o| o == option)
    }

    pub fn path(&self) -> PathBuf {
        collection_dir().join(&self.dir).join(&self.prg)
    }
}

/// Reads testlist.tsv; errors name the line. Names are unique (see [`Test::name`]).
pub fn load_list(path: &Path) -> Result<Vec<Test>, String> {
    let text = c64kit_files::read_text(path, c64kit_files::MIB, "the test list")
        .map_err(|e| e.to_string())?;
    let mut tests = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let bad = |what: &str| format!("{}:{}: {what}", path.display(), n + 1);
        if f.len() < 6 {
            return Err(bad("expected 6 tab-separated fields"));
        }
        let kind = match f[2] {
            "exitcode" => Kind::Exitcode,
            "screenshot" => Kind::Screenshot,
            other => return Err(bad(&format!("unknown type {other:?}"))),
        };
        tests.push(Test {
            dir: f[0].to_string(),
            prg: f[1].to_string(),
            kind,
            cycles: f[3].parse().map_err(|_| bad("cycles is not a number"))?,
            options: f[4]
                .split(',')
                .filter(|o| !o.is_empty())
                .map(str::to_string)
                .collect(),
            x64sc: f[5].to_string(),
        });
    }
    let mut names: Vec<String> = tests.iter().map(Test::name).collect();
    names.sort();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("{}: {} is listed twice", path.display(), w[0]));
    }
    Ok(tests)
}

/// The list beside the checkout.
pub fn tests() -> Result<Vec<Test>, String> {
    load_list(&collection_dir().join("testlist.tsv"))
}

/// c64kit's verdict, in the words of x64sc's column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The test reported what it expects (a pass; for `expect:error` a reported failure).
    Ok,
    /// A screenshot test's picture matches only when character-ROM text may differ (we
    /// ship no Commodore character ROM): see [`screenshot`]. Never on Commodore's ROMs.
    OkRom,
    /// The test reported the other result (a screenshot test: its picture differs).
    Error,
    /// It never reported within its cycles.
    Timeout,
    /// It needs a C64 c64kit does not model (the reason says which part).
    NotApplicable(String),
}

impl Verdict {
    pub fn word(&self) -> &str {
        match self {
            Verdict::Ok => "ok",
            Verdict::OkRom => "ok-rom",
            Verdict::Error => "error",
            Verdict::Timeout => "timeout",
            Verdict::NotApplicable(_) => "n/a",
        }
    }
}

/// Whether `cargo test` holds a test to its recorded verdict: "ok", and for a screenshot
/// test "ok-rom".
pub fn guarded(recorded: &str) -> bool {
    recorded == "ok" || recorded == "ok-rom"
}

/// Whether a verdict keeps up the recorded one: "ok" needs ok, "ok-rom" ok-rom or better.
pub fn keeps(recorded: &str, now: &Verdict) -> bool {
    match recorded {
        "ok" => *now == Verdict::Ok,
        "ok-rom" => matches!(now, Verdict::Ok | Verdict::OkRom),
        _ => true,
    }
}

/// What a run gave: the verdict, and what happened ("debug cartridge: $FF after ...").
#[derive(Debug, Clone)]
pub struct Outcome {
    pub verdict: Verdict,
    pub detail: String,
    pub cycles: u64,
    /// A screenshot test's picture and reference, when [`run_with`] was asked to keep them.
    pub shot: Option<Box<Shot>>,
}

/// What a screenshot test saw.
#[derive(Debug, Clone)]
pub struct Shot {
    pub picture: Picture,
    pub reference: Reference,
    pub reference_path: PathBuf,
    /// None if the pictures share no pixel once aligned.
    pub comparison: Option<Comparison>,
}

impl Outcome {
    /// What happened, or why the test does not apply.
    pub fn explain(&self) -> &str {
        match &self.verdict {
            Verdict::NotApplicable(why) => why,
            _ => &self.detail,
        }
    }
}

/// The part of a real C64 a test needs that c64kit does not model, from the list's options
/// (the chip models) and its type: none (every VIC-II, CIA and SID the options name is).
pub fn unsupported(_test: &Test) -> Option<String> {
    None
}

/// The VIC-II a test runs on: the one x64sc's verdict was recorded with. VICE's testbench
/// starts x64sc as a C64C (`-model c64c`, testbench/x64sc-hooks.sh), so a test that names no
/// VIC-II ran on its 8565: so here. `vicii-ntsc` is the 6567R8, `vicii-ntscold` the
/// 6567R56A, `vicii-new` the 8565 (with `vicii-ntsc`, the 8562), `vicii-pal` the 6569.
///
/// (x64sc's `-pal` keeps a C64C's 8565, so VICE ran `vicii-pal` tests on the 8565 too; c64kit
/// runs them on the 6569, the chip of the plain reference pictures wherever a test also has
/// an `-8565` one, and c64kit's own default: see [`reference_and_chip`] for pictures that only
/// a later chip's exist of.)
pub fn vic_model(test: &Test) -> VicModel {
    let new = test.has("vicii-new");
    if test.has("vicii-ntsc") {
        if new {
            VicModel::Mos8562
        } else {
            VicModel::Mos6567R8
        }
    } else if test.has("vicii-ntscold") {
        VicModel::Mos6567R56A
    } else if new || !test.options.iter().any(|o| o.starts_with("vicii-")) {
        VicModel::Mos8565
    } else {
        VicModel::Mos6569
    }
}

/// The glue logic between CIA 2 and the VIC-II's bank: a C64C's custom chip with the new
/// VIC-IIs (the chip a test runs on), a breadbin C64's gates with the 6569 and 6567s. The references of
/// the 6569's tests come from breadbins: VICII/split-tests/fetchsplit, which switches banks
/// mid-line, is far closer to its 6569 reference with the breadbin's glue.
pub fn glue_logic(vic: VicModel) -> GlueLogic {
    if vic.is_new() {
        GlueLogic::CustomIc
    } else {
        GlueLogic::Discrete
    }
}

/// The 8565 or 8562 with `vic`'s timing (None for the 6567R56A, which has none).
fn new_chip_like(vic: VicModel) -> Option<VicModel> {
    VicModel::ALL
        .into_iter()
        .find(|m| m.is_new() && m.timing() == vic.timing())
}

/// A screenshot test's reference picture in `test_dir` and the VIC-II to compare it with:
/// a later chip's own picture (`<prg>-8565.png`, `-8562`) when the test runs on one, else
/// the plain `<prg>.png` on [`vic_model`]'s chip, else a variant, and then the chip the
/// variant was taken of (the 8565 or 8562 with the test's timing): a picture is compared
/// only with the chip that drew it.
pub fn reference_and_chip(test: &Test, test_dir: &Path) -> Option<(PathBuf, VicModel)> {
    let vic = vic_model(test);
    let own = vic
        .is_new()
        .then(|| {
            test_dir
                .join("references")
                .join(format!("{}-{}.png", test.prg, vic.name()))
        })
        .filter(|p| p.is_file());
    if let Some(path) = own {
        return Some((path, vic));
    }
    let path = screenshot::find_reference(test_dir, &test.prg)?;
    let plain = path.file_name() == Some(std::ffi::OsStr::new(&format!("{}.png", test.prg)));
    let chip = if plain {
        vic
    } else {
        new_chip_like(vic).unwrap_or(vic)
    };
    Some((path, chip))
}

/// The CIAs a test asks for: `cia-old` the 6526, `cia-new` (or nothing) the 6526A.
pub fn cia_model(test: &Test) -> CiaModel {
    // x64sc ran a test that names no CIA as a C64C, with 6526As: its verdicts are for that
    // model (the shift register's timing differs between the two).
    if test.has("cia-old") {
        CiaModel::Mos6526
    } else {
        CiaModel::Mos6526A
    }
}

/// The SID a test asks for: `sid-old` the 6581, `sid-new` (or nothing) the 8580.
pub fn sid_model(test: &Test) -> SidModel {
    // As with the CIAs: x64sc ran a test that names no SID as a C64C, with an 8580.
    if test.has("sid-old") {
        SidModel::Mos6581
    } else {
        SidModel::Mos8580
    }
}

/// Runs one test as VICE's testbench does: load the PRG, RUN it (its BASIC stub's SYS),
/// the debug cartridge plugged in, the test's folder as drive 8 (read only), a return to
/// BASIC idling as BASIC would, until it reports or its cycles pass; a screenshot test's
/// picture is then compared with its reference. On c64kit's own ROMs.
pub fn run(test: &Test) -> Outcome {
    run_with(test, false)
}

fn not_applicable(why: String) -> Outcome {
    Outcome {
        verdict: Verdict::NotApplicable(why),
        detail: String::new(),
        cycles: 0,
        shot: None,
    }
}

/// [`run`], keeping a screenshot test's picture and reference in the outcome if `keep_shot`.
pub fn run_with(test: &Test, keep_shot: bool) -> Outcome {
    run_on(test, None, keep_shot)
}

/// [`run_with`] on Commodore's ROMs when `roms` names them, else on c64kit's own. On
/// Commodore's, no ROM code is missing (a stop in the ROMs is the test's result) and a
/// screenshot passes only pixel for pixel (no `ok-rom`).
pub fn run_on(test: &Test, roms: Option<&CommodoreRoms>, keep_shot: bool) -> Outcome {
    if let Some(why) = unsupported(test) {
        return not_applicable(why);
    }
    // The reference first: a test without one need not run.
    let mut vic = vic_model(test);
    let reference = match test.kind {
        Kind::Exitcode => None,
        Kind::Screenshot => {
            let dir = collection_dir().join(&test.dir);
            let Some((path, chip)) = reference_and_chip(test, &dir) else {
                return not_applicable(format!(
                    "no reference picture (references/{}.png or its -{} variants)",
                    test.prg,
                    screenshot::VARIANTS.join(", -")
                ));
            };
            vic = chip;
            match Reference::load(&path) {
                Ok(r) => Some((r, path)),
                Err(e) => return not_applicable(format!("unusable reference picture: {e}")),
            }
        }
    };
    let mut m = match start(test, roms, vic, reference.is_some()) {
        Ok(m) => m,
        Err(why) => return not_applicable(why),
    };
    let stop = m.run(test.cycles);
    let cycles = m.cycles();
    let detail = format!("{stop} after {cycles} cycles");
    let reported = match stop {
        StopReason::DebugCart { value } => Some(value),
        _ => None,
    };
    match (reported, &stop) {
        // On Commodore's ROMs every routine is there: what stops the run is a part of a C64
        // c64kit does not model (a 1541's processor for drive code).
        (None, StopReason::Unimplemented { .. }) if roms.is_some() => {
            return not_applicable(format!("needs what c64kit does not model: {detail}"))
        }
        // The program called ROM code c64kit does not have (it ships no Commodore ROM).
        (None, StopReason::Unimplemented { .. }) => {
            return not_applicable(format!("needs the real KERNAL ROM: {detail}"))
        }
        (None, StopReason::Jammed { pc, .. })
            if roms.is_none() && m.bus.region(*pc) == Region::BasicRom =>
        {
            return not_applicable(format!(
                "needs Commodore's BASIC ROM code at ${pc:04X} (c64kit's own BASIC has \
                 Commodore's documented entries, not the bytes between them)"
            ))
        }
        _ => {}
    }
    let Some((reference, reference_path)) = reference else {
        let verdict = match reported {
            Some(value) if (value == 0) != test.has("expect:error") => Verdict::Ok,
            Some(_) => Verdict::Error,
            None if test.has("expect:timeout") => Verdict::Ok,
            None => Verdict::Timeout,
        };
        return Outcome {
            verdict,
            detail,
            cycles,
            shot: None,
        };
    };

    // VICE's testbench compares the screenshot x64sc takes when the program writes $D7FF
    // and x64sc exits with that value: after $00 or $FF. At the cycle limit x64sc exits
    // with 1, which the testbench calls a timeout without comparing, and any other value
    // stops the testbench as a failed call; so: compare after a $00 or $FF, a timeout
    // otherwise, an error for other values. The picture is compared in every case, for
    // the detail and for --save-pictures. (`expect:` options describe exit codes: not used.)
    let comparison = screenshot::compare(m.picture(), &reference);
    let name = reference_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let seen = match &comparison {
        Some(c) => format!("{} (references/{name})", c.describe()),
        None => format!("the picture shares no pixel with references/{name} once aligned"),
    };
    let (verdict, detail) = match (reported, &comparison) {
        (Some(0 | 0xFF), Some(c)) => match (c.result(), roms) {
            (Match::Exact, _) => (Verdict::Ok, format!("{detail}; {seen}")),
            (Match::ExceptRomText, None) => (Verdict::OkRom, format!("{detail}; {seen}")),
            // Commodore's character ROM drew the text: nothing to forgive.
            (Match::ExceptRomText, Some(_)) => (
                Verdict::Error,
                format!("{detail}; {seen} (with Commodore's character ROM: an error)"),
            ),
            (Match::Differs, _) => (Verdict::Error, format!("{detail}; {seen}")),
        },
        (Some(0 | 0xFF), None) => (Verdict::Error, format!("{detail}; {seen}")),
        (Some(_), _) => (
            Verdict::Error,
            format!("{detail}: VICE compares a screenshot only after $00 or $FF; {seen}"),
        ),
        (None, _) => (
            Verdict::Timeout,
            format!(
                "{detail}: no $D7FF write, so no screenshot to compare; the picture then: {seen}"
            ),
        ),
    };
    let shot = keep_shot.then(|| {
        Box::new(Shot {
            picture: m.picture().clone(),
            reference,
            reference_path,
            comparison,
        })
    });
    Outcome {
        verdict,
        detail,
        cycles,
        shot,
    }
}

/// The machine of VICE's testbench with the program loaded and RUN, with the VIC-II `vic`,
/// on Commodore's ROMs if given; the error says why the test does not apply.
fn start(
    test: &Test,
    roms: Option<&CommodoreRoms>,
    vic: VicModel,
    picture: bool,
) -> Result<Machine, String> {
    let roms = match roms {
        Some(r) => r.roms()?,
        None => Roms::builtin(),
    };
    let bytes = c64kit_files::read(&test.path(), Prg::MAX_FILE_SIZE, "a PRG")
        .map_err(|e| format!("cannot read the program: {e}"))?;
    let prg = Prg::parse(&bytes, &test.name()).map_err(|e| format!("not a PRG: {e}"))?;
    let settings = RunSettings {
        roms,
        cia: cia_model(test),
        sid: sid_model(test),
        vic,
        glue: glue_logic(vic),
        debug_cart: true,
        stop_on_stuck_loop: true,
        drive: Drive::read_only(collection_dir().join(&test.dir)),
        // VICE's autostart LOADs the program by its file name.
        load_name: Some(load_name_of(Path::new(&test.prg))),
        // On a real C64 a program that returns to BASIC leaves its interrupts running (tests
        // that install one and return report from it).
        after_return: AfterReturn::Wait,
        // Nobody types at VICE's testbench: GETIN finds no key however often it is called (a
        // test polling the keyboard in its main loop reports from its interrupt).
        idle_poll_limit: u32::MAX,
        ..RunSettings::default()
    };
    let mut m = Machine::start(Some(&Program::from_prg(&prg)), settings)
        .map_err(|e| format!("VICE types RUN into its BASIC: {e}"))?;
    if picture {
        m.enable_picture();
    }
    Ok(m)
}

/// Writes a failed screenshot test's picture (`<name>.png`) and where it differs from the
/// reference (`<name>-diff.png`, see [`screenshot::diff_pixels`]) into `dir`, named after
/// the test; never over one of the test's inputs. Returns the files written.
pub fn save_pictures(dir: &Path, test: &Test, outcome: &Outcome) -> Result<Vec<PathBuf>, String> {
    let Some(shot) = &outcome.shot else {
        return Ok(Vec::new());
    };
    if outcome.verdict == Verdict::Ok {
        return Ok(Vec::new());
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        format!(
            "{}: cannot create the folder: {}",
            dir.display(),
            c64kit_files::io_reason(&e)
        )
    })?;
    // "VICII/dentest/den01-48-1.prg [vicii-pal]" -> "VICII_dentest_den01-48-1.prg-vicii-pal"
    let mut stem = String::new();
    for c in test.name().chars() {
        let c = match c {
            '/' => '_',
            c if c.is_ascii_alphanumeric() || "-_.".contains(c) => c,
            _ => '-',
        };
        if !(c == '-' && stem.ends_with('-')) {
            stem.push(c);
        }
    }
    let stem = stem.trim_end_matches('-');
    let inputs = [
        (test.path(), "the test program".to_string()),
        (
            shot.reference_path.clone(),
            "the reference picture".to_string(),
        ),
    ];
    let pictures = [
        (format!("{stem}.png"), shot.picture.pixels().to_vec()),
        (
            format!("{stem}-diff.png"),
            screenshot::diff_pixels(&shot.picture, &shot.reference),
        ),
    ];
    let mut written = Vec::new();
    for (name, pixels) in pictures {
        let path = dir.join(name);
        c64kit_files::ensure_not_input(&path, "the picture", &inputs)?;
        let png = screenshot::encode_png(WIDTH, HEIGHT, &pixels)
            .map_err(|e| format!("{}: cannot encode: {e}", path.display()))?;
        c64kit_files::write_output(&path, &png).map_err(|e| {
            format!(
                "{}: cannot write: {}",
                path.display(),
                c64kit_files::io_reason(&e)
            )
        })?;
        written.push(path);
    }
    Ok(written)
}

/// The recorded results: (test name, verdict word, detail), one per line, tab-separated.
pub fn read_results(path: &Path) -> Vec<(String, String, String)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.splitn(3, '\t');
            Some((
                f.next()?.to_string(),
                f.next()?.to_string(),
                f.next().unwrap_or("").to_string(),
            ))
        })
        .collect()
}

/// testbench/known-differences.tsv: the tests x64sc passes and c64kit does not, each with
/// what we know of why, so the report names every exception and a new failure stands out;
/// known-differences-roms.tsv: those only Commodore's ROMs show (a reason given for our own
/// ROMs holds on theirs unless this file says otherwise).
pub fn known_differences_file(set: RomSet) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("known-differences{}.tsv", set.file_suffix()))
}

/// The known differences on a set of ROMs: test name (as [`Test::name`]) and reason; on
/// Commodore's ROMs our own ROMs' followed by theirs (a later line for the same test
/// overrides, in a map). A malformed line is an error naming it.
pub fn known_differences(set: RomSet) -> Result<Vec<(String, String)>, String> {
    let mut known = read_known_differences(&known_differences_file(RomSet::Own))?;
    if set == RomSet::Commodores {
        known.extend(read_known_differences(&known_differences_file(set))?);
    }
    Ok(known)
}

/// The lines of one known-differences file.
pub fn read_known_differences(path: &Path) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut known = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        match line.split_once('\t') {
            Some((name, why)) if !name.trim().is_empty() && !why.trim().is_empty() => {
                known.push((name.trim().to_string(), why.trim().to_string()))
            }
            _ => {
                return Err(format!(
                    "{}:{}: expected \"test<TAB>reason\"",
                    path.display(),
                    i + 1
                ))
            }
        }
    }
    Ok(known)
}

/// Per area: c64kit's verdicts (as their words: "ok", "ok-rom", "error", "timeout", "n/a")
/// beside x64sc's, as a Markdown table with a line for all; for screenshot tests on our own
/// ROMs both of c64kit's verdict sets, by VICE's rule (ok) and allowing for the character
/// ROM (ok or ok-rom). The one place these figures are worked out: the full run prints it,
/// and the README shows it for the recorded results (tests/summary.rs keeps the two equal).
pub fn area_table(kind: Kind, set: RomSet, verdicts: &[(&Test, &str)]) -> String {
    let lenient = kind == Kind::Screenshot && set == RomSet::Own;
    let mut areas: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for (t, verdict) in verdicts {
        let x64sc_ok = t.x64sc == "ok";
        let ok = *verdict == "ok";
        let ok_rom = ok || *verdict == "ok-rom";
        let mut row = vec![1, x64sc_ok as usize, ok as usize, (x64sc_ok && ok) as usize];
        if lenient {
            row.extend([ok_rom as usize, (x64sc_ok && ok_rom) as usize]);
        }
        row.extend([
            (*verdict == "n/a") as usize,
            fails_where_x64sc_passes(t, verdict) as usize,
        ]);
        let a = areas
            .entry(t.area().to_string())
            .or_insert_with(|| vec![0; row.len()]);
        for (sum, n) in a.iter_mut().zip(row) {
            *sum += n;
        }
    }
    let mut header = vec!["area", "tests", "x64sc ok", "c64kit ok", "both ok"];
    if lenient {
        header.extend(["c64kit ok/ok-rom", "both ok/ok-rom"]);
    }
    header.extend(["c64kit n/a", "x64sc ok, c64kit fails"]);
    let mut lines = vec![
        format!("| {} |", header.join(" | ")),
        format!("|{}", "---|".repeat(header.len())),
    ];
    let mut total: Vec<usize> = Vec::new();
    let mut row = |name: &str, counts: &[usize]| {
        let cells: Vec<String> = counts.iter().map(usize::to_string).collect();
        lines.push(format!("| {name} | {} |", cells.join(" | ")));
    };
    for (area, a) in &areas {
        row(area, a);
        total.resize(a.len(), 0);
        for (sum, n) in total.iter_mut().zip(a) {
            *sum += n;
        }
    }
    row("all", &total);
    lines.join("\n") + "\n"
}

/// x64sc passes the test and c64kit reports the other result or times out (n/a is not a
/// failure).
pub fn fails_where_x64sc_passes(t: &Test, verdict: &str) -> bool {
    t.x64sc == "ok" && matches!(verdict, "error" | "timeout")
}

/// [`area_table`] of the recorded results of one type on one set of ROMs
/// (testbench/results).
pub fn recorded_area_table(kind: Kind, set: RomSet) -> Result<String, String> {
    let tests = tests()?;
    let file = results_file(kind, set);
    let recorded: std::collections::HashMap<String, String> = read_results(&file)
        .into_iter()
        .map(|(name, verdict, _)| (name, verdict))
        .collect();
    let mut verdicts = Vec::new();
    for t in tests.iter().filter(|t| t.kind == kind) {
        match recorded.get(&t.name()) {
            Some(v) => verdicts.push((t, v.as_str())),
            None => {
                return Err(format!(
                    "{} has no verdict for {} (a full `cargo xtask testbench{}` records one)",
                    file.display(),
                    t.name(),
                    match set {
                        RomSet::Own => "",
                        RomSet::Commodores => " --roms DIR",
                    }
                ))
            }
        }
    }
    Ok(area_table(kind, set, &verdicts))
}

/// The results file's text for these outcomes (all of one type, on one set of ROMs).
pub fn results_text(kind: Kind, set: RomSet, results: &[(Test, Outcome)]) -> String {
    let mut s = String::from(match (kind, set) {
        (Kind::Exitcode, RomSet::Own) => {
            "# c64kit's verdicts on ../shared/vice-testprogs (cargo xtask testbench rewrites \
             this file after a full run; cargo test re-runs every \"ok\" line)\n"
        }
        (Kind::Screenshot, RomSet::Own) => {
            "# c64kit's verdicts on ../shared/vice-testprogs' screenshot tests (cargo xtask \
             testbench --type screenshot rewrites this file after a full run; cargo test \
             re-runs every \"ok\" and \"ok-rom\" line and holds it to that verdict)\n"
        }
        (Kind::Exitcode, RomSet::Commodores) => {
            "# c64kit's verdicts on ../shared/vice-testprogs with Commodore's KERNAL, BASIC and \
             character ROM (cargo xtask testbench --roms DIR rewrites this file after a full \
             run; cargo test with C64KIT_ROMS re-runs every \"ok\" line)\n"
        }
        (Kind::Screenshot, RomSet::Commodores) => {
            "# c64kit's verdicts on ../shared/vice-testprogs' screenshot tests with Commodore's \
             KERNAL, BASIC and character ROM, every pixel held to VICE's rule (cargo xtask \
             testbench --roms DIR --type screenshot rewrites this file after a full run; cargo \
             test with C64KIT_ROMS re-runs every \"ok\" line)\n"
        }
    });
    for (t, o) in results {
        s += &format!("{}\t{}\t{}\n", t.name(), o.verdict.word(), o.explain());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(dir: &str, prg: &str, options: &[&str]) -> Test {
        Test {
            dir: dir.into(),
            prg: prg.into(),
            kind: Kind::Screenshot,
            cycles: 1_000_000,
            options: options.iter().map(|o| o.to_string()).collect(),
            x64sc: "ok".into(),
        }
    }

    #[test]
    fn recorded_verdicts_are_held() {
        assert!(guarded("ok") && guarded("ok-rom"));
        assert!(!guarded("error") && !guarded("timeout") && !guarded("n/a"));
        assert!(keeps("ok", &Verdict::Ok) && !keeps("ok", &Verdict::OkRom));
        assert!(keeps("ok-rom", &Verdict::OkRom) && keeps("ok-rom", &Verdict::Ok));
        assert!(!keeps("ok-rom", &Verdict::Error) && !keeps("ok-rom", &Verdict::Timeout));
        assert_eq!(Verdict::OkRom.word(), "ok-rom");
        let file = |kind, set| results_file(kind, set);
        assert!(file(Kind::Screenshot, RomSet::Own).ends_with("results/screenshot.tsv"));
        assert!(file(Kind::Exitcode, RomSet::Own).ends_with("results/exitcode.tsv"));
        let roms = file(Kind::Screenshot, RomSet::Commodores);
        assert!(roms.ends_with("results/screenshot-roms.tsv"));
        let roms = file(Kind::Exitcode, RomSet::Commodores);
        assert!(roms.ends_with("results/exitcode-roms.tsv"));
    }

    #[test]
    fn a_screenshot_test_needs_a_reference_and_a_modelled_chip() {
        let o = run(&test("VICII/none-such", "x.prg", &["vicii-pal"]));
        let why = o.explain();
        assert!(
            why.starts_with("no reference picture (references/x.prg.png or its -8565, "),
            "{why}"
        );
        assert_eq!(
            vic_model(&test("d", "p.prg", &["vicii-pal", "vicii-new"])),
            VicModel::Mos8565
        );
        // The NTSC chips are modelled: such a test runs (here: finds no reference).
        let o = run(&test("VICII/none-such", "x.prg", &["vicii-ntsc"]));
        assert!(
            o.explain().starts_with("no reference picture"),
            "{}",
            o.explain()
        );
        assert_eq!(
            vic_model(&test("d", "p.prg", &["vicii-ntscold"])),
            VicModel::Mos6567R56A
        );
    }

    /// greydot's $D021 writes on an 8565 against VICE's picture of an 8565: the grey dots
    /// match, and the pixels that differ are the 6569's against its own picture (the
    /// greeting the program prints with its copy of the character ROM, which is not
    /// Commodore's here).
    #[test]
    fn greydot_on_the_8565_matches_vices_8565_picture() {
        let differing = |o: &Outcome| -> usize {
            let e = o.explain();
            e.split(" of ")
                .next()
                .and_then(|d| d.rsplit("; ").next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{e}"))
        };
        if !collection_dir().join("VICII/greydot/greydot.prg").is_file() {
            return;
        }
        let on_8565 = run(&test("VICII/greydot", "greydot.prg", &["vicii-new"]));
        let on_6569 = run(&test("VICII/greydot", "greydot.prg", &["vicii-pal"]));
        assert!(
            on_8565.explain().contains("greydot.prg-8565.png"),
            "{}",
            on_8565.explain()
        );
        assert_eq!(differing(&on_8565), differing(&on_6569));
    }

    /// VICE's testbench ran x64sc as a C64C: a test naming no VIC-II ran on the 8565 (as
    /// one naming no CIA or SID ran on the 6526A and the 8580).
    #[test]
    fn a_test_naming_no_vic_ii_runs_on_the_8565_as_on_x64sc() {
        assert_eq!(vic_model(&test("d", "p.prg", &[])), VicModel::Mos8565);
        assert_eq!(
            vic_model(&test("d", "p.prg", &["cia-old"])),
            VicModel::Mos8565
        );
        assert_eq!(
            vic_model(&test("d", "p.prg", &["vicii-pal"])),
            VicModel::Mos6569
        );
        assert_eq!(
            vic_model(&test("d", "p.prg", &["vicii-pal", "vicii-old"])),
            VicModel::Mos6569
        );
        assert_eq!(
            vic_model(&test("d", "p.prg", &["vicii-ntsc"])),
            VicModel::Mos6567R8
        );
    }

    /// A reference picture is compared with the chip it shows: the plain one with the
    /// test's chip, a later chip's variant with that chip.
    #[test]
    fn a_picture_only_a_later_chip_has_is_compared_on_that_chip() {
        let dir = tempfile::tempdir().unwrap();
        let refs = dir.path().join("references");
        std::fs::create_dir(&refs).unwrap();
        let touch = |name: &str| std::fs::write(refs.join(name), b"").unwrap();
        let chosen = |options: &[&str]| {
            let (path, chip) = reference_and_chip(&test("d", "p.prg", options), dir.path())?;
            Some((path.file_name()?.to_string_lossy().into_owned(), chip))
        };
        assert_eq!(chosen(&["vicii-pal"]), None);
        touch("p.prg-8565.png");
        let pal_new = Some(("p.prg-8565.png".to_string(), VicModel::Mos8565));
        assert_eq!(chosen(&["vicii-pal"]), pal_new);
        assert_eq!(chosen(&[]), pal_new);
        touch("p.prg.png");
        let plain = |chip| Some(("p.prg.png".to_string(), chip));
        assert_eq!(chosen(&["vicii-pal"]), plain(VicModel::Mos6569));
        assert_eq!(chosen(&["vicii-pal", "vicii-new"]), pal_new);
        // x64sc's default chip takes its own picture where there is one.
        assert_eq!(chosen(&[]), pal_new);
        std::fs::remove_file(refs.join("p.prg.png")).unwrap();
        touch("p.prg-8562.png");
        // An NTSC test whose only picture is an 8562's runs on the 8562.
        std::fs::remove_file(refs.join("p.prg-8565.png")).unwrap();
        let ntsc_new = Some(("p.prg-8562.png".to_string(), VicModel::Mos8562));
        assert_eq!(chosen(&["vicii-ntsc"]), ntsc_new);
        // The 6567R56A has no later chip: it keeps its own.
        assert_eq!(
            chosen(&["vicii-ntscold"]),
            Some(("p.prg-8562.png".to_string(), VicModel::Mos6567R56A))
        );
    }

    /// VICII/split-tests/lightpen passes when $D011-$D014 and $D019 around an LP pulse, cycle
    /// by cycle, match one of the real chips' dumps it carries: a 6569R3, 8565R2, 6567R8
    /// and 8562R4 among them, so it checks the light pen of each of those models (the
    /// list runs it on one). The 6567R56A has no dump there.
    #[test]
    fn lightpen_matches_a_real_chips_dump_on_each_model_dumped() {
        let dir = "VICII/split-tests/lightpen";
        if !collection_dir().join(dir).join("lightpen.prg").is_file() {
            return;
        }
        for options in [
            &["vicii-pal"][..],
            &["vicii-pal", "vicii-new"],
            &["vicii-ntsc"],
            &["vicii-ntsc", "vicii-new"],
        ] {
            let t = Test {
                kind: Kind::Exitcode,
                cycles: 1_000_000_000,
                ..test(dir, "lightpen.prg", options)
            };
            let o = run(&t);
            assert_eq!(
                o.verdict,
                Verdict::Ok,
                "{:?}: {}",
                vic_model(&t),
                o.explain()
            );
        }
    }

    #[test]
    fn saves_pictures_of_failures_but_never_over_an_input() {
        let dir = tempfile::tempdir().unwrap();
        let t = test("d", "p.prg", &["vicii-pal"]);
        let reference = Reference {
            width: 2,
            height: 2,
            origin: (32, 35),
            pixels: vec![1; 4],
            off_palette: 0,
        };
        let picture = Picture::default();
        let outcome = |verdict: Verdict, reference_path: PathBuf| Outcome {
            verdict,
            detail: String::new(),
            cycles: 0,
            shot: Some(Box::new(Shot {
                comparison: screenshot::compare(&picture, &reference),
                picture: picture.clone(),
                reference: reference.clone(),
                reference_path,
            })),
        };
        let elsewhere = dir.path().join("elsewhere.png");
        let ok = outcome(Verdict::Ok, elsewhere.clone());
        assert_eq!(save_pictures(dir.path(), &t, &ok), Ok(vec![]));

        let out = dir.path().join("out");
        let failed = outcome(Verdict::Error, elsewhere);
        let written = save_pictures(&out, &t, &failed).unwrap();
        let names = ["d_p.prg-vicii-pal.png", "d_p.prg-vicii-pal-diff.png"];
        assert_eq!(written, names.map(|n| out.join(n)));
        for p in &written {
            let r = Reference::load(p).unwrap();
            assert_eq!((r.width, r.height), (WIDTH, HEIGHT));
        }
        // The 2x2 reference covers our top left corner: white there, black in ours.
        let diff = Reference::load(&written[1]).unwrap();
        assert_eq!(diff.pixels[..3], [1, 1, 6]);
        assert_eq!(diff.pixels[WIDTH * 2], 6);

        // The reference itself where the picture would go.
        let input = out.join(names[0]);
        let clash = outcome(Verdict::Error, input.clone());
        let e = save_pictures(&out, &t, &clash).unwrap_err();
        assert!(e.contains("never writes over one of its inputs"), "{e}");
        assert!(e.contains("the reference picture"), "{e}");
    }

    /// A PAL screenshot test of the collection runs to its $D7FF write and is compared
    /// (whatever the verdict while the VIC-II's drawing grows).
    #[test]
    fn a_screenshot_test_is_run_and_compared() {
        let list = tests().expect("the VICE test list beside the checkout");
        let t = list
            .iter()
            .find(|t| t.kind == Kind::Screenshot && unsupported(t).is_none())
            .expect("a PAL screenshot test");
        let o = run_with(t, true);
        assert!(
            !matches!(o.verdict, Verdict::NotApplicable(_)),
            "{}",
            o.explain()
        );
        assert!(o.detail.contains(" pixels ") && o.detail.contains("(references/"));
        let shot = o.shot.expect("kept");
        assert!(shot.comparison.is_some());
        assert!(shot
            .reference_path
            .starts_with(collection_dir().join(&t.dir)));
        assert!(run(t).shot.is_none());
    }

    /// VICE's own screenshots: a PAL reference decoded as our picture matches itself, and
    /// the NTSC screenshot of the same test where both cover (origins (32, 35) and (32, 23)).
    #[test]
    fn vice_references_align_across_sizes() {
        let list = tests().expect("the VICE test list beside the checkout");
        let pairs = list.iter().filter_map(|t| {
            let refs = collection_dir().join(&t.dir).join("references");
            let stem = t.prg.strip_suffix(".prg")?;
            let ntsc = refs.join(format!("{stem}_ntsc.prg.png"));
            let pal = refs.join(format!("{}.png", t.prg));
            (t.kind == Kind::Screenshot && pal.is_file() && ntsc.is_file()).then_some((pal, ntsc))
        });
        let mut checked = 0;
        for (pal, ntsc) in pairs.take(3) {
            let pal = Reference::load(&pal).unwrap();
            let ntsc = Reference::load(&ntsc).unwrap();
            assert_eq!((pal.width, pal.height, ntsc.height), (WIDTH, HEIGHT, 247));
            let ours = Picture::from_pixels(pal.pixels.clone(), vec![0; WIDTH * HEIGHT]).unwrap();
            let same = screenshot::compare(&ours, &pal).unwrap();
            assert_eq!(same.result(), Match::Exact, "{}", same.describe());
            let c = screenshot::compare(&ours, &ntsc).unwrap();
            assert_eq!(c.area, (0, 12, 384, 247));
            assert_eq!(c.result(), Match::Exact, "{}", c.describe());
            checked += 1;
        }
        assert!(
            checked > 0,
            "no PAL and NTSC reference pair in the collection"
        );
    }
}
