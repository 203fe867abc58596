//! The parser's errors as diagnostics: what was expected, named in groups ("an
//! expression", "an operator"), an unknown type name told apart, a missing `;` suggested.

use crate::text::tokens;
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use lalrpop_util::{ErrorRecovery, ParseError};

/// Tokens that start an expression, and binary operators: named as groups in messages.
const EXPR_START: &[&str] = &["IDENT", "INT", "FLOAT", "CHAR", "\"(\"", "\"-\"", "\"!\"", "\"~\""];
const OPERATORS: &[&str] = &["\"+\"", "\"*\"", "\"/\"", "\"==\"", "\"<\"", "\"&&\"", "\"||\"", "\"=\""];

fn describe(expected: &[String]) -> String {
    let has = |t: &str| expected.iter().any(|e| e == t);
    let expr = EXPR_START.iter().all(|t| has(t));
    let ops = OPERATORS.iter().filter(|t| has(t)).count() >= 4;
    let mut names: Vec<String> = Vec::new();
    if has("\";\"") {
        names.push("`;`".into());
    }
    if has("\")\"") {
        names.push("`)`".into());
    }
    if has("\"]\"") {
        names.push("`]`".into());
    }
    if expr {
        names.push("an expression".into());
    }
    if ops {
        names.push("an operator".into());
    }
    if names.is_empty() {
        names = expected
            .iter()
            .take(8)
            .map(|e| match e.as_str() {
                "IDENT" => "identifier".into(),
                "SPEC" => "a type".into(),
                "INT" | "FLOAT" | "CHAR" => "a number".into(),
                s => format!("`{}`", s.trim_matches('"')),
            })
            .collect();
        names.dedup();
    }
    match names.len() {
        0 => String::new(),
        1 => format!("expected {}", names[0]),
        _ => format!("expected one of {}", names.join(", ")),
    }
}

pub(crate) fn to_diagnostic(r: ErrorRecovery<usize, tokens::CTok, ()>, src: &str) -> Diagnostic {
    match r.error {
        ParseError::UnrecognizedToken { token: (l, t, rr), expected } => {
            // `fp *d_in` or `knode k` where a type may stand: a type kpl was never told of
            // (typically declared in a file that includes this one).
            let next = src.get(rr..).map(|s| s.trim_start()).unwrap_or("");
            if let tokens::CTok::Ident(name) = &t {
                let declares = next.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '*' || c == '&');
                if declares && expected.iter().any(|x| x == "SPEC") {
                    return Diagnostic::error(format!("unknown type name `{name}`"), Span::new(l, rr)).with_help(format!(
                        "kpl knows the types this file and the headers it includes declare; if `{name}` comes from a file that includes this one, include that header here or define it, e.g. `-D {name}=float`"
                    ));
                }
            }
            let e = describe(&expected);
            let msg = if e.is_empty() { format!("unexpected {t}") } else { format!("{e}, found {t}") };
            let mut d = Diagnostic::error(msg, Span::new(l, rr));
            let newline_before = src[..l.min(src.len())].trim_end_matches([' ', '\t']).ends_with('\n');
            if expected.iter().any(|x| x == "\";\"") && newline_before {
                d = d.with_help("is a `;` missing at the end of the previous line?");
            }
            d
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let loc = location.min(src.len());
            Diagnostic::error("unexpected end of file", Span::new(loc, loc)).with_label(describe(&expected))
        }
        ParseError::ExtraToken { token: (l, t, rr) } => Diagnostic::error(format!("unexpected {t}"), Span::new(l, rr)),
        ParseError::InvalidToken { location } => Diagnostic::error("invalid token", Span::new(location, location + 1)),
        ParseError::User { .. } => Diagnostic::error("syntax error", Span::new(0, 0)),
    }
}
