//! What of the screen fits a terminal of a given size: how large the picture is drawn, or
//! which rows and columns of the text view are shown, and where a one-line note goes when
//! something is left out. Nothing here draws, so every size can be tested.
//!
//! The picture is drawn with half blocks: a column per dot across, two dots a row down. A
//! terminal cell is about twice as tall as wide, so a dot is about square, like a PAL C64
//! pixel: the picture keeps its shape at any scale. It is drawn at the largest scale that
//! fits whole: whole multiples of its pixels when the terminal holds it at 1:1 or more (each
//! pixel exact), else shrunk (`resample` averages what each dot covers).

/// A terminal's size (or the room left in it), in character cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub cols: usize,
    pub rows: usize,
}

impl Size {
    /// As wide as a terminal, and as tall as need be: for printing on the terminal's own
    /// screen, which may scroll.
    pub fn width_only(cols: usize) -> Size {
        Size {
            cols,
            rows: usize::from(u16::MAX),
        }
    }
}

/// A line saying what is left out. It goes on row `row` from column `col`, cut to fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    pub row: usize,
    pub col: usize,
}

/// Where the picture is smaller than this part of itself (a C64 character narrower than a
/// column), its text cannot be told apart: the terminal is too small and a note says so.
const LEGIBLE_PART: usize = 8;

/// The picture as shown: `width` columns by `dots` rows of dots (two a terminal row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureFit {
    pub width: usize,
    pub dots: usize,
    pub note: Option<Note>,
}

impl PictureFit {
    /// Terminal rows the picture takes.
    #[cfg(test)]
    pub fn rows(&self) -> usize {
        self.dots.div_ceil(2)
    }

    /// The picture at `scale` C64 pixels a dot each way, whatever the room.
    pub fn fixed(picture: (usize, usize), scale: usize) -> PictureFit {
        let scale = scale.max(1);
        PictureFit {
            width: picture.0.div_ceil(scale),
            dots: picture.1.div_ceil(scale),
            note: None,
        }
    }
}

/// The largest picture of `picture` pixels (width, height) that fits `term` whole, keeping
/// its shape; `wish` (C64 pixels a dot) asks for a size, granted when it fits. When the
/// picture would be too small to read, a note says which size shows it.
pub fn fit_picture(term: Size, picture: (usize, usize), wish: Option<usize>) -> PictureFit {
    let (w, h) = (picture.0.max(1), picture.1.max(1));
    let size_in = |area: Size| {
        let wished = wish.map(|s| PictureFit::fixed((w, h), s));
        match wished {
            Some(f) if f.width <= area.cols && f.dots <= area.rows.saturating_mul(2) => {
                (f.width, f.dots)
            }
            _ => largest(w, h, area),
        }
    };
    let (width, dots) = size_in(term);
    if width * LEGIBLE_PART >= w && dots * LEGIBLE_PART >= h {
        return PictureFit {
            width,
            dots,
            note: None,
        };
    }
    let least = (
        w.div_ceil(LEGIBLE_PART),
        h.div_ceil(LEGIBLE_PART).div_ceil(2),
    );
    let text = format!(
        "too small: {}x{} or more shows the picture, {}x{} best",
        least.0,
        least.1,
        w,
        h.div_ceil(2)
    );
    let placed = place_note(term, width, text, |area| {
        let (width, dots) = size_in(area);
        (width, dots.div_ceil(2))
    });
    let (width, dots) = placed.content.map_or((0, 0), size_in);
    PictureFit {
        width,
        dots,
        note: placed.note,
    }
}

/// The largest size (columns, dots) of a `w` x `h` picture within `area`.
fn largest(w: usize, h: usize, area: Size) -> (usize, usize) {
    let (cols, dots) = (area.cols, area.rows.saturating_mul(2));
    if cols == 0 || dots == 0 {
        return (0, 0);
    }
    let times = (cols / w).min(dots / h);
    if times >= 1 {
        return (w * times, h * times);
    }
    // Shrunk: the side that runs out of room first sets the scale.
    if cols * h <= dots * w {
        (cols, (cols * h / w).clamp(1, dots))
    } else {
        ((dots * w / h).clamp(1, cols), dots)
    }
}

