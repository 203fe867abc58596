//! Happens-before race detection with vector clocks (BARRACUDA, Eizenberg et al., PLDI
//! 2017, Figures 2 and 3): the rules that `hb_run` applies to each event of an
//! interleaved, sequentially consistent run.
//!
//! Synchronisation order comes from program order, barriers (per memory, as the barrier's
//! fence says), lock-step warps (`join`: BARRACUDA's `endi`), `__syncwarp`, and releases
//! and acquires through a location: a store right after a fence releases at the fence's
//! scope; a load (or atomic) right before one acquires; an atomic between two does both
//! (BARRACUDA infers these from PTX; kpl from its own statements, per thread, in the order
//! the thread ran them). A group-scope release and acquire synchronise only within a group;
//! a device-scope one on either side synchronises across groups. Atomics never race with
//! each other and order nothing by themselves. Two accesses race when they touch one
//! element, one writes, not both are atomics, and neither happens before the other.
//!
//! Departures from the paper, each on the side of reporting more: the load of an acquire is
//! also checked as a read; all the concurrent atomic writes to an element are kept, not just
//! the last (a plain access must follow every one of them). Releasing stores are not checked
//! as writes, as in the paper (a flag written under a fence is a synchronisation location).
//! With benign tolerance (kpl's default for `.cu`/`.cl`, as the plain run's), writes of
//! equal values do not race, nor does a write of the value a read returned, nor a read of a
//! value the reader wrote there itself and the other thread wrote too (GPUVerify's rules).

use crate::canonical::Cell;
use crate::report::{Op, RaceKind};
use kpl_lang::ast::{FenceOrder, FenceScope};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// A vector clock: (thread, time) pairs sorted by thread; absent threads are at 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vc(Vec<(u32, u32)>);

impl Vc {
    pub fn get(&self, t: u32) -> u32 {
        self.0.binary_search_by_key(&t, |e| e.0).map(|k| self.0[k].1).unwrap_or(0)
    }
    /// `self := self ⊔ o`.
    fn join(&mut self, o: &Vc) {
        if o.0.is_empty() {
            return;
        }
        let mut out = Vec::with_capacity(self.0.len().max(o.0.len()));
        let (mut i, mut j) = (0, 0);
        while i < self.0.len() || j < o.0.len() {
            match (self.0.get(i), o.0.get(j)) {
                (Some(a), Some(b)) if a.0 == b.0 => {
                    out.push((a.0, a.1.max(b.1)));
                    i += 1;
                    j += 1;
                }
                (Some(a), Some(b)) if a.0 < b.0 => {
                    out.push(*a);
                    i += 1;
                }
                (Some(a), None) => {
                    out.push(*a);
                    i += 1;
                }
                (_, Some(b)) => {
                    out.push(*b);
                    j += 1;
                }
                (None, None) => break,
            }
        }
        self.0 = out;
    }
}

impl Vc {
    /// `self(t) := max(self(t), c)`.
    fn raise(&mut self, t: u32, c: u32) {
        match self.0.binary_search_by_key(&t, |e| e.0) {
            Ok(k) => self.0[k].1 = self.0[k].1.max(c),
            Err(k) => self.0.insert(k, (t, c)),
        }
    }
}

/// When what a thread learnt on its own outgrows this (and a tenth of its base), it is
/// folded into a base of its own.
const EXTRA_LIMIT: usize = 64;

/// A thread's vector clock, compressed as BARRACUDA compresses its clocks by the thread
/// hierarchy: a base shared by the threads that last synchronised together (a group at a
/// barrier: one vector for all its threads, not one each), what the thread learnt since,
/// and its own time (never below its entry anywhere else).
#[derive(Clone)]
struct Clock {
    base: Rc<Vc>,
    extra: Vc,
    own: u32,
}

impl Clock {
    /// Thread `me`'s time for thread `u`.
    fn get(&self, me: u32, u: u32) -> u32 {
        if u == me {
            self.own
        } else {
            self.base.get(u).max(self.extra.get(u))
        }
    }

    /// The whole clock of thread `me` as one vector.
    fn full(&self, me: u32) -> Vc {
        let mut v = (*self.base).clone();
        v.join(&self.extra);
        v.raise(me, self.own);
        v
    }

    /// Learn `v`.
    fn learn(&mut self, v: &Vc) {
        self.extra.join(v);
        self.compact();
    }

