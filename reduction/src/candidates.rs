//! Candidate loop invariants for Houdini (paper, section 5.3): thread id plus offset,
//! strided offset, strength reduction, contiguous range, power of two, GPUVerify's
//! relational power of two (a doubling and a halving counter keep their product), a base
//! plus a multiple of a (possibly nested) counter's step; plus uniformity (a local equal in
//! both threads, or in both threads of one group), "no access since the barrier", "an
//! access means thread 1 entered", the value a loop writes (benign tolerance), bounds from
//! loop guards and monotone updates, and "in the loop only if it entered". Access
//! candidates come from the loop body and from every access of the kernel whose index is
//! over ids, sizes and params (logs may have been filled by a called
//! procedure or before the loop); an index held in a temporary the body declares once is
//! read as the temporary's definition. Candidates are guesses:
//! Houdini keeps only those it proves, so a wrong one costs time, never soundness.

use crate::builder::Builder;
use crate::kernel_walk::walk;
use crate::seq::*;
use crate::uniformity::Level;
use kpl_lang::ast::{self, BinOp, ExprKind, StmtKind};
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// `x := x + c` (or `- c`, with `sub`).
    Stride { sub: bool },
    /// `x := x * c` or `x << c`.
    Grow,
    /// `x := x / c` or `x >> c`.
    Shrink,
    /// `x := c - x`: x takes two values by turns (a buffer index).
    Reflect,
}

struct Update {
    name: String,
    shape: Shape,
    step: ast::Expr,
    /// The step is 2 (or a shift by 1): a power-of-two counter.
    doubling: bool,
}

