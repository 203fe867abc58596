//! Function pointers: a function-pointer value is a word naming a function of the file
//! (its position among the non-kernel functions, from 1; 0 is `NULL`), so pointers can be
//! stored, passed as kernel parameters (arbitrary, as GPUVerify takes them) and compared.
//! A call through one dispatches on the value to each function that takes that many
//! arguments, inlined in its branch; any other value (`NULL`, a cast integer) is an
//! assertion failure: a call through a null or unknown function pointer.

use crate::lower::context::{Lower, Ret};
use crate::lower::values::{Ty, Val, bin, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, BinOp};
use kpl_lang::span::Span;

impl<'u> Lower<'u> {
    /// The value naming function `name`, if it is a function of the file.
    pub(crate) fn function_value(&self, name: &str) -> Option<u64> {
        // An overloaded name names no one function (refused where it is used as a value).
        if self.overloads.contains_key(name) {
            return None;
        }
        self.fn_order.iter().position(|f| f == name).map(|i| i as u64 + 1)
    }

    /// A call through a function-pointer value `f`.
    pub(crate) fn indirect_call(&mut self, f: &Expr, args: &[Expr], span: Span) -> Val {
        let v = self.expr(f);
        let v = self.bind_temp(v, f.span);
        let targets: Vec<(u64, &'u Func)> = self
            .fn_order
            .clone()
            .iter()
            .filter_map(|n| Some((self.function_value(n)?, *self.funcs.get(n)?)))
            .filter(|(_, func)| {
                let params = func.params.iter().filter(|p| !(p.name.is_none() && p.ptrs.is_empty() && p.specs.iter().any(|s| s.word == "void"))).count();
                params == args.len()
            })
            .collect();
        let rty = targets.first().map(|(_, func)| self.base_type(&func.specs)).unwrap_or(Ty::Void);
        let result = (rty != Ty::Void).then(|| self.fresh("fnptr_result"));
        if let Some(r) = &result {
            self.emit(k::StmtKind::Local(sp_id(r, span), Some(k::Expr::num(0, span))), span);
        }
        // if v == id1 { r := f1(args) } else if v == id2 { ... } else { assert false }
        let mut chain = k::Block {
            stmts: vec![k::Stmt { kind: k::StmtKind::Assert(k::Expr::num(0, span), false), span }],
            span,
        };
        for (id, func) in targets.into_iter().rev() {
            let r = result.clone();
            let then = self.sub_block(
                |l| {
                    if let Some(Ret::Scalar(e, ty)) = l.inline_call(func, args, span) {
                        if let Some(r) = &r {
                            let e = l.convert(Val { e, ty }, rty, span);
                            l.emit(k::StmtKind::Assign(sp_id(r, span), e), span);
                        }
                    }
                },
                span,
            );
            let test = bin(BinOp::Eq, v.e.clone(), k::Expr::num(id, span), span);
            let stmt = k::Stmt { kind: k::StmtKind::If(test, then, Some(Box::new(k::Else::Block(chain)))), span };
            chain = k::Block { stmts: vec![stmt], span };
        }
        for s in chain.stmts {
            self.emit(s.kind, s.span);
        }
        match result {
            Some(r) => Val { e: k::Expr::var(&r, span), ty: rty },
            None => Val { e: k::Expr::num(0, span), ty: Ty::Void },
        }
    }
}
