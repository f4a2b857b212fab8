//! The VIC-II's picture through the displays, run through the binary: PNG screenshots with
//! the right colours where a program drew, the HTML page's picture and text, the terminal's
//! half blocks, and `--record` GIFs frame by frame.

mod common;

use common::{
    base64_decode, c64kit, decode_gif, decode_png, decode_png_bytes, stderr_of, stub_asm, temp_dir,
    write,
};

/// Pepto's colours, as the displays write them.
const PEPTO: [[u8; 3]; 16] = c64kit_plugin_api::palette::PEPTO;
/// Where the 320x200 text area starts in the picture.
const X0: usize = 32;
const Y0: usize = 35;
const YELLOW: u8 = 7;

/// Red border, sprite 0 (all set, yellow) at X 32, Y 66: on the text area from (8, 16) to
/// (31, 36); then waits three frames, makes the border green, and returns.
fn sprite_program() -> Vec<u8> {
    stub_asm(
        " lda #2
 sta $d020
 ldx #63
 lda #$ff
fill sta $0340,x
 dex
 bpl fill
 lda #13
 sta $07f8
 lda #32
 sta $d000
 lda #66
 sta $d001
 lda #7
 sta $d027
 lda #1
 sta $d015
 ldy #3
frames lda $d012
 bne frames
wait lda $d012
 beq wait
 dey
 bne frames
 lda #5
 sta $d020
 rts",
    )
}

#[test]
fn a_screenshot_has_the_programs_colours_where_it_drew_them() {
    let dir = temp_dir("pictures-png");
    let prg = write(&dir, "sprite.prg", &sprite_program());
    let end = dir.join("end.png");
    let at = dir.join("end-19656.png");
    let out = c64kit()
        .args(["run", &prg, "--screenshot"])
        .arg(&end)
        .args(["--screenshot-at", "19656"])
        .assert()
        .code(0);
    let stderr = stderr_of(&out);
    // Nothing drew during the run: both shots say they were redrawn.
    assert!(
        stderr.contains("end-19656.png (384x272, cycle 1965")
            && stderr.contains(", redrawn from memory and registers without the CPU)"),
        "{stderr}"
    );
    let (w, h, px, palette) = decode_png(&end);
    assert_eq!((w, h), (384, 272));
    assert_eq!(palette.len(), 48, "16 colours");
    for (c, rgb) in PEPTO.iter().enumerate() {
        assert_eq!(&palette[c * 3..c * 3 + 3], rgb, "colour {c}");
    }
    let at_end = |x: usize, y: usize| px[y * w + x];
    assert_eq!(at_end(0, 0), 5, "the final border is green");
    assert_eq!(at_end(383, 271), 5);
    assert_eq!(at_end(X0 - 1, Y0 + 20), 5, "border left of the text area");
    assert_eq!(at_end(X0, Y0), 6, "blue background");
    // The sprite: 24x21 pixels from (8, 16) of the text area.
    assert_eq!(at_end(X0 + 8, Y0 + 16), YELLOW);
    assert_eq!(at_end(X0 + 31, Y0 + 36), YELLOW);
    assert_eq!(at_end(X0 + 7, Y0 + 16), 6);
    assert_eq!(at_end(X0 + 32, Y0 + 16), 6);
    assert_eq!(at_end(X0 + 8, Y0 + 37), 6);
    // At cycle 19656 the border was still red, the sprite already there.
    let (_, _, px, _) = decode_png(&at);
    assert_eq!(px[0], 2, "red border in the first frame");
    assert_eq!(px[(Y0 + 16) * 384 + X0 + 8], YELLOW);
    // Without the border and twice the size: the text area alone, each pixel 2x2.
    let small = dir.join("area.png");
    c64kit()
        .args(["run", &prg, "-q", "--screenshot"])
        .arg(&small)
        .args(["-O", "png.border=false", "-O", "png.scale=2"])
        .assert()
        .code(0);
    let (w, h, px, _) = decode_png(&small);
    assert_eq!((w, h), (640, 400));
    assert_eq!(px[0], 6);
    assert_eq!(px[32 * 640 + 16], YELLOW);
    assert_eq!(px[33 * 640 + 17], YELLOW);
    assert_eq!(px[32 * 640 + 15], 6);
}

