//! Sound expectations (`sound = "silent" | "audible" | "level" | "pitch"`): the SID's output,
//! rendered by the machine (`Machine::start_audio`, `Machine::take_audio`, the samples a
//! `c64kit run --audio out.wav` writes) only for scenarios that ask for it, measured over a
//! window of the run as one would measure the WAV: its RMS and peak level in dBFS, and its
//! dominant pitch (YIN's difference function over blocks, the median of the blocks that
//! have one).

use crate::check::{thousands, Check, Kind};
use crate::scenario::Expectation;
use c64kit_machine::Machine;

/// Samples per second rendered: `c64kit run --audio`'s WAV default (44,100), so a level
/// measured here is the level of that file.
pub const SAMPLE_RATE: u32 = 44_100;

/// Below this RMS level (dBFS) a window is silent, at or above it audible: 60 dB under a
/// full-scale square wave, under the 16-bit WAV's noise of a quiet passage, far above the
/// synthesis' own rounding (a silent SID renders zeros).
pub const SILENCE_DBFS: f64 = -60.0;

/// The pitches a `pitch` expectation can measure: the SID's range from its lowest musical
/// notes (C1 is 32.7 Hz) to its highest (a PAL SID's frequency register tops at 3,848 Hz).
pub const PITCH_HZ: std::ops::RangeInclusive<f64> = 30.0..=4_000.0;

/// A pitch's tolerance when none is given: a quarter of a semitone, so the right note as a
/// note table tunes it (a PAL table's notes are within a few cents).
pub const DEFAULT_CENTS: f64 = 25.0;

/// The sound kinds, as a scenario names them.
pub const KINDS: [&str; 4] = ["silent", "audible", "level", "pitch"];

/// Full scale: the largest 16-bit sample's magnitude.
const FULL_SCALE: f64 = 32_768.0;

/// The pitch analysis runs at half the rendered rate (pairs of samples averaged): the
/// SID's fundamentals lie far below 11 kHz, and it costs a quarter as much.
const DECIMATION: usize = 2;

/// One block of the pitch analysis: 2,048 samples at 22,050 Hz (93 ms).
const BLOCK: usize = 2_048;

/// At most this many blocks are analysed in a window (evenly spread over it), so a long
/// window costs no more than a few milliseconds.
const MAX_BLOCKS: usize = 32;

/// YIN's threshold on the normalised difference: a dip under it is a period.
const YIN_THRESHOLD: f64 = 0.15;

/// Where no dip reaches the threshold, the deepest one still counts under this (a tone
/// with a lot of noise or a moving filter).
const YIN_ACCEPT: f64 = 0.35;

/// The sound a run made, from its start (RUN): the samples of the part any expectation's
/// window covers.
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// The machine's clock (Hz) and cycles per frame, which windows are given in.
    pub clock_hz: u64,
    pub frame_cycles: u64,
    /// The index (from the run's start) of `samples[0]`.
    pub first: u64,
    pub samples: Vec<i16>,
    /// Samples the run made in all.
    pub made: u64,
    /// Cycles the run took.
    pub cycles: u64,
    /// Samples kept: from this index up to `keep_to` (None: to the run's end).
    keep_from: u64,
    keep_to: Option<u64>,
    /// The cycle (from the run's start) after which no window needs sound: the synthesis
    /// stops there (None: it runs to the run's end).
    pub until: Option<u64>,
    /// The synthesis has stopped.
    pub stopped: bool,
    scratch: Vec<i16>,
}

/// Whether `e` is a sound expectation.
pub fn is_sound(e: &Expectation) -> bool {
    e.sound.is_some()
}

/// A window of the run, in cycles from its start: `[from, to)`, `to` None for the run's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Window {
    from: u64,
    to: Option<u64>,
}

