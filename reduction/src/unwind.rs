//! How many times the bounded search before inference unrolls each loop: a loop whose
//! trip count is a constant (`local k := 0; while slt(k, 16) { ...; k := k + 1; }`) as
//! many times as it runs, so that the search reaches the code after it (a loop cut after
//! two of its sixteen iterations has no execution that leaves it); any other loop the
//! default number of times. Any count is sound for a bounded search (it only chooses
//! which executions are searched); these keep the search small: at most [`MAX_TRIPS`]
//! iterations of one loop, [`MAX_COPIES`] copies of a body inside unrolled loops and
//! [`MAX_STATEMENTS`] statements in those copies.

use kpl_lang::ast::{BinOp, Block, Builtin, Else, Expr, ExprKind, Kernel, Stmt, StmtKind};
use std::collections::HashMap;

/// The most iterations a constant loop is unrolled to.
pub const MAX_TRIPS: u32 = 32;
/// The most copies of a loop body the unrolled loops around it (and it) may make.
const MAX_COPIES: u32 = 256;
/// The most statements (nested ones included) the copies of one unrolled body may hold.
const MAX_STATEMENTS: u32 = 4096;

/// The loops of `kernel` (keyed by the address of their `while` statement) to unroll
/// other than `default` times, with their counts.
pub fn constant_trips(kernel: &Kernel, default: u32) -> HashMap<usize, u32> {
    let mut trips = HashMap::new();
    block(&kernel.main, 1, default, &mut trips);
    for p in &kernel.procs {
        block(&p.body, 1, default, &mut trips);
    }
    trips
}

fn block(b: &Block, copies: u32, default: u32, trips: &mut HashMap<usize, u32>) {
    for (i, s) in b.stmts.iter().enumerate() {
        visit(s, &b.stmts[..i], copies, default, trips);
    }
}

/// A statement after the statements `before` of its block, inside unrolled loops that make
/// `copies` copies of it.
fn visit(s: &Stmt, before: &[Stmt], copies: u32, default: u32, trips: &mut HashMap<usize, u32>) {
    match &s.kind {
        StmtKind::While { cond, body, .. } => {
            let n = trip_count(before, cond, body).filter(|&n| {
                let copies = copies.saturating_mul(n);
                n > default && copies <= MAX_COPIES && copies.saturating_mul(statements(body)) <= MAX_STATEMENTS
            });
            if let Some(n) = n {
                trips.insert(s as *const Stmt as usize, n);
            }
            block(body, copies.saturating_mul(n.unwrap_or(default)), default, trips);
        }
        StmtKind::If(_, t, e) => {
            block(t, copies, default, trips);
            match e.as_deref() {
                Some(Else::Block(b)) => block(b, copies, default, trips),
                Some(Else::If(s)) => visit(s, &[], copies, default, trips),
                None => {}
            }
        }
        _ => {}
    }
}

/// The iterations of `while cond { body }` after the statements `before` of its block,
/// where the condition compares one local with a constant, the local's last assignment
/// before the loop is a constant, and the body changes it only by one top-level
/// `v := v op c`; `None` otherwise or past [`MAX_TRIPS`].
fn trip_count(before: &[Stmt], cond: &Expr, body: &Block) -> Option<u32> {
    let v = counter(cond)?;
    let mut start = None;
    for s in before.iter().rev() {
        match &s.kind {
            StmtKind::Local(x, Some(e)) | StmtKind::Assign(x, e) if x.name == v => {
                start = Some(constant(e)?);
                break;
            }
            _ if assigns(s, v) => return None,
            _ => {}
        }
    }
    let mut x = start?;
    let mut steps = body.stmts.iter().filter(|s| assigns(s, v));
    let step = steps.next()?;
    if steps.next().is_some() {
        return None;
    }
    let StmtKind::Assign(_, update) = &step.kind else { return None };
    for n in 0..=MAX_TRIPS {
        if eval(cond, v, x)? == 0 {
            return Some(n);
        }
        x = eval(update, v, x)?;
    }
    None
}

/// The local a loop condition compares with a constant.
fn counter(cond: &Expr) -> Option<&str> {
    let (a, b) = match &cond.kind {
        ExprKind::Binary(op, a, b) if matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne) => (&**a, &**b),
        ExprKind::Call(f, args) if args.len() == 2 && matches!(Builtin::from_name(&f.name), Some(Builtin::Slt | Builtin::Sle | Builtin::Sgt | Builtin::Sge)) => {
            (&args[0], &args[1])
        }
        _ => return None,
    };
    match (&a.kind, &b.kind) {
        (ExprKind::Var(x), _) if constant(b).is_some() => Some(&x.name),
        (_, ExprKind::Var(x)) if constant(a).is_some() => Some(&x.name),
        _ => None,
    }
}

