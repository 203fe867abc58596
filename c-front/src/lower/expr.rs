//! C expressions ─► KPL expressions, with C's integer rules (signed and unsigned 32-bit
//! words, the usual arithmetic conversions: signed operations become `slt`, `sdiv`, ...),
//! floats as opaque words (`fadd`, ...), side effects emitted as statements left to right,
//! and `&&`, `||`, `?:` short-circuiting through branches when an operand reads memory or
//! has effects (so a guarded read stays guarded).

use crate::lower::context::Lower;
use crate::lower::values::{Entity, Lv, Place, Ty, Val, bin, call, kx, not, sp_id};
use crate::syntax::ast::*;
use crate::text::tokens::Dialect;
use kpl_lang::ast::{self as k, Axis, BinOp, Builtin, Special};
use kpl_lang::span::Span;

fn axis(name: &str) -> Option<Axis> {
    match name {
        "x" => Some(Axis::X),
        "y" => Some(Axis::Y),
        "z" => Some(Axis::Z),
        _ => None,
    }
}

impl<'u> Lower<'u> {
    // ---- classification ----

    /// Would lowering `e` emit statements (effects, calls, or guarded reads)?
    pub fn needs_statements(&self, e: &Expr) -> bool {
        if crate::sema::sizeof_expr::operand(e).is_some() {
            return false;
        }
        // An operation that may call an operator function of the file.
        if self.may_call_operator(e) {
            return true;
        }
        match &e.kind {
            ExprKind::Assign(..) | ExprKind::PreInc(..) | ExprKind::PostInc(..) | ExprKind::Comma(..) => true,
            ExprKind::Call(f, args) => {
                let user = matches!(&f.kind, ExprKind::Ident(x) if self.funcs.contains_key(&x.name));
                user || args.iter().any(|a| self.needs_statements(a))
            }
            ExprKind::Binary(BOp::LAnd | BOp::LOr, a, b) => {
                self.needs_statements(a) || self.needs_statements(b) || self.reads(b)
            }
            ExprKind::Cond(c, a, b) => {
                self.needs_statements(c) || self.needs_statements(a) || self.needs_statements(b) || self.reads(a) || self.reads(b)
            }
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => self.needs_statements(a) || self.needs_statements(b),
            // `(T *)(a + i)` fixes its offset in a local first (`casts.rs`).
            ExprKind::Cast(t, a) if t.ptrs > 0 && !matches!(a.kind, ExprKind::Ident(_) | ExprKind::Member(..) | ExprKind::Cast(..) | ExprKind::Index(..)) => true,
            ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => self.needs_statements(a),
            _ => false,
        }
    }

