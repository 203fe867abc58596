//! Concrete runs of the sequential program, to refute candidate invariants before Houdini.
//!
//! A run gives the program's free variables (thread ids, params, initial array contents)
//! and every `havoc` values drawn from a seed, repairs the top-level `assume`s that fix an
//! input it has not read yet (`lid1.x < 64`, a `requires`), and executes the program: it
//! stops at an `assume` or an `assert` that is false (the verification conditions assume
//! each assertion for what follows), at a loop head where a stated invariant is false
//! (they are assumed there too, before the candidates), or at its step budget.
//! Every state it reaches at a loop head is reachable in the program the verification
//! conditions describe (uninterpreted functions may be any function, so a fixed hash is
//! one of them), and every invariant Houdini keeps holds in every reachable head state:
//! a candidate false in one is not among them. Dropping it first leaves Houdini's answer,
//! the largest inductive subset, exactly as it was, and saves the solver round in which
//! Houdini would have found it false (GPUVerify's dynamic analysis, Bardsley et al. 2014,
//! does the same with its interpreter).

use crate::seq::{CmpOp, Expr, Program, Sort, Stmt, word_op};
use kpl_lang::rng::{Rng, mix};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Instant;

/// Statements one run may execute.
const STEPS: u64 = 50_000;
/// Runs at most, each from its own seed (fewer when the deadline comes first, or when
/// `IDLE_RUNS` runs in a row refute nothing new).
const RUNS: u64 = 48;
const IDLE_RUNS: u32 = 8;

/// An array value: a seed for the contents nothing has stored to, and the stores.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Arr {
    seed: u64,
    cells: BTreeMap<u32, u32>,
}

impl Arr {
    fn default_at(seed: u64, i: u32) -> u32 {
        (mix(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) >> 32) as u32
    }
    fn get(&self, i: u32) -> u32 {
        self.cells.get(&i).copied().unwrap_or_else(|| Arr::default_at(self.seed, i))
    }
    /// Set `i` to `v` (a cell equal to the unstored contents is dropped, so two arrays are
    /// equal exactly when their seeds and stores are).
    fn set(&mut self, i: u32, v: u32) {
        if v == Arr::default_at(self.seed, i) {
            self.cells.remove(&i);
        } else {
            self.cells.insert(i, v);
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Val {
    W(u32),
    B(bool),
    A(Rc<Arr>),
}

/// Why a run ended early; every state it reached before is still reachable.
enum Stop {
    /// An assumption or assertion was false: nothing after it is an execution.
    Infeasible,
    /// The step budget or the deadline.
    Budget,
    /// An expression of the wrong sort (a bug elsewhere: the run is abandoned).
    Sort,
}

struct Run<'p> {
    p: &'p Program,
    vals: Vec<Val>,
    /// Variables whose value the run has read or set (the rest may still be repaired).
    fixed: Vec<bool>,
    /// Evaluating without marking what is read (while a top-level assumption is repaired).
    peek: bool,
    rng: Rng,
    /// Constants of the program, for drawing values a guard or requires compares with.
    pool: &'p [u32],
    steps: u64,
    deadline: Instant,
    /// How this run chooses the second thread's ids (`Pairing`), and each variable's
    /// first-thread counterpart (`partners`).
    pairing: Pairing,
    partners: &'p [Option<Partner>],
    /// Per candidate: still to be refuted (on and not yet refuted).
    open: &'p mut [bool],
}

/// The candidates among `on` that some concrete run shows false at their loop's head, by
/// index; it runs until `deadline` at most.
pub fn refute(p: &Program, on: &[bool], deadline: Instant) -> Vec<bool> {
    let mut open: Vec<bool> = on.to_vec();
    if !open.iter().any(|x| *x) {
        return vec![false; on.len()];
    }
    let mut pool: Vec<u32> = vec![0, 1, 2, 3, 4, 8, 16, 31, 32, 64, 0xffff_ffff];
    collect_constants(&p.body, &mut pool);
    pool.sort_unstable();
    pool.dedup();
    let partners = partners(p);
    let (mut before, mut idle) = (open.iter().filter(|x| **x).count(), 0);
    for seed in 0..RUNS {
        if Instant::now() >= deadline || !open.iter().any(|x| *x) {
            break;
        }
        let mut rng = Rng::new(mix(seed ^ 0x5eed_0f_c0ffee));
        let mut vals: Vec<Val> = p.vars.iter().map(|v| draw(&mut rng, v.sort, &pool)).collect();
        let pairing = Pairing::ALL[(seed % 3) as usize];
        for (v, partner) in partners.iter().enumerate() {
            // A paired id starts out of every range, so the launch's bound repairs it
            // (`repair`), after the first thread's ids are chosen.
            if partner.is_some_and(|q| q.paired(pairing)) {
                vals[v] = Val::W(u32::MAX);
            }
        }
        let mut run = Run { p, vals, fixed: vec![false; p.vars.len()], peek: false, rng, pool: &pool, steps: 0, deadline, pairing, partners: &partners, open: &mut open };
        let _ = run.block(&p.body, true);
        let left = open.iter().filter(|x| **x).count();
        idle = if left < before { 0 } else { idle + 1 };
        if idle == IDLE_RUNS {
            break;
        }
        before = left;
    }
    on.iter().zip(&open).map(|(&was, &still)| was && !still).collect()
}

/// How a run draws the second thread of the pair: with ids of its own, or in the first
/// thread's group, or in its warp (`lid.x` one off). With many groups, independent ids
/// almost never share a group, and a candidate about threads of one group or warp (`=>
/// same_group (= c$1 c$2)`) would be left to a solver round each.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Pairing {
    Any,
    SameGroup,
    SameWarp,
}

impl Pairing {
    const ALL: [Pairing; 3] = [Pairing::Any, Pairing::SameGroup, Pairing::SameWarp];
}

/// A second-thread id's counterpart: the first thread's variable of the same axis.
#[derive(Clone, Copy, Debug)]
struct Partner {
    first: usize,
    /// `gid` (else `lid`), and whether the axis is `x`.
    group: bool,
    x: bool,
}

impl Partner {
    /// Whether the pairing chooses this id from the first thread's.
    fn paired(self, pairing: Pairing) -> bool {
        match pairing {
            Pairing::Any => false,
            Pairing::SameGroup => self.group,
            Pairing::SameWarp => true,
        }
    }

