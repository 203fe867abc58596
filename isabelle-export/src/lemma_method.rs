//! How a theory lemma `¬ (l1 ∧ ... ∧ ln)` is proved in Isabelle's kernel: the lemmas whose
//! atoms `unat_arith` decides (linear word arithmetic, division by literals,
//! products with a literal whose other factor the lemma bounds, remainders by literals as
//! opaque terms below the literal) or that hold by congruence alone (`metis`), and the
//! method text.

use crate::congruence;
use crate::names::Names;
use crate::vc_to_isabelle::{literal, term, word, Sort, Sorts};
use kpl_lang::sexp::Sx;
use std::collections::HashMap;

/// Proves a lemma `unat_arith` decides: signed comparisons become unsigned ones by the signs'
/// cases (`kpl_sle_cases`: no sums, so no overflow to split on) and division
/// its definition (`KPL_Ops`), then `simp` or `unat_arith` (words as
/// naturals below 2^32, overflow split off), after turning word equalities into equalities
/// of naturals when it needs that.
/// (`;`, not `,`, after the first step: when it proves the lemma outright, nothing is left
/// for the rest, which would fail on no goal.)
const LINEAR_METHOD: &str = "((simp only: kpl_slt_cases kpl_sle_cases kpl_udiv_def)?; ((simp; fail) | \
                             (insert kpl_two_pow_32, unat_arith) | (simp add: word_unat_eq_iff; insert kpl_two_pow_32; unat_arith)))";

/// Proves a lemma with products by literals, each bound so that it cannot overflow (the
/// `{facts}`, from `kpl_unat_mul_bound`): the lemma's equations substituted and its
/// comparisons taken over naturals, sums split on their overflow, and linear arithmetic.
/// `simp` first: a lemma that holds by equality alone (over opaque remainders, say) is lost
/// once `word_unat_eq_iff` has turned its equations into ones of naturals, and `unat_arith`
/// does not find it there.
const BOUNDED_METHOD: &str = "((simp only: kpl_slt_cases kpl_sle_cases kpl_udiv_def)?; ({facts}\
                              ((simp; fail) | (clarsimp simp: word_less_nat_alt word_le_nat_alt word_unat_eq_iff, simp add: unat_plus_if' unat_sub_if' split: if_splits; fail) | \
                              (insert kpl_two_pow_32, unat_arith))))";

/// Proves a lemma that holds by equality reasoning alone (`congruence`).
const CONGRUENCE_METHOD: &str = "((clarsimp; fail) | metis)";

const WORDS: u64 = 1 << 32;

/// A theory lemma (never empty: a core of literals that cannot hold together) as an Isabelle
/// proposition: `¬ (l1 ∧ ... ∧ ln)`.
pub fn lemma_prop(lits: &[(Sx, bool)], names: &mut Names) -> String {
    let parts: Vec<String> =
        lits.iter().map(|(a, holds)| if *holds { format!("({})", term(a, names)) } else { format!("(\\<not> ({}))", term(a, names)) }).collect();
    format!("\\<not> ({})", parts.join(" \\<and> "))
}

/// The method that proves the lemma in Isabelle's kernel, when the lemma is in the fragment
/// `unat_arith` decides quickly or holds by congruence alone; `None` when it is neither.
pub fn method(lits: &[(Sx, bool)], sorts: &Sorts, names: &mut Names) -> Option<String> {
    arithmetic_method(lits, sorts, names).or_else(|| congruence::contradictory(lits).then(|| CONGRUENCE_METHOD.to_string()))
}

