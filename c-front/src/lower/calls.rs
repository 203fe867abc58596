//! Calls of `__device__` functions: inlined at each call (arguments bound, arrays passed by
//! reference, `return` as a flag), with their contracts (`requires`, `ensures`, function-wide
//! invariants), or by contract alone when the function has no body.

use crate::lower::ast_facts::{after_contract, annotation, assigned_names, both_called, function_wide, has_return, mentions_other, param_array_name};
use crate::lower::context::{Frame, Lower, Ret};
use crate::lower::values::{CType, Entity, Leaf, Place, Ty, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, Ident};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::{HashMap, HashSet};

impl<'u> Lower<'u> {
    /// The array a pointer argument of a `__device__` call names: `a`, `a + i` or `&a[i]`
    /// of a one-dimensional array of the caller (the offset is fixed at the call, in a
    /// fresh local). Anything else is refused, never guessed.
    pub(crate) fn array_argument(&mut self, a: &Expr, const_param: bool) -> Option<Entity> {
        let span = a.span;
        // `&s` of a struct or vector variable whose address is taken: its region.
        if let ExprKind::Unary(UOp::Addr, inner) = &a.kind {
            if let Some(region) = self.private_record(inner) {
                return Some(region);
            }
            // `&m` of a `__shared__` (or file-scope `__device__`) scalar: its one-element array.
            if let ExprKind::Ident(x) = &inner.kind {
                if let Some(Entity::SharedScalar { kpl, ty }) = self.lookup(&x.name) {
                    let readonly = self.constant_arrays.contains(&kpl);
                    return Some(Entity::Array { kpl, elem: ty, dims: vec![], readonly, offset: None, agg: None });
                }
            }
        }
        // `(float *)&v + 1`, `(T *)p + i`: the cast's view, moved on.
        if let Some((b, i)) = crate::lower::pointers::pointer_sum(a).filter(|(b, _)| matches!(b.kind, ExprKind::Cast(..))) {
            let view = self.array_argument(b, const_param)?;
            return Some(self.advanced(view, &i, "cast", span));
        }
        let sum = crate::lower::pointers::pointer_sum(a).filter(|(b, _)| matches!(b.kind, ExprKind::Ident(_) | ExprKind::Member(..)));
        let (base, off): (&Expr, Option<&Expr>) = match &a.kind {
            ExprKind::Cast(t, inner) if t.ptrs > 0 && !crate::lower::multiptr::null_const(inner) => {
                if let Some(moved) = self.moved_by_bytes(t, inner, const_param, span) {
                    return moved;
                }
                let src = self.array_argument(inner, const_param)?;
                return self.cast_view(t, src, span);
            }
            ExprKind::Ident(_) | ExprKind::Member(..) => (a, None),
            // `s.p[2]`: an element of an array of pointers in a struct variable.
            ExprKind::Index(..) if self.names_field_array(a) => (a, None),
            ExprKind::Binary(..) if sum.is_some() => sum.as_ref().map(|(b, o)| (*b, Some(o)))?,
            ExprKind::Unary(UOp::Addr, inner) if matches!(&inner.kind, ExprKind::Ident(x) if matches!(self.lookup(&x.name), Some(Entity::Private { .. }))) => {
                let ExprKind::Ident(x) = &inner.kind else { return None };
                let Some(Entity::Private { kpl, base, ty }) = self.lookup(&x.name) else { return None };
                return Some(self.private_pointer(&kpl, &base, ty));
            }
            ExprKind::Unary(UOp::Addr, inner) => match &inner.kind {
                ExprKind::Index(b, i) if matches!(b.kind, ExprKind::Ident(_) | ExprKind::Member(..)) => (&**b, Some(&**i)),
                // `&t[y][x]`: an element of a multi-dimensional array, at its row-major offset.
                ExprKind::Index(..) => {
                    let Some((x, flat)) = self.element_of_rows(inner) else {
                        self.unsupported("this pointer argument (kpl takes `a`, `a + i` or `&a[i]` of an array)", span);
                        return None;
                    };
                    let Some(Entity::Array { kpl, elem, readonly, offset, agg, .. }) = self.lookup(&x) else { return None };
                    let array = Entity::Array { kpl, elem, dims: vec![], readonly: readonly || const_param, offset, agg };
                    return Some(self.advanced(array, &flat, &x, span));
                }
                // `&s.f` of a struct in memory (a private region among them): the field's place.
                ExprKind::Member(..) => return self.field_pointer(inner),
                _ => {
                    self.unsupported("this pointer argument (kpl takes `a`, `a + i` or `&a[i]` of an array)", span);
                    return None;
                }
            },
            _ if self.pointer_in_memory(a) => {
                self.unsupported("a pointer read from memory (kpl cannot tell which array it points into)", span);
                return None;
            }
            _ => {
                self.unsupported("this pointer argument (kpl takes `a`, `a + i` or `&a[i]` of an array)", span);
                return None;
            }
        };
        let entity = match &base.kind {
            ExprKind::Ident(x) => self.lookup(&x.name),
            _ => self.lvalue(base).and_then(|lv| match lv {
                crate::lower::values::Lv::Array(a) => Some(a),
                _ => None,
            }),
        };
        if let Some(Entity::PendingPtr { .. }) = entity {
            self.pending_pointer(base);
            return None;
        }
        let Some(Entity::Array { kpl, elem, dims, readonly, offset, agg }) = entity else {
            let what = match &base.kind {
                ExprKind::Ident(x) => format!("`{}`", x.name),
                _ => "this".into(),
            };
            self.err(format!("{what} is not an array: kpl passes only arrays to pointer parameters"), base.span);
            return None;
        };
        let name = match &base.kind {
            ExprKind::Ident(x) => x.name.clone(),
            _ => kpl.clone(),
        };
        if dims.len() > 1 {
            self.unsupported("passing a two-dimensional array to a pointer parameter", span);
            return None;
        }
        let array = Entity::Array { kpl, elem, dims: vec![], readonly: readonly || const_param, offset, agg };
        match off {
            None => Some(array),
            Some(e) => Some(self.advanced(array, e, &name, span)),
        }
    }