    /// The value the pairing gives, from the first thread's.
    fn value(self, first: u32) -> u32 {
        if self.group || !self.x {
            first
        } else {
            first ^ 1
        }
    }
}

/// For each variable, its counterpart if it is a thread id of the second thread
/// (`gid2.x`: `gid1.x`; the names `ast_to_seq` gives).
fn partners(p: &Program) -> Vec<Option<Partner>> {
    let index = |name: &str| p.inputs.iter().find(|(n, _)| n == name).map(|(_, v)| v.0 as usize);
    let mut out = vec![None; p.vars.len()];
    for (name, v) in &p.inputs {
        for (second, first, group) in [("gid2.", "gid1.", true), ("lid2.", "lid1.", false)] {
            if let Some(axis) = name.strip_prefix(second) {
                if let Some(f) = index(&format!("{first}{axis}")) {
                    out[v.0 as usize] = Some(Partner { first: f, group, x: axis == "x" });
                }
            }
        }
    }
    out
}

/// A value of a sort: a small number, one of the program's constants (or one off it), or
/// any word.
fn draw(rng: &mut Rng, sort: Sort, pool: &[u32]) -> Val {
    match sort {
        Sort::Bool => Val::B(rng.chance(1, 2)),
        Sort::Array => Val::A(Rc::new(Arr { seed: rng.next_u64(), cells: BTreeMap::new() })),
        Sort::Word => Val::W(match rng.below(4) {
            0 => rng.below(16) as u32,
            1 => *rng.pick(pool),
            2 => rng.pick(pool).wrapping_add(rng.below(3) as u32).wrapping_sub(1),
            _ => rng.next_u32(),
        }),
    }
}

fn collect_constants(stmts: &[Stmt], out: &mut Vec<u32>) {
    fn expr(e: &Expr, out: &mut Vec<u32>) {
        match e {
            Expr::Word(w) => out.push(*w),
            Expr::Var(_) | Expr::Bool(_) => {}
            Expr::Not(a) | Expr::BvNot(a) | Expr::Neg(a) | Expr::ToBool(a) | Expr::ToWord(a) => expr(a, out),
            Expr::Bin(_, a, b) | Expr::Cmp(_, a, b) | Expr::Eq(a, b) | Expr::Implies(a, b) | Expr::Select(a, b) => {
                expr(a, out);
                expr(b, out)
            }
            Expr::And(xs) | Expr::Or(xs) | Expr::Uf(_, xs) => xs.iter().for_each(|x| expr(x, out)),
            Expr::Ite(a, b, c) | Expr::Store(a, b, c) => {
                expr(a, out);
                expr(b, out);
                expr(c, out)
            }
        }
    }
    for s in stmts {
        match s {
            Stmt::Assign(_, e) | Stmt::Assume(e) | Stmt::Assert(e, _) => expr(e, out),
            Stmt::Loop(lp) => {
                expr(&lp.cond, out);
                collect_constants(&lp.body, out)
            }
            Stmt::Havoc(_) | Stmt::Note(_) => {}
        }
        if out.len() > 4096 {
            return;
        }
    }
}

impl Run<'_> {
    /// Execute `stmts`; `top`: the program's own top level, where a false assumption about
    /// an input the run has not read yet is repaired.
    fn block(&mut self, stmts: &[Stmt], top: bool) -> Result<(), Stop> {
        for s in stmts {
            self.tick()?;
            match s {
                Stmt::Assign(v, e) => {
                    if !self.store_in_place(v.0 as usize, e)? {
                        let x = self.eval(e)?;
                        self.vals[v.0 as usize] = x;
                    }
                    self.fixed[v.0 as usize] = true;
                }
                Stmt::Havoc(v) => {
                    let x = draw(&mut self.rng, self.p.var(*v).sort, self.pool);
                    self.vals[v.0 as usize] = x;
                    self.fixed[v.0 as usize] = true;
                }
                Stmt::Assume(e) if top => {
                    self.peek = true;
                    let holds = self.truth(e).and_then(|ok| Ok(ok || (self.repair(e)? && self.truth(e)?)));
                    self.peek = false;
                    if !holds? {
                        return Err(Stop::Infeasible);
                    }
                    // What it read is now fixed: a later repair must not break it.
                    e.vars(&mut |v| self.fixed[v.0 as usize] = true);
                }
                Stmt::Assume(e) => {
                    if !self.truth(e)? {
                        return Err(Stop::Infeasible);
                    }
                }
                Stmt::Assert(e, _) => {
                    if !self.truth(e)? {
                        return Err(Stop::Infeasible);
                    }
                }
                Stmt::Note(_) => {}
                Stmt::Loop(lp) => loop {
                    // The verification conditions check (and then assume) the stated
                    // invariants before the candidates: a state where one is false is not
                    // one Houdini's candidates must hold in.
                    for (inv, _, _) in &lp.invariants {
                        if !self.truth(inv)? {
                            return Err(Stop::Infeasible);
                        }
                    }
                    let p = self.p;
                    for (c, cand) in p.candidates.iter().enumerate() {
                        if self.open[c] && cand.loop_id == lp.id && !self.truth(&cand.expr)? {
                            self.open[c] = false;
                        }
                    }
                    if !self.truth(&lp.cond)? {
                        break;
                    }
                    // (An iteration counts as a step: a loop with an empty body ends too.)
                    self.tick()?;
                    self.block(&lp.body, false)?;
                },
            }
        }
        Ok(())
    }

