//! Loops in the two-thread program: loop cutting with invariants and Houdini candidates
//! (the paper's section 5.2), or, with `--loop-unwind`, N iterations in line.

use crate::ast_to_seq::returns;
use crate::builder::{Builder, Pair};
use crate::candidates;
use crate::kernel_walk::{contains_barrier, walk};
use crate::seq::*;
use kpl_lang::ast;

impl Builder<'_> {
    pub(crate) fn while_loop(&mut self, s: &ast::Stmt, cond: &ast::Expr, invs: &[ast::Expr], cands: &[ast::Expr], body: &ast::Block, p: Pair) {
        let brk = self.pair("brk", Sort::Bool);
        let cont = self.pair("cont", Sort::Bool);
        let lc = self.pair("lc", Sort::Bool);
        // Left the loop by a jump (`break`, `return`). A thread that entered and left at the
        // loop head instead no longer changes its state, so it still satisfies the
        // invariants it satisfied there.
        let gone = leaves(body).then(|| self.pair("gone", Sort::Bool));
        for t in 0..2 {
            self.assign(lc[t], p[t].clone());
            if let Some(g) = gone {
                self.assign(g[t], Expr::Bool(false));
            }
        }
        let id = self.prog.loops.len();
        self.prog.loops.push(LoopInfo { span: (s.span.start, s.span.end) });
        // Candidate invariants may need snapshots of variables at loop entry.
        let plan = candidates::plan(self, body, cond, p[0] != Expr::Bool(true));
        let c = self.cond_pair(cond);
        let loop_cond = Expr::or2(
            Expr::and2(Expr::Var(lc[0]), c[0].clone()),
            Expr::and2(Expr::Var(lc[1]), c[1].clone()),
        );
        // A user invariant or candidate holds in each thread still in the loop, and in each
        // that left it at its head: those that entered and did not jump out.
        // One about the access logs alone holds in a thread that jumped out too (its logs
        // stay as it left them, and still meet the other thread's later accesses).
        let held = |t: usize, logs: bool| match gone {
            Some(g) if !logs => Expr::and2(p[t].clone(), Expr::not(Expr::Var(g[t]))),
            _ => p[t].clone(),
        };
        let asymmetric = self.cfg.asymmetric_asserts;
        let dual = |e1: Expr, e2: Expr, logs: bool| {
            let first = Expr::implies(held(0, logs), e1);
            if asymmetric {
                first
            } else {
                Expr::and2(first, Expr::implies(held(1, logs), e2))
            }
        };
        let changed = assigned_locals(body);
        let mut invariants = Vec::new();
        self.enabled = Some([Expr::Var(lc[0]), Expr::Var(lc[1])]);
        for inv in invs {
            let e = self.cond_pair(inv);
            let [e1, e2] = e;
            let logs = about_logs_only(inv, changed.as_ref());
            let both = dual(e1, e2, logs);
            let text = format!("invariant {}", kpl_lang::printer::print_expr(inv));
            let entry = self.label(LabelKind::Invariant { entry: true }, inv.span, text.clone());
            let kept = self.label(LabelKind::Invariant { entry: false }, inv.span, text);
            invariants.push((both, entry, kept));
        }
        // The kernel's candidate invariants (GPUVerify's `__candidate_invariant`): Houdini
        // keeps each only if it is inductive with the others.
        let user_candidates: Vec<Expr> = cands
            .iter()
            .map(|e| {
                let [e1, e2] = self.cond_pair(e);
                let logs = about_logs_only(e, changed.as_ref());
                dual(e1, e2, logs)
            })
            .collect();
        self.enabled = None;
        let has_barrier = contains_barrier(self.kernel, body);
        if let Some(n) = self.cfg.loop_unwind {
            // Bounded: N iterations in line, then only executions that have left the loop.
            if has_barrier {
                self.barrier_loops += 1;
            }
            let n = self.trips.get(&(s as *const ast::Stmt as usize)).copied().unwrap_or(n);
            for _ in 0..n {
                self.iteration(body, (lc, gone), brk, cont, &c, s.span);
            }
            if has_barrier {
                self.barrier_loops -= 1;
            }
            self.enabled = None;
            self.emit(Stmt::Assume(Expr::not(loop_cond)));
            return;
        }
        let outer = std::mem::take(&mut self.out);
        if has_barrier {
            self.barrier_loops += 1;
        }
        let owned_before = self.owned.len();
        self.enclosing_ranges.push(plan.ranges.clone());
        let ret = self.iteration(body, (lc, gone), brk, cont, &c, s.span);
        self.enclosing_ranges.pop();
        if has_barrier {
            self.barrier_loops -= 1;
        }
        let body_stmts = std::mem::replace(&mut self.out, outer);
        candidates::generate(self, id, &plan, (lc, &p, &c), ret, &body_stmts);
        if self.owned.len() > owned_before {
            let mut changed = std::collections::BTreeSet::new();
            candidates::modified_vars(&body_stmts, &mut changed);
            self.ticket_candidates(id, owned_before, &body_stmts, &changed);
        }
        // A thread still in the loop has not jumped out of it: true by construction (`gone`
        // is set only where `lc` is cleared, and nothing sets `lc` again), and what makes the
        // invariants and the kernel's candidates, which hold in the threads not gone, hold
        // in every thread still in the loop. Derived, so `--no-infer` keeps it too.
        if let Some(g) = gone {
            for t in 0..2 {
                let expr = Expr::implies(Expr::Var(lc[t]), Expr::not(Expr::Var(g[t])));
                self.prog.candidates.push(Candidate { loop_id: id, expr, rule: "a thread in the loop has not left it", derived: true });
            }
        }
        for expr in user_candidates {
            self.prog.candidates.push(Candidate { loop_id: id, expr, rule: "the kernel's candidate", derived: false });
        }
        self.emit(Stmt::Loop(Loop { id, cond: loop_cond, invariants, body: body_stmts, k: self.cfg.k_induction }));
    }

    /// One iteration of a loop, emitted at the current place: the threads still in it
    /// (`lc`) whose guard holds run the body; gives the enclosing proc's return flags.
    fn iteration(&mut self, body: &ast::Block, (lc, gone): ([VarId; 2], Option<[VarId; 2]>), brk: [VarId; 2], cont: [VarId; 2], c: &Pair, span: kpl_lang::Span) -> Option<[VarId; 2]> {
        let u = self.pair("u", Sort::Bool);
        self.perf_branch(c, &[Expr::Var(lc[0]), Expr::Var(lc[1])], span);
        for t in 0..2 {
            self.assign(u[t], Expr::and2(Expr::Var(lc[t]), c[t].clone()));
            // A thread that breaks leaves `lc` at the end of this iteration, so the break
            // flag need not outlive it (and stays out of the loop's state).
            self.assign(brk[t], Expr::Bool(false));
            self.assign(cont[t], Expr::Bool(false));
        }
        let saved = self.frames.last().and_then(|f| f.loop_flags);
        if let Some(f) = self.frames.last_mut() {
            f.loop_flags = Some((brk, cont));
        }
        self.block(body, [Expr::Var(u[0]), Expr::Var(u[1])]);
        if let Some(f) = self.frames.last_mut() {
            f.loop_flags = saved;
        }
        let ret = self.frames.last().and_then(|f| f.ret);
        for t in 0..2 {
            let mut jumped = vec![Expr::Var(brk[t])];
            if let Some(r) = ret {
                jumped.push(Expr::Var(r[t]));
            }
            let jumped = Expr::and2(Expr::Var(u[t]), Expr::or(jumped));
            if let Some(g) = gone {
                self.assign(g[t], Expr::or2(Expr::Var(g[t]), jumped.clone()));
            }
            self.assign(lc[t], Expr::and2(Expr::Var(u[t]), Expr::not(jumped)));
        }
        ret
    }

}

