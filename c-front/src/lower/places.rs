//! C places ─► KPL: locals and array elements read and written (`place`, `read_place`,
//! `write_place`), increments and assignments, compound assignment's single evaluation,
//! and expression statements; `__syncthreads_count/_and/_or`.

use crate::lower::context::Lower;
use crate::lower::values::{Lv, Place, Ty, Val, bin, kx, place_ty, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, Axis, BinOp, Special};
use kpl_lang::span::Span;

impl<'u> Lower<'u> {
    // ---- places: locals and array elements ----

    /// `__syncthreads_count/_and/_or(p)`: a barrier that also counts the block's threads
    /// whose `p` holds. Lowered with a one-word shared counter of its own: barrier; thread 0
    /// clears it; barrier; each thread with `p` adds 1 atomically; barrier; every thread
    /// reads the count (the first barrier separates the read of an earlier call from the
    /// clearing of the next).
    pub(crate) fn sync_reduce(&mut self, n: &str, pred: &Expr, span: Span) -> Val {
        let p = self.cond(pred);
        let p = self.bind_temp(Val { e: p, ty: Ty::Int }, span).e;
        let counter = self.fresh("__sync_count");
        self.decls.push(k::Decl { kind: k::DeclKind::Shared { name: sp_id(&counter, span), size: Some((1, span)) }, span });
        let zero = || k::Expr::num(0, span);
        let elem = || zero();
        let is_first = Axis::ALL
            .iter()
            .map(|a| bin(BinOp::Eq, kx(k::ExprKind::Special(Special::Lid, *a, true), span), zero(), span))
            .reduce(|a, b| bin(BinOp::LAnd, a, b, span))
            .unwrap_or_else(zero);
        self.emit(k::StmtKind::Barrier(k::Fence::both(span)), span);
        let clear = self.sub_block(|l| l.emit(k::StmtKind::Store(sp_id(&counter, span), elem(), zero()), span), span);
        self.emit(k::StmtKind::If(is_first, clear, None), span);
        self.emit(k::StmtKind::Barrier(k::Fence::both(span)), span);
        let add = k::Atomic {
            dest: None,
            dest_hi: None,
            declare: false,
            op: sp_id(k::AtomicOp::Add.name(), span),
            array: sp_id(&counter, span),
            index: elem(),
            args: vec![k::Expr::num(1, span)],
            // (The group's own counter: atomic for every thread that can reach it.)
            scope: k::FenceScope::Device,
        };
        let count = self.sub_block(|l| l.emit(k::StmtKind::Atomic(add), span), span);
        self.emit(k::StmtKind::If(p, count, None), span);
        self.emit(k::StmtKind::Barrier(k::Fence::both(span)), span);
        let total = self.temp();
        self.emit(k::StmtKind::Local(sp_id(&total, span), Some(kx(k::ExprKind::Index(sp_id(&counter, span), Box::new(elem())), span))), span);
        let c = k::Expr::var(&total, span);
        let threads = Axis::ALL
            .iter()
            .map(|a| kx(k::ExprKind::Special(Special::Threads, *a, true), span))
            .reduce(|a, b| bin(BinOp::Mul, a, b, span))
            .unwrap_or_else(zero);
        let e = match n {
            "__syncthreads_count" => c,
            "__syncthreads_and" => bin(BinOp::Eq, c, threads, span),
            _ => bin(BinOp::Ne, c, zero(), span),
        };
        Val { e, ty: Ty::Int }
    }

    pub(crate) fn place(&mut self, e: &Expr) -> Option<Place> {
        let span = e.span;
        match self.lvalue(e)? {
            Lv::Word(p) => Some(p),
            Lv::Array(_) => {
                self.unsupported("assigning to an array name (pointers are CUDA.md tier 2)", span);
                None
            }
            Lv::PtrWord(_) => {
                self.unsupported("a pointer read from memory (kpl cannot tell which array it points into)", span);
                None
            }
            Lv::Agg(crate::lower::values::CType::Long(signed), leaves) => self.long_place(&leaves, signed),
            Lv::Agg(t, _) => {
                self.not_scalar(&t, span);
                None
            }
        }
    }