#[test]
fn the_html_page_holds_the_picture_and_the_text() {
    let dir = temp_dir("pictures-html");
    let prg = write(
        &dir,
        "hi.prg",
        &stub_asm(" lda #2\n sta $d020\n lda #$48\n jsr $ffd2\n lda #$49\n jsr $ffd2\n rts"),
    );
    let page = dir.join("hi.html");
    c64kit()
        .args(["run", &prg, "-q", "--html"])
        .arg(&page)
        .assert()
        .code(0);
    let html = std::fs::read_to_string(&page).unwrap();
    // The text, in its colours, selectable.
    assert!(
        html.contains("<i class=\"f14\">H</i><i class=\"f14\">I</i>"),
        "{html}"
    );
    // The picture, as a PNG inside the page.
    let start = html
        .find("src=\"data:image/png;base64,")
        .expect("no picture")
        + 27;
    let len = html[start..].find('"').unwrap();
    let png = base64_decode(&html[start..start + len]);
    let (w, h, px, _) = decode_png_bytes(&png);
    assert_eq!((w, h), (384, 272));
    assert_eq!(px[0], 2, "red border");
    assert_eq!(px[(Y0 + 100) * 384 + X0 + 100], 6, "blue background");
    // "H" in the first cell: some light blue pixels among the blue.
    let cell: Vec<u8> = (0..8)
        .flat_map(|y| (0..8).map(move |x| (x, y)))
        .map(|(x, y)| px[(Y0 + y) * 384 + X0 + x])
        .collect();
    assert!(cell.contains(&14) && cell.contains(&6), "{cell:?}");
    assert!(!html.contains("src=\"http"), "self-contained");
}

/// The page gives the run's time on the machine's clock and names the machine (a second of
/// NTSC C64 time is more cycles than a PAL second), and shows NTSC's shorter picture at its
/// own shape.
#[test]
fn the_html_page_gives_the_time_on_the_machines_clock() {
    let dir = temp_dir("pictures-html-clock");
    let prg = write(&dir, "border.prg", &border_every_frame());
    for (vic, video, height) in [("6569", "PAL", 272), ("6567r8", "NTSC", 247)] {
        let (hz, _) = clock_of(vic);
        let page = dir.join(format!("{vic}.html"));
        // Half a second of this machine's time.
        c64kit()
            .args(["run", &prg, "-q", "--vic", vic, "--html"])
            .arg(&page)
            .args(["--max-cycles", &(hz / 2).to_string()])
            .assert()
            .code(4);
        let html = std::fs::read_to_string(&page).unwrap();
        let cycles: u64 = html
            .split(" reached after ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("{vic}: no cycle count in the summary: {html}"));
        assert!((hz / 2..hz / 2 + 10).contains(&cycles), "{vic}: {cycles}");
        let seconds = format!("{:.3}", cycles as f64 / hz as f64);
        assert_eq!(seconds, "0.500", "{vic}");
        assert!(
            html.contains(&format!(
                "after {cycles} cycles ({seconds} s of {video} C64 time)"
            )),
            "{vic}: {html}"
        );
        let screen = html
            .split("<figcaption>")
            .nth(1)
            .unwrap_or_else(|| panic!("{vic}: no caption: {html}"));
        assert!(
            screen.starts_with(&format!("final screen (cycle {cycles}, {seconds} s)")),
            "{vic}: {screen}"
        );
        assert!(
            html.contains(&format!("width=\"768\" height=\"{}\"", 2 * height)),
            "{vic}: the picture at twice its size"
        );
    }
}

#[test]
fn the_terminal_shows_pixels_as_half_blocks_where_it_can() {
    let dir = temp_dir("pictures-terminal");
    let prg = write(&dir, "sprite.prg", &sprite_program());
    let fg_bg = |top: u8, bottom: u8| {
        let ([r, g, b], [r2, g2, b2]) = (PEPTO[top as usize], PEPTO[bottom as usize]);
        format!("\x1b[38;2;{r};{g};{b}m\x1b[48;2;{r2};{g2};{b2}m▀")
    };
    let out = c64kit()
        .args(["run", &prg, "-q", "--display", "terminal"])
        .args(["-O", "terminal.view=pixels", "-O", "terminal.scale=1"])
        .assert()
        .code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 136, "272 lines, two a character");
    assert!(lines[0].starts_with(&fg_bg(5, 5)), "{:?}", lines[0]);
    assert_eq!(lines[0].matches('▀').count(), 384);
    // A character holds picture rows 2n and 2n+1: rows 52 and 53 are both in the sprite.
    let row = lines[(Y0 + 17) / 2];
    assert!(row.contains(&fg_bg(YELLOW, YELLOW)), "{row:?}");
    // Where the terminal says it shows 24-bit colour, pixels are the default...
    let out = c64kit()
        .env("COLORTERM", "truecolor")
        .args(["run", &prg, "-q", "--display", "terminal"])
        .assert()
        .code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains('▀') && text.lines().count() == 68,
        "scale 2 off a terminal"
    );
    // ...and text where it does not.
    let out = c64kit()
        .args(["run", &prg, "-q", "--display", "terminal"])
        .assert()
        .code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(!text.contains('▀') && text.lines().count() == 27, "{text}");
}

