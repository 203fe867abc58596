//! Every rewrite rule: a one-line start => goal test (egg's `test_fn!`), and a proof by Z3
//! that its two sides are equal for all 32-bit values (so an unsound rule cannot land).

use egg::test_fn;
use kpl_certify::rules::{rewrites, RULES};
use kpl_certify::vc::{Sort, Terms, Vc};
use kpl_certify::vc_to_z3::Lowering;
use kpl_certify::sexp::{to_term, Sx};
use std::collections::BTreeMap;

test_fn! { rule_add_comm, rewrites(), "(bvadd a b)" => "(bvadd b a)" }
test_fn! { rule_add_assoc, rewrites(), "(bvadd (bvadd a b) c)" => "(bvadd a (bvadd b c))" }
test_fn! { rule_add_zero, rewrites(), "(bvadd a #x00000000)" => "a" }
test_fn! { rule_sub_zero, rewrites(), "(bvsub a #x00000000)" => "a" }
test_fn! { rule_sub_self, rewrites(), "(bvsub a a)" => "#x00000000" }
test_fn! { rule_sub_add_right, rewrites(), "(bvsub (bvadd a b) b)" => "a" }
test_fn! { rule_sub_add_left, rewrites(), "(bvsub (bvadd a b) a)" => "b" }
test_fn! { rule_add_sub, rewrites(), "(bvadd (bvsub a b) b)" => "a" }
test_fn! { rule_sub_sub, rewrites(), "(bvsub a (bvsub a b))" => "b" }
test_fn! { rule_neg_neg, rewrites(), "(bvneg (bvneg a))" => "a" }
test_fn! { rule_zero_sub, rewrites(), "(bvsub #x00000000 a)" => "(bvneg a)" }
test_fn! { rule_mul_comm, rewrites(), "(bvmul a b)" => "(bvmul b a)" }
test_fn! { rule_mul_assoc, rewrites(), "(bvmul (bvmul a b) c)" => "(bvmul a (bvmul b c))" }
test_fn! { rule_mul_one, rewrites(), "(bvmul a #x00000001)" => "a" }
test_fn! { rule_mul_zero, rewrites(), "(bvmul a #x00000000)" => "#x00000000" }
test_fn! { rule_mul_factor, rewrites(), "(bvadd (bvmul a b) (bvmul a c))" => "(bvmul a (bvadd b c))" }
test_fn! { rule_udiv_one, rewrites(), "(bvudiv a #x00000001)" => "a" }
test_fn! { rule_urem_one, rewrites(), "(bvurem a #x00000001)" => "#x00000000" }
test_fn! { rule_shl_zero, rewrites(), "(bvshl a #x00000000)" => "a" }
test_fn! { rule_lshr_zero, rewrites(), "(bvlshr a #x00000000)" => "a" }
test_fn! { rule_bvand_comm, rewrites(), "(bvand a b)" => "(bvand b a)" }
test_fn! { rule_bvor_comm, rewrites(), "(bvor a b)" => "(bvor b a)" }
test_fn! { rule_bvxor_comm, rewrites(), "(bvxor a b)" => "(bvxor b a)" }
test_fn! { rule_bvand_self, rewrites(), "(bvand a a)" => "a" }
test_fn! { rule_bvor_self, rewrites(), "(bvor a a)" => "a" }
test_fn! { rule_bvxor_self, rewrites(), "(bvxor a a)" => "#x00000000" }
test_fn! { rule_bvand_zero, rewrites(), "(bvand a #x00000000)" => "#x00000000" }
test_fn! { rule_bvand_ones, rewrites(), "(bvand a #xffffffff)" => "a" }
test_fn! { rule_bvor_zero, rewrites(), "(bvor a #x00000000)" => "a" }
test_fn! { rule_bvor_ones, rewrites(), "(bvor a #xffffffff)" => "#xffffffff" }
test_fn! { rule_bvxor_zero, rewrites(), "(bvxor a #x00000000)" => "a" }
test_fn! { rule_bvnot_bvnot, rewrites(), "(bvnot (bvnot a))" => "a" }
test_fn! { rule_eq_refl, rewrites(), "(= a a)" => "true" }
test_fn! { rule_eq_comm, rewrites(), "(= a b)" => "(= b a)" }
test_fn! { rule_eq_add, rewrites(), "(= (bvadd a c) (bvadd b c))" => "(= a b)" }
test_fn! { rule_eq_sub_zero, rewrites(), "(= (bvsub a b) #x00000000)" => "(= a b)" }
test_fn! { rule_ult_refl, rewrites(), "(bvult a a)" => "false" }
test_fn! { rule_ule_refl, rewrites(), "(bvule a a)" => "true" }
test_fn! { rule_slt_refl, rewrites(), "(bvslt a a)" => "false" }
test_fn! { rule_sle_refl, rewrites(), "(bvsle a a)" => "true" }
test_fn! { rule_ult_zero, rewrites(), "(bvult a #x00000000)" => "false" }
test_fn! { rule_ule_zero, rewrites(), "(bvule #x00000000 a)" => "true" }
test_fn! { rule_not_ult, rewrites(), "(not (bvult a b))" => "(bvule b a)" }
test_fn! { rule_not_ule, rewrites(), "(not (bvule a b))" => "(bvult b a)" }
test_fn! { rule_not_slt, rewrites(), "(not (bvslt a b))" => "(bvsle b a)" }
test_fn! { rule_not_sle, rewrites(), "(not (bvsle a b))" => "(bvslt b a)" }
test_fn! { rule_ite_true, rewrites(), "(ite true a b)" => "a" }
test_fn! { rule_ite_false, rewrites(), "(ite false a b)" => "b" }
test_fn! { rule_ite_same, rewrites(), "(ite c a a)" => "a" }
test_fn! { rule_ite_not, rewrites(), "(ite (not c) a b)" => "(ite c b a)" }
test_fn! { rule_ite_then_same, rewrites(), "(ite c (ite c a b) d)" => "(ite c a d)" }
test_fn! { rule_ite_else_same, rewrites(), "(ite c a (ite c b d))" => "(ite c a d)" }
test_fn! { rule_ite_bool, rewrites(), "(ite c true false)" => "c" }
test_fn! { rule_ite_bool_not, rewrites(), "(ite c false true)" => "(not c)" }
test_fn! { rule_ite_and, rewrites(), "(ite c a false)" => "(and c a)" }
test_fn! { rule_ite_or, rewrites(), "(ite c true b)" => "(or c b)" }
test_fn! { rule_ite_word_false, rewrites(), "(= (ite c #x00000001 #x00000000) #x00000000)" => "(not c)" }
test_fn! { rule_ite_word_true, rewrites(), "(= (ite c #x00000001 #x00000000) #x00000001)" => "c" }
test_fn! { rule_ite_add, rewrites(), "(bvadd (ite c a b) d)" => "(ite c (bvadd a d) (bvadd b d))" }
test_fn! { rule_ite_sub, rewrites(), "(bvsub (ite c a b) d)" => "(ite c (bvsub a d) (bvsub b d))" }
test_fn! { rule_ite_eq, rewrites(), "(= (ite c a b) d)" => "(ite c (= a d) (= b d))" }
test_fn! { rule_ite_ult, rewrites(), "(bvult (ite c a b) d)" => "(ite c (bvult a d) (bvult b d))" }
test_fn! { rule_ite_urem, rewrites(), "(bvurem (ite c a b) d)" => "(ite c (bvurem a d) (bvurem b d))" }
test_fn! { rule_select_store_same, rewrites(), "(select (store a i v) i)" => "v" }
test_fn! { rule_select_store, rewrites(), "(select (store a i v) j)" => "(ite (= i j) v (select a j))" }
test_fn! { rule_store_store_same, rewrites(), "(store (store a i v) i w)" => "(store a i w)" }
test_fn! { rule_select_ite, rewrites(), "(select (ite c a b) i)" => "(ite c (select a i) (select b i))" }
test_fn! { rule_and_true, rewrites(), "(and a true)" => "a" }
test_fn! { rule_and_false, rewrites(), "(and a false)" => "false" }
test_fn! { rule_and_comm, rewrites(), "(and a b)" => "(and b a)" }
test_fn! { rule_and_assoc, rewrites(), "(and (and a b) c)" => "(and a (and b c))" }
test_fn! { rule_and_idem, rewrites(), "(and a a)" => "a" }
test_fn! { rule_and_dup, rewrites(), "(and a (and a b))" => "(and a b)" }
test_fn! { rule_and_contra, rewrites(), "(and a (not a))" => "false" }
test_fn! { rule_or_false, rewrites(), "(or a false)" => "a" }
test_fn! { rule_or_true, rewrites(), "(or a true)" => "true" }
test_fn! { rule_or_comm, rewrites(), "(or a b)" => "(or b a)" }
test_fn! { rule_or_assoc, rewrites(), "(or (or a b) c)" => "(or a (or b c))" }
test_fn! { rule_or_idem, rewrites(), "(or a a)" => "a" }
test_fn! { rule_or_excluded, rewrites(), "(or a (not a))" => "true" }
test_fn! { rule_and_absorb, rewrites(), "(and a (or a b))" => "a" }
test_fn! { rule_or_absorb, rewrites(), "(or a (and a b))" => "a" }
test_fn! { rule_not_not, rewrites(), "(not (not a))" => "a" }
test_fn! { rule_not_true, rewrites(), "(not true)" => "false" }
test_fn! { rule_not_false, rewrites(), "(not false)" => "true" }
test_fn! { rule_not_and, rewrites(), "(not (and a b))" => "(or (not a) (not b))" }
test_fn! { rule_not_or, rewrites(), "(not (or a b))" => "(and (not a) (not b))" }
test_fn! { rule_implies_def, rewrites(), "(=> a b)" => "(or (not a) b)" }
test_fn! { rule_implies_true, rewrites(), "(=> a true)" => "true" }
test_fn! { rule_true_implies, rewrites(), "(=> true a)" => "a" }
test_fn! { rule_implies_self, rewrites(), "(=> a a)" => "true" }
test_fn! { rule_eq_true, rewrites(), "(= a true)" => "a" }
test_fn! { rule_eq_false, rewrites(), "(= a false)" => "(not a)" }

