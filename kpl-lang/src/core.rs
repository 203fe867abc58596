//! The core form (KPL.md, "Core form"): array reads inside expressions are hoisted, left to
//! right, into fresh locals, so that every array access is one of the paper's basic
//! statements `v := A[e]` or `A[e1] := e2` with `e`, `e1`, `e2` free of reads. Each hoisted
//! read keeps the span of the read it came from.

use crate::ast::*;
use crate::span::Span;
use std::collections::HashSet;

/// The core form of a checked kernel. A `while` whose condition reads arrays becomes
/// `while true { <reads>; if !cond { break; } <body> }`, so the reads happen at every loop
/// head, by every thread whose loop predicate holds.
pub fn to_core(k: &Kernel) -> Kernel {
    let mut used = HashSet::new();
    collect_names(k, &mut used);
    let mut d = Desugar { used, next: 0 };
    Kernel {
        name: k.name.clone(),
        decls: k.decls.clone(),
        procs: k
            .procs
            .iter()
            .map(|p| Proc { name: p.name.clone(), params: p.params.clone(), body: d.block(&p.body), span: p.span })
            .collect(),
        main: d.block(&k.main),
        span: k.span,
    }
}

/// Is the kernel in core form (no read nested inside another expression)?
pub fn is_core(k: &Kernel) -> bool {
    fn block(b: &Block) -> bool {
        b.stmts.iter().all(stmt)
    }
    fn basic_read(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Index(_, i) => !i.has_reads(),
            _ => !e.has_reads(),
        }
    }
    fn stmt(s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::Local(_, Some(e)) | StmtKind::Assign(_, e) => basic_read(e),
            StmtKind::Store(_, i, e) => !i.has_reads() && !e.has_reads(),
            StmtKind::If(c, t, e) => {
                !c.has_reads()
                    && block(t)
                    && match e.as_deref() {
                        Some(Else::Block(b)) => block(b),
                        Some(Else::If(s)) => stmt(s),
                        None => true,
                    }
            }
            // An invariant's reads are the thread's view, not accesses: they stay.
            StmtKind::While { cond, body, .. } => !cond.has_reads() && block(body),
            StmtKind::Call(_, args) => args.iter().all(|a| !a.has_reads()),
            StmtKind::Assert(e, _) | StmtKind::Assume(e) => !e.has_reads(),
            StmtKind::Barrier(f) => !f.shared.has_reads() && !f.global.has_reads(),
            StmtKind::Atomic(a) => !a.index.has_reads() && a.args.iter().all(|e| !e.has_reads()),
            StmtKind::Warp(w) => w.args.iter().chain(&w.exited).all(|e| !e.has_reads()),
            _ => true,
        }
    }
    k.procs.iter().all(|p| block(&p.body)) && block(&k.main)
}

struct Desugar {
    used: HashSet<String>,
    next: usize,
}

impl Desugar {
    fn fresh(&mut self) -> String {
        loop {
            let name = format!("_r{}", self.next);
            self.next += 1;
            if self.used.insert(name.clone()) {
                return name;
            }
        }
    }

    fn block(&mut self, b: &Block) -> Block {
        let mut stmts = Vec::new();
        for s in &b.stmts {
            self.stmt(s, &mut stmts);
        }
        Block { stmts, span: b.span }
    }

