//! Structs and vectors in expressions: places (`s.f`, `a[i].f`, `p->f`, `v.xy`), values
//! (copies, element-wise vector arithmetic, vector literals, `make_float4`, initialiser
//! lists) and assignments of whole aggregates, over the word layout of `ctypes.rs`.

use crate::lower::agg_types::vload_width;
use crate::lower::context::Lower;
use crate::lower::overload_calls::Callee;
use crate::lower::values::{AggVal, CType, Entity, Leaf, LeafTy, Lv, Place, Ty, VLeaf, Val, bin, kx, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, Ident};
use kpl_lang::span::Span;

/// `a, b, c` as a list.
fn commas(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Comma(a, b) => {
            let mut v = commas(a);
            v.push(b);
            v
        }
        _ => vec![e],
    }
}

impl<'u> Lower<'u> {
    // ---- places ----

    pub(crate) fn lvalue(&mut self, e: &Expr) -> Option<Lv> {
        let span = e.span;
        match &e.kind {
            ExprKind::Ident(x) => match self.lookup(&x.name) {
                Some(Entity::Local { kpl, ty }) | Some(Entity::Param { kpl, ty }) => Some(Lv::Word(Place::Local(kpl, ty))),
                Some(Entity::SharedScalar { kpl, ty }) => {
                    // A file-scope pointer variable is a pointer stored in memory.
                    let stored_pointer = self.pointer_storage.contains(&kpl);
                    let place = Place::Elem { array: kpl, index: k::Expr::num(0, span), elem: ty, readonly: false };
                    Some(if stored_pointer { Lv::PtrWord(place) } else { Lv::Word(place) })
                }
                Some(Entity::Private { kpl, base, ty }) => {
                    Some(Lv::Word(Place::Elem { array: kpl, index: k::Expr::var(&base, span), elem: ty, readonly: false }))
                }
                Some(a @ Entity::Array { .. }) => Some(Lv::Array(a)),
                Some(t @ Entity::Table { .. }) => Some(Lv::Array(t)),
                Some(Entity::Record { ty, leaves }) => Some(Lv::Agg(ty, leaves)),
                Some(Entity::Invalid) => None,
                Some(Entity::PendingPtr { .. }) => {
                    self.pending_pointer(e);
                    None
                }
                Some(Entity::Ptr { .. }) => {
                    // Statements through such a pointer are split by target first.
                    self.unsupported("going through a pointer that may point into several arrays here (kpl splits only expression statements, declarations, returns and `if` conditions on its targets)", span);
                    None
                }
                None => {
                    self.err(format!("`{}` is not declared", x.name), span);
                    None
                }
            },
            ExprKind::Index(..) => {
                // `a[i][j]...`: the base and the indices, outermost last.
                let mut idx: Vec<&Expr> = Vec::new();
                let mut cur = e;
                while let ExprKind::Index(a, i) = &cur.kind {
                    idx.push(i);
                    cur = a;
                }
                idx.reverse();
                match self.lvalue(cur)? {
                    Lv::Agg(t @ CType::Array(..), leaves) => self.record_elements(t, leaves, &idx, span),
                    lv => {
                        let arr = self.array_in(lv, cur)?;
                        self.element_of(arr, &idx, span)
                    }
                }
            }
            ExprKind::Unary(UOp::Deref, p) => match &p.kind {
                // `*&x` is `x`.
                ExprKind::Unary(UOp::Addr, inner) => self.lvalue(inner),
                // `*(a + i)` is `a[i]`, `*(a + i - j)` is `a[i - j]`.
                ExprKind::Binary(BOp::Add | BOp::Sub, ..) => {
                    let (a, i) = crate::lower::pointers::pointer_sum(p)?;
                    let arr = self.array_of(a)?;
                    self.element_of(arr, &[&i], span)
                }
                _ => {
                    let arr = self.array_of(p)?;
                    let zero = Expr::new(ExprKind::Int(0, false), span);
                    self.element_of(arr, &[&zero], span)
                }
            },
            // `__return_val_int4()` (any `__return_val_T()`) in a postcondition of a function
            // with a struct or vector result: that result.
            ExprKind::Call(f, args)
                if args.is_empty()
                    && matches!(&f.kind, ExprKind::Ident(x) if x.name.starts_with("__return_val_"))
                    && self.frames.last().is_some_and(|fr| fr.agg_result.is_some()) =>
            {
                let (ty, leaves) = self.frame().agg_result.clone()?;
                Some(Lv::Agg(ty, leaves))
            }
            ExprKind::Member(base, m) => {
                let lv = self.lvalue(base)?;
                let Lv::Agg(t, leaves) = lv else {
                    self.err(format!("`.{}` on a value that is not a struct or vector", m.name), m.span);
                    return None;
                };
                let (ft, idx) = self.member_of(&t, m)?;
                let sel: Vec<Leaf> = idx.iter().filter_map(|&i| leaves.get(i as usize).cloned()).collect();
                match ft {
                    CType::Scalar(_) | CType::Pointer(_) => match sel.into_iter().next()? {
                        Leaf::Word(p) if matches!(ft, CType::Pointer(_)) => Some(Lv::PtrWord(p)),
                        Leaf::Word(p) => Some(Lv::Word(p)),
                        Leaf::Ptr(a) => Some(Lv::Array(a)),
                        Leaf::PtrVar(n) => self.lvalue(&Expr::new(ExprKind::Ident(Ident::new(n, m.span)), span)),
                    },
                    // An array field of a struct variable: its words (indexed by constants).
                    CType::Array(..) if !matches!(sel.first(), Some(Leaf::Word(Place::Elem { .. }))) => Some(Lv::Agg(ft, sel)),
                    CType::Array(..) => self.array_field(&ft, sel.first(), span),
                    _ => Some(Lv::Agg(ft, sel)),
                }
            }
            // `((T *)a)[i]`, `*(T *)p`: the array seen through another element type.
            ExprKind::Cast(t, inner) if t.ptrs > 0 && !crate::lower::multiptr::null_const(inner) => {
                if let Some(moved) = self.moved_by_bytes(t, inner, false, span) {
                    return moved.map(Lv::Array);
                }
                let src = match &inner.kind {
                    ExprKind::Ident(_) | ExprKind::Member(..) | ExprKind::Cast(..) | ExprKind::Index(..) => self.array_of(inner)?,
                    _ => self.array_argument(inner, false)?,
                };
                self.cast_view(t, src, span).map(Lv::Array)
            }
            _ => {
                match &e.kind {
                    ExprKind::Unary(UOp::Addr, _) => self.unsupported("taking an address with `&` (CUDA.md tier 2)", span),
                    ExprKind::Binary(BOp::Add | BOp::Sub, ..) | ExprKind::PreInc(..) | ExprKind::PostInc(..) => {
                        self.unsupported("pointer arithmetic (CUDA.md tier 2)", span)
                    }
                    ExprKind::Cast(t, _) if t.ptrs > 0 => self.err("a pointer cast is not a place to assign to", span),
                    _ => self.err("this expression cannot be assigned", span),
                }
                None
            }
        }
    }