/// The sort a pattern variable must have, from where it occurs (None: any sort).
fn infer(p: &Sx, want: Option<Sort>, out: &mut BTreeMap<String, Option<Sort>>) {
    match p {
        Sx::Atom(a) if a.starts_with('?') => {
            let e = out.entry(a.clone()).or_insert(None);
            if want.is_some() {
                *e = want;
            }
        }
        Sx::Atom(_) => {}
        Sx::List(_) => {
            let args = p.args();
            let w = Some(Sort::Word);
            let b = Some(Sort::Bool);
            let kids: Vec<Option<Sort>> = match p.head() {
                "and" | "or" | "not" | "=>" => vec![b; args.len()],
                "ite" => vec![b, want, want],
                "=" => {
                    // Both sides share a sort: take it from a side that fixes it.
                    let side = args.iter().find_map(|a| fixed_sort(a));
                    vec![side, side]
                }
                "select" => vec![Some(Sort::Array), w],
                "store" => vec![Some(Sort::Array), w, w],
                _ => vec![w; args.len()],
            };
            for (a, k) in args.iter().zip(kids) {
                infer(a, k, out);
            }
        }
    }
}

/// The sort a term has regardless of its variables' sorts, if any.
fn fixed_sort(p: &Sx) -> Option<Sort> {
    match p {
        Sx::Atom(a) if a.starts_with('?') => None,
        Sx::Atom(a) if a == "true" || a == "false" => Some(Sort::Bool),
        Sx::Atom(_) => Some(Sort::Word),
        Sx::List(_) => match p.head() {
            "and" | "or" | "not" | "=>" | "=" | "bvult" | "bvule" | "bvslt" | "bvsle" => Some(Sort::Bool),
            "store" => Some(Sort::Array),
            "ite" => fixed_sort(&p.args()[1]).or_else(|| fixed_sort(&p.args()[2])),
            _ => Some(Sort::Word),
        },
    }
}

