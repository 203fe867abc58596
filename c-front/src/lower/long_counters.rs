//! A candidate invariant for `for` loops over a 64-bit counter, as GPUVerify's bit-vector
//! candidates give it (`c >= 32 * b0`): kpl keeps a `long` as two words, which the
//! inference over words (`reduction/src/candidates.rs`) cannot relate, so the front end
//! states it over the C counter, against a ghost copy of its start, and lowers it like any
//! `__candidate_invariant`. Houdini keeps it only if it proves it.

use crate::lower::context::Lower;
use crate::lower::values::{CType, Entity};
use crate::syntax::ast::*;
use kpl_lang::ast::Ident;
use kpl_lang::span::Span;

/// A recognised counter: its name and its constant step.
struct Counter<'a> {
    name: &'a Ident,
    step: i64,
}

impl<'u> Lower<'u> {
    /// The candidate for `for (init; ...; step) body` when `init` sets a 64-bit local
    /// and `step` adds a constant: the counter stays on the side of its start that the
    /// step moves to. The start is a ghost copy of the counter declared here, after
    /// `init` (`x@start`, a name no C identifier can be), so the candidate is pure however
    /// `init` computes the start, and relates to what it was computed from wherever the
    /// loop leaves that alone. That the counter is a multiple of the step away from its
    /// start is left to the inference over words, which sees the low word's stride, and
    /// that it stays below 2^32 is not stated: on PPCG's kernels each cost more solver
    /// time than it saved (the 64-bit remainder much more). None for any other loop.
    pub(crate) fn long_counter_candidate(&mut self, init: Option<&Stmt>, step: Option<&Expr>, span: Span) -> Option<Expr> {
        let c = counter(init, step).filter(|c| c.step != 0)?;
        let Some(Entity::Record { ty: CType::Long(signed), .. }) = self.lookup(&c.name.name) else { return None };
        let x = || Expr::new(ExprKind::Ident(c.name.clone()), span);
        let start = Ident::new(format!("{}@start", c.name.name), span);
        let word = |w: &str| Spec { word: w.to_string(), span };
        let specs = if signed { vec![word("long")] } else { vec![word("unsigned"), word("long")] };
        let ghost = Declarator { ptrs: 0, reference: false, name: start.clone(), dims: Vec::new(), init: Some(Init::Expr(x())), span };
        self.local_decl(&Decl { specs, decls: vec![ghost], span });
        let from = Expr::new(ExprKind::Ident(start), span);
        let op = if c.step > 0 { BOp::Ge } else { BOp::Le };
        Some(Expr::new(ExprKind::Binary(op, Box::new(x()), Box::new(from)), span))
    }
}

/// The counter of `for (init; ...; step)`: `long x = e` or `x = e`, then `x++`, `++x`,
/// `x--`, `--x`, `x += k`, `x -= k` or `x = x + k` for a literal `k`.
fn counter<'a>(init: Option<&'a Stmt>, step: Option<&'a Expr>) -> Option<Counter<'a>> {
    let name = match &init?.kind {
        StmtKind::Decl(d) => match d.decls.as_slice() {
            [Declarator { ptrs: 0, reference: false, name, dims, init: Some(Init::Expr(_)), .. }] if dims.is_empty() => name,
            _ => return None,
        },
        StmtKind::Expr(Expr { kind: ExprKind::Assign(None, l, _), .. }) => match &l.kind {
            ExprKind::Ident(x) => x,
            _ => return None,
        },
        _ => return None,
    };
    let is_x = |e: &Expr| matches!(&e.kind, ExprKind::Ident(y) if y.name == name.name);
    let step = match &step?.kind {
        ExprKind::PreInc(inc, e) | ExprKind::PostInc(inc, e) if is_x(e) => {
            if *inc {
                1
            } else {
                -1
            }
        }
        ExprKind::Assign(Some(op @ (BOp::Add | BOp::Sub)), l, r) if is_x(l) => {
            let k = literal(r)?;
            if *op == BOp::Add {
                k
            } else {
                k.checked_neg()?
            }
        }
        ExprKind::Assign(None, l, r) if is_x(l) => match &r.kind {
            ExprKind::Binary(BOp::Add, a, k) if is_x(a) => literal(k)?,
            ExprKind::Binary(BOp::Add, k, a) if is_x(a) => literal(k)?,
            ExprKind::Binary(BOp::Sub, a, k) if is_x(a) => literal(k)?.checked_neg()?,
            _ => return None,
        },
        _ => return None,
    };
    Some(Counter { name, step })
}

/// A literal step, possibly negated, that fits in 32 bits.
fn literal(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(n, _) | ExprKind::LongInt(n, _) if *n < 1 << 31 => Some(*n as i64),
        ExprKind::Unary(UOp::Neg, a) => literal(a).map(|n| -n),
        _ => None,
    }
}
