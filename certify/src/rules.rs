//! The rewrite rules of the simplifier: bit-precise identities over 32-bit words,
//! comparisons, `ite`, arrays and boolean structure, including the shapes the two-thread
//! encoding produces. Each is an unconditional equation `lhs = rhs` that a test proves with
//! Z3 for all values; the certificate checker re-checks each use by matching, not by egg.

use crate::vc::Vc;
use egg::Rewrite;

/// `(name, lhs, rhs)`: `lhs` may be rewritten to `rhs` (and, in explanations, back).
pub const RULES: &[(&str, &str, &str)] = &[
    // --- words: addition, subtraction, negation ---
    ("add-comm", "(bvadd ?a ?b)", "(bvadd ?b ?a)"),
    ("add-assoc", "(bvadd (bvadd ?a ?b) ?c)", "(bvadd ?a (bvadd ?b ?c))"),
    ("add-zero", "(bvadd ?a #x00000000)", "?a"),
    ("sub-zero", "(bvsub ?a #x00000000)", "?a"),
    ("sub-self", "(bvsub ?a ?a)", "#x00000000"),
    ("sub-add-right", "(bvsub (bvadd ?a ?b) ?b)", "?a"),
    ("sub-add-left", "(bvsub (bvadd ?a ?b) ?a)", "?b"),
    ("add-sub", "(bvadd (bvsub ?a ?b) ?b)", "?a"),
    ("sub-sub", "(bvsub ?a (bvsub ?a ?b))", "?b"),
    ("neg-neg", "(bvneg (bvneg ?a))", "?a"),
    ("zero-sub", "(bvsub #x00000000 ?a)", "(bvneg ?a)"),
    // --- words: multiplication and division ---
    ("mul-comm", "(bvmul ?a ?b)", "(bvmul ?b ?a)"),
    ("mul-assoc", "(bvmul (bvmul ?a ?b) ?c)", "(bvmul ?a (bvmul ?b ?c))"),
    ("mul-one", "(bvmul ?a #x00000001)", "?a"),
    ("mul-zero", "(bvmul ?a #x00000000)", "#x00000000"),
    ("mul-factor", "(bvadd (bvmul ?a ?b) (bvmul ?a ?c))", "(bvmul ?a (bvadd ?b ?c))"),
    ("udiv-one", "(bvudiv ?a #x00000001)", "?a"),
    ("urem-one", "(bvurem ?a #x00000001)", "#x00000000"),
    ("shl-zero", "(bvshl ?a #x00000000)", "?a"),
    ("lshr-zero", "(bvlshr ?a #x00000000)", "?a"),
    // --- words: bitwise ---
    ("bvand-comm", "(bvand ?a ?b)", "(bvand ?b ?a)"),
    ("bvor-comm", "(bvor ?a ?b)", "(bvor ?b ?a)"),
    ("bvxor-comm", "(bvxor ?a ?b)", "(bvxor ?b ?a)"),
    ("bvand-self", "(bvand ?a ?a)", "?a"),
    ("bvor-self", "(bvor ?a ?a)", "?a"),
    ("bvxor-self", "(bvxor ?a ?a)", "#x00000000"),
    ("bvand-zero", "(bvand ?a #x00000000)", "#x00000000"),
    ("bvand-ones", "(bvand ?a #xffffffff)", "?a"),
    ("bvor-zero", "(bvor ?a #x00000000)", "?a"),
    ("bvor-ones", "(bvor ?a #xffffffff)", "#xffffffff"),
    ("bvxor-zero", "(bvxor ?a #x00000000)", "?a"),
    ("bvnot-bvnot", "(bvnot (bvnot ?a))", "?a"),
    // --- comparisons ---
    ("eq-refl", "(= ?a ?a)", "true"),
    ("eq-comm", "(= ?a ?b)", "(= ?b ?a)"),
    ("eq-add", "(= (bvadd ?a ?c) (bvadd ?b ?c))", "(= ?a ?b)"),
    ("eq-sub-zero", "(= (bvsub ?a ?b) #x00000000)", "(= ?a ?b)"),
    ("ult-refl", "(bvult ?a ?a)", "false"),
    ("ule-refl", "(bvule ?a ?a)", "true"),
    ("slt-refl", "(bvslt ?a ?a)", "false"),
    ("sle-refl", "(bvsle ?a ?a)", "true"),
    ("ult-zero", "(bvult ?a #x00000000)", "false"),
    ("ule-zero", "(bvule #x00000000 ?a)", "true"),
    ("not-ult", "(not (bvult ?a ?b))", "(bvule ?b ?a)"),
    ("not-ule", "(not (bvule ?a ?b))", "(bvult ?b ?a)"),
    ("not-slt", "(not (bvslt ?a ?b))", "(bvsle ?b ?a)"),
    ("not-sle", "(not (bvsle ?a ?b))", "(bvslt ?b ?a)"),
    // --- ite ---
    ("ite-true", "(ite true ?a ?b)", "?a"),
    ("ite-false", "(ite false ?a ?b)", "?b"),
    ("ite-same", "(ite ?c ?a ?a)", "?a"),
    ("ite-not", "(ite (not ?c) ?a ?b)", "(ite ?c ?b ?a)"),
    ("ite-then-same", "(ite ?c (ite ?c ?a ?b) ?d)", "(ite ?c ?a ?d)"),
    ("ite-else-same", "(ite ?c ?a (ite ?c ?b ?d))", "(ite ?c ?a ?d)"),
    ("ite-bool", "(ite ?c true false)", "?c"),
    ("ite-bool-not", "(ite ?c false true)", "(not ?c)"),
    ("ite-and", "(ite ?c ?a false)", "(and ?c ?a)"),
    ("ite-or", "(ite ?c true ?b)", "(or ?c ?b)"),
    ("ite-word-false", "(= (ite ?c #x00000001 #x00000000) #x00000000)", "(not ?c)"),
    ("ite-word-true", "(= (ite ?c #x00000001 #x00000000) #x00000001)", "?c"),
    ("ite-add", "(bvadd (ite ?c ?a ?b) ?d)", "(ite ?c (bvadd ?a ?d) (bvadd ?b ?d))"),
    ("ite-sub", "(bvsub (ite ?c ?a ?b) ?d)", "(ite ?c (bvsub ?a ?d) (bvsub ?b ?d))"),
    ("ite-eq", "(= (ite ?c ?a ?b) ?d)", "(ite ?c (= ?a ?d) (= ?b ?d))"),
    ("ite-ult", "(bvult (ite ?c ?a ?b) ?d)", "(ite ?c (bvult ?a ?d) (bvult ?b ?d))"),
    ("ite-urem", "(bvurem (ite ?c ?a ?b) ?d)", "(ite ?c (bvurem ?a ?d) (bvurem ?b ?d))"),
    // --- arrays ---
    ("select-store-same", "(select (store ?a ?i ?v) ?i)", "?v"),
    ("select-store", "(select (store ?a ?i ?v) ?j)", "(ite (= ?i ?j) ?v (select ?a ?j))"),
    ("store-store-same", "(store (store ?a ?i ?v) ?i ?w)", "(store ?a ?i ?w)"),
    ("select-ite", "(select (ite ?c ?a ?b) ?i)", "(ite ?c (select ?a ?i) (select ?b ?i))"),
    // --- booleans (the two-thread encoding repeats predicates and guards) ---
    ("and-true", "(and ?a true)", "?a"),
    ("and-false", "(and ?a false)", "false"),
    ("and-comm", "(and ?a ?b)", "(and ?b ?a)"),
    ("and-assoc", "(and (and ?a ?b) ?c)", "(and ?a (and ?b ?c))"),
    ("and-idem", "(and ?a ?a)", "?a"),
    ("and-dup", "(and ?a (and ?a ?b))", "(and ?a ?b)"),
    ("and-contra", "(and ?a (not ?a))", "false"),
    ("or-false", "(or ?a false)", "?a"),
    ("or-true", "(or ?a true)", "true"),
    ("or-comm", "(or ?a ?b)", "(or ?b ?a)"),
    ("or-assoc", "(or (or ?a ?b) ?c)", "(or ?a (or ?b ?c))"),
    ("or-idem", "(or ?a ?a)", "?a"),
    ("or-excluded", "(or ?a (not ?a))", "true"),
    ("and-absorb", "(and ?a (or ?a ?b))", "?a"),
    ("or-absorb", "(or ?a (and ?a ?b))", "?a"),
    ("not-not", "(not (not ?a))", "?a"),
    ("not-true", "(not true)", "false"),
    ("not-false", "(not false)", "true"),
    ("not-and", "(not (and ?a ?b))", "(or (not ?a) (not ?b))"),
    ("not-or", "(not (or ?a ?b))", "(and (not ?a) (not ?b))"),
    ("implies-def", "(=> ?a ?b)", "(or (not ?a) ?b)"),
    ("implies-true", "(=> ?a true)", "true"),
    ("true-implies", "(=> true ?a)", "?a"),
    ("implies-self", "(=> ?a ?a)", "true"),
    ("eq-true", "(= ?a true)", "?a"),
    ("eq-false", "(= ?a false)", "(not ?a)"),
];

/// The rules as egg rewrites.
pub fn rewrites() -> Vec<Rewrite<Vc, ()>> {
    RULES
        .iter()
        .map(|(name, l, r)| {
            let lhs: egg::Pattern<Vc> = l.parse().unwrap_or_else(|e| panic!("rule {name}: {e}"));
            let rhs: egg::Pattern<Vc> = r.parse().unwrap_or_else(|e| panic!("rule {name}: {e}"));
            Rewrite::new(*name, lhs, rhs).unwrap_or_else(|e| panic!("rule {name}: {e}"))
        })
        .collect()
}

/// The pseudo-rule of constant folding: an operator applied to literals equals the literal
/// KPL's semantics (`kpl_lang::ops`) gives. The checker re-evaluates every use.
pub const EVAL: &str = "eval";