/// The method for a lemma in `unat_arith`'s fragment.
fn arithmetic_method(lits: &[(Sx, bool)], sorts: &Sorts, names: &mut Names) -> Option<String> {
    let mut products = Vec::new();
    if !lits.iter().all(|(a, _)| linear(a, sorts, &mut products)) {
        return None;
    }
    // Each remainder by a literal is an opaque term known to be below the literal
    // (`kpl_urem_less`); the lemma search found the lemma knowing no more of it. Only in
    // lemmas without products or quotients: with both (`64 <= 32 * (x / 32) + (x + 1) % 32`)
    // `unat_arith` ran for over 15 minutes.
    let rems = remainders(lits);
    if !rems.is_empty() && lits.iter().any(|(a, _)| count(a, &["bvmul", "bvudiv"]) > 0) {
        return None;
    }
    let mut facts = String::new();
    for r in rems {
        let fact = format!("insert kpl_urem_less[of \"{}\" \"{}\"], ", term(&r.args()[1], names), term(&r.args()[0], names));
        if !facts.contains(&fact) {
            facts.push_str(&fact);
        }
    }
    // `unat_arith` splits each sum and difference on its overflow: a bound on the cases.
    if lits.iter().map(|(a, _)| count(a, &["bvadd", "bvsub"])).sum::<usize>() > MAX_SUMS {
        return None;
    }
    // ... and each signed comparison into its signs' three cases (`kpl_sle_cases`).
    if lits.iter().map(|(a, _)| count(a, &["bvslt", "bvsle"])).sum::<usize>() > MAX_SIGNED {
        return None;
    }
    let bounds = bounds(lits);
    for (x, k, literal_first) in products {
        // The other factor's bound `unat x < c`, with `c * k <= 2^32`: no overflow.
        let c = bound_of(&x, &bounds).filter(|c| c.checked_mul(k as u64).is_some_and(|p| p <= WORDS))?;
        let rule = if literal_first { "kpl_unat_mul_bound'" } else { "kpl_unat_mul_bound" };
        let fact = format!("insert {rule}[of \"{}\" {c} \"{}\"], ", term(&x, names), word(k));
        if !facts.contains(&fact) {
            facts.push_str(&fact);
        }
    }
    Some(if facts.is_empty() { LINEAR_METHOD.to_string() } else { BOUNDED_METHOD.replace("{facts}", &facts) })
}

/// At most this many sums and differences in a lemma proved by `unat_arith` (the corpus's
/// lemmas have at most 3).
const MAX_SUMS: usize = 6;

/// At most this many signed comparisons in a lemma proved by `unat_arith` (the corpus's
/// lemmas have at most 2).
const MAX_SIGNED: usize = 4;

/// The applications of these operators in a term.
fn count(t: &Sx, heads: &[&str]) -> usize {
    usize::from(heads.contains(&t.head()) && !t.args().is_empty()) + t.args().iter().map(|a| count(a, heads)).sum::<usize>()
}

/// Whether `unat_arith` decides a lemma over this atom quickly: comparisons (signed ones by
/// their signs' cases) and equalities of sums and differences of word variables and
/// literals, quotients by non-zero literals, and products of a term with a
/// literal (gathered in `products` as the term, the literal and whether it comes first; they
/// need a bound).
fn linear(t: &Sx, sorts: &Sorts, products: &mut Vec<(Sx, u32, bool)>) -> bool {
    match t {
        Sx::Atom(a) => literal(a).is_some() || sorts.of(a) == Sort::Word,
        Sx::List(_) => {
            let args = t.args();
            let lit = |x: &Sx| match x {
                Sx::Atom(a) => literal(a),
                _ => None,
            };
            match t.head() {
                "bvadd" | "bvsub" | "bvult" | "bvule" | "bvslt" | "bvsle" => args.iter().all(|x| linear(x, sorts, products)),
                "=" => args.len() == 2 && sorts.sort_of(&args[0]) == Some(Sort::Word) && args.iter().all(|x| linear(x, sorts, products)),
                // A remainder by a literal is an opaque term (`remainders`): `unat_arith` often
                // ran for minutes on the congruences that unfolding it brings (measured on
                // the corpus, 2026-11-26). Other remainders are left out.
                "bvurem" if args.len() == 2 => lit(&args[1]).is_some_and(|k| k != 0),
                "bvudiv" if args.len() == 2 => lit(&args[1]).is_some_and(|k| k != 0) && linear(&args[0], sorts, products),
                // A product of two terms sends `unat_arith` into non-linear arithmetic; with a
                // literal it is linear as long as it does not overflow.
                "bvmul" if args.len() == 2 => match (lit(&args[0]), lit(&args[1])) {
                    (_, Some(k)) => {
                        products.push((args[0].clone(), k, false));
                        linear(&args[0], sorts, products)
                    }
                    (Some(k), None) => {
                        products.push((args[1].clone(), k, true));
                        linear(&args[1], sorts, products)
                    }
                    _ => false,
                },
                _ => false,
            }
        }
    }
}

