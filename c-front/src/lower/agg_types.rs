//! The static types of aggregate expressions (`agg_type`), and the vector built-ins that
//! decide them: OpenCL's `vloadN`/`vstoreN`, `shuffle`, lane-wise math on vectors.

use crate::lower::context::Lower;
use crate::lower::overload_calls::Callee;
use crate::lower::values::{AggVal, CType, Entity, Lv, Ty, VLeaf, Val, bin, kx, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast as k;
use kpl_lang::span::Span;

impl<'u> Lower<'u> {
    // ---- static types ----

    /// The struct or vector type of an expression, if it has one (no code, no diagnostics).
    pub(crate) fn agg_type(&mut self, e: &Expr) -> Option<CType> {
        let n = self.errors.len();
        let t = self.static_type(e);
        self.errors.truncate(n);
        t.filter(|t| matches!(t, CType::Vector(..) | CType::Struct(_)))
    }

    pub(crate) fn static_type(&mut self, e: &Expr) -> Option<CType> {
        match &e.kind {
            ExprKind::Ident(x) => match self.lookup(&x.name)? {
                Entity::Record { ty, .. } => Some(ty),
                Entity::Local { ty, .. } | Entity::Param { ty, .. } | Entity::SharedScalar { ty, .. } | Entity::Private { ty, .. } => {
                    Some(CType::Scalar(ty))
                }
                _ => None,
            },
            ExprKind::Index(a, _) => match self.static_type(a) {
                Some(CType::Array(e, _) | CType::Pointer(e)) => Some(*e),
                _ => self.static_elem(a),
            },
            ExprKind::Unary(UOp::Deref, p) => self.static_elem(p),
            ExprKind::Member(b, m) => {
                let bt = self.static_type(b)?;
                self.member_of(&bt, m).map(|(t, _)| t)
            }
            ExprKind::Call(f, args) if args.is_empty() && matches!(&f.kind, ExprKind::Ident(x) if x.name.starts_with("__return_val_")) => {
                self.frames.last().and_then(|fr| fr.agg_result.as_ref()).map(|(t, _)| t.clone())
            }
            ExprKind::Cast(t, _) | ExprKind::CompoundLit(t, _) if t.ptrs == 0 => Some(self.spec_type(&t.specs)),
            ExprKind::Call(f, args) => {
                let ExprKind::Ident(name) = &f.kind else { return None };
                match self.resolve_call(&name.name, args, e.span, false) {
                    Callee::User(func) => self.result_type(func),
                    Callee::Refused => None,
                    Callee::Builtin => self.builtin_vector_type(&name.name, args),
                }
            }
            // Operations on structs and vectors (`operators.rs` for operator functions).
            ExprKind::Binary(..) => self.operation_type(e).filter(|t| matches!(t, CType::Vector(..) | CType::Struct(_))),
            ExprKind::Unary(UOp::Neg | UOp::Plus | UOp::BitNot, _) if self.has_operator_function(e) => self.operation_type(e),
            ExprKind::Unary(UOp::Neg | UOp::Plus | UOp::BitNot, a) => self.static_type(a),
            ExprKind::Assign(_, l, _) | ExprKind::PreInc(_, l) | ExprKind::PostInc(_, l) => self.static_type(l),
            ExprKind::Cond(_, a, b) => self.agg_type(a).or_else(|| self.agg_type(b)),
            ExprKind::Comma(_, b) => self.static_type(b),
            _ => None,
        }
    }

    /// The element type of an array expression.
    pub(crate) fn static_elem(&mut self, a: &Expr) -> Option<CType> {
        match &a.kind {
            ExprKind::Ident(x) => match self.lookup(&x.name)? {
                Entity::Array { agg: Some(t), .. } | Entity::Table { agg: Some(t), .. } => Some(t),
                Entity::Array { elem, .. } | Entity::Table { elem, .. } => Some(CType::Scalar(elem)),
                _ => None,
            },
            ExprKind::Index(inner, _) => self.static_elem(inner),
            ExprKind::Binary(BOp::Add | BOp::Sub, b, _) => self.static_elem(b),
            ExprKind::Cast(t, _) if t.ptrs == 1 => Some(self.spec_type(&t.specs)),
            ExprKind::Member(b, m) => {
                let bt = self.static_type(b)?;
                let (ft, _) = self.member_of(&bt, m)?;
                let mut t = ft;
                loop {
                    match t {
                        CType::Array(e, _) | CType::Pointer(e) => t = *e,
                        other => return Some(other),
                    }
                }
            }
            _ => None,
        }
    }

    /// `make_float4(...)`, `convert_int2(...)`, `vload4(...)`: the vector they give.
    pub(crate) fn builtin_vector_type(&mut self, n: &str, args: &[Expr]) -> Option<CType> {
        if let Some(t) = crate::lower::image_access::read_type(n).filter(|_| !self.funcs.contains_key(n)) {
            return Some(t);
        }
        if let Some(w) = vload_width(n) {
            // `vloadN(offset, p)`: N elements of `p`'s type.
            let elem = args.get(1).and_then(|p| self.static_elem(p))?;
            return match elem {
                CType::Scalar(t) => Some(CType::Vector(t, w)),
                _ => None,
            };
        }
        if matches!(n, "shuffle" | "shuffle2") && !self.funcs.contains_key(n) {
            // The inputs' component type, the mask's width.
            let Some(CType::Vector(elem, _)) = args.first().and_then(|a| self.agg_type(a)) else { return None };
            let Some(CType::Vector(_, w)) = args.last().and_then(|a| self.agg_type(a)) else { return None };
            return Some(CType::Vector(elem, w));
        }
        let Some(name) = n.strip_prefix("make_").or_else(|| n.strip_prefix("convert_")) else {
            // A scalar built-in applied to vectors works component by component.
            return if crate::lower::builtins::lanewise(n) {
                args.iter().find_map(|a| self.agg_type(a))
            } else {
                None
            };
        };
        let name = name.split('_').next()?;
        match self.spec_type(&[Spec { word: name.to_string(), span: Span::new(0, 0) }]) {
            t @ CType::Vector(..) => Some(t),
            _ => None,
        }
    }

    /// The elements `offset * N + k` of an array, as a C index expression over a fixed
    /// offset (OpenCL's `vloadN`/`vstoreN`).
    pub(crate) fn vector_slots(&mut self, offset: &Expr, w: u32, span: Span) -> Vec<Expr> {
        let v = self.expr(offset);
        let v = self.convert(v, Ty::UInt, offset.span);
        let tmp = self.temp();
        self.emit(k::StmtKind::Local(sp_id(&tmp, span), Some(v)), span);
        let c_name = format!("<offset {tmp}>");
        self.bind(&c_name, Entity::Local { kpl: tmp, ty: Ty::UInt });
        let base = Expr::new(ExprKind::Ident(kpl_lang::ast::Ident::new(&c_name, span)), span);
        let num = |n: u64| Expr::new(ExprKind::Int(n, true), span);
        (0..w as u64)
            .map(|k| {
                let scaled = Expr::new(ExprKind::Binary(BOp::Mul, Box::new(base.clone()), Box::new(num(w as u64))), span);
                Expr::new(ExprKind::Binary(BOp::Add, Box::new(scaled), Box::new(num(k))), span)
            })
            .collect()
    }

    /// `vloadN(offset, p)`: `p[offset * N]` .. `p[offset * N + N - 1]` as a vector.
    pub(crate) fn vload(&mut self, ty: CType, args: &[Expr], span: Span) -> Option<AggVal> {
        let CType::Vector(elem, w) = ty else { return None };
        if !self.arity_ok("vload", args.len(), 2, span) {
            return None;
        }
        let arr = self.array_argument(&args[1], true)?;
        let mut leaves = Vec::new();
        for idx in self.vector_slots(&args[0], w, span) {
            let Lv::Word(p) = self.element_of(arr.clone(), &[&idx], span)? else { return None };
            let v = self.read_place(&p, span);
            leaves.push(VLeaf::Word(Val { e: self.convert(v, elem, span), ty: elem }));
        }
        Some(AggVal { ty, leaves })
    }

    /// `vstoreN(data, offset, p)`: the vector's components into `p[offset * N + k]`.
    pub(crate) fn vstore(&mut self, n: &str, args: &[Expr], span: Span) {
        let Some(w) = n.strip_prefix("vstore").and_then(|d| d.parse::<u32>().ok()) else { return };
        if !self.arity_ok(n, args.len(), 3, span) {
            return;
        }
        let Some(v) = self.agg_value(&args[0]) else { return };
        if v.leaves.len() != w as usize {
            self.err(format!("`{n}` stores a vector of {w} components"), args[0].span);
            return;
        }
        let vals: Vec<Val> = self.words_of(v).into_iter().map(|x| self.bind_temp(x, span)).collect();
        let Some(arr) = self.array_argument(&args[2], false) else { return };
        for (idx, x) in self.vector_slots(&args[1], w, span).into_iter().zip(vals) {
            if let Some(Lv::Word(p)) = self.element_of(arr.clone(), &[&idx], span) {
                let ty = crate::lower::values::place_ty(&p);
                let e = self.convert(x, ty, span);
                self.write_place(&p, e, span);
            }
        }
    }

    /// OpenCL's `shuffle(x, mask)` and `shuffle2(x, y, mask)`: component `i` is component
    /// `mask[i] % n` of `x` (of `x` then `y` for `shuffle2`), `n` being the components to
    /// choose from (a power of two, so only the mask's low bits count, as OpenCL says).
    pub(crate) fn shuffle(&mut self, n: &str, ty: CType, args: &[Expr], span: Span) -> Option<AggVal> {
        let two = n == "shuffle2";
        if !self.arity_ok(n, args.len(), if two { 3 } else { 2 }, span) {
            return None;
        }
        let CType::Vector(elem, _) = ty else { return None };
        if matches!(elem, Ty::Long { .. }) {
            self.unsupported(format!("`{n}` of 64-bit components").as_str(), span);
            return None;
        }
        let (inputs, mask) = args.split_at(args.len() - 1);
        let mut pool = Vec::new();
        let mut widths = Vec::new();
        for a in inputs {
            let v = self.agg_value(a)?;
            let words = self.words_of(v);
            widths.push(words.len());
            pool.extend(words.into_iter().map(|x| self.bind_temp(x, span)));
        }
        if widths.windows(2).any(|w| w[0] != w[1]) {
            self.err(format!("`{n}` takes two vectors of one width"), span);
            return None;
        }
        let m = self.agg_value(&mask[0])?;
        let lanes: Vec<Val> = self.words_of(m).into_iter().map(|x| self.bind_temp(x, span)).collect();
        let count = pool.len() as u64;
        if !count.is_power_of_two() {
            self.err(format!("`{n}` chooses from 2, 4, 8 or 16 components per vector"), span);
            return None;
        }
        let leaves = lanes
            .into_iter()
            .map(|l| {
                let l = self.convert(l, Ty::UInt, span);
                let idx = bin(k::BinOp::BitAnd, l, k::Expr::num(count - 1, span), span);
                let mut e = pool[pool.len() - 1].e.clone();
                for j in (0..pool.len() - 1).rev() {
                    let is = bin(k::BinOp::Eq, idx.clone(), k::Expr::num(j as u64, span), span);
                    e = kx(k::ExprKind::Cond(Box::new(is), Box::new(pool[j].e.clone()), Box::new(e)), span);
                }
                VLeaf::Word(Val { e, ty: pool[0].ty })
            })
            .collect();
        Some(AggVal { ty, leaves })
    }

    /// A scalar built-in (`min`, `ceil`, `clamp`, ...) on vectors: each component on its
    /// own, scalar arguments repeated.
    pub(crate) fn lanewise_call(&mut self, f: &Expr, args: &[Expr], ty: CType, span: Span) -> Option<AggVal> {
        let CType::Vector(elem, n) = ty else { return None };
        // Fix each vector argument once, in a temporary struct variable the lanes name.
        let mut lane_args: Vec<Option<String>> = Vec::new();
        for a in args {
            if self.agg_type(a).is_some() {
                let v = self.agg_value(a)?;
                let vt = v.ty.clone();
                let tmp = self.temp();
                let leaves = self.record_locals(&tmp, &vt, Some(v.leaves), span);
                let c_name = format!("<lane {tmp}>");
                self.bind(&c_name, Entity::Record { ty: vt, leaves });
                lane_args.push(Some(c_name));
            } else if self.needs_statements(a) || self.reads(a) {
                // A scalar argument is evaluated once, too.
                let v = self.expr(a);
                let tmp = self.temp();
                self.emit(k::StmtKind::Local(sp_id(&tmp, span), Some(v.e)), span);
                let c_name = format!("<lane {tmp}>");
                self.bind(&c_name, Entity::Local { kpl: tmp, ty: v.ty });
                lane_args.push(Some(c_name));
            } else {
                lane_args.push(None);
            }
        }
        let mut leaves = Vec::new();
        for i in 0..n {
            let comp = ["x", "y", "z", "w"].get(i as usize).map(|c| c.to_string()).unwrap_or(format!("s{i:x}"));
            let lane: Vec<Expr> = args
                .iter()
                .zip(&lane_args)
                .map(|(a, t)| match t {
                    Some(name) => {
                        let base = Expr::new(ExprKind::Ident(kpl_lang::ast::Ident::new(name, a.span)), a.span);
                        if self.agg_type(a).is_some() {
                            Expr::new(ExprKind::Member(Box::new(base), kpl_lang::ast::Ident::new(&comp, a.span)), a.span)
                        } else {
                            base
                        }
                    }
                    None => a.clone(),
                })
                .collect();
            let call = Expr::new(ExprKind::Call(Box::new(f.clone()), lane), span);
            let v = self.expr(&call);
            leaves.push(VLeaf::Word(Val { e: self.convert(v, elem, span), ty: elem }));
        }
        Some(AggVal { ty: CType::Vector(elem, n), leaves })
    }
}

/// N of OpenCL's `vloadN`.
pub(crate) fn vload_width(n: &str) -> Option<u32> {
    n.strip_prefix("vload").and_then(|d| d.parse().ok()).filter(|w| matches!(w, 2 | 3 | 4 | 8 | 16))
}
