//! What each KERNAL routine does, in Rust. Register and flag results follow the real
//! routines (e.g. GETIN with nothing typed: A = 0, Z set, C clear, X and Y kept).

use super::rom::{BASIC_IDLE, CHRIN_WAIT, CHRIN_WAIT_CYCLES, IRQ_EXIT, NMI_EXIT, RESUME};
use super::timing;
use super::vars::*;
use super::Trap;
use crate::drive::Drive;
use crate::input::KeyAvailability;
use crate::memory::C64Bus;
use crate::stop::StopReason;
use c64kit_cpu::{Bus, Cpu};
use c64kit_screen::addr::{AUTODN, BLNCT, BLNSW, CRSW, INDX, LNMX, PNT, PNTR, QTSW};
use c64kit_screen::{ScreenEditor, ScreenMemory};

/// BASIC's INDEX ($22-$23): the error printer's pointer to the message.
const BASIC_INDEX: u16 = 0x22;
/// The longest error message (ILLEGAL DEVICE NUMBER is 21 characters): a bound for a
/// pointer that is not at one.
const MAX_ERROR_MESSAGE: u16 = 32;

/// How many routines broken into by interrupts are remembered at once.
const RESUME_DEPTH: usize = 8;

/// The jiffy clock wraps after 24 hours of 60 ticks per second.
const JIFFIES_PER_DAY: u32 = 0x4F1A01;

/// What the machine does after a trap.
#[derive(Debug, PartialEq, Eq)]
pub enum TrapOutcome {
    /// Return to the caller as RTS would.
    Return,
    /// Continue at this address (for handlers that end in real ROM code).
    ContinueAt(u16),
    Stop(StopReason),
}

/// The KERNAL's state that lives outside RAM: the screen editor, the transcript of everything printed, and drive 8 on the serial bus.
pub struct Kernal {
    pub screen: ScreenEditor,
    /// Every byte sent to the screen through CHROUT, in order (output to files is not).
    pub transcript: Vec<u8>,
    /// For each transcript byte, whether the VIC-II showed the lower/upper-case character
    /// set just after it was printed (so a CHR$(14) is already in it).
    pub transcript_sets: Vec<bool>,
    /// Device 8: by default it reads the current folder and cannot write.
    pub drive: Drive,
    /// The serial bus as a real KERNAL image's trapped routines drive it (`serial.rs`).
    pub(super) serial: super::serial::SerialBus,
    /// Consecutive GETIN/CHRIN calls that found no key and no script left.
    idle_polls: u32,
    /// How many such calls end the run with "input exhausted".
    pub idle_poll_limit: u32,
    /// What a program's return to BASIC does.
    pub after_return: AfterReturn,
    /// The program has returned and the machine idles as BASIC would.
    returned: bool,
    /// ST ($90) when the program returned to BASIC: a cc65 program's exit code (its
    /// startup code stores `main`'s return value or `exit`'s argument there before its RTS).
    pub returned_status: Option<u8>,
    /// The keys down at the last IRQ's keyboard scan (a key it did not see costs more).
    last_scan: [u8; 8],
    /// The blinking cursor is shown (the real KERNAL's BLNON), for the blink's cost.
    cursor_shown: bool,
    /// Cycles routines still have to spend after the interrupts the CPU took during them,
    /// and the address they are spent as, by the stack pointer at the break (the interrupt's RTI comes back to it; a handler
    /// that calls a routine with I clear may break into it again).
    resume: Vec<(u8, u64, u16)>,
    /// CHRIN is in its line input (it entered the loop that waits for keys).
    line_input: bool,
    /// A BASIC program was RUN on the BASIC in ROM (`Machine::run_basic_program`): BASIC's
    /// main loop (this address) asking the keyboard for a line with the key script used up
    /// is the program's end, "returned to BASIC" (when `after_return` says so).
    pub basic_ready_ends_run: Option<u16>,
    /// Where our BASIC's error printer calls CLRCHN (its JSR's address), and the error it
    /// printed there since the last key was typed: at READY. the run ends with it.
    pub basic_error_site: Option<u16>,
    basic_error: Option<(String, Option<u16>)>,
}

/// GETIN/CHRIN calls in a row that find no key and no script left before the run ends with
/// "input exhausted": the first, since nothing will ever type.
pub const DEFAULT_IDLE_POLL_LIMIT: u32 = 1;

/// What happens when the program returns to BASIC (RTS from its SYS).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AfterReturn {
    /// The run ends: "returned to BASIC".
    #[default]
    Return,
    /// BASIC prints READY. and waits, interrupts on, the scripted keys going to the buffer
    /// (a program that installed an interrupt routine keeps running), until the budget or
    /// the key script's end.
    Wait,
}

