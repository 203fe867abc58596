//! `kpl run --hb`: a third executor, for happens-before race detection (`hb`). Every thread
//! of every group runs on one sequentially consistent memory, warps taking turns one
//! instruction at a time (a fair interleaving, so a thread that spins on a flag another
//! group sets does finish). Races are judged by BARRACUDA's happens-before rules over this
//! run, not by SDV's "no barrier between them": fences, their scopes and atomics decide.
//!
//! Warps: without `--warp-sync`, each thread is scheduled on its own (independent thread
//! scheduling, as on Volta and later) and a warp's threads are ordered only by
//! `__syncwarp`; a warp collective waits for the lanes of its warp. With `--warp-sync=N`,
//! warps of N threads run in lock step, the lanes at the lowest position in the code
//! first (a diverged `then` side before its `else` side, which meet again after), and the
//! lanes that ran an instruction are ordered after it (BARRACUDA's `endi`): the two sides
//! of a branch are unordered until they meet, so a branch-ordering race shows.

use crate::canonical::{flatten, requires_fail, split, Effect, Ins, Mem, Thread};
use crate::hb::{Conflict, Detector};
use crate::inputs::Inputs;
use crate::ir::{ArrayKind, Program};
use crate::report::{Access, Defect, DivergenceAt, Outcome, RunResult, Scope, ThreadId};
use crate::sdv::Options;

/// The most instructions one turn runs while settling what follows a load (a lane that
/// loops on local work alone would otherwise keep the turn).
const TURN_LIMIT: usize = 1000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Running,
    /// Waiting at the barrier or warp collective at its position.
    AtBarrier,
    AtWarp,
    Done,
}

struct T<'a> {
    th: Thread<'a>,
    pc: usize,
    state: State,
}

struct Run<'a> {
    prog: &'a Program,
    code: Vec<Ins>,
    mem: Mem<'a>,
    ts: Vec<T<'a>>,
    hb: Detector,
    tpg: u32,
    /// Lanes of a lock-step warp (1: each thread alone).
    lockstep: u32,
    /// Lanes of a warp for collectives and `__syncwarp`.
    warp: u32,
    steps: u64,
    max_steps: u64,
    progress: Option<fn(u64)>,
    race_arrays: Option<Vec<String>>,
}

/// Run the kernel once, interleaved, checking every access against BARRACUDA's rules, with
/// the plain run's options (its step budget, progress, warp-sync, benign tolerance and
/// inter-group checks; no trace). Steps are thread-instructions.
pub fn run(prog: &Program, inputs: &Inputs, opts: &Options) -> RunResult {
    let l = prog.launch;
    let tpg = l.threads_per_group().max(1) as u32;
    let n = l.total_threads() as u32;
    let params: Vec<u32> = prog.params.iter().map(|p| inputs.param(p)).collect();
    let code = flatten(prog);
    // A thread with no code left has finished (an empty kernel, at once).
    let start = if code.is_empty() { State::Done } else { State::Running };
    let ts = (0..n)
        .map(|t| T {
            th: Thread {
                locals: vec![0; prog.slots.len()],
                lid: split(t % tpg, l.threads),
                gid: split(t / tpg, l.groups),
                l: &prog.launch,
                params: &params,
                havocs: 0,
            },
            pc: 0,
            state: start,
        })
        .collect();
    let mut r = Run {
        prog,
        code,
        mem: Mem::new(prog, inputs),
        ts,
        hb: Detector::new(n, tpg, opts.benign, opts.inter_group),
        tpg,
        lockstep: opts.warp_sync.unwrap_or(1).max(1),
        warp: opts.warp_sync.unwrap_or(32).max(1),
        steps: 0,
        max_steps: opts.max_steps,
        progress: opts.progress,
        race_arrays: opts.race_arrays.clone(),
    };
    let outcome = match requires_fail(prog, &params) {
        Some(o) => o,
        None => r.all().err().unwrap_or(Outcome::Ok),
    };
    RunResult { outcome, steps: r.steps, memory: r.mem.contents(), trace: Vec::new(), havocs: Vec::new() }
}

impl<'a> Run<'a> {
    /// Units of `size` threads within each group: (first thread, past the last).
    fn units(&self, size: u32) -> Vec<(u32, u32)> {
        let n = self.ts.len() as u32;
        let mut out = Vec::new();
        for g in (0..n).step_by(self.tpg as usize) {
            let mut a = g;
            while a < g + self.tpg {
                out.push((a, (a + size).min(g + self.tpg)));
                a += size;
            }
        }
        out
    }

