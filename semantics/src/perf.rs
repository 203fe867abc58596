//! Performance measurements over the interpreter's events (GKLEE, PPoPP 2012, sections 2.3
//! and 5.1): shared-memory bank conflicts, uncoalesced global accesses and divergent warps,
//! per source statement and per barrier interval, under a `PerfModel`.
//!
//! A unit (a warp, or a half-warp on compute capability 1.x) is the threads of one group
//! whose linear local ids agree when divided by the unit size; one statement executed by
//! the unit's enabled threads is one unit-wide access. Its bank-conflict degree is the
//! largest number of distinct words one bank serves (a broadcast of one word is no
//! conflict). It is uncoalesced when it touches more segments than the same lanes touch
//! when lane k accesses word k (compute capability 1.0/1.1: unless lane k accesses word k of
//! an aligned segment, every lane is a transaction). A branch diverges in a warp when the
//! warp's enabled threads evaluate its condition differently.
//!
//! A vector access (a `float2`/`float4`, `int4`, ... element: the front end lowers it as its
//! words, one statement each, of one source span) is one access of its width: consecutive
//! statements of one span, array and operation whose threads each access the next word,
//! 2 or 4 words from a multiple of that many. Its sectors are those of every lane's words
//! against lane k at words k*w to k*w+w-1; its banks are those of each phase (half a warp
//! for 8 bytes, a quarter for 16), as the hardware serves it.

use crate::ir::{ArrayKind, Program};
use crate::observe::{thread_id, Observer};
use crate::report::{Op, ThreadId};
use kpl_lang::perf_model::{Coalescing, PerfModel};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    BankConflict,
    Uncoalesced,
    WarpDivergence,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::BankConflict, Kind::Uncoalesced, Kind::WarpDivergence];

    /// The name in reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::BankConflict => "bank_conflict",
            Kind::Uncoalesced => "uncoalesced",
            Kind::WarpDivergence => "warp_divergence",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The worst unit-wide event at a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The barrier interval (0: before the first barrier).
    pub interval: u32,
    /// Two threads of one unit that show it: same bank at different words; same ideal
    /// segment but different segments (1.0/1.1: the first lane and one out of pattern);
    /// the two sides of a branch (`then` first).
    pub threads: [ThreadId; 2],
    /// Their words (0 for a branch).
    pub words: [u32; 2],
    /// Bank conflict: the degree; uncoalesced: segments (or transactions) used; divergence:
    /// threads on the `then` side.
    pub degree: u32,
    /// Bank conflict: 1; uncoalesced: the minimum for these lanes; divergence: threads on
    /// the other side.
    pub minimum: u32,
    /// The bank, or the two threads' segments (divergence: 0).
    pub at: [u32; 2],
    /// Enabled threads of the unit.
    pub active: u32,
}

impl Example {
    fn excess(&self) -> u64 {
        match self.degree.checked_sub(self.minimum) {
            Some(d) => d as u64,
            None => 0,
        }
    }
}

/// One statement's measurements of one kind.
#[derive(Clone, Debug)]
pub struct Site {
    pub kind: Kind,
    pub stmt: u32,
    /// The array (accesses) and the operation.
    pub array: Option<u32>,
    pub op: Option<Op>,
    /// Unit-wide accesses (a warp's branch evaluations for divergence).
    pub events: u64,
    /// Of them, those with the problem.
    pub bad: u64,
    /// The worst one (the first with the largest excess), if any was bad.
    pub worst: Option<Example>,
    /// Barrier intervals in which the statement had the problem.
    pub bad_intervals: u32,
    last_bad_interval: Option<u32>,
}

impl Site {
    /// A statement with nothing measured yet.
    pub fn new(kind: Kind, stmt: u32, array: Option<u32>, op: Option<Op>) -> Site {
        Site { kind, stmt, array, op, events: 0, bad: 0, worst: None, bad_intervals: 0, last_bad_interval: None }
    }
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct PerfReport {
    pub model: PerfModel,
    /// Every measured statement (clean ones too), by statement then kind.
    pub sites: Vec<Site>,
    /// Barrier intervals the run went through (barriers executed + 1).
    pub intervals: u32,
    /// Per kind: intervals with such an access or branch at all, and with the problem.
    pub intervals_using: [u32; 3],
    pub intervals_bad: [u32; 3],
}

impl PerfReport {
    /// The statements with a problem, by statement.
    pub fn findings(&self) -> impl Iterator<Item = &Site> {
        self.sites.iter().filter(|s| s.bad > 0)
    }

