//! The C lexer (logos) for the CUDA and OpenCL front ends: preprocessing tokens with byte
//! spans into the original file, and whether each starts a line (for directives).

use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use logos::Logos;

#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\f]+")]
#[logos(skip r"\\\r?\n")]
pub enum Raw {
    #[token("\n")]
    Newline,
    #[regex(r"//[^\n]*", allow_greedy = true)]
    LineComment,
    #[regex(r"/\*([^*]|\*+[^*/])*\*+/")]
    BlockComment,
    #[regex(r"/\*([^*]|\*+[^*/])*\**")]
    Unterminated,
    #[regex("[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    /// Integer or floating literal (pp-number): classified by the parser. C++14's digit
    /// separators (`1'000`) are part of it.
    #[regex(r"[0-9]([0-9A-Za-z_.]|'[0-9A-Za-z])*([eEpP][+-][0-9A-Za-z_.]*)*")]
    #[regex(r"\.[0-9][0-9A-Za-z_.]*([eEpP][+-][0-9A-Za-z_.]*)*")]
    Number,
    #[regex(r"'([^'\\\n]|\\.)+'")]
    Char,
    // A backslash-newline inside continues the literal on the next line.
    #[regex(r#""([^"\\\n]|\\.|\\\r?\n)*""#)]
    Str,
    #[regex(r"<<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|\|=|\^=|##")]
    #[regex(r"[-+*/%<>=!~&|^?:;,.()\[\]{}#]")]
    Punct,
}

/// A preprocessing token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PTok {
    pub kind: Kind,
    pub text: String,
    pub span: Span,
    /// First token on its line.
    pub bol: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Number,
    Char,
    Str,
    Punct,
}

/// Lex a C file. Comments and whitespace vanish; bad characters become diagnostics.
pub fn lex(src: &str) -> (Vec<PTok>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut errs: Vec<Diagnostic> = Vec::new();
    let mut lx = Raw::lexer(src);
    let mut bol = true;
    while let Some(t) = lx.next() {
        let r = lx.span();
        let span = Span::new(r.start, r.end);
        let kind = match t {
            Ok(Raw::Newline) => {
                bol = true;
                continue;
            }
            Ok(Raw::LineComment) => continue,
            Ok(Raw::BlockComment) => {
                if src[r.clone()].contains('\n') {
                    bol = true;
                }
                continue;
            }
            Ok(Raw::Unterminated) => {
                errs.push(
                    Diagnostic::error("unterminated block comment", Span::new(r.start, r.start + 2))
                        .with_help("close it with `*/`"),
                );
                break;
            }
            Ok(Raw::Ident) => Kind::Ident,
            Ok(Raw::Number) => Kind::Number,
            Ok(Raw::Char) => Kind::Char,
            Ok(Raw::Str) => Kind::Str,
            Ok(Raw::Punct) => Kind::Punct,
            Err(()) => {
                if let Some(last) = errs.last_mut() {
                    if last.span.end == r.start && last.message.starts_with("unexpected character") {
                        last.span.end = r.end;
                        continue;
                    }
                }
                let ch = src[r.clone()].chars().next().unwrap_or('?');
                errs.push(Diagnostic::error(format!("unexpected character `{}`", ch.escape_default()), span));
                continue;
            }
        };
        out.push(PTok { kind, text: src[r].to_string(), span, bol });
        bol = false;
    }
    (out, errs)
}
