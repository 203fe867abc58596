//! The SDV reference interpreter (paper, section 3, Figures 4-6). Not yet built.
//!
//! Pipeline position: `KPL AST ─► semantics` (runs all threads with concrete inputs).
//! Takes: a checked KPL kernel and concrete inputs. Gives: final memory, or the first error
//! with both threads, both accesses and a step trace.
//! Must not depend on: the verifier crates (`reduction`, `certify`).
