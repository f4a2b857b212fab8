//! libFuzzer binary for the `prg` target (see c64kit_fuzz::prg).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::prg(data));