    /// `A := store(A, i, x)` or `A := ite(c, store(A, i, x), A)`, the form every array write
    /// takes: done in place (copying the array only where another variable shares it), not
    /// by building a new array per write. False if `e` has another form.
    fn store_in_place(&mut self, v: usize, e: &Expr) -> Result<bool, Stop> {
        let this = |x: &Expr| matches!(x, Expr::Var(w) if w.0 as usize == v);
        let (cond, i, x) = match e {
            Expr::Store(a, i, x) if this(a) => (None, i, x),
            Expr::Ite(c, s, b) if this(b) => match &**s {
                Expr::Store(a, i, x) if this(a) => (Some(c), i, x),
                _ => return Ok(false),
            },
            _ => return Ok(false),
        };
        if let Some(c) = cond {
            if !self.truth(c)? {
                return Ok(true);
            }
        }
        let (i, x) = (self.word(i)?, self.word(x)?);
        let Val::A(a) = &mut self.vals[v] else { return Err(Stop::Sort) };
        Rc::make_mut(a).set(i, x);
        Ok(true)
    }

    /// One step of the budget.
    fn tick(&mut self) -> Result<(), Stop> {
        self.steps += 1;
        if self.steps > STEPS || (self.steps % 256 == 0 && Instant::now() >= self.deadline) {
            return Err(Stop::Budget);
        }
        Ok(())
    }

