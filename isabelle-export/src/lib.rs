//! Isabelle/HOL export of KPL's syntax and SDV semantics, kernels and certificates. Not yet built.
//!
//! Pipeline position: `KPL AST ─► isabelle-export` and `certificate ─► isabelle-export`.
//! The only crate that knows Isabelle syntax.
