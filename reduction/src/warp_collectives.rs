//! Warp collectives (`warp shfl_down(...)`, votes) in the two-thread reduction: a thread
//! whose mask names the other thread's lane (same group, same warp) must not run one without
//! it, nor with another mask (warp divergence, checked like a barrier's); a result is arbitrary except for what the
//! pair itself decides, exactly as the interpreter computes it: a shuffle from the reader's
//! own lane or from the other thread's gives that value, two threads reading one lane get
//! one value, a vote counts both threads' predicates, and two threads of one warp with one
//! mask get one vote or reduction.

use crate::builder::{Builder, Pair};
use crate::seq::{Expr, LabelKind, Sort, Stmt, WordOp};
use kpl_lang::ast::{self, WarpOp};

/// Lane `lane` is named in `mask` (never past lane 31: the shift then gives 0).
fn in_mask(mask: &Expr, lane: &Expr) -> Expr {
    let bit = Expr::bin(WordOp::And, Expr::bin(WordOp::Lshr, mask.clone(), lane.clone()), Expr::Word(1));
    Expr::eq(bit, Expr::Word(1))
}

impl Builder<'_> {
    /// The warp size collectives use: 32, or `--warp-sync=N`'s N.
    fn warp_size(&self) -> u32 {
        self.cfg.warp_sync.unwrap_or(32).max(1)
    }

    /// The prelude's part: each thread's linear id and whether the pair shares a warp.
    pub(crate) fn warp_prelude(&mut self) {
        if self.cfg.perf.is_none() && self.cfg.warp_sync.is_none() {
            self.linear_ids();
        }
        let same = Expr::and2(self.same_group.clone(), self.same_block(self.warp_size()));
        let v = self.var("warp_mates", Sort::Bool);
        self.assign(v, same);
        self.warp_mates = Some(Expr::Var(v));
    }

    fn warp_lane(&self, t: usize) -> Expr {
        Expr::bin(WordOp::Urem, self.linear[t].clone(), Expr::Word(self.warp_size()))
    }

    /// A warp collective run by the enabled threads of `p`: its result in each thread.
    pub(crate) fn warp(&mut self, w: &ast::Warp, span: kpl_lang::Span, p: &Pair) -> Pair {
        let op = w.operation();
        let args: Vec<Pair> = w.args.iter().map(|e| self.pair_of(e)).collect();
        let mates = self.warp_mates.clone().unwrap_or(Expr::Bool(false));
        let lanes = [self.warp_lane(0), self.warp_lane(1)];
        if op.has_mask() {
            let names = |t: usize| Expr::and2(p[t].clone(), in_mask(&args[0][t], &lanes[1 - t]));
            // A lane the mask names must run it, unless it has left the kernel.
            let there = match &w.exited {
                Some(e) => {
                    let ex = self.pair_of(e);
                    [0, 1].map(|t| Expr::or2(p[t].clone(), Expr::to_bool(ex[t].clone())))
                }
                None => [p[0].clone(), p[1].clone()],
            };
            let ok = Expr::and2(Expr::implies(names(0), there[1].clone()), Expr::implies(names(1), there[0].clone()));
            self.assert(Expr::implies(mates.clone(), ok), LabelKind::Divergence, span, format!("warp {}", op.name()));
            // Both running it, one naming the other: one mask.
            let meet = Expr::and2(Expr::or2(names(0), names(1)), Expr::and2(p[0].clone(), p[1].clone()));
            let same = Expr::eq(args[0][0].clone(), args[0][1].clone());
            self.assert(Expr::implies(Expr::and2(mates.clone(), meet), same), LabelKind::Divergence, span, format!("warp mask {}", op.name()));
        }
        let mut res: Vec<Expr> = Vec::new();
        let mut sources: Vec<Expr> = Vec::new();
        for t in 0..2 {
            let u = 1 - t;
            let other_runs = Expr::and2(mates.clone(), p[u].clone());
            let r = match op {
                WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor => {
                    let src = self.shuffle_source(op, &lanes[t], &args[2][t], &args[3][t]);
                    sources.push(src.clone());
                    let h = self.var("shfl", Sort::Word);
                    self.emit(Stmt::Havoc(h));
                    let from_other = Expr::ite(
                        Expr::and2(other_runs.clone(), Expr::eq(src.clone(), lanes[u].clone())),
                        args[1][u].clone(),
                        Expr::Var(h),
                    );
                    Expr::ite(Expr::eq(src, lanes[t].clone()), args[1][t].clone(), from_other)
                }
                WarpOp::Sync => Expr::Word(0),
                WarpOp::MatchAll => {
                    // The mask or 0; 0 when the other thread, in the mask and running it,
                    // has another value.
                    let h = self.var(op.name(), Sort::Word);
                    self.emit(Stmt::Havoc(h));
                    let either = Expr::or2(Expr::eq(Expr::Var(h), Expr::Word(0)), Expr::eq(Expr::Var(h), args[0][t].clone()));
                    let differs = Expr::and(vec![
                        other_runs.clone(),
                        in_mask(&args[0][t], &lanes[u]),
                        Expr::not(Expr::eq(args[1][t].clone(), args[1][u].clone())),
                    ]);
                    let known = Expr::and2(either, Expr::implies(differs, Expr::eq(Expr::Var(h), Expr::Word(0))));
                    self.emit(Stmt::Assume(Expr::implies(p[t].clone(), known)));
                    Expr::Var(h)
                }
                WarpOp::Active | WarpOp::Ballot | WarpOp::MatchAny => {
                    let h = self.var(op.name(), Sort::Word);
                    self.emit(Stmt::Havoc(h));
                    // Bit `lane` of the result: whether that lane (running it) counts.
                    let counts = |l: usize| match op {
                        WarpOp::Active => Expr::Bool(true),
                        WarpOp::MatchAny => Expr::and2(in_mask(&args[0][t], &lanes[l]), Expr::eq(args[1][l].clone(), args[1][t].clone())),
                        _ => Expr::and2(in_mask(&args[0][t], &lanes[l]), Expr::not(Expr::eq(args[1][l].clone(), Expr::Word(0)))),
                    };
                    let bit = |l: usize| in_mask(&Expr::Var(h), &lanes[l]);
                    let own = Expr::implies(Expr::ult(lanes[t].clone(), Expr::Word(32)), Expr::eq(bit(t), counts(t)));
                    let other = Expr::implies(
                        Expr::and2(mates.clone(), Expr::ult(lanes[u].clone(), Expr::Word(32))),
                        Expr::eq(bit(u), Expr::and2(p[u].clone(), counts(u))),
                    );
                    self.emit(Stmt::Assume(Expr::implies(p[t].clone(), Expr::and2(own, other))));
                    Expr::Var(h)
                }
                WarpOp::ReduceAdd
                | WarpOp::ReduceMin
                | WarpOp::ReduceMax
                | WarpOp::ReduceSmin
                | WarpOp::ReduceSmax
                | WarpOp::ReduceAnd
                | WarpOp::ReduceOr
                | WarpOp::ReduceXor => {
                    let h = self.var(op.name(), Sort::Word);
                    self.emit(Stmt::Havoc(h));
                    Expr::Var(h)
                }
                WarpOp::Any | WarpOp::All => {
                    let h = self.var(op.name(), Sort::Bool);
                    self.emit(Stmt::Havoc(h));
                    // A lane of the mask whose predicate decides the vote.
                    let decides = |l: usize| {
                        let zero = Expr::eq(args[1][l].clone(), Expr::Word(0));
                        Expr::and2(in_mask(&args[0][t], &lanes[l]), if op == WarpOp::Any { Expr::not(zero) } else { zero })
                    };
                    let vote = if op == WarpOp::Any { Expr::Var(h) } else { Expr::not(Expr::Var(h)) };
                    let known = Expr::and2(
                        Expr::implies(decides(t), vote.clone()),
                        Expr::implies(Expr::and2(other_runs.clone(), decides(u)), vote),
                    );
                    self.emit(Stmt::Assume(Expr::implies(p[t].clone(), known)));
                    Expr::ite(Expr::Var(h), Expr::Word(1), Expr::Word(0))
                }
            };
            res.push(r);
        }
        if let [s0, s1] = sources.as_slice() {
            // Two threads of one warp reading one lane get its value (a broadcast).
            let both = Expr::and(vec![mates.clone(), p[0].clone(), p[1].clone(), Expr::eq(s0.clone(), s1.clone())]);
            self.emit(Stmt::Assume(Expr::implies(both, Expr::eq(res[0].clone(), res[1].clone()))));
        }
        if sources.is_empty() {
            // Two threads of one warp running a vote or a reduction with one mask see the
            // same lanes.
            let same_mask = if op.has_mask() { Expr::eq(args[0][0].clone(), args[0][1].clone()) } else { Expr::Bool(true) };
            let mut both = vec![mates, p[0].clone(), p[1].clone(), same_mask];
            // (`match_any` gives each its own value's lanes.)
            if op == WarpOp::MatchAny {
                both.push(Expr::eq(args[1][0].clone(), args[1][1].clone()));
            }
            let both = Expr::and(both);
            self.emit(Stmt::Assume(Expr::implies(both, Expr::eq(res[0].clone(), res[1].clone()))));
        }
        if op == WarpOp::Sync {
            // Thread 1 names thread 2, so (divergence checked above) both run it with one
            // mask: what each did before is ordered before what the other does after.
            let synced = Expr::and(vec![self.warp_mates.clone().unwrap_or(Expr::Bool(false)), p[0].clone(), p[1].clone(), in_mask(&args[0][0], &lanes[1])]);
            self.warp_barrier(synced, p);
        }
        [res[0].clone(), res[1].clone()]
    }

    /// `kpl_lang::ops::shuffle_source` over words.
    fn shuffle_source(&self, op: WarpOp, lane: &Expr, operand: &Expr, width: &Expr) -> Expr {
        let warp = Expr::Word(self.warp_size());
        let whole = Expr::or2(Expr::eq(width.clone(), Expr::Word(0)), Expr::ult(warp.clone(), width.clone()));
        let w = Expr::ite(whole, warp, width.clone());
        let pos = Expr::bin(WordOp::Urem, lane.clone(), w.clone());
        let seg = Expr::bin(WordOp::Sub, lane.clone(), pos.clone());
        let add = |a: Expr, b: Expr| Expr::bin(WordOp::Add, a, b);
        match op {
            WarpOp::Shfl => add(seg, Expr::bin(WordOp::Urem, operand.clone(), w)),
            WarpOp::ShflUp => Expr::ite(
                Expr::not(Expr::ult(pos, operand.clone())),
                Expr::bin(WordOp::Sub, lane.clone(), operand.clone()),
                lane.clone(),
            ),
            WarpOp::ShflDown => Expr::ite(
                Expr::ult(operand.clone(), Expr::bin(WordOp::Sub, w, pos)),
                add(lane.clone(), operand.clone()),
                lane.clone(),
            ),
            _ => {
                let x = Expr::bin(WordOp::Xor, lane.clone(), operand.clone());
                Expr::ite(Expr::ult(x.clone(), add(seg, w)), x, lane.clone())
            }
        }
    }
}
