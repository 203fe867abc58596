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
use kpl_testgen::concolic::{self, element_var, is_lost_var, parse_var, End, InputVar, Item, ItemKind, Mode, Run};
use egg::{Id, Language};
use std::collections::HashSet;
use std::time::{Duration, Instant};

pub struct Options {
    pub assume: Assumptions,
    /// Stop after this many distinct paths (then inconclusive).
    pub max_paths: usize,
    /// Interpreter steps per run.
    pub max_steps: u64,
    pub deadline: Option<Instant>,
    pub query_timeout: Duration,
    /// Random inputs tried on a path whose outputs the terms do not decide.
    pub tries: usize,
    pub seed: u64,
    pub kernel_run: sdv::Options,
    pub reference_run: sdv::Options,
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
}

pub struct Report {
    pub verdict: Verdict,
    pub stats: Stats,
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
        solver: PathSolver::with_functions(),
        stats: Stats::default(),
        incomplete: None,
        rng: kpl_lang::rng::Rng::new(o.seed ^ 0x6372_6f73_73),
    };
    let verdict = s.search(base);
    s.stats.solver_calls = s.solver.calls;
    s.stats.solver_time = s.solver.time;
    Report { verdict, stats: s.stats }
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
}

/// An input to run: the path items its parent predicted for it, and the bound from which
/// its own items are negated.
struct Job {
    inputs: Inputs,
    expect: Vec<Id>,
    bound: usize,
}

/// What one output element's comparison on a path found.
enum Element {
    Equal,
    Undecided,
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
        let mut stack = vec![Job { inputs: base.clone(), expect: Vec::new(), bound: 0 }];
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
            let mut path: Vec<Item> = rk.path.clone();
            if rk.end == End::Ok {
                path.extend(rr.path.iter().cloned());
            }
            let conds: Vec<Id> = path.iter().map(|i| i.cond).collect();
            if conds.len() < job.expect.len() || conds[..job.bound.saturating_sub(1)] != job.expect[..job.bound.saturating_sub(1)] {
                self.give_up("a run did not take the path the solver predicted for its input (a float comparison or a value the search cannot follow decides a branch)".into());
            }
            if !seen.insert(conds.clone()) {
                continue;
            }
            self.stats.paths += 1;
            match (&rk.end, &rr.end) {
                (End::Timeout, _) | (_, End::Timeout) => self.give_up("a symbolic run reached its step or path-length limit".into()),
                (End::Ok, End::Ok) if feasible => {
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
                let mut q: Vec<Id> = conds[..k].to_vec();
                q.push(neg);
                match self.solve(&q) {
                    Some(PathAnswer::Sat(vals)) => {
                        let mut inputs = job.inputs.clone();
                        for (name, v) in vals {
                            match parse_var(&name) {
                                Some(InputVar::Param(p)) => {
                                    inputs.params.insert(p, v);
                                }
                                Some(InputVar::Element(a, g, i)) => inputs.set_element(&a, g, i, v),
                                None => {}
                            }
                        }
                        let mut expect = conds[..k].to_vec();
                        expect.push(neg);
                        stack.push(Job { inputs, expect, bound: k + 1 });
                    }
                    Some(PathAnswer::Unsat) => {}
                    Some(PathAnswer::Unknown(why)) => self.give_up(format!("the solver could not decide a path condition ({why})")),
                    None => {}
                }
            }
        }
        match self.incomplete.take() {
            Some(why) => Verdict::Inconclusive(why),
            None => Verdict::Equivalent,
        }
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