/// What the real SCNKEY leaves beside the keyboard buffer, from the keys down in CIA 1's
/// matrix now (the scripted key and its modifier, `input`): SHFLAG and SFDX, the modifiers
/// and the key down now, every scan; LSTX and LSTSHF take them when the key down changed or
/// nothing is down. With the same key still down the real scan's repeat logic keeps them
/// (it writes them again only for a key that types nothing, with repeat not switched off
/// by RPTFLG), and with SHIFT+C= held on from the last scan it leaves them too.
fn scan_variables(bus: &mut C64Bus) {
    use c64kit_basic::keyboard::{self, KeyPress};
    let matrix = bus.input.matrix(bus.now);
    let (key, flags) = keyboard::scan(matrix);
    let ram = &mut bus.ram;
    ram[SHFLAG as usize] = flags;
    ram[SFDX as usize] = key;
    let shift_cbm = keyboard::SHFLAG_SHIFT | keyboard::SHFLAG_CBM;
    let again = if matrix == [0; 8] {
        true
    } else if flags == shift_cbm && ram[LSTSHF as usize] == shift_cbm {
        false
    } else if key != ram[LSTX as usize] {
        true
    } else {
        let modifier = keyboard::table_for(flags);
        let types = key != keyboard::NO_KEY && KeyPress { key, modifier }.petscii().is_some();
        !types && ram[RPTFLG as usize] & 0xC0 == 0
    };
    if again {
        ram[LSTX as usize] = key;
        ram[LSTSHF as usize] = flags;
    }
}

/// Screen and colour RAM handed to the screen editor.
struct Mem<'a>(&'a mut C64Bus);

impl ScreenMemory for Mem<'_> {
    fn ram(&self) -> &[u8; 0x10000] {
        &self.0.ram
    }
    fn ram_mut(&mut self) -> &mut [u8; 0x10000] {
        &mut self.0.ram
    }
    fn colour_ram(&self) -> &[u8; 1024] {
        &self.0.colour
    }
    fn colour_ram_mut(&mut self) -> &mut [u8; 1024] {
        &mut self.0.colour
    }
    /// Through the banking, as the KERNAL's own LDA/STA $D018 (I/O banked out, they reach
    /// the character ROM and the RAM below it).
    fn vic_memory_setup(&self) -> u8 {
        self.0.peek(VIC_MEMORY_SETUP)
    }
    fn set_vic_memory_setup(&mut self, value: u8) {
        self.0.poke(VIC_MEMORY_SETUP, value);
    }
}

/// The VIC-II's memory setup register, where the character set is chosen.
const VIC_MEMORY_SETUP: u16 = 0xD018;

impl Kernal {
    pub fn new() -> Self {
        Kernal {
            screen: ScreenEditor::new(),
            transcript: Vec::new(),
            transcript_sets: Vec::new(),
            drive: Drive::default(),
            serial: Default::default(),
            idle_polls: 0,
            idle_poll_limit: DEFAULT_IDLE_POLL_LIMIT,
            after_return: AfterReturn::Return,
            returned: false,
            returned_status: None,
            last_scan: [0; 8],
            cursor_shown: false,
            resume: Vec::new(),
            line_input: false,
            basic_ready_ends_run: None,
            basic_error_site: None,
            basic_error: None,
        }
    }

    /// CINT's work: clear the screen, cursor home, default colours.
    pub fn reset_screen(&mut self, bus: &mut C64Bus) {
        self.screen.reset(&mut Mem(bus));
    }

    /// Runs the routine at `trap`. The CPU has fetched the JAM at the entry; on `Return` the
    /// machine pops the return address.
    pub fn run(&mut self, trap: Trap, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        // The real routine's cycles on this path (see `timing`), beyond what the trap's
        // entry and RTS take; spent after the work, as CPU time bad lines can stretch.
        let cost = match trap {
            Trap::Stop if bus.ram[STKEY as usize] == STOP_KEY_ROW => timing::STOP_KEY_DOWN,
            Trap::Stop => timing::STOP,
            Trap::Rdtim => timing::RDTIM,
            Trap::Settim => timing::SETTIM,
            Trap::Plot if cpu.carry() => timing::PLOT_GET,
            Trap::Plot => timing::PLOT_SET,
            Trap::TakeKey => timing::lp2(bus.ram[NDX as usize]),
            Trap::SyncColourPointer => timing::SCOLOR,
            _ => 0,
        };
        let outcome = self.run_routine(trap, cpu, bus);
        if let Some(stop) = self.stop_for_drive_code(trap.address()) {
            return stop;
        }
        if cost > 0 && outcome == TrapOutcome::Return {
            return self.spend(cost - timing::TRAP_ENTRY_AND_RTS, trap.address(), cpu, bus);
        }
        outcome
    }

    /// Spends a routine's `cycles` as CPU time, then returns as RTS would. An interrupt
    /// that the real routine's code would take (an IRQ with I clear, an NMI) is taken where
    /// it comes: the CPU goes on at `RESUME`, takes it there, and the rest is spent after.
    /// The cycles are reads of `at`, the trap's address in its routine's own ROM area, as
    /// the real routine's reads are (the value a read puts on the bus while the VIC-II
    /// stalls the CPU is what its first fetches after BA falls see).
    fn spend(&mut self, cycles: u64, at: u16, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        let left = bus.spend_cpu_cycles_until_interrupt(cycles, at, !cpu.interrupt_disabled());
        if left == 0 {
            return TrapOutcome::Return;
        }
        // A handler that never came back leaves its entry behind: keep the last few.
        if self.resume.len() == RESUME_DEPTH {
            self.resume.remove(0);
        }
        self.resume.push((cpu.s, left, at));
        TrapOutcome::ContinueAt(RESUME)
    }

