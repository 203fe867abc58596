//! C++ operator functions (CUDA's `helper_math.h`: `float3 operator+(float3 a, float3 b)`,
//! `void operator+=(float3 &a, float b)`, `float2 operator-(float2 &a)`). On the token
//! stream after classes, each `operator@` a function is named by becomes an ordinary name
//! (`__kpl_op_add`); the lowering (`lower/operator_calls.rs`) then reads `a + b`, `-a` and `a += b` as a call of that
//! function when an operand is a struct or vector (C++ applies no operator function to
//! scalars alone) and the overloads choose one (`overloads.rs`: an exact match, or the one
//! that fits through arithmetic conversions). Where none fits, vectors keep kpl's
//! element-wise operators; where kpl cannot tell which fits, the call is refused with a
//! diagnostic. Member operators stay refused (`classes.rs`).

use crate::sema::coop::{ident, is_p};
use crate::text::tokens::CTok;

type Tok = (usize, CTok, usize);

/// The start of the name an operator function is given.
pub const PREFIX: &str = "__kpl_op_";

/// Each overloadable operator kpl reads, and the name its function is given (after
/// `PREFIX`). A unary and a binary operator of one symbol share the name: their
/// functions differ in arity.
const NAMES: &[(&str, &str)] = &[
    ("+", "add"),
    ("-", "sub"),
    ("*", "mul"),
    ("/", "div"),
    ("%", "rem"),
    ("<<", "shl"),
    (">>", "shr"),
    ("<", "lt"),
    (">", "gt"),
    ("<=", "le"),
    (">=", "ge"),
    ("==", "eq"),
    ("!=", "ne"),
    ("&", "and"),
    ("^", "xor"),
    ("|", "or"),
    ("!", "not"),
    ("~", "compl"),
    ("+=", "add_assign"),
    ("-=", "sub_assign"),
    ("*=", "mul_assign"),
    ("/=", "div_assign"),
    ("%=", "rem_assign"),
    ("<<=", "shl_assign"),
    (">>=", "shr_assign"),
    ("&=", "and_assign"),
    ("^=", "xor_assign"),
    ("|=", "or_assign"),
];

/// The operator symbol of a function name this module gave (`__kpl_op_add` → `+`).
pub fn symbol(name: &str) -> Option<&'static str> {
    let n = name.strip_prefix(PREFIX)?;
    NAMES.iter().find(|(_, m)| *m == n).map(|(s, _)| *s)
}

fn mnemonic(symbol: &str) -> Option<&'static str> {
    NAMES.iter().find(|(s, _)| *s == symbol).map(|(_, m)| *m)
}

/// The token stream with `operator@` (followed by its parameters) renamed (module doc).
pub fn rename(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let named = match (ident(Some(t)), toks.get(i + 1)) {
            (Some("operator"), Some((_, CTok::P(p), end))) if is_p(toks.get(i + 2), "(") => mnemonic(p).map(|m| (m, *end)),
            _ => None,
        };
        let member = i > 0 && (is_p(toks.get(i - 1), ".") || is_p(toks.get(i - 1), "->"));
        match named {
            Some((m, end)) if !member => {
                out.push((t.0, CTok::Ident(format!("{PREFIX}{m}")), end));
                i += 2;
            }
            _ => {
                out.push(t.clone());
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::lexer::lex;
    use crate::text::tokens::{convert, Dialect};

    fn words(src: &str) -> String {
        let (toks, _) = convert(&lex(src).0, Dialect::Cuda);
        rename(toks).iter().map(|t| format!("{}", t.1)).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn operator_functions_are_renamed_and_nothing_else() {
        let src = "float2 operator+(float2 a, float2 b); void operator-=(float2 &a, float2 b) {} \
                   float2 operator-(float2 &a) { return a; } int x = a.operator+(b); operator float *(); int y = 1 + 2;";
        let want = "float2 __kpl_op_add(float2 a, float2 b); void __kpl_op_sub_assign(float2 &a, float2 b) {} \
                    float2 __kpl_op_sub(float2 &a) { return a; } int x = a.operator+(b); operator float *(); int y = 1 + 2;";
        assert_eq!(words(src), words(want));
        assert_eq!(symbol("__kpl_op_shl_assign"), Some("<<="));
        assert_eq!(symbol("__kpl_op_nope"), None);
    }
}
