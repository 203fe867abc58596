//! KPL core form ─► the two-thread sequential program (paper, section 5.2, Figure 9).
//!
//! Two symbolic threads with ids constrained to the launch and distinct; every local
//! duplicated (`x$1`, `x$2`); predicated execution (a statement of thread t runs under a
//! boolean predicate `p$t`; a loop runs while either thread's loop predicate holds);
//! procs inlined; race instrumentation with one tracked access per array and kind, logged
//! for thread 1 by nondeterministic choice and checked at thread 2's accesses (the pair is
//! arbitrary, so this covers both orders); a divergence check at each barrier; bounds and
//! `assert` checks for thread 1 (again enough by symmetry). Each shared array is abstracted
//! adversarially (reads are arbitrary) or by equality (per-thread copies made arbitrary but
//! equal at each barrier) (paper, section 4).

use crate::builder::{AbstractionChoice, Builder, Config, Frame, Inst, Pair};
use crate::kernel_walk::walk;
use crate::seq::*;
use crate::taint;
use kpl_lang::ast::{self, Axis, BinOp, Builtin, ExprKind, Special, StmtKind, UnOp};
use std::collections::{BTreeMap, HashMap};

/// The prefix of the inputs that are a free grid's sizes (`groups.x`, ...:
/// `Launch::free_groups`), which a witness reads back (`grid_input_axis`).
const GRID_INPUT: &str = "groups.";

/// The axis (0, 1, 2) of a program input that is a free grid's size, `None` for any other.
pub fn grid_input_axis(name: &str) -> Option<usize> {
    ["x", "y", "z"].iter().position(|a| Some(*a) == name.strip_prefix(GRID_INPUT))
}

/// Build the sequential program of a checked kernel's core form.
pub fn reduce(core: &ast::Kernel, cfg: &Config) -> Program {
    let chosen = taint::choose(core);
    let mut b = Builder {
        kernel: core,
        cfg: cfg.clone(),
        prog: Program {
            vars: Vec::new(),
            body: Vec::new(),
            labels: Vec::new(),
            loops: Vec::new(),
            candidates: Vec::new(),
            arrays: Vec::new(),
            inputs: Vec::new(),
            sites: Vec::new(),
        },
        scope: Vec::new(),
        params: HashMap::new(),
        arrays: HashMap::new(),
        inst: Vec::new(),
        copies: Vec::new(),
        lid: std::array::from_fn(|_| std::array::from_fn(|_| Expr::Word(0))),
        gid: std::array::from_fn(|_| std::array::from_fn(|_| Expr::Word(0))),
        groups: std::array::from_fn(|_| Expr::Word(1)),
        same_group: Expr::Bool(true),
        distinct: Expr::Bool(true),
        frames: vec![Frame::default()],
        out: Vec::new(),
        names: HashMap::new(),
        barrier_before: false,
        barrier_loops: 0,
        enclosing_ranges: Vec::new(),
        linear: [Expr::Word(0), Expr::Word(0)],
        same_warp: None,
        warp_mates: None,
        enabled: None,
        not_accessed: Vec::new(),
        observes_disabled: core.observes_disabled(),
        written: written_arrays(core),
        read_predicated: read_predicated_arrays(core),
        uniformity: crate::uniformity::analyse(core),
        trips: match cfg.loop_unwind {
            Some(n) if cfg.unwind_constant_loops => crate::unwind::constant_trips(core, n),
            _ => HashMap::new(),
        },
        tickets: crate::atomic_tickets::ticket_arrays(core),
        owned: Vec::new(),
        epoch: None,
    };
    b.prelude(&chosen);
    b.epoch_prelude();
    let main = &core.main;
    b.block(main, [Expr::Bool(true), Expr::Bool(true)]);
    b.prog.body = std::mem::take(&mut b.out);
    b.prog
}

impl<'k> Builder<'k> {
    pub(crate) fn var(&mut self, name: &str, sort: Sort) -> VarId {
        let n = self.names.entry(name.to_string()).or_insert(0);
        *n += 1;
        let full = if *n == 1 { name.to_string() } else { format!("{name}#{n}") };
        self.prog.vars.push(VarInfo { name: full, sort });
        VarId(self.prog.vars.len() as u32 - 1)
    }

    /// A variable for each thread: `name$1`, `name$2` (numbered if the name repeats).
    pub(crate) fn pair(&mut self, name: &str, sort: Sort) -> [VarId; 2] {
        let n = self.names.entry(format!("{name}$")).or_insert(0);
        *n += 1;
        let base = if *n == 1 { name.to_string() } else { format!("{name}#{n}") };
        let mk = |b: &mut Builder, t: usize| {
            b.prog.vars.push(VarInfo { name: format!("{base}${t}"), sort });
            VarId(b.prog.vars.len() as u32 - 1)
        };
        [mk(self, 1), mk(self, 2)]
    }

    pub(crate) fn emit(&mut self, s: Stmt) {
        self.out.push(s);
    }

    pub(crate) fn assign(&mut self, v: VarId, e: Expr) {
        self.emit(Stmt::Assign(v, e));
    }

    pub(crate) fn label(&mut self, kind: LabelKind, span: kpl_lang::Span, what: String) -> usize {
        self.prog.labels.push(Label { kind, span: (span.start, span.end), what, subject: None });
        self.prog.labels.len() - 1
    }

    pub(crate) fn assert(&mut self, e: Expr, kind: LabelKind, span: kpl_lang::Span, what: String) {
        self.assert_about(e, kind, span, what, None);
    }

    pub(crate) fn assert_about(&mut self, e: Expr, kind: LabelKind, span: kpl_lang::Span, what: String, subject: Option<Expr>) {
        if e == Expr::Bool(true) {
            return;
        }
        if self.cfg.perf.is_some() {
            // Perf mode checks only performance; a barrier is assumed reached by both or
            // neither of the pair (the kernel's correctness is `kpl verify`'s question).
            match kind {
                LabelKind::Perf { .. } => {}
                LabelKind::Divergence => return self.emit(Stmt::Assume(e)),
                _ => return,
            }
        }
        let l = self.label(kind, span, what);
        self.prog.labels[l].subject = subject;
        self.emit(Stmt::Assert(e, l));
    }

    /// A new predicate pair `q$t := e_t`, unless `e` is already a variable or constant.
    fn pred(&mut self, name: &str, e: Pair) -> Pair {
        if e.iter().all(|x| matches!(x, Expr::Var(_) | Expr::Bool(_))) {
            return e;
        }
        let q = self.pair(name, Sort::Bool);
        let [e1, e2] = e;
        self.assign(q[0], e1);
        self.assign(q[1], e2);
        [Expr::Var(q[0]), Expr::Var(q[1])]
    }

