//! What a run gives: its outcome, the first defect with both threads and both accesses,
//! the final memory, the step count and (optionally) a trace.

use kpl_lang::Span;
use std::collections::BTreeMap;

/// A thread: its group id and local id, each in three dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ThreadId {
    pub group: [u32; 3],
    pub local: [u32; 3],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Read,
    Write,
    /// An atomic read-modify-write (races with plain accesses, never with atomics).
    Atomic,
}

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::Read => "read",
            Op::Write => "write",
            Op::Atomic => "atomic",
        }
    }
}

/// One thread's access to an array element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    pub thread: ThreadId,
    pub op: Op,
    pub span: Span,
    /// The value written, or the value the thread reads there.
    pub value: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceKind {
    WriteWrite,
    ReadWrite,
}

impl RaceKind {
    pub fn name(self) -> &'static str {
        match self {
            RaceKind::WriteWrite => "write-write",
            RaceKind::ReadWrite => "read-write",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    IntraGroup,
    InterGroup,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::IntraGroup => "intra-group",
            Scope::InterGroup => "inter-group",
        }
    }
}

/// The errors of KPL.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Defect {
    Race { kind: RaceKind, scope: Scope, array: String, index: u32, accesses: [Access; 2] },
    /// A group executed `barrier` with `enabled` enabled and `disabled` not.
    /// Where: a barrier, or a warp collective whose mask names the disabled thread (or, for
    /// `WarpMask`, names the other thread, which runs it with another mask).
    Divergence { span: Span, enabled: ThreadId, disabled: ThreadId, at: DivergenceAt },
    /// An `assert` (or a loop `invariant`, then `loop` is the loop's span) was false.
    Assertion { span: Span, thread: ThreadId, invariant_of: Option<Span> },
    OutOfBounds { array: String, index: u32, size: u32, access: Access },
}

/// The statement a divergence is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivergenceAt {
    Barrier,
    /// A lane the mask names does not run the collective.
    WarpLane,
    /// Two threads of one warp, each running it and one naming the other, have different masks.
    WarpMask,
}

impl DivergenceAt {
    /// Its name in JSON reports (`"at"`).
    pub fn name(self) -> &'static str {
        match self {
            DivergenceAt::Barrier => "barrier",
            DivergenceAt::WarpLane => "warp collective",
            DivergenceAt::WarpMask => "warp collective mask",
        }
    }
}

impl Defect {
    /// The kind's name in reports: race, divergence, assertion, out_of_bounds.
    pub fn kind(&self) -> &'static str {
        match self {
            Defect::Race { .. } => "race",
            Defect::Divergence { .. } => "divergence",
            Defect::Assertion { .. } => "assertion",
            Defect::OutOfBounds { .. } => "out_of_bounds",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// A `requires` or an `assume` was false in an enabled thread.
    Infeasible { span: Span, thread: Option<ThreadId> },
    /// More than `max_steps` thread-statements.
    Timeout,
    Defect(Defect),
}

impl Outcome {
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Infeasible { .. } => "infeasible",
            Outcome::Timeout => "timeout",
            Outcome::Defect(d) => d.kind(),
        }
    }
}

/// The contents of one array at the end of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArrayContents {
    /// A sized global array.
    Dense(Vec<u32>),
    /// A shared array: one instance per group (linear group index).
    PerGroup(Vec<Vec<u32>>),
    /// An unsized (or very large) array: the elements the run touched or was given.
    Sparse(BTreeMap<u32, u32>),
    /// A very large shared array: touched elements per group.
    SparsePerGroup(Vec<BTreeMap<u32, u32>>),
}

/// One executed step, for `--trace`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    pub stmt: u32,
    pub enabled: u64,
}

#[derive(Clone, Debug)]
pub struct RunResult {
    pub outcome: Outcome,
    /// Final memory, array by array in declaration order (after merging pending writes).
    pub memory: Vec<(String, ArrayContents)>,
    /// Thread-statements executed.
    pub steps: u64,
    /// The last steps before the end (when tracing).
    pub trace: Vec<TraceStep>,
    /// The values each thread's `havoc`s gave, in order, by linear thread id (empty where
    /// the interpreter does not record them, or no `havoc` ran).
    pub havocs: Vec<Vec<u32>>,
}
