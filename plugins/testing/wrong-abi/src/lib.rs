//! Test fixture: a plugin built for ABI version 4, the version before the machine's clock
//! (its header has the right magic, and is laid out as version 4's was: the header did not
//! change in version 5, its frames did). The host must refuse it with a message naming the
//! file, both versions and what to do, without reading anything else of the header.

use c64kit_plugin_api::abi::{PluginHeader, RSlice, KIND_DISPLAY, MAGIC};

static HEADER: PluginHeader = PluginHeader {
    magic: MAGIC,
    abi_version: 4,
    kind: KIND_DISPLAY,
    name: RSlice::from_static("from-the-past"),
    version: RSlice::from_static("9.9.9"),
    description: RSlice::from_static("test fixture: built for ABI version 4"),
    display: std::ptr::null(),
    loader: std::ptr::null(),
    audio: std::ptr::null(),
};

#[no_mangle]
pub extern "C" fn c64kit_plugin_entry_wrong_abi() -> *const PluginHeader {
    &HEADER
}
