//! The interpreter's program form: the core KPL AST with names resolved to slots (locals),
//! indices (params, arrays, procs) and statement ids (for spans in reports and traces).

use kpl_lang::ast::{self, AtomicOp, AtomicShape, Axis, FenceScope, WarpOp, BinOp, Builtin, ExprKind, Special, StmtKind, UnOp};
use kpl_lang::{Launch, Span};
use std::collections::HashMap;

/// An expression free of array reads.
#[derive(Clone, Debug)]
pub enum Ex {
    Const(u32),
    Slot(u32),
    Param(u32),
    Special(Special, Axis),
    Un(UnOp, Box<Ex>),
    Bin(BinOp, Box<Ex>, Box<Ex>),
    Cond(Box<Ex>, Box<Ex>, Box<Ex>),
    Call(Builtin, Box<Ex>, Box<Ex>),
    /// `A[i]` inside a loop or barrier invariant: the thread's view of the element, not an
    /// access.
    Read(u32, Box<Ex>),
}

impl Ex {
    /// Does it use an access predicate (`written(A)`, ...)? Only the verifier, which logs
    /// accesses, can evaluate it: the interpreters skip assertions and invariants with one.
    pub fn verifier_only(&self) -> bool {
        self.calls(&|f| f.is_access())
    }

    /// Does it use `other` or `enabled` (then it is evaluated over pairs of threads)?
    pub fn two_thread(&self) -> bool {
        self.calls(&|f| f.is_two_thread())
    }

    /// Does it read an array (the thread's view, in loop and barrier invariants)?
    pub fn reads(&self) -> bool {
        match self {
            Ex::Read(..) => true,
            Ex::Un(_, a) => a.reads(),
            Ex::Bin(_, a, b) | Ex::Call(_, a, b) => a.reads() || b.reads(),
            Ex::Cond(c, a, b) => c.reads() || a.reads() || b.reads(),
            _ => false,
        }
    }

