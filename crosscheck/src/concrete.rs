//! Concrete runs of both sides in the interpreter, on one input: their outputs compared bit
//! for bit, and the inputs a search tries where the terms do not decide (float inputs
//! drawn at random; small integers where an assumption is named, so that no rounding can
//! hide or make a difference).

use kpl_lang::rng::Rng;
use kpl_semantics::report::{ArrayContents, RunResult};
use kpl_semantics::{sdv, Inputs, Program};
use std::collections::BTreeMap;

/// Where the two sides' outputs first differ: array, element, the kernel's value, the
/// reference's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub array: String,
    pub index: u32,
    pub kernel: u32,
    pub reference: u32,
}

/// Both sides run on one input.
pub struct Runs {
    pub kernel: RunResult,
    pub reference: RunResult,
}

pub fn run_both(kernel: &Program, reference: &Program, inputs: &Inputs, ko: &sdv::Options, ro: &sdv::Options) -> Runs {
    Runs { kernel: sdv::run(kernel, inputs.clone(), ko), reference: sdv::run(reference, inputs.clone(), ro) }
}

/// The elements of an array at the end of a run (global arrays only).
fn elements(mem: &[(String, ArrayContents)], name: &str) -> BTreeMap<u32, u32> {
    match mem.iter().find(|(n, _)| n == name).map(|(_, c)| c) {
        Some(ArrayContents::Dense(v)) => v.iter().enumerate().map(|(i, w)| (i as u32, *w)).collect(),
        Some(ArrayContents::Sparse(m)) => m.clone(),
        _ => BTreeMap::new(),
    }
}

/// The first element of `outputs` where the two runs' final memories differ (an element
/// one run never touched has its initial value there).
pub fn difference(runs: &Runs, outputs: &[String], inputs: &Inputs) -> Option<Difference> {
    for name in outputs {
        let (k, r) = (elements(&runs.kernel.memory, name), elements(&runs.reference.memory, name));
        let mut idx: Vec<u32> = k.keys().chain(r.keys()).copied().collect();
        idx.sort_unstable();
        idx.dedup();
        for i in idx {
            let initial = || inputs.element(name, None, i);
            let (a, b) = (k.get(&i).copied().unwrap_or_else(initial), r.get(&i).copied().unwrap_or_else(initial));
            if a != b {
                return Some(Difference { array: name.clone(), index: i, kernel: a, reference: b });
            }
        }
    }
    None
}

/// The first of `places` (array, element) where the two runs' final memories differ.
pub fn difference_at(runs: &Runs, places: &[(String, u32)], inputs: &Inputs) -> Option<Difference> {
    for (name, i) in places {
        let (k, r) = (elements(&runs.kernel.memory, name), elements(&runs.reference.memory, name));
        let initial = || inputs.element(name, None, *i);
        let (a, b) = (k.get(i).copied().unwrap_or_else(initial), r.get(i).copied().unwrap_or_else(initial));
        if a != b {
            return Some(Difference { array: name.clone(), index: *i, kernel: a, reference: b });
        }
    }
    None
}

/// An input for the float variables `floats` (array, index) drawn by `rng`: a random float
/// of moderate size (roundings then differ where the order of operations does), or under
/// an assumption a small integer (every sum and product of such is exact).
pub fn variant(base: &Inputs, floats: &[(String, u32)], rng: &mut Rng, integers: bool) -> Inputs {
    let mut i = base.clone();
    for (a, k) in floats {
        let v = if integers {
            (rng.range(0, 9) as f32 - 4.0).to_bits()
        } else {
            let mag = (1u64 << rng.range(0, 10)) as f32 / 8.0;
            let frac = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
            let s = if rng.chance(1, 2) { -1.0 } else { 1.0 };
            (s * mag * (1.0 + frac)).to_bits()
        };
        i.set_element(a, None, *k, v);
    }
    i
}

/// Is this word a float that exact arithmetic on small integers gives: a whole number
/// below 2^22 in size?
pub fn small_whole(w: u32) -> bool {
    let x = f32::from_bits(w);
    x.is_finite() && x.fract() == 0.0 && x.abs() < (1u32 << 22) as f32
}
