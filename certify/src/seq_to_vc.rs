//! Sequential program ─► verification conditions. Loops are cut at their invariants
//! (checked on entry, assumed after havocking what the loop changes, checked again after
//! the body), then the loop-free program is put in SSA form: every assignment defines a
//! fresh symbol and every assume or assert extends a "reach" condition. Because the cut
//! program forks only where a loop body ends (`assume false`), there are no joins, and
//! every definition is one equation. An assertion fails when `reach ∧ ¬A` is satisfiable
//! together with the definitions; later assertions are checked assuming earlier ones hold.
//! (K-induction, `--k-induction-depth`, joins its base case and its step after the loop.)
//! Candidate invariants are guarded by a boolean `h!c` each, so Houdini can switch them off
//! by solver assumptions.

use crate::vc::{Sort, Terms, Vc};
use egg::Id;
use kpl_reduction::candidates::modified_vars;
use kpl_reduction::seq::{CmpOp, Expr, Program, Stmt, WordOp};
use std::collections::BTreeSet;

/// One assertion: its failure condition, the disjunction of its sites' (a label is checked
/// at more than one place when k-induction copies a loop body).
#[derive(Clone, Debug)]
pub struct Check {
    pub fail: Id,
    pub sites: Vec<CheckSite>,
}

/// One place a label is checked: its failure condition there and the SSA version of every
/// variable there.
#[derive(Clone, Debug)]
pub struct CheckSite {
    pub fail: Id,
    pub env: Vec<Id>,
    /// The label's subject (an index) at this point.
    pub subject: Option<Id>,
}

/// A read of an array element, as terms at the point of the read (for witnesses).
#[derive(Clone, Debug)]
pub struct NoteTerms {
    pub array: String,
    pub thread: u8,
    pub index: Id,
    pub value: Id,
    pub active: Id,
    pub initial: bool,
    pub shared: bool,
}

/// The boolean that switches candidate invariant `i` on (Houdini keeps it) or off.
pub fn guard_symbol(i: usize) -> String {
    format!("h!{i}")
}

pub struct Encoding {
    pub terms: Terms,
    /// `symbol = term` for every SSA definition.
    pub defs: Vec<(Id, Id)>,
    /// By label index (`None` if the label was never reached by the encoder).
    pub checks: Vec<Option<Check>>,
    /// By candidate index: its guard `h!c` and its failure conditions (entry, preservation).
    pub guards: Vec<Id>,
    pub candidate_fails: Vec<Vec<Id>>,
    pub notes: Vec<NoteTerms>,
    /// Thread ids and params (their symbols never change).
    pub inputs: Vec<(String, Id)>,
}

struct Enc<'p> {
    p: &'p Program,
    t: Terms,
    defs: Vec<(Id, Id)>,
    cur: Vec<Id>,
    versions: Vec<u32>,
    reach: Id,
    reach_n: u32,
    checks: Vec<Option<Check>>,
    guards: Vec<Id>,
    cfails: Vec<Vec<Id>>,
    notes: Vec<NoteTerms>,
    /// Inside the iterations k-induction assumes: assertions and candidates are assumed,
    /// not checked.
    assumed: u32,
}

pub fn encode(p: &Program) -> Encoding {
    let mut t = Terms::default();
    let cur: Vec<Id> = p.vars.iter().map(|v| t.var(&v.name, v.sort)).collect();
    let guards = (0..p.candidates.len()).map(|i| t.var(&guard_symbol(i), Sort::Bool)).collect();
    let reach = t.bool(true);
    let mut e = Enc {
        p,
        t,
        defs: Vec::new(),
        cur,
        versions: vec![0; p.vars.len()],
        reach,
        reach_n: 0,
        checks: vec![None; p.labels.len()],
        guards,
        cfails: vec![Vec::new(); p.candidates.len()],
        notes: Vec::new(),
        assumed: 0,
    };
    e.stmts(&p.body);
    let inputs = p.inputs.iter().map(|(n, v)| (n.clone(), e.cur_initial(*v))).collect();
    Encoding {
        terms: e.t,
        defs: e.defs,
        checks: e.checks,
        guards: e.guards,
        candidate_fails: e.cfails,
        notes: e.notes,
        inputs,
    }
}

