//! The C64's address space as the CPU sees it: 64 KiB RAM, the 6510 port at $0000/$0001,
//! the PLA's banking of ROMs and I/O over the RAM, colour RAM and the I/O chips.

use crate::input::InputQueue;
use crate::kernal::vars::{NDX, XMAX};
use crate::pla::{self, Region};
use crate::roms::Roms;
use c64kit_chips::cia::{CiaModel, TodInput};
use c64kit_chips::sid::pot::{c64_pot_inputs, PotInput};
use c64kit_chips::sid::SidModel;
use c64kit_chips::vic::{FetchedPages, Picture, VicMemory};
use c64kit_chips::{Cia, Sid, Vic, VicModel};
use c64kit_cpu::{Bus, DirectMemory, Interrupts};

/// What the VIC-II can read, as a C64Bus's fields give it (a macro, so the borrows stay on
/// the fields and the VIC-II itself can be borrowed mutably beside them).
macro_rules! vic_memory {
    ($bus:expr) => {
        VicMemory {
            ram: &$bus.ram,
            char_rom: &$bus.roms.chargen,
            colour: &$bus.colour,
            bank: $bus.vic_bank(),
        }
    };
}

/// What turns CIA 2's port A into the VIC-II's bank lines (VA14/VA15).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GlueLogic {
    /// The breadbin C64's TTL gates: the bank follows the port at once.
    #[default]
    Discrete,
    /// The C64C's custom chip (252535-01): switching straight between banks 1 and 2
    /// ($DD00 %10 and %01) shows bank 3 for one cycle on the way, and a data-direction
    /// write that lowers the bank takes effect a cycle late (VICE's c64gluelogic.c,
    /// which x64sc's `-model c64c` uses).
    CustomIc,
}

/// Power-on values of the 6510 port: data direction $2F, data $37 (BASIC, KERNAL, I/O).
pub const PORT_DDR_POWER_ON: u8 = 0x2F;
pub const PORT_DATA_POWER_ON: u8 = 0x37;

/// RAM at power-on is not cleared: each cell comes up as it likes. c64kit uses the pattern of
/// VICE's x64sc with its default settings (src/ram.c, `ram_init_with_pattern`, resources
/// RAMInitStartValue 0, RAMInitValueOffset 2, RAMInitValueInvert 4, RAMInitPatternInvert 16384,
/// RAMInitPatternInvertValue 255), which VICE chose to match a real C64C: runs of
/// `00 00 FF FF FF FF 00 00`, inverted in $4000-$7FFF and $C000-$FFFF. VICE's default also
/// flips a rare random bit (RAMInitRandomChance 1: one in 4096 per bit); c64kit does not, so
/// that every run starts alike. The KERNAL's RAMTAS then clears pages 0, 2 and 3.
pub const RAM_INIT_START_VALUE: u8 = 0x00;
pub const RAM_INIT_VALUE_OFFSET: usize = 2;
pub const RAM_INIT_VALUE_INVERT: usize = 4;
pub const RAM_INIT_PATTERN_INVERT: usize = 0x4000;
pub const RAM_INIT_PATTERN_INVERT_VALUE: u8 = 0xFF;

/// The power-on value of RAM cell `addr` (see [`RAM_INIT_START_VALUE`]).
pub fn power_on_ram(addr: u16) -> u8 {
    let addr = addr as usize;
    let mut v = RAM_INIT_START_VALUE;
    if ((addr + RAM_INIT_VALUE_OFFSET) / RAM_INIT_VALUE_INVERT) & 1 != 0 {
        v ^= 0xFF;
    }
    if (addr / RAM_INIT_PATTERN_INVERT) & 1 != 0 {
        v ^= RAM_INIT_PATTERN_INVERT_VALUE;
    }
    v
}

/// The ROM image a region of the PLA's map reads, if it is a ROM: a read at `addr` sees its
/// byte `addr % len` (BASIC at $A000, the KERNAL at $E000, the character ROM at $D000).
fn rom_image(roms: &Roms, region: Region) -> Option<&[u8]> {
    match region {
        Region::BasicRom => Some(&roms.basic[..]),
        Region::KernalRom => Some(&roms.kernal[..]),
        Region::CharRom => Some(&roms.chargen[..]),
        _ => None,
    }
}

/// Each ROM at every address where the PLA may map it (in any of its modes there is at
/// most one ROM a region can show: `pla::read_map`), RAM's zeros elsewhere: reads of a
/// region mapped to a ROM read here.
fn rom_view(roms: &Roms) -> Box<[u8; 0x10000]> {
    let mut view = Box::new([0; 0x10000]);
    for lines in pla::Lines::all() {
        for (r, region) in pla::read_map(lines).into_iter().enumerate() {
            if let Some(image) = rom_image(roms, region) {
                for addr in r << 12..(r + 1) << 12 {
                    view[addr] = image[addr % image.len()];
                }
            }
        }
    }
    view
}

/// Port bits with pull-up resistors on the C64 (LORAM, HIRAM, CHAREN, cassette sense): as
/// inputs they read 1.
const PORT_PULLUPS: u8 = 0x17;
/// Port bits 6 and 7 lead nowhere: as inputs they read the charge the pin kept from when it
/// last drove a 1, until it leaks away. VICE's figure for that (real chips vary with their
/// temperature): about a third of a second.
pub const PORT_FALL_OFF_CYCLES: u64 = 350_000;
const PORT_FLOATING: [u8; 2] = [0x40, 0x80];

/// The charge on one of the port's floating bits.
#[derive(Clone, Copy, Default)]
struct PortCharge {
    /// The bit as last driven (0 or the bit's mask).
    value: u8,
    /// The last cycle it still reads so.
    until: u64,
}

/// A write to the port whose RAM cell waits for the VIC-II's phi1 fetch of that cycle (see
/// `C64Bus::port_cell_written`), with the memory the chip saw then.
struct PortFetch {
    /// The write's cycle and cell (0 or 1); `None`: nothing waits.
    waiting: Option<(u64, usize)>,
    /// The pages of the chip's bank it may read (`Vic::pages_read_by_counters`) as they
    /// were, the cells under the port in place (nothing else is kept), colour RAM, and the
    /// bank.
    ram: Box<[u8; 0x10000]>,
    colour: Box<[u8; 0x400]>,
    bank: u8,
}

