//! MOS 6526 CIA (the NMOS part of early C64s), used twice: CIA1 at $DC00
//! (keyboard, joysticks, IRQ) and CIA2 at $DD00 (VIC bank, serial bus, NMI).
//!
//! Registers: index = `addr & 0x0F` (the 16-byte window repeats over the
//! chip's 256-byte page).
//!
//! | reg | read                                   | write                      |
//! |-----|----------------------------------------|----------------------------|
//! | $0  | port A pins                            | port A output register     |
//! | $1  | port B pins (PB6/PB7 timer outputs)    | port B output register     |
//! | $2/$3 | data direction A/B (1 = output)      | same                       |
//! | $4/$5 | timer A counter lo/hi (not latched)  | timer A latch lo/hi        |
//! | $6/$7 | timer B counter lo/hi                | timer B latch lo/hi        |
//! | $8-$B | TOD tenths/sec/min/hours (BCD)       | TOD or alarm (CRB bit 7)   |
//! | $C  | serial data register                   | same (sent in output mode) |
//! | $D  | ICR: flags + bit 7, then cleared       | mask: bit 7 = set/clear    |
//! | $E/$F | control A/B (bit 4 reads 0)          | control A/B                |
//!
//! # Timing model
//!
//! Timers and interrupts follow Wolfgang Lorenz's "A Software Model of the
//! CIA6526" (the delay-pipeline model also used by VirtualC64 and Hoxs64):
//! a timer starts decrementing 3 cycles after the CRA/CRB write that starts
//! it, and stops 2 cycles after the write that stops it; force load (and a
//! latch-high write while stopped) loads the counter 2 cycles later; on
//! underflow the counter reloads at once and skips one decrement, so the
//! period is latch+1 and 0 is never read in phi2 mode; the ICR flag is set in
//! the underflow cycle, the IRQ line and ICR bit 7 one cycle later. Reading
//! the ICR clears the flags, releases the line one cycle later and cancels
//! an interrupt that was about to be asserted; the NMOS "timer B bug" (a
//! timer B underflow in the cycle the ICR is read loses its flag) is kept.
//! PB6/PB7 timer outputs (pulse and toggle) are modelled.
//!
//! Cycle convention: the chip's work for cycle `now` happens before the CPU's
//! access in that same cycle (as on the real bus, the CIA clocks before phi2
//! data transfer), so a read at `now` sees the state after cycle `now`, and
//! `irq(now)` is the line during cycle `now`.
//!
//! Lazy evaluation: when no pipeline stage is in flight, the chip jumps
//! straight to the cycle before the next underflow or TOD tick, and steps
//! only the few cycles around them one by one. (A latch of 0 or 1 means an
//! underflow every 1-2 cycles and so costs one step per cycle.)
//!
//! # Time of day
//!
//! The TOD input is the C64's 50 Hz mains signal, derived here exactly from
//! the cycle count (tick k at cycle ceil(k * 985248 / 50)); an NTSC C64's is 60 Hz
//! against its 1,022,727 Hz clock ([`TodInput`], set by the machine from its VIC-II
//! model). The divider is a
//! 6-state ring counter that counts a tenth on the tick after it reached 4
//! (CRA bit 7 = 1: /5, correct on PAL) or 5 (bit 7 = 0: /6, the power-on
//! value; the PAL KERNAL never sets it, so TOD runs at 5/6 speed unless the
//! program does); switching keeps the counter, so going to /5 when it stands
//! at 5 makes it wrap round first. Power-on: 1:00:00.0 AM, stopped until
//! tenths are written. Writing hours stops the clock, writing tenths
//! restarts it (and clears the ring counter). Reading hours latches all four
//! registers until tenths is read. Writing hour 12 flips AM/PM (a 6526
//! quirk; not for the alarm). The digits are binary counters compared with
//! their carry values, so invalid values count on (hour $19 -> $1A). The
//! alarm (ICR bit 2) is raised when time and alarm become equal: after a
//! tenth, after a time write that changed a register (even while stopped),
//! and after an alarm write that changed one while the clock runs.
//!
//! # Serial port
//!
//! In output mode (CRA bit 6) a write to the SDR is taken into the shift
//! register two cycles later (or queued if a byte is being sent). Every
//! timer A underflow is half a bit: two cycles later CNT falls (a bit goes
//! out) or rises (the register shifts); an underflow in the cycle right
//! after another is missed. Four cycles after the underflow that puts out
//! the last bit ICR bit 3 is set, with bit 7 and the line in the same cycle,
//! and a queued byte follows without a gap. A byte taken in after that, in
//! the last bit's low half, sets CNT high again at once: its bit 7 goes out
//! at the next underflow (cia-sdr-load). Switching the direction drops the
//! byte; switching to input mid-byte leaves a "done" that arrives three
//! cycles after the switch back to output: mid-byte means CNT was low in
//! the last three cycles on the 6526 (VICE's old CIA, as the CIAs with date
//! code 4485), in the two before the last on the 6526A (the other CIAs), or
//! an edge other than the last but one is due. In input mode an SDR write
//! only sets the register; the SP data goes nowhere (no user-port device),
//! and nothing drives CNT, so no byte ever comes in.
//!
//! # 6526A
//!
//! [`CiaModel::Mos6526A`] (the "new CIA" of the C64C) differs as VICE's
//! ciacore models it: after a timer underflow the IRQ line and ICR bit 7 come
//! in the underflow cycle itself, not one cycle later (but one cycle later
//! when the ICR was read in the cycle just before); enabling a pending source
//! in the mask asserts one cycle sooner (not at all right after an ICR read);
//! and there is no timer B bug. An ICR read clears the flags it saw only two
//! cycles later (a flag raised again in between stays), so a read-modify-write
//! of the ICR reads them twice, and shows bit 7 already for an interrupt due in
//! the next cycle, which it cancels (CIA/dd0dtest on a 6526A). A
//! switch of the serial port to input misses a CNT that fell in the last
//! cycle (see above); the rest of the serial port and the TOD alarm timing
//! are the same on both.
//!
//! Not modelled: CNT-pin counting (CNT is never pulsed from outside here, so
//! CNT modes never count), the FLAG pin (ICR bit 4), the PC handshake line,
//! keyboard "ghosting" beyond one key level.

use crate::PAL_CYCLES_PER_SECOND;

// Delay pipeline: each chain's stage 0 is set by a write or fed from `feed`
// and shifts one stage per cycle.
const COUNT_A0: u64 = 1 << 0;
const COUNT_A1: u64 = 1 << 1;
const COUNT_A2: u64 = 1 << 2;
const COUNT_A3: u64 = 1 << 3;
const COUNT_B0: u64 = 1 << 4;
const COUNT_B1: u64 = 1 << 5;
const COUNT_B2: u64 = 1 << 6;
const COUNT_B3: u64 = 1 << 7;
const LOAD_A0: u64 = 1 << 8;
const LOAD_A1: u64 = 1 << 9;
const LOAD_A2: u64 = 1 << 10;
const LOAD_B0: u64 = 1 << 11;
const LOAD_B1: u64 = 1 << 12;
const LOAD_B2: u64 = 1 << 13;
const PB6_LOW0: u64 = 1 << 14;
const PB6_LOW1: u64 = 1 << 15;
const PB7_LOW0: u64 = 1 << 16;
const PB7_LOW1: u64 = 1 << 17;
const SET_INT0: u64 = 1 << 18;
const SET_INT1: u64 = 1 << 19;
const CLEAR_INT0: u64 = 1 << 20;
const CLEAR_INT1: u64 = 1 << 21; // unused stage, only for the shift
const SET_ICR0: u64 = 1 << 22;
const SET_ICR1: u64 = 1 << 23;
const CLEAR_ICR0: u64 = 1 << 24;
const CLEAR_ICR1: u64 = 1 << 25;
const CLEAR_ICR2: u64 = 1 << 26;
const READ_ICR0: u64 = 1 << 27;
const READ_ICR1: u64 = 1 << 28;
const ONE_SHOT_A0: u64 = 1 << 29;
const ONE_SHOT_A1: u64 = 1 << 30; // the one-shot bit lingers one cycle
const ONE_SHOT_B0: u64 = 1 << 31;
const ONE_SHOT_B1: u64 = 1 << 32;
const PIPELINE_BITS: u64 = (1 << 33) - 1;
const STAGE0: u64 = COUNT_A0
    | COUNT_B0
    | LOAD_A0
    | LOAD_B0
    | PB6_LOW0
    | PB7_LOW0
    | SET_INT0
    | CLEAR_INT0
    | SET_ICR0
    | CLEAR_ICR0
    | READ_ICR0
    | ONE_SHOT_A0
    | ONE_SHOT_B0;
