//! Cooperative groups' warp tiles, on the token stream (after namespaces are flattened): a
//! variable `thread_block_tile<N> t = tiled_partition<N>(g);` (or `auto t = ...`), N a power
//! of two up to 32, is the N consecutive lanes of a warp holding the thread. Its declaration
//! is dropped and its members become the warp intrinsics on the tile's lanes: `t.shfl(v, i)`,
//! `shfl_up`, `shfl_down`, `shfl_xor` (width N), `any`, `all`, `ballot` (bits from the tile's
//! first lane), `sync()` and `sync(t)` (`__syncwarp`), `thread_rank()`, `size()`/`num_threads()`,
//! `meta_group_rank()`, `meta_group_size()`; the mask is the tile's lanes. `reduce(t, v,
//! op)` (`cg::reduce`) with `plus`, `less`, `greater`, `bit_and`, `bit_or` or `bit_xor` is
//! the matching `__reduce_*_sync` on the tile's lanes (as `__cg_reduce_*_sync`, which also
//! takes floats). Other members stay and are reported.

use crate::sema::coop::{LINEAR, close_of, drop_item, ident, is_p, snippet};
use crate::text::tokens::CTok;

type Tok = (usize, CTok, usize);

/// `< N >` at `i`: N, a power of two from 1 to 32.
fn size_arg(toks: &[Tok], i: usize) -> Option<u64> {
    match (is_p(toks.get(i), "<"), toks.get(i + 1).map(|t| &t.1), is_p(toks.get(i + 2), ">")) {
        (true, Some(CTok::Int(n, _)), true) if (1..=32).contains(n) && n.is_power_of_two() => Some(*n),
        _ => None,
    }
}

/// `cg::reduce`'s operation `OP<T>()` (or `OP<T>{}`) ending just before the call's closing
/// `)` at `close`, after the call's first argument at `start`: the warp reduction it is and
/// the index of the `,` before it.
fn reduce_op(toks: &[Tok], start: usize, close: usize) -> Option<(&'static str, usize)> {
    let empty = |open: &str, shut: &str| is_p(toks.get(close - 1), shut) && is_p(toks.get(close - 2), open);
    if !((empty("(", ")") || empty("{", "}")) && is_p(toks.get(close - 3), ">")) {
        return None;
    }
    let lt = (start..close - 3).rev().find(|&k| is_p(toks.get(k), "<"))?;
    let name = match ident(toks.get(lt.checked_sub(1)?))? {
        "plus" => "add",
        "less" => "min",
        "greater" => "max",
        "bit_and" => "and",
        "bit_or" => "or",
        "bit_xor" => "xor",
        _ => return None,
    };
    let comma = lt.checked_sub(2).filter(|&c| c > start)?;
    is_p(toks.get(comma), ",").then_some((name, comma))
}

/// `tiled_partition < N > ( ... ) ;` at `i`: N and the index past the `;`.
fn partition(toks: &[Tok], i: usize) -> Option<(u64, usize)> {
    if ident(toks.get(i)) != Some("tiled_partition") {
        return None;
    }
    let n = size_arg(toks, i + 1)?;
    if !is_p(toks.get(i + 4), "(") {
        return None;
    }
    let end = close_of(toks, i + 4)?;
    is_p(toks.get(end), ";").then_some((n, end + 1))
}

/// The first lane of the thread's tile of `n` lanes.
fn first_lane(n: u64) -> String {
    format!("( {LINEAR} % 32 / {n} * {n} )")
}

/// The lanes of the thread's tile of `n` lanes, as a warp mask.
fn tile_mask(n: u64) -> String {
    format!("( {} << {} )", u32::MAX >> (32 - n), first_lane(n))
}

