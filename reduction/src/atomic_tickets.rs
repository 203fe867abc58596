//! GPUVerify's refined atomic abstraction: two threads' atomic additions to one element are
//! serialized, so they return distinct values, provided every atomic on that array adds a
//! positive constant and the sum of all of them does not wrap. Where each runs at most
//! once per thread (none in a loop or a procedure) kpl proves that sum below 2^32 from the
//! launch; where it cannot, it assumes it as GPUVerify does, and the verdict says so
//! (`wrap_assumed`).
//!
//! Each value of an element is then handed out once, to one thread, so the verifier names
//! its owner: uninterpreted functions of the array, the element and the value whose
//! results are the owner's ids, and each addition assumes its thread owns the value it
//! got. Two distinct threads never got one value, in any iterations. KPL's `taken(A, i,
//! v)` (what GPUVerify's `__atomic_has_taken_value` lowers to) is "this thread owns `v` of
//! `A[i]`", which a loop invariant can carry (`written(B) => taken(C, 0, write_index(B))`,
//! also a Houdini candidate). A `shared` counter's key has the group. A counter that a
//! plain store also writes (reset before a barrier) may hand a value out again after the
//! store: its key has the group and the number of synchronisations passed (`epoch`), since
//! a store and an addition between the same two barriers race, which is reported (the
//! assumption is made only where that race is checked).

use crate::builder::{Builder, Pair, Tickets};
use crate::seq::{Expr, Stmt};
use kpl_lang::Launch;
use kpl_lang::ast::*;
use std::collections::BTreeMap;

/// What the additions to one array are.
struct Additions {
    /// How many statements add, and the largest constant added.
    count: u64,
    largest: u64,
    /// Every atomic on the array adds a positive constant.
    all: bool,
    /// Some addition runs in a loop or a procedure (any number of times).
    repeated: bool,
    /// Some addition's result is used (kept in a local).
    used: bool,
}

/// Per array with atomics: its additions, and whether no plain store (nor unknown write)
/// writes it.
fn additions(k: &Kernel) -> BTreeMap<String, (Additions, bool)> {
    let mut seen: BTreeMap<String, Additions> = BTreeMap::new();
    fn walk(b: &Block, repeated: bool, seen: &mut BTreeMap<String, Additions>) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Atomic(a) => {
                    let e = seen.entry(a.array.name.clone()).or_insert(Additions {
                        count: 0,
                        largest: 0,
                        all: true,
                        repeated: false,
                        used: false,
                    });
                    match (a.operation(), a.args.as_slice()) {
                        // A `group` atomic serializes only its own group's additions: two
                        // groups' may return one value.
                        _ if !a.scope.device_wide() => e.all = false,
                        // Only one-word additions hand out values (a byte atomic's value
                        // spans four elements).
                        (AtomicOp::Add, [c]) if a.shape() == kpl_lang::ast::AtomicShape::WORD => match c.kind {
                            ExprKind::Num(n) if n > 0 && n < 1 << 31 => {
                                e.count += 1;
                                e.largest = e.largest.max(n);
                                e.repeated |= repeated;
                                e.used |= a.dest.is_some();
                            }
                            _ => e.all = false,
                        },
                        _ => e.all = false,
                    }
                }
                StmtKind::If(_, t, e) => {
                    walk(t, repeated, seen);
                    match e.as_deref() {
                        Some(Else::Block(b)) => walk(b, repeated, seen),
                        Some(Else::If(s)) => walk(&Block { stmts: vec![s.clone()], span: s.span }, repeated, seen),
                        None => {}
                    }
                }
                StmtKind::While { body, .. } => walk(body, true, seen),
                _ => {}
            }
        }
    }
    walk(&k.main, false, &mut seen);
    for p in &k.procs {
        walk(&p.body, true, &mut seen);
    }
    let mut stored = std::collections::BTreeSet::new();
    for b in k.procs.iter().map(|p| &p.body).chain([&k.main]) {
        // A plain store, or a specification function's unknown writes (`havoc writes`).
        crate::kernel_walk::walk(b, &mut |s| match &s.kind {
            StmtKind::Store(a, _, _) | StmtKind::Touch { array: a, write: true } => {
                stored.insert(a.name.clone());
            }
            _ => {}
        });
    }
    seen.into_iter().map(|(a, adds)| {
        let unstored = !stored.contains(&a);
        (a, (adds, unstored))
    }).collect()
}

