//! MOS 6581 / 8580 SID: what a program can observe, and, on request, its
//! sound.
//!
//! Registers: index = `addr & 0x1F` (the 32-byte window repeats over
//! $D400-$D7FF).
//!
//! | reg       | read returns                                            |
//! |-----------|---------------------------------------------------------|
//! | $00-$18   | write-only: the data bus value, see below               |
//! | $19, $1A  | POTX/POTY: paddles, mouse; $FF with nothing connected   |
//! | $1B       | OSC3: upper 8 bits of voice 3's waveform output         |
//! | $1C       | ENV3: voice 3's envelope counter                        |
//! | $1D-$1F   | unused: the data bus value                              |
//!
//! Two models ([`SidModel`]): the 6581 (the default, a breadbin C64's) and
//! the 8580 (a C64C's). What differs between them here: how long the bus
//! value and a deselected waveform's output linger, how long the test bit
//! takes to fill the noise register with ones, and the 6581's sawtooth
//! feeding combined waveforms back into the accumulator's MSB.
//!
//! **Bus value.** Reading a write-only or unused register returns the last
//! byte on the SID's data bus: the last byte written to any register, or
//! read from $19-$1C. It lingers [`BUS_VALUE_TTL_6581`] cycles on the 6581,
//! [`BUS_VALUE_TTL_8580`] on the 8580, then reads 0 (real chips lose the bits
//! one by one; the time is the measured one, the fade is all at once).
//!
//! **Oscillators** (all three): the 24-bit phase accumulator adds the 16-bit
//! frequency every cycle, computed in O(1) from elapsed cycles. At power-on
//! it holds $555555; a reset does not change it. The test bit (control bit
//! 3) clears it and holds it at 0. Hard sync (bit 1): a voice's accumulator
//! is cleared in the cycle its source's MSB rises (voice 1's source is voice
//! 3, voice 2's voice 1, voice 3's voice 2), except when the source is
//! itself synced in that cycle. Ring modulation (bit 2, without sawtooth):
//! the triangle's MSB is XORed with the inverted MSB of the source.
//!
//! **Noise** (every voice: voices 1 and 2 reach OSC3 through sync and ring
//! modulation when the 6581's sawtooth combinations pull their MSB): the
//! 23-bit LFSR (taps 22 and 17) shifts 2 cycles after accumulator bit 19
//! rises; OSC3 shows bits 20,18,14,11,9,5,2,0 (the
//! die-photo positions VICE's reSID and reSIDfp use). At power-on it reads
//! $FE. While the test bit is on, the register's bits charge up to 1 (all at
//! once after [`LFSR_FILL_6581`] / [`LFSR_FILL_8580`] cycles); releasing the
//! test bit shifts once with NOT bit 17 as the new bit 0. Noise combined with
//! other waveforms writes the output back into the register: a tap whose
//! output bit reads 0 is cleared, every cycle except the one between the two
//! phases of a shift (not on a 6581 with noise+pulse alone). At the test
//! bit's release the output of the selection made while it was on is
//! written back first for some pairs of old and new selections only (see
//! [`noise`]; sampled on real chips by VICE testprogs SID/wb_testsuite).
//! This is how combined noise "locks up".
//!
//! **Waveforms** for OSC3: triangle, sawtooth, pulse and noise alone are
//! exact; noise with others is the AND of noise and the rest, noise with
//! pulse then pulled down from the grounded low bits per model. Triangle,
//! sawtooth and pulse combined come from a model of the selector's bit
//! lines fitted per chip model to real chips' samples ([`combined`]: close,
//! not exact; real chips differ among themselves). On the 6581, with
//! sawtooth combined with another waveform, an output MSB of 0 pulls the accumulator's MSB down.
//! No waveform selected: OSC3 keeps the last output until it fades to 0
//! after [`FLOATING_TTL_6581`] / [`FLOATING_TTL_8580`] cycles.
//!
//! **Envelope** (voice 3 only, ENV3): rate counter, exponential period
//! table, sustain, the ADSR delay bug and the pipeline delays of real chips
//! (see [`envelope`]), advanced by jumps between rate counter matches.
//!
//! **Cost.** Everything is advanced lazily when a register is read or
//! written. Hard sync, noise combined with other waveforms, and
//! the 6581's sawtooth combined with another waveform are stepped cycle by
//! cycle over the time they are selected (those are rare); all else jumps.
//!
//! **OSC3's latch**: OSC3 shows the 8580's waveform output one cycle late
//! (its noise bits excepted), and the 6581's pulse (its comparator's
//! latched output) one cycle late with its other waveforms as they are now (see `SidModel::osc3_latch`).
//!
//! **POTX/POTY** ([`pot`]): what [`Sid::set_pot_inputs`] says is connected,
//! sampled by the SID's 512-cycle measuring cycle: a value shows at the end of
//! the measuring cycle it was measured in, computed in O(1) when read.
//!
//! **Sound** (only while an audio output asked for it: [`Sid::start_audio`],
//! [`Sid::take_audio`]; nothing is computed otherwise): all three voices'
//! oscillators, waveforms, hard sync, ring modulation, test bit and noise,
//! all three envelopes (voice 3's is ENV3's model, voices 1 and 2 run their
//! own of the same model), each model's waveform and envelope DACs (the
//! 6581's non-linear R-2R ladders, the 8580's linear ones) and DC offsets
//! (so $D418 digis play loud on the 6581, quietly on the 8580), the filter
//! (two-integrator loop: LP/BP/HP, resonance, the 11-bit cutoff on each
//! model's curve, routing, voice 3 off), the master volume and the C64's
//! output stage, at any sample rate from 8 to 192 kHz with a two-sample
//! triangular anti-aliasing window. A write at cycle N changes the sound
//! from that cycle on. The synthesis only observes the chip: reads are the
//! same with audio on or off. See [`audio`] (signal path, approximations),
//! [`render`] (the voices, cycle by cycle), [`dac`] and [`filter`] (each
//! model's analogue parts, with sources).
//!
//! Not modelled: in the sound, the 6581 filter's distortion and
//! signal-dependent cutoff, the 6581 waveform's true zero level (envelope
//! thumps), combined waveforms' analogue values (the same model as OSC3), the
//! external audio input.

