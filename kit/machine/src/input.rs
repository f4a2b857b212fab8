//! The scripted keyboard and joysticks: keys from a key script become available to the
//! program one at a time, when it asks, honouring the script's waits; joystick holds start
//! when the script reaches them, whether or not the program asks (games read the port). So
//! do the paddles' turns and the 1351 mouse's moves, which last: what is plugged into each
//! control port's POT lines ([`PortDevice`]) stays as the script last left it.
//!
//! Every key taken is also held down in CIA 1's keyboard matrix (with its SHIFT, C= or CTRL)
//! for the key hold, so programs that scan the keyboard themselves see it. A key is taken
//! either by the KERNAL (GETIN, CHRIN, its keyboard scan: [`InputQueue::take`], at once, as
//! it always was) or by the program's own matrix scan ([`InputQueue::scan`]: a read of a
//! port while a line of the other one is driven low), which takes the next key only when no
//! scripted key is held and the release gap after the last one is over, so a program that
//! waits for a release and then a press sees each key, the same key twice included. With
//! Commodore's KERNAL, whose own scan is the only way in, its scan also waits while the
//! keyboard buffer is full (the scan would drop the key): no scripted key is lost there. A
//! program's own scan (code outside the KERNAL ROM reading the matrix) does not wait: the
//! key is the program's, whatever the buffer holds (`C64Bus::keyboard_lines`).

use c64kit_basic::keyboard::{self, KeyPress};
use c64kit_basic::{Hold, KeyEvent};
use c64kit_chips::sid::pot::PotInput;
use c64kit_chips::{VicModel, PAL_CYCLES_PER_FRAME};
use std::collections::VecDeque;

/// How long a scripted key is held down in the matrix unless set (`--key-hold`), in frames:
/// 3, about 60 ms on PAL (50 ms on NTSC), a quick typist's press.
pub const DEFAULT_KEY_HOLD_FRAMES: u64 = 3;
/// [`DEFAULT_KEY_HOLD_FRAMES`] on a PAL C64, in cycles.
pub const DEFAULT_KEY_HOLD: u64 = DEFAULT_KEY_HOLD_FRAMES * PAL_CYCLES_PER_FRAME;

/// After a scripted key is released, how long the matrix stays empty before a scan may take
/// the next key: one frame (on PAL this one), longer than the KERNAL's 1/60 s scan interval,
/// so every scanner running once a frame or more often sees the release.
pub const RELEASE_GAP: u64 = PAL_CYCLES_PER_FRAME;

/// SHIFT+C=: the left SHIFT with the C= key.
const SHIFT_CBM: KeyPress = KeyPress {
    key: keyboard::CBM,
    modifier: keyboard::Modifier::Shift,
};

/// What the key script plugged into a control port's POT X and POT Y lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PortDevice {
    /// Nothing (a joystick has no POT lines): both read $FF.
    #[default]
    None,
    /// A pair of paddles: each one's position once turned (`None`: not turned yet, as if
    /// not there).
    Paddles([Option<u8>; 2]),
    /// A 1351 mouse in proportional mode: its X and Y counters.
    Mouse { x: u16, y: u16 },
}

impl PortDevice {
    /// The counts its POT X and POT Y lines make the SID's counter stop at. A 1351 puts its
    /// position modulo 64 in bits 1-6 (Commodore 1351 manual: bit 7 "don't care", bit 0 a
    /// noise bit, which is 0 here so runs repeat).
    pub fn pot_inputs(self) -> [PotInput; 2] {
        let mouse = |pos: u16| Some(((pos & 0x3F) << 1) as u8);
        match self {
            PortDevice::None => [None, None],
            PortDevice::Paddles(p) => p,
            PortDevice::Mouse { x, y } => [mouse(x), mouse(y)],
        }
    }
}

/// What the keyboard has for the program right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyAvailability {
    Key(u8),
    /// SHIFT and C= are pressed together (no code: the KERNAL's scan switches the set).
    ShiftCbm,
    /// A wait in the script has not elapsed yet.
    NotYet,
    /// The script has run out.
    Exhausted,
}

