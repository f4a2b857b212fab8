//! Test fixture: plugins that panic on purpose. The display panics in the call its option
//! `panic_in` names (`create`, `chrout`, `frame`, `finish`; default `chrout`); the loader
//! panics when loading; the audio output in the call its `panic_in` names (`create`,
//! `sample_rate`, `samples`, `finish`; default `samples`, `none`: never), and says it is
//! live (a sound card), so `c64kit play` picks it when it is loaded. The host must report a
//! failed run, not abort.

pub mod display {
    use c64kit_plugin_api::abi::FLAG_FRAMES;
    use c64kit_plugin_api::{DisplayBackend, FrameView, HostRef, Options, RunEndInfo};

    pub struct Panicky {
        panic_in: String,
    }

    impl Panicky {
        fn maybe(&self, call: &str) {
            if self.panic_in == call {
                panic!("panicky display: deliberate panic in {call}");
            }
        }
    }

    impl DisplayBackend for Panicky {
        fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
            options.check_known(&["panic_in"])?;
            let p = Panicky {
                panic_in: options.get("panic_in").unwrap_or("chrout").to_string(),
            };
            p.maybe("create");
            Ok(p)
        }
        fn flags(&self) -> u32 {
            FLAG_FRAMES
        }
        fn chrout(&mut self, _bytes: &[u8], _host: &HostRef) -> Result<(), String> {
            self.maybe("chrout");
            Ok(())
        }
        fn frame(&mut self, _frame: &FrameView, _host: &HostRef) -> Result<(), String> {
            self.maybe("frame");
            Ok(())
        }
        fn finish(&mut self, _e: &RunEndInfo, _f: &FrameView, _h: &HostRef) -> Result<(), String> {
            self.maybe("finish");
            Ok(())
        }
    }

    c64kit_plugin_api::export_display!(
        c64kit_plugin_entry_panicky_display,
        Panicky,
        "panicky",
        "test fixture: panics on purpose"
    );
}

pub mod loader {
    use c64kit_plugin_api::{Confidence, Options, Program, ProgramLoader};

    pub struct PanickyLoader;

    impl ProgramLoader for PanickyLoader {
        const EXTENSIONS: &'static str = "panic";
        fn probe(_path: &str, _bytes: &[u8]) -> Confidence {
            Confidence::No
        }
        fn load(_path: &str, _bytes: &[u8], _options: &Options) -> Result<Program, String> {
            panic!("panicky loader: deliberate panic in load");
        }
    }

    c64kit_plugin_api::export_loader!(
        c64kit_plugin_entry_panicky_loader,
        PanickyLoader,
        "panicky-loader",
        "test fixture: panics on purpose"
    );
}

pub mod audio {
    use c64kit_plugin_api::{AudioOutput, HostRef, Options, RunEndInfo, SoundBlock};

    pub struct PanickyAudio {
        panic_in: String,
    }

    impl PanickyAudio {
        fn maybe(&self, call: &str) {
            if self.panic_in == call {
                panic!("panicky audio: deliberate panic in {call}");
            }
        }
    }

    impl AudioOutput for PanickyAudio {
        const LIVE: bool = true;

        fn create(options: &Options, _host: &HostRef) -> Result<Self, String> {
            options.check_known(&["panic_in", "rate"])?;
            let p = PanickyAudio {
                panic_in: options.get("panic_in").unwrap_or("samples").to_string(),
            };
            p.maybe("create");
            Ok(p)
        }
        fn sample_rate(&self) -> u32 {
            self.maybe("sample_rate");
            44_100
        }
        fn samples(&mut self, _block: &SoundBlock, _host: &HostRef) -> Result<(), String> {
            self.maybe("samples");
            Ok(())
        }
        fn finish(&mut self, _end: &RunEndInfo, _host: &HostRef) -> Result<(), String> {
            self.maybe("finish");
            Ok(())
        }
    }

    c64kit_plugin_api::export_audio!(
        c64kit_plugin_entry_panicky_audio,
        PanickyAudio,
        "panicky-audio",
        "test fixture: panics on purpose"
    );
}