    /// Constant indices into an array field of a struct variable (its words are locals or
    /// pointer fields); further indices go to the array a pointer element names.
    fn record_elements(&mut self, mut t: CType, mut leaves: Vec<Leaf>, idx: &[&Expr], span: Span) -> Option<Lv> {
        let mut rest = idx;
        while let (CType::Array(e, n), Some((i, tail))) = (t.clone(), rest.split_first()) {
            let Some(k) = self.const_eval(i) else {
                self.unsupported("indexing an array field of a struct variable with a non-constant index (per-thread arrays)", i.span);
                return None;
            };
            if k < 0 || k >= n as i64 {
                self.err(format!("index {k} is outside the field's {n} elements"), i.span);
                return None;
            }
            let w = self.words(&e) as usize;
            leaves = leaves.get(k as usize * w..(k as usize + 1) * w)?.to_vec();
            t = *e;
            rest = tail;
        }
        let lv = match (&t, leaves.first()) {
            (CType::Scalar(_), Some(Leaf::Word(p))) => Lv::Word(p.clone()),
            (CType::Pointer(_), Some(Leaf::Ptr(a))) => Lv::Array(a.clone()),
            (CType::Pointer(_), Some(Leaf::PtrVar(n))) => self.lvalue(&Expr::new(ExprKind::Ident(Ident::new(n.clone(), span)), span))?,
            _ => Lv::Agg(t, leaves),
        };
        if rest.is_empty() {
            return Some(lv);
        }
        match lv {
            Lv::Array(a) => self.element_of(a, rest, span),
            _ => {
                self.err("too many indices", span);
                None
            }
        }
    }

    /// The array an expression denotes (the base of an index).
    fn array_of(&mut self, e: &Expr) -> Option<Entity> {
        let lv = self.lvalue(e)?;
        self.array_in(lv, e)
    }

