//! The one start path: a program, the run's settings, and [`Machine::start`], which builds
//! the C64 and starts the program as a C64 would, in the one order that is right. Every front
//! end (`c64kit run` and `play`, the testbench, the conformance suite) starts programs
//! through it, so the order is written once: the ROMs at power-on, the chip models, drive 8,
//! the raw loads and the program's segments (LOAD), RUN or the start address (which set
//! BASIC's pointers), and only then the file name LOAD was given, under MEMSIZ where the
//! program does not reach (VARTAB says where it ends); then what only the run needs (keys,
//! breakpoints, the debug cartridge, what a return to BASIC does...).
//!
//! The machine knows nothing of plugins: front ends map a loader's program onto
//! [`Program`].

use crate::boot::{self, BASIC_START};
use crate::drive::Drive;
use crate::input::DEFAULT_KEY_HOLD;
use crate::kernal::{AfterReturn, DEFAULT_IDLE_POLL_LIMIT};
use crate::loader::Prg;
use crate::machine::Machine;
use crate::memory::GlueLogic;
use crate::roms::Roms;
use crate::start::StartError;
use c64kit_basic::KeyEvent;
use c64kit_chips::cia::CiaModel;
use c64kit_chips::sid::SidModel;
use c64kit_chips::VicModel;
use c64kit_cpu::{ANE_MAGIC, LXA_MAGIC};
use std::path::Path;

/// Bytes to place at an address, as LOAD places a file's (under ROM areas too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub address: u16,
    pub bytes: Vec<u8>,
}

impl Segment {
    /// The address just past the last byte (at most $FFFF, as BASIC's pointers can hold).
    pub fn end(&self) -> u16 {
        (self.address as usize + self.bytes.len()).min(0xFFFF) as u16
    }
}

/// How a program is entered once loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// RUN: the BASIC program at $0801 (the first segment) and the SYS its first statement
    /// makes (see [`crate::start`] for what RUN cannot start).
    Run,
    /// At this address, as a SYS to it from BASIC would (an RTS returns to BASIC).
    At(u16),
    /// LOAD only: nothing started (the program's routines are then called with
    /// [`Machine::sys`]).
    LoadOnly,
}

/// What is loaded and how it starts: a PRG, or what a loader made of a file (a tape or disk
/// image's file, assembled source, tokenized BASIC).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// In load order; the first is the one RUN looks at.
    pub segments: Vec<Segment>,
    pub entry: Entry,
}

impl Program {
    /// A PRG, started by RUN.
    pub fn from_prg(prg: &Prg) -> Program {
        Program {
            segments: vec![Segment {
                address: prg.load_address,
                bytes: prg.data.clone(),
            }],
            entry: Entry::Run,
        }
    }
}

/// Everything about a run that is set before it starts. [`Default`] is the C64 as power-on
/// leaves it, with c64kit's own ROMs, drive 8 reading the current folder, no keys, and a
/// return to BASIC ending the run.
pub struct RunSettings {
    /// The ROM images (c64kit's own unless Commodore's are given).
    pub roms: Roms,
    pub cia: CiaModel,
    pub sid: SidModel,
    /// The VIC-II, which also decides the clock and mains frequency (PAL or NTSC).
    pub vic: VicModel,
    /// The glue logic between CIA 2 and the VIC-II's bank (a breadbin C64's or a C64C's).
    pub glue: GlueLogic,
    /// Drive 8.
    pub drive: Drive,
    /// Bytes placed before the program (`--load ADDR FILE`). Without another start, the
    /// first one's address is where the run starts.
    pub raw_loads: Vec<Segment>,
    /// Start here instead of as the program says (`--start`), as a SYS to it would.
    pub start_address: Option<u16>,
    /// The file name LOAD was given (PETSCII, see [`load_name_of`]), left where LOAD leaves
    /// it; `None` leaves it empty.
    pub load_name: Option<Vec<u8>>,
    /// The key script.
    pub keys: Vec<KeyEvent>,
    pub breakpoints: Vec<u16>,
    /// VICE's debug cartridge: a write to $D7FF ends the run.
    pub debug_cart: bool,
    /// What a program's return to BASIC does.
    pub after_return: AfterReturn,
    /// Cycles a scripted key is held down in the keyboard matrix.
    pub key_hold: u64,
    /// ANE's and LXA's magic constants.
    pub cpu_magic: (u8, u8),
    /// How many GETIN/CHRIN calls that find no key and no script left end the run ("input
    /// exhausted"); `u32::MAX` when a person types (`play`) or nobody will (VICE's
    /// testbench).
    pub idle_poll_limit: u32,
    /// Stop at an instruction that jumps to itself when nothing can leave it.
    pub stop_on_stuck_loop: bool,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            roms: Roms::builtin(),
            cia: CiaModel::default(),
            sid: SidModel::default(),
            vic: VicModel::default(),
            glue: GlueLogic::default(),
            drive: Drive::default(),
            raw_loads: Vec::new(),
            start_address: None,
            load_name: None,
            keys: Vec::new(),
            breakpoints: Vec::new(),
            debug_cart: false,
            after_return: AfterReturn::default(),
            key_hold: DEFAULT_KEY_HOLD,
            cpu_magic: (ANE_MAGIC, LXA_MAGIC),
            idle_poll_limit: DEFAULT_IDLE_POLL_LIMIT,
            stop_on_stuck_loop: false,
        }
    }
}

