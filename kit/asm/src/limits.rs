//! The limits that keep someone else's source from making the assembler run for ever, fill
//! the memory or read too much (see docs/assembler.md, "Limits"), and the messages that
//! name them.

use c64kit_files::MIB;

/// Passes at most: a program whose addresses have not settled by then never will (a value
/// that depends on its own size).
pub const MAX_PASSES: usize = 20;
/// How deep macro calls, `incasm` and `repeat` blocks may nest (all three together). Each
/// level is a recursion of the assembler, so this keeps the stack small; real programs use
/// a handful of levels, and endless macro recursion or self-inclusion stops here.
pub const MAX_NESTING: usize = 64;
pub const MAX_REPEAT: i64 = 65536;
/// Statements (lines, taken or skipped) one pass may run: turns an endless repeat or macro
/// recursion into an error long before it could matter for time or memory.
pub const MAX_STATEMENTS: usize = 1_000_000;
/// Statements all passes together may run. A program that never settles runs
/// [`MAX_PASSES`] passes; this keeps 20 passes of a million statements (several seconds)
/// from happening, while a real program (a few thousand statements, two or three passes)
/// stays far below it.
pub const MAX_TOTAL_STATEMENTS: usize = 4_000_000;
/// The budget on the total work of an assembly, all passes together: one unit per
/// character of every line run or skipped (each time: macro expansions and repeat bodies
/// count once per use), per character of a name made by repeat-variable substitution, per
/// byte placed, and [`FS_LOOK_WORK`] per look at the file system when finding a file named
/// in the source. The statement counts alone do not bound the work, since one statement
/// may be a long line, place a large `incbin` or name a file thousands of folders up: this
/// does. The RYG engines use 0.12
/// million (about 60,000 characters of source, two passes), so a program 250 times their
/// size still fits; the densest lines (thousands of tokens each) use the budget up in about
/// half a second of CPU.
pub const MAX_WORK: u64 = 32_000_000;
/// The longest line, in characters, also after macro parameters are replaced. Lines are
/// lexed whole and macro arguments are copied into lines, so this bounds the memory of one
/// statement and stops a macro that doubles its argument at every call. Hand-written and
/// generated sources (a 256-entry table is about 1,000 characters) stay far below it.
pub const MAX_LINE_CHARS: usize = 16_384;
/// The largest source file (`.asm`, build-list entry or `incasm`). Sources of real programs
/// are tens of KiB; this leaves room for big generated data while keeping a whole file (its
/// text and line index) in memory cheap.
pub const MAX_SOURCE_BYTES: u64 = 16 * MIB;
/// The largest `.cbmprj` project file. CBM prg Studio projects are a few KiB of XML even
/// with hundreds of files; the XML tree takes several times the file's size in memory.
pub const MAX_PROJECT_BYTES: u64 = 4 * MIB;
/// The largest file `incbin` reads. At most 64 KiB of it can ever be placed, but `incbin`
/// takes an offset, so a slice may come from further in: 2 MiB covers the largest C64
/// cartridge image (1 MiB EasyFlash, as a .crt with its chip headers) and disk images
/// (a .d81 is 800 KiB).
pub const MAX_INCBIN_BYTES: u64 = 2 * MIB;
/// Everything one assembly reads (project, sources, `incbin` files), each file counted
/// once. Sources stay in memory for the whole assembly, with a line index of up to four
/// bytes per line: this bounds that memory whatever the number of files.
pub const MAX_READ_BYTES: u64 = 24 * MIB;
/// Errors reported at most: the first ones matter, and a broken file could give millions.
pub(crate) const MAX_ERRORS: usize = 200;

pub(crate) fn out_of_work(limit: u64) -> String {
    format!(
        "more than {limit} units of work in all passes together (a unit per character of \
         each line run, each time, and per byte placed: a runaway macro or repeat?)"
    )
}

pub(crate) fn nested_too_deeply() -> String {
    format!(
        "macros, includes and repeats nested too deeply (more than {MAX_NESTING} levels: \
         recursion?)"
    )
}

pub(crate) fn line_too_long(chars: usize) -> String {
    format!("line is {chars} characters long (at most {MAX_LINE_CHARS})")
}

pub(crate) fn substituted_too_long() -> String {
    format!("line is longer than {MAX_LINE_CHARS} characters once macro parameters are replaced")
}