    fn run_routine(&mut self, trap: Trap, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        use Trap::*;
        // An interrupt is not the program doing something else than waiting for a key.
        if !matches!(trap, Getin | Chrin | IrqDefault) {
            self.idle_polls = 0;
        }
        match trap {
            Chrout => return self.chrout(cpu, bus),
            Getin => return self.getin(cpu, bus),
            Chrin => return self.chrin(cpu, bus),
            Plot => {
                if cpu.carry() {
                    let (row, col) = self.screen.plot_get(&Mem(bus));
                    cpu.x = row;
                    cpu.y = col;
                } else {
                    self.screen.plot_set(&mut Mem(bus), cpu.x, cpu.y);
                }
                cpu.set_carry(false);
            }
            Scnkey => self.scan_keyboard(bus),
            Rdtim => {
                cpu.y = bus.ram[TIME as usize];
                cpu.x = bus.ram[TIME as usize + 1];
                cpu.a = bus.ram[TIME as usize + 2];
            }
            Settim => {
                bus.ram[TIME as usize] = cpu.y;
                bus.ram[TIME as usize + 1] = cpu.x;
                bus.ram[TIME as usize + 2] = cpu.a;
            }
            Udtim => {
                udtim(bus);
                read_stop_key(bus);
            }
            Setlfs => {
                bus.ram[LA as usize] = cpu.a;
                bus.ram[FA as usize] = cpu.x;
                bus.ram[SA as usize] = cpu.y;
            }
            Setnam => {
                bus.ram[FNLEN as usize] = cpu.a;
                bus.ram[FNADR as usize] = cpu.x;
                bus.ram[FNADR as usize + 1] = cpu.y;
            }
            Readst => cpu.load_a(bus.ram[STATUS as usize]),
            Stop => {
                // STOP ($F6ED): LDA STKEY; CMP #$7F (the row with RUN/STOP alone down). Down:
                // CLRCHN (A = 0, X = 3), the keyboard buffer emptied (STA NDX), the CMP's
                // flags back (Z and C set); up: A = STKEY, the CMP's flags.
                let key = bus.ram[STKEY as usize];
                if key == STOP_KEY_ROW {
                    self.clrchn(bus);
                    bus.ram[NDX as usize] = 0;
                    cpu.x = 3;
                    cpu.a = 0;
                } else {
                    cpu.a = key;
                }
                cpu.set_nz(key.wrapping_sub(STOP_KEY_ROW));
                cpu.set_carry(key >= STOP_KEY_ROW);
            }
            Chkin => return self.chkin(cpu, bus),
            Chkout => return self.chkout(cpu, bus),
            Clrchn => {
                self.note_basic_error(cpu, bus);
                self.clrchn(bus);
            }
            Clall => self.clall(bus),
            Open => return self.open(cpu, bus),
            Close => self.close(cpu, bus),
            Load => return self.load(cpu, bus),
            Save => return self.save(cpu, bus),
            Cint | ScreenInit => {
                crate::boot::kernal_state(trap, bus);
                self.screen.cint(&mut Mem(bus));
            }
            Ioinit | Ramtas | Restor => crate::boot::kernal_state(trap, bus),
            Vector => vector(cpu, bus),
            Memtop => mem_pointer(cpu, bus, MEMSIZ),
            Membot => mem_pointer(cpu, bus, MEMSTR),
            Screen => {
                cpu.x = 40;
                cpu.y = 25;
            }
            Iobase => {
                cpu.x = 0x00;
                cpu.y = 0xDC;
            }
            Setmsg => {
                std::mem::swap(&mut bus.ram[MSGFLG as usize], &mut cpu.a);
            }
            Settmo => bus.ram[TIMOUT as usize] = cpu.a,
            // The serial bus's own routines, as on a real KERNAL image (`serial.rs`).
            Second | Tksa | Acptr | Ciout | Untlk | Unlsn | Listen | Talk => {
                let routine = super::serial::Routine::at(trap.address())
                    .expect("every serial trap is a serial routine");
                return self.serial_routine(routine, cpu, bus);
            }
            IrqDefault => {
                if self.waits_for_a_key_nobody_types(cpu, bus) {
                    if let Some(stop) = self.idle() {
                        return stop;
                    }
                }
                let cost = self.irq_cost(bus);
                udtim(bus);
                self.scan_keyboard(bus);
                // UDTIM reads the STOP key's row; the real scan finds a key typed now in
                // the same interrupt, so the row is read after the key is pressed.
                read_stop_key(bus);
                if self.returned && self.script_ended(bus) {
                    return TrapOutcome::Stop(StopReason::InputExhausted);
                }
                // The JAM's fetch was the first cycle; the handler ends reading ICR, which
                // acknowledges CIA 1's timer interrupt, as the real handler does.
                bus.spend_cpu_cycles(cost - 2, trap.address());
                bus.read(0xDC0D);
                bus.interrupts_changed();
                return TrapOutcome::ContinueAt(IRQ_EXIT);
            }
            NmiDefault => {
                bus.read(0xDD0D);
                bus.interrupts_changed();
                return TrapOutcome::ContinueAt(NMI_EXIT);
            }
            BrkDefault => {
                // The BRK handler is entered through the IRQ entry, which pushed A, X, Y
                // over the P and PC pushed by BRK: the BRK's address is PC - 2.
                let s = cpu.s as u16;
                let lo = bus.ram[0x100 + ((s + 5) & 0xFF) as usize];
                let hi = bus.ram[0x100 + ((s + 6) & 0xFF) as usize];
                let pc = u16::from_le_bytes([lo, hi]).wrapping_sub(2);
                return TrapOutcome::Stop(StopReason::BrkNoHandler { pc });
            }
            ReturnToBasic if self.after_return == AfterReturn::Return => {
                self.returned_status = Some(bus.ram[STATUS as usize]);
                return TrapOutcome::Stop(StopReason::ReturnedToBasic);
            }
            ReturnToBasic => {
                self.returned_status = Some(bus.ram[STATUS as usize]);
                // BASIC ends the program: READY. on a line of its own, then it waits.
                self.returned = true;
                if self.screen.plot_get(&Mem(bus)).1 != 0 {
                    self.output(bus, 13);
                }
                for b in *b"READY.\r" {
                    self.output(bus, b);
                }
                return TrapOutcome::ContinueAt(BASIC_IDLE);
            }
            ColourAndClear => self.screen.colour_and_clear(&mut Mem(bus), cpu.a),
            ClearScreen => {
                let before = self.screen.work;
                self.screen.clear_screen(&mut Mem(bus));
                let cost = timing::CLSR + timing::screen_work(before, self.screen.work);
                return self.spend(cost - timing::TRAP_ENTRY_AND_RTS, trap.address(), cpu, bus);
            }
            Home => self.screen.home(&mut Mem(bus)),
            TakeKey => take_key(cpu, bus),
            SyncColourPointer => {
                self.screen.sync_colour_pointer(&mut Mem(bus));
                // The routine's last load: A = USER's high byte, N set (it is $D8-$DB).
                cpu.load_a(bus.ram[USER as usize + 1]);
            }
            Reset => return TrapOutcome::Stop(StopReason::Reset),
            Resume => {
                // The NOP at RESUME and this JAM's fetch were the routine's cycles too.
                let (left, at) = match self.resume.iter().rposition(|e| e.0 == cpu.s) {
                    Some(i) => {
                        let (_, left, at) = self.resume.remove(i);
                        (left.saturating_sub(3), at)
                    }
                    None => (0, trap.address()),
                };
                return self.spend(left, at, cpu, bus);
            }
        }
        TrapOutcome::Return
    }

