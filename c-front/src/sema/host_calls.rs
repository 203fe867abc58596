//! Calls in host code that `launches.rs` reads through, on the token stream: a function
//! whose body is one `return EXPR;` (`ceil_div(N, block_size)`, a template or not) is its
//! expression with the arguments in place of the parameters, so launch sizes computed with
//! it are constants; and a forwarding wrapper (`benchmark_kernel(repeats, f, args...)`, a
//! template whose body calls its parameter `f` with `std::forward<Args>(args)...` or
//! `args...`) calls `f` with those arguments, so the launches `f` makes there are read.

use crate::sema::coop::{ident, is_p, split_commas};
use crate::sema::host_constants::{closing, Tok};
use crate::text::tokens::CTok;
use std::collections::HashMap;

/// A function of one `return`: its parameters' names and the returned expression.
struct OneReturn {
    params: Vec<String>,
    expr: Vec<Tok>,
}

/// The last identifier of each parameter declaration in `toks[open+1..close]`.
fn param_names(toks: &[Tok], open: usize, close: usize) -> Option<Vec<String>> {
    split_commas(&toks[open + 1..close]).iter().filter(|p| !p.is_empty()).map(|p| p.iter().rev().find_map(|t| ident(Some(t)).map(str::to_string))).collect()
}

