//! The C AST's nesting, for the limit of `kpl_lang::depth` (checked before lowering, which
//! recurses over the C tree).

use crate::syntax::ast::*;
use kpl_lang::depth::Nested;
use kpl_lang::span::Span;

impl Nested for Expr {
    fn span(&self) -> Span {
        self.span
    }
    fn children<'a>(&'a self, out: &mut Vec<&'a dyn Nested>) {
        match &self.kind {
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b) => out.extend([&**a as &dyn Nested, &**b]),
            ExprKind::Call(f, args) => {
                out.push(&**f);
                out.extend(args.iter().map(|a| a as &dyn Nested));
            }
            ExprKind::Member(a, _)
            | ExprKind::Unary(_, a)
            | ExprKind::PreInc(_, a)
            | ExprKind::PostInc(_, a)
            | ExprKind::Cast(_, a) => out.push(&**a),
            ExprKind::Cond(a, b, c) => out.extend([&**a as &dyn Nested, &**b, &**c]),
            ExprKind::CompoundLit(_, items) => out.extend(items.iter().map(|i| i as &dyn Nested)),
            ExprKind::Int(..)
            | ExprKind::LongInt(..)
            | ExprKind::Float(_)
            | ExprKind::Char(_)
            | ExprKind::Str
            | ExprKind::Bool(_)
            | ExprKind::Ident(_)
            | ExprKind::Unsupported(_) => {}
        }
    }
}

impl Nested for Init {
    fn span(&self) -> Span {
        match self {
            Init::Expr(e) => e.span,
            Init::List(_, s) => *s,
        }
    }
    fn children<'a>(&'a self, out: &mut Vec<&'a dyn Nested>) {
        match self {
            Init::Expr(e) => out.push(e),
            Init::List(items, _) => out.extend(items.iter().map(|i| i as &dyn Nested)),
        }
    }
}

impl Nested for Decl {
    fn span(&self) -> Span {
        self.span
    }
    fn children<'a>(&'a self, out: &mut Vec<&'a dyn Nested>) {
        for d in &self.decls {
            out.extend(d.dims.iter().flatten().map(|e| e as &dyn Nested));
            if let Some(i) = &d.init {
                out.push(i);
            }
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
            StmtKind::Block(b) => out.push(b),
            StmtKind::Decl(d) => out.push(d),
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => out.push(e),
            StmtKind::If(c, t, e) => {
                out.extend([c as &dyn Nested, &**t]);
                if let Some(e) = e {
                    out.push(&**e);
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => out.extend([c as &dyn Nested, &**b]),
            StmtKind::Case(Some(e)) => out.push(e),
            StmtKind::Case(None) => {}
            StmtKind::For(init, cond, step, body) => {
                if let Some(i) = init {
                    out.push(&**i);
                }
                out.extend(cond.iter().chain(step.iter()).map(|e| e as &dyn Nested));
                out.push(&**body);
            }
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Goto(_)
            | StmtKind::Label(_)
            | StmtKind::Unsupported(_)
            | StmtKind::Error => {}
        }
    }
}

/// The unit's nesting, checked: every function body and file-scope declaration.
pub fn check_unit(u: &Unit) -> Option<kpl_lang::diagnostic::Diagnostic> {
    let mut roots: Vec<&dyn Nested> = Vec::new();
    for item in &u.items {
        match item {
            Item::Func(f) => {
                if let Some(b) = &f.body {
                    roots.push(b);
                }
            }
            Item::Var(d) => roots.push(d),
            Item::Call(_, args, _) => roots.extend(args.iter().map(|a| a as &dyn Nested)),
            Item::Unsupported(..) | Item::Error => {}
        }
    }
    kpl_lang::depth::too_deep(&roots, kpl_lang::depth::max_depth())
}
