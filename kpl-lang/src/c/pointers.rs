//! Pointer variables: a local `T *p = a + e;` (or `&a[e]`, or another such pointer) is the
//! array `a` seen from an offset held in a fresh KPL local, so `p[i]`, `*p`, `*(p + i)` and
//! passing `p` on are accesses of `a`. Assignments that keep the array (`p = a + k`,
//! `p += k`, `p++`) update the offset. A pointer whose array cannot be determined (no
//! initialiser, another array assigned later, a choice between arrays) is an error that
//! says so: kpl never guesses a pointer's target.

use super::ast::*;
use super::lower::{Entity, Lower, Ty};
use crate::ast as k;
use crate::span::Span;

fn sp_id(name: &str, span: Span) -> k::Ident {
    k::Ident { name: name.to_string(), span }
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
        let init = match &x.init {
            Some(Init::Expr(e)) => e,
            Some(Init::List(_, sp)) => {
                self.err("a pointer cannot have an initialiser list", *sp);
                self.bind(&x.name.name, Entity::Invalid);
                return;
            }
            None => {
                // Its first assignment names its array (`pointer_update`).
                let off = self.fresh(&format!("{}_offset", x.name.name));
                self.emit(k::StmtKind::Local(sp_id(&off, x.name.span), Some(k::Expr::num(0, x.span))), x.span);
                self.pointers.insert(off.clone());
                self.bind(&x.name.name, Entity::PendingPtr { name: x.name.name.clone(), offset: off, readonly: pointee_const });
                return;
            }
        };
        let Some(Entity::Array { kpl, elem, readonly, offset, agg, .. }) = self.array_argument(init, pointee_const) else {
            self.bind(&x.name.name, Entity::Invalid);
            return;
        };
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
        self.bind(&x.name.name, Entity::Array { kpl, elem, dims: vec![], readonly: readonly || pointee_const, offset: Some(off), agg });
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
        let Some(Entity::Array { kpl, elem, readonly: ro, offset, agg, .. }) = self.array_argument(r, readonly) else {
            self.rebind(&name, Entity::Invalid);
            return true;
        };
        let start = offset.map(|o| k::Expr::var(&o, span)).unwrap_or_else(|| k::Expr::num(0, span));
        self.emit(k::StmtKind::Assign(sp_id(&off, l.span), start), span);
        self.rebind(&name, Entity::Array { kpl, elem, dims: vec![], readonly: ro || readonly, offset: Some(off), agg });
        true
    }

    /// An assignment, `+=`, `-=`, `++` or `--` of a pointer variable, as a statement;
    /// false if `e` is not one (`e` is then an ordinary expression statement).
    pub fn pointer_update(&mut self, e: &Expr) -> bool {
        let span = e.span;
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
                        let Some(Entity::Array { kpl, offset, .. }) = self.array_argument(r, false) else { return true };
                        if kpl != array {
                            self.errors.push(
                                crate::Diagnostic::error(
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

    /// A step of pointer `p` in elements, in words (a struct or vector takes several).
    fn scale_step(&mut self, p: &Expr, step: k::Expr, span: Span) -> k::Expr {
        let ExprKind::Ident(x) = &p.kind else { return step };
        let Some(Entity::Array { agg: Some(t), .. }) = self.lookup(&x.name) else { return step };
        match self.words(&t) {
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
            crate::Diagnostic::error(
                format!("kpl cannot tell which array `{name}` points into: it is used before it is assigned an array"),
                e.span,
            )
            .with_help("assign a pointer variable an array (`p = a + i;`) before using it"),
        );
    }

    /// Is `e` an update of a pointer variable (which only a statement may be)?
    pub fn is_pointer_update(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Assign(_, l, _) => self.pointer_var(l).is_some(),
            ExprKind::PreInc(_, a) | ExprKind::PostInc(_, a) => self.pointer_var(a).is_some(),
            _ => false,
        }
    }
}
