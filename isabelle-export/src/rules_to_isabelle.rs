//! `KPL_Rules.thy`: every rewrite rule of kpl's simplifier as a lemma over words, booleans
//! and arrays, proved once, so that each step of a certificate's explanation is an instance
//! of a proved lemma.

use crate::names::ident_part;
use crate::vc_to_isabelle::{term_with, Sort, Sorts};
use kpl_lang::sexp::Sx;
use std::fmt::Write;

/// The Isabelle name of a rule's lemma.
pub fn lemma_name(rule: &str) -> String {
    format!("rule_{}", ident_part(rule))
}

/// How each rule is proved. Rules not listed are propositional or simple enough for `auto`.
fn proof(rule: &str) -> &'static str {
    const CASES_C: &str = "by (cases c) simp_all";
    const BITS: &str = "by ((simp; fail) | (rule bit_eqI, auto simp add: bit_simps))";
    const ONES: &str = "proof -\n  have m: \"(4294967295::32 word) = - 1\" by ((simp; fail) | (code_simp; fail) | eval)\n  show ?thesis by (simp add: m)\nqed";
    match rule {
        "add-comm" => "by (rule add.commute)",
        "add-assoc" => "by (rule add.assoc)",
        "mul-comm" => "by (rule mult.commute)",
        "mul-assoc" => "by (rule mult.assoc)",
        "mul-factor" => "by (simp add: distrib_left)",
        "udiv-one" => "by (simp add: kpl_udiv_def)",
        "urem-one" => "by (simp add: kpl_urem_def)",
        "shl-zero" => "proof -\n  have \"(0::32 word) < 32\" by ((simp; fail) | (code_simp; fail) | eval)\n  then show ?thesis by (simp add: kpl_shl_def)\nqed",
        "lshr-zero" => "proof -\n  have \"(0::32 word) < 32\" by ((simp; fail) | (code_simp; fail) | eval)\n  then show ?thesis by (simp add: kpl_lshr_def)\nqed",
        "bvand-comm" | "bvor-comm" | "bvxor-comm" => BITS,
        "bvand-ones" | "bvor-ones" => ONES,
        "eq-comm" => "by (rule eq_commute)",
        "not-ult" => "by (rule not_less)",
        "not-ule" => "by (rule not_le)",
        "slt-refl" | "sle-refl" => "by (simp add: kpl_slt_def kpl_sle_def)",
        "not-slt" => "by (simp add: kpl_slt_def kpl_sle_def not_less)",
        "not-sle" => "by (simp add: kpl_slt_def kpl_sle_def not_le)",
        "ult-zero" => "by ((simp; fail) | (simp add: not_less; fail) | unat_arith)",
        "ule-zero" => "by ((simp; fail) | unat_arith)",
        "select-store" => "by (cases \"i = j\") simp_all",
        "ite-true" | "ite-false" => "by simp",
        r if r.starts_with("ite-") || r == "select-ite" => CASES_C,
        "and-true" | "and-false" | "and-comm" | "and-assoc" | "and-idem" | "and-dup" | "and-contra" | "or-false" | "or-true"
        | "or-comm" | "or-assoc" | "or-idem" | "or-excluded" | "and-absorb" | "or-absorb" | "not-not" | "not-true"
        | "not-false" | "not-and" | "not-or" | "implies-def" | "implies-true" | "true-implies" | "implies-self" | "eq-true"
        | "eq-false" => "by auto",
        _ => "by simp",
    }
}

/// The statement of a rule: `lhs = rhs` with its variables (`?a` is `a`) typed where their
/// use fixes a sort, and polymorphic where it does not (`eq-comm` holds at every type).
pub fn statement(lhs: &Sx, rhs: &Sx) -> String {
    let sorts = Sorts::infer(&[], &[("?lhs", lhs), ("?rhs", rhs)]);
    let mut typed = std::collections::BTreeSet::new();
    let mut name = |s: &str| -> String {
        let v = s.trim_start_matches('?').to_string();
        match sorts.vars.get(s) {
            Some(Sort::Word) if typed.insert(v.clone()) => format!("({v}::32 word)"),
            Some(Sort::Array) if typed.insert(v.clone()) => format!("({v}::32 word \\<Rightarrow> 32 word)"),
            _ => v,
        }
    };
    let l = term_with(lhs, &mut name);
    let r = term_with(rhs, &mut name);
    format!("{l} = {r}")
}

