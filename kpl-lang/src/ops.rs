//! The meaning of KPL's operators on 32-bit words (KPL.md, "Meaning"): the SMT-LIB
//! bit-vector rules, so the interpreter, the verifier and the simplifier agree.

use crate::ast::{BinOp, Builtin, UnOp};

pub fn unary(op: UnOp, a: u32) -> u32 {
    match op {
        UnOp::Not => (a == 0) as u32,
        UnOp::BitNot => !a,
        UnOp::Neg => a.wrapping_neg(),
    }
}

pub fn binary(op: BinOp, a: u32, b: u32) -> u32 {
    use BinOp::*;
    match op {
        LOr => (a != 0 || b != 0) as u32,
        LAnd => (a != 0 && b != 0) as u32,
        BitOr => a | b,
        BitXor => a ^ b,
        BitAnd => a & b,
        Eq => (a == b) as u32,
        Ne => (a != b) as u32,
        Lt => (a < b) as u32,
        Le => (a <= b) as u32,
        Gt => (a > b) as u32,
        Ge => (a >= b) as u32,
        Shl => shl(a, b),
        Shr => lshr(a, b),
        Add => a.wrapping_add(b),
        Sub => a.wrapping_sub(b),
        Mul => a.wrapping_mul(b),
        Div => udiv(a, b),
        Rem => urem(a, b),
    }
}

/// A built-in on its arguments (`b` is ignored by the unary ones).
pub fn builtin(f: Builtin, a: u32, b: u32) -> u32 {
    use Builtin::*;
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    match f {
        Slt => ((a as i32) < (b as i32)) as u32,
        Sle => ((a as i32) <= (b as i32)) as u32,
        Sgt => ((a as i32) > (b as i32)) as u32,
        Sge => ((a as i32) >= (b as i32)) as u32,
        Sdiv => sdiv(a, b),
        Srem => srem(a, b),
        Ashr => ashr(a, b),
        Min => a.min(b),
        Max => a.max(b),
        Implies => (a == 0 || b != 0) as u32,
        Fadd => canonical(x + y),
        Fsub => canonical(x - y),
        Fmul => canonical(x * y),
        Fdiv => canonical(x / y),
        Fneg => a ^ 0x8000_0000,
        Fabs => a & 0x7fff_ffff,
        Flt => (x < y) as u32,
        Fle => (x <= y) as u32,
        Feq => (x == y) as u32,
        // NaN loses to a number; otherwise the comparison decides (so -0.0 and 0.0 keep
        // their order as given, exactly as the emitted OpenCL and CUDA code computes it).
        Fmin => canonical(if x.is_nan() { y } else if y.is_nan() || x < y { x } else { y }),
        Fmax => canonical(if x.is_nan() { y } else if y.is_nan() || x > y { x } else { y }),
        Fsqrt => canonical(x.sqrt()),
        Itof => (a as i32 as f32).to_bits(),
        Utof => (a as f32).to_bits(),
        // Out of range and NaN saturate (Rust's `as`); C leaves them undefined.
        Ftoi => x as i32 as u32,
        Ftou => x as u32,
        // Two-thread built-ins are evaluated over pairs by the interpreter; one thread
        // alone is its own pair and is enabled where it runs.
        Other => a,
        Enabled => 1,
        // The interpreter does not evaluate access predicates (it skips what uses them).
        Written | WasRead | WriteIndex | ReadIndex | Taken => 0,
    }
}

/// The value an atomic leaves in the element, from the element's old value and the
/// operands (`cas`: compare, new value). The atomic gives back `old`.
pub fn atomic(op: crate::ast::AtomicOp, old: u32, args: &[u32]) -> u32 {
    use crate::ast::AtomicOp::*;
    let v = args.first().copied().unwrap_or(0);
    match op {
        // CUDA: atomicInc(p, lim) is ((old >= lim) ? 0 : old + 1); atomicDec(p, lim) is
        // ((old == 0) || (old > lim)) ? lim : old - 1.
        Inc => {
            if old >= v {
                0
            } else {
                old + 1
            }
        }
        Dec => {
            if old == 0 || old > v {
                v
            } else {
                old - 1
            }
        }
        Fadd => canonical(f32::from_bits(old) + f32::from_bits(v)),
        _ => integer_atomic(op, old as u64, [0, 1].map(|k| args.get(k).copied().unwrap_or(0) as u64), 32) as u32,
    }
}