/// What a loop's candidates need, computed before the loop is translated.
pub(crate) struct Plan {
    modified: Vec<(String, [VarId; 2])>,
    updates: Vec<Update>,
    snapshots: HashMap<String, [VarId; 2]>,
    /// `x OP e` with x modified and e invariant; whether the comparison is signed (the C
    /// lowering's `slt`, `sle`, `sgt`, `sge`).
    guard: Option<(String, BinOp, ast::Expr, bool)>,
    /// Array accesses in the body: array name, is a write, index.
    accesses: Vec<(String, bool, ast::Expr)>,
    /// Where accesses in a nested loop lie (`nested_ranges`), over the loop's entry state,
    /// each with its rule.
    pub(crate) ranges: Vec<(Expr, &'static str)>,
    /// Values the body writes to arrays that are the same at every iteration (array, value).
    written: Vec<(String, ast::Expr)>,
    /// Accesses at `x + base` with `x` a counter stepped by `step` (of this loop or of one
    /// nested in it) and `base`, `step` the same at every iteration: array, is a write,
    /// base, step.
    strided: Vec<(String, bool, ast::Expr, ast::Expr)>,
    /// The body has a barrier, or threads run in warps that exchange values: where a
    /// variable's sameness in the two threads matters beyond what the uniformity analysis
    /// finds.
    synchronises: bool,
    /// Access logs (write, read, atomic, of an array) and copies of them taken at loop
    /// entry: in a loop with a barrier, every log's; in a loop entered under a condition,
    /// those of the arrays the body may access.
    log_snapshots: Vec<LogCopy>,
}

/// One access log's variables and their copies at loop entry.
struct LogCopy {
    exists: (VarId, VarId),
    elem: VarId,
    stmt: VarId,
    /// The copies of `elem` and `stmt`, where the loop is entered under a condition and
    /// its body may log this access.
    named: Option<(VarId, VarId)>,
}

/// `conditional`: the loop is entered under a condition (not by every thread that
/// reaches it).
pub(crate) fn plan(b: &mut Builder, body: &ast::Block, cond: &ast::Expr, conditional: bool) -> Plan {
    let locals = b.scope_locals();
    let mut assigned: HashMap<String, Vec<ast::Expr>> = HashMap::new();
    let mut accesses = Vec::new();
    let mut inner: BTreeSet<String> = BTreeSet::new();
    walk(body, &mut |s| {
        if let StmtKind::Local(x, _) = &s.kind {
            inner.insert(x.name.clone());
        }
    });
    walk(body, &mut |s| {
        if let StmtKind::Assign(x, e) = &s.kind {
            assigned.entry(x.name.clone()).or_default().push(e.clone());
        }
    });
    // The accesses of the body, and every access of the kernel (main and procedures) whose
    // index is over ids, sizes and kernel params only: what the logs hold at the loop head
    // may come from a procedure the body calls or from before the loop (inter-group logs
    // outlive barriers), and such an index means the same in the loop's scope.
    walk(body, &mut |s| access(s, &mut accesses));
    // An index held in a local the body declares (a C lowering's temporary, `local t :=
    // i * n + j;`) stands for its definition when the local is declared once and never
    // assigned: the candidates are then about what the index is at the loop head. An index
    // still over the body's own locals says nothing there, so it gives none.
    let mut declared: HashMap<String, (usize, Option<ast::Expr>)> = HashMap::new();
    walk(body, &mut |s| {
        if let StmtKind::Local(x, e) = &s.kind {
            let d = declared.entry(x.name.clone()).or_insert((0, None));
            d.0 += 1;
            d.1 = e.clone().filter(|e| !matches!(e.kind, ExprKind::Index(..)));
        }
    });
    let defs: HashMap<String, ast::Expr> = declared
        .into_iter()
        .filter(|(x, (n, _))| *n == 1 && !assigned.contains_key(x))
        .filter_map(|(x, (_, e))| Some((x, e?)))
        .collect();
    let substituted: Vec<(String, bool, ast::Expr)> = accesses.into_iter().map(|(a, w, i)| (a, w, substitute(&i, &defs, 8))).collect();
    // Counters of this loop and of nested ones, stepped by a loop-invariant amount.
    let steady: BTreeSet<String> = locals.iter().map(|(n, _)| n.clone()).filter(|n| assigned.contains_key(n)).chain(inner.iter().cloned()).collect();
    let strides: HashMap<String, ast::Expr> = assigned
        .iter()
        .filter_map(|(x, rhs)| {
            let steps: Vec<ast::Expr> = rhs.iter().filter_map(|e| stride_of(x, e, &steady)).collect();
            let same = |a: &ast::Expr, b: &ast::Expr| kpl_lang::printer::print_expr(a) == kpl_lang::printer::print_expr(b);
            let first = steps.first()?.clone();
            (steps.len() == rhs.len() && steps.iter().all(|s| same(s, &first))).then(|| (x.clone(), first))
        })
        .collect();
    let strided = substituted
        .iter()
        .filter_map(|(a, w, i)| {
            let (x, base) = split_counter(i, &steady)?;
            Some((a.clone(), *w, base, strides.get(&x)?.clone()))
        })
        .collect();
    let (mut accesses, nested): (Vec<(String, bool, ast::Expr)>, Vec<_>) = substituted.into_iter().partition(|(_, _, i)| !mentions(i, &inner));
    let params = b.param_names();
    let mut everywhere = Vec::new();
    walk(&b.kernel.main, &mut |s| access(s, &mut everywhere));
    for pr in &b.kernel.procs {
        walk(&pr.body, &mut |s| access(s, &mut everywhere));
    }
    accesses.extend(everywhere.into_iter().filter(|(_, _, i)| !mentions_other_than(i, &params)));
    let modified: Vec<(String, [VarId; 2])> = locals.iter().filter(|(n, _)| assigned.contains_key(n)).cloned().collect();
    let names: BTreeSet<String> = modified.iter().map(|(n, _)| n.clone()).collect();
    // Loop-invariant: mentions neither what the loop changes nor what it declares.
    let variant: BTreeSet<String> = names.union(&inner).cloned().collect();
    let invariant = |e: &ast::Expr| !mentions(e, &variant);
    let mut updates = Vec::new();
    for (name, _) in &modified {
        let rhs = &assigned[name];
        let shapes: Vec<Option<(Shape, ast::Expr, bool)>> = rhs.iter().map(|e| shape_of(name, e, &invariant)).collect();
        if let Some(Some((shape, step, doubling))) = shapes.first().cloned() {
            if shapes.iter().all(|s| s.as_ref().map(|x| x.0) == Some(shape)) {
                let doubling = doubling && shapes.iter().all(|s| s.as_ref().is_some_and(|x| x.2));
                updates.push(Update { name: name.clone(), shape, step, doubling });
            }
        }
    }
    let mut snapshots = HashMap::new();
    for u in &updates {
        let v = locals.iter().find(|(n, _)| *n == u.name).map(|x| x.1);
        if let Some(v) = v {
            let s = b.pair(&format!("{}_entry", u.name), Sort::Word);
            b.assign(s[0], Expr::Var(v[0]));
            b.assign(s[1], Expr::Var(v[1]));
            snapshots.insert(u.name.clone(), s);
        }
    }
    // `l OP r`, or a signed comparison `slt(l, r)`, ...: the loop's condition, or that of
    // the `break` a `while true` body starts with.
    let exit = matches!(cond.kind, ExprKind::Bool(true)).then(|| break_guard(body)).flatten();
    let cond = exit.as_ref().unwrap_or(cond);
    let compared = match &cond.kind {
        ExprKind::Binary(op, l, r) => Some((*op, &**l, &**r, false)),
        ExprKind::Call(f, args) if args.len() == 2 => {
            let op = match f.name.as_str() {
                "slt" => Some(BinOp::Lt),
                "sle" => Some(BinOp::Le),
                "sgt" => Some(BinOp::Gt),
                "sge" => Some(BinOp::Ge),
                _ => None,
            };
            op.map(|op| (op, &args[0], &args[1], true))
        }
        _ => None,
    };
    let guard = compared.and_then(|(op, l, r, signed)| match (&l.kind, &r.kind) {
        (ExprKind::Var(x), _) if names.contains(&x.name) && invariant(r) => Some((x.name.clone(), op, r.clone(), signed)),
        (_, ExprKind::Var(x)) if names.contains(&x.name) && invariant(l) => Some((x.name.clone(), op.flipped(), l.clone(), signed)),
        _ => None,
    });
    let mut written = Vec::new();
    walk(body, &mut |s| {
        if let StmtKind::Store(a, _, e) = &s.kind {
            if invariant(e) {
                written.push((a.name.clone(), e.clone()));
            }
        }
    });
    let barrier = crate::kernel_walk::contains_barrier(b.kernel, body);
    let synchronises = barrier || b.cfg.warp_sync.is_some() || crate::kernel_walk::has_warp_collectives(b.kernel);
    // The arrays the body may access (all of them if it calls a procedure).
    let mut touched: BTreeSet<String> = BTreeSet::new();
    let mut calls = false;
    let mut body_accesses = Vec::new();
    walk(body, &mut |s| match &s.kind {
        StmtKind::Atomic(a) => {
            touched.insert(a.array.name.clone());
        }
        StmtKind::Call(..) => calls = true,
        _ => access(s, &mut body_accesses),
    });
    touched.extend(body_accesses.into_iter().map(|r| r.0));
    let mut log_snapshots = Vec::new();
    for (k, inst) in b.inst.clone().into_iter().enumerate() {
        let accessed = calls || b.prog.arrays.get(k).is_some_and(|a| touched.contains(&a.name));
        let named = conditional && accessed;
        if !barrier && !named {
            continue;
        }
        let logs = [(inst.wr_exists, inst.wr_elem, inst.wr_stmt, "WR"), (inst.rd_exists, inst.rd_elem, inst.rd_stmt, "RD")];
        for (exists, elem, stmt, kind) in logs.into_iter().chain(inst.atomic.map(|a| (a.0, a.1, a.2, "AT"))) {
            let copy = b.var(&format!("{kind}_exists_entry"), Sort::Bool);
            b.assign(copy, Expr::Var(exists));
            let named = named.then(|| {
                let (e, st) = (b.var(&format!("{kind}_elem_entry"), Sort::Word), b.var(&format!("{kind}_stmt_entry"), Sort::Word));
                b.assign(e, Expr::Var(elem));
                b.assign(st, Expr::Var(stmt));
                (e, st)
            });
            log_snapshots.push(LogCopy { exists: (exists, copy), elem, stmt, named });
        }
    }
    let ranges = nested_ranges(b, &guard, (&modified, &updates, &snapshots), &nested, &inner);
    Plan { modified, updates, snapshots, guard, accesses, ranges, written, strided, synchronises, log_snapshots }
}

/// The step of `x := x + c` (c free of `variant`).
fn stride_of(x: &str, e: &ast::Expr, variant: &BTreeSet<String>) -> Option<ast::Expr> {
    let ExprKind::Binary(BinOp::Add, a, c) = &e.kind else { return None };
    let is_x = |e: &ast::Expr| matches!(&e.kind, ExprKind::Var(v) if v.name == x);
    match () {
        _ if is_x(a) && !mentions(c, variant) => Some((**c).clone()),
        _ if is_x(c) && !mentions(a, variant) => Some((**a).clone()),
        _ => None,
    }
}

/// The terms of a sum (`a + b + c`: `a`, `b`, `c`; anything else: itself).
fn summands(e: &ast::Expr) -> Vec<&ast::Expr> {
    match &e.kind {
        ExprKind::Binary(BinOp::Add, a, b) => {
            let mut out = summands(a);
            out.extend(summands(b));
            out
        }
        _ => vec![e],
    }
}

/// `x + base` (a sum whose one term over `variant` is the variable `x`): `x` and `base`.
fn split_counter(idx: &ast::Expr, variant: &BTreeSet<String>) -> Option<(String, ast::Expr)> {
    let terms = summands(idx);
    let (over, rest): (Vec<&ast::Expr>, Vec<&ast::Expr>) = terms.into_iter().partition(|t| mentions(t, variant));
    let [counter] = over.as_slice() else { return None };
    let ExprKind::Var(x) = &counter.kind else { return None };
    let base = rest
        .into_iter()
        .cloned()
        .reduce(|a, b| ast::Expr::new(ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(b)), idx.span))
        .unwrap_or_else(|| ast::Expr::num(0, idx.span));
    Some((x.name.clone(), base))
}

