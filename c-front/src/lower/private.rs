//! Private (per-thread) memory: a per-thread array (`int a[8];` in a function) and a local
//! whose address is taken (`int x; f(&x);`) live in one KPL global array with a region per
//! thread (the thread's linear id times the region's size), so pointers into them work like
//! pointers into any array, no two threads' regions overlap (no races between them), and
//! what a thread reads before writing is arbitrary (C's indeterminate values). The
//! verifier forgets the contents at a barrier that orders global memory, as for any global
//! array: an over-approximation.

use crate::lower::context::Lower;
use crate::lower::values::{CType, Entity, Ty, bin, kx, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, Axis, BinOp, DeclKind, Special};
use kpl_lang::span::Span;
use std::collections::HashSet;

/// The functions with a body.
fn bodies(u: &Unit) -> Vec<&Func> {
    u.items
        .iter()
        .filter_map(|i| match i {
            Item::Func(f) if f.body.is_some() => Some(f),
            _ => None,
        })
        .collect()
}

/// The names `fs` take the address of (`&x`, and `&x.f` given to `memcpy`/`memset`), or,
/// with `indexed`, index an array field of by anything but a literal (`x.a[i]`).
fn named_in(fs: &[&Func], indexed: bool) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut visit = |x: &Expr| match &x.kind {
        ExprKind::Index(a, i) if indexed && !matches!(i.kind, ExprKind::Int(..)) => {
            if let ExprKind::Member(b, _) = &a.kind {
                if let ExprKind::Ident(n) = &b.kind {
                    out.insert(n.name.clone());
                }
            }
        }
        ExprKind::Unary(UOp::Addr, a) if !indexed => {
            if let ExprKind::Ident(n) = &a.kind {
                out.insert(n.name.clone());
            }
        }
        // `memcpy(&x.f, ...)`: the bytes of a field, copied in memory.
        ExprKind::Call(f, args) if !indexed && matches!(&f.kind, ExprKind::Ident(n) if crate::lower::memcpy::mem_function(&n.name).is_some()) => {
            for a in args {
                let ExprKind::Unary(UOp::Addr, a) = &a.kind else { continue };
                let mut base = a.as_ref();
                while let ExprKind::Member(b, _) = &base.kind {
                    base = b;
                }
                if let ExprKind::Ident(n) = &base.kind {
                    out.insert(n.name.clone());
                }
            }
        }
        _ => {}
    };
    for f in fs {
        f.body.iter().flat_map(|b| &b.stmts).for_each(|s| s.walk_exprs(&mut |e| e.walk(&mut visit)));
    }
    out
}

/// Names of the struct variables an array field of which is indexed by anything but a
/// literal (`x.a[i]`): where the struct holds no pointers, its words live in a private
/// region, where an element of the field is found by its index.
pub(crate) fn field_indexed(u: &Unit) -> HashSet<String> {
    let mut out = named_in(&bodies(u), true);
    through_references(u, &mut out);
    out
}

/// Names of the locals whose address some function takes (`&x`, and `&x.f` given to
/// `memcpy`/`memset`), and of those given to a reference parameter of such a name.
pub(crate) fn addressed(u: &Unit) -> HashSet<String> {
    let mut out = named_in(&bodies(u), false);
    through_references(u, &mut out);
    out
}

/// A variable given to a reference parameter of a name in `out` joins it (the callee's
/// `&p.f` is the caller's `&v.f`): up to a fixpoint.
fn through_references(u: &Unit, out: &mut HashSet<String>) {
    let funcs: std::collections::HashMap<&str, &Func> = bodies(u).into_iter().map(|f| (f.name.name.as_str(), f)).collect();
    loop {
        let mut more = Vec::new();
        let mut visit = |x: &Expr| {
            let ExprKind::Call(f, args) = &x.kind else { return };
            let Some(f) = (match &f.kind {
                ExprKind::Ident(n) => funcs.get(n.name.as_str()),
                _ => None,
            }) else {
                return;
            };
            for (p, a) in f.params.iter().zip(args) {
                let by_ref = p.reference && p.name.as_ref().is_some_and(|n| out.contains(&n.name));
                if let (true, ExprKind::Ident(n)) = (by_ref, &a.kind) {
                    if !out.contains(&n.name) {
                        more.push(n.name.clone());
                    }
                }
            }
        };
        for f in funcs.values() {
            f.body.iter().flat_map(|b| &b.stmts).for_each(|s| s.walk_exprs(&mut |e| e.walk(&mut visit)));
        }
        if more.is_empty() {
            break;
        }
        out.extend(more);
    }
}

