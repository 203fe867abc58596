//! Launch sites in a CUDA file's host code (the whole-programs issue, first step): every
//! `k<<<grid, block[, shared[, stream]]>>>(args)`, with what the host code decides of it
//! where that is a constant: the grid and block sizes (a number, `dim3(x, y, z)`, or a
//! `dim3` variable), the dynamic shared bytes, and each argument's value.
//!
//! A name in those expressions is a constant when it is a `#define` (expanded by then), a
//! file-scope `const`/`constexpr` integer, or a local of the launching function declared
//! once with a constant initialiser and never changed after: declared `const`, or every
//! later use of it only read (an operand of arithmetic or a comparison, an argument of a
//! launch, or of a C or CUDA library function that takes values). Anything else (a value
//! read at run time, a variable a loop steps, one whose address is taken or that a user
//! function may take by reference) is not decided, and says so.

use crate::syntax::ast::const_eval;
use crate::syntax::grammar::ExprParser;
use crate::text::tokens::CTok;
use kpl_lang::span::Span;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

/// One launch of a kernel in host code.
#[derive(Clone, Debug)]
pub struct LaunchSite {
    /// The kernel's name as written (`None` for a template instance, not read yet).
    pub kernel: Option<String>,
    /// From the kernel's name to the launch's closing `)`.
    pub span: Span,
    /// The grid and block sizes, each `Err(what)` where the host code does not decide it.
    pub grid: Result<[u32; 3], String>,
    pub block: Result<[u32; 3], String>,
    /// The dynamic shared memory in bytes (0 when not given).
    pub shared_bytes: Result<u64, String>,
    /// Each argument's value where it is an integer constant.
    pub args: Vec<Option<i64>>,
}

/// Functions of the C and CUDA libraries that take their arguments by value: a local passed
/// to one stays unchanged.
const BY_VALUE: &[&str] = &[
    "printf", "fprintf", "sprintf", "snprintf", "puts", "malloc", "calloc", "realloc", "cudaMalloc", "cudaMallocManaged",
    "cudaMallocHost", "cudaMemcpy", "cudaMemcpyAsync", "cudaMemset", "cudaMemsetAsync", "memcpy", "memset", "dim3", "min",
    "max", "abs", "ceil", "floor", "sqrt", "assert", "exit",
];

/// What `callee` calls a launch's argument list.
const LAUNCH: &str = "<<<>>>";

/// Evaluate an integer constant expression of tokens, names replaced by `env`'s values.
fn eval(toks: &[Tok], env: &HashMap<String, i64>) -> Option<i64> {
    if toks.is_empty() {
        return None;
    }
    let mut sub = Vec::with_capacity(toks.len());
    for t in toks {
        match &t.1 {
            CTok::Ident(n) => {
                let v = *env.get(n)?;
                sub.push((t.0, CTok::P("("), t.0));
                sub.push((t.0, if v < 0 { CTok::P("-") } else { CTok::P("+") }, t.0));
                sub.push((t.0, CTok::LongInt(v.unsigned_abs(), false), t.2));
                sub.push((t.2, CTok::P(")"), t.2));
            }
            _ => sub.push(t.clone()),
        }
    }
    let mut rec = Vec::new();
    let e = ExprParser::new().parse(&mut rec, sub.into_iter().map(Ok::<_, ()>)).ok()?;
    if !rec.is_empty() {
        return None;
    }
    const_eval(&e)
}

