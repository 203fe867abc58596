//! GPUVerify's uniformity analysis: which locals hold one value in every thread (or in
//! every thread of a group), and which loops every thread (of a group) runs alike. A
//! flow-insensitive fixpoint over the kernel's core form: a local is as varying as the
//! most varying value it is given and the control it is given it under. Names are merged
//! across procedures (a clash only makes a name more varying). The verifier does not trust
//! the result: it gives Houdini candidates, kept with `--no-infer` too (where GPUVerify
//! trusts its analysis), and Houdini checks them like any other.

use kpl_lang::ast::*;
use std::collections::HashMap;

/// How alike a value is across threads: the same in every thread, in every thread of a
/// group, or possibly different in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    Uniform,
    InGroup,
    Varying,
}

#[derive(Default)]
pub(crate) struct Uniformity {
    vars: HashMap<String, Level>,
    /// By the loop statement's span: how alike the threads run it.
    loops: HashMap<(usize, usize), Level>,
    procs: HashMap<String, Level>,
    changed: bool,
}

impl Uniformity {
    /// How alike local `x` is (a name never given a value is a kernel param, the same in
    /// every thread).
    pub(crate) fn var(&self, x: &str) -> Level {
        self.vars.get(x).copied().unwrap_or(Level::Uniform)
    }

    /// How alike the threads run the loop at `span` (`Varying` if unknown).
    pub(crate) fn loop_level(&self, span: (usize, usize)) -> Level {
        self.loops.get(&span).copied().unwrap_or(Level::Varying)
    }

    fn raise_var(&mut self, x: &str, l: Level) {
        let cur = self.vars.entry(x.to_string()).or_insert(Level::Uniform);
        if l > *cur {
            *cur = l;
            self.changed = true;
        }
    }

    /// How alike the value of `e` is.
    pub(crate) fn expr(&self, e: &Expr) -> Level {
        match &e.kind {
            ExprKind::Num(_) | ExprKind::Bool(_) => Level::Uniform,
            ExprKind::Var(x) => self.var(&x.name),
            ExprKind::Index(..) | ExprKind::Error => Level::Varying,
            ExprKind::Special(s, ..) => match s {
                Special::Lid => Level::Varying,
                Special::Gid => Level::InGroup,
                Special::Threads | Special::Groups => Level::Uniform,
            },
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::Binary(_, a, b) => self.expr(a).max(self.expr(b)),
            ExprKind::Cond(c, a, b) => self.expr(c).max(self.expr(a)).max(self.expr(b)),
            ExprKind::Call(f, args) => match Builtin::from_name(&f.name) {
                Some(Builtin::Other | Builtin::Enabled) | None => Level::Varying,
                Some(b) if b.is_access() => Level::Varying,
                Some(_) => args.iter().map(|a| self.expr(a)).max().unwrap_or(Level::Uniform),
            },
        }
    }

    /// The most varying control under which the block jumps (`break`/`continue` of the
    /// loop it is the body of, when `in_loop`; `return` anywhere).
    fn jumps(&self, b: &Block, ctl: Level, in_loop: bool) -> Level {
        b.stmts.iter().map(|s| self.stmt_jumps(s, ctl, in_loop)).max().unwrap_or(Level::Uniform)
    }

    fn stmt_jumps(&self, s: &Stmt, ctl: Level, in_loop: bool) -> Level {
        match &s.kind {
            StmtKind::Break | StmtKind::Continue if in_loop => ctl,
            StmtKind::Return => ctl,
            StmtKind::If(c, t, e) => {
                let inner = ctl.max(self.expr(c));
                let els = match e.as_deref() {
                    Some(Else::Block(b)) => self.jumps(b, inner, in_loop),
                    Some(Else::If(s)) => self.stmt_jumps(s, inner, in_loop),
                    None => Level::Uniform,
                };
                self.jumps(t, inner, in_loop).max(els)
            }
            StmtKind::While { cond, body, .. } => self.jumps(body, ctl.max(self.expr(cond)), false),
            _ => Level::Uniform,
        }
    }

    fn block(&mut self, k: &Kernel, b: &Block, ctl: Level) {
        for s in &b.stmts {
            self.stmt(k, s, ctl);
        }
    }

    fn stmt(&mut self, k: &Kernel, s: &Stmt, ctl: Level) {
        match &s.kind {
            StmtKind::Local(x, None) => self.raise_var(&x.name, ctl),
            StmtKind::Local(x, Some(e)) | StmtKind::Assign(x, e) => {
                let l = ctl.max(self.expr(e));
                self.raise_var(&x.name, l);
            }
            StmtKind::Havoc(x) => self.raise_var(&x.name, Level::Varying),
            StmtKind::Atomic(a) => {
                for d in a.dest.iter().chain(&a.dest_hi) {
                    self.raise_var(&d.name, Level::Varying);
                }
            }
            StmtKind::Warp(w) => {
                if let Some(d) = &w.dest {
                    self.raise_var(&d.name, Level::Varying);
                }
            }
            StmtKind::If(c, t, e) => {
                let inner = ctl.max(self.expr(c));
                self.block(k, t, inner);
                match e.as_deref() {
                    Some(Else::Block(b)) => self.block(k, b, inner),
                    Some(Else::If(s)) => self.stmt(k, s, inner),
                    None => {}
                }
            }
            StmtKind::While { cond, body, .. } => {
                let l = ctl.max(self.expr(cond)).max(self.jumps(body, ctl, true));
                let slot = self.loops.entry((s.span.start, s.span.end)).or_insert(Level::Uniform);
                if l > *slot {
                    *slot = l;
                    self.changed = true;
                }
                let l = *slot;
                self.block(k, body, l);
            }
            StmtKind::Call(f, args) => {
                let Some(pr) = k.procs.iter().find(|p| p.name.name == f.name) else { return };
                for (x, a) in pr.params.iter().zip(args) {
                    let l = ctl.max(self.expr(a));
                    self.raise_var(&x.name, l);
                }
                let slot = self.procs.entry(f.name.clone()).or_insert(Level::Uniform);
                if ctl > *slot {
                    *slot = ctl;
                    self.changed = true;
                }
            }
            StmtKind::Store(..)
            | StmtKind::Touch { .. }
            | StmtKind::Snapshot { .. }
            | StmtKind::Barrier(_)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Assert(..)
            | StmtKind::Assume(_)
            | StmtKind::MemFence(..)
            | StmtKind::Error => {}
        }
    }
}

/// The analysis of a kernel.
pub(crate) fn analyse(k: &Kernel) -> Uniformity {
    let mut u = Uniformity::default();
    loop {
        u.changed = false;
        // A `return` under varying control leaves the rest of its body varying.
        let main_ctl = u.jumps(&k.main, Level::Uniform, false);
        u.block(k, &k.main, main_ctl);
        for pr in &k.procs {
            let ctl = u.procs.get(&pr.name.name).copied().unwrap_or(Level::Uniform);
            let ctl = ctl.max(u.jumps(&pr.body, ctl, false));
            u.block(k, &pr.body, ctl);
        }
        if !u.changed {
            return u;
        }
    }
}
