//! Rendering reports: source positions, threads and accesses as text and as JSON.

use kpl_lang::span::line_col;
use kpl_lang::Span;
use kpl_semantics::report::{Access, ArrayContents, Defect, DivergenceAt, Op, ThreadId};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// `(3,0,0)`, dropping trailing dimensions that are 0 when the launch is 1-D or 2-D.
pub fn dims(d: [u32; 3], n: usize) -> String {
    let parts: Vec<String> = d[..n.max(1)].iter().map(|x| x.to_string()).collect();
    if n <= 1 {
        parts[0].clone()
    } else {
        format!("({})", parts.join(","))
    }
}

pub fn thread_text(t: &ThreadId, n: usize) -> String {
    format!("thread {} of group {}", dims(t.local, n), dims(t.group, n))
}

pub fn thread_json(t: &ThreadId) -> Value {
    json!({ "group": t.group, "local": t.local })
}

pub fn pos_json(src: &str, span: Span) -> (usize, usize) {
    line_col(src, span.start)
}

/// A position in an included header (`#include`) names that file: `"file"` is added to
/// the JSON object that holds its `line` and `col`.
pub fn add_file(v: &mut Value, src: &str, offset: usize) {
    if let (Some(f), Value::Object(m)) = (kpl_lang::sources::segment_at(src, offset).name, v) {
        m.insert("file".into(), Value::from(f));
    }
}

/// Where a span ends, as `end_line` and `end_col` (the column after its last character).
pub fn add_end(v: &mut Value, src: &str, end: usize) {
    if let Value::Object(m) = v {
        let (line, col) = kpl_lang::span::line_col(src, end);
        m.insert("end_line".into(), Value::from(line));
        m.insert("end_col".into(), Value::from(col));
    }
}

pub fn access_json(src: &str, a: &Access) -> Value {
    let (line, col) = pos_json(src, a.span);
    let mut v = json!({ "thread": thread_json(&a.thread), "op": a.op.name(), "line": line, "col": col, "value": a.value });
    add_file(&mut v, src, a.span.start);
    v
}

/// A defect as JSON (CLI.md's defect entries).
pub fn defect_json(src: &str, d: &Defect) -> Value {
    match d {
        Defect::Race { kind, scope, array, index, accesses } => json!({
            "kind": "race", "race": kind.name(), "scope": scope.name(), "array": array, "index": index,
            "accesses": accesses.iter().map(|a| access_json(src, a)).collect::<Vec<_>>(),
        }),
        Defect::Divergence { span, enabled, disabled, at } => {
            let (line, col) = pos_json(src, *span);
            let mut v = json!({ "kind": "divergence", "line": line, "col": col, "at": at.name(),
                    "threads": [ { "thread": thread_json(enabled), "enabled": true },
                                 { "thread": thread_json(disabled), "enabled": false } ] });
            add_file(&mut v, src, span.start);
            v
        }
        Defect::Assertion { span, thread, invariant_of } => {
            let (line, col) = pos_json(src, *span);
            let mut v = json!({ "kind": "assertion", "line": line, "col": col, "thread": thread_json(thread) });
            add_file(&mut v, src, span.start);
            if let Some(l) = invariant_of {
                let (ll, lc) = pos_json(src, *l);
                v["invariant_of_loop"] = json!({ "line": ll, "col": lc });
            }
            v
        }
        Defect::OutOfBounds { array, index, size, access } => json!({
            "kind": "out_of_bounds", "array": array, "index": index, "size": size,
            "accesses": [access_json(src, access)],
        }),
    }
}

pub fn memory_json(mem: &[(String, ArrayContents)]) -> Value {
    let sparse = |m: &std::collections::BTreeMap<u32, u32>| {
        Value::Object(m.iter().map(|(k, v)| (k.to_string(), json!(v))).collect())
    };
    Value::Object(
        mem.iter()
            .map(|(name, c)| {
                let v = match c {
                    ArrayContents::Dense(d) => json!(d),
                    ArrayContents::PerGroup(gs) => json!(gs),
                    ArrayContents::Sparse(m) => sparse(m),
                    ArrayContents::SparsePerGroup(gs) => Value::Array(gs.iter().map(sparse).collect()),
                };
                (name.clone(), v)
            })
            .collect(),
    )
}

pub use kpl_lang::layout::Layouts;