    /// Unit-wide events and bad ones, per kind.
    pub fn totals(&self, k: Kind) -> (u64, u64) {
        self.sites.iter().filter(|s| s.kind == k).fold((0, 0), |(e, b), s| (e + s.events, b + s.bad))
    }
}

pub struct PerfObserver {
    model: PerfModel,
    launch: kpl_lang::Launch,
    tpg: u32,
    shared: Vec<bool>,
    /// Arrays left out: a thread's private arrays.
    skip: Vec<bool>,
    sites: BTreeMap<(u32, Kind), Site>,
    interval: u32,
    using: [bool; 3],
    bad: [bool; 3],
    intervals_using: [u32; 3],
    intervals_bad: [u32; 3],
    scratch: Vec<(u32, u32, u32)>,
    /// Each statement's source span (a vector access's words share one).
    spans: Vec<(usize, usize)>,
    /// The words of a vector access seen so far, measured once it ends.
    pending: Option<Pending>,
}

/// Consecutive word accesses that may be one vector access: the first statement, the
/// array, the operation, the threads, each thread's first word, the words so far.
struct Pending {
    stmt: u32,
    array: u32,
    op: Op,
    threads: Vec<u32>,
    base: Vec<u32>,
    width: u32,
}

impl PerfObserver {
    pub fn new(prog: &Program, model: PerfModel) -> PerfObserver {
        PerfObserver {
            model,
            launch: prog.launch,
            tpg: prog.launch.threads_per_group().clamp(1, u32::MAX as u64) as u32,
            shared: prog.arrays.iter().map(|a| a.kind == ArrayKind::Shared).collect(),
            skip: vec![false; prog.arrays.len()],
            sites: BTreeMap::new(),
            interval: 0,
            using: [false; 3],
            bad: [false; 3],
            intervals_using: [0; 3],
            intervals_bad: [0; 3],
            scratch: Vec::new(),
            spans: prog.stmts.iter().map(|s| (s.span.start, s.span.end)).collect(),
            pending: None,
        }
    }

    /// Leave out the arrays `private` names (a thread's own arrays, which are neither
    /// shared nor global memory).
    pub fn skipping(mut self, prog: &Program, private: &std::collections::BTreeSet<String>) -> PerfObserver {
        self.skip = prog.arrays.iter().map(|a| private.contains(&a.name)).collect();
        self
    }

    pub fn finish(mut self) -> PerfReport {
        self.flush();
        self.close_interval();
        PerfReport {
            model: self.model,
            sites: self.sites.into_values().collect(),
            intervals: self.interval + 1,
            intervals_using: self.intervals_using,
            intervals_bad: self.intervals_bad,
        }
    }

    fn close_interval(&mut self) {
        for k in 0..3 {
            self.intervals_using[k] += self.using[k] as u32;
            self.intervals_bad[k] += self.bad[k] as u32;
        }
        self.using = [false; 3];
        self.bad = [false; 3];
    }

    /// Split `threads` (increasing) into runs of one group and one block of `size` lanes.
    fn units(&self, threads: &[u32], size: u32) -> Vec<std::ops::Range<usize>> {
        let key = |t: u32| (t / self.tpg, (t % self.tpg) / size);
        let mut out = Vec::new();
        let mut start = 0;
        for i in 1..=threads.len() {
            if i == threads.len() || key(threads[i]) != key(threads[start]) {
                out.push(start..i);
                start = i;
            }
        }
        out
    }

