//! 64-bit integers (`long`, `long long`, `ulong`, `[u]int64_t`) as pairs of 32-bit words, so
//! the interpreter, the verifier and the certificates stay on KPL's words and stay exact. A
//! variable, field or element of one is two words, the low one first (`CType::Long`); a
//! value is a `Val` of type `Ty::Long` whose expression is the marker `__long(lo, hi)`
//! (`pair`), taken apart by every operation here. Addition carries, comparisons are
//! lexicographic (signed on the high word), products use 16-bit halves for the high word,
//! shifts move bits across the words, and division and remainder are exact: by constants
//! in a few words, by anything else bit by bit (`long_div.rs`). Conversions to and from
//! floats are exact within 32 bits, arbitrary beyond; constant operands are folded here.
//! The pointer-sized types (`size_t`, ...) are 64-bit integers with 64-bit pointers. A marker that reaches the
//! finished kernel (a 64-bit value where kpl has no rule for it) is reported by
//! `unhandled`.

use crate::lower::context::Lower;
use crate::lower::values::{LONG_WORDS, Leaf, POINTER_SIZED, Place, Ty, VLeaf, Val, bin, call, kx, not, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, BinOp, Builtin};
use kpl_lang::span::Span;

/// The marker call holding a 64-bit value's two words.
const PAIR: &str = "__long";

/// Whether specifiers name a 64-bit integer type (the pointer-sized ones too where `wide`:
/// 64-bit pointers), and if so whether it is signed.
pub(crate) fn long_spec(specs: &[Spec], wide: bool) -> Option<bool> {
    let has = |w: &str| specs.iter().any(|s| s.word == w);
    if wide {
        if let Some(&(_, signed)) = POINTER_SIZED.iter().find(|(w, _)| has(w)) {
            return Some(signed);
        }
    }
    if !LONG_WORDS.iter().any(|w| has(w)) || has("double") {
        return None;
    }
    Some(!(has("unsigned") || has("ulong") || has("uint64_t")))
}

/// A 64-bit value from its words.
pub(crate) fn pair(lo: k::Expr, hi: k::Expr, span: Span) -> k::Expr {
    kx(k::ExprKind::Call(sp_id(PAIR, span), vec![lo, hi]), span)
}

/// The words of a 64-bit value (`pair`'s inverse).
pub(crate) fn halves(e: &k::Expr) -> (k::Expr, k::Expr) {
    match &e.kind {
        k::ExprKind::Call(f, args) if f.name == PAIR && args.len() == 2 => (args[0].clone(), args[1].clone()),
        _ => (e.clone(), k::Expr::num(0, e.span)),
    }
}

/// The message for a kernel in which a 64-bit value reached a place kpl has no rule for
/// (the KPL checker meets the marker as an unknown function).
pub(crate) fn unhandled(message: &str) -> Option<String> {
    message.contains(&format!("`{PAIR}`")).then(|| {
        "not supported: a 64-bit integer value here (kpl takes them in variables, fields, memory, arithmetic, comparisons, \
         conversions, indices, parameters and results; not in built-in functions or annotations)"
            .to_string()
    })
}

fn num(n: u64, span: Span) -> k::Expr {
    k::Expr::num(n, span)
}

/// A constant word, if the expression is one.
fn constant(e: &k::Expr) -> Option<u64> {
    match &e.kind {
        k::ExprKind::Num(n) => Some(n & 0xFFFF_FFFF),
        k::ExprKind::Unary(k::UnOp::Neg, a) => constant(a).map(|n| n.wrapping_neg() & 0xFFFF_FFFF),
        _ => None,
    }
}

/// An expression of at most `depth` levels of operators over numbers, variables and ids.
fn small(e: &k::Expr, depth: u32) -> bool {
    match &e.kind {
        k::ExprKind::Num(_) | k::ExprKind::Var(_) | k::ExprKind::Special(..) => true,
        k::ExprKind::Binary(_, a, b) => depth > 0 && small(a, depth - 1) && small(b, depth - 1),
        k::ExprKind::Unary(_, a) => depth > 0 && small(a, depth - 1),
        _ => false,
    }
}

