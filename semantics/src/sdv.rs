//! The SDV executor: all threads of all groups in lock step under predicates (paper,
//! section 3, Figures 4-6), with delayed visibility of writes and the error rules.
//!
//! A predicate is represented by the sorted list of the threads it enables. Where the paper
//! introduces fresh flag locations (K-OPEN's break flag, K-ITER's continue flag, K-CALL's
//! return flag), a thread carries one jump mark: a thread that executed `break`, `continue`
//! or `return` is dropped from the enabled lists until the construct it left resets its mark
//! (the end of the loop, of the iteration, of the call), which enables exactly the threads
//! the paper's `p ∧ ¬v` enables. A thread whose loop guard is false leaves the loop's list at
//! once: its locals cannot change while it is disabled, so its guard stays false (K-ITER
//! re-evaluates it to the same value). Locals get one slot per declaration; a `local` zeroes
//! its slot in the enabled threads only, which is K-VAR's fresh location because a thread
//! disabled at a declaration stays disabled for the rest of that block.

use crate::inputs::Inputs;
use crate::ir::{Ex, Program, St, StKind};
use crate::memory::{Conflict, Memory};
use crate::observe::Observer;
use crate::report::*;
use kpl_lang::ast::{AtomicShape, Axis, BinOp, Builtin, Special, WarpOp};
use kpl_lang::ops;
use std::collections::VecDeque;

/// How a run is done.
#[derive(Clone, Debug)]
pub struct Options {
    /// Stop with outcome `timeout` after this many thread-statements.
    pub max_steps: u64,
    /// Keep the last `trace` steps for the report (0: none).
    pub trace: usize,
    /// Check inter-group races (`--only-intra-group` turns this off).
    pub inter_group: bool,
    /// Tolerate write-write races that write equal values.
    pub benign: bool,
    /// Called with the step count every 2^22 thread-statements (for a progress line).
    pub progress: Option<fn(u64)>,
    /// GPUVerify's `--warp-sync=N`: warps of N threads (a power of two) run in lock step and
    /// see each other's writes at once; two threads of a warp race only by writing one
    /// element in one statement.
    pub warp_sync: Option<u32>,
    /// The arrays whose races are looked for (GPUVerify's `/checkArrays:`; none under
    /// `--only-divergence`); `None`: every array. Accesses to the others still read and
    /// write, and other defects are still found.
    pub race_arrays: Option<Vec<String>>,
    /// Start only these groups (linear indices), the others never: the schedule of the
    /// launch where these run first and every defect shows before the others start
    /// (`Program::groups_apart` says where that is a schedule of the kernel). `None`: all.
    pub groups: Option<Vec<u32>>,
}

impl Default for Options {
    fn default() -> Options {
        Options { max_steps: 100_000_000, trace: 0, inter_group: true, benign: false, progress: None, warp_sync: None, race_arrays: None, groups: None }
    }
}

/// Leaves out the races on arrays `opts.race_arrays` does not name.
pub(crate) fn uncheck_arrays(prog: &Program, mem: &mut Memory, opts: &Options) {
    let Some(only) = &opts.race_arrays else { return };
    for (a, arr) in prog.arrays.iter().enumerate() {
        if !only.contains(&arr.name) {
            mem.set_unchecked(a as u32);
        }
    }
}

/// The most threads the interpreter runs (each local is a column of this many words).
pub const MAX_THREADS: u64 = 1 << 24;

const BREAK: u8 = 1;
const CONTINUE: u8 = 2;
const RETURN: u8 = 3;

type Stop = Outcome;

/// Run a compiled kernel on inputs. The launch must have at most `MAX_THREADS` threads.
pub fn run(prog: &Program, inputs: Inputs, opts: &Options) -> RunResult {
    run_observed(prog, inputs, opts, None)
}

/// `run`, telling an observer every access, branch and barrier.
pub fn run_observed(prog: &Program, inputs: Inputs, opts: &Options, obs: Option<&mut dyn Observer>) -> RunResult {
    let launch = prog.launch;
    let total = launch.total_threads().min(MAX_THREADS) as usize;
    let params = prog.params.iter().map(|p| inputs.param(p)).collect();
    let havoc = Inputs { seed: inputs.seed, ..Inputs::default() };
    let mut m = Machine {
        havoc,
        havocs: Vec::new(),
        p: prog,
        tpg: launch.threads_per_group() as u32,
        slots: vec![Vec::new(); prog.slots.len()],
        total,
        params,
        specials: Default::default(),
        jump: vec![0; total],
        mem: Memory::new(prog, inputs, opts.inter_group, opts.benign),
        steps: 0,
        opts: opts.clone(),
        trace: VecDeque::new(),
        pool: Vec::new(),
        obs,
    };
    if let Some(w) = opts.warp_sync {
        m.mem.set_warp_sync(w);
    }
    uncheck_arrays(prog, &mut m.mem, opts);
    let outcome = match m.kernel() {
        Ok(()) => Outcome::Ok,
        Err(o) => o,
    };
    RunResult { outcome, steps: m.steps, trace: m.trace.into_iter().collect(), memory: m.mem.finish(), havocs: m.havocs }
}