fn window_of(e: &Expectation, frame_cycles: u64) -> Window {
    let from = e
        .from_cycle
        .or(e.from_frame.map(|f| f.saturating_mul(frame_cycles)))
        .unwrap_or(0);
    let to = e
        .to_cycle
        .or(e.to_frame.map(|f| f.saturating_mul(frame_cycles)));
    Window { from, to }
}

/// The sample of cycle `c` (from the run's start).
fn sample_at(c: u64, clock_hz: u64) -> u64 {
    (u128::from(c) * u128::from(SAMPLE_RATE) / u128::from(clock_hz.max(1))) as u64
}

impl Recording {
    /// Starts the machine's sound for the run's `expectations`, if any is about sound: None
    /// (and no synthesis, which costs) when none is.
    pub fn start(machine: &mut Machine, expectations: &[Expectation]) -> Option<Recording> {
        let sound: Vec<&Expectation> = expectations.iter().filter(|e| is_sound(e)).collect();
        if sound.is_empty() {
            return None;
        }
        // SAMPLE_RATE is inside the synthesis' rates, so this cannot fail; if it ever did,
        // every sound check says so (no samples, zero cycles).
        machine.start_audio(SAMPLE_RATE).ok()?;
        let (clock_hz, frame_cycles) = (machine.clock_hz(), machine.cycles_per_frame());
        let windows: Vec<Window> = sound.iter().map(|e| window_of(e, frame_cycles)).collect();
        let keep_from = windows.iter().map(|w| w.from).min().unwrap_or(0);
        let keep_to = windows
            .iter()
            .map(|w| w.to)
            .try_fold(0u64, |most, to| to.map(|t| most.max(t)));
        Some(Recording {
            clock_hz,
            frame_cycles,
            first: sample_at(keep_from, clock_hz),
            keep_from: sample_at(keep_from, clock_hz),
            keep_to: keep_to.map(|t| sample_at(t, clock_hz)),
            until: keep_to,
            ..Recording::default()
        })
    }

    /// How many cycles the run may go on, `spent` cycles into it, before the sound must be
    /// taken and stopped (`chunk` when sooner does not matter).
    pub fn next_chunk(&self, spent: u64, chunk: u64) -> u64 {
        match self.until {
            Some(until) if !self.stopped => chunk.min(until.saturating_sub(spent).max(1)),
            _ => chunk,
        }
    }

    /// Takes the samples made since the last call, keeping those of the windows; `spent`
    /// cycles into the run, stops the synthesis once every window is over.
    pub fn take(&mut self, machine: &mut Machine, spent: u64) {
        if self.stopped {
            return;
        }
        self.collect(machine);
        if self.until.is_some_and(|u| spent >= u) {
            machine.stop_audio();
            self.stopped = true;
        }
    }

    /// The end of the run, `cycles` long: the last samples taken, the synthesis stopped.
    pub fn finish(&mut self, machine: &mut Machine, cycles: u64) {
        if !self.stopped {
            self.collect(machine);
            machine.stop_audio();
            self.stopped = true;
        }
        self.cycles = cycles;
    }

    fn collect(&mut self, machine: &mut Machine) {
        self.scratch.clear();
        machine.take_audio(&mut self.scratch);
        let start = self.made;
        self.made += self.scratch.len() as u64;
        let from = self.keep_from.max(start);
        let to = self.keep_to.map_or(self.made, |t| t.min(self.made));
        if from < to {
            let (a, b) = ((from - start) as usize, (to - start) as usize);
            self.samples.extend_from_slice(&self.scratch[a..b]);
        }
    }

    /// The kept samples of cycles `[from, to)` (to the end when None), and the cycles they
    /// cover.
    fn slice(&self, w: Window) -> (&[i16], u64, u64) {
        let to = w.to.map_or(self.cycles, |t| t.min(self.cycles));
        let (a, b) = (
            sample_at(w.from, self.clock_hz),
            sample_at(to, self.clock_hz),
        );
        let end = self.first + self.samples.len() as u64;
        let (a, b) = (a.clamp(self.first, end), b.clamp(self.first, end));
        let s = &self.samples[(a - self.first) as usize..(b.max(a) - self.first) as usize];
        (s, w.from, to)
    }

