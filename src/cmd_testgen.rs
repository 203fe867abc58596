//! `kpl testgen`: GKLEE's test generation: explore a kernel's paths over symbolic params and
//! array contents (launch concrete), keep a small set of tests with GKLEE's reductions and
//! test selection, replay each in the interpreter, and report the coverage measures.

use crate::exit::Exit;
use crate::options::{CheckArgs, LaunchArgs};
use crate::{input, limits, progress, render};
use kpl_semantics::report::Outcome;
use kpl_semantics::sdv;
use kpl_testgen::concolic::End;
use kpl_testgen::explore::{Coverage, Reduction, Test};
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel file.
    file: PathBuf,
    /// GKLEE's reduction: `tb` (Red_TB: per thread), `bi` (Red_BI: per barrier interval)
    /// or `none` (every feasible path).
    #[arg(long, default_value = "tb", value_parser = parse_reduction)]
    reduction: Reduction,
    /// Write at most this many tests (the selected ones first, then failing ones).
    #[arg(long = "max-tests", value_name = "N", default_value_t = 100)]
    max_tests: usize,
    /// Explore at most this many distinct paths.
    #[arg(long = "max-paths", value_name = "N", default_value_t = 1000)]
    max_paths: usize,
    /// Stop exploring after this many seconds (the result says it is partial).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Write the tests (DIR/test_N.json, `kpl run --input` format) and DIR/report.json.
    #[arg(long, value_name = "DIR")]
    json: Option<PathBuf>,
    /// The seed of the first input and of every element no path constraint fixes.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Interpreter steps per run.
    #[arg(long = "max-steps", default_value_t = 2_000_000)]
    max_steps: u64,
    #[command(flatten)]
    launch: LaunchArgs,
    #[command(flatten)]
    check: CheckArgs,
}

fn parse_reduction(s: &str) -> Result<Reduction, String> {
    match s.to_ascii_lowercase().as_str() {
        "tb" | "red_tb" | "threads" => Ok(Reduction::Threads),
        "bi" | "red_bi" | "intervals" => Ok(Reduction::Intervals),
        "none" => Ok(Reduction::None),
        _ => Err(format!("unknown reduction `{s}` (tb, bi or none)")),
    }
}

/// The most threads a concolic run handles (each thread's values carry terms).
const MAX_THREADS: u64 = 1 << 12;
// (Kept in step with KNOWN_ISSUES.md.)

