//! A generator of random well-formed KPL kernels that are free of races and barrier
//! divergence by construction (in the spirit of CLsmith), with loops, branches, barriers,
//! procs and 1-, 2- and 3-D launches. Used by the front end's property tests, the
//! interpreter's SDV-versus-canonical-schedule test and `kpl difftest --generate`.
//!
//! The discipline that makes them race-free: a `shared` array, in each barrier interval, is
//! either only read (at any index) or only accessed by each thread at its own slot; `global`
//! outputs are accessed only at the thread's own slot; `global` inputs are only read.
//! Divergence-free: barriers appear only under conditions uniform in a group, in loops whose
//! trip count is a constant, with a barrier before the construct and at the end of each body.

use crate::ast::*;
use crate::rng::Rng;
use crate::span::Span;

const SP: Span = Span::DUMMY;

/// Generate a kernel from a seed (the same seed gives the same kernel).
pub fn generate(seed: u64) -> Kernel {
    Gen::new(seed).kernel(seed)
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Each thread reads and writes only its own slot.
    Own,
    /// Every thread may read any element; nobody writes.
    Read,
}

#[derive(Clone)]
struct Local {
    name: String,
    /// Reserved loop counters are never assigned by generated statements.
    reserved: bool,
}

#[derive(Clone, Copy)]
struct Ctx {
    depth: usize,
    /// Is the current predicate uniform across each group?
    uniform: bool,
    /// Inside a loop that may be left with `break`/`continue` (no barriers in it).
    in_plain_loop: bool,
    in_proc: bool,
}

struct Gen {
    rng: Rng,
    threads: [u32; 3],
    groups: [u32; 3],
    params: Vec<String>,
    shared: Vec<String>,
    inputs: Vec<(String, u32)>,
    outputs: Vec<String>,
    procs: Vec<(String, usize)>,
    scopes: Vec<Vec<Local>>,
    modes: Vec<Mode>,
    next_name: usize,
    stmt_budget: usize,
}

fn num(n: u64) -> Expr {
    Expr::num(n, SP)
}
fn var(n: &str) -> Expr {
    Expr::var(n, SP)
}
fn id(n: &str) -> Ident {
    Ident::new(n, SP)
}
fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), SP)
}
fn special(s: Special, a: Axis) -> Expr {
    Expr::new(ExprKind::Special(s, a, a != Axis::X), SP)
}
fn stmt(kind: StmtKind) -> Stmt {
    Stmt { kind, span: SP }
}
fn block(stmts: Vec<Stmt>) -> Block {
    Block { stmts, span: SP }
}

