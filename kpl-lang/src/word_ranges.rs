//! What the launch decides, folded: each word expression's unsigned range from the ids'
//! ranges (`lid.x < threads.x`, `gid.x < groups.x`), the literals and the locals assigned
//! once, and every pure part of an expression whose range is one value replaced by that
//! value. The C front end's 64-bit arithmetic is where this pays: the high word of
//! `32 * (long)get_group_id(0)` is an expression of carries over 16-bit halves that the
//! launch makes 0, and the solvers no longer have to find that at every query.
//!
//! A param's range is what the kernel's top-level `requires` bound it to (`n == 2048`,
//! `sge(n, 1) & sle(n, 2147483647)`): PPCG fixes every size so, and a param fixed to one
//! value then folds like a literal (`ashr(n, 31)` to 0, `x % n` to `x % 2048`).
//!
//! Exact, not an approximation: a range holds in every execution, so each replaced
//! expression has the value it is replaced by wherever it is evaluated (an execution whose
//! inputs break a `requires` does not run the body). A local's range
//! includes 0, the value of a location before its initialiser is stored (KPL.md). Only
//! expressions without array reads and with only built-in calls are replaced or dropped,
//! so no access is lost.

use crate::ast::*;
use crate::launch::Launch;
use std::collections::{HashMap, HashSet};

/// An unsigned range of a word: `lo..=hi`.
type Range = (u64, u64);

const MAX: u64 = 0xFFFF_FFFF;

/// Fold `kernel`'s expressions by the ranges its launch `launch` gives (a free grid size
/// is a range, not its bound).
pub fn fold(kernel: &mut Kernel, launch: Launch) {
    let params: HashSet<String> = kernel
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Param(x) => Some(x.name.clone()),
            _ => None,
        })
        .collect();
    let bounded = param_ranges(kernel, &params);
    let mut f = Folder { launch, once: defined_once(&kernel.main, &params), ranges: bounded.clone() };
    f.block(&mut kernel.main);
    for p in &mut kernel.procs {
        let mut outer: HashSet<String> = params.clone();
        outer.extend(p.params.iter().map(|x| x.name.clone()));
        let mut ranges = bounded.clone();
        ranges.retain(|x, _| !p.params.iter().any(|y| &y.name == x));
        let mut f = Folder { launch, once: defined_once(&p.body, &outer), ranges };
        f.block(&mut p.body);
    }
}

