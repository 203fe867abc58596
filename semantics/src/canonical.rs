//! A second executor: GKLEE's canonical schedule. Within each barrier interval the threads
//! of a group run one after another, each to its next barrier, on one sequentially
//! consistent memory; groups run one after another. It shares nothing with the SDV executor
//! but the compiled program and the inputs: the program is flattened to jump code with procs
//! inlined, and each thread is an ordinary sequential machine. For a race- and
//! divergence-free kernel it must compute exactly the SDV final memory.

use crate::inputs::Inputs;
use crate::ir::{ArrayKind, Ex, Program, St, StKind};
use crate::report::{ArrayContents, Outcome};
use kpl_lang::ast::{AtomicOp, AtomicShape, FenceOrder, FenceScope, Special, WarpOp};
use kpl_lang::ops;
use std::collections::BTreeMap;

pub(crate) enum Ins {
    Set(u32, Ex),
    /// A read: slot, array, index, statement.
    Read(u32, u32, Ex, u32),
    /// A write: array, index, value, statement.
    Write(u32, Ex, Ex, u32),
    /// An atomic: op, shape and scope, the slots for the old value (low word, high word),
    /// array, index, operands, statement.
    Atomic((AtomicOp, AtomicShape, FenceScope), [Option<u32>; 2], u32, Ex, Vec<Ex>, u32),
    /// Jump to the target when the expression is zero.
    Jz(Ex, usize),
    Jmp(usize),
    /// A barrier: statement, per thread whether it orders shared and global memory, and
    /// whether it is a grid barrier (this executor's callers refuse those: it runs groups
    /// one at a time; `first_grid_barrier`).
    Barrier(u32, Ex, Ex, bool),
    Assert(Ex, u32),
    Assume(Ex, u32),
    /// `havoc`: the slot, the statement.
    Havoc(u32, u32),
    /// A memory fence (nothing here; the happens-before run reads it).
    Fence(FenceScope, FenceOrder),
    /// A warp collective: op, result slot, operands, statement. Run one thread at a time,
    /// a collective's result is arbitrary (callers refuse programs with collectives:
    /// `first_warp_collective`); the happens-before run computes it for the warp.
    Warp(WarpOp, Option<u32>, Vec<Ex>, u32),
}

impl Ins {
    /// Does it touch memory or wait for other threads (a read, write, atomic, barrier or
    /// collective)? Fences and local work do not.
    pub(crate) fn is_access(&self) -> bool {
        matches!(self, Ins::Read(..) | Ins::Write(..) | Ins::Atomic(..) | Ins::Barrier(..) | Ins::Warp(..))
    }
}

/// A program as jump code, procs inlined (each call site its own copy).
pub(crate) fn flatten(prog: &Program) -> Vec<Ins> {
    let mut flat = Flat { code: Vec::new(), loops: Vec::new(), returns: Vec::new() };
    flat.block(prog, &prog.main);
    flat.code
}

struct Flat {
    code: Vec<Ins>,
    /// Jump-instruction positions to patch: (position, is break) per enclosing loop.
    loops: Vec<(usize, Vec<usize>)>,
    returns: Vec<Vec<usize>>,
}