pub mod audio;
pub mod combined;
pub mod dac;
pub mod envelope;
pub mod filter;
pub mod noise;
pub mod pot;
pub mod render;
pub mod voice;

use envelope::Envelope;
pub use noise::{
    noise_clock, noise_clock_n, noise_clock_test_release, noise_output, noise_write_back,
    NOISE_ALL_ONES, NOISE_SEED,
};
use noise::{pre_write_back, writes_back, NOISE_CLOCK_BIT, NOISE_PERIOD};
use voice::{Inputs, Voice, ACC_MASK, GATE, NOISE, SYNC, TEST};

/// The two SID chips of the C64.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SidModel {
    /// The 6581 ("old"): breadbin C64s.
    #[default]
    Mos6581,
    /// The 8580 ("new"): C64Cs.
    Mos8580,
}

/// Cycles the 6581's data bus keeps a value (measured on a 6581).
pub const BUS_VALUE_TTL_6581: u64 = 0x1D00;
/// Cycles the 8580's data bus keeps a value (measured on 8580R5s).
pub const BUS_VALUE_TTL_8580: u64 = 0xA_2000;
/// Cycles a 6581's deselected waveform output lingers (about 0.2 s).
pub const FLOATING_TTL_6581: u64 = 200_000;
/// Cycles an 8580's deselected waveform output lingers (about 5 s).
pub const FLOATING_TTL_8580: u64 = 5_000_000;
/// Cycles the test bit takes to fill a 6581's noise register with ones:
/// more than 34,811, as the real 6581 behind VICE testprogs
/// SID/resid-test/oscsample's reference kept its register through 34,678 to
/// 34,811 cycles of the test bit (the program's comments guess $8000); the
/// round figure just above that.
pub const LFSR_FILL_6581: u64 = 35_000;
/// Cycles the test bit takes to fill an 8580's noise register with ones (~10 s).
pub const LFSR_FILL_8580: u64 = 0x95_0000;

impl SidModel {
    /// How long the data bus keeps a value, in cycles.
    pub fn bus_value_ttl(self) -> u64 {
        match self {
            SidModel::Mos6581 => BUS_VALUE_TTL_6581,
            SidModel::Mos8580 => BUS_VALUE_TTL_8580,
        }
    }

    fn floating_ttl(self) -> u64 {
        match self {
            SidModel::Mos6581 => FLOATING_TTL_6581,
            SidModel::Mos8580 => FLOATING_TTL_8580,
        }
    }

