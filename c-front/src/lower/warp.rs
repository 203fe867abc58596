//! CUDA's warp-level intrinsics ─► KPL's `warp` statement: the shuffles `__shfl_sync`,
//! `__shfl_up_sync`, `__shfl_down_sync`, `__shfl_xor_sync` (and their mask-less pre-CUDA 9
//! forms, on the full warp), the votes `__any_sync`, `__all_sync`, `__ballot_sync` (and
//! `__ballot`; the mask-less `__all` is GPUVerify's two-thread annotation, and `__any` goes
//! with it) and `__activemask()`. A 64-bit value is shuffled word by word from the same
//! lane, as CUDA's own overloads do. The reductions `__reduce_{add,min,max,and,or,xor}_sync`
//! take `int` or `unsigned` (min and max of an `int` are signed).

use crate::lower::context::Lower;
use crate::lower::long::pair;
use crate::lower::values::{Ty, Val, sp_id};
use crate::syntax::ast::*;
use crate::text::tokens::Dialect;
use kpl_lang::ast::{self as k, WarpOp};
use kpl_lang::span::Span;

/// The KPL operation of a CUDA warp intrinsic, and whether it takes a mask first.
fn operation(name: &str) -> Option<(WarpOp, bool)> {
    use WarpOp::*;
    Some(match name {
        "__shfl_sync" => (Shfl, true),
        "__shfl_up_sync" => (ShflUp, true),
        "__shfl_down_sync" => (ShflDown, true),
        "__shfl_xor_sync" => (ShflXor, true),
        "__any_sync" => (Any, true),
        "__all_sync" => (All, true),
        "__ballot_sync" => (Ballot, true),
        "__shfl" => (Shfl, false),
        "__shfl_up" => (ShflUp, false),
        "__shfl_down" => (ShflDown, false),
        "__shfl_xor" => (ShflXor, false),
        "__ballot" => (Ballot, false),
        "__activemask" => (Active, false),
        "__reduce_add_sync" | "__cg_reduce_add_sync" => (ReduceAdd, true),
        "__reduce_min_sync" | "__cg_reduce_min_sync" => (ReduceMin, true),
        "__reduce_max_sync" | "__cg_reduce_max_sync" => (ReduceMax, true),
        "__reduce_and_sync" | "__cg_reduce_and_sync" => (ReduceAnd, true),
        "__reduce_or_sync" | "__cg_reduce_or_sync" => (ReduceOr, true),
        "__reduce_xor_sync" | "__cg_reduce_xor_sync" => (ReduceXor, true),
        "__match_any_sync" => (MatchAny, true),
        "__match_all_sync" => (MatchAll, true),
        _ => return None,
    })
}