    /// A window as the evidence names it: "frames 10-60", "cycles 1,000-2,000", "the whole
    /// run", "from frame 10 to the run's end".
    fn describe(&self, e: &Expectation) -> String {
        let end = |frame: Option<u64>, cycle: Option<u64>| match (frame, cycle) {
            (Some(f), _) => Some(format!("frame {f}")),
            (_, Some(c)) => Some(format!("cycle {}", thousands(c))),
            _ => None,
        };
        let from = end(e.from_frame, e.from_cycle);
        let to = end(e.to_frame, e.to_cycle);
        match (from, to) {
            (None, None) => "the whole run".into(),
            (Some(f), None) => format!("from {f} to the run's end"),
            (None, Some(t)) => format!("from the run's start to {t}"),
            (Some(f), Some(t)) => match (e.from_frame, e.to_frame, e.from_cycle, e.to_cycle) {
                (Some(a), Some(b), _, _) => format!("frames {a}-{b}"),
                (_, _, Some(a), Some(b)) => {
                    format!("cycles {}-{}", thousands(a), thousands(b))
                }
                _ => format!("from {f} to {t}"),
            },
        }
    }

    /// Where the run ended, in the window's units.
    fn run_end(&self, e: &Expectation) -> String {
        if e.from_frame.is_some() || e.to_frame.is_some() {
            format!("frame {}", self.cycles / self.frame_cycles.max(1))
        } else {
            format!("cycle {}", thousands(self.cycles))
        }
    }
}

/// A level in dBFS as the evidence shows it: "-12.3 dBFS", "-inf dBFS (no sound at all)".
fn dbfs(level: f64) -> String {
    if level == f64::NEG_INFINITY {
        "-inf dBFS (no sound at all)".into()
    } else {
        format!("{level:.1} dBFS")
    }
}

/// RMS and peak of `samples`, in dBFS (a full-scale square wave is 0 dBFS RMS, a full-scale
/// sine -3 dBFS, as sox and Audacity measure a WAV).
pub fn levels(samples: &[i16]) -> (f64, f64) {
    if samples.is_empty() {
        return (f64::NEG_INFINITY, f64::NEG_INFINITY);
    }
    let peak = samples
        .iter()
        .map(|&s| i32::from(s).unsigned_abs())
        .max()
        .unwrap_or(0);
    let x: Vec<f64> = samples.iter().map(|&s| f64::from(s)).collect();
    (rms_dbfs(&x), to_dbfs(f64::from(peak)))
}

/// A magnitude in dBFS (-inf for 0).
fn to_dbfs(v: f64) -> f64 {
    if v <= 0.0 {
        f64::NEG_INFINITY
    } else {
        20.0 * (v / FULL_SCALE).log10()
    }
}

/// The RMS level of samples in dBFS.
fn rms_dbfs(x: &[f64]) -> f64 {
    let sum: f64 = x.iter().map(|v| v * v).sum();
    to_dbfs((sum / x.len().max(1) as f64).sqrt())
}

/// A window's pitch: the median of its sounding blocks' pitches, with how many blocks had
/// one and how many sounded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pitch {
    pub hz: Option<f64>,
    pub pitched: usize,
    pub sounding: usize,
    pub blocks: usize,
}

