//! Checking one rewrite step without egg: the subterm at the step's position must be an
//! instance of the named rule's side (or an operator on literals, for `eval`), and the step
//! replaces it by the other side under the same substitution.

use crate::rules::{EVAL, RULES};
use crate::sexp::Sx;
use crate::simplify::{eval, lit_atom, lit_of, Step};
use std::collections::BTreeMap;

pub type Subst = BTreeMap<String, Sx>;

fn is_var(a: &str) -> bool {
    a.starts_with('?')
}

/// Match a pattern against a term, extending `s`.
pub fn matches(pat: &Sx, term: &Sx, s: &mut Subst) -> bool {
    match pat {
        Sx::Atom(a) if is_var(a) => match s.get(a) {
            Some(bound) => bound == term,
            None => {
                s.insert(a.clone(), term.clone());
                true
            }
        },
        Sx::Atom(a) => matches!(term, Sx::Atom(b) if a == b),
        Sx::List(ps) => match term {
            Sx::List(ts) if ts.len() == ps.len() => ps.iter().zip(ts).all(|(p, t)| matches(p, t, s)),
            _ => false,
        },
    }
}

pub fn instantiate(pat: &Sx, s: &Subst) -> Option<Sx> {
    match pat {
        Sx::Atom(a) if is_var(a) => s.get(a).cloned(),
        Sx::Atom(_) => Some(pat.clone()),
        Sx::List(ps) => ps.iter().map(|p| instantiate(p, s)).collect::<Option<Vec<_>>>().map(Sx::List),
    }
}

pub fn vars(pat: &Sx, out: &mut Vec<String>) {
    match pat {
        Sx::Atom(a) if is_var(a) => {
            if !out.contains(a) {
                out.push(a.clone())
            }
        }
        Sx::Atom(_) => {}
        Sx::List(ps) => ps.iter().for_each(|p| vars(p, out)),
    }
}

/// A rule's two sides, parsed.
pub fn rule(name: &str) -> Option<(Sx, Sx)> {
    let (_, l, r) = RULES.iter().find(|(n, _, _)| *n == name)?;
    Some((Sx::parse(l).ok()?, Sx::parse(r).ok()?))
}

/// Apply a step to a term, checking that it is exactly one instance of its rule.
/// `bindings` gives the target side's variables the source side does not bind.
pub fn apply(term: &Sx, step: &Step, bindings: &Subst) -> Result<Sx, String> {
    let sub = term.at(&step.position).ok_or_else(|| format!("no subterm at position {:?}", step.position))?;
    let new = if step.rule == EVAL {
        let Sx::List(xs) = sub else { return Err("`eval` at an atom".into()) };
        let args = xs[1..]
            .iter()
            .map(|a| if let Sx::Atom(a) = a { lit_of(a) } else { None })
            .collect::<Option<Vec<_>>>()
            .ok_or("`eval` of an operator whose arguments are not all literals")?;
        lit_atom(eval(sub.head(), &args).ok_or_else(|| format!("`{}` cannot be evaluated", sub.head()))?)
    } else {
        let (l, r) = rule(&step.rule).ok_or_else(|| format!("no rule named `{}`", step.rule))?;
        let (src, dst) = if step.forward { (l, r) } else { (r, l) };
        let mut s = Subst::new();
        if !matches(&src, sub, &mut s) {
            return Err(format!("`{sub}` is not an instance of `{src}` (rule `{}`)", step.rule));
        }
        for (k, v) in bindings {
            if s.contains_key(k) {
                return Err(format!("binding of `{k}` given although the rule binds it"));
            }
            s.insert(k.clone(), v.clone());
        }
        instantiate(&dst, &s).ok_or_else(|| format!("rule `{}` leaves a variable unbound", step.rule))?
    };
    term.replace(&step.position, new).ok_or_else(|| "cannot replace the subterm".into())
}

/// Replay a whole explanation from `original`; gives the final term.
pub fn replay(original: &Sx, steps: &[(Step, Subst)]) -> Result<Sx, String> {
    let mut t = original.clone();
    for (i, (st, b)) in steps.iter().enumerate() {
        t = apply(&t, st, b).map_err(|e| format!("step {} ({} {}): {e}", i + 1, st.rule, if st.forward { "=>" } else { "<=" }))?;
    }
    Ok(t)
}