impl<'u> Lower<'u> {
    /// Row-major linear index of `id` (lid or gid) in a grid of `size` over the launch's axes.
    fn linear(&self, id: Special, size: Special, span: Span) -> k::Expr {
        let n = self.o.launch.map(|l| l.dims_used()).unwrap_or(1).max(1);
        let sp = |s: Special, a: Axis| kx(k::ExprKind::Special(s, a, true), span);
        Axis::ALL[..n].iter().rev().fold(None, |acc: Option<k::Expr>, a| {
            Some(match acc {
                None => sp(id, *a),
                Some(acc) => bin(BinOp::Add, bin(BinOp::Mul, acc, sp(size, *a), span), sp(id, *a), span),
            })
        })
        .unwrap_or_else(|| k::Expr::num(0, span))
    }

    /// The thread's linear local id in its group (0 .. threads per group).
    pub(crate) fn local_linear_id(&self, span: Span) -> k::Expr {
        self.linear(Special::Lid, Special::Threads, span)
    }

    /// The thread's linear id in the launch (0 .. total threads).
    fn linear_id(&self, span: Span) -> k::Expr {
        let n = self.o.launch.map(|l| l.dims_used()).unwrap_or(1).max(1);
        let sp = |s: Special, a: Axis| kx(k::ExprKind::Special(s, a, true), span);
        let per_group = Axis::ALL[..n].iter().map(|a| sp(Special::Threads, *a)).reduce(|x, y| bin(BinOp::Mul, x, y, span));
        let group = self.linear(Special::Gid, Special::Groups, span);
        let local = self.local_linear_id(span);
        match per_group {
            Some(pg) => bin(BinOp::Add, bin(BinOp::Mul, group, pg, span), local, span),
            None => local,
        }
    }

    /// A private array of `elem` (dimensions `dims`; none for an addressed scalar): its
    /// global array and this thread's region, as an array entity.
    pub(crate) fn private_array(&mut self, name: &str, elem: &CType, dims: Vec<u32>, span: Span) -> Option<Entity> {
        let words = self.words(elem) as u64;
        let per_thread: u64 = crate::lower::values::array_words(&dims, words);
        // A grid the host code computes at run time has no number of threads: the array of
        // every thread's copy is unsized (each access still checked to stay in its
        // thread's region, `Config::private`).
        let free = self.o.launch.is_some_and(|l| l.has_free_groups());
        let threads = self.o.launch.map(|l| if free { l.least() } else { l }.total_threads()).unwrap_or(1);
        let size = per_thread.saturating_mul(threads);
        if per_thread == 0 || size > u32::MAX as u64 {
            self.err(format!("the per-thread array `{name}` takes {per_thread} words in each of {threads} threads: more than kpl's 2^32-word arrays"), span);
            return None;
        }
        let kpl = self.fresh(&format!("{name}_private"));
        self.decls.push(k::Decl { kind: DeclKind::Global { name: sp_id(&kpl, span), size: (!free).then_some((size, span)) }, span });
        self.array_layouts.names.insert(kpl.clone(), format!("{name} (private)"));
        self.private_arrays.insert(kpl.clone());
        self.array_layouts.private.insert(kpl.clone(), per_thread as u32);
        let base = self.fresh(&format!("{name}_base"));
        let start = bin(BinOp::Mul, self.linear_id(span), k::Expr::num(per_thread, span), span);
        self.emit(k::StmtKind::Local(sp_id(&base, span), Some(start)), span);
        let (ty, agg) = elem.clone().split();
        Some(Entity::Array { kpl, elem: ty, dims, readonly: false, offset: Some(base), agg })
    }