/// The unsigned ranges the kernel's top-level `requires` give its params: from each
/// conjunct that compares a param with a literal, unsigned (`n == 2048`, `n < 64`) or
/// signed (`sge(n, 1)`, `sle(n, 2147483647)`; a signed range counts only once its lower
/// end is not negative). Params no conjunct bounds are left out.
fn param_ranges(kernel: &Kernel, params: &HashSet<String>) -> HashMap<String, Range> {
    // Per param: its unsigned range and its signed one.
    let mut bounds: HashMap<String, (Range, (i64, i64))> = HashMap::new();
    fn conjuncts<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
        match &e.kind {
            ExprKind::Binary(BinOp::LAnd | BinOp::BitAnd, a, b) => {
                conjuncts(a, out);
                conjuncts(b, out);
            }
            _ => out.push(e),
        }
    }
    let mut all = Vec::new();
    for d in &kernel.decls {
        if let DeclKind::Requires(e) = &d.kind {
            conjuncts(e, &mut all);
        }
    }
    let param = |e: &Expr| match &e.kind {
        ExprKind::Var(x) if params.contains(&x.name) => Some(x.name.clone()),
        _ => None,
    };
    let num = |e: &Expr| match &e.kind {
        ExprKind::Num(n) if *n <= MAX => Some(*n),
        ExprKind::Unary(UnOp::Neg, a) => match &a.kind {
            ExprKind::Num(n) if *n <= MAX => Some(n.wrapping_neg() & MAX),
            _ => None,
        },
        _ => None,
    };
    let signed = |n: u64| n as u32 as i32 as i64;
    for c in all {
        // `p op k`, with `op` as if the param were on the left.
        let (p, op, k, is_signed) = match &c.kind {
            ExprKind::Binary(op, a, b) => match (param(a), num(b), param(b), num(a)) {
                (Some(p), Some(k), _, _) => (p, *op, k, false),
                (_, _, Some(p), Some(k)) => (p, op.flipped(), k, false),
                _ => continue,
            },
            ExprKind::Call(f, args) if args.len() == 2 => {
                let Some(op) = Builtin::from_name(&f.name).and_then(unsigned_of) else { continue };
                match (param(&args[0]), num(&args[1]), param(&args[1]), num(&args[0])) {
                    (Some(p), Some(k), _, _) => (p, op, k, true),
                    (_, _, Some(p), Some(k)) => (p, op.flipped(), k, true),
                    _ => continue,
                }
            }
            _ => continue,
        };
        let (u, s) = bounds.entry(p).or_insert(((0, MAX), (i32::MIN as i64, i32::MAX as i64)));
        if is_signed {
            let k = signed(k);
            match op {
                BinOp::Lt => s.1 = s.1.min(k - 1),
                BinOp::Le => s.1 = s.1.min(k),
                BinOp::Gt => s.0 = s.0.max(k + 1),
                BinOp::Ge => s.0 = s.0.max(k),
                _ => {}
            }
        } else {
            match op {
                BinOp::Eq => *u = (u.0.max(k), u.1.min(k)),
                BinOp::Lt if k > 0 => u.1 = u.1.min(k - 1),
                BinOp::Le => u.1 = u.1.min(k),
                BinOp::Gt if k < MAX => u.0 = u.0.max(k + 1),
                BinOp::Ge => u.0 = u.0.max(k),
                _ => {}
            }
        }
    }
    bounds
        .into_iter()
        .filter_map(|(p, (u, s))| {
            let (lo, hi) = if s.0 >= 0 { (u.0.max(s.0 as u64), u.1.min(s.1.max(0) as u64)) } else { u };
            // Contradictory bounds: no execution runs the body, nothing to fold by.
            (lo <= hi && (lo, hi) != (0, MAX)).then_some((p, (lo, hi)))
        })
        .collect()
}

/// The locals of a body declared exactly once, with an initialiser, and never assigned
/// otherwise (nor named by a param): their value is their initialiser's wherever they are
/// read.
fn defined_once(b: &Block, params: &HashSet<String>) -> HashSet<String> {
    let mut decls: HashMap<String, usize> = HashMap::new();
    let mut written: HashSet<String> = params.clone();
    fn visit(stmts: &[Stmt], decls: &mut HashMap<String, usize>, written: &mut HashSet<String>) {
        for s in stmts {
            match &s.kind {
                StmtKind::Local(x, Some(_)) => *decls.entry(x.name.clone()).or_default() += 1,
                StmtKind::Local(x, None) | StmtKind::Assign(x, _) | StmtKind::Havoc(x) => {
                    written.insert(x.name.clone());
                }
                StmtKind::Atomic(a) => {
                    written.extend(a.dest.iter().chain(a.dest_hi.iter()).map(|x| x.name.clone()));
                }
                StmtKind::Warp(w) => written.extend(w.dest.iter().map(|x| x.name.clone())),
                StmtKind::If(_, t, e) => {
                    visit(&t.stmts, decls, written);
                    match e.as_deref() {
                        Some(Else::Block(b)) => visit(&b.stmts, decls, written),
                        Some(Else::If(s)) => visit(std::slice::from_ref(s), decls, written),
                        None => {}
                    }
                }
                StmtKind::While { body, .. } => visit(&body.stmts, decls, written),
                _ => {}
            }
        }
    }
    visit(&b.stmts, &mut decls, &mut written);
    decls.into_iter().filter(|(x, n)| *n == 1 && !written.contains(x)).map(|(x, _)| x).collect()
}

struct Folder {
    launch: Launch,
    once: HashSet<String>,
    /// The ranges of the locals in `once` met so far (in program order, which is the
    /// order of their declarations).
    ranges: HashMap<String, Range>,
}

