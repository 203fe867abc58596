//! Equality proofs of float terms for a crosscheck's certificate: a normaliser on term
//! trees that records every rewrite it makes as a step of `kpl_certify::float_rules` (the
//! rule, its position, its direction), so that `check-cert` replays the steps with its own
//! matcher and needs to trust neither this normaliser nor `canon`. It computes the forms
//! `canon` computes (the exact rewrites; sums and products reordered under
//! `float-reassoc`, literals first; `mul-zero`'s zeros), on trees instead of the shared
//! arena, so it runs only for the certificate.

use crate::canon::Assumptions;
use kpl_certify::float_rules::{chain_operands, float_eval, RuleSet, AC, FLOAT_EVAL};
use kpl_certify::rules::EVAL;
use kpl_certify::sexp::Sx;
use kpl_certify::simplify::{eval, lit_atom, lit_of, Lit, Step};
use kpl_certify::vc::Terms;
use egg::{Id, Language};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

const SIGN: &str = "#x80000000";

/// The rule sets a proof under these assumptions may use.
pub fn rule_sets(a: Assumptions) -> Vec<RuleSet> {
    let mut v = vec![RuleSet::Exact];
    if a.reassoc {
        v.push(RuleSet::Reassoc);
    }
    if a.mul_zero {
        v.push(RuleSet::MulZero);
    }
    v
}

/// The number of nodes of a term's tree (sharing expanded), or `None` past `limit`.
pub fn tree_size(t: &Terms, root: Id, limit: usize) -> Option<usize> {
    let mut size: HashMap<Id, usize> = HashMap::new();
    for id in {
        let mut ids = t.reachable(&[root]);
        ids.sort();
        ids
    } {
        let s = t.node(id).children().iter().fold(1usize, |acc, c| acc.saturating_add(size[c]));
        size.insert(id, s.min(limit + 1));
    }
    size.get(&root).copied().filter(|&s| s <= limit)
}

/// The normal form of `t` and the steps from `t` to it.
pub fn normalise(t: &Sx, a: Assumptions) -> (Sx, Vec<Step>) {
    let mut n = Normaliser { a, steps: Vec::new() };
    let mut pos = Vec::new();
    let out = n.norm(t, &mut pos);
    (out, n.steps)
}

struct Normaliser {
    a: Assumptions,
    steps: Vec<Step>,
}

fn word(t: &Sx) -> Option<u32> {
    match t {
        Sx::Atom(s) => match lit_of(s) {
            Some(Lit::Word(w)) => Some(w),
            _ => None,
        },
        Sx::List(_) => None,
    }
}

fn app(op: &str, args: Vec<Sx>) -> Sx {
    let mut xs = vec![Sx::atom(op)];
    xs.extend(args);
    Sx::List(xs)
}

fn neg(x: Sx) -> Sx {
    app("bvxor", vec![x, Sx::atom(SIGN)])
}

/// The positions (relative to `t`) of the operands of the chain of `op` at `t`.
fn chain_paths(t: &Sx, op: &str, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if t.head() == op && t.args().len() == 2 && matches!(t, Sx::List(_)) {
        for (i, a) in t.args().iter().enumerate() {
            at.push(i);
            chain_paths(a, op, at, out);
            at.pop();
        }
    } else {
        out.push(at.clone());
    }
}

/// A total order of terms: literals first, then other atoms, then applications.
fn order(a: &Sx, b: &Sx) -> Ordering {
    let rank = |x: &Sx| match x {
        Sx::Atom(s) if lit_of(s).is_some() => 0,
        Sx::Atom(_) => 1,
        Sx::List(_) => 2,
    };
    rank(a).cmp(&rank(b)).then_with(|| match (a, b) {
        (Sx::Atom(x), Sx::Atom(y)) => x.cmp(y),
        (Sx::List(xs), Sx::List(ys)) => {
            xs.len().cmp(&ys.len()).then_with(|| xs.iter().zip(ys).map(|(x, y)| order(x, y)).find(|o| o.is_ne()).unwrap_or(Ordering::Equal))
        }
        _ => Ordering::Equal,
    })
}

impl Normaliser {
    fn step(&mut self, rule: &str, pos: &[usize], result: Option<&Sx>) {
        let bindings: BTreeMap<String, String> = result.map(|r| [("result".to_string(), r.to_string())].into()).unwrap_or_default();
        self.steps.push(Step { rule: rule.to_string(), forward: true, position: pos.to_vec(), bindings });
    }

    fn norm(&mut self, t: &Sx, pos: &mut Vec<usize>) -> Sx {
        // Under `float-reassoc` alone, a whole chain of one operation at once: its operands
        // normalised, then one reordering (a step per node would repeat the chain's text).
        let op = t.head().to_string();
        if self.a.reassoc && !self.a.mul_zero && matches!(op.as_str(), "fadd" | "fmul") && t.args().len() == 2 {
            let mut paths = Vec::new();
            chain_paths(t, &op, &mut Vec::new(), &mut paths);
            let mut cur = t.clone();
            for p in paths {
                let Some(operand) = t.at(&p).cloned() else { continue };
                let depth = pos.len();
                pos.extend(&p);
                let n = self.norm(&operand, pos);
                pos.truncate(depth);
                if let Some(place) = cur.at_mut(&p) {
                    *place = n;
                }
            }
            return self.reorder(&op, cur, pos);
        }
        let t = match t {
            Sx::List(xs) if xs.len() > 1 => {
                let mut ys = vec![xs[0].clone()];
                for (i, x) in xs[1..].iter().enumerate() {
                    pos.push(i);
                    ys.push(self.norm(x, pos));
                    pos.pop();
                }
                Sx::List(ys)
            }
            _ => t.clone(),
        };
        self.local(t, pos)
    }

