//! Pointer variables that may point into several arrays, or be `NULL` (`p = c ? a : b`,
//! `if (i) p = a; else p = b;`, `p = NULL`). Such a pointer is a target local (0 for
//! `NULL`, `j + 1` for the `j`th array it may point into) and an offset local; a statement
//! that dereferences it runs once per array, under `if p_target == j + 1`, with the
//! pointer seen as that array (`pointers.rs`), and an access through `NULL` is an
//! assertion failure, `assert p_target != 0` (reported as a null pointer access). Uses as
//! a value compare the target: `p == NULL`, `!p`, `if (p)`.
//!
//! Which arrays a pointer may point into is found by lowering: each assignment records its
//! target under the pointer's declaration; when a pointer turns out to have several (or
//! `NULL`), the function is lowered again knowing them (`mod.rs`).

use crate::lower::context::Lower;
use crate::lower::values::{Entity, PtrDecl, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, Ident};
use kpl_lang::span::Span;

/// KPL's operator for a C comparison of addresses (unsigned, as addresses are).
fn comparison(op: BOp) -> k::BinOp {
    match op {
        BOp::Eq => k::BinOp::Eq,
        BOp::Ne => k::BinOp::Ne,
        BOp::Lt => k::BinOp::Lt,
        BOp::Gt => k::BinOp::Gt,
        BOp::Le => k::BinOp::Le,
        _ => k::BinOp::Ge,
    }
}

/// The key of a target: the array's KPL name, or "" for `NULL`.
fn key(t: &Option<Entity>) -> String {
    match t {
        Some(Entity::Array { kpl, .. }) => kpl.clone(),
        _ => String::new(),
    }
}

/// Is this set of targets one a plain pointer (one array, never `NULL`) cannot hold?
pub(crate) fn is_multi(set: &[Option<Entity>]) -> bool {
    set.len() > 1 || set.iter().any(|t| t.is_none())
}

/// `NULL`, `0`, or a cast of one.
pub(crate) fn null_const(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(0, _) => true,
        ExprKind::Cast(_, a) => null_const(a),
        _ => false,
    }
}

impl<'u> Lower<'u> {
    /// An access through a literal null pointer (`memcpy(0, ...)`, `atomic_inc((int *)0)`):
    /// an assertion that fails wherever it runs, reported as a null pointer access to `what`.
    pub(crate) fn null_access(&mut self, what: String, span: Span) {
        self.array_layouts.null_checks.insert(span, what);
        self.emit(k::StmtKind::Assert(k::Expr::num(0, span), false), span);
    }

    /// Record that the pointer declared at `decl` may point into `t` (`None`: `NULL`).
    /// Gives whether the pointer as lowered in this pass already knew it.
    pub(crate) fn note_target(&mut self, decl: PtrDecl, t: Option<Entity>) -> bool {
        let t = t.map(|e| match e {
            Entity::Array { kpl, elem, dims, readonly, agg, .. } => Entity::Array { kpl, elem, dims, readonly, offset: None, agg },
            e => e,
        });
        let set = self.ptr_sets.entry(decl).or_default();
        if set.iter().any(|x| key(x) == key(&t)) {
            return true;
        }
        set.push(t);
        // A plain pointer that now has two targets, or a pointer whose list grew.
        if is_multi(set) {
            self.ptr_changed = true;
        }
        false
    }

    /// A pointer variable declared at `decl` whose targets are known to be several: its
    /// target and offset locals, bound to `name`.
    pub(crate) fn multi_pointer(&mut self, name: &Ident, decl: Span, readonly: bool) -> Option<Entity> {
        let decl = (decl, name.name.clone());
        let set = self.ptr_sets.get(&decl).filter(|s| is_multi(s))?.clone();
        let span = name.span;
        let sel = self.fresh(&format!("{}_target", name.name));
        let off = self.fresh(&format!("{}_offset", name.name));
        self.emit(k::StmtKind::Local(sp_id(&sel, span), Some(k::Expr::num(0, span))), span);
        self.emit(k::StmtKind::Local(sp_id(&off, span), Some(k::Expr::num(0, span))), span);
        self.pointers.insert(off.clone());
        let e = Entity::Ptr { sel, off, targets: set, readonly, decl };
        self.bind(&name.name, e.clone());
        Some(e)
    }

