//! The pretty-printer back to canonical KPL (the `pretty` crate). With the source and its
//! comments it keeps comments and single blank lines, so `kpl fmt` loses nothing a reader
//! wrote; `fmt(fmt(k)) == fmt(k)`.

use crate::ast::*;
use crate::lexer::Comment;
use pretty::RcDoc;

type Doc = RcDoc<'static, ()>;

const WIDTH: usize = 100;
const INDENT: isize = 2;

/// Print a kernel in canonical form, without comments.
pub fn print_kernel(k: &Kernel) -> String {
    Printer { src: None, comments: &[], next: std::cell::Cell::new(0) }.render(k)
}

/// Print a kernel in canonical form, keeping the comments and blank lines of `src`.
pub fn format_source(k: &Kernel, src: &str, comments: &[Comment]) -> String {
    Printer { src: Some(src), comments, next: std::cell::Cell::new(0) }.render(k)
}

/// Print one statement (compound statements in full, over several lines).
pub fn print_stmt(st: &Stmt) -> String {
    let p = Printer { src: None, comments: &[], next: std::cell::Cell::new(0) };
    let mut out = String::new();
    let _ = p.stmt(st).render_fmt(WIDTH, &mut out);
    out
}

/// Print one expression (for messages and dumps).
pub fn print_expr(e: &Expr) -> String {
    let mut out = String::new();
    let _ = expr(e, 0).render_fmt(WIDTH, &mut out);
    out
}

struct Printer<'a> {
    src: Option<&'a str>,
    comments: &'a [Comment],
    next: std::cell::Cell<usize>,
}