impl Gen {
    fn new(seed: u64) -> Gen {
        let mut rng = Rng::new(seed ^ 0x6B70_6C67_656E);
        let dims = rng.range(1, 3) as usize;
        let mut threads = [1u32; 3];
        let mut groups = [1u32; 3];
        for d in 0..dims {
            threads[d] = *rng.pick(&[1, 2, 3, 4, 8]);
            groups[d] = rng.range(1, if d == 0 { 3 } else { 2 }) as u32;
        }
        if threads.iter().product::<u32>() == 1 {
            threads[0] = 4;
        }
        Gen {
            rng,
            threads,
            groups,
            params: Vec::new(),
            shared: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            procs: Vec::new(),
            scopes: Vec::new(),
            modes: Vec::new(),
            next_name: 0,
            stmt_budget: 60,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next_name += 1;
        format!("{prefix}{}", self.next_name)
    }

    fn dims_used(&self) -> usize {
        let d = |a: [u32; 3]| if a[2] > 1 { 3 } else if a[1] > 1 { 2 } else { 1 };
        d(self.threads).max(d(self.groups))
    }

    fn kernel(mut self, seed: u64) -> Kernel {
        let tpg: u32 = self.threads.iter().product();
        let total: u32 = tpg * self.groups.iter().product::<u32>();
        let mut decls = Vec::new();
        let dims_decl = |a: [u32; 3], n: usize| Dims { dims: a[..n].iter().map(|&x| (x as u64, SP)).collect(), span: SP };
        let n = self.dims_used();
        if self.groups != [1, 1, 1] || self.rng.chance(1, 2) {
            decls.push(Decl { kind: DeclKind::Groups(dims_decl(self.groups, n)), span: SP });
        }
        decls.push(Decl { kind: DeclKind::Threads(dims_decl(self.threads, n)), span: SP });
        for _ in 0..self.rng.range(0, 2) {
            let s = self.fresh("S");
            decls.push(Decl { kind: DeclKind::Shared { name: id(&s), size: Some((tpg as u64, SP)) }, span: SP });
            self.shared.push(s);
        }
        for _ in 0..self.rng.range(0, 2) {
            let s = self.fresh("IN");
            let size = *self.rng.pick(&[1u32, 7, 16, 64]);
            decls.push(Decl { kind: DeclKind::Global { name: id(&s), size: Some((size as u64, SP)) }, span: SP });
            self.inputs.push((s, size));
        }
        for _ in 0..self.rng.range(1, 2) {
            let s = self.fresh("OUT");
            decls.push(Decl { kind: DeclKind::Global { name: id(&s), size: Some((total as u64, SP)) }, span: SP });
            self.outputs.push(s);
        }
        for _ in 0..self.rng.range(0, 2) {
            let p = self.fresh("p");
            decls.push(Decl { kind: DeclKind::Param(id(&p)), span: SP });
            self.params.push(p);
        }
        let mut procs = Vec::new();
        for _ in 0..self.rng.range(0, 2) {
            procs.push(self.proc());
        }
        self.modes = self.shared.iter().map(|_| Mode::Own).collect();
        self.new_modes();
        self.scopes.push(Vec::new());
        let mut stmts = Vec::new();
        let ctx = Ctx { depth: 0, uniform: true, in_plain_loop: false, in_proc: false };
        let n_top = self.rng.range(2, 6);
        for _ in 0..n_top {
            self.stmt(ctx, &mut stmts);
        }
        // Every kernel writes its outputs at least once, so runs have something to compare.
        for o in self.outputs.clone() {
            let e = self.expr(ctx, 2);
            stmts.push(stmt(StmtKind::Store(id(&o), self.global_id(), e)));
        }
        self.scopes.pop();
        Kernel { name: id(&format!("gen{seed}")), decls, procs, main: block(stmts), span: SP }
    }

    fn new_modes(&mut self) {
        for i in 0..self.modes.len() {
            self.modes[i] = if self.rng.chance(1, 2) { Mode::Own } else { Mode::Read };
        }
    }

    fn proc(&mut self) -> Proc {
        let name = self.fresh("f");
        let nparams = self.rng.range(0, 3) as usize;
        let params: Vec<String> = (0..nparams).map(|_| self.fresh("a")).collect();
        self.scopes.push(params.iter().map(|p| Local { name: p.clone(), reserved: false }).collect());
        let ctx = Ctx { depth: 1, uniform: false, in_plain_loop: false, in_proc: true };
        let mut stmts = Vec::new();
        for _ in 0..self.rng.range(1, 4) {
            self.stmt(ctx, &mut stmts);
        }
        self.scopes.pop();
        self.procs.push((name.clone(), nparams));
        Proc { name: id(&name), params: params.iter().map(|p| id(p)).collect(), body: block(stmts), span: SP }
    }

    /// The thread's index within its group, flattened (x fastest).
    fn local_linear(&self) -> Expr {
        let mut e = special(Special::Lid, Axis::X);
        if self.dims_used() >= 2 {
            let y = bin(BinOp::Mul, special(Special::Lid, Axis::Y), special(Special::Threads, Axis::X));
            e = bin(BinOp::Add, e, y);
        }
        if self.dims_used() >= 3 {
            let xy = bin(BinOp::Mul, special(Special::Threads, Axis::X), special(Special::Threads, Axis::Y));
            e = bin(BinOp::Add, e, bin(BinOp::Mul, special(Special::Lid, Axis::Z), xy));
        }
        e
    }

    /// The thread's index in the whole launch: group index (flattened) * group size + local.
    fn global_id(&self) -> Expr {
        let mut g = special(Special::Gid, Axis::X);
        if self.dims_used() >= 2 {
            g = bin(BinOp::Add, g, bin(BinOp::Mul, special(Special::Gid, Axis::Y), special(Special::Groups, Axis::X)));
        }
        if self.dims_used() >= 3 {
            let xy = bin(BinOp::Mul, special(Special::Groups, Axis::X), special(Special::Groups, Axis::Y));
            g = bin(BinOp::Add, g, bin(BinOp::Mul, special(Special::Gid, Axis::Z), xy));
        }
        let tpg: u32 = self.threads.iter().product();
        bin(BinOp::Add, bin(BinOp::Mul, g, num(tpg as u64)), self.local_linear())
    }

    fn locals(&self, assignable: bool) -> Vec<String> {
        self.scopes
            .iter()
            .flatten()
            .filter(|l| !(assignable && l.reserved))
            .map(|l| l.name.clone())
            .collect()
    }

    /// A random expression; reads only what the current modes allow.
    fn expr(&mut self, ctx: Ctx, depth: usize) -> Expr {
        if depth == 0 || self.rng.chance(1, 3) {
            return self.leaf(ctx);
        }
        match self.rng.below(10) {
            0..=4 => {
                use BinOp::*;
                let op = *self.rng.pick(&[
                    LOr, LAnd, BitOr, BitXor, BitAnd, Eq, Ne, Lt, Le, Gt, Ge, Shl, Shr, Add, Sub, Mul, Div, Rem, Add, Sub,
                ]);
                let a = self.expr(ctx, depth - 1);
                let b = self.expr(ctx, depth - 1);
                bin(op, a, b)
            }
            5 => {
                let op = *self.rng.pick(&[UnOp::Not, UnOp::BitNot, UnOp::Neg]);
                Expr::new(ExprKind::Unary(op, Box::new(self.expr(ctx, depth - 1))), SP)
            }
            6 => {
                let c = self.expr(ctx, depth - 1);
                let t = self.expr(ctx, depth - 1);
                let f = self.expr(ctx, depth - 1);
                Expr::new(ExprKind::Cond(Box::new(c), Box::new(t), Box::new(f)), SP)
            }
            7 => {
                let b = *self.rng.pick(Builtin::INTEGER);
                let args = (0..b.arity()).map(|_| self.expr(ctx, depth - 1)).collect();
                Expr::new(ExprKind::Call(id(b.name()), args), SP)
            }
            _ => self.read(ctx, depth - 1).unwrap_or_else(|| self.leaf(ctx)),
        }
    }

    fn leaf(&mut self, _ctx: Ctx) -> Expr {
        let locals = self.locals(false);
        match self.rng.below(8) {
            0 | 1 if !locals.is_empty() => var(&self.rng.pick(&locals).clone()),
            2 if !self.params.is_empty() => var(&self.params[self.rng.below(self.params.len() as u64) as usize].clone()),
            3 => {
                let s = *self.rng.pick(&[Special::Lid, Special::Gid, Special::Threads, Special::Groups]);
                let a = Axis::ALL[self.rng.below(self.dims_used() as u64) as usize];
                special(s, a)
            }
            4 => num(self.rng.next_u32() as u64),
            5 => Expr::new(ExprKind::Bool(self.rng.chance(1, 2)), SP),
            _ => num(self.rng.range(0, 9)),
        }
    }

    /// A read the current modes allow, if any.
    fn read(&mut self, ctx: Ctx, depth: usize) -> Option<Expr> {
        let mut options: Vec<u8> = Vec::new();
        if !self.inputs.is_empty() {
            options.push(0);
        }
        if !self.outputs.is_empty() {
            options.push(1);
        }
        if !ctx.in_proc && !self.shared.is_empty() {
            options.push(2);
        }
        if options.is_empty() {
            return None;
        }
        match *self.rng.pick(&options) {
            0 => {
                let (a, size) = self.inputs[self.rng.below(self.inputs.len() as u64) as usize].clone();
                let i = bin(BinOp::Rem, self.expr(ctx, depth), num(size as u64));
                Some(Expr::new(ExprKind::Index(id(&a), Box::new(i)), SP))
            }
            1 => {
                let a = self.outputs[self.rng.below(self.outputs.len() as u64) as usize].clone();
                Some(Expr::new(ExprKind::Index(id(&a), Box::new(self.global_id())), SP))
            }
            _ => {
                let k = self.rng.below(self.shared.len() as u64) as usize;
                let a = self.shared[k].clone();
                let tpg: u32 = self.threads.iter().product();
                let i = match self.modes[k] {
                    Mode::Own => self.local_linear(),
                    Mode::Read => bin(BinOp::Rem, self.expr(ctx, depth), num(tpg as u64)),
                };
                Some(Expr::new(ExprKind::Index(id(&a), Box::new(i)), SP))
            }
        }
    }

    fn declare(&mut self, name: &str, reserved: bool) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(Local { name: name.to_string(), reserved });
        }
    }

    fn body(&mut self, ctx: Ctx, n: u64) -> Vec<Stmt> {
        self.scopes.push(Vec::new());
        let mut out = Vec::new();
        for _ in 0..self.rng.range(1, n) {
            self.stmt(ctx, &mut out);
        }
        self.scopes.pop();
        out
    }

    fn stmt(&mut self, ctx: Ctx, out: &mut Vec<Stmt>) {
        if self.stmt_budget == 0 {
            return;
        }
        self.stmt_budget -= 1;
        let deep = ctx.depth >= 3;
        match self.rng.below(16) {
            0..=2 => {
                let e = self.expr(ctx, 3);
                let x = self.fresh("x");
                out.push(stmt(StmtKind::Local(id(&x), Some(e))));
                self.declare(&x, false);
            }
            3 | 4 => {
                let targets = self.locals(true);
                if targets.is_empty() {
                    return self.stmt(ctx, out);
                }
                let x = self.rng.pick(&targets).clone();
                let e = self.expr(ctx, 3);
                out.push(stmt(StmtKind::Assign(id(&x), e)));
            }
            5 | 6 => self.store(ctx, out),
            7 | 8 if !deep => {
                let c = self.expr(ctx, 2);
                let inner = Ctx { depth: ctx.depth + 1, uniform: false, ..ctx };
                let t = self.body(inner, 3);
                let e = if self.rng.chance(1, 2) { Some(Box::new(Else::Block(block(self.body(inner, 3))))) } else { None };
                out.push(stmt(StmtKind::If(c, block(t), e)));
            }
            9 if !deep => self.plain_loop(ctx, out),
            10 if !deep && ctx.uniform && !ctx.in_plain_loop && !ctx.in_proc => self.barrier_loop(ctx, out),
            11 if !deep && ctx.uniform && !ctx.in_plain_loop && !ctx.in_proc => self.uniform_if(ctx, out),
            12 if ctx.uniform && !ctx.in_plain_loop && !ctx.in_proc => {
                out.push(stmt(StmtKind::Barrier(Fence::both(SP))));
                self.new_modes();
            }
            13 if !self.procs.is_empty() && !ctx.in_proc => {
                let (f, n) = self.procs[self.rng.below(self.procs.len() as u64) as usize].clone();
                let args = (0..n).map(|_| self.expr(ctx, 2)).collect();
                out.push(stmt(StmtKind::Call(id(&f), args)));
            }
            14 if ctx.in_plain_loop => {
                let c = self.expr(ctx, 2);
                let j = if self.rng.chance(1, 2) { StmtKind::Break } else { StmtKind::Continue };
                out.push(stmt(StmtKind::If(c, block(vec![stmt(j)]), None)));
            }
            15 if ctx.in_proc => {
                let c = self.expr(ctx, 2);
                out.push(stmt(StmtKind::If(c, block(vec![stmt(StmtKind::Return)]), None)));
            }
            _ => {
                let e = self.expr(ctx, 2);
                let x = self.fresh("x");
                out.push(stmt(StmtKind::Local(id(&x), Some(e))));
                self.declare(&x, false);
                let lt = bin(BinOp::Lt, special(Special::Lid, Axis::X), special(Special::Threads, Axis::X));
                out.push(stmt(StmtKind::Assert(lt, false)));
            }
        }
    }

    fn store(&mut self, ctx: Ctx, out: &mut Vec<Stmt>) {
        let own_shared: Vec<usize> =
            (0..self.shared.len()).filter(|&k| !ctx.in_proc && self.modes[k] == Mode::Own).collect();
        let use_shared = !own_shared.is_empty() && self.rng.chance(1, 2);
        let e = self.expr(ctx, 3);
        if use_shared {
            let k = *self.rng.pick(&own_shared);
            let a = self.shared[k].clone();
            out.push(stmt(StmtKind::Store(id(&a), self.local_linear(), e)));
        } else {
            let a = self.outputs[self.rng.below(self.outputs.len() as u64) as usize].clone();
            out.push(stmt(StmtKind::Store(id(&a), self.global_id(), e)));
        }
    }

    /// `local i := 0; while i < K { i := i + 1; ... }` with `break`/`continue` allowed.
    fn plain_loop(&mut self, ctx: Ctx, out: &mut Vec<Stmt>) {
        let i = self.fresh("i");
        out.push(stmt(StmtKind::Local(id(&i), Some(num(0)))));
        self.declare(&i, true);
        let bound = if self.rng.chance(1, 2) { num(self.rng.range(0, 4)) } else {
            let e = self.expr(ctx, 2);
            bin(BinOp::Rem, e, num(4))
        };
        let inner = Ctx { depth: ctx.depth + 1, uniform: false, in_plain_loop: true, ..ctx };
        let mut body = vec![stmt(StmtKind::Assign(id(&i), bin(BinOp::Add, var(&i), num(1))))];
        body.extend(self.body(inner, 4));
        out.push(stmt(StmtKind::While { cond: bin(BinOp::Lt, var(&i), bound), invariants: vec![], candidates: vec![], body: block(body) }));
    }

    /// `barrier; local i := 0; while i < K { i := i + 1; ...; barrier; }` with K constant.
    fn barrier_loop(&mut self, ctx: Ctx, out: &mut Vec<Stmt>) {
        out.push(stmt(StmtKind::Barrier(Fence::both(SP))));
        let i = self.fresh("i");
        out.push(stmt(StmtKind::Local(id(&i), Some(num(0)))));
        self.declare(&i, true);
        let k = self.rng.range(1, 3);
        self.new_modes();
        let inner = Ctx { depth: ctx.depth + 1, ..ctx };
        let mut body = vec![stmt(StmtKind::Assign(id(&i), bin(BinOp::Add, var(&i), num(1))))];
        body.extend(self.body(inner, 4));
        body.push(stmt(StmtKind::Barrier(Fence::both(SP))));
        self.new_modes();
        out.push(stmt(StmtKind::While {
            cond: bin(BinOp::Lt, var(&i), num(k)),
            invariants: vec![],
            candidates: vec![],
            body: block(body),
        }));
    }

    /// `barrier; if U { ...; barrier; } else { ...; barrier; }` with U uniform in a group.
    fn uniform_if(&mut self, ctx: Ctx, out: &mut Vec<Stmt>) {
        out.push(stmt(StmtKind::Barrier(Fence::both(SP))));
        let mut c = match self.rng.below(3) {
            0 if !self.params.is_empty() => bin(BinOp::Rem, var(&self.params[0].clone()), num(2)),
            1 => bin(BinOp::Eq, special(Special::Gid, Axis::X), num(0)),
            _ => bin(BinOp::Gt, special(Special::Threads, Axis::X), num(self.rng.range(0, 8))),
        };
        if self.rng.chance(1, 4) {
            c = Expr::new(ExprKind::Unary(UnOp::Not, Box::new(c)), SP);
        }
        let inner = Ctx { depth: ctx.depth + 1, ..ctx };
        self.new_modes();
        let mut t = self.body(inner, 3);
        t.push(stmt(StmtKind::Barrier(Fence::both(SP))));
        self.new_modes();
        let mut e = self.body(inner, 3);
        e.push(stmt(StmtKind::Barrier(Fence::both(SP))));
        self.new_modes();
        out.push(stmt(StmtKind::If(c, block(t), Some(Box::new(Else::Block(block(e)))))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_kernel() {
        assert_eq!(generate(7), generate(7));
        assert_ne!(generate(7), generate(8));
    }
}
