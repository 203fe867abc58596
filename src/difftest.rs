//! Differential testing: the inputs and buffers a device run needs for a kernel and a seed,
//! and the comparison of its final arrays with the interpreter's, bit for bit.

use crate::opencl::ArgValue;
use kpl_emit::{Arg, Emitted};
use kpl_lang::Launch;
use kpl_semantics::report::ArrayContents;
use kpl_semantics::Inputs;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The most words an unsized array may have on the device.
pub const MAX_WORDS: u32 = 1 << 24;

/// Words needed for each array the interpreter's run touched (unsized ones: up to the
/// largest index used). Sized arrays keep their size.
pub fn sizes(memory: &[(String, ArrayContents)]) -> Result<BTreeMap<String, u32>, String> {
    let mut out = BTreeMap::new();
    for (name, c) in memory {
        let n: u64 = match c {
            ArrayContents::Dense(v) => v.len() as u64,
            ArrayContents::PerGroup(gs) => gs.first().map(|g| g.len()).unwrap_or(0) as u64,
            ArrayContents::Sparse(m) => m.keys().next_back().map(|k| *k as u64 + 1).unwrap_or(1),
            ArrayContents::SparsePerGroup(ms) => ms.iter().filter_map(|m| m.keys().next_back()).map(|k| *k as u64 + 1).max().unwrap_or(1),
        };
        if n > MAX_WORDS as u64 {
            return Err(format!("array `{name}` is used up to index {}: too large to compare on a device", n - 1));
        }
        out.insert(name.clone(), n.max(1) as u32);
    }
    Ok(out)
}

/// The interpreter's budget per input set by default, in thread-statements.
pub const DEFAULT_MAX_STEPS: u64 = 2_000_000;

/// A budget that keeps a run short: inputs that need more are replaced by smaller ones.
pub fn interpreter_options() -> kpl_semantics::Options {
    kpl_semantics::Options { max_steps: DEFAULT_MAX_STEPS, ..kpl_semantics::Options::default() }
}

/// An interpreter run to compare with: its inputs, result and the arrays' sizes.
pub struct Reference {
    pub inputs: Inputs,
    pub result: kpl_semantics::RunResult,
    pub sizes: BTreeMap<String, u32>,
}

/// Inputs for input set `seed` that the kernel accepts: the seeded ones first, then the
/// same with params drawn from ever fewer bits, until the `requires` and `assume`s hold,
/// the run ends within the step budget, and unsized arrays stay small enough. A run that
/// is too long or too large moves to fewer bits at once; an infeasible one tries again.
/// After that, params are drawn from the constants the `requires` clauses mention (and
/// their neighbours), which meets equalities and bounds random values almost never do.
/// Gives `None` when no attempt does (the input set is skipped).
pub fn reference(prog: &kpl_semantics::Program, seed: u64, opts: &kpl_semantics::Options) -> Option<Reference> {
    reference_or_why(prog, seed, opts).ok()
}

/// Why an input set has no reference run (in order: the worst reason an attempt failed
/// is the one given).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// Every input tried violates a `requires` or an `assume`.
    Infeasible,
    /// Some input tried ran past the interpreter's budget (`max_steps`), and none fitted.
    TooLong,
    /// The arrays used are too large to compare on a device.
    TooLarge,
}

