//! The KPL abstract syntax tree: every node carries the byte span it came from.

use crate::span::Span;

/// A name as written, with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

impl Ident {
    pub fn new(name: impl Into<String>, span: Span) -> Ident {
        Ident { name: name.into(), span }
    }
}

/// A kernel file: declarations, procedures and `main`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub name: Ident,
    pub decls: Vec<Decl>,
    pub procs: Vec<Proc>,
    pub main: Block,
    pub span: Span,
}

/// Up to three dimensions (x, y, z), each a literal as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dims {
    pub dims: Vec<(u64, Span)>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    pub kind: DeclKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclKind {
    Groups(Dims),
    Threads(Dims),
    /// `size` is `None` for `shared A[*]` (kpl's extension: an OpenCL `__local` pointer).
    Shared { name: Ident, size: Option<(u64, Span)> },
    /// `size` is `None` for `global A[*]`.
    Global { name: Ident, size: Option<(u64, Span)> },
    Param(Ident),
    Requires(Expr),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proc {
    pub name: Ident,
    pub params: Vec<Ident>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    Local(Ident, Option<Expr>),
    Assign(Ident, Expr),
    Store(Ident, Expr, Expr),
    If(Expr, Block, Option<Box<Else>>),
    /// `candidates`: loop invariants Houdini may drop (GPUVerify's `__candidate_invariant`);
    /// only the verifier reads them.
    While { cond: Expr, invariants: Vec<Expr>, candidates: Vec<Expr>, body: Block },
    Call(Ident, Vec<Expr>),
    Barrier(Fence),
    /// `fence group;`, `fence device;`, `fence system;`: a memory fence (CUDA's
    /// `__threadfence_block()`, `__threadfence()`, `__threadfence_system()`; OpenCL's
    /// `mem_fence`). No effect in the SDV semantics, where any communication between
    /// threads not ordered by a barrier is already a race; `kpl run --hb` reads it as
    /// BARRACUDA does (a store after it releases, a load before it acquires, at its scope;
    /// `fence acquire S;` and `fence release S;` do only one of the two: `FenceOrder`).
    MemFence(FenceScope, FenceOrder),
    /// `x := atomic add(A[i], v);` (or `local x := ...`, or no destination).
    Atomic(Atomic),
    /// `x := warp shfl_down(mask, v, d, w);`: a collective of the threads of one warp.
    Warp(Warp),
    Break,
    Continue,
    Return,
    /// `assert e;`, checked by each enabled thread; `global assert e;` (the flag), checked
    /// by every thread of the launch, enabled or not (GPUVerify's `__global_assert`).
    Assert(Expr, bool),
    Assume(Expr),
    /// `havoc x;`: the local `x` takes an arbitrary value, chosen per thread (C's
    /// indeterminate values, results of functions without a body).
    Havoc(Ident),
    /// `havoc writes A;` / `havoc reads A;` (`write` true / false): the thread may have
    /// written (read) any elements of the array, any values, in a way a specification does
    /// not say (GPUVerify's `__writes_to`/`__reads_from` of a specification function). The
    /// verifier takes the thread's view of the array as arbitrary after a write, logs the
    /// access at an arbitrary element and race-checks it against every logged conflicting
    /// access; the interpreter runs it as doing nothing, one of the things it allows.
    Touch { array: Ident, write: bool },
    /// `snapshot G := A;`: the thread's ghost copy of array `A` (GPUVerify's
    /// `__array_snapshot(G, A)`): afterwards, what the thread reads of `G` is its view of `A`
    /// at the snapshot. `G` is a ghost array: nothing else writes it, and reading it is no
    /// access another thread can race with. A barrier makes it arbitrary, as other arrays.
    Snapshot { dest: Ident, src: Ident },
    /// A statement the parser could not read (its error is already reported).
    Error,
}

/// An atomic read-modify-write of one array element: the old value goes to `dest`.
/// Atomics never race with each other; an atomic and a plain access to the same element
/// by different threads do (CUDA.md tier 2). A 64-bit atomic (an operation named with
/// `64`: `add64`) acts on the element and the next one as one 64-bit integer, the low word
/// first; its operands are (low, high) word pairs and its old value goes to `dest` (low)
/// and `dest_hi` (high): `local lo, hi := atomic add64(A[i], 1, 0);`. A byte atomic (named
/// with `_bytes`: `add_bytes`, `add64_bytes`) is the same operation on an array that holds
/// one byte per element: its value is the low 8 bits of the 4 (or 8) elements from the
/// index, the lowest byte first, and the new value's bytes are written back, one to each
/// (`AtomicShape`). Its scope (`atomic group add(...)`; `device` when none is written, as
/// CUDA's `atomicAdd`) is the threads it is atomic for: a `group` atomic (CUDA's
/// `atomicAdd_block`, libcu++'s `thread_scope_block`) and an atomic of a thread of another
/// group on the same element race (ScoRD's scoped race); `device` and `system` atomics reach
/// every thread of the launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atomic {
    pub dest: Option<Ident>,
    /// The old value's high word, for a 64-bit atomic (`local lo, hi := atomic ...64(...)`).
    pub dest_hi: Option<Ident>,
    /// `local x := atomic ...`: `dest` (and `dest_hi`) are new locals.
    pub declare: bool,
    pub op: Ident,
    pub array: Ident,
    pub index: Expr,
    pub args: Vec<Expr>,
    /// The threads it is atomic for (`FenceScope::Device` unless written).
    pub scope: FenceScope,
}