/// The name a LOAD of this file was given, as VICE's autostart loads a PRG: the file's name
/// without the extension, in upper case, at most 16 characters (a 1541's names), characters
/// PETSCII has no upper-case form for as `?`.
pub fn load_name_of(path: &Path) -> Vec<u8> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    stem.chars()
        .take(16)
        .map(|c| match c.to_ascii_uppercase() {
            c @ ' '..='_' => c as u8,
            _ => b'?',
        })
        .collect()
}

/// Whether RUN runs BASIC in `program` before any SYS, on ROMs with a BASIC: then BASIC
/// boots and RUNs it on the CPU. A program whose RUN goes straight to a SYS starts from the
/// state RUN leaves at the SYS, computed (as VICE's autostart leaves it: `boot::enter_sys`),
/// and its RTS goes back into BASIC's SYS: the same C64, without the boot's cycles. A SYS
/// whose address only BASIC can work out (a variable, a function c64kit does not evaluate)
/// is BASIC's to run too. Callers that watch BASIC run a program (the fuzz target) ask it.
pub fn runs_basic_first(roms: &Roms, program: &Program) -> bool {
    if !roms.runs_basic() {
        return false;
    }
    let Some(first) = program.segments.first() else {
        return false;
    };
    let mut image = first.address.to_le_bytes().to_vec();
    image.extend_from_slice(&first.bytes);
    first.address == BASIC_START && c64kit_basic::find_sys(&image, |_| 0).is_err()
}

