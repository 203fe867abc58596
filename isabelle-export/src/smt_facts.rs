//! Facts the SMT oracle needs beyond the VC. `KPL_Ops` tells Isabelle's SMT translation that
//! KPL's operators are the SMT-LIB bit-vector functions of the same names (`bvudiv`,
//! `bvlshr`, `bvslt`, ...), so z3 knows their meaning, shifts by a variable amount and
//! division by zero included; word `+ - * AND OR XOR NOT < ≤` it maps itself. What is left
//! is arrays: a VC that writes one holds function updates, which z3 sees as uninterpreted
//! unless given `fun_upd_apply`.

use kpl_lang::sexp::Sx;

/// The facts to hand the oracle for a VC made of these terms.
pub fn oracle_facts<'a>(terms: impl IntoIterator<Item = &'a Sx>) -> Vec<&'static str> {
    if terms.into_iter().any(writes_array) {
        vec!["fun_upd_apply"]
    } else {
        Vec::new()
    }
}

/// Whether a term writes an array (`store`: a function update in Isabelle).
fn writes_array(t: &Sx) -> bool {
    matches!(t, Sx::List(_)) && (t.head() == "store" || t.args().iter().any(writes_array))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_written_array_needs_a_fact() {
        let ops = Sx::parse("(and (bvult (bvudiv x 64) (bvurem y 3)) (bvslt (bvlshr z w) (bvsdiv z w)))").unwrap();
        assert!(oracle_facts([&ops]).is_empty());
        let written = Sx::parse("(= (select (store a i v) j) v)").unwrap();
        assert_eq!(oracle_facts([&ops, &written]), vec!["fun_upd_apply"]);
    }
}