    fn chrout(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        cpu.set_carry(false);
        if bus.ram[DFLTO as usize] == SCREEN {
            // The path's cost: the byte, the column, the rows the editor moved.
            let column = bus.ram[PNTR as usize];
            let quote = bus.ram[QTSW as usize] != 0;
            let before = self.screen.work;
            self.output(bus, cpu.a);
            let cost = timing::chrout_screen(cpu.a, column, quote)
                + timing::screen_work(before, self.screen.work);
            return self.spend(
                cost - timing::TRAP_ENTRY_AND_RTS,
                Trap::Chrout.address(),
                cpu,
                bus,
            );
        }
        self.output(bus, cpu.a);
        TrapOutcome::Return
    }

    /// The default IRQ handler's cycles on this interrupt's path ($EA31 to $EA81): the
    /// jiffy clock's carries, the cursor blink (counting BLNCT down in RAM as the real
    /// handler does), the keyboard scan with keys down in the matrix.
    fn irq_cost(&mut self, bus: &mut C64Bus) -> u64 {
        let t = TIME as usize;
        let mut cost = timing::IRQ_HANDLER;
        if bus.ram[t + 2] == 0xFF {
            cost += if bus.ram[t + 1] == 0xFF {
                timing::IRQ_CLOCK_CARRY_TWICE
            } else {
                timing::IRQ_CLOCK_CARRY
            };
        }
        if bus.ram[BLNSW as usize] == 0 {
            cost += timing::IRQ_BLINK_COUNT;
            let count = bus.ram[BLNCT as usize].wrapping_sub(1);
            if count == 0 {
                bus.ram[BLNCT as usize] = timing::BLINK_JIFFIES;
                cost += if self.cursor_shown {
                    timing::IRQ_BLINK_OFF
                } else {
                    timing::IRQ_BLINK_ON
                };
                self.cursor_shown = !self.cursor_shown;
            } else {
                bus.ram[BLNCT as usize] = count;
            }
        } else {
            self.cursor_shown = false;
        }
        let keys = bus.input.matrix(bus.now);
        if keys != [0; 8] {
            cost += timing::IRQ_KEY_HELD;
            if keys != self.last_scan {
                cost += timing::IRQ_KEY_NEW;
            }
        }
        self.last_scan = keys;
        cost
    }

