//! Pointer variables: a local `T *p = a + e;` (or `&a[e]`, or another such pointer) is the
//! array `a` seen from an offset held in a fresh KPL local, so `p[i]`, `*p`, `*(p + i)` and
//! passing `p` on are accesses of `a`. Assignments that keep the array (`p = a + k`,
//! `p += k`, `p++`) update the offset. A pointer given another array, or `NULL`, is
//! recorded and the kernel lowered again with it as a pointer of several targets
//! (`multiptr.rs`); a pointer used before any assignment gives it an array is an error
//! that says so: kpl never guesses a pointer's target.

use crate::lower::context::Lower;
use crate::lower::values::{Entity, Ty, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, Ident};
use kpl_lang::span::Span;

/// `p + x - y + z` (left-nested, as C parses it) as its leftmost term `p` and the index
/// `x - y + z`, so that `*(a + s * i + j)` is `a[s * i + j]`; `None` for anything but a
/// sum or difference. Which term is the pointer is the caller's to check.
pub(crate) fn pointer_sum(e: &Expr) -> Option<(&Expr, Expr)> {
    let ExprKind::Binary(op @ (BOp::Add | BOp::Sub), l, r) = &e.kind else { return None };
    let (base, idx) = match pointer_sum(l) {
        Some((b, i)) => (b, Some(i)),
        None => (&**l, None),
    };
    let r = (**r).clone();
    let idx = match idx {
        None if *op == BOp::Add => r,
        None => Expr::new(ExprKind::Unary(UOp::Neg, Box::new(r)), e.span),
        Some(i) => Expr::new(ExprKind::Binary(*op, Box::new(i), Box::new(r)), e.span),
    };
    Some((base, idx))
}

impl<'u> Lower<'u> {
    /// `T *p = init;` in a function body.
    pub fn pointer_decl(&mut self, x: &Declarator, ty: Ty, pointee_const: bool) {
        if x.ptrs > 1 {
            self.unsupported("pointers to pointers", x.span);
            self.bind(&x.name.name, Entity::Invalid);
            return;
        }
        if !x.dims.is_empty() {
            self.unsupported("arrays of pointers", x.span);
            self.bind(&x.name.name, Entity::Invalid);
            return;
        }
        if self.multi_pointer(&x.name, x.span, pointee_const).is_some() {
            if let Some(Init::Expr(e)) = &x.init {
                self.pointer_assign(&x.name, e, x.span);
            }
            return;
        }
        let init = match &x.init {
            Some(Init::Expr(e)) if crate::lower::multiptr::null_const(e) => {
                // `T *p = NULL;`: a target of its own (the next pass knows it).
                self.note_target((x.span, x.name.name.clone()), None);
                self.pending_decl(x, pointee_const);
                return;
            }
            Some(Init::Expr(e)) => e,
            Some(Init::List(_, sp)) => {
                self.err("a pointer cannot have an initialiser list", *sp);
                self.bind(&x.name.name, Entity::Invalid);
                return;
            }
            None => {
                self.pending_decl(x, pointee_const);
                return;
            }
        };
        let copies_multi = matches!(&init.kind, ExprKind::Ident(i) if matches!(self.lookup(&i.name), Some(Entity::Ptr { .. })));
        if matches!(init.kind, ExprKind::Cond(..)) || copies_multi {
            // `T *p = c ? a : b;` (or a copy of a pointer with several targets): declared,
            // then assigned.
            self.pending_decl(x, pointee_const);
            self.pointer_assign(&x.name, init, x.span);
            return;
        }
        let Some(target @ Entity::Array { .. }) = self.array_argument(init, pointee_const) else {
            self.bind(&x.name.name, Entity::Invalid);
            return;
        };
        self.note_target((x.span, x.name.name.clone()), Some(target.clone()));
        let Entity::Array { kpl, elem, readonly, offset, agg, .. } = target else { return };
        // Every element is a 32-bit word: only a `void` pointer has no element to read.
        if ty == Ty::Void || elem == Ty::Void {
            self.unsupported("`void` pointers", x.span);
            self.bind(&x.name.name, Entity::Invalid);
            return;
        }
        let span = x.span;
        let off = self.fresh(&format!("{}_offset", x.name.name));
        let start = match offset {
            Some(o) => k::Expr::var(&o, span),
            None => k::Expr::num(0, span),
        };
        self.emit(k::StmtKind::Local(sp_id(&off, x.name.span), Some(start)), span);
        self.pointers.insert(off.clone());
        self.ptr_decl_of.insert(off.clone(), (x.span, x.name.name.clone()));
        self.bind(&x.name.name, Entity::Array { kpl, elem, dims: vec![], readonly: readonly || pointee_const, offset: Some(off), agg });
    }

