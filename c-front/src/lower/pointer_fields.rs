//! Pointer fields of struct variables: each is a pointer variable of its own (`pointers.rs`,
//! `multiptr.rs`) under a name no C identifier can be, the field's C path (`s.p`,
//! `s.q[2].p`). A statement's paths to such fields are replaced by that name before it is
//! lowered, so `s.p = a + i;`, `s.p++`, `q = s.p;`, `s.p[i]` and `s.p = c ? a : b;` are
//! what they are for any pointer variable; whole-struct copies copy the pointers.

use crate::lower::context::Lower;
use crate::lower::values::{CType, Entity, Leaf, Ty, VLeaf};
use crate::syntax::ast::*;
use kpl_lang::ast::Ident;
use kpl_lang::span::Span;

/// The name the pointer `*p` goes by in a function whose `T **p` parameter was given the
/// address of a pointer variable.
fn deref_name(param: &str) -> String {
    format!("*{param}")
}

/// The name an initial value of a field pointer is bound to while its declaration reads it.
fn init_name(field: &str) -> String {
    format!("{field}@init")
}

impl<'u> Lower<'u> {
    /// Declare the pointer variable of a struct variable's pointer field `field` (pointee
    /// `pointee`), starting where `init` points (nothing: assigned later).
    pub(crate) fn field_pointer_decl(&mut self, field: &str, pointee: &CType, init: Option<VLeaf>, span: Span) {
        let (ty, _) = pointee.clone().split();
        self.rewrites_pointer_paths = true;
        if ty == Ty::Void {
            // A `void *` field: copied with the struct, never gone through (a cast of it is
            // refused), so not a pointer variable.
            let e = match init {
                Some(VLeaf::Ptr(e)) => e,
                _ => Entity::Invalid,
            };
            self.bind(field, e);
            return;
        }
        let start = match init {
            Some(VLeaf::Ptr(e @ (Entity::Array { .. } | Entity::Ptr { .. }))) => {
                let n = init_name(field);
                self.bind(&n, e);
                Some(Init::Expr(Expr::new(ExprKind::Ident(Ident::new(n, span)), span)))
            }
            _ => None,
        };
        let d = Declarator { ptrs: 1, reference: false, name: Ident::new(field.to_string(), span), dims: Vec::new(), init: start, span };
        self.pointer_decl(&d, ty, false);
    }

    /// `field = a` for a field pointer, `a` being another pointer's value (whole-struct
    /// assignment).
    pub(crate) fn field_pointer_assign(&mut self, field: &str, a: Entity, span: Span) {
        if self.lookup(field).is_none() {
            self.unsupported("a pointer field of a struct result (kpl follows pointer fields of struct variables)", span);
            return;
        }
        match a {
            Entity::Array { .. } | Entity::Ptr { .. } => {}
            // The source struct's pointer was never given an array: the copy's would be
            // indeterminate, which kpl does not guess.
            Entity::PendingPtr { name, .. } => {
                let msg = format!("kpl cannot tell which array `{name}` points into: the struct is copied before it is assigned an array");
                self.errors.push(kpl_lang::Diagnostic::error(msg, span).with_help("assign the pointer field before copying the struct"));
                return;
            }
            // Already reported where it was made.
            _ => return,
        }
        let n = init_name(field);
        self.bind(&n, a);
        let rhs = Expr::new(ExprKind::Ident(Ident::new(n, span)), span);
        self.pointer_assign(&Ident::new(field.to_string(), span), &rhs, span);
    }

    /// A `T **p` parameter given `&q`, `q` a pointer variable of the caller (or the caller's
    /// own such parameter `r`, whose `*r` it is): the name the callee's `*p` goes by, the
    /// pointer it is, and the caller's name for it. Anything else is refused.
    pub(crate) fn pointer_reference(&mut self, param: &str, a: &Expr) -> Option<(String, Entity, String)> {
        let caller = match &a.kind {
            ExprKind::Unary(UOp::Addr, q) if self.is_pointer_var(q) => match &q.kind {
                ExprKind::Ident(x) => Some(x.name.clone()),
                _ => None,
            },
            ExprKind::Ident(x) if self.is_reference(&x.name) => Some(deref_name(&x.name)),
            _ => None,
        };
        let Some((caller, entity)) = caller.and_then(|c| Some((c.clone(), self.lookup(&c)?))) else {
            self.unsupported("this argument of a pointer-to-pointer parameter (kpl takes `&p` of a pointer variable)", a.span);
            return None;
        };
        self.rewrites_pointer_paths = true;
        Some((deref_name(param), entity, caller))
    }

