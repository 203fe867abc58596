//! The CUDA and OpenCL library functions kpl knows beyond min/max/abs and the exact float
//! builtins: integer built-ins lowered exactly (`add_sat`, `mul24`, `clz`, `popcount`, `__ffs`, `__brev`,
//! `rotate`, `clamp`, `select`, `hadd`, ...), and the math library (`exp`, `sinf`,
//! `native_log`, `__expf`, `pow`, `ceil`, ...), whose results are arbitrary floats: the
//! verifier and the interpreter both take any value (`havoc`), an over-approximation of
//! the uninterpreted functions GPUVerify uses (races and divergence stay exact; an
//! assertion about a math result can fail where the real function would not).

use crate::lower::context::Lower;
use crate::lower::values::{Ty, Val, bin, call, kx, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, BinOp, Builtin};
use kpl_lang::span::Span;

/// Math functions by base name (`f`, `native_`, `half_` and `__` variants are accepted).
const MATH: &[&str] = &[
    "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "logb", "pow", "pown", "powr", "rootn", "sin", "cos",
    "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sinpi", "cospi", "tanpi",
    "asinpi", "acospi", "atanpi", "atan2pi", "ceil", "floor", "round", "trunc", "rint", "nearbyint", "fmod", "remainder",
    "hypot", "cbrt", "rsqrt", "recip", "erf", "erfc", "erfinv", "erfcinv", "lgamma", "tgamma", "fma", "mad", "copysign",
    "fdim", "nextafter", "ldexp", "scalbn", "divide", "fdivide", "saturate", "normcdf", "normcdfinv", "rcbrt", "exp10",
];

/// Math functions that also give results through pointers: the base name, the arguments
/// that are pointers, whether it returns a value too. `sincos` is OpenCL's with two
/// arguments (the cosine through the pointer) and CUDA's with three (both through them).
fn math_with_outputs(n: &str, args: usize) -> Option<(&'static [usize], bool)> {
    let base = n.trim_start_matches("__").trim_start_matches("native_").trim_start_matches("half_");
    let base = base.strip_suffix('f').filter(|b| ["sincos", "modf", "frexp", "remquo", "sincospi"].contains(b)).unwrap_or(base);
    Some(match (base, args) {
        ("sincos", 2) => (&[1], true),
        ("sincos" | "sincospi", 3) => (&[1, 2], false),
        ("modf" | "frexp" | "fract" | "lgamma_r", 2) => (&[1], true),
        ("remquo", 3) => (&[2], true),
        _ => return None,
    })
}

/// The math function a name calls, if it is one: the name without its variant marks.
pub(crate) fn math_base(n: &str) -> Option<&str> {
    let n = n.trim_start_matches("__").trim_start_matches("native_").trim_start_matches("half_");
    let base = if MATH.contains(&n) { n } else { n.strip_suffix('f').filter(|b| MATH.contains(b))? };
    Some(base)
}

/// Whether `r`, the 32-bit `a + b` (`a - b` with `sub`), overflowed as signed words: the
/// operands' signs agree (add) or differ (sub) and the result's differs from `a`'s.
fn signed_overflow(a: &k::Expr, b: &k::Expr, r: &k::Expr, sub: bool, span: Span) -> k::Expr {
    let neg = |e: &k::Expr| call(Builtin::Slt, vec![e.clone(), k::Expr::num(0, span)], span);
    let same = bin(BinOp::Eq, neg(a), neg(b), span);
    let signs = if sub { kx(k::ExprKind::Unary(k::UnOp::Not, Box::new(same)), span) } else { same };
    bin(BinOp::LAnd, signs, bin(BinOp::Ne, neg(r), neg(a), span), span)
}

/// Whether `r = a + b` fits in type `ty` (no signed overflow, or no unsigned wrap-around).
fn add_fits(a: &k::Expr, b: &k::Expr, r: &k::Expr, ty: Ty, span: Span) -> k::Expr {
    match ty {
        Ty::Int => kx(k::ExprKind::Unary(k::UnOp::Not, Box::new(signed_overflow(a, b, r, false, span))), span),
        _ => bin(BinOp::Ge, r.clone(), a.clone(), span),
    }
}