    /// Does it call a built-in that `p` picks?
    fn calls(&self, p: &dyn Fn(&kpl_lang::ast::Builtin) -> bool) -> bool {
        match self {
            Ex::Call(f, a, b) => p(f) || a.calls(p) || b.calls(p),
            Ex::Un(_, a) => a.calls(p),
            Ex::Bin(_, a, b) => a.calls(p) || b.calls(p),
            Ex::Cond(c, a, b) => c.calls(p) || a.calls(p) || b.calls(p),
            Ex::Read(_, i) => i.calls(p),
            _ => false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct St {
    pub kind: StKind,
    /// Index into `Program::stmts` (span and text).
    pub id: u32,
}

#[derive(Clone, Debug)]
pub enum StKind {
    /// `local x := e` (a fresh location, 0 then `e` in enabled threads).
    Local { slot: u32, init: Option<Ex> },
    Assign { slot: u32, value: Ex },
    /// `x := A[i]` (basic read); `fresh` when it declares `x`.
    Read { slot: u32, array: u32, index: Ex, fresh: bool },
    /// `A[i] := e` (basic write).
    Write { array: u32, index: Ex, value: Ex },
    If { cond: Ex, then: Vec<St>, els: Vec<St>, jumps: bool },
    While { cond: Ex, invariants: Vec<(Ex, u32)>, body: Vec<St>, jumps: bool },
    Call { proc: u32, args: Vec<Ex> },
    /// `x := atomic op(A[i], args)`: `slot` receives the old value (`fresh` when the
    /// statement declares it).
    /// `shape`: how its value lies in memory from `index` (`AtomicShape`: a 64-bit one has
    /// operands as word pairs and gives the old high word to `slot_hi`).
    /// `scope`: the threads it is atomic for (`group`: its own group's only).
    Atomic { op: AtomicOp, shape: AtomicShape, slot: Option<u32>, slot_hi: Option<u32>, array: u32, index: Ex, args: Vec<Ex>, scope: FenceScope },
    /// `x := warp op(args)`: a warp collective; `slot` receives its result.
    /// `exited`: which lanes have left the kernel (evaluated in every lane of the warp).
    Warp { op: WarpOp, slot: Option<u32>, args: Vec<Ex>, exited: Option<Ex> },
    /// A barrier with its fence (per thread, whether it orders shared and global memory)
    /// and its barrier invariants (each with its statement id and whether it is binary);
    /// `grid`: of every thread of the launch (`barrier grid;`), not of each group.
    Barrier { shared: Ex, global: Ex, invariants: Vec<(Ex, u32, bool)>, grid: bool },
    Break,
    Continue,
    Return,
    /// An assertion; `true`: a `global assert`, checked by every thread, enabled or not.
    Assert(Ex, bool),
    Assume(Ex),
    /// `havoc x;`: an arbitrary value per thread (`Inputs::havoc_value`).
    Havoc { slot: u32 },
    /// `snapshot G := A;` (`dest` G, `src` A).
    Snapshot { dest: u32, src: u32 },
    /// `fence [acquire|release] SCOPE;`: nothing under SDV; the happens-before run (`hb`)
    /// reads it.
    Fence(kpl_lang::ast::FenceScope, kpl_lang::ast::FenceOrder),
}

impl St {
    /// Can executing this statement disable threads for the statements after it
    /// (a `break`, `continue` or `return` not captured inside it)?
    pub fn jumps(&self) -> bool {
        match &self.kind {
            StKind::Break | StKind::Continue | StKind::Return => true,
            StKind::If { jumps, .. } | StKind::While { jumps, .. } => *jumps,
            _ => false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArrayKind {
    Shared,
    Global,
}

#[derive(Clone, Debug)]
pub struct ArrayInfo {
    pub name: String,
    pub kind: ArrayKind,
    /// `None` for `global A[*]`.
    pub size: Option<u32>,
    /// A ghost array (a snapshot's destination: `ghost.rs`).
    pub ghost: bool,
}

#[derive(Clone, Debug)]
pub struct ProcIr {
    pub name: String,
    pub params: Vec<u32>,
    pub body: Vec<St>,
}

/// What a statement id stands for.
#[derive(Clone, Debug)]
pub struct StmtInfo {
    pub span: Span,
    pub text: String,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub launch: Launch,
    pub params: Vec<String>,
    pub arrays: Vec<ArrayInfo>,
    pub requires: Vec<(Ex, Span)>,
    pub procs: Vec<ProcIr>,
    pub main: Vec<St>,
    pub slots: Vec<String>,
    pub stmts: Vec<StmtInfo>,
    /// Some barrier's fence is not a constant (it may differ between threads).
    pub thread_fences: bool,
    /// Some assertion observes disabled threads' locals (`Kernel::observes_disabled`):
    /// then a declaration gives its local a value in every thread, as the verifier's does
    /// (`e` in a disabled thread too, 0 for a read), and a call binds its parameters in
    /// every thread.
    pub observes_disabled: bool,
}

impl Program {
    pub fn array_index(&self, name: &str) -> Option<usize> {
        self.arrays.iter().position(|a| a.name == name)
    }

    /// Does any statement of the kernel (its procedures too) perform an atomic?
    pub fn has_atomics(&self) -> bool {
        self.first_stmt(&|k| matches!(k, StKind::Atomic { .. })).is_some()
    }

    /// Does any statement of the kernel (its procedures too) perform a warp collective?
    pub fn has_warp_collectives(&self) -> bool {
        self.first_warp_collective().is_some()
    }

    /// The place of the first warp collective, for the executors that cannot run one.
    pub fn first_warp_collective(&self) -> Option<kpl_lang::Span> {
        self.first_stmt(&|k| matches!(k, StKind::Warp { .. })).map(|id| self.stmts[id as usize].span)
    }

    /// The place of the first grid barrier, for the executors that run groups one at a time.
    pub fn first_grid_barrier(&self) -> Option<kpl_lang::Span> {
        self.first_stmt(&|k| matches!(k, StKind::Barrier { grid: true, .. })).map(|id| self.stmts[id as usize].span)
    }

    /// Can some groups run alone, the others not yet started (`Options::groups`)? Only where
    /// nothing waits for or speaks of every thread of the launch: no grid barrier, no
    /// `global assert`, no assertion, assumption or invariant of two threads (which pairs
    /// a thread with every other of the launch).
    pub fn groups_apart(&self) -> bool {
        let two = |e: &Ex| e.two_thread();
        self.first_stmt(&|k| match k {
            StKind::Barrier { grid, invariants, .. } => *grid || invariants.iter().any(|(e, _, _)| two(e)),
            StKind::Assert(e, global) => *global || two(e),
            StKind::Assume(e) => two(e),
            StKind::While { invariants, .. } => invariants.iter().any(|(e, _)| two(e)),
            _ => false,
        })
        .is_none()
    }

    /// The place of the first snapshot (ghost array), for the executors that do not keep
    /// per-thread copies.
    pub fn first_snapshot(&self) -> Option<kpl_lang::Span> {
        self.first_stmt(&|k| matches!(k, StKind::Snapshot { .. })).map(|id| self.stmts[id as usize].span)
    }

    /// The id of the first statement, at any depth, that `f` picks (main first, then procs).
    fn first_stmt(&self, f: &dyn Fn(&StKind) -> bool) -> Option<u32> {
        fn find(body: &[St], f: &dyn Fn(&StKind) -> bool) -> Option<u32> {
            body.iter().find_map(|s| match &s.kind {
                k if f(k) => Some(s.id),
                StKind::If { then, els, .. } => find(then, f).or_else(|| find(els, f)),
                StKind::While { body, .. } => find(body, f),
                _ => None,
            })
        }
        find(&self.main, f).or_else(|| self.procs.iter().find_map(|p| find(&p.body, f)))
    }
}

/// Compile a checked kernel's core form for a launch.
pub fn compile(core: &ast::Kernel, launch: Launch) -> Program {
    let mut c = Compiler {
        params: HashMap::new(),
        arrays: HashMap::new(),
        procs: HashMap::new(),
        scope: Vec::new(),
        prog: Program {
            name: core.name.name.clone(),
            launch,
            params: Vec::new(),
            arrays: Vec::new(),
            requires: Vec::new(),
            procs: Vec::new(),
            main: Vec::new(),
            slots: Vec::new(),
            stmts: Vec::new(),
            thread_fences: false,
            observes_disabled: core.observes_disabled(),
        },
    };
    for d in &core.decls {
        match &d.kind {
            ast::DeclKind::Param(x) => {
                c.params.insert(x.name.clone(), c.prog.params.len() as u32);
                c.prog.params.push(x.name.clone());
            }
            ast::DeclKind::Shared { name, size } => c.array(name, ArrayKind::Shared, size.map(|s| s.0)),
            ast::DeclKind::Global { name, size } => c.array(name, ArrayKind::Global, size.map(|s| s.0)),
            _ => {}
        }
    }
    for (i, p) in core.procs.iter().enumerate() {
        c.procs.insert(p.name.name.clone(), i as u32);
    }
    for d in &core.decls {
        if let ast::DeclKind::Requires(e) = &d.kind {
            let ex = c.expr(e);
            c.prog.requires.push((ex, d.span));
        }
    }
    for p in &core.procs {
        c.scope.clear();
        let params = p.params.iter().map(|x| c.declare(&x.name)).collect();
        let body = c.block(&p.body);
        c.prog.procs.push(ProcIr { name: p.name.name.clone(), params, body });
    }
    c.scope.clear();
    c.prog.main = c.block(&core.main);
    c.prog
}

struct Compiler {
    params: HashMap<String, u32>,
    arrays: HashMap<String, u32>,
    procs: HashMap<String, u32>,
    /// Names in scope; no shadowing in KPL, so a flat list with truncation per block.
    scope: Vec<(String, u32)>,
    prog: Program,
}

impl Compiler {
    fn array(&mut self, name: &ast::Ident, kind: ArrayKind, size: Option<u64>) {
        self.arrays.insert(name.name.clone(), self.prog.arrays.len() as u32);
        self.prog.arrays.push(ArrayInfo {
            name: name.name.clone(),
            kind,
            size: size.map(|s| s.min(u32::MAX as u64) as u32),
            ghost: false,
        });
    }

    fn declare(&mut self, name: &str) -> u32 {
        let slot = self.prog.slots.len() as u32;
        self.prog.slots.push(name.to_string());
        self.scope.push((name.to_string(), slot));
        slot
    }

    fn slot(&self, name: &str) -> u32 {
        // The checker guarantees every name resolves.
        self.scope.iter().rev().find(|(n, _)| n == name).map(|(_, s)| *s).unwrap_or(0)
    }

    fn info(&mut self, span: Span, text: String) -> u32 {
        self.prog.stmts.push(StmtInfo { span, text });
        (self.prog.stmts.len() - 1) as u32
    }

    fn block(&mut self, b: &ast::Block) -> Vec<St> {
        let mark = self.scope.len();
        let out = b.stmts.iter().map(|s| self.stmt(s)).collect();
        self.scope.truncate(mark);
        out
    }

    fn stmt(&mut self, s: &ast::Stmt) -> St {
        let text = stmt_text(s);
        // A read points at its `A[i]`, the access a report names.
        let span = match &s.kind {
            StmtKind::Local(_, Some(e)) | StmtKind::Assign(_, e) if matches!(e.kind, ExprKind::Index(..)) => e.span,
            _ => s.span,
        };
        let id = self.info(span, text);
        let kind = match &s.kind {
            StmtKind::Local(x, init) => match init.as_ref().map(|e| &e.kind) {
                Some(ExprKind::Index(a, i)) => {
                    let index = self.expr(i);
                    let slot = self.declare(&x.name);
                    StKind::Read { slot, array: self.arrays[&a.name], index, fresh: true }
                }
                _ => {
                    let init = init.as_ref().map(|e| self.expr(e));
                    let slot = self.declare(&x.name);
                    StKind::Local { slot, init }
                }
            },
            StmtKind::Assign(x, e) => {
                let slot = self.slot(&x.name);
                match &e.kind {
                    ExprKind::Index(a, i) => StKind::Read { slot, array: self.arrays[&a.name], index: self.expr(i), fresh: false },
                    _ => StKind::Assign { slot, value: self.expr(e) },
                }
            }
            StmtKind::Havoc(x) => StKind::Havoc { slot: self.slot(&x.name) },
            StmtKind::MemFence(f, o) => StKind::Fence(*f, *o),
            // Unknown accesses (a specification's): doing nothing is one thing they allow.
            StmtKind::Touch { .. } => StKind::Assume(Ex::Const(1)),
            StmtKind::Snapshot { dest, src } => {
                let dest = self.arrays[&dest.name];
                self.prog.arrays[dest as usize].ghost = true;
                StKind::Snapshot { dest, src: self.arrays[&src.name] }
            }
            StmtKind::Store(a, i, e) => {
                StKind::Write { array: self.arrays[&a.name], index: self.expr(i), value: self.expr(e) }
            }
            StmtKind::If(c, t, e) => {
                let cond = self.expr(c);
                let then = self.block(t);
                let els = match e.as_deref() {
                    Some(ast::Else::Block(b)) => self.block(b),
                    Some(ast::Else::If(s)) => vec![self.stmt(s)],
                    None => Vec::new(),
                };
                let jumps = then.iter().chain(els.iter()).any(St::jumps);
                StKind::If { cond, then, els, jumps }
            }
            // Candidates are the verifier's guesses, not the kernel's claims: not run.
            StmtKind::While { cond, invariants, body, .. } => {
                let cond = self.expr(cond);
                let invariants = invariants
                    .iter()
                    .map(|i| {
                        let id = self.info(i.span, format!("invariant {}", kpl_lang::printer::print_expr(i)));
                        (self.expr(i), id)
                    })
                    .collect();
                let body = self.block(body);
                let jumps = body.iter().any(returns);
                StKind::While { cond, invariants, body, jumps }
            }
            StmtKind::Call(f, args) => {
                StKind::Call { proc: self.procs[&f.name], args: args.iter().map(|a| self.expr(a)).collect() }
            }
            StmtKind::Atomic(a) => {
                let index = self.expr(&a.index);
                let args = a.args.iter().map(|e| self.expr(e)).collect();
                let slot = a.dest.as_ref().map(|x| if a.declare { self.declare(&x.name) } else { self.slot(&x.name) });
                let slot_hi = a.dest_hi.as_ref().map(|x| if a.declare { self.declare(&x.name) } else { self.slot(&x.name) });
                let (op, shape) = (a.operation(), a.shape());
                StKind::Atomic { op, shape, slot, slot_hi, array: self.arrays[&a.array.name], index, args, scope: a.scope }
            }
            StmtKind::Warp(w) => {
                let args = w.args.iter().map(|e| self.expr(e)).collect();
                let slot = w.dest.as_ref().map(|x| if w.declare { self.declare(&x.name) } else { self.slot(&x.name) });
                // A warp barrier orders some threads of a group: the memory keeps the
                // history a partial barrier needs.
                self.prog.thread_fences |= w.operation() == WarpOp::Sync;
                let exited = w.exited.as_ref().map(|e| self.expr(e));
                StKind::Warp { op: w.operation(), slot, args, exited }
            }
            StmtKind::Barrier(f) => {
                let (shared, global) = (self.expr(&f.shared), self.expr(&f.global));
                self.prog.thread_fences |= !matches!((&shared, &global), (Ex::Const(_), Ex::Const(_)));
                let invariants = f
                    .invariants
                    .iter()
                    .map(|i| {
                        let id = self.info(i.span, format!("barrier invariant {}", kpl_lang::printer::print_expr(&i.expr)));
                        (self.expr(&i.expr), id, i.binary())
                    })
                    .collect();
                StKind::Barrier { shared, global, invariants, grid: f.grid }
            }
            StmtKind::Break => StKind::Break,
            StmtKind::Continue => StKind::Continue,
            StmtKind::Return => StKind::Return,
            StmtKind::Assert(e, global) => StKind::Assert(self.expr(e), *global),
            StmtKind::Assume(e) => StKind::Assume(self.expr(e)),
            StmtKind::Error => StKind::Assume(Ex::Const(1)),
        };
        St { kind, id }
    }

    fn expr(&mut self, e: &ast::Expr) -> Ex {
        match &e.kind {
            ExprKind::Num(n) => Ex::Const(*n as u32),
            ExprKind::Bool(b) => Ex::Const(*b as u32),
            ExprKind::Var(x) => match self.scope.iter().rev().find(|(n, _)| *n == x.name) {
                Some((_, s)) => Ex::Slot(*s),
                None => Ex::Param(self.params.get(&x.name).copied().unwrap_or(0)),
            },
            ExprKind::Special(s, a, _) => Ex::Special(*s, *a),
            ExprKind::Unary(op, a) => Ex::Un(*op, Box::new(self.expr(a))),
            ExprKind::Binary(op, a, b) => Ex::Bin(*op, Box::new(self.expr(a)), Box::new(self.expr(b))),
            ExprKind::Cond(a, b, c) => Ex::Cond(Box::new(self.expr(a)), Box::new(self.expr(b)), Box::new(self.expr(c))),
            ExprKind::Call(f, args) if Builtin::from_name(&f.name).is_some_and(|b| b.is_access()) => {
                // An access predicate names an array (never evaluated by the interpreter).
                let b = Builtin::from_name(&f.name).unwrap_or(Builtin::Min);
                let a = match args.first().map(|a| &a.kind) {
                    Some(ExprKind::Var(x)) => self.arrays.get(&x.name).copied().unwrap_or(0),
                    _ => 0,
                };
                Ex::Call(b, Box::new(Ex::Const(a)), Box::new(Ex::Const(0)))
            }
            ExprKind::Call(f, args) => {
                let b = Builtin::from_name(&f.name).unwrap_or(Builtin::Min);
                let mut it = args.iter().map(|a| self.expr(a));
                let a = it.next().unwrap_or(Ex::Const(0));
                let c = it.next().unwrap_or(Ex::Const(0));
                Ex::Call(b, Box::new(a), Box::new(c))
            }
            // Reads are hoisted by the core form except in loop and barrier invariants.
            ExprKind::Index(a, i) => Ex::Read(self.arrays.get(&a.name).copied().unwrap_or(0), Box::new(self.expr(i))),
            ExprKind::Error => Ex::Const(0),
        }
    }
}

/// Does a statement contain a `return` (which escapes loops, unlike break/continue)?
fn returns(s: &St) -> bool {
    match &s.kind {
        StKind::Return => true,
        StKind::If { then, els, .. } => then.iter().chain(els.iter()).any(returns),
        StKind::While { body, .. } => body.iter().any(returns),
        _ => false,
    }
}

/// One line of KPL for a statement (compound statements show their head only).
fn stmt_text(s: &ast::Stmt) -> String {
    use kpl_lang::printer::{print_expr, print_stmt};
    match &s.kind {
        StmtKind::If(c, ..) => format!("if {}", print_expr(c)),
        StmtKind::While { cond, .. } => format!("while {}", print_expr(cond)),
        _ => print_stmt(s),
    }
}
