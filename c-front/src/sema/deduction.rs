//! Template argument deduction beyond a plain variable: the type of an arithmetic
//! expression (`ceil_div(B * T, 8 * s)` deduces `T` as `int` by C's usual arithmetic
//! conversions), and an argument matched against a parameter of a class template type
//! (`std::bool_constant<Atomic>` given `std::bool_constant<false>{}` deduces `false`).

use crate::sema::host_items::{angle_args, ident, is_p};
use crate::text::tokens::CTok;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

/// An arithmetic type as the usual arithmetic conversions see it.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Arith {
    Int { bits: u8, unsigned: bool },
    Float { bits: u8 },
}

/// What the type words `ty` are after integer promotion, or `None` for a type the
/// conversions do not know (a typedef kpl has not resolved here, a struct).
fn arith(ty: &[Tok]) -> Option<Arith> {
    let words: Vec<String> = ty
        .iter()
        .filter_map(|t| match &t.1 {
            CTok::Spec(w) | CTok::Ident(w) => Some(w.clone()),
            _ => None,
        })
        .collect();
    let has = |w: &str| words.iter().any(|x| x == w);
    let longs = words.iter().filter(|w| *w == "long").count();
    if let [one] = words.as_slice() {
        let known = match one.as_str() {
            "size_t" | "uint64_t" | "uintptr_t" => Some((64, true)),
            "ptrdiff_t" | "int64_t" | "intptr_t" | "ssize_t" => Some((64, false)),
            "uint32_t" | "uint" => Some((32, true)),
            "int32_t" => Some((32, false)),
            "int8_t" | "uint8_t" | "int16_t" | "uint16_t" | "bool" | "char" | "short" => Some((32, false)),
            _ => None,
        };
        if let Some((bits, unsigned)) = known {
            return Some(Arith::Int { bits, unsigned });
        }
    }
    if has("double") {
        return (longs == 0).then_some(Arith::Float { bits: 64 });
    }
    if has("float") {
        return Some(Arith::Float { bits: 32 });
    }
    let integer = words.iter().all(|w| ["int", "long", "short", "char", "unsigned", "signed"].contains(&w.as_str()));
    if !integer || words.is_empty() {
        return None;
    }
    let bits = if longs > 0 { 64 } else { 32 };
    // `unsigned char`/`unsigned short` promote to `int`.
    let narrow = has("char") || has("short");
    Some(Arith::Int { bits, unsigned: has("unsigned") && !narrow })
}

/// The common type of two operands (C11 6.3.1.8, on LP64).
fn common(a: Arith, b: Arith) -> Arith {
    match (a, b) {
        (Arith::Float { bits: x }, Arith::Float { bits: y }) => Arith::Float { bits: x.max(y) },
        (f @ Arith::Float { .. }, _) | (_, f @ Arith::Float { .. }) => f,
        (Arith::Int { bits: x, unsigned: u }, Arith::Int { bits: y, unsigned: v }) => {
            if x == y {
                Arith::Int { bits: x, unsigned: u || v }
            } else if x > y {
                Arith::Int { bits: x, unsigned: u }
            } else {
                Arith::Int { bits: y, unsigned: v }
            }
        }
    }
}

