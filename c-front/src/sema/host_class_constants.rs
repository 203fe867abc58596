//! The constant static members of the file's classes, as host code reads them: `x128::size`
//! (`x128__size` once namespaces are flattened) in a launch's grid, where `x128` is a
//! typedef of a class template's instance whose `static constexpr int size =
//! sizeof(int4) / sizeof(ElementType);`. Read on the tokens after templates are
//! instantiated (host code does not go through `classes.rs`): each member `C__n` and each
//! alias's `A__n` whose value is an integer expression of literals and `sizeof` of types
//! kpl knows the size of (scalars, CUDA's vector types, 16-bit floats, and typedefs of
//! them).

use crate::sema::coop::{ident, is_p};
use crate::sema::host_constants::{eval, Env, Tok};
use crate::sema::layout::size_align;
use crate::sema::types::TypeTable;
use crate::text::tokens::{spelling, CTok, Dialect};
use std::collections::HashMap;

/// The bytes of a type named by one word: a scalar, a CUDA vector type (`int4`), a 16-bit
/// float (`layout::size_align`'s sizes), or a typedef of one (`typedefs`).
fn type_bytes(word: &str, typedefs: &HashMap<String, String>, depth: usize) -> Option<u64> {
    if let Some(t) = typedefs.get(word).filter(|_| depth < 8) {
        return type_bytes(t, typedefs, depth + 1);
    }
    let table = TypeTable { structs: Vec::new(), pointer_bytes: 8 };
    size_align(&[word], false, &table, Dialect::Cuda, 0).map(|s| s.0)
}

/// `C__n` (and `A__n` of each alias `A` of `C`) for every constant static member `n` of a
/// class `C` of `toks` whose value kpl can compute.
pub(crate) fn class_constants(toks: &[Tok]) -> HashMap<String, i64> {
    let mut out = HashMap::new();
    if !toks.iter().any(|t| matches!(&t.1, CTok::Spec(w) | CTok::Ident(w) if w == "static")) {
        return out;
    }
    // One-word typedefs: `typedef float floatX;`, `typedef P_float f128;`.
    let mut typedefs: HashMap<String, String> = HashMap::new();
    for k in 0..toks.len() {
        if matches!(toks[k].1, CTok::Kw("typedef")) && is_p(toks.get(k + 3), ";") {
            if let (Some(t), Some(a)) = (ident(toks.get(k + 1)), ident(toks.get(k + 2))) {
                typedefs.insert(a.to_string(), t.to_string());
            }
        }
    }
    let mut depth = 0usize;
    let mut k = 0;
    while k < toks.len() {
        match &toks[k].1 {
            CTok::Kw("struct" | "class") if depth == 0 && is_p(toks.get(k + 2), "{") => {
                let Some(class) = ident(toks.get(k + 1)) else {
                    k += 1;
                    continue;
                };
                let close = crate::sema::typedecls::closing(toks, k + 2);
                let body = &toks[k + 3..close.min(toks.len())];
                for (name, value) in members(body, &typedefs) {
                    out.insert(format!("{class}__{name}"), value);
                }
                k = close + 1;
                continue;
            }
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            _ => {}
        }
        k += 1;
    }
    // Aliases: `typedef C A;` gives `A__n`.
    let aliased: Vec<(String, i64)> = typedefs
        .iter()
        .flat_map(|(a, c)| out.iter().filter_map(move |(m, v)| m.strip_prefix(c.as_str())?.strip_prefix("__").map(|n| (format!("{a}__{n}"), *v))))
        .collect();
    out.extend(aliased);
    out
}

/// The constant static members of a class body (at its top level): name and value.
fn members(body: &[Tok], typedefs: &HashMap<String, String>) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (k, t) in body.iter().enumerate() {
        match &t.1 {
            CTok::P("{" | "(" | "[") => depth += 1,
            CTok::P("}" | ")" | "]") => {
                depth = depth.saturating_sub(1);
                if depth == 0 && matches!(t.1, CTok::P("}")) {
                    start = k + 1;
                }
            }
            CTok::P(";") if depth == 0 => {
                let member = &body[start..k];
                start = k + 1;
                let words = |w: &str| member.iter().any(|t| matches!(&t.1, CTok::Spec(x) | CTok::Ident(x) if x == w));
                let Some(eq) = member.iter().position(|t| is_p(Some(t), "=")) else { continue };
                if !words("static") || !(words("const") || words("constexpr")) || eq == 0 {
                    continue;
                }
                let Some(name) = ident(member.get(eq - 1)) else { continue };
                if let Some(v) = value(&member[eq + 1..], typedefs) {
                    out.push((name.to_string(), v));
                }
            }
            _ => {}
        }
    }
    out
}

/// An integer expression of literals and `sizeof(T)` of one-word types.
fn value(expr: &[Tok], typedefs: &HashMap<String, String>) -> Option<i64> {
    let mut sub = Vec::with_capacity(expr.len());
    let mut i = 0;
    while i < expr.len() {
        let t = &expr[i];
        if matches!(t.1, CTok::Kw("sizeof")) && is_p(expr.get(i + 1), "(") && is_p(expr.get(i + 3), ")") {
            let word = spelling(&expr.get(i + 2)?.1);
            sub.push((t.0, CTok::Int(type_bytes(&word, typedefs, 0)?, false), t.2));
            i += 4;
            continue;
        }
        if matches!(t.1, CTok::Ident(_)) {
            return None;
        }
        sub.push(t.clone());
        i += 1;
    }
    eval(&sub, &Env::default())
}
