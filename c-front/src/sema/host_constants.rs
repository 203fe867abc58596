//! Constants of host code, on the token stream: which names of a host function are
//! integer (or `dim3`) constants at each of its tokens (`Env`, `constants`), evaluated with
//! `eval`. A name is a constant when it is a `#define` (expanded by then), a file-scope
//! `const`/`constexpr` integer, or a local of the function declared once with a constant
//! initialiser and never changed after: declared `const`, or every later use of it only
//! read (`only_read`: an operand of arithmetic or a comparison, an argument of a launch, or
//! of a C or CUDA library function that takes values). Anything else (a value read at run
//! time, a variable a loop steps, one whose address is taken or that a user function may
//! take by reference) is not one. `launches.rs` reads launches with them.

use crate::sema::coop::split_commas;
use crate::syntax::ast::{const_eval_with, Expr, ExprKind};
use crate::syntax::grammar::ExprParser;
use crate::text::tokens::CTok;
use std::collections::HashMap;

pub(crate) type Tok = (usize, CTok, usize);

/// The integer type that declaration words (`const unsigned int`, `size_t`) name, as
/// `Ty::c_name` writes it; `None` for others.
pub(crate) fn int_type(words: &[Tok]) -> Option<&'static str> {
    let ws: Vec<&str> = words
        .iter()
        .filter_map(|t| {
            if let CTok::Spec(w) | CTok::Ident(w) = &t.1 {
                Some(w.as_str())
            } else {
                None
            }
        })
        .filter(|w| !matches!(*w, "const" | "static" | "constexpr"))
        .collect();
    let unsigned = ws.contains(&"unsigned");
    let longs = ws.iter().filter(|w| **w == "long").count();
    match ws.as_slice() {
        ["size_t"] | ["uint64_t"] => Some("ulong"),
        ["int64_t"] => Some("long"),
        ["uint"] | ["uint32_t"] => Some("uint"),
        ["int32_t"] => Some("int"),
        _ if ws
            .iter()
            .all(|w| matches!(*w, "unsigned" | "signed" | "int" | "long"))
            && !ws.is_empty() =>
        {
            Some(match (longs > 0, unsigned) {
                (true, true) => "ulong",
                (true, false) => "long",
                (false, true) => "uint",
                (false, false) => "int",
            })
        }
        _ => None,
    }
}

/// Functions of the C and CUDA libraries that take their arguments by value: a local passed
/// to one stays unchanged.
pub(crate) const BY_VALUE: &[&str] = &[
    "printf",
    "fprintf",
    "sprintf",
    "snprintf",
    "puts",
    "malloc",
    "calloc",
    "realloc",
    "cudaMalloc",
    "cudaMallocManaged",
    "cudaMallocHost",
    "cudaMemcpy",
    "cudaMemcpyAsync",
    "cudaMemset",
    "cudaMemsetAsync",
    "memcpy",
    "memset",
    "dim3",
    "min",
    "max",
    "abs",
    "ceil",
    "floor",
    "sqrt",
    "assert",
    "exit",
    // <math.h>: values in, a value out.
    "sqrtf",
    "ceilf",
    "floorf",
    "fabs",
    "fabsf",
    "labs",
    "llabs",
    "pow",
    "powf",
    "exp",
    "expf",
    "exp2",
    "exp2f",
    "log",
    "logf",
    "log2",
    "log2f",
    "log10",
    "log10f",
    "round",
    "roundf",
    "lround",
    "fmin",
    "fminf",
    "fmax",
    "fmaxf",
    "rsqrtf",
];

/// The constants of a host function: integers, and `dim3` triples, true throughout it
/// (the file's constants, the parameters a caller binds), and its locals, each visible in
/// its block from its declaration on.
#[derive(Clone, Default, PartialEq)]
pub(crate) struct Env {
    pub(crate) ints: HashMap<String, i64>,
    pub(crate) dims: HashMap<String, [i64; 3]>,
    pub(crate) locals: Vec<Local>,
    /// Host variables the function never changes, whatever their value: the parameters
    /// it only reads, and (in `at`'s view) its unchanged locals, with their initialisers.
    pub(crate) fixed: HashMap<String, Fixed>,
    /// The types of the integer constants, where kpl knows them (`int_type`).
    pub(crate) types: HashMap<String, &'static str>,
    /// The function's constant array locals (`int sizes[] = {32, 64};`, only read), whose
    /// elements at constant indices are constants (`host_loops.rs`).
    pub(crate) arrays: HashMap<String, Vec<i64>>,
}

