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

/// Names of the locals whose address some function takes (`&x`).
pub(crate) fn addressed(u: &Unit) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut visit = |x: &Expr| {
        if let ExprKind::Unary(UOp::Addr, a) = &x.kind {
            if let ExprKind::Ident(n) = &a.kind {
                out.insert(n.name.clone());
            }
        }
    };
    for item in &u.items {
        if let Item::Func(Func { body: Some(b), .. }) = item {
            b.stmts.iter().for_each(|s| s.walk_exprs(&mut |e| e.walk(&mut visit)));
        }
    }
    out
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
        let threads = self.o.launch.map(|l| l.total_threads()).unwrap_or(1);
        let size = per_thread.saturating_mul(threads);
        if per_thread == 0 || size > u32::MAX as u64 {
            self.err(format!("the per-thread array `{name}` takes {per_thread} words in each of {threads} threads: more than kpl's 2^32-word arrays"), span);
            return None;
        }
        let kpl = self.fresh(&format!("{name}_private"));
        self.decls.push(k::Decl { kind: DeclKind::Global { name: sp_id(&kpl, span), size: Some((size, span)) }, span });
        self.array_layouts.names.insert(kpl.clone(), format!("{name} (private)"));
        self.private_arrays.insert(kpl.clone());
        let base = self.fresh(&format!("{name}_base"));
        let start = bin(BinOp::Mul, self.linear_id(span), k::Expr::num(per_thread, span), span);
        self.emit(k::StmtKind::Local(sp_id(&base, span), Some(start)), span);
        let (ty, agg) = elem.clone().split();
        Some(Entity::Array { kpl, elem: ty, dims, readonly: false, offset: Some(base), agg })
    }

    /// `T a[N]...;` in a function, or `T x;` whose address is taken: a private array, with
    /// its initialiser stored.
    pub(crate) fn private_decl(&mut self, x: &Declarator, elem: &CType) {
        let Some(dims) = self.array_dims(x, "a per-thread array") else { return };
        let scalar = dims.is_empty();
        let Some(arr) = self.private_array(&x.name.name, elem, dims.clone(), x.span) else {
            self.bind(&x.name.name, Entity::Invalid);
            return;
        };
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

    /// The region `&s` names, for a struct or vector variable `s` whose address is taken.
    pub(crate) fn private_record(&self, e: &Expr) -> Option<Entity> {
        let ExprKind::Ident(x) = &e.kind else { return None };
        let Some(Entity::Record { leaves, .. }) = self.lookup(&x.name) else { return None };
        match leaves.first()? {
            crate::lower::values::Leaf::Word(crate::lower::values::Place::Elem { array, .. }) => self.private_regions.get(array).cloned(),
            _ => None,
        }
    }

    /// The array `&x` of an addressed scalar names.
    pub(crate) fn private_pointer(&self, kpl: &str, base: &str, ty: Ty) -> Entity {
        Entity::Array { kpl: kpl.to_string(), elem: ty, dims: vec![], readonly: false, offset: Some(base.to_string()), agg: None }
    }
}