    /// A byte to the current output device: the screen (and the transcript), or the drive.
    pub(super) fn output(&mut self, bus: &mut C64Bus, byte: u8) {
        match bus.ram[DFLTO as usize] {
            SCREEN => {
                self.transcript.push(byte);
                self.screen.chrout(&mut Mem(bus), byte);
                self.transcript_sets
                    .push(crate::text_screen::shows_lowercase_rom(bus));
            }
            DRIVE => self.drive.receive(byte),
            _ => {}
        }
    }

    /// SCNKEY, in the system IRQ or called: a scripted key into the empty buffer, then the
    /// scan's variables from the keys down.
    fn scan_keyboard(&mut self, bus: &mut C64Bus) {
        self.feed_keyboard_buffer(bus, false);
        scan_variables(bus);
    }

    /// Moves one scripted key into the keyboard buffer if the buffer is empty and the script
    /// has one available, as if the user typed it just now (SHIFT+C= goes to the scan's
    /// character set switch instead).
    fn feed_keyboard_buffer(&mut self, bus: &mut C64Bus, empty_poll: bool) -> KeyAvailability {
        let count = bus.ram[NDX as usize];
        if count != 0 {
            return KeyAvailability::NotYet;
        }
        let got = bus.input.take(bus.now, empty_poll);
        match got {
            KeyAvailability::Key(k) => {
                let max = bus.ram[XMAX as usize].clamp(1, 10);
                if count < max {
                    bus.ram[KEYD as usize] = k;
                    bus.ram[NDX as usize] = 1;
                }
            }
            KeyAvailability::ShiftCbm => self.screen.shift_cbm(&mut Mem(bus)),
            KeyAvailability::NotYet | KeyAvailability::Exhausted => {}
        }
        got
    }

    /// The default IRQ handler interrupted a program that waits for a key by polling the
    /// keyboard buffer's count itself (cc65's `cgetc`: `LDA NDX; BEQ` back to the load), with
    /// the buffer empty, no scripted key left and no handler but the KERNAL's defaults
    /// (which put a key in the buffer only when one is typed): nothing will ever end the
    /// wait, as GETIN with nothing left to type. Only that two-instruction loop counts (a
    /// loop that does anything else may end by itself).
    fn waits_for_a_key_nobody_types(&self, cpu: &Cpu, bus: &C64Bus) -> bool {
        if self.idle_poll_limit == u32::MAX
            || bus.ram[NDX as usize] != 0
            || !bus.input.is_exhausted()
            || !crate::machine::kernal_handles(bus, c64kit_cpu::IRQ_VECTOR)
            || !crate::machine::kernal_handles(bus, c64kit_cpu::NMI_VECTOR)
        {
            return false;
        }
        // The IRQ entry pushed A, X and Y over the interrupt's P and return address.
        let s = u16::from(cpu.s);
        let at = |i: u16| bus.ram[0x100 + usize::from(s.wrapping_add(i) & 0xFF)];
        let pc = u16::from_le_bytes([at(5), at(6)]);
        // The load's length when `load` starts the loop.
        let polls_ndx_at = |load: u16| {
            let b = |i: u16| bus.peek(load.wrapping_add(i));
            // LDY/LDA/LDX NDX (zero page $A4-$A6 or absolute $AC-$AE), then BEQ back to it.
            match b(0) {
                0xA4..=0xA6 if b(1) == NDX as u8 && b(2) == 0xF0 && b(3) == 0xFC => Some(2),
                0xAC..=0xAE
                    if u16::from_le_bytes([b(1), b(2)]) == NDX && b(3) == 0xF0 && b(4) == 0xFB =>
                {
                    Some(3)
                }
                _ => None,
            }
        };
        // Interrupted before the load, or before the branch.
        polls_ndx_at(pc).is_some()
            || polls_ndx_at(pc.wrapping_sub(2)) == Some(2)
            || polls_ndx_at(pc.wrapping_sub(3)) == Some(3)
    }

    /// A wait for a key the real KERNAL's GETIN found none for (`found`: one waited):
    /// `idle_poll_limit` empty calls in a row with the script used up are "input exhausted".
    /// GETIN's polls are looked at again after a stretch in which none was (`real_kernal`):
    /// the count starts afresh, as a poll that found a key would start it.
    pub(crate) fn forget_idle_polls(&mut self) {
        self.idle_polls = 0;
    }

    pub(crate) fn real_getin(&mut self, found: bool) -> Option<StopReason> {
        if found {
            self.idle_polls = 0;
            return None;
        }
        self.idle().map(|_| StopReason::InputExhausted)
    }

