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

/// The accesses to one element by one group since its last barrier (local ids).
#[derive(Clone, Copy, Debug)]
pub struct Rec {
    pub writer: u32,
    pub wstmt: u32,
    pub value: u32,
    pub r1: u32,
    pub r1stmt: u32,
    pub r2: u32,
    pub r2stmt: u32,
}

impl Rec {
    const EMPTY: Rec = Rec { writer: NONE, wstmt: 0, value: 0, r1: NONE, r1stmt: 0, r2: NONE, r2stmt: 0 };
    fn is_empty(&self) -> bool {
        self.writer == NONE && self.r1 == NONE
    }
}

enum Records {
    Dense { recs: Vec<Rec>, touched: Vec<u32> },
    Sparse(IndexMap<Rec>),
}

impl Records {
    /// Logs for one group of an array of `size` elements, in a launch of `groups` groups.
    fn new(size: Option<u32>, groups: u32) -> Records {
        match size {
            Some(n) if n as u64 * groups as u64 <= DENSE_RECORDS => {
                Records::Dense { recs: vec![Rec::EMPTY; n as usize], touched: Vec::new() }
            }
            _ => Records::Sparse(IndexMap::default()),
        }
    }
    fn get(&self, i: u32) -> Rec {
        match self {
            Records::Dense { recs, .. } => recs[i as usize],
            Records::Sparse(m) => m.get(&i).copied().unwrap_or(Rec::EMPTY),
        }
    }
    fn get_mut(&mut self, i: u32) -> &mut Rec {
        match self {
            Records::Dense { recs, touched } => {
                let r = &mut recs[i as usize];
                if r.is_empty() {
                    touched.push(i);
                }
                r
            }
            Records::Sparse(m) => m.entry(i).or_insert(Rec::EMPTY),
        }
    }
    /// The pending writes, then forget everything.
    fn drain_writes(&mut self, mut f: impl FnMut(u32, u32)) {
        match self {
            Records::Dense { recs, touched } => {
                for &i in touched.iter() {
                    let r = &mut recs[i as usize];
                    if r.writer != NONE {
                        f(i, r.value);
                    }
                    *r = Rec::EMPTY;
                }
                touched.clear();
            }
            Records::Sparse(m) => {
                for (i, r) in m.drain() {
                    if r.writer != NONE {
                        f(i, r.value);
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

/// Who in the kernel ever accessed an element of a global array (inter-group races):
/// the first writer, the first reader and a reader of another group than the first.
#[derive(Clone, Copy, Debug)]
pub struct KRec {
    pub w: (u32, u32, u32),
    pub r1: (u32, u32, u32),
    pub r2: (u32, u32, u32),
}

impl KRec {
    const EMPTY: KRec = KRec { w: (NONE, 0, 0), r1: (NONE, 0, 0), r2: (NONE, 0, 0) };
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
    kernel: Option<IndexMap<KRec>>,
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
                        Some(n) if n as u64 * instances as u64 <= DENSE_CELLS => Cells::Dense(
                            (0..n).map(|i| inputs.element(&a.name, shared.then_some(g), i)).collect(),
                        ),
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
                    kernel: (multi && inter_group).then(IndexMap::default),
                }
            })
            .collect();
        Memory { arrays, groups, benign, inputs }
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
        if let Some(v) = arr.overlays.get(g as usize).and_then(|o| o.get(&i)) {
            return *v;
        }
        let inst = if arr.shared { g as usize } else { 0 };
        match &mut arr.cells[inst] {
            Cells::Dense(v) => v[i as usize],
            Cells::Sparse(m) => {
                let inputs = &self.inputs;
                let name = &arr.name;
                let shared = arr.shared;
                *m.entry(i).or_insert_with(|| inputs.element(name, shared.then_some(g), i))
            }
        }
    }

    /// The value thread `l` of group `g` sees at element `i` (its own pending write first).
    pub fn view(&mut self, a: u32, g: u32, l: u32, i: u32) -> u32 {
        let r = self.arrays[a as usize].pending[g as usize].get(i);
        if r.writer == l {
            r.value
        } else {
            self.committed(a, g, i)
        }
    }

    /// Log a read by thread `l` of group `g`; gives the value read, or the conflicting write.
    pub fn read(&mut self, a: u32, g: u32, l: u32, i: u32, stmt: u32) -> Result<u32, Conflict> {
        let rec = self.arrays[a as usize].pending[g as usize].get_mut(i);
        if rec.writer != NONE && rec.writer != l {
            return Err(Conflict { group: g, local: rec.writer, stmt: rec.wstmt, op: Op::Write });
        }
        if rec.r1 == NONE {
            rec.r1 = l;
            rec.r1stmt = stmt;
        } else if rec.r1 != l && rec.r2 == NONE {
            rec.r2 = l;
            rec.r2stmt = stmt;
        }
        if rec.writer == l {
            return Ok(rec.value);
        }
        Ok(self.committed(a, g, i))
    }

    /// Log a write by thread `l` of group `g`; gives the conflicting access if any. With
    /// benign tolerance, a second write of the value already pending is not a conflict.
    pub fn write(&mut self, a: u32, g: u32, l: u32, i: u32, v: u32, stmt: u32) -> Result<(), Conflict> {
        let benign = self.benign;
        let rec = self.arrays[a as usize].pending[g as usize].get_mut(i);
        if rec.writer != NONE && rec.writer != l && !(benign && rec.value == v) {
            return Err(Conflict { group: g, local: rec.writer, stmt: rec.wstmt, op: Op::Write });
        }
        if rec.r1 != NONE && rec.r1 != l {
            return Err(Conflict { group: g, local: rec.r1, stmt: rec.r1stmt, op: Op::Read });
        }
        if rec.r2 != NONE && rec.r2 != l {
            return Err(Conflict { group: g, local: rec.r2, stmt: rec.r2stmt, op: Op::Read });
        }
        if rec.writer == NONE || rec.writer == l {
            rec.writer = l;
            rec.wstmt = stmt;
            rec.value = v;
        }
        Ok(())
    }

    /// Log an access for inter-group races (global arrays of multi-group launches).
    pub fn inter(&mut self, a: u32, g: u32, l: u32, i: u32, op: Op, stmt: u32) -> Result<(), Conflict> {
        let Some(k) = self.arrays[a as usize].kernel.as_mut() else { return Ok(()) };
        let r = k.entry(i).or_insert(KRec::EMPTY);
        let other = |x: (u32, u32, u32), op| Conflict { group: x.0, local: x.1, stmt: x.2, op };
        if r.w.0 != NONE && r.w.0 != g {
            return Err(other(r.w, Op::Write));
        }
        match op {
            Op::Read => {
                if r.r1.0 == NONE {
                    r.r1 = (g, l, stmt);
                } else if r.r1.0 != g && r.r2.0 == NONE {
                    r.r2 = (g, l, stmt);
                }
            }
            Op::Write => {
                if r.r1.0 != NONE && r.r1.0 != g {
                    return Err(other(r.r1, Op::Read));
                }
                if r.r2.0 != NONE && r.r2.0 != g {
                    return Err(other(r.r2, Op::Read));
                }
                if r.w.0 == NONE {
                    r.w = (g, l, stmt);
                }
            }
        }
        Ok(())
    }

    /// A barrier in group `g` (all its threads enabled): commit its writes, clear its logs.
    pub fn barrier(&mut self, g: u32) {
        for arr in &mut self.arrays {
            let inst = if arr.shared { g as usize } else { 0 };
            let ArrayMem { cells, overlays, pending, .. } = arr;
            let overlay = overlays.get_mut(g as usize);
            match overlay {
                Some(o) => pending[g as usize].drain_writes(|i, v| {
                    o.insert(i, v);
                }),
                None => {
                    let cell = &mut cells[inst];
                    pending[g as usize].drain_writes(|i, v| match cell {
                        Cells::Dense(d) => d[i as usize] = v,
                        Cells::Sparse(m) => {
                            m.insert(i, v);
                        }
                    });
                }
            }
        }
    }

    /// The final memory: pending writes merged as by a barrier, all groups' views joined.
    pub fn finish(mut self) -> Vec<(String, ArrayContents)> {
        for g in 0..self.groups {
            self.barrier(g);
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

fn sparse(c: Cells) -> BTreeMap<u32, u32> {
    match c {
        Cells::Dense(d) => d.into_iter().enumerate().map(|(i, v)| (i as u32, v)).collect(),
        Cells::Sparse(m) => m.into_iter().collect(),
    }
}
