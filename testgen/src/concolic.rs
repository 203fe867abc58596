//! The concolic executor: one run of a kernel on concrete inputs (launch concrete, all
//! threads of all groups in lock step, as the SDV interpreter runs them) that also keeps,
//! for every value that depends on the inputs, its term over the inputs (params and the
//! initial array elements the run reads). It gives the run's path condition (each symbolic
//! branch decision of each thread, in order), the checks that could fail on other inputs
//! (assertions, array bounds), and what each thread covered in each barrier interval.
//!
//! Simplifications, each only ever losing paths, never giving a test a wrong prediction
//! that goes unchecked (every test is re-run by `kpl run`): a write is visible to every
//! thread at once (SDV's delayed visibility only differs on racy kernels, which `kpl run`
//! reports); a symbolic array index is fixed to its concrete value (a constraint of the
//! path); float operations and atomics give concrete values.

use kpl_certify::vc::{Sort, Terms, Vc};
use kpl_lang::ast::{AtomicShape, Axis, BinOp, Builtin, Special, UnOp};
use kpl_lang::ops;
use kpl_semantics::ir::{ArrayKind, Ex, Program, St, StKind};
use kpl_semantics::Inputs;
use std::collections::{BTreeMap, BTreeSet, HashMap};

pub use egg::Id;

/// A coverage target: a statement, or one side of a branch (an `if`, or a loop's guard:
/// `true` enters the body).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    Stmt(u32),
    Branch(u32, bool),
}

/// What an item of the path is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// A thread's decision at a branch (negating it explores the other side).
    Branch { stmt: u32, thread: u32, taken: bool, interval: u32 },
    /// A check that held here but may fail on other inputs (negating it finds a bug).
    Check { stmt: u32, thread: u32, what: CheckKind },
    /// A constraint the path depends on but no test should negate (a `requires`, an
    /// `assume`, a symbolic index fixed to its value).
    Fixed,
    /// A symbolic index fixed to its value, under `Mode::exact` (another input may negate
    /// it to reach another element).
    Index { stmt: u32, thread: u32 },
}

/// What the executor keeps symbolic beyond what test generation needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mode {
    /// `kpl crosscheck`'s exact runs: float built-ins as uninterpreted functions of their
    /// operands' terms (`(fadd a b)`, named as KPL names them), values the run cannot
    /// follow (a `havoc`, an atomic, a warp collective) as fresh variables `lost:N` of
    /// their own (so nothing is ever equal to one by accident), and symbolic indices as
    /// `ItemKind::Index` items.
    pub exact: bool,
}

/// Is this variable of the arena one of `Mode::exact`'s values the run could not follow?
pub fn is_lost_var(name: &str) -> bool {
    name.starts_with("lost:")
}

const HAVOC: &str = "havoc:";

