//! Why a run ended, and the exit code the CLI gives for it.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The program returned from its SYS with RTS.
    ReturnedToBasic,
    /// The program asked for a key after the key script ran out.
    InputExhausted,
    /// The run's cycle budget, `budget` cycles, was used up (the last instruction may end a
    /// few cycles past it: an instruction is never cut).
    CycleBudget { budget: u64 },
    /// The PC reached a breakpoint.
    Breakpoint { pc: u16 },
    /// The PC is stuck in a one-instruction loop (`JMP *` or a branch to itself), the usual
    /// end marker of CPU test programs.
    StuckLoop { pc: u16 },
    /// A JAM opcode halted the CPU.
    Jammed { pc: u16, opcode: u8 },
    /// BRK reached the KERNAL's default BRK handler.
    BrkNoHandler { pc: u16 },
    /// The program called a KERNAL routine that c64kit does not provide.
    Unimplemented { routine: &'static str, pc: u16 },
    /// The program jumped to the RESET entry.
    Reset,
    /// The program wrote its result to VICE's debug cartridge ($D7FF): 0 is a pass.
    DebugCart { value: u8 },
    /// The BASIC program RUN on our BASIC stopped with an error: BASIC printed
    /// `?MESSAGE  ERROR` (` IN line` when a program line was running) and is back at
    /// `READY.` with the key script used up.
    BasicError { message: String, line: Option<u16> },
}

/// The exit code for a program that needs what c64kit does not provide (a KERNAL routine,
/// a BASIC interpreter), whether the run stops on it or RUN cannot start the program.
pub const NOT_PROVIDED_EXIT_CODE: i32 = 9;

impl StopReason {
    /// Process exit codes, one per reason (the README's table, which a test holds to this;
    /// 0 is a normal end).
    pub fn exit_code(&self) -> i32 {
        match self {
            StopReason::ReturnedToBasic => 0,
            StopReason::InputExhausted => 3,
            StopReason::CycleBudget { .. } => 4,
            StopReason::Breakpoint { .. } => 5,
            StopReason::StuckLoop { .. } => 6,
            StopReason::Jammed { .. } => 7,
            StopReason::BrkNoHandler { .. } => 8,
            StopReason::Unimplemented { .. } => NOT_PROVIDED_EXIT_CODE,
            StopReason::Reset => 10,
            StopReason::DebugCart { value: 0 } => 0,
            StopReason::DebugCart { .. } => 11,
            StopReason::BasicError { .. } => 12,
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::ReturnedToBasic => write!(f, "returned to BASIC"),
            StopReason::InputExhausted => write!(f, "input exhausted"),
            StopReason::CycleBudget { budget } => write!(
                f,
                "cycle budget of {budget} cycle{} reached",
                if *budget == 1 { "" } else { "s" }
            ),
            StopReason::Breakpoint { pc } => write!(f, "breakpoint at ${pc:04X}"),
            StopReason::StuckLoop { pc } => {
                write!(f, "PC stuck in a one-instruction loop at ${pc:04X}")
            }
            StopReason::Jammed { pc, opcode } => {
                write!(f, "CPU jammed at ${pc:04X} (opcode ${opcode:02X})")?;
                if (0xA000..0xC000).contains(pc) {
                    write!(
                        f,
                        ": the program ran into the BASIC ROM area, which holds no ROM image"
                    )?;
                }
                Ok(())
            }
            StopReason::BrkNoHandler { pc } => write!(f, "BRK at ${pc:04X} with no handler"),
            StopReason::Unimplemented { routine, pc } => {
                write!(
                    f,
                    "KERNAL routine {routine} (${pc:04X}) is not provided by c64kit"
                )
            }
            StopReason::Reset => write!(f, "the program jumped to RESET"),
            StopReason::DebugCart { value } => write!(f, "debug cartridge: ${value:02X}"),
            StopReason::BasicError { message, line } => {
                write!(f, "BASIC error: ?{message}  ERROR")?;
                match line {
                    Some(line) => write!(f, " IN {line}"),
                    None => Ok(()),
                }
            }
        }
    }
}
