//! GPUVerify's refined atomic abstraction, where it is exact: two threads' atomic
//! additions to one element are serialized, so they return distinct values, provided every
//! atomic on that array adds a positive constant and the sum of all of them cannot wrap
//! (each runs at most once per thread: none in a loop or a procedure). The verifier then
//! assumes that two threads running such an addition on one element got different values
//! (a counter handing out slots: `A[atomic_inc(&count)] = ...`). A plain write between the
//! two additions would race with one of them in their barrier interval; between groups, a
//! plain write anywhere to the array could reset it unseen, so there the assumption needs
//! an array no statement stores to. For such an array it holds across statements too:
//! every value one thread got differs from every value the other got on that element
//! (each addition's thread, element and value are kept for the later ones).

use crate::ast_to_seq::{Builder, Pair};
use crate::seq::{Expr, Sort, Stmt};
use kpl_lang::ast::*;
use kpl_lang::Launch;
use std::collections::BTreeMap;

/// An array whose atomics are all ticket additions: whether no plain store writes it.
pub(crate) type Tickets = BTreeMap<String, bool>;

/// A ticket addition already made, in each thread: whether it ran, its element, its value.
#[derive(Clone)]
pub(crate) struct Taken {
    array: usize,
    ran: Pair,
    elem: Pair,
    value: Pair,
}

/// The arrays whose atomics are all additions of positive constants that cannot wrap.
pub(crate) fn ticket_arrays(k: &Kernel, launch: Launch) -> Tickets {
    // Per array: (additions, largest constant, all of them tickets).
    let mut seen: BTreeMap<String, (u64, u64, bool)> = BTreeMap::new();
    fn walk(b: &Block, in_loop: bool, in_proc: bool, seen: &mut BTreeMap<String, (u64, u64, bool)>) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Atomic(a) => {
                    let e = seen.entry(a.array.name.clone()).or_insert((0, 0, true));
                    let constant = match (a.operation(), a.args.as_slice()) {
                        (AtomicOp::Add, [c]) => match c.kind {
                            ExprKind::Num(n) if n > 0 && n < 1 << 31 => Some(n),
                            _ => None,
                        },
                        _ => None,
                    };
                    match constant {
                        Some(c) if !in_loop && !in_proc => {
                            e.0 += 1;
                            e.1 = e.1.max(c);
                        }
                        _ => e.2 = false,
                    }
                }
                StmtKind::If(_, t, e) => {
                    walk(t, in_loop, in_proc, seen);
                    match e.as_deref() {
                        Some(Else::Block(b)) => walk(b, in_loop, in_proc, seen),
                        Some(Else::If(s)) => walk(&Block { stmts: vec![s.clone()], span: s.span }, in_loop, in_proc, seen),
                        None => {}
                    }
                }
                StmtKind::While { body, .. } => walk(body, true, in_proc, seen),
                _ => {}
            }
        }
    }
    walk(&k.main, false, false, &mut seen);
    for p in &k.procs {
        walk(&p.body, false, true, &mut seen);
    }
    let mut stored = std::collections::BTreeSet::new();
    for b in k.procs.iter().map(|p| &p.body).chain([&k.main]) {
        crate::candidates::walk(b, &mut |s| {
            if let StmtKind::Store(a, _, _) = &s.kind {
                stored.insert(a.name.clone());
            }
        });
    }
    let threads = launch.total_threads() as u128;
    seen.into_iter()
        .filter(|(_, (n, c, all))| *all && threads * (*n as u128) * (*c as u128) < 1u128 << 32)
        .map(|(a, _)| {
            let unstored = !stored.contains(&a);
            (a, unstored)
        })
        .collect()
}

impl Builder<'_> {
    /// After a ticket addition to array `k` at `idx` giving `olds`: two distinct threads
    /// that both ran it on one element got different values (within a group; between
    /// groups only if no statement stores to the array).
    pub(crate) fn ticket(&mut self, at: &Atomic, k: usize, idx: &Pair, olds: &Pair, p: &Pair) {
        let Some(&unstored) = self.tickets.get(&at.array.name) else { return };
        // The races that rule out a plain write in between must be checked (for a global
        // array, between groups too).
        let shared = self.prog.arrays[k].shared;
        if !unstored && (!self.race_checked(k) || (!shared && self.cfg.only_intra_group)) {
            return;
        }
        let mut both = vec![p[0].clone(), p[1].clone(), self.distinct.clone(), Expr::eq(idx[0].clone(), idx[1].clone())];
        if shared || !unstored {
            both.push(self.same_group.clone());
        }
        let differ = Expr::not(Expr::eq(olds[0].clone(), olds[1].clone()));
        self.emit(Stmt::Assume(Expr::implies(Expr::and(both), differ)));
        if !unstored {
            return;
        }
        // Against every earlier ticket addition on the array, both ways round.
        let keep = |b: &mut Self, e: &Expr, name: &str, sort: Sort| {
            let v = b.var(name, sort);
            b.assign(v, e.clone());
            Expr::Var(v)
        };
        let now = Taken {
            array: k,
            ran: [keep(self, &p[0], "ticket_ran", Sort::Bool), keep(self, &p[1], "ticket_ran", Sort::Bool)],
            elem: [keep(self, &idx[0], "ticket_elem", Sort::Word), keep(self, &idx[1], "ticket_elem", Sort::Word)],
            value: olds.clone(),
        };
        for before in self.taken.clone().into_iter().filter(|t| t.array == k) {
            for (a, b) in [(&before, &now), (&now, &before)] {
                let mut both = vec![a.ran[0].clone(), b.ran[1].clone(), self.distinct.clone()];
                both.push(Expr::eq(a.elem[0].clone(), b.elem[1].clone()));
                if shared {
                    both.push(self.same_group.clone());
                }
                let differ = Expr::not(Expr::eq(a.value[0].clone(), b.value[1].clone()));
                self.emit(Stmt::Assume(Expr::implies(Expr::and(both), differ)));
            }
        }
        self.taken.push(now);
    }
}
