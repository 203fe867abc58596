//! The sequential program: the two-thread, predicated, instrumented form of a kernel.
//! A real language with a printer (`--dump=seq`): variables of three sorts, expressions
//! over 32-bit words, booleans and arrays, and assignments, havoc, assume, labelled assert,
//! and loops with invariants. There is no `if`: control flow is predicated.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Sort {
    Bool,
    Word,
    /// An array from words to words.
    Array,
}

#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub sort: Sort,
}

/// Word operations (KPL's, with SMT-LIB's meaning).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WordOp {
    Add,
    Sub,
    Mul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    Shl,
    Lshr,
    Ashr,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Ult,
    Ule,
    Slt,
    Sle,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Var(VarId),
    Word(u32),
    Bool(bool),
    Bin(WordOp, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    BvNot(Box<Expr>),
    Neg(Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// Equality of two words, booleans or arrays.
    Eq(Box<Expr>, Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Implies(Box<Expr>, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    Select(Box<Expr>, Box<Expr>),
    Store(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A word as a condition: `w != 0`.
    ToBool(Box<Expr>),
    /// A condition as a word: 1 or 0.
    ToWord(Box<Expr>),
    /// An uninterpreted function from words to a word (the float operations).
    Uf(&'static str, Vec<Expr>),
}

/// What an assertion checks; the label a counterexample names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub kind: LabelKind,
    /// The source span (byte offsets) of the access, barrier, assert or loop checked.
    pub span: (usize, usize),
    /// A short description (`write to A`, `barrier`, `assert x < 48`).
    pub what: String,
    /// The index an access label is about (thread 2's for a race, thread 1's for bounds).
    pub subject: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabelKind {
    /// Thread 2's access (`second`) conflicts with thread 1's logged access (`logged`).
    Race { array: String, array_index: usize, second: AccessKind, logged: AccessKind },
    Divergence,
    Assertion,
    /// A user `invariant` at a loop: fails on entry (`entry`) or is not maintained.
    Invariant { entry: bool },
    /// A barrier invariant, or what it relies on (`barrier_invariants.rs`).
    BarrierInvariant(BarrierCheck),
    OutOfBounds { array: String, size: u32 },
    /// A generated candidate invariant (Houdini), on entry or preserved.
    Candidate { id: usize, entry: bool },
    /// A performance check (`kpl perf --all-inputs`): two threads of one warp show the
    /// problem at this access (`array`) or branch.
    Perf { check: PerfCheck, array: Option<String> },
}

/// What a barrier invariant's label checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierCheck {
    /// The invariant holds (the interpreter checks this too).
    Holds,
    /// It reads only elements the thread accessed since the previous barrier.
    Access,
    /// A local it names is equal in the threads of a group.
    Uniform,
}

impl BarrierCheck {
    /// Its name in JSON reports.
    pub fn name(self) -> &'static str {
        match self {
            BarrierCheck::Holds => "holds",
            BarrierCheck::Access => "access",
            BarrierCheck::Uniform => "uniform",
        }
    }
}

/// What a performance label checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerfCheck {
    /// Two threads of one unit access one shared bank at different words.
    BankConflict,
    /// Two threads of one unit, of one ideal segment, touch different global segments
    /// (compute capability 1.0/1.1: are out of the lane-k-at-word-k pattern).
    Uncoalesced,
    /// Two threads of one warp evaluate a branch differently.
    WarpDivergence,
}

impl PerfCheck {
    pub fn name(self) -> &'static str {
        match self {
            PerfCheck::BankConflict => "bank_conflict",
            PerfCheck::Uncoalesced => "uncoalesced",
            PerfCheck::WarpDivergence => "warp_divergence",
        }
    }
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Assign(VarId, Expr),
    Havoc(VarId),
    Assume(Expr),
    /// An assertion with the index of its label.
    Assert(Expr, usize),
    Loop(Loop),
    /// A read of an array element by a thread (for witnesses: the model's value of `value`
    /// at `index` is the initial content when `initial`). No effect on the program.
    Note(ReadNote),
}

#[derive(Clone, Debug)]
pub struct ReadNote {
    pub array: String,
    pub thread: u8,
    pub index: Expr,
    pub value: Expr,
    pub enabled: Expr,
    /// No barrier can have happened before this read on any path.
    pub initial: bool,
    pub shared: bool,
}

#[derive(Clone, Debug)]
pub struct Loop {
    /// Index into `Program::loops`.
    pub id: usize,
    pub cond: Expr,
    /// User invariants with their entry and preservation labels.
    pub invariants: Vec<(Expr, usize, usize)>,
    pub body: Vec<Stmt>,
    /// GPUVerify's `--k-induction-depth=K`: the loop is proved by K-induction (0: plain
    /// induction, the invariants alone).
    pub k: u32,
}

/// An array access of the source, as the race logs record it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    pub span: (usize, usize),
    pub array: usize,
    pub kind: AccessKind,
}