/// Keeps a chain's last stage from shifting into the next chain.
const SHIFT_MASK: u64 = PIPELINE_BITS & !STAGE0;
const COUNT_A: u64 = COUNT_A0 | COUNT_A1 | COUNT_A2 | COUNT_A3;
const COUNT_B: u64 = COUNT_B0 | COUNT_B1 | COUNT_B2 | COUNT_B3;
/// Stages whose presence means something happens within the next cycles.
const TRANSIENT: u64 = LOAD_A0
    | LOAD_A1
    | LOAD_A2
    | LOAD_B0
    | LOAD_B1
    | LOAD_B2
    | PB6_LOW0
    | PB6_LOW1
    | PB7_LOW0
    | PB7_LOW1
    | SET_INT0
    | SET_INT1
    | CLEAR_INT0
    | CLEAR_INT1
    | SET_ICR0
    | SET_ICR1
    | CLEAR_ICR0
    | CLEAR_ICR1
    | CLEAR_ICR2
    | READ_ICR0
    | READ_ICR1;

// Serial port delay line (`Cia::sr_delay`), in groups of four stages that
// shift one stage per cycle: a group's "1" stage is due next cycle, its "0"
// stage this cycle, and "past" records that it was due the cycle before.
/// CNT edge from a timer A underflow (two cycles after the underflow).
const SR_TOGGLE_1: u32 = 1 << 1;
const SR_TOGGLE_0: u32 = 1 << 2;
const SR_TOGGLE_PAST: u32 = 1 << 3;
/// An underflow right after another: too close for the edge detector.
const SR_NOGGLE_1: u32 = 1 << 5;
const SR_NOGGLE_0: u32 = 1 << 6;
const SR_NOGGLE_PAST: u32 = 1 << 7;
/// Setting ICR bit 3 (serial port done).
const SR_IRQ_2: u32 = 1 << 9;
const SR_IRQ_1: u32 = 1 << 10;
const SR_IRQ_0: u32 = 1 << 11;
/// The CNT output level of the last four cycles (bit 12 = latest).
const SR_CNT_NOW: u32 = 1 << 12;
const SR_CNT_HISTORY: u32 = 0xF << 12;
/// Taking the SDR into the shift register after a write.
const SR_LOAD_1: u32 = 1 << 18;
const SR_LOAD_0: u32 = 1 << 19;
/// Stages something is still travelling through.
const SR_ACTIVE: u32 = SR_TOGGLE_1
    | SR_TOGGLE_0
    | SR_TOGGLE_PAST
    | SR_NOGGLE_1
    | SR_NOGGLE_0
    | SR_NOGGLE_PAST
    | SR_IRQ_2
    | SR_IRQ_1
    | SR_IRQ_0
    | SR_LOAD_1
    | SR_LOAD_0;
/// Where a group's last stage lands when shifted into the next group.
const SR_SHIFTED_OUT: u32 = (1 << 4) | (1 << 8) | SR_CNT_NOW | (1 << 16) | (1 << 20);

/// Frequency of the TOD input pin on a PAL C64 (the 6569's row of the model table).
const TOD_INPUT_HZ: u64 = crate::vic::VicModel::Mos6569.facts().mains_hz;

/// What the TOD input pin counts: the mains frequency, against the machine's clock. The
/// VIC-II model decides both (`vic::model`); the PAL C64's is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TodInput {
    /// The CPU clock in Hz.
    pub clock_hz: u64,
    /// The mains frequency in Hz.
    pub mains_hz: u64,
}

impl TodInput {
    /// The PAL C64's: 50 Hz against 985,248 Hz.
    pub const PAL: TodInput = TodInput {
        clock_hz: PAL_CYCLES_PER_SECOND,
        mains_hz: TOD_INPUT_HZ,
    };

    fn is_pal(self) -> bool {
        self == Self::PAL
    }
}

/// KERNAL timer A latch for the PAL 60 Hz-ish IRQ: 16,421, i.e. an
/// interrupt every 16,422 cycles (59.99 Hz).
pub const KERNAL_PAL_TIMER_A_LATCH: u16 = crate::vic::VicModel::Mos6569.facts().kernal_irq_latch;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Stopped,
    Running,
    Settling,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tod {
    /// Tenths, seconds, minutes, hours (bit 7 = PM), BCD.
    time: [u8; 4],
    alarm: [u8; 4],
    latch: Option<[u8; 4]>,
    stopped: bool,
    /// 50 Hz input tick at which the next tenth is counted while the clock
    /// runs. The divider is a 6-state ring counter that is cleared when the
    /// clock starts and after each tenth; a tenth is counted on the input
    /// tick after the counter reached 4 (CRA bit 7 = 1, /5) or 5 (/6).
    next_tick: u64,
}

impl Tod {
    fn power_on() -> Self {
        Tod {
            time: [0, 0, 0, 0x01],
            alarm: [0; 4],
            latch: None,
            stopped: true,
            next_tick: 0,
        }
    }
}

/// Index of the last TOD input tick at or before `cycle`.
fn tod_tick_at(input: TodInput, cycle: u64) -> u64 {
    if !input.is_pal() {
        return (u128::from(cycle) * u128::from(input.mains_hz) / u128::from(input.clock_hz))
            as u64;
    }
    // u64 arithmetic while it cannot overflow (10,000 years of cycles): a u128 division
    // costs more than the rest of a CIA catch-up, which runs on every I/O access.
    match cycle.checked_mul(TOD_INPUT_HZ) {
        Some(scaled) => scaled / PAL_CYCLES_PER_SECOND,
        None => {
            (u128::from(cycle) * u128::from(TOD_INPUT_HZ) / u128::from(PAL_CYCLES_PER_SECOND))
                as u64
        }
    }
}

/// Cycle of TOD input tick `tick`.
fn tod_tick_cycle(input: TodInput, tick: u64) -> u64 {
    if !input.is_pal() {
        let scaled = u128::from(tick) * u128::from(input.clock_hz);
        return u64::try_from(scaled.div_ceil(u128::from(input.mains_hz))).unwrap_or(u64::MAX);
    }
    if let Some(scaled) = tick.checked_mul(PAL_CYCLES_PER_SECOND) {
        return scaled.div_ceil(TOD_INPUT_HZ);
    }
    let scaled = u128::from(tick) * u128::from(PAL_CYCLES_PER_SECOND);
    let cycle = scaled.div_ceil(u128::from(TOD_INPUT_HZ));
    u64::try_from(cycle).unwrap_or(u64::MAX)
}

/// The TOD divider's ring counter value (0-5) after which the next input
/// tick counts a tenth: CRA bit 7 = 1 divides by 5, 0 by 6.
fn tod_match(cra: u8) -> u64 {
    if cra & 0x80 != 0 {
        4
    } else {
        5
    }
}

/// Counts a BCD seconds/minutes register up; true on the carry out of 59.
fn bcd_sixty_increment(value: &mut u8) -> bool {
    let mut low = (*value & 0x0F) + 1;
    let mut high = (*value >> 4) & 0x07;
    if low == 0x0A {
        low = 0;
        high = (high + 1) & 0x07;
    }
    let next = (high << 4) | (low & 0x0F);
    if next == 0x60 {
        *value = 0;
        true
    } else {
        *value = next;
        false
    }
}