    /// A pointer variable without an array yet: its first assignment names one.
    pub(crate) fn pending_decl(&mut self, x: &Declarator, pointee_const: bool) {
        let off = self.fresh(&format!("{}_offset", x.name.name));
        self.emit(k::StmtKind::Local(sp_id(&off, x.name.span), Some(k::Expr::num(0, x.span))), x.span);
        self.pointers.insert(off.clone());
        self.ptr_decl_of.insert(off.clone(), (x.span, x.name.name.clone()));
        self.bind(&x.name.name, Entity::PendingPtr { name: x.name.name.clone(), offset: off, readonly: pointee_const });
    }

    /// `p = rhs` as a statement, for any pointer variable `p`: a choice `c ? a : b` becomes
    /// `if (c) p = a; else p = b;`.
    pub(crate) fn pointer_assign(&mut self, p: &Ident, rhs: &Expr, span: Span) {
        let target = Expr::new(ExprKind::Ident(p.clone()), p.span);
        if let ExprKind::Cond(c, a, b) = &rhs.kind {
            let set = |v: &Expr| Stmt { kind: StmtKind::Expr(Expr::new(ExprKind::Assign(None, Box::new(target.clone()), Box::new(v.clone())), span)), span };
            let s = Stmt { kind: StmtKind::If((**c).clone(), Box::new(set(a)), Some(Box::new(set(b)))), span };
            self.stmts(std::slice::from_ref(&s));
            return;
        }
        let e = Expr::new(ExprKind::Assign(None, Box::new(target), Box::new(rhs.clone())), span);
        self.stmts(std::slice::from_ref(&Stmt { kind: StmtKind::Expr(e), span }));
    }

    /// The offset local of a pointer variable named by `e`, with its array.
    fn pointer_var(&self, e: &Expr) -> Option<(String, String)> {
        let ExprKind::Ident(x) = &e.kind else { return None };
        match self.lookup(&x.name) {
            Some(Entity::Array { kpl, offset: Some(o), .. }) if self.pointers.contains(&o) => Some((kpl, o)),
            Some(Entity::PendingPtr { offset, .. }) => Some((String::new(), offset)),
            _ => None,
        }
    }

    /// The first assignment `p = a + e` of a pointer declared without an initialiser: `a`
    /// becomes its array. True if `l` was such a pointer.
    fn first_pointer_assignment(&mut self, l: &Expr, r: &Expr, span: Span) -> bool {
        let ExprKind::Ident(x) = &l.kind else { return false };
        let Some(Entity::PendingPtr { name, offset: off, readonly }) = self.lookup(&x.name) else { return false };
        let decl = self.ptr_decl_of.get(&off).cloned();
        if crate::lower::multiptr::null_const(r) {
            if let Some(d) = decl {
                self.note_target(d, None);
            }
            return true;
        }
        let Some(target @ Entity::Array { .. }) = self.array_argument(r, readonly) else {
            self.rebind(&name, Entity::Invalid);
            return true;
        };
        if let Some(d) = decl {
            self.note_target(d, Some(target.clone()));
        }
        let Entity::Array { kpl, elem, readonly: ro, offset, agg, .. } = target else { return true };
        let start = offset.map(|o| k::Expr::var(&o, span)).unwrap_or_else(|| k::Expr::num(0, span));
        self.emit(k::StmtKind::Assign(sp_id(&off, l.span), start), span);
        self.rebind(&name, Entity::Array { kpl, elem, dims: vec![], readonly: ro || readonly, offset: Some(off), agg });
        true
    }