    /// The dimensions of a multi-dimensional array parameter (`float a[][16]`, `float
    /// b[8][16]`) as an array entity's: the first unused (a parameter's extent is not
    /// known; indexing uses only the sizes after it), then the constant sizes after it.
    /// Empty for a pointer or a one-dimensional array parameter; `None` (reported) where
    /// a size after the first is not a constant.
    pub(crate) fn param_dims(&mut self, p: &Param) -> Option<Vec<u32>> {
        if p.dims < 2 || !p.ptrs.is_empty() {
            return Some(Vec::new());
        }
        let mut dims = vec![0];
        for d in p.dim_sizes.iter().skip(1) {
            match d.as_ref().and_then(|e| self.const_eval(e)).filter(|&n| n > 0 && n <= u32::MAX as i64) {
                Some(n) => dims.push(n as u32),
                None => {
                    let at = d.as_ref().map_or(p.span, |e| e.span);
                    self.err("a multi-dimensional array parameter needs a constant positive size in every bracket after the first", at);
                    return None;
                }
            }
        }
        Some(dims)
    }

    /// The argument of a multi-dimensional array parameter of shape `shape`
    /// (`param_dims`): an array of the same row sizes as it is, anything else as a pointer
    /// (`array_argument`) seen through the parameter's rows.
    pub(crate) fn shaped_argument(&mut self, a: &Expr, const_param: bool, shape: Vec<u32>) -> Option<Entity> {
        if let ExprKind::Ident(x) = &a.kind {
            if let Some(Entity::Array { kpl, elem, dims, readonly, offset, agg }) = self.lookup(&x.name) {
                if dims.len() == shape.len() && dims[1..] == shape[1..] {
                    return Some(Entity::Array { kpl, elem, dims, readonly: readonly || const_param, offset, agg });
                }
            }
        }
        match self.array_argument(a, const_param)? {
            Entity::Array { kpl, elem, readonly, offset, agg, .. } => Some(Entity::Array { kpl, elem, dims: shape, readonly, offset, agg }),
            e => Some(e),
        }
    }