    fn record(&mut self, kind: Kind, stmt: u32, array: Option<u32>, op: Option<Op>, example: Option<Example>) {
        self.using[kind.index()] = true;
        let interval = self.interval;
        let site = self.sites.entry((stmt, kind)).or_insert_with(|| Site::new(kind, stmt, array, op));
        site.events += 1;
        if let Some(e) = example {
            site.bad += 1;
            if site.last_bad_interval != Some(interval) {
                site.last_bad_interval = Some(interval);
                site.bad_intervals += 1;
            }
            if site.worst.as_ref().is_none_or(|w| e.excess() > w.excess()) {
                site.worst = Some(e);
            }
            self.bad[kind.index()] = true;
        }
    }

    fn id(&self, t: u32) -> ThreadId {
        thread_id(&self.launch, t)
    }

    /// The bank-conflict example of one unit-wide shared access, if it has a conflict.
    fn bank_conflict(&mut self, threads: &[u32], index: &[u32]) -> Option<Example> {
        let m = self.model;
        let mut v = std::mem::take(&mut self.scratch);
        v.clear();
        v.extend(threads.iter().zip(index).map(|(&t, &i)| (m.bank(i), i, t)));
        v.sort_unstable();
        // The bank with the most distinct words, and its first two words.
        let (mut best, mut best_at) = (1u32, None);
        let mut i = 0;
        while i < v.len() {
            let bank = v[i].0;
            let (mut distinct, mut second) = (1u32, None);
            let mut j = i + 1;
            while j < v.len() && v[j].0 == bank {
                if v[j].1 != v[j - 1].1 {
                    distinct += 1;
                    second.get_or_insert(j);
                }
                j += 1;
            }
            if distinct > best {
                best = distinct;
                best_at = second.map(|s| (i, s));
            }
            i = j;
        }
        let e = best_at.map(|(a, b)| Example {
            interval: self.interval,
            threads: [self.id(v[a].2), self.id(v[b].2)],
            words: [v[a].1, v[b].1],
            degree: best,
            minimum: 1,
            at: [v[a].0, v[a].0],
            active: threads.len() as u32,
        });
        self.scratch = v;
        e
    }

    /// The coalescing example of one unit-wide global access of `width` words per thread
    /// (`index`: each thread's first), if it is uncoalesced.
    fn uncoalesced(&mut self, threads: &[u32], index: &[u32], width: u32) -> Option<Example> {
        let m = self.model;
        let local = |t: u32| t % self.tpg;
        match m.coalescing {
            Coalescing::Segments { .. } => {
                let mut v = std::mem::take(&mut self.scratch);
                v.clear();
                // Each word against the word lane k would access at width w: k*w + i.
                for (&t, &i) in threads.iter().zip(index) {
                    for w in 0..width {
                        v.push((m.segment(m.lane(local(t)) * width + w), m.segment(i.wrapping_add(w)), t));
                    }
                }
                let mut segs: Vec<u32> = v.iter().map(|x| x.1).collect();
                segs.sort_unstable();
                segs.dedup();
                let mut ideal: Vec<u32> = v.iter().map(|x| x.0).collect();
                ideal.sort_unstable();
                ideal.dedup();
                let (touched, minimum) = (segs.len() as u32, ideal.len() as u32);
                let mut e = None;
                if touched > minimum {
                    v.sort_unstable();
                    // Two lanes of one ideal segment that touch different segments.
                    if let Some(k) = (1..v.len()).find(|&k| v[k].0 == v[k - 1].0 && v[k].1 != v[k - 1].1) {
                        let first = v.iter().position(|x| x.0 == v[k].0).unwrap_or(k - 1);
                        let words = |t: u32| threads.iter().position(|&x| x == t).map(|p| index[p]).unwrap_or(0);
                        e = Some(Example {
                            interval: self.interval,
                            threads: [self.id(v[first].2), self.id(v[k].2)],
                            words: [words(v[first].2), words(v[k].2)],
                            degree: touched,
                            minimum,
                            at: [v[first].1, v[k].1],
                            active: threads.len() as u32,
                        });
                    }
                }
                self.scratch = v;
                e
            }
            Coalescing::Strict { words } => {
                if threads.len() < 2 {
                    return None;
                }
                let base = |k: usize| index[k].wrapping_sub(m.lane(local(threads[k])));
                let b0 = base(0);
                let bad = (1..threads.len()).find(|&k| base(k) != b0).or((b0 % words != 0).then_some(1))?;
                Some(Example {
                    interval: self.interval,
                    threads: [self.id(threads[0]), self.id(threads[bad])],
                    words: [index[0], index[bad]],
                    degree: threads.len() as u32,
                    minimum: 1,
                    at: [index[0] / words, index[bad] / words],
                    active: threads.len() as u32,
                })
            }
        }
    }
}

impl PerfObserver {
    /// Measure one unit-wide access of `width` words per thread from `index`.
    fn measure(&mut self, stmt: u32, array: u32, op: Op, threads: &[u32], index: &[u32], width: u32) {
        let shared = self.shared.get(array as usize).copied().unwrap_or(false);
        for r in self.units(threads, self.model.unit) {
            let (ts, is) = (&threads[r.clone()], &index[r]);
            if shared {
                // The hardware serves 8 bytes per lane in two phases, 16 in four: the
                // access's degree is its worst phase's.
                let phase = (self.model.unit / width).max(1);
                let mut worst: Option<Example> = None;
                for p in self.units(ts, phase) {
                    let words: Vec<(u32, u32)> = ts[p.clone()].iter().zip(&is[p]).flat_map(|(&t, &i)| (0..width).map(move |w| (t, i.wrapping_add(w)))).collect();
                    let (pt, pi): (Vec<u32>, Vec<u32>) = words.into_iter().unzip();
                    if let Some(e) = self.bank_conflict(&pt, &pi) {
                        if worst.as_ref().is_none_or(|w| e.degree > w.degree) {
                            worst = Some(Example { active: ts.len() as u32, ..e });
                        }
                    }
                }
                self.record(Kind::BankConflict, stmt, Some(array), Some(op), worst);
            } else {
                let e = self.uncoalesced(ts, is, width);
                self.record(Kind::Uncoalesced, stmt, Some(array), Some(op), e);
            }
        }
    }

