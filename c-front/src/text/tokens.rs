//! Preprocessed tokens ─► parser tokens: keywords and specifier words by dialect,
//! literals classified and valued, `__attribute__((...))` and similar annotations dropped.

use crate::text::lexer::{Kind, PTok};
use crate::text::pp::{char_value, parse_int};
use kpl_lang::diagnostic::Diagnostic;
use std::fmt;

/// CUDA or OpenCL C: the same language with other names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Cuda,
    OpenCl,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CTok {
    Ident(String),
    /// A declaration specifier, qualifier or type word.
    Spec(String),
    Int(u64, bool),
    /// A 64-bit integer literal: value, unsigned.
    LongInt(u64, bool),
    Float(u32),
    Char(u32),
    Str,
    Kw(&'static str),
    P(&'static str),
}

impl fmt::Display for CTok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CTok::Ident(s) => write!(f, "identifier `{s}`"),
            CTok::Spec(s) => write!(f, "`{s}`"),
            CTok::Int(v, _) | CTok::LongInt(v, _) => write!(f, "number `{v}`"),
            CTok::Float(_) => write!(f, "a float literal"),
            CTok::Char(_) => write!(f, "a character literal"),
            CTok::Str => write!(f, "a string literal"),
            CTok::Kw(k) => write!(f, "`{k}`"),
            CTok::P(p) => write!(f, "`{p}`"),
        }
    }
}

/// How a token is written in source (a string literal as `"..."`), for messages that
/// show code kpl made.
pub fn spelling(t: &CTok) -> String {
    match t {
        CTok::Ident(s) | CTok::Spec(s) => s.clone(),
        CTok::Int(v, u) | CTok::LongInt(v, u) => format!("{v}{}", if *u { "u" } else { "" }),
        CTok::Float(bits) => format!("{:?}f", f32::from_bits(*bits)),
        CTok::Char(c) => char::from_u32(*c).map_or_else(|| format!("{c}"), |c| format!("{c:?}")),
        CTok::Str => "\"...\"".to_string(),
        CTok::Kw(k) => k.to_string(),
        CTok::P(p) => p.to_string(),
    }
}

/// Tokens as source text, for a message: spaces between them but inside parentheses, and
/// without the parentheses that hold one token or another pair (`((a)) + (4)` is
/// `a + 4`), as a macro's expansion has them.
pub fn render(toks: &[CTok]) -> String {
    let mut t: Vec<CTok> = toks.to_vec();
    // The index of the `)` that closes the `(` at `i`.
    let close = |t: &[CTok], i: usize| {
        let mut depth = 0;
        for (k, x) in t.iter().enumerate().skip(i) {
            match x {
                CTok::P("(") => depth += 1,
                CTok::P(")") => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                _ => {}
            }
        }
        None
    };
    let mut changed = true;
    while changed {
        changed = false;
        let mut i = 0;
        while i < t.len() {
            // `(` not a call's: what precedes it is no name and no `)`.
            let grouping = t[i] == CTok::P("(") && !(i > 0 && matches!(t[i - 1], CTok::Ident(_) | CTok::Spec(_) | CTok::P(")" | "]")));
            if let Some(c) = close(&t, i).filter(|_| grouping) {
                let one = c == i + 2;
                let pair = t[i + 1] == CTok::P("(") && close(&t, i + 1) == Some(c - 1);
                let whole = i == 0 && c == t.len() - 1;
                if one || pair || whole {
                    t.remove(c);
                    t.remove(i);
                    changed = true;
                    continue;
                }
            }
            i += 1;
        }
    }
    let mut out = String::new();
    for (k, x) in t.iter().enumerate() {
        let tight = k == 0 || matches!(t[k - 1], CTok::P("(")) || matches!(x, CTok::P(")")) || (matches!(x, CTok::P("(")) && matches!(t[k - 1], CTok::Ident(_)));
        if !tight {
            out.push(' ');
        }
        out.push_str(&spelling(x));
    }
    out
}

const COMMON_SPECS: &[&str] = &[
    "void",
    "int",
    "unsigned",
    "signed",
    "long",
    "short",
    "char",
    "float",
    "double",
    "bool",
    "_Bool",
    "size_t",
    // <stddef.h>'s and <stdint.h>'s pointer-sized integers.
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "const",
    "volatile",
    "static",
    "extern",
    "inline",
    "restrict",
    "__restrict",
    "__restrict__",
    "_Noreturn",
    // <stdint.h>'s exact-width types.
    "int8_t",
    "uint8_t",
    "int16_t",
    "uint16_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
];

