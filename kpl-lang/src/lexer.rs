//! The KPL lexer (logos): source text to tokens with byte spans; comments are kept aside
//! for the formatter and lexical errors are collected instead of stopping the parse.

use crate::diagnostic::Diagnostic;
use crate::span::Span;
use logos::Logos;
use std::fmt;

/// A KPL token. Numbers keep their value saturated at `u64::MAX` so that the checker,
/// not the lexer, reports literals over 32 bits with their span.
#[derive(Logos, Clone, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
pub enum Tok<'a> {
    #[token("kernel")]
    Kernel,
    #[token("groups")]
    Groups,
    #[token("threads")]
    Threads,
    #[token("shared")]
    Shared,
    #[token("global")]
    Global,
    #[token("param")]
    Param,
    #[token("requires")]
    Requires,
    #[token("proc")]
    Proc,
    #[token("main")]
    Main,
    #[token("local")]
    Local,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("invariant")]
    Invariant,
    #[token("candidate")]
    Candidate,
    #[token("barrier")]
    Barrier,
    #[token("atomic")]
    Atomic,
    #[token("warp")]
    Warp,
    #[token("break")]
    Break,
    #[token("continue")]
    Continue,
    #[token("return")]
    Return,
    #[token("assert")]
    Assert,
    #[token("assume")]
    Assume,
    #[token("havoc")]
    Havoc,
    #[token("for")]
    For,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("lid")]
    Lid,
    #[token("gid")]
    Gid,

    #[regex("[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice())]
    Ident(&'a str),
    #[regex("[0-9]+", |lex| parse_num(lex.slice(), 10))]
    #[regex("0[xX][0-9a-fA-F]+", |lex| parse_num(&lex.slice()[2..], 16))]
    Num(u64),

    #[regex(r"//[^\n]*", allow_greedy = true)]
    LineComment,
    #[regex(r"/\*([^*]|\*+[^*/])*\*+/")]
    BlockComment,
    /// `/*` without its `*/`: lexed to the end of the file, then reported.
    #[regex(r"/\*([^*]|\*+[^*/])*\**")]
    UnterminatedComment,

    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token(",")]
    Comma,
    #[token(".")]
    Dot,
    #[token(":=")]
    Assign,
    #[token("?")]
    Question,
    #[token("||")]
    OrOr,
    #[token("&&")]
    AndAnd,
    #[token("|")]
    Or,
    #[token("^")]
    Xor,
    #[token("&")]
    And,
    #[token("==")]
    EqEq,
    #[token("!=")]
    Ne,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("!")]
    Bang,
    #[token("~")]
    Tilde,
}

fn parse_num(digits: &str, radix: u32) -> u64 {
    digits.chars().fold(0u64, |acc, c| {
        let d = c.to_digit(radix).unwrap_or(0) as u64;
        acc.saturating_mul(radix as u64).saturating_add(d)
    })
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "identifier `{s}`"),
            Tok::Num(n) => write!(f, "number `{n}`"),
            other => write!(f, "`{}`", token_text(other)),
        }
    }
}

/// The fixed spelling of a token (for messages).
pub fn token_text(t: &Tok) -> &'static str {
    use Tok::*;
    match t {
        Kernel => "kernel",
        Groups => "groups",
        Threads => "threads",
        Shared => "shared",
        Global => "global",
        Param => "param",
        Requires => "requires",
        Proc => "proc",
        Main => "main",
        Local => "local",
        If => "if",
        Else => "else",
        While => "while",
        Invariant => "invariant",
        For => "for",
        Candidate => "candidate",
        Barrier => "barrier",
        Atomic => "atomic",
        Warp => "warp",
        Break => "break",
        Continue => "continue",
        Return => "return",
        Assert => "assert",
        Assume => "assume",
        Havoc => "havoc",
        True => "true",
        False => "false",
        Lid => "lid",
        Gid => "gid",
        Ident(_) => "identifier",
        Num(_) => "number",
        LineComment | BlockComment | UnterminatedComment => "comment",
        LBrace => "{",
        RBrace => "}",
        LParen => "(",
        RParen => ")",
        LBrack => "[",
        RBrack => "]",
        Semi => ";",
        Colon => ":",
        Comma => ",",
        Dot => ".",
        Assign => ":=",
        Question => "?",
        OrOr => "||",
        AndAnd => "&&",
        Or => "|",
        Xor => "^",
        And => "&",
        EqEq => "==",
        Ne => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        Shl => "<<",
        Shr => ">>",
        Plus => "+",
        Minus => "-",
        Star => "*",
        Slash => "/",
        Percent => "%",
        Bang => "!",
        Tilde => "~",
    }
}

/// A comment in the source, kept for the formatter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub span: Span,
    pub text: String,
}

/// The result of lexing a whole file: tokens for the parser, comments for the formatter,
/// and diagnostics for characters that form no token.
pub struct Lexed<'a> {
    pub tokens: Vec<(usize, Tok<'a>, usize)>,
    pub comments: Vec<Comment>,
    pub errors: Vec<Diagnostic>,
}

/// Lex `src`. Never fails: a bad character becomes a diagnostic and is skipped, so the
/// parser still sees the rest of the file.
pub fn lex(src: &str) -> Lexed<'_> {
    let mut tokens = Vec::new();
    let mut comments = Vec::new();
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut lexer = Tok::lexer(src);
    while let Some(tok) = lexer.next() {
        let r = lexer.span();
        let span = Span::new(r.start, r.end);
        match tok {
            Ok(Tok::LineComment) | Ok(Tok::BlockComment) => comments.push(Comment {
                span,
                text: src[r.clone()].trim_end().to_string(),
            }),
            Ok(Tok::UnterminatedComment) => errors.push(
                Diagnostic::error("unterminated block comment", Span::new(r.start, r.start + 2))
                    .with_help("close it with `*/`; block comments do not nest"),
            ),
            Ok(t) => tokens.push((r.start, t, r.end)),
            Err(()) => {
                let text = &src[r.clone()];
                let d = {
                    // Merge with the previous error if it is adjacent (a run of bad bytes).
                    if let Some(last) = errors.last_mut() {
                        if last.span.end == r.start && last.message.starts_with("unexpected character") {
                            last.span.end = r.end;
                            continue;
                        }
                    }
                    let ch = text.chars().next().unwrap_or('?');
                    let mut d = Diagnostic::error(format!("unexpected character `{}`", ch.escape_default()), span);
                    if text.starts_with('=') {
                        d = d.with_help("assignment is `:=`; equality is `==`");
                    } else if text.starts_with("0x") || text.starts_with("0X") {
                        d = d.with_help("a hexadecimal literal needs digits after `0x`");
                    }
                    d
                };
                errors.push(d);
            }
        }
    }
    Lexed { tokens, comments, errors }
}