    pub(crate) fn read_place(&mut self, p: &Place, span: Span) -> Val {
        match p {
            Place::Local(name, ty) => Val { e: k::Expr::var(name, span), ty: ty.widen() },
            Place::Const(e, ty) => Val { e: e.clone(), ty: ty.widen() },
            Place::Elem { array, index, elem, .. } => {
                let raw = kx(k::ExprKind::Index(sp_id(array, span), Box::new(index.clone())), span);
                match elem {
                    // Memory starts arbitrary: a `char` element is the low bits of its word.
                    Ty::Narrow { .. } => Val { e: self.convert(Val { e: raw, ty: Ty::Int }, *elem, span), ty: Ty::Int },
                    _ => Val { e: raw, ty: *elem },
                }
            }
            Place::Bytes { array, index, n, elem, .. } => self.read_bytes(array, index, *n, *elem, span),
            Place::Pair { lo, hi, signed } => {
                let (lo, hi) = (self.read_place(lo, span).e, self.read_place(hi, span).e);
                Val { e: crate::lower::long::pair(lo, hi, span), ty: Ty::Long { signed: *signed } }
            }
        }
    }

    /// May a write to `array` (through a `readonly` place) be lowered? A write to CUDA's
    /// constant memory is a defect where it can happen, as GPUVerify reports it (an assertion
    /// that fails; false: no store); through a `const` pointer it is a C error.
    pub(crate) fn writable(&mut self, array: &str, readonly: bool, span: Span) -> bool {
        if readonly && self.constant_arrays.contains(array) {
            self.array_layouts.constant_writes.insert(span);
            self.emit(k::StmtKind::Assert(k::Expr::new(k::ExprKind::Bool(false), span), false), span);
            return false;
        }
        if readonly {
            self.err("writing to constant memory or through a `const` pointer", span);
        }
        true
    }

    pub(crate) fn write_place(&mut self, p: &Place, v: k::Expr, span: Span) {
        match p {
            Place::Local(name, _) => self.emit(k::StmtKind::Assign(sp_id(name, span), v), span),
            Place::Const(..) => self.err("writing to constant memory or through a `const` pointer", span),
            Place::Elem { array, index, readonly, .. } => {
                if self.writable(array, *readonly, span) {
                    self.emit(k::StmtKind::Store(sp_id(array, span), index.clone(), v), span);
                }
            }
            Place::Bytes { array, index, n, readonly, .. } => {
                if self.writable(array, *readonly, span) {
                    let (array, index) = (array.clone(), index.clone());
                    self.write_bytes(&array, &index, *n, v, span);
                }
            }
            Place::Pair { lo, hi, .. } => {
                // Each word's value is computed before either is written: the word that the
                // other's value reads is written last (through a temp if each reads the other).
                let (vl, mut vh) = crate::lower::long::halves(&v);
                let (hi_reads_lo, lo_reads_hi) = (reads_place(&vh, lo), reads_place(&vl, hi));
                if hi_reads_lo && !lo_reads_hi {
                    self.write_place(hi, vh, span);
                    return self.write_place(lo, vl, span);
                }
                if hi_reads_lo {
                    vh = self.force_temp(Val { e: vh, ty: Ty::UInt }, span).e;
                }
                self.write_place(lo, vl, span);
                self.write_place(hi, vh, span);
            }
        }
    }

    /// An array element's index fixed in a temp, so it is computed once.
    pub(crate) fn pin(&mut self, p: Place, span: Span) -> Place {
        match p {
            Place::Elem { array, index, elem, readonly } => {
                let v = self.bind_temp(Val { e: index, ty: Ty::UInt }, span);
                Place::Elem { array, index: v.e, elem, readonly }
            }
            Place::Bytes { array, index, n, elem, readonly } => {
                let v = self.bind_temp(Val { e: index, ty: Ty::UInt }, span);
                Place::Bytes { array, index: v.e, n, elem, readonly }
            }
            Place::Pair { lo, hi, signed } => Place::Pair { lo: Box::new(self.pin(*lo, span)), hi: Box::new(self.pin(*hi, span)), signed },
            other => other,
        }
    }

    pub(crate) fn increment(&mut self, p: &Place, inc: bool, span: Span) {
        let cur = self.read_place(p, span);
        let one = Val { e: k::Expr::num(1, span), ty: Ty::Int };
        let ty = place_ty(p);
        let v = self.arith(if inc { BOp::Add } else { BOp::Sub }, cur, one, span);
        let v = self.convert(v, ty, span);
        self.write_place(p, v, span);
    }

