//! libFuzzer binary for the `t64` target (see c64kit_fuzz::t64).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::t64(data));