    /// `t[i][j]...` naming one element of a multi-dimensional array variable `t` (as many
    /// indices as it has dimensions): `t`'s name, and the element's row-major offset as a C
    /// expression (`i * 8 + j` for `float t[4][8]`).
    fn element_of_rows(&mut self, e: &Expr) -> Option<(String, Expr)> {
        let mut indices = Vec::new();
        let mut cur = e;
        while let ExprKind::Index(b, i) = &cur.kind {
            indices.push(&**i);
            cur = b;
        }
        indices.reverse();
        let ExprKind::Ident(x) = &cur.kind else { return None };
        let Some(Entity::Array { dims, .. }) = self.lookup(&x.name) else { return None };
        if dims.len() < 2 || dims.len() != indices.len() {
            return None;
        }
        let span = e.span;
        let mut flat = indices[0].clone();
        for (d, i) in dims[1..].iter().zip(&indices[1..]) {
            let scaled = Expr::new(ExprKind::Binary(BOp::Mul, Box::new(flat), Box::new(Expr::new(ExprKind::Int(*d as u64, false), span))), span);
            flat = Expr::new(ExprKind::Binary(BOp::Add, Box::new(scaled), Box::new((*i).clone())), span);
        }
        Some((x.name.clone(), flat))
    }

    /// A pointer into an array moved on by `e` elements: its offset in a fresh local.
    pub(crate) fn advanced(&mut self, array: Entity, e: &Expr, name: &str, span: Span) -> Entity {
        let Entity::Array { kpl, elem, dims, readonly, offset, agg } = array else { return array };
        let v = self.expr(e);
        let mut i = self.convert(v, Ty::UInt, e.span);
        let w = self.elem_units(&kpl, elem, &agg);
        if w != 1 {
            i = k::Expr::new(k::ExprKind::Binary(k::BinOp::Mul, Box::new(i), Box::new(k::Expr::num(w as u64, span))), span);
        }
        if let Some(prev) = offset {
            i = k::Expr::new(k::ExprKind::Binary(k::BinOp::Add, Box::new(k::Expr::var(&prev, span)), Box::new(i)), span);
        }
        let local = self.fresh(&format!("{name}_offset"));
        self.emit(k::StmtKind::Local(sp_id(&local, span), Some(i)), span);
        Entity::Array { kpl, elem, dims, readonly, offset: Some(local), agg }
    }

