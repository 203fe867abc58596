//! The search over both sides' paths (KLEE-CL's symbolic execution, as concolic runs): each
//! input runs the kernel and then the reference symbolically (`concolic::Mode::exact`), the
//! two paths one path; on it every output element of either side is compared (terms equal,
//! canonical forms equal, or the solver proves them equal on the path), and each decision
//! past the run's bound is negated by the solver for the next input, until every path is
//! explored or a budget ends. Every input also runs both sides in the interpreter: a
//! defect there is a defect, a difference there a mismatch, both replayed by construction.

use crate::canon::{inexact_on_integers, Assumptions, Canon};
use crate::concrete::{self, Difference};
use kpl_certify::path_solve::{PathAnswer, PathSolver};
use kpl_certify::vc::{Terms, Vc};
use kpl_semantics::report::Outcome;
use kpl_semantics::{sdv, Inputs, Program};
use kpl_testgen::concolic::{self, element_var, is_havoc_var, is_lost_var, parse_var, End, InputVar, Item, ItemKind, Mode, Run};
use egg::Id;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

pub struct Options {
    pub assume: Assumptions,
    /// Stop after this many distinct paths (then inconclusive).
    pub max_paths: usize,
    /// Interpreter steps per run.
    pub max_steps: u64,
    pub deadline: Option<Instant>,
    pub query_timeout: Duration,
    /// Each question whether an output element can differ (floats exact: long float
    /// expressions are slow, and random inputs try them too).
    pub element_timeout: Duration,
    /// Random inputs tried on a path whose outputs the terms do not decide.
    pub tries: usize,
    pub seed: u64,
    pub kernel_run: sdv::Options,
    pub reference_run: sdv::Options,
    /// Called with the paths explored and the runs made, after each path (a progress line).
    pub progress: Option<fn(usize, usize)>,
    /// Keep each path's input and how each of its output elements was settled
    /// (`Report::paths`, for a certificate).
    pub record: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Kernel,
    Reference,
}

#[derive(Debug)]
pub enum Verdict {
    /// Equal outputs on every input (of the sizes given), under the assumptions named.
    Equivalent,
    /// An input on which the outputs differ, replayed in the interpreter; `exact`: under an
    /// assumption, the difference is one of exact arithmetic (small whole numbers), not of
    /// rounding.
    Mismatch { inputs: Inputs, diff: Difference, exact: bool },
    /// A defect of one side (race, divergence, assertion, out of bounds) on this input.
    Defect { side: Side, inputs: Inputs, outcome: Outcome },
    Inconclusive(String),
}

#[derive(Debug, Default)]
pub struct Stats {
    pub paths: usize,
    pub runs: usize,
    /// Output elements compared over all paths, and how each was settled.
    pub elements: usize,
    pub by_terms: usize,
    pub by_canon: usize,
    pub by_solver: usize,
    /// Of those, the ones whose terms have float operations, and how many of them the
    /// terms or the canonical forms alone settled.
    pub float_elements: usize,
    pub float_by_forms: usize,
    pub solver_calls: u32,
    pub solver_time: Duration,
    /// Paths on which both sides ran to their end and their outputs were compared.
    pub compared_paths: usize,
}

pub struct Report {
    pub verdict: Verdict,
    pub stats: Stats,
    /// Every distinct path explored, in order (with `Options::record`).
    pub paths: Vec<PathRecord>,
}

/// How an output element that the two sides' terms do not show equal was proved equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// Their canonical forms are one term.
    Forms,
    /// The solver proved them equal on the path.
    Solver,
}

/// A path explored: the input that took it, and its output elements settled otherwise than
/// by equal terms (array, index, how).
#[derive(Clone, Debug)]
pub struct PathRecord {
    pub inputs: Inputs,
    pub settled: Vec<(String, u32, Settled)>,
}

