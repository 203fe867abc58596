//! Atomic loads of arrays nothing writes, as reads: `local x := atomic cas(A[i], 0, 0);` (how
//! the C front end writes libcu++'s `load()`) is a plain `local x := A[i];` where no
//! statement of the kernel writes `A` (no store, no unknown write, no ghost copy, no atomic
//! but such loads). Nothing can change `A[i]` between, so the two read the same value, and
//! neither races with anything: a read races only with writes. The verifier then knows
//! what it read (the same in two threads that read one element under the equality
//! abstraction, a value of the array under the adversarial one) instead of an atomic's
//! arbitrary old value.

use crate::ast::*;
use std::collections::HashSet;

/// Is this atomic a load: a one-word `cas` of 0 by 0 that gives its old value?
fn is_load(a: &Atomic) -> bool {
    a.operation() == AtomicOp::Cas
        && a.shape() == AtomicShape::WORD
        && a.dest.is_some()
        && a.args.iter().all(|e| matches!(e.kind, ExprKind::Num(0)))
}

/// The arrays some statement writes, other than by a load.
fn written(b: &Block, out: &mut HashSet<String>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Store(a, _, _) | StmtKind::Touch { array: a, write: true } => {
                out.insert(a.name.clone());
            }
            StmtKind::Snapshot { dest, .. } => {
                out.insert(dest.name.clone());
            }
            StmtKind::Atomic(a) if !is_load(a) => {
                out.insert(a.array.name.clone());
            }
            StmtKind::If(_, t, e) => {
                written(t, out);
                match e.as_deref() {
                    Some(Else::Block(b)) => written(b, out),
                    Some(Else::If(s)) => written(&Block { stmts: vec![s.clone()], span: s.span }, out),
                    None => {}
                }
            }
            StmtKind::While { body, .. } => written(body, out),
            _ => {}
        }
    }
}

fn rewrite(b: &mut Block, written: &HashSet<String>) {
    for s in &mut b.stmts {
        let replaced = match &s.kind {
            StmtKind::Atomic(a) if is_load(a) && !written.contains(&a.array.name) => {
                let read = Expr::new(ExprKind::Index(a.array.clone(), Box::new(a.index.clone())), s.span);
                let dest = a.dest.clone().expect("a load has a destination");
                Some(if a.declare { StmtKind::Local(dest, Some(read)) } else { StmtKind::Assign(dest, read) })
            }
            _ => None,
        };
        if let Some(k) = replaced {
            s.kind = k;
            continue;
        }
        match &mut s.kind {
            StmtKind::If(_, t, e) => {
                rewrite(t, written);
                match e.as_deref_mut() {
                    Some(Else::Block(b)) => rewrite(b, written),
                    Some(Else::If(s)) => {
                        let mut one = Block { stmts: vec![s.clone()], span: s.span };
                        rewrite(&mut one, written);
                        if let Some(first) = one.stmts.pop() {
                            *s = first;
                        }
                    }
                    None => {}
                }
            }
            StmtKind::While { body, .. } => rewrite(body, written),
            _ => {}
        }
    }
}

/// Every atomic load of an array nothing writes, as a read (see the module doc).
pub fn to_reads(kernel: &mut Kernel) {
    let mut w = HashSet::new();
    for b in kernel.procs.iter().map(|p| &p.body).chain([&kernel.main]) {
        written(b, &mut w);
    }
    rewrite(&mut kernel.main, &w);
    for p in &mut kernel.procs {
        rewrite(&mut p.body, &w);
    }
}

#[cfg(test)]
mod tests {
    use crate::printer::print_kernel;

    fn reads(src: &str) -> String {
        let c = crate::check_kpl(src).expect("checks");
        let mut k = c.kernel;
        super::to_reads(&mut k);
        print_kernel(&k)
    }

    #[test]
    fn loads_of_unwritten_arrays_are_reads_and_others_stay() {
        let out = reads("kernel k { threads: 4; global A[4]; global B[4];\n main { local x := atomic cas(A[lid], 0, 0); local y := atomic cas(B[lid], 0, 0); local z := atomic add(B[0], 1); if x == 0 { x := atomic device cas(A[0], 0, 0); } } }");
        assert!(out.contains("local x := A[lid];"), "{out}");
        assert!(out.contains("x := A[0];"), "{out}");
        assert!(out.contains("local y := atomic cas(B[lid], 0, 0);"), "{out}");
    }

    #[test]
    fn a_store_anywhere_keeps_the_loads_atomic() {
        let out = reads("kernel k { threads: 4; global A[4];\n proc p() { A[0] := 1; }\n main { local x := atomic cas(A[lid], 0, 0); p(); } }");
        assert!(out.contains("atomic cas(A[lid], 0, 0)"), "{out}");
    }
}
