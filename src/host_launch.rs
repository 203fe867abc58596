//! The launch of a `.cu` kernel read from its file's host code, when the command line gives
//! none (the whole-programs issue, first step): the kernel's launch sites
//! (`kpl_c::launch_sites`) must all decide the grid and block sizes, as constants, and agree
//! on them; the arguments they all pass as the same integer constant become preconditions
//! on those parameters, and the others stay free. Where the host code does not decide the
//! launch, the command says why and asks for `--blockDim`/`--gridDim`, as before.

use kpl_c::sema::launches::LaunchSite;
use kpl_c::FrontOptions;
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::launch::Launch;
use kpl_lang::span::Span;

/// What the host code decides of one kernel's launch.
pub struct HostLaunch {
    pub launch: Launch,
    /// Each argument's value where every launch site passes the same integer constant.
    pub args: Vec<Option<i64>>,
    /// Says where the launch comes from and which arguments stayed free.
    pub note: Diagnostic,
}

fn dims(d: [u32; 3]) -> String {
    match d {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("[{x},{y}]"),
        [x, y, z] => format!("[{x},{y},{z}]"),
    }
}

/// The launch of the file's kernel `kernel` that its host code decides: `Ok(None)` where the
/// host code never launches it, `Err` with a diagnostic at the launch site where it launches
/// it in a way kpl does not decide (or in several ways).
pub fn decide(text: &str, front: &FrontOptions, kernel: &str) -> Result<Option<HostLaunch>, Diagnostic> {
    let (sites, every) = kpl_c::launch_sites(text, front);
    let sites: Vec<LaunchSite> = sites.into_iter().filter(|s| s.kernel.as_deref() == Some(kernel)).collect();
    let Some(first) = sites.first() else { return Ok(None) };
    // A launch of the kernel that kpl did not read (in a host template, a class, a lambda
    // at file scope, or through `cudaLaunchKernel`) could launch it otherwise: then the
    // host code does not decide the launch.
    let stems: Vec<&str> = sites.iter().filter_map(|s| every.iter().find(|e| e.1 == s.at).map(|e| e.0.as_str())).collect();
    if let Some((_, at)) = every.iter().find(|(n, at)| (n == kernel || stems.contains(&n.as_str())) && !sites.iter().any(|s| s.at == *at)) {
        return Err(Diagnostic::error(format!("the host code launches `{kernel}` here in a way kpl does not read yet"), Span::new(*at, *at + 1))
            .with_help("kpl reads `k<<<...>>>` in host functions; give the launch with `--blockDim=` and `--gridDim=`"));
    }
    let mut launches: Vec<(Launch, Span)> = Vec::new();
    for s in &sites {
        let undecided = |why: &String| {
            Diagnostic::error(format!("kpl cannot read this launch of `{kernel}`: {why}"), s.span)
                .with_help("give the launch with `--blockDim=` and `--gridDim=` (they override the host code)")
        };
        let grid = s.grid.as_ref().map_err(undecided)?;
        let block = s.block.as_ref().map_err(undecided)?;
        let launch = Launch { groups: *grid, threads: *block };
        if !launches.iter().any(|(l, _)| *l == launch) {
            launches.push((launch, s.span));
        }
    }
    if let [_, second, ..] = launches.as_slice() {
        let all: Vec<String> = launches.iter().map(|(l, _)| format!("grid {} block {}", dims(l.groups), dims(l.threads))).collect();
        return Err(Diagnostic::error(
            format!("the host code launches `{kernel}` {} ways ({}); kpl verifies one launch at a time", launches.len(), all.join("; ")),
            second.1,
        )
        .with_help("choose one with `--blockDim=` and `--gridDim=`"));
    }
    let launch = launches[0].0;
    let n = sites.iter().map(|s| s.args.len()).max().unwrap_or(0);
    let args: Vec<Option<i64>> =
        (0..n).map(|i| sites.iter().map(|s| s.args.get(i).copied().flatten()).reduce(|a, b| if a == b { a } else { None }).flatten()).collect();
    let fixed: Vec<String> = args.iter().enumerate().filter_map(|(i, v)| v.map(|v| format!("argument {} = {v}", i + 1))).collect();
    let free = args.iter().filter(|v| v.is_none()).count();
    let mut message = format!("launch read from the host code: grid {}, block {}", dims(launch.groups), dims(launch.threads));
    if sites.len() > 1 {
        message.push_str(&format!(" (all {} launches of `{kernel}`)", sites.len()));
    }
    if !fixed.is_empty() {
        message.push_str(&format!("; {} (integer parameters fixed to them)", fixed.join(", ")));
    }
    if free > 0 {
        message.push_str(&format!("; {free} argument{} free (pointers, floats, or values kpl does not read)", if free == 1 { "" } else { "s" }));
    }
    Ok(Some(HostLaunch { launch, args, note: Diagnostic::note(message, first.span) }))
}
