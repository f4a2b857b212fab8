//! The direct path: instructions run straight on the RAM and ROM a bus lends
//! ([`DirectMemory`]), with their cycle counts added per instruction instead of one bus call
//! per cycle.
//!
//! It is the cycle-by-cycle core's twin, exact by construction: an instruction runs here only
//! if every access it makes, dummy reads included, is a plain RAM access or a ROM read (no
//! side effect) and its interrupt poll falls before the bus's `quiet_until` (the poll would
//! find the inputs as they are now, and they are quiet). Anything else — I/O addresses, the
//! 6510 port, a watched page, an interrupt due, BRK, JAM, the unstable opcodes — is left
//! untouched for `step`: the checks come before any register or memory changes, so handing
//! an instruction back costs nothing but the check. The shared vectors run through this path
//! too (tests/direct.rs).
//!
//! Speed: each opcode is its own function (`handler::<OP, ROM>`), which ends by fetching the
//! next opcode and calling its handler through a table, in tail position: the optimiser
//! turns that into a jump, so every handler has its own indirect jump (the host's branch
//! predictor learns which opcode follows which) and the hot registers stay in the host's
//! argument registers. Code in RAM and code in ROM have a handler each (`ROM`), which
//! fetches from its own memory and looks first for the next instruction there, so code in
//! RAM runs as if no ROM were lent. A chain of handlers runs at most `CHAIN_CYCLES` cycles,
//! so even a build that does not turn the calls into jumps keeps a small stack.

use super::Cpu;
use crate::bus::{Bus, DirectMemory};

/// The longest instruction (read-modify-write with (zp),Y or abs,X): its poll is at most
/// this many cycles minus one after it starts.
const MAX_CYCLES: u64 = 8;

/// Cycles one chain of handlers may run before it returns to `run_direct`. An optimised
/// build turns the handlers' calls into jumps, and the bound only sets how often the chain
/// restarts; an unoptimised one makes real calls (about 600 bytes of stack each), so there
/// it is kept short: at most one frame per 2 cycles.
const CHAIN_CYCLES: i64 = if cfg!(debug_assertions) { 1024 } else { 8192 };

/// What the handlers share besides the registers they pass each other.
struct Shared<'a> {
    ram: &'a mut [u8; 0x10000],
    rom: &'a [u8; 0x10000],
    /// Bit r: region $r000 reads RAM; bit 16 + r: writes RAM; bit 32 + r: reads ROM;
    /// bit 48 + r: reads either (lent for reads).
    masks: u64,
    /// For code in RAM, per block of `1 << RAM_BLOCK_SHIFT` bytes: the PCs below this are where an opcode
    /// and two operand bytes are all lent RAM (see `fetch_end`), up to the block's first
    /// watched address (`block_ends`); the others go through `redispatch`.
    ram_fetch_end: [u16; RAM_BLOCKS],
    /// The same for code in ROM (blocks of `1 << ROM_BLOCK_SHIFT` bytes).
    rom_fetch_end: [u16; ROM_BLOCKS],
    /// The same per page (`PageEnds`): `redispatch`'s.
    pages: &'a PageEnds,
    floor: u16,
    /// `DirectMemory::write_guard`'s page ($100: none).
    guard: u16,
    /// Writes from here up need no look at `floor` or `guard` (one compare on the hot path).
    checks_end: u32,
    irq_held: bool,
    // The registers that change rarely live here, not in arguments.
    s: u8,
    vf: bool,
    df: bool,
    iflag: bool,
    /// Where the chain stopped.
    stop: Hot,
}

/// The registers handlers pass in arguments (see `Handler`).
#[derive(Clone, Copy)]
struct Hot {
    state: i64,
    a: u8,
    nz: u16,
    x: u8,
    y: u8,
}

