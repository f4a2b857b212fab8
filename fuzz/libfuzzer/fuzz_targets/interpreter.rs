//! libFuzzer binary for the `interpreter` target (see c64kit_fuzz::interpreter).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::interpreter(data));
