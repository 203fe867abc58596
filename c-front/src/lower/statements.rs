//! C statements ─► KPL statements: blocks, `if`, loops (`for` and `do` as `while`), `switch`,
//! `break`/`continue`/`goto` as flags, `return` (the paper's K-CALL), local declarations.

use crate::lower::ast_facts::{breaks_switch, condition_invariants, has_return, invariant_stmt, is_loop, stmt_returns};
use crate::lower::context::{ContinueAction, LoopCtx, Lower};
use crate::lower::values::{CType, Entity, Leaf, LeafTy, Place, Ty, Val, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast as k;
use kpl_lang::span::Span;
use std::collections::{HashMap, HashSet};

impl<'u> Lower<'u> {
    /// Lower a statement list; after a statement that may jump (`return`, `goto`, a
    /// switch's `break`), what it jumps over runs only in the threads that did not.
    pub fn stmts(&mut self, list: &[Stmt]) {
        // Flags that earlier statements of this list may have set (`return`, `goto`, a
        // switch's `break`): each skips what follows, up to its label in this list
        // (`Some(index)`) or to the end.
        let mut pending: Vec<(String, Option<usize>)> = Vec::new();
        let mut i = 0;
        while i < list.len() {
            pending.retain(|(_, until)| *until != Some(i));
            if !pending.is_empty() {
                let end = pending.iter().filter_map(|p| p.1).min().unwrap_or(list.len());
                let run = &list[i..end];
                let span = run[0].span.to(run[run.len() - 1].span);
                let cond = pending
                    .iter()
                    .map(|(f, _)| k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(k::Expr::var(f, span))), span))
                    .reduce(|a, b| k::Expr::new(k::ExprKind::Binary(k::BinOp::LAnd, Box::new(a), Box::new(b)), span))
                    .expect("pending is not empty");
                let body = self.sub_block(|l| l.stmts(run), span);
                self.emit(k::StmtKind::If(cond, body, None), span);
                // The run's own statements left their loops already (`if flag { break; }`).
                for j in i..end {
                    self.jumps_after(list, j, &mut pending, false);
                }
                i = end;
                continue;
            }
            let s = &list[i];
            if let Some(e) = invariant_stmt(s) {
                self.invariant_at_head(s.span, e.0);
                self.pending_invariants.push((e.0.clone(), e.1, s.span));
                i += 1;
                continue;
            }
            if !self.pending_invariants.is_empty() && !is_loop(s) {
                let call = self.pending_invariants.remove(0).2;
                self.misplaced_invariant(call);
                self.pending_invariants.clear();
            }
            self.stmt(s);
            self.jumps_after(list, i, &mut pending, true);
            i += 1;
        }
        // An invariant with no loop after it in its block (say, last in a loop body) is
        // not an invariant of any loop: an error, never silently dropped.
        if let Some((_, _, call)) = self.pending_invariants.first().cloned() {
            self.misplaced_invariant(call);
            self.pending_invariants.clear();
        }
    }

    /// After `list[i]`: for each jump it may make past its own end (`return`, a `goto` to a
    /// label outside it, a `break` of the innermost switch), the flag that says it did. A
    /// jump that leaves the innermost loop leaves it at once (`if flag { break; }`); any
    /// other skips the rest of the list, or up to its label when the label is in the list.
    pub(crate) fn jumps_after(&mut self, list: &[Stmt], i: usize, pending: &mut Vec<(String, Option<usize>)>, leave_loops: bool) {
        let s = &list[i];
        let span = s.span;
        let mut jumps: Vec<(String, Option<String>)> = Vec::new();
        if stmt_returns(s) {
            if let Some(r) = self.frame().returned.clone() {
                jumps.push((r, None));
            }
        }
        if !self.frame().gotos.is_empty() {
            for l in crate::lower::gotos::jumps_out(s) {
                if let Some(f) = self.frame().gotos.get(&l).cloned() {
                    jumps.push((f, Some(l)));
                }
            }
        }
        let done = self.frame().loops.last().and_then(|l| l.done.clone());
        for (flag, label) in jumps {
            let here = label.as_ref().and_then(|l| list[i + 1..].iter().position(|t| matches!(&t.kind, StmtKind::Label(x) if &x.name == l)));
            let leaves_loop = self.innermost_loop_labels().is_some_and(|ls| label.as_ref().is_none_or(|l| !ls.contains(l)));
            if let Some(p) = here {
                pending.push((flag, Some(i + 1 + p)));
            } else if leaves_loop {
                if !leave_loops || matches!(s.kind, StmtKind::Return(_) | StmtKind::Goto(_)) {
                    continue; // it breaks itself
                }
                let brk = k::Block { stmts: vec![k::Stmt { kind: k::StmtKind::Break, span }], span };
                self.emit(k::StmtKind::If(k::Expr::var(&flag, span), brk, None), span);
            } else if i + 1 < list.len() && !pending.iter().any(|p| p.0 == flag) {
                pending.push((flag, None));
            }
        }
        // After a `break` of the innermost switch (inside an `if`, say): the rest runs
        // only in the threads that did not break.
        if let (Some(done), true) = (done, i + 1 < list.len() && breaks_switch(s)) {
            if !pending.iter().any(|p| p.0 == done) {
                pending.push((done, None));
            }
        }
    }

    /// The labels in the innermost loop's body (`None` outside loops; a `switch` is not one).
    pub(crate) fn innermost_loop_labels(&mut self) -> Option<&HashSet<String>> {
        self.frame().loops.iter().rev().find(|l| !l.switch).map(|l| &l.labels)
    }

    /// The flags a thread that returned or is jumping to a label has set.
    pub(crate) fn jump_flags(&mut self) -> Vec<String> {
        let f = self.frame();
        f.returned.iter().cloned().chain(f.gotos.values().cloned()).collect()
    }

    /// A local flag, cleared, for each label a `goto` of `body` jumps to; errors for the
    /// `goto`s kpl does not lower.
    pub(crate) fn goto_flags(&mut self, body: &[Stmt]) -> HashMap<String, String> {
        let (targets, errors) = crate::lower::gotos::targets(body);
        self.errors.extend(errors);
        let mut out = HashMap::new();
        for l in targets {
            let flag = self.fresh(&format!("goto_{l}"));
            let span = body.first().map(|s| s.span).unwrap_or_default();
            self.emit(k::StmtKind::Local(sp_id(&flag, span), Some(k::Expr::num(0, span))), span);
            out.insert(l, flag);
        }
        out
    }

    /// Lower one statement; gives whether it may execute `return`.
    pub(crate) fn stmt(&mut self, s: &Stmt) -> bool {
        if let Some(s2) = self.with_pointer_fields(s) {
            return self.stmt(&s2);
        }
        if let Some(s2) = self.with_pointer_calls(s) {
            return self.stmt(&s2) || stmt_returns(s);
        }
        if self.split_on_targets(s) {
            return stmt_returns(s);
        }
        self.stmt_plain(s)
    }

    /// A statement that goes through no pointer with several targets.
    pub(crate) fn stmt_plain(&mut self, s: &Stmt) -> bool {
        let span = s.span;
        match &s.kind {
            StmtKind::Block(b) => {
                self.scopes.push(HashMap::new());
                self.stmts(&b.stmts);
                self.scopes.pop();
                has_return(&b.stmts)
            }
            StmtKind::Decl(d) => {
                self.local_decl(d);
                false
            }
            StmtKind::Expr(e) => {
                self.expr_stmt(e);
                false
            }
            StmtKind::If(c, t, e) => {
                let cv = self.cond(c);
                let tb = self.sub_block(|l| l.stmts(std::slice::from_ref(t)), t.span);
                let eb = e.as_ref().map(|e| Box::new(k::Else::Block(self.sub_block(|l| l.stmts(std::slice::from_ref(e)), e.span))));
                self.emit(k::StmtKind::If(cv, tb, eb), span);
                stmt_returns(t) || e.as_deref().is_some_and(stmt_returns)
            }
            StmtKind::While(c, body) => {
                self.loop_(Some(c), None, None, body, span);
                stmt_returns(body)
            }
            StmtKind::For(init, c, step, body) => {
                self.scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(e) = self.long_counter_candidate(init.as_deref(), step.as_ref(), span) {
                    self.pending_invariants.push((e, true, span));
                }
                self.loop_(c.as_ref(), step.as_ref(), None, body, span);
                self.scopes.pop();
                stmt_returns(body)
            }
            StmtKind::DoWhile(body, c) => {
                self.loop_(None, None, Some(c), body, span);
                stmt_returns(body)
            }
            StmtKind::Break => {
                match self.frame().loops.last().map(|l| l.done.clone()) {
                    None => self.err("`break` outside a loop", span),
                    // Ends the switch: the rest of it is skipped (`stmts`).
                    Some(Some(done)) => self.emit(k::StmtKind::Assign(sp_id(&done, span), k::Expr::num(1, span)), span),
                    Some(None) => self.emit(k::StmtKind::Break, span),
                }
                false
            }
            StmtKind::Switch(c, body) => self.switch(c, body, span),
            StmtKind::Case(_) => {
                self.err("a `case` label outside the statements of a `switch`", span);
                false
            }
            StmtKind::Continue => {
                let Some(ctx) = self.frame().loops.iter().rev().find(|l| !l.switch).map(|l| l.on_continue.clone()) else {
                    self.err("`continue` outside a loop", span);
                    return false;
                };
                for a in ctx {
                    match a {
                        ContinueAction::Step(e) => self.expr_stmt(&e),
                        ContinueAction::Check(c) => self.exit_unless(&c),
                    }
                }
                self.emit(k::StmtKind::Continue, span);
                false
            }
            StmtKind::Return(e) => {
                self.return_(e.as_ref(), span);
                true
            }
            StmtKind::Goto(l) => {
                if let Some(flag) = self.frame().gotos.get(&l.name).cloned() {
                    self.emit(k::StmtKind::Assign(sp_id(&flag, span), k::Expr::num(1, span)), span);
                    if self.innermost_loop_labels().is_some_and(|ls| !ls.contains(&l.name)) {
                        self.emit(k::StmtKind::Break, span);
                    }
                }
                false
            }
            StmtKind::Label(l) => {
                if let Some(flag) = self.frame().gotos.get(&l.name).cloned() {
                    self.emit(k::StmtKind::Assign(sp_id(&flag, span), k::Expr::num(0, span)), span);
                }
                false
            }
            StmtKind::Empty => false,
            StmtKind::Unsupported(what) => {
                self.unsupported(what, span);
                false
            }
            StmtKind::Error => false,
        }
    }

    /// `if !c { break; }` (with c's side effects first).
    pub(crate) fn exit_unless(&mut self, c: &Expr) {
        let cv = self.cond(c);
        let span = c.span;
        let not = k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(cv)), span);
        let brk = k::Block { stmts: vec![k::Stmt { kind: k::StmtKind::Break, span }], span };
        self.emit(k::StmtKind::If(not, brk, None), span);
    }

    /// `while (c) body`, `for (; c; step) body` and `do body while (dc)`, with invariants
    /// from just before the loop and from the start of its body.
    pub(crate) fn loop_(&mut self, c: Option<&Expr>, step: Option<&Expr>, do_cond: Option<&Expr>, body: &Stmt, span: Span) {
        let mut invs: Vec<(Expr, bool)> = std::mem::take(&mut self.pending_invariants).into_iter().map(|(e, cand, _)| (e, cand)).collect();
        invs.extend(self.frame().function_wide.iter().cloned());
        let c = c.map(|c| {
            let (in_cond, cond) = condition_invariants(c);
            for (call, e, _) in &in_cond {
                self.invariant_at_head(*call, e);
            }
            invs.extend(in_cond.into_iter().map(|(_, e, cand)| (e.clone(), cand)));
            cond
        });
        let stmts: &[Stmt] = match &body.kind {
            StmtKind::Block(b) => &b.stmts,
            _ => std::slice::from_ref(body),
        };
        let mut start = 0;
        while let Some((e, cand)) = stmts.get(start).and_then(invariant_stmt) {
            self.invariant_at_head(stmts[start].span, e);
            invs.push((e.clone(), cand));
            start += 1;
        }
        // GPUVerify's `--invariants-as-candidates` makes every invariant a candidate.
        let as_candidates = self.o.invariants_as_candidates;
        let mut invariants: Vec<k::Expr> = Vec::new();
        let mut candidates: Vec<k::Expr> = Vec::new();
        for (e, cand) in &invs {
            let what = if *cand || as_candidates { "a candidate invariant" } else { "a loop invariant" };
            let before = std::mem::replace(&mut self.in_loop_invariant, true);
            let k = self.pure_cond(e, what);
            self.in_loop_invariant = before;
            if *cand || as_candidates {
                candidates.push(k);
            } else {
                invariants.push(k);
            }
        }
        // A condition that needs statements (side effects, guarded reads) or a `do` loop
        // is checked inside `while true`.
        let simple = c.filter(|c| !self.emits_statements(c));
        let mut on_continue = Vec::new();
        if let Some(st) = step {
            on_continue.push(ContinueAction::Step(st.clone()));
        }
        if let Some(dc) = do_cond {
            on_continue.push(ContinueAction::Check(dc.clone()));
        }
        let mut labels = HashSet::new();
        crate::lower::gotos::labels_in(body, &mut labels);
        self.frame().loops.push(LoopCtx { on_continue, switch: false, done: None, labels });
        let cond_k = match simple {
            Some(c) => {
                self.blocks.push(Vec::new());
                let v = self.cond(c);
                let _ = self.blocks.pop();
                v
            }
            None => k::Expr::new(k::ExprKind::Bool(true), span),
        };
        let rest = &stmts[start..];
        let kbody = self.sub_block(
            |l| {
                if let (Some(c), None) = (c, simple) {
                    l.exit_unless(c);
                }
                l.stmts(rest);
                if let Some(st) = step {
                    l.expr_stmt(st);
                }
                if let Some(dc) = do_cond {
                    l.exit_unless(dc);
                }
            },
            body.span,
        );
        self.frame().loops.pop();
        self.emit(k::StmtKind::While { cond: cond_k, invariants, candidates, body: kbody }, span);
    }

    pub(crate) fn return_(&mut self, e: Option<&Expr>, span: Span) {
        let result = self.frame().result.clone();
        if let (Some(e), Some((ty, dst))) = (e, self.frame().agg_result.clone()) {
            let v = match ty {
                CType::Long(_) if self.agg_type(e).is_none() => Some(crate::lower::values::AggVal { ty, leaves: self.long_leaves(e) }),
                _ => self.agg_value(e),
            };
            if let Some(v) = v {
                self.write_leaves(&dst, v, span);
            }
        }
        let e = if self.frame().agg_result.is_some() { None } else { e };
        match (e, &result) {
            (Some(e), Some((var, ty))) => {
                let v = self.expr(e);
                let v = self.convert(v, *ty, e.span);
                self.emit(k::StmtKind::Assign(sp_id(var, span), v), span);
            }
            (Some(e), None) if self.frame().ptr_result.is_some() => {
                if let Some(p) = self.frame().ptr_result.clone() {
                    self.pointer_assign(&p, e, span);
                }
            }
            (Some(e), None) => {
                if self.frames.len() == 1 {
                    self.err("a kernel returns nothing", e.span);
                } else {
                    self.expr_stmt(e);
                }
            }
            (None, _) => {}
        }
        let ensures = self.frame().ensures.clone();
        for en in ensures {
            let c = self.assertion_cond(&en);
            self.emit(k::StmtKind::Assert(c, false), en.span);
        }
        if let Some(flag) = self.frame().returned.clone() {
            self.emit(k::StmtKind::Assign(sp_id(&flag, span), k::Expr::num(1, span)), span);
            if self.in_loop() {
                self.emit(k::StmtKind::Break, span);
            }
        }
    }

    pub(crate) fn local_decl(&mut self, d: &Decl) {
        if d.decls.is_empty() {
            // `struct s { ... };` declares a type only.
            return;
        }
        if self.static_storage(d) {
            return;
        }
        if d.decls.iter().any(|x| x.reference) || crate::lower::auto_types::is_auto(&d.specs) {
            for x in &d.decls {
                if x.reference {
                    self.local_reference(d, x);
                } else if crate::lower::auto_types::is_auto(&d.specs) {
                    self.auto_decl(d, x);
                } else {
                    self.local_decl(&Decl { specs: d.specs.clone(), decls: vec![x.clone()], span: d.span });
                }
            }
            return;
        }
        // `__local int *p`, `__global float *q`: the space is the pointee's; the pointer
        // itself is a private variable.
        if !d.decls.is_empty() && d.decls.iter().all(|x| x.ptrs > 0) {
            let (ty, _) = self.spec_type(&d.specs).split();
            let pointee_const = d.specs.iter().any(|s| s.word == "const");
            for x in &d.decls {
                self.pointer_decl(x, ty, pointee_const);
            }
            return;
        }
        if self.space(&d.specs) == Some("shared") {
            return self.shared_decl(d);
        }
        if self.space(&d.specs).is_some() {
            return self.unsupported("this variable's memory space inside a function", d.span);
        }
        let base = self.spec_type(&d.specs);
        let (ty, _) = base.clone().split();
        let pointee_const = d.specs.iter().any(|s| s.word == "const");
        for x in &d.decls {
            if x.ptrs > 0 {
                self.pointer_decl(x, ty, pointee_const);
                continue;
            }
            if !x.dims.is_empty() || self.in_memory(&x.name.name, &base) {
                self.private_decl(x, &base, &d.specs);
                continue;
            }
            if base.is_aggregate() {
                self.record_decl(x, &base);
                continue;
            }
            if ty == Ty::Void {
                self.err("a variable cannot be `void`", x.span);
                continue;
            }
            let init = match &x.init {
                Some(Init::Expr(e)) => {
                    let v = self.expr(e);
                    Some(self.convert(v, ty, e.span))
                }
                Some(Init::List(_, sp)) => {
                    self.unsupported("initialiser lists", *sp);
                    None
                }
                None => None,
            };
            let name = self.fresh(&x.name.name);
            if let Some(k::Expr { kind: k::ExprKind::Num(v), .. }) = &init {
                self.constant_locals.insert(name.clone(), *v);
            }
            if let (Some(Init::Expr(e)), true) = (&x.init, d.specs.iter().any(|s| s.word == "const") && matches!(ty, Ty::Int | Ty::UInt)) {
                if let Some(v) = self.const_eval(e) {
                    self.const_locals.insert(name.clone(), if ty == Ty::Int { v as i32 as i64 } else { v as u32 as i64 });
                }
            }
            let havoc = init.is_none() && self.indeterminate.contains(&x.span);
            self.emit(k::StmtKind::Local(sp_id(&name, x.name.span), init), x.span);
            if havoc {
                self.emit(k::StmtKind::Havoc(sp_id(&name, x.name.span)), x.span);
            }
            self.bind(&x.name.name, Entity::Local { kpl: name, ty });
        }
    }

    /// A struct or vector variable: a KPL local per word (initialised from `x`'s
    /// initialiser, if any).
    pub(crate) fn record_decl(&mut self, x: &Declarator, t: &CType) {
        let init = match &x.init {
            Some(Init::Expr(e)) => match (self.agg_type(e), t) {
                (None, CType::Long(_)) => Some(self.long_leaves(e)),
                (Some(_), _) => self.agg_value(e).map(|v| v.leaves),
                (None, CType::Vector(elem, n)) => {
                    // A scalar initialises every component.
                    let v = self.expr(e);
                    let v = Val { e: self.convert(v, *elem, e.span), ty: *elem };
                    let v = self.bind_temp(v, e.span);
                    Some(vec![crate::lower::values::VLeaf::Word(v); *n as usize])
                }
                (None, _) => {
                    self.err(format!("a `{}` needs a `{}` value or an initialiser list", x.name.name, self.type_name(t)), e.span);
                    None
                }
            },
            Some(Init::List(items, sp)) => self.init_list(t, items, *sp),
            None => None,
        };
        let havoc = init.is_none() && self.indeterminate.contains(&x.span);
        let leaves = self.record_locals(&x.name.name, t, init, x.span);
        if havoc {
            for l in &leaves {
                if let Leaf::Word(Place::Local(name, _)) = l {
                    self.emit(k::StmtKind::Havoc(sp_id(name, x.name.span)), x.span);
                }
            }
        }
        self.bind(&x.name.name, Entity::Record { ty: t.clone(), leaves });
    }

    /// Fresh locals for the words of a `t` named after `base`, with initial values.
    pub(crate) fn record_locals(&mut self, base: &str, t: &CType, init: Option<Vec<crate::lower::values::VLeaf>>, span: Span) -> Vec<Leaf> {
        use crate::lower::values::VLeaf;
        let names = self.leaf_names(t);
        let paths = self.leaf_paths(t);
        let tys = self.leaves(t);
        let mut init = init.map(|v| v.into_iter());
        let mut out = Vec::new();
        for ((lt, ln), path) in tys.into_iter().zip(names).zip(paths) {
            let v = init.as_mut().and_then(|i| i.next());
            match lt {
                LeafTy::Word(ty) => {
                    let name = self.fresh(&format!("{base}_{ln}"));
                    let e = match v {
                        Some(VLeaf::Word(val)) => Some(self.convert(val, ty, span)),
                        _ => None,
                    };
                    self.emit(k::StmtKind::Local(sp_id(&name, span), e), span);
                    out.push(Leaf::Word(Place::Local(name, ty)));
                }
                LeafTy::Ptr(pointee) => {
                    let field = format!("{base}{path}");
                    self.field_pointer_decl(&field, &pointee, v, span);
                    out.push(Leaf::PtrVar(field));
                }
            }
        }
        out
    }

    /// Inside a loop of the current function (a `switch` is not one)?
    pub(crate) fn in_loop(&mut self) -> bool {
        self.frame().loops.iter().any(|l| !l.switch)
    }

    /// `switch (e) { case K: ... }`: each case's statements run if its label or an earlier
    /// one matched (C's fall-through) and no `break` ended the switch; a `break` may only
    /// end a case. Gives whether it may `return`.
    pub(crate) fn switch(&mut self, c: &Expr, body: &Stmt, span: Span) -> bool {
        let stmts: &[Stmt] = match &body.kind {
            StmtKind::Block(b) => &b.stmts,
            _ => std::slice::from_ref(body),
        };
        let v = self.expr(c);
        let v = self.convert(v, Ty::UInt, c.span);
        let value = self.temp();
        self.emit(k::StmtKind::Local(sp_id(&value, c.span), Some(v)), c.span);
        let mut constants = Vec::new();
        for s in stmts {
            if let StmtKind::Case(Some(e)) = &s.kind {
                match self.const_eval(e) {
                    Some(n) => constants.push(n as u64 & 0xFFFF_FFFF),
                    None => self.err("a `case` label must be a constant", e.span),
                }
            }
        }
        let is = |n: u64| k::Expr::new(k::ExprKind::Binary(k::BinOp::Eq, Box::new(k::Expr::var(&value, span)), Box::new(k::Expr::num(n, span))), span);
        let matched = self.fresh("case_matched");
        let done = self.fresh("switch_done");
        self.emit(k::StmtKind::Local(sp_id(&matched, span), Some(k::Expr::num(0, span))), span);
        self.emit(k::StmtKind::Local(sp_id(&done, span), Some(k::Expr::num(0, span))), span);
        self.frame().loops.push(LoopCtx { on_continue: Vec::new(), switch: true, done: Some(done.clone()), labels: HashSet::new() });
        self.scopes.push(HashMap::new());
        let mut i = stmts.iter().position(|s| matches!(s.kind, StmtKind::Case(_))).unwrap_or(stmts.len());
        let bin = |op, a, b| k::Expr::new(k::ExprKind::Binary(op, Box::new(a), Box::new(b)), span);
        while i < stmts.len() {
            // The labels of this case, then its statements up to the next label.
            while let Some(StmtKind::Case(label)) = stmts.get(i).map(|s| &s.kind) {
                let hit = match label.as_ref().and_then(|e| self.const_eval(e)) {
                    Some(n) => is(n as u64 & 0xFFFF_FFFF),
                    // `default`: no case matches.
                    None => k::Expr::new(
                        k::ExprKind::Unary(
                            k::UnOp::Not,
                            Box::new(constants.iter().map(|&n| is(n)).reduce(|a, b| bin(k::BinOp::LOr, a, b)).unwrap_or_else(|| k::Expr::num(0, span))),
                        ),
                        span,
                    ),
                };
                self.emit(k::StmtKind::Assign(sp_id(&matched, span), bin(k::BinOp::LOr, k::Expr::var(&matched, span), hit)), span);
                i += 1;
            }
            let end = stmts[i..].iter().position(|s| matches!(s.kind, StmtKind::Case(_))).map(|p| i + p).unwrap_or(stmts.len());
            let section = &stmts[i..end];
            let (section, ends) = match section.split_last() {
                Some((last, rest)) if matches!(last.kind, StmtKind::Break) => (rest, true),
                _ => (section, false),
            };
            let mut guard = bin(k::BinOp::LAnd, k::Expr::var(&matched, span), k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(k::Expr::var(&done, span))), span));
            // A thread that returned or is jumping to a label runs nothing before it.
            for r in self.jump_flags() {
                guard = bin(k::BinOp::LAnd, guard, k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(k::Expr::var(&r, span))), span));
            }
            let block = self.sub_block(
                |l| {
                    l.stmts(section);
                    if ends {
                        l.emit(k::StmtKind::Assign(sp_id(&done, span), k::Expr::num(1, span)), span);
                    }
                },
                span,
            );
            self.emit(k::StmtKind::If(guard, block, None), span);
            i = end;
        }
        self.scopes.pop();
        self.frame().loops.pop();
        has_return(stmts)
    }
}
