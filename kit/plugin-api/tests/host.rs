//! The host side against plugins defined here: header checks, the call protocol, errors and
//! panics caught at the boundary.

use c64kit_plugin_api::abi::{
    self, DisplayVTable, PluginHeader, RSlice, Screen, FLAG_FRAMES, KIND_DISPLAY, MAGIC,
};
use c64kit_plugin_api::host::{Collect, Kind, Origin, Plugin};
use c64kit_plugin_api::{
    Confidence, DisplayBackend, HostRef, Options, Program, ProgramLoader, RunEndInfo, Start,
};

mod echo {
    use super::*;

    /// Echoes CHROUT bytes in brackets, counts frames, fails on request.
    pub struct Echo {
        frames: usize,
        fail_on: Option<String>,
    }

    impl DisplayBackend for Echo {
        fn create(options: &Options, host: &HostRef) -> Result<Self, String> {
            options.check_known(&["fail_on"])?;
            host.note("created");
            Ok(Echo {
                frames: 0,
                fail_on: options.get("fail_on").map(str::to_string),
            })
        }
        fn flags(&self) -> u32 {
            FLAG_FRAMES
        }
        fn chrout(&mut self, bytes: &[u8], host: &HostRef) -> Result<(), String> {
            if self.fail_on.as_deref() == Some("chrout") {
                return Err("cannot echo".into());
            }
            if bytes == b"PANIC" {
                panic!("asked to panic");
            }
            host.write_stdout(b"[");
            host.write_stdout(bytes);
            host.write_stdout(b"]");
            Ok(())
        }
        fn frame(&mut self, _screen: &Screen, _host: &HostRef) -> Result<(), String> {
            self.frames += 1;
            Ok(())
        }
        fn poll_input(&mut self, host: &HostRef) -> Result<(), String> {
            host.push_key(0x41);
            host.quit();
            Ok(())
        }
        fn finish(&mut self, end: &RunEndInfo, s: &Screen, host: &HostRef) -> Result<(), String> {
            host.note(&format!(
                "{} frames, {} (code {}) at {} ${:04X}, border {}",
                self.frames, end.reason, end.exit_code, end.cycles, end.pc, s.border
            ));
            Ok(())
        }
    }

    c64kit_plugin_api::export_display!(c64kit_plugin_entry_test_echo, Echo, "echo", "test echo");
}

mod two {
    use super::*;

    pub struct Two;

    impl ProgramLoader for Two {
        const EXTENSIONS: &'static str = "two, .TW";
        fn probe(_path: &str, bytes: &[u8]) -> Confidence {
            if bytes.starts_with(b"TWO") {
                Confidence::Yes
            } else {
                Confidence::No
            }
        }
        fn load(path: &str, bytes: &[u8], _options: &Options) -> Result<Program, String> {
            if bytes.len() < 4 {
                return Err("too short".into());
            }
            Ok(Program {
                segments: vec![
                    c64kit_plugin_api::Segment {
                        address: 0xC000,
                        bytes: bytes[3..].to_vec(),
                    },
                    c64kit_plugin_api::Segment {
                        address: 0x0400,
                        bytes: vec![1, 2],
                    },
                ],
                start: Start::At(0xC000),
                description: format!("two from {path}"),
            })
        }
    }

    c64kit_plugin_api::export_loader!(c64kit_plugin_entry_test_two, Two, "two", "two segments");
}

#[test]
fn a_display_is_called_in_order_and_its_output_collected() {
    let p = Plugin::builtin(echo::plugin()).unwrap();
    assert_eq!(
        (p.kind, p.name.as_str(), p.origin.clone()),
        (Kind::Display, "echo", Origin::BuiltIn)
    );
    assert_eq!(p.version, env!("CARGO_PKG_VERSION"));
    let mut sink = Collect::default();
    let mut d = p.open_display(&[], &mut sink).unwrap();
    assert_eq!(d.flags, FLAG_FRAMES);
    d.chrout(b"HI", &mut sink).unwrap();
    d.frame(&Screen::blank(), &mut sink).unwrap();
    d.poll_input(&mut sink).unwrap();
    d.finish("done", 3, 99, 0xE147, &Screen::blank(), &mut sink)
        .unwrap();
    assert_eq!(sink.stdout, b"[HI]");
    assert_eq!(sink.keys, [0x41]);
    assert!(sink.quit);
    assert_eq!(
        sink.notes,
        ["created", "1 frames, done (code 3) at 99 $E147, border 14"]
    );
}

