//! `kpl perf`: GKLEE's performance bugs (shared-memory bank conflicts, uncoalesced global
//! accesses, divergent warps), measured on a run of the interpreter, or for every input by
//! the solver (`--all-inputs`: proved free, or a witness the interpreter then replays).

use crate::exit::Exit;
use crate::options::{CheckArgs, InputArgs, LaunchArgs};
use crate::{input, limits, progress, render, replay};
use kpl_certify::verify::{self, Outcome as VerifyOutcome};
use kpl_certify::witness::Witness;
use kpl_lang::perf_model::{Arch, PerfModel};
use kpl_lang::{Checked, Diagnostic, Launch, Span};
use kpl_reduction::seq::{LabelKind, PerfCheck};
use kpl_semantics::perf::{Example, Kind, PerfObserver, PerfReport, Site};
use kpl_semantics::report::{Op, Outcome};
use kpl_semantics::{sdv, Inputs, Program};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// The kernel file.
    file: PathBuf,
    #[command(flatten)]
    inputs: InputArgs,
    /// The architecture whose rules apply: sm_90, sm_70 (32 banks, 32-byte sectors), cc2
    /// (128-byte lines), cc1.3 and cc1.1 (half-warps, 16 banks, GKLEE's 1.x rules).
    #[arg(long, default_value = "sm_90", value_parser = Arch::parse)]
    arch: Arch,
    /// Threads per warp (default: the architecture's, 32).
    #[arg(long = "warp-size", value_name = "N")]
    warp_size: Option<u32>,
    /// Shared-memory banks (default: the architecture's).
    #[arg(long, value_name = "N")]
    banks: Option<u32>,
    /// Answer for every input (params and array contents) with the solver: each access and
    /// branch proved free of the problem, or a witness replayed in the interpreter.
    #[arg(long = "all-inputs")]
    all_inputs: bool,
    /// Give up (inconclusive) after this many seconds: the run, or with `--all-inputs` the
    /// proof; the whole command, front end included, ends at most 2 s after that.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// With `--all-inputs`: do not infer loop invariants.
    #[arg(long = "no-infer")]
    no_infer: bool,
    /// Give up the run after this many thread-statements (what was measured is reported).
    #[arg(long = "max-steps", default_value_t = 100_000_000)]
    max_steps: u64,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    launch: LaunchArgs,
    #[command(flatten)]
    check: CheckArgs,
}

pub fn run(a: Args) -> Exit {
    let model = match PerfModel::new(a.arch, a.warp_size, a.banks) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput;
        }
    };
    if let Some(t) = a.timeout {
        if !(t > 0.0 && t <= 1e9) {
            eprintln!("error: `--timeout` must be a number of seconds above 0 and at most 1e9");
            return Exit::BadInput;
        }
    }
    input::set_warp_sync(a.check.warp_sync);
    // The measured run has no limit of its own but `--max-steps`; the watchdog bounds it
    // (`--all-inputs` has its own, which reports more).
    let _watchdog = (!a.all_inputs).then(|| limits::command_watchdog(a.timeout, &a.file.display().to_string(), a.json)).flatten();
    let (src, c, launch) = match input::load(&a.file, &a.launch, true) {
        Ok(x) => x,
        Err(e) => return e,
    };
    if a.all_inputs {
        all_inputs(&a, &src, &c, launch, model)
    } else {
        one_run(&a, &src, &c, launch, model)
    }
}

/// Run the interpreter with a perf observer (a thread's `private` arrays left out).
fn measure(prog: &Program, inputs: Inputs, model: PerfModel, opts: &sdv::Options, private: &BTreeSet<String>) -> (PerfReport, Outcome) {
    let mut obs = PerfObserver::new(prog, model).skipping(prog, private);
    let r = sdv::run_observed(prog, inputs, opts, Some(&mut obs));
    (obs.finish(), r.outcome)
}

fn run_options(a: &Args) -> sdv::Options {
    sdv::Options { progress: Some(progress::steps as fn(u64)), ..a.check.run_options(&a.file, a.max_steps) }
}