impl PortFetch {
    /// The memory the VIC-II saw at the write, with the character ROM `char_rom`.
    fn memory<'a>(&'a self, char_rom: &'a [u8; 0x1000]) -> VicMemory<'a> {
        VicMemory {
            ram: &self.ram,
            char_rom,
            colour: &self.colour,
            bank: self.bank,
        }
    }
}

/// How far behind the VIC-II may be for a port write to bring it up to date at once
/// (cheaper than copying its memory): a line.
const PORT_FETCH_AT_ONCE: u64 = 63;

/// An interrupt source's output and when it can next change (see `C64Bus::sources`).
#[derive(Clone, Copy, Default)]
struct Source {
    asserted: bool,
    changes_at: u64,
}
const CIA1: u8 = 1;
const CIA2: u8 = 2;
const VIC: u8 = 4;
const ALL_SOURCES: u8 = CIA1 | CIA2 | VIC;
/// CIA 1's port B line the VIC-II's light pen input shares.
const LIGHT_PEN_PB4: u8 = 0x10;

/// The interrupt source an I/O address belongs to (none for SID, colour RAM, I/O 1/2).
fn source_at(addr: u16) -> u8 {
    match addr {
        0xD000..=0xD3FF => VIC,
        0xDC00..=0xDCFF => CIA1,
        0xDD00..=0xDDFF => CIA2,
        _ => 0,
    }
}

/// VICE's debug cartridge register (`-debugcart`): test programs write their result here
/// (0 = pass). On a real C64 it is a SID mirror; c64kit maps it only when asked.
pub const DEBUG_CART_REGISTER: u16 = 0xD7FF;

/// What reads of absent hardware return (cartridge ROM with no cartridge, Ultimax holes).
/// I/O 1 and 2 at $DE00-$DFFF show the VIC-II's last fetch instead, as on a real C64.
pub const OPEN_BUS: u8 = 0xFF;

/// The machine's memory and devices, ticking one cycle per CPU bus access.
pub struct C64Bus {
    pub ram: Box<[u8; 0x10000]>,
    /// Colour RAM: 1024 nibbles at $D800.
    pub colour: Box<[u8; 1024]>,
    /// The ROM images the bus was built with. The CPU reads them through `rom_view`, a copy
    /// made then: change them before building the bus, not after.
    pub roms: Roms,
    /// Every ROM at the addresses it answers when banked in (`rom_view`): what both CPU
    /// paths read there.
    rom_view: Box<[u8; 0x10000]>,
    port_ddr: u8,
    port_data: u8,
    /// The levels the port last drove on each pin (an input pin keeps its last one:
    /// bit 3, with no pull-up, reads it back).
    port_out: u8,
    /// Bits 6 and 7's charges (see `PORT_FALL_OFF_CYCLES`).
    port_charge: [PortCharge; 2],
    /// RAM $0000/$0001, under the port: `ram` holds the port's registers there for the CPU's
    /// reads, the VIC-II reads these (`with_vic_memory`).
    ram_under_port: [u8; 2],
    /// A port write whose cell waits for the VIC-II (allocated at the first).
    port_fetch: Option<Box<PortFetch>>,
    /// Whether port writes may wait for the VIC-II (off only to test that it changes
    /// nothing).
    defer_port_fetches: bool,
    read_map: [Region; 16],
    /// Bit r set: reads of region r ($r000-$rFFF) are plain RAM reads (the fast path).
    ram_readable: u16,
    /// Bit r set: reads of region r are ROM reads (`rom_view`), which the direct path may
    /// make too.
    rom_readable: u16,
    /// Pages the run loop watches (a bit per page, see `DirectMemory::watched`): the direct
    /// path starts no instruction there.
    watched: [u64; 4],
    /// In the watched pages, the only addresses the run loop looks at (`watch_exact`), the
    /// others running directly (`DirectMemory::watched_at`).
    watched_at: Vec<u16>,
    watch_exact: bool,
    /// A page whose writes the direct path leaves to the bus (`DirectMemory::write_guard`),
    /// so that the run loop sees each one.
    write_guard: Option<u8>,
    /// The address of the instruction the CPU steps now, set by the run loop before each
    /// cycle-by-cycle step (where every I/O access is made) whenever a real KERNAL runs: a
    /// keyboard read from the KERNAL ROM's code is the KERNAL's scan, any other the
    /// program's own (`keyboard_lines`).
    pub(crate) instruction_at: u16,
    /// Bit r set: writes to region r are plain RAM writes (not I/O, not a hole), and the
    /// VIC-II need not see them first (not in `vic_watch`).
    ram_writable: u16,
    /// Bit r set: writes to region r go to RAM (the PLA's view).
    pla_writable: u16,
    /// Bit r set: region r holds a page of `vic_pages` while the VIC-II fetches every cycle,
    /// so a write there is checked against them.
    vic_watch: u16,
    /// The pages of the VIC-II's bank it may fetch before its registers or bank change
    /// (`Vic::pages_read`): a write there first brings the VIC up to date (the video matrix's
    /// only if a bad line comes before the write).
    vic_pages: FetchedPages,
    /// CPU cycles since power-on (every bus access is one).
    pub now: u64,
    pub sid: Sid,
    pub cia1: Cia,
    pub cia2: Cia,
    pub vic: Vic,
    /// Until this cycle the interrupt lines cannot change (chips are lazy; any I/O access
    /// resets it to "now").
    next_interrupt_check: u64,
    /// Each interrupt source's output as last computed, and the first cycle it may change
    /// without a register access (CIA 1, CIA 2, VIC-II): a chip nobody touched is not asked
    /// again before then.
    sources: [Source; 3],
    /// Bit per source (`CIA1`, `CIA2`, `VIC`): touched since the last computation.
    touched: u8,
    lines: Interrupts,
    nmi_level: bool,
    /// The glue logic between CIA 2's port A and the VIC-II's bank.
    glue: GlueLogic,
    /// The bank the VIC-II sees up to and including a cycle, where the glue logic lags
    /// behind CIA 2's port (`GlueLogic::CustomIc`).
    vic_bank_until: Option<(u64, u8)>,
    /// CIA 2's count of interrupt assertions when the bus last looked (`Cia::interrupt_edges`):
    /// a new one is an NMI edge even if the line's release before it fell between two looks.
    cia2_edges: u64,
    /// The RESTORE key's line into NMI (held by the key script's `{RESTORE}`).
    pub restore_pressed: bool,
    /// The VIC-II's light pen line is low (CIA 1's PB4, which joystick 1's fire shares).
    light_pen_low: bool,
    /// The scripted keyboard and joysticks: CIA 1's port reads see its keys (and take the
    /// next one when they scan the matrix), the KERNAL's traps take keys from it.
    pub input: InputQueue,
    /// VICE's debug cartridge is plugged in: a write to $D7FF ends the run.
    pub debug_cart: bool,
    /// The first value written to the debug cartridge's register, once written.
    pub debug_cart_value: Option<u8>,
    /// Reads before this cycle cannot find BA low (the VIC-II's next bad line or sprite
    /// fetch, as far as its registers say now): the one check a read makes.
    ba_check_at: u64,
    /// Reads that waited for the VIC-II so far (the CPU's unstable stores look).
    stalls: u64,
    /// What control ports 1 and 2's POT X and POT Y lines carry (the script's paddles and
    /// mouse); the SID sees the pair CIA 1's PA6/PA7 select.
    pot_ports: [[PotInput; 2]; 2],
}