/// A handler: (shared, state, A, NZ, X, Y), six arguments so that all travel in host
/// registers and the call in tail position becomes a jump. `state` is
/// `(cycles left << 17) | (carry << 16) | pc`; NZ is the core's `nz`.
type Handler = fn(&mut Shared<'_>, i64, u8, u16, u8, u8);

/// Bit of `state` that holds the carry; cycles start one bit above.
const CARRY: i64 = 1 << 16;
const CYCLE: i64 = 1 << 17;

/// For code in the regions of `lent` (a bit per region): the PCs of region `r` below the
/// returned one are those from which an opcode and two operand bytes all lie in `lent`
/// (the region's end, or 3 bytes before it if the next region is not lent; its start if it
/// is not lent). $F000's operands would wrap to $0000: it ends like a region whose next one
/// is not lent, which also keeps `pc + length` in the 16 bits of `state` (PC never wraps in
/// there).
#[inline(always)]
fn fetch_end(lent: u16, r: usize) -> u16 {
    let start = (r as u16) << 12;
    match (lent >> r & 1 != 0, r < 15 && lent >> (r + 1) & 1 != 0) {
        (true, true) => start + 0x1000,
        (true, false) => start | 0x0FFD,
        (false, _) => start,
    }
}

/// The direct path's fetch limits on its hot path go by blocks: of 4 KiB (a region) for
/// code in RAM and of 1 KiB for code in ROM, so that a watched address in a ROM (the real
/// KERNAL's entries at $E147, $E38B, $F13E, $F157, $F1CA, $FFCF) leaves out only the rest
/// of its block (its interrupt code at $EA31 and $F69B runs in blocks without one), while
/// `run_direct` copies 160 bytes of limits per call, not 256.
const RAM_BLOCK_SHIFT: u32 = 12;
const ROM_BLOCK_SHIFT: u32 = 10;
const RAM_BLOCKS: usize = 1 << (16 - RAM_BLOCK_SHIFT);
const ROM_BLOCKS: usize = 1 << (16 - ROM_BLOCK_SHIFT);

/// Per block of `1 << SHIFT` bytes (`N` of them), the end of the PCs all of whose pages
/// before let every PC run (`PageEnds`): the first page whose end is before the page's end
/// decides; so a PC below a block's end is below its page's end.
fn block_ends<const SHIFT: u32, const N: usize>(page_ends: &[u16; 256]) -> [u16; N] {
    let per_block = 1 << (SHIFT - 8);
    let mut ends = [0u16; N];
    for (b, end) in ends.iter_mut().enumerate() {
        let pages = b * per_block..(b + 1) * per_block;
        *end = pages
            .clone()
            .find(|&p| u32::from(page_ends[p]) < ((p as u32 + 1) << 8))
            .map_or(page_ends[pages.end - 1], |p| page_ends[p]);
    }
    ends
}

/// Per page `p`, for code in RAM and in ROM: the PCs of the page below this one are those
/// from which an opcode and two operand bytes are all lent (`fetch_end`) and that are before
/// the page's first watched address (the page's start if every address there is watched).
/// The hot path's block limits (`block_ends`) leave out the rest of a block after its first
/// page cut short: `redispatch` looks here next, so code there runs directly without the
/// slow look at the watched addresses.
#[derive(Clone)]
pub(super) struct PageEnds {
    ram: [u16; 256],
    rom: [u16; 256],
    /// The same without the watched addresses: where opcode and operands are lent.
    ram_lent: [u16; 256],
    rom_lent: [u16; 256],
    /// A bit per address (bit a % 64 of word a / 64): an instruction there is left to
    /// `step` (in a watched page, at a watched address, or anywhere if the bus names none).
    stops: [u64; 1024],
}

/// How many watched addresses (`DirectMemory::watched_at`) `FetchEnds` keeps to tell whether
/// they changed; with more, `run_direct` makes the limits again at every call (the machine
/// names at most 7).
const AT_MAX: usize = 8;
/// `FetchEnds::at_len` for `watched_at: None`.
const AT_NONE: usize = usize::MAX;

impl PageEnds {
    fn new(readable: u16, rom_readable: u16, watched: &[u64; 4], at: Option<&[u16]>) -> Self {
        let mut stops = [0u64; 1024];
        for p in 0..256usize {
            if watched[p >> 6] >> (p & 63) & 1 != 0 {
                match at {
                    None => stops[p * 4..p * 4 + 4].fill(u64::MAX),
                    Some(at) => {
                        for &a in at.iter().filter(|&&a| usize::from(a >> 8) == p) {
                            stops[usize::from(a >> 6)] |= 1 << (a & 63);
                        }
                    }
                }
            }
        }
        let lent_ends = |lent: u16| {
            let mut ends = [0u16; 256];
            for (p, end) in ends.iter_mut().enumerate() {
                let start = (p as u32) << 8;
                // Below the region's end, within the page (a region's last page may end 3
                // bytes early; region $F's always does, so this stays below $10000).
                *end = u32::from(fetch_end(lent, p >> 4)).clamp(start, start + 0x100) as u16;
            }
            ends
        };
        let (ram_lent, rom_lent) = (lent_ends(readable), lent_ends(rom_readable));
        // Cut at the page's first stop.
        let cut = |lent: &[u16; 256]| {
            let mut ends = *lent;
            for (p, end) in ends.iter_mut().enumerate() {
                if let Some(first) = (0..4).find_map(|w| {
                    let word = stops[p * 4 + w];
                    (word != 0).then(|| ((p * 4 + w) << 6) as u16 + word.trailing_zeros() as u16)
                }) {
                    *end = (*end).min(first);
                }
            }
            ends
        };
        PageEnds {
            ram: cut(&ram_lent),
            rom: cut(&rom_lent),
            ram_lent,
            rom_lent,
            stops,
        }
    }
}

/// The fetch limits of code in RAM and in ROM (`PageEnds` and `block_ends`) for one
/// lending: `run_direct` keeps the last ones in the `Cpu`, so that the calls between two
/// exact steps, which mostly see the same banking and watches, do not make them again.
#[derive(Clone)]
pub(super) struct FetchEnds {
    /// The regions lent as RAM and as ROM (16 bits each), the watched pages and addresses
    /// they were made for (`at_len`: `AT_NONE` for none, `AT_MAX + 1` for more than
    /// `AT_MAX`, never the same); `u32::MAX` (no lending has it: ROM is lent only where RAM is not): none
    /// yet, and `pages` is `None` only then.
    key: u32,
    watched: [u64; 4],
    at: [u16; AT_MAX],
    at_len: usize,
    ram: [u16; RAM_BLOCKS],
    rom: [u16; ROM_BLOCKS],
    /// `None` until the first lending (boxed: handlers make a `Cpu` of their own).
    pages: Option<Box<PageEnds>>,
}

impl FetchEnds {
    pub(super) const NONE: FetchEnds = FetchEnds {
        key: u32::MAX,
        watched: [0; 4],
        at: [0; AT_MAX],
        at_len: AT_NONE,
        ram: [0; RAM_BLOCKS],
        rom: [0; ROM_BLOCKS],
        pages: None,
    };

    /// Made for these watched addresses.
    #[inline(always)]
    fn made_for(&self, at: Option<&[u16]>) -> bool {
        match at {
            None => self.at_len == AT_NONE,
            Some(at) if at.len() > AT_MAX => false,
            Some(at) => self.at_len == at.len() && self.at[..at.len()] == *at,
        }
    }
}

impl std::fmt::Debug for FetchEnds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FetchEnds { .. }")
    }
}

