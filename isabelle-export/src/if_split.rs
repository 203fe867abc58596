//! `if`s split out of the atoms of a verification condition (`P (if c then a else b) =
//! (c ∧ P a ∨ ¬ c ∧ P b)`, `KPL_Ops.kpl_if_atom`), so that its theory lemmas are over
//! `if`-free atoms: the race logs' `WR_elem@2 = (if then ∧ log then lid1 else WR_elem@1)`
//! ties the element to the branch condition, which a theory lemma over the whole equation
//! cannot see.

use crate::names::Names;
use crate::vc_to_isabelle::{term, term_with, Sort, Sorts};
use kpl_lang::sexp::Sx;
use std::collections::HashMap;

/// What stands for the split `if` in a split's context: not a symbol any certificate term
/// can hold (those never contain a space); printed as the bound variable [`HOLE_VAR`].
pub const HOLE: &str = "<split hole>";
/// The hole as the lambda's bound variable: every free symbol prints as `v_...`.
const HOLE_VAR: &str = "kpl_z";

/// One split: `atom = (cond ∧ atom[hole := then_] ∨ ¬ cond ∧ atom[hole := else_])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    pub atom: Sx,
    /// The atom with the split `if` replaced by [`HOLE`], and where.
    pub context: Sx,
    pub path: Vec<usize>,
    pub cond: Sx,
    pub then_: Sx,
    pub else_: Sx,
}

impl Split {
    /// The atom's side with the `if` split.
    pub fn cases(&self) -> (Sx, Sx) {
        let fill = |x: &Sx| self.context.replace(&self.path, x.clone()).unwrap_or_else(|| x.clone());
        (fill(&self.then_), fill(&self.else_))
    }
}

/// The splits made so far, each atom split once, at most `limit` of them.
pub struct IfSplits<'a> {
    sorts: &'a Sorts,
    pub splits: Vec<Split>,
    done: HashMap<Sx, Sx>,
    limit: usize,
}

impl<'a> IfSplits<'a> {
    pub fn new(sorts: &'a Sorts, limit: usize) -> Self {
        IfSplits { sorts, splits: Vec::new(), done: HashMap::new(), limit }
    }

    /// `t` (a proposition) with every atom that holds an `if` replaced by its cases, which
    /// the splits prove equivalent; `None` past the limit.
    pub fn formula(&mut self, t: &Sx) -> Option<Sx> {
        if self.is_connective(t) {
            let mut xs = vec![Sx::atom(t.head())];
            for a in t.args() {
                xs.push(self.formula(a)?);
            }
            return Some(Sx::List(xs));
        }
        if let Some(f) = self.done.get(t) {
            return Some(f.clone());
        }
        let Some(path) = first_if(t, &mut Vec::new()) else {
            return Some(t.clone());
        };
        if self.splits.len() >= self.limit {
            return None;
        }
        let ite = t.at(&path)?;
        let (cond, then_, else_) = (ite.args()[0].clone(), ite.args()[1].clone(), ite.args()[2].clone());
        let split = Split { atom: t.clone(), context: t.replace(&path, Sx::atom(HOLE))?, path, cond, then_, else_ };
        let (a, b) = split.cases();
        let c = split.cond.clone();
        self.splits.push(split);
        let (c, a, b) = (self.formula(&c)?, self.formula(&a)?, self.formula(&b)?);
        let not_c = Sx::List(vec![Sx::atom("not"), c.clone()]);
        let f = Sx::List(vec![Sx::atom("or"), Sx::List(vec![Sx::atom("and"), c, a]), Sx::List(vec![Sx::atom("and"), not_c, b])]);
        self.done.insert(t.clone(), f.clone());
        Some(f)
    }

    /// A Boolean connective (whose arguments are propositions), as the theory lemmas' search
    /// and `satx` take them.
    fn is_connective(&self, t: &Sx) -> bool {
        match t.head() {
            "and" | "or" | "not" | "=>" => true,
            "=" => t.args().len() == 2 && self.sorts.sort_of(&t.args()[0]) == Some(Sort::Bool),
            _ => false,
        }
    }
}