struct Machine<'p, 'o> {
    p: &'p Program,
    tpg: u32,
    total: usize,
    slots: Vec<Vec<u32>>,
    params: Vec<u32>,
    /// lid.x, lid.y, lid.z, gid.x, gid.y, gid.z per thread, computed on first use.
    specials: [Vec<u32>; 6],
    jump: Vec<u8>,
    mem: Memory,
    steps: u64,
    opts: Options,
    trace: VecDeque<TraceStep>,
    pool: Vec<Vec<u32>>,
    obs: Option<&'o mut dyn Observer>,
    /// Where `havoc` values come from (the run's seed), and the values each thread took.
    havoc: Inputs,
    havocs: Vec<Vec<u32>>,
}

impl<'p, 'o> Machine<'p, 'o> {
    fn kernel(&mut self) -> Result<(), Stop> {
        for (e, span) in &self.p.requires {
            let v = self.eval(e, &[0]);
            if v[0] == 0 {
                return Err(Outcome::Infeasible { span: *span, thread: None });
            }
        }
        for s in self.slots.iter_mut() {
            *s = vec![0; self.total];
        }
        let mut all: Vec<u32> = self.started().collect();
        self.block(&self.p.main, &mut all)
    }

    /// The threads that start, in order: those of `Options::groups`, or every one.
    fn started(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        let (tpg, total) = (self.tpg, self.total as u32);
        match &self.opts.groups {
            Some(groups) => {
                let mut groups = groups.clone();
                groups.sort_unstable();
                groups.dedup();
                Box::new(groups.into_iter().flat_map(move |g| g * tpg..((g + 1) * tpg).min(total)))
            }
            None => Box::new(0..total),
        }
    }

    fn thread(&self, t: u32) -> ThreadId {
        crate::observe::thread_id(&self.p.launch, t)
    }

    fn step(&mut self, stmt: u32, n: usize) -> Result<(), Stop> {
        if let Some(report) = self.opts.progress {
            if (self.steps >> 22) != ((self.steps + n as u64) >> 22) {
                report(self.steps + n as u64);
            }
        }
        self.steps += n as u64;
        if self.opts.trace > 0 {
            if self.trace.len() == self.opts.trace {
                self.trace.pop_front();
            }
            self.trace.push_back(TraceStep { stmt, enabled: n as u64 });
        }
        if self.steps > self.opts.max_steps {
            return Err(Outcome::Timeout);
        }
        Ok(())
    }

    fn block(&mut self, stmts: &'p [St], act: &mut Vec<u32>) -> Result<(), Stop> {
        for s in stmts {
            if act.is_empty() {
                break;
            }
            self.stmt(s, act)?;
            if s.jumps() {
                let jump = &self.jump;
                act.retain(|&t| jump[t as usize] == 0);
            }
        }
        Ok(())
    }

    fn scatter(&mut self, slot: u32, act: &[u32], vals: Vec<u32>) {
        let col = &mut self.slots[slot as usize];
        match contiguous(act) {
            Some(r) => col[r].copy_from_slice(&vals[..act.len()]),
            None => {
                for (&t, &v) in act.iter().zip(vals.iter()) {
                    col[t as usize] = v;
                }
            }
        }
        self.give(vals);
    }

    fn span(&self, stmt: u32) -> kpl_lang::Span {
        self.p.stmts[stmt as usize].span
    }

