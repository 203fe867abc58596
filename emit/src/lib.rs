//! Code generation: a checked KPL kernel (its core form) ─► OpenCL C or CUDA C with exactly
//! KPL's word semantics (division by zero, shifts by 32 or more and signed operations go
//! through helpers, floats through bit casts), and host harnesses that load inputs, launch
//! with the kernel's configuration and write the final arrays.
//!
//! Pipeline position: `KPL AST ─► emit ─► a real OpenCL or CUDA implementation` (for
//! differential testing against the SDV interpreter).
//! Must not depend on: the verifier crates. Does no I/O (the binary runs what it emits).

pub mod harness;
pub mod kpl_to_c;

pub use kpl_to_c::{emit, Arg, Emitted, Target};
