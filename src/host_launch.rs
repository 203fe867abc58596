//! The launch of a `.cu` kernel read from its file's host code, when the command line gives
//! none (the whole-programs issue, first step): the kernel's launch sites
//! (`kpl_c::launch_sites`) must all decide the grid and block sizes, as constants, and agree
//! on them (or decide the block, where `--gridDim` alone gives the grid); the arguments
//! they all pass as the same integer constant become preconditions on those parameters,
//! and the others stay free. Where the host code does not decide the
//! launch, the command says why and asks for `--blockDim`/`--gridDim`, as before.

use kpl_c::sema::launches::LaunchSite;
use kpl_c::FrontOptions;
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::launch::{Launch, MAX_GRID};
use kpl_lang::span::Span;

/// What the host code decides of one kernel's launch.
pub struct HostLaunch {
    pub launch: Launch,
    /// Each argument's value where every launch site passes the same integer constant.
    pub args: Vec<Option<i64>>,
    /// Says where the launch comes from and which arguments stayed free.
    pub note: Diagnostic,
    /// The first launch site of this context.
    pub site: Span,
    /// Where `--gridDim` gives the grid: what it says of the parameters the host code
    /// computes the grid from (the same expression at every site of this context).
    pub facts: Vec<kpl_c::options::LaunchFact>,
    /// The dynamic shared memory in bytes, where every site of this context gives the
    /// same constant (reported; kpl sizes `extern __shared__` arrays by their accesses).
    pub shared_bytes: Option<u64>,
}

/// `256`, `[16,16]`, `[4,4,2]`: a launch's sizes as the options write them.
pub fn dims(d: [u32; 3]) -> String {
    match d {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("[{x},{y}]"),
        [x, y, z] => format!("[{x},{y},{z}]"),
    }
}