/// Crosscheck `kernel` against `reference` (renamed: `pairing::rename`), comparing the
/// global arrays `outputs` (the kernel's names), from the inputs `base` (pinned params and
/// the seed of everything else).
pub fn crosscheck(kernel: &Program, reference: &Program, outputs: &[String], base: &Inputs, o: &Options) -> Report {
    let mut s = Search {
        kernel,
        reference,
        outputs,
        o,
        t: Terms::default(),
        canon: Canon::new(o.assume),
        solver: PathSolver::exact_floats(),
        stats: Stats::default(),
        incomplete: None,
        rng: kpl_lang::rng::Rng::new(o.seed ^ 0x0063_726f_7373),
        var_sets: HashMap::new(),
        proved: HashMap::new(),
        infeasible: HashSet::new(),
        paths: Vec::new(),
    };
    let found = s.search(base);
    let verdict = s.confirmed(found);
    s.stats.solver_calls = s.solver.calls;
    s.stats.solver_time = s.solver.time;
    Report { verdict, stats: s.stats, paths: s.paths }
}

struct Search<'a> {
    kernel: &'a Program,
    reference: &'a Program,
    outputs: &'a [String],
    o: &'a Options,
    t: Terms,
    canon: Canon,
    solver: PathSolver,
    stats: Stats,
    /// Why the search cannot say *equivalent* (the first reason).
    incomplete: Option<String>,
    rng: kpl_lang::rng::Rng,
    /// The input variables of each term asked about (`slice`).
    var_sets: HashMap<Id, Vec<Id>>,
    /// Element questions already answered (`true`: proved equal), by their sliced query.
    proved: HashMap<Vec<Id>, bool>,
    /// Negations already found infeasible, by their sliced query.
    infeasible: HashSet<Vec<Id>>,
    /// The paths explored (`Options::record`).
    paths: Vec<PathRecord>,
}

/// An output element still to decide: both sides' terms, the array and the index.
type Out = (Id, Id, String, u32);

/// An input to run: the path items its parent predicted for it (the first of its own), the
/// bound from which its own items are negated, and what holds of the item at the bound
/// beyond the item itself: a symbolic index's values already explored (`idx != c`, each),
/// so that negating it again reaches another.
struct Job {
    inputs: Inputs,
    expect: Vec<Id>,
    bound: usize,
    excluded: Vec<Id>,
}

/// What one output element's comparison on a path found.
enum Element {
    Equal,
    Undecided,
    /// The solver did not answer in its time.
    Unknown,
    /// The solver's input (variables by name) on which the two differ, floats exact.
    Differs(Vec<(String, u32)>),
}

impl<'a> Search<'a> {
    fn give_up(&mut self, why: String) {
        if self.incomplete.is_none() {
            self.incomplete = Some(why);
        }
    }

