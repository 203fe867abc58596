//! `std::integral_constant` and its aliases as the values they stand for. A kernel that
//! takes `std::bool_constant<Atomic>` (a tag whose type is the value, for overloading or
//! deduction) takes a `bool`; `std::bool_constant<false>{}` is `(false)`,
//! `std::integral_constant<int, 4>::value` is `((int)(4))`, `std::true_type` is `bool`.
//! `members` reads `C<...>::value` before `namespaces` drops qualifiers; `tags` reads the
//! rest after templates are instantiated, so that a template parameter is first deduced
//! from the tag's type.

use crate::sema::host_items::{angle_args, ident, is_p};
use crate::text::tokens::CTok;

type Tok = (usize, CTok, usize);

/// The type and value a constant's name and template arguments stand for, if it is one.
fn constant(name: &str, args: &[Vec<Tok>], at: &Tok) -> Option<(Vec<Tok>, Vec<Tok>)> {
    let word = |w: &str| (at.0, CTok::Spec(w.to_string()), at.2);
    let kw = |w: &'static str| (at.0, CTok::Kw(w), at.2);
    match (name, args) {
        ("bool_constant", [v]) => Some((vec![word("bool")], v.clone())),
        ("integral_constant", [t, v]) => Some((t.clone(), v.clone())),
        ("true_type", []) => Some((vec![word("bool")], vec![kw("true")])),
        ("false_type", []) => Some((vec![word("bool")], vec![kw("false")])),
        _ => None,
    }
}

/// `C<...>::value` (and `std::true_type::value`): the constant.
pub fn members(toks: Vec<Tok>) -> Vec<Tok> {
    rewrite(toks, true)
}

/// The tag types and the values made of them (`C<...>{}`, `C<...>()`).
pub fn tags(toks: Vec<Tok>) -> Vec<Tok> {
    rewrite(toks, false)
}

fn rewrite(toks: Vec<Tok>, members: bool) -> Vec<Tok> {
    if !toks.iter().any(|t| matches!(ident(t), Some("bool_constant" | "integral_constant" | "true_type" | "false_type"))) {
        return toks;
    }
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let Some(name) = ident(t) else {
            out.push(t.clone());
            i += 1;
            continue;
        };
        // Its template arguments, and where the name's use ends.
        let (args, after) = match toks.get(i + 1) {
            Some(o) if is_p(o, "<") => match angle_args(&toks, i + 1) {
                Some(a) => a,
                None => (Vec::new(), usize::MAX),
            },
            _ => (Vec::new(), i + 1),
        };
        let found = (after != usize::MAX).then(|| constant(name, &args, t)).flatten();
        let Some((ty, value)) = found else {
            out.push(t.clone());
            i += 1;
            continue;
        };
        let paren = |p: &'static str| (t.0, CTok::P(p), t.2);
        let cast_value = |out: &mut Vec<Tok>| {
            out.push(paren("("));
            out.push(paren("("));
            out.extend(ty.iter().cloned());
            out.push(paren(")"));
            out.push(paren("("));
            out.extend(value.iter().cloned());
            out.push(paren(")"));
            out.push(paren(")"));
        };
        let next = |k: usize| toks.get(after + k);
        // Its member `C<...>::value`; a value made of it: `C<...>{}`, `C<...>()`.
        let member = crate::sema::namespaces::scope_op(&toks, after) && next(2).and_then(ident) == Some("value");
        let made = next(0).zip(next(1)).is_some_and(|(o, c)| (is_p(o, "{") && is_p(c, "}")) || (is_p(o, "(") && is_p(c, ")")));
        if members && member {
            // `std::` before it goes with it.
            if out.len() >= 3 && crate::sema::namespaces::scope_op(&out, out.len() - 2) && out.get(out.len() - 3).and_then(ident) == Some("std") {
                out.truncate(out.len() - 3);
            }
            cast_value(&mut out);
            i = after + 3;
        } else if !members && made {
            cast_value(&mut out);
            i = after + 2;
        } else if !members {
            out.extend(ty.iter().cloned());
            i = after;
        } else {
            out.push(t.clone());
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(src: &str, pass: fn(Vec<Tok>) -> Vec<Tok>) -> String {
        crate::text::tokens::spelled(&pass(crate::text::tokens::cuda_tokens(src)))
    }

    #[test]
    fn tags_become_their_values() {
        assert_eq!(text("void k(int n, bool_constant<false>) {}", tags), "void k ( int n , bool ) { }");
        assert_eq!(text("k(n, bool_constant<true>{});", tags), "k ( n , ( ( bool ) ( true ) ) ) ;");
        assert_eq!(text("true_type t = true_type();", tags), "bool t = ( ( bool ) ( true ) ) ;");
        assert_eq!(text("int bool_constant = 1;", tags), "int bool_constant = 1 ;", "a variable of that name stays");
    }

    #[test]
    fn members_are_their_constants() {
        assert_eq!(text("int x = std::integral_constant<int, 4>::value;", members), "int x = ( ( int ) ( 4 ) ) ;");
        assert_eq!(text("bool b = std::true_type::value;", members), "bool b = ( ( bool ) ( true ) ) ;");
        assert_eq!(text("void k(bool_constant<A>) {}", members), "void k ( bool_constant < A > ) { }", "a tag type waits for `tags`");
    }
}
