//! Reading kernel files: picks the front end by extension, renders diagnostics to stderr;
//! and the directories commands write to.

use crate::exit::Exit;
use crate::options::LaunchArgs;
use kpl_c::{Dialect, FrontOptions};
use kpl_lang::diagnostic::render_all;
use kpl_lang::{Checked, Diagnostic, Launch};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// A source file in memory.
pub struct Source {
    pub path: String,
    pub text: String,
}

/// The name standard input goes by in reports (`-` on the command line).
pub const STDIN_NAME: &str = "<stdin>";

/// The language `-x` gives every kernel file ("kpl", "cu" or "cl"; unset: each file's
/// extension, and KPL for standard input).
static LANGUAGE: OnceLock<&'static str> = OnceLock::new();

/// Set the language of every kernel file (`-x kpl|cuda|opencl`).
pub fn set_language(lang: &str) {
    let ext = match lang {
        "cuda" | "cu" => "cu",
        "opencl" | "cl" => "cl",
        _ => "kpl",
    };
    let _ = LANGUAGE.set(ext);
}

/// Files read in a language of their own whatever `-x` says (`kpl crosscheck
/// --reference-file`, a C or C++ file read as CUDA).
static FILE_LANGUAGE: std::sync::Mutex<Vec<(std::path::PathBuf, &'static str)>> = std::sync::Mutex::new(Vec::new());

/// Leave out the warnings that host code was skipped (`kpl crosscheck`, whose reference is
/// host code, and whose kernel's file is read twice).
pub static QUIET_HOST_SKIPS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Read `path` as CUDA (`cuda`) or OpenCL (`opencl`).
pub fn set_file_language(path: &Path, lang: &str) {
    let ext = if lang == "opencl" { "cl" } else { "cu" };
    if let Ok(mut v) = FILE_LANGUAGE.lock() {
        v.push((path.to_path_buf(), ext));
    }
}

/// The kind of a kernel file, as an extension (`kpl`, `cu`, `cl`, or what the file has):
/// `-x`'s if given, else the file's own; standard input is KPL unless `-x` says otherwise.
pub fn kind_of(path: &Path) -> String {
    if let Some((_, l)) = FILE_LANGUAGE.lock().ok().and_then(|v| v.iter().find(|(p, _)| p == path).cloned()) {
        return l.to_string();
    }
    if let Some(l) = LANGUAGE.get() {
        return l.to_string();
    }
    if is_stdin(path) {
        return "kpl".into();
    }
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_string()
}

/// Is this path standard input (`-`, shown as `<stdin>`)?
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-" || path.as_os_str() == STDIN_NAME
}

/// Standard input, read once (a command may load its kernel more than once).
static STDIN: OnceLock<Result<Vec<u8>, String>> = OnceLock::new();

/// The bytes of a file kpl reads: a regular file (a FIFO, a device or a directory would
/// block or never end: refused), or standard input for `-`. On failure, why.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    if is_stdin(path) {
        return STDIN
            .get_or_init(|| {
                let mut b = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
                    .map(|_| b)
                    .map_err(|e| format!("cannot read standard input: {e}"))
            })
            .clone();
    }
    let meta =
        std::fs::metadata(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a FIFO, a socket or a device)"
        };
        return Err(format!(
            "`{}` is {what}: kpl reads regular files, and standard input given as `-`",
            path.display()
        ));
    }
    std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))
}