impl Printer<'_> {
    fn render(&self, k: &Kernel) -> String {
        let doc = self.kernel(k);
        let mut out = String::new();
        let _ = doc.render_fmt(WIDTH, &mut out);
        // Trailing spaces never matter; strip them so the output is stable.
        let mut s: String = out.lines().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n");
        s.push('\n');
        s
    }

    /// Comments that start before `pos` and were not printed yet.
    fn take_comments(&self, pos: usize) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(c) = self.comments.get(self.next.get()) {
            if c.span.start >= pos {
                break;
            }
            out.push(c.text.clone());
            self.next.set(self.next.get() + 1);
        }
        out
    }

    /// Comments before `pos`, each on its own line, ending with a line break.
    fn leading(&self, pos: usize) -> Doc {
        RcDoc::concat(self.take_comments(pos).into_iter().map(|c| RcDoc::text(c).append(RcDoc::hardline())))
    }

    /// Comments before `pos`, each preceded by a line break (for the end of a block).
    fn closing(&self, pos: usize) -> (Doc, bool) {
        let cs = self.take_comments(pos);
        let any = !cs.is_empty();
        (RcDoc::concat(cs.into_iter().map(|c| RcDoc::hardline().append(RcDoc::text(c)))), any)
    }

    /// A comment that starts on the line where `end` is, after it: printed after the item.
    fn trailing(&self, end: usize) -> Doc {
        let (Some(src), Some(c)) = (self.src, self.comments.get(self.next.get())) else {
            return RcDoc::nil();
        };
        if c.span.start >= end && !src[end..c.span.start].contains('\n') && !c.text.contains('\n') {
            self.next.set(self.next.get() + 1);
            return RcDoc::text(" ").append(RcDoc::text(c.text.clone()));
        }
        RcDoc::nil()
    }

    /// A blank line if the source had one (or more) between two items.
    fn gap(&self, prev_end: usize, next_start: usize) -> Doc {
        match self.src {
            Some(src) if prev_end <= next_start && next_start <= src.len() => {
                let between = &src[prev_end..next_start];
                // Count the newlines outside comments: a blank line is two in a row.
                let mut text = between.to_string();
                for c in self.comments.iter().filter(|c| c.span.start >= prev_end && c.span.end <= next_start) {
                    let (a, b) = (c.span.start - prev_end, c.span.end - prev_end);
                    text.replace_range(a..b, &" ".repeat(b - a));
                }
                let blank = text.split('\n').skip(1).collect::<Vec<_>>();
                if blank.len() >= 2 && blank[..blank.len() - 1].iter().any(|l| l.trim().is_empty()) {
                    RcDoc::hardline()
                } else {
                    RcDoc::nil()
                }
            }
            _ => RcDoc::nil(),
        }
    }

    /// Items with their comments, one per line, keeping blank lines between them.
    fn items(&self, items: Vec<(usize, usize, Doc)>) -> Doc {
        let mut doc = RcDoc::nil();
        let mut prev: Option<usize> = None;
        for (i, (start, end, d)) in items.into_iter().enumerate() {
            if i > 0 {
                doc = doc.append(RcDoc::hardline());
            }
            if let Some(p) = prev {
                doc = doc.append(self.gap(p, start));
            }
            doc = doc.append(self.leading(start)).append(d).append(self.trailing(end));
            prev = Some(end);
        }
        doc
    }

    fn kernel(&self, k: &Kernel) -> Doc {
        let head = self.leading(k.span.start);
        let mut sections: Vec<Doc> = Vec::new();
        if !k.decls.is_empty() {
            sections.push(self.items(k.decls.iter().map(|d| (d.span.start, d.span.end, decl(d))).collect()));
        }
        for p in &k.procs {
            let d = self.leading(p.span.start).append(self.proc(p));
            sections.push(d);
        }
        let main_start = k.main.span.start;
        let main = self
            .leading(main_start)
            .append(RcDoc::text("main "))
            .append(self.block(&k.main));
        sections.push(main);
        let body = RcDoc::intersperse(sections, RcDoc::hardline().append(RcDoc::hardline()));
        let (inner_end, _) = self.closing(k.span.end.saturating_sub(1));
        let inner = RcDoc::hardline().append(body).append(inner_end);
        head.append(RcDoc::text(format!("kernel {} {{", k.name.name)))
            .append(inner.nest(INDENT))
            .append(RcDoc::hardline())
            .append(RcDoc::text("}"))
            .append(self.trailing(k.span.end))
            .append(self.closing(usize::MAX).0)
    }

    fn proc(&self, p: &Proc) -> Doc {
        let params = p.params.iter().map(|x| x.name.clone()).collect::<Vec<_>>().join(", ");
        RcDoc::text(format!("proc {}({}) ", p.name.name, params)).append(self.block(&p.body))
    }

    fn block(&self, b: &Block) -> Doc {
        // A lone jump prints on one line: `if c { break; }`.
        if let [s] = b.stmts.as_slice() {
            let has_comment = self.comments.get(self.next.get()).is_some_and(|c| c.span.start < b.span.end);
            if matches!(s.kind, StmtKind::Break | StmtKind::Continue | StmtKind::Return) && !has_comment {
                return RcDoc::text("{ ").append(self.stmt(s)).append(RcDoc::text(" }"));
            }
        }
        let stmts = self.items(b.stmts.iter().map(|s| (s.span.start, s.span.end, self.stmt(s))).collect());
        let (tail, any) = self.closing(b.span.end.saturating_sub(1));
        if b.stmts.is_empty() && !any {
            return RcDoc::text("{ }");
        }
        let inner = if b.stmts.is_empty() { tail } else { RcDoc::hardline().append(stmts).append(tail) };
        RcDoc::text("{").append(inner.nest(INDENT)).append(RcDoc::hardline()).append(RcDoc::text("}"))
    }

    fn stmt(&self, s: &Stmt) -> Doc {
        match &s.kind {
            StmtKind::Local(x, None) => RcDoc::text(format!("local {};", x.name)),
            StmtKind::Local(x, Some(e)) => {
                RcDoc::text(format!("local {} := ", x.name)).append(expr(e, 0)).append(RcDoc::text(";")).group()
            }
            StmtKind::Assign(x, e) => {
                RcDoc::text(format!("{} := ", x.name)).append(expr(e, 0)).append(RcDoc::text(";")).group()
            }
            StmtKind::Store(a, i, e) => RcDoc::text(format!("{}[", a.name))
                .append(expr(i, 0))
                .append(RcDoc::text("] := "))
                .append(expr(e, 0))
                .append(RcDoc::text(";"))
                .group(),
            StmtKind::If(c, t, e) => {
                let mut d = RcDoc::text("if ").append(expr(c, 0)).append(RcDoc::text(" ")).append(self.block(t));
                match e.as_deref() {
                    Some(Else::Block(b)) => d = d.append(RcDoc::text(" else ")).append(self.block(b)),
                    Some(Else::If(s)) => d = d.append(RcDoc::text(" else ")).append(self.stmt(s)),
                    None => {}
                }
                d
            }
            StmtKind::While { cond, invariants, candidates, body } => {
                let mut d = RcDoc::text("while ").append(expr(cond, 0));
                if invariants.is_empty() && candidates.is_empty() {
                    d = d.append(RcDoc::text(" "));
                } else {
                    let spec = |kw: &'static str| {
                        move |i: &Expr| RcDoc::hardline().append(RcDoc::text(kw)).append(expr(i, 0)).append(RcDoc::text(";"))
                    };
                    let invs = invariants.iter().map(spec("invariant ")).chain(candidates.iter().map(spec("candidate ")));
                    d = d.append(RcDoc::concat(invs).nest(INDENT)).append(RcDoc::hardline());
                }
                d.append(self.block(body))
            }
            StmtKind::Call(f, args) => RcDoc::text(format!("{}(", f.name))
                .append(args_doc(args))
                .append(RcDoc::text(");"))
                .group(),
            StmtKind::Barrier(f) => fence_doc(f),
            StmtKind::Atomic(a) => {
                let names = match (&a.dest, &a.dest_hi) {
                    (Some(x), Some(y)) => format!("{}, {}", x.name, y.name),
                    (Some(x), None) => x.name.clone(),
                    _ => String::new(),
                };
                let dest = match (a.dest.is_some(), a.declare) {
                    (true, true) => format!("local {names} := "),
                    (true, false) => format!("{names} := "),
                    (false, _) => String::new(),
                };
                let mut args = vec![RcDoc::text(format!("{}[", a.array.name)).append(expr(&a.index, 0)).append(RcDoc::text("]"))];
                args.extend(a.args.iter().map(|e| expr(e, 0)));
                let scope = if a.scope == FenceScope::Device { String::new() } else { format!("{} ", a.scope.name()) };
                RcDoc::text(format!("{dest}atomic {scope}{}(", a.op.name))
                    .append(RcDoc::intersperse(args, RcDoc::text(", ")))
                    .append(RcDoc::text(");"))
                    .group()
            }
            StmtKind::Warp(w) => {
                let dest = match (&w.dest, w.declare) {
                    (Some(x), true) => format!("local {} := ", x.name),
                    (Some(x), false) => format!("{} := ", x.name),
                    (None, _) => String::new(),
                };
                let exited = match &w.exited {
                    Some(e) => RcDoc::text("; ").append(expr(e, 0)),
                    None => RcDoc::nil(),
                };
                RcDoc::text(format!("{dest}warp {}(", w.op.name)).append(args_doc(&w.args)).append(exited).append(RcDoc::text(");")).group()
            }
            StmtKind::MemFence(f, o) => RcDoc::text(format!("fence {}{}{};", o.name(), if o.name().is_empty() { "" } else { " " }, f.name())),
            StmtKind::Break => RcDoc::text("break;"),
            StmtKind::Continue => RcDoc::text("continue;"),
            StmtKind::Return => RcDoc::text("return;"),
            StmtKind::Assert(e, global) => RcDoc::text(if *global { "global assert " } else { "assert " })
                .append(expr(e, 0))
                .append(RcDoc::text(";"))
                .group(),
            StmtKind::Assume(e) => RcDoc::text("assume ").append(expr(e, 0)).append(RcDoc::text(";")).group(),
            StmtKind::Havoc(x) => RcDoc::text(format!("havoc {};", x.name)),
            StmtKind::Snapshot { dest, src } => RcDoc::text(format!("snapshot {} := {};", dest.name, src.name)),
            StmtKind::Touch { array, write } => RcDoc::text(format!("havoc {} {};", if *write { "writes" } else { "reads" }, array.name)),
            StmtKind::Error => RcDoc::text("/* unparsable statement */"),
        }
    }
}

