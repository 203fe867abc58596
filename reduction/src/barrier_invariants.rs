//! Barrier invariants (GPUVerify's `__barrier_invariant_N`, Chong et al., OOPSLA 2013) in
//! the two-thread program: at the barrier thread 1 must satisfy each invariant in its own
//! view of memory (a binary one with thread 2 of its group), may read only elements it
//! accessed since the previous barrier (the access check, unless turned off), and every
//! local the invariant uses must be equal in both threads of a group; after the barrier's
//! havoc each thread may assume the invariant with `lid.x` replaced by each instantiation.
//!
//! An invariant speaks of the memory the barrier establishes. The verifier reads an element
//! in the copy of a thread that accessed it since the previous barrier (in a race-free
//! execution that copy holds the element's value at the barrier): elements indexed by
//! thread 2's values alone (`A[other(lid)]`) in thread 2's copy, any other in thread 1's.
//! The access check makes sure that thread did access it, with GPUVerify's device: per
//! thread and array an arbitrary index `na` it has not accessed, chosen afresh at each
//! barrier (every access assumes `na != index`), so `na != i` holds for every choice exactly
//! when the thread accessed element `i`.

use crate::builder::{Builder, Pair};
use crate::kernel_walk::walk;
use crate::seq::*;
use kpl_lang::ast::{self, Builtin, ExprKind};
use kpl_lang::partner::{is_other, localize_reads, other};

impl Builder<'_> {
    /// The not-accessed indices of every array a barrier invariant reads (when access
    /// checks are on), created with the arrays.
    pub(crate) fn declare_not_accessed(&mut self) {
        let mut read = std::collections::BTreeSet::new();
        for b in self.kernel.procs.iter().map(|p| &p.body).chain([&self.kernel.main]) {
            walk(b, &mut |s| {
                if let ast::StmtKind::Barrier(f) = &s.kind {
                    f.invariants.iter().for_each(|i| read.extend(reads_of(&i.expr).into_iter().map(|a| a.name)));
                }
            });
        }
        self.not_accessed = vec![None; self.prog.arrays.len()];
        if !self.cfg.barrier_access_checks {
            return;
        }
        for k in 0..self.prog.arrays.len() {
            let name = self.prog.arrays[k].name.clone();
            if read.contains(&name) {
                let v = self.pair(&format!("{name}_not_accessed"), Sort::Word);
                self.emit(Stmt::Havoc(v[0]));
                self.emit(Stmt::Havoc(v[1]));
                self.not_accessed[k] = Some(v);
            }
        }
    }

    /// Each thread accesses element `idx[t]` of array `k` (where `p[t]` holds).
    pub(crate) fn note_access(&mut self, k: usize, idx: &Pair, p: &Pair) {
        if let Some(na) = self.not_accessed.get(k).copied().flatten() {
            for t in 0..2 {
                let fresh = Expr::not(Expr::eq(Expr::Var(na[t]), idx[t].clone()));
                self.emit(Stmt::Assume(Expr::implies(p[t].clone(), fresh)));
            }
        }
    }

    /// Does every array `e` reads have per-thread copies (the equality abstraction)?
    fn has_contents(&self, e: &ast::Expr) -> bool {
        reads_of(e).iter().all(|a| self.copies[self.array_of(a)].is_some())
    }

    /// Before the barrier: each invariant checked for thread 1, with what it reads and the
    /// locals it names.
    pub(crate) fn check_barrier_invariants(&mut self, fence: &ast::Fence, p: &Pair) {
        let holds_label = LabelKind::BarrierInvariant(BarrierCheck::Holds);
        for inv in &fence.invariants {
            let text = format!("barrier invariant {}", kpl_lang::printer::print_expr(&inv.expr));
            if !self.has_contents(&inv.expr) {
                // An array abstracted adversarially has no contents to check it against.
                self.assert(Expr::not(p[0].clone()), holds_label.clone(), inv.span, text);
                continue;
            }
            let localized = localize_reads(&inv.expr);
            self.enabled = Some(p.clone());
            let holds = Expr::to_bool(self.expr(&localized, 0));
            self.enabled = None;
            let guard = if inv.binary() { Expr::and2(self.same_group.clone(), p[0].clone()) } else { p[0].clone() };
            self.assert(Expr::implies(guard.clone(), holds), holds_label.clone(), inv.span, text);
            if self.cfg.barrier_access_checks {
                let mut reads = Vec::new();
                collect_reads(&localized, Vec::new(), false, &mut reads);
                for (a, i, path, in_other) in reads {
                    let Some(na) = self.not_accessed[self.array_of(a)] else { continue };
                    // A read in thread 2's copy: only where the pair is one group.
                    let t = in_other as usize;
                    let mut allowed = Expr::not(Expr::eq(Expr::Var(na[t]), self.expr(i, t)));
                    if in_other {
                        allowed = Expr::and2(self.same_group.clone(), allowed);
                    }
                    let path = Expr::and(path.iter().map(|c| Expr::to_bool(self.expr(c, 0))).collect());
                    let what = format!(
                        "barrier invariant reads {}[{}], which the thread may not have accessed since the last barrier",
                        a.name,
                        kpl_lang::printer::print_expr(i)
                    );
                    let label = LabelKind::BarrierInvariant(BarrierCheck::Access);
                    self.assert(Expr::implies(Expr::and2(guard.clone(), path), allowed), label, a.span, what);
                }
            }
            // The instantiations keep a thread's other values: those must be uniform.
            let both = Expr::and(vec![self.same_group.clone(), p[0].clone(), p[1].clone()]);
            for x in locals_of(&inv.expr) {
                if let Some(v) = self.lookup(&x.name) {
                    let what = format!("barrier invariant uses `{}`, which may differ between the threads of a group", x.name);
                    let same = Expr::eq(Expr::Var(v[0]), Expr::Var(v[1]));
                    self.assert(Expr::implies(both.clone(), same), LabelKind::BarrierInvariant(BarrierCheck::Uniform), x.span, what);
                }
            }
        }
    }

    /// After the barrier's havoc: each invariant assumed at each instantiation, by each
    /// thread in its copy (only where the barrier orders every array it reads: a copy the
    /// barrier leaves alone is the thread's own view, not the one the invariant held in);
    /// then every not-accessed index chosen afresh.
    pub(crate) fn assume_barrier_invariants(&mut self, fence: &ast::Fence, p: &Pair) {
        let size = Expr::Word(self.cfg.launch.threads[0]);
        for inv in &fence.invariants {
            let ordered = reads_of(&inv.expr).iter().all(|a| {
                let shared = self.prog.arrays[self.array_of(a)].shared;
                matches!(fence.of(shared).kind, ExprKind::Bool(true))
            });
            if !ordered || !self.has_contents(&inv.expr) {
                continue;
            }
            let localized = localize_reads(&inv.expr);
            for inst in &inv.insts {
                for t in 0..2 {
                    let vals: Vec<Expr> = inst.iter().map(|e| self.expr(e, t)).collect();
                    let mut range: Vec<Expr> = vals.iter().map(|v| Expr::ult(v.clone(), size.clone())).collect();
                    let saved = self.lid.clone();
                    self.lid[t][0] = vals[0].clone();
                    if let Some(b) = vals.get(1) {
                        self.lid[1 - t][0] = b.clone();
                        range.push(Expr::not(Expr::eq(vals[0].clone(), b.clone())));
                        range.push(self.same_group.clone());
                    }
                    self.enabled = Some(p.clone());
                    let holds = Expr::to_bool(self.expr(&localized, t));
                    self.enabled = None;
                    self.lid = saved;
                    self.emit(Stmt::Assume(Expr::implies(Expr::and2(p[t].clone(), Expr::and(range)), holds)));
                }
            }
        }
        for v in self.not_accessed.clone().into_iter().flatten().flatten() {
            self.emit(Stmt::Havoc(v));
        }
    }
}

