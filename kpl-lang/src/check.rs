//! Name resolution and the well-formedness rules of KPL.md: undeclared and shadowed names,
//! `break`/`continue` outside a loop, `return` in `main`, recursion, call arity, arrays used
//! as scalars and scalars as arrays, literals over 32 bits, and the launch declarations.

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use std::collections::HashMap;

/// What a name of the outermost scope denotes.
#[derive(Clone, Debug, PartialEq)]
enum Global {
    Param,
    Array { shared: bool },
    Proc { arity: usize },
    Builtin,
}

/// Check a parsed kernel; returns every problem found (empty when the kernel is well formed).
pub fn check(k: &Kernel) -> Vec<Diagnostic> {
    let mut c = Checker { diags: Vec::new(), globals: HashMap::new(), scopes: Vec::new(), two_thread_ok: false, ghosts: Vec::new(), stores: Vec::new(), sizeless: Vec::new() };
    c.kernel(k);
    c.ghosts_unwritten();
    c.diags.sort_by_key(|d| d.span.start);
    c.diags
}

struct Checker {
    diags: Vec<Diagnostic>,
    globals: HashMap<String, (Global, Span)>,
    /// The locals in scope, innermost block last: name and declaring span.
    /// The locals of each enclosing scope (a map: kernels may declare many thousands).
    scopes: Vec<HashMap<String, Span>>,
    /// In an `assert`, `assume`, `invariant` or `candidate`: `other` and `enabled` are allowed.
    two_thread_ok: bool,
    /// The destinations of `snapshot` statements (ghost arrays), and the arrays that
    /// stores, atomics and `havoc writes` write, with where.
    ghosts: Vec<(String, Span)>,
    stores: Vec<(String, Span)>,
    /// Arrays declared without a size (`A[*]`).
    sizeless: Vec<String>,
}

/// Where a statement is: in `main` or a proc, and how many loops deep.
#[derive(Clone, Copy)]
struct Ctx {
    in_main: bool,
    loops: usize,
}

const MAX32: u64 = u32::MAX as u64;

impl Checker {
    fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn kernel(&mut self, k: &Kernel) {
        for b in Builtin::ALL {
            self.globals.insert(b.name().to_string(), (Global::Builtin, Span::DUMMY));
        }
        let mut seen_groups: Option<Span> = None;
        let mut seen_threads: Option<Span> = None;
        for d in &k.decls {
            match &d.kind {
                DeclKind::Groups(ds) | DeclKind::Threads(ds) => {
                    let is_threads = matches!(d.kind, DeclKind::Threads(_));
                    let what = if is_threads { "threads" } else { "groups" };
                    let slot = if is_threads { &mut seen_threads } else { &mut seen_groups };
                    if let Some(prev) = *slot {
                        let diag = Diagnostic::error(format!("`{what}` is declared twice"), d.span)
                            .with_secondary(prev, "first declared here");
                        self.err(diag);
                    } else {
                        *slot = Some(d.span);
                    }
                    self.dims(ds, what);
                }
                DeclKind::Shared { name, size } => {
                    if let Some(s) = size {
                        self.size(*s, name);
                    } else {
                        self.sizeless.push(name.name.clone());
                    }
                    self.declare_global(name, Global::Array { shared: true });
                }
                DeclKind::Global { name, size } => {
                    if let Some(s) = size {
                        self.size(*s, name);
                    } else {
                        self.sizeless.push(name.name.clone());
                    }
                    self.declare_global(name, Global::Array { shared: false });
                }
                DeclKind::Param(name) => self.declare_global(name, Global::Param),
                DeclKind::Requires(_) => {}
            }
        }
        if seen_threads.is_none() {
            self.err(
                Diagnostic::error("the kernel has no `threads:` declaration", k.name.span)
                    .with_help("declare the threads per group, e.g. `threads: 64;`"),
            );
        }
        for p in &k.procs {
            self.declare_global(&p.name, Global::Proc { arity: p.params.len() });
        }
        for d in &k.decls {
            if let DeclKind::Requires(e) = &d.kind {
                self.requires(e);
            }
        }
        for p in &k.procs {
            self.scopes.push(HashMap::new());
            for x in &p.params {
                self.declare_local(x, "parameter");
            }
            self.block(&p.body, Ctx { in_main: false, loops: 0 }, false);
            self.scopes.pop();
        }
        self.block(&k.main, Ctx { in_main: true, loops: 0 }, true);
        self.recursion(k);
    }