    /// The current value of a field pointer (`VLeaf::Ptr` of a whole-struct read).
    pub(crate) fn field_pointer_value(&self, field: &str) -> Entity {
        self.lookup(field).unwrap_or(Entity::Invalid)
    }

    /// The statement with every path to a struct variable's pointer field in its own
    /// expressions (not those of the statements inside it, which are lowered in their own
    /// scopes) replaced by the field pointer's name; `None` if it has none.
    pub(crate) fn with_pointer_fields(&mut self, s: &Stmt) -> Option<Stmt> {
        if !self.rewrites_pointer_paths {
            return None;
        }
        let mut changed = false;
        let mut go = |l: &mut Self, e: &Expr| l.replace_field_paths(e, &mut changed);
        let kind = match &s.kind {
            StmtKind::Expr(e) => StmtKind::Expr(go(self, e)),
            StmtKind::Return(Some(e)) => StmtKind::Return(Some(go(self, e))),
            StmtKind::Case(Some(e)) => StmtKind::Case(Some(go(self, e))),
            StmtKind::If(c, t, e) => StmtKind::If(go(self, c), t.clone(), e.clone()),
            StmtKind::While(c, b) => StmtKind::While(go(self, c), b.clone()),
            StmtKind::DoWhile(b, c) => StmtKind::DoWhile(b.clone(), go(self, c)),
            StmtKind::Switch(c, b) => StmtKind::Switch(go(self, c), b.clone()),
            StmtKind::For(i, c, st, b) => StmtKind::For(i.clone(), c.as_ref().map(|c| go(self, c)), st.as_ref().map(|x| go(self, x)), b.clone()),
            StmtKind::Decl(d) => {
                let mut d = d.clone();
                for x in &mut d.decls {
                    x.init = x.init.take().map(|i| self.replace_in_init(i, &mut changed));
                }
                StmtKind::Decl(d)
            }
            _ => return None,
        };
        changed.then_some(Stmt { kind, span: s.span })
    }

    fn replace_in_init(&mut self, i: Init, changed: &mut bool) -> Init {
        match i {
            Init::Expr(e) => Init::Expr(self.replace_field_paths(&e, changed)),
            Init::List(items, sp) => Init::List(items.into_iter().map(|i| self.replace_in_init(i, changed)).collect(), sp),
        }
    }

