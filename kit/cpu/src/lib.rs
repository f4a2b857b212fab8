//! c64kit-cpu
