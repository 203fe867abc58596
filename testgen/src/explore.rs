//! Path exploration (GKLEE's test generation, PPoPP 2012 sections 2.2.4 and 5.2): a
//! generational concolic search from a first input, each run's path items negated in turn
//! by the solver to reach the other side of a branch (or to break a check); GKLEE's two
//! coverage-directed reductions; test selection; the coverage measures of its Tables 4-5.

use crate::concolic::{self, End, InputVar, Item, ItemKind, Run, Target};
use kpl_certify::path_solve::{PathAnswer, PathSolver};
use kpl_certify::vc::Terms;
use kpl_semantics::ir::{Program, St, StKind};
use kpl_semantics::Inputs;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// Which exploration GKLEE's Table 5 compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// Every feasible path (up to the budget).
    None,
    /// Red_TB: flip a branch only while the thread that decided it has not covered the
    /// other side yet; keep a path only if it covers a new (thread, target).
    Threads,
    /// Red_BI: flip a branch only while no thread has covered its other side in that
    /// barrier interval; keep a path only if it covers a new (interval, target).
    Intervals,
}

impl Reduction {
    pub fn name(self) -> &'static str {
        match self {
            Reduction::None => "none",
            Reduction::Threads => "Red_TB",
            Reduction::Intervals => "Red_BI",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    pub reduction: Reduction,
    /// Stop after this many distinct paths.
    pub max_paths: usize,
    /// Interpreter steps per run.
    pub max_steps: u64,
    /// The whole exploration's time.
    pub timeout: Option<Duration>,
    /// Each solver query's time.
    pub query_timeout: Duration,
    /// The seed of the first input (and of every element no constraint fixes).
    pub seed: u64,
    /// When the exploration must end (set by `explore` from `timeout`).
    pub deadline: Option<Instant>,
}

/// A kept test: its inputs and what its run did.
#[derive(Clone, Debug)]
pub struct Test {
    pub params: BTreeMap<String, u32>,
    /// Initial elements: (array, group for a shared array, index) ─► value.
    pub elements: Elements,
    pub end: End,
    pub covered: BTreeSet<(u32, u32, Target)>,
    pub intervals: u32,
}

/// Coverage as GKLEE measures it, statements and branches apart (fractions of 1).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Coverage {
    /// Targets covered by some thread of some test.
    pub source: (f64, f64),
    /// Per thread, the targets it covered in some test, averaged over threads (Cov^t).
    pub avg_thread: (f64, f64),
    pub max_thread: (f64, f64),
    /// Per barrier interval and thread, the targets covered against those any thread
    /// covered in that interval, averaged over (interval, thread) (CovBI^t).
    pub avg_interval: (f64, f64),
    pub max_interval: (f64, f64),
}

pub struct Report {
    /// Tests the reduction kept, in the order found.
    pub tests: Vec<Test>,
    /// The tests selection keeps (indices into `tests`): as few as cover every (thread,
    /// target) the kept tests cover.
    pub selected: Vec<usize>,
    pub paths: usize,
    pub runs: usize,
    pub coverage: Coverage,
    pub selected_coverage: Coverage,
    /// Targets: statements and branch sides in the kernel.
    pub targets: (usize, usize),
    /// Why the exploration stopped before it ran out of paths.
    pub stopped: Option<String>,
    /// Questions the solver could not answer (each a path not taken).
    pub unknown: u32,
    pub solver_calls: u32,
    pub solver_time: Duration,
}

/// Every statement and branch side of a program.
pub fn targets(p: &Program) -> (BTreeSet<Target>, BTreeSet<Target>) {
    fn walk(b: &[St], s: &mut BTreeSet<Target>, br: &mut BTreeSet<Target>) {
        for st in b {
            s.insert(Target::Stmt(st.id));
            match &st.kind {
                StKind::If { then, els, .. } => {
                    br.insert(Target::Branch(st.id, true));
                    br.insert(Target::Branch(st.id, false));
                    walk(then, s, br);
                    walk(els, s, br);
                }
                StKind::While { body, .. } => {
                    br.insert(Target::Branch(st.id, true));
                    br.insert(Target::Branch(st.id, false));
                    walk(body, s, br);
                }
                _ => {}
            }
        }
    }
    let (mut s, mut br) = (BTreeSet::new(), BTreeSet::new());
    walk(&p.main, &mut s, &mut br);
    for pr in &p.procs {
        walk(&pr.body, &mut s, &mut br);
    }
    (s, br)
}

