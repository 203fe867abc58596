//! Terms as plain s-expressions (`kpl_lang::sexp::Sx`) and back: how certificates write
//! terms, and the tree form the certificate checker rewrites (it does not trust egg).

use crate::vc::{Terms, Vc};
use egg::{Id, Language, RecExpr};
pub use kpl_lang::sexp::Sx;

/// The tree of a term in an arena (sharing expanded).
pub fn of_term(t: &Terms, id: Id) -> Sx {
    let n = t.node(id);
    if n.is_leaf() {
        return Sx::Atom(n.to_string());
    }
    let mut xs = vec![Sx::Atom(n.to_string())];
    xs.extend(n.children().iter().map(|c| of_term(t, *c)));
    Sx::List(xs)
}

/// The tree of a `RecExpr` rooted at its last node.
pub fn of_recexpr(e: &RecExpr<Vc>) -> Sx {
    fn go(e: &RecExpr<Vc>, id: Id) -> Sx {
        let n = &e[id];
        if n.is_leaf() {
            return Sx::Atom(n.to_string());
        }
        let mut xs = vec![Sx::Atom(n.to_string())];
        xs.extend(n.children().iter().map(|c| go(e, *c)));
        Sx::List(xs)
    }
    go(e, Id::from(e.as_ref().len() - 1))
}

/// A tree back as a term of the VC language (sorts of new variables default to Word).
pub fn to_term(t: &mut Terms, s: &Sx) -> Result<Id, String> {
    use egg::FromOp;
    match s {
        Sx::Atom(a) => {
            let n = Vc::from_op(a, vec![]).map_err(|_| format!("unknown atom `{a}`"))?;
            Ok(t.add(n))
        }
        Sx::List(xs) => {
            let head = s.head().to_string();
            let kids = xs[1..].iter().map(|x| to_term(t, x)).collect::<Result<Vec<_>, _>>()?;
            let n = Vc::from_op(&head, kids).map_err(|_| format!("unknown operator `{head}`"))?;
            Ok(t.add(n))
        }
    }
}