fn one_run(a: &Args, src: &input::Source, c: &Checked, launch: Launch, model: PerfModel) -> Exit {
    if launch.total_threads() > sdv::MAX_THREADS {
        eprintln!("error: the launch has {} threads; the interpreter runs at most {}", launch.total_threads(), sdv::MAX_THREADS);
        return Exit::BadInput;
    }
    let prog = kpl_semantics::compile(&c.core, launch);
    let inputs = match a.inputs.inputs(&prog) {
        Ok(i) => i,
        Err(e) => return e,
    };
    let private: BTreeSet<String> = c.layouts.private.keys().cloned().collect();
    let (report, outcome) = measure(&prog, inputs, model, &run_options(a), &private);
    progress::clear();
    let dims = launch.dims_used();
    let findings: Vec<&Site> = report.findings().collect();
    if a.json {
        let list: Vec<Value> = findings.iter().map(|s| finding_json(src, &prog, s, s.worst.as_ref(), &model)).collect();
        let mut v = json!({
            "file": src.path, "arch": model.arch.name(), "warp_size": model.warp, "banks": model.banks,
            "outcome": outcome.name(), "findings": list, "summary": summary_json(&report),
        });
        if let Outcome::Defect(d) = &outcome {
            v["defect"] = render::defect_json(&src.text, d);
        }
        println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        let diags: Vec<Diagnostic> = findings.iter().map(|s| diagnostic(&src.text, &prog, s, s.worst.as_ref(), &model, dims, "")).collect();
        input::report(src, &diags);
        match &outcome {
            Outcome::Ok => {}
            Outcome::Defect(d) => {
                input::report(src, &[render::defect_diagnostic(d, dims, &c.layouts)]);
                println!("{}: the run ended in a {} (measured up to it)", src.path, d.kind());
            }
            Outcome::Timeout => println!("{}: the run stopped after {} thread-statements (--max-steps); measured up to there", src.path, a.max_steps),
            Outcome::Infeasible { .. } => println!("{}: infeasible: the inputs violate a `requires` or an `assume`", src.path),
        }
        print!("{}", summary_text(&src.path, &report));
    }
    match outcome {
        Outcome::Defect(_) => Exit::Defect,
        Outcome::Timeout | Outcome::Infeasible { .. } => Exit::Inconclusive,
        Outcome::Ok if findings.is_empty() => Exit::Ok,
        Outcome::Ok => Exit::Defect,
    }
}

fn op_name(op: Option<Op>) -> &'static str {
    op.map(|o| o.name()).unwrap_or("access")
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (1000.0 * part as f64 / whole as f64).round() / 10.0
    }
}

fn is_loop(prog: &Program, stmt: u32) -> bool {
    prog.stmts.get(stmt as usize).is_some_and(|s| s.text.starts_with("while"))
}

