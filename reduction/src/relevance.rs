//! Which loop-invariant candidates can matter to a verdict: the cone of influence of the
//! program's assertions. A variable is relevant when an assertion (or a user invariant)
//! reads it, when a relevant variable is assigned from it, when it shares an assumption
//! or a loop condition with a relevant one, or when it is the condition of a loop whose
//! body asserts something or assigns a relevant variable. A candidate that mentions
//! variables, none of them relevant, constrains only the rest of the program, which no
//! assertion reads: assumed or not, it changes no assertion's truth and no relevant
//! candidate's induction, so inference may leave it out, sooner (a grid-stride loop's
//! `(i - i0) % (blockDim.x * gridDim.x) == 0` over a counter only a read of a read-only
//! array uses costs the solver seconds under a free grid). Leaving a candidate out is
//! always sound: it only assumes less.

use crate::seq::{Expr, Program, Stmt};

/// Whether each of `p`'s candidates is irrelevant (see the module doc).
pub fn irrelevant(p: &Program) -> Vec<bool> {
    let mut r = Relevance { relevant: vec![false; p.vars.len()], changed: false };
    // Candidates go along with the loop conditions and assumptions: all or none.
    let groups: Vec<Vec<u32>> = p.candidates.iter().map(|c| vars(&c.expr)).collect();
    loop {
        r.changed = false;
        r.stmts(&p.body);
        for g in &groups {
            r.group(g);
        }
        if !r.changed {
            break;
        }
    }
    groups.iter().map(|g| !g.is_empty() && !g.iter().any(|&v| r.relevant[v as usize])).collect()
}

struct Relevance {
    relevant: Vec<bool>,
    changed: bool,
}

fn vars(e: &Expr) -> Vec<u32> {
    let mut out = Vec::new();
    e.vars(&mut |v| out.push(v.0));
    out
}

impl Relevance {
    fn mark(&mut self, vs: &[u32]) {
        for &v in vs {
            if !self.relevant[v as usize] {
                self.relevant[v as usize] = true;
                self.changed = true;
            }
        }
    }

    /// Variables constrained together: relevant all, where one is.
    fn group(&mut self, vs: &[u32]) {
        if vs.iter().any(|&v| self.relevant[v as usize]) {
            self.mark(vs);
        }
    }

    /// One pass over `stmts`; whether they assert something or assign a relevant variable.
    fn stmts(&mut self, stmts: &[Stmt]) -> bool {
        let mut matters = false;
        for s in stmts {
            match s {
                Stmt::Assign(v, e) => {
                    if self.relevant[v.0 as usize] {
                        self.mark(&vars(e));
                        matters = true;
                    }
                }
                Stmt::Havoc(v) => matters |= self.relevant[v.0 as usize],
                Stmt::Assume(e) => self.group(&vars(e)),
                Stmt::Assert(e, _) => {
                    self.mark(&vars(e));
                    matters = true;
                }
                Stmt::Loop(lp) => {
                    for (inv, _, _) in &lp.invariants {
                        self.mark(&vars(inv));
                    }
                    let cond = vars(&lp.cond);
                    let inner = self.stmts(&lp.body) || !lp.invariants.is_empty();
                    if inner {
                        self.mark(&cond);
                    } else {
                        self.group(&cond);
                    }
                    matters |= inner;
                }
                Stmt::Note(_) => {}
            }
        }
        matters
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seq::{Candidate, Loop, Sort, VarInfo, WordOp};

    fn program(n: usize) -> Program {
        let vars = (0..n).map(|i| VarInfo { name: format!("v{i}"), sort: Sort::Word }).collect();
        Program { vars, body: Vec::new(), labels: Vec::new(), loops: Vec::new(), candidates: Vec::new(), arrays: Vec::new(), inputs: Vec::new(), sites: Vec::new() }
    }

    fn v(i: u32) -> Expr {
        Expr::Var(crate::seq::VarId(i))
    }

    /// A loop over `i` (v0) and `j` (v1) where only `j` reaches the assertion: a candidate
    /// over `i` alone is irrelevant, one over `j` is not; `i` becomes relevant once a
    /// candidate or an assumption ties it to `j`.
    #[test]
    fn candidates_outside_the_assertions_cone_are_irrelevant() {
        let mut p = program(4);
        let body = vec![
            Stmt::Assign(crate::seq::VarId(0), Expr::bin(WordOp::Add, v(0), v(3))),
            Stmt::Assign(crate::seq::VarId(1), Expr::bin(WordOp::Add, v(1), Expr::Word(1))),
            Stmt::Assert(Expr::ult(v(1), v(2)), 0),
        ];
        p.body = vec![Stmt::Loop(Loop { id: 0, cond: Expr::ult(v(1), v(2)), invariants: Vec::new(), body, k: 0 })];
        let cand = |e: Expr| Candidate { loop_id: 0, expr: e, rule: "test", derived: false };
        p.candidates = vec![cand(Expr::eq(v(0), Expr::Word(0))), cand(Expr::eq(v(1), Expr::Word(0))), cand(Expr::Bool(true))];
        assert_eq!(irrelevant(&p), [true, false, false]);
        let mut tied = p.clone();
        tied.candidates.push(cand(Expr::eq(v(0), v(1))));
        assert_eq!(irrelevant(&tied), [false, false, false, false]);
        p.body.insert(0, Stmt::Assume(Expr::eq(v(0), v(1))));
        assert_eq!(irrelevant(&p), [false, false, false]);
    }

    /// A loop whose condition only decides whether the loop's body runs is relevant where
    /// the body asserts something.
    #[test]
    fn a_loop_condition_is_relevant_where_its_body_asserts() {
        let mut p = program(3);
        let body = vec![Stmt::Assign(crate::seq::VarId(0), Expr::bin(WordOp::Add, v(0), Expr::Word(1))), Stmt::Assert(Expr::ult(v(2), Expr::Word(9)), 0)];
        p.body = vec![Stmt::Loop(Loop { id: 0, cond: Expr::ult(v(0), v(1)), invariants: Vec::new(), body, k: 0 })];
        p.candidates = vec![Candidate { loop_id: 0, expr: Expr::ult(v(0), v(1)), rule: "test", derived: false }];
        assert_eq!(irrelevant(&p), [false]);
    }
}