    fn lfsr_fill(self) -> u64 {
        match self {
            SidModel::Mos6581 => LFSR_FILL_6581,
            SidModel::Mos8580 => LFSR_FILL_8580,
        }
    }

    /// What OSC3 shows one cycle late, through a latch: the 8580's whole
    /// waveform output but the noise bits (they change in the same cycle as
    /// on a 6581: SID/resid-test oscsample's noise references, sampled on
    /// both chips); on the 6581 only the pulse, whose comparator output is
    /// latched before the waveform selector. (SID_schematics wiki, "Wave
    /// Selector": the pulse inputs take the pulse adder's latched output, the
    /// 8580's sawtooth MSB passes a latch; measured on real chips by VICE's
    /// SID/detect (sawtooth read 4 cycles after the test bit's release: $03 on
    /// a 6581, $02 on an 8580) and SID/waveforms, as 1541ultimate issue 756
    /// reports: one cycle for every waveform on the 8580, pulse only on the
    /// 6581.)
    fn osc3_latch(self) -> Osc3Latch {
        match self {
            SidModel::Mos6581 => Osc3Latch::Pulse,
            SidModel::Mos8580 => Osc3Latch::Output,
        }
    }
}

/// Which part of voice 3's waveform output reaches OSC3 a cycle late.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Osc3Latch {
    /// The pulse comparator's output (the 6581).
    Pulse,
    /// The whole selector output (the 8580).
    Output,
}

/// The voice whose accumulator MSB syncs / ring-modulates `voice`.
fn source(voice: usize) -> usize {
    (voice + 2) % 3
}

/// The SID. See the module documentation for what is modelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sid {
    model: SidModel,
    /// $00-$18 as last written.
    regs: [u8; 0x19],
    voices: [Voice; 3],
    env3: Envelope,
    bus_value: u8,
    /// The cycle the bus value has faded to 0 at.
    bus_until: u64,
    /// Cycle the oscillators and envelope are up to date with.
    cycle: u64,
    /// The sound synthesis, when an audio output asked for it.
    audio: Option<audio::AudioState>,
    /// POTX and POTY.
    pots: [pot::PotLine; 2],
}

impl Default for Sid {
    fn default() -> Self {
        Self::new()
    }
}

impl Sid {
    /// A 6581 at power-on.
    pub fn new() -> Self {
        Self::with_model(SidModel::Mos6581)
    }

    /// A SID of the given model at power-on (registers 0, accumulators
    /// $555555, noise register at its seed, envelope released).
    pub fn with_model(model: SidModel) -> Self {
        Sid {
            model,
            regs: [0; 0x19],
            voices: [Voice::default(); 3],
            env3: Envelope::default(),
            bus_value: 0,
            bus_until: 0,
            cycle: 0,
            audio: None,
            pots: Default::default(),
        }
    }

    /// The chip model.
    pub fn model(&self) -> SidModel {
        self.model
    }

    /// Changes the chip model (as if the other chip had been in the socket:
    /// the state is kept).
    pub fn set_model(&mut self, model: SidModel) {
        self.model = model;
    }

    /// The reset line: registers and envelope back to their power-on state.
    /// The accumulators and noise registers are not reset on a real chip;
    /// the time base (last update cycle) is kept.
    pub fn reset(&mut self) {
        let (cycle, model) = (self.cycle, self.model);
        let mut voices = self.voices;
        for v in &mut voices {
            v.held = 0;
            v.held_until = 0;
            v.shift_pipeline = 0;
            v.lfsr_full_at = u64::MAX;
        }
        let audio = self.audio.take();
        // What is plugged into the POT pins stays; the measuring cycle runs on.
        let pots = std::mem::take(&mut self.pots);
        *self = Sid::with_model(model);
        self.voices = voices;
        self.audio = audio;
        self.pots = pots;
        self.cycle = cycle;
        self.audio_reset();
    }

    /// The write-only registers $00-$18 as last written (for audio backends).
    pub fn registers(&self) -> &[u8; 0x19] {
        &self.regs
    }

