//! Delay-bounded schedule exploration (Chiang, Gopalakrishnan, Li, Rakamaric, NFM 2013):
//! every schedule of the canonical executor with at most K delays, each compared with the
//! canonical schedule's final memory. A kernel whose atomics make its result depend on the
//! order in which a group's threads run shows it here, with the schedule that shows it.

use crate::canonical::{run_scheduled, Points, Schedule};
use crate::inputs::Inputs;
use crate::ir::Program;
use crate::report::{ArrayContents, Outcome};

/// One explored schedule and what it gave.
#[derive(Clone, Debug)]
pub struct Explored {
    pub schedule: Schedule,
    pub points: Points,
    pub outcome: Outcome,
    pub memory: Vec<(String, ArrayContents)>,
}

#[derive(Clone, Debug)]
pub struct Exploration {
    /// The canonical schedule first, then the others in depth-first order.
    pub runs: Vec<Explored>,
    /// Set when `max_schedules` stopped the exploration.
    pub truncated: bool,
}

impl Exploration {
    /// Runs whose final memory differs from the canonical one's (outcome `Ok` both).
    pub fn differing(&self) -> impl Iterator<Item = &Explored> {
        let base = &self.runs[0];
        self.runs[1..].iter().filter(move |r| r.outcome == Outcome::Ok && base.outcome == Outcome::Ok && r.memory != base.memory)
    }

    /// Distinct final memories among the runs that ended `Ok`.
    pub fn distinct_states(&self) -> usize {
        let mut seen: Vec<&Vec<(String, ArrayContents)>> = Vec::new();
        for r in self.runs.iter().filter(|r| r.outcome == Outcome::Ok) {
            if !seen.contains(&&r.memory) {
                seen.push(&r.memory);
            }
        }
        seen.len()
    }
}

/// Explore every schedule with at most `k` delays (at most `max_schedules` of them).
pub fn explore(prog: &Program, inputs: &Inputs, k: usize, max_steps: u64, max_schedules: usize) -> Exploration {
    let mut runs = Vec::new();
    let mut stack = vec![Schedule::default()];
    let mut truncated = false;
    while let Some(schedule) = stack.pop() {
        if runs.len() >= max_schedules {
            truncated = true;
            break;
        }
        let (r, points) = run_scheduled(prog, inputs, max_steps, Some(&schedule));
        // Children: one more delay at a later point (each schedule once: its delays sorted).
        // (At most as many waiting as the budget can still run: memory stays bounded.)
        if schedule.delays.len() < k {
            let from = schedule.delays.last().map(|d| d + 1).unwrap_or(0);
            let room = max_schedules.saturating_sub(runs.len() + 1 + stack.len());
            if points.count.saturating_sub(from) > room {
                truncated = true;
            }
            let upto = points.count.min(from + room);
            for p in (from..upto).rev() {
                let mut d = schedule.delays.clone();
                d.push(p);
                stack.push(Schedule { delays: d });
            }
        }
        runs.push(Explored { schedule, points, outcome: r.outcome, memory: r.memory });
    }
    Exploration { runs, truncated }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exploration(src: &str, k: usize) -> Exploration {
        let c = kpl_lang::check_kpl(src).expect("kernel checks");
        let prog = crate::compile(&c.core, kpl_lang::Launch::of(&c.kernel));
        explore(&prog, &Inputs::from_seed(3), k, 1_000_000, 1000)
    }

    #[test]
    fn a_ticket_counter_gives_each_order_its_own_result() {
        // Each thread takes a ticket and writes its id there: the result is a permutation
        // that depends on the schedule.
        let src = "kernel k { groups: 1; threads: 3; shared c[1]; global A[3];
            main { if lid == 0 { c[0] := 0; } barrier; local t := atomic add(c[0], 1); A[t] := lid; } }";
        let none = exploration(src, 0);
        assert_eq!(none.runs.len(), 1);
        let one = exploration(src, 1);
        // Points: thread 0 and 1 each meet one while others still run (thread 2 runs last).
        assert_eq!(one.runs[0].points.count, 2);
        assert_eq!(one.runs.len(), 3);
        assert_eq!(one.distinct_states(), 3);
        let two = exploration(src, 2);
        assert!(two.distinct_states() >= 4, "{}", two.distinct_states());
        assert!(two.differing().all(|r| !r.points.taken.is_empty()));
    }

    #[test]
    fn a_commutative_update_gives_one_result() {
        let src = "kernel k { groups: 1; threads: 4; shared c[1]; global A[1];
            main { if lid == 0 { c[0] := 0; } barrier; atomic add(c[0], lid); barrier; if lid == 0 { A[0] := c[0]; } } }";
        let e = exploration(src, 2);
        assert!(e.runs.len() > 3);
        assert_eq!(e.distinct_states(), 1);
        assert_eq!(e.differing().count(), 0);
    }
}
