//! The HTML display: the final screen as a self-contained HTML page (no external files, no
//! network), for CI artifacts and reports. Each of the 40x25 cells is a character (graphics
//! as their Unicode look-alikes, as `c64kit run --dump-screen` shows them) in its colour, on
//! the background, inside the border, in Pepto's palette; reversed characters swap colours.
//! The text can be searched and copied.
//!
//! Options: `output` (file; default the program's name with .html, else screen.html),
//! `title`, `sequence` (true: also record every screen that differs from the one before, at
//! frame boundaries, shown with a slider), `max_screens` (how many, default 200).

use c64kit_basic::petscii::screen_code_to_char;
use c64kit_plugin_api::abi::{Screen, TextCell, FLAG_FRAMES};
use c64kit_plugin_api::palette::{hex, NAMES};
use c64kit_plugin_api::{DisplayBackend, HostRef, Options, RunEndInfo};
use std::fmt::Write;
use std::path::PathBuf;

pub struct HtmlDisplay {
    output: PathBuf,
    title: String,
    sequence: bool,
    max_screens: usize,
    screens: Vec<Screen>,
    dropped: usize,
}

/// What makes two screens look different.
fn same_look(a: &Screen, b: &Screen) -> bool {
    a.chars == b.chars
        && a.colours == b.colours
        && a.border == b.border
        && a.background == b.background
        && a.lowercase == b.lowercase
        && a.vic[0x11] & 0x50 == b.vic[0x11] & 0x50
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One screen as HTML: the border box around the 40x25 cells.
pub fn screen_html(s: &Screen, caption: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<figure class=\"screen\" data-cycles=\"{}\"><div class=\"border b{}\" title=\"border: {}\">",
        s.cycles,
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
            let TextCell {
                glyph,
                fg,
                bg,
                reversed,
            } = s.text_cell(i);
            let ch = screen_code_to_char(glyph, s.lowercase != 0);
            let (f, b) = if reversed { (bg, fg) } else { (fg, bg) };
            let text = escape(&ch.to_string());
            if b == bg0 {
                let _ = write!(out, "<i class=\"f{f}\">{text}</i>");
            } else {
                let _ = write!(out, "<i class=\"f{f} b{b}\">{text}</i>");
            }
        }
        out.push_str("</div>");
    }
    let _ = writeln!(
        out,
        "</div></div><figcaption>{}</figcaption></figure>",
        escape(caption)
    );
    out
}

const STYLE: &str = "body{background:#1b1b1b;color:#ddd;font-family:system-ui,sans-serif;margin:1.5em}\
h1{font-size:1.2em;margin:0 0 .3em}p{margin:.2em 0 1em}\
figure{margin:0 0 1.5em}figcaption{font-size:.85em;color:#aaa;margin-top:.4em}\
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
pub fn page(title: &str, summary: &str, screens: &[(String, &Screen)], note: &str) -> String {
    let mut css = String::from(STYLE);
    for c in 0..16u8 {
        let _ = write!(
            css,
            ".f{c}{{color:{}}}.b{c}{{background:{}}}",
            hex(c),
            hex(c)
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
    if screens.len() > 1 {
        let _ = writeln!(
            out,
            "<p><input type=\"range\" id=\"seq\" min=\"0\" value=\"0\"> <span id=\"seqn\"></span> {}</p>",
            escape(note)
        );
    }
    out.push_str("<div id=\"screens\">\n");
    for (caption, s) in screens {
        out.push_str(&screen_html(s, caption));
    }
    out.push_str("</div>\n");
    if screens.len() > 1 {
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
        Ok(HtmlDisplay {
            output: options.output_path("html"),
            title,
            sequence: options.flag("sequence")?.unwrap_or(false),
            max_screens: options.number("max_screens")?.unwrap_or(200).max(1) as usize,
            screens: Vec::new(),
            dropped: 0,
        })
    }

    fn flags(&self) -> u32 {
        if self.sequence {
            FLAG_FRAMES
        } else {
            0
        }
    }

    fn frame(&mut self, screen: &Screen, _host: &HostRef) -> Result<(), String> {
        if self.screens.last().is_some_and(|l| same_look(l, screen)) {
            return Ok(());
        }
        if self.screens.len() + 1 >= self.max_screens {
            self.dropped += 1;
            return Ok(());
        }
        self.screens.push(screen.clone());
        Ok(())
    }

    fn finish(&mut self, end: &RunEndInfo, screen: &Screen, host: &HostRef) -> Result<(), String> {
        let summary = format!(
            "{} after {} cycles ({:.3} s of PAL C64 time), PC=${:04X}, exit code {}",
            end.reason,
            end.cycles,
            end.cycles as f64 / 985_248.0,
            end.pc,
            end.exit_code
        );
        let mut shown: Vec<(String, &Screen)> = self
            .screens
            .iter()
            .map(|s| (format!("frame {} (cycle {})", s.frame, s.cycles), s))
            .collect();
        shown.push((format!("final screen (cycle {})", screen.cycles), screen));
        let note = if self.dropped > 0 {
            format!(
                "(the first {} screens; {} later changes not kept, see max_screens)",
                shown.len() - 1,
                self.dropped
            )
        } else {
            String::new()
        };
        let html = page(&self.title, &summary, &shown, &note);
        std::fs::write(&self.output, html)
            .map_err(|e| format!("cannot write {}: {e}", self.output.display()))?;
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

    #[test]
    fn cells_carry_text_and_colours() {
        let mut s = Screen::blank();
        s.vic[0x11] = 0x1B;
        s.chars[0] = 0x08; // H
        s.chars[1] = 0x89; // reversed I
        s.chars[2] = 0x3C; // <
        s.colours[0] = 1;
        let html = screen_html(&s, "cap");
        assert!(html
            .starts_with("<figure class=\"screen\" data-cycles=\"0\"><div class=\"border b14\""));
        assert!(
            html.contains(
                "<i class=\"f1\">H</i><i class=\"f6 b14\">I</i><i class=\"f14\">&lt;</i>"
            ),
            "{html}"
        );
        assert_eq!(html.matches("<div class=\"row\">").count(), 25);
        let p = page("t<", "done", &[("final".into(), &s)], "");
        assert!(p.contains("<title>t&lt;</title>"));
        assert!(p.contains(".b6{background:#352879}"));
        assert!(!p.contains("<script"), "one screen needs no script");
    }
}