#[derive(Clone, PartialEq)]
pub(crate) struct Fixed {
    /// A local's initialiser (none for a parameter).
    pub(crate) init: Option<Vec<Tok>>,
    /// Its integer type, where kpl knows it (`int_type`).
    pub(crate) ty: Option<&'static str>,
    /// Where it is declared in the body (its initialiser's names are those there).
    pub(crate) at: usize,
}

/// A local of a host function: its name, the body's token indices where it is visible
/// (from its declaration to its block's `}`), and its value where it is a constant.
#[derive(Clone, PartialEq)]
pub(crate) struct Local {
    pub(crate) name: String,
    pub(crate) from: usize,
    pub(crate) to: usize,
    pub(crate) value: Option<Value>,
    /// Never changed after its declaration: its initialiser and type.
    pub(crate) fixed: Option<Fixed>,
}

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Value {
    Int(i64),
    Dim([i64; 3]),
}

impl Env {
    /// The constants at the body's token `k`: the locals visible there in place (an inner
    /// block's shadowing an outer's), and those that are not constants taken out.
    pub(crate) fn at(&self, k: usize) -> Env {
        let mut e = Env {
            ints: self.ints.clone(),
            dims: self.dims.clone(),
            locals: Vec::new(),
            fixed: self.fixed.clone(),
            types: self.types.clone(),
            arrays: self.arrays.clone(),
        };
        // In order of declaration, an inner block's local comes after an outer's.
        for l in self.locals.iter().filter(|l| l.from < k && k <= l.to) {
            e.ints.remove(&l.name);
            e.dims.remove(&l.name);
            e.fixed.remove(&l.name);
            e.types.remove(&l.name);
            if let Some(f) = &l.fixed {
                e.fixed.insert(l.name.clone(), f.clone());
                if let Some(ty) = f.ty {
                    e.types.insert(l.name.clone(), ty);
                }
            }
            match l.value {
                Some(Value::Int(v)) => {
                    e.ints.insert(l.name.clone(), v);
                }
                Some(Value::Dim(d)) => {
                    e.dims.insert(l.name.clone(), d);
                }
                None => {}
            }
        }
        e
    }
}

/// For each host function of the file, whether each parameter takes its argument by value.
pub(crate) type ByValue = HashMap<String, Vec<bool>>;

/// What `callee` calls a launch's argument list.
pub(crate) const LAUNCH: &str = "<<<>>>";

/// Evaluate an integer constant expression of tokens, names replaced by `env`'s values.
pub(crate) fn eval(toks: &[Tok], env: &Env) -> Option<i64> {
    if toks.is_empty() {
        return None;
    }
    let mut sub = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        i += 1;
        match &t.1 {
            // `max(1, n / 32)`, `std::min(a, b)` (its `std::` gone, `namespaces.rs`): CUDA's
            // and C++'s integer maximum and minimum, which `known_call` evaluates (a variable
            // of the name is read as one).
            CTok::Ident(n) if MIN_MAX.contains(&n.as_str()) && !env.ints.contains_key(n) && toks.get(i).is_some_and(|p| p.1 == CTok::P("(")) => {
                sub.push(t.clone());
            }
            CTok::Ident(n) => {
                // `block.x` of a `dim3` constant.
                let member = match (toks.get(i), toks.get(i + 1)) {
                    (Some((_, CTok::P("."), _)), Some((_, CTok::Ident(m), _))) => {
                        ["x", "y", "z"].iter().position(|a| a == m)
                    }
                    _ => None,
                };
                // `sizes[j]` of a constant array at a constant index.
                let indexed = toks.get(i).is_some_and(|p| p.1 == CTok::P("[")) && env.arrays.contains_key(n);
                let v = match member {
                    Some(m) => {
                        i += 2;
                        env.dims.get(n)?[m]
                    }
                    None if indexed => {
                        let close = closing(toks, i)?;
                        let j = eval(&toks[i + 1..close], env)?;
                        i = close + 1;
                        *env.arrays.get(n)?.get(usize::try_from(j).ok()?)?
                    }
                    None => *env.ints.get(n)?,
                };
                sub.push((t.0, CTok::P("("), t.0));
                sub.push((t.0, if v < 0 { CTok::P("-") } else { CTok::P("+") }, t.0));
                sub.push((t.0, CTok::LongInt(v.unsigned_abs(), false), t.2));
                sub.push((t.2, CTok::P(")"), t.2));
            }
            // `sizeof(float)`, `sizeof(unsigned int)`: the type's bytes.
            CTok::Kw("sizeof") if toks.get(i).is_some_and(|p| p.1 == CTok::P("(")) => {
                let close = closing(toks, i)?;
                let words: Vec<String> = toks[i + 1..close].iter().map(|t| crate::text::tokens::spelling(&t.1)).collect();
                let bytes = scalar_bytes(&words.iter().map(String::as_str).collect::<Vec<_>>())?;
                sub.push((t.0, CTok::Int(u64::from(bytes), false), toks[close].2));
                i = close + 1;
            }
            _ => sub.push(t.clone()),
        }
    }
    let mut rec = Vec::new();
    let e = ExprParser::new()
        .parse(&mut rec, sub.into_iter().map(Ok::<_, ()>))
        .ok()?;
    if !rec.is_empty() {
        return None;
    }
    const_eval_with(&e, &known_call)
}