/// A scripted key down in the matrix.
#[derive(Clone, Copy, Debug)]
struct Held {
    /// The key's code; None for SHIFT+C=, which has none.
    code: Option<u8>,
    matrix: [u8; 8],
    /// Released at this cycle.
    until: u64,
    /// The KERNAL has it (a key a scan took goes to the KERNAL's next look at the keyboard
    /// while it is down, as the real KERNAL's scan would find it).
    delivered: bool,
}

#[derive(Debug)]
pub struct InputQueue {
    events: VecDeque<KeyEvent>,
    /// The cycle at which the previous key was taken or the previous wait ended (waits
    /// count from there, so `{WAIT a}{WAIT b}` waits a + b).
    last_key_at: u64,
    available_from: u64,
    /// The joystick lines held now (bits of `c64kit_basic::joy`), ports 1 and 2.
    joysticks: [u8; 2],
    /// RESTORE is held now (the NMI line).
    restore: bool,
    /// When the current hold (joystick or RESTORE) ends.
    hold_until: Option<u64>,
    /// The joystick lines the last hold pressed (port, lines) and the cycle from which a
    /// hold pressing one of them again may start: after a release gap, so that two holds
    /// in a row are two presses, not one long one.
    released: ([u8; 2], u64),
    /// Joystick and RESTORE holds still queued (so the run loop need not search the queue).
    queued_holds: usize,
    /// A key script was given (even one now used up).
    fed: bool,
    /// How long a key stays down in the matrix, in cycles.
    pub key_hold: u64,
    /// The C64's VIC-II: its frame and clock are what a script's frames and milliseconds
    /// are in cycles, and a frame is the release gap.
    vic: VicModel,
    held: Option<Held>,
    /// Joystick 2 lines held by a person (`play --joy-keys`): when each line (bit 0-4) is
    /// released, 0 if not held.
    live_until: [u64; 5],
    /// What is plugged into control ports 1 and 2's POT lines.
    devices: [PortDevice; 2],
}

impl Default for InputQueue {
    fn default() -> Self {
        InputQueue {
            events: VecDeque::new(),
            last_key_at: 0,
            available_from: 0,
            joysticks: [0, 0],
            restore: false,
            hold_until: None,
            released: ([0, 0], 0),
            queued_holds: 0,
            fed: false,
            key_hold: DEFAULT_KEY_HOLD,
            vic: VicModel::Mos6569,
            held: None,
            live_until: [0; 5],
            devices: [PortDevice::None; 2],
        }
    }
}

/// A hold in cycles of a C64 with a `vic` (its frames and clock).
pub fn hold_cycles_on(vic: VicModel, hold: Hold) -> u64 {
    match hold {
        Hold::Cycles(n) => n,
        Hold::Frames(n) => n.saturating_mul(vic.cycles_per_frame()),
        Hold::Millis(n) => n.saturating_mul(vic.clock_hz()) / 1000,
    }
}

/// [`DEFAULT_KEY_HOLD_FRAMES`] on a C64 with a `vic`, in cycles.
pub const fn default_key_hold(vic: VicModel) -> u64 {
    DEFAULT_KEY_HOLD_FRAMES * vic.cycles_per_frame()
}

/// The largest move of a 1351 counter a program can read unambiguously between two
/// readings: it sees the position modulo 64, so a change of 32 or more reads as a move the
/// other way (cc65's and Commodore's drivers read it once a frame).
pub const MOUSE_MOVE_PER_READING: i16 = 31;

/// How many frames a scripted mouse move of `dx`, `dy` is spread over (1: made at once).
fn mouse_readings(dx: i16, dy: i16) -> i16 {
    let longest = dx.unsigned_abs().max(dy.unsigned_abs());
    longest.div_ceil(MOUSE_MOVE_PER_READING as u16).max(1) as i16
}

/// Events the run loop carries out on their cycle (holds, and the paddles' and mouse's changes).
fn is_hold(e: &KeyEvent) -> bool {
    matches!(
        e,
        KeyEvent::Joystick { .. }
            | KeyEvent::Restore { .. }
            | KeyEvent::Paddle { .. }
            | KeyEvent::Mouse { .. }
    )
}

