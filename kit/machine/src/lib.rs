//! c64kit-machine