/// Fetches the next opcode and runs its handler, unless the cycles are used up or the
/// opcode and its operands (3 bytes from `pc`) are not all lent memory. `ROM`: the last
/// instruction was fetched from ROM, so this one most likely is too; the other kind of
/// memory, a watched region and the end of the chain are `redispatch`'s.
#[inline(always)]
fn dispatch<const ROM: bool>(sh: &mut Shared<'_>, st: i64, a: u8, nz: u16, x: u8, y: u8) {
    let pc = st as u16;
    if st >= CYCLE {
        if ROM {
            if pc < sh.rom_fetch_end[(pc >> ROM_BLOCK_SHIFT) as usize] {
                let op = sh.rom[pc as usize];
                return ROM_HANDLERS[op as usize](sh, st, a, nz, x, y);
            }
        } else if pc < sh.ram_fetch_end[(pc >> RAM_BLOCK_SHIFT) as usize] {
            let op = sh.ram[pc as usize];
            return RAM_HANDLERS[op as usize](sh, st, a, nz, x, y);
        }
    }
    redispatch(sh, st, a, nz, x, y)
}

/// The next instruction as `dispatch` could not run it: from the other kind of memory (code
/// in RAM calling ROM and back), or in a block after a page cut short (by the page's
/// limits, else `in_watched_page`), or the chain ends here.
#[inline(never)]
fn redispatch(sh: &mut Shared<'_>, st: i64, a: u8, nz: u16, x: u8, y: u8) {
    let pc = st as u16;
    if st >= CYCLE {
        if pc < sh.ram_fetch_end[(pc >> RAM_BLOCK_SHIFT) as usize] {
            let op = sh.ram[pc as usize];
            return RAM_HANDLERS[op as usize](sh, st, a, nz, x, y);
        }
        if pc < sh.rom_fetch_end[(pc >> ROM_BLOCK_SHIFT) as usize] {
            let op = sh.rom[pc as usize];
            return ROM_HANDLERS[op as usize](sh, st, a, nz, x, y);
        }
        // The block limits leave out the rest of a block after a page cut short.
        let p = (pc >> 8) as usize;
        if pc < sh.pages.ram[p] {
            let op = sh.ram[pc as usize];
            return RAM_HANDLERS[op as usize](sh, st, a, nz, x, y);
        }
        if pc < sh.pages.rom[p] {
            let op = sh.rom[pc as usize];
            return ROM_HANDLERS[op as usize](sh, st, a, nz, x, y);
        }
        return in_watched_page(sh, st, a, nz, x, y);
    }
    stop(sh, st, a, nz, x, y);
}

/// `redispatch` where `PageEnds` say no: in a watched page at or after its first watched
/// address (run unless it starts at a watched address, at any if the bus names none), or
/// where the opcode and operands are not all lent (the chain ends). Kept apart, so that
/// `redispatch`'s way through `PageEnds` stays short.
#[inline(never)]
#[cold]
fn in_watched_page(sh: &mut Shared<'_>, st: i64, a: u8, nz: u16, x: u8, y: u8) {
    let pc = st as u16;
    let p = (pc >> 8) as usize;
    if sh.pages.stops[(pc >> 6) as usize] >> (pc & 63) & 1 == 0 {
        if pc < sh.pages.ram_lent[p] {
            let op = sh.ram[pc as usize];
            return RAM_HANDLERS[op as usize](sh, st, a, nz, x, y);
        }
        if pc < sh.pages.rom_lent[p] {
            let op = sh.rom[pc as usize];
            return ROM_HANDLERS[op as usize](sh, st, a, nz, x, y);
        }
    }
    stop(sh, st, a, nz, x, y);
}

