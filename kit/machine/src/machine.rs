//! The C64 as a library: load a program, feed keys, run until something stops it, look at
//! memory, the screen and the transcript. The CLI and the conformance suite are thin layers
//! over this.

use crate::basic_run::CHRIN_ENTRY;
use crate::boot;
use crate::input::PortDevice;
use crate::kernal::rom::{CINV, NMINV, RAM_VECTORS};
use crate::kernal::{serial, Kernal, Trap, TrapOutcome};
use crate::loader::Prg;
use crate::memory::C64Bus;
use crate::pla::Region;
use crate::roms::Roms;
use crate::start::{basic_start, StartError};
use crate::stop::StopReason;
use c64kit_basic::KeyEvent;
use c64kit_chips::VicModel;
use c64kit_cpu::{flag, Cpu, IRQ_VECTOR, NMI_VECTOR};

/// PAL C64 clock: cycles per second (the chips crate keeps the fact).
pub const PAL_HZ: u64 = c64kit_chips::PAL_CYCLES_PER_SECOND;

pub struct Machine {
    pub cpu: Cpu,
    pub bus: C64Bus,
    pub kernal: Kernal,
    /// One bit per address; checked only when any is set.
    breakpoints: Vec<u64>,
    any_breakpoint: bool,
    /// Stop when an instruction jumps to itself and no interrupt could ever take the CPU
    /// out of it (see [`Machine::nothing_can_leave`]).
    pub stop_on_stuck_loop: bool,
    /// Count instructions in `instructions` (uses the slower checking loop).
    pub count_instructions: bool,
    /// Let the CPU run instructions straight on RAM wherever no device could tell
    /// (`c64kit_cpu::DirectMemory`): the same run, several times faster. Off, every
    /// instruction goes cycle by cycle through the bus (the reference the direct path is
    /// tested against).
    pub direct_path: bool,
    /// Instructions run so far (counted only by the checking loop; see `run`).
    pub instructions: u64,
    /// The run stopped at a breakpoint here: the next `run` steps over it.
    at_breakpoint: bool,
    /// Receives one line per instruction, in the format of VICE's monitor, when set.
    pub trace: Option<Box<dyn std::io::Write>>,
    /// Why the trace stopped, if writing it failed (a full disk): tracing ends there and
    /// [`Machine::finish_trace`] reports it.
    trace_error: Option<std::io::Error>,
    /// A BASIC program runs on a real KERNAL image, whose CHRIN is no trap: the checking
    /// loop watches CHRIN's entry for BASIC back at `READY.` (see `basic_run`).
    pub(crate) basic_end_watch: bool,
    /// A routine called on its own ([`Machine::sys`]) on a real KERNAL image, which has
    /// no return trap: its RTS into BASIC's SYS, with the stack pointer here, ends the run.
    call_return: Option<u8>,
    /// The addresses the real KERNAL's watch looks at, with the vectors they came from.
    pub(crate) real_targets: crate::real_kernal::RealKernalTargets,
    /// GETIN's entry is among the watched addresses (`Machine::getin_watch_needed`).
    getin_watched: bool,
}

impl Machine {
    /// A powered-on PAL C64 with the given ROMs, KERNAL initialised, screen cleared.
    pub fn new(roms: Roms) -> Self {
        Self::with_vic(roms, VicModel::Mos6569)
    }

    /// [`Machine::new`] with a `vic` VIC-II (which also decides the clock and the mains
    /// frequency: an NTSC chip makes an NTSC C64).
    pub fn with_vic(roms: Roms, vic: VicModel) -> Self {
        let mut m = Self::without_power_on(roms, vic);
        boot::power_on(&mut m.bus, &mut m.kernal);
        m
    }

