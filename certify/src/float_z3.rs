//! KPL's float built-ins on 32-bit words (`kpl_lang::ops`) as Z3's IEEE 754 arithmetic,
//! bit for bit: a word read as a `Float32` as it lies in memory, results rounded to
//! nearest-even, every NaN result the canonical NaN, conversions saturating as KPL's do.
//! For the queries that must decide floats exactly (`kpl crosscheck`'s paths and outputs).

use z3::ast::{Ast, Bool, Float, RoundingMode, BV};
use z3::Sort;

/// Is `name` a float built-in this module gives a meaning (a `Vc::App` name)?
pub fn is_exact_float(name: &str) -> bool {
    matches!(name, "fadd" | "fsub" | "fmul" | "fdiv" | "fsqrt" | "fmin" | "fmax" | "flt" | "fle" | "feq" | "itof" | "utof" | "ftoi" | "ftou" | "fneg" | "fabs")
}

fn float_of(w: &BV) -> Float {
    let ctx = w.get_ctx();
    // SAFETY: a bit-vector of 32 bits and the `Float32` sort of the same context, the
    // documented arguments of `Z3_mk_fpa_to_fp_bv`; the result is a new reference wrapped
    // (and counted) by `Float::wrap`.
    unsafe {
        let s = Sort::float32();
        let a = z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), w.get_z3_ast(), s.get_z3_sort()).expect("Z3_mk_fpa_to_fp_bv");
        Float::wrap(ctx, a)
    }
}

fn word_of(f: &Float) -> BV {
    let nan = BV::from_u64(kpl_lang::ops::CANONICAL_NAN as u64, 32);
    f.is_nan().ite(&nan, &f.to_ieee_bv())
}

fn bool_word(b: &Bool) -> BV {
    b.ite(&BV::from_u64(1, 32), &BV::from_u64(0, 32))
}

/// A conversion of an integer word to a float (`itof`: signed, `utof`: unsigned).
fn from_int(w: &BV, signed: bool) -> Float {
    let ctx = w.get_ctx();
    // SAFETY: as in `float_of`: a rounding mode, a 32-bit vector and the `Float32` sort.
    unsafe {
        let rm = RoundingMode::round_nearest_ties_to_even();
        let s = Sort::float32();
        let c = ctx.get_z3_context();
        let a = if signed {
            z3_sys::Z3_mk_fpa_to_fp_signed(c, rm.get_z3_ast(), w.get_z3_ast(), s.get_z3_sort())
        } else {
            z3_sys::Z3_mk_fpa_to_fp_unsigned(c, rm.get_z3_ast(), w.get_z3_ast(), s.get_z3_sort())
        }
        .expect("Z3_mk_fpa_to_fp_int");
        Float::wrap(ctx, a)
    }
}

/// A float built-in applied to word terms, as a word term; `None` for another name.
pub fn apply(name: &str, args: &[BV]) -> Option<BV> {
    let rne = RoundingMode::round_nearest_ties_to_even();
    let x = args.first().map(float_of)?;
    let y = || args.get(1).map(float_of);
    let w = match name {
        "fadd" => word_of(&x.add_with_rounding_mode(y()?, &rne)),
        "fsub" => word_of(&x.sub_with_rounding_mode(y()?, &rne)),
        "fmul" => word_of(&x.mul_with_rounding_mode(y()?, &rne)),
        "fdiv" => word_of(&x.div_with_rounding_mode(y()?, &rne)),
        "fsqrt" => word_of(&x.sqrt_with_rounding_mode(&rne)),
        "fneg" => args[0].bvxor(BV::from_u64(0x8000_0000, 32)),
        "fabs" => args[0].bvand(BV::from_u64(0x7fff_ffff, 32)),
        "flt" => bool_word(&x.lt(&y()?)),
        "fle" => bool_word(&x.le(&y()?)),
        "feq" => bool_word(&x.eq_fpa(&y()?)),
        "fmin" | "fmax" => {
            // NaN loses to a number; otherwise the comparison decides (`ops::builtin`).
            let y = y()?;
            let better = if name == "fmin" { x.lt(&y) } else { x.gt(&y) };
            let pick_x = Bool::and(&[x.is_nan().not(), Bool::or(&[y.is_nan(), better])]);
            let r = pick_x.ite(&args[0], &args[1]);
            word_of(&float_of(&r))
        }
        "itof" => word_of(&from_int(&args[0], true)),
        "utof" => word_of(&from_int(&args[0], false)),
        "ftoi" => {
            // Rust's `as`: NaN to 0, out of range saturated, else toward zero.
            let top = Float::from_f32(2147483648.0);
            let bottom = Float::from_f32(-2147483648.0);
            let cut = x.to_sbv_with_rounding_mode(&RoundingMode::round_towards_zero(), 32);
            let sat = x.ge(&top).ite(&BV::from_u64(i32::MAX as u32 as u64, 32), &x.lt(&bottom).ite(&BV::from_u64(i32::MIN as u32 as u64, 32), &cut));
            x.is_nan().ite(&BV::from_u64(0, 32), &sat)
        }
        "ftou" => {
            let top = Float::from_f32(4294967296.0);
            let zero = Float::from_f32(0.0);
            let cut = x.to_ubv_with_rounding_mode(&RoundingMode::round_towards_zero(), 32);
            let sat = x.ge(&top).ite(&BV::from_u64(u32::MAX as u64, 32), &cut);
            Bool::or(&[x.is_nan(), x.le(&zero)]).ite(&BV::from_u64(0, 32), &sat)
        }
        _ => return None,
    };
    Some(w)
}
