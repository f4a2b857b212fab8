//! c64kit-screen