/// A source's text as kpl reads it: UTF-8 (invalid bytes replaced), without a leading
/// byte-order mark, and with old Mac line ends (a lone CR) read as line ends (each stays
/// one byte, so positions do not move).
pub fn source_text(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    if !text.contains('\r') {
        return text.to_string();
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if c == '\r' && b.get(i + 1) != Some(&b'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// Read a file; on failure print why and give exit code 3.
pub fn read(path: &Path) -> Result<Source, Exit> {
    match read_bytes(path) {
        Ok(bytes) => Ok(Source {
            path: if is_stdin(path) {
                STDIN_NAME.to_string()
            } else {
                path.display().to_string()
            },
            text: source_text(&bytes),
        }),
        Err(e) => {
            eprintln!("error: {e}");
            Err(Exit::BadInput)
        }
    }
}

/// Read a kernel file; a C one with the headers it includes (`-I` directories after the
/// file's own), as one source (kpl_lang's `sources.rs`).
pub fn read_kernel(path: &Path, include_dirs: &[String]) -> Result<Source, Exit> {
    let main = read(path)?;
    if !matches!(kind_of(path).as_str(), "cu" | "cl") {
        return Ok(main);
    }
    let mut read_header = |p: &str| {
        let p = Path::new(p);
        p.is_file()
            .then(|| std::fs::read(p).ok())
            .flatten()
            .map(|b| source_text(&b))
    };
    let text = kpl_c::include::bundle(&main.path, &main.text, include_dirs, &mut read_header);
    Ok(Source { text, ..main })
}

/// How many errors `report` shows per file (`--error-limit`, 0: all), as clang does.
static ERROR_LIMIT: AtomicUsize = AtomicUsize::new(DEFAULT_ERROR_LIMIT);
pub const DEFAULT_ERROR_LIMIT: usize = 20;

pub fn set_error_limit(n: usize) {
    ERROR_LIMIT.store(if n == 0 { usize::MAX } else { n }, Ordering::Relaxed);
}

/// Print diagnostics for a file to stderr, with colour on a terminal: the first errors up
/// to the error limit (with the warnings among them), then how many more there are.
pub fn report(src: &Source, diags: &[Diagnostic]) {
    if QUIET_NOTES.load(Ordering::Relaxed) {
        let kept: Vec<Diagnostic> = diags.iter().filter(|d| d.severity != kpl_lang::diagnostic::Severity::Note).cloned().collect();
        eprint!("{}", report_text(src, &kept));
        return;
    }
    eprint!("{}", report_text(src, diags));
}

/// Leave out notes (`check-cert` loads sources already crosschecked: their notes were
/// read then).
pub static QUIET_NOTES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// What `report` prints (the errors kept for a `bad_input` JSON report all the same).
pub fn report_text(src: &Source, diags: &[Diagnostic]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    if diags.is_empty() {
        return out;
    }
    for d in diags.iter().filter(|d| d.is_error()) {
        let (line, col) = kpl_lang::span::line_col(&src.text, d.span.start);
        note_error(&d.message, Some((line, col)));
    }
    let limit = ERROR_LIMIT.load(Ordering::Relaxed);
    let mut errors = 0;
    let shown: Vec<Diagnostic> = diags
        .iter()
        .take_while(|d| {
            errors += usize::from(d.is_error());
            errors <= limit
        })
        .cloned()
        .collect();
    let color = std::io::stderr().is_terminal();
    out.push_str(&render_all(&shown, &src.path, &src.text, color));
    if src.path.ends_with(".cu") || src.path.ends_with(".cl") {
        for line in shown
            .iter()
            .filter_map(|d| d.gpuverify_line(&src.path, &src.text))
        {
            let _ = writeln!(out, "{line}\n");
        }
    }
    let hidden = diags
        .iter()
        .filter(|d| d.is_error())
        .count()
        .saturating_sub(limit);
    if hidden > 0 {
        let _ = writeln!(
            out,
            "{}: {hidden} more error{} not shown (--error-limit={limit}; 0 shows all)",
            src.path,
            if hidden == 1 { "" } else { "s" }
        );
    }
    out
}

/// Load and check a kernel (`.kpl`, `.cu` or `.cl` by extension); diagnostics are
/// printed, errors give exit code 3. Gives the launch to use, too. A `.cu` or `.cl` file
/// declares no launch, so commands that run or verify (`need_launch`) require one on the
/// command line (CUDA.md); `check` and `fmt` only warn.
/// `--warp-sync=N` of the running command (0: none), for the C front end's `__syncwarp`.
static WARP_SYNC: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Tell the front end the command's `--warp-sync` (before `load`).
pub fn set_warp_sync(w: Option<u32>) {
    WARP_SYNC.store(w.unwrap_or(0), std::sync::atomic::Ordering::Relaxed);
}

fn front_options(
    args: &LaunchArgs,
    src: &Source,
    dialect: Dialect,
    launch: Option<Launch>,
) -> FrontOptions {
    let mut f = args.front_settings(&src.text);
    if args.reference.is_some() {
        f.kernel = args.reference.clone();
    }
    if f.kernel.is_none() {
        f.kernel = kernel_choice();
    }
    let file = &src.path;
    FrontOptions {
        file: file.to_string(),
        defines: f.defines,
        include_dirs: f.include_dirs,
        kernel: f.kernel,
        launch,
        annotations: f.annotations,
        kernel_args: f.kernel_args,
        invariants_as_candidates: f.invariants_as_candidates,
        global_offset: f.global_offset,
        warp_sync: Some(WARP_SYNC.load(std::sync::atomic::Ordering::Relaxed)).filter(|w| *w > 0),
        check_function: args.check_function.clone(),
        reference: args.reference.clone(),
        no_inline: args.no_inline,
        contract: args.contract,
        pointer_bits: f.pointer_bits,
        ..FrontOptions::new(dialect)
    }
}

/// Where a `.cu`/`.cl` file's kernel `name` computes in double precision
/// (`kpl_c::double_precision`); `None` for KPL.
pub fn double_precision(path: &Path, args: &LaunchArgs, src: &Source, name: &str) -> Option<Diagnostic> {
    let dialect = match kind_of(path).as_str() {
        "cu" => Dialect::Cuda,
        "cl" => Dialect::OpenCl,
        _ => return None,
    };
    kpl_c::double_precision(&src.text, &front_options(args, src, dialect, None), name)
}

/// The device functions of a `.cu`/`.cl` file that `--no-inline` checks on their own
/// (none for KPL, or when the file cannot be read: loading it reports that).
pub fn modular_checks(path: &Path, args: &LaunchArgs) -> Vec<kpl_c::modular::ModularCheck> {
    let dialect = match kind_of(path).as_str() {
        "cu" => Dialect::Cuda,
        "cl" => Dialect::OpenCl,
        _ => return Vec::new(),
    };
    let Ok(src) = read_kernel(path, &args.include_dirs) else {
        return Vec::new();
    };
    kpl_c::modular_checks(&src.text, &front_options(args, &src, dialect, None))
}

/// The launches a CUDA file's host code decides for its kernel (`host_launch.rs`), with the
/// kernel's name; none for OpenCL, a file that does not check, or a kernel the host code
/// never launches.
fn host_launches_of(
    src: &Source,
    front: &FrontOptions,
    grid: Option<[u32; 3]>,
    free_grid: bool,
) -> Result<(String, Vec<crate::host_launch::HostLaunch>), Diagnostic> {
    if front.dialect != Dialect::Cuda {
        return Ok((String::new(), Vec::new()));
    }
    let Ok(c) = kpl_c::check_c(&src.text, front) else {
        return Ok((String::new(), Vec::new()));
    };
    let name = c.kernel.name.name.clone();
    crate::host_launch::decide(&src.text, front, &name, grid, free_grid).map(|h| (name, h))
}

thread_local! {
    /// The errors said on this thread since `take_errors` (for a `bad_input` JSON report).
    static ERRORS: std::cell::RefCell<Vec<(String, Option<(usize, usize)>)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Which of the host code's launches `load` takes (`verify` goes through each); `None`:
    /// a kernel the host code launches several ways needs launch options.
    static HOST_CONTEXT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
    /// The kernel `verify` goes through in a file of several when the command line names
    /// none (`file_kernels`).
    static KERNEL_CHOICE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// The launch `load` last read from host code (`None`: given on the command line, or none).
    static HOST_USED: std::cell::RefCell<Option<HostUsed>> = const { std::cell::RefCell::new(None) };
}

/// What `load` took from a launch the host code decides.
struct HostUsed {
    line: usize,
    /// Its constant arguments.
    args: Vec<Option<i64>>,
    /// How many preconditions the launch sizes the command line gives set (`LaunchFact`).
    facts: usize,
    /// Its dynamic shared memory in bytes, where every site of the context gives the same.
    shared_bytes: Option<u64>,
    /// The grid's axes the host code computes at run time (`Launch::free_groups`).
    free_groups: [bool; 3],
}

/// The dynamic shared memory of the host code's launch the last load on this thread took.
pub fn host_launch_shared_bytes() -> Option<u64> {
    HOST_USED.with(|h| h.borrow().as_ref().and_then(|u| u.shared_bytes))
}

/// The constant arguments of the host code's launch the last load on this thread took.
/// How many preconditions the last load on this thread took from a launch size the command
/// line gives where the host code computes it from the kernel's arguments.
pub fn host_launch_facts() -> usize {
    HOST_USED.with(|h| h.borrow().as_ref().map_or(0, |u| u.facts))
}

/// The constant arguments of the host code's launch the last load on this thread took.
pub fn host_launch_args() -> Option<Vec<Option<i64>>> {
    HOST_USED.with(|h| h.borrow().as_ref().map(|u| u.args.clone()))
}

/// Keep an error said on standard error for the JSON report of a file that is bad input.
pub fn note_error(message: &str, at: Option<(usize, usize)>) {
    ERRORS.with(|e| e.borrow_mut().push((message.to_string(), at)));
}

/// The errors said on this thread since the last call, oldest first.
pub fn take_errors() -> Vec<(String, Option<(usize, usize)>)> {
    ERRORS.with(|e| std::mem::take(&mut *e.borrow_mut()))
}

/// Take kernel `k` of the file in this thread's loads (`None`: the command line's choice).
pub fn set_kernel(k: Option<String>) {
    KERNEL_CHOICE.with(|c| *c.borrow_mut() = k);
}

/// The kernel `set_kernel` chose, if any.
pub fn kernel_choice() -> Option<String> {
    KERNEL_CHOICE.with(|c| c.borrow().clone())
}

/// The kernels of a `.cu`/`.cl` file of several when the command line names none (`verify`
/// verifies each); none otherwise.
pub fn file_kernels(path: &Path, args: &LaunchArgs) -> Vec<String> {
    let dialect = match kind_of(path).as_str() {
        "cu" => Dialect::Cuda,
        "cl" => Dialect::OpenCl,
        _ => return Vec::new(),
    };
    let Ok(src) = read_kernel(path, &args.include_dirs) else { return Vec::new() };
    let front = front_options(args, &src, dialect, None);
    if front.kernel.is_some() || front.check_function.is_some() {
        return Vec::new();
    }
    let names = kpl_c::kernel_names(&src.text, &front);
    if names.len() > 1 {
        names
    } else {
        Vec::new()
    }
}

/// The kernel templates of a `.cu` file with other kernels, when the command line names no
/// kernel: `verify` reports each as not checked (`kpl_c::kernel_templates`), with whether a
/// whole program never launches it (`host_launch::never_launched`'s reason).
pub fn unchecked_kernel_templates(path: &Path, args: &LaunchArgs) -> Vec<(String, Option<String>)> {
    if kind_of(path) != "cu" {
        return Vec::new();
    }
    let Ok(src) = read_kernel(path, &args.include_dirs) else { return Vec::new() };
    let front = front_options(args, &src, Dialect::Cuda, None);
    if front.kernel.is_some() || front.check_function.is_some() {
        return Vec::new();
    }
    let templates = kpl_c::kernel_templates(&src.text, &front);
    if templates.is_empty() {
        return Vec::new();
    }
    let host = kpl_c::launch_sites(&src.text, &front);
    templates
        .into_iter()
        .map(|t| {
            let never = crate::host_launch::never_launched_in(&host, &src.text, &t);
            (t, never)
        })
        .collect()
}

/// Take the host code's launch `c` (of those `host_contexts` counts) in this thread's loads.
pub fn set_host_context(c: Option<usize>) {
    HOST_CONTEXT.with(|h| h.set(c));
}

/// The line of the host code's launch the last load on this thread took, if it took one.
pub fn host_launch_line() -> Option<usize> {
    HOST_USED.with(|h| h.borrow().as_ref().map(|u| u.line))
}

/// How many launches (grid and block) the host code of a `.cu` file decides for its kernel
/// when the command line gives none (or only the grid): 0 where it gives one, or the file
/// has none to read.
pub fn host_contexts(path: &Path, args: &LaunchArgs) -> usize {
    let grid = match args.given() {
        Ok((None, g)) if kind_of(path) == "cu" => g,
        _ => return 0,
    };
    let Ok(src) = read_kernel(path, &args.include_dirs) else {
        return 0;
    };
    host_launches_of(&src, &front_options(args, &src, Dialect::Cuda, None), grid, args.free_grid)
        .map_or(0, |(_, h)| h.len())
}

/// Where a `.cu` file is a whole program that never launches the kernel chosen (or its
/// only kernel), and the command line gives no launch: the kernel's name and why
/// (`host_launch::never_launched`).
pub fn never_launched(path: &Path, args: &LaunchArgs) -> Option<(String, String)> {
    if kind_of(path) != "cu" || !matches!(args.given(), Ok((None, None))) {
        return None;
    }
    let src = read_kernel(path, &args.include_dirs).ok()?;
    let front = front_options(args, &src, Dialect::Cuda, None);
    let kernel = match front.kernel.clone() {
        Some(k) => k,
        None => match kpl_c::kernel_names(&src.text, &front).as_slice() {
            [k] => k.clone(),
            _ => return None,
        },
    };
    let why = crate::host_launch::never_launched(&src.text, &front, &kernel)?;
    Some((kernel, why))
}

pub fn load(
    path: &Path,
    args: &LaunchArgs,
    need_launch: bool,
) -> Result<(Source, Checked, Launch), Exit> {
    HOST_USED.with(|h| *h.borrow_mut() = None);
    let src = read_kernel(path, &args.include_dirs)?;
    let kind = kind_of(path);
    let ext = kind.as_str();
    let (threads, groups) = match args.given() {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return Err(Exit::BadInput);
        }
    };
    if args.global_offset.is_some_and(|o| o != [0; 3]) && ext != "cl" {
        eprintln!("error: `--global_offset` is OpenCL's global work offset: it applies to `.cl` kernels only");
        return Err(Exit::BadInput);
    }
    let result = match ext {
        "kpl" => kpl_lang::check_kpl(&src.text),
        "cu" | "cl" => {
            let dialect = if ext == "cu" {
                Dialect::Cuda
            } else {
                Dialect::OpenCl
            };
            let mut launch_args = None;
            let mut launch_facts = Vec::new();
            let launch = match (threads, groups) {
                (Some(t), g) => Some(Launch::new(g.unwrap_or([1, 1, 1]), t)),
                (None, Some(_)) if !(need_launch && ext == "cu") => {
                    eprintln!("error: the launch needs the threads per group too (`--blockDim=` or `--local_size=`)");
                    return Err(Exit::BadInput);
                }
                (None, grid) if need_launch => {
                    // A `.cu` file's host code may decide the launch (`host_launch.rs`), or
                    // its block where `--gridDim` gives the grid.
                    let chosen =
                        host_launches_of(&src, &front_options(args, &src, dialect, None), grid, args.free_grid)
                            .and_then(|(kernel, mut hs)| {
                                match (hs.len(), HOST_CONTEXT.with(|c| c.get())) {
                                    (0, _) => Ok(None),
                                    (1, _) => Ok(hs.pop()),
                                    (n, Some(c)) if c < n => Ok(Some(hs.swap_remove(c))),
                                    _ => Err(crate::host_launch::several(&kernel, &hs)),
                                }
                            });
                    match chosen {
                        Ok(Some(h)) => {
                            let line = src.text[..h.site.start.min(src.text.len())]
                                .matches('\n')
                                .count()
                                + 1;
                            HOST_USED.with(|u| *u.borrow_mut() = Some(HostUsed { line, args: h.args.clone(), facts: h.facts.len(), shared_bytes: h.shared_bytes, free_groups: h.launch.free_groups }));
                            report(&src, &[h.note]);
                            launch_args = Some(h.args);
                            launch_facts = h.facts;
                            Some(h.launch)
                        }
                        found => {
                            if let Err(d) = found {
                                report(&src, &[d]);
                            }
                            let (b, g) = if ext == "cu" {
                                ("--blockDim", "--gridDim")
                            } else {
                                ("--local_size", "--num_groups")
                            };
                            let front = front_options(args, &src, dialect, None);
                            // A kernel kpl cannot read has no launch to find: its errors come
                            // first (read with one thread, a launch that changes no error).
                            let mut one = front.clone();
                            one.launch = Some(Launch::new([1, 1, 1], [1, 1, 1]));
                            if let Err(errors) = kpl_c::check_c(&src.text, &one) {
                                let errors: Vec<_> = errors.into_iter().filter(|d| !d.message.contains("several kernels")).collect();
                                if !errors.is_empty() {
                                    // (`report` notes each error, at its line and column, for JSON.)
                                    report(&src, &errors);
                                    return Err(Exit::BadInput);
                                }
                            }
                            let kernels = if front.kernel.is_none() { kpl_c::kernel_names(&src.text, &front) } else { Vec::new() };
                            let message = if kernels.len() > 1 {
                                // The kernel, not its launch, is what is missing first.
                                let names: Vec<String> = kernels.iter().map(|k| format!("`{k}`")).collect();
                                format!("`{}` has several kernels ({}): choose one with `--kernel=NAME` (`kpl verify` verifies each)", src.path, names.join(", "))
                            } else if let Some((k, why)) = never_launched(path, args).filter(|_| grid.is_none()) {
                                format!("`{}` is a program that never launches `{k}`: {why}; give a launch with `{b}=` (and `{g}=`) to check the kernel on its own", src.path)
                            } else if grid.is_some() {
                                format!("`{}` needs the threads per group too: the host code does not decide them; give `{b}=`", src.path)
                            } else {
                                format!("`{}` needs a launch: give the threads per group with `{b}=` (and the groups with `{g}=`, default 1)", src.path)
                            };
                            eprintln!("error: {message}");
                            note_error(&message, None);
                            return Err(Exit::BadInput);
                        }
                    }
                }
                (None, _) => None,
            };
            kpl_c::check_c(
                &src.text,
                &FrontOptions {
                    launch_args,
                    launch_facts,
                    ..front_options(args, &src, dialect, launch)
                },
            )
        }
        _ => {
            let d = Diagnostic::error(
                format!(
                    "unknown kind of kernel file `{}`: expected `.kpl`, `.cu` or `.cl`",
                    src.path
                ),
                kpl_lang::Span::new(0, 0),
            )
            .with_help("or give the language with `-x kpl`, `-x cuda` or `-x opencl`");
            report(&src, &[d]);
            return Err(Exit::BadInput);
        }
    };
    match result {
        Ok(c) => {
            let quiet = QUIET_HOST_SKIPS.load(std::sync::atomic::Ordering::Relaxed);
            let shown: Vec<Diagnostic> = c
                .warnings
                .iter()
                .filter(|d| !(quiet && d.message.starts_with("host code skipped")))
                .filter(|d| first_time(&src.path, d))
                .cloned()
                .collect();
            report(&src, &shown);
            let mut launch = args.apply(Launch::of(&c.kernel));
            // A grid the host code computes at run time: its declared size is the largest.
            if let Some(free) = HOST_USED.with(|h| h.borrow().as_ref().map(|u| u.free_groups)) {
                launch.free_groups = free;
            }
            Ok((src, c, launch))
        }
        Err(errs) => {
            report(&src, &errs);
            let n = errs.len();
            eprintln!("{}: {n} error{}", src.path, if n == 1 { "" } else { "s" });
            Err(Exit::BadInput)
        }
    }
}

/// The warnings already shown, by file, message and place: a program's every launch
/// context loads its file again, with the same warnings on its host code each time.
static SHOWN_WARNINGS: std::sync::Mutex<std::collections::BTreeSet<(String, String, usize, usize)>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// Whether `d` is to be shown: anything but a warning, or a warning not yet shown for `path`.
fn first_time(path: &str, d: &Diagnostic) -> bool {
    if d.severity != kpl_lang::diagnostic::Severity::Warning {
        return true;
    }
    let key = (path.to_string(), d.message.clone(), d.span.start, d.span.end);
    SHOWN_WARNINGS.lock().map_or(true, |mut shown| shown.insert(key))
}

/// A directory `-o` may write to: one that does not exist yet (kpl creates it), an empty
/// one, or one that holds only what kpl writes there (a certificate and an Isabelle
/// session with its base session in `KPL/`, from an earlier run). Anything else is refused, so that `-o /` or `-o ~`
/// never scatters files into a directory of the user's.
pub fn check_output_dir(dir: &Path) -> Result<(), Exit> {
    let refuse = |why: &str| {
        eprintln!(
            "error: will not write into `{}`: {why}; give a new or empty directory",
            dir.display()
        );
        Err(Exit::BadInput)
    };
    if !dir.exists() {
        return Ok(());
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return refuse("it is not a readable directory");
    };
    for e in entries {
        let Ok(e) = e else {
            return refuse("it cannot be listed");
        };
        let name = e.file_name();
        let name = name.to_string_lossy();
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        // The base session's theories, in `KPL/`.
        if name == "KPL" && is_dir {
            let only_theories = std::fs::read_dir(e.path()).is_ok_and(|rd| {
                rd.filter_map(|x| x.ok()).all(|x| {
                    x.file_name().to_string_lossy().ends_with(".thy")
                        && x.file_type().is_ok_and(|t| t.is_file())
                })
            });
            if only_theories {
                continue;
            }
            return refuse("its `KPL` holds files kpl did not write");
        }
        let ours = name == "certificate.json"
            || name == "ROOT"
            || name == "README.md"
            || name.ends_with(".thy");
        if !ours || !e.file_type().is_ok_and(|t| t.is_file()) {
            return refuse(&format!("it holds `{name}`, which kpl did not write"));
        }
    }
    Ok(())
}
