//! c64kit-chips