impl Flat {
    fn emit(&mut self, i: Ins) -> usize {
        self.code.push(i);
        self.code.len() - 1
    }
    fn patch(&mut self, at: usize, to: usize) {
        match &mut self.code[at] {
            Ins::Jz(_, t) | Ins::Jmp(t) => *t = to,
            _ => {}
        }
    }
    fn block(&mut self, p: &Program, stmts: &[St]) {
        for s in stmts {
            self.stmt(p, s);
        }
    }
    fn stmt(&mut self, p: &Program, s: &St) {
        match &s.kind {
            StKind::Local { slot, init } => {
                self.emit(Ins::Set(*slot, init.clone().unwrap_or(Ex::Const(0))));
            }
            StKind::Assign { slot, value } => {
                self.emit(Ins::Set(*slot, value.clone()));
            }
            StKind::Havoc { slot } => {
                self.emit(Ins::Havoc(*slot, s.id));
            }
            StKind::Read { slot, array, index, .. } => {
                self.emit(Ins::Read(*slot, *array, index.clone(), s.id));
            }
            StKind::Write { array, index, value } => {
                self.emit(Ins::Write(*array, index.clone(), value.clone(), s.id));
            }
            StKind::Atomic { op, shape, slot, slot_hi, array, index, args, scope } => {
                self.emit(Ins::Atomic((*op, *shape, *scope), [*slot, *slot_hi], *array, index.clone(), args.clone(), s.id));
            }
            // Its callers refuse programs with snapshots (`first_snapshot`): ghost arrays need
            // per-thread copies joined at barriers (`ghost.rs`), which only `sdv` keeps.
            StKind::Snapshot { .. } => {}
            StKind::Warp { op, slot, args, .. } => {
                self.emit(Ins::Warp(*op, *slot, args.clone(), s.id));
            }
            StKind::Fence(f, o) => {
                self.emit(Ins::Fence(*f, *o));
            }
            StKind::If { cond, then, els, .. } => {
                let jz = self.emit(Ins::Jz(cond.clone(), 0));
                self.block(p, then);
                let jmp = self.emit(Ins::Jmp(0));
                let else_at = self.code.len();
                self.patch(jz, else_at);
                self.block(p, els);
                let end = self.code.len();
                self.patch(jmp, end);
            }
            StKind::While { cond, invariants, body, .. } => {
                let head = self.code.len();
                for (inv, id) in invariants {
                    self.emit(Ins::Assert(inv.clone(), *id));
                }
                let jz = self.emit(Ins::Jz(cond.clone(), 0));
                self.loops.push((head, Vec::new()));
                self.block(p, body);
                self.emit(Ins::Jmp(head));
                let end = self.code.len();
                self.patch(jz, end);
                let (_, breaks) = self.loops.pop().unwrap_or_default();
                for b in breaks {
                    self.patch(b, end);
                }
            }
            StKind::Call { proc, args } => {
                let pr = &p.procs[*proc as usize];
                for (slot, a) in pr.params.iter().zip(args) {
                    self.emit(Ins::Set(*slot, a.clone()));
                }
                // A proc's loops are its own: break/continue never cross a call.
                let outer = std::mem::take(&mut self.loops);
                self.returns.push(Vec::new());
                self.block(p, &pr.body);
                let end = self.code.len();
                for r in self.returns.pop().unwrap_or_default() {
                    self.patch(r, end);
                }
                self.loops = outer;
            }
            StKind::Barrier { shared, global, grid, .. } => {
                self.emit(Ins::Barrier(s.id, shared.clone(), global.clone(), *grid));
            }
            StKind::Break => {
                let j = self.emit(Ins::Jmp(0));
                if let Some(l) = self.loops.last_mut() {
                    l.1.push(j);
                }
            }
            StKind::Continue => {
                let head = self.loops.last().map(|l| l.0).unwrap_or(0);
                self.emit(Ins::Jmp(head));
            }
            StKind::Return => {
                let j = self.emit(Ins::Jmp(0));
                if let Some(r) = self.returns.last_mut() {
                    r.push(j);
                }
            }
            // A `global assert` speaks of disabled threads too, which a schedule of one
            // thread at a time does not have (the SDV executor checks it).
            StKind::Assert(_, true) => {}
            StKind::Assert(e, false) => {
                self.emit(Ins::Assert(e.clone(), s.id));
            }
            StKind::Assume(e) => {
                self.emit(Ins::Assume(e.clone(), s.id));
            }
        }
    }
}

/// What a canonical-schedule run gives: an outcome kind and the final memory.
pub struct CanonicalResult {
    pub outcome: Outcome,
    pub memory: Vec<(String, ArrayContents)>,
}

enum Cells {
    Dense(Vec<u32>),
    Sparse(BTreeMap<u32, u32>),
}

/// One sequentially consistent memory: every array, shared arrays once per group.
pub(crate) struct Mem<'a> {
    inputs: &'a Inputs,
    pub(crate) prog: &'a Program,
    /// Per array, per instance (group for shared arrays).
    cells: Vec<Vec<Cells>>,
}

