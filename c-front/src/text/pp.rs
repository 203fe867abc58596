//! The C preprocessor, on tokens: object- and function-like `#define` (with `#` and `##`),
//! `#undef`, `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif` with integer constant
//! expressions and `defined`, `-D NAME[=V]`; `#include` of the headers gathered into the
//! source (`include.rs`; system headers are empty), `#pragma once`; other `#pragma`s and
//! `#line` are ignored. Every output token keeps a span into the source: a token a macro
//! produced has the span of the macro's use, a header's tokens spans into its segment.

use crate::text::include;
use crate::text::lexer::{Kind, PTok, lex};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::sources::{self, Segment};
use kpl_lang::span::Span;
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug)]
struct Macro {
    params: Option<Vec<String>>,
    variadic: bool,
    body: Vec<PTok>,
}

pub struct Preprocessed {
    pub tokens: Vec<PTok>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

/// Where `#include` looks: the main file's path as given (headers are found beside it)
/// and the `-I` directories.
pub struct Search<'a> {
    pub main: &'a str,
    pub dirs: &'a [String],
}

/// Preprocess `src` (the main file and the headers gathered after it, `sources.rs`) with
/// the given `-D` definitions (`NAME` or `NAME=VALUE`) and the dialect's predefined macros.
pub fn preprocess(src: &str, defines: &[String], predefined: &[(&str, &str)], search: &Search) -> Preprocessed {
    let segments = sources::segments(src);
    let (toks, mut errors) = lex(segments[0].text);
    let mut p = Pp {
        macros: HashMap::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        depth: 0,
        budget: MAX_EXPANDED_TOKENS,
        exhausted: false,
        segments,
        main: search.main,
        dirs: search.dirs,
        nesting: 0,
        once: HashSet::new(),
    };
    for (n, v) in predefined {
        p.define_text(n, v);
    }
    for d in defines {
        let (n, v) = d.split_once('=').unwrap_or((d.as_str(), "1"));
        p.define_text(n.trim(), v);
    }
    let tokens = p.run(&toks);
    errors.extend(p.errors);
    Preprocessed { tokens, errors, warnings: p.warnings }
}

/// The most tokens macro bodies may produce in one file: past it (a runaway macro that
/// doubles at each level) expansion stops with a diagnostic.
pub const MAX_EXPANDED_TOKENS: usize = 2_000_000;

/// How deeply `#include`s may nest (an include cycle without a guard ends here).
pub const MAX_INCLUDE_DEPTH: usize = 100;

struct Pp<'a> {
    /// The files of the source, the main one first.
    segments: Vec<Segment<'a>>,
    main: &'a str,
    dirs: &'a [String],
    /// `#include`s being read now.
    nesting: usize,
    /// Files that said `#pragma once` (indices into `segments`).
    once: HashSet<usize>,
    macros: HashMap<String, Macro>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    depth: usize,
    /// Tokens macro bodies may still produce (`MAX_EXPANDED_TOKENS`).
    budget: usize,
    /// The budget ran out (and that was reported).
    exhausted: bool,
}

/// One level of `#if` nesting.
struct Cond {
    /// Some branch of this `#if` was taken.
    taken: bool,
    /// The current branch is active.
    active: bool,
    /// `#else` was seen.
    seen_else: bool,
    span: Span,
}

fn punct(t: &PTok, s: &str) -> bool {
    t.kind == Kind::Punct && t.text == s
}

