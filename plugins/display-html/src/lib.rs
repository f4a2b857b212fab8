//! The HTML display: the final screen as a self-contained HTML page (no external files, no
//! network), for CI artifacts and reports. The VIC-II's picture is embedded as a PNG (a
//! `data:` URI, shown twice its size with sharp pixels); under it, when the VIC-II shows
//! text, the 40x25 cells as text (graphics as their Unicode look-alikes, as `c64kit run
//! --dump-screen` shows them) in their colours, on the background, inside the border, in
//! the palette the host hands over (Pepto's unless `--palette chip`); reversed characters swap colours. The text can be searched and copied.
//!
//! Options: `output` (file; default the program's name with .html, else screen.html),
//! `title`, `sequence` (true: also keep every frame that looks different from the one
//! before, shown with a slider; the machine then draws every frame, about 30 times slower),
//! `max_screens` (how many, default 200).

use c64kit_basic::petscii::screen_code_to_char;
use c64kit_plugin_api::abi::{Screen, FLAG_FRAMES, FLAG_PIXELS};
use c64kit_plugin_api::palette::{hex, Palette, NAMES};
use c64kit_plugin_api::picture::encode_png;
use c64kit_plugin_api::{DisplayBackend, FrameView, HostRef, Options, Picture, RunEndInfo};
use std::fmt::Write;
use std::path::PathBuf;

/// One screen as the page shows it.
pub struct Shot {
    pub caption: String,
    pub screen: Screen,
    /// The picture as a PNG file, and its size in pixels (the model's visible area).
    pub png: Vec<u8>,
    pub size: (usize, usize),
    /// Where the picture comes from ("the frame complete at cycle N", ...).
    pub origin: String,
}

impl Shot {
    /// The frame's screen and picture; the caption gets the frame's time on the machine's
    /// clock: "final screen" becomes "final screen (cycle 19656, 0.020 s)".
    pub fn new(caption: &str, frame: &FrameView) -> Result<Shot, String> {
        let picture = frame.need_picture()?;
        let cycles = frame.screen.cycles;
        Ok(Shot {
            caption: format!(
                "{caption} (cycle {cycles}, {:.3} s)",
                frame.clock.seconds(cycles)
            ),
            screen: frame.screen.clone(),
            png: encode_png(&picture.image(true, 1), &frame.palette)?,
            size: (picture.width, picture.height),
            origin: picture.origin(),
        })
    }
}

pub struct HtmlDisplay {
    output: PathBuf,
    title: String,
    sequence: bool,
    max_screens: usize,
    shots: Vec<Shot>,
    /// The last kept frame's pixels, to keep only frames that look different.
    last_pixels: Vec<u8>,
    dropped: usize,
}

/// Standard base64 (RFC 4648, with padding), for the `data:` URI.
pub fn base64(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One screen: the picture, and its text when the VIC-II shows text.
pub fn shot_html(shot: &Shot) -> String {
    let s = &shot.screen;
    let mut out = String::new();
    let _ = write!(
        out,
        "<figure class=\"screen\" data-cycles=\"{}\"><img class=\"picture\" width=\"{}\" \
         height=\"{}\" alt=\"the VIC-II's picture, {}\" title=\"{}\" src=\"data:image/png;base64,{}\">",
        s.cycles,
        // Twice the picture's size (a PAL one is 384x272, an NTSC one 384x247).
        shot.size.0 * 2,
        shot.size.1 * 2,
        escape(&shot.origin),
        escape(&shot.origin),
        base64(&shot.png)
    );
    if s.shows_text() {
        out.push_str(&text_html(s));
    }
    let _ = writeln!(
        out,
        "<figcaption>{}; picture: {}</figcaption></figure>",
        escape(&shot.caption),
        escape(&shot.origin)
    );
    out
}

/// The text of a screen: the border box around the 40x25 cells.
pub fn text_html(s: &Screen) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<div class=\"text\"><div class=\"border b{}\" title=\"border: {}\">",
        s.border & 15,
        NAMES[(s.border & 15) as usize]
    );
    let blank = s.vic[0x11] & 0x10 == 0;
    let bg0 = if blank { s.border } else { s.background[0] } & 15;
    let _ = write!(out, "<div class=\"matrix b{bg0}\">");
    for row in 0..25 {
        out.push_str("<div class=\"row\">");
        for col in 0..40 {
            let i = row * 40 + col;
            if blank {
                out.push_str("<i> </i>");
                continue;
            }
            let cell = s.text_cell(i);
            let ch = screen_code_to_char(cell.glyph, s.lowercase != 0);
            let (f, b) = cell.shown_colours();
            let text = escape(&ch.to_string());
            if b == bg0 {
                let _ = write!(out, "<i class=\"f{f}\">{text}</i>");
            } else {
                let _ = write!(out, "<i class=\"f{f} b{b}\">{text}</i>");
            }
        }
        out.push_str("</div>");
    }
    out.push_str("</div></div></div>");
    out
}