    fn compact(&mut self) {
        if self.extra.0.len() > EXTRA_LIMIT.max(self.base.0.len() / 10) {
            let mut b = (*self.base).clone();
            b.join(&self.extra);
            self.base = Rc::new(b);
            self.extra = Vc::default();
        }
    }
}

/// The two memories, each with its own clocks (a barrier may order one and not the other).
const SHARED: usize = 0;
const GLOBAL: usize = 1;

/// One access kept for later checks: its thread, its time, what it was (and, for a write,
/// whether it left the element's value as it was).
#[derive(Clone, Copy, Debug)]
pub struct Stamp {
    pub thread: u32,
    pub time: u32,
    pub op: Op,
    pub stmt: u32,
    pub value: u32,
    pub unchanged: bool,
    /// An atomic of `group` scope: atomic for its own group's threads only.
    pub narrow: bool,
}

/// What is known of an element: its last plain write or the concurrent atomics since, and
/// the reads since (one per thread, the latest).
#[derive(Default)]
struct Meta {
    writes: Vec<Stamp>,
    reads: Vec<Stamp>,
    /// The atomics that released (right after a fence) and are unordered with something
    /// since: synchronisation, not data, except to an atomic whose scope leaves their thread
    /// out (or whose thread their scope leaves out), with which they race.
    released: Vec<Stamp>,
}

/// A synchronisation location's clocks (BARRACUDA's `S_x`): per group the clocks of its
/// last release, `all` for the groups a device-scope release reached since (whole vectors).
#[derive(Clone, Default)]
struct Sync {
    all: Option<[Vc; 2]>,
    group: BTreeMap<u32, [Vc; 2]>,
}

/// A load or atomic whose thread has not run anything since: a fence next makes it an
/// acquire (of the location's clocks as they were at the load).
struct Pending {
    at: Option<Rc<Sync>>,
    /// The element, when the access itself released (an atomic after a fence): a fence next
    /// makes it an acquire-release, released again with what it acquired.
    released: Option<(Cell, FenceScope)>,
}

/// A race: the earlier access, the later one, and which kind.
#[derive(Debug)]
pub struct Conflict {
    pub kind: RaceKind,
    pub cell: Cell,
    pub earlier: Stamp,
    pub later: Stamp,
}

pub struct Detector {
    /// Per thread, per memory.
    clocks: Vec<[Clock; 2]>,
    tpg: u32,
    groups: u32,
    meta: HashMap<Cell, Meta>,
    /// Shared with the loads that saw them (`Pending`), so a spin loop does not copy them.
    sync: HashMap<Cell, Rc<Sync>>,
    fenced: Vec<Option<FenceScope>>,
    pending: Vec<Option<Pending>>,
    /// Tolerate benign races: writes of equal values, and GPUVerify's read-write rules.
    benign: bool,
    /// Check races between threads of different groups.
    inter_group: bool,
}

impl Detector {
    /// `threads` threads in groups of `tpg`; each starts at time 1 of its own.
    pub fn new(threads: u32, tpg: u32, benign: bool, inter_group: bool) -> Detector {
        // Every thread starts at time 1 of its own, knowing nothing else: one empty base.
        let empty = Rc::new(Vc::default());
        let start = Clock { base: empty, extra: Vc::default(), own: 1 };
        let clocks = (0..threads).map(|_| [start.clone(), start.clone()]).collect();
        Detector {
            clocks,
            tpg: tpg.max(1),
            groups: threads / tpg.max(1),
            meta: HashMap::new(),
            sync: HashMap::new(),
            fenced: vec![None; threads as usize],
            pending: (0..threads).map(|_| None).collect(),
            benign,
            inter_group,
        }
    }

    fn space(shared: bool) -> usize {
        if shared {
            SHARED
        } else {
            GLOBAL
        }
    }

    fn now(&self, t: u32) -> u32 {
        self.clocks[t as usize][GLOBAL].own
    }

    /// Does `s` happen before what thread `t` does now (in memory `m`)?
    fn before(&self, s: &Stamp, t: u32, m: usize) -> bool {
        s.thread == t || s.time <= self.clocks[t as usize][m].get(t, s.thread)
    }

    /// Does this pair count (`--only-intra-group` drops pairs of different groups)?
    fn counted(&self, a: u32, b: u32) -> bool {
        self.inter_group || a / self.tpg == b / self.tpg
    }

    fn stamp(&self, t: u32, op: Op, stmt: u32, value: u32) -> Stamp {
        Stamp { thread: t, time: self.now(t), op, stmt, value, unchanged: false, narrow: false }
    }

