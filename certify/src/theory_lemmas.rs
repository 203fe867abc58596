//! Theory lemmas for a verification condition, so that a proof assistant can check it without
//! an SMT oracle: small sets of word literals that cannot hold together, enough that the VC
//! follows from them by propositional reasoning alone (DPLL(T)'s lazy loop, run with Z3).

use crate::sexp::{to_term, Sx};
use crate::vc::{Sort, Terms, Vc};
use crate::vc_to_z3::Lowering;
use egg::{Id, Symbol};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// A literal of a theory lemma: an atom (a Bool term that is not a connective or a Bool
/// variable) and whether it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    pub atom: Sx,
    pub holds: bool,
}

/// How far the search goes. Rounds of the lazy loop, solver calls and Z3's resource limit
/// per call bound it the same way on every machine; the wall-clock bound is a safety net that
/// the other limits should keep from ever being reached.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub rounds: usize,
    pub checks: usize,
    pub rlimit: u32,
    pub wall: Duration,
}

/// Counts solver calls against the limits.
struct Budget {
    limits: Limits,
    checks: std::cell::Cell<usize>,
    deadline: Instant,
}

impl Budget {
    /// One more solver call, if the limits allow it.
    fn spend(&self) -> Option<()> {
        let n = self.checks.get() + 1;
        self.checks.set(n);
        (n <= self.limits.checks && Instant::now() < self.deadline).then_some(())
    }
}

/// What makes a verification condition propositionally unsatisfiable.
#[derive(Clone, Debug)]
pub struct Refutation {
    /// Lemmas `¬(l1 ∧ ... ∧ ln)`, each true in the theory of 32-bit words.
    pub lemmas: Vec<Vec<Literal>>,
    /// The facts (indices into those given) that, with the goal and the lemmas, are
    /// propositionally unsatisfiable: a proof needs no other (an unsat core, not always minimal).
    pub facts: Vec<usize>,
}

/// Theory lemmas such that `facts ∧ goal` is propositionally unsatisfiable once they are
/// added, and which facts that needs; `None` when `facts ∧ goal` is satisfiable, a term is
/// malformed, or the limits do not suffice.
pub fn theory_lemmas(facts: &[Sx], goal: &Sx, sort: &dyn Fn(&str) -> Sort, limits: Limits) -> Option<Refutation> {
    let budget = Budget { limits, checks: std::cell::Cell::new(0), deadline: Instant::now() + limits.wall };
    let mut t = Terms::default();
    let mut roots = Vec::new();
    for f in facts.iter().chain(std::iter::once(goal)) {
        declare(&mut t, f, sort);
        roots.push(to_term(&mut t, f).ok()?);
    }
    let mut atoms = Atoms::default();
    let abstracted: Vec<Bool> = roots.iter().map(|&r| atoms.abstract_(&t, r)).collect();
    let prop = Solver::new();
    limit(&prop, &limits);
    // Each fact is asserted under a tracking literal, so that the final refutation names the
    // facts it used; the goal is asserted outright.
    let tracks: Vec<Bool> = (0..facts.len()).map(|i| Bool::new_const(format!("kpl_track_{i}"))).collect();
    for (i, a) in abstracted.iter().enumerate() {
        match tracks.get(i) {
            Some(tr) => prop.assert(&tr.implies(a)),
            None => prop.assert(a),
        }
    }
    // Remainders by literals are known only by their bound, so that every lemma found is one
    // that Isabelle's kernel proves with the remainder as an opaque term below the literal
    // (`lemma_method`); congruences would make its proof search run for minutes.
    let mut low = Lowering::opaque_remainders();
    let theory = Solver::new();
    limit(&theory, &limits);
    let mut lemmas = Vec::new();
    for _ in 0..limits.rounds {
        budget.spend()?;
        match crate::in_solver(|| prop.check_assumptions(&tracks)) {
            SatResult::Unsat => {
                let core: Vec<String> = prop.get_unsat_core().iter().map(|b| b.to_string()).collect();
                let facts = (0..tracks.len()).filter(|&i| core.contains(&tracks[i].to_string())).collect();
                return Some(Refutation { lemmas, facts });
            }
            SatResult::Unknown => return None,
            SatResult::Sat => {}
        }
        let model = prop.get_model()?;
        // The atoms' values in the propositional model, as literals over their real meaning.
        let mut lits: Vec<(usize, bool)> = Vec::new();
        for (i, b) in atoms.consts.iter().enumerate() {
            let v = model.eval(b, true).and_then(|v| v.as_bool())?;
            lits.push((i, v));
        }
        let core = theory_core(&theory, &mut low, &t, &atoms, &lits, &budget)?;
        let clause: Vec<Bool> = core.iter().map(|&(i, v)| if v { atoms.consts[i].not() } else { atoms.consts[i].clone() }).collect();
        let refs: Vec<&Bool> = clause.iter().collect();
        prop.assert(&Bool::or(&refs));
        lemmas.push(core.iter().map(|&(i, v)| Literal { atom: crate::sexp::of_term(&t, atoms.ids[i]), holds: v }).collect());
    }
    None
}

