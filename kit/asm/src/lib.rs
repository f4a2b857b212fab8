//! c64kit-asm
