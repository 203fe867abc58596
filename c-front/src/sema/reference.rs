//! `kpl crosscheck`'s sequential reference, on the token stream: a function of the file
//! (CUDA host code, or an OpenCL helper) read as a kernel of its own, to be run by one
//! thread; in CUDA the plain host functions it calls, directly or not, as device functions.

use crate::sema::host_items::{function_name, host_function, ident, is_p, items, Tok};
use crate::text::tokens::{CTok, Dialect};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::HashSet;

/// How the warning that the reference computes in double precision starts.
pub const DOUBLE_WARNING: &str = "the reference computes in double precision";

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
    let head: Vec<&Tok> = item[..name_at].iter().filter(|t| !matches!(&t.1, CTok::Spec(s) if DROPPED.contains(&s.as_str()))).collect();
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
    // kpl computes a `double` as a `float`: where the reference computes in double
    // precision (a `double`, or a literal without `f`, which C reads as one), its results
    // may differ from the C program's.
    let mut double = None;
    for i in std::iter::once(at).chain(device.iter().copied()) {
        for t in &toks[ranges[i].clone()] {
            let text = src.get(t.0..t.2).unwrap_or("");
            let is_double = match &t.1 {
                CTok::Spec(s) => s == "double",
                CTok::Float(_) => !text.ends_with(['f', 'F']),
                _ => false,
            };
            if is_double && double.is_none() {
                double = Some(Diagnostic::warning(
                    format!("{DOUBLE_WARNING} here (`{text}`): kpl computes a `double` as a `float`, so it cannot compare the C program's results bit for bit"),
                    Span::new(t.0, t.2),
                ).with_help("write the reference in `float` (`0.5f`) to crosscheck it"));
            }
        }
    }
    let kernel_word = if dialect == Dialect::Cuda { "__global__" } else { "__kernel" };
    let mut out = Vec::with_capacity(toks.len() + device.len() + 1);
    for (i, r) in ranges.iter().enumerate() {
        let first = toks[r.start].0;
        if i == at {
            out.push((first, CTok::Spec(kernel_word.into()), first));
            for (k, t) in toks[r.clone()].iter().enumerate() {
                if !(k < name_at && matches!(&t.1, CTok::Spec(s) if DROPPED.contains(&s.as_str()))) {
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