/// The chain ends before this instruction.
#[inline(always)]
fn stop(sh: &mut Shared<'_>, st: i64, a: u8, nz: u16, x: u8, y: u8) {
    sh.stop = Hot {
        state: st,
        a,
        nz,
        x,
        y,
    };
}

/// One opcode, fetched from RAM or (`ROM`) from ROM. Each arm checks its addresses
/// (`break 'run` leaves the instruction untouched, for the exact path), then does its work,
/// then goes on to the next one.
fn handler<const OP: u8, const ROM: bool>(
    sh: &mut Shared<'_>,
    st: i64,
    a: u8,
    nz: u16,
    x: u8,
    y: u8,
) {
    let pc = st as u16;
    let (masks, floor, irq_held) = (sh.masks, sh.floor, sh.irq_held);
    let (guard, checks_end) = (sh.guard, sh.checks_end);
    let (s, vf, df, iflag) = (sh.s, sh.vf, sh.df, sh.iflag);
    let mut c = Cpu {
        pc,
        a,
        x,
        y,
        s,
        nz,
        cf: ((st & CARRY) != 0) as u8,
        vf,
        df,
        iflag,
        irq_pending: false,
        nmi_latched: false,
        jammed: false,
        // ANE and LXA always take the exact path (`EXACT_PATH_OPCODES`): unused here.
        ane_magic: super::ANE_MAGIC,
        lxa_magic: super::LXA_MAGIC,
        fetch_ends: FetchEnds::NONE,
    };
    // Lent for a read (a dummy read's address).
    macro_rules! lent {
        ($a:expr) => {
            (masks >> (48 + ($a >> 12))) & 1 != 0
        };
    }
    macro_rules! writable {
        ($a:expr) => {
            (masks >> (16 + ($a >> 12))) & 1 != 0
                && (u32::from($a) >= checks_end || ($a >= floor && ($a >> 8) != guard))
        };
    }
    macro_rules! word {
        ($lo:expr, $hi:expr) => {
            $lo as u16 | ($hi as u16) << 8
        };
    }
    'run: {
        let ram: &mut [u8; 0x10000] = sh.ram;
        // The operands come from where the opcode came from (`dispatch` checked that all
        // three bytes are there).
        let (b1, b2) = if ROM {
            (
                sh.rom[pc.wrapping_add(1) as usize],
                sh.rom[pc.wrapping_add(2) as usize],
            )
        } else {
            (
                ram[pc.wrapping_add(1) as usize],
                ram[pc.wrapping_add(2) as usize],
            )
        };
        let abs = word!(b1, b2);
        // A read of RAM or ROM as lent, or the exact path's. RAM first, ROM on the cold
        // path: code mostly reads RAM, and code in RAM then runs as if no ROM were lent.
        macro_rules! load {
            ($a:expr) => {{
                let a: u16 = $a;
                if (masks >> (a >> 12)) & 1 != 0 {
                    ram[a as usize]
                } else {
                    std::hint::cold_path();
                    if !lent!(a) {
                        break 'run;
                    }
                    sh.rom[a as usize]
                }
            }};
        }
        let zp_word =
            |ram: &[u8; 0x10000], p: u8| word!(ram[p as usize], ram[p.wrapping_add(1) as usize]);

        // The instruction is done: go on with the next one (a tail call: no stack grows
        // in an optimised build). The rare registers kept in `sh` are stored only where
        // changed (the optimiser sees which arms can change them).
        macro_rules! goto {
            ($state:expr) => {{
                let state: i64 = $state;
                if c.s != s {
                    sh.s = c.s;
                }
                if (c.vf, c.df, c.iflag) != (vf, df, iflag) {
                    (sh.vf, sh.df, sh.iflag) = (c.vf, c.df, c.iflag);
                }
                // Flip the carry bit only if the carry changed.
                let cf = ((st & CARRY) != 0) as u8;
                let state = state ^ ((c.cf ^ cf) as i64) << 16;
                return dispatch::<ROM>(sh, state, c.a, c.nz, c.x, c.y);
            }};
            // A jump or branch to itself is a one-instruction loop (`JMP *`, the end of CPU
            // test programs): left to the exact path, so a run that watches for stuck loops
            // sees it there, at its first execution.
            ($target:expr, $cycles:expr) => {{
                let target: u16 = $target;
                if target == pc {
                    break 'run;
                }
                goto!(((st & !0xFFFF) | target as i64) - $cycles * CYCLE)
            }};
        }
        macro_rules! done {
            ($len:expr, $cycles:expr) => {
                goto!(st + $len - $cycles * CYCLE)
            };
        }
        // An indexed address: (base, effective address, 1 if a page was crossed).
        macro_rules! indexed {
            ($base:expr, $index:expr) => {{
                let base: u16 = $base;
                let ea = base.wrapping_add($index as u16);
                (base, ea, ((base ^ ea) >> 8 != 0) as i64)
            }};
        }
        macro_rules! read {
            (imm, $f:ident) => {{
                c.$f(b1);
                done!(2, 2);
            }};
            (zp, $f:ident) => {{
                c.$f(ram[b1 as usize]);
                done!(2, 3);
            }};
            (zpx, $f:ident) => {{
                c.$f(ram[b1.wrapping_add(c.x) as usize]);
                done!(2, 4);
            }};
            (zpy, $f:ident) => {{
                c.$f(ram[b1.wrapping_add(c.y) as usize]);
                done!(2, 4);
            }};
            (abs, $f:ident) => {{
                let v = load!(abs);
                c.$f(v);
                done!(3, 4);
            }};
            (absx, $f:ident) => {{
                read!(@indexed abs, c.x, 3, 4, $f)
            }};
            (absy, $f:ident) => {{
                read!(@indexed abs, c.y, 3, 4, $f)
            }};
            (izx, $f:ident) => {{
                let v = load!(zp_word(ram, b1.wrapping_add(c.x)));
                c.$f(v);
                done!(2, 6);
            }};
            (izy, $f:ident) => {{
                read!(@indexed zp_word(ram, b1), c.y, 2, 5, $f)
            }};
            // The dummy read on a page cross is in the base's page.
            (@indexed $base:expr, $index:expr, $len:expr, $cycles:expr, $f:ident) => {{
                let (base, ea, crossed) = indexed!($base, $index);
                if crossed != 0 && !lent!(base) {
                    break 'run;
                }
                let v = load!(ea);
                c.$f(v);
                done!($len, $cycles + crossed);
            }};
        }
        macro_rules! reg {
            (a) => {
                c.a
            };
            (x) => {
                c.x
            };
            (y) => {
                c.y
            };
            (ax) => {
                c.a & c.x
            };
        }
        macro_rules! store {
            ($mode:ident, $r:ident) => {{
                store!(@at $mode, reg!($r))
            }};
            (@at zp, $v:expr) => {{
                store!(@zp b1, $v, 3)
            }};
            (@at zpx, $v:expr) => {{
                store!(@zp b1.wrapping_add(c.x), $v, 4)
            }};
            (@at zpy, $v:expr) => {{
                store!(@zp b1.wrapping_add(c.y), $v, 4)
            }};
            (@at abs, $v:expr) => {{
                if !writable!(abs) {
                    break 'run;
                }
                ram[abs as usize] = $v;
                done!(3, 4);
            }};
            (@at absx, $v:expr) => {{
                store!(@indexed abs, c.x, 3, 5, $v)
            }};
            (@at absy, $v:expr) => {{
                store!(@indexed abs, c.y, 3, 5, $v)
            }};
            (@at izx, $v:expr) => {{
                let ea = zp_word(ram, b1.wrapping_add(c.x));
                if !writable!(ea) {
                    break 'run;
                }
                ram[ea as usize] = $v;
                done!(2, 6);
            }};
            (@at izy, $v:expr) => {{
                store!(@indexed zp_word(ram, b1), c.y, 2, 6, $v)
            }};
            (@zp $ea:expr, $v:expr, $cycles:expr) => {{
                let ea = $ea as u16;
                if ea < floor {
                    break 'run;
                }
                ram[ea as usize] = $v;
                done!(2, $cycles);
            }};
            // Writes always make the dummy read in the base's page first.
            (@indexed $base:expr, $index:expr, $len:expr, $cycles:expr, $v:expr) => {{
                let (base, ea, _) = indexed!($base, $index);
                if !writable!(ea) || !lent!(base) {
                    break 'run;
                }
                ram[ea as usize] = $v;
                done!($len, $cycles);
            }};
        }
        // Read-modify-write: the NMOS double write leaves the same end state in RAM. Over
        // ROM, the read is the ROM's and the writes go to the RAM under it.
        macro_rules! rmw {
            (acc, $f:ident) => {{
                c.a = c.$f(c.a);
                done!(1, 2);
            }};
            (zp, $f:ident) => {{
                rmw!(@zp b1, 5, $f)
            }};
            (zpx, $f:ident) => {{
                rmw!(@zp b1.wrapping_add(c.x), 6, $f)
            }};
            (abs, $f:ident) => {{
                rmw!(@at abs, 3, 6, $f)
            }};
            (izx, $f:ident) => {{
                rmw!(@at zp_word(ram, b1.wrapping_add(c.x)), 2, 8, $f)
            }};
            (absx, $f:ident) => {{
                rmw!(@indexed abs, c.x, 3, 7, $f)
            }};
            (absy, $f:ident) => {{
                rmw!(@indexed abs, c.y, 3, 7, $f)
            }};
            (izy, $f:ident) => {{
                rmw!(@indexed zp_word(ram, b1), c.y, 2, 8, $f)
            }};
            (@zp $ea:expr, $cycles:expr, $f:ident) => {{
                let ea = $ea as u16;
                if ea < floor {
                    break 'run;
                }
                ram[ea as usize] = c.$f(ram[ea as usize]);
                done!(2, $cycles);
            }};
            (@at $ea:expr, $len:expr, $cycles:expr, $f:ident) => {{
                let ea: u16 = $ea;
                if !writable!(ea) {
                    break 'run;
                }
                let v = load!(ea);
                ram[ea as usize] = c.$f(v);
                done!($len, $cycles);
            }};
            (@indexed $base:expr, $index:expr, $len:expr, $cycles:expr, $f:ident) => {{
                let (base, ea, _) = indexed!($base, $index);
                if !writable!(ea) || !lent!(base) {
                    break 'run;
                }
                let v = load!(ea);
                ram[ea as usize] = c.$f(v);
                done!($len, $cycles);
            }};
        }
        macro_rules! implied {
            () => {
                done!(1, 2)
            };
            ($body:expr) => {{
                $body;
                done!(1, 2);
            }};
        }
        macro_rules! branch {
            ($cond:expr) => {{
                if $cond {
                    let next = pc.wrapping_add(2);
                    let target = next.wrapping_add(b1 as i8 as u16);
                    goto!(target, 3 + ((next ^ target) >> 8 != 0) as i64);
                } else {
                    done!(2, 2);
                }
            }};
        }
        // The stack is page 1: plain RAM whenever direct memory is lent.
        macro_rules! push {
            ($v:expr) => {{
                ram[0x100 | c.s as usize] = $v;
                c.s = c.s.wrapping_sub(1);
            }};
        }
        macro_rules! pull {
            () => {{
                c.s = c.s.wrapping_add(1);
                ram[0x100 | c.s as usize]
            }};
        }

        regular_opcodes!(OP, c, {
            // Clearing I with /IRQ held makes the next poll take it: the exact path.
            0x58 if !irq_held => implied!(c.iflag = false),
            // ---- stack
            0x48 => {
                push!(c.a);
                done!(1, 3);
            }
            0x08 => {
                push!(c.p());
                done!(1, 3);
            }
            0x68 => {
                let v = pull!();
                c.lda(v);
                done!(1, 4);
            }
            0x28 if !irq_held => {
                let v = pull!();
                c.set_p(v);
                done!(1, 4);
            }
            // ---- jumps and subroutines
            0x4C => {
                goto!(abs, 3);
            }
            0x6C => {
                // The NMOS page-wrap bug: the high byte comes from the same page.
                let lo = load!(abs);
                let hi = load!((abs & 0xFF00) | (abs.wrapping_add(1) & 0x00FF));
                goto!(word!(lo, hi), 5);
            }
            0x20 => {
                if abs == pc {
                    break 'run; // a JSR to itself: a stuck loop (see `goto!`)
                }
                // JSR fetches its high operand byte after the pushes (cycle 6): a push onto
                // that byte changes the target ($017E: 20 55 13 with S=$80 goes to $0155).
                // The only instruction that writes between its operand fetches: such a
                // JSR is left to the exact path.
                let high = pc.wrapping_add(2);
                if high == 0x100 | c.s as u16 || high == 0x100 | c.s.wrapping_sub(1) as u16 {
                    break 'run;
                }
                let ret = pc.wrapping_add(2);
                push!((ret >> 8) as u8);
                push!(ret as u8);
                goto!(abs, 6);
            }
            0x60 => {
                // RTS ends with a dummy read at the return address.
                let s = c.s;
                let ret = word!(
                    ram[0x100 | s.wrapping_add(1) as usize],
                    ram[0x100 | s.wrapping_add(2) as usize]
                );
                if !lent!(ret) {
                    break 'run;
                }
                c.s = s.wrapping_add(2);
                goto!(ret.wrapping_add(1), 6);
            }
            0x40 if !irq_held => {
                let p = pull!();
                c.set_p(p);
                let lo = pull!();
                let hi = pull!();
                goto!(word!(lo, hi), 6);
            }
            // `Cpu::EXACT_PATH_OPCODES` (BRK, JAM, the unstable ones), and CLI/PLP/RTI with
            // /IRQ held: the exact path. (tests/direct.rs checks that no other opcode ends
            // up here.)
            _ => break 'run,
        })
    }
    // Here only by `break 'run`: the exact path runs this instruction.
    sh.stop = Hot {
        state: st,
        a,
        nz,
        x,
        y,
    };
}

