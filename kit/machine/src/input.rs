//! The scripted keyboard and joysticks: keys from a key script become available to the
//! program one at a time, when it asks, honouring the script's waits; joystick holds start
//! when the script reaches them, whether or not the program asks (games read the port).

use c64kit_basic::{Hold, KeyEvent};
use c64kit_chips::PAL_CYCLES_PER_FRAME;
use std::collections::VecDeque;

/// What the keyboard has for the program right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAvailability {
    Key(u8),
    /// A wait in the script has not elapsed yet.
    NotYet,
    /// The script has run out.
    Exhausted,
}

#[derive(Default, Debug)]
pub struct InputQueue {
    events: VecDeque<KeyEvent>,
    /// The cycle at which the previous key was taken (waits count from there).
    last_key_at: u64,
    available_from: u64,
    /// The joystick lines held now (bits of `c64kit_basic::joy`), ports 1 and 2.
    joysticks: [u8; 2],
    /// When the current hold ends.
    hold_until: Option<u64>,
    /// Joystick holds still queued (so the run loop need not search the queue).
    queued_holds: usize,
    /// A key script was given (even one now used up).
    fed: bool,
}

/// A hold in cycles of a PAL C64.
fn hold_cycles(hold: Hold) -> u64 {
    match hold {
        Hold::Cycles(n) => n,
        Hold::Frames(n) => n.saturating_mul(PAL_CYCLES_PER_FRAME),
        Hold::Millis(n) => n.saturating_mul(crate::PAL_HZ) / 1000,
    }
}

impl InputQueue {
    pub fn push_events(&mut self, events: impl IntoIterator<Item = KeyEvent>) {
        for e in events {
            self.fed = true;
            self.queued_holds += matches!(e, KeyEvent::Joystick { .. }) as usize;
            self.events.push_back(e);
        }
    }

    pub fn push_key(&mut self, key: u8) {
        self.push_events([KeyEvent::Key(key)]);
    }

    /// Whether any key or joystick was ever scripted.
    pub fn was_fed(&self) -> bool {
        self.fed
    }

    pub fn is_exhausted(&self) -> bool {
        self.events.is_empty() && self.hold_until.is_none()
    }

    /// The joystick lines held now, ports 1 and 2 (set bits pressed).
    pub fn joysticks(&self) -> [u8; 2] {
        self.joysticks
    }

    /// Whether any joystick hold is under way or still to come: the machine then calls
    /// [`InputQueue::advance_joysticks`] at the cycles it names.
    pub fn has_joystick_work(&self) -> bool {
        self.hold_until.is_some() || self.queued_holds > 0
    }

    /// Ends a hold that is over and starts the next one the script has reached by `now`.
    /// Returns the cycle at which to look again (None: nothing to do until the program
    /// takes a key; the machine then looks again every frame).
    pub fn advance_joysticks(&mut self, now: u64) -> Option<u64> {
        if let Some(end) = self.hold_until {
            if now < end {
                return Some(end);
            }
            self.joysticks = [0, 0];
            self.hold_until = None;
            // What follows a hold counts from its end.
            self.last_key_at = end;
            self.available_from = self.available_from.max(end);
        }
        loop {
            match self.events.front().copied() {
                Some(KeyEvent::WaitCycles(n)) => {
                    self.available_from =
                        self.available_from.max(self.last_key_at.saturating_add(n));
                    self.events.pop_front();
                }
                Some(KeyEvent::Joystick { port, lines, hold }) => {
                    if now < self.available_from {
                        return Some(self.available_from);
                    }
                    self.events.pop_front();
                    self.queued_holds -= 1;
                    self.joysticks = [0, 0];
                    self.joysticks[(port == 2) as usize] = lines;
                    let end = now.saturating_add(hold_cycles(hold));
                    self.hold_until = Some(end);
                    return Some(end);
                }
                _ => return None,
            }
        }
    }

