//! The kernel's parameters and the reference's, paired by position, and the reference's
//! program renamed so that both read one set of inputs: a paired parameter or array by the
//! kernel's name, the reference's own arrays and params apart (`ref:` before their names).

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

/// The pairs, and the words one side has beyond the other's (a `size_t` against a `uint`:
/// the high word of a 64-bit integer), by side (`true`: the kernel's), which are 0.
pub struct Pairing {
    pub pairs: Vec<Pair>,
    pub zero_words: Vec<(bool, String)>,
}

/// A kernel's parameters in order, one group of words per C parameter (the C front end
/// gives each word of a parameter the parameter's span): its params and its unsized global
/// arrays.
pub fn parameters(k: &Kernel) -> Vec<Vec<(String, Kind)>> {
    let mut groups: Vec<(kpl_lang::Span, Vec<(String, Kind)>)> = Vec::new();
    for d in &k.decls {
        let word = match &d.kind {
            DeclKind::Param(n) => (n.name.clone(), Kind::Scalar),
            DeclKind::Global { name, size: None } => (name.name.clone(), Kind::Array),
            _ => continue,
        };
        match groups.last_mut() {
            Some((sp, g)) if *sp == d.span => g.push(word),
            _ => groups.push((d.span, vec![word])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// The pairs, or why the two parameter lists do not match: C parameter by C parameter, an
/// array with an array, scalar words with scalar words from the low one (the wider side's
/// extra word is 0).
pub fn pair(kernel: &Kernel, reference: &Kernel) -> Result<Pairing, String> {
    let (k, r) = (parameters(kernel), parameters(reference));
    let show = |ps: &[Vec<(String, Kind)>]| {
        ps.iter()
            .map(|g| g.iter().map(|(n, kind)| format!("{n}{}", if *kind == Kind::Array { "[]" } else { "" })).collect::<Vec<_>>().join("+"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let shape = |g: &[(String, Kind)]| g.iter().map(|w| w.1).collect::<Vec<Kind>>();
    let fits = |a: &[(String, Kind)], b: &[(String, Kind)]| {
        shape(a) == shape(b) || (a.iter().chain(b).all(|w| w.1 == Kind::Scalar) && a.len().max(b.len()) <= 2)
    };
    if k.len() != r.len() || k.iter().zip(&r).any(|(a, b)| !fits(a, b)) {
        return Err(format!(
            "the parameters of the kernel `{}` ({}) and of the reference `{}` ({}) do not match by position",
            kernel.name.name,
            show(&k),
            reference.name.name,
            show(&r)
        ));
    }
    let mut out = Pairing { pairs: Vec::new(), zero_words: Vec::new() };
    for (a, b) in k.iter().zip(&r) {
        for (i, (kn, kind)) in a.iter().enumerate() {
            match b.get(i) {
                Some((rn, _)) => out.pairs.push(Pair { kernel: kn.clone(), reference: rn.clone(), kind: *kind }),
                None => out.zero_words.push((true, kn.clone())),
            }
        }
        for (rn, _) in b.iter().skip(a.len()) {
            out.zero_words.push((false, rn.clone()));
        }
    }
    Ok(out)
}

/// The reference's program with its paired names replaced by the kernel's and its other
/// arrays and params apart.
pub fn rename(p: &mut Program, pairs: &[Pair]) {
    let to_kernel = |n: &str| pairs.iter().find(|x| x.reference == n).map(|x| x.kernel.clone());
    for name in p.params.iter_mut() {
        *name = match to_kernel(name) {
            Some(k) => k,
            None => format!("ref:{name}"),
        };
    }
    for a in p.arrays.iter_mut() {
        a.name = match to_kernel(&a.name) {
            Some(k) => k,
            None => format!("ref:{}", a.name),
        };
    }
}

/// Require a param of `p` to be 0 (a wider side's extra word): a precondition.
pub fn pin_zero(p: &mut Program, name: &str) {
    use kpl_semantics::ir::Ex;
    if let Some(i) = p.params.iter().position(|n| n == name) {
        let e = Ex::Bin(kpl_lang::ast::BinOp::Eq, Box::new(Ex::Param(i as u32)), Box::new(Ex::Const(0)));
        p.requires.push((e, kpl_lang::Span::new(0, 0)));
    }
}
