//! The nesting limit: a kernel nested deeper than `MAX_DEPTH` (statements inside statements,
//! operands inside operators) is a diagnostic, because every later stage recurses over
//! the tree. Measured without recursion, so that the measuring itself cannot overflow.

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The deepest nesting accepted (a long `a + b + c + ...` chain counts one level per
/// operator). Real kernels stay far below; kpl's stages handle this depth on the stack
/// the binary gives them (2 GiB), about 20 KiB a level.
pub const MAX_DEPTH: usize = 100_000;

static LIMIT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(MAX_DEPTH);

/// The nesting limit in force: `MAX_DEPTH`, or less where the binary got a smaller stack
/// (a process with an address-space limit).
pub fn max_depth() -> usize {
    LIMIT.load(std::sync::atomic::Ordering::Relaxed)
}

/// Lower the nesting limit (at most `MAX_DEPTH`), to what the stack the stages run on holds.
pub fn set_max_depth(n: usize) {
    LIMIT.store(n.clamp(1, MAX_DEPTH), std::sync::atomic::Ordering::Relaxed);
}

/// Something nested: its span and the things directly inside it.
pub trait Nested {
    fn span(&self) -> Span;
    fn children<'a>(&'a self, out: &mut Vec<&'a dyn Nested>);
}

/// The first place nested deeper than `limit`, as a diagnostic.
pub fn too_deep(roots: &[&dyn Nested], limit: usize) -> Option<Diagnostic> {
    let mut stack: Vec<(&dyn Nested, usize)> = roots.iter().map(|r| (*r, 1)).collect();
    let mut kids = Vec::new();
    while let Some((n, d)) = stack.pop() {
        if d > limit {
            return Some(
                Diagnostic::error(format!("nested more than {limit} levels deep"), n.span())
                    .with_help("kpl bounds nesting (statements in statements, operands in operators) so that every stage can walk the kernel; split the expression or the control flow"),
            );
        }
        kids.clear();
        n.children(&mut kids);
        stack.extend(kids.iter().map(|k| (*k, d + 1)));
    }
    None
}

impl Nested for Expr {
    fn span(&self) -> Span {
        self.span
    }
    fn children<'a>(&'a self, out: &mut Vec<&'a dyn Nested>) {
        match &self.kind {
            ExprKind::Index(_, i) => out.push(&**i),
            ExprKind::Unary(_, a) => out.push(&**a),
            ExprKind::Binary(_, a, b) => out.extend([&**a as &dyn Nested, &**b]),
            ExprKind::Cond(a, b, c) => out.extend([&**a as &dyn Nested, &**b, &**c]),
            ExprKind::Call(_, args) => out.extend(args.iter().map(|a| a as &dyn Nested)),
            _ => {}
        }
    }
}

impl Nested for Block {
    fn span(&self) -> Span {
        self.span
    }
    fn children<'a>(&'a self, out: &mut Vec<&'a dyn Nested>) {
        out.extend(self.stmts.iter().map(|s| s as &dyn Nested));
    }
}

impl Nested for Stmt {
    fn span(&self) -> Span {
        self.span
    }
    fn children<'a>(&'a self, out: &mut Vec<&'a dyn Nested>) {
        match &self.kind {
            StmtKind::Local(_, Some(e)) | StmtKind::Assign(_, e) | StmtKind::Assert(e, _) | StmtKind::Assume(e) => out.push(e),
            StmtKind::Store(_, i, e) => out.extend([i as &dyn Nested, e]),
            StmtKind::If(c, t, e) => {
                out.extend([c as &dyn Nested, t]);
                match e.as_deref() {
                    Some(Else::Block(b)) => out.push(b),
                    Some(Else::If(s)) => out.push(s),
                    None => {}
                }
            }
            StmtKind::While { cond, invariants, candidates, body } => {
                out.push(cond);
                out.extend(invariants.iter().chain(candidates).map(|i| i as &dyn Nested));
                out.push(body);
            }
            StmtKind::Call(_, args) => out.extend(args.iter().map(|a| a as &dyn Nested)),
            StmtKind::Barrier(f) => {
                out.extend([&f.shared as &dyn Nested, &f.global]);
                for inv in &f.invariants {
                    out.push(&inv.expr);
                    out.extend(inv.insts.iter().flatten().map(|e| e as &dyn Nested));
                }
            }
            StmtKind::Atomic(a) => {
                out.push(&a.index);
                out.extend(a.args.iter().map(|e| e as &dyn Nested));
            }
            StmtKind::Warp(w) => out.extend(w.args.iter().map(|e| e as &dyn Nested)),
            _ => {}
        }
    }
}

/// The kernel's nesting, checked: declarations, procs and `main`.
pub fn check_kernel(k: &Kernel) -> Option<Diagnostic> {
    let mut roots: Vec<&dyn Nested> = Vec::new();
    for d in &k.decls {
        if let DeclKind::Requires(e) = &d.kind {
            roots.push(e);
        }
    }
    roots.extend(k.procs.iter().map(|p| &p.body as &dyn Nested));
    roots.push(&k.main);
    too_deep(&roots, max_depth())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_chain_is_refused_at_the_limit() {
        let sum = vec!["lid"; 50].join(" + ");
        let src = format!("kernel k {{ threads: 4; global A[4]; main {{ A[lid] := {sum}; }} }}");
        let k = crate::parser::parse(&src).kernel.unwrap();
        assert!(check_kernel(&k).is_none());
        let roots: Vec<&dyn Nested> = vec![&k.main];
        // main, the store, then 49 `+` levels and a leaf: 52 levels.
        assert!(too_deep(&roots, 52).is_none());
        let d = too_deep(&roots, 51).expect("too deep");
        assert!(d.message.contains("nested more than 51 levels"), "{}", d.message);
    }
}