    fn truth(&mut self, e: &Expr) -> Result<bool, Stop> {
        match self.eval(e)? {
            Val::B(b) => Ok(b),
            _ => Err(Stop::Sort),
        }
    }

    fn word(&mut self, e: &Expr) -> Result<u32, Stop> {
        match self.eval(e)? {
            Val::W(w) => Ok(w),
            _ => Err(Stop::Sort),
        }
    }

    fn eval(&mut self, e: &Expr) -> Result<Val, Stop> {
        Ok(match e {
            Expr::Var(v) => {
                if !self.peek {
                    self.fixed[v.0 as usize] = true;
                }
                self.vals[v.0 as usize].clone()
            }
            Expr::Word(w) => Val::W(*w),
            Expr::Bool(b) => Val::B(*b),
            Expr::Bin(op, a, b) => {
                let (a, b) = (self.word(a)?, self.word(b)?);
                Val::W(word_op(*op, a, b))
            }
            Expr::Not(a) => Val::B(!self.truth(a)?),
            Expr::BvNot(a) => Val::W(!self.word(a)?),
            Expr::Neg(a) => Val::W(self.word(a)?.wrapping_neg()),
            Expr::Cmp(op, a, b) => {
                let (a, b) = (self.word(a)?, self.word(b)?);
                Val::B(match op {
                    CmpOp::Ult => a < b,
                    CmpOp::Ule => a <= b,
                    CmpOp::Slt => (a as i32) < (b as i32),
                    CmpOp::Sle => (a as i32) <= (b as i32),
                })
            }
            Expr::Eq(a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                Val::B(a == b)
            }
            Expr::And(xs) => {
                for x in xs {
                    if !self.truth(x)? {
                        return Ok(Val::B(false));
                    }
                }
                Val::B(true)
            }
            Expr::Or(xs) => {
                for x in xs {
                    if self.truth(x)? {
                        return Ok(Val::B(true));
                    }
                }
                Val::B(false)
            }
            Expr::Implies(a, b) => Val::B(!self.truth(a)? || self.truth(b)?),
            Expr::Ite(c, a, b) => {
                if self.truth(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::Select(a, i) => {
                let Val::A(a) = self.eval(a)? else { return Err(Stop::Sort) };
                Val::W(a.get(self.word(i)?))
            }
            Expr::Store(a, i, v) => {
                let Val::A(a) = self.eval(a)? else { return Err(Stop::Sort) };
                let (i, v) = (self.word(i)?, self.word(v)?);
                let mut a = (*a).clone();
                a.set(i, v);
                Val::A(Rc::new(a))
            }
            Expr::ToBool(w) => Val::B(self.word(w)? != 0),
            Expr::ToWord(b) => Val::W(self.truth(b)? as u32),
            Expr::Uf(name, xs) => {
                // One interpretation of the uninterpreted function: a hash of its arguments.
                let mut h = kpl_lang::rng::mix(name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3)));
                for x in xs {
                    h = mix(h ^ self.word(x)? as u64);
                }
                Val::W((h >> 32) as u32)
            }
        })
    }

