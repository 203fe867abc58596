//! Reports of `kpl run --delays K`: the schedules explored, each final memory that differs
//! from the canonical schedule's (first differing elements, the delays that give it), and
//! each failure with its schedule.

use crate::{input, render};
use kpl_lang::Diagnostic;
use kpl_semantics::report::{ArrayContents, Outcome};
use kpl_semantics::schedules::{Explored, Exploration};
use kpl_semantics::Program;
use serde_json::{json, Value};

/// Did the exploration find a failure or a result that depends on the schedule?
pub fn found_something(e: &Exploration) -> bool {
    e.differing().next().is_some() || failures(e).next().is_some()
}

fn failures(e: &Exploration) -> impl Iterator<Item = &Explored> {
    e.runs.iter().filter(|r| matches!(r.outcome, Outcome::Defect(_)))
}

/// The schedule in words: each delay as the thread and the atomic it was about to do.
fn schedule_text(src: &input::Source, prog: &Program, r: &Explored, dims: usize) -> String {
    if r.points.taken.is_empty() {
        return "the canonical schedule".into();
    }
    let parts: Vec<String> = r
        .points
        .taken
        .iter()
        .map(|(t, stmt)| {
            let (line, col) = render::pos_json(&src.text, prog.stmts[*stmt as usize].span);
            format!("{} delayed at its atomic at {}:{line}:{col}", render::thread_text(t, dims), src.path)
        })
        .collect();
    parts.join(", then ")
}

/// Up to 4 elements where two memories differ: (array, group, index, canonical, here).
fn differences(a: &[(String, ArrayContents)], b: &[(String, ArrayContents)]) -> Vec<(String, Option<usize>, u32, u32, u32)> {
    let mut out = Vec::new();
    for ((name, x), (_, y)) in a.iter().zip(b) {
        let flat = |c: &ArrayContents| -> Vec<(Option<usize>, u32, u32)> {
            match c {
                ArrayContents::Dense(v) => v.iter().enumerate().map(|(i, v)| (None, i as u32, *v)).collect(),
                ArrayContents::Sparse(m) => m.iter().map(|(i, v)| (None, *i, *v)).collect(),
                ArrayContents::PerGroup(gs) => {
                    gs.iter().enumerate().flat_map(|(g, v)| v.iter().enumerate().map(move |(i, v)| (Some(g), i as u32, *v))).collect()
                }
                ArrayContents::SparsePerGroup(ms) => {
                    ms.iter().enumerate().flat_map(|(g, m)| m.iter().map(move |(i, v)| (Some(g), *i, *v))).collect()
                }
            }
        };
        let (fx, fy) = (flat(x), flat(y));
        for ((g, i, vx), (_, _, vy)) in fx.iter().zip(fy.iter()) {
            if vx != vy && out.len() < 4 {
                out.push((name.clone(), *g, *i, *vx, *vy));
            }
        }
    }
    out
}

pub fn text(src: &input::Source, prog: &Program, e: &Exploration, k: usize, dims: usize) {
    let base = &e.runs[0];
    let differing: Vec<&Explored> = e.differing().collect();
    println!(
        "{}: {} schedule{} with at most {k} delay{} ({} scheduling points in the canonical one{}): {} distinct final state{}",
        src.path,
        e.runs.len(),
        if e.runs.len() == 1 { "" } else { "s" },
        if k == 1 { "" } else { "s" },
        base.points.count,
        if e.truncated { "; stopped at --max-schedules" } else { "" },
        e.distinct_states(),
        if e.distinct_states() == 1 { "" } else { "s" },
    );
    let mut shown: Vec<&Vec<(String, ArrayContents)>> = Vec::new();
    for r in &differing {
        if shown.contains(&&r.memory) {
            continue;
        }
        shown.push(&r.memory);
        let d: Vec<String> = differences(&base.memory, &r.memory)
            .into_iter()
            .map(|(a, g, i, x, y)| {
                let g = g.map(|g| format!(" of group {g}")).unwrap_or_default();
                format!("{a}[{i}]{g} is {y}, not {x}")
            })
            .collect();
        println!("  the final memory depends on the schedule: {}: {}", schedule_text(src, prog, r, dims), d.join("; "));
    }
    for r in failures(e) {
        if let Outcome::Defect(d) = &r.outcome {
            let mut diag: Diagnostic = render::defect_diagnostic(d, dims, &Default::default());
            diag.help.push(format!("under {}", schedule_text(src, prog, r, dims)));
            input::report(src, &[diag]);
        }
    }
}

pub fn json(src: &input::Source, prog: &Program, e: &Exploration, k: usize) -> Value {
    let base = &e.runs[0];
    let schedule = |r: &Explored| -> Value {
        r.points
            .taken
            .iter()
            .map(|(t, stmt)| {
                let (line, col) = render::pos_json(&src.text, prog.stmts[*stmt as usize].span);
                json!({ "thread": render::thread_json(t), "line": line, "col": col })
            })
            .collect()
    };
    let differing: Vec<Value> = e
        .differing()
        .map(|r| {
            let d: Vec<Value> = differences(&base.memory, &r.memory)
                .into_iter()
                .map(|(a, g, i, x, y)| json!({ "array": a, "group": g, "index": i, "canonical": x, "value": y }))
                .collect();
            json!({ "delays": schedule(r), "differences": d })
        })
        .collect();
    let failed: Vec<Value> = failures(e)
        .filter_map(|r| match &r.outcome {
            Outcome::Defect(d) => Some(json!({ "delays": schedule(r), "defect": render::defect_json(&src.text, d) })),
            _ => None,
        })
        .collect();
    json!({ "delays": k, "explored": e.runs.len(), "truncated": e.truncated, "scheduling_points": base.points.count,
            "distinct_final_states": e.distinct_states(), "differing": differing, "failures": failed })
}
