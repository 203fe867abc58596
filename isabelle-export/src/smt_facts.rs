//! Facts the SMT oracle needs beyond the VC. `KPL_Ops` tells Isabelle's SMT translation that
//! KPL's operators are the SMT-LIB bit-vector functions of the same names (`bvudiv`,
//! `bvlshr`, `bvslt`, ...), so z3 knows their meaning, shifts by a variable amount and
//! division by zero included; word `+ - * AND OR XOR NOT < ≤` it maps itself. What is left
//! is arrays: a VC that writes one holds function updates, which z3 sees as uninterpreted
//! unless given `fun_upd_apply`.

use kpl_lang::sexp::Sx;

/// What a set of terms uses that the oracle needs a fact for.
#[derive(Default)]
pub struct Uses {
    /// An array written (`store`): a function update in Isabelle.
    pub store: bool,
}

impl Uses {
    pub fn add(&mut self, t: &Sx) {
        if let Sx::List(_) = t {
            self.store |= t.head() == "store";
            for x in t.args() {
                self.add(x);
            }
        }
    }
}

/// The facts to hand the oracle for these uses.
pub fn definitions(u: &Uses) -> Vec<&'static str> {
    if u.store {
        vec!["fun_upd_apply"]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_written_array_needs_a_fact() {
        let mut ops = Uses::default();
        ops.add(&Sx::parse("(and (bvult (bvudiv x 64) (bvurem y 3)) (bvslt (bvlshr z w) (bvsdiv z w)))").unwrap());
        assert!(definitions(&ops).is_empty());
        let mut written = Uses::default();
        written.add(&Sx::parse("(= (select (store a i v) j) v)").unwrap());
        assert_eq!(definitions(&written), vec!["fun_upd_apply"]);
    }
}