    /// The array a place denotes (`e` is its expression, for messages).
    fn array_in(&mut self, lv: Lv, e: &Expr) -> Option<Entity> {
        match lv {
            Lv::Array(a) => Some(a),
            Lv::PtrWord(_) => {
                self.unsupported("a pointer read from memory (kpl cannot tell which array it points into)", e.span);
                None
            }
            _ => {
                let what = match &e.kind {
                    ExprKind::Ident(x) => format!("`{}` is not an array", x.name),
                    _ => "this is not an array".to_string(),
                };
                self.err(what, e.span);
                None
            }
        }
    }

    /// An array field of a struct in memory, as an array seen from the field's first word.
    fn array_field(&mut self, ft: &CType, first: Option<&Leaf>, span: Span) -> Option<Lv> {
        let mut dims = Vec::new();
        let mut inner = ft.clone();
        while let CType::Array(e, n) = inner {
            dims.push(n);
            inner = *e;
        }
        match first {
            Some(Leaf::Word(Place::Elem { array, index, readonly, .. })) => {
                let off = self.fresh(&format!("{array}_field"));
                self.emit(k::StmtKind::Local(sp_id(&off, span), Some(index.clone())), span);
                // An array of pointers keeps its element type: an element is a pointer word.
                let (elem, agg) = match inner {
                    CType::Scalar(t) => (t, None),
                    t @ CType::Pointer(_) => (Ty::UInt, Some(t)),
                    t => (Ty::Int, Some(t)),
                };
                Some(Lv::Array(Entity::Array { kpl: array.clone(), elem, dims, readonly: *readonly, offset: Some(off), agg }))
            }
            _ => {
                self.unsupported("indexing an array field of a struct variable (per-thread arrays)", span);
                None
            }
        }
    }

    /// The row-major word-element index of `idx` into an array of dimensions `dims`
    /// (`what` names it in messages): ((i0 * d1) + i1) * d2 + i2. `array`: the KPL array
    /// indexed (`None`: a `__constant` table), whose bounds decide what a 64-bit index past
    /// 32 bits becomes (`long_index`).
    fn flat_index(&mut self, what: &str, dims: &[u32], idx: &[&Expr], array: Option<&str>, span: Span) -> Option<k::Expr> {
        let want = dims.len().max(1);
        if idx.len() != want {
            self.err(format!("{what} needs {want} index(es), got {}", idx.len()), span);
            return None;
        }
        let mut flat: Option<k::Expr> = None;
        for (n, i) in idx.iter().enumerate() {
            let v = self.expr(i);
            if v.ty == Ty::Float {
                self.err("an array index must be an integer", i.span);
            }
            let v = match v.ty {
                Ty::Long { .. } => {
                    let sized = array.is_none_or(|a| self.array_sized(a));
                    self.long_index(v, sized, i.span)
                }
                _ => self.convert(v, Ty::UInt, i.span),
            };
            flat = Some(match flat {
                None => v,
                Some(f) => {
                    let d = dims.get(n).copied().unwrap_or(1) as u64;
                    bin(k::BinOp::Add, bin(k::BinOp::Mul, f, k::Expr::num(d, span), span), v, span)
                }
            });
        }
        Some(flat.unwrap_or_else(|| k::Expr::num(0, span)))
    }

    /// Does the KPL array `kpl` have a declared size (so its bounds are checked)?
    fn array_sized(&self, kpl: &str) -> bool {
        self.decls.iter().any(|d| match &d.kind {
            k::DeclKind::Global { name, size } | k::DeclKind::Shared { name, size } => name.name == kpl && size.is_some(),
            _ => false,
        })
    }

    /// Element `idx` of an array: a word, or a struct or vector's words.
    pub(crate) fn element_of(&mut self, arr: Entity, idx: &[&Expr], span: Span) -> Option<Lv> {
        if let Entity::Table { values, elem, dims, agg } = arr {
            return self.table_element(&values, elem, &dims, agg, idx, span);
        }
        let Entity::Array { kpl, elem, dims, readonly, offset, agg } = arr else {
            self.err("kpl cannot tell which array this pointer field points into (it was never given one)", span);
            return None;
        };
        if matches!(agg, Some(CType::Pointer(_))) && idx.len() > dims.len().max(1) {
            self.unsupported("a pointer read from memory (kpl cannot tell which array it points into)", span);
            return None;
        }
        let mut index = self.flat_index(&format!("`{kpl}`"), &dims, idx, Some(&kpl), span)?;
        if self.is_bytes(&kpl) {
            return self.byte_element(kpl, elem, agg, readonly, index, offset, span);
        }
        let words = match &agg {
            Some(t) => self.words(t),
            None => 1,
        };
        if words != 1 {
            index = bin(k::BinOp::Mul, index, k::Expr::num(words as u64, span), span);
        }
        if let Some(o) = offset {
            index = bin(k::BinOp::Add, k::Expr::var(&o, span), index, span);
        }
        let Some(t) = agg else {
            return Some(Lv::Word(Place::Elem { array: kpl, index, elem, readonly }));
        };
        if let CType::Pointer(_) = t {
            return Some(Lv::PtrWord(Place::Elem { array: kpl, index, elem: Ty::UInt, readonly }));
        }
        // The words of one element share the index: compute it once if it reads memory.
        let index = if index.has_reads() { self.bind_temp(Val { e: index, ty: Ty::UInt }, span).e } else { index };
        let leaves = self
            .leaves(&t)
            .into_iter()
            .enumerate()
            .map(|(w, l)| {
                let elem = match l {
                    LeafTy::Word(t) => t,
                    LeafTy::Ptr(_) => Ty::UInt,
                };
                let at = if w == 0 { index.clone() } else { bin(k::BinOp::Add, index.clone(), k::Expr::num(w as u64, span), span) };
                Leaf::Word(Place::Elem { array: kpl.clone(), index: at, elem, readonly })
            })
            .collect();
        Some(Lv::Agg(t, leaves))
    }