    /// Compare every output element on this path; a verdict where one is found.
    fn compare(&mut self, rk: &Run, rr: &Run, conds: &[Id], inputs: &Inputs) -> Option<Verdict> {
        let mut undecided: Vec<(Id, Id)> = Vec::new();
        for name in self.outputs {
            let (Some(ka), Some(ra)) = (self.kernel.array_index(name), self.reference.array_index(name)) else { continue };
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
                let a = self.term(rk.memory.get(&(ka as u32, u32::MAX, i)), name, i);
                let b = self.term(rr.memory.get(&(ra as u32, u32::MAX, i)), name, i);
                if let Element::Undecided = self.element(a, b, conds) {
                    undecided.push((a, b));
                }
            }
        }
        if undecided.is_empty() {
            return None;
        }
        // Random inputs on the float variables of the undecided elements.
        let mut floats: Vec<(String, u32)> = Vec::new();
        for &(a, b) in &undecided {
            for v in float_vars(&self.t, &[a, b]) {
                if let Some(InputVar::Element(arr, None, i)) = parse_var(&v) {
                    if !floats.contains(&(arr.clone(), i)) {
                        floats.push((arr, i));
                    }
                }
            }
        }
        let exact_only = self.o.assume.any();
        for _ in 0..self.o.tries {
            let v = concrete::variant(inputs, &floats, &mut self.rng, exact_only);
            let runs = concrete::run_both(self.kernel, self.reference, &v, &self.o.kernel_run, &self.o.reference_run);
            self.stats.runs += 1;
            for (side, r) in [(Side::Kernel, &runs.kernel), (Side::Reference, &runs.reference)] {
                if let Outcome::Defect(_) = &r.outcome {
                    return Some(Verdict::Defect { side, inputs: v, outcome: r.outcome.clone() });
                }
            }
            if !(matches!(runs.kernel.outcome, Outcome::Ok) && matches!(runs.reference.outcome, Outcome::Ok)) {
                continue;
            }
            if let Some(diff) = concrete::difference(&runs, self.outputs, &v) {
                if !exact_only {
                    return Some(Verdict::Mismatch { inputs: v, diff, exact: false });
                }
                let inexact = undecided.iter().any(|&(a, b)| inexact_on_integers(&self.t, a) || inexact_on_integers(&self.t, b));
                if !inexact && concrete::small_whole(diff.kernel) && concrete::small_whole(diff.reference) {
                    return Some(Verdict::Mismatch { inputs: v, diff, exact: true });
                }
            }
        }
        let n = undecided.len();
        self.give_up(format!(
            "{n} output element{} of a path could not be decided: {} canonical form{} differ{}, and no input tried gave different bits",
            if n == 1 { "" } else { "s" },
            if n == 1 { "its" } else { "their" },
            if n == 1 { "" } else { "s" },
            if self.o.assume.any() { " under the assumptions" } else { "" }
        ));
        None
    }

    /// An output element's term: the run's, or its initial value where the run never
    /// touched it.
    fn term(&mut self, v: Option<&(u32, Option<Id>)>, array: &str, i: u32) -> Id {
        match v {
            Some((_, Some(s))) => *s,
            Some((c, None)) => self.t.word(*c),
            None => self.t.var(&element_var(array, None, i), kpl_certify::vc::Sort::Word),
        }
    }

    fn element(&mut self, a: Id, b: Id, conds: &[Id]) -> Element {
        self.stats.elements += 1;
        let float = has_float(&self.t, a) || has_float(&self.t, b);
        if float {
            self.stats.float_elements += 1;
        }
        if a == b {
            self.stats.by_terms += 1;
            if float {
                self.stats.float_by_forms += 1;
            }
            return Element::Equal;
        }
        let (ca, cb) = (self.canon.form(&mut self.t, a), self.canon.form(&mut self.t, b));
        if ca == cb {
            self.stats.by_canon += 1;
            if float {
                self.stats.float_by_forms += 1;
            }
            return Element::Equal;
        }
        let eq = self.t.add(Vc::Eq([ca, cb]));
        let ne = self.t.not(eq);
        let mut q = conds.to_vec();
        q.push(ne);
        // Lost values are still variables here: a proof holds whatever they are.
        let vars = vars_of(&self.t, &q);
        match self.solver.solve(&self.t, &q, &vars, self.o.query_timeout) {
            PathAnswer::Unsat => {
                self.stats.by_solver += 1;
                Element::Equal
            }
            _ => Element::Undecided,
        }
    }
}

/// The variables of some terms.
fn vars_of(t: &Terms, roots: &[Id]) -> Vec<Id> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = roots.to_vec();
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        match t.node(n) {
            Vc::Var(_) => out.push(n),
            node => stack.extend(node.children().iter().copied()),
        }
    }
    out
}

/// Does a term use a float operation?
fn has_float(t: &Terms, root: Id) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        if let Vc::App(..) = t.node(n) {
            return true;
        }
        stack.extend(t.node(n).children().iter().copied());
    }
    false
}

/// The input variables that are operands of float operations in some terms (by name).
fn float_vars(t: &Terms, roots: &[Id]) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = roots.to_vec();
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
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
        stack.extend(t.node(n).children().iter().copied());
    }
    out
}