impl C64Bus {
    /// A PAL C64's bus (a 6569 VIC-II).
    pub fn new(roms: Roms) -> Self {
        Self::with_vic(roms, VicModel::Mos6569)
    }

    /// A C64's bus with a `vic` VIC-II, at power-on: its clock and mains frequency are the
    /// CIAs' TOD input.
    pub fn with_vic(roms: Roms, vic: VicModel) -> Self {
        let tod = TodInput {
            clock_hz: vic.clock_hz(),
            mains_hz: vic.facts().mains_hz,
        };
        let mut bus = C64Bus {
            ram: Box::new(std::array::from_fn(|a| power_on_ram(a as u16))),
            colour: Box::new([0; 1024]),
            rom_view: rom_view(&roms),
            roms,
            port_ddr: PORT_DDR_POWER_ON,
            port_data: PORT_DATA_POWER_ON,
            port_out: PORT_DATA_POWER_ON & PORT_DDR_POWER_ON,
            port_charge: [PortCharge::default(); 2],
            ram_under_port: [power_on_ram(0), power_on_ram(1)],
            port_fetch: None,
            defer_port_fetches: true,
            read_map: [Region::Ram; 16],
            ram_readable: 0,
            rom_readable: 0,
            watched: [0; 4],
            watched_at: Vec::new(),
            watch_exact: false,
            write_guard: None,
            instruction_at: 0,
            ram_writable: 0,
            pla_writable: 0,
            vic_watch: 0,
            vic_pages: FetchedPages::default(),
            now: 0,
            sid: Sid::new(),
            cia1: Cia::new(),
            cia2: Cia::new(),
            vic: Vic::with_model(vic),
            next_interrupt_check: 0,
            sources: [Source::default(); 3],
            touched: ALL_SOURCES,
            lines: Interrupts::NONE,
            nmi_level: false,
            cia2_edges: 0,
            glue: GlueLogic::Discrete,
            vic_bank_until: None,
            restore_pressed: false,
            light_pen_low: false,
            input: InputQueue::for_model(vic),
            debug_cart: false,
            debug_cart_value: None,
            ba_check_at: 0,
            stalls: 0,
            pot_ports: [[None; 2]; 2],
        };
        bus.update_map();
        bus.cia1.set_tod_input(tod);
        bus.cia2.set_tod_input(tod);
        bus
    }

    /// The glue logic between CIA 2 and the VIC-II's bank: a breadbin C64's (the default) or
    /// a C64C's.
    pub fn set_glue_logic(&mut self, glue: GlueLogic) {
        self.glue = glue;
    }

    /// The VIC-II's bank now (0-3: $0000, $4000, $8000, $C000): CIA 2's port A, through the
    /// glue logic.
    pub fn vic_bank(&self) -> u8 {
        self.vic_bank_until
            .map_or_else(|| self.cia2.vic_bank(), |(_, bank)| bank)
    }

    /// Makes both CIAs 6526s (the default, a breadbin C64's) or 6526As (a C64C's).
    pub fn set_cia_model(&mut self, model: CiaModel) {
        self.cia1.set_model(model);
        self.cia2.set_model(model);
        self.interrupts_changed();
    }

    /// Puts a 6581 SID (the default, a breadbin C64's) or an 8580 (a C64C's) in the socket.
    pub fn set_sid_model(&mut self, model: SidModel) {
        self.sid.set_model(model);
    }

    /// The lines the port drives into the PLA: output bits as written, input bits pulled
    /// up to 1 by the C64's resistors.
    pub fn port_lines(&self) -> u8 {
        self.port_data | !self.port_ddr
    }

    /// The value the CPU reads at $0001 at cycle `now`, as VICE models the C64's 6510:
    /// output bits as written; input bits 0-2 and 4 pulled up (bit 4 is the cassette sense:
    /// 1, no button pressed), bit 5 (the motor line) 0, bit 3 the level it last drove, and
    /// bits 6 and 7 their fading charge.
    pub fn port_read_value(&self, now: u64) -> u8 {
        let (data, dir) = (self.port_data, self.port_ddr);
        let mut v = (data | !dir) & (self.port_out | PORT_PULLUPS);
        if dir & 0x20 == 0 {
            v &= !0x20;
        }
        for (bit, charge) in PORT_FLOATING.iter().zip(&self.port_charge) {
            if dir & bit == 0 {
                v &= !bit;
                if now <= charge.until {
                    v |= charge.value;
                }
            }
        }
        v
    }

    /// The first cycle at which a floating input bit's charge is gone (u64::MAX: none
    /// fades), so the mirror of $0001 in RAM can be brought up to date then.
    fn port_fades_at(&self) -> u64 {
        PORT_FLOATING
            .iter()
            .zip(&self.port_charge)
            .filter(|(bit, c)| self.port_ddr & **bit == 0 && c.value != 0)
            .map(|(_, c)| c.until.saturating_add(1))
            .min()
            .unwrap_or(u64::MAX)
    }

