//! The state of the reduction to two threads (`Builder`), which each concern extends with
//! its methods (`impl Builder` in `ast_to_seq.rs`, `candidates.rs`, `loops.rs`,
//! `atomic_tickets.rs`, ...), and the configuration it runs under.

use crate::seq::*;
use kpl_lang::{Launch, ast};
use std::collections::{BTreeMap, HashMap};

/// How arrays are abstracted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbstractionChoice {
    /// Per array, by the taint analysis.
    Auto,
    Equality,
    Adversarial,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub launch: Launch,
    pub abstraction: AbstractionChoice,
    pub only_intra_group: bool,
    /// Tolerate write-write races writing equal values.
    pub benign: bool,
    /// Check races only on these arrays (GPUVerify's `/checkArrays:`); `None`: all.
    pub check_arrays: Option<Vec<String>>,
    /// Check performance instead (`kpl perf --all-inputs`): the pair is two threads of one
    /// warp, and the only assertions are bank-conflict, coalescing and warp-divergence
    /// checks (plus invariants); barriers are assumed free of divergence.
    pub perf: Option<kpl_lang::perf_model::PerfModel>,
    /// Arrays with no performance checks (a thread's private arrays, which are neither
    /// shared nor global memory).
    pub perf_skip: Vec<String>,
    /// A thread's private arrays, kept as one global array of regions (thread `t`'s words
    /// `t * n .. (t + 1) * n`, `t` its linear id in the launch), with their `n`: each
    /// access is checked to stay in its thread's region, which leaves no two threads one
    /// word, so no race is checked on them.
    pub private: Vec<(String, u32)>,
    /// GPUVerify's `--warp-sync=N`: two threads of one warp never race through the logs
    /// (lock step orders their statements); they race only by writing one element in one
    /// statement. Every array is then abstracted adversarially (a warp-mate outside the
    /// pair may have written what a thread reads).
    pub warp_sync: Option<u32>,
    /// GPUVerify's `--only-divergence`: no race checks (barrier divergence, assertions and
    /// bounds still are).
    pub only_divergence: bool,
    /// GPUVerify's `--loop-unwind=N`: every loop is unrolled N times and executions that
    /// need more iterations are cut off (a bounded search for defects; invariants unused).
    pub loop_unwind: Option<u32>,
    /// With `loop_unwind`: a loop whose trip count is a constant up to 32 is unrolled that
    /// many times instead (`unwind.rs`; kpl's bounded search before inference).
    pub unwind_constant_loops: bool,
    /// GPUVerify's `--k-induction-depth=K`: every loop is proved by K-induction (its first
    /// K iterations checked from the entry; then from any K consecutive iterations that
    /// satisfy the invariants, the next one). 0: plain induction.
    pub k_induction: u32,
    /// Check that a barrier invariant reads only elements the thread accessed since the
    /// previous barrier (GPUVerify's default; `--no-barrier-access-checks` turns it off).
    pub barrier_access_checks: bool,
    /// GPUVerify's `--asymmetric-asserts`: a loop invariant the kernel states (and a
    /// candidate it states) is checked and assumed for thread 1 only (sound: the thread is
    /// arbitrary; thread 2's state at the loop head is then unconstrained by it, which can
    /// give false alarms). Assertions are thread 1's in any case.
    pub asymmetric_asserts: bool,
}

/// The race-instrumentation variables of one array (thread 1's tracked accesses).
#[derive(Clone, Copy, Debug)]
pub struct Inst {
    pub wr_exists: VarId,
    pub wr_elem: VarId,
    pub wr_stmt: VarId,
    pub wr_val: VarId,
    pub rd_exists: VarId,
    pub rd_elem: VarId,
    pub rd_stmt: VarId,
    /// Benign tolerance: the value thread 1's logged read returned, and whether thread 2
    /// has not written the element of thread 1's logged write since it was logged
    /// (GPUVerify's `_WRITE_READ_BENIGN_FLAG`).
    pub rd_val: VarId,
    pub wr_fresh: VarId,
    /// Thread 1's logged atomic (exists, element, statement), for arrays with atomics.
    pub atomic: Option<(VarId, VarId, VarId)>,
    /// 1 when thread 1's logged atomic is of `group` scope, for arrays with such atomics
    /// (an atomic of another group's thread on its element races with it).
    pub at_narrow: Option<VarId>,
}

