//! `kpl crosscheck`'s sequential reference, on the token stream: a function of the file
//! (CUDA host code, or an OpenCL helper) read as a kernel of its own, to be run by one
//! thread; in CUDA the plain host functions it calls, directly or not, as device functions.

use crate::sema::host_items::{function_name, host_function, ident, is_p, items, Tok};
use crate::text::tokens::{CTok, Dialect};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::HashSet;

/// How the warning that the reference (or the kernel) computes in double precision
/// starts: `DOUBLE_WARNING` then the side.
pub const DOUBLE_WARNING: &str = "computes in double precision";

/// Specifiers a kernel does not take, dropped from the reference's head.
const DROPPED: &[&str] = &["__host__", "__device__", "__global__", "__kernel", "kernel", "static", "inline", "__forceinline__", "__noinline__", "extern"];

/// The tokens with the definition of `name` made a kernel (`__global__` or `__kernel`) and,
/// in CUDA, the plain host functions it calls made `__device__`. An error where the file
/// defines no function `name`, or its result is not `void`; a warning where they compute
/// in double precision (`DOUBLE_WARNING` starts it).
pub fn as_kernel(toks: Vec<Tok>, name: &str, dialect: Dialect, src: &str) -> (Vec<Tok>, Option<Diagnostic>, Option<Diagnostic>) {
    let ranges = items(&toks);
    let defines = |r: &std::ops::Range<usize>| {
        let item = &toks[r.clone()];
        item.last().is_some_and(|t| is_p(t, "}")) && function_name(item).is_some_and(|k| ident(&item[k]) == Some(name))
    };
    let Some(at) = ranges.iter().position(defines) else {
        let d = Diagnostic::error(format!("the file defines no function `{name}` to use as the reference"), Span::new(0, 0))
            .with_help("`--reference=F` names a sequential C function of the file (or of `--reference-file`) whose parameters match the kernel's");
        return (toks, Some(d), None);
    };
    let item = &toks[ranges[at].clone()];
    let name_at = function_name(item).unwrap_or(0);
    // (A string in a function's head is a linkage, `extern "C"`: dropped with `extern`.)
    let dropped = |t: &Tok| matches!(&t.1, CTok::Spec(s) if DROPPED.contains(&s.as_str())) || t.1 == CTok::Str;
    let head: Vec<&Tok> = item[..name_at].iter().filter(|t| !dropped(t)).collect();
    if !(head.len() == 1 && matches!(&head[0].1, CTok::Spec(s) if s == "void")) {
        let d = Diagnostic::error(format!("the reference `{name}` must return `void`: it gives its results through its pointer parameters, as the kernel does"), Span::new(item[name_at].0, item[name_at].2));
        return (toks, Some(d), None);
    }
    // CUDA: the plain host functions the reference reaches by name.
    let mut device: HashSet<usize> = HashSet::new();
    if dialect == Dialect::Cuda {
        let hosts: Vec<(usize, String)> = ranges
            .iter()
            .enumerate()
            .filter(|(i, r)| *i != at && toks[r.end - 1].1 == CTok::P("}"))
            .filter_map(|(i, r)| host_function(&toks[r.clone()]).map(|(n, _)| (i, n)))
            .collect();
        let mut todo = vec![at];
        while let Some(i) = todo.pop() {
            for t in &toks[ranges[i].clone()] {
                let Some(n) = ident(t) else { continue };
                for (j, h) in &hosts {
                    if h == n && *j != at && device.insert(*j) {
                        todo.push(*j);
                    }
                }
            }
        }
    }
    let double = precision(&toks, src, std::iter::once(at).chain(device.iter().copied()).map(|i| ranges[i].clone()), "reference", dialect);
    let kernel_word = if dialect == Dialect::Cuda { "__global__" } else { "__kernel" };
    let mut out = Vec::with_capacity(toks.len() + device.len() + 1);
    for (i, r) in ranges.iter().enumerate() {
        let first = toks[r.start].0;
        if i == at {
            out.push((first, CTok::Spec(kernel_word.into()), first));
            for (k, t) in toks[r.clone()].iter().enumerate() {
                if !(k < name_at && dropped(t)) {
                    out.push(t.clone());
                }
            }
            continue;
        }
        if device.contains(&i) {
            out.push((first, CTok::Spec("__device__".into()), first));
        }
        out.extend(toks[r.clone()].iter().cloned());
    }
    (out, None, double)
}

/// The first place where the code of `within` computes in double precision: a `double`,
/// or in CUDA a float literal without `f` (C++ reads it as a `double`; OpenCL C leaves it
/// to the device). kpl computes a `double` as a `float`, so results there may differ
/// from the C program's: a warning saying so, naming the side (`who`).
fn precision(toks: &[Tok], src: &str, within: impl Iterator<Item = std::ops::Range<usize>>, who: &str, dialect: Dialect) -> Option<Diagnostic> {
    for r in within {
        for t in &toks[r] {
            let text = src.get(t.0..t.2).unwrap_or("");
            let double = match &t.1 {
                CTok::Spec(s) => s == "double",
                CTok::Float(_) => dialect == Dialect::Cuda && !text.ends_with(['f', 'F']),
                _ => false,
            };
            if double {
                return Some(
                    Diagnostic::warning(
                        format!("the {who} {DOUBLE_WARNING} here (`{text}`): kpl computes a `double` as a `float`, so it cannot compare the C program's results bit for bit"),
                        Span::new(t.0, t.2),
                    )
                    .with_help(format!("write the {who} in `float` (`0.5f`) to crosscheck it")),
                );
            }
        }
    }
    None
}

/// Where the function `name` (the kernel), or a function of the file it calls, directly
/// or not, computes in double precision (`precision`).
pub fn kernel_precision(toks: &[Tok], src: &str, name: &str, dialect: Dialect) -> Option<Diagnostic> {
    let ranges = items(toks);
    let defs: Vec<(usize, &str)> = ranges
        .iter()
        .enumerate()
        .filter(|(_, r)| toks[r.end - 1].1 == CTok::P("}"))
        .filter_map(|(i, r)| function_name(&toks[r.clone()]).and_then(|k| ident(&toks[r.start + k])).map(|n| (i, n)))
        .collect();
    let start = defs.iter().find(|(_, n)| *n == name)?.0;
    let mut seen: HashSet<usize> = HashSet::from([start]);
    let mut todo = vec![start];
    while let Some(i) = todo.pop() {
        for t in &toks[ranges[i].clone()] {
            let Some(n) = ident(t) else { continue };
            for (j, d) in &defs {
                if *d == n && seen.insert(*j) {
                    todo.push(*j);
                }
            }
        }
    }
    let mut within: Vec<usize> = seen.into_iter().collect();
    within.sort_unstable();
    precision(toks, src, within.into_iter().map(|i| ranges[i].clone()), "kernel", dialect)
}
