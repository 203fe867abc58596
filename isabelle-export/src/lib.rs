//! Isabelle/HOL export: KPL's syntax and SDV semantics as theories, a kernel as a term with
//! a differential check of kpl's interpreter against the executable semantics, and a
//! certificate's verification conditions as lemmas whose proofs replay its rewrite steps.
//!
//! Pipeline position: `KPL AST (core form) ─► isabelle-export` and `certificate ─►
//! isabelle-export`. Takes the checked kernel, a run's inputs and results, and a
//! certificate's terms (as plain data); gives the files of an Isabelle session.
//! The only crate that knows Isabelle syntax. Must not depend on: the verifier crates or Z3
//! (the binary turns certificates into `cert_to_isabelle::Certificate`).

pub mod cert_to_isabelle;
pub mod congruence;
pub mod if_split;
pub mod kpl_to_isabelle;
pub mod lemma_method;
pub mod names;
pub mod rules_to_isabelle;
pub mod session;
pub mod smt_facts;
pub mod syntax_check;
pub mod vc_to_isabelle;

pub use session::{export, CertInput, Export};