    fn prelude(&mut self, chosen: &BTreeMap<String, Abstraction>) {
        let l = self.cfg.launch;
        let atomics = atomic_arrays(self.kernel);
        // A grid computed at run time: its size on a free axis is an input, from 1 to the
        // bound (a launch of 0 groups, or more than CUDA allows, runs no thread).
        for a in Axis::ALL {
            let i = a.index();
            self.groups[i] = if l.free_groups[i] {
                let name = format!("{GRID_INPUT}{}", a.name());
                let g = self.var(&name, Sort::Word);
                self.prog.inputs.push((name, g));
                let within = Expr::and2(Expr::ult(Expr::Word(0), Expr::Var(g)), Expr::not(Expr::ult(Expr::Word(l.groups[i]), Expr::Var(g))));
                self.emit(Stmt::Assume(within));
                Expr::Var(g)
            } else {
                Expr::Word(l.groups[i])
            };
        }
        for t in 0..2 {
            for a in Axis::ALL {
                let lv = self.var(&format!("lid{}.{}", t + 1, a.name()), Sort::Word);
                let gv = self.var(&format!("gid{}.{}", t + 1, a.name()), Sort::Word);
                self.lid[t][a.index()] = Expr::Var(lv);
                self.gid[t][a.index()] = Expr::Var(gv);
                self.prog.inputs.push((format!("lid{}.{}", t + 1, a.name()), lv));
                self.prog.inputs.push((format!("gid{}.{}", t + 1, a.name()), gv));
                let bounds = Expr::and2(
                    Expr::ult(Expr::Var(lv), Expr::Word(l.threads[a.index()])),
                    Expr::ult(Expr::Var(gv), self.groups[a.index()].clone()),
                );
                self.emit(Stmt::Assume(bounds));
            }
        }
        let same = Expr::and(
            (0..3).map(|a| Expr::eq(self.gid[0][a].clone(), self.gid[1][a].clone())).collect(),
        );
        let same_lid = Expr::and((0..3).map(|a| Expr::eq(self.lid[0][a].clone(), self.lid[1][a].clone())).collect());
        let sg = self.var("same_group", Sort::Bool);
        self.assign(sg, same);
        self.same_group = Expr::Var(sg);
        let dv = self.var("distinct", Sort::Bool);
        self.assign(dv, Expr::not(Expr::and2(Expr::Var(sg), same_lid)));
        self.distinct = Expr::Var(dv);
        // (With a free grid, its smallest launch: a kernel of one thread per group may run
        // as one thread, whose assertions are checked with the pair's threads equal.)
        if l.least().total_threads() >= 2 {
            self.emit(Stmt::Assume(Expr::Var(dv)));
        }
        // `--only-intra-group` leaves out races between groups and nothing else: a kernel
        // with a grid barrier still needs pairs of two groups for that barrier's
        // divergence, so there the pair stays free and `relevant` drops the races instead.
        if self.cfg.perf.is_some() || (self.cfg.only_intra_group && !has_grid_barrier(self.kernel)) {
            self.emit(Stmt::Assume(Expr::Var(sg)));
        }
        if let Some(m) = self.cfg.perf {
            self.perf_prelude(m);
        } else if let Some(w) = self.cfg.warp_sync {
            self.linear_ids();
            let same = Expr::and2(Expr::Var(sg), self.same_block(w));
            let v = self.var("same_warp", Sort::Bool);
            self.assign(v, same);
            self.same_warp = Some(Expr::Var(v));
        }
        if crate::kernel_walk::has_warp_collectives(self.kernel) {
            self.warp_prelude();
        }
        for d in &self.kernel.decls {
            if let ast::DeclKind::Param(x) = &d.kind {
                let v = self.var(&x.name, Sort::Word);
                self.params.insert(x.name.clone(), v);
                self.prog.inputs.push((x.name.clone(), v));
            }
        }
        for d in &self.kernel.decls {
            if let ast::DeclKind::Requires(e) = &d.kind {
                let c = Expr::to_bool(self.expr(e, 0));
                self.emit(Stmt::Assume(c));
            }
        }
        for d in &self.kernel.decls {
            let (name, shared, size) = match &d.kind {
                ast::DeclKind::Shared { name, size } => (name, true, size.map(|s| s.0 as u32)),
                ast::DeclKind::Global { name, size } => (name, false, size.map(|s| s.0 as u32)),
                _ => continue,
            };
            let abstraction = match self.cfg.abstraction {
                AbstractionChoice::Auto => chosen.get(&name.name).copied().unwrap_or(Abstraction::Adversarial),
                AbstractionChoice::Equality => Abstraction::Equality,
                AbstractionChoice::Adversarial => Abstraction::Adversarial,
            };
            self.arrays.insert(name.name.clone(), self.prog.arrays.len());
            self.prog.arrays.push(ArrayInfo { name: name.name.clone(), shared, size, abstraction });
            let n = &name.name;
            let inst = Inst {
                wr_exists: self.var(&format!("WR_exists_{n}"), Sort::Bool),
                wr_elem: self.var(&format!("WR_elem_{n}"), Sort::Word),
                wr_stmt: self.var(&format!("WR_stmt_{n}"), Sort::Word),
                wr_val: self.var(&format!("WR_val_{n}"), Sort::Word),
                rd_exists: self.var(&format!("RD_exists_{n}"), Sort::Bool),
                rd_elem: self.var(&format!("RD_elem_{n}"), Sort::Word),
                rd_stmt: self.var(&format!("RD_stmt_{n}"), Sort::Word),
                rd_val: self.var(&format!("RD_val_{n}"), Sort::Word),
                wr_fresh: self.var(&format!("WR_fresh_{n}"), Sort::Bool),
                at_narrow: (atomics.get(n.as_str()) == Some(&true)).then(|| self.var(&format!("AT_narrow_{n}"), Sort::Word)),
                atomic: atomics.contains_key(n.as_str()).then(|| {
                    (
                        self.var(&format!("AT_exists_{n}"), Sort::Bool),
                        self.var(&format!("AT_elem_{n}"), Sort::Word),
                        self.var(&format!("AT_stmt_{n}"), Sort::Word),
                    )
                }),
            };
            self.assign(inst.wr_exists, Expr::Bool(false));
            self.assign(inst.rd_exists, Expr::Bool(false));
            if let Some((at, _, _)) = inst.atomic {
                self.assign(at, Expr::Bool(false));
            }
            self.inst.push(inst);
            let copies = (abstraction == Abstraction::Equality).then(|| {
                let c = self.pair(n, Sort::Array);
                // All threads start from the same contents; a shared array's only within a group.
                let same = Expr::eq(Expr::Var(c[0]), Expr::Var(c[1]));
                let assume = if shared { Expr::implies(Expr::Var(sg), same) } else { same };
                self.emit(Stmt::Assume(assume));
                c
            });
            self.copies.push(copies);
        }
        self.declare_not_accessed();
    }

