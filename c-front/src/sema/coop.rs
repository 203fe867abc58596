//! CUDA's cooperative groups, on the token stream (after namespaces are flattened): a
//! `thread_block` or `grid_group` variable initialised from `this_thread_block()` or
//! `this_grid()`, or a function parameter of one of those types (`cg::thread_block cta`,
//! `const grid_group &g`), names the block or the grid. Its declaration is dropped, and so
//! is the parameter, and the group wherever it is a whole argument of a call (the callee's
//! parameter is gone: a function is inlined per call, and a block or grid is the same for
//! every call). Its `sync()`, `sync(g)` and `synchronize(g)` (and `this_thread_block().sync()`,
//! `this_grid().sync()`) are barriers: a block's is `__syncthreads()`, the grid's
//! `__kpl_grid_sync()`, which the lowering makes KPL's grid barrier (`barrier grid;`). Its
//! members are the ids they stand for: a block's `thread_rank()` (the linear id in the
//! block), `size()`/`num_threads()`, `thread_index()`, `group_index()`, `group_dim()`/
//! `dim_threads()`; the grid's `thread_rank()`, `size()`/`num_threads()`, `block_rank()`,
//! `num_blocks()`, `block_index()`, `dim_blocks()`, `is_valid()`.
//! Any other use of a group stays and is reported. A `thread_group` (a block or a tile,
//! told only by the caller) is not read.

use crate::text::tokens::CTok;

type Tok = (usize, CTok, usize);

/// The call a grid-wide synchronisation becomes.
pub(crate) const GRID_SYNC: &str = "__kpl_grid_sync";

pub(crate) fn is_p(t: Option<&Tok>, p: &str) -> bool {
    matches!(t.map(|t| &t.1), Some(CTok::P(q)) if *q == p)
}

pub(crate) fn ident(t: Option<&Tok>) -> Option<&str> {
    match t.map(|t| &t.1) {
        Some(CTok::Ident(w)) | Some(CTok::Spec(w)) => Some(w.as_str()),
        _ => None,
    }
}

/// The index of the bracket that closes the one at `open` (`typedecls::closing`'s), `None`
/// where it is not closed.
pub(crate) fn closing(toks: &[Tok], open: usize) -> Option<usize> {
    toks.get(open)?;
    let c = crate::sema::typedecls::closing(toks, open);
    (c < toks.len()).then_some(c)
}

/// A token's place in the source.
pub(crate) fn span_of(t: &Tok) -> kpl_lang::span::Span {
    kpl_lang::span::Span::new(t.0, t.2)
}

/// The index just past the `)` that closes the `(` at `open`.
pub(crate) fn close_of(toks: &[Tok], open: usize) -> Option<usize> {
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

/// Split tokens at the commas outside brackets.
pub(crate) fn split_commas(toks: &[Tok]) -> Vec<&[Tok]> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, t) in toks.iter().enumerate() {
        match t.1 {
            CTok::P("(" | "[" | "{") => depth += 1,
            CTok::P(")" | "]" | "}") => depth -= 1,
            CTok::P(",") if depth == 0 => {
                out.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < toks.len() || !out.is_empty() {
        out.push(&toks[start..]);
    }
    out
}

/// The file-scope function heads of `toks`: the index of each `(` that follows an
/// identifier outside any braces (a declaration or definition, or a call at file scope),
/// with that identifier.
pub(crate) fn file_scope_heads(toks: &[Tok]) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    for i in 0..toks.len() {
        match &toks[i].1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            CTok::P("(") if depth == 0 && i > 0 => out.extend(ident(toks.get(i - 1)).map(|n| (i, n))),
            _ => {}
        }
    }
    out
}

/// Drop a parameter or argument that ends before `next` (a `,` or a `)`): with the comma
/// after it, or, last in its list, with the comma before it.
pub(crate) fn drop_item(out: &mut Vec<Tok>, toks: &[Tok], i: &mut usize, next: usize) {
    if is_p(toks.get(next), ",") {
        *i = next + 1;
    } else {
        if is_p(out.last(), ",") {
            out.pop();
        }
        *i = next;
    }
}

