//! CUDA's cache-hinted loads and stores as the plain accesses they are, on the token
//! stream: `__ldg(p)`, `__ldca(p)`, `__ldcg(p)`, `__ldcs(p)`, `__ldlu(p)`, `__ldcv(p)` read
//! `*p` (through the read-only or streaming cache: the value is the one in memory, and a
//! race with a write is a race all the same); `__stwb(p, v)`, `__stcg(p, v)`,
//! `__stcs(p, v)`, `__stwt(p, v)` write `*p = v`. Any element type, `float4` included.

use crate::sema::coop::{close_of, ident, is_p};
use crate::sema::coop::split_commas;
use crate::text::tokens::CTok;

type Tok = (usize, CTok, usize);

const LOADS: &[&str] = &["__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"];
const STORES: &[&str] = &["__stwb", "__stcg", "__stcs", "__stwt"];

/// Every cache-hinted load and store in `toks` as a plain one (see the module doc); a call
/// with the wrong number of arguments is left for the lowering to report.
pub fn lower(toks: Vec<Tok>) -> Vec<Tok> {
    if !toks.iter().any(|t| ident(Some(t)).is_some_and(|w| LOADS.contains(&w) || STORES.contains(&w))) {
        return toks;
    }
    rewrite(&toks)
}

fn rewrite(toks: &[Tok]) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let name = ident(Some(t)).filter(|w| LOADS.contains(w) || STORES.contains(w));
        let call = name.filter(|_| is_p(toks.get(i + 1), "(")).and_then(|n| Some((n, close_of(toks, i + 1)?)));
        if let Some((name, end)) = call {
            let args = split_commas(&toks[i + 2..end - 1]);
            let store = STORES.contains(&name);
            if args.len() == if store { 2 } else { 1 } && args.iter().all(|a| !a.is_empty()) {
                let (l, r) = (t.0, toks[end - 1].2);
                let p = |s: &'static str, at: usize| (at, CTok::P(s), at);
                // `&x[i]`, `&s.f`: the place itself (`*&` would hide its type from the
                // lowering's aggregates, `float4 v = __ldcs(&a[i]);`).
                match addressed_place(args[0]) {
                    Some(place) => {
                        out.extend([p("(", l), p("(", l)]);
                        out.extend(rewrite(place));
                    }
                    None => {
                        out.extend([p("(", l), p("*", l), p("(", l)]);
                        out.extend(rewrite(args[0]));
                    }
                }
                out.push(p(")", l));
                if store {
                    out.extend([p("=", l), p("(", l)]);
                    out.extend(rewrite(args[1]));
                    out.push(p(")", r));
                }
                out.push(p(")", r));
                i = end;
                continue;
            }
        }
        out.push(t.clone());
        i += 1;
    }
    out
}

/// `x[i]...` of an argument `&x[i]...`: an identifier followed only by subscripts and
/// members.
fn addressed_place(arg: &[Tok]) -> Option<&[Tok]> {
    let (amp, place) = arg.split_first()?;
    if !is_p(Some(amp), "&") || ident(place.first()).is_none() {
        return None;
    }
    let mut k = 1;
    while k < place.len() {
        if is_p(place.get(k), "[") {
            k = crate::sema::coop::closing(place, k)? + 1;
        } else if (is_p(place.get(k), ".") || is_p(place.get(k), "->")) && ident(place.get(k + 1)).is_some() {
            k += 2;
        } else {
            return None;
        }
    }
    Some(place)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(src: &str) -> String {
        let (lexed, _) = crate::text::lexer::lex(src);
        let (toks, _) = crate::text::tokens::convert(&lexed, crate::text::tokens::Dialect::Cuda);
        let out: Vec<CTok> = lower(toks).into_iter().map(|t| t.1).collect();
        out.iter().map(crate::text::tokens::spelling).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn loads_and_stores_are_plain_accesses_nested_or_not() {
        assert_eq!(text("x = __ldg(&a[i]);"), "x = ( ( a [ i ] ) ) ;");
        assert_eq!(text("__stcs(&s.v[i], y);"), "( ( s . v [ i ] ) = ( y ) ) ;");
        assert_eq!(text("x = __ldg(&a[i] + 1);"), "x = ( * ( & a [ i ] + 1 ) ) ;");
        assert_eq!(text("__stcs(p + i, __ldcs(q + i) * 2);"), "( * ( p + i ) = ( ( * ( q + i ) ) * 2 ) ) ;");
        // A call kpl cannot read as one stays, for the lowering to report.
        assert_eq!(text("__ldg(a, b);"), "__ldg ( a , b ) ;");
    }
}