/// `a + b`, without adding a constant 0.
fn add(a: k::Expr, b: k::Expr, span: Span) -> k::Expr {
    match (constant(&a), constant(&b)) {
        (Some(0), _) => b,
        (_, Some(0)) => a,
        _ => bin(BinOp::Add, a, b, span),
    }
}

/// `a * b`, folding a constant 0 or 1.
fn mul(a: &k::Expr, b: &k::Expr, span: Span) -> k::Expr {
    match (constant(a), constant(b)) {
        (Some(0), _) | (_, Some(0)) => num(0, span),
        (Some(1), _) => b.clone(),
        (_, Some(1)) => a.clone(),
        _ => bin(BinOp::Mul, a.clone(), b.clone(), span),
    }
}

/// `a op b` of two constant 64-bit values, computed here (`sizeof` arithmetic, 64-bit
/// literals): the result's words, or for a comparison its 0/1; `None` if an operand is not
/// constant, or for a division by 0 (left to the general rule).
fn fold_constants(op: BOp, signed: bool, a: (&k::Expr, &k::Expr), b: (&k::Expr, &k::Expr), span: Span) -> Option<k::Expr> {
    let x = constant(a.0)? | constant(a.1)? << 32;
    let y = constant(b.0)? | constant(b.1)? << 32;
    let (sx, sy) = (x as i64, y as i64);
    let r = match op {
        BOp::Add => x.wrapping_add(y),
        BOp::Sub => x.wrapping_sub(y),
        BOp::Mul => x.wrapping_mul(y),
        BOp::Div | BOp::Rem if y == 0 => return None,
        BOp::Div if signed => sx.wrapping_div(sy) as u64,
        BOp::Rem if signed => sx.wrapping_rem(sy) as u64,
        BOp::Div => x / y,
        BOp::Rem => x % y,
        BOp::BitAnd => x & y,
        BOp::BitOr => x | y,
        BOp::BitXor => x ^ y,
        BOp::Eq => return Some(num((x == y) as u64, span)),
        BOp::Ne => return Some(num((x != y) as u64, span)),
        BOp::Lt => return Some(num(if signed { sx < sy } else { x < y } as u64, span)),
        BOp::Gt => return Some(num(if signed { sx > sy } else { x > y } as u64, span)),
        BOp::Le => return Some(num(if signed { sx <= sy } else { x <= y } as u64, span)),
        BOp::Ge => return Some(num(if signed { sx >= sy } else { x >= y } as u64, span)),
        BOp::Shl | BOp::Shr | BOp::LAnd | BOp::LOr => return None,
    };
    Some(pair(num(r & 0xFFFF_FFFF, span), num(r >> 32, span), span))
}

fn v_is_comparison(op: BOp) -> bool {
    matches!(op, BOp::Eq | BOp::Ne | BOp::Lt | BOp::Gt | BOp::Le | BOp::Ge)
}

/// `k` if the value `(lo, hi)` is the constant `2^k`.
fn power_of_two(lo: &k::Expr, hi: &k::Expr) -> Option<u32> {
    let v = constant(lo)? | (constant(hi)? << 32);
    v.is_power_of_two().then(|| v.trailing_zeros())
}

