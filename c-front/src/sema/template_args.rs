//! Template arguments on the token stream, for `templates.rs`: the declared types of a
//! scope's variables and the type of a call's argument (deduction), integer arguments
//! folded to one literal, and the identifier an instance is named by (`mangle`).

use crate::sema::host_items::{angle_args, ident, is_p, items};
use crate::text::tokens::CTok;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

/// Words that qualify a declaration but are not part of its type.
pub(crate) const QUALIFIERS: &[&str] = &[
    "__shared__",
    "__device__",
    "__global__",
    "__host__",
    "__constant__",
    "static",
    "volatile",
    "const",
    "extern",
    "inline",
    "register",
    "__restrict__",
    "__restrict",
    "restrict",
    "__local",
    "__global",
    "__constant",
    "__private",
    "local",
    "global",
    "constant",
    "private",
    "__forceinline__",
];

/// The declared type of each variable in `toks` (as written, qualifiers dropped), and
/// whether it is a pointer or an array: `int *p`, `__shared__ float s[64]`, `float4 v`.
pub(crate) fn declared_types(toks: &[Tok]) -> HashMap<String, (Vec<Tok>, bool)> {
    let mut out = HashMap::new();
    for i in 1..toks.len() {
        let Some(name) = ident(&toks[i]) else {
            continue;
        };
        let ends = toks
            .get(i + 1)
            .is_some_and(|t| matches!(&t.1, CTok::P(p) if [",", ";", "=", ")", "["].contains(p)));
        if !ends {
            continue;
        }
        let mut j = i;
        let mut pointer = toks.get(i + 1).is_some_and(|t| is_p(t, "["));
        let mut words = Vec::new();
        while j > 0 {
            let t = &toks[j - 1];
            match &t.1 {
                CTok::P("*") | CTok::P("&") => pointer |= is_p(t, "*"),
                CTok::Spec(w) => {
                    if !QUALIFIERS.contains(&w.as_str()) {
                        words.push(t.clone());
                    }
                }
                // A type name (a typedef, a vector type) right after a boundary.
                CTok::Ident(_)
                    if words.is_empty()
                        && j >= 2
                        && matches!(
                            &toks[j - 2].1,
                            CTok::P(";" | "{" | "}" | "(" | ",") | CTok::Spec(_)
                        ) =>
                {
                    words.push(t.clone());
                }
                _ => break,
            }
            j -= 1;
        }
        if !words.is_empty() {
            words.reverse();
            out.insert(name.to_string(), (words, pointer));
        }
    }
    out
}

/// The declared types of the variables declared at file scope: items with no body and no
/// parameter list (`float *buffer;`, `int n = f(2);`).
pub(crate) fn file_variables(toks: &[Tok]) -> HashMap<String, (Vec<Tok>, bool)> {
    let mut out = HashMap::new();
    for r in items(toks) {
        let item = &toks[r];
        let eq = item.iter().position(|t| is_p(t, "=")).unwrap_or(item.len());
        let declares = !item.iter().any(|t| is_p(t, "{")) && !item[..eq].iter().any(|t| is_p(t, "("));
        let typedef = item.iter().any(|t| matches!(&t.1, CTok::Kw("typedef" | "using" | "template")) || matches!(&t.1, CTok::Spec(w) if w == "typedef"));
        if declares && !typedef {
            out.extend(declared_types(item));
        }
    }
    out
}

/// The type an argument gives a template parameter: its declared type, or (for a `T *`
/// parameter) the type it points to (of `p`, `&x`, `p + i`, `&p[i]`).
pub(crate) fn arg_type(
    arg: &[Tok],
    pointee: bool,
    decls: &HashMap<String, (Vec<Tok>, bool)>,
) -> Option<Vec<Tok>> {
    let at = |t: &Tok, w: &str| (t.0, CTok::Spec(w.to_string()), t.2);
    match arg {
        [t] => match &t.1 {
            CTok::Ident(x) => {
                let (ty, ptr) = decls.get(x)?;
                (*ptr == pointee).then(|| ty.clone())
            }
            CTok::Int(_, unsigned) if !pointee => Some(if *unsigned {
                vec![at(t, "unsigned"), at(t, "int")]
            } else {
                vec![at(t, "int")]
            }),
            CTok::Float(_) if !pointee => Some(vec![at(t, "float")]),
            CTok::Char(_) if !pointee => Some(vec![at(t, "char")]),
            _ => None,
        },
        [amp, t] if is_p(amp, "&") && pointee => {
            let (ty, ptr) = decls.get(ident(t)?)?;
            (!ptr).then(|| ty.clone())
        }
        // `p + i`, `p - 1`: a pointer moved, of the type it had.
        [t, op, _, ..] if pointee && (is_p(op, "+") || is_p(op, "-")) => {
            let (ty, ptr) = decls.get(ident(t)?)?;
            ptr.then(|| ty.clone())
        }
        // `&p[i]`: an element's address, of the array's element type.
        [amp, t, open, .., close] if pointee && is_p(amp, "&") && is_p(open, "[") && is_p(close, "]") && closes_at_end(&arg[2..]) => {
            let (ty, ptr) = decls.get(ident(t)?)?;
            ptr.then(|| ty.clone())
        }
        // `t + 1`, `B * T`: the type C gives the expression.
        _ if !pointee => crate::sema::deduction::expr_type(arg, decls),
        _ => None,
    }
}

/// Where the arguments of a launch whose `<<<` is at `at` open: the token after its `>>>`.
pub(crate) fn launch_arguments(toks: &[Tok], at: usize) -> Option<usize> {
    if !(is_p(toks.get(at)?, "<<") && is_p(toks.get(at + 1)?, "<")) {
        return None;
    }
    Some(crate::sema::launches::config_end(toks, at)? + 2)
}

