//! Nothing but the benches (benches/cpu.rs, benches/machine.rs), which need the `criterion`
//! feature: `cargo bench -p c64kit-benches --features criterion`, or `cargo xtask bench
//! --criterion`.
