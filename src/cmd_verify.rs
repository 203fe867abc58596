//! `kpl verify`: prove race freedom, divergence freedom, assertions and bounds for all
//! thread pairs and all inputs; report every defect found with a witness, replayed in the
//! interpreter (confirmed) or not (possible).

use crate::exit::Exit;
use crate::options::{CheckArgs, LaunchArgs};
use crate::replay::{self, ReplayOptions};
use crate::{gpuverify_text, input, limits, progress, render};
use kpl_certify::verify::{self, Options, Outcome, Report};
use kpl_certify::witness::{Ids, Witness};
use kpl_lang::span::line_col;
use kpl_lang::{Diagnostic, Launch, Span};
use kpl_reduction::seq::{AccessKind, LabelKind};
use kpl_reduction::AbstractionChoice;
use serde_json::{json, Value};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// The options of a verification (shared by `verify` and `certify`).
#[derive(clap::Args, Clone)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub launch: LaunchArgs,
    #[command(flatten)]
    pub check: CheckArgs,
    /// Use the equality abstraction for every array.
    #[arg(long = "equality-abstraction", conflicts_with = "adversarial_abstraction")]
    pub equality_abstraction: bool,
    /// Use the adversarial abstraction for every array.
    #[arg(long = "adversarial-abstraction")]
    pub adversarial_abstraction: bool,
    /// Give up with verdict `inconclusive` after this many seconds per file; the whole
    /// command, front end and witness replay included, ends at most 2 s after that.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Do not infer loop invariants (use only the kernel's own).
    #[arg(long = "no-infer")]
    pub no_infer: bool,
    /// GPUVerify's bounded mode: unroll every loop N times and search only the executions
    /// that need no more (finds defects; never says verified).
    #[arg(long = "loop-unwind", value_name = "N", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub loop_unwind: Option<u32>,
    /// GPUVerify's k-induction: prove every loop from its first K iterations (checked from
    /// the entry) and from any K consecutive iterations satisfying the invariants to the
    /// next (invariants that hold every K iterations suffice). 0: plain induction.
    #[arg(long = "k-induction-depth", value_name = "K", default_value_t = 0, conflicts_with = "loop_unwind", value_parser = clap::value_parser!(u32).range(0..=16))]
    pub k_induction_depth: u32,
    /// GPUVerify's option: do not check that a barrier invariant reads only elements the
    /// thread accessed since the previous barrier (unsound for such invariants).
    #[arg(long = "no-barrier-access-checks")]
    pub no_barrier_access_checks: bool,
    /// GPUVerify's option: check and assume the loop invariants the kernel states for one
    /// thread of the pair only (sound, as the thread is arbitrary; can give false alarms
    /// where the other thread's state needs them). Assertions are checked for one thread in
    /// any case.
    #[arg(long = "asymmetric-asserts")]
    pub asymmetric_asserts: bool,
    /// GPUVerify's modular mode for `__device__` functions: a call of a function with an
    /// `__ensures` and no effect on memory other threads see uses only its contract (its
    /// `__requires` checked, its `__ensures` assumed); other calls are inlined. Each
    /// function nothing calls and each with an `__ensures` is also checked on its own,
    /// with arbitrary arguments.
    #[arg(long = "no-inline")]
    pub no_inline: bool,
    /// Solve the verification conditions as generated, without e-graph simplification.
    #[arg(long = "no-simplify")]
    pub no_simplify: bool,
    /// Also solve without simplification and report both solver times in the stats.
    #[arg(long = "compare-simplification")]
    pub compare_simplification: bool,
    /// GPUVerify's option; kpl always checks array bounds (KPL's semantics).
    #[arg(long = "check-array-bounds", hide = true)]
    pub check_array_bounds: bool,
    /// GPUVerify's options for clang and its solver driver, and its `--debug` and
    /// `--infer-info` reports: accepted for compatibility, no effect in kpl (which has its
    /// own front end and solver driver).
    #[arg(long = "clang-opt", value_name = "OPT", hide = true)]
    pub clang_opt: Vec<String>,
    #[arg(long = "cruncher-opt", value_name = "OPT", hide = true)]
    pub cruncher_opt: Vec<String>,
    #[arg(long = "debug", hide = true)]
    pub debug: bool,
    #[arg(long = "infer-info", hide = true)]
    pub infer_info: bool,
}

/// The longest `--timeout` (about 30 years): longer ones would overflow the clock.
const MAX_TIMEOUT: f64 = 1e9;

impl VerifyArgs {
    pub fn validate(&self) -> Result<(), String> {
        match self.timeout {
            Some(t) if !(t > 0.0 && t <= MAX_TIMEOUT) => {
                Err(format!("`--timeout={t}`: expected a positive number of seconds, at most {MAX_TIMEOUT:e}"))
            }
            _ => Ok(()),
        }
    }

    pub fn options(&self, file: &std::path::Path, launch: Launch, explain: bool) -> Options {
        Options {
            launch,
            abstraction: if self.equality_abstraction {
                AbstractionChoice::Equality
            } else if self.adversarial_abstraction {
                AbstractionChoice::Adversarial
            } else {
                AbstractionChoice::Auto
            },
            only_intra_group: self.check.only_intra_group,
            benign: self.check.benign(file),
            timeout: self.timeout.map(|t| part_budget(Duration::from_secs_f64(t))),
            infer: !self.no_infer,
            simplify: !self.no_simplify || explain,
            explain,
            compare: self.compare_simplification,
            check_arrays: self.check.check_arrays(),
            perf: None,
            perf_skip: Vec::new(),
            private: Vec::new(),
            warp_sync: self.check.warp_sync,
            only_divergence: self.check.only_divergence,
            loop_unwind: self.loop_unwind,
            unwind_constant_loops: false,
            k_induction: self.k_induction_depth,
            barrier_access_checks: !self.no_barrier_access_checks,
            asymmetric_asserts: self.asymmetric_asserts,
            refute: true,
            dropped_elsewhere: None,
            verified_elsewhere: false,
            habits: Default::default(),
        }
    }
}

#[derive(clap::Args)]
pub struct Args {
    /// Kernel files, or directories whose `.cu`, `.cl` and `.kpl` files are verified (less
    /// what their `.gitignore` files and `--exclude` leave out); several are verified in
    /// parallel (`--jobs`), with a summary at the end.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// In a directory given, leave out the paths this `.gitignore`-style pattern matches
    /// (`gen/`, `**/*_old.cu`); repeatable.
    #[arg(long, value_name = "PATTERN")]
    exclude: Vec<String>,
    #[command(flatten)]
    v: VerifyArgs,
    /// Print the report as JSON (`--format=json`).
    #[arg(long)]
    json: bool,
    /// The report's format: `text`, `json` (a JSON object per file and launch, a line each),
    /// or `sarif` (one SARIF 2.1.0 log for all the files, as code-scanning tools read it)
    #[arg(long, value_name = "FORMAT", value_parser = ["text", "json", "sarif"])]
    format: Option<String>,
    /// Write stages to files: any of seq, vc, smt (e.g. `--dump=seq,smt`).
    #[arg(long, value_name = "STAGES", value_delimiter = ',')]
    dump: Vec<String>,
    /// Where `--dump` writes (default: the current directory).
    #[arg(long = "dump-dir", value_name = "DIR", default_value = ".")]
    dump_dir: PathBuf,
    /// Verify this many files at once (default: the number of cores); given, what the files leave over verifies a kernel's launch contexts at once (`--jobs 2` and one file: two launches at a time; by default one at a time).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// What fails: `any` defect (exit 1, GPUVerify's contract), or only `confirmed` ones: a
    /// file whose defects the interpreter reproduced none of has verdict `possible` and
    /// exit code 5
    #[arg(long = "fail-on", value_name = "WHICH", value_parser = ["any", "confirmed"], default_value = "any")]
    fail_on: String,
    /// Also print each defect of a `.cu`/`.cl` file as GPUVerify words it (`possible
    /// write-read race on A[3]:` ...), for scripts written against GPUVerify; a file in
    /// GPUVerify's test format (first line `//pass` or `//xfail:...`) gets it anyway
    #[arg(long = "gpuverify-text")]
    gpuverify_text: bool,
    /// Verify again even where the result cache holds the answer (and keep none).
    #[arg(long = "no-cache")]
    no_cache: bool,
    /// Where the result cache is (default `$KPL_CACHE_DIR`, else `$XDG_CACHE_HOME/kpl`, else
    /// `~/.cache/kpl`).
    #[arg(long = "cache-dir", value_name = "DIR")]
    cache_dir: Option<PathBuf>,
}

/// How `present` reports a file.
#[derive(Clone, Copy, Default)]
pub struct Presentation {
    /// JSON instead of text.
    pub json: bool,
    /// `--fail-on=confirmed`.
    pub fail_on_confirmed: bool,
    /// `--gpuverify-text`.
    pub gpuverify_text: bool,
}

#[derive(Clone)]
pub struct FileResult {
    pub code: Exit,
    pub text: String,
    pub json: Option<Value>,
    /// What `present` says on standard error (the diagnostics), for its caller to print.
    pub stderr: String,
}