    /// Whether a wait for a key that nothing can end stops the run (not when a person types
    /// or nobody will: `idle_poll_limit` at its maximum).
    pub(crate) fn stops_when_input_is_exhausted(&self) -> bool {
        self.idle_poll_limit != u32::MAX
    }

    fn idle(&mut self) -> Option<TrapOutcome> {
        self.idle_polls += 1;
        (self.idle_polls >= self.idle_poll_limit)
            .then_some(TrapOutcome::Stop(StopReason::InputExhausted))
    }

    fn getin(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        if bus.ram[DFLTN as usize] > SCREEN {
            self.serial_input(cpu, bus);
            return TrapOutcome::Return;
        }
        if bus.ram[DFLTN as usize] != 0 {
            cpu.load_a(0);
            cpu.set_carry(false);
            return TrapOutcome::Return;
        }
        let fed = self.feed_keyboard_buffer(bus, true);
        let count = bus.ram[NDX as usize];
        if count != 0 {
            // A key waits: SEI, then LP2 ($E5B4), which ends with CLI and CLC.
            self.idle_polls = 0;
            take_key(cpu, bus);
            let cost = timing::getin_key(count);
            return self.spend(
                cost - timing::TRAP_ENTRY_AND_RTS,
                Trap::Getin.address(),
                cpu,
                bus,
            );
        }
        if fed == KeyAvailability::Exhausted {
            if let Some(stop) = self.idle() {
                return stop;
            }
        } else {
            self.idle_polls = 0;
        }
        // No key: A = 0 (Z set), C clear, X and Y kept.
        cpu.load_a(0);
        cpu.set_carry(false);
        self.spend(
            timing::GETIN_KEYBOARD - timing::TRAP_ENTRY_AND_RTS,
            Trap::Getin.address(),
            cpu,
            bus,
        )
    }

    /// CHRIN from the keyboard: the screen editor's line input (keys are echoed on the
    /// screen by the editor, not through CHROUT, so they are not in the transcript; the line
    /// is then read back from the screen one byte per call, ending with RETURN).
    fn chrin(&mut self, cpu: &mut Cpu, bus: &mut C64Bus) -> TrapOutcome {
        if bus.ram[DFLTN as usize] > SCREEN {
            self.serial_input(cpu, bus);
            return TrapOutcome::Return;
        }
        if !self.line_input && bus.ram[CRSW as usize] != 0 {
            // Handing back the next character of the line entered.
            let (y, pnt) = (bus.ram[PNTR as usize], self.line_pointer(bus));
            let cost = if y == bus.ram[INDX as usize] {
                let before = self.screen.work;
                let echo = bus.ram[DFLTO as usize] != SCREEN;
                let b = self.screen.chrin_keyboard(&mut Mem(bus));
                let printed = if echo { timing::CHROUT_RETURN } else { 0 };
                cpu.load_a(b.unwrap_or(13));
                timing::CHRIN_LINE_END + printed + timing::screen_work(before, self.screen.work)
            } else {
                let code = bus.ram[pnt.wrapping_add(u16::from(y)) as usize];
                let cost = timing::chrin_character(code, (pnt & 0xFF) + u16::from(y) > 0xFF);
                let b = self.screen.chrin_keyboard(&mut Mem(bus));
                cpu.load_a(b.unwrap_or(13));
                cost
            };
            self.idle_polls = 0;
            cpu.set_carry(false);
            return self.spend(
                cost - timing::TRAP_ENTRY_AND_RTS,
                Trap::Chrin.address(),
                cpu,
                bus,
            );
        }
        // Each entry of the trap here is one turn of the real loop that waits for keys (the
        // JAM's fetch its first cycle), until RETURN ends the line.
        let mut cost = 0;
        if !self.line_input {
            self.line_input = true;
            cost += timing::CHRIN_TO_LOOP;
        }
        let fed = self.feed_keyboard_buffer(bus, true);
        loop {
            let count = bus.ram[NDX as usize];
            if count == 0 {
                if fed == KeyAvailability::Exhausted && self.at_ready(cpu, bus) {
                    return TrapOutcome::Stop(self.ready_stop(bus));
                }
                if fed == KeyAvailability::Exhausted {
                    if self.idles_at_ready(cpu, bus) {
                        if self.script_ended(bus) {
                            return TrapOutcome::Stop(StopReason::InputExhausted);
                        }
                    } else if let Some(stop) = self.idle() {
                        return stop;
                    }
                }
                // No complete line yet: the loop turns (the trap is entered again).
                let _ = self.screen.chrin_keyboard(&mut Mem(bus));
                cost += timing::CHRIN_WAIT_TURN;
                return self.spend_turn(cost - 1, bus);
            }
            self.idle_polls = 0;
            // A key typed: an error printed before it is not how the run ends.
            self.basic_error = None;
            if self.cursor_shown {
                cost += timing::CHRIN_CURSOR_OFF;
                self.cursor_shown = false;
            }
            cost += timing::LP2_PER_KEY * u64::from(count);
            // One key at a time, the rest kept in the buffer, so each echo is costed at its
            // column (SHIFT+RUN/STOP, which fills the buffer, is let run whole).
            let key = bus.ram[KEYD as usize];
            let rest: Vec<u8> = bus.ram[KEYD as usize + 1..KEYD as usize + count as usize].to_vec();
            let (column, quote, before) = (
                bus.ram[PNTR as usize],
                bus.ram[QTSW as usize] != 0,
                self.screen.work,
            );
            if key != 0x83 {
                bus.ram[NDX as usize] = 1;
            }
            let got = self.screen.chrin_keyboard(&mut Mem(bus));
            if key != 0x83 {
                let k = KEYD as usize;
                bus.ram[k..k + rest.len()].copy_from_slice(&rest);
                bus.ram[NDX as usize] = count - 1;
            }
            match got {
                Some(b) => {
                    // RETURN: the search for the line's end, the first character handed back.
                    let pnt = self.line_pointer(bus);
                    let found = bus.ram[INDX as usize].wrapping_sub(1);
                    let first = bus.ram[PNTR as usize].wrapping_sub(1);
                    let code = bus.ram[pnt.wrapping_add(u16::from(first)) as usize];
                    cost += timing::CHRIN_RETURN
                        + timing::line_end_search(bus.ram[LNMX as usize], found, pnt as u8)
                        + timing::chrin_character(code, false);
                    self.line_input = false;
                    cpu.load_a(b);
                    cpu.set_carry(false);
                    return self.spend(
                        cost - timing::TRAP_ENTRY_AND_RTS,
                        Trap::Chrin.address(),
                        cpu,
                        bus,
                    );
                }
                None => {
                    cost += timing::CHRIN_KEY
                        + timing::chrout_screen(key, column, quote)
                        + timing::screen_work(before, self.screen.work);
                    let left = bus.ram[NDX as usize];
                    bus.ram[BLNSW as usize] = left;
                    bus.ram[AUTODN as usize] = left;
                }
            }
        }
    }

