//! The lowering's half of C++ operator functions (`sema/operators.rs` renames them): `a + b`,
//! `-a` and `a += b` read as a call of the operator function when an operand is a struct or
//! vector, chosen among the overloads as `overload_calls.rs` chooses.

use crate::lower::context::Lower;
use crate::lower::overload_calls::Callee;
use crate::lower::values::CType;
use crate::sema::operators::PREFIX;
use crate::syntax::ast::{BOp, Expr, ExprKind, Func, UOp};
use kpl_lang::ast::Ident;

fn binary_name(op: BOp) -> &'static str {
    match op {
        BOp::Mul => "mul",
        BOp::Div => "div",
        BOp::Rem => "rem",
        BOp::Add => "add",
        BOp::Sub => "sub",
        BOp::Shl => "shl",
        BOp::Shr => "shr",
        BOp::Lt => "lt",
        BOp::Gt => "gt",
        BOp::Le => "le",
        BOp::Ge => "ge",
        BOp::Eq => "eq",
        BOp::Ne => "ne",
        BOp::BitAnd => "and",
        BOp::BitXor => "xor",
        BOp::BitOr => "or",
        // `&&` and `||` keep their short-circuit meaning: kpl does not overload them.
        BOp::LAnd | BOp::LOr => "",
    }
}

/// The operator function an expression would call, and its operands in order.
fn operation(e: &Expr) -> Option<(String, Vec<&Expr>)> {
    let (m, args): (String, Vec<&Expr>) = match &e.kind {
        ExprKind::Binary(op, a, b) => (binary_name(*op).to_string(), vec![&**a, &**b]),
        ExprKind::Unary(op, a) => {
            let m = match op {
                UOp::Neg => "sub",
                UOp::Plus => "add",
                UOp::Not => "not",
                UOp::BitNot => "compl",
                UOp::Deref | UOp::Addr => return None,
            };
            (m.to_string(), vec![&**a])
        }
        ExprKind::Assign(Some(op), l, r) => (format!("{}_assign", binary_name(*op)), vec![&**l, &**r]),
        _ => return None,
    };
    (!m.is_empty() && !m.starts_with('_')).then(|| (format!("{PREFIX}{m}"), args))
}

fn aggregate(t: &Option<CType>) -> bool {
    matches!(t, Some(CType::Vector(..) | CType::Struct(_)))
}

/// Scalar type words: a cast to them gives a scalar.
const SCALAR_WORDS: &[&str] = &[
    "int", "unsigned", "signed", "long", "short", "char", "float", "double", "bool", "size_t", "uint", "const", "volatile",
];

impl<'u> Lower<'u> {
    /// Does the file define an operator function `e`'s operator could call? (Asked of every
    /// node by `needs_statements`: a file without operator functions answers at once.)
    pub(crate) fn has_operator_function(&self, e: &Expr) -> bool {
        self.operator_functions && operation(e).is_some_and(|(n, _)| self.funcs.contains_key(&n))
    }

    /// Could lowering `e` call an operator function (an operand may be a struct or vector)?
    /// Said without typing (`needs_statements` asks): scalar variables, literals, CUDA's
    /// ids, scalar elements and casts to scalar types are no structs.
    pub(crate) fn may_call_operator(&self, e: &Expr) -> bool {
        self.has_operator_function(e) && operation(e).is_some_and(|(_, args)| args.iter().any(|a| self.may_be_aggregate(a)))
    }

    fn may_be_aggregate(&self, e: &Expr) -> bool {
        use crate::lower::values::Entity;
        match &e.kind {
            ExprKind::Int(..) | ExprKind::LongInt(..) | ExprKind::Float(_) | ExprKind::Char(_) | ExprKind::Bool(_) => false,
            ExprKind::Ident(x) => !matches!(
                self.lookup(&x.name),
                Some(Entity::Local { .. } | Entity::Param { .. } | Entity::SharedScalar { .. } | Entity::Private { .. })
            ),
            ExprKind::Member(b, _) => !matches!(&b.kind, ExprKind::Ident(x) if ["threadIdx", "blockIdx", "blockDim", "gridDim"].contains(&x.name.as_str()) && self.lookup(&x.name).is_none()),
            ExprKind::Index(a, _) => match &a.kind {
                ExprKind::Ident(x) => !matches!(self.lookup(&x.name), Some(Entity::Array { agg: None, .. } | Entity::Table { agg: None, .. })),
                _ => true,
            },
            ExprKind::Cast(t, _) => t.ptrs == 0 && !t.specs.iter().all(|s| SCALAR_WORDS.contains(&s.word.as_str())),
            ExprKind::Binary(BOp::Lt | BOp::Gt | BOp::Le | BOp::Ge | BOp::Eq | BOp::Ne | BOp::LAnd | BOp::LOr, ..) if !self.has_operator_function(e) => false,
            ExprKind::Binary(_, a, b) => self.may_be_aggregate(a) || self.may_be_aggregate(b),
            ExprKind::Unary(UOp::Not, _) if !self.has_operator_function(e) => false,
            ExprKind::Unary(_, a) => self.may_be_aggregate(a),
            _ => true,
        }
    }