    /// A `NULL` pointer parameter of an inlined function: every access through it fails.
    pub(crate) fn null_pointer(&mut self, name: &str, span: Span) -> Entity {
        let sel = self.fresh(&format!("{name}_target"));
        let off = self.fresh(&format!("{name}_offset"));
        self.emit(k::StmtKind::Local(sp_id(&sel, span), Some(k::Expr::num(0, span))), span);
        self.emit(k::StmtKind::Local(sp_id(&off, span), Some(k::Expr::num(0, span))), span);
        Entity::Ptr { sel, off, targets: vec![None], readonly: false, decl: (span, name.to_string()) }
    }

    /// Is `e` a pointer variable (of any kind)?
    pub(crate) fn is_pointer_var(&self, e: &Expr) -> bool {
        let ExprKind::Ident(x) = &e.kind else { return false };
        match self.lookup(&x.name) {
            Some(Entity::Ptr { .. } | Entity::PendingPtr { .. }) => true,
            Some(Entity::Array { offset: Some(o), .. }) => self.pointers.contains(&o),
            _ => false,
        }
    }

    /// `q = p` where `p` has several targets: `q` takes them all. True if `rhs` is such a
    /// pointer (and the assignment is done, or left to the next pass when `q` does not
    /// know them yet).
    pub(crate) fn pointer_copy(&mut self, q: &Ident, rhs: &Expr, span: Span) -> bool {
        let ExprKind::Ident(r) = &rhs.kind else { return false };
        let Some(Entity::Ptr { sel: rsel, off: roff, targets: rtargets, .. }) = self.lookup(&r.name) else { return false };
        let decl = match self.lookup(&q.name) {
            Some(Entity::Ptr { decl, .. }) => Some(decl),
            Some(Entity::PendingPtr { offset, .. }) | Some(Entity::Array { offset: Some(offset), .. }) => self.ptr_decl_of.get(&offset).cloned(),
            _ => None,
        };
        let Some(decl) = decl else { return false };
        for t in &rtargets {
            self.note_target(decl.clone(), t.clone());
        }
        let Some(Entity::Ptr { sel, off, targets, .. }) = self.lookup(&q.name) else { return true };
        for (j, t) in rtargets.iter().enumerate() {
            let (test, val) = match t {
                None => (0, 0),
                Some(_) => match targets.iter().position(|x| key(x) == key(t)) {
                    Some(i) => (j as u64 + 1, i as u64 + 1),
                    None => continue,
                },
            };
            let c = k::Expr::new(k::ExprKind::Binary(k::BinOp::Eq, Box::new(k::Expr::var(&rsel, span)), Box::new(k::Expr::num(test, span))), span);
            let set = k::Stmt { kind: k::StmtKind::Assign(sp_id(&sel, q.span), k::Expr::num(val, span)), span };
            self.emit(k::StmtKind::If(c, k::Block { stmts: vec![set], span }, None), span);
        }
        self.emit(k::StmtKind::Assign(sp_id(&off, q.span), k::Expr::var(&roff, span)), span);
        true
    }

    /// `p = rhs` for a pointer `p` with several targets.
    pub(crate) fn multi_assign(&mut self, p: &Ident, rhs: &Expr, span: Span) {
        let Some(Entity::Ptr { sel, off, targets, decl, .. }) = self.lookup(&p.name) else { return };
        if self.pointer_copy(p, rhs, span) {
            return;
        }
        if null_const(rhs) {
            self.note_target(decl.clone(), None);
            self.emit(k::StmtKind::Assign(sp_id(&sel, p.span), k::Expr::num(0, span)), span);
            return;
        }
        let Some(a) = self.array_argument(rhs, false) else { return };
        let Entity::Array { kpl, offset, .. } = &a else { return };
        if !self.note_target(decl, Some(a.clone())) {
            return;
        }
        let Some(j) = targets.iter().position(|t| key(t) == *kpl) else {
            // Known to the set but not to this pass's binding: the next pass has it.
            self.ptr_changed = true;
            return;
        };
        self.emit(k::StmtKind::Assign(sp_id(&sel, p.span), k::Expr::num(j as u64 + 1, span)), span);
        let start = offset.as_ref().map(|o| k::Expr::var(o, span)).unwrap_or_else(|| k::Expr::num(0, span));
        self.emit(k::StmtKind::Assign(sp_id(&off, p.span), start), span);
    }