    /// Reads register `reg & 0x1F` at cycle `now`.
    pub fn read(&mut self, reg: u8, now: u64) -> u8 {
        let reg = reg & 0x1F;
        // OSC3's latch holds what voice 3 showed the cycle before.
        let latched = (reg == 0x1B && now > self.cycle).then(|| {
            self.catch_up(now - 1);
            self.osc3_latched(now - 1)
        });
        self.catch_up(now);
        let now = now.max(self.cycle);
        let value = match reg {
            0x19 | 0x1A => self.pots[usize::from(reg - 0x19)].read(now),
            0x1B => self.osc3(now, latched),
            0x1C => self.env3.env3,
            _ => {
                return if now < self.bus_until {
                    self.bus_value
                } else {
                    0
                }
            }
        };
        // A read of a read-only register drives the data bus too.
        self.set_bus(value, now);
        value
    }

    /// Writes register `reg & 0x1F` at cycle `now` ($19-$1F are read-only).
    pub fn write(&mut self, reg: u8, value: u8, now: u64) {
        self.catch_up(now);
        let now = now.max(self.cycle);
        self.set_bus(value, now);
        let reg = usize::from(reg & 0x1F);
        if reg >= self.regs.len() {
            return;
        }
        if self.audio.is_some() {
            self.audio_register_written(reg, value);
        }
        if reg < 0x15 && reg % 7 == 4 {
            self.write_control(reg / 7, value, now);
        }
        self.regs[reg] = value;
        match reg {
            0x13 => self.env3.write_ad(value),
            0x14 => self.env3.write_sr(value),
            _ => {}
        }
    }

    /// What is connected to POTX and POTY from cycle `now` on ([`pot::PotInput`]s; on a C64
    /// see [`pot::c64_pot_inputs`]).
    pub fn set_pot_inputs(&mut self, inputs: [pot::PotInput; 2], now: u64) {
        for (line, input) in self.pots.iter_mut().zip(inputs) {
            line.set_input(input, now);
        }
    }

    /// What `read` would return at `now`, without changing anything.
    pub fn peek(&self, reg: u8, now: u64) -> u8 {
        let mut copy = self.clone();
        copy.audio = None; // the sound does not change what reads return
        copy.read(reg, now)
    }

    /// The SID has no interrupt output.
    pub fn irq(&mut self, _now: u64) -> bool {
        false
    }

    /// The SID has no interrupt output: always `u64::MAX`.
    pub fn next_event(&self) -> u64 {
        u64::MAX
    }

    fn set_bus(&mut self, value: u8, now: u64) {
        self.bus_value = value;
        self.bus_until = now + self.model.bus_value_ttl();
    }

    fn control(&self, voice: usize) -> u8 {
        self.regs[voice * 7 + 4]
    }

    fn freq(&self, voice: usize) -> u32 {
        u32::from(u16::from_le_bytes([
            self.regs[voice * 7],
            self.regs[voice * 7 + 1],
        ]))
    }

    fn inputs(&self, voice: usize, control: u8) -> Inputs {
        Inputs {
            control,
            acc: self.voices[voice].acc,
            ring_acc: self.voices[source(voice)].acc,
            pulse_width: u16::from_le_bytes([
                self.regs[voice * 7 + 2],
                self.regs[voice * 7 + 3] & 0x0F,
            ]),
            lfsr: self.voices[voice].lfsr,
        }
    }

    /// The 12-bit waveform output of `voice` now, with control value `control`.
    fn output_with(&self, voice: usize, control: u8, now: u64) -> u16 {
        if control >> 4 == 0 {
            let v = &self.voices[voice];
            return if now < v.held_until { v.held } else { 0 };
        }
        voice::waveform(self.model, &self.inputs(voice, control))
    }

    fn flush_noise(&mut self) {
        for v in &mut self.voices {
            if v.pending != 0 {
                v.lfsr = noise_clock_n(v.lfsr, v.pending);
                v.pending = 0;
            }
        }
    }

