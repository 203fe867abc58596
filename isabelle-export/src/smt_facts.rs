//! Facts the SMT oracle needs about KPL's operators. Isabelle's SMT translation maps word
//! `+ - * AND OR XOR NOT < ≤` onto SMT-LIB bit-vectors (with `z3_extensions`), but not `div`,
//! `mod` or `sint`, and its shifts by numerals fail in the Isabelle we check with: left alone,
//! `kpl_udiv` and friends are uninterpreted functions to z3, which then finds spurious
//! counterexamples. For each use with a literal right operand this writes a lemma, proved
//! in Isabelle's kernel, restating it with operators the translation knows (`kpl_udiv a 64
//! * 64 + (a AND 63) = a` with `kpl_udiv a 64 < 2^26`, `kpl_urem a 64 = a AND 63`,
//! `kpl_shl a 3 = a * 8`); for other divisors it hands the oracle `kpl_div_mod_smt` (the
//! quotient and remainder characterized in 64 bits), and signed comparisons restated as
//! `<s`/`<=s` (`kpl_slt_smt`), which it maps onto `bvslt`/`bvsle`. Arrays written in a VC
//! are function updates, which z3 sees as uninterpreted unless given `fun_upd_apply`.

use crate::vc_to_isabelle::literal;
use kpl_lang::sexp::Sx;
use std::collections::BTreeSet;

/// The operator instances a set of terms uses: `(operator, literal right operand)`, and the
/// operators used with other right operands or with no restatement.
#[derive(Default)]
pub struct Uses {
    pub literal: BTreeSet<(String, u32)>,
    pub other: BTreeSet<String>,
}

impl Uses {
    pub fn add(&mut self, t: &Sx) {
        if let Sx::List(_) = t {
            let h = t.head();
            let a = t.args();
            match (h, a.get(1).and_then(|x| if let Sx::Atom(s) = x { literal(s) } else { None })) {
                ("bvudiv" | "bvurem" | "bvshl" | "bvlshr", Some(c)) if a.len() == 2 => {
                    self.literal.insert((h.to_string(), c));
                }
                ("bvudiv" | "bvurem" | "bvshl" | "bvlshr" | "bvashr" | "bvsdiv" | "bvsrem" | "bvslt" | "bvsle" | "store", _) => {
                    self.other.insert(h.to_string());
                }
                _ => {}
            }
            for x in a {
                self.add(x);
            }
        }
    }
}

/// The name of the lemma restating `op` with right operand `c`.
pub fn lemma_name(op: &str, c: u32) -> String {
    format!("op_{}_{c}", op.trim_start_matches("bv"))
}