/// The dominant pitch of `samples` (at [`SAMPLE_RATE`]): None when fewer than half the
/// sounding blocks have a pitch (noise, a chord without a common period) or none sounds.
/// Fails (Err, the window's length) when the window is shorter than one block needs.
pub fn pitch(samples: &[i16]) -> Result<Pitch, String> {
    let x: Vec<f64> = samples
        .chunks_exact(DECIMATION)
        .map(|p| p.iter().map(|&s| f64::from(s)).sum::<f64>() / DECIMATION as f64)
        .collect();
    let rate = f64::from(SAMPLE_RATE) / DECIMATION as f64;
    let max_lag = (rate / PITCH_HZ.start()).ceil() as usize;
    let min_lag = ((rate / PITCH_HZ.end()).floor() as usize).max(2);
    let block = BLOCK.min(x.len().saturating_sub(max_lag));
    if block < max_lag {
        return Err(format!(
            "the window holds {:.0} ms of sound: a pitch needs at least {:.0} ms",
            samples.len() as f64 * 1000.0 / f64::from(SAMPLE_RATE),
            (2 * max_lag) as f64 * 1000.0 / rate
        ));
    }
    let span = block + max_lag;
    let count = (x.len() / span).clamp(1, MAX_BLOCKS);
    let step = if count > 1 {
        (x.len() - span) / (count - 1)
    } else {
        0
    };
    let mut found = Vec::new();
    let mut sounding = 0;
    for b in 0..count {
        let part = &x[b * step..b * step + span];
        if rms_dbfs(&part[..block]) < SILENCE_DBFS {
            continue;
        }
        sounding += 1;
        if let Some(lag) = yin(part, block, min_lag, max_lag) {
            let at = b * step * DECIMATION;
            let full = &samples[at..at + span * DECIMATION];
            let period = refine(full, block * DECIMATION, lag * DECIMATION as f64);
            found.push(f64::from(SAMPLE_RATE) / period);
        }
    }
    let pitched = found.len();
    let hz = if pitched > 0 && 2 * pitched >= sounding {
        found.sort_by(f64::total_cmp);
        Some(found[pitched / 2])
    } else {
        None
    };
    Ok(Pitch {
        hz,
        pitched,
        sounding,
        blocks: count,
    })
}

/// YIN (de Cheveigné and Kawahara, 2002): the period of `x` in samples (fractional), from
/// the cumulative-mean-normalised difference over `block` samples at lags up to `max_lag`.
fn yin(x: &[f64], block: usize, min_lag: usize, max_lag: usize) -> Option<f64> {
    let mut d = vec![0.0f64; max_lag + 1];
    for (lag, slot) in d.iter_mut().enumerate().skip(1) {
        *slot = x[..block]
            .iter()
            .zip(&x[lag..lag + block])
            .map(|(a, b)| (a - b) * (a - b))
            .sum();
    }
    // d'(lag) = d(lag) * lag / sum of d(1..=lag).
    let mut norm = vec![1.0f64; max_lag + 1];
    let mut running = 0.0;
    for lag in 1..=max_lag {
        running += d[lag];
        norm[lag] = if running > 0.0 {
            d[lag] * lag as f64 / running
        } else {
            1.0
        };
    }
    let mut best = None;
    let mut lag = min_lag;
    while lag <= max_lag {
        if norm[lag] < YIN_THRESHOLD {
            // Down to the dip's bottom.
            while lag < max_lag && norm[lag + 1] < norm[lag] {
                lag += 1;
            }
            best = Some(lag);
            break;
        }
        lag += 1;
    }
    let lag = match best {
        Some(l) => l,
        None => {
            let (l, v) = (min_lag..=max_lag)
                .map(|l| (l, norm[l]))
                .min_by(|a, b| a.1.total_cmp(&b.1))?;
            if v >= YIN_ACCEPT {
                return None;
            }
            l
        }
    };
    // The dip's bottom between samples: a parabola through it and its neighbours.
    if lag <= 1 || lag >= max_lag {
        return Some(lag as f64);
    }
    Some(lag as f64 + dip_offset(norm[lag - 1], norm[lag], norm[lag + 1]))
}