pub fn run(mut a: Args) -> Exit {
    // A grid the host code computes at run time is verified as any grid.
    a.v.launch.free_grid = true;
    // SARIF is made from the JSON reports (`sarif.rs`).
    let sarif = a.format.as_deref() == Some("sarif");
    if a.format.as_deref() == Some("text") && a.json {
        eprintln!("error: `--json` and `--format=text` ask for two formats");
        return Exit::BadInput;
    }
    a.json |= sarif || a.format.as_deref() == Some("json");
    // Directories: their kernel files (`file_tree.rs`); a summary at the end.
    let tree = a.files.iter().any(|p| p.is_dir());
    a.files = match crate::file_tree::expand(&a.files, &a.exclude) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput;
        }
    };
    if a.files.is_empty() {
        eprintln!("error: no `.cu`, `.cl` or `.kpl` file in the directories given");
        return Exit::BadInput;
    }
    for d in &a.dump {
        if !["seq", "vc", "smt"].contains(&d.as_str()) {
            eprintln!("error: `--dump={d}`: the stages are seq, vc and smt");
            return Exit::BadInput;
        }
    }
    if let Err(e) = a.v.validate() {
        eprintln!("error: {e}");
        return Exit::BadInput;
    }
    let n = a.files.len();
    let all_jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|x| x.get()).unwrap_or(1)).max(1);
    let jobs = all_jobs.clamp(1, n);
    // What an explicit `--jobs` leaves over after the files verifies a kernel's launch
    // contexts in parallel (by default one at a time: two launches hold two solvers and two
    // interpreters, and memory-hungry ones reach the memory limit together, KNOWN_ISSUES).
    LAUNCH_JOBS.store(if a.jobs.is_some() { (all_jobs / jobs).max(1) } else { 1 }, Ordering::Relaxed);
    let next = AtomicUsize::new(0);
    let results: Arc<Vec<Mutex<Option<FileResult>>>> = Arc::new((0..n).map(|_| Mutex::new(None)).collect());
    // Each file's kernels and launches answered so far, which the watchdog prints if the
    // file's whole result does not come in time.
    let parts: Arc<Vec<Arc<Mutex<Vec<FileResult>>>>> = Arc::new((0..n).map(|_| Arc::new(Mutex::new(Vec::new()))).collect());
    let paths: Vec<String> = a.files.iter().map(|p| p.display().to_string()).collect();
    JSON_OUT.store(a.json, Ordering::Relaxed);
    if a.json {
        // Past the memory limit the process ends at once: every file is then inconclusive
        // (after what was answered, `done_part`).
        let reason = "the memory limit ran out (--memory-limit)";
        let lines: Vec<String> = paths
            .iter()
            .map(|p| serde_json::to_string(&json!({ "file": p, "verdict": "inconclusive", "reason": reason, "defects": [] })).unwrap_or_default() + "\n")
            .collect();
        limits::on_out_of_memory_print(lines);
    }
    // `--timeout` bounds the whole command: past it (and a grace for the cooperative stop,
    // which reports more), the watchdog prints what is finished, the rest as inconclusive.
    let watchdog = a.v.timeout.map(|t| {
        let limit = Duration::from_secs_f64(t * n.div_ceil(jobs) as f64) + limits::GRACE;
        let (results, parts, paths, json) = (results.clone(), parts.clone(), paths.clone(), a.json);
        limits::Watchdog::start(limit, move || {
            progress::clear();
            print_results(&results, &parts, &paths, json, &format!("the time limit of {t} s ran out (--timeout)"), false, sarif);
        })
    });
    // This thread works too (it has the working stack): `jobs - 1` more, as many as the
    // system gives.
    let work = || loop {
        let i = next.fetch_add(1, Ordering::SeqCst);
        if i >= n {
            break;
        }
        DONE_PARTS.with(|p| *p.borrow_mut() = Some(parts[i].clone()));
        let r = one(&a, i, n);
        DONE_PARTS.with(|p| *p.borrow_mut() = None);
        limits::out_of_memory_part_done(i);
        if let Ok(mut slot) = results[i].lock() {
            *slot = Some(r);
        }
        // The whole result is in: its parts are no longer needed.
        if let Ok(mut done) = parts[i].lock() {
            done.clear();
        }
    };
    std::thread::scope(|sc| {
        for _ in 1..jobs {
            if limits::spawn_scoped(sc, work).is_none() {
                break;
            }
        }
        work();
    });
    if let Some(w) = &watchdog {
        w.finish();
    }
    progress::clear();
    print_results(&results, &parts, &paths, a.json, "not verified", tree || n > 1, sarif)
}

/// Print each file's report in order (text, or one JSON object per line); a file with no
/// result is reported as inconclusive for `missing`. Gives the worst exit code.
/// A file with no whole result but some of its kernels and launches answered (`parts`)
/// shows those, then the rest as inconclusive.
fn print_results(results: &[Mutex<Option<FileResult>>], parts: &[Arc<Mutex<Vec<FileResult>>>], paths: &[String], json: bool, missing: &str, summary: bool, sarif: bool) -> Exit {
    let mut worst = Exit::Ok;
    let mut out = String::new();
    // `--format=sarif`: every report, then one log of them.
    let mut reports: Vec<Value> = Vec::new();
    // Per file, kernel and launch: the verdict and time (`summary`, text only).
    let mut rows: Vec<(String, String, f64)> = Vec::new();
    for ((slot, path), done) in results.iter().zip(paths).zip(parts) {
        let r = slot.lock().ok().and_then(|mut g| g.take());
        let r = r.unwrap_or_else(|| {
            let rest = FileResult {
                code: Exit::Inconclusive,
                text: format!("{path}: inconclusive: {missing}\n"),
                json: Some(json!({ "file": path, "verdict": "inconclusive", "reason": missing, "defects": [] })),
                stderr: String::new(),
            };
            let done = done.lock().map(|d| d.clone()).unwrap_or_default();
            if done.is_empty() {
                rest
            } else {
                merged(done.into_iter().chain(std::iter::once(rest)).collect())
            }
        });
        worst = worst.max(r.code);
        if summary && !json {
            summary_rows(path, r.json.as_ref(), &mut rows);
        }
        if json {
            let v = r.json.unwrap_or_else(|| json!({ "file": path, "verdict": "bad_input", "defects": [] }));
            // A kernel verified under several launches of its host code: a line each.
            for v in if let Value::Array(vs) = v { vs } else { vec![v] } {
                if sarif {
                    reports.push(v);
                    continue;
                }
                out.push_str(&serde_json::to_string(&v).unwrap_or_default());
                out.push('\n');
            }
        } else {
            out.push_str(&r.text);
        }
    }
    if summary && !json && !rows.is_empty() {
        out.push_str(&summary_table(&rows));
    }
    if sarif {
        out = serde_json::to_string_pretty(&crate::sarif::log(&reports)).unwrap_or_default();
        out.push('\n');
    }
    print!("{out}");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    worst
}

/// The summary's rows of one file's report (one per kernel and launch).
fn summary_rows(path: &str, json: Option<&Value>, rows: &mut Vec<(String, String, f64)>) {
    let reports: Vec<&Value> = match json {
        Some(Value::Array(vs)) => vs.iter().collect(),
        Some(v) => vec![v],
        None => Vec::new(),
    };
    if reports.is_empty() {
        rows.push((path.to_string(), "bad_input".into(), 0.0));
    }
    // (Every report names its kernel; a row only where the file has several.)
    let kernels: std::collections::BTreeSet<&str> = reports.iter().filter_map(|v| v["kernel"].as_str()).collect();
    for v in reports {
        let mut what = path.to_string();
        if let Some(k) = v["kernel"].as_str().filter(|_| kernels.len() > 1) {
            what.push_str(&format!(" `{k}`"));
        }
        if let Some(line) = v["launch"]["line"].as_u64() {
            what.push_str(&format!(" (launch at line {line})"));
        }
        let verdict = v["verdict"].as_str().unwrap_or("bad_input").to_string();
        let secs = v["stats"]["time_ms"].as_f64().unwrap_or(0.0) / 1000.0;
        rows.push((what, verdict, secs));
    }
}

/// The table at the end of a run over several files: counts by verdict, then a row each.
fn summary_table(rows: &[(String, String, f64)]) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (_, v, _) in rows {
        match counts.iter_mut().find(|c| c.0 == *v) {
            Some(c) => c.1 += 1,
            None => counts.push((v.clone(), 1)),
        }
    }
    let total: f64 = rows.iter().map(|r| r.2).sum();
    let said: Vec<String> = counts.iter().map(|(v, n)| format!("{n} {}", v.replace('_', " "))).collect();
    let mut t = format!("\nsummary: {} checked in {total:.2} s: {}\n", rows.len(), said.join(", "));
    for (what, verdict, secs) in rows {
        t.push_str(&format!("  {verdict:<14} {secs:>8.2} s  {what}\n"));
    }
    t
}