/// The lemma for one instance, or `None` when the operator has no restatement at `c`
/// (a division or remainder by other than a power of two). A quotient by `2^k` is stated
/// by multiplication (`q * 2^k + (a AND (2^k - 1)) = a` with `q < 2^(32-k)`, which fixes
/// it), since the translation maps neither `div` nor, in the Isabelle we check with, shifts.
pub fn lemma(op: &str, c: u32) -> Option<String> {
    let pow2 = c.is_power_of_two().then(|| c.trailing_zeros());
    let name = lemma_name(op, c);
    let w = |n: u64| format!("({n}::32 word)");
    // `f a (2^k)` (or `f a k` for a shift) stated by multiplication, from kpl_udiv_pow2_smt.
    let quotient = |f: &str, arg: String, k: u32, link: &str| {
        format!(
            "lemma {name}: \"{f} a {arg} * {} + (a AND {}) = a \\<and> {f} a {arg} < {}\"\nproof -\n  \
             have q: \"kpl_udiv a (2 ^ {k}) * 2 ^ {k} + (a AND (2 ^ {k} - 1)) = a \\<and> unat (kpl_udiv a (2 ^ {k})) < 2 ^ (32 - {k})\"\n    \
             by (rule kpl_udiv_pow2_smt) simp\n{link}  show ?thesis using q by (simp add: word_less_nat_alt{})\nqed\n",
            w(1u64 << k),
            w((1u64 << k) - 1),
            w(1u64 << (32 - k)),
            if link.is_empty() { "" } else { " l" }
        )
    };
    let text = match (op, pow2) {
        ("bvudiv", Some(0)) => format!("lemma {name}: \"kpl_udiv a {} = a\"\n  by (simp add: kpl_udiv_def)\n", w(1)),
        ("bvudiv", Some(k)) => quotient("kpl_udiv", w(c as u64), k, ""),
        ("bvurem", Some(k)) => format!(
            "lemma {name}: \"kpl_urem a {} = a AND {}\"\nproof -\n  have \"take_bit {k} a = a AND mask {k}\" by (rule take_bit_eq_mask)\n  \
             moreover have \"mask {k} = {}\" by (simp add: mask_numeral)\n  \
             moreover have \"take_bit {k} a = a mod {}\" by (simp add: take_bit_eq_mod)\n  \
             ultimately show ?thesis by (simp add: kpl_urem_def)\nqed\n",
            w(c as u64),
            w(c as u64 - 1),
            w(c as u64 - 1),
            w(c as u64)
        ),
        ("bvshl", _) if c < 32 => {
            format!("lemma {name}: \"kpl_shl a {} = a * {}\"\n  by (simp add: kpl_shl_def push_bit_eq_mult)\n", w(c as u64), w(1u64 << c))
        }
        ("bvlshr", _) if c == 0 => format!("lemma {name}: \"kpl_lshr a {} = a\"\n  by (simp add: kpl_lshr_def)\n", w(0)),
        ("bvlshr", _) if c < 32 => quotient(
            "kpl_lshr",
            w(c as u64),
            c,
            &format!("  have l: \"kpl_lshr a {} = kpl_udiv a (2 ^ {c})\" by (simp add: kpl_lshr_def kpl_udiv_def drop_bit_eq_div)\n", w(c as u64)),
        ),
        ("bvshl", _) => format!("lemma {name}: \"kpl_shl a {} = 0\"\n  by (simp add: kpl_shl_def)\n", w(c as u64)),
        ("bvlshr", _) => format!("lemma {name}: \"kpl_lshr a {} = 0\"\n  by (simp add: kpl_lshr_def)\n", w(c as u64)),
        _ => return None,
    };
    Some(text)
}

/// The general facts to hand the oracle for the uses no literal restatement covers: the
/// 64-bit characterization of unsigned division and remainder (`kpl_div_mod_smt`), and the
/// signed comparisons restated as the translation's `<s` and `<=s`.
pub fn definitions(u: &Uses) -> Vec<&'static str> {
    let mut v = Vec::new();
    let unrestated_division = u.literal.iter().any(|(op, c)| (op == "bvudiv" || op == "bvurem") && lemma(op, *c).is_none());
    if u.other.contains("bvudiv") || u.other.contains("bvurem") || unrestated_division {
        v.push("kpl_div_mod_smt");
    }
    if u.other.contains("bvslt") {
        v.push("kpl_slt_smt");
    }
    if u.other.contains("bvsle") {
        v.push("kpl_sle_smt");
    }
    // An array written in the VC is a function update: z3 needs what reading one gives.
    if u.other.contains("store") {
        v.push("fun_upd_apply");
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_operands_get_a_restatement() {
        let mut u = Uses::default();
        u.add(&Sx::parse("(and (bvult (bvudiv x 64) (bvurem y 3)) (bvslt (bvshl z 3) (bvudiv z w)))").unwrap());
        let lits: Vec<_> = u.literal.iter().cloned().collect();
        assert_eq!(lits, vec![("bvshl".to_string(), 3), ("bvudiv".to_string(), 64), ("bvurem".to_string(), 3)]);
        assert!(u.other.contains("bvslt") && u.other.contains("bvudiv"));
        assert!(lemma("bvudiv", 64).unwrap().contains("kpl_udiv a (64::32 word) * (64::32 word) + (a AND (63::32 word)) = a"));
        assert!(lemma("bvudiv", 64).unwrap().contains("kpl_udiv a (64::32 word) < (67108864::32 word)"));
        assert!(lemma("bvurem", 64).unwrap().contains("= a AND (63::32 word)"));
        assert!(lemma("bvurem", 3).is_none());
        assert!(lemma("bvshl", 40).unwrap().contains("= 0"));
        assert_eq!(definitions(&u), vec!["kpl_div_mod_smt", "kpl_slt_smt"]);
        let mut only_pow2 = Uses::default();
        only_pow2.add(&Sx::parse("(bvult (bvudiv x 64) y)").unwrap());
        assert!(definitions(&only_pow2).is_empty());
        let mut by3 = Uses::default();
        by3.add(&Sx::parse("(bvult (bvurem x 3) y)").unwrap());
        assert_eq!(definitions(&by3), vec!["kpl_div_mod_smt"]);
    }
}