impl<'a> Mem<'a> {
    /// The memory at the start of a run: the inputs' contents.
    pub(crate) fn new(prog: &'a Program, inputs: &'a Inputs) -> Mem<'a> {
        let groups = prog.launch.num_groups() as u32;
        let cells = prog
            .arrays
            .iter()
            .map(|a| {
                let shared = a.kind == ArrayKind::Shared;
                let instances = if shared { groups } else { 1 };
                (0..instances)
                    .map(|g| match a.size {
                        // Dense up to 2^24 cells in all (as the SDV memory), sparse beyond.
                        Some(n) if n <= 1 << 22 && n as u64 * instances as u64 <= 1 << 24 => {
                            Cells::Dense((0..n).map(|i| inputs.element(&a.name, shared.then_some(g), i)).collect())
                        }
                        _ => Cells::Sparse(BTreeMap::new()),
                    })
                    .collect()
            })
            .collect();
        Mem { inputs, prog, cells }
    }

    /// The instance of array `a` that group `g` sees (its own for a shared array).
    pub(crate) fn instance(&self, a: u32, g: u32) -> u32 {
        if self.prog.arrays[a as usize].kind == ArrayKind::Shared {
            g
        } else {
            0
        }
    }

    fn cell(&mut self, a: u32, g: u32, i: u32) -> &mut u32 {
        let info = &self.prog.arrays[a as usize];
        let shared = info.kind == ArrayKind::Shared;
        let inst = if shared { g as usize } else { 0 };
        match &mut self.cells[a as usize][inst] {
            Cells::Dense(d) => &mut d[i as usize],
            Cells::Sparse(m) => {
                let (inputs, name) = (self.inputs, &info.name);
                m.entry(i).or_insert_with(|| inputs.element(name, shared.then_some(g), i))
            }
        }
    }
}

enum Stop {
    Barrier(usize),
    Halt,
    /// Paused before an atomic (a scheduling point of delay-bounded exploration).
    Atomic,
}

/// Delay-bounded scheduling (Emmi, Qadeer and Rakamaric's delay bounding, as NFM 2013
/// applies it to GPU atomics): within a barrier interval the threads of a group run in
/// turn, each until its next barrier; every atomic a thread is about to perform while
/// another thread of its group is still running is a scheduling point, numbered over the
/// whole run. A delay at a point moves that thread behind the others: the next thread runs
/// first, and the delayed one resumes (performing its atomic) when its turn comes again.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    /// The scheduling points (increasing) at which the running thread is delayed.
    pub delays: Vec<usize>,
}

/// What a scheduled run went through.
#[derive(Clone, Debug, Default)]
pub struct Points {
    /// Scheduling points met.
    pub count: usize,
    /// Each delay taken: the thread and the atomic statement it was about to perform.
    pub taken: Vec<(crate::report::ThreadId, u32)>,
}

/// Run the kernel under the canonical schedule (no race detection: compare only runs of
/// race-free kernels). Errors it can see: out-of-bounds, assertion, divergence (threads of
/// a group stopping at different barriers, or some finishing while others wait), `assume`.
pub fn run(prog: &Program, inputs: &Inputs, max_steps: u64) -> CanonicalResult {
    run_scheduled(prog, inputs, max_steps, None).0
}