/// The shape of `x := e` as an update of x, with its step.
fn shape_of(x: &str, e: &ast::Expr, invariant: &dyn Fn(&ast::Expr) -> bool) -> Option<(Shape, ast::Expr, bool)> {
    let is_x = |e: &ast::Expr| matches!(&e.kind, ExprKind::Var(v) if v.name == x);
    let two = |e: &ast::Expr, n: u64| matches!(e.kind, ExprKind::Num(k) if k == n);
    // The C lowering's signed forms: `ashr(x, c)`, `sdiv(x, c)` (C's `>>=` and `/=` on an `int`).
    if let ExprKind::Call(f, args) = &e.kind {
        return match (f.name.as_str(), args.as_slice()) {
            ("ashr", [a, c]) if is_x(a) && invariant(c) => Some((Shape::Shrink, c.clone(), two(c, 1))),
            ("sdiv", [a, c]) if is_x(a) && invariant(c) => Some((Shape::Shrink, c.clone(), two(c, 2))),
            _ => None,
        };
    }
    let ExprKind::Binary(op, a, c) = &e.kind else { return None };
    match op {
        BinOp::Add if is_x(a) && invariant(c) => Some((Shape::Stride { sub: false }, (**c).clone(), false)),
        BinOp::Add if is_x(c) && invariant(a) => Some((Shape::Stride { sub: false }, (**a).clone(), false)),
        BinOp::Sub if is_x(a) && invariant(c) => Some((Shape::Stride { sub: true }, (**c).clone(), false)),
        BinOp::Sub if is_x(c) && invariant(a) => Some((Shape::Reflect, (**a).clone(), false)),
        BinOp::Mul if is_x(a) && invariant(c) => Some((Shape::Grow, (**c).clone(), two(c, 2))),
        BinOp::Mul if is_x(c) && invariant(a) => Some((Shape::Grow, (**a).clone(), two(a, 2))),
        BinOp::Shl if is_x(a) && invariant(c) => Some((Shape::Grow, (**c).clone(), two(c, 1))),
        BinOp::Div if is_x(a) && invariant(c) => Some((Shape::Shrink, (**c).clone(), two(c, 2))),
        BinOp::Shr if is_x(a) && invariant(c) => Some((Shape::Shrink, (**c).clone(), two(c, 1))),
        _ => None,
    }
}

/// Record the array access a core-form statement makes (reads are hoisted, so each is a
/// whole right-hand side).
fn access(s: &ast::Stmt, accesses: &mut Vec<(String, bool, ast::Expr)>) {
    match &s.kind {
        StmtKind::Assign(_, e) | StmtKind::Local(_, Some(e)) => {
            if let ExprKind::Index(a, i) = &e.kind {
                accesses.push((a.name.clone(), false, (**i).clone()));
            }
        }
        StmtKind::Store(a, i, _) => accesses.push((a.name.clone(), true, i.clone())),
        _ => {}
    }
}

