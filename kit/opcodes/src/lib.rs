//! c64kit-opcodes