    /// Does lowering `e` emit statements? `needs_statements`, or a library call whose
    /// lowering does (a math function's arbitrary result, an atomic, a temporary): found by
    /// lowering `e` into a scratch block whose statements and messages are discarded.
    pub(crate) fn emits_statements(&mut self, e: &Expr) -> bool {
        if self.needs_statements(e) {
            return true;
        }
        let mut calls: Vec<String> = Vec::new();
        let mut long = self.has_long;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Call(f, _) => {
                if let ExprKind::Ident(n) = &f.kind {
                    calls.push(n.name.clone());
                }
            }
            ExprKind::LongInt(..) => long = true,
            _ => {}
        });
        if calls.is_empty() && !long {
            return false;
        }
        // Calls that create state of their own when lowered are never tried.
        if calls.iter().any(|n| n.starts_with("__syncthreads") || n.starts_with("async_") || n.starts_with("wait_group")) {
            return true;
        }
        let (errors, warnings) = (self.errors.len(), self.warnings.len());
        self.blocks.push(Vec::new());
        let _ = self.expr(e);
        let emitted = self.blocks.pop().is_some_and(|b| !b.is_empty());
        self.errors.truncate(errors);
        self.warnings.truncate(warnings);
        emitted
    }

    /// Does `e` read an array (or call a function, which may)?
    pub(crate) fn reads(&self, e: &Expr) -> bool {
        if crate::sema::sizeof_expr::operand(e).is_some() {
            return false;
        }
        if self.may_call_operator(e) {
            return true;
        }
        match &e.kind {
            ExprKind::Index(..) | ExprKind::Unary(UOp::Deref, _) => true,
            ExprKind::Ident(x) => matches!(self.lookup(&x.name), Some(Entity::SharedScalar { .. } | Entity::Private { .. })),
            ExprKind::Call(f, args) => {
                matches!(&f.kind, ExprKind::Ident(x) if self.funcs.contains_key(&x.name)) || args.iter().any(|a| self.reads(a))
            }
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) | ExprKind::Assign(_, a, b) => self.reads(a) || self.reads(b),
            ExprKind::Cond(a, b, c) => self.reads(a) || self.reads(b) || self.reads(c),
            ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::PreInc(_, a) | ExprKind::PostInc(_, a) => {
                self.reads(a)
            }
            _ => false,
        }
    }

    // ---- conversions ----

    /// Convert a value to type `to` (C's conversions, floats through `itof`, `ftoi`, ...).
    pub fn convert(&mut self, v: Val, to: Ty, span: Span) -> k::Expr {
        if let Ty::Long { .. } = v.ty {
            return self.long_to_word(v, to, span);
        }
        if let Ty::Long { .. } = to {
            let (lo, hi) = self.long_words(v, span);
            return crate::lower::long::pair(lo, hi, span);
        }
        if let Ty::Narrow { bits, signed } = to {
            // C's conversion to a narrow type: the low bits, sign-extended if signed.
            let from = v.ty.widen();
            let x = self.convert(Val { e: v.e, ty: from }, Ty::Int, span);
            let keep = 32 - bits as u64;
            if narrowed(&x, bits, signed) {
                return x;
            }
            return if signed {
                let up = bin(BinOp::Shl, x, k::Expr::num(keep, span), span);
                call(Builtin::Ashr, vec![up, k::Expr::num(keep, span)], span)
            } else {
                bin(BinOp::BitAnd, x, k::Expr::num((1u64 << bits) - 1, span), span)
            };
        }
        let v = Val { e: v.e, ty: v.ty.widen() };
        match (v.ty, to) {
            (a, b) if a == b => v.e,
            (_, Ty::Void) => v.e,
            (Ty::Void, _) => {
                self.err("a `void` value is used", span);
                v.e
            }
            (Ty::Float, Ty::Int) => call(Builtin::Ftoi, vec![v.e], span),
            (Ty::Float, Ty::UInt) => call(Builtin::Ftou, vec![v.e], span),
            (Ty::Float, Ty::Bool) => not(call(Builtin::Feq, vec![v.e, k::Expr::num(0, span)], span), span),
            (Ty::Int, Ty::Float) => call(Builtin::Itof, vec![v.e], span),
            (Ty::UInt | Ty::Bool, Ty::Float) => call(Builtin::Utof, vec![v.e], span),
            (_, Ty::Bool) => bin(BinOp::Ne, v.e, k::Expr::num(0, span), span),
            // Between the integer types the bits stay (bool is already 0 or 1).
            _ => v.e,
        }
    }

    /// A value as a KPL condition (a word that is not 0 when true).
    pub fn to_cond(&mut self, v: Val) -> k::Expr {
        let span = v.e.span;
        match v.ty {
            Ty::Float => not(call(Builtin::Feq, vec![v.e, k::Expr::num(0, span)], span), span),
            Ty::Long { .. } => self.convert(v, Ty::Bool, span),
            _ => v.e,
        }
    }

    pub fn cond(&mut self, e: &Expr) -> k::Expr {
        // `if (p)`, `!p` of a pointer that may be `NULL`: whether it is not (`multiptr.rs`).
        let ptr_sel = |l: &Self, x: &Expr| match &x.kind {
            ExprKind::Ident(i) => match l.lookup(&i.name) {
                Some(Entity::Ptr { sel, .. }) => Some(sel),
                _ => None,
            },
            _ => None,
        };
        if let Some(sel) = ptr_sel(self, e) {
            return bin(BinOp::Ne, k::Expr::var(&sel, e.span), k::Expr::num(0, e.span), e.span);
        }
        if let ExprKind::Unary(UOp::Not, a) = &e.kind {
            if let Some(sel) = ptr_sel(self, a) {
                return bin(BinOp::Eq, k::Expr::var(&sel, e.span), k::Expr::num(0, e.span), e.span);
            }
        }
        // `if (bias)`, `!bias` of an array (`null_pointers.rs`).
        let array_name = |x: &Expr| matches!(&x.kind, ExprKind::Ident(_));
        if array_name(e) {
            if let Some(null) = self.is_null(e, e.span) {
                return not(null, e.span);
            }
        }
        if let ExprKind::Unary(UOp::Not, a) = &e.kind {
            if array_name(a) {
                if let Some(null) = self.is_null(a, e.span) {
                    return null;
                }
            }
        }
        let v = self.expr(e);
        self.to_cond(v)
    }

    /// A condition that must not need statements (loop invariants).
    /// Does a call of `n` have the `want` arguments it takes (else an error)?
    pub(crate) fn arity_ok(&mut self, n: &str, got: usize, want: usize, span: Span) -> bool {
        if got != want {
            self.err(format!("`{n}` takes {want} argument(s)"), span);
        }
        got == want
    }

    /// A condition checked as an assertion (two-thread annotations allowed).
    pub fn assertion_cond(&mut self, e: &Expr) -> k::Expr {
        let before = std::mem::replace(&mut self.two_thread_ok, true);
        let c = self.cond(e);
        self.two_thread_ok = before;
        c
    }

    /// A loop invariant: no effects; its reads are the thread's view, except that an element
    /// indexed by the partner's values alone (`A[__other_int(i)]`) is read in the partner's
    /// (GPUVerify's arrays are one memory for both threads; `partner.rs`).
    pub fn pure_cond(&mut self, e: &Expr, what: &str) -> k::Expr {
        self.blocks.push(Vec::new());
        let c = self.assertion_cond(e);
        let emitted = self.blocks.pop().unwrap_or_default();
        let c = match crate::lower::inline_temps::inline_temps(&emitted, c) {
            Some(c) => c,
            None => {
                self.err(format!("{what} must be free of side effects, calls and guarded reads"), e.span);
                k::Expr::num(1, e.span)
            }
        };
        kpl_lang::partner::localize_reads(&c)
    }

    /// Bind a value to a fresh local (to fix it before later effects).
    pub(crate) fn bind_temp(&mut self, v: Val, span: Span) -> Val {
        if let Ty::Long { .. } = v.ty {
            return self.bind_long(v, span);
        }
        // In an annotation the expression stays one expression (it is pure, and may speak
        // of two threads or the access logs, which a local may not hold).
        if self.two_thread_ok || matches!(v.e.kind, k::ExprKind::Num(_) | k::ExprKind::Var(_) | k::ExprKind::Special(..)) {
            return v;
        }
        let t = self.temp();
        self.emit(k::StmtKind::Local(sp_id(&t, span), Some(v.e)), span);
        Val { e: k::Expr::var(&t, span), ty: v.ty }
    }

    // ---- expressions ----

    pub fn expr(&mut self, e: &Expr) -> Val {
        let v = self.expr_of(e);
        Val { e: v.e, ty: v.ty.widen() }
    }

    fn expr_of(&mut self, e: &Expr) -> Val {
        let span = e.span;
        let word = |n: u64, ty: Ty| Val { e: k::Expr::num(n, span), ty };
        if self.is_pointer_update(e) {
            self.unsupported("using the value of a pointer update (write it as a statement of its own)", span);
            return word(0, Ty::Int);
        }
        if let Some(call) = self.operator_call(e) {
            return self.expr_of(&call);
        }
        match &e.kind {
            ExprKind::Int(v, unsigned) => {
                if *v > u32::MAX as u64 {
                    self.err("this literal does not fit in 32 bits (kpl models every integer type as 32 bits)", span);
                }
                let ty = if *unsigned || *v > i32::MAX as u64 { Ty::UInt } else { Ty::Int };
                word(*v & 0xFFFF_FFFF, ty)
            }
            ExprKind::LongInt(v, unsigned) => {
                let e = crate::lower::long::pair(k::Expr::num(v & 0xFFFF_FFFF, span), k::Expr::num(v >> 32, span), span);
                Val { e, ty: Ty::Long { signed: !*unsigned } }
            }
            ExprKind::Float(bits) => word(*bits as u64, Ty::Float),
            ExprKind::Char(c) => word(*c as u64, Ty::Int),
            ExprKind::Bool(b) => word(*b as u64, Ty::Bool),
            ExprKind::Str => {
                self.unsupported("string literals", span);
                word(0, Ty::Int)
            }
            ExprKind::Ident(x) => self.ident(x, span),
            ExprKind::Member(base, m) => self.member(base, m, span),
            ExprKind::Index(..) | ExprKind::Unary(UOp::Deref, _) => {
                match self.place(e) {
                    // A `char` element is the low bits of its word (`read_place`).
                    Some(Place::Const(e, ty)) => Val { e, ty },
                    // An element of a struct variable's array field at a constant index is
                    // the local that holds it (`p.v[0]` is `p_v_0`).
                    Some(p) => self.read_place(&p, span),
                    None => {
                        // Never a silent value: a place kpl cannot read is an error.
                        if self.errors.is_empty() {
                            self.unsupported("reading this element", span);
                        }
                        word(0, Ty::Int)
                    }
                }
            }
            ExprKind::Call(f, args) => self.call(f, args, span),
            ExprKind::Unary(op, a) => self.unary(*op, a, span),
            ExprKind::PreInc(inc, a) => {
                let Some(p) = self.place(a) else { return word(0, Ty::Int) };
                self.increment(&p, *inc, span);
                self.read_place(&p, span)
            }
            ExprKind::PostInc(inc, a) => {
                let Some(p) = self.place(a) else { return word(0, Ty::Int) };
                let old = self.read_place(&p, span);
                let old = self.force_temp(old, span);
                self.increment(&p, *inc, span);
                old
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, span),
            ExprKind::Assign(op, l, r) => {
                if let Some(t) = self.agg_type(l) {
                    let _ = self.agg_assign(l, *op, r, span);
                    return self.not_scalar(&t, span);
                }
                let Some(p) = self.place(l) else { return word(0, Ty::Int) };
                let v = self.assign(&p, *op, r, span);
                v
            }
            ExprKind::Cond(c, a, b) => self.conditional(c, a, b, span),
            ExprKind::Cast(t, a) => {
                if t.ptrs > 0 && crate::lower::multiptr::null_const(a) {
                    // `(T *)0`: `NULL`.
                    return word(0, Ty::UInt);
                }
                if t.ptrs > 0 {
                    self.unsupported(
                        "a pointer cast as a value here (kpl takes one where the pointer is indexed, dereferenced, passed to a function, given to a pointer variable or to an atomic)",
                        span,
                    );
                    return word(0, Ty::Int);
                }
                // `(uintptr_t)p`, `reinterpret_cast<uintptr_t>(p)`: an address as a number.
                let pointer = match &a.kind {
                    ExprKind::Ident(x) => matches!(self.lookup(&x.name), Some(Entity::Array { .. })),
                    ExprKind::Unary(UOp::Addr, _) => true,
                    _ => false,
                };
                if pointer {
                    self.unsupported("converting a pointer to an integer (kpl does not model addresses as numbers)", span);
                    return word(0, Ty::Int);
                }
                let target = self.spec_type(&t.specs);
                if let crate::lower::values::CType::Long(signed) = target {
                    let v = self.expr(a);
                    let to = Ty::Long { signed };
                    return Val { e: self.convert(v, to, span), ty: to };
                }
                if target.is_aggregate() {
                    return self.not_scalar(&target, span);
                }
                let to = self.base_type(&t.specs);
                let v = self.expr(a);
                let ty = if to == Ty::Void { Ty::Void } else { to };
                Val { e: self.convert(v, to, span), ty }
            }
            ExprKind::Comma(a, b) => {
                self.expr_stmt(a);
                self.expr(b)
            }
            ExprKind::CompoundLit(t, _) => {
                let target = self.spec_type(&t.specs);
                self.not_scalar(&target, span)
            }
            ExprKind::Unsupported(what) => {
                self.unsupported(what, span);
                word(0, Ty::Int)
            }
        }
    }

    /// A struct or vector where a scalar is needed: an error.
    pub(crate) fn not_scalar(&mut self, t: &crate::lower::values::CType, span: Span) -> Val {
        let name = self.type_name(t);
        self.err(format!("a `{name}` value where a scalar is needed"), span);
        Val { e: k::Expr::num(0, span), ty: Ty::Int }
    }

    /// A temp holding the value now (a post-increment's old value).
    pub(crate) fn force_temp(&mut self, v: Val, span: Span) -> Val {
        if let Ty::Long { .. } = v.ty {
            let (lo, hi) = crate::lower::long::halves(&v.e);
            let lo = self.force_temp(Val { e: lo, ty: Ty::UInt }, span).e;
            let hi = self.force_temp(Val { e: hi, ty: Ty::UInt }, span).e;
            return Val { e: crate::lower::long::pair(lo, hi, span), ty: v.ty };
        }
        let t = self.temp();
        self.emit(k::StmtKind::Local(sp_id(&t, span), Some(v.e)), span);
        Val { e: k::Expr::var(&t, span), ty: v.ty }
    }

    fn ident(&mut self, x: &kpl_lang::ast::Ident, span: Span) -> Val {
        match self.lookup(&x.name) {
            Some(Entity::Local { kpl, ty }) | Some(Entity::Param { kpl, ty }) => Val { e: k::Expr::var(&kpl, span), ty },
            Some(Entity::SharedScalar { kpl, ty }) => {
                Val { e: kx(k::ExprKind::Index(sp_id(&kpl, span), Box::new(k::Expr::num(0, span))), span), ty }
            }
            Some(Entity::Array { .. } | Entity::Table { .. }) => {
                self.unsupported(&format!("using the array `{}` as a value (pointers are CUDA.md tier 2)", x.name), span);
                Val { e: k::Expr::num(0, span), ty: Ty::Int }
            }
            Some(Entity::Record { ty: crate::lower::values::CType::Long(signed), leaves }) => self.long_from_leaves(&leaves, signed, span),
            Some(Entity::Record { ty, .. }) => self.not_scalar(&ty, span),
            Some(Entity::Private { kpl, base, ty }) => {
                Val { e: kx(k::ExprKind::Index(sp_id(&kpl, span), Box::new(k::Expr::var(&base, span))), span), ty }
            }
            Some(Entity::Invalid) => Val { e: k::Expr::num(0, span), ty: Ty::Int },
            // A pointer with several targets is tested (`cond`) or compared
            // (`pointer_compare`), never used as a number.
            Some(Entity::Ptr { .. }) => {
                self.unsupported(&format!("using the pointer `{}` as a number (kpl compares pointers that may point into several arrays only with `NULL` and arrays)", x.name), span);
                Val { e: k::Expr::num(0, span), ty: Ty::Int }
            }
            Some(Entity::PendingPtr { .. }) => {
                self.pending_pointer(&Expr::new(ExprKind::Ident(x.clone()), span));
                Val { e: k::Expr::num(0, span), ty: Ty::Int }
            }
            None if self.overloads.contains_key(&x.name) => {
                self.unsupported(&format!("the overloaded function `{}` as a value (a function pointer)", x.name), span);
                Val { e: k::Expr::num(0, span), ty: Ty::UInt }
            }
            None if self.function_value(&x.name).is_some() => {
                // A function used as a value: a function pointer.
                Val { e: k::Expr::num(self.function_value(&x.name).unwrap_or(0), span), ty: Ty::UInt }
            }
            None => {
                let special = ["threadIdx", "blockIdx", "blockDim", "gridDim"].contains(&x.name.as_str());
                let mut d = kpl_lang::Diagnostic::error(format!("`{}` is not declared", x.name), span);
                if special {
                    d = d.with_help(format!("use a component, e.g. `{}.x`", x.name));
                } else if x.name == "__same_group" && self.two_thread_ok {
                    // GPUVerify's: both threads of the pair are in one group.
                    let same = Axis::ALL
                        .iter()
                        .map(|a| {
                            let g = kx(k::ExprKind::Special(Special::Gid, *a, true), span);
                            bin(BinOp::Eq, g.clone(), call(Builtin::Other, vec![g], span), span)
                        })
                        .reduce(|x, y| bin(BinOp::LAnd, x, y, span))
                        .unwrap_or_else(|| k::Expr::num(1, span));
                    return Val { e: same, ty: Ty::Int };
                } else if x.name == "warpSize" && self.o.dialect == Dialect::Cuda {
                    // The warp size of every NVIDIA GPU (and of kpl perf's default model).
                    return Val { e: k::Expr::num(32, span), ty: Ty::Int };
                }
                self.errors.push(d);
                Val { e: k::Expr::num(0, span), ty: Ty::Int }
            }
        }
    }

    fn member(&mut self, base: &Expr, m: &kpl_lang::ast::Ident, span: Span) -> Val {
        let special = match &base.kind {
            ExprKind::Ident(x) if self.o.dialect == Dialect::Cuda && self.lookup(&x.name).is_none() => match x.name.as_str() {
                "threadIdx" => Some(Special::Lid),
                "blockIdx" => Some(Special::Gid),
                "blockDim" => Some(Special::Threads),
                "gridDim" => Some(Special::Groups),
                _ => None,
            },
            _ => None,
        };
        match (special, axis(&m.name)) {
            (Some(s), Some(a)) => Val { e: kx(k::ExprKind::Special(s, a, true), span), ty: Ty::UInt },
            (Some(_), None) => {
                self.err(format!("no component `{}`: the components are x, y and z", m.name), m.span);
                Val { e: k::Expr::num(0, span), ty: Ty::UInt }
            }
            // A member of a value that is no object: `f(a).x`, `(a + b).y`.
            _ if self.rvalue_aggregate(base) => match self.rvalue_member(base, m, span) {
                Some(crate::lower::values::AggVal { ty: crate::lower::values::CType::Scalar(t), leaves }) => match leaves.as_slice() {
                    [crate::lower::values::VLeaf::Word(w)] => Val { e: w.e.clone(), ty: t },
                    _ => Val { e: k::Expr::num(0, span), ty: Ty::Int },
                },
                Some(v) => self.not_scalar(&v.ty, span),
                None => Val { e: k::Expr::num(0, span), ty: Ty::Int },
            },
            _ => {
                let e = Expr::new(ExprKind::Member(Box::new(base.clone()), m.clone()), span);
                match self.lvalue(&e) {
                    Some(Lv::Word(p)) => self.read_place(&p, span),
                    Some(Lv::Agg(crate::lower::values::CType::Long(signed), leaves)) => self.long_from_leaves(&leaves, signed, span),
                    Some(Lv::Agg(t, _)) => self.not_scalar(&t, span),
                    Some(Lv::Array(_)) => {
                        self.unsupported("using an array or pointer field as a value", span);
                        Val { e: k::Expr::num(0, span), ty: Ty::Int }
                    }
                    Some(Lv::PtrWord(_)) => {
                        self.unsupported("a pointer read from memory (kpl cannot tell which array it points into)", span);
                        Val { e: k::Expr::num(0, span), ty: Ty::Int }
                    }
                    None => Val { e: k::Expr::num(0, span), ty: Ty::Int },
                }
            }
        }
    }

    fn unary(&mut self, op: UOp, a: &Expr, span: Span) -> Val {
        if let (UOp::Addr, ExprKind::Ident(x)) = (op, &a.kind) {
            if let (None, Some(id)) = (self.lookup(&x.name), self.function_value(&x.name)) {
                // `&f` of a function: the same function pointer as `f`.
                return Val { e: k::Expr::num(id, span), ty: Ty::UInt };
            }
        }
        let v = self.expr(a);
        let ty = promote(v.ty);
        if let (Ty::Long { .. }, UOp::Neg | UOp::BitNot) = (ty, op) {
            let zero = Val { e: k::Expr::num(0, span), ty: Ty::Int };
            let ones = Val { e: k::Expr::num(0xFFFF_FFFF, span), ty: Ty::Int };
            return match op {
                UOp::Neg => self.long_arith(BOp::Sub, zero, v, ty, span),
                _ => self.long_arith(BOp::BitXor, v, ones, ty, span),
            };
        }
        match op {
            UOp::Plus => Val { e: v.e, ty },
            UOp::Neg if v.ty == Ty::Float => Val { e: call(Builtin::Fneg, vec![v.e], span), ty: Ty::Float },
            UOp::Neg => Val { e: kx(k::ExprKind::Unary(k::UnOp::Neg, Box::new(v.e)), span), ty },
            UOp::Not => {
                let c = self.to_cond(v);
                Val { e: not(c, span), ty: Ty::Int }
            }
            UOp::BitNot if v.ty == Ty::Float => {
                self.err("`~` needs an integer", span);
                v
            }
            UOp::BitNot => Val { e: kx(k::ExprKind::Unary(k::UnOp::BitNot, Box::new(v.e)), span), ty },
            UOp::Addr => {
                self.unsupported("taking an address with `&` (CUDA.md tier 2)", span);
                v
            }
            UOp::Deref => v,
        }
    }

    /// The usual arithmetic conversions: the common type of two operands.
    pub(crate) fn common(a: Ty, b: Ty) -> Ty {
        match (promote(a), promote(b)) {
            (Ty::Float, _) | (_, Ty::Float) => Ty::Float,
            // C: `long` holds every `unsigned int`, so only an `unsigned long` makes it unsigned.
            (Ty::Long { signed: false }, _) | (_, Ty::Long { signed: false }) => Ty::Long { signed: false },
            (Ty::Long { .. }, _) | (_, Ty::Long { .. }) => Ty::Long { signed: true },
            (Ty::UInt, _) | (_, Ty::UInt) => Ty::UInt,
            _ => Ty::Int,
        }
    }

    fn binary(&mut self, op: BOp, a: &Expr, b: &Expr, span: Span) -> Val {
        if matches!(op, BOp::LAnd | BOp::LOr) {
            return self.logical(op, a, b, span);
        }
        if matches!(op, BOp::Eq | BOp::Ne | BOp::Lt | BOp::Gt | BOp::Le | BOp::Ge) {
            if let Some(v) = self.pointer_compare(op, a, b, span) {
                return v;
            }
        }
        if op == BOp::Sub {
            if let Some(v) = self.pointer_difference(a, b, span) {
                return v;
            }
        }
        let mut va = self.expr(a);
        if self.needs_statements(b) {
            va = self.bind_temp(va, a.span);
        }
        let vb = self.expr(b);
        self.arith(op, va, vb, span)
    }

    /// An arithmetic, bitwise or comparison operator on two values.
    pub(crate) fn arith(&mut self, op: BOp, va: Val, vb: Val, span: Span) -> Val {
        let shift = matches!(op, BOp::Shl | BOp::Shr);
        let ty = if shift { promote(va.ty) } else { Lower::common(va.ty, vb.ty) };
        if let Ty::Long { .. } = ty {
            return self.long_arith(op, va, vb, ty, span);
        }
        if ty == Ty::Float {
            if shift || matches!(op, BOp::Rem | BOp::BitAnd | BOp::BitOr | BOp::BitXor) {
                self.err("this operator needs integer operands", span);
                return Val { e: k::Expr::num(0, span), ty: Ty::Int };
            }
            let (x, y) = (self.convert(va, Ty::Float, span), self.convert(vb, Ty::Float, span));
            let f = |b: Builtin, args: Vec<k::Expr>| call(b, args, span);
            let (e, ty) = match op {
                BOp::Add => (f(Builtin::Fadd, vec![x, y]), Ty::Float),
                BOp::Sub => (f(Builtin::Fsub, vec![x, y]), Ty::Float),
                BOp::Mul => (f(Builtin::Fmul, vec![x, y]), Ty::Float),
                BOp::Div => (f(Builtin::Fdiv, vec![x, y]), Ty::Float),
                BOp::Lt => (f(Builtin::Flt, vec![x, y]), Ty::Int),
                BOp::Gt => (f(Builtin::Flt, vec![y, x]), Ty::Int),
                BOp::Le => (f(Builtin::Fle, vec![x, y]), Ty::Int),
                BOp::Ge => (f(Builtin::Fle, vec![y, x]), Ty::Int),
                BOp::Eq => (f(Builtin::Feq, vec![x, y]), Ty::Int),
                BOp::Ne => (not(f(Builtin::Feq, vec![x, y]), span), Ty::Int),
                _ => (k::Expr::num(0, span), Ty::Int),
            };
            return Val { e, ty };
        }
        let signed = ty == Ty::Int;
        // A shift's amount keeps its own type (a 64-bit amount its low word).
        let rhs_ty = match (shift, vb.ty) {
            (true, Ty::Long { .. }) => Ty::UInt,
            (true, t) => promote(t),
            _ => ty,
        };
        let (x, y) = (self.convert(va, ty, span), self.convert(vb, rhs_ty, span));
        // The operands are moved, never cloned: a long chain `a + b + c + ...` stays linear.
        let (x, y) = (std::cell::Cell::new(Some(x)), std::cell::Cell::new(Some(y)));
        let take = |c: &std::cell::Cell<Option<k::Expr>>| c.take().unwrap_or_else(|| k::Expr::num(0, span));
        let k2 = |o: BinOp| bin(o, take(&x), take(&y), span);
        let b2 = |f: Builtin| call(f, vec![take(&x), take(&y)], span);
        let (e, rty) = match op {
            BOp::Add => (k2(BinOp::Add), ty),
            BOp::Sub => (k2(BinOp::Sub), ty),
            BOp::Mul => (k2(BinOp::Mul), ty),
            BOp::Div if signed => (b2(Builtin::Sdiv), ty),
            BOp::Div => (k2(BinOp::Div), ty),
            BOp::Rem if signed => (b2(Builtin::Srem), ty),
            BOp::Rem => (k2(BinOp::Rem), ty),
            BOp::Shl => (k2(BinOp::Shl), ty),
            BOp::Shr if signed => (b2(Builtin::Ashr), ty),
            BOp::Shr => (k2(BinOp::Shr), ty),
            BOp::BitAnd => (k2(BinOp::BitAnd), ty),
            BOp::BitOr => (k2(BinOp::BitOr), ty),
            BOp::BitXor => (k2(BinOp::BitXor), ty),
            BOp::Lt if signed => (b2(Builtin::Slt), Ty::Int),
            BOp::Le if signed => (b2(Builtin::Sle), Ty::Int),
            BOp::Gt if signed => (b2(Builtin::Sgt), Ty::Int),
            BOp::Ge if signed => (b2(Builtin::Sge), Ty::Int),
            BOp::Lt => (k2(BinOp::Lt), Ty::Int),
            BOp::Le => (k2(BinOp::Le), Ty::Int),
            BOp::Gt => (k2(BinOp::Gt), Ty::Int),
            BOp::Ge => (k2(BinOp::Ge), Ty::Int),
            BOp::Eq => (k2(BinOp::Eq), Ty::Int),
            BOp::Ne => (k2(BinOp::Ne), Ty::Int),
            BOp::LAnd | BOp::LOr => unreachable!("handled by `logical`"),
        };
        Val { e, ty: rty }
    }

    /// `a && b`, `a || b`: KPL's operators when `b` is pure, else a branch (C evaluates
    /// `b` only when needed, so its reads and effects happen only then).
    fn logical(&mut self, op: BOp, a: &Expr, b: &Expr, span: Span) -> Val {
        let ca = self.cond(a);
        if !self.emits_statements(b) && !self.reads(b) {
            let cb = self.cond(b);
            let o = if op == BOp::LAnd { BinOp::LAnd } else { BinOp::LOr };
            return Val { e: bin(o, ca, cb, span), ty: Ty::Int };
        }
        let t = self.temp();
        let first = if op == BOp::LAnd { 0 } else { 1 };
        self.emit(k::StmtKind::Local(sp_id(&t, span), Some(k::Expr::num(first, span))), span);
        let guard = if op == BOp::LAnd { ca } else { not(ca, span) };
        let tb = self.sub_block(
            |l| {
                let cb = l.cond(b);
                let v = bin(BinOp::Ne, cb, k::Expr::num(0, span), span);
                l.emit(k::StmtKind::Assign(sp_id(&t, span), v), span);
            },
            b.span,
        );
        self.emit(k::StmtKind::If(guard, tb, None), span);
        Val { e: k::Expr::var(&t, span), ty: Ty::Int }
    }

    fn conditional(&mut self, c: &Expr, a: &Expr, b: &Expr, span: Span) -> Val {
        let cv = self.cond(c);
        let pure = |l: &mut Self, e: &Expr| !l.emits_statements(e) && !l.reads(e);
        if pure(self, a) && pure(self, b) {
            let (va, vb) = (self.expr(a), self.expr(b));
            let ty = Lower::common(va.ty, vb.ty);
            let (x, y) = (self.convert(va, ty, span), self.convert(vb, ty, span));
            let pick = |x: k::Expr, y: k::Expr| kx(k::ExprKind::Cond(Box::new(cv.clone()), Box::new(x), Box::new(y)), span);
            if let Ty::Long { .. } = ty {
                let ((xl, xh), (yl, yh)) = (crate::lower::long::halves(&x), crate::lower::long::halves(&y));
                return Val { e: crate::lower::long::pair(pick(xl, yl), pick(xh, yh), span), ty };
            }
            return Val { e: pick(x, y), ty };
        }
        // The type of the result needs both branches' types: lower them into blocks first.
        let t = self.temp();
        self.emit(k::StmtKind::Local(sp_id(&t, span), None), span);
        // The high word's temp, used if the result is a 64-bit integer.
        let t_hi = self.temp();
        let branch = |l: &mut Self, e: &Expr| {
            let mut v = None;
            let blk = l.sub_block(|l| v = Some(l.expr(e)), e.span);
            (blk, v)
        };
        let (tb, then_val) = branch(self, a);
        let (eb, else_val) = branch(self, b);
        let ty_of = |v: &Option<Val>| v.as_ref().map_or(Ty::Int, |v| v.ty);
        let ty = Lower::common(ty_of(&then_val), ty_of(&else_val));
        // The conversion to the common type may bind temporaries of its own (a comparison
        // widened to 64 bits): they go in the branch, beside what they read.
        let finish = |l: &mut Self, blk: k::Block, v: Option<Val>| {
            l.blocks.push(blk.stmts);
            if let Some(v) = v {
                let e = l.convert(v, ty, span);
                let words = match ty {
                    Ty::Long { .. } => {
                        let (lo, hi) = crate::lower::long::halves(&e);
                        vec![(&t, lo), (&t_hi, hi)]
                    }
                    _ => vec![(&t, e)],
                };
                for (name, e) in words {
                    l.emit(k::StmtKind::Assign(sp_id(name, span), e), span);
                }
            }
            k::Block { stmts: l.blocks.pop().unwrap_or_default(), span: blk.span }
        };
        let tb = finish(self, tb, then_val);
        let eb = finish(self, eb, else_val);
        if let Ty::Long { .. } = ty {
            self.emit(k::StmtKind::Local(sp_id(&t_hi, span), None), span);
        }
        self.emit(k::StmtKind::If(cv, tb, Some(Box::new(k::Else::Block(eb)))), span);
        if let Ty::Long { .. } = ty {
            return Val { e: crate::lower::long::pair(k::Expr::var(&t, span), k::Expr::var(&t_hi, span), span), ty };
        }
        Val { e: k::Expr::var(&t, span), ty }
    }

}

/// Is `e` already a conversion to a narrow type of `bits` (so converting it again changes
/// nothing)?
fn narrowed(e: &k::Expr, bits: u8, signed: bool) -> bool {
    let keep = 32 - bits as u64;
    let num = |e: &k::Expr, n: u64| matches!(e.kind, k::ExprKind::Num(m) if m == n);
    match &e.kind {
        k::ExprKind::Binary(BinOp::BitAnd, _, m) if !signed => num(m, (1u64 << bits) - 1),
        k::ExprKind::Call(f, args) if signed && f.name == Builtin::Ashr.name() && args.len() == 2 && num(&args[1], keep) => {
            matches!(&args[0].kind, k::ExprKind::Binary(BinOp::Shl, _, s) if num(s, keep))
        }
        _ => false,
    }
}

/// Integer promotion: bool, char and short become int.
fn promote(t: Ty) -> Ty {
    match t {
        Ty::Bool | Ty::Narrow { .. } => Ty::Int,
        t => t,
    }
}
