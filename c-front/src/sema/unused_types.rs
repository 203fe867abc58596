//! Host types in a CUDA file: a file-scope `struct`, `class`, `union` or `typedef` that no
//! device code names, directly or through another type device code names, is host code
//! (`struct TGPUplan { cudaStream_t stream; ... }`, a DirectX vertex struct) and is skipped
//! with a warning, like host functions (`templates.rs`). Leaving out a type nothing in the
//! kernels names changes no kernel; it spares the file's host types the C subset's rules.
//! Enumerations are always kept (their constants are names of their own).

use crate::sema::coop::ident;
use crate::text::tokens::CTok;
use kpl_lang::span::Span;
use std::collections::HashSet;

type Tok = (usize, CTok, usize);

/// A type definition that may be host code: the names it declares (the identifiers outside
/// its braces: the tag, typedef names, variables declared with it), with their places.
fn declared(item: &[Tok]) -> Option<Vec<(&str, Span)>> {
    if !matches!(item.first().map(|t| &t.1), Some(CTok::Kw("struct" | "class" | "union" | "typedef"))) {
        return None;
    }
    if item.iter().any(|t| matches!(t.1, CTok::Kw("enum"))) {
        return None;
    }
    // `typedef unsigned long size_t;`: a name kpl predefines, which `typedecls.rs` checks.
    if matches!(item.iter().rev().nth(1).map(|t| &t.1), Some(CTok::Spec(w)) if crate::sema::typedecls::PREDEFINED_SIZES.contains(&w.as_str())) {
        return None;
    }
    let mut depth = 0usize;
    let mut names = Vec::new();
    for t in item {
        match &t.1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            // A variable in a memory space of the device is device code.
            CTok::Spec(w) if depth == 0 && matches!(w.as_str(), "__device__" | "__constant__" | "__shared__" | "__managed__") => return None,
            CTok::Ident(w) if depth == 0 => names.push((w.as_str(), Span::new(t.0, t.2))),
            _ => {}
        }
    }
    Some(names)
}

/// The names an item uses: its identifiers, and `C` for a member's name `C__m`
/// (`namespaces.rs`).
fn uses<'a>(item: &'a [Tok], into: &mut HashSet<&'a str>) {
    for t in item {
        if let Some(w) = ident(Some(t)) {
            into.insert(w);
            if let Some((class, _)) = w.split_once("__").filter(|(c, _)| !c.is_empty()) {
                into.insert(class);
            }
        }
    }
}

/// For each item: `Some((names, span))` where it is a type definition no other kept item
/// names (to skip), else `None`. `also`: further code whose names count as used (the
/// file's templates).
pub(crate) fn unused<'a>(items: &[&'a [Tok]], also: &[&'a [Tok]]) -> Vec<Option<(String, Span)>> {
    let decls: Vec<Option<Vec<(&str, Span)>>> = items.iter().map(|i| declared(i)).collect();
    let mut used: HashSet<&str> = HashSet::new();
    for item in also {
        uses(item, &mut used);
    }
    for (item, d) in items.iter().zip(&decls) {
        if d.is_none() {
            uses(item, &mut used);
        }
    }
    // Types that used types name are used: until nothing changes.
    let mut kept = vec![false; items.len()];
    loop {
        let mut changed = false;
        for (k, d) in decls.iter().enumerate() {
            if let Some(names) = d {
                if !kept[k] && names.iter().any(|(n, _)| used.contains(n)) {
                    kept[k] = true;
                    changed = true;
                    uses(items[k], &mut used);
                }
            }
        }
        if !changed {
            break;
        }
    }
    decls
        .iter()
        .zip(items)
        .zip(&kept)
        .map(|((d, item), kept)| {
            let names = d.as_ref().filter(|_| !kept)?;
            let at = names.first().map_or_else(|| Span::new(item[0].0, item[0].2), |n| n.1);
            let shown = if names.is_empty() { "(unnamed)".to_string() } else { names.iter().map(|(n, _)| format!("`{n}`")).collect::<Vec<_>>().join(", ") };
            Some((shown, at))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::lexer::lex;
    use crate::text::tokens::{convert, Dialect};

    #[test]
    fn types_no_device_code_names_are_host_code() {
        let srcs = [
            "typedef struct { cudaStream_t s; float *d; } Plan;",
            "struct V { float x; };",
            "typedef struct V *PV;",
            "struct W { PV p; };",
            "enum Mode { A, B };",
            "__global__ void k(struct W *w) { w->p = 0; }",
        ];
        let toks: Vec<Vec<Tok>> = srcs.iter().map(|s| convert(&lex(s).0, Dialect::Cuda).0).collect();
        let items: Vec<&[Tok]> = toks.iter().map(|t| t.as_slice()).collect();
        let skipped: Vec<Option<String>> = unused(&items, &[]).into_iter().map(|u| u.map(|u| u.0)).collect();
        assert_eq!(skipped, [Some("`Plan`".to_string()), None, None, None, None, None]);
    }
}