/// Whether the additions to an array cannot wrap: each runs at most once per thread, and
/// all of them together stay below 2^32.
fn bounded(adds: &Additions, launch: Launch) -> bool {
    let threads = launch.total_threads() as u128;
    !adds.repeated && threads * (adds.count as u128) * (adds.largest as u128) < 1u128 << 32
}

/// The arrays whose atomics are all additions of positive constants, some of whose values
/// are used.
pub(crate) fn ticket_arrays(k: &Kernel) -> Tickets {
    additions(k)
        .into_iter()
        .filter(|(_, (adds, _))| adds.all && adds.used)
        .map(|(a, (_, unstored))| (a, unstored))
        .collect()
}

/// The arrays whose additions kpl assumes never wrap around (GPUVerify's assumption): the
/// ticket arrays whose additions' sum the launch does not bound (some run in a loop or a
/// procedure).
pub fn wrap_assumed(k: &Kernel, launch: Launch) -> Vec<String> {
    additions(k)
        .into_iter()
        .filter(|(_, (adds, _))| adds.all && adds.used && !bounded(adds, launch))
        .map(|(a, _)| a)
        .collect()
}

/// The owner functions: for a global counter no statement stores to, the owner's group
/// and local ids; for any other (whose key has the group) its local ids.
const OWNER: [&str; 6] = ["ticket_owner_lid.x", "ticket_owner_lid.y", "ticket_owner_lid.z", "ticket_owner_gid.x", "ticket_owner_gid.y", "ticket_owner_gid.z"];

impl Builder<'_> {
    /// A counter that a plain store also writes: what it hands out is told apart by the
    /// synchronisations passed (`epoch`).
    fn stored(&self, k: usize) -> bool {
        self.tickets.get(&self.prog.arrays[k].name) == Some(&false)
    }

    /// The epoch variable, when some ticket counter is also stored to.
    pub(crate) fn epoch_prelude(&mut self) {
        if self.tickets.values().any(|unstored| !unstored) {
            let v = self.var("ticket_epoch", crate::seq::Sort::Word);
            self.assign(v, Expr::Word(0));
            self.epoch = Some(v);
        }
    }

    /// After a barrier or a warp's synchronisation: a store to a counter before it and
    /// an addition after it are ordered, so the counter may hand a value out again.
    pub(crate) fn next_epoch(&mut self) {
        if let Some(v) = self.epoch {
            self.assign(v, Expr::bin(crate::seq::WordOp::Add, Expr::Var(v), Expr::Word(1)));
        }
    }

    /// Thread `t` owns value `v` of element `i` of array `k`.
    pub(crate) fn owns(&self, k: usize, t: usize, i: Expr, v: Expr) -> Expr {
        let stored = self.stored(k);
        let per_group = self.prog.arrays[k].shared || stored;
        let mut key = vec![Expr::Word(k as u32), i, v];
        if let (true, Some(e)) = (stored, self.epoch) {
            key.push(Expr::Var(e));
        }
        if per_group {
            key.extend(self.gid[t].iter().cloned());
        }
        let ids = self.lid[t].iter().chain(if per_group { [].iter() } else { self.gid[t].iter() });
        Expr::and(ids.zip(OWNER).map(|(id, f)| Expr::eq(Expr::Uf(f, key.clone()), id.clone())).collect())
    }

    /// After a ticket addition to array `k` at `idx` giving `olds`: each thread that ran
    /// it owns the value it got. For a counter a plain store also writes, only within the
    /// group and the epoch, and only where the races that rule out a store between two
    /// additions are checked (within the group; for a global counter between groups too).
    pub(crate) fn ticket(&mut self, at: &Atomic, k: usize, idx: &Pair, olds: &Pair, p: &Pair) {
        if !self.tickets.contains_key(&at.array.name) || at.dest.is_none() {
            return;
        }
        if self.stored(k) {
            let shared = self.prog.arrays[k].shared;
            if !self.race_checked(k) || self.cfg.only_divergence || (!shared && self.cfg.only_intra_group) {
                return;
            }
        }
        for t in 0..2 {
            let owns = self.owns(k, t, idx[t].clone(), olds[t].clone());
            self.emit(Stmt::Assume(Expr::implies(p[t].clone(), owns)));
        }
        self.owned.push((k, idx[0].clone()));
    }
}