    /// Hoist the reads of `e` into `out`; returns the read-free expression.
    fn hoist(&mut self, e: &Expr, out: &mut Vec<Stmt>) -> Expr {
        let kind = match &e.kind {
            ExprKind::Index(a, i) => {
                let i = self.hoist(i, out);
                let name = self.fresh();
                let read = Expr::new(ExprKind::Index(a.clone(), Box::new(i)), e.span);
                out.push(Stmt { kind: StmtKind::Local(Ident::new(name.clone(), e.span), Some(read)), span: e.span });
                ExprKind::Var(Ident::new(name, e.span))
            }
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(self.hoist(a, out))),
            ExprKind::Binary(op, a, b) => {
                let a = self.hoist(a, out);
                let b = self.hoist(b, out);
                ExprKind::Binary(*op, Box::new(a), Box::new(b))
            }
            ExprKind::Cond(a, b, c) => {
                let a = self.hoist(a, out);
                let b = self.hoist(b, out);
                let c = self.hoist(c, out);
                ExprKind::Cond(Box::new(a), Box::new(b), Box::new(c))
            }
            ExprKind::Call(f, args) => ExprKind::Call(f.clone(), args.iter().map(|a| self.hoist(a, out)).collect()),
            other => other.clone(),
        };
        Expr::new(kind, e.span)
    }

    /// Like `hoist`, but a top-level read stays (it is already the basic `v := A[e]`).
    fn hoist_rhs(&mut self, e: &Expr, out: &mut Vec<Stmt>) -> Expr {
        match &e.kind {
            ExprKind::Index(a, i) => {
                let i = self.hoist(i, out);
                Expr::new(ExprKind::Index(a.clone(), Box::new(i)), e.span)
            }
            _ => self.hoist(e, out),
        }
    }

    fn stmt(&mut self, s: &Stmt, out: &mut Vec<Stmt>) {
        let kind = match &s.kind {
            StmtKind::Local(x, Some(e)) => StmtKind::Local(x.clone(), Some(self.hoist_rhs(e, out))),
            StmtKind::Assign(x, e) => StmtKind::Assign(x.clone(), self.hoist_rhs(e, out)),
            StmtKind::Store(a, i, e) => {
                let i = self.hoist(i, out);
                let e = self.hoist(e, out);
                StmtKind::Store(a.clone(), i, e)
            }
            StmtKind::If(c, t, e) => {
                let c = self.hoist(c, out);
                let t = self.block(t);
                let e = e.as_deref().map(|e| match e {
                    Else::Block(b) => Else::Block(self.block(b)),
                    Else::If(s) => {
                        let mut inner = Vec::new();
                        self.stmt(s, &mut inner);
                        if inner.len() == 1 {
                            Else::If(inner.pop().unwrap_or_else(|| s.clone()))
                        } else {
                            Else::Block(Block { stmts: inner, span: s.span })
                        }
                    }
                });
                StmtKind::If(c, t, e.map(Box::new))
            }
            StmtKind::While { cond, invariants, candidates, body } => {
                let body = self.block(body);
                if cond.has_reads() {
                    let mut head = Vec::new();
                    let c = self.hoist(cond, &mut head);
                    let not_c = Expr::new(ExprKind::Unary(UnOp::Not, Box::new(c)), cond.span);
                    let brk = Block { stmts: vec![Stmt { kind: StmtKind::Break, span: cond.span }], span: cond.span };
                    head.push(Stmt { kind: StmtKind::If(not_c, brk, None), span: cond.span });
                    head.extend(body.stmts);
                    StmtKind::While {
                        cond: Expr::new(ExprKind::Bool(true), cond.span),
                        invariants: invariants.clone(),
                        candidates: candidates.clone(),
                        body: Block { stmts: head, span: body.span },
                    }
                } else {
                    StmtKind::While { cond: cond.clone(), invariants: invariants.clone(), candidates: candidates.clone(), body }
                }
            }
            StmtKind::Call(f, args) => StmtKind::Call(f.clone(), args.iter().map(|a| self.hoist(a, out)).collect()),
            StmtKind::Assert(e, global) => StmtKind::Assert(self.hoist(e, out), *global),
            StmtKind::Assume(e) => StmtKind::Assume(self.hoist(e, out)),
            StmtKind::Atomic(a) => {
                let index = self.hoist(&a.index, out);
                let args = a.args.iter().map(|e| self.hoist(e, out)).collect();
                StmtKind::Atomic(Atomic { index, args, ..a.clone() })
            }
            StmtKind::Warp(w) => StmtKind::Warp(Warp { args: w.args.iter().map(|e| self.hoist(e, out)).collect(), ..w.clone() }),
            StmtKind::Barrier(f) => {
                let shared = self.hoist(&f.shared, out);
                let global = self.hoist(&f.global, out);
                // A barrier invariant's reads are not accesses: they stay where they are.
                StmtKind::Barrier(Fence { shared, global, invariants: f.invariants.clone(), grid: f.grid })
            }
            other => other.clone(),
        };
        out.push(Stmt { kind, span: s.span });
    }
}

