//! Stage 1, text: the preprocessor (`#include`, `#define`, conditionals) over the C lexer's
//! tokens, and their conversion into the parser's tokens by dialect. Imports nothing above.

pub mod include;
pub mod lexer;
pub mod pp;
pub mod tokens;