    /// The machine before the KERNAL's reset has run (the caller does it).
    pub(crate) fn without_power_on(roms: Roms, vic: VicModel) -> Self {
        let mut m = Machine {
            cpu: Cpu::new(),
            bus: C64Bus::with_vic(roms, vic),
            kernal: Kernal::new(),
            breakpoints: vec![0; 0x10000 / 64],
            any_breakpoint: false,
            stop_on_stuck_loop: false,
            count_instructions: false,
            direct_path: true,
            instructions: 0,
            at_breakpoint: false,
            trace: None,
            trace_error: None,
            basic_end_watch: false,
            call_return: None,
            real_targets: crate::real_kernal::RealKernalTargets::new(),
            getin_watched: false,
        };
        // BASIC back at READY. with the script used up ends a run, as a return to BASIC
        // does: our KERNAL's CHRIN sees it at no cost; on a real KERNAL the run loop
        // watches for it (`real_kernal`).
        if m.bus.roms.runs_basic() {
            m.watch_basic_end();
        }
        m
    }

    /// With our built-in ROM set (no Commodore ROM images).
    pub fn builtin() -> Self {
        Self::new(Roms::builtin())
    }

    /// Places a PRG in RAM (under any ROM, as LOAD does).
    pub fn load_prg(&mut self, prg: &Prg) {
        self.load_raw(prg.load_address, &prg.data);
    }