/// The launches of the file's kernel `kernel` that its host code decides, one per distinct
/// grid and block (the launch context; sites that agree on it are verified once, with the
/// arguments they all pass alike fixed): none where the host code never launches it, `Err`
/// with a diagnostic at the launch site where it launches it in a way kpl does not decide.
///
/// With `grid` (the command line's `--gridDim` without `--blockDim`), the sites need only
/// decide the block size: the grid is that one. A GEMM's grid follows its matrices' sizes,
/// which are read at run time, while its block is a constant of the tiling.
pub fn decide(
    text: &str,
    front: &FrontOptions,
    kernel: &str,
    grid: Option<[u32; 3]>,
    free_grid: bool,
) -> Result<Vec<HostLaunch>, Diagnostic> {
    let h = kpl_c::launch_sites(text, front);
    let (all, every) = (&h.sites, &h.every);
    // Launches in host functions the program never calls are never made.
    let sites: Vec<&LaunchSite> = all
        .iter()
        .filter(|s| s.kernel.as_deref() == Some(kernel) && s.never_called_in.is_none() && s.never_made.is_none())
        .collect();
    if sites.is_empty() {
        return Ok(Vec::new());
    }
    // A launch of the kernel that kpl did not read (in a host template, a class, a lambda
    // at file scope, or through `cudaLaunchKernel`) could launch it otherwise: then the
    // host code does not decide the launch.
    let stems: Vec<&str> = sites
        .iter()
        .filter_map(|s| every.iter().find(|e| e.1 == s.at).map(|e| e.0.as_str()))
        .collect();
    // (A launch of another instance of the same template is read, and not this kernel's.)
    if let Some((_, at)) = every.iter().find(|(n, at)| {
        (n == kernel || stems.contains(&n.as_str())) && !all.iter().any(|s| s.at == *at)
    }) {
        return Err(Diagnostic::error(format!("the host code launches `{kernel}` here in a way kpl does not read yet"), Span::new(*at, *at + 1))
            .with_help("kpl reads `k<<<...>>>` in host functions; give the launch with `--blockDim=` and `--gridDim=`"));
    }
    let mut launches: Vec<Launch> = Vec::new();
    let mut of_site: Vec<Launch> = Vec::new();
    for s in &sites {
        let undecided = |why: &String| {
            let help = if s.block.is_ok() && s.grid_axes.is_some() {
                "this command runs one launch: give the grid with `--gridDim=` (the block size is read from the host code); `kpl verify` verifies the kernel for every grid"
            } else if s.block.is_ok() {
                "give the grid with `--gridDim=` (the block size is read from the host code), or the whole launch with `--blockDim=` and `--gridDim=`"
            } else {
                "give the launch with `--blockDim=` and `--gridDim=` (they override the host code)"
            };
            Diagnostic::error(
                format!("kpl cannot read this launch of `{kernel}`: {why}"),
                s.span,
            )
            .with_help(help)
        };
        let launch = match grid {
            Some(g) => Launch::new(g, *s.block.as_ref().map_err(undecided)?),
            // (A grid's shape counts only where a grid computed at run time is any grid.)
            None => match (&s.grid, s.grid_axes.filter(|_| free_grid), &s.block) {
                (Ok(g), _, Ok(b)) => Launch::new(*g, *b),
                // A grid computed at run time, of a shape kpl reads: each axis whose size
                // is not a constant is any size CUDA allows.
                (Err(_), Some(axes), Ok(b)) => {
                    let mut l = Launch::new([0, 1, 2].map(|a| axes[a].unwrap_or(MAX_GRID[a])), *b);
                    l.free_groups = axes.map(|x| x.is_none());
                    l
                }
                // (Such a grid is no obstacle: the block is what to say.)
                (Err(_), Some(_), Err(why)) | (Err(why), None, _) | (Ok(_), _, Err(why)) => return Err(undecided(why)),
            },
        };
        if !launches.contains(&launch) {
            launches.push(launch);
        }
        of_site.push(launch);
    }
    let given = grid.is_some();
    Ok(launches
        .into_iter()
        .map(|launch| {
            context(
                kernel,
                launch,
                given,
                sites
                    .iter()
                    .zip(&of_site)
                    .filter(|(_, l)| **l == launch)
                    .map(|(s, _)| *s)
                    .collect(),
            )
        })
        .collect())
}

/// Why a whole program (a `.cu` file that defines `main`) never launches its kernel
/// `kernel`: every launch of it is in a host function the program never calls, or it has
/// none and nothing the program may run names it (`kpl_c::sema::host_reach`). `None` where
/// it may launch it, or the file is no whole program.
pub fn never_launched(text: &str, front: &FrontOptions, kernel: &str) -> Option<String> {
    never_launched_in(&kpl_c::launch_sites(text, front), text, kernel)
}

/// `never_launched`, of the file `text` whose host launches are `h` (read once for several
/// kernels).
pub fn never_launched_in(h: &kpl_c::HostLaunches, text: &str, kernel: &str) -> Option<String> {
    let program = h.program.as_ref()?;
    let sites: Vec<&LaunchSite> = h.sites.iter().filter(|s| s.kernel.as_deref() == Some(kernel)).collect();
    if sites.iter().any(|s| s.never_called_in.is_none() && s.never_made.is_none()) {
        return None;
    }
    // The names its launches give it (a template's, before its arguments).
    let mut names: Vec<&str> = h.every.iter().filter(|e| sites.iter().any(|s| s.at == e.1)).map(|e| e.0.as_str()).collect();
    names.push(kernel);
    // A launch kpl does not read, or a use of its name (its address given to the runtime),
    // may launch it.
    if h.every.iter().any(|(n, at)| names.contains(&n.as_str()) && !sites.iter().any(|s| s.at == *at))
        || names.iter().any(|n| program.mentioned(n))
    {
        return None;
    }
    if let Some(why) = sites.iter().find_map(|s| s.never_made.as_deref()).filter(|_| sites.iter().all(|s| s.never_made.is_some())) {
        return Some(format!("{why} each time (the program aborts first)"));
    }
    match sites.first().and_then(|s| s.never_called_in.as_deref()) {
        Some(f) => Some(format!("its launches are in `{f}`, which the program never calls")),
        // A kernel the file names as written (not a template's instance kpl named).
        None if text.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == kernel) => {
            Some("the program has no launch of it".into())
        }
        None => None,
    }
}

