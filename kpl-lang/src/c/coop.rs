//! CUDA's cooperative groups, on the token stream (after namespaces are flattened): a
//! `thread_block` or `grid_group` variable initialised from `this_thread_block()` or
//! `this_grid()` names the block or the grid; its `sync()`, `sync(g)` and `synchronize(g)`
//! (and `this_thread_block().sync()`, `this_grid().sync()`) are barriers: a block's is
//! `__syncthreads()`, the grid's `__kpl_grid_sync()`, which the lowering makes KPL's grid
//! barrier (`barrier grid;`).
//! The variable's declaration is dropped; any other use of it stays and is reported.

use super::tokens::CTok;

type Tok = (usize, CTok, usize);

/// The call a grid-wide synchronisation becomes.
pub(super) const GRID_SYNC: &str = "__kpl_grid_sync";

pub(super) fn is_p(t: Option<&Tok>, p: &str) -> bool {
    matches!(t.map(|t| &t.1), Some(CTok::P(q)) if *q == p)
}

pub(super) fn ident(t: Option<&Tok>) -> Option<&str> {
    match t.map(|t| &t.1) {
        Some(CTok::Ident(w)) | Some(CTok::Spec(w)) => Some(w.as_str()),
        _ => None,
    }
}

/// The barrier `this_thread_block`/`this_grid` synchronise with.
fn barrier_of(maker: &str) -> Option<&'static str> {
    match maker {
        "this_thread_block" => Some("__syncthreads"),
        "this_grid" => Some(GRID_SYNC),
        _ => None,
    }
}

/// `maker ( )` at `i`: its barrier.
fn group_call(toks: &[Tok], i: usize) -> Option<&'static str> {
    let b = barrier_of(ident(toks.get(i))?)?;
    (is_p(toks.get(i + 1), "(") && is_p(toks.get(i + 2), ")")).then_some(b)
}

/// The token stream with cooperative groups' barriers as calls (see the module doc).
pub fn lower(toks: Vec<Tok>) -> Vec<Tok> {
    if !toks.iter().any(|t| matches!(&t.1, CTok::Ident(w) if w == "this_thread_block" || w == "this_grid")) {
        return toks;
    }
    let mut groups: Vec<(String, &'static str)> = Vec::new();
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut i = 0;
    let call = |out: &mut Vec<Tok>, name: &str, l: usize, r: usize| {
        out.extend([(l, CTok::Ident(name.to_string()), r), (l, CTok::P("("), r), (l, CTok::P(")"), r)]);
    };
    while i < toks.len() {
        let t = &toks[i];
        let l = t.0;
        // `thread_block g = this_thread_block();` (or `grid_group`, `auto`): dropped.
        if matches!(ident(Some(t)), Some("thread_block" | "grid_group" | "auto")) && is_p(toks.get(i + 2), "=") {
            if let (Some(name), Some(b)) = (ident(toks.get(i + 1)), group_call(&toks, i + 3)) {
                if is_p(toks.get(i + 6), ";") {
                    groups.push((name.to_string(), b));
                    i += 7;
                    continue;
                }
            }
        }
        // `this_thread_block().sync()`.
        if let Some(b) = group_call(&toks, i) {
            if is_p(toks.get(i + 3), ".") && ident(toks.get(i + 4)) == Some("sync") && is_p(toks.get(i + 5), "(") && is_p(toks.get(i + 6), ")") {
                call(&mut out, b, l, toks[i + 6].2);
                i += 7;
                continue;
            }
        }
        let group = |n: Option<&str>| n.and_then(|n| groups.iter().find(|(g, _)| g == n).map(|(_, b)| *b));
        // `g.sync()`.
        if let Some(b) = group(ident(Some(t))) {
            if is_p(toks.get(i + 1), ".") && ident(toks.get(i + 2)) == Some("sync") && is_p(toks.get(i + 3), "(") && is_p(toks.get(i + 4), ")") {
                call(&mut out, b, l, toks[i + 4].2);
                i += 5;
                continue;
            }
        }
        // `sync(g)`, `synchronize(g)`.
        if matches!(ident(Some(t)), Some("sync" | "synchronize")) && is_p(toks.get(i + 1), "(") && is_p(toks.get(i + 3), ")") {
            if let Some(b) = group(ident(toks.get(i + 2))) {
                call(&mut out, b, l, toks[i + 3].2);
                i += 4;
                continue;
            }
        }
        out.push(t.clone());
        i += 1;
    }
    out
}