/// Every identifier written anywhere in the kernel (so fresh names avoid them all).
fn collect_names(k: &Kernel, used: &mut HashSet<String>) {
    used.insert(k.name.name.clone());
    for d in &k.decls {
        match &d.kind {
            DeclKind::Shared { name, .. } | DeclKind::Global { name, .. } | DeclKind::Param(name) => {
                used.insert(name.name.clone());
            }
            DeclKind::Requires(e) => expr_names(e, used),
            _ => {}
        }
    }
    for p in &k.procs {
        used.insert(p.name.name.clone());
        for x in &p.params {
            used.insert(x.name.clone());
        }
        block_names(&p.body, used);
    }
    block_names(&k.main, used);
}

fn expr_names(e: &Expr, used: &mut HashSet<String>) {
    e.walk(&mut |s| match &s.kind {
        ExprKind::Var(x) | ExprKind::Index(x, _) | ExprKind::Call(x, _) => {
            used.insert(x.name.clone());
        }
        _ => {}
    });
}

fn block_names(b: &Block, used: &mut HashSet<String>) {
    for s in &b.stmts {
        stmt_names(s, used);
    }
}

fn stmt_names(s: &Stmt, used: &mut HashSet<String>) {
    match &s.kind {
        StmtKind::Local(x, e) => {
            used.insert(x.name.clone());
            if let Some(e) = e {
                expr_names(e, used);
            }
        }
        StmtKind::Assign(x, e) => {
            used.insert(x.name.clone());
            expr_names(e, used);
        }
        StmtKind::Havoc(x) | StmtKind::Touch { array: x, .. } => {
            used.insert(x.name.clone());
        }
        StmtKind::Snapshot { dest, src } => {
            used.insert(dest.name.clone());
            used.insert(src.name.clone());
        }
        StmtKind::Store(a, i, e) => {
            used.insert(a.name.clone());
            expr_names(i, used);
            expr_names(e, used);
        }
        StmtKind::If(c, t, e) => {
            expr_names(c, used);
            block_names(t, used);
            match e.as_deref() {
                Some(Else::Block(b)) => block_names(b, used),
                Some(Else::If(s)) => stmt_names(s, used),
                None => {}
            }
        }
        StmtKind::While { cond, invariants, candidates, body } => {
            expr_names(cond, used);
            invariants.iter().chain(candidates).for_each(|i| expr_names(i, used));
            block_names(body, used);
        }
        StmtKind::Call(f, args) => {
            used.insert(f.name.clone());
            args.iter().for_each(|a| expr_names(a, used));
        }
        StmtKind::Assert(e, _) | StmtKind::Assume(e) => expr_names(e, used),
        StmtKind::Barrier(f) => {
            expr_names(&f.shared, used);
            expr_names(&f.global, used);
            for inv in &f.invariants {
                expr_names(&inv.expr, used);
                inv.insts.iter().flatten().for_each(|e| expr_names(e, used));
            }
        }
        StmtKind::Atomic(a) => {
            for x in a.dest.iter().chain(&a.dest_hi) {
                used.insert(x.name.clone());
            }
            expr_names(&a.index, used);
            a.args.iter().for_each(|e| expr_names(e, used));
        }
        StmtKind::Warp(w) => {
            if let Some(x) = &w.dest {
                used.insert(x.name.clone());
            }
            w.args.iter().chain(&w.exited).for_each(|e| expr_names(e, used));
        }
        _ => {}
    }
}

/// A span-free copy, for comparing ASTs "spans aside".
pub fn strip_spans(k: &Kernel) -> Kernel {
    let mut k = k.clone();
    StripSpans.kernel(&mut k);
    k
}

struct StripSpans;