/// The text view's rows and columns (40x25) and its border: two columns either side, a row
/// above and below.
pub const TEXT: Size = Size { cols: 40, rows: 25 };
const BORDER_COLS: usize = 2;
const BORDER_ROWS: usize = 1;

/// The part of the text view shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextFit {
    /// The border's columns and its rows, each shown only when there is room for them.
    pub border_cols: bool,
    pub border_rows: bool,
    /// The screen's rows `first_row..first_row + rows` and columns likewise.
    pub first_row: usize,
    pub rows: usize,
    pub first_col: usize,
    pub cols: usize,
    pub note: Option<Note>,
}

impl TextFit {
    /// All of it (where no terminal size is known).
    pub fn whole(border: bool) -> TextFit {
        TextFit {
            border_cols: border,
            border_rows: border,
            first_row: 0,
            rows: TEXT.rows,
            first_col: 0,
            cols: TEXT.cols,
            note: None,
        }
    }

    /// Its size in cells, border included.
    pub fn size(&self) -> Size {
        Size {
            cols: self.cols + if self.border_cols { 2 * BORDER_COLS } else { 0 },
            rows: self.rows + if self.border_rows { 2 * BORDER_ROWS } else { 0 },
        }
    }
}

/// What of the 40x25 text (and its border, if `border`) fits `term`. The border goes first;
/// then the rows and columns shown are those around the cursor (`(row, col)`), where typing
/// goes, from the top left when it is near there, and a note says which are shown.
pub fn fit_text(term: Size, border: bool, cursor: (usize, usize)) -> TextFit {
    let within = |area: Size| TextFit {
        border_cols: border && area.cols >= TEXT.cols + 2 * BORDER_COLS,
        border_rows: border && area.rows >= TEXT.rows + 2 * BORDER_ROWS,
        first_row: window(TEXT.rows, area.rows.min(TEXT.rows), cursor.0),
        rows: area.rows.min(TEXT.rows),
        first_col: window(TEXT.cols, area.cols.min(TEXT.cols), cursor.1),
        cols: area.cols.min(TEXT.cols),
        note: None,
    };
    let all = within(term);
    if (all.rows, all.cols) == (TEXT.rows, TEXT.cols) || term.rows == 0 || term.cols == 0 {
        return all;
    }
    let placed = place_note(term, all.size().cols, shown_text(&all), |area| {
        let s = within(area).size();
        (s.cols, s.rows)
    });
    let mut fit = within(placed.content.unwrap_or(Size { cols: 0, rows: 0 }));
    // The note names the rows shown once it has taken its own.
    fit.note = placed.note.map(|n| {
        cut(
            Note {
                text: shown_text(&fit),
                ..n
            },
            term,
        )
    });
    fit
}

/// The note naming the text view's rows and columns `fit` shows.
fn shown_text(fit: &TextFit) -> String {
    let range = |first: usize, n: usize| format!("{}-{}", first + 1, first + n);
    if fit.rows == 0 || fit.cols == 0 {
        return format!("too small: {}x{} shows the screen", TEXT.cols, TEXT.rows);
    }
    match (fit.rows < TEXT.rows, fit.cols < TEXT.cols) {
        (true, false) => format!(
            "rows {} of {} ({} rows show all)",
            range(fit.first_row, fit.rows),
            TEXT.rows,
            TEXT.rows
        ),
        (false, true) => format!(
            "columns {} of {} ({} columns show all)",
            range(fit.first_col, fit.cols),
            TEXT.cols,
            TEXT.cols
        ),
        _ => format!(
            "rows {}, columns {} of {}x{} ({}x{} shows all)",
            range(fit.first_row, fit.rows),
            range(fit.first_col, fit.cols),
            TEXT.cols,
            TEXT.rows,
            TEXT.cols,
            TEXT.rows
        ),
    }
}

/// The first of `shown` out of `total` places that keeps place `keep` in view, as far up
/// (or left) as that allows.
fn window(total: usize, shown: usize, keep: usize) -> usize {
    if shown == 0 {
        return 0;
    }
    keep.min(total - 1)
        .saturating_sub(shown - 1)
        .min(total - shown)
}

/// Where content and a note go.
struct Placed {
    /// The room left for the content: none when the note takes the only row.
    content: Option<Size>,
    note: Option<Note>,
}