    /// Element `idx` of an OpenCL `__constant` table: each word the value the table holds
    /// there (a choice on the index), read-only; an index past the end fails an assertion.
    fn table_element(&mut self, values: &[u32], elem: Ty, dims: &[u32], agg: Option<CType>, idx: &[&Expr], span: Span) -> Option<Lv> {
        let flat = self.flat_index("this table", dims, idx, None, span)?;
        let index = self.bind_temp(Val { e: flat, ty: Ty::UInt }, span).e;
        let count: u64 = dims.iter().map(|&d| d as u64).product();
        self.emit(k::StmtKind::Assert(bin(k::BinOp::Lt, index.clone(), k::Expr::num(count, span), span), false), span);
        let words = values.len() / count.max(1) as usize;
        let pick = |w: usize| -> k::Expr {
            let col: Vec<u32> = values.iter().skip(w).step_by(words.max(1)).copied().collect();
            let last = col.last().copied().unwrap_or(0);
            if col.iter().all(|v| *v == last) {
                return k::Expr::num(last as u64, span);
            }
            col.iter().enumerate().rev().skip(1).fold(k::Expr::num(last as u64, span), |rest, (e, v)| {
                let is = bin(k::BinOp::Eq, index.clone(), k::Expr::num(e as u64, span), span);
                kx(k::ExprKind::Cond(Box::new(is), Box::new(k::Expr::num(*v as u64, span)), Box::new(rest)), span)
            })
        };
        let Some(t) = agg else { return Some(Lv::Word(Place::Const(pick(0), elem))) };
        let leaves = self
            .leaves(&t)
            .into_iter()
            .enumerate()
            .map(|(w, l)| {
                let ty = match l {
                    LeafTy::Word(ty) => ty,
                    LeafTy::Ptr(_) => Ty::UInt,
                };
                Leaf::Word(Place::Const(pick(w), ty))
            })
            .collect();
        Some(Lv::Agg(t, leaves))
    }

    // ---- values ----

