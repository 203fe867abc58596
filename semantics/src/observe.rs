//! The interpreter's event stream: every warp-wide access, branch and barrier, with thread
//! numbers and element indices, for observers (performance checks, coverage) that must not
//! edit the executor.
//!
//! A thread number is `group * threads_per_group + local`, both linear (x fastest); the
//! thread lists of one event are in increasing order. Events come in execution order (SDV:
//! all enabled threads of the grid take each statement together).

use crate::report::Op;

pub trait Observer {
    /// The enabled `threads` access element `index[k]` of array `array` (in-bounds
    /// accesses only; an access that ends the run in a defect is still reported).
    fn access(&mut self, stmt: u32, array: u32, op: Op, threads: &[u32], index: &[u32]);
    /// A branch: `cond[k]` is the value of an `if`'s condition, or of a loop's guard, in
    /// `threads[k]` (non-zero: the thread takes the `then` side or stays in the loop).
    fn branch(&mut self, stmt: u32, threads: &[u32], cond: &[u32]);
    /// A barrier every thread of each enabled group took together.
    fn barrier(&mut self, stmt: u32, threads: &[u32]);
}

/// The linear thread number's ids (x fastest), for a launch.
pub fn thread_id(launch: &kpl_lang::Launch, t: u32) -> crate::report::ThreadId {
    let tpg = launch.threads_per_group().max(1) as u32;
    let (g, i) = (t / tpg, t % tpg);
    let split = |mut v: u32, d: [u32; 3]| {
        let x = v % d[0].max(1);
        v /= d[0].max(1);
        let y = v % d[1].max(1);
        [x, y, v / d[1].max(1)]
    };
    crate::report::ThreadId { group: split(g, launch.groups), local: split(i, launch.threads) }
}
