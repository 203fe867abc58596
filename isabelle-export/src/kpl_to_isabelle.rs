//! `Kernel_<name>.thy`: a kernel (its core form) as a term of `KPL_Syntax`, its launch, and
//! the differential check: for the inputs of one `kpl run`, a lemma, proved by `kpl_run` (the
//! semantics compiled once in `KPL_Semantics`), that the executable semantics ends exactly as
//! kpl's interpreter did (the outcome, and for a clean run every final array element).

use crate::names::{ident_part, string_lit};
use kpl_lang::ast::*;
use kpl_lang::Launch;
use std::collections::BTreeSet;
use std::fmt::Write;

/// An array's contents: every element in order, or some elements by index.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Dense(Vec<u32>),
    Sparse(Vec<(u32, u32)>),
}

/// What a run left in an array (a shared one: in one group).
#[derive(Clone, Debug, PartialEq)]
pub struct Observed {
    pub array: String,
    pub group: Option<usize>,
    pub indices: Vec<u32>,
    pub values: Vec<u32>,
}

/// A run of kpl's interpreter: its inputs and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct RunData {
    /// The command that reproduces it, e.g. `kpl run --seed 1 reduce.kpl`.
    pub command: String,
    pub params: Vec<(String, u32)>,
    pub globals: Vec<(String, Init)>,
    /// Per shared array, its contents in each group (by linear group id).
    pub shared: Vec<(String, Vec<Init>)>,
    /// `ok`, `race`, `divergence`, `assertion`, `out_of_bounds`, `infeasible` or `timeout`.
    pub outcome: String,
    /// For `ok`: every array's final contents.
    pub observed: Vec<Observed>,
    /// The values each thread's `havoc`s gave, in order: (group ids, local ids, values), for
    /// the threads that performed one.
    pub havocs: Vec<([u32; 3], [u32; 3], Vec<u32>)>,
}

/// A construct of the kernel that the exported semantics does not model, with why: access
/// predicates, unknown accesses, ghost arrays, a grid barrier whose fence depends on the
/// thread, `group`-scope atomics, procedures in a kernel with a `global assert`.
pub fn unsupported(k: &Kernel) -> Option<(kpl_lang::Span, String)> {
    fn block(b: &Block) -> Option<(kpl_lang::Span, &'static str)> {
        b.stmts.iter().find_map(stmt)
    }
    fn stmt(s: &Stmt) -> Option<(kpl_lang::Span, &'static str)> {
        match &s.kind {
            StmtKind::Barrier(f) if f.grid && !f.invariants.is_empty() => Some((s.span, "the Isabelle export does not model barrier invariants yet")),
            StmtKind::Barrier(f) if f.grid && f.as_constant().is_none() => {
                Some((s.span, "the Isabelle export models grid barriers whose fence is the same in every thread; this one's depends on the thread"))
            }
            StmtKind::Touch { .. } => Some((s.span, "the Isabelle export does not model unknown accesses (`havoc reads`/`havoc writes`) yet")),
            StmtKind::Atomic(a) if a.scope == FenceScope::Group => {
                Some((s.span, "the Isabelle export does not model atomics of `group` scope (the scoped race between groups) yet"))
            }
            StmtKind::Snapshot { .. } => Some((s.span, "the Isabelle export does not model ghost arrays (`snapshot`) yet")),
            StmtKind::Barrier(f) if f.invariants.iter().any(|i| access(&i.expr)) => {
                Some((s.span, "the Isabelle export does not model access predicates (`written`, `read`, ...) yet"))
            }
            StmtKind::Assert(e, _) | StmtKind::Assume(e) if access(e) => {
                Some((s.span, "the Isabelle export does not model access predicates (`written`, `read`, ...) yet"))
            }
            StmtKind::While { invariants, .. } if invariants.iter().any(access) => {
                Some((s.span, "the Isabelle export does not model access predicates (`written`, `read`, ...) yet"))
            }
            StmtKind::If(_, t, e) => block(t).or_else(|| match e.as_deref() {
                Some(Else::Block(b)) => block(b),
                Some(Else::If(s)) => stmt(s),
                None => None,
            }),
            StmtKind::While { body, .. } => block(body),
            _ => None,
        }
    }
    if let Some(found) = k.procs.iter().find_map(|p| block(&p.body)).or_else(|| block(&k.main)) {
        return Some((found.0, found.1.into()));
    }
    // Where a `global assert` observes disabled threads, kpl's interpreter gives a call's
    // parameters to every thread, which the theories' `K-CALL` does not.
    if k.observes_disabled() && !k.procs.is_empty() {
        return Some((k.procs[0].span, "the Isabelle export does not model procedures in a kernel with a `global assert` yet".into()));
    }
    None
}

