//! Scripted keyboard input: text that says what to type into the C64 and when.
//!
//! Syntax:
//! - Plain text is typed as the C64 keyboard delivers it with no SHIFT held: letters of either
//!   case become the unshifted PETSCII codes $41-$5A (`e1f2` sends $45 $31 $46 $32), digits and
//!   punctuation their ASCII codes, a newline RETURN (13). `£`/`\`, `↑`/`^`, `←`/`_` and `π`/`~`
//!   type $5C, $5E, $5F and $FF. A carriage return (`\r`) is ignored so CRLF files work.
//! - `{NAME}` types a special key, with the names of the PETSCII renderer (`{clr}`, `{f1}`,
//!   `{rght}`, ...) plus aliases (`{RETURN}`, `{CR}`, `{DEL}`, `{right}`, ...), any case.
//!   `{$xx}` and `{nnn}` type a raw byte, `{3 down}` repeats a key.
//! - `{WAIT n}` makes the next key available only `n` CPU cycles later.
//! - `{WAITINPUT}` (or `{ASK}`) makes the next key available only once the program next polls
//!   for input while the keyboard buffer is empty.
//! - `{{` and `}}` type a literal brace (PETSCII $7B/$7D, which no C64 key produces).
//! - `{JOY2 UP FIRE 25f}` holds joystick 2 (port 2, read at $DC00) up with fire pressed for
//!   25 frames; `{JOY1 LEFT 500ms}`, `{JOY2 DOWN RIGHT 3000c}`; without a time, 3 frames.
//!   Directions UP DOWN LEFT RIGHT and FIRE, any case; times in `f` (PAL frames), `ms` or
//!   `c` (cycles). The script goes on when the hold ends: `{JOY2 FIRE 2f}{JOY2 FIRE 2f}`
//!   presses fire twice. A hold starts when the script reaches it (the keys before it taken
//!   by the program, the waits before it over), whether or not the program reads the keys.
//! - `{PADDLE1 128}` turns paddle 1 to 128, the value the SID's POTX then reads (0-255; paddles
//!   1 and 2 are control port 1's POT X and POT Y, 3 and 4 port 2's); it stays there and the
//!   script goes on at once. `{PADDLE1 FIRE}` holds paddle 1's button, like a joystick hold
//!   (3 frames unless a time is given: `{PADDLE3 FIRE 5f}`; paddles 1 and 3 press their port's
//!   LEFT line, 2 and 4 RIGHT); `{PADDLE1 200 FIRE 2f}` does both.
//! - `{MOUSE1 5 -3}` moves a 1351 mouse in control port 1 (proportional mode) 5 to the right
//!   and 3 down (its counters: X grows to the right, Y upwards, so down is negative); the
//!   script goes on at once. `{MOUSE2 LEFT}` / `{MOUSE2 RIGHT 5f}` hold its buttons like a
//!   joystick hold (LEFT is the port's FIRE line, RIGHT its UP line); `{MOUSE1 5 0 LEFT}` moves
//!   then clicks. A program sees the position modulo 64, so a move of 32 or more would read as
//!   one the other way: such a move is made as a mouse reports it, at most 31 a frame (so
//!   `{MOUSE1 80 0}` takes three frames, and the script goes on at its end).
//! - `{RESTORE}` presses RESTORE, which pulls the CPU's NMI line (a program's NMI handler
//!   runs), for the key hold (3 frames unless set) or a time: `{RESTORE 10f}`. Like a
//!   joystick hold it starts when the script reaches it and the script goes on at its end.
//! - SHIFT, C= and CTRL combinations: `{SHIFT-A}`, `{CBM-K}` (petcat's names), and for any
//!   key `{SHIFT-1}`, `{CBM-1}` (or `{C=-1}`), `{CTRL-9}`, `{CTRL-A}`: the code the KERNAL
//!   makes of that combination (an error if it makes none).
//! - `{SHIFT-CBM}` (or `{SHIFT-C=}`, `{CBM-SHIFT}`) presses SHIFT and C= together, which types
//!   nothing: the KERNAL's keyboard scan switches the character set (upper-case/graphics and
//!   lower/upper-case, bit 1 of $D018) unless CHR$(8) locked the switch.
//!
//! Every key is also pressed in CIA 1's keyboard matrix (see `c64kit_basic::keyboard` for
//! which key and modifier type each code), so programs that scan the keyboard themselves
//! see it.

