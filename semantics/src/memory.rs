//! Memory under delayed visibility. Each array has committed contents (per group for a
//! `shared` array) and, per group, a log of what each element saw since the group's last
//! barrier: at most one pending write (a second writer would be a race) and the readers.
//! A thread reads its own pending write, else the committed value; a barrier commits the
//! group's pending writes (the paper's `merge`). Memory cost is the arrays plus what was
//! accessed since the last barrier. Global arrays also keep, per element, the groups that
//! ever accessed it, for inter-group races.

use crate::inputs::Inputs;
use crate::ir::{ArrayKind, Program};
use crate::report::{ArrayContents, Op};
use kpl_lang::ast::{AtomicOp, AtomicShape};
use std::collections::{BTreeMap, HashMap};

pub const NONE: u32 = u32::MAX;

/// Above this many elements an array's contents are kept sparse (generated lazily).
const DENSE_CELLS: u64 = 1 << 24;
/// Above this many elements over all groups, the access logs are hash maps.
const DENSE_RECORDS: u64 = 1 << 20;

/// A fast hasher for element indices (Fibonacci hashing); the keys are not adversarial.
#[derive(Default, Clone, Copy)]
pub struct IndexHasher(u64);

impl std::hash::Hasher for IndexHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (i as u64 ^ self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type IndexMap<V> = HashMap<u32, V, std::hash::BuildHasherDefault<IndexHasher>>;

/// The accesses to one element by one group since its last barrier (local ids): up to two
/// distinct writers and two distinct readers (enough to find, for any thread, an access
/// by another thread), the last value written, and whether the writes wrote different
/// values (then, unless it was already a race, they all came from one thread); for benign
/// tolerance, the value the reads returned (unless they varied) and the threads of the
/// latest statement execution that wrote the element. Kept in two parts: `Who`, which
/// every access reads, and `Site`, which only first accesses, writes and conflicts touch
/// (half the memory a read brings into the cache).
struct Rec<'a> {
    w: &'a mut Who,
    s: &'a mut Site,
}

/// Who accessed an element, and what the reads returned.
#[derive(Clone, Copy, Debug)]
pub struct Who {
    pub writer: u32,
    pub w2: u32,
    pub r1: u32,
    pub r2: u32,
    /// Up to two distinct threads that made atomic accesses.
    pub a1: u32,
    pub a2: u32,
    /// The value every read returned, unless `rvaried`.
    pub rvalue: u32,
    pub rvaried: bool,
}

/// Each access's statement, the last value written, and the executions of the writes. A
/// field is read only where `Who` names the access that set it (`varied` and the flags are
/// set with the first writer, `last_exec` only grows), so a barrier resets `Who` alone.
#[derive(Clone, Copy, Debug)]
pub struct Site {
    pub wstmt: u32,
    pub w2stmt: u32,
    pub r1stmt: u32,
    pub r2stmt: u32,
    pub a1stmt: u32,
    pub a2stmt: u32,
    pub value: u32,
    pub varied: bool,
    /// The statement execution (`Memory::next_exec`) of the latest write, and whether each
    /// of the two writers wrote in it (`Records::extra` holds further writers, each with
    /// the execution of its latest write).
    pub last_exec: u64,
    pub wlatest: bool,
    pub w2latest: bool,
}

impl Who {
    const EMPTY: Who = Who { writer: NONE, w2: NONE, r1: NONE, r2: NONE, a1: NONE, a2: NONE, rvalue: 0, rvaried: false };
    fn is_empty(&self) -> bool {
        self.writer == NONE && self.r1 == NONE && self.a1 == NONE
    }
}

impl Site {
    const EMPTY: Site = Site {
        wstmt: 0,
        w2stmt: 0,
        r1stmt: 0,
        r2stmt: 0,
        a1stmt: 0,
        a2stmt: 0,
        value: 0,
        varied: false,
        last_exec: 0,
        wlatest: false,
        w2latest: false,
    };
}

impl Rec<'_> {
    /// An atomic access by another thread than `l`, with its statement.
    fn other_atomic(&self, l: u32, sh: u32) -> Option<(u32, u32)> {
        other_of([(self.w.a1, self.s.a1stmt), (self.w.a2, self.s.a2stmt)], l, sh)
    }
    fn add_atomic(&mut self, l: u32, stmt: u32, sh: u32) {
        add_to((&mut self.w.a1, &mut self.s.a1stmt), (&mut self.w.a2, &mut self.s.a2stmt), l, stmt, sh);
    }
    /// A writer other than `l`, with its statement.
    fn other_writer(&self, l: u32, sh: u32) -> Option<(u32, u32)> {
        other_of([(self.w.writer, self.s.wstmt), (self.w.w2, self.s.w2stmt)], l, sh)
    }
    /// A reader other than `l`, with its statement.
    fn other_reader(&self, l: u32, sh: u32) -> Option<(u32, u32)> {
        other_of([(self.w.r1, self.s.r1stmt), (self.w.r2, self.s.r2stmt)], l, sh)
    }
    /// Does a write of `v` by `l` conflict with an earlier write (KPL.md: two writes by
    /// different threads conflict unless benign tolerance is on and they wrote equal
    /// values)? Gives the earlier writer.
    fn write_conflict(&self, l: u32, v: u32, benign: bool, sh: u32) -> Option<(u32, u32)> {
        let w = self.other_writer(l, sh)?;
        // Unless `varied`, every earlier write wrote `value`; if `varied`, all came from `w`
        // and one of them differs from `v`.
        (!benign || self.s.varied || self.s.value != v).then_some(w)
    }
    fn add_read(&mut self, l: u32, stmt: u32, value: u32, sh: u32) {
        if self.w.r1 == NONE {
            self.w.rvalue = value;
        } else {
            self.w.rvaried |= self.w.rvalue != value;
        }
        add_to((&mut self.w.r1, &mut self.s.r1stmt), (&mut self.w.r2, &mut self.s.r2stmt), l, stmt, sh);
    }
    /// Gives whether `l` is a third writer or more (`Records::extra` keeps those).
    fn add_write(&mut self, l: u32, stmt: u32, v: u32, exec: u64, sh: u32) -> bool {
        if exec != self.s.last_exec {
            // A later execution: no earlier writer wrote in it (yet).
            self.s.wlatest = false;
            self.s.w2latest = false;
        }
        self.s.last_exec = exec;
        let mut further = false;
        if self.w.writer == NONE {
            self.w.writer = l;
            self.s.wstmt = stmt;
            self.s.wlatest = true;
            self.s.varied = false;
        } else {
            self.s.varied |= self.s.value != v;
            if same(self.w.writer, l, sh) {
                self.s.wlatest = true;
            } else if self.w.w2 == NONE {
                self.w.w2 = l;
                self.s.w2stmt = stmt;
                self.s.w2latest = true;
            } else if same(self.w.w2, l, sh) {
                self.s.w2latest = true;
            } else {
                further = true;
            }
        }
        self.s.value = v;
        further
    }
    /// Benign tolerance of a write of `v` after other threads' reads: every read since the
    /// barrier returned `v`, so each reader got the same value whatever the order
    /// (GPUVerify's read-write rule).
    fn reads_saw(&self, v: u32) -> bool {
        !self.w.rvaried && self.w.rvalue == v
    }
}

