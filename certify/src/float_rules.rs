//! The rewrite rules of `kpl crosscheck`'s equality proofs on float terms, and their
//! checker: IEEE-exact identities (commutativity, `x - y = x + (-y)`, `-(-x) = x`,
//! operations on literals evaluated as KPL evaluates them) always, and the rules of each
//! assumption a crosscheck may name (KLEE-CL's): `float-reassoc` (sums and products
//! reordered as real ones: the pseudo-rule `ac`, identities dropped, negation over a sum)
//! and `mul-zero` (`x * 0 = 0`, `x + 0 = x`). A step names its rule; the checker matches
//! it (`rewrite_check`), re-evaluates literals, and for `ac` compares the operand
//! multisets of the two chains, so it trusts neither egg nor the normaliser that wrote
//! the steps. `tests/float_rules.rs` proves every exact rule with Z3's IEEE arithmetic.

use crate::rewrite_check::{instantiate, matches, Subst};
use crate::rules::EVAL;
use crate::sexp::Sx;
use crate::simplify::{lit_atom, lit_of, Lit, Step};
use kpl_lang::ast::Builtin;

/// Which rules a proof may use: the exact ones always, an assumption's when it is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RuleSet {
    Exact,
    Reassoc,
    MulZero,
}

impl RuleSet {
    /// The assumption's name, as `--assume` spells it (`None` for the exact rules).
    pub fn assumption(self) -> Option<&'static str> {
        match self {
            RuleSet::Exact => None,
            RuleSet::Reassoc => Some("float-reassoc"),
            RuleSet::MulZero => Some("mul-zero"),
        }
    }
}

/// `(name, set, lhs, rhs)`. Negation is a sign flip (`bvxor` with the sign bit), as the
/// exact runs build it.
pub const FLOAT_RULES: &[(&str, RuleSet, &str, &str)] = &[
    ("fadd-comm", RuleSet::Exact, "(fadd ?a ?b)", "(fadd ?b ?a)"),
    ("fmul-comm", RuleSet::Exact, "(fmul ?a ?b)", "(fmul ?b ?a)"),
    ("fsub-def", RuleSet::Exact, "(fsub ?a ?b)", "(fadd ?a (bvxor ?b #x80000000))"),
    ("fneg-fneg", RuleSet::Exact, "(bvxor (bvxor ?a #x80000000) #x80000000)", "?a"),
    ("fneg-fadd", RuleSet::Reassoc, "(bvxor (fadd ?a ?b) #x80000000)", "(fadd (bvxor ?a #x80000000) (bvxor ?b #x80000000))"),
    ("fadd-zero-l", RuleSet::Reassoc, "(fadd #x00000000 ?a)", "?a"),
    ("fadd-negzero-l", RuleSet::Reassoc, "(fadd #x80000000 ?a)", "?a"),
    ("fmul-one-l", RuleSet::Reassoc, "(fmul #x3f800000 ?a)", "?a"),
    ("mz-fmul-zero-r", RuleSet::MulZero, "(fmul ?a #x00000000)", "#x00000000"),
    ("mz-fmul-negzero-r", RuleSet::MulZero, "(fmul ?a #x80000000)", "#x00000000"),
    ("mz-fmul-zero-l", RuleSet::MulZero, "(fmul #x00000000 ?a)", "#x00000000"),
    ("mz-fmul-negzero-l", RuleSet::MulZero, "(fmul #x80000000 ?a)", "#x00000000"),
    ("mz-fadd-zero-r", RuleSet::MulZero, "(fadd ?a #x00000000)", "?a"),
    ("mz-fadd-negzero-r", RuleSet::MulZero, "(fadd ?a #x80000000)", "?a"),
    ("mz-fadd-zero-l", RuleSet::MulZero, "(fadd #x00000000 ?a)", "?a"),
    ("mz-fadd-negzero-l", RuleSet::MulZero, "(fadd #x80000000 ?a)", "?a"),
];

/// The pseudo-rule of reordering under `float-reassoc`: the subterm and its replacement
/// (the step's binding `result`) are chains of one operation (`fadd` or `fmul`) with the
/// same multiset of operands.
pub const AC: &str = "ac";
/// The pseudo-rule of a float operation on literals: its value as KPL computes it.
pub const FLOAT_EVAL: &str = "float-eval";