/// Does an expression use a built-in `which` holds of?
fn calls(e: &Expr, which: &dyn Fn(Builtin) -> bool) -> bool {
    match &e.kind {
        ExprKind::Call(f, args) => Builtin::from_name(&f.name).is_some_and(which) || args.iter().any(|a| calls(a, which)),
        ExprKind::Unary(_, a) => calls(a, which),
        ExprKind::Binary(_, a, b) => calls(a, which) || calls(b, which),
        ExprKind::Cond(a, b, c) => calls(a, which) || calls(b, which) || calls(c, which),
        ExprKind::Index(_, i) => calls(i, which),
        _ => false,
    }
}

/// Does an expression use an access predicate (`written(A)`, ...)?
fn access(e: &Expr) -> bool {
    calls(e, &|b| b.is_access())
}

/// Does an expression use `other` or `enabled`, or read an array (a loop invariant's peek)?
/// Then it is a `pexpr` of the theories.
fn assertion_only(e: &Expr) -> bool {
    calls(e, &|b| b.is_two_thread()) || e.has_reads()
}

pub fn theory_name(kernel: &str) -> String {
    format!("Kernel_{}", ident_part(kernel))
}

/// The constant naming the kernel (prefixed, so that no kernel name clashes with HOL's).
pub fn constant(kernel: &str) -> String {
    format!("kernel_{}", ident_part(kernel))
}

struct Printer {
    params: BTreeSet<String>,
    floats: bool,
    /// The kernel has a `global assert`: every thread, enabled or not, gets a declaration's
    /// value (`SEvery`), as kpl's interpreter gives it (`Kernel::observes_disabled`).
    every: bool,
}

fn axis(a: Axis) -> &'static str {
    ["AX", "AY", "AZ"][a.index()]
}

fn list(items: Vec<String>) -> String {
    format!("[{}]", items.join(", "))
}

/// A list of data (array contents, observed values): past [`CHUNK`] items, short lists
/// joined by `@`. Isabelle parses a list enumeration in time that grows faster than its
/// length (512 numbers took 9 s; in lists of 16, 2 s).
fn data_list(items: Vec<String>) -> String {
    if items.len() <= CHUNK {
        return list(items);
    }
    let parts: Vec<String> = items.chunks(CHUNK).map(|c| list(c.to_vec())).collect();
    format!("({})", parts.join(" @ "))
}

const CHUNK: usize = 16;

fn unop(op: UnOp) -> &'static str {
    match op {
        UnOp::Not => "OLNot",
        UnOp::BitNot => "OBNot",
        UnOp::Neg => "ONeg",
    }
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::LOr => "OLOr",
        BinOp::LAnd => "OLAnd",
        BinOp::BitOr => "OOr",
        BinOp::BitXor => "OXor",
        BinOp::BitAnd => "OAnd",
        BinOp::Eq => "OEq",
        BinOp::Ne => "ONe",
        BinOp::Lt => "OUlt",
        BinOp::Le => "OUle",
        BinOp::Gt => "OUgt",
        BinOp::Ge => "OUge",
        BinOp::Shl => "OShl",
        BinOp::Shr => "OLShr",
        BinOp::Add => "OAdd",
        BinOp::Sub => "OSub",
        BinOp::Mul => "OMul",
        BinOp::Div => "OUDiv",
        BinOp::Rem => "OURem",
    }
}

