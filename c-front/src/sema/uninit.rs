//! Locals that may be read before they are assigned. C leaves such a value indeterminate
//! (GPUVerify treats it as arbitrary); KPL's locals start at 0, so the lowering gives each
//! such local an arbitrary value (`havoc`) where it is declared. A pointer read before it
//! is assigned is an error (kpl cannot tell its array). The analysis is conservative: a
//! read counts as uninitialised unless an assignment reaches it on every path in source
//! order (a loop body's assignments do not count after the loop, nor in the body's earlier
//! statements).

use crate::syntax::ast::*;
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::{HashMap, HashSet};

#[derive(Default)]
struct Flow {
    /// Locals declared without an initialiser, by name: the declarator's span, and
    /// whether it is a pointer.
    uninit: HashMap<String, (Span, bool)>,
    /// Declarators (by span) of locals that may be read unassigned.
    havoc: HashSet<Span>,
    /// Those of them definitely assigned at this point.
    assigned: HashSet<String>,
    errors: Vec<Diagnostic>,
    reported: HashSet<String>,
    /// For each label a forward `goto` jumps to: the locals assigned at every such `goto`.
    at_goto: HashMap<String, HashSet<String>>,
}

/// `s.f.g` rooted at a variable: the variable and the path.
fn member_path(e: &Expr) -> Option<(&kpl_lang::ast::Ident, String)> {
    match &e.kind {
        ExprKind::Member(b, m) => {
            let (x, p) = match &b.kind {
                ExprKind::Ident(x) => (x, x.name.clone()),
                _ => member_path(b)?,
            };
            Some((x, format!("{p}.{}", m.name)))
        }
        _ => None,
    }
}

impl Flow {
    fn read(&mut self, x: &kpl_lang::ast::Ident) {
        self.read_path(x, &x.name);
    }

    /// A read of `path` (`s`, `s.f`, `v.x`) of variable `x`: initialised if the variable or
    /// a part of it that contains the path was assigned.
    fn read_path(&mut self, x: &kpl_lang::ast::Ident, path: &str) {
        let covered = self.assigned.contains(&x.name)
            || path.match_indices('.').any(|(i, _)| self.assigned.contains(&path[..i]))
            || self.assigned.contains(path);
        let Some(&(decl, pointer)) = self.uninit.get(&x.name) else { return };
        if covered {
            return;
        }
        if !pointer {
            self.havoc.insert(decl);
            return;
        }
        if self.reported.insert(x.name.clone()) {
            self.errors.push(
                Diagnostic::error(
                    format!("kpl cannot tell which array `{}` points into: it may be read before it is assigned", x.name),
                    x.span,
                )
                .with_help("initialise it where it is declared"),
            );
        }
    }