/// The functions of two integers `eval` knows.
const MIN_MAX: &[&str] = &["max", "min"];

/// `max(a, b)` and `min(a, b)` of constants (of non-negative values: the order of a negative
/// one depends on the operands' signedness, not known here).
fn known_call(e: &Expr) -> Option<i64> {
    let ExprKind::Call(f, args) = &e.kind else { return None };
    let (ExprKind::Ident(name), [a, b]) = (&f.kind, args.as_slice()) else { return None };
    let (x, y) = (const_eval_with(a, &known_call)?, const_eval_with(b, &known_call)?);
    if x < 0 || y < 0 {
        return None;
    }
    match name.name.as_str() {
        "max" => Some(x.max(y)),
        "min" => Some(x.min(y)),
        _ => None,
    }
}


/// The bytes of a scalar C type's words (`int`, `unsigned long`, `size_t`, `float`, `char`,
/// a pointer `T *`); `None` for anything else.
pub(crate) fn scalar_bytes(words: &[&str]) -> Option<u32> {
    if words.last() == Some(&"*") {
        return Some(8);
    }
    let words: Vec<&str> = words.iter().copied().filter(|w| !matches!(*w, "const" | "static" | "constexpr" | "volatile")).collect();
    if words.is_empty() || !words.iter().all(|w| INT_WORDS.contains(w) || matches!(*w, "float" | "double" | "char" | "bool")) {
        return None;
    }
    Some(match &words[..] {
        ws if ws.iter().any(|w| matches!(*w, "long" | "size_t" | "int64_t" | "uint64_t" | "double")) => 8,
        ws if ws.contains(&"short") => 2,
        ws if ws.iter().any(|w| matches!(*w, "char" | "bool")) => 1,
        _ => 4,
    })
}

/// The index of the bracket closing the one at `open`.
pub(crate) fn closing(toks: &[Tok], open: usize) -> Option<usize> {
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

pub(crate) fn is_word(t: &CTok, w: &str) -> bool {
    matches!(t, CTok::Ident(x) | CTok::Spec(x) if x == w)
}

pub(crate) const INT_WORDS: &[&str] = &[
    "int",
    "unsigned",
    "signed",
    "long",
    "short",
    "size_t",
    "uint",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "const",
    "static",
    "constexpr",
    "auto",
];

/// A simple declaration at `toks[i..]`: `[const] INT NAME = EXPR ;` (integers) or
/// `dim3 NAME(...)`, `dim3 NAME = ...;`, `dim3 NAME{...}`. Gives the name, whether it is
/// `const`, the initialiser's tokens, whether it is a `dim3`, and the index after the `;`.
pub(crate) fn declaration(toks: &[Tok], i: usize) -> Option<(String, bool, Vec<Tok>, bool, usize)> {
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
    // (`const dim3 g(...)`: qualifiers only before the `dim3`.)
    let qualifiers = toks[i..j].iter().all(|t| matches!(&t.1, CTok::Spec(w) | CTok::Ident(w) if w == "const" || w == "static" || w == "constexpr"));
    let dim3 = qualifiers && toks.get(j).is_some_and(|t| is_word(&t.1, "dim3"));
    if dim3 {
        j += 1;
    } else if int_words == 0 || toks[i..j].iter().all(|t| matches!(&t.1, CTok::Spec(w) | CTok::Ident(w) if w == "const" || w == "static" || w == "constexpr")) {
        return None;
    }
    let CTok::Ident(name) = &toks.get(j)?.1 else {
        return None;
    };
    let end = |from: usize| {
        (from..toks.len())
            .find(|&k| matches!(toks[k].1, CTok::P(";" | ",")) && closing_free(toks, from, k))
    };
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
                let mut init = vec![
                    (toks[j].0, CTok::Ident("dim3".into()), toks[j].2),
                    (toks[j + 1].0, CTok::P("("), toks[j + 1].2),
                ];
                init.extend_from_slice(&toks[j + 2..c]);
                init.push((toks[c].0, CTok::P(")"), toks[c].2));
                (name.clone(), constant, init, true, c + 2)
            })
        }
        _ => None,
    }
}

