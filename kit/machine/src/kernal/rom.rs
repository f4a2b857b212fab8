//! Our clean-room KERNAL image for $E000-$FFFF. It has the real jump table ($FF81-$FFF3),
//! the real RAM vectors' default targets and the hardware vectors, so programs that hook
//! $0314 or $0326, or chain to $EA31, behave as on a C64. Each routine's entry holds a JAM
//! opcode: when the CPU jams there with the KERNAL banked in, the machine runs the Rust
//! handler (a "trap") instead. Everything else in the image is JAM too, so a jump into a
//! routine we do not provide stops with its address rather than running garbage.

use super::Trap;

pub const ROM_BASE: u16 = 0xE000;
pub const JAM: u8 = 0x02;

/// IRQ/BRK entry: save A, X, Y; BRK goes through ($0316), IRQ through ($0314).
pub const IRQ_ENTRY: u16 = 0xFF48;
/// NMI entry: SEI, then through ($0318).
pub const NMI_ENTRY: u16 = 0xFE43;
/// The default NMI handler: save registers, then the trap at NMI_TRAP.
pub const NMI_DEFAULT: u16 = 0xFE47;
/// Restore Y, X, A and RTI (the real KERNAL has this sequence at both addresses).
pub const IRQ_EXIT: u16 = 0xEA81;
/// The default IRQ handler's end: acknowledge CIA 1 (read its ICR), then IRQ_EXIT. Raster
/// interrupt routines commonly end with `JMP $EA7E`.
pub const IRQ_ACK_EXIT: u16 = 0xEA7E;
pub const NMI_EXIT: u16 = 0xFEBC;
pub const RESET_ENTRY: u16 = 0xFCE2;
/// Where a program that returned to BASIC idles under `--after-return wait` (the real
/// screen editor waits for a key around here): CLI, then NOP / JMP back to the NOP, a loop
/// the program's own interrupts run beside.
pub const BASIC_IDLE: u16 = 0xE5CD;

/// The byte before the jump table: the KERNAL's revision, 3 in 901227-03 (the screen
/// editor c64kit follows). cc65's `get_ostype()` returns it.
pub const REVISION: (u16, u8) = (0xFF80, 0x03);

/// Where a long trap that an interrupt breaks into goes on: a NOP (the CPU takes the
/// interrupt after it, as it would in the real routine's code), then the trap that spends
/// the routine's remaining cycles and returns. An address inside the real KERNAL's CLRLN
/// colour code, which no program calls.
pub const RESUME: u16 = 0xE4E0;

/// Where CHRIN's line input goes on after a turn of its wait for a key: a NOP (an interrupt
/// that came during the turn is taken after it, as in the real loop, which spins with
/// interrupts on), then JMP back to CHRIN's trap. Next to `RESUME`, in the same unused code.
pub const CHRIN_WAIT: u16 = RESUME + 2;
/// Where the RTS of a routine c64kit called as SYS does lands (`Trap::ReturnToBasic`): a
/// JAM after CHRIN_WAIT, in the same unused code. Not SYS's own return ($E147): that is the
/// BASIC in ROM's code, which goes on with the statement after the SYS.
pub const RETURN_FROM_CALL: u16 = CHRIN_WAIT + 4;
/// CHRIN_WAIT's NOP and JMP: 5 cycles of the turn.
pub const CHRIN_WAIT_CYCLES: u64 = 2 + 3;

/// CINV: the IRQ handler's RAM vector.
pub const CINV: u16 = 0x0314;
/// NMINV: the NMI handler's RAM vector.
pub const NMINV: u16 = 0x0318;