pub(crate) type Pair = [Expr; 2];

#[derive(Clone, Default)]
pub(crate) struct Frame {
    /// The innermost loop's break and continue flags, in this proc (or main).
    pub(crate) loop_flags: Option<([VarId; 2], [VarId; 2])>,
    pub(crate) ret: Option<[VarId; 2]>,
}

pub(crate) struct Builder<'k> {
    pub(crate) kernel: &'k ast::Kernel,
    pub(crate) cfg: Config,
    pub(crate) prog: Program,
    /// Locals in scope; `None` marks a proc boundary (a proc sees no caller locals).
    pub(crate) scope: Vec<Option<(String, [VarId; 2])>>,
    pub(crate) params: HashMap<String, VarId>,
    pub(crate) arrays: HashMap<String, usize>,
    pub(crate) inst: Vec<Inst>,
    pub(crate) copies: Vec<Option<[VarId; 2]>>,
    pub(crate) lid: [[Expr; 3]; 2],
    pub(crate) gid: [[Expr; 3]; 2],
    /// The number of groups on each axis: the launch's constant, or for an axis whose
    /// size is free (`Launch::free_groups`) an input `groups.x` of 1 up to the bound.
    pub(crate) groups: [Expr; 3],
    pub(crate) same_group: Expr,
    pub(crate) distinct: Expr,
    pub(crate) frames: Vec<Frame>,
    pub(crate) out: Vec<Stmt>,
    pub(crate) names: HashMap<String, usize>,
    /// Any barrier emitted so far, or inside a loop that has one (for witness notes).
    pub(crate) barrier_before: bool,
    pub(crate) barrier_loops: usize,
    /// The `Plan::ranges` of the loops being translated, outermost first: candidates of
    /// the loops nested in them too.
    pub(crate) enclosing_ranges: Vec<Vec<(Expr, &'static str)>>,
    /// Perf and warp-synchronous modes: each thread's linear local id.
    pub(crate) linear: [Expr; 2],
    /// While translating an assertion or invariant: each thread's predicate, for `enabled()`.
    pub(crate) enabled: Option<Pair>,
    /// Warp-synchronous mode: the pair is two threads of one warp.
    pub(crate) same_warp: Option<Expr>,
    /// Kernels with warp collectives: the pair is two threads of one warp (any mode).
    pub(crate) warp_mates: Option<Expr>,
    /// Per array read by a barrier invariant: an index thread 1 has not accessed since the
    /// last barrier (`barrier_invariants.rs`).
    pub(crate) not_accessed: Vec<Option<[VarId; 2]>>,
    /// An assertion observes disabled threads (`Kernel::observes_disabled`): a local
    /// declared by a read is 0 in a thread that does not run the read, as in the
    /// interpreter.
    pub(crate) observes_disabled: bool,
    /// The arrays some statement writes (a store or an atomic).
    pub(crate) written: std::collections::BTreeSet<String>,
    /// The arrays whose read log an access predicate reads.
    pub(crate) read_predicated: std::collections::BTreeSet<String>,
    /// The arrays whose atomics are ticket additions (`atomic_tickets`), and the additions
    /// whose values thread 1 owns so far: array and thread 1's element.
    pub(crate) tickets: crate::builder::Tickets,
    pub(crate) owned: Vec<(usize, Expr)>,
    /// The synchronisations passed so far, for counters a plain store also writes.
    pub(crate) epoch: Option<VarId>,
    /// Which locals and loops are alike in every thread (`uniformity`).
    pub(crate) uniformity: crate::uniformity::Uniformity,
    /// Loops unrolled other than `loop_unwind` times (`unwind.rs`), by statement address.
    pub(crate) trips: HashMap<usize, u32>,
}

/// An array whose atomics are all ticket additions: whether no plain store writes it.
pub(crate) type Tickets = BTreeMap<String, bool>;
