//! libFuzzer binary for the `keyscript` target (see c64kit_fuzz::keyscript).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::keyscript(data));
