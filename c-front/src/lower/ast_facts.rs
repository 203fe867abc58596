//! What the lowering asks of the C AST without lowering it: GPUVerify's annotations where
//! they stand (contracts, loop invariants, function-wide invariants, `__requires` nested in
//! blocks), and facts of statements (returns, `break`s of a `switch`, assigned names).

use crate::lower::values::sp_id;
use crate::syntax::ast::*;
use kpl_lang::ast as k;
use kpl_lang::span::Span;
use std::collections::HashSet;

/// The arguments of the `__function_wide_invariant(e);` statements that end a function
/// body (GPUVerify's rule: they come last; one elsewhere is refused where it is lowered).
/// A body that ends in a nested block `{ ... }` ends where that block ends, as code
/// generators such as PPCG write it: Bugle sees one last basic block either way.
pub(crate) fn function_wide(stmts: &[Stmt]) -> Vec<(Expr, bool)> {
    let wide = |s: &Stmt| {
        annotation(s, "__function_wide_invariant")
            .map(|e| (e.clone(), false))
            .or_else(|| annotation(s, "__function_wide_candidate_invariant").map(|e| (e.clone(), true)))
    };
    let mut out: Vec<(Expr, bool)> = stmts.iter().rev().map_while(wide).collect();
    out.reverse();
    if let Some(StmtKind::Block(b)) = stmts[..stmts.len() - out.len()].last().map(|s| &s.kind) {
        let mut inner = function_wide(&b.stmts);
        inner.extend(out);
        out = inner;
    }
    out
}

/// The `__requires(e);` (and `__global_requires`) statements of a kernel body that come
/// after its first statements but only in nested blocks `{ ... }` that the body runs
/// unconditionally, and name only parameters the kernel never assigns: code generators
/// such as PPCG write a kernel's preconditions there, and GPUVerify (Bugle) takes every
/// `__requires` of a function as a precondition wherever it stands. Any other one stays
/// a check where it stands.
pub(crate) fn nested_requires<'s>(f: &Func, stmts: &'s [Stmt]) -> Vec<&'s Stmt> {
    let mut fixed: HashSet<String> = f.params.iter().filter_map(|p| p.name.as_ref().map(|n| n.name.clone())).collect();
    let assigned = assigned_names(f.body.as_ref());
    fixed.retain(|n| !assigned.contains(n));
    if let Some(b) = &f.body {
        for s in &b.stmts {
            s.walk_stmts(&mut |s| {
                if let StmtKind::Decl(d) = &s.kind {
                    d.decls.iter().for_each(|x| {
                        fixed.remove(&x.name.name);
                    });
                }
            });
        }
    }
    // GPUVerify's pure helpers may appear (PPCG writes `__ite` in its preconditions).
    const PURE: [&str; 2] = ["__ite", "__implies"];
    let only_fixed = |e: &Expr| {
        let mut ok = true;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Ident(n) if !fixed.contains(&n.name) && !PURE.contains(&n.name.as_str()) => ok = false,
            ExprKind::Call(g, _) if !matches!(&g.kind, ExprKind::Ident(n) if PURE.contains(&n.name.as_str())) => ok = false,
            ExprKind::Assign(..) | ExprKind::PreInc(..) | ExprKind::PostInc(..) | ExprKind::Index(..) => ok = false,
            _ => {}
        });
        ok
    };
    fn visit<'s>(stmts: &'s [Stmt], top: bool, pick: &dyn Fn(&Expr) -> bool, out: &mut Vec<&'s Stmt>) {
        for s in stmts {
            match &s.kind {
                StmtKind::Block(b) => visit(&b.stmts, false, pick, out),
                _ if top => {}
                _ => {
                    if let Some(e) = annotation(s, "__requires").or_else(|| annotation(s, "__global_requires")) {
                        if pick(e) {
                            out.push(s);
                        }
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    visit(stmts, true, &only_fixed, &mut out);
    out
}

/// `name(e);` as a statement: the annotation's argument.
pub(crate) fn annotation<'s>(s: &'s Stmt, name: &str) -> Option<&'s Expr> {
    match &s.kind {
        StmtKind::Expr(e) => call_annotation(e, name),
        _ => None,
    }
}

/// `name(a)` as an expression: gives `a`.
pub(crate) fn call_annotation<'e>(e: &'e Expr, name: &str) -> Option<&'e Expr> {
    if let ExprKind::Call(f, args) = &e.kind {
        if let (ExprKind::Ident(x), [a]) = (&f.kind, args.as_slice()) {
            if x.name == name {
                return Some(a);
            }
        }
    }
    None
}

/// The loop invariant annotations (GPUVerify's; the candidate ones Houdini may drop).
pub(crate) const INVARIANTS: [(&str, bool); 4] = [
    ("__invariant", false),
    ("__global_invariant", false),
    ("__candidate_invariant", true),
    ("__candidate_global_invariant", true),
];