fn decl(d: &Decl) -> Doc {
    let text = match &d.kind {
        DeclKind::Groups(ds) => format!("groups: {};", dims(ds)),
        DeclKind::Threads(ds) => format!("threads: {};", dims(ds)),
        DeclKind::Shared { name, size: Some(s) } => format!("shared {}[{}];", name.name, s.0),
        DeclKind::Shared { name, size: None } => format!("shared {}[*];", name.name),
        DeclKind::Global { name, size: Some(s) } => format!("global {}[{}];", name.name, s.0),
        DeclKind::Global { name, size: None } => format!("global {}[*];", name.name),
        DeclKind::Param(x) => format!("param {};", x.name),
        DeclKind::Requires(e) => return RcDoc::text("requires ").append(expr(e, 0)).append(RcDoc::text(";")),
    };
    RcDoc::text(text)
}

/// `barrier;` when it orders both memories, else `barrier(...)` naming each memory it may
/// order (`shared`, or `shared: COND` when the condition is not a literal).
fn fence_doc(f: &Fence) -> Doc {
    let head = if f.grid {
        RcDoc::text("barrier grid")
    } else if f.as_constant() == Some((true, true)) {
        RcDoc::text("barrier")
    } else {
        let items = [("shared", &f.shared), ("global", &f.global)].into_iter().filter_map(|(name, e)| match e.kind {
            ExprKind::Bool(false) => None,
            ExprKind::Num(0) => None,
            ExprKind::Bool(true) => Some(RcDoc::text(name)),
            _ => Some(RcDoc::text(format!("{name}: ")).append(expr(e, 0))),
        });
        RcDoc::text("barrier(").append(RcDoc::intersperse(items, RcDoc::text(", "))).append(RcDoc::text(")"))
    };
    let invariants = f.invariants.iter().map(|inv| {
        let insts = inv.insts.iter().map(|i| match i.as_slice() {
            [a, b] => RcDoc::text("(").append(expr(a, 0)).append(RcDoc::text(", ")).append(expr(b, 0)).append(RcDoc::text(")")),
            _ => RcDoc::intersperse(i.iter().map(|a| expr(a, 0)), RcDoc::text(", ")),
        });
        RcDoc::line()
            .append(RcDoc::text("invariant "))
            .append(expr(&inv.expr, 0))
            .append(RcDoc::text(" for "))
            .append(RcDoc::intersperse(insts, RcDoc::text(", ")))
            .nest(INDENT)
    });
    head.append(RcDoc::concat(invariants)).append(RcDoc::text(";"))
        .group()
}

