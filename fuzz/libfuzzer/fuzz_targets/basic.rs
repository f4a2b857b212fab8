//! libFuzzer binary for the `basic` target (see c64kit_fuzz::basic).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::basic(data));