/// One tenth of a second on the 6526's BCD counters (12-hour clock).
fn tod_increment(time: &mut [u8; 4]) {
    let tenths = (time[0] + 1) & 0x0F;
    if tenths != 0x0A {
        time[0] = tenths;
        return;
    }
    time[0] = 0;
    if !bcd_sixty_increment(&mut time[1]) || !bcd_sixty_increment(&mut time[2]) {
        return;
    }
    // The hour digits are binary counters too: only 09 and 12 carry (to 10
    // and 01), anything else counts the low digit on (e.g. $19 -> $1A, $1F
    // -> $10), and reaching 12 flips AM/PM.
    let mut pm = time[3] & 0x80;
    let high = (time[3] >> 4) & 0x01;
    let low = time[3] & 0x0F;
    let (high, low) = match (high, low) {
        (1, 2) => (0, 1),
        (0, 9) => (1, 0),
        _ => {
            let low = (low + 1) & 0x0F;
            if (high, low) == (1, 2) {
                pm ^= 0x80;
            }
            (high, low)
        }
    };
    time[3] = pm | (high << 4) | low;
}

/// Which CIA the chip is: the 6526 of the early C64s or the 6526A of the C64C.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CiaModel {
    /// The "old" NMOS 6526 (PAL breadbin C64s): the interrupt comes one cycle after the
    /// underflow, and a timer B underflow in the cycle after an ICR read loses its flag.
    #[default]
    Mos6526,
    /// The "new" 6526A (C64C, sold as the 8521): the interrupt line and ICR bit 7 come in
    /// the underflow cycle itself (one cycle after an ICR read that just preceded it), and
    /// there is no timer B bug.
    Mos6526A,
}

impl CiaModel {
    /// "6526" or "6526A".
    pub fn name(self) -> &'static str {
        match self {
            CiaModel::Mos6526 => "6526",
            CiaModel::Mos6526A => "6526A",
        }
    }
}

/// One 6526 CIA. See the module documentation for the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cia {
    /// Last cycle whose work has been done.
    cycle: u64,
    model: CiaModel,
    pra: u8,
    prb: u8,
    ddra: u8,
    ddrb: u8,
    /// Lines pulled low from outside (joysticks, serial bus), active low.
    input_a: u8,
    input_b: u8,
    /// `keys[a]` bit `b` set: the key joining PA`a` and PB`b` is down.
    keys: [u8; 8],
    counter_a: u16,
    counter_b: u16,
    latch_a: u16,
    latch_b: u16,
    cra: u8,
    crb: u8,
    icr: u8,
    imr: u8,
    int_asserted: bool,
    /// How many times the interrupt output has been asserted since power-on: an NMI input
    /// (CIA 2's line) is edge-triggered, and the 6502 sees a fall of /NMI however short
    /// the release before it, even between two of the bus's looks at the line.
    int_edges: u64,
    /// 6526A: the ICR bits the last read acknowledged, cleared two cycles after it (the
    /// `CLEAR_ICR1` stage) unless their source raised them again in between.
    icr_acked: u8,
    delay: u64,
    feed: u64,
    pb67_toggle: u8,
    pb67_out: u8,
    pb67_mode: u8,
    sdr: u8,
    /// Serial port delay line (the `SR_*` stages).
    sr_delay: u32,
    /// Half-bits the shift register still has to clock out (16 per byte;
    /// odd = CNT low). The SP data itself goes nowhere on a C64 without a
    /// user-port device, so only the count is kept.
    sr_bits: u8,
    /// A second byte written while one is being sent, queued.
    sdr_valid: bool,
    /// Switching to input mid-byte leaves a pending "done" that is
    /// delivered when the port is switched back to output.
    sr_force_finish: bool,
    /// CNT as driven by the serial port in output mode.
    cnt_out: bool,
    tod: Tod,
    /// What the TOD pin counts (50 Hz on a PAL C64).
    tod_input: TodInput,
}

impl Default for Cia {
    fn default() -> Self {
        Self::new()
    }
}

impl Cia {
    /// Power-on state at cycle 0: ports inputs, timers stopped with counter
    /// and latch $FFFF, interrupts masked, TOD 1:00:00.0 AM and stopped.
    pub fn new() -> Self {
        Cia {
            cycle: 0,
            model: CiaModel::Mos6526,
            pra: 0,
            prb: 0,
            ddra: 0,
            ddrb: 0,
            input_a: 0xFF,
            input_b: 0xFF,
            keys: [0; 8],
            counter_a: 0xFFFF,
            counter_b: 0xFFFF,
            latch_a: 0xFFFF,
            latch_b: 0xFFFF,
            cra: 0,
            crb: 0,
            icr: 0,
            imr: 0,
            int_asserted: false,
            int_edges: 0,
            icr_acked: 0,
            delay: 0,
            feed: 0,
            pb67_toggle: 0,
            pb67_out: 0,
            pb67_mode: 0,
            sdr: 0,
            sr_delay: SR_CNT_HISTORY,
            sr_bits: 0,
            sdr_valid: false,
            sr_force_finish: false,
            cnt_out: true,
            tod: Tod::power_on(),
            tod_input: TodInput::PAL,
        }
    }

    /// CIA1 as the PAL KERNAL leaves it after boot, with the register writes
    /// of IOINIT ($FDA3) and $FF6E replayed at cycle `now`: port A output $7F
    /// (DDR $FF), port B input, timer A latch $4025 force-loaded and started
    /// continuous (an interrupt every 16,422 cycles, 59.99 Hz, the first
    /// 16,425 cycles after `now`), timer B stopped one-shot, only the timer A
    /// interrupt enabled. This is the C64's 60 Hz-ish system IRQ.
    pub fn kernal_cia1(now: u64) -> Self {
        let mut cia = Cia::new();
        cia.cycle = now;
        let [latch_lo, latch_hi] = KERNAL_PAL_TIMER_A_LATCH.to_le_bytes();
        for (reg, value) in [
            (0x0D, 0x7F),
            (0x00, 0x7F),
            (0x0E, 0x08),
            (0x0F, 0x08),
            (0x03, 0x00),
            (0x02, 0xFF),
            (0x04, latch_lo),
            (0x05, latch_hi),
            (0x0D, 0x81),
            (0x0E, 0x11),
        ] {
            cia.write(reg, value, now);
        }
        cia
    }

    /// CIA2 as the KERNAL leaves it after boot (writes replayed at `now`):
    /// port A output $17 with DDR $3F (VIC bank 0, serial CLK out set), port
    /// B input, timers stopped one-shot, all interrupts (NMI) masked. On a
    /// real C64 without drives $DD00 then reads $97, because the serial bus
    /// feeds CLK out back inverted into PA6; that wiring is the machine's
    /// (see [`Cia::set_port_a_input`]), so this chip alone reads $D7.
    pub fn kernal_cia2(now: u64) -> Self {
        let mut cia = Cia::new();
        cia.cycle = now;
        for (reg, value) in [
            (0x0D, 0x7F),
            (0x0E, 0x08),
            (0x0F, 0x08),
            (0x03, 0x00),
            (0x00, 0x17),
            (0x02, 0x3F),
        ] {
            cia.write(reg, value, now);
        }
        cia
    }

    /// Back to the power-on state. Time base (last update cycle), model,
    /// keyboard and external port inputs are kept: they are not chip state.
    pub fn reset(&mut self) {
        let (cycle, model, tod_input) = (self.cycle, self.model, self.tod_input);
        let (keys, input_a, input_b) = (self.keys, self.input_a, self.input_b);
        let int_edges = self.int_edges;
        *self = Cia::new();
        self.cycle = cycle;
        self.int_edges = int_edges; // a count of the line's falls, which a reset never makes
        self.model = model;
        self.tod_input = tod_input;
        self.keys = keys;
        self.input_a = input_a;
        self.input_b = input_b;
    }

    /// What the TOD pin counts from now on (the machine's mains against its clock; set it
    /// before the program runs).
    pub fn set_tod_input(&mut self, input: TodInput) {
        self.tod_input = input;
    }

    /// Which chip this is (the 6526 unless set).
    pub fn model(&self) -> CiaModel {
        self.model
    }

    /// Makes this chip a 6526 or a 6526A; the state is kept (set it before
    /// the program runs).
    pub fn set_model(&mut self, model: CiaModel) {
        self.model = model;
    }

