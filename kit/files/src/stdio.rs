//! Standard output and standard error, written so that no failure panics (`println!` and
//! `eprintln!` do: "failed printing to stdout: Broken pipe", exit 101).
//!
//! There is one standard output per process, so its state is kept here once: the first
//! failure ends what is written to it, and the command then ends through [`exit_code`]. A
//! reader that went away (`| head`) is no failure: the command goes on quietly and keeps its
//! own exit code. Any other failure (a full disk) makes it exit 1, naming standard output and
//! what could not be written. Standard error has nowhere left to report its own failure:
//! [`errln!`](crate::errln) drops it.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Mutex;

/// Why standard output stopped taking what the command writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StdoutFailure {
    /// The reader went away (a closed pipe): not worth a message or a failure.
    ReaderLeft,
    /// "cannot write the table to standard output: No space left on device".
    Failed(String),
}

/// The process's standard output: its first failure, if any.
static STDOUT: Mutex<Option<StdoutFailure>> = Mutex::new(None);

/// Writes and flushes `bytes` (so a full disk shows at once, not at exit) unless an earlier
/// write failed; keeps the first failure. `what` names what is written ("the table").
fn write_to(out: &mut impl Write, failure: &mut Option<StdoutFailure>, bytes: &[u8], what: &str) {
    if failure.is_some() {
        return;
    }
    if let Err(e) = out.write_all(bytes).and_then(|()| out.flush()) {
        *failure = Some(if e.kind() == io::ErrorKind::BrokenPipe {
            StdoutFailure::ReaderLeft
        } else {
            StdoutFailure::Failed(format!(
                "cannot write {what} to standard output: {}",
                crate::io_reason(&e)
            ))
        });
    }
}

/// Writes `bytes` to standard output (see the module). False once standard output has
/// failed, so a caller may stop making what nobody will read.
pub fn write_stdout(bytes: &[u8], what: &str) -> bool {
    let mut failure = STDOUT.lock().unwrap_or_else(|e| e.into_inner());
    write_to(&mut io::stdout().lock(), &mut failure, bytes, what);
    failure.is_none()
}

/// Writes `text` to standard output (see [`write_stdout`]).
pub fn print(text: &str, what: &str) -> bool {
    write_stdout(text.as_bytes(), what)
}

/// Writes `text` and a newline to standard output (see [`write_stdout`]).
pub fn print_line(text: &str, what: &str) -> bool {
    write_stdout(format!("{text}\n").as_bytes(), what)
}

/// Standard output's first failure, if it had one.
pub fn stdout_failure() -> Option<StdoutFailure> {
    STDOUT.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The exit code of a usage error (a missing argument, an unknown option), as clap's own:
/// every command of c64kit and xtask ends a mistake in how it was called with it.
pub const USAGE_EXIT_CODE: u8 = 2;

/// How a command ends once its output is written: with its own exit code, unless standard
/// output failed for another reason than its reader going away; then the failure is said on
/// standard error after `tool` ("c64kit: cannot write ...") and the exit code is 1.
pub fn exit_code(own: ExitCode, tool: &str) -> ExitCode {
    match stdout_failure() {
        Some(StdoutFailure::Failed(message)) => {
            err_line(format_args!("{tool}: {message}"));
            ExitCode::FAILURE
        }
        _ => own,
    }
}

/// Writes a line to standard error; a failure is dropped (there is nowhere left to say it).
/// Use [`errln!`](crate::errln).
pub fn err_line(line: fmt::Arguments) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// `println!` that never panics: `outln!("the table", "{table}")` writes a line to standard
/// output through [`print_line`], the first argument naming what is written for the message
/// if it cannot be.
#[macro_export]
macro_rules! outln {
    ($what:expr, $($arg:tt)*) => {{
        $crate::stdio::print_line(&format!($($arg)*), $what);
    }};
}

/// `eprintln!` that never panics: a line on standard error, dropped if it cannot be written.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::stdio::err_line(format_args!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes `room` bytes, then fails with `error`.
    struct Failing {
        room: usize,
        error: io::ErrorKind,
        taken: Vec<u8>,
    }

    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::from(self.error));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.taken.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_first_failure_is_kept_and_nothing_is_written_after_it() {
        let mut out = Failing {
            room: 4,
            error: io::ErrorKind::StorageFull,
            taken: Vec::new(),
        };
        let mut failure = None;
        write_to(&mut out, &mut failure, b"abc", "the table");
        assert_eq!(failure, None);
        write_to(&mut out, &mut failure, b"defg", "the summary");
        let Some(StdoutFailure::Failed(message)) = &failure else {
            panic!("{failure:?}");
        };
        assert!(
            message.starts_with("cannot write the summary to standard output: "),
            "{message}"
        );
        out.room = 100;
        write_to(&mut out, &mut failure, b"h", "more");
        assert_eq!(out.taken, b"abcd", "nothing after the failure");
    }

    #[test]
    fn a_reader_that_left_is_no_failure() {
        let mut out = Failing {
            room: 0,
            error: io::ErrorKind::BrokenPipe,
            taken: Vec::new(),
        };
        let mut failure = None;
        write_to(&mut out, &mut failure, b"x", "the table");
        assert_eq!(failure, Some(StdoutFailure::ReaderLeft));
    }
}