/// The value of an expression of constants.
fn constant(e: &Expr) -> Option<u32> {
    eval(e, "", 0)
}

/// The value of `e` where the local `v` is `x` (and no other local appears).
fn eval(e: &Expr, v: &str, x: u32) -> Option<u32> {
    Some(match &e.kind {
        ExprKind::Num(n) => *n as u32,
        ExprKind::Var(y) if y.name == v => x,
        ExprKind::Unary(op, a) => kpl_lang::ops::unary(*op, eval(a, v, x)?),
        ExprKind::Binary(op, a, b) => kpl_lang::ops::binary(*op, eval(a, v, x)?, eval(b, v, x)?),
        ExprKind::Call(f, args) if args.len() == 2 => {
            let b = Builtin::from_name(&f.name).filter(|b| Builtin::INTEGER.contains(b))?;
            kpl_lang::ops::builtin(b, eval(&args[0], v, x)?, eval(&args[1], v, x)?)
        }
        _ => return None,
    })
}

/// The statements of a block, nested ones included.
fn statements(b: &Block) -> u32 {
    let mut n = 0u32;
    crate::kernel_walk::walk(b, &mut |_| n = n.saturating_add(1));
    n
}

/// Whether `s` (or a statement inside it) may assign the local `v`.
fn assigns(s: &Stmt, v: &str) -> bool {
    let any = |b: &Block| b.stmts.iter().any(|s| assigns(s, v));
    match &s.kind {
        StmtKind::Local(x, _) | StmtKind::Assign(x, _) | StmtKind::Havoc(x) => x.name == v,
        StmtKind::Atomic(a) => [&a.dest, &a.dest_hi].iter().any(|d| d.as_ref().is_some_and(|d| d.name == v)),
        StmtKind::Warp(w) => w.dest.as_ref().is_some_and(|d| d.name == v),
        StmtKind::If(_, t, e) => {
            any(t)
                || match e.as_deref() {
                    Some(Else::Block(b)) => any(b),
                    Some(Else::If(s)) => assigns(s, v),
                    None => false,
                }
        }
        StmtKind::While { body, .. } => any(body),
        // A proc cannot assign the caller's locals (KPL.md: procs see no caller locals).
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts of the kernel's loops, in source order (0: the default).
    fn counts(main: &str) -> Vec<u32> {
        let k = kpl_lang::check_kpl(&format!("kernel k {{ threads: 4; param n; shared s[64]; main {{ {main} }} }}")).unwrap().kernel;
        let trips = constant_trips(&k, 2);
        let mut out = Vec::new();
        crate::kernel_walk::walk(&k.main, &mut |s| {
            if matches!(s.kind, StmtKind::While { .. }) {
                out.push(trips.get(&(s as *const Stmt as usize)).copied().unwrap_or(0));
            }
        });
        out
    }

    #[test]
    fn a_loop_from_a_constant_by_a_constant_step_runs_its_count() {
        assert_eq!(counts("local k := 0; while slt(k, 16) { s[k] := 1; k := k + 1; }"), vec![16]);
        assert_eq!(counts("local k := 1; while k < 64 { k := k << 1; }"), vec![6]);
        assert_eq!(counts("local k := 0; local x := 0; x := 3; while k <= 9 { x := x + k; k := k + 3; }"), vec![4]);
        // Within the default, or past 32 iterations: the default.
        assert_eq!(counts("local k := 0; while k < 2 { k := k + 1; }"), vec![0]);
        assert_eq!(counts("local k := 0; while k < 33 { k := k + 1; }"), vec![0]);
    }

    #[test]
    fn a_count_the_program_does_not_fix_is_not_guessed() {
        // A parameter bound, a counter assigned in a branch or twice, a start changed after
        // its constant, and nested loops past the copy limit.
        assert_eq!(counts("local k := 0; while k < n { k := k + 1; }"), vec![0]);
        assert_eq!(counts("local k := 0; while k < 8 { if lid == 0 { k := k + 1; } }"), vec![0]);
        assert_eq!(counts("local k := 0; while k < 8 { k := k + 1; k := k + 1; }"), vec![0]);
        assert_eq!(counts("local k := 0; if lid == 0 { k := 5; } while k < 8 { k := k + 1; }"), vec![0]);
        assert_eq!(
            counts("local i := 0; while i < 32 { local j := 0; while j < 32 { s[j] := i; j := j + 1; } i := i + 1; }"),
            vec![32, 0]
        );
    }
}