    /// An assignment, `+=`, `-=`, `++` or `--` of a pointer variable, as a statement;
    /// false if `e` is not one (`e` is then an ordinary expression statement).
    pub fn pointer_update(&mut self, e: &Expr) -> bool {
        let span = e.span;
        if let ExprKind::Assign(None, l, r) = &e.kind {
            if let (ExprKind::Ident(p), ExprKind::Cond(..)) = (&l.kind, &r.kind) {
                if self.pointer_var(l).is_some() || matches!(self.lookup(&p.name), Some(Entity::Ptr { .. })) {
                    self.pointer_assign(p, r, span);
                    return true;
                }
            }
        }
        if let Some(done) = self.multi_update(e) {
            return done;
        }
        if let ExprKind::Assign(None, l, r) = &e.kind {
            if let ExprKind::Ident(q) = &l.kind {
                if self.is_pointer_var(l) && self.pointer_copy(q, r, span) {
                    return true;
                }
            }
        }
        let (target, new): (&Expr, Option<k::Expr>) = match &e.kind {
            ExprKind::Assign(None, l, r) if self.first_pointer_assignment(l, r, span) => return true,
            ExprKind::Assign(op, l, r) => {
                let Some((array, off)) = self.pointer_var(l) else { return false };
                if array.is_empty() {
                    self.pending_pointer(l);
                    return true;
                }
                match op {
                    None => {
                        let decl = self.ptr_decl_of.get(&off).cloned();
                        if crate::lower::multiptr::null_const(r) {
                            // The next pass knows the pointer may be `NULL`.
                            if let Some(d) = decl {
                                self.note_target(d, None);
                            }
                            return true;
                        }
                        let Some(t @ Entity::Array { .. }) = self.array_argument(r, false) else { return true };
                        if let Some(d) = decl {
                            self.note_target(d, Some(t.clone()));
                        }
                        let Entity::Array { kpl, offset, .. } = t else { return true };
                        if kpl != array && self.ptr_changed {
                            // Lowered again with both arrays known (`multiptr.rs`).
                            return true;
                        }
                        if kpl != array {
                            self.errors.push(
                                kpl_lang::Diagnostic::error(
                                    "this pointer variable is given an address in another array: kpl follows one array per pointer variable",
                                    span,
                                )
                                .with_help("use a second pointer variable for the other array"),
                            );
                            return true;
                        }
                        (l, Some(offset.map(|o| k::Expr::var(&o, span)).unwrap_or_else(|| k::Expr::num(0, span))))
                    }
                    Some(o @ (BOp::Add | BOp::Sub)) => {
                        let v = self.expr(r);
                        let step = self.convert(v, Ty::UInt, r.span);
                        let step = self.scale_step(l, step, span);
                        let kop = if *o == BOp::Add { k::BinOp::Add } else { k::BinOp::Sub };
                        let cur = k::Expr::var(&off, span);
                        (l, Some(k::Expr::new(k::ExprKind::Binary(kop, Box::new(cur), Box::new(step)), span)))
                    }
                    Some(_) => {
                        self.unsupported("this arithmetic on a pointer variable (kpl takes `=`, `+=` and `-=`)", span);
                        return true;
                    }
                }
            }
            ExprKind::PreInc(inc, a) | ExprKind::PostInc(inc, a) => {
                let Some((array, off)) = self.pointer_var(a) else { return false };
                if array.is_empty() {
                    self.pending_pointer(a);
                    return true;
                }
                let kop = if *inc { k::BinOp::Add } else { k::BinOp::Sub };
                let cur = k::Expr::var(&off, span);
                let one = self.scale_step(a, k::Expr::num(1, span), span);
                (a, Some(k::Expr::new(k::ExprKind::Binary(kop, Box::new(cur), Box::new(one)), span)))
            }
            _ => return false,
        };
        if let (Some((_, off)), Some(v)) = (self.pointer_var(target), new) {
            self.emit(k::StmtKind::Assign(sp_id(&off, target.span), v), span);
        }
        true
    }