/// `run` under a delay-bounded schedule (`None`: the canonical schedule, no scheduling
/// points); gives the scheduling points met.
pub fn run_scheduled(prog: &Program, inputs: &Inputs, max_steps: u64, sched: Option<&Schedule>) -> (CanonicalResult, Points) {
    let mut points = Points::default();
    let code = flatten(prog);
    let l = prog.launch;
    let groups = l.num_groups() as u32;
    let tpg = l.threads_per_group() as u32;
    let mut mem = Mem::new(prog, inputs);
    let params: Vec<u32> = prog.params.iter().map(|p| inputs.param(p)).collect();
    let mut steps = 0u64;
    let outcome = (|| {
        if let Some(o) = requires_fail(prog, &params) {
            return o;
        }
        for g in 0..groups {
            let gid = split(g, l.groups);
            let mut threads: Vec<(usize, Vec<u32>, u32)> = (0..tpg).map(|_| (0, vec![0; prog.slots.len()], 0)).collect();
            loop {
                let mut stops: Vec<Stop> = (0..tpg).map(|_| Stop::Halt).collect();
                let mut queue: std::collections::VecDeque<usize> = (0..tpg as usize).collect();
                let mut paused = vec![false; tpg as usize];
                while let Some(&li) = queue.front() {
                    let (pc, locals, havocs) = &mut threads[li];
                    let mut th =
                        Thread { locals: std::mem::take(locals), lid: split(li as u32, l.threads), gid, l: &l, params: &params, havocs: *havocs };
                    // Scheduling points only while another thread of the group still runs.
                    let pause = sched.is_some() && queue.len() > 1;
                    let r = th.run(&code, pc, &mut mem, g, &mut steps, max_steps, pause, paused[li]);
                    *locals = th.locals;
                    *havocs = th.havocs;
                    paused[li] = false;
                    match r {
                        Ok(Stop::Atomic) => {
                            let point = points.count;
                            points.count += 1;
                            paused[li] = true;
                            if sched.is_some_and(|s| s.delays.binary_search(&point).is_ok()) {
                                let stmt = match &code[*pc] {
                                    Ins::Atomic(.., id) => *id,
                                    _ => 0,
                                };
                                points.taken.push((crate::report::ThreadId { group: gid, local: split(li as u32, l.threads) }, stmt));
                                queue.rotate_left(1);
                            }
                        }
                        Ok(s) => {
                            stops[li] = s;
                            queue.pop_front();
                        }
                        Err(o) => return o,
                    }
                }
                let at: Vec<Option<usize>> =
                    stops.iter().map(|s| if let Stop::Barrier(b) = s { Some(*b) } else { None }).collect();
                if at.iter().all(|s| s.is_none()) {
                    break;
                }
                if at.iter().any(|s| *s != at[0]) {
                    let at_barrier = at.iter().find_map(|s| *s).unwrap_or(0);
                    let span = match &code[at_barrier] {
                        Ins::Barrier(id, ..) => prog.stmts[*id as usize].span,
                        _ => kpl_lang::Span::DUMMY,
                    };
                    let t = |li: usize| crate::report::ThreadId { group: gid, local: split(li as u32, l.threads) };
                    let en = at.iter().position(|s| s.is_some()).unwrap_or(0);
                    let dis = at.iter().position(|s| *s != at[en]).unwrap_or(0);
                    return Outcome::Defect(crate::report::Defect::Divergence { span, enabled: t(en), disabled: t(dis), at: crate::report::DivergenceAt::Barrier });
                }
                for (pc, _, _) in threads.iter_mut() {
                    *pc += 1;
                }
            }
        }
        Outcome::Ok
    })();
    (CanonicalResult { outcome, memory: mem.contents() }, points)
}

impl Mem<'_> {
    /// The final contents, array by array.
    pub(crate) fn contents(self) -> Vec<(String, ArrayContents)> {
        self.prog
        .arrays
        .iter()
        .zip(self.cells)
        .map(|(a, cells)| {
            let c = if a.kind == ArrayKind::Shared {
                if cells.iter().all(|c| matches!(c, Cells::Dense(_))) {
                    ArrayContents::PerGroup(cells.into_iter().map(|c| if let Cells::Dense(d) = c { d } else { vec![] }).collect())
                } else {
                    ArrayContents::SparsePerGroup(cells.into_iter().map(to_map).collect())
                }
            } else {
                match cells.into_iter().next() {
                    Some(Cells::Dense(d)) => ArrayContents::Dense(d),
                    Some(c) => ArrayContents::Sparse(to_map(c)),
                    None => ArrayContents::Sparse(BTreeMap::new()),
                }
            };
            (a.name.clone(), c)
        })
        .collect()
    }
}

fn to_map(c: Cells) -> BTreeMap<u32, u32> {
    match c {
        Cells::Dense(d) => d.into_iter().enumerate().map(|(i, v)| (i as u32, v)).collect(),
        Cells::Sparse(m) => m,
    }
}

/// `Infeasible` at the first `requires` the parameters violate.
pub(crate) fn requires_fail(prog: &Program, params: &[u32]) -> Option<Outcome> {
    let th = Thread { locals: vec![], lid: [0; 3], gid: [0; 3], l: &prog.launch, params, havocs: 0 };
    prog.requires.iter().find(|(e, _)| th.eval(e) == 0).map(|(_, span)| Outcome::Infeasible { span: *span, thread: None })
}

pub(crate) fn split(mut v: u32, d: [u32; 3]) -> [u32; 3] {
    let x = v % d[0];
    v /= d[0];
    [x, v % d[1], v / d[1]]
}