/// How an access touches its element. Atomics race with reads and writes, not with each
/// other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
    Atomic,
}

impl AccessKind {
    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic => "atomic",
        }
    }
    /// Does it change the element (a write or an atomic)?
    pub fn writes(self) -> bool {
        self != AccessKind::Read
    }
    /// The name of thread 1's log of this kind for an array (`WR_`, `RD_`, `AT_`).
    pub fn log_prefix(self) -> &'static str {
        match self {
            AccessKind::Read => "RD",
            AccessKind::Write => "WR",
            AccessKind::Atomic => "AT",
        }
    }
}

/// A candidate invariant for Houdini, at one loop.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub loop_id: usize,
    pub expr: Expr,
    /// Which rule made it (for reports and tests).
    pub rule: &'static str,
    /// Implied by GPUVerify's uniformity analysis, which GPUVerify applies with
    /// `--no-infer` too: Houdini checks it then as well.
    pub derived: bool,
}

#[derive(Clone, Debug)]
pub struct LoopInfo {
    /// The loop's source span.
    pub span: (usize, usize),
}

/// The shared-state abstraction of one array (paper, section 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Abstraction {
    /// Reads give arbitrary values.
    Adversarial,
    /// Both threads see equal arbitrary contents after each barrier.
    Equality,
}

#[derive(Clone, Debug)]
pub struct ArrayInfo {
    pub name: String,
    pub shared: bool,
    pub size: Option<u32>,
    pub abstraction: Abstraction,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub vars: Vec<VarInfo>,
    pub body: Vec<Stmt>,
    pub labels: Vec<Label>,
    pub loops: Vec<LoopInfo>,
    pub candidates: Vec<Candidate>,
    pub arrays: Vec<ArrayInfo>,
    /// The variables a witness is read from: thread ids and params, by name.
    pub inputs: Vec<(String, VarId)>,
    /// The accesses the `*_stmt` logs name, by id: source span, array, is a write.
    pub sites: Vec<Site>,
}

impl Program {
    pub fn var(&self, v: VarId) -> &VarInfo {
        &self.vars[v.0 as usize]
    }
    pub fn find(&self, name: &str) -> Option<VarId> {
        self.vars.iter().position(|v| v.name == name).map(|i| VarId(i as u32))
    }
}

// ---- smart constructors: light normalisation while building ----