/// `reference`, or why there is none.
pub fn reference_or_why(prog: &kpl_semantics::Program, seed: u64, opts: &kpl_semantics::Options) -> Result<Reference, Skip> {
    use kpl_semantics::report::Outcome;
    // The worst reason an attempt failed, in the order of `Skip`.
    let mut why = Skip::Infeasible;
    const BITS: [u32; 8] = [32, 16, 12, 8, 6, 4, 2, 1];
    const TRIES: u32 = 3;
    const HINT_TRIES: u64 = 16;
    let hints = requires_constants(prog);
    let pinned = kpl_semantics::inputs::pinned_params(prog);
    let (mut level, mut tries, mut hinted) = (0usize, 0u32, 0u64);
    for attempt in 0u64.. {
        if level >= BITS.len() {
            hinted += 1;
            if hints.is_empty() || hinted > HINT_TRIES {
                return Err(why);
            }
        }
        let mut inputs = Inputs::from_seed(seed);
        // Params a `requires` fixes (`p == c`, as `--kernel-args` gives) take their value.
        for (p, c) in &pinned {
            inputs.params.insert(p.clone(), *c);
        }
        if attempt > 0 {
            for p in prog.params.iter().filter(|p| !pinned.iter().any(|(q, _)| q == *p)) {
                let h = kpl_lang::rng::mix(seed ^ attempt.wrapping_mul(0x9E37_79B9) ^ kpl_semantics::inputs::fnv1a(p));
                let v = (h >> 32) as u32;
                let v = match BITS.get(level) {
                    Some(32) => v,
                    Some(bits) => v & ((1u32 << bits) - 1),
                    None => hints[v as usize % hints.len()],
                };
                inputs.params.insert(p.clone(), v);
            }
        }
        let result = kpl_semantics::run(prog, inputs.clone(), opts);
        match &result.outcome {
            Outcome::Infeasible { .. } => {
                tries += 1;
                if tries >= TRIES {
                    (level, tries) = (level + 1, 0);
                }
                continue;
            }
            Outcome::Timeout => {
                why = why.max(Skip::TooLong);
                (level, tries) = (level + 1, 0);
                continue;
            }
            Outcome::Defect(_) => {
                let sizes = sizes(&result.memory).unwrap_or_default();
                return Ok(Reference { inputs, result, sizes });
            }
            Outcome::Ok => {}
        }
        match sizes(&result.memory) {
            Ok(sizes) => return Ok(Reference { inputs, result, sizes }),
            Err(_) => {
                why = why.max(Skip::TooLarge);
                (level, tries) = (level + 1, 0)
            }
        }
    }
    Err(why)
}

/// One input set: from a seed (`reference` finds feasible inputs), or given (`--input`).
pub enum InputSet {
    Seed(u64),
    Given(String, Inputs),
}

impl InputSet {
    /// How a user replays this input set in the interpreter.
    pub fn replay(&self, inputs: &Inputs) -> String {
        match self {
            InputSet::Seed(s) => {
                let params: String = inputs.params.iter().map(|(k, v)| format!(" --param {k}={v}")).collect();
                format!("kpl run --seed {s}{params}")
            }
            InputSet::Given(file, _) => format!("kpl run --input {file}"),
        }
    }

    pub fn name(&self) -> String {
        match self {
            InputSet::Seed(s) => format!("input set {s}"),
            InputSet::Given(file, _) => format!("input `{file}`"),
        }
    }
}

/// The interpreter's run for an input set, or why there is none.
pub fn reference_of(prog: &kpl_semantics::Program, set: &InputSet, opts: &kpl_semantics::Options) -> Result<Reference, Skip> {
    use kpl_semantics::report::Outcome;
    match set {
        InputSet::Seed(s) => reference_or_why(prog, *s, opts),
        InputSet::Given(_, inputs) => {
            let result = kpl_semantics::run(prog, inputs.clone(), opts);
            match result.outcome {
                Outcome::Infeasible { .. } => return Err(Skip::Infeasible),
                Outcome::Timeout => return Err(Skip::TooLong),
                _ => {}
            }
            let sizes = sizes(&result.memory).map_err(|_| Skip::TooLarge)?;
            Ok(Reference { inputs: inputs.clone(), result, sizes })
        }
    }
}

/// The constants in the kernel's `requires` clauses, each with its neighbours.