impl Folder {
    fn block(&mut self, b: &mut Block) {
        for s in &mut b.stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Local(x, Some(e)) => {
                let info = self.expr(e);
                if self.once.contains(&x.name) {
                    if let Some((_, hi)) = info.range {
                        self.ranges.insert(x.name.clone(), (0, hi));
                    }
                }
            }
            StmtKind::Local(_, None) => {}
            StmtKind::Assign(_, e) | StmtKind::Assert(e, _) | StmtKind::Assume(e) => {
                self.expr(e);
            }
            StmtKind::Store(_, i, v) => {
                self.expr(i);
                self.expr(v);
            }
            StmtKind::If(c, t, e) => {
                self.expr(c);
                self.block(t);
                if let Some(e) = e.as_deref_mut() {
                    match e {
                        Else::Block(b) => self.block(b),
                        Else::If(s) => self.stmt(s),
                    }
                }
            }
            StmtKind::While { cond, invariants, candidates, body } => {
                self.expr(cond);
                invariants.iter_mut().chain(candidates.iter_mut()).for_each(|e| {
                    self.expr(e);
                });
                self.block(body);
            }
            StmtKind::Call(_, args) => args.iter_mut().for_each(|e| {
                    self.expr(e);
                }),
            StmtKind::Atomic(a) => {
                self.expr(&mut a.index);
                a.args.iter_mut().for_each(|e| {
                    self.expr(e);
                });
            }
            StmtKind::Warp(w) => {
                w.args.iter_mut().for_each(|e| {
                    self.expr(e);
                });
                if let Some(e) = &mut w.exited {
                    self.expr(e);
                }
            }
            StmtKind::Barrier(_)
            | StmtKind::MemFence(..)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Return
            | StmtKind::Havoc(_)
            | StmtKind::Touch { .. }
            | StmtKind::Snapshot { .. }
            | StmtKind::Error => {}
        }
    }

    /// Fold `e` in place, its sub-expressions first, then itself; gives what is known of
    /// the result.
    fn expr(&mut self, e: &mut Expr) -> Info {
        let kids: Vec<Info> = match &mut e.kind {
            ExprKind::Index(_, i) => vec![self.expr(i)],
            ExprKind::Unary(_, a) => vec![self.expr(a)],
            ExprKind::Binary(_, a, b) => vec![self.expr(a), self.expr(b)],
            ExprKind::Cond(c, a, b) => vec![self.expr(c), self.expr(a), self.expr(b)],
            ExprKind::Call(_, args) => args.iter_mut().map(|a| self.expr(a)).collect(),
            ExprKind::Num(_) | ExprKind::Bool(_) | ExprKind::Var(_) | ExprKind::Special(..) | ExprKind::Error => Vec::new(),
        };
        let pure = kids.iter().all(|k| k.pure)
            && match &e.kind {
                ExprKind::Index(..) | ExprKind::Error => false,
                ExprKind::Call(f, _) => Builtin::from_name(&f.name).is_some(),
                _ => true,
            };
        let ranges: Vec<Option<Range>> = kids.iter().map(|k| k.range).collect();
        let range = if pure { self.node_range(e, &ranges) } else { None };
        let info = Info { range, pure };
        if !pure || matches!(e.kind, ExprKind::Num(_) | ExprKind::Bool(_)) {
            return info;
        }
        if let Some((lo, hi)) = range {
            if lo == hi {
                *e = Expr::num(lo, e.span);
                return info;
            }
        }
        match self.simplify(e, &kids) {
            Some((simpler, info)) => {
                *e = simpler;
                info
            }
            None => info,
        }
    }

    /// A simpler expression with the value of the pure `e` (whose operands are known as
    /// `kids` say), and what is known of it: an operation the ranges show to be the
    /// identity, or a signed one that means the same unsigned.
    fn simplify(&self, e: &Expr, kids: &[Info]) -> Option<(Expr, Info)> {
        let r = |i: usize| kids.get(i).and_then(|k| k.range);
        match &e.kind {
            ExprKind::Binary(op, a, b) => {
                // An unknown operand's range is all words: the identities need only the
                // other's.
                let (ra, rb) = (r(0).unwrap_or((0, MAX)), r(1).unwrap_or((0, MAX)));
                let keep = |x: &Expr, i: usize| Some((x.clone(), kids[i]));
                match op {
                    // `a & 2^k - 1` with `a` below 2^k.
                    BinOp::BitAnd if rb.0 == rb.1 && (rb.0 + 1).is_power_of_two() && ra.1 <= rb.0 => keep(a, 0),
                    BinOp::BitAnd if ra.0 == ra.1 && (ra.0 + 1).is_power_of_two() && rb.1 <= ra.0 => keep(b, 1),
                    BinOp::Add | BinOp::BitOr | BinOp::BitXor | BinOp::Sub | BinOp::Shl | BinOp::Shr if rb == (0, 0) => keep(a, 0),
                    BinOp::Add | BinOp::BitOr | BinOp::BitXor if ra == (0, 0) => keep(b, 1),
                    BinOp::Mul if rb == (1, 1) => keep(a, 0),
                    BinOp::Mul if ra == (1, 1) => keep(b, 1),
                    BinOp::Rem if ra.1 < rb.0 => keep(a, 0),
                    // `0 || p`, `1 && p` for a `p` that is 0 or 1.
                    BinOp::LOr if ra == (0, 0) && rb.1 <= 1 => keep(b, 1),
                    BinOp::LOr if rb == (0, 0) && ra.1 <= 1 => keep(a, 0),
                    BinOp::LAnd if ra.0 > 0 && rb.1 <= 1 => keep(b, 1),
                    BinOp::LAnd if rb.0 > 0 && ra.1 <= 1 => keep(a, 0),
                    _ => None,
                }
            }
            ExprKind::Call(f, args) => {
                let unsigned = unsigned_of(Builtin::from_name(&f.name)?)?;
                // Words below 2^31 mean the same signed and unsigned.
                let [a, b] = args.as_slice() else { return None };
                let below = |i: usize| r(i).is_some_and(|(_, hi)| hi < 1 << 31);
                let shift = unsigned == BinOp::Shr;
                let same = below(0) && (shift || below(1));
                let info = Info { range: self.node_range(e, &[r(0), r(1)]), pure: true };
                same.then(|| (Expr::new(ExprKind::Binary(unsigned, Box::new(a.clone()), Box::new(b.clone())), e.span), info))
            }
            _ => None,
        }
    }

    /// The unsigned range of a pure expression's value, from its operands' (`kids`, in
    /// the order of `expr`), if known.
    fn node_range(&self, e: &Expr, kids: &[Option<Range>]) -> Option<Range> {
        let r = |i: usize| kids.get(i).copied().flatten();
        let upto = |d: u32| Some((0, (d.max(1) - 1) as u64));
        match &e.kind {
            ExprKind::Num(n) => Some((n & MAX, n & MAX)),
            ExprKind::Bool(b) => Some((*b as u64, *b as u64)),
            ExprKind::Var(x) => self.ranges.get(&x.name).copied(),
            ExprKind::Special(s, a, _) => {
                let i = *a as usize;
                match s {
                    Special::Lid => upto(self.launch.threads[i]),
                    Special::Gid => upto(self.launch.groups[i]),
                    Special::Threads => Some((self.launch.threads[i] as u64, self.launch.threads[i] as u64)),
                    // A free size (a grid computed at run time) is any from 1 to its bound.
                    Special::Groups if self.launch.free_groups[i] => Some((1, self.launch.groups[i] as u64)),
                    Special::Groups => Some((self.launch.groups[i] as u64, self.launch.groups[i] as u64)),
                }
            }
            ExprKind::Unary(op, _) => match op {
                UnOp::Not => Some(match r(0) {
                    Some((0, 0)) => (1, 1),
                    Some((lo, _)) if lo > 0 => (0, 0),
                    _ => (0, 1),
                }),
                UnOp::Neg => r(0).filter(|x| *x == (0, 0)),
                UnOp::BitNot => r(0).map(|(lo, hi)| (MAX - hi, MAX - lo)),
            },
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, r(0), r(1)),
            ExprKind::Cond(..) => match r(0)? {
                (0, 0) => r(2),
                (lo, _) if lo > 0 => r(1),
                _ => {
                    let (x, y) = (r(1)?, r(2)?);
                    Some((x.0.min(y.0), x.1.max(y.1)))
                }
            },
            ExprKind::Call(f, _) => {
                let b = Builtin::from_name(&f.name)?;
                match b {
                    Builtin::Min => r(0).zip(r(1)).map(|(x, y)| (x.0.min(y.0), x.1.min(y.1))),
                    Builtin::Max => r(0).zip(r(1)).map(|(x, y)| (x.0.max(y.0), x.1.max(y.1))),
                    Builtin::Ashr => {
                        let (x, s) = (r(0)?, r(1)?);
                        (x.1 < 1 << 31 && s.0 == s.1).then(|| shr(x, s.0))
                    }
                    Builtin::Slt | Builtin::Sle | Builtin::Sgt | Builtin::Sge => match (r(0), r(1)) {
                        (Some(x), Some(y)) if x.1 < 1 << 31 && y.1 < 1 << 31 => Some(compare(unsigned_of(b)?, x, y)),
                        _ => Some((0, 1)),
                    },
                    Builtin::Implies | Builtin::Written | Builtin::WasRead | Builtin::Enabled | Builtin::Taken => Some((0, 1)),
                    _ => None,
                }
            }
            ExprKind::Index(..) | ExprKind::Error => None,
        }
    }

    /// The range of `a op b` from the operands' ranges `ra`, `rb`.
    fn binary(&self, op: BinOp, a: &Expr, b: &Expr, ra: Option<Range>, rb: Option<Range>) -> Option<Range> {
        let bool_of = |x: Option<Range>| match x {
            Some((0, 0)) => Some(false),
            Some((lo, _)) if lo > 0 => Some(true),
            _ => None,
        };
        let known = |v: bool| Some((v as u64, v as u64));
        match op {
            BinOp::LAnd => match (bool_of(ra), bool_of(rb)) {
                (Some(false), _) | (_, Some(false)) => known(false),
                (Some(true), Some(true)) => known(true),
                _ => Some((0, 1)),
            },
            BinOp::LOr => match (bool_of(ra), bool_of(rb)) {
                (Some(true), _) | (_, Some(true)) => known(true),
                (Some(false), Some(false)) => known(false),
                _ => Some((0, 1)),
            },
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                // The carry of a sum that cannot wrap (`long.rs` writes `a + b < a`) is 0.
                if let (BinOp::Lt, ExprKind::Binary(BinOp::Add, x, y)) = (op, &a.kind) {
                    if (same(x, b) || same(y, b)) && self.shallow(x).zip(self.shallow(y)).is_some_and(|(p, q)| p.1 + q.1 <= MAX) {
                        return known(false);
                    }
                }
                match (ra, rb) {
                    (Some(x), Some(y)) => Some(compare(op, x, y)),
                    _ => Some((0, 1)),
                }
            }
            _ => {
                let (x, y) = (ra?, rb?);
                let fits = |lo: u64, hi: u64| (hi <= MAX).then_some((lo, hi));
                match op {
                    BinOp::Add => fits(x.0 + y.0, x.1 + y.1),
                    BinOp::Sub => (x.0 >= y.1).then(|| (x.0 - y.1, x.1 - y.0)),
                    BinOp::Mul => fits(x.0 * y.0, x.1 * y.1),
                    BinOp::Div => (y.0 > 0).then(|| (x.0 / y.1, x.1 / y.0)),
                    BinOp::Rem => match y.0 {
                        0 => None,
                        _ if x.1 < y.0 => Some(x),
                        _ => Some((0, x.1.min(y.1 - 1))),
                    },
                    BinOp::Shr => (y.0 == y.1).then(|| shr(x, y.0)),
                    BinOp::Shl => match y.0 == y.1 {
                        true if y.0 >= 32 => Some((0, 0)),
                        true => fits(x.0 << y.0, x.1 << y.0),
                        false => None,
                    },
                    BinOp::BitAnd => Some((0, x.1.min(y.1))),
                    BinOp::BitOr | BinOp::BitXor => {
                        let top = x.1.max(y.1);
                        let all = if top == 0 { 0 } else { u64::MAX >> top.leading_zeros() };
                        Some((if op == BinOp::BitOr { x.0.max(y.0) } else { 0 }, all))
                    }
                    _ => None,
                }
            }
        }
    }

    /// The range of an expression already folded, looked at a few levels deep only
    /// (the operands of a carry, which `long.rs` keeps small).
    fn shallow(&self, e: &Expr) -> Option<Range> {
        fn go(f: &Folder, e: &Expr, depth: u32) -> Option<Range> {
            let kids: Vec<&Expr> = match &e.kind {
                ExprKind::Unary(_, a) => vec![a],
                ExprKind::Binary(_, a, b) => vec![a, b],
                ExprKind::Cond(c, a, b) => vec![c, a, b],
                ExprKind::Call(_, args) => args.iter().collect(),
                ExprKind::Index(..) | ExprKind::Error => return None,
                _ => Vec::new(),
            };
            if depth == 0 && !kids.is_empty() {
                return None;
            }
            if let ExprKind::Call(g, _) = &e.kind {
                Builtin::from_name(&g.name)?;
            }
            let ranges: Vec<Option<Range>> = kids.iter().map(|k| go(f, k, depth - 1)).collect();
            f.node_range(e, &ranges)
        }
        go(self, e, 6)
    }
}

