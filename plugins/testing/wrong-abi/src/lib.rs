//! Test fixture: a header with the right magic but ABI version 99. The host must refuse it
//! with a message naming the file and both versions, without calling anything else.

use c64kit_plugin_api::abi::{PluginHeader, RSlice, KIND_DISPLAY, MAGIC};

static HEADER: PluginHeader = PluginHeader {
    magic: MAGIC,
    abi_version: 99,
    kind: KIND_DISPLAY,
    name: RSlice::from_static("from-the-future"),
    version: RSlice::from_static("9.9.9"),
    description: RSlice::from_static("test fixture: wrong ABI version"),
    display: std::ptr::null(),
    loader: std::ptr::null(),
};

#[no_mangle]
pub extern "C" fn c64kit_plugin_entry_wrong_abi() -> *const PluginHeader {
    &HEADER
}