const STYLE: &str = "body{background:#1b1b1b;color:#ddd;font-family:system-ui,sans-serif;margin:1.5em}\
h1{font-size:1.2em;margin:0 0 .3em}p{margin:.2em 0 1em}\
figure{margin:0 0 1.5em}figcaption{font-size:.85em;color:#aaa;margin-top:.4em}\
.picture{display:block;image-rendering:pixelated;image-rendering:crisp-edges;margin-bottom:.6em}\
.border{display:inline-block;padding:36px 32px}\
.matrix{font:16px/16px \"DejaVu Sans Mono\",\"Menlo\",\"Consolas\",monospace}\
.row{height:16px;white-space:pre}\
.row i{display:inline-block;width:12px;height:16px;font-style:normal;text-align:center;overflow:hidden;vertical-align:top}\
#seq{width:40em}";

const SCRIPT: &str = "<script>(function(){var s=document.getElementById('seq');if(!s)return;\
var f=document.querySelectorAll('#screens figure');function show(){for(var i=0;i<f.length;i++)\
f[i].style.display=(i==s.value)?'':'none';document.getElementById('seqn').textContent=\
(+s.value+1)+' / '+f.length;}s.max=f.length-1;s.value=f.length-1;s.oninput=show;show();})();</script>";

/// The whole page.
pub fn page(title: &str, summary: &str, shots: &[&Shot], note: &str, palette: &Palette) -> String {
    let mut css = String::from(STYLE);
    for c in 0..16u8 {
        let _ = write!(
            css,
            ".f{c}{{color:{}}}.b{c}{{background:{}}}",
            hex(palette, c),
            hex(palette, c)
        );
    }
    let mut out = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"generator\" content=\"c64kit\"><title>{}</title><style>{css}</style></head>\
         <body><h1>{}</h1><p class=\"summary\">{}</p>\n",
        escape(title),
        escape(title),
        escape(summary)
    );
    if shots.len() > 1 {
        let _ = writeln!(
            out,
            "<p><input type=\"range\" id=\"seq\" min=\"0\" value=\"0\"> <span id=\"seqn\"></span> {}</p>",
            escape(note)
        );
    }
    out.push_str("<div id=\"screens\">\n");
    for shot in shots {
        out.push_str(&shot_html(shot));
    }
    out.push_str("</div>\n");
    if shots.len() > 1 {
        out.push_str(SCRIPT);
    }
    out.push_str("</body></html>\n");
    out
}

