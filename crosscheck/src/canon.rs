//! Canonical forms of float terms: IEEE-exact rewrites always (commutativity of `fadd` and
//! `fmul`, `x - y` as `x + (-y)`, `-(-x)` as `x`, operations on constants folded), and the
//! rewrites of the assumptions the user names (`float-reassoc`: sums and products as real
//! ones, sorted multisets with their identities dropped, constants folded and negation
//! distributed over sums; `mul-zero`: `x * 0 = 0` and `x + 0 = x`). Two terms with one canonical form
//! are equal on every input (under the assumptions named), since each rewrite is.

use kpl_certify::vc::{Terms, Vc, Word};
use kpl_lang::ast::Builtin;
use egg::{Id, Language, Symbol};
use std::collections::HashMap;

/// The assumptions (KLEE-CL's) a crosscheck may use, each a set of rewrites.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Assumptions {
    /// Float addition and multiplication are associative (so sums and products may be
    /// reordered).
    pub reassoc: bool,
    /// `x * 0 = 0` and `x + 0 = x` (false for infinities, NaNs and the sign of zero).
    pub mul_zero: bool,
    /// Contraction changes no result: `fma(a, b, c)` is `a * b + c` (applied by the front
    /// end, `kpl_c::FrontOptions::contract`: no rewrite of the forms).
    pub fma: bool,
}

impl Assumptions {
    /// The names, as `--assume` spells them.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.reassoc {
            v.push("float-reassoc");
        }
        if self.mul_zero {
            v.push("mul-zero");
        }
        if self.fma {
            v.push("fma");
        }
        v
    }
    /// Does an assumption rewrite the canonical forms (so that a difference of bits may be
    /// one it excuses)?
    pub fn any(&self) -> bool {
        self.reassoc || self.mul_zero
    }
}

const SIGN: u32 = 0x8000_0000;

/// Canonical forms in one arena, each node once.
pub struct Canon {
    pub assume: Assumptions,
    memo: HashMap<Id, Id>,
}

impl Canon {
    pub fn new(assume: Assumptions) -> Canon {
        Canon { assume, memo: HashMap::new() }
    }

    /// The canonical form of `id` (a term of `t`, built in `t`).
    pub fn form(&mut self, t: &mut Terms, id: Id) -> Id {
        // Children before parents, without recursion (sums of thousands of terms are deep).
        let mut stack = vec![(id, false)];
        while let Some((n, ready)) = stack.pop() {
            if self.memo.contains_key(&n) {
                continue;
            }
            if !ready {
                stack.push((n, true));
                for c in t.node(n).children() {
                    if !self.memo.contains_key(c) {
                        stack.push((*c, false));
                    }
                }
                continue;
            }
            let node = t.node(n).clone().map_children(|c| self.memo[&c]);
            let r = self.rewrite(t, node);
            self.memo.insert(n, r);
        }
        self.memo[&id]
    }

    fn rewrite(&mut self, t: &mut Terms, node: Vc) -> Id {
        match &node {
            // -(-x) = x (a sign flip twice).
            Vc::BvXor([a, m]) if word(t, *m) == Some(SIGN) => {
                if let Vc::BvXor([x, m2]) = t.node(*a).clone() {
                    if word(t, m2) == Some(SIGN) {
                        return x;
                    }
                }
                // Under `float-reassoc`, -(x + y) = (-x) + (-y): sums as real sums.
                if self.assume.reassoc {
                    if let Vc::App(g, args) = t.node(*a).clone() {
                        if g.as_str() == "fadd" && args.len() == 2 {
                            let m = *m;
                            let nx = self.rewrite(t, Vc::BvXor([args[0], m]));
                            let ny = self.rewrite(t, Vc::BvXor([args[1], m]));
                            return self.sum_or_product(t, Builtin::Fadd, nx, ny);
                        }
                    }
                }
                t.add(node)
            }
            Vc::App(f, args) => {
                let Some(b) = Builtin::from_name(f.as_str()) else { return t.add(node) };
                let consts: Vec<Option<u32>> = args.iter().map(|a| word(t, *a)).collect();
                if b.is_float() && consts.iter().all(|c| c.is_some()) && !args.is_empty() {
                    // An operation on constants: its value (KPL's meaning, exactly).
                    let x = consts[0].unwrap_or(0);
                    let y = consts.get(1).copied().flatten().unwrap_or(0);
                    return t.word(kpl_lang::ops::builtin(b, x, y));
                }
                match (b, args.as_slice()) {
                    // x - y = x + (-y), exactly (IEEE 754 defines subtraction so).
                    (Builtin::Fsub, [x, y]) => {
                        let m = t.word(SIGN);
                        let neg = self.rewrite(t, Vc::BvXor([*y, m]));
                        self.rewrite(t, Vc::App(Symbol::from("fadd"), vec![*x, neg]))
                    }
                    (Builtin::Fadd | Builtin::Fmul, [x, y]) => self.sum_or_product(t, b, *x, *y),
                    _ => t.add(node),
                }
            }
            _ => t.add(node),
        }
    }

