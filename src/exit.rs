//! Exit codes (CLI.md) and the panic hook that turns a bug of ours into exit 4 with a message.

/// The exit codes of every subcommand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
pub enum Exit {
    /// Verified / ran without error / certificate checks.
    Ok = 0,
    /// A defect was found.
    Defect = 1,
    /// Inconclusive (or, for `run`, infeasible or timeout).
    Inconclusive = 2,
    /// Bad input: syntax, names, unsupported feature, bad option.
    BadInput = 3,
    /// A bug of ours.
    Internal = 4,
    /// `verify --fail-on=confirmed`: defects found, none of them confirmed by the
    /// interpreter (each may come from the abstraction).
    Possible = 5,
}

impl Exit {
    /// How bad: the worst of several files' or kernels' codes is a command's. Only possible
    /// defects are worse than none and better than a confirmed one.
    fn rank(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::Possible => 1,
            Exit::Defect => 2,
            Exit::Inconclusive => 3,
            Exit::BadInput => 4,
            Exit::Internal => 5,
        }
    }
}

impl PartialOrd for Exit {
    fn partial_cmp(&self, other: &Exit) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Exit {
    fn cmp(&self, other: &Exit) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

/// The status after a write to a closed pipe (128 + SIGPIPE, as shells report it).
pub const CLOSED_PIPE: i32 = 141;

/// On a panic, print what happened as an internal error and exit with code 4.
pub fn install_panic_hook() {
    use std::io::Write;
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        // The reader of our output went away (`kpl ... | head`): nothing is wrong with kpl;
        // end quietly with the shell's status for a closed pipe.
        if msg.starts_with("failed printing to std") && msg.contains("Broken pipe") {
            std::process::exit(CLOSED_PIPE);
        }
        // Output that cannot be written (a full disk, an I/O error): no answer was
        // delivered. Said on the other stream where it can be; exit 2.
        if let Some(stream) = ["stdout", "stderr"].into_iter().find(|s| msg.starts_with(&format!("failed printing to {s}"))) {
            let why = msg.split_once(": ").map(|(_, w)| w).unwrap_or(&msg);
            output_failed(if stream == "stdout" { "output" } else { "error" }, why);
        }
        let loc = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        // Z3 gives no context when it cannot allocate one (the z3 crate then unwraps): the
        // process's memory ran out, as the memory limit does.
        if info.location().is_some_and(|l| l.file().contains("z3-") && l.file().ends_with("context.rs")) {
            let _ = std::io::stderr().write_all(b"kpl: inconclusive: Z3 could not start: too little memory (the process's address-space or memory limit)\n");
            crate::limits::print_out_of_memory_report();
            std::process::exit(Exit::Inconclusive as i32);
        }
        // Z3 gives no term once its memory limit has run out (`memory_max_size`, a third
        // of `--memory-limit`), and the z3 crate unwraps it.
        if info.location().is_some_and(|l| l.file().contains("z3-") && l.file().contains("ast")) {
            let _ = std::io::stderr().write_all(b"kpl: inconclusive: the solver's memory limit ran out: Z3 gave no term (a third of --memory-limit, in MiB; default 3072)\n");
            crate::limits::print_out_of_memory_report();
            std::process::exit(Exit::Inconclusive as i32);
        }
        // Never `eprintln!` here: a failing standard error would panic again and abort.
        let _ = writeln!(std::io::stderr(), "kpl: internal error: {msg}{loc}");
        let _ = writeln!(std::io::stderr(), "This is a bug in kpl; please report it with the input that caused it.");
        std::process::exit(Exit::Internal as i32);
    }));
}

/// Standard `stream` ("output" or "error") cannot be written (a full disk, an I/O error;
/// a closed pipe is not this): no answer was delivered. Said on the other stream where it
/// can be; exit 2.
pub fn output_failed(stream: &str, why: &str) -> ! {
    use std::io::Write;
    let line = format!("kpl: cannot write to standard {stream}: {why}; the result was not delivered\n");
    if stream == "output" {
        let _ = std::io::stderr().write_all(line.as_bytes());
    } else {
        let _ = std::io::stdout().write_all(line.as_bytes());
        let _ = std::io::stdout().flush();
    }
    std::process::exit(Exit::Inconclusive as i32)
}