    /// Keyboard matrix input (CIA1): `matrix[a]` bit `b` set means the key
    /// joining PA`a` (column, driven by $DC00) and PB`b` (row, read at
    /// $DC01) is pressed. E.g. A = `matrix[1]` bit 2, SPACE = `matrix[7]`
    /// bit 4, RUN/STOP = `matrix[7]` bit 7. A port line driven low pulls the
    /// lines it is connected to low, in both directions.
    pub fn set_keyboard_matrix(&mut self, matrix: [u8; 8]) {
        self.keys = matrix;
    }

    /// The pressed-key matrix last set.
    pub fn keyboard_matrix(&self) -> [u8; 8] {
        self.keys
    }

    /// External signals on port A, active low ($FF = nothing pulled low);
    /// e.g. joystick 2 on CIA1, serial bus data/clock in on CIA2.
    pub fn set_port_a_input(&mut self, lines: u8) {
        self.input_a = lines;
    }

    /// External signals on port B, active low; e.g. joystick 1 on CIA1.
    pub fn set_port_b_input(&mut self, lines: u8) {
        self.input_b = lines;
    }

    /// Port A pin levels (what the CPU reads from register 0).
    pub fn port_a_pins(&self) -> u8 {
        let drive_a = self.drive_a();
        let drive_b = self.drive_b();
        let mut pins = drive_a;
        for (column, &rows) in self.keys.iter().enumerate() {
            if rows & !drive_b != 0 {
                pins &= !(1 << column);
            }
        }
        pins
    }

    /// Port B pin levels (what the CPU reads from register 1), as of the
    /// chip's last update (PB6/PB7 may carry timer outputs).
    pub fn port_b_pins(&self) -> u8 {
        let drive_a = self.drive_a();
        let mut pins = self.drive_b();
        for (column, &rows) in self.keys.iter().enumerate() {
            if drive_a & (1 << column) == 0 {
                pins &= !rows;
            }
        }
        pins
    }

    /// VIC-II bank selected through CIA2 port A bits 0-1 (inverted):
    /// 0 = $0000, 1 = $4000, 2 = $8000, 3 = $C000.
    pub fn vic_bank(&self) -> u8 {
        !self.port_a_pins() & 0x03
    }

    /// The cycle the chip state is up to date with.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Reads register `reg & 0x0F` at cycle `now` (ICR and TOD reads have
    /// side effects).
    pub fn read(&mut self, reg: u8, now: u64) -> u8 {
        self.catch_up(now);
        let reg = reg & 0x0F;
        match reg {
            0x08 => {
                let value = self.tod.latch.map_or(self.tod.time[0], |l| l[0]);
                self.tod.latch = None;
                value
            }
            0x0B => {
                let latched = *self.tod.latch.get_or_insert(self.tod.time);
                latched[3]
            }
            0x0D => {
                if self.int_asserted {
                    self.delay |= CLEAR_INT0;
                }
                if self.model == CiaModel::Mos6526A {
                    // The 6526A shows bit 7 already for an interrupt due in the next cycle
                    // (which the read cancels), and clears the flags it read only two
                    // cycles later: a second read in the next cycle (a read-modify-write's
                    // double read) sees them again (VICE's ciacore, CIA/dd0dtest).
                    if self.delay & SET_INT1 != 0 && self.icr & 0x1F != 0 {
                        self.icr |= 0x80;
                    }
                    if self.icr & 0x9F != 0 {
                        self.icr_acked |= self.icr | 0x80;
                    }
                    self.delay &= !(SET_INT0 | SET_INT1 | SET_ICR0 | SET_ICR1);
                    self.delay |= CLEAR_ICR0 | READ_ICR0;
                    return self.icr;
                }
                let value = self.icr;
                self.delay &= !(SET_INT0 | SET_INT1);
                self.delay |= CLEAR_ICR0 | READ_ICR0;
                self.icr &= 0x80;
                value
            }
            _ => self.register_value(reg),
        }
    }

    /// What `read` would return at `now`, without changing anything.
    pub fn peek(&self, reg: u8, now: u64) -> u8 {
        let mut ahead = self.clone();
        ahead.catch_up(now);
        ahead.register_value(reg & 0x0F)
    }

    /// Writes register `reg & 0x0F` at cycle `now`.
    pub fn write(&mut self, reg: u8, value: u8, now: u64) {
        self.catch_up(now);
        match reg & 0x0F {
            0x00 => self.pra = value,
            0x01 => self.prb = value,
            0x02 => self.ddra = value,
            0x03 => self.ddrb = value,
            0x04 => {
                self.latch_a = (self.latch_a & 0xFF00) | u16::from(value);
                if self.delay & LOAD_A2 != 0 {
                    self.counter_a = (self.counter_a & 0xFF00) | u16::from(value);
                }
            }
            0x05 => {
                self.latch_a = (self.latch_a & 0x00FF) | (u16::from(value) << 8);
                if self.delay & LOAD_A2 != 0 {
                    self.counter_a = (self.counter_a & 0x00FF) | (u16::from(value) << 8);
                }
                if self.cra & 0x01 == 0 {
                    self.delay |= LOAD_A0;
                }
            }
            0x06 => {
                self.latch_b = (self.latch_b & 0xFF00) | u16::from(value);
                if self.delay & LOAD_B2 != 0 {
                    self.counter_b = (self.counter_b & 0xFF00) | u16::from(value);
                }
            }
            0x07 => {
                self.latch_b = (self.latch_b & 0x00FF) | (u16::from(value) << 8);
                if self.delay & LOAD_B2 != 0 {
                    self.counter_b = (self.counter_b & 0x00FF) | (u16::from(value) << 8);
                }
                if self.crb & 0x01 == 0 {
                    self.delay |= LOAD_B0;
                }
            }
            reg @ 0x08..=0x0B => self.write_tod(usize::from(reg - 0x08), value),
            0x0C => {
                if self.cra & 0x40 != 0 {
                    self.sr_delay |= SR_LOAD_1;
                }
                self.sdr = value;
            }
            0x0D => {
                if value & 0x80 != 0 {
                    self.imr |= value & 0x1F;
                } else {
                    self.imr &= !(value & 0x1F);
                }
                if self.imr & self.icr & 0x1F != 0 && !self.int_asserted {
                    // The line and bit 7 come two cycles later on the 6526,
                    // one on the 6526A (not at all if the ICR was read in the cycle
                    // before: the flags it read are on their way out).
                    self.delay |= match self.model {
                        CiaModel::Mos6526 => SET_INT0 | SET_ICR0,
                        CiaModel::Mos6526A if self.delay & READ_ICR1 != 0 => 0,
                        CiaModel::Mos6526A => SET_INT1 | SET_ICR1,
                    };
                } else if self.delay & CLEAR_ICR2 != 0 {
                    // An ICR read just before cancels the pending interrupt
                    // (dd0dtest behaviour, after Hoxs64).
                    self.delay &= !(SET_INT1 | SET_ICR1);
                }
            }
            0x0E => self.write_cra(value),
            _ => self.write_crb(value),
        }
    }

    /// Interrupt output at cycle `now` (true = line pulled low).
    pub fn irq(&mut self, now: u64) -> bool {
        self.catch_up(now);
        self.int_asserted
    }

    /// How many times the interrupt output has been asserted up to cycle `now` (each a
    /// fall of the line, which an edge-triggered input such as the 6510's NMI latches,
    /// even if the line was high for only one cycle before it).
    pub fn interrupt_edges(&mut self, now: u64) -> u64 {
        self.catch_up(now);
        self.int_edges
    }

