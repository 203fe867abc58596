//! C++ lambdas in device code, on the token stream: `auto f = [&](int i) { body };` in a
//! function, capturing by reference (`[&]`, `[&x, &y]`) or nothing (`[]`), is its body at
//! each call `f(a);` that is a statement: `{ int __kpl_lambda1_i = (a); body }`, the
//! parameters renamed so an argument that names the enclosing variable of the same name
//! reads that one. A lambda that captures by value, returns, or is used other than so is
//! refused with a diagnostic.

use crate::sema::coop::{closing, ident, is_p, span_of as span, split_commas};
use crate::text::tokens::CTok;
use kpl_lang::diagnostic::Diagnostic;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);



/// A lambda bound to a name: its parameters (declaration words, name) and body's tokens
/// between the braces, parameters renamed.
struct Lambda {
    params: Vec<(Vec<Tok>, String)>,
    body: Vec<Tok>,
}

/// Is there a lambda's `[` at `i` (after `=`, `(` or `,`, with `(` or `{` after its `]`)?
fn lambda_at(toks: &[Tok], i: usize) -> Option<usize> {
    if !is_p(toks.get(i), "[") || i == 0 || !matches!(toks[i - 1].1, CTok::P("=" | "(" | ",")) {
        return None;
    }
    let close = closing(toks, i)?;
    (is_p(toks.get(close + 1), "(") || is_p(toks.get(close + 1), "{")).then_some(close)
}

/// The token stream with lambdas bound to names replaced at their calls (see the module
/// doc), and diagnostics for the lambdas kpl refuses.
pub fn lower(toks: Vec<Tok>) -> (Vec<Tok>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    if !toks.iter().any(|t| is_p(Some(t), "[")) {
        return (toks, errors);
    }
    let mut lambdas: HashMap<String, Lambda> = HashMap::new();
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut count = 0;
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if let Some(cap_close) = lambda_at(&toks, i).filter(|_| depth > 0) {
            // `auto f = [...]` at `i - 3`?
            let bound = i >= 3 && ident(toks.get(i - 3)) == Some("auto") && ident(toks.get(i - 2)).is_some() && is_p(toks.get(i - 1), "=");
            match read(&toks, i, cap_close, &mut count) {
                Ok((lambda, end)) if bound && is_p(toks.get(end + 1), ";") => {
                    let name = ident(toks.get(i - 2)).unwrap_or_default().to_string();
                    out.truncate(out.len().saturating_sub(3));
                    lambdas.insert(name, lambda);
                    i = end + 2;
                    continue;
                }
                Ok(_) => errors.push(Diagnostic::error("not supported: a lambda other than one bound to a name (`auto f = [&](...) { ... };`, CUDA.md tier 3)", span(t))),
                Err(why) => errors.push(Diagnostic::error(format!("not supported: a lambda that {why} (CUDA.md tier 3)"), span(t))),
            }
            // (What is refused is read as `0`, so that no parse error follows from it.)
            if let Some(end) = body_end(&toks, cap_close) {
                out.push((t.0, CTok::Int(0, false), t.2));
                i = end + 1;
                continue;
            }
        }
        match &t.1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            _ => {}
        }
        // A call of a lambda as a statement.
        if let Some(l) = ident(Some(t)).and_then(|n| lambdas.get(n)).filter(|_| depth > 0) {
            let statement = matches!(out.last().map(|t: &Tok| &t.1), Some(CTok::P(";" | "{" | "}" | ")") | CTok::Kw("else" | "do")));
            let call = is_p(toks.get(i + 1), "(").then(|| closing(&toks, i + 1)).flatten().filter(|&c| is_p(toks.get(c + 1), ";"));
            match call.filter(|_| statement) {
                Some(close) => {
                    let args: Vec<&[Tok]> = if close == i + 2 { Vec::new() } else { split_commas(&toks[i + 2..close]) };
                    if args.len() != l.params.len() {
                        errors.push(Diagnostic::error(format!("this lambda takes {} arguments", l.params.len()), span(t)));
                    }
                    out.push((t.0, CTok::P("{"), t.0));
                    for ((words, p), a) in l.params.iter().zip(&args) {
                        out.extend(words.iter().cloned());
                        out.push((t.0, CTok::Ident(p.clone()), t.2));
                        out.push((t.0, CTok::P("="), t.2));
                        out.push((t.0, CTok::P("("), t.2));
                        out.extend(a.iter().cloned());
                        out.push((t.0, CTok::P(")"), t.2));
                        out.push((t.0, CTok::P(";"), t.2));
                    }
                    out.extend(l.body.iter().cloned());
                    out.push((toks[close].0, CTok::P("}"), toks[close].2));
                    i = close + 2;
                    continue;
                }
                None => errors.push(Diagnostic::error("not supported: a lambda used other than called as a statement (CUDA.md tier 3)", span(t))),
            }
        }
        out.push(t.clone());
        i += 1;
    }
    (out, errors)
}

