//! A run heard through audio output plugins. The machine synthesises the SID's sound only
//! when an output is in use (`Machine::start_audio`); after each frame the run takes the
//! samples made since the last (`Machine::take_audio`) and hands them to every output as one
//! block, numbered from the first sample, so an output can place each block in time.

use crate::session::CliSink;
use anyhow::Result;
use c64kit_machine::Machine;
use c64kit_plugin_api::host::{AudioInstance, Plugin};
use c64kit_plugin_api::{RunEndInfo, SoundBlock};

/// An audio output taking part in the run.
pub struct Heard {
    /// "audio plugin wav (built-in)".
    pub label: String,
    pub name: String,
    pub instance: AudioInstance,
}

impl Heard {
    pub fn open(
        plugin: &Plugin,
        options: &[(String, String)],
        sink: &mut CliSink,
    ) -> Result<Heard> {
        sink.current = plugin.name.clone();
        let instance = plugin
            .open_audio(options, sink)
            .map_err(|e| anyhow::anyhow!("{} failed: {e}", plugin.label()))?;
        Ok(Heard {
            label: plugin.label(),
            name: plugin.name.clone(),
            instance,
        })
    }
}

fn failed(h: &Heard, e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("{} failed: {e}", h.label)
}

/// The sound of a run and where it goes.
pub struct Sound {
    outputs: Vec<Heard>,
    rate: u32,
    /// The cycle the sound started at.
    start: u64,
    /// Samples handed over so far.
    sent: u64,
    /// The samples of the block being handed over (kept to reuse its memory).
    block: Vec<i16>,
}

impl Sound {
    /// Starts the machine's sound at the rate every output takes; none without outputs.
    /// Outputs that want different rates, or a rate the synthesis cannot make, are errors
    /// naming them.
    pub fn start(m: &mut Machine, outputs: Vec<Heard>) -> Result<Option<Sound>> {
        let Some(first) = outputs.first() else {
            return Ok(None);
        };
        let rate = first.instance.sample_rate;
        if let Some(other) = outputs.iter().find(|h| h.instance.sample_rate != rate) {
            anyhow::bail!(
                "the audio outputs take different sample rates ({} {} Hz, {} {} Hz): give \
                 --audio-rate",
                first.name,
                rate,
                other.name,
                other.instance.sample_rate
            );
        }
        m.start_audio(rate)
            .map_err(|e| anyhow::anyhow!("{}: {e}", first.label))?;
        Ok(Some(Sound {
            outputs,
            rate,
            start: m.cycles(),
            sent: 0,
            block: Vec::new(),
        }))
    }

    /// An output plays the sound as it comes: the run goes in real time.
    pub fn live(&self) -> bool {
        self.outputs.iter().any(|h| h.instance.live)
    }

    /// Hands the sound made since the last call to every output.
    pub fn deliver(&mut self, m: &mut Machine, sink: &mut CliSink) -> Result<()> {
        self.block.clear();
        m.take_audio(&mut self.block);
        let first_cycle = self.start
            + (u128::from(self.sent) * u128::from(m.clock_hz()) / u128::from(self.rate)) as u64;
        let block = SoundBlock {
            samples: &self.block,
            first_sample: self.sent,
            first_cycle,
        };
        for h in self.outputs.iter_mut() {
            sink.current = h.name.clone();
            h.instance.samples(&block, sink).map_err(|e| failed(h, e))?;
        }
        self.sent += self.block.len() as u64;
        Ok(())
    }

    /// The end of the run for every output, after the run's last block (each gets its
    /// finish, to write its file or release the sound card, even if another failed; the
    /// first failure is reported).
    pub fn finish(&mut self, end: &RunEndInfo, sink: &mut CliSink) -> Result<()> {
        let mut first_error = None;
        for h in self.outputs.iter_mut() {
            sink.current = h.name.clone();
            if let Err(e) = h.instance.finish(end, sink) {
                first_error.get_or_insert_with(|| failed(h, e));
            }
        }
        match first_error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}
