//! `--palette`: Pepto's colours by default on every model, or the VIC-II model's own
//! (`chip`), in the pictures the displays write.

mod common;

use c64kit_machine::VicModel;
use common::{c64kit, decode_png, stderr_of, stub_asm, temp_dir, write};
use std::path::PathBuf;

const PEPTO: [[u8; 3]; 16] = c64kit_plugin_api::palette::PEPTO;

/// A program that shows every colour: the border grey, then returns.
fn program() -> Vec<u8> {
    stub_asm(" lda #12\n sta $d020\n rts")
}

/// Runs the program with `args`, a screenshot to `name` in `dir`; the PNG's palette.
fn shot(dir: &std::path::Path, name: &str, args: &[&str]) -> (PathBuf, Vec<[u8; 3]>) {
    let prg = write(dir, "p.prg", &program());
    let png = dir.join(name);
    c64kit()
        .args(["run", &prg, "-q", "--screenshot"])
        .arg(&png)
        .args(args)
        .assert()
        .code(0);
    let (_, _, px, palette) = decode_png(&png);
    assert_eq!(px[0], 12, "{name}: the grey border");
    assert_eq!(palette.len(), 48, "{name}: 16 colours");
    let colours = palette.chunks(3).map(|c| [c[0], c[1], c[2]]).collect();
    (png, colours)
}

/// A colour's luminance as the chip made it: each channel back from sRGB's gamma (2.2) to
/// PAL's (2.8), then Y = 0.299 R + 0.587 G + 0.114 B, as a fraction of white's.
fn luminance(rgb: [u8; 3]) -> f64 {
    let pal = |v: u8| (f64::from(v) / 255.0).powf(2.2 / 2.8);
    0.299 * pal(rgb[0]) + 0.587 * pal(rgb[1]) + 0.114 * pal(rgb[2])
}

#[test]
fn the_default_is_peptos_palette_on_every_model_byte_for_byte() {
    let dir = temp_dir("palette-default");
    for vic in ["6569", "6567r56a", "8565"] {
        let (default, colours) = shot(&dir, &format!("{vic}.png"), &["--vic", vic]);
        assert_eq!(colours, PEPTO, "{vic}: Pepto's palette");
        let (pepto, _) = shot(
            &dir,
            &format!("{vic}-pepto.png"),
            &["--vic", vic, "--palette", "pepto"],
        );
        assert_eq!(
            std::fs::read(&default).unwrap(),
            std::fs::read(&pepto).unwrap(),
            "{vic}: --palette pepto is the default"
        );
    }
}

#[test]
fn the_first_ntsc_chip_shows_five_grey_levels() {
    let dir = temp_dir("palette-6567r56a");
    let (_, chip) = shot(&dir, "old.png", &["--vic", "6567r56a", "--palette", "chip"]);
    assert_ne!(chip, PEPTO);
    let luma = VicModel::Mos6567R56A.facts().luma;
    // Black, dark grey, grey and light grey: greys at 0, 1, 2 and 3 steps of one
    // luminance (white, 4 steps, is brighter than the screen shows and clips).
    let step = luminance(chip[12]) / 2.0;
    for (c, steps) in [(0, 0.0), (11, 1.0), (12, 2.0), (15, 3.0)] {
        let [r, g, b] = chip[c];
        assert!(r == g && g == b, "colour {c} is grey: {:?}", chip[c]);
        let y = luminance(chip[c]);
        assert!(
            (y - steps * step).abs() < 0.01,
            "colour {c}: {y}, not {steps} x {step}"
        );
        assert_eq!(f64::from(luma[c]) / 8.0, steps, "colour {c}'s level");
    }
    assert_eq!(chip[1], [255, 255, 255]);
    // Each grey is as bright as the hues of its level: dark grey as red, blue and brown,
    // grey as purple, green, orange, light red and light blue, light grey as cyan, yellow
    // and light green; 5 levels in all.
    for c in (0..16).filter(|&c| c != 1) {
        let y = luminance(chip[c]);
        let expected = f64::from(luma[c]) / 8.0 * step;
        assert!(
            (y - expected).abs() < 0.03,
            "colour {c}: {y}, not near {expected}"
        );
    }
    let mut levels: Vec<u8> = luma.to_vec();
    levels.sort();
    levels.dedup();
    assert_eq!(levels.len(), 5);
}