    /// `fadd`/`fmul` of canonical operands: commuted into order; under `float-reassoc` a
    /// chain of one operation flattened, its operands sorted; under `mul-zero` zeros applied.
    fn sum_or_product(&mut self, t: &mut Terms, b: Builtin, x: Id, y: Id) -> Id {
        let name = Symbol::from(b.name());
        let zero = |t: &Terms, v: Id| word(t, v).is_some_and(|w| w & !SIGN == 0);
        if self.assume.mul_zero {
            if b == Builtin::Fmul && (zero(t, x) || zero(t, y)) {
                return t.word(0);
            }
            if b == Builtin::Fadd && zero(t, y) {
                return x;
            }
            if b == Builtin::Fadd && zero(t, x) {
                return y;
            }
        }
        let mut ops = Vec::new();
        for v in [x, y] {
            match t.node(v) {
                Vc::App(g, args) if self.assume.reassoc && *g == name && args.len() == 2 => {
                    flatten(t, v, name, &mut ops);
                }
                _ => ops.push(v),
            }
        }
        if self.assume.reassoc {
            // Sums and products as real ones: their identities dropped (`x + 0`, `x * 1`,
            // which differ from `x` only in a zero's sign or a NaN's bits), their constants
            // folded into one.
            let identity = |w: u32| if b == Builtin::Fadd { w & !SIGN == 0 } else { w == 1.0f32.to_bits() };
            let mut constant: Option<u32> = None;
            ops.retain(|&o| match word(t, o) {
                Some(w) if identity(w) => false,
                Some(w) => {
                    constant = Some(match constant {
                        Some(c) => kpl_lang::ops::builtin(b, c, w),
                        None => w,
                    });
                    false
                }
                None => true,
            });
            if let Some(c) = constant.filter(|c| !identity(*c)) {
                ops.push(t.word(c));
            }
            if ops.is_empty() {
                return t.word(if b == Builtin::Fadd { 0 } else { 1.0f32.to_bits() });
            }
        }
        ops.sort();
        let mut acc = ops[0];
        for &o in &ops[1..] {
            acc = t.add(Vc::App(name, vec![acc, o]));
        }
        acc
    }
}

/// The operands of a left-nested chain of `name` (a canonical sum or product).
fn flatten(t: &Terms, v: Id, name: Symbol, out: &mut Vec<Id>) {
    let mut cur = v;
    loop {
        match t.node(cur) {
            Vc::App(g, args) if *g == name && args.len() == 2 => {
                out.push(args[1]);
                cur = args[0];
            }
            _ => {
                out.push(cur);
                return;
            }
        }
    }
}

fn word(t: &Terms, id: Id) -> Option<u32> {
    match t.node(id) {
        Vc::Word(Word(w)) => Some(*w),
        _ => None,
    }
}

/// Does the term use an operation whose result an exact evaluation on small integers does
/// not keep exact (a division, a square root, a conversion)?
pub fn inexact_on_integers(t: &Terms, id: Id) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![id];
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        if let Vc::App(f, _) = t.node(n) {
            if !matches!(f.as_str(), "fadd" | "fsub" | "fmul" | "fneg" | "fabs" | "fmin" | "fmax" | "flt" | "fle" | "feq") {
                return true;
            }
        }
        stack.extend(t.node(n).children().iter().copied());
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpl_certify::vc::Sort;

    fn f(t: &mut Terms, name: &str, a: Id, b: Id) -> Id {
        t.add(Vc::App(Symbol::from(name), vec![a, b]))
    }

    #[test]
    fn exact_rewrites_and_assumptions() {
        let mut t = Terms::default();
        let (a, b, c) = (t.var("a", Sort::Word), t.var("b", Sort::Word), t.var("c", Sort::Word));
        let ab = f(&mut t, "fadd", a, b);
        let ba = f(&mut t, "fadd", b, a);
        let ab_c = f(&mut t, "fadd", ab, c);
        let bc = f(&mut t, "fadd", b, c);
        let a_bc = f(&mut t, "fadd", a, bc);
        let mut exact = Canon::new(Assumptions::default());
        assert_eq!(exact.form(&mut t, ab), exact.form(&mut t, ba));
        assert_ne!(exact.form(&mut t, ab_c), exact.form(&mut t, a_bc));
        let mut re = Canon::new(Assumptions { reassoc: true, ..Default::default() });
        assert_eq!(re.form(&mut t, ab_c), re.form(&mut t, a_bc));
        // a - b = a + (-b); -(-b) = b.
        let sub = f(&mut t, "fsub", a, b);
        let m = t.word(SIGN);
        let nb = t.add(Vc::BvXor([b, m]));
        let add = f(&mut t, "fadd", a, nb);
        assert_eq!(exact.form(&mut t, sub), exact.form(&mut t, add));
        let nnb = t.add(Vc::BvXor([nb, m]));
        assert_eq!(exact.form(&mut t, nnb), b);
        // x * 0 only under mul-zero.
        let z = t.word(0);
        let az = f(&mut t, "fmul", a, z);
        let azc = f(&mut t, "fadd", az, c);
        assert_ne!(exact.form(&mut t, azc), c);
        let mut mz = Canon::new(Assumptions { mul_zero: true, ..Default::default() });
        assert_eq!(mz.form(&mut t, azc), c);
        // Under float-reassoc, a sum's zero and a negated sum are real ones'.
        let zero = t.word(0);
        let z_ab = f(&mut t, "fadd", zero, ab);
        assert_eq!(re.form(&mut t, z_ab), re.form(&mut t, ab));
        assert_ne!(exact.form(&mut t, z_ab), exact.form(&mut t, ab));
        let neg_ab = t.add(Vc::BvXor([ab, m]));
        let na = t.add(Vc::BvXor([a, m]));
        let na_nb = f(&mut t, "fadd", na, nb);
        assert_eq!(re.form(&mut t, neg_ab), re.form(&mut t, na_nb));
        // Constants fold exactly.
        let (one, two) = (t.word(1.0f32.to_bits()), t.word(2.0f32.to_bits()));
        let three = f(&mut t, "fadd", one, two);
        let folded = exact.form(&mut t, three);
        assert_eq!(t.node(folded), &Vc::Word(Word(3.0f32.to_bits())));
    }
}