/// Why two atomics race: only scopes make them (ScoRD's scoped race).
pub const SCOPED_RACE_HELP: &str =
    "an atomic of block scope (`atomicAdd_block`, `cuda::thread_scope_block`) is atomic only for the threads of its own block: one of another block on the same element races with it";

/// A defect as a diagnostic with both accesses (or both threads) pointing at the source.
pub fn defect_diagnostic(d: &Defect, n: usize, layouts: &Layouts) -> kpl_lang::Diagnostic {
    use kpl_lang::Diagnostic;
    match d {
        Defect::Race { kind, scope, array, index, accesses: [a, b] } => {
            let at = layouts.element_text(array, *index as u64);
            let label = |x: &Access| format!("{} of {at} by {} (value {})", x.op.name(), thread_text(&x.thread, n), x.value);
            let d = Diagnostic::error(format!("{} {} data race on {at}", kind.name(), scope.name()), b.span)
                .with_label(label(b))
                .with_secondary(a.span, label(a));
            if a.op == Op::Atomic && b.op == Op::Atomic {
                d.with_help(SCOPED_RACE_HELP)
            } else {
                d
            }
        }
        Defect::Divergence { span, enabled, disabled, at: DivergenceAt::Barrier } => Diagnostic::error("barrier divergence", *span)
            .with_label(format!(
                "reached by {} while {} is disabled",
                thread_text(enabled, n),
                thread_text(disabled, n)
            ))
            .with_help("every thread of a group must reach the same barrier, under a uniform predicate"),
        Defect::Divergence { span, enabled, disabled, at: DivergenceAt::WarpMask } => Diagnostic::error("warp divergence", *span)
            .with_label(format!(
                "{} and {} of one warp run it with different masks (one naming the other)",
                thread_text(enabled, n),
                thread_text(disabled, n)
            ))
            .with_help("the lanes of a warp collective must all give it the same mask"),
        Defect::Divergence { span, enabled, disabled, at: DivergenceAt::WarpLane } => Diagnostic::error("warp divergence", *span)
            .with_label(format!(
                "reached by {} while {}, which its mask names, is disabled",
                thread_text(enabled, n),
                thread_text(disabled, n)
            ))
            .with_help("every lane a warp collective's mask names must run it too"),
        Defect::Assertion { span, thread, invariant_of } => {
            let what = if invariant_of.is_some() {
                "loop invariant does not hold"
            } else if layouts.constant_writes.contains(span) {
                "attempt to modify constant memory"
            } else {
                "assertion failure"
            };
            let mut d = Diagnostic::error(what, *span)
            .with_label(format!("false in {}", thread_text(thread, n)));
            if let Some(l) = invariant_of {
                d = d.with_secondary(*l, "at the head of this loop");
            }
            d
        }
        Defect::OutOfBounds { array, index, size, access } => Diagnostic::error(
            format!("out-of-bounds {} of {} (size {size})", access.op.name(), layouts.element_text(array, *index as u64)),
            access.span,
        )
        .with_label(format!("by {}", thread_text(&access.thread, n))),
    }
}

/// Params and initial elements (array ─► (group of a shared array, index) ─► value) in
/// `kpl run --input` form: a shared array as a list per group, a global one as an object.
pub fn inputs_json(
    params: &BTreeMap<String, u32>,
    arrays: &BTreeMap<String, BTreeMap<(Option<u32>, u32), u32>>,
    launch: kpl_lang::Launch,
    shared: &dyn Fn(&str) -> bool,
) -> Value {
    let mut out = serde_json::Map::new();
    for (name, cells) in arrays {
        if shared(name) {
            let groups = launch.num_groups() as usize;
            let mut per: Vec<serde_json::Map<String, Value>> = vec![serde_json::Map::new(); groups.min(1 << 16)];
            for ((g, i), v) in cells {
                if let Some(m) = g.and_then(|g| per.get_mut(g as usize)) {
                    m.insert(i.to_string(), json!(v));
                }
            }
            out.insert(name.clone(), Value::Array(per.into_iter().map(Value::Object).collect()));
        } else {
            let m: serde_json::Map<String, Value> = cells.iter().map(|((_, i), v)| (i.to_string(), json!(v))).collect();
            out.insert(name.clone(), Value::Object(m));
        }
    }
    json!({ "params": params, "arrays": out })
}
