//! The WAV audio output: the SID's sound as a WAV file (`c64kit run prog.prg --audio
//! out.wav`): RIFF, PCM, 16-bit signed samples, mono, at the rate asked for (default 44,100
//! samples a second).
//!
//! The samples are written as they come, beside the file's name, and the file is put in
//! place at the end of the run with the sizes in its header (a reader never sees half a
//! file; a failed run leaves nothing). Written into a device or pipe (`/dev/stdout`), the
//! header's sizes cannot be patched afterwards and say "unknown" ($FFFFFFFF), which sox and
//! ffmpeg read as "to the end of the stream".
//!
//! Options: `output` (file; default the program's name with .wav, else screen.wav), `rate`
//! (samples per second, default 44,100).

use c64kit_files::OutputFile;
use c64kit_plugin_api::{AudioOutput, HostRef, Options, RunEndInfo, SoundBlock};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::PathBuf;

/// The rate when none is asked for: the CD's, which every player takes.
pub const DEFAULT_RATE: u32 = 44_100;

/// Bytes before the first sample: the RIFF header, the `fmt ` chunk and the `data` chunk's
/// header.
pub const HEADER_LEN: usize = 44;

/// The most sample bytes one WAV file holds: its RIFF size field (32 bits) counts the file
/// less 8 bytes. At 44,100 samples a second that is 13.5 hours.
pub const MAX_DATA_BYTES: u64 = u32::MAX as u64 - (HEADER_LEN as u64 - 8);

/// Written as the sizes of a stream whose length is not known when its header is written.
const UNKNOWN_SIZE: u32 = u32::MAX;

/// The 44-byte header of a 16-bit mono PCM WAV file at `rate` holding `data_bytes` bytes of
/// samples (`None`: a stream of unknown length).
pub fn header(rate: u32, data_bytes: Option<u32>) -> [u8; HEADER_LEN] {
    let (riff, data) = match data_bytes {
        Some(d) => (d + (HEADER_LEN as u32 - 8), d),
        None => (UNKNOWN_SIZE, UNKNOWN_SIZE),
    };
    let mut h = [0u8; HEADER_LEN];
    let mut at = 0;
    let mut put = |bytes: &[u8]| {
        h[at..at + bytes.len()].copy_from_slice(bytes);
        at += bytes.len();
    };
    put(b"RIFF");
    put(&riff.to_le_bytes());
    put(b"WAVE");
    put(b"fmt ");
    put(&16u32.to_le_bytes()); // the fmt chunk's size for PCM
    put(&1u16.to_le_bytes()); // format 1: integer PCM
    put(&1u16.to_le_bytes()); // channels: mono
    put(&rate.to_le_bytes());
    put(&(rate * 2).to_le_bytes()); // bytes per second
    put(&2u16.to_le_bytes()); // bytes per sample frame
    put(&16u16.to_le_bytes()); // bits per sample
    put(b"data");
    put(&data.to_le_bytes());
    h
}

pub struct WavAudio {
    output: PathBuf,
    rate: u32,
    /// Open from `create` (so a folder that is not there fails before the run), taken at
    /// the end.
    writer: Option<BufWriter<OutputFile>>,
    /// Samples written.
    written: u64,
    /// The loudest sample's magnitude, for the note.
    peak: u32,
    /// The file is full ([`MAX_DATA_BYTES`]): no more samples are kept.
    full: bool,
}

impl WavAudio {
    fn error(&self, e: &std::io::Error) -> String {
        format!(
            "cannot write {}: {}",
            self.output.display(),
            c64kit_files::io_reason(e)
        )
    }
}