impl<'u> Lower<'u> {
    /// A value's words as a 64-bit integer (C's conversion: `int` is sign-extended, the
    /// unsigned types zero-extended).
    pub(crate) fn long_words(&mut self, v: Val, span: Span) -> (k::Expr, k::Expr) {
        match v.ty.widen() {
            Ty::Long { .. } => halves(&v.e),
            Ty::Int => {
                if let Some(n) = constant(&v.e) {
                    let hi = if n >> 31 == 1 { 0xFFFF_FFFF } else { 0 };
                    return (num(n, span), num(hi, span));
                }
                let v = self.bind_temp(v, span);
                let hi = call(Builtin::Ashr, vec![v.e.clone(), num(31, span)], span);
                (v.e, hi)
            }
            Ty::UInt | Ty::Bool | Ty::Narrow { .. } => (v.e, num(0, span)),
            Ty::Float => {
                // C truncates toward zero; exact for a float in [-2^31, 2^31) (the 32-bit
                // conversion, sign-extended), any value beyond (a `size_t` past 2^31 from a
                // float is rare; it stays sound).
                let f = self.bind_temp(v, span).e;
                let fits = bin(
                    BinOp::LAnd,
                    call(Builtin::Fle, vec![num(0xCF00_0000, span), f.clone()], span),
                    call(Builtin::Flt, vec![f.clone(), num(0x4F00_0000, span)], span),
                    span,
                );
                let fits = self.bind_temp(Val { e: fits, ty: Ty::Int }, span).e;
                let lo = self.bind_temp(Val { e: call(Builtin::Ftoi, vec![f], span), ty: Ty::Int }, span).e;
                let hi = call(Builtin::Ashr, vec![lo.clone(), num(31, span)], span);
                let (any_lo, any_hi) = (self.arbitrary("float_to_long", Ty::UInt, span).e, self.arbitrary("float_to_long", Ty::UInt, span).e);
                let pick = |x: k::Expr, y: k::Expr| kx(k::ExprKind::Cond(Box::new(fits.clone()), Box::new(x), Box::new(y)), span);
                (pick(lo, any_lo), pick(hi, any_hi))
            }
            Ty::Void => {
                self.err("a `void` value is used", span);
                (num(0, span), num(0, span))
            }
        }
    }

    /// A 64-bit value's low word converted to a 32-bit (or narrower) type: C's truncation.
    pub(crate) fn long_to_word(&mut self, v: Val, to: Ty, span: Span) -> k::Expr {
        let (lo, hi) = halves(&v.e);
        match to {
            Ty::Bool => bin(BinOp::Ne, bin(BinOp::BitOr, lo, hi, span), num(0, span), span),
            Ty::Float => {
                // Exact where the value fits 32 bits (sign-extended for a signed type),
                // any float beyond (rounding 64 bits to 24 is not computed).
                let signed = matches!(v.ty, Ty::Long { signed: true });
                // A value whose high word is a constant 0 (a `size_t` the launch bounds, a
                // `sizeof`): the 32-bit conversion, exactly.
                if !signed && constant(&hi) == Some(0) {
                    return call(Builtin::Utof, vec![lo], span);
                }
                let lo = self.bind_temp(Val { e: lo, ty: Ty::UInt }, span).e;
                let ext = if signed { call(Builtin::Ashr, vec![lo.clone(), num(31, span)], span) } else { num(0, span) };
                let fits = self.bind_temp(Val { e: bin(BinOp::Eq, hi, ext, span), ty: Ty::Int }, span).e;
                let exact = call(if signed { Builtin::Itof } else { Builtin::Utof }, vec![lo], span);
                let any = self.arbitrary("long_to_float", Ty::Float, span).e;
                kx(k::ExprKind::Cond(Box::new(fits), Box::new(exact), Box::new(any)), span)
            }
            Ty::Long { .. } => v.e,
            Ty::Void => lo,
            _ => self.convert(Val { e: lo, ty: Ty::UInt }, to, span),
        }
    }

    /// A 64-bit value with each word in a temp (to use it several times), unless the word
    /// is a small expression without reads (kept as written, so `i := i + gsize` stays
    /// recognisable to invariant inference).
    pub(crate) fn bind_long(&mut self, v: Val, span: Span) -> Val {
        if self.two_thread_ok {
            // In an annotation: one expression (`bind_temp`).
            return v;
        }
        let (lo, hi) = halves(&v.e);
        let mut fix = |e: k::Expr| if small(&e, 2) { e } else { self.bind_temp(Val { e, ty: Ty::UInt }, span).e };
        let (lo, hi) = (fix(lo), fix(hi));
        Val { e: pair(lo, hi, span), ty: v.ty }
    }

    /// A 64-bit array index as a word: its low word. Two indices that differ only above bit
    /// 32 then name one element, which can only add races, never hide one; but where the
    /// array's bounds are checked (`sized`), a high word that is not 0 gives all ones, out
    /// of bounds, so an access past 2^32 elements is never taken for one inside.
    pub(crate) fn long_index(&mut self, v: Val, sized: bool, span: Span) -> k::Expr {
        let (lo, hi) = halves(&v.e);
        if !sized {
            return lo;
        }
        let big = kx(k::ExprKind::Unary(k::UnOp::Neg, Box::new(bin(BinOp::Ne, hi, num(0, span), span))), span);
        bin(BinOp::BitOr, lo, big, span)
    }