/// A kernel verified: the report and which defects the interpreter confirmed.
pub struct Analysed {
    pub src: input::Source,
    pub checked: kpl_lang::Checked,
    pub launch: Launch,
    pub opts: Options,
    pub report: Report,
    pub confirmed: Vec<bool>,
    /// For each defect not confirmed: did the replay stop at its step budget?
    pub replay_cut: Vec<bool>,
    /// `--no-inline`: the checks of device functions on their own (their name, and the
    /// check, analysed as a kernel of its own).
    pub functions: Vec<(String, Analysed)>,
    /// Verified only because the preconditions never hold (`verify::preconditions_unsatisfiable`).
    pub vacuous: bool,
    /// Verified assuming the atomic additions to these arrays never wrap around
    /// (`kpl_reduction::wrap_assumed`).
    pub no_wrap: Vec<String>,
    /// The line of the host code's launch the kernel was verified under (`host_launch.rs`),
    /// where the command line gave none.
    pub host_line: Option<usize>,
    /// That launch's dynamic shared memory in bytes, where the host code gives a constant.
    pub host_shared_bytes: Option<u64>,
}

/// Does the kernel (or a procedure of it) have an atomic?
fn has_atomics(k: &kpl_lang::ast::Kernel) -> bool {
    let mut found = false;
    for b in k.procs.iter().map(|p| &p.body).chain([&k.main]) {
        kpl_reduction::kernel_walk::walk(b, &mut |s| found |= matches!(s.kind, kpl_lang::ast::StmtKind::Atomic(_)));
    }
    found
}

/// Load, verify and replay the defects of one file (progress on a terminal). `contracts`:
/// under `--no-inline`, calls may use only their callee's contract (`verify`; a
/// certificate's kernel has its calls inlined, as `check-cert` lowers it).
pub fn analyse(path: &std::path::Path, v: &VerifyArgs, explain: bool, contracts: bool, progress_prefix: String) -> Result<Analysed, Exit> {
    let loaded = load_for(path, v, contracts)?;
    analyse_loaded(path, v, explain, contracts, progress_prefix, loaded)
}

/// A kernel loaded for `analyse`: its source, the checked kernel, its launch, and the line
/// of the host code's launch it was read from.
pub struct Loaded(input::Source, kpl_lang::Checked, Launch, Option<usize>, Option<u64>);

/// Load the kernel `analyse` verifies.
fn load_for(path: &std::path::Path, v: &VerifyArgs, contracts: bool) -> Result<Loaded, Exit> {
    input::set_warp_sync(v.check.warp_sync);
    let mut la = v.launch.clone();
    la.no_inline = v.no_inline && contracts;
    let (src, c, launch) = input::load(path, &la, true)?;
    Ok(Loaded(src, c, launch, input::host_launch_line(), input::host_launch_shared_bytes()))
}

/// `analyse` of a kernel `load_for` loaded.
fn analyse_loaded(path: &std::path::Path, v: &VerifyArgs, explain: bool, contracts: bool, progress_prefix: String, loaded: Loaded) -> Result<Analysed, Exit> {
    let Loaded(src, c, launch, host_line, host_shared) = loaded;
    let mut la = v.launch.clone();
    la.no_inline = v.no_inline && contracts;
    v.check.known_arrays(&c)?;
    // GPUVerify refuses its equality abstraction with atomics, and so does kpl for its input
    // languages; kpl's own, which takes an atomic's result as arbitrary, stays for `.kpl`.
    if v.equality_abstraction && crate::options::gpuverify_language(path) && has_atomics(&c.core) {
        eprintln!("GPUVerify: error: --equality-abstraction cannot be used with atomics.");
        eprintln!("error: `--equality-abstraction` cannot be used with atomics in a `.cu` or `.cl` kernel, as in GPUVerify (a `.kpl` kernel with atomics takes it)");
        return Err(Exit::BadInput);
    }
    let mut opts = v.options(path, launch, explain);
    opts.private = c.layouts.private.iter().map(|(a, n)| (a.clone(), *n)).collect();
    let name = src.path.clone();
    let show = move |msg: &str| {
        progress::show(&format!("{progress_prefix}{name}: {msg}"));
    };
    let inlined = modular_replay(path, &la, &c)?;
    // The candidates Houdini did not keep under the kernel's last verified launch start off
    // (`Options::dropped_elsewhere`): a program's launches of one kernel differ in sizes,
    // and mostly in none of its invariants.
    let key = (path.to_path_buf(), c.kernel.name.name.clone());
    // Where Houdini ran out of time, what it had dropped so far: the next launch goes on
    // from there (with the searches for defects a verified hint skips).
    let hint = DROPPED.with(|d| d.borrow().get(&key).cloned());
    opts.verified_elsewhere = hint.as_ref().is_some_and(|h| h.verified);
    opts.habits = hint.as_ref().map(|h| h.habits).unwrap_or_default();
    opts.dropped_elsewhere = hint.and_then(|h| h.dropped);
    let mut kernel = verify_loaded(src, c, inlined, launch, opts, &show);
    let r = &kernel.report;
    let verified = r.outcome == Outcome::Verified;
    let ran_out = matches!(&r.outcome, Outcome::Inconclusive(why) if why.starts_with("invariant inference")) && !kernel.opts.verified_elsewhere;
    DROPPED.with(|d| {
        let mut d = d.borrow_mut();
        let hint = d.entry(key).or_insert(Hint { dropped: None, verified: false, habits: Default::default() });
        hint.habits = r.habits;
        if verified || ran_out {
            let off = |i: usize| if verified { !r.kept.get(i).copied().unwrap_or(false) } else { r.ruled_out.get(i).copied().unwrap_or(false) };
            let dropped = (0..r.program.candidates.len()).filter(|&i| off(i)).map(|i| verify::candidate_key(&r.program, i));
            (hint.dropped, hint.verified) = (Some(std::sync::Arc::new(dropped.collect())), verified);
        }
    });
    kernel.host_line = host_line;
    kernel.host_shared_bytes = host_shared;
    if v.no_inline {
        // GPUVerify's modular mode: each device function is also checked on its own.
        for check in input::modular_checks(path, &v.launch) {
            let mut la = la.clone();
            la.check_function = Some(check.function.clone());
            // A launch read from the host code is the kernel's: its functions are checked
            // under it too.
            // (A grid computed at run time stays free: the same host context gives it.)
            if host_line.is_some() && !launch.has_free_groups() {
                (la.block_dim, la.grid_dim) = (Some(launch.threads), Some(launch.groups));
            }
            let (src, c, launch) = input::load(path, &la, true)?;
            let inlined = modular_replay(path, &la, &c)?;
            let mut opts = v.options(path, launch, explain);
            opts.private = c.layouts.private.iter().map(|(a, n)| (a.clone(), *n)).collect();
            // A called function's races are checked where it is inlined (a contract call
            // has no accesses, `kpl_c::contract_calls`).
            opts.only_divergence |= !check.whole;
            let what = format!("{} (checked on its own)", check.function);
            let f = verify_loaded(src, c, inlined, launch, opts, &|m: &str| show(&format!("{what}: {m}")));
            kernel.functions.push((check.function, f));
        }
    }
    Ok(kernel)
}

/// Where some call used only its callee's contract (`--no-inline`), the same kernel with
/// every call inlined: defects are replayed in the program as written, so a report the
/// contract alone gives is never shown as confirmed.
fn modular_replay(path: &std::path::Path, la: &LaunchArgs, c: &kpl_lang::Checked) -> Result<Option<kpl_lang::Checked>, Exit> {
    if c.layouts.contract_calls.is_empty() {
        return Ok(None);
    }
    let mut la = la.clone();
    la.no_inline = false;
    Ok(Some(input::load(path, &la, true)?.1))
}

/// The most thread-statements the replay of one witness runs.
const REPLAY_STEPS: u64 = 20_000_000;

