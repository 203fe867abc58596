//! The kernel's parameters and the reference's, paired by position, and the reference's
//! program renamed so that both read one set of inputs: a paired parameter or array by the
//! kernel's name, the reference's own arrays apart (`ref:` before their names).

use kpl_lang::ast::{DeclKind, Kernel};
use kpl_semantics::Program;

/// What a parameter of the core form is: a scalar word or an array of global memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Scalar,
    Array,
}

/// One pair: the kernel's name, the reference's name, what both are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub kernel: String,
    pub reference: String,
    pub kind: Kind,
}

/// A kernel's parameters in order: its params and its unsized global arrays (what the C
/// front end makes of a function's parameters, word by word).
pub fn parameters(k: &Kernel) -> Vec<(String, Kind)> {
    k.decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Param(n) => Some((n.name.clone(), Kind::Scalar)),
            DeclKind::Global { name, size: None } => Some((name.name.clone(), Kind::Array)),
            _ => None,
        })
        .collect()
}

/// The pairs, or why the two parameter lists do not match.
pub fn pair(kernel: &Kernel, reference: &Kernel) -> Result<Vec<Pair>, String> {
    let (k, r) = (parameters(kernel), parameters(reference));
    let show = |ps: &[(String, Kind)]| {
        ps.iter().map(|(n, kind)| format!("{n}{}", if *kind == Kind::Array { "[]" } else { "" })).collect::<Vec<_>>().join(", ")
    };
    if k.len() != r.len() || k.iter().zip(&r).any(|(a, b)| a.1 != b.1) {
        return Err(format!(
            "the parameters of the kernel `{}` ({}) and of the reference `{}` ({}) do not match by position",
            kernel.name.name,
            show(&k),
            reference.name.name,
            show(&r)
        ));
    }
    Ok(k.into_iter().zip(r).map(|((kn, kind), (rn, _))| Pair { kernel: kn, reference: rn, kind }).collect())
}

/// The reference's program with its paired names replaced by the kernel's and its other
/// arrays apart.
pub fn rename(p: &mut Program, pairs: &[Pair]) {
    let to_kernel = |n: &str| pairs.iter().find(|x| x.reference == n).map(|x| x.kernel.clone());
    for name in p.params.iter_mut() {
        if let Some(k) = to_kernel(name) {
            *name = k;
        }
    }
    for a in p.arrays.iter_mut() {
        a.name = match to_kernel(&a.name) {
            Some(k) => k,
            None => format!("ref:{}", a.name),
        };
    }
}
