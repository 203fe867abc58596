//! C++ references: parameters of `__device__` functions (`float3 &v`, `const T &x`), where
//! the inlined function sees the caller's object itself, and local references
//! (`uint &e = a[i];`), another name for an object from their declaration on. A variable
//! is shared by name; an element of memory is fixed where the reference is bound (its
//! index computed once) and read and written where the reference is used; a `const`
//! reference to a value that is no object is a copy.

use crate::lower::context::Lower;
use crate::lower::values::{CType, Entity, Leaf, Lv, Place, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast as k;

impl<'u> Lower<'u> {
    /// What reference parameter `p` of a function refers to for argument `a`; `assigned`:
    /// the function assigns the parameter.
    pub(crate) fn reference_argument(&mut self, p: &Param, a: &Expr, assigned: bool) -> Option<Entity> {
        let const_param = p.specs.iter().any(|s| s.word == "const");
        if !p.ptrs.is_empty() || p.dims > 0 {
            self.unsupported("a reference to a pointer or an array", p.span);
            return None;
        }
        let object = matches!(
            &a.kind,
            ExprKind::Ident(_) | ExprKind::Index(..) | ExprKind::Member(..) | ExprKind::Unary(UOp::Deref, _)
        );
        if !object {
            if !const_param {
                self.err("a reference that is not `const` needs a variable or an element of memory", a.span);
                return None;
            }
            return self.reference_copy(p, a);
        }
        if let ExprKind::Ident(x) = &a.kind {
            match self.lookup(&x.name) {
                Some(Entity::Param { .. }) if assigned => {
                    self.unsupported("passing a kernel parameter to a reference that the function assigns", a.span);
                    return None;
                }
                Some(e @ (Entity::Local { .. } | Entity::Param { .. } | Entity::Record { .. } | Entity::Private { .. } | Entity::SharedScalar { .. })) => {
                    return Some(e)
                }
                _ => {}
            }
        }
        let span = a.span;
        match self.lvalue(a)? {
            Lv::Word(Place::Local(kpl, ty)) => Some(Entity::Local { kpl, ty }),
            Lv::Word(Place::Elem { array, index, elem, readonly }) => {
                if readonly && assigned {
                    self.err("writing to constant memory or through a `const` pointer", span);
                    return None;
                }
                let base = self.fixed_index(index, span);
                Some(Entity::Private { kpl: array, base, ty: elem })
            }
            Lv::Word(Place::Const(..)) if assigned => {
                self.err("writing to constant memory or through a `const` pointer", span);
                None
            }
            Lv::Word(Place::Const(..)) => self.reference_copy(p, a),
            Lv::Word(Place::Pair { .. } | Place::Bytes { .. }) => {
                self.unsupported("this reference argument", span);
                None
            }
            Lv::Agg(ty, leaves) => {
                let mut fixed = Vec::with_capacity(leaves.len());
                for l in leaves {
                    fixed.push(match l {
                        Leaf::Word(Place::Elem { readonly: true, .. } | Place::Bytes { readonly: true, .. }) if assigned => {
                            self.err("writing to constant memory or through a `const` pointer", span);
                            return None;
                        }
                        Leaf::Word(Place::Elem { array, index, elem, readonly }) => {
                            let index = k::Expr::var(&self.fixed_index(index, span), span);
                            Leaf::Word(Place::Elem { array, index, elem, readonly })
                        }
                        Leaf::Word(Place::Bytes { array, index, n, elem, readonly }) => {
                            let index = k::Expr::var(&self.fixed_index(index, span), span);
                            Leaf::Word(Place::Bytes { array, index, n, elem, readonly })
                        }
                        other => other,
                    });
                }
                Some(Entity::Record { ty, leaves: fixed })
            }
            Lv::Array(e) => Some(e),
            Lv::PtrWord(_) => {
                self.unsupported("a reference to a pointer field", span);
                None
            }
        }
    }

    /// `T &x = e;` in a block: `x` names what `e` denotes, as a reference parameter would
    /// (one that is not `const` is taken as assigned).
    pub(crate) fn local_reference(&mut self, d: &Decl, x: &Declarator) {
        let Some(Init::Expr(init)) = &x.init else {
            self.err(format!("the reference `{}` needs an initialiser (C++ binds a reference where it is declared)", x.name.name), x.span);
            self.bind(&x.name.name, Entity::Invalid);
            return;
        };
        let p = Param {
            specs: d.specs.clone(),
            ptrs: vec![Vec::new(); x.ptrs],
            reference: true,
            name: Some(x.name.clone()),
            dims: x.dims.len(),
            dim_sizes: x.dims.clone(),
            span: x.span,
        };
        let assigned = !d.specs.iter().any(|s| s.word == "const");
        let entity = self.reference_argument(&p, init, assigned).unwrap_or(Entity::Invalid);
        self.bind(&x.name.name, entity);
    }

    /// A local holding `index` as it is at the call.
    fn fixed_index(&mut self, index: k::Expr, span: kpl_lang::span::Span) -> String {
        let t = self.fresh("ref_index");
        self.emit(k::StmtKind::Local(sp_id(&t, span), Some(index)), span);
        t
    }

    /// A `const` reference bound to a value: a copy, as for a by-value parameter.
    fn reference_copy(&mut self, p: &Param, a: &Expr) -> Option<Entity> {
        let pty = if crate::lower::auto_types::is_auto(&p.specs) {
            let Some(t) = self.deduced_type(a) else {
                self.err("kpl cannot tell the type of this `auto` reference's initialiser: write its type instead of `auto`", a.span);
                return None;
            };
            t
        } else {
            self.spec_type(&p.specs)
        };
        let name = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| "arg".into());
        if pty.is_aggregate() {
            // A 64-bit value is no struct: its two words (as a by-value parameter takes it).
            let v = match pty {
                CType::Long(_) => self.long_leaves(a),
                _ => self.agg_value(a)?.leaves,
            };
            let leaves = self.record_locals(&format!("ref_{name}"), &pty, Some(v), a.span);
            return Some(Entity::Record { ty: pty, leaves });
        }
        let ty = match pty {
            CType::Scalar(t) => t,
            _ => self.base_type(&p.specs),
        };
        let v = self.expr(a);
        let v = self.convert(v, ty, a.span);
        let local = self.fresh(&format!("ref_{name}"));
        self.emit(k::StmtKind::Local(sp_id(&local, a.span), Some(v)), a.span);
        Some(Entity::Local { kpl: local, ty })
    }
}
