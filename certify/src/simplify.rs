//! Simplification of the verification conditions before solving.
//!
//! Two passes. `inline` substitutes definitions used once (or tiny ones) into their uses,
//! so that terms split across SSA definitions meet (it is part of VC generation: the
//! checker repeats it). Then equality saturation (egg) with the bit-precise rules of
//! `rules`, under node, iteration and time budgets (the best term found so far is used),
//! extraction by a cost that spares the solver multiplications and divisions, and constant
//! folding before and after. Every simplified term keeps its flat explanation: the steps
//! (rule, direction, position) from the original term to the simplified one.

use crate::rules::{rewrites, EVAL};
use crate::seq_to_vc::Encoding;
use crate::sexp::{of_recexpr, of_term, to_term, Sx};
use crate::vc::{Terms, Vc, Word};
use egg::{CostFunction, Id, Language, RecExpr, Runner};
use std::collections::HashMap;
use std::time::Duration;

/// One rewrite of an explanation: `rule` applied at `position` (a path of argument
/// indices), forward (`lhs` to `rhs`) or backward.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    pub rule: String,
    pub forward: bool,
    pub position: Vec<usize>,
    /// Terms for the target side's variables that the matched side does not bind
    /// (rewriting `#x00000000` back to `(bvsub ?a ?a)` must say what `?a` is).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub bindings: std::collections::BTreeMap<String, String>,
}

/// A term before and after simplification, and how.
#[derive(Clone, Debug)]
pub struct Simplification {
    pub original: Sx,
    pub simplified: Sx,
    pub steps: Vec<Step>,
}

#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub nodes: usize,
    pub iters: usize,
    pub time: Duration,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget { nodes: 20_000, iters: 8, time: Duration::from_millis(1500) }
    }
}

/// What simplification did to an encoding.
pub struct Report {
    /// Definitions kept, by symbol, in order.
    pub defs: Vec<(String, Simplification)>,
    /// By label index (program checks), and by candidate index (entry, preservation...).
    pub checks: Vec<Option<Simplification>>,
    pub candidates: Vec<Vec<Simplification>>,
    pub nodes_before: usize,
    pub nodes_after: usize,
    /// Why saturation stopped.
    pub stop: String,
}

/// The result of inlining: the arena (with new terms), the definitions kept, and the
/// substitution of the inlined ones (definition symbol ─► its term).
pub struct Inlined {
    pub terms: Terms,
    pub kept: Vec<(Id, Id)>,
    pub subst: HashMap<Id, Id>,
}

/// Inline definitions used at most once, or whose (inlined) right side has at most 4
/// nodes. Deterministic: the certificate checker runs it again.
pub fn inline(enc: &Encoding) -> Inlined {
    let mut t = enc.terms.clone();
    let mut uses: HashMap<Id, usize> = HashMap::new();
    let mut roots: Vec<Id> = enc.defs.iter().map(|d| d.1).collect();
    roots.extend(enc.checks.iter().flatten().map(|c| c.fail));
    roots.extend(enc.candidate_fails.iter().flatten().copied());
    for r in &roots {
        count_uses(&t, *r, &mut uses);
    }
    let mut subst: HashMap<Id, Id> = HashMap::new();
    let mut kept = Vec::new();
    for (sym, rhs) in &enc.defs {
        let new_rhs = substitute(&mut t, *rhs, &subst, &mut HashMap::new());
        let small = tree_size(&t, new_rhs, 5) <= 4;
        if uses.get(sym).copied().unwrap_or(0) <= 1 || small {
            subst.insert(*sym, new_rhs);
        } else {
            kept.push((*sym, new_rhs));
        }
    }
    Inlined { terms: t, kept, subst }
}

impl Inlined {
    /// A goal with the inlined definitions substituted.
    pub fn goal(&mut self, id: Id) -> Id {
        substitute(&mut self.terms, id, &self.subst, &mut HashMap::new())
    }
}

fn count_uses(t: &Terms, id: Id, uses: &mut HashMap<Id, usize>) {
    // Count occurrences in the tree of each root, but walk each DAG node once per parent.
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![id];
    while let Some(i) = stack.pop() {
        let n = t.node(i);
        if let Vc::Var(_) = n {
            *uses.entry(i).or_insert(0) += 1;
            continue;
        }
        if seen.insert(i) {
            stack.extend(n.children().iter().copied());
        } else {
            // A shared subterm: its variables are used again.
            let mut vars = Vec::new();
            collect_vars(t, i, &mut vars);
            for v in vars {
                *uses.entry(v).or_insert(0) += 1;
            }
        }
    }
}