    fn replace_field_paths(&mut self, e: &Expr, changed: &mut bool) -> Expr {
        if let Some(name) = self.field_pointer_of(e).or_else(|| self.dereferenced_reference(e)) {
            *changed = true;
            return Expr::new(ExprKind::Ident(Ident::new(name, e.span)), e.span);
        }
        if let ExprKind::Ident(x) = &e.kind {
            if self.is_reference(&x.name) {
                // `p` itself, not `*p` (passing it on to another `T **` parameter is read
                // at the call).
                self.unsupported(&format!("using the pointer-to-pointer `{}` other than as `*{0}` or `{0}[0]`", x.name), e.span);
            }
        }
        let mut rec = |x: &Expr| Box::new(self.replace_field_paths(x, changed));
        let kind = match &e.kind {
            ExprKind::Index(a, b) => ExprKind::Index(rec(a), rec(b)),
            ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, rec(a), rec(b)),
            ExprKind::Assign(op, a, b) => ExprKind::Assign(*op, rec(a), rec(b)),
            ExprKind::Comma(a, b) => ExprKind::Comma(rec(a), rec(b)),
            ExprKind::Cond(c, a, b) => ExprKind::Cond(rec(c), rec(a), rec(b)),
            ExprKind::Member(a, m) => ExprKind::Member(rec(a), m.clone()),
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, rec(a)),
            ExprKind::PreInc(i, a) => ExprKind::PreInc(*i, rec(a)),
            ExprKind::PostInc(i, a) => ExprKind::PostInc(*i, rec(a)),
            ExprKind::Cast(t, a) => ExprKind::Cast(t.clone(), rec(a)),
            ExprKind::Call(f, args) => {
                // A `T **` parameter passed on to another function's `T **` parameter stays.
                let callee = match &f.kind {
                    ExprKind::Ident(x) => self.funcs.get(&x.name).copied(),
                    _ => None,
                };
                let passed_on = |i: usize, a: &Expr| {
                    matches!(&a.kind, ExprKind::Ident(_)) && callee.is_some_and(|c| c.params.get(i).is_some_and(|p| p.ptrs.len() == 2))
                };
                let args = args.iter().enumerate().map(|(i, a)| if passed_on(i, a) { a.clone() } else { self.replace_field_paths(a, changed) }).collect();
                ExprKind::Call(f.clone(), args)
            }
            ExprKind::CompoundLit(t, items) => {
                ExprKind::CompoundLit(t.clone(), items.iter().map(|i| self.replace_in_init(i.clone(), changed)).collect())
            }
            k => k.clone(),
        };
        Expr::new(kind, e.span)
    }

    /// Is `p` a `T **` parameter given a pointer variable's address (`pointer_reference`)?
    fn is_reference(&self, p: &str) -> bool {
        matches!(self.lookup(p), Some(Entity::Invalid)) && self.lookup(&deref_name(p)).is_some()
    }

    /// `*p` or `p[0]` of a `T **p` parameter given a pointer variable's address: the name
    /// that pointer goes by in the callee.
    fn dereferenced_reference(&self, e: &Expr) -> Option<String> {
        let p = match &e.kind {
            ExprKind::Unary(UOp::Deref, p) => p,
            ExprKind::Index(p, i) if matches!(i.kind, ExprKind::Int(0, _)) => p,
            _ => return None,
        };
        let ExprKind::Ident(x) = &p.kind else { return None };
        self.is_reference(&x.name).then(|| deref_name(&x.name))
    }

    /// The field pointer a path `s.f`, `s.a[2].f` (constant indices) names, if it is one.
    fn field_pointer_of(&mut self, e: &Expr) -> Option<String> {
        if !matches!(e.kind, ExprKind::Member(..) | ExprKind::Index(..)) {
            return None;
        }
        let (t, leaves) = self.record_path(e)?;
        match (t, leaves.first()) {
            (CType::Pointer(_), Some(Leaf::PtrVar(n))) => Some(n.clone()),
            _ => None,
        }
    }

    /// Is `e` a path to a pointer field of a struct variable that points into one known
    /// array?
    pub(crate) fn names_field_array(&mut self, e: &Expr) -> bool {
        match self.record_path(e) {
            Some((CType::Pointer(_), leaves)) => match leaves.first() {
                Some(Leaf::Ptr(a)) => matches!(a, Entity::Array { .. }),
                Some(Leaf::PtrVar(n)) => matches!(self.lookup(n), Some(Entity::Array { .. })),
                _ => false,
            },
            _ => false,
        }
    }

    /// The type and leaves of a path into a struct variable, without diagnostics.
    fn record_path(&mut self, e: &Expr) -> Option<(CType, Vec<Leaf>)> {
        match &e.kind {
            ExprKind::Ident(x) => match self.lookup(&x.name)? {
                Entity::Record { ty, leaves } => Some((ty, leaves)),
                _ => None,
            },
            ExprKind::Member(b, m) => {
                let (CType::Struct(id), leaves) = self.record_path(b)? else { return None };
                let f = self.fields(id).iter().find(|f| f.name == m.name)?.clone();
                let w = self.words(&f.ty) as usize;
                Some((f.ty, leaves.get(f.offset as usize..f.offset as usize + w)?.to_vec()))
            }
            ExprKind::Index(b, i) => {
                let (CType::Array(el, n), leaves) = self.record_path(b)? else { return None };
                let k = usize::try_from(self.const_eval(i)?).ok().filter(|&k| k < n as usize)?;
                let w = self.words(&el) as usize;
                Some((*el, leaves.get(k * w..(k + 1) * w)?.to_vec()))
            }
            _ => None,
        }
    }
}
