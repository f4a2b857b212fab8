//! Our VIC-II programs drawn frame by frame on the machine and compared, pixel by pixel as
//! palette indices, with golden pictures in programs/golden (indexed PNGs in Pepto's palette,
//! as the png display writes them): `modes` (every display mode in its raster-split band,
//! eight sprites, open borders, a scroller) and the `sprites` game before and after joystick
//! input. `UPDATE_GOLDENFILES=1 cargo test -p c64kit-programs --test pictures` rewrites them.

use c64kit_basic::parse_key_script;
use c64kit_machine::picture::{HEIGHT, WIDTH};
use c64kit_machine::{Machine, Prg, StopReason, PAL_CYCLES_PER_FRAME as FRAME};
use c64kit_plugin_api::palette::PEPTO;
use c64kit_plugin_api::picture::{encode_png, Image};
use std::path::{Path, PathBuf};

/// The game's script: nothing for 100 frames, then left with fire held for 90.
const GAME_KEYS: &str = "{WAIT 1965600}{JOY2 LEFT FIRE 90f}";

/// Our program `name` after RUN, drawing its picture every frame, with the key script fed.
fn start(name: &str, keys: &str) -> Machine {
    let built = c64kit_programs::built_in(name).expect("built into c64kit-programs");
    let prg = Prg::parse(built.prg, name).unwrap();
    let mut m = Machine::builtin();
    m.enable_picture();
    m.load_and_run_prg(&prg).unwrap();
    m.feed_keys(parse_key_script(keys).unwrap());
    m
}

/// Runs until `frames` whole frames are drawn (the first instruction boundary at or after
/// the frame boundary: at most a few cycles of line 0, which the picture does not show).
fn run_to_frame(m: &mut Machine, frames: u64) {
    let stop = m.run(frames * FRAME - m.cycles());
    assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
    assert!(m.cycles() - frames * FRAME < 8, "{}", m.cycles());
}

fn golden_path(file: &str) -> PathBuf {
    c64kit_programs::programs_dir().join("golden").join(file)
}

/// `UPDATE_GOLDENFILES=1`, refused under CI: every golden file's one rule.
fn update_requested() -> bool {
    c64kit_files::output::golden_update_requested().unwrap_or_else(|e| panic!("{e}"))
}

fn png_of(pixels: &[u8]) -> Vec<u8> {
    encode_png(
        &Image {
            width: WIDTH,
            height: HEIGHT,
            pixels: pixels.to_vec(),
        },
        &PEPTO,
    )
    .unwrap()
}

/// Width, height, palette indices and palette of a PNG file.
fn decode_png(path: &Path) -> (usize, usize, Vec<u8>, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        panic!(
            "cannot read the golden picture {}: {e} (UPDATE_GOLDENFILES=1 writes it)",
            path.display()
        )
    });
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let palette = reader.info().palette.as_ref().unwrap().to_vec();
    (info.width as usize, info.height as usize, buf, palette)
}

/// The picture equals the golden one, or the failure says how many pixels differ and where
/// the first is (and where this run's picture was written, to look at).
fn check_golden(file: &str, pixels: &[u8]) {
    let path = golden_path(file);
    if update_requested() {
        std::fs::write(&path, png_of(pixels)).unwrap();
        eprintln!("UPDATE_GOLDENFILES=1: rewrote {}", path.display());
        return;
    }
    let (w, h, golden, palette) = decode_png(&path);
    assert_eq!((w, h), (WIDTH, HEIGHT), "{file}: size");
    assert_eq!(palette, PEPTO.concat(), "{file}: Pepto's palette");
    let differ: Vec<usize> = (0..pixels.len())
        .filter(|&i| pixels[i] != golden[i])
        .collect();
    if let Some(&first) = differ.first() {
        let seen = Path::new(env!("CARGO_TARGET_TMPDIR")).join(file);
        std::fs::write(&seen, png_of(pixels)).unwrap();
        panic!(
            "{file}: {} of {} pixels differ from the golden picture; the first at ({}, {}) is \
             colour {} where the golden one has {} (this run's picture: {})",
            differ.len(),
            pixels.len(),
            first % WIDTH,
            first / WIDTH,
            pixels[first],
            golden[first],
            seen.display()
        );
    }
}

#[test]
fn modes_matches_its_golden_picture() {
    let mut m = start("modes", "");
    run_to_frame(&mut m, 100);
    check_golden("modes.png", m.picture().pixels());
}

/// Rows 2 and 3 show $D01E and $D01F as the program read them at line 300, after the frame.
#[test]
fn modes_shows_the_collisions_of_each_frame() {
    let mut m = start("modes", "");
    run_to_frame(&mut m, 60);
    for frame in 60..63 {
        // Line 299: the frame's collisions are in the registers, not yet read.
        m.run(299 * 63);
        m.picture(); // brings the VIC-II (and its collision registers) up to now
        let (sprites, background) = (m.peek(0xD01E), m.peek(0xD01F));
        run_to_frame(&mut m, frame + 1);
        let shown = |row: u16| -> u8 {
            (0..8).fold(0, |v, i| {
                v << 1 | u8::from(m.peek(0x0400 + row * 40 + 10 + i) == 0x31)
            })
        };
        assert_eq!((shown(2), shown(3)), (sprites, background), "frame {frame}");
        // Sprites 0 and 1 overlap in the bottom border, 2 and 3 on the text.
        assert_eq!(sprites, 0b0000_1111, "frame {frame}");
        // Every sprite but 1 (in the border) touches the graphics of its band.
        assert_eq!(background & 0b1111_1100, 0b1111_1100, "frame {frame}");
    }
}

#[test]
fn the_sprite_game_matches_its_golden_pictures() {
    let mut m = start("sprites", GAME_KEYS);
    run_to_frame(&mut m, 60);
    let ship = |m: &Machine| u16::from(m.peek(0xD000)) | u16::from(m.peek(0xD010) & 1) << 8;
    let at_start = ship(&m);
    check_golden("sprites-60.png", m.picture().pixels());
    run_to_frame(&mut m, 200);
    assert!(
        ship(&m) < at_start - 100,
        "the joystick moved the ship left"
    );
    check_golden("sprites-200.png", m.picture().pixels());
}

/// Quiet border lines are drawn from a memo of the last one drawn (kit/chips/src/vic/
/// raster.rs). Our programs, drawn with and without it, give the same picture and the same
/// collision registers after every frame: `modes` (open borders, a raster split, sprites in
/// the border) and the game with its input.
#[test]
fn the_line_memo_draws_what_cycle_by_cycle_drawing_draws() {
    for (name, keys, frames) in [("modes", "", 60), ("sprites", GAME_KEYS, 200)] {
        let mut memo = start(name, keys);
        let mut exact = start(name, keys);
        exact.bus.vic.set_line_memo(false);
        let first = memo.cycles() / FRAME + 1;
        for frame in first..first + frames {
            for m in [&mut memo, &mut exact] {
                let stop = m.run(frame * FRAME - m.cycles().min(frame * FRAME));
                assert!(matches!(stop, StopReason::CycleBudget { .. }), "{stop:?}");
            }
            assert_eq!(memo.cycles(), exact.cycles(), "{name}, frame {frame}");
            assert!(
                memo.picture().pixels() == exact.picture().pixels(),
                "{name}: frame {frame} differs"
            );
            for reg in [0xD01E, 0xD01F, 0xD019] {
                assert_eq!(
                    memo.peek(reg),
                    exact.peek(reg),
                    "{name}, frame {frame}, {reg:04X}"
                );
            }
        }
    }
}