/// log2 of the warp the logs prefer to show the other access from: CUDA's 32 lanes. A race
/// between threads of two warps is one whatever the warps do in lockstep, so a witness
/// shows such a pair where the logs have one (any pair of distinct threads is a race).
const WARP_SHIFT: u32 = 5;

/// Of two logged threads, each with its statement, one that is not `l` (nor, in
/// warp-synchronous mode, of its warp): one of another warp than `l`'s where there is one.
#[inline(always)]
fn other_of(logged: [(u32, u32); 2], l: u32, sh: u32) -> Option<(u32, u32)> {
    let [a, b] = logged;
    // (The second slot is filled only after the first.)
    if a.0 == NONE {
        None
    } else if same(a.0, l, sh) {
        (b.0 != NONE && !same(b.0, l, sh)).then_some(b)
    } else if b.0 != NONE && same(a.0, l, WARP_SHIFT) && !same(b.0, l, WARP_SHIFT) {
        Some(b)
    } else {
        Some(a)
    }
}

/// Logs thread `l` at `stmt` in the first of two slots (thread, statement) if it is free,
/// else in the second if that is free and the first is another thread's; or in place of
/// the second where that is of the first's warp and `l` is not, so that the two are of two
/// warps where the accesses are (`other_of` prefers such a pair).
#[inline(always)]
fn add_to(first: (&mut u32, &mut u32), second: (&mut u32, &mut u32), l: u32, stmt: u32, sh: u32) {
    if *first.0 == NONE {
        (*first.0, *first.1) = (l, stmt);
    } else if !same(*first.0, l, sh)
        && (*second.0 == NONE || (same(*second.0, *first.0, WARP_SHIFT) && !same(l, *first.0, WARP_SHIFT)))
    {
        (*second.0, *second.1) = (l, stmt);
    }
}

/// Are two local ids one thread, or (warp-synchronous mode, `sh` = log2 of the warp size)
/// in one warp? A warp then acts as one thread: its threads see each other's writes at
/// once and never race with each other through the logs.
fn same(a: u32, b: u32, sh: u32) -> bool {
    (a >> sh) == (b >> sh)
}

/// Did `l` write element `i` (its log `r`, the further writers `extra`), and if so, was its
/// latest write in the latest statement execution that wrote the element?
#[inline(always)]
fn wrote((w, s): (&Who, &Site), extra: &IndexMap<Vec<(u32, u64)>>, i: u32, l: u32, sh: u32) -> Option<bool> {
    if l == NONE {
        None
    } else if w.writer != NONE && same(w.writer, l, sh) {
        Some(s.wlatest)
    } else if w.w2 != NONE && same(w.w2, l, sh) {
        Some(s.w2latest)
    } else if extra.is_empty() {
        None
    } else {
        extra.get(&i).and_then(|xs| xs.iter().find(|(t, _)| same(*t, l, sh)).map(|x| x.1 == s.last_exec))
    }
}

/// The runs of a sorted thread list `act` by group (`t / tpg`): each group, the position
/// of its first thread in `act`, and its threads. (One division per run, not per thread.)
pub fn group_runs(act: &[u32], tpg: u32) -> impl Iterator<Item = (u32, usize, &[u32])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &act[at..];
        let &first = rest.first()?;
        let g = first / tpg;
        let end = (g as u64 + 1) * tpg as u64;
        let len = rest.partition_point(|&t| (t as u64) < end);
        let start = at;
        at += len;
        Some((g, start, &rest[..len]))
    })
}

/// The committed value of element `i` of an array (its `cells`, `overlays`, `name`, and
/// whether it is `shared`) as group `g` sees it (an unsized or large array's element made
/// from the inputs on first use).
#[inline]
fn committed(cells: &mut [Cells], overlays: &[IndexMap<u32>], name: &str, shared: bool, inputs: &Inputs, g: u32, i: u32) -> u32 {
    if let Some(v) = overlays.get(g as usize).and_then(|o| o.get(&i)) {
        return *v;
    }
    match &mut cells[if shared { g as usize } else { 0 }] {
        Cells::Dense(v) => v[i as usize],
        Cells::Sparse(m) => *m.entry(i).or_insert_with(|| inputs.element(name, shared.then_some(g), i)),
    }
}