    /// Measure the pending accesses: one vector access, or each word on its own.
    fn flush(&mut self) {
        let Some(p) = self.pending.take() else { return };
        let vector = matches!(p.width, 2 | 4) && p.base.iter().all(|b| b % p.width == 0) && matches!(self.model.coalescing, Coalescing::Segments { .. });
        if vector {
            self.measure(p.stmt, p.array, p.op, &p.threads, &p.base, p.width);
            return;
        }
        for w in 0..p.width {
            let index: Vec<u32> = p.base.iter().map(|b| b.wrapping_add(w)).collect();
            self.measure(p.stmt + w, p.array, p.op, &p.threads, &index, 1);
        }
    }
}

impl Observer for PerfObserver {
    fn access(&mut self, stmt: u32, array: u32, op: Op, threads: &[u32], index: &[u32]) {
        if self.skip.get(array as usize).copied().unwrap_or(false) {
            return;
        }
        // The next word of a vector access: the next statement of the same span.
        if let Some(p) = &mut self.pending {
            let span = |s: u32| self.spans.get(s as usize).copied();
            let next = stmt == p.stmt + p.width
                && span(stmt).is_some()
                && span(stmt) == span(p.stmt)
                && (array, op) == (p.array, p.op)
                && p.width < 4
                && threads == p.threads.as_slice()
                && index.iter().zip(&p.base).all(|(&i, &b)| i == b.wrapping_add(p.width));
            if next {
                p.width += 1;
                return;
            }
        }
        self.flush();
        self.pending = Some(Pending { stmt, array, op, threads: threads.to_vec(), base: index.to_vec(), width: 1 });
    }

    fn branch(&mut self, stmt: u32, threads: &[u32], cond: &[u32]) {
        self.flush();
        for r in self.units(threads, self.model.warp) {
            let (ts, cs) = (&threads[r.clone()], &cond[r]);
            let then = cs.iter().position(|&c| c != 0);
            let els = cs.iter().position(|&c| c == 0);
            let e = match (then, els) {
                (Some(a), Some(b)) => {
                    let n = cs.iter().filter(|&&c| c != 0).count() as u32;
                    Some(Example {
                        interval: self.interval,
                        threads: [self.id(ts[a]), self.id(ts[b])],
                        words: [0, 0],
                        degree: n,
                        minimum: ts.len() as u32 - n,
                        at: [0, 0],
                        active: ts.len() as u32,
                    })
                }
                _ => None,
            };
            self.record(Kind::WarpDivergence, stmt, None, None, e);
        }
    }

