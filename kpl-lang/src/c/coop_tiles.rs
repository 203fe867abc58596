//! Cooperative groups' warp tiles, on the token stream (after namespaces are flattened): a
//! variable `thread_block_tile<N> t = tiled_partition<N>(g);` (or `auto t = ...`), N a power
//! of two up to 32, is the N consecutive lanes of a warp holding the thread. Its declaration
//! is dropped and its members become the warp intrinsics on the tile's lanes: `t.shfl(v, i)`,
//! `shfl_up`, `shfl_down`, `shfl_xor` (width N), `any`, `all`, `ballot` (bits from the tile's
//! first lane), `sync()` (`__syncwarp`), `thread_rank()`, `size()`/`num_threads()`,
//! `meta_group_rank()`, `meta_group_size()`; the mask is the tile's lanes. Other members stay
//! and are reported.

use super::tokens::CTok;

type Tok = (usize, CTok, usize);

fn is_p(t: Option<&Tok>, p: &str) -> bool {
    matches!(t.map(|t| &t.1), Some(CTok::P(q)) if *q == p)
}

fn ident(t: Option<&Tok>) -> Option<&str> {
    match t.map(|t| &t.1) {
        Some(CTok::Ident(w)) | Some(CTok::Spec(w)) => Some(w.as_str()),
        _ => None,
    }
}

/// `< N >` at `i`: N, a power of two from 1 to 32.
fn size_arg(toks: &[Tok], i: usize) -> Option<u64> {
    match (is_p(toks.get(i), "<"), toks.get(i + 1).map(|t| &t.1), is_p(toks.get(i + 2), ">")) {
        (true, Some(CTok::Int(n, _)), true) if (1..=32).contains(n) && n.is_power_of_two() => Some(*n),
        _ => None,
    }
}

/// The index just past the `)` that closes the `(` at `open`.
fn close_of(toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match &t.1 {
            CTok::P("(") => depth += 1,
            CTok::P(")") => {
                depth -= 1;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
            _ => {}
        }
    }
    None
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

/// Drop a parameter or argument that ends before `next` (a `,` or a `)`): with the comma
/// after it, or, last in its list, with the comma before it.
fn drop_item(out: &mut Vec<Tok>, toks: &[Tok], i: &mut usize, next: usize) {
    if is_p(toks.get(next), ",") {
        *i = next + 1;
    } else {
        if is_p(out.last(), ",") {
            out.pop();
        }
        *i = next;
    }
}

/// Writes C tokens at one source place.
struct Out<'a> {
    out: &'a mut Vec<Tok>,
    l: usize,
    r: usize,
}

impl Out<'_> {
    fn p(&mut self, p: &'static str) {
        self.out.push((self.l, CTok::P(p), self.r));
    }
    fn id(&mut self, s: &str) {
        self.out.push((self.l, CTok::Ident(s.to_string()), self.r));
    }
    fn int(&mut self, n: u64) {
        self.out.push((self.l, CTok::Int(n, true), self.r));
    }
    fn dim(&mut self, v: &str, a: &str) {
        self.id(v);
        self.p(".");
        self.id(a);
    }
    /// `(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))`.
    fn linear(&mut self) {
        self.p("(");
        self.dim("threadIdx", "x");
        self.p("+");
        self.dim("blockDim", "x");
        self.p("*");
        self.p("(");
        self.dim("threadIdx", "y");
        self.p("+");
        self.dim("blockDim", "y");
        self.p("*");
        self.dim("threadIdx", "z");
        self.p(")");
        self.p(")");
    }
    /// `(linear % 32 / n * n)`: the tile's first lane.
    fn base(&mut self, n: u64) {
        self.p("(");
        self.linear();
        self.p("%");
        self.int(32);
        self.p("/");
        self.int(n);
        self.p("*");
        self.int(n);
        self.p(")");
    }
    /// The tile's lanes as a warp mask.
    fn mask(&mut self, n: u64) {
        self.p("(");
        self.int((u32::MAX >> (32 - n)) as u64);
        self.p("<<");
        self.base(n);
        self.p(")");
    }
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
    let mut pending: Vec<(usize, Vec<Tok>)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if pending.last().is_some_and(|p| p.0 == i) {
            let (_, tail) = pending.pop().unwrap_or_default();
            out.extend(tail);
            i += 1;
            continue;
        }
        let t = &toks[i];
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
        let tile = ident(Some(t)).and_then(|n| tiles.iter().rev().find(|(g, _)| g == n).map(|(_, s)| *s));
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
                let mut head = Vec::new();
                let mut tail = Vec::new();
                match member {
                    "shfl" | "shfl_up" | "shfl_down" | "shfl_xor" if !no_args => {
                        let mut o = Out { out: &mut head, l, r };
                        o.id(&format!("__{member}_sync"));
                        o.p("(");
                        o.mask(n);
                        o.p(",");
                        let mut o = Out { out: &mut tail, l, r };
                        o.p(",");
                        o.int(n);
                        o.p(")");
                    }
                    "any" | "all" | "ballot" if !no_args => {
                        let mut o = Out { out: &mut head, l, r };
                        o.p("(");
                        o.id(&format!("__{member}_sync"));
                        o.p("(");
                        o.mask(n);
                        o.p(",");
                        let mut o = Out { out: &mut tail, l, r };
                        o.p(")");
                        if member == "ballot" {
                            o.p(">>");
                            o.base(n);
                        }
                        o.p(")");
                    }
                    _ => {}
                }
                if !head.is_empty() {
                    out.extend(head);
                    pending.push((end - 1, tail));
                    i += 4;
                    continue;
                }
                let mut o = Out { out: &mut out, l, r };
                let done = match member {
                    "sync" if no_args => {
                        o.id("__syncwarp");
                        o.p("(");
                        o.mask(n);
                        o.p(")");
                        true
                    }
                    "thread_rank" | "meta_group_rank" if no_args => {
                        o.p("(");
                        o.linear();
                        o.p(if member == "thread_rank" { "%" } else { "/" });
                        o.int(n);
                        o.p(")");
                        true
                    }
                    "size" | "num_threads" if no_args => {
                        o.int(n);
                        true
                    }
                    "meta_group_size" if no_args => {
                        o.p("(");
                        o.p("(");
                        o.dim("blockDim", "x");
                        o.p("*");
                        o.dim("blockDim", "y");
                        o.p("*");
                        o.dim("blockDim", "z");
                        o.p("+");
                        o.int(n - 1);
                        o.p(")");
                        o.p("/");
                        o.int(n);
                        o.p(")");
                        true
                    }
                    _ => false,
                };
                if done {
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