/// Makes a solver give up (answer unknown) past the resource limit of a call, or the wall-clock
/// bound.
fn limit(s: &Solver, limits: &Limits) {
    let mut p = z3::Params::new();
    p.set_u32("rlimit", limits.rlimit);
    p.set_u32("timeout", limits.wall.as_millis().clamp(1, u32::MAX as u128) as u32);
    s.set_params(&p);
}

/// Gives every variable of `s` its sort before the term is built.
fn declare(t: &mut Terms, s: &Sx, sort: &dyn Fn(&str) -> Sort) {
    match s {
        Sx::Atom(a) => {
            if !a.starts_with("#x") && a != "true" && a != "false" {
                t.sorts.insert(Symbol::from(a.as_str()), sort(a));
            }
        }
        Sx::List(xs) => {
            for x in xs.iter().skip(1) {
                declare(t, x, sort);
            }
        }
    }
}

/// The atoms met so far, each with a propositional constant standing for it.
#[derive(Default)]
struct Atoms {
    ids: Vec<Id>,
    consts: Vec<Bool>,
    index: HashMap<Id, usize>,
}

impl Atoms {
    /// The term with its connectives kept and its atoms replaced by their constants.
    fn abstract_(&mut self, t: &Terms, id: Id) -> Bool {
        match t.node(id).clone() {
            Vc::Bool(b) => Bool::from_bool(b),
            Vc::Not([a]) => self.abstract_(t, a).not(),
            Vc::And([a, b]) => Bool::and(&[&self.abstract_(t, a), &self.abstract_(t, b)]),
            Vc::Or([a, b]) => Bool::or(&[&self.abstract_(t, a), &self.abstract_(t, b)]),
            Vc::Implies([a, b]) => self.abstract_(t, a).implies(&self.abstract_(t, b)),
            Vc::Eq([a, b]) if t.sort_of(a) == Sort::Bool => self.abstract_(t, a).eq(&self.abstract_(t, b)),
            Vc::Var(s) if t.sort_of(id) == Sort::Bool => Bool::new_const(format!("v!{s}")),
            _ => {
                let n = self.ids.len();
                let i = *self.index.entry(id).or_insert(n);
                if i == n {
                    self.ids.push(id);
                    self.consts.push(Bool::new_const(format!("a!{n}")));
                }
                self.consts[i].clone()
            }
        }
    }
}