    /// `T a[N]...;` in a function, or `T x;` whose address is taken: a private array, with
    /// its initialiser stored.
    pub(crate) fn private_decl(&mut self, x: &Declarator, elem: &CType, specs: &[Spec]) {
        let Some(dims) = self.array_dims(x, "a per-thread array") else { return };
        let scalar = dims.is_empty();
        let Some(arr) = self.private_array(&x.name.name, elem, dims.clone(), x.span) else {
            self.bind(&x.name.name, Entity::Invalid);
            return;
        };
        // Its bytes per word, for pointer casts (`(float *)&v` of a `float4 v`).
        if let Entity::Array { kpl, .. } = &arr {
            let kpl = kpl.clone();
            self.note_word_bytes(&kpl, specs);
        }
        // The initial values, word by word, stored into the region.
        let whole = dims.iter().rev().fold(elem.clone(), |t, &n| CType::Array(Box::new(t), n));
        let init = match &x.init {
            Some(Init::List(items, sp)) => self.init_list(&whole, items, *sp),
            Some(Init::Expr(e)) if scalar && !elem.is_aggregate() => {
                let v = self.expr(e);
                let ty = elem.clone().split().0;
                Some(vec![crate::lower::values::VLeaf::Word(crate::lower::values::Val { e: self.convert(v, ty, e.span), ty })])
            }
            Some(Init::Expr(e)) if scalar && self.agg_type(e).is_some() => self.agg_value(e).map(|v| v.leaves),
            Some(Init::Expr(e)) => {
                self.err("this initialiser does not fit the array", e.span);
                None
            }
            None => None,
        };
        let Entity::Array { kpl, offset: Some(base), .. } = &arr else { return };
        if let Some(words) = init {
            let tys = self.leaves(&whole);
            for (w, (v, t)) in words.into_iter().zip(tys).enumerate() {
                let index = bin(BinOp::Add, k::Expr::var(base, x.span), k::Expr::num(w as u64, x.span), x.span);
                let value = match (v, t) {
                    (crate::lower::values::VLeaf::Word(v), crate::lower::values::LeafTy::Word(ty)) => self.convert(v, ty, x.span),
                    _ => {
                        self.unsupported("pointers in a per-thread array", x.span);
                        k::Expr::num(0, x.span)
                    }
                };
                self.emit(k::StmtKind::Store(sp_id(kpl, x.span), index, value), x.span);
            }
        }
        if scalar && !elem.is_aggregate() {
            let ty = elem.clone().split().0;
            self.bind(&x.name.name, Entity::Private { kpl: kpl.clone(), base: base.clone(), ty });
        } else if scalar {
            let zero = Expr::new(ExprKind::Int(0, false), x.span);
            self.private_regions.insert(kpl.clone(), arr.clone());
            match self.element_of(arr, &[&zero], x.span) {
                Some(crate::lower::values::Lv::Agg(ty, leaves)) => self.bind(&x.name.name, Entity::Record { ty, leaves }),
                _ => self.bind(&x.name.name, Entity::Invalid),
            }
        } else {
            self.bind(&x.name.name, arr);
        }
    }

    /// Is a variable `name` of type `t` kept in a private region: its address taken, or an
    /// array field of it indexed by a variable where it holds no pointers?
    pub(crate) fn in_memory(&mut self, name: &str, t: &CType) -> bool {
        self.addressed.contains(name)
            || (self.field_indexed.contains(name) && t.is_aggregate() && self.leaves(t).iter().all(|l| matches!(l, crate::lower::values::LeafTy::Word(_))))
    }

    /// Is by-value parameter `name` (of type `t`) of `f` kept in a private region: `f`
    /// itself takes its address, indexes its array field by a variable (where it holds no
    /// pointers), or gives it to a reference parameter that is kept so? (The names of
    /// `in_memory` are the file's; a parameter asks of its own function only.)
    pub(crate) fn param_in_memory(&mut self, f: &Func, name: &str, t: &CType) -> bool {
        if !self.in_memory(name, t) {
            return false;
        }
        let no_pointers = t.is_aggregate() && self.leaves(t).iter().all(|l| matches!(l, crate::lower::values::LeafTy::Word(_)));
        if named_in(&[f], false).contains(name) || (no_pointers && named_in(&[f], true).contains(name)) {
            return true;
        }
        let mut by_ref = false;
        let mut visit = |x: &Expr| {
            let ExprKind::Call(g, args) = &x.kind else { return };
            let ExprKind::Ident(g) = &g.kind else { return };
            let Some(g) = self.funcs.get(&g.name) else { return };
            for (p, a) in g.params.iter().zip(args) {
                let kept = p.name.as_ref().is_some_and(|n| self.addressed.contains(&n.name) || (no_pointers && self.field_indexed.contains(&n.name)));
                if p.reference && kept && matches!(&a.kind, ExprKind::Ident(n) if n.name == name) {
                    by_ref = true;
                }
            }
        };
        f.body.iter().flat_map(|b| &b.stmts).for_each(|s| s.walk_exprs(&mut |e| e.walk(&mut visit)));
        by_ref
    }

