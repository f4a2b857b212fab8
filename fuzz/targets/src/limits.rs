//! The bounds a target run must keep, checked in process (the regression and smoke tests):
//! no panic, no run far beyond libFuzzer's 2 s, no more than 256 MB at once.
//!
//! Memory is counted by [`Counting`], a global allocator a test binary installs
//! (`#[global_allocator] static A: c64kit_fuzz::limits::Counting = ...;`). It counts each
//! thread's live bytes and their peak, so tests running side by side do not mix; a single
//! request beyond the limit is refused, which Rust reports as "memory allocation of N bytes
//! failed" and aborts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// libFuzzer's `-rss_limit_mb=256`.
pub const MEMORY_LIMIT: usize = 256 << 20;

/// libFuzzer's `-timeout=2`, for optimised builds.
pub const TIME_LIMIT: Duration = Duration::from_secs(2);

/// What an unoptimised test build may take before a run counts as a hang: ten times the
/// fuzzer's bound, since debug code is slower (the workspace's dev profile has opt-level 1).
pub const DEBUG_TIME_LIMIT: Duration = Duration::from_secs(20);

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grew(n: usize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get().saturating_add(n);
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

fn shrank(n: usize) {
    let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(n)));
}

/// The system allocator, counting each thread's live bytes and peak.
pub struct Counting;

// SAFETY: every call is forwarded to `System` unchanged (or refused with null, which the
// `GlobalAlloc` contract allows); the counting touches only thread-local cells without
// destructors.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > MEMORY_LIMIT {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > MEMORY_LIMIT {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded.
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > MEMORY_LIMIT {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            shrank(layout.size());
            grew(new_size);
        }
        p
    }
}

/// Why a run of a target is a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The panic's message.
    Panic(String),
    /// It finished, but took this long (CPU time).
    Slow(Duration),
    /// It held this many bytes at once (counted only under [`Counting`]).
    Memory(usize),
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Panic(m) => write!(f, "panic: {m}"),
            Finding::Slow(d) => write!(f, "hang: took {:.1} s of CPU", d.as_secs_f64()),
            Finding::Memory(n) => write!(f, "memory blow-up: {} MB at once", n >> 20),
        }
    }
}

/// CPU time of this thread, so that a run is not judged by how busy the machine is (wall
/// time where the platform has no such clock).
pub fn thread_time() -> Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a valid clock id and a pointer to a timespec we own.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Runs `target` on `data` on this thread: a panic, a run taking more than `time_limit` of
/// CPU time or a peak of more than [`MEMORY_LIMIT`] bytes is a finding. A run that never
/// ends is the caller's to notice (from another thread).
pub fn run_checked(target: fn(&[u8]), data: &[u8], time_limit: Duration) -> Result<(), Finding> {
    let base = LIVE.try_with(Cell::get).unwrap_or(0);
    let _ = PEAK.try_with(|p| p.set(base));
    let start = thread_time();
    let result = catch_unwind(AssertUnwindSafe(|| target(data)));
    let took = thread_time().saturating_sub(start);
    let peak = PEAK.try_with(Cell::get).unwrap_or(0).saturating_sub(base);
    if let Err(payload) = result {
        return Err(Finding::Panic(c64kit_plugin_api::panic_message(&*payload)));
    }
    if took > time_limit {
        return Err(Finding::Slow(took));
    }
    if peak > MEMORY_LIMIT {
        return Err(Finding::Memory(peak));
    }
    Ok(())
}

/// Bytes as hex, 32 a line, for a finding's report.
pub fn hex(data: &[u8]) -> String {
    data.chunks(32)
        .map(|line| line.iter().map(|b| format!("{b:02x}")).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}