/// The RAM vectors at $0314-$0333 and the defaults RESTOR puts there.
pub const RAM_VECTORS: [(u16, u16); 16] = [
    (CINV, 0xEA31),
    (0x0316, 0xFE66), // CBINV: BRK
    (NMINV, NMI_DEFAULT),
    (0x031A, 0xF34A), // OPEN
    (0x031C, 0xF291), // CLOSE
    (0x031E, 0xF20E), // CHKIN
    (0x0320, 0xF250), // CHKOUT
    (0x0322, 0xF333), // CLRCHN
    (0x0324, 0xF157), // CHRIN
    (0x0326, 0xF1CA), // CHROUT
    (0x0328, 0xF6ED), // STOP
    (0x032A, 0xF13E), // GETIN
    (0x032C, 0xF32F), // CLALL
    (0x032E, 0xFE66), // USRCMD
    (0x0330, 0xF4A5), // LOAD
    (0x0332, 0xF5ED), // SAVE
];

/// The jump table: entry, and either an indirect jump through a RAM vector or a direct jump.
enum Entry {
    Vectored(u16),
    Direct(u16),
}

const JUMP_TABLE: [(u16, Entry); 39] = {
    use Entry::*;
    [
        (0xFF81, Direct(0xFF5B)), // CINT
        (0xFF84, Direct(0xFDA3)), // IOINIT
        (0xFF87, Direct(0xFD50)), // RAMTAS
        (0xFF8A, Direct(0xFD15)), // RESTOR
        (0xFF8D, Direct(0xFD1A)), // VECTOR
        (0xFF90, Direct(0xFE18)), // SETMSG
        (0xFF93, Direct(0xEDB9)), // SECOND
        (0xFF96, Direct(0xEDC7)), // TKSA
        (0xFF99, Direct(0xFE25)), // MEMTOP
        (0xFF9C, Direct(0xFE34)), // MEMBOT
        (0xFF9F, Direct(0xEA87)), // SCNKEY
        (0xFFA2, Direct(0xFE21)), // SETTMO
        (0xFFA5, Direct(0xEE13)), // ACPTR
        (0xFFA8, Direct(0xEDDD)), // CIOUT
        (0xFFAB, Direct(0xEDEF)), // UNTLK
        (0xFFAE, Direct(0xEDFE)), // UNLSN
        (0xFFB1, Direct(0xED0C)), // LISTEN
        (0xFFB4, Direct(0xED09)), // TALK
        (0xFFB7, Direct(0xFE07)), // READST
        (0xFFBA, Direct(0xFE00)), // SETLFS
        (0xFFBD, Direct(0xFDF9)), // SETNAM
        (0xFFC0, Vectored(0x031A)),
        (0xFFC3, Vectored(0x031C)),
        (0xFFC6, Vectored(0x031E)),
        (0xFFC9, Vectored(0x0320)),
        (0xFFCC, Vectored(0x0322)),
        (0xFFCF, Vectored(0x0324)),
        (0xFFD2, Vectored(0x0326)),
        (0xFFD5, Vectored(0x0330)), // LOAD (the real one sets $B9 etc. first, via $F49E)
        (0xFFD8, Vectored(0x0332)), // SAVE (likewise via $F5DD)
        (0xFFDB, Direct(0xF6E4)),   // SETTIM
        (0xFFDE, Direct(0xF6DD)),   // RDTIM
        (0xFFE1, Vectored(0x0328)),
        (0xFFE4, Vectored(0x032A)),
        (0xFFE7, Vectored(0x032C)),
        (0xFFEA, Direct(0xF69B)), // UDTIM
        (0xFFED, Direct(0xE505)), // SCREEN
        (0xFFF0, Direct(0xE50A)), // PLOT
        (0xFFF3, Direct(0xE500)), // IOBASE
    ]
};

/// The jump table's entry that jumps straight to `target` (a routine's address), if any.
pub fn jump_table_entry_to(target: u16) -> Option<u16> {
    JUMP_TABLE
        .iter()
        .find(|(_, kind)| matches!(kind, Entry::Direct(t) if *t == target))
        .map(|(entry, _)| *entry)
}

