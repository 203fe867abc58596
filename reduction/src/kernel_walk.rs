//! Queries of a kernel's core form that need no reduction: every statement in a block,
//! procedures' bodies included where asked (`walk`), and whether a block holds a barrier
//! or the kernel warp collectives.

use kpl_lang::ast::{self, StmtKind, WarpOp};

/// Every statement of a block, nested ones included, in order.
pub fn walk(b: &ast::Block, f: &mut dyn FnMut(&ast::Stmt)) {
    for s in &b.stmts {
        f(s);
        match &s.kind {
            StmtKind::If(_, t, e) => {
                walk(t, f);
                match e.as_deref() {
                    Some(ast::Else::Block(b)) => walk(b, f),
                    Some(ast::Else::If(s)) => walk(&ast::Block { stmts: vec![s.clone()], span: s.span }, f),
                    None => {}
                }
            }
            StmtKind::While { body, .. } => walk(body, f),
            _ => {}
        }
    }
}

/// Does a block (or a proc it calls) execute a barrier?
pub(crate) fn contains_barrier(k: &ast::Kernel, b: &ast::Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Barrier(_) => true,
        StmtKind::If(_, t, e) => {
            contains_barrier(k, t)
                || match e.as_deref() {
                    Some(ast::Else::Block(b)) => contains_barrier(k, b),
                    Some(ast::Else::If(s)) => contains_barrier(k, &ast::Block { stmts: vec![s.clone()], span: s.span }),
                    None => false,
                }
        }
        StmtKind::While { body, .. } => contains_barrier(k, body),
        StmtKind::Call(f, _) => k.procs.iter().find(|p| p.name.name == f.name).is_some_and(|p| contains_barrier(k, &p.body)),
        _ => false,
    })
}

/// Does the kernel (its procedures too) run a warp collective that `pick` picks?
fn has_warp(k: &ast::Kernel, pick: &dyn Fn(WarpOp) -> bool) -> bool {
    let mut found = false;
    for b in k.procs.iter().map(|p| &p.body).chain([&k.main]) {
        crate::kernel_walk::walk(b, &mut |s| found |= matches!(&s.kind, StmtKind::Warp(w) if pick(w.operation())));
    }
    found
}

/// Does the kernel (its procedures too) run a warp collective?
pub(crate) fn has_warp_collectives(k: &ast::Kernel) -> bool {
    has_warp(k, &|_| true)
}

/// Does the kernel (its procedures too) run a warp barrier (`warp sync`)?
pub(crate) fn has_warp_sync(k: &ast::Kernel) -> bool {
    has_warp(k, &|op| op == WarpOp::Sync)
}