/// `e` with each variable that `defs` defines replaced by its definition, `depth` times
/// over at most (definitions may use earlier temporaries).
fn substitute(e: &ast::Expr, defs: &HashMap<String, ast::Expr>, depth: usize) -> ast::Expr {
    let sub = |x: &ast::Expr| Box::new(substitute(x, defs, depth));
    let kind = match &e.kind {
        ExprKind::Var(x) if depth > 0 => match defs.get(&x.name) {
            Some(d) => return substitute(d, defs, depth - 1),
            None => return e.clone(),
        },
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, sub(a)),
        ExprKind::Binary(op, a, c) => ExprKind::Binary(*op, sub(a), sub(c)),
        ExprKind::Cond(a, c, d) => ExprKind::Cond(sub(a), sub(c), sub(d)),
        ExprKind::Call(f, args) => ExprKind::Call(f.clone(), args.iter().map(|a| substitute(a, defs, depth)).collect()),
        _ => return e.clone(),
    };
    ast::Expr { kind, ..e.clone() }
}

/// An access at `base + x * m + r`, `x` the guarded counter and `r` over a nested loop's
/// locals (`row + i * 4 + k` with `k < 4`): the logged element is within `m` times the
/// guard's bound of the base (`r < m` is Houdini's to check), in this loop and in the
/// nested one; and, `x` stepped by `s` from its entry value, the logged element's `x`
/// (`(element - base) / m`) is that value modulo `s` (the thread's own columns).
fn nested_ranges(
    b: &mut Builder,
    guard: &Option<(String, BinOp, ast::Expr, bool)>,
    (modified, updates, snapshots): (&[(String, [VarId; 2])], &[Update], &HashMap<String, [VarId; 2]>),
    nested: &[(String, bool, ast::Expr)],
    inner: &BTreeSet<String>,
) -> Vec<(Expr, &'static str)> {
    let Some((gx, op @ (BinOp::Lt | BinOp::Le), bound, _)) = guard else { return Vec::new() };
    let outer: BTreeSet<String> = modified.iter().map(|(n, _)| n.clone()).collect();
    let mut ranges = Vec::new();
    for (array, write, idx) in nested {
        let Some(k) = b.prog.arrays.iter().position(|a| a.name == *array) else { continue };
        // The counter's one term, the terms over neither the loop's variables nor the
        // nested loop's (the base), and the rest, over the nested loop's only.
        let (mut counters, mut base) = (Vec::new(), Vec::new());
        for t in summands(idx) {
            if mentions(t, &outer) {
                counters.push(variant_term(t, &outer).filter(|(x, _)| x == gx).map(|(_, m)| m.cloned().unwrap_or_else(|| ast::Expr::num(1, t.span))));
            } else if !mentions(t, inner) {
                base.push(t.clone());
            }
        }
        let [Some(m)] = counters.as_slice() else { continue };
        let inst = b.inst[k];
        let (exists, elem) = if *write { (inst.wr_exists, inst.wr_elem) } else { (inst.rd_exists, inst.rd_elem) };
        let base = base.iter().map(|t| b.expr(t, 0)).reduce(|a, c| Expr::bin(WordOp::Add, a, c)).unwrap_or(Expr::Word(0));
        let (m1, b1) = (b.expr(m, 0), b.expr(bound, 0));
        let rows = if *op == BinOp::Lt { b1 } else { Expr::bin(WordOp::Add, b1, Expr::Word(1)) };
        let off = Expr::bin(WordOp::Sub, Expr::Var(elem), base);
        let within = Expr::ult(off.clone(), Expr::bin(WordOp::Mul, m1.clone(), rows));
        ranges.push((Expr::implies(Expr::Var(exists), within), "access in a contiguous range (over a nested loop)"));
        let stepped = updates.iter().find(|u| u.name == *gx && matches!(u.shape, Shape::Stride { sub: false }) && !is_one(&u.step));
        if let (Some(u), Some(snap)) = (stepped, snapshots.get(gx)) {
            let step = b.expr(&u.step, 0);
            let own = Expr::eq(Expr::bin(WordOp::Urem, Expr::bin(WordOp::Udiv, off, m1), step.clone()), Expr::bin(WordOp::Urem, Expr::Var(snap[0]), step));
            ranges.push((Expr::implies(Expr::Var(exists), own), "access at strided offset (over a nested loop)"));
        }
    }
    ranges
}

/// `c` where a body starts with locals and their assignments, then `if !c { break; }`: a C
/// `for` whose condition calls a function (`i < ceil_div(V, 4)`) lowers so. `c` with those
/// locals replaced by their values, which is what it is at the loop's head.
fn break_guard(body: &ast::Block) -> Option<ast::Expr> {
    let mut values: HashMap<String, ast::Expr> = HashMap::new();
    for s in &body.stmts {
        match &s.kind {
            StmtKind::Local(x, e) => {
                let v = e.as_ref().map(|e| substitute(e, &values, 8))?;
                values.insert(x.name.clone(), v);
            }
            StmtKind::Assign(x, e) if values.contains_key(&x.name) => {
                let v = substitute(e, &values, 8);
                values.insert(x.name.clone(), v);
            }
            StmtKind::If(c, then, None) if matches!(then.stmts.as_slice(), [b] if matches!(b.kind, StmtKind::Break)) => {
                let ExprKind::Unary(ast::UnOp::Not, c) = &c.kind else { return None };
                let c = substitute(c, &values, 8);
                // (A read of memory is read again where the candidate is: not the same.)
                let mut reads = false;
                c.walk(&mut |e| reads |= matches!(e.kind, ExprKind::Index(..)));
                return (!reads && !mentions(&c, &values.keys().cloned().collect())).then_some(c);
            }
            _ => return None,
        }
    }
    None
}

/// Does `e` read a variable that is not one of `allowed`?
fn mentions_other_than(e: &ast::Expr, allowed: &BTreeSet<String>) -> bool {
    let mut hit = false;
    e.walk(&mut |s| {
        if let ExprKind::Var(x) = &s.kind {
            hit |= !allowed.contains(&x.name);
        }
        hit |= matches!(s.kind, ExprKind::Index(..));
    });
    hit
}