fn requires_constants(prog: &kpl_semantics::Program) -> Vec<u32> {
    use kpl_semantics::ir::Ex;
    fn walk(e: &Ex, out: &mut Vec<u32>) {
        match e {
            Ex::Const(c) => out.extend([c.wrapping_sub(1), *c, c.wrapping_add(1)]),
            Ex::Slot(_) | Ex::Param(_) | Ex::Special(..) => {}
            Ex::Un(_, a) | Ex::Read(_, a) => walk(a, out),
            Ex::Bin(_, a, b) | Ex::Call(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            Ex::Cond(c, a, b) => {
                walk(c, out);
                walk(a, out);
                walk(b, out);
            }
        }
    }
    let mut out = Vec::new();
    for (e, _) in &prog.requires {
        walk(e, &mut out);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The kernel's arguments for a launch with these inputs.
pub fn arguments(e: &Emitted, launch: Launch, inputs: &Inputs, sizes: &BTreeMap<String, u32>) -> Vec<ArgValue> {
    let groups = launch.num_groups() as u32;
    e.args
        .iter()
        .map(|a| match a {
            Arg::Param(p) => ArgValue::Word(inputs.param(p)),
            Arg::Global(g) => {
                let n = sizes.get(g).copied().unwrap_or(1);
                ArgValue::Buffer { data: (0..n).map(|i| inputs.element(g, None, i)).collect(), read: true }
            }
            Arg::SharedInit { array, n } | Arg::SharedFinal { array, n } => {
                let data = (0..groups).flat_map(|g| (0..*n).map(move |i| (g, i))).map(|(g, i)| inputs.element(array, Some(g), i)).collect();
                ArgValue::Buffer { data, read: matches!(a, Arg::SharedFinal { .. }) }
            }
            Arg::Local { n, .. } => ArgValue::Local(*n),
        })
        .collect()
}

/// A difference between the interpreter and the device.
pub struct Difference {
    pub array: String,
    pub group: Option<u32>,
    pub index: u32,
    pub interpreter: u32,
    pub device: u32,
}

/// The first element where the device's final arrays differ from the interpreter's. Every
/// element of the device's buffers is compared: one the interpreter's run never touched
/// must still hold its input value.
pub fn first_difference(e: &Emitted, args: &[ArgValue], interp: &[(String, ArrayContents)], launch: Launch, inputs: &Inputs) -> Option<Difference> {
    let groups = launch.num_groups() as usize;
    let mut device: BTreeMap<&str, &Vec<u32>> = BTreeMap::new();
    for (a, v) in e.args.iter().zip(args) {
        match (a, v) {
            (Arg::Global(n), ArgValue::Buffer { data, .. }) | (Arg::SharedFinal { array: n, .. }, ArgValue::Buffer { data, .. }) => {
                device.insert(n.as_str(), data);
            }
            _ => {}
        }
    }
    let diff = |array: &str, group: Option<usize>, index: u32, want: u32, got: Option<&u32>| {
        (got != Some(&want)).then(|| Difference {
            array: array.into(),
            group: group.map(|g| g as u32),
            index,
            interpreter: want,
            device: got.copied().unwrap_or(0),
        })
    };
    for (name, c) in interp {
        let Some(dev) = device.get(name.as_str()) else { continue };
        let per = dev.len().checked_div(groups).unwrap_or(0);
        let found = match c {
            ArrayContents::Dense(v) => v.iter().enumerate().find_map(|(i, w)| diff(name, None, i as u32, *w, dev.get(i))),
            ArrayContents::Sparse(m) => (0..dev.len() as u32).find_map(|i| {
                let want = m.get(&i).copied().unwrap_or_else(|| inputs.element(name, None, i));
                diff(name, None, i, want, dev.get(i as usize))
            }),
            ArrayContents::PerGroup(gs) => gs.iter().enumerate().find_map(|(g, v)| {
                v.iter().enumerate().find_map(|(i, w)| diff(name, Some(g), i as u32, *w, dev.get(g * per + i)))
            }),
            ArrayContents::SparsePerGroup(ms) => ms.iter().enumerate().find_map(|(g, m)| {
                (0..per as u32).find_map(|i| {
                    let want = m.get(&i).copied().unwrap_or_else(|| inputs.element(name, Some(g as u32), i));
                    diff(name, Some(g), i, want, dev.get(g * per + i as usize))
                })
            }),
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The harness input file for these inputs (`param`, `global`, `shared` lines).
pub fn inputs_text(e: &Emitted, launch: Launch, inputs: &Inputs, sizes: &BTreeMap<String, u32>) -> String {
    let groups = launch.num_groups() as u32;
    let mut s = String::new();
    for (a, v) in e.args.iter().zip(arguments(e, launch, inputs, sizes)) {
        match (a, v) {
            (Arg::Param(p), ArgValue::Word(w)) => {
                let _ = writeln!(s, "param {p} {w}");
            }
            (Arg::Global(g), ArgValue::Buffer { data, .. }) => {
                let _ = write!(s, "global {g} {}", data.len());
                data.iter().for_each(|w| {
                    let _ = write!(s, " {w}");
                });
                s.push('\n');
            }
            (Arg::SharedInit { array, n }, ArgValue::Buffer { data, .. }) => {
                let _ = write!(s, "shared {array} {groups} {n}");
                data.iter().for_each(|w| {
                    let _ = write!(s, " {w}");
                });
                s.push('\n');
            }
            _ => {}
        }
    }
    s
}