/// A finding as a warning at its statement; `status` is "" or "confirmed "/"possible ".
fn diagnostic(src: &str, prog: &Program, s: &Site, w: Option<&Example>, m: &PerfModel, dims: usize, status: &str) -> Diagnostic {
    let mut span = prog.stmts[s.stmt as usize].span;
    if s.kind == Kind::WarpDivergence {
        // A branch is shown by its first line (its condition), not its whole body.
        if let Some(nl) = src.get(span.start..span.end).and_then(|t| t.find('\n')) {
            span.end = span.start + nl;
        }
    }
    let array = s.array.map(|k| prog.arrays[k as usize].name.clone()).unwrap_or_default();
    let op = op_name(s.op);
    let who = |w: &Example| (render::thread_text(&w.threads[0], dims), render::thread_text(&w.threads[1], dims));
    let share = if s.events > 0 {
        let (unit, what, verb) = match s.kind {
            Kind::BankConflict => (m.unit_name(), "accesses", "conflict"),
            Kind::Uncoalesced => (m.unit_name(), "accesses", "are uncoalesced"),
            Kind::WarpDivergence => ("warp", "evaluations", "diverge"),
        };
        format!("{} of {} {unit}-wide {what} here {verb} ({}%), in {} barrier interval{}", s.bad, s.events, pct(s.bad, s.events),
            s.bad_intervals, if s.bad_intervals == 1 { "" } else { "s" })
    } else {
        String::new()
    };
    let mut d = match (s.kind, w) {
        (Kind::BankConflict, Some(w)) => {
            let (a, b) = who(w);
            Diagnostic::warning(format!("{status}{}-way bank conflict: {op} of shared `{array}`", w.degree), span)
                .with_label(format!("{a} and {b} use bank {} at words {} and {}", w.at[0], w.words[0], w.words[1]))
        }
        (Kind::Uncoalesced, Some(w)) => {
            let (a, b) = who(w);
            let seg = m.segment_name();
            let what = match m.coalescing {
                kpl_lang::perf_model::Coalescing::Strict { .. } => format!(
                    "{} transactions where 1 would do: lane k does not access word k of an aligned {seg}",
                    w.degree
                ),
                _ => format!("{} {seg}s where {} would do", w.degree, w.minimum),
            };
            Diagnostic::warning(format!("{status}uncoalesced global {op} of `{array}`: {what}"), span)
                .with_label(format!("{a} accesses word {} ({seg} {}), {b} word {} ({seg} {})", w.words[0], w.at[0], w.words[1], w.at[1]))
        }
        (Kind::WarpDivergence, Some(w)) => {
            let (a, b) = who(w);
            let what = if is_loop(prog, s.stmt) { "leave this loop at different iterations" } else { "take both sides of this branch" };
            Diagnostic::warning(format!("{status}divergent warp: the threads of one warp {what}"), span)
                .with_label(format!("true in {a}, false in {b} ({} of {} threads true)", w.degree, w.active))
        }
        (k, None) => Diagnostic::warning(format!("{status}{}", k.name().replace('_', " ")), span),
    };
    if !share.is_empty() {
        d = d.with_help(share);
    }
    d
}

fn finding_json(src: &input::Source, prog: &Program, s: &Site, w: Option<&Example>, m: &PerfModel) -> Value {
    let span = prog.stmts[s.stmt as usize].span;
    let (line, col) = render::pos_json(&src.text, span);
    let mut v = json!({ "kind": s.kind.name(), "file": src.path, "line": line, "col": col,
                        "count": s.bad, "of": s.events, "intervals": s.bad_intervals });
    if let Some(k) = s.array {
        v["array"] = json!(prog.arrays[k as usize].name);
        v["op"] = json!(op_name(s.op));
    }
    if let Some(w) = w {
        v["threads"] = json!([render::thread_json(&w.threads[0]), render::thread_json(&w.threads[1])]);
        v["interval"] = json!(w.interval);
        match s.kind {
            Kind::BankConflict => {
                v["degree"] = json!(w.degree);
                v["bank"] = json!(w.at[0]);
                v["words"] = json!(w.words);
            }
            Kind::Uncoalesced => {
                let key = match m.coalescing {
                    kpl_lang::perf_model::Coalescing::Strict { .. } => "transactions",
                    _ => "sectors",
                };
                v[key] = json!(w.degree);
                v["minimum"] = json!(w.minimum);
                v["words"] = json!(w.words);
                v["segments"] = json!(w.at);
            }
            Kind::WarpDivergence => {
                v["taken"] = json!([true, false]);
                v["true_threads"] = json!(w.degree);
                v["active"] = json!(w.active);
            }
        }
    }
    v
}

