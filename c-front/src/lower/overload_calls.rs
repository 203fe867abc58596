//! The lowering's half of C++ overloads (`sema/overloads.rs` renames those of different
//! arities): overloads of one arity are chosen at each call by the arguments' types
//! (`Lower::resolve_call`, see `sema/overloads.rs`'s module doc).

use crate::lower::context::Lower;
use crate::lower::values::{CType, Ty};
use crate::syntax::ast::{Expr, ExprKind, Func, UOp};
use kpl_lang::span::Span;

/// What a call of a function name calls (`Lower::resolve_call`).
pub(crate) enum Callee<'u> {
    /// A function of the file.
    User(&'u Func),
    /// kpl's built-in of that name: no function of the file takes these arguments, and the
    /// name is a built-in's that the file's functions only overload (`float3 fminf(float3,
    /// float3)` beside `fminf(float, float)`, `make_float3(float2, float)` beside
    /// `make_float3(x, y, z)`), or no function of the file has the name.
    Builtin,
    /// kpl cannot choose (said when asked to report).
    Refused,
}

/// How well an argument fits a parameter.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fit {
    No,
    /// kpl cannot tell (the argument's or the parameter's type is unknown).
    Maybe,
    /// An arithmetic conversion between scalar types.
    Conversion,
    Exact,
}

fn scalar(t: &CType) -> bool {
    matches!(t, CType::Scalar(_) | CType::Long(_))
}

/// A name of kpl's built-ins that a file's function may overload: the math library, the
/// integer built-ins and the vector constructors and conversions.
fn builtin_name(n: &str) -> bool {
    crate::lower::builtins::lanewise(n) || n.starts_with("make_") || n.starts_with("convert_")
}

/// `operator+` for the name an operator function is given (`operators.rs`), else the name.
fn display(n: &str) -> String {
    crate::sema::operators::symbol(n).map_or_else(|| n.to_string(), |s| format!("operator{s}"))
}