/// The atomic operations: `add sub xchg min max smin smax inc dec cas and or xor fadd` (min
/// and max unsigned, smin and smax signed; inc and dec as CUDA's `atomicInc`/`atomicDec`,
/// which wrap at their limit; `cas(A[i], compare, value)`; `fadd` the float addition of the
/// `fadd` built-in, CUDA's `atomicAdd` on a `float`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    Min,
    Max,
    Smin,
    Smax,
    Inc,
    Dec,
    Cas,
    And,
    Or,
    Xor,
    Fadd,
}

impl AtomicOp {
    pub const ALL: [AtomicOp; 14] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Xchg,
        AtomicOp::Min,
        AtomicOp::Max,
        AtomicOp::Smin,
        AtomicOp::Smax,
        AtomicOp::Inc,
        AtomicOp::Dec,
        AtomicOp::Cas,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::Fadd,
    ];
    pub fn name(self) -> &'static str {
        use AtomicOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Xchg => "xchg",
            Min => "min",
            Max => "max",
            Smin => "smin",
            Smax => "smax",
            Inc => "inc",
            Dec => "dec",
            Cas => "cas",
            And => "and",
            Or => "or",
            Xor => "xor",
            Fadd => "fadd",
        }
    }
    pub fn from_name(s: &str) -> Option<AtomicOp> {
        AtomicOp::ALL.into_iter().find(|o| o.name() == s)
    }
    /// The operation and its shape, from a name (`add`, `add64`, `add_bytes`,
    /// `add64_bytes`); the 64-bit operations are those of CUDA's and OpenCL's 64-bit atomics
    /// (no `inc`, `dec`, `fadd`).
    pub fn parse(s: &str) -> Option<(AtomicOp, AtomicShape)> {
        let (s, bytes) = match s.strip_suffix("_bytes") {
            Some(base) => (base, true),
            None => (s, false),
        };
        match s.strip_suffix("64") {
            Some(base) => AtomicOp::from_name(base).filter(|o| o.has_wide()).map(|o| (o, AtomicShape { wide: true, bytes })),
            None => AtomicOp::from_name(s).map(|o| (o, AtomicShape { wide: false, bytes })),
        }
    }
    /// Its KPL name in a shape (`add`, `add64`, `add_bytes`, `add64_bytes`).
    pub fn name_in(self, shape: AtomicShape) -> String {
        format!("{}{}{}", self.name(), if shape.wide { "64" } else { "" }, if shape.bytes { "_bytes" } else { "" })
    }
    /// Whether the operation has a 64-bit form.
    pub fn has_wide(self) -> bool {
        !matches!(self, AtomicOp::Inc | AtomicOp::Dec | AtomicOp::Fadd)
    }
    /// The operands after the element (`cas` takes the compared value and the new one).
    pub fn arity(self) -> usize {
        if self == AtomicOp::Cas {
            2
        } else {
            1
        }
    }
}

