//! C++ constructors at their uses, on the token stream (`classes.rs` makes each constructor
//! with a body a function `C__ctorN` of its N parameters that returns the new object): a
//! temporary `C(a, b)` or `C{a, b}` is the call `C__ctor2(a, b)`, a declaration
//! `C v(a, b);` or `C v{a, b};` in a function is `C v = C__ctor2(a, b);`, and `C v;` is
//! `C v = C__ctor0();` where the class has a default constructor with a body. A brace or
//! parenthesis list whose length no constructor takes is left as it is (an aggregate).
//! `arity` counts a parameter list for `classes.rs` and `templates.rs` too.

use crate::sema::coop::{closing, ident, is_p, split_commas};
use crate::text::tokens::CTok;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

fn at(t: &Tok, c: CTok) -> Tok {
    (t.0, c, t.2)
}

/// The number of parameters in a parameter list's tokens (`void` alone: none).
pub(crate) fn arity(params: &[Tok]) -> usize {
    if params.is_empty() || matches!(params, [t] if ident(Some(t)) == Some("void")) {
        return 0;
    }
    split_commas(params).len()
}

/// `C(args)` or `C{args}` at `i` (the class name, `ctors` its constructors): the call of the
/// constructor that takes that many arguments, as `(function, open, close)` where `open`
/// and `close` are the brackets' indices; `None` where no constructor takes them.
pub(crate) fn temporary<'a>(toks: &[Tok], i: usize, ctors: &'a HashMap<usize, String>) -> Option<(&'a str, usize, usize)> {
    let open = i + 1;
    if !(is_p(toks.get(open), "(") || is_p(toks.get(open), "{")) {
        return None;
    }
    let close = closing(toks, open)?;
    let n = arity(&toks[open + 1..close]);
    ctors.get(&n).map(|f| (f.as_str(), open, close))
}

/// In a declaration `C v(args)`, `C v{args}` or `C v` (the declarator's name at `i`, then
/// `,` `;` `(` `{` or `=`): the tokens that replace the declarator, and the index after it.
/// `None`: the declarator is left as it is (an initialiser `= e`, an array, or no
/// constructor of that many parameters).
pub(crate) fn declarator(toks: &[Tok], i: usize, ctors: &HashMap<usize, String>) -> Option<(Vec<Tok>, usize)> {
    let name = &toks[i];
    ident(Some(name))?;
    let next = toks.get(i + 1)?;
    let (f, args, after) = match &next.1 {
        CTok::P("(" | "{") => {
            let close = closing(toks, i + 1)?;
            let args = &toks[i + 2..close];
            (ctors.get(&arity(args))?, args, close + 1)
        }
        CTok::P("," | ";") => (ctors.get(&0)?, &toks[i + 1..i + 1], i + 1),
        _ => return None,
    };
    let mut out = vec![name.clone(), at(next, CTok::P("=")), at(name, CTok::Ident(f.clone())), at(next, CTok::P("("))];
    out.extend(args.iter().cloned());
    out.push(at(next, CTok::P(")")));
    Some((out, after))
}