    /// Rounds of turns until every thread has finished. Only units with a running thread
    /// take turns, and waits are looked at only after some unit stopped running (a barrier
    /// or collective can be released only when none of its threads runs): a launch of a
    /// million threads where a few loop on does not rescan them all every round.
    fn all(&mut self) -> Result<(), Outcome> {
        let units = self.units(self.lockstep);
        let runs = |r: &Self, &(a, b): &(u32, u32)| (a..b).any(|t| r.ts[t as usize].state == State::Running);
        let mut live: Vec<(u32, u32)> = units.iter().filter(|u| runs(self, u)).copied().collect();
        let mut stopped = true;
        loop {
            let mut ran = false;
            for &(a, b) in &live {
                ran |= self.turn(a, b)?;
            }
            let before = live.len();
            live.retain(|u| runs(self, u));
            stopped |= live.len() < before;
            let released = stopped && (self.barriers()? | self.collectives()?);
            stopped = false;
            if released {
                live = units.iter().filter(|u| runs(self, u)).copied().collect();
            }
            if !ran && !released {
                return Ok(());
            }
        }
    }

    /// A turn of the lock-step unit of threads `a..b`: one instruction, and then more while
    /// a lane that just loaded (or ran an atomic) has only local work or fences before its
    /// next access, so that whether a fence follows the load is settled before any other
    /// unit runs (an acquire, or an atomic's acquire and release, then acts as one step).
    /// Whether anything ran.
    fn turn(&mut self, a: u32, b: u32) -> Result<bool, Outcome> {
        let mut ran = false;
        for _ in 0..TURN_LIMIT {
            if !self.instruction(a, b)? {
                break;
            }
            ran = true;
            let unsettled = (a..b).any(|t| {
                let me = &self.ts[t as usize];
                me.state == State::Running && self.hb.pending(t) && !self.code[me.pc].is_access()
            });
            if !unsettled {
                break;
            }
        }
        Ok(ran)
    }

    /// One instruction of the lock-step unit of threads `a..b`: the running lanes at the
    /// lowest position. Whether any ran.
    fn instruction(&mut self, a: u32, b: u32) -> Result<bool, Outcome> {
        let Some(pc) = (a..b).filter(|&t| self.ts[t as usize].state == State::Running).map(|t| self.ts[t as usize].pc).min() else {
            return Ok(false);
        };
        let act: Vec<u32> = (a..b).filter(|&t| self.ts[t as usize].state == State::Running && self.ts[t as usize].pc == pc).collect();
        if matches!(self.code[pc], Ins::Warp(..)) && self.lockstep > 1 {
            for &t in &act {
                self.ts[t as usize].state = State::AtWarp;
            }
            self.collective(&act)?;
        } else {
            for &t in &act {
                self.step(t)?;
            }
        }
        if self.lockstep > 1 {
            self.hb.join(&act, false);
        }
        Ok(true)
    }

    /// Thread `t` runs its next instruction.
    fn step(&mut self, t: u32) -> Result<(), Outcome> {
        self.count(1)?;
        let g = t / self.tpg;
        let effect = {
            let me = &mut self.ts[t as usize];
            me.th.exec(&self.code, &mut me.pc, &mut self.mem, g)?
        };
        let prog = self.prog;
        let shared = |a: u32| prog.arrays[a as usize].kind == ArrayKind::Shared;
        // Races on arrays `race_arrays` leaves out are not reported (their accesses still
        // order nothing less).
        let checked = |a: u32| self.race_arrays.as_ref().is_none_or(|only| only.contains(&prog.arrays[a as usize].name));
        let array = match &effect {
            Effect::Read(c, ..) | Effect::Write(c, ..) | Effect::Atomic(c, ..) => Some(c.array),
            _ => None,
        };
        let unchecked = array.is_some_and(|a| !checked(a));
        let found = match effect {
            Effect::Local => Ok(()),
            Effect::Read(c, v, stmt) => self.hb.read(t, c, shared(c.array), stmt, v),
            Effect::Write(c, v, stmt, unchanged) => self.hb.write(t, c, shared(c.array), stmt, v, unchanged),
            Effect::Atomic(c, n, stmt, scope) => (0..n).try_for_each(|k| {
                let c = crate::canonical::Cell { index: c.index.wrapping_add(k), ..c };
                self.hb.atomic(t, c, shared(c.array), stmt, scope)
            }),
            Effect::Fence(s, o) => {
                self.hb.fence(t, s, o);
                Ok(())
            }
            Effect::Barrier => {
                self.ts[t as usize].state = State::AtBarrier;
                Ok(())
            }
            Effect::Warp => {
                self.ts[t as usize].state = State::AtWarp;
                Ok(())
            }
        };
        let me = &mut self.ts[t as usize];
        if me.state == State::Running && me.pc >= self.code.len() {
            me.state = State::Done;
        }
        if unchecked {
            return Ok(());
        }
        found.map_err(|c| self.race(c))
    }