impl<'u> Lower<'u> {
    /// The function a call of `name` with `args` calls (see the module doc and `Callee`);
    /// `Refused`, with a diagnostic when `report`, where kpl cannot choose.
    pub(crate) fn resolve_call(&mut self, name: &str, args: &[Expr], span: Span, report: bool) -> Callee<'u> {
        let Some(cands) = self.candidates(name) else { return Callee::Builtin };
        if let ([f], false) = (cands.as_slice(), builtin_name(name) || name.starts_with(crate::sema::operators::PREFIX)) {
            return Callee::User(f);
        }
        let n = self.errors.len();
        let types: Vec<Option<CType>> = args.iter().map(|a| self.argument_type(a)).collect();
        let pointees: Vec<Option<CType>> = args.iter().map(|a| self.argument_pointee(a)).collect();
        self.errors.truncate(n);
        self.choose(name, &cands, &types, &pointees, span, report)
    }

    /// The file's functions of one name: its overloads, or its one definition.
    pub(crate) fn candidates(&self, name: &str) -> Option<Vec<&'u Func>> {
        match self.overloads.get(name) {
            Some(v) => Some(v.clone()),
            None => self.funcs.get(name).map(|f| vec![*f]),
        }
    }

    /// The candidate of `cands` that arguments of `types` call: the one exact match, else
    /// the one that fits through arithmetic conversions of scalars; for a built-in's name,
    /// the built-in where no candidate can fit. `pointees`: what pointer arguments point to,
    /// where kpl can tell (empty: nowhere).
    pub(crate) fn choose(&mut self, name: &str, cands: &[&'u Func], types: &[Option<CType>], pointees: &[Option<CType>], span: Span, report: bool) -> Callee<'u> {
        let n = self.errors.len();
        let fits: Vec<Fit> = cands.iter().map(|f| self.fit(f, types, pointees)).collect();
        self.errors.truncate(n);
        let with = |w: &dyn Fn(Fit) -> bool| -> Vec<(&'u Func, Fit)> { cands.iter().copied().zip(fits.iter().copied()).filter(|(_, f)| w(*f)).collect() };
        let exact = with(&|f| f == Fit::Exact);
        let possible = with(&|f| f != Fit::No);
        let builtin = builtin_name(name) || name.starts_with(crate::sema::operators::PREFIX);
        match (exact.as_slice(), possible.as_slice()) {
            ([(f, _)], _) => return Callee::User(f),
            ([], []) if builtin => return Callee::Builtin,
            // One candidate can fit: through conversions, or (a built-in's name, which a
            // call with such arguments would otherwise reach) where kpl cannot tell.
            ([], [(f, fit)]) if builtin || *fit == Fit::Conversion => return Callee::User(f),
            _ => {}
        }
        if report {
            let shown = display(name);
            let why = match types.iter().position(Option::is_none) {
                Some(k) if exact.is_empty() => format!("kpl cannot tell the type of argument {} (it chooses by the types of variables, fields, elements, literals, casts and calls)", k + 1),
                _ if exact.len() > 1 => "several overloads match the arguments' types (`float` and `double` are one type to kpl)".to_string(),
                _ if possible.is_empty() => "no overload takes arguments of these types".to_string(),
                _ => "several overloads take these arguments through conversions (kpl chooses an exact match, or the one overload that fits)".to_string(),
            };
            self.unsupported(&format!("this call of the overloaded function `{shown}`: {why}"), span);
        }
        Callee::Refused
    }

    /// How arguments of `types` (pointing to `pointees`) fit `f`'s parameters: the worst of
    /// the arguments' fits.
    fn fit(&mut self, f: &Func, types: &[Option<CType>], pointees: &[Option<CType>]) -> Fit {
        if f.params.len() != types.len() {
            return Fit::No;
        }
        let mut worst = Fit::Exact;
        for (k, (p, t)) in f.params.iter().zip(types).enumerate() {
            let fit = match (self.parameter_type(p), t) {
                (Some(p), Some(t)) if p == *t => Fit::Exact,
                (Some(p), Some(t)) if scalar(&p) && scalar(t) => Fit::Conversion,
                (Some(_), Some(_)) => Fit::No,
                // A pointer or array parameter takes no value of a known type.
                (None, Some(_)) => Fit::No,
                // A pointer to one scalar type converts to no pointer to another (C++ has
                // no such implicit conversion; `void *` and classes are left undecided).
                (None, None) => match (self.parameter_pointee(p), pointees.get(k).cloned().flatten()) {
                    (Some(p), Some(a)) if p == a => Fit::Exact,
                    (Some(p @ CType::Scalar(_)), Some(a @ CType::Scalar(_))) if p != CType::Scalar(Ty::Void) && a != CType::Scalar(Ty::Void) => Fit::No,
                    _ => Fit::Maybe,
                },
                _ => Fit::Maybe,
            };
            worst = worst.min(fit);
        }
        worst
    }

    /// A parameter's type as an argument's is compared with it (`None` for pointers, arrays
    /// and references to them).
    fn parameter_type(&mut self, p: &crate::syntax::ast::Param) -> Option<CType> {
        (p.ptrs.is_empty() && p.dims == 0).then(|| self.spec_type(&p.specs))
    }

    /// What a one-level pointer parameter points to (`None` for anything else).
    fn parameter_pointee(&mut self, p: &crate::syntax::ast::Param) -> Option<CType> {
        (p.ptrs.len() == 1 && p.dims == 0 && !p.reference).then(|| self.spec_type(&p.specs))
    }

    /// What a pointer argument points to, where kpl can tell it without lowering it: `&e`
    /// (the type of `e`), an array or pointer variable, an offset from one, a cast to a
    /// pointer.
    fn argument_pointee(&mut self, e: &Expr) -> Option<CType> {
        match &e.kind {
            ExprKind::Unary(UOp::Addr, a) => self.static_type(a),
            ExprKind::Ident(_) | ExprKind::Binary(..) | ExprKind::Cast(..) => self.static_elem(e),
            _ => None,
        }
    }

    /// The type of an argument where kpl can tell it without lowering it: a variable, field
    /// or element (`static_type`), a literal, a cast, a call, and operations on those
    /// (`operation_type`).
    pub(crate) fn argument_type(&mut self, e: &Expr) -> Option<CType> {
        match &e.kind {
            ExprKind::Int(_, unsigned) => Some(CType::Scalar(if *unsigned { Ty::UInt } else { Ty::Int })),
            ExprKind::Float(_) => Some(CType::Scalar(Ty::Float)),
            ExprKind::Unary(UOp::Neg | UOp::Plus, a) if !self.has_operator_function(e) => self.argument_type(a),
            ExprKind::Binary(..) | ExprKind::Unary(UOp::Neg | UOp::Plus | UOp::BitNot, _) => self.operation_type(e),
            // CUDA's thread and block ids and sizes are `unsigned int`.
            ExprKind::Member(b, _) if matches!(&b.kind, ExprKind::Ident(x) if ["threadIdx", "blockIdx", "blockDim", "gridDim"].contains(&x.name.as_str()) && self.lookup(&x.name).is_none()) => {
                Some(CType::Scalar(Ty::UInt))
            }
            // A built-in of scalars (`fmaxf(a.x, a.y)`), which `static_type` leaves untyped.
            ExprKind::Call(f, args) if self.static_type(e).is_none() => {
                let ExprKind::Ident(x) = &f.kind else { return None };
                if !crate::lower::builtins::lanewise(&x.name) || self.lookup(&x.name).is_some() {
                    return None;
                }
                let mut types = Vec::new();
                for a in args {
                    match self.argument_type(a)? {
                        CType::Scalar(t) => types.push(t),
                        _ => return None,
                    }
                }
                crate::lower::builtins::scalar_result(&x.name, &types).map(CType::Scalar)
            }
            _ => match self.static_type(e)? {
                // A value of a narrow type is promoted; a variable of one is not an exact
                // match for `int`, so it is not typed here.
                CType::Scalar(Ty::Narrow { .. }) => None,
                t @ (CType::Scalar(_) | CType::Struct(_) | CType::Vector(..) | CType::Long(_)) => Some(t),
                _ => None,
            },
        }
    }
}