fn term_of(t: &mut Terms, p: &Sx, sorts: &BTreeMap<String, Sort>) -> egg::Id {
    let s = Sx::parse(&p.to_string().replace('?', "v_")).unwrap();
    for (v, sort) in sorts {
        t.var(&format!("v_{}", &v[1..]), *sort);
    }
    to_term(t, &s).unwrap()
}

#[test]
fn every_rule_is_sound_for_all_32_bit_values() {
    let mut proved = 0;
    for (name, l, r) in RULES {
        let (lp, rp) = (Sx::parse(l).unwrap(), Sx::parse(r).unwrap());
        let mut vars = BTreeMap::new();
        let top = fixed_sort(&lp).or_else(|| fixed_sort(&rp));
        infer(&lp, top, &mut vars);
        infer(&rp, top, &mut vars);
        // A variable whose sort nothing fixes is checked at every sort.
        let free = vars.values().any(|s| s.is_none()) || top.is_none();
        let choices: &[Sort] = if free { &[Sort::Word, Sort::Bool, Sort::Array] } else { &[Sort::Word] };
        for &poly in choices {
            let sorts: BTreeMap<String, Sort> = vars.iter().map(|(k, v)| (k.clone(), v.unwrap_or(poly))).collect();
            let mut t = Terms::default();
            let a = term_of(&mut t, &lp, &sorts);
            let b = term_of(&mut t, &rp, &sorts);
            let mut low = Lowering::new();
            let (za, zb) = (low.lower(&t, a), low.lower(&t, b));
            let solver = z3::Solver::new();
            solver.assert(za.eq(&zb).not());
            assert_eq!(solver.check(), z3::SatResult::Unsat, "rule `{name}` is unsound (at sort {poly:?}): {l} = {r}");
            proved += 1;
        }
        let _ = Vc::Bool(true);
    }
    assert!(proved >= RULES.len());
}