/// Is this lost variable a `havoc`'s value (a math function kpl does not compute, an
/// uninitialised value): one the program leaves arbitrary, where the interpreter's run
/// picks one that need not be what a real run computes?
pub fn is_havoc_var(name: &str) -> bool {
    name.strip_prefix("lost:").is_some_and(|n| n.starts_with(HAVOC))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckKind {
    Assertion,
    Bounds,
}

#[derive(Clone, Debug)]
pub struct Item {
    /// A boolean term that held on this run.
    pub cond: Id,
    pub kind: ItemKind,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Ok,
    /// An assertion or bounds check failed in a thread.
    Failed { stmt: u32, thread: u32, what: CheckKind },
    /// A `requires` or `assume` does not hold: not an execution of the kernel.
    Infeasible,
    /// Threads of a group disagree at a barrier.
    Divergence { stmt: u32 },
    /// The step budget, the path-length budget or the time ran out.
    Timeout,
}

pub struct Run {
    pub end: End,
    pub path: Vec<Item>,
    /// (barrier interval, thread, target) for everything the run covered.
    pub covered: BTreeSet<(u32, u32, Target)>,
    /// The inputs the run read: params and initial elements (array, group for a shared
    /// array, index), with their values on this run.
    pub params_read: BTreeMap<String, u32>,
    pub elements_read: BTreeMap<(String, Option<u32>, u32), u32>,
    pub intervals: u32,
    /// The final memory: (array, group for a shared array or `u32::MAX`, index) ─► value
    /// and term, for every element the run read or wrote.
    pub memory: HashMap<(u32, u32, u32), (u32, Option<Id>)>,
    /// The run ended `Infeasible` at its last path item: a symbolic `requires` or `assume`
    /// that does not hold, recorded negated (what held).
    pub failed_item: bool,
}

/// The name of an input's variable in the term arena.
pub fn param_var(name: &str) -> String {
    format!("param:{name}")
}

pub fn element_var(array: &str, group: Option<u32>, index: u32) -> String {
    match group {
        Some(g) => format!("elem:{array}:{g}:{index}"),
        None => format!("elem:{array}::{index}"),
    }
}

/// Parse a variable name back into the input it stands for.
pub enum InputVar {
    Param(String),
    Element(String, Option<u32>, u32),
}

pub fn parse_var(v: &str) -> Option<InputVar> {
    if let Some(p) = v.strip_prefix("param:") {
        return Some(InputVar::Param(p.to_string()));
    }
    let rest = v.strip_prefix("elem:")?;
    let mut parts = rest.rsplitn(3, ':');
    let index = parts.next()?.parse().ok()?;
    let group = parts.next()?;
    let array = parts.next()?.to_string();
    let group = if group.is_empty() { None } else { Some(group.parse().ok()?) };
    Some(InputVar::Element(array, group, index))
}

#[derive(Clone, Copy)]
struct Val {
    c: u32,
    s: Option<Id>,
}

const BREAK: u8 = 1;
const CONTINUE: u8 = 2;
const RETURN: u8 = 3;

struct Exec<'a> {
    p: &'a Program,
    t: &'a mut Terms,
    inputs: &'a Inputs,
    tpg: u32,
    slots: Vec<Vec<Val>>,
    params: Vec<Val>,
    mem: HashMap<(u32, u32, u32), Val>,
    jump: Vec<u8>,
    interval: u32,
    steps: u64,
    max_steps: u64,
    deadline: Option<std::time::Instant>,
    run: Run,
    /// How many `havoc`s each thread has performed (their values are concrete: the
    /// interpreter's, from the seed, so replays agree).
    havocs: Vec<u32>,
    mode: Mode,
    /// How many `lost:N` variables this run has made.
    lost: u32,
}

/// The most path items one run records (each is a constraint of its children's queries).
pub const MAX_PATH: usize = 100_000;

type Stop = End;

/// Run the kernel concolically on `inputs`, building terms in `t`, until it ends or a
/// budget (steps, `MAX_PATH` path items, the deadline) runs out.
pub fn run(p: &Program, t: &mut Terms, inputs: &Inputs, max_steps: u64, deadline: Option<std::time::Instant>) -> Run {
    run_in(p, t, inputs, max_steps, deadline, Mode::default())
}

/// `run` with the given `Mode`.
pub fn run_in(p: &Program, t: &mut Terms, inputs: &Inputs, max_steps: u64, deadline: Option<std::time::Instant>, mode: Mode) -> Run {
    let total = p.launch.total_threads() as usize;
    let mut e = Exec {
        p,
        t,
        inputs,
        tpg: p.launch.threads_per_group().max(1) as u32,
        slots: vec![vec![Val { c: 0, s: None }; total]; p.slots.len()],
        params: Vec::new(),
        mem: HashMap::new(),
        jump: vec![0; total],
        havocs: vec![0; total],
        mode,
        lost: 0,
        interval: 0,
        steps: 0,
        max_steps,
        deadline,
        run: Run {
            end: End::Ok,
            path: Vec::new(),
            covered: BTreeSet::new(),
            params_read: BTreeMap::new(),
            elements_read: BTreeMap::new(),
            intervals: 1,
            memory: HashMap::new(),
            failed_item: false,
        },
    };
    // Under `Mode::exact`, a param a top-level `requires` pins (`--kernel-args`, a launch
    // read from host code) is the constant it must be.
    let pinned: Vec<String> = if mode.exact { kpl_semantics::inputs::pinned_params(p).into_iter().map(|(n, _)| n).collect() } else { Vec::new() };
    e.params = p
        .params
        .iter()
        .map(|name| {
            let c = inputs.param(name);
            if pinned.contains(name) {
                e.run.params_read.insert(name.clone(), c);
                return Val { c, s: None };
            }
            let s = e.t.var(&param_var(name), Sort::Word);
            e.run.params_read.insert(name.clone(), c);
            Val { c, s: Some(s) }
        })
        .collect();
    let end = match e.kernel(total) {
        Ok(()) => End::Ok,
        Err(end) => end,
    };
    e.run.end = end;
    e.run.intervals = e.interval + 1;
    e.run.memory = e.mem.iter().map(|(k, v)| (*k, (v.c, v.s))).collect();
    e.run
}