/// `Memory::read`'s check and log of a read of element `i` by thread `l` (its log `r`, the
/// further writers `extra`; `committed` gives the value when `l` did not write it): the
/// value read, or the other access it conflicts with.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn log_read(mut r: Rec, extra: &IndexMap<Vec<(u32, u64)>>, i: u32, l: u32, stmt: u32, sh: u32, benign: bool, checked: bool, committed: impl FnOnce() -> u32) -> Result<u32, (u32, u32, Op)> {
    let own = wrote((r.w, r.s), extra, i, l, sh);
    if checked {
        if let Some((w, ws)) = r.other_writer(l, sh) {
            // (Benign: the reader's own latest write, `own_latest_write`.)
            if !(benign && own == Some(true)) {
                return Err((w, ws, Op::Write));
            }
        }
        if let Some((w, ws)) = r.other_atomic(l, sh) {
            return Err((w, ws, Op::Atomic));
        }
    }
    let value = if own.is_some() { r.s.value } else { committed() };
    r.add_read(l, stmt, value, sh);
    Ok(value)
}

/// One logged access, for kernels whose barriers fence memory per thread (`history`).
#[derive(Clone, Copy, Debug)]
struct Logged {
    local: u32,
    stmt: u32,
    op: Op,
    /// The value written, or read.
    value: u32,
    /// The statement execution (`Memory::next_exec`).
    exec: u64,
}

/// The logs of one group of one array: a `Rec` per element, and the writers of an element
/// beyond its `Rec`'s two (benign writes of one value by many threads), each with the
/// statement execution of its latest write.
struct Records {
    recs: RecMap,
    extra: IndexMap<Vec<(u32, u64)>>,
    /// Was a write logged since the last drain?
    writes: bool,
}

enum RecMap {
    Dense { who: Vec<Who>, sites: Vec<Site>, touched: Vec<u32> },
    Sparse(IndexMap<(Who, Site)>),
}

impl RecMap {
    /// Element `i`'s log, to be added to (noted as touched).
    #[inline]
    fn get_mut(&mut self, i: u32) -> Rec<'_> {
        match self {
            RecMap::Dense { who, sites, touched } => {
                let w = &mut who[i as usize];
                if w.is_empty() {
                    touched.push(i);
                }
                Rec { w, s: &mut sites[i as usize] }
            }
            RecMap::Sparse(m) => {
                let (w, s) = m.entry(i).or_insert((Who::EMPTY, Site::EMPTY));
                Rec { w, s }
            }
        }
    }
}

impl Records {
    /// Logs for one group of an array of `size` elements, in a launch of `groups` groups.
    fn new(size: Option<u32>, groups: u32) -> Records {
        let recs = match size {
            Some(n) if n as u64 * groups as u64 <= DENSE_RECORDS => {
                RecMap::Dense { who: vec![Who::EMPTY; n as usize], sites: vec![Site::EMPTY; n as usize], touched: Vec::new() }
            }
            _ => RecMap::Sparse(IndexMap::default()),
        };
        Records { recs, extra: IndexMap::default(), writes: false }
    }
    /// A copy of element `i`'s log (`Rec` of it reads it).
    fn get(&self, i: u32) -> (Who, Site) {
        match &self.recs {
            RecMap::Dense { who, sites, .. } => (who[i as usize], sites[i as usize]),
            RecMap::Sparse(m) => m.get(&i).copied().unwrap_or((Who::EMPTY, Site::EMPTY)),
        }
    }
    /// Log a write of `v` to element `i` by `l`.
    fn add_write(&mut self, i: u32, l: u32, stmt: u32, v: u32, exec: u64, sh: u32) {
        self.writes = true;
        if self.get_mut(i).add_write(l, stmt, v, exec, sh) {
            let xs = self.extra.entry(i).or_default();
            match xs.iter_mut().find(|(t, _)| same(*t, l, sh)) {
                Some(x) => x.1 = exec,
                None => xs.push((l, exec)),
            }
        }
    }
    /// Did `l` write element `i` since the barrier?
    fn wrote(&self, i: u32, l: u32, sh: u32) -> bool {
        let (w, s) = self.get(i);
        wrote((&w, &s), &self.extra, i, l, sh).is_some()
    }
    /// Benign tolerance of a read by `l` after other threads' writes: `l` wrote the element
    /// in the latest statement execution that wrote it, so every other write came before or
    /// with its own, and wrote the same value (else that was a write-write race): it reads
    /// its own value whatever the order (GPUVerify's write-read benign flag).
    fn own_latest_write(&self, i: u32, l: u32, sh: u32) -> bool {
        let (w, s) = self.get(i);
        wrote((&w, &s), &self.extra, i, l, sh) == Some(true)
    }
    fn get_mut(&mut self, i: u32) -> Rec<'_> {
        self.recs.get_mut(i)
    }
    /// The pending writes, then forget everything.
    fn drain_writes(&mut self, mut f: impl FnMut(u32, u32)) {
        self.extra.clear();
        let writes = std::mem::take(&mut self.writes);
        match &mut self.recs {
            RecMap::Dense { who, sites, touched } => {
                for &i in touched.iter() {
                    let (w, s) = (&mut who[i as usize], &mut sites[i as usize]);
                    if w.writer != NONE {
                        f(i, s.value);
                    }
                    // (`Site` is left as it is: it is read only where `Who` says it was set.)
                    *w = Who::EMPTY;
                }
                touched.clear();
            }
            // Reads only: nothing to commit, the entries go at once.
            RecMap::Sparse(m) if !writes => m.clear(),
            RecMap::Sparse(m) => {
                for (i, (w, s)) in m.drain() {
                    if w.writer != NONE {
                        f(i, s.value);
                    }
                }
            }
        }
    }
}

/// Committed contents of one array instance.
enum Cells {
    Dense(Vec<u32>),
    Sparse(IndexMap<u32>),
}