    /// The operator function `e` calls, given its operands' types: `None` where it calls
    /// none (kpl's own operator applies).
    fn operator_function(&mut self, e: &Expr, types: &[Option<CType>], report: bool) -> Option<Callee<'u>> {
        let (name, _) = operation(e)?;
        if !types.iter().any(aggregate) {
            return None;
        }
        let cands = self.candidates(&name)?;
        match self.choose(&name, &cands, types, &[], e.span, report) {
            Callee::Builtin => None,
            c => Some(c),
        }
    }

    /// `e` as the call of the operator function it calls (`a + b` → `__kpl_op_add(a, b)`),
    /// or `None`. A call kpl cannot choose is given too: lowering it says why.
    pub(crate) fn operator_call(&mut self, e: &Expr) -> Option<Expr> {
        if !self.has_operator_function(e) {
            return None;
        }
        let (name, args) = operation(e)?;
        let n = self.errors.len();
        let types: Vec<Option<CType>> = args.iter().map(|a| self.argument_type(a)).collect();
        self.errors.truncate(n);
        self.operator_function(e, &types, false)?;
        let f = Expr::new(ExprKind::Ident(Ident { name, span: e.span }), e.span);
        Some(Expr::new(ExprKind::Call(Box::new(f), args.into_iter().cloned().collect()), e.span))
    }

    /// The type of an operation (`a + b`, `-a`, `a += b`) where kpl can tell it: the
    /// result type of the operator function it calls, else of kpl's operator (arithmetic
    /// of `int`, `uint` and `float`; vectors component by component, a comparison of
    /// vectors giving an `int` vector).
    pub(crate) fn operation_type(&mut self, e: &Expr) -> Option<CType> {
        let (_, args) = operation(e)?;
        let types: Vec<Option<CType>> = args.iter().map(|a| self.argument_type(a)).collect();
        if self.has_operator_function(e) {
            match self.operator_function(e, &types, false) {
                Some(Callee::User(f)) => return self.result_type(f),
                // Refused when lowered; typed as what every candidate gives, so that the
                // lowering reaches the call and says why.
                Some(_) => {
                    let cands = self.candidates(&operation(e)?.0)?;
                    let results: Vec<Option<CType>> = cands.iter().map(|f| self.result_type(f)).collect();
                    return results.iter().all(|r| *r == results[0]).then(|| results[0].clone()).flatten();
                }
                None => {}
            }
        }
        let vector = |t: &Option<CType>| t.clone().filter(|t| matches!(t, CType::Vector(..) | CType::Struct(_)));
        match (&e.kind, types.as_slice()) {
            (ExprKind::Assign(..), [l, _]) => l.clone(),
            (ExprKind::Unary(UOp::Neg | UOp::Plus | UOp::BitNot, _), [t]) => t.clone(),
            (ExprKind::Binary(op, ..), [Some(CType::Scalar(x)), Some(CType::Scalar(y))]) => {
                // C's usual arithmetic conversions; a 64-bit result is left untyped.
                let t = Self::common(*x, *y);
                (matches!(op, BOp::Add | BOp::Sub | BOp::Mul | BOp::Div) && !matches!(t, crate::lower::values::Ty::Long { .. })).then_some(CType::Scalar(t))
            }
            (ExprKind::Binary(op, ..), [a, b]) => {
                let t = vector(a).or_else(|| vector(b))?;
                match (op, &t) {
                    (BOp::Lt | BOp::Gt | BOp::Le | BOp::Ge | BOp::Eq | BOp::Ne, CType::Vector(_, n)) => Some(CType::Vector(crate::lower::values::Ty::Int, *n)),
                    _ => Some(t),
                }
            }
            _ => None,
        }
    }

    /// What a function returns, as a type (`None` for pointers).
    pub(crate) fn result_type(&mut self, f: &Func) -> Option<CType> {
        (f.ptrs == 0).then(|| self.spec_type(&f.specs))
    }
}
