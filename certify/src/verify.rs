//! `verify`: reduction, VC generation, Houdini and the search for failing assertions, with
//! a time budget. Gives a verdict, the defects with their witnesses, and statistics.

use crate::seq_to_vc::{encode, Encoding};
use crate::solve::{failures, houdini, Session};
use crate::witness::{extract, Witness};
use kpl_lang::{ast, Launch};
use kpl_reduction::seq::Program;
use kpl_reduction::{reduce, AbstractionChoice, Config};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Options {
    pub launch: Launch,
    pub abstraction: AbstractionChoice,
    pub only_intra_group: bool,
    pub benign: bool,
    pub timeout: Option<Duration>,
    /// Infer invariants (Houdini); off with `--no-infer`.
    pub infer: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Verified,
    Defects,
    Inconclusive(String),
}

/// A failing assertion: its label (index into `Program::labels`) and a witness.
#[derive(Clone, Debug)]
pub struct Finding {
    pub label: usize,
    pub witness: Witness,
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub time_ms: u128,
    pub vcs: usize,
    pub solver_calls: u32,
    pub houdini_rounds: u32,
    pub candidates: usize,
    pub invariants_kept: usize,
    pub vc_nodes: usize,
}

pub struct Report {
    pub outcome: Outcome,
    pub findings: Vec<Finding>,
    pub program: Program,
    pub encoding: Encoding,
    /// Candidates Houdini kept, by index.
    pub kept: Vec<bool>,
    /// Set when some question went unanswered (the list of defects may be incomplete).
    pub unknown: Option<String>,
    pub stats: Stats,
}

/// The sequential program for a kernel under options (for dumps and tests).
pub fn program(core: &ast::Kernel, o: &Options) -> Program {
    let cfg = Config { launch: o.launch, abstraction: o.abstraction, only_intra_group: o.only_intra_group, benign: o.benign };
    reduce(core, &cfg)
}

pub fn verify(core: &ast::Kernel, o: &Options, progress: &dyn Fn(&str)) -> Report {
    let start = Instant::now();
    let deadline = o.timeout.map(|t| start + t);
    progress("reducing to two threads");
    let program = program(core, o);
    progress("generating verification conditions");
    let encoding = encode(&program);
    let mut stats = Stats {
        vcs: encoding.checks.iter().filter(|c| c.is_some()).count(),
        candidates: program.candidates.len(),
        ..Stats::default()
    };
    let roots: Vec<egg::Id> = encoding
        .defs
        .iter()
        .flat_map(|(a, b)| [*a, *b])
        .chain(encoding.checks.iter().flatten().map(|c| c.fail))
        .collect();
    stats.vc_nodes = encoding.terms.size(&roots);
    let (kept, findings, unknown) = {
        let mut s = Session::new(&encoding, deadline);
        let h = if o.infer && !program.candidates.is_empty() {
            houdini(&mut s, progress)
        } else {
            crate::solve::Houdini { kept: vec![false; program.candidates.len()], rounds: 0, unknown: None }
        };
        stats.houdini_rounds = h.rounds;
        if let Some(why) = h.unknown {
            stats.solver_calls = s.calls;
            (h.kept, Vec::new(), Some(format!("invariant inference: {why}")))
        } else {
            let launch = o.launch;
            let p = &program;
            let enc = &encoding;
            let mut get = |s: &mut Session, m: &z3::Model, l: usize| Finding { label: l, witness: extract(s, m, p, enc, &launch, l) };
            let (found, unknown) = failures(&mut s, &h.kept, progress, &mut get);
            stats.solver_calls = s.calls;
            (h.kept, found, unknown)
        }
    };
    stats.invariants_kept = kept.iter().filter(|k| **k).count();
    stats.time_ms = start.elapsed().as_millis();
    let outcome = if !findings.is_empty() {
        Outcome::Defects
    } else if let Some(why) = &unknown {
        Outcome::Inconclusive(why.clone())
    } else {
        Outcome::Verified
    };
    Report { outcome, findings, program, encoding, kept, unknown, stats }
}