    /// The value of a struct or vector expression.
    pub(crate) fn agg_value(&mut self, e: &Expr) -> Option<AggVal> {
        let span = e.span;
        if let Some(call) = self.operator_call(e) {
            return self.agg_value(&call);
        }
        if let ExprKind::Member(base, m) = &e.kind {
            if self.rvalue_aggregate(base) {
                return self.rvalue_member(base, m, span);
            }
        }
        match &e.kind {
            ExprKind::Ident(_) | ExprKind::Index(..) | ExprKind::Member(..) | ExprKind::Unary(UOp::Deref, _) => match self.lvalue(e)? {
                Lv::Agg(ty, leaves) => {
                    let leaves = leaves
                        .into_iter()
                        .map(|l| match l {
                            Leaf::Word(p) => VLeaf::Word(self.read_place(&p, span)),
                            Leaf::Ptr(a) => VLeaf::Ptr(a),
                            Leaf::PtrVar(n) => VLeaf::Ptr(self.field_pointer_value(&n)),
                        })
                        .collect();
                    Some(AggVal { ty, leaves })
                }
                _ => {
                    self.err("expected a struct or vector value here", span);
                    None
                }
            },
            ExprKind::Assign(op, l, r) => self.agg_assign(l, *op, r, span),
            ExprKind::Binary(op, a, b) => self.vector_arith(*op, a, b, span),
            ExprKind::Unary(op @ (UOp::Neg | UOp::Plus | UOp::BitNot), a) => {
                let v = self.agg_value(a)?;
                let CType::Vector(t, n) = v.ty else {
                    self.err("this operator needs a vector, not a struct", span);
                    return None;
                };
                let zero = Val { e: k::Expr::num(0, span), ty: t };
                let leaves = self
                    .words_of(v)
                    .into_iter()
                    .map(|x| {
                        let r = match op {
                            UOp::Neg => self.arith(BOp::Sub, zero.clone(), x, span),
                            UOp::BitNot => Val { e: kx(k::ExprKind::Unary(k::UnOp::BitNot, Box::new(x.e)), span), ty: t },
                            _ => x,
                        };
                        VLeaf::Word(Val { e: self.convert(r, t, span), ty: t })
                    })
                    .collect();
                Some(AggVal { ty: CType::Vector(t, n), leaves })
            }
            ExprKind::Cast(t, a) if t.ptrs == 0 => {
                let ty = self.spec_type(&t.specs);
                self.vector_literal(ty, &commas(a), span)
            }
            ExprKind::CompoundLit(t, inits) => {
                let ty = self.spec_type(&t.specs);
                let leaves = self.init_list(&ty, inits, span)?;
                Some(AggVal { ty, leaves })
            }
            ExprKind::Call(f, args) => {
                let ExprKind::Ident(name) = &f.kind else {
                    self.unsupported("calls through expressions (function pointers)", span);
                    return None;
                };
                let func = match self.resolve_call(&name.name, args, span, true) {
                    Callee::User(func) => Some(func),
                    Callee::Refused => return None,
                    Callee::Builtin => None,
                };
                if let Some(func) = func {
                    return match self.inline_call(func, args, span)? {
                        crate::lower::context::Ret::Agg(v) => Some(v),
                        crate::lower::context::Ret::Scalar(..) => {
                            self.err(format!("`{}` returns a scalar, not a struct or vector", name.name), span);
                            None
                        }
                    };
                }
                let Some(ty) = self.builtin_vector_type(&name.name, args) else {
                    self.err(format!("no function named `{}` that gives a vector", name.name), name.span);
                    return None;
                };
                if vload_width(&name.name).is_some() {
                    return self.vload(ty, args, span);
                }
                if crate::lower::image_access::read_type(&name.name).is_some() {
                    return self.read_image(ty, args, span);
                }
                if matches!(name.name.as_str(), "shuffle" | "shuffle2") {
                    return self.shuffle(&name.name, ty, args, span);
                }
                if !name.name.starts_with("make_") && !name.name.starts_with("convert_") {
                    return self.lanewise_call(f, args, ty, span);
                }
                let args: Vec<&Expr> = args.iter().collect();
                if name.name.starts_with("convert_") {
                    let [a] = args.as_slice() else {
                        self.err(format!("`{}` takes one vector", name.name), span);
                        return None;
                    };
                    self.vector_literal(ty, &[a], span)
                } else {
                    self.vector_literal(ty, &args, span)
                }
            }
            ExprKind::Comma(a, b) => {
                self.expr_stmt(a);
                self.agg_value(b)
            }
            ExprKind::Cond(c, a, b) => {
                let ty = self.agg_type(e)?;
                let names: Vec<(String, Ty)> = self
                    .leaves(&ty)
                    .into_iter()
                    .map(|l| match l {
                        LeafTy::Word(t) => (self.temp(), t),
                        LeafTy::Ptr(_) => (self.temp(), Ty::UInt),
                    })
                    .collect();
                for (n, _) in &names {
                    self.emit(k::StmtKind::Local(sp_id(n, span), Some(k::Expr::num(0, span))), span);
                }
                let dst: Vec<Leaf> = names.iter().map(|(n, t)| Leaf::Word(Place::Local(n.clone(), *t))).collect();
                let c = self.cond(c);
                let then = self.sub_block(
                    |l| {
                        if let Some(v) = l.agg_value(a) {
                            l.write_leaves(&dst, v, span);
                        }
                    },
                    a.span,
                );
                let els = self.sub_block(
                    |l| {
                        if let Some(v) = l.agg_value(b) {
                            l.write_leaves(&dst, v, span);
                        }
                    },
                    b.span,
                );
                self.emit(k::StmtKind::If(c, then, Some(Box::new(k::Else::Block(els)))), span);
                let leaves = names.into_iter().map(|(n, t)| VLeaf::Word(Val { e: k::Expr::var(&n, span), ty: t })).collect();
                Some(AggVal { ty, leaves })
            }
            _ => {
                self.err("expected a struct or vector value here", span);
                None
            }
        }
    }

