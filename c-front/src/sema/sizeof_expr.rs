//! `sizeof e` of an expression (`sizeof(tile)`, `sizeof a[0]`, `sizeof(*p)`, `sizeof s.f`):
//! the size of its type, found from the declaration in scope of the variable it names
//! (parameters, locals, file-scope variables) and the indexing, dereferencing or struct
//! field selection applied to it. C does not evaluate the operand. `sizeof` of a type is
//! folded earlier, on tokens (`layout::fold_sizeof`). An operand kpl cannot type this way
//! (a call, an arithmetic expression, a vector component) is refused by the lowering,
//! never guessed.

use crate::sema::layout::size_align;
use crate::sema::types::{TypeTable, struct_of};
use crate::syntax::ast::*;
use crate::text::tokens::Dialect;
use kpl_lang::span::Span;
use std::collections::HashMap;

/// The name of the pseudo-function the grammar turns `sizeof e` into.
pub const SIZEOF: &str = "sizeof";

/// The operand of `sizeof e`, if `e` is one.
pub fn operand(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Call(f, args) if args.len() == 1 && matches!(&f.kind, ExprKind::Ident(x) if x.name == SIZEOF) => args.first(),
        _ => None,
    }
}

/// A declared variable's type: its specifier words, pointer levels and array dimensions
/// (`None` for one that is not a constant). `rows`: a pointer to arrays of `dims` (a
/// multi-dimensional array parameter, `float a[][16]`, whose first bracket is a pointer).
#[derive(Clone, Debug)]
struct Declared {
    words: Vec<String>,
    ptrs: usize,
    dims: Vec<Option<u64>>,
    rows: bool,
}

impl Declared {
    /// `sized`: the sizes of the `sizeof`s found so far (a dimension may use one).
    fn of(specs: &[Spec], ptrs: usize, dims: &[Option<Expr>], sized: &HashMap<Span, u64>) -> Declared {
        let known = |x: &Expr| operand(x).and_then(|_| sized.get(&x.span)).map(|n| *n as i64);
        let dims = dims.iter().map(|d| d.as_ref().and_then(|e| const_eval_with(e, &known)).and_then(|v| u64::try_from(v).ok())).collect();
        Declared { words: specs.iter().map(|s| s.word.clone()).collect(), ptrs, dims, rows: false }
    }

    /// The type of one element of this array, or what this pointer points at.
    fn element(mut self) -> Option<Declared> {
        if self.rows {
            self.rows = false;
        } else if !self.dims.is_empty() {
            self.dims.remove(0);
        } else {
            self.ptrs = self.ptrs.checked_sub(1)?;
        }
        Some(self)
    }

    fn size(&self, types: &TypeTable, d: Dialect) -> Option<u64> {
        let words: Vec<&str> = self.words.iter().map(String::as_str).collect();
        let (elem, _) = size_align(&words, self.ptrs > 0 || self.rows, types, d, 0)?;
        if self.rows {
            return Some(elem);
        }
        self.dims.iter().try_fold(elem, |n, dim| n.checked_mul((*dim)?))
    }
}

/// The size of every `sizeof e` of the unit that can be typed, by the span of the `sizeof`
/// expression.
pub fn sizes(unit: &Unit, types: &TypeTable, d: Dialect) -> HashMap<Span, u64> {
    let mut r = Resolver { scopes: vec![HashMap::new()], types, dialect: d, out: HashMap::new() };
    for item in &unit.items {
        if let Item::Var(decl) = item {
            r.decl(decl);
        }
    }
    for item in &unit.items {
        if let Item::Func(f) = item {
            let Some(body) = &f.body else { continue };
            let mut params = HashMap::new();
            for p in &f.params {
                if let Some(n) = &p.name {
                    // `int a[]` is a pointer: its dimension is one more pointer level;
                    // `float a[][16]` a pointer to rows of 16.
                    let t = if p.dims > 1 && p.ptrs.is_empty() {
                        Declared { rows: true, ..Declared::of(&p.specs, 0, &p.dim_sizes[1..], &r.out) }
                    } else {
                        Declared::of(&p.specs, p.ptrs.len() + p.dims, &[], &r.out)
                    };
                    params.insert(n.name.clone(), t);
                }
            }
            r.scopes.push(params);
            r.stmts(&body.stmts);
            r.scopes.pop();
        }
    }
    r.out
}

struct Resolver<'a> {
    scopes: Vec<HashMap<String, Declared>>,
    types: &'a TypeTable,
    dialect: Dialect,
    out: HashMap<Span, u64>,
}

impl Resolver<'_> {
    fn decl(&mut self, d: &Decl) {
        for x in &d.decls {
            for e in x.dims.iter().flatten() {
                self.expr(e);
            }
            if let Some(i) = &x.init {
                i.walk(&mut |e| self.note(e));
            }
            let t = Declared::of(&d.specs, x.ptrs, &x.dims, &self.out);
            if let Some(s) = self.scopes.last_mut() {
                s.insert(x.name.name.clone(), t);
            }
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => self.scoped(|r| r.stmts(&b.stmts)),
            StmtKind::Decl(d) => self.decl(d),
            StmtKind::For(init, c, step, body) => self.scoped(|r| {
                if let Some(i) = init {
                    r.stmt(i);
                }
                c.iter().chain(step.iter()).for_each(|e| r.expr(e));
                r.stmt(body);
            }),
            StmtKind::If(c, t, e) => {
                self.expr(c);
                self.scoped(|r| r.stmt(t));
                if let Some(e) = e {
                    self.scoped(|r| r.stmt(e));
                }
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) | StmtKind::Switch(c, b) => {
                self.expr(c);
                self.scoped(|r| r.stmt(b));
            }
            _ => s.walk_exprs(&mut |e| self.expr(e)),
        }
    }

    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(HashMap::new());
        f(self);
        self.scopes.pop();
    }

    fn expr(&mut self, e: &Expr) {
        e.walk(&mut |x| self.note(x));
    }

    /// Record the size of `x` if it is a `sizeof e` whose operand can be typed.
    fn note(&mut self, x: &Expr) {
        let Some(op) = operand(x) else { return };
        if let Some(n) = self.type_of(op).and_then(|t| t.size(self.types, self.dialect)) {
            self.out.insert(x.span, n);
        }
    }

    fn type_of(&self, e: &Expr) -> Option<Declared> {
        match &e.kind {
            ExprKind::Ident(x) => self.scopes.iter().rev().find_map(|s| s.get(&x.name)).cloned(),
            ExprKind::Index(a, _) | ExprKind::Unary(UOp::Deref, a) => self.type_of(a)?.element(),
            // A field of a struct variable (`s.f`, and `p->f`, which is `(*p).f`).
            ExprKind::Member(a, m) => {
                let t = self.type_of(a)?;
                if t.ptrs > 0 || !t.dims.is_empty() {
                    return None;
                }
                let s = self.types.structs.get(t.words.iter().find_map(|w| struct_of(w))?)?;
                s.fields.iter().find_map(|f| f.decls.iter().find(|x| x.name.name == m.name).map(|x| Declared::of(&f.specs, x.ptrs, &x.dims, &self.out)))
            }
            _ => None,
        }
    }
}