    /// Places raw bytes at `addr` (wrapping at $FFFF).
    pub fn load_raw(&mut self, addr: u16, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            self.bus.ram[addr.wrapping_add(i as u16) as usize] = *b;
        }
    }

    /// LOAD, then the routine the BASIC stub's SYS names, called with the machine as RUN
    /// leaves it at that SYS: its RTS ends the run, "returned to BASIC" (as
    /// [`Machine::start_at`]; [`Machine::start`] RUNs a program, where the RTS goes back into
    /// BASIC). Errors if RUN would not go straight to a SYS, saying why.
    pub fn load_and_run_prg(&mut self, prg: &Prg) -> Result<u16, StartError> {
        self.load_prg(prg);
        self.run_loaded_prg(prg, false)
    }

    /// RUN for a program already loaded: the SYS its first statement makes, with its argument
    /// evaluated against memory as RUN leaves it (`SYS PEEK(43)+256*PEEK(44)+26` works); the
    /// routine's RTS goes back into BASIC (`into_basic`) or ends the call.
    pub(crate) fn run_loaded_prg(
        &mut self,
        prg: &Prg,
        into_basic: bool,
    ) -> Result<u16, StartError> {
        let end = prg.end_address();
        boot::set_run_pointers(&mut self.bus, end);
        let bus = &self.bus;
        let sys = basic_start(prg, |a| bus.peek(a))?.address;
        boot::enter_sys(&mut self.cpu, &mut self.bus, sys, end, into_basic);
        Ok(sys)
    }

    /// Calls the routine at `addr` with the machine as RUN leaves it at a SYS: its RTS ends the
    /// run, "returned to BASIC" (on our KERNAL, through the trap at `rom::RETURN_FROM_CALL`;
    /// on a real KERNAL into BASIC's SYS, which goes on).
    pub fn start_at(&mut self, addr: u16, program_end: u16) {
        boot::enter_sys(&mut self.cpu, &mut self.bus, addr, program_end, false);
    }

    /// Calls a routine as BASIC's `SYS` does, with these A, X and Y (through SYS's save
    /// area): its RTS ends the run, which `run` reports as [`StopReason::ReturnedToBasic`]
    /// (on our KERNAL through [`Machine::start_at`]'s return trap; on a real KERNAL where
    /// the RTS lands in BASIC's SYS, at the stack depth the call left). `program_end` sets BASIC's variable pointers.
    pub fn sys(&mut self, addr: u16, a: u8, x: u8, y: u8, program_end: u16) {
        let regs = boot::SYS_REGISTERS as usize;
        self.bus.ram[regs..regs + 3].copy_from_slice(&[a, x, y]);
        self.start_at(addr, program_end);
        // A real KERNAL has no return trap: the RTS into BASIC's SYS ends the call.
        self.call_return =
            (!self.bus.roms.trap_kernal).then_some(boot::SYS_STACK_POINTER.wrapping_add(2));
    }

    pub fn feed_keys(&mut self, events: impl IntoIterator<Item = KeyEvent>) {
        self.bus.input.push_events(events);
    }

    pub fn set_breakpoint(&mut self, addr: u16) {
        self.breakpoints[addr as usize / 64] |= 1 << (addr % 64);
        self.any_breakpoint = true;
    }

    /// Removes every breakpoint.
    pub fn clear_breakpoints(&mut self) {
        self.breakpoints.fill(0);
        self.any_breakpoint = false;
        self.at_breakpoint = false;
    }

    fn is_breakpoint(&self, addr: u16) -> bool {
        self.breakpoints[addr as usize / 64] & (1 << (addr % 64)) != 0
    }

    /// Cycles since power-on.
    pub fn cycles(&self) -> u64 {
        self.bus.now
    }

    /// The VIC-II model (which decides the clock, the frame and the mains frequency).
    pub fn vic_model(&self) -> VicModel {
        self.bus.vic.model()
    }

    /// The CPU clock in Hz (985,248 on a PAL C64, 1,022,727 on an NTSC one).
    pub fn clock_hz(&self) -> u64 {
        self.vic_model().clock_hz()
    }

    /// Cycles per frame (19,656 on a PAL C64, 17,095 on a 6567R8's).
    pub fn cycles_per_frame(&self) -> u64 {
        self.vic_model().cycles_per_frame()
    }

    /// `cycles` of this machine in seconds of C64 time.
    pub fn seconds(&self, cycles: u64) -> f64 {
        cycles as f64 / self.clock_hz() as f64
    }

    /// Runs until a stop reason, or until `max_cycles` more cycles have passed.
    pub fn run(&mut self, max_cycles: u64) -> StopReason {
        let limit = self.bus.now.saturating_add(max_cycles);
        // Joystick holds start and end on their own cycles: run in slices up to each.
        while self.bus.input.has_joystick_work() {
            let next = self.advance_joysticks();
            // Behind a key the program has not taken yet: look again every frame.
            let until = next
                .unwrap_or(self.bus.now + self.cycles_per_frame())
                .clamp(self.bus.now + 1, limit.max(self.bus.now + 1));
            match self.run_to(until.min(limit)) {
                Some(stop) => return stop,
                None if self.bus.now >= limit => break,
                None => {}
            }
        }
        self.run_to(limit)
            .unwrap_or(StopReason::CycleBudget { budget: max_cycles })
    }

    /// Starts and ends the script's joystick and RESTORE holds due now: CIA 1 reads
    /// joystick 2 on port A ($DC00) and joystick 1 on port B ($DC01), pressed lines low;
    /// RESTORE pulls the NMI line (shared with CIA 2's interrupt; an edge is an NMI); the
    /// paddles and mouse reach the SID's POT pins.
    /// Returns when to look again.
    fn advance_joysticks(&mut self) -> Option<u64> {
        let next = self.bus.input.advance_joysticks(self.bus.now);
        let [port1, port2] = self.bus.input.joysticks();
        self.bus.cia1.set_port_b_input(!port1);
        self.bus.cia1.set_port_a_input(!port2);
        self.bus.update_light_pen();
        let pots = self.bus.input.devices().map(PortDevice::pot_inputs);
        self.bus.set_pot_ports(pots);
        let restore = self.bus.input.restore();
        if restore != self.bus.restore_pressed {
            self.bus.restore_pressed = restore;
            self.bus.interrupts_changed();
        }
        next
    }

    /// Runs until a stop reason, or until the cycle `limit` (`None`).
    fn run_to(&mut self, limit: u64) -> Option<StopReason> {
        loop {
            // Commodore's KERNAL is watched at addresses its RAM vectors name (`real_kernal`).
            let real_kernal = !self.bus.roms.trap_kernal;
            let watching = self.any_breakpoint
                || self.basic_end_watch
                || self.call_return.is_some()
                || real_kernal;
            let checked = self.count_instructions
                || self.trace.is_some()
                || (!self.direct_path && (watching || self.stop_on_stuck_loop));
            if checked {
                if let Some(stop) = self.run_checked(limit) {
                    return Some(stop);
                }
            } else if !self.direct_path {
                self.cpu.run_while(&mut self.bus, |bus| {
                    bus.now < limit && bus.debug_cart_value.is_none()
                });
            } else {
                // The hot loop: straight on RAM and ROM while the bus allows, else one exact
                // step. The direct path leaves every jump to itself to the exact step, so a
                // stuck loop is seen there; and every instruction in a watched page (a
                // breakpoint's, CHRIN's entry for the end of a BASIC program, the entries the
                // real KERNAL's vectors name), so the checks `run_checked` makes before each
                // instruction are made here before those. The vectors' writes are exact steps
                // too: after one, the pages their targets are in are watched.
                if watching {
                    self.watch_pages();
                } else {
                    self.bus.watch_pages([0; 4], None);
                }
                self.bus
                    .guard_writes(real_kernal.then_some(crate::real_kernal::VECTOR_PAGE));
                loop {
                    let before = self.bus.now;
                    self.cpu.run_direct(&mut self.bus, limit);
                    if self.bus.now != before {
                        // It ran the instructions after a breakpoint stopped at (never one
                        // in a watched page).
                        self.at_breakpoint = false;
                    }
                    if self.cpu.jammed || self.bus.now >= limit {
                        break;
                    }
                    let pc = self.cpu.pc;
                    // `stop_before` finds nothing elsewhere (most exact steps are I/O,
                    // interrupts and BA): the watched addresses are all it looks at.
                    if watching && self.bus.watches(pc) {
                        if let Some(stop) = self.stop_before(pc) {
                            return Some(stop);
                        }
                    }
                    self.bus.instruction_at = pc;
                    self.cpu.step(&mut self.bus);
                    if self.stop_on_stuck_loop && self.cpu.pc == pc && self.nothing_can_leave() {
                        return Some(StopReason::StuckLoop { pc });
                    }
                    if real_kernal
                        && (self.real_kernal_vectors_changed()
                            || self.getin_watched != self.getin_watch_needed())
                    {
                        self.watch_pages();
                    }
                    // I/O is never lent to the direct path: the write was this step's.
                    if self.bus.debug_cart_value.is_some() {
                        break;
                    }
                }
            }
            if let Some(value) = self.bus.debug_cart_value {
                return Some(StopReason::DebugCart { value });
            }
            if !self.cpu.jammed {
                return None;
            }
            if let Some(stop) = self.handle_jam() {
                return Some(stop);
            }
        }
    }

    /// Watches the pages of the breakpoints, of the entry the BASIC end watch looks at and of
    /// those the real KERNAL's watch looks at, for the direct path to leave to `stop_before`
    /// (see `C64Bus::watch_pages`): without breakpoints, only those entries in the pages.
    fn watch_pages(&mut self) {
        let mut pages = [0u64; 4];
        // CHRIN's entry, the real KERNAL's five, the end of a routine called on its own.
        let mut at = [CHRIN_ENTRY; 7];
        let mut watch = |addr: u16| pages[addr as usize >> 14] |= 1 << ((addr >> 8) & 63);
        if self.basic_end_watch {
            watch(CHRIN_ENTRY);
        }
        if !self.bus.roms.trap_kernal {
            at[1..6].copy_from_slice(&self.real_kernal_targets());
            let getin = self.getin_watch_needed();
            if getin && !self.getin_watched {
                self.kernal.forget_idle_polls();
            }
            self.getin_watched = getin;
            if !getin {
                // Targets are [CHROUT, IERROR, GETIN, CHRIN, CHRIN_ENTRY] from at[1].
                at[3] = CHRIN_ENTRY;
            }
            at[..6].iter().copied().for_each(&mut watch);
        }
        if self.call_return.is_some() {
            at[6] = boot::SYS_RETURN;
            watch(boot::SYS_RETURN);
        }
        if self.any_breakpoint {
            // `breakpoints` has a bit per address, 64 addresses a word: 4 words a page.
            for (page, words) in self.breakpoints.chunks(4).enumerate() {
                if words.iter().any(|w| *w != 0) {
                    watch((page as u16) << 8);
                }
            }
        }
        let exact = (!self.any_breakpoint).then_some(&at[..]);
        self.bus.watch_pages(pages, exact);
    }

    /// What stops a run before the instruction at `pc` (the CPU is there): a breakpoint not
    /// just stopped at, or BASIC back at `READY.` on a real KERNAL; there, what its CHROUT
    /// prints and BASIC's errors are noted, and a wait for a key nobody types ends the run.
    fn stop_before(&mut self, pc: u16) -> Option<StopReason> {
        if self.any_breakpoint && self.is_breakpoint(pc) && !self.at_breakpoint {
            self.at_breakpoint = true;
            return Some(StopReason::Breakpoint { pc });
        }
        self.at_breakpoint = false;
        if self
            .call_return
            .is_some_and(|s| pc == boot::SYS_RETURN && self.cpu.s == s)
        {
            // As our KERNAL's return trap ends a call.
            self.call_return = None;
            self.kernal.returned_status = Some(self.bus.ram[crate::kernal::vars::STATUS as usize]);
            return Some(StopReason::ReturnedToBasic);
        }
        if self.basic_end_watch && self.basic_program_ended() {
            return Some(self.kernal.ready_stop(&self.bus));
        }
        if !self.bus.roms.trap_kernal {
            return self.watch_real_kernal();
        }
        None
    }

    /// The slower loop that looks at every instruction: counting, tracing, breakpoints and
    /// stuck loops without the direct path.
    fn run_checked(&mut self, limit: u64) -> Option<StopReason> {
        while self.bus.now < limit && !self.cpu.jammed {
            let pc = self.cpu.pc;
            if let Some(stop) = self.stop_before(pc) {
                return Some(stop);
            }
            if self.trace.is_some() {
                self.trace_line();
            }
            self.bus.instruction_at = pc;
            self.cpu.step(&mut self.bus);
            self.instructions += 1;
            if self.stop_on_stuck_loop && self.cpu.pc == pc && self.nothing_can_leave() {
                return Some(StopReason::StuckLoop { pc });
            }
            if let Some(value) = self.bus.debug_cart_value {
                return Some(StopReason::DebugCart { value });
            }
        }
        None
    }

    /// Ends tracing: flushes the trace and says whether every line was written.
    pub fn finish_trace(&mut self) -> std::io::Result<()> {
        if let Some(mut out) = self.trace.take() {
            if let Err(e) = out.flush() {
                self.trace_error.get_or_insert(e);
            }
        }
        match self.trace_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The CPU sits in a one-instruction loop (`JMP *`, `BNE *`): can anything ever take it
    /// out? Only a handler of the program's own: an IRQ with I clear, or an NMI, that reaches
    /// the program's code (its own vector in RAM at $FFFE/$FFFA with the KERNAL banked out,
    /// or a changed $0314/$0318). The KERNAL's default handlers return to the loop, so a
    /// program that ends in `JMP *` stops, and one idling in `JMP *` while its raster
    /// interrupt does the work runs on.
    pub fn nothing_can_leave(&self) -> bool {
        if self.cpu.jammed {
            return false;
        }
        let irq_blocked = self.cpu.p() & flag::I != 0;
        (irq_blocked || kernal_handles(&self.bus, IRQ_VECTOR))
            && kernal_handles(&self.bus, NMI_VECTOR)
    }

    fn trace_line(&mut self) {
        let line = trace_line(&self.cpu, |a| self.bus.peek(a), self.bus.now);
        if let Some(out) = self.trace.as_mut() {
            if let Err(e) = out.write_all(line.as_bytes()) {
                self.trace = None;
                self.trace_error = Some(e);
            }
        }
    }

    /// A JAM: a KERNAL trap if the KERNAL image is ours, banked in, and has a routine there,
    /// or a serial-bus routine of a real KERNAL image (`kernal::serial`); otherwise the CPU
    /// really jammed.
    fn handle_jam(&mut self) -> Option<StopReason> {
        let pc = self.cpu.pc;
        let serial = match self.bus.region(pc) {
            Region::KernalRom if !self.bus.roms.trap_kernal => serial::Routine::at(pc),
            _ => None,
        };
        if let Some(routine) = serial {
            self.cpu.jammed = false;
            let outcome = self
                .kernal
                .serial_routine(routine, &mut self.cpu, &mut self.bus);
            return self.after_trap(outcome);
        }
        let trap = match self.bus.region(pc) {
            Region::KernalRom
                if self.bus.roms.trap_kernal && !self.bus.roms.is_own_basic_code(pc) =>
            {
                match Trap::at(pc) {
                    Some(t) => Some(t),
                    // Our image is JAM between its entries: the program called into the real
                    // KERNAL's internals, which c64kit does not have.
                    None => {
                        return Some(StopReason::Unimplemented {
                            routine: "(an internal KERNAL address, not a documented entry)",
                            pc,
                        })
                    }
                }
            }
            _ => None,
        };
        let Some(trap) = trap else {
            return Some(StopReason::Jammed {
                pc,
                opcode: self.bus.peek(pc),
            });
        };
        self.cpu.jammed = false;
        let outcome = self.kernal.run(trap, &mut self.cpu, &mut self.bus);
        self.after_trap(outcome)
    }

    /// Goes on after a trap as its outcome says.
    fn after_trap(&mut self, outcome: TrapOutcome) -> Option<StopReason> {
        match outcome {
            TrapOutcome::Return => {
                // RTS: pull the return address (6 cycles like the real instruction).
                let s = self.cpu.s;
                let lo = self.bus.ram[0x100 | s.wrapping_add(1) as usize];
                let hi = self.bus.ram[0x100 | s.wrapping_add(2) as usize];
                self.cpu.s = s.wrapping_add(2);
                self.cpu.pc = u16::from_le_bytes([lo, hi]).wrapping_add(1);
                self.bus.now += 6;
                None
            }
            TrapOutcome::ContinueAt(addr) => {
                self.cpu.pc = addr;
                None
            }
            TrapOutcome::Stop(reason) => {
                // Leave the CPU at the trap so a further `run` stops again the same way.
                self.cpu.jammed = true;
                Some(reason)
            }
        }
    }

    /// From now on the SID's sound is synthesised at `sample_rate` samples per second
    /// (mono); [`Machine::take_audio`] collects it. Errors name a rate out of range.
    pub fn start_audio(&mut self, sample_rate: u32) -> Result<(), String> {
        let now = self.bus.now;
        let clock = self.clock_hz();
        self.bus.sid.start_audio_clocked(sample_rate, clock, now)
    }

    /// Stops the SID's sound (samples not yet taken are dropped): the run goes on at the
    /// speed it has without audio.
    pub fn stop_audio(&mut self) {
        self.bus.sid.stop_audio();
    }

    /// Appends the sound made since the last call (signed 16-bit mono samples) to `out`.
    pub fn take_audio(&mut self, out: &mut Vec<i16>) {
        let now = self.bus.now;
        self.bus.sid.take_audio(now, out);
    }

    /// The VIC-II's picture as drawn up to now (384x272 palette indices, VICE's screenshot
    /// area). Drawing costs time, so the machine draws only after [`Machine::enable_picture`].
    pub fn picture(&mut self) -> &c64kit_chips::vic::Picture {
        self.bus.picture()
    }

    /// From now on the VIC-II draws its picture.
    pub fn enable_picture(&mut self) {
        self.bus.enable_picture();
    }

    /// The picture a whole frame would show if nothing changed from now on, drawn by a copy
    /// of the VIC-II without the CPU (so without the drawing cost during the run): exact for
    /// a still picture, without what a program changes during a frame (raster splits). The
    /// machine is untouched.
    pub fn still_picture(&self) -> c64kit_chips::vic::Picture {
        self.bus.still_picture()
    }

    /// The text matrix the VIC-II shows, with colours, cursor and character set.
    pub fn text_screen(&self) -> crate::TextScreen {
        crate::text_screen::TextScreen::of(self)
    }

    /// Everything printed so far, as PETSCII bytes.
    pub fn transcript(&self) -> &[u8] {
        &self.kernal.transcript
    }

    /// ST ($90) as the program left it when it returned to BASIC (`None`: it has not): a cc65
    /// program's exit code, the KERNAL's I/O status for other programs.
    pub fn returned_status(&self) -> Option<u8> {
        self.kernal.returned_status
    }

    /// For each byte of [`Machine::transcript`], the character set the VIC-II showed when it
    /// was printed: true for the lower/upper-case half of the character ROM (after CHR$(14),
    /// a POKE 53272,23 or SHIFT+C=), false for upper-case/graphics or a set in RAM.
    pub fn transcript_sets(&self) -> &[bool] {
        &self.kernal.transcript_sets
    }

    /// The 25 screen lines as text: the matrix the VIC-II shows, in the character set it
    /// shows ([`crate::TextScreen::rows`]).
    pub fn screen_text(&mut self) -> Vec<String> {
        self.text_screen().rows()
    }

    /// A CPU-view read without side effects.
    pub fn peek(&self, addr: u16) -> u8 {
        self.bus.peek(addr)
    }

    /// A CPU-view write (through the banking: ROM areas write the RAM below).
    pub fn poke(&mut self, addr: u16, value: u8) {
        self.bus.poke(addr, value)
    }
}