    /// Is `e` a struct or vector value that is no object (`f(a)`, `a + b`, `make_float2(...)`):
    /// its members are taken from its value, not from a place.
    pub(crate) fn rvalue_aggregate(&mut self, e: &Expr) -> bool {
        let value = matches!(
            e.kind,
            ExprKind::Call(..)
                | ExprKind::Binary(..)
                | ExprKind::Unary(UOp::Neg | UOp::Plus | UOp::BitNot, _)
                | ExprKind::Cond(..)
                | ExprKind::Cast(..)
                | ExprKind::CompoundLit(..)
                | ExprKind::Comma(..)
        );
        // GPUVerify's `__return_val_T()` names the function's result, a place.
        let result = matches!(&e.kind, ExprKind::Call(f, _) if matches!(&f.kind, ExprKind::Ident(x) if x.name.starts_with("__return_val_")));
        value && !result && self.agg_type(e).is_some()
    }

    /// Member `m` of the value of `base` (`rvalue_aggregate`): its words. The value's other
    /// words are still evaluated (their reads are accesses).
    pub(crate) fn rvalue_member(&mut self, base: &Expr, m: &Ident, span: Span) -> Option<AggVal> {
        let v = self.agg_value(base)?;
        let (ty, idx) = self.member_of(&v.ty, m)?;
        let leaves: Vec<VLeaf> = v
            .leaves
            .into_iter()
            .map(|l| match l {
                VLeaf::Word(w) if w.e.has_reads() => VLeaf::Word(self.bind_temp(w, span)),
                l => l,
            })
            .collect();
        let picked = idx.iter().filter_map(|&k| leaves.get(k as usize)).map(|l| match l {
            VLeaf::Word(w) => VLeaf::Word(w.clone()),
            VLeaf::Ptr(p) => VLeaf::Ptr(p.clone()),
        });
        Some(AggVal { ty, leaves: picked.collect() })
    }

    /// The words of a vector value (pointer leaves cannot occur in a vector).
    pub(crate) fn words_of(&mut self, v: AggVal) -> Vec<Val> {
        v.leaves
            .into_iter()
            .map(|l| match l {
                VLeaf::Word(w) => w,
                VLeaf::Ptr(_) => Val { e: k::Expr::num(0, Span::new(0, 0)), ty: Ty::UInt },
            })
            .collect()
    }

    /// An operand of element-wise vector arithmetic: `n` lanes (a scalar is widened).
    fn lanes(&mut self, e: &Expr, n: u32) -> Option<Vec<Val>> {
        if self.agg_type(e).is_some() {
            let v = self.agg_value(e)?;
            let w = self.words_of(v);
            if w.len() != n as usize {
                self.err(format!("a vector of {} components where {n} are needed", w.len()), e.span);
                return None;
            }
            return Some(w);
        }
        let v = self.expr(e);
        let v = self.bind_temp(v, e.span);
        Some(vec![v; n as usize])
    }

    /// `a op b` on vectors, component by component (OpenCL's and CUDA's vector operators).
    fn vector_arith(&mut self, op: BOp, a: &Expr, b: &Expr, span: Span) -> Option<AggVal> {
        let t = self.agg_type(a).or_else(|| self.agg_type(b))?;
        let CType::Vector(_, n) = t else {
            self.err("this operator does not apply to a struct (no operator function of the file takes these operands)", span);
            return None;
        };
        if matches!(op, BOp::LAnd | BOp::LOr) {
            self.unsupported("`&&` and `||` on vectors", span);
            return None;
        }
        let mut va = self.lanes(a, n)?;
        if self.needs_statements(b) {
            va = va.into_iter().map(|v| self.bind_temp(v, span)).collect();
        }
        let vb = self.lanes(b, n)?;
        Some(self.lane_arith(op, va, vb, t, span))
    }

    /// `op` on two vectors' lanes (of vector type `t`).
    fn lane_arith(&mut self, op: BOp, va: Vec<Val>, vb: Vec<Val>, t: CType, span: Span) -> AggVal {
        let CType::Vector(elem, n) = t else { return AggVal { ty: t, leaves: Vec::new() } };
        let compare = matches!(op, BOp::Lt | BOp::Gt | BOp::Le | BOp::Ge | BOp::Eq | BOp::Ne);
        let mut leaves = Vec::new();
        for (x, y) in va.into_iter().zip(vb) {
            let r = self.arith(op, x, y, span);
            leaves.push(VLeaf::Word(if compare {
                // A vector comparison gives -1 (all bits set) for true.
                Val { e: kx(k::ExprKind::Unary(k::UnOp::Neg, Box::new(r.e)), span), ty: Ty::Int }
            } else {
                Val { e: self.convert(r, elem, span), ty: elem }
            }));
        }
        AggVal { ty: if compare { CType::Vector(Ty::Int, n) } else { t }, leaves }
    }