    /// A write to the port's data direction (`ddr`) or data register: a floating bit that
    /// stops driving keeps its level as a charge; one still driving renews it.
    fn port_write(&mut self, ddr: u8, data: u8, now: u64) {
        for (i, bit) in PORT_FLOATING.iter().enumerate() {
            let was_output = self.port_ddr & bit != 0;
            let driving = ddr & bit != 0;
            if driving || was_output {
                // Still driving (the written level), or just released (the level it drove).
                let level = if driving { data } else { self.port_data };
                self.port_charge[i] = PortCharge {
                    value: level & bit,
                    until: now + PORT_FALL_OFF_CYCLES,
                };
            }
        }
        self.port_ddr = ddr;
        self.port_data = data;
        self.port_out = (self.port_out & !ddr) | (data & ddr);
        self.update_map();
    }

    pub fn port_ddr(&self) -> u8 {
        self.port_ddr
    }

    /// Recomputes the banking after a port write. The port's two registers are mirrored
    /// into RAM $0000/$0001 (which the CPU can never read otherwise), so that reads of the
    /// zero page need no special case on the fast path.
    fn update_map(&mut self) {
        self.read_map = pla::read_map(pla::Lines::from_port(self.port_lines()));
        self.ram[0] = self.port_ddr;
        self.ram[1] = self.port_read_value(self.now);
        self.ram_readable = 0;
        self.rom_readable = 0;
        self.pla_writable = 0;
        for (r, region) in self.read_map.iter().enumerate() {
            if *region == Region::Ram {
                self.ram_readable |= 1 << r;
            }
            if rom_image(&self.roms, *region).is_some() {
                self.rom_readable |= 1 << r;
            }
            if !matches!(region, Region::Io | Region::Open) {
                self.pla_writable |= 1 << r;
            }
        }
        self.ram_writable = self.pla_writable & !self.vic_watch;
    }

    /// Brings the VIC-II's fetching and drawing up to cycle `now`.
    fn catch_up_vic(&mut self, now: u64) {
        self.settle_vic_bank(now);
        self.with_vic_memory(|vic, mem| vic.run_to(now, mem));
    }

    /// Ends a lag of the glue logic that is over by cycle `now`: the VIC-II first runs up to
    /// its last cycle on the bank it saw then.
    fn settle_vic_bank(&mut self, now: u64) {
        if let Some((until, _)) = self.vic_bank_until {
            if now > until {
                self.with_vic_memory(|vic, mem| vic.run_to(until, mem));
                self.vic_bank_until = None;
                self.update_vic_watch();
            }
        }
    }

    /// Runs `f` on the VIC-II and memory as it sees it: the RAM under the port at $0000/$0001.
    fn with_vic_memory<R>(&mut self, f: impl FnOnce(&mut Vic, &VicMemory) -> R) -> R {
        self.settle_port_fetch();
        self.swap_ram_under_port();
        let mem = vic_memory!(self);
        let result = f(&mut self.vic, &mem);
        self.swap_ram_under_port();
        result
    }

    fn swap_ram_under_port(&mut self) {
        for (cell, under) in self.ram.iter_mut().zip(&mut self.ram_under_port) {
            std::mem::swap(cell, under);
        }
    }

    /// RAM $0000 and $0001 under the port, which only the VIC-II can read.
    pub fn ram_under_port(&self) -> [u8; 2] {
        let mut cells = self.ram_under_port;
        if let Some((cell, value)) = self.port_fetch_on(&mut self.vic.clone()) {
            cells[cell] = value;
        }
        cells
    }

    /// A write to the port at `now`: the RAM under cell `cell` takes the byte the VIC-II
    /// fetched in this cycle's phi1 (see `write_at`). While the chip keeps only its counters,
    /// working that out steps it up to now cycle by cycle, and Commodore's KERNAL writes $01
    /// in every interrupt (60 times a second). So the cell waits, with a copy of the memory
    /// the chip sees now, until something brings the chip up to date anyway
    /// (`settle_port_fetch`: the same steps, the same result). A second write to the same
    /// cell drops the first if nothing can tell: the chip reads neither cell (in its bank,
    /// the pages its fetches may read), and a whole bad line in between fetched its video
    /// matrix anew (a chip that keeps its counters reads no other memory).
    fn port_cell_written(&mut self, cell: usize, now: u64) {
        self.settle_vic_bank(now);
        let behind = now.saturating_sub(self.vic.drawn_until());
        if self.vic.reads_memory() || behind <= PORT_FETCH_AT_ONCE || !self.defer_port_fetches {
            let bus = self.with_vic_memory(|vic, mem| vic.phi1_bus(now, mem));
            self.ram_under_port[cell] = bus;
            return;
        }
        // The pages a chip that keeps its counters may read until its registers or bank
        // change (every change settles first): the only memory to keep.
        let bank = self.cia2.vic_bank();
        let start = usize::from(bank) * 0x4000;
        let pages = self
            .vic
            .pages_read_by_counters(bank, &self.ram[start..start + 0x4000]);
        let read = pages.every_line | pages.bad_lines;
        if let Some((at, waiting)) = self.port_fetch.as_ref().and_then(|p| p.waiting) {
            let unseen = bank != 0 || read & 1 == 0;
            if !(waiting == cell && unseen && self.vic.matrix_fetched_anew(at, now)) {
                self.settle_port_fetch();
            }
        }
        let p = self.port_fetch.get_or_insert_with(|| {
            Box::new(PortFetch {
                waiting: None,
                ram: Box::new([0; 0x10000]),
                colour: Box::new([0; 0x400]),
                bank: 0,
            })
        });
        for page in (0..64).filter(|page| read >> page & 1 != 0) {
            let at = start + page * 0x100;
            p.ram[at..at + 0x100].copy_from_slice(&self.ram[at..at + 0x100]);
        }
        p.ram[..2].copy_from_slice(&self.ram_under_port);
        p.colour.copy_from_slice(&self.colour[..]);
        p.bank = bank;
        p.waiting = Some((now, cell));
    }

    /// Whether port writes may wait for the VIC-II (see `port_cell_written`; on by default,
    /// off only to test that it changes nothing).
    #[doc(hidden)]
    pub fn set_port_fetch_deferral(&mut self, on: bool) {
        self.settle_port_fetch();
        self.defer_port_fetches = on;
    }

    /// The waiting port write's cell and byte, worked out on `vic` (the chip, or a copy of
    /// it), which it brings up to the write's cycle.
    fn port_fetch_on(&self, vic: &mut Vic) -> Option<(usize, u8)> {
        let p = self.port_fetch.as_ref()?;
        let (at, cell) = p.waiting?;
        Some((cell, vic.phi1_bus(at, &p.memory(&self.roms.chargen))))
    }