impl Enc<'_> {
    fn cur_initial(&mut self, v: kpl_reduction::seq::VarId) -> Id {
        let info = self.p.var(v);
        self.t.var(&info.name, info.sort)
    }

    fn fresh(&mut self, v: kpl_reduction::seq::VarId) -> Id {
        let i = v.0 as usize;
        self.versions[i] += 1;
        let info = self.p.var(v);
        let name = format!("{}@{}", info.name, self.versions[i]);
        self.t.var(&name, info.sort)
    }

    /// Extend the reach condition with `c` (a fresh symbol keeps terms flat).
    fn extend(&mut self, c: Id) {
        if let Vc::Bool(true) = self.t.node(c) {
            return;
        }
        let r = self.t.and(self.reach, c);
        self.reach_n += 1;
        let s = self.t.var(&format!("reach@{}", self.reach_n), Sort::Bool);
        self.defs.push((s, r));
        self.reach = s;
    }

    fn term(&mut self, e: &Expr) -> Id {
        match e {
            Expr::Var(v) => self.cur[v.0 as usize],
            Expr::Word(w) => self.t.word(*w),
            Expr::Bool(b) => self.t.bool(*b),
            Expr::Bin(op, a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                let n = match op {
                    WordOp::Add => Vc::Add([a, b]),
                    WordOp::Sub => Vc::Sub([a, b]),
                    WordOp::Mul => Vc::Mul([a, b]),
                    WordOp::Udiv => Vc::Udiv([a, b]),
                    WordOp::Urem => Vc::Urem([a, b]),
                    WordOp::Sdiv => Vc::Sdiv([a, b]),
                    WordOp::Srem => Vc::Srem([a, b]),
                    WordOp::Shl => Vc::Shl([a, b]),
                    WordOp::Lshr => Vc::Lshr([a, b]),
                    WordOp::Ashr => Vc::Ashr([a, b]),
                    WordOp::And => Vc::BvAnd([a, b]),
                    WordOp::Or => Vc::BvOr([a, b]),
                    WordOp::Xor => Vc::BvXor([a, b]),
                };
                self.t.add(n)
            }
            Expr::Not(a) => {
                let a = self.term(a);
                self.t.not(a)
            }
            Expr::BvNot(a) => {
                let a = self.term(a);
                self.t.add(Vc::BvNot([a]))
            }
            Expr::Neg(a) => {
                let a = self.term(a);
                self.t.add(Vc::Neg([a]))
            }
            Expr::Cmp(op, a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                self.t.add(match op {
                    CmpOp::Ult => Vc::Ult([a, b]),
                    CmpOp::Ule => Vc::Ule([a, b]),
                    CmpOp::Slt => Vc::Slt([a, b]),
                    CmpOp::Sle => Vc::Sle([a, b]),
                })
            }
            Expr::Eq(a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                if a == b {
                    return self.t.bool(true);
                }
                self.t.add(Vc::Eq([a, b]))
            }
            Expr::And(xs) => {
                let mut acc = self.t.bool(true);
                for x in xs {
                    let x = self.term(x);
                    acc = self.t.and(acc, x);
                }
                acc
            }
            Expr::Or(xs) => {
                let mut acc = self.t.bool(false);
                for x in xs {
                    let x = self.term(x);
                    acc = self.t.or(acc, x);
                }
                acc
            }
            Expr::Implies(a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                self.t.implies(a, b)
            }
            Expr::Ite(c, a, b) => {
                let (c, a, b) = (self.term(c), self.term(a), self.term(b));
                match self.t.node(c) {
                    Vc::Bool(true) => a,
                    Vc::Bool(false) => b,
                    _ if a == b => a,
                    _ => self.t.add(Vc::Ite([c, a, b])),
                }
            }
            Expr::Select(a, i) => {
                let (a, i) = (self.term(a), self.term(i));
                self.t.add(Vc::Select([a, i]))
            }
            Expr::Store(a, i, v) => {
                let (a, i, v) = (self.term(a), self.term(i), self.term(v));
                self.t.add(Vc::Store([a, i, v]))
            }
            Expr::ToBool(w) => {
                let w = self.term(w);
                let z = self.t.word(0);
                let eq = self.t.add(Vc::Eq([w, z]));
                self.t.not(eq)
            }
            Expr::Uf(name, xs) => {
                let args: Vec<Id> = xs.iter().map(|x| self.term(x)).collect();
                self.t.add(Vc::App(egg::Symbol::from(*name), args))
            }
            Expr::ToWord(b) => {
                let b = self.term(b);
                match self.t.node(b) {
                    Vc::Bool(v) => {
                        let v = *v as u32;
                        self.t.word(v)
                    }
                    _ => {
                        let (one, zero) = (self.t.word(1), self.t.word(0));
                        self.t.add(Vc::Ite([b, one, zero]))
                    }
                }
            }
        }
    }

    fn stmts(&mut self, body: &[Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn check(&mut self, label: usize, cond: Id) {
        let perf = matches!(self.p.labels[label].kind, kpl_reduction::seq::LabelKind::Perf { .. });
        if self.assumed == 0 {
            let bad = self.t.not(cond);
            let fail = self.t.and(self.reach, bad);
            let subject = self.p.labels[label].subject.clone().map(|e| self.term(&e));
            let site = CheckSite { fail, env: self.cur.clone(), subject };
            match &mut self.checks[label] {
                Some(c) => {
                    c.fail = self.t.or(c.fail, fail);
                    c.sites.push(site);
                }
                None => self.checks[label] = Some(Check { fail, sites: vec![site] }),
            }
        }
        // A performance check does not stop the execution it fails in: every later access
        // is judged on its own (a correctness check is assumed afterwards, as in Boogie).
        if !perf {
            self.extend(cond);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Assign(v, e) => {
                let t = self.term(e);
                if matches!(self.t.node(t), Vc::Word(_) | Vc::Bool(_) | Vc::Var(_)) {
                    self.cur[v.0 as usize] = t;
                } else {
                    let sym = self.fresh(*v);
                    self.defs.push((sym, t));
                    self.cur[v.0 as usize] = sym;
                }
            }
            Stmt::Havoc(v) => {
                let sym = self.fresh(*v);
                self.cur[v.0 as usize] = sym;
            }
            Stmt::Assume(e) => {
                let c = self.term(e);
                self.extend(c);
            }
            Stmt::Assert(e, l) => {
                let c = self.term(e);
                self.check(*l, c);
            }
            Stmt::Note(_) if self.assumed > 0 => {}
            Stmt::Note(n) => {
                let (index, value, active) = (self.term(&n.index), self.term(&n.value), self.term(&n.enabled));
                let active = self.t.and(self.reach, active);
                self.notes.push(NoteTerms {
                    array: n.array.clone(),
                    thread: n.thread,
                    index,
                    value,
                    active,
                    initial: n.initial,
                    shared: n.shared,
                });
            }
            Stmt::Loop(lp) if lp.k > 0 => self.k_induction(lp),
            Stmt::Loop(lp) => {
                let cands: Vec<usize> =
                    (0..self.p.candidates.len()).filter(|&c| self.p.candidates[c].loop_id == lp.id).collect();
                // On entry: user invariants and guarded candidates must hold.
                self.head(lp, &cands, true);
                // Cut: havoc what the loop changes, assume the invariants.
                self.havoc_modified(&lp.body);
                self.assumed += 1;
                self.head(lp, &cands, false);
                self.assumed -= 1;
                let head_cur = self.cur.clone();
                let head_reach = self.reach;
                let cond = self.term(&lp.cond);
                // One iteration from an arbitrary state satisfying the invariants.
                self.extend(cond);
                self.stmts(&lp.body);
                self.head(lp, &cands, false);
                // After the loop: the head state with the condition false.
                self.cur = head_cur;
                self.reach = head_reach;
                let exit = self.t.not(cond);
                self.extend(exit);
            }
        }
    }

    /// A loop proved by k-induction (Boogie's combined-case rule, as GPUVerify's
    /// `--k-induction-depth=K` uses it). Base case: K iterations from the entry, each head's
    /// invariants and each body's checks checked. The loop body is predicated (an iteration
    /// changes nothing for a thread that has left the loop but loop-local flags, which
    /// nothing after the loop reads), so its copies need no branch: an execution that left
    /// within K iterations is the base case's. Step: from any state, K iterations that run
    /// (the loop condition holds at their heads) and whose heads satisfy the invariants and
    /// whose checks are assumed; then the head's invariants checked, and one more iteration
    /// checked (its end cut) or the exit. After the loop: the base case's state if the loop
    /// condition fails after it, else the step's exit.
    fn k_induction(&mut self, lp: &kpl_reduction::seq::Loop) {
        let cands: Vec<usize> = (0..self.p.candidates.len()).filter(|&c| self.p.candidates[c].loop_id == lp.id).collect();
        let (entry_cur, entry_reach) = (self.cur.clone(), self.reach);
        for _ in 0..lp.k {
            self.head(lp, &cands, true);
            self.stmts(&lp.body);
        }
        let base_cond = self.term(&lp.cond);
        let base_cur = std::mem::replace(&mut self.cur, entry_cur);
        let base_reach = std::mem::replace(&mut self.reach, entry_reach);
        self.havoc_modified(&lp.body);
        self.assumed += 1;
        for _ in 0..lp.k {
            self.head(lp, &cands, false);
            let c = self.term(&lp.cond);
            self.extend(c);
            self.stmts(&lp.body);
        }
        self.assumed -= 1;
        self.head(lp, &cands, false);
        let head_cur = self.cur.clone();
        let head_reach = self.reach;
        let cond = self.term(&lp.cond);
        self.extend(cond);
        self.stmts(&lp.body);
        self.cur = head_cur;
        self.reach = head_reach;
        let exit = self.t.not(cond);
        self.extend(exit);
        // The join: the base case's state where the loop ended within it.
        let left = self.t.not(base_cond);
        for v in 0..self.cur.len() {
            if base_cur[v] != self.cur[v] {
                let t = self.t.add(Vc::Ite([left, base_cur[v], self.cur[v]]));
                let sym = self.fresh(kpl_reduction::seq::VarId(v as u32));
                self.defs.push((sym, t));
                self.cur[v] = sym;
            }
        }
        let by_base = self.t.and(left, base_reach);
        let by_step = self.t.and(base_cond, self.reach);
        let r = self.t.or(by_base, by_step);
        self.reach_n += 1;
        let s = self.t.var(&format!("reach@{}", self.reach_n), Sort::Bool);
        self.defs.push((s, r));
        self.reach = s;
    }

    /// A fresh symbol for every variable a loop body changes.
    fn havoc_modified(&mut self, body: &[Stmt]) {
        let mut modified = BTreeSet::new();
        modified_vars(body, &mut modified);
        for v in modified {
            let sym = self.fresh(v);
            self.cur[v.0 as usize] = sym;
        }
    }

    /// A loop head: its invariants (under their `entry` or preservation labels) and its
    /// candidates checked, then assumed.
    fn head(&mut self, lp: &kpl_reduction::seq::Loop, cands: &[usize], entry: bool) {
        for (inv, on_entry, kept) in &lp.invariants {
            let c = self.term(inv);
            self.check(if entry { *on_entry } else { *kept }, c);
        }
        for &c in cands {
            self.candidate(c);
        }
    }

    /// Check candidate `c` here (guarded by `h!c`), then assume it (guarded); only assume
    /// it in the iterations k-induction assumes.
    fn candidate(&mut self, c: usize) {
        let e = self.term(&self.p.candidates[c].expr);
        let g = self.guards[c];
        if self.assumed == 0 {
            let bad = self.t.not(e);
            let r = self.t.and(self.reach, g);
            let fail = self.t.and(r, bad);
            self.cfails[c].push(fail);
        }
        let ok = self.t.implies(g, e);
        self.extend(ok);
    }
}