    /// `(float4)(a, b, c, d)`, `(float4)(x)` (every component `x`), `(float4)(v2, a, b)`,
    /// `make_float4(...)`: the components in order, each converted to the element type.
    fn vector_literal(&mut self, ty: CType, comps: &[&Expr], span: Span) -> Option<AggVal> {
        let CType::Vector(elem, n) = ty else {
            self.err(format!("a cast to `{}` (only vector types have literals)", self.type_name(&ty)), span);
            return None;
        };
        let mut lanes: Vec<Val> = Vec::new();
        for (i, c) in comps.iter().enumerate() {
            let later_effects = comps[i + 1..].iter().any(|x| self.needs_statements(x));
            let vals = if self.agg_type(c).is_some() {
                let v = self.agg_value(c)?;
                self.words_of(v)
            } else {
                vec![self.expr(c)]
            };
            for v in vals {
                let v = Val { e: self.convert(v, elem, c.span), ty: elem };
                lanes.push(if later_effects { self.bind_temp(v, c.span) } else { v });
            }
        }
        if lanes.len() == 1 && n > 1 {
            let v = self.bind_temp(lanes.remove(0), span);
            lanes = vec![v; n as usize];
        }
        if lanes.len() != n as usize {
            self.err(format!("{} components given for a vector of {n}", lanes.len()), span);
            return None;
        }
        Some(AggVal { ty, leaves: lanes.into_iter().map(VLeaf::Word).collect() })
    }

    /// The words an initialiser list gives an aggregate (C's rules: in order, inner braces
    /// optional, missing members zero).
    pub(crate) fn init_list(&mut self, ty: &CType, items: &[Init], span: Span) -> Option<Vec<VLeaf>> {
        let mut out = Vec::new();
        let mut pos = 0;
        self.init_members(ty, items, &mut pos, &mut out, span);
        if pos < items.len() {
            let sp = match &items[pos] {
                Init::Expr(e) => e.span,
                Init::List(_, s) => *s,
            };
            self.err(format!("too many initialisers for `{}`", self.type_name(ty)), sp);
            return None;
        }
        Some(out)
    }

    fn members(&mut self, ty: &CType) -> Vec<CType> {
        match ty {
            CType::Vector(t, n) => vec![CType::Scalar(*t); *n as usize],
            CType::Array(e, n) => vec![(**e).clone(); *n as usize],
            CType::Struct(id) => self.fields(*id).iter().map(|f| f.ty.clone()).collect(),
            t => vec![t.clone()],
        }
    }

    fn init_members(&mut self, ty: &CType, items: &[Init], pos: &mut usize, out: &mut Vec<VLeaf>, span: Span) {
        for m in self.members(ty) {
            self.init_one(&m, items, pos, out, span);
        }
    }

    fn init_one(&mut self, ty: &CType, items: &[Init], pos: &mut usize, out: &mut Vec<VLeaf>, span: Span) {
        let zeros = |l: &mut Self, out: &mut Vec<VLeaf>| {
            for leaf in l.leaves(ty) {
                out.push(match leaf {
                    LeafTy::Word(t) => VLeaf::Word(Val { e: k::Expr::num(0, span), ty: t }),
                    LeafTy::Ptr(_) => VLeaf::Ptr(Entity::Invalid),
                });
            }
        };
        let Some(item) = items.get(*pos) else { return zeros(self, out) };
        match (ty, item) {
            (CType::Scalar(t), Init::Expr(e)) => {
                *pos += 1;
                let v = self.expr(e);
                out.push(VLeaf::Word(Val { e: self.convert(v, *t, e.span), ty: *t }));
            }
            (CType::Long(_), Init::Expr(e)) => {
                *pos += 1;
                let words = self.long_leaves(e);
                out.extend(words);
            }
            (CType::Pointer(_), Init::Expr(e)) => {
                *pos += 1;
                // `NULL`: a pointer whose one target is `NULL` (stored, the word 0).
                let a = if crate::lower::multiptr::null_const(e) {
                    self.null_pointer("null", e.span)
                } else {
                    self.array_argument(e, false).unwrap_or(Entity::Invalid)
                };
                out.push(VLeaf::Ptr(a));
            }
            (_, Init::List(inner, sp)) => {
                *pos += 1;
                match self.init_list(ty, inner, *sp) {
                    Some(v) => out.extend(v),
                    None => zeros(self, out),
                }
            }
            (_, Init::Expr(e)) if self.agg_type(e).as_ref() == Some(ty) => {
                *pos += 1;
                match self.agg_value(e) {
                    Some(v) => out.extend(v.leaves),
                    None => zeros(self, out),
                }
            }
            _ => self.init_members(ty, items, pos, out, span),
        }
    }