fn mentions(e: &ast::Expr, names: &BTreeSet<String>) -> bool {
    let mut hit = false;
    e.walk(&mut |s| {
        if let ExprKind::Var(x) = &s.kind {
            hit |= names.contains(&x.name);
        }
        hit |= matches!(s.kind, ExprKind::Index(..));
    });
    hit
}

/// Is a step the literal 1 (every number is a multiple of it)?
fn is_one(e: &ast::Expr) -> bool {
    matches!(e.kind, ExprKind::Num(1))
}

/// Variables a statement list assigns or havocs.
pub fn modified_vars(stmts: &[Stmt], out: &mut BTreeSet<VarId>) {
    for s in stmts {
        match s {
            Stmt::Assign(v, _) | Stmt::Havoc(v) => {
                out.insert(*v);
            }
            Stmt::Loop(l) => modified_vars(&l.body, out),
            _ => {}
        }
    }
}

/// Split `idx` as `base + x` or `base + x * m` (x a modified local): the term and its kind.
fn variant_term<'a>(idx: &'a ast::Expr, names: &BTreeSet<String>) -> Option<(String, Option<&'a ast::Expr>)> {
    let terms = summands(idx);
    let variant: Vec<&&ast::Expr> = terms.iter().filter(|t| mentions(t, names)).collect();
    if variant.len() != 1 {
        return None;
    }
    match &variant[0].kind {
        ExprKind::Var(x) => Some((x.name.clone(), None)),
        ExprKind::Binary(BinOp::Mul, a, m) => match (&a.kind, &m.kind) {
            (ExprKind::Var(x), _) if !mentions(m, names) => Some((x.name.clone(), Some(&**m))),
            (_, ExprKind::Var(x)) if !mentions(a, names) => Some((x.name.clone(), Some(&**a))),
            _ => None,
        },
        _ => None,
    }
}