    fn id(&self, t: u32) -> ThreadId {
        self.ts[t as usize].th.thread_id()
    }

    fn race(&self, c: Conflict) -> Outcome {
        let access = |s: &crate::hb::Stamp| Access { thread: self.id(s.thread), op: s.op, span: self.prog.stmts[s.stmt as usize].span, value: s.value };
        let scope = if c.earlier.thread / self.tpg == c.later.thread / self.tpg { Scope::IntraGroup } else { Scope::InterGroup };
        Outcome::Defect(Defect::Race {
            kind: c.kind,
            scope,
            array: self.prog.arrays[c.cell.array as usize].name.clone(),
            index: c.cell.index,
            accesses: [access(&c.earlier), access(&c.later)],
        })
    }

    /// Release every group whose threads all wait at one barrier (or have some finished or
    /// wait at another: barrier divergence), then the launch if every thread waits at one
    /// grid barrier. Whether any was released.
    fn barriers(&mut self) -> Result<bool, Outcome> {
        let mut released = false;
        for (a, b) in self.units(self.tpg) {
            if let Some(pc) = self.waiting(a, b)? {
                if !matches!(self.code[pc], Ins::Barrier(.., true)) {
                    self.release(a, b, pc);
                    released = true;
                }
            }
        }
        let n = self.ts.len() as u32;
        if !released {
            if let Some(pc) = self.waiting(0, n)? {
                self.release(0, n, pc);
                released = true;
            }
        }
        Ok(released)
    }

    /// If no thread of `a..b` can run and some wait at a barrier: its position, or barrier
    /// divergence where they do not all wait at that one.
    fn waiting(&self, a: u32, b: u32) -> Result<Option<usize>, Outcome> {
        let st = |t: u32| self.ts[t as usize].state;
        if (a..b).any(|t| matches!(st(t), State::Running | State::AtWarp)) {
            return Ok(None);
        }
        let Some(first) = (a..b).find(|&t| st(t) == State::AtBarrier) else { return Ok(None) };
        let pc = self.ts[first as usize].pc;
        if let Some(other) = (a..b).find(|&t| st(t) != State::AtBarrier || self.ts[t as usize].pc != pc) {
            let span = match &self.code[pc] {
                Ins::Barrier(id, ..) => self.prog.stmts[*id as usize].span,
                _ => kpl_lang::Span::DUMMY,
            };
            return Err(Outcome::Defect(Defect::Divergence { span, enabled: self.id(first), disabled: self.id(other), at: DivergenceAt::Barrier }));
        }
        Ok(Some(pc))
    }

    /// The threads `a..b`, all waiting at the barrier at `pc`, pass it.
    fn release(&mut self, a: u32, b: u32, pc: usize) {
        let Ins::Barrier(_, shared, global, _) = &self.code[pc] else { return };
        let orders: Vec<[bool; 2]> =
            (a..b).map(|t| [self.ts[t as usize].th.eval(shared) != 0, self.ts[t as usize].th.eval(global) != 0]).collect();
        let group: Vec<u32> = (a..b).collect();
        self.hb.barrier(&group, &|t, sh| orders[(t - a) as usize][if sh { 0 } else { 1 }]);
        for t in a..b {
            self.pass(t);
        }
    }

    /// Thread `t` goes on past the barrier or collective it waited at.
    fn pass(&mut self, t: u32) {
        let me = &mut self.ts[t as usize];
        me.pc += 1;
        me.state = if me.pc >= self.code.len() { State::Done } else { State::Running };
    }

    /// `n` more thread-instructions: past the budget, `timeout`; progress now and then.
    fn count(&mut self, n: u64) -> Result<(), Outcome> {
        if let Some(report) = self.progress {
            if (self.steps >> 22) != ((self.steps + n) >> 22) {
                report(self.steps + n);
            }
        }
        self.steps += n;
        if self.steps > self.max_steps {
            return Err(Outcome::Timeout);
        }
        Ok(())
    }

    /// Each warp none of whose lanes can still run, with lanes waiting at a collective,
    /// runs it with the lanes at the lowest one. Whether any ran.
    fn collectives(&mut self) -> Result<bool, Outcome> {
        let mut ran = false;
        for (a, b) in self.units(self.warp) {
            let st = |t: u32| self.ts[t as usize].state;
            if (a..b).any(|t| st(t) == State::Running) {
                continue;
            }
            let Some(pc) = (a..b).filter(|&t| st(t) == State::AtWarp).map(|t| self.ts[t as usize].pc).min() else { continue };
            let act: Vec<u32> = (a..b).filter(|&t| st(t) == State::AtWarp && self.ts[t as usize].pc == pc).collect();
            self.collective(&act)?;
            ran = true;
        }
        Ok(ran)
    }