/// A function that reinterprets a 32-bit word's bits as another type: the type its
/// argument is converted to first (`None`: taken as it is, OpenCL's `as_T`) and the result's.
fn reinterpretation(n: &str) -> Option<(Option<Ty>, Ty)> {
    Some(match n {
        "__float_as_int" => (Some(Ty::Float), Ty::Int),
        "__float_as_uint" => (Some(Ty::Float), Ty::UInt),
        "__int_as_float" => (Some(Ty::Int), Ty::Float),
        "__uint_as_float" => (Some(Ty::UInt), Ty::Float),
        "as_int" => (None, Ty::Int),
        "as_uint" => (None, Ty::UInt),
        "as_float" => (None, Ty::Float),
        _ => return None,
    })
}

/// The words of a cuRAND MTGP32 state: one per thread of a block of up to 256.
pub(crate) const MTGP32_WORDS: u32 = 256;

/// The type a scalar built-in of `lanewise` gives for scalar arguments of `types` (for
/// choosing between overloads): the math functions a `float`; `popcount` and `clz` an
/// `int`; the others (`min`, `abs`, `clamp`, ...) the arguments' common type.
pub(crate) fn scalar_result(n: &str, types: &[Ty]) -> Option<Ty> {
    if math_base(n).is_some() || ["fmin", "fmax", "fminf", "fmaxf", "fabs", "fabsf", "sqrt", "sqrtf"].contains(&n) {
        return Some(Ty::Float);
    }
    if matches!(n, "popcount" | "clz") {
        return Some(Ty::Int);
    }
    let t = types.iter().fold(Ty::Int, |acc, t| Lower::common(acc, *t));
    (!matches!(t, Ty::Long { .. })).then_some(t)
}

/// Scalar built-ins that apply to vectors component by component.
pub(crate) fn lanewise(n: &str) -> bool {
    const INT: &[&str] = &[
        "min", "max", "abs", "clamp", "select", "add_sat", "sub_sat", "hadd", "rhadd", "rotate", "popcount", "clz", "mul24",
        "mad24", "fmin", "fmax", "fminf", "fmaxf", "fabs", "fabsf", "sqrt", "sqrtf",
    ];
    INT.contains(&n) || math_base(n).is_some()
}

impl<'u> Lower<'u> {
    /// A fresh local (named after `base`) with an arbitrary value.
    pub(crate) fn arbitrary(&mut self, base: &str, ty: Ty, span: Span) -> Val {
        let r = self.fresh(base);
        self.emit(k::StmtKind::Local(sp_id(&r, span), None), span);
        self.emit(k::StmtKind::Havoc(sp_id(&r, span)), span);
        Val { e: k::Expr::var(&r, span), ty }
    }

    /// A math function with results through pointers (`sincos(x, &c)`, `modf(x, &i)`):
    /// its value arguments are evaluated, each pointed-at element is written an arbitrary
    /// value (so it is checked for races and bounds), and its result is arbitrary.
    fn math_outputs(&mut self, n: &str, args: &[Expr], outs: &[usize], returns: bool, span: Span) -> Val {
        let fresh = |l: &mut Self, base: &str| {
            let r = l.fresh(base);
            l.emit(k::StmtKind::Local(sp_id(&r, span), None), span);
            l.emit(k::StmtKind::Havoc(sp_id(&r, span)), span);
            r
        };
        for (i, a) in args.iter().enumerate() {
            if !outs.contains(&i) {
                let v = self.expr(a);
                if v.e.has_reads() {
                    let _ = self.bind_temp(v, a.span);
                }
                continue;
            }
            self.write_through(n, a, |l| k::Expr::var(&fresh(l, &format!("{}_out", n.trim_start_matches('_'))), span));
        }
        if !returns {
            return Val { e: k::Expr::num(0, span), ty: Ty::Void };
        }
        let r = fresh(self, &format!("{}_result", n.trim_start_matches('_')));
        Val { e: k::Expr::var(&r, span), ty: Ty::Float }
    }