/// The type of an arithmetic expression `arg` of variables (by their declared types in
/// `decls`), elements `a[i]` of arrays and pointers, literals, parentheses and the
/// operators `+ - * / % & | ^ << >>` and unary `-`, as C types it. Where every operand
/// has the same declared type the conversions do not know (`floatX a, b; f(a + b)`), that
/// type. `None` for anything else: a call, a member, a comparison, a cast.
pub(crate) fn expr_type(arg: &[Tok], decls: &HashMap<String, (Vec<Tok>, bool)>) -> Option<Vec<Tok>> {
    const BINARY: &[&str] = &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"];
    let mut operands: Vec<(Vec<Tok>, Option<Arith>)> = Vec::new();
    // Operands of a shift's right side do not take part in its type.
    let mut shifted = false;
    let mut expect_operand = true;
    let mut i = 0;
    while i < arg.len() {
        let t = &arg[i];
        match &t.1 {
            CTok::P("(") | CTok::P(")") => {}
            CTok::P(p) if BINARY.contains(p) => {
                if expect_operand {
                    if *p != "-" {
                        return None;
                    }
                } else {
                    if *p == "<<" || *p == ">>" {
                        shifted = true;
                    }
                    expect_operand = true;
                }
            }
            _ if !expect_operand => return None,
            CTok::Ident(x) => {
                let (ty, ptr) = decls.get(x)?;
                let mut element = false;
                if arg.get(i + 1).is_some_and(|n| is_p(n, "[")) {
                    let close = crate::sema::coop::closing(arg, i + 1)?;
                    if !ptr || arg.get(close + 1).is_some_and(|n| is_p(n, "[")) {
                        return None;
                    }
                    element = true;
                    i = close;
                }
                if *ptr && !element {
                    return None;
                }
                if !shifted {
                    operands.push((ty.clone(), arith(ty)));
                }
                expect_operand = false;
            }
            CTok::Int(v, unsigned) | CTok::LongInt(v, unsigned) => {
                let long = matches!(t.1, CTok::LongInt(..)) || *v > i32::MAX as u64;
                let words: &[&str] = match (long, *unsigned) {
                    (false, false) => &["int"],
                    (false, true) => &["unsigned", "int"],
                    (true, false) => &["long"],
                    (true, true) => &["unsigned", "long"],
                };
                let ty: Vec<Tok> = words.iter().map(|w| (t.0, CTok::Spec(w.to_string()), t.2)).collect();
                if !shifted {
                    let a = arith(&ty);
                    operands.push((ty, a));
                }
                expect_operand = false;
            }
            CTok::Float(_) => {
                let ty = vec![(t.0, CTok::Spec("float".to_string()), t.2)];
                if !shifted {
                    operands.push((ty, Some(Arith::Float { bits: 32 })));
                }
                expect_operand = false;
            }
            _ => return None,
        }
        i += 1;
    }
    if expect_operand || operands.is_empty() {
        return None;
    }
    // Operands of one type the conversions do not know: that type.
    if operands.iter().any(|o| o.1.is_none()) {
        let first = &operands[0].0;
        let same = operands.iter().all(|o| o.1.is_none() && spelled(&o.0) == spelled(first));
        return same.then(|| first.clone());
    }
    let result = operands.iter().filter_map(|o| o.1).reduce(common)?;
    // Spelled as the operand that has it, or as C spells it.
    if let Some(o) = operands.iter().find(|o| o.1 == Some(result) && arith_words(&o.0)) {
        return Some(o.0.clone());
    }
    let at = &arg[0];
    let words: &[&str] = match result {
        Arith::Float { bits: 64 } => &["double"],
        Arith::Float { .. } => &["float"],
        Arith::Int { bits: 64, unsigned: true } => &["unsigned", "long"],
        Arith::Int { bits: 64, unsigned: false } => &["long"],
        Arith::Int { unsigned: true, .. } => &["unsigned", "int"],
        Arith::Int { unsigned: false, .. } => &["int"],
    };
    Some(words.iter().map(|w| (at.0, CTok::Spec(w.to_string()), at.2)).collect())
}

/// Is `ty` spelled with its own words (not `char`/`short`, which promote)?
fn arith_words(ty: &[Tok]) -> bool {
    !ty.iter().any(|t| matches!(&t.1, CTok::Spec(w) | CTok::Ident(w) if ["char", "short", "bool", "int8_t", "uint8_t", "int16_t", "uint16_t"].contains(&w.as_str())))
}

fn spelled(ty: &[Tok]) -> Vec<&CTok> {
    ty.iter().map(|t| &t.1).collect()
}