fn collect_vars(t: &Terms, id: Id, out: &mut Vec<Id>) {
    match t.node(id) {
        Vc::Var(_) => out.push(id),
        n => n.children().iter().for_each(|c| collect_vars(t, *c, out)),
    }
}

fn substitute(t: &mut Terms, id: Id, subst: &HashMap<Id, Id>, memo: &mut HashMap<Id, Id>) -> Id {
    if let Some(&s) = subst.get(&id) {
        return s;
    }
    if let Some(&m) = memo.get(&id) {
        return m;
    }
    let n = t.node(id).clone();
    let out = if n.is_leaf() {
        id
    } else {
        let n2 = n.map_children(|c| substitute(t, c, subst, memo));
        t.add(n2)
    };
    memo.insert(id, out);
    out
}

/// Tree size of a term, counting at most to `cap`.
fn tree_size(t: &Terms, id: Id, cap: usize) -> usize {
    let mut n = 1;
    for c in t.node(id).children() {
        if n > cap {
            break;
        }
        n += tree_size(t, *c, cap);
    }
    n
}

/// The cost the extraction minimises: size, with multiplications, divisions and
/// uninterpreted functions dear (solvers bit-blast them into large circuits).
pub struct SolverCost;

impl CostFunction<Vc> for SolverCost {
    type Cost = usize;
    fn cost<C>(&mut self, enode: &Vc, mut costs: C) -> usize
    where
        C: FnMut(Id) -> usize,
    {
        let own = match enode {
            Vc::Mul(_) | Vc::Udiv(_) | Vc::Urem(_) | Vc::Sdiv(_) | Vc::Srem(_) => 16,
            Vc::App(..) => 8,
            Vc::Shl(_) | Vc::Lshr(_) | Vc::Ashr(_) => 4,
            Vc::Ite(_) | Vc::Store(_) | Vc::Select(_) => 2,
            _ => 1,
        };
        enode.fold(own, |sum, id| sum.saturating_add(costs(id)))
    }
}

/// A literal of the VC language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lit {
    Word(u32),
    Bool(bool),
}

pub fn lit_of(a: &str) -> Option<Lit> {
    match a {
        "true" => Some(Lit::Bool(true)),
        "false" => Some(Lit::Bool(false)),
        _ => a.parse::<Word>().ok().map(|w| Lit::Word(w.0)),
    }
}

pub fn lit_atom(l: Lit) -> Sx {
    match l {
        Lit::Word(w) => Sx::Atom(Word(w).to_string()),
        Lit::Bool(b) => Sx::Atom(b.to_string()),
    }
}

/// The value of an operator on literals (KPL's semantics), if it has one.
pub fn eval(op: &str, args: &[Lit]) -> Option<Lit> {
    use kpl_lang::ops;
    use Lit::*;
    let w2 = |f: fn(u32, u32) -> u32| match args {
        [Word(a), Word(b)] => Some(Word(f(*a, *b))),
        _ => None,
    };
    let c2 = |f: fn(u32, u32) -> bool| match args {
        [Word(a), Word(b)] => Some(Bool(f(*a, *b))),
        _ => None,
    };
    match op {
        "bvadd" => w2(u32::wrapping_add),
        "bvsub" => w2(u32::wrapping_sub),
        "bvmul" => w2(u32::wrapping_mul),
        "bvudiv" => w2(ops::udiv),
        "bvurem" => w2(ops::urem),
        "bvsdiv" => w2(ops::sdiv),
        "bvsrem" => w2(ops::srem),
        "bvshl" => w2(ops::shl),
        "bvlshr" => w2(ops::lshr),
        "bvashr" => w2(ops::ashr),
        "bvand" => w2(|a, b| a & b),
        "bvor" => w2(|a, b| a | b),
        "bvxor" => w2(|a, b| a ^ b),
        "bvnot" => match args {
            [Word(a)] => Some(Word(!a)),
            _ => None,
        },
        "bvneg" => match args {
            [Word(a)] => Some(Word(a.wrapping_neg())),
            _ => None,
        },
        "bvult" => c2(|a, b| a < b),
        "bvule" => c2(|a, b| a <= b),
        "bvslt" => c2(|a, b| (a as i32) < (b as i32)),
        "bvsle" => c2(|a, b| (a as i32) <= (b as i32)),
        "=" => match args {
            [a, b] => Some(Bool(a == b)),
            _ => None,
        },
        "and" => match args {
            [Bool(a), Bool(b)] => Some(Bool(*a && *b)),
            _ => None,
        },
        "or" => match args {
            [Bool(a), Bool(b)] => Some(Bool(*a || *b)),
            _ => None,
        },
        "=>" => match args {
            [Bool(a), Bool(b)] => Some(Bool(!*a || *b)),
            _ => None,
        },
        "not" => match args {
            [Bool(a)] => Some(Bool(!a)),
            _ => None,
        },
        "ite" => match args {
            [Bool(c), a, b] => Some(if *c { *a } else { *b }),
            _ => None,
        },
        _ => None,
    }
}