/// When the literals cannot hold together over words, a small subset that cannot either
/// (an unsat core, then shrunk one literal at a time); `None` when they can.
fn theory_core(s: &Solver, low: &mut Lowering, t: &Terms, atoms: &Atoms, lits: &[(usize, bool)], budget: &Budget) -> Option<Vec<(usize, bool)>> {
    let lowered: Vec<Bool> = lits
        .iter()
        .map(|&(i, v)| {
            let b = low.bool(t, atoms.ids[i]);
            if v {
                b
            } else {
                b.not()
            }
        })
        .collect();
    for b in low.take_side_conditions() {
        s.assert(&b);
    }
    let unsat = |subset: &[usize]| {
        let assumptions: Vec<Bool> = subset.iter().map(|&k| lowered[k].clone()).collect();
        budget.spend().map(|()| crate::in_solver(|| s.check_assumptions(&assumptions)) == SatResult::Unsat)
    };
    let all: Vec<usize> = (0..lits.len()).collect();
    if !unsat(&all)? {
        return None;
    }
    // Z3's core names assumptions by their terms: map them back to positions.
    let core_terms = s.get_unsat_core();
    let mut core: Vec<usize> = all.iter().copied().filter(|&k| core_terms.iter().any(|c| *c == lowered[k])).collect();
    if core.is_empty() || !unsat(&core)? {
        core = all;
    }
    let mut k = 0;
    while k < core.len() {
        let mut without = core.clone();
        without.remove(k);
        if unsat(&without)? {
            core = without;
        } else {
            k += 1;
        }
    }
    Some(core.into_iter().map(|k| lits[k]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits { rounds: 10, checks: 1000, rlimit: 1_000_000, wall: Duration::from_secs(10) };

    fn sx(s: &str) -> Sx {
        Sx::parse(s).unwrap()
    }

    fn sort_of(name: &str) -> Sort {
        if name.starts_with('b') {
            Sort::Bool
        } else {
            Sort::Word
        }
    }

    /// A remainder by a literal is known by its bound only: `r = x % 2` and `2 <= r` make a
    /// lemma; `x = 4` and `x % 2 = 1`, false only by the remainder's meaning, make none.
    #[test]
    fn remainders_by_literals_are_known_by_their_bound_only() {
        let facts = [sx("(= b (bvule #x00000002 (bvurem x #x00000002)))")];
        let r = theory_lemmas(&facts, &sx("b"), &sort_of, LIMITS).unwrap();
        assert_eq!(r.lemmas.len(), 1);
        assert_eq!(r.lemmas[0][0].atom, sx("(bvule #x00000002 (bvurem x #x00000002))"));
        let facts = [sx("(= x #x00000004)")];
        assert!(theory_lemmas(&facts, &sx("(= (bvurem x #x00000002) #x00000001)"), &sort_of, LIMITS).is_none());
    }

    /// `b = (x < 64)`, `b`, and the goal `64 <= x`: one lemma, `¬(x < 64 ∧ 64 <= x)`.
    #[test]
    fn a_bound_and_its_negation_make_one_lemma() {
        let facts = [sx("(= b (bvult x #x00000040))"), sx("b")];
        let r = theory_lemmas(&facts, &sx("(bvule #x00000040 x)"), &sort_of, LIMITS).unwrap();
        let lemmas = r.lemmas;
        assert_eq!(lemmas.len(), 1);
        assert_eq!(r.facts, [0, 1]);
        let atoms: Vec<String> = lemmas[0].iter().map(|l| format!("{}:{}", l.atom, l.holds)).collect();
        assert_eq!(atoms, ["(bvult x #x00000040):true", "(bvule #x00000040 x):true"]);
    }

    /// A goal that can hold gets no lemmas.
    #[test]
    fn a_satisfiable_goal_gets_none() {
        let facts = [sx("(= b (bvult x #x00000040))"), sx("b")];
        assert!(theory_lemmas(&facts, &sx("(bvule #x00000020 x)"), &sort_of, LIMITS).is_none());
    }

    /// Propositional reasoning alone needs no lemma.
    #[test]
    fn a_propositional_contradiction_needs_no_lemma() {
        let facts = [sx("(= b1 (bvult x #x00000040))"), sx("b1")];
        let r = theory_lemmas(&facts, &sx("(not b1)"), &sort_of, LIMITS).unwrap();
        assert_eq!(r.lemmas.len(), 0);
        // Only `b1` is needed.
        assert_eq!(r.facts, [1]);
    }

    /// Facts the refutation does not need are left out.
    #[test]
    fn only_the_facts_a_refutation_needs_are_named() {
        let facts = [sx("(= b2 (bvult y #x00000003))"), sx("(= b1 (bvult x #x00000040))"), sx("b2"), sx("b1")];
        let r = theory_lemmas(&facts, &sx("(bvule #x00000040 x)"), &sort_of, LIMITS).unwrap();
        assert_eq!(r.facts, [1, 3]);
    }
}
