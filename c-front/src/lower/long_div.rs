//! 64-bit division and remainder by a value that is not a constant, exactly, on KPL's
//! 32-bit words: where both operands' high words are 0 (a 64-bit index divided by a 32-bit
//! count, the common case) one word division; otherwise restoring division, one quotient
//! bit per step, 64 steps of shifts, a comparison and a subtraction on word pairs (with the
//! bit shifted out of the remainder kept, so divisors past 2^63 stay exact). Division by 0
//! gives SMT-LIB's answer, all ones and the dividend, as KPL's 32-bit division does. Signed
//! division divides the magnitudes and truncates toward zero, as C does.

use crate::lower::context::Lower;
use crate::lower::long::{halves, pair};
use crate::lower::values::{Ty, Val, bin, call, kx, sp_id};
use kpl_lang::ast::{self as k, BinOp, Builtin};
use kpl_lang::span::Span;

fn num(n: u64, span: Span) -> k::Expr {
    k::Expr::num(n, span)
}

impl<'u> Lower<'u> {
    /// `a / b` or `a % b` (`rem`) of 64-bit values of type `ty`, `b` not a constant.
    pub(crate) fn long_div_var(&mut self, a: &Val, b: &Val, rem: bool, ty: Ty, span: Span) -> Val {
        if self.two_thread_ok {
            // An annotation is one expression; 64 steps with statements do not fit one.
            self.unsupported("64-bit division or remainder by a variable in an annotation", span);
            return Val { e: pair(num(0, span), num(0, span), span), ty };
        }
        let signed = matches!(ty, Ty::Long { signed: true });
        let (ul, uh, a_neg) = self.magnitude(a, signed, ty, span);
        let (vl, vh, b_neg) = self.magnitude(b, signed, ty, span);
        let var = |l: &mut Self| {
            let t = l.temp();
            l.emit(k::StmtKind::Local(sp_id(&t, span), Some(num(0, span))), span);
            t
        };
        let (ql, qh, rl, rh) = (var(self), var(self), var(self), var(self));
        let v = |n: &str| k::Expr::var(n, span);
        let set = |l: &mut Self, n: &str, e: k::Expr| l.emit(k::StmtKind::Assign(sp_id(n, span), e), span);
        // One word division where both high words are 0 and the divisor is not.
        let fast = bin(
            BinOp::LAnd,
            bin(BinOp::LAnd, bin(BinOp::Eq, uh.clone(), num(0, span), span), bin(BinOp::Eq, vh.clone(), num(0, span), span), span),
            bin(BinOp::Ne, vl.clone(), num(0, span), span),
            span,
        );
        let short = self.sub_block(
            |l| {
                set(l, &ql, bin(BinOp::Div, ul.clone(), vl.clone(), span));
                set(l, &rl, bin(BinOp::Rem, ul.clone(), vl.clone(), span));
            },
            span,
        );
        let long = self.sub_block(
            |l| {
                let out = l.temp();
                l.emit(k::StmtKind::Local(sp_id(&out, span), Some(num(0, span))), span);
                let ge = l.temp();
                l.emit(k::StmtKind::Local(sp_id(&ge, span), Some(num(0, span))), span);
                for i in (0..64u64).rev() {
                    let (word, at) = if i >= 32 { (&uh, i - 32) } else { (&ul, i) };
                    let bit = bin(BinOp::BitAnd, bin(BinOp::Shr, word.clone(), num(at, span), span), num(1, span), span);
                    // The remainder doubled, the dividend's next bit in; the bit shifted out
                    // of the high word (the remainder is then past any divisor).
                    set(l, &out, bin(BinOp::Shr, v(&rh), num(31, span), span));
                    set(l, &rh, bin(BinOp::BitOr, bin(BinOp::Shl, v(&rh), num(1, span), span), bin(BinOp::Shr, v(&rl), num(31, span), span), span));
                    set(l, &rl, bin(BinOp::BitOr, bin(BinOp::Shl, v(&rl), num(1, span), span), bit, span));
                    let above = bin(
                        BinOp::LOr,
                        bin(BinOp::Gt, v(&rh), vh.clone(), span),
                        bin(BinOp::LAnd, bin(BinOp::Eq, v(&rh), vh.clone(), span), bin(BinOp::Ge, v(&rl), vl.clone(), span), span),
                        span,
                    );
                    set(l, &ge, bin(BinOp::LOr, bin(BinOp::Ne, v(&out), num(0, span), span), above, span));
                    let pick = |x: k::Expr, y: k::Expr| kx(k::ExprKind::Cond(Box::new(v(&ge)), Box::new(x), Box::new(y)), span);
                    let borrow = bin(BinOp::Lt, v(&rl), vl.clone(), span);
                    let high = bin(BinOp::Sub, bin(BinOp::Sub, v(&rh), vh.clone(), span), borrow, span);
                    set(l, &rh, pick(high, v(&rh)));
                    set(l, &rl, pick(bin(BinOp::Sub, v(&rl), vl.clone(), span), v(&rl)));
                    let q = if i >= 32 { &qh } else { &ql };
                    set(l, q, bin(BinOp::BitOr, v(q), bin(BinOp::Shl, v(&ge), num(i % 32, span), span), span));
                }
            },
            span,
        );
        self.emit(k::StmtKind::If(fast, short, Some(Box::new(k::Else::Block(long)))), span);
        // Signs, as C's truncating division gives them: the quotient negative where exactly
        // one operand is, the remainder where the dividend is.
        let neg = match (rem, a_neg, b_neg) {
            (true, Some(an), _) => Some(an),
            (false, Some(an), Some(bn)) => Some(bin(BinOp::BitXor, an, bn, span)),
            _ => None,
        };
        let (lo, hi) = if rem { (v(&rl), v(&rh)) } else { (v(&ql), v(&qh)) };
        let value = Val { e: pair(lo, hi, span), ty };
        match neg {
            Some(n) => self.negate_where(n, value, ty, span),
            None => value,
        }
    }

    /// A 64-bit value's magnitude as words, and (signed) whether it was negative.
    fn magnitude(&mut self, x: &Val, signed: bool, ty: Ty, span: Span) -> (k::Expr, k::Expr, Option<k::Expr>) {
        let (lo, hi) = halves(&x.e);
        if !signed {
            return (lo, hi, None);
        }
        let neg = call(Builtin::Slt, vec![hi, num(0, span)], span);
        let neg = self.bind_temp(Val { e: neg, ty: Ty::UInt }, span).e;
        let m = self.negate_where(neg.clone(), x.clone(), ty, span);
        let (ml, mh) = halves(&m.e);
        (ml, mh, Some(neg))
    }

    /// `x`, or `-x` where `neg` (a 0/1 word) holds; its words bound to temporaries.
    fn negate_where(&mut self, neg: k::Expr, x: Val, ty: Ty, span: Span) -> Val {
        let zero = Val { e: pair(num(0, span), num(0, span), span), ty };
        let minus = self.long_arith(crate::syntax::ast::BOp::Sub, zero, x.clone(), ty, span);
        let (nl, nh) = halves(&minus.e);
        let (pl, ph) = halves(&x.e);
        let cond = bin(BinOp::Ne, neg, num(0, span), span);
        let pick = |a: k::Expr, b: k::Expr| kx(k::ExprKind::Cond(Box::new(cond.clone()), Box::new(a), Box::new(b)), span);
        self.bind_long(Val { e: pair(pick(nl, pl), pick(nh, ph), span), ty }, span)
    }
}