    /// A 64-bit value read from the two words of a variable, field or element.
    pub(crate) fn long_from_leaves(&mut self, leaves: &[Leaf], signed: bool, span: Span) -> Val {
        match self.long_place(leaves, signed) {
            Some(p) => self.read_place(&p, span),
            None => Val { e: pair(num(0, span), num(0, span), span), ty: Ty::Long { signed } },
        }
    }

    /// The place of a 64-bit variable, field or element from its two words.
    pub(crate) fn long_place(&mut self, leaves: &[Leaf], signed: bool) -> Option<Place> {
        match leaves {
            [Leaf::Word(lo), Leaf::Word(hi)] => Some(Place::Pair { lo: Box::new(lo.clone()), hi: Box::new(hi.clone()), signed }),
            _ => None,
        }
    }

    /// The two words stored for `e` in a 64-bit variable, field, parameter or result.
    pub(crate) fn long_leaves(&mut self, e: &Expr) -> Vec<VLeaf> {
        let v = self.expr(e);
        let (lo, hi) = self.long_words(v, e.span);
        vec![VLeaf::Word(Val { e: lo, ty: Ty::UInt }), VLeaf::Word(Val { e: hi, ty: Ty::UInt })]
    }

    /// `a op b` where C computes in 64 bits (`ty` is the common type, or for a shift the
    /// left operand's).
    pub(crate) fn long_arith(&mut self, op: BOp, va: Val, vb: Val, ty: Ty, span: Span) -> Val {
        let signed = matches!(ty, Ty::Long { signed: true });
        let a = self.long_words(va, span);
        let a = self.bind_long(Val { e: pair(a.0, a.1, span), ty }, span);
        let (al, ah) = halves(&a.e);
        if matches!(op, BOp::Shl | BOp::Shr) {
            let s = self.convert(vb, Ty::UInt, span);
            let (lo, hi) = self.long_shift(op == BOp::Shl, signed, al, ah, s, span);
            return Val { e: pair(lo, hi, span), ty };
        }
        let b = self.long_words(vb, span);
        let b = self.bind_long(Val { e: pair(b.0, b.1, span), ty }, span);
        let (bl, bh) = halves(&b.e);
        if let Some(v) = fold_constants(op, signed, (&al, &ah), (&bl, &bh), span) {
            return Val { e: v, ty: if v_is_comparison(op) { Ty::Int } else { ty } };
        }
        let long = |lo, hi| Val { e: pair(lo, hi, span), ty };
        let int = |e| Val { e, ty: Ty::Int };
        let k2 = |o: BinOp, x: &k::Expr, y: &k::Expr| bin(o, x.clone(), y.clone(), span);
        match op {
            BOp::Add => {
                // The low word's sum, written out twice (in it and in the carry), keeps
                // `i := i + c` recognisable to invariant inference.
                let lo = add(al.clone(), bl.clone(), span);
                let carry = bin(BinOp::Lt, lo.clone(), al.clone(), span);
                long(lo, add(add(ah, bh, span), carry, span))
            }
            BOp::Sub => {
                let borrow = k2(BinOp::Lt, &al, &bl);
                long(k2(BinOp::Sub, &al, &bl), bin(BinOp::Sub, k2(BinOp::Sub, &ah, &bh), borrow, span))
            }
            BOp::Mul => match (power_of_two(&bl, &bh), constant(&bl), constant(&bh)) {
                (Some(p), ..) => {
                    let (lo, hi) = self.long_shift(true, signed, al, ah, num(p as u64, span), span);
                    long(lo, hi)
                }
                (None, Some(l), Some(0xFFFF_FFFF)) if l != 0 => {
                    // A small negative constant: `a * -k` is `-(a * k)`, a simpler product.
                    let k = (l as u32).wrapping_neg() as u64;
                    let pos = self.long_arith(op, a, Val { e: pair(num(k, span), num(0, span), span), ty }, ty, span);
                    let zero = Val { e: pair(num(0, span), num(0, span), span), ty };
                    self.long_arith(BOp::Sub, zero, pos, ty, span)
                }
                _ => {
                    let carry = self.mul_high(&al, &bl, span);
                    let cross = add(mul(&al, &bh, span), mul(&ah, &bl, span), span);
                    long(mul(&al, &bl, span), add(carry, cross, span))
                }
            },
            BOp::Div | BOp::Rem => {
                let Some(p) = power_of_two(&bl, &bh) else {
                    let divisor = constant(&bl).zip(constant(&bh)).map(|(l, h)| l | h << 32);
                    if let Some(v) = divisor.and_then(|v| self.long_div_const(signed, &a, v, op == BOp::Rem, ty, span)) {
                        return v;
                    }
                    return self.long_div_var(&a, &b, op == BOp::Rem, ty, span);
                };
                let (ql, qh) = if signed && p > 0 {
                    // C truncates toward zero: a negative dividend is biased by 2^p - 1 first.
                    let sign = call(Builtin::Ashr, vec![ah.clone(), num(31, span)], span);
                    let sign = self.bind_temp(Val { e: sign, ty: Ty::UInt }, span).e;
                    let (bias_l, bias_h) = self.long_shift(false, false, sign.clone(), sign, num(64 - p as u64, span), span);
                    let biased = self.long_arith(BOp::Add, a.clone(), Val { e: pair(bias_l, bias_h, span), ty }, ty, span);
                    let biased = self.bind_long(biased, span);
                    let (bl2, bh2) = halves(&biased.e);
                    self.long_shift(false, true, bl2, bh2, num(p as u64, span), span)
                } else {
                    self.long_shift(false, false, al.clone(), ah.clone(), num(p as u64, span), span)
                };
                if op == BOp::Div {
                    return long(ql, qh);
                }
                // The remainder: a - (a / 2^p) * 2^p.
                let (ml, mh) = self.long_shift(true, signed, ql, qh, num(p as u64, span), span);
                self.long_arith(BOp::Sub, a, Val { e: pair(ml, mh, span), ty }, ty, span)
            }
            BOp::BitAnd | BOp::BitOr | BOp::BitXor => {
                let o = match op {
                    BOp::BitAnd => BinOp::BitAnd,
                    BOp::BitOr => BinOp::BitOr,
                    _ => BinOp::BitXor,
                };
                long(k2(o, &al, &bl), k2(o, &ah, &bh))
            }
            BOp::Eq => int(bin(BinOp::LAnd, k2(BinOp::Eq, &al, &bl), k2(BinOp::Eq, &ah, &bh), span)),
            BOp::Ne => int(bin(BinOp::LOr, k2(BinOp::Ne, &al, &bl), k2(BinOp::Ne, &ah, &bh), span)),
            BOp::Lt => int(self.long_less(signed, (&al, &ah), (&bl, &bh), span)),
            BOp::Gt => int(self.long_less(signed, (&bl, &bh), (&al, &ah), span)),
            BOp::Le => int(not(self.long_less(signed, (&bl, &bh), (&al, &ah), span), span)),
            BOp::Ge => int(not(self.long_less(signed, (&al, &ah), (&bl, &bh), span), span)),
            // Shifts are handled above; `&&` and `||` never reach arithmetic (`logical`).
            BOp::Shl | BOp::Shr | BOp::LAnd | BOp::LOr => {
                self.err("this operator does not apply to 64-bit integers here", span);
                long(num(0, span), num(0, span))
            }
        }
    }