/// What `rom` is when a bus lends none (never read: no region reads it).
static NO_ROM: [u8; 0x10000] = [0; 0x10000];

/// `handler::<OP, ROM>` for every opcode: `table::<ROM>()[op]`.
const fn table<const ROM: bool>() -> [Handler; 256] {
    macro_rules! row {
        ($hi:literal) => {
            [
                handler::<{ $hi * 16 }, ROM>,
                handler::<{ $hi * 16 + 1 }, ROM>,
                handler::<{ $hi * 16 + 2 }, ROM>,
                handler::<{ $hi * 16 + 3 }, ROM>,
                handler::<{ $hi * 16 + 4 }, ROM>,
                handler::<{ $hi * 16 + 5 }, ROM>,
                handler::<{ $hi * 16 + 6 }, ROM>,
                handler::<{ $hi * 16 + 7 }, ROM>,
                handler::<{ $hi * 16 + 8 }, ROM>,
                handler::<{ $hi * 16 + 9 }, ROM>,
                handler::<{ $hi * 16 + 10 }, ROM>,
                handler::<{ $hi * 16 + 11 }, ROM>,
                handler::<{ $hi * 16 + 12 }, ROM>,
                handler::<{ $hi * 16 + 13 }, ROM>,
                handler::<{ $hi * 16 + 14 }, ROM>,
                handler::<{ $hi * 16 + 15 }, ROM>,
            ]
        };
    }
    let rows: [[Handler; 16]; 16] = [
        row!(0),
        row!(1),
        row!(2),
        row!(3),
        row!(4),
        row!(5),
        row!(6),
        row!(7),
        row!(8),
        row!(9),
        row!(10),
        row!(11),
        row!(12),
        row!(13),
        row!(14),
        row!(15),
    ];
    let mut all: [Handler; 256] = [rows[0][0]; 256];
    let mut op = 0;
    while op < 256 {
        all[op] = rows[op / 16][op % 16];
        op += 1;
    }
    all
}