    pub(crate) fn assign(&mut self, p: &Place, op: Option<BOp>, r: &Expr, span: Span) -> Val {
        let p = match (&p, op) {
            (Place::Elem { .. } | Place::Bytes { .. } | Place::Pair { .. }, _) => self.pin(clone_place(p), span),
            _ => clone_place(p),
        };
        // The value of the assignment is the stored value.
        let stored = self.stored_value(&p, op, r, span);
        let v = self.bind_temp(stored, span);
        self.write_place(&p, v.e.clone(), span);
        v
    }

    /// What `p = r` or `p op= r` stores: `r` (combined with the current value for a compound
    /// assignment) converted to the place's type.
    pub(crate) fn stored_value(&mut self, p: &Place, op: Option<BOp>, r: &Expr, span: Span) -> Val {
        let ty = place_ty(p);
        let e = match op {
            None => {
                let v = self.expr(r);
                self.convert(v, ty, span)
            }
            Some(o) => {
                let cur = self.read_place(p, span);
                let cur = if self.needs_statements(r) { self.bind_temp(cur, span) } else { cur };
                let rv = self.expr(r);
                let v = self.arith(o, cur, rv, span);
                self.convert(v, ty, span)
            }
        };
        Val { e, ty }
    }

    /// An expression statement: effects only.
    pub fn expr_stmt(&mut self, e: &Expr) {
        let span = e.span;
        if self.pointer_update(e) {
            return;
        }
        if let Some(call) = self.operator_call(e) {
            return self.expr_stmt(&call);
        }
        match &e.kind {
            ExprKind::Assign(op, l, r) => {
                if self.agg_type(l).is_some() {
                    let _ = self.agg_assign(l, *op, r, span);
                    return;
                }
                let Some(lv) = self.lvalue(l) else { return };
                let p = match lv {
                    Lv::Word(p) => p,
                    Lv::PtrWord(p) if op.is_none() => {
                        if self.pointer_in_memory(r) {
                            // `q2[i].p = q1[i].p`: the word copied; what it points at stays
                            // unknown.
                            if let Some(Lv::PtrWord(src)) = self.lvalue(r) {
                                let v = self.read_place(&src, span);
                                self.write_place(&p, v.e, span);
                            }
                            return;
                        }
                        if let Some(a) = self.array_argument(r, false) {
                            self.store_pointer(&p, &a, span);
                        }
                        return;
                    }
                    Lv::PtrWord(_) => return self.unsupported("arithmetic on a pointer stored in memory", span),
                    Lv::Array(_) => return self.unsupported("assigning to an array name (pointers are CUDA.md tier 2)", span),
                    Lv::Agg(crate::lower::values::CType::Long(signed), leaves) => {
                        let Some(p) = self.long_place(&leaves, signed) else { return };
                        p
                    }
                    Lv::Agg(t, _) => {
                        self.not_scalar(&t, span);
                        return;
                    }
                };
                let p = match &p {
                    Place::Elem { .. } | Place::Bytes { .. } | Place::Pair { .. } if op.is_some() || self.needs_statements(r) => self.pin(p, span),
                    _ => p,
                };
                let value = self.stored_value(&p, *op, r, span).e;
                self.write_place(&p, value, span);
            }
            ExprKind::PreInc(inc, a) | ExprKind::PostInc(inc, a) => {
                let Some(p) = self.place(a) else { return };
                let p = self.pin(p, span);
                self.increment(&p, *inc, span);
            }
            ExprKind::Comma(a, b) => {
                self.expr_stmt(a);
                self.expr_stmt(b);
            }
            ExprKind::Call(..) if self.agg_type(e).is_some() => {
                let _ = self.agg_value(e);
            }
            ExprKind::Call(..) => {
                let _ = self.expr(e);
            }
            ExprKind::Cast(_, a) => self.expr_stmt(a),
            _ => {
                // Still evaluate: its reads are accesses the verifier must check.
                let v = self.expr(e);
                if v.e.has_reads() {
                    let t = self.temp();
                    self.emit(k::StmtKind::Local(sp_id(&t, span), Some(v.e)), span);
                }
            }
        }
    }
}

fn clone_place(p: &Place) -> Place {
    p.clone()
}

/// Might `e` read the word at `p` (a local by name, an element by its array)?
fn reads_place(e: &k::Expr, p: &Place) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        found |= match (&x.kind, p) {
            (k::ExprKind::Var(v), Place::Local(n, _)) => &v.name == n,
            (k::ExprKind::Index(a, _), Place::Elem { array, .. } | Place::Bytes { array, .. }) => &a.name == array,
            (_, Place::Pair { .. }) => true,
            _ => false,
        }
    });
    found
}