/// The operands of a chain of `op` (nested either way), in order.
pub fn chain_operands<'a>(t: &'a Sx, op: &str, out: &mut Vec<&'a Sx>) {
    if t.head() == op && t.args().len() == 2 && matches!(t, Sx::List(_)) {
        chain_operands(&t.args()[0], op, out);
        chain_operands(&t.args()[1], op, out);
    } else {
        out.push(t);
    }
}

/// A float operation applied to word literals: its value (`None` for anything else).
pub fn float_eval(t: &Sx) -> Option<Sx> {
    let b = Builtin::from_name(t.head()).filter(|b| b.is_float())?;
    if !matches!(t, Sx::List(_)) || t.args().is_empty() {
        return None;
    }
    let ws: Vec<u32> = t
        .args()
        .iter()
        .map(|a| match a {
            Sx::Atom(s) => match lit_of(s) {
                Some(Lit::Word(w)) => Some(w),
                _ => None,
            },
            _ => None,
        })
        .collect::<Option<Vec<u32>>>()?;
    let x = ws[0];
    let y = ws.get(1).copied().unwrap_or(0);
    Some(lit_atom(Lit::Word(kpl_lang::ops::builtin(b, x, y))))
}

/// Apply one step of a float proof to `term` in place, using only the rule sets `allowed`.
pub fn apply(term: &mut Sx, step: &Step, allowed: &[RuleSet]) -> Result<(), String> {
    let sub = term.at_mut(&step.position).ok_or_else(|| format!("no subterm at position {:?}", step.position))?;
    let new = match step.rule.as_str() {
        r if r == EVAL => {
            // Integer operations on literals (a sign flip of a constant): the verifier's rule.
            crate::rewrite_check::apply(sub, &Step { position: Vec::new(), ..step.clone() }, &Subst::new())?
        }
        FLOAT_EVAL => float_eval(sub).ok_or_else(|| format!("`{sub}` is not a float operation on literals"))?,
        AC => {
            if !allowed.contains(&RuleSet::Reassoc) {
                return Err("reordering a sum or product (`ac`) needs the assumption `float-reassoc`".into());
            }
            let result = step.bindings.get("result").ok_or("an `ac` step without its `result`")?;
            let new = Sx::parse(result)?;
            let op = sub.head();
            if !matches!(op, "fadd" | "fmul") || new.head() != op {
                return Err(format!("`ac` reorders sums and products only, not `{sub}`"));
            }
            let (mut a, mut b) = (Vec::new(), Vec::new());
            chain_operands(sub, op, &mut a);
            chain_operands(&new, op, &mut b);
            let key = |v: &mut Vec<&Sx>| {
                let mut s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                s.sort();
                s
            };
            if key(&mut a) != key(&mut b) {
                return Err(format!("`ac`: `{new}` has other operands than `{sub}`"));
            }
            new
        }
        name => {
            let (_, set, l, r) = FLOAT_RULES.iter().find(|(n, ..)| *n == name).ok_or_else(|| format!("no rule named `{name}`"))?;
            if !allowed.contains(set) {
                return Err(format!("rule `{name}` needs the assumption `{}`", set.assumption().unwrap_or("?")));
            }
            let (l, r) = (Sx::parse(l)?, Sx::parse(r)?);
            let (src, dst) = if step.forward { (l, r) } else { (r, l) };
            let mut s = Subst::new();
            if !matches(&src, sub, &mut s) {
                return Err(format!("`{sub}` is not an instance of `{src}` (rule `{name}`)"));
            }
            instantiate(&dst, &s).ok_or_else(|| format!("rule `{name}` leaves a variable unbound"))?
        }
    };
    *sub = new;
    Ok(())
}

/// Replay a whole proof from `original`; gives the final term.
pub fn replay(original: &Sx, steps: &[Step], allowed: &[RuleSet]) -> Result<Sx, String> {
    let mut t = original.clone();
    for (i, st) in steps.iter().enumerate() {
        apply(&mut t, st, allowed).map_err(|e| format!("step {} ({}): {e}", i + 1, st.rule))?;
    }
    Ok(t)
}