/// Fold every operator applied to literals, bottom-up; each fold is an `eval` step.
pub fn fold(s: &Sx, steps: &mut Vec<Step>) -> Sx {
    fn go(s: &Sx, path: &mut Vec<usize>, steps: &mut Vec<Step>) -> Sx {
        let Sx::List(xs) = s else { return s.clone() };
        let mut ys = vec![xs[0].clone()];
        for (i, x) in xs[1..].iter().enumerate() {
            path.push(i);
            ys.push(go(x, path, steps));
            path.pop();
        }
        let args: Option<Vec<Lit>> = ys[1..].iter().map(|a| if let Sx::Atom(a) = a { lit_of(a) } else { None }).collect();
        if let Some(v) = args.and_then(|a| eval(s.head(), &a)) {
            steps.push(Step { rule: EVAL.into(), forward: true, position: path.clone(), bindings: Default::default() });
            return lit_atom(v);
        }
        Sx::List(ys)
    }
    go(s, &mut Vec::new(), steps)
}

/// A flat term as a tree (rule annotations dropped).
fn flat_sx(t: &egg::FlatTerm<Vc>) -> Sx {
    if t.children.is_empty() {
        return Sx::Atom(t.node.to_string());
    }
    let mut xs = vec![Sx::Atom(t.node.to_string())];
    xs.extend(t.children.iter().map(flat_sx));
    Sx::List(xs)
}

/// Steps of an egg flat explanation, with the bindings a backward step needs.
fn flat_steps(flat: &[egg::FlatTerm<Vc>]) -> Vec<Step> {
    fn find(t: &egg::FlatTerm<Vc>, path: &mut Vec<usize>) -> Option<(String, bool, Vec<usize>)> {
        if let Some(r) = t.forward_rule {
            return Some((r.to_string(), true, path.clone()));
        }
        if let Some(r) = t.backward_rule {
            return Some((r.to_string(), false, path.clone()));
        }
        for (i, c) in t.children.iter().enumerate() {
            path.push(i);
            if let Some(x) = find(c, path) {
                return Some(x);
            }
            path.pop();
        }
        None
    }
    let mut out = Vec::new();
    for w in flat.windows(2) {
        let Some((rule, forward, position)) = find(&w[1], &mut Vec::new()) else { continue };
        let mut bindings = std::collections::BTreeMap::new();
        if let Some((l, r)) = crate::rewrite_check::rule(&rule) {
            let (src, dst) = if forward { (l, r) } else { (r, l) };
            let (mut sv, mut dv) = (Vec::new(), Vec::new());
            crate::rewrite_check::vars(&src, &mut sv);
            crate::rewrite_check::vars(&dst, &mut dv);
            if dv.iter().any(|v| !sv.contains(v)) {
                let after = flat_sx(&w[1]);
                let mut s = crate::rewrite_check::Subst::new();
                if let Some(sub) = after.at(&position) {
                    if crate::rewrite_check::matches(&dst, sub, &mut s) {
                        for v in dv.iter().filter(|v| !sv.contains(v)) {
                            if let Some(b) = s.get(v) {
                                bindings.insert(v.clone(), b.to_string());
                            }
                        }
                    }
                }
            }
        }
        out.push(Step { rule, forward, position, bindings });
    }
    out
}

