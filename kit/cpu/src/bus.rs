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

    /// How many reads so far waited for the bus (RDY held low: on a C64, the VIC-II's bad
    /// lines and sprite fetches). The unstable stores (SHA, SHX, SHY, TAS) lose their
    /// "AND high byte + 1" when the read before their write waited. The default is a bus
    /// nothing else uses.
    #[inline(always)]
    fn stall_count(&self) -> u64 {
        0
    }

    /// After a read that waited (see [`Bus::stall_count`]): the interrupt inputs as they were
    /// in the last cycle of the wait, NMI edge included (taken once, as by `poll_interrupts`).
    /// The 6510 goes on sampling its inputs while RDY holds it, so an interrupt that arrives
    /// while the last cycle of an instruction waits is taken after that instruction.
    #[inline(always)]
    fn poll_interrupts_after_stall(&mut self) -> Interrupts {
        self.poll_interrupts()
    }

    /// Plain memory the CPU may use directly, without a call per cycle, for as long as no
    /// device could tell (see [`DirectMemory`]); `None` while the bus needs every cycle (an
    /// interrupt line may change at the next poll, an NMI edge is waiting). The default is a
    /// bus that always needs every cycle.
    #[inline(always)]
    fn direct_memory(&mut self) -> Option<DirectMemory<'_>> {
        None
    }
}

/// What [`Bus::direct_memory`] lends the CPU: memory it may read and write itself, and until
/// when. Reads and writes of plain RAM and reads of ROM have no side effects, so an
/// instruction whose every access (dummy ones included) falls in lent memory can run
/// straight on `ram` and `rom` with its cycle count added at once, and nothing can tell it
/// from the cycle-by-cycle run, provided no interrupt input changes meanwhile. The CPU
/// checks every address against the masks and hands any other instruction back to the
/// cycle-by-cycle path.
pub struct DirectMemory<'a> {
    pub ram: &'a mut [u8; 0x10000],
    /// Read-only memory over `ram`, each byte at the address where it answers (a ROM image
    /// at the addresses the bus maps it to): reads of the regions in `rom_readable` come
    /// from here, opcode fetches included. Writes to those addresses still go to `ram`
    /// where `writable` says so (RAM under ROM). `None`: no ROM is lent.
    pub rom: Option<&'a [u8; 0x10000]>,
    /// Bit r set: reads of $r000-$rFFF are plain reads of `ram`. Bit 0 must be set for the
    /// CPU to use direct memory at all (zero page and stack).
    pub readable: u16,
    /// Bit r set (and not in `readable`): reads of $r000-$rFFF are reads of `rom`.
    pub rom_readable: u16,
    /// Bit r set: writes to $r000-$rFFF are plain writes to `ram` (but see `write_floor`).
    pub writable: u16,
    /// Writes below this address always go through the bus (the 6510's own port at
    /// $0000/$0001).
    pub write_floor: u16,
    /// A page whose writes always go through the bus (`None`: none), so that its user sees
    /// each one (RAM vectors whose targets it watches). Not the zero page or the stack,
    /// which the CPU always writes itself when lent.
    pub write_guard: Option<u8>,
    /// Pages the bus's user watches (bit p % 64 of word p / 64 for $pp00-$ppFF): the CPU
    /// starts no instruction there, so each one that starts there goes through
    /// [`crate::Cpu::step`], where the caller can look at it first (breakpoints, an entry
    /// point watched). Their bytes are still read as operands and data.
    pub watched: [u64; 4],
    /// In the watched pages, only the instructions at these addresses go through `step`
    /// (the others run directly); `None`: every one there.
    pub watched_at: Option<&'a [u16]>,
    /// The bus's cycle counter: the CPU adds the cycles it ran directly.
    pub cycles: &'a mut u64,
    /// The interrupt inputs stay as they are at every poll before this cycle.
    pub quiet_until: u64,
    /// /IRQ is held low now (the CPU then runs directly only while I is set).
    pub irq: bool,
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
    fn direct_memory(&mut self) -> Option<DirectMemory<'_>> {
        Some(DirectMemory {
            ram: &mut self.mem,
            rom: None,
            readable: 0xFFFF,
            rom_readable: 0,
            writable: 0xFFFF,
            write_floor: 0,
            write_guard: None,
            watched: [0; 4],
            watched_at: None,
            cycles: &mut self.cycles,
            quiet_until: u64::MAX,
            irq: false,
        })
    }

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