    /// The kernel's params, which mean the same in every scope.
    pub(crate) fn param_names(&self) -> std::collections::BTreeSet<String> {
        self.params.keys().cloned().collect()
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<[VarId; 2]> {
        for s in self.scope.iter().rev() {
            match s {
                None => return None,
                Some((n, v)) if n == name => return Some(*v),
                _ => {}
            }
        }
        None
    }

    fn declare(&mut self, name: &str) -> [VarId; 2] {
        let v = self.pair(name, Sort::Word);
        self.scope.push(Some((name.to_string(), v)));
        v
    }

    /// A word-valued expression of thread `t` (0 or 1).
    pub(crate) fn expr(&self, e: &ast::Expr, t: usize) -> Expr {
        let w = |e: Expr| Expr::to_word(e);
        let b = |x: &ast::Expr| Expr::to_bool(self.expr(x, t));
        match &e.kind {
            ExprKind::Num(n) => Expr::Word(*n as u32),
            ExprKind::Bool(v) => Expr::Word(*v as u32),
            ExprKind::Var(x) => match self.lookup(&x.name) {
                Some(v) => Expr::Var(v[t]),
                None => self.params.get(&x.name).map(|v| Expr::Var(*v)).unwrap_or(Expr::Word(0)),
            },
            ExprKind::Special(s, a, _) => match s {
                Special::Lid => self.lid[t][a.index()].clone(),
                Special::Gid => self.gid[t][a.index()].clone(),
                Special::Threads => Expr::Word(self.cfg.launch.threads[a.index()]),
                Special::Groups => self.groups[a.index()].clone(),
            },
            ExprKind::Unary(op, a) => match op {
                UnOp::Not => w(Expr::not(b(a))),
                UnOp::BitNot => Expr::BvNot(Box::new(self.expr(a, t))),
                UnOp::Neg => Expr::Neg(Box::new(self.expr(a, t))),
            },
            ExprKind::Binary(op, x, y) => {
                let (ex, ey) = (|| self.expr(x, t), || self.expr(y, t));
                use BinOp::*;
                match op {
                    LOr => w(Expr::or2(b(x), b(y))),
                    LAnd => w(Expr::and2(b(x), b(y))),
                    BitOr => Expr::bin(WordOp::Or, ex(), ey()),
                    BitXor => Expr::bin(WordOp::Xor, ex(), ey()),
                    BitAnd => Expr::bin(WordOp::And, ex(), ey()),
                    Eq => w(Expr::eq(ex(), ey())),
                    Ne => w(Expr::not(Expr::eq(ex(), ey()))),
                    Lt => w(Expr::cmp(CmpOp::Ult, ex(), ey())),
                    Le => w(Expr::cmp(CmpOp::Ule, ex(), ey())),
                    Gt => w(Expr::cmp(CmpOp::Ult, ey(), ex())),
                    Ge => w(Expr::cmp(CmpOp::Ule, ey(), ex())),
                    Shl => Expr::bin(WordOp::Shl, ex(), ey()),
                    Shr => Expr::bin(WordOp::Lshr, ex(), ey()),
                    Add => Expr::bin(WordOp::Add, ex(), ey()),
                    Sub => Expr::bin(WordOp::Sub, ex(), ey()),
                    Mul => Expr::bin(WordOp::Mul, ex(), ey()),
                    Div => Expr::bin(WordOp::Udiv, ex(), ey()),
                    Rem => Expr::bin(WordOp::Urem, ex(), ey()),
                }
            }
            ExprKind::Cond(c, x, y) => Expr::ite(b(c), self.expr(x, t), self.expr(y, t)),
            // Access predicates: thread 1's logs (thread 2 keeps none; `cond_pair` makes a
            // condition with them true for thread 2).
            ExprKind::Call(f, args) if Builtin::from_name(&f.name).is_some_and(|b| b.is_access()) => {
                let k = match args.first().map(|a| &a.kind) {
                    Some(ExprKind::Var(x)) => self.arrays.get(&x.name).copied(),
                    _ => None,
                };
                match (k, t) {
                    (Some(k), _) if Builtin::from_name(&f.name) == Some(Builtin::Taken) && args.len() == 3 => {
                        w(self.owns(k, t, self.expr(&args[1], t), self.expr(&args[2], t)))
                    }
                    (Some(k), 0) => {
                        let inst = self.inst[k];
                        match Builtin::from_name(&f.name) {
                            Some(Builtin::Written) => w(Expr::Var(inst.wr_exists)),
                            Some(Builtin::WasRead) => w(Expr::Var(inst.rd_exists)),
                            Some(Builtin::WriteIndex) => Expr::Var(inst.wr_elem),
                            _ => Expr::Var(inst.rd_elem),
                        }
                    }
                    _ => Expr::Word(0),
                }
            }
            // The two-thread built-ins: `other(e)` is `e` in the other thread of the pair.
            ExprKind::Call(f, args) if Builtin::from_name(&f.name) == Some(Builtin::Other) => {
                args.first().map(|x| self.expr(x, 1 - t)).unwrap_or(Expr::Word(0))
            }
            ExprKind::Call(f, _) if Builtin::from_name(&f.name) == Some(Builtin::Enabled) => {
                w(self.enabled.as_ref().map(|p| p[t].clone()).unwrap_or(Expr::Bool(true)))
            }
            ExprKind::Call(f, args) => {
                let a = args.first().map(|x| self.expr(x, t)).unwrap_or(Expr::Word(0));
                let c = args.get(1).map(|x| self.expr(x, t)).unwrap_or(Expr::Word(0));
                match Builtin::from_name(&f.name) {
                    Some(Builtin::Slt) => w(Expr::cmp(CmpOp::Slt, a, c)),
                    Some(Builtin::Sle) => w(Expr::cmp(CmpOp::Sle, a, c)),
                    Some(Builtin::Sgt) => w(Expr::cmp(CmpOp::Slt, c, a)),
                    Some(Builtin::Sge) => w(Expr::cmp(CmpOp::Sle, c, a)),
                    Some(Builtin::Sdiv) => Expr::bin(WordOp::Sdiv, a, c),
                    Some(Builtin::Srem) => Expr::bin(WordOp::Srem, a, c),
                    Some(Builtin::Ashr) => Expr::bin(WordOp::Ashr, a, c),
                    Some(Builtin::Min) => Expr::ite(Expr::ult(a.clone(), c.clone()), a, c),
                    Some(Builtin::Max) => Expr::ite(Expr::ult(a.clone(), c.clone()), c, a),
                    Some(Builtin::Implies) => w(Expr::implies(Expr::to_bool(a), Expr::to_bool(c))),
                    // Floats are opaque except for their sign bit.
                    Some(Builtin::Fneg) => Expr::bin(WordOp::Xor, a, Expr::Word(0x8000_0000)),
                    Some(Builtin::Fabs) => Expr::bin(WordOp::And, a, Expr::Word(0x7fff_ffff)),
                    Some(fb) if fb.arity() == 1 => Expr::Uf(fb.name(), vec![a]),
                    Some(fb) => Expr::Uf(fb.name(), vec![a, c]),
                    None => Expr::Word(0),
                }
            }
            // Reads inside expressions are those of barrier invariants (the core form hoists
            // every other): the thread's copy, for arrays that have one
            // (`barrier_invariants.rs` checks no other array is read).
            ExprKind::Index(a, i) => match self.copies[self.array_of(a)] {
                Some(c) => Expr::select(Expr::Var(c[t]), self.expr(i, t)),
                None => Expr::Word(0),
            },
            ExprKind::Error => Expr::Word(0),
        }
    }

    pub(crate) fn pair_of(&self, e: &ast::Expr) -> Pair {
        [self.expr(e, 0), self.expr(e, 1)]
    }

    pub(crate) fn cond_pair(&self, e: &ast::Expr) -> Pair {
        // A condition on the access logs speaks of thread 1, the one that logs.
        let second = if uses_access_predicates(e) { Expr::Bool(true) } else { Expr::to_bool(self.expr(e, 1)) };
        [Expr::to_bool(self.expr(e, 0)), second]
    }

    pub(crate) fn block(&mut self, b: &ast::Block, p: Pair) {
        let mark = self.scope.len();
        let mut p = p;
        for s in &b.stmts {
            self.stmt(s, p.clone());
            if jumps(s) {
                p = self.refresh(p);
            }
        }
        self.scope.truncate(mark);
    }

    /// After a statement that may execute `break`, `continue` or `return`: the predicate
    /// without the threads that did.
    fn refresh(&mut self, p: Pair) -> Pair {
        let f = self.frames.last().cloned().unwrap_or_default();
        let mut flags: Vec<[VarId; 2]> = Vec::new();
        if let Some((b, c)) = f.loop_flags {
            flags.push(b);
            flags.push(c);
        }
        if let Some(r) = f.ret {
            flags.push(r);
        }
        let [p1, p2] = p;
        let mk = |p: Expr, t: usize| {
            let mut xs = vec![p];
            xs.extend(flags.iter().map(|f| Expr::not(Expr::Var(f[t]))));
            Expr::and(xs)
        };
        self.pred("p", [mk(p1, 0), mk(p2, 1)])
    }

    pub(crate) fn site(&mut self, span: kpl_lang::Span, array: usize, kind: AccessKind) -> u32 {
        self.prog.sites.push(Site { span: (span.start, span.end), array, kind });
        self.prog.sites.len() as u32 - 1
    }

    fn stmt(&mut self, s: &ast::Stmt, p: Pair) {
        match &s.kind {
            StmtKind::Local(x, None) => {
                let v = self.declare(&x.name);
                self.assign(v[0], Expr::Word(0));
                self.assign(v[1], Expr::Word(0));
            }
            StmtKind::Local(x, Some(e)) => {
                // A fresh location, `e` in every thread (a disabled thread's value is seen only
                // by assertions that observe disabled threads; the interpreter gives the same).
                let vals = match &e.kind {
                    ExprKind::Index(a, i) => {
                        let [a, b] = self.read(a, i, e.span, &p);
                        if self.observes_disabled {
                            [Expr::ite(p[0].clone(), a, Expr::Word(0)), Expr::ite(p[1].clone(), b, Expr::Word(0))]
                        } else {
                            [a, b]
                        }
                    }
                    _ => self.pair_of(e),
                };
                let v = self.declare(&x.name);
                let [a, b] = vals;
                self.assign(v[0], a);
                self.assign(v[1], b);
            }
            StmtKind::Assign(x, e) => {
                let vals = match &e.kind {
                    ExprKind::Index(a, i) => self.read(a, i, e.span, &p),
                    _ => self.pair_of(e),
                };
                let Some(v) = self.lookup(&x.name) else { return };
                for (t, val) in vals.into_iter().enumerate() {
                    let e = Expr::ite(p[t].clone(), val, Expr::Var(v[t]));
                    self.assign(v[t], e);
                }
            }
            StmtKind::Havoc(x) => {
                // Each thread's copy takes its own arbitrary value where the thread runs.
                let Some(v) = self.lookup(&x.name) else { return };
                for t in 0..2 {
                    let h = self.var(&format!("{}_havoc", x.name), Sort::Word);
                    self.emit(Stmt::Havoc(h));
                    self.assign(v[t], Expr::ite(p[t].clone(), Expr::Var(h), Expr::Var(v[t])));
                }
            }
            StmtKind::Store(a, i, e) => self.write(a, i, e, s.span, &p),
            StmtKind::Touch { array, write } => self.touch(array, *write, s.span, &p),
            StmtKind::Snapshot { dest, src } => self.snapshot(dest, src, &p),
            StmtKind::Atomic(at) => {
                let [lo, hi] = self.atomic(at, s.span, &p);
                self.result(&at.dest, at.declare, lo, &p);
                self.result(&at.dest_hi, at.declare, hi, &p);
            }
            StmtKind::Warp(w) => {
                self.next_epoch();
                let vals = self.warp(w, s.span, &p);
                self.result(&w.dest, w.declare, vals, &p);
            }
            StmtKind::If(c, t, e) => {
                let c = self.cond_pair(c);
                self.perf_branch(&c, &p, s.span);
                let pt = self.pred("then", [Expr::and2(p[0].clone(), c[0].clone()), Expr::and2(p[1].clone(), c[1].clone())]);
                let pe = self.pred(
                    "else",
                    [Expr::and2(p[0].clone(), Expr::not(c[0].clone())), Expr::and2(p[1].clone(), Expr::not(c[1].clone()))],
                );
                self.block(t, pt);
                match e.as_deref() {
                    Some(ast::Else::Block(b)) => self.block(b, pe),
                    Some(ast::Else::If(s)) => {
                        let mark = self.scope.len();
                        self.stmt(s, pe);
                        self.scope.truncate(mark);
                    }
                    None => {}
                }
            }
            StmtKind::While { cond, invariants, candidates, body } => self.while_loop(s, cond, invariants, candidates, body, p),
            StmtKind::Call(f, args) => self.call(f, args, p),
            StmtKind::Barrier(f) => {
                self.next_epoch();
                self.barrier(s.span, f, &p)
            }
            StmtKind::Break | StmtKind::Continue | StmtKind::Return => {
                let f = self.frames.last().cloned().unwrap_or_default();
                let flag = match s.kind {
                    StmtKind::Break => f.loop_flags.map(|l| l.0),
                    StmtKind::Continue => f.loop_flags.map(|l| l.1),
                    _ => f.ret,
                };
                if let Some(fl) = flag {
                    for t in 0..2 {
                        self.assign(fl[t], Expr::or2(Expr::Var(fl[t]), p[t].clone()));
                    }
                }
            }
            StmtKind::Assert(e, global) => {
                self.enabled = Some(p.clone());
                let c = Expr::to_bool(self.expr(e, 0));
                self.enabled = None;
                let text = format!("{}assert {}", if *global { "global " } else { "" }, kpl_lang::printer::print_expr(e));
                // A `global assert` holds in thread 1 whether it runs here or not.
                let checked = if *global { c } else { Expr::implies(p[0].clone(), c) };
                // Under `--only-intra-group` a two-thread assertion speaks of pairs of one
                // group (as in the interpreter), even where the pair is free (`prelude`).
                let checked = if self.cfg.only_intra_group && e.two_thread() { Expr::implies(self.same_group.clone(), checked) } else { checked };
                self.assert(checked, LabelKind::Assertion, s.span, text);
            }
            StmtKind::Assume(e) => {
                // `enabled()` and `other` of a two-thread assumption: each thread's view.
                self.enabled = Some(p.clone());
                let c = self.cond_pair(e);
                self.enabled = None;
                let [c1, c2] = c;
                self.emit(Stmt::Assume(Expr::and2(Expr::implies(p[0].clone(), c1), Expr::implies(p[1].clone(), c2))));
            }
            // A fence orders nothing the verifier relies on: without a barrier between them,
            // two threads' conflicting accesses are a race whatever fences lie between.
            StmtKind::MemFence(..) | StmtKind::Error => {}
        }
    }

    pub(crate) fn array_of(&self, a: &ast::Ident) -> usize {
        self.arrays.get(&a.name).copied().unwrap_or(0)
    }

    /// Are array `k`'s races checked (GPUVerify's `/checkArrays:` names the arrays that
    /// are)? An unchecked array's accesses are not logged, so access predicates find none.
    pub(crate) fn race_checked(&self, k: usize) -> bool {
        let name = &self.prog.arrays[k].name;
        !self.cfg.check_arrays.as_ref().is_some_and(|only| !only.contains(name)) && self.private_words(k).is_none()
    }

    /// The words per thread of array `k`, if it is a thread's private array (`Config::private`).
    fn private_words(&self, k: usize) -> Option<u32> {
        let name = &self.prog.arrays[k].name;
        self.cfg.private.iter().find(|(a, _)| a == name).map(|(_, n)| *n)
    }

    /// Thread `t`'s linear id in the launch, as the C front end lays out private arrays:
    /// its group's row-major index times the threads per group, plus its own in the group.
    fn linear_global(&self, t: usize) -> Expr {
        let l = self.cfg.launch;
        let row_major = |id: &[Expr; 3], size: [Expr; 3]| {
            let [x, y, z] = id.clone();
            let [sx, sy, _] = size;
            let inner = Expr::bin(WordOp::Add, y, Expr::bin(WordOp::Mul, sy, z));
            Expr::bin(WordOp::Add, x, Expr::bin(WordOp::Mul, sx, inner))
        };
        let local = row_major(&self.lid[t], l.threads.map(Expr::Word));
        let group = row_major(&self.gid[t], self.groups.clone());
        let per_group = l.threads.iter().fold(1u32, |p, &n| p.wrapping_mul(n));
        Expr::bin(WordOp::Add, Expr::bin(WordOp::Mul, group, Expr::Word(per_group)), local)
    }

    /// The condition under which thread 2's access to array `k` can race with thread 1's.
    fn relevant(&self, k: usize) -> Expr {
        if self.prog.arrays[k].shared || self.cfg.only_intra_group {
            Expr::and2(self.same_group.clone(), self.distinct.clone())
        } else {
            self.distinct.clone()
        }
    }

    fn bounds(&mut self, k: usize, idx: &Expr, p: &Expr, span: kpl_lang::Span, kind: AccessKind) {
        // A private array: the access stays in the thread's own region (which lies in the
        // array), so no other thread's access can meet it.
        if let Some(n) = self.private_words(k) {
            let name = self.prog.arrays[k].name.clone();
            let what = format!("{} of {name}", kind.name());
            // (`idx - base < n` in 32 bits, `base` the thread's linear id times `n`, as the C
            // front end computes it: the same as `idx / n == id` where no base wraps, and
            // where a grid the host computes at run time makes one wrap, the region it has.)
            let base = Expr::bin(WordOp::Mul, self.linear_global(0), Expr::Word(n.max(1)));
            let region = Expr::ult(Expr::bin(WordOp::Sub, idx.clone(), base), Expr::Word(n.max(1)));
            let ok = Expr::implies(p.clone(), region);
            self.assert_about(ok, LabelKind::OutOfBounds { array: name, size: n }, span, what, Some(idx.clone()));
            return;
        }
        if let Some(n) = self.prog.arrays[k].size {
            let name = self.prog.arrays[k].name.clone();
            let what = format!("{} of {name}", kind.name());
            let ok = Expr::implies(p.clone(), Expr::ult(idx.clone(), Expr::Word(n)));
            self.assert_about(ok, LabelKind::OutOfBounds { array: name, size: n }, span, what, Some(idx.clone()));
        }
    }

    /// Thread 1 maybe logs an access (nondeterministic choice).
    /// Thread 1's access, logged by nondeterministic choice (where `p` holds); gives the
    /// condition under which it was logged.
    pub(crate) fn log(&mut self, exists: VarId, elem: VarId, stmt: VarId, val: Option<(VarId, Expr)>, idx: Expr, p: &Expr, sid: u32) -> Expr {
        if self.cfg.perf.is_some() {
            return Expr::Bool(false);
        }
        let c = self.var("log", Sort::Bool);
        self.emit(Stmt::Havoc(c));
        let sel = Expr::and2(p.clone(), Expr::Var(c));
        self.assign(exists, Expr::or2(Expr::Var(exists), sel.clone()));
        self.assign(elem, Expr::ite(sel.clone(), idx, Expr::Var(elem)));
        self.assign(stmt, Expr::ite(sel.clone(), Expr::Word(sid), Expr::Var(stmt)));
        if let Some((v, e)) = val {
            self.assign(v, Expr::ite(sel.clone(), e, Expr::Var(v)));
        }
        sel
    }

    /// Assert that thread 2's access of kind `second` to `idx` does not conflict with
    /// thread 1's logged access of kind `logged` (unless `tolerated` holds).
    #[allow(clippy::too_many_arguments)]
    fn race_check(&mut self, k: usize, idx: &Expr, p: &Expr, second: AccessKind, logged: AccessKind, tolerated: Option<Expr>, span: kpl_lang::Span) {
        let inst = self.inst[k];
        let (exists, elem) = match (logged, inst.atomic) {
            (AccessKind::Read, _) => (inst.rd_exists, inst.rd_elem),
            (AccessKind::Write, _) => (inst.wr_exists, inst.wr_elem),
            (AccessKind::Atomic, Some((e, x, _))) => (e, x),
            // No atomic on this array anywhere: nothing to check against.
            (AccessKind::Atomic, None) => return,
        };
        if self.cfg.only_divergence || !self.race_checked(k) {
            return;
        }
        let mut race = vec![p.clone(), self.relevant(k), Expr::Var(exists), Expr::eq(Expr::Var(elem), idx.clone())];
        if let Some(sw) = &self.same_warp {
            race.push(Expr::not(sw.clone()));
        }
        if let Some(t) = tolerated {
            race.push(Expr::not(t));
        }
        let name = self.prog.arrays[k].name.clone();
        let what = match second {
            AccessKind::Read => format!("read of {name}"),
            AccessKind::Write => format!("write to {name}"),
            AccessKind::Atomic => format!("atomic on {name}"),
        };
        self.assert_about(
            Expr::not(Expr::and(race)),
            LabelKind::Race { array: name, array_index: k, second, logged },
            span,
            what,
            Some(idx.clone()),
        );
    }

    /// Warp-synchronous mode: two threads of one warp writing one element in one
    /// statement (which write wins is unspecified).
    fn warp_write_check(&mut self, k: usize, idx: &Pair, val: &Pair, p: &Pair, span: kpl_lang::Span) {
        let Some(sw) = self.same_warp.clone() else { return };
        let name = self.prog.arrays[k].name.clone();
        if self.cfg.only_divergence || !self.race_checked(k) {
            return;
        }
        let mut race = vec![p[0].clone(), p[1].clone(), sw, self.distinct.clone(), Expr::eq(idx[0].clone(), idx[1].clone())];
        if self.cfg.benign {
            race.push(Expr::not(Expr::eq(val[0].clone(), val[1].clone())));
        }
        let kind = LabelKind::Race { array: name.clone(), array_index: k, second: AccessKind::Write, logged: AccessKind::Write };
        self.assert_about(Expr::not(Expr::and(race)), kind, span, format!("write to {name}"), Some(idx[1].clone()));
    }

    fn read(&mut self, a: &ast::Ident, i: &ast::Expr, span: kpl_lang::Span, p: &Pair) -> Pair {
        let k = self.array_of(a);
        let idx = self.pair_of(i);
        let sid = self.site(span, k, AccessKind::Read);
        self.perf_access(k, &idx, p, span);
        let inst = self.inst[k];
        self.bounds(k, &idx[0], &p[0], span, AccessKind::Read);
        self.note_access(k, &idx, p);
        let vals: Vec<Expr> = (0..2)
            .map(|t| match self.copies[k] {
                Some(c) => Expr::select(Expr::Var(c[t]), idx[t].clone()),
                None => {
                    let v = self.var(&format!("{}_read", a.name), Sort::Word);
                    self.emit(Stmt::Havoc(v));
                    Expr::Var(v)
                }
            })
            .collect();
        // (Under the adversarial abstraction a read value is arbitrary, so the read-write
        // rule below can never hold: its value is not logged.)
        let benign = (self.cfg.benign && self.copies[k].is_some()).then(|| (inst.rd_val, vals[0].clone()));
        // A read of an array nothing writes races with nothing: logged only for the access
        // predicates that read its log.
        let name = &self.prog.arrays[k].name;
        if self.race_checked(k) && (self.written.contains(name) || self.read_predicated.contains(name)) {
            self.log(inst.rd_exists, inst.rd_elem, inst.rd_stmt, benign, idx[0].clone(), &p[0], sid);
        }
        // Benign (GPUVerify's write-read rule): thread 2 wrote the element of thread 1's
        // logged write since it was logged, with the same value (else a write-write race),
        // so it reads its own value whatever the order; within a group only.
        let own = self.cfg.benign.then(|| Expr::and2(self.same_group.clone(), Expr::not(Expr::Var(inst.wr_fresh))));
        // (A read of an array nothing writes has no write to race with: no check, whose
        // index would make the loop counters it uses matter to inference, `relevance.rs`.)
        if self.written.contains(&self.prog.arrays[k].name) {
            self.race_check(k, &idx[1], &p[1], AccessKind::Read, AccessKind::Write, own, span);
        }
        self.race_check(k, &idx[1], &p[1], AccessKind::Read, AccessKind::Atomic, None, span);
        let initial = !self.barrier_before && self.barrier_loops == 0;
        for t in 0..2 {
            self.emit(Stmt::Note(ReadNote {
                array: a.name.clone(),
                thread: t as u8 + 1,
                index: idx[t].clone(),
                value: vals[t].clone(),
                enabled: p[t].clone(),
                initial,
                shared: self.prog.arrays[k].shared,
            }));
        }
        [vals[0].clone(), vals[1].clone()]
    }

    fn write(&mut self, a: &ast::Ident, i: &ast::Expr, e: &ast::Expr, span: kpl_lang::Span, p: &Pair) {
        let k = self.array_of(a);
        let idx = self.pair_of(i);
        let val = self.pair_of(e);
        let sid = self.site(span, k, AccessKind::Write);
        self.perf_access(k, &idx, p, span);
        let inst = self.inst[k];
        self.bounds(k, &idx[0], &p[0], span, AccessKind::Write);
        self.note_access(k, &idx, p);
        self.warp_lanes_write(k);
        let benign = self.cfg.benign.then(|| (inst.wr_val, val[0].clone()));
        let logged = if self.race_checked(k) {
            self.log(inst.wr_exists, inst.wr_elem, inst.wr_stmt, benign, idx[0].clone(), &p[0], sid)
        } else {
            Expr::Bool(false)
        };
        if self.cfg.benign {
            // A newly logged write: thread 2 has not written its element since; thread 2
            // writing it now (or later) clears that.
            let fresh = Expr::Var(inst.wr_fresh);
            self.assign(inst.wr_fresh, Expr::ite(logged, Expr::Bool(true), fresh.clone()));
            let own = Expr::and(vec![p[1].clone(), Expr::Var(inst.wr_exists), Expr::eq(Expr::Var(inst.wr_elem), idx[1].clone())]);
            self.assign(inst.wr_fresh, Expr::ite(own, Expr::Bool(false), fresh));
        }
        if let Some(c) = self.copies[k] {
            let upd = Expr::store(Expr::Var(c[0]), idx[0].clone(), val[0].clone());
            self.assign(c[0], Expr::ite(p[0].clone(), upd, Expr::Var(c[0])));
        }
        let equal = self.cfg.benign.then(|| Expr::eq(Expr::Var(inst.wr_val), val[1].clone()));
        self.race_check(k, &idx[1], &p[1], AccessKind::Write, AccessKind::Write, equal, span);
        self.warp_write_check(k, &idx, &val, p, span);
        // Benign (GPUVerify's read-write rule): thread 2 writes the value thread 1's logged
        // read returned, so that read got it whatever the order; within a group only.
        let saw = (self.cfg.benign && self.copies[k].is_some())
            .then(|| Expr::and2(self.same_group.clone(), Expr::eq(Expr::Var(inst.rd_val), val[1].clone())));
        self.race_check(k, &idx[1], &p[1], AccessKind::Write, AccessKind::Read, saw, span);
        self.race_check(k, &idx[1], &p[1], AccessKind::Write, AccessKind::Atomic, None, span);
        if let Some(c) = self.copies[k] {
            let upd = Expr::store(Expr::Var(c[1]), idx[1].clone(), val[1].clone());
            self.assign(c[1], Expr::ite(p[1].clone(), upd, Expr::Var(c[1])));
        }
    }

    /// A statement's result into its destination (a new local, or an assignment where the
    /// thread runs).
    fn result(&mut self, dest: &Option<ast::Ident>, declare: bool, vals: Pair, p: &Pair) {
        match (dest, declare) {
            (Some(x), true) => {
                let v = self.declare(&x.name);
                let [a, b] = vals;
                self.assign(v[0], a);
                self.assign(v[1], b);
            }
            (Some(x), false) => {
                let Some(v) = self.lookup(&x.name) else { return };
                for (t, val) in vals.into_iter().enumerate() {
                    let e = Expr::ite(p[t].clone(), val, Expr::Var(v[t]));
                    self.assign(v[t], e);
                }
            }
            (None, _) => {}
        }
    }

    /// An atomic: logged and checked like a write, but against atomics only where a `group`
    /// scope leaves the other thread out; the value it
    /// gives back, and the element in each thread's copy, are arbitrary (other threads'
    /// atomics may come in between). An atomic on several elements (64-bit, or bytes:
    /// `AtomicShape`) is that on each of them; its old value's words are the arbitrary
    /// values of its first two (the old high word is the second result; a 32-bit atomic's
    /// is unused).
    fn atomic(&mut self, at: &ast::Atomic, span: kpl_lang::Span, p: &Pair) -> [Pair; 2] {
        let k = self.array_of(&at.array);
        let idx = self.pair_of(&at.index);
        for e in &at.args {
            let _ = self.pair_of(e);
        }
        let lo = self.atomic_word(at, k, &idx, span, p);
        if at.shape() == ast::AtomicShape::WORD {
            self.ticket(at, k, &idx, &lo, p);
            return [lo.clone(), lo];
        }
        let mut hi = lo.clone();
        for e in 1..at.shape().elems() {
            let next = idx.clone().map(|i| Expr::bin(WordOp::Add, i, Expr::Word(e)));
            let old = self.atomic_word(at, k, &next, span, p);
            if e == 1 {
                hi = old;
            }
        }
        [lo, hi]
    }

    /// One word's part of an atomic on array `k` at `idx`: its bounds, log and race checks,
    /// and the arbitrary value it gives and leaves in each thread's copy.
    fn atomic_word(&mut self, at: &ast::Atomic, k: usize, idx: &Pair, span: kpl_lang::Span, p: &Pair) -> Pair {
        let sid = self.site(span, k, AccessKind::Atomic);
        self.perf_access(k, idx, p, span);
        let inst = self.inst[k];
        self.bounds(k, &idx[0], &p[0], span, AccessKind::Atomic);
        self.note_access(k, idx, p);
        let narrow = !at.scope.device_wide();
        if let (Some((e, x, st)), true) = (inst.atomic, self.race_checked(k)) {
            let scope = inst.at_narrow.map(|v| (v, Expr::Word(narrow as u32)));
            self.log(e, x, st, scope, idx[0].clone(), &p[0], sid);
        }
        self.race_check(k, &idx[1], &p[1], AccessKind::Atomic, AccessKind::Write, None, span);
        self.race_check(k, &idx[1], &p[1], AccessKind::Atomic, AccessKind::Read, None, span);
        // Scoped atomics (ScoRD): two atomics race unless each thread is within the other's
        // scope; a `group` atomic reaches its own group only.
        if let Some(logged_narrow) = inst.at_narrow {
            let logged_wide = Expr::eq(Expr::Var(logged_narrow), Expr::Word(0));
            let within = if narrow { self.same_group.clone() } else { Expr::or2(self.same_group.clone(), logged_wide) };
            self.race_check(k, &idx[1], &p[1], AccessKind::Atomic, AccessKind::Atomic, Some(within), span);
        }
        self.warp_lanes_write(k);
        let name = at.array.name.clone();
        let olds: Vec<Expr> = (0..2)
            .map(|t| {
                let v = self.var(&format!("{name}_atomic"), Sort::Word);
                self.emit(Stmt::Havoc(v));
                if let Some(c) = self.copies[k] {
                    let now = self.var(&format!("{name}_atomic_new"), Sort::Word);
                    self.emit(Stmt::Havoc(now));
                    let upd = Expr::store(Expr::Var(c[t]), idx[t].clone(), Expr::Var(now));
                    self.assign(c[t], Expr::ite(p[t].clone(), upd, Expr::Var(c[t])));
                }
                Expr::Var(v)
            })
            .collect();
        [olds[0].clone(), olds[1].clone()]
    }

    /// A barrier: the divergence check; the arrays' contents made arbitrary (equal for two
    /// threads of one group); thread 1's logged accesses to an array forgotten when the
    /// pair is in one group and thread 1's fence covers the array's memory (GPUVerify's
    /// barrier: accesses a thread's fence does not cover still race with later ones).
    fn barrier(&mut self, span: kpl_lang::Span, fence: &ast::Fence, p: &Pair) {
        self.check_barrier_invariants(fence, p);
        // A grid barrier (`barrier grid;`) joins the pair whatever their groups: both reach
        // it, and it orders each one's accesses before the other's after it.
        let joined = if fence.grid { Expr::Bool(true) } else { self.same_group.clone() };
        let both = Expr::and2(joined.clone(), self.distinct.clone());
        self.assert(
            Expr::implies(both, Expr::eq(p[0].clone(), p[1].clone())),
            LabelKind::Divergence,
            span,
            if fence.grid { "grid barrier".into() } else { "barrier".into() },
        );
        self.barrier_before = true;
        let clear = Expr::and2(joined.clone(), p[0].clone());
        let covers = |b: &Self, e: &ast::Expr| match e.kind {
            ExprKind::Bool(true) => None,
            _ => Some(Expr::to_bool(b.expr(e, 0))),
        };
        let shared_fence = covers(self, &fence.shared);
        let global_fence = covers(self, &fence.global);
        let orders_nothing = |e: &ast::Expr| matches!(e.kind, ExprKind::Bool(false));
        for k in 0..self.prog.arrays.len() {
            // A barrier that orders none of an array's memory shows no other thread's writes
            // of it (reading one after it is a race, as its log stays), so its contents stay.
            let unordered = orders_nothing(if self.prog.arrays[k].shared { &fence.shared } else { &fence.global });
            // An array no statement writes keeps its contents across barriers (GPUVerify
            // havocs only the arrays a kernel modifies).
            let unwritten = !self.written.contains(&self.prog.arrays[k].name);
            if !unordered && !unwritten {
                // One contents for the pair where they see one instance of the array.
                let together = if self.prog.arrays[k].shared { self.same_group.clone() } else { joined.clone() };
                self.forget_view(k, "sync", together, p);
            }
            let shared = self.prog.arrays[k].shared;
            let fenced = if shared { &shared_fence } else { &global_fence };
            // A shared array's log matters only for a partner in the same group, so thread 1's
            // barrier may clear it whatever group thread 2 is in (access predicates then read
            // `no access since the barrier` for every pair).
            let clear = if shared { p[0].clone() } else { clear.clone() };
            let clear = match fenced {
                None => clear,
                Some(f) => Expr::and2(clear, f.clone()),
            };
            // (A barrier that orders none of the array's memory leaves its logs alone, and
            // so out of the state of a loop it is in.)
            if !unordered {
                self.forget_logs(k, clear);
            }
        }
        self.assume_barrier_invariants(fence, p);
    }

    /// Array `k`'s contents in each running thread's view made arbitrary (other threads'
    /// writes now show), one for the pair when `together` (fresh arrays named `NAME_what`).
    pub(crate) fn forget_view(&mut self, k: usize, what: &str, together: Expr, p: &Pair) {
        let Some(c) = self.copies[k] else { return };
        let name = format!("{}_{what}", self.prog.arrays[k].name);
        let h1 = self.var(&name, Sort::Array);
        let h2 = self.var(&name, Sort::Array);
        self.emit(Stmt::Havoc(h1));
        self.emit(Stmt::Havoc(h2));
        self.assign(c[0], Expr::ite(p[0].clone(), Expr::Var(h1), Expr::Var(c[0])));
        let other = Expr::ite(together, Expr::Var(h1), Expr::Var(h2));
        self.assign(c[1], Expr::ite(p[1].clone(), other, Expr::Var(c[1])));
    }

    /// Warp-synchronous mode: the lanes of a warp run a statement that writes array `k`
    /// together, and each sees the others' writes at once, so every thread's view of the
    /// array takes them (arbitrary contents, one for two threads of one warp) before its
    /// own write, whether or not it runs the statement. Other statements leave the views
    /// alone (GPUVerify's refined equality abstraction for warps).
    pub(crate) fn warp_lanes_write(&mut self, k: usize) {
        let Some(sw) = self.same_warp.clone() else { return };
        self.forget_view(k, "warp_write", sw, &[Expr::Bool(true), Expr::Bool(true)]);
    }

    /// Thread 1's logged accesses to array `k` forgotten where `clear` holds.
    fn forget_logs(&mut self, k: usize, clear: Expr) {
        let inst = self.inst[k];
        for ex in [Some(inst.wr_exists), Some(inst.rd_exists), inst.atomic.map(|a| a.0)].into_iter().flatten() {
            self.assign(ex, Expr::and2(Expr::Var(ex), Expr::not(clear.clone())));
        }
    }

    /// A warp barrier (`warp sync`, `__syncwarp`): each running thread's view of the arrays
    /// it orders takes other lanes' writes (arbitrary contents; one for the pair when
    /// `synced`), and thread 1's logged accesses are forgotten when `synced`, the pair being
    /// two lanes it orders. A pair it does not order keeps its logs: other warps' accesses
    /// still race with everything the warp did.
    pub(crate) fn warp_barrier(&mut self, synced: Expr, p: &Pair) {
        self.barrier_before = true;
        for k in 0..self.prog.arrays.len() {
            if self.written.contains(&self.prog.arrays[k].name) {
                self.forget_view(k, "warp_sync", synced.clone(), p);
            }
            self.forget_logs(k, synced.clone());
        }
    }

    fn call(&mut self, f: &ast::Ident, args: &[ast::Expr], p: Pair) {
        let Some(pr) = self.kernel.procs.iter().find(|q| q.name.name == f.name) else { return };
        let vals: Vec<Pair> = args.iter().map(|a| self.pair_of(a)).collect();
        let ret = self.pair(&format!("ret_{}", f.name), Sort::Bool);
        self.assign(ret[0], Expr::Bool(false));
        self.assign(ret[1], Expr::Bool(false));
        let mark = self.scope.len();
        self.scope.push(None);
        for (x, v) in pr.params.iter().zip(vals) {
            let pv = self.declare(&x.name);
            let [a, b] = v;
            self.assign(pv[0], a);
            self.assign(pv[1], b);
        }
        self.frames.push(Frame { loop_flags: None, ret: Some(ret) });
        self.block(&pr.body, p);
        self.frames.pop();
        self.scope.truncate(mark);
    }

    pub(crate) fn scope_locals(&self) -> Vec<(String, [VarId; 2])> {
        let mut out = Vec::new();
        for s in self.scope.iter().rev() {
            match s {
                None => break,
                Some(x) => out.push(x.clone()),
            }
        }
        out
    }

    pub(crate) fn num_groups(&self) -> u64 {
        self.cfg.launch.num_groups()
    }
}

/// Does an expression use `written`, `was_read`, `write_index`, `read_index` or `taken`?
pub(crate) fn uses_access_predicates(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Call(f, args) => Builtin::from_name(&f.name).is_some_and(|b| b.is_access()) || args.iter().any(uses_access_predicates),
        ExprKind::Unary(_, a) => uses_access_predicates(a),
        ExprKind::Binary(_, a, b) => uses_access_predicates(a) || uses_access_predicates(b),
        ExprKind::Cond(a, b, c) => uses_access_predicates(a) || uses_access_predicates(b) || uses_access_predicates(c),
        _ => false,
    }
}