    /// Keys still queued (waits not counted).
    pub fn pending_keys(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, KeyEvent::Key(_)))
            .count()
    }

    /// Takes the next key if it is available at cycle `now`. `empty_poll` says the program is
    /// asking with an empty keyboard buffer, which releases a `{WAITINPUT}`.
    pub fn take(&mut self, now: u64, empty_poll: bool) -> KeyAvailability {
        // Nothing comes while a joystick is held.
        if self.hold_until.is_some() {
            return KeyAvailability::NotYet;
        }
        loop {
            match self.events.front().copied() {
                None => return KeyAvailability::Exhausted,
                Some(KeyEvent::WaitCycles(n)) => {
                    self.available_from =
                        self.available_from.max(self.last_key_at.saturating_add(n));
                    self.events.pop_front();
                }
                Some(KeyEvent::WaitForPoll) => {
                    if !empty_poll {
                        return KeyAvailability::NotYet;
                    }
                    self.events.pop_front();
                }
                // A joystick hold comes first: the machine starts and ends it.
                Some(KeyEvent::Joystick { .. }) => return KeyAvailability::NotYet,
                Some(KeyEvent::Key(k)) => {
                    if now < self.available_from {
                        return KeyAvailability::NotYet;
                    }
                    self.events.pop_front();
                    self.last_key_at = now;
                    return KeyAvailability::Key(k);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_in_order_and_then_run_out() {
        let mut q = InputQueue::default();
        q.push_events([KeyEvent::Key(0x41), KeyEvent::Key(13)]);
        assert_eq!(q.take(0, true), KeyAvailability::Key(0x41));
        assert_eq!(q.take(5, true), KeyAvailability::Key(13));
        assert_eq!(q.take(9, true), KeyAvailability::Exhausted);
    }

    #[test]
    fn a_wait_counts_from_the_previous_key() {
        let mut q = InputQueue::default();
        q.push_events([
            KeyEvent::Key(1),
            KeyEvent::WaitCycles(100),
            KeyEvent::Key(2),
        ]);
        assert_eq!(q.take(10, true), KeyAvailability::Key(1));
        assert_eq!(q.take(50, true), KeyAvailability::NotYet);
        assert_eq!(q.take(109, true), KeyAvailability::NotYet);
        assert_eq!(q.take(110, true), KeyAvailability::Key(2));
    }

    #[test]
    fn wait_for_poll_needs_an_empty_buffer_poll() {
        let mut q = InputQueue::default();
        q.push_events([KeyEvent::WaitForPoll, KeyEvent::Key(7)]);
        assert_eq!(q.take(0, false), KeyAvailability::NotYet);
        assert_eq!(q.take(1, true), KeyAvailability::Key(7));
    }

    fn joy(port: u8, lines: u8, cycles: u64) -> KeyEvent {
        KeyEvent::Joystick {
            port,
            lines,
            hold: Hold::Cycles(cycles),
        }
    }

    #[test]
    fn joystick_holds_start_when_reached_and_keys_wait_for_their_end() {
        let mut q = InputQueue::default();
        q.push_events([
            KeyEvent::WaitCycles(100),
            joy(2, 0x10, 50),
            joy(1, 0x01, 20),
            KeyEvent::Key(7),
        ]);
        assert!(q.has_joystick_work());
        // Not before the wait is over.
        assert_eq!(q.advance_joysticks(10), Some(100));
        assert_eq!(q.joysticks(), [0, 0]);
        assert_eq!(q.take(10, true), KeyAvailability::NotYet);
        // Fire on port 2 from 100 to 150, then up on port 1 to 170.
        assert_eq!(q.advance_joysticks(100), Some(150));
        assert_eq!(q.joysticks(), [0, 0x10]);
        assert_eq!(q.take(120, true), KeyAvailability::NotYet);
        assert!(!q.is_exhausted());
        assert_eq!(q.advance_joysticks(150), Some(170));
        assert_eq!(q.joysticks(), [0x01, 0]);
        assert_eq!(q.advance_joysticks(170), None);
        assert_eq!(q.joysticks(), [0, 0]);
        assert!(!q.has_joystick_work());
        assert_eq!(q.take(171, true), KeyAvailability::Key(7));
    }

    #[test]
    fn a_hold_behind_a_key_starts_once_the_key_is_taken() {
        let mut q = InputQueue::default();
        q.push_events([KeyEvent::Key(1), joy(2, 0x04, 10)]);
        assert_eq!(q.advance_joysticks(0), None);
        assert_eq!(q.take(5, true), KeyAvailability::Key(1));
        assert_eq!(q.advance_joysticks(6), Some(16));
        assert_eq!(q.joysticks(), [0, 0x04]);
        // Frames and milliseconds are PAL cycles.
        assert_eq!(hold_cycles(Hold::Frames(2)), 2 * 19_656);
        assert_eq!(hold_cycles(Hold::Millis(1000)), 985_248);
    }
}