    /// Earliest cycle at which the interrupt output may change without a
    /// register access (`u64::MAX`: never). May be early, never late.
    pub fn next_event(&self) -> u64 {
        let soon = self.cycle.saturating_add(1);
        let (flow_a, flow_b) = (self.flow_a(), self.flow_b());
        if self.delay & TRANSIENT != 0
            || flow_a == Flow::Settling
            || flow_b == Flow::Settling
            || self.sr_delay & SR_ACTIVE != 0
        {
            return soon;
        }
        if self.int_asserted {
            return u64::MAX; // only an ICR read releases it
        }
        // The line changes the cycle after an underflow (6526) or in it (6526A).
        let lag = match self.model {
            CiaModel::Mos6526 => 1,
            CiaModel::Mos6526A => 0,
        };
        let mut event = u64::MAX;
        if flow_a == Flow::Running {
            if self.counter_a == 0 {
                return soon;
            }
            let cascade = self.crb & 0x41 == 0x41;
            let shifting = self.cra & 0x40 != 0 && (self.sr_bits != 0 || self.sdr_valid);
            if self.imr & 0x01 != 0
                || (cascade && self.imr & 0x02 != 0)
                || (shifting && self.imr & 0x08 != 0)
            {
                event = event.min(self.cycle + u64::from(self.counter_a) + lag);
            }
        }
        if flow_b == Flow::Running && self.imr & 0x02 != 0 {
            if self.counter_b == 0 {
                return soon;
            }
            event = event.min(self.cycle + u64::from(self.counter_b) + lag);
        }
        if self.imr & 0x04 != 0 {
            if let Some(tick) = self.tod_next_increment() {
                event = event.min(tick.saturating_add(1));
            }
        }
        event
    }

    fn drive_a(&self) -> u8 {
        (self.pra | !self.ddra) & self.input_a
    }

    fn drive_b(&self) -> u8 {
        let mut lines = self.prb | !self.ddrb;
        lines = (lines & !self.pb67_mode) | (self.pb67_out & self.pb67_mode);
        lines & self.input_b
    }

    /// Register value as of `self.cycle`, without side effects.
    fn register_value(&self, reg: u8) -> u8 {
        let [a_lo, a_hi] = self.counter_a.to_le_bytes();
        let [b_lo, b_hi] = self.counter_b.to_le_bytes();
        let tod = self.tod.latch.unwrap_or(self.tod.time);
        match reg & 0x0F {
            0x00 => self.port_a_pins(),
            0x01 => self.port_b_pins(),
            0x02 => self.ddra,
            0x03 => self.ddrb,
            0x04 => a_lo,
            0x05 => a_hi,
            0x06 => b_lo,
            0x07 => b_hi,
            reg @ 0x08..=0x0B => tod[usize::from(reg - 0x08)],
            0x0C => self.sdr,
            0x0D => self.icr,
            0x0E => self.cra,
            _ => self.crb,
        }
    }

    fn write_cra(&mut self, value: u8) {
        if value & 0x01 != 0 {
            self.delay |= COUNT_A1 | COUNT_A0;
            self.feed |= COUNT_A0;
            if self.cra & 0x01 == 0 {
                self.pb67_toggle |= 0x40; // toggle output goes high on start
            }
        } else {
            self.delay &= !(COUNT_A1 | COUNT_A0);
            self.feed &= !COUNT_A0;
        }
        self.set_pb_output(value, 0x40, PB6_LOW1);
        if value & 0x08 != 0 {
            self.feed |= ONE_SHOT_A0;
        } else {
            self.feed &= !ONE_SHOT_A0;
        }
        if value & 0x10 != 0 {
            self.delay |= LOAD_A0;
        }
        if value & 0x20 != 0 {
            // Counting CNT edges: none arrive.
            self.delay &= !(COUNT_A1 | COUNT_A0);
            self.feed &= !COUNT_A0;
        }
        if (value ^ self.cra) & 0x40 != 0 {
            self.switch_serial_direction(value);
        }
        let old_match = tod_match(self.cra);
        self.cra = value & !0x10; // force load is a strobe
        if old_match != tod_match(self.cra) {
            self.retarget_tod_divider(old_match);
        }
    }

    /// CRA bit 6 changed: the shift register stops and forgets its byte.
    fn switch_serial_direction(&mut self, cra: u8) {
        if cra & 0x40 == 0 {
            // To input in the middle of a byte (CNT low within the last
            // three cycles, or an edge due now that is not the last but one)
            // keeps a "done" pending for the switch back to output.
            let wanted = match self.model {
                CiaModel::Mos6526 => SR_CNT_HISTORY & !(1 << 15),
                // The 6526A does not yet see a CNT that fell in the last cycle.
                CiaModel::Mos6526A => SR_CNT_HISTORY & !(1 << 15) & !SR_CNT_NOW,
            };
            let mut finish = self.sr_delay & wanted != wanted;
            if !finish
                && self.sr_bits != 2
                && self.sr_delay & SR_TOGGLE_1 == 0
                && self.sr_delay & SR_TOGGLE_0 != 0
            {
                finish = true;
            }
            self.sr_force_finish = finish;
        } else if self.sr_force_finish {
            self.sr_delay |= SR_IRQ_2;
            self.sr_force_finish = false;
        }
        self.sr_bits = 0;
        self.sdr_valid = false;
        self.sr_delay &= !(SR_TOGGLE_1
            | SR_TOGGLE_0
            | SR_TOGGLE_PAST
            | SR_NOGGLE_1
            | SR_NOGGLE_0
            | SR_NOGGLE_PAST);
        self.cnt_out = true;
    }

    /// True when the serial port delay line changes by itself next cycle.
    fn serial_busy(&self) -> bool {
        let settled = if self.cnt_out { SR_CNT_HISTORY } else { 0 };
        self.sr_delay & SR_ACTIVE != 0 || self.sr_delay & SR_CNT_HISTORY != settled
    }

    /// One cycle of the serial port: loads, CNT edges, the "done" flag
    /// (returned) from the stages due, then the delay line shifts.
    fn serial_cycle(&mut self) -> bool {
        let due = self.sr_delay;
        let mut feed = 0;
        if due & SR_LOAD_0 != 0 {
            match self.sr_bits {
                0 => self.sr_bits = 16,
                1 => {
                    // Loaded in the last bit's low half: CNT goes back high
                    // at once and the next underflow puts out bit 7, so the
                    // byte does not wait out the old one's tail (cia-sdr-load).
                    self.sr_bits = 16;
                    self.cnt_out = true;
                }
                _ => self.sdr_valid = true,
            }
        }
        if due & SR_TOGGLE_0 != 0 {
            let falling = self.sr_bits != 0 && {
                self.sr_bits -= 1;
                self.sr_bits & 1 != 0
            };
            // CNT falls as a bit is put on SP and rises as it is shifted.
            self.cnt_out = !falling;
            if falling && self.sr_bits == 1 {
                // The last bit is out: "done" two cycles later, and a queued
                // byte follows without a gap.
                feed |= SR_IRQ_2;
                if self.sdr_valid {
                    self.sdr_valid = false;
                    self.sr_bits = 17;
                }
            }
        }
        let cnt = if self.cnt_out { SR_CNT_NOW } else { 0 };
        self.sr_delay = (((due | feed) << 1) & !SR_SHIFTED_OUT) | cnt;
        due & SR_IRQ_0 != 0
    }

    fn write_crb(&mut self, value: u8) {
        if value & 0x01 != 0 {
            self.delay |= COUNT_B1 | COUNT_B0;
            self.feed |= COUNT_B0;
            if self.crb & 0x01 == 0 {
                self.pb67_toggle |= 0x80;
            }
        } else {
            self.delay &= !(COUNT_B1 | COUNT_B0);
            self.feed &= !COUNT_B0;
        }
        self.set_pb_output(value, 0x80, PB7_LOW1);
        if value & 0x08 != 0 {
            self.feed |= ONE_SHOT_B0;
        } else {
            self.feed &= !ONE_SHOT_B0;
        }
        if value & 0x10 != 0 {
            self.delay |= LOAD_B0;
        }
        if value & 0x60 != 0 {
            // CNT edges never come; timer A underflows are fed by `step`.
            self.delay &= !(COUNT_B1 | COUNT_B0);
            self.feed &= !COUNT_B0;
        }
        self.crb = value & !0x10;
    }

