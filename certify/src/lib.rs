//! Verification conditions, e-graph simplification, Z3, Houdini, certificates. Not yet built.
//!
//! Pipeline position: `reduction ─► certify ─► verdict, witness, certificate`.
//! Takes: the two-thread sequential program. Gives: a verdict with witnesses or a certificate.
//! The only crate that links Z3.
