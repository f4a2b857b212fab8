//! The only thing the CPU knows about the outside world.

/// One bus cycle per call: the CPU calls `read` or `write` exactly once for every clock cycle of
/// an instruction, dummy accesses included, in the order the NMOS 6502 puts them on the bus.
/// A bus that counts calls therefore counts cycles.
pub trait Bus {
    /// A read cycle at `addr`.
    fn read(&mut self, addr: u16) -> u8;
    /// A write cycle at `addr`.
    fn write(&mut self, addr: u16, value: u8);

    /// The interrupt inputs as they were during the bus cycle just completed.
    /// `irq` is the level of the /IRQ line (true = asserted, pulled low). `nmi_edge` reports
    /// whether /NMI went from high to low at any cycle since the previous call that reported
    /// an edge: the 6502's NMI input is edge-triggered, so the bus keeps the edge until it is
    /// taken here, once.
    ///
    /// The CPU calls this once per instruction, right before the instruction's last cycle
    /// (the moment the NMOS core latches its interrupt inputs), and at a few points of the
    /// interrupt sequence. The default is a bus without interrupt sources.
    #[inline(always)]
    fn poll_interrupts(&mut self) -> Interrupts {
        Interrupts::NONE
    }

    /// The /NMI level during the bus cycle just completed (true = low). Only consulted during
    /// an interrupt sequence, where a late NMI edge is lost if the line is already high again.
    #[inline(always)]
    fn nmi_line(&mut self) -> bool {
        false
    }
}

/// What [`Bus::poll_interrupts`] reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interrupts {
    /// /IRQ is held low.
    pub irq: bool,
    /// /NMI has had a falling edge not yet reported.
    pub nmi_edge: bool,
}

impl Interrupts {
    pub const NONE: Interrupts = Interrupts {
        irq: false,
        nmi_edge: false,
    };
}

/// 64 KiB of plain RAM that counts its cycles: the simplest bus, for tests, benchmarks and
/// the `--bare` mode (a plain 6502 system like cc65's sim65).
pub struct FlatRam {
    pub mem: Box<[u8; 0x10000]>,
    pub cycles: u64,
}

impl FlatRam {
    pub fn new() -> Self {
        FlatRam {
            mem: Box::new([0; 0x10000]),
            cycles: 0,
        }
    }

    /// Copies `bytes` to memory from `addr` on, wrapping at $FFFF.
    pub fn load(&mut self, addr: u16, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            self.mem[addr.wrapping_add(i as u16) as usize] = *b;
        }
    }
}

impl Default for FlatRam {
    fn default() -> Self {
        Self::new()
    }
}

impl Bus for FlatRam {
    #[inline(always)]
    fn read(&mut self, addr: u16) -> u8 {
        self.cycles += 1;
        self.mem[addr as usize]
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        self.cycles += 1;
        self.mem[addr as usize] = value;
    }
}