/// Who in the kernel ever accessed an element of a global array (inter-group races), as
/// `Rec` does for a group, with (group, local, stmt) for each thread: the first writer, a
/// writer of another group, the first reader and a reader of another group, the first
/// atomic and one of another group, and the same of `group`-scope atomics.
#[derive(Clone, Copy, Debug)]
pub struct KRec {
    pub w: (u32, u32, u32),
    pub w2: (u32, u32, u32),
    pub value: u32,
    pub varied: bool,
    pub r1: (u32, u32, u32),
    pub r2: (u32, u32, u32),
    pub a1: (u32, u32, u32),
    pub a2: (u32, u32, u32),
    /// The `group`-scope atomics among them (an atomic of another group races with them).
    pub n1: (u32, u32, u32),
    pub n2: (u32, u32, u32),
}

impl KRec {
    const EMPTY: KRec = KRec {
        w: (NONE, 0, 0),
        w2: (NONE, 0, 0),
        value: 0,
        varied: false,
        r1: (NONE, 0, 0),
        r2: (NONE, 0, 0),
        a1: (NONE, 0, 0),
        a2: (NONE, 0, 0),
        n1: (NONE, 0, 0),
        n2: (NONE, 0, 0),
    };
    /// An access of `x` or `y` from another group than `g`.
    fn other(x: (u32, u32, u32), y: (u32, u32, u32), g: u32) -> Option<(u32, u32, u32)> {
        [x, y].into_iter().find(|a| a.0 != NONE && a.0 != g)
    }
    fn add(first: &mut (u32, u32, u32), second: &mut (u32, u32, u32), a: (u32, u32, u32)) {
        if first.0 == NONE {
            *first = a;
        } else if first.0 != a.0 && second.0 == NONE {
            *second = a;
        }
    }
}

struct ArrayMem {
    name: String,
    shared: bool,
    size: Option<u32>,
    /// Per group for shared arrays; one for global arrays.
    cells: Vec<Cells>,
    /// Global arrays when inter-group accesses are not checked: what each group committed,
    /// so that no group sees another's writes (the SDV semantics exactly).
    overlays: Vec<IndexMap<u32>>,
    pending: Vec<Records>,
    /// Per group, every access since its last barrier, in order; kept only when some
    /// barrier fences memory per thread (then a barrier may forget some threads' accesses
    /// and keep the others', and `pending` is rebuilt from what is kept).
    history: Vec<IndexMap<Vec<Logged>>>,
    /// Per group, the accesses a warp barrier (`warp sync`) ordered for its lanes: they no
    /// longer race with their warp's threads but still do with other warps' (logged with
    /// `same` at the warp's shift); made at the first warp barrier, cleared by a barrier.
    warp_synced: Vec<Records>,
    kernel: Option<IndexMap<KRec>>,
    /// Are the array's races looked for (`--only-divergence` and `/checkArrays:` leave some
    /// out)? An unchecked array's accesses still read and write as ever.
    checked: bool,
}

/// A conflict found when logging an access: the other thread (local id within the same
/// group, or group and local id for inter-group), its statement and operation.
#[derive(Clone, Copy, Debug)]
pub struct Conflict {
    pub group: u32,
    pub local: u32,
    pub stmt: u32,
    pub op: Op,
}

pub struct Memory {
    arrays: Vec<ArrayMem>,
    groups: u32,
    benign: bool,
    /// Keep `history` (the program has a barrier whose fence depends on the thread).
    precise: bool,
    /// log2 of the warp size in warp-synchronous mode (0: every thread on its own).
    sh: u32,
    /// log2 of the warp size warp barriers order (32, or `--warp-sync`'s).
    warp_shift: u32,
    /// The current statement execution (benign tolerance tells writes of one execution
    /// from later ones).
    exec: u64,
    ghosts: crate::ghost::Ghosts,
    pub inputs: Inputs,
}

impl Memory {
    pub fn new(prog: &Program, inputs: Inputs, inter_group: bool, benign: bool) -> Memory {
        let groups = prog.launch.num_groups() as u32;
        let arrays = prog
            .arrays
            .iter()
            .map(|a| {
                let shared = a.kind == ArrayKind::Shared;
                let instances = if shared { groups } else { 1 };
                let cells = (0..instances)
                    .map(|g| match a.size {
                        Some(n) if n as u64 * instances as u64 <= DENSE_CELLS => Cells::Dense(inputs.contents(&a.name, shared.then_some(g), n)),
                        _ => Cells::Sparse(IndexMap::default()),
                    })
                    .collect();
                let multi = !shared && groups > 1;
                ArrayMem {
                    name: a.name.clone(),
                    shared,
                    size: a.size,
                    cells,
                    overlays: if multi && !inter_group { (0..groups).map(|_| IndexMap::default()).collect() } else { vec![] },
                    pending: (0..groups).map(|_| Records::new(a.size, groups)).collect(),
                    history: if prog.thread_fences { (0..groups).map(|_| IndexMap::default()).collect() } else { vec![] },
                    warp_synced: vec![],
                    kernel: (multi && inter_group).then(IndexMap::default),
                    checked: true,
                }
            })
            .collect();
        let ghosts = crate::ghost::Ghosts::new(prog.arrays.iter().map(|a| a.ghost).collect());
        Memory { arrays, groups, benign, precise: prog.thread_fences, sh: 0, warp_shift: 5, exec: 0, ghosts, inputs }
    }

    /// A new statement execution begins (the writes of one execution are simultaneous).
    pub fn next_exec(&mut self) {
        self.exec += 1;
    }

    /// Races on array `a` are not looked for (`--only-divergence`, `/checkArrays:`).
    pub fn set_unchecked(&mut self, a: u32) {
        self.arrays[a as usize].checked = false;
    }

    /// Are races on array `a` looked for?
    pub fn checked(&self, a: u32) -> bool {
        self.arrays[a as usize].checked
    }

    /// Warp-synchronous mode: warps of `warp` threads (a power of two) act as one thread.
    pub fn set_warp_sync(&mut self, warp: u32) {
        self.sh = warp.max(1).trailing_zeros();
        self.warp_shift = self.sh;
    }

