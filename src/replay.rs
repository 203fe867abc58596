//! Confirming a defect: replay the witness (params, initial contents) in the SDV
//! interpreter and see whether it reports the same kind of defect at the same place (or
//! another of the program's checks failing first); a confirmed defect is reported with
//! what the interpreter observed.

use kpl_certify::witness::{Ids, Witness};
use kpl_certify::Finding;
use kpl_lang::{Checked, Launch};
use kpl_reduction::seq::{AccessKind, BarrierCheck, LabelKind, Program};
use kpl_semantics::report::{Access, Defect, DivergenceAt, Op, Outcome, RaceKind, ThreadId};
use kpl_semantics::{sdv, Inputs};

/// The interpreter's inputs for a witness (everything it does not fix comes from seed 0).
pub fn inputs(w: &Witness) -> Inputs {
    let mut i = Inputs::from_seed(0);
    i.params = w.params.clone();
    i.groups = w.groups.clone();
    for (array, cells) in &w.arrays {
        for ((group, index), v) in cells {
            i.set_element(array, *group, *index, *v);
        }
    }
    i
}

#[derive(Clone)]
pub struct ReplayOptions {
    pub inter_group: bool,
    pub benign: bool,
    pub max_steps: u64,
    pub warp_sync: Option<u32>,
    /// The arrays whose races the verifier checked (`None`: all), so that a replay is not
    /// stopped by a race the verifier was told to leave out.
    pub race_arrays: Option<Vec<String>>,
    /// Replay a launch of more than `WHOLE_REPLAY` threads whole where its witness's groups
    /// alone do not show the defect (off: only the cheap replay, for a quick sorting out).
    pub whole: bool,
    /// A replay that stops at another of the program's checks first confirms that one
    /// (`observed`); off, only the finding's own defect counts (the report then names the
    /// defect the full check found, as GPUVerify's tests expect).
    pub relabel: bool,
}

/// Replay a finding's witness in the interpreter. When the interpreter reports the same
/// kind of defect at the same source place (for a race: on the same array, of the same
/// kind, with the later access at the label's place and of its operation), gives the
/// witness with the details the interpreter observed: both threads, the element and the
/// other access. Only those are reported as *confirmed*; the solver's own choice of
/// threads and element may differ (any pair that races) and is never shown as confirmed.
/// With `ReplayOptions::relabel`, where the interpreter stops at another of the program's
/// checks first (a race at an earlier statement of the same run), that defect is the one
/// confirmed: the label it fails is given with the witness (`Replay::found`), and the
/// finding reports it.
///
/// A launch of more than `WHOLE_REPLAY` threads is first replayed with the witness's
/// groups alone: the schedule where they start first and the others only after the
/// defect, in the time and memory of one or two groups of a launch of thousands (a whole
/// replay's logs of every group's global accesses can outgrow the memory limit). So is a
/// smaller launch whose whole replay stops at the step budget. A witness confirmed that
/// way names its groups (`Witness::groups`, the JSON witness's `groups`, which `kpl run
/// --input` follows). Otherwise, and if that does not show the defect, the whole launch
/// is replayed.
pub fn reproduce(c: &Checked, launch: Launch, p: &Program, f: &Finding, o: &ReplayOptions) -> Replay {
    // A free grid is replayed at the size the witness gives it.
    let launch = f.witness.launch(&launch);
    if launch.total_threads() > sdv::MAX_THREADS {
        return Replay { found: Err(false), steps: 0 };
    }
    let prog = kpl_semantics::compile(&c.core, launch);
    // The interpreter holds every local of every thread of the launch, whichever groups
    // it starts: a replay that would take more than half the heap left is not made (the
    // finding stays possible) rather than end the command at the memory limit.
    let state = launch.total_threads().saturating_mul(4 * prog.slots.len() as u64 + 25);
    if state > (crate::limits::heap_left() / 2) as u64 {
        return Replay { found: Err(false), steps: 0 };
    }
    let opts = sdv::Options {
        max_steps: o.max_steps,
        inter_group: o.inter_group,
        benign: o.benign,
        warp_sync: o.warp_sync,
        race_arrays: o.race_arrays.clone(),
        ..Default::default()
    };
    let mut groups: Vec<u32> = f.witness.threads.iter().map(|t| t.group_index(&launch)).collect();
    groups.sort_unstable();
    groups.dedup();
    let apart = prog.groups_apart() && (groups.len() as u64) < launch.num_groups();
    let mut steps = 0;
    let mut alone = || {
        let r = sdv::run(&prog, inputs(&f.witness), &sdv::Options { groups: Some(groups.clone()), ..opts.clone() });
        steps += r.steps;
        let (label, mut w) = observed(&r, p, f, o.relabel).ok_or(r.outcome == Outcome::Timeout)?;
        w.groups = Some(groups.clone());
        Ok((label, w))
    };
    if apart && launch.total_threads() > WHOLE_REPLAY {
        match alone() {
            Ok(w) => return Replay { found: Ok(w), steps },
            Err(cut) if !o.whole => return Replay { found: Err(cut), steps },
            Err(_) => {}
        }
    }
    let r = sdv::run(&prog, inputs(&f.witness), &opts);
    let found = match observed(&r, p, f, o.relabel) {
        Some(w) => Ok(w),
        None if apart && r.outcome == Outcome::Timeout && launch.total_threads() <= WHOLE_REPLAY => alone(),
        None => Err(r.outcome == Outcome::Timeout),
    };
    Replay { found, steps: steps + r.steps }
}