/// The index of the `}` that ends the body of the lambda whose capture list ends at
/// `cap_close`.
fn body_end(toks: &[Tok], cap_close: usize) -> Option<usize> {
    let open = (cap_close + 1..toks.len()).find(|&k| is_p(toks.get(k), "{") || is_p(toks.get(k), ";"))?;
    is_p(toks.get(open), "{").then(|| closing(toks, open)).flatten()
}

/// The lambda whose capture list is `open..=cap_close`: itself and the index of its body's
/// `}`, or why kpl refuses it.
fn read(toks: &[Tok], open: usize, cap_close: usize, count: &mut usize) -> Result<(Lambda, usize), &'static str> {
    // Captures: none, `&`, or `&x` each.
    for c in split_commas(&toks[open + 1..cap_close]) {
        let by_ref = matches!(c, [t] if is_p(Some(t), "&")) || matches!(c, [a, b] if is_p(Some(a), "&") && ident(Some(b)).is_some());
        if !c.is_empty() && !by_ref {
            return Err("captures by value");
        }
    }
    let (params, mut at) = if is_p(toks.get(cap_close + 1), "(") {
        let close = closing(toks, cap_close + 1).ok_or("is not closed")?;
        let ps = &toks[cap_close + 2..close];
        let list: Vec<&[Tok]> = if crate::sema::constructors::arity(ps) == 0 { Vec::new() } else { split_commas(ps) };
        (list, close + 1)
    } else {
        (Vec::new(), cap_close + 1)
    };
    // `mutable`, `-> T` before the body.
    while at < toks.len() && !is_p(toks.get(at), "{") {
        if is_p(toks.get(at), ";") {
            return Err("has no body");
        }
        at += 1;
    }
    let end = closing(toks, at).ok_or("is not closed")?;
    let body = &toks[at + 1..end];
    if body.iter().any(|t| matches!(t.1, CTok::Kw("return"))) {
        return Err("returns (kpl reads a lambda's body at a call that is a statement)");
    }
    *count += 1;
    let mut renamed: Vec<(Vec<Tok>, String)> = Vec::new();
    let mut names: HashMap<String, String> = HashMap::new();
    for p in params {
        let Some((last, words)) = p.split_last() else { return Err("has a parameter kpl cannot read") };
        let Some(n) = ident(Some(last)).filter(|_| matches!(last.1, CTok::Ident(_)) && !words.is_empty()) else { return Err("has a parameter without a name or with a default") };
        let fresh = format!("__kpl_lambda{count}_{n}");
        names.insert(n.to_string(), fresh.clone());
        renamed.push((words.to_vec(), fresh));
    }
    let body: Vec<Tok> = body
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let member = k > 0 && (is_p(body.get(k - 1), ".") || is_p(body.get(k - 1), "->"));
            match ident(Some(t)).and_then(|n| names.get(n)).filter(|_| !member && matches!(t.1, CTok::Ident(_))) {
                Some(f) => (t.0, CTok::Ident(f.clone()), t.2),
                None => t.clone(),
            }
        })
        .collect();
    Ok((Lambda { params: renamed, body }, end))
}