    fn stmt(&mut self, s: &'p St, act: &mut Vec<u32>) -> Result<(), Stop> {
        let n = act.len();
        match &s.kind {
            StKind::Local { slot, init } => {
                self.step(s.id, n)?;
                // Where assertions observe disabled threads, every thread gets the value, as
                // in the verifier (a disabled thread's from its own locals).
                let who = self.declaring(act);
                let vals = match init {
                    Some(e) => self.eval(e, &who),
                    None => self.eval(&Ex::Const(0), &who),
                };
                self.scatter(*slot, &who, vals);
                self.give(who);
            }
            StKind::Assign { slot, value } => {
                self.step(s.id, n)?;
                let vals = self.eval(value, act);
                self.scatter(*slot, act, vals);
            }
            // A fence orders nothing here: SDV already calls every unordered communication
            // a race (`hb.rs` gives fences their meaning).
            StKind::Fence(..) => self.step(s.id, n)?,
            StKind::Snapshot { dest, src } => {
                self.step(s.id, n)?;
                for &t in act.iter() {
                    self.mem.snapshot(*dest, *src, t / self.tpg, t % self.tpg);
                }
            }
            StKind::Havoc { slot } => {
                self.step(s.id, n)?;
                if self.havocs.is_empty() {
                    self.havocs = vec![Vec::new(); self.total];
                }
                let vals = act
                    .iter()
                    .map(|&t| {
                        let k = self.havocs[t as usize].len() as u32;
                        let v = self.havoc.havoc_value(s.id, &self.thread(t), k);
                        self.havocs[t as usize].push(v);
                        v
                    })
                    .collect();
                self.scatter(*slot, act, vals);
            }
            StKind::Read { slot, array, index, fresh } => {
                self.step(s.id, n)?;
                if *fresh && self.p.observes_disabled {
                    // A disabled thread makes no read: its new local is 0 (as the verifier's).
                    self.slots[*slot as usize].iter_mut().for_each(|x| *x = 0);
                }
                let idx = self.eval(index, act);
                self.bounds(*array, act, &idx, Op::Read, None, s.id)?;
                if let Some(o) = self.obs.as_deref_mut() {
                    o.access(s.id, *array, Op::Read, act, &idx);
                }
                let mut vals = self.take(n);
                if let Err((k, c)) = self.mem.read_all(*array, self.tpg, act, &idx, s.id, &mut vals) {
                    return Err(self.race(*array, idx[k], c, act[k], Op::Read, 0, s.id, Scope::IntraGroup));
                }
                self.inter(*array, act, &idx, Op::Read, None, s.id, false)?;
                self.give(idx);
                self.scatter(*slot, act, vals);
            }
            StKind::Write { array, index, value } => {
                self.step(s.id, n)?;
                let idx = self.eval(index, act);
                let vals = self.eval(value, act);
                self.bounds(*array, act, &idx, Op::Write, Some(&vals), s.id)?;
                if let Some(o) = self.obs.as_deref_mut() {
                    o.access(s.id, *array, Op::Write, act, &idx);
                }
                if let Some(w) = self.opts.warp_sync.filter(|_| self.mem.checked(*array)) {
                    if let Some((k1, k2)) = warp_write_conflict(act, &idx, &vals, self.tpg, w, self.opts.benign) {
                        let (t1, t2) = (act[k1], act[k2]);
                        return Err(Outcome::Defect(Defect::Race {
                            kind: RaceKind::WriteWrite,
                            scope: Scope::IntraGroup,
                            array: self.p.arrays[*array as usize].name.clone(),
                            index: idx[k1],
                            accesses: [self.access(t1, Op::Write, vals[k1], s.id), self.access(t2, Op::Write, vals[k2], s.id)],
                        }));
                    }
                }
                self.mem.next_exec();
                for (k, &t) in act.iter().enumerate() {
                    let (g, l) = (t / self.tpg, t % self.tpg);
                    if let Err(c) = self.mem.write(*array, g, l, idx[k], vals[k], s.id) {
                        return Err(self.race(*array, idx[k], c, t, Op::Write, vals[k], s.id, Scope::IntraGroup));
                    }
                }
                self.inter(*array, act, &idx, Op::Write, Some(&vals), s.id, false)?;
                self.give(idx);
                self.give(vals);
            }
            StKind::Atomic { op, shape, slot, slot_hi, array, index, args, scope } => {
                self.step(s.id, n)?;
                let idx = self.eval(index, act);
                let argv: Vec<Vec<u32>> = args.iter().map(|e| self.eval(e, act)).collect();
                // Each element of a wider atomic (`index` and on) is checked and logged.
                let words: Vec<Vec<u32>> = (0..shape.elems()).map(|k| idx.iter().map(|i| i.wrapping_add(k)).collect()).collect();
                for w in &words {
                    self.bounds(*array, act, w, Op::Atomic, None, s.id)?;
                    if let Some(o) = self.obs.as_deref_mut() {
                        o.access(s.id, *array, Op::Atomic, act, w);
                    }
                }
                let mut olds = self.take(n);
                let mut olds_hi = self.take(n);
                // The enabled threads' atomics happen one after another, in thread order.
                for (k, &t) in act.iter().enumerate() {
                    let (g, l) = (t / self.tpg, t % self.tpg);
                    if *shape != AtomicShape::WORD {
                        let operands = shape.operands(&argv.iter().map(|v| v[k]).collect::<Vec<u32>>());
                        match self.mem.atomic_shaped(*array, g, l, idx[k], *op, *shape, &operands, s.id) {
                            Ok(v) => {
                                olds.push(v as u32);
                                olds_hi.push((v >> 32) as u32);
                            }
                            Err((i, c)) => return Err(self.race(*array, i, c, t, Op::Atomic, 0, s.id, Scope::IntraGroup)),
                        }
                        continue;
                    }
                    let operands: Vec<u32> = argv.iter().map(|v| v[k]).collect();
                    match self.mem.atomic(*array, g, l, idx[k], *op, &operands, s.id) {
                        Ok(v) => olds.push(v),
                        Err(c) => return Err(self.race(*array, idx[k], c, t, Op::Atomic, 0, s.id, Scope::IntraGroup)),
                    }
                }
                for w in &words {
                    self.inter(*array, act, w, Op::Atomic, None, s.id, !scope.device_wide())?;
                }
                self.give(idx);
                for v in argv.into_iter().chain(words) {
                    self.give(v);
                }
                match slot {
                    Some(slot) => self.scatter(*slot, act, olds),
                    None => self.give(olds),
                }
                match slot_hi {
                    Some(slot) => self.scatter(*slot, act, olds_hi),
                    None => self.give(olds_hi),
                }
            }
            StKind::Warp { op, slot, args, exited } => {
                self.step(s.id, n)?;
                let argv: Vec<Vec<u32>> = args.iter().map(|e| self.eval(e, act)).collect();
                // Which threads of the running threads' groups have left the kernel.
                let gone: Vec<u32> = match exited {
                    Some(e) => {
                        let (first, last) = (act.first().map_or(0, |t| t / self.tpg), act.last().map_or(0, |t| t / self.tpg));
                        let all: Vec<u32> = (first * self.tpg..(last + 1) * self.tpg).collect();
                        let v = self.eval(e, &all);
                        all.into_iter().zip(v).filter(|&(_, x)| x != 0).map(|(t, _)| t).collect()
                    }
                    None => vec![],
                };
                let res = self.warp(act, *op, &argv, &gone, s.id);
                for v in argv {
                    self.give(v);
                }
                if *op == WarpOp::Sync && res.is_ok() {
                    self.warp_barrier(act);
                }
                match (res?, slot) {
                    (vals, Some(slot)) => self.scatter(*slot, act, vals),
                    (vals, None) => self.give(vals),
                }
            }
            StKind::If { cond, then, els, .. } => {
                self.step(s.id, n)?;
                let c = self.eval(cond, act);
                if let Some(o) = self.obs.as_deref_mut() {
                    o.branch(s.id, act, &c);
                }
                let mut t_act = self.take(n);
                let mut e_act = self.take(n);
                for (&t, &v) in act.iter().zip(c.iter()) {
                    if v != 0 {
                        t_act.push(t)
                    } else {
                        e_act.push(t)
                    }
                }
                self.give(c);
                self.block(then, &mut t_act)?;
                self.block(els, &mut e_act)?;
                self.give(t_act);
                self.give(e_act);
            }
            StKind::While { cond, invariants, body, .. } => {
                let mut live = self.take(n);
                live.extend_from_slice(act);
                let mut iter = self.take(n);
                loop {
                    for (inv, id) in invariants {
                        self.step(*id, live.len())?;
                        if inv.verifier_only() {
                            continue;
                        }
                        if inv.two_thread() {
                            self.check_pairs(inv, &live, *id, Some(self.span(s.id)))?;
                            continue;
                        }
                        let v = self.eval(inv, &live);
                        if let Some(k) = v.iter().position(|&x| x == 0) {
                            return Err(Outcome::Defect(Defect::Assertion {
                                span: self.span(*id),
                                thread: self.thread(live[k]),
                                invariant_of: Some(self.span(s.id)),
                            }));
                        }
                        self.give(v);
                    }
                    self.step(s.id, live.len())?;
                    let u = self.eval(cond, &live);
                    if let Some(o) = self.obs.as_deref_mut() {
                        o.branch(s.id, &live, &u);
                    }
                    let mut k = 0;
                    live.retain(|_| {
                        k += 1;
                        u[k - 1] != 0
                    });
                    self.give(u);
                    if live.is_empty() {
                        break;
                    }
                    iter.clear();
                    iter.extend_from_slice(&live);
                    self.block(body, &mut iter)?;
                    let jump = &mut self.jump;
                    live.retain(|&t| {
                        let j = &mut jump[t as usize];
                        if *j == CONTINUE {
                            *j = 0;
                        }
                        *j == 0
                    });
                }
                self.give(live);
                self.give(iter);
                for &t in act.iter() {
                    if self.jump[t as usize] == BREAK {
                        self.jump[t as usize] = 0;
                    }
                }
            }
            StKind::Call { proc, args } => {
                self.step(s.id, n)?;
                let pr = &self.p.procs[*proc as usize];
                let who = self.declaring(act);
                let vals: Vec<Vec<u32>> = args.iter().map(|a| self.eval(a, &who)).collect();
                for (slot, v) in pr.params.iter().zip(vals) {
                    self.scatter(*slot, &who, v);
                }
                self.give(who);
                let mut inner = self.take(n);
                inner.extend_from_slice(act);
                self.block(&pr.body, &mut inner)?;
                self.give(inner);
                for &t in act.iter() {
                    if self.jump[t as usize] == RETURN {
                        self.jump[t as usize] = 0;
                    }
                }
            }
            StKind::Barrier { shared, global, invariants, grid } => {
                self.step(s.id, n)?;
                if *grid {
                    self.grid_barrier(act, s.id)?;
                }
                self.barrier(act, s.id, shared, global)?;
                if *grid {
                    self.mem.grid_barrier();
                }
                // Each barrier invariant holds in the memory the barrier establishes (each
                // thread's view: what its fence did not order stays its own).
                for (e, id, binary) in invariants {
                    self.check_assertion(e, act, *id, *binary)?;
                }
                if let Some(o) = self.obs.as_deref_mut() {
                    o.barrier(s.id, act);
                }
            }
            StKind::Break | StKind::Continue | StKind::Return => {
                self.step(s.id, n)?;
                let mark = match s.kind {
                    StKind::Break => BREAK,
                    StKind::Continue => CONTINUE,
                    _ => RETURN,
                };
                for &t in act.iter() {
                    self.jump[t as usize] = mark;
                }
            }
            StKind::Assert(e, false) => {
                self.step(s.id, n)?;
                self.check_assertion(e, act, s.id, false)?;
            }
            StKind::Assert(e, true) => {
                self.step(s.id, self.total)?;
                self.check_global(e, act, s.id)?;
            }
            StKind::Assume(e) if e.verifier_only() => {
                self.step(s.id, n)?;
            }
            StKind::Assume(e) if e.two_thread() => {
                self.step(s.id, n)?;
                if let Some(t) = self.failing_pair(e, act, s.id)? {
                    return Err(Outcome::Infeasible { span: self.span(s.id), thread: Some(self.thread(t)) });
                }
            }
            StKind::Assume(e) => {
                self.step(s.id, n)?;
                let v = self.eval(e, act);
                if let Some(k) = v.iter().position(|&x| x == 0) {
                    return Err(Outcome::Infeasible { span: self.span(s.id), thread: Some(self.thread(act[k])) });
                }
                self.give(v);
            }
        }
        Ok(())
    }

