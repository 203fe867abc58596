//! Lowering temporaries (`_tN`) that no expression reads, removed after folding by the
//! launch (`word_ranges.rs`): the pieces of 64-bit arithmetic (a product's high word, its
//! carries) that the launch made constant and nothing uses. Only a temporary's own
//! declarations, assignments and havocs go, and only where what they assign reads no
//! array: an access is never dropped, and every other statement stays as it is.

use crate::ast::*;
use std::collections::HashSet;

/// Is this a temporary the C lowering made (`_t1`, `_t12_1`)?
fn temporary(name: &str) -> bool {
    name.strip_prefix("_t").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

/// Remove the temporaries nothing reads, until none is left.
pub fn remove(kernel: &mut Kernel) {
    loop {
        let mut read = HashSet::new();
        for d in &kernel.decls {
            if let DeclKind::Requires(e) = &d.kind {
                names(e, &mut read);
            }
        }
        for b in kernel.procs.iter().map(|p| &p.body).chain([&kernel.main]) {
            reads(b, &mut read);
        }
        let mut removed = prune(&mut kernel.main, &read);
        for p in &mut kernel.procs {
            removed += prune(&mut p.body, &read);
        }
        if removed == 0 {
            return;
        }
    }
}

fn names(e: &Expr, out: &mut HashSet<String>) {
    e.walk(&mut |x| {
        if let ExprKind::Var(v) = &x.kind {
            out.insert(v.name.clone());
        }
    });
}

/// Every local name an expression of the block reads.
fn reads(b: &Block, out: &mut HashSet<String>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Local(_, e) => e.iter().for_each(|e| names(e, out)),
            StmtKind::Assign(_, e) | StmtKind::Assert(e, _) | StmtKind::Assume(e) => names(e, out),
            StmtKind::Store(_, i, v) => {
                names(i, out);
                names(v, out);
            }
            StmtKind::If(c, t, e) => {
                names(c, out);
                reads(t, out);
                match e.as_deref() {
                    Some(Else::Block(b)) => reads(b, out),
                    Some(Else::If(s)) => reads(&Block { stmts: vec![(*s).clone()], span: s.span }, out),
                    None => {}
                }
            }
            StmtKind::While { cond, invariants, candidates, body } => {
                names(cond, out);
                invariants.iter().chain(candidates).for_each(|e| names(e, out));
                reads(body, out);
            }
            StmtKind::Call(_, args) => args.iter().for_each(|e| names(e, out)),
            StmtKind::Barrier(f) => {
                names(&f.shared, out);
                names(&f.global, out);
                for inv in &f.invariants {
                    names(&inv.expr, out);
                    inv.insts.iter().flatten().for_each(|e| names(e, out));
                }
            }
            StmtKind::Atomic(a) => {
                names(&a.index, out);
                a.args.iter().for_each(|e| names(e, out));
            }
            StmtKind::Warp(w) => {
                w.args.iter().chain(w.exited.iter()).for_each(|e| names(e, out));
            }
            StmtKind::MemFence(..)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Havoc(_)
            | StmtKind::Touch { .. }
            | StmtKind::Snapshot { .. }
            | StmtKind::Error => {}
        }
    }
}

/// Does the expression read no array?
fn pure(e: &Expr) -> bool {
    let mut ok = true;
    e.walk(&mut |x| ok &= !matches!(x.kind, ExprKind::Index(..)));
    ok
}

/// Drop the dead temporaries' statements from the block; how many were dropped.
fn prune(b: &mut Block, read: &HashSet<String>) -> usize {
    let dead = |x: &Ident| temporary(&x.name) && !read.contains(&x.name);
    let before = b.stmts.len();
    b.stmts.retain(|s| match &s.kind {
        StmtKind::Local(x, e) => !(dead(x) && e.as_ref().is_none_or(pure)),
        StmtKind::Assign(x, e) => !(dead(x) && pure(e)),
        StmtKind::Havoc(x) => !dead(x),
        _ => true,
    });
    let mut removed = before - b.stmts.len();
    for s in &mut b.stmts {
        match &mut s.kind {
            StmtKind::If(_, t, e) => {
                removed += prune(t, read);
                match e.as_deref_mut() {
                    Some(Else::Block(eb)) => removed += prune(eb, read),
                    Some(Else::If(s)) => {
                        let mut one = Block { stmts: vec![(*s).clone()], span: s.span };
                        let n = prune(&mut one, read);
                        if n > 0 {
                            removed += n;
                            *e = Some(Box::new(Else::Block(one)));
                        }
                    }
                    None => {}
                }
            }
            StmtKind::While { body, .. } => removed += prune(body, read),
            _ => {}
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    #[test]
    fn unread_pure_temporaries_go_and_everything_else_stays() {
        let src = "kernel k { threads: 4; global A[*]; main { local _t1 := lid.x * 3; local _t2 := A[lid.x]; local _t3 := 0; \
                   _t3 := _t1 + 1; local x := lid.x; if x < 2 { local _t4 := 5; } A[x] := 1; } }";
        let mut k = crate::check_kpl(src).unwrap().kernel;
        super::remove(&mut k);
        let text = crate::printer::print_kernel(&k);
        assert!(!text.contains("_t1") && !text.contains("_t3") && !text.contains("_t4"), "{text}");
        assert!(text.contains("local _t2 := A[lid.x]"), "a read of an array stays: {text}");
        assert!(text.contains("local x := lid.x") && text.contains("A[x] := 1"), "{text}");
        assert!(crate::check_kpl(&text).is_ok());
    }
}