    /// The error BASIC is about to print, its message at `at` in the ROM (the last character
    /// with bit 7 set) and its line in CURLIN ($FFxx in direct mode): the run ends with it
    /// once BASIC is back at `READY.`.
    pub(crate) fn note_error(&mut self, bus: &C64Bus, at: u16) {
        let mut message = String::new();
        for i in 0..MAX_ERROR_MESSAGE {
            let b = bus.peek(at.wrapping_add(i));
            message.push(char::from(b & 0x7F));
            if b & 0x80 != 0 {
                break;
            }
        }
        let line = crate::boot::peek16(bus, CURLIN);
        self.basic_error = Some((message, (line >> 8 != 0xFF).then_some(line)));
    }

    /// BASIC is back at `READY.` and more lines will be typed: an error before them is not
    /// how the run ends.
    pub(crate) fn forget_error(&mut self) {
        self.basic_error = None;
    }

    /// How a run that is back at `READY.` ends: the error BASIC printed, or a return to
    /// BASIC (with ST as the program left it).
    pub(crate) fn ready_stop(&mut self, bus: &C64Bus) -> StopReason {
        self.returned_status = Some(bus.ram[STATUS as usize]);
        match self.basic_error.take() {
            Some((message, line)) => StopReason::BasicError { message, line },
            None => StopReason::ReturnedToBasic,
        }
    }

    /// BASIC, after a program's RUN, is back at READY.: its main loop asks for a line (see
    /// `Machine::basic_waits_for_a_line`), and a return to BASIC ends the run.
    fn at_ready(&self, cpu: &Cpu, bus: &C64Bus) -> bool {
        self.after_return == AfterReturn::Return && self.basic_asks_for_a_line(cpu, bus)
    }

    /// BASIC, after a program's RUN, is back at READY. and idles there: `--after-return
    /// wait`, as after a return to BASIC (see `script_ended`), not a program asking for a key.
    fn idles_at_ready(&self, cpu: &Cpu, bus: &C64Bus) -> bool {
        self.after_return == AfterReturn::Wait && self.basic_asks_for_a_line(cpu, bus)
    }

    /// BASIC's main loop (`basic_ready_ends_run`) is a few calls up the stack.
    fn basic_asks_for_a_line(&self, cpu: &Cpu, bus: &C64Bus) -> bool {
        self.basic_ready_ends_run
            .is_some_and(|main| crate::basic_run::returns_to(bus, cpu.s, main))
    }

    /// Idling after the program returned to BASIC (`--after-return wait`), the key script's
    /// end is the run's end; with no script only the budget ends it, and with a person at the
    /// keyboard (`play`) nothing does.
    fn script_ended(&self, bus: &C64Bus) -> bool {
        bus.input.was_fed() && self.idle_poll_limit < u32::MAX && bus.input.is_exhausted()
    }

