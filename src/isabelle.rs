//! What the Isabelle export needs, gathered from the other stages: a run of the interpreter
//! (inputs and final arrays) and a certificate with each rewrite step replayed, so that the
//! export knows every intermediate term and rule instance.

use kpl_certify::certificate::{Certificate, TermRecord};
use kpl_certify::rewrite_check::{apply, Subst};
use kpl_certify::rules::{EVAL, RULES};
use kpl_certify::seq_to_vc::guard_symbol;
use kpl_isabelle::cert_to_isabelle as ci;
use kpl_isabelle::kpl_to_isabelle::{Init, Observed, RunData};
use kpl_isabelle::vc_to_isabelle::Sort as IsaSort;
use kpl_lang::sexp::Sx;
use kpl_semantics::report::{ArrayContents, Outcome};
use kpl_semantics::{Inputs, Program, RunResult};

/// A run's inputs and end, for the differential check. `command` reproduces it.
pub fn run_data(prog: &Program, inputs: &Inputs, r: &RunResult, command: String) -> RunData {
    let groups = prog.launch.num_groups() as u32;
    let params = prog.params.iter().map(|p| (p.clone(), inputs.param(p))).collect();
    let touched = |name: &str, g: Option<usize>| -> Vec<u32> {
        match r.memory.iter().find(|(n, _)| n == name).map(|x| &x.1) {
            Some(ArrayContents::Sparse(m)) => m.keys().copied().collect(),
            Some(ArrayContents::SparsePerGroup(ms)) => g.and_then(|g| ms.get(g)).map(|m| m.keys().copied().collect()).unwrap_or_default(),
            _ => Vec::new(),
        }
    };
    let init = |name: &str, g: Option<u32>, size: Option<u32>| -> Init {
        match size {
            Some(n) => Init::Dense((0..n).map(|i| inputs.element(name, g, i)).collect()),
            None => Init::Sparse(touched(name, g.map(|g| g as usize)).into_iter().map(|i| (i, inputs.element(name, g, i))).collect()),
        }
    };
    let (mut globals, mut shared) = (Vec::new(), Vec::new());
    for a in &prog.arrays {
        if a.kind == kpl_semantics::ir::ArrayKind::Shared {
            shared.push((a.name.clone(), (0..groups).map(|g| init(&a.name, Some(g), a.size)).collect()));
        } else {
            globals.push((a.name.clone(), init(&a.name, None, a.size)));
        }
    }
    let mut observed = Vec::new();
    if r.outcome == Outcome::Ok {
        for (name, c) in &r.memory {
            let mut add = |group: Option<usize>, indices: Vec<u32>, values: Vec<u32>| {
                observed.push(Observed { array: name.clone(), group, indices, values });
            };
            match c {
                ArrayContents::Dense(v) => add(None, (0..v.len() as u32).collect(), v.clone()),
                ArrayContents::PerGroup(gs) => {
                    for (g, v) in gs.iter().enumerate() {
                        add(Some(g), (0..v.len() as u32).collect(), v.clone());
                    }
                }
                ArrayContents::Sparse(m) => add(None, m.keys().copied().collect(), m.values().copied().collect()),
                ArrayContents::SparsePerGroup(ms) => {
                    for (g, m) in ms.iter().enumerate() {
                        add(Some(g), m.keys().copied().collect(), m.values().copied().collect());
                    }
                }
            }
        }
    }
    let havocs = (r.havocs.iter().enumerate())
        .filter(|(_, vs)| !vs.is_empty())
        .map(|(t, vs)| {
            let id = kpl_semantics::observe::thread_id(&prog.launch, t as u32);
            (id.group, id.local, vs.clone())
        })
        .collect();
    RunData { command, params, globals, shared, outcome: r.outcome.name().to_string(), observed, havocs }
}