    /// What a built-in `n` writes through its pointer argument `a` (`sincos(x, &c)`,
    /// `__match_all_sync(m, v, &pred)`): a word (`value`, made once the element is known)
    /// stored in the element it points at, or in the field or component `&s.f` names.
    pub(crate) fn write_through(&mut self, n: &str, a: &Expr, value: impl FnOnce(&mut Self) -> k::Expr) {
        if let ExprKind::Unary(UOp::Addr, inner) = &a.kind {
            if matches!(inner.kind, ExprKind::Member(..)) {
                match self.lvalue(inner) {
                    Some(crate::lower::values::Lv::Word(place)) => {
                        let v = value(self);
                        self.write_place(&place, v, a.span);
                    }
                    Some(_) => self.unsupported(&format!("`{n}` writing through a pointer to a struct or vector"), a.span),
                    None => {}
                }
                return;
            }
        }
        let Some(arr) = self.array_argument(a, false) else { return };
        let zero = Expr::new(ExprKind::Int(0, false), a.span);
        match self.element_of(arr, &[&zero], a.span) {
            Some(crate::lower::values::Lv::Word(place)) => {
                let v = value(self);
                self.write_place(&place, v, a.span)
            }
            _ => self.unsupported(&format!("`{n}` writing through a pointer to a struct or vector"), a.span),
        }
    }

    /// The number of set bits of a word (SWAR).
    fn bit_count(&mut self, x: k::Expr, span: Span) -> k::Expr {
        let num = |n: u64| k::Expr::num(n, span);
        let step = |l: &mut Self, e: k::Expr| l.bind_temp(Val { e, ty: Ty::UInt }, span).e;
        let a = bin(BinOp::Sub, x.clone(), bin(BinOp::BitAnd, bin(BinOp::Shr, x, num(1), span), num(0x5555_5555), span), span);
        let a = step(self, a);
        let b = bin(
            BinOp::Add,
            bin(BinOp::BitAnd, a.clone(), num(0x3333_3333), span),
            bin(BinOp::BitAnd, bin(BinOp::Shr, a, num(2), span), num(0x3333_3333), span),
            span,
        );
        let b = step(self, b);
        let c = bin(BinOp::BitAnd, bin(BinOp::Add, b.clone(), bin(BinOp::Shr, b, num(4), span), span), num(0x0F0F_0F0F), span);
        bin(BinOp::Shr, bin(BinOp::Mul, c, num(0x0101_0101), span), num(24), span)
    }

    /// `__float_as_int(x)`, `as_uint(x)`, ...: the same word, read as the other type (a
    /// float is its IEEE bits in kpl's words, so nothing is computed).
    fn reinterpret(&mut self, n: &str, from: Option<Ty>, to: Ty, args: &[Expr], span: Span) -> Val {
        if !self.arity_ok(n, args.len(), 1, span) {
            return Val { e: k::Expr::num(0, span), ty: to };
        }
        if let Some(t) = self.agg_type(&args[0]) {
            let what = self.type_name(&t);
            self.unsupported(&format!("`{n}` of a `{what}` (kpl reinterprets one 32-bit word, not vectors or structs)"), span);
            return Val { e: k::Expr::num(0, span), ty: to };
        }
        let v = self.expr(&args[0]);
        let e = match (from, v.ty) {
            (_, Ty::Long { .. }) | (None, Ty::Void) => {
                self.unsupported(&format!("`{n}` of a value that is not 32 bits"), span);
                k::Expr::num(0, span)
            }
            (Some(f), _) => self.convert(v, f, span),
            (None, _) => v.e,
        };
        Val { e, ty: to }
    }

