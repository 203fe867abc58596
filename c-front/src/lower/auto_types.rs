//! C++ `auto` locals (`auto i = blockIdx.x * blockDim.x + threadIdx.x;`, `auto v = p[i];`,
//! `auto q = &a[k];`): the variable takes the type of its initialiser, as far as kpl can
//! tell it without lowering it (a variable, field or element, a literal, a cast, a call, an
//! operation on those); a pointer initialiser makes a pointer variable. Where kpl cannot
//! tell the type, the declaration is refused and asks for the type to be written.

use crate::lower::context::Lower;
use crate::lower::values::{CType, Entity, Ty};
use crate::syntax::ast::*;
use kpl_lang::span::Span;

/// Declaration specifiers with `auto` among them.
pub(crate) fn is_auto(specs: &[Spec]) -> bool {
    specs.iter().any(|s| s.word == "auto")
}

/// The specifier words of a scalar type.
fn scalar_words(t: Ty) -> Option<&'static [&'static str]> {
    Some(match t {
        Ty::Int => &["int"],
        Ty::UInt => &["unsigned"],
        Ty::Bool => &["bool"],
        Ty::Float => &["float"],
        Ty::Narrow { bits: 8, signed: true } => &["signed", "char"],
        Ty::Narrow { bits: 8, signed: false } => &["unsigned", "char"],
        Ty::Narrow { bits: 16, signed: true } => &["short"],
        Ty::Narrow { bits: 16, signed: false } => &["unsigned", "short"],
        Ty::Long { signed: true } => &["int64_t"],
        Ty::Long { signed: false } => &["uint64_t"],
        Ty::Void | Ty::Narrow { .. } => return None,
    })
}

impl<'u> Lower<'u> {
    /// Does `e` denote a pointer (so `auto p = e;` declares a pointer variable)?
    fn denotes_pointer(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Unary(UOp::Addr, _) => true,
            ExprKind::Ident(x) => matches!(self.lookup(&x.name), Some(Entity::Array { .. } | Entity::Ptr { .. } | Entity::PendingPtr { .. })),
            ExprKind::Cast(t, _) => t.ptrs > 0,
            ExprKind::Binary(BOp::Add, a, b) => self.denotes_pointer(a) || self.denotes_pointer(b),
            // A difference of two pointers is an integer.
            ExprKind::Binary(BOp::Sub, a, b) => self.denotes_pointer(a) && !self.denotes_pointer(b),
            ExprKind::Cond(_, a, _) | ExprKind::Comma(_, a) => self.denotes_pointer(a),
            _ => false,
        }
    }

    /// The type `auto` deduces from `e` (C++'s: no promotion of a variable's `char`, a
    /// comparison is a `bool`), where kpl can tell it without lowering `e`.
    pub(crate) fn deduced_type(&mut self, e: &Expr) -> Option<CType> {
        if let Some(t @ (CType::Scalar(_) | CType::Vector(..) | CType::Struct(_) | CType::Long(_))) = self.static_type(e) {
            return Some(t);
        }
        let scalar = |l: &mut Self, e: &Expr| match l.deduced_type(e)? {
            CType::Scalar(t) => Some(t),
            CType::Long(signed) => Some(Ty::Long { signed }),
            _ => None,
        };
        let t = match &e.kind {
            ExprKind::Int(_, unsigned) => if *unsigned { Ty::UInt } else { Ty::Int },
            ExprKind::LongInt(_, unsigned) => Ty::Long { signed: !*unsigned },
            ExprKind::Float(_) => Ty::Float,
            ExprKind::Char(_) => Ty::Narrow { bits: 8, signed: true },
            ExprKind::Bool(_) => Ty::Bool,
            ExprKind::Unary(UOp::Not, _) => Ty::Bool,
            ExprKind::Binary(BOp::Lt | BOp::Gt | BOp::Le | BOp::Ge | BOp::Eq | BOp::Ne | BOp::LAnd | BOp::LOr, ..) => Ty::Bool,
            ExprKind::Unary(UOp::Neg | UOp::Plus | UOp::BitNot, a) => Lower::common(scalar(self, a)?, Ty::Int),
            ExprKind::Binary(BOp::Shl | BOp::Shr, a, _) => Lower::common(scalar(self, a)?, Ty::Int),
            ExprKind::Binary(_, a, b) | ExprKind::Cond(_, a, b) => {
                let (x, y) = (scalar(self, a)?, scalar(self, b)?);
                Lower::common(x, y)
            }
            ExprKind::Comma(_, b) => return self.deduced_type(b),
            _ => return self.argument_type(e),
        };
        Some(match t {
            Ty::Long { signed } => CType::Long(signed),
            t => CType::Scalar(t),
        })
    }

    /// `auto x = e;` (with `const`, `static` and the like kept): `x` declared with the type
    /// of `e`.
    pub(crate) fn auto_decl(&mut self, d: &Decl, x: &Declarator) {
        let span = x.span;
        let refuse = |l: &mut Self, msg: &str| {
            l.err(msg.to_string(), span);
            l.bind(&x.name.name, Entity::Invalid);
        };
        if !x.dims.is_empty() {
            return refuse(self, "an array cannot be declared `auto`");
        }
        let Some(Init::Expr(init)) = &x.init else {
            return refuse(self, "an `auto` variable needs an initialiser expression to take its type from");
        };
        let kept: Vec<Spec> = d.specs.iter().filter(|s| s.word != "auto").cloned().collect();
        let with = |words: &[&str], at: Span| -> Vec<Spec> {
            kept.iter().cloned().chain(words.iter().map(|w| Spec { word: w.to_string(), span: at })).collect()
        };
        if x.ptrs > 0 || self.denotes_pointer(init) {
            // The pointee's type comes from the array the initialiser points into.
            let p = Declarator { ptrs: x.ptrs.max(1), ..x.clone() };
            let pointee_const = kept.iter().any(|s| s.word == "const");
            return self.pointer_decl(&p, Ty::Int, pointee_const);
        }
        let words = match self.deduced_type(init) {
            Some(t @ (CType::Vector(..) | CType::Struct(_))) => return self.record_decl(x, &t),
            Some(CType::Scalar(t)) => scalar_words(t),
            Some(CType::Long(signed)) => scalar_words(Ty::Long { signed }),
            _ => None,
        };
        match words {
            Some(w) => self.local_decl(&Decl { specs: with(w, d.span), decls: vec![x.clone()], span: d.span }),
            None => refuse(self, "kpl cannot tell the type of this `auto` variable's initialiser: write its type instead of `auto`"),
        }
    }
}