    fn barrier(&mut self, _stmt: u32, _threads: &[u32]) {
        self.flush();
        self.close_interval();
        self.interval += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kpl_lang::perf_model::Arch;

    fn measure(src: &str, arch: Arch) -> PerfReport {
        let c = kpl_lang::check_kpl(src).expect("kernel checks");
        let prog = crate::compile(&c.core, kpl_lang::Launch::of(&c.kernel));
        let mut obs = PerfObserver::new(&prog, PerfModel::new(arch, None, None).unwrap());
        let r = crate::run_observed(&prog, crate::Inputs::from_seed(1), &Default::default(), Some(&mut obs));
        assert_eq!(r.outcome, crate::Outcome::Ok);
        obs.finish()
    }

    fn worst(r: &PerfReport, k: Kind) -> Option<u32> {
        r.findings().filter(|s| s.kind == k).filter_map(|s| s.worst.as_ref().map(|w| w.degree)).max()
    }

    fn shared_stride(stride: u32) -> String {
        format!(
            "kernel k {{ groups: 1; threads: 64; shared S[4096]; global A[64];
               main {{ S[lid] := 1; barrier; A[lid] := S[lid * {stride}]; }} }}"
        )
    }

    #[test]
    fn bank_conflict_degrees() {
        for (stride, degree) in [(1, None), (2, Some(2)), (32, Some(32)), (0, None), (33, None)] {
            let r = measure(&shared_stride(stride), Arch::Sm90);
            assert_eq!(worst(&r, Kind::BankConflict), degree, "stride {stride}");
            assert_eq!(r.intervals, 2);
        }
        // 16 banks per half-warp on 1.x: stride 16 is 16-way.
        assert_eq!(worst(&measure(&shared_stride(16), Arch::Cc13), Kind::BankConflict), Some(16));
    }

    #[test]
    fn coalescing() {
        let k = |index: &str| {
            format!("kernel k {{ groups: 1; threads: 64; global A[1024]; global B[64]; main {{ local x := A[{index}]; B[lid] := x; }} }}")
        };
        let r = measure(&k("lid"), Arch::Sm90);
        assert_eq!(r.findings().count(), 0);
        let r = measure(&k("lid * 2"), Arch::Sm90);
        let w = r.findings().next().and_then(|s| s.worst.clone()).unwrap();
        assert_eq!((w.degree, w.minimum), (8, 4));
        let r = measure(&k("lid + 1"), Arch::Sm90);
        let w = r.findings().next().and_then(|s| s.worst.clone()).unwrap();
        assert_eq!((w.degree, w.minimum), (5, 4));
        // Misaligned by one word: still one 128-byte line per... two lines on Fermi.
        let r = measure(&k("lid + 1"), Arch::Cc2);
        assert_eq!(r.findings().next().and_then(|s| s.worst.clone()).map(|w| (w.degree, w.minimum)), Some((2, 1)));
        // 1.0/1.1: a broadcast is not coalesced, lane k at word k is.
        assert_eq!(measure(&k("lid"), Arch::Cc11).findings().count(), 0);
        assert_eq!(worst(&measure(&k("0"), Arch::Cc11), Kind::Uncoalesced), Some(16));
        assert_eq!(measure(&k("0"), Arch::Sm90).findings().count(), 0);
    }

    #[test]
    fn divergence() {
        let k = |cond: &str| {
            format!("kernel k {{ groups: 1; threads: 64; global B[64]; main {{ if {cond} {{ B[lid] := 1; }} }} }}")
        };
        let r = measure(&k("lid < 32"), Arch::Sm90);
        assert_eq!(r.totals(Kind::WarpDivergence), (2, 0));
        let r = measure(&k("lid % 2 == 0"), Arch::Sm90);
        assert_eq!(r.totals(Kind::WarpDivergence), (2, 2));
        assert_eq!(r.intervals_bad[Kind::WarpDivergence.index()], 1);
    }
}