/// The locals a loop body assigns, or `None` if it calls a procedure (which may assign
/// more than kpl looks for here).
fn assigned_locals(body: &ast::Block) -> Option<std::collections::BTreeSet<String>> {
    let mut changed = std::collections::BTreeSet::new();
    let mut calls = false;
    walk(body, &mut |s| match &s.kind {
        ast::StmtKind::Assign(x, _) | ast::StmtKind::Havoc(x) => {
            changed.insert(x.name.clone());
        }
        ast::StmtKind::Atomic(a) => changed.extend(a.dest.iter().chain(&a.dest_hi).map(|x| x.name.clone())),
        ast::StmtKind::Warp(w) => changed.extend(w.dest.iter().map(|x| x.name.clone())),
        ast::StmtKind::Call(..) => calls = true,
        _ => {}
    });
    (!calls).then_some(changed)
}

/// Whether an invariant speaks of the access logs (or `taken`) and otherwise only of what
/// no iteration of the loop changes (`changed`: `assigned_locals` of its body).
fn about_logs_only(inv: &ast::Expr, changed: Option<&std::collections::BTreeSet<String>>) -> bool {
    let Some(changed) = changed.filter(|_| crate::ast_to_seq::uses_access_predicates(inv)) else {
        return false;
    };
    let mut reads_changed = false;
    inv.walk(&mut |e| {
        if let ast::ExprKind::Var(x) = &e.kind {
            reads_changed |= changed.contains(&x.name);
        }
    });
    !reads_changed
}

/// Can a thread leave the loop whose body this is mid-body (`break` at its level, or
/// `return` anywhere in it)?
fn leaves(b: &ast::Block) -> bool {
    fn stmt(s: &ast::Stmt) -> bool {
        match &s.kind {
            ast::StmtKind::Break | ast::StmtKind::Return => true,
            ast::StmtKind::If(_, t, e) => {
                leaves(t)
                    || match e.as_deref() {
                        Some(ast::Else::Block(b)) => leaves(b),
                        Some(ast::Else::If(s)) => stmt(s),
                        None => false,
                    }
            }
            ast::StmtKind::While { body, .. } => returns(body),
            _ => false,
        }
    }
    b.stmts.iter().any(stmt)
}