/// How an atomic's value lies in memory: one word (`add`); a 64-bit value in two words, the
/// low one first (`wide`: `add64`); or, in an array that holds one byte per element
/// (`bytes`), a 32-bit value in 4 elements or a 64-bit one in 8, the lowest byte first,
/// each element's low 8 bits (`add_bytes`, `add64_bytes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct AtomicShape {
    pub wide: bool,
    pub bytes: bool,
}

impl AtomicShape {
    /// One word: the plain atomic.
    pub const WORD: AtomicShape = AtomicShape { wide: false, bytes: false };
    /// The elements it acts on, from the index.
    pub fn elems(self) -> u32 {
        match (self.wide, self.bytes) {
            (false, false) => 1,
            (true, false) => 2,
            (false, true) => 4,
            (true, true) => 8,
        }
    }
    /// The value of the elements it acts on (`elems` of them, the lowest first).
    pub fn join(self, elems: &[u32]) -> u64 {
        let bits = if self.bytes { 8 } else { 32 };
        let mask = if self.bytes { 0xff } else { u32::MAX as u64 };
        elems.iter().enumerate().fold(0, |v, (k, &e)| v | (e as u64 & mask) << (bits * k as u32))
    }
    /// An atomic's operands as values of its width, from its operand words (pairs, low
    /// word first, when it is 64-bit).
    pub fn operands(self, words: &[u32]) -> Vec<u64> {
        if self.wide {
            words.chunks(2).map(|p| (p.get(1).copied().unwrap_or(0) as u64) << 32 | p[0] as u64).collect()
        } else {
            words.iter().map(|&w| w as u64).collect()
        }
    }
    /// What each element holds after the value `v` is written back.
    pub fn split(self, v: u64) -> Vec<u32> {
        let bits = if self.bytes { 8 } else { 32 };
        let mask = if self.bytes { 0xff } else { u32::MAX as u64 };
        (0..self.elems()).map(|k| (v >> (bits * k) & mask) as u32).collect()
    }
}

impl Atomic {
    /// The operation (the checker has made sure the name is one).
    pub fn operation(&self) -> AtomicOp {
        AtomicOp::parse(&self.op.name).map_or(AtomicOp::Add, |(o, _)| o)
    }
    /// How its value lies in memory.
    pub fn shape(&self) -> AtomicShape {
        AtomicOp::parse(&self.op.name).map_or(AtomicShape::WORD, |(_, s)| s)
    }
    /// Whether it is a 64-bit atomic (its value, operands and old value 64-bit).
    pub fn wide(&self) -> bool {
        self.shape().wide
    }
    /// The operands after the element: the operation's, as word pairs when 64-bit.
    pub fn arity(&self) -> usize {
        self.operation().arity() * if self.wide() { 2 } else { 1 }
    }
}

/// A warp collective: the old-style lock-step exchange between the threads of one warp
/// (`warp` consecutive linear local ids of a group: 32, or `--warp-sync=N`'s N). Each
/// thread that runs it names in `mask` (its first operand, except for `active`) the lanes
/// that must run it with it; one of them that exists and does not run it is warp
/// divergence, unless it has exited: `exited` (`warp OP(args; e)`), evaluated in each lane
/// (running or not, without reads), says which lanes have left the kernel, as CUDA allows
/// for the lanes of a mask. The result goes to `dest` (every operation gives one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warp {
    pub dest: Option<Ident>,
    /// `local x := warp ...`: `dest` is a new local.
    pub declare: bool,
    pub op: Ident,
    pub args: Vec<Expr>,
    pub exited: Option<Expr>,
}

