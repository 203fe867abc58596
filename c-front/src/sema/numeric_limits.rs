//! `std::numeric_limits<T>::max()` and its kin on the token stream (CUDA), before namespaces
//! are flattened: `max()`, `min()`, `lowest()` of the integer types and `float`, and
//! `epsilon()`, `infinity()` of `float`, each as the literal it is (`2147483647`,
//! `(-2147483647-1)`, `4294967295u`, `3.402823466e+38f`). `T` is a type written out
//! (`unsigned int`, `int32_t`, `long long`) or a name a `typedef` or `using` before it gives one
//! of those (`typedef int basic_t;`). Anything else (a template parameter, `long` and
//! `size_t`, whose width is the pointer's, `double`, which kpl keeps in one float word) is
//! left as written, for the parser to report.

use crate::sema::coop::{ident, is_p};
use crate::sema::namespaces::scope_op;
use crate::text::tokens::CTok;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

/// What a type's limits are: an integer of `bits` bits, signed or not, or `float`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Int { bits: u32, signed: bool },
    Float,
}

/// The kind of the type the words name (after typedefs); `None` for one kpl does not give
/// limits of.
fn kind(words: &[String]) -> Option<Kind> {
    let w: Vec<&str> = words.iter().map(String::as_str).filter(|w| !matches!(*w, "const" | "volatile")).collect();
    let int = |bits, signed| Some(Kind::Int { bits, signed });
    match w.as_slice() {
        ["float"] => Some(Kind::Float),
        ["bool"] => int(1, false),
        ["char"] | ["signed", "char"] | ["int8_t"] => int(8, true),
        ["unsigned", "char"] | ["uint8_t"] | ["uchar"] => int(8, false),
        ["short"] | ["short", "int"] | ["signed", "short"] | ["int16_t"] => int(16, true),
        ["unsigned", "short"] | ["unsigned", "short", "int"] | ["uint16_t"] | ["ushort"] => int(16, false),
        ["int"] | ["signed"] | ["signed", "int"] | ["int32_t"] => int(32, true),
        ["unsigned"] | ["unsigned", "int"] | ["uint32_t"] | ["uint"] => int(32, false),
        ["long", "long"] | ["long", "long", "int"] | ["signed", "long", "long"] | ["int64_t"] => int(64, true),
        ["unsigned", "long", "long"] | ["unsigned", "long", "long", "int"] | ["uint64_t"] => int(64, false),
        // `long`, `size_t` and their kin are as wide as a pointer (`--pointer-bitwidth`),
        // which this pass does not know: left as written.
        _ => None,
    }
}

/// The literal tokens of a limit, at `at`.
fn literal(k: Kind, f: &str, at: (usize, usize)) -> Option<Vec<Tok>> {
    let (l, r) = at;
    let tok = |t: CTok| (l, t, r);
    let num = |v: u64, bits: u32, unsigned: bool| if bits > 32 { tok(CTok::LongInt(v, unsigned)) } else { tok(CTok::Int(v, unsigned)) };
    let float = |x: f32| tok(CTok::Float(x.to_bits()));
    let neg = |inner: Vec<Tok>| {
        let mut v = vec![tok(CTok::P("(")), tok(CTok::P("-"))];
        v.extend(inner);
        v.push(tok(CTok::P(")")));
        v
    };
    Some(match (k, f) {
        (Kind::Int { bits, signed: false }, "max") => vec![num(if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 }, bits, true)],
        (Kind::Int { bits, signed: false }, "min" | "lowest") => vec![num(0, bits, true)],
        (Kind::Int { bits, signed: true }, "max") => vec![num((1u64 << (bits - 1)) - 1, bits, false)],
        (Kind::Int { bits, signed: true }, "min" | "lowest") => {
            // `(-MAX - 1)`: the most negative value without a literal too large for its type.
            let mut v = vec![tok(CTok::P("(")), tok(CTok::P("-")), num((1u64 << (bits - 1)) - 1, bits, false), tok(CTok::P("-")), num(1, bits, false)];
            v.push(tok(CTok::P(")")));
            v
        }
        (Kind::Float, "max") => vec![float(f32::MAX)],
        (Kind::Float, "min") => vec![float(f32::MIN_POSITIVE)],
        (Kind::Float, "lowest") => neg(vec![float(f32::MAX)]),
        (Kind::Float, "epsilon") => vec![float(f32::EPSILON)],
        (Kind::Float, "infinity") => vec![tok(CTok::P("(")), float(1.0), tok(CTok::P("/")), float(0.0), tok(CTok::P(")"))],
        _ => return None,
    })
}