/// Where a dip's bottom lies between samples, from the sample at the dip (`b`) and its
/// neighbours: the vertex of the parabola through the three, within half a sample.
fn dip_offset(a: f64, b: f64, c: f64) -> f64 {
    let bend = a - 2.0 * b + c;
    if bend > 0.0 {
        (0.5 * (a - c) / bend).clamp(-0.5, 0.5)
    } else {
        0.0
    }
}

/// The period `estimate` (in samples of `x`, at the full rate) made exact: the difference
/// function's dip at a multiple of it, found to a fraction of a sample and divided by the
/// multiple, the multiple doubling (each step's period places the next one's dip within
/// two samples) up to the largest `x` holds; so the half-rate analysis' error shrinks as
/// many times.
fn refine(x: &[i16], block: usize, estimate: f64) -> f64 {
    let longest = x.len() - block;
    let d = |lag: usize| -> f64 {
        x[..block]
            .iter()
            .zip(&x[lag..lag + block])
            .map(|(&a, &b)| {
                let v = f64::from(a) - f64::from(b);
                v * v
            })
            .sum()
    };
    let mut period = estimate;
    let mut multiple = 1.0;
    loop {
        let centre = (period * multiple).round() as usize;
        if centre < 3 || centre + 3 > longest {
            return period;
        }
        let around: Vec<f64> = (centre - 3..=centre + 3).map(d).collect();
        let i = (1..6)
            .min_by(|&a, &b| around[a].total_cmp(&around[b]))
            .unwrap_or(3);
        let shift = dip_offset(around[i - 1], around[i], around[i + 1]);
        period = (centre - 3 + i) as f64 / multiple + shift / multiple;
        let most = ((longest as f64 - 4.0) / period).floor();
        if multiple >= most {
            return period;
        }
        multiple = (multiple * 2.0).min(most);
    }
}

/// The note nearest `hz` (A4 = 440 Hz, equal temperament) and how many cents off it is:
/// ("A4", -12.3).
pub fn nearest_note(hz: f64) -> (String, f64) {
    const NAMES: [&str; 12] = [
        "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
    ];
    let midi = 69.0 + 12.0 * (hz / 440.0).log2();
    let n = midi.round();
    let name = NAMES[(n as i64).rem_euclid(12) as usize];
    let octave = (n as i64).div_euclid(12) - 1;
    (format!("{name}{octave}"), (midi - n) * 100.0)
}

/// A note's frequency (A4 = 440 Hz, equal temperament): "A4", "C#3", "Bb2", "c5".
pub fn note_hz(note: &str) -> Option<f64> {
    let mut chars = note.trim().chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let base = match letter {
        'C' => 0,
        'D' => 2,
        'E' => 4,
        'F' => 5,
        'G' => 7,
        'A' => 9,
        'B' => 11,
        _ => return None,
    };
    let rest: String = chars.collect();
    let (shift, octave) = match rest.strip_prefix('#') {
        Some(o) => (1, o),
        None => match rest.strip_prefix('b') {
            Some(o) => (-1, o),
            None => (0, rest.as_str()),
        },
    };
    let octave: i32 = octave.parse().ok().filter(|o| (0..=9).contains(o))?;
    let midi = (octave + 1) * 12 + base + shift;
    Some(440.0 * 2f64.powf(f64::from(midi - 69) / 12.0))
}

/// "440.0 Hz (A4 +0 cents)".
fn shown_hz(hz: f64) -> String {
    let (note, cents) = nearest_note(hz);
    format!("{hz:.1} Hz ({note} {} cents)", signed(cents))
}

/// Cents rounded with their sign: "+3", "-12", "+0" (never "-0").
fn signed(cents: f64) -> String {
    format!("{:+.0}", cents.round() + 0.0)
}

/// The frequency a pitch expectation names (its `hz`, or its `note`'s).
pub fn expected_hz(e: &Expectation) -> Option<f64> {
    e.hz.or_else(|| e.note.as_deref().and_then(note_hz))
}

