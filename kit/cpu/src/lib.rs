//! c64kit-cpu: the NMOS 6502 core of the 6510, exact to the bus cycle.
//!
//! The core knows nothing of the C64. It drives a [`Bus`] with one read or write per clock
//! cycle (dummy accesses included) and samples the interrupt inputs where the NMOS chip does,
//! so a bus that models devices cycle by cycle sees what real hardware would.

mod bus;
mod cpu;

pub use bus::{Bus, DirectMemory, FlatRam, Interrupts};
pub use cpu::{
    flag, Cpu, ANE_MAGIC, IRQ_VECTOR, LXA_MAGIC, NETLIST_MAGIC, NMI_VECTOR, RESET_VECTOR,
};