/// The warp collectives: `shfl(mask, v, lane, width)` (CUDA's `__shfl_sync`), `shfl_up`,
/// `shfl_down`, `shfl_xor` (the same operands, the third a delta or a lane mask), `any`,
/// `all`, `ballot` (`(mask, p)`, CUDA's votes), `active()` (the lanes running it) and the
/// reductions `reduce_add`, `reduce_min`, `reduce_max` (unsigned), `reduce_smin`,
/// `reduce_smax` (signed), `reduce_and`, `reduce_or`, `reduce_xor` (`(mask, v)`, CUDA's
/// `__reduce_*_sync`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarpOp {
    Shfl,
    ShflUp,
    ShflDown,
    ShflXor,
    Any,
    All,
    Ballot,
    Active,
    ReduceAdd,
    ReduceMin,
    ReduceMax,
    ReduceSmin,
    ReduceSmax,
    ReduceAnd,
    ReduceOr,
    ReduceXor,
    /// `warp sync(mask)`: CUDA's `__syncwarp(mask)`, a barrier for the lanes the mask names
    /// (each must run it, with the same mask) that orders their memory accesses (both
    /// memories); gives 0.
    Sync,
    /// `match_any(mask, v)`: the lanes of the mask (running it) whose `v` equals the
    /// thread's (CUDA's `__match_any_sync`).
    MatchAny,
    /// `match_all(mask, v)`: the mask if every lane of it (running it) has the thread's `v`,
    /// else 0 (CUDA's `__match_all_sync`).
    MatchAll,
}

/// The scope of a memory fence (the threads its releases and acquires synchronise with), and
/// of an atomic (the threads it is atomic for).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FenceScope {
    /// The thread's group (CUDA's block): `__threadfence_block()`, OpenCL's `mem_fence`.
    Group,
    /// The whole launch: `__threadfence()`.
    Device,
    /// The device and the host: `__threadfence_system()` (within a kernel, as `Device`).
    System,
}

impl FenceScope {
    pub const ALL: [FenceScope; 3] = [FenceScope::Group, FenceScope::Device, FenceScope::System];
    /// Its KPL spelling (`fence group;`).
    pub fn name(self) -> &'static str {
        match self {
            FenceScope::Group => "group",
            FenceScope::Device => "device",
            FenceScope::System => "system",
        }
    }
    pub fn from_name(s: &str) -> Option<FenceScope> {
        FenceScope::ALL.into_iter().find(|f| f.name() == s)
    }
    /// Does it reach beyond the thread's group?
    pub fn device_wide(self) -> bool {
        self != FenceScope::Group
    }
}

/// Which way a memory fence orders (C++'s `atomic_thread_fence` orders): a full fence
/// (`fence group;`: CUDA's `__threadfence*`, an `acq_rel` or `seq_cst` fence) both
/// acquires (for the loads before it) and releases (for the stores after it); `fence
/// acquire group;` only acquires, `fence release group;` only releases. Only `kpl run --hb`
/// tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenceOrder {
    Full,
    Acquire,
    Release,
}

impl FenceOrder {
    /// Its KPL spelling before the scope (empty for a full fence).
    pub fn name(self) -> &'static str {
        match self {
            FenceOrder::Full => "",
            FenceOrder::Acquire => "acquire",
            FenceOrder::Release => "release",
        }
    }
    pub fn from_name(s: &str) -> Option<FenceOrder> {
        [FenceOrder::Acquire, FenceOrder::Release].into_iter().find(|f| f.name() == s)
    }
    /// Does a load (or atomic) right before it acquire?
    pub fn acquires(self) -> bool {
        self != FenceOrder::Release
    }
    /// Does a store (or atomic) right after it release?
    pub fn releases(self) -> bool {
        self != FenceOrder::Acquire
    }
}