impl StripSpans {
    fn id(&self, x: &mut Ident) {
        x.span = Span::DUMMY;
    }
    fn kernel(&self, k: &mut Kernel) {
        k.span = Span::DUMMY;
        self.id(&mut k.name);
        for d in &mut k.decls {
            d.span = Span::DUMMY;
            match &mut d.kind {
                DeclKind::Groups(ds) | DeclKind::Threads(ds) => {
                    ds.span = Span::DUMMY;
                    for x in &mut ds.dims {
                        x.1 = Span::DUMMY;
                    }
                }
                DeclKind::Shared { name, size } | DeclKind::Global { name, size } => {
                    self.id(name);
                    if let Some(s) = size {
                        s.1 = Span::DUMMY;
                    }
                }
                DeclKind::Param(x) => self.id(x),
                DeclKind::Requires(e) => self.expr(e),
            }
        }
        for p in &mut k.procs {
            p.span = Span::DUMMY;
            self.id(&mut p.name);
            p.params.iter_mut().for_each(|x| self.id(x));
            self.block(&mut p.body);
        }
        self.block(&mut k.main);
    }
    fn block(&self, b: &mut Block) {
        b.span = Span::DUMMY;
        b.stmts.iter_mut().for_each(|s| self.stmt(s));
    }
    fn stmt(&self, s: &mut Stmt) {
        s.span = Span::DUMMY;
        match &mut s.kind {
            StmtKind::Local(x, e) => {
                self.id(x);
                if let Some(e) = e {
                    self.expr(e)
                }
            }
            StmtKind::Assign(x, e) => {
                self.id(x);
                self.expr(e)
            }
            StmtKind::Havoc(x) | StmtKind::Touch { array: x, .. } => self.id(x),
            StmtKind::Snapshot { dest, src } => {
                self.id(dest);
                self.id(src);
            }
            StmtKind::Store(a, i, e) => {
                self.id(a);
                self.expr(i);
                self.expr(e)
            }
            StmtKind::If(c, t, e) => {
                self.expr(c);
                self.block(t);
                match e.as_deref_mut() {
                    Some(Else::Block(b)) => self.block(b),
                    Some(Else::If(s)) => self.stmt(s),
                    None => {}
                }
            }
            StmtKind::While { cond, invariants, candidates, body } => {
                self.expr(cond);
                invariants.iter_mut().chain(candidates.iter_mut()).for_each(|i| self.expr(i));
                self.block(body)
            }
            StmtKind::Call(f, args) => {
                self.id(f);
                args.iter_mut().for_each(|a| self.expr(a))
            }
            StmtKind::Assert(e, _) | StmtKind::Assume(e) => self.expr(e),
            StmtKind::Barrier(f) => {
                self.expr(&mut f.shared);
                self.expr(&mut f.global);
                for inv in &mut f.invariants {
                    inv.span = Span::DUMMY;
                    self.expr(&mut inv.expr);
                    inv.insts.iter_mut().flatten().for_each(|e| self.expr(e));
                }
            }
            StmtKind::Atomic(a) => {
                for x in a.dest.iter_mut().chain(a.dest_hi.iter_mut()) {
                    self.id(x);
                }
                self.id(&mut a.op);
                self.id(&mut a.array);
                self.expr(&mut a.index);
                a.args.iter_mut().for_each(|e| self.expr(e));
            }
            StmtKind::Warp(w) => {
                if let Some(x) = &mut w.dest {
                    self.id(x);
                }
                self.id(&mut w.op);
                w.args.iter_mut().chain(w.exited.iter_mut()).for_each(|e| self.expr(e));
            }
            _ => {}
        }
    }
    fn expr(&self, e: &mut Expr) {
        e.span = Span::DUMMY;
        match &mut e.kind {
            ExprKind::Var(x) => self.id(x),
            ExprKind::Index(a, i) => {
                self.id(a);
                self.expr(i)
            }
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b)
            }
            ExprKind::Cond(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c)
            }
            ExprKind::Call(f, args) => {
                self.id(f);
                args.iter_mut().for_each(|a| self.expr(a))
            }
            _ => {}
        }
    }
}
