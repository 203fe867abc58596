//! The AST of the C subset (CUDA and OpenCL C, tier 1 of CUDA.md), with spans.

use kpl_lang::ast::Ident;
use kpl_lang::span::Span;

#[derive(Clone, Debug)]
pub struct Unit {
    pub items: Vec<Item>,
    /// `--kernel=k<...>`: the name of that template instance (`templates.rs`).
    pub kernel_instance: Option<String>,
    /// Host variables device code names, read as `__device__` ones (`templates.rs`).
    pub host_variables: Vec<String>,
    /// Kernel templates the file never instantiates (`templates.rs`).
    pub kernel_templates: Vec<String>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Func(Func),
    Var(Decl),
    /// A file-scope call such as `__axiom(e);`.
    Call(Ident, Vec<Expr>, Span),
    /// Something outside the subset, named for the diagnostic.
    Unsupported(&'static str, Span),
    Error,
}

/// A declaration specifier or qualifier word, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub word: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Func {
    pub specs: Vec<Spec>,
    pub ptrs: usize,
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Option<Block>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub specs: Vec<Spec>,
    /// Qualifiers after each `*` (e.g. `__restrict__`).
    pub ptrs: Vec<Vec<Spec>>,
    /// A C++ reference (`float &x`): the caller's object itself.
    pub reference: bool,
    pub name: Option<Ident>,
    /// `int a[]` parameters are pointers too.
    pub dims: usize,
    /// The sizes written in those brackets (`float a[][16]`: none, then 16).
    pub dim_sizes: Vec<Option<Expr>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Decl {
    pub specs: Vec<Spec>,
    pub decls: Vec<Declarator>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Declarator {
    pub ptrs: usize,
    /// A C++ reference (`uint &e = a[i];`): another name for an object.
    pub reference: bool,
    pub name: Ident,
    pub dims: Vec<Option<Expr>>,
    pub init: Option<Init>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Init {
    Expr(Expr),
    List(Vec<Init>, Span),
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Block(Block),
    Decl(Decl),
    Expr(Expr),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(Option<Box<Stmt>>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Switch(Expr, Box<Stmt>),
    /// `case e:` and `default:` labels (`None`), statements of a `switch` body.
    Case(Option<Expr>),
    Break,
    Continue,
    Return(Option<Expr>),
    /// `goto L;` (forward only: `lower/gotos.rs` checks).
    Goto(Ident),
    /// `L:`, before the statement it labels (a statement of its own, like `case`).
    Label(Ident),
    Empty,
    Unsupported(&'static str),
    Error,
}

#[derive(Clone, Debug)]
pub struct TypeName {
    pub specs: Vec<Spec>,
    pub ptrs: usize,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    Addr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LAnd,
    LOr,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal: value and whether a `u` suffix (or its size) makes it unsigned.
    Int(u64, bool),
    /// A 64-bit integer literal (an `l` suffix, or a value C's rules make `long`): value and
    /// whether it is unsigned.
    LongInt(u64, bool),
    /// A float literal, as single-precision bits.
    Float(u32),
    Char(u32),
    Str,
    Bool(bool),
    Ident(Ident),
    Index(Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Member(Box<Expr>, Ident),
    Unary(UOp, Box<Expr>),
    /// `++x` / `--x` (`inc` tells which).
    PreInc(bool, Box<Expr>),
    PostInc(bool, Box<Expr>),
    Binary(BOp, Box<Expr>, Box<Expr>),
    /// `x = e` (`None`) or `x op= e`.
    Assign(Option<BOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(TypeName, Box<Expr>),
    /// `(T){ a, b }`: a compound literal (OpenCL vectors, structs).
    CompoundLit(TypeName, Vec<Init>),
    Comma(Box<Expr>, Box<Expr>),
    Unsupported(&'static str),
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// Visit this expression and every sub-expression (initialisers of compound literals
    /// included), parents first.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Comma(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Call(g, args) => {
                g.walk(f);
                args.iter().for_each(|a| a.walk(f));
            }
            ExprKind::Member(a, _) | ExprKind::Unary(_, a) | ExprKind::PreInc(_, a) | ExprKind::PostInc(_, a) | ExprKind::Cast(_, a) => {
                a.walk(f)
            }
            ExprKind::Cond(a, b, c) => {
                a.walk(f);
                b.walk(f);
                c.walk(f);
            }
            ExprKind::CompoundLit(_, items) => items.iter().for_each(|i| i.walk(f)),
            ExprKind::Int(..)
            | ExprKind::LongInt(..)
            | ExprKind::Float(_)
            | ExprKind::Char(_)
            | ExprKind::Str
            | ExprKind::Bool(_)
            | ExprKind::Ident(_)
            | ExprKind::Unsupported(_) => {}
        }
    }
}

impl Stmt {
    /// Visit every expression written in this statement and the statements inside it
    /// (conditions, initialisers, `for` parts, `case` labels), outermost first; each
    /// expression once, as a whole (use `Expr::walk` for its parts).
    pub fn walk_exprs(&self, f: &mut dyn FnMut(&Expr)) {
        match &self.kind {
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| s.walk_exprs(f)),
            StmtKind::Decl(d) => d.decls.iter().filter_map(|x| x.init.as_ref()).for_each(|i| i.walk_top(f)),
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) | StmtKind::Case(Some(e)) => f(e),
            StmtKind::If(c, t, e) => {
                f(c);
                t.walk_exprs(f);
                if let Some(e) = e {
                    e.walk_exprs(f);
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
                f(c);
                b.walk_exprs(f);
            }
            StmtKind::For(i, c, st, b) => {
                if let Some(i) = i {
                    i.walk_exprs(f);
                }
                c.iter().chain(st.iter()).for_each(|e| f(e));
                b.walk_exprs(f);
            }
            StmtKind::Return(None)
            | StmtKind::Case(None)
            | StmtKind::Goto(_)
            | StmtKind::Label(_)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Unsupported(_)
            | StmtKind::Error => {}
        }
    }
}

impl Stmt {
    /// Visit this statement and every statement inside it, outermost first.
    pub fn walk_stmts(&self, f: &mut dyn FnMut(&Stmt)) {
        f(self);
        match &self.kind {
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| s.walk_stmts(f)),
            StmtKind::If(_, t, e) => {
                t.walk_stmts(f);
                if let Some(e) = e {
                    e.walk_stmts(f);
                }
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Switch(_, b) => b.walk_stmts(f),
            StmtKind::For(i, _, _, b) => {
                if let Some(i) = i {
                    i.walk_stmts(f);
                }
                b.walk_stmts(f);
            }
            _ => {}
        }
    }
}

impl Init {
    /// Visit each expression of an initialiser as a whole.
    fn walk_top(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            Init::Expr(e) => f(e),
            Init::List(items, _) => items.iter().for_each(|i| i.walk_top(f)),
        }
    }

    /// Visit every expression of an initialiser.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            Init::Expr(e) => e.walk(f),
            Init::List(items, _) => items.iter().for_each(|i| i.walk(f)),
        }
    }
}

/// `extern "C" { items }`: only `extern` may open a linkage block (anything else is
/// refused, naming the word).
pub fn linkage(s: Spec, items: Vec<Item>) -> Vec<Item> {
    if s.word == "extern" {
        items
    } else {
        vec![Item::Unsupported("a string after this specifier", s.span)]
    }
}

/// The value of a constant integer expression (array sizes, enumerators).
pub fn const_eval(e: &Expr) -> Option<i64> {
    const_eval_with(e, &|_| None)
}

/// `const_eval`, with `known` giving the value of sub-expressions it knows (`sizeof e`).
pub fn const_eval_with(e: &Expr, known: &dyn Fn(&Expr) -> Option<i64>) -> Option<i64> {
    if let Some(v) = known(e) {
        return Some(v);
    }
    let const_eval = |x: &Expr| const_eval_with(x, known);
    match &e.kind {
        ExprKind::Int(v, _) | ExprKind::LongInt(v, _) => Some(*v as i64),
        ExprKind::Char(v) => Some(*v as i64),
        ExprKind::Unary(UOp::Neg, a) => Some(-const_eval(a)?),
        ExprKind::Unary(UOp::Plus, a) => const_eval(a),
        ExprKind::Unary(UOp::Not, a) => Some((const_eval(a)? == 0) as i64),
        // (Two's complement in 64 bits: `x & ~63` is the same in every width `x` fits.)
        ExprKind::Unary(UOp::BitNot, a) => Some(!const_eval(a)?),
        ExprKind::Cast(_, a) => const_eval(a),
        ExprKind::Cond(c, a, b) => const_eval(if const_eval(c)? != 0 { a } else { b }),
        // `&&` and `||` decide by their left operand where it suffices, as C evaluates them.
        ExprKind::Binary(op @ (BOp::LAnd | BOp::LOr), a, b) => {
            let left = const_eval(a)? != 0;
            if left == (*op == BOp::LOr) {
                return Some(left as i64);
            }
            Some((const_eval(b)? != 0) as i64)
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (const_eval(a)?, const_eval(b)?);
            // (An order of a negative value depends on the operands' signedness, which is
            // not known here: undecided.)
            let order = |f: fn(&i64, &i64) -> bool| (x >= 0 && y >= 0).then(|| f(&x, &y) as i64);
            Some(match op {
                BOp::Add => x.checked_add(y)?,
                BOp::Sub => x.checked_sub(y)?,
                BOp::Mul => x.checked_mul(y)?,
                BOp::Div => x.checked_div(y)?,
                BOp::Rem => x.checked_rem(y)?,
                BOp::Shl => x.checked_shl(y as u32)?,
                BOp::Shr => x.checked_shr(y as u32)?,
                BOp::BitAnd => x & y,
                BOp::BitOr => x | y,
                BOp::BitXor => x ^ y,
                BOp::Eq => (x == y) as i64,
                BOp::Ne => (x != y) as i64,
                BOp::Lt => order(i64::lt)?,
                BOp::Le => order(i64::le)?,
                BOp::Gt => order(i64::gt)?,
                BOp::Ge => order(i64::ge)?,
                _ => return None,
            })
        }
        _ => None,
    }
}
