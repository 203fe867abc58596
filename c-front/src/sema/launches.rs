//! Launch sites in a CUDA file's host code (the whole-programs issue, first step): every
//! `k<<<grid, block[, shared[, stream]]>>>(args)`, with what the host code decides of it
//! where that is a constant: the grid and block sizes (a number, `dim3(x, y, z)`, or a
//! `dim3` variable), the dynamic shared bytes, and each argument's value.
//!
//! A name in those expressions is a constant as `host_constants.rs` decides; anything else
//! is not decided, and says so.

use crate::sema::coop::split_commas;
use crate::sema::grid_shape::{field_values, grid_axes, integer_functions, size_exprs};
pub use crate::sema::grid_shape::{param_placeholder, SizeExpr};
use crate::sema::host_constants::*;
use crate::sema::host_calls::{by_value_parameters, forwarding_wrappers, inline_one_returns, unwrap_forwarded};
use crate::sema::host_loops::forks;
use crate::sema::host_fn_values::{by_value_through, calls_through, function_parameters, Callee, FnParam};
use crate::sema::host_reach::{declared_or_launched, reach, HostItem, Reach};
use crate::text::tokens::CTok;
use kpl_lang::span::Span;
use std::collections::{HashMap, HashSet};

/// One launch of a kernel in host code.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchSite {
    /// The kernel's name: a template's instance named as `templates.rs` names it.
    pub kernel: Option<String>,
    /// Where the launch's `<<<` is.
    pub at: usize,
    /// From the kernel's name to the launch's closing `)`.
    pub span: Span,
    /// The grid and block sizes, each `Err(what)` where the host code does not decide it.
    pub grid: Result<[u32; 3], String>,
    pub block: Result<[u32; 3], String>,
    /// The dynamic shared memory in bytes (0 when not given).
    pub shared_bytes: Result<u64, String>,
    /// Each argument's value where it is an integer constant.
    pub args: Vec<Option<i64>>,
    /// Each grid dimension's expression in host code, where it is one kpl can state over
    /// the kernel's parameters (`SizeExpr`); `None` for a constant or one it cannot.
    pub grid_exprs: [Option<SizeExpr>; 3],
    /// Where the grid is a `dim3` (or a number) whose shape kpl reads but some of whose
    /// sizes it does not (computed from values read at run time): each axis's size where
    /// it is a constant, `None` where it is not (`grid_axes`). `None` where the shape is
    /// not read either.
    pub grid_axes: Option<[Option<u32>; 3]>,
    /// In a whole program (a file with `main`): the host function the launch is in, where
    /// the program never calls it (`host_reach.rs`); the launch is then never made.
    pub never_called_in: Option<String>,
    /// Why the launch is never made in this context: an `assert(c)` before it, in a block
    /// that holds it, whose `c` is false here (the program aborts first).
    pub never_made: Option<String>,
}

/// The first `assert(c);` of item `f` before the launch at `i`, in a block that holds the
/// launch, whose condition is a constant false in `env` (counting from `body`): its text.
/// (`ends`: each token's block end, `host_constants::block_ends`.)
fn failing_assert(f: &[Tok], ends: &[usize], body: usize, env: &Env, i: usize) -> Option<String> {
    (body..i).find_map(|a| {
        let starts = a > 0 && matches!(f[a - 1].1, CTok::P(";" | "{" | "}"));
        if !starts || !is_word(&f[a].1, "assert") || f.get(a + 1)?.1 != CTok::P("(") || ends[a] < i {
            return None;
        }
        let close = closing(f, a + 1)?;
        if close > i || f.get(close + 1)?.1 != CTok::P(";") {
            return None;
        }
        let cond = &f[a + 2..close];
        (eval(cond, &env.at(a - body)) == Some(0)).then(|| cond.iter().map(|t| crate::text::tokens::spelling(&t.1)).collect::<Vec<_>>().join(" "))
    })
}

fn dims_of(toks: &[Tok], env: &Env, what: &str) -> Result<[u32; 3], String> {
    let d = triple(toks, env).ok_or_else(|| format!("the {what} size is not a constant kpl can read{}", unread_why(toks, env)))?;
    let mut out = [0u32; 3];
    for (o, v) in out.iter_mut().zip(d) {
        *o = u32::try_from(v).ok().filter(|v| *v > 0).ok_or_else(|| {
            format!("the {what} size {d:?} is not a size (each of x, y and z from 1 to 2^32 - 1)")
        })?;
    }
    Ok(out)
}

/// The fields of CUDA's `cudaDeviceProp` that describe the GPU a program runs on.
const DEVICE_PROPERTIES: &[&str] = &[
    "multiProcessorCount", "maxThreadsPerBlock", "maxThreadsPerMultiProcessor", "maxGridSize", "maxThreadsDim", "warpSize",
    "sharedMemPerBlock", "sharedMemPerMultiprocessor", "sharedMemPerBlockOptin", "regsPerBlock", "l2CacheSize", "maxBlocksPerMultiProcessor",
];

