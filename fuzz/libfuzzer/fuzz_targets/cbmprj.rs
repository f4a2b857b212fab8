//! libFuzzer binary for the `cbmprj` target (see c64kit_fuzz::cbmprj).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::cbmprj(data));