    fn dims(&mut self, ds: &Dims, what: &str) {
        if ds.dims.len() > 3 {
            let extra = ds.dims[3].1.to(ds.dims.last().map(|d| d.1).unwrap_or(ds.span));
            self.err(Diagnostic::error(format!("`{what}` has more than three dimensions"), extra));
        }
        for &(n, sp) in &ds.dims {
            if n == 0 {
                self.err(Diagnostic::error(format!("`{what}` must be at least 1 in every dimension"), sp));
            } else if n > MAX32 {
                self.err(literal_too_big(sp));
            }
        }
    }

    fn size(&mut self, (n, sp): (u64, Span), name: &Ident) {
        if n == 0 {
            self.err(
                Diagnostic::error(format!("array `{}` has size 0", name.name), sp)
                    .with_help("an array needs at least one element"),
            );
        } else if n > MAX32 {
            self.err(literal_too_big(sp));
        }
    }

    fn declare_global(&mut self, name: &Ident, g: Global) {
        match self.globals.get(&name.name) {
            Some((Global::Builtin, _)) => self.err(
                Diagnostic::error(format!("`{}` is the name of a built-in function", name.name), name.span)
                    .with_help("choose another name"),
            ),
            Some((_, prev)) => {
                let prev = *prev;
                self.err(
                    Diagnostic::error(format!("`{}` is declared twice", name.name), name.span)
                        .with_secondary(prev, "first declared here"),
                )
            }
            None => {
                self.globals.insert(name.name.clone(), (g, name.span));
            }
        }
    }

    fn lookup_local(&self, name: &str) -> Option<Span> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn declare_local(&mut self, x: &Ident, what: &str) {
        if let Some((g, prev)) = self.globals.get(&x.name) {
            let kind = match g {
                Global::Param => "a param",
                Global::Array { .. } => "an array",
                Global::Proc { .. } => "a proc",
                Global::Builtin => "a built-in function",
            };
            let mut d = Diagnostic::error(format!("{what} `{}` shadows {kind} of the same name", x.name), x.span)
                .with_help("KPL forbids shadowing; rename it");
            if *prev != Span::DUMMY {
                d = d.with_secondary(*prev, "declared here");
            }
            self.err(d);
        } else if let Some(prev) =
            self.scopes.last().and_then(|s| s.get(&x.name).copied())
        {
            self.err(
                Diagnostic::error(format!("{what} `{}` is declared twice in one scope", x.name), x.span)
                    .with_secondary(prev, "first declared here"),
            );
        } else if let Some(prev) = self.lookup_local(&x.name) {
            self.err(
                Diagnostic::error(format!("{what} `{}` shadows a local of an enclosing scope", x.name), x.span)
                    .with_secondary(prev, "declared here")
                    .with_help("KPL forbids shadowing; rename it"),
            );
        }
        if let Some(s) = self.scopes.last_mut() {
            s.entry(x.name.clone()).or_insert(x.span);
        }
    }

    fn block(&mut self, b: &Block, ctx: Ctx, new_scope: bool) {
        if new_scope {
            self.scopes.push(HashMap::new());
        }
        for s in &b.stmts {
            self.stmt(s, ctx);
        }
        if new_scope {
            self.scopes.pop();
        }
    }