    fn write_control(&mut self, voice: usize, value: u8, now: u64) {
        let old = self.control(voice);
        self.flush_noise();
        if value >> 4 == 0 && old >> 4 != 0 {
            // No waveform: the output floats, holding its last value.
            let held = self.output_with(voice, old, now);
            let v = &mut self.voices[voice];
            v.held = held;
            v.held_until = now + self.model.floating_ttl();
        }
        if value & TEST != 0 && old & TEST == 0 {
            let v = &mut self.voices[voice];
            v.acc = 0;
            v.shift_pipeline = 0;
            v.lfsr_full_at = now + self.model.lfsr_fill();
        } else if value & TEST == 0 && old & TEST != 0 {
            // The shift's first phase ran while the test bit was on (the
            // waveform then selected may have written into it); the release
            // completes it.
            let mut lfsr = self.voices[voice].lfsr;
            if pre_write_back(self.model, old >> 4, value >> 4) {
                lfsr = noise_write_back(lfsr, self.output_with(voice, old, now));
            }
            let v = &mut self.voices[voice];
            v.lfsr = noise_clock_test_release(lfsr);
            v.lfsr_full_at = u64::MAX;
        }
        if voice == 2 && (value ^ old) & GATE != 0 {
            self.env3.set_gate(value & GATE != 0, self.regs[0x13]);
        }
    }

    /// Whether the time up to the next register access must be stepped cycle
    /// by cycle (see "Cost" in the module documentation).
    fn needs_stepping(&self) -> bool {
        (0..3).any(|voice| {
            let control = self.control(voice);
            control & TEST == 0 && (control & SYNC != 0 || self.feeds_back(voice))
        })
    }

    /// Whether `voice`'s output feeds back into its state cycle by cycle:
    /// combined noise writing back into the noise register, the 6581's
    /// sawtooth combinations pulling the accumulator's MSB.
    fn feeds_back(&self, voice: usize) -> bool {
        let wave = self.control(voice) >> 4;
        writes_back(self.model, wave)
            || (self.model == SidModel::Mos6581 && wave & 2 != 0 && wave & 0xD != 0)
    }

    fn catch_up(&mut self, now: u64) {
        if now <= self.cycle {
            return;
        }
        if self.audio.is_some() {
            self.synthesize(now); // renders, then calls advance_state
        } else {
            self.advance_state(now);
        }
    }

    /// Advances oscillators, noise and envelope from `self.cycle` to `now`.
    fn advance_state(&mut self, now: u64) {
        let cycles = now - self.cycle;
        if self.needs_stepping() {
            self.flush_noise();
            for _ in 0..cycles {
                self.step();
            }
        } else {
            for voice in 0..3 {
                self.advance(voice, cycles);
            }
        }
        for v in &mut self.voices {
            if v.lfsr_full_at <= now {
                v.lfsr = NOISE_ALL_ONES;
                v.pending = 0;
                v.lfsr_full_at = u64::MAX;
            }
        }
        let (ad, sr) = (self.regs[0x13], self.regs[0x14]);
        self.env3.clock_n(cycles, ad, sr);
        self.cycle = now;
    }

    /// `cycles` cycles of one voice at once (no sync, no write-back).
    fn advance(&mut self, voice: usize, cycles: u64) {
        if self.control(voice) & TEST != 0 {
            return; // the test bit holds the accumulator at 0
        }
        let freq = u64::from(self.freq(voice));
        let v = &mut self.voices[voice];
        let start = u64::from(v.acc);
        let acc_after = |n: u64| start + freq * n;
        // Rises of bit 19 = crossings of 2^19 + k*2^20; a rise in cycle j
        // shifts the LFSR in cycle j + 2. Rises are >= 16 cycles apart.
        let clock_bit = u64::from(NOISE_CLOCK_BIT);
        let rises = |n: u64| {
            (acc_after(n) + clock_bit) / (2 * clock_bit) - (start + clock_bit) / (2 * clock_bit)
        };
        let mut shifts = 0;
        if v.shift_pipeline != 0 {
            if u64::from(v.shift_pipeline) <= cycles {
                shifts += 1;
                v.shift_pipeline = 0;
            } else {
                v.shift_pipeline -= cycles as u8;
            }
        }
        let done = if cycles >= 2 { rises(cycles - 2) } else { 0 };
        shifts += done;
        if rises(cycles) > done {
            v.shift_pipeline = if rises(cycles - 1) > done { 1 } else { 2 };
        }
        v.pending = (v.pending + shifts % NOISE_PERIOD) % NOISE_PERIOD;
        v.acc = (acc_after(cycles) & u64::from(ACC_MASK)) as u32;
    }

