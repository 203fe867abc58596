//! Annotations that must be one expression (loop invariants) although lowering computed
//! them through temporaries: the temporaries replaced by their values.

use kpl_lang::ast as k;
use std::collections::HashMap;

/// `c` with the temporaries that lowering bound for it (`bind_temp`, as 64-bit arithmetic
/// does) replaced by their values: an annotation that must be one expression may still
/// compute through them. None if a statement is anything but such a binding, or if the
/// expression would grow past what the solvers should be given.
pub(crate) fn inline_temps(emitted: &[k::Stmt], c: k::Expr) -> Option<k::Expr> {
    const MAX_NODES: usize = 50_000;
    let mut binds: HashMap<String, k::Expr> = HashMap::new();
    for s in emitted {
        match &s.kind {
            k::StmtKind::Local(x, Some(v)) => {
                let v = substitute(v, &binds);
                if nodes(&v) > MAX_NODES {
                    return None;
                }
                binds.insert(x.name.clone(), v);
            }
            _ => return None,
        }
    }
    let c = substitute(&c, &binds);
    (nodes(&c) <= MAX_NODES).then_some(c)
}

/// `e` with each variable that `binds` names replaced by its value.
fn substitute(e: &k::Expr, binds: &HashMap<String, k::Expr>) -> k::Expr {
    use k::ExprKind as E;
    if binds.is_empty() {
        return e.clone();
    }
    let sub = |x: &k::Expr| Box::new(substitute(x, binds));
    let kind = match &e.kind {
        E::Var(x) => match binds.get(&x.name) {
            Some(v) => return v.clone(),
            None => E::Var(x.clone()),
        },
        E::Index(a, i) => E::Index(a.clone(), sub(i)),
        E::Unary(o, a) => E::Unary(*o, sub(a)),
        E::Binary(o, a, b) => E::Binary(*o, sub(a), sub(b)),
        E::Cond(c, a, b) => E::Cond(sub(c), sub(a), sub(b)),
        E::Call(f, args) => E::Call(f.clone(), args.iter().map(|a| substitute(a, binds)).collect()),
        other => other.clone(),
    };
    k::Expr::new(kind, e.span)
}

/// The size of an expression tree.
fn nodes(e: &k::Expr) -> usize {
    use k::ExprKind as E;
    1 + match &e.kind {
        E::Index(_, i) | E::Unary(_, i) => nodes(i),
        E::Binary(_, a, b) => nodes(a) + nodes(b),
        E::Cond(c, a, b) => nodes(c) + nodes(a) + nodes(b),
        E::Call(_, args) => args.iter().map(nodes).sum(),
        _ => 0,
    }
}