    fn late(&self) -> bool {
        self.o.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn search(&mut self, base: &Inputs) -> Verdict {
        let mode = Mode { exact: true };
        let mut stack = vec![Job { inputs: base.clone(), expect: Vec::new(), bound: 0, excluded: Vec::new() }];
        let mut seen: HashSet<Vec<Id>> = HashSet::new();
        while let Some(job) = stack.pop() {
            if self.late() {
                self.give_up("the time limit ran out before every path was explored".into());
                break;
            }
            if self.stats.paths >= self.o.max_paths {
                self.give_up(format!("more than {} paths (`--max-paths`)", self.o.max_paths));
                break;
            }
            // The interpreter first: a defect or a difference on this input is the answer.
            let runs = concrete::run_both(self.kernel, self.reference, &job.inputs, &self.o.kernel_run, &self.o.reference_run);
            self.stats.runs += 1;
            for (side, r) in [(Side::Kernel, &runs.kernel), (Side::Reference, &runs.reference)] {
                match &r.outcome {
                    Outcome::Defect(_) => return Verdict::Defect { side, inputs: job.inputs.clone(), outcome: r.outcome.clone() },
                    Outcome::Timeout => self.give_up("a run reached the step limit (`--max-steps`)".into()),
                    _ => {}
                }
            }
            let feasible = matches!(runs.kernel.outcome, Outcome::Ok) && matches!(runs.reference.outcome, Outcome::Ok);
            if feasible {
                if let Some(diff) = concrete::difference(&runs, self.outputs, &job.inputs) {
                    if !self.o.assume.any() {
                        return Verdict::Mismatch { inputs: job.inputs, diff, exact: false };
                    }
                }
            }
            let rk = concolic::run_in(self.kernel, &mut self.t, &job.inputs, self.o.max_steps, self.o.deadline, mode);
            let rr = concolic::run_in(self.reference, &mut self.t, &job.inputs, self.o.max_steps, self.o.deadline, mode);
            let path = joint_path(&rk, &rr);
            let conds: Vec<Id> = path.iter().map(|i| i.cond).collect();
            let kept = job.expect.len().saturating_sub(1);
            if conds.len() < kept || conds[..kept] != job.expect[..kept] {
                self.give_up("a run did not take the path the solver predicted for its input (a float comparison or a value the search cannot follow decides a branch)".into());
            }
            if !seen.insert(conds.clone()) {
                continue;
            }
            self.stats.paths += 1;
            if self.o.record {
                self.paths.push(PathRecord { inputs: job.inputs.clone(), settled: Vec::new() });
            }
            if let Some(f) = self.o.progress {
                f(self.stats.paths, self.stats.runs);
            }
            match (&rk.end, &rr.end) {
                (End::Timeout, _) | (_, End::Timeout) => self.give_up("a symbolic run reached its step or path-length limit".into()),
                (End::Ok, End::Ok) if feasible => {
                    self.stats.compared_paths += 1;
                    if let Some(v) = self.compare(&rk, &rr, &conds, &job.inputs) {
                        return v;
                    }
                }
                // Not an execution (a `requires` or `assume` fails), or a failure the
                // interpreter did not reproduce: nothing to compare on this input.
                (End::Infeasible, _) | (_, End::Infeasible) => {}
                _ if feasible => self.give_up("a symbolic run failed where the interpreter did not".into()),
                _ => {}
            }
            // The children: each item past the bound negated, the items before it kept.
            for k in (job.bound..path.len()).rev() {
                let flip = matches!(path[k].kind, ItemKind::Branch { .. } | ItemKind::Check { .. } | ItemKind::Index { .. });
                if !flip {
                    continue;
                }
                if self.late() {
                    break;
                }
                let neg = self.t.not(path[k].cond);
                let index = matches!(path[k].kind, ItemKind::Index { .. });
                // An index's earlier values at the bound stay excluded.
                let mut excluded = if k == job.bound { job.excluded.clone() } else { Vec::new() };
                let mut before: Vec<Id> = conds[..k].to_vec();
                before.extend(&excluded);
                let q = self.slice(&before, neg);
                let mut key = q.clone();
                key.sort();
                if self.infeasible.contains(&key) {
                    continue;
                }
                let answer = self.solve(&q);
                if let Some(PathAnswer::Unsat) = answer {
                    self.infeasible.insert(key);
                }
                match answer {
                    Some(PathAnswer::Sat(vals)) => {
                        let inputs = with_values(&job.inputs, vals);
                        let mut expect = conds[..k].to_vec();
                        expect.push(neg);
                        if index {
                            // The child may take the index to yet another value.
                            excluded.push(neg);
                            stack.push(Job { inputs, expect, bound: k, excluded });
                        } else {
                            stack.push(Job { inputs, expect, bound: k + 1, excluded: Vec::new() });
                        }
                    }
                    Some(PathAnswer::Unsat) => {}
                    Some(PathAnswer::Unknown(why)) => self.give_up(format!("the solver could not decide a path condition ({why})")),
                    None => {}
                }
            }
        }
        match self.incomplete.take() {
            Some(why) => Verdict::Inconclusive(why),
            // Equal on no input at all says nothing.
            None if self.stats.compared_paths == 0 => Verdict::Inconclusive("no input ran both sides to their end: the preconditions of one side (`__requires`, `--kernel-args`, the launch) exclude every input of the other".into()),
            None => Verdict::Equivalent,
        }
    }

    /// A mismatch only where the differing element's value is the programs': where either
    /// side's term for it has a value the program leaves arbitrary (a math function kpl
    /// does not compute, such as `expf` or `fmaf`), the interpreter's difference is one of
    /// the values it picked, not of the programs, and the verdict is inconclusive.
    fn confirmed(&mut self, v: Verdict) -> Verdict {
        let Verdict::Mismatch { inputs, diff, .. } = &v else { return v };
        let mode = Mode { exact: true };
        // One run each, bounded by the step limit only: a mismatch found at the time limit
        // is still confirmed.
        let rk = concolic::run_in(self.kernel, &mut self.t, inputs, self.o.max_steps, None, mode);
        let rr = concolic::run_in(self.reference, &mut self.t, inputs, self.o.max_steps, None, mode);
        let element = output_elements(&mut self.t, self.kernel, self.reference, &rk, &rr, self.outputs)
            .into_iter()
            .find(|(a, i, ..)| *a == diff.array && *i == diff.index);
        let arbitrary = match element {
            Some((_, _, a, b)) => vars_of(&self.t, &[a, b]).iter().any(|&x| matches!(self.t.node(x), Vc::Var(n) if is_havoc_var(n.as_str()))),
            // Not followed to the end symbolically: nothing says the value is the programs'.
            None => rk.end != End::Ok || rr.end != End::Ok,
        };
        if arbitrary {
            return Verdict::Inconclusive(format!(
                "`{}[{}]` differs in the interpreter, but it depends on a value kpl does not compute (a math function beyond `sqrtf`, `fminf`, `fmaxf` and `fabsf`, such as `expf` or `fmaf`, is an arbitrary float to kpl; `--assume=fma` reads `fmaf` as `a * b + c`)",
                diff.array, diff.index
            ));
        }
        v
    }

    /// Solve a conjunction; `None` where it has a lost variable (no model of it means an
    /// input).
    fn solve(&mut self, q: &[Id]) -> Option<PathAnswer> {
        let vars = vars_of(&self.t, q);
        if vars.iter().any(|v| matches!(self.t.node(*v), Vc::Var(n) if is_lost_var(n.as_str()))) {
            self.give_up("a branch depends on a value the search cannot follow (an atomic, a warp collective, a havoc)".into());
            return None;
        }
        Some(self.solver.solve(&self.t, q, &vars, self.o.query_timeout))
    }

    /// Compare every output element on this path; a verdict where one is found. Terms and
    /// canonical forms first (cheap), then random inputs on the undecided elements' float
    /// variables (a quarter of `tries`: rounding differences show at once), then the solver
    /// element by element (exact, but slow on long float expressions), then the rest of the
    /// random inputs.
    fn compare(&mut self, rk: &Run, rr: &Run, conds: &[Id], inputs: &Inputs) -> Option<Verdict> {
        let mut pending: Vec<Out> = Vec::new();
        for (name, i, a, b) in output_elements(&mut self.t, self.kernel, self.reference, rk, rr, self.outputs) {
            if !self.by_forms(a, b) {
                pending.push((a, b, name, i));
            } else if a != b {
                self.settled(&name, i, Settled::Forms);
            }
        }
        // What an earlier path's question already settled (the same sliced query).
        pending.retain(|(a, b, arr, i)| {
            let hit = self.proved_before(*a, *b, conds);
            if hit {
                self.settled(arr, *i, Settled::Solver);
            }
            !hit
        });
        if pending.is_empty() {
            return None;
        }
        // Under an assumption the solver can prove an equality but find no mismatch (the
        // assumption may excuse what it finds): every random input goes first.
        let first = if self.o.assume.any() { self.o.tries } else { self.o.tries.div_ceil(4) };
        if let Some(v) = self.random(&pending, inputs, first) {
            return Some(v);
        }
        let mut undecided: Vec<Out> = Vec::new();
        // Once a question runs out of time, the path's other elements are not asked: they
        // are most likely alike, and each would take as long.
        let mut solver_gave_up = false;
        for (a, b, arr, i) in pending {
            if solver_gave_up {
                undecided.push((a, b, arr, i));
                continue;
            }
            match self.by_solver(a, b, conds) {
                Element::Equal => self.settled(&arr, i, Settled::Solver),
                Element::Undecided => undecided.push((a, b, arr, i)),
                Element::Unknown => {
                    solver_gave_up = true;
                    undecided.push((a, b, arr, i));
                }
                Element::Differs(vals) => {
                    // The solver's input, replayed: a difference there is the answer.
                    let v = with_values(inputs, vals);
                    match self.replay(v) {
                        Some(Verdict::Inconclusive(_)) | None => undecided.push((a, b, arr, i)),
                        Some(verdict) => return Some(verdict),
                    }
                }
            }
            if self.late() {
                self.give_up("the time limit ran out while comparing outputs".into());
                return None;
            }
        }
        if undecided.is_empty() {
            return None;
        }
        if let Some(v) = self.random(&undecided, inputs, self.o.tries.saturating_sub(first)) {
            return Some(v);
        }
        let n = undecided.len();
        self.give_up(format!(
            "{n} output element{} of a path could not be decided: the two sides' canonical forms differ{}, the solver did not decide, and no input tried gave different bits",
            if n == 1 { "" } else { "s" },
            if self.o.assume.any() { " under the assumptions" } else { "" }
        ));
        None
    }

    /// Note how an element of the current path was settled (`Options::record`).
    fn settled(&mut self, array: &str, i: u32, how: Settled) {
        if let Some(p) = self.paths.last_mut() {
            p.settled.push((array.to_string(), i, how));
        }
    }

    /// Both sides in the interpreter on `v`: their runs, or a defect, or `Inconclusive`
    /// where a side does not run to its end.
    fn run_checked(&mut self, v: &Inputs) -> Result<concrete::Runs, Box<Verdict>> {
        let runs = concrete::run_both(self.kernel, self.reference, v, &self.o.kernel_run, &self.o.reference_run);
        self.stats.runs += 1;
        for (side, r) in [(Side::Kernel, &runs.kernel), (Side::Reference, &runs.reference)] {
            if let Outcome::Defect(_) = &r.outcome {
                return Err(Box::new(Verdict::Defect { side, inputs: v.clone(), outcome: r.outcome.clone() }));
            }
        }
        if !(matches!(runs.kernel.outcome, Outcome::Ok) && matches!(runs.reference.outcome, Outcome::Ok)) {
            return Err(Box::new(Verdict::Inconclusive("a side did not run to its end".into())));
        }
        Ok(runs)
    }

    /// Both sides in the interpreter on `v`: a defect, a mismatch, or `None` (equal there;
    /// `Inconclusive` where a side does not run to its end).
    fn replay(&mut self, v: Inputs) -> Option<Verdict> {
        match self.run_checked(&v) {
            Ok(runs) => concrete::difference(&runs, self.outputs, &v).map(|diff| Verdict::Mismatch { inputs: v, diff, exact: false }),
            Err(verdict) => Some(*verdict),
        }
    }

    /// `n` random inputs on the float variables of `elements`: a mismatch or a defect where
    /// one shows. Under an assumption, only a difference at one of `elements` (whose
    /// canonical forms differ under it) counts, and every other input is made of small
    /// whole numbers, on which sums and products are exact: a difference there is not one
    /// of rounding (`exact`).
    fn random(&mut self, elements: &[Out], inputs: &Inputs, n: usize) -> Option<Verdict> {
        let mut floats: Vec<(String, u32)> = Vec::new();
        for (a, b, ..) in elements {
            for v in float_vars(&self.t, &[*a, *b]) {
                if let Some(InputVar::Element(arr, None, i)) = parse_var(&v) {
                    if !floats.contains(&(arr.clone(), i)) {
                        floats.push((arr, i));
                    }
                }
            }
        }
        if floats.is_empty() {
            return None;
        }
        let assumed = self.o.assume.any();
        let inexact = elements.iter().any(|(a, b, ..)| inexact_on_integers(&self.t, *a) || inexact_on_integers(&self.t, *b));
        let places: Vec<(String, u32)> = elements.iter().map(|(_, _, arr, i)| (arr.clone(), *i)).collect();
        for k in 0..n {
            if self.late() {
                return None;
            }
            let integers = assumed && k % 2 == 0;
            let v = concrete::variant(inputs, &floats, &mut self.rng, integers);
            if !assumed {
                match self.replay(v) {
                    Some(Verdict::Inconclusive(_)) | None => continue,
                    Some(verdict) => return Some(verdict),
                }
            }
            let runs = match self.run_checked(&v) {
                Ok(runs) => runs,
                Err(verdict) if matches!(*verdict, Verdict::Inconclusive(_)) => continue,
                Err(verdict) => return Some(*verdict),
            };
            if let Some(diff) = concrete::difference_at(&runs, &places, &v) {
                let exact = integers && !inexact && concrete::small_whole(diff.kernel) && concrete::small_whole(diff.reference);
                return Some(Verdict::Mismatch { inputs: v, diff, exact });
            }
        }
        None
    }

    /// The input variables of a term (remembered).
    fn vars(&mut self, id: Id) -> &Vec<Id> {
        if !self.var_sets.contains_key(&id) {
            let v = vars_of(&self.t, &[id]);
            self.var_sets.insert(id, v);
        }
        &self.var_sets[&id]
    }

    /// `slice`, with the variable sets remembered.
    fn slice(&mut self, conds: &[Id], goal: Id) -> Vec<Id> {
        let goal_vars = self.vars(goal).clone();
        slice(conds, goal_vars, goal, &mut |c| self.vars(c).clone())
    }

    /// Are the two terms equal as terms or canonical forms (counted)?
    fn by_forms(&mut self, a: Id, b: Id) -> bool {
        self.stats.elements += 1;
        let float = has_float(&self.t, a) || has_float(&self.t, b);
        if float {
            self.stats.float_elements += 1;
        }
        let same = if a == b {
            self.stats.by_terms += 1;
            true
        } else if self.canon.form(&mut self.t, a) == self.canon.form(&mut self.t, b) {
            self.stats.by_canon += 1;
            true
        } else {
            false
        };
        if same && float {
            self.stats.float_by_forms += 1;
        }
        same
    }

    /// The solver's question whether the two terms can differ on this path, sliced.
    fn question(&mut self, a: Id, b: Id, conds: &[Id]) -> Vec<Id> {
        let (ca, cb) = (self.canon.form(&mut self.t, a), self.canon.form(&mut self.t, b));
        let eq = self.t.add(Vc::Eq([ca, cb]));
        let ne = self.t.not(eq);
        let mut q = self.slice(conds, ne);
        q.sort();
        q
    }

    /// Did the solver prove this question on an earlier path (counted as the solver's)?
    fn proved_before(&mut self, a: Id, b: Id, conds: &[Id]) -> bool {
        let q = self.question(a, b, conds);
        let hit = self.proved.get(&q) == Some(&true);
        if hit {
            self.stats.by_solver += 1;
        }
        hit
    }

    /// Ask the solver whether the two terms can differ on this path (floats exact).
    fn by_solver(&mut self, a: Id, b: Id, conds: &[Id]) -> Element {
        let q = self.question(a, b, conds);
        if let Some(&true) = self.proved.get(&q) {
            self.stats.by_solver += 1;
            return Element::Equal;
        }
        // Lost values are still variables here: a proof holds whatever they are.
        let vars = vars_of(&self.t, &q);
        let answer = self.solver.solve(&self.t, &q, &vars, self.o.element_timeout);
        self.proved.insert(q, matches!(answer, PathAnswer::Unsat));
        match answer {
            PathAnswer::Unsat => {
                self.stats.by_solver += 1;
                Element::Equal
            }
            // Bits differ on the solver's input; under an assumption that is no mismatch
            // yet (the assumption may excuse it), and a lost value's model is no input.
            PathAnswer::Sat(vals) if !self.o.assume.any() && !vals.keys().any(|n| is_lost_var(n)) => Element::Differs(vals.into_iter().collect()),
            PathAnswer::Unknown(_) => Element::Unknown,
            _ => Element::Undecided,
        }
    }
}

/// The two sides' runs as one path: the kernel's items, then (where the kernel ran to its
/// end) the reference's.
pub fn joint_path(rk: &Run, rr: &Run) -> Vec<Item> {
    let mut path: Vec<Item> = rk.path.clone();
    if rk.end == End::Ok {
        path.extend(rr.path.iter().cloned());
    }
    path
}

/// The output elements of a path on which both sides ran to their end: (array, index,
/// the kernel's term, the reference's term) for every element of `outputs` either side
/// wrote (the initial value's variable where one side did not).
pub fn output_elements(t: &mut Terms, kernel: &Program, reference: &Program, rk: &Run, rr: &Run, outputs: &[String]) -> Vec<(String, u32, Id, Id)> {
    let mut out = Vec::new();
    let term = |t: &mut Terms, v: Option<&(u32, Option<Id>)>, array: &str, i: u32| match v {
        Some((_, Some(s))) => *s,
        Some((c, None)) => t.word(*c),
        None => t.var(&element_var(array, None, i), kpl_certify::vc::Sort::Word),
    };
    for name in outputs {
        let (Some(ka), Some(ra)) = (kernel.array_index(name), reference.array_index(name)) else { continue };
        let mut idx: Vec<u32> = rk
            .memory
            .keys()
            .filter(|k| k.0 == ka as u32 && k.1 == u32::MAX)
            .chain(rr.memory.keys().filter(|k| k.0 == ra as u32 && k.1 == u32::MAX))
            .map(|k| k.2)
            .collect();
        idx.sort_unstable();
        idx.dedup();
        for i in idx {
            let a = term(t, rk.memory.get(&(ka as u32, u32::MAX, i)), name, i);
            let b = term(t, rr.memory.get(&(ra as u32, u32::MAX, i)), name, i);
            // An element both sides only read is no output.
            let initial = term(t, None, name, i);
            if a == initial && b == initial {
                continue;
            }
            out.push((name.clone(), i, a, b));
        }
    }
    out
}

/// The constraints of `conds` that share variables with `goal` (whose variables are
/// `goal_vars`), directly or through each other (KLEE's independence: the others hold on
/// the parent's input whatever the goal's variables are), and `goal` last. A conjunction
/// with fewer constraints: where it is unsatisfiable, so is the whole.
pub fn slice(conds: &[Id], goal_vars: Vec<Id>, goal: Id, vars_of: &mut dyn FnMut(Id) -> Vec<Id>) -> Vec<Id> {
    let mut vars: HashSet<Id> = goal_vars.into_iter().collect();
    let mut taken = vec![false; conds.len()];
    loop {
        let mut changed = false;
        for (i, &c) in conds.iter().enumerate() {
            if taken[i] {
                continue;
            }
            let vs = vars_of(c);
            if vs.is_empty() || vs.iter().any(|v| vars.contains(v)) {
                taken[i] = true;
                vars.extend(vs);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut q: Vec<Id> = conds.iter().zip(&taken).filter(|(_, t)| **t).map(|(c, _)| *c).collect();
    q.push(goal);
    q
}

/// `base` with the solver's values of input variables.
fn with_values(base: &Inputs, vals: impl IntoIterator<Item = (String, u32)>) -> Inputs {
    let mut inputs = base.clone();
    for (name, v) in vals {
        match parse_var(&name) {
            Some(InputVar::Param(p)) => {
                inputs.params.insert(p, v);
            }
            Some(InputVar::Element(a, g, i)) => inputs.set_element(&a, g, i, v),
            None => {}
        }
    }
    inputs
}

/// The variables of some terms.
pub fn vars_of(t: &Terms, roots: &[Id]) -> Vec<Id> {
    t.reachable(roots).into_iter().filter(|&n| matches!(t.node(n), Vc::Var(_))).collect()
}

/// Does a term use a float operation?
fn has_float(t: &Terms, root: Id) -> bool {
    t.applies_function(&[root])
}

/// The input variables that are operands of float operations in some terms (by name).
fn float_vars(t: &Terms, roots: &[Id]) -> Vec<String> {
    let mut out = Vec::new();
    for n in t.reachable(roots) {
        if let Vc::App(_, args) = t.node(n) {
            for a in args {
                // Through sign flips and absolute values (`fneg`, `fabs` as bit operations).
                let mut x = *a;
                while let Vc::BvXor([y, _]) | Vc::BvAnd([y, _]) = t.node(x) {
                    x = *y;
                }
                if let Vc::Var(v) = t.node(x) {
                    out.push(v.to_string());
                }
            }
        }
    }
    out
}