/// Verify a loaded kernel and replay its defects in the interpreter (in `inlined`, where
/// given: the kernel without contract calls).
fn verify_loaded(src: input::Source, c: kpl_lang::Checked, inlined: Option<kpl_lang::Checked>, launch: Launch, opts: Options, show: &dyn Fn(&str)) -> Analysed {
    let race_arrays = if opts.only_divergence { Some(Vec::new()) } else { opts.check_arrays.clone() };
    let ro = ReplayOptions { inter_group: !opts.only_intra_group, benign: opts.benign, max_steps: REPLAY_STEPS, warp_sync: opts.warp_sync, race_arrays, whole: true, relabel: false };
    let target = inlined.as_ref().unwrap_or(&c);
    // (Sorting out the check without invariants, whose defects may all be spurious: a
    // large launch only in its groups alone, and a quarter of the budget shared by its
    // defects, so that replays of what Houdini would rule out cost little time and memory:
    // on a verified kernel of long loops they were most of its time.)
    let confirm = |r: &verify::Report| {
        let mut pool = REPLAY_STEPS / 4;
        r.findings
            .iter()
            .enumerate()
            .map(|(k, f)| {
                // Each an equal share of what is left, or a twentieth of the budget where
                // that is more (one group of a long row-per-block loop), while it lasts.
                let share = (pool / (r.findings.len() - k) as u64).max(REPLAY_STEPS / 20).min(pool);
                if share < REPLAY_STEPS / 100 {
                    return None;
                }
                let quick = ReplayOptions { whole: false, max_steps: share, relabel: true, ..ro.clone() };
                let replay = replay::reproduce(target, launch, &r.program, f, &quick);
                pool = pool.saturating_sub(replay.steps);
                replay.found.ok()
            })
            .collect()
    };
    let mut report = verify::verify_confirming(&c.core, &opts, show, Some(&confirm));
    // Each finding's replay: the witness observed, or whether the replay stopped at the
    // budget (the check without invariants' findings were replayed already).
    let seen: Vec<Result<(usize, Witness), bool>> = match report.replayed {
        true => report.findings.iter().map(|f| Ok((f.label, f.witness.clone()))).collect(),
        false => report.findings.iter().map(|f| replay::reproduce(target, launch, &report.program, f, &ro).found).collect(),
    };
    let (confirmed, cut): (Vec<bool>, Vec<bool>) = seen.iter().map(|s| (s.is_ok(), s.as_ref().err() == Some(&true))).unzip();
    for (f, s) in report.findings.iter_mut().zip(seen) {
        if let Ok((label, w)) = s {
            f.label = label;
            f.witness = w;
        }
    }
    // The word stores of one vector, struct or image pixel are labels of their own, and the
    // interpreter, which stops at the first race, confirms each as the same defect: it is
    // reported once; so is a defect two findings' replays both showed (one label, or for a
    // race the same two statements on one array, whichever the interpreter saw first).
    let (labels, findings) = (&report.program.labels, &report.findings);
    let race_of = |f: &verify::Finding| match &labels[f.label].kind {
        LabelKind::Race { array, .. } => {
            let mut pair = [Some(labels[f.label].span), f.witness.logged];
            pair.sort();
            Some((array.clone(), pair))
        }
        _ => None,
    };
    let same = |i: usize, j: usize| {
        let (a, b) = (&findings[i], &findings[j]);
        let (la, lb) = (&labels[a.label], &labels[b.label]);
        a.label == b.label
            || race_of(a).is_some() && race_of(a) == race_of(b)
            || (la.kind == lb.kind && la.span == lb.span)
                && (a.witness.threads == b.witness.threads && a.witness.index == b.witness.index && a.witness.logged == b.witness.logged)
    };
    let keep: Vec<bool> = (0..findings.len()).map(|i| !confirmed[i] || !(0..i).any(|j| confirmed[j] && same(i, j))).collect();
    let mut it = keep.iter();
    report.findings.retain(|_| *it.next().unwrap_or(&true));
    let kept = |v: Vec<bool>| v.into_iter().zip(&keep).filter(|(_, k)| **k).map(|(c, _)| c).collect();
    let (confirmed, replay_cut) = (kept(confirmed), kept(cut));
    let vacuous = report.outcome == Outcome::Verified && verify::preconditions_unsatisfiable(&c.core, &opts);
    let no_wrap = kpl_reduction::wrap_assumed(&c.core, launch);
    Analysed { src, checked: c, launch, opts, report, confirmed, replay_cut, functions: Vec::new(), vacuous, no_wrap, host_line: None, host_shared_bytes: None }
}

/// What a kernel's last launch tells the next (`DROPPED`).
#[derive(Clone)]
struct Hint {
    /// The candidates Houdini did not keep, where it verified the kernel or ran out of
    /// time (`Options::dropped_elsewhere`).
    dropped: Option<std::sync::Arc<std::collections::HashSet<String>>>,
    /// Whether it verified it (`Options::verified_elsewhere`).
    verified: bool,
    /// `Options::habits`.
    habits: kpl_certify::solve::Habits,
}

thread_local! {
    /// By file and kernel: the candidates Houdini did not keep where it last verified it.
    /// (And whether it was verified there: else what a Houdini that ran out of time had
    /// dropped so far.)
    static DROPPED: std::cell::RefCell<std::collections::HashMap<(std::path::PathBuf, String), Hint>> = Default::default();
    /// The current file's list of kernels and launches answered (`run`'s `parts`).
    static DONE_PARTS: std::cell::RefCell<Option<Arc<Mutex<Vec<FileResult>>>>> = const { std::cell::RefCell::new(None) };
    /// When the part of a file being verified (the file, one of its kernels, one launch)
    /// must end: a file's `--timeout` is shared among its kernels and launches.
    static PART_END: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// `--timeout`'s `t` for the part being verified: no more than the time its share has left.
fn part_budget(t: Duration) -> Duration {
    PART_END.get().map_or(t, |end| t.min(end.saturating_duration_since(Instant::now())))
}

/// The end of a share of the time before `end`: a `parts`-th of what is left of it.
fn share_of(end: Option<Instant>, parts: usize) -> Option<Instant> {
    end.map(|end| {
        let now = Instant::now();
        now + end.saturating_duration_since(now) / parts.max(1) as u32
    })
}

/// Runs `f` with the part's end at `end` (then back to what it was).
fn within<R>(end: Option<Instant>, f: impl FnOnce() -> R) -> R {
    let outer = PART_END.replace(end);
    let r = f();
    PART_END.set(outer);
    r
}

fn one(a: &Args, i: usize, n: usize) -> FileResult {
    let end = a.v.timeout.and_then(|t| Instant::now().checked_add(Duration::from_secs_f64(t)));
    within(end, || {
        // A file of several kernels, none chosen: each is verified.
        let kernels = input::file_kernels(&a.files[i], &a.v.launch);
        let verified = if !kernels.is_empty() {
            under_each(kernels, input::set_kernel, false, || one_kernel(a, i, n))
        } else {
            one_kernel(a, i, n)
        };
        // Its kernel templates with no instance kpl reads are not checked, and say so.
        let templates = input::unchecked_kernel_templates(&a.files[i], &a.v.launch);
        if templates.is_empty() {
            return verified;
        }
        let unchecked = templates.into_iter().map(|(t, never)| done_part(match never {
            Some(why) => not_launched(a, i, &t, &why),
            None => template_unchecked(a, i, &t),
        }));
        merged(std::iter::once(verified).chain(unchecked).collect())
    })
}

/// The report of a kernel template the file names no instance of that kpl reads (its
/// template arguments deduced in host code, `norm_kernel<T><<<...>>>(values)` with `T` a
/// host template's): not checked, so the file is not verified (inconclusive).
fn template_unchecked(a: &Args, i: usize, kernel: &str) -> FileResult {
    let file = a.files[i].display().to_string();
    let why = format!("`{kernel}` is a kernel template of which kpl reads no instance (its template arguments are not written at a launch kpl reads): not checked; give `--kernel='{kernel}<ARGS>'` and a launch to check an instance");
    let text = format!("{file} (kernel `{kernel}`): inconclusive: {why}\n");
    let json = json!({ "file": file, "kernel": kernel, "verdict": "inconclusive", "reason": why, "defects": [] });
    FileResult { code: Exit::Inconclusive, text, json: Some(json), stderr: String::new() }
}

/// `verify` under each of `choices` (set with `set`, unset after), merged. Where the file
/// has a time limit, each choice may use an equal share of the time left (what one leaves
/// goes to those after it): one slow kernel does not use up the time of a file's others,
/// and every part is answered or inconclusive before the limit, in the file's report.
/// With `first_half`, the first of several takes half the time left: the launches of one
/// kernel after the first start from what Houdini kept under it (`DROPPED`), and take a
/// fraction of its time where it was verified.
fn under_each<T>(choices: Vec<T>, set: fn(Option<T>), first_half: bool, verify: impl Fn() -> FileResult) -> FileResult {
    let m = choices.len();
    let results = choices
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            let parts = if k == 0 && first_half && m > 1 { 2 } else { m - k };
            let share = share_of(PART_END.get(), parts);
            set(Some(c));
            let r = within(share, &verify);
            set(None);
            r
        })
        .collect();
    merged(results)
}

/// The results of one file's kernels or launches as the file's: the worst exit code, the
/// texts in order, the JSON reports as an array.
fn merged(results: Vec<FileResult>) -> FileResult {
    let code = results.iter().map(|r| r.code).max().unwrap_or(Exit::Ok);
    let text = results.iter().map(|r| r.text.as_str()).collect();
    let mut json = Vec::new();
    for r in results {
        match r.json {
            Some(Value::Array(parts)) => json.extend(parts),
            Some(v) => json.push(v),
            None => json.push(Value::Null),
        }
    }
    FileResult { code, text, json: Some(Value::Array(json)), stderr: String::new() }
}

/// `one` for the kernel chosen.
fn one_kernel(a: &Args, i: usize, n: usize) -> FileResult {
    // A kernel the program never launches has no launch to verify it under. (One the
    // command line names gets the error that says so: it asked for that kernel's verdict.)
    if let Some((kernel, why)) = input::never_launched(&a.files[i], &a.v.launch).filter(|_| a.v.launch.kernel.is_none()) {
        return done_part(not_launched(a, i, &kernel, &why));
    }
    // A kernel its host code launches several ways is verified under each launch.
    let contexts = input::host_contexts(&a.files[i], &a.v.launch);
    if contexts > 1 {
        return launches_in_parallel(contexts, || one_launch(a, i, n));
    }
    one_launch(a, i, n)
}