    /// `a / v` or `a % v` (`rem`) for a constant divisor `v` (as 64 bits) whose odd part is
    /// below 2^16, exactly, in words: the power of two is shifted out, and the odd part
    /// divides the high word and then the low word in 16-bit halves (each step divides
    /// a remainder below 2^16 joined to 16 bits, so no step overflows a word). Signed
    /// division truncates toward zero, as C's does: the magnitudes are divided and the
    /// quotient negated where the signs differ; the remainder is `a - (a / v) * v`.
    /// None for another divisor (or 0, which C leaves undefined).
    fn long_div_const(&mut self, signed: bool, a: &Val, v: u64, rem: bool, ty: Ty, span: Span) -> Option<Val> {
        let negative_divisor = signed && (v as i64) < 0;
        let magnitude = if negative_divisor { (v as i64).unsigned_abs() } else { v };
        if magnitude == 0 {
            return None;
        }
        let shift = magnitude.trailing_zeros();
        let odd = magnitude >> shift;
        if odd >= 1 << 16 {
            return None;
        }
        let (al, ah) = halves(&a.e);
        let word = |l: &mut Self, e: k::Expr| l.bind_temp(Val { e, ty: Ty::UInt }, span).e;
        let zero = || Val { e: pair(num(0, span), num(0, span), span), ty };
        // The dividend's magnitude, and whether it is negative.
        let (ul, uh, negative) = if signed {
            let neg = word(self, call(Builtin::Slt, vec![ah.clone(), num(0, span)], span));
            let minus = self.long_arith(BOp::Sub, zero(), a.clone(), ty, span);
            let minus = self.bind_long(minus, span);
            let (nl, nh) = halves(&minus.e);
            let pick = |x: k::Expr, y: k::Expr| kx(k::ExprKind::Cond(Box::new(neg.clone()), Box::new(x), Box::new(y)), span);
            (word(self, pick(nl, al.clone())), word(self, pick(nh, ah.clone())), Some(neg))
        } else {
            (al.clone(), ah.clone(), None)
        };
        let (sl, sh) = self.long_shift(false, false, ul, uh, num(shift as u64, span), span);
        let (sl, sh) = (word(self, sl), word(self, sh));
        let (ql, qh) = if odd == 1 {
            (sl, sh)
        } else {
            let d = || num(odd, span);
            let qh = bin(BinOp::Div, sh.clone(), d(), span);
            let r1 = word(self, bin(BinOp::Rem, sh, d(), span));
            let x1 = bin(BinOp::BitOr, bin(BinOp::Shl, r1, num(16, span), span), bin(BinOp::Shr, sl.clone(), num(16, span), span), span);
            let x1 = word(self, x1);
            let q1 = bin(BinOp::Div, x1.clone(), d(), span);
            let r2 = word(self, bin(BinOp::Rem, x1, d(), span));
            let x0 = bin(BinOp::BitOr, bin(BinOp::Shl, r2, num(16, span), span), bin(BinOp::BitAnd, sl, num(0xFFFF, span), span), span);
            let q0 = bin(BinOp::Div, word(self, x0), d(), span);
            (bin(BinOp::BitOr, bin(BinOp::Shl, q1, num(16, span), span), q0, span), qh)
        };
        let mut q = self.bind_long(Val { e: pair(ql, qh, span), ty }, span);
        if let Some(neg) = negative {
            // The quotient is negative where exactly one of dividend and divisor is.
            let flip = if negative_divisor { not(neg, span) } else { neg };
            let minus = self.long_arith(BOp::Sub, zero(), q.clone(), ty, span);
            let (ml, mh) = halves(&minus.e);
            let (pl, ph) = halves(&q.e);
            let pick = |x: k::Expr, y: k::Expr| kx(k::ExprKind::Cond(Box::new(flip.clone()), Box::new(x), Box::new(y)), span);
            q = self.bind_long(Val { e: pair(pick(ml, pl), pick(mh, ph), span), ty }, span);
        }
        if !rem {
            return Some(q);
        }
        let divisor = Val { e: pair(num(v & 0xFFFF_FFFF, span), num(v >> 32, span), span), ty };
        let product = self.long_arith(BOp::Mul, q, divisor, ty, span);
        Some(self.long_arith(BOp::Sub, a.clone(), product, ty, span))
    }