impl<'a> Exec<'a> {
    fn kernel(&mut self, total: usize) -> Result<(), Stop> {
        for (r, _) in &self.p.requires {
            let v = self.eval(r, 0);
            let b = self.cond(v);
            self.precondition(b)?;
        }
        let mut all: Vec<u32> = (0..total as u32).collect();
        self.block(&self.p.main, &mut all)
    }

    fn block(&mut self, stmts: &'a [St], act: &mut Vec<u32>) -> Result<(), Stop> {
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

    fn cover(&mut self, target: Target, threads: &[u32]) {
        for &t in threads {
            self.run.covered.insert((self.interval, t, target));
        }
    }

    fn step(&mut self, n: usize) -> Result<(), Stop> {
        let before = self.steps;
        self.steps += n as u64;
        if self.steps > self.max_steps || self.run.path.len() > MAX_PATH {
            return Err(End::Timeout);
        }
        if (before >> 16) != (self.steps >> 16) && self.deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return Err(End::Timeout);
        }
        Ok(())
    }

    fn stmt(&mut self, s: &'a St, act: &[u32]) -> Result<(), Stop> {
        self.step(act.len())?;
        self.cover(Target::Stmt(s.id), act);
        match &s.kind {
            StKind::Local { slot, init } => {
                for &t in act.iter() {
                    let v = match init {
                        Some(e) => self.eval(e, t),
                        None => Val { c: 0, s: None },
                    };
                    self.slots[*slot as usize][t as usize] = v;
                }
            }
            StKind::Havoc { slot } => {
                let l = self.p.launch;
                for &t in act.iter() {
                    let n = self.havocs[t as usize];
                    self.havocs[t as usize] += 1;
                    let c = self.inputs.havoc_value(s.id, &kpl_semantics::observe::thread_id(&l, t), n);
                    let v = self.untracked_as(c, HAVOC);
                    self.slots[*slot as usize][t as usize] = v;
                }
            }
            StKind::Assign { slot, value } => {
                let vals: Vec<Val> = act.iter().map(|&t| self.eval(value, t)).collect();
                for (&t, v) in act.iter().zip(vals) {
                    self.slots[*slot as usize][t as usize] = v;
                }
            }
            StKind::Read { slot, array, index, .. } => {
                let mut vals = Vec::with_capacity(act.len());
                for &t in act.iter() {
                    let i = self.index(*array, index, t, s.id)?;
                    vals.push(self.load(*array, t, i));
                }
                for (&t, v) in act.iter().zip(vals) {
                    self.slots[*slot as usize][t as usize] = v;
                }
            }
            StKind::Write { array, index, value } => {
                let mut writes = Vec::with_capacity(act.len());
                for &t in act.iter() {
                    let i = self.index(*array, index, t, s.id)?;
                    let v = self.eval(value, t);
                    writes.push((t, i, v));
                }
                for (t, i, v) in writes {
                    let key = self.key(*array, t, i);
                    self.mem.insert(key, v);
                }
            }
            StKind::Atomic { op, shape, slot, slot_hi, array, index, args, .. } if *shape != AtomicShape::WORD => {
                // A 64-bit or byte atomic: its elements, as the interpreter does them.
                for &t in act.iter() {
                    let iv = self.eval(index, t);
                    let mut cells = Vec::with_capacity(shape.elems() as usize);
                    for k in 0..shape.elems() {
                        let at = self.bin(BinOp::Add, iv, Val { c: k, s: None });
                        cells.push(self.checked_index(*array, at, t, s.id)?);
                    }
                    let old = shape.join(&cells.iter().map(|&c| self.load(*array, t, c).c).collect::<Vec<u32>>());
                    let w: Vec<u32> = args.iter().map(|e| self.eval(e, t).c).collect();
                    let new = ops::atomic_value(*op, *shape, old, &shape.operands(&w));
                    for (&c, v) in cells.iter().zip(shape.split(new)) {
                        let key = self.key(*array, t, c);
                        let v = self.untracked(v);
                        self.mem.insert(key, v);
                    }
                    for (slot, v) in [(slot, old as u32), (slot_hi, (old >> 32) as u32)] {
                        if let Some(slot) = slot {
                            let v = self.untracked(v);
                            self.slots[*slot as usize][t as usize] = v;
                        }
                    }
                }
            }
            StKind::Atomic { op, slot, array, index, args, .. } => {
                // One after another in thread order, as the interpreter does them.
                for &t in act.iter() {
                    let i = self.index(*array, index, t, s.id)?;
                    let old = self.load(*array, t, i);
                    let vals: Vec<Val> = args.iter().map(|e| self.eval(e, t)).collect();
                    let operands: Vec<u32> = vals.iter().map(|v| v.c).collect();
                    let new = ops::atomic(*op, old.c, &operands);
                    let key = self.key(*array, t, i);
                    // Under `Mode::exact`, an operation whose final value no order of the
                    // threads changes keeps its term; the others' values are lost.
                    let new = match (self.mode.exact, vals.first()) {
                        (true, Some(&v)) => self.order_free(*op, old, v, new).unwrap_or_else(|| self.untracked(new)),
                        _ => self.untracked(new),
                    };
                    self.mem.insert(key, new);
                    if let Some(slot) = slot {
                        let old = self.untracked(old.c);
                        self.slots[*slot as usize][t as usize] = old;
                    }
                }
            }
            // `kpl testgen` refuses kernels with snapshots (ghost arrays: `first_snapshot`).
            // A fence has no effect on a run (SDV).
            StKind::Snapshot { .. } | StKind::Fence(..) => {}
            // Concrete, as the interpreter computes them at warp size 32 (`kpl testgen`
            // refuses kernels with warp collectives: its paths would not follow their values).
            StKind::Warp { op, slot, args, .. } => {
                let argv: Vec<Vec<u32>> = args.iter().map(|e| act.iter().map(|&t| self.eval(e, t).c).collect()).collect();
                let vals = kpl_semantics::warp::collective(act, self.tpg, 32, *op, &argv, &|_| false).map_err(|_| End::Divergence { stmt: s.id })?;
                if let Some(slot) = slot {
                    for (&t, v) in act.iter().zip(vals) {
                        let v = self.untracked(v);
                        self.slots[*slot as usize][t as usize] = v;
                    }
                }
            }
            StKind::If { cond, then, els, .. } => {
                let mut t_act = Vec::new();
                let mut e_act = Vec::new();
                for &t in act.iter() {
                    let v = self.eval(cond, t);
                    let b = self.cond(v);
                    self.decide(b, s.id, t);
                    if b.c != 0 {
                        t_act.push(t);
                    } else {
                        e_act.push(t);
                    }
                }
                self.cover(Target::Branch(s.id, true), &t_act);
                self.cover(Target::Branch(s.id, false), &e_act);
                self.block(then, &mut t_act)?;
                self.block(els, &mut e_act)?;
            }
            StKind::While { cond, invariants, body, .. } => {
                let mut live = act.to_vec();
                loop {
                    for (inv, id) in invariants {
                        // One that reads arrays reads the thread's view, which this
                        // executor's single memory does not keep (the SDV executor checks it).
                        if inv.reads() {
                            continue;
                        }
                        for &t in live.iter() {
                            let v = self.eval(inv, t);
                            let b = self.cond(v);
                            self.check(b, *id, t, CheckKind::Assertion)?;
                        }
                    }
                    self.step(live.len())?;
                    let mut stay = Vec::new();
                    let mut leave = Vec::new();
                    for &t in live.iter() {
                        let v = self.eval(cond, t);
                        let b = self.cond(v);
                        self.decide(b, s.id, t);
                        if b.c != 0 {
                            stay.push(t);
                        } else {
                            leave.push(t);
                        }
                    }
                    self.cover(Target::Branch(s.id, true), &stay);
                    self.cover(Target::Branch(s.id, false), &leave);
                    live = stay;
                    if live.is_empty() {
                        break;
                    }
                    let mut iter = live.clone();
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
                for &t in act.iter() {
                    if self.jump[t as usize] == BREAK {
                        self.jump[t as usize] = 0;
                    }
                }
            }
            StKind::Call { proc, args } => {
                let pr = &self.p.procs[*proc as usize];
                let vals: Vec<Vec<Val>> = args.iter().map(|a| act.iter().map(|&t| self.eval(a, t)).collect()).collect();
                for (slot, v) in pr.params.iter().zip(vals) {
                    for (&t, x) in act.iter().zip(v) {
                        self.slots[*slot as usize][t as usize] = x;
                    }
                }
                let mut inner = act.to_vec();
                self.block(&pr.body, &mut inner)?;
                for &t in act.iter() {
                    if self.jump[t as usize] == RETURN {
                        self.jump[t as usize] = 0;
                    }
                }
            }
            StKind::Barrier { grid, .. } => {
                // Every enabled group must be whole, and a grid barrier's every thread of
                // the launch (the interpreter reports the rest).
                if *grid && act.len() != self.jump.len() {
                    return Err(End::Divergence { stmt: s.id });
                }
                let mut i = 0;
                while i < act.len() {
                    let g = act[i] / self.tpg;
                    let start = i;
                    while i < act.len() && act[i] / self.tpg == g {
                        i += 1;
                    }
                    if (i - start) as u32 != self.tpg {
                        return Err(End::Divergence { stmt: s.id });
                    }
                }
                self.interval += 1;
            }
            StKind::Break | StKind::Continue | StKind::Return => {
                let mark = match s.kind {
                    StKind::Break => BREAK,
                    StKind::Continue => CONTINUE,
                    _ => RETURN,
                };
                for &t in act.iter() {
                    self.jump[t as usize] = mark;
                }
            }
            // A `global assert` speaks of disabled threads too: the SDV executor checks it.
            StKind::Assert(_, true) => {}
            StKind::Assert(e, false) => {
                for &t in act.iter() {
                    let v = self.eval(e, t);
                    let b = self.cond(v);
                    self.check(b, s.id, t, CheckKind::Assertion)?;
                }
            }
            StKind::Assume(e) => {
                for &t in act.iter() {
                    let v = self.eval(e, t);
                    let b = self.cond(v);
                    self.precondition(b)?;
                }
            }
        }
        Ok(())
    }

    /// A `requires` or `assume`: a path item that no input negates where it is symbolic;
    /// where it does not hold the run is no execution and ends, its item the negation
    /// (what held) and `Run::failed_item` set.
    fn precondition(&mut self, b: Val) -> Result<(), Stop> {
        let holds = b.c != 0;
        if let Some(s) = b.s {
            let cond = if holds { s } else { self.t.not(s) };
            self.run.path.push(Item { cond, kind: ItemKind::Fixed });
        }
        if !holds {
            self.run.failed_item = b.s.is_some();
            return Err(End::Infeasible);
        }
        Ok(())
    }

    /// Record a thread's branch decision (symbolic conditions only).
    fn decide(&mut self, b: Val, stmt: u32, thread: u32) {
        if let Some(s) = b.s {
            let taken = b.c != 0;
            let cond = if taken { s } else { self.t.not(s) };
            let interval = self.interval;
            self.run.path.push(Item { cond, kind: ItemKind::Branch { stmt, thread, taken, interval } });
        }
    }

    /// A check in a thread: fails the run if false; if it holds but is symbolic, a path
    /// item another input may negate.
    fn check(&mut self, b: Val, stmt: u32, thread: u32, what: CheckKind) -> Result<(), Stop> {
        if b.c == 0 {
            return Err(End::Failed { stmt, thread, what });
        }
        if let Some(s) = b.s {
            self.run.path.push(Item { cond: s, kind: ItemKind::Check { stmt, thread, what } });
        }
        Ok(())
    }

    /// An access's index in a thread: bounds checked (symbolically too), then fixed.
    fn index(&mut self, array: u32, index: &Ex, t: u32, stmt: u32) -> Result<u32, Stop> {
        let v = self.eval(index, t);
        self.checked_index(array, v, t, stmt)
    }

    /// An index's value, checked against the array's size and fixed on the path.
    fn checked_index(&mut self, array: u32, v: Val, t: u32, stmt: u32) -> Result<u32, Stop> {
        if let Some(size) = self.p.arrays[array as usize].size {
            let ok = self.bin(BinOp::Lt, v, Val { c: size, s: None });
            let b = self.cond(ok);
            self.check(b, stmt, t, CheckKind::Bounds)?;
        }
        if let Some(s) = v.s {
            let c = self.t.word(v.c);
            let eq = self.t.add(Vc::Eq([s, c]));
            let kind = if self.mode.exact { ItemKind::Index { stmt, thread: t } } else { ItemKind::Fixed };
            self.run.path.push(Item { cond: eq, kind });
        }
        Ok(v.c)
    }

    /// The value an atomic leaves where the order of the threads' atomics does not change
    /// the final value (addition, subtraction, the bitwise operations, minimum and maximum
    /// of integers), with its term; `None` for the others (exchange, compare-and-swap,
    /// CUDA's wrapping increment and decrement, float addition).
    fn order_free(&mut self, op: kpl_lang::ast::AtomicOp, old: Val, v: Val, c: u32) -> Option<Val> {
        use kpl_lang::ast::AtomicOp::*;
        let bin = match op {
            Add => BinOp::Add,
            Sub => BinOp::Sub,
            And => BinOp::BitAnd,
            Or => BinOp::BitOr,
            Xor => BinOp::BitXor,
            Min | Max | Smin | Smax => {
                let f = match op {
                    Min => Builtin::Min,
                    Max => Builtin::Max,
                    Smin => Builtin::Sle,
                    _ => Builtin::Sge,
                };
                if matches!(op, Min | Max) {
                    let r = self.builtin(f, old, v);
                    return Some(Val { c, s: r.s });
                }
                // Signed: the old value where it is already on the kept side.
                let keep = self.builtin(f, old, v);
                let (x, y) = (self.word_of(old), self.word_of(v));
                let s = match keep.s {
                    Some(k) => {
                        let b = self.bool_of(Val { c: keep.c, s: Some(k) });
                        Some(self.t.add(Vc::Ite([b, x, y])))
                    }
                    None => None,
                };
                return Some(Val { c, s });
            }
            _ => return None,
        };
        let r = self.bin(bin, old, v);
        Some(Val { c, s: r.s })
    }

    /// A value the run computes but does not follow symbolically: concrete, or under
    /// `Mode::exact` a fresh variable `lost:N` (with the concrete value).
    fn untracked(&mut self, c: u32) -> Val {
        self.untracked_as(c, "")
    }

    /// `untracked`, its variable named with `kind` (`HAVOC`: a value the program leaves
    /// arbitrary, which the interpreter's run only picks).
    fn untracked_as(&mut self, c: u32, kind: &str) -> Val {
        if !self.mode.exact {
            return Val { c, s: None };
        }
        self.lost += 1;
        let name = format!("lost:{kind}{}:{}", self.p.name, self.lost);
        Val { c, s: Some(self.t.var(&name, Sort::Word)) }
    }

    fn key(&self, array: u32, t: u32, i: u32) -> (u32, u32, u32) {
        let space = match self.p.arrays[array as usize].kind {
            ArrayKind::Shared => t / self.tpg,
            ArrayKind::Global => u32::MAX,
        };
        (array, space, i)
    }

    fn load(&mut self, array: u32, t: u32, i: u32) -> Val {
        let key = self.key(array, t, i);
        if let Some(v) = self.mem.get(&key) {
            return *v;
        }
        let info = &self.p.arrays[array as usize];
        let group = (info.kind == ArrayKind::Shared).then_some(t / self.tpg);
        let c = self.inputs.element(&info.name, group, i);
        let s = self.t.var(&element_var(&info.name, group, i), Sort::Word);
        self.run.elements_read.insert((info.name.clone(), group, i), c);
        let v = Val { c, s: Some(s) };
        self.mem.insert(key, v);
        v
    }

    /// A word as a condition (0 or 1), with its term.
    fn cond(&mut self, v: Val) -> Val {
        let s = v.s.map(|s| {
            let z = self.t.word(0);
            let eq = self.t.add(Vc::Eq([s, z]));
            self.t.not(eq)
        });
        Val { c: (v.c != 0) as u32, s }
    }

    fn word_of(&mut self, v: Val) -> Id {
        v.s.unwrap_or_else(|| self.t.word(v.c))
    }

    /// A boolean term as a word term (1 or 0).
    fn as_word(&mut self, b: Id) -> Id {
        let (one, zero) = (self.t.word(1), self.t.word(0));
        self.t.add(Vc::Ite([b, one, zero]))
    }

    fn bool_of(&mut self, v: Val) -> Id {
        let z = self.t.word(0);
        let w = self.word_of(v);
        let eq = self.t.add(Vc::Eq([w, z]));
        self.t.not(eq)
    }

    fn bin(&mut self, op: BinOp, a: Val, b: Val) -> Val {
        let c = ops::binary(op, a.c, b.c);
        if a.s.is_none() && b.s.is_none() {
            return Val { c, s: None };
        }
        let (x, y) = (self.word_of(a), self.word_of(b));
        use BinOp::*;
        let s = match op {
            Add => self.t.add(Vc::Add([x, y])),
            Sub => self.t.add(Vc::Sub([x, y])),
            Mul => self.t.add(Vc::Mul([x, y])),
            Div => self.t.add(Vc::Udiv([x, y])),
            Rem => self.t.add(Vc::Urem([x, y])),
            BitAnd => self.t.add(Vc::BvAnd([x, y])),
            BitOr => self.t.add(Vc::BvOr([x, y])),
            BitXor => self.t.add(Vc::BvXor([x, y])),
            Shl => self.t.add(Vc::Shl([x, y])),
            Shr => self.t.add(Vc::Lshr([x, y])),
            Eq | Ne | Lt | Le | Gt | Ge | LAnd | LOr => {
                let b = match op {
                    Eq => self.t.add(Vc::Eq([x, y])),
                    Ne => {
                        let e = self.t.add(Vc::Eq([x, y]));
                        self.t.not(e)
                    }
                    Lt => self.t.add(Vc::Ult([x, y])),
                    Le => self.t.add(Vc::Ule([x, y])),
                    Gt => self.t.add(Vc::Ult([y, x])),
                    Ge => self.t.add(Vc::Ule([y, x])),
                    LAnd => {
                        let (p, q) = (self.bool_of(a), self.bool_of(b));
                        self.t.and(p, q)
                    }
                    _ => {
                        let (p, q) = (self.bool_of(a), self.bool_of(b));
                        self.t.or(p, q)
                    }
                };
                self.as_word(b)
            }
        };
        Val { c, s: Some(s) }
    }

    fn builtin(&mut self, f: Builtin, a: Val, b: Val) -> Val {
        let c = ops::builtin(f, a.c, b.c);
        if a.s.is_none() && b.s.is_none() {
            return Val { c, s: None };
        }
        let (x, y) = (self.word_of(a), self.word_of(b));
        let s = match f {
            Builtin::Slt => Some(self.t.add(Vc::Slt([x, y]))),
            Builtin::Sle => Some(self.t.add(Vc::Sle([x, y]))),
            Builtin::Sgt => Some(self.t.add(Vc::Slt([y, x]))),
            Builtin::Sge => Some(self.t.add(Vc::Sle([y, x]))),
            Builtin::Implies => {
                let (p, q) = (self.bool_of(a), self.bool_of(b));
                Some(self.t.implies(p, q))
            }
            _ => None,
        };
        let s = match (s, f) {
            (Some(b), _) => Some(self.as_word(b)),
            (None, Builtin::Sdiv) => Some(self.t.add(Vc::Sdiv([x, y]))),
            (None, Builtin::Srem) => Some(self.t.add(Vc::Srem([x, y]))),
            (None, Builtin::Ashr) => Some(self.t.add(Vc::Ashr([x, y]))),
            (None, Builtin::Min | Builtin::Max) => {
                let lt = self.t.add(Vc::Ult([x, y]));
                let (p, q) = if f == Builtin::Min { (x, y) } else { (y, x) };
                Some(self.t.add(Vc::Ite([lt, p, q])))
            }
            (None, Builtin::Fneg) => {
                let m = self.t.word(0x8000_0000);
                Some(self.t.add(Vc::BvXor([x, m])))
            }
            (None, Builtin::Fabs) => {
                let m = self.t.word(0x7fff_ffff);
                Some(self.t.add(Vc::BvAnd([x, m])))
            }
            (None, f) if self.mode.exact && f.is_float() => {
                let args = if f.arity() == 1 { vec![x] } else { vec![x, y] };
                Some(self.t.add(Vc::App(egg::Symbol::from(f.name()), args)))
            }
            // Under `Mode::exact`, what the run cannot follow is lost.
            (None, _) if self.mode.exact => return self.untracked(c),
            // Other float operations: the concrete value only.
            _ => None,
        };
        Val { c, s }
    }

    fn eval(&mut self, e: &Ex, t: u32) -> Val {
        match e {
            Ex::Const(c) => Val { c: *c, s: None },
            Ex::Param(p) => self.params[*p as usize],
            Ex::Slot(s) => self.slots[*s as usize][t as usize],
            Ex::Special(s, a) => Val { c: self.special(*s, *a, t), s: None },
            Ex::Un(op, a) => {
                let v = self.eval(a, t);
                let c = ops::unary(*op, v.c);
                let s = v.s.map(|x| match op {
                    UnOp::BitNot => self.t.add(Vc::BvNot([x])),
                    UnOp::Neg => self.t.add(Vc::Neg([x])),
                    UnOp::Not => {
                        let z = self.t.word(0);
                        let eq = self.t.add(Vc::Eq([x, z]));
                        self.as_word(eq)
                    }
                });
                Val { c, s }
            }
            Ex::Bin(op, a, b) => {
                let (x, y) = (self.eval(a, t), self.eval(b, t));
                self.bin(*op, x, y)
            }
            Ex::Cond(c, a, b) => {
                let (cv, x, y) = (self.eval(c, t), self.eval(a, t), self.eval(b, t));
                let r = if cv.c != 0 { x.c } else { y.c };
                if cv.s.is_none() && x.s.is_none() && y.s.is_none() {
                    return Val { c: r, s: None };
                }
                let cb = self.bool_of(cv);
                let (xs, ys) = (self.word_of(x), self.word_of(y));
                Val { c: r, s: Some(self.t.add(Vc::Ite([cb, xs, ys]))) }
            }
            Ex::Call(f, a, b) => {
                let (x, y) = (self.eval(a, t), self.eval(b, t));
                self.builtin(*f, x, y)
            }
            // Reads appear only in loop and barrier invariants, which test generation does
            // not check.
            Ex::Read(..) => Val { c: 0, s: None },
        }
    }

    fn special(&self, s: Special, a: Axis, t: u32) -> u32 {
        let l = self.p.launch;
        let id = kpl_semantics::observe::thread_id(&l, t);
        match s {
            Special::Lid => id.local[a.index()],
            Special::Gid => id.group[a.index()],
            Special::Threads => l.threads[a.index()],
            Special::Groups => l.groups[a.index()],
        }
    }
}
