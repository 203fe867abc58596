//! Parsing KPL: runs the lexer and the lalrpop grammar, recovers from syntax errors and
//! turns every error into a `Diagnostic`.

use crate::ast::Kernel;
use crate::diagnostic::Diagnostic;
use crate::lexer::{lex, Comment, Tok};
use crate::span::Span;
use lalrpop_util::{lalrpop_mod, ErrorRecovery, ParseError};

lalrpop_mod!(
    #[allow(clippy::all, unused_parens, dead_code)]
    grammar
);

/// An error raised by a grammar action (e.g. an unknown axis).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserError {
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
}

/// What parsing a file gives: the kernel (if the parser got to the end), the comments,
/// and every lexical and syntax error, in source order.
pub struct Parsed {
    pub kernel: Option<Kernel>,
    pub comments: Vec<Comment>,
    pub errors: Vec<Diagnostic>,
}

/// Parse a KPL file. Never panics; reports as many errors as recovery finds.
pub fn parse(src: &str) -> Parsed {
    let lexed = lex(src);
    let mut errors = lexed.errors;
    let mut recovered = Vec::new();
    let tokens = lexed.tokens.into_iter().map(Ok::<_, UserError>);
    let result = grammar::KernelParser::new().parse(&mut recovered, tokens);
    for r in recovered {
        errors.push(to_diagnostic(r, src));
    }
    let kernel = match result {
        Ok(k) => Some(k),
        Err(e) => {
            errors.push(to_diagnostic(ErrorRecovery { error: e, dropped_tokens: vec![] }, src));
            None
        }
    };
    errors.sort_by_key(|d| d.span.start);
    errors.dedup_by(|a, b| a.span == b.span && a.message == b.message);
    Parsed { kernel, comments: lexed.comments, errors }
}

/// Parse a single expression (used by tests and the C front end's annotations).
pub fn parse_expr(src: &str) -> Result<crate::ast::Expr, Vec<Diagnostic>> {
    let lexed = lex(src);
    if !lexed.errors.is_empty() {
        return Err(lexed.errors);
    }
    let mut recovered = Vec::new();
    let tokens = lexed.tokens.into_iter().map(Ok::<_, UserError>);
    match grammar::ExprParser::new().parse(&mut recovered, tokens) {
        Ok(e) if recovered.is_empty() => Ok(e),
        Ok(_) => Err(recovered.into_iter().map(|r| to_diagnostic(r, src)).collect()),
        Err(e) => Err(vec![to_diagnostic(ErrorRecovery { error: e, dropped_tokens: vec![] }, src)]),
    }
}

/// Tokens that can start an expression; when all of them are expected, say "an expression".
const EXPR_START: &[&str] = &[
    "NUM", "IDENT", "\"true\"", "\"false\"", "\"lid\"", "\"gid\"", "\"threads\"", "\"groups\"", "\"(\"",
    "\"!\"", "\"~\"", "\"-\"",
];

/// Binary operators; when most of them are expected, say "an operator".
const OPERATORS: &[&str] = &[
    "\"?\"", "\"||\"", "\"&&\"", "\"|\"", "\"^\"", "\"&\"", "\"==\"", "\"!=\"", "\"<\"", "\"<=\"", "\">\"",
    "\">=\"", "\"<<\"", "\">>\"", "\"+\"", "\"-\"", "\"*\"", "\"/\"", "\"%\"",
];

fn describe_expected(expected: &[String]) -> String {
    let expr = EXPR_START.iter().all(|t| expected.iter().any(|e| e == t));
    let ops = OPERATORS.iter().filter(|t| expected.iter().any(|e| e == *t)).count() >= 5;
    let mut names: Vec<String> = Vec::new();
    if expr {
        names.push("an expression".to_string());
    }
    let skip = |e: &str| (expr && EXPR_START.contains(&e)) || (ops && OPERATORS.contains(&e));
    names.extend(expected.iter().filter(|e| !skip(e)).map(|e| match e.as_str() {
            "IDENT" => "identifier".to_string(),
            "NUM" => "number".to_string(),
            s => format!("`{}`", s.trim_matches('"')),
        }));
    if ops {
        names.push("an operator".to_string());
    }
    names.dedup();
    match names.len() {
        0 => String::new(),
        1 => format!("expected {}", names[0]),
        2 => format!("expected {} or {}", names[0], names[1]),
        n if n <= 8 => format!("expected one of {}", names.join(", ")),
        _ => format!("expected one of {}, ...", names[..8].join(", ")),
    }
}

fn to_diagnostic(r: ErrorRecovery<usize, Tok<'_>, UserError>, src: &str) -> Diagnostic {
    match r.error {
        ParseError::InvalidToken { location } => {
            Diagnostic::error("invalid token", Span::new(location, location + 1))
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let loc = location.min(src.len());
            let exp = describe_expected(&expected);
            let mut d = Diagnostic::error("unexpected end of file", Span::new(loc, loc));
            if !exp.is_empty() {
                d = d.with_label(exp);
            }
            if expected.iter().any(|e| e == "\"}\"") {
                d = d.with_help("a `{` is not closed");
            }
            d
        }
        ParseError::UnrecognizedToken { token: (l, t, rr), expected } => {
            let exp = describe_expected(&expected);
            let msg = if exp.is_empty() {
                format!("unexpected {t} after the end of the kernel (a file holds one kernel)")
            } else {
                format!("{exp}, found {t}")
            };
            let mut d = Diagnostic::error(msg, Span::new(l, rr));
            d = hint_for(d, &t, &expected);
            d
        }
        ParseError::ExtraToken { token: (l, t, rr) } => {
            Diagnostic::error(format!("unexpected {t} after the end of the kernel"), Span::new(l, rr))
        }
        ParseError::User { error } => {
            let mut d = Diagnostic::error(error.message, error.span);
            if let Some(h) = error.help {
                d = d.with_help(h);
            }
            d
        }
    }
}

fn hint_for(d: Diagnostic, t: &Tok, expected: &[String]) -> Diagnostic {
    let exp = |s: &str| expected.iter().any(|e| e.trim_matches('"') == s);
    match t {
        Tok::Groups | Tok::Threads | Tok::Shared | Tok::Global | Tok::Param | Tok::Requires
            if exp("main") || exp("proc") =>
        {
            d.with_help("declarations come first, then procs, then `main`")
        }
        Tok::Proc if exp("main") => d.with_help("procs come before `main`"),
        Tok::Ident(_) | Tok::Local | Tok::If | Tok::While | Tok::Barrier | Tok::Atomic | Tok::Warp | Tok::Break | Tok::Continue
        | Tok::Return | Tok::Assert | Tok::Assume | Tok::Havoc | Tok::RBrace
            if exp(";") =>
        {
            d.with_help("is a `;` missing before this?")
        }
        Tok::Lid | Tok::Gid | Tok::Threads | Tok::Groups if exp(":=") || exp("(") => {
            d.with_help("`lid`, `gid`, `threads` and `groups` are keywords and cannot be assigned or declared")
        }
        _ => d,
    }
}