impl Printer {
    /// A built-in function's constructor (`FFloat` for the float ones, uninterpreted).
    fn builtin(&mut self, name: &str) -> String {
        match Builtin::from_name(name) {
            Some(Builtin::Slt) => "FSlt".to_string(),
            Some(Builtin::Sle) => "FSle".into(),
            Some(Builtin::Sgt) => "FSgt".into(),
            Some(Builtin::Sge) => "FSge".into(),
            Some(Builtin::Sdiv) => "FSDiv".into(),
            Some(Builtin::Srem) => "FSRem".into(),
            Some(Builtin::Ashr) => "FAShr".into(),
            Some(Builtin::Min) => "FMin".into(),
            Some(Builtin::Max) => "FMax".into(),
            Some(Builtin::Implies) => "FImplies".into(),
            Some(Builtin::Fneg) => "FFNeg".into(),
            Some(Builtin::Fabs) => "FFAbs".into(),
            _ => {
                self.floats = true;
                format!("(FFloat {})", string_lit(name))
            }
        }
    }

    fn expr(&mut self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Num(n) => format!("(ELit {})", *n as u32),
            ExprKind::Bool(b) => format!("(ELit {})", u32::from(*b)),
            ExprKind::Var(x) if self.params.contains(&x.name) => format!("(EParam {})", string_lit(&x.name)),
            ExprKind::Var(x) => format!("(EVar (Named {}))", string_lit(&x.name)),
            ExprKind::Special(s, a, _) => {
                let c = match s {
                    Special::Lid => "ELid",
                    Special::Gid => "EGid",
                    Special::Threads => "EThreads",
                    Special::Groups => "EGroups",
                };
                format!("({c} {})", axis(*a))
            }
            ExprKind::Unary(op, x) => format!("(EUn {} {})", unop(*op), self.expr(x)),
            ExprKind::Binary(op, a, b) => format!("(EBin {} {} {})", binop(*op), self.expr(a), self.expr(b)),
            ExprKind::Cond(c, a, b) => format!("(ECond {} {} {})", self.expr(c), self.expr(a), self.expr(b)),
            ExprKind::Call(f, args) => {
                let name = self.builtin(&f.name);
                let a = args.first().map(|x| self.expr(x)).unwrap_or_else(|| "(ELit 0)".into());
                let b = args.get(1).map(|x| self.expr(x)).unwrap_or_else(|| "(ELit 0)".into());
                format!("(EBuiltin {name} {a} {b})")
            }
            // Not in the core form (reads are statements), and errors never get here.
            ExprKind::Index(..) | ExprKind::Error => "(ELit 0)".into(),
        }
    }

    /// An assertion's expression (a `pexpr`): `other`, `enabled` and array reads (peeks at
    /// the thread's view, not accesses) where they occur, local expressions below them.
    fn pexpr(&mut self, e: &Expr) -> String {
        if !assertion_only(e) {
            return format!("(PE {})", self.expr(e));
        }
        match &e.kind {
            ExprKind::Index(a, i) => format!("(PPeek {} {})", string_lit(&a.name), self.pexpr(i)),
            ExprKind::Call(f, args) if Builtin::from_name(&f.name) == Some(Builtin::Other) => match args.first() {
                Some(a) => format!("(POther {})", self.pexpr(a)),
                None => "(PE (ELit 0))".into(),
            },
            ExprKind::Call(f, _) if Builtin::from_name(&f.name) == Some(Builtin::Enabled) => "PEnabled".into(),
            ExprKind::Unary(op, x) => format!("(PUn {} {})", unop(*op), self.pexpr(x)),
            ExprKind::Binary(op, a, b) => format!("(PBin {} {} {})", binop(*op), self.pexpr(a), self.pexpr(b)),
            ExprKind::Cond(c, a, b) => format!("(PCond {} {} {})", self.pexpr(c), self.pexpr(a), self.pexpr(b)),
            ExprKind::Call(f, args) => {
                let name = self.builtin(&f.name);
                let a = args.first().map(|x| self.pexpr(x)).unwrap_or_else(|| "(PE (ELit 0))".into());
                let b = args.get(1).map(|x| self.pexpr(x)).unwrap_or_else(|| "(PE (ELit 0))".into());
                format!("(PBuiltin {name} {a} {b})")
            }
            _ => format!("(PE {})", self.expr(e)),
        }
    }

    /// `x := e` or, when `e` is a read, `x := A[i]`.
    fn assign(&mut self, x: &str, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Index(a, i) => format!("(SBasic (BRead (Named {}) {} {}))", string_lit(x), string_lit(&a.name), self.expr(i)),
            _ => format!("(SBasic (BAssign (Named {}) {}))", string_lit(x), self.expr(e)),
        }
    }

    /// A block: statements in sequence; a `local` scopes over the rest of its block.
    fn block(&mut self, stmts: &[Stmt], ind: usize) -> String {
        let pad = " ".repeat(ind);
        let Some((first, rest)) = stmts.split_first() else { return "SSkip".into() };
        // `local x := atomic ...;` (`local lo, hi := ...`) declares its locals for the rest of
        // the block too.
        if let StmtKind::Atomic(a) = &first.kind {
            if let (Some(x), true) = (&a.dest, a.declare) {
                let at = self.atomic(a);
                let mut body = if rest.is_empty() { at } else { format!("(SSeq {at}\n{pad}  {})", self.block(rest, ind + 2)) };
                if let Some(h) = &a.dest_hi {
                    body = format!("(SLocal {}\n{pad}  {body})", string_lit(&h.name));
                }
                return format!("(SLocal {}\n{pad}  {body})", string_lit(&x.name));
            }
        }
        if let StmtKind::Warp(w) = &first.kind {
            if let (Some(x), true) = (&w.dest, w.declare) {
                let at = self.warp(w);
                let body = if rest.is_empty() { at } else { format!("(SSeq {at}\n{pad}  {})", self.block(rest, ind + 2)) };
                return format!("(SLocal {}\n{pad}  {body})", string_lit(&x.name));
            }
        }
        if let StmtKind::Local(x, init) = &first.kind {
            let init = init.as_ref().map(|e| match &e.kind {
                // A read gives a disabled thread nothing: its new local is 0, as in a fresh location.
                ExprKind::Index(..) => self.assign(&x.name, e),
                _ if self.every => format!("(SEvery {})", self.assign(&x.name, e)),
                _ => self.assign(&x.name, e),
            });
            let body = match init {
                Some(a) if rest.is_empty() => a,
                Some(a) => format!("(SSeq {a}\n{pad}  {})", self.block(rest, ind + 2)),
                None => self.block(rest, ind + 2),
            };
            return format!("(SLocal {}\n{pad}  {body})", string_lit(&x.name));
        }
        let s = self.stmt(first, ind);
        if rest.is_empty() {
            s
        } else {
            format!("(SSeq {s}\n{pad}  {})", self.block(rest, ind + 2))
        }
    }

    /// `d := atomic f(A[i], args)` (`None` for no destination); a 64-bit or byte atomic as