    /// A conflict of an access (`op`, writing `v`) by thread `l` with what a warp barrier
    /// ordered for another warp (`warp_synced`), by the rules of `read`, `write`, `atomic`.
    #[allow(clippy::too_many_arguments)]
    fn warp_synced_conflict(&self, a: u32, g: u32, l: u32, i: u32, op: Op, v: u32) -> Option<Conflict> {
        if !self.checked(a) {
            return None;
        }
        let recs = self.arrays[a as usize].warp_synced.get(g as usize)?;
        let ((mut w, mut s), sh, benign) = (recs.get(i), self.warp_shift, self.benign);
        let rec = Rec { w: &mut w, s: &mut s };
        let at = |(t, s): (u32, u32), op| Conflict { group: g, local: t, stmt: s, op };
        let writer = match op {
            Op::Write => rec.write_conflict(l, v, benign, sh),
            _ => rec.other_writer(l, sh),
        };
        if let Some(w) = writer {
            return Some(at(w, Op::Write));
        }
        if op != Op::Read {
            if let Some(r) = rec.other_reader(l, sh).filter(|_| !(op == Op::Write && benign && rec.reads_saw(v))) {
                return Some(at(r, Op::Read));
            }
        }
        if op != Op::Atomic {
            if let Some(t) = rec.other_atomic(l, sh) {
                return Some(at(t, Op::Atomic));
            }
        }
        None
    }

    /// A warp barrier run by the threads of group `g` that `ran` names (`warp sync`): their
    /// accesses since the last barrier are ordered before what their warp does after (their
    /// writes committed, their entries moved to `warp_synced`, where only other warps'
    /// accesses race with them).
    pub fn warp_barrier(&mut self, g: u32, ran: &dyn Fn(u32) -> bool) {
        let (groups, sh, shift) = (self.groups, self.sh, self.warp_shift);
        for arr in &mut self.arrays {
            if arr.warp_synced.is_empty() {
                arr.warp_synced = (0..groups).map(|_| Records::new(arr.size, groups)).collect();
            }
            for (i, e) in arr.forget_some(g, ran, sh) {
                let recs = &mut arr.warp_synced[g as usize];
                match e.op {
                    Op::Write => recs.add_write(i, e.local, e.stmt, e.value, e.exec, shift),
                    Op::Read => recs.get_mut(i).add_read(e.local, e.stmt, e.value, shift),
                    Op::Atomic => recs.get_mut(i).add_atomic(e.local, e.stmt, shift),
                }
            }
        }
    }

    pub fn size(&self, a: u32) -> Option<u32> {
        self.arrays[a as usize].size
    }

    pub fn has_inter(&self, a: u32) -> bool {
        self.arrays[a as usize].kernel.is_some()
    }

    /// The committed value of an element as group `g` sees it.
    fn committed(&mut self, a: u32, g: u32, i: u32) -> u32 {
        let arr = &mut self.arrays[a as usize];
        committed(&mut arr.cells, &arr.overlays, &arr.name, arr.shared, &self.inputs, g, i)
    }

    /// The value thread `l` of group `g` sees at element `i` (its own pending write first;
    /// of a ghost array, its copy).
    pub fn view(&mut self, a: u32, g: u32, l: u32, i: u32) -> u32 {
        if self.ghosts.is_ghost(a) {
            return self.ghosts.value(a, g, l, i, false).unwrap_or_else(|| self.committed(a, g, i));
        }
        let recs = &self.arrays[a as usize].pending[g as usize];
        if recs.wrote(i, l, self.sh) {
            recs.get(i).1.value
        } else {
            self.committed(a, g, i)
        }
    }

    /// What a barrier invariant sees of element `i`: the thread's view, not logged as an
    /// access (0 outside the array, where the verifier's is arbitrary).
    pub fn peek(&mut self, a: u32, g: u32, l: u32, i: u32) -> u32 {
        match self.size(a) {
            Some(n) if i >= n => 0,
            _ => self.view(a, g, l, i),
        }
    }

    fn remember(&mut self, a: u32, g: u32, i: u32, entry: Logged) {
        if self.precise {
            self.arrays[a as usize].history[g as usize].entry(i).or_default().push(entry);
        }
    }

    /// Log a read by thread `l` of group `g`; gives the value read, or the conflicting write.
    pub fn read(&mut self, a: u32, g: u32, l: u32, i: u32, stmt: u32) -> Result<u32, Conflict> {
        // A ghost array's read is of the thread's copy, no access.
        if self.ghosts.is_ghost(a) {
            return Ok(self.ghosts.value(a, g, l, i, true).unwrap_or_else(|| self.committed(a, g, i)));
        }
        let (benign, sh, exec) = (self.benign, self.sh, self.exec);
        let ArrayMem { name, shared, cells, overlays, pending, checked, .. } = &mut self.arrays[a as usize];
        let Records { recs, extra, .. } = &mut pending[g as usize];
        let value = || committed(cells, overlays, name, *shared, &self.inputs, g, i);
        let value = log_read(recs.get_mut(i), extra, i, l, stmt, sh, benign, *checked, value)
            .map_err(|(w, ws, op)| Conflict { group: g, local: w, stmt: ws, op })?;
        // (The benign read of the reader's own latest write, as in `log_read`.)
        let recs = &self.arrays[a as usize].pending[g as usize];
        if let Some(c) = self.warp_synced_conflict(a, g, l, i, Op::Read, 0).filter(|_| !(benign && recs.own_latest_write(i, l, sh))) {
            return Err(c);
        }
        self.remember(a, g, i, Logged { local: l, stmt, op: Op::Read, value, exec });
        Ok(value)
    }