    /// An OpenCL work-item function's value (`e`, its 32-bit form) as the 64-bit `size_t`
    /// it returns: the ids and sizes with a high word of 0, the global id and size with
    /// their products and sums carried into it.
    pub(crate) fn wide_work_item(&mut self, name: &str, e: k::Expr, a: k::Axis, d: usize, span: Span) -> Val {
        let ty = Ty::Long { signed: false };
        let wide = |e: k::Expr| Val { e: pair(e, num(0, span), span), ty };
        // A launch of fewer than 2^32 work-items in the dimension (offset included): every
        // value fits the low word, the 32-bit form is exact and the high word is 0.
        let fits = self.o.launch.is_some_and(|l| {
            let off = self.o.global_offset.map_or(0, |o| o[d]) as u64;
            (l.groups[d] as u64) * (l.threads[d] as u64) + off <= u32::MAX as u64
        });
        if fits {
            // The sizes are the launch's constants (so that `% get_global_size(0)` divides
            // by a constant).
            if let Some(l) = self.o.launch {
                let size = match name {
                    "get_local_size" => Some(l.threads[d] as u64),
                    "get_num_groups" => Some(l.groups[d] as u64),
                    "get_global_size" => Some(l.threads[d] as u64 * l.groups[d] as u64),
                    _ => None,
                };
                if let Some(n) = size {
                    return wide(num(n, span));
                }
            }
            return wide(e);
        }
        let sp = |s: k::Special| wide(kx(k::ExprKind::Special(s, a, true), span));
        match name {
            "get_global_id" => {
                let base = self.long_arith(BOp::Mul, sp(k::Special::Gid), sp(k::Special::Threads), ty, span);
                let id = self.long_arith(BOp::Add, base, sp(k::Special::Lid), ty, span);
                match self.o.global_offset.map_or(0, |o| o[d]) {
                    0 => id,
                    off => self.long_arith(BOp::Add, id, wide(num(off as u64, span)), ty, span),
                }
            }
            "get_global_size" => self.long_arith(BOp::Mul, sp(k::Special::Groups), sp(k::Special::Threads), ty, span),
            _ => wide(e),
        }
    }

