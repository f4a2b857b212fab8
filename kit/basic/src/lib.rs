//! c64kit-basic: PETSCII and Commodore BASIC V2.
//!
//! - [`petscii`]: screen codes as the KERNAL's CHROUT computes them, rendering PETSCII for
//!   humans with petcat's `{name}` control-code names, and scripted keyboard input.
//! - [`basic`]: the BASIC V2 token table, a `petcat -2` style lister, a `petcat -w2` style
//!   tokenizer.
//! - [`find_sys`]: the SYS that RUN executes first, its argument evaluated.
//! - [`keyboard`]: the C64 keyboard matrix and the PETSCII each key gives.
//! - [`font`]: c64kit's own 8x8 font for both character sets, and the 4K character ROM
//!   image made of it (used where no Commodore ROM image is given).

pub mod basic;
pub mod font;
pub mod keyboard;
mod keyscript;
pub mod petscii;
mod sys;

pub use basic::{
    list_program, program_lines, relink, tokenize, tokenize_with, BasicLine, LetterCase, ListError,
    TokenizeError, TokenizeOptions,
};
pub use petscii::{
    joy, parse_hold, parse_key_script, petscii_to_screen_code, render_petscii, Hold, KeyEvent,
    RenderOptions, RenderStyle, ScriptError, DEFAULT_JOYSTICK_HOLD,
};
pub use sys::{find_sys, starts_with_sys, NoSys, SysStatement};
