//! Host code's declarations of several variables in one statement (`dim3 g(n / 64), b(64);`,
//! `int blocks = n / 256, threads = 256;`) split into one declaration each, so that reading
//! the launches (`launches.rs`, `host_constants.rs`) sees each variable with its
//! initialiser.

use crate::sema::host_constants::{closing_free, is_word, INT_WORDS};
use crate::text::tokens::CTok;

type Tok = (usize, CTok, usize);

/// `toks` (a host function) with each statement that declares several integers or `dim3`s
/// written as one declaration per variable (positions kept: a new `;` and the repeated type
/// sit where the `,` was).
pub(crate) fn split_declarations(toks: &[Tok]) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let starts = i == 0 || matches!(toks[i - 1].1, CTok::P(";" | "{" | "}"));
        match starts.then(|| several(toks, i)).flatten() {
            Some((names_at, commas, end)) => {
                let prefix = &toks[i..names_at];
                let mut from = names_at;
                out.extend_from_slice(prefix);
                for &c in commas.iter().chain(std::iter::once(&end)) {
                    if from != names_at {
                        out.extend(prefix.iter().map(|t| (toks[from - 1].0, t.1.clone(), toks[from - 1].2)));
                    }
                    out.extend_from_slice(&toks[from..c]);
                    out.push((toks[c].0, CTok::P(";"), toks[c].2));
                    from = c + 1;
                }
                i = end + 1;
            }
            None => {
                out.push(toks[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// At `i`, a declaration of several integers or `dim3`s: where its first variable's name
/// is, its top-level commas, and its `;`.
fn several(toks: &[Tok], i: usize) -> Option<(usize, Vec<usize>, usize)> {
    let mut j = i;
    while toks.get(j).is_some_and(|t| INT_WORDS.iter().any(|w| is_word(&t.1, w)) || is_word(&t.1, "static")) {
        j += 1;
    }
    let ints = toks[i..j].iter().any(|t| !is_word(&t.1, "const") && !is_word(&t.1, "static") && !is_word(&t.1, "constexpr"));
    // (Only qualifiers before it: a `dim3`, `const dim3`.)
    if !ints {
        if !toks.get(j).is_some_and(|t| is_word(&t.1, "dim3")) {
            return None;
        }
        j += 1;
    }
    // A name (or a pointer's), not a cast `int(x)` nor a function's declaration.
    if !matches!(toks.get(j)?.1, CTok::Ident(_) | CTok::P("*")) {
        return None;
    }
    let end = (j..toks.len()).find(|&k| matches!(toks[k].1, CTok::P(";" | "{" | "}")) && closing_free(toks, j, k))?;
    if toks[end].1 != CTok::P(";") {
        return None;
    }
    let commas: Vec<usize> = (j..end).filter(|&k| toks[k].1 == CTok::P(",") && closing_free(toks, j, k)).collect();
    (!commas.is_empty()).then_some((j, commas, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(toks: &[Tok]) -> String {
        crate::text::tokens::render(&toks.iter().map(|t| t.1.clone()).collect::<Vec<_>>())
    }

    fn split(src: &str) -> String {
        let toks = crate::text::tokens::cuda_tokens(src);
        text(&split_declarations(&toks))
    }

    #[test]
    fn several_variables_become_one_declaration_each() {
        assert_eq!(split("dim3 g(n / 64, 1), b(64);"), split("dim3 g(n / 64, 1); dim3 b(64);"));
        assert_eq!(split("const dim3 g(n), b(64);"), split("const dim3 g(n); const dim3 b(64);"));
        assert_eq!(split("{ int a = f(1, 2), *p, c; }"), split("{ int a = f(1, 2); int *p; int c; }"));
        // Not at a statement's start (a `for`'s), and not a declaration: kept.
        assert_eq!(split("for (int i = 0, j = 1; i < j; i++) x = 1, y = 2;"), split("for (int i = 0, j = 1; i < j; i++) x = 1, y = 2;"));
        assert_eq!(split("x = g(1, 2);"), split("x = g(1, 2);"));
    }
}