/// `atomic` on a 64-bit element (operands and result as 64-bit integers; `smin`/`smax`
/// compare signed). Only the operations with a 64-bit form (`AtomicOp::has_wide`).
pub fn atomic64(op: crate::ast::AtomicOp, old: u64, args: &[u64]) -> u64 {
    integer_atomic(op, old, [0, 1].map(|k| args.get(k).copied().unwrap_or(0)), 64)
}

/// `atomic` or `atomic64` by the shape's width: the value an atomic of that shape leaves,
/// from the old value and the operands (each a 64-bit value when the shape is 64-bit).
pub fn atomic_value(op: crate::ast::AtomicOp, shape: crate::ast::AtomicShape, old: u64, args: &[u64]) -> u64 {
    if shape.wide {
        atomic64(op, old, args)
    } else {
        let words: Vec<u32> = args.iter().map(|&a| a as u32).collect();
        atomic(op, old as u32, &words) as u64
    }
}

/// The integer atomics on `bits`-bit elements (32 or 64; the operands, `cas`'s compared
/// value and new value, zero-extended); `inc`, `dec` and `fadd` (no 64-bit form, the
/// checker refuses them there) leave the element as it is.
fn integer_atomic(op: crate::ast::AtomicOp, old: u64, [v, w]: [u64; 2], bits: u32) -> u64 {
    use crate::ast::AtomicOp::*;
    let mask = u64::MAX >> (64 - bits);
    let signed = |x: u64| ((x << (64 - bits)) as i64) >> (64 - bits);
    let new = match op {
        Add => old.wrapping_add(v),
        Sub => old.wrapping_sub(v),
        Xchg => v,
        Min => old.min(v),
        Max => old.max(v),
        Smin => if signed(old) <= signed(v) { old } else { v },
        Smax => if signed(old) >= signed(v) { old } else { v },
        Cas => {
            if old == v {
                w
            } else {
                old
            }
        }
        And => old & v,
        Or => old | v,
        Xor => old ^ v,
        Inc | Dec | Fadd => old,
    };
    new & mask
}

/// The canonical NaN: every float operation whose result is a NaN gives this word, as
/// NVIDIA's GPUs do (CPUs keep an operand's payload, or make 0xFFC00000), so that the
/// interpreter, CPU OpenCL and GPUs compute the same bits (`fneg` and `fabs` are bit
/// operations and keep the payload everywhere).
pub const CANONICAL_NAN: u32 = 0x7FFF_FFFF;

fn canonical(f: f32) -> u32 {
    if f.is_nan() {
        CANONICAL_NAN
    } else {
        f.to_bits()
    }
}

/// `bvudiv`: division by zero gives all ones.
pub fn udiv(a: u32, b: u32) -> u32 {
    a.checked_div(b).unwrap_or(u32::MAX)
}

/// `bvurem`: remainder by zero gives the dividend.
pub fn urem(a: u32, b: u32) -> u32 {
    a.checked_rem(b).unwrap_or(a)
}

pub fn shl(a: u32, b: u32) -> u32 {
    if b >= 32 {
        0
    } else {
        a << b
    }
}

pub fn lshr(a: u32, b: u32) -> u32 {
    if b >= 32 {
        0
    } else {
        a >> b
    }
}

/// `bvashr`: shifting by 32 or more gives 0 or all ones by the sign.
pub fn ashr(a: u32, b: u32) -> u32 {
    ((a as i32) >> b.min(31)) as u32
}

/// `bvsdiv`: truncating signed division; by zero, 1 for negative x and all ones otherwise;
/// `i32::MIN / -1` wraps to `i32::MIN`.
pub fn sdiv(a: u32, b: u32) -> u32 {
    let (x, y) = (a as i32, b as i32);
    if y == 0 {
        return if x < 0 { 1 } else { u32::MAX };
    }
    x.wrapping_div(y) as u32
}

