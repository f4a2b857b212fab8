//! libFuzzer binary for the `config` target (see c64kit_fuzz::config).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::config(data));