impl Lower<'_> {
    /// Lower a call of a CUDA warp intrinsic; `None` if `name` is not one.
    pub(crate) fn warp_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        if self.o.dialect != Dialect::Cuda {
            return None;
        }
        let (op, masked) = operation(name)?;
        let failed = Val { e: k::Expr::num(0, span), ty: Ty::Int };
        // Operands after the mask: a shuffle's value, lane (or delta) and optional width;
        // a vote's predicate.
        let (least, most) = match op {
            WarpOp::Active => (0, 0),
            WarpOp::Shfl | WarpOp::ShflUp | WarpOp::ShflDown | WarpOp::ShflXor => (2, 3),
            WarpOp::MatchAll => (2, 2),
            // `cg::reduce` gives its tile's size too (`coop_tiles.rs`).
            _ if name.starts_with("__cg_reduce") => (1, 2),
            _ => (1, 1),
        };
        let given = args.len().saturating_sub(masked as usize);
        if (masked && args.is_empty()) || given < least || given > most {
            let n = if least == most { format!("{least}") } else { format!("{least} or {most}") };
            let mask = if masked { "a mask and " } else { "" };
            self.err(format!("`{name}` takes {mask}{n} operand(s)"), span);
            return Some(failed);
        }
        let mask = match masked {
            true => {
                let m = self.expr(&args[0]);
                self.convert(m, Ty::UInt, span)
            }
            false => k::Expr::num(u32::MAX as u64, span),
        };
        let rest = &args[masked as usize..];
        match op {
            WarpOp::Active => Some(Val { e: self.warp_stmt(op, vec![], span), ty: Ty::UInt }),
            WarpOp::Any | WarpOp::All | WarpOp::Ballot => {
                let p = self.expr(&rest[0]);
                let p = self.convert(p, Ty::Int, span);
                let ty = if op == WarpOp::Ballot { Ty::UInt } else { Ty::Int };
                Some(Val { e: self.warp_stmt(op, vec![mask, p], span), ty })
            }
            WarpOp::MatchAny | WarpOp::MatchAll => {
                // Values compare as bits; a 64-bit one matches when both its words do.
                let v = self.expr(&rest[0]);
                let words = match v.ty.widen() {
                    Ty::Long { .. } => {
                        let (lo, hi) = self.long_words(v, span);
                        vec![lo, hi]
                    }
                    Ty::Int | Ty::UInt | Ty::Bool | Ty::Narrow { .. } | Ty::Float => vec![self.convert(v.clone(), v.ty.widen(), span)],
                    t => {
                        self.unsupported(&format!("`{name}` of a {}", t.c_name()), span);
                        return Some(failed);
                    }
                };
                let r = words
                    .into_iter()
                    .map(|w| self.warp_stmt(op, vec![mask.clone(), w], span))
                    .reduce(|a, b| k::Expr::new(k::ExprKind::Binary(k::BinOp::BitAnd, Box::new(a), Box::new(b)), span))
                    .unwrap_or_else(|| k::Expr::num(0, span));
                let r = self.bind_temp(Val { e: r, ty: Ty::UInt }, span);
                if op == WarpOp::MatchAll {
                    // `*pred`: whether all matched.
                    let all = k::Expr::new(k::ExprKind::Binary(k::BinOp::Ne, Box::new(r.e.clone()), Box::new(k::Expr::num(0, span))), span);
                    self.write_through(name, &rest[1], |_| all);
                }
                Some(r)
            }
            _ if op.reduction().is_some() => {
                // CUDA's overloads take `int` (min and max then compare signed) or `unsigned`.
                let v = self.expr(&rest[0]);
                let ty = match v.ty.widen() {
                    Ty::UInt => Ty::UInt,
                    Ty::Int | Ty::Bool => Ty::Int,
                    // `cg::reduce` of floats: the collective (its lanes must run it), and an
                    // arbitrary float, as the math library's results (the order of a float
                    // sum is the implementation's), but one in the whole tile, which CUDA
                    // returns to every thread of it: the tile's first lane's, shuffled.
                    Ty::Float if name.starts_with("__cg_reduce") => {
                        let v = self.convert(v, Ty::Float, span);
                        let _ = self.warp_stmt(op, vec![mask.clone(), v], span);
                        let r = self.fresh("cg_reduce");
                        self.emit(k::StmtKind::Local(sp_id(&r, span), None), span);
                        self.emit(k::StmtKind::Havoc(sp_id(&r, span)), span);
                        let width = rest.get(1).and_then(|w| self.const_eval(w)).filter(|w| (1..=32).contains(w)).unwrap_or(32);
                        let args = vec![mask, k::Expr::var(&r, span), k::Expr::num(0, span), k::Expr::num(width as u64, span)];
                        return Some(Val { e: self.warp_stmt(WarpOp::Shfl, args, span), ty: Ty::Float });
                    }
                    t => {
                        self.unsupported(&format!("`{name}` of a {} (CUDA reduces `int` and `unsigned`)", t.c_name()), span);
                        return Some(failed);
                    }
                };
                let op = match (op, ty) {
                    (WarpOp::ReduceMin, Ty::Int) => WarpOp::ReduceSmin,
                    (WarpOp::ReduceMax, Ty::Int) => WarpOp::ReduceSmax,
                    (o, _) => o,
                };
                let v = self.convert(v, ty, span);
                Some(Val { e: self.warp_stmt(op, vec![mask, v], span), ty })
            }
            _ => {
                let v = self.expr(&rest[0]);
                let lane = self.expr(&rest[1]);
                let lane = self.convert(lane, Ty::UInt, span);
                let width = match rest.get(2) {
                    Some(w) => {
                        if let Some(c) = self.const_eval(w) {
                            if !(1..=32).contains(&c) || c & (c - 1) != 0 {
                                self.err(format!("`{name}`'s width must be a power of two from 1 to 32 (it is {c})"), w.span);
                                return Some(failed);
                            }
                        }
                        let w = self.expr(w);
                        self.convert(w, Ty::UInt, span)
                    }
                    None => k::Expr::num(32, span),
                };
                let ty = match v.ty.widen() {
                    Ty::Bool => Ty::Int,
                    t => t,
                };
                if let Ty::Long { .. } = ty {
                    let (lo, hi) = self.long_words(v, span);
                    let lo = self.warp_stmt(op, vec![mask.clone(), lo, lane.clone(), width.clone()], span);
                    let hi = self.warp_stmt(op, vec![mask, hi, lane, width], span);
                    return Some(Val { e: pair(lo, hi, span), ty });
                }
                let v = self.convert(v, ty, span);
                Some(Val { e: self.warp_stmt(op, vec![mask, v, lane, width], span), ty })
            }
        }
    }

    /// Which lanes have left the kernel (its `return` flag), for a warp collective: CUDA
    /// allows the exited lanes of a mask.
    pub(crate) fn exited(&self, span: Span) -> Option<k::Expr> {
        self.frames.first().and_then(|f| f.returned.as_ref()).map(|r| k::Expr::var(r, span))
    }

    /// `local t := warp op(args);`, giving `t`.
    fn warp_stmt(&mut self, op: WarpOp, args: Vec<k::Expr>, span: Span) -> k::Expr {
        let t = self.temp();
        let w = k::Warp { dest: Some(sp_id(&t, span)), declare: true, op: sp_id(op.name(), span), args, exited: self.exited(span) };
        self.emit(k::StmtKind::Warp(w), span);
        k::Expr::var(&t, span)
    }
}
