//! The live audio output: the SID's sound on the computer's sound card as the run goes, for
//! `c64kit play` (which uses a live output when one is loaded) or `c64kit run --audio cpal`
//! (paced to real time). Through cpal: ALSA on Linux, CoreAudio on macOS, WASAPI on Windows.
//!
//! The run hands over a block of samples each frame (paced by the host to the machine's
//! clock); the card takes them at its own clock. Between the two sits a queue: the card
//! starts playing once `latency` worth of sound waits (and again after the queue ran dry: a
//! pause is better than a crackle of tiny gaps), and sound older than three times that is
//! dropped when the run gets ahead. The mono samples go to every channel of the card.
//!
//! Options: `rate` (samples per second; default the card's own), `latency` (milliseconds of
//! sound queued before playing, 20 to 1,000, default 80).
//!
//! Without a sound card (or a sound server) `create` fails with cpal's reason, naming what
//! was missing; `c64kit play` then goes on silent with a note.

use c64kit_plugin_api::{AudioOutput, HostRef, Options, RunEndInfo, SoundBlock};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample, StreamConfig};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Milliseconds of sound queued before the card starts playing, when not asked otherwise:
/// about four frames (PAL's 20 ms, NTSC's 17 ms), enough for the host's frame-by-frame pacing to keep up.
pub const DEFAULT_LATENCY_MS: u64 = 80;

/// The samples between the run and the card.
#[derive(Debug, Default)]
pub struct Queue {
    samples: VecDeque<i16>,
    /// Playback (re)starts once this many samples wait.
    prime: usize,
    /// At most this many wait; older ones are dropped.
    max: usize,
    playing: bool,
    /// The run ended: play out what is left without waiting for `prime`.
    draining: bool,
    /// Times the queue ran dry while playing, and samples dropped for being late.
    pub underruns: u64,
    pub dropped: u64,
}

impl Queue {
    pub fn new(prime: usize, max: usize) -> Queue {
        Queue {
            prime: prime.max(1),
            max: max.max(prime.max(1)),
            ..Queue::default()
        }
    }

    /// Samples from the run.
    pub fn push(&mut self, samples: &[i16]) {
        self.samples.extend(samples);
        if self.samples.len() > self.max {
            let late = self.samples.len() - self.max;
            self.samples.drain(..late);
            self.dropped += late as u64;
        }
        if self.samples.len() >= self.prime {
            self.playing = true;
        }
    }