/// Can a statement disable threads for the statements after it in its block?
fn jumps(s: &ast::Stmt) -> bool {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue | StmtKind::Return => true,
        StmtKind::If(_, t, e) => {
            t.stmts.iter().any(jumps)
                || match e.as_deref() {
                    Some(ast::Else::Block(b)) => b.stmts.iter().any(jumps),
                    Some(ast::Else::If(s)) => jumps(s),
                    None => false,
                }
        }
        StmtKind::While { body, .. } => returns(body),
        _ => false,
    }
}

pub(crate) fn returns(b: &ast::Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Return => true,
        StmtKind::If(_, t, e) => {
            returns(t)
                || match e.as_deref() {
                    Some(ast::Else::Block(b)) => returns(b),
                    Some(ast::Else::If(s)) => returns(&ast::Block { stmts: vec![s.clone()], span: s.span }),
                    None => false,
                }
        }
        StmtKind::While { body, .. } => returns(body),
        _ => false,
    })
}

/// The arrays the kernel accesses atomically anywhere (only they get an atomic log), each
/// with whether some atomic on it is of `group` scope.
fn atomic_arrays(k: &ast::Kernel) -> std::collections::HashMap<String, bool> {
    let mut out = std::collections::HashMap::new();
    for b in k.procs.iter().map(|p| &p.body).chain([&k.main]) {
        walk(b, &mut |s| {
            if let StmtKind::Atomic(a) = &s.kind {
                *out.entry(a.array.name.clone()).or_insert(false) |= !a.scope.device_wide();
            }
        });
    }
    out
}