/// What is known of an expression: its range, and whether it is pure (no array read,
/// only built-in calls), so that it may be replaced or dropped without losing an access.
#[derive(Clone, Copy)]
struct Info {
    range: Option<Range>,
    pure: bool,
}

/// The same expression, spans aside.
fn same(a: &Expr, b: &Expr) -> bool {
    match (&a.kind, &b.kind) {
        (ExprKind::Num(x), ExprKind::Num(y)) => x == y,
        (ExprKind::Bool(x), ExprKind::Bool(y)) => x == y,
        (ExprKind::Var(x), ExprKind::Var(y)) => x.name == y.name,
        (ExprKind::Special(s, x, _), ExprKind::Special(t, y, _)) => s == t && x == y,
        (ExprKind::Index(x, i), ExprKind::Index(y, j)) => x.name == y.name && same(i, j),
        (ExprKind::Unary(o, x), ExprKind::Unary(p, y)) => o == p && same(x, y),
        (ExprKind::Binary(o, x, u), ExprKind::Binary(p, y, v)) => o == p && same(x, y) && same(u, v),
        (ExprKind::Cond(c, x, u), ExprKind::Cond(d, y, v)) => same(c, d) && same(x, y) && same(u, v),
        (ExprKind::Call(f, xs), ExprKind::Call(g, ys)) => {
            f.name == g.name && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y))
        }
        _ => false,
    }
}

