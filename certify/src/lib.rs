//! Verification conditions, solving, Houdini, witnesses (and, later, simplification and
//! certificates).
//!
//! Pipeline position: `reduction ─► certify ─► verdict, witness, certificate`.
//! Takes: the two-thread sequential program. Gives: a verdict, the failing assertions with
//! a witness each (thread ids, params, initial contents), and statistics.
//! The VC language (`vc`) is an `egg::Language` printable as SMT-LIB 2 (`vc_to_smt`).
//! The only crate that links Z3 (`vc_to_z3`, `solve`).

pub mod certificate;
pub mod check_cert;
pub mod float_rules;
pub mod float_smt;
pub mod float_z3;
pub mod rewrite_check;
pub mod rules;
pub mod seq_to_vc;
pub mod path_solve;
pub mod sexp;
pub mod simplify;
pub mod solve;
pub mod theory_lemmas;
pub mod vc;
pub mod vc_to_smt;
pub mod vc_to_lia;
pub mod vc_to_z3;
pub mod verify;
pub mod witness;

pub use egg::Id;
pub use verify::{verify, Finding, Options, Outcome, Report};

/// Whether a Z3 call is running (`in_solver`): past its memory limit, Z3 may throw a C++
/// exception that no frame catches, which aborts the process; kpl's abort handler then
/// reports the limit instead of a crash (see `limits.rs` in the binary).
pub static IN_SOLVER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a Z3 query has answered `unknown` for want of memory (its reason says so, or is
/// empty, as after an exception Z3 caught): Z3's later calls, its objects' destructors at
/// the process's end among them, may then throw where nothing catches, and the abort
/// handler reports the limit for those too.
pub static SOLVER_OUT_OF_MEMORY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Run `f`, a Z3 call, with `IN_SOLVER` set.
pub fn in_solver<T>(f: impl FnOnce() -> T) -> T {
    use std::sync::atomic::Ordering;
    let was = IN_SOLVER.swap(true, Ordering::SeqCst);
    let r = f();
    IN_SOLVER.store(was, Ordering::SeqCst);
    r
}

/// Bound the memory Z3 may use, in MiB (its `memory_max_size`): past it a query answers
/// `unknown`, which the verifier reports as inconclusive.
pub fn set_solver_memory_limit(mib: u64) {
    z3::set_global_param("memory_max_size", &mib.max(1).to_string());
}