impl Expr {
    pub fn var(v: VarId) -> Expr {
        Expr::Var(v)
    }
    pub fn not(e: Expr) -> Expr {
        match e {
            Expr::Bool(b) => Expr::Bool(!b),
            Expr::Not(x) => *x,
            e => Expr::Not(Box::new(e)),
        }
    }
    pub fn and(xs: Vec<Expr>) -> Expr {
        let mut out = Vec::new();
        for x in xs {
            match x {
                Expr::Bool(true) => {}
                Expr::Bool(false) => return Expr::Bool(false),
                Expr::And(ys) => out.extend(ys),
                x => out.push(x),
            }
        }
        match out.len() {
            0 => Expr::Bool(true),
            1 => out.pop().unwrap_or(Expr::Bool(true)),
            _ => Expr::And(out),
        }
    }
    pub fn and2(a: Expr, b: Expr) -> Expr {
        Expr::and(vec![a, b])
    }
    pub fn or(xs: Vec<Expr>) -> Expr {
        let mut out = Vec::new();
        for x in xs {
            match x {
                Expr::Bool(false) => {}
                Expr::Bool(true) => return Expr::Bool(true),
                Expr::Or(ys) => out.extend(ys),
                x => out.push(x),
            }
        }
        match out.len() {
            0 => Expr::Bool(false),
            1 => out.pop().unwrap_or(Expr::Bool(false)),
            _ => Expr::Or(out),
        }
    }
    pub fn or2(a: Expr, b: Expr) -> Expr {
        Expr::or(vec![a, b])
    }
    pub fn implies(a: Expr, b: Expr) -> Expr {
        match (a, b) {
            (Expr::Bool(true), b) => b,
            (Expr::Bool(false), _) | (_, Expr::Bool(true)) => Expr::Bool(true),
            (a, b) => Expr::Implies(Box::new(a), Box::new(b)),
        }
    }
    pub fn eq(a: Expr, b: Expr) -> Expr {
        if a == b {
            return Expr::Bool(true);
        }
        match (&a, &b) {
            (Expr::Word(x), Expr::Word(y)) => Expr::Bool(x == y),
            (Expr::Bool(x), Expr::Bool(y)) => Expr::Bool(x == y),
            _ => Expr::Eq(Box::new(a), Box::new(b)),
        }
    }
    pub fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
        match c {
            Expr::Bool(true) => a,
            Expr::Bool(false) => b,
            _ if a == b => a,
            c => Expr::Ite(Box::new(c), Box::new(a), Box::new(b)),
        }
    }
    pub fn bin(op: WordOp, a: Expr, b: Expr) -> Expr {
        if let (Expr::Word(x), Expr::Word(y)) = (&a, &b) {
            return Expr::Word(word_op(op, *x, *y));
        }
        match (op, &a, &b) {
            (WordOp::Add | WordOp::Sub | WordOp::Or | WordOp::Xor | WordOp::Shl | WordOp::Lshr, _, Expr::Word(0)) => return a,
            (WordOp::Add | WordOp::Or | WordOp::Xor, Expr::Word(0), _) => return b,
            (WordOp::Mul | WordOp::Udiv, _, Expr::Word(1)) => return a,
            (WordOp::Mul, Expr::Word(1), _) => return b,
            (WordOp::Mul | WordOp::And, _, Expr::Word(0)) | (WordOp::Mul | WordOp::And, Expr::Word(0), _) => {
                return Expr::Word(0)
            }
            // (x + y) - y = x and (x + y) - x = y, exactly, modulo 2^32.
            (WordOp::Sub, Expr::Bin(WordOp::Add, x, y), _) if **y == b => return (**x).clone(),
            (WordOp::Sub, Expr::Bin(WordOp::Add, x, y), _) if **x == b => return (**y).clone(),
            _ => {}
        }
        Expr::Bin(op, Box::new(a), Box::new(b))
    }
    pub fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
        Expr::Cmp(op, Box::new(a), Box::new(b))
    }
    pub fn ult(a: Expr, b: Expr) -> Expr {
        Expr::cmp(CmpOp::Ult, a, b)
    }
    pub fn to_bool(e: Expr) -> Expr {
        match e {
            Expr::ToWord(b) => *b,
            Expr::Word(w) => Expr::Bool(w != 0),
            e => Expr::ToBool(Box::new(e)),
        }
    }
    pub fn to_word(e: Expr) -> Expr {
        match e {
            Expr::Bool(b) => Expr::Word(b as u32),
            Expr::ToBool(w) if is_boolean_word(&w) => *w,
            e => Expr::ToWord(Box::new(e)),
        }
    }
    pub fn select(a: Expr, i: Expr) -> Expr {
        Expr::Select(Box::new(a), Box::new(i))
    }
    pub fn store(a: Expr, i: Expr, v: Expr) -> Expr {
        Expr::Store(Box::new(a), Box::new(i), Box::new(v))
    }

    /// Visit every variable.
    pub fn vars(&self, f: &mut dyn FnMut(VarId)) {
        match self {
            Expr::Var(v) => f(*v),
            Expr::Word(_) | Expr::Bool(_) => {}
            Expr::Not(a) | Expr::BvNot(a) | Expr::Neg(a) | Expr::ToBool(a) | Expr::ToWord(a) => a.vars(f),
            Expr::Bin(_, a, b) | Expr::Cmp(_, a, b) | Expr::Eq(a, b) | Expr::Implies(a, b) | Expr::Select(a, b) => {
                a.vars(f);
                b.vars(f)
            }
            Expr::And(xs) | Expr::Or(xs) | Expr::Uf(_, xs) => xs.iter().for_each(|x| x.vars(f)),
            Expr::Ite(a, b, c) | Expr::Store(a, b, c) => {
                a.vars(f);
                b.vars(f);
                c.vars(f)
            }
        }
    }
}

/// A word expression known to be 0 or 1.
fn is_boolean_word(e: &Expr) -> bool {
    matches!(e, Expr::ToWord(_))
}

pub fn word_op(op: WordOp, a: u32, b: u32) -> u32 {
    use kpl_lang::ops;
    match op {
        WordOp::Add => a.wrapping_add(b),
        WordOp::Sub => a.wrapping_sub(b),
        WordOp::Mul => a.wrapping_mul(b),
        WordOp::Udiv => ops::udiv(a, b),
        WordOp::Urem => ops::urem(a, b),
        WordOp::Sdiv => ops::sdiv(a, b),
        WordOp::Srem => ops::srem(a, b),
        WordOp::Shl => ops::shl(a, b),
        WordOp::Lshr => ops::lshr(a, b),
        WordOp::Ashr => ops::ashr(a, b),
        WordOp::And => a & b,
        WordOp::Or => a | b,
        WordOp::Xor => a ^ b,
    }
}

impl WordOp {
    pub fn name(self) -> &'static str {
        use WordOp::*;
        match self {
            Add => "bvadd",
            Sub => "bvsub",
            Mul => "bvmul",
            Udiv => "bvudiv",
            Urem => "bvurem",
            Sdiv => "bvsdiv",
            Srem => "bvsrem",
            Shl => "bvshl",
            Lshr => "bvlshr",
            Ashr => "bvashr",
            And => "bvand",
            Or => "bvor",
            Xor => "bvxor",
        }
    }
}

