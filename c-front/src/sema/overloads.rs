//! C++ overloads. By their number of parameters, on the token stream after templates and
//! classes: when every definition of a function name takes a different number of
//! arguments (counting those with defaults as optional: the ranges must not overlap), each
//! definition and declaration is renamed `f__N` (`N` its parameter count) and each call
//! `f(...)` names the one whose range holds its argument count. Overloads of one arity are
//! left to the lowering, which chooses by argument types at each call
//! (`Lower::resolve_call`): the one overload whose parameters' types are exactly the
//! arguments' (a C++ exact match, which no conversion beats), else the one overload that
//! takes them through arithmetic conversions of scalars; for a built-in's name that the
//! file's functions overload (`fminf`, `make_float3`), the built-in where none can take
//! them; otherwise a diagnostic (an argument kpl cannot type, no overload or several that
//! fit). Operator functions (`operators.rs`) are chosen the same way. Overloaded kernels
//! are refused.

use crate::sema::coop::{file_scope_heads, ident, is_p};
use crate::text::tokens::CTok;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

/// The number of arguments (or parameters) between the `(` at `open` and its `)`, with
/// how many of them have a default (`= ...`), and the index of the `)`.
fn count(toks: &[Tok], open: usize) -> Option<(usize, usize, usize)> {
    let (mut depth, mut n, mut defaults, mut empty) = (0usize, 0usize, 0usize, true);
    for (k, t) in toks.iter().enumerate().skip(open + 1) {
        match &t.1 {
            CTok::P("(" | "[" | "{") => depth += 1,
            CTok::P(")") if depth == 0 => {
                let n = if empty { 0 } else { n + 1 };
                return Some((n, defaults, k));
            }
            CTok::P(")" | "]" | "}") => depth = depth.checked_sub(1)?,
            CTok::P(",") if depth == 0 => n += 1,
            CTok::P("=") if depth == 0 => defaults += 1,
            CTok::P(";") => return None,
            _ => {}
        }
        empty &= matches!(&t.1, CTok::Spec(w) if w == "void") && is_p(toks.get(k + 1), ")");
    }
    None
}

/// The token stream with overloads of different arities renamed (see the module doc).
pub fn resolve(toks: Vec<Tok>) -> Vec<Tok> {
    // Each name's definitions at file scope: (fewest, most) arguments.
    let mut defs: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    for (i, name) in file_scope_heads(&toks) {
        let Some((n, d, close)) = count(&toks, i) else { continue };
        // A definition: its body follows the parameters (and qualifiers).
        let body = toks[close + 1..].iter().find(|t| !matches!(t.1, CTok::Spec(_))).is_some_and(|t| is_p(Some(t), "{"));
        // A kernel keeps its name (`--kernel` names it): overloaded, it is refused.
        let head = toks[..i - 1].iter().rev().take_while(|t| !matches!(t.1, CTok::P(";" | "}" | ")")));
        let kernel = head.into_iter().any(|t| matches!(&t.1, CTok::Spec(w) if matches!(w.as_str(), "__global__" | "__kernel" | "kernel")));
        if body {
            defs.entry(name.to_string()).or_default().push(if kernel { (0, usize::MAX) } else { (n.saturating_sub(d), n) });
        }
    }
    // Operator functions are called from the lowering, which chooses among them by arity
    // and types (`operators.rs`).
    defs.retain(|n, v| {
        !n.starts_with(crate::sema::operators::PREFIX)
            && v.len() > 1 && v.iter().enumerate().all(|(a, x)| v.iter().skip(a + 1).all(|y| x.1 < y.0 || y.1 < x.0))
    });
    if defs.is_empty() {
        return toks;
    }
    let mut out = Vec::with_capacity(toks.len());
    for i in 0..toks.len() {
        let t = &toks[i];
        let ranges = ident(Some(t)).and_then(|n| defs.get(n));
        let member = i > 0 && (is_p(toks.get(i - 1), ".") || is_p(toks.get(i - 1), "->"));
        if let (Some(ranges), false, true) = (ranges, member, is_p(toks.get(i + 1), "(")) {
            if let Some((n, d, _)) = count(&toks, i + 1) {
                // A declaration or definition has its own parameter count (defaults and
                // all); a call takes the definition whose range holds its argument count.
                let chosen = ranges.iter().find(|r| r.1 == n && r.0 == n.saturating_sub(d)).or_else(|| ranges.iter().find(|r| r.0 <= n && n <= r.1));
                if let (Some(r), Some(name)) = (chosen, ident(Some(t))) {
                    out.push((t.0, CTok::Ident(format!("{name}__{}", r.1)), t.2));
                    continue;
                }
            }
        }
        out.push(t.clone());
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
        resolve(toks).iter().map(|t| format!("{}", t.1)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn overloads_of_different_arities_are_renamed_with_their_calls() {
        let src = "int f(int a); int f(int a) { return a; } int f(int a, int b, int c = 1) { return a + b; } \
                   int g(int x) { return f(x) + f(x, f(x < 2, 3)) + f(x, 2, 3); }";
        let want = "int f__1(int a); int f__1(int a) { return a; } int f__3(int a, int b, int c = 1) { return a + b; } \
                    int g(int x) { return f__1(x) + f__3(x, f__3(x < 2, 3)) + f__3(x, 2, 3); }";
        assert_eq!(words(src), words(want));
    }

    #[test]
    fn overloads_of_one_arity_are_left_to_the_lowering() {
        let src = "int f(int a) { return a; } float f(float a) { return a; } int g(int x) { return f(x); }";
        assert_eq!(words(src), words(src));
        let void = "int h(void) { return 1; } int h(int a) { return a; } int k() { return h() + h(2); }";
        assert_eq!(words(void), words("int h__0(void) { return 1; } int h__1(int a) { return a; } int k() { return h__0() + h__1(2); }"));
    }
}