/// <stdint.h>'s exact-width type names (a file's own `typedef` of one is ignored).
pub const STDINT: &[&str] = &[
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
];
const CUDA_SPECS: &[&str] = &[
    "__global__",
    "__device__",
    "__host__",
    "__shared__",
    "__constant__",
    "__forceinline__",
    "__noinline__",
    // C++'s `auto` variables take their initialiser's type (`auto_types.rs`).
    "auto",
    // <sys/types.h>'s names, which CUDA code takes for granted.
    "uint",
    "ushort",
    "uchar",
    // `<cuda_fp16.h>`'s and `<cuda_bf16.h>`'s 16-bit floats (`half` too, unless the file
    // names something else so: `convert`).
    "__half",
    "__nv_bfloat16",
    "nv_bfloat16",
    // cuRAND's generator states (`lower/builtins.rs`).
    "curandState",
    "curandState_t",
    "curandStateXORWOW_t",
    "curandStateMtgp32_t",
    "curandStateMtgp32",
];
const OPENCL_SPECS: &[&str] = &[
    "__kernel",
    "kernel",
    "__global",
    "global",
    "__local",
    "local",
    "__constant",
    "constant",
    "__private",
    "private",
    "uint",
    "uchar",
    "ushort",
    "ulong",
    "__read_only",
    "__write_only",
    "event_t",
    "half",
];
const KEYWORDS: &[&str] = &[
    "if", "else", "for", "while", "do", "break", "continue", "return", "switch", "case", "default",
    "goto", "sizeof", "typedef", "struct", "union", "enum", "asm", "true", "false", "template",
    "class",
];
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", "-", "+", "*", "/", "%", "<", ">", "=", "!",
    "~", "&", "|", "^", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "#",
];
/// Annotations with a parenthesised argument that carry nothing for verification.
const DROPPED: &[&str] = &[
    "__attribute__",
    "__attribute",
    "__declspec",
    "__launch_bounds__",
    "__align__",
    "alignas",
    "__builtin_expect_unused",
];

pub fn is_spec(word: &str, d: Dialect) -> bool {
    COMMON_SPECS.contains(&word)
        || match d {
            Dialect::Cuda => CUDA_SPECS.contains(&word),
            Dialect::OpenCl => OPENCL_SPECS.contains(&word),
        }
}

