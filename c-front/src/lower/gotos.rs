//! C's `goto` (CUDA.md tier 2), forward to a label in an enclosing block: which jumps kpl
//! lowers, and what a statement may jump to. The lowering (`statements.rs`) gives each label a
//! flag that its `goto`s set: statements up to the label are skipped while it is set,
//! loops the jump leaves are left by `break`, and the label clears it.

use crate::syntax::ast::*;
use kpl_lang::ast::Ident;
use kpl_lang::diagnostic::Diagnostic;
use std::collections::HashSet;

/// The statements of a body that a single statement stands for (a branch, a loop body).
fn as_list(s: &Stmt) -> &[Stmt] {
    match &s.kind {
        StmtKind::Block(b) => &b.stmts,
        _ => std::slice::from_ref(s),
    }
}

/// The lists directly inside `s`: a block's, each branch, a loop body, each section of a
/// `switch` (a section is a list of its own: kpl lowers no jump between sections).
fn sublists(s: &Stmt) -> Vec<&[Stmt]> {
    match &s.kind {
        StmtKind::Block(b) => vec![&b.stmts],
        StmtKind::If(_, t, e) => std::iter::once(as_list(t)).chain(e.as_deref().map(as_list)).collect(),
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => vec![as_list(b)],
        StmtKind::For(i, _, _, b) => i.as_deref().map(std::slice::from_ref).into_iter().chain([as_list(b)]).collect(),
        StmtKind::Switch(_, b) => as_list(b).split(|s| matches!(s.kind, StmtKind::Case(_))).collect(),
        _ => Vec::new(),
    }
}

/// The labels of `list` itself (not of statements inside its statements).
fn own_labels(list: &[Stmt]) -> impl Iterator<Item = &Ident> {
    list.iter().filter_map(|s| match &s.kind {
        StmtKind::Label(l) => Some(l),
        _ => None,
    })
}

/// Every label defined in `s`, at any depth.
pub(crate) fn labels_in(s: &Stmt, out: &mut HashSet<String>) {
    if let StmtKind::Label(l) = &s.kind {
        out.insert(l.name.clone());
    }
    for l in sublists(s) {
        l.iter().for_each(|s| labels_in(s, out));
    }
}

/// The labels outside `s` that a `goto` in `s` may jump to.
pub(crate) fn jumps_out(s: &Stmt) -> Vec<String> {
    fn gotos(s: &Stmt, out: &mut Vec<String>) {
        if let StmtKind::Goto(l) = &s.kind {
            if !out.contains(&l.name) {
                out.push(l.name.clone());
            }
        }
        for l in sublists(s) {
            l.iter().for_each(|s| gotos(s, out));
        }
    }
    let mut out = Vec::new();
    gotos(s, &mut out);
    if out.is_empty() {
        return out;
    }
    let mut inside = HashSet::new();
    labels_in(s, &mut inside);
    out.retain(|l| !inside.contains(l));
    out
}

/// The labels a function body's `goto`s jump to, in order of first use; an error for each
/// `goto` kpl does not lower (backward, into a block or another `switch` section, to no
/// label) and for a label defined twice.
pub(crate) fn targets(body: &[Stmt]) -> (Vec<String>, Vec<Diagnostic>) {
    struct Walk {
        targets: Vec<String>,
        errors: Vec<Diagnostic>,
        all: HashSet<String>,
    }
    impl Walk {
        /// `ahead`: the labels after the current statement in each enclosing list.
        fn list(&mut self, list: &[Stmt], ahead: &mut Vec<HashSet<String>>) {
            for (i, s) in list.iter().enumerate() {
                ahead.push(own_labels(&list[i + 1..]).map(|l| l.name.clone()).collect());
                match &s.kind {
                    StmtKind::Goto(l) if ahead.iter().any(|a| a.contains(&l.name)) => {
                        if !self.targets.contains(&l.name) {
                            self.targets.push(l.name.clone());
                        }
                    }
                    StmtKind::Goto(l) if self.all.contains(&l.name) => self.errors.push(
                        Diagnostic::error(format!("not supported: this `goto {}` (it jumps backward or into a block)", l.name), s.span)
                            .with_help("kpl lowers a `goto` that jumps forward to a label of its own block or an enclosing one"),
                    ),
                    StmtKind::Goto(l) => self.errors.push(Diagnostic::error(format!("no label `{}` in this function", l.name), l.span)),
                    _ => sublists(s).into_iter().for_each(|l| self.list(l, ahead)),
                }
                ahead.pop();
            }
        }
    }
    let mut all = HashSet::new();
    body.iter().for_each(|s| labels_in(s, &mut all));
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    fn twice(list: &[Stmt], seen: &mut HashSet<String>, errors: &mut Vec<Diagnostic>) {
        for s in list {
            if let StmtKind::Label(l) = &s.kind {
                if !seen.insert(l.name.clone()) {
                    errors.push(Diagnostic::error(format!("the label `{}` is defined twice", l.name), l.span));
                }
            }
            sublists(s).into_iter().for_each(|l| twice(l, seen, errors));
        }
    }
    twice(body, &mut seen, &mut errors);
    let mut w = Walk { targets: Vec::new(), errors, all };
    w.list(body, &mut Vec::new());
    (w.targets, w.errors)
}