    /// An update of a pointer with several targets (`multiptr.rs`): `p = e` sets its target
    /// and offset, `p += k`, `p++` its offset. `None` if `e` updates no such pointer.
    fn multi_update(&mut self, e: &Expr) -> Option<bool> {
        let span = e.span;
        let target = match &e.kind {
            ExprKind::Assign(_, l, _) | ExprKind::PreInc(_, l) | ExprKind::PostInc(_, l) => l,
            _ => return None,
        };
        let ExprKind::Ident(x) = &target.kind else { return None };
        if !matches!(self.lookup(&x.name), Some(Entity::Ptr { .. })) {
            return None;
        }
        let (p, step): (&Expr, Option<(bool, k::Expr)>) = match &e.kind {
            ExprKind::Assign(None, _, r) => {
                self.multi_assign(x, r, span);
                return Some(true);
            }
            ExprKind::Assign(Some(o @ (BOp::Add | BOp::Sub)), l, r) => {
                let v = self.expr(r);
                (&**l, Some((*o == BOp::Add, self.convert(v, Ty::UInt, r.span))))
            }
            ExprKind::PreInc(inc, a) | ExprKind::PostInc(inc, a) => (&**a, Some((*inc, k::Expr::num(1, span)))),
            _ => {
                self.unsupported("this arithmetic on a pointer variable (kpl takes `=`, `+=` and `-=`)", span);
                return Some(true);
            }
        };
        let Some(Entity::Ptr { off, targets, .. }) = self.lookup(&x.name) else { return None };
        let (add, step) = step?;
        // Every target moves by the same words per element (a struct's words, or its bytes
        // in an array kept at bytes), or kpl cannot keep one offset for them all.
        let mut units = Vec::new();
        for t in targets.iter().flatten() {
            if let Entity::Array { kpl, elem, agg, .. } = t {
                units.push(self.elem_units(kpl, *elem, agg));
            }
        }
        if units.windows(2).any(|w| w[0] != w[1]) {
            self.unsupported("moving a pointer that may point into arrays whose elements take different numbers of words (one kept at bytes)", span);
            return Some(true);
        }
        let step = match units.first() {
            Some(&w) if w != 1 => k::Expr::new(k::ExprKind::Binary(k::BinOp::Mul, Box::new(step), Box::new(k::Expr::num(w as u64, span))), span),
            _ => step,
        };
        let kop = if add { k::BinOp::Add } else { k::BinOp::Sub };
        let v = k::Expr::new(k::ExprKind::Binary(kop, Box::new(k::Expr::var(&off, span)), Box::new(step)), span);
        self.emit(k::StmtKind::Assign(sp_id(&off, p.span), v), span);
        Some(true)
    }

    /// A step of pointer `p` in elements, in words (a struct or vector takes several, an
    /// element of an array kept at bytes its bytes).
    fn scale_step(&mut self, p: &Expr, step: k::Expr, span: Span) -> k::Expr {
        let ExprKind::Ident(x) = &p.kind else { return step };
        let Some(Entity::Array { kpl, elem, agg, .. }) = self.lookup(&x.name) else { return step };
        match self.elem_units(&kpl, elem, &agg) {
            1 => step,
            w => k::Expr::new(k::ExprKind::Binary(k::BinOp::Mul, Box::new(step), Box::new(k::Expr::num(w as u64, span))), span),
        }
    }

    /// A use of a pointer variable before any assignment gave it an array: an error.
    pub fn pending_pointer(&mut self, e: &Expr) {
        let name = match &e.kind {
            ExprKind::Ident(x) => x.name.clone(),
            _ => "this pointer".into(),
        };
        self.errors.push(
            kpl_lang::Diagnostic::error(
                format!("kpl cannot tell which array `{name}` points into: it is used before it is assigned an array"),
                e.span,
            )
            .with_help("assign a pointer variable an array (`p = a + i;`) before using it"),
        );
    }

    /// Is `e` an update of a pointer variable (which only a statement may be)?
    pub fn is_pointer_update(&self, e: &Expr) -> bool {
        let multi = |x: &Expr| matches!(&x.kind, ExprKind::Ident(i) if matches!(self.lookup(&i.name), Some(Entity::Ptr { .. })));
        match &e.kind {
            ExprKind::Assign(_, l, _) => self.pointer_var(l).is_some() || multi(l),
            ExprKind::PreInc(_, a) | ExprKind::PostInc(_, a) => self.pointer_var(a).is_some() || multi(a),
            _ => false,
        }
    }
}