    /// Make `e` hold by choosing inputs it names that the run has not read yet: `x = e`,
    /// `x < e`, `x <= e`, `e < x`, `e <= x`, `x != e`, conjunctions and implications of
    /// them. Whether it holds is then evaluated again.
    fn repair(&mut self, e: &Expr) -> Result<bool, Stop> {
        let open = |r: &Self, x: &Expr| match x {
            Expr::Var(v) if !r.fixed[v.0 as usize] => Some(v.0 as usize),
            _ => None,
        };
        match e {
            Expr::And(xs) => {
                for x in xs {
                    if !self.truth(x)? && !self.repair(x)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Expr::Implies(a, b) => Ok(!self.truth(a)? || self.truth(b)? || self.repair(b)?),
            Expr::Eq(a, b) => match (open(self, a), open(self, b)) {
                (Some(v), _) => {
                    let x = self.eval(b)?;
                    self.set(v, x)
                }
                (None, Some(v)) => {
                    let x = self.eval(a)?;
                    self.set(v, x)
                }
                _ => Ok(false),
            },
            Expr::Not(x) => match &**x {
                Expr::Eq(a, b) => match open(self, a) {
                    Some(v) => {
                        let Val::W(w) = self.eval(b)? else { return Ok(false) };
                        self.set(v, Val::W(w.wrapping_add(1)))
                    }
                    None => Ok(false),
                },
                Expr::Var(v) if !self.fixed[v.0 as usize] => self.set(v.0 as usize, Val::B(false)),
                _ => Ok(false),
            },
            Expr::Var(v) if !self.fixed[v.0 as usize] && self.p.var(*v).sort == Sort::Bool => self.set(v.0 as usize, Val::B(true)),
            Expr::Cmp(op @ (CmpOp::Ult | CmpOp::Ule), a, b) => {
                let strict = *op == CmpOp::Ult;
                if let Some(v) = open(self, a) {
                    // x < n: uniform below n (x <= n: up to n), or a paired id's value.
                    let n = self.word(b)? as u64 + u64::from(!strict);
                    if n == 0 {
                        return Ok(false);
                    }
                    if let Some(q) = self.partners.get(v).copied().flatten().filter(|q| q.paired(self.pairing)) {
                        if let Val::W(first) = self.vals[q.first] {
                            let x = q.value(first);
                            if (x as u64) < n {
                                return self.set(v, Val::W(x));
                            }
                        }
                    }
                    let x = self.rng.below(n) as u32;
                    return self.set(v, Val::W(x));
                }
                if let Some(v) = open(self, b) {
                    // n < x: uniform above n (n <= x: from n).
                    let lo = self.word(a)? as u64 + u64::from(strict);
                    if lo > u32::MAX as u64 {
                        return Ok(false);
                    }
                    let x = self.rng.range(lo, (lo + 1024).min(u32::MAX as u64)) as u32;
                    return self.set(v, Val::W(x));
                }
                Ok(false)
            }
            _ => Ok(false),
        }
    }

    fn set(&mut self, v: usize, x: Val) -> Result<bool, Stop> {
        if std::mem::discriminant(&self.vals[v]) != std::mem::discriminant(&x) {
            return Err(Stop::Sort);
        }
        self.vals[v] = x;
        self.fixed[v] = true;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seq::{Candidate, Loop, LoopInfo, VarId, VarInfo, WordOp};
    use std::time::Duration;

    fn var(name: &str, sort: Sort) -> VarInfo {
        VarInfo { name: name.into(), sort }
    }

    /// `assume n < 100; i := 0; while i < n { i := i + 2 }` with candidates over `i`.
    fn counting(candidates: Vec<Expr>) -> Program {
        let (n, i) = (Expr::Var(VarId(0)), Expr::Var(VarId(1)));
        let body = vec![
            Stmt::Assume(Expr::Cmp(CmpOp::Ult, Box::new(n.clone()), Box::new(Expr::Word(100)))),
            Stmt::Assign(VarId(1), Expr::Word(0)),
            Stmt::Loop(Loop {
                id: 0,
                cond: Expr::Cmp(CmpOp::Ult, Box::new(i.clone()), Box::new(n)),
                invariants: vec![],
                body: vec![Stmt::Assign(VarId(1), Expr::bin(WordOp::Add, i, Expr::Word(2)))],
                k: 0,
            }),
        ];
        Program {
            vars: vec![var("n", Sort::Word), var("i", Sort::Word)],
            body,
            labels: vec![],
            loops: vec![LoopInfo { span: (0, 0) }],
            candidates: candidates.into_iter().map(|expr| Candidate { loop_id: 0, expr, rule: "test", derived: false }).collect(),
            arrays: vec![],
            inputs: vec![],
            sites: vec![],
        }
    }

    #[test]
    fn candidates_false_in_a_run_are_refuted_and_invariants_are_not() {
        let i = || Expr::Var(VarId(1));
        let n = || Expr::Var(VarId(0));
        let even = Expr::eq(Expr::bin(WordOp::And, i(), Expr::Word(1)), Expr::Word(0));
        let zero = Expr::eq(i(), Expr::Word(0));
        let small = Expr::Cmp(CmpOp::Ult, Box::new(i()), Box::new(Expr::Word(102)));
        let bounded = Expr::Cmp(CmpOp::Ule, Box::new(i()), Box::new(n()));
        let p = counting(vec![even, zero, small, bounded]);
        let got = refute(&p, &[true, true, true, true], Instant::now() + Duration::from_secs(5));
        // `i == 0` fails after one iteration where n > 0; `i <= n` where n is odd. `i` is
        // always even and below 102: those hold in every run.
        assert_eq!(got, vec![false, true, false, true]);
        // A candidate that is off is never reported.
        assert_eq!(refute(&p, &[false, false, false, false], Instant::now() + Duration::from_secs(5)), vec![false; 4]);
    }

    #[test]
    fn writes_to_an_array_leave_an_array_that_shared_it_as_it_was() {
        // A := store(A, 0, 7); B := A; while i < n { A := ite(true, store(A, i, i), A); i += 2 }
        let mut p = counting(vec![]);
        p.vars.push(var("A", Sort::Array));
        p.vars.push(var("B", Sort::Array));
        let (a, b, i) = (|| Expr::Var(VarId(2)), || Expr::Var(VarId(3)), || Expr::Var(VarId(1)));
        p.body.insert(2, Stmt::Assign(VarId(2), Expr::store(a(), Expr::Word(0), Expr::Word(7))));
        p.body.insert(3, Stmt::Assign(VarId(3), a()));
        let Stmt::Loop(lp) = &mut p.body[4] else { panic!() };
        lp.body.insert(0, Stmt::Assign(VarId(2), Expr::ite(Expr::Bool(true), Expr::store(a(), i(), i()), a())));
        let seven = |x: Expr| Expr::eq(Expr::select(x, Expr::Word(0)), Expr::Word(7));
        p.candidates = [seven(a()), seven(b()), Expr::eq(a(), b())]
            .into_iter()
            .map(|expr| Candidate { loop_id: 0, expr, rule: "test", derived: false })
            .collect();
        let got = refute(&p, &[true, true, true], Instant::now() + Duration::from_secs(5));
        // A[0] becomes 0 in the first iteration; B keeps its 7.
        assert_eq!(got, vec![true, false, true]);
    }

    #[test]
    fn a_loop_with_an_empty_body_ends_at_the_budget() {
        let mut p = counting(vec![Expr::eq(Expr::Var(VarId(1)), Expr::Word(0))]);
        let Stmt::Loop(lp) = &mut p.body[2] else { panic!() };
        lp.body.clear();
        lp.cond = Expr::Bool(true);
        // `i == 0` holds at every head: the runs end at their step budgets, refuting nothing.
        assert_eq!(refute(&p, &[true], Instant::now() + Duration::from_secs(60)), vec![false]);
    }

    #[test]
    fn a_false_assumption_ends_a_run_before_the_loop() {
        // `assume false` first: no run reaches the loop, so nothing is refuted.
        let mut p = counting(vec![Expr::eq(Expr::Var(VarId(1)), Expr::Word(0))]);
        p.body.insert(0, Stmt::Assume(Expr::Bool(false)));
        assert_eq!(refute(&p, &[true], Instant::now() + Duration::from_secs(5)), vec![false]);
    }

    #[test]
    fn runs_pair_threads_of_one_group_and_of_one_warp() {
        // 1024 groups of 32 threads: independent ids share a group one run in 1024. The
        // candidates `gid1 != gid2` and `lid1 / 2 != lid2 / 2 or gid1 != gid2` are false
        // only for threads of one group, of one pair of lanes; both are refuted.
        let mut p = counting(vec![]);
        let names = ["lid1.x", "gid1.x", "lid2.x", "gid2.x"];
        for n in names {
            p.inputs.push((n.into(), VarId(p.vars.len() as u32)));
            p.vars.push(var(n, Sort::Word));
        }
        let v = |k: u32| Expr::Var(VarId(2 + k));
        for t in [2, 0] {
            let bounds = Expr::and2(Expr::ult(v(t), Expr::Word(32)), Expr::ult(v(t + 1), Expr::Word(1024)));
            p.body.insert(0, Stmt::Assume(bounds));
        }
        let apart = Expr::not(Expr::eq(v(1), v(3)));
        let lanes = Expr::not(Expr::eq(Expr::bin(WordOp::Lshr, v(0), Expr::Word(1)), Expr::bin(WordOp::Lshr, v(2), Expr::Word(1))));
        let holds = Expr::ult(v(2), Expr::Word(32));
        p.candidates = [apart.clone(), Expr::or2(lanes, apart), holds]
            .into_iter()
            .map(|expr| Candidate { loop_id: 0, expr, rule: "test", derived: false })
            .collect();
        let got = refute(&p, &[true, true, true], Instant::now() + Duration::from_secs(5));
        assert_eq!(got, vec![true, true, false]);
    }
}