    /// CLRCHN called from our BASIC's error printer (`basic_error_site`): INDEX ($22) points
    /// at the error's message in the ROM (its last character with bit 7 set), CURLIN holds
    /// the line running ($FFxx in direct mode).
    fn note_basic_error(&mut self, cpu: &Cpu, bus: &C64Bus) {
        let Some(site) = self.basic_error_site else {
            return;
        };
        let s = cpu.s as usize;
        let ret = u16::from_le_bytes([
            bus.ram[0x100 | (s + 1) & 0xFF],
            bus.ram[0x100 | (s + 2) & 0xFF],
        ]);
        if ret != site.wrapping_add(2) {
            return;
        }
        self.note_error(bus, crate::boot::peek16(bus, BASIC_INDEX));
    }

    /// The screen address of the cursor's logical line (PNT).
    fn line_pointer(&self, bus: &C64Bus) -> u16 {
        u16::from_le_bytes([bus.ram[PNT as usize], bus.ram[PNT as usize + 1]])
    }

    /// Spends `cycles` of CHRIN's line input, after which the loop turns again: through
    /// `CHRIN_WAIT`, whose NOP takes an interrupt that came meanwhile (up to one turn's echo
    /// late, where the real loop takes it at once), back into the trap.
    fn spend_turn(&mut self, cycles: u64, bus: &mut C64Bus) -> TrapOutcome {
        bus.spend_cpu_cycles(
            cycles.saturating_sub(CHRIN_WAIT_CYCLES),
            Trap::Chrin.address(),
        );
        TrapOutcome::ContinueAt(CHRIN_WAIT)
    }
}

impl Default for Kernal {
    fn default() -> Self {
        Self::new()
    }
}

/// UDTIM: one jiffy more, wrapping at 24 hours.
fn udtim(bus: &mut C64Bus) {
    let t = TIME as usize;
    let mut jiffies =
        (bus.ram[t] as u32) << 16 | (bus.ram[t + 1] as u32) << 8 | bus.ram[t + 2] as u32;
    jiffies += 1;
    if jiffies >= JIFFIES_PER_DAY {
        jiffies = 0;
    }
    bus.ram[t] = (jiffies >> 16) as u8;
    bus.ram[t + 1] = (jiffies >> 8) as u8;
    bus.ram[t + 2] = jiffies as u8;
}

/// The row the keyboard's column 7 reads with RUN/STOP alone down (bit 7 low): what STOP
/// compares STKEY with.
const STOP_KEY_ROW: u8 = 0x7F;
/// The matrix column RUN/STOP is in (with 1, ←, CTRL, 2, SPACE, C= and Q), which UDTIM
/// reads: the column the KERNAL's keyboard scan leaves selected.
const STOP_KEY_COLUMN: usize = 7;
/// The columns UDTIM looks at when RUN/STOP is down (its $BD to $DC00: columns 1 and 6, the
/// SHIFT keys'): a key down there leaves STKEY as it was.
const STOP_SHIFT_COLUMNS: [usize; 2] = [1, 6];

/// UDTIM's look at the STOP key: STKEY ($91) = the row of keys down in column 7 (bits low),
/// unless RUN/STOP is down with a key in columns 1 or 6 (SHIFT+RUN/STOP), which leaves it.
fn read_stop_key(bus: &mut C64Bus) {
    let keys = bus.input.matrix(bus.now);
    let row = !keys[STOP_KEY_COLUMN];
    if row & 0x80 == 0 && STOP_SHIFT_COLUMNS.iter().any(|&c| keys[c] != 0) {
        return;
    }
    bus.ram[STKEY as usize] = row;
}

/// LP2 ($E5B4): the screen editor's (`ScreenEditor::take_key`) takes the first key and
/// moves the rest down; then Y = A = the key, X = the old NDX, CLI and CLC, as the routine
/// ends.
fn take_key(cpu: &mut Cpu, bus: &mut C64Bus) {
    let (key, count) = ScreenEditor::take_key(&mut Mem(bus));
    cpu.x = count;
    cpu.y = key;
    cpu.load_a(key);
    cpu.set_p(cpu.p() & !c64kit_cpu::flag::I);
    cpu.set_carry(false);
}

/// VECTOR: C set copies the RAM vectors to (X/Y), C clear copies (X/Y) to them.
fn vector(cpu: &mut Cpu, bus: &mut C64Bus) {
    let table = u16::from_le_bytes([cpu.x, cpu.y]);
    for i in 0..32u16 {
        if cpu.carry() {
            let v = bus.ram[0x0314 + i as usize];
            bus.poke(table.wrapping_add(i), v);
        } else {
            bus.ram[0x0314 + i as usize] = bus.peek(table.wrapping_add(i));
        }
    }
}

/// MEMTOP/MEMBOT: C set reads the pointer into X/Y, C clear sets it.
fn mem_pointer(cpu: &mut Cpu, bus: &mut C64Bus, at: u16) {
    let at = at as usize;
    if cpu.carry() {
        cpu.x = bus.ram[at];
        cpu.y = bus.ram[at + 1];
    } else {
        bus.ram[at] = cpu.x;
        bus.ram[at + 1] = cpu.y;
    }
}