/// How many launch contexts of one kernel are verified at once (`--jobs` left over by the
/// files: all of them for one file).
static LAUNCH_JOBS: AtomicUsize = AtomicUsize::new(1);

/// `verify` under each of `m` launch contexts (`input::set_host_context`), merged in their
/// order: the first alone, with half the time left (`under_each`'s `first_half`), then the
/// others `LAUNCH_JOBS` at a time. Each thread takes the file's kernel, its parts answered,
/// what Houdini kept under the first (`DROPPED`) and its time: a context may use the time
/// left divided among the rounds of contexts still to verify, so that every one is answered
/// or inconclusive before the file's limit.
fn launches_in_parallel(m: usize, verify: impl Fn() -> FileResult + Sync) -> FileResult {
    let jobs = LAUNCH_JOBS.load(Ordering::Relaxed).clamp(1, m);
    if jobs == 1 {
        return under_each((0..m).collect(), input::set_host_context, true, verify);
    }
    // The first alone, with half the time: the others start from what Houdini kept under it.
    input::set_host_context(Some(0));
    let first = within(share_of(PART_END.get(), 2), &verify);
    input::set_host_context(None);
    let (kernel, parts, end) = (input::kernel_choice(), DONE_PARTS.with(|p| p.borrow().clone()), PART_END.get());
    let dropped = DROPPED.with(|d| d.borrow().clone());
    let next = AtomicUsize::new(1);
    let slots: Vec<Mutex<Option<FileResult>>> = std::iter::once(Mutex::new(Some(first))).chain((1..m).map(|_| Mutex::new(None))).collect();
    // The threads still taking contexts, and which thread is the first (it never stops).
    let (active, ids) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let work = || {
        active.fetch_add(1, Ordering::SeqCst);
        let me = ids.fetch_add(1, Ordering::SeqCst);
        input::set_kernel(kernel.clone());
        DONE_PARTS.with(|p| *p.borrow_mut() = parts.clone());
        DROPPED.with(|d| *d.borrow_mut() = dropped.clone());
        loop {
            // Past a third of the heap limit, one thread goes on alone: two launches that
            // each need much memory would reach the limit together (KNOWN_ISSUES).
            if me != 0 && limits::heap_fraction() > 1.0 / 3.0 {
                active.fetch_sub(1, Ordering::SeqCst);
                break;
            }
            let k = next.fetch_add(1, Ordering::SeqCst);
            if k >= m {
                break;
            }
            let running = active.load(Ordering::SeqCst).max(1);
            let share = share_of(end, (m - k).div_ceil(running));
            input::set_host_context(Some(k));
            let r = within(share, &verify);
            input::set_host_context(None);
            if let Ok(mut slot) = slots[k].lock() {
                *slot = Some(r);
            }
        }
    };
    std::thread::scope(|sc| {
        // As many threads as the system gives; this one waits.
        let spawned = (0..jobs).filter(|_| limits::spawn_scoped(sc, &work).is_some()).count();
        if spawned == 0 {
            work();
        }
    });
    // A context no thread answered (none could be spawned for it): verified here.
    let results = slots
        .into_iter()
        .enumerate()
        .map(|(k, slot)| {
            slot.into_inner().ok().flatten().unwrap_or_else(|| {
                input::set_host_context(Some(k));
                let r = within(end, &verify);
                input::set_host_context(None);
                r
            })
        })
        .collect();
    merged(results)
}

/// The report of a kernel a whole program never launches: not verified, and no failure of
/// the file's (the program as written makes no launch of it); `--json` verdict
/// `not_launched`.
fn not_launched(a: &Args, i: usize, kernel: &str, why: &str) -> FileResult {
    let file = a.files[i].display().to_string();
    let text = format!("{file} (kernel `{kernel}`): not launched: {why}; not verified (give `--kernel={kernel}` and a launch to check it on its own)\n");
    let json = json!({ "file": file, "kernel": kernel, "verdict": "not_launched", "reason": why, "defects": [] });
    FileResult { code: Exit::Ok, text, json: Some(json), stderr: String::new() }
}

/// `one` under one launch, kept among the file's parts answered (`DONE_PARTS`).
fn one_launch(a: &Args, i: usize, n: usize) -> FileResult {
    done_part(one_launch_alone(a, i, n))
}

/// Keep `r` among the current file's parts answered, and give it; and print it if the heap
/// limit ends the process (its JSON line, or its text, as the command prints).
fn done_part(r: FileResult) -> FileResult {
    DONE_PARTS.with(|p| {
        if let Some(parts) = p.borrow().as_ref() {
            if let Ok(mut v) = parts.lock() {
                v.push(r.clone());
            }
        }
    });
    match (&r.json, JSON_OUT.load(Ordering::Relaxed)) {
        (Some(j), true) => limits::on_out_of_memory_print_first(&format!("{j}\n")),
        (_, false) => limits::on_out_of_memory_print_first(&r.text),
        _ => {}
    }
    r
}

/// Whether this command prints JSON (`done_part`'s copy for the heap limit).
static JSON_OUT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn one_launch_alone(a: &Args, i: usize, n: usize) -> FileResult {
    let prefix = if n > 1 { format!("[{}/{n}] ", i + 1) } else { String::new() };
    input::take_errors();
    let how = Presentation { json: a.json, fail_on_confirmed: a.fail_on == "confirmed", gpuverify_text: a.gpuverify_text };
    let loaded = load_for(&a.files[i], &a.v, true);
    // The result cache (`result_cache.rs`): not for dumps, nor `--no-inline`'s checks of
    // functions on their own, which load more than this kernel.
    // `KPL_DEBUG` prints what a run does: a cached answer would not.
    let fresh = a.no_cache || !a.dump.is_empty() || a.v.no_inline || std::env::var_os("KPL_DEBUG").is_some();
    let cache = (!fresh).then(|| crate::result_cache::dir(a.cache_dir.as_deref())).flatten();
    let key = match (&cache, &loaded) {
        (Some(_), Ok(Loaded(src, c, launch, host_line, _))) => Some(crate::result_cache::key(&[
            &src.path,
            &src.text,
            &format!("{c:?}"),
            &format!("{launch:?} {host_line:?} {:?} {}", input::kernel_choice(), std::io::stderr().is_terminal()),
            &std::env::args().collect::<Vec<_>>().join("\u{0}"),
        ])),
        _ => None,
    };
    if let (Some(dir), Some(key)) = (&cache, &key) {
        if let Some(r) = crate::result_cache::get(dir, key) {
            eprint!("{}", r.stderr);
            return r;
        }
    }
    let an = match loaded.and_then(|l| analyse_loaded(&a.files[i], &a.v, false, true, prefix, l)) {
        Ok(x) => x,
        Err(code) => {
            // The JSON report of a file kpl could not read says why, as stderr did.
            let errors: Vec<Value> = input::take_errors()
                .into_iter()
                .map(|(message, at)| match at {
                    Some((line, col)) => json!({ "message": message, "line": line, "col": col }),
                    None => json!({ "message": message }),
                })
                .collect();
            let mut json = (code == Exit::BadInput).then(|| json!({ "file": a.files[i].display().to_string(), "verdict": "bad_input", "defects": [], "errors": errors }));
            // In a file of several kernels: which one.
            if let (Some(Value::Object(o)), Some(k)) = (&mut json, input::kernel_choice()) {
                o.insert("kernel".into(), Value::String(k));
            }
            return FileResult { code, text: String::new(), json, stderr: String::new() };
        }
    };
    if let Err(e) = dump(a, &an.src.path, &an.report) {
        eprintln!("error: {e}");
        return FileResult { code: Exit::BadInput, text: String::new(), json: None, stderr: String::new() };
    }
    let r = present(&an, how);
    eprint!("{}", r.stderr);
    if let (Some(dir), Some(key)) = (&cache, &key) {
        crate::result_cache::put(dir, key, &r);
    }
    r
}

/// The functions whose calls used only their contract, in the kernel or any check.
fn contract_calls(parts: &[&Analysed]) -> std::collections::BTreeSet<String> {
    parts.iter().flat_map(|p| p.checked.layouts.contract_calls.iter().cloned()).collect()
}