impl WarpOp {
    pub const ALL: [WarpOp; 19] = [
        WarpOp::Shfl,
        WarpOp::ShflUp,
        WarpOp::ShflDown,
        WarpOp::ShflXor,
        WarpOp::Any,
        WarpOp::All,
        WarpOp::Ballot,
        WarpOp::Active,
        WarpOp::ReduceAdd,
        WarpOp::ReduceMin,
        WarpOp::ReduceMax,
        WarpOp::ReduceSmin,
        WarpOp::ReduceSmax,
        WarpOp::ReduceAnd,
        WarpOp::ReduceOr,
        WarpOp::ReduceXor,
        WarpOp::Sync,
        WarpOp::MatchAny,
        WarpOp::MatchAll,
    ];
    pub fn name(self) -> &'static str {
        use WarpOp::*;
        match self {
            Shfl => "shfl",
            ShflUp => "shfl_up",
            ShflDown => "shfl_down",
            ShflXor => "shfl_xor",
            Any => "any",
            All => "all",
            Ballot => "ballot",
            Active => "active",
            ReduceAdd => "reduce_add",
            ReduceMin => "reduce_min",
            ReduceMax => "reduce_max",
            ReduceSmin => "reduce_smin",
            ReduceSmax => "reduce_smax",
            ReduceAnd => "reduce_and",
            ReduceOr => "reduce_or",
            ReduceXor => "reduce_xor",
            Sync => "sync",
            MatchAny => "match_any",
            MatchAll => "match_all",
        }
    }
    pub fn from_name(s: &str) -> Option<WarpOp> {
        WarpOp::ALL.into_iter().find(|o| o.name() == s)
    }
    /// How many operands it takes (the mask included).
    pub fn arity(self) -> usize {
        use WarpOp::*;
        match self {
            Shfl | ShflUp | ShflDown | ShflXor => 4,
            Active => 0,
            Sync => 1,
            _ => 2,
        }
    }
    /// Whether its first operand is a mask of lanes that must all run it.
    pub fn has_mask(self) -> bool {
        self != WarpOp::Active
    }
    /// A reduction's identity and step (`reduce_*`), `None` for the other collectives.
    pub fn reduction(self) -> Option<(u32, fn(u32, u32) -> u32)> {
        use WarpOp::*;
        Some(match self {
            ReduceAdd => (0, u32::wrapping_add),
            ReduceMin => (u32::MAX, u32::min),
            ReduceMax => (0, u32::max),
            ReduceSmin => (i32::MAX as u32, |a, b| (a as i32).min(b as i32) as u32),
            ReduceSmax => (i32::MIN as u32, |a, b| (a as i32).max(b as i32) as u32),
            ReduceAnd => (u32::MAX, |a, b| a & b),
            ReduceOr => (0, |a, b| a | b),
            ReduceXor => (0, |a, b| a ^ b),
            _ => return None,
        })
    }
}

impl Warp {
    /// The operation (the checker has made sure the name is one).
    pub fn operation(&self) -> WarpOp {
        WarpOp::from_name(&self.op.name).unwrap_or(WarpOp::Active)
    }
}

/// The memories a barrier orders (its fence), per memory a condition each thread
/// evaluates: a thread's accesses to that memory before the barrier are ordered with
/// everyone's after it only when its condition holds. `barrier;` orders both. A barrier
/// also carries its barrier invariants (GPUVerify's `__barrier_invariant_N`).
/// `grid`: `barrier grid;`, a barrier of every thread of the launch, not of a group
/// (cooperative groups' `this_grid().sync()`): both memories, no invariants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    pub shared: Expr,
    pub global: Expr,
    pub invariants: Vec<BarrierInvariant>,
    pub grid: bool,
}

/// `invariant E for I1, I2` (unary) or `invariant E for (A1, B1), (A2, B2)` (binary) on a
/// barrier: every thread (every pair of one group, binary) must satisfy `E` when the
/// barrier is reached; after it the verifier may assume `E` with `lid.x` replaced by each
/// instantiation (binary: `lid.x` by `A` and `other(lid.x)` by `B`). Array reads in `E` are
/// not accesses: they see the thread's own view of the array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarrierInvariant {
    pub expr: Expr,
    /// One expression per instantiation (unary) or two (binary).
    pub insts: Vec<Vec<Expr>>,
    pub span: Span,
}

impl BarrierInvariant {
    /// Is it a binary (two-thread) barrier invariant?
    pub fn binary(&self) -> bool {
        self.insts.first().is_some_and(|i| i.len() == 2)
    }
}