    /// One cycle of all three voices.
    fn step(&mut self) {
        let mut rising = [false; 3];
        for (voice, rose) in rising.iter_mut().enumerate() {
            let control = self.control(voice);
            if control & TEST != 0 {
                continue;
            }
            let freq = self.freq(voice);
            let v = &mut self.voices[voice];
            let next = (v.acc + freq) & ACC_MASK;
            let set = !v.acc & next;
            v.acc = next;
            *rose = set & 0x80_0000 != 0;
            if set & NOISE_CLOCK_BIT != 0 {
                v.shift_pipeline = 2;
            } else if v.shift_pipeline > 0 {
                v.shift_pipeline -= 1;
                if v.shift_pipeline == 0 {
                    v.lfsr = noise_clock(v.lfsr);
                }
            }
        }
        let synced: [bool; 3] =
            std::array::from_fn(|voice| self.control(voice) & SYNC != 0 && rising[source(voice)]);
        for voice in 0..3 {
            // A source synced in the same cycle its MSB rises syncs nothing.
            if synced[voice] && !synced[source(voice)] {
                self.voices[voice].acc = 0;
            }
        }
        for voice in 0..3 {
            let control = self.control(voice);
            let wave = control >> 4;
            if control & TEST != 0 || wave == 0 {
                continue;
            }
            let pull_msb = self.model == SidModel::Mos6581 && wave & 2 != 0 && wave & 0xD != 0;
            let write_back =
                writes_back(self.model, wave) && self.voices[voice].shift_pipeline != 1;
            if !pull_msb && !write_back {
                continue;
            }
            let out = voice::waveform(self.model, &self.inputs(voice, control));
            let v = &mut self.voices[voice];
            if pull_msb && out & 0x800 == 0 {
                v.acc &= 0x7F_FFFF;
            }
            if write_back {
                v.lfsr = noise_write_back(v.lfsr, out);
            }
        }
    }

    /// What OSC3's latch takes from voice 3 in cycle `now` (the model's
    /// [`Osc3Latch`]): the waveform output, or the pulse comparator's output
    /// as 0/1.
    fn osc3_latched(&mut self, now: u64) -> u16 {
        self.flush_noise();
        let control = self.control(2);
        match self.model.osc3_latch() {
            // The noise bits pass the latch (see `osc3`): it holds the rest.
            Osc3Latch::Output if control & NOISE != 0 => {
                voice::waveform(self.model, &self.inputs(2, control & !NOISE))
            }
            Osc3Latch::Output => self.output_with(2, control, now),
            Osc3Latch::Pulse => u16::from(voice::pulse_high(&self.inputs(2, control))),
        }
    }

    /// OSC3 at `now`: the upper 8 bits of voice 3's output, with what the
    /// latch took the cycle before (`latched`; None when there is no cycle
    /// before to go by: the output now).
    fn osc3(&mut self, now: u64, latched: Option<u16>) -> u8 {
        self.flush_noise();
        let control = self.control(2);
        let out = match (latched, self.model.osc3_latch()) {
            (Some(tone), Osc3Latch::Output) if control & NOISE != 0 => {
                voice::with_noise(self.model, control >> 4, tone, self.voices[2].lfsr)
            }
            (Some(out), Osc3Latch::Output) => out,
            (Some(pulse), Osc3Latch::Pulse) if control >> 4 != 0 => {
                voice::waveform_with_pulse(self.model, &self.inputs(2, control), pulse != 0)
            }
            _ => self.output_with(2, control, now),
        };
        (out >> 4) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_voice_clocks_its_noise_register() {
        // Voices 1 and 2 reach OSC3 through sync and ring modulation (their
        // MSB pulled by the 6581's sawtooth+noise), so their noise registers
        // must run as voice 3's does, with audio off too.
        for model in [SidModel::Mos6581, SidModel::Mos8580] {
            let mut sid = Sid::with_model(model);
            for (t, wave) in [(0, 0x80), (50_000, 0xA0), (90_000, 0x88), (140_000, 0x80)] {
                for voice in 0..3u8 {
                    let base = voice * 7;
                    sid.write(base, 0x31, t);
                    sid.write(base + 1, 0x2A, t);
                    sid.write(base + 4, wave, t);
                }
            }
            sid.catch_up(200_000);
            sid.flush_noise();
            let lfsr = sid.voices.map(|v| v.lfsr);
            assert_ne!(lfsr[2], NOISE_SEED, "{model:?}: voice 3's noise ran");
            assert_eq!(lfsr, [lfsr[2]; 3], "{model:?}");
        }
    }
}