/// Simplify an encoding in place: definitions inlined, every kept definition, check and
/// candidate goal simplified. With `explain`, the report keeps each term's explanation.
pub fn simplify(enc: &mut Encoding, budget: Budget, explain: bool) -> Report {
    let mut inl = inline(enc);
    // Roots: kept definitions, then checks, then candidate failures.
    let mut roots: Vec<Id> = inl.kept.iter().map(|d| d.1).collect();
    let checks: Vec<Option<Id>> = enc.checks.iter().map(|c| c.as_ref().map(|c| inl.goal(c.fail))).collect();
    let cands: Vec<Vec<Id>> = enc.candidate_fails.iter().map(|fs| fs.iter().map(|f| inl.goal(*f)).collect()).collect();
    let kept = std::mem::take(&mut inl.kept);
    let subst = std::mem::take(&mut inl.subst);
    let mut t = inl.terms;
    roots.extend(checks.iter().flatten());
    roots.extend(cands.iter().flatten());
    let before_terms: Vec<Sx> = roots.iter().map(|r| of_term(&t, *r)).collect();
    let nodes_before: usize = before_terms.iter().map(Sx::size).sum();
    // Fold, then saturate all roots in one e-graph.
    let mut pre_steps: Vec<Vec<Step>> = Vec::new();
    let folded: Vec<Sx> = before_terms
        .iter()
        .map(|s| {
            let mut st = Vec::new();
            let f = fold(s, &mut st);
            pre_steps.push(st);
            f
        })
        .collect();
    let exprs: Vec<RecExpr<Vc>> = folded.iter().map(|s| to_recexpr(s)).collect();
    let mut runner = Runner::default()
        .with_node_limit(budget.nodes)
        .with_iter_limit(budget.iters)
        .with_time_limit(budget.time)
        .with_explanations_enabled();
    for e in &exprs {
        runner = runner.with_expr(e);
    }
    let rules = rewrites();
    let mut runner = runner.run(&rules);
    let stop = format!("{:?}", runner.stop_reason);
    let bests: Vec<RecExpr<Vc>> = {
        let extractor = egg::Extractor::new(&runner.egraph, SolverCost);
        runner.roots.iter().map(|r| extractor.find_best(*r).1).collect()
    };
    let mut results = Vec::new();
    for (i, best) in bests.into_iter().enumerate() {
        let best_sx = of_recexpr(&best);
        let mut steps = std::mem::take(&mut pre_steps[i]);
        if explain && best_sx != folded[i] {
            let mut ex = runner.explain_equivalence(&exprs[i], &best);
            steps.extend(flat_steps(ex.make_flat_explanation()));
        }
        let after = fold(&best_sx, &mut steps);
        results.push(Simplification { original: before_terms[i].clone(), simplified: after, steps });
    }
    let nodes_after: usize = results.iter().map(|r| r.simplified.size()).sum();
    // Rebuild the encoding from the simplified terms.
    let mut it = results.into_iter();
    let mut new_defs = Vec::new();
    let mut def_reports = Vec::new();
    for (sym, _) in &kept {
        let Some(s) = it.next() else { break };
        let id = to_term(&mut t, &s.simplified).unwrap_or(*sym);
        new_defs.push((*sym, id));
        def_reports.push((t.node(*sym).to_string(), s));
    }
    let mut check_reports = Vec::new();
    for (l, c) in checks.iter().enumerate() {
        match c {
            Some(_) => {
                let s = it.next();
                if let (Some(s), Some(check)) = (&s, enc.checks[l].as_mut()) {
                    check.fail = to_term(&mut t, &s.simplified).unwrap_or(check.fail);
                }
                check_reports.push(s);
            }
            None => check_reports.push(None),
        }
    }
    let mut cand_reports = Vec::new();
    for (c, fs) in cands.iter().enumerate() {
        let mut rs = Vec::new();
        for k in 0..fs.len() {
            if let Some(s) = it.next() {
                enc.candidate_fails[c][k] = to_term(&mut t, &s.simplified).unwrap_or(enc.candidate_fails[c][k]);
                rs.push(s);
            }
        }
        cand_reports.push(rs);
    }
    // Witnesses still name inlined symbols: the lowering resolves them to their terms.
    for (sym, v) in subst {
        if let Vc::Var(s) = t.node(sym).clone() {
            t.aliases.insert(s, v);
        }
    }
    enc.terms = t;
    enc.defs = new_defs;
    Report {
        defs: if explain { def_reports } else { Vec::new() },
        checks: if explain { check_reports } else { Vec::new() },
        candidates: if explain { cand_reports } else { Vec::new() },
        nodes_before,
        nodes_after,
        stop,
    }
}

fn to_recexpr(s: &Sx) -> RecExpr<Vc> {
    let mut t = Terms::default();
    let id = to_term(&mut t, s).unwrap_or_else(|_| t.add(Vc::Bool(true)));
    t.extract(id)
}