fn summary_json(r: &PerfReport) -> Value {
    let [ub, uc, ud] = r.intervals_using;
    let [bb, bc, bd] = r.intervals_bad;
    let (sh, shb) = r.totals(Kind::BankConflict);
    let (gl, glb) = r.totals(Kind::Uncoalesced);
    let (br, brb) = r.totals(Kind::WarpDivergence);
    let i = r.intervals as u64;
    json!({
        "intervals": r.intervals,
        "bank_conflict_pct": pct(bb as u64, i),
        "coalesced_pct": if uc == 0 { 100.0 } else { pct((uc - bc) as u64, uc as u64) },
        "warp_divergence_pct": pct(bd as u64, i),
        "intervals_with_shared_accesses": ub, "intervals_with_conflicts": bb,
        "intervals_with_global_accesses": uc, "intervals_uncoalesced": bc,
        "intervals_with_branches": ud, "intervals_divergent": bd,
        "shared_accesses": sh, "conflicting": shb,
        "global_accesses": gl, "uncoalesced": glb,
        "branches": br, "divergent": brb,
    })
}

/// GKLEE's Table 1 figures (per barrier interval) and the per-access counts.
fn summary_text(path: &str, r: &PerfReport) -> String {
    let [_, uc, _] = r.intervals_using;
    let [bb, bc, bd] = r.intervals_bad;
    let (sh, shb) = r.totals(Kind::BankConflict);
    let (gl, glb) = r.totals(Kind::Uncoalesced);
    let (br, brb) = r.totals(Kind::WarpDivergence);
    let i = r.intervals as u64;
    let m = &r.model;
    let coalesced = if uc == 0 { "no global accesses".to_string() } else { format!("{}% coalesced", pct((uc - bc) as u64, uc as u64)) };
    let mut t = format!(
        "{path}: {} barrier interval{}: bank conflicts {}%, global accesses {coalesced}, warp divergence {}% ({}: warp {}, {} banks, {}s)\n",
        r.intervals,
        if r.intervals == 1 { "" } else { "s" },
        pct(bb as u64, i),
        pct(bd as u64, i),
        m.arch,
        m.warp,
        m.banks,
        m.segment_name()
    );
    t.push_str(&format!(
        "{path}: {shb} of {sh} {u}-wide shared accesses conflict, {glb} of {gl} {u}-wide global accesses are uncoalesced, {brb} of {br} warp branches diverge\n",
        u = m.unit_name()
    ));
    t
}

fn check_kind(c: PerfCheck) -> Kind {
    match c {
        PerfCheck::BankConflict => Kind::BankConflict,
        PerfCheck::Uncoalesced => Kind::Uncoalesced,
        PerfCheck::WarpDivergence => Kind::WarpDivergence,
    }
}

fn kind_text(k: Kind, n: usize) -> (&'static str, String) {
    let (what, on) = match k {
        Kind::BankConflict => ("bank conflicts", "shared access"),
        Kind::Uncoalesced => ("uncoalesced accesses", "global access"),
        Kind::WarpDivergence => ("warp divergence", "branch"),
    };
    let plural = if n == 1 { "" } else { "es" };
    (what, format!("{n} {on}{plural}"))
}