/// `SAtomicShaped`.
    fn atomic(&mut self, a: &Atomic) -> String {
        let f = match a.operation() {
            AtomicOp::Add => "AAdd",
            AtomicOp::Sub => "ASub",
            AtomicOp::Xchg => "AXchg",
            AtomicOp::Min => "AMin",
            AtomicOp::Max => "AMax",
            AtomicOp::Smin => "ASmin",
            AtomicOp::Smax => "ASmax",
            AtomicOp::Inc => "AInc",
            AtomicOp::Dec => "ADec",
            AtomicOp::Cas => "ACas",
            AtomicOp::And => "AAnd",
            AtomicOp::Or => "AOr",
            AtomicOp::Xor => "AXor",
            AtomicOp::Fadd => {
                // The float addition: uninterpreted in the theories, as the float built-ins.
                self.floats = true;
                "AFadd"
            }
        };
        let loc = |x: &Option<Ident>| x.as_ref().map_or("None".to_string(), |x| format!("(Some (Named {}))", string_lit(&x.name)));
        let args = a.args.iter().map(|e| self.expr(e)).collect();
        let (array, index) = (string_lit(&a.array.name), self.expr(&a.index));
        match a.shape() {
            AtomicShape::WORD => format!("(SAtomic {} {f} {array} {index} {})", loc(&a.dest), list(args)),
            s => format!("(SAtomicShaped {} {} {} {} {f} {array} {index} {})", isa_bool(s.wide), isa_bool(s.bytes), loc(&a.dest), loc(&a.dest_hi), list(args)),
        }
    }

    /// `d := warp f(args; exited)`.
    fn warp(&mut self, w: &Warp) -> String {
        let f = match WarpOp::from_name(&w.op.name) {
            Some(WarpOp::Shfl) => "WShfl",
            Some(WarpOp::ShflUp) => "WShflUp",
            Some(WarpOp::ShflDown) => "WShflDown",
            Some(WarpOp::ShflXor) => "WShflXor",
            Some(WarpOp::Any) => "WAny",
            Some(WarpOp::All) => "WAll",
            Some(WarpOp::Ballot) => "WBallot",
            Some(WarpOp::Active) => "WActive",
            Some(WarpOp::ReduceAdd) => "WRAdd",
            Some(WarpOp::ReduceMin) => "WRMin",
            Some(WarpOp::ReduceMax) => "WRMax",
            Some(WarpOp::ReduceSmin) => "WRSmin",
            Some(WarpOp::ReduceSmax) => "WRSmax",
            Some(WarpOp::ReduceAnd) => "WRAnd",
            Some(WarpOp::ReduceOr) => "WROr",
            Some(WarpOp::ReduceXor) => "WRXor",
            Some(WarpOp::MatchAny) => "WMatchAny",
            Some(WarpOp::MatchAll) => "WMatchAll",
            Some(WarpOp::Sync) => "WSync",
            // Checked kernels name no other operation.
            None => "WActive",
        };
        let d = w.dest.as_ref().map_or("None".to_string(), |x| format!("(Some (Named {}))", string_lit(&x.name)));
        let args = w.args.iter().map(|e| self.expr(e)).collect();
        let ex = w.exited.as_ref().map_or("None".to_string(), |e| format!("(Some {})", self.expr(e)));
        format!("(SWarp {f} {d} {} {ex})", list(args))
    }

    fn stmt(&mut self, s: &Stmt, ind: usize) -> String {
        let pad = " ".repeat(ind);
        match &s.kind {
            StmtKind::Local(..) => self.block(std::slice::from_ref(s), ind),
            StmtKind::Assign(x, e) => self.assign(&x.name, e),
            StmtKind::Store(a, i, e) => format!("(SBasic (BWrite {} {} {}))", string_lit(&a.name), self.expr(i), self.expr(e)),
            StmtKind::If(c, t, e) => {
                let els = match e.as_deref() {
                    None => "SSkip".to_string(),
                    Some(Else::Block(b)) => self.block(&b.stmts, ind + 2),
                    Some(Else::If(s)) => self.stmt(s, ind + 2),
                };
                format!("(SIf {}\n{pad}  {}\n{pad}  {els})", self.expr(c), self.block(&t.stmts, ind + 2))
            }
            // Candidates (Houdini's guesses) are not part of the semantics.
            StmtKind::While { cond, invariants, body, .. } => {
                let invs = invariants.iter().map(|i| self.pexpr(i)).collect();
                format!("(SWhile {} {}\n{pad}  {})", self.expr(cond), list(invs), self.block(&body.stmts, ind + 2))
            }
            StmtKind::Call(f, args) => {
                let a = args.iter().map(|x| self.expr(x)).collect();
                format!("(SCall {} {})", string_lit(&f.name), list(a))
            }
            // `unsupported` keeps per-thread fences, wide atomics and warp collectives out of
            // the export.
            StmtKind::Barrier(f) if f.grid => "SGridBarrier".into(),
            StmtKind::Barrier(f) => {
                let barrier = match f.as_constant() {
                    Some((true, true)) => "SBarrier".into(),
                    Some((sh, gl)) => format!("(SBarrierOn {} {})", isa_bool(sh), isa_bool(gl)),
                    None => format!("(SBarrierEach {} {})", self.expr(&f.shared), self.expr(&f.global)),
                };
                // Barrier invariants: checked once the barrier is passed, in each thread's view
                // (a binary one by pairs of one group), as kpl's interpreter checks them; their
                // instantiations are the verifier's.
                f.invariants.iter().fold(barrier, |rest, i| {
                    let w = if i.binary() { "CkGroup" } else { "CkEnabled" };
                    format!("(SSeq {rest}\n{pad}  (SAssertP {w} {}))", self.pexpr(&i.expr))
                })
            }
            StmtKind::Atomic(a) => self.atomic(a),
            // A memory fence orders nothing in SDV, where only barriers publish writes.
            StmtKind::MemFence(..) => "SSkip".into(),
            StmtKind::Havoc(x) => format!("(SHavoc (Named {}))", string_lit(&x.name)),
            StmtKind::Warp(w) => self.warp(w),
            StmtKind::Touch { .. } | StmtKind::Snapshot { .. } => "SSkip".into(),
            StmtKind::Break => "SBreak".into(),
            StmtKind::Continue => "SContinue".into(),
            StmtKind::Return => "SReturn".into(),
            StmtKind::Assert(e, g) if assertion_only(e) => format!("(SAssertP {} {})", if *g { "CkEvery" } else { "CkEnabled" }, self.pexpr(e)),
            StmtKind::Assume(e) if assertion_only(e) => format!("(SAssumeP {})", self.pexpr(e)),
            StmtKind::Assert(e, true) => format!("(SEvery (SAssert {}))", self.expr(e)),
            StmtKind::Assert(e, false) => format!("(SAssert {})", self.expr(e)),
            StmtKind::Assume(e) => format!("(SAssume {})", self.expr(e)),
            StmtKind::Error => "SSkip".into(),
        }
    }
}