impl Machine {
    /// A C64 as `settings` say, with `program` (if any) loaded and started as the C64 would
    /// start it: by RUN, or at an address (`settings.start_address`, else the first raw
    /// load's, else the program's own). With no program and nothing to start, BASIC booted
    /// to `READY.`, the key script typed there. The error says why RUN cannot start the program, or that
    /// there is nothing to start (ROMs without a BASIC: `Roms::without_basic`).
    pub fn start(program: Option<&Program>, settings: RunSettings) -> Result<Machine, StartError> {
        let RunSettings {
            roms,
            cia,
            sid,
            vic,
            glue,
            drive,
            raw_loads,
            start_address,
            load_name,
            keys,
            breakpoints,
            debug_cart,
            after_return,
            key_hold,
            cpu_magic,
            idle_poll_limit,
            stop_on_stuck_loop,
        } = settings;
        let at = start_address.or(raw_loads.first().map(|s| s.address)).or(
            match program.map(|p| p.entry) {
                Some(Entry::At(addr)) => Some(addr),
                _ => None,
            },
        );
        // Nothing to load or start: BASIC's READY., if the ROMs have a BASIC.
        let at_ready = program.is_none() && at.is_none() && roms.runs_basic();
        // Commodore's KERNAL and BASIC: a real C64 is switched on, boots through the
        // KERNAL's reset to READY. and is given the program as VICE's autostart gives it
        // (placed as LOAD leaves it, then RUN or SYS typed), so only the ROM's own code runs.
        let autostart = !roms.trap_kernal && roms.runs_basic();
        let through_basic = match program {
            _ if autostart => true,
            Some(p) if at.is_none() && p.entry == Entry::Run => runs_basic_first(&roms, p),
            _ => at_ready,
        };
        let mut m = if through_basic {
            Machine::boot_basic_with_vic(roms, vic).map_err(StartError::BasicDidNotStart)?
        } else {
            Machine::with_vic(roms, vic)
        };
        m.bus.set_cia_model(cia);
        m.bus.set_sid_model(sid);
        m.bus.set_glue_logic(glue);
        m.kernal.drive = drive;
        // LOAD: the raw bytes, then the program over them.
        let segments = program.map_or(&[][..], |p| &p.segments[..]);
        for seg in raw_loads.iter().chain(segments) {
            m.load_raw(seg.address, &seg.bytes);
        }
        let loaded_end = || {
            raw_loads
                .iter()
                .chain(segments)
                .map(Segment::end)
                .fold(BASIC_START, u16::max)
        };
        // RUN or SYS: BASIC's pointers for the program (VARTAB after its end).
        match (at, program) {
            // Autostart on Commodore's ROMs: what LOAD leaves, then the command typed at
            // READY. (BASIC at READY. waits at CHRIN's entry: the keys are read from there).
            (Some(addr), _) if autostart => {
                m.autostart_loaded(loaded_end());
                m.type_at_ready(&format!("SYS{addr}"));
                m.run_typed_line().map_err(StartError::BasicDidNotStart)?;
            }
            (None, Some(p)) if autostart && p.entry == Entry::Run => {
                let first = p.segments.first().ok_or(StartError::Nothing)?;
                let prg = Prg {
                    load_address: first.address,
                    data: first.bytes.clone(),
                };
                // BASIC RUNs whatever is at $0801; only what is no BASIC program is refused.
                match crate::start::basic_start(&prg, |_| 0) {
                    Ok(_) | Err(StartError::NoSys(_)) => {}
                    Err(e) => return Err(e),
                }
                m.autostart_loaded(first.end());
                m.type_at_ready("RUN");
                m.run_typed_line().map_err(StartError::BasicDidNotStart)?;
            }
            (None, Some(_)) if autostart => m.autostart_loaded(loaded_end()),
            (None, Some(p)) if through_basic => {
                let first = p.segments.first().ok_or(StartError::Nothing)?;
                if first.address != BASIC_START {
                    return Err(StartError::MachineCode {
                        load_address: first.address,
                    });
                }
                m.run_basic_program(first.end());
            }
            (Some(addr), _) => m.start_at(addr, loaded_end()),
            (None, Some(p)) if p.entry == Entry::Run => {
                let first = p.segments.first().ok_or(StartError::Nothing)?;
                m.run_loaded_prg(
                    &Prg {
                        load_address: first.address,
                        data: first.bytes.clone(),
                    },
                    true,
                )?;
            }
            (None, Some(_)) => {}
            // Booted to READY.: typed lines are BASIC's; as after a RUN, BASIC back at READY.
            // with the key script used up ends the run (every machine with a BASIC watches
            // for that: `Machine::without_power_on`).
            (None, None) if at_ready => {}
            (None, None) => return Err(StartError::Nothing),
        }
        // The name was under MEMSIZ before the program came in: where the program reaches,
        // its bytes stay, which only the pointers just set tell.
        if let Some(name) = load_name {
            boot::set_load_name(&mut m.bus, &name);
        }
        m.feed_keys(keys);
        for b in breakpoints {
            m.set_breakpoint(b);
        }
        m.bus.debug_cart = debug_cart;
        m.kernal.after_return = after_return;
        m.bus.input.key_hold = key_hold;
        (m.cpu.ane_magic, m.cpu.lxa_magic) = cpu_magic;
        m.kernal.idle_poll_limit = idle_poll_limit;
        m.stop_on_stuck_loop = stop_on_stuck_loop;
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stop::StopReason;

    /// `10 SYS 49152` at $0801, and `code` at $C000.
    fn sys_49152(code: &[u8]) -> Program {
        let stub = c64kit_basic::tokenize("10 SYS 49152", BASIC_START).unwrap();
        Program {
            segments: vec![
                Segment {
                    address: BASIC_START,
                    bytes: stub[2..].to_vec(),
                },
                Segment {
                    address: 0xC000,
                    bytes: code.to_vec(),
                },
            ],
            entry: Entry::Run,
        }
    }

    fn word(m: &Machine, at: u16) -> u16 {
        u16::from_le_bytes([m.peek(at), m.peek(at + 1)])
    }

    const RTS: u8 = 0x60;
    /// `LDA #value; STA $D7FF; RTS`: the debug cartridge's register.
    const DEBUG_CART_WRITE: [u8; 6] = [0xA9, 0x2A, 0x8D, 0xFF, 0xD7, RTS];

    #[test]
    fn a_program_reaching_9fff_keeps_its_last_bytes_and_its_load_name_is_left() {
        let stub = c64kit_basic::tokenize("10 SYS 2062", BASIC_START).unwrap();
        let mut bytes = stub[2..].to_vec();
        bytes.resize(0xA000 - BASIC_START as usize, 0xEA);
        bytes[2062 - BASIC_START as usize] = RTS;
        bytes[0x9FF0 - BASIC_START as usize..].copy_from_slice(b"0123456789ABCDEF");
        let program = Program {
            segments: vec![Segment {
                address: BASIC_START,
                bytes,
            }],
            entry: Entry::Run,
        };
        let settings = RunSettings {
            load_name: Some(load_name_of(Path::new("some/long-name.prg"))),
            ..RunSettings::default()
        };
        let mut m = Machine::start(Some(&program), settings).unwrap();
        // RUN leaves the machine at the SYS.
        m.set_breakpoint(2062);
        assert_eq!(m.run(1_000_000), StopReason::Breakpoint { pc: 2062 });
        let last: Vec<u8> = (0x9FF0..0xA000).map(|a| m.peek(a)).collect();
        assert_eq!(last, b"0123456789ABCDEF", "the program's last bytes");
        assert_eq!(word(&m, 0x2D), 0xA000, "VARTAB after the program");
        assert_eq!(
            (word(&m, 0xBB), m.peek(0xB7)),
            (0xA000 - 9, 9),
            "FNADR, FNLEN"
        );

        // A short program leaves room: the name is under MEMSIZ.
        let settings = RunSettings {
            load_name: Some(b"TEST".to_vec()),
            ..RunSettings::default()
        };
        let m = Machine::start(Some(&sys_49152(&[RTS])), settings).unwrap();
        let name: Vec<u8> = (0x9FFC..0xA000).map(|a| m.peek(a)).collect();
        assert_eq!(name, b"TEST");
    }

    #[test]
    fn the_load_name_is_the_files_as_vices_autostart_gives_it() {
        assert_eq!(load_name_of(Path::new("tests/my-game~1.prg")), b"MY-GAME?1");
        assert_eq!(
            load_name_of(Path::new("a-very-long-file-name.prg")),
            b"A-VERY-LONG-FILE"
        );
    }

    #[test]
    fn the_debug_cartridge_is_plugged_in_only_when_asked() {
        let program = sys_49152(&DEBUG_CART_WRITE);
        let mut m = Machine::start(Some(&program), RunSettings::default()).unwrap();
        assert_eq!(m.run(100_000), StopReason::ReturnedToBasic);
        let settings = RunSettings {
            debug_cart: true,
            ..RunSettings::default()
        };
        let mut m = Machine::start(Some(&program), settings).unwrap();
        assert_eq!(m.run(100_000), StopReason::DebugCart { value: 0x2A });
    }

    #[test]
    fn after_return_wait_idles_as_basic_would() {
        let program = sys_49152(&[RTS]);
        let mut m = Machine::start(Some(&program), RunSettings::default()).unwrap();
        assert_eq!(m.run(100_000), StopReason::ReturnedToBasic);
        let settings = RunSettings {
            after_return: AfterReturn::Wait,
            idle_poll_limit: u32::MAX,
            ..RunSettings::default()
        };
        let mut m = Machine::start(Some(&program), settings).unwrap();
        assert_eq!(
            m.run(100_000),
            StopReason::CycleBudget { budget: 100_000 },
            "BASIC waits for a key nobody types"
        );
    }

    #[test]
    fn the_start_address_comes_from_the_settings_then_the_raw_loads_then_the_program() {
        let jmp_self = |at: u16| {
            let [lo, hi] = at.to_le_bytes();
            vec![0x4C, lo, hi]
        };
        let program = Program {
            segments: vec![Segment {
                address: 0xC000,
                bytes: jmp_self(0xC000),
            }],
            entry: Entry::At(0xC000),
        };
        let m = Machine::start(Some(&program), RunSettings::default()).unwrap();
        assert_eq!(m.cpu.pc, 0xC000);
        assert_eq!(word(&m, 0x2D), 0xC003, "VARTAB after the program");
        let raw = || {
            vec![Segment {
                address: 0x1000,
                bytes: jmp_self(0x1000),
            }]
        };
        let settings = RunSettings {
            raw_loads: raw(),
            ..RunSettings::default()
        };
        let m = Machine::start(Some(&program), settings).unwrap();
        assert_eq!(m.cpu.pc, 0x1000, "the first raw load's address");
        let settings = RunSettings {
            raw_loads: raw(),
            start_address: Some(0xC000),
            ..RunSettings::default()
        };
        let m = Machine::start(Some(&program), settings).unwrap();
        assert_eq!(m.cpu.pc, 0xC000, "--start");
        assert_eq!(m.cpu.s, boot::SYS_STACK_POINTER, "as SYS enters it");
        // Raw loads alone, with no program.
        let settings = RunSettings {
            raw_loads: raw(),
            ..RunSettings::default()
        };
        let m = Machine::start(None, settings).unwrap();
        assert_eq!((m.cpu.pc, m.peek(0x1000)), (0x1000, 0x4C));
        assert_eq!(word(&m, 0x2D), 0x1003, "VARTAB after the raw bytes");
    }

    #[test]
    fn what_cannot_start_says_why() {
        let machine_code = Program {
            segments: vec![Segment {
                address: 0xC000,
                bytes: vec![RTS],
            }],
            entry: Entry::Run,
        };
        let e = Machine::start(Some(&machine_code), RunSettings::default()).err();
        assert_eq!(
            e,
            Some(StartError::MachineCode {
                load_address: 0xC000
            })
        );
        // Nothing at all boots BASIC to READY.; with a KERNAL image and no BASIC image
        // there is no BASIC to boot.
        let m = Machine::start(None, RunSettings::default()).unwrap();
        assert!(m.basic_waits_for_a_line());
        let mut roms = Roms::without_basic();
        roms.trap_kernal = false;
        let settings = RunSettings {
            roms,
            ..Default::default()
        };
        let e = Machine::start(None, settings).err();
        assert_eq!(e, Some(StartError::Nothing));
        assert!(e.unwrap().to_string().starts_with("nothing to start"));
    }

    #[test]
    fn a_kernal_image_whose_reset_never_reaches_ready_is_an_error_naming_where() {
        // A KERNAL image (no traps) whose reset vector points at a JAM.
        let mut roms = Roms::builtin();
        roms.trap_kernal = false;
        roms.kernal.fill(0x02);
        let at = (c64kit_cpu::RESET_VECTOR - 0xE000) as usize;
        roms.kernal[at..at + 2].copy_from_slice(&0xE123u16.to_le_bytes());
        let settings = RunSettings {
            roms,
            ..RunSettings::default()
        };
        let e = Machine::start(Some(&sys_49152(&[RTS])), settings).err();
        let Some(StartError::BasicDidNotStart(stop)) = &e else {
            panic!("{e:?}");
        };
        assert!(
            matches!(stop, StopReason::Jammed { pc: 0xE123, .. }),
            "{stop:?}"
        );
        let text = e.unwrap().to_string();
        assert!(text.contains("did not get from power-on"), "{text}");
        assert!(text.contains("$E123"), "{text}");
    }

    #[test]
    fn load_only_places_the_program_and_starts_nothing() {
        let program = Program {
            entry: Entry::LoadOnly,
            ..sys_49152(&[RTS])
        };
        let m = Machine::start(Some(&program), RunSettings::default()).unwrap();
        assert_eq!(m.peek(0xC000), RTS);
        assert_ne!(m.cpu.pc, 0xC000);
    }

    #[test]
    fn the_settings_reach_the_machine() {
        let settings = RunSettings {
            cia: CiaModel::Mos6526A,
            sid: SidModel::Mos8580,
            breakpoints: vec![0xC001],
            key_hold: 1234,
            cpu_magic: (0x11, 0x22),
            idle_poll_limit: 7,
            stop_on_stuck_loop: true,
            keys: c64kit_basic::parse_key_script("A").unwrap(),
            ..RunSettings::default()
        };
        let mut m = Machine::start(Some(&sys_49152(&[0xEA, RTS])), settings).unwrap();
        assert_eq!(m.bus.cia1.model(), CiaModel::Mos6526A);
        assert_eq!(m.bus.sid.model(), SidModel::Mos8580);
        assert_eq!(m.bus.input.key_hold, 1234);
        assert_eq!((m.cpu.ane_magic, m.cpu.lxa_magic), (0x11, 0x22));
        assert_eq!(m.kernal.idle_poll_limit, 7);
        assert!(m.stop_on_stuck_loop);
        assert!(m.bus.input.was_fed());
        assert_eq!(m.run(100_000), StopReason::Breakpoint { pc: 0xC001 });
    }
}