    /// An assertion or invariant with `other`/`enabled`: it must hold for every enabled
    /// thread paired with every other thread of the launch (GPUVerify's two arbitrary
    /// threads), `other(e)` being `e` in the partner and `enabled()` whether it runs here.
    fn check_pairs(&mut self, e: &Ex, act: &[u32], stmt: u32, invariant_of: Option<kpl_lang::Span>) -> Result<(), Stop> {
        match self.failing_pair(e, act, stmt)? {
            Some(t) => Err(Outcome::Defect(Defect::Assertion { span: self.span(stmt), thread: self.thread(t), invariant_of })),
            None => Ok(()),
        }
    }

    /// An `assert` or a barrier invariant (once the barrier is passed): it must hold in
    /// every enabled thread, paired with every other thread (of its group, `in_group`: a
    /// binary barrier invariant) when it speaks of two. Only the verifier evaluates access
    /// predicates, and checks what a barrier invariant reads and uses its instantiations.
    fn check_assertion(&mut self, e: &Ex, act: &[u32], stmt: u32, in_group: bool) -> Result<(), Stop> {
        let failing = if e.verifier_only() {
            None
        } else if in_group || e.two_thread() {
            self.failing_pair_among(e, act, stmt, self.opts.inter_group && !in_group)?
        } else {
            self.first_false(e, act)
        };
        match failing {
            Some(t) => Err(Outcome::Defect(Defect::Assertion { span: self.span(stmt), thread: self.thread(t), invariant_of: None })),
            None => Ok(()),
        }
    }