fn isa_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

fn init(i: &Init) -> String {
    match i {
        Init::Dense(v) => format!("Dense {}", data_list(v.iter().map(|w| w.to_string()).collect())),
        Init::Sparse(m) => format!("Sparse {}", data_list(m.iter().map(|(k, w)| format!("({k}, {w})")).collect())),
    }
}

fn triple(d: [u32; 3]) -> String {
    format!("({}, {}, {})", d[0], d[1], d[2])
}

/// The kernel as a term, and whether it uses floating-point built-ins (which the
/// executable semantics leaves uninterpreted).
pub fn kernel_term(k: &Kernel) -> (String, bool) {
    let mut params = BTreeSet::new();
    let mut arrays = Vec::new();
    let mut requires = Vec::new();
    for d in &k.decls {
        match &d.kind {
            DeclKind::Param(p) => {
                params.insert(p.name.clone());
            }
            DeclKind::Shared { name, size } | DeclKind::Global { name, size } => {
                let space = if matches!(d.kind, DeclKind::Shared { .. }) { "SharedSpace" } else { "GlobalSpace" };
                let size = size.map(|(n, _)| format!("Some {n}")).unwrap_or_else(|| "None".into());
                arrays.push(format!("\\<lparr>a_name = {}, a_space = {space}, a_size = {size}\\<rparr>", string_lit(&name.name)));
            }
            DeclKind::Requires(_) | DeclKind::Groups(_) | DeclKind::Threads(_) => {}
        }
    }
    let mut p = Printer { params: params.clone(), floats: false, every: k.observes_disabled() };
    for d in &k.decls {
        if let DeclKind::Requires(e) = &d.kind {
            requires.push(p.expr(e));
        }
    }
    let procs: Vec<String> = k
        .procs
        .iter()
        .map(|q| {
            let ps = list(q.params.iter().map(|x| string_lit(&x.name)).collect());
            format!("\\<lparr>p_name = {}, p_params = {ps},\n      p_body =\n      {}\\<rparr>", string_lit(&q.name.name), p.block(&q.body.stmts, 6))
        })
        .collect();
    let main = p.block(&k.main.stmts, 4);
    let text = format!(
        "\\<lparr>k_name = {},\n   k_arrays = {},\n   k_params = {},\n   k_requires = {},\n   k_procs = [{}],\n   k_main =\n    {main}\\<rparr>",
        string_lit(&k.name.name),
        list(arrays),
        list(params.iter().map(|x| string_lit(x)).collect()),
        list(requires),
        procs.join(",\n    "),
    );
    (text, p.floats)
}