    /// `deref_ptrs` of a condition: `p` and `!p` test the pointer, not go through it.
    fn cond_ptrs(&mut self, e: &Expr, out: &mut Vec<(String, Span)>) {
        let inner = match &e.kind {
            ExprKind::Unary(UOp::Not, a) => a,
            _ => e,
        };
        if matches!(&inner.kind, ExprKind::Ident(i) if matches!(self.lookup(&i.name), Some(Entity::Ptr { .. }))) {
            return;
        }
        self.deref_ptrs(e, out);
    }

    /// The pointers with several targets that `e` dereferences (or passes on), in order;
    /// uses as a value (compared with `NULL`, tested) are not dereferences.
    pub(crate) fn deref_ptrs(&mut self, e: &Expr, out: &mut Vec<(String, Span)>) {
        let is_ptr = |l: &Self, x: &Expr| match &x.kind {
            ExprKind::Ident(i) => matches!(l.lookup(&i.name), Some(Entity::Ptr { .. })),
            _ => false,
        };
        match &e.kind {
            ExprKind::Ident(i) => {
                if is_ptr(self, e) && !out.iter().any(|(n, _)| *n == i.name) {
                    out.push((i.name.clone(), e.span));
                }
            }
            ExprKind::Binary(BOp::Eq | BOp::Ne | BOp::Lt | BOp::Gt | BOp::Le | BOp::Ge, a, b) => {
                let (pa, pb) = (is_ptr(self, a), is_ptr(self, b));
                // `p == q` is `pointer_compare`'s: neither side is gone through.
                if !(pa || pb) {
                    self.deref_ptrs(a, out);
                    self.deref_ptrs(b, out);
                }
            }
            ExprKind::Unary(UOp::Not, a) if is_ptr(self, a) => {}
            ExprKind::Assign(op, l, r) => {
                if !is_ptr(self, l) {
                    self.deref_ptrs(l, out);
                }
                // `q = p` copies the pointer (`pointers.rs`): `p` is not gone through.
                if !(op.is_none() && is_ptr(self, r) && self.is_pointer_var(l)) {
                    self.deref_ptrs(r, out);
                }
            }
            ExprKind::PreInc(_, a) | ExprKind::PostInc(_, a) if is_ptr(self, a) => {}
            ExprKind::Cond(c, a, b) => {
                self.cond_ptrs(c, out);
                self.deref_ptrs(a, out);
                self.deref_ptrs(b, out);
            }
            ExprKind::Binary(BOp::LAnd | BOp::LOr, a, b) => {
                self.cond_ptrs(a, out);
                self.cond_ptrs(b, out);
            }
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => {
                self.deref_ptrs(a, out);
                self.deref_ptrs(b, out);
            }
            ExprKind::Call(f, args) => {
                self.deref_ptrs(f, out);
                for a in args {
                    self.deref_ptrs(a, out);
                }
            }
            ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::PreInc(_, a) | ExprKind::PostInc(_, a) | ExprKind::Cast(_, a) => {
                self.deref_ptrs(a, out)
            }
            ExprKind::CompoundLit(_, items) => {
                for i in items {
                    i.walk(&mut |x| {
                        if let ExprKind::Ident(id) = &x.kind {
                            if matches!(self.lookup(&id.name), Some(Entity::Ptr { .. })) && !out.iter().any(|(n, _)| *n == id.name) {
                                out.push((id.name.clone(), x.span));
                            }
                        }
                    });
                }
            }
            ExprKind::Int(..) | ExprKind::LongInt(..) | ExprKind::Float(_) | ExprKind::Char(_) | ExprKind::Str | ExprKind::Bool(_) | ExprKind::Unsupported(_) => {}
        }
    }

