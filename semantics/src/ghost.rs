//! Ghost arrays (KPL's `snapshot G := A;`, GPUVerify's `__array_snapshot`): each thread's
//! own copy of an array, read without being an access.
//!
//! A thread's snapshot gives it a copy of its view of the source; its reads of the ghost
//! array are of that copy (the memory's initial contents before any). At a barrier the
//! copies of a group are joined into one, as the verifier's view of the array after a
//! barrier is one for the group: each element from the copy of the first thread that read
//! it since the previous barrier (the thread a barrier invariant over it speaks for), the
//! others from the copy of the group's first thread that has one.

use std::collections::BTreeMap;

#[derive(Default)]
pub struct Ghosts {
    /// The ghost arrays (the destinations of snapshots), by index.
    arrays: Vec<bool>,
    /// (array, group, thread) ─► the thread's copy.
    copies: BTreeMap<(u32, u32, u32), Vec<u32>>,
    /// (array, group, element) ─► the first thread that read it since the group's barrier.
    readers: BTreeMap<(u32, u32, u32), u32>,
}

impl Ghosts {
    pub fn new(arrays: Vec<bool>) -> Ghosts {
        Ghosts { arrays, ..Ghosts::default() }
    }

    pub fn is_ghost(&self, a: u32) -> bool {
        self.arrays.get(a as usize).copied().unwrap_or(false)
    }

    pub fn snapshot(&mut self, a: u32, g: u32, l: u32, copy: Vec<u32>) {
        self.copies.insert((a, g, l), copy);
    }

    /// Thread `l`'s value of element `i` (`None`: it has no copy there), recorded as read
    /// when `read`.
    pub fn value(&mut self, a: u32, g: u32, l: u32, i: u32, read: bool) -> Option<u32> {
        let v = self.copies.get(&(a, g, l)).and_then(|c| c.get(i as usize).copied());
        if read && v.is_some() {
            self.readers.entry((a, g, i)).or_insert(l);
        }
        v
    }

    /// A barrier of group `g` (`threads` threads): its copies joined into one.
    pub fn barrier(&mut self, g: u32, threads: u32) {
        let ghosts: Vec<u32> = (0..self.arrays.len() as u32).filter(|&a| self.is_ghost(a)).collect();
        for a in ghosts {
            let Some(first) = (0..threads).find(|&l| self.copies.contains_key(&(a, g, l))) else { continue };
            let mut joined = self.copies[&(a, g, first)].clone();
            for (i, v) in joined.iter_mut().enumerate() {
                if let Some(&l) = self.readers.get(&(a, g, i as u32)) {
                    if let Some(&x) = self.copies.get(&(a, g, l)).and_then(|c| c.get(i)) {
                        *v = x;
                    }
                }
            }
            for l in 0..threads {
                self.copies.insert((a, g, l), joined.clone());
            }
        }
        self.readers.retain(|&(_, rg, _), _| rg != g);
    }
}