impl DisplayBackend for HtmlDisplay {
    fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
        options.check_known(&["output", "title", "sequence", "max_screens"])?;
        let program = options.get("program").unwrap_or("");
        let title = match options.get("title") {
            Some(t) => t.to_string(),
            None if !program.is_empty() => format!("c64kit: {program}"),
            None => "c64kit".to_string(),
        };
        let output = options.output_path("html");
        // The page is written at the end: its folder is checked now, before the run.
        c64kit_files::check_output(&output).map_err(|e| {
            format!(
                "cannot write {}: {}",
                output.display(),
                c64kit_files::io_reason(&e)
            )
        })?;
        Ok(HtmlDisplay {
            output,
            title,
            sequence: options.flag("sequence")?.unwrap_or(false),
            max_screens: options.number("max_screens")?.unwrap_or(200).max(1) as usize,
            shots: Vec::new(),
            last_pixels: Vec::new(),
            dropped: 0,
        })
    }

    fn flags(&self) -> u32 {
        if self.sequence {
            FLAG_FRAMES | FLAG_PIXELS
        } else {
            FLAG_PIXELS
        }
    }

    fn frame(&mut self, frame: &FrameView, _host: &HostRef) -> Result<(), String> {
        let picture: Picture = frame.need_picture()?;
        if picture.pixels == self.last_pixels.as_slice() {
            return Ok(());
        }
        if self.shots.len() + 1 >= self.max_screens {
            self.dropped += 1;
            return Ok(());
        }
        self.last_pixels = picture.pixels.to_vec();
        let s = frame.screen;
        self.shots
            .push(Shot::new(&format!("frame {}", s.frame), frame)?);
        Ok(())
    }

    fn finish(
        &mut self,
        end: &RunEndInfo,
        frame: &FrameView,
        host: &HostRef,
    ) -> Result<(), String> {
        let summary = format!(
            "{} after {} cycles ({:.3} s of {} C64 time), PC=${:04X}, exit code {}",
            end.reason,
            end.cycles,
            end.clock.seconds(end.cycles),
            end.clock.video_name(),
            end.pc,
            end.exit_code
        );
        let last = Shot::new("final screen", frame)?;
        let mut shown: Vec<&Shot> = self.shots.iter().collect();
        shown.push(&last);
        let note = if self.dropped > 0 {
            format!(
                "(the first {} screens; {} later changes not kept, see max_screens)",
                shown.len() - 1,
                self.dropped
            )
        } else {
            String::new()
        };
        let html = page(&self.title, &summary, &shown, &note, &frame.palette);
        c64kit_files::write_output(&self.output, html.as_bytes()).map_err(|e| {
            format!(
                "cannot write {}: {}",
                self.output.display(),
                c64kit_files::io_reason(&e)
            )
        })?;
        host.note(&format!(
            "wrote {} ({} screen{})",
            self.output.display(),
            shown.len(),
            if shown.len() == 1 { "" } else { "s" }
        ));
        Ok(())
    }
}

c64kit_plugin_api::export_display!(
    c64kit_plugin_entry_html,
    HtmlDisplay,
    "html",
    "the final screen (or every change, sequence=true) as a self-contained HTML page"
);

#[cfg(test)]
mod tests {
    use super::*;
    use c64kit_plugin_api::abi::VIDEO_NTSC;
    use c64kit_plugin_api::{Clock, PictureKind};

    #[test]
    fn base64_as_rfc_4648_says() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xFB, 0xFF]), "+/8=");
    }

    #[test]
    fn a_shot_has_the_picture_and_its_text() {
        let mut s = Screen::blank();
        s.vic[0x11] = 0x1B;
        s.chars[0] = 0x08; // H
        s.chars[1] = 0x89; // reversed I
        s.chars[2] = 0x3C; // <
        s.colours[0] = 1;
        s.cycles = 2_500_000;
        let pixels = vec![6u8; 384 * 250];
        let frame = FrameView {
            screen: &s,
            picture: Some(Picture {
                pixels: &pixels,
                width: 384,
                height: 250,
                kind: PictureKind::Live,
                cycles: 19656,
            }),
            // A made-up clock: times come from the one handed over.
            clock: Clock {
                cycles_per_second: 2_000_000,
                cycles_per_frame: 40_000,
                video: VIDEO_NTSC,
            },
            palette: c64kit_plugin_api::palette::PEPTO,
        };
        let shot = Shot::new("cap", &frame).unwrap();
        let html = shot_html(&shot);
        assert!(html.starts_with(
            "<figure class=\"screen\" data-cycles=\"2500000\"><img class=\"picture\" \
             width=\"768\" height=\"500\""
        ));
        assert!(html.contains("cap (cycle 2500000, 1.250 s)"), "{html}");
        assert!(
            html.contains("src=\"data:image/png;base64,iVBORw0KGgo"),
            "{html}"
        );
        assert!(html.contains("the frame complete at cycle 19656"), "{html}");
        assert!(
            html.contains(
                "<i class=\"f1\">H</i><i class=\"f6 b14\">I</i><i class=\"f14\">&lt;</i>"
            ),
            "{html}"
        );
        assert_eq!(html.matches("<div class=\"row\">").count(), 25);
        let p = page(
            "t<",
            "done",
            &[&shot],
            "",
            &c64kit_plugin_api::palette::PEPTO,
        );
        assert!(p.contains("<title>t&lt;</title>"));
        assert!(p.contains(".b6{background:#352879}"));
        assert!(!p.contains("<script"), "one screen needs no script");
        // A bitmap screen has no text to show.
        let mut bitmap = s.clone();
        bitmap.vic[0x11] = 0x3B;
        let frame = FrameView {
            screen: &bitmap,
            ..frame
        };
        let html = shot_html(&Shot::new("bitmap", &frame).unwrap());
        assert!(!html.contains("class=\"row\""), "{html}");
    }
}
