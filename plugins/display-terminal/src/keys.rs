//! Terminal key presses as the C64 keyboard would give them (PETSCII), or quitting.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// What a key press does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAction {
    Petscii(u8),
    Quit,
    Ignore,
}

/// A terminal key as the C64 keyboard would give it.
pub fn map_key(key: &KeyEvent) -> KeyAction {
    if !matches!(key.kind, KeyEventKind::Press | KeyEventKind::Repeat) {
        return KeyAction::Ignore;
    }
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    use KeyAction::*;
    match key.code {
        KeyCode::Esc => Quit,
        KeyCode::Char('c') | KeyCode::Char('C') if ctrl => Quit,
        _ if ctrl => Ignore,
        KeyCode::Enter => Petscii(13),
        KeyCode::Backspace | KeyCode::Delete => Petscii(20),
        KeyCode::Insert => Petscii(148),
        KeyCode::Home if shift => Petscii(147),
        KeyCode::Home => Petscii(19),
        KeyCode::Up => Petscii(145),
        KeyCode::Down => Petscii(17),
        KeyCode::Left => Petscii(157),
        KeyCode::Right => Petscii(29),
        KeyCode::F(n @ 1..=8) => Petscii([133, 137, 134, 138, 135, 139, 136, 140][n as usize - 1]),
        KeyCode::Char(c) => match c {
            'a'..='z' => Petscii(c as u8 - 0x20),
            'A'..='Z' => Petscii(c as u8 + 0x80),
            '£' | '\\' => Petscii(0x5C),
            '↑' | '^' => Petscii(0x5E),
            '←' | '_' => Petscii(0x5F),
            'π' | '~' => Petscii(0xFF),
            ' '..='@' | '[' | ']' => Petscii(c as u8),
            _ => Ignore,
        },
        _ => Ignore,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn keys_become_petscii() {
        let k = |c| map_key(&key(KeyCode::Char(c), KeyModifiers::NONE));
        assert_eq!(k('a'), KeyAction::Petscii(0x41));
        assert_eq!(k('A'), KeyAction::Petscii(0xC1));
        assert_eq!(k('1'), KeyAction::Petscii(0x31));
        assert_eq!(k('£'), KeyAction::Petscii(0x5C));
        assert_eq!(
            map_key(&key(KeyCode::Enter, KeyModifiers::NONE)),
            KeyAction::Petscii(13)
        );
        assert_eq!(
            map_key(&key(KeyCode::F(3), KeyModifiers::NONE)),
            KeyAction::Petscii(134)
        );
        assert_eq!(
            map_key(&key(KeyCode::Home, KeyModifiers::SHIFT)),
            KeyAction::Petscii(147)
        );
        assert_eq!(
            map_key(&key(KeyCode::Esc, KeyModifiers::NONE)),
            KeyAction::Quit
        );
        assert_eq!(
            map_key(&key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            KeyAction::Quit
        );
        assert_eq!(
            map_key(&key(KeyCode::Char('x'), KeyModifiers::CONTROL)),
            KeyAction::Ignore
        );
    }
}