    /// A call of a library function kpl knows; `None` if `n` is not one.
    pub(crate) fn library_call(&mut self, n: &str, args: &[Expr], span: Span) -> Option<Val> {
        if let Some((outs, returns)) = math_with_outputs(n, args.len()) {
            return Some(self.math_outputs(n, args, outs, returns, span));
        }
        if self.o.contract && matches!(math_base(n), Some("fma" | "mad")) && args.len() == 3 {
            // `--assume=fma`: contraction changes no result, so `fma(a, b, c)` is `a * b + c`.
            let fl = |l: &mut Self, a: &Expr| {
                let v = l.expr(a);
                l.convert(v, Ty::Float, span)
            };
            let (a, b, c) = (fl(self, &args[0]), fl(self, &args[1]), fl(self, &args[2]));
            let product = call(Builtin::Fmul, vec![a, b], span);
            return Some(Val { e: call(Builtin::Fadd, vec![product, c], span), ty: Ty::Float });
        }
        if math_base(n).is_some() {
            // Arguments are evaluated (their reads are accesses); the result is any float.
            for a in args {
                let v = self.expr(a);
                if v.e.has_reads() {
                    let t = self.temp();
                    self.emit(k::StmtKind::Local(sp_id(&t, span), Some(v.e)), span);
                }
            }
            return Some(self.arbitrary(&format!("{}_result", n.trim_start_matches('_')), Ty::Float, span));
        }
        if let Some(copy) = crate::lower::memcpy::mem_function(n) {
            return Some(self.mem_call(n, copy, args, span));
        }
        if let Some((from, to)) = reinterpretation(n) {
            return Some(self.reinterpret(n, from, to, args, span));
        }
        let int = |l: &mut Self, a: &Expr| {
            let v = l.expr(a);
            l.bind_temp(v, a.span)
        };
        let want = |l: &mut Self, k: usize| l.arity_ok(n, args.len(), k, span);
        let num = |v: u64| k::Expr::num(v, span);
        let cond = |c: k::Expr, a: k::Expr, b: k::Expr| kx(k::ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), span);
        match n {
            // The classification of a float, exact on its bits: 1 or 0.
            "isnan" | "isinf" | "isfinite" | "isnormal" | "signbit" | "__isnan" | "__isnanf" | "__isinf" | "__isinff" | "__finitef"
            | "__signbitf" => {
                if !want(self, 1) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let v = self.expr(&args[0]);
                let x = self.convert(v, Ty::Float, span);
                let x = self.bind_temp(Val { e: x, ty: Ty::Float }, span).e;
                let magnitude = bin(BinOp::BitAnd, x.clone(), num(0x7FFF_FFFF), span);
                let exponent = bin(BinOp::BitAnd, x.clone(), num(0x7F80_0000), span);
                let test = match n {
                    "isnan" | "__isnan" | "__isnanf" => bin(BinOp::Gt, magnitude, num(0x7F80_0000), span),
                    "isinf" | "__isinf" | "__isinff" => bin(BinOp::Eq, magnitude, num(0x7F80_0000), span),
                    "isfinite" | "__finitef" => bin(BinOp::Ne, exponent, num(0x7F80_0000), span),
                    "isnormal" => bin(BinOp::LAnd, bin(BinOp::Ne, exponent.clone(), num(0x7F80_0000), span), bin(BinOp::Ne, exponent, num(0), span), span),
                    _ => bin(BinOp::Ne, bin(BinOp::BitAnd, x, num(0x8000_0000), span), num(0), span),
                };
                Some(Val { e: cond(test, num(1), num(0)), ty: Ty::Int })
            }
            "mul24" | "__mul24" | "__umul24" | "mad24" => {
                let k = if n == "mad24" { 3 } else { 2 };
                if !want(self, k) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let (a, b) = (int(self, &args[0]), int(self, &args[1]));
                let ty = if n == "__umul24" { Ty::UInt } else { Lower::common(a.ty, b.ty) };
                let mut e = bin(BinOp::Mul, a.e, b.e, span);
                if k == 3 {
                    let c = int(self, &args[2]);
                    e = bin(BinOp::Add, e, c.e, span);
                }
                Some(Val { e, ty })
            }
            "add_sat" | "sub_sat" | "hadd" | "rhadd" => {
                if !want(self, 2) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let (a, b) = (int(self, &args[0]), int(self, &args[1]));
                let ty = Lower::common(a.ty, b.ty);
                let signed = ty == Ty::Int;
                let (x, y) = (a.e, b.e);
                let e = match (n, signed) {
                    // Unsigned: wrap-around shows as a result below (above) an operand.
                    ("add_sat", false) => {
                        let s = bin(BinOp::Add, x.clone(), y, span);
                        cond(bin(BinOp::Lt, s.clone(), x, span), num(0xFFFF_FFFF), s)
                    }
                    ("sub_sat", false) => cond(bin(BinOp::Lt, x.clone(), y.clone(), span), num(0), bin(BinOp::Sub, x, y, span)),
                    // Signed: overflow iff the operands' signs agree (add) or differ (sub)
                    // and the result's differs from the first operand's.
                    ("add_sat" | "sub_sat", true) => {
                        let sub = n == "sub_sat";
                        let r = bin(if sub { BinOp::Sub } else { BinOp::Add }, x.clone(), y.clone(), span);
                        let over = signed_overflow(&x, &y, &r, sub, span);
                        let limit = cond(call(Builtin::Slt, vec![x, num(0)], span), num(0x8000_0000), num(0x7FFF_FFFF));
                        cond(over, limit, r)
                    }
                    // (a + b) >> 1 without overflow: (a >> 1) + (b >> 1) + (a & b & 1); rhadd
                    // rounds up: ... + ((a | b) & 1).
                    _ => {
                        let shr = |e: k::Expr| if signed { call(Builtin::Ashr, vec![e, num(1)], span) } else { bin(BinOp::Shr, e, num(1), span) };
                        let low = if n == "hadd" { BinOp::BitAnd } else { BinOp::BitOr };
                        let carry = bin(BinOp::BitAnd, bin(low, x.clone(), y.clone(), span), num(1), span);
                        bin(BinOp::Add, bin(BinOp::Add, shr(x), shr(y), span), carry, span)
                    }
                };
                Some(Val { e, ty })
            }
            "clamp" => {
                if !want(self, 3) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let (x, lo, hi) = (int(self, &args[0]), int(self, &args[1]), int(self, &args[2]));
                let ty = Lower::common(Lower::common(x.ty, lo.ty), hi.ty);
                let conv = |l: &mut Self, v: Val| l.convert(v, ty, span);
                let (x, lo, hi) = (conv(self, x), conv(self, lo), conv(self, hi));
                let e = match ty {
                    Ty::Float => call(Builtin::Fmin, vec![call(Builtin::Fmax, vec![x, lo], span), hi], span),
                    Ty::Int => {
                        let lt = |a: k::Expr, b: k::Expr| call(Builtin::Slt, vec![a, b], span);
                        let m = cond(lt(x.clone(), lo.clone()), lo, x);
                        let m = self.bind_temp(Val { e: m, ty }, span).e;
                        cond(lt(hi.clone(), m.clone()), hi, m)
                    }
                    _ => call(Builtin::Min, vec![call(Builtin::Max, vec![x, lo], span), hi], span),
                };
                Some(Val { e, ty })
            }
            "select" => {
                // Scalar select(a, b, c): c ? b : a (OpenCL).
                if !want(self, 3) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let (a, b) = (int(self, &args[0]), int(self, &args[1]));
                let c = self.cond(&args[2]);
                let ty = Lower::common(a.ty, b.ty);
                let (a, b) = (self.convert(a, ty, span), self.convert(b, ty, span));
                Some(Val { e: cond(c, b, a), ty })
            }
            "rotate" => {
                if !want(self, 2) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let (a, s) = (int(self, &args[0]), int(self, &args[1]));
                let s = self.bind_temp(Val { e: bin(BinOp::BitAnd, s.e, num(31), span), ty: Ty::UInt }, span).e;
                let left = bin(BinOp::Shl, a.e.clone(), s.clone(), span);
                let right = bin(BinOp::Shr, a.e, bin(BinOp::BitAnd, bin(BinOp::Sub, num(32), s.clone(), span), num(31), span), span);
                let e = cond(bin(BinOp::Eq, s, num(0), span), left.clone(), bin(BinOp::BitOr, left, right, span));
                Some(Val { e, ty: a.ty })
            }
            "popcount" | "__popc" => {
                if !want(self, 1) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let x = int(self, &args[0]).e;
                Some(Val { e: self.bit_count(x, span), ty: Ty::Int })
            }
            "__ffs" => {
                // CUDA: the 1-based position of the lowest set bit, 0 for 0: the count of the
                // bits below it, plus one.
                if !want(self, 1) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let x = int(self, &args[0]);
                let x = self.bind_temp(Val { e: x.e, ty: Ty::UInt }, span).e;
                let lowest = bin(BinOp::BitAnd, x.clone(), bin(BinOp::Sub, num(0), x.clone(), span), span);
                let below = self.bit_count(bin(BinOp::Sub, lowest, num(1), span), span);
                let e = cond(bin(BinOp::Eq, x, num(0), span), num(0), bin(BinOp::Add, below, num(1), span));
                Some(Val { e, ty: Ty::Int })
            }
            "__brev" => {
                // CUDA: the bits in reverse order, by swapping ever smaller halves.
                if !want(self, 1) {
                    return Some(Val { e: num(0), ty: Ty::UInt });
                }
                let mut x = int(self, &args[0]).e;
                for (sh, m) in [(16u64, 0x0000_FFFFu64), (8, 0x00FF_00FF), (4, 0x0F0F_0F0F), (2, 0x3333_3333), (1, 0x5555_5555)] {
                    let x0 = self.bind_temp(Val { e: x, ty: Ty::UInt }, span).e;
                    let low_up = bin(BinOp::Shl, bin(BinOp::BitAnd, x0.clone(), num(m), span), num(sh), span);
                    let high_down = bin(BinOp::BitAnd, bin(BinOp::Shr, x0, num(sh), span), num(m), span);
                    x = bin(BinOp::BitOr, low_up, high_down, span);
                }
                Some(Val { e: x, ty: Ty::UInt })
            }
            "clz" | "__clz" => {
                if !want(self, 1) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                // Binary search for the highest set bit: 32 for 0.
                let mut x = int(self, &args[0]).e;
                let mut n_acc: Option<k::Expr> = None;
                for sh in [16u64, 8, 4, 2, 1] {
                    let mask = !((1u64 << (32 - sh)) - 1) & 0xFFFF_FFFF;
                    let empty = bin(BinOp::Eq, bin(BinOp::BitAnd, x.clone(), num(mask), span), num(0), span);
                    let empty = self.bind_temp(Val { e: empty, ty: Ty::UInt }, span).e;
                    let add = cond(empty.clone(), num(sh), num(0));
                    n_acc = Some(match n_acc {
                        None => add,
                        Some(a) => bin(BinOp::Add, a, add, span),
                    });
                    x = self.bind_temp(Val { e: cond(empty, bin(BinOp::Shl, x.clone(), num(sh), span), x), ty: Ty::UInt }, span).e;
                }
                let zero_top = bin(BinOp::Eq, bin(BinOp::BitAnd, x, num(0x8000_0000), span), num(0), span);
                let e = bin(BinOp::Add, n_acc.unwrap_or_else(|| num(0)), cond(zero_top, num(1), num(0)), span);
                Some(Val { e, ty: Ty::Int })
            }
            "__ite" => {
                // GPUVerify's pure conditional (both sides evaluated).
                if !want(self, 3) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let c = self.cond(&args[0]);
                let (a, b) = (self.expr(&args[1]), self.expr(&args[2]));
                let ty = Lower::common(a.ty, b.ty);
                if let Ty::Long { .. } = ty {
                    // 64-bit sides (PPCG's `__ite(x < 0, -((-x + 2) / 3), x / 3)`): word by word.
                    let ((al, ah), (bl, bh)) = (self.long_words(a, span), self.long_words(b, span));
                    let word = |c: &k::Expr, x: k::Expr, y: k::Expr| kx(k::ExprKind::Cond(Box::new(c.clone()), Box::new(x), Box::new(y)), span);
                    let e = crate::lower::long::pair(word(&c, al, bl), word(&c, ah, bh), span);
                    return Some(Val { e, ty });
                }
                let (a, b) = (self.convert(a, ty, span), self.convert(b, ty, span));
                Some(Val { e: cond(c, a, b), ty })
            }
            "__is_pow2" => {
                // GPUVerify's `((x & (x - 1)) == 0)` (true of 0 too, as its macro).
                if !want(self, 1) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let x = self.expr(&args[0]);
                let x = self.convert(x, Ty::UInt, span);
                let below = bin(BinOp::Sub, x.clone(), num(1), span);
                Some(Val { e: bin(BinOp::Eq, bin(BinOp::BitAnd, x, below, span), num(0), span), ty: Ty::Int })
            }
            "__add" | "__add_int" | "__add_unsigned_int" => {
                // GPUVerify's addition helpers: `+` (wrapping).
                if !want(self, 2) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let (a, b) = (int(self, &args[0]), int(self, &args[1]));
                let ty = match n {
                    "__add_int" => Ty::Int,
                    "__add_unsigned_int" => Ty::UInt,
                    _ => Lower::common(a.ty, b.ty),
                };
                let (a, b) = (self.convert(a, ty, span), self.convert(b, ty, span));
                Some(Val { e: bin(BinOp::Add, a, b, span), ty })
            }
            "__mod_pow2" => {
                // `x` modulo a power of two.
                if !want(self, 2) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let (x, p) = (self.expr(&args[0]), self.expr(&args[1]));
                let (x, p) = (self.convert(x, Ty::UInt, span), self.convert(p, Ty::UInt, span));
                Some(Val { e: bin(BinOp::Rem, x, p, span), ty: Ty::UInt })
            }
            "__add_noovfl" => {
                // GPUVerify's predicate: adding the arguments in order does not overflow.
                if args.len() < 2 {
                    self.err("`__add_noovfl` takes two or more arguments", span);
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let vals: Vec<Val> = args.iter().map(|a| int(self, a)).collect();
                let ty = vals.iter().fold(Ty::Int, |t, v| Lower::common(t, v.ty));
                let mut sum = vals[0].e.clone();
                let mut ok: Option<k::Expr> = None;
                for v in &vals[1..] {
                    let next = bin(BinOp::Add, sum.clone(), v.e.clone(), span);
                    let fits = add_fits(&sum, &v.e, &next, ty, span);
                    ok = Some(match ok {
                        None => fits,
                        Some(o) => bin(BinOp::LAnd, o, fits, span),
                    });
                    sum = next;
                }
                Some(Val { e: ok.unwrap_or_else(|| num(1)), ty: Ty::Int })
            }
            "__add_noovfl_int" | "__add_noovfl_unsigned_int" | "__add_noovfl_unsigned" => {
                // GPUVerify's addition that is assumed not to overflow.
                if !want(self, 2) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let (a, b) = (int(self, &args[0]), int(self, &args[1]));
                let ty = if n == "__add_noovfl_int" { Ty::Int } else { Ty::UInt };
                let r = self.bind_temp(Val { e: bin(BinOp::Add, a.e.clone(), b.e.clone(), span), ty }, span).e;
                let fits = add_fits(&a.e, &b.e, &r, ty, span);
                self.emit(k::StmtKind::Assume(fits), span);
                Some(Val { e: r, ty })
            }
            "__ptr_offset_bytes" => {
                // GPUVerify's: where in its array a pointer points, in bytes (4 per word, or 1 in an
                // array kept at bytes).
                if !want(self, 1) {
                    return Some(Val { e: num(0), ty: Ty::Int });
                }
                let e = match self.array_argument(&args[0], false) {
                    Some(crate::lower::values::Entity::Array { kpl, offset: Some(o), .. }) if self.is_bytes(&kpl) => k::Expr::var(&o, span),
                    Some(crate::lower::values::Entity::Array { offset: Some(o), .. }) => bin(BinOp::Mul, k::Expr::var(&o, span), num(4), span),
                    _ => num(0),
                };
                Some(Val { e, ty: Ty::UInt })
            }
            "curand_init" | "curand" | "curand_uniform" | "curand_normal" | "curand_uniform_double" | "curand_normal_double"
            | "curand_log_normal" | "curand_log_normal_double" | "curand_poisson"
                if self.o.dialect == crate::text::tokens::Dialect::Cuda =>
            {
                return Some(self.curand(n, args, span));
            }
            "__requires_fresh_array" => {
                // kpl's arrays never overlap (kernel pointer parameters are distinct
                // arrays), so a fresh array is what every array already is.
                if want(self, 1) && self.array_argument(&args[0], false).is_none() {
                    self.err("`__requires_fresh_array` needs an array", args[0].span);
                }
                Some(Val { e: num(0), ty: Ty::Void })
            }
            _ => None,
        }
    }