/// Sets the border at the end of each frame (line 296, out of sight) to (frame number) / 4:
/// frame 0 shows the start's light blue, frames 1-4 black, 5-8 white, 9-12 red; returns
/// after frame 11's change, while frame 11 is complete.
fn border_steps() -> Vec<u8> {
    stub_asm(
        " ldx #0
loop bit $d011
 bpl loop
 lda $d012
 cmp #40
 bne loop
wait lda $d012
 cmp #40
 beq wait
 txa
 lsr
 lsr
 sta $d020
 inx
 cpx #12
 bne loop
 rts",
    )
}

#[test]
fn record_writes_every_frame_that_changed_with_its_time() {
    let dir = temp_dir("pictures-gif");
    let prg = write(&dir, "steps.prg", &border_steps());
    let gif = dir.join("steps.gif");
    let out = c64kit()
        .args(["run", &prg, "-q", "--record"])
        .arg(&gif)
        .assert()
        .code(0);
    let stderr = stderr_of(&out);
    assert!(stderr.contains("(4 frames of 12 kept, 384x272"), "{stderr}");
    let (frames, palette) = decode_gif(&gif);
    assert_eq!(palette.len(), 48, "exactly the 16 colours");
    for (c, rgb) in PEPTO.iter().enumerate() {
        assert_eq!(&palette[c * 3..c * 3 + 3], rgb, "colour {c}");
    }
    let shown: Vec<(u8, u8, u16)> = frames
        .iter()
        .map(|(px, delay)| (px[0], px[(Y0 + 50) * 384 + X0 + 50], *delay))
        .collect();
    // Border, background, hundredths of a second: identical frames only show longer.
    assert_eq!(shown, [(14, 6, 2), (0, 6, 8), (1, 6, 8), (2, 6, 6)]);
    // Every other frame: each kept frame lasts until the next (two frames), the last one
    // frame: the same 12 frames' time.
    let every = dir.join("every.gif");
    c64kit()
        .args(["run", &prg, "-q", "--record"])
        .arg(&every)
        .args(["--record-every", "2"])
        .assert()
        .code(0);
    let (frames, _) = decode_gif(&every);
    let shown: Vec<(u8, u16)> = frames.iter().map(|(px, d)| (px[0], *d)).collect();
    assert_eq!(shown, [(14, 4), (0, 8), (1, 8), (2, 4)]);
}

/// Makes the border the next colour on line 100 of every frame, for ever: no two frames
/// in a row look the same.
fn border_every_frame() -> Vec<u8> {
    stub_asm(
        "loop lda $d012
 cmp #100
 bne loop
 inc $d020
wait lda $d012
 cmp #100
 beq wait
 jmp loop",
    )
}

/// The machine's clock and frame of a VIC-II model, as `--vic` names it.
fn clock_of(vic: &str) -> (u64, u64) {
    let model = c64kit_machine::VicModel::from_name(vic).unwrap();
    (model.clock_hz(), model.cycles_per_frame())
}

