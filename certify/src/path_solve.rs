//! Satisfying assignments for path conditions (test generation's symbolic questions): a
//! conjunction of boolean terms of one arena, solved by Z3, with the value of every word
//! variable in the model.

use crate::vc::{Sort, Terms, Vc};
use crate::vc_to_z3::Lowering;
use egg::Id;
use std::collections::BTreeMap;
use std::time::Duration;
use z3::ast::{Bool, BV};
use z3::{Params, SatResult, Solver};

pub enum PathAnswer {
    /// Word variables of the arena (by name) and their values in a model.
    Sat(BTreeMap<String, u32>),
    Unsat,
    Unknown(String),
}

/// Solves conjunctions of terms of one arena; lowered terms are kept between queries.
pub struct PathSolver {
    low: Lowering,
    /// The terms have float operations with their IEEE 754 meaning (`kpl crosscheck`): a
    /// solver for every logic, not QF_BV's.
    floats: bool,
    pub calls: u32,
    pub time: Duration,
}

impl Default for PathSolver {
    fn default() -> Self {
        PathSolver::new()
    }
}

impl PathSolver {
    pub fn new() -> PathSolver {
        PathSolver { low: Lowering::new(), floats: false, calls: 0, time: Duration::ZERO }
    }

    /// A solver that gives float built-ins (`Vc::App` of their names) their exact IEEE 754
    /// meaning (`float_z3.rs`); other functions stay uninterpreted.
    pub fn exact_floats() -> PathSolver {
        PathSolver { low: Lowering::exact_floats(), floats: true, calls: 0, time: Duration::ZERO }
    }

    /// Is the conjunction of `constraints` satisfiable (within `timeout`)? With a model,
    /// the values of the word variables among `wanted` (variables it leaves free get 0).
    pub fn solve(&mut self, t: &Terms, constraints: &[Id], wanted: &[Id], timeout: Duration) -> PathAnswer {
        // QF_BV's solver where no float operation is asked about (much the faster).
        let floats = self.floats && t.applies_function(constraints);
        let solver = if floats { Solver::new() } else { Solver::new_for_logic("QF_BV").unwrap_or_default() };
        let mut params = Params::new();
        params.set_u32("timeout", timeout.as_millis().clamp(1, u32::MAX as u128) as u32);
        solver.set_params(&params);
        for &c in constraints {
            let b: Bool = self.low.bool(t, c);
            solver.assert(&b);
        }
        self.calls += 1;
        let t0 = std::time::Instant::now();
        let r = crate::in_solver(|| solver.check());
        self.time += t0.elapsed();
        if std::env::var_os("KPL_DEBUG").is_some() {
            eprintln!("path query {}: {:?} in {:?} ({} constraints)", self.calls, r, t0.elapsed(), constraints.len());
        }
        match r {
            SatResult::Unsat => PathAnswer::Unsat,
            SatResult::Unknown => PathAnswer::Unknown(solver.get_reason_unknown().unwrap_or_else(|| "unknown".into())),
            SatResult::Sat => {
                let Some(m) = solver.get_model() else { return PathAnswer::Unknown("no model".into()) };
                let mut out = BTreeMap::new();
                for &v in wanted {
                    let Vc::Var(name) = t.node(v) else { continue };
                    if t.sorts.get(name).copied().unwrap_or(Sort::Word) != Sort::Word {
                        continue;
                    }
                    let bv: Option<BV> = self.low.lower(t, v).as_bv();
                    let val = bv.and_then(|b| m.eval(&b, true)).and_then(|x| x.as_u64()).unwrap_or(0) as u32;
                    out.insert(name.to_string(), val);
                }
                PathAnswer::Sat(out)
            }
        }
    }
}