/// A loop invariant annotation as a statement: its expression, and whether it is a
/// candidate.
pub(crate) fn invariant_stmt(s: &Stmt) -> Option<(&Expr, bool)> {
    INVARIANTS.iter().find_map(|(n, cand)| annotation(s, n).map(|e| (e, *cand)))
}

pub(crate) fn invariant_call(e: &Expr) -> Option<(&Expr, bool)> {
    INVARIANTS.iter().find_map(|(n, cand)| call_annotation(e, n).map(|x| (x, *cand)))
}

/// GPUVerify's invariants in a loop condition: `__invariant(a), __invariant(b), cond`
/// gives `[a, b]` and `cond` (a condition without them: none, and itself).
pub(crate) fn condition_invariants(c: &Expr) -> (Vec<(Span, &Expr, bool)>, &Expr) {
    let mut items = Vec::new();
    let mut cur = c;
    while let ExprKind::Comma(l, r) = &cur.kind {
        items.push(&**r);
        cur = l;
    }
    items.push(cur);
    items.reverse();
    let Some((cond, rest)) = items.split_last() else { return (vec![], c) };
    let invs: Option<Vec<(Span, &Expr, bool)>> = rest.iter().map(|e| invariant_call(e).map(|(a, cand)| (e.span, a, cand))).collect();
    match invs {
        Some(invs) if !invs.is_empty() => (invs, cond),
        _ => (vec![], c),
    }
}

pub(crate) fn is_loop(s: &Stmt) -> bool {
    matches!(s.kind, StmtKind::While(..) | StmtKind::For(..) | StmtKind::DoWhile(..))
}

/// Does `c` speak of the other thread (`other(...)`)?
pub(crate) fn mentions_other(c: &k::Expr) -> bool {
    let mut found = false;
    c.walk(&mut |e| found |= matches!(&e.kind, k::ExprKind::Call(f, _) if k::Builtin::from_name(&f.name) == Some(k::Builtin::Other)));
    found
}

/// `implies(other(enabled()), c)`.
pub(crate) fn both_called(c: k::Expr, span: Span) -> k::Expr {
    let call = |b: k::Builtin, args: Vec<k::Expr>| k::Expr::new(k::ExprKind::Call(sp_id(b.name(), span), args), span);
    let other_enabled = call(k::Builtin::Other, vec![call(k::Builtin::Enabled, Vec::new())]);
    call(k::Builtin::Implies, vec![other_enabled, c])
}

/// A body's statements after its leading `__requires`/`__ensures` (and global ones).
pub(crate) fn after_contract(stmts: &[Stmt]) -> &[Stmt] {
    let contract = |s: &Stmt| ["__requires", "__global_requires", "__ensures", "__global_ensures"].iter().any(|n| annotation(s, n).is_some());
    &stmts[stmts.iter().take_while(|s| contract(s)).count()..]
}

pub(crate) fn has_return(stmts: &[Stmt]) -> bool {
    stmts.iter().any(stmt_returns)
}

/// May `s` execute a `break` of the switch it is in (not of a loop or switch inside it)?
pub(crate) fn breaks_switch(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(b) => b.stmts.iter().any(breaks_switch),
        StmtKind::If(_, t, e) => breaks_switch(t) || e.as_deref().is_some_and(breaks_switch),
        _ => false,
    }
}

pub(crate) fn stmt_returns(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Block(b) => has_return(&b.stmts),
        StmtKind::If(_, t, e) => stmt_returns(t) || e.as_deref().is_some_and(stmt_returns),
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For(_, _, _, b) | StmtKind::Switch(_, b) => stmt_returns(b),
        _ => false,
    }
}

/// Names assigned anywhere in a function body (to copy assigned params into locals).
/// The name an assigned pointer parameter's array is bound to, which no C name can be:
/// the parameter's own name is the pointer variable the body assigns.
pub(crate) fn param_array_name(param: &str) -> String {
    format!("{param}@param")
}

pub(crate) fn assigned_names(b: Option<&Block>) -> HashSet<String> {
    let mut out = HashSet::new();
    fn target(e: &Expr, out: &mut HashSet<String>) {
        match &e.kind {
            ExprKind::Ident(x) => {
                out.insert(x.name.clone());
            }
            // `s.f = ...` and `s.a[i] = ...` assign (part of) the struct variable `s`.
            ExprKind::Member(b, _) => target(b, out),
            ExprKind::Index(b, _) if matches!(b.kind, ExprKind::Member(..)) => target(b, out),
            _ => {}
        }
    }
    let mut visit = |e: &Expr| match &e.kind {
        ExprKind::Assign(_, l, _) | ExprKind::PreInc(_, l) | ExprKind::PostInc(_, l) => target(l, &mut out),
        _ => {}
    };
    if let Some(b) = b {
        b.stmts.iter().for_each(|s| s.walk_exprs(&mut |e| e.walk(&mut visit)));
    }
    out
}