    /// The waiting port write, if any, takes its byte: the VIC-II is brought up to its cycle
    /// on the memory it saw then. Called before anything brings the chip up to date, reads or
    /// writes its registers, or changes its bank.
    fn settle_port_fetch(&mut self) {
        let Some(p) = self.port_fetch.as_mut() else {
            return;
        };
        let Some((at, cell)) = p.waiting.take() else {
            return;
        };
        self.ram_under_port[cell] = self.vic.phi1_bus(at, &p.memory(&self.roms.chargen));
    }

    /// Which RAM writes the VIC-II must see first: those to the pages of its bank it may
    /// fetch, while it fetches every cycle.
    fn update_vic_watch(&mut self) {
        self.vic_pages = FetchedPages::default();
        self.vic_watch = 0;
        if self.vic.reads_memory() {
            // While the glue logic lags, the bank it shows now and the port's next.
            let lagging = self.vic_bank_until.map(|(_, bank)| bank);
            for bank in lagging.into_iter().chain([self.cia2.vic_bank()]) {
                let base = usize::from(Vic::bank_base(bank));
                let read = self.vic.pages_read(bank, &self.ram[base..base + 0x4000]);
                self.vic_pages.every_line |= read.every_line;
                self.vic_pages.bad_lines |= read.bad_lines;
                let pages = read.every_line | read.bad_lines;
                for region in 0..4 {
                    if pages >> (16 * region) & 0xFFFF != 0 {
                        self.vic_watch |= 1 << (4 * usize::from(bank) + region);
                    }
                }
            }
        }
        self.ram_writable = self.pla_writable & !self.vic_watch;
    }

    /// From now on the VIC-II draws its picture.
    pub fn enable_picture(&mut self) {
        let now = self.now;
        self.catch_up_vic(now);
        self.vic.enable_picture();
        self.update_vic_watch();
    }

    /// The VIC-II's picture as drawn up to now.
    pub fn picture(&mut self) -> &Picture {
        let now = self.now;
        self.catch_up_vic(now);
        self.vic.picture()
    }

    /// The picture a frame would show if nothing changed from now on: a copy of the VIC-II
    /// draws from its state and today's memory up to the end of the next whole frame, without
    /// the CPU. The machine itself is untouched (its VIC-II may keep only its counters).
    pub fn still_picture(&self) -> Picture {
        let mut vic = self.vic.clone();
        let mut ram = self.ram.clone();
        ram[..2].copy_from_slice(&self.ram_under_port);
        if let Some((cell, value)) = self.port_fetch_on(&mut vic) {
            ram[cell] = value;
        }
        let mem = VicMemory {
            ram: &ram,
            ..vic_memory!(self)
        };
        // A lag of the glue logic ends after its cycle.
        if let Some((until, _)) = self.vic_bank_until {
            vic.run_to(until.min(self.now), &mem);
        }
        let mem = VicMemory {
            bank: self.cia2.vic_bank(),
            ..mem
        };
        vic.run_to(self.now, &mem);
        vic.enable_picture();
        // The rest of this frame sets up the drawing (a row's matrix is fetched on its bad
        // line); the whole frame after it is the picture.
        vic.run_to(
            self.vic.next_frame_start(self.now) + self.vic.cycles_per_frame(),
            &mem,
        );
        vic.picture().clone()
    }

    /// Which region answers a read at `addr` now.
    pub fn region(&self, addr: u16) -> Region {
        self.read_map[(addr >> 12) as usize]
    }

    /// A read with no side effects and no cycle (for traps, monitors, tests).
    pub fn peek(&self, addr: u16) -> u8 {
        match self.region(addr) {
            Region::Ram => self.ram[addr as usize],
            Region::BasicRom | Region::KernalRom | Region::CharRom => self.rom_view[addr as usize],
            Region::Io => self.peek_io(addr),
            Region::CartLo | Region::CartHi | Region::Open => OPEN_BUS,
        }
    }

    fn peek_io(&self, addr: u16) -> u8 {
        match addr {
            0xD000..=0xD3FF => self.vic.peek((addr & 0x3F) as u8, self.now),
            0xD400..=0xD7FF => self.sid.peek((addr & 0x1F) as u8, self.now),
            0xD800..=0xDBFF => self.colour_read(addr),
            0xDC00..=0xDCFF => {
                let register = (addr & 0x0F) as u8;
                let keys = self.input.matrix(self.now);
                if register < 2 && keys != self.cia1.keyboard_matrix() {
                    // The keys as they are now, without taking one.
                    let mut cia1 = self.cia1.clone();
                    cia1.set_keyboard_matrix(keys);
                    return cia1.peek(register, self.now);
                }
                self.cia1.peek(register, self.now)
            }
            0xDD00..=0xDDFF => self.cia2.peek((addr & 0x0F) as u8, self.now),
            _ => self.vic.peek_last_fetch(),
        }
    }

    /// Colour RAM has 4 bits; the upper nibble is not driven and reads as 1s here.
    fn colour_read(&self, addr: u16) -> u8 {
        self.colour[(addr & 0x3FF) as usize] | 0xF0
    }

    /// A write with no cycle, through the banking like a CPU write (for traps and loaders).
    pub fn poke(&mut self, addr: u16, value: u8) {
        let now = self.now;
        self.write_at(addr, value, now);
    }

    fn write_at(&mut self, addr: u16, value: u8, now: u64) {
        match addr {
            0 | 1 => {
                // The 6510 leaves the data bus undriven on a write to its port, but R/W is
                // low: the RAM under it takes the byte the VIC-II read in this cycle's phi1
                // (C. Bauer's VIC-II article on RAM addresses 0 and 1; M. Mäkelä on
                // cbm-hackers, 1998: "the same that would be read from $de00-$dfff").
                self.port_cell_written(usize::from(addr), now);
                if addr == 0 {
                    self.port_write(value, self.port_data, now);
                } else {
                    self.port_write(self.port_ddr, value, now);
                }
            }
            0xD000..=0xDFFF if self.read_map[0xD] == Region::Io => self.io_write(addr, value, now),
            _ => {
                let region = 1 << (addr >> 12);
                if self.pla_writable & region != 0 {
                    let page = (addr >> 8) & 0x3F;
                    let pages = self.vic_pages;
                    let fetched = self.vic_watch & region != 0
                        && (pages.every_line >> page & 1 != 0
                            || pages.bad_lines >> page & 1 != 0 && self.vic.matrix_fetch_due(now));
                    if fetched {
                        self.catch_up_vic(now);
                    }
                    self.ram[addr as usize] = value;
                    if fetched {
                        // The write may have moved a sprite pointer.
                        self.update_vic_watch();
                    }
                }
            }
        }
    }

