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
            _ => {
                self.errors.push(
                    crate::Diagnostic::error(
                        format!("kpl cannot tell which array `{}` points into: it has no initialiser", x.name.name),
                        x.span,
                    )
                    .with_help("initialise a pointer variable where it is declared, e.g. `int *p = a + i;`"),
                );
                self.bind(&x.name.name, Entity::Invalid);
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
            _ => None,
        }
    }

    /// An assignment, `+=`, `-=`, `++` or `--` of a pointer variable, as a statement;
    /// false if `e` is not one (`e` is then an ordinary expression statement).
    pub fn pointer_update(&mut self, e: &Expr) -> bool {
        let span = e.span;
        let (target, new): (&Expr, Option<k::Expr>) = match &e.kind {
            ExprKind::Assign(op, l, r) => {
                let Some((array, off)) = self.pointer_var(l) else { return false };
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
                let Some((_, off)) = self.pointer_var(a) else { return false };
                let kop = if *inc { k::BinOp::Add } else { k::BinOp::Sub };
                let cur = k::Expr::var(&off, span);
                (a, Some(k::Expr::new(k::ExprKind::Binary(kop, Box::new(cur), Box::new(k::Expr::num(1, span))), span)))
            }
            _ => return false,
        };
        if let (Some((_, off)), Some(v)) = (self.pointer_var(target), new) {
            self.emit(k::StmtKind::Assign(sp_id(&off, target.span), v), span);
        }
        true
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
