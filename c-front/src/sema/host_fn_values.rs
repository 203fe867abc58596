//! Host functions passed as values to a parameter that the callee calls, on the token
//! stream, for `launches.rs`: llm.c's `attention_backward1(..., launch_softmax_1,
//! block_size)` calls its parameter `softmax_autoregressive_backward(dpreatt, ..., B, T, C,
//! NH, block_size)`. Such a call is a call of each function passed for the parameter, in
//! each of the callee's calling contexts (more contexts than the program makes, never
//! fewer); and an argument of it is only read where every function passed takes that
//! argument by value.

use crate::sema::coop::split_commas;
use crate::sema::host_constants::{closing, ByValue, Tok};
use crate::text::tokens::CTok;
use std::collections::HashMap;

/// One host function as `launches.rs` reads it: its name, its parameters' names, how many
/// arguments a call may give it, and its body from its `{`.
pub(crate) struct Callee<'a> {
    pub(crate) name: &'a str,
    pub(crate) params: Vec<&'a str>,
    pub(crate) arity: std::ops::RangeInclusive<usize>,
    pub(crate) body: &'a [Tok],
}

/// A parameter that its function calls: the function (an index of the list), the
/// parameter's position and name, the names of the functions its callers pass for it,
/// where each of them is passed (the name's place), and whether every call passes a
/// function's name there.
pub(crate) struct FnParam {
    pub(crate) callee: usize,
    pub(crate) name: String,
    pub(crate) passed: Vec<(String, usize)>,
    pub(crate) complete: bool,
}

/// The places `body[k]` names a call: `q(` not after `.`, `->` or `::`; with its arguments.
fn calls_of<'t>(body: &'t [Tok], name: &str) -> Vec<(usize, Vec<&'t [Tok]>)> {
    let mut out = Vec::new();
    for k in 0..body.len() {
        if !matches!(&body[k].1, CTok::Ident(n) if n == name) || body.get(k + 1).is_none_or(|t| t.1 != CTok::P("(")) {
            continue;
        }
        if matches!(k.checked_sub(1).map(|b| &body[b].1), Some(CTok::P("." | "->" | "::"))) {
            continue;
        }
        let Some(c) = closing(body, k + 1) else { continue };
        let args = if c == k + 2 { Vec::new() } else { split_commas(&body[k + 2..c]) };
        out.push((k, args));
    }
    out
}

/// Every parameter of `fns` that its function calls, with what its callers pass for it.
pub(crate) fn function_parameters(fns: &[Option<Callee>]) -> Vec<FnParam> {
    let mut out = Vec::new();
    for (hi, h) in fns.iter().enumerate() {
        let Some(h) = h else { continue };
        for (j, q) in h.params.iter().enumerate() {
            if q.is_empty() || calls_of(h.body, q).is_empty() {
                continue;
            }
            let mut p = FnParam { callee: hi, name: q.to_string(), passed: Vec::new(), complete: true };
            for g in fns.iter().flatten() {
                for (_, args) in calls_of(g.body, h.name) {
                    if !h.arity.contains(&args.len()) {
                        continue;
                    }
                    match args.get(j) {
                        Some([(at, CTok::Ident(f), _)]) if fns.iter().flatten().any(|x| x.name == f) => p.passed.push((f.clone(), *at)),
                        _ => p.complete = false,
                    }
                }
            }
            if !p.passed.is_empty() {
                out.push(p);
            }
        }
    }
    out
}

/// Which arguments of a call `q(...)` through a function parameter are taken by value:
/// where every function any caller passes for every parameter named `q` takes it by value,
/// and no other host function calls a `q` of its own. Added to `by_value` under `q` (a name
/// no host function has).
pub(crate) fn by_value_through(fns: &[Option<Callee>], params: &[FnParam], by_value: &mut ByValue) {
    // Each name's vector, `None` where some function passed for it is unknown, or some
    // call passes what is not a function's name.
    let both = |a: Vec<bool>, b: &Vec<bool>| -> Vec<bool> { a.iter().zip(b).map(|(x, y)| *x && *y).collect() };
    let mut found: HashMap<&str, Option<Vec<bool>>> = HashMap::new();
    for p in params {
        let mut merged: Option<Vec<bool>> = None;
        for (f, _) in &p.passed {
            merged = match (merged, by_value.get(f)) {
                (_, None) => {
                    merged = None;
                    break;
                }
                (None, Some(v)) => Some(v.clone()),
                (Some(a), Some(v)) => Some(both(a, v)),
            };
        }
        let merged = merged.filter(|_| p.complete);
        match found.get_mut(p.name.as_str()) {
            Some(e) => *e = e.take().zip(merged).map(|(a, b)| both(a, &b)),
            None => {
                found.insert(p.name.as_str(), merged);
            }
        }
    }
    for (q, v) in found {
        let Some(v) = v else { continue };
        // Only functions with such a parameter call a `q`.
        let callers_ok = fns.iter().enumerate().all(|(gi, g)| {
            g.as_ref().is_none_or(|g| calls_of(g.body, q).is_empty() || params.iter().any(|p| p.callee == gi && p.name == q))
        });
        if callers_ok && !by_value.contains_key(q) {
            by_value.insert(q.to_string(), v);
        }
    }
}

/// The calls of function `f` through parameters it is passed to: each call `q(...)` in
/// the body of a function with a parameter `q` some caller passes `f` for (its index, the
/// arguments, the call's place and position in the body); and the places `f` is passed.
pub(crate) fn calls_through<'t>(f: &str, fns: &[Option<Callee<'t>>], params: &[FnParam]) -> (Vec<(usize, Vec<&'t [Tok]>, usize, usize)>, Vec<usize>) {
    let (mut calls, mut passed) = (Vec::new(), Vec::new());
    for p in params {
        let here: Vec<usize> = p.passed.iter().filter(|(n, _)| n == f).map(|(_, at)| *at).collect();
        if here.is_empty() {
            continue;
        }
        passed.extend(here);
        let Some(h) = &fns[p.callee] else { continue };
        for (k, args) in calls_of(h.body, &p.name) {
            calls.push((p.callee, args, h.body[k].0, k));
        }
    }
    (calls, passed)
}