    /// The lanes `act` (waiting at one collective) run it together.
    fn collective(&mut self, act: &[u32]) -> Result<(), Outcome> {
        let pc = self.ts[act[0] as usize].pc;
        let Ins::Warp(op, slot, args, id) = &self.code[pc] else { return Ok(()) };
        let argv: Vec<Vec<u32>> = args.iter().map(|e| act.iter().map(|&t| self.ts[t as usize].th.eval(e)).collect()).collect();
        let (op, slot, id) = (op, *slot, *id);
        let done = |t: u32| self.ts[t as usize].state == State::Done;
        let vals = crate::warp::collective(act, self.tpg, self.warp, *op, &argv, &done).map_err(|(t, other, at)| {
            Outcome::Defect(Defect::Divergence { span: self.prog.stmts[id as usize].span, enabled: self.id(t), disabled: self.id(other), at })
        })?;
        if *op == kpl_lang::ast::WarpOp::Sync {
            self.hb.join(act, true);
        }
        for (&t, v) in act.iter().zip(vals) {
            if let Some(s) = slot {
                self.ts[t as usize].th.locals[s as usize] = v;
            }
            self.pass(t);
        }
        self.count(act.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hb(src: &str, warp_sync: Option<u32>) -> Outcome {
        let c = kpl_lang::check_kpl(src).expect("kernel checks");
        let prog = crate::compile(&c.core, kpl_lang::Launch::of(&c.kernel));
        run(&prog, &Inputs::from_seed(1), &Options { max_steps: 1_000_000, warp_sync, ..Options::default() }).outcome
    }

    /// Message passing from group 0 to group 1 through a flag, with these fences (the flag
    /// starts as an arbitrary input: the consumer waits for the value the producer writes).
    fn mp(producer: &str, consumer: &str) -> Outcome {
        hb(
            &format!(
                "kernel k {{ groups: 2; threads: 1; global data[1]; global flag[1]; global out[1];
                main {{
                    if gid == 0 {{ data[0] := 42; fence {producer}; flag[0] := 1; }}
                    else {{ local f := flag[0]; while f != 1 {{ f := flag[0]; }} fence {consumer}; local d := data[0]; out[0] := d; }}
                }} }}"
            ),
            None,
        )
    }

    #[test]
    fn message_passing_between_groups_is_judged_by_its_fences_scopes() {
        assert_eq!(mp("device", "device"), Outcome::Ok);
        assert_eq!(mp("device", "group"), Outcome::Ok);
        match mp("group", "group") {
            Outcome::Defect(Defect::Race { array, scope, .. }) => assert_eq!((array.as_str(), scope), ("data", Scope::InterGroup)),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn a_consumer_that_runs_first_still_finishes() {
        // Group 0 waits for group 1: a fair interleaving lets group 1 run.
        let src = "kernel k { groups: 2; threads: 1; global data[1]; global flag[1];
            main { if gid == 1 { data[0] := 1; fence device; flag[0] := 1; }
                   else { local f := flag[0]; while f != 1 { f := flag[0]; } fence device; local d := data[0]; assert d == 1; } } }";
        assert_eq!(hb(src, None), Outcome::Ok);
    }

    #[test]
    fn lock_step_orders_a_warp_only_under_warp_sync() {
        // A warp-synchronous exchange: lane 1 reads what lane 0 wrote one statement before.
        let src = "kernel k { groups: 1; threads: 2; shared s[2];
            main { s[lid] := lid; local v := s[1 - lid]; } }";
        assert!(matches!(hb(src, None), Outcome::Defect(Defect::Race { .. })));
        assert_eq!(hb(src, Some(2)), Outcome::Ok);
    }

    #[test]
    fn the_two_sides_of_a_diverged_branch_race_in_lock_step() {
        let src = "kernel k { groups: 1; threads: 2; shared s[1];
            main { if lid == 0 { s[0] := 1; } else { local v := s[0]; } } }";
        assert!(matches!(hb(src, Some(2)), Outcome::Defect(Defect::Race { .. })));
    }

    #[test]
    fn barrier_divergence_is_reported() {
        let src = "kernel k { groups: 1; threads: 2; main { if lid == 0 { barrier; } } }";
        assert!(matches!(hb(src, None), Outcome::Defect(Defect::Divergence { .. })));
    }
}
