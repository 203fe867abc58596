//! The SDV executor against a literal transcription of the paper's rules (Figures 4-6):
//! predicated statements on a stack, predicates as conjunctions of fresh locations, K-VAR's
//! fresh locations, belim/celim/relim as flag assignments, per-thread shadow memories with
//! read and write sets, `merge` at barriers, and group read/write sets for inter-group
//! races. It is slow and simple on purpose; the fast executor must agree with it on the
//! outcome kind and, when there is no error, on the final memory.

use kpl_lang::ast::Special;
use kpl_lang::generate::generate;
use kpl_lang::ops;
use kpl_lang::printer::print_kernel;
use kpl_lang::rng::Rng;
use kpl_semantics::ir::{ArrayKind, Ex, Program, St, StKind};
use kpl_semantics::report::ArrayContents;
use kpl_semantics::{compile, run, Inputs, Options};
use std::collections::{BTreeMap, BTreeSet, HashMap};

type Loc = u32;
/// A predicate: a conjunction of (location, must be true).
type Pred = Vec<(Loc, bool)>;

#[derive(Clone, Default)]
struct Env {
    slots: HashMap<u32, Loc>,
    brk: Option<Loc>,
    cont: Option<Loc>,
    ret: Option<Loc>,
}

enum Item<'p> {
    Seq(&'p [St], Env),
    /// `v := e` for a predicate location.
    SetLoc(Loc, &'p Ex, Env),
    /// The underlined `while`: the loop after K-OPEN.
    Loop(&'p St, Env),
    /// `assert` of a loop invariant, checked at the loop head (KPL.md).
    Invariant(&'p Ex, Env),
}

#[derive(Clone)]
struct Thread {
    l: HashMap<Loc, u32>,
    /// Shadow memory: what this thread sees, over the initial contents.
    sh: HashMap<(u32, u32), u32>,
    r: BTreeSet<(u32, u32)>,
    w: BTreeSet<(u32, u32)>,
    lid: [u32; 3],
    gid: [u32; 3],
}

struct Kernel<'p> {
    p: &'p Program,
    inputs: &'p Inputs,
    params: Vec<u32>,
    groups: Vec<Vec<Thread>>,
    /// Group read and write sets: (array, index, local id), never cleared.
    gr: Vec<BTreeSet<(u32, u32, u32)>>,
    gw: Vec<BTreeSet<(u32, u32, u32)>>,
    next: Loc,
    steps: u64,
}

#[derive(Debug, PartialEq)]
enum End {
    Ok,
    Error(&'static str),
    Infeasible,
    Timeout,
}

impl<'p> Kernel<'p> {
    fn fresh(&mut self) -> Loc {
        self.next += 1;
        self.next
    }

    fn initial(&self, a: u32, g: usize, i: u32) -> u32 {
        let info = &self.p.arrays[a as usize];
        self.inputs.element(&info.name, (info.kind == ArrayKind::Shared).then_some(g as u32), i)
    }

    fn sh(&self, g: usize, t: &Thread, a: u32, i: u32) -> u32 {
        t.sh.get(&(a, i)).copied().unwrap_or_else(|| self.initial(a, g, i))
    }

    fn eval(&self, t: &Thread, env: &Env, e: &Ex) -> u32 {
        let l = self.p.launch;
        match e {
            Ex::Const(c) => *c,
            Ex::Slot(s) => env.slots.get(s).map(|loc| t.l.get(loc).copied().unwrap_or(0)).unwrap_or(0),
            Ex::Param(p) => self.params[*p as usize],
            Ex::Special(s, a) => match s {
                Special::Lid => t.lid[a.index()],
                Special::Gid => t.gid[a.index()],
                Special::Threads => l.threads[a.index()],
                Special::Groups => l.groups[a.index()],
            },
            Ex::Un(op, a) => ops::unary(*op, self.eval(t, env, a)),
            Ex::Bin(op, a, b) => ops::binary(*op, self.eval(t, env, a), self.eval(t, env, b)),
            Ex::Cond(c, a, b) => {
                if self.eval(t, env, c) != 0 {
                    self.eval(t, env, a)
                } else {
                    self.eval(t, env, b)
                }
            }
            Ex::Call(f, a, b) => ops::builtin(*f, self.eval(t, env, a), self.eval(t, env, b)),
            // Only loop and barrier invariants read arrays in expressions; these rules do not
            // check them.
            Ex::Read(..) => 0,
        }
    }

    fn holds(t: &Thread, p: &Pred) -> bool {
        p.iter().all(|(loc, pos)| (t.l.get(loc).copied().unwrap_or(0) != 0) == *pos)
    }

    fn count(&mut self, n: u64) -> Result<(), End> {
        self.steps += n;
        if self.steps > 20_000_000 {
            return Err(End::Timeout);
        }
        Ok(())
    }

    /// A basic statement under `p` by every thread (T-*, G-RACE, G-BASIC, K-*-RACE, K-BASIC).
    fn basic(&mut self, p: &Pred, env: &Env, kind: &StKind, target: Option<Loc>) -> Result<(), End> {
        let tpg = self.groups[0].len();
        self.count((self.groups.len() * tpg) as u64)?;
        // Out-of-bounds first (KPL.md: checks come in this order within a step).
        if let StKind::Read { array, index, .. } | StKind::Write { array, index, .. } = kind {
            if let Some(n) = self.p.arrays[*array as usize].size {
                for g in &self.groups {
                    for t in g.iter().filter(|t| Self::holds(t, p)) {
                        if self.eval(t, env, index) >= n {
                            return Err(End::Error("out_of_bounds"));
                        }
                    }
                }
            }
        }
        for gi in 0..self.groups.len() {
            for ti in 0..tpg {
                let t = &self.groups[gi][ti];
                if !Self::holds(t, p) {
                    continue; // T-DISABLED
                }
                match kind {
                    StKind::Local { init, .. } => {
                        let v = init.as_ref().map(|e| self.eval(t, env, e)).unwrap_or(0);
                        self.groups[gi][ti].l.insert(target.unwrap_or(0), v);
                    }
                    StKind::Assign { value, .. } => {
                        let v = self.eval(t, env, value);
                        self.groups[gi][ti].l.insert(target.unwrap_or(0), v);
                    }
                    StKind::Read { array, index, .. } => {
                        let i = self.eval(t, env, index);
                        let v = self.sh(gi, t, *array, i);
                        let t = &mut self.groups[gi][ti];
                        t.l.insert(target.unwrap_or(0), v);
                        t.r.insert((*array, i));
                    }
                    StKind::Write { array, index, value } => {
                        let (i, v) = (self.eval(t, env, index), self.eval(t, env, value));
                        let t = &mut self.groups[gi][ti];
                        t.sh.insert((*array, i), v);
                        t.w.insert((*array, i));
                    }
                    _ => unreachable!("not a basic statement"),
                }
            }
        }
        // G-RACE in every group.
        for g in &self.groups {
            for (j, tj) in g.iter().enumerate() {
                for (k, tk) in g.iter().enumerate() {
                    if j != k && tj.w.iter().any(|x| tk.r.contains(x) || tk.w.contains(x)) {
                        return Err(End::Error("race"));
                    }
                }
            }
        }
        // G-BASIC: group sets; then K-INTER-GROUP-RACE over global arrays.
        for gi in 0..self.groups.len() {
            for (j, t) in self.groups[gi].iter().enumerate() {
                self.gr[gi].extend(t.r.iter().map(|&(a, i)| (a, i, j as u32)));
                self.gw[gi].extend(t.w.iter().map(|&(a, i)| (a, i, j as u32)));
            }
        }
        let global = |a: u32| self.p.arrays[a as usize].kind == ArrayKind::Global;
        for i in 0..self.groups.len() {
            for j in 0..self.groups.len() {
                if i == j {
                    continue;
                }
                let hit = self.gw[i].iter().filter(|x| global(x.0)).any(|&(a, x, _)| {
                    self.gr[j].iter().chain(self.gw[j].iter()).any(|&(b, y, _)| a == b && x == y)
                });
                if hit {
                    return Err(End::Error("race"));
                }
            }
        }
        Ok(())
    }

    /// G-SYNC, with the fence (KPL.md): a thread's reads and writes of a memory its fence
    /// covers are merged and forgotten; the others stay in its shadow memory and sets.
    fn barrier(&mut self, p: &Pred, env: &Env, shared: &Ex, global: &Ex) -> Result<(), End> {
        let tpg = self.groups[0].len();
        self.count((self.groups.len() * tpg) as u64)?;
        for g in &self.groups {
            let en = g.iter().filter(|t| Self::holds(t, p)).count();
            if en != 0 && en != tpg {
                return Err(End::Error("divergence")); // G-DIVERGENCE, K-DIVERGENCE
            }
        }
        for gi in 0..self.groups.len() {
            if !Self::holds(&self.groups[gi][0], p) {
                continue; // G-NO-OP
            }
            let fences: Vec<[bool; 2]> =
                self.groups[gi].iter().map(|t| [self.eval(t, env, global) != 0, self.eval(t, env, shared) != 0]).collect();
            let arrays = self.p.arrays.clone();
            let covered = |f: &[bool; 2], a: u32| f[(arrays[a as usize].kind == ArrayKind::Shared) as usize];
            // merge_i(γ): a location written under a covering fence takes its writer's value.
            let mut merged: Vec<(u32, u32, u32)> = Vec::new();
            for (t, f) in self.groups[gi].iter().zip(&fences) {
                for &(a, i) in t.w.iter().filter(|x| covered(f, x.0)) {
                    merged.push((a, i, t.sh.get(&(a, i)).copied().unwrap_or(0)));
                }
            }
            for (t, f) in self.groups[gi].iter_mut().zip(&fences) {
                for &(a, i, v) in &merged {
                    if !t.w.contains(&(a, i)) || covered(f, a) {
                        t.sh.insert((a, i), v);
                    }
                }
                t.r.retain(|x| !covered(f, x.0));
                t.w.retain(|x| !covered(f, x.0));
            }
        }
        Ok(())
    }

    fn exists(&self, p: &Pred, env: &Env, e: &Ex) -> bool {
        self.groups.iter().flatten().any(|t| Self::holds(t, p) && self.eval(t, env, e) != 0)
    }

    fn run(&mut self) -> End {
        for (e, _) in &self.p.requires {
            if self.eval(&self.groups[0][0], &Env::default(), e) == 0 {
                return End::Infeasible;
            }
        }
        let mut stack: Vec<(Item<'p>, Pred)> = vec![(Item::Seq(&self.p.main, Env::default()), vec![])];
        while let Some((item, p)) = stack.pop() {
            if let Err(e) = self.item(item, p, &mut stack) {
                return e;
            }
        }
        End::Ok
    }

    fn item(&mut self, item: Item<'p>, p: Pred, stack: &mut Vec<(Item<'p>, Pred)>) -> Result<(), End> {
        match item {
            Item::SetLoc(v, e, env) => {
                let tpg = self.groups[0].len();
                self.count((self.groups.len() * tpg) as u64)?;
                for g in 0..self.groups.len() {
                    for ti in 0..tpg {
                        let t = &self.groups[g][ti];
                        if Self::holds(t, &p) {
                            let x = self.eval(t, &env, e);
                            self.groups[g][ti].l.insert(v, x);
                        }
                    }
                }
            }
            Item::Invariant(e, env) => {
                let bad = self.groups.iter().flatten().any(|t| Self::holds(t, &p) && self.eval(t, &env, e) == 0);
                if bad {
                    return Err(End::Error("assertion"));
                }
            }
            Item::Loop(st, env) => {
                let StKind::While { cond, invariants, body, .. } = &st.kind else { unreachable!() };
                // KPL.md: invariants are checked at every loop head by the threads under p.
                // One that reads arrays reads a thread's view, which these rules do not keep.
                if invariants.iter().any(|(inv, _)| inv.reads()) {
                    return Err(End::Error("invariant read"));
                }
                for (inv, _) in invariants {
                    self.item(Item::Invariant(inv, env.clone()), p.clone(), stack)?;
                }
                self.count(1)?;
                if self.exists(&p, &env, cond) {
                    // K-ITER: (u := e, p) : (celim(S, c), p ∧ u ∧ ¬c) : (while e S, p)
                    let (u, c) = (self.fresh(), self.fresh());
                    let mut body_env = env.clone();
                    body_env.cont = Some(c);
                    let mut q = p.clone();
                    q.push((u, true));
                    q.push((c, false));
                    stack.push((Item::Loop(st, env.clone()), p.clone()));
                    stack.push((Item::Seq(body, body_env), q));
                    stack.push((Item::SetLoc(u, cond, env), p));
                } // else K-DONE
            }
            Item::Seq(stmts, env) => {
                let Some((s, rest)) = stmts.split_first() else { return Ok(()) };
                // K-SEQ; a declaration (K-VAR) gives the rest of the block a fresh location.
                let mut rest_env = env.clone();
                let declares = match &s.kind {
                    StKind::Local { slot, .. } | StKind::Read { slot, .. } => !env.slots.contains_key(slot),
                    _ => false,
                };
                if declares {
                    if let StKind::Local { slot, .. } | StKind::Read { slot, .. } = &s.kind {
                        let v = self.fresh();
                        rest_env.slots.insert(*slot, v);
                    }
                }
                if !rest.is_empty() {
                    stack.push((Item::Seq(rest, rest_env.clone()), p.clone()));
                }
                self.stmt(s, env, rest_env, p, stack)?;
            }
        }
        Ok(())
    }

    fn stmt(&mut self, s: &'p St, env: Env, after: Env, p: Pred, stack: &mut Vec<(Item<'p>, Pred)>) -> Result<(), End> {
        match &s.kind {
            StKind::Local { slot, .. } | StKind::Assign { slot, .. } | StKind::Read { slot, .. } => {
                let target = after.slots.get(slot).copied();
                self.basic(&p, &env, &s.kind, target)?;
            }
            StKind::Write { .. } => self.basic(&p, &env, &s.kind, None)?,
            // The paper has no atomics, and the generated kernels compared here have none.
            StKind::Atomic { .. } => return Err(End::Error("atomic")),
            // Nor warps.
            StKind::Warp { .. } => return Err(End::Error("warp collective")),
            StKind::Barrier { invariants, .. } if !invariants.is_empty() => {
                return Err(End::Error("barrier invariant"))
            }
            // Nor grid barriers (the paper's barriers are per group).
            StKind::Barrier { grid: true, .. } => return Err(End::Error("grid barrier")),
            // Nor arbitrary values (the generated kernels have none either).
            StKind::Havoc { .. } => return Err(End::Error("havoc")),
            // Nor ghost arrays (nor do the generated kernels).
            StKind::Snapshot { .. } => return Err(End::Error("snapshot")),
            StKind::If { cond, then, els, .. } => {
                // K-IF: (v := e, p) : (S1, p ∧ v) : (S2, p ∧ ¬v)
                let v = self.fresh();
                let (mut pt, mut pe) = (p.clone(), p.clone());
                pt.push((v, true));
                pe.push((v, false));
                stack.push((Item::Seq(els, env.clone()), pe));
                stack.push((Item::Seq(then, env.clone()), pt));
                stack.push((Item::SetLoc(v, cond, env), p));
            }
            StKind::While { .. } => {
                // K-OPEN: (while e belim(S, v), p ∧ ¬v)
                let v = self.fresh();
                let mut e2 = env;
                e2.brk = Some(v);
                let mut q = p;
                q.push((v, false));
                stack.push((Item::Loop(s, e2), q));
            }
            StKind::Call { proc, args } => {
                // K-CALL: (u := e; relim(S, v), p ∧ ¬v), one u per parameter.
                let pr = &self.p.procs[*proc as usize];
                let v = self.fresh();
                let mut callee = Env { ret: Some(v), ..Env::default() };
                let mut sets = Vec::new();
                for (slot, a) in pr.params.iter().zip(args) {
                    let u = self.fresh();
                    callee.slots.insert(*slot, u);
                    sets.push((u, a));
                }
                let mut q = p.clone();
                q.push((v, false));
                stack.push((Item::Seq(&pr.body, callee), q));
                for (u, a) in sets.into_iter().rev() {
                    stack.push((Item::SetLoc(u, a, env.clone()), p.clone()));
                }
            }
            StKind::Barrier { shared, global, .. } => self.barrier(&p, &env, shared, global)?,
            StKind::Break | StKind::Continue | StKind::Return => {
                let flag = match s.kind {
                    StKind::Break => env.brk,
                    StKind::Continue => env.cont,
                    _ => env.ret,
                };
                static TRUE: Ex = Ex::Const(1);
                if let Some(f) = flag {
                    self.item(Item::SetLoc(f, &TRUE, env), p, stack)?;
                }
            }
            // The paper's assertions are checked by enabled threads only (kernels with
            // global ones are not compared).
            StKind::Assert(_, true) => return Err(End::Error("global assert")),
            StKind::Assert(e, false) => {
                self.count(1)?;
                if self.groups.iter().flatten().any(|t| Self::holds(t, &p) && self.eval(t, &env, e) == 0) {
                    return Err(End::Error("assertion"));
                }
            }
            StKind::Assume(e) => {
                if self.groups.iter().flatten().any(|t| Self::holds(t, &p) && self.eval(t, &env, e) == 0) {
                    return Err(End::Infeasible);
                }
            }
            // The paper has no fences; they are no-ops under SDV.
            StKind::Fence(..) => {}
        }
        Ok(())
    }

    /// Final memory: each group's view merged; a global element takes the value of the
    /// group that wrote it.
    fn memory(&mut self) -> Vec<(String, ArrayContents)> {
        let all = vec![];
        static BOTH: Ex = Ex::Const(1);
        let _ = self.barrier(&all, &Env::default(), &BOTH, &BOTH); // the final merge (every thread enabled)
        let mut out = Vec::new();
        for (a, info) in self.p.arrays.iter().enumerate() {
            let a = a as u32;
            let n = info.size.unwrap_or(0);
            let c = match info.kind {
                ArrayKind::Shared => ArrayContents::PerGroup(
                    (0..self.groups.len()).map(|g| (0..n).map(|i| self.sh(g, &self.groups[g][0], a, i)).collect()).collect(),
                ),
                ArrayKind::Global => {
                    let val = |i: u32| {
                        for g in 0..self.groups.len() {
                            if self.gw[g].iter().any(|&(b, x, _)| b == a && x == i) {
                                return self.sh(g, &self.groups[g][0], a, i);
                            }
                        }
                        self.initial(a, 0, i)
                    };
                    match info.size {
                        Some(n) => ArrayContents::Dense((0..n).map(val).collect()),
                        None => ArrayContents::Sparse(BTreeMap::new()),
                    }
                }
            };
            out.push((info.name.clone(), c));
        }
        out
    }
}

fn literal(prog: &Program, inputs: &Inputs) -> (End, Vec<(String, ArrayContents)>) {
    let l = prog.launch;
    let split = |mut v: u32, d: [u32; 3]| {
        let x = v % d[0];
        v /= d[0];
        [x, v % d[1], v / d[1]]
    };
    let groups: Vec<Vec<Thread>> = (0..l.num_groups() as u32)
        .map(|g| {
            (0..l.threads_per_group() as u32)
                .map(|t| Thread {
                    l: HashMap::new(),
                    sh: HashMap::new(),
                    r: BTreeSet::new(),
                    w: BTreeSet::new(),
                    lid: split(t, l.threads),
                    gid: split(g, l.groups),
                })
                .collect()
        })
        .collect();
    let n = groups.len();
    let mut k = Kernel {
        p: prog,
        inputs,
        params: prog.params.iter().map(|p| inputs.param(p)).collect(),
        groups,
        gr: vec![BTreeSet::new(); n],
        gw: vec![BTreeSet::new(); n],
        next: 0,
        steps: 0,
    };
    let end = k.run();
    let mem = if end == End::Ok { k.memory() } else { vec![] };
    (end, mem)
}

/// Compare the fast executor with the literal rules on one kernel.
fn compare(src: &str, seed: u64, what: &str) -> Option<String> {
    let c = kpl_lang::check_kpl(src).ok()?;
    let launch = kpl_lang::Launch::of(&c.kernel);
    if launch.total_threads() > 64 {
        return None;
    }
    let prog = compile(&c.core, launch);
    // The paper's assertions never look at a disabled thread (kpl's two-thread and global
    // ones do, and give its locals the verifier's values): nothing to compare.
    if prog.observes_disabled {
        return None;
    }
    let inputs = Inputs::from_seed(seed);
    let (end, mem) = literal(&prog, &inputs);
    let fast = run(&prog, inputs, &Options { max_steps: 20_000_000, ..Options::default() });
    let want = match &end {
        End::Ok => "ok",
        // The paper has no atomics, warps, arbitrary values, barrier invariants, grid barriers, invariants
        // that read arrays, global assertions or ghost arrays: nothing to compare.
        End::Error("atomic" | "warp collective" | "havoc" | "barrier invariant" | "grid barrier" | "invariant read" | "global assert" | "snapshot") => return None,
        End::Error(k) => k,
        End::Infeasible => "infeasible",
        End::Timeout => return None,
    };
    assert_eq!(fast.outcome.name(), want, "{what}: outcome differs from the paper's rules\n{src}");
    if end == End::Ok {
        for ((n, a), (_, b)) in mem.iter().zip(fast.memory.iter()) {
            if let (ArrayContents::Sparse(_), _) = (a, b) {
                continue; // unsized arrays: the literal executor does not list them
            }
            assert_eq!(a, b, "{what}: array `{n}` differs from the paper's rules\n{src}");
        }
    }
    Some(want.to_string())
}

/// Make a generated kernel wrong in one of the ways kernels go wrong.
fn break_it(text: &str, rng: &mut Rng) -> String {
    let mut t = text.to_string();
    match rng.below(4) {
        0 => {
            // Drop one barrier: accesses on both sides now share an interval.
            let at: Vec<_> = t.match_indices("barrier;").map(|(i, _)| i).collect();
            if !at.is_empty() {
                let i = at[rng.below(at.len() as u64) as usize];
                t.replace_range(i..i + 8, "");
            }
        }
        1 => {
            // Put one barrier under a thread-dependent condition.
            if let Some(i) = t.find("barrier;") {
                t.replace_range(i..i + 8, "if lid % 2 == 0 { barrier; }");
            }
        }
        // Make every group use group 0's output slots (an inter-group race).
        2 => t = t.replacen("[gid * ", "[0 * gid * ", 1),
        _ => {
            // Shift one own-slot index to the neighbour's slot (an intra-group race).
            // ...or past the end (out of bounds).
            let shifted = if rng.chance(1, 3) { "[lid + 1" } else { "[(lid + 1) % threads" };
            t = t.replacen("[lid", shifted, 1);
        }
    }
    t
}

#[test]
fn generated_kernels_match_the_paper_rules() {
    let mut rng = Rng::new(42);
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..400 {
        let text = print_kernel(&generate(seed));
        if let Some(k) = compare(&text, seed, &format!("generated {seed}")) {
            *kinds.entry(k).or_default() += 1;
        }
        let broken = break_it(&text, &mut rng);
        if let Some(k) = compare(&broken, seed, &format!("broken {seed}")) {
            *kinds.entry(k).or_default() += 1;
        }
    }
    // The comparison covered clean runs and each kind of error.
    for k in ["ok", "race", "divergence", "out_of_bounds"] {
        assert!(kinds.get(k).copied().unwrap_or(0) >= 5, "too few `{k}` outcomes compared: {kinds:?}");
    }
}

#[test]
fn project_kernels_match_the_paper_rules() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/kernels");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "kpl") {
            let src = std::fs::read_to_string(&p).unwrap();
            if compare(&src, 1, &p.display().to_string()).is_some() {
                n += 1;
            }
        }
    }
    assert!(n >= 8, "only {n} kernels compared");
}

#[test]
fn break_and_continue_flags_match_belim_and_celim() {
    let src = "kernel k { threads: 4; global out[4];
        main { local i := 0; local s := 0;
               while i < 6 { i := i + 1; if i == lid { continue; } if i > lid + 2 { break; } s := s + i; }
               out[lid] := s * 100 + i; } }";
    assert_eq!(compare(src, 0, "break/continue").as_deref(), Some("ok"));
}
