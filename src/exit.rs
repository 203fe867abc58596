//! Exit codes (CLI.md) and the panic hook that turns a bug of ours into exit 4 with a message.

/// The exit codes of every subcommand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
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
}

/// The status after a write to a closed pipe (128 + SIGPIPE, as shells report it).
pub const CLOSED_PIPE: i32 = 141;

/// On a panic, print what happened as an internal error and exit with code 4.
pub fn install_panic_hook() {
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
        let loc = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("kpl: internal error: {msg}{loc}");
        eprintln!("This is a bug in kpl; please report it with the input that caused it.");
        std::process::exit(Exit::Internal as i32);
    }));
}