impl Fence {
    /// The fence of `barrier;` (and CUDA's `__syncthreads()`): both memories.
    pub fn both(span: Span) -> Fence {
        Fence::constant(true, true, span)
    }
    /// The fence of `barrier grid;`: every thread of the launch, both memories.
    pub fn grid(span: Span) -> Fence {
        Fence { grid: true, ..Fence::both(span) }
    }
    /// A fence whose conditions are the literals given.
    pub fn constant(shared: bool, global: bool, span: Span) -> Fence {
        Fence {
            shared: Expr::new(ExprKind::Bool(shared), span),
            global: Expr::new(ExprKind::Bool(global), span),
            invariants: vec![],
            grid: false,
        }
    }
    /// The condition for one kind of memory (`true`: shared).
    pub fn of(&self, shared: bool) -> &Expr {
        if shared {
            &self.shared
        } else {
            &self.global
        }
    }
    /// Whether the fence is a literal for both memories (as `barrier;` and every fence of
    /// real kernels): `Some((shared, global))`.
    pub fn as_constant(&self) -> Option<(bool, bool)> {
        let lit = |e: &Expr| match e.kind {
            ExprKind::Bool(b) => Some(b),
            ExprKind::Num(n) => Some(n != 0),
            _ => None,
        };
        Some((lit(&self.shared)?, lit(&self.global)?))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Else {
    Block(Block),
    /// `else if ...`: an `If` statement.
    If(Stmt),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    X,
    Y,
    Z,
}

impl Axis {
    pub const ALL: [Axis; 3] = [Axis::X, Axis::Y, Axis::Z];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        ["x", "y", "z"][self as usize]
    }
}

/// The built-in thread-dependent and launch values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    Lid,
    Gid,
    Threads,
    Groups,
}

impl Special {
    pub fn name(self) -> &'static str {
        match self {
            Special::Lid => "lid",
            Special::Gid => "gid",
            Special::Threads => "threads",
            Special::Groups => "groups",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Num(u64),
    Bool(bool),
    Var(Ident),
    Index(Ident, Box<Expr>),
    /// `lid`, `gid.y`, `threads.z`, ...; `explicit` is whether the axis was written.
    Special(Special, Axis, bool),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A built-in function call (`min(a, b)`, `slt(a, b)`, ...).
    Call(Ident, Vec<Expr>),
    /// An expression the parser could not read (already reported).
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    BitNot,
    Neg,
}

impl UnOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Not => "!",
            UnOp::BitNot => "~",
            UnOp::Neg => "-",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    LOr,
    LAnd,
    BitOr,
    BitXor,
    BitAnd,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    /// The comparison `op'` with `b op' a` meaning `a op b` (itself for any other operator).
    pub fn flipped(self) -> BinOp {
        match self {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            other => other,
        }
    }

    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            LOr => "||",
            LAnd => "&&",
            BitOr => "|",
            BitXor => "^",
            BitAnd => "&",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Shl => "<<",
            Shr => ">>",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
        }
    }
    /// Binding strength: higher binds tighter (`?:` is 0, unary is 11).
    pub fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            LOr => 1,
            LAnd => 2,
            BitOr => 3,
            BitXor => 4,
            BitAnd => 5,
            Eq | Ne => 6,
            Lt | Le | Gt | Ge => 7,
            Shl | Shr => 8,
            Add | Sub => 9,
            Mul | Div | Rem => 10,
        }
    }
}

/// The built-in functions of KPL.md, and kpl's float extension (used by the C front
/// ends): IEEE single precision on the words' bits in the interpreter, uninterpreted
/// functions in the verifier (except `fneg` and `fabs`, which are exact bit operations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Slt,
    Sle,
    Sgt,
    Sge,
    Sdiv,
    Srem,
    Ashr,
    Min,
    Max,
    Implies,
    Fadd,
    Fsub,
    Fmul,
    Fdiv,
    Fneg,
    Fabs,
    Flt,
    Fle,
    Feq,
    Fmin,
    Fmax,
    Fsqrt,
    Itof,
    Utof,
    Ftoi,
    Ftou,
    /// `other(e)`: `e` in the other thread of a pair (assertions and invariants only).
    Other,
    /// `enabled()`: whether the thread is enabled here (assertions and invariants only).
    Enabled,
    /// `written(A)`, `was_read(A)`: whether the thread has written (read) array `A` since
    /// the last barrier; `write_index(A)`, `read_index(A)`: the element of such an access
    /// (GPUVerify's access predicates; invariants and assertions only, read by the verifier).
    Written,
    WasRead,
    WriteIndex,
    ReadIndex,
    /// `taken(A, i, v)`: whether the thread's atomic additions to `A[i]` gave it `v`
    /// (GPUVerify's `__atomic_has_taken_value`; `reduction/src/atomic_tickets.rs`).
    Taken,
}