/// A recording lasts as long as the frames it kept did on the machine's clock, within
/// 1/100 s, on PAL (50.125 frames a second) and NTSC (59.826; 60.0 on the 6567R56A) alike:
/// the GIF's hundredths carry their remainder. No frame is shorter than 2/100 s, the
/// shortest browsers play, so at NTSC's rate some frames are left out, never their time.
#[test]
fn a_recording_lasts_as_long_as_the_run_on_the_machines_clock() {
    let dir = temp_dir("pictures-gif-clock");
    let prg = write(&dir, "border.prg", &border_every_frame());
    for vic in ["6569", "6567r8", "6567r56a"] {
        let (hz, frame) = clock_of(vic);
        let frames = 150;
        let gif = dir.join(format!("{vic}.gif"));
        let out = c64kit()
            .args(["run", &prg, "-q", "--vic", vic, "--record"])
            .arg(&gif)
            .args(["--max-cycles", &(frames * frame).to_string()])
            .assert()
            .code(4);
        // "(N frames of K kept, ...)": K frames of the machine, each shown for its time.
        let stderr = stderr_of(&out);
        let kept: u64 = stderr
            .split(" kept, ")
            .next()
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|k| k.parse().ok())
            .unwrap_or_else(|| panic!("{vic}: no count of frames kept: {stderr}"));
        assert!(
            (frames - 1..=frames + 1).contains(&kept),
            "{vic}: {kept} frames kept of a {frames}-frame run"
        );
        let (shown, _) = decode_gif(&gif);
        let delays: Vec<u16> = shown.iter().map(|(_, d)| *d).collect();
        let total = delays.iter().map(|&d| f64::from(d)).sum::<f64>() / 100.0;
        let want = (kept * frame) as f64 / hz as f64;
        assert!(
            (total - want).abs() <= 0.01,
            "{vic}: the GIF lasts {total} s, {kept} frames {want} s: {delays:?}"
        );
        assert!(
            delays.iter().all(|&d| d >= 2),
            "{vic}: no delay under 2/100 s: {delays:?}"
        );
        // Every frame differs from the one before: written unless too short to show. At
        // most 50 frames a second are shown (one in 400 dropped on PAL); NTSC's 59.826 or 60
        // keep about five in six.
        let most = (total * 50.0).ceil() as usize;
        assert!(
            shown.len() <= most && shown.len() + 2 >= most.min(kept as usize),
            "{vic}: {} GIF frames for {kept} machine frames ({total} s)",
            shown.len()
        );
    }
}

#[test]
fn record_never_writes_over_an_input_and_checks_its_options() {
    let dir = temp_dir("pictures-gif-safety");
    let prg = write(&dir, "steps.prg", &border_steps());
    let out = c64kit()
        .args(["run", &prg, "--record", &prg])
        .assert()
        .code(1);
    let stderr = stderr_of(&out);
    assert!(
        stderr.contains("is the program") && stderr.contains("never writes over one of its inputs"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&prg).unwrap(), border_steps(), "untouched");
    let out = c64kit()
        .args(["run", &prg, "--record", "x.gif", "--record-every", "0"])
        .assert()
        .code(2);
    assert!(stderr_of(&out).contains("--record-every"));
    let out = c64kit()
        .args(["run", &prg, "--record-every", "2"])
        .assert()
        .code(2);
    assert!(stderr_of(&out).contains("--record"));
    // A folder that is not there fails before the run.
    let out = c64kit()
        .args(["run", &prg, "--record"])
        .arg(dir.join("nowhere/x.gif"))
        .assert()
        .code(1);
    assert!(
        stderr_of(&out).contains("display plugin gif (built-in) failed: cannot write "),
        "{}",
        stderr_of(&out)
    );
    assert!(!dir.join("nowhere").exists());
}

/// On an NTSC C64 the pictures are VICE's NTSC crop: 384x247, the text area from (32, 23).
#[test]
fn ntsc_pictures_are_vices_ntsc_crop() {
    let dir = temp_dir("pictures-ntsc");
    let prg = write(&dir, "sprite.prg", &sprite_program());
    let png = dir.join("end.png");
    let recording = dir.join("run.gif");
    c64kit()
        .args(["run", &prg, "-q", "--vic", "6567r8", "--screenshot"])
        .arg(&png)
        .arg("--record")
        .arg(&recording)
        .assert()
        .code(0);
    let (w, h, px, _) = decode_png(&png);
    assert_eq!((w, h), (384, 247));
    let y0 = 23;
    assert_eq!(px[(y0 + 16) * w + X0 + 8], YELLOW, "the sprite at (8, 16)");
    assert_eq!(px[(y0 + 16) * w + X0 + 7], 6);
    assert_eq!(px[(y0 + 15) * w + X0 + 8], 6);
    let decoder = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&recording).unwrap())
        .unwrap();
    assert_eq!((decoder.width(), decoder.height()), (384, 247));
}