/// A term record with every step replayed: each step's rule instance and resulting term.
fn chain(rec: &TermRecord) -> Result<ci::Chain, String> {
    let original = Sx::parse(&rec.original)?;
    let mut t = original.clone();
    let mut steps = Vec::new();
    for st in &rec.explanation {
        let mut b = Subst::new();
        for (k, v) in &st.bindings {
            b.insert(k.clone(), Sx::parse(v)?);
        }
        let after = apply(&t, st, &b)?;
        let redex = t.at(&st.position).cloned().ok_or("a step points outside its term")?;
        let contractum = after.at(&st.position).cloned().ok_or("a step points outside its term")?;
        let (lhs, rhs) = if st.rule == EVAL || st.forward { (redex, contractum) } else { (contractum, redex) };
        steps.push(ci::Step { rule: st.rule.clone(), lhs, rhs, position: st.position.clone(), after: after.clone() });
        t = after;
    }
    let simplified = Sx::parse(&rec.simplified)?;
    if t != simplified {
        return Err(format!("the explanation of `{}` does not end at its simplified form", rec.original));
    }
    Ok(ci::Chain { original, steps, simplified })
}

fn symbols_of(t: &Sx, out: &mut std::collections::BTreeSet<String>) {
    match t {
        Sx::Atom(a) => {
            out.insert(a.clone());
        }
        Sx::List(xs) => xs.iter().for_each(|x| symbols_of(x, out)),
    }
}

/// A certificate as the export needs it: terms replayed, switches named.
pub fn certificate(kernel: &str, cert: &Certificate) -> Result<ci::Certificate, String> {
    let mut definitions = Vec::new();
    for d in &cert.definitions {
        definitions.push(ci::Definition { symbol: d.symbol.clone(), chain: chain(&d.term).map_err(|e| format!("definition {}: {e}", d.symbol))? });
    }
    let mut vcs = Vec::new();
    for v in &cert.vcs {
        vcs.push(ci::Vc {
            name: v.name.clone(),
            kind: v.kind.clone(),
            what: v.what.clone(),
            line: v.line,
            col: v.col,
            goal: chain(&v.goal).map_err(|e| format!("{}: {e}", v.name))?,
        });
    }
    // The invariant switches the terms mention: kept candidates on, the others off.
    let mut syms = std::collections::BTreeSet::new();
    for d in &definitions {
        symbols_of(&d.chain.original, &mut syms);
    }
    for v in &vcs {
        symbols_of(&v.goal.original, &mut syms);
    }
    let kept: std::collections::BTreeSet<usize> = cert.invariants.iter().map(|i| i.candidate).collect();
    let prefix = guard_symbol(0).trim_end_matches('0').to_string();
    let switches = syms
        .iter()
        .filter_map(|s| {
            let i: usize = s.strip_prefix(&prefix)?.parse().ok()?;
            (guard_symbol(i) == *s).then(|| (s.clone(), kept.contains(&i)))
        })
        .collect();
    let invariants = cert
        .invariants
        .iter()
        .map(|i| Ok(ci::Invariant { candidate: i.candidate, rule: i.rule.clone(), expr: Sx::parse(&i.expr)? }))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(ci::Certificate { kernel: kernel.to_string(), definitions, vcs, switches, invariants })
}

/// The simplifier's rules as the export takes them.
pub fn rules() -> Vec<(String, String, String)> {
    RULES.iter().map(|(n, l, r)| (n.to_string(), l.to_string(), r.to_string())).collect()
}

/// Theory lemmas for a verification condition, found with Z3 (`kpl_certify::theory_lemmas`),
/// for the export to close the condition in Isabelle's kernel instead of by the SMT oracle.
pub fn theory_lemmas(facts: &[Sx], goal: &Sx, sort: &dyn Fn(&str) -> IsaSort) -> Option<(Vec<Vec<(Sx, bool)>>, Vec<usize>)> {
    use kpl_certify::vc::Sort;
    let sort = |s: &str| match sort(s) {
        IsaSort::Bool => Sort::Bool,
        IsaSort::Word => Sort::Word,
        IsaSort::Array => Sort::Array,
    };
    let r = kpl_certify::theory_lemmas::theory_lemmas(facts, goal, &sort, THEORY_LEMMA_LIMITS)?;
    Some((r.lemmas.into_iter().map(|l| l.into_iter().map(|lit| (lit.atom, lit.holds)).collect()).collect(), r.facts))
}

/// How hard to look for theory lemmas per verification condition before leaving it to the
/// SMT oracle: the same on every machine (rounds, solver calls, Z3's resource units per call),
/// with a wall-clock bound only as a safety net.
const THEORY_LEMMA_LIMITS: kpl_certify::theory_lemmas::Limits =
    kpl_certify::theory_lemmas::Limits { rounds: 100, checks: 2000, rlimit: 2_000_000, wall: std::time::Duration::from_secs(20) };
