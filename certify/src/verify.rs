//! `verify`: reduction, VC generation, Houdini and the search for failing assertions, with
//! a time budget. Gives a verdict, the defects with their witnesses, and statistics.

use crate::seq_to_vc::{encode, Encoding};
use crate::solve::{failures, houdini, Session};
use crate::witness::{extract, Witness};
use kpl_lang::{ast, Launch};
use kpl_reduction::seq::Program;
use kpl_reduction::{reduce, AbstractionChoice, Config};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Options {
    pub launch: Launch,
    pub abstraction: AbstractionChoice,
    pub only_intra_group: bool,
    pub benign: bool,
    pub timeout: Option<Duration>,
    /// Infer invariants (Houdini); off with `--no-infer`.
    pub infer: bool,
    /// Simplify the verification conditions (e-graphs) before solving.
    pub simplify: bool,
    /// Keep each simplified term's explanation (for certificates).
    pub explain: bool,
    /// Also solve the unsimplified conditions, to measure what simplification saves.
    pub compare: bool,
    /// Check races only on these arrays; `None`: every array.
    pub check_arrays: Option<Vec<String>>,
    /// Check performance under this model instead of correctness (`kpl perf --all-inputs`).
    pub perf: Option<kpl_lang::perf_model::PerfModel>,
    /// Arrays `perf` leaves out (a thread's private arrays).
    pub perf_skip: Vec<String>,
    /// A thread's private arrays and their words per thread (`Config::private`).
    pub private: Vec<(String, u32)>,
    /// GPUVerify's warp-synchronous mode (`--warp-sync=N`).
    pub warp_sync: Option<u32>,
    /// No race checks (`--only-divergence`).
    pub only_divergence: bool,
    /// Bounded search: loops unrolled this many times (`--loop-unwind`); never verifies.
    pub loop_unwind: Option<u32>,
    /// With `loop_unwind`: a loop with a constant trip count up to 32 is unrolled that many
    /// times instead (the bounded search before inference).
    pub unwind_constant_loops: bool,
    /// K-induction for every loop (`--k-induction-depth`); 0: plain induction.
    pub k_induction: u32,
    /// Barrier invariants may read only elements the thread accessed (off with
    /// `--no-barrier-access-checks`).
    pub barrier_access_checks: bool,
    /// Stated loop invariants for thread 1 only (`--asymmetric-asserts`).
    pub asymmetric_asserts: bool,
    /// Drop the candidates concrete runs show false before Houdini (`seq_run`; Houdini's
    /// answer is the same without, only slower).
    pub refute: bool,
    /// Candidates (by `candidate_key`) that Houdini did not keep when it verified the same
    /// kernel under another launch: they start off, which saves the rounds that would drop
    /// them again. A hint only: fewer candidates never make a verdict unsound, and where
    /// the check then finds a defect, Houdini runs again from every candidate, so the
    /// defects reported are those the kernel has without the hint. With a hint,
    /// Where that launch's kernel was verified (`verified_elsewhere`; the hint may also be
    /// what a launch whose Houdini ran out of time had dropped so far),
    /// `verify_confirming` goes straight to the full check (no bounded searches first).
    pub dropped_elsewhere: Option<std::sync::Arc<std::collections::HashSet<String>>>,
    /// `dropped_elsewhere` comes from a launch under which the kernel was verified.
    pub verified_elsewhere: bool,
    /// How the solver starts (`Session::habits`): what worked on the kernel's queries under
    /// its last launch.
    pub habits: crate::solve::Habits,
}

/// A candidate's identity across launches of one kernel: its loop, rule and expression.
pub fn candidate_key(program: &Program, c: usize) -> String {
    let cand = &program.candidates[c];
    format!("{} {} {}", cand.loop_id, cand.rule, program.show(&cand.expr))
}

