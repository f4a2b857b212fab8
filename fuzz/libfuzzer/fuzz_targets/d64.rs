//! libFuzzer binary for the `d64` target (see c64kit_fuzz::d64).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::d64(data));