impl Builder<'_> {
    /// Candidates for a loop whose body (`body`) made the ticket additions `owned[since..]`
    /// and changes the variables `changed`: what thread 1 logged of an array is at a value
    /// it owns (`B[atomic_inc(&c)] = ...` in a loop), or that value moved by an offset the
    /// loop does not change (`B[blockIdx.x * cap + atomicAdd(&c[blockIdx.x], 1)]`), for each
    /// counter element the loop does not move (`&c`, `&c[blockIdx.x]`).
    pub(crate) fn ticket_candidates(&mut self, loop_id: usize, since: usize, body: &[Stmt], changed: &std::collections::BTreeSet<crate::seq::VarId>) {
        let fixed = |e: &Expr| {
            let mut moves = false;
            e.vars(&mut |v| moves |= changed.contains(&v));
            !moves
        };
        let mut counters: Vec<(usize, Expr)> = Vec::new();
        for (k, e) in &self.owned[since..] {
            if fixed(e) && !counters.contains(&(*k, e.clone())) {
                counters.push((*k, e.clone()));
            }
        }
        // The offsets of the indices each log takes in the loop.
        let mut offsets: Vec<(crate::seq::VarId, Expr)> = Vec::new();
        logged_indices(body, &mut |elem, idx| {
            if let Expr::Bin(crate::seq::WordOp::Add, a, b) = idx {
                for (d, _) in [(a, b), (b, a)] {
                    if fixed(d) && !offsets.contains(&(elem, (**d).clone())) {
                        offsets.push((elem, (**d).clone()));
                    }
                }
            }
        });
        for (k, e) in counters {
            for (j, inst) in self.inst.clone().into_iter().enumerate() {
                if j == k {
                    continue;
                }
                for (exists, elem) in [(inst.wr_exists, inst.wr_elem), (inst.rd_exists, inst.rd_elem)] {
                    if !changed.contains(&exists) {
                        continue;
                    }
                    let mut values = vec![Expr::Var(elem)];
                    for (_, d) in offsets.iter().filter(|(v, _)| *v == elem) {
                        let value = Expr::bin(crate::seq::WordOp::Sub, Expr::Var(elem), d.clone());
                        // A partition of the array (`b * cap + slot`, the slot checked
                        // below `cap`): the slot stays in its part.
                        if let Expr::Bin(crate::seq::WordOp::Mul, _, c) = d {
                            if let Expr::Word(_) = **c {
                                let inside = Expr::implies(Expr::Var(exists), Expr::ult(value.clone(), (**c).clone()));
                                self.prog.candidates.push(crate::seq::Candidate { loop_id, expr: inside, rule: "logged in its part of a partitioned array", derived: false });
                            }
                        }
                        values.push(value);
                    }
                    for value in values {
                        let owns = self.owns(k, 0, e.clone(), value);
                        let expr = Expr::implies(Expr::Var(exists), owns);
                        // Within the group alone, where another group's log outlives the
                        // epoch (a counter a store resets).
                        let in_group = Expr::implies(self.same_group.clone(), expr.clone());
                        for expr in [expr, in_group] {
                            self.prog.candidates.push(crate::seq::Candidate { loop_id, expr, rule: "logged at a value an atomic counter gave", derived: false });
                        }
                    }
                }
            }
        }
    }
}

/// Each index a log's element variable takes in `body` (`elem := ite(sel, idx, elem)`),
/// nested loops included.
fn logged_indices(body: &[Stmt], f: &mut dyn FnMut(crate::seq::VarId, &Expr)) {
    for st in body {
        match st {
            Stmt::Assign(v, Expr::Ite(_, idx, old)) if **old == Expr::Var(*v) => f(*v, idx),
            Stmt::Loop(l) => logged_indices(&l.body, f),
            _ => {}
        }
    }
}