    /// cuRAND: a generator call reads and writes its state (so threads sharing a state
    /// race) and gives an arbitrary number; `curand_init` writes the state. An XORWOW state
    /// is one word; an MTGP32 state serves a block, each thread its own word
    /// (`threadIdx % 256`), so more than 256 threads, or two blocks, sharing one race.
    fn curand(&mut self, n: &str, args: &[Expr], span: Span) -> Val {
        let num = |v: u64| k::Expr::num(v, span);
        let state = args.last();
        for a in args.iter().take(args.len().saturating_sub(1)) {
            self.expr_stmt(a);
        }
        let Some(state) = state else {
            self.err(format!("`{n}` needs a generator state"), span);
            return Val { e: num(0), ty: Ty::UInt };
        };
        let Some(crate::lower::values::Entity::Array { kpl, offset, agg, .. }) = self.array_argument(state, false) else {
            return Val { e: num(0), ty: Ty::UInt };
        };
        let base = offset.map(|o| k::Expr::var(&o, span)).unwrap_or_else(|| num(0));
        let index = match agg {
            Some(_) => {
                let lin = self.local_linear_id(span);
                bin(BinOp::Add, base, bin(BinOp::Rem, lin, num(MTGP32_WORDS as u64), span), span)
            }
            None => base,
        };
        let index = self.bind_temp(Val { e: index, ty: Ty::UInt }, span).e;
        let fresh = |l: &mut Self, base: &str| {
            let r = l.fresh(base);
            l.emit(k::StmtKind::Local(sp_id(&r, span), None), span);
            l.emit(k::StmtKind::Havoc(sp_id(&r, span)), span);
            r
        };
        if n != "curand_init" {
            // The generator reads its state ...
            let old = self.temp();
            self.emit(k::StmtKind::Local(sp_id(&old, span), Some(kx(k::ExprKind::Index(sp_id(&kpl, span), Box::new(index.clone())), span))), span);
        }
        // ... and writes the next one.
        let next = fresh(self, "curand_state");
        self.emit(k::StmtKind::Store(sp_id(&kpl, span), index, k::Expr::var(&next, span)), span);
        if n == "curand_init" {
            return Val { e: num(0), ty: Ty::Void };
        }
        let r = fresh(self, "curand_result");
        let ty = if n == "curand" || n == "curand_poisson" { Ty::UInt } else { Ty::Float };
        Val { e: k::Expr::var(&r, span), ty }
    }
}
