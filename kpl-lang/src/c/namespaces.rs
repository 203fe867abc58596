//! C++ namespaces in CUDA code, on the token stream: `namespace N { ... }` (named or not)
//! is read as its contents, `using` declarations and namespace aliases are dropped, and a
//! qualified name `N::x`, `::x` or `std::x` loses its qualifiers. kpl has one scope for
//! the file's functions and types, so names that two namespaces both declare clash as
//! they would without the namespaces (a diagnostic, never a silent choice).

use super::tokens::CTok;

type Tok = (usize, CTok, usize);

fn ident(t: Option<&Tok>) -> Option<&str> {
    match t.map(|t| &t.1) {
        Some(CTok::Ident(w)) => Some(w.as_str()),
        _ => None,
    }
}

fn is_p(t: Option<&Tok>, p: &str) -> bool {
    matches!(t.map(|t| &t.1), Some(CTok::P(q)) if *q == p)
}

/// Is there a `::` (two adjacent `:`) at `i`?
fn scope_op(toks: &[Tok], i: usize) -> bool {
    is_p(toks.get(i), ":") && is_p(toks.get(i + 1), ":") && toks[i].2 == toks[i + 1].0
}

/// The token stream with namespaces flattened (see the module doc).
pub fn flatten(toks: Vec<Tok>) -> Vec<Tok> {
    if !toks.iter().any(|t| matches!(&t.1, CTok::Ident(w) if w == "namespace" || w == "using")) && !(0..toks.len()).any(|i| scope_op(&toks, i)) {
        return toks;
    }
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    // The brace depths at which an open namespace's `}` will close it.
    let mut closers: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let word = ident(toks.get(i));
        if word == Some("namespace") {
            let mut j = i + 1;
            if ident(toks.get(j)).is_some() {
                j += 1;
            }
            if is_p(toks.get(j), "{") {
                closers.push(depth);
                depth += 1;
                i = j + 1;
                continue;
            }
        }
        if matches!(word, Some("namespace" | "using")) {
            // `using namespace std;`, `using std::min;`, `namespace fs = std::fs;`.
            while i < toks.len() && !is_p(toks.get(i), ";") {
                i += 1;
            }
            i += 1;
            continue;
        }
        if scope_op(&toks, i) {
            // Drop the qualifier before `::` (when it is a name right before it).
            if out.last().is_some_and(|t| matches!(t.1, CTok::Ident(_)) && t.2 == toks[i].0) {
                out.pop();
            }
            i += 2;
            continue;
        }
        match &toks[i].1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => {
                depth = depth.saturating_sub(1);
                if closers.last() == Some(&depth) {
                    closers.pop();
                    i += 1;
                    continue;
                }
            }
            _ => {}
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::c::lexer::lex;
    use crate::c::tokens::{convert, Dialect};

    fn words(src: &str) -> String {
        let (toks, _) = convert(&lex(src).0, Dialect::Cuda);
        flatten(toks).iter().map(|t| format!("{}", t.1)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn namespaces_are_read_as_their_contents() {
        let flat = words("namespace a { namespace { int f(); } } using namespace std; int g() { return a::f() + ::a::f() + std::min(1, 2) + (x ? y : z); }");
        assert_eq!(flat, words("int f(); int g() { return f() + f() + min(1, 2) + (x ? y : z); }"));
    }
}