pub(crate) struct Thread<'a> {
    pub(crate) locals: Vec<u32>,
    pub(crate) lid: [u32; 3],
    pub(crate) gid: [u32; 3],
    pub(crate) l: &'a kpl_lang::Launch,
    pub(crate) params: &'a [u32],
    /// How many `havoc`s the thread has performed.
    pub(crate) havocs: u32,
}

/// One element of memory: an array, its instance (the group, for a shared array), an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub array: u32,
    pub inst: u32,
    pub index: u32,
}

/// What one instruction did to memory (`Thread::exec`), for the happens-before run.
pub(crate) enum Effect {
    /// Nothing another thread can see (locals, jumps, assertions).
    Local,
    /// A read or write of one element: the value read or written, the statement (and for a
    /// write, whether it left the element's value as it was).
    Read(Cell, u32, u32),
    Write(Cell, u32, u32, bool),
    /// An atomic on `n` elements from the cell (2 for a 64-bit one), the statement, its scope.
    Atomic(Cell, u32, u32, FenceScope),
    Fence(FenceScope, FenceOrder),
    /// Stopped before a barrier or a warp collective (not performed: the caller does).
    Barrier,
    Warp,
}

impl Thread<'_> {
    pub(crate) fn eval(&self, e: &Ex) -> u32 {
        match e {
            Ex::Const(c) => *c,
            Ex::Slot(s) => self.locals[*s as usize],
            Ex::Param(p) => self.params[*p as usize],
            Ex::Special(s, a) => match s {
                Special::Lid => self.lid[a.index()],
                Special::Gid => self.gid[a.index()],
                Special::Threads => self.l.threads[a.index()],
                Special::Groups => self.l.groups[a.index()],
            },
            Ex::Un(op, a) => ops::unary(*op, self.eval(a)),
            Ex::Bin(op, a, b) => ops::binary(*op, self.eval(a), self.eval(b)),
            Ex::Cond(c, a, b) => {
                let (c, a, b) = (self.eval(c), self.eval(a), self.eval(b));
                if c != 0 {
                    a
                } else {
                    b
                }
            }
            Ex::Call(f, a, b) => ops::builtin(*f, self.eval(a), self.eval(b)),
            // Reads appear only in loop and barrier invariants, which this schedule does
            // not check (the SDV executor does).
            Ex::Read(..) => 0,
        }
    }

    pub(crate) fn thread_id(&self) -> crate::report::ThreadId {
        crate::report::ThreadId { group: self.gid, local: self.lid }
    }

    /// Run from `pc` to the next barrier (stopping on it) or to the end.
    /// With `pause`, stop before an atomic (a scheduling point), unless `resume` says the
    /// thread was paused there and now performs it.
    #[allow(clippy::too_many_arguments)]
    fn run(&mut self, code: &[Ins], pc: &mut usize, mem: &mut Mem, g: u32, steps: &mut u64, max: u64, pause: bool, resume: bool) -> Result<Stop, Outcome> {
        let mut resume = resume;
        while *pc < code.len() {
            if pause && !resume && matches!(code[*pc], Ins::Atomic(..)) {
                return Ok(Stop::Atomic);
            }
            resume = false;
            *steps += 1;
            if *steps > max {
                return Err(Outcome::Timeout);
            }
            match self.exec(code, pc, mem, g)? {
                Effect::Barrier => return Ok(Stop::Barrier(*pc)),
                // One thread alone: the collective's result is arbitrary (see `Ins::Warp`).
                Effect::Warp => {
                    if let Ins::Warp(_, Some(s), _, id) = &code[*pc] {
                        self.locals[*s as usize] = mem.inputs.havoc_value(*id, &self.thread_id(), self.havocs);
                        self.havocs += 1;
                    }
                    *pc += 1;
                }
                _ => {}
            }
        }
        Ok(Stop::Halt)
    }

    /// Perform the instruction at `pc` (`pc < code.len()`) and move `pc` past it, except
    /// for a barrier or a warp collective, which stay for the caller.
    pub(crate) fn exec(&mut self, code: &[Ins], pc: &mut usize, mem: &mut Mem, g: u32) -> Result<Effect, Outcome> {
        use crate::report::{Access, Defect, Op};
        let oob = |mem: &Mem, a: u32, i: u32, op, me: &Thread, id: u32| -> Result<(), Outcome> {
            match mem.prog.arrays[a as usize].size {
                Some(n) if i >= n => Err(Outcome::Defect(Defect::OutOfBounds {
                    array: mem.prog.arrays[a as usize].name.clone(),
                    index: i,
                    size: n,
                    access: Access { thread: me.thread_id(), op, span: mem.prog.stmts[id as usize].span, value: 0 },
                })),
                _ => Ok(()),
            }
        };
        let mut effect = Effect::Local;
        match &code[*pc] {
            Ins::Set(s, e) => self.locals[*s as usize] = self.eval(e),
            Ins::Havoc(s, id) => {
                self.locals[*s as usize] = mem.inputs.havoc_value(*id, &self.thread_id(), self.havocs);
                self.havocs += 1;
            }
            Ins::Read(s, a, i, id) => {
                let i = self.eval(i);
                oob(mem, *a, i, Op::Read, self, *id)?;
                let v = *mem.cell(*a, g, i);
                self.locals[*s as usize] = v;
                effect = Effect::Read(Cell { array: *a, inst: mem.instance(*a, g), index: i }, v, *id);
            }
            Ins::Write(a, i, v, id) => {
                let (i, v) = (self.eval(i), self.eval(v));
                oob(mem, *a, i, Op::Write, self, *id)?;
                let cell = mem.cell(*a, g, i);
                let unchanged = *cell == v;
                *cell = v;
                effect = Effect::Write(Cell { array: *a, inst: mem.instance(*a, g), index: i }, v, *id, unchanged);
            }
            Ins::Atomic((op, shape, scope), [s, s_hi], a, i, args, id) => {
                let i = self.eval(i);
                let w: Vec<u32> = args.iter().map(|e| self.eval(e)).collect();
                let operands = shape.operands(&w);
                let cells: Vec<u32> = (0..shape.elems()).map(|k| i.wrapping_add(k)).collect();
                for &c in &cells {
                    oob(mem, *a, c, Op::Atomic, self, *id)?;
                }
                let old = shape.join(&cells.iter().map(|&c| *mem.cell(*a, g, c)).collect::<Vec<u32>>());
                let new = kpl_lang::ops::atomic_value(*op, *shape, old, &operands);
                for (&c, v) in cells.iter().zip(shape.split(new)) {
                    *mem.cell(*a, g, c) = v;
                }
                for (s, v) in [(s, old as u32), (s_hi, (old >> 32) as u32)] {
                    if let Some(s) = s {
                        self.locals[*s as usize] = v;
                    }
                }
                effect = Effect::Atomic(Cell { array: *a, inst: mem.instance(*a, g), index: i }, shape.elems(), *id, *scope);
            }
            Ins::Jz(c, t) => {
                if self.eval(c) == 0 {
                    *pc = *t;
                    return Ok(Effect::Local);
                }
            }
            Ins::Jmp(t) => {
                *pc = *t;
                return Ok(Effect::Local);
            }
            Ins::Barrier(..) => return Ok(Effect::Barrier),
            Ins::Warp(..) => return Ok(Effect::Warp),
            Ins::Fence(f, o) => effect = Effect::Fence(*f, *o),
            // A two-thread assertion speaks of pairs: the SDV run checks it; here, where
            // threads run one at a time, it is not checked.
            // An invariant that reads arrays reads the thread's view, which this
            // schedule's single memory does not keep (the SDV executor checks it).
            Ins::Assert(e, _) if e.two_thread() || e.verifier_only() || e.reads() => {}
            Ins::Assert(e, id) => {
                if self.eval(e) == 0 {
                    let span = mem.prog.stmts[*id as usize].span;
                    return Err(Outcome::Defect(Defect::Assertion { span, thread: self.thread_id(), invariant_of: None }));
                }
            }
            // Likewise a two-thread assumption is not (this runs more executions).
            Ins::Assume(e, _) if e.two_thread() || e.verifier_only() => {}
            Ins::Assume(e, id) => {
                if self.eval(e) == 0 {
                    let span = mem.prog.stmts[*id as usize].span;
                    return Err(Outcome::Infeasible { span, thread: Some(self.thread_id()) });
                }
            }
        }
        *pc += 1;
        Ok(effect)
    }
}