/// The handlers of instructions fetched from RAM, by opcode.
static RAM_HANDLERS: [Handler; 256] = table::<false>();
/// The handlers of instructions fetched from ROM, by opcode.
static ROM_HANDLERS: [Handler; 256] = table::<true>();

impl Cpu {
    /// Runs instructions on the bus's direct memory while the bus's cycle counter is below
    /// `limit`; returns at the first instruction that needs the cycle-by-cycle path (run it
    /// with [`Cpu::step`]), or at once if the bus lends no memory now.
    pub fn run_direct<B: Bus>(&mut self, bus: &mut B, limit: u64) {
        if self.irq_pending || self.nmi_latched || self.jammed {
            return;
        }
        let Some(DirectMemory {
            ram,
            rom,
            readable,
            rom_readable,
            writable,
            write_floor,
            write_guard,
            watched,
            watched_at,
            cycles,
            quiet_until,
            irq,
        }) = bus.direct_memory()
        else {
            return;
        };
        // Zero page and stack are used without checks; a held IRQ with I clear would be
        // taken at the next poll.
        if readable & writable & 1 == 0 || (irq && !self.iflag) {
            return;
        }
        // Cycles left before `limit` or the last instruction whose poll is surely quiet.
        let end = limit.min(quiet_until.saturating_sub(MAX_CYCLES - 1));
        let start = *cycles;
        if start >= end {
            return;
        }
        let budget = (end - start).min(1 << 40) as i64;
        // RAM where both are lent; no ROM without its bytes.
        let (rom, rom_readable) = match rom {
            Some(rom) => (rom, rom_readable & !readable),
            None => (&NO_ROM, 0),
        };
        let key = readable as u32 | (rom_readable as u32) << 16;
        if self.fetch_ends.key != key
            || self.fetch_ends.watched != watched
            || !self.fetch_ends.made_for(watched_at)
        {
            let mut at = [0; AT_MAX];
            let at_len = match watched_at {
                None => AT_NONE,
                Some(list) if list.len() > AT_MAX => AT_MAX + 1,
                Some(list) => {
                    at[..list.len()].copy_from_slice(list);
                    list.len()
                }
            };
            let pages = PageEnds::new(readable, rom_readable, &watched, watched_at);
            let pages = match self.fetch_ends.pages.take() {
                Some(mut old) => {
                    *old = pages;
                    old
                }
                None => Box::new(pages),
            };
            self.fetch_ends = FetchEnds {
                key,
                watched,
                at,
                at_len,
                ram: block_ends::<RAM_BLOCK_SHIFT, RAM_BLOCKS>(&pages.ram),
                rom: block_ends::<ROM_BLOCK_SHIFT, ROM_BLOCKS>(&pages.rom),
                pages: Some(pages),
            };
        }
        let Some(pages) = self.fetch_ends.pages.as_deref() else {
            return;
        };
        let mut sh = Shared {
            ram,
            rom,
            masks: readable as u64
                | (writable as u64) << 16
                | (rom_readable as u64) << 32
                | ((readable | rom_readable) as u64) << 48,
            ram_fetch_end: self.fetch_ends.ram,
            rom_fetch_end: self.fetch_ends.rom,
            pages,
            floor: write_floor,
            guard: write_guard.map_or(0x100, u16::from),
            checks_end: write_guard.map_or(u32::from(write_floor), |page| {
                u32::from(write_floor).max((u32::from(page) + 1) << 8)
            }),
            irq_held: irq,
            s: self.s,
            vf: self.vf,
            df: self.df,
            iflag: self.iflag,
            stop: Hot {
                state: (self.cf as i64) << 16 | self.pc as i64,
                a: self.a,
                nz: self.nz,
                x: self.x,
                y: self.y,
            },
        };
        let mut left = budget;
        loop {
            let chain = left.min(CHAIN_CYCLES);
            let h = sh.stop;
            let state = (chain * CYCLE) | (h.state & (CARRY | 0xFFFF));
            dispatch::<false>(&mut sh, state, h.a, h.nz, h.x, h.y);
            let stopped = sh.stop.state;
            left -= chain - (stopped >> 17);
            // Cycles left in the chain: it stopped at an instruction for the exact path.
            if stopped >= CYCLE || left <= 0 {
                break;
            }
        }
        *cycles = start + (budget - left) as u64;
        let h = sh.stop;
        self.pc = h.state as u16;
        self.a = h.a;
        self.nz = h.nz;
        self.x = h.x;
        self.y = h.y;
        self.cf = ((h.state & CARRY) != 0) as u8;
        self.s = sh.s;
        self.vf = sh.vf;
        self.df = sh.df;
        self.iflag = sh.iflag;
    }