/// The interrupt through `hardware` (IRQ_VECTOR or NMI_VECTOR) reaches the KERNAL's
/// default handler: the KERNAL is banked in at the hardware vector and the RAM vector
/// ($0314 or $0318) holds the default RESTOR put there. Such a handler returns to the code
/// it interrupted and writes no RAM a program reads, the keyboard buffer aside (from a key
/// typed).
pub(crate) fn kernal_handles(bus: &C64Bus, hardware: u16) -> bool {
    let ram_vector = if hardware == NMI_VECTOR { NMINV } else { CINV };
    let default = RAM_VECTORS
        .iter()
        .find(|(at, _)| *at == ram_vector)
        .map(|(_, d)| *d);
    let vector = u16::from_le_bytes([bus.peek(ram_vector), bus.peek(ram_vector + 1)]);
    bus.region(hardware) == Region::KernalRom && Some(vector) == default
}

/// One instruction as VICE's monitor traces it, before it runs:
/// `.C:0820  A9 00     LDA #$00      - A:00 X:00 Y:00 SP:f6 ..-...Z.  123456`
pub fn trace_line(cpu: &Cpu, peek: impl Fn(u16) -> u8, cycles: u64) -> String {
    let pc = cpu.pc;
    let bytes = [pc, pc.wrapping_add(1), pc.wrapping_add(2)].map(&peek);
    let (text, len) = c64kit_opcodes::disassemble(pc, bytes);
    let hex: Vec<String> = bytes[..len as usize]
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect();
    let p = cpu.p();
    let flags: String = "NV-BDIZC"
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if p & (0x80 >> i) != 0 && c != 'B' {
                c
            } else if c == '-' {
                '-'
            } else {
                '.'
            }
        })
        .collect();
    format!(
        ".C:{pc:04x}  {:<9} {:<13} - A:{:02X} X:{:02X} Y:{:02X} SP:{:02x} {flags} {:>10}\n",
        hex.join(" "),
        text,
        cpu.a,
        cpu.x,
        cpu.y,
        cpu.s,
        cycles
    )
}