/// The words of the type tokens `toks` name, typedefs followed.
fn type_words(toks: &[Tok], typedefs: &HashMap<String, Vec<String>>) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for t in toks {
        let w = ident(Some(t))?;
        match typedefs.get(w) {
            Some(words) => out.extend(words.iter().cloned()),
            None => out.push(w.to_string()),
        }
    }
    Some(out)
}

/// Every `std::numeric_limits<T>::f()` kpl can give as a literal, as that literal (see the
/// module doc).
pub fn lower(toks: Vec<Tok>) -> Vec<Tok> {
    if !toks.iter().any(|t| ident(Some(t)) == Some("numeric_limits")) {
        return toks;
    }
    let mut typedefs: HashMap<String, Vec<String>> = HashMap::new();
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        // `typedef WORDS NAME;` and `using NAME = WORDS;` of plain words.
        if matches!(toks[i].1, CTok::Kw("typedef")) {
            if let Some(end) = (i + 1..toks.len()).find(|&k| !matches!(toks[k].1, CTok::Ident(_) | CTok::Spec(_))) {
                if end >= i + 3 && is_p(toks.get(end), ";") {
                    if let (Some(name), Some(words)) = (ident(toks.get(end - 1)), type_words(&toks[i + 1..end - 1], &typedefs)) {
                        typedefs.insert(name.to_string(), words);
                    }
                }
            }
        }
        if ident(toks.get(i)) == Some("using") && is_p(toks.get(i + 2), "=") {
            if let (Some(name), Some(end)) = (ident(toks.get(i + 1)), (i + 3..toks.len()).find(|&k| !matches!(toks[k].1, CTok::Ident(_) | CTok::Spec(_)))) {
                if end > i + 3 && is_p(toks.get(end), ";") {
                    if let Some(words) = type_words(&toks[i + 3..end], &typedefs) {
                        typedefs.insert(name.to_string(), words);
                    }
                }
            }
        }
        if let Some((lit, next)) = limit_at(&toks, i, &typedefs) {
            out.extend(lit);
            i = next;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}

/// `[::][cuda::]std::numeric_limits<T>::f()` at `i`: its literal and the index after it.
fn limit_at(toks: &[Tok], i: usize, typedefs: &HashMap<String, Vec<String>>) -> Option<(Vec<Tok>, usize)> {
    let mut j = i;
    if scope_op(toks, j) {
        j += 2;
    }
    if ident(toks.get(j)) == Some("cuda") && scope_op(toks, j + 1) {
        j += 3;
    }
    if ident(toks.get(j)) != Some("std") || !scope_op(toks, j + 1) || ident(toks.get(j + 3)) != Some("numeric_limits") || !is_p(toks.get(j + 4), "<") {
        return None;
    }
    let close = (j + 5..toks.len()).find(|&k| is_p(toks.get(k), ">"))?;
    let words = type_words(&toks[j + 5..close], typedefs)?;
    let f = ident(toks.get(close + 3)).filter(|_| scope_op(toks, close + 1))?;
    if !is_p(toks.get(close + 4), "(") || !is_p(toks.get(close + 5), ")") {
        return None;
    }
    let lit = literal(kind(&words)?, f, (toks[i].0, toks[close + 5].2))?;
    Some((lit, close + 6))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(src: &str) -> String {
        let (lexed, _) = crate::text::lexer::lex(src);
        let (toks, _) = crate::text::tokens::convert(&lexed, crate::text::tokens::Dialect::Cuda);
        lower(toks).iter().map(|t| crate::text::tokens::spelling(&t.1)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn limits_of_written_and_typedef_types_are_literals() {
        assert_eq!(text("x = std::numeric_limits<int>::max();"), "x = 2147483647 ;");
        assert_eq!(text("x = std::numeric_limits<int>::min();"), "x = ( - 2147483647 - 1 ) ;");
        assert_eq!(text("typedef unsigned int u; x = std::numeric_limits<u>::max();"), "typedef unsigned int u ; x = 4294967295u ;");
        assert_eq!(text("using b = int; const b m = std::numeric_limits<b>::max();"), "using b = int ; const b m = 2147483647 ;");
        assert_eq!(text("y = ::cuda::std::numeric_limits<float>::lowest();"), format!("y = ( - {} ) ;", crate::text::tokens::spelling(&CTok::Float(f32::MAX.to_bits()))));
    }

    #[test]
    fn what_kpl_cannot_give_stays() {
        assert_eq!(text("x = std::numeric_limits<T>::max();"), "x = std : : numeric_limits < T > : : max ( ) ;");
        assert_eq!(text("x = std::numeric_limits<double>::max();"), "x = std : : numeric_limits < double > : : max ( ) ;");
    }
}