fn signature(r: &Run) -> u64 {
    let mut h = DefaultHasher::new();
    for it in &r.path {
        if let ItemKind::Branch { stmt, thread, taken, .. } = it.kind {
            (stmt, thread, taken).hash(&mut h);
        }
    }
    format!("{:?}", r.end).hash(&mut h);
    h.finish()
}

fn inputs_of(seed: u64, params: &BTreeMap<String, u32>, elements: &Elements) -> Inputs {
    let mut i = Inputs::from_seed(seed);
    i.params = params.clone();
    for ((a, g, k), v) in elements {
        i.set_element(a, *g, *k, *v);
    }
    i
}

impl Test {
    /// The test as the interpreter's inputs (`seed` for what its run did not read).
    pub fn inputs(&self, seed: u64) -> Inputs {
        inputs_of(seed, &self.params, &self.elements)
    }

    /// Its initial elements by array, then (group, index), as witnesses hold them.
    pub fn arrays(&self) -> BTreeMap<String, BTreeMap<(Option<u32>, u32), u32>> {
        let mut out: BTreeMap<String, BTreeMap<(Option<u32>, u32), u32>> = BTreeMap::new();
        for ((a, g, k), v) in &self.elements {
            out.entry(a.clone()).or_default().insert((*g, *k), *v);
        }
        out
    }
}