/// The 8 KiB image.
pub fn build() -> [u8; 0x2000] {
    let mut rom = [JAM; 0x2000];
    let mut put = |addr: u16, bytes: &[u8]| {
        for (i, b) in bytes.iter().enumerate() {
            rom[(addr - ROM_BASE) as usize + i] = *b;
        }
    };
    for (entry, kind) in &JUMP_TABLE {
        match *kind {
            Entry::Vectored(v) => put(*entry, &[0x6C, v as u8, (v >> 8) as u8]),
            Entry::Direct(t) => put(*entry, &[0x4C, t as u8, (t >> 8) as u8]),
        }
    }
    // PHA; TXA; PHA; TYA; PHA; TSX; LDA $0104,X; AND #$10; BEQ +3; JMP ($0316); JMP ($0314)
    put(
        IRQ_ENTRY,
        &[
            0x48, 0x8A, 0x48, 0x98, 0x48, 0xBA, 0xBD, 0x04, 0x01, 0x29, 0x10, 0xF0, 0x03, 0x6C,
            0x16, 0x03, 0x6C, 0x14, 0x03,
        ],
    );
    // SEI; JMP ($0318)
    put(NMI_ENTRY, &[0x78, 0x6C, 0x18, 0x03]);
    // PHA; TXA; PHA; TYA; PHA; then the NMI trap
    put(NMI_DEFAULT, &[0x48, 0x8A, 0x48, 0x98, 0x48]);
    // PLA; TAY; PLA; TAX; PLA; RTI
    let restore = [0x68, 0xA8, 0x68, 0xAA, 0x68, 0x40];
    put(IRQ_ACK_EXIT, &[0xAD, 0x0D, 0xDC]); // LDA $DC0D, falling into IRQ_EXIT
    put(IRQ_EXIT, &restore);
    put(NMI_EXIT, &restore);
    put(RESUME, &[0xEA]);
    let chrin = Trap::Chrin.address();
    put(CHRIN_WAIT, &[0xEA, 0x4C, chrin as u8, (chrin >> 8) as u8]);
    let nop = BASIC_IDLE + 1;
    put(BASIC_IDLE, &[0x58, 0xEA, 0x4C, nop as u8, (nop >> 8) as u8]);
    put(REVISION.0, &[REVISION.1]);
    put(0xFFFA, &[NMI_ENTRY as u8, (NMI_ENTRY >> 8) as u8]);
    put(0xFFFC, &[RESET_ENTRY as u8, (RESET_ENTRY >> 8) as u8]);
    put(0xFFFE, &[IRQ_ENTRY as u8, (IRQ_ENTRY >> 8) as u8]);
    // Every trap address holds the JAM it is recognised by (the filler already is JAM; we
    // assert the image keeps it so a layout mistake cannot shadow a trap).
    for t in Trap::all() {
        debug_assert_eq!(rom[(t.address() - ROM_BASE) as usize], JAM, "{t:?}");
    }
    rom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chrout_goes_through_its_ram_vector() {
        let rom = build();
        let at = |a: u16| rom[(a - ROM_BASE) as usize];
        assert_eq!([at(0xFFD2), at(0xFFD3), at(0xFFD4)], [0x6C, 0x26, 0x03]);
        assert_eq!([at(0xFFF0), at(0xFFF1), at(0xFFF2)], [0x4C, 0x0A, 0xE5]);
        assert_eq!([at(0xFFFE), at(0xFFFF)], [0x48, 0xFF]);
    }

    #[test]
    fn every_trap_address_holds_jam_and_no_code_overlaps_it() {
        let rom = build();
        for t in Trap::all() {
            assert_eq!(rom[(t.address() - ROM_BASE) as usize], JAM, "{t:?}");
        }
        // The default targets of the RAM vectors are traps (or our NMI code).
        for (_, target) in RAM_VECTORS {
            assert!(
                Trap::at(target).is_some() || target == NMI_DEFAULT,
                "${target:04X}"
            );
        }
    }
}
