//! The scripted keyboard: keys from a key script become available to the program one at a
//! time, when it asks, honouring the script's waits.

use c64kit_basic::KeyEvent;
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
}

impl InputQueue {
    pub fn push_events(&mut self, events: impl IntoIterator<Item = KeyEvent>) {
        self.events.extend(events);
    }

    pub fn push_key(&mut self, key: u8) {
        self.events.push_back(KeyEvent::Key(key));
    }

    pub fn is_exhausted(&self) -> bool {
        self.events.is_empty()
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
}