/// The arrays an expression reads.
fn reads_of(e: &ast::Expr) -> Vec<ast::Ident> {
    let mut out = Vec::new();
    e.walk(&mut |s| {
        if let ExprKind::Index(a, _) = &s.kind {
            out.push(a.clone());
        }
    });
    out
}

/// The variables an expression names, first occurrences (locals or params; the caller
/// tells them apart).
fn locals_of(e: &ast::Expr) -> Vec<ast::Ident> {
    let mut out: Vec<ast::Ident> = Vec::new();
    e.walk(&mut |s| {
        if let ExprKind::Var(x) = &s.kind {
            if !out.iter().any(|y| y.name == x.name) {
                out.push(x.clone());
            }
        }
    });
    out
}

/// A read of a barrier invariant: the array, the index, the conditions under which it is
/// evaluated, and whether it is inside `other(...)`.
type Read<'e> = (&'e ast::Ident, &'e ast::Expr, Vec<ast::Expr>, bool);

/// Every read in `e` (the conditions: the left side of `implies`, `&&`, `||` and `?:`, as
/// GPUVerify's access check; those inside `other(...)` wrapped in it again).
fn collect_reads<'e>(e: &'e ast::Expr, path: Vec<ast::Expr>, in_other: bool, out: &mut Vec<Read<'e>>) {
    let with = |c: ast::Expr| {
        let mut p = path.clone();
        p.push(if in_other { other(c) } else { c });
        p
    };
    let not = |c: &ast::Expr| ast::Expr::new(ExprKind::Unary(ast::UnOp::Not, Box::new(c.clone())), c.span);
    match &e.kind {
        ExprKind::Index(a, i) => {
            collect_reads(i, path.clone(), in_other, out);
            out.push((a, i, path, in_other));
        }
        ExprKind::Binary(ast::BinOp::LAnd, a, b) => {
            collect_reads(a, path.clone(), in_other, out);
            collect_reads(b, with((**a).clone()), in_other, out);
        }
        ExprKind::Binary(ast::BinOp::LOr, a, b) => {
            collect_reads(a, path.clone(), in_other, out);
            collect_reads(b, with(not(a)), in_other, out);
        }
        ExprKind::Binary(_, a, b) => {
            collect_reads(a, path.clone(), in_other, out);
            collect_reads(b, path, in_other, out);
        }
        ExprKind::Unary(_, a) => collect_reads(a, path, in_other, out),
        ExprKind::Cond(c, a, b) => {
            collect_reads(c, path.clone(), in_other, out);
            collect_reads(a, with((**c).clone()), in_other, out);
            collect_reads(b, with(not(c)), in_other, out);
        }
        ExprKind::Call(f, args) if Builtin::from_name(&f.name) == Some(Builtin::Implies) && args.len() == 2 => {
            collect_reads(&args[0], path.clone(), in_other, out);
            collect_reads(&args[1], with(args[0].clone()), in_other, out);
        }
        ExprKind::Call(f, args) => {
            let inside = in_other || is_other(f);
            args.iter().for_each(|a| collect_reads(a, path.clone(), inside, out));
        }
        _ => {}
    }
}