    /// Inline a call of a `__device__` function; gives its result variable.
    pub fn inline_call(&mut self, f: &'u Func, args: &[Expr], span: Span) -> Option<Ret> {
        if self.frames.iter().any(|fr| fr.name == f.name.name) {
            self.errors.push(
                Diagnostic::error(format!("recursive call of `{}`", f.name.name), span)
                    .with_help("kernels cannot recurse (CUDA.md: no recursion)"),
            );
            return None;
        }
        let ptr_result = self.ptr_result.take();
        let Some(body) = &f.body else { return self.bodiless_call(f, args, span) };
        let params: Vec<&Param> = f.params.iter().filter(|p| !(p.name.is_none() && self.base_type(&p.specs) == Ty::Void)).collect();
        if params.len() != args.len() {
            self.err(format!("`{}` takes {} argument(s) but {} were given", f.name.name, params.len(), args.len()), span);
            return None;
        }
        // Arguments are evaluated in the caller, left to right, into fresh locals.
        let mut bound = Vec::new();
        let mut arrays = Vec::new();
        let mut agg_params = Vec::new();
        let mut ptr_params = Vec::new();
        // `T **p` given `&q` of a pointer variable: `*p` is `q` (`pointer_fields.rs`); the
        // caller's name, and the callee's name for `*p`.
        let mut ptr_refs: Vec<(String, String)> = Vec::new();
        let assigned = assigned_names(Some(body));
        // The caller's scalars the callee has by reference.
        let mut ref_locals = HashSet::new();
        for (p, a) in params.iter().zip(args) {
            if p.reference {
                let pname = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| "arg".into());
                let entity = self.reference_argument(p, a, assigned.contains(&pname))?;
                if let Entity::Local { kpl, .. } = &entity {
                    ref_locals.insert(kpl.clone());
                }
                arrays.push((pname, entity));
                continue;
            }
            if !p.ptrs.is_empty() || p.dims > 0 {
                let pname = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| "arg".into());
                if p.ptrs.len() == 2 && p.dims == 0 {
                    let (deref, entity, caller) = self.pointer_reference(&pname, a)?;
                    arrays.push((pname, Entity::Invalid));
                    arrays.push((deref.clone(), entity));
                    ptr_refs.push((caller, deref));
                    continue;
                }
                if p.ptrs.len() > 1 {
                    self.unsupported("a pointer to a pointer to a pointer as a parameter", p.span);
                    return None;
                }
                let const_param = p.specs.iter().any(|s| s.word == "const");
                if assigned.contains(&pname) {
                    // C parameters are assignable: the body's `p` is a pointer variable that
                    // starts where the argument points (`pointers.rs`).
                    let init = if crate::lower::multiptr::null_const(a) {
                        a.clone()
                    } else {
                        let entity = self.array_argument(a, const_param)?;
                        let hidden = param_array_name(&pname);
                        arrays.push((hidden.clone(), entity));
                        Expr::new(ExprKind::Ident(Ident { name: hidden, span: a.span }), a.span)
                    };
                    let name = p.name.clone().unwrap_or(Ident { name: pname, span: p.span });
                    ptr_params.push((Declarator { ptrs: 1, reference: false, name, dims: Vec::new(), init: Some(Init::Expr(init)), span: p.span }, self.base_type(&p.specs), const_param));
                    continue;
                }
                if crate::lower::multiptr::null_const(a) {
                    // `f(NULL)`: any access through the parameter fails.
                    let e = self.null_pointer(&pname, a.span);
                    self.has_multi = true;
                    arrays.push((pname, e));
                    continue;
                }
                let shape = self.param_dims(p)?;
                let entity = if shape.len() > 1 { self.shaped_argument(a, const_param, shape)? } else { self.array_argument(a, const_param)? };
                arrays.push((pname, entity));
                continue;
            }
            let pname = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| "arg".into());
            let pty = self.spec_type(&p.specs);
            if self.param_in_memory(f, &pname, &pty) {
                // A parameter whose address is taken (or whose array field is indexed): a
                // private region holding the argument, as for such a local.
                let entity = self.private_param(&pname, &pty, &p.specs, a, p.span)?;
                agg_params.push((pname, entity));
                continue;
            }
            if pty.is_aggregate() {
                // A struct or vector by value: fresh locals holding a copy.
                let v = match self.agg_type(a) {
                    None if matches!(pty, CType::Long(_)) => crate::lower::values::AggVal { ty: pty.clone(), leaves: self.long_leaves(a) },
                    Some(_) => self.agg_value(a)?,
                    None => {
                        self.err(format!("`{}` needs a `{}` here", f.name.name, self.type_name(&pty)), a.span);
                        return None;
                    }
                };
                let leaves = self.record_locals(&format!("{}_{}", f.name.name, pname), &pty, Some(v.leaves), a.span);
                agg_params.push((pname, Entity::Record { ty: pty, leaves }));
                continue;
            }
            let ty = self.base_type(&p.specs);
            let v = self.expr(a);
            let v = self.convert(v, ty, a.span);
            let local = self.fresh(&format!("{}_{}", f.name.name, pname));
            self.emit(k::StmtKind::Local(sp_id(&local, a.span), Some(v)), a.span);
            bound.push((pname, local, ty));
        }
        let rct = self.spec_type(&f.specs);
        let agg_result = (f.ptrs == 0 && rct.is_aggregate()).then(|| {
            let leaves = self.record_locals(&format!("{}_result", f.name.name), &rct, None, span);
            (rct.clone(), leaves)
        });
        let rty = if agg_result.is_some() { Ty::Void } else { self.base_type(&f.specs) };
        let result = (rty != Ty::Void && f.ptrs == 0).then(|| (self.fresh(&format!("{}_result", f.name.name)), rty));
        if let Some((r, _)) = &result {
            self.emit(k::StmtKind::Local(sp_id(r, span), Some(k::Expr::num(0, span))), span);
            if f.name.name.starts_with("__spec_") {
                // A specification function's result is what its `__ensures` say.
                self.emit(k::StmtKind::Havoc(sp_id(r, span)), span);
            }
        }
        let returned = has_return(&body.stmts).then(|| self.fresh(&format!("{}_returned", f.name.name)));
        if let Some(r) = &returned {
            self.emit(k::StmtKind::Local(sp_id(r, span), Some(k::Expr::num(0, span))), span);
        }
        // The callee sees its params and file-scope names only.
        let globals = self.scopes[0].clone();
        let saved = std::mem::replace(&mut self.scopes, vec![globals]);
        let mut scope = HashMap::new();
        let bound_locals: Vec<String> = bound.iter().map(|b| b.1.clone()).collect();
        for (c, kname, ty) in bound {
            scope.insert(c, Entity::Local { kpl: kname, ty });
        }
        for (c, entity) in arrays.into_iter().chain(agg_params) {
            // The pointer fields of a struct passed by value: the callee's own pointer
            // variables (`pointer_fields.rs`), declared with the copy.
            if let Entity::Record { leaves, .. } = &entity {
                for l in leaves {
                    if let Leaf::PtrVar(n) = l {
                        if let Some(e) = saved.iter().rev().find_map(|s| s.get(n)) {
                            scope.insert(n.clone(), e.clone());
                        }
                    }
                }
            }
            scope.insert(c, entity);
        }
        // A pointer result: the caller's variable, seen (and assigned) by the callee.
        let ptr_binding = ptr_result.as_ref().and_then(|r| Some((r.name.clone(), saved.iter().rev().find_map(|s| s.get(&r.name).cloned())?)));
        if let Some((n, e)) = &ptr_binding {
            scope.insert(n.clone(), e.clone());
        }
        self.scopes.push(scope);
        for (d, ty, readonly) in ptr_params {
            self.pointer_decl(&d, ty, readonly);
        }
        let wide = self.checked_function_wide(f, &body.stmts);
        let wide_spans = function_wide(&body.stmts).iter().map(|e| e.0.span).collect();
        let gotos = self.goto_flags(&body.stmts);
        self.frames.push(Frame {
            result: result.clone(),
            agg_result: agg_result.clone(),
            function_wide: wide,
            function_wide_spans: wide_spans,
            ptr_result: ptr_result.clone(),
            gotos,
            ..Frame::new(f.name.name.clone(), returned)
        });
        // `--no-inline`: a call with no effect another thread sees uses only the contract.
        let contract_effects = if self.contract_candidate(f) && agg_result.as_ref().is_none_or(|(_, ls)| ls.iter().all(|l| matches!(l, Leaf::Word(Place::Local(..))))) {
            let mut own: HashSet<String> = bound_locals.iter().cloned().collect();
            own.extend(result.iter().map(|r| r.0.clone()));
            own.extend(self.frame().returned.clone());
            self.pure_body(after_contract(&body.stmts), &own, &ref_locals, span)
        } else {
            None
        };
        if contract_effects.is_some() {
            self.frame().contract = true;
            self.array_layouts.contract_calls.insert(f.name.name.clone());
            // (`contract_candidate` leaves out specification functions, whose result is havocked above.)
            if let Some((r, _)) = &result {
                self.emit(k::StmtKind::Havoc(sp_id(r, span)), span);
            }
            for l in agg_result.iter().flat_map(|(_, ls)| ls) {
                if let Leaf::Word(Place::Local(name, _)) = l {
                    self.emit(k::StmtKind::Havoc(sp_id(name, span)), span);
                }
            }
        }
        let mut rest: &[Stmt] = &body.stmts;
        loop {
            let Some((first, tail)) = rest.split_first() else { break };
            let requires = annotation(first, "__requires").map(|e| (e, false));
            if let Some((e, global)) = requires.or_else(|| annotation(first, "__global_requires").map(|e| (e, true))) {
                let c = self.assertion_cond(e);
                // Checked at a call (`__global_requires` by every thread, calling or not);
                // assumed by the function's own check (`modular.rs`), where all threads call.
                let own_check = self.o.check_function.is_some() && self.frames.len() == 2;
                if !own_check {
                    let calls = self.array_layouts.preconditions.entry(first.span).or_default();
                    if !calls.contains(&span) {
                        calls.push(span);
                    }
                }
                self.emit(if own_check { k::StmtKind::Assume(c) } else { k::StmtKind::Assert(c, global) }, first.span);
            } else if let Some(e) = annotation(first, "__ensures") {
                self.postcondition(e, false);
            } else if let Some(e) = annotation(first, "__global_ensures") {
                self.postcondition(e, true);
            } else {
                break;
            }
            rest = tail;
        }
        match contract_effects {
            // What the body may have assigned in the caller (through references) is arbitrary.
            Some(assigned) => {
                for x in assigned {
                    self.emit(k::StmtKind::Havoc(sp_id(&x, span)), span);
                }
            }
            None => self.stmts(rest),
        }
        // Falling off the end (a void function) also establishes the postcondition.
        let ensures = self.frame().ensures.clone();
        if !ensures.is_empty() {
            let flag = self.frame().returned.clone();
            let checks = self.sub_block(
                |l| {
                    for en in &ensures {
                        let c = l.assertion_cond(en);
                        l.emit(k::StmtKind::Assert(c, false), en.span);
                    }
                },
                span,
            );
            match flag {
                Some(fl) => {
                    let not = k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(k::Expr::var(&fl, span))), span);
                    self.emit(k::StmtKind::If(not, checks, None), span);
                }
                None => {
                    if let Some(b) = self.blocks.last_mut() {
                        b.extend(checks.stmts);
                    }
                }
            }
        }
        self.global_ensures_at_end();
        self.frames.pop();
        let ptr_final = ptr_binding.and_then(|(n, _)| Some((n.clone(), self.lookup(&n)?)));
        // What the callee made of the caller's pointers it was given by reference.
        let refs_final: Vec<(String, Entity)> = ptr_refs.iter().filter_map(|(caller, deref)| Some((caller.clone(), self.lookup(deref)?))).collect();
        self.scopes = saved;
        if let Some((n, e)) = ptr_final {
            self.rebind(&n, e);
        }
        for (n, e) in refs_final {
            self.rebind(&n, e);
        }
        if let Some((ty, leaves)) = agg_result {
            let leaves = leaves
                .into_iter()
                .map(|l| match l {
                    Leaf::Word(p) => crate::lower::values::VLeaf::Word(self.read_place(&p, span)),
                    Leaf::Ptr(a) => crate::lower::values::VLeaf::Ptr(a),
                    Leaf::PtrVar(n) => crate::lower::values::VLeaf::Ptr(self.field_pointer_value(&n)),
                })
                .collect();
            return Some(Ret::Agg(crate::lower::values::AggVal { ty, leaves }));
        }
        Some(match result {
            Some((r, ty)) => Ret::Scalar(k::Expr::var(&r, span), ty),
            None => Ret::Scalar(k::Expr::num(0, span), Ty::Void),
        })
    }

    /// The spans of the current function's accepted function-wide invariants.
    pub(crate) fn frame_function_wide_spans(&mut self) -> Vec<Span> {
        self.frame().function_wide_spans.clone()
    }

    /// The function's `__global_ensures`, at its end: every thread checks them, whether it
    /// called the function, returned early or fell off the end.
    /// A specification function's postconditions are assumed there instead, those that
    /// read no memory first: what they say of its accesses (`__write_implies(p, ...)`)
    /// holds before the reads of the others are race-checked.
    pub(crate) fn global_ensures_at_end(&mut self) {
        let ensures = std::mem::take(&mut self.frame().global_ensures);
        for en in ensures {
            let c = self.assertion_cond(&en);
            self.emit(k::StmtKind::Assert(c, true), en.span);
        }
        let assumed = std::mem::take(&mut self.frame().assumed);
        let contract = self.frame().contract;
        let mut lowered: Vec<(k::Expr, Span)> = assumed
            .iter()
            .map(|en| {
                let c = self.assertion_cond(en);
                // A contract call's two-thread postcondition was proved of two threads that
                // both call: it says nothing where the other thread does not.
                let c = if contract && mentions_other(&c) { both_called(c, en.span) } else { c };
                (c, en.span)
            })
            .collect();
        lowered.sort_by_key(|(c, _)| c.has_reads());
        for (c, span) in lowered {
            self.emit(k::StmtKind::Assume(c), span);
        }
    }

    /// A function's function-wide invariants, refused (GPUVerify's rules) if one calls a
    /// function with a body or names a parameter the function assigns.
    pub(crate) fn checked_function_wide(&mut self, f: &Func, body: &[Stmt]) -> Vec<(Expr, bool)> {
        let assigned = assigned_names(f.body.as_ref());
        let params: Vec<&str> =
            f.params.iter().filter_map(|p| p.name.as_ref().map(|n| n.name.as_str())).filter(|n| assigned.contains(*n)).collect();
        let mut ok = Vec::new();
        for (e, candidate) in function_wide(body) {
            let mut bad: Option<&str> = None;
            let mut check = |x: &Expr| match &x.kind {
                ExprKind::Call(g, _) if matches!(&g.kind, ExprKind::Ident(n) if self.funcs.get(&n.name).is_some_and(|h| h.body.is_some())) => {
                    bad = Some("calls a function with a body")
                }
                ExprKind::Ident(n) if params.contains(&n.name.as_str()) => bad = Some("names a parameter the function assigns"),
                _ => {}
            };
            e.walk(&mut check);
            match bad {
                Some(why) => self.err(format!("a `__function_wide_invariant` that {why} (GPUVerify does not allow it)"), e.span),
                None => ok.push((e, candidate)),
            }
        }
        ok
    }

    /// A call of a function declared without a body (CUDA.md tier 2): its scalar arguments
    /// are evaluated, it has no other effect, and its result is arbitrary (GPUVerify's
    /// reading of an external function).
    pub(crate) fn bodiless_call(&mut self, f: &'u Func, args: &[Expr], span: Span) -> Option<Ret> {
        if f.specs.iter().any(|s| s.word == "_Noreturn") {
            // A call that never returns: reaching it is an error (GPUVerify's `unreachable`).
            self.emit(k::StmtKind::Assert(k::Expr::num(0, span), false), span);
        }
        for (i, a) in args.iter().enumerate() {
            let pointer = f.params.get(i).is_some_and(|p| !p.ptrs.is_empty() || p.dims > 0);
            if !pointer && self.agg_type(a).is_none() {
                self.expr_stmt(a);
            }
        }
        let rct = self.spec_type(&f.specs);
        if f.ptrs > 0 {
            self.unsupported(&format!("using the pointer `{}` returns (it has no body)", f.name.name), span);
            return None;
        }
        if rct.is_aggregate() {
            let leaves = self.record_locals(&format!("{}_result", f.name.name), &rct, None, span);
            let mut vals = Vec::new();
            for l in leaves {
                vals.push(match &l {
                    Leaf::Word(p @ Place::Local(n, _)) => {
                        self.emit(k::StmtKind::Havoc(sp_id(n, span)), span);
                        crate::lower::values::VLeaf::Word(self.read_place(p, span))
                    }
                    _ => crate::lower::values::VLeaf::Ptr(Entity::Invalid),
                });
            }
            return Some(Ret::Agg(crate::lower::values::AggVal { ty: rct, leaves: vals }));
        }
        let rty = self.base_type(&f.specs);
        if rty == Ty::Void {
            return Some(Ret::Scalar(k::Expr::num(0, span), Ty::Void));
        }
        let r = self.arbitrary(&format!("{}_result", f.name.name), rty, span);
        Some(Ret::Scalar(r.e, rty))
    }
}
