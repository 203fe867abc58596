//! The two-thread reduction (paper, sections 4 and 5.2). Not yet built.
//!
//! Pipeline position: `KPL AST ─► reduction ─► certify`.
//! Takes: a checked KPL kernel and a launch. Gives: a two-thread predicated sequential
//! program instrumented for races and divergence, with candidate invariants.
//! Must not depend on: SMT, egg, or the `certify` crate.