    /// `read` by each thread `act[k]` (`t / tpg` its group, `t % tpg` its local id) of
    /// element `idx[k]`, in order, the values pushed to `out`; gives the first conflict and
    /// its position. The common case (dense logs and contents, no ghost, no warp barrier,
    /// no per-thread fence history) is done a group at a time without looking the array up
    /// again; every other case is `read`'s, element by element.
    pub fn read_all(&mut self, a: u32, tpg: u32, act: &[u32], idx: &[u32], stmt: u32, out: &mut Vec<u32>) -> Result<(), (usize, Conflict)> {
        let fast = !self.ghosts.is_ghost(a) && !self.precise && self.arrays[a as usize].warp_synced.is_empty();
        let (benign, sh) = (self.benign, self.sh);
        for (g, at, run) in group_runs(act, tpg) {
            let ArrayMem { name, shared, cells, overlays, pending, checked, .. } = &mut self.arrays[a as usize];
            let Records { recs, extra, .. } = &mut pending[g as usize];
            let conflict = |k: usize, (w, ws, op)| (at + k, Conflict { group: g, local: w, stmt: ws, op });
            match (fast, recs, &mut cells[if *shared { g as usize } else { 0 }]) {
                // Dense logs and contents, no overlay: the common case, without a lookup.
                (true, RecMap::Dense { who, sites, touched }, Cells::Dense(cells)) if overlays.is_empty() => {
                    // The element the previous thread read, when no further read changes its
                    // log (no writer, no atomic, both readers known), and its value.
                    // With the first reader's warp, and whether the two readers are of
                    // two warps: a read by a thread of that warp changes nothing then
                    // (`add_to`), nor any read once they are.
                    let mut settled: Option<(u32, u32, u32, bool)> = None;
                    for (k, &t) in run.iter().enumerate() {
                        let (l, i) = (t % tpg, idx[at + k]);
                        if let Some((_, v, _, _)) = settled.filter(|&(e, _, r1, apart)| e == i && (apart || same(r1, l, WARP_SHIFT))) {
                            out.push(v);
                            continue;
                        }
                        let w = &mut who[i as usize];
                        if w.is_empty() {
                            touched.push(i);
                        }
                        let r = Rec { w, s: &mut sites[i as usize] };
                        let value = log_read(r, extra, i, l, stmt, sh, benign, *checked, || cells[i as usize]).map_err(|c| conflict(k, c))?;
                        let w = &who[i as usize];
                        let apart = tpg <= 1 << WARP_SHIFT || !same(w.r1, w.r2, WARP_SHIFT);
                        settled = (w.writer == NONE && w.a1 == NONE && w.r2 != NONE).then_some((i, value, w.r1, apart));
                        out.push(value);
                    }
                }
                // `read` without what `fast` rules out (no warp barrier's logs, no history).
                (true, recs, _) => {
                    for (k, &t) in run.iter().enumerate() {
                        let (l, i) = (t % tpg, idx[at + k]);
                        let value = || committed(cells, overlays, name, *shared, &self.inputs, g, i);
                        out.push(log_read(recs.get_mut(i), extra, i, l, stmt, sh, benign, *checked, value).map_err(|c| conflict(k, c))?);
                    }
                }
                _ => {
                    for (k, &t) in run.iter().enumerate() {
                        out.push(self.read(a, g, t % tpg, idx[at + k], stmt).map_err(|c| (at + k, c))?);
                    }
                }
            }
        }
        Ok(())
    }

    /// Log a write by thread `l` of group `g`; gives the conflicting access if any. With
    /// benign tolerance, writes of equal values by different threads are not a conflict,
    /// nor is a write of the value every earlier read returned.
    pub fn write(&mut self, a: u32, g: u32, l: u32, i: u32, v: u32, stmt: u32) -> Result<(), Conflict> {
        let (benign, sh, exec) = (self.benign, self.sh, self.exec);
        let checked = self.checked(a);
        let rec = self.arrays[a as usize].pending[g as usize].get_mut(i);
        if let Some((w, ws)) = rec.write_conflict(l, v, benign, sh).filter(|_| checked) {
            return Err(Conflict { group: g, local: w, stmt: ws, op: Op::Write });
        }
        if let Some((r, rs)) = rec.other_reader(l, sh).filter(|_| checked) {
            if !(benign && rec.reads_saw(v)) {
                return Err(Conflict { group: g, local: r, stmt: rs, op: Op::Read });
            }
        }
        if let Some((t, ts)) = rec.other_atomic(l, sh).filter(|_| checked) {
            return Err(Conflict { group: g, local: t, stmt: ts, op: Op::Atomic });
        }
        if let Some(c) = self.warp_synced_conflict(a, g, l, i, Op::Write, v) {
            return Err(c);
        }
        self.arrays[a as usize].pending[g as usize].add_write(i, l, stmt, v, exec, sh);
        self.remember(a, g, i, Logged { local: l, stmt, op: Op::Write, value: v, exec });
        Ok(())
    }

    /// An atomic by thread `l` of group `g`: it races with other threads' plain accesses
    /// since the barrier, never with atomics. It acts at once on the memory every thread
    /// sees (or on the thread's own pending write), and gives the old value.
    #[allow(clippy::too_many_arguments)]
    pub fn atomic(&mut self, a: u32, g: u32, l: u32, i: u32, op: AtomicOp, args: &[u32], stmt: u32) -> Result<u32, Conflict> {
        let old = self.atomic_read(a, g, l, i, stmt)?;
        self.atomic_write(a, g, l, i, kpl_lang::ops::atomic(op, old, args), stmt);
        Ok(old)
    }