/// The proof method certificates use to replay an explanation: `kpl_rw "p1" eq1 "p2" eq2 ...`
/// rewrites the goal's proposition by each equation in turn, at the subterm its path names
/// (`f`: the function of an application, `a`: its argument), by first-order matching. The
/// terms in between are never stated, so a proof costs one match per step, not a term the
/// size of the condition per step. It only builds theorems through the kernel's rules
/// (`Conv`), so it need not be trusted.
const KPL_RW: &str = r#"text \<open>\<open>kpl_rw\<close>: rewrite the goal one step at a time, each step an equation applied at a
  path (\<open>f\<close>: the function of an application, \<open>a\<close>: its argument).\<close>
ML \<open>
structure KPL_Rw =
struct
  fun at_path [] cv = cv
    | at_path (#"f" :: p) cv = Conv.fun_conv (at_path p cv)
    | at_path (#"a" :: p) cv = Conv.arg_conv (at_path p cv)
    | at_path _ _ = error "kpl_rw: a path is a word of f and a"
  fun step (path, eq) = at_path (String.explode path) (Conv.rewr_conv (mk_meta_eq eq))
  fun tac steps = CONVERSION (HOLogic.Trueprop_conv (Conv.every_conv (map step steps)))
end
\<close>

method_setup kpl_rw = \<open>
  Scan.repeat1 (Scan.lift Args.name -- Attrib.thm) >> (fn steps => fn _ => SIMPLE_METHOD' (KPL_Rw.tac steps))
\<close> "rewrite the goal by equations at paths"

"#;

/// The theory. `rules` are `(name, lhs, rhs)` as s-expressions with `?` variables.
pub fn theory(rules: &[(String, String, String)]) -> Result<String, String> {
    let mut s = String::from(
        "(* Generated by kpl. The rewrite rules of kpl's simplifier (certify/src/rules.rs), each an\n   \
         unconditional equation proved once; a certificate's explanation steps are instances. *)\n\
         theory KPL_Rules\n  imports KPL_Ops\nbegin\n\nunbundle bit_operations_syntax\n\n",
    );
    s.push_str(KPL_RW);
    for (name, l, r) in rules {
        let lhs = Sx::parse(l).map_err(|e| format!("rule {name}: {e}"))?;
        let rhs = Sx::parse(r).map_err(|e| format!("rule {name}: {e}"))?;
        let _ = writeln!(s, "text \\<open>Rule \\<open>{name}\\<close>: \\<open>{l} \\<rightarrow> {r}\\<close>.\\<close>");
        let _ = writeln!(s, "lemma {}: \"{}\"\n  {}\n", lemma_name(name), statement(&lhs, &rhs), proof(name));
    }
    s.push_str("end\n");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_type_what_they_must() {
        let st = |l: &str, r: &str| statement(&Sx::parse(l).unwrap(), &Sx::parse(r).unwrap());
        assert_eq!(st("(bvadd ?a ?b)", "(bvadd ?b ?a)"), "((a::32 word) + (b::32 word)) = (b + a)");
        assert_eq!(st("(= ?a ?b)", "(= ?b ?a)"), "(a = b) = (b = a)");
        assert_eq!(
            st("(select (store ?a ?i ?v) ?i)", "?v"),
            "(((a::32 word \\<Rightarrow> 32 word)((i::32 word) := (v::32 word))) i) = v"
        );
        assert_eq!(st("(ite ?c ?a ?a)", "?a"), "(if c then a else a) = a");
        assert_eq!(lemma_name("ite-word-false"), "rule_ite_word_false");
    }
}