/// The arrays whose read log an access predicate (`was_read`, `read_index`) reads, in a
/// requirement, assertion, assumption, loop or barrier invariant or candidate.
fn read_predicated_arrays(k: &ast::Kernel) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut visit = |e: &ast::Expr| {
        e.walk(&mut |x| {
            if let ExprKind::Call(f, args) = &x.kind {
                if matches!(Builtin::from_name(&f.name), Some(Builtin::WasRead | Builtin::ReadIndex)) {
                    if let Some(ExprKind::Var(a)) = args.first().map(|a| &a.kind) {
                        out.insert(a.name.clone());
                    }
                }
            }
        })
    };
    for d in &k.decls {
        if let ast::DeclKind::Requires(e) = &d.kind {
            visit(e);
        }
    }
    for b in k.procs.iter().map(|p| &p.body).chain([&k.main]) {
        walk(b, &mut |s| match &s.kind {
            StmtKind::Assert(e, _) | StmtKind::Assume(e) => visit(e),
            StmtKind::While { invariants, candidates, .. } => invariants.iter().chain(candidates).for_each(&mut visit),
            StmtKind::Barrier(f) => f.invariants.iter().for_each(|i| visit(&i.expr)),
            _ => {}
        });
    }
    out
}

/// The arrays a store, an atomic, a `havoc writes` or a snapshot writes, anywhere in the kernel.
fn written_arrays(k: &ast::Kernel) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for b in k.procs.iter().map(|p| &p.body).chain([&k.main]) {
        walk(b, &mut |s| match &s.kind {
            StmtKind::Store(a, _, _) | StmtKind::Touch { array: a, write: true } | StmtKind::Snapshot { dest: a, .. } => {
                out.insert(a.name.clone());
            }
            StmtKind::Atomic(at) => {
                out.insert(at.array.name.clone());
            }
            _ => {}
        });
    }
    out
}

/// Does the kernel (its procedures too) have a grid barrier (`barrier grid;`)?
fn has_grid_barrier(k: &ast::Kernel) -> bool {
    let mut found = false;
    for b in k.procs.iter().map(|p| &p.body).chain([&k.main]) {
        crate::kernel_walk::walk(b, &mut |s| found |= matches!(&s.kind, ast::StmtKind::Barrier(f) if f.grid));
    }
    found
}
