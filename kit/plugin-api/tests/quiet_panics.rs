//! A plugin's panic shows only as the host's message naming the plugin: Rust's report of it
//! ("thread 'main' panicked at ...", a backtrace) stays quiet, while a panic of the host's
//! own still reaches the panic hook. Its own test binary: it sets the process's panic hook.

use c64kit_plugin_api::host::{Collect, Plugin};
use c64kit_plugin_api::{DisplayBackend, FrameView, HostRef, Options, RunEndInfo};
use std::sync::{Arc, Mutex};

/// Panics on every CHROUT.
pub struct Panics;

impl DisplayBackend for Panics {
    fn create(_options: &Options, _host: &HostRef) -> Result<Self, String> {
        Ok(Panics)
    }
    fn flags(&self) -> u32 {
        0
    }
    fn chrout(&mut self, _bytes: &[u8], _host: &HostRef) -> Result<(), String> {
        panic!("the plugin's own bug");
    }
    fn finish(&mut self, _e: &RunEndInfo, _f: &FrameView, _h: &HostRef) -> Result<(), String> {
        Ok(())
    }
}

c64kit_plugin_api::export_display!(
    c64kit_plugin_entry_quiet_panics,
    Panics,
    "panics",
    "panics on every CHROUT"
);

#[test]
fn a_plugin_panic_is_not_reported_but_the_hosts_own_panics_are() {
    // Set before any plugin is called, as the process's hook is at c64kit's start.
    let reported = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = Arc::clone(&reported);
    std::panic::set_hook(Box::new(move |info| {
        seen.lock().unwrap().push(info.to_string());
    }));
    let plugin = Plugin::builtin(plugin()).unwrap();
    let mut sink = Collect::default();
    let mut d = plugin.open_display(&[], &mut sink).unwrap();
    let e = d.chrout(b"A", &mut sink).unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.panicked),
        ("panicked: the plugin's own bug", true)
    );
    // A copy: a failed assertion panics, and the hook then takes the lock.
    let so_far = reported.lock().unwrap().clone();
    assert!(
        so_far.is_empty(),
        "the plugin's panic was reported: {so_far:?}"
    );
    // Outside a plugin call, a panic is the host's own bug: reported as ever.
    let _ = std::panic::catch_unwind(|| panic!("the host's own bug"));
    let reported = reported.lock().unwrap().clone();
    assert_eq!(reported.len(), 1, "{reported:?}");
    assert!(reported[0].contains("the host's own bug"), "{reported:?}");
}