use std::fmt;

use crate::keyboard::{self, KeyPress, Modifier};
use crate::petscii::code_for_name;
use c64kit_files::quote;

/// The longest `{WAIT n}`: 2^53 cycles, about 290 years of PAL C64 time. Anything longer
/// would overflow the cycle counter when added to the time of the last key.
pub const MAX_WAIT_CYCLES: u64 = 1 << 53;

/// The most steps a key script may hold (a million keys is hours of typing): a short
/// script with repeat counts cannot fill the memory.
pub const MAX_KEY_EVENTS: usize = 1_000_000;

/// How long a joystick hold lasts; the machine turns frames and milliseconds into cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hold {
    Cycles(u64),
    Frames(u64),
    Millis(u64),
}

/// Joystick lines as the CIA sees them pressed (set bits are pressed; the port reads them
/// low): bit 0 up, 1 down, 2 left, 3 right, 4 fire.
pub mod joy {
    pub const UP: u8 = 0x01;
    pub const DOWN: u8 = 0x02;
    pub const LEFT: u8 = 0x04;
    pub const RIGHT: u8 = 0x08;
    pub const FIRE: u8 = 0x10;
}

/// A hold without a time: about what a quick press lasts.
pub const DEFAULT_JOYSTICK_HOLD: Hold = Hold::Frames(3);

/// One step of a key script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyEvent {
    /// Put this PETSCII code into the keyboard buffer.
    Key(u8),
    /// Press SHIFT and C= together: no code, the KERNAL's scan switches the character set.
    ShiftCbm,
    /// Wait this many CPU cycles before the next key becomes available.
    WaitCycles(u64),
    /// Hold the next key until the program polls for input with the buffer empty.
    WaitForPoll,
    /// Hold joystick `port` (1 or 2) with these lines pressed ([`joy`]) for a while.
    Joystick { port: u8, lines: u8, hold: Hold },
    /// Hold RESTORE (the NMI line) for a while; `None`: as long as a key is held.
    Restore { hold: Option<Hold> },
    /// Turn paddle `paddle` (1-4: control port 1's POT X and Y, then port 2's) to `position`.
    Paddle { paddle: u8, position: u8 },
    /// Move the 1351 mouse in control port `port` (1 or 2) by `dx`, `dy` (its counters: X to
    /// the right, Y upwards).
    Mouse { port: u8, dx: i16, dy: i16 },
}

/// A key script that could not be parsed; `line` and `column` are 1-based (columns in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "key script line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ScriptError {}

/// Parses a key script (see the module docs for the syntax).
pub fn parse_key_script(text: &str) -> Result<Vec<KeyEvent>, ScriptError> {
    let mut events = Vec::new();
    for (line_index, line) in text.split('\n').enumerate() {
        if line_index > 0 {
            events.push(KeyEvent::Key(0x0d));
        }
        parse_line(line, line_index + 1, &mut events)?;
    }
    if events.len() > MAX_KEY_EVENTS {
        return Err(ScriptError {
            line: text.split('\n').count(),
            column: 1,
            message: format!("the script holds more than {MAX_KEY_EVENTS} keys and waits"),
        });
    }
    Ok(events)
}