    /// A read of a region that is not plain RAM.
    fn read_banked(&mut self, addr: u16) -> u8 {
        match self.read_map[(addr >> 12) as usize] {
            Region::Ram => self.ram[addr as usize],
            Region::KernalRom | Region::BasicRom | Region::CharRom => self.rom_view[addr as usize],
            Region::Io => self.io_read(addr),
            Region::CartLo | Region::CartHi | Region::Open => OPEN_BUS,
        }
    }

    /// From now on the direct path starts no instruction in these pages (a bit per page:
    /// bit p % 64 of word p / 64), or only none at the addresses `at` lists, so the run loop
    /// sees each one before it runs.
    pub(crate) fn watch_pages(&mut self, pages: [u64; 4], at: Option<&[u16]>) {
        self.watched = pages;
        self.watch_exact = at.is_some();
        self.watched_at.clear();
        self.watched_at.extend_from_slice(at.unwrap_or_default());
    }

    /// Whether the instruction at `pc` is one the direct path leaves to the run loop because
    /// `watch_pages` names it (the others it hands back for I/O, interrupts or BA).
    pub(crate) fn watches(&self, pc: u16) -> bool {
        self.watched[pc as usize >> 14] >> ((pc >> 8) & 63) & 1 != 0
            && (!self.watch_exact || self.watched_at.contains(&pc))
    }

    /// From now on the direct path makes no write to this page (`None`: none guarded): each
    /// one is an exact step, after which the run loop can look at the page.
    pub(crate) fn guard_writes(&mut self, page: Option<u8>) {
        self.write_guard = page;
    }

    fn io_read(&mut self, addr: u16) -> u8 {
        let now = self.now;
        // Reads of the SID, colour RAM and most VIC-II registers change no interrupt line
        // (raster polling loops read $D012 every few cycles).
        let quiet = match addr {
            0xD000..=0xD3FF => !Vic::read_affects_interrupts(addr as u8),
            0xD400..=0xDBFF => true,
            _ => false,
        };
        if !quiet {
            self.next_interrupt_check = now;
            self.touched |= source_at(addr);
        }
        match addr {
            0xD000..=0xD3FF => {
                self.settle_port_fetch();
                if self.vic.read_needs_raster(addr as u8) {
                    self.catch_up_vic(now);
                }
                self.vic.read((addr & 0x3F) as u8, now)
            }
            0xD400..=0xD7FF => self.sid.read((addr & 0x1F) as u8, now),
            0xD800..=0xDBFF => self.colour_read(addr),
            0xDC00..=0xDCFF => {
                let register = (addr & 0x0F) as u8;
                if register < 2 {
                    self.keyboard_lines(register, now);
                }
                self.cia1.read(register, now)
            }
            0xDD00..=0xDDFF => {
                let register = (addr & 0x0F) as u8;
                if register == 0 {
                    self.serial_bus_inputs();
                }
                // An ICR read on the cycle CIA 2 raises its interrupt ends a one-cycle NMI
                // pulse: latch the edge before the read releases the line (an IRQ that
                // short is rightly never taken, so only the NMI needs this).
                let asserted = self.sample_cia2(now);
                self.set_nmi_level(asserted || self.restore_pressed);
                self.cia2.read(register, now)
            }
            // Nothing drives the data bus in phi2: it keeps what the VIC-II fetched in phi1.
            _ => {
                // Worked out exactly even while the chip keeps only its counters (the first
                // such read): from then on it fetches every cycle.
                self.settle_vic_bank(now);
                let value = self.with_vic_memory(|vic, mem| {
                    let value = vic.phi1_bus(now, mem);
                    vic.last_fetch();
                    value
                });
                self.update_vic_watch();
                value
            }
        }
    }

    /// The keys down as CIA 1's port `register` (0 = A, 1 = B) is read at `now`. A read of
    /// one port while a line of the other is low (driven by the CIA or a joystick) scans the
    /// matrix, which may press the script's next key ([`InputQueue::scan`]).
    fn keyboard_lines(&mut self, register: u8, now: u64) {
        self.cia1.set_keyboard_matrix([0; 8]);
        let other = if register == 1 {
            self.cia1.port_a_pins()
        } else {
            self.cia1.port_b_pins()
        };
        let keys = if other != 0xFF {
            // Commodore's KERNAL scans the keyboard in every system IRQ, asked or not: a
            // `{WAITINPUT}` waits for the program to ask it for a key (`real_kernal`).
            let asks = self.ram[NDX as usize] == 0 && self.roms.trap_kernal;
            // Its scan drops a key typed with NDX at XMAX (the buffer full): the scripted
            // typist waits for room instead (README, "Commodore's ROMs"). A program that
            // reads the matrix itself (code outside the KERNAL ROM) takes the key from
            // there, whatever the buffer holds: the typist goes on for it.
            let kernal_scan = self.region(self.instruction_at) == Region::KernalRom;
            let room = self.roms.trap_kernal
                || !kernal_scan
                || self.ram[NDX as usize] < self.ram[XMAX as usize];
            self.input.scan(now, asks, room)
        } else {
            self.input.matrix(now)
        };
        self.cia1.set_keyboard_matrix(keys);
    }

    /// The serial bus as CIA 2's port A reads it: CLK IN (PA6) and DATA IN (PA7) see the bus
    /// lines, which the C64's own CLK OUT (PA4) and DATA OUT (PA5) pull low through the 7406
    /// inverters while those pins are high (an input pin floats high: with DDR $00, $DD00
    /// reads $3F). Nothing else is on the bus: drive 8 is c64kit's trap device.
    fn serial_bus_inputs(&mut self) {
        let pins = self.cia2.port_a_pins();
        let mut lines = 0xFF;
        if pins & 0x10 != 0 {
            lines &= !0x40;
        }
        if pins & 0x20 != 0 {
            lines &= !0x80;
        }
        self.cia2.set_port_a_input(lines);
    }

