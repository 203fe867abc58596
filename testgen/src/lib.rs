//! Test generation (GKLEE, PPoPP 2012): concolic runs of a kernel over symbolic params and
//! array contents with the launch concrete, a generational search that negates path
//! conditions with the solver, GKLEE's coverage-directed reductions and coverage measures.
//!
//! Pipeline position: `semantics IR ─► testgen ─► test inputs` (beside `certify`).
//! Takes: a compiled kernel (`kpl_semantics::Program`). Gives: tests (inputs in `kpl run
//! --input` form, each with the path its run took), the bugs the search met (assertion and
//! bounds failures), and coverage. Its symbolic questions go to `certify`'s solver layer.
//! Must not depend on: Z3 directly (only through `kpl_certify`), the binary.

pub mod concolic;
pub mod explore;

pub use explore::{explore, Options, Reduction, Report, Test};