/// `lc` is the loop's pair of "still in the loop" flags and `entry` the predicate the loop
/// was entered under.
pub(crate) fn generate(
    b: &mut Builder,
    loop_id: usize,
    plan: &Plan,
    (lc, entry, guard): ([VarId; 2], &[Expr; 2], &[Expr; 2]),
    ret: Option<[VarId; 2]>,
    body: &[Stmt],
) {
    let mut changed = BTreeSet::new();
    modified_vars(body, &mut changed);
    let mut cands: Vec<(Expr, &'static str)> = Vec::new();
    let multi_group = b.num_groups() > 1;
    let sg = b.same_group.clone();
    let mates = b.warp_mates.clone();
    // Equal in the two threads (of a group); what the uniformity analysis finds so is
    // kept with `--no-infer` too.
    let mut derived: Vec<Expr> = Vec::new();
    let uniform = |pair: [VarId; 2], level: Level, cands: &mut Vec<(Expr, &'static str)>, derived: &mut Vec<Expr>| {
        let eq = Expr::eq(Expr::Var(pair[0]), Expr::Var(pair[1]));
        if level == Level::Uniform || (level == Level::InGroup && !multi_group) {
            derived.push(eq.clone());
        }
        cands.push((eq.clone(), "uniform"));
        let in_group = Expr::implies(sg.clone(), eq);
        if level <= Level::InGroup {
            derived.push(in_group.clone());
        }
        if multi_group {
            cands.push((in_group, "uniform in a group"));
        }
        // Kernels with warp collectives: equal in two threads of one warp (a loop around a
        // shuffle under a branch on the warp's number).
        if let Some(m) = &mates {
            cands.push((Expr::implies(m.clone(), Expr::eq(Expr::Var(pair[0]), Expr::Var(pair[1]))), "uniform in a warp"));
            // ... that both entered the loop (a warp-mate may have left the kernel before).
            if entry[0] != Expr::Bool(true) {
                let both = Expr::and(vec![m.clone(), entry[0].clone(), entry[1].clone()]);
                cands.push((Expr::implies(both, Expr::eq(Expr::Var(pair[0]), Expr::Var(pair[1]))), "uniform in a warp, once entered"));
            }
        }
    };
    let loop_level = b.uniformity.loop_level(b.prog.loops[loop_id].span);
    uniform(lc, loop_level, &mut cands, &mut derived);
    // A thread is in the loop only if it entered it: keeps dead branches dead in loops.
    for t in 0..2 {
        if entry[t] != Expr::Bool(true) {
            cands.push((Expr::implies(Expr::Var(lc[t]), entry[t].clone()), "in the loop only if it entered"));
        }
    }
    // A thread that entered the loop and left it fails the guard (unless it broke out or
    // returned, which Houdini finds).
    for t in 0..2 {
        let left = Expr::and2(entry[t].clone(), Expr::not(Expr::Var(lc[t])));
        cands.push((Expr::implies(left, Expr::not(guard[t].clone())), "a thread that left the loop fails its guard"));
    }
    if let Some(r) = ret {
        // A thread still in the loop has not returned.
        for t in 0..2 {
            cands.push((Expr::implies(Expr::Var(lc[t]), Expr::not(Expr::Var(r[t]))), "a live thread has not returned"));
        }
    }
    for (name, pair) in &plan.modified {
        let level = b.uniformity.var(name);
        // GPUVerify's rule: equality candidates for a variable the uniformity analysis
        // finds varying only in loops with barriers (to keep them from diverging). In
        // other loops such a variable is seldom the same in two threads, and each false
        // candidate costs Houdini a round.
        if level == Level::Varying && !plan.synchronises {
            continue;
        }
        uniform(*pair, level, &mut cands, &mut derived);
    }
    // Two threads of a group see the same contents of an array the loop changes (true
    // when the loop's writes are followed by a barrier before the loop head).
    for c in b.copies.clone().into_iter().flatten() {
        if changed.contains(&c[0]) || changed.contains(&c[1]) {
            let eq = Expr::eq(Expr::Var(c[0]), Expr::Var(c[1]));
            cands.push((Expr::implies(sg.clone(), eq), "equal contents in a group"));
        }
    }
    // What a log names is one of the accesses made so far (keeps witnesses exact).
    for (k, inst) in b.inst.clone().into_iter().enumerate() {
        let mut logs = vec![(AccessKind::Write, inst.wr_exists, inst.wr_stmt), (AccessKind::Read, inst.rd_exists, inst.rd_stmt)];
        logs.extend(inst.atomic.map(|(e, _, st)| (AccessKind::Atomic, e, st)));
        for (kind, exists, stmt) in logs {
            let ids: Vec<Expr> = (0..b.prog.sites.len())
                .filter(|&i| b.prog.sites[i].array == k && b.prog.sites[i].kind == kind)
                .map(|i| Expr::eq(Expr::Var(stmt), Expr::Word(i as u32)))
                .collect();
            if !ids.is_empty() {
                cands.push((Expr::implies(Expr::Var(exists), Expr::or(ids)), "a logged access is one of the kernel's"));
            }
        }
    }
    // A log the loop only clears (its barriers do; no access in it logs one): what the log
    // held at the loop head it held at entry, where what the enclosing code knows of it
    // (an outer loop's access candidates) still holds, as the element, statement and
    // value it names are not changed by the loop.
    for log in &plan.log_snapshots {
        let (flag, copy) = log.exists;
        let logs_here = changed.contains(&log.elem) || changed.contains(&log.stmt);
        if changed.contains(&flag) && !logs_here {
            cands.push((Expr::implies(Expr::Var(flag), Expr::Var(copy)), "a log the loop only clears"));
        }
        // Thread 1 logs only what it accesses: if it did not enter the loop, its logs are
        // what they were at entry, and so is what is known of them there (loop cutting
        // forgets it, and the loop's invariants hold only in the threads that entered).
        if let (Some((elem0, stmt0)), true) = (log.named, logs_here || changed.contains(&flag)) {
            let same = Expr::and(vec![
                Expr::eq(Expr::Var(flag), Expr::Var(copy)),
                Expr::eq(Expr::Var(log.elem), Expr::Var(elem0)),
                Expr::eq(Expr::Var(log.stmt), Expr::Var(stmt0)),
            ]);
            cands.push((Expr::implies(Expr::not(entry[0].clone()), same), "a thread that did not enter logs nothing"));
        }
    }
    let barriers = crate::kernel_walk::contains_barrier(b.kernel, &b.kernel.main);
    let warp_syncs = crate::kernel_walk::has_warp_sync(b.kernel);
    for inst in b.inst.clone() {
        let mut none_since = vec![(inst.wr_exists, "no write since the barrier"), (inst.rd_exists, "no read since the barrier")];
        none_since.extend(inst.atomic.map(|a| (a.0, "no atomic since the barrier")));
        for (v, rule) in none_since {
            let none = Expr::not(Expr::Var(v));
            if multi_group {
                // Barriers clear what a thread logged only for a partner in its own group.
                cands.push((Expr::implies(sg.clone(), none.clone()), rule));
            }
            cands.push((none.clone(), rule));
            // A warp barrier (`warp sync`) clears the log for a pair of lanes it orders.
            if let (Some(mates), true) = (b.warp_mates.clone(), warp_syncs) {
                cands.push((Expr::implies(mates.clone(), none.clone()), rule));
                let both = Expr::and(vec![mates, entry[0].clone(), entry[1].clone()]);
                cands.push((Expr::implies(both, none.clone()), rule));
            }
            // GPUVerify's "access means enabled": a thread that does not run the loop
            // makes no access in it, so thread 1 has logged one only if it entered (or
            // had before the loop). Only in kernels with barriers: they cost Houdini rounds,
            // and without a barrier an access is never forgotten.
            if entry[0] != Expr::Bool(true) && barriers {
                cands.push((Expr::implies(Expr::Var(v), entry[0].clone()), "an access since the barrier means thread 1 entered"));
                // And the converse for a loop entered after a barrier: thread 1, if it
                // runs the loop, has made no such access since.
                cands.push((Expr::implies(entry[0].clone(), Expr::not(Expr::Var(v))), rule));
            }
        }
    }
    let var_of = |name: &str| plan.modified.iter().find(|(n, _)| n == name).map(|x| x.1);
    for u in &plan.updates {
        let (Some(v), Some(snap)) = (var_of(&u.name), plan.snapshots.get(&u.name)) else { continue };
        for t in 0..2 {
            let x = Expr::Var(v[t]);
            let x0 = Expr::Var(snap[t]);
            if u.doubling {
                let pow2 = Expr::eq(Expr::bin(WordOp::And, x.clone(), Expr::bin(WordOp::Sub, x.clone(), Expr::Word(1))), Expr::Word(0));
                cands.push((pow2, "power of two"));
                cands.push((Expr::not(Expr::eq(x.clone(), Expr::Word(0))), "power of two, not zero"));
            }
            match u.shape {
                Shape::Reflect => {
                    let other = Expr::bin(WordOp::Sub, b.expr(&u.step, t), x0.clone());
                    let two = Expr::or2(Expr::eq(x.clone(), x0.clone()), Expr::eq(x.clone(), other));
                    cands.push((two, "alternates between two values"));
                }
                Shape::Shrink | Shape::Stride { sub: true } => {
                    cands.push((Expr::cmp(CmpOp::Ule, x.clone(), x0.clone()), "monotone: at most its entry value"))
                }
                Shape::Grow | Shape::Stride { sub: false } => {
                    cands.push((Expr::cmp(CmpOp::Ule, x0.clone(), x.clone()), "monotone: at least its entry value"))
                }
            }
            // A C `int` counter: monotone as a signed number too (the signed loop guard
            // keeps it from wrapping).
            match u.shape {
                Shape::Stride { sub: false } => cands.push((Expr::cmp(CmpOp::Sle, x0.clone(), x.clone()), "monotone (signed): at least its entry value")),
                Shape::Stride { sub: true } => cands.push((Expr::cmp(CmpOp::Sle, x.clone(), x0.clone()), "monotone (signed): at most its entry value")),
                _ => {}
            }
            // (A step of 1 makes every multiple-of-the-step candidate true: none.)
            if let (Shape::Stride { .. }, false) = (u.shape, is_one(&u.step)) {
                let step = b.expr(&u.step, t);
                let diff = Expr::bin(WordOp::Sub, x.clone(), x0.clone());
                // A multiple of a step that differs between threads: GPUVerify's form, the low
                // bits under a power of two (`e & (step - 1) == 0`), which the solver takes
                // as bits; a remainder by such a step is a divider circuit per thread in
                // every query, and seldom the invariant a proof needs.
                let varying = b.uniformity.expr(&u.step) == Level::Varying;
                let multiple = |e: Expr| match varying {
                    false => Expr::eq(Expr::bin(WordOp::Urem, e, step.clone()), Expr::Word(0)),
                    true => Expr::eq(Expr::bin(WordOp::And, e, Expr::bin(WordOp::Sub, step.clone(), Expr::Word(1))), Expr::Word(0)),
                };
                cands.push((multiple(diff), "strength reduction"));
                cands.push((multiple(x.clone()), "a multiple of its step"));
            }
        }
    }
    if let Some((x, op, e, signed)) = &plan.guard {
        if let Some(v) = var_of(x) {
            let le = if *signed { CmpOp::Sle } else { CmpOp::Ule };
            for t in 0..2 {
                let (xv, ev) = (Expr::Var(v[t]), b.expr(e, t));
                match op {
                    BinOp::Lt => cands.push((Expr::cmp(le, xv, ev), "bound from the loop guard")),
                    BinOp::Ne if !signed => cands.push((Expr::cmp(CmpOp::Ule, xv, ev), "bound from the loop guard")),
                    BinOp::Gt => cands.push((Expr::cmp(le, ev, xv), "bound from the loop guard")),
                    BinOp::Le => cands.push((Expr::cmp(le, xv, Expr::bin(WordOp::Add, ev, Expr::Word(1))), "bound from the loop guard")),
                    BinOp::Ge => cands.push((Expr::cmp(le, Expr::bin(WordOp::Sub, ev, Expr::Word(1)), xv), "bound from the loop guard")),
                    _ => {}
                }
            }
            // A counter stepped by more than 1 passes the guard's bound by less than its
            // step (`for (i = lane; i <= own; i += 32)` ends with `i <= own + 32`).
            let lt = if *signed { CmpOp::Slt } else { CmpOp::Ult };
            if let Some(u) = plan.updates.iter().find(|u| u.name == *x && !is_one(&u.step)) {
                for t in 0..2 {
                    let (xv, ev, step) = (Expr::Var(v[t]), b.expr(e, t), b.expr(&u.step, t));
                    let (past, short) = (Expr::bin(WordOp::Add, ev.clone(), step.clone()), Expr::bin(WordOp::Sub, ev, step));
                    let c = match (op, u.shape) {
                        (BinOp::Lt, Shape::Stride { sub: false }) => Expr::cmp(lt, xv, past),
                        (BinOp::Le, Shape::Stride { sub: false }) => Expr::cmp(le, xv, past),
                        (BinOp::Gt, Shape::Stride { sub: true }) => Expr::cmp(lt, short, xv),
                        (BinOp::Ge, Shape::Stride { sub: true }) => Expr::cmp(le, short, xv),
                        _ => continue,
                    };
                    cands.push((c, "bound from the loop guard and the counter's step"));
                }
            }
        }
    }
    // GPUVerify's relational power-of-two candidates: one counter doubling and one halving
    // keep their product (until the halving one reaches 0, when the doubling one is twice
    // it): `offset *= 2` beside `d >>= 1`.
    let grow: Vec<&Update> = plan.updates.iter().filter(|u| u.doubling && u.shape == Shape::Grow).collect();
    let shrink: Vec<&Update> = plan.updates.iter().filter(|u| u.doubling && u.shape == Shape::Shrink).collect();
    if let ([inc], [dec]) = (grow.as_slice(), shrink.as_slice()) {
        let vars = (var_of(&inc.name), var_of(&dec.name), plan.snapshots.get(&inc.name), plan.snapshots.get(&dec.name));
        if let (Some(i), Some(d), Some(i0), Some(d0)) = vars {
            for t in 0..2 {
                let product = |a: VarId, b: VarId| Expr::bin(WordOp::Mul, Expr::Var(a), Expr::Var(b));
                let kept = Expr::eq(product(i[t], d[t]), product(i0[t], d0[t]));
                let last = Expr::and2(
                    Expr::eq(Expr::Var(d[t]), Expr::Word(0)),
                    Expr::eq(Expr::Var(i[t]), Expr::bin(WordOp::Mul, Expr::Word(2), product(i0[t], d0[t]))),
                );
                cands.push((kept.clone(), "relational power of two: the product stays"));
                cands.push((Expr::or2(kept, last), "relational power of two: the product stays, until the halving one is 0"));
            }
        }
    }
    // Access patterns: what the tracked access of thread 1 can be.
    let names: BTreeSet<String> = plan.modified.iter().map(|(n, _)| n.clone()).collect();
    for (array, write, idx) in &plan.accesses {
        let Some(k) = b.prog.arrays.iter().position(|a| a.name == *array) else { continue };
        let inst = b.inst[k];
        let (exists, elem) = if *write { (inst.wr_exists, inst.wr_elem) } else { (inst.rd_exists, inst.rd_elem) };
        let (ex, el) = (Expr::Var(exists), Expr::Var(elem));
        let idx1 = b.expr(idx, 0);
        if !mentions(idx, &names) {
            cands.push((Expr::implies(ex.clone(), Expr::eq(el.clone(), idx1)), "access at thread id plus offset"));
            continue;
        }
        let Some((x, mul)) = variant_term(idx, &names) else { continue };
        let Some(v) = var_of(&x) else { continue };
        let x1 = Expr::Var(v[0]);
        match mul {
            Some(m) => {
                let m1 = b.expr(m, 0);
                let base = Expr::bin(WordOp::Sub, idx1, Expr::bin(WordOp::Mul, x1, m1.clone()));
                let off = Expr::bin(WordOp::Sub, el.clone(), base);
                cands.push((Expr::implies(ex.clone(), Expr::eq(Expr::bin(WordOp::Urem, off, m1), Expr::Word(0))), "access at strided offset"));
            }
            None => {
                let base = Expr::bin(WordOp::Sub, idx1, x1);
                let off = Expr::bin(WordOp::Sub, el.clone(), base);
                let u = plan.updates.iter().find(|u| u.name == x);
                if let (Some(u), Some(snap)) = (u, plan.snapshots.get(&x)) {
                    if let (Shape::Stride { .. }, false) = (u.shape, is_one(&u.step)) {
                        let step = b.expr(&u.step, 0);
                        let want = Expr::bin(WordOp::Urem, Expr::Var(snap[0]), step.clone());
                        let got = Expr::bin(WordOp::Urem, off.clone(), step);
                        cands.push((Expr::implies(ex.clone(), Expr::eq(got, want)), "access at strided offset (strength reduced)"));
                    }
                }
                if let Some((gx, op @ (BinOp::Lt | BinOp::Le), bound, _)) = &plan.guard {
                    if *gx == x {
                        let b1 = b.expr(bound, 0);
                        let within = if *op == BinOp::Lt { Expr::ult(off, b1) } else { Expr::cmp(CmpOp::Ule, off, b1) };
                        cands.push((Expr::implies(ex.clone(), within), "access in a contiguous range"));
                    }
                }
            }
        }
    }
    // The ranges of this loop's accesses in nested loops, and those of the loops around it
    // (a nested loop keeps the logs within them too).
    for (expr, rule) in plan.ranges.iter().cloned() {
        cands.push((expr, rule));
    }
    for (expr, _) in b.enclosing_ranges.iter().flatten().cloned().collect::<Vec<_>>() {
        cands.push((expr, "where an enclosing loop's accesses lie"));
    }
    // Benign tolerance: the value of thread 1's logged write is the one the loop writes
    // (two threads writing it to one element do not race).
    if b.cfg.benign {
        for (array, v) in &plan.written {
            let Some(k) = b.prog.arrays.iter().position(|a| a.name == *array) else { continue };
            let inst = b.inst[k];
            let same = Expr::eq(Expr::Var(inst.wr_val), b.expr(v, 0));
            cands.push((Expr::implies(Expr::Var(inst.wr_exists), same), "benign: the value written"));
        }
    }
    // An access at a counter plus a base, the counter stepped by `s` (here or in a nested
    // loop) from a multiple of `s`: the logged element is the base plus a multiple of `s`.
    for (array, write, base, step) in plan.strided.iter().filter(|x| !is_one(&x.3)) {
        let Some(k) = b.prog.arrays.iter().position(|a| a.name == *array) else { continue };
        let inst = b.inst[k];
        let (exists, elem) = if *write { (inst.wr_exists, inst.wr_elem) } else { (inst.rd_exists, inst.rd_elem) };
        let off = Expr::bin(WordOp::Sub, Expr::Var(elem), b.expr(base, 0));
        let multiple = Expr::eq(Expr::bin(WordOp::Urem, off, b.expr(step, 0)), Expr::Word(0));
        cands.push((Expr::implies(Expr::Var(exists), multiple), "access at a base plus a multiple of a counter's step"));
    }
    // Barrier invariants' access checks: each thread has accessed, since the barrier, the
    // elements the loop's accesses (at loop-head values) name, so its not-accessed index is
    // none of them (a barrier in the loop chooses that index afresh).
    for (array, _, idx) in &plan.accesses {
        let Some(k) = b.prog.arrays.iter().position(|a| a.name == *array) else { continue };
        let Some(na) = b.not_accessed.get(k).copied().flatten() else { continue };
        if mentions(idx, &names) {
            continue;
        }
        for t in 0..2 {
            let fresh = Expr::not(Expr::eq(Expr::Var(na[t]), b.expr(idx, t)));
            cands.push((Expr::implies(entry[t].clone(), fresh), "accessed since the barrier"));
        }
    }
    // Keep candidates over variables the loop changes (others survive the loop anyway);
    // with `--asymmetric-asserts`, only those about thread 1 alone (GPUVerify's candidates
    // are then thread 1's too).
    let mut seen = BTreeSet::new();
    for (e, rule) in cands {
        let mut touches = false;
        let mut second = false;
        e.vars(&mut |v| {
            touches |= changed.contains(&v);
            second |= b.prog.vars[v.0 as usize].name.ends_with("$2");
        });
        if !touches || e == Expr::Bool(true) || (b.cfg.asymmetric_asserts && second) {
            continue;
        }
        if seen.insert(b.prog.show(&e)) {
            let derived = derived.contains(&e);
            b.prog.candidates.push(Candidate { loop_id, expr: e, rule, derived });
        }
    }
}