    /// The next sample for the card: silence while priming or dry.
    pub fn pull(&mut self) -> i16 {
        if !self.playing && !self.draining {
            return 0;
        }
        match self.samples.pop_front() {
            Some(s) => s,
            None => {
                if self.playing && !self.draining {
                    self.underruns += 1;
                }
                self.playing = false;
                0
            }
        }
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    pub fn drain(&mut self) {
        self.draining = true;
    }
}

/// What the card's thread and the plugin share.
#[derive(Default)]
struct Shared {
    queue: Queue,
    /// A failure of the stream that ends the sound, for the next call to report.
    failure: Option<String>,
}

pub struct CpalAudio {
    rate: u32,
    shared: Arc<Mutex<Shared>>,
    /// Kept open for the run; dropping it stops the sound.
    _stream: cpal::Stream,
    device: String,
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    // A panic on the card's thread while holding the lock leaves plain data behind.
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

/// Fills the card's buffer (frames of `channels` samples) from the queue.
fn fill<T: SizedSample + FromSample<f32>>(out: &mut [T], channels: usize, shared: &Mutex<Shared>) {
    let mut s = lock(shared);
    for frame in out.chunks_mut(channels.max(1)) {
        let v = T::from_sample(f32::from(s.queue.pull()) / 32768.0);
        frame.fill(v);
    }
}

fn open_stream<T: SizedSample + FromSample<f32>>(
    device: &cpal::Device,
    config: StreamConfig,
    shared: &Arc<Mutex<Shared>>,
) -> Result<cpal::Stream, cpal::Error> {
    let channels = usize::from(config.channels);
    let data = Arc::clone(shared);
    let errors = Arc::clone(shared);
    device.build_output_stream(
        config,
        move |out: &mut [T], _: &cpal::OutputCallbackInfo| fill(out, channels, &data),
        move |e: cpal::Error| {
            use cpal::ErrorKind::*;
            // Glitches and reroutes are not failures; a device that went away is.
            if !matches!(e.kind(), Xrun | DeviceChanged | RealtimeDenied) {
                lock(&errors)
                    .failure
                    .get_or_insert_with(|| format!("the sound device failed: {e}"));
            }
        },
        None,
    )
}

/// The device's configuration at `rate` (any of its layouts that takes it), else its own.
fn choose_config(
    device: &cpal::Device,
    rate: Option<u32>,
) -> Result<cpal::SupportedStreamConfig, String> {
    let default = device
        .default_output_config()
        .map_err(|e| format!("the sound device has no output configuration: {e}"))?;
    let Some(rate) = rate else {
        return Ok(default);
    };
    if default.sample_rate() == rate {
        return Ok(default);
    }
    let ranges = device
        .supported_output_configs()
        .map_err(|e| format!("cannot list the sound device's configurations: {e}"))?;
    let mut fitting: Vec<cpal::SupportedStreamConfig> = ranges
        .filter_map(|r| r.try_with_sample_rate(rate))
        .collect();
    // Prefer the device's own sample format and channels.
    fitting.sort_by_key(|c| {
        (
            c.sample_format() != default.sample_format(),
            c.channels() != default.channels(),
        )
    });
    fitting.into_iter().next().ok_or_else(|| {
        format!(
            "the sound device does not take {rate} samples a second (its own rate is {}; \
             leave out --audio-rate or use that)",
            default.sample_rate()
        )
    })
}

impl AudioOutput for CpalAudio {
    const LIVE: bool = true;

    fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
        let alsa = AlsaMessages::catch();
        Self::open(options).map_err(|e| alsa.explain(e))
    }

    fn sample_rate(&self) -> u32 {
        self.rate
    }

    fn samples(&mut self, block: &SoundBlock, _host: &HostRef) -> Result<(), String> {
        let mut s = lock(&self.shared);
        if let Some(f) = s.failure.take() {
            return Err(format!("{}: {f}", self.device));
        }
        s.queue.push(block.samples);
        Ok(())
    }

    fn finish(&mut self, _end: &RunEndInfo, _host: &HostRef) -> Result<(), String> {
        // Play out what is queued (at most three latencies' worth), then let the stream go.
        let left = {
            let mut s = lock(&self.shared);
            s.queue.drain();
            s.queue.len()
        };
        let wait = Duration::from_millis(left as u64 * 1000 / u64::from(self.rate.max(1)) + 200);
        let until = Instant::now() + wait;
        while Instant::now() < until {
            let s = lock(&self.shared);
            if s.queue.is_empty() || s.failure.is_some() {
                break;
            }
            drop(s);
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }
}

/// What alsa-lib complains about while the device is opened, kept instead of written to
/// stderr (where it would repeat, in its own words, what the error says).
struct AlsaMessages {
    #[cfg(any(
        target_os = "linux",
        target_os = "dragonfly",
        target_os = "freebsd",
        target_os = "netbsd"
    ))]
    buffer: Option<std::rc::Rc<std::cell::RefCell<alsa::Output>>>,
}

impl AlsaMessages {
    fn catch() -> AlsaMessages {
        AlsaMessages {
            // Installed for this thread, the one that opens the device.
            #[cfg(any(
                target_os = "linux",
                target_os = "dragonfly",
                target_os = "freebsd",
                target_os = "netbsd"
            ))]
            buffer: alsa::Output::local_error_handler().ok(),
        }
    }

    /// The error, with alsa-lib's last word on it.
    fn explain(&self, error: String) -> String {
        #[cfg(any(
            target_os = "linux",
            target_os = "dragonfly",
            target_os = "freebsd",
            target_os = "netbsd"
        ))]
        if let Some(b) = &self.buffer {
            let text = b.borrow().to_string();
            if let Some(last) = text.lines().rev().find(|l| !l.trim().is_empty()) {
                return format!("{error} (ALSA: {})", last.trim());
            }
        }
        error
    }
}