/// Do `toks` (from a `[`) close that bracket only at their end, as `[i + 1]` does and
/// `[i] + a[j]` does not?
pub(crate) fn closes_at_end(toks: &[Tok]) -> bool {
    let mut depth = 0i32;
    for (k, t) in toks.iter().enumerate() {
        match t.1 {
            CTok::P("(" | "[") => depth += 1,
            CTok::P(")" | "]") => {
                depth -= 1;
                if depth == 0 && k + 1 != toks.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Where the name of the class a class template declares is in `body`
/// (`struct S {`, `class S : B {`, `struct S<double> {`, `struct S;`).
pub(crate) fn class_name(body: &[Tok]) -> Option<usize> {
    let k = body.iter().position(|t| !matches!(t.1, CTok::Spec(_)))?;
    if !matches!(body[k].1, CTok::Kw("struct" | "class")) {
        return None;
    }
    ident(body.get(k + 1)?)?;
    Some(k + 1)
}

/// Where the name of a function template's explicit specialisation is in `body`
/// (`__device__ float f<-1>(float x)`): an identifier whose template arguments are followed
/// by the parameters.
pub(crate) fn specialised_function_name(body: &[Tok]) -> Option<usize> {
    let open = body.iter().position(|t| is_p(t, "("))?;
    (0..open).find(|&k| {
        ident(&body[k]).is_some()
            && is_p(&body[k + 1], "<")
            && angle_args(body, k + 1).is_some_and(|(_, next)| next == open)
    })
}

/// An integer template argument written as a constant expression (`i - 1` once `i` is
/// `(15)`), as one literal (`14`, or `-` `1`), so that instances for one value are one
/// instance and an explicit specialisation for it is found; `None` where the tokens are not
/// an integer constant kpl folds.
pub(crate) fn fold_integer(toks: &[Tok]) -> Option<Vec<Tok>> {
    fn expr(t: &[Tok], i: &mut usize, level: u8) -> Option<i64> {
        const LEVELS: &[&[&str]] = &[&["<<", ">>"], &["+", "-"], &["*", "/", "%"]];
        if level as usize == LEVELS.len() {
            return unary(t, i);
        }
        let mut v = expr(t, i, level + 1)?;
        while let Some(CTok::P(op)) = t.get(*i).map(|x| &x.1) {
            if !LEVELS[level as usize].contains(op) {
                break;
            }
            *i += 1;
            let w = expr(t, i, level + 1)?;
            v = match *op {
                "<<" => v.checked_shl(u32::try_from(w).ok()?)?,
                ">>" => v.checked_shr(u32::try_from(w).ok()?)?,
                "+" => v.checked_add(w)?,
                "-" => v.checked_sub(w)?,
                "*" => v.checked_mul(w)?,
                "/" => v.checked_div(w)?,
                _ => v.checked_rem(w)?,
            };
        }
        Some(v)
    }
    fn unary(t: &[Tok], i: &mut usize) -> Option<i64> {
        let tok = t.get(*i)?;
        *i += 1;
        match &tok.1 {
            CTok::Int(v, _) => i64::try_from(*v).ok(),
            CTok::P("-") => unary(t, i)?.checked_neg(),
            CTok::P("+") => unary(t, i),
            CTok::P("(") => {
                let v = expr(t, i, 0)?;
                if !is_p(t.get(*i)?, ")") {
                    return None;
                }
                *i += 1;
                Some(v)
            }
            _ => None,
        }
    }
    let mut i = 0;
    let v = expr(toks, &mut i, 0)?;
    if i != toks.len() || toks.len() == 1 {
        return None;
    }
    let (s, e) = (toks[0].0, toks[toks.len() - 1].2);
    let lit = (s, CTok::Int(v.unsigned_abs(), false), e);
    Some(if v < 0 {
        vec![(s, CTok::P("-"), s), lit]
    } else {
        vec![lit]
    })
}

/// Template argument `arg` with each name of `consts` replaced by its value in parentheses.
pub(crate) fn with_values(arg: Vec<Tok>, consts: &HashMap<String, i64>) -> Vec<Tok> {
    if consts.is_empty() {
        return arg;
    }
    let mut out = Vec::with_capacity(arg.len());
    for (k, t) in arg.iter().enumerate() {
        // Not a member (`s.BM`) nor a qualified name's part.
        let member = k > 0 && matches!(arg[k - 1].1, CTok::P("." | "->" | ":"));
        match ident(t).and_then(|n| consts.get(n)).filter(|_| !member) {
            Some(v) => {
                out.push((t.0, CTok::P("("), t.0));
                if *v < 0 {
                    out.push((t.0, CTok::P("-"), t.0));
                }
                out.push((t.0, CTok::Int(v.unsigned_abs(), false), t.2));
                out.push((t.2, CTok::P(")"), t.2));
            }
            None => out.push(t.clone()),
        }
    }
    out
}

/// The identifier form of an instance: `reduce<128, int>` is `reduce_128_int`.
pub(crate) fn mangle(name: &str, args: &[Vec<Tok>]) -> String {
    let mut s = name.to_string();
    for a in args {
        s.push('_');
        for t in a {
            match &t.1 {
                CTok::Ident(w) | CTok::Spec(w) => s.push_str(w),
                CTok::Int(v, _) => s.push_str(&v.to_string()),
                CTok::Kw(w @ ("true" | "false")) => s.push_str(w),
                CTok::P("*") => s.push('p'),
                CTok::P("-") => s.push('m'),
                CTok::P(_) => {}
                _ => s.push('x'),
            }
        }
    }
    s
}

/// Are two template argument lists the same tokens?
pub(crate) fn same(a: &[Vec<Tok>], b: &[Vec<Tok>]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.1 == q.1))
}