/// What is wrong with a sound expectation's keys: None when nothing is.
pub fn validate(e: &Expectation) -> Result<(), String> {
    let kind = e.sound.as_deref();
    let window = [e.from_frame, e.to_frame, e.from_cycle, e.to_cycle]
        .iter()
        .any(Option::is_some);
    let pitch_keys = e.hz.is_some() || e.note.is_some() || e.cents.is_some();
    let level_keys = e.dbfs_at_least.is_some() || e.dbfs_at_most.is_some();
    let Some(kind) = kind else {
        if window || pitch_keys || level_keys {
            return Err(
                "from_frame, to_frame, from_cycle, to_cycle, hz, note, cents, \
                        dbfs_at_least and dbfs_at_most go with sound"
                    .into(),
            );
        }
        return Ok(());
    };
    if !KINDS.contains(&kind) {
        return Err(format!(
            "sound {kind:?}: sound is \"silent\", \"audible\", \"level\" (with dbfs_at_least \
             and/or dbfs_at_most) or \"pitch\" (with hz or note)"
        ));
    }
    if e.from_frame.is_some() && e.from_cycle.is_some() {
        return Err("give from_frame or from_cycle, not both".into());
    }
    if e.to_frame.is_some() && e.to_cycle.is_some() {
        return Err("give to_frame or to_cycle, not both".into());
    }
    let w = window_of(e, 1);
    let mixed = (e.from_frame.is_some() && e.to_cycle.is_some())
        || (e.from_cycle.is_some() && e.to_frame.is_some());
    if let (Some(to), false) = (w.to, mixed) {
        if to <= w.from {
            return Err(format!(
                "the window ends at {to}, not after its start ({}): to_ must be after from_",
                w.from
            ));
        }
    }
    if kind != "pitch" && pitch_keys {
        return Err(format!(
            "hz, note and cents go with sound = \"pitch\", not {kind:?}"
        ));
    }
    if kind != "level" && level_keys {
        return Err(format!(
            "dbfs_at_least and dbfs_at_most go with sound = \"level\", not {kind:?} (silent \
             is an RMS level under {SILENCE_DBFS} dBFS)"
        ));
    }
    if kind == "level" {
        match (e.dbfs_at_least, e.dbfs_at_most) {
            (None, None) => {
                return Err(
                    "sound = \"level\" goes with dbfs_at_least and/or dbfs_at_most \
                            (the RMS level in dBFS: 0 is a full-scale square wave, -20 a tenth \
                            of it)"
                        .into(),
                )
            }
            (Some(a), Some(b)) if a > b => {
                return Err(format!(
                    "dbfs_at_least ({a}) is above dbfs_at_most ({b}): no level can be both"
                ))
            }
            _ => {}
        }
        for v in [e.dbfs_at_least, e.dbfs_at_most].into_iter().flatten() {
            if v > 0.0 || v.is_nan() {
                return Err(format!(
                    "a level of {v} dBFS cannot be: 0 dBFS is full scale, quieter is negative \
                     (-20 is a tenth of full scale)"
                ));
            }
        }
    }
    if kind == "pitch" {
        if e.hz.is_some() == e.note.is_some() {
            return Err(
                "sound = \"pitch\" goes with hz = 440 or note = \"A4\" (one of them)".into(),
            );
        }
        if let Some(n) = &e.note {
            if note_hz(n).is_none() {
                return Err(format!(
                    "note {n:?}: a note is a letter A-G, # or b, and an octave 0-9 (\"A4\" is \
                     440 Hz, \"C#3\", \"Bb2\")"
                ));
            }
        }
        let hz = expected_hz(e).unwrap_or(0.0);
        if !PITCH_HZ.contains(&hz) {
            return Err(format!(
                "a pitch of {hz:.1} Hz cannot be measured: pitches from {} to {} Hz can (the \
                 SID's notes)",
                PITCH_HZ.start(),
                PITCH_HZ.end()
            ));
        }
        if let Some(c) = e.cents {
            if c.is_nan() || c <= 0.0 || c > 1200.0 {
                return Err(format!(
                    "cents = {c}: the tolerance is more than 0 and at most 1200 cents (an \
                     octave); 100 cents is a semitone"
                ));
            }
        }
    }
    Ok(())
}