/// The launch context of the sites that launch with `launch`.
fn context(kernel: &str, launch: Launch, grid_given: bool, sites: Vec<&LaunchSite>) -> HostLaunch {
    let n = sites.iter().map(|s| s.args.len()).max().unwrap_or(0);
    let args: Vec<Option<i64>> = (0..n)
        .map(|i| {
            sites
                .iter()
                .map(|s| s.args.get(i).copied().flatten())
                .reduce(|a, b| if a == b { a } else { None })
                .flatten()
        })
        .collect();
    let mut message = if grid_given {
        format!(
            "launch read from the host code: block {} (grid {} from `--gridDim`)",
            dims(launch.threads),
            dims(launch.groups)
        )
    } else {
        format!(
            "launch read from the host code: grid {}, block {}",
            grid_text(&launch),
            dims(launch.threads)
        )
    };
    if sites.len() > 1 {
        message.push_str(&format!(" ({} launches of `{kernel}`)", sites.len()));
    }
    let mut facts = Vec::new();
    for (d, axis) in ["x", "y", "z"].iter().enumerate() {
        if grid_given || launch.free_groups[d] {
            let first = &sites[0].grid_exprs[d];
            if let Some(e) = first
                .as_ref()
                .filter(|_| sites.iter().all(|s| s.grid_exprs[d] == *first))
            {
                facts.push(kpl_c::options::LaunchFact {
                    expr: e.clone(),
                    value: (!launch.free_groups[d]).then_some(launch.groups[d]),
                    what: format!("gridDim.{axis}"),
                });
            }
        }
    }
    let shared = sites[0].shared_bytes.as_ref().ok().copied();
    let shared_bytes = shared.filter(|b| sites.iter().all(|s| s.shared_bytes.as_ref().ok() == Some(b)));
    HostLaunch {
        launch,
        args,
        note: Diagnostic::note(message, sites[0].span),
        site: sites[0].span,
        facts,
        shared_bytes,
    }
}

/// A launch's grid as the options write it, a size the host code computes at run time as
/// `*`, and then said so: `* (computed at run time)`, `[*,8] (...)`.
pub fn grid_text(l: &Launch) -> String {
    if !l.has_free_groups() {
        return dims(l.groups);
    }
    let each: Vec<String> = (0..3).map(|a| if l.free_groups[a] { "*".to_string() } else { l.groups[a].to_string() }).collect();
    let shown = match (l.groups[1], l.groups[2], l.free_groups[1], l.free_groups[2]) {
        (1, 1, false, false) => each[0].clone(),
        (_, 1, _, false) => format!("[{},{}]", each[0], each[1]),
        _ => format!("[{}]", each.join(",")),
    };
    format!("{shown} (computed at run time)")
}

/// The diagnostic for a command that takes one launch where the host code gives several.
pub fn several(kernel: &str, launches: &[HostLaunch]) -> Diagnostic {
    let all: Vec<String> = launches
        .iter()
        .map(|h| {
            format!(
                "grid {} block {}",
                dims(h.launch.groups),
                dims(h.launch.threads)
            )
        })
        .collect();
    Diagnostic::error(
        format!(
            "the host code launches `{kernel}` {} ways ({}); this command takes one launch",
            launches.len(),
            all.join("; ")
        ),
        launches[1].site,
    )
    .with_help("choose one with `--blockDim=` and `--gridDim=` (`kpl verify` verifies each)")
}
