//! Solving: a Z3 session over one encoding, Houdini (section 5.3) and the search for every
//! failing assertion. Running out of time or an `unknown` answer is a result, never a panic.

use crate::seq_to_vc::Encoding;
use crate::vc_to_z3::Lowering;
use egg::Id;
use std::time::{Duration, Instant};
use z3::ast::{Bool, BV};
use z3::{Model, Params, SatResult, Solver};

pub enum Answer {
    Sat(Model),
    Unsat,
    Unknown(String),
}

/// Queries over one encoding. Each query gets a fresh, non-incremental solver (Z3 then
/// bit-blasts with its tactics, much faster on multiplications than its incremental core);
/// the lowered definitions are shared between queries.
pub struct Session<'e> {
    pub enc: &'e Encoding,
    low: Lowering,
    defs: Vec<Bool>,
    deadline: Option<Instant>,
    pub calls: u32,
    /// Time spent in the solver.
    pub solver_time: std::time::Duration,
    /// The guards' literals, by candidate.
    guards: Vec<Bool>,
    /// The solver of the last query (its model is still in use).
    last: Option<Solver>,
    /// Inputs a failing assertion's model should keep small, with their bounds, in levels
    /// (a free grid's sizes: a witness of a few groups is one the interpreter can replay):
    /// where a failure's model is within none, `failures` asks with each level's bounds in
    /// turn (`smaller`).
    pub prefer: Vec<Vec<(Id, u32)>>,
    /// The level of `prefer` in force in this query.
    preferring: Option<usize>,
    /// The encoding in linear integer arithmetic, lowered at its first query.
    lia: Option<Lia>,
    /// What worked on the encoding's queries so far (and, from `Options::habits`, on the
    /// kernel's under its last launch).
    pub habits: Habits,
}

/// What worked on a kernel's queries: the next launch of the kernel starts with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Habits {
    /// The last query asked in integers was answered there: queries go to integers first
    /// (`check_within`).
    pub integers_first: bool,
    /// Houdini's last round over all its candidates went undecided, and candidate by
    /// candidate decided them: Houdini starts candidate by candidate (`houdini`).
    pub one_at_a_time: bool,
}

/// An encoding's definitions and candidate guards in linear integer arithmetic.
struct Lia {
    low: crate::vc_to_lia::LiaLowering,
    /// The definitions and every side condition handed out so far.
    defs: Vec<Bool>,
    guards: Vec<Bool>,
}

/// How long a query is bit-blasted before it is also asked in integers (most queries are
/// answered well within it).
pub const BV_FIRST: Duration = Duration::from_millis(500);
/// The most time a query in integers gets.
pub const LIA_TURN: Duration = Duration::from_secs(1);