    /// C's and OpenCL's `min`/`max` of two 64-bit values (`ty` their common type): the
    /// operands' words in temps, the comparison once, each word picked by it.
    pub(crate) fn long_min_max(&mut self, is_min: bool, a: Val, b: Val, ty: Ty, span: Span) -> Val {
        let signed = matches!(ty, Ty::Long { signed: true });
        let word_pair = |l: &mut Self, v: Val| {
            let (lo, hi) = l.long_words(v, span);
            let v = l.bind_long(Val { e: pair(lo, hi, span), ty }, span);
            halves(&v.e)
        };
        let (al, ah) = word_pair(self, a);
        let (bl, bh) = word_pair(self, b);
        let lt = self.long_less(signed, (&al, &ah), (&bl, &bh), span);
        let lt = self.bind_temp(Val { e: lt, ty: Ty::Int }, span).e;
        let ((pl, ph), (ql, qh)) = if is_min { ((al, ah), (bl, bh)) } else { ((bl, bh), (al, ah)) };
        let pick = |x: k::Expr, y: k::Expr| kx(k::ExprKind::Cond(Box::new(lt.clone()), Box::new(x), Box::new(y)), span);
        Val { e: pair(pick(pl, ql), pick(ph, qh), span), ty }
    }

    /// `a < b` on 64-bit values: the high words decide (signed if the type is), then the
    /// low words (unsigned).
    fn long_less(&mut self, signed: bool, a: (&k::Expr, &k::Expr), b: (&k::Expr, &k::Expr), span: Span) -> k::Expr {
        let high = if signed {
            call(Builtin::Slt, vec![a.1.clone(), b.1.clone()], span)
        } else {
            bin(BinOp::Lt, a.1.clone(), b.1.clone(), span)
        };
        let low = bin(BinOp::LAnd, bin(BinOp::Eq, a.1.clone(), b.1.clone(), span), bin(BinOp::Lt, a.0.clone(), b.0.clone(), span), span);
        bin(BinOp::LOr, high, low, span)
    }