/// Convert preprocessed tokens for the parser; diagnostics for literals it cannot read.
pub fn convert(toks: &[PTok], d: Dialect) -> (Vec<(usize, CTok, usize)>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut errs = Vec::new();
    // CUDA's `half` is `<cuda_fp16.h>`'s type, unless the file uses the word as a name
    // (`int half(int)`, `&half`).
    let half_type = d == Dialect::Cuda
        && !toks.iter().enumerate().any(|(k, t)| {
            let text = |k: usize| toks.get(k).map(|t| t.text.as_str());
            t.text == "half"
                && (text(k + 1) == Some("(")
                    || k.checked_sub(1)
                        .is_some_and(|p| matches!(text(p), Some("&" | "." | "->"))))
        });
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let sp = t.span;
        let tok = match t.kind {
            Kind::Ident if DROPPED.contains(&t.text.as_str()) => {
                // Skip the balanced parenthesised argument that follows (keeping only
                // `noreturn`, which changes what a call means).
                let mut j = i + 1;
                let mut depth = 0;
                while j < toks.len() {
                    match toks[j].text.as_str() {
                        "(" => depth += 1,
                        ")" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                if toks[i..j.min(toks.len())]
                    .iter()
                    .any(|t| t.text == "noreturn" || t.text == "__noreturn__")
                {
                    out.push((sp.start, CTok::Spec("_Noreturn".into()), sp.end));
                }
                i = j + 1;
                continue;
            }
            // `__grid_constant__` (a by-value parameter the kernel does not write): nothing to
            // verification, which finds any write anyway.
            Kind::Ident if d == Dialect::Cuda && t.text == "__grid_constant__" => {
                i += 1;
                continue;
            }
            // `<time.h>`'s `clock_t`, what CUDA's `clock()` returns: a `long`, 64 bits.
            Kind::Ident if d == Dialect::Cuda && t.text == "clock_t" => {
                out.push((sp.start, CTok::Spec("long".into()), sp.end));
                CTok::Spec("long".into())
            }
            // GNU C's spellings of `inline`.
            Kind::Ident if t.text == "__inline__" || t.text == "__inline" => {
                CTok::Spec("inline".into())
            }
            Kind::Ident if is_spec(&t.text, d) || (half_type && t.text == "half") => {
                CTok::Spec(t.text.clone())
            }
            Kind::Ident => match KEYWORDS.iter().find(|k| **k == t.text) {
                Some(k) => CTok::Kw(k),
                None => CTok::Ident(t.text.clone()),
            },
            Kind::Number => match number(&t.text) {
                Some(n) => n,
                None => {
                    errs.push(Diagnostic::error(
                        format!("`{}` is not a number kpl understands", t.text),
                        sp,
                    ));
                    CTok::Int(0, false)
                }
            },
            Kind::Char => CTok::Char(char_value(&t.text).unwrap_or_else(|| {
                errs.push(Diagnostic::error(
                    format!("unknown character literal {}", t.text),
                    sp,
                ));
                0
            })),
            Kind::Str => CTok::Str,
            Kind::Punct => match PUNCTS.iter().find(|p| **p == t.text) {
                Some(p) => CTok::P(p),
                None => {
                    errs.push(Diagnostic::error(format!("unexpected `{}`", t.text), sp));
                    i += 1;
                    continue;
                }
            },
        };
        out.push((sp.start, tok, sp.end.max(sp.start)));
        i += 1;
    }
    (out, errs)
}

/// Keywords and tokens of constructs outside the subset, with what to say about them.
const OUTSIDE: &[(&str, &str)] = &[
    ("class", "classes (CUDA.md tier 3)"),
    ("template", "this template (kpl instantiates function and class templates and explicit specialisations of class templates; partial specialisations and member templates are CUDA.md tier 3)"),
    ("sizeof", "`sizeof` of this type"),
    ("asm", "inline assembly"),
];

/// One diagnostic per construct outside the subset (the first use of each).
pub fn unsupported(toks: &[(usize, CTok, usize)]) -> Vec<Diagnostic> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for (i, (l, t, r)) in toks.iter().enumerate() {
        let word = match t {
            CTok::Kw(k) => *k,
            CTok::P(p) => *p,
            _ => continue,
        };
        // `sizeof e` of an expression is read (`sizeof_expr.rs`); `sizeof(T)` of a type
        // that was not folded is not.
        let type_follows = matches!(toks.get(i + 1), Some((_, CTok::P("("), _)))
            && matches!(toks.get(i + 2), Some((_, CTok::Spec(_), _)));
        if word == "sizeof" && !type_follows {
            continue;
        }
        if let Some((w, what)) = OUTSIDE.iter().find(|(w, _)| *w == word) {
            if !seen.contains(w) {
                seen.push(*w);
                out.push(
                    Diagnostic::error(
                        format!("not supported: {what}"),
                        kpl_lang::span::Span::new(*l, *r),
                    )
                    .with_help("kpl accepts the tier-1 subset of CUDA.md; the manual lists it (docs/src/cuda-opencl.md)"),
                );
            }
        }
    }
    out
}

/// An integer or floating literal.
fn number(s: &str) -> Option<CTok> {
    // C++14's digit separators carry nothing.
    let s = &s.replace('\'', "");
    let lower = s.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = (!is_hex && (lower.contains('.') || lower.contains('e')))
        || (!is_hex && lower.ends_with('f'))
        || (is_hex && lower.contains('p'));
    if is_float {
        let t = lower.trim_end_matches(['f', 'l']);
        let v: f64 = t.parse().ok()?;
        return Some(CTok::Float((v as f32).to_bits()));
    }
    let v = parse_int(s)?;
    let unsigned_suffix =
        lower.trim_end_matches('l').ends_with('u') || lower.contains("ul") || lower.contains("lu");
    let long_suffix = lower.trim_end_matches('u').ends_with('l');
    // C99's literal types: a decimal literal too big for `int` is `long` (64 bits), a hex or
    // octal one becomes `unsigned int` while it fits in 32 bits; an `l` suffix makes it long.
    let octal_or_hex = is_hex || s.starts_with('0');
    let fits = if unsigned_suffix || octal_or_hex {
        v <= u32::MAX as u64
    } else {
        v <= i32::MAX as u64
    };
    if long_suffix || !fits {
        return Some(CTok::LongInt(v, unsigned_suffix || v > i64::MAX as u64));
    }
    let unsigned = unsigned_suffix || v > i32::MAX as u64;
    Some(CTok::Int(v, unsigned))
}

/// CUDA source as tokens, for the token passes' tests.
#[cfg(test)]
pub(crate) fn cuda_tokens(src: &str) -> Vec<(usize, CTok, usize)> {
    let (lexed, _) = crate::text::lexer::lex(src);
    convert(&lexed, Dialect::Cuda).0
}

/// Tokens spelled with a space between each, for the token passes' tests.
#[cfg(test)]
pub(crate) fn spelled(toks: &[(usize, CTok, usize)]) -> String {
    toks.iter().map(|t| spelling(&t.1)).collect::<Vec<_>>().join(" ")
}