/// No bracket opened in `toks[from..to]` is still open at `to`.
pub(crate) fn closing_free(toks: &[Tok], from: usize, to: usize) -> bool {
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
pub(crate) fn only_read(toks: &[Tok], k: usize, by_value: &ByValue) -> bool {
    // `(n)` (a macro's parameter, expanded) is used as `n` is: look past the parentheses
    // that only group it, to `toks[lo..=hi]`.
    let (mut lo, mut hi) = (k, k);
    while lo >= 1
        && toks[lo - 1].1 == CTok::P("(")
        && toks.get(hi + 1).is_some_and(|t| t.1 == CTok::P(")"))
    {
        let grouping = lo < 2
            || !matches!(
                toks[lo - 2].1,
                CTok::Ident(_) | CTok::Spec(_) | CTok::Kw(_) | CTok::P(">" | ")" | "]")
            );
        if !grouping {
            break;
        }
        lo -= 1;
        hi += 1;
    }
    let prev = lo.checked_sub(1).map(|p| &toks[p].1);
    let next = toks.get(hi + 1).map(|t| &t.1);
    const READ_AFTER: &[&str] = &[
        "+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "?", ":", "<<",
        ">>", "&", "|", "^", ")", "]", ";", ",",
    ];
    const READ_BEFORE: &[&str] = &[
        "+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "?", ":", "<<", "|",
        "^", "[", "=", "!", "~", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=",
    ];
    let next_reads = match next {
        // `block.x` is read as `block.x` is: by what follows the member.
        Some(CTok::P(".")) if lo == hi => {
            matches!(toks.get(k + 2).map(|t| &t.1), Some(CTok::Ident(_)))
                && toks
                    .get(k + 3)
                    .is_some_and(|t| matches!(&t.1, CTok::P(p) if READ_AFTER.contains(p)))
        }
        Some(CTok::P(p)) => READ_AFTER.contains(p),
        _ => false,
    };
    if !next_reads || in_reference_initialiser(toks, lo) {
        return false;
    }
    let by_value_argument = |(f, i): (String, usize)| {
        f == LAUNCH || BY_VALUE.contains(&f.as_str()) || c_api(&f) || by_value.get(&f).is_some_and(|ps| ps.get(i).copied().unwrap_or(false))
    };
    match prev {
        // `x + n`, `a[n]`, `= n`: an operand. (`&n` and `>> n`, a stream's extraction, may
        // change it; a binary `&` was excluded with them.)
        Some(CTok::P(p)) if READ_BEFORE.contains(p) => true,
        Some(CTok::Kw("return")) => true,
        // `(n + 1)`: a parenthesis that no name opens groups an operand.
        Some(CTok::P("(")) if callee(toks, lo).is_none() => true,
        // `(long) n`: a cast's operand, read.
        Some(CTok::P(")")) => cast_before(toks, lo - 1),
        // `f(n * m)`: an operand of an argument, read (no reference binds to it).
        // (Not `c ? n : m`, an lvalue a reference may bind to.)
        Some(CTok::P("(" | ",")) if matches!(next, Some(CTok::P(p)) if !matches!(*p, "," | ")" | "?" | ":" | "." | "->")) => true,
        // `f(n)`, `f(a, n)`: by value for the library's functions, and for the file's host
        // functions where that parameter is no reference.
        Some(CTok::P("(" | ",")) => callee(toks, lo).is_some_and(by_value_argument),
        _ => false,
    }
}

/// Is `f` a function of NVIDIA's C libraries (the runtime and driver APIs, cuBLAS,
/// cuDNN, cuRAND, cuFFT, cuSPARSE, cuSOLVER, NCCL)? They are C: no parameter is a
/// reference, so `f(n)` reads `n`. (The runtime's C++ templates that take a `__device__`
/// symbol by reference never take a host local.)
fn c_api(f: &str) -> bool {
    const PREFIXES: &[&str] = &["cuda", "cublas", "cudnn", "curand", "cufft", "cusparse", "cusolver", "nccl"];
    PREFIXES.iter().any(|p| f.starts_with(p)) || (f.starts_with("cu") && f[2..].starts_with(|c: char| c.is_ascii_uppercase()))
}

/// Does the `)` at `close` end a cast to an arithmetic type (`(long)`, `(unsigned int)`,
/// `(float)`)?
fn cast_before(toks: &[Tok], close: usize) -> bool {
    let mut k = close;
    while k > 0 {
        k -= 1;
        match &toks[k].1 {
            CTok::P("(") => return k < close - 1,
            CTok::Spec(w) | CTok::Ident(w) if INT_WORDS.contains(&w.as_str()) || matches!(w.as_str(), "float" | "double") => {}
            _ => return false,
        }
    }
    false
}

/// Is `toks[k]` in the initialiser of a reference (`int &r = b;`, `auto &r = c ? a : b;`),
/// which may change it through the reference?
pub(crate) fn in_reference_initialiser(toks: &[Tok], k: usize) -> bool {
    let mut depth = 0i32;
    for i in (0..k).rev() {
        match toks[i].1 {
            CTok::P(")" | "]") => depth += 1,
            CTok::P("(" | "[") => depth -= 1,
            CTok::P(";" | "{" | "}") if depth <= 0 => return false,
            CTok::P("=") if depth <= 0 => {
                return i >= 2
                    && matches!(toks[i - 1].1, CTok::Ident(_))
                    && matches!(toks[i - 2].1, CTok::P("&" | "&&"));
            }
            _ => {}
        }
    }
    false
}

/// The name before a template argument list that closes at `toks[close]` (a `>`), where
/// the list holds only names, numbers, `::`, `*` and commas (`f<matmul_tri_naive, 4>`).
fn template_name(toks: &[Tok], close: usize) -> Option<String> {
    for i in (0..close).rev() {
        match &toks[i].1 {
            CTok::P("<") => {
                return match &toks.get(i.checked_sub(1)?)?.1 {
                    CTok::Ident(f) => Some(f.clone()),
                    _ => None,
                }
            }
            CTok::Ident(_) | CTok::Spec(_) | CTok::Int(..) | CTok::P("::" | "," | "*") => {}
            _ => return None,
        }
    }
    None
}

/// The function whose argument list holds `toks[k]`, if `toks[k]` is in one, and which
/// argument it is in.
pub(crate) fn callee(toks: &[Tok], k: usize) -> Option<(String, usize)> {
    let mut depth = 0i32;
    let mut arg = 0;
    for i in (0..k).rev() {
        match toks[i].1 {
            CTok::P(",") if depth == 0 => arg += 1,
            CTok::P(")" | "]" | "}") => depth += 1,
            CTok::P("(") if depth == 0 => {
                return match toks.get(i.checked_sub(1)?)?.1 {
                    // `dim3 grid(n, m)`: dim3's constructor, which takes values.
                    CTok::Ident(_) if i >= 2 && matches!(&toks[i - 2].1, CTok::Ident(w) | CTok::Spec(w) if w == "dim3") => Some(("dim3".into(), arg)),
                    CTok::Ident(ref f) | CTok::Spec(ref f) => Some((f.clone(), arg)),
                    // The argument list of a launch: `k<<<...>>>(n)` takes values.
                    CTok::P(">") if i >= 2 && toks[i - 2].1 == CTok::P(">>") => {
                        Some((LAUNCH.into(), arg))
                    }
                    // `f<K, 4>(n)`: a template's instance, by its name.
                    CTok::P(">") => template_name(toks, i - 1).map(|f| (f, arg)),
                    _ => None,
                };
            }
            // The configuration of a launch, `<<<grid, n>>>`: values too.
            CTok::P("<") if depth == 0 && i >= 1 && toks[i - 1].1 == CTok::P("<<") => {
                return Some((LAUNCH.into(), arg))
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
pub(crate) fn constants(
    body: &[Tok],
    base: &Env,
    params: &[(String, Option<&'static str>)],
    by_value: &ByValue,
) -> Env {
    let mut env = Env {
        ints: base.ints.clone(),
        dims: base.dims.clone(),
        locals: Vec::new(),
        fixed: HashMap::new(),
        types: base.types.clone(),
        arrays: HashMap::new(),
    };
    // A file-scope constant (or a parameter a caller binds) the function declares again (a
    // parameter, a loop's variable, a local) or uses otherwise than by reading it is not
    // that constant there.
    // (A parameter changed only by plain assignments `p = e;` in the body's own block keeps
    // its caller's value up to the first, and takes each one's value after it.)
    let ends = block_ends(body);
    let top = body.iter().position(|t| matches!(t.1, CTok::P("{"))).map(|o| o + 1).filter(|&t| t < body.len());
    let jumps = body.iter().any(|t| matches!(t.1, CTok::Kw("goto")) || matches!(&t.1, CTok::Ident(w) if w == "goto"));
    // The plain assignments that are the only changes of `name`, if they are.
    let plain_changes = |name: &str| -> Option<Vec<(usize, usize)>> {
        let changes: Vec<usize> = body
            .iter()
            .enumerate()
            .filter(|(k, t)| matches!(&t.1, CTok::Ident(n) if n == name) && !only_read(body, *k, by_value))
            .map(|(k, _)| k)
            .collect();
        if changes.is_empty() {
            return Some(Vec::new());
        }
        match (top, jumps) {
            (Some(top), false) => changes.iter().map(|&k| plain_assignment(body, k, &ends, top)).collect(),
            _ => None,
        }
    };
    let mut reassigned: Vec<(String, Vec<(usize, usize)>)> = Vec::new();
    env.ints.retain(|name, _| match plain_changes(name) {
        Some(a) => {
            if !a.is_empty() {
                reassigned.push((name.clone(), a));
            }
            true
        }
        None => false,
    });
    env.dims.retain(|name, _| {
        body.iter().enumerate().all(|(k, t)| {
            !matches!(&t.1, CTok::Ident(n) if n == name) || only_read(body, k, by_value)
        })
    });
    for (p, ty) in params {
        // A parameter no caller binds, assigned in the body's block: known after that.
        if !base.ints.contains_key(p) && !base.dims.contains_key(p) {
            if let Some(a) = plain_changes(p).filter(|a| !a.is_empty()) {
                reassigned.push((p.clone(), a));
            }
        }
        if !base.ints.contains_key(p) && !base.dims.contains_key(p) {
            env.ints.remove(p);
            env.dims.remove(p);
            if body.iter().enumerate().all(|(k, t)| {
                !matches!(&t.1, CTok::Ident(n) if n == p) || only_read(body, k, by_value)
            }) {
                env.fixed.insert(
                    p.clone(),
                    Fixed {
                        init: None,
                        ty: *ty,
                        at: 0,
                    },
                );
            }
        }
    }
    // The parameters reassigned in the body's block: a stretch of their own after each
    // assignment (the caller's value before the first).
    for (name, stretches) in &reassigned {
        for (n, &(eq, semi)) in stretches.iter().enumerate() {
            let value = assigned(body, (eq, semi), name, &env.at(eq), false);
            let end = stretches.get(n + 1).map_or(body.len(), |s| s.1);
            env.locals.push(Local { name: name.clone(), from: semi, to: end, value, fixed: None });
        }
    }
    let mut decls = Vec::new();
    let mut decl_starts = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let starts = i == 0 || matches!(body[i - 1].1, CTok::P(";" | "{" | "}" | ")"));
        if starts {
            if let Some((name, constant, init, dim3, next)) = declaration(body, i) {
                let at = body[i..next]
                    .iter()
                    .position(|t| matches!(&t.1, CTok::Ident(n) if *n == name))
                    .map_or(i, |p| i + p);
                decls.push((name, constant, init, dim3, at));
                decl_starts.push(i);
                i = next;
                continue;
            }
        }
        i += 1;
    }
    // A name declared in a way `declaration` does not read (`int n(4);`, `int a = 1, n;`, a
    // loop's variable) is no constant anywhere in the function.
    let declared_at: std::collections::HashSet<usize> = decls.iter().map(|d| d.4).collect();
    let mut unread: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (k, t) in body.iter().enumerate() {
        if let CTok::Ident(n) = &t.1 {
            let after_type = k > 0 && matches!(&body[k - 1].1, CTok::Spec(_))
                || k > 0
                    && matches!(&body[k - 1].1, CTok::Ident(w) if INT_WORDS.contains(&w.as_str()) || w == "dim3");
            if after_type && !declared_at.contains(&k) {
                unread.insert(n.clone());
            }
        }
    }
    // Which declaration a use at `k` of `name` refers to: the last one before it whose block
    // holds it.
    let resolves = |name: &str, k: usize| {
        decls
            .iter()
            .rposition(|d| d.0 == name && d.4 < k && k <= ends[d.4])
    };
    for (di, (name, constant, init, dim3, at)) in decls.iter().enumerate() {
        let to = if unread.contains(name) {
            body.len()
        } else {
            ends[*at]
        };
        let from = if unread.contains(name) { 0 } else { *at };
        // Never changed after its declaration, by any use that refers to it (another
        // declaration of the name, in an inner block, is no use of it).
        // The uses that change it: each must be a plain assignment statement `name = e;`
        // in the declaration's own block (straight-line code there: each iteration of a
        // loop around the block starts again at the declaration), which starts a new
        // stretch of the local with `e`'s value.
        let changes: Vec<usize> = body
            .iter()
            .enumerate()
            .skip(at + 1)
            .filter(|(k, t)| {
                matches!(&t.1, CTok::Ident(n) if n == name)
                    && !declared_at.contains(k)
                    && resolves(name, *k) == Some(di)
                    && !only_read(body, *k, by_value)
            })
            .map(|(k, _)| k)
            .collect();
        let assignments: Option<Vec<(usize, usize)>> = changes.iter().map(|&k| plain_assignment(body, k, &ends, *at)).collect();
        let unchanged = !unread.contains(name) && (*constant || changes.is_empty());
        // (A `goto` may jump back over an assignment: then no stretches.)
        let stretches = match (&assignments, unread.contains(name) || *constant || jumps) {
            (Some(a), false) if !a.is_empty() => a.clone(),
            _ => Vec::new(),
        };
        // Its initialiser's value holds where nothing changes it: throughout, or up to the
        // first plain assignment.
        let value = if !unchanged && stretches.is_empty() {
            None
        } else if *dim3 {
            triple(init, &env.at(*at)).map(Value::Dim)
        } else {
            eval(init, &env.at(*at)).map(Value::Int)
        };
        let fixed = unchanged.then(|| Fixed {
            init: Some(init.clone()),
            ty: if *dim3 {
                None
            } else {
                int_type(&body[decl_starts[di]..*at])
            },
            at: *at,
        });
        // Stretches end at each plain assignment, whose value the next one takes.
        let first_to = stretches.first().map_or(to, |s| s.1);
        env.locals.push(Local {
            name: name.clone(),
            from,
            to: first_to,
            value,
            fixed,
        });
        for (n, &(eq, semi)) in stretches.iter().enumerate() {
            let value = assigned(body, (eq, semi), name, &env.at(eq), *dim3);
            let end = stretches.get(n + 1).map_or(to, |s| s.1);
            env.locals.push(Local { name: name.clone(), from: semi, to: end, value, fixed: None });
        }
    }
    env
}

/// The blocks of `body`: for each token, the `}` that closes the innermost block holding
/// it (`body.len()` outside every block). Inner blocks close first and claim their tokens;
/// an outer block only the rest.
pub(crate) fn block_ends(body: &[Tok]) -> Vec<usize> {
    let mut ends = vec![body.len(); body.len()];
    let mut open: Vec<usize> = Vec::new();
    for (k, t) in body.iter().enumerate() {
        match t.1 {
            CTok::P("{") => open.push(k),
            CTok::P("}") => {
                if let Some(o) = open.pop() {
                    for e in &mut ends[o + 1..k] {
                        if *e == body.len() {
                            *e = k;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    ends
}

/// The `=` and `;` of a plain assignment statement `name = e;` whose name is at `k`,
/// directly in the block of the declaration at `at` (`ends`: each token's block end), or
/// the only statement of an `if` there without `else` (`if (c) name = e;`, `if (c) { name
/// = e; }`, `guard`: `assigned` then takes its value where `c` is a constant).
fn plain_assignment(body: &[Tok], k: usize, ends: &[usize], at: usize) -> Option<(usize, usize)> {
    if !matches!(body.get(k + 1)?.1, CTok::P("=")) {
        return None;
    }
    let semi = (k + 2..body.len()).find(|&j| matches!(body[j].1, CTok::P(";")) && closing_free(body, k + 2, j))?;
    let is_else = |j: usize| body.get(j).is_some_and(|t| is_word(&t.1, "else") || matches!(t.1, CTok::Kw("else")));
    if let Some((open, _)) = guard(body, k) {
        let braced = matches!(body[k - 1].1, CTok::P("{"));
        let after = if braced { semi + 2 } else { semi + 1 };
        let closed = !braced || body.get(semi + 1).is_some_and(|t| matches!(t.1, CTok::P("}")));
        let starts = open >= 2 && matches!(body[open - 2].1, CTok::P(";" | "{" | "}"));
        return (closed && starts && !is_else(after) && ends[open - 1] == ends[at]).then_some((k + 1, semi));
    }
    let starts = k > 0 && matches!(body[k - 1].1, CTok::P(";" | "{" | "}"));
    if !starts || ends[k] != ends[at] {
        return None;
    }
    Some((k + 1, semi))
}

/// The condition's `(` and `)` of the `if` whose only statement is the assignment whose
/// name is at `k`: `if (c) name = e;` or `if (c) { name = e; }`.
fn guard(body: &[Tok], k: usize) -> Option<(usize, usize)> {
    let close = match body.get(k.checked_sub(1)?)?.1 {
        CTok::P("{") => k.checked_sub(2)?,
        _ => k - 1,
    };
    if !matches!(body[close].1, CTok::P(")")) {
        return None;
    }
    let mut depth = 0i32;
    let open = (0..=close).rev().find(|&j| {
        match body[j].1 {
            CTok::P(")") => depth += 1,
            CTok::P("(") => depth -= 1,
            _ => {}
        }
        depth == 0
    })?;
    let t = &body.get(open.checked_sub(1)?)?.1;
    (is_word(t, "if") || matches!(t, CTok::Kw("if"))).then_some((open, close))
}

/// The value of the local `name` after the assignment whose `=` and `;` are at `eq` and
/// `semi` (`before`: the constants just before it): its right side's, or, for one an `if`
/// guards, its right side's where the condition holds and its value before where it does
/// not; `None` where either is not a constant.
fn assigned(body: &[Tok], (eq, semi): (usize, usize), name: &str, before: &Env, dim3: bool) -> Option<Value> {
    let rhs = &body[eq + 1..semi];
    let new = || if dim3 { triple(rhs, before).map(Value::Dim) } else { eval(rhs, before).map(Value::Int) };
    match guard(body, eq - 1) {
        None => new(),
        Some((open, close)) => match eval(&body[open + 1..close], before)? {
            0 if dim3 => before.dims.get(name).copied().map(Value::Dim),
            0 => before.ints.get(name).copied().map(Value::Int),
            _ => new(),
        },
    }
}

/// A `dim3` value: `dim3(x[, y[, z]])`, `{x, y, z}`, a `dim3` constant, or a number.
pub(crate) fn triple(toks: &[Tok], env: &Env) -> Option<[i64; 3]> {
    if let [(_, CTok::Ident(n), _)] = toks {
        if let Some(d) = env.dims.get(n) {
            return Some(*d);
        }
    }
    let inner = match toks {
        [t, (_, CTok::P("(" | "{"), _), rest @ .., (_, CTok::P(")" | "}"), _)]
            if is_word(&t.1, "dim3") =>
        {
            rest
        }
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