    fn expr(&mut self, e: &Expr) {
        if let Some((x, path)) = member_path(e) {
            return self.read_path(x, &path);
        }
        match &e.kind {
            ExprKind::Ident(x) => self.read(x),
            ExprKind::Assign(op, lhs, rhs) => match (&lhs.kind, op) {
                (ExprKind::Ident(x), None) => {
                    self.expr(rhs);
                    self.assigned.insert(x.name.clone());
                }
                (ExprKind::Member(..), None) if member_path(lhs).is_some() => {
                    self.expr(rhs);
                    if let Some((_, path)) = member_path(lhs) {
                        self.assigned.insert(path);
                    }
                }
                _ => {
                    self.expr(lhs);
                    self.expr(rhs);
                }
            },
            ExprKind::Binary(BOp::LAnd | BOp::LOr, a, b) => {
                self.expr(a);
                let before = self.assigned.clone();
                self.expr(b);
                self.assigned = before;
            }
            ExprKind::Cond(c, a, b) => {
                self.expr(c);
                let before = self.assigned.clone();
                self.expr(a);
                let after_a = std::mem::replace(&mut self.assigned, before);
                self.expr(b);
                self.assigned = self.assigned.intersection(&after_a).cloned().collect();
            }
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            // `sizeof e` does not evaluate `e`.
            ExprKind::Call(..) if crate::sema::sizeof_expr::operand(e).is_some() => {}
            ExprKind::Call(f, args) => {
                self.expr(f);
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::PreInc(_, a) | ExprKind::PostInc(_, a) | ExprKind::Cast(_, a) => {
                self.expr(a)
            }
            ExprKind::Int(..)
            | ExprKind::LongInt(..)
            | ExprKind::Float(_)
            | ExprKind::Char(_)
            | ExprKind::Str
            | ExprKind::Bool(_)
            | ExprKind::Unsupported(_) => {}
            ExprKind::CompoundLit(_, items) => items.iter().for_each(|i| self.init(i)),
        }
    }

    fn init(&mut self, i: &Init) {
        match i {
            Init::Expr(e) => self.expr(e),
            Init::List(items, _) => items.iter().for_each(|i| self.init(i)),
        }
    }

    fn decl(&mut self, d: &Decl) {
        // Shared and file-scope memory is not a thread's own local.
        const SPACES: &[&str] =
            &["__shared__", "__local", "local", "__constant", "__constant__", "constant", "__device__", "__global", "global", "static", "extern"];
        if d.specs.iter().any(|s| SPACES.contains(&s.word.as_str())) {
            return;
        }
        for x in &d.decls {
            x.dims.iter().flatten().for_each(|e| self.expr(e));
            match &x.init {
                Some(i) => {
                    self.init(i);
                    self.uninit.remove(&x.name.name);
                }
                // Arrays are out of scope here (per-thread arrays are refused elsewhere).
                None if x.dims.is_empty() => {
                    self.uninit.insert(x.name.name.clone(), (x.span, x.ptrs > 0));
                    self.assigned.remove(&x.name.name);
                }
                None => {}
            }
        }
    }

    /// A statement that may not run (a branch, a loop body): its assignments do not count.
    fn maybe(&mut self, s: &Stmt) -> HashSet<String> {
        let before = self.assigned.clone();
        self.stmt(s);
        std::mem::replace(&mut self.assigned, before)
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| self.stmt(s)),
            StmtKind::Decl(d) => self.decl(d),
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::If(c, t, e) => {
                self.expr(c);
                let then = self.maybe(t);
                let els = match e {
                    Some(e) => self.maybe(e),
                    None => self.assigned.clone(),
                };
                self.assigned = then.intersection(&els).cloned().collect();
            }
            StmtKind::While(c, b) => {
                self.expr(c);
                self.maybe(b);
            }
            StmtKind::DoWhile(b, c) => {
                self.stmt(b);
                self.expr(c);
            }
            StmtKind::For(init, cond, step, body) => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                let before = self.assigned.clone();
                self.stmt(body);
                if let Some(st) = step {
                    self.expr(st);
                }
                self.assigned = before;
            }
            StmtKind::Switch(c, b) => {
                // A case may be entered directly: what earlier cases assign does not
                // count in it, nor after the switch.
                self.expr(c);
                let entry = self.assigned.clone();
                let body: &[Stmt] = match &b.kind {
                    StmtKind::Block(bl) => &bl.stmts,
                    _ => std::slice::from_ref(&**b),
                };
                for s in body {
                    if matches!(s.kind, StmtKind::Case(_)) {
                        self.assigned = entry.clone();
                    }
                    self.stmt(s);
                }
                self.assigned = entry;
            }
            StmtKind::Case(Some(e)) => self.expr(e),
            StmtKind::Case(None) => {}
            // What a jump to a label carries: only what is assigned on every path to it.
            StmtKind::Goto(l) => {
                let now = self.assigned.clone();
                let entry = self.at_goto.entry(l.name.clone()).or_insert_with(|| now.clone());
                *entry = entry.intersection(&now).cloned().collect();
            }
            StmtKind::Label(l) => {
                if let Some(g) = self.at_goto.get(&l.name) {
                    self.assigned = self.assigned.intersection(g).cloned().collect();
                }
            }
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Unsupported(_)
            | StmtKind::Error => {}
        }
    }
}

/// Every read of a possibly unassigned local in the unit's functions.
/// Gives the errors (pointers) and the declarators of the other locals that need an
/// arbitrary initial value.
pub fn check_unit(u: &Unit) -> (Vec<Diagnostic>, HashSet<Span>) {
    let mut errors = Vec::new();
    let mut havoc = HashSet::new();
    for item in &u.items {
        if let Item::Func(Func { body: Some(b), .. }) = item {
            let mut f = Flow::default();
            b.stmts.iter().for_each(|s| f.stmt(s));
            errors.extend(f.errors);
            havoc.extend(f.havoc);
        }
    }
    (errors, havoc)
}
