//! `float_z3.rs` gives each float built-in exactly the meaning `kpl_lang::ops` gives it:
//! on special values (zeros, infinities, NaNs of several payloads, the edges of the integer
//! ranges) and random words, Z3's simplified term is the interpreter's word.

use kpl_certify::float_z3::apply;
use kpl_lang::ast::Builtin;
use kpl_lang::rng::Rng;
use z3::ast::{Ast, BV};

fn words() -> Vec<u32> {
    let mut v: Vec<u32> = [0.0f32, -0.0, 1.0, -1.0, 0.5, 1.5, -2.5, 3.0, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, f32::MIN_POSITIVE, 1e-45, 2147483648.0, -2147483648.0, 2147483520.0, 4294967296.0, 4294967040.0, -0.75, 16777217.0]
        .iter()
        .map(|x| x.to_bits())
        .collect();
    v.extend([0x7fc0_0000, 0x7fff_ffff, 0xffc0_0001, 0x7f80_0001, 5, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff - 1]);
    let mut r = Rng::new(7);
    v.extend((0..24).map(|_| r.next_u32()));
    v
}

#[test]
fn every_float_built_in_agrees_with_the_interpreter() {
    let ws = words();
    for f in Builtin::ALL.iter().copied().filter(|f| f.is_float()) {
        let seconds: Vec<u32> = if f.arity() == 1 { vec![0] } else { ws.clone() };
        for &a in &ws {
            for &b in seconds.iter().step_by(if f.arity() == 1 { 1 } else { 3 }) {
                let args = if f.arity() == 1 { vec![BV::from_u64(a as u64, 32)] } else { vec![BV::from_u64(a as u64, 32), BV::from_u64(b as u64, 32)] };
                let t = apply(f.name(), &args).unwrap_or_else(|| panic!("{} has no meaning", f.name()));
                let got = t.simplify().as_u64().unwrap_or_else(|| panic!("{}({a:#x}, {b:#x}) does not simplify to a word: {t}", f.name())) as u32;
                let want = kpl_lang::ops::builtin(f, a, b);
                assert_eq!(got, want, "{}({a:#010x}, {b:#010x}) = {got:#010x} in Z3, {want:#010x} in the interpreter", f.name());
            }
        }
    }
}
