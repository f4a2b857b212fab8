//! c64kit-chips: minimal but exact models of the C64's I/O chips.
//!
//! * [`Sid`] (6581 or 8580, $D400-$D7FF): register file, voice 3 oscillator
//!   readback ($D41B, including the real noise LFSR) and envelope readback
//!   ($D41C); the sound synthesised as samples while an output asks for it.
//! * [`Cia`] (6526, CIA1 at $DC00 and CIA2 at $DD00): ports and keyboard
//!   matrix, timers A/B, interrupt control, time-of-day clock.
//! * [`Vic`] (6569 PAL, $D000-$D3FF): register file, raster counter and
//!   raster interrupt.
//!
//! # Time
//!
//! Every method that can observe or change time-dependent state takes `now`,
//! the CPU cycle count since power-on (PAL: [`PAL_CYCLES_PER_SECOND`]). Chips
//! are *lazy*: they remember the cycle of their last update and catch up to
//! `now` on the next call, arithmetically where possible, so the machine only
//! calls into them when the CPU touches $D000-$DFFF or when an interrupt may
//! be due. `now` must not go backwards; if it does, the call acts at the
//! chip's last update cycle instead (no panic).
//!
//! # Interrupts
//!
//! Each chip has `irq(now) -> bool` (interrupt output asserted, i.e. the open
//! collector line is pulled low at cycle `now`) and `next_event() -> u64`,
//! the earliest cycle at which that output could change without a register
//! access (`u64::MAX` if never). The protocol for the machine is:
//!
//! 1. after any `read`/`write` of a chip, re-query `irq(now)` and
//!    `next_event()` (an access can raise or acknowledge an interrupt);
//! 2. otherwise, do not call the chip until `now >= next_event()`, then call
//!    `irq(now)` and re-query `next_event()`.
//!
//! `next_event` may be early (the chip then simply reports no change), never
//! late. CIA2's output is the C64's NMI line: the machine has to detect the
//! falling edge itself.
//!
//! # Register indices
//!
//! `read`/`write`/`peek` take the register index after mirroring:
//! `addr & 0x1F` for the SID, `addr & 0x0F` for a CIA and `addr & 0x3F` for
//! the VIC (each chip masks again, so a wider value is harmless). `peek`
//! returns what `read` would return at `now` without any side effect (no
//! clear-on-read, no TOD latch, no state change), for monitors and debuggers.
//!
//! # C64 I/O map at $D000-$DFFF (when the PLA maps I/O in)
//!
//! | range       | chip                                   |
//! |-------------|----------------------------------------|
//! | $D000-$D3FF | VIC-II, 64-byte window mirrored 16x    |
//! | $D400-$D7FF | SID, 32-byte window mirrored 32x       |
//! | $D800-$DBFF | colour RAM (4-bit nybbles, machine's)  |
//! | $DC00-$DCFF | CIA1, 16-byte window mirrored 16x (IRQ)|
//! | $DD00-$DDFF | CIA2, 16-byte window mirrored 16x (NMI)|
//! | $DE00-$DFFF | I/O 1/2 expansion area (open bus)      |

pub mod cia;
pub mod sid;
pub mod vic;

pub use cia::Cia;
pub use sid::{Sid, SidModel};
pub use vic::{Vic, VicModel};

/// PAL C64 CPU clock in cycles per second (the 6569's row of the model table,
/// `vic/model.rs`, as are the two below).
pub const PAL_CYCLES_PER_SECOND: u64 = VicModel::Mos6569.clock_hz();
/// PAL VIC-II (6569) cycles per raster line.
pub const PAL_CYCLES_PER_LINE: u64 = VicModel::Mos6569.cycles_per_line();
/// PAL VIC-II (6569) raster lines per frame.
pub const PAL_LINES: u64 = VicModel::Mos6569.lines();
/// PAL cycles per frame (19,656; about 50.12 frames per second).
pub const PAL_CYCLES_PER_FRAME: u64 = PAL_CYCLES_PER_LINE * PAL_LINES;