/// The punctuation the snippets below use.
const PUNCT: [&str; 10] = ["(", ")", "+", "*", "%", "/", "<<", ">>", ".", ","];

/// The tokens of a C snippet whose tokens are separated by spaces, all at one source place
/// (numbers are unsigned).
pub(crate) fn snippet(text: &str, l: usize, r: usize) -> Vec<Tok> {
    text.split_whitespace()
        .map(|w| {
            let t = match (w.parse::<u64>(), PUNCT.iter().find(|p| **p == w)) {
                (Ok(n), _) => CTok::Int(n, true),
                (_, Some(p)) => CTok::P(p),
                _ => CTok::Ident(w.to_string()),
            };
            (l, t, r)
        })
        .collect()
}

/// The thread's linear id in its block.
pub(crate) const LINEAR: &str = "( threadIdx . x + blockDim . x * ( threadIdx . y + blockDim . y * threadIdx . z ) )";

/// The threads of a block.
const BLOCK_SIZE: &str = "( blockDim . x * blockDim . y * blockDim . z )";

/// The block's linear id in the grid.
const BLOCK_RANK: &str = "( blockIdx . x + gridDim . x * ( blockIdx . y + gridDim . y * blockIdx . z ) )";

/// The blocks of the grid.
const GRID_BLOCKS: &str = "( gridDim . x * gridDim . y * gridDim . z )";

/// A group: the thread's block or the grid.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Group {
    Block,
    Grid,
}

impl Group {
    /// The group a variable or parameter of this type names.
    fn of_type(w: &str) -> Option<Group> {
        match w {
            "thread_block" => Some(Group::Block),
            "grid_group" => Some(Group::Grid),
            _ => None,
        }
    }

    /// The group `this_thread_block()`/`this_grid()` makes.
    fn of_maker(w: &str) -> Option<Group> {
        match w {
            "this_thread_block" => Some(Group::Block),
            "this_grid" => Some(Group::Grid),
            _ => None,
        }
    }

    /// The barrier that synchronises the group.
    fn barrier(self) -> &'static str {
        match self {
            Group::Block => "__syncthreads",
            Group::Grid => GRID_SYNC,
        }
    }

    /// What member `m()` of the group is, as a snippet.
    fn member(self, m: &str) -> Option<String> {
        let text = match (self, m) {
            (_, "sync") => format!("{} ( )", self.barrier()),
            (Group::Block, "thread_rank") => LINEAR.to_string(),
            (Group::Block, "size" | "num_threads") => BLOCK_SIZE.to_string(),
            (Group::Block, "thread_index") => "threadIdx".to_string(),
            (Group::Block, "group_index") => "blockIdx".to_string(),
            (Group::Block, "group_dim" | "dim_threads") => "blockDim".to_string(),
            (Group::Grid, "thread_rank") => format!("( {BLOCK_RANK} * {BLOCK_SIZE} + {LINEAR} )"),
            (Group::Grid, "size" | "num_threads") => format!("( {GRID_BLOCKS} * {BLOCK_SIZE} )"),
            (Group::Grid, "block_rank") => BLOCK_RANK.to_string(),
            (Group::Grid, "num_blocks") => GRID_BLOCKS.to_string(),
            (Group::Grid, "block_index") => "blockIdx".to_string(),
            (Group::Grid, "dim_blocks") => "gridDim".to_string(),
            (Group::Grid, "is_valid") => "1".to_string(),
            _ => return None,
        };
        Some(text)
    }
}

/// `maker ( )` at `i`: its group.
fn group_call(toks: &[Tok], i: usize) -> Option<Group> {
    let g = Group::of_maker(ident(toks.get(i))?)?;
    (is_p(toks.get(i + 1), "(") && is_p(toks.get(i + 2), ")")).then_some(g)
}

/// `. member ( )` at `i`: the member's name and the index past the `)`.
fn member_call(toks: &[Tok], i: usize) -> Option<(&str, usize)> {
    let m = ident(toks.get(i + 1)).filter(|_| is_p(toks.get(i), "."))?;
    (is_p(toks.get(i + 2), "(") && is_p(toks.get(i + 3), ")")).then_some((m, i + 4))
}