    /// A ghost array (a snapshot's destination) is written by snapshots alone.
    fn ghosts_unwritten(&mut self) {
        let stores = std::mem::take(&mut self.stores);
        for (a, span) in stores {
            if let Some((_, g)) = self.ghosts.iter().find(|(g, _)| *g == a) {
                let d = Diagnostic::error(format!("`{a}` is a ghost array (a snapshot's copy): only `snapshot` may write it"), span)
                    .with_secondary(*g, "a snapshot writes it here");
                self.err(d);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt, ctx: Ctx) {
        match &s.kind {
            StmtKind::Local(x, init) => {
                if let Some(e) = init {
                    self.expr(e);
                }
                self.declare_local(x, "local");
            }
            StmtKind::Assign(x, e) => {
                self.assign_target(x);
                self.expr(e);
            }
            StmtKind::Havoc(x) => self.assign_target(x),
            StmtKind::Touch { array, write } => {
                self.array(array);
                if *write {
                    self.stores.push((array.name.clone(), s.span));
                }
            }
            StmtKind::Snapshot { dest, src } => {
                self.array(dest);
                self.array(src);
                self.ghosts.push((dest.name.clone(), dest.span));
                // The interpreter copies as many elements as one of the two has.
                if self.sizeless.contains(&dest.name) && self.sizeless.contains(&src.name) {
                    self.err(Diagnostic::error("a snapshot needs a sized array: its source or its ghost copy", s.span));
                }
            }
            StmtKind::Store(a, i, e) => {
                self.stores.push((a.name.clone(), s.span));
                self.array(a);
                self.expr(i);
                self.expr(e);
            }
            StmtKind::If(c, t, e) => {
                self.expr(c);
                self.block(t, ctx, true);
                match e.as_deref() {
                    Some(Else::Block(b)) => self.block(b, ctx, true),
                    Some(Else::If(s)) => self.stmt(s, ctx),
                    None => {}
                }
            }
            StmtKind::While { cond, invariants, candidates, body } => {
                self.expr(cond);
                for inv in invariants.iter().chain(candidates) {
                    self.two_thread_ok = true;
                    self.expr(inv);
                    self.two_thread_ok = false;
                }
                self.block(body, Ctx { loops: ctx.loops + 1, ..ctx }, true);
            }
            StmtKind::Call(f, args) => {
                for a in args {
                    self.expr(a);
                }
                match self.globals.get(&f.name).cloned() {
                    Some((Global::Proc { arity }, decl)) => {
                        if arity != args.len() {
                            self.err(
                                Diagnostic::error(
                                    format!(
                                        "`{}` takes {arity} argument{} but {} {} given",
                                        f.name,
                                        plural(arity),
                                        args.len(),
                                        if args.len() == 1 { "was" } else { "were" }
                                    ),
                                    s.span,
                                )
                                .with_secondary(decl, "declared here"),
                            );
                        }
                    }
                    Some((Global::Builtin, _)) => self.err(
                        Diagnostic::error(
                            format!("built-in function `{}` cannot be called as a statement", f.name),
                            f.span,
                        )
                        .with_help("use its value, e.g. `x := min(a, b);`"),
                    ),
                    Some((_, decl)) => self.err(
                        Diagnostic::error(format!("`{}` is not a proc", f.name), f.span)
                            .with_secondary(decl, "declared here"),
                    ),
                    None => {
                        let d = Diagnostic::error(format!("no proc named `{}`", f.name), f.span);
                        self.err(d)
                    }
                }
            }
            StmtKind::Break | StmtKind::Continue if ctx.loops == 0 => {
                let what = if matches!(s.kind, StmtKind::Break) { "break" } else { "continue" };
                self.err(
                    Diagnostic::error(format!("`{what}` outside a loop"), s.span)
                        .with_help("`break` and `continue` must be inside a `while` of the same proc or `main`"),
                );
            }
            StmtKind::Return if ctx.in_main => self.err(
                Diagnostic::error("`return` in `main`", s.span)
                    .with_help("`main` cannot return (as in the paper); use `if` to skip the rest"),
            ),
            StmtKind::Assert(e, _) | StmtKind::Assume(e) => {
                self.two_thread_ok = true;
                self.expr(e);
                self.two_thread_ok = false;
                if matches!(s.kind, StmtKind::Assert(_, true)) && e.has_reads() {
                    self.err(
                        Diagnostic::error("a `global assert` cannot read arrays", e.span)
                            .with_help("disabled threads check it too, and they make no accesses; read into a local first"),
                    );
                }
            }
            StmtKind::Atomic(a) => {
                self.stores.push((a.array.name.clone(), s.span));
                self.array(&a.array);
                self.expr(&a.index);
                for e in &a.args {
                    self.expr(e);
                }
                match AtomicOp::parse(&a.op.name) {
                    None => self.err(
                        Diagnostic::error(format!("`{}` is not an atomic operation", a.op.name), a.op.span).with_help(format!(
                            "the atomic operations are {}, and with `64` those on 64-bit integers ({}); `_bytes` after either is the operation on an array of one byte per element (`add_bytes`, `add64_bytes`)",
                            AtomicOp::ALL.map(|o| o.name()).join(", "),
                            AtomicOp::ALL.into_iter().filter(|o| o.has_wide()).map(|o| format!("{}64", o.name())).collect::<Vec<_>>().join(", ")
                        )),
                    ),
                    Some(_) if a.arity() != a.args.len() => self.err(Diagnostic::error(
                        format!("atomic `{}` takes the element and {} operand{}", a.op.name, a.arity(), plural(a.arity())),
                        s.span,
                    )),
                    Some((_, shape)) if a.dest_hi.is_some() != (shape.wide && a.dest.is_some()) => self.err(Diagnostic::error(
                        if shape.wide {
                            format!("atomic `{}` gives a 64-bit value: name two locals for it (`lo, hi := ...`)", a.op.name)
                        } else {
                            format!("atomic `{}` gives one word: name one local for it", a.op.name)
                        },
                        s.span,
                    )),
                    Some(_) => {}
                }
                self.result_dest(&a.dest, a.declare);
                self.result_dest(&a.dest_hi, a.declare);
            }
            StmtKind::Warp(w) => {
                for e in &w.args {
                    self.expr(e);
                }
                if let Some(e) = &w.exited {
                    self.expr(e);
                    if e.has_reads() {
                        self.err(Diagnostic::error("which lanes have exited is a condition on locals: it cannot read arrays", e.span));
                    }
                }
                match WarpOp::from_name(&w.op.name) {
                    None => self.err(
                        Diagnostic::error(format!("`{}` is not a warp collective", w.op.name), w.op.span)
                            .with_help(format!("the warp collectives are {}", WarpOp::ALL.map(|o| o.name()).join(", "))),
                    ),
                    Some(op) if op.arity() != w.args.len() => self.err(Diagnostic::error(
                        format!("warp `{}` takes {} operand{}", op.name(), op.arity(), plural(op.arity())),
                        s.span,
                    )),
                    Some(_) => {}
                }
                self.result_dest(&w.dest, w.declare);
            }
            StmtKind::Barrier(f) => {
                self.expr(&f.shared);
                self.expr(&f.global);
                if f.grid && !f.invariants.is_empty() {
                    self.err(Diagnostic::error("a grid barrier cannot carry barrier invariants yet", s.span));
                }
                for inv in &f.invariants {
                    self.barrier_invariant(inv);
                }
            }
            StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::MemFence(..)
            | StmtKind::Error => {}
        }
    }

    /// A barrier invariant: a two-thread condition that may read arrays, and instantiations
    /// of one arity (one expression each, or two for a binary invariant) that do not.
    fn barrier_invariant(&mut self, inv: &BarrierInvariant) {
        self.two_thread_ok = true;
        self.expr(&inv.expr);
        for e in inv.insts.iter().flatten() {
            self.expr(e);
            if e.has_reads() {
                self.err(
                    Diagnostic::error("a barrier invariant's instantiation cannot read arrays", e.span)
                        .with_help("instantiations are thread ids over locals, params and ids"),
                );
            }
        }
        self.two_thread_ok = false;
        if inv.insts.iter().any(|i| i.len() != inv.insts[0].len()) {
            self.err(
                Diagnostic::error("a barrier invariant's instantiations must be all single ids or all pairs", inv.span)
                    .with_help("`for a, b` instantiates a unary invariant; `for (a, b), (c, d)` a binary one"),
            );
        }
    }

    /// The destination of an atomic or a warp collective: a new local, or an assigned one.
    fn result_dest(&mut self, dest: &Option<Ident>, declare: bool) {
        match (dest, declare) {
            (Some(x), true) => self.declare_local(x, "local"),
            (Some(x), false) => self.assign_target(x),
            (None, _) => {}
        }
    }

    fn assign_target(&mut self, x: &Ident) {
        if self.lookup_local(&x.name).is_some() {
            return;
        }
        match self.globals.get(&x.name).cloned() {
            Some((Global::Param, decl)) => self.err(
                Diagnostic::error(format!("cannot assign to param `{}`", x.name), x.span)
                    .with_secondary(decl, "declared here")
                    .with_help("params are inputs; copy it into a local"),
            ),
            Some((Global::Array { .. }, decl)) => self.err(
                Diagnostic::error(format!("array `{}` needs an index", x.name), x.span)
                    .with_secondary(decl, "declared here"),
            ),
            Some((Global::Proc { .. }, _)) | Some((Global::Builtin, _)) => self.err(Diagnostic::error(
                format!("cannot assign to `{}`: it is a function", x.name),
                x.span,
            )),
            None => self.undeclared(x),
        }
    }

    fn undeclared(&mut self, x: &Ident) {
        let mut d = Diagnostic::error(format!("`{}` is not declared", x.name), x.span);
        if let Some(close) = self.closest_name(&x.name) {
            d = d.with_help(format!("did you mean `{close}`?"));
        } else {
            d = d.with_help(format!("declare it with `local {} := ...;`", x.name));
        }
        self.err(d);
    }

    fn closest_name(&self, name: &str) -> Option<String> {
        let cands = self
            .scopes
            .iter()
            .flat_map(|s| s.keys().cloned())
            .chain(self.globals.iter().filter(|(_, (g, _))| *g != Global::Builtin).map(|(n, _)| n.clone()));
        cands
            .map(|c| (edit_distance(&c, name), c))
            .filter(|(d, c)| *d <= 2 && *d < c.len().max(name.len()))
            .min()
            .map(|(_, c)| c)
    }

    fn array(&mut self, a: &Ident) {
        if let Some(decl) = self.lookup_local(&a.name) {
            self.err(
                Diagnostic::error(format!("`{}` is a local, not an array", a.name), a.span)
                    .with_secondary(decl, "declared here"),
            );
            return;
        }
        match self.globals.get(&a.name).cloned() {
            Some((Global::Array { .. }, _)) => {}
            Some((_, decl)) => {
                let mut d = Diagnostic::error(format!("`{}` is not an array", a.name), a.span);
                if decl != Span::DUMMY {
                    d = d.with_secondary(decl, "declared here");
                }
                self.err(d)
            }
            None => {
                let mut d = Diagnostic::error(format!("no array named `{}`", a.name), a.span);
                if let Some(close) = self.closest_name(&a.name) {
                    d = d.with_help(format!("did you mean `{close}`?"));
                } else {
                    d = d.with_help(format!("declare it, e.g. `global {}[*];`", a.name));
                }
                self.err(d)
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Num(n) if *n > MAX32 => self.err(literal_too_big(e.span)),
            ExprKind::Num(_) | ExprKind::Bool(_) | ExprKind::Special(..) | ExprKind::Error => {}
            ExprKind::Var(x) => {
                if self.lookup_local(&x.name).is_some() {
                    return;
                }
                match self.globals.get(&x.name).cloned() {
                    Some((Global::Param, _)) => {}
                    Some((Global::Array { .. }, decl)) => self.err(
                        Diagnostic::error(format!("array `{}` used without an index", x.name), x.span)
                            .with_secondary(decl, "declared here"),
                    ),
                    Some((Global::Proc { .. }, _)) | Some((Global::Builtin, _)) => self.err(
                        Diagnostic::error(format!("`{}` is a function, not a value", x.name), x.span),
                    ),
                    None => self.undeclared(x),
                }
            }
            ExprKind::Index(a, i) => {
                self.array(a);
                self.expr(i);
            }
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Cond(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            ExprKind::Call(f, args) if Builtin::from_name(&f.name).is_some_and(|b| b.is_access()) => {
                if !self.two_thread_ok {
                    self.err(Diagnostic::error(
                        format!("`{}` speaks of the verifier's access logs: it may appear only in an `assert`, `assume`, `invariant` or `candidate`", f.name),
                        e.span,
                    ));
                }
                // `taken(A, i, v)` takes an element and a value after the array.
                let taken = Builtin::from_name(&f.name) == Some(Builtin::Taken);
                for a in args.iter().skip(1) {
                    self.expr(a);
                }
                match args.split_first() {
                    Some((Expr { kind: ExprKind::Var(a), .. }, rest))
                        if matches!(self.globals.get(&a.name), Some((Global::Array { .. }, _)))
                            && self.lookup_local(&a.name).is_none()
                            && rest.len() == if taken { 2 } else { 0 } => {}
                    _ if taken => self.err(Diagnostic::error("`taken` takes the name of an array, an element and a value: `taken(A, i, v)`", e.span)),
                    _ => self.err(Diagnostic::error(format!("`{}` takes the name of an array", f.name), e.span)),
                }
            }
            ExprKind::Call(f, args) => {
                for a in args {
                    self.expr(a);
                }
                match Builtin::from_name(&f.name) {
                    Some(b) if b.is_two_thread() && !self.two_thread_ok => self.err(
                        Diagnostic::error(format!("`{}` speaks of two threads: it may appear only in an `assert`, `assume`, `invariant` or `candidate`", f.name), e.span),
                    ),
                    Some(b) if b.arity() != args.len() => self.err(Diagnostic::error(
                        format!(
                            "built-in `{}` takes {} argument{} but {} {} given",
                            f.name,
                            b.arity(),
                            plural(b.arity()),
                            args.len(),
                            if args.len() == 1 { "was" } else { "were" }
                        ),
                        e.span,
                    )),
                    Some(_) => {}
                    None => {
                        let d = match self.globals.get(&f.name) {
                            Some((Global::Proc { .. }, decl)) => Diagnostic::error(
                                format!("proc `{}` cannot be used in an expression", f.name),
                                f.span,
                            )
                            .with_secondary(*decl, "declared here")
                            .with_help("procs return no value; call it as a statement"),
                            _ => {
                                let close = Builtin::ALL
                                    .iter()
                                    .map(|b| (edit_distance(b.name(), &f.name), b.name()))
                                    .filter(|(d, _)| *d <= 2)
                                    .min();
                                let help = match close {
                                    Some((_, b)) => format!("did you mean `{b}`?"),
                                    None => format!(
                                        "the built-ins are {}",
                                        Builtin::ALL.iter().map(|b| b.name()).collect::<Vec<_>>().join(", ")
                                    ),
                                };
                                Diagnostic::error(format!("no built-in function named `{}`", f.name), f.span).with_help(help)
                            }
                        };
                        self.err(d)
                    }
                }
            }
        }
    }

    /// `requires` may use params, literals, `threads`/`groups` and built-ins only.
    fn requires(&mut self, e: &Expr) {
        self.expr(e);
        e.walk(&mut |sub| {
            let bad = match &sub.kind {
                ExprKind::Index(..) => Some("an array read"),
                ExprKind::Special(Special::Lid, ..) | ExprKind::Special(Special::Gid, ..) => {
                    Some("a thread id")
                }
                _ => None,
            };
            if let Some(what) = bad {
                self.diags.push(
                    Diagnostic::error(format!("`requires` cannot use {what}"), sub.span)
                        .with_help("a `requires` is over params, literals, `threads` and `groups`; use `assume` in `main` instead"),
                );
            }
        });
    }

    fn recursion(&mut self, k: &Kernel) {
        let index: HashMap<&str, usize> = k.procs.iter().enumerate().map(|(i, p)| (p.name.name.as_str(), i)).collect();
        let calls: Vec<Vec<(usize, Span)>> = k
            .procs
            .iter()
            .map(|p| {
                let mut out = Vec::new();
                calls_in(&p.body, &mut |f: &Ident| {
                    if let Some(&j) = index.get(f.name.as_str()) {
                        out.push((j, f.span));
                    }
                });
                out
            })
            .collect();
        // Depth-first search for a cycle; report each proc on a cycle once.
        let n = k.procs.len();
        let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
        let mut reported = vec![false; n];
        fn dfs(
            v: usize,
            calls: &[Vec<(usize, Span)>],
            state: &mut [u8],
            stack: &mut Vec<usize>,
            cycles: &mut Vec<(usize, Span, Vec<usize>)>,
        ) {
            state[v] = 1;
            stack.push(v);
            for &(w, sp) in &calls[v] {
                if state[w] == 1 {
                    let pos = stack.iter().position(|&x| x == w).unwrap_or(0);
                    cycles.push((v, sp, stack[pos..].to_vec()));
                } else if state[w] == 0 {
                    dfs(w, calls, state, stack, cycles);
                }
            }
            stack.pop();
            state[v] = 2;
        }
        let mut cycles = Vec::new();
        for v in 0..n {
            if state[v] == 0 {
                dfs(v, &calls, &mut state, &mut Vec::new(), &mut cycles);
            }
        }
        for (_, sp, cyc) in cycles {
            if cyc.iter().any(|&p| reported[p]) {
                continue;
            }
            for &p in &cyc {
                reported[p] = true;
            }
            let names: Vec<&str> = cyc.iter().map(|&p| k.procs[p].name.name.as_str()).collect();
            let path = if names.len() == 1 {
                format!("`{}` calls itself", names[0])
            } else {
                let mut p = names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>();
                p.push(format!("`{}`", names[0]));
                format!("the calls {} form a cycle", p.join(" -> "))
            };
            self.err(
                Diagnostic::error(format!("recursion is not allowed: {path}"), sp)
                    .with_help("KPL procs cannot recurse, directly or not"),
            );
        }
    }
}

/// Visit the proc called by every call statement in a block.
pub fn calls_in(b: &Block, f: &mut dyn FnMut(&Ident)) {
    for s in &b.stmts {
        calls_in_stmt(s, f);
    }
}

fn calls_in_stmt(s: &Stmt, f: &mut dyn FnMut(&Ident)) {
    match &s.kind {
        StmtKind::Call(name, _) => f(name),
        StmtKind::If(_, t, e) => {
            calls_in(t, f);
            match e.as_deref() {
                Some(Else::Block(b)) => calls_in(b, f),
                Some(Else::If(s)) => calls_in_stmt(s, f),
                None => {}
            }
        }
        StmtKind::While { body, .. } => calls_in(body, f),
        _ => {}
    }
}

fn literal_too_big(sp: Span) -> Diagnostic {
    Diagnostic::error("literal does not fit in 32 bits", sp).with_help("KPL values are 32-bit words (at most 4294967295)")
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Levenshtein distance, for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