/// The argument a template parameter `name` takes from a call argument `arg` given to a
/// function parameter `param` that names it inside a class template's arguments:
/// `std::bool_constant<Atomic>` given `std::bool_constant<false>{}` gives `false`,
/// `Vec<T, 4> v` given `Vec<float, 4>(...)` gives `float`.
pub(crate) fn from_class_argument(param: &[Tok], arg: &[Tok], name: &str) -> Option<Vec<Tok>> {
    let at = param.iter().position(|t| ident(t) == Some(name))?;
    // The class template whose arguments hold `name`: the identifier before the `<`
    // whose list contains it.
    let open = (1..at).rev().find(|&k| is_p(&param[k], "<"))?;
    let class = ident(&param[open - 1])?;
    let (list, _) = angle_args(param, open)?;
    let index = list.iter().position(|a| matches!(a.as_slice(), [t] if ident(t) == Some(name)))?;
    let named = arg.iter().position(|t| ident(t) == Some(class))?;
    if !arg.get(named + 1).is_some_and(|t| is_p(t, "<")) {
        return None;
    }
    let (given, after) = angle_args(arg, named + 1)?;
    // A value of that class: `C<...>{}` or `C<...>()` and nothing after it.
    let made = matches!(arg.get(after..), Some([o, c]) if (is_p(o, "{") && is_p(c, "}")) || (is_p(o, "(") && is_p(c, ")")));
    if !made {
        return None;
    }
    given.get(index).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::text::tokens::{cuda_tokens as toks, spelled as text};

    fn decls() -> HashMap<String, (Vec<Tok>, bool)> {
        let mut d = HashMap::new();
        for (n, ty, ptr) in [
            ("i", "int", false),
            ("u", "unsigned int", false),
            ("n", "size_t", false),
            ("l", "long", false),
            ("f", "float", false),
            ("d", "double", false),
            ("c", "char", false),
            ("p", "float", true),
            ("x", "floatX", false),
            ("y", "floatX", false),
        ] {
            d.insert(n.to_string(), (toks(ty), ptr));
        }
        d
    }

    fn ty(e: &str) -> Option<String> {
        expr_type(&toks(e), &decls()).map(|t| text(&t))
    }

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(ty("i + 1").as_deref(), Some("int"));
        assert_eq!(ty("(i + 1) * 8").as_deref(), Some("int"));
        assert_eq!(ty("i * u").as_deref(), Some("unsigned int"));
        assert_eq!(ty("u + l").as_deref(), Some("long"));
        assert_eq!(ty("i + n").as_deref(), Some("size_t"));
        assert_eq!(ty("i * f").as_deref(), Some("float"));
        assert_eq!(ty("f + d").as_deref(), Some("double"));
        assert_eq!(ty("c + c").as_deref(), Some("int"), "char promotes to int");
        assert_eq!(ty("-i").as_deref(), Some("int"));
        assert_eq!(ty("c << l").as_deref(), Some("int"), "a shift has its left operand's type");
        assert_eq!(ty("p[i] * 2").as_deref(), Some("float"));
        assert_eq!(ty("x + y").as_deref(), Some("floatX"));
        assert_eq!(ty("3000000000 + i").as_deref(), Some("long"));
    }

    #[test]
    fn anything_else_is_not_typed() {
        for e in ["x + i", "p + i", "g(i) + 1", "i < 2", "s.a + 1", "(float)i", "i +", "q + 1"] {
            assert_eq!(ty(e), None, "{e}");
        }
    }

    #[test]
    fn class_template_arguments() {
        let got = |p: &str, a: &str, n: &str| from_class_argument(&toks(p), &toks(a), n).map(|t| text(&t));
        assert_eq!(got("std::bool_constant<Atomic>", "std::bool_constant<false>{}", "Atomic").as_deref(), Some("false"));
        assert_eq!(got("Vec<T, 4> v", "Vec<float, 4>()", "T").as_deref(), Some("float"));
        assert_eq!(got("Vec<T, N> v", "Vec<float, 8>()", "N").as_deref(), Some("8"));
        assert_eq!(got("Vec<T, 4> v", "w", "T"), None);
        assert_eq!(got("Vec<T, 4> v", "Vec<float, 4>() + w", "T"), None);
    }
}