/// Why a launch size does not read, where the names it uses say: the variables with no
/// value, and those the GPU's properties decide (`cudaGetDeviceProperties`,
/// `cudaDeviceGetAttribute`, `cudaOccupancy...`), which no reading of the program knows.
fn unread_why(toks: &[Tok], env: &Env) -> String {
    let mut unknown: Vec<String> = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        let CTok::Ident(n) = &t.1 else { continue };
        let called = matches!(toks.get(k + 1), Some((_, CTok::P("("), _)));
        let member = k > 0 && matches!(toks[k - 1].1, CTok::P("." | "->"));
        if called || member || n == "dim3" || env.ints.contains_key(n) || env.dims.contains_key(n) || unknown.contains(n) {
            continue;
        }
        unknown.push(n.clone());
    }
    if unknown.is_empty() {
        return String::new();
    }
    let device = |n: &str| {
        let fixed = env.fixed.get(n).or_else(|| env.locals.iter().rev().find(|l| l.name == n).and_then(|l| l.fixed.as_ref()));
        let init = fixed.and_then(|f| f.init.as_ref());
        init.is_some_and(|ts| {
            ts.iter().any(|t| matches!(&t.1, CTok::Ident(x) if DEVICE_PROPERTIES.contains(&x.as_str()) || x.starts_with("cudaDeviceGetAttribute") || x.starts_with("cudaOccupancy")))
        })
    };
    // `prop.multiProcessorCount` in the size itself.
    let field = toks.windows(3).find_map(|w| match (&w[0].1, &w[1].1, &w[2].1) {
        (CTok::Ident(v), CTok::P("." | "->"), CTok::Ident(f)) if DEVICE_PROPERTIES.contains(&f.as_str()) => Some(format!("{v}.{f}")),
        _ => None,
    });
    let shown: Vec<String> = unknown.iter().map(|n| format!("`{n}`")).collect();
    match field.or_else(|| unknown.iter().find(|n| device(n)).cloned()).as_ref() {
        Some(n) => format!(
            ": `{n}` comes from the properties of the GPU the program runs on (`cudaGetDeviceProperties`, `cudaDeviceGetAttribute`), which no reading of the program knows"
        ),
        None => format!(" ({} ha{} no value kpl can read here)", shown.join(", "), if unknown.len() == 1 { "s" } else { "ve" }),
    }
}

/// The file-scope `const`/`constexpr` integers of a file, with their values and types.
pub(crate) struct FileConstants(Env);

/// The file-scope `const`/`constexpr` integers of the file `toks`.
pub(crate) fn file_constants(toks: &[Tok]) -> FileConstants {
    let mut env = Env::default();
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
                    let at = (i..next)
                        .find(|&k| matches!(&toks[k].1, CTok::Ident(n) if *n == name))
                        .unwrap_or(i);
                    if let Some(ty) = int_type(&toks[i..at]) {
                        env.types.insert(name.clone(), ty);
                    }
                    env.ints.insert(name, v);
                }
                i = next;
                continue;
            }
        }
        i += 1;
    }
    FileConstants(env)
}

/// The integer constants a host function (`item`, its header included) has in its body,
/// besides the file's (`file`, from `file_constants`): what a template argument of a
/// launch in it (`k<BM, BN><<<...>>>`) may name. A local counts as `constants` says, with
/// no call of a user function taken as leaving it unchanged.
pub(crate) struct HostConstants {
    env: Env,
    /// Where the function's body starts in its item.
    body: usize,
}

impl HostConstants {
    /// The integer constants at the item's token `k`.
    pub(crate) fn at(&self, k: usize) -> HashMap<String, i64> {
        if k < self.body {
            return self.env.ints.clone();
        }
        self.env.at(k - self.body).ints
    }
}