/// Puts `text` beside content `width` columns wide that fills `term` when it fits there
/// whole (the content keeps all its room), else on the row under the content refitted to
/// one row less (`fit` gives the content's columns and rows in an area).
fn place_note(
    term: Size,
    width: usize,
    text: String,
    fit: impl Fn(Size) -> (usize, usize),
) -> Placed {
    if term.rows == 0 || term.cols == 0 {
        return Placed {
            content: None,
            note: None,
        };
    }
    if width + 1 + text.chars().count() <= term.cols {
        return Placed {
            content: Some(term),
            note: Some(Note {
                text,
                row: 0,
                col: width + 1,
            }),
        };
    }
    let area = Size {
        cols: term.cols,
        rows: term.rows - 1,
    };
    let (content, row) = if area.rows == 0 {
        (None, 0)
    } else {
        (Some(area), fit(area).1)
    };
    Placed {
        content,
        note: Some(cut(Note { text, row, col: 0 }, term)),
    }
}

/// The note cut to the columns it has.
fn cut(note: Note, term: Size) -> Note {
    let room = term.cols.saturating_sub(note.col);
    Note {
        text: note.text.chars().take(room).collect(),
        ..note
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PICTURE: (usize, usize) = (384, 272);
    const TEXT_AREA: (usize, usize) = (320, 200);

    fn size(cols: usize, rows: usize) -> Size {
        Size { cols, rows }
    }

    /// The content (`cols` x `rows` cells) and the note, if any, lie inside `term`.
    fn assert_inside(term: Size, cols: usize, rows: usize, note: &Option<Note>, what: &str) {
        let used_rows = match note {
            Some(n) => {
                assert!(
                    n.col + n.text.chars().count() <= term.cols,
                    "{what}: note too wide"
                );
                assert!(n.row < term.rows, "{what}: note below");
                if n.col == 0 {
                    assert_eq!(n.row, rows, "{what}: the note goes under the content");
                } else {
                    assert!(n.col > cols, "{what}: the note goes beside the content");
                }
                rows.max(n.row + 1)
            }
            None => rows,
        };
        assert!(
            cols <= term.cols && used_rows <= term.rows,
            "{what}: {cols}x{used_rows} in {term:?}"
        );
    }

    fn sizes() -> impl Iterator<Item = Size> {
        let small = (0..=60).flat_map(|c| (0..=30).map(move |r| size(c, r)));
        let large = [
            (80, 24),
            (120, 40),
            (200, 60),
            (384, 136),
            (400, 140),
            (1000, 10),
        ];
        small.chain(large.map(|(c, r)| size(c, r)))
    }

    #[test]
    fn the_picture_fills_the_common_sizes_keeping_its_shape() {
        let fit = |c, r| {
            let f = fit_picture(size(c, r), PICTURE, None);
            (f.width, f.rows(), f.note.is_some())
        };
        assert_eq!(fit(80, 24), (67, 24, false));
        assert_eq!(fit(120, 40), (112, 40, false));
        assert_eq!(fit(200, 60), (169, 60, false));
        // Best: every pixel a dot; larger, whole multiples.
        assert_eq!(fit(384, 136), (384, 136, false));
        assert_eq!(fit(800, 300), (768, 272, false));
        let area = fit_picture(size(320, 100), TEXT_AREA, None);
        assert_eq!((area.width, area.dots), (320, 200));
    }

    #[test]
    fn the_picture_never_leaves_the_terminal() {
        for term in sizes() {
            for (picture, wish) in [(PICTURE, None), (TEXT_AREA, None), (PICTURE, Some(1))] {
                let f = fit_picture(term, picture, wish);
                let what = format!("{picture:?} in {term:?}");
                assert_inside(term, f.width, f.rows(), &f.note, &what);
                if f.note.is_none() && f.width > 0 && f.width < picture.0 {
                    // Shrunk, it is as large as fits: one side reaches the edge.
                    assert!(f.width == term.cols || f.dots == 2 * term.rows, "{what}");
                    let shape = |w: usize, h: usize| w as f64 / h as f64;
                    let off = shape(f.width, f.dots) / shape(picture.0, picture.1);
                    assert!((0.9..1.1).contains(&off) || f.dots < 20, "{what}: {off}");
                }
            }
        }
        assert_eq!(
            fit_picture(size(0, 0), PICTURE, None),
            PictureFit {
                width: 0,
                dots: 0,
                note: None
            }
        );
        let one = fit_picture(size(1, 1), PICTURE, None);
        assert_eq!((one.width, one.dots), (0, 0), "the note takes the only row");
        assert_eq!(one.note.unwrap().text, "t");
    }

    #[test]
    fn a_note_says_when_the_picture_is_too_small_to_read() {
        // 48x17 is the least: a C64 character a column wide.
        assert_eq!(fit_picture(size(48, 17), PICTURE, None).note, None);
        let f = fit_picture(size(40, 12), PICTURE, None);
        let note = f.note.clone().expect("a note");
        assert_eq!(
            note.text,
            "too small: 48x17 or more shows the picture, 384x136 best"[..40]
        );
        assert_eq!((f.width, f.rows(), note.row, note.col), (31, 11, 11, 0));
        // Beside the picture where there is room.
        let f = fit_picture(size(200, 10), PICTURE, None);
        let note = f.note.clone().expect("a note");
        assert_eq!((f.width, f.rows(), note.row, note.col), (28, 10, 0, 29));
        assert!(note.text.ends_with("384x136 best"));
        let area = fit_picture(size(30, 12), TEXT_AREA, None).note.unwrap();
        assert!(area.text.starts_with("too small: 40x13"), "{area:?}");
    }

    #[test]
    fn a_scale_asked_for_is_kept_only_where_it_fits() {
        let f = fit_picture(size(200, 60), PICTURE, Some(4));
        assert_eq!((f.width, f.dots), (96, 68));
        let f = fit_picture(size(80, 24), PICTURE, Some(1));
        assert_eq!((f.width, f.rows()), (67, 24));
    }

    #[test]
    fn the_text_view_drops_its_border_then_shows_what_fits_with_a_note() {
        let whole = fit_text(size(120, 40), true, (0, 0));
        assert_eq!(whole, TextFit::whole(true));
        assert_eq!(whole.size(), size(44, 27));
        // 80x24: no border rows, 24 of the 25 rows, the note beside them.
        let f = fit_text(size(80, 24), true, (0, 0));
        assert_eq!(
            (f.size(), f.first_row, f.border_cols),
            (size(44, 24), 0, true)
        );
        assert_eq!(
            f.note,
            Some(Note {
                text: "rows 1-24 of 25 (25 rows show all)".into(),
                row: 0,
                col: 45
            })
        );
        // The cursor on the last row: rows 2-25.
        let f = fit_text(size(80, 24), false, (24, 0));
        assert_eq!((f.first_row, f.rows), (1, 24));
        assert_eq!(f.note.unwrap().text, "rows 2-25 of 25 (25 rows show all)");
        // Too narrow for a note beside: under the text, which loses a row for it.
        let f = fit_text(size(30, 24), true, (10, 35));
        assert_eq!((f.first_row, f.rows, f.first_col, f.cols), (0, 23, 6, 30));
        let note = f.note.unwrap();
        assert_eq!((note.row, note.col), (23, 0));
        assert_eq!(
            note.text,
            "rows 1-23, columns 7-36 of 40x25 (40x25 shows all)"[..30]
        );
    }

    #[test]
    fn the_text_view_never_leaves_the_terminal() {
        for term in sizes() {
            for cursor in [(0, 0), (24, 39), (12, 20)] {
                for border in [true, false] {
                    let f = fit_text(term, border, cursor);
                    let what = format!("{term:?}, cursor {cursor:?}");
                    let s = f.size();
                    assert_inside(term, s.cols, s.rows, &f.note, &what);
                    if f.rows > 0 && f.cols > 0 {
                        let rows = f.first_row..f.first_row + f.rows;
                        let cols = f.first_col..f.first_col + f.cols;
                        assert!(rows.contains(&cursor.0) && rows.end <= 25, "{what}");
                        assert!(cols.contains(&cursor.1) && cols.end <= 40, "{what}");
                    }
                    let whole = f.rows == 25 && f.cols == 40;
                    assert_eq!(f.note.is_none(), whole || term.rows == 0 || term.cols == 0);
                }
            }
        }
        let one = fit_text(size(1, 1), true, (0, 0));
        assert_eq!(
            (one.rows, one.cols, one.note.unwrap().text),
            (0, 0, "t".into())
        );
    }
}
