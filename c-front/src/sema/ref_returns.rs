//! Functions that return a reference (`float &at(float4 &v, int i) { return ((float *)&v)[i]; }`,
//! and `operator[]`, which `classes.rs` makes one), on the token stream after classes: kpl
//! has no references as values, so such a function whose body is one `return e;` is
//! replaced at each call by `e` with its parameters replaced by the call's arguments: the
//! place it names, which may be read, assigned or have its address taken. An argument is
//! evaluated once in C, so one with an effect (an assignment, `++`, a call) is refused where
//! its parameter is used other than once; and `e` may name nothing but its parameters (a
//! file-scope name in it could be hidden by a local at the call). Any other function that
//! returns a reference is refused with a diagnostic.

use crate::sema::coop::{closing, file_scope_heads, ident, is_p, span_of as span, split_commas};
use crate::text::tokens::CTok;
use kpl_lang::diagnostic::Diagnostic;
use std::collections::{HashMap, HashSet};

type Tok = (usize, CTok, usize);



/// A function returning a reference: its parameters' names and the returned expression.
struct RefFn {
    params: Vec<String>,
    value: Vec<Tok>,
}

/// The most calls replaced in one file (a function that calls itself never ends).
const MAX_CALLS: usize = 100_000;

/// The file's type names (`typedef ... T;`, `struct S`): the words besides parameters a
/// returned expression may name (in casts and `sizeof`).
fn type_names(toks: &[Tok]) -> HashSet<String> {
    let mut out = HashSet::new();
    for k in 0..toks.len() {
        if matches!(toks[k].1, CTok::Kw("struct" | "union" | "class" | "enum")) {
            out.extend(ident(toks.get(k + 1)).map(str::to_string));
        }
        if matches!(toks[k].1, CTok::Kw("typedef")) {
            if let Some(end) = (k..toks.len()).find(|&j| is_p(toks.get(j), ";")) {
                out.extend(ident(toks.get(end - 1)).map(str::to_string));
            }
        }
    }
    out
}

/// Has the argument an effect C evaluates once (an assignment, `++`/`--`, a call)?
fn has_effect(arg: &[Tok]) -> bool {
    arg.iter().enumerate().any(|(k, t)| match &t.1 {
        CTok::P(p) => matches!(*p, "=" | "++" | "--" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>="),
        CTok::Ident(_) => is_p(arg.get(k + 1), "("),
        _ => false,
    })
}

/// The token stream with functions that return a reference replaced at their calls (see
/// the module doc), and diagnostics for those kpl refuses.
pub fn lower(toks: Vec<Tok>) -> (Vec<Tok>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    let mut fns: HashMap<String, RefFn> = HashMap::new();
    let types = type_names(&toks);
    let mut rest: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // `T &name(params) [const] {` at file scope.
        if depth == 0 && is_p(toks.get(i), "&") && ident(toks.get(i + 1)).is_some() && is_p(toks.get(i + 2), "(") {
            let name_tok = &toks[i + 1];
            if let Some(close) = closing(&toks, i + 2) {
                let open = (close + 1..toks.len()).find(|&k| !matches!(toks[k].1, CTok::Spec(_)));
                let body_at = open.filter(|&o| is_p(toks.get(o), "{")).and_then(|o| Some((o, closing(&toks, o)?)));
                if let Some((open, end)) = body_at {
                    let body = &toks[open + 1..end];
                    let name = ident(Some(name_tok)).unwrap_or_default().to_string();
                    let from = rest.iter().rposition(|t| matches!(t.1, CTok::P(";" | "}"))).map_or(0, |p| p + 1);
                    match one_return(&toks[i + 3..close], body, &types) {
                        Ok(f) => {
                            fns.insert(name, f);
                        }
                        Err(why) => errors.push(Diagnostic::error(format!("not supported: `{name}` returns a reference and {why} (CUDA.md tier 3)"), span(name_tok))),
                    }
                    rest.truncate(from);
                    i = end + 1;
                    continue;
                }
            }
        }
        match &t.1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            _ => {}
        }
        rest.push(t.clone());
        i += 1;
    }
    if fns.is_empty() {
        return (rest, errors);
    }
    // A definition of the same name that does not return a reference (a `const` overload):
    // where it returns the same place, it goes (every call now reads the place); where not,
    // the calls are refused.
    let unconst = |ts: &[Tok]| ts.iter().filter(|t| !matches!(&t.1, CTok::Spec(w) if w == "const")).map(|t| t.1.clone()).collect::<Vec<_>>();
    let heads: Vec<(usize, String)> = file_scope_heads(&rest).into_iter().map(|(p, n)| (p, n.to_string())).collect();
    let (mut twins, mut differ) = (Vec::new(), Vec::new());
    for (paren, name) in heads {
        let Some(f) = fns.get(&name) else { continue };
        let Some(close) = closing(&rest, paren) else { continue };
        let Some(open) = (close + 1..rest.len()).find(|&j| !matches!(rest[j].1, CTok::Spec(_))).filter(|&o| is_p(rest.get(o), "{")) else { continue };
        let Some(end) = closing(&rest, open) else { continue };
        let mut same = vec![CTok::Kw("return")];
        same.extend(unconst(&f.value));
        same.push(CTok::P(";"));
        if unconst(&rest[open + 1..end]) == same {
            twins.push((paren - 1, end));
        } else {
            errors.push(Diagnostic::error(format!("not supported: overloads of `{name}` that return a reference and a value of different places (CUDA.md tier 3)"), span(&rest[paren - 1])));
            differ.push(name);
        }
    }
    for name in differ {
        fns.remove(&name);
    }
    for &(k, end) in twins.iter().rev() {
        let from = rest[..k].iter().rposition(|t| matches!(t.1, CTok::P(";" | "}"))).map_or(0, |p| p + 1);
        rest.drain(from..=end);
    }
    (calls(rest, &fns, &mut errors), errors)
}