/// `--all-inputs`: the perf-mode reduction, solved; each failing check replayed.
fn all_inputs(a: &Args, src: &input::Source, c: &Checked, launch: Launch, model: PerfModel) -> Exit {
    let path = src.path.clone();
    let json_out = a.json;
    let watchdog = a.timeout.map(|t| {
        limits::Watchdog::start(Duration::from_secs_f64(t) + limits::GRACE, move || {
            progress::clear();
            if json_out {
                println!("{}", json!({ "file": path, "verdict": "inconclusive", "reason": format!("the time limit of {t} s ran out (--timeout)") }));
            } else {
                println!("{path}: inconclusive: the time limit of {t} s ran out (--timeout)");
            }
        })
    });
    let mut opts = verify::Options::new(launch);
    opts.perf = Some(model);
    opts.perf_skip = c.layouts.private.keys().cloned().collect();
    opts.only_intra_group = true;
    // Both threads see the same contents after each barrier (sound for race-free kernels,
    // which `kpl verify` proves): a branch on shared data is then uniform where it is.
    opts.abstraction = kpl_reduction::AbstractionChoice::Equality;
    opts.infer = !a.no_infer;
    opts.timeout = a.timeout.map(Duration::from_secs_f64);
    let name = src.path.clone();
    let show = move |msg: &str| {
        progress::show(&format!("{name}: {msg}"));
    };
    let report = verify::verify(&c.core, &opts, &show);
    let p = &report.program;
    let prog = (launch.total_threads() <= sdv::MAX_THREADS).then(|| kpl_semantics::compile(&c.core, launch));
    let dims = launch.dims_used();
    let mut diags = Vec::new();
    let mut found = Vec::new();
    let mut problem: Option<String> = None;
    let mut failed_kinds = [false; 3];
    let mut order: Vec<&verify::Finding> = report.findings.iter().collect();
    order.sort_by_key(|f| p.labels[f.label].span);
    for f in order {
        let l = &p.labels[f.label];
        let LabelKind::Perf { check, .. } = &l.kind else {
            // A user invariant fails: nothing proved with it stands.
            let (line, col) = kpl_lang::span::line_col(&src.text, l.span.0);
            problem.get_or_insert(format!("{} at {line}:{col} does not hold", l.what));
            continue;
        };
        let kind = check_kind(*check);
        failed_kinds[kind as usize] = true;
        let seen = prog.as_ref().and_then(|prog| replay_site(prog, &f.witness, model, kind, l.span, a));
        let (confirmed, site) = match seen {
            Some(s) => (true, s),
            None => (false, unconfirmed_site(prog.as_ref(), l.span, kind)),
        };
        let status = if confirmed { "confirmed " } else { "possible " };
        let witness = crate::cmd_verify::witness_json(&f.witness, launch, &|n| p.arrays.iter().any(|x| x.name == n && x.shared));
        match &prog {
            Some(prog) => {
                let mut d = diagnostic(&src.text, prog, &site, if confirmed { site.worst.as_ref() } else { None }, &model, dims, status);
                d.help.clear();
                d = d.with_help(format!("witness: {}", witness_text(&f.witness)));
                if !confirmed {
                    d = d.with_help("the interpreter did not reproduce it on the witness (the check is sufficient, not necessary, or the invariants are too weak)");
                }
                diags.push(d);
                let mut v = finding_json(src, prog, &site, if confirmed { site.worst.as_ref() } else { None }, &model);
                v["confirmed"] = json!(confirmed);
                v["witness"] = witness;
                found.push(v);
            }
            None => {
                let span = Span { start: l.span.0, end: l.span.1 };
                diags.push(Diagnostic::warning(format!("possible {}", kind.name().replace('_', " ")), span));
                let (line, col) = kpl_lang::span::line_col(&src.text, l.span.0);
                found.push(json!({ "kind": kind.name(), "file": src.path, "line": line, "col": col, "confirmed": false, "witness": witness }));
            }
        }
    }
    if let Some(w) = &watchdog {
        w.finish();
    }
    progress::clear();
    let unknown = match (&report.outcome, &problem) {
        (_, Some(p)) => Some(p.clone()),
        (VerifyOutcome::Inconclusive(why), _) => Some(why.clone()),
        _ => report.unknown.clone(),
    };
    // Per kind: how many checks, and whether all were proved.
    let mut checks = [0usize; 3];
    for l in &p.labels {
        if let LabelKind::Perf { check, .. } = l.kind {
            checks[check_kind(check) as usize] += 1;
        }
    }
    let verdicts: Vec<(Kind, &'static str)> = Kind::ALL
        .iter()
        .map(|&k| {
            let v = if failed_kinds[k as usize] {
                "found"
            } else if unknown.is_some() {
                "inconclusive"
            } else {
                "proved_free"
            };
            (k, v)
        })
        .collect();
    if a.json {
        let per: serde_json::Map<String, Value> = verdicts
            .iter()
            .map(|(k, v)| (k.name().to_string(), json!({ "verdict": v, "checks": checks[*k as usize] })))
            .collect();
        let v = json!({
            "file": src.path, "arch": model.arch.name(), "warp_size": model.warp, "banks": model.banks,
            "all_inputs": true, "checks": per, "findings": found, "reason": unknown,
            "stats": { "time_ms": report.stats.time_ms, "solver_calls": report.stats.solver_calls,
                       "invariants_kept": report.stats.invariants_kept },
        });
        println!("{v}");
    } else {
        input::report(src, &diags);
        for (k, v) in &verdicts {
            let (what, on) = kind_text(*k, checks[*k as usize]);
            let line = match *v {
                "proved_free" => format!("proved free of {what} for every input ({on} checked)"),
                "found" => format!("{what} found (above)"),
                _ => format!("{what}: inconclusive"),
            };
            println!("{}: {line}", src.path);
        }
        if let Some(why) = &unknown {
            println!("{}: inconclusive: {why}", src.path);
        }
        println!(
            "{}: {} ({}: warp {}, {} banks, {}s; {:.2} s)",
            src.path,
            if found.is_empty() && unknown.is_none() { "no performance problem for any input" } else { "see above" },
            model.arch,
            model.warp,
            model.banks,
            model.segment_name(),
            report.stats.time_ms as f64 / 1000.0
        );
    }
    if !found.is_empty() {
        Exit::Defect
    } else if unknown.is_some() {
        Exit::Inconclusive
    } else {
        Exit::Ok
    }
}

fn witness_text(w: &Witness) -> String {
    let mut parts = Vec::new();
    if !w.params.is_empty() {
        parts.push(format!("params {}", w.params.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")));
    }
    let cells: usize = w.arrays.values().map(|c| c.len()).sum();
    if cells > 0 {
        parts.push(format!("{cells} initial array element{} (in --json)", if cells == 1 { "" } else { "s" }));
    }
    if parts.is_empty() {
        "nothing fixed (seed 0 for every input)".into()
    } else {
        parts.join("; ")
    }
}

/// Replay a witness with the perf observer; the site of the label's kind and place if the
/// run shows the problem there.
fn replay_site(prog: &Program, w: &Witness, model: PerfModel, kind: Kind, span: (usize, usize), a: &Args) -> Option<Site> {
    let opts = sdv::Options { max_steps: a.max_steps.min(20_000_000), inter_group: false, benign: true, ..Default::default() };
    // Private arrays have no checks to replay: none is left out here.
    let (r, _) = measure(prog, replay::inputs(w), model, &opts, &BTreeSet::new());
    r.sites.into_iter().find(|s| {
        let sp = prog.stmts[s.stmt as usize].span;
        s.kind == kind && s.bad > 0 && (sp.start, sp.end) == span
    })
}

/// A site for a finding the interpreter did not reproduce (statement found by place).
fn unconfirmed_site(prog: Option<&Program>, span: (usize, usize), kind: Kind) -> Site {
    let stmt = prog
        .and_then(|p| p.stmts.iter().position(|s| (s.span.start, s.span.end) == span))
        .unwrap_or(0) as u32;
    let array = prog.and_then(|p| {
        fn find(b: &[kpl_semantics::ir::St], id: u32) -> Option<(u32, Op)> {
            use kpl_semantics::ir::StKind;
            for s in b {
                let here = match &s.kind {
                    StKind::Read { array, .. } => Some((*array, Op::Read)),
                    StKind::Write { array, .. } => Some((*array, Op::Write)),
                    StKind::Atomic { array, .. } => Some((*array, Op::Atomic)),
                    _ => None,
                };
                if s.id == id {
                    return here;
                }
                let inner = match &s.kind {
                    StKind::If { then, els, .. } => find(then, id).or_else(|| find(els, id)),
                    StKind::While { body, .. } => find(body, id),
                    _ => None,
                };
                if inner.is_some() {
                    return inner;
                }
            }
            None
        }
        find(&p.main, stmt).or_else(|| p.procs.iter().find_map(|pr| find(&pr.body, stmt)))
    });
    Site::new(kind, stmt, array.map(|x| x.0), array.map(|x| x.1))
}
