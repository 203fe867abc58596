//! Performance checks for all inputs (`kpl perf --all-inputs`; GKLEE's symbolic check, made
//! a proof): in perf mode the two threads are two threads of one warp, and each access or
//! branch asserts that they do not show a problem together.
//!
//! Each check is a property of a pair, exactly the interpreter's measure where it can be
//! (`semantics::perf`): a unit has a bank conflict iff two of its threads access one bank
//! at different words; a branch diverges in a warp iff two of its threads disagree. For
//! coalescing the pair property is sufficient: if no two threads of one ideal segment
//! (lanes `k*S .. k*S+S-1`) touch different segments, the unit touches at most as many
//! segments as its lanes' ideal ones (compute capability 1.0/1.1: the pattern "lane k at
//! word base+k, base aligned" holds for the unit iff it holds for every pair). A failed
//! coalescing check may therefore not be a real one; the interpreter's replay decides.

use crate::builder::{Builder, Pair};
use crate::seq::*;
use kpl_lang::perf_model::{Coalescing, PerfModel};

impl Builder<'_> {
    /// Assume the pair is two threads of one warp (same group is assumed already).
    pub(crate) fn perf_prelude(&mut self, m: PerfModel) {
        self.linear_ids();
        let same_warp = self.same_block(m.warp);
        self.emit(Stmt::Assume(same_warp));
    }

    /// Each thread's linear local id (x fastest), in `linear`.
    pub(crate) fn linear_ids(&mut self) {
        let l = self.cfg.launch;
        for t in 0..2 {
            let [x, y, z] = self.lid[t].clone();
            let (dx, dy) = (Expr::Word(l.threads[0]), Expr::Word(l.threads[1]));
            let lin = Expr::bin(
                WordOp::Add,
                x,
                Expr::bin(WordOp::Mul, dx, Expr::bin(WordOp::Add, y, Expr::bin(WordOp::Mul, dy, z))),
            );
            let v = self.var(&format!("linear{}", t + 1), Sort::Word);
            self.assign(v, lin);
            self.linear[t] = Expr::Var(v);
        }
    }

    /// Both threads' linear local ids in one block of `size` lanes.
    pub(crate) fn same_block(&self, size: u32) -> Expr {
        let div = |e: &Expr| Expr::bin(WordOp::Udiv, e.clone(), Expr::Word(size));
        Expr::eq(div(&self.linear[0]), div(&self.linear[1]))
    }

    fn lane(&self, t: usize, m: &PerfModel) -> Expr {
        Expr::bin(WordOp::Urem, self.linear[t].clone(), Expr::Word(m.unit))
    }

    /// The check of an access to array `k` at `idx` by the enabled threads of `p`.
    pub(crate) fn perf_access(&mut self, k: usize, idx: &Pair, p: &Pair, span: kpl_lang::Span) {
        let Some(m) = self.cfg.perf else { return };
        let array = self.prog.arrays[k].name.clone();
        if self.cfg.perf_skip.contains(&array) {
            return;
        }
        let shared = self.prog.arrays[k].shared;
        let [i1, i2] = idx.clone();
        let mut both = vec![p[0].clone(), p[1].clone(), self.same_block(m.unit)];
        let (check, what) = if shared {
            let diff = Expr::bin(WordOp::Sub, i1.clone(), i2.clone());
            let bank = Expr::eq(Expr::bin(WordOp::And, diff, Expr::Word(m.banks - 1)), Expr::Word(0));
            both.push(bank);
            both.push(Expr::not(Expr::eq(i1, i2)));
            (PerfCheck::BankConflict, format!("shared access to {array}"))
        } else {
            let words = m.coalescing.words();
            match m.coalescing {
                Coalescing::Segments { .. } => {
                    let seg = |e: Expr| Expr::bin(WordOp::Udiv, e, Expr::Word(words));
                    both.push(Expr::eq(seg(self.lane(0, &m)), seg(self.lane(1, &m))));
                    both.push(Expr::not(Expr::eq(seg(i1), seg(i2))));
                }
                Coalescing::Strict { .. } => {
                    let base = |b: &Self, t: usize, i: Expr| Expr::bin(WordOp::Sub, i, b.lane(t, &m));
                    let (b1, b2) = (base(self, 0, i1), base(self, 1, i2));
                    let aligned = Expr::eq(Expr::bin(WordOp::Urem, b1.clone(), Expr::Word(words)), Expr::Word(0));
                    both.push(Expr::not(Expr::and2(Expr::eq(b1, b2), aligned)));
                }
            }
            (PerfCheck::Uncoalesced, format!("global access to {array}"))
        };
        let kind = LabelKind::Perf { check, array: Some(array) };
        self.assert_about(Expr::not(Expr::and(both)), kind, span, what, Some(idx[1].clone()));
    }

    /// The check of a branch (an `if`, or a loop's guard) on conditions `c` in the threads
    /// of `p`.
    pub(crate) fn perf_branch(&mut self, c: &Pair, p: &Pair, span: kpl_lang::Span) {
        if self.cfg.perf.is_none() {
            return;
        }
        let differ = Expr::not(Expr::eq(c[0].clone(), c[1].clone()));
        let bad = Expr::and(vec![p[0].clone(), p[1].clone(), differ]);
        let kind = LabelKind::Perf { check: PerfCheck::WarpDivergence, array: None };
        self.assert_about(Expr::not(bad), kind, span, "branch".into(), None);
    }
}