/// The token stream with cooperative groups as barriers and ids (see the module doc).
pub fn lower(toks: Vec<Tok>) -> Vec<Tok> {
    const WORDS: &[&str] = &["this_thread_block", "this_grid", "thread_block", "grid_group"];
    if !toks.iter().any(|t| matches!(&t.1, CTok::Ident(w) if WORDS.contains(&w.as_str()))) {
        return toks;
    }
    // The groups by name; the latest of a name is the one in scope (a parameter `cta` of one
    // function, a variable `cta` of the next).
    let mut groups: Vec<(String, Group)> = Vec::new();
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let l = t.0;
        // `thread_block g = this_thread_block();` (or `grid_group`, `auto`): dropped.
        if matches!(ident(Some(t)), Some("thread_block" | "grid_group" | "auto")) && is_p(toks.get(i + 2), "=") {
            if let (Some(name), Some(g)) = (ident(toks.get(i + 1)), group_call(&toks, i + 3)) {
                if is_p(toks.get(i + 6), ";") {
                    if matches!(out.last().map(|t| &t.1), Some(CTok::Spec(w)) if w == "const") {
                        out.pop();
                    }
                    groups.push((name.to_string(), g));
                    i += 7;
                    continue;
                }
            }
        }
        // A parameter `thread_block cta` (also `const ... &cta`): dropped with a comma.
        if let Some(g) = ident(Some(t)).and_then(Group::of_type) {
            let at = if is_p(toks.get(i + 1), "&") { i + 2 } else { i + 1 };
            let mut start = out.len();
            if matches!(out.last().map(|t| &t.1), Some(CTok::Spec(w)) if w == "const") {
                start -= 1;
            }
            let in_list = start > 0 && (is_p(out.get(start - 1), "(") || is_p(out.get(start - 1), ","));
            if let (Some(name), true, true) = (ident(toks.get(at)), in_list, is_p(toks.get(at + 1), ",") || is_p(toks.get(at + 1), ")")) {
                out.truncate(start);
                groups.push((name.to_string(), g));
                drop_item(&mut out, &toks, &mut i, at + 1);
                continue;
            }
        }
        let named = |n: Option<&str>| n.and_then(|n| groups.iter().rev().find(|(x, _)| x == n).map(|(_, g)| *g));
        // The group at `i`, and where it ends: a name or `this_thread_block()`.
        let here = match (named(ident(Some(t))), group_call(&toks, i)) {
            (Some(g), _) => Some((g, i + 1)),
            (None, Some(g)) => Some((g, i + 3)),
            _ => None,
        };
        if let Some((g, end)) = here {
            // `g.member()`, `this_thread_block().member()`.
            if let Some((m, next)) = member_call(&toks, end) {
                if let Some(text) = g.member(m) {
                    out.extend(snippet(&text, l, toks[next - 1].2));
                    i = next;
                    continue;
                }
            }
            // A group passed to a function (its parameter is dropped): dropped too.
            let argument = is_p(out.last(), "(") || is_p(out.last(), ",");
            let sync_call = matches!(ident(out.iter().rev().nth(1)), Some("sync" | "synchronize")) && is_p(out.last(), "(");
            if argument && !sync_call && (is_p(toks.get(end), ",") || is_p(toks.get(end), ")")) {
                drop_item(&mut out, &toks, &mut i, end);
                continue;
            }
        }
        // `sync(g)`, `synchronize(g)`, `sync(this_thread_block())`.
        if matches!(ident(Some(t)), Some("sync" | "synchronize")) && is_p(toks.get(i + 1), "(") {
            let g = match (named(ident(toks.get(i + 2))), group_call(&toks, i + 2)) {
                (Some(g), _) => Some((g, i + 3)),
                (None, Some(g)) => Some((g, i + 5)),
                _ => None,
            };
            if let Some((g, close)) = g.filter(|(_, c)| is_p(toks.get(*c), ")")) {
                out.extend(snippet(&format!("{} ( )", g.barrier()), l, toks[close].2));
                i = close + 1;
                continue;
            }
        }
        out.push(t.clone());
        i += 1;
    }
    out
}