pub(crate) fn local_constants(item: &[Tok], file: &FileConstants) -> HostConstants {
    let base = file.0.clone();
    let Some(f) = host_fn(item) else {
        return HostConstants { env: base, body: 0 };
    };
    let params: Vec<(String, Option<&'static str>)> =
        f.params.iter().map(|p| (p.0.clone(), p.3)).collect();
    HostConstants {
        env: constants(f.body, &base, &params, &ByValue::new()),
        body: item.len() - f.body.len(),
    }
}

/// Every launch in the host functions `host`, with the file's tokens `file` for its
/// file-scope constants, and `instances` (the file with its templates instantiated) for
/// the one-return functions host code calls (`host_calls.rs`).
pub fn find(host: &[Vec<Tok>], file: &[Tok], instances: &[Tok]) -> (Vec<LaunchSite>, Option<Reach>) {
    // What a program with `main` may run, from its host functions as written.
    let items: Vec<HostItem> = host
        .iter()
        .filter_map(|item| {
            let f = host_fn(item)?;
            let name = file.iter().find(|t| t.0 == f.at).and_then(|t| match &t.1 {
                CTok::Ident(n) => Some(n.as_str()),
                _ => None,
            })?;
            Some(HostItem { name, start: item.first()?.0, end: item.last()?.2 })
        })
        .collect();
    let reach = reach(&items, file);
    let mut globals = file_constants(file).0;
    // `x128::size`: a class's constant, as the instances define it.
    for (name, v) in crate::sema::host_class_constants::class_constants(instances) {
        globals.ints.entry(name).or_insert(v);
    }
    let host: Vec<Vec<Tok>> = unwrap_forwarded(inline_one_returns(host, &[file, instances]), &forwarding_wrappers(file))
        .iter()
        .map(|f| crate::sema::split_declarations::split_declarations(f))
        .collect();
    let host = &host;
    let fns: Vec<Option<HostFn>> = host.iter().map(|f| host_fn(f)).collect();
    let mut out = Vec::new();
    // Which parameters of the file's host functions take their argument by value.
    let mut by_value: ByValue = fns
        .iter()
        .flatten()
        .map(|f| (f.name.clone(), f.params.iter().map(|p| p.2).collect()))
        .collect();
    // The file's function templates too (`memcpy_convert(d, h, n)` reads `n`).
    for (name, params) in by_value_parameters(file) {
        by_value.entry(name).or_insert(params);
    }
    // Functions passed to a parameter the callee calls (`host_fn_values.rs`).
    let callees: Vec<Option<Callee>> = fns
        .iter()
        .map(|f| f.as_ref().map(|f| Callee { name: &f.name, params: f.params.iter().map(|p| p.0.as_str()).collect(), arity: f.arity.clone(), body: f.body }))
        .collect();
    let params = function_parameters(&callees);
    by_value_through(&callees, &params, &mut by_value);
    let int_fns = integer_functions(file);
    let mut memo = HashMap::new();
    let never = |at: usize| reach.as_ref().and_then(|r| r.never_called_at(at)).is_some();
    let read = Reading { fns: &fns, file, globals: &globals, by_value: &by_value, never: &never, callees: &callees, params: &params };
    for (fi, f) in host.iter().enumerate() {
        if fns[fi].is_none() {
            for env in forks(f, constants(f, &globals, &[], &by_value), &by_value) {
                launches_in(f, 0, &env, &int_fns, &mut out);
            }
            continue;
        }
        let body = fns[fi].as_ref().map_or(0, |h| f.len() - h.body.len());
        for env in contexts(fi, &read, 0, &mut memo) {
            launches_in(f, body, &env, &int_fns, &mut out);
        }
    }
    for site in &mut out {
        site.never_called_in = reach.as_ref().and_then(|r| r.never_called_at(site.at)).map(str::to_string);
    }
    // One launch the same in several environments (loops that fix other locals) is one.
    let mut unique: Vec<LaunchSite> = Vec::with_capacity(out.len());
    for site in out {
        if !unique.contains(&site) {
            unique.push(site);
        }
    }
    (unique, reach)
}

/// A host function: its name, its parameters' names (and whether each is a `dim3`), where
/// its header's name is, and its body from its `{`.
struct HostFn<'a> {
    name: String,
    /// Name, whether a `dim3`, whether taken by value (no `&`), and its integer type.
    params: Vec<(String, bool, bool, Option<&'static str>)>,
    at: usize,
    body: &'a [Tok],
    /// How many arguments a call of it may have (parameters with defaults may be left out).
    arity: std::ops::RangeInclusive<usize>,
}

fn host_fn(item: &[Tok]) -> Option<HostFn<'_>> {
    let open = item.iter().position(|t| t.1 == CTok::P("("))?;
    let CTok::Ident(name) = &item.get(open.checked_sub(1)?)?.1 else {
        return None;
    };
    let close = closing(item, open)?;
    let brace = (close + 1..item.len()).find(|&k| item[k].1 == CTok::P("{"))?;
    let mut params = Vec::new();
    let mut required = 0;
    let list = split_commas(&item[open + 1..close]);
    // `f()` and `f(void)` take none.
    let list = if list.len() == 1 && (list[0].is_empty() || list[0].len() == 1 && is_word(&list[0][0].1, "void")) {
        Vec::new()
    } else {
        list
    };
    for p in list {
        if !p.iter().any(|t| t.1 == CTok::P("=")) {
            required += 1;
        }
        let upto = p
            .iter()
            .position(|t| t.1 == CTok::P("="))
            .unwrap_or(p.len());
        match p[..upto].iter().rev().find_map(|t| {
            if let CTok::Ident(n) = &t.1 {
                Some(n.clone())
            } else {
                None
            }
        }) {
            Some(n) => {
                let by_value = !p[..upto].iter().any(|t| matches!(t.1, CTok::P("&" | "&&")));
                let plain = p[..upto].iter().all(|t| matches!(&t.1, CTok::Spec(_)) || matches!(&t.1, CTok::Ident(w) if *w == n || INT_WORDS.contains(&w.as_str())));
                let words: Vec<Tok> = p[..upto]
                    .iter()
                    .filter(|t| !matches!(&t.1, CTok::Ident(w) if *w == n))
                    .cloned()
                    .collect();
                params.push((
                    n,
                    p.iter().any(|t| is_word(&t.1, "dim3")),
                    by_value,
                    if plain { int_type(&words) } else { None },
                ))
            }
            None => params.push((String::new(), false, false, None)),
        }
    }
    Some(HostFn {
        name: name.clone(),
        at: item[open - 1].0,
        body: &item[brace..],
        arity: required..=params.len(),
        params,
    })
}

/// The most calling contexts kpl tells apart for one host function, and the deepest chain
/// of calls it follows; past either, the function's parameters stay undecided.
const MAX_CONTEXTS: usize = 16;
const MAX_DEPTH: usize = 8;

/// The environments host function `fi` runs in: one per distinct binding of its
/// parameters by the constant arguments of its callers (each caller in each of its own
/// contexts), or one with no parameter bound where a caller cannot be read (a call from
/// code kpl does not read, the function's address taken) or none calls it.
fn contexts(fi: usize, read: &Reading, depth: usize, memo: &mut HashMap<usize, Vec<Env>>) -> Vec<Env> {
    if let Some(known) = memo.get(&fi) {
        return known.clone();
    }
    let found = contexts_of(fi, read, depth, memo);
    memo.insert(fi, found.clone());
    found
}