fn parse_line(line: &str, line_no: usize, events: &mut Vec<KeyEvent>) -> Result<(), ScriptError> {
    let chars: Vec<char> = line.chars().collect();
    let err = |column: usize, message: String| ScriptError {
        line: line_no,
        column: column + 1,
        message,
    };
    let mut i = 0;
    while i < chars.len() {
        if events.len() > MAX_KEY_EVENTS {
            return Err(err(
                i,
                format!("the script holds more than {MAX_KEY_EVENTS} keys and waits"),
            ));
        }
        let c = chars[i];
        match c {
            '{' if chars.get(i + 1) == Some(&'{') => {
                events.push(KeyEvent::Key(b'{'));
                i += 2;
            }
            '}' if chars.get(i + 1) == Some(&'}') => {
                events.push(KeyEvent::Key(b'}'));
                i += 2;
            }
            '}' => {
                return Err(err(
                    i,
                    "unmatched '}' (write '}}' for a literal brace)".into(),
                ))
            }
            '{' => {
                let close = chars[i..]
                    .iter()
                    .position(|&c| c == '}')
                    .ok_or_else(|| err(i, "'{' is never closed on this line".into()))?;
                let inner: String = chars[i + 1..i + close].iter().collect();
                parse_escape(&inner, events).map_err(|m| err(i, m))?;
                i += close + 1;
            }
            '\r' => i += 1,
            _ => {
                let key = typed_key(c)
                    .ok_or_else(|| err(i, format!("no C64 key types {c:?}; use {{$xx}}")))?;
                events.push(KeyEvent::Key(key));
                i += 1;
            }
        }
    }
    Ok(())
}

fn parse_escape(inner: &str, events: &mut Vec<KeyEvent>) -> Result<(), String> {
    let words: Vec<&str> = inner.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    match lower
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => Err("empty '{}'".into()),
        ["waitinput"] | ["ask"] | ["wait", "input"] => {
            events.push(KeyEvent::WaitForPoll);
            Ok(())
        }
        ["wait", n] => {
            let digits = n.replace('_', "");
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "{{WAIT n}} needs a whole number of cycles, got {:?}",
                    quote(n)
                ));
            }
            let cycles = digits
                .parse::<u64>()
                .ok()
                .filter(|&c| c <= MAX_WAIT_CYCLES)
                .ok_or_else(|| {
                    format!(
                        "{{WAIT {}}} is more cycles than a run can count (at most \
                         {MAX_WAIT_CYCLES}, about 290 years of PAL C64 time)",
                        quote(n)
                    )
                })?;
            events.push(KeyEvent::WaitCycles(cycles));
            Ok(())
        }
        ["wait", ..] => Err("write {WAIT n} with n in CPU cycles".into()),
        [port @ ("joy1" | "joy2"), rest @ ..] => {
            events.push(joystick(port, rest)?);
            Ok(())
        }
        // Their words as typed, so that errors quote them so.
        [name, ..] if name.starts_with("paddle") => paddle(name, &words[1..], events),
        [name, ..] if name.starts_with("mouse") => mouse(name, &words[1..], events),
        ["restore", rest @ ..] => {
            let hold = match rest {
                [] => None,
                [time] => Some(parse_hold(time).map_err(|e| format!("{{RESTORE ...}}: {e}"))?),
                _ => return Err("write {RESTORE} or {RESTORE 10f}".into()),
            };
            events.push(KeyEvent::Restore { hold });
            Ok(())
        }
        [count, rest @ ..] if !rest.is_empty() && count.bytes().all(|b| b.is_ascii_digit()) => {
            let times: usize = count
                .parse()
                .ok()
                .filter(|&n| n <= 10_000)
                .ok_or_else(|| format!("repeat count {count} is too large"))?;
            let name = words[1..].join(" ");
            let code = code_for_name(&name)
                .ok_or_else(|| format!("unknown key name {{{}}}", quote(&name)))?;
            for _ in 0..times {
                events.push(KeyEvent::Key(code));
            }
            Ok(())
        }
        _ => {
            let event = match code_for_name(inner) {
                Some(code) => KeyEvent::Key(code),
                None => combination(inner)?
                    .ok_or_else(|| format!("unknown key name {{{}}}", quote(inner.trim())))?,
            };
            events.push(event);
            Ok(())
        }
    }
}