/// `bvsrem`: the remainder takes the dividend's sign; by zero it is the dividend.
pub fn srem(a: u32, b: u32) -> u32 {
    let (x, y) = (a as i32, b as i32);
    if y == 0 {
        return a;
    }
    x.wrapping_rem(y) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_zero_follows_smt_lib() {
        assert_eq!(udiv(7, 0), u32::MAX);
        assert_eq!(urem(7, 0), 7);
        assert_eq!(sdiv(-7i32 as u32, 0), 1);
        assert_eq!(sdiv(7, 0), u32::MAX);
        assert_eq!(srem(-7i32 as u32, 0), -7i32 as u32);
        assert_eq!(sdiv(i32::MIN as u32, u32::MAX), i32::MIN as u32);
        assert_eq!(srem(i32::MIN as u32, u32::MAX), 0);
    }

    #[test]
    fn shifts_by_32_or_more() {
        assert_eq!(shl(1, 32), 0);
        assert_eq!(lshr(u32::MAX, 40), 0);
        assert_eq!(ashr(0x8000_0000, 32), u32::MAX);
        assert_eq!(ashr(0x7000_0000, 99), 0);
        assert_eq!(ashr(0x8000_0000, 4), 0xF800_0000);
    }

    #[test]
    fn floats_are_ieee_single_precision_on_the_bits() {
        let f = |x: f32| x.to_bits();
        assert_eq!(builtin(Builtin::Fadd, f(1.5), f(2.25)), f(3.75));
        assert_eq!(builtin(Builtin::Fneg, f(2.0), 0), f(-2.0));
        assert_eq!(builtin(Builtin::Flt, f(-1.0), f(0.0)), 1);
        assert_eq!(builtin(Builtin::Itof, -3i32 as u32, 0), f(-3.0));
        assert_eq!(builtin(Builtin::Ftoi, f(-3.7), 0), -3i32 as u32);
        assert_eq!(builtin(Builtin::Feq, f(0.0), f(-0.0)), 1);
    }

    #[test]
    fn a_nan_result_is_the_canonical_nan() {
        let f = |x: f32| x.to_bits();
        let payload = 0x7FC0_1234;
        assert_eq!(builtin(Builtin::Fdiv, f(0.0), f(0.0)), CANONICAL_NAN);
        assert_eq!(builtin(Builtin::Fadd, payload, f(1.0)), CANONICAL_NAN);
        assert_eq!(builtin(Builtin::Fsqrt, f(-1.0), 0), CANONICAL_NAN);
        assert_eq!(builtin(Builtin::Fmin, payload, payload), CANONICAL_NAN);
        assert_eq!(builtin(Builtin::Fmin, payload, f(2.0)), f(2.0));
        // Bit operations keep the payload, as on every device.
        assert_eq!(builtin(Builtin::Fneg, payload, 0), payload ^ 0x8000_0000);
    }

    #[test]
    fn signed_remainder_takes_dividend_sign() {
        assert_eq!(srem(-7i32 as u32, 2) as i32, -1);
        assert_eq!(srem(7, -2i32 as u32) as i32, 1);
        assert_eq!(sdiv(-7i32 as u32, 2) as i32, -3);
    }
}

/// The segment width a shuffle works in: `width`, or the warp's `warp` lanes when `width`
/// is 0 or wider than the warp.
pub fn shuffle_width(width: u32, warp: u32) -> u32 {
    if width == 0 || width > warp {
        warp
    } else {
        width
    }
}

/// The lane a shuffle of thread lane `lane` reads from (CUDA's `__shfl*_sync`, in segments
/// of `width` lanes): `shfl` the operand's lane within the reader's segment; `shfl_up` and
/// `shfl_down` the lane `delta` below or above when it is in the segment, else the reader's
/// own; `shfl_xor` `lane ^ m` unless that is past the reader's segment (then its own).
pub fn shuffle_source(op: crate::ast::WarpOp, lane: u32, operand: u32, width: u32, warp: u32) -> u32 {
    use crate::ast::WarpOp::*;
    let w = shuffle_width(width, warp);
    let pos = lane % w;
    let seg = lane - pos;
    match op {
        Shfl => seg + operand % w,
        ShflUp if pos >= operand => lane - operand,
        ShflDown if operand < w - pos => lane + operand,
        ShflXor if (lane ^ operand) < seg + w => lane ^ operand,
        _ => lane,
    }
}

/// Whether lane `lane` is named in a warp mask (lanes past 31 never are).
pub fn in_mask(mask: u32, lane: u32) -> bool {
    lane < 32 && (mask >> lane) & 1 == 1
}