/// Checks a sound expectation against the run's recording (None: no sound was recorded,
/// as after a call).
pub fn check(e: &Expectation, recording: Option<&Recording>) -> Check {
    let kind = e.sound.as_deref().unwrap_or("");
    let what_default = |rec: Option<&Recording>| {
        let window = rec.map_or("the run".into(), |r| r.describe(e));
        match kind {
            "pitch" => format!("sound pitch, {window}"),
            "level" => format!("sound level (RMS), {window}"),
            _ => format!("sound, {window}"),
        }
    };
    let expected = match kind {
        "silent" => format!("silent (RMS under {SILENCE_DBFS:.0} dBFS)"),
        "audible" => format!("audible (RMS at least {SILENCE_DBFS:.0} dBFS)"),
        "level" => match (e.dbfs_at_least, e.dbfs_at_most) {
            (Some(a), Some(b)) => format!("{a:.1} to {b:.1} dBFS"),
            (Some(a), None) => format!("at least {a:.1} dBFS"),
            (None, Some(b)) => format!("at most {b:.1} dBFS"),
            (None, None) => "-".into(),
        },
        _ => {
            let hz = expected_hz(e).unwrap_or(0.0);
            let cents = e.cents.unwrap_or(DEFAULT_CENTS);
            let (note, off) = nearest_note(hz);
            let named = match &e.note {
                Some(n) => format!("{hz:.1} Hz ({n})"),
                None if off.abs() < 0.5 => format!("{hz:.1} Hz ({note})"),
                None => format!("{hz:.1} Hz"),
            };
            format!("{named} within {cents} cents")
        }
    };
    let c = Check::new(
        Kind::Fact,
        e.value.clone().unwrap_or_else(|| what_default(recording)),
        expected,
    )
    .ours();
    let Some(rec) = recording else {
        return c.not_checked("no sound was recorded: sound is checked over the run, not a call");
    };
    let w = window_of(e, rec.frame_cycles);
    if w.from >= rec.cycles {
        return c.measured(
            format!(
                "no sound in the window: the run ended at {}, before it",
                rec.run_end(e)
            ),
            false,
        );
    }
    let (samples, _, _) = rec.slice(w);
    let cut = match w.to {
        Some(t) if t > rec.cycles => format!(" (the run ended at {})", rec.run_end(e)),
        _ => String::new(),
    };
    let (rms, peak) = levels(samples);
    match kind {
        "silent" | "audible" | "level" => {
            let holds = match kind {
                "silent" => rms < SILENCE_DBFS,
                "audible" => rms >= SILENCE_DBFS,
                _ => {
                    e.dbfs_at_least.is_none_or(|a| rms >= a)
                        && e.dbfs_at_most.is_none_or(|b| rms <= b)
                }
            };
            let measured = if rms == f64::NEG_INFINITY {
                format!("{}{cut}", dbfs(rms))
            } else {
                format!("RMS {}, peak {}{cut}", dbfs(rms), dbfs(peak))
            };
            c.measured(measured, holds)
        }
        _ => {
            let want = expected_hz(e).unwrap_or(0.0);
            let cents = e.cents.unwrap_or(DEFAULT_CENTS);
            match pitch(samples) {
                Err(why) => c.measured(format!("{why}{cut}"), false),
                Ok(p) => match p.hz {
                    Some(hz) => {
                        let off = 1200.0 * (hz / want).log2();
                        c.measured(
                            format!(
                                "{}, {} cents from the expected, in {} of {} sounding \
                                 blocks of {:.0} ms (RMS {}){cut}",
                                shown_hz(hz),
                                signed(off),
                                p.pitched,
                                p.sounding,
                                block_ms(),
                                dbfs(rms)
                            ),
                            off.abs() <= cents,
                        )
                    }
                    None if p.sounding == 0 => {
                        c.measured(format!("no pitch: silent (RMS {}){cut}", dbfs(rms)), false)
                    }
                    None => c.measured(
                        format!(
                            "no steady pitch: {} of {} sounding blocks had one (noise, or \
                             notes without a common period?) (RMS {}){cut}",
                            p.pitched,
                            p.sounding,
                            dbfs(rms)
                        ),
                        false,
                    ),
                },
            }
        }
    }
}