impl Builtin {
    /// Every built-in, the integer ones first.
    pub const ALL: [Builtin; 33] = [
        Builtin::Slt,
        Builtin::Sle,
        Builtin::Sgt,
        Builtin::Sge,
        Builtin::Sdiv,
        Builtin::Srem,
        Builtin::Ashr,
        Builtin::Min,
        Builtin::Max,
        Builtin::Implies,
        Builtin::Fadd,
        Builtin::Fsub,
        Builtin::Fmul,
        Builtin::Fdiv,
        Builtin::Fneg,
        Builtin::Fabs,
        Builtin::Flt,
        Builtin::Fle,
        Builtin::Feq,
        Builtin::Fmin,
        Builtin::Fmax,
        Builtin::Fsqrt,
        Builtin::Itof,
        Builtin::Utof,
        Builtin::Ftoi,
        Builtin::Ftou,
        Builtin::Other,
        Builtin::Enabled,
        Builtin::Written,
        Builtin::WasRead,
        Builtin::WriteIndex,
        Builtin::ReadIndex,
        Builtin::Taken,
    ];
    /// The built-ins of KPL.md proper (integer words only): the first ten of `ALL`.
    pub const INTEGER: &'static [Builtin] = Self::ALL.as_slice().split_at(10).0;
    pub fn name(self) -> &'static str {
        use Builtin::*;
        match self {
            Slt => "slt",
            Sle => "sle",
            Sgt => "sgt",
            Sge => "sge",
            Sdiv => "sdiv",
            Srem => "srem",
            Ashr => "ashr",
            Min => "min",
            Max => "max",
            Implies => "implies",
            Fadd => "fadd",
            Fsub => "fsub",
            Fmul => "fmul",
            Fdiv => "fdiv",
            Fneg => "fneg",
            Fabs => "fabs",
            Flt => "flt",
            Fle => "fle",
            Feq => "feq",
            Fmin => "fmin",
            Fmax => "fmax",
            Fsqrt => "fsqrt",
            Itof => "itof",
            Utof => "utof",
            Ftoi => "ftoi",
            Ftou => "ftou",
            Other => "other",
            Enabled => "enabled",
            Written => "written",
            WasRead => "was_read",
            WriteIndex => "write_index",
            ReadIndex => "read_index",
            Taken => "taken",
        }
    }
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.iter().copied().find(|b| b.name() == name)
    }
    pub fn arity(self) -> usize {
        use Builtin::*;
        match self {
            Fneg | Fabs | Fsqrt | Itof | Utof | Ftoi | Ftou | Other | Written | WasRead | WriteIndex | ReadIndex => 1,
            Enabled => 0,
            Taken => 3,
            _ => 2,
        }
    }
    /// A float operation (opaque to the verifier, IEEE in the interpreter).
    pub fn is_float(self) -> bool {
        !Builtin::INTEGER.contains(&self) && !self.is_two_thread() && !self.is_access()
    }
    /// The access predicates: their argument names an array; only the verifier, which
    /// logs accesses, gives them a meaning.
    pub fn is_access(self) -> bool {
        matches!(self, Builtin::Written | Builtin::WasRead | Builtin::WriteIndex | Builtin::ReadIndex | Builtin::Taken)
    }
    /// `other` and `enabled`: they speak of two threads (GPUVerify's two-thread
    /// annotations), so they may appear only in assertions, invariants and candidates.
    pub fn is_two_thread(self) -> bool {
        matches!(self, Builtin::Other | Builtin::Enabled)
    }
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
    pub fn num(n: u64, span: Span) -> Expr {
        Expr::new(ExprKind::Num(n), span)
    }
    pub fn var(name: &str, span: Span) -> Expr {
        Expr::new(ExprKind::Var(Ident::new(name, span)), span)
    }
    /// Does this expression read an array anywhere?
    pub fn has_reads(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(e.kind, ExprKind::Index(..)));
        found
    }
    /// Does it use `other` or `enabled` (speak of two threads)?
    pub fn two_thread(&self) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= matches!(&e.kind, ExprKind::Call(f, _) if Builtin::from_name(&f.name).is_some_and(Builtin::is_two_thread)));
        found
    }
    /// Visit every sub-expression, parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Index(_, i) => i.walk(f),
            ExprKind::Unary(_, a) => a.walk(f),
            ExprKind::Binary(_, a, b) => {
                a.walk(f);
                b.walk(f)
            }
            ExprKind::Cond(a, b, c) => {
                a.walk(f);
                b.walk(f);
                c.walk(f)
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| a.walk(f)),
            ExprKind::Num(_) | ExprKind::Bool(_) | ExprKind::Var(_) | ExprKind::Special(..) | ExprKind::Error => {}
        }
    }
}

