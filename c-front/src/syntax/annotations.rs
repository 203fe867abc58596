//! GPUVerify's `--no-annotations` and `--only-requires`: the kernel's source-level
//! annotations dropped before lowering (all of them, or all but `__requires`). Dropping an
//! `__assume` or a precondition only widens what is checked; dropping an invariant leaves
//! the loop to inference; dropping an `__assert` or `__ensures` is what the user asked for.

use crate::syntax::ast::*;

/// Which source-level annotations a kernel keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Annotations {
    #[default]
    All,
    /// `--only-requires`.
    OnlyRequires,
    /// `--no-annotations`.
    None,
}

impl Annotations {
    pub fn name(self) -> &'static str {
        match self {
            Annotations::All => "all",
            Annotations::OnlyRequires => "only-requires",
            Annotations::None => "none",
        }
    }

    pub fn parse(s: &str) -> Option<Annotations> {
        [Annotations::All, Annotations::OnlyRequires, Annotations::None].into_iter().find(|a| a.name() == s)
    }
}

/// The annotations GPUVerify's options drop (the access and two-thread predicates only
/// appear inside these).
const ANNOTATIONS: &[&str] = &[
    "__requires",
    "__global_requires",
    "__ensures",
    "__global_ensures",
    "__assert",
    "__global_assert",
    "__candidate_assert",
    "__candidate_global_assert",
    "__assume",
    "__invariant",
    "__global_invariant",
    "__candidate_invariant",
    "__candidate_global_invariant",
    "__function_wide_invariant",
    "__function_wide_candidate_invariant",
    "__axiom",
];

fn dropped(e: &Expr, keep: Annotations) -> bool {
    let ExprKind::Call(f, _) = &e.kind else { return false };
    let ExprKind::Ident(x) = &f.kind else { return false };
    ANNOTATIONS.contains(&x.name.as_str()) && !(keep == Annotations::OnlyRequires && x.name == "__requires")
}

/// Drop the annotations `keep` does not keep, everywhere in the unit.
pub fn filter(unit: &mut Unit, keep: Annotations) {
    if keep == Annotations::All {
        return;
    }
    unit.items.retain(|it| match it {
        Item::Call(x, _, _) => !(ANNOTATIONS.contains(&x.name.as_str()) && !(keep == Annotations::OnlyRequires && x.name == "__requires")),
        _ => true,
    });
    for it in &mut unit.items {
        if let Item::Func(f) = it {
            if let Some(b) = &mut f.body {
                block(b, keep);
            }
        }
    }
}

fn block(b: &mut Block, keep: Annotations) {
    b.stmts.retain(|s| !matches!(&s.kind, StmtKind::Expr(e) if dropped(e, keep)));
    for s in &mut b.stmts {
        stmt(s, keep);
    }
}

fn stmt(s: &mut Stmt, keep: Annotations) {
    match &mut s.kind {
        StmtKind::Block(b) => block(b, keep),
        StmtKind::If(_, t, e) => {
            stmt(t, keep);
            if let Some(e) = e {
                stmt(e, keep);
            }
        }
        StmtKind::While(c, body) => {
            condition(c, keep);
            stmt(body, keep);
        }
        StmtKind::DoWhile(body, c) => {
            stmt(body, keep);
            condition(c, keep);
        }
        StmtKind::Switch(_, body) => stmt(body, keep),
        StmtKind::For(init, c, _, body) => {
            if let Some(i) = init {
                stmt(i, keep);
            }
            if let Some(c) = c {
                condition(c, keep);
            }
            stmt(body, keep);
        }
        _ => {}
    }
}

/// `__invariant(a), cond` in a loop condition: the dropped items leave the comma list.
fn condition(c: &mut Expr, keep: Annotations) {
    let mut items = Vec::new();
    let mut cur = c.clone();
    while let ExprKind::Comma(l, r) = cur.kind {
        items.push(*r);
        cur = *l;
    }
    items.push(cur);
    items.reverse();
    if items.len() < 2 {
        return;
    }
    let last = items.len() - 1;
    let kept: Vec<Expr> = items.into_iter().enumerate().filter(|(i, e)| *i == last || !dropped(e, keep)).map(|(_, e)| e).collect();
    let span = c.span;
    let mut it = kept.into_iter();
    let Some(first) = it.next() else { return };
    *c = it.fold(first, |acc, e| Expr { kind: ExprKind::Comma(Box::new(acc), Box::new(e)), span });
}