/// `` `f`, `g` ``.
fn names(set: &std::collections::BTreeSet<String>) -> String {
    set.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// The text and JSON reports of a verified file, and its exit code. Under `--no-inline`
/// the checks of device functions on their own are part of it: the file is verified only
/// if every one is.
pub fn present(an: &Analysed, how: Presentation) -> FileResult {
    let (json_out, fail_on_confirmed) = (how.json, how.fail_on_confirmed);
    let src = &an.src;
    let parts: Vec<&Analysed> = std::iter::once(an).chain(an.functions.iter().map(|(_, f)| f)).collect();
    let defects_in = parts.iter().find(|p| matches!(p.report.outcome, Outcome::Defects));
    let inconclusive = parts.iter().find_map(|p| match &p.report.outcome {
        Outcome::Inconclusive(why) => Some(why.clone()),
        _ => None,
    });
    let code = match (defects_in, &inconclusive) {
        (Some(_), _) => Exit::Defect,
        (None, Some(_)) => Exit::Inconclusive,
        (None, None) => Exit::Ok,
    };
    let verdict = match defects_in {
        Some(p) => verdict(&p.report, &p.confirmed),
        None => verdict(&an.report, &an.confirmed),
    };
    let verdict = if defects_in.is_none() && inconclusive.is_some() { "inconclusive" } else { verdict };
    // `--fail-on=confirmed`: defects of which the interpreter reproduced none.
    let possible_only = fail_on_confirmed && defects_in.is_some() && parts.iter().all(|p| p.confirmed.iter().all(|c| !c));
    let (code, kind, verdict) = if possible_only { (Exit::Possible, Some(verdict), "possible") } else { (code, None, verdict) };
    let mut diags = Vec::new();
    let mut defects = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        let (report, launch) = (&p.report, p.launch);
        let dims = launch.dims_used();
        let fixed = fixed_params(&p.checked.kernel);
        for ((f, ok), cut) in report.findings.iter().zip(&p.confirmed).zip(&p.replay_cut) {
            let mut d = diagnostic(report, f.label, &f.witness, (*ok, *cut), dims, launch, &p.checked.layouts);
            if let Some(h) = wide_params_help(&f.witness, &fixed) {
                d = d.with_help(h);
            }
            if let Some(h) = wide_grid_help(&f.witness, launch) {
                d = d.with_help(h);
            }
            if !*ok && p.opts.benign && copied_write_write(report, f.label) {
                d = d.with_help(
                    "if both threads write a value read from memory, `--equality-abstraction` tracks what they read and can tell a benign race (equal values) apart",
                );
            }
            if !*ok && !p.checked.layouts.contract_calls.is_empty() {
                d = d.with_help(format!(
                    "calls of {} use only the contract (--no-inline); the interpreter runs the bodies: a contract weaker than the body gives reports it does not reproduce",
                    names(&p.checked.layouts.contract_calls)
                ));
            }
            if i > 0 {
                let name = &an.functions[i - 1].0;
                d = d.with_help(format!(
                    "found checking `{name}` on its own (--no-inline): every thread calls it with arbitrary arguments of its own that satisfy its `__requires`"
                ));
            }
            diags.push(d);
            defects.push(defect_json(&src.text, report, f.label, &f.witness, *ok, launch));
        }
    }
    progress::clear();
    let mut stderr = String::new();
    if !json_out {
        stderr.push_str(&input::report_text(src, &diags));
        // GPUVerify's wording too, where asked for or where the file is in its test format.
        let gpuverify = how.gpuverify_text || crate::options::gpuverify_test_format(&src.text);
        if let Some(dialect) = gpuverify_dialect(&src.path).filter(|_| gpuverify) {
            for p in &parts {
                for f in &p.report.findings {
                    let l = &p.report.program.labels[f.label];
                    // GPUVerify has no warp collectives, so no report of their divergence.
                    if l.kind == LabelKind::Divergence && l.what.starts_with("warp ") {
                        continue;
                    }
                    stderr.push_str(&gpuverify_text::defect(&src.path, &src.text, &l.kind, l.span, &f.witness, p.launch, dialect, &p.checked.layouts));
                    stderr.push_str(&gpuverify_text::parameters(&p.checked.kernel, &f.witness));
                }
            }
        }
    }
    let report = &an.report;
    let st = &report.stats;
    // A launch read from the host code is named in the summary.
    // So is the kernel, in a file of several that `verify` goes through.
    let launch = an.host_line.map(|line| format!("launch at line {line}: grid {}, block {}", crate::host_launch::grid_text(&an.launch), crate::host_launch::dims(an.launch.threads)));
    let shown = match (input::kernel_choice(), launch) {
        (Some(k), Some(l)) => format!("{} (kernel `{k}`, {l})", src.path),
        (Some(k), None) => format!("{} (kernel `{k}`)", src.path),
        (None, Some(l)) => format!("{} ({l})", src.path),
        (None, None) => src.path.clone(),
    };
    let src_path = &shown;
    let time_ms: u128 = parts.iter().map(|p| p.report.stats.time_ms).sum();
    let secs = time_ms as f64 / 1000.0;
    let checked_alone = match an.functions.len() {
        0 => String::new(),
        n => format!("; {n} device function{} also checked on {} own (--no-inline)", if n == 1 { "" } else { "s" }, if n == 1 { "its" } else { "their" }),
    };
    let contracts = contract_calls(&parts);
    let checked_alone = match contracts.len() {
        0 => checked_alone,
        _ => format!("{checked_alone}, calls of {} using only the contract", names(&contracts)),
    };
    let text = match (defects_in, &inconclusive) {
        (None, None) => {
            let only = if an.opts.only_divergence {
                "; races not checked (--only-divergence)".to_string()
            } else {
                an.opts.check_arrays.as_ref().map(|a| format!("; races checked only on {}", a.join(", "))).unwrap_or_default()
            };
            let vacuous = if parts.iter().any(|p| p.vacuous) {
                "; vacuously: its preconditions never hold together for two threads of this launch, so nothing was checked"
            } else {
                ""
            };
            let mut no_wrap: Vec<&str> = parts.iter().flat_map(|p| p.no_wrap.iter().map(String::as_str)).collect();
            no_wrap.sort();
            no_wrap.dedup();
            let no_wrap = match no_wrap.as_slice() {
                [] => String::new(),
                arrays => format!(
                    "; assuming, as GPUVerify does, that the atomic additions to {} never wrap around (kpl cannot bound their number from the launch)",
                    arrays.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
                ),
            };
            format!("{}: verified ({secs:.2} s, {} invariants inferred{only}{checked_alone}{no_wrap}{vacuous})\n", src_path, st.invariants_kept)
        }
        (Some(_), _) => {
            let n: usize = parts.iter().map(|p| p.report.findings.len()).sum();
            let c: usize = parts.iter().map(|p| p.confirmed.iter().filter(|x| **x).count()).sum();
            let shown = match kind {
                Some(k) => format!("possible {k}"),
                None => verdict.to_string(),
            };
            let mut t = format!("{}: {shown}: {n} defect{} ({c} confirmed by the interpreter) ({secs:.2} s)\n", src_path, if n == 1 { "" } else { "s" });
            for p in &parts {
                if let Some(why) = &p.report.unknown {
                    t.push_str(&format!("{}: the search for more defects stopped: {why}\n", src_path));
                }
            }
            t
        }
        (None, Some(why)) => format!("{}: inconclusive: {why} ({secs:.2} s)\n", src_path),
    };
    let json = json!({
        "file": src.path,
        "verdict": verdict,
        "defects": defects,
        "abstractions": report.program.arrays.iter().map(|x| (x.name.clone(), json!(format!("{:?}", x.abstraction).to_lowercase()))).collect::<serde_json::Map<_, _>>(),
        "reason": match &inconclusive { Some(w) if defects_in.is_none() => json!(w), _ => Value::Null },
        "vacuous": parts.iter().any(|p| p.vacuous),
        "assumed_no_wrap": parts.iter().flat_map(|p| p.no_wrap.clone()).collect::<std::collections::BTreeSet<_>>(),
        "functions_checked_alone": an.functions.iter().map(|(name, f)| json!({
            "function": name,
            "verdict": verdict_of(f),
        })).collect::<Vec<_>>(),
        "contract_calls": contract_calls(&parts),
        "stats": {
            "time_ms": time_ms, "vcs": st.vcs, "solver_calls": st.solver_calls,
            "houdini_rounds": st.houdini_rounds, "candidates": st.candidates, "candidates_refuted": st.candidates_refuted,
            "invariants_kept": st.invariants_kept, "vc_nodes_before": st.vc_nodes_before, "vc_nodes_after": st.vc_nodes_after,
            "simplify_ms": st.simplify_ms, "solver_ms": st.solver_ms, "solver_ms_unsimplified": st.solver_ms_unsimplified,
        },
    });
    let mut json = json;
    // Verdict `possible`: which kind of defect, as the verdict would have said.
    if let Some(k) = kind {
        json["kind"] = json!(k);
    }
    if let Some(line) = an.host_line {
        // The kernel's parameters the launch fixes, and those that stay free.
        let params = &an.checked.launch_params;
        let fixed: serde_json::Map<String, Value> = params.iter().filter_map(|(n, v)| v.map(|v| (n.clone(), json!(v)))).collect();
        let mut free: Vec<String> = params.iter().filter(|(_, v)| v.is_none()).map(|(n, _)| n.clone()).collect();
        // A grid computed at run time: its free sizes are `null`, and listed as free.
        let l = an.launch;
        let grid: Vec<Value> = (0..3).map(|a| if l.free_groups[a] { Value::Null } else { json!(l.groups[a]) }).collect();
        free.extend((0..3).filter(|&a| l.free_groups[a]).map(|a| format!("gridDim.{}", ["x", "y", "z"][a])));
        json["launch"] = json!({ "grid": grid, "block": an.launch.threads, "shared_bytes": an.host_shared_bytes, "line": line, "from": "host code", "fixed": fixed, "free": free });
    }
    json["kernel"] = json!(input::kernel_choice().unwrap_or_else(|| an.checked.kernel.name.name.clone()));
    FileResult { code, text, json: Some(json), stderr }
}

