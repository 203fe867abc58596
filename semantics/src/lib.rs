//! The SDV reference interpreter: the executable meaning of KPL.
//!
//! Pipeline position: `KPL AST ─► semantics` (runs all threads of all groups with concrete
//! inputs; confirms the verifier's witnesses; the reference for differential tests).
//! Takes: a checked kernel's core form, a launch and inputs. Gives: the final memory, or the
//! first error (race, barrier divergence, assertion, out-of-bounds) with both threads, both
//! accesses and a step trace. `sdv` follows the paper's rules (section 3, Figures 4-6);
//! `canonical` is a second, independent executor (GKLEE's canonical schedule) that
//! differential tests compare against; `hb_run` a third, an interleaving of all warps on one
//! memory, whose races `hb` judges by BARRACUDA's happens-before rules (fences, scopes).
//! Must not depend on: the verifier crates (`reduction`, `certify`).

pub mod canonical;
pub mod ghost;
pub mod hb;
pub mod hb_run;
pub mod inputs;
pub mod ir;
pub mod memory;
pub mod observe;
pub mod perf;
pub mod report;
pub mod schedules;
pub mod sdv;
pub mod warp;

pub use inputs::Inputs;
pub use ir::{compile, Program};
pub use report::{Defect, Outcome, RunResult};
pub use sdv::{run, run_observed, Options};