    /// The opcodes [`Cpu::run_direct`] always hands to the cycle-by-cycle path (whatever the
    /// addresses): BRK, the JAMs and the unstable ones (ANE, LXA, LAS, SHA, SHX, SHY, TAS).
    pub const EXACT_PATH_OPCODES: [u8; 21] = [
        0x00, 0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2, 0x8B, 0xAB,
        0xBB, 0x93, 0x9F, 0x9E, 0x9C, 0x9B,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `PageEnds` (and the blocks made of them) let no PC run directly that the slow look
    /// (`in_watched_page`) would not:
    /// opcode and operands lent, not at a watched address; and all the others of a page
    /// before its first watched address.
    #[test]
    fn page_ends_agree_with_the_slow_look() {
        let watches: [([u64; 4], Option<&[u16]>); 4] = [
            ([0; 4], None),
            ([0, 0, 0, 1 << 0x23 | 1 << 0x31 | 1 << 0x3F], None),
            (
                [1 << 0x08, 0, 0, 1 << 0x23 | 1 << 0x31 | 1 << 0x3F],
                Some(&[0xE38B, 0xF13E, 0xFFFE, 0x0801, 0xE3A0]),
            ),
            (
                [0, 0, 0, 1 << 0x23],
                Some(&[0xE300, 1, 2, 3, 4, 5, 6, 7, 8]),
            ),
        ];
        for (readable, rom_readable) in [
            (0xFFFF, 0),
            (0x1FFF, 0xE000),
            (0x9FFF, 0x6000),
            (0x0001, 0xA000),
        ] {
            for (watched, at) in watches {
                let pages = PageEnds::new(readable, rom_readable, &watched, at);
                for (lent, ends) in [(readable, &pages.ram), (rom_readable, &pages.rom)] {
                    let blocks: [&[u16]; 2] = [
                        &block_ends::<RAM_BLOCK_SHIFT, RAM_BLOCKS>(ends),
                        &block_ends::<ROM_BLOCK_SHIFT, ROM_BLOCKS>(ends),
                    ];
                    for pc in 0..=u16::MAX {
                        for (shift, blocks) in [RAM_BLOCK_SHIFT, ROM_BLOCK_SHIFT].iter().zip(blocks)
                        {
                            let b = (pc >> shift) as usize;
                            // A block's PCs are its pages' up to the first page cut short.
                            let cut = ((b << (shift - 8))..(pc >> 8) as usize)
                                .any(|q| u32::from(ends[q]) < (q as u32 + 1) << 8);
                            assert_eq!(
                                pc < blocks[b],
                                pc < ends[(pc >> 8) as usize] && !cut,
                                "blocks of {shift} bits: lent {lent:016b}, watched {watched:x?} {at:x?}, ${pc:04X}"
                            );
                        }
                        let p = (pc >> 8) as usize;
                        let in_page = watched[p >> 6] >> (p & 63) & 1 != 0;
                        let at_watch = in_page && at.is_none_or(|at| at.contains(&pc));
                        let first = in_page
                            && (p << 8..pc as usize)
                                .any(|a| at.is_none_or(|at| at.contains(&(a as u16))));
                        let lent_here = pc < fetch_end(lent, p >> 4);
                        let lent_ends = if lent == readable {
                            &pages.ram_lent
                        } else {
                            &pages.rom_lent
                        };
                        assert_eq!(pc < lent_ends[p], lent_here, "lent {lent:016b}, ${pc:04X}");
                        let stop = pages.stops[(pc >> 6) as usize] >> (pc & 63) & 1 != 0;
                        assert_eq!(stop, at_watch, "stops: {watched:x?} {at:x?}, ${pc:04X}");
                        let runs = lent_here && !at_watch && !first;
                        assert_eq!(
                            pc < ends[p],
                            runs,
                            "lent {lent:016b}, watched {watched:x?} {at:x?}, ${pc:04X}"
                        );
                    }
                }
            }
        }
    }
}