/// `SHIFT-x`, `CBM-x` / `C=-x`, `CTRL-x` for a key x: the code the KERNAL makes of it, or
/// SHIFT and C= together. None: not a combination.
fn combination(name: &str) -> Result<Option<KeyEvent>, String> {
    let upper = name.trim().to_uppercase();
    let Some((modifier, key)) = [
        ("SHIFT-", Modifier::Shift),
        ("CBM-", Modifier::Cbm),
        ("C=-", Modifier::Cbm),
        ("CTRL-", Modifier::Ctrl),
    ]
    .iter()
    .find_map(|(prefix, m)| upper.strip_prefix(prefix).map(|k| (*m, k))) else {
        return Ok(None);
    };
    if modifier == Modifier::Cbm && key.trim() == "SHIFT" {
        return Ok(Some(KeyEvent::ShiftCbm));
    }
    let Some(key) = keyboard::key_named(key) else {
        return Ok(None);
    };
    let shift = [keyboard::LEFT_SHIFT, keyboard::RIGHT_SHIFT];
    match modifier {
        Modifier::Shift if key == keyboard::CBM => return Ok(Some(KeyEvent::ShiftCbm)),
        Modifier::Cbm if shift.contains(&key) => return Ok(Some(KeyEvent::ShiftCbm)),
        _ => {}
    }
    KeyPress { key, modifier }
        .petscii()
        .map(|code| Some(KeyEvent::Key(code)))
        .ok_or_else(|| format!("{{{}}} types nothing on a C64", quote(name.trim())))
}

/// A hold time: `25f` (PAL frames), `500ms` or `3000c` (cycles), as the joystick holds,
/// RESTORE and `--key-hold` take it.
pub fn parse_hold(word: &str) -> Result<Hold, String> {
    let w = word.to_ascii_lowercase();
    let (digits, unit) = w.split_at(
        w.find(|c: char| !c.is_ascii_digit() && c != '_')
            .unwrap_or(w.len()),
    );
    let n: u64 = digits
        .replace('_', "")
        .parse()
        .map_err(|_| format!("{:?} is not a time like 25f, 500ms or 3000c", quote(word)))?;
    let too_long = |max: u64| -> Result<u64, String> {
        if n > max {
            Err(format!("{} is longer than a run can count", quote(word)))
        } else {
            Ok(n)
        }
    };
    Ok(match unit {
        "f" => Hold::Frames(too_long(MAX_WAIT_CYCLES / 20_000)?),
        "ms" => Hold::Millis(too_long(MAX_WAIT_CYCLES / 1_000)?),
        "c" => Hold::Cycles(too_long(MAX_WAIT_CYCLES)?),
        _ => {
            return Err(format!(
                "{:?}: times are frames (25f), milliseconds (500ms) or cycles (3000c)",
                quote(word)
            ))
        }
    })
}

/// `{JOY2 UP FIRE 25f}`: the words after JOY1/JOY2 (lower case).
fn joystick(port: &str, words: &[&str]) -> Result<KeyEvent, String> {
    let port = if port == "joy1" { 1 } else { 2 };
    let mut lines = 0;
    let mut hold = None;
    for &w in words {
        let line = match w {
            "up" => joy::UP,
            "down" => joy::DOWN,
            "left" => joy::LEFT,
            "right" => joy::RIGHT,
            "fire" => joy::FIRE,
            _ => {
                if w.starts_with(|c: char| c.is_ascii_digit()) {
                    if hold.is_some() {
                        return Err(format!("{{JOY{port} ...}} gives two times"));
                    }
                    hold = Some(parse_hold(w).map_err(|e| format!("{{JOY{port} ...}}: {e}"))?);
                    continue;
                }
                return Err(format!(
                    "{{JOY{port} ...}}: {:?} is not UP, DOWN, LEFT, RIGHT, FIRE or a time \
                     like 25f, 500ms or 3000c",
                    quote(w)
                ));
            }
        };
        lines |= line;
    }
    Ok(KeyEvent::Joystick {
        port,
        lines,
        hold: hold.unwrap_or(DEFAULT_JOYSTICK_HOLD),
    })
}