    /// `p == e`, `p != e` (and `<`, `>`, ... against `NULL`) for a pointer `p` with several
    /// targets: `NULL` is target 0; an array compares its target and offset. `None` if
    /// neither side is such a pointer.
    pub(crate) fn pointer_compare(&mut self, op: BOp, a: &Expr, b: &Expr, span: Span) -> Option<crate::lower::values::Val> {
        use crate::lower::values::Ty;
        use crate::lower::values::{bin, Val};
        let ptr = |l: &Self, x: &Expr| match &x.kind {
            ExprKind::Ident(i) => match l.lookup(&i.name) {
                Some(Entity::Ptr { sel, off, targets, .. }) => Some((sel, off, targets)),
                _ => None,
            },
            _ => None,
        };
        let (p, other, flipped) = match (ptr(self, a), ptr(self, b)) {
            (Some(_), Some(_)) => {
                self.unsupported("comparing two pointers that may point into several arrays", span);
                return Some(Val { e: k::Expr::num(0, span), ty: Ty::Int });
            }
            (Some(p), None) => (p, b, false),
            (None, Some(p)) => (p, a, true),
            (None, None) => return self.array_compare(op, a, b, span),
        };
        let (sel, off, targets) = p;
        if null_const(other) {
            // Against `NULL`: the target (0 for `NULL`), unsigned, as addresses are.
            let s = k::Expr::var(&sel, span);
            let z = k::Expr::num(0, span);
            let (l, r) = if flipped { (z, s) } else { (s, z) };
            return Some(Val { e: bin(comparison(op), l, r, span), ty: Ty::Int });
        }
        if !matches!(op, BOp::Eq | BOp::Ne) {
            self.unsupported("ordering a pointer that may point into several arrays against anything but `NULL`", span);
            return Some(Val { e: k::Expr::num(0, span), ty: Ty::Int });
        }
        let Some(Entity::Array { kpl, offset, .. }) = self.array_argument(other, false) else {
            return Some(Val { e: k::Expr::num(0, span), ty: Ty::Int });
        };
        let same = match targets.iter().position(|t| key(t) == kpl) {
            Some(j) => {
                let t = bin(k::BinOp::Eq, k::Expr::var(&sel, span), k::Expr::num(j as u64 + 1, span), span);
                let o = offset.map(|o| k::Expr::var(&o, span)).unwrap_or_else(|| k::Expr::num(0, span));
                bin(k::BinOp::LAnd, t, bin(k::BinOp::Eq, k::Expr::var(&off, span), o, span), span)
            }
            None => k::Expr::num(0, span),
        };
        let e = if op == BOp::Eq { same } else { k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(same)), span) };
        Some(Val { e, ty: Ty::Int })
    }

    /// `p - q` of two pointers into known arrays: the number of elements between them, a
    /// `ptrdiff_t` (64 bits with 64-bit pointers). Two arrays are never one, so pointers
    /// into different ones (C leaves that undefined) are refused, and so are arrays whose
    /// offsets do not count elements (structs, arrays kept at bytes). `None` if a side is
    /// not such a pointer (then it is arithmetic on values).
    pub(crate) fn pointer_difference(&mut self, a: &Expr, b: &Expr, span: Span) -> Option<crate::lower::values::Val> {
        use crate::lower::values::Ty;
        use crate::lower::values::{bin, Val};
        let is_ptr = |l: &Self, x: &Expr| matches!(&x.kind, ExprKind::Ident(i) if matches!(l.lookup(&i.name), Some(Entity::Ptr { .. })));
        if is_ptr(self, a) || is_ptr(self, b) {
            self.unsupported("subtracting a pointer that may point into several arrays", span);
            return Some(Val { e: k::Expr::num(0, span), ty: Ty::Int });
        }
        if !self.names_array(a) || !self.names_array(b) {
            return None;
        }
        let (Some(Entity::Array { kpl: ka, offset: oa, agg, .. }), Some(Entity::Array { kpl: kb, offset: ob, .. })) =
            (self.array_argument(a, false), self.array_argument(b, false))
        else {
            return Some(Val { e: k::Expr::num(0, span), ty: Ty::Int });
        };
        if ka != kb {
            self.unsupported("subtracting pointers into two different arrays (C leaves it undefined)", span);
            return Some(Val { e: k::Expr::num(0, span), ty: Ty::Int });
        }
        if agg.is_some() || self.byte_level.contains_key(&ka) {
            self.unsupported("subtracting pointers into an array of structs or vectors, or one kpl keeps at bytes", span);
            return Some(Val { e: k::Expr::num(0, span), ty: Ty::Int });
        }
        let at = |o: Option<String>| o.map(|o| k::Expr::var(&o, span)).unwrap_or_else(|| k::Expr::num(0, span));
        let d = Val { e: bin(k::BinOp::Sub, at(oa), at(ob), span), ty: Ty::Int };
        Some(if self.o.pointer_bits == 64 { Val { e: self.convert(d, Ty::Long { signed: true }, span), ty: Ty::Long { signed: true } } } else { d })
    }

    /// `a == b`, `a != b` (and orderings within one array) of two pointers into known arrays
    /// (`p == q` of two pointer parameters, `s.p == p`): two arrays are never one (kpl's,
    /// and GPUVerify's, kernel arrays do not alias), so only the offsets in one array are
    /// compared. `None` if a side is not such a pointer.
    fn array_compare(&mut self, op: BOp, a: &Expr, b: &Expr, span: Span) -> Option<crate::lower::values::Val> {
        use crate::lower::values::Ty;
        use crate::lower::values::{bin, Val};
        // An array against `NULL`: a kernel's pointer parameter may be null.
        if let Some(is_null) = self.null_compare(a, b, span) {
            let e = if op == BOp::Eq { is_null } else { k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(is_null)), span) };
            if !matches!(op, BOp::Eq | BOp::Ne) {
                self.unsupported("ordering a pointer against `NULL`", span);
            }
            return Some(Val { e, ty: Ty::Int });
        }
        if !self.names_array(a) || !self.names_array(b) {
            return None;
        }
        let (Some(Entity::Array { kpl: ka, offset: oa, .. }), Some(Entity::Array { kpl: kb, offset: ob, .. })) =
            (self.array_argument(a, false), self.array_argument(b, false))
        else {
            return Some(Val { e: k::Expr::num(0, span), ty: Ty::Int });
        };
        if ka != kb {
            if !matches!(op, BOp::Eq | BOp::Ne) {
                self.unsupported("ordering pointers into two different arrays", span);
            }
            return Some(Val { e: k::Expr::num((op == BOp::Ne) as u64, span), ty: Ty::Int });
        }
        let at = |o: Option<String>| o.map(|o| k::Expr::var(&o, span)).unwrap_or_else(|| k::Expr::num(0, span));
        Some(Val { e: bin(comparison(op), at(oa), at(ob), span), ty: Ty::Int })
    }

    /// Does `e` denote a pointer into a known array (an array or pointer variable, a field
    /// pointer, `a + i`, `&a[i]`), so that comparing it compares addresses?
    pub(crate) fn names_array(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(x) => matches!(self.lookup(&x.name), Some(Entity::Array { dims, .. }) if dims.len() <= 1),
            ExprKind::Binary(BOp::Add | BOp::Sub, p, _) => self.names_array(p),
            ExprKind::Unary(UOp::Addr, inner) => matches!(&inner.kind, ExprKind::Index(a, _) if self.names_array(a)),
            ExprKind::Member(..) | ExprKind::Index(..) => self.names_field_array(e),
            _ => false,
        }
    }

    /// Run `f` once per target of each pointer in `names`, with the pointer seen as that
    /// array; through `NULL`, an assertion failure.
    pub(crate) fn per_target(&mut self, names: &[(String, Span)], span: Span, f: &mut dyn FnMut(&mut Self)) {
        let Some(((name, used), rest)) = names.split_first() else {
            f(self);
            return;
        };
        let Some(saved @ Entity::Ptr { .. }) = self.lookup(name) else {
            self.per_target(rest, span, f);
            return;
        };
        let Entity::Ptr { sel, off, targets, readonly, .. } = saved.clone() else { return };
        // The null check is at the pointer's use; reports name it (`layout.rs`).
        let used = *used;
        if targets.iter().any(|t| t.is_none()) {
            self.array_layouts.null_checks.insert(used, pointer_name(name));
        }
        let mut chain: Option<k::Block> = targets.iter().any(|t| t.is_none()).then(|| {
            let null = k::Expr::new(k::ExprKind::Binary(k::BinOp::Ne, Box::new(k::Expr::var(&sel, used)), Box::new(k::Expr::num(0, used))), used);
            k::Block { stmts: vec![k::Stmt { kind: k::StmtKind::Assert(null, false), span: used }], span: used }
        });
        for (j, t) in targets.iter().enumerate().rev() {
            let Some(Entity::Array { kpl, elem, dims, readonly: ro, agg, .. }) = t else { continue };
            let seen = Entity::Array { kpl: kpl.clone(), elem: *elem, dims: dims.clone(), readonly: *ro || readonly, offset: Some(off.clone()), agg: agg.clone() };
            let body = self.sub_block(
                |l| {
                    l.rebind(name, seen);
                    l.per_target(rest, span, f);
                    l.rebind(name, saved.clone());
                },
                span,
            );
            chain = Some(match chain {
                None => body,
                Some(els) => {
                    let test = k::Expr::new(
                        k::ExprKind::Binary(k::BinOp::Eq, Box::new(k::Expr::var(&sel, span)), Box::new(k::Expr::num(j as u64 + 1, span))),
                        span,
                    );
                    k::Block { stmts: vec![k::Stmt { kind: k::StmtKind::If(test, body, Some(Box::new(k::Else::Block(els)))), span }], span }
                }
            });
        }
        if let (Some(b), Some(out)) = (chain, self.blocks.last_mut()) {
            out.extend(b.stmts);
        }
    }

    /// A statement that dereferences pointers with several targets: lowered once per
    /// target. False if it dereferences none.
    pub(crate) fn split_on_targets(&mut self, s: &Stmt) -> bool {
        if !self.has_multi {
            return false;
        }
        let mut names = Vec::new();
        match &s.kind {
            // `return p;` of a function returning a pointer copies it.
            StmtKind::Return(Some(e))
                if self.frame().ptr_result.is_some()
                    && matches!(&e.kind, ExprKind::Ident(i) if matches!(self.lookup(&i.name), Some(Entity::Ptr { .. }))) =>
            {
                return false
            }
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.deref_ptrs(e, &mut names),
            StmtKind::Decl(d) => {
                for x in &d.decls {
                    if let Some(Init::Expr(e)) = &x.init {
                        // `T *q = p;` copies the pointer (`pointers.rs`).
                        let copy = x.ptrs > 0 && matches!(&e.kind, ExprKind::Ident(i) if matches!(self.lookup(&i.name), Some(Entity::Ptr { .. })));
                        if !copy {
                            self.deref_ptrs(e, &mut names);
                        }
                    }
                }
            }
            StmtKind::If(c, ..) => self.cond_ptrs(c, &mut names),
            StmtKind::While(c, _) | StmtKind::DoWhile(_, c) | StmtKind::Switch(c, _) => {
                let mut found = Vec::new();
                self.cond_ptrs(c, &mut found);
                if !found.is_empty() {
                    self.unsupported("a loop or `switch` condition that goes through a pointer that may point into several arrays", c.span);
                }
                return false;
            }
            StmtKind::For(_, c, st, _) => {
                let mut found = Vec::new();
                for e in c.iter().chain(st.iter()) {
                    self.deref_ptrs(e, &mut found);
                }
                if !found.is_empty() {
                    self.unsupported("a loop condition or step that goes through a pointer that may point into several arrays", s.span);
                }
                return false;
            }
            _ => return false,
        }
        if names.is_empty() {
            return false;
        }
        let span = s.span;
        match &s.kind {
            StmtKind::Decl(d) => self.split_decl(d, &names, span),
            StmtKind::If(c, t, e) => {
                // The condition once per target into a local; then the `if` on it.
                let flag = self.fresh("cond");
                self.emit(k::StmtKind::Local(sp_id(&flag, c.span), Some(k::Expr::num(0, span))), span);
                self.per_target(&names, span, &mut |l| {
                    let cv = l.cond(c);
                    l.emit(k::StmtKind::Assign(sp_id(&flag, c.span), cv), span);
                });
                let tb = self.sub_block(|l| l.stmts(std::slice::from_ref(t)), t.span);
                let eb = e.as_ref().map(|e| Box::new(k::Else::Block(self.sub_block(|l| l.stmts(std::slice::from_ref(e)), e.span))));
                self.emit(k::StmtKind::If(k::Expr::var(&flag, span), tb, eb), span);
            }
            _ => self.per_target(&names, span, &mut |l| {
                l.stmt_plain(s);
            }),
        }
        true
    }

    /// `T x = e;` where `e` goes through such a pointer: `x` is declared first (so it
    /// outlives the per-target branches), then assigned in each.
    fn split_decl(&mut self, d: &Decl, names: &[(String, Span)], span: Span) {
        for x in &d.decls {
            let Some(Init::Expr(e)) = &x.init else {
                let one = Decl { decls: vec![x.clone()], ..d.clone() };
                self.local_decl(&one);
                continue;
            };
            let scalar = x.dims.is_empty() && !self.spec_type(&d.specs).is_aggregate();
            if !scalar {
                self.unsupported("initialising this variable through a pointer that may point into several arrays", x.span);
                continue;
            }
            let bare = Declarator { init: None, ..x.clone() };
            let one = Decl { decls: vec![bare], ..d.clone() };
            self.local_decl(&one);
            let assign = Expr::new(ExprKind::Assign(None, Box::new(Expr::new(ExprKind::Ident(x.name.clone()), x.name.span)), Box::new(e.clone())), x.span);
            self.per_target(names, span, &mut |l| l.expr_stmt(&assign));
        }
    }
}