impl InputQueue {
    /// `{WAIT n}`: the next key no earlier than n cycles after the previous key or wait.
    fn wait(&mut self, n: u64) {
        self.last_key_at = self.last_key_at.saturating_add(n);
        self.available_from = self.available_from.max(self.last_key_at);
    }

    /// An empty queue on a C64 with a `vic`: its frames (the default key hold, the release
    /// gap, a script's `f` holds) and clock (`ms` holds).
    pub fn for_model(vic: VicModel) -> Self {
        InputQueue {
            key_hold: default_key_hold(vic),
            vic,
            ..InputQueue::default()
        }
    }

    /// A hold in this C64's cycles.
    fn cycles_of(&self, hold: Hold) -> u64 {
        hold_cycles_on(self.vic, hold)
    }

    /// A frame of this C64 (the release gap).
    fn frame(&self) -> u64 {
        self.vic.cycles_per_frame()
    }

    pub fn push_events(&mut self, events: impl IntoIterator<Item = KeyEvent>) {
        for e in events {
            self.fed = true;
            self.queued_holds += is_hold(&e) as usize;
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

    /// The program asks the KERNAL for a key with the keyboard buffer empty (GETIN, or
    /// CHRIN about to wait for a line), which releases a `{WAITINPUT}` at the script's front.
    /// For Commodore's KERNAL, whose own keyboard scan runs every 60th of a second whether
    /// or not anything asks: its scans do not release a `{WAITINPUT}` (see `C64Bus`).
    pub fn program_asks(&mut self) {
        while self.events.front() == Some(&KeyEvent::WaitForPoll) {
            self.events.pop_front();
        }
    }

    /// A `{WAITINPUT}` is at the script's front (the program's next ask releases it).
    pub fn waits_for_an_ask(&self) -> bool {
        self.events.front() == Some(&KeyEvent::WaitForPoll)
    }

    pub fn is_exhausted(&self) -> bool {
        self.events.is_empty() && self.hold_until.is_none()
    }

    /// The joystick lines held now, ports 1 and 2 (set bits pressed): the script's, and a
    /// person's on port 2.
    pub fn joysticks(&self) -> [u8; 2] {
        let live = (0..5)
            .filter(|&i| self.live_until[i] != 0)
            .fold(0, |lines, i| lines | 1 << i);
        [self.joysticks[0], self.joysticks[1] | live]
    }

    /// What is plugged into control ports 1 and 2's POT lines now.
    pub fn devices(&self) -> [PortDevice; 2] {
        self.devices
    }

    /// RESTORE is held now.
    pub fn restore(&self) -> bool {
        self.restore
    }

    /// Whether any joystick or RESTORE hold is under way or still to come: the machine then
    /// calls [`InputQueue::advance_joysticks`] at the cycles it names.
    pub fn has_joystick_work(&self) -> bool {
        self.hold_until.is_some() || self.queued_holds > 0 || self.live_until != [0; 5]
    }

    /// A person holds joystick 2's `lines` from `now` for `cycles` (each line until its own
    /// end, so pressing again extends it); [`InputQueue::advance_joysticks`] applies it.
    pub fn press_joystick(&mut self, lines: u8, now: u64, cycles: u64) {
        for (i, until) in self.live_until.iter_mut().enumerate() {
            if lines & (1 << i) != 0 {
                *until = now.saturating_add(cycles).max(1);
            }
        }
    }

    /// Ends the holds that are over and starts the next one the script has reached by `now`.
    /// Returns the cycle at which to look again (None: nothing to do until the program
    /// takes a key; the machine then looks again every frame).
    pub fn advance_joysticks(&mut self, now: u64) -> Option<u64> {
        for until in &mut self.live_until {
            if *until != 0 && *until <= now {
                *until = 0;
            }
        }
        let live = self.live_until.iter().filter(|&&u| u != 0).min().copied();
        let script = self.advance_script(now);
        match (script, live) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (None, Some(b)) if self.queued_holds > 0 => {
                Some(b.min(now.saturating_add(self.frame())))
            }
            (a, b) => a.or(b),
        }
    }

    fn advance_script(&mut self, now: u64) -> Option<u64> {
        if let Some(end) = self.hold_until {
            if now < end {
                return Some(end);
            }
            self.released = (self.joysticks, end.saturating_add(self.frame()));
            self.joysticks = [0, 0];
            self.hold_until = None;
            // What follows a hold counts from its end; after RESTORE, from its release gap,
            // so that a second press is a second edge on the NMI line.
            let end_gap = if self.restore {
                end.saturating_add(self.frame())
            } else {
                end
            };
            self.restore = false;
            self.last_key_at = end;
            self.available_from = self.available_from.max(end_gap);
        }
        loop {
            match self.events.front().copied() {
                Some(KeyEvent::WaitCycles(n)) => {
                    self.wait(n);
                    self.events.pop_front();
                }
                Some(KeyEvent::Joystick { port, lines, hold }) => {
                    let port = (port == 2) as usize;
                    let (last, gap_end) = self.released;
                    let from = if last[port] & lines != 0 {
                        self.available_from.max(gap_end)
                    } else {
                        self.available_from
                    };
                    if now < from {
                        return Some(from);
                    }
                    self.events.pop_front();
                    self.queued_holds -= 1;
                    self.joysticks = [0, 0];
                    self.joysticks[port] = lines;
                    let end = now.saturating_add(self.cycles_of(hold));
                    self.hold_until = Some(end);
                    return Some(end);
                }
                Some(KeyEvent::Mouse { port, dx, dy }) if mouse_readings(dx, dy) > 1 => {
                    if now < self.available_from {
                        return Some(self.available_from);
                    }
                    // A move a program could not tell from a short one the other way is
                    // made as a mouse reports it: a share each frame, the rest left at the
                    // queue's front, and the script goes on at its end.
                    let readings = mouse_readings(dx, dy);
                    let (sx, sy) = (dx / readings, dy / readings);
                    self.plug(KeyEvent::Mouse {
                        port,
                        dx: sx,
                        dy: sy,
                    });
                    self.events[0] = KeyEvent::Mouse {
                        port,
                        dx: dx - sx,
                        dy: dy - sy,
                    };
                    self.last_key_at = now;
                    self.available_from = now.saturating_add(self.frame());
                    return Some(self.available_from);
                }
                Some(e @ (KeyEvent::Paddle { .. } | KeyEvent::Mouse { .. })) => {
                    if now < self.available_from {
                        return Some(self.available_from);
                    }
                    self.events.pop_front();
                    self.queued_holds -= 1;
                    self.plug(e);
                    // A wait after it counts from here, as after a key.
                    self.last_key_at = now;
                }
                Some(KeyEvent::Restore { hold }) => {
                    if now < self.available_from {
                        return Some(self.available_from);
                    }
                    self.events.pop_front();
                    self.queued_holds -= 1;
                    self.restore = true;
                    let cycles = hold.map_or(self.key_hold, |h| self.cycles_of(h));
                    let end = now.saturating_add(cycles.max(1));
                    self.hold_until = Some(end);
                    return Some(end);
                }
                _ => return None,
            }
        }
    }

    /// A paddle turned or a mouse moved (plugged in first if the port had something else).
    fn plug(&mut self, e: KeyEvent) {
        match e {
            KeyEvent::Paddle { paddle, position } => {
                let port = &mut self.devices[usize::from(paddle > 2)];
                let mut pair = match *port {
                    PortDevice::Paddles(pair) => pair,
                    _ => [None, None],
                };
                pair[usize::from(paddle % 2 == 0)] = Some(position);
                *port = PortDevice::Paddles(pair);
            }
            KeyEvent::Mouse { port, dx, dy } => {
                let port = &mut self.devices[usize::from(port == 2)];
                let (x, y) = match *port {
                    PortDevice::Mouse { x, y } => (x, y),
                    _ => (0, 0),
                };
                *port = PortDevice::Mouse {
                    x: x.wrapping_add_signed(dx),
                    y: y.wrapping_add_signed(dy),
                };
            }
            _ => {}
        }
    }

    /// Keys still queued (waits not counted).
    pub fn pending_keys(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, KeyEvent::Key(_) | KeyEvent::ShiftCbm))
            .count()
    }

    /// The KERNAL takes the next key if it is available at cycle `now` (a key a scan took
    /// and the KERNAL has not had yet comes first, while it is down); it is held down in the
    /// matrix from now. `empty_poll` says the program is asking with an empty keyboard
    /// buffer, which releases a `{WAITINPUT}`.
    pub fn take(&mut self, now: u64, empty_poll: bool) -> KeyAvailability {
        if let Some(h) = self.held.as_mut().filter(|h| !h.delivered && now < h.until) {
            h.delivered = true;
            return h
                .code
                .map_or(KeyAvailability::ShiftCbm, KeyAvailability::Key);
        }
        let got = self.next_key(now, empty_poll);
        self.press(got, now, true);
        got
    }

    /// The keys down in the matrix at `now` (`matrix[column]` bit `row`).
    pub fn matrix(&self, now: u64) -> [u8; 8] {
        match self.held {
            Some(h) if now < h.until => h.matrix,
            _ => [0; 8],
        }
    }

    /// The program scans the matrix at `now`: with no scripted key down and the release gap
    /// over, the next key, if available, is pressed now. `empty_buffer` says the KERNAL's
    /// keyboard buffer is empty (a scan then releases a `{WAITINPUT}` as a GETIN would);
    /// `room` that a key pressed now has room in it: without, the typist waits (Commodore's
    /// scan would drop the key, `C64Bus::keyboard_lines`). Returns the keys down.
    pub fn scan(&mut self, now: u64, empty_buffer: bool, room: bool) -> [u8; 8] {
        if let Some(h) = self.held {
            if now < h.until.saturating_add(self.frame()) {
                return self.matrix(now);
            }
        }
        if !room {
            return self.matrix(now);
        }
        let got = self.next_key(now, empty_buffer);
        self.press(got, now, false);
        self.matrix(now)
    }

    /// Holds a key taken (nothing else) down in the matrix from `now`.
    fn press(&mut self, got: KeyAvailability, now: u64, delivered: bool) {
        let (code, matrix) = match got {
            // A code no key types is taken but shows nothing in the matrix.
            KeyAvailability::Key(k) => (
                Some(k),
                keyboard::press_for(k).map_or([0; 8], KeyPress::matrix),
            ),
            KeyAvailability::ShiftCbm => (None, SHIFT_CBM.matrix()),
            KeyAvailability::NotYet | KeyAvailability::Exhausted => return,
        };
        self.held = Some(Held {
            code,
            matrix,
            until: now.saturating_add(self.key_hold),
            delivered,
        });
    }

    fn next_key(&mut self, now: u64, empty_poll: bool) -> KeyAvailability {
        // Nothing comes while a joystick or RESTORE is held.
        if self.hold_until.is_some() {
            return KeyAvailability::NotYet;
        }
        loop {
            match self.events.front().copied() {
                None => return KeyAvailability::Exhausted,
                Some(KeyEvent::WaitCycles(n)) => {
                    self.wait(n);
                    self.events.pop_front();
                }
                Some(KeyEvent::WaitForPoll) => {
                    if !empty_poll {
                        return KeyAvailability::NotYet;
                    }
                    self.events.pop_front();
                }
                // A hold or a device change comes first: the machine carries it out.
                Some(
                    KeyEvent::Joystick { .. }
                    | KeyEvent::Restore { .. }
                    | KeyEvent::Paddle { .. }
                    | KeyEvent::Mouse { .. },
                ) => return KeyAvailability::NotYet,
                Some(e @ (KeyEvent::Key(_) | KeyEvent::ShiftCbm)) => {
                    if now < self.available_from {
                        return KeyAvailability::NotYet;
                    }
                    self.events.pop_front();
                    self.last_key_at = now;
                    return match e {
                        KeyEvent::Key(k) => KeyAvailability::Key(k),
                        _ => KeyAvailability::ShiftCbm,
                    };
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
    fn shift_cbm_is_a_press_of_both_keys_without_a_code() {
        let mut q = InputQueue::default();
        q.push_events([KeyEvent::ShiftCbm, KeyEvent::Key(0x41), KeyEvent::ShiftCbm]);
        assert_eq!(q.pending_keys(), 3);
        assert_eq!(q.take(0, true), KeyAvailability::ShiftCbm);
        // The left SHIFT (column 1, row 7) and C= (column 7, row 5), nothing else.
        let mut both = [0; 8];
        both[1] = 0x80;
        both[7] = 0x20;
        assert_eq!(q.matrix(1), both);
        assert_eq!(q.take(2, true), KeyAvailability::Key(0x41));
        // A program's own scan takes it too, and the KERNAL then gets it while it is down.
        let gap = q.key_hold + RELEASE_GAP + 2;
        assert_eq!(q.scan(gap, true, true), both);
        assert_eq!(q.take(gap + 1, true), KeyAvailability::ShiftCbm);
        assert_eq!(q.take(gap + 2, true), KeyAvailability::Exhausted);
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
    fn waits_in_a_row_add_up() {
        let mut q = InputQueue::default();
        q.push_events([
            KeyEvent::Key(1),
            KeyEvent::WaitCycles(100),
            KeyEvent::WaitCycles(50),
            KeyEvent::Key(2),
        ]);
        assert_eq!(q.take(10, true), KeyAvailability::Key(1));
        assert_eq!(q.take(159, true), KeyAvailability::NotYet);
        assert_eq!(q.take(160, true), KeyAvailability::Key(2));
    }

    #[test]
    fn wait_for_poll_needs_an_empty_buffer_poll() {
        let mut q = InputQueue::default();
        q.push_events([KeyEvent::WaitForPoll, KeyEvent::Key(7)]);
        assert_eq!(q.take(0, false), KeyAvailability::NotYet);
        assert_eq!(q.take(1, true), KeyAvailability::Key(7));
    }

    #[test]
    fn a_key_after_a_large_mouse_move_waits_for_its_last_reading() {
        let mut q = InputQueue::default();
        let right = |dx| KeyEvent::Mouse { port: 1, dx, dy: 0 };
        q.push_events([right(-100), KeyEvent::Key(7)]);
        let mut at = 0;
        let mut seen = vec![];
        while let Some(next) = q.advance_joysticks(at) {
            let PortDevice::Mouse { x, .. } = q.devices()[0] else {
                panic!("no mouse in port 1")
            };
            seen.push(x as i16);
            assert_eq!(q.take(at, true), KeyAvailability::NotYet, "at {at}");
            at = next;
        }
        assert_eq!(seen, [-25, -50, -75]);
        let PortDevice::Mouse { x, .. } = q.devices()[0] else {
            panic!("no mouse in port 1")
        };
        assert_eq!(x as i16, -100);
        assert_eq!(q.take(at, true), KeyAvailability::Key(7));
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
    fn two_holds_of_the_same_line_in_a_row_are_two_presses() {
        let mut q = InputQueue::default();
        q.push_events([joy(2, 0x10, 10), joy(2, 0x11, 10), joy(2, 0x02, 10)]);
        assert_eq!(q.advance_joysticks(0), Some(10));
        assert_eq!(q.joysticks(), [0, 0x10]);
        // Fire again: released for a gap first.
        assert_eq!(q.advance_joysticks(10), Some(10 + RELEASE_GAP));
        assert_eq!(q.joysticks(), [0, 0]);
        let second = 10 + RELEASE_GAP;
        assert_eq!(q.advance_joysticks(second), Some(second + 10));
        assert_eq!(q.joysticks(), [0, 0x11]);
        // Down alone shares no line with up+fire: it follows at once.
        assert_eq!(q.advance_joysticks(second + 10), Some(second + 20));
        assert_eq!(q.joysticks(), [0, 0x02]);
    }

    #[test]
    fn a_hold_behind_a_key_starts_once_the_key_is_taken() {
        let mut q = InputQueue::default();
        q.push_events([KeyEvent::Key(1), joy(2, 0x04, 10)]);
        assert_eq!(q.advance_joysticks(0), None);
        assert_eq!(q.take(5, true), KeyAvailability::Key(1));
        assert_eq!(q.advance_joysticks(6), Some(16));
        assert_eq!(q.joysticks(), [0, 0x04]);
        // Frames and milliseconds are the C64's cycles: PAL's, or NTSC's (60 Hz frames).
        let pal = VicModel::Mos6569;
        assert_eq!(hold_cycles_on(pal, Hold::Frames(2)), 2 * 19_656);
        assert_eq!(hold_cycles_on(pal, Hold::Millis(1000)), 985_248);
        let ntsc = VicModel::Mos6567R8;
        assert_eq!(hold_cycles_on(ntsc, Hold::Frames(2)), 2 * 17_095);
        assert_eq!(hold_cycles_on(ntsc, Hold::Millis(1000)), 1_022_727);
        // An NTSC C64's queue holds a key 3 of its frames and waits one between keys.
        let mut q = InputQueue::for_model(ntsc);
        let frame = 17_095;
        assert_eq!(q.key_hold, 3 * frame);
        q.push_events([KeyEvent::Key(b'A'), KeyEvent::Key(b'A')]);
        assert_eq!(q.scan(0, true, true), A);
        assert_eq!(q.scan(3 * frame - 1, true, true), A);
        assert_eq!(q.scan(3 * frame, true, true), [0; 8]);
        assert_eq!(q.scan(4 * frame - 1, true, true), [0; 8]);
        assert_eq!(q.scan(4 * frame, true, true), A);
    }

    /// A's place in the matrix: column 1, row 2.
    const A: [u8; 8] = [0, 4, 0, 0, 0, 0, 0, 0];

    #[test]
    fn a_scan_takes_a_key_holds_it_then_waits_for_the_release_gap() {
        let mut q = InputQueue {
            key_hold: 100,
            ..InputQueue::default()
        };
        q.push_events([
            KeyEvent::Key(b'A'),
            KeyEvent::Key(b'A'),
            KeyEvent::Key(0xC1),
        ]);
        // The first scan presses A for 100 cycles.
        assert_eq!(q.scan(10, true, true), A);
        assert_eq!(q.scan(109, true, true), A);
        // Released, then the gap: nothing, even for scans.
        assert_eq!(q.scan(110, true, true), [0; 8]);
        assert_eq!(q.scan(110 + RELEASE_GAP - 1, true, true), [0; 8]);
        // The same key again, then SHIFT A (the left SHIFT is column 1, row 7).
        let second = 110 + RELEASE_GAP;
        assert_eq!(q.scan(second, true, true), A);
        assert_eq!(q.matrix(second + 99), A);
        assert_eq!(q.matrix(second + 100), [0; 8]);
        let third = second + 100 + RELEASE_GAP;
        assert_eq!(q.scan(third, true, true)[1], 0x84);
        assert_eq!(q.scan(third + 100 + RELEASE_GAP, true, true), [0; 8]);
        assert!(q.is_exhausted());
    }

    #[test]
    fn the_kernal_takes_keys_at_once_and_each_is_held_in_the_matrix() {
        let mut q = InputQueue::default();
        q.push_events([KeyEvent::Key(b'A'), KeyEvent::Key(b'B')]);
        assert_eq!(q.take(0, true), KeyAvailability::Key(b'A'));
        assert_eq!(q.matrix(1), A);
        // No hold or gap for the KERNAL: its timing is what it always was.
        assert_eq!(q.take(5, true), KeyAvailability::Key(b'B'));
        assert_eq!(q.matrix(6)[3], 0x10, "B: column 3, row 4");
        assert_eq!(q.matrix(5 + DEFAULT_KEY_HOLD), [0; 8]);
        // A scan while a key is held takes nothing.
        q.push_key(b'C');
        assert_eq!(q.scan(10, true, true)[3], 0x10);
        assert_eq!(q.pending_keys(), 1);
    }

    #[test]
    fn a_key_a_scan_took_goes_to_the_kernal_while_it_is_down() {
        let mut q = InputQueue::default();
        q.push_events([KeyEvent::Key(b'A'), KeyEvent::Key(b'B')]);
        assert_eq!(q.scan(0, true, true), A);
        assert_eq!(q.take(10, true), KeyAvailability::Key(b'A'));
        // Once only: the next take is the next key.
        assert_eq!(q.take(20, true), KeyAvailability::Key(b'B'));
        // Released before the KERNAL looked: lost, as on a C64 with its scan stopped.
        q.push_events([KeyEvent::Key(b'C'), KeyEvent::Key(b'D')]);
        let t = 20 + DEFAULT_KEY_HOLD + RELEASE_GAP;
        assert_ne!(q.scan(t, true, true), [0; 8]);
        assert_eq!(
            q.take(t + DEFAULT_KEY_HOLD, true),
            KeyAvailability::Key(b'D')
        );
    }

    #[test]
    fn a_scan_without_room_in_the_buffer_presses_nothing_and_loses_nothing() {
        let mut q = InputQueue::default();
        q.push_events([KeyEvent::Key(b'A'), KeyEvent::Key(b'B')]);
        assert_eq!(q.scan(0, true, true), A);
        let t = DEFAULT_KEY_HOLD + RELEASE_GAP;
        // The buffer is full: the typist waits, however long, and B stays queued.
        assert_eq!(q.scan(t, false, false), [0; 8]);
        assert_eq!(q.scan(100 * t, false, false), [0; 8]);
        assert_eq!(q.pending_keys(), 1);
        assert_eq!(
            q.scan(100 * t + 1, false, true)[3],
            0x10,
            "B: column 3, row 4"
        );
        assert!(q.is_exhausted());
    }

    #[test]
    fn scans_honour_waits_and_waitinput() {
        let mut q = InputQueue::default();
        q.push_events([
            KeyEvent::WaitCycles(1000),
            KeyEvent::Key(b'A'),
            KeyEvent::WaitForPoll,
            KeyEvent::Key(b'A'),
        ]);
        assert_eq!(q.scan(999, true, true), [0; 8]);
        assert_eq!(q.scan(1000, true, true), A);
        let later = 1000 + DEFAULT_KEY_HOLD + RELEASE_GAP;
        // {WAITINPUT}: a scan with keys in the KERNAL's buffer is not asking.
        assert_eq!(q.scan(later, false, true), [0; 8]);
        assert_eq!(q.scan(later + 1, true, true), A);
        // A code no key types is taken and shows nothing.
        q.push_key(0x7B);
        let t = later + 1 + DEFAULT_KEY_HOLD + RELEASE_GAP;
        assert_eq!(q.scan(t, true, true), [0; 8]);
        assert_eq!(q.pending_keys(), 0);
    }

    #[test]
    fn restore_is_a_hold_that_starts_when_reached() {
        let mut q = InputQueue {
            key_hold: 50,
            ..InputQueue::default()
        };
        q.push_events([
            KeyEvent::Key(b'A'),
            KeyEvent::Restore { hold: None },
            KeyEvent::Restore {
                hold: Some(Hold::Cycles(7)),
            },
            KeyEvent::Key(b'B'),
        ]);
        assert!(q.has_joystick_work());
        assert_eq!(q.advance_joysticks(0), None);
        assert_eq!(q.take(5, true), KeyAvailability::Key(b'A'));
        assert_eq!(q.advance_joysticks(6), Some(56));
        assert!(q.restore());
        assert_eq!(q.take(10, true), KeyAvailability::NotYet);
        // Released for the gap, then pressed again: a second edge.
        let again = 56 + RELEASE_GAP;
        assert_eq!(q.advance_joysticks(56), Some(again));
        assert!(!q.restore());
        assert_eq!(q.advance_joysticks(again), Some(again + 7));
        assert!(q.restore());
        assert_eq!(q.advance_joysticks(again + 7), None);
        assert!(!q.restore());
        assert_eq!(q.take(again + 7, true), KeyAvailability::NotYet);
        assert_eq!(
            q.take(again + 7 + RELEASE_GAP, true),
            KeyAvailability::Key(b'B')
        );
    }

    #[test]
    fn a_persons_joystick_lines_are_held_each_to_its_own_end() {
        let mut q = InputQueue::default();
        q.press_joystick(c64kit_basic::joy::UP, 100, 50);
        q.press_joystick(c64kit_basic::joy::FIRE, 120, 50);
        assert!(q.has_joystick_work());
        assert_eq!(q.advance_joysticks(120), Some(150));
        assert_eq!(q.joysticks(), [0, 0x11]);
        assert_eq!(q.advance_joysticks(150), Some(170));
        assert_eq!(q.joysticks(), [0, 0x10]);
        assert_eq!(q.advance_joysticks(170), None);
        assert_eq!(q.joysticks(), [0, 0]);
        assert!(!q.has_joystick_work());
    }
}
