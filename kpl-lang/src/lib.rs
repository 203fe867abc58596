//! KPL itself: source text ─► checked KPL AST, and the types every stage shares.
//!
//! Pipeline position: the first stage for `.kpl` files (`.cu`/`.cl` go through `kpl_c`,
//! which gives ordinary KPL); every other crate reads what this crate gives.
//! Takes: KPL source text. Gives: a parsed, name-resolved and checked `ast::Kernel`, its
//! core form (array reads hoisted into the paper's basic statements), a pretty-printer back
//! to KPL, and the shared types: the AST, `Span`, the one `Diagnostic` type, `Launch`.
//! Must not depend on: any other kpl crate; it does no file or terminal I/O (the binary does).
//! Parsing never panics on any input.

pub mod ast;
pub mod atomic_reads;
pub mod diagnostic;
pub mod lexer;
pub mod parser;
pub mod sources;
pub mod span;

pub use diagnostic::Diagnostic;
pub use span::Span;
pub mod check;
pub mod core;
pub mod depth;
pub mod printer;
pub mod frontend;

pub use frontend::{check_kpl, Checked};
pub mod launch;
pub mod word_ranges;
pub mod dead_temps;
pub mod layout;

pub use launch::Launch;
pub mod generate;
pub mod rng;
pub mod ops;
pub mod sexp;
pub mod perf_model;
pub mod partner;