    /// A `global assert`: it must hold in every thread of the launch, enabled or not (paired
    /// with every other thread when it speaks of two; `enabled()` says whether each runs).
    fn check_global(&mut self, e: &Ex, act: &[u32], stmt: u32) -> Result<(), Stop> {
        let failing = if e.verifier_only() {
            None
        } else if e.two_thread() {
            self.failing_pair_of(e, act, stmt, self.opts.inter_group, true)?
        } else {
            let all = self.everyone();
            let t = self.first_false(e, &all);
            self.give(all);
            t
        };
        match failing {
            Some(t) => Err(Outcome::Defect(Defect::Assertion { span: self.span(stmt), thread: self.thread(t), invariant_of: None })),
            None => Ok(()),
        }
    }

    /// Every thread of the launch, in order.
    fn everyone(&mut self) -> Vec<u32> {
        let mut v = self.take(self.total);
        v.extend(0..self.total as u32);
        v
    }

    /// The threads a declaration (or a call's parameters) gives a value: the enabled ones,
    /// or every thread where assertions observe disabled threads.
    fn declaring(&mut self, act: &[u32]) -> Vec<u32> {
        if self.p.observes_disabled {
            return self.everyone();
        }
        let mut v = self.take(act.len());
        v.extend_from_slice(act);
        v
    }

    /// The first thread of `act` in which `e` is false.
    fn first_false(&mut self, e: &Ex, act: &[u32]) -> Option<u32> {
        let v = self.eval(e, act);
        let k = v.iter().position(|&x| x == 0).map(|k| act[k]);
        self.give(v);
        k
    }

    /// The first enabled thread for which `e` is false paired with some other thread.
    fn failing_pair(&mut self, e: &Ex, act: &[u32], stmt: u32) -> Result<Option<u32>, Stop> {
        self.failing_pair_among(e, act, stmt, self.opts.inter_group)
    }

    /// `failing_pair` with partners from the whole launch or (`inter_group` false) the
    /// thread's own group.
    fn failing_pair_among(&mut self, e: &Ex, act: &[u32], stmt: u32, inter_group: bool) -> Result<Option<u32>, Stop> {
        self.failing_pair_of(e, act, stmt, inter_group, false)
    }