    fn io_write(&mut self, addr: u16, value: u8, now: u64) {
        self.next_interrupt_check = now;
        self.touched |= source_at(addr);
        match addr {
            0xD000..=0xD3FF => {
                self.settle_port_fetch();
                let reg = (addr & 0x3F) as u8;
                if self.vic.access_needs_raster(reg) {
                    self.catch_up_vic(now);
                }
                self.vic.write(reg, value, now);
                self.update_vic_watch();
                if Vic::claims_bus(reg) {
                    // The write may start or end a bad line or a sprite's DMA.
                    self.ba_check_at = self.vic.next_ba_low(now + 1);
                }
            }
            DEBUG_CART_REGISTER if self.debug_cart => {
                self.debug_cart_value.get_or_insert(value);
            }
            0xD400..=0xD7FF => self.sid.write((addr & 0x1F) as u8, value, now),
            0xD800..=0xDBFF => {
                if self.vic_watch != 0 && self.vic.matrix_fetch_due(now) {
                    self.catch_up_vic(now);
                }
                self.colour[(addr & 0x3FF) as usize] = value & 0x0F;
            }
            0xDC00..=0xDCFF => {
                self.cia1.write((addr & 0x0F) as u8, value, now);
                self.update_light_pen();
                if self.pot_ports != [[None; 2]; 2] {
                    self.update_pots();
                }
            }
            0xDD00..=0xDDFF => {
                // Port A chooses the VIC's bank.
                self.catch_up_vic(now);
                let register = (addr & 0x0F) as u8;
                let (old, old_ddr) = (self.cia2.vic_bank(), self.cia2.peek(0x02, now));
                self.cia2.write(register, value, now);
                let new = self.cia2.vic_bank();
                if self.glue == GlueLogic::CustomIc && new != old {
                    // The cycle after the write still shows the lag (VICE's c64gluelogic.c).
                    let ddr_write = register == 0x02 && value != old_ddr;
                    if old ^ new == 3 && (new == 1 || new == 2) {
                        self.vic_bank_until = Some((now + 1, 3));
                    } else if ddr_write && new < old && old ^ new != 3 {
                        self.vic_bank_until = Some((now + 1, old));
                    }
                }
                self.update_vic_watch();
            }
            _ => {}
        }
    }

    /// A read of `addr` in cycle `now` finds BA low or may: it completes in the first cycle
    /// BA is high (the CPU waits, RDY low), and the next check is set at the next BA fall.
    #[cold]
    fn wait_for_bus(&mut self, addr: u16) {
        let free = self.vic.bus_free_from(self.now);
        if free > self.now {
            if self.vic.reads_memory() {
                // While the CPU waits, its read is on the bus in every phi2: the VIC-II's
                // matrix fetches in the cycles after BA fell (the CPU still has the bus)
                // read it.
                if self.vic.bus_values_full() {
                    self.catch_up_vic(self.now - 1);
                }
                let value = self.peek(addr);
                self.vic.cpu_bus_from(self.now, value);
            }
            // The interrupt lines as the wait's last cycle leaves them (the CPU may ask).
            self.now = free - 1;
            if self.now >= self.next_interrupt_check {
                self.update_interrupts();
            }
            self.now = free;
            self.stalls += 1;
        }
        self.ba_check_at = self.vic.next_ba_low(self.now + 1);
    }

    /// The CPU spends `cycles` cycles in a routine c64kit runs in Rust (a KERNAL trap) as
    /// reads of `addr`, so the VIC-II's bad lines and sprite fetches hold it up as they
    /// would the real routine (a read waits while BA is low; the real code's writes, at most
    /// 3 in a row, would go on, so a wait may start up to 3 cycles early). Computed per BA
    /// window, not per cycle. Interrupt lines that change meanwhile are seen at the next
    /// poll, after the trap, as with a real routine run with I set.
    pub fn spend_cpu_cycles(&mut self, mut cycles: u64, addr: u16) {
        while cycles > 0 {
            // Reads before `ba_check_at` need no look at BA.
            let free = self.ba_check_at.saturating_sub(self.now + 1);
            if cycles <= free {
                self.now += cycles;
                return;
            }
            self.now += free + 1;
            cycles -= free + 1;
            self.wait_for_bus(addr);
        }
    }

    /// Like `spend_cpu_cycles`, but stops early, at the first cycle an interrupt would be
    /// taken (the IRQ line asserted while `irq_enabled`, or an NMI edge), so the CPU can
    /// take it as it would in the real routine's code. Returns the cycles left to spend.
    pub fn spend_cpu_cycles_until_interrupt(
        &mut self,
        mut cycles: u64,
        addr: u16,
        irq_enabled: bool,
    ) -> u64 {
        while cycles > 0 {
            if self.now >= self.next_interrupt_check {
                self.update_interrupts();
            }
            if (self.lines.irq && irq_enabled) || self.lines.nmi_edge {
                return cycles;
            }
            let step = cycles.min(self.next_interrupt_check.saturating_sub(self.now).max(1));
            self.spend_cpu_cycles(step, addr);
            cycles -= step;
        }
        0
    }

    /// The interrupt lines as last computed, for the CPU: an NMI edge is reported once.
    #[inline(always)]
    fn take_lines(&mut self) -> Interrupts {
        let lines = self.lines;
        self.lines.nmi_edge = false;
        lines
    }

    /// The last cycle up to which the CPU may run on its own: interrupt lines quiet and no
    /// read meeting BA low.
    fn quiet_until(&self) -> u64 {
        self.next_interrupt_check
            .min(self.ba_check_at.saturating_sub(1))
    }

    /// `direct_memory`'s recomputation of the lines (kept out of its hot path): true if the
    /// CPU may now run on its own.
    #[cold]
    #[inline(never)]
    fn update_interrupts_early(&mut self) -> bool {
        if self.now < self.next_interrupt_check {
            // A read would meet BA low.
            return false;
        }
        self.update_interrupts();
        self.now < self.quiet_until()
    }