impl CpalAudio {
    fn open(options: &Options) -> Result<Self, String> {
        options.check_known(&["rate", "latency"])?;
        let rate = options
            .number("rate")?
            .map(|r| u32::try_from(r).map_err(|_| format!("option rate: {r} is not a sample rate")))
            .transpose()?;
        let latency = options.number("latency")?.unwrap_or(DEFAULT_LATENCY_MS);
        if !(20..=1000).contains(&latency) {
            return Err(format!(
                "option latency: {latency} ms is not 20 to 1,000 milliseconds"
            ));
        }
        let host = cpal::default_host();
        let device = host.default_output_device().ok_or_else(|| {
            format!(
                "no sound output device: {} found none (no sound card, or no sound server \
                 running)",
                host.id().name()
            )
        })?;
        let device_name = device
            .description()
            .map(|d| d.to_string())
            .unwrap_or_else(|_| "the default device".to_string());
        let supported = choose_config(&device, rate)
            .map_err(|e| format!("{} ({device_name}): {e}", host.id().name()))?;
        let config = supported.config();
        let rate = config.sample_rate;
        let prime = (u64::from(rate) * latency / 1000) as usize;
        let shared = Arc::new(Mutex::new(Shared {
            queue: Queue::new(prime, prime * 3),
            failure: None,
        }));
        let stream = match supported.sample_format() {
            SampleFormat::I16 => open_stream::<i16>(&device, config, &shared),
            SampleFormat::I32 => open_stream::<i32>(&device, config, &shared),
            SampleFormat::U16 => open_stream::<u16>(&device, config, &shared),
            SampleFormat::U8 => open_stream::<u8>(&device, config, &shared),
            SampleFormat::I8 => open_stream::<i8>(&device, config, &shared),
            SampleFormat::F32 => open_stream::<f32>(&device, config, &shared),
            SampleFormat::F64 => open_stream::<f64>(&device, config, &shared),
            other => {
                return Err(format!(
                    "{device_name} takes {other} samples, which this plugin does not make"
                ))
            }
        }
        .map_err(|e| format!("cannot open {device_name} for sound: {e}"))?;
        stream
            .play()
            .map_err(|e| format!("cannot start {device_name}: {e}"))?;
        Ok(CpalAudio {
            rate,
            shared,
            _stream: stream,
            device: device_name,
        })
    }
}

c64kit_plugin_api::export_audio!(
    c64kit_plugin_entry_cpal,
    CpalAudio,
    "cpal",
    "the SID's sound live on the sound card (cpal: ALSA, CoreAudio, WASAPI)"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_primes_drops_late_sound_and_reprimes_after_running_dry() {
        let mut q = Queue::new(4, 8);
        q.push(&[1, 2, 3]);
        assert_eq!(q.pull(), 0, "not primed: silence, nothing taken");
        assert_eq!(q.len(), 3);
        q.push(&[4]);
        assert_eq!((q.pull(), q.pull()), (1, 2));
        // The run got ahead: the oldest sound goes.
        q.push(&[5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!((q.len(), q.dropped), (8, 2));
        assert_eq!(q.pull(), 5);
        for _ in 0..7 {
            q.pull();
        }
        assert_eq!((q.pull(), q.underruns), (0, 1), "dry: one underrun");
        q.push(&[13]);
        assert_eq!(q.pull(), 0, "re-priming after running dry");
        q.drain();
        assert_eq!(q.pull(), 13, "at the end what is left plays");
        assert_eq!(
            (q.pull(), q.underruns),
            (0, 1),
            "running dry then is no underrun"
        );
    }
}
