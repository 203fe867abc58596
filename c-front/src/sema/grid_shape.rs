//! What host code says of a launch's grid beyond constants, for `launches.rs`: its shape
//! where it computes sizes at run time (`verify` takes such a grid as any grid,
//! `Launch::free_groups`): `dim3(x, y)`, a number, a `dim3` local or one set field by
//! field, with each axis's size where it is a constant; and each size as an expression
//! over the kernel's parameters (`SizeExpr`), where the launch passes its variables.

use crate::sema::coop::split_commas;
use crate::sema::host_constants::{block_ends, closing_free, eval, is_word, Env, Fixed, INT_WORDS};
use crate::text::tokens::CTok;
use std::collections::HashSet;

type Tok = (usize, CTok, usize);

/// The shape of a launch's grid `g` with each axis's size where it is a constant: `g` a
/// `dim3` local the function never changes, `dim3(x[, y[, z]])`, `{x, y, z}` or a number
/// (the axes it does not name are 1), or a `dim3` set field by field (`field_values`).
/// `None` where `g` is none of these (a call, a member), or a constant axis is no size.
pub(crate) fn grid_axes(g: &[Tok], f: &[Tok], body: usize, full: &Env, at: usize, int_fns: &HashSet<String>) -> Option<[Option<u32>; 3]> {
    let k = at.saturating_sub(body);
    let env = full.at(k);
    // Declared in the function as a `dim3`, or as an integer.
    let declared = |n: &str, words: &[&str]| f.windows(2).any(|w| words.iter().any(|x| is_word(&w[0].1, x)) && matches!(&w[1].1, CTok::Ident(m) if m == n));
    let (whole, env) = match g {
        [(_, CTok::Ident(n), _)] if env.dims.contains_key(n) => {
            return Some(env.dims[n].map(|v| u32::try_from(v).ok().filter(|v| *v > 0)));
        }
        [(_, CTok::Ident(n), _)] => match env.fixed.get(n) {
            Some(Fixed { init: Some(init), ty: None, at }) if declared(n, &["dim3"]) => (init.clone(), full.at(*at)),
            Some(Fixed { ty: Some(_), .. }) => (g.to_vec(), env),
            _ if declared(n, INT_WORDS) && !declared(n, &["dim3"]) => (g.to_vec(), env),
            _ => return field_values(n, f, body, full, at),
        },
        _ => (g.to_vec(), env),
    };
    let w = whole.as_slice();
    let parts = match dim3_parts(w) {
        Some(parts) => parts,
        // A call or a member (`make_grid(n)`, `cfg.grid`) may give a `dim3` of any shape; a
        // field of the GPU's properties is a number.
        None if w.iter().enumerate().any(|(k, t)| match t.1 {
            CTok::P(".") => !matches!(k.checked_sub(1).map(|p| &w[p].1), Some(CTok::Ident(b)) if declared(b, &["cudaDeviceProp"])),
            CTok::P("->" | "{" | "}") => true,
            _ => false,
        }) => return None,
        None if w.windows(2).any(|p| matches!(&p[0].1, CTok::Ident(f) if !int_fns.contains(f)) && p[1].1 == CTok::P("(")) => return None,
        // A `dim3` variable of the function in an expression (`c ? g1 : g2`).
        None if w.iter().any(|t| matches!(&t.1, CTok::Ident(n) if declared(n, &["dim3"]))) => return None,
        None => vec![w],
    };
    if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let mut out = [Some(1u32); 3];
    for (d, part) in parts.iter().enumerate() {
        out[d] = match eval(part, &env) {
            Some(v) => Some(u32::try_from(v).ok().filter(|v| *v > 0)?),
            // Literals that do not evaluate (`1 / 0`, an overflow) are no size at all.
            None if !part.iter().any(|t| matches!(t.1, CTok::Ident(_))) => return None,
            None => None,
        };
    }
    Some(out)
}

/// The parts of `dim3(x[, y[, z]])` or `{x, y, z}`; `None` for anything else.
fn dim3_parts(whole: &[Tok]) -> Option<Vec<&[Tok]>> {
    match whole {
        [(_, CTok::Ident(d), _), (_, CTok::P("(" | "{"), _), inner @ .., (_, CTok::P(")" | "}"), _)] if d == "dim3" => Some(split_commas(inner)),
        [(_, CTok::P("{"), _), inner @ .., (_, CTok::P("}"), _)] => Some(split_commas(inner)),
        _ => None,
    }
}