    /// An atomic of another shape than one word (KPL's `add64`, `add_bytes` ...) on the
    /// elements from `i` (`AtomicShape`): `atomic` on all of them at once. `args` are
    /// operands of the shape's width; gives the old value.
    #[allow(clippy::too_many_arguments)]
    pub fn atomic_shaped(&mut self, a: u32, g: u32, l: u32, i: u32, op: AtomicOp, shape: AtomicShape, args: &[u64], stmt: u32) -> Result<u64, (u32, Conflict)> {
        let mut olds = Vec::with_capacity(shape.elems() as usize);
        for k in 0..shape.elems() {
            let j = i.wrapping_add(k);
            olds.push(self.atomic_read(a, g, l, j, stmt).map_err(|c| (j, c))?);
        }
        let old = shape.join(&olds);
        let new = kpl_lang::ops::atomic_value(op, shape, old, args);
        for (k, w) in shape.split(new).into_iter().enumerate() {
            self.atomic_write(a, g, l, i.wrapping_add(k as u32), w, stmt);
        }
        Ok(old)
    }

    /// An atomic's access to element `i`: the race checks and the log; gives the value the
    /// thread sees.
    fn atomic_read(&mut self, a: u32, g: u32, l: u32, i: u32, stmt: u32) -> Result<u32, Conflict> {
        let sh = self.sh;
        let checked = self.checked(a);
        let rec = self.arrays[a as usize].pending[g as usize].get_mut(i);
        if let Some((w, ws)) = rec.other_writer(l, sh).filter(|_| checked) {
            return Err(Conflict { group: g, local: w, stmt: ws, op: Op::Write });
        }
        if let Some((r, rs)) = rec.other_reader(l, sh).filter(|_| checked) {
            return Err(Conflict { group: g, local: r, stmt: rs, op: Op::Read });
        }
        if let Some(c) = self.warp_synced_conflict(a, g, l, i, Op::Atomic, 0) {
            return Err(c);
        }
        let mut rec = self.arrays[a as usize].pending[g as usize].get_mut(i);
        rec.add_atomic(l, stmt, sh);
        let value = rec.s.value;
        let own = self.arrays[a as usize].pending[g as usize].wrote(i, l, sh);
        Ok(if own { value } else { self.committed(a, g, i) })
    }

    /// An atomic's new value of element `i`, on the memory every thread sees (or on the
    /// thread's own pending write).
    fn atomic_write(&mut self, a: u32, g: u32, l: u32, i: u32, new: u32, stmt: u32) {
        let sh = self.sh;
        let own = self.arrays[a as usize].pending[g as usize].wrote(i, l, sh);
        if own {
            self.arrays[a as usize].pending[g as usize].get_mut(i).s.value = new;
        } else {
            let arr = &mut self.arrays[a as usize];
            let inst = if arr.shared { g as usize } else { 0 };
            ArrayMem::store(&mut arr.cells, arr.overlays.get_mut(g as usize), inst, i, new);
        }
        self.remember(a, g, i, Logged { local: l, stmt, op: Op::Atomic, value: new, exec: self.exec });
    }

    /// Log an access for inter-group races (global arrays of multi-group launches), with
    /// the same rules as within a group, over the whole kernel (no barrier separates groups).
    /// `narrow`: an atomic of `group` scope, which races with other groups' atomics too.
    #[allow(clippy::too_many_arguments)]
    pub fn inter(&mut self, a: u32, g: u32, l: u32, i: u32, op: Op, value: u32, stmt: u32, narrow: bool) -> Result<(), Conflict> {
        let benign = self.benign;
        if !self.checked(a) {
            return Ok(());
        }
        let Some(k) = self.arrays[a as usize].kernel.as_mut() else { return Ok(()) };
        let r = k.entry(i).or_insert(KRec::EMPTY);
        let conflict = |x: (u32, u32, u32), op| Conflict { group: x.0, local: x.1, stmt: x.2, op };
        let me = (g, l, stmt);
        match op {
            Op::Read => {
                if let Some(w) = KRec::other(r.w, r.w2, g) {
                    return Err(conflict(w, Op::Write));
                }
                if let Some(t) = KRec::other(r.a1, r.a2, g) {
                    return Err(conflict(t, Op::Atomic));
                }
                KRec::add(&mut r.r1, &mut r.r2, me);
            }
            Op::Atomic => {
                if let Some(w) = KRec::other(r.w, r.w2, g) {
                    return Err(conflict(w, Op::Write));
                }
                if let Some(rd) = KRec::other(r.r1, r.r2, g) {
                    return Err(conflict(rd, Op::Read));
                }
                let scoped_out = if narrow { KRec::other(r.a1, r.a2, g) } else { KRec::other(r.n1, r.n2, g) };
                if let Some(t) = scoped_out {
                    return Err(conflict(t, Op::Atomic));
                }
                KRec::add(&mut r.a1, &mut r.a2, me);
                if narrow {
                    KRec::add(&mut r.n1, &mut r.n2, me);
                }
            }
            Op::Write => {
                if let Some(w) = KRec::other(r.w, r.w2, g) {
                    if !benign || r.varied || r.value != value {
                        return Err(conflict(w, Op::Write));
                    }
                }
                if let Some(rd) = KRec::other(r.r1, r.r2, g) {
                    return Err(conflict(rd, Op::Read));
                }
                if let Some(t) = KRec::other(r.a1, r.a2, g) {
                    return Err(conflict(t, Op::Atomic));
                }
                if r.w.0 != NONE {
                    r.varied |= r.value != value;
                }
                KRec::add(&mut r.w, &mut r.w2, me);
                r.value = value;
            }
        }
        Ok(())
    }