/// Every definition `NAME ( PARAMS ) { BODY }` at file scope of `toks`: name, `(`, `)`, `{`, `}`.
fn definitions(toks: &[Tok]) -> Vec<(String, usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut k = 0;
    while k < toks.len() {
        match &toks[k].1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            CTok::Ident(name) if depth == 0 && is_p(toks.get(k + 1), "(") => {
                if let Some(close) = closing(toks, k + 1) {
                    if is_p(toks.get(close + 1), "{") {
                        if let Some(end) = closing(toks, close + 1) {
                            out.push((name.clone(), k + 1, close, close + 1, end));
                            k = end + 1;
                            continue;
                        }
                    }
                }
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// For each function defined at file scope of `file` (templates included), whether each
/// parameter takes its argument by value (no `&` or `&&` in its declaration): `f(n)` then
/// only reads `n`.
pub(crate) fn by_value_parameters(file: &[Tok]) -> Vec<(String, Vec<bool>)> {
    definitions(file)
        .into_iter()
        .map(|(name, open, close, _, _)| {
            let params = split_commas(&file[open + 1..close])
                .iter()
                .map(|p| !p.iter().any(|t| matches!(t.1, CTok::P("&" | "&&"))))
                .collect();
            (name, params)
        })
        .collect()
}

/// The functions of one `return EXPR;` in `file`.
fn one_returns(file: &[Tok], out: &mut HashMap<String, OneReturn>) {
    for (name, open, close, brace, end) in definitions(file) {
        let body = &file[brace + 1..end];
        let [(_, CTok::Kw("return"), _), expr @ .., (_, CTok::P(";"), _)] = body else { continue };
        if expr.iter().any(|t| matches!(t.1, CTok::P(";" | "=" | "++" | "--"))) {
            continue;
        }
        let Some(params) = param_names(file, open, close) else { continue };
        // Only its parameters: a name of the file would be read in the caller's scope, where
        // a local may hide it.
        if expr.iter().any(|t| matches!(&t.1, CTok::Ident(n) if !params.contains(n))) {
            continue;
        }
        // A name defined twice (overloads) is no one function.
        let f = OneReturn { params, expr: expr.to_vec() };
        if out.get(&name).is_some_and(|g| g.params != f.params || g.expr.iter().map(|t| &t.1).ne(f.expr.iter().map(|t| &t.1))) {
            // Overloads: no one function.
            out.insert(name, OneReturn { params: Vec::new(), expr: Vec::new() });
        } else {
            out.insert(name, f);
        }
    }
}

/// `toks` with each call of a one-return function replaced by its expression, the
/// arguments (parenthesised) in place of the parameters; calls in arguments first.
fn inline_in(toks: &[Tok], fns: &HashMap<String, OneReturn>, depth: usize) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    let mut k = 0;
    while k < toks.len() {
        let t = &toks[k];
        let callee = ident(Some(t)).and_then(|n| fns.get(n)).filter(|_| is_p(toks.get(k + 1), "(") && depth < 8);
        let member = k > 0 && matches!(toks[k - 1].1, CTok::P("." | "->"));
        if let (Some(f), false) = (callee, member) {
            if let Some(close) = closing(toks, k + 1) {
                let args = split_commas(&toks[k + 2..close]);
                if args.len() == f.params.len() {
                    let args: Vec<Vec<Tok>> = args.iter().map(|a| inline_in(a, fns, depth + 1)).collect();
                    let at = t.0;
                    out.push((at, CTok::P("("), at));
                    for e in &f.expr {
                        match ident(Some(e)).and_then(|n| f.params.iter().position(|p| p == n)) {
                            Some(i) => {
                                out.push((at, CTok::P("("), at));
                                out.extend(args[i].iter().cloned());
                                out.push((at, CTok::P(")"), at));
                            }
                            None => out.push((at, e.1.clone(), at)),
                        }
                    }
                    out.push((toks[close].0, CTok::P(")"), toks[close].2));
                    k = close + 1;
                    continue;
                }
            }
        }
        out.push(t.clone());
        k += 1;
    }
    out
}

/// The host functions `host` with the calls of the one-return functions of `files` inlined
/// (a name defined twice differently is none).
pub(crate) fn inline_one_returns(host: &[Vec<Tok>], files: &[&[Tok]]) -> Vec<Vec<Tok>> {
    let mut fns = HashMap::new();
    for f in files {
        one_returns(f, &mut fns);
    }
    fns.retain(|_, f| !f.expr.is_empty());
    if fns.is_empty() {
        return host.to_vec();
    }
    host.iter().map(|f| inline_in(f, &fns, 0)).collect()
}

/// The file's forwarding wrappers: for each, the position of the parameter it calls with
/// the pack that follows it (`template <class F, class... A> R w(int n, F f, A&&... a) {
/// ... f(std::forward<A>(a)...); ... }`: 1).
pub(crate) fn forwarding_wrappers(file: &[Tok]) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for (name, open, close, brace, end) in definitions(file) {
        let Some(params) = param_names(file, open, close) else { continue };
        // The pack: the last parameter, declared with `...`.
        let last = split_commas(&file[open + 1..close]).last().map(|p| p.iter().any(|t| is_p(Some(t), "...")));
        if params.len() < 2 || last != Some(true) {
            continue;
        }
        let (callee, pack) = (&params[params.len() - 2], &params[params.len() - 1]);
        let body = &file[brace + 1..end];
        let forwards = (0..body.len()).any(|k| {
            if ident(body.get(k)) != Some(callee.as_str()) || !is_p(body.get(k + 1), "(") {
                return false;
            }
            let Some(c) = closing(body, k + 1) else { return false };
            let words: Vec<&CTok> = body[k + 2..c].iter().map(|t| &t.1).collect();
            let names_pack = |t: &CTok| matches!(t, CTok::Ident(n) if n == pack);
            match &words[..] {
                // `args...`
                [p, CTok::P("...")] => names_pack(p),
                // `std::forward<A>(args)...` (or `forward<A>(args)...` once namespaces are read)
                [.., CTok::P("("), p, CTok::P(")"), CTok::P("...")] => {
                    names_pack(p) && words.iter().any(|t| matches!(t, CTok::Ident(n) if n == "forward"))
                }
                _ => false,
            }
        });
        if forwards {
            out.insert(name, params.len() - 2);
        }
    }
    out
}

/// The host functions `host` with each call of a forwarding wrapper (`wrappers`: the
/// position of the function it calls) written as a call of that function in its place:
/// `w(r, f, a, b)` as `w(r, f(a, b))`.
pub(crate) fn unwrap_forwarded(host: Vec<Vec<Tok>>, wrappers: &HashMap<String, usize>) -> Vec<Vec<Tok>> {
    if wrappers.is_empty() {
        return host;
    }
    host.into_iter()
        .map(|toks| {
            let mut out = Vec::with_capacity(toks.len() + 4);
            let mut k = 0;
            while k < toks.len() {
                let pos = ident(toks.get(k)).and_then(|w| wrappers.get(w)).filter(|_| is_p(toks.get(k + 1), "("));
                let close = pos.and_then(|_| closing(&toks, k + 1));
                if let (Some(&pos), Some(close)) = (pos, close) {
                    let args = split_commas(&toks[k + 2..close]);
                    if let Some([f @ (_, CTok::Ident(_), _)]) = args.get(pos).map(|a| &a[..]) {
                        let at = f.0;
                        out.extend([toks[k].clone(), toks[k + 1].clone()]);
                        for a in &args[..pos] {
                            out.extend(a.iter().cloned());
                            out.push((at, CTok::P(","), at));
                        }
                        out.extend([f.clone(), (at, CTok::P("("), at)]);
                        for (i, a) in args[pos + 1..].iter().enumerate() {
                            if i > 0 {
                                out.push((at, CTok::P(","), at));
                            }
                            out.extend(a.iter().cloned());
                        }
                        out.extend([(at, CTok::P(")"), at), toks[close].clone()]);
                        k = close + 1;
                        continue;
                    }
                }
                out.push(toks[k].clone());
                k += 1;
            }
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::text::tokens::{cuda_tokens as toks, spelled as text};

    #[test]
    fn one_return_functions_are_inlined_with_their_arguments() {
        let file = toks("template <class T> __host__ __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }");
        let host = vec![toks("void run(int n, int b) { int g = ceil_div(n * 2, b); }")];
        assert_eq!(text(&inline_one_returns(&host, &[&file])[0]), "void run ( int n , int b ) { int g = ( ( ( n * 2 ) + ( b ) - 1 ) / ( b ) ) ; }");
        // A function that names anything but its parameters stays a call: `K` would be read
        // where the caller's own `K` hides the file's.
        let file = toks("const int K = 4; int scale(int x) { return x * K; }");
        let host = vec![toks("void run() { const int K = 3; int g = scale(2); }")];
        assert!(text(&inline_one_returns(&host, &[&file])[0]).contains("scale ( 2 )"));
    }

    #[test]
    fn a_forwarding_wrapper_call_is_a_call_of_the_function_it_forwards_to() {
        let file = toks("template <class K, class... A> float bench(int r, K kernel, A &&...args) { for (int i = 0; i < r; i++) { kernel(std::forward<A>(args)...); } return 0.0f; } template <class F, class... A> void other(F f, A... a) { f(a); }");
        let wrappers = forwarding_wrappers(&file);
        assert_eq!(wrappers.get("bench"), Some(&1));
        assert!(!wrappers.contains_key("other"), "`f(a)` forwards no pack");
        let host = vec![toks("void m(int n) { float t = bench(10, run, d, n * 2); }")];
        assert_eq!(text(&unwrap_forwarded(host, &wrappers)[0]), "void m ( int n ) { float t = bench ( 10 , run ( d , n * 2 ) ) ; }");
    }
}