/// Where token `k` of `f` is a field of `n` (`n.x`): its axis, and whether the statement
/// changes it (`n.x = e`, `n.y += e`, `++n.z`, `&n.x`).
fn field_at(f: &[Tok], k: usize, n: &str) -> Option<(usize, bool)> {
    let field = match (&f[k].1, f.get(k + 1).map(|t| &t.1), f.get(k + 2).map(|t| &t.1)) {
        (CTok::Ident(m), Some(CTok::P(".")), Some(CTok::Ident(x))) if m == n => x,
        _ => return None,
    };
    let a = ["x", "y", "z"].iter().position(|x| x == field)?;
    let after = f.get(k + 3).map(|t| &t.1);
    let changes = matches!(after, Some(CTok::P(op)) if op.ends_with('=') && !matches!(*op, "==" | "<=" | ">=" | "!="))
        || matches!(after, Some(CTok::P("++" | "--")))
        || matches!(k.checked_sub(1).map(|p| &f[p].1), Some(CTok::P("++" | "--" | "&")));
    Some((a, changes))
}

/// Where `f` declares the `dim3` `n` once with no initialiser (`dim3 blocks;`) and
/// otherwise only uses its fields (`blocks.x = n / 64;`, `blocks.x / 2`) and launches with
/// it (`<<<blocks, threads>>>`): where it declares it. `None` where it uses it otherwise
/// (gives it by reference, assigns it whole, initialises it).
fn declared_and_set_by_fields(n: &str, f: &[Tok]) -> Option<usize> {
    let mut decl = None;
    for k in 0..f.len() {
        if !matches!(&f[k].1, CTok::Ident(m) if m == n) {
            continue;
        }
        let prev = k.checked_sub(1).map(|p| &f[p].1);
        let next = f.get(k + 1).map(|t| &t.1);
        if prev.is_some_and(|p| is_word(p, "dim3")) {
            if decl.is_some() || next != Some(&CTok::P(";")) {
                return None;
            }
            decl = Some(k);
        } else if field_at(f, k, n).is_none() && !(matches!(next, Some(CTok::P("," | ">>"))) && matches!(prev, Some(CTok::P("<" | ","))) && in_launch_config(f, k)) {
            return None;
        }
    }
    decl
}

/// Is token `k` between a launch's `<<<` and `>>>`?
fn in_launch_config(f: &[Tok], k: usize) -> bool {
    let stop = |t: &CTok| matches!(t, CTok::P(";" | "{" | "}"));
    let open = (0..k).rev().take_while(|&j| !stop(&f[j].1)).any(|j| f[j].1 == CTok::P("<<") && f.get(j + 1).is_some_and(|t| t.1 == CTok::P("<")));
    let close = (k + 1..f.len()).take_while(|&j| !stop(&f[j].1)).any(|j| f[j].1 == CTok::P(">>") && f.get(j + 1).is_some_and(|t| t.1 == CTok::P(">")));
    open && close
}

/// The sizes of a `dim3` the function declares with no initialiser and sets field by field
/// (`dim3 threads; threads.x = 256;`, `declared_and_set_by_fields`) at a launch at `at`:
/// each field never changed is 1, each set once, by a plain `=` statement of the
/// declaration's own block before the launch, is that statement's value where kpl reads
/// it; any other field is `None` (a size kpl does not read).
pub(crate) fn field_values(n: &str, f: &[Tok], body: usize, full: &Env, at: usize) -> Option<[Option<u32>; 3]> {
    let decl = declared_and_set_by_fields(n, f)?;
    let ends = block_ends(f);
    let mut out = [Some(1u32); 3];
    let mut seen = [false; 3];
    for k in 0..f.len() {
        let Some((a, true)) = field_at(f, k, n) else { continue };
        let starts = k > 0 && matches!(f[k - 1].1, CTok::P(";" | "{" | "}"));
        let plain = f.get(k + 3).is_some_and(|t| t.1 == CTok::P("="));
        let semi = (k + 4..f.len()).find(|&j| f[j].1 == CTok::P(";") && closing_free(f, k + 4, j));
        out[a] = match semi {
            Some(semi) if !seen[a] && plain && starts && ends[k] == ends[decl] && semi < at => {
                eval(&f[k + 4..semi], &full.at(k.saturating_sub(body))).and_then(|v| u32::try_from(v).ok()).filter(|v| *v > 0)
            }
            _ => None,
        };
        seen[a] = true;
    }
    Some(out)
}

/// The functions a launch's grid may call and still be one number: those the file declares
/// with an integer return type (`int ceil_div(int a, int b)`), and the math library's.
pub(crate) fn integer_functions(file: &[Tok]) -> HashSet<String> {
    let mut out: HashSet<String> = ["min", "max", "ceil", "floor", "ceilf", "floorf", "sqrt", "sqrtf", "abs"].iter().map(|s| s.to_string()).collect();
    for w in file.windows(3) {
        if let (CTok::Ident(n), CTok::P("(")) = (&w[1].1, &w[2].1) {
            if INT_WORDS.iter().any(|i| is_word(&w[0].1, i)) {
                out.insert(n.clone());
            }
        }
    }
    out
}

