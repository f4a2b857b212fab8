//! The SID's two analogue inputs, POTX and POTY ($19/$1A), and what the C64 connects to them.
//!
//! **The measuring cycle.** A POT register is updated every [`POT_CYCLE`] cycles (6581 data
//! sheet, reproduced in the C64 Programmer's Reference Guide, appendix O): for the first
//! [`POT_DISCHARGE`] cycles the SID grounds the pin, discharging the capacitor on it; then it
//! lets the pin go and counts the cycles until the capacitor, charged through the paddle's
//! resistance, crosses the pin's threshold (at most 255); at the end of the 512 the count is
//! latched into the register. So a new position shows only at the end of a measuring cycle,
//! and one whole measuring cycle after the thing connected changed (the Commodore 1351
//! mouse's manual builds on the same cycle: it sends its position "every 512 µs" by timing a
//! pulse after the SID's discharge). 0 is the least resistance, $FF the most; nothing
//! connected never charges, so the counter runs to $FF. The cycles are counted from power-on.
//!
//! A device here is the count it makes the counter stop at ([`PotInput`]: a paddle's
//! position, or the value a 1351 mouse times). A change in the middle of the charge phase is
//! modelled as the charge adding up linearly: the part of the way to the threshold made with
//! the old device, then the rest at the new device's rate (the real capacitor charges along an
//! exponential, so a mid-charge switch is approximate; a device held for the whole phase reads
//! exactly its value).
//!
//! **The C64's wiring** ([`c64_pot_inputs`]): each control port has two POT lines (paddles
//! 1 and 2 on port 1, 3 and 4 on port 2); a 4066 analogue switch connects one port's pair to
//! the SID, chosen by CIA 1's port A: PA6 high selects port 1, PA7 high port 2 (%01 and %10 in
//! bits 7-6 of $DC00, as the C64 memory maps give it). Both high connect both pairs at once
//! (the resistances in parallel: the paddles fight, which the maps warn against); both low
//! connect neither ($FF).

/// Cycles of one measuring cycle: the POT registers change once per this many cycles.
pub const POT_CYCLE: u64 = 512;
/// Cycles at the start of a measuring cycle that the pin is grounded before counting starts.
pub const POT_DISCHARGE: u64 = 256;
/// The largest count: nothing connected, or more resistance than the counter can time.
pub const POT_MAX: u8 = 0xFF;
/// CIA 1 port A bit that connects control port 1's POT lines to the SID.
pub const POT_SELECT_PORT1: u8 = 0x40;
/// CIA 1 port A bit that connects control port 2's POT lines to the SID.
pub const POT_SELECT_PORT2: u8 = 0x80;

/// What one POT pin sees: the count at which the capacitor crosses the threshold (0-255), or
/// `None` when nothing is connected (it never does: the register reads $FF).
pub type PotInput = Option<u8>;

/// The charge that crosses the threshold, in the units [`rate`] adds per cycle.
const THRESHOLD: u64 = 1 << 32;

/// Charge added per cycle by a device whose count is `count` (>= 1): the smallest rate that
/// crosses the threshold in exactly `count` cycles from empty.
fn rate(count: u8) -> u64 {
    THRESHOLD.div_ceil(u64::from(count))
}

/// One POT pin: its input and the measuring cycle under way, worked out lazily.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PotLine {
    input: PotInput,
    /// The register as latched at the end of the last measuring cycle before `start`.
    value: u8,
    /// The first cycle of the measuring cycle under way.
    start: u64,
    /// The charge phase is accounted for up to this cycle.
    upto: u64,
    /// The charge gathered so far in this measuring cycle.
    charge: u64,
    /// The count the counter stopped at, once the threshold was crossed.
    stopped: Option<u64>,
}

impl Default for PotLine {
    fn default() -> Self {
        PotLine {
            input: None,
            value: POT_MAX,
            start: 0,
            upto: 0,
            charge: 0,
            stopped: None,
        }
    }
}

impl PotLine {
    /// The register at cycle `now`.
    pub(crate) fn read(&mut self, now: u64) -> u8 {
        self.advance(now);
        self.value
    }

    /// From cycle `now` on, the pin sees `input`.
    pub(crate) fn set_input(&mut self, input: PotInput, now: u64) {
        if input == self.input {
            return;
        }
        self.advance(now);
        self.charge_to(now);
        self.input = input;
    }

    /// Latches the measuring cycles that ended by `now` (O(1): after the first, every whole
    /// cycle saw the present input throughout).
    fn advance(&mut self, now: u64) {
        let end = self.start + POT_CYCLE;
        if now < end {
            return;
        }
        self.charge_to(end);
        self.value = self.count();
        let whole = (now - end) / POT_CYCLE;
        if whole > 0 {
            self.value = match self.input {
                Some(count) => count,
                None => POT_MAX,
            };
        }
        self.start = end + whole * POT_CYCLE;
        self.upto = self.start;
        self.charge = 0;
        self.stopped = None;
    }

