//! Reads indexed by the partner thread's values alone (`A[other(lid)]`) moved into the
//! partner's view (`other(A[lid])`): how GPUVerify's annotations read an element the
//! partner accessed (its arrays are one memory for both threads, kpl's a view per thread).
//! The C front end writes loop invariants so; the verifier reads barrier invariants so.

use crate::ast::{Builtin, Expr, ExprKind, Ident};

/// `other(e)`.
pub fn other(e: Expr) -> Expr {
    let span = e.span;
    Expr::new(ExprKind::Call(Ident::new(Builtin::Other.name(), span), vec![e]), span)
}

pub fn is_other(f: &Ident) -> bool {
    Builtin::from_name(&f.name) == Some(Builtin::Other)
}

/// `e` with every read whose index uses only the partner's values (`A[other(lid)]`) read in
/// the partner's view (`other(A[lid])`).
pub fn localize_reads(e: &Expr) -> Expr {
    let mut out = e.clone();
    rewrite(&mut out);
    out
}

fn rewrite(e: &mut Expr) {
    if let ExprKind::Index(a, i) = &e.kind {
        if let Some(stripped) = partner_only(i) {
            *e = other(Expr::new(ExprKind::Index(a.clone(), Box::new(stripped)), e.span));
            return;
        }
    }
    match &mut e.kind {
        ExprKind::Index(_, i) | ExprKind::Unary(_, i) => rewrite(i),
        ExprKind::Binary(_, a, b) => {
            rewrite(a);
            rewrite(b);
        }
        ExprKind::Cond(c, a, b) => {
            rewrite(c);
            rewrite(a);
            rewrite(b);
        }
        // Inside `other` the thread is the partner already.
        ExprKind::Call(f, _) if is_other(f) => {}
        ExprKind::Call(_, args) => args.iter_mut().for_each(rewrite),
        _ => {}
    }
}

/// If every variable and id in `i` is inside `other(...)` (and there is one): `i` with
/// those `other`s removed.
fn partner_only(i: &Expr) -> Option<Expr> {
    fn strip(e: &Expr, inside: bool, seen: &mut bool) -> Option<Expr> {
        let mut sub = |x: &Expr| strip(x, inside, seen).map(Box::new);
        let k = match &e.kind {
            ExprKind::Call(f, args) if is_other(f) && args.len() == 1 && !inside => return strip(&args[0], true, seen),
            ExprKind::Var(_) | ExprKind::Special(..) if inside => {
                *seen = true;
                e.kind.clone()
            }
            ExprKind::Num(_) | ExprKind::Bool(_) => e.kind.clone(),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, sub(a)?),
            ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, sub(a)?, sub(b)?),
            ExprKind::Cond(c, a, b) => ExprKind::Cond(sub(c)?, sub(a)?, sub(b)?),
            _ => return None,
        };
        Some(Expr::new(k, e.span))
    }
    let mut seen = false;
    strip(i, false, &mut seen).filter(|_| seen)
}
