//! The budgets of the whole process, which kpl enforces itself so that no input ends in a
//! signal: a large stack for the work (deep kernels recurse deeply), a watchdog that ends
//! the command when its `--timeout` has run out whatever it is doing, and a heap limit
//! (`--memory-limit`) checked on every allocation.

use crate::exit::Exit;
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The stack of the threads that run kpl's work (`ceilings.rs` chooses it; 2 GiB unless
/// the address space is limited): only the pages a run touches are used; the front end
/// bounds nesting to what it holds (`kpl_lang::depth`).
static STACK: AtomicUsize = AtomicUsize::new(crate::ceilings::FULL_STACK as usize);

/// Set the working threads' stack (before `with_big_stack`).
pub fn set_stack(bytes: u64) {
    STACK.store(usize::try_from(bytes).unwrap_or(usize::MAX), Ordering::Relaxed);
}

/// Run `f` on a thread with the working stack, and give its result. If the system refuses
/// that stack, a half, a quarter ... down to 64 MiB, with the nesting limit lowered to
/// match; then the current thread, with the nesting limit of its own 8 MiB.
pub fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let f = Arc::new(Mutex::new(Some(f)));
    let mut size = STACK.load(Ordering::Relaxed);
    while size >= 64 << 20 {
        kpl_lang::depth::set_max_depth(crate::ceilings::Ceilings::depth_for(size as u64));
        let g = f.clone();
        let spawned = std::thread::Builder::new().stack_size(size).spawn(move || {
            let f = g.lock().ok().and_then(|mut s| s.take());
            f.map(|f| f())
        });
        if let Ok(h) = spawned {
            STACK.store(size, Ordering::Relaxed);
            match h.join() {
                Ok(Some(v)) => return v,
                // A panic already went through the panic hook (exit 4); this is a fallback.
                _ => std::process::exit(Exit::Internal as i32),
            }
        }
        size /= 2;
    }
    kpl_lang::depth::set_max_depth(crate::ceilings::Ceilings::depth_for(4 << 20));
    let f = f.lock().ok().and_then(|mut s| s.take());
    match f {
        Some(f) => f(),
        None => std::process::exit(Exit::Internal as i32),
    }
}

/// Spawn a scoped thread with the working stack (parallel work inside a command); `None`
/// if the system cannot give one (the caller does the work with fewer threads).
pub fn spawn_scoped<'s, 'e, T: Send + 's>(
    sc: &'s std::thread::Scope<'s, 'e>,
    f: impl FnOnce() -> T + Send + 's,
) -> Option<std::thread::ScopedJoinHandle<'s, T>> {
    std::thread::Builder::new().stack_size(STACK.load(Ordering::Relaxed)).spawn_scoped(sc, f).ok()
}

/// A time limit for a whole command: unless `finish` is called first, `on_expiry` runs
/// when `limit` has passed (it prints what the command has to say) and the process ends
/// with exit code 2.
pub struct Watchdog {
    done: Arc<(Mutex<bool>, Condvar)>,
}

impl Watchdog {
    pub fn start(limit: Duration, on_expiry: impl FnOnce() + Send + 'static) -> Watchdog {
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let d = done.clone();
        let _ = std::thread::Builder::new().name("kpl-watchdog".into()).spawn(move || {
            let (lock, cv) = &*d;
            let Ok(guard) = lock.lock() else { return };
            let Ok((finished, _)) = cv.wait_timeout_while(guard, limit, |finished| !*finished) else { return };
            if !*finished {
                on_expiry();
                let _ = std::io::stdout().flush();
                std::process::exit(Exit::Inconclusive as i32);
            }
        });
        Watchdog { done }
    }