/// The C name of the pointer the last of `calls` returns: `__ret_f_3` for the fourth call
/// of a statement, to `f` (reserved for the implementation, so no kernel's name).
fn result_name(calls: &[Expr]) -> String {
    let f = match calls.last().map(|c| &c.kind) {
        Some(ExprKind::Call(f, _)) => match &f.kind {
            ExprKind::Ident(i) => i.name.clone(),
            _ => String::new(),
        },
        _ => String::new(),
    };
    format!("__ret_{f}_{}", calls.len() - 1)
}

/// What to call a pointer in a report: `__ret_f_0` is the pointer `f` returns.
fn pointer_name(p: &str) -> String {
    match p.strip_prefix("__ret_").and_then(|r| r.rsplit_once('_')) {
        Some((f, _)) => format!("the pointer `{f}` returns"),
        None => format!("`{p}`"),
    }
}

/// Replace, in `e`, each call of a function in `returns_ptr` by the name `result_name` gives
/// (its `i`th such call); `calls` gets the calls. Calls under `&&`, `||` or `?:` are left
/// (they may not run); `blocked` says whether there were any.
fn hoist_calls(e: &Expr, returns_ptr: &dyn Fn(&str) -> bool, calls: &mut Vec<Expr>, blocked: &mut bool, guarded: bool) -> Expr {
    let mut rec = |x: &Expr, g: bool| Box::new(hoist_calls(x, returns_ptr, calls, blocked, g));
    let kind = match &e.kind {
        ExprKind::Call(f, args) if matches!(&f.kind, ExprKind::Ident(i) if returns_ptr(&i.name)) => {
            if guarded {
                *blocked = true;
                return e.clone();
            }
            let args: Vec<Expr> = args.iter().map(|a| hoist_calls(a, returns_ptr, calls, blocked, false)).collect();
            calls.push(Expr::new(ExprKind::Call(f.clone(), args), e.span));
            return Expr::new(ExprKind::Ident(Ident::new(result_name(calls), e.span)), e.span);
        }
        ExprKind::Binary(op @ (BOp::LAnd | BOp::LOr), a, b) => ExprKind::Binary(*op, rec(a, guarded), rec(b, true)),
        ExprKind::Cond(c, a, b) => ExprKind::Cond(rec(c, guarded), rec(a, true), rec(b, true)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, rec(a, guarded), rec(b, guarded)),
        ExprKind::Index(a, b) => ExprKind::Index(rec(a, guarded), rec(b, guarded)),
        ExprKind::Assign(op, a, b) => ExprKind::Assign(*op, rec(a, guarded), rec(b, guarded)),
        ExprKind::Comma(a, b) => ExprKind::Comma(rec(a, guarded), rec(b, guarded)),
        ExprKind::Member(a, m) => ExprKind::Member(rec(a, guarded), m.clone()),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, rec(a, guarded)),
        ExprKind::PreInc(i, a) => ExprKind::PreInc(*i, rec(a, guarded)),
        ExprKind::PostInc(i, a) => ExprKind::PostInc(*i, rec(a, guarded)),
        ExprKind::Cast(t, a) => ExprKind::Cast(t.clone(), rec(a, guarded)),
        ExprKind::Call(f, args) => ExprKind::Call(f.clone(), args.iter().map(|a| hoist_calls(a, returns_ptr, calls, blocked, guarded)).collect()),
        k => k.clone(),
    };
    Expr::new(kind, e.span)
}

