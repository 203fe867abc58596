//! C++ braced initialisers where a type is known from the function, on the token stream
//! after overloads: an argument `{a, b}` to a parameter of struct or vector type `T`
//! (`f(x, {a, b})`) and a `return {a, b};` of a function returning `T` are the C compound
//! literal `(T){a, b}`, and so is `S{a, b}` of a struct `S` in an expression. A name with
//! definitions of one number of parameters but other types there (overloads by type) is
//! left as it is.

use crate::sema::coop::{closing, ident, is_p, split_commas};
use crate::text::tokens::CTok;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);


/// The type a declaration's words name when it is one word besides qualifiers and `&`
/// (`const SumMax &`, `float4`): no pointer, no array.
fn one_type(words: &[Tok]) -> Option<Tok> {
    let mut ty = None;
    for t in words {
        match &t.1 {
            CTok::Spec(w) if matches!(w.as_str(), "const" | "volatile" | "__restrict__" | "static" | "inline" | "__device__" | "__host__" | "__forceinline__" | "__noinline__") => {}
            CTok::P("&") => {}
            CTok::Ident(_) | CTok::Spec(_) if ty.is_none() => ty = Some(t.clone()),
            _ => return None,
        }
    }
    ty
}

/// A file-scope function definition at `k` (its name): each parameter's one type, the
/// return type, and the index of its body's `{`.
fn signature(toks: &[Tok], k: usize) -> Option<(Vec<Option<Tok>>, Option<Tok>, usize)> {
    ident(toks.get(k))?;
    if !is_p(toks.get(k + 1), "(") {
        return None;
    }
    let close = closing(toks, k + 1)?;
    let open = (close + 1..toks.len()).find(|&j| !matches!(toks[j].1, CTok::Spec(_)))?;
    if !is_p(toks.get(open), "{") {
        return None;
    }
    let params = &toks[k + 2..close];
    let types = if crate::sema::constructors::arity(params) == 0 {
        Vec::new()
    } else {
        split_commas(params).iter().map(|p| p.split_last().and_then(|(_, words)| one_type(words))).collect()
    };
    let head_from = toks[..k].iter().rposition(|t| matches!(t.1, CTok::P(";" | "}"))).map_or(0, |p| p + 1);
    Some((types, one_type(&toks[head_from..k]), open))
}

/// `(T)` before a braced list at `open`.
fn literal(ty: &Tok, open: &Tok) -> [Tok; 3] {
    [(open.0, CTok::P("("), open.0), (open.0, ty.1.clone(), open.0), (open.0, CTok::P(")"), open.0)]
}

/// The token stream with braced arguments and returns given their types (see the module
/// doc).
pub fn lower(toks: Vec<Tok>) -> Vec<Tok> {
    if !toks.iter().enumerate().any(|(k, t)| is_p(Some(t), "{") && k > 0 && matches!(toks[k - 1].1, CTok::P("(" | ",") | CTok::Kw("return") | CTok::Ident(_))) {
        return toks;
    }
    // Each function's parameter types (`None` at a place two definitions disagree on).
    let mut params: HashMap<String, Vec<Option<Tok>>> = HashMap::new();
    // The return type of the function whose body starts at each `{`.
    let mut returns: HashMap<usize, Tok> = HashMap::new();
    let mut depth = 0usize;
    for k in 0..toks.len() {
        match &toks[k].1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            CTok::Ident(n) if depth == 0 => {
                if let Some((types, ret, open)) = signature(&toks, k) {
                    match params.get_mut(n) {
                        Some(old) if old.len() == types.len() => {
                            for (o, t) in old.iter_mut().zip(&types) {
                                if o.as_ref().map(|x| &x.1) != t.as_ref().map(|x| &x.1) {
                                    *o = None;
                                }
                            }
                        }
                        Some(old) => old.clear(),
                        None => {
                            params.insert(n.clone(), types);
                        }
                    }
                    if let Some(r) = ret {
                        returns.insert(open, r);
                    }
                }
            }
            _ => {}
        }
    }
    // The file's struct names: `S{a, b}` in an expression is `(S){a, b}`.
    let structs: std::collections::HashSet<&str> = (0..toks.len())
        .filter(|&k| matches!(toks[k].1, CTok::Kw("struct")) && is_p(toks.get(k + 2), "{"))
        .filter_map(|k| ident(toks.get(k + 1)))
        .collect();
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    // The open calls (the function's parameter types and the argument's place) and the
    // return type of the function being read.
    let mut calls: Vec<(Option<&Vec<Option<Tok>>>, usize)> = Vec::new();
    let mut ret: Option<&Tok> = None;
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate() {
        match &t.1 {
            // `S{`: a temporary of struct `S` where an expression goes.
            CTok::P("{") if depth > 0 && ident(out.last()).is_some_and(|n| structs.contains(n)) && out.len() >= 2 && matches!(out[out.len() - 2].1, CTok::P(_) | CTok::Kw("return")) => {
                let name = out.pop().expect("a struct name");
                out.extend([(name.0, CTok::P("("), name.0), name.clone(), (name.2, CTok::P(")"), name.2)]);
                depth += 1;
                calls.push((None, 0));
            }
            CTok::P("{") => {
                let braced = matches!(out.last().map(|t: &Tok| &t.1), Some(CTok::P("(" | ",")));
                let in_call = calls.last().filter(|_| braced).and_then(|(f, arg)| f.and_then(|ps| ps.get(*arg)).cloned().flatten());
                if let Some(ty) = in_call {
                    out.extend(literal(&ty, t));
                } else if let (Some(ty), Some(CTok::Kw("return"))) = (ret, out.last().map(|t: &Tok| &t.1)) {
                    out.extend(literal(ty, t));
                }
                if depth == 0 {
                    ret = returns.get(&k);
                }
                depth += 1;
                calls.push((None, 0));
            }
            CTok::P("}") => {
                depth = depth.saturating_sub(1);
                calls.pop();
            }
            CTok::P("(") => {
                let f = ident(out.last()).and_then(|n| params.get(n)).filter(|_| depth > 0);
                calls.push((f, 0));
            }
            CTok::P(")") => {
                calls.pop();
            }
            CTok::P(",") => {
                if let Some(c) = calls.last_mut() {
                    c.1 += 1;
                }
            }
            _ => {}
        }
        out.push(t.clone());
    }
    out
}