    /// Rewrite a node whose children are normal.
    fn local(&mut self, t: Sx, pos: &mut Vec<usize>) -> Sx {
        if let Some(v) = float_eval(&t) {
            self.step(FLOAT_EVAL, pos, None);
            return v;
        }
        let args = t.args().to_vec();
        match (t.head(), args.as_slice()) {
            ("bvxor", [x, m]) if *m == Sx::atom(SIGN) => {
                if let Some(w) = word(x) {
                    self.step(EVAL, pos, None);
                    return eval("bvxor", &[Lit::Word(w), Lit::Word(0x8000_0000)]).map(lit_atom).unwrap_or(t);
                }
                if x.head() == "bvxor" && x.args().get(1) == Some(m) {
                    self.step("fneg-fneg", pos, None);
                    return x.args()[0].clone();
                }
                if self.a.reassoc && x.head() == "fadd" && x.args().len() == 2 {
                    self.step("fneg-fadd", pos, None);
                    let mut kids = Vec::new();
                    for (i, y) in x.args().iter().enumerate() {
                        pos.push(i);
                        kids.push(self.local(neg(y.clone()), pos));
                        pos.pop();
                    }
                    return self.local(app("fadd", kids), pos);
                }
                t
            }
            ("fsub", [x, y]) => {
                self.step("fsub-def", pos, None);
                pos.push(1);
                let ny = self.local(neg(y.clone()), pos);
                pos.pop();
                self.local(app("fadd", vec![x.clone(), ny]), pos)
            }
            ("fadd" | "fmul", [x, y]) => self.sum_or_product(t.head().to_string(), x.clone(), y.clone(), pos),
            _ => t,
        }
    }

    fn sum_or_product(&mut self, op: String, x: Sx, y: Sx, pos: &[usize]) -> Sx {
        let zero = |v: &Sx| word(v).is_some_and(|w| w & 0x7fff_ffff == 0);
        let sign = |v: &Sx| if word(v) == Some(0) { "zero" } else { "negzero" };
        if self.a.mul_zero {
            if op == "fmul" && zero(&y) {
                self.step(&format!("mz-fmul-{}-r", sign(&y)), pos, None);
                return Sx::atom("#x00000000");
            }
            if op == "fmul" && zero(&x) {
                self.step(&format!("mz-fmul-{}-l", sign(&x)), pos, None);
                return Sx::atom("#x00000000");
            }
            if op == "fadd" && zero(&y) {
                self.step(&format!("mz-fadd-{}-r", sign(&y)), pos, None);
                return x;
            }
            if op == "fadd" && zero(&x) {
                self.step(&format!("mz-fadd-{}-l", sign(&x)), pos, None);
                return y;
            }
        }
        let t = app(&op, vec![x.clone(), y.clone()]);
        if !self.a.reassoc {
            if order(&y, &x) == Ordering::Less {
                self.step(&format!("{op}-comm"), pos, None);
                return app(&op, vec![y, x]);
            }
            return t;
        }
        self.reorder(&op, t, pos)
    }

    /// Under `float-reassoc`: a chain of `op` whose operands are normal, as one sorted
    /// chain (literals first, folded into one, dropped if it is the identity).
    fn reorder(&mut self, op: &str, t: Sx, pos: &[usize]) -> Sx {
        let op = op.to_string();
        let mut ops: Vec<Sx> = {
            let mut v = Vec::new();
            chain_operands(&t, &op, &mut v);
            v.into_iter().cloned().collect()
        };
        ops.sort_by(order);
        let chain = |ops: &[Sx]| ops[1..].iter().fold(ops[0].clone(), |acc, o| app(&op, vec![acc, o.clone()]));
        let mut cur = chain(&ops);
        if cur != t {
            self.step(AC, pos, Some(&cur));
        }
        // Literals come first: fold them into one, then drop it if it is the identity.
        let inner = |n: usize, pos: &[usize]| {
            let mut p = pos.to_vec();
            p.extend(std::iter::repeat_n(0, n - 2));
            p
        };
        while ops.len() >= 2 && word(&ops[0]).is_some() && word(&ops[1]).is_some() {
            let node = app(&op, vec![ops[0].clone(), ops[1].clone()]);
            let Some(v) = float_eval(&node) else { break };
            self.step(FLOAT_EVAL, &inner(ops.len(), pos), None);
            ops.splice(0..2, [v]);
            cur = chain(&ops);
        }
        if ops.len() >= 2 {
            let rule = match (op.as_str(), word(&ops[0])) {
                ("fadd", Some(0)) => Some("fadd-zero-l"),
                ("fadd", Some(0x8000_0000)) => Some("fadd-negzero-l"),
                ("fmul", Some(w)) if w == 1.0f32.to_bits() => Some("fmul-one-l"),
                _ => None,
            };
            if let Some(r) = rule {
                self.step(r, &inner(ops.len(), pos), None);
                ops.remove(0);
                cur = chain(&ops);
            }
        }
        cur
    }
}
