//! libFuzzer binary for the `asm` target (see c64kit_fuzz::asm).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| c64kit_fuzz::asm(data));
