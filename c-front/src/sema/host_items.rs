//! Which items of a CUDA file are host code, on the token stream: functions that are not
//! `__global__` or `__device__` (CUDA's functions are `__host__` unless said otherwise),
//! host classes, and host variables, with whether device code names one it does not
//! declare itself and whether its type is a plain C one (`templates.rs` skips the host code
//! and keeps such variables as `__device__`, as GPUVerify reads them); and the token helpers
//! `templates.rs` shares with it.

use crate::text::tokens::CTok;
use kpl_lang::span::Span;

pub(crate) type Tok = (usize, CTok, usize);

/// Split the stream into top-level items: declarations ending with `;` and function
/// definitions ending with their body's `}`.
pub(crate) fn items(toks: &[Tok]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut depth, mut parens) = (0, 0usize, 0usize);
    let mut function = false;
    for (i, t) in toks.iter().enumerate() {
        match &t.1 {
            CTok::P("(") => parens += 1,
            CTok::P(")") => parens = parens.saturating_sub(1),
            CTok::P("{") => {
                if depth == 0 && parens == 0 {
                    // A body after `)` (and qualifiers): a function definition.
                    let before = toks[start..i]
                        .iter()
                        .rev()
                        .find(|t| !matches!(t.1, CTok::Spec(_)));
                    function = before.is_some_and(|b| is_p(b, ")"));
                }
                depth += 1;
            }
            CTok::P("}") => {
                depth = depth.saturating_sub(1);
                if depth == 0 && function {
                    out.push(start..i + 1);
                    start = i + 1;
                    function = false;
                }
            }
            CTok::P(";") if depth == 0 && parens == 0 => {
                out.push(start..i + 1);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < toks.len() {
        out.push(start..toks.len());
    }
    out
}

/// The tokens between the `<` at `open` and its `>`, split at top-level commas; and the
/// index after the `>`. `>>` closes two levels.
pub(crate) fn angle_args(toks: &[Tok], open: usize) -> Option<(Vec<Vec<Tok>>, usize)> {
    let mut args = vec![Vec::new()];
    let (mut depth, mut parens) = (1usize, 0usize);
    let mut i = open + 1;
    while i < toks.len() {
        let t = &toks[i];
        match &t.1 {
            CTok::P("(") | CTok::P("[") => parens += 1,
            CTok::P(")") | CTok::P("]") => parens = parens.checked_sub(1)?,
            CTok::P("<") if parens == 0 => depth += 1,
            CTok::P(">") if parens == 0 => {
                depth -= 1;
                if depth == 0 {
                    let args = if args.len() == 1 && args[0].is_empty() {
                        Vec::new()
                    } else {
                        args
                    };
                    return Some((args, i + 1));
                }
            }
            CTok::P(">>") if parens == 0 && depth <= 2 => {
                // `a<b<c>>`: only a nested close is understood.
                if depth == 2 {
                    args.last_mut()?.push((t.0, CTok::P(">"), t.0 + 1));
                    let args = if args.len() == 1 && args[0].is_empty() {
                        Vec::new()
                    } else {
                        args
                    };
                    return Some((args, i + 1));
                }
                return None;
            }
            CTok::P(",") if parens == 0 && depth == 1 => {
                args.push(Vec::new());
                i += 1;
                continue;
            }
            CTok::P(";") | CTok::P("{") | CTok::P("}") => return None,
            _ => {}
        }
        args.last_mut()?.push(t.clone());
        i += 1;
    }
    None
}

pub(crate) fn is_p(t: &Tok, p: &str) -> bool {
    matches!(&t.1, CTok::P(x) if *x == p)
}

pub(crate) fn ident(t: &Tok) -> Option<&str> {
    match &t.1 {
        CTok::Ident(s) => Some(s),
        _ => None,
    }
}

/// The name of the function an item declares or defines: the identifier before its first
/// top-level `(`.
pub(crate) fn function_name(body: &[Tok]) -> Option<usize> {
    let open = body.iter().position(|t| is_p(t, "("))?;
    let name = open.checked_sub(1)?;
    ident(&body[name]).is_some().then_some(name)
}

/// Is this item CUDA host code to skip: a function (definition or declaration) that is
/// not `__global__` or `__device__`, which device code cannot call (CUDA's functions are
/// `__host__` unless said otherwise)? Type definitions are never skipped.
pub(crate) fn host_function(item: &[Tok]) -> Option<(String, Span)> {
    if type_item(item) {
        return None;
    }
    let name_at = function_name(item)?;
    let head = &item[..name_at];
    if head.iter().any(|t| {
        matches!(&t.1, CTok::Spec(s) if s == "__global__" || s == "__device__")
            || is_p(t, "=")
            || is_p(t, "{")
    }) {
        return None;
    }
    // `T (*f)(...)`-style declarators and calls at file scope are not functions.
    if head.is_empty() || item.get(name_at + 1).is_none() {
        return None;
    }
    let name = ident(&item[name_at])?.to_string();
    Some((name, Span::new(item[name_at].0, item[name_at].2)))
}

/// Is this item a CUDA host class to skip: a `class` or `struct` (or a template of one) with
/// member functions, none of them `__device__` or `__global__`, which device code cannot
/// call (`helper_cuda.h`'s exception classes)? A struct of data only is kept, whatever it is
/// for. Gives the class's name.
pub(crate) fn host_class(item: &[Tok]) -> Option<(String, Span)> {
    let start = match item.first().map(|t| &t.1) {
        Some(CTok::Kw("template")) => angle_args(item, 1)?.1,
        _ => 0,
    };
    if !matches!(
        item.get(start).map(|t| &t.1),
        Some(CTok::Kw("class" | "struct"))
    ) {
        return None;
    }
    let name = item.get(start + 1)?;
    let open = item.iter().position(|t| is_p(t, "{"))?;
    let body = &item[open..];
    let device = body
        .iter()
        .any(|t| matches!(&t.1, CTok::Spec(s) if s == "__device__" || s == "__global__"));
    let methods = body.windows(2).any(|w| {
        is_p(&w[0], ")") && (is_p(&w[1], "{") || matches!(w[1].1, CTok::Spec(_) | CTok::P(":")))
    });
    (methods && !device).then(|| {
        (
            ident(name).unwrap_or("(unnamed)").to_string(),
            Span::new(name.0, name.2),
        )
    })
}

/// Does this item define or name types (never host code to skip)?
pub(crate) fn type_item(item: &[Tok]) -> bool {
    match item.first().map(|t| &t.1) {
        Some(CTok::Kw(k)) => matches!(
            *k,
            "struct" | "class" | "union" | "enum" | "typedef" | "template"
        ),
        Some(CTok::Ident(w) | CTok::Spec(w)) => matches!(w.as_str(), "namespace" | "using"),
        _ => false,
    }
}

/// Is this item a CUDA host variable: a file-scope variable in no memory space (no
/// `__device__`, `__constant__`, `__shared__` or `__managed__`), which nvcc does not let
/// device code name, whatever its type (`FILE *fp;`, `cudaEvent_t start, stop;`)? Its
/// names, and where the first is. `const` ones are left to the parser: device code may use
/// an integer constant.
pub(crate) fn host_variable(item: &[Tok]) -> Option<(Vec<String>, Span)> {
    const KEEP: &[&str] = &[
        "__device__",
        "__constant__",
        "__shared__",
        "__managed__",
        "const",
        "constexpr",
        "texture",
        "surface",
    ];
    if type_item(item)
        || !item.last().is_some_and(|t| is_p(t, ";"))
        || function_name(item).is_some()
    {
        return None;
    }
    if item
        .iter()
        .any(|t| matches!(&t.1, CTok::Spec(w) | CTok::Ident(w) if KEEP.contains(&w.as_str())))
    {
        return None;
    }
    // Each declarator's name: the identifier before its `=`, `[`, `,` or `;`.
    let (mut names, mut depth, mut init) = (Vec::new(), 0i32, false);
    for (i, t) in item.iter().enumerate() {
        match &t.1 {
            CTok::P("(" | "[" | "{") => depth += 1,
            CTok::P(")" | "]" | "}") => depth -= 1,
            CTok::P(p @ ("=" | "," | ";")) if depth == 0 => {
                if !init && i > 1 {
                    names.extend(ident(&item[i - 1]).map(str::to_string));
                }
                init = *p == "=";
            }
            _ => {}
        }
        if depth == 1 && is_p(t, "[") && !init && i > 1 {
            names.extend(ident(&item[i - 1]).map(str::to_string));
        }
    }
    let first = item
        .iter()
        .position(|t| ["=", "[", ";", ","].iter().any(|p| is_p(t, p)))?;
    let at = &item[first.checked_sub(1)?];
    (!names.is_empty()).then(|| (names, Span::new(at.0, at.2)))
}

/// Does an item use `name` without declaring it (as a parameter or a local: the name
/// right after a type word, a type name, or a `*`/`&` after one at the start of a
/// declaration)?
pub(crate) fn uses_undeclared(item: &[Tok], name: &str) -> bool {
    let starts =
        |t: Option<&Tok>| t.is_none_or(|t| ["(", ",", ";", "{", "}"].iter().any(|p| is_p(t, p)));
    let typeish = |t: &Tok| matches!(&t.1, CTok::Spec(_) | CTok::Ident(_));
    let mut used = false;
    for (i, t) in item.iter().enumerate() {
        if ident(t) != Some(name) {
            continue;
        }
        let prev = i.checked_sub(1).map(|j| &item[j]);
        let declared = match prev {
            Some(p) if matches!(p.1, CTok::Spec(_)) => true,
            Some(p) if matches!(p.1, CTok::Ident(_)) => starts(i.checked_sub(2).map(|j| &item[j])),
            Some(p) if is_p(p, "*") || is_p(p, "&") => {
                let mut j = i - 1;
                while j > 0 && (is_p(&item[j - 1], "*") || is_p(&item[j - 1], "&")) {
                    j -= 1;
                }
                j > 0
                    && typeish(&item[j - 1])
                    && (matches!(item[j - 1].1, CTok::Spec(_))
                        || starts(j.checked_sub(2).map(|k| &item[k])))
            }
            _ => false,
        };
        if declared {
            return false;
        }
        used = true;
    }
    used
}

/// Is a host variable's type a plain C scalar or a pointer to one (`char *buffer;`,
/// `unsigned int count;`), which device code could name as global memory?
pub(crate) fn plain_c_type(item: &[Tok]) -> bool {
    const PLAIN: &[&str] = &[
        "int", "unsigned", "signed", "char", "short", "long", "float", "double", "bool", "static",
        "volatile", "extern",
    ];
    let name = item
        .iter()
        .position(|t| matches!(t.1, CTok::Ident(_)))
        .unwrap_or(0);
    name > 0
        && item[..name]
            .iter()
            .all(|t| matches!(&t.1, CTok::Spec(w) if PLAIN.contains(&w.as_str())) || is_p(t, "*"))
}
