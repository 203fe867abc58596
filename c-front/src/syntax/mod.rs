//! Stage 2, syntax: the C/C++ AST, its lalrpop parser, the parser's messages, and what is
//! decided on the AST alone (annotation filtering, nesting depth). Imports `text` only.

pub mod annotations;
pub mod ast;
pub mod nesting;
pub mod parse_errors;

use lalrpop_util::lalrpop_mod;

lalrpop_mod!(
    #[allow(clippy::all, unused_parens, dead_code)]
    pub grammar,
    "/syntax/grammar.rs"
);