/// What the `run_` lemma's proof trusts.
const TRUST: &str = "\\<open>kpl_run\\<close> runs the semantics compiled once in KPL_Semantics: it trusts Isabelle's\n  code generator, as \\<open>eval\\<close> does (the oracle is \\<open>Code_Runtime.holds\\<close>).";

/// The theory of a kernel, with the differential check of `run` if given.
pub fn theory(k: &Kernel, launch: Launch, run: Option<&RunData>) -> String {
    let name = &k.name.name;
    let thy = theory_name(name);
    let c = constant(name);
    let id = ident_part(name);
    let (term, floats) = kernel_term(k);
    let mut s = String::new();
    let _ = write!(
        s,
        "(* Generated by kpl: kernel `{}` as a term of KPL_Syntax, and a differential check of kpl's\n   \
         interpreter against the executable semantics of KPL_Semantics. *)\n\
         theory {thy}\n  imports \"KPL.KPL_Semantics\"\nbegin\n\n\
         definition {c} :: kernel where\n  \"{c} =\n  {term}\"\n\n\
         definition launch_{id} :: launch where\n  \"launch_{id} = \\<lparr>l_threads = {}, l_groups = {}\\<rparr>\"\n\n",
        crate::names::comment(name),
        triple(launch.threads),
        triple(launch.groups)
    );
    let Some(run) = run else {
        s.push_str("end\n");
        return s;
    };
    let params = list(run.params.iter().map(|(k, v)| format!("({}, {v})", string_lit(k))).collect());
    let globals = list(run.globals.iter().map(|(k, i)| format!("({}, {})", string_lit(k), init(i))).collect());
    let havocs = data_list(run.havocs.iter().map(|(g, l, vs)| format!("({}, {}, {})", triple(*g), triple(*l), data_list(vs.iter().map(|v| v.to_string()).collect()))).collect());
    let shared = list(run.shared.iter().map(|(k, is)| format!("({}, {})", string_lit(k), list(is.iter().map(init).collect()))).collect());
    let _ = write!(
        s,
        "text \\<open>The inputs of \\<open>{}\\<close>.\\<close>\n\
         definition inputs_{id} :: inputs where\n  \"inputs_{id} = \\<lparr>in_params = {params},\n     in_global = {globals},\n     in_shared = {shared},\n     in_havoc = {havocs}\\<rparr>\"\n\n",
        crate::names::text(&run.command)
    );
    let run_term = format!("run_kernel 100000000 {c} launch_{id} inputs_{id}");
    // `kpl_run` takes the statement written with constructors only.
    let unfold = format!("{c}_def launch_{id}_def inputs_{id}_def");
    if floats {
        let _ = writeln!(
            s,
            "text \\<open>No differential check: the kernel uses floating-point built-ins, which\n  KPL_Semantics leaves uninterpreted. kpl's interpreter said: {}.\\<close>\n",
            crate::names::text(&run.outcome)
        );
    } else if run.outcome == "ok" {
        let queries = list(
            run.observed
                .iter()
                .map(|o| {
                    let g = o.group.map(|g| format!("Some {g}")).unwrap_or_else(|| "None".into());
                    let dense = o.indices.iter().enumerate().all(|(i, &x)| i as u32 == x);
                    let idx = if dense && !o.indices.is_empty() {
                        format!("[0..<{}]", o.indices.len())
                    } else {
                        data_list(o.indices.iter().map(|i| i.to_string()).collect())
                    };
                    format!("({}, {g}, {idx})", string_lit(&o.array))
                })
                .collect(),
        );
        let values = list(run.observed.iter().map(|o| data_list(o.values.iter().map(|v| v.to_string()).collect())).collect());
        let _ = write!(
            s,
            "text \\<open>Differential check: on these inputs kpl's interpreter ends normally with these\n  final arrays; so does the executable semantics.\\<close>\n\
             lemma run_{id}:\n  \"observe ({run_term})\n     {queries}\n   = Some {values}\"\n  by (rule run_observesI, unfold {unfold}, kpl_run)\n\n\
             text \\<open>{TRUST}\\<close>\n\
             thm_oracles run_{id}\n\n"
        );
    } else if ["race", "divergence", "assertion", "out_of_bounds"].contains(&run.outcome.as_str()) {
        let _ = write!(
            s,
            "text \\<open>Differential check: on these inputs kpl's interpreter stops with a defect; so does\n  the executable semantics.\\<close>\n\
             lemma run_{id}:\n  \"outcome_name ({run_term}) = ''{}''\"\n  by (rule run_stops_withI, unfold {unfold}, kpl_run)\n\n\
             text \\<open>{TRUST}\\<close>\n\
             thm_oracles run_{id}\n\n",
            run.outcome
        );
    } else {
        let _ = writeln!(
            s,
            "text \\<open>No differential check: kpl's interpreter ended with outcome {} on these inputs.\\<close>\n",
            crate::names::text(&run.outcome)
        );
    }
    s.push_str("end\n");
    s
}