/// The number after a device's name (`paddle3` -> 3) if it is one of `1..=max`.
fn device_number(name: &str, prefix: &str, max: u8) -> Option<u8> {
    name.strip_prefix(prefix)?
        .parse()
        .ok()
        .filter(|n| (1..=max).contains(n))
}

/// `{PADDLE1 128}`, `{PADDLE2 FIRE 5f}`, `{PADDLE3 200 FIRE}` (`name` lower case, `words`
/// as typed).
fn paddle(name: &str, words: &[&str], events: &mut Vec<KeyEvent>) -> Result<(), String> {
    let paddle = device_number(name, "paddle", 4).ok_or_else(|| {
        format!(
            "unknown device {{{}}}: paddles are PADDLE1 to PADDLE4",
            quote(&name.to_ascii_uppercase())
        )
    })?;
    let token = format!("{{PADDLE{paddle} ...}}");
    let mut position = None;
    let mut fire = false;
    let mut hold = None;
    for &w in words {
        if w.eq_ignore_ascii_case("fire") {
            fire = true;
        } else if w.bytes().all(|b| b.is_ascii_digit()) {
            if position.is_some() {
                return Err(format!("{token} gives two positions"));
            }
            position = Some(
                w.parse::<u8>()
                    .map_err(|_| format!("{token}: position {} is not 0 to 255", quote(w)))?,
            );
        } else if w.starts_with(|c: char| c.is_ascii_digit()) {
            if hold.is_some() {
                return Err(format!("{token} gives two times"));
            }
            hold = Some(parse_hold(w).map_err(|e| format!("{token}: {e}"))?);
        } else {
            return Err(format!(
                "{token}: {:?} is not a position 0 to 255, FIRE or a time like 25f, 500ms or 3000c",
                quote(w)
            ));
        }
    }
    if hold.is_some() && !fire {
        return Err(format!(
            "{token}: a time is how long FIRE is held: write {{PADDLE{paddle} FIRE 5f}}"
        ));
    }
    if position.is_none() && !fire {
        return Err(format!("{token}: write a position 0 to 255 or FIRE"));
    }
    if let Some(position) = position {
        events.push(KeyEvent::Paddle { paddle, position });
    }
    if fire {
        // Paddle fire buttons are the port's joystick left (X paddle) and right (Y) lines.
        let port = paddle.div_ceil(2);
        let lines = if paddle % 2 == 1 {
            joy::LEFT
        } else {
            joy::RIGHT
        };
        events.push(KeyEvent::Joystick {
            port,
            lines,
            hold: hold.unwrap_or(DEFAULT_JOYSTICK_HOLD),
        });
    }
    Ok(())
}

