//! Arrays compared with `NULL`: the host may pass a kernel's pointer parameter as `NULL`
//! (an optional input or output, `if (bias != nullptr)`), so whether it is null is a
//! parameter of its own, arbitrary and the same for every thread, made on the first
//! comparison that asks; every other array (shared, private, a kernel's `__local`
//! parameter) is never null. Accesses through a pointer the kernel has not checked are taken
//! as accesses of its array, as everywhere else in kpl.

use crate::lower::context::Lower;
use crate::lower::multiptr::null_const;
use crate::lower::values::{sp_id, Entity};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, DeclKind};
use kpl_lang::span::Span;

impl<'u> Lower<'u> {
    /// `a` or `b` an array and the other `NULL`: whether the array is null (`None` for any
    /// other comparison).
    pub(crate) fn null_compare(&mut self, a: &Expr, b: &Expr, span: Span) -> Option<k::Expr> {
        let array = if null_const(b) {
            a
        } else if null_const(a) {
            b
        } else {
            return None;
        };
        self.is_null(array, span)
    }

    /// Whether the array `e` names (`p`, `p + i`, `&p[i]`) is null, if it names one.
    pub(crate) fn is_null(&mut self, e: &Expr, span: Span) -> Option<k::Expr> {
        if !self.names_array(e) {
            return None;
        }
        let Some(Entity::Array { kpl, .. }) = self.array_argument(e, false) else { return None };
        if !self.param_arrays.contains(&kpl) {
            return Some(k::Expr::num(0, span));
        }
        let flag = match self.null_flags.get(&kpl) {
            Some(f) => f.clone(),
            None => {
                let name = self.array_layouts.names.get(&kpl).cloned().unwrap_or_else(|| kpl.clone());
                let f = self.fresh(&format!("{name}_is_null"));
                self.decls.push(k::Decl { kind: DeclKind::Param(sp_id(&f, span)), span });
                self.null_flags.insert(kpl, f.clone());
                f
            }
        };
        Some(k::Expr::new(k::ExprKind::Binary(k::BinOp::Ne, Box::new(k::Expr::var(&flag, span)), Box::new(k::Expr::num(0, span))), span))
    }
}
