//! C++ conveniences of CUDA code, on the token stream. Before templates are instantiated:
//! `constexpr` is `const` (a variable) or nothing (a function); the named casts
//! `static_cast<T>(e)`, `reinterpret_cast<T>(e)`, `const_cast<T>(e)` are `((T)(e))`;
//! `static_assert(c, "why");`, which the compiler checks, is dropped; `nullptr` is `0`. After: default
//! arguments (`int *p = NULL`) leave the parameter list and are written into each call
//! that omits them, in the file's functions (a kernel's are dropped: nothing calls it).

use crate::sema::coop::{close_of, file_scope_heads, ident, is_p};
use crate::sema::textures::closing;
use crate::text::tokens::CTok;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

const CASTS: &[&str] = &["static_cast", "reinterpret_cast", "const_cast"];

/// `constexpr`, named casts and `static_assert` (see the module doc).
pub fn lower(toks: Vec<Tok>) -> Vec<Tok> {
    let word = |t: &Tok| matches!(&t.1, CTok::Ident(w) | CTok::Spec(w) if w == "constexpr" || w == "static_assert" || w == "nullptr" || CASTS.contains(&w.as_str()));
    if !toks.iter().any(word) {
        return toks;
    }
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    // Indices of `)`s after which a cast's closing `)` goes.
    let mut closers: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let (l, r) = (t.0, t.2);
        match ident(Some(t)) {
            Some("constexpr") => {
                // A function's `constexpr` says it may run at compile time: nothing here.
                let mut j = i + 1;
                while matches!(toks.get(j).map(|t| &t.1), Some(CTok::Spec(_)) | Some(CTok::Ident(_)) | Some(CTok::P("*"))) {
                    j += 1;
                }
                if !is_p(toks.get(j), "(") {
                    out.push((l, CTok::Spec("const".into()), r));
                }
                i += 1;
                continue;
            }
            // C++'s null pointer constant: C's `0` (`p != nullptr` is `p != 0`).
            Some("nullptr") => {
                out.push((l, CTok::Int(0, false), r));
                i += 1;
                continue;
            }
            Some("static_assert") if is_p(toks.get(i + 1), "(") => {
                if let Some(end) = close_of(&toks, i + 1).filter(|&e| is_p(toks.get(e), ";")) {
                    i = end + 1;
                    continue;
                }
            }
            Some(c) if CASTS.contains(&c) && is_p(toks.get(i + 1), "<") => {
                if let Some(gt) = closing(&toks, i + 1, "<", ">").filter(|&g| is_p(toks.get(g + 1), "(")) {
                    if let Some(end) = close_of(&toks, gt + 1) {
                        out.extend([(l, CTok::P("("), r), (l, CTok::P("("), r)]);
                        out.extend(toks[i + 2..gt].iter().cloned());
                        out.push((l, CTok::P(")"), r));
                        closers.push(end - 1);
                        i = gt + 1;
                        continue;
                    }
                }
            }
            _ => {}
        }
        out.push(t.clone());
        while let Some(k) = closers.iter().position(|&c| c == i) {
            closers.swap_remove(k);
            out.push((l, CTok::P(")"), r));
        }
        i += 1;
    }
    out
}

/// A parameter list's parameters (the tokens between the `(` at `open` and its `)`, split at
/// top-level commas) and the index of the `)`.
fn split_list(toks: &[Tok], open: usize) -> Option<(Vec<std::ops::Range<usize>>, usize)> {
    let close = close_of(toks, open)? - 1;
    let (mut parts, mut start, mut depth) = (Vec::new(), open + 1, 0usize);
    for k in open + 1..close {
        match &toks[k].1 {
            CTok::P("(" | "[" | "{" | "<") => depth += 1,
            CTok::P(")" | "]" | "}" | ">") => depth = depth.saturating_sub(1),
            CTok::P(",") if depth == 0 => {
                parts.push(start..k);
                start = k + 1;
            }
            _ => {}
        }
    }
    if start < close || !parts.is_empty() {
        parts.push(start..close);
    }
    Some((parts, close))
}

/// Default arguments (see the module doc).
pub fn default_arguments(toks: Vec<Tok>) -> Vec<Tok> {
    // Each function's parameters' defaults, from its declarations at file scope.
    let mut defaults: HashMap<String, Vec<Option<Vec<Tok>>>> = HashMap::new();
    // The `=` ranges to drop.
    let mut drop: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, name) in file_scope_heads(&toks) {
        let Some((params, _)) = split_list(&toks, i) else { continue };
        let mut any = false;
        let found: Vec<Option<Vec<Tok>>> = params
            .iter()
            .map(|p| {
                let eq = p.clone().find(|&k| is_p(toks.get(k), "="))?;
                any = true;
                drop.push(eq..p.end);
                Some(toks[eq + 1..p.end].to_vec())
            })
            .collect();
        if any {
            let entry = defaults.entry(name.to_string()).or_insert_with(|| vec![None; found.len()]);
            for (k, d) in found.into_iter().enumerate() {
                if let (Some(d), Some(slot)) = (d, entry.get_mut(k)) {
                    *slot = Some(d);
                }
            }
        }
    }
    if defaults.is_empty() {
        return toks;
    }
    let mut out = Vec::with_capacity(toks.len());
    let mut depth = 0usize;
    let mut i = 0;
    // Where a call's `)` gets the arguments it omits.
    let mut pending: Vec<(usize, Vec<Tok>)> = Vec::new();
    while i < toks.len() {
        if let Some(d) = drop.iter().find(|d| d.start == i) {
            i = d.end;
            continue;
        }
        let t = &toks[i];
        match &t.1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            _ => {}
        }
        // A call `f(...)` in a body that omits arguments with defaults.
        if let (Some(ds), true, true) = (ident(Some(t)).and_then(|n| defaults.get(n)), depth > 0, is_p(toks.get(i + 1), "(")) {
            if let Some((args, close)) = split_list(&toks, i + 1) {
                let mut extra = Vec::new();
                for d in ds.iter().skip(args.len()) {
                    let Some(d) = d else { break };
                    if !args.is_empty() || !extra.is_empty() {
                        extra.push((t.0, CTok::P(","), t.2));
                    }
                    extra.push((t.0, CTok::P("("), t.2));
                    extra.extend(d.iter().map(|x| (t.0, x.1.clone(), t.2)));
                    extra.push((t.0, CTok::P(")"), t.2));
                }
                if !extra.is_empty() {
                    pending.push((close, extra));
                }
            }
        }
        if let Some(k) = pending.iter().position(|(c, _)| *c == i) {
            let (_, extra) = pending.swap_remove(k);
            out.extend(extra);
        }
        out.push(t.clone());
        i += 1;
    }
    out
}