/// A split `if` as an Isabelle proposition: `atom = (c ∧ atom[a] ∨ ¬ c ∧ atom[b])`.
pub fn split_prop(sp: &Split, names: &mut Names) -> String {
    let (a, b) = sp.cases();
    let c = term(&sp.cond, names);
    format!("({}) = (({c} \\<and> {}) \\<or> ((\\<not> {c}) \\<and> {}))", term(&sp.atom, names), term(&a, names), term(&b, names))
}

/// Its proof: `kpl_if_atom` with the atom's context and the `if`'s parts.
pub fn split_proof(sp: &Split, names: &mut Names) -> String {
    let context = term_with(&sp.context, &mut |x| if x == HOLE { HOLE_VAR.to_string() } else { names.get(x) });
    format!(
        "(rule kpl_if_atom[of \"\\<lambda>{HOLE_VAR}. {context}\" \"{}\" \"{}\" \"{}\"])",
        term(&sp.cond, names),
        term(&sp.then_, names),
        term(&sp.else_, names)
    )
}

/// The path to the first `if` of a term (pre-order).
fn first_if(t: &Sx, path: &mut Vec<usize>) -> Option<Vec<usize>> {
    if t.head() == "ite" && t.args().len() == 3 {
        return Some(path.clone());
    }
    for (i, a) in t.args().iter().enumerate() {
        path.push(i);
        if let Some(p) = first_if(a, path) {
            return Some(p);
        }
        path.pop();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sx(s: &str) -> Sx {
        Sx::parse(s).unwrap()
    }

    #[test]
    fn an_if_in_an_equation_splits_into_its_cases() {
        let f = sx("(and p (= w (ite (and p q) x y)))");
        let sorts = Sorts::infer(&[&f], &[]);
        let mut s = IfSplits::new(&sorts, 10);
        let out = s.formula(&f).unwrap();
        assert_eq!(out, sx("(and p (or (and (and p q) (= w x)) (and (not (and p q)) (= w y))))"));
        assert_eq!(s.splits.len(), 1);
        assert_eq!(s.splits[0].context, Sx::List(vec![Sx::atom("="), Sx::atom("w"), Sx::atom(HOLE)]));
        // A kernel symbol named like the bound variable stays a free symbol in the proof.
        let f = sx("(= kpl_z (ite c x y))");
        let sorts = Sorts::infer(&[&f], &[]);
        let mut s = IfSplits::new(&sorts, 10);
        s.formula(&f).unwrap();
        let proof = split_proof(&s.splits[0], &mut Names::default());
        assert!(proof.contains("\\<lambda>kpl_z. (v_kpl_z = kpl_z)"), "{proof}");
    }

    #[test]
    fn nested_ifs_split_once_each_and_the_limit_holds() {
        let f = sx("(bvult (ite a x (ite b y z)) w)");
        let sorts = Sorts::infer(&[&f], &[]);
        let mut s = IfSplits::new(&sorts, 10);
        let out = s.formula(&f).unwrap();
        assert_eq!(s.splits.len(), 2);
        assert_eq!(
            out,
            sx("(or (and a (bvult x w)) (and (not a) (or (and b (bvult y w)) (and (not b) (bvult z w)))))")
        );
        // The same atom again costs no split.
        s.formula(&f).unwrap();
        assert_eq!(s.splits.len(), 2);
        assert!(IfSplits::new(&sorts, 1).formula(&f).is_none());
    }

    #[test]
    fn equations_of_propositions_are_connectives() {
        let f = sx("(= r (ite c (bvult x y) q))");
        let sorts = Sorts::infer(&[&f], &[]);
        let mut s = IfSplits::new(&sorts, 10);
        let out = s.formula(&f).unwrap();
        assert_eq!(out, sx("(= r (or (and c (bvult x y)) (and (not c) q)))"));
        assert_eq!(s.splits[0].context, Sx::atom(HOLE));
    }
}