    /// PB6/PB7 timer output selection from a CRA/CRB write.
    fn set_pb_output(&mut self, control: u8, bit: u8, pulse_ending: u64) {
        if control & 0x02 == 0 {
            self.pb67_mode &= !bit;
            return;
        }
        self.pb67_mode |= bit;
        let high = if control & 0x04 == 0 {
            self.delay & pulse_ending != 0 // a pulse in progress stays visible
        } else {
            self.pb67_toggle & bit != 0
        };
        if high {
            self.pb67_out |= bit;
        } else {
            self.pb67_out &= !bit;
        }
    }

    fn write_tod(&mut self, index: usize, value: u8) {
        const MASKS: [u8; 4] = [0x0F, 0x7F, 0x7F, 0x9F];
        let mut value = value & MASKS[index];
        // The alarm comparator flags a match on its rising edge only: a
        // write that leaves the register as it was cannot raise it. Time and
        // alarm writes raise it even while the clock is stopped (hammerfist1,
        // 4tod), as on the chip: setting the alarm hour first through the
        // stopped power-on time 1:00:00.0 flags a match a program must
        // acknowledge.
        let changed = if self.crb & 0x80 != 0 {
            let changed = self.tod.alarm[index] != value;
            self.tod.alarm[index] = value;
            changed
        } else {
            if index == 3 {
                // Writing hour 12 flips AM/PM (as the carry into 12 does).
                if value & 0x1F == 0x12 {
                    value ^= 0x80;
                }
                self.tod.stopped = true;
            }
            if index == 0 && self.tod.stopped {
                self.tod.stopped = false;
                // The divider's ring counter is cleared on the restart.
                self.tod.next_tick =
                    tod_tick_at(self.tod_input, self.cycle) + tod_match(self.cra) + 1;
            }
            let changed = self.tod.time[index] != value;
            self.tod.time[index] = value;
            changed
        };
        if changed && self.tod.time == self.tod.alarm {
            self.raise_flag(0x04);
            if self.imr & 0x04 != 0 && !self.int_asserted {
                self.delay |= SET_INT0 | SET_ICR0;
            }
        }
    }

    /// Sets an ICR flag; one raised again after a 6526A's read is no longer acknowledged.
    fn raise_flag(&mut self, flag: u8) {
        self.icr |= flag;
        self.icr_acked &= !flag;
    }

    /// Cycle at which the next tenth is counted, if the clock runs.
    fn tod_next_increment(&self) -> Option<u64> {
        if self.tod.stopped {
            return None;
        }
        Some(tod_tick_cycle(self.tod_input, self.tod.next_tick))
    }

    /// After a divider change (`old_match` = the ring counter value the
    /// divider compared with before), the ring counter keeps its state and
    /// the next tenth comes when it next reaches the new value: switching
    /// from /6 to /5 when it already stands at 5 makes it wrap round first.
    fn retarget_tod_divider(&mut self, old_match: u64) {
        if self.tod.stopped {
            return;
        }
        let current = tod_tick_at(self.tod_input, self.cycle);
        let ahead = self.tod.next_tick - current - 1;
        let count = (old_match + 6 - ahead) % 6;
        self.tod.next_tick = current + 1 + (tod_match(self.cra) + 6 - count) % 6;
    }

    fn flow(&self, chain: u64, stage0: u64) -> Flow {
        let bits = self.delay & chain;
        let fed = self.feed & stage0 != 0;
        if bits == chain && fed {
            Flow::Running
        } else if bits == 0 && !fed {
            Flow::Stopped
        } else {
            Flow::Settling
        }
    }

    fn flow_a(&self) -> Flow {
        self.flow(COUNT_A, COUNT_A0)
    }

    fn flow_b(&self) -> Flow {
        self.flow(COUNT_B, COUNT_B0)
    }

    /// Last cycle (<= `now`) up to which nothing but plain decrements can
    /// happen, or `None` if the next cycle must be stepped.
    fn quiet_until(&self, now: u64) -> Option<u64> {
        if self.delay & TRANSIENT != 0 || self.serial_busy() {
            return None;
        }
        for (stage0, stage1) in [(ONE_SHOT_A0, ONE_SHOT_A1), (ONE_SHOT_B0, ONE_SHOT_B1)] {
            let fed = self.feed & stage0 != 0;
            if (self.delay & stage0 != 0) != fed || (self.delay & stage1 != 0) != fed {
                return None; // a one-shot change still travelling
            }
        }
        let mut limit = now;
        for (flow, counter) in [
            (self.flow_a(), self.counter_a),
            (self.flow_b(), self.counter_b),
        ] {
            match flow {
                Flow::Settling => return None,
                Flow::Stopped => {}
                Flow::Running if counter == 0 => return None,
                Flow::Running => limit = limit.min(self.cycle + u64::from(counter) - 1),
            }
        }
        if let Some(tick) = self.tod_next_increment() {
            limit = limit.min(tick.saturating_sub(1));
        }
        Some(limit)
    }

    fn catch_up(&mut self, now: u64) {
        while self.cycle < now {
            match self.quiet_until(now) {
                Some(limit) if limit > self.cycle => {
                    let skipped = limit - self.cycle;
                    // Running timers never reach 0 within `skipped` cycles.
                    if self.flow_a() == Flow::Running {
                        self.counter_a -= skipped as u16;
                    }
                    if self.flow_b() == Flow::Running {
                        self.counter_b -= skipped as u16;
                    }
                    self.cycle = limit;
                }
                _ => self.step(),
            }
        }
    }