/// The token stream with warp tiles as warp intrinsics (see the module doc).
pub fn lower(toks: Vec<Tok>) -> Vec<Tok> {
    if !toks.iter().any(|t| matches!(&t.1, CTok::Ident(w) if w == "tiled_partition")) {
        return toks;
    }
    let mut tiles: Vec<(String, u64)> = Vec::new();
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    // The `)` of a rewritten call whose arguments are still being read (nested tile calls
    // in them are rewritten too), with what replaces it.
    // (And where to go on: past the `)`, or past the call for `reduce`.)
    let mut pending: Vec<(usize, Vec<Tok>, usize)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if pending.last().is_some_and(|p| p.0 == i) {
            let (_, tail, resume) = pending.pop().unwrap_or_default();
            out.extend(tail);
            i = resume;
            continue;
        }
        let t = &toks[i];
        // `reduce(t, v, plus<int>())`: `__reduce_add_sync(mask, v)`, `v` rewritten as it is read.
        if let (Some("reduce"), true) = (ident(Some(t)), is_p(toks.get(i + 1), "(")) {
            let n = ident(toks.get(i + 2)).and_then(|g| tiles.iter().rev().find(|(x, _)| x == g).map(|(_, s)| *s));
            if let (Some(n), true, Some(end)) = (n, is_p(toks.get(i + 3), ","), close_of(&toks, i + 1)) {
                if let Some((op, comma)) = reduce_op(&toks, i + 4, end - 1) {
                    let (l, r) = (t.0, toks[end - 1].2);
                    out.extend(snippet(&format!("__cg_reduce_{op}_sync ( {} ,", tile_mask(n)), l, r));
                    // (With the tile's size last: a float reduction's result is one value
                    // in the whole tile, `warp.rs`.)
                    pending.push((comma, snippet(&format!(", {n} )"), l, r), end));
                    i += 4;
                    continue;
                }
            }
        }
        // `thread_block_tile<N> t = tiled_partition<N>(g);` or `auto t = ...;`: dropped.
        let decl = match ident(Some(t)) {
            Some("thread_block_tile") => size_arg(&toks, i + 1).map(|n| (Some(n), i + 4)),
            Some("auto") => Some((None, i + 1)),
            _ => None,
        };
        if let Some((declared, at)) = decl {
            if let (Some(name), true) = (ident(toks.get(at)), is_p(toks.get(at + 1), "=")) {
                if let Some((n, next)) = partition(&toks, at + 2) {
                    if declared.is_none_or(|d| d == n) {
                        tiles.push((name.to_string(), n));
                        i = next;
                        continue;
                    }
                }
            }
        }
        // A parameter `thread_block_tile<N> t` (also `const ... &t`): dropped with a comma;
        // the function's `t` is that tile.
        if ident(Some(t)) == Some("thread_block_tile") {
            if let Some(n) = size_arg(&toks, i + 1) {
                let at = if is_p(toks.get(i + 4), "&") { i + 5 } else { i + 4 };
                if let (Some(name), Some(next)) = (ident(toks.get(at)), toks.get(at + 1)) {
                    if matches!(next.1, CTok::P(",") | CTok::P(")")) {
                        if matches!(out.last().map(|t| &t.1), Some(CTok::Spec(w)) if w == "const") {
                            out.pop();
                        }
                        tiles.push((name.to_string(), n));
                        drop_item(&mut out, &toks, &mut i, at + 1);
                        continue;
                    }
                }
            }
        }
        let tile_named = |k: usize| ident(toks.get(k)).and_then(|n| tiles.iter().rev().find(|(g, _)| g == n).map(|(_, s)| *s));
        // `sync(t)` (`cg::sync`) of a tile: the tile's `sync()`.
        if let (Some("sync"), true, Some(n), true) = (ident(Some(t)), is_p(toks.get(i + 1), "("), tile_named(i + 2), is_p(toks.get(i + 3), ")")) {
            out.extend(snippet(&format!("__syncwarp ( {} )", tile_mask(n)), t.0, toks[i + 3].2));
            i += 4;
            continue;
        }
        let tile = tile_named(i);
        // A tile passed to a function (its parameter is dropped): dropped too.
        if tile.is_some() && (is_p(out.last(), "(") || is_p(out.last(), ",")) && (is_p(toks.get(i + 1), ",") || is_p(toks.get(i + 1), ")")) {
            let next = i + 1;
            drop_item(&mut out, &toks, &mut i, next);
            continue;
        }
        if let (Some(n), true, Some(member), true) = (tile, is_p(toks.get(i + 1), "."), ident(toks.get(i + 2)), is_p(toks.get(i + 3), "(")) {
            if let Some(end) = close_of(&toks, i + 3) {
                let no_args = end == i + 5;
                let (l, r) = (t.0, toks[end - 1].2);
                // A call whose arguments stay: its head now, its tail at its `)`.
                let (mask, first) = (tile_mask(n), first_lane(n));
                let call = match member {
                    "shfl" | "shfl_up" | "shfl_down" | "shfl_xor" if !no_args => {
                        Some((format!("__{member}_sync ( {mask} ,"), format!(", {n} )")))
                    }
                    "ballot" if !no_args => Some((format!("( __ballot_sync ( {mask} ,"), format!(") >> {first} )"))),
                    "any" | "all" if !no_args => Some((format!("( __{member}_sync ( {mask} ,"), ") )".to_string())),
                    _ => None,
                };
                if let Some((head, tail)) = call {
                    out.extend(snippet(&head, l, r));
                    pending.push((end - 1, snippet(&tail, l, r), end));
                    i += 4;
                    continue;
                }
                let whole = match member {
                    "sync" if no_args => Some(format!("__syncwarp ( {mask} )")),
                    "thread_rank" if no_args => Some(format!("( {LINEAR} % {n} )")),
                    "meta_group_rank" if no_args => Some(format!("( {LINEAR} / {n} )")),
                    "size" | "num_threads" if no_args => Some(format!("{n}")),
                    "meta_group_size" if no_args => {
                        Some(format!("( ( blockDim . x * blockDim . y * blockDim . z + {} ) / {n} )", n - 1))
                    }
                    _ => None,
                };
                if let Some(text) = whole {
                    out.extend(snippet(&text, l, r));
                    i = end;
                    continue;
                }
            }
        }
        out.push(t.clone());
        i += 1;
    }
    out
}
