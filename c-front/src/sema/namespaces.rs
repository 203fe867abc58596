//! C++ namespaces in CUDA code, on the token stream: `namespace N { ... }` (named or not)
//! is read as its contents, `using` declarations and namespace aliases are dropped, and a
//! qualified name `N::x`, `::x` or `std::x` loses its qualifiers. kpl has one scope for
//! the file's functions and types, so names that two namespaces both declare clash as
//! they would without the namespaces (a diagnostic, never a silent choice). A name
//! qualified by a class of the file, `C::m`, is the one identifier `C__m`: the free
//! function `classes.rs` makes of a member function. A linkage block `extern "C" { ... }`
//! is read as its contents too, and an empty declaration (the `;` after a function's body
//! or a block's `}`) is dropped.

use crate::text::tokens::CTok;

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
pub(crate) fn scope_op(toks: &[Tok], i: usize) -> bool {
    is_p(toks.get(i), ":") && is_p(toks.get(i + 1), ":") && toks[i].2 == toks[i + 1].0
}

/// The token stream with namespaces flattened (see the module doc).
pub fn flatten(toks: Vec<Tok>) -> Vec<Tok> {
    // The file's classes: `struct C {`, `class C :`, `struct C;` (not `enum class`).
    let classes: std::collections::HashSet<&str> = (0..toks.len())
        .filter(|&k| matches!(toks[k].1, CTok::Kw("struct" | "class")) && !(k > 0 && matches!(toks[k - 1].1, CTok::Kw("enum"))))
        .filter(|&k| is_p(toks.get(k + 2), "{") || is_p(toks.get(k + 2), ":") || is_p(toks.get(k + 2), ";"))
        .filter_map(|k| ident(toks.get(k + 1)))
        .collect();
    // Type aliases of classes (`typedef C<float> A;`, `using A = C;`): `A::m` is `A__m`,
    // which `classes.rs` reads as the class's member.
    let mut classes = classes;
    for k in 0..toks.len() {
        let is_typedef = matches!(toks[k].1, CTok::Kw("typedef"));
        let is_using = ident(toks.get(k)) == Some("using") && ident(toks.get(k + 1)).is_some() && is_p(toks.get(k + 2), "=");
        if !is_typedef && !is_using {
            continue;
        }
        let from = if is_using { k + 3 } else { k + 1 };
        let first = toks[from..].iter().find(|t| !matches!(t.1, CTok::Kw("struct" | "class") | CTok::Spec(_)));
        if !ident(first).is_some_and(|c| classes.contains(c)) {
            continue;
        }
        let end = (k..toks.len()).find(|&j| is_p(toks.get(j), ";")).unwrap_or(toks.len());
        let alias = if is_using { ident(toks.get(k + 1)) } else { ident(toks.get(end.wrapping_sub(1))) };
        if let Some(a) = alias {
            classes.insert(a);
        }
    }
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    // The brace depths at which an open namespace's `}` will close it.
    let mut closers: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    // Whether the open `{` at file scope is a function's body, and whether a `;` now would
    // be an empty declaration (after a function's body or a namespace's `}`).
    let (mut body_open, mut empty_ok) = (false, false);
    let mut i = 0;
    while i < toks.len() {
        let word = ident(toks.get(i));
        // `extern "C" {`: a linkage block, read as a namespace.
        if matches!(&toks[i].1, CTok::Spec(w) if w == "extern") && matches!(toks.get(i + 1).map(|t| &t.1), Some(CTok::Str)) && is_p(toks.get(i + 2), "{") {
            closers.push(depth);
            depth += 1;
            i += 3;
            continue;
        }
        // `};` after a function's body or a closed block at file scope: an empty declaration.
        if is_p(toks.get(i), ";") && depth == closers.len() && empty_ok {
            empty_ok = false;
            i += 1;
            continue;
        }
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
        // `using A = T;`: the alias declaration, as `typedef T A;`.
        // (An alias template, `template<...> using A = ...;`, is dropped as before.)
        // (So is an alias of a function or array type, `using F = void (*)(int);`, which
        // needs its name inside the type.)
        let alias = word == Some("using") && ident(toks.get(i + 1)).is_some() && is_p(toks.get(i + 2), "=") && !is_p(out.last(), ">");
        let alias_end = if alias { (i..toks.len()).find(|&j| is_p(toks.get(j), ";")).unwrap_or(toks.len()) } else { i };
        if alias && !toks[i..alias_end].iter().any(|t| is_p(Some(t), "(") || is_p(Some(t), "[")) {
            let end = alias_end;
            let rest = flatten(toks[i + 3..end].to_vec());
            out.push((toks[i].0, CTok::Kw("typedef"), toks[i].2));
            out.extend(rest);
            out.push(toks[i + 1].clone());
            if let Some(t) = toks.get(end) {
                out.push(t.clone());
            }
            i = end + 1;
            continue;
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
            let qualifier = out.last().filter(|t| t.2 == toks[i].0).and_then(|t| ident(Some(t))).map(str::to_string);
            // `C::m` of a class `C`: `C__m`.
            if let (Some(c), Some(m)) = (qualifier.as_deref().filter(|c| classes.contains(c)), ident(toks.get(i + 2))) {
                let start = out.pop().map_or(toks[i].0, |t| t.0);
                out.push((start, CTok::Ident(format!("{c}__{m}")), toks[i + 2].2));
                i += 3;
                continue;
            }
            // Drop the qualifier before `::` (when it is a name right before it).
            if qualifier.is_some() {
                out.pop();
            }
            i += 2;
            continue;
        }
        let mut closes_body = false;
        match &toks[i].1 {
            CTok::P("{") => {
                if depth == closers.len() {
                    // A body follows its parameters' `)` (and qualifiers such as `const`).
                    let before = out.iter().rev().find(|t| !matches!(t.1, CTok::Spec(_)));
                    body_open = is_p(before, ")");
                }
                depth += 1;
            }
            CTok::P("}") => {
                depth = depth.saturating_sub(1);
                if closers.last() == Some(&depth) {
                    closers.pop();
                    // `}` of a namespace or linkage block: a `;` after it is empty too.
                    empty_ok = true;
                    i += 1;
                    continue;
                }
                closes_body = depth == closers.len() && body_open;
            }
            _ => {}
        }
        empty_ok = closes_body;
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::lexer::lex;
    use crate::text::tokens::{convert, Dialect};

    fn words(src: &str) -> String {
        let (toks, _) = convert(&lex(src).0, Dialect::Cuda);
        flatten(toks).iter().map(|t| format!("{}", t.1)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn namespaces_are_read_as_their_contents() {
        let flat = words("namespace a { namespace { int f(); } } using namespace std; int g() { return a::f() + ::a::f() + std::min(1, 2) + (x ? y : z); }");
        assert_eq!(flat, words("int f(); int g() { return f() + f() + min(1, 2) + (x ? y : z); }"));
    }

    #[test]
    fn linkage_blocks_are_read_as_their_contents_and_empty_declarations_dropped() {
        let flat = words(r#"extern "C" { void f(int *p) { p[0] = 1; }; }; extern "C" void g(); struct S { int x; }; int h() { return 0; };"#);
        assert_eq!(flat, words(r#"void f(int *p) { p[0] = 1; } extern "C" void g(); struct S { int x; }; int h() { return 0; }"#));
        let flat = words(r#"extern "C" { void f(int a); void g(int b); }; namespace N { int x; }; int y;"#);
        assert_eq!(flat, words("void f(int a); void g(int b); int x; int y;"));
    }

    #[test]
    fn a_class_qualifier_names_the_member_function() {
        let flat = words("struct C { int x; }; enum class E { A }; int g() { return C::m(1) + E::A + N::f(); }");
        assert_eq!(flat, words("struct C { int x; }; enum class E { A }; int g() { return C__m(1) + A + f(); }"));
    }
}