/// The length of a pitch block in milliseconds.
fn block_ms() -> f64 {
    BLOCK as f64 * 1000.0 * DECIMATION as f64 / f64::from(SAMPLE_RATE)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sawtooth of `hz` at `amp` of full scale, `secs` long, at [`SAMPLE_RATE`].
    fn saw(hz: f64, amp: f64, secs: f64) -> Vec<i16> {
        let n = (secs * f64::from(SAMPLE_RATE)) as usize;
        (0..n)
            .map(|i| {
                let phase = (i as f64 * hz / f64::from(SAMPLE_RATE)).fract();
                ((phase * 2.0 - 1.0) * amp * 32_767.0) as i16
            })
            .collect()
    }

    #[test]
    fn pitch_of_waves_across_the_sids_range() {
        for hz in [32.7, 110.0, 261.6, 440.0, 1_046.5, 3_520.0] {
            let p = pitch(&saw(hz, 0.5, 0.5)).unwrap();
            let got = p.hz.unwrap_or_else(|| panic!("{hz} Hz: no pitch: {p:?}"));
            let cents = 1200.0 * (got / hz).log2();
            assert!(cents.abs() < 1.0, "{hz} Hz measured {got} Hz");
        }
    }

    #[test]
    fn silence_and_noise_have_no_pitch() {
        let p = pitch(&vec![0; 22_050]).unwrap();
        assert_eq!((p.hz, p.sounding), (None, 0));
        // A linear congruential generator's noise.
        let mut seed = 1u32;
        let noise: Vec<i16> = (0..44_100)
            .map(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (seed >> 16) as i16
            })
            .collect();
        let p = pitch(&noise).unwrap();
        assert_eq!(p.hz, None, "{p:?}");
        assert!(p.sounding > 0);
        assert!(pitch(&saw(440.0, 0.5, 0.02)).is_err());
    }

    #[test]
    fn windows_of_any_length_never_panic() {
        let tone = saw(3_900.0, 0.9, 1.0);
        for len in [
            0, 1, 2, 1_469, 1_470, 1_471, 2_939, 2_940, 2_941, 5_566, 5_567, 44_099,
        ] {
            for samples in [&tone[..len], &vec![i16::MIN; len][..]] {
                let _ = pitch(samples);
                let _ = levels(samples);
            }
        }
    }

    #[test]
    fn levels_in_dbfs() {
        let (rms, peak) = levels(&[16_384, -16_384]);
        assert!((rms + 6.02).abs() < 0.01 && (peak + 6.02).abs() < 0.01);
        assert_eq!(levels(&[0, 0]).0, f64::NEG_INFINITY);
    }

    #[test]
    fn notes_and_their_names() {
        assert_eq!(note_hz("A4"), Some(440.0));
        assert!((note_hz("C4").unwrap() - 261.626).abs() < 0.001);
        assert!((note_hz("Bb2").unwrap() - note_hz("A#2").unwrap()).abs() < 1e-9);
        assert_eq!(note_hz("H4"), None);
        assert_eq!(note_hz("A"), None);
        let (name, cents) = nearest_note(433.5);
        assert_eq!(name, "A4");
        assert!((cents + 25.8).abs() < 0.1, "{cents}");
        assert_eq!(nearest_note(32.70).0, "C1");
    }
}