impl AudioOutput for WavAudio {
    fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
        options.check_known(&["output", "rate"])?;
        let rate = match options.number("rate")? {
            None => DEFAULT_RATE,
            // The header's bytes-per-second field is 32 bits.
            Some(r) if (1..=u64::from(u32::MAX / 2)).contains(&r) => r as u32,
            Some(r) => return Err(format!("option rate: {r} is not a sample rate")),
        };
        let output = options.output_path("wav");
        let mut file = OutputFile::create(&output).map_err(|e| {
            format!(
                "cannot write {}: {}",
                output.display(),
                c64kit_files::io_reason(&e)
            )
        })?;
        // A file's sizes are patched at the end; a device's stay "unknown".
        let sizes = match file {
            OutputFile::Atomic(_) => Some(0),
            OutputFile::Direct(_) => None,
        };
        file.write_all(&header(rate, sizes)).map_err(|e| {
            format!(
                "cannot write {}: {}",
                output.display(),
                c64kit_files::io_reason(&e)
            )
        })?;
        Ok(WavAudio {
            output,
            rate,
            writer: Some(BufWriter::new(file)),
            written: 0,
            peak: 0,
            full: false,
        })
    }

    fn sample_rate(&self) -> u32 {
        self.rate
    }

    fn samples(&mut self, block: &SoundBlock, host: &HostRef) -> Result<(), String> {
        if self.full {
            return Ok(());
        }
        let room = (MAX_DATA_BYTES / 2 - self.written) as usize;
        let take = &block.samples[..block.samples.len().min(room)];
        let Some(w) = self.writer.as_mut() else {
            return Err(format!("{}: already finished", self.output.display()));
        };
        let mut bytes = Vec::with_capacity(take.len() * 2);
        for &s in take {
            bytes.extend_from_slice(&s.to_le_bytes());
            self.peak = self.peak.max(u32::from(s.unsigned_abs()));
        }
        if let Err(e) = w.write_all(&bytes) {
            return Err(self.error(&e));
        }
        self.written += take.len() as u64;
        if take.len() < block.samples.len() {
            self.full = true;
            host.note(&format!(
                "{}: stopped recording at {} samples, the most a WAV file holds, at cycle {}",
                self.output.display(),
                self.written,
                block.first_cycle
            ));
        }
        Ok(())
    }

    fn finish(&mut self, _end: &RunEndInfo, host: &HostRef) -> Result<(), String> {
        let Some(w) = self.writer.take() else {
            return Ok(());
        };
        let mut file = w.into_inner().map_err(|e| self.error(e.error()))?;
        let data_bytes = (self.written * 2) as u32; // at most MAX_DATA_BYTES
        if let OutputFile::Atomic(f) = &mut file {
            let h = header(self.rate, Some(data_bytes));
            f.seek(SeekFrom::Start(0))
                .and_then(|_| f.write_all(&h))
                .map_err(|e| self.error(&e))?;
        }
        file.commit().map_err(|e| self.error(&e))?;
        let level = if self.peak == 0 {
            "silent".to_string()
        } else {
            format!(
                "peak {:.1} dBFS",
                20.0 * (f64::from(self.peak) / 32768.0).log10()
            )
        };
        host.note(&format!(
            "wrote {} ({:.2} s: {} samples at {} Hz, 16-bit mono; {level})",
            self.output.display(),
            self.written as f64 / f64::from(self.rate),
            self.written,
            self.rate
        ));
        Ok(())
    }
}

c64kit_plugin_api::export_audio!(
    c64kit_plugin_entry_wav,
    WavAudio,
    "wav",
    "the SID's sound as a WAV file (16-bit PCM mono, 44,100 Hz unless `rate` says)"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_riff_pcm_16_bit_mono() {
        let h = header(48_000, Some(1000));
        let u32_at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().unwrap());
        let u16_at = |i: usize| u16::from_le_bytes(h[i..i + 2].try_into().unwrap());
        assert_eq!(&h[0..4], b"RIFF");
        assert_eq!(u32_at(4), 1036, "the file less 8 bytes");
        assert_eq!(&h[8..16], b"WAVEfmt ");
        assert_eq!(u32_at(16), 16);
        assert_eq!((u16_at(20), u16_at(22)), (1, 1), "PCM, mono");
        assert_eq!((u32_at(24), u32_at(28)), (48_000, 96_000));
        assert_eq!((u16_at(32), u16_at(34)), (2, 16));
        assert_eq!(&h[36..40], b"data");
        assert_eq!(u32_at(40), 1000);
        let stream = header(44_100, None);
        assert_eq!(
            (&stream[4..8], &stream[40..44]),
            (&[0xFF; 4][..], &[0xFF; 4][..])
        );
    }
}
