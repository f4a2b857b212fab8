//! c64kit-basic