    pub fn finish(&self) {
        let (lock, cv) = &*self.done;
        if let Ok(mut g) = lock.lock() {
            *g = true;
            cv.notify_all();
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The watchdog of a command whose `--timeout` (if given) bounds everything it does: past
/// it and the grace, the command prints that the time limit ran out (as JSON with `json`)
/// and ends with exit code 2.
pub fn command_watchdog(timeout: Option<f64>, path: &str, json: bool) -> Option<Watchdog> {
    let t = timeout?;
    let path = path.to_string();
    Some(Watchdog::start(Duration::from_secs_f64(t) + GRACE, move || {
        crate::progress::clear();
        let reason = format!("the time limit of {t} s ran out (--timeout)");
        if json {
            println!("{}", serde_json::json!({ "file": path, "outcome": "timeout", "reason": reason }));
        } else {
            println!("{path}: timeout: {reason}");
        }
    }))
}

/// How long past `--timeout` the watchdog waits for the command's own, cooperative stop
/// (which reports more) before it ends the process.
pub const GRACE: Duration = Duration::from_secs(2);

/// The default heap limit in MiB (`--memory-limit`): with Z3's own (a third of it) kpl
/// stays under 4 GiB.
pub const DEFAULT_MEMORY_MIB: u64 = 3072;

static USED: AtomicUsize = AtomicUsize::new(0);
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
/// What the command prints on standard output if the memory limit runs out (`--json`'s
/// report), prepared before the work, as nothing can be built then: a text per part of the
/// work (a file), each left out once its part is done (`out_of_memory_part_done`).
static OUT_OF_MEMORY_STDOUT: std::sync::OnceLock<Vec<(Vec<u8>, std::sync::atomic::AtomicBool)>> = std::sync::OnceLock::new();

/// What was answered before the memory limit ran out (`on_out_of_memory_print_first`),
/// printed before `OUT_OF_MEMORY_STDOUT`.
static OUT_OF_MEMORY_DONE: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());

/// Print `texts` on standard output if the memory limit runs out (once per process), each
/// unless its part was done by then.
pub fn on_out_of_memory_print(texts: Vec<String>) {
    let _ = OUT_OF_MEMORY_STDOUT.set(texts.into_iter().map(|t| (t.into_bytes(), std::sync::atomic::AtomicBool::new(false))).collect());
}

/// Part `i` of `on_out_of_memory_print`'s is done: its report no longer says it ran out.
pub fn out_of_memory_part_done(i: usize) {
    if let Some((_, done)) = OUT_OF_MEMORY_STDOUT.get().and_then(|v| v.get(i)) {
        done.store(true, Ordering::Relaxed);
    }
}

/// Print `text` too, before that, if the heap limit runs out: a part of the work answered
/// (a kernel's report), so that what was done is not lost with the process.
pub fn on_out_of_memory_print_first(text: &str) {
    if let Ok(mut done) = OUT_OF_MEMORY_DONE.lock() {
        done.extend_from_slice(text.as_bytes());
    }
}

/// Report Z3's aborts as the memory limit they come from. Past its `memory_max_size`, Z3
/// (Debian's libz3 4.x) may throw a C++ exception no frame catches inside `Z3_solver_check`,
/// and the C++ runtime aborts the process. An abort while a Z3 call runs
/// (`kpl_certify::IN_SOLVER`) ends kpl as the heap limit does: a message and exit code 2
/// (inconclusive). Any other abort keeps its default action.
pub fn report_solver_aborts() {
    #[cfg(unix)]
    {
        extern "C" {
            fn signal(signum: i32, handler: usize) -> usize;
        }
        const SIGABRT: i32 = 6;
        // SAFETY: installing a handler that only calls async-signal-safe functions.
        unsafe {
            signal(SIGABRT, on_abort as extern "C" fn(i32) as usize);
        }
    }
}

#[cfg(unix)]
extern "C" fn on_abort(sig: i32) {
    extern "C" {
        fn write(fd: i32, buf: *const u8, count: usize) -> isize;
        fn _exit(status: i32) -> !;
        fn signal(signum: i32, handler: usize) -> usize;
        fn raise(sig: i32) -> i32;
    }
    // SAFETY: `write`, `_exit`, `signal` and `raise` are async-signal-safe; nothing here
    // allocates.
    unsafe {
        if !kpl_certify::IN_SOLVER.load(Ordering::SeqCst) && !kpl_certify::SOLVER_OUT_OF_MEMORY.load(Ordering::SeqCst) {
            signal(sig, 0); // SIG_DFL
            raise(sig);
            return;
        }
        let msg = b"kpl: inconclusive: the solver's memory limit ran out (a third of --memory-limit, in MiB; default 3072)\n";
        write(2, msg.as_ptr(), msg.len());
        for (text, done) in OUT_OF_MEMORY_STDOUT.get().into_iter().flatten() {
            if !done.load(Ordering::Relaxed) {
                write(1, text.as_ptr(), text.len());
            }
        }
        _exit(Exit::Inconclusive as i32);
    }
}

/// How much of the heap limit is in use (0 to 1; 0 without a limit).
pub fn heap_fraction() -> f64 {
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit == usize::MAX || limit == 0 {
        return 0.0;
    }
    USED.load(Ordering::Relaxed) as f64 / limit as f64
}

/// The bytes the heap may still grow by (`usize::MAX` without a limit).
pub fn heap_left() -> usize {
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit == 0 {
        return usize::MAX;
    }
    limit.saturating_sub(USED.load(Ordering::Relaxed))
}

/// Set the heap limit, in MiB.
pub fn set_memory_limit(mib: u64) {
    let bytes = usize::try_from(mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// The global allocator: the system's, counting live bytes. Past the limit the process
/// ends with exit code 2 and a message naming the limit (nothing is allocated to say so).
pub struct Counting;

fn over_limit(size: usize) -> bool {
    let used = USED.fetch_add(size, Ordering::Relaxed) + size;
    used > LIMIT.load(Ordering::Relaxed)
}

#[cold]
fn out_of_memory() -> ! {
    // Stop counting first, so that writing the message can never come back here.
    LIMIT.store(usize::MAX, Ordering::Relaxed);
    let _ = std::io::stderr().write_all(
        b"kpl: inconclusive: the memory limit ran out (--memory-limit, in MiB; default 3072, or less where the process's own address-space or cgroup memory limit is lower)\n",
    );
    print_out_of_memory_report();
    std::process::exit(Exit::Inconclusive as i32)
}

/// Print what the command prepared for a memory limit that ends it: what was answered,
/// then the report of what was not (`on_out_of_memory_print_first`, `on_out_of_memory_print`).
pub fn print_out_of_memory_report() {
    let mut out = std::io::stdout().lock();
    // (Not when this thread was adding to it: `try_lock` never waits.)
    if let Ok(done) = OUT_OF_MEMORY_DONE.try_lock() {
        let _ = out.write_all(&done);
    }
    for (text, done) in OUT_OF_MEMORY_STDOUT.get().into_iter().flatten() {
        if !done.load(Ordering::Relaxed) {
            let _ = out.write_all(text);
        }
    }
    let _ = out.flush();
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if over_limit(layout.size()) {
            out_of_memory();
        }
        given(System.alloc(layout))
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if over_limit(layout.size()) {
            out_of_memory();
        }
        given(System.alloc_zeroed(layout))
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        USED.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            if over_limit(new_size - layout.size()) {
                out_of_memory();
            }
        } else {
            USED.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        given(System.realloc(ptr, layout, new_size))
    }
}

/// The system's answer to an allocation: a refusal (the process's own address-space or
/// memory limit, below kpl's) ends the run as the memory limit does, not in an abort.
fn given(p: *mut u8) -> *mut u8 {
    if p.is_null() {
        out_of_memory();
    }
    p
}