impl Pp<'_> {
    /// A predefined or `-D` macro: `NAME` or, function-like, `NAME(a, b)`.
    fn define_text(&mut self, name: &str, value: &str) {
        let (mut body, _) = lex(value);
        for t in &mut body {
            t.span = Span::DUMMY;
        }
        let (name, params) = match name.split_once('(') {
            Some((n, ps)) => (n, Some(ps.trim_end_matches(')').split(',').map(|p| p.trim().to_string()).collect())),
            None => (name, None),
        };
        self.macros.insert(name.to_string(), Macro { params, variadic: false, body });
    }

    fn err(&mut self, msg: impl Into<String>, span: Span) {
        self.errors.push(Diagnostic::error(msg, span));
    }

    fn run(&mut self, toks: &[PTok]) -> Vec<PTok> {
        let mut out = Vec::new();
        let mut conds: Vec<Cond> = Vec::new();
        let mut i = 0;
        let mut text: Vec<PTok> = Vec::new();
        while i < toks.len() {
            let t = &toks[i];
            if t.bol && punct(t, "#") {
                // Flush ordinary text before the directive.
                if !text.is_empty() {
                    let expanded = self.expand(&text, &HashSet::new());
                    out.extend(expanded);
                    text.clear();
                }
                let mut j = i + 1;
                while j < toks.len() && !toks[j].bol {
                    j += 1;
                }
                let line = &toks[i + 1..j];
                let included = self.directive(t.span, line, &mut conds);
                out.extend(included);
                i = j;
                continue;
            }
            if conds.iter().all(|c| c.active) {
                text.push(t.clone());
            }
            i += 1;
        }
        if !text.is_empty() {
            out.extend(self.expand(&text, &HashSet::new()));
        }
        for c in conds {
            self.err("`#if` without `#endif`", c.span);
        }
        out
    }

    /// Carry out a directive; gives the tokens of an included file.
    fn directive(&mut self, hash: Span, line: &[PTok], conds: &mut Vec<Cond>) -> Vec<PTok> {
        let active = conds.iter().all(|c| c.active);
        let Some(name) = line.first() else { return Vec::new() };
        let rest = &line[1..];
        let span = hash.to(line.last().map(|t| t.span).unwrap_or(hash));
        match name.text.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let v = if !active {
                    false
                } else if name.text == "if" {
                    self.eval(rest, span) != 0
                } else {
                    let Some(id) = rest.first().filter(|t| t.kind == Kind::Ident) else {
                        self.err(format!("`#{}` needs a macro name", name.text), span);
                        conds.push(Cond { taken: true, active: false, seen_else: false, span });
                        return Vec::new();
                    };
                    self.macros.contains_key(&id.text) == (name.text == "ifdef")
                };
                conds.push(Cond { taken: v, active: active && v, seen_else: false, span });
            }
            "elif" => {
                let outer = conds.len() <= 1 || conds[..conds.len() - 1].iter().all(|c| c.active);
                let Some(c) = conds.last() else {
                    self.err("`#elif` without `#if`", span);
                    return Vec::new();
                };
                if c.seen_else {
                    self.err("`#elif` after `#else`", span);
                }
                let taken = c.taken;
                let v = outer && !taken && self.eval(rest, span) != 0;
                if let Some(c) = conds.last_mut() {
                    c.active = v;
                    c.taken |= v;
                }
            }
            "else" => {
                let outer = conds.len() <= 1 || conds[..conds.len() - 1].iter().all(|c| c.active);
                match conds.last_mut() {
                    Some(c) if !c.seen_else => {
                        c.seen_else = true;
                        c.active = outer && !c.taken;
                        c.taken = true;
                    }
                    Some(_) => self.err("a second `#else`", span),
                    None => self.err("`#else` without `#if`", span),
                }
            }
            "endif" => {
                if conds.pop().is_none() {
                    self.err("`#endif` without `#if`", span);
                }
            }
            _ if !active => {}
            "define" => self.define(rest, span),
            "undef" => {
                if let Some(id) = rest.first() {
                    self.macros.remove(&id.text);
                }
            }
            "include" => return self.include(rest, span),
            "pragma" if rest.first().is_some_and(|t| t.text == "once") => {
                let here = self.file_of(span.start);
                self.once.insert(here);
            }
            "pragma" | "line" => {}
            "error" => {
                let msg: Vec<&str> = rest.iter().map(|t| t.text.as_str()).collect();
                self.err(format!("#error {}", msg.join(" ")), span);
            }
            "warning" => {
                let msg: Vec<&str> = rest.iter().map(|t| t.text.as_str()).collect();
                self.warnings.push(Diagnostic::warning(format!("#warning {}", msg.join(" ")), span));
            }
            other => self.err(format!("unknown preprocessor directive `#{other}`"), span),
        }
        Vec::new()
    }

    /// The file (index into `segments`) that holds a byte offset.
    fn file_of(&self, offset: usize) -> usize {
        sources::index_at(&self.segments, offset)
    }

    /// `#include "f"` or `#include <f>` (or a macro that expands to one): the file's
    /// tokens, preprocessed; nothing for a system header.
    fn include(&mut self, rest: &[PTok], span: Span) -> Vec<PTok> {
        let direct = rest.first().is_some_and(|t| t.kind == Kind::Str || punct(t, "<"));
        let toks = if direct { rest.to_vec() } else { self.expand(rest, &HashSet::new()) };
        let (name, quoted) = match toks.first() {
            Some(t) if t.kind == Kind::Str && t.text.len() >= 2 => (t.text[1..t.text.len() - 1].to_string(), true),
            Some(t) if punct(t, "<") && toks.iter().any(|t| punct(t, ">")) => {
                let names: Vec<&str> = toks[1..].iter().take_while(|t| !punct(t, ">")).map(|t| t.text.as_str()).collect();
                (names.concat(), false)
            }
            _ => {
                self.err("`#include` needs a file: `\"FILE\"` or `<FILE>`", span);
                return Vec::new();
            }
        };
        let from = self.file_of(span.start);
        let from_name = self.segments[from].shown(self.main);
        // The main file is a segment too (it may include itself, behind a guard).
        let main = include::normalize(self.main);
        let found = include::candidates(from_name, &name, quoted, self.dirs)
            .iter()
            .find_map(|c| self.segments.iter().position(|g| g.name.unwrap_or(&main) == c.as_str()));
        let Some(k) = found else {
            // A system header read as empty still gives the constants kernels use of it.
            for (n, v) in include::header_macros(&name) {
                if !self.macros.contains_key(*n) {
                    self.define_text(n, v);
                }
            }
            if quoted && !include::is_system_header(&name) {
                let d = Diagnostic::error(format!("cannot find `{name}`: it is not beside `{from_name}` nor in an `-I` directory"), span)
                    .with_help("give the directory that holds it with `-I DIR`");
                self.errors.push(d);
            }
            return Vec::new();
        };
        if self.once.contains(&k) {
            return Vec::new();
        }
        if self.nesting >= MAX_INCLUDE_DEPTH {
            self.err(format!("`#include`s nest more than {MAX_INCLUDE_DEPTH} deep (does `{name}` include itself without a guard?)"), span);
            return Vec::new();
        }
        let g = self.segments[k];
        let (mut toks, errs) = lex(g.text);
        for t in &mut toks {
            t.span = Span::new(t.span.start + g.start, t.span.end + g.start);
        }
        for mut e in errs {
            e.span = Span::new(e.span.start + g.start, e.span.end + g.start);
            self.errors.push(e);
        }
        self.nesting += 1;
        let out = self.run(&toks);
        self.nesting -= 1;
        out
    }

    fn define(&mut self, rest: &[PTok], span: Span) {
        let Some(name) = rest.first().filter(|t| t.kind == Kind::Ident) else {
            self.err("`#define` needs a macro name", span);
            return;
        };
        // Function-like only if `(` follows the name immediately.
        let mut body_start = 1;
        let mut params = None;
        let mut variadic = false;
        if let Some(open) = rest.get(1) {
            if punct(open, "(") && open.span.start == name.span.end {
                let mut ps = Vec::new();
                let mut j = 2;
                loop {
                    match rest.get(j) {
                        Some(t) if punct(t, ")") => {
                            j += 1;
                            break;
                        }
                        Some(t) if t.kind == Kind::Ident => ps.push(t.text.clone()),
                        Some(t) if punct(t, "...") => {
                            variadic = true;
                            ps.push("__VA_ARGS__".into());
                        }
                        Some(t) if punct(t, ",") => {}
                        _ => {
                            self.err("bad parameter list in `#define`", span);
                            return;
                        }
                    }
                    j += 1;
                }
                params = Some(ps);
                body_start = j;
            }
        }
        let body = rest[body_start.min(rest.len())..].to_vec();
        self.macros.insert(name.text.clone(), Macro { params, variadic, body });
    }

    /// Expand macros in a token sequence; `off` holds the macros being expanded.
    fn expand(&mut self, toks: &[PTok], off: &HashSet<String>) -> Vec<PTok> {
        self.depth += 1;
        if self.depth > 200 {
            self.depth -= 1;
            if let Some(t) = toks.first() {
                self.err("macro expansion nests too deeply", t.span);
            }
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            let m = (t.kind == Kind::Ident && !off.contains(&t.text)).then(|| self.macros.get(&t.text).cloned()).flatten();
            let Some(m) = m else {
                out.push(t.clone());
                i += 1;
                continue;
            };
            let cost = m.body.len().max(1);
            if cost > self.budget {
                if !self.exhausted {
                    self.exhausted = true;
                    self.err(format!("macro expansion produced more than {MAX_EXPANDED_TOKENS} tokens (a runaway macro?)"), t.span);
                }
                break;
            }
            self.budget -= cost;
            let mut off2 = off.clone();
            off2.insert(t.text.clone());
            match &m.params {
                None => {
                    let body = relocate(&m.body, t.span);
                    out.extend(self.expand(&body, &off2));
                    i += 1;
                }
                Some(params) => {
                    // A function-like macro not followed by `(` is an ordinary name.
                    if !toks.get(i + 1).is_some_and(|n| punct(n, "(")) {
                        out.push(t.clone());
                        i += 1;
                        continue;
                    }
                    let Some((args, end)) = self.args(toks, i + 1) else {
                        self.err(format!("unterminated call of macro `{}`", t.text), t.span);
                        return out;
                    };
                    // The arguments are copied (and expanded) too: they count against the
                    // budget, so calls nested deep in arguments stop before memory does.
                    let copied = end - i;
                    if copied > self.budget {
                        if !self.exhausted {
                            self.exhausted = true;
                            self.err(format!("macro expansion produced more than {MAX_EXPANDED_TOKENS} tokens (a runaway macro?)"), t.span);
                        }
                        break;
                    }
                    self.budget -= copied;
                    let use_span = t.span.to(toks[end - 1].span);
                    let args = self.fit_args(args, params, m.variadic, &t.text, use_span);
                    let body = self.substitute(&m.body, params, &args, off, use_span);
                    out.extend(self.expand(&body, &off2));
                    i = end;
                }
            }
        }
        self.depth -= 1;
        out
    }

    /// The arguments of a macro call starting at `(`; gives them and the index after `)`.
    fn args(&self, toks: &[PTok], open: usize) -> Option<(Vec<Vec<PTok>>, usize)> {
        let mut depth = 0;
        let mut args = vec![Vec::new()];
        let mut j = open;
        while j < toks.len() {
            let t = &toks[j];
            if punct(t, "(") {
                depth += 1;
                if depth > 1 {
                    args.last_mut()?.push(t.clone());
                }
            } else if punct(t, ")") {
                depth -= 1;
                if depth == 0 {
                    return Some((args, j + 1));
                }
                args.last_mut()?.push(t.clone());
            } else if punct(t, ",") && depth == 1 {
                args.push(Vec::new());
            } else {
                args.last_mut()?.push(t.clone());
            }
            j += 1;
        }
        None
    }

    fn fit_args(&mut self, mut args: Vec<Vec<PTok>>, params: &[String], variadic: bool, name: &str, span: Span) -> Vec<Vec<PTok>> {
        if params.is_empty() && args.len() == 1 && args[0].is_empty() {
            return Vec::new();
        }
        if variadic && args.len() > params.len() {
            let extra = args.split_off(params.len() - 1);
            let mut joined = Vec::new();
            for (k, a) in extra.into_iter().enumerate() {
                if k > 0 {
                    joined.push(PTok { kind: Kind::Punct, text: ",".into(), span, bol: false });
                }
                joined.extend(a);
            }
            args.push(joined);
        }
        if args.len() != params.len() {
            self.err(format!("macro `{name}` takes {} argument(s) but {} were given", params.len(), args.len()), span);
            args.resize(params.len(), Vec::new());
        }
        args
    }

    fn substitute(&mut self, body: &[PTok], params: &[String], args: &[Vec<PTok>], off: &HashSet<String>, span: Span) -> Vec<PTok> {
        let param = |t: &PTok| (t.kind == Kind::Ident).then(|| params.iter().position(|p| *p == t.text)).flatten();
        let mut out: Vec<PTok> = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            // `# param`: the argument as a string literal.
            if punct(t, "#") {
                if let Some(k) = body.get(i + 1).and_then(param) {
                    let text: Vec<&str> = args[k].iter().map(|a| a.text.as_str()).collect();
                    out.push(PTok { kind: Kind::Str, text: format!("{:?}", text.join(" ")), span, bol: false });
                    i += 2;
                    continue;
                }
            }
            // `a ## b`: paste the last token and the next one, then re-lex.
            if punct(t, "##") {
                if let (Some(left), Some(next)) = (out.pop(), body.get(i + 1)) {
                    let right: Vec<PTok> = match param(next) {
                        Some(k) => args[k].clone(),
                        None => vec![next.clone()],
                    };
                    let joined = format!("{}{}", left.text, right.first().map(|r| r.text.as_str()).unwrap_or(""));
                    let (mut toks, errs) = lex(&joined);
                    if !errs.is_empty() || toks.len() != 1 {
                        self.err(format!("`##` does not make one token from `{joined}`"), span);
                    }
                    for tk in &mut toks {
                        tk.span = span;
                        tk.bol = false;
                    }
                    out.extend(toks);
                    out.extend(right.into_iter().skip(1));
                    i += 2;
                    continue;
                }
            }
            match param(t) {
                Some(k) => {
                    // Arguments are fully expanded first, unless next to `##`.
                    let pasted = body.get(i + 1).is_some_and(|n| punct(n, "##"));
                    if pasted {
                        out.extend(args[k].iter().cloned());
                    } else {
                        let a = args[k].clone();
                        out.extend(self.expand(&a, off));
                    }
                }
                None => out.push(PTok { span, bol: false, ..t.clone() }),
            }
            i += 1;
        }
        out
    }

    /// Evaluate an `#if` expression.
    fn eval(&mut self, toks: &[PTok], span: Span) -> i64 {
        // `defined X` and `defined(X)` first, then expansion; remaining names are 0.
        let mut pre = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            if t.kind == Kind::Ident && t.text == "defined" {
                let (name, skip) = match (toks.get(i + 1), toks.get(i + 2), toks.get(i + 3)) {
                    (Some(o), Some(n), Some(c)) if punct(o, "(") && punct(c, ")") => (n.text.clone(), 4),
                    (Some(n), _, _) if n.kind == Kind::Ident => (n.text.clone(), 2),
                    _ => {
                        self.err("`defined` needs a macro name", t.span);
                        return 0;
                    }
                };
                let v = if self.macros.contains_key(&name) { "1" } else { "0" };
                pre.push(PTok { kind: Kind::Number, text: v.into(), span: t.span, bol: false });
                i += skip;
                continue;
            }
            pre.push(t.clone());
            i += 1;
        }
        let toks = self.expand(&pre, &HashSet::new());
        let mut e = CondExpr { toks: &toks, pos: 0, err: None };
        let v = e.ternary();
        if e.err.is_none() && e.pos < toks.len() {
            e.err = Some(format!("unexpected `{}` in `#if`", toks[e.pos].text));
        }
        if let Some(m) = e.err {
            self.err(m, span);
            return 0;
        }
        v
    }
}