impl Options {
    /// Options for a launch with everything else at its default.
    pub fn new(launch: Launch) -> Options {
        Options {
            launch,
            abstraction: AbstractionChoice::Auto,
            only_intra_group: false,
            benign: false,
            timeout: None,
            infer: true,
            simplify: true,
            explain: false,
            compare: false,
            check_arrays: None,
            perf: None,
            perf_skip: Vec::new(),
            private: Vec::new(),
            warp_sync: None,
            only_divergence: false,
            loop_unwind: None,
            unwind_constant_loops: false,
            k_induction: 0,
            barrier_access_checks: true,
            asymmetric_asserts: false,
            refute: true,
            dropped_elsewhere: None,
            verified_elsewhere: false,
            habits: Default::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Verified,
    Defects,
    Inconclusive(String),
}

/// A failing assertion: its label (index into `Program::labels`) and a witness.
#[derive(Clone, Debug)]
pub struct Finding {
    pub label: usize,
    pub witness: Witness,
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub time_ms: u128,
    pub vcs: usize,
    pub solver_calls: u32,
    pub houdini_rounds: u32,
    pub candidates: usize,
    /// Candidates concrete runs of the program showed false before Houdini
    /// (`kpl_reduction::seq_run`).
    pub candidates_refuted: usize,
    pub invariants_kept: usize,
    /// Size of the verification conditions (nodes of their terms) before and after
    /// simplification.
    pub vc_nodes_before: usize,
    pub vc_nodes_after: usize,
    pub simplify_ms: u128,
    pub solver_ms: u128,
    /// With `compare`: the solver time on the unsimplified conditions.
    pub solver_ms_unsimplified: Option<u128>,
}

pub struct Report {
    pub outcome: Outcome,
    pub findings: Vec<Finding>,
    pub program: Program,
    pub encoding: Encoding,
    /// Candidates Houdini kept, by index.
    pub kept: Vec<bool>,
    /// Candidates shown to be no invariants here (refuted, dropped by Houdini, or off from
    /// the start), whether Houdini finished or not.
    pub ruled_out: Vec<bool>,
    /// Set when some question went unanswered (the list of defects may be incomplete).
    pub unknown: Option<String>,
    /// What worked on the queries (`Options::habits` for the kernel's next launch).
    pub habits: crate::solve::Habits,
    pub stats: Stats,
    /// What simplification did (explanations only with `explain`).
    pub simplification: Option<crate::simplify::Report>,
    /// Every finding's witness is what the caller's replay observed (`verify_confirming`'s
    /// check without invariants keeps only those): no need to replay them again.
    pub replayed: bool,
}

/// The sequential program for a kernel under options (for dumps and tests).
pub fn program(core: &ast::Kernel, o: &Options) -> Program {
    let cfg = Config {
        launch: o.launch,
        abstraction: o.abstraction,
        only_intra_group: o.only_intra_group,
        benign: o.benign,
        check_arrays: o.check_arrays.clone(),
        perf: o.perf,
        perf_skip: o.perf_skip.clone(),
        private: o.private.clone(),
        warp_sync: o.warp_sync,
        only_divergence: o.only_divergence,
        loop_unwind: o.loop_unwind,
        unwind_constant_loops: o.unwind_constant_loops,
        k_induction: o.k_induction,
        barrier_access_checks: o.barrier_access_checks,
        asymmetric_asserts: o.asymmetric_asserts,
    };
    reduce(core, &cfg)
}

/// What solving one encoding gives.
struct Solved {
    kept: Vec<bool>,
    ruled_out: Vec<bool>,
    refuted: usize,
    findings: Vec<Finding>,
    unknown: Option<String>,
    calls: u32,
    rounds: u32,
    solver_ms: u128,
    habits: crate::solve::Habits,
}

/// The size on each free axis of the grid a witness is first looked for within.
const SMALL_GRID: u32 = 4;

fn solve(program: &Program, encoding: &Encoding, o: &Options, deadline: Option<Instant>, progress: &dyn Fn(&str)) -> Solved {
    let mut s = Session::new(encoding, deadline);
    s.habits = o.habits;
    // A free grid's sizes: a witness of a few groups where one exists, else of a launch the
    // interpreter replays whole (2^16 threads), else of fewer than 2^31 threads in all
    // (where no `int` thread id overflows).
    let free: Vec<egg::Id> = encoding.inputs.iter().filter(|(n, _)| kpl_reduction::grid_input_axis(n).is_some()).map(|(_, id)| *id).collect();
    if !free.is_empty() {
        let least = o.launch.least().total_threads().max(1);
        s.prefer = vec![free.iter().map(|id| (*id, SMALL_GRID)).collect()];
        for threads in [1u64 << 16, i32::MAX as u64] {
            let wide = (threads / least).clamp(1, u32::MAX as u64) as u32;
            // (With several free axes, each at most the share of one: the product stays below.)
            let share = if free.len() == 1 { wide } else { (wide as f64).powf(1.0 / free.len() as f64) as u32 };
            if share > s.prefer.last().map_or(0, |l| l[0].1) {
                s.prefer.push(free.iter().map(|id| (*id, share.max(1))).collect());
            }
        }
    }
    // With `--no-infer`, only what GPUVerify's uniformity analysis gives (GPUVerify
    // trusts it; Houdini checks it).
    let mut on: Vec<bool> = program.candidates.iter().map(|c| o.infer || c.derived).collect();
    // A candidate outside every assertion's cone of influence cannot change a verdict.
    for (c, out) in kpl_reduction::relevance::irrelevant(program).into_iter().enumerate() {
        on[c] &= !out;
    }
    // A candidate a concrete run shows false at its loop's head is no invariant: dropped
    // before Houdini, whose answer stays the same, one solver round sooner per candidate.
    let mut refuted = 0;
    if o.refute && on.iter().filter(|c| **c).count() > 1 {
        progress("refuting candidates by concrete runs");
        let soon = Instant::now() + REFUTE_BUDGET;
        let until = deadline.map_or(soon, |d| d.min(soon));
        for (c, gone) in kpl_reduction::seq_run::refute(program, &on, until).into_iter().enumerate() {
            if gone {
                on[c] = false;
                refuted += 1;
            }
        }
    }
    let tried = on.clone();
    // Candidates Houdini dropped under another launch of the kernel start off.
    let hinted: Vec<usize> = match &o.dropped_elsewhere {
        Some(known) if o.infer => (0..on.len()).filter(|&c| on[c] && known.contains(&candidate_key(program, c))).collect(),
        _ => Vec::new(),
    };
    for &c in &hinted {
        on[c] = false;
    }
    let launch = o.launch;
    let check = |s: &mut Session, on: Vec<bool>| {
        let h = if on.iter().any(|c| *c) {
            houdini(s, on, progress)
        } else {
            crate::solve::Houdini { kept: vec![false; program.candidates.len()], rounds: 0, unknown: None, left: vec![false; program.candidates.len()] }
        };
        let (findings, unknown) = match &h.unknown {
            Some(why) => (Vec::new(), Some(format!("invariant inference: {why}"))),
            None => {
                let mut get =
                    |s: &mut Session, m: &z3::Model, l: usize| Finding { label: l, witness: extract(s, m, program, encoding, &launch, l) };
                failures(s, &h.kept, progress, &mut get)
            }
        };
        (h, findings, unknown)
    };
    let (mut h, mut findings, mut unknown) = check(&mut s, on);
    if !hinted.is_empty() && !findings.is_empty() {
        // A defect may need only an invariant the hint left out: again from every candidate.
        let rounds = h.rounds;
        (h, findings, unknown) = check(&mut s, tried.clone());
        h.rounds += rounds;
    }
    if std::env::var_os("KPL_DEBUG").is_some() {
        for (i, c) in program.candidates.iter().enumerate() {
            let fate = match (tried[i], h.kept[i]) {
                (_, true) => "kept",
                (true, false) => "dropped by Houdini",
                (false, false) => "refuted or off",
            };
            eprintln!("candidate {i} (loop {}, {}): {fate}: {}", c.loop_id, c.rule, program.show(&c.expr));
        }
    }
    let ruled_out = h.left.iter().map(|l| !l).collect();
    Solved { kept: h.kept, ruled_out, refuted, findings, unknown, calls: s.calls, rounds: h.rounds, solver_ms: s.solver_time.as_millis(), habits: s.habits }
}

/// The most time concrete runs spend refuting candidates before Houdini.
const REFUTE_BUDGET: Duration = Duration::from_secs(1);

/// How many times the bounded search before invariant inference unrolls each loop, and the
/// most time it takes (a quarter of `--timeout` when that is less).
const FIRST_UNWIND: u32 = 2;
const FIRST_BUDGET: Duration = Duration::from_secs(5);

/// Verify a kernel. Where it has loops and invariants are to be inferred, a bounded search
/// comes first (every loop unrolled [`FIRST_UNWIND`] times, for a short budget): a defect
/// it finds is an execution of the two-thread program, so the full check could not verify
/// the kernel either, and the defects are reported at once (the search for ones past the
/// bound is said to have stopped) instead of after Houdini's rounds, which on a racy
/// kernel with hard loops can take the whole time limit. Where that finds nothing and a
/// loop has a constant trip count above it (`for (k = 0; k < 16; ++k)`, which cut after
/// two iterations has no execution that leaves it, so nothing after it was searched), a
/// second search unrolls such loops as many times as they run, for a budget of its own.
/// Otherwise (no defect within the bounds, or the budgets spent) the full check runs with
/// the time left.
pub fn verify(core: &ast::Kernel, o: &Options, progress: &dyn Fn(&str)) -> Report {
    verify_confirming(core, o, progress, None)
}

/// For each of a report's defects, the witness the interpreter observed when it reproduces
/// it (the caller's replay).
pub type Confirm<'a> = &'a dyn Fn(&Report) -> Vec<Option<(usize, Witness)>>;

/// `verify`, where `confirm` replays defects: between the bounded searches and the full
/// check, a check without loop invariants (every loop cut, what it writes arbitrary) for
/// its budget. Its defects may come from the missing invariants, so only those the
/// interpreter reproduces are kept; if there is one, they are the report (the search is
/// said to have stopped) and Houdini's rounds, which on a racy kernel with long loops
/// (`for (i = tid; i < C; i += blockDim.x)` with `C` = 50257: a bounded search cannot
/// leave it) can take the whole time limit, are not run. Sound: every defect reported is
/// one the interpreter showed, and this check never verifies.
pub fn verify_confirming(core: &ast::Kernel, o: &Options, progress: &dyn Fn(&str), confirm: Option<Confirm>) -> Report {
    let start = Instant::now();
    let mut has_loops = false;
    for b in std::iter::once(&core.main).chain(core.procs.iter().map(|p| &p.body)) {
        kpl_reduction::kernel_walk::walk(b, &mut |s| has_loops |= matches!(s.kind, ast::StmtKind::While { .. }));
    }
    // (A kernel verified under another launch, `dropped_elsewhere`, is likely verified under
    // this one too: the searches that find defects early would cost more than they save.)
    if !(o.infer && has_loops && o.loop_unwind.is_none() && o.k_induction == 0 && o.perf.is_none() && !o.compare) || o.dropped_elsewhere.is_some() && o.verified_elsewhere {
        return verify_full(core, o, progress);
    }
    let budget = o.timeout.map_or(FIRST_BUDGET, |t| (t / 4).min(FIRST_BUDGET));
    let bounded = Options { loop_unwind: Some(FIRST_UNWIND), timeout: Some(budget), ..o.clone() };
    let first = verify_full(core, &bounded, &|m: &str| progress(&format!("bounded search: {m}")));
    let (first, how) = if first.outcome != Outcome::Defects && !kpl_reduction::unwind::constant_trips(core, FIRST_UNWIND).is_empty() {
        let unrolled = Options { unwind_constant_loops: true, ..bounded };
        let second = verify_full(core, &unrolled, &|m: &str| progress(&format!("bounded search, constant loops unrolled: {m}")));
        let how = format!("loops that run a constant number of times up to {} unrolled that many times, every other loop {FIRST_UNWIND} times", kpl_reduction::unwind::MAX_TRIPS);
        (second, how)
    } else {
        (first, format!("every loop unrolled {FIRST_UNWIND} times"))
    };
    if first.outcome == Outcome::Defects {
        let more = format!("these were found by a bounded search ({how}) before invariant inference; defects only executions with more iterations show were not searched for");
        return Report { unknown: Some(first.unknown.map_or(more.clone(), |u| format!("{more}; {u}"))), ..first };
    }
    if let Some(confirm) = confirm {
        let cut = Options { infer: false, timeout: Some(budget), ..o.clone() };
        let mut r = verify_full(core, &cut, &|m: &str| progress(&format!("check without loop invariants: {m}")));
        let shown = if r.outcome == Outcome::Defects { confirm(&r) } else { Vec::new() };
        if shown.iter().any(Option::is_some) {
            r.findings = r.findings.into_iter().zip(shown).filter_map(|(_, w)| w.map(|(label, witness)| Finding { label, witness })).collect();
            r.replayed = true;
            let more = "these were found by a check without loop invariants (every loop cut, what it writes arbitrary) and each was reproduced by the interpreter; the defects it showed that the interpreter did not, and any others, were not searched for";
            r.unknown = Some(r.unknown.map_or(more.to_string(), |u| format!("{more}; {u}")));
            r.stats.time_ms = start.elapsed().as_millis();
            return r;
        }
    }
    let rest = Options { timeout: o.timeout.map(|t| t.saturating_sub(start.elapsed())), ..o.clone() };
    let mut report = verify_full(core, &rest, progress);
    report.stats.time_ms = start.elapsed().as_millis();
    report
}

/// Verify with the options as given (no bounded search first).
fn verify_full(core: &ast::Kernel, o: &Options, progress: &dyn Fn(&str)) -> Report {
    let start = Instant::now();
    let deadline = o.timeout.map(|t| start + t);
    progress("reducing to two threads");
    let program = program(core, o);
    progress("generating verification conditions");
    let mut encoding = encode(&program);
    let mut stats = Stats {
        vcs: encoding.checks.iter().filter(|c| c.is_some()).count(),
        candidates: program.candidates.len(),
        ..Stats::default()
    };
    let roots: Vec<egg::Id> = encoding
        .defs
        .iter()
        .flat_map(|(a, b)| [*a, *b])
        .chain(encoding.checks.iter().flatten().map(|c| c.fail))
        .chain(encoding.candidate_fails.iter().flatten().copied())
        .collect();
    stats.vc_nodes_before = encoding.terms.size(&roots);
    stats.vc_nodes_after = stats.vc_nodes_before;
    if o.compare {
        progress("solving without simplification (for comparison)");
        let plain = solve(&program, &encoding, o, deadline, progress);
        stats.solver_ms_unsimplified = Some(plain.solver_ms);
    }
    let mut simplification = None;
    if o.simplify {
        progress("simplifying (e-graphs)");
        let t0 = Instant::now();
        let r = crate::simplify::simplify(&mut encoding, crate::simplify::Budget::default(), o.explain);
        stats.simplify_ms = t0.elapsed().as_millis();
        stats.vc_nodes_before = r.nodes_before;
        stats.vc_nodes_after = r.nodes_after;
        simplification = Some(r);
    }
    let solved = solve(&program, &encoding, o, deadline, progress);
    stats.solver_calls = solved.calls;
    stats.houdini_rounds = solved.rounds;
    stats.candidates_refuted = solved.refuted;
    stats.solver_ms = solved.solver_ms;
    stats.invariants_kept = solved.kept.iter().filter(|k| **k).count();
    stats.time_ms = start.elapsed().as_millis();
    let outcome = if !solved.findings.is_empty() {
        Outcome::Defects
    } else if let Some(why) = &solved.unknown {
        Outcome::Inconclusive(why.clone())
    } else if let Some(n) = o.loop_unwind {
        // Executions with more iterations were cut off: nothing is proved for them.
        let its = if n == 1 { "iteration" } else { "iterations" };
        Outcome::Inconclusive(format!("no defect in the executions where every loop runs at most {n} {its} (--loop-unwind)"))
    } else {
        Outcome::Verified
    };
    Report {
        outcome,
        findings: solved.findings,
        program,
        encoding,
        kept: solved.kept,
        ruled_out: solved.ruled_out,
        unknown: solved.unknown,
        habits: solved.habits,
        stats,
        simplification,
        replayed: false,
    }
}

/// Whether the kernel's preconditions (`requires`, and the `assume`s its body starts
/// with: a C kernel's thread-dependent `__requires`) can never hold for a pair of its
/// threads under the launch, so that everything the verifier proves holds vacuously: a
/// kernel with nothing but them and an assertion that always fails is verified. `false`
/// if it has none, or the question stays open within a short budget.
pub fn preconditions_unsatisfiable(core: &ast::Kernel, o: &Options) -> bool {
    // Leading assumes read no locals (none is declared before them) nor memory (a read
    // would be a statement of its own before the assume, in the core form).
    let mut stmts: Vec<ast::Stmt> = core.main.stmts.iter().take_while(|s| matches!(s.kind, ast::StmtKind::Assume(_))).cloned().collect();
    let requires = core.decls.iter().find_map(|d| matches!(d.kind, ast::DeclKind::Requires(_)).then_some(d.span));
    let Some(span) = requires.or_else(|| stmts.first().map(|s| s.span)) else {
        return false;
    };
    stmts.push(ast::Stmt { kind: ast::StmtKind::Assert(ast::Expr::num(0, span), false), span });
    let probe = ast::Kernel { procs: Vec::new(), main: ast::Block { stmts, span }, ..core.clone() };
    let budget = Duration::from_secs(5);
    let quick = Options { infer: false, compare: false, explain: false, timeout: Some(o.timeout.map_or(budget, |t| t.min(budget))), ..o.clone() };
    verify_full(&probe, &quick, &|_| {}).outcome == Outcome::Verified
}