impl Kernel {
    /// Can an assertion observe a disabled thread's locals: is there a `global assert`, or
    /// `other`/`enabled` in an assertion, assumption, loop invariant or barrier invariant?
    /// Then a declaration gives its local a value in every thread (interpreter and
    /// verifier alike); otherwise nothing can tell what a disabled thread holds.
    pub fn observes_disabled(&self) -> bool {
        fn block(b: &Block) -> bool {
            b.stmts.iter().any(|s| match &s.kind {
                StmtKind::Assert(_, true) => true,
                StmtKind::Assert(e, false) | StmtKind::Assume(e) => e.two_thread(),
                StmtKind::If(_, t, e) => {
                    block(t)
                        || match e.as_deref() {
                            Some(Else::Block(b)) => block(b),
                            Some(Else::If(s)) => block(&Block { stmts: vec![(*s).clone()], span: s.span }),
                            None => false,
                        }
                }
                StmtKind::While { invariants, body, .. } => invariants.iter().any(Expr::two_thread) || block(body),
                StmtKind::Barrier(f) => f.invariants.iter().any(|i| i.expr.two_thread()),
                _ => false,
            })
        }
        self.procs.iter().any(|p| block(&p.body)) || block(&self.main)
    }

    /// The `groups:` and `threads:` declarations, as written (1 for missing dimensions).
    pub fn declared_dims(&self, threads: bool) -> Option<[u64; 3]> {
        self.decls.iter().find_map(|d| match (&d.kind, threads) {
            (DeclKind::Threads(ds), true) | (DeclKind::Groups(ds), false) => {
                let mut out = [1u64; 3];
                for (i, (n, _)) in ds.dims.iter().take(3).enumerate() {
                    out[i] = *n;
                }
                Some(out)
            }
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Builtin;

    #[test]
    fn the_integer_built_ins_are_exactly_the_non_float_ones() {
        for b in Builtin::ALL {
            let float_name = b.name().starts_with('f') || matches!(b.name(), "itof" | "utof");
            assert_eq!(b.is_float(), float_name, "{}", b.name());
        }
        assert_eq!(Builtin::INTEGER.len(), 10);
    }

    #[test]
    fn atomic_names_give_their_shapes_and_bytes_join_low_first() {
        use super::{AtomicOp, AtomicShape};
        let shape = |w, b| AtomicShape { wide: w, bytes: b };
        assert_eq!(AtomicOp::parse("sub"), Some((AtomicOp::Sub, AtomicShape::WORD)));
        assert_eq!(AtomicOp::parse("sub_bytes"), Some((AtomicOp::Sub, shape(false, true))));
        assert_eq!(AtomicOp::parse("cas64_bytes"), Some((AtomicOp::Cas, shape(true, true))));
        assert_eq!(AtomicOp::parse("inc64_bytes"), None);
        assert_eq!(AtomicOp::parse("add_bytes64"), None);
        for (op, s) in [(AtomicOp::Xor, shape(true, true)), (AtomicOp::Fadd, shape(false, true)), (AtomicOp::Min, shape(true, false))] {
            assert_eq!(AtomicOp::parse(&op.name_in(s)), Some((op, s)));
        }
        let b = shape(false, true);
        assert_eq!(b.elems(), 4);
        // Only each element's low byte counts; the value is written back one byte each.
        assert_eq!(b.join(&[0x1e0, 0x1f, 0, 0xab00]), 0x1fe0);
        assert_eq!(b.split(0x1234_5678), vec![0x78, 0x56, 0x34, 0x12]);
        let w = shape(true, true);
        assert_eq!(w.split(0x1_0000_001f), vec![0x1f, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(shape(true, false).join(&[5, 1]), 0x1_0000_0005);
        assert_eq!(shape(true, false).operands(&[5, 1, 7, 0]), vec![0x1_0000_0005, 7]);
        assert_eq!(b.operands(&[5, 7]), vec![5, 7]);
    }
}