    /// The high word of the unsigned 64-bit product of two words, from 16-bit halves.
    fn mul_high(&mut self, a: &k::Expr, b: &k::Expr, span: Span) -> k::Expr {
        let half = |l: &mut Self, x: &k::Expr, high: bool| match constant(x) {
            Some(n) => num(if high { n >> 16 } else { n & 0xFFFF }, span),
            None => {
                let e = if high { bin(BinOp::Shr, x.clone(), num(16, span), span) } else { bin(BinOp::BitAnd, x.clone(), num(0xFFFF, span), span) };
                l.bind_temp(Val { e, ty: Ty::UInt }, span).e
            }
        };
        let lo16 = |l: &mut Self, x: &k::Expr| half(l, x, false);
        let hi16 = |l: &mut Self, x: &k::Expr| half(l, x, true);
        let (a0, a1, b0, b1) = (lo16(self, a), hi16(self, a), lo16(self, b), hi16(self, b));
        let prod = |l: &mut Self, x: &k::Expr, y: &k::Expr| l.bind_temp(Val { e: mul(x, y, span), ty: Ty::UInt }, span).e;
        let (p00, p01, p10, p11) = (prod(self, &a0, &b0), prod(self, &a0, &b1), prod(self, &a1, &b0), prod(self, &a1, &b1));
        let fold = |o: BinOp, x: &k::Expr, n: u64| match constant(x) {
            Some(c) => num(if o == BinOp::Shr { c >> n } else { c & n }, span),
            None => bin(o, x.clone(), num(n, span), span),
        };
        let low16 = |x: &k::Expr| fold(BinOp::BitAnd, x, 0xFFFF);
        let up16 = |x: &k::Expr| fold(BinOp::Shr, x, 16);
        let mid = add(add(up16(&p00), low16(&p01), span), low16(&p10), span);
        let sum = add(add(p11, up16(&p01), span), up16(&p10), span);
        add(sum, fold(BinOp::Shr, &mid, 16), span)
    }

    /// `(lo, hi) << s` (`left`) or `>> s` (arithmetic if `signed`), for `s` in 0..64 (the
    /// amount is taken modulo 64, as OpenCL does; C leaves larger ones undefined).
    fn long_shift(&mut self, left: bool, signed: bool, lo: k::Expr, hi: k::Expr, s: k::Expr, span: Span) -> (k::Expr, k::Expr) {
        let shl = |x: k::Expr, n: k::Expr| bin(BinOp::Shl, x, n, span);
        let shr = |x: k::Expr, n: k::Expr| bin(BinOp::Shr, x, n, span);
        let ashr = |x: k::Expr, n: k::Expr| call(Builtin::Ashr, vec![x, n], span);
        let or = |x: k::Expr, y: k::Expr| bin(BinOp::BitOr, x, y, span);
        if let Some(n) = constant(&s).map(|n| n & 63) {
            return match (left, n) {
                (_, 0) => (lo, hi),
                (true, 1..=31) => (shl(lo.clone(), num(n, span)), or(shl(hi, num(n, span)), shr(lo, num(32 - n, span)))),
                (true, _) => (num(0, span), shl(lo, num(n - 32, span))),
                (false, 1..=31) => {
                    let top = if signed { ashr(hi.clone(), num(n, span)) } else { shr(hi.clone(), num(n, span)) };
                    (or(shr(lo, num(n, span)), shl(hi, num(32 - n, span))), top)
                }
                (false, _) if signed => {
                    let h = self.bind_temp(Val { e: hi, ty: Ty::UInt }, span).e;
                    (ashr(h.clone(), num(n - 32, span)), ashr(h, num(31, span)))
                }
                (false, _) => (shr(hi, num(n - 32, span)), num(0, span)),
            };
        }
        // A variable amount: KPL's shifts by 32 or more give 0 (and `ashr` the sign), so each
        // term below is 0 where it does not apply.
        let s = self.bind_temp(Val { e: bin(BinOp::BitAnd, s, num(63, span), span), ty: Ty::UInt }, span).e;
        let (lo, hi) = (self.bind_temp(Val { e: lo, ty: Ty::UInt }, span).e, self.bind_temp(Val { e: hi, ty: Ty::UInt }, span).e);
        let up = || bin(BinOp::Sub, num(32, span), s.clone(), span);
        let down = || bin(BinOp::Sub, s.clone(), num(32, span), span);
        if left {
            let h = or(or(shl(hi, s.clone()), shr(lo.clone(), up())), shl(lo.clone(), down()));
            return (shl(lo, s.clone()), h);
        }
        let spill = if signed {
            let wide = kx(k::ExprKind::Unary(k::UnOp::Neg, Box::new(bin(BinOp::Ge, s.clone(), num(32, span), span))), span);
            bin(BinOp::BitAnd, ashr(hi.clone(), down()), wide, span)
        } else {
            shr(hi.clone(), down())
        };
        let l = or(or(shr(lo, s.clone()), shl(hi.clone(), up())), spill);
        let h = if signed { ashr(hi, s) } else { shr(hi, s) };
        (l, h)
    }
}