#[test]
fn errors_and_panics_come_back_as_call_errors() {
    let p = Plugin::builtin(echo::plugin()).unwrap();
    let mut sink = Collect::default();
    let e = p
        .open_display(&[("colour".into(), "red".into())], &mut sink)
        .err()
        .unwrap();
    assert!(!e.panicked);
    assert_eq!(
        e.message,
        "unknown option \"colour\" (known options: fail_on)"
    );
    let mut d = p
        .open_display(&[("fail_on".into(), "chrout".into())], &mut sink)
        .unwrap();
    let e = d.chrout(b"x", &mut sink).unwrap_err();
    assert_eq!((e.message.as_str(), e.panicked), ("cannot echo", false));
    let mut d = p.open_display(&[], &mut sink).unwrap();
    let e = d.chrout(b"PANIC", &mut sink).unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.panicked),
        ("panicked: asked to panic", true)
    );
    let e = d.frame(&Screen::blank(), &mut sink).unwrap_err();
    assert!(
        e.panicked && e.message.contains("panicked earlier"),
        "{e:?}"
    );
    // A display is not a loader.
    let e = p.load("x", b"", &[], &mut sink).unwrap_err();
    assert!(e.message.contains("is a display, not a loader"), "{e}");
}

#[test]
fn a_loader_hands_over_segments_start_and_description() {
    let p = Plugin::builtin(two::plugin()).unwrap();
    assert_eq!(p.extensions, ["two", "tw"]);
    assert_eq!(p.probe("f", b"TWO!").unwrap(), 2);
    assert_eq!(p.probe("f", b"ONE!").unwrap(), 0);
    let mut sink = Collect::default();
    let prog = p.load("f.two", b"TWO\x60", &[], &mut sink).unwrap();
    assert_eq!(prog.start, Start::At(0xC000));
    assert_eq!(prog.segments.len(), 2);
    assert_eq!(prog.segments[0].bytes, vec![0x60]);
    assert_eq!(prog.description, "two from f.two");
    let e = p.load("f.two", b"TW", &[], &mut sink).unwrap_err();
    assert_eq!(e.message, "too short");
    assert_eq!(p.directory("f", b"").unwrap(), None);
}

fn header(f: impl FnOnce(&mut PluginHeader)) -> Result<Plugin, String> {
    let mut h = PluginHeader {
        magic: MAGIC,
        abi_version: abi::ABI_VERSION,
        kind: KIND_DISPLAY,
        name: RSlice::from_static("fine"),
        version: RSlice::from_static("1.0.0"),
        description: RSlice::from_static("a test"),
        display: echo::plugin().display,
        loader: std::ptr::null(),
    };
    f(&mut h);
    let leaked: &'static PluginHeader = Box::leak(Box::new(h));
    Plugin::builtin(leaked)
}

#[test]
fn headers_are_checked_before_use() {
    assert!(header(|_| {}).is_ok());
    let e = header(|h| h.magic = *b"NOTAPLUG").unwrap_err();
    assert!(e.contains("bad magic"), "{e}");
    let e = header(|h| h.abi_version = 2).unwrap_err();
    assert!(
        e.contains("ABI version 2, but this c64kit speaks version 1"),
        "{e}"
    );
    let e = header(|h| h.kind = 9).unwrap_err();
    assert!(e.contains("kind 9"), "{e}");
    let e = header(|h| h.display = std::ptr::null()).unwrap_err();
    assert!(e.contains("no display function table"), "{e}");
    let e = header(|h| h.name = RSlice::from_static("Has Space")).unwrap_err();
    assert!(e.contains("is not a plugin name"), "{e}");
    let e = header(|h| h.kind = abi::KIND_LOADER).unwrap_err();
    assert!(e.contains("no loader function table"), "{e}");
    // A table with a function missing.
    let table: &'static DisplayVTable = Box::leak(Box::new(DisplayVTable {
        finish: None,
        ..c64kit_plugin_api::plugin::display_vtable::<echo::Echo>()
    }));
    let e = header(|h| h.display = table).unwrap_err();
    assert_eq!(e, "its function table lacks `finish`");
    // SAFETY: null is allowed and refused.
    let e = unsafe { Plugin::from_header(std::ptr::null(), Origin::BuiltIn) }.unwrap_err();
    assert!(e.contains("null"), "{e}");
}