fn verdict_of(a: &Analysed) -> &'static str {
    verdict(&a.report, &a.confirmed)
}

/// For `.cu` and `.cl` files, defects can also be printed as GPUVerify prints them.
fn gpuverify_dialect(path: &str) -> Option<gpuverify_text::Dialect> {
    match crate::input::kind_of(std::path::Path::new(path)).as_str() {
        "cu" => Some(gpuverify_text::Dialect::Cuda),
        "cl" => Some(gpuverify_text::Dialect::OpenCl),
        _ => None,
    }
}

/// The verdict: the first kind found, in the order out_of_bounds, race, divergence,
/// assertion, among the defects the interpreter confirmed if there are any, else among all.
fn verdict(r: &Report, confirmed: &[bool]) -> &'static str {
    match &r.outcome {
        Outcome::Verified => "verified",
        Outcome::Inconclusive(_) => "inconclusive",
        Outcome::Defects => {
            let any_confirmed = confirmed.iter().any(|c| *c);
            let kinds: Vec<&str> = r
                .findings
                .iter()
                .zip(confirmed)
                .filter(|(_, c)| **c || !any_confirmed)
                .map(|(f, _)| kind(&r.program.labels[f.label].kind))
                .collect();
            ["out_of_bounds", "race", "divergence", "assertion"].into_iter().find(|k| kinds.contains(k)).unwrap_or("assertion")
        }
    }
}

fn kind(k: &LabelKind) -> &'static str {
    match k {
        LabelKind::Race { .. } => "race",
        LabelKind::Divergence => "divergence",
        LabelKind::OutOfBounds { .. } => "out_of_bounds",
        _ => "assertion",
    }
}

fn span(s: (usize, usize)) -> Span {
    Span::new(s.0, s.1)
}

fn ids_text(t: &Ids, n: usize) -> String {
    render::thread_text(&kpl_semantics::report::ThreadId { group: t.group, local: t.local }, n)
}

fn ids_json(t: &Ids) -> Value {
    json!({ "group": t.group, "local": t.local })
}

/// Is this a write-write race while some array's reads are arbitrary (the adversarial
/// abstraction), so that two writes of one value read from memory look different?
fn copied_write_write(r: &Report, label: usize) -> bool {
    let ww = matches!(&r.program.labels[label].kind, LabelKind::Race { second, logged, .. } if race_kind(*second, *logged) == "write-write");
    ww && r.program.arrays.iter().any(|a| a.abstraction == kpl_reduction::seq::Abstraction::Adversarial)
}

/// CLI.md's race kinds: an atomic counts as a write (atomics never race each other).
fn race_kind(second: AccessKind, logged: AccessKind) -> &'static str {
    if second.writes() && logged.writes() {
        "write-write"
    } else {
        "read-write"
    }
}