/// What replaying a finding showed, and the thread-statements it ran.
pub struct Replay {
    /// The label of the defect the interpreter showed and the witness with what it
    /// observed; or not shown, `Err(true)` where the last run stopped at the budget.
    pub found: Result<(usize, Witness), bool>,
    pub steps: u64,
}

/// The most threads a launch may have for its witnesses to be replayed whole first.
const WHOLE_REPLAY: u64 = 1 << 16;

/// The label of the defect a run showed and the witness with what it observed: the
/// finding's own label where the run shows it, else (with `relabel`) the first other label
/// it shows (`reproduce`).
fn observed(r: &kpl_semantics::RunResult, p: &Program, f: &Finding, relabel: bool) -> Option<(usize, Witness)> {
    let shows = |l: usize| shown(r, p, l, f).map(|w| (l, w));
    shows(f.label).or_else(|| if relabel { (0..p.labels.len()).filter(|&l| l != f.label).find_map(shows) } else { None })
}

/// The witness with what a run observed, if it shows the defect of label `label`.
fn shown(r: &kpl_semantics::RunResult, p: &Program, label: usize, f: &Finding) -> Option<Witness> {
    let label = &p.labels[label];
    let at = |s: kpl_lang::Span| (s.start, s.end) == label.span;
    let ids = |t: &ThreadId| Ids { group: t.group, local: t.local };
    let mut w = f.witness.clone();
    let Outcome::Defect(d) = &r.outcome else { return None };
    match (&label.kind, d) {
        (LabelKind::Race { array, second, logged, .. }, Defect::Race { kind, array: a, index, accesses, .. }) => {
            let ww = second.writes() && logged.writes();
            if a != array || (*kind == RaceKind::WriteWrite) != ww {
                return None;
            }
            let op_of = |x: &Access| match x.op {
                Op::Read => AccessKind::Read,
                Op::Write => AccessKind::Write,
                Op::Atomic => AccessKind::Atomic,
            };
            // The access at the label's place that is of the label's operation; the other
            // is the logged one (both may be at one place: a statement racing with itself).
            let k = (0..2).rev().find(|&k| at(accesses[k].span) && op_of(&accesses[k]) == *second)?;
            let other = &accesses[1 - k];
            if op_of(other) != *logged {
                return None;
            }
            w.threads = [ids(&other.thread), ids(&accesses[k].thread)];
            w.same_group = other.thread.group == accesses[k].thread.group;
            w.index = Some(*index);
            w.logged = Some((other.span.start, other.span.end));
        }
        // A warp collective's two checks (a named lane missing, or another mask) are told
        // apart by the label's words.
        (LabelKind::Divergence, Defect::Divergence { span, enabled, disabled, at: kind })
            if at(*span) && (*kind == DivergenceAt::WarpMask) == label.what.starts_with("warp mask ") =>
        {
            w.threads = [ids(enabled), ids(disabled)];
            w.same_group = true;
        }
        // The interpreter checks that a barrier invariant holds, not what it relies on.
        (LabelKind::Assertion | LabelKind::BarrierInvariant(BarrierCheck::Holds), Defect::Assertion { span, thread, invariant_of: None })
        | (LabelKind::Invariant { .. }, Defect::Assertion { span, thread, invariant_of: Some(_) })
            if at(*span) =>
        {
            w.threads[0] = ids(thread);
        }
        (LabelKind::OutOfBounds { array, .. }, Defect::OutOfBounds { array: a, index, access, .. })
            if a == array && at(access.span) =>
        {
            w.threads[0] = ids(&access.thread);
            w.index = Some(*index);
        }
        _ => return None,
    }
    Some(w)
}