impl<'u> Lower<'u> {
    /// A statement that calls functions returning pointers: each such call first, into a
    /// pointer variable of its own (declared at the call), then the statement with the
    /// variable in the call's place. `None` if it makes no such call.
    pub(crate) fn with_pointer_calls(&mut self, s: &Stmt) -> Option<Stmt> {
        if !self.funcs.values().any(|f| f.ptrs > 0) {
            return None;
        }
        let funcs = self.funcs.clone();
        let returns_ptr = |n: &str| funcs.get(n).is_some_and(|f| f.ptrs > 0);
        let mut calls = Vec::new();
        let mut blocked = false;
        let mut go = |e: &Expr| hoist_calls(e, &returns_ptr, &mut calls, &mut blocked, false);
        let kind = match &s.kind {
            // A call for its effects only: its result is not used.
            StmtKind::Expr(e) if matches!(&e.kind, ExprKind::Call(f, _) if matches!(&f.kind, ExprKind::Ident(i) if returns_ptr(&i.name))) => {
                go(e);
                StmtKind::Empty
            }
            StmtKind::Expr(e) => StmtKind::Expr(go(e)),
            StmtKind::Return(Some(e)) => StmtKind::Return(Some(go(e))),
            StmtKind::Decl(d) => {
                let mut d = d.clone();
                for x in &mut d.decls {
                    if let Some(Init::Expr(e)) = &x.init {
                        x.init = Some(Init::Expr(go(e)));
                    }
                }
                StmtKind::Decl(d)
            }
            StmtKind::If(c, t, e) => StmtKind::If(go(c), t.clone(), e.clone()),
            _ => return None,
        };
        if blocked {
            self.unsupported("a call of a function returning a pointer under `&&`, `||` or `?:`", s.span);
        }
        if calls.is_empty() {
            return None;
        }
        for (i, c) in calls.iter().enumerate() {
            let name = Ident::new(result_name(&calls[..=i]), c.span);
            let ExprKind::Call(f, args) = &c.kind else { continue };
            let ExprKind::Ident(fname) = &f.kind else { continue };
            let Some(func) = self.funcs.get(&fname.name).copied() else { continue };
            if func.body.is_none() {
                // Nothing says where it points: every access through it may fail.
                for (i, a) in args.iter().enumerate() {
                    let pointer = func.params.get(i).is_some_and(|p| !p.ptrs.is_empty() || p.dims > 0);
                    if !pointer && self.agg_type(a).is_none() {
                        self.expr_stmt(a);
                    }
                }
                let e = self.null_pointer(&name.name, c.span);
                self.has_multi = true;
                self.bind(&name.name, e);
                continue;
            }
            if self.multi_pointer(&name, c.span, false).is_none() {
                self.pending_decl(&Declarator { name: name.clone(), ptrs: 1, reference: false, dims: Vec::new(), init: None, span: c.span }, false);
            }
            self.ptr_result = Some(name.clone());
            self.inline_call(func, args, c.span);
            self.ptr_result = None;
        }
        Some(Stmt { kind, span: s.span })
    }
}
