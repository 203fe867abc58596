//! Progress lines on a terminal for long runs (stderr, rewritten in place, at most a few
//! times a second, erased when the work ends).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

static LAST: Mutex<Option<Instant>> = Mutex::new(None);
static SHOWN: AtomicBool = AtomicBool::new(false);

/// Show a progress message, unless one was shown less than 200 ms ago.
pub fn show(msg: &str) {
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    let now = Instant::now();
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
