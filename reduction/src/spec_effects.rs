//! Specification statements in the two-thread program: unknown accesses (`havoc reads A;`,
//! `havoc writes A;`, a specification function's memory effects) and ghost copies
//! (`snapshot G := A;`).

use crate::builder::{Builder, Pair};
use crate::seq::*;
use kpl_lang::ast;

impl Builder<'_> {
    /// `havoc writes A;` / `havoc reads A;`: accesses of each running thread to elements
    /// nothing names, as a specification function's (GPUVerify's `__writes_to`). Thread
    /// 1's is logged at an arbitrary element, which the specification's postconditions then
    /// narrow, so it races with thread 2's later accesses. As in GPUVerify, thread 2's is
    /// not checked against thread 1's earlier accesses: the specification is trusted for
    /// that, as for its postconditions (its preconditions say what may come before, such
    /// as `__no_write(p)`). A write leaves each running thread's view of the array
    /// arbitrary.
    pub(crate) fn touch(&mut self, a: &ast::Ident, write: bool, span: kpl_lang::Span, p: &Pair) {
        let k = self.array_of(a);
        let kind = if write { AccessKind::Write } else { AccessKind::Read };
        let sid = self.site(span, k, kind);
        let elem = self.var(&format!("{}_touched", a.name), Sort::Word);
        self.emit(Stmt::Havoc(elem));
        if write {
            self.warp_lanes_write(k);
        }
        let inst = self.inst[k];
        if self.race_checked(k) {
            let val = self.var(&format!("{}_touched_val", a.name), Sort::Word);
            self.emit(Stmt::Havoc(val));
            let (exists, log_elem, stmt, logged_val) =
                if write { (inst.wr_exists, inst.wr_elem, inst.wr_stmt, inst.wr_val) } else { (inst.rd_exists, inst.rd_elem, inst.rd_stmt, inst.rd_val) };
            let benign = self.cfg.benign.then_some((logged_val, Expr::Var(val)));
            let logged = self.log(exists, log_elem, stmt, benign, Expr::Var(elem), &p[0], sid);
            if write && self.cfg.benign {
                self.assign(inst.wr_fresh, Expr::ite(logged, Expr::Bool(true), Expr::Var(inst.wr_fresh)));
            }
        }
        if write {
            self.forget_view(k, "touched", Expr::Bool(false), p);
        }
    }

    /// `snapshot G := A;`: each running thread's copy of the ghost array `G` becomes its view
    /// of `A` (arbitrary where `A` has no copies); no access is logged or checked.
    pub(crate) fn snapshot(&mut self, dest: &ast::Ident, src: &ast::Ident, p: &Pair) {
        let (g, a) = (self.array_of(dest), self.array_of(src));
        let Some(cg) = self.copies[g] else { return };
        match self.copies[a] {
            Some(ca) => {
                for t in 0..2 {
                    self.assign(cg[t], Expr::ite(p[t].clone(), Expr::Var(ca[t]), Expr::Var(cg[t])));
                }
            }
            None => self.forget_view(g, "snapshot", Expr::Bool(false), p),
        }
    }
}
