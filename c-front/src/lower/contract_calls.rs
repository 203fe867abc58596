//! `--no-inline`'s calls that use only the callee's contract (GPUVerify's modular mode): a
//! call of a function with a postcondition checks the `__requires`, gives the result and
//! whatever the body assigns in the caller arbitrary values, and assumes the `__ensures`;
//! the body itself is verified once, in the function's check on its own (`modular.rs`).
//! Only a call whose body (with what its pointers point at here) has no effect that another
//! thread can see is made so: no store to or read of memory other than the thread's own
//! private memory, no barrier, atomic, warp collective or fence, no access predicate. Such
//! a call has no access to race with the caller's, so neither side needs to know what the
//! other accessed. Every other call is inlined, as without `--no-inline`.

use crate::lower::ast_facts::annotation;
use crate::lower::context::Lower;
use crate::syntax::ast::*;
use kpl_lang::ast as k;
use kpl_lang::span::Span;
use std::collections::{BTreeSet, HashSet};

impl<'u> Lower<'u> {
    /// Whether a call of `f` may use only its contract: under `--no-inline`, a function
    /// with a postcondition that is checked on its own (`modular::checks`: not a kernel,
    /// not a specification function, the one definition of its name), without a
    /// `__global_requires`/`__global_ensures` (they speak of threads that do not call it,
    /// which its check on its own, where every thread calls it, cannot see), returning no
    /// pointer, with no pointer-to-pointer parameter, and not the function this lowering
    /// checks on its own (whose body is what is checked). Called in the callee's frame.
    pub(crate) fn contract_candidate(&self, f: &Func) -> bool {
        self.o.no_inline
            && crate::lower::modular::has_postcondition(f)
            && !speaks_of_non_callers(f)
            && !f.name.name.starts_with("__spec_")
            && !self.is_kernel(f)
            && f.ptrs == 0
            && f.params.iter().all(|p| p.ptrs.len() < 2)
            && self.overloads.get(&f.name.name).is_none_or(|v| v.len() <= 1)
            && !(self.o.check_function.as_deref() == Some(f.name.name.as_str()) && self.frames.len() == 2)
    }

    /// Lower `rest` (a body after its leading contract, in the callee's frame) into a block
    /// that is thrown away, and give the caller's locals it assigns, when it assigns none
    /// outside `own` (the call's own locals) and `refs` (the caller's scalars it has by
    /// reference) and has no other effect (the module comment). When it has, the
    /// diagnostics it gave are dropped: the body is lowered again, inlined.
    pub(crate) fn pure_body(&mut self, rest: &[Stmt], own: &HashSet<String>, refs: &HashSet<String>, span: Span) -> Option<BTreeSet<String>> {
        let (errors, warnings, decls) = (self.errors.len(), self.warnings.len(), self.decls.len());
        let scratch = self.sub_block(|l| l.stmts(rest), span);
        // The body's own arrays are its private ones: a `__shared__` or `static` array it
        // declares is one per group or grid (`statics.rs`), seen by every thread.
        let arrays: HashSet<String> = self.decls[decls..]
            .iter()
            .filter_map(|d| match &d.kind {
                k::DeclKind::Global { name, .. } if self.private_arrays.contains(&name.name) => Some(name.name.clone()),
                _ => None,
            })
            .collect();
        let mut e = Effects { own_arrays: &arrays, private: &self.private_arrays, declared: HashSet::new(), assigned: BTreeSet::new(), pure: true };
        e.block(&scratch.stmts);
        let outside: BTreeSet<String> = e.assigned.into_iter().filter(|x| !e.declared.contains(x) && !own.contains(x)).collect();
        let pure = e.pure && outside.iter().all(|x| refs.contains(x));
        // A postcondition met inside the body (not among its leading statements) would be
        // taken where the body runs; such a function is inlined.
        let frame = self.frame();
        let late_contract = !(frame.ensures.is_empty() && frame.global_ensures.is_empty() && frame.assumed.is_empty() && frame.olds.is_empty());
        if !pure || late_contract {
            let frame = self.frame();
            frame.ensures.clear();
            frame.global_ensures.clear();
            frame.assumed.clear();
            frame.olds.clear();
            self.errors.truncate(errors);
            self.warnings.truncate(warnings);
            return None;
        }
        Some(outside)
    }
}

/// Has `f` a `__global_requires` or a `__global_ensures` among its statements?
fn speaks_of_non_callers(f: &Func) -> bool {
    f.body.as_ref().is_some_and(|b| b.stmts.iter().any(|s| annotation(s, "__global_requires").is_some() || annotation(s, "__global_ensures").is_some()))
}

/// What a lowered body does, as far as a contract call cares.
struct Effects<'a> {
    /// Arrays the body declared itself (its private arrays): anything may be done to them.
    own_arrays: &'a HashSet<String>,
    /// Private arrays: a thread may read its own region.
    private: &'a HashSet<String>,
    declared: HashSet<String>,
    assigned: BTreeSet<String>,
    pure: bool,
}

impl Effects<'_> {
    fn block(&mut self, stmts: &[k::Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &k::Stmt) {
        match &s.kind {
            k::StmtKind::Local(x, e) => {
                self.declared.insert(x.name.clone());
                e.iter().for_each(|e| self.expr(e));
            }
            k::StmtKind::Assign(x, e) => {
                self.assigned.insert(x.name.clone());
                self.expr(e);
            }
            k::StmtKind::Havoc(x) => {
                self.assigned.insert(x.name.clone());
            }
            k::StmtKind::Store(a, i, e) => {
                self.pure &= self.own_arrays.contains(&a.name);
                self.expr(i);
                self.expr(e);
            }
            k::StmtKind::If(c, t, e) => {
                self.expr(c);
                self.block(&t.stmts);
                match e.as_deref() {
                    Some(k::Else::Block(b)) => self.block(&b.stmts),
                    Some(k::Else::If(s)) => self.stmt(s),
                    None => {}
                }
            }
            k::StmtKind::While { cond, invariants, candidates, body } => {
                self.expr(cond);
                invariants.iter().chain(candidates).for_each(|e| self.expr(e));
                self.block(&body.stmts);
            }
            k::StmtKind::Assert(e, _) | k::StmtKind::Assume(e) => self.expr(e),
            k::StmtKind::Break | k::StmtKind::Continue | k::StmtKind::Return => {}
            k::StmtKind::Call(..)
            | k::StmtKind::Barrier(_)
            | k::StmtKind::MemFence(..)
            | k::StmtKind::Atomic(_)
            | k::StmtKind::Warp(_)
            | k::StmtKind::Touch { .. }
            | k::StmtKind::Snapshot { .. }
            | k::StmtKind::Error => self.pure = false,
        }
    }

    fn expr(&mut self, e: &k::Expr) {
        let mut pure = true;
        e.walk(&mut |x| match &x.kind {
            k::ExprKind::Index(a, _) => pure &= self.own_arrays.contains(&a.name) || self.private.contains(&a.name),
            k::ExprKind::Call(f, _) => {
                pure &= !matches!(
                    k::Builtin::from_name(&f.name),
                    Some(k::Builtin::Written | k::Builtin::WasRead | k::Builtin::WriteIndex | k::Builtin::ReadIndex | k::Builtin::Taken)
                )
            }
            _ => {}
        });
        self.pure &= pure;
    }
}