    /// Recomputes the interrupt lines from the chips and when they can next change.
    fn update_interrupts(&mut self) {
        let now = self.now;
        // A source's output cannot change before `changes_at` unless it was touched.
        macro_rules! refresh {
            ($i:expr, $bit:expr, $chip:ident) => {
                if self.touched & $bit != 0 || now >= self.sources[$i].changes_at {
                    self.sources[$i] = Source {
                        asserted: self.$chip.irq(now),
                        changes_at: self.$chip.next_event(),
                    };
                }
            };
        }
        refresh!(0, CIA1, cia1);
        if self.touched & CIA2 != 0 || now >= self.sources[1].changes_at {
            self.sources[1] = Source {
                asserted: self.sample_cia2(now),
                changes_at: self.cia2.next_event(),
            };
        }
        if (self.touched & VIC != 0 || now >= self.sources[2].changes_at)
            && self.vic.reads_memory()
            && self.vic.collision_interrupts()
        {
            // A collision may have raised the VIC's interrupt.
            self.catch_up_vic(now);
        }
        refresh!(2, VIC, vic);
        self.touched = 0;
        let [cia1, cia2, vic] = self.sources;
        self.lines.irq = cia1.asserted || vic.asserted;
        self.set_nmi_level(cia2.asserted || self.restore_pressed);
        // The mirror of $0001 in RAM (what every read of it sees) follows a fading charge.
        let mut fade = self.port_fades_at();
        if now >= fade {
            for c in &mut self.port_charge {
                if now > c.until {
                    c.value = 0;
                }
            }
            self.ram[1] = self.port_read_value(now);
            fade = self.port_fades_at();
        }
        self.next_interrupt_check = cia1
            .changes_at
            .min(cia2.changes_at)
            .min(vic.changes_at)
            .min(fade.max(now + 1));
        if self.restore_pressed {
            self.next_interrupt_check = now;
        }
    }

    /// CIA 2's interrupt output at `now`; an assertion since the last look that the line's
    /// level cannot show (released and asserted again in between, as a 6526A acknowledged
    /// in the cycle before its timer's next underflow does) is an NMI edge all the same,
    /// unless RESTORE holds the line.
    fn sample_cia2(&mut self, now: u64) -> bool {
        let asserted = self.cia2.irq(now);
        let edges = self.cia2.interrupt_edges(now);
        if edges != self.cia2_edges && !self.restore_pressed {
            self.lines.nmi_edge = true;
        }
        self.cia2_edges = edges;
        asserted
    }

    /// The NMI line's level now: a rise is an edge the CPU takes (NMI is edge-triggered).
    fn set_nmi_level(&mut self, level: bool) {
        if level && !self.nmi_level {
            self.lines.nmi_edge = true;
        }
        self.nmi_level = level;
    }

    /// Forces the interrupt lines to be recomputed at the next poll (after a trap changed
    /// chip state behind the bus's back).
    /// The light pen line follows CIA 1's PB4 (driven by the CIA, or joystick 1's fire):
    /// the VIC-II sees its edges. Call after a CIA 1 write or a joystick change.
    pub fn update_light_pen(&mut self) {
        let low = self.cia1.port_b_pins() & LIGHT_PEN_PB4 == 0;
        if low != self.light_pen_low {
            self.light_pen_low = low;
            self.vic.set_light_pen(low, self.now);
            self.next_interrupt_check = self.now;
            self.touched |= VIC;
        }
    }

    /// Plugs these POT X / POT Y inputs into control ports 1 and 2 from now on.
    pub fn set_pot_ports(&mut self, ports: [[PotInput; 2]; 2]) {
        if ports != self.pot_ports {
            self.pot_ports = ports;
            self.update_pots();
        }
    }

    /// The SID's POT pins see the pair CIA 1's port A pins select (through the C64's 4066
    /// switch). Call after a CIA 1 write or a change of what is plugged in.
    fn update_pots(&mut self) {
        let inputs = c64_pot_inputs(self.cia1.port_a_pins(), self.pot_ports);
        self.sid.set_pot_inputs(inputs, self.now);
    }

    pub fn interrupts_changed(&mut self) {
        self.next_interrupt_check = self.now;
        self.touched = ALL_SOURCES;
    }
}

impl Bus for C64Bus {
    #[inline(always)]
    fn read(&mut self, addr: u16) -> u8 {
        self.now += 1;
        if self.now >= self.ba_check_at {
            self.wait_for_bus(addr);
        }
        if self.ram_readable & (1 << (addr >> 12)) != 0 {
            self.ram[addr as usize]
        } else {
            self.read_banked(addr)
        }
    }

    #[inline(always)]
    fn write(&mut self, addr: u16, value: u8) {
        self.now += 1;
        if addr > 1 && self.ram_writable & (1 << (addr >> 12)) != 0 {
            self.ram[addr as usize] = value;
        } else {
            let now = self.now;
            self.write_at(addr, value, now);
        }
    }

    #[inline(always)]
    fn poll_interrupts(&mut self) -> Interrupts {
        if self.now >= self.next_interrupt_check {
            self.update_interrupts();
        }
        self.take_lines()
    }

    fn nmi_line(&mut self) -> bool {
        self.nmi_level
    }

    fn stall_count(&self) -> u64 {
        self.stalls
    }

    /// The lines `wait_for_bus` computed for the wait's last cycle.
    fn poll_interrupts_after_stall(&mut self) -> Interrupts {
        self.take_lines()
    }

    /// RAM and ROM for the CPU's direct path while the interrupt lines are known not to
    /// change: the banking says which regions are plain RAM and which ROM (whose writes go
    /// to the RAM under it, as the PLA has them); $0000/$0001 are the port.
    #[inline(always)]
    fn direct_memory(&mut self) -> Option<DirectMemory<'_>> {
        // An I/O access asks for the lines to be recomputed (`next_interrupt_check` = its
        // cycle): do it now, as the next instruction's poll would, instead of leaving that
        // instruction to the cycle-by-cycle path as well (the KERNAL's keyboard scan and
        // IRQ handler are I/O accesses one instruction apart). The lines it finds hold until
        // the next check it sets, which is all the direct path needs.
        if self.now >= self.quiet_until() && !self.update_interrupts_early() {
            return None;
        }
        if self.lines.nmi_edge {
            return None;
        }
        let quiet_until = self.quiet_until();
        Some(DirectMemory {
            ram: &mut self.ram,
            rom: Some(&self.rom_view),
            readable: self.ram_readable,
            rom_readable: self.rom_readable,
            writable: self.ram_writable,
            write_floor: 2,
            write_guard: self.write_guard,
            watched: self.watched,
            watched_at: self.watch_exact.then_some(&self.watched_at[..]),
            cycles: &mut self.now,
            quiet_until,
            irq: self.lines.irq,
        })
    }
}