impl CmpOp {
    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Ult => "bvult",
            CmpOp::Ule => "bvule",
            CmpOp::Slt => "bvslt",
            CmpOp::Sle => "bvsle",
        }
    }
}

// ---- printing (`--dump=seq`) ----

struct E<'a>(&'a Program, &'a Expr);

impl fmt::Display for E<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0;
        let sub = |e: &'_ Expr| E(p, e).to_string();
        match self.1 {
            Expr::Var(v) => write!(f, "{}", p.var(*v).name),
            Expr::Word(w) => write!(f, "{w}"),
            Expr::Bool(b) => write!(f, "{b}"),
            Expr::Bin(op, a, b) => write!(f, "({} {} {})", op.name(), sub(a), sub(b)),
            Expr::Not(a) => write!(f, "(not {})", sub(a)),
            Expr::BvNot(a) => write!(f, "(bvnot {})", sub(a)),
            Expr::Neg(a) => write!(f, "(bvneg {})", sub(a)),
            Expr::Cmp(op, a, b) => write!(f, "({} {} {})", op.name(), sub(a), sub(b)),
            Expr::Eq(a, b) => write!(f, "(= {} {})", sub(a), sub(b)),
            Expr::And(xs) | Expr::Or(xs) => {
                write!(f, "({}", if matches!(self.1, Expr::And(_)) { "and" } else { "or" })?;
                for x in xs {
                    write!(f, " {}", sub(x))?;
                }
                write!(f, ")")
            }
            Expr::Implies(a, b) => write!(f, "(=> {} {})", sub(a), sub(b)),
            Expr::Ite(a, b, c) => write!(f, "(ite {} {} {})", sub(a), sub(b), sub(c)),
            Expr::Select(a, b) => write!(f, "(select {} {})", sub(a), sub(b)),
            Expr::Store(a, b, c) => write!(f, "(store {} {} {})", sub(a), sub(b), sub(c)),
            Expr::ToBool(a) => write!(f, "(bool {})", sub(a)),
            Expr::ToWord(a) => write!(f, "(word {})", sub(a)),
            Expr::Uf(name, xs) => {
                write!(f, "({name}")?;
                for x in xs {
                    write!(f, " {}", sub(x))?;
                }
                write!(f, ")")
            }
        }
    }
}

impl Program {
    /// An expression as text (s-expression syntax).
    pub fn show(&self, e: &Expr) -> String {
        E(self, e).to_string()
    }

    fn stmts(&self, out: &mut String, stmts: &[Stmt], indent: usize) {
        let pad = "  ".repeat(indent);
        for s in stmts {
            match s {
                Stmt::Assign(v, e) => out.push_str(&format!("{pad}{} := {};\n", self.var(*v).name, E(self, e))),
                Stmt::Havoc(v) => out.push_str(&format!("{pad}havoc {};\n", self.var(*v).name)),
                Stmt::Assume(e) => out.push_str(&format!("{pad}assume {};\n", E(self, e))),
                Stmt::Assert(e, l) => {
                    let lab = &self.labels[*l];
                    out.push_str(&format!("{pad}assert {};  // #{l} {:?}: {}\n", E(self, e), lab.kind, lab.what))
                }
                Stmt::Loop(lp) => {
                    let k = if lp.k > 0 { format!(", {}-induction", lp.k) } else { String::new() };
                    out.push_str(&format!("{pad}while {}  // loop {}{k}\n", E(self, &lp.cond), lp.id));
                    for (inv, _, _) in &lp.invariants {
                        out.push_str(&format!("{pad}  invariant {};\n", E(self, inv)));
                    }
                    for c in self.candidates.iter().filter(|c| c.loop_id == lp.id) {
                        out.push_str(&format!("{pad}  candidate {};  // {}\n", E(self, &c.expr), c.rule));
                    }
                    out.push_str(&format!("{pad}{{\n"));
                    self.stmts(out, &lp.body, indent + 1);
                    out.push_str(&format!("{pad}}}\n"));
                }
                Stmt::Note(_) => {}
            }
        }
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        for a in &self.arrays {
            out.push_str(&format!(
                "// array {} ({}, {}): {:?} abstraction\n",
                a.name,
                if a.shared { "shared" } else { "global" },
                a.size.map(|s| s.to_string()).unwrap_or("*".into()),
                a.abstraction
            ));
        }
        for v in &self.vars {
            out.push_str(&format!("var {}: {:?};\n", v.name, v.sort));
        }
        out.push('\n');
        self.stmts(&mut out, &self.body, 0);
        f.write_str(&out)
    }
}