/// What `contexts` reads: the host functions, the file, its constants, which parameters
/// take values, where the program never goes, and the functions passed as values.
struct Reading<'a> {
    fns: &'a [Option<HostFn<'a>>],
    file: &'a [Tok],
    globals: &'a Env,
    by_value: &'a ByValue,
    never: &'a dyn Fn(usize) -> bool,
    callees: &'a [Option<Callee<'a>>],
    params: &'a [FnParam],
}

fn contexts_of(fi: usize, read: &Reading, depth: usize, memo: &mut HashMap<usize, Vec<Env>>) -> Vec<Env> {
    let Reading { fns, file, globals, by_value, never, .. } = *read;
    let Some(f) = &fns[fi] else {
        return vec![globals.clone()];
    };
    let names: Vec<(String, Option<&'static str>)> =
        f.params.iter().map(|p| (p.0.clone(), p.3)).collect();
    let unbound = || {
        let mut e = globals.clone();
        for (p, _, _, _) in &f.params {
            e.ints.remove(p);
            e.dims.remove(p);
        }
        forks(f.body, constants(f.body, &e, &names, by_value), by_value)
    };
    if depth >= MAX_DEPTH || f.params.is_empty() {
        return unbound();
    }
    // Every call of it, in the host functions kpl reads.
    let mut calls: Vec<(usize, Vec<&[Tok]>, usize, usize)> = Vec::new();
    // Calls of the name that are not calls of `f` (by their number of arguments).
    let mut others: Vec<usize> = Vec::new();
    for (gi, g) in fns.iter().enumerate() {
        let Some(g) = g else { continue };
        // A function the program never calls calls nothing.
        if never(g.at) {
            continue;
        }
        for k in 0..g.body.len() {
            if matches!(&g.body[k].1, CTok::Ident(n) if *n == f.name)
                && g.body.get(k + 1).is_some_and(|t| t.1 == CTok::P("("))
            {
                let before = k.checked_sub(1).map(|b| &g.body[b].1);
                if matches!(before, Some(CTok::P("." | "->" | "::"))) {
                    continue;
                }
                let Some(c) = closing(g.body, k + 1) else {
                    return unbound();
                };
                let args = if c == k + 2 { Vec::new() } else { split_commas(&g.body[k + 2..c]) };
                // A call with more arguments than `f` takes, or fewer than it needs, is
                // one of another function of that name (an overload: llm.c names a
                // kernel's launcher after the kernel).
                if !f.arity.contains(&args.len()) {
                    others.push(g.body[k].0);
                    continue;
                }
                calls.push((gi, args, g.body[k].0, k));
            }
        }
    }
    // Its calls through parameters it is passed to (`host_fn_values.rs`).
    let (through, passed) = calls_through(&f.name, read.callees, read.params);
    for (gi, args, at, k) in through {
        if fns[gi].as_ref().is_some_and(|g| !never(g.at)) && f.arity.contains(&args.len()) {
            calls.push((gi, args, at, k));
        }
    }
    // Every use of its name elsewhere is its header, a declaration (`void f(int);`), the
    // header of another function of that name (an overload, or a kernel the launcher is
    // named after) or a launch of that kernel (`f<<<...>>>`); anything else (a call from a
    // template, its address taken) is a caller kpl cannot read.
    for (k, t) in file.iter().enumerate() {
        if !matches!(&t.1, CTok::Ident(n) if *n == f.name)
            || t.0 == f.at
            || calls.iter().any(|c| c.2 == t.0)
            || others.contains(&t.0)
            || passed.contains(&t.0)
            || never(t.0)
        {
            continue;
        }
        if !declared_or_launched(file, k) {
            return unbound();
        }
    }
    if calls.is_empty() || calls.iter().any(|c| c.0 == fi) {
        return unbound();
    }
    let mut out: Vec<Env> = Vec::new();
    for (gi, args, _, k) in &calls {
        for caller in contexts(*gi, read, depth + 1, memo) {
            let caller = caller.at(*k);
            let mut e = globals.clone();
            for (i, (p, dim3, _, _)) in f.params.iter().enumerate() {
                e.ints.remove(p);
                e.dims.remove(p);
                let Some(a) = args.get(i) else { continue };
                if *dim3 {
                    if let Some(d) = triple(a, &caller) {
                        e.dims.insert(p.clone(), d);
                    }
                } else if let Some(v) = eval(a, &caller) {
                    e.ints.insert(p.clone(), v);
                    if let Some(ty) = f.params[i].3 {
                        e.types.insert(p.clone(), ty);
                    }
                }
            }
            for e in forks(f.body, constants(f.body, &e, &names, by_value), by_value) {
                if !out.contains(&e) {
                    out.push(e);
                }
            }
            if out.len() > MAX_CONTEXTS {
                return unbound();
            }
        }
    }
    out
}

/// The `>>` of the `>>>` that closes a launch configuration whose `<<<` (`<<` then `<`)
/// is at `at`.
pub(crate) fn config_end(toks: &[Tok], at: usize) -> Option<usize> {
    (at + 2..toks.len().saturating_sub(1)).find(|&k| toks[k].1 == CTok::P(">>") && toks[k + 1].1 == CTok::P(">"))
}

/// The launches in item `f`, whose body starts at token `body` (`env` counts from there).
fn launches_in(f: &[Tok], body: usize, full: &Env, int_fns: &HashSet<String>, out: &mut Vec<LaunchSite>) {
    {
        // (Each token's block end, for `failing_assert`: read once, at the first launch.)
        let mut ends: Option<Vec<usize>> = None;
        let mut i = 0;
        while i + 1 < f.len() {
            // `<<<` is `<<` then `<`.
            if !(f[i].1 == CTok::P("<<") && f[i + 1].1 == CTok::P("<")) {
                i += 1;
                continue;
            }
            let Some(close) = config_end(f, i) else {
                break;
            };
            let env = full.at(i.saturating_sub(body));
            let kernel = match i.checked_sub(1).map(|k| &f[k].1) {
                Some(CTok::Ident(n)) => Some(n.clone()),
                _ => None,
            };
            let start = i.saturating_sub(1);
            let config = split_commas(&f[i + 2..close]);
            let (arg_toks, end) = match f.get(close + 2) {
                Some((_, CTok::P("("), _)) => match closing(f, close + 2) {
                    Some(c) => (split_commas(&f[close + 3..c]), c),
                    None => (Vec::new(), close + 1),
                },
                _ => (Vec::new(), close + 1),
            };
            let args = arg_toks.iter().map(|a| eval(a, &env)).collect();
            let missing = |what: &str| Err(format!("the launch gives no {what} size"));
            // Grid, block, shared bytes and stream: nvcc takes no more.
            let too_many = || {
                Err::<[u32; 3], String>(
                    "a launch takes at most four values between `<<<` and `>>>`".into(),
                )
            };
            out.push(LaunchSite {
                kernel,
                at: f[i].0,
                span: Span::new(f[start].0, f[end].2),
                grid: if config.len() > 4 {
                    too_many()
                } else {
                    config
                        .first()
                        .map_or_else(|| missing("grid"), |g| dims_of(g, &env, "grid"))
                },
                block: config.get(1).map_or_else(
                    || missing("block"),
                    |b| match (dims_of(b, &env, "block"), b) {
                        // A `dim3` set field by field.
                        (Err(e), [(_, CTok::Ident(n), _)]) => field_values(n, f, body, full, i).and_then(|v| Some([v[0]?, v[1]?, v[2]?])).ok_or(e),
                        (r, _) => r,
                    },
                ),
                shared_bytes: match config.get(2) {
                    None => Ok(0),
                    Some(s) => eval(s, &env)
                        .and_then(|v| u64::try_from(v).ok())
                        .ok_or_else(|| {
                            "the dynamic shared memory size is not a constant kpl can read".into()
                        }),
                },
                args,
                grid_exprs: config
                    .first()
                    .filter(|_| config.len() <= 4)
                    .map_or([None, None, None], |g| {
                        size_exprs(g, full, i.saturating_sub(body), &arg_toks)
                    }),
                grid_axes: config
                    .first()
                    .filter(|_| config.len() <= 4)
                    .and_then(|g| grid_axes(g, f, body, full, i, int_fns)),
                never_called_in: None,
                never_made: failing_assert(f, ends.get_or_insert_with(|| crate::sema::host_constants::block_ends(f)), body, full, i).map(|c| format!("the program's `assert({c})` before it fails")),
            });
            i = end + 1;
        }
    }
}

/// The kernels the file launches, and where, whatever the code around the launch: each
/// `k<<<`, `k<T, 4><<<` (by the name before its template arguments) and each kernel named
/// by `cudaLaunchKernel`, `cudaLaunchCooperativeKernel` or `cudaLaunchKernelEx`. Gives the
/// name and the place of its `<<<` (of the call for the runtime's functions).
pub fn every_launch(toks: &[Tok]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        match &toks[i].1 {
            CTok::P("<<") if toks.get(i + 1).is_some_and(|t| t.1 == CTok::P("<")) => {
                let mut k = i;
                // Past a template's arguments, back to its name.
                if k >= 1 && toks[k - 1].1 == CTok::P(">") {
                    let mut depth = 0i32;
                    while k > 0 {
                        k -= 1;
                        match toks[k].1 {
                            CTok::P(">") => depth += 1,
                            CTok::P(">>") => depth += 2,
                            CTok::P("<") => depth -= 1,
                            _ => {}
                        }
                        if depth == 0 {
                            break;
                        }
                    }
                }
                if let Some((_, CTok::Ident(n), _)) = k.checked_sub(1).map(|p| &toks[p]) {
                    out.push((n.clone(), toks[i].0));
                }
            }
            CTok::Ident(f)
                if [
                    "cudaLaunchKernel",
                    "cudaLaunchCooperativeKernel",
                    "cudaLaunchKernelEx",
                ]
                .contains(&f.as_str()) =>
            {
                if let Some(c) = toks
                    .get(i + 1)
                    .filter(|t| t.1 == CTok::P("("))
                    .and_then(|_| closing(toks, i + 1))
                {
                    let first = split_commas(&toks[i + 2..c])
                        .first()
                        .copied()
                        .unwrap_or(&[]);
                    if let Some(n) = first.iter().rev().find_map(|t| {
                        if let CTok::Ident(n) = &t.1 {
                            Some(n.clone())
                        } else {
                            None
                        }
                    }) {
                        out.push((n, toks[i].0));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::lexer::lex;
    use crate::text::tokens::{convert, Dialect};

    /// The block size of the one launch in a host function's body.
    fn block(body: &str) -> Result<[u32; 3], String> {
        let (toks, _) = convert(&lex(&format!("void host() {{ {body} }}")).0, Dialect::Cuda);
        let sites = find(&[toks.clone()], &[], &[]).0;
        assert_eq!(sites.len(), 1, "{body}");
        sites[0].block.clone()
    }

    #[test]
    fn a_local_is_a_constant_only_when_nothing_may_change_it() {
        assert_eq!(block("int b = 8 * 4; k<<<1, b>>>(p, b);"), Ok([32, 1, 1]));
        assert_eq!(
            block("const int b = 32; f(b); k<<<1, b>>>(p);"),
            Ok([32, 1, 1]),
            "a `const` one"
        );
        assert_eq!(
            block("int b = 32; printf(\"%d\", b); k<<<1, b + 1>>>(p);"),
            Ok([33, 1, 1]),
            "a library function takes values"
        );
        assert_eq!(
            block("dim3 b(4, 2); k<<<1, b>>>(p); int n = b.x * b.y;"),
            Ok([4, 2, 1])
        );
        assert_eq!(
            block("int b = 32; int c = 1; int m = c > 0 ? b : c; k<<<1, b>>>(p);"),
            Ok([32, 1, 1]),
            "read by a conditional"
        );
        assert_eq!(block("int b = 32; { int b = 64; b++; } k<<<1, b>>>(p);"), Ok([32, 1, 1]), "an inner block's own `b`");
        assert_eq!(block("int b = 32; { int b = 64; k<<<1, b>>>(p); }"), Ok([64, 1, 1]), "the inner `b` where it is seen");
        assert_eq!(block("int b = 32; k<<<1, (b + 1) * 2>>>(p);"), Ok([66, 1, 1]), "an operand in parentheses");
        // A plain assignment in the declaration's block starts a new value from there.
        assert_eq!(block("int b = 32; b = b * 2; k<<<1, b>>>(p);"), Ok([64, 1, 1]), "reassigned before the launch");
        assert_eq!(block("int b = 32; int ix = 7; ix /= b; float r = sqrtf(b); cublasSgemm(h, b, b); float f = (float)b * 2; k<<<1, b>>>(p);"), Ok([32, 1, 1]), "compound assignments, casts, <math.h> and NVIDIA's C libraries read it");
        for changed in [
            "int b = 32; if (q) b = 64; k<<<1, b>>>(p);",
            "int b = 32; if (q) { b = 64; } k<<<1, b>>>(p);",
            "int b = 32; for (int i = 0; i < 2; i++) { b = 64; } k<<<1, b>>>(p);",
            "int b = 32; b = atoi(argv[1]); k<<<1, b>>>(p);",
            "int b = 32; b = 64; b += 1; k<<<1, b>>>(p);",
            "int b = 32; b += 1; k<<<1, b>>>(p);",
            "int b = 32; b++; k<<<1, b>>>(p);",
            "int b = 32; ++b; k<<<1, b>>>(p);",
            "int b = 32; scanf(\"%d\", &b); k<<<1, b>>>(p);",
            "int b = 32; std::cin >> b; k<<<1, b>>>(p);",
            "int b = 32; choose(b); k<<<1, b>>>(p);",
            "int b = 32; int &r = b; r = 7; k<<<1, b>>>(p);",
            "int b = 32; int c = 1; int &r = c > 0 ? b : c; r = 7; k<<<1, b>>>(p);",
            "dim3 b(4, 2); b.x = 8; k<<<1, b>>>(p);",
            "int b = atoi(argv[1]); k<<<1, b>>>(p);",
        ] {
            assert!(block(changed).is_err(), "{changed}: {:?}", block(changed));
        }
    }

    #[test]
    fn each_launch_sees_the_last_plain_assignment_before_it() {
        let (toks, _) = convert(&lex("void host() { int n = 32; k<<<n, 1>>>(p); n = n * 4; k<<<n, 1>>>(p); }").0, Dialect::Cuda);
        let grids: Vec<_> = find(&[toks], &[], &[]).0.into_iter().map(|s| s.grid).collect();
        assert_eq!(grids, [Ok([32, 1, 1]), Ok([128, 1, 1])]);
        // A parameter assigned in the body's block: its new value from there.
        let grids: Vec<_> = blocks(&["void run(int *p, int b) { k<<<1, b>>>(p); b = 16; k<<<1, b * 2>>>(p); }", "int main() { run(d, 8); }"]);
        assert_eq!(grids, [Ok([8, 1, 1]), Ok([32, 1, 1])]);
        let grids: Vec<_> = blocks(&["void run(int *p, int b) { dim3 g(b * 2); dim3 t(b); k<<<g, t>>>(p); }", "int main() { run(d, 8); }"]);
        assert_eq!(grids, [Ok([8, 1, 1])], "a parameter given to dim3's constructor is read");
        let grids: Vec<_> = blocks(&["void run(int *p, int b) { if (p) { b = 16; } k<<<1, b>>>(p); }", "int main() { run(d, 8); }"]);
        assert!(grids.iter().all(|g| g.is_err()), "{grids:?}");
    }

    /// An assignment an `if` guards whose condition the context decides takes effect or
    /// not (llm.c's `if (block_size <= 64) { block_size = 128; }`); one whose condition is
    /// not a constant leaves the value unknown.
    #[test]
    fn a_guarded_assignment_takes_effect_where_its_condition_is_a_constant() {
        let run = "void run(int *p, int b) { if (b <= 64) { b = 128; } k<<<1, b>>>(p); }";
        assert_eq!(blocks(&[run, "int main() { run(d, 32); run(d, 256); }"]), [Ok([128, 1, 1]), Ok([256, 1, 1])]);
        let run = "void run(int *p, int b) { if (b < 256) b = 256; int g = 1024 / b; k<<<g, b>>>(p); }";
        let sites = sites_among(&[run, "int main() { run(d, 64); run(d, 512); }"], &[]);
        let got: Vec<_> = sites.iter().map(|s| (s.grid.clone(), s.block.clone())).collect();
        assert_eq!(got, [(Ok([4, 1, 1]), Ok([256, 1, 1])), (Ok([2, 1, 1]), Ok([512, 1, 1]))]);
        assert_eq!(block("int b = 32; if (b > 16) b = 64; k<<<1, b>>>(p);"), Ok([64, 1, 1]), "a local");
        assert_eq!(block("int v = 50257; int b = (v + 63) & ~63; k<<<1, b / 64>>>(p);"), Ok([786, 1, 1]), "a mask");
        // llm.c's `fused_residual_forward6`: the block's shape from `max` of constants.
        let shape = "int c = 768; int w = 512 / 32; int per = max(1, c / 8 / 32); int z = max(1, w / per); int y = max(1, w / z); k<<<1, dim3(32, y, z)>>>(p);";
        assert_eq!(block(shape), Ok([32, 3, 5]), "max");
        assert_eq!(block("int b = min(1024, 96 * 16); k<<<1, b>>>(p);"), Ok([1024, 1, 1]), "min");
        for unknown in [
            "int b = 32; if (q) b = 64; k<<<1, b>>>(p);",
            "int b = 32; if (b > 16) b = 64; else b = 8; k<<<1, b>>>(p);",
            "int b = 32; if (b > 16) { b = 64; f(); } k<<<1, b>>>(p);",
        ] {
            assert!(block(unknown).is_err(), "{unknown}: {:?}", block(unknown));
        }
    }

    /// The block sizes of the launches in host functions `fns`, one per calling context.
    fn blocks(fns: &[&str]) -> Vec<Result<[u32; 3], String>> {
        sites_among(fns, &[]).into_iter().map(|s| s.block).collect()
    }

    #[test]
    fn parameters_are_constants_through_every_call_kpl_reads() {
        let run = "void run(int *d, int t) { k<<<1, t>>>(d); }";
        assert_eq!(
            blocks(&[run, "int main() { run(p, 32); run(p, 8 * 8); run(p, 32); }"]),
            [Ok([32, 1, 1]), Ok([64, 1, 1])]
        );
        assert_eq!(
            blocks(&[
                "void run(dim3 b) { k<<<1, b>>>(p); }",
                "int main() { dim3 b(4, 4); run(b); }"
            ]),
            [Ok([4, 4, 1])]
        );
        assert_eq!(
            blocks(&[
                "void run(int t) { k<<<1, t>>>(p); }",
                "void mid(int u) { run(u * 2); }",
                "int main() { mid(16); }"
            ]),
            [Ok([32, 1, 1])]
        );
        assert_eq!(
            blocks(&[
                "void show(int t) { }",
                "int main() { int b = 32; show(b); k<<<1, b>>>(p); }"
            ]),
            [Ok([32, 1, 1])],
            "passed by value"
        );
        for (what, fns) in [
            (
                "passed by reference",
                vec![
                    "void set(int &t) { t = 64; }",
                    "int main() { int b = 32; set(b); k<<<1, b>>>(p); }",
                ],
            ),
            (
                "a loop's variable",
                vec![run, "int main() { for (int i = 1; i < 4; i++) run(p, i); }"],
            ),
            (
                "changed in the callee",
                vec![
                    "void run(int t) { t *= 2; k<<<1, t>>>(p); }",
                    "int main() { run(32); }",
                ],
            ),
            (
                "shadowed in a block",
                vec![
                    "void run(int t) { { int t = 5; } k<<<1, t>>>(p); }",
                    "int main() { run(32); }",
                ],
            ),
            (
                "its address taken",
                vec![
                    run,
                    "int main() { run(p, 32); void (*f)(int *, int) = run; f(p, 64); }",
                ],
            ),
            ("never called", vec![run]),
            (
                "recursive",
                vec![
                    "void run(int t) { k<<<1, t>>>(p); if (t > 1) run(t / 2); }",
                    "int main() { run(64); }",
                ],
            ),
        ] {
            let got = blocks(&fns);
            assert!(
                !got.is_empty() && got.iter().all(|b| b.is_err()),
                "{what}: {got:?}"
            );
        }
    }

    /// The launches of host functions `fns` in a file that also holds `others` (kernels,
    /// templates: not host functions kpl reads).
    fn sites_among(fns: &[&str], others: &[&str]) -> Vec<LaunchSite> {
        let lexed = |f: &&str| convert(&lex(f).0, Dialect::Cuda).0;
        let items: Vec<Vec<Tok>> = fns.iter().map(lexed).collect();
        // Each text at its own place, as in one file.
        let mut file: Vec<Tok> = Vec::new();
        let mut at = 0;
        for toks in others.iter().map(lexed).chain(items.iter().cloned()) {
            let shift = at;
            at += toks.last().map_or(0, |t| t.2) + 1;
            file.extend(toks.into_iter().map(|(a, t, b)| (a + shift, t, b + shift)));
        }
        let start = file.len() - items.iter().map(Vec::len).sum::<usize>();
        let mut placed = Vec::new();
        let mut k = start;
        for item in &items {
            placed.push(file[k..k + item.len()].to_vec());
            k += item.len();
        }
        find(&placed, &file, &[]).0
    }

    #[test]
    fn calls_are_told_apart_by_their_arguments_and_templates_take_values() {
        let block = |fns: &[&str], others: &[&str]| sites_among(fns, others).into_iter().map(|s| s.block).collect::<Vec<_>>();
        // llm.c names a kernel's launcher after the kernel: the kernel's header and its
        // launch are no calls of the launcher, and a call of another arity calls another.
        assert_eq!(
            block(&["void k(int *d, int t) { k<<<1, t>>>(d); }", "int main() { k(p, 32); }"], &["__global__ void k(int *d) { }"]),
            [Ok([32, 1, 1])]
        );
        // A function template's parameter taken by value: `fill(p, b)` only reads `b`.
        let by_value = ["template <class T> void fill(T *x, int n) { }"];
        assert_eq!(block(&["int main() { int b = 32; fill(p, b); k<<<1, b>>>(p); }"], &by_value), [Ok([32, 1, 1])]);
        let by_reference = ["template <class T> void fill(T *x, int &n) { n = 1; }"];
        assert!(block(&["int main() { int b = 32; fill(p, b); k<<<1, b>>>(p); }"], &by_reference)[0].is_err());
        // A call of a template's instance, `show<float>(b)`, by the template's name.
        let show = ["template <class T> void show(int t) { }"];
        assert_eq!(block(&["int main() { int b = 32; show<float>(b); k<<<1, b>>>(p); }"], &show), [Ok([32, 1, 1])]);
        let show = ["template <class T> void show(int &t) { t = 2; }"];
        assert!(block(&["int main() { int b = 32; show<float>(b); k<<<1, b>>>(p); }"], &show)[0].is_err());
    }

    #[test]
    fn a_function_passed_to_a_parameter_is_called_where_the_parameter_is() {
        // llm.c's attention_backward1(..., launch_softmax_1, block_size): the callee calls
        // its parameter, so the function passed launches with the callee's arguments, in
        // each of the callee's contexts; and what the parameter's call takes by value stays
        // a constant of the callee.
        let launch = "void launch1(int *d, int b) { k<<<1, b>>>(d); }";
        let run = "void run(int *d, int n, void (*go)(int *, int), int b) { go(d, b); k2<<<n, 1>>>(d); }";
        let got = blocks(&[launch, run, "int main() { run(p, 4, launch1, 32); run(p, 4, launch1, 64); }"]);
        assert_eq!(got, [Ok([32, 1, 1]), Ok([64, 1, 1]), Ok([1, 1, 1])]);
        let grids: Vec<_> = sites_among(&[launch, run, "int main() { run(p, 4, launch1, 32); }"], &[]).into_iter().map(|s| s.grid).collect();
        assert_eq!(grids, [Ok([1, 1, 1]), Ok([4, 1, 1])]);
        // A function passed that takes the argument by reference may change it.
        let by_ref = "void launch2(int *d, int &b) { b = 7; k<<<1, b>>>(d); }";
        let run2 = "void run(int *d, int n, void (*go)(int *, int &), int b) { go(d, n); k2<<<n, 1>>>(d); }";
        let grids: Vec<_> = sites_among(&[by_ref, run2, "int main() { run(p, 4, launch2, 32); }"], &[]).into_iter().map(|s| s.grid).collect();
        assert!(grids[1].is_err(), "{grids:?}");
        // Where a caller passes something that is not a function's name, the parameter's
        // calls take nothing by value: `b`, given to `go`, is no constant of `run`.
        let got = blocks(&[launch, run, "int main() { run(p, 4, launch1, 32); run(p, 4, pick(), 8); }"]);
        assert!(got[0].is_err(), "{got:?}");
    }

    #[test]
    fn a_program_never_makes_the_launches_of_functions_it_never_calls() {
        let run = "void run(int *d, int t) { k<<<1, t>>>(d); }";
        let old = "void old(int *d) { run(d, 64); }";
        // `old` is never called: its call gives `run` no launch of 64 threads.
        let sites = sites_among(&[run, old, "int main() { run(p, 32); }"], &[]);
        assert_eq!(sites.iter().map(|s| (s.block.clone(), s.never_called_in.clone())).collect::<Vec<_>>(), [(Ok([32, 1, 1]), None)]);
        // Nothing calls `run`: its launch is never made.
        let sites = sites_among(&[run, old, "int main() { return 0; }"], &[]);
        assert!(sites.iter().all(|s| s.never_called_in.as_deref() == Some("run")), "{sites:?}");
        // Its address taken, a call from a template, or no `main` (another file may call
        // it): it may be called.
        for (fns, others) in [
            (vec![run, "int main() { void (*f)(int *, int) = run; f(p, 8); }"], vec![]),
            (vec![run, "int main() { return 0; }"], vec!["template <int N> void go(int *d) { run(d, N); }"]),
            (vec![run, old], vec![]),
        ] {
            let sites = sites_among(&fns, &others);
            assert!(!sites.is_empty() && sites.iter().all(|s| s.never_called_in.is_none()), "{fns:?} {others:?}: {sites:?}");
        }
    }

    #[test]
    fn every_launch_names_kernels_past_template_arguments_and_the_runtime_functions() {
        let (toks, _) = convert(&lex("void h() { k<<<1, 2>>>(p); t<float, 4><<<1, 2>>>(p); cudaLaunchKernel((void *)c, g, b, a, 0, 0); }").0, Dialect::Cuda);
        let names: Vec<String> = every_launch(&toks).into_iter().map(|l| l.0).collect();
        assert_eq!(names, ["k", "t", "c"]);
    }
}