/// The remainders by literals in the lemma's atoms (outermost ones; a remainder is opaque,
/// so what is inside it does not matter).
fn remainders(lits: &[(Sx, bool)]) -> Vec<Sx> {
    fn walk(t: &Sx, out: &mut Vec<Sx>) {
        if t.head() == "bvurem" && t.args().len() == 2 {
            if !out.contains(t) {
                out.push(t.clone());
            }
            return;
        }
        if let Sx::List(_) = t {
            for a in t.args() {
                walk(a, out);
            }
        }
    }
    let mut out = Vec::new();
    for (a, _) in lits {
        walk(a, &mut out);
    }
    out
}

/// Exclusive upper bounds `unat t < c` that follow from the lemma's literals by interval
/// arithmetic: bounds by literals, and equations `v = e` with `e`'s bound from its parts'.
fn bounds(lits: &[(Sx, bool)]) -> HashMap<Sx, u64> {
    let mut ub: HashMap<Sx, u64> = HashMap::new();
    let lit = |x: &Sx| match x {
        Sx::Atom(a) => literal(a).map(u64::from),
        _ => None,
    };
    fn tighten(ub: &mut HashMap<Sx, u64>, t: &Sx, c: u64) -> bool {
        match ub.get(t) {
            Some(&old) if old <= c => false,
            _ => {
                ub.insert(t.clone(), c);
                true
            }
        }
    }
    for (a, holds) in lits {
        let [l, r] = a.args() else { continue };
        // t < c and not (c <= t) bound t by c; t <= c and not (c < t) by c + 1.
        let bound = match (a.head(), holds) {
            ("bvult", true) => lit(r).map(|c| (l, c)),
            ("bvule", true) => lit(r).map(|c| (l, c + 1)),
            ("bvule", false) => lit(l).map(|c| (r, c)),
            ("bvult", false) => lit(l).map(|c| (r, c + 1)),
            _ => None,
        };
        if let Some((t, c)) = bound {
            tighten(&mut ub, t, c);
        }
    }
    // Equations carry bounds from one side to the other, a few rounds.
    for _ in 0..4 {
        let mut changed = false;
        for (a, holds) in lits {
            if !holds || a.head() != "=" || a.args().len() != 2 {
                continue;
            }
            let (l, r) = (&a.args()[0], &a.args()[1]);
            if let Some(c) = bound_of(r, &ub) {
                changed |= tighten(&mut ub, l, c);
            }
            if let Some(c) = bound_of(l, &ub) {
                changed |= tighten(&mut ub, r, c);
            }
        }
        if !changed {
            break;
        }
    }
    ub
}