/// A launch size's expression over host variables that the launch passes, unchanged, as
/// arguments (`dim3 grid(CEIL_DIV(N, 32))` with `k<<<grid, b>>>(N, ...)`): the grid a
/// command line gives for such a launch then says what those arguments are.
#[derive(Clone, Debug, PartialEq)]
pub struct SizeExpr {
    /// The expression's tokens, the constants folded in and each such variable written
    /// `__kpl_param_N`: the kernel's parameter at position N.
    pub toks: Vec<Tok>,
    /// Those parameters' positions, with the type the host code gives the variable (`int`,
    /// `uint`, `long`, `ulong`): the fact holds of the parameter where it has that type.
    pub params: Vec<(usize, &'static str)>,
}

/// The name a `SizeExpr` gives the kernel's parameter at `position`.
pub fn param_placeholder(position: usize) -> String {
    format!("__kpl_param_{position}")
}

/// Each dimension of a launch size `g` as a `SizeExpr`, where it is one: `g` a `dim3`
/// local the function never changes, `dim3(x, y, z)` or a number, each of whose parts is
/// arithmetic over constants and over unchanged host variables that the launch passes as
/// arguments (`args`), directly or through unchanged locals. A part that is a constant, or
/// names anything else, gives `None`.
pub(crate) fn size_exprs(g: &[Tok], full: &Env, k: usize, args: &[&[Tok]]) -> [Option<SizeExpr>; 3] {
    let mut out = [None, None, None];
    let env = full.at(k);
    let (whole, k): (Vec<Tok>, usize) = match g {
        [(_, CTok::Ident(n), _)] => match env.fixed.get(n) {
            Some(Fixed {
                init: Some(init),
                ty: None,
                at,
            }) => (init.clone(), *at),
            _ => return out,
        },
        _ => (g.to_vec(), k),
    };
    let parts = dim3_parts(&whole).unwrap_or_else(|| vec![whole.as_slice()]);
    if parts.len() > 3 {
        return out;
    }
    for (d, part) in parts.iter().enumerate() {
        let mut params = Vec::new();
        if let Some(toks) = over_args(part, full, k, args, &mut params, 0) {
            if !params.is_empty() {
                params.sort_unstable();
                params.dedup();
                out[d] = Some(SizeExpr { toks, params });
            }
        }
    }
    out
}

/// `toks` with constants folded in and host variables written as the kernel's parameters
/// (`size_exprs`), adding those to `params`; `None` where it names anything else.
fn over_args(
    toks: &[Tok],
    full: &Env,
    at: usize,
    args: &[&[Tok]],
    params: &mut Vec<(usize, &'static str)>,
    depth: usize,
) -> Option<Vec<Tok>> {
    let env = full.at(at);
    const ARITHMETIC: &[&str] = &[
        "+", "-", "*", "/", "%", "(", ")", "<<", ">>", "&", "|", "^", "~", "<", ">", "<=", ">=",
        "==", "!=", "?", ":", "&&", "||", "!",
    ];
    if depth > 8 || toks.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        let paren = |out: &mut Vec<Tok>, inner: Vec<Tok>| {
            out.push((t.0, CTok::P("("), t.0));
            out.extend(inner);
            out.push((t.2, CTok::P(")"), t.2));
        };
        match &t.1 {
            CTok::Int(..) | CTok::LongInt(..) => out.push(t.clone()),
            CTok::P(p) if ARITHMETIC.contains(p) => out.push(t.clone()),
            CTok::Ident(n) => {
                if toks
                    .get(k + 1)
                    .is_some_and(|x| matches!(x.1, CTok::P("(" | ".")))
                {
                    return None;
                }
                if let Some(v) = env.ints.get(n) {
                    // A literal of the constant's type, as C types it in the expression.
                    let mag = v.unsigned_abs();
                    let lit = match env.types.get(n)? {
                        &"int" if mag <= i32::MAX as u64 => CTok::Int(mag, false),
                        &"uint" if mag <= u64::from(u32::MAX) => CTok::Int(mag, true),
                        &"long" => CTok::LongInt(mag, false),
                        &"ulong" => CTok::LongInt(mag, true),
                        _ => return None,
                    };
                    let lit = if *v < 0 {
                        vec![(t.0, CTok::P("-"), t.0), (t.0, lit, t.2)]
                    } else {
                        vec![(t.0, lit, t.2)]
                    };
                    paren(&mut out, lit);
                    continue;
                }
                let fixed = env.fixed.get(n)?;
                let passed = args
                    .iter()
                    .position(|a| matches!(a, [(_, CTok::Ident(x), _)] if x == n));
                match (passed, fixed) {
                    (Some(position), Fixed { ty: Some(ty), .. }) => {
                        params.push((position, *ty));
                        out.push((t.0, CTok::Ident(param_placeholder(position)), t.2));
                    }
                    (
                        _,
                        Fixed {
                            init: Some(init),
                            ty: Some(_),
                            at,
                        },
                    ) => {
                        let inner = over_args(init, full, *at, args, params, depth + 1)?;
                        paren(&mut out, inner);
                    }
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