fn dims(ds: &Dims) -> String {
    ds.dims.iter().map(|(n, _)| n.to_string()).collect::<Vec<_>>().join(", ")
}

fn args_doc(args: &[Expr]) -> Doc {
    RcDoc::intersperse(args.iter().map(|a| expr(a, 0)), RcDoc::text(",").append(RcDoc::line())).nest(INDENT).group()
}

/// The precedence of an expression's top operator (unary and atoms bind tightest).
fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Cond(..) => 0,
        ExprKind::Binary(op, ..) => op.precedence(),
        ExprKind::Unary(..) => 11,
        _ => 12,
    }
}

/// Print `e` in a context that needs at least precedence `min`.
fn expr(e: &Expr, min: u8) -> Doc {
    let d = match &e.kind {
        ExprKind::Num(n) => RcDoc::text(n.to_string()),
        ExprKind::Bool(b) => RcDoc::text(if *b { "true" } else { "false" }),
        ExprKind::Var(x) => RcDoc::text(x.name.clone()),
        ExprKind::Index(a, i) => RcDoc::text(format!("{}[", a.name)).append(expr(i, 0)).append(RcDoc::text("]")),
        ExprKind::Special(s, a, explicit) => {
            if *explicit {
                RcDoc::text(format!("{}.{}", s.name(), a.name()))
            } else {
                RcDoc::text(s.name())
            }
        }
        ExprKind::Unary(op, a) => RcDoc::text(op.symbol()).append(expr(a, 11)),
        ExprKind::Binary(op, a, b) => {
            let p = op.precedence();
            expr(a, p)
                .append(RcDoc::line())
                .append(RcDoc::text(format!("{} ", op.symbol())))
                .append(expr(b, p + 1))
                .group()
        }
        ExprKind::Cond(c, t, f) => expr(c, 1)
            .append(RcDoc::line())
            .append(RcDoc::text("? "))
            .append(expr(t, 0))
            .append(RcDoc::line())
            .append(RcDoc::text(": "))
            .append(expr(f, 0))
            .group(),
        ExprKind::Call(f, args) => {
            RcDoc::text(format!("{}(", f.name)).append(args_doc(args)).append(RcDoc::text(")"))
        }
        ExprKind::Error => RcDoc::text("/* error */"),
    };
    if prec(e) < min {
        RcDoc::text("(").append(d.nest(1)).append(RcDoc::text(")"))
    } else {
        d
    }
}