/// A term's exclusive upper bound from its parts' (sums and products that cannot overflow).
fn bound_of(t: &Sx, ub: &HashMap<Sx, u64>) -> Option<u64> {
    if let Some(&c) = ub.get(t) {
        return Some(c);
    }
    if let Sx::Atom(a) = t {
        return literal(a).map(|n| n as u64 + 1);
    }
    let args = t.args();
    let b = |i: usize| bound_of(&args[i], ub);
    let c = match (t.head(), args.len()) {
        ("bvadd", 2) => b(0)? + b(1)? - 1,
        ("bvmul", 2) => (b(0)? - 1).checked_mul(b(1)? - 1)? + 1,
        ("bvudiv", 2) => b(0)?,
        _ => return None,
    };
    (c <= WORDS).then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(s: &[(&str, bool)]) -> Vec<(Sx, bool)> {
        s.iter().map(|(a, h)| (Sx::parse(a).unwrap(), *h)).collect()
    }

    fn sorts_of(l: &[(Sx, bool)]) -> Sorts {
        let ts: Vec<&Sx> = l.iter().map(|(a, _)| a).collect();
        Sorts::infer(&ts, &[])
    }

    #[test]
    fn bounds_flow_through_equations_to_products() {
        // x < 16, g < 4, y = x + g * 16, 4096 <= y * 64
        let l = lits(&[
            ("(bvult x #x00000010)", true),
            ("(bvule #x00000004 g)", false),
            ("(= y (bvadd x (bvmul g #x00000010)))", true),
            ("(bvule #x00001000 (bvmul y #x00000040))", true),
        ]);
        let b = bounds(&l);
        assert_eq!(b.get(&Sx::atom("g")), Some(&4));
        assert_eq!(b.get(&Sx::atom("y")), Some(&64));
        let m = method(&l, &sorts_of(&l), &mut Names::default()).unwrap();
        assert!(m.contains("insert kpl_unat_mul_bound[of \"v_g\" 4 \"(16::32 word)\"]"), "{m}");
        assert!(m.contains("insert kpl_unat_mul_bound[of \"v_y\" 64 \"(64::32 word)\"]"), "{m}");
    }

    #[test]
    fn unbounded_or_overflowing_products_and_products_of_terms_have_no_method() {
        let unbounded = lits(&[("(= w (bvmul x #x00000010))", true), ("(bvult w #x00000010)", true)]);
        assert!(method(&unbounded, &sorts_of(&unbounded), &mut Names::default()).is_none());
        let overflowing = lits(&[("(bvult x #x10000000)", true), ("(bvult (bvmul x #x00000100) #x00000010)", true)]);
        assert!(method(&overflowing, &sorts_of(&overflowing), &mut Names::default()).is_none());
        let nonlinear = lits(&[("(bvult x #x00000010)", true), ("(bvult (bvmul x x) #x00000010)", true)]);
        assert!(method(&nonlinear, &sorts_of(&nonlinear), &mut Names::default()).is_none());
    }

    #[test]
    fn division_by_a_literal_is_linear_and_by_zero_or_a_term_is_not() {
        let ok = lits(&[("(bvult x #x00000010)", true), ("(bvule #x00000010 (bvudiv x #x00000002))", true)]);
        assert!(method(&ok, &sorts_of(&ok), &mut Names::default()).is_some());
        let zero = lits(&[("(bvult (bvudiv x #x00000000) #x00000010)", true)]);
        assert!(method(&zero, &sorts_of(&zero), &mut Names::default()).is_none());
        let term = lits(&[("(bvult (bvudiv x y) #x00000010)", true)]);
        assert!(method(&term, &sorts_of(&term), &mut Names::default()).is_none());
        // A remainder by a literal is opaque, with its bound; by zero or a term it is left out.
        let rem = lits(&[("(bvule #x00000010 (bvurem x #x00000010))", true)]);
        let m = method(&rem, &sorts_of(&rem), &mut Names::default()).unwrap();
        assert!(m.contains("insert kpl_urem_less[of \"(16::32 word)\" \"v_x\"]"), "{m}");
        // Equality alone refutes this one: `simp` gets it before the equations become ones of
        // naturals (two_thread_assume.kpl's lemma, which `unat_arith` does not prove).
        let congruent = lits(&[
            ("(= (bvurem y #x00000040) (bvurem x #x00000040))", false),
            ("(= w (bvurem x #x00000040))", true),
            ("(= (bvurem y #x00000040) w)", true),
        ]);
        let m = method(&congruent, &sorts_of(&congruent), &mut Names::default()).unwrap();
        assert!(m.contains("((simp; fail) | (clarsimp"), "{m}");
        // With a product or a quotient beside it, none (`unat_arith` ran for minutes).
        let mixed = lits(&[("(bvult x #x00000040)", true), ("(bvule #x00000040 (bvadd (bvmul #x00000020 (bvudiv x #x00000020)) (bvurem (bvadd x #x00000001) #x00000020)))", true)]);
        assert!(method(&mixed, &sorts_of(&mixed), &mut Names::default()).is_none());
        let by_zero = lits(&[("(bvule #x00000010 (bvurem x #x00000000))", true)]);
        assert!(method(&by_zero, &sorts_of(&by_zero), &mut Names::default()).is_none());
        let by_term = lits(&[("(bvule #x00000010 (bvurem x y))", true)]);
        assert!(method(&by_term, &sorts_of(&by_term), &mut Names::default()).is_none());
        // Seven sums: too many overflow cases.
        let long = lits(&[("(bvult (bvadd a (bvadd b (bvadd c (bvadd d (bvadd e (bvadd f (bvadd g h))))))) #x00000010)", true)]);
        assert!(method(&long, &sorts_of(&long), &mut Names::default()).is_none());
    }

    #[test]
    fn signed_comparisons_go_by_their_signs_cases_up_to_a_bound() {
        let two = lits(&[("(bvsle #x00000000 i)", true), ("(bvsle i j)", true), ("(bvult j i)", true)]);
        let m = method(&two, &sorts_of(&two), &mut Names::default()).unwrap();
        assert!(m.contains("kpl_sle_cases") && !m.contains("flip"), "{m}");
        let five = lits(&[
            ("(bvsle a b)", true),
            ("(bvsle b c)", true),
            ("(bvslt c d)", true),
            ("(bvsle d e)", true),
            ("(bvslt e a)", true),
        ]);
        assert!(arithmetic_method(&five, &sorts_of(&five), &mut Names::default()).is_none());
    }
}