pub fn run(a: Args) -> Exit {
    if let Some(t) = a.timeout {
        if !(t > 0.0 && t <= 1e9) {
            eprintln!("error: `--timeout` must be a number of seconds above 0 and at most 1e9");
            return Exit::BadInput;
        }
    }
    if let Some(dir) = &a.json {
        if let Err(e) = input::check_output_dir(dir) {
            return e;
        }
    }
    input::set_warp_sync(a.check.warp_sync);
    let (src, c, launch) = match input::load(&a.file, &a.launch, true) {
        Ok(x) => x,
        Err(e) => return e,
    };
    if launch.total_threads() > MAX_THREADS {
        eprintln!("error: the launch has {} threads; test generation runs at most {MAX_THREADS}", launch.total_threads());
        return Exit::BadInput;
    }
    let prog = kpl_semantics::compile(&c.core, launch);
    if let Some(span) = two_thread_assertion(&prog) {
        let d = kpl_lang::Diagnostic::error("test generation does not check two-thread assertions (`other`, `enabled`)", span)
            .with_help("`kpl run` and `kpl verify` check them");
        input::report(&src, &[d]);
        return Exit::BadInput;
    }
    if let Some(span) = prog.first_snapshot() {
        let d = kpl_lang::Diagnostic::error("test generation does not model ghost arrays (`snapshot`) yet", span)
            .with_help("`kpl run` and `kpl verify` do");
        input::report(&src, &[d]);
        return Exit::BadInput;
    }
    if let Some(span) = prog.first_warp_collective() {
        let d = kpl_lang::Diagnostic::error("test generation does not model warp collectives (shuffles, votes) yet", span)
            .with_help("`kpl run` and `kpl verify` do");
        input::report(&src, &[d]);
        return Exit::BadInput;
    }
    let name = src.path.clone();
    let show = move |paths: usize, tests: usize, queued: usize| {
        progress::show(&format!("{name}: {paths} paths, {tests} tests kept, {queued} inputs queued"));
    };
    let opts = kpl_testgen::Options {
        reduction: a.reduction,
        max_paths: a.max_paths.max(1),
        max_steps: a.max_steps,
        timeout: a.timeout.map(Duration::from_secs_f64),
        query_timeout: Duration::from_secs(10),
        seed: a.seed,
        deadline: None,
    };
    // The exploration checks its own time; the watchdog is the backstop.
    let watchdog = a.timeout.map(|t| {
        let path = src.path.clone();
        limits::Watchdog::start(Duration::from_secs_f64(t) + limits::GRACE, move || {
            progress::clear();
            println!("{path}: the time limit of {t} s ran out (--timeout) in the middle of a run; no tests written");
        })
    });
    let r = kpl_testgen::explore(&prog, &opts, &show);
    if let Some(w) = &watchdog {
        w.finish();
    }
    progress::clear();

    // Replay every kept test in the interpreter: its outcome is what the test shows.
    let ro = a.check.run_options(&a.file, a.max_steps.saturating_mul(4));
    let outcomes: Vec<Outcome> = r.tests.iter().map(|t| sdv::run(&prog, t.inputs(a.seed), &ro).outcome).collect();
    // Written: the selected tests, then every other test whose replay found a defect.
    let mut written: Vec<usize> = r.selected.clone();
    for (i, o) in outcomes.iter().enumerate() {
        if matches!(o, Outcome::Defect(_)) && !written.contains(&i) {
            written.push(i);
        }
    }
    written.truncate(a.max_tests);
    if let Some(d) = &a.json {
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("error: cannot create `{}`: {e}", d.display());
            return Exit::BadInput;
        }
    }
    let dims = launch.dims_used();
    let shared = |n: &str| prog.arrays.iter().any(|x| x.name == n && x.kind == kpl_semantics::ir::ArrayKind::Shared);
    let mut files = Vec::new();
    let mut defects = 0;
    // Each distinct defect (kind and place) is shown once, with the first test showing it.
    let mut shown: Vec<(String, kpl_lang::Span, usize)> = Vec::new();
    let mut diags = Vec::new();
    for (k, &i) in written.iter().enumerate() {
        let t = &r.tests[i];
        let file = a.json.as_ref().map(|d| d.join(format!("test_{}.json", k + 1)));
        if let Some(f) = &file {
            let text = serde_json::to_string_pretty(&render::inputs_json(&t.params, &t.arrays(), launch, &shared)).unwrap_or_default();
            if let Err(e) = std::fs::write(f, text + "\n") {
                eprintln!("error: cannot write `{}`: {e}", f.display());
                return Exit::BadInput;
            }
        }
        let label = file.as_ref().map(|f| f.display().to_string()).unwrap_or_else(|| format!("test {}", k + 1));
        if let Outcome::Defect(d) = &outcomes[i] {
            defects += 1;
            let mut diag = render::defect_diagnostic(d, dims, &Default::default());
            match shown.iter_mut().find(|(m, sp, _)| *m == diag.message && *sp == diag.span) {
                Some(seen) => seen.2 += 1,
                None => {
                    shown.push((diag.message.clone(), diag.span, 1));
                    diag.help.push(format!("found by test generation: {label} ({})", inputs_text(t)));
                    diags.push(diag);
                }
            }
        }
        files.push(json!({ "file": file.map(|f| f.display().to_string()), "outcome": outcomes[i].name(),
                           "params": t.params, "intervals": t.intervals }));
    }
    for (d, (_, _, n)) in diags.iter_mut().zip(&shown) {
        if *n > 1 {
            d.help.push(format!("{} more tests show it", n - 1));
        }
    }
    input::report(&src, &diags);
    let cov = |c: &Coverage| {
        json!({ "source": [c.source.0, c.source.1], "avg_cov_t": [c.avg_thread.0, c.avg_thread.1],
                "max_cov_t": [c.max_thread.0, c.max_thread.1], "avg_covbi_t": [c.avg_interval.0, c.avg_interval.1],
                "max_covbi_t": [c.max_interval.0, c.max_interval.1] })
    };
    let report = json!({
        "file": src.path, "reduction": a.reduction.name(), "paths": r.paths, "runs": r.runs,
        "kept": r.tests.len(), "selected": r.selected.len(), "written": written.len(),
        "targets": { "statements": r.targets.0, "branches": r.targets.1 },
        "coverage": cov(&r.coverage), "selected_coverage": cov(&r.selected_coverage),
        "complete": r.stopped.is_none(), "stopped": r.stopped, "unknown_queries": r.unknown,
        "solver_calls": r.solver_calls, "solver_ms": r.solver_time.as_millis() as u64,
        "defects": defects, "tests": files,
    });
    if let Some(d) = &a.json {
        let text = serde_json::to_string_pretty(&report).unwrap_or_default();
        if let Err(e) = std::fs::write(d.join("report.json"), text + "\n") {
            eprintln!("error: cannot write `{}`: {e}", d.join("report.json").display());
            return Exit::BadInput;
        }
    }
    let pc = |x: (f64, f64)| format!("{:.0}%/{:.0}%", 100.0 * x.0, 100.0 * x.1);
    println!(
        "{}: {} paths explored ({}: {} kept), {} test{} selected{}",
        src.path,
        r.paths,
        a.reduction.name(),
        r.tests.len(),
        r.selected.len(),
        if r.selected.len() == 1 { "" } else { "s" },
        a.json.as_ref().map(|d| format!(", {} written to {}", written.len(), d.display())).unwrap_or_default()
    );
    println!(
        "{}: coverage (statements/branches of {}/{}): source {}, avg Cov^t {}, avg CovBI^t {}; selected tests: avg Cov^t {}, avg CovBI^t {}",
        src.path,
        r.targets.0,
        r.targets.1,
        pc(r.coverage.source),
        pc(r.coverage.avg_thread),
        pc(r.coverage.avg_interval),
        pc(r.selected_coverage.avg_thread),
        pc(r.selected_coverage.avg_interval)
    );
    if let Some(why) = &r.stopped {
        println!("{}: partial: {why}", src.path);
    }
    if r.unknown > 0 {
        println!("{}: {} solver questions went unanswered (paths not explored)", src.path, r.unknown);
    }
    let failing = r.tests.iter().filter(|t| matches!(t.end, End::Failed { .. } | End::Divergence { .. })).count();
    if defects > 0 {
        println!("{}: {defects} test{} a defect (replayed in the interpreter)", src.path, if defects == 1 { " shows" } else { "s show" });
        Exit::Defect
    } else {
        if failing > 0 {
            println!("{}: {failing} path{} failed in exploration but not in the interpreter's replay", src.path, if failing == 1 { "" } else { "s" });
        }
        Exit::Ok
    }
}

