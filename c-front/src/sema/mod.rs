//! Stage 3, semantic analysis: C++ to the C subset on the token stream (namespaces, classes,
//! templates, overloads, operator functions, cooperative groups, textures, images), type
//! declarations and their layout resolved before the parse (C's lexer hack), and the
//! analyses of the parsed unit that lowering needs (`sizeof` operands, uninitialised reads).
//! Imports `text` and `syntax` only.

pub mod braced_args;
pub mod cache_hints;
pub mod classes;
pub mod constructors;
pub mod coop;
pub mod coop_tiles;
pub mod cxx;
pub mod deduction;
pub mod grid_shape;
pub mod host_calls;
pub mod host_class_constants;
pub mod host_constants;
pub mod host_fn_values;
pub mod host_items;
pub mod host_loops;
pub mod host_reach;
pub mod images;
pub mod instance_places;
pub mod integral_constants;
pub mod lambdas;
pub mod launches;
pub mod layout;
pub mod libcu_atomics;
pub mod namespaces;
pub mod numeric_limits;
pub mod operators;
pub mod overloads;
pub mod ref_returns;
pub mod reference;
pub mod sizeof_expr;
pub mod split_declarations;
pub mod template_args;
pub mod templates;
pub mod textures;
pub mod typedecls;
pub mod types;
pub mod uninit;
pub mod unused_types;

/// A parsed unit with what semantic analysis knows of it beside its AST.
pub struct Parsed {
    pub unit: crate::syntax::ast::Unit,
    /// The file's structs and type names (`typedecls.rs`).
    pub types: types::TypeTable,
}