/// `{MOUSE1 5 -3}`, `{MOUSE2 LEFT 2f}`, `{MOUSE1 5 0 RIGHT}` (`name` lower case, `words` as
/// typed).
fn mouse(name: &str, words: &[&str], events: &mut Vec<KeyEvent>) -> Result<(), String> {
    let port = device_number(name, "mouse", 2).ok_or_else(|| {
        format!(
            "unknown device {{{}}}: mice are MOUSE1 and MOUSE2",
            quote(&name.to_ascii_uppercase())
        )
    })?;
    let token = format!("{{MOUSE{port} ...}}");
    let is_number = |w: &str| {
        let digits = w.strip_prefix(['-', '+']).unwrap_or(w);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let mut moves = Vec::new();
    let mut lines = 0;
    let mut hold = None;
    for &w in words {
        match w.to_ascii_lowercase().as_str() {
            "left" => lines |= joy::FIRE,
            "right" => lines |= joy::UP,
            _ if is_number(w) => moves.push(
                w.parse::<i16>()
                    .map_err(|_| format!("{token}: move {} is not -32768 to 32767", quote(w)))?,
            ),
            _ if w.starts_with(|c: char| c.is_ascii_digit()) => {
                if hold.is_some() {
                    return Err(format!("{token} gives two times"));
                }
                hold = Some(parse_hold(w).map_err(|e| format!("{token}: {e}"))?);
            }
            _ => {
                return Err(format!(
                    "{token}: {:?} is not a move (two numbers: right and up), LEFT, RIGHT or a \
                     time like 25f, 500ms or 3000c",
                    quote(w)
                ))
            }
        }
    }
    match moves[..] {
        [] => {}
        [dx, dy] => events.push(KeyEvent::Mouse { port, dx, dy }),
        _ => {
            return Err(format!(
                "{token}: a move is two numbers, right and up: {{MOUSE{port} 5 -3}}"
            ))
        }
    }
    if hold.is_some() && lines == 0 {
        return Err(format!(
            "{token}: a time is how long a button is held: write {{MOUSE{port} LEFT 5f}}"
        ));
    }
    if moves.is_empty() && lines == 0 {
        return Err(format!(
            "{token}: write a move (two numbers), LEFT or RIGHT"
        ));
    }
    if lines != 0 {
        events.push(KeyEvent::Joystick {
            port,
            lines,
            hold: hold.unwrap_or(DEFAULT_JOYSTICK_HOLD),
        });
    }
    Ok(())
}

/// The PETSCII code the unshifted C64 keyboard delivers for a character of plain script text.
fn typed_key(c: char) -> Option<u8> {
    match c {
        'a'..='z' => Some(c.to_ascii_uppercase() as u8),
        'A'..='Z' | ' '..='@' | '[' | ']' => Some(c as u8),
        '£' | '\\' => Some(0x5c),
        '↑' | '^' => Some(0x5e),
        '←' | '_' => Some(0x5f),
        'π' | '~' => Some(0xff),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::KeyEvent::*;
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<KeyEvent> {
        bytes.iter().map(|&b| Key(b)).collect()
    }

    #[test]
    fn letters_of_either_case_are_unshifted() {
        assert_eq!(
            parse_key_script("e1f2").unwrap(),
            keys(&[0x45, 0x31, 0x46, 0x32])
        );
        assert_eq!(
            parse_key_script("E1F2").unwrap(),
            keys(&[0x45, 0x31, 0x46, 0x32])
        );
    }

    #[test]
    fn newline_is_return_and_crlf_works() {
        assert_eq!(parse_key_script("a\nb").unwrap(), keys(&[0x41, 13, 0x42]));
        assert_eq!(
            parse_key_script("a\r\nb\r\n").unwrap(),
            keys(&[0x41, 13, 0x42, 13])
        );
    }

    #[test]
    fn named_keys_and_raw_bytes() {
        let got =
            parse_key_script("{RETURN}{cr}{DEL}{F1}{f8}{clr}{Home}{$93}{147}{3 down}").unwrap();
        assert_eq!(
            got,
            keys(&[13, 13, 0x14, 0x85, 0x8c, 0x93, 0x13, 0x93, 0x93, 0x11, 0x11, 0x11])
        );
    }

    #[test]
    fn waits() {
        let got = parse_key_script("y{WAIT 1_000}{waitinput}n{ASK}{wait input}").unwrap();
        assert_eq!(
            got,
            vec![
                Key(0x59),
                WaitCycles(1000),
                WaitForPoll,
                Key(0x4e),
                WaitForPoll,
                WaitForPoll
            ]
        );
    }

    #[test]
    fn literal_braces() {
        assert_eq!(parse_key_script("{{x}}").unwrap(), keys(b"{X}"));
    }

    #[test]
    fn errors_name_the_column() {
        let e = parse_key_script("ab\ncd{bogus}").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.to_string().contains("bogus"), "{e}");

        let e = parse_key_script("x{wait lots}").unwrap_err();
        assert_eq!((e.line, e.column), (1, 2));

        let e = parse_key_script("xyz{clr").unwrap_err();
        assert_eq!((e.line, e.column), (1, 4));

        let e = parse_key_script("ok}").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));

        let e = parse_key_script("tab\there").unwrap_err();
        assert_eq!((e.line, e.column), (1, 4));

        let e = parse_key_script("{}").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
    }

    #[test]
    fn bounds_waits_repeats_and_quotes() {
        // A wait that would overflow the cycle counter is an error, not zero.
        let e = parse_key_script("a{WAIT 18446744073709551615}b").unwrap_err();
        assert!(
            e.message.contains("more cycles than a run can count"),
            "{e}"
        );
        let e = parse_key_script("{WAIT 99999999999999999999999}").unwrap_err();
        assert!(
            e.message.contains("more cycles than a run can count"),
            "{e}"
        );
        let max = format!("{{WAIT {MAX_WAIT_CYCLES}}}");
        assert_eq!(
            parse_key_script(&max).unwrap(),
            vec![KeyEvent::WaitCycles(MAX_WAIT_CYCLES)]
        );
        // Repeat counts cannot make a short script fill the memory.
        let e = parse_key_script(&"{9999 down}".repeat(200)).unwrap_err();
        assert!(e.message.contains("more than 1000000 keys"), "{e}");
        // An error quotes at most 200 characters of the script.
        let e = parse_key_script(&format!("{{{}}}", "q".repeat(100_000))).unwrap_err();
        assert!(e.message.len() < 300, "{}", e.message.len());
    }

    #[test]
    fn joystick_holds() {
        assert_eq!(
            parse_key_script(
                "{JOY2 UP FIRE 25f}{joy1 left 500ms}{JOY2 down right 3000c}{JOY2 FIRE}"
            )
            .unwrap(),
            vec![
                Joystick {
                    port: 2,
                    lines: joy::UP | joy::FIRE,
                    hold: Hold::Frames(25)
                },
                Joystick {
                    port: 1,
                    lines: joy::LEFT,
                    hold: Hold::Millis(500)
                },
                Joystick {
                    port: 2,
                    lines: joy::DOWN | joy::RIGHT,
                    hold: Hold::Cycles(3000)
                },
                Joystick {
                    port: 2,
                    lines: joy::FIRE,
                    hold: DEFAULT_JOYSTICK_HOLD
                },
            ]
        );
        // Nothing pressed for a while is a hold too (the stick left centred).
        assert_eq!(
            parse_key_script("{JOY2 10f}").unwrap(),
            vec![Joystick {
                port: 2,
                lines: 0,
                hold: Hold::Frames(10)
            }]
        );
        for (bad, says) in [
            ("{JOY2 JUMP}", "not UP, DOWN"),
            ("{JOY2 UP 5s}", "times are frames"),
            ("{JOY2 UP 5f 6f}", "two times"),
            ("{JOY3 UP}", "unknown key name"),
            ("{JOY2 UP 99999999999999999999f}", "is not a time"),
            ("{JOY2 UP 999999999999999f}", "longer than a run can count"),
        ] {
            let e = parse_key_script(bad).unwrap_err();
            assert!(e.message.contains(says), "{bad}: {}", e.message);
        }
    }

    #[test]
    fn paddles_and_mice() {
        assert_eq!(
            parse_key_script("{PADDLE1 0}{paddle4 255}{PADDLE2 FIRE}{PADDLE3 7 fire 5f}").unwrap(),
            vec![
                Paddle {
                    paddle: 1,
                    position: 0
                },
                Paddle {
                    paddle: 4,
                    position: 255
                },
                Joystick {
                    port: 1,
                    lines: joy::RIGHT,
                    hold: DEFAULT_JOYSTICK_HOLD
                },
                Paddle {
                    paddle: 3,
                    position: 7
                },
                Joystick {
                    port: 2,
                    lines: joy::LEFT,
                    hold: Hold::Frames(5)
                },
            ]
        );
        assert_eq!(
            parse_key_script("{MOUSE1 5 -3}{mouse2 LEFT}{MOUSE2 +1 0 RIGHT left 20c}").unwrap(),
            vec![
                Mouse {
                    port: 1,
                    dx: 5,
                    dy: -3
                },
                Joystick {
                    port: 2,
                    lines: joy::FIRE,
                    hold: DEFAULT_JOYSTICK_HOLD
                },
                Mouse {
                    port: 2,
                    dx: 1,
                    dy: 0
                },
                Joystick {
                    port: 2,
                    lines: joy::FIRE | joy::UP,
                    hold: Hold::Cycles(20)
                },
            ]
        );
        // Errors name the token and what is wrong with it.
        for (bad, says) in [
            ("{PADDLE5 10}", "{PADDLE5}: paddles are PADDLE1 to PADDLE4"),
            ("{PADDLE0 10}", "PADDLE0"),
            (
                "{PADDLE1 256}",
                "{PADDLE1 ...}: position 256 is not 0 to 255",
            ),
            ("{PADDLE1 1 2}", "{PADDLE1 ...} gives two positions"),
            (
                "{PADDLE2 5f}",
                "{PADDLE2 ...}: a time is how long FIRE is held",
            ),
            ("{PADDLE2}", "{PADDLE2 ...}: write a position"),
            ("{PADDLE3 LEFT}", "{PADDLE3 ...}: \"LEFT\" is not"),
            ("{PADDLE1 FIRE 1f 2f}", "two times"),
            ("{MOUSE3 1 1}", "{MOUSE3}: mice are MOUSE1 and MOUSE2"),
            ("{MOUSE1 5}", "{MOUSE1 ...}: a move is two numbers"),
            ("{MOUSE1 1 2 3}", "a move is two numbers"),
            (
                "{MOUSE1 40000 0}",
                "{MOUSE1 ...}: move 40000 is not -32768 to 32767",
            ),
            (
                "{MOUSE2 1 1 5f}",
                "{MOUSE2 ...}: a time is how long a button is held",
            ),
            ("{MOUSE2 UP}", "{MOUSE2 ...}: \"UP\" is not a move"),
            ("{MOUSE1}", "write a move"),
        ] {
            let e = parse_key_script(bad).unwrap_err();
            assert!(e.message.contains(says), "{bad}: {}", e.message);
        }
    }

    #[test]
    fn restore_and_key_combinations() {
        assert_eq!(
            parse_key_script("{RESTORE}{restore 10f}{RESTORE 200c}").unwrap(),
            vec![
                Restore { hold: None },
                Restore {
                    hold: Some(Hold::Frames(10))
                },
                Restore {
                    hold: Some(Hold::Cycles(200))
                },
            ]
        );
        // petcat's names, and any key with SHIFT, C= or CTRL: the code the KERNAL makes.
        assert_eq!(
            parse_key_script("{SHIFT-A}{CBM-K}{SHIFT-1}{C=-1}{cbm-2}{CTRL-9}{ctrl-a}{CTRL-2}")
                .unwrap(),
            keys(&[0xC1, 0xA1, b'!', 0x81, 0x95, 0x12, 0x01, 0x05])
        );
        // SHIFT and C= together type nothing: an event of its own, however it is spelt.
        assert_eq!(
            parse_key_script("{SHIFT-CBM}{shift-c=}{CBM-SHIFT}{C=-LEFT SHIFT}{cbm-right shift}")
                .unwrap(),
            vec![ShiftCbm; 5]
        );
        for (bad, says) in [
            ("{RESTORE 5s}", "times are frames"),
            ("{RESTORE 1f 2f}", "write {RESTORE}"),
            ("{CTRL-+}", "types nothing"),
            ("{CTRL-NOKEY}", "unknown key name"),
        ] {
            let e = parse_key_script(bad).unwrap_err();
            assert!(e.message.contains(says), "{bad}: {}", e.message);
        }
        assert_eq!(parse_hold("3f"), Ok(Hold::Frames(3)));
        assert_eq!(parse_hold("20MS"), Ok(Hold::Millis(20)));
        assert_eq!(parse_hold("1_000c"), Ok(Hold::Cycles(1000)));
        assert!(parse_hold("3").is_err());
    }
}
