//! KLEE-CL's crosscheck (Collingbourne, Cadar, Kelly, HVC 2011): a kernel against the
//! sequential C function it was ported from, on every input of the sizes given.
//!
//! Pipeline position: `semantics IR (kernel, reference) ─► crosscheck ─► verdict` (beside
//! `testgen`, whose concolic executor it runs in its exact mode).
//! Takes: two compiled programs, the reference (lowered by the C front end as a one-thread
//! kernel) renamed to the kernel's parameter names (`pairing`). Gives: *equivalent*, a
//! *mismatch* with the input that shows it, a defect of either side, or *inconclusive*.
//! Its symbolic questions go to `certify`'s solver layer, floats with their exact IEEE 754
//! meaning (`certify::float_z3`); canonical forms (`canon`) settle most float outputs
//! before the solver is asked, and carry the assumptions the user names.
//! Must not depend on: Z3 directly, the binary.

pub mod canon;
pub mod certificate;
pub mod concrete;
pub mod explore;
pub mod pairing;
pub mod proof;

pub use canon::Assumptions;
pub use explore::{crosscheck, Options, Report, Side, Stats, Verdict};