    /// A barrier in group `g` (all its threads enabled). `fenced(shared, l)` tells whether
    /// thread `l`'s fence covers shared (or global) memory: the accesses of the threads it
    /// covers are ordered before everything after the barrier, so their writes are committed
    /// and their log entries forgotten; other threads' accesses stay logged (and their
    /// writes pending), so that they still race with what comes after.
    /// `covered` counts the threads whose fence covers global, and shared, memory.
    pub fn barrier(&mut self, g: u32, fenced: &dyn Fn(bool, u32) -> bool, covered: [u32; 2], threads: u32) {
        self.ghosts.barrier(g, threads);
        for arr in &mut self.arrays {
            let covered = covered[arr.shared as usize];
            if covered == threads {
                arr.commit(g);
                if let Some(h) = arr.history.get_mut(g as usize) {
                    h.clear();
                }
            } else if covered > 0 {
                let shared = arr.shared;
                let _ = arr.forget_some(g, &|l| fenced(shared, l), self.sh);
            }
        }
    }
    /// A grid barrier, after each group's own: every group's committed writes show to
    /// every group, and no access before it races with one after it.
    pub fn grid_barrier(&mut self) {
        for arr in &mut self.arrays {
            if let Some(k) = arr.kernel.as_mut() {
                k.clear();
            }
            for g in 0..arr.overlays.len() {
                let o = std::mem::take(&mut arr.overlays[g]);
                for (i, v) in o {
                    ArrayMem::store(&mut arr.cells, None, 0, i, v);
                }
            }
        }
    }

    /// `snapshot G := A;` by thread `l` of group `g`: its copy of its view of `A` (as many
    /// elements as `A` has, or `G` when `A` is unsized).
    pub fn snapshot(&mut self, dest: u32, src: u32, g: u32, l: u32) {
        let n = self.size(src).or(self.size(dest)).unwrap_or(0);
        let copy = (0..n).map(|i| self.view(src, g, l, i)).collect();
        self.ghosts.snapshot(dest, g, l, copy);
    }

    /// The final memory: pending writes merged as by a barrier, all groups' views joined.
    pub fn finish(mut self) -> Vec<(String, ArrayContents)> {
        for arr in &mut self.arrays {
            for g in 0..self.groups {
                arr.commit(g);
            }
        }
        self.arrays
            .into_iter()
            .map(|mut arr| {
                let overlays = std::mem::take(&mut arr.overlays);
                for o in overlays {
                    for (i, v) in o {
                        match &mut arr.cells[0] {
                            Cells::Dense(d) => d[i as usize] = v,
                            Cells::Sparse(m) => {
                                m.insert(i, v);
                            }
                        }
                    }
                }
                let contents = if arr.shared {
                    let dense = arr.cells.iter().all(|c| matches!(c, Cells::Dense(_)));
                    if dense {
                        ArrayContents::PerGroup(
                            arr.cells.into_iter().map(|c| if let Cells::Dense(d) = c { d } else { vec![] }).collect(),
                        )
                    } else {
                        ArrayContents::SparsePerGroup(arr.cells.into_iter().map(sparse).collect())
                    }
                } else {
                    match arr.cells.pop() {
                        Some(Cells::Dense(d)) => ArrayContents::Dense(d),
                        Some(c) => ArrayContents::Sparse(sparse(c)),
                        None => ArrayContents::Sparse(BTreeMap::new()),
                    }
                };
                (arr.name, contents)
            })
            .collect()
    }
}

impl ArrayMem {
    /// Make a committed value visible to group `g` (through its overlay if it has one).
    fn store(cells: &mut [Cells], overlay: Option<&mut IndexMap<u32>>, inst: usize, i: u32, v: u32) {
        match overlay {
            Some(o) => {
                o.insert(i, v);
            }
            None => match &mut cells[inst] {
                Cells::Dense(d) => d[i as usize] = v,
                Cells::Sparse(m) => {
                    m.insert(i, v);
                }
            },
        }
    }

    /// Commit group `g`'s pending writes and clear its logs (the paper's barrier).
    fn commit(&mut self, g: u32) {
        let inst = if self.shared { g as usize } else { 0 };
        let ArrayMem { cells, overlays, pending, .. } = self;
        let mut overlay = overlays.get_mut(g as usize);
        pending[g as usize].drain_writes(|i, v| ArrayMem::store(cells, overlay.as_deref_mut(), inst, i, v));
        if let Some(w) = self.warp_synced.get_mut(g as usize) {
            w.drain_writes(|_, _| {});
        }
    }

    /// Forget the logged accesses of the threads `fenced` covers, committing their writes;
    /// rebuild the logs of the others from `history` (kept whenever a fence can be partial).
    /// Gives the forgotten entries.
    fn forget_some(&mut self, g: u32, fenced: &dyn Fn(u32) -> bool, sh: u32) -> Vec<(u32, Logged)> {
        let inst = if self.shared { g as usize } else { 0 };
        let history = std::mem::take(&mut self.history[g as usize]);
        let mut kept: IndexMap<Vec<Logged>> = IndexMap::default();
        let mut forgotten = Vec::new();
        {
            let ArrayMem { cells, overlays, pending, .. } = &mut *self;
            let mut overlay = overlays.get_mut(g as usize);
            pending[g as usize].drain_writes(|_, _| {});
            for (i, entries) in history {
                let (gone, stay): (Vec<Logged>, Vec<Logged>) = entries.into_iter().partition(|e| fenced(e.local));
                // (An atomic's value is committed when it happens.)
                if let Some(last) = gone.iter().rev().find(|e| e.op == Op::Write) {
                    ArrayMem::store(cells, overlay.as_deref_mut(), inst, i, last.value);
                }
                forgotten.extend(gone.into_iter().map(|e| (i, e)));
                if !stay.is_empty() {
                    let recs = &mut pending[g as usize];
                    for e in &stay {
                        match e.op {
                            Op::Write => recs.add_write(i, e.local, e.stmt, e.value, e.exec, sh),
                            Op::Read => recs.get_mut(i).add_read(e.local, e.stmt, e.value, sh),
                            Op::Atomic => recs.get_mut(i).add_atomic(e.local, e.stmt, sh),
                        }
                    }
                    kept.insert(i, stay);
                }
            }
        }
        self.history[g as usize] = kept;
        forgotten
    }
}

fn sparse(c: Cells) -> BTreeMap<u32, u32> {
    match c {
        Cells::Dense(d) => d.into_iter().enumerate().map(|(i, v)| (i as u32, v)).collect(),
        Cells::Sparse(m) => m.into_iter().collect(),
    }
}
