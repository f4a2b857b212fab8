//! libFuzzer binary for the `scenario` target (see c64kit_fuzz::scenario).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::scenario(data));
