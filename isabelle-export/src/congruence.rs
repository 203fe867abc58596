//! Ground congruence closure: whether a theory lemma `¬ (l1 ∧ ... ∧ ln)` holds by equality
//! reasoning alone (every operator uninterpreted), so that a first-order prover with
//! equality (`metis`) proves it whatever the operators mean.

use kpl_lang::sexp::Sx;
use std::collections::HashMap;

/// Do the literals contradict each other by equality and congruence alone: an equation made
/// false, or an atom made both true and false?
pub fn contradictory(lits: &[(Sx, bool)]) -> bool {
    let mut cc = Closure::default();
    let (t, f) = (cc.add(&Sx::atom("true")), cc.add(&Sx::atom("false")));
    let mut differ = Vec::new();
    for (atom, holds) in lits {
        let a = cc.add(atom);
        match (atom.head(), atom.args()) {
            ("=", [l, r]) => {
                let (l, r) = (cc.add(l), cc.add(r));
                if *holds {
                    cc.union(l, r);
                } else {
                    differ.push((l, r));
                }
            }
            _ => cc.union(a, if *holds { t } else { f }),
        }
    }
    cc.close();
    cc.find(t) == cc.find(f) || differ.iter().any(|&(l, r)| cc.find(l) == cc.find(r))
}

/// Terms, each once, with a union-find over them.
#[derive(Default)]
struct Closure {
    index: HashMap<Sx, usize>,
    /// Each term's head and argument terms.
    nodes: Vec<(String, Vec<usize>)>,
    parent: Vec<usize>,
}

impl Closure {
    fn add(&mut self, t: &Sx) -> usize {
        if let Some(&i) = self.index.get(t) {
            return i;
        }
        let args: Vec<usize> = t.args().iter().map(|a| self.add(a)).collect();
        let i = self.nodes.len();
        self.nodes.push((t.head().to_string(), args));
        self.parent.push(i);
        self.index.insert(t.clone(), i);
        i
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        self.parent[a] = b;
    }

    /// Merges applications of one head to equal arguments until nothing changes.
    fn close(&mut self) {
        loop {
            let mut changed = false;
            for i in 0..self.nodes.len() {
                for j in i + 1..self.nodes.len() {
                    if self.find(i) == self.find(j) || self.nodes[i].0 != self.nodes[j].0 || self.nodes[i].1.len() != self.nodes[j].1.len() {
                        continue;
                    }
                    if self.nodes[i].1.is_empty() {
                        continue;
                    }
                    let (ai, aj) = (self.nodes[i].1.clone(), self.nodes[j].1.clone());
                    if ai.iter().zip(&aj).all(|(&x, &y)| self.find(x) == self.find(y)) {
                        self.union(i, j);
                        changed = true;
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(s: &[(&str, bool)]) -> Vec<(Sx, bool)> {
        s.iter().map(|(a, h)| (Sx::parse(a).unwrap(), *h)).collect()
    }

    #[test]
    fn equal_arguments_give_equal_products() {
        let l = lits(&[("(= d1 d2)", true), ("(= e1 (bvmul d1 #x00000002))", true), ("(= e2 (bvmul d2 #x00000002))", true), ("(= e1 e2)", false)]);
        assert!(contradictory(&l));
        let l = lits(&[("(= d1 d2)", true), ("(bvule #x00000040 (bvmul d1 #x00000002))", true), ("(bvule #x00000040 (bvmul d2 #x00000002))", false)]);
        assert!(contradictory(&l));
    }

    #[test]
    fn arithmetic_is_not_congruence() {
        // True over words, but not by equality reasoning: x + 0 is not x to an uninterpreted `bvadd`.
        let l = lits(&[("(= y (bvadd x #x00000000))", true), ("(= x y)", false)]);
        assert!(!contradictory(&l));
        // Distinct literals are not taken to differ.
        let l = lits(&[("(= x #x00000001)", true), ("(= x #x00000002)", true)]);
        assert!(!contradictory(&l));
    }
}
