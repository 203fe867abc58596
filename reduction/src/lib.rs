//! The two-thread reduction (paper, sections 4 and 5.2).
//!
//! Pipeline position: `KPL AST ─► reduction ─► certify`.
//! Takes: a checked kernel's core form and a launch. Gives: a two-thread predicated
//! sequential program (`seq`) instrumented for races, divergence, bounds and assertions,
//! every assertion labelled with the source access, barrier or assert it checks, the
//! shared-state abstraction chosen per array (`taint`), and candidate loop invariants.
//! Must not depend on: SMT, egg, or the `certify` crate.

pub mod ast_to_seq;
mod builder;
pub mod kernel_walk;
mod atomic_tickets;
mod barrier_invariants;
pub mod candidates;
mod loops;
pub mod perf_checks;
pub mod relevance;
pub mod seq;
pub mod seq_run;
mod spec_effects;
pub mod taint;
mod uniformity;
pub mod unwind;
mod warp_collectives;

pub use ast_to_seq::{grid_input_axis, reduce};
pub use builder::{AbstractionChoice, Config};
pub use atomic_tickets::wrap_assumed;
pub use seq::Program;