    /// A by-value parameter `name` of type `ty` whose address is taken, given `arg`: a private
    /// region initialised with the argument (evaluated in the caller's scope), as
    /// `private_decl` makes for a local; the caller's own binding of the name is kept.
    pub(crate) fn private_param(&mut self, name: &str, ty: &CType, specs: &[Spec], arg: &Expr, span: Span) -> Option<Entity> {
        let x = Declarator { ptrs: 0, reference: false, name: kpl_lang::ast::Ident::new(name.to_string(), span), dims: Vec::new(), init: Some(Init::Expr(arg.clone())), span };
        let before = self.scopes.last().and_then(|s| s.get(name).cloned());
        self.private_decl(&x, ty, specs);
        let entity = self.scopes.last_mut().and_then(|s| s.remove(name));
        if let (Some(b), Some(s)) = (before, self.scopes.last_mut()) {
            s.insert(name.to_string(), b);
        }
        entity.filter(|e| !matches!(e, Entity::Invalid))
    }

    /// The region `&s` names, for a struct or vector variable `s` whose address is taken.
    pub(crate) fn private_record(&self, e: &Expr) -> Option<Entity> {
        let ExprKind::Ident(x) = &e.kind else { return None };
        let Some(Entity::Record { leaves, .. }) = self.lookup(&x.name) else { return None };
        match leaves.first()? {
            crate::lower::values::Leaf::Word(crate::lower::values::Place::Elem { array, .. }) => self.private_regions.get(array).cloned(),
            _ => None,
        }
    }

    /// `&s.f` of a field of a struct in memory: the field as an array (an array field), or
    /// the one-element array from its first word.
    pub(crate) fn field_pointer(&mut self, e: &Expr) -> Option<Entity> {
        use crate::lower::values::{Leaf, Lv, Place};
        let (place, agg) = match self.lvalue(e)? {
            Lv::Array(a) => {
                // A scalar array field: its elements' C width, from the struct's layout.
                if let (Entity::Array { offset: Some(off), agg: None, .. }, ExprKind::Member(base, m)) = (&a, &e.kind) {
                    if let Some(CType::Struct(id)) = self.agg_type(base) {
                        let width = self.fields(id).iter().find(|f| f.name == m.name).and_then(|f| f.bytes.first()).map(|b| b.1);
                        if let Some(w) = width {
                            self.field_widths.insert(off.clone(), w);
                        }
                    }
                }
                return Some(a);
            }
            Lv::Word(p @ Place::Elem { .. }) => (p, None),
            Lv::Agg(t, leaves) => match leaves.into_iter().next() {
                Some(Leaf::Word(p @ Place::Elem { .. })) => (p, Some(t)),
                _ => (Place::Local(String::new(), Ty::Int), None),
            },
            _ => (Place::Local(String::new(), Ty::Int), None),
        };
        let Place::Elem { array, index, elem, readonly } = place else {
            self.unsupported("`&` of a field of a struct kept in locals (kpl takes the address of a struct variable's fields only where the struct is in memory)", e.span);
            return None;
        };
        let off = self.fresh(&format!("{array}_field"));
        self.emit(k::StmtKind::Local(sp_id(&off, e.span), Some(index)), e.span);
        let elem = if agg.is_some() { Ty::Int } else { elem };
        Some(Entity::Array { kpl: array, elem, dims: vec![], readonly, offset: Some(off), agg })
    }

    /// The array `&x` of an addressed scalar names.
    pub(crate) fn private_pointer(&self, kpl: &str, base: &str, ty: Ty) -> Entity {
        Entity::Array { kpl: kpl.to_string(), elem: ty, dims: vec![], readonly: false, offset: Some(base.to_string()), agg: None }
    }
}