    // ---- assignment ----

    /// Write an aggregate value into an aggregate place, word by word.
    pub(crate) fn write_leaves(&mut self, dst: &[Leaf], v: AggVal, span: Span) {
        for (d, s) in dst.iter().zip(v.leaves) {
            match (d, s) {
                (Leaf::Word(p), VLeaf::Word(x)) => {
                    let ty = crate::lower::values::place_ty(p);
                    let e = self.convert(x, ty, span);
                    self.write_place(p, e, span);
                }
                (Leaf::Word(p), VLeaf::Ptr(a)) => self.store_pointer(p, &a, span),
                (Leaf::Ptr(Entity::Array { kpl: a, offset: oa, .. }), VLeaf::Ptr(Entity::Array { kpl: b, offset: ob, .. }))
                    if a == &b && oa == &ob => {}
                (Leaf::PtrVar(n), VLeaf::Ptr(a)) => self.field_pointer_assign(n, a, span),
                (Leaf::Ptr(_) | Leaf::PtrVar(_), _) => self.unsupported("assigning a pointer field of a struct variable", span),
            }
        }
    }

    /// Is `e` a pointer stored in memory (`q[i].p`, `q[i].ps[2]`), not one kpl follows?
    pub(crate) fn pointer_in_memory(&mut self, e: &Expr) -> bool {
        if !matches!(e.kind, ExprKind::Member(..) | ExprKind::Index(..)) || self.names_field_array(e) {
            return false;
        }
        let n = self.errors.len();
        let t = self.static_type(e);
        self.errors.truncate(n);
        matches!(t, Some(CType::Pointer(_)))
    }

    /// Store a pointer into memory (a pointer field of a struct in memory): the store is an
    /// access like any other; the value is an opaque word naming the array plus the word
    /// offset, so pointers to two elements differ (benign-race tolerance compares values).
    pub(crate) fn store_pointer(&mut self, p: &Place, a: &Entity, span: Span) {
        let (id, offset) = match a {
            Entity::Array { kpl, offset, .. } => (kpl.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193)), offset.clone()),
            _ => (0, None),
        };
        let v = match offset {
            Some(o) => bin(k::BinOp::Add, k::Expr::num(id as u64, span), k::Expr::var(&o, span), span),
            None => k::Expr::num(id as u64, span),
        };
        self.write_place(p, v, span);
    }

    /// `l = r` or `l op= r` on structs and vectors; gives the value stored.
    pub(crate) fn agg_assign(&mut self, l: &Expr, op: Option<BOp>, r: &Expr, span: Span) -> Option<AggVal> {
        let Lv::Agg(ty, dst) = self.lvalue(l)? else {
            self.err("expected a struct or vector place here", l.span);
            return None;
        };
        let value = match op {
            None if self.agg_type(r).is_some() => self.agg_value(r)?,
            None => {
                // A scalar assigned to a vector: every component (OpenCL's widening).
                let CType::Vector(_, n) = ty else {
                    self.err(format!("a scalar assigned to a `{}`", self.type_name(&ty)), span);
                    return None;
                };
                let lanes = self.lanes(r, n)?;
                AggVal { ty: ty.clone(), leaves: lanes.into_iter().map(VLeaf::Word).collect() }
            }
            Some(o) => {
                // `v op= w`: the place is evaluated once; its current words are the left lanes.
                let CType::Vector(_, n) = ty else {
                    self.err(format!("a compound assignment to a `{}`", self.type_name(&ty)), span);
                    return None;
                };
                let mut cur = Vec::new();
                for leaf in &dst {
                    let Leaf::Word(p) = leaf else { return None };
                    let v = self.read_place(p, span);
                    cur.push(self.bind_temp(v, span));
                }
                let rhs = self.lanes(r, n)?;
                self.lane_arith(o, cur, rhs, ty.clone(), span)
            }
        };
        if value.leaves.len() != dst.len() {
            self.err(format!("a value of another type assigned to a `{}`", self.type_name(&ty)), span);
            return None;
        }
        // Read everything before writing anything (`v = v.yx`).
        let fixed: Vec<VLeaf> = value
            .leaves
            .into_iter()
            .map(|x| match x {
                VLeaf::Word(v) => VLeaf::Word(self.bind_temp(v, span)),
                p => p,
            })
            .collect();
        let out = AggVal { ty: ty.clone(), leaves: fixed.clone() };
        self.write_leaves(&dst, AggVal { ty, leaves: fixed }, span);
        Some(out)
    }
}