/// Explore a compiled kernel's paths. `progress` is told the counts now and then.
pub fn explore(p: &Program, o: &Options, progress: &dyn Fn(usize, usize, usize)) -> Report {
    let start = Instant::now();
    let o = &Options { deadline: o.timeout.map(|l| start + l), ..o.clone() };
    let mut t = Terms::default();
    let mut solver = PathSolver::new();
    let (stmts, branches) = targets(p);
    let mut queue: VecDeque<(BTreeMap<String, u32>, Elements, usize)> = VecDeque::new();
    queue.push_back((BTreeMap::new(), BTreeMap::new(), 0));
    let mut seen: HashSet<u64> = HashSet::new();
    let mut by_thread: HashSet<(u32, Target)> = HashSet::new();
    let mut by_interval: HashSet<(u32, Target)> = HashSet::new();
    let mut tests = Vec::new();
    let (mut paths, mut runs, mut unknown) = (0usize, 0usize, 0u32);
    let mut stopped = None;
    let mut first = true;
    while let Some((params, elements, bound)) = queue.pop_front() {
        if paths >= o.max_paths {
            stopped = Some(format!("the limit of {} paths was reached (--max-paths)", o.max_paths));
            break;
        }
        if o.timeout.is_some_and(|limit| start.elapsed() >= limit) {
            stopped = Some("the time limit ran out (--timeout)".into());
            break;
        }
        let inputs = inputs_of(o.seed, &params, &elements);
        let deadline = o.timeout.map(|limit| start + limit);
        let run = concolic::run(p, &mut t, &inputs, o.max_steps, deadline);
        runs += 1;
        if first && run.end == End::Infeasible {
            // The seeded input violates a `requires` or `assume`: solve for one that does not.
            first = false;
            let mut fixed: Vec<_> = run.path.iter().map(|i| i.cond).collect();
            // The precondition that failed is its negation on the path (what held).
            if run.failed_item {
                if let Some(last) = fixed.last_mut() {
                    *last = t.not(*last);
                }
            }
            if let Some(next) = solve(&mut solver, &mut t, &run, &fixed, o, &mut unknown) {
                queue.push_back((next.0, next.1, 0));
            }
            continue;
        }
        first = false;
        if !seen.insert(signature(&run)) {
            continue;
        }
        paths += 1;
        progress(paths, tests.len(), queue.len());
        let new = match o.reduction {
            Reduction::None => true,
            Reduction::Threads => run.covered.iter().any(|(_, th, tg)| !by_thread.contains(&(*th, *tg))),
            Reduction::Intervals => run.covered.iter().any(|(i, _, tg)| !by_interval.contains(&(*i, *tg))),
        };
        let failed = matches!(run.end, End::Failed { .. } | End::Divergence { .. });
        for (i, th, tg) in &run.covered {
            by_thread.insert((*th, *tg));
            by_interval.insert((*i, *tg));
        }
        if run.end != End::Infeasible && (new || failed) {
            tests.push(Test {
                params: run.params_read.clone(),
                elements: run.elements_read.clone(),
                end: run.end.clone(),
                covered: run.covered.clone(),
                intervals: run.intervals,
            });
        }
        // Children: negate each path item from the bound on. Under a reduction, each
        // (thread or interval, target) is tried once per run: its first decision only.
        let mut tried: HashSet<(u32, Target)> = HashSet::new();
        for k in bound..run.path.len() {
            let item: &Item = &run.path[k];
            let flip = match item.kind {
                ItemKind::Fixed | ItemKind::Index { .. } => false,
                ItemKind::Check { .. } => true,
                ItemKind::Branch { stmt, thread, taken, interval } => {
                    let other = Target::Branch(stmt, !taken);
                    match o.reduction {
                        Reduction::None => true,
                        Reduction::Threads => !by_thread.contains(&(thread, other)) && tried.insert((thread, other)),
                        Reduction::Intervals => !by_interval.contains(&(interval, other)) && tried.insert((interval, other)),
                    }
                }
            };
            if !flip {
                continue;
            }
            let mut cs: Vec<_> = run.path[..k].iter().map(|i| i.cond).collect();
            cs.push(t.not(item.cond));
            if let Some(next) = solve(&mut solver, &mut t, &run, &cs, o, &mut unknown) {
                queue.push_back((next.0, next.1, k + 1));
            }
            if o.timeout.is_some_and(|limit| start.elapsed() >= limit) {
                break;
            }
        }
    }
    if stopped.is_none() && !queue.is_empty() {
        stopped = Some("the exploration stopped early".into());
    }
    let selected = select(&tests);
    let coverage = measure(&tests, &(0..tests.len()).collect::<Vec<_>>(), p, &stmts, &branches);
    let selected_coverage = measure(&tests, &selected, p, &stmts, &branches);
    Report {
        tests,
        selected,
        paths,
        runs,
        coverage,
        selected_coverage,
        targets: (stmts.len(), branches.len()),
        stopped,
        unknown,
        solver_calls: solver.calls,
        solver_time: solver.time,
    }
}

type Elements = BTreeMap<(String, Option<u32>, u32), u32>;
type NewInputs = (BTreeMap<String, u32>, Elements);

/// Inputs for a run that satisfies `cs`: the model's values over the parent run's.
fn solve(s: &mut PathSolver, t: &mut Terms, run: &Run, cs: &[concolic::Id], o: &Options, unknown: &mut u32) -> Option<NewInputs> {
    let mut wanted = Vec::new();
    for name in run.params_read.keys() {
        wanted.push(t.var(&concolic::param_var(name), kpl_certify::vc::Sort::Word));
    }
    for (a, g, i) in run.elements_read.keys() {
        wanted.push(t.var(&concolic::element_var(a, *g, *i), kpl_certify::vc::Sort::Word));
    }
    let left = o.deadline.map(|d| d.saturating_duration_since(std::time::Instant::now())).unwrap_or(o.query_timeout);
    match s.solve(t, cs, &wanted, o.query_timeout.min(left).max(Duration::from_millis(1))) {
        PathAnswer::Sat(model) => {
            let mut params = run.params_read.clone();
            let mut elements = run.elements_read.clone();
            for (name, v) in model {
                match concolic::parse_var(&name) {
                    Some(InputVar::Param(p)) => {
                        params.insert(p, v);
                    }
                    Some(InputVar::Element(a, g, i)) => {
                        elements.insert((a, g, i), v);
                    }
                    None => {}
                }
            }
            Some((params, elements))
        }
        PathAnswer::Unsat => None,
        PathAnswer::Unknown(_) => {
            *unknown += 1;
            None
        }
    }
}