    /// Executes one cycle of the pipeline model.
    fn step(&mut self) {
        let cycle = self.cycle + 1;
        let mut delay = self.delay;

        if delay & COUNT_A3 != 0 {
            self.counter_a = self.counter_a.wrapping_sub(1);
        }
        let a_underflow = self.counter_a == 0 && delay & COUNT_A2 != 0;
        if a_underflow {
            if (delay | self.feed) & ONE_SHOT_A0 != 0 {
                self.cra &= !0x01;
                delay &= !(COUNT_A2 | COUNT_A1 | COUNT_A0);
                self.feed &= !COUNT_A0;
            }
            // CNT is always high, so both cascade modes count.
            if self.crb & 0x41 == 0x41 {
                delay |= COUNT_B1;
            }
            delay |= LOAD_A1;
        }
        if delay & LOAD_A1 != 0 {
            self.counter_a = self.latch_a;
            delay &= !COUNT_A2;
        }

        if delay & COUNT_B3 != 0 {
            self.counter_b = self.counter_b.wrapping_sub(1);
        }
        let b_underflow = self.counter_b == 0 && delay & COUNT_B2 != 0;
        if b_underflow {
            if (delay | self.feed) & ONE_SHOT_B0 != 0 {
                self.crb &= !0x01;
                delay &= !(COUNT_B2 | COUNT_B1 | COUNT_B0);
                self.feed &= !COUNT_B0;
            }
            delay |= LOAD_B1;
        }
        if delay & LOAD_B1 != 0 {
            self.counter_b = self.latch_b;
            delay &= !COUNT_B2;
        }

        for (underflow, control, bit, low0, low1) in [
            (a_underflow, self.cra, 0x40, PB6_LOW0, PB6_LOW1),
            (b_underflow, self.crb, 0x80, PB7_LOW0, PB7_LOW1),
        ] {
            if underflow {
                self.pb67_toggle ^= bit;
                if control & 0x02 != 0 {
                    if control & 0x04 == 0 {
                        self.pb67_out |= bit; // high for one cycle
                        delay = (delay | low0) & !low1;
                    } else {
                        self.pb67_out ^= bit;
                    }
                }
            }
            if delay & low1 != 0 {
                self.pb67_out &= !bit;
            }
        }

        if a_underflow {
            self.raise_flag(0x01);
        }
        if b_underflow && (delay & READ_ICR0 == 0 || self.model == CiaModel::Mos6526A) {
            // Lost on the 6526 if the ICR is being read (timer B bug).
            self.raise_flag(0x02);
        }
        let timer_fire =
            (a_underflow && self.imr & 0x01 != 0) || (b_underflow && self.imr & 0x02 != 0);
        let mut fire = false;
        if timer_fire {
            if self.model == CiaModel::Mos6526A && delay & READ_ICR0 == 0 {
                // The 6526A asserts in the underflow cycle itself, unless the
                // ICR was read in the cycle before (then one cycle later, as
                // the 6526 always does).
                delay |= SET_INT1 | SET_ICR1;
            } else {
                fire = true;
            }
        }

        let serial_done = self.serial_busy() && self.serial_cycle();
        if a_underflow && self.cra & 0x40 != 0 && (self.sr_bits != 0 || self.sdr_valid) {
            // Each underflow is half a bit; one right after another is missed.
            self.sr_delay |= if self.sr_delay & (SR_TOGGLE_0 | SR_NOGGLE_0) != 0 {
                SR_NOGGLE_1
            } else {
                SR_TOGGLE_1
            };
        }
        if serial_done {
            // The serial flag comes late in the cycle: bit 7 and the line
            // follow in the same cycle, not one later.
            self.raise_flag(0x08);
            if self.imr & 0x08 != 0 {
                delay |= SET_INT1 | SET_ICR1;
            }
        }

        if let Some(tenth) = self.tod_next_increment() {
            if cycle >= tenth {
                self.tod.next_tick += tod_match(self.cra) + 1;
                tod_increment(&mut self.tod.time);
                if self.tod.time == self.tod.alarm {
                    self.raise_flag(0x04);
                    fire |= self.imr & 0x04 != 0;
                }
            }
        }
        if fire {
            delay |= SET_INT0 | SET_ICR0;
        }

        if delay & CLEAR_ICR1 != 0 {
            if self.model == CiaModel::Mos6526A {
                // A flag raised again since the read stays (`raise_flag`), as does
                // bit 7 set below.
                self.icr &= !self.icr_acked;
                self.icr_acked = 0;
            } else {
                self.icr &= 0x7F;
            }
        }
        if delay & SET_ICR1 != 0 {
            self.icr |= 0x80;
        }
        let was_asserted = self.int_asserted;
        if delay & SET_INT1 != 0 {
            self.int_asserted = true;
        }
        if delay & CLEAR_INT0 != 0 {
            self.int_asserted = false;
        }
        if self.int_asserted && !was_asserted {
            self.int_edges += 1;
        }

        self.delay = ((delay << 1) & SHIFT_MASK) | self.feed;
        self.cycle = cycle;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use fastrand::Rng;

    fn random_write(rng: &mut Rng) -> (u8, u8) {
        let reg = [
            0x00, 0x02, 0x04, 0x05, 0x06, 0x07, 0x08, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F,
        ][rng.u64(..12) as usize];
        let value = match reg {
            0x05 | 0x07 => rng.u64(..3) as u8, // short periods: many underflows
            0x08 => rng.u64(..10) as u8,
            0x0B => 1 + rng.u64(..12) as u8,
            0x0D => (rng.u8(..)) & 0x8F,
            // CNT modes rarely, so timers mostly count.
            0x0E => (rng.u8(..)) & if rng.u64(..8) == 0 { 0xFF } else { 0xDF },
            0x0F => (rng.u8(..)) & if rng.u64(..8) == 0 { 0xFF } else { 0xDF },
            _ => rng.u8(..),
        };
        (reg, value)
    }

    /// The lazy chip (fast-forwarding, queried only per the next_event
    /// protocol) must match a chip stepped every single cycle: same reads,
    /// same interrupt line, same final state.
    #[test]
    fn lazy_catch_up_matches_cycle_by_cycle_stepping() {
        for (seed, model) in
            (1..=6u64).flat_map(|seed| [(seed, CiaModel::Mos6526), (seed, CiaModel::Mos6526A)])
        {
            let mut rng = Rng::with_seed(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut lazy = Cia::new();
            lazy.set_model(model);
            let mut stepped = lazy.clone();
            let mut lazy_next = lazy.next_event();
            let mut line = false;
            let mut next_op = 1;
            let end = 300_000;
            for cycle in 1..=end {
                stepped.step();
                if stepped.int_asserted != line {
                    line = stepped.int_asserted;
                    assert!(
                        lazy_next <= cycle,
                        "seed {seed} {model:?}: line changed at {cycle}, next_event said {lazy_next}"
                    );
                }
                let mut query = cycle >= lazy_next;
                if cycle == next_op {
                    query = true;
                    if rng.u64(..3) == 0 {
                        let reg = rng.u64(..16) as u8;
                        let want = stepped.read(reg, cycle);
                        assert_eq!(
                            lazy.peek(reg, cycle),
                            want,
                            "seed {seed} peek {reg:X}@{cycle}"
                        );
                        assert_eq!(
                            lazy.read(reg, cycle),
                            want,
                            "seed {seed} read {reg:X}@{cycle}"
                        );
                    } else {
                        let (reg, value) = random_write(&mut rng);
                        stepped.write(reg, value, cycle);
                        lazy.write(reg, value, cycle);
                    }
                    next_op += 1 + match rng.u64(..20) {
                        0 => rng.u64(..60_000),
                        1..=9 => rng.u64(..8),
                        _ => rng.u64(..400),
                    };
                }
                if query {
                    assert_eq!(lazy.irq(cycle), line, "seed {seed} {model:?} irq@{cycle}");
                    lazy_next = lazy.next_event();
                }
            }
            lazy.catch_up(end);
            assert_eq!(lazy, stepped, "seed {seed} {model:?}: final state");
        }
    }

    #[test]
    fn tod_tick_conversions_agree_with_wide_arithmetic_at_any_size() {
        let wide_at = |c: u64| (u128::from(c) * 50 / u128::from(PAL_CYCLES_PER_SECOND)) as u64;
        let wide_cycle = |t: u64| {
            u64::try_from((u128::from(t) * u128::from(PAL_CYCLES_PER_SECOND)).div_ceil(50))
                .unwrap_or(u64::MAX)
        };
        let edge_at = u64::MAX / 50;
        let edge_cycle = u64::MAX / PAL_CYCLES_PER_SECOND;
        for c in [
            0,
            1,
            19_704,
            19_705,
            edge_at - 1,
            edge_at,
            edge_at + 1,
            u64::MAX,
        ] {
            assert_eq!(tod_tick_at(TodInput::PAL, c), wide_at(c), "cycle {c}");
        }
        for t in [
            0,
            1,
            49,
            edge_cycle - 1,
            edge_cycle,
            edge_cycle + 1,
            u64::MAX,
        ] {
            assert_eq!(tod_tick_cycle(TodInput::PAL, t), wide_cycle(t), "tick {t}");
        }
    }

    #[test]
    fn tod_tick_cycles() {
        assert_eq!(tod_tick_cycle(TodInput::PAL, 0), 0);
        assert_eq!(tod_tick_cycle(TodInput::PAL, 1), 19_705);
        assert_eq!(tod_tick_cycle(TodInput::PAL, 50), PAL_CYCLES_PER_SECOND);
        for tick in [1, 2, 49, 50, 51, 12_345] {
            assert_eq!(
                tod_tick_at(TodInput::PAL, tod_tick_cycle(TodInput::PAL, tick)),
                tick
            );
            assert_eq!(
                tod_tick_at(TodInput::PAL, tod_tick_cycle(TodInput::PAL, tick) - 1),
                tick - 1
            );
        }
    }

    #[test]
    fn bcd_counters_recover_from_invalid_values() {
        let mut time = [0x0F, 0x5F, 0x00, 0x01];
        tod_increment(&mut time);
        assert_eq!(time, [0x00, 0x5F, 0x00, 0x01], "4-bit wrap, no carry");
        let mut time = [0x09, 0x5F, 0x00, 0x01];
        tod_increment(&mut time);
        assert_eq!(time, [0x00, 0x50, 0x00, 0x01]);
        let mut time = [0x09, 0x59, 0x59, 0x09];
        tod_increment(&mut time);
        assert_eq!(time, [0x00, 0x00, 0x00, 0x10]);
    }

    #[test]
    fn tod_hours_count_as_binary_digits() {
        // Only 09 and 12 carry; other values count the low digit on.
        for (hour, next) in [
            (0x00, 0x01),
            (0x09, 0x10),
            (0x0F, 0x00),
            (0x11, 0x92),
            (0x12, 0x01),
            (0x92, 0x81),
            (0x19, 0x1A),
            (0x1F, 0x10),
            (0x8F, 0x80),
        ] {
            let mut time = [0x09, 0x59, 0x59, hour];
            tod_increment(&mut time);
            assert_eq!(time, [0, 0, 0, next], "hour {hour:02X}");
        }
    }

    #[test]
    fn tod_time_write_matching_the_alarm_flags_even_when_stopped() {
        let mut cia = Cia::new(); // 1:00:00.0, stopped; alarm 0:00:00.0
        cia.write(0x0B, 0x00, 10); // hour 0: now equal, and stopped
        assert_eq!(cia.read(0x0D, 11), 0x04);
        cia.write(0x0B, 0x00, 20); // unchanged: no new edge
        cia.write(0x08, 0x00, 21);
        assert_eq!(cia.read(0x0D, 22), 0x00);
        cia.write(0x08, 0x05, 30);
        cia.write(0x08, 0x00, 31); // changed back to equal
        assert_eq!(cia.read(0x0D, 32), 0x04);
    }

    #[test]
    fn tod_alarm_write_matches_on_the_edge_running_or_not() {
        let mut cia = Cia::new();
        cia.write(0x0F, 0x80, 0);
        cia.write(0x0B, 0x01, 1); // alarm 1:00:00.0 = the stopped time
        assert_eq!(cia.read(0x0D, 2), 0x04, "a match while stopped");
        cia.write(0x0B, 0x01, 3); // the same value: no edge
        assert_eq!(cia.read(0x0D, 4), 0x00);
        cia.write(0x0F, 0x00, 5);
        cia.write(0x08, 0x00, 6); // start (tenths unchanged)
        cia.write(0x0F, 0x80, 7);
        cia.write(0x0B, 0x02, 8);
        cia.write(0x0B, 0x01, 9); // running: equal again
        assert_eq!(cia.read(0x0D, 10), 0x04);
    }

    /// Cycle at which the clock's tenths first read `tenths`.
    fn tod_tenth_cycle(cia: &Cia, tenths: u8, from: u64) -> u64 {
        let tick = tod_tick_cycle(TodInput::PAL, 1);
        let mut at = from;
        while cia.peek(0x08, at) != tenths {
            at += tick / 2;
        }
        let mut lo = at - tick / 2;
        while cia.peek(0x08, lo + 1) != tenths {
            lo += 1;
        }
        lo + 1
    }

    #[test]
    fn tod_divider_change_keeps_the_ring_counter() {
        // Started /6 just after tick 0: the first tenth comes at tick 6.
        let mut slow = Cia::new();
        slow.write(0x08, 0x00, 10);
        assert_eq!(
            tod_tenth_cycle(&slow, 1, 10),
            tod_tick_cycle(TodInput::PAL, 6)
        );
        // Switched to /5 with the counter at 3: the tenth comes at tick 5.
        let mut early = Cia::new();
        early.write(0x08, 0x00, 10);
        early.write(0x0E, 0x80, tod_tick_cycle(TodInput::PAL, 3));
        assert_eq!(
            tod_tenth_cycle(&early, 1, 10),
            tod_tick_cycle(TodInput::PAL, 5)
        );
        // Switched with the counter already at 5: it misses 4, wraps round
        // and comes back to 4, so the tenth is at tick 5 + 6.
        let mut late = Cia::new();
        late.write(0x08, 0x00, 10);
        late.write(0x0E, 0x80, tod_tick_cycle(TodInput::PAL, 5));
        assert_eq!(
            tod_tenth_cycle(&late, 1, 10),
            tod_tick_cycle(TodInput::PAL, 11)
        );
        // From then on every fifth tick.
        assert_eq!(
            tod_tenth_cycle(&late, 2, 10),
            tod_tick_cycle(TodInput::PAL, 16)
        );
    }

    /// Steps a chip with timer A (latch `latch`) shifting out from cycle
    /// `start`; returns the timer A underflow cycles and the cycles at which
    /// ICR bit 3 (serial port) was seen, reading the ICR every cycle.
    fn serial_run(latch: u8, bytes: usize, until: u64) -> (Vec<u64>, Vec<u64>) {
        let mut cia = Cia::new();
        cia.write(0x04, latch, 0);
        cia.write(0x05, 0, 0);
        cia.write(0x0E, 0x51, 1); // start, force load, serial port output
        for n in 0..bytes as u64 {
            cia.write(0x0C, 0x55, 2 + n);
        }
        let (mut underflows, mut done) = (Vec::new(), Vec::new());
        for cycle in 3..until {
            let icr = cia.read(0x0D, cycle);
            if icr & 0x01 != 0 {
                underflows.push(cycle);
            }
            if icr & 0x08 != 0 {
                done.push(cycle);
            }
        }
        (underflows, done)
    }

    #[test]
    fn serial_port_sends_a_byte_in_sixteen_underflows() {
        // Each underflow is half a bit; the 15th (the last bit put out)
        // sets ICR bit 3 four cycles later. The write at cycle 2 takes two
        // cycles to load, so every underflow counts here.
        let (underflows, done) = serial_run(9, 1, 400);
        assert!(underflows[0] >= 4);
        assert_eq!(done, vec![underflows[14] + 4]);
    }

    #[test]
    fn serial_port_sends_a_queued_byte_straight_after() {
        let (underflows, done) = serial_run(9, 2, 700);
        assert_eq!(done, vec![underflows[14] + 4, underflows[30] + 4]);
    }

    #[test]
    fn serial_port_misses_back_to_back_underflows() {
        // Latch 1 underflows every other cycle: each one counts. Latch 0
        // underflows every cycle: after the first edge each underflow comes
        // too soon after the last, so the byte never gets out.
        let (underflows, done) = serial_run(1, 1, 200);
        assert!(underflows.windows(2).all(|w| w[1] - w[0] == 2));
        assert_eq!(done, vec![underflows[14] + 4]);
        let (underflows, done) = serial_run(0, 1, 2000);
        assert!(underflows.windows(2).all(|w| w[1] - w[0] == 1));
        assert_eq!(done, Vec::<u64>::new());
    }

    #[test]
    fn serial_port_interrupt_comes_with_its_flag() {
        let mut cia = Cia::new();
        cia.write(0x04, 9, 0);
        cia.write(0x05, 0, 0);
        cia.write(0x0D, 0x88, 0);
        cia.write(0x0E, 0x51, 1);
        cia.write(0x0C, 0xAA, 2);
        let mut cycle = 3;
        while cia.peek(0x0D, cycle) & 0x08 == 0 {
            assert!(!cia.irq(cycle));
            cycle += 1;
        }
        assert!(cia.irq(cycle), "line low in the cycle the flag appears");
        assert_eq!(cia.read(0x0D, cycle) & 0x88, 0x88);
    }

    #[test]
    fn serial_port_switched_to_input_mid_byte_reports_done_on_return() {
        let mut cia = Cia::new();
        cia.write(0x04, 9, 0);
        cia.write(0x05, 0, 0);
        cia.write(0x0E, 0x51, 1);
        cia.write(0x0C, 0x55, 2);
        // CNT is low during the first half-bit (after the first underflow).
        let mut cycle = 3;
        while cia.peek(0x0D, cycle) & 0x01 == 0 {
            cycle += 1;
        }
        cycle += 5;
        cia.write(0x0E, 0x01, cycle); // input: the byte is dropped
        cia.read(0x0D, cycle + 1);
        for later in cycle + 2..cycle + 400 {
            assert_eq!(cia.read(0x0D, later) & 0x08, 0, "input mode sends nothing");
        }
        let back = cycle + 400;
        cia.write(0x0E, 0x41, back);
        assert_eq!(cia.read(0x0D, back + 2) & 0x08, 0);
        assert_eq!(cia.read(0x0D, back + 3) & 0x08, 0x08, "the pending done");
        // Switched while idle (CNT high for long): nothing pending.
        cia.write(0x0E, 0x01, back + 10);
        cia.write(0x0E, 0x41, back + 20);
        for later in back + 21..back + 40 {
            assert_eq!(cia.read(0x0D, later) & 0x08, 0);
        }
    }
}