/// Split tokens at the commas outside brackets.
fn split_commas(toks: &[Tok]) -> Vec<&[Tok]> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, t) in toks.iter().enumerate() {
        match t.1 {
            CTok::P("(" | "[" | "{") => depth += 1,
            CTok::P(")" | "]" | "}") => depth -= 1,
            CTok::P(",") if depth == 0 => {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < toks.len() || !out.is_empty() {
        out.push(&toks[start..]);
    }
    out
}

/// The index of the bracket closing the one at `open`.
fn closing(toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match t.1 {
            CTok::P("(" | "[" | "{") => depth += 1,
            CTok::P(")" | "]" | "}") => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn is_word(t: &CTok, w: &str) -> bool {
    matches!(t, CTok::Ident(x) | CTok::Spec(x) if x == w)
}

const INT_WORDS: &[&str] =
    &["int", "unsigned", "signed", "long", "short", "size_t", "uint", "int32_t", "uint32_t", "int64_t", "uint64_t", "const", "static", "constexpr", "auto"];

/// A simple declaration at `toks[i..]`: `[const] INT NAME = EXPR ;` (integers) or
/// `dim3 NAME(...)`, `dim3 NAME = ...;`, `dim3 NAME{...}`. Gives the name, whether it is
/// `const`, the initialiser's tokens, whether it is a `dim3`, and the index after the `;`.
fn declaration(toks: &[Tok], i: usize) -> Option<(String, bool, Vec<Tok>, bool, usize)> {
    let mut j = i;
    let mut constant = false;
    let mut int_words = 0;
    while let Some(t) = toks.get(j) {
        match &t.1 {
            CTok::Spec(w) | CTok::Ident(w) if INT_WORDS.contains(&w.as_str()) => {
                constant |= w == "const" || w == "constexpr";
                int_words += 1;
            }
            _ => break,
        }
        j += 1;
    }
    let dim3 = int_words == 0 && toks.get(j).is_some_and(|t| is_word(&t.1, "dim3"));
    if dim3 {
        j += 1;
    } else if int_words == 0 || toks[i..j].iter().all(|t| matches!(&t.1, CTok::Spec(w) | CTok::Ident(w) if w == "const" || w == "static" || w == "constexpr")) {
        return None;
    }
    let CTok::Ident(name) = &toks.get(j)?.1 else { return None };
    let end = |from: usize| (from..toks.len()).find(|&k| matches!(toks[k].1, CTok::P(";" | ",")) && closing_free(toks, from, k));
    match &toks.get(j + 1)?.1 {
        CTok::P("=") => {
            let e = end(j + 2)?;
            if toks[e].1 != CTok::P(";") {
                return None;
            }
            Some((name.clone(), constant, toks[j + 2..e].to_vec(), dim3, e + 1))
        }
        CTok::P("(" | "{") if dim3 => {
            let c = closing(toks, j + 1)?;
            (toks.get(c + 1)?.1 == CTok::P(";")).then(|| {
                let mut init = vec![(toks[j].0, CTok::Ident("dim3".into()), toks[j].2), (toks[j + 1].0, CTok::P("("), toks[j + 1].2)];
                init.extend_from_slice(&toks[j + 2..c]);
                init.push((toks[c].0, CTok::P(")"), toks[c].2));
                (name.clone(), constant, init, true, c + 2)
            })
        }
        _ => None,
    }
}

/// No bracket opened in `toks[from..to]` is still open at `to`.
fn closing_free(toks: &[Tok], from: usize, to: usize) -> bool {
    let mut depth = 0i32;
    for t in &toks[from..to] {
        match t.1 {
            CTok::P("(" | "[" | "{") => depth += 1,
            CTok::P(")" | "]" | "}") => depth -= 1,
            _ => {}
        }
    }
    depth == 0
}

/// Is the use of a name at `toks[k]` one that only reads it?
fn only_read(toks: &[Tok], k: usize) -> bool {
    let prev = k.checked_sub(1).map(|p| &toks[p].1);
    let next = toks.get(k + 1).map(|t| &t.1);
    const READ_AFTER: &[&str] = &["+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "?", ":", "<<", ">>", "&", "|", "^", ")", "]", ";", ","];
    const READ_BEFORE: &[&str] = &["+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "?", ":", "<<", "|", "^", "[", "=", "return", "!", "~"];
    let next_reads = match next {
        Some(CTok::P(p)) => READ_AFTER.contains(p),
        _ => false,
    };
    if !next_reads {
        return false;
    }
    match prev {
        // `x + n`, `a[n]`, `= n`: an operand.
        Some(CTok::P(p)) if READ_BEFORE.contains(p) => {
            // `&n` and `>> n` (a stream's extraction) may change it; a binary `&` was
            // excluded with them.
            true
        }
        Some(CTok::Kw("return")) => true,
        // `f(n)`, `f(a, n)`: by value only for the library's functions.
        Some(CTok::P("(" | ",")) => callee(toks, k).is_some_and(|f| f == LAUNCH || BY_VALUE.contains(&f.as_str())),
        _ => false,
    }
}

/// The function whose argument list holds `toks[k]`, if `toks[k]` is in one.
fn callee(toks: &[Tok], k: usize) -> Option<String> {
    let mut depth = 0i32;
    for i in (0..k).rev() {
        match toks[i].1 {
            CTok::P(")" | "]" | "}") => depth += 1,
            CTok::P("(") if depth == 0 => {
                return match toks.get(i.checked_sub(1)?)?.1 {
                    CTok::Ident(ref f) | CTok::Spec(ref f) => Some(f.clone()),
                    // The argument list of a launch: `k<<<...>>>(n)` takes values.
                    CTok::P(">") if i >= 2 && toks[i - 2].1 == CTok::P(">>") => Some(LAUNCH.into()),
                    _ => None,
                };
            }
            CTok::P("(" | "[" | "{") => {
                if depth == 0 {
                    return None;
                }
                depth -= 1
            }
            _ => {}
        }
    }
    None
}

/// The constants of a host function (see the module doc): integers, and `dim3` triples.
fn constants(body: &[Tok], file: &HashMap<String, i64>) -> (HashMap<String, i64>, HashMap<String, [i64; 3]>) {
    let mut env = file.clone();
    let mut dims: HashMap<String, [i64; 3]> = HashMap::new();
    let mut declared: HashMap<String, usize> = HashMap::new();
    let mut decls = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let starts = i == 0 || matches!(body[i - 1].1, CTok::P(";" | "{" | "}" | ")"));
        if starts {
            if let Some((name, constant, init, dim3, next)) = declaration(body, i) {
                *declared.entry(name.clone()).or_default() += 1;
                let at = body[i..next].iter().position(|t| matches!(&t.1, CTok::Ident(n) if *n == name)).map_or(i, |p| i + p);
                decls.push((name, constant, init, dim3, at));
                i = next;
                continue;
            }
        }
        i += 1;
    }
    for (name, constant, init, dim3, at) in decls {
        // Declared once in the function, and never changed after its declaration.
        if declared[&name] != 1 {
            env.remove(&name);
            dims.remove(&name);
            continue;
        }
        let unchanged = constant
            || body.iter().enumerate().skip(at + 1).all(|(k, t)| !matches!(&t.1, CTok::Ident(n) if *n == name) || only_read(body, k));
        if !unchanged {
            env.remove(&name);
            dims.remove(&name);
            continue;
        }
        if dim3 {
            if let Some(d) = triple(&init, &env, &dims) {
                dims.insert(name, d);
            }
        } else if let Some(v) = eval(&init, &env) {
            env.insert(name, v);
        } else {
            env.remove(&name);
        }
    }
    (env, dims)
}

/// A `dim3` value: `dim3(x[, y[, z]])`, `{x, y, z}`, a `dim3` constant, or a number.
fn triple(toks: &[Tok], env: &HashMap<String, i64>, dims: &HashMap<String, [i64; 3]>) -> Option<[i64; 3]> {
    if let [(_, CTok::Ident(n), _)] = toks {
        if let Some(d) = dims.get(n) {
            return Some(*d);
        }
    }
    let inner = match toks {
        [t, (_, CTok::P("(" | "{"), _), rest @ .., (_, CTok::P(")" | "}"), _)] if is_word(&t.1, "dim3") => rest,
        [(_, CTok::P("{"), _), rest @ .., (_, CTok::P("}"), _)] => rest,
        _ => return eval(toks, env).map(|x| [x, 1, 1]),
    };
    let parts = split_commas(inner);
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut d = [1i64; 3];
    for (k, p) in parts.iter().enumerate() {
        d[k] = eval(p, env)?;
    }
    Some(d)
}

fn dims_of(toks: &[Tok], env: &HashMap<String, i64>, dims: &HashMap<String, [i64; 3]>, what: &str) -> Result<[u32; 3], String> {
    let d = triple(toks, env, dims).ok_or_else(|| format!("the {what} size is not a constant kpl can read"))?;
    let mut out = [0u32; 3];
    for (o, v) in out.iter_mut().zip(d) {
        *o = u32::try_from(v).ok().filter(|v| *v > 0).ok_or_else(|| format!("the {what} size {d:?} is not positive"))?;
    }
    Ok(out)
}

/// File-scope integer constants: `[static] const INT NAME = EXPR;` and `constexpr`.
fn file_constants(toks: &[Tok]) -> HashMap<String, i64> {
    let mut env = HashMap::new();
    let (mut depth, mut i) = (0i32, 0);
    while i < toks.len() {
        match toks[i].1 {
            CTok::P("{" | "(" | "[") => depth += 1,
            CTok::P("}" | ")" | "]") => depth -= 1,
            _ => {}
        }
        let starts = i == 0 || matches!(toks[i - 1].1, CTok::P(";" | "}"));
        if depth == 0 && starts {
            if let Some((name, true, init, false, next)) = declaration(toks, i) {
                if let Some(v) = eval(&init, &env) {
                    env.insert(name, v);
                }
                i = next;
                continue;
            }
        }
        i += 1;
    }
    env
}

/// Every launch in the host functions `host`, with the file's tokens `file` for its
/// file-scope constants.
pub fn find(host: &[Vec<Tok>], file: &[Tok]) -> Vec<LaunchSite> {
    let globals = file_constants(file);
    let mut out = Vec::new();
    for f in host {
        let (env, dims) = constants(f, &globals);
        let mut i = 0;
        while i + 1 < f.len() {
            // `<<<` is `<<` then `<`.
            if !(f[i].1 == CTok::P("<<") && f[i + 1].1 == CTok::P("<")) {
                i += 1;
                continue;
            }
            let Some(close) = (i + 2..f.len().saturating_sub(1)).find(|&k| f[k].1 == CTok::P(">>") && f[k + 1].1 == CTok::P(">")) else { break };
            let kernel = match (i.checked_sub(1).map(|k| &f[k].1), i.checked_sub(2).map(|k| &f[k].1)) {
                (Some(CTok::Ident(n)), _) => Some(n.clone()),
                _ => None,
            };
            let start = i.saturating_sub(1);
            let config = split_commas(&f[i + 2..close]);
            let (args, end) = match f.get(close + 2) {
                Some((_, CTok::P("("), _)) => match closing(f, close + 2) {
                    Some(c) => (split_commas(&f[close + 3..c]).iter().map(|a| eval(a, &env)).collect(), c),
                    None => (Vec::new(), close + 1),
                },
                _ => (Vec::new(), close + 1),
            };
            let missing = |what: &str| Err(format!("the launch gives no {what} size"));
            out.push(LaunchSite {
                kernel,
                span: Span::new(f[start].0, f[end].2),
                grid: config.first().map_or_else(|| missing("grid"), |g| dims_of(g, &env, &dims, "grid")),
                block: config.get(1).map_or_else(|| missing("block"), |b| dims_of(b, &env, &dims, "block")),
                shared_bytes: match config.get(2) {
                    None => Ok(0),
                    Some(s) => eval(s, &env).and_then(|v| u64::try_from(v).ok()).ok_or_else(|| "the dynamic shared memory size is not a constant kpl can read".into()),
                },
                args,
            });
            i = end + 1;
        }
    }
    out
}