/// The parameters a top-level `requires p == c` fixes (`--kernel-args`, a launch read
/// from host code): their witness values are the program's, not a solver's choice.
fn fixed_params(k: &kpl_lang::ast::Kernel) -> Vec<String> {
    use kpl_lang::ast::{BinOp, DeclKind, ExprKind};
    k.decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Requires(e) => match &e.kind {
                ExprKind::Binary(BinOp::Eq, a, b) => match (&a.kind, &b.kind) {
                    (ExprKind::Var(p), ExprKind::Num(_)) | (ExprKind::Num(_), ExprKind::Var(p)) => Some(p.name.clone()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Where the witness gives a free parameter a value of 2^31 or more, 32-bit arithmetic on
/// it may wrap around: a value the program may never pass. Says so, and how to bound it.
fn wide_params_help(w: &Witness, fixed: &[String]) -> Option<String> {
    // (A pointer's null flag, `p_is_null`, is a truth value: no arithmetic wraps it.)
    let wide: Vec<String> = w.params.iter().filter(|(k, v)| **v >= 1 << 31 && !fixed.contains(k) && !k.ends_with("_is_null")).map(|(k, v)| format!("`{k}` = {v}")).collect();
    (!wide.is_empty()).then(|| {
        format!(
            "the witness gives {} (2^31 or more), where 32-bit arithmetic may wrap around; if the program never passes such values, bound them (`__requires` in the kernel, `--kernel-args`, or a launch kpl reads from the host code)",
            wide.join(", ")
        )
    })
}

/// Where the witness's grid, which the host code computes at run time, makes 2^31 threads
/// or more: a thread's global id (`blockIdx.x * blockDim.x + threadIdx.x`) no longer fits
/// an `int` there, and past 2^32 wraps around in 32 bits. Says so, and how to bound the
/// grid if the program never launches one that large.
fn wide_grid_help(w: &Witness, launch: Launch) -> Option<String> {
    let fixed = w.grid.map(|_| w.launch(&launch))?;
    (fixed.total_threads() >= 1 << 31).then(|| {
        format!(
            "the witness's grid of {} groups makes {} threads, 2^31 or more, where a thread's global id no longer fits an `int` (and past 2^32 wraps around in 32 bits); if the program never launches a grid that large, bound it (`__requires(gridDim.x <= N)` in the kernel, or `--gridDim=`)",
            fixed.num_groups(),
            fixed.total_threads()
        )
    })
}

fn witness_text(w: &Witness, dims: usize, launch: Launch) -> String {
    let mut parts = vec![format!("{} and {}", ids_text(&w.threads[0], dims), ids_text(&w.threads[1], dims))];
    // A grid the host code computes at run time: the one the witness runs under (the
    // launch's size on its fixed axes).
    if w.grid.is_some() {
        let g = crate::host_launch::dims(w.launch(&launch).groups);
        parts.push(format!("grid {g} (`--gridDim={g}` to replay it)"));
    }
    if !w.params.is_empty() {
        parts.push(format!("params {}", w.params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")));
    }
    if let Some(gs) = &w.groups {
        let list = gs.iter().map(|g| g.to_string()).collect::<Vec<_>>().join(",");
        parts.push(format!("replayed with only group{} {list} started, the others after (`kpl run --groups {list}`)", if gs.len() == 1 { "" } else { "s" }));
    }
    format!("witness: {}", parts.join("; "))
}

/// `(confirmed, cut)`: whether the interpreter reproduced it, else whether its replay
/// stopped at the step budget.
fn diagnostic(r: &Report, label: usize, w: &Witness, (confirmed, cut): (bool, bool), dims: usize, launch: Launch, layouts: &render::Layouts) -> Diagnostic {
    let l = &r.program.labels[label];
    let status = if confirmed { "confirmed" } else { "possible" };
    let note = if confirmed {
        "the interpreter reproduced it from the witness inputs: the element, threads and accesses shown are what it observed".to_string()
    } else if cut {
        format!("the interpreter's replay of the witness stopped at its budget of {REPLAY_STEPS} thread-statements, before the defect or the kernel's end: neither shown nor ruled out")
    } else {
        "the interpreter did not reproduce it from the witness inputs: it may come from the abstraction or from loop invariants that are too weak".to_string()
    };
    let d = match &l.kind {
        LabelKind::Race { array, second, logged, .. } => {
            let scope = if w.same_group { "intra-group" } else { "inter-group" };
            let at = match w.index {
                Some(i) => layouts.element_text(array, i as u64),
                None => layouts.names.get(array).cloned().unwrap_or_else(|| array.clone()),
            };
            let mut d = Diagnostic::error(
                format!("{status} {} race on {at} ({scope})", race_kind(*second, *logged)),
                span(l.span),
            )
            .with_label(format!("{} by {}", second.name(), ids_text(&w.threads[1], dims)));
            if let Some(s) = w.logged {
                d = d.with_secondary(span(s), format!("{} by {}", logged.name(), ids_text(&w.threads[0], dims)));
            }
            if *second == AccessKind::Atomic && *logged == AccessKind::Atomic {
                d = d.with_help(render::SCOPED_RACE_HELP);
            }
            d
        }
        LabelKind::Divergence if l.what.starts_with("warp mask ") => Diagnostic::error(format!("{status} warp divergence"), span(l.span))
            .with_label(format!(
                "{} and {}, one warp, run it with different masks (one naming the other)",
                ids_text(&w.threads[0], dims),
                ids_text(&w.threads[1], dims)
            )),
        LabelKind::Divergence if l.what.starts_with("warp ") => Diagnostic::error(format!("{status} warp divergence"), span(l.span))
            .with_label(format!(
                "{} and {}, one warp: one runs it while the other, which its mask names, does not",
                ids_text(&w.threads[0], dims),
                ids_text(&w.threads[1], dims)
            )),
        LabelKind::Divergence => Diagnostic::error(format!("{status} barrier divergence"), span(l.span)).with_label(format!(
            "reached by {} and {} under different predicates",
            ids_text(&w.threads[0], dims),
            ids_text(&w.threads[1], dims)
        )),
        LabelKind::Assertion if layouts.constant_writes.contains(&span(l.span)) => {
            Diagnostic::error(format!("{status} attempt to modify constant memory"), span(l.span))
                .with_label(format!("by {}", ids_text(&w.threads[0], dims)))
        }
        LabelKind::Assertion if layouts.null_checks.contains_key(&span(l.span)) => {
            let p = layouts.null_checks.get(&span(l.span)).cloned().unwrap_or_default();
            Diagnostic::error(format!("{status} null pointer access: {p} may be NULL here"), span(l.span))
                .with_label(format!("by {}", ids_text(&w.threads[0], dims)))
        }
        LabelKind::Assertion | LabelKind::BarrierInvariant(_) => {
            let d = Diagnostic::error(format!("{status} assertion failure: {}", l.what), span(l.span))
                .with_label(format!("false in {}", ids_text(&w.threads[0], dims)));
            // A function's precondition, checked at its only call: point at the call too.
            match layouts.preconditions.get(&span(l.span)).map(|c| c.as_slice()) {
                Some([call]) => d.with_secondary(*call, "the precondition of this call"),
                _ => d,
            }
        }
        LabelKind::Invariant { entry } => Diagnostic::error(
            format!(
                "{status} assertion failure: loop invariant {}",
                if *entry { "does not hold on entry" } else { "is not maintained by the loop" }
            ),
            span(l.span),
        )
        .with_label(l.what.clone()),
        // A thread's private array: an access outside the thread's own region of it.
        LabelKind::OutOfBounds { array, size } if layouts.private.contains_key(array) => {
            let shown = layouts.names.get(array).cloned().unwrap_or_else(|| array.clone());
            // The thread's own element: its region starts at its linear id times the size.
            let idx = w
                .index
                .map(|i| {
                    let own = i as i64 - (w.threads[0].linear(&launch) * *size as u64) as i64;
                    let base = shown.split(" (").next().unwrap_or(&shown);
                    let past = if own < 0 { "before" } else { "past" };
                    format!(": {base}[{own}], {past} a thread's {size} elements (word {i} of the threads' storage)")
                })
                .unwrap_or_default();
            Diagnostic::error(format!("{status} out-of-bounds {} of the per-thread array {shown}{idx}", l.what.split(' ').next().unwrap_or("access")), span(l.span))
                .with_label(format!("by {}", ids_text(&w.threads[0], dims)))
        }
        LabelKind::OutOfBounds { array, size } => {
            let idx = w.index.map(|i| format!("[{i}]")).unwrap_or_default();
            Diagnostic::error(format!("{status} out-of-bounds {} {array}{idx} (size {size})", l.what.split(' ').next().unwrap_or("access")), span(l.span))
                .with_label(format!("by {}", ids_text(&w.threads[0], dims)))
        }
        LabelKind::Candidate { .. } => Diagnostic::error("candidate invariant", span(l.span)),
        // `verify` makes no performance checks (`kpl perf --all-inputs` does).
        LabelKind::Perf { check, .. } => Diagnostic::error(format!("{status} {}", check.name()), span(l.span)),
    };
    d.with_help(note).with_help(witness_text(w, dims, launch))
}

pub(crate) fn witness_json(w: &Witness, launch: Launch, shared: &dyn Fn(&str) -> bool) -> Value {
    let mut v = render::inputs_json(&w.params, &w.arrays, w.launch(&launch), shared);
    if let Some(gs) = &w.groups {
        v["groups"] = json!(gs);
    }
    if w.grid.is_some() {
        v["grid"] = json!(w.launch(&launch).groups);
    }
    v
}

fn defect_json(src: &str, r: &Report, label: usize, w: &Witness, confirmed: bool, launch: Launch) -> Value {
    let l = &r.program.labels[label];
    let (line, col) = line_col(src, l.span.0);
    let pos = |s: (usize, usize)| {
        let (a, b) = line_col(src, s.0);
        (a, b)
    };
    let shared = |name: &str| r.program.arrays.iter().any(|a| a.name == name && a.shared);
    let mut v = match &l.kind {
        LabelKind::Race { array, second, logged, .. } => {
            let mut accesses = Vec::new();
            if let Some(s) = w.logged {
                let (ll, lc) = pos(s);
                let mut a = json!({ "thread": ids_json(&w.threads[0]), "op": logged.name(), "line": ll, "col": lc });
                render::add_file(&mut a, src, s.0);
                render::add_end(&mut a, src, s.1);
                accesses.push(a);
            }
            let mut a = json!({ "thread": ids_json(&w.threads[1]), "op": second.name(), "line": line, "col": col });
            render::add_file(&mut a, src, l.span.0);
            render::add_end(&mut a, src, l.span.1);
            accesses.push(a);
            json!({ "kind": "race", "race": race_kind(*second, *logged),
                    "scope": if w.same_group { "intra-group" } else { "inter-group" },
                    "array": array, "index": w.index, "accesses": accesses })
        }
        LabelKind::Divergence => json!({ "kind": "divergence", "line": line, "col": col,
            "threads": [ids_json(&w.threads[0]), ids_json(&w.threads[1])] }),
        LabelKind::Assertion => json!({ "kind": "assertion", "line": line, "col": col, "thread": ids_json(&w.threads[0]), "what": l.what }),
        LabelKind::BarrierInvariant(c) => json!({ "kind": "assertion", "line": line, "col": col, "thread": ids_json(&w.threads[0]), "what": l.what,
            "barrier_invariant": c.name() }),
        LabelKind::Invariant { entry } => json!({ "kind": "assertion", "line": line, "col": col, "invariant": true,
            "fails": if *entry { "on entry" } else { "not maintained" }, "what": l.what, "thread": ids_json(&w.threads[0]) }),
        LabelKind::OutOfBounds { array, size } => json!({ "kind": "out_of_bounds", "array": array, "index": w.index, "size": size,
            "accesses": [ { "thread": ids_json(&w.threads[0]), "op": l.what.split(' ').next().unwrap_or("access"), "line": line, "col": col } ] }),
        LabelKind::Candidate { .. } => json!({ "kind": "assertion" }),
        LabelKind::Perf { check, .. } => json!({ "kind": check.name(), "line": line, "col": col }),
    };
    if v.get("line").is_some() {
        render::add_file(&mut v, src, l.span.0);
        render::add_end(&mut v, src, l.span.1);
    }
    if let Some(Value::Object(a)) = v.get_mut("accesses").and_then(|a| a.get_mut(0)).filter(|_| matches!(l.kind, LabelKind::OutOfBounds { .. })) {
        let (el, ec) = line_col(src, l.span.1);
        a.insert("end_line".into(), json!(el));
        a.insert("end_col".into(), json!(ec));
    }
    v["confirmed"] = json!(confirmed);
    v["witness"] = witness_json(w, launch, &shared);
    v
}

/// `--dump`: the sequential program, the VCs and an SMT-LIB script replayable with `z3`.
fn dump(a: &Args, path: &str, r: &Report) -> Result<(), String> {
    if a.dump.is_empty() {
        return Ok(());
    }
    let stem = std::path::Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("kernel");
    std::fs::create_dir_all(&a.dump_dir).map_err(|e| format!("cannot create `{}`: {e}", a.dump_dir.display()))?;
    let write = |ext: &str, text: String| {
        let p = a.dump_dir.join(format!("{stem}.{ext}"));
        std::fs::write(&p, text).map_err(|e| format!("cannot write `{}`: {e}", p.display()))
    };
    let enc = &r.encoding;
    let t = &enc.terms;
    if a.dump.iter().any(|d| d == "seq") {
        write("seq", r.program.to_string())?;
    }
    if a.dump.iter().any(|d| d == "vc") {
        let mut s = String::new();
        for (sym, v) in &enc.defs {
            s.push_str(&format!("(define {} {})\n", t.show(*sym), t.show(*v)));
        }
        for (i, c) in enc.candidate_fails.iter().enumerate() {
            let cand = &r.program.candidates[i];
            let kept = r.kept.get(i).copied().unwrap_or(false);
            for f in c {
                s.push_str(&format!("(candidate {i} {} \"{}\" {})\n", if kept { "kept" } else { "dropped" }, cand.rule, t.show(*f)));
            }
        }
        for (l, c) in enc.checks.iter().enumerate() {
            if let Some(c) = c {
                let lab = &r.program.labels[l];
                s.push_str(&format!("(check {l} \"{:?}: {}\" {})\n", lab.kind, lab.what, t.show(c.fail)));
            }
        }
        write("vc", s)?;
    }
    if a.dump.iter().any(|d| d == "smt") {
        let mut assumptions = Vec::new();
        let mut terms = t.clone();
        for (i, g) in enc.guards.iter().enumerate() {
            let on = r.kept.get(i).copied().unwrap_or(false);
            assumptions.push(if on { *g } else { terms.not(*g) });
        }
        let goals: Vec<(String, kpl_certify::Id)> = enc
            .checks
            .iter()
            .enumerate()
            .filter_map(|(l, c)| c.as_ref().map(|c| (format!("label {l}: {} (sat = it can fail)", r.program.labels[l].what), c.fail)))
            .collect();
        write("smt2", kpl_certify::vc_to_smt::script(&terms, &enc.defs, &assumptions, &goals))?;
    }
    Ok(())
}

