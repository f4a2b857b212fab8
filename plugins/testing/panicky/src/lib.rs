//! Test fixture: plugins that panic on purpose. The display panics in the call its option
//! `panic_in` names (`create`, `chrout`, `frame`, `finish`; default `chrout`); the loader
//! panics when loading. The host must report a failed run, not abort.

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