fn relocate(body: &[PTok], span: Span) -> Vec<PTok> {
    body.iter().map(|t| PTok { span, bol: false, ..t.clone() }).collect()
}

/// `#if` expressions: C integer constant expressions over i64.
struct CondExpr<'a> {
    toks: &'a [PTok],
    pos: usize,
    err: Option<String>,
}

impl CondExpr<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|t| t.text.as_str())
    }
    fn eat(&mut self, s: &str) -> bool {
        if self.peek() == Some(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn ternary(&mut self) -> i64 {
        let c = self.binary(0);
        if self.eat("?") {
            let a = self.ternary();
            if !self.eat(":") {
                self.err.get_or_insert("expected `:` in `#if`".into());
            }
            let b = self.ternary();
            return if c != 0 { a } else { b };
        }
        c
    }
    fn binary(&mut self, min: u8) -> i64 {
        let mut l = self.unary();
        loop {
            let Some(op) = self.peek() else { break };
            let prec = match op {
                "||" => 1,
                "&&" => 2,
                "|" => 3,
                "^" => 4,
                "&" => 5,
                "==" | "!=" => 6,
                "<" | "<=" | ">" | ">=" => 7,
                "<<" | ">>" => 8,
                "+" | "-" => 9,
                "*" | "/" | "%" => 10,
                _ => break,
            };
            if prec <= min {
                break;
            }
            let op = op.to_string();
            self.pos += 1;
            let r = self.binary(prec);
            l = match op.as_str() {
                "||" => (l != 0 || r != 0) as i64,
                "&&" => (l != 0 && r != 0) as i64,
                "|" => l | r,
                "^" => l ^ r,
                "&" => l & r,
                "==" => (l == r) as i64,
                "!=" => (l != r) as i64,
                "<" => (l < r) as i64,
                "<=" => (l <= r) as i64,
                ">" => (l > r) as i64,
                ">=" => (l >= r) as i64,
                "<<" => l.wrapping_shl(r as u32),
                ">>" => l.wrapping_shr(r as u32),
                "+" => l.wrapping_add(r),
                "-" => l.wrapping_sub(r),
                "*" => l.wrapping_mul(r),
                "/" | "%" if r == 0 => {
                    self.err.get_or_insert("division by zero in `#if`".into());
                    0
                }
                "/" => l.wrapping_div(r),
                _ => l.wrapping_rem(r),
            };
        }
        l
    }
    fn unary(&mut self) -> i64 {
        if self.eat("!") {
            return (self.unary() == 0) as i64;
        }
        if self.eat("-") {
            return self.unary().wrapping_neg();
        }
        if self.eat("+") {
            return self.unary();
        }
        if self.eat("~") {
            return !self.unary();
        }
        if self.eat("(") {
            let v = self.ternary();
            if !self.eat(")") {
                self.err.get_or_insert("expected `)` in `#if`".into());
            }
            return v;
        }
        let Some(t) = self.toks.get(self.pos) else {
            self.err.get_or_insert("`#if` expression ends too early".into());
            return 0;
        };
        self.pos += 1;
        match t.kind {
            Kind::Number => parse_int(&t.text).map(|v| v as i64).unwrap_or_else(|| {
                self.err.get_or_insert(format!("`{}` is not an integer", t.text));
                0
            }),
            Kind::Char => char_value(&t.text).unwrap_or(0) as i64,
            Kind::Ident => 0,
            _ => {
                self.err.get_or_insert(format!("unexpected `{}` in `#if`", t.text));
                0
            }
        }
    }
}

/// An integer literal's value (decimal, hex, octal, binary; suffixes u, l ignored).
pub fn parse_int(s: &str) -> Option<u64> {
    let t = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b, 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    if digits.is_empty() {
        return if t == "0" { Some(0) } else { None };
    }
    u64::from_str_radix(digits, radix).ok()
}

/// The value of a character literal like `'a'` or `'\n'`.
pub fn char_value(s: &str) -> Option<u32> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut it = inner.chars();
    let c = it.next()?;
    if c != '\\' {
        return Some(c as u32);
    }
    Some(match it.next()? {
        'n' => 10,
        't' => 9,
        'r' => 13,
        '0' => 0,
        '\\' => 92,
        '\'' => 39,
        '"' => 34,
        'a' => 7,
        'b' => 8,
        'f' => 12,
        'v' => 11,
        _ => return None,
    })
}
