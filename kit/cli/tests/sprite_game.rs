//! Our sprite game (programs/sprites) through the binary's displays: PNG, HTML, terminal
//! (pixels) and GIF each show the machine's picture, and in it every sprite on screen where
//! the VIC-II's registers put it, in its colour. The expected places come from running the
//! same program on `c64kit_machine::Machine` to the same cycle.

mod common;

use c64kit_machine::{Machine, Prg, PAL_CYCLES_PER_FRAME as FRAME};
use c64kit_plugin_api::palette::PEPTO;
use common::{
    base64_decode, c64kit, decode_gif, decode_png, decode_png_bytes, stderr_of, temp_dir,
};

const WIDTH: usize = 384;
/// Whole frames run: the ship idles, the rocks move.
const FRAMES: u64 = 40;

fn project() -> String {
    format!(
        "{}/../../programs/sprites/sprites.cbmprj",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The game RUN on the machine, with the picture drawn every frame if `live`.
fn machine(live: bool) -> Machine {
    let a = c64kit_asm::assemble_path(project().as_ref(), &Default::default()).unwrap();
    let prg = Prg::parse(&a.prg(), "sprites").unwrap();
    let mut m = Machine::builtin();
    if live {
        m.enable_picture();
    }
    m.load_and_run_prg(&prg).unwrap();
    m
}

/// A sprite on screen: its number, its box in the picture and its colour.
#[derive(Debug)]
struct Sprite {
    n: usize,
    x: usize,
    y: usize,
    colour: u8,
}

/// The enabled sprites whose 24x21 box lies inside the text area (not under the border),
/// from the VIC-II's registers now.
fn sprites_on_screen(m: &Machine) -> Vec<Sprite> {
    let reg = |r: u16| m.peek(0xD000 + r);
    (0..8)
        .filter(|&n| reg(0x15) & 1 << n != 0)
        .map(|n| {
            let x = usize::from(reg(2 * n)) | usize::from(reg(0x10) >> n & 1) << 8;
            // X 24 is the text area's first pixel (picture x 32); Y shows from line Y+1.
            Sprite {
                n: n.into(),
                x: x + 8,
                y: usize::from(reg(2 * n + 1)) - 15,
                colour: reg(0x27 + n) & 15,
            }
        })
        .filter(|s| s.x >= 32 && s.x + 24 <= 352 && s.y >= 35 && s.y + 21 <= 235)
        .collect()
}

/// Every sprite's colour fills part of its box; the ship (sprite 0) and some rocks are
/// among them.
fn assert_sprites_shown(what: &str, pixels: &[u8], sprites: &[Sprite]) {
    assert!(
        sprites.iter().any(|s| s.n == 0) && sprites.len() >= 4,
        "{what}: too few sprites on screen to check: {sprites:?}"
    );
    for s in sprites {
        let inside = (s.y..s.y + 21)
            .flat_map(|y| (s.x..s.x + 24).map(move |x| (x, y)))
            .filter(|&(x, y)| pixels[y * WIDTH + x] == s.colour)
            .count();
        assert!(
            inside >= 12,
            "{what}: sprite {} (colour {}) at ({}, {}): only {inside} of its pixels there",
            s.n,
            s.colour,
            s.x,
            s.y
        );
    }
}

/// The picture a terminal shows in pixels mode (scale 1): each `▀` is two pixels, the
/// foreground above the background, in 24-bit colour escapes.
fn terminal_pixels(text: &str) -> Vec<u8> {
    let colour = |params: &str| -> u8 {
        let rgb: Vec<u8> = params
            .split(';')
            .skip(2)
            .map(|v| v.parse().unwrap())
            .collect();
        PEPTO.iter().position(|c| c[..] == rgb[..]).unwrap() as u8
    };
    let mut pixels = vec![0u8; WIDTH * 272];
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 136, "272 rows, two a line");
    for (row, line) in lines.iter().enumerate() {
        let (mut fg, mut bg, mut x) = (0, 0, 0);
        let mut rest = *line;
        while let Some(c) = rest.chars().next() {
            if let Some(seq) = rest.strip_prefix("\x1b[") {
                let end = seq.find('m').unwrap();
                let params = &seq[..end];
                if params.starts_with("38;2;") {
                    fg = colour(params);
                } else if params.starts_with("48;2;") {
                    bg = colour(params);
                }
                rest = &seq[end + 1..];
                continue;
            }
            assert_eq!(c, '▀', "line {row}");
            pixels[2 * row * WIDTH + x] = fg;
            pixels[(2 * row + 1) * WIDTH + x] = bg;
            x += 1;
            rest = &rest[c.len_utf8()..];
        }
        assert_eq!(x, WIDTH, "line {row}");
    }
    pixels
}

/// The PNG screenshot, the HTML page's picture and the terminal's half blocks are the
/// still picture of the moment the run ends, with the sprites where the registers say.
#[test]
fn the_sprite_game_shows_its_sprites_in_png_html_and_terminal() {
    let dir = temp_dir("sprite-game");
    let (png, html) = (dir.join("game.png"), dir.join("game.html"));
    let cycles = FRAMES * FRAME;
    let out = c64kit()
        .env("COLORTERM", "truecolor")
        .args(["run", &project(), "-q", "--max-cycles", &cycles.to_string()])
        .arg("--screenshot")
        .arg(&png)
        .arg("--html")
        .arg(&html)
        .args(["--display", "terminal", "-O", "terminal.view=pixels"])
        .args(["-O", "terminal.scale=1"])
        .assert()
        .code(4);
    assert!(
        stderr_of(&out).contains("cycle budget"),
        "{}",
        stderr_of(&out)
    );
    let mut m = machine(false);
    m.run(cycles);
    let expected = m.still_picture().pixels().to_vec();
    let sprites = sprites_on_screen(&m);

    let (w, h, from_png, _) = decode_png(&png);
    assert_eq!((w, h), (WIDTH, 272));
    assert!(
        from_png == expected,
        "the screenshot is the machine's picture"
    );
    assert_sprites_shown("png", &from_png, &sprites);

    let page = std::fs::read_to_string(&html).unwrap();
    let start = page
        .find("src=\"data:image/png;base64,")
        .expect("no picture in the page")
        + 27;
    let len = page[start..].find('"').unwrap();
    let (w, h, from_html, _) = decode_png_bytes(&base64_decode(&page[start..start + len]));
    assert_eq!((w, h), (WIDTH, 272));
    assert!(from_html == expected, "the page's picture is the machine's");
    assert_sprites_shown("html", &from_html, &sprites);

    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let from_terminal = terminal_pixels(&text);
    assert!(
        from_terminal == expected,
        "the terminal shows the machine's picture"
    );
    assert_sprites_shown("terminal", &from_terminal, &sprites);
}

/// The game run for `cycles` with `--record gif` (the budget ends it): the GIF's frames.
fn record(cycles: u64, gif: &std::path::Path) -> Vec<(Vec<u8>, u16)> {
    c64kit()
        .args(["run", &project(), "-q", "--max-cycles", &cycles.to_string()])
        .arg("--record")
        .arg(gif)
        .assert()
        .code(4);
    decode_gif(gif).0
}

/// `--record`: every frame drawn live; the last is the machine's picture of that frame, with
/// the sprites where the registers put them during it; the rocks move from frame to frame.
#[test]
fn the_sprite_game_records_its_sprites_in_a_gif() {
    let dir = temp_dir("sprite-game-gif");
    let gif = dir.join("game.gif");
    // The run ends on line 295, below the picture: its last frame is this one, whole.
    let cycles = FRAMES * FRAME + 295 * 63;
    let frames = record(cycles, &gif);
    // Every frame moves a rock: none is merged into the one before.
    assert!(frames.len() as u64 >= FRAMES - 3, "{} frames", frames.len());
    // The game moves its sprites on line 251: those of line 150 are the frame's.
    let mut m = machine(true);
    m.run(FRAMES * FRAME + 150 * 63);
    let sprites = sprites_on_screen(&m);
    m.run(cycles - m.cycles());
    let (last, _) = frames.last().unwrap();
    assert!(
        last == m.picture().pixels(),
        "the last frame is the machine's"
    );
    assert_sprites_shown("gif", last, &sprites);
    let (before, _) = &frames[frames.len() - 2];
    assert!(before != last, "the sprites moved");
}

/// A recording that stops a few cycles into a frame ends with the frame just completed (the
/// new one has drawn nothing yet), as a `--screenshot` at that cycle shows it.
#[test]
fn a_recording_stopped_just_after_a_frame_ends_keeps_that_frame() {
    let dir = temp_dir("sprite-game-gif-boundary");
    let gif = dir.join("game.gif");
    for past in [0, 10] {
        let cycles = FRAMES * FRAME + past;
        let frames = record(cycles, &gif);
        let mut m = machine(true);
        m.run(FRAMES * FRAME);
        let (last, _) = frames.last().unwrap();
        assert!(
            last == m.picture().pixels(),
            "{past} cycles past frame {FRAMES}: the last recorded frame is frame {FRAMES}'s \
             ({} frames recorded)",
            frames.len()
        );
    }
}