/// The unsigned operation a signed built-in is on words below 2^31.
fn unsigned_of(b: Builtin) -> Option<BinOp> {
    Some(match b {
        Builtin::Slt => BinOp::Lt,
        Builtin::Sle => BinOp::Le,
        Builtin::Sgt => BinOp::Gt,
        Builtin::Sge => BinOp::Ge,
        Builtin::Sdiv => BinOp::Div,
        Builtin::Srem => BinOp::Rem,
        Builtin::Ashr => BinOp::Shr,
        _ => return None,
    })
}

/// `x >> s` for a constant `s` (0 past 31, as KPL's `>>`).
fn shr(x: Range, s: u64) -> Range {
    if s >= 32 {
        (0, 0)
    } else {
        (x.0 >> s, x.1 >> s)
    }
}

/// The range of an unsigned comparison of two ranges: decided, or either.
fn compare(op: BinOp, x: Range, y: Range) -> Range {
    let (always, never) = match op {
        BinOp::Lt => (x.1 < y.0, x.0 >= y.1),
        BinOp::Le => (x.1 <= y.0, x.0 > y.1),
        BinOp::Gt => (x.0 > y.1, x.1 <= y.0),
        BinOp::Ge => (x.0 >= y.1, x.1 < y.0),
        BinOp::Eq => (x.0 == x.1 && y.0 == y.1 && x.0 == y.0, x.1 < y.0 || y.1 < x.0),
        BinOp::Ne => (x.1 < y.0 || y.1 < x.0, x.0 == x.1 && y.0 == y.1 && x.0 == y.0),
        _ => (false, false),
    };
    match (always, never) {
        (true, _) => (1, 1),
        (_, true) => (0, 0),
        _ => (0, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse;
    use crate::printer::print_expr;

    /// The folded initialisers of `main`'s locals, one per line, for a kernel of 4 groups
    /// of 32 threads.
    fn folded(body: &str) -> Vec<String> {
        folded_with("", body)
    }

    /// The same, after the declarations `decls` (after `param p; param q;`).
    fn folded_with(decls: &str, body: &str) -> Vec<String> {
        let src = format!("kernel k {{ groups: 4; threads: 32; global A[64]; param p; param q; {decls} main {{ {body} }} }}");
        let parsed = parse(&src);
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let mut k = parsed.kernel.expect("the test kernel parses");
        let launch = Launch::of(&k);
        fold(&mut k, launch);
        k.main
            .stmts
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Local(x, Some(e)) => Some(format!("{} := {}", x.name, print_expr(e))),
                StmtKind::Assign(x, e) => Some(format!("{} := {}", x.name, print_expr(e))),
                _ => None,
            })
            .collect()
    }

    /// A free grid size is a range from 1 to its bound, never the bound itself.
    #[test]
    fn a_free_grid_size_folds_as_a_range() {
        let src = "kernel k { groups: 4; threads: 32; global A[64]; main { local a := groups.x < 3; local b := groups.x > 0; local c := groups.x == 4; } }";
        let mut k = parse(src).kernel.expect("the test kernel parses");
        let mut launch = Launch::of(&k);
        launch.free_groups = [true, false, false];
        fold(&mut k, launch);
        let out: Vec<String> = k.main.stmts.iter().filter_map(|s| match &s.kind {
            StmtKind::Local(x, Some(e)) => Some(format!("{} := {}", x.name, print_expr(e))),
            _ => None,
        }).collect();
        assert_eq!(out, ["a := groups.x < 3", "b := 1", "c := groups.x == 4"]);
        // Fixed, the same size folds.
        let mut k = parse(src).kernel.expect("the test kernel parses");
        let launch = Launch::of(&k);
        fold(&mut k, launch);
        let first = k.main.stmts.iter().find_map(|s| match &s.kind {
            StmtKind::Local(_, Some(e)) => Some(print_expr(e)),
            _ => None,
        });
        assert_eq!(first.as_deref(), Some("0"));
    }

    #[test]
    fn high_words_of_ids_fold_to_zero() {
        let out = folded("local lo := gid.x; local hi := 0; local t := lo >> 16; local m := 32 * (lo & 65535); local h := (m >> 16) + 32 * hi + t;");
        assert_eq!(out, ["lo := gid.x", "hi := 0", "t := 0", "m := 32 * lo", "h := 0"]);
    }

    #[test]
    fn carries_that_cannot_happen_fold() {
        let out = folded("local a := 32 * gid.x; local c := a + lid.x < a; local d := a + p < a; local s := slt(lid.x, a); local r := ashr(lid.x, 31);");
        assert_eq!(out, ["a := 32 * gid.x", "c := 0", "d := a + p < a", "s := lid.x < a", "r := 0"]);
    }

    #[test]
    fn only_what_is_known_folds() {
        // `x` is assigned again, `p` is a param, and an array read is never dropped.
        let out = folded("local x := 0; x := lid.x; local y := x >> 16; local z := p >> 31; local w := A[lid.x] & 0; local v := lid.x % 32; local u := lid.x % 16;");
        assert_eq!(out, ["x := 0", "x := lid.x", "y := x >> 16", "z := p >> 31", "w := A[lid.x] & 0", "v := lid.x", "u := lid.x % 16"]);
    }

    #[test]
    fn params_fold_by_the_requires() {
        // `p` is fixed, `q` below 2^31 by its signed bounds: `ashr` and `slt` over it
        // read as unsigned ones.
        let out = folded_with(
            "requires p == 2048; requires sge(q, 1) & sle(q, 2147483647);",
            "local a := ashr(p, 31); local b := lid.x % p; local f := gid.x * 1000 % p; local c := ashr(q, 31); local d := slt(lid.x, q); local e := q + 1;",
        );
        assert_eq!(out, ["a := 0", "b := lid.x", "f := gid.x * 1000 % 2048", "c := 0", "d := lid.x < q", "e := q + 1"]);
        // A bound that is not a conjunct (`p == 1 || ...`) or has no lower end that is
        // not negative (`sle(q, 9)`) says nothing.
        let out = folded_with("requires p == 1 || p == 2; requires sle(q, 9);", "local a := ashr(p, 31); local c := ashr(q, 31);");
        assert_eq!(out, ["a := ashr(p, 31)", "c := ashr(q, 31)"]);
    }

    #[test]
    fn a_local_may_still_be_zero() {
        // A location is 0 before its initialiser is stored: `one` is known to be at most 1,
        // not to be 1.
        let out = folded("local one := 1; local q := one == 1;");
        assert_eq!(out, ["one := 1", "q := one == 1"]);
    }
}