/// The first assertion or invariant that speaks of two threads (or of disabled ones), if any.
fn two_thread_assertion(p: &kpl_semantics::Program) -> Option<kpl_lang::Span> {
    use kpl_semantics::ir::{St, StKind};
    fn walk(b: &[St], p: &kpl_semantics::Program) -> Option<kpl_lang::Span> {
        b.iter().find_map(|s| match &s.kind {
            StKind::Assert(_, true) => Some(p.stmts[s.id as usize].span),
            StKind::Assert(e, _) | StKind::Assume(e) if e.two_thread() || e.verifier_only() => Some(p.stmts[s.id as usize].span),
            StKind::If { then, els, .. } => walk(then, p).or_else(|| walk(els, p)),
            StKind::While { invariants, body, .. } => {
                invariants.iter().find(|(e, _)| e.two_thread() || e.verifier_only()).map(|(_, id)| p.stmts[*id as usize].span).or_else(|| walk(body, p))
            }
            _ => None,
        })
    }
    walk(&p.main, p).or_else(|| p.procs.iter().find_map(|pr| walk(&pr.body, p)))
}

fn inputs_text(t: &Test) -> String {
    if t.params.is_empty() {
        return format!("{} initial elements", t.elements.len());
    }
    let ps: Vec<String> = t.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("params {}; {} initial elements", ps.join(", "), t.elements.len())
}