#[test]
fn the_6569s_own_colours_follow_its_nine_luminances() {
    let dir = temp_dir("palette-6569");
    let (_, chip) = shot(&dir, "pal.png", &["--vic", "6569", "--palette", "chip"]);
    let luma = VicModel::Mos6569.facts().luma;
    let mut levels: Vec<u8> = luma.to_vec();
    levels.sort();
    levels.dedup();
    assert_eq!(levels.len(), 9);
    for a in 0..16 {
        for b in 0..16 {
            if luma[a] < luma[b] {
                assert!(
                    luminance(chip[a]) < luminance(chip[b]),
                    "colour {a} (level {}) is darker than colour {b} (level {}): {:?} {:?}",
                    luma[a],
                    luma[b],
                    chip[a],
                    chip[b]
                );
            }
        }
    }
    // The new chips have the same 9 levels, so the same colours.
    let (_, new) = shot(&dir, "new.png", &["--vic", "8565", "--palette", "chip"]);
    assert_eq!(new, chip);
}

#[test]
fn the_palette_from_the_settings_file_and_a_bad_one_named() {
    let dir = temp_dir("palette-config");
    let config = dir.join("c64kit.toml");
    std::fs::write(&config, "vic = \"6567r56a\"\npalette = \"chip\"\n").unwrap();
    let (_, from_file) = shot(&dir, "file.png", &["--config", config.to_str().unwrap()]);
    let (_, from_args) = shot(
        &dir,
        "args.png",
        &["--vic", "6567r56a", "--palette", "chip"],
    );
    assert_eq!(from_file, from_args);
    // A bad value names the option and lists the choices.
    let prg = write(&dir, "p.prg", &program());
    let out = c64kit()
        .args(["run", &prg, "--palette", "vivid"])
        .assert()
        .failure();
    let stderr = stderr_of(&out);
    assert!(
        stderr.contains("--palette") && stderr.contains("pepto") && stderr.contains("chip"),
        "{stderr}"
    );
    std::fs::write(&config, "palette = \"vivid\"\n").unwrap();
    let out = c64kit()
        .args(["run", &prg, "--config", config.to_str().unwrap()])
        .assert()
        .failure();
    let stderr = stderr_of(&out);
    assert!(
        stderr.contains("palette") && stderr.contains("\"pepto\"") && stderr.contains("\"chip\""),
        "{stderr}"
    );
}

#[test]
fn every_picture_display_shows_the_palette_it_is_handed() {
    let dir = temp_dir("palette-displays");
    let prg = write(&dir, "p.prg", &program());
    let (_, chip) = shot(&dir, "old.png", &["--vic", "6567r56a", "--palette", "chip"]);
    let old = ["--vic", "6567r56a", "--palette", "chip"];
    // The GIF's one palette.
    let gif = dir.join("old.gif");
    c64kit()
        .args(["run", &prg, "-q", "--record"])
        .arg(&gif)
        .args(old)
        .assert()
        .code(0);
    let (_, palette) = common::decode_gif(&gif);
    assert_eq!(palette, chip.concat(), "the GIF's palette");
    // The HTML page: its text colours and its embedded PNG's palette.
    let html = dir.join("old.html");
    c64kit()
        .args(["run", &prg, "-q", "--html"])
        .arg(&html)
        .args(old)
        .assert()
        .code(0);
    let page = std::fs::read_to_string(&html).unwrap();
    for (c, [r, g, b]) in chip.iter().enumerate() {
        let css = format!(".f{c}{{color:#{r:02x}{g:02x}{b:02x}}}");
        assert!(page.contains(&css), "{css} in the page");
    }
    let png = page.split("data:image/png;base64,").nth(1).unwrap();
    let png = common::base64_decode(&png[..png.find('"').unwrap()]);
    let (_, _, _, palette) = common::decode_png_bytes(&png);
    assert_eq!(palette, chip.concat(), "the page's picture");
    // The terminal's 24-bit colours: the grey border the program leaves.
    let out = c64kit()
        .args(["run", &prg, "--display", "terminal"])
        .args(old)
        .env("COLORTERM", "truecolor")
        .assert()
        .code(0);
    let shown = common::stdout_of(&out);
    let [r, g, b] = chip[12];
    assert!(shown.contains(&format!("38;2;{r};{g};{b}m")), "{shown}");
    let [r, g, b] = PEPTO[12];
    assert!(!shown.contains(&format!("38;2;{r};{g};{b}m")), "{shown}");
}