/// A function's parameters and body `{ return e; }`: its `RefFn`, or why not.
fn one_return(params: &[Tok], body: &[Tok], types: &HashSet<String>) -> Result<RefFn, &'static str> {
    let [ret, value @ .., semi] = body else { return Err("its body is not one `return`") };
    if !matches!(ret.1, CTok::Kw("return")) || !is_p(Some(semi), ";") || value.is_empty() || value.iter().any(|t| is_p(Some(t), ";")) {
        return Err("its body is not one `return`");
    }
    let names: Vec<String> = if crate::sema::constructors::arity(params) == 0 {
        Vec::new()
    } else {
        split_commas(params).iter().map(|p| p.iter().rev().find_map(|t| ident(Some(t)).filter(|_| matches!(t.1, CTok::Ident(_)))).unwrap_or_default().to_string()).collect()
    };
    if names.iter().any(|n| n.is_empty()) || params.iter().any(|t| is_p(Some(t), "=")) {
        return Err("has a parameter without a name or with a default");
    }
    for (k, t) in value.iter().enumerate() {
        let after_member = k > 0 && (is_p(value.get(k - 1), ".") || is_p(value.get(k - 1), "->"));
        if let CTok::Ident(n) = &t.1 {
            if !after_member && !names.contains(n) && !types.contains(n) {
                return Err("names what is not its parameter");
            }
        }
    }
    Ok(RefFn { params: names, value: value.to_vec() })
}

/// Each call of a function of `fns` replaced by its expression.
fn calls(mut toks: Vec<Tok>, fns: &HashMap<String, RefFn>, errors: &mut Vec<Diagnostic>) -> Vec<Tok> {
    let mut done = 0;
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            _ => {}
        }
        let prev_member = i > 0 && (is_p(toks.get(i - 1), ".") || is_p(toks.get(i - 1), "->"));
        // (At file scope, `f(` declares `f`.)
        let f = ident(toks.get(i)).and_then(|n| fns.get(n)).filter(|_| depth > 0 && !prev_member && is_p(toks.get(i + 1), "("));
        let Some(f) = f else {
            i += 1;
            continue;
        };
        let Some(close) = closing(&toks, i + 1) else { break };
        let name = &toks[i];
        let args: Vec<Vec<Tok>> = if close == i + 2 { Vec::new() } else { split_commas(&toks[i + 2..close]).iter().map(|a| a.to_vec()).collect() };
        done += 1;
        if args.len() != f.params.len() || done > MAX_CALLS {
            let why = if done > MAX_CALLS { "calls itself without end" } else { "takes another number of arguments" };
            errors.push(Diagnostic::error(format!("`{}` {why}", ident(Some(name)).unwrap_or_default()), span(name)));
            return toks;
        }
        let mut repl = vec![(name.0, CTok::P("("), name.2)];
        let mut bad = None;
        for (k, p) in f.params.iter().enumerate() {
            let uses = f.value.iter().filter(|t| ident(Some(t)) == Some(p.as_str())).count();
            if uses != 1 && has_effect(&args[k]) {
                bad = args[k].first().cloned();
            }
        }
        if let Some(b) = bad {
            errors.push(Diagnostic::error(format!("not supported: an argument with an effect (an assignment, `++`, a call) to `{}`, which returns a reference and uses the parameter other than once (CUDA.md tier 3)", ident(Some(name)).unwrap_or_default()), span(&b)));
        }
        for (k, t) in f.value.iter().enumerate() {
            let after_member = k > 0 && (is_p(f.value.get(k - 1), ".") || is_p(f.value.get(k - 1), "->"));
            match f.params.iter().position(|p| ident(Some(t)) == Some(p.as_str())).filter(|_| !after_member) {
                Some(p) => {
                    repl.push((t.0, CTok::P("("), t.2));
                    repl.extend(args[p].iter().cloned());
                    repl.push((t.0, CTok::P(")"), t.2));
                }
                None => repl.push(t.clone()),
            }
        }
        repl.push((toks[close].0, CTok::P(")"), toks[close].2));
        // Read again from the replacement: calls in the arguments and in the expression.
        toks.splice(i..=close, repl);
    }
    toks
}
