//! Progress messages for long runs, on standard error: on a terminal a line rewritten in
//! place at most a few times a second and erased when the work ends; elsewhere (a pipe, a
//! CI log) a plain line at most every 5 s, and none in a run's first 5 s, so short runs
//! print nothing; none at all with `--quiet`.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

static LAST: Mutex<Option<Instant>> = Mutex::new(None);
static START: Mutex<Option<Instant>> = Mutex::new(None);
static SHOWN: AtomicBool = AtomicBool::new(false);

/// 0: a terminal's line; 1: plain lines; 2: nothing.
static MODE: AtomicU8 = AtomicU8::new(0);

/// Choose how progress is shown: nothing when `quiet`, else by what standard error is.
pub fn init(quiet: bool) {
    let mode = if quiet {
        2
    } else if std::io::stderr().is_terminal() {
        0
    } else {
        1
    };
    MODE.store(mode, Ordering::Relaxed);
    *START.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
}

/// The plain lines' pace, and how long a run goes before the first.
const PLAIN_EVERY_MS: u128 = 5000;

/// Show a progress message, unless one was shown too recently (see the module doc).
pub fn show(msg: &str) {
    let mode = MODE.load(Ordering::Relaxed);
    if mode == 2 {
        return;
    }
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    let now = Instant::now();
    if mode == 1 {
        let start = START.lock().unwrap_or_else(|e| e.into_inner()).unwrap_or(now);
        let quiet_since = last.unwrap_or(start);
        if now.duration_since(quiet_since).as_millis() < PLAIN_EVERY_MS {
            return;
        }
        *last = Some(now);
        let secs = now.duration_since(start).as_secs();
        let _ = writeln!(std::io::stderr(), "kpl: {msg} [{secs} s]");
        return;
    }
    if last.is_some_and(|t| now.duration_since(t).as_millis() < 200) {
        return;
    }
    *last = Some(now);
    SHOWN.store(true, Ordering::Relaxed);
    let mut err = std::io::stderr();
    let _ = write!(err, "\r\x1b[2K{msg}");
    let _ = err.flush();
}

/// The interpreter's progress callback.
pub fn steps(n: u64) {
    show(&format!("running: {} M thread-statements", n / 1_000_000));
}

/// Erase the progress line, if one is shown.
pub fn clear() {
    if SHOWN.swap(false, Ordering::Relaxed) {
        let _ = write!(std::io::stderr(), "\r\x1b[2K");
    }
}