impl<'e> Session<'e> {
    pub fn new(enc: &'e Encoding, deadline: Option<Instant>) -> Session<'e> {
        let mut low = Lowering::new();
        let defs = enc
            .defs
            .iter()
            .map(|(s, v)| {
                let (a, b) = (low.lower(&enc.terms, *s), low.lower(&enc.terms, *v));
                a.eq(&b)
            })
            .collect();
        let guards = enc.guards.iter().map(|g| low.bool(&enc.terms, *g)).collect();
        Session { enc, low, defs, deadline, calls: 0, solver_time: Default::default(), guards, last: None, prefer: Vec::new(), preferring: None, lia: None, habits: Habits::default() }
    }

    /// Is some goal satisfiable with the candidates in `on` enabled and the others off?
    pub fn check(&mut self, goals: &[Id], on: &[bool]) -> Answer {
        self.check_within(goals, on, None)
    }

    /// The time left before the deadline (`None`: no deadline).
    pub fn left(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// The time a query capped at `cap` may take: the cap or what is left before the
    /// deadline, whichever is less (`None`: neither).
    fn within(&self, cap: Option<Duration>) -> Option<Duration> {
        match (self.left(), cap) {
            (Some(l), Some(c)) => Some(l.min(c)),
            (l, c) => l.or(c),
        }
    }

    /// Whether the deadline has passed.
    pub fn out_of_time(&self) -> bool {
        self.left().is_some_and(|l| l.is_zero())
    }

    /// `check`, giving the query at most `cap` (and never past the deadline). A query that
    /// bit-blasting does not answer within [`BV_FIRST`] (half its cap, under a second) is also asked in linear integer
    /// arithmetic (`vc_to_lia`) for at most [`LIA_TURN`], whose *unsat* is an answer (the
    /// lowering over-approximates) and which proves at once what a SAT solver finds hard
    /// (products by large literals), and whose model, where bit-blasting with every input
    /// at its value confirms it, is one; then bit-blasting goes on with the time left.
    /// Integers come second (on most of Houdini's rounds they took seconds to find a model
    /// where bit-blasting took a third of one, and integer division by variables can take
    /// gigabytes) until they answer a query bit-blasting did not: from then on, in this
    /// session, they come first, until they fail to answer one.
    pub fn check_within(&mut self, goals: &[Id], on: &[bool], cap: Option<Duration>) -> Answer {
        if goals.is_empty() {
            return Answer::Unsat;
        }
        let start = Instant::now();
        let budget = self.within(cap);
        // A query with no cap of its own and less than a second to the deadline (a search
        // for defects, whose models come from the words) is bit-blasted with all of it,
        // unless integers answered this session's last hard query.
        if cap.is_none() && !self.habits.integers_first && budget.is_some_and(|b| b <= BV_FIRST * 2) {
            return self.bit_blast(goals, on, budget);
        }
        // (The budget never ends past the deadline: what is left of it is all there is.)
        let rest = || budget.map(|b| b.saturating_sub(start.elapsed()));
        if !self.habits.integers_first {
            // A capped query (Houdini's) of under a second is bit-blasted for half of it,
            // integers get the other half: a round of Houdini capped at a second gave up
            // undecided where integers and the words' confirmation answer in 50 ms.
            let first = budget.map_or(BV_FIRST, |b| (b / 2).min(BV_FIRST));
            match self.bit_blast(goals, on, Some(first)) {
                Answer::Unknown(why) if !self.out_of_time() && (why.contains("timeout") || why.contains("canceled")) => {}
                a => return a,
            }
        }
        let answered = self.by_integers(goals, on, rest());
        self.habits.integers_first = answered.is_some();
        match answered {
            Some(a) => a,
            None => self.bit_blast(goals, on, rest()),
        }
    }

    /// The query in integers, within half of `rest` and [`LIA_TURN`]: *unsat*, or a model of
    /// the words found with every input at its value in the integers' model (`None`:
    /// neither).
    fn by_integers(&mut self, goals: &[Id], on: &[bool], rest: Option<Duration>) -> Option<Answer> {
        let turn = rest.map_or(LIA_TURN, |r| (r / 2).min(LIA_TURN));
        let start = Instant::now();
        match self.integers(goals, on, turn) {
            Some((SatResult::Unsat, _)) => Some(Answer::Unsat),
            Some((SatResult::Sat, Some(m))) => {
                let hint = self.words_of(&m);
                let left = rest.map(|r| r.saturating_sub(start.elapsed()));
                let turn = left.map_or(BV_FIRST, |r| (r / 2).min(BV_FIRST));
                match self.bit_blast_with(goals, on, Some(turn), &hint, " (integers' values)") {
                    a @ Answer::Sat(_) => Some(a),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The encoding's words and booleans at their values in a model of the integers, as
    /// equations over words: a model of the integers is not always one of the words (a
    /// product of two unknowns is a fresh integer there), but where it is, bit-blasting
    /// with every input fixed finds it at once, where the query alone can take seconds.
    fn words_of(&mut self, m: &Model) -> Vec<Bool> {
        let mut fixed = Vec::new();
        let terms = &self.enc.terms;
        // Only what no definition gives: a defined word follows from its inputs in words,
        // where the integers may have left it apart (a product of two unknowns).
        let defined: std::collections::HashSet<egg::Symbol> =
            self.enc.defs.iter().filter_map(|(s, _)| match terms.node(*s) { crate::vc::Vc::Var(x) => Some(*x), _ => None }).collect();
        for (s, sort) in &terms.sorts {
            if terms.aliases.contains_key(s) || defined.contains(s) {
                continue;
            }
            let name = format!("{}!lia", s.as_str());
            match sort {
                crate::vc::Sort::Word => {
                    let v = m.eval(&z3::ast::Int::new_const(name), false).and_then(|v| v.as_i64());
                    if let Some(v) = v {
                        let w = BV::from_u64(v.rem_euclid(1 << 32) as u64, 32);
                        fixed.push(BV::new_const(s.as_str(), 32).eq(&w));
                    }
                }
                crate::vc::Sort::Bool => {
                    if let Some(b) = m.eval(&Bool::new_const(name), false).and_then(|v| v.as_bool()) {
                        let x = Bool::new_const(s.as_str());
                        fixed.push(if b { x } else { x.not() });
                    }
                }
                crate::vc::Sort::Array => {}
            }
        }
        fixed
    }

    /// The query's lowering to linear integer arithmetic, solved within `cap` (`None`: no
    /// time left).
    fn integers(&mut self, goals: &[Id], on: &[bool], cap: Duration) -> Option<(SatResult, Option<Model>)> {
        if cap.is_zero() {
            return None;
        }
        let lia = self.lia.get_or_insert_with(|| {
            let mut low = crate::vc_to_lia::LiaLowering::new();
            let mut defs: Vec<Bool> = self
                .enc
                .defs
                .iter()
                .filter_map(|(s, v)| {
                    let (a, b) = (low.lower(&self.enc.terms, *s), low.lower(&self.enc.terms, *v));
                    (a.sort_kind() == b.sort_kind()).then(|| a.eq(&b))
                })
                .collect();
            let guards = self.enc.guards.iter().map(|g| low.bool(&self.enc.terms, *g)).collect();
            defs.extend(low.take_side_conditions());
            Lia { low, defs, guards }
        });
        let gs: Vec<Bool> = goals.iter().map(|g| lia.low.bool(&self.enc.terms, *g)).collect();
        lia.defs.extend(lia.low.take_side_conditions());
        let ms = cap.as_millis().clamp(1, u32::MAX as u128) as u32;
        let solver = query_solver("QF_AUFLIA", ms, &lia.defs, &lia.guards, on, &gs);
        let r = self.run(&solver, " (integers)", goals.len());
        Some((r, if r == SatResult::Sat { solver.get_model() } else { None }))
    }

    /// Solve, counting the call and its time (each printed with `KPL_DEBUG`).
    fn run(&mut self, solver: &Solver, what: &str, goals: usize) -> SatResult {
        self.calls += 1;
        let t0 = Instant::now();
        let r = crate::in_solver(|| solver.check());
        self.solver_time += t0.elapsed();
        if r == SatResult::Unknown {
            // (Asked as a query is: Z3 past its memory limit may throw here too.)
            let why = crate::in_solver(|| solver.get_reason_unknown()).unwrap_or_default();
            if why.is_empty() || why.contains("memory") {
                crate::SOLVER_OUT_OF_MEMORY.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
        if std::env::var_os("KPL_DEBUG").is_some() {
            eprintln!("solver call {}{what}: {:?} in {:?} ({goals} goals)", self.calls, r, t0.elapsed());
        }
        r
    }

    /// The query as words, bit-blasted, within `cap` and the deadline.
    fn bit_blast(&mut self, goals: &[Id], on: &[bool], cap: Option<Duration>) -> Answer {
        self.bit_blast_with(goals, on, cap, &[], "")
    }

    /// `bit_blast` with the facts `also` asserted besides (`what` names the query in
    /// `KPL_DEBUG`'s lines).
    fn bit_blast_with(&mut self, goals: &[Id], on: &[bool], cap: Option<Duration>, also: &[Bool], what: &str) -> Answer {
        let mut ms = 0u32;
        if let Some(left) = self.within(cap) {
            if left.is_zero() {
                return Answer::Unknown("time limit reached".into());
            }
            ms = left.as_millis().clamp(1, u32::MAX as u128) as u32;
        }
        // Z3 picks its tactics by logic: pure bit-vector queries go to its bit-blaster.
        let arrays = self.enc.terms.sorts.values().any(|s| *s == crate::vc::Sort::Array);
        let gs: Vec<Bool> = goals.iter().map(|g| self.low.bool(&self.enc.terms, *g)).collect();
        let solver = query_solver(if arrays { "QF_ABV" } else { "QF_BV" }, ms, &self.defs, &self.guards, on, &gs);
        if let Some(level) = self.preferring {
            for (id, bound) in self.prefer[level].clone() {
                if let Some(v) = self.low.lower(&self.enc.terms, id).as_bv() {
                    solver.assert(&v.bvule(&BV::from_u64(bound as u64, v.get_size())));
                }
            }
        }
        for f in also {
            solver.assert(f);
        }
        let r = self.run(&solver, what, goals.len());
        let answer = match r {
            SatResult::Sat => match solver.get_model() {
                Some(m) => Answer::Sat(m),
                None => Answer::Unknown("the solver gave no model".into()),
            },
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => Answer::Unknown(
                solver.get_reason_unknown().filter(|w| !w.is_empty()).unwrap_or_else(|| "the solver answered unknown, with no reason (its memory limit, a third of --memory-limit, is the likely one)".into()),
            ),
        };
        self.last = Some(solver);
        answer
    }

    /// A model of the goals within the first level of `prefer` that has one, looked for
    /// only where `m` is within none of the levels before (a failure's model; none is
    /// asked for where no goal can fail).
    fn smaller(&mut self, m: Model, goals: &[Id], on: &[bool]) -> Model {
        for level in 0..self.prefer.len() {
            if self.prefer[level].clone().into_iter().all(|(id, bound)| self.eval_word(&m, id) <= bound) {
                return m;
            }
            self.preferring = Some(level);
            let a = self.check(goals, on);
            self.preferring = None;
            if let Answer::Sat(small) = a {
                return small;
            }
        }
        m
    }

    pub fn eval_bool(&mut self, m: &Model, id: Id) -> bool {
        let b = self.low.bool(&self.enc.terms, id);
        m.eval(&b, true).and_then(|v| v.as_bool()).unwrap_or(false)
    }

    pub fn eval_word(&mut self, m: &Model, id: Id) -> u32 {
        let d = self.low.lower(&self.enc.terms, id);
        let bv: Option<BV> = d.as_bv();
        bv.and_then(|b| m.eval(&b, true)).and_then(|v| v.as_u64()).unwrap_or(0) as u32
    }
}

/// A fresh solver for `logic` (timeout `ms`, none if 0) with the definitions, each
/// candidate's guard on or off as `on` says, and the disjunction of the goals.
fn query_solver(logic: &str, ms: u32, defs: &[Bool], guards: &[Bool], on: &[bool], goals: &[Bool]) -> Solver {
    let solver = Solver::new_for_logic(logic).unwrap_or_else(Solver::new);
    let mut params = Params::new();
    if ms > 0 {
        params.set_u32("timeout", ms);
    }
    solver.set_params(&params);
    for d in defs {
        solver.assert(d);
    }
    for (i, g) in guards.iter().enumerate() {
        solver.assert(if on.get(i).copied().unwrap_or(false) { g.clone() } else { g.not() });
    }
    solver.assert(Bool::or(goals));
    solver
}

/// What Houdini ends with.
pub struct Houdini {
    /// Candidates kept (proved inductive together).
    pub kept: Vec<bool>,
    pub rounds: u32,
    /// Set when the solver could not decide a round: nothing about candidates is known
    /// to be inductive.
    pub unknown: Option<String>,
    /// The candidates not yet dropped when Houdini ended (`kept` where it finished): those
    /// off are no invariants (a model showed them failing, or they started off).
    pub left: Vec<bool>,
}

/// The largest set of the candidates `on` that is inductive (and holds on entry) together.
///
/// Each round asks whether any candidate can fail and drops those the model shows failing.
/// Under a deadline, a round's query gets a third of the time left; one the solver cannot
/// decide in that (a disjunction of many hard goals) makes Houdini go on candidate by
/// candidate, each query with a share of the time left: a candidate shown failing is
/// dropped, until a pass shows every candidate left unable to fail, which is what the
/// round's query would have shown. After a pass that drops nothing but leaves a candidate
/// undecided, the query over all of them gets all the time left, as it would without a
/// cap. Dropping an undecided candidate would be sound, but the kernel could then get a
/// possible defect that only the lost invariant ruled out, and which invariants are kept
/// would depend on the machine's load. Where candidate by candidate decided the rounds
/// under the kernel's last launch (`Habits::one_at_a_time`: a launch that starts from what
/// Houdini kept there asks a round over all of them that is hard as a whole, each
/// candidate of which takes milliseconds), Houdini starts candidate by candidate.
pub fn houdini(s: &mut Session, mut on: Vec<bool>, progress: &dyn Fn(&str)) -> Houdini {
    let n = s.enc.guards.len();
    let (mut rounds, mut capped) = (0, true);
    let stop = |s: &Session, rounds, why: String, left: Vec<bool>| Houdini { kept: vec![false; n], rounds, unknown: Some(if s.out_of_time() { "time limit reached".into() } else { why }), left };
    // Where candidate by candidate is what decided the kernel's rounds under its last
    // launch (`Habits::one_at_a_time`), and a deadline caps the rounds, Houdini starts so.
    if s.habits.one_at_a_time && s.left().is_some() {
        match one_by_one(s, on, rounds, progress) {
            Ok(h) => {
                s.habits.one_at_a_time = h.unknown.is_none();
                return h;
            }
            Err((left, r)) => (on, rounds, s.habits.one_at_a_time) = (left, r, false),
        }
    }
    loop {
        let goals: Vec<Id> =
            (0..n).filter(|&c| on[c]).flat_map(|c| s.enc.candidate_fails[c].iter().copied()).collect();
        progress(&format!("Houdini round {}, {} candidates", rounds + 1, on.iter().filter(|x| **x).count()));
        let cap = if capped { s.left().map(|l| (l / 3).max(MIN_CAP)) } else { None };
        match s.check_within(&goals, &on, cap) {
            Answer::Unsat => return Houdini { kept: on.clone(), rounds, unknown: None, left: on },
            Answer::Unknown(why) if s.out_of_time() || cap.is_none() => return stop(s, rounds, why, on),
            Answer::Unknown(_) => match one_by_one(s, on, rounds, progress) {
                Ok(h) => {
                    s.habits.one_at_a_time = h.unknown.is_none();
                    return h;
                }
                // Nothing new decided one at a time: the round's query gets all the time
                // left (it may need more than its third).
                Err((left, r)) => (on, rounds, capped) = (left, r, false),
            },
            Answer::Sat(m) => {
                rounds += 1;
                if drop_failing(s, &m, &mut on) == 0 {
                    // The model's evaluation shows no failing candidate (z3 4.8's model
                    // evaluation can disagree with its answer on bit-vector terms over
                    // arrays): ask for each candidate on its own and drop the first whose
                    // failure is satisfiable. If none is, stop rather than loop.
                    let Some(c) = (0..n).filter(|&c| on[c]).find(|&c| {
                        let fails = s.enc.candidate_fails[c].clone();
                        matches!(s.check(&fails, &on), Answer::Sat(_))
                    }) else {
                        return stop(s, rounds, "Houdini made no progress".into(), on);
                    };
                    on[c] = false;
                }
            }
        }
    }
}

/// Turn off every candidate of `on` that the model shows failing; how many.
fn drop_failing(s: &mut Session, m: &Model, on: &mut [bool]) -> usize {
    let mut dropped = 0;
    for c in 0..on.len() {
        if on[c] && s.enc.candidate_fails[c].clone().iter().any(|f| s.eval_bool(m, *f)) {
            on[c] = false;
            dropped += 1;
        }
    }
    dropped
}

/// The least time a capped query gets.
const MIN_CAP: Duration = Duration::from_millis(500);

/// Houdini's rounds candidate by candidate (see `houdini`, which goes on with this where a
/// round's query is too hard as a whole); `rounds` counts on from the rounds already done.
/// Where the solver decides every query, it keeps what `houdini` keeps. A candidate left
/// undecided in a pass that drops others is asked again, with a larger share, in the next;
/// a pass that drops nothing but leaves some undecided gives back the candidates left and
/// the rounds (`Err`), for a round over all of them.
pub fn one_by_one(s: &mut Session, mut on: Vec<bool>, mut rounds: u32, progress: &dyn Fn(&str)) -> Result<Houdini, (Vec<bool>, u32)> {
    let n = on.len();
    loop {
        rounds += 1;
        let live: Vec<usize> = (0..n).filter(|&c| on[c]).collect();
        progress(&format!("Houdini round {rounds}, {} candidates, one at a time", live.len()));
        let (mut changed, mut undecided) = (false, false);
        for (k, &c) in live.iter().enumerate() {
            if !on[c] {
                continue;
            }
            let cap = s.left().map(|l| (l / (live.len() - k + 1) as u32).max(MIN_CAP));
            let fails = s.enc.candidate_fails[c].clone();
            match s.check_within(&fails, &on, cap) {
                Answer::Unsat => {}
                Answer::Unknown(_) if s.out_of_time() => {
                    return Ok(Houdini { kept: vec![false; n], rounds, unknown: Some("time limit reached".into()), left: on });
                }
                Answer::Unknown(_) => undecided = true,
                Answer::Sat(m) => {
                    on[c] = false;
                    drop_failing(s, &m, &mut on);
                    changed = true;
                }
            }
        }
        match (changed, undecided) {
            (false, false) => return Ok(Houdini { kept: on.clone(), rounds, unknown: None, left: on }),
            (false, true) => return Err((on, rounds)),
            _ => {}
        }
    }
}

/// Every failing assertion, each turned into a `T` by `extract` from the model that shows
/// it; stops early at `unknown` (with the reason). (Asking assertion by assertion where
/// their disjunction is slow was tried: `fused_classifier_kernel1`'s final check took 5 s
/// instead of 8, but the check without invariants of `softmax_forward_kernel4` then spent
/// its budget on one hard assertion where the disjunction found the race in 1.3 s.)
pub fn failures<T>(
    s: &mut Session,
    on: &[bool],
    progress: &dyn Fn(&str),
    extract: &mut dyn FnMut(&mut Session, &Model, usize) -> T,
) -> (Vec<T>, Option<String>) {
    let mut left: Vec<usize> = (0..s.enc.checks.len()).filter(|&l| s.enc.checks[l].is_some()).collect();
    let mut found = Vec::new();
    loop {
        progress(&format!("checking {} assertions", left.len()));
        let goals: Vec<Id> = left.iter().filter_map(|&l| s.enc.checks[l].as_ref().map(|c| c.fail)).collect();
        let answer = match s.check(&goals, on) {
            Answer::Sat(m) => Answer::Sat(s.smaller(m, &goals, on)),
            a => a,
        };
        match answer {
            Answer::Unsat => return (found, None),
            Answer::Unknown(why) => return (found, Some(why)),
            Answer::Sat(m) => {
                let failing: Vec<usize> = left
                    .iter()
                    .copied()
                    .filter(|&l| {
                        let f = s.enc.checks[l].as_ref().map(|c| c.fail);
                        f.is_some_and(|f| s.eval_bool(&m, f))
                    })
                    .collect();
                if failing.is_empty() {
                    return (found, Some("the model shows no failing assertion".into()));
                }
                left.retain(|l| !failing.contains(l));
                for l in failing {
                    found.push(extract(s, &m, l));
                }
            }
        }
    }
}