    /// Accounts the charge phase up to cycle `t` (within the measuring cycle under way) with
    /// the present input.
    fn charge_to(&mut self, t: u64) {
        let charging = self.start + POT_DISCHARGE;
        let from = self.upto.max(charging);
        self.upto = self.upto.max(t);
        if t <= from || self.stopped.is_some() {
            return;
        }
        let counted = from - charging;
        match self.input {
            None => {}
            Some(0) => self.stopped = Some(counted),
            Some(count) => {
                let rate = rate(count);
                let needed = (THRESHOLD - self.charge).div_ceil(rate);
                if needed <= t - from {
                    self.stopped = Some(counted + needed);
                } else {
                    self.charge += (t - from) * rate;
                }
            }
        }
    }

    /// The count at the end of the charge phase.
    fn count(&self) -> u8 {
        self.stopped
            .map_or(POT_MAX, |n| n.min(u64::from(POT_MAX)) as u8)
    }
}

/// What the SID's POTX and POTY see on a C64: `ports[0]` and `ports[1]` are the [`PotInput`]s
/// of control port 1's and 2's POT X and POT Y lines, `select` CIA 1's port A pin levels
/// (see the module documentation).
pub fn c64_pot_inputs(select: u8, ports: [[PotInput; 2]; 2]) -> [PotInput; 2] {
    let port1 = select & POT_SELECT_PORT1 != 0;
    let port2 = select & POT_SELECT_PORT2 != 0;
    std::array::from_fn(|line| match (port1, port2) {
        (true, true) => parallel(ports[0][line], ports[1][line]),
        (true, false) => ports[0][line],
        (false, true) => ports[1][line],
        (false, false) => None,
    })
}

/// Two devices on one pin: the counts are proportional to the resistances, which combine in
/// parallel.
fn parallel(a: PotInput, b: PotInput) -> PotInput {
    match (a, b) {
        (Some(a), Some(b)) => {
            let (a, b) = (u32::from(a), u32::from(b));
            // Two zeros are a short circuit: 0.
            Some((a * b).checked_div(a + b).unwrap_or(0) as u8)
        }
        (one, None) | (None, one) => one,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_held_a_whole_charge_phase_reads_its_count() {
        for count in [0u8, 1, 2, 3, 7, 100, 128, 200, 254, 255] {
            let mut line = PotLine::default();
            line.set_input(Some(count), 0);
            assert_eq!(line.read(POT_CYCLE - 1), POT_MAX, "not latched yet");
            assert_eq!(line.read(POT_CYCLE), count);
            assert_eq!(line.read(100 * POT_CYCLE + 17), count);
        }
    }

    #[test]
    fn a_change_in_the_discharge_phase_shows_at_that_cycles_end() {
        let mut line = PotLine::default();
        line.set_input(Some(10), 0);
        assert_eq!(line.read(POT_CYCLE), 10);
        line.set_input(Some(200), POT_CYCLE + POT_DISCHARGE - 1);
        assert_eq!(
            line.read(2 * POT_CYCLE - 1),
            10,
            "the old value until the latch"
        );
        assert_eq!(line.read(2 * POT_CYCLE), 200);
    }

    #[test]
    fn a_change_while_charging_mixes_the_two_rates() {
        // 100 cycles at count 200 (half way), then count 20: half of 20 more cycles.
        let mut line = PotLine::default();
        line.set_input(Some(200), 0);
        line.set_input(Some(20), POT_DISCHARGE + 100);
        assert_eq!(line.read(POT_CYCLE), 110);
        // The counter stopped before the change: the old count stands.
        let mut line = PotLine::default();
        line.set_input(Some(30), 0);
        line.set_input(Some(250), POT_DISCHARGE + 100);
        assert_eq!(line.read(POT_CYCLE), 30);
        // Unplugged half way: the counter runs out.
        line.set_input(Some(100), POT_CYCLE);
        line.set_input(None, POT_CYCLE + POT_DISCHARGE + 50);
        assert_eq!(line.read(2 * POT_CYCLE), POT_MAX);
        // The cycle after sees the new input throughout.
        line.set_input(Some(40), 2 * POT_CYCLE + POT_DISCHARGE + 1);
        assert_eq!(line.read(3 * POT_CYCLE), 41, "from one cycle late");
        assert_eq!(line.read(4 * POT_CYCLE), 40);
    }

    #[test]
    fn the_c64_switch_picks_a_port_by_pa6_and_pa7() {
        let ports = [[Some(10), Some(20)], [Some(30), None]];
        assert_eq!(c64_pot_inputs(0x40, ports), [Some(10), Some(20)]);
        assert_eq!(c64_pot_inputs(0x80, ports), [Some(30), None]);
        assert_eq!(c64_pot_inputs(0x3F, ports), [None, None]);
        // Both: in parallel (10 || 30 = 7.5), a lone device as it is.
        assert_eq!(c64_pot_inputs(0xFF, ports), [Some(7), Some(20)]);
        assert_eq!(parallel(Some(0), Some(0)), Some(0));
    }
}