    /// The first of `olds` that does not happen before thread `t` now.
    fn unordered<'a>(&self, olds: &'a [Stamp], t: u32, m: usize, skip: &dyn Fn(&Stamp) -> bool) -> Option<&'a Stamp> {
        olds.iter().find(|s| !skip(s) && !self.before(s, t, m) && self.counted(s.thread, t))
    }

    /// Thread `t` ran something other than a fence: what it ran last is no longer followed
    /// by one.
    fn moved_on(&mut self, t: u32) -> Option<FenceScope> {
        self.pending[t as usize] = None;
        self.fenced[t as usize].take()
    }

    /// Has thread `t` loaded (or run an atomic) and run no access or fence since?
    pub fn pending(&self, t: u32) -> bool {
        self.pending[t as usize].is_some()
    }

    /// `rd(t, x)`.
    pub fn read(&mut self, t: u32, cell: Cell, shared: bool, stmt: u32, value: u32) -> Result<(), Conflict> {
        self.moved_on(t);
        let m = Self::space(shared);
        let me = self.stamp(t, Op::Read, stmt, value);
        self.meta.entry(cell).or_default();
        let meta = &self.meta[&cell];
        // Benign (GPUVerify's read-write rules): a write of the value the read returned that
        // left the element as it was, or that the reader itself wrote there last.
        let benign = self.benign;
        let mine = meta.writes.iter().rev().find(|w| w.thread == t).is_some_and(|w| w.op == Op::Write && w.value == value);
        let same = |w: &Stamp| benign && w.op == Op::Write && w.value == value && (w.unchanged || mine);
        if let Some(w) = self.unordered(&meta.writes, t, m, &same) {
            return Err(Conflict { kind: RaceKind::ReadWrite, cell, earlier: *w, later: me });
        }
        let at = self.sync.get(&cell).cloned();
        self.pending[t as usize] = Some(Pending { at, released: None });
        let reads = &mut self.meta.get_mut(&cell).expect("entry made above").reads;
        match reads.binary_search_by_key(&t, |s| s.thread) {
            Ok(k) => reads[k] = me,
            Err(k) => reads.insert(k, me),
        }
        Ok(())
    }

    /// `wr(t, x)`, or a release when the thread's last step was a fence. `unchanged`: the
    /// element held `value` already.
    pub fn write(&mut self, t: u32, cell: Cell, shared: bool, stmt: u32, value: u32, unchanged: bool) -> Result<(), Conflict> {
        if let Some(scope) = self.moved_on(t) {
            self.release(t, cell, scope);
            return Ok(());
        }
        let m = Self::space(shared);
        let me = Stamp { unchanged, ..self.stamp(t, Op::Write, stmt, value) };
        self.meta.entry(cell).or_default();
        let meta = &self.meta[&cell];
        let benign = self.benign;
        let same = |w: &Stamp| benign && w.op == Op::Write && w.value == value;
        if let Some(w) = self.unordered(&meta.writes, t, m, &same) {
            let kind = if w.op == Op::Atomic { RaceKind::ReadWrite } else { RaceKind::WriteWrite };
            return Err(Conflict { kind, cell, earlier: *w, later: me });
        }
        // Benign (GPUVerify's read-write rule): writing back the value a read returned.
        if let Some(r) = self.unordered(&meta.reads, t, m, &|r| benign && r.value == value) {
            return Err(Conflict { kind: RaceKind::ReadWrite, cell, earlier: *r, later: me });
        }
        // The tolerated accesses stay: a later write of another value races with them too.
        let mut keep: Vec<Stamp> = meta.writes.iter().filter(|w| !self.before(w, t, m)).copied().collect();
        keep.push(me);
        let reads: Vec<Stamp> = meta.reads.iter().filter(|r| !self.before(r, t, m)).copied().collect();
        let meta = self.meta.get_mut(&cell).expect("entry made above");
        meta.reads = reads;
        meta.writes = keep;
        Ok(())
    }

    /// `atm(t, x)`; after a fence, a release instead (and an acquire too if a fence follows).
    /// An atomic of `group` scope and one of a thread of another group race, unordered
    /// (ScoRD's scoped race).
    pub fn atomic(&mut self, t: u32, cell: Cell, shared: bool, stmt: u32, scope: FenceScope) -> Result<(), Conflict> {
        let at = self.sync.get(&cell).cloned();
        let fenced = self.moved_on(t);
        let m = Self::space(shared);
        let me = Stamp { narrow: !scope.device_wide(), ..self.stamp(t, Op::Atomic, stmt, 0) };
        self.meta.entry(cell).or_default();
        let meta = &self.meta[&cell];
        let tpg = self.tpg;
        let atomic_for = |w: &Stamp| w.thread / tpg == t / tpg || !(w.narrow || me.narrow);
        if let Some(w) = self.unordered(&meta.released, t, m, &atomic_for) {
            return Err(Conflict { kind: RaceKind::WriteWrite, cell, earlier: *w, later: me });
        }
        if let Some(fence) = fenced {
            if let Some(w) = self.unordered(&meta.writes, t, m, &|w| w.op != Op::Atomic || atomic_for(w)) {
                return Err(Conflict { kind: RaceKind::WriteWrite, cell, earlier: *w, later: me });
            }
            let mut released: Vec<Stamp> = meta.released.iter().filter(|w| !self.before(w, t, m)).copied().collect();
            released.push(me);
            self.meta.get_mut(&cell).expect("entry made above").released = released;
            self.release(t, cell, fence);
            self.pending[t as usize] = Some(Pending { at, released: Some((cell, fence)) });
            return Ok(());
        }
        if let Some(w) = self.unordered(&meta.writes, t, m, &|w| w.op == Op::Atomic && atomic_for(w)) {
            let kind = if w.op == Op::Atomic { RaceKind::WriteWrite } else { RaceKind::ReadWrite };
            return Err(Conflict { kind, cell, earlier: *w, later: me });
        }
        if let Some(r) = self.unordered(&meta.reads, t, m, &|_| false) {
            return Err(Conflict { kind: RaceKind::ReadWrite, cell, earlier: *r, later: me });
        }
        let keep: Vec<Stamp> = meta.writes.iter().filter(|w| w.op == Op::Atomic && !self.before(w, t, m)).copied().collect();
        let meta = self.meta.get_mut(&cell).expect("entry made above");
        meta.reads.clear();
        meta.writes = keep;
        meta.writes.push(me);
        self.pending[t as usize] = Some(Pending { at, released: None });
        Ok(())
    }

    /// A fence: the load or atomic just before it (if any) acquires at its scope, unless it
    /// is a release fence; a store or atomic just after it will release, unless it is an
    /// acquire fence.
    pub fn fence(&mut self, t: u32, scope: FenceScope, order: FenceOrder) {
        let pending = self.pending[t as usize].take();
        if let Some(p) = pending.filter(|_| order.acquires()) {
            if let Some(s) = &p.at {
                let g = t / self.tpg;
                let from: Vec<&[Vc; 2]> = if scope.device_wide() {
                    let reached = s.all.iter().filter(|_| (s.group.len() as u32) < self.groups);
                    reached.chain(s.group.values()).collect()
                } else {
                    s.group.get(&g).or(s.all.as_ref()).into_iter().collect()
                };
                for c in from {
                    for m in [SHARED, GLOBAL] {
                        self.clocks[t as usize][m].learn(&c[m]);
                    }
                }
            }
            if let Some((cell, rel)) = p.released {
                self.release(t, cell, rel.max(scope));
            }
        }
        if order.releases() {
            let f = &mut self.fenced[t as usize];
            *f = Some(f.map_or(scope, |g| g.max(scope)));
        }
    }

    /// `relBlk`/`relGlb`: the location takes the thread's clocks, for its group or for all.
    fn release(&mut self, t: u32, cell: Cell, scope: FenceScope) {
        let c = [SHARED, GLOBAL].map(|m| self.clocks[t as usize][m].full(t));
        let s = Rc::make_mut(self.sync.entry(cell).or_default());
        if scope.device_wide() {
            s.group.clear();
            s.all = Some(c);
        } else {
            s.group.insert(t / self.tpg, c);
        }
        self.tick(t);
    }

    fn tick(&mut self, t: u32) {
        for m in [SHARED, GLOBAL] {
            self.clocks[t as usize][m].own += 1;
        }
    }

    /// In memory `m`, the threads `ts` learn everything the ones `gives` picks know (they
    /// do not tick). Where all share one base, only what they learnt since moves.
    fn gather(&mut self, ts: &[u32], m: usize, gives: &dyn Fn(u32) -> bool) {
        let Some(&first) = ts.first() else { return };
        let base = self.clocks[first as usize][m].base.clone();
        let common = ts.iter().all(|&t| Rc::ptr_eq(&self.clocks[t as usize][m].base, &base));
        let mut news = Vc::default();
        for &t in ts.iter().filter(|&&t| gives(t)) {
            let c = &self.clocks[t as usize][m];
            if common {
                news.join(&c.extra);
                news.raise(t, c.own);
            } else {
                news.join(&c.full(t));
            }
        }
        if common && news.0.len() <= EXTRA_LIMIT {
            for &t in ts {
                self.clocks[t as usize][m].learn(&news);
            }
            return;
        }
        // One new base for all of them.
        let mut b = if common { (*base).clone() } else { Vc::default() };
        b.join(&news);
        let b = Rc::new(b);
        for &t in ts {
            let c = &mut self.clocks[t as usize][m];
            let mine = if gives(t) {
                Vc::default()
            } else if common {
                std::mem::take(&mut c.extra)
            } else {
                c.full(t)
            };
            *c = Clock { base: b.clone(), extra: mine, own: c.own };
            c.compact();
        }
    }

    /// A barrier of the threads `ts` (a whole group): in each memory, everyone's accesses
    /// before it by a thread whose fence covers that memory happen before everyone's after.
    pub fn barrier(&mut self, ts: &[u32], orders: &dyn Fn(u32, bool) -> bool) {
        for m in [SHARED, GLOBAL] {
            self.gather(ts, m, &|t| orders(t, m == SHARED));
        }
        for &t in ts {
            self.moved_on(t);
            self.tick(t);
        }
    }

    /// The threads `ts` join and fork again (BARRACUDA's `endi` for a lock-step warp's
    /// instruction; `__syncwarp`): what each did before happens before what all do after.
    /// `sync`: it is a statement of theirs (`__syncwarp`), not just the end of one.
    pub fn join(&mut self, ts: &[u32], sync: bool) {
        if ts.len() > 1 {
            for m in [SHARED, GLOBAL] {
                self.gather(ts, m, &|_| true);
            }
        }
        for &t in ts {
            if sync {
                self.moved_on(t);
            }
            self.tick(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FenceScope::*;

    const X: Cell = Cell { array: 0, inst: 0, index: 0 };
    const FLAG: Cell = Cell { array: 1, inst: 0, index: 0 };
    const Y: Cell = Cell { array: 2, inst: 0, index: 0 };

    /// Message passing from thread 0 (group 0) to thread 2 (group 1), two threads a group,
    /// with the given fences on each side.
    fn mp(producer: Option<FenceScope>, consumer: Option<FenceScope>) -> Result<(), Conflict> {
        mp_ordered(producer.map(|f| (f, FenceOrder::Full)), consumer.map(|f| (f, FenceOrder::Full)))
    }

    /// The same with fences of the given orders.
    fn mp_ordered(producer: Option<(FenceScope, FenceOrder)>, consumer: Option<(FenceScope, FenceOrder)>) -> Result<(), Conflict> {
        let mut d = Detector::new(4, 2, false, true);
        d.write(0, X, false, 0, 1, false)?;
        if let Some((f, o)) = producer {
            d.fence(0, f, o);
        }
        d.write(0, FLAG, false, 1, 1, false)?;
        d.read(2, FLAG, false, 2, 1)?;
        if let Some((f, o)) = consumer {
            d.fence(2, f, o);
        }
        d.read(2, X, false, 3, 1)
    }

    #[test]
    fn a_release_fence_only_releases_and_an_acquire_fence_only_acquires() {
        use FenceOrder::*;
        assert!(mp_ordered(Some((Device, Release)), Some((Device, Acquire))).is_ok());
        assert!(mp_ordered(Some((Device, Full)), Some((Device, Acquire))).is_ok());
        // An acquire fence before the flag's store does not publish the data (C++).
        assert!(mp_ordered(Some((Device, Acquire)), Some((Device, Acquire))).is_err());
        // A release fence after the flag's load does not acquire it.
        assert!(mp_ordered(Some((Device, Release)), Some((Device, Release))).is_err());
    }

    #[test]
    fn message_passing_needs_a_fence_of_device_scope_on_one_side_and_fences_on_both() {
        assert!(mp(Some(Device), Some(Device)).is_ok());
        assert!(mp(Some(Device), Some(Group)).is_ok());
        assert!(mp(Some(Group), Some(Device)).is_ok());
        let e = mp(Some(Group), Some(Group)).unwrap_err();
        assert_eq!((e.cell, e.earlier.thread, e.later.thread, e.kind), (X, 0, 2, RaceKind::ReadWrite));
        assert!(mp(None, Some(Device)).is_err());
        assert!(mp(Some(Device), None).is_err());
    }

    #[test]
    fn a_barrier_orders_only_the_memories_its_fence_names() {
        let mut d = Detector::new(2, 2, false, true);
        d.write(0, X, false, 0, 1, false).unwrap();
        d.barrier(&[0, 1], &|_, shared| shared);
        assert!(d.read(1, X, false, 1, 1).is_err());
        let mut d = Detector::new(2, 2, false, true);
        d.write(0, X, true, 0, 1, false).unwrap();
        d.barrier(&[0, 1], &|_, shared| shared);
        assert!(d.read(1, X, true, 1, 1).is_ok());
    }

    #[test]
    fn atomics_do_not_race_with_each_other_and_order_nothing() {
        let mut d = Detector::new(2, 2, false, true);
        d.atomic(0, X, false, 0, Device).unwrap();
        d.atomic(1, X, false, 1, Group).unwrap();
        // Thread 1 reads after its own atomic: thread 0's atomic is still unordered.
        let e = d.read(1, X, false, 2, 0).unwrap_err();
        assert_eq!((e.earlier.thread, e.earlier.op), (0, Op::Atomic));
    }

    #[test]
    fn a_group_atomic_races_with_another_groups_atomics() {
        // Two groups of one thread each.
        for (a, b, race) in [(Device, Device, false), (System, Device, false), (Group, Device, true), (Device, Group, true), (Group, Group, true)] {
            let mut d = Detector::new(2, 1, false, true);
            d.atomic(0, X, false, 0, a).unwrap();
            let r = d.atomic(1, X, false, 1, b);
            assert_eq!(r.is_err(), race, "{a:?} then {b:?}");
            if let Err(e) = r {
                assert_eq!((e.kind, e.earlier.op, e.later.op), (RaceKind::WriteWrite, Op::Atomic, Op::Atomic));
            }
        }
    }

    #[test]
    fn equal_writes_race_unless_tolerated() {
        for benign in [false, true] {
            let mut d = Detector::new(2, 2, benign, true);
            d.write(0, X, true, 0, 7, false).unwrap();
            assert_eq!(d.write(1, X, true, 1, 7, false).is_ok(), benign);
            assert!(d.write(1, X, true, 1, 8, false).is_err());
        }
    }

    #[test]
    fn a_barrier_of_a_large_group_orders_everyone_but_the_threads_its_fence_skips() {
        // 200 threads (past the size where a group's clocks get a new shared base), twice.
        let cell = |i: u32| Cell { array: 0, inst: 0, index: i };
        let mut d = Detector::new(200, 200, false, true);
        let all: Vec<u32> = (0..200).collect();
        for round in 0..2 {
            for t in 0..200 {
                d.write(t, cell(t), false, 0, round, false).unwrap();
            }
            // Thread 7's fence does not cover global memory in the second round.
            d.barrier(&all, &|t, shared| shared || round == 0 || t != 7);
            for t in 0..200 {
                let r = d.read(t, cell((t + 1) % 200), false, 1, round);
                assert_eq!(r.is_err(), round == 1 && t == 6, "round {round}, thread {t}");
            }
            d.barrier(&all, &|_, _| true);
        }
    }

    #[test]
    fn benign_read_write_races_follow_gpuverify_s_rules() {
        let mut d = Detector::new(2, 2, true, true);
        // Thread 0 writes back the value thread 1 read there: benign.
        d.read(1, X, true, 0, 5).unwrap();
        d.write(0, X, true, 1, 5, true).unwrap();
        // A value thread 1 did not read (nor wrote itself): a race.
        assert!(d.write(0, X, true, 1, 6, false).is_err());
        // Both write 7, then each reads its own write: benign.
        let mut d = Detector::new(2, 2, true, true);
        d.write(0, Y, true, 0, 7, false).unwrap();
        d.write(1, Y, true, 0, 7, false).unwrap();
        assert!(d.read(1, Y, true, 1, 7).is_ok());
        // Without the tolerance, the first is a race.
        let mut d = Detector::new(2, 2, false, true);
        d.read(1, X, true, 0, 5).unwrap();
        assert!(d.write(0, X, true, 1, 5, true).is_err());
    }

    #[test]
    fn a_lock_step_join_orders_a_warp_and_only_it() {
        let mut d = Detector::new(3, 3, false, true);
        d.write(0, X, true, 0, 1, false).unwrap();
        d.join(&[0, 1], false);
        assert!(d.read(1, X, true, 1, 1).is_ok());
        assert!(d.read(2, X, true, 1, 1).is_err());
    }
}