/// Greedy set cover of every (thread, target) the tests cover; failing tests always stay.
fn select(tests: &[Test]) -> Vec<usize> {
    let mut left: HashSet<(u32, Target)> = tests.iter().flat_map(|t| t.covered.iter().map(|(_, th, tg)| (*th, *tg))).collect();
    let mut chosen: Vec<usize> =
        (0..tests.len()).filter(|&i| matches!(tests[i].end, End::Failed { .. } | End::Divergence { .. })).collect();
    for &i in &chosen {
        for (_, th, tg) in &tests[i].covered {
            left.remove(&(*th, *tg));
        }
    }
    while !left.is_empty() {
        let best = (0..tests.len())
            .filter(|i| !chosen.contains(i))
            .max_by_key(|&i| {
                let gain: HashSet<(u32, Target)> =
                    tests[i].covered.iter().map(|(_, th, tg)| (*th, *tg)).filter(|x| left.contains(x)).collect();
                (gain.len(), std::cmp::Reverse(i))
            });
        let Some(b) = best else { break };
        let before = left.len();
        for (_, th, tg) in &tests[b].covered {
            left.remove(&(*th, *tg));
        }
        if left.len() == before {
            break;
        }
        chosen.push(b);
    }
    chosen.sort_unstable();
    chosen
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// GKLEE's measures over a set of tests.
fn measure(tests: &[Test], which: &[usize], p: &Program, stmts: &BTreeSet<Target>, branches: &BTreeSet<Target>) -> Coverage {
    let threads = p.launch.total_threads() as u32;
    let is_branch = |t: &Target| matches!(t, Target::Branch(..));
    let mut any: BTreeSet<Target> = BTreeSet::new();
    let mut per_thread: BTreeMap<u32, BTreeSet<Target>> = BTreeMap::new();
    let mut per_interval: BTreeMap<u32, BTreeMap<u32, BTreeSet<Target>>> = BTreeMap::new();
    for &i in which {
        for (k, th, tg) in &tests[i].covered {
            any.insert(*tg);
            per_thread.entry(*th).or_default().insert(*tg);
            per_interval.entry(*k).or_default().entry(*th).or_default().insert(*tg);
        }
    }
    let split = |set: &BTreeSet<Target>| {
        let b = set.iter().filter(|t| is_branch(t)).count();
        (set.len() - b, b)
    };
    let (ns, nb) = (stmts.len(), branches.len());
    let (cs, cb) = split(&any);
    let mut avg = (0.0, 0.0);
    let mut max: (f64, f64) = (0.0, 0.0);
    for th in 0..threads {
        let (s, b) = per_thread.get(&th).map(split).unwrap_or((0, 0));
        let (rs, rb) = (ratio(s, ns), ratio(b, nb));
        avg = (avg.0 + rs, avg.1 + rb);
        max = (max.0.max(rs), max.1.max(rb));
    }
    let n = threads.max(1) as f64;
    let avg_thread = (avg.0 / n, avg.1 / n);
    let (mut bi_avg, mut bi_max, mut cells) = ((0.0, 0.0), (0.0f64, 0.0f64), 0usize);
    for threads_in in per_interval.values() {
        let reach: BTreeSet<Target> = threads_in.values().flatten().copied().collect();
        let (rs, rb) = split(&reach);
        for th in 0..threads {
            let (s, b) = threads_in.get(&th).map(split).unwrap_or((0, 0));
            let (x, y) = (ratio(s, rs), ratio(b, rb));
            bi_avg = (bi_avg.0 + x, bi_avg.1 + y);
            bi_max = (bi_max.0.max(x), bi_max.1.max(y));
            cells += 1;
        }
    }
    let c = cells.max(1) as f64;
    Coverage {
        source: (ratio(cs, ns), ratio(cb, nb)),
        avg_thread,
        max_thread: max,
        avg_interval: (bi_avg.0 / c, bi_avg.1 / c),
        max_interval: bi_max,
    }
}