    /// `failing_pair_among`, the checking threads being the enabled ones, or (`every`) all
    /// threads of the launch, enabled or not.
    fn failing_pair_of(&mut self, e: &Ex, act: &[u32], stmt: u32, inter_group: bool, every: bool) -> Result<Option<u32>, Stop> {
        let mut enabled = vec![false; self.total];
        for &t in act {
            enabled[t as usize] = true;
        }
        let all: Vec<u32> = if every { (0..self.total as u32).collect() } else { act.to_vec() };
        for &t in &all {
            // With `--only-intra-group` the pairs are those of one group (as the verifier's).
            let (lo, hi) = if inter_group { (0, self.total as u32) } else { (t / self.tpg * self.tpg, (t / self.tpg + 1) * self.tpg) };
            self.step(stmt, (hi - lo) as usize)?;
            for u in lo..hi {
                if u != t && self.eval_pair(e, t, u, enabled[t as usize], enabled[u as usize]) == 0 {
                    return Ok(Some(t));
                }
            }
        }
        Ok(None)
    }

    /// One thread's value of `e` (`me`), with `other` meaning thread `you`.
    fn eval_pair(&mut self, e: &Ex, me: u32, you: u32, me_on: bool, you_on: bool) -> u32 {
        match e {
            Ex::Const(c) => *c,
            Ex::Param(p) => self.params[*p as usize],
            Ex::Slot(s) => self.slots[*s as usize][me as usize],
            Ex::Special(s, a) => match self.special(*s, *a) {
                Some(k) => self.specials[k][me as usize],
                None => {
                    let l = self.p.launch;
                    if *s == Special::Threads {
                        l.threads[a.index()]
                    } else {
                        l.groups[a.index()]
                    }
                }
            },
            Ex::Un(op, a) => {
                let x = self.eval_pair(a, me, you, me_on, you_on);
                ops::unary(*op, x)
            }
            Ex::Bin(op, a, b) => {
                let x = self.eval_pair(a, me, you, me_on, you_on);
                let y = self.eval_pair(b, me, you, me_on, you_on);
                ops::binary(*op, x, y)
            }
            Ex::Cond(c, a, b) => {
                if self.eval_pair(c, me, you, me_on, you_on) != 0 {
                    self.eval_pair(a, me, you, me_on, you_on)
                } else {
                    self.eval_pair(b, me, you, me_on, you_on)
                }
            }
            Ex::Call(Builtin::Other, a, _) => self.eval_pair(a, you, me, you_on, me_on),
            Ex::Read(arr, i) => {
                let i = self.eval_pair(i, me, you, me_on, you_on);
                self.mem.peek(*arr, me / self.tpg, me % self.tpg, i)
            }
            Ex::Call(Builtin::Enabled, _, _) => me_on as u32,
            Ex::Call(f, a, b) => {
                let x = self.eval_pair(a, me, you, me_on, you_on);
                let y = self.eval_pair(b, me, you, me_on, you_on);
                ops::builtin(*f, x, y)
            }
        }
    }

    /// A warp collective by the enabled threads `act` (`warp::collective`).
    fn warp(&mut self, act: &[u32], op: WarpOp, argv: &[Vec<u32>], gone: &[u32], stmt: u32) -> Result<Vec<u32>, Stop> {
        let w = self.opts.warp_sync.unwrap_or(32);
        crate::warp::collective(act, self.tpg, w, op, argv, &|t| gone.binary_search(&t).is_ok()).map_err(|(t, other, at)| {
            Outcome::Defect(Defect::Divergence { span: self.span(stmt), enabled: self.thread(t), disabled: self.thread(other), at })
        })
    }

    /// `warp sync` (`__syncwarp`), run by `act` without divergence: their accesses so far
    /// are ordered before what their warps do after (`Memory::warp_barrier`); they still
    /// race with other warps' accesses.
    fn warp_barrier(&mut self, act: &[u32]) {
        let tpg = self.tpg;
        for (g, _, ran) in crate::memory::group_runs(act, tpg) {
            self.mem.warp_barrier(g, &|l| ran.binary_search(&(g * tpg + l)).is_ok());
        }
    }

    /// G-NO-OP, G-DIVERGENCE, G-SYNC for every group at once (K-DIVERGENCE, K-SYNC).
    fn barrier(&mut self, act: &[u32], stmt: u32, shared: &Ex, global: &Ex) -> Result<(), Stop> {
        let tpg = self.tpg;
        let mut full = Vec::new();
        // The enabled threads of each group, in order.
        for (g, _, run) in crate::memory::group_runs(act, tpg) {
            if (run.len() as u32) < tpg {
                // The first disabled local id of the group.
                let mut missing = 0;
                for (k, &t) in run.iter().enumerate() {
                    if t % tpg != k as u32 {
                        break;
                    }
                    missing = k as u32 + 1;
                }
                return Err(Outcome::Defect(Defect::Divergence {
                    span: self.span(stmt),
                    enabled: self.thread(run[0]),
                    disabled: self.thread(g * tpg + missing),
                    at: DivergenceAt::Barrier,
                }));
            }
            full.push(g);
        }
        // Every thread of each group in `full` is in `act`, in order.
        let sh = self.eval(shared, act);
        let gl = self.eval(global, act);
        let tpg = self.tpg;
        for (k, g) in full.into_iter().enumerate() {
            let base = k * tpg as usize;
            let fenced = |is_shared: bool, l: u32| (if is_shared { &sh } else { &gl })[base + l as usize] != 0;
            let count = |col: &[u32]| col[base..base + tpg as usize].iter().filter(|&&x| x != 0).count() as u32;
            self.mem.barrier(g, &fenced, [count(&gl), count(&sh)], tpg);
        }
        self.give(sh);
        self.give(gl);
        Ok(())
    }

    /// A grid barrier needs every thread of the launch enabled (barrier divergence
    /// otherwise, naming the first thread that is not).
    fn grid_barrier(&mut self, act: &[u32], stmt: u32) -> Result<(), Stop> {
        if act.len() == self.total {
            return Ok(());
        }
        let missing = act.iter().enumerate().find(|(k, &t)| t != *k as u32).map(|(k, _)| k).unwrap_or(act.len()) as u32;
        let enabled = act.first().copied().unwrap_or(0);
        Err(Outcome::Defect(Defect::Divergence {
            span: self.span(stmt),
            enabled: self.thread(enabled),
            disabled: self.thread(missing),
            at: DivergenceAt::Barrier,
        }))
    }

    fn access(&self, t: u32, op: Op, value: u32, stmt: u32) -> Access {
        Access { thread: self.thread(t), op, span: self.span(stmt), value }
    }

    fn bounds(&mut self, a: u32, act: &[u32], idx: &[u32], op: Op, vals: Option<&[u32]>, stmt: u32) -> Result<(), Stop> {
        if let Some(size) = self.mem.size(a) {
            if let Some(k) = idx.iter().position(|&i| i >= size) {
                let value = vals.map(|v| v[k]).unwrap_or(0);
                return Err(Outcome::Defect(Defect::OutOfBounds {
                    array: self.p.arrays[a as usize].name.clone(),
                    index: idx[k],
                    size,
                    access: Access { thread: self.thread(act[k]), op, span: self.span(stmt), value },
                }));
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn inter(&mut self, a: u32, act: &[u32], idx: &[u32], op: Op, vals: Option<&[u32]>, stmt: u32, narrow: bool) -> Result<(), Stop> {
        if !self.mem.has_inter(a) {
            return Ok(());
        }
        for (k, &t) in act.iter().enumerate() {
            let (g, l) = (t / self.tpg, t % self.tpg);
            let v = vals.map(|v| v[k]).unwrap_or(0);
            if let Err(c) = self.mem.inter(a, g, l, idx[k], op, v, stmt, narrow) {
                return Err(self.race(a, idx[k], c, t, op, v, stmt, Scope::InterGroup));
            }
        }
        Ok(())
    }

    /// Build a race report: the earlier (recorded) access first, then the current one.
    #[allow(clippy::too_many_arguments)]
    fn race(&mut self, a: u32, index: u32, c: Conflict, t: u32, op: Op, value: u32, stmt: u32, scope: Scope) -> Stop {
        let other_t = c.group * self.tpg + c.local;
        let first_value = self.mem.view(a, c.group, c.local, index);
        let first = self.access(other_t, c.op, first_value, c.stmt);
        let value = if op == Op::Read { self.mem.view(a, t / self.tpg, t % self.tpg, index) } else { value };
        let second = self.access(t, op, value, stmt);
        // An atomic counts as a write: atomic-write is write-write, atomic-read read-write.
        let writes = |o: Op| o != Op::Read;
        let kind = if writes(c.op) && writes(op) { RaceKind::WriteWrite } else { RaceKind::ReadWrite };
        Outcome::Defect(Defect::Race {
            kind,
            scope,
            array: self.p.arrays[a as usize].name.clone(),
            index,
            accesses: [first, second],
        })
    }

    fn take(&mut self, n: usize) -> Vec<u32> {
        let mut v = self.pool.pop().unwrap_or_default();
        v.clear();
        v.reserve(n);
        v
    }

    fn give(&mut self, v: Vec<u32>) {
        self.pool.push(v);
    }

    fn special(&mut self, s: Special, a: Axis) -> Option<usize> {
        let k = match s {
            Special::Lid => a.index(),
            Special::Gid => 3 + a.index(),
            _ => return None,
        };
        if self.specials[k].is_empty() {
            // Of the threads that start; the others' stay 0, untouched.
            let mut col = vec![0; self.total];
            for t in self.started() {
                let id = self.thread(t);
                col[t as usize] = if k < 3 { id.local[k] } else { id.group[k - 3] };
            }
            self.specials[k] = col;
        }
        Some(k)
    }

    /// Evaluate an expression in every thread of `act`, column-wise.
    fn eval(&mut self, e: &Ex, act: &[u32]) -> Vec<u32> {
        let n = act.len();
        match e {
            Ex::Const(c) => {
                let mut v = self.take(n);
                v.resize(n, *c);
                v
            }
            Ex::Param(p) => {
                let c = self.params[*p as usize];
                let mut v = self.take(n);
                v.resize(n, c);
                v
            }
            Ex::Slot(s) => {
                let mut v = self.take(n);
                gather(&mut v, &self.slots[*s as usize], act);
                v
            }
            Ex::Special(s, a) => match self.special(*s, *a) {
                Some(k) => {
                    let mut v = self.take(n);
                    gather(&mut v, &self.specials[k], act);
                    v
                }
                None => {
                    let l = self.p.launch;
                    let c = if *s == Special::Threads { l.threads[a.index()] } else { l.groups[a.index()] };
                    let mut v = self.take(n);
                    v.resize(n, c);
                    v
                }
            },
            Ex::Un(op, a) => {
                let mut v = self.eval(a, act);
                for x in v.iter_mut() {
                    *x = ops::unary(*op, *x);
                }
                v
            }
            Ex::Bin(op, a, b) => {
                let mut x = self.eval(a, act);
                let y = self.eval(b, act);
                bin_in_place(*op, &mut x, &y);
                self.give(y);
                x
            }
            Ex::Cond(c, a, b) => {
                let cv = self.eval(c, act);
                let mut av = self.eval(a, act);
                let bv = self.eval(b, act);
                for k in 0..n {
                    if cv[k] == 0 {
                        av[k] = bv[k];
                    }
                }
                self.give(cv);
                self.give(bv);
                av
            }
            Ex::Call(f, a, b) => {
                let mut x = self.eval(a, act);
                let y = self.eval(b, act);
                for (p, &q) in x.iter_mut().zip(y.iter()) {
                    *p = ops::builtin(*f, *p, q);
                }
                self.give(y);
                x
            }
            Ex::Read(arr, i) => {
                let mut x = self.eval(i, act);
                for (v, &t) in x.iter_mut().zip(act) {
                    *v = self.mem.peek(*arr, t / self.tpg, t % self.tpg, *v);
                }
                x
            }
        }
    }
}

/// The threads of a sorted, duplicate-free list as a range, when they are one.
fn contiguous(act: &[u32]) -> Option<std::ops::Range<usize>> {
    debug_assert!(act.windows(2).all(|w| w[0] < w[1]), "thread lists are sorted");
    let (&first, &last) = (act.first()?, act.last()?);
    ((last - first) as usize == act.len() - 1).then_some(first as usize..last as usize + 1)
}

/// Appends each thread's value of a column to `v`.
fn gather(v: &mut Vec<u32>, col: &[u32], act: &[u32]) {
    match contiguous(act) {
        Some(r) => v.extend_from_slice(&col[r]),
        None => v.extend(act.iter().map(|&t| col[t as usize])),
    }
}

/// Two threads of one warp (of `warp` threads) that write one element in one statement:
/// in lock step, which write wins is unspecified (a race unless benign tolerance is on and
/// they write equal values). Gives their positions in `act`.
fn warp_write_conflict(act: &[u32], idx: &[u32], vals: &[u32], tpg: u32, warp: u32, benign: bool) -> Option<(usize, usize)> {
    let mut seen: std::collections::HashMap<(u32, u32, u32), usize> = std::collections::HashMap::new();
    for (k, &t) in act.iter().enumerate() {
        let key = (t / tpg, (t % tpg) / warp.max(1), idx[k]);
        match seen.get(&key) {
            Some(&j) if !benign || vals[j] != vals[k] => return Some((j, k)),
            Some(_) => {}
            None => {
                seen.insert(key, k);
            }
        }
    }
    None
}

/// `x[k] = x[k] op y[k]`, one tight loop per operator.
fn bin_in_place(op: BinOp, x: &mut [u32], y: &[u32]) {
    macro_rules! each {
        ($f:expr) => {
            for (a, &b) in x.iter_mut().zip(y.iter()) {
                *a = $f(*a, b);
            }
        };
    }
    use BinOp::*;
    match op {
        Add => each!(|a: u32, b: u32| a.wrapping_add(b)),
        Sub => each!(|a: u32, b: u32| a.wrapping_sub(b)),
        Mul => each!(|a: u32, b: u32| a.wrapping_mul(b)),
        Div => each!(ops::udiv),
        Rem => each!(ops::urem),
        BitAnd => each!(|a: u32, b: u32| a & b),
        BitOr => each!(|a: u32, b: u32| a | b),
        BitXor => each!(|a: u32, b: u32| a ^ b),
        Shl => each!(ops::shl),
        Shr => each!(ops::lshr),
        Eq => each!(|a: u32, b: u32| (a == b) as u32),
        Ne => each!(|a: u32, b: u32| (a != b) as u32),
        Lt => each!(|a: u32, b: u32| (a < b) as u32),
        Le => each!(|a: u32, b: u32| (a <= b) as u32),
        Gt => each!(|a: u32, b: u32| (a > b) as u32),
        Ge => each!(|a: u32, b: u32| (a >= b) as u32),
        LAnd => each!(|a: u32, b: u32| (a != 0 && b != 0) as u32),
        LOr => each!(|a: u32, b: u32| (a != 0 || b != 0) as u32),
    }
}
