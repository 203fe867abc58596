//! OpenCL's `async_work_group_copy(dst, src, n, event)` and `wait_group_events`. The copy
//! is done by the group: element `e` by the work-item whose linear local id is
//! `(e - r) mod L`, `r` in `1..L` arbitrary (a `param` of the kernel, `copy_rotation`), so
//! for any work-item's own access to an element there is a rotation where another
//! work-item copies it: the copy is another agent. Unrolled, `i < ceil(n / L)` elements
//! per work-item, so the count must be a constant of the launch. A copy is in flight until a
//! `wait_group_events` names its event (tracked at run time: a copy's event is the one it
//! was given, else a number of its own; a wait names `&e` or the first `n` of an array):
//! its accesses are made at the call and again after every barrier while it is in flight,
//! so any access between the call and the wait that touches its elements races with it.
//! Copies and waits are reached by the whole group (a barrier that orders no memory);
//! `event_t` is an integer.

use crate::lower::context::{Copy, End, Lower};
use crate::lower::values::{Entity, Place, Ty, Val, bin, sp_id};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, BinOp};
use kpl_lang::span::Span;

/// Elements per work-item beyond this many are refused (the copy is unrolled).
const MAX_PER_ITEM: u64 = 64;

impl<'u> Lower<'u> {
    /// `main`'s statements after the declarations of the kernel's own locals.
    pub(crate) fn with_kernel_locals(&mut self, stmts: Vec<k::Stmt>) -> Vec<k::Stmt> {
        let span = stmts.first().map(|s| s.span).unwrap_or(Span::new(0, 0));
        let mut out: Vec<k::Stmt> =
            self.kernel_locals.drain(..).map(|n| k::Stmt { kind: k::StmtKind::Local(sp_id(&n, span), Some(k::Expr::num(0, span))), span }).collect();
        out.extend(stmts);
        out
    }

    /// A local of the kernel, declared (as 0) at the start of `main`.
    fn kernel_local(&mut self, base: &str) -> String {
        let name = self.fresh(base);
        self.kernel_locals.push(name.clone());
        name
    }

    /// `async_work_group_copy(dst, src, n, event)`: the copy's accesses now; its event.
    pub(crate) fn async_copy(&mut self, args: &[Expr], span: Span) -> Val {
        let word = |n: u64| Val { e: k::Expr::num(n, span), ty: Ty::Int };
        if args.len() != 4 {
            self.err("`async_work_group_copy` takes a destination, a source, a count and an event", span);
            return word(0);
        }
        let (Some(mut dst), Some(mut src)) = (self.copy_end(&args[0], true), self.copy_end(&args[1], false)) else { return word(0) };
        let v = self.expr(&args[2]);
        let n = self.launch_constant(&v.e);
        let given = self.expr(&args[3]);
        let given = self.convert(given, Ty::UInt, args[3].span);
        let Some(n) = n else {
            self.unsupported("an `async_work_group_copy` whose count is not a constant of the launch", args[2].span);
            return word(0);
        };
        let sizes = |e: &End| e.words.iter().map(|w| w.1.unwrap_or(4)).collect::<Vec<u32>>();
        if dst.words.len() != src.words.len() || (dst.words.iter().chain(&src.words).any(|w| w.1.is_some()) && sizes(&dst) != sizes(&src)) {
            self.unsupported("an `async_work_group_copy` between arrays of different element types", span);
            return word(0);
        }
        let per_item = n.div_ceil(self.group_size().max(1));
        if per_item > MAX_PER_ITEM {
            self.unsupported(&format!("an `async_work_group_copy` of more than {MAX_PER_ITEM} elements per work-item"), args[2].span);
            return word(0);
        }
        // A function of the whole group: reached by all of it, as a barrier is.
        self.emit(k::StmtKind::Barrier(k::Fence::constant(false, false, span)), span);
        // The offsets, kept where later barriers can read them.
        for end in [&mut dst, &mut src] {
            if let Some(o) = end.offset.take() {
                let keep = self.kernel_local("copy_offset");
                self.emit(k::StmtKind::Assign(sp_id(&keep, span), k::Expr::var(&o, span)), span);
                end.offset = Some(keep);
            }
        }
        // Its event: the one given (OpenCL joins the copy to it), else its own number.
        let id = self.copies.len() as u64 + 1;
        let event = self.kernel_local("copy_event");
        let own = k::Expr::new(
            k::ExprKind::Cond(
                Box::new(bin(BinOp::Ne, given.clone(), k::Expr::num(0, span), span)),
                Box::new(given),
                Box::new(k::Expr::num(id, span)),
            ),
            span,
        );
        self.emit(k::StmtKind::Assign(sp_id(&event, span), own), span);
        let pending = self.kernel_local("copy_pending");
        self.emit(k::StmtKind::Assign(sp_id(&pending, span), k::Expr::num(1, span)), span);
        let c = Copy { dst, src, n, event: event.clone(), pending };
        self.copy_accesses(&c, span);
        self.copies.push(c);
        Val { e: k::Expr::var(&event, span), ty: Ty::UInt }
    }

    /// `wait_group_events(n, events)`: the group waits (uniformly); the copies whose events
    /// are among the `n` named (`&e`, or the first `n` of an array) are complete.
    pub(crate) fn wait_events(&mut self, args: &[Expr], span: Span) -> Val {
        let done = Val { e: k::Expr::num(0, span), ty: Ty::Void };
        let [count, list] = args else {
            self.err("`wait_group_events` takes a count and a list of events", span);
            return done;
        };
        // The count must be the same for the whole group: kpl takes a constant.
        let v = self.expr(count);
        let Some(n) = self.launch_constant(&v.e) else {
            self.unsupported("a `wait_group_events` whose count is not a constant of the launch", count.span);
            return done;
        };
        let named: Vec<Expr> = match &list.kind {
            ExprKind::Unary(UOp::Addr, e) => vec![(**e).clone()],
            ExprKind::Ident(_) => (0..n)
                .map(|i| Expr::new(ExprKind::Index(Box::new(list.clone()), Box::new(Expr::new(ExprKind::Int(i, false), list.span))), list.span))
                .collect(),
            _ => {
                self.unsupported("this list of events (kpl takes `&e` or an array of events)", list.span);
                return done;
            }
        };
        // The events first (a barrier makes the verifier forget private memory).
        let mut events = Vec::new();
        for e in named.iter().take(n.max(1) as usize) {
            let v = self.expr(e);
            events.push(self.bind_temp(v, e.span).e);
        }
        self.emit(k::StmtKind::Barrier(k::Fence::constant(false, false, span)), span);
        for c in self.copies.clone() {
            let named = events.iter().map(|e| bin(BinOp::Eq, k::Expr::var(&c.event, span), e.clone(), span)).reduce(|a, b| bin(BinOp::LOr, a, b, span));
            let Some(named) = named else { continue };
            let clear = k::Stmt { kind: k::StmtKind::Assign(sp_id(&c.pending, span), k::Expr::num(0, span)), span };
            self.emit(k::StmtKind::If(named, k::Block { stmts: vec![clear], span }, None), span);
        }
        done
    }

    /// After a barrier: the copies still in flight make their accesses again.
    pub(crate) fn copies_after_barrier(&mut self, span: Span) {
        for c in self.copies.clone() {
            let body = self.sub_block(|l| l.copy_accesses(&c, span), span);
            self.emit(k::StmtKind::If(k::Expr::var(&c.pending, span), body, None), span);
        }
    }

    /// A copy's destination or source.
    fn copy_end(&mut self, e: &Expr, write: bool) -> Option<End> {
        let Entity::Array { kpl, elem, readonly, offset, agg, .. } = self.array_argument(e, false)? else { return None };
        if write && readonly {
            self.err("`async_work_group_copy` writes to constant memory or through a `const` pointer", e.span);
            return None;
        }
        if self.is_bytes(&kpl) {
            let Some((size, words)) = self.view_layout(elem, &agg) else {
                self.unsupported("`async_work_group_copy` of this element type in an array kpl keeps as bytes", e.span);
                return None;
            };
            let words = words.into_iter().map(|(o, n)| (o as u64, Some(n))).collect();
            return Some(End { array: kpl, offset, stride: size as u64, words });
        }
        let w = agg.map(|t| self.words(&t) as u64).unwrap_or(1);
        Some(End { array: kpl, offset, stride: w, words: (0..w).map(|f| (f, None)).collect() })
    }

    /// Work-items per group.
    fn group_size(&self) -> u64 {
        self.o.launch.map(|l| l.threads.iter().map(|&t| t as u64).product()).unwrap_or(1)
    }

    /// The value of an expression over constants and launch sizes, if it is one.
    fn launch_constant(&self, e: &k::Expr) -> Option<u64> {
        let l = self.o.launch?;
        let v = match &e.kind {
            k::ExprKind::Num(n) => *n,
            k::ExprKind::Special(k::Special::Threads, a, _) => l.threads[a.index()] as u64,
            k::ExprKind::Special(k::Special::Groups, a, _) => l.groups[a.index()] as u64,
            k::ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.launch_constant(a)?, self.launch_constant(b)?);
                match op {
                    BinOp::Add => x.checked_add(y)?,
                    BinOp::Sub => x.checked_sub(y)?,
                    BinOp::Mul => x.checked_mul(y)?,
                    BinOp::Div => x.checked_div(y)?,
                    _ => return None,
                }
            }
            _ => return None,
        };
        (v <= u32::MAX as u64).then_some(v)
    }

    /// Each work-item copies its elements of `c` (see the module doc).
    fn copy_accesses(&mut self, c: &Copy, span: Span) {
        let size = self.group_size().max(1);
        let lin = self.local_linear_id(span);
        let rotation = match size {
            1 => k::Expr::num(0, span),
            _ => {
                let r = self.copy_rotation(span);
                bin(BinOp::Add, k::Expr::num(1, span), bin(BinOp::Rem, k::Expr::var(&r, span), k::Expr::num(size - 1, span), span), span)
            }
        };
        let first = bin(BinOp::Rem, bin(BinOp::Add, lin, rotation, span), k::Expr::num(size, span), span);
        for i in 0..c.n.div_ceil(size) {
            let idx = bin(BinOp::Add, first.clone(), k::Expr::num(i * size, span), span);
            let guard = bin(BinOp::Lt, idx.clone(), k::Expr::num(c.n, span), span);
            let body = self.sub_block(|l| l.copy_element(c, &idx, span), span);
            self.emit(k::StmtKind::If(guard, body, None), span);
        }
    }

    /// The kernel's `param` that picks which work-item copies which element.
    fn copy_rotation(&mut self, span: Span) -> String {
        if let Some(r) = &self.copy_param {
            return r.clone();
        }
        let r = self.fresh("copy_rotation");
        self.decls.push(k::Decl { kind: k::DeclKind::Param(sp_id(&r, span)), span });
        self.copy_param = Some(r.clone());
        r
    }

    /// Element `idx` of copy `c`: its words read from the source and written to the
    /// destination.
    fn copy_element(&mut self, c: &Copy, idx: &k::Expr, span: Span) {
        for f in 0..c.dst.words.len() {
            let place = |end: &End, readonly: bool| {
                let (first, bytes) = end.words[f];
                let mut x = bin(BinOp::Mul, idx.clone(), k::Expr::num(end.stride, span), span);
                x = bin(BinOp::Add, x, k::Expr::num(first, span), span);
                if let Some(o) = &end.offset {
                    x = bin(BinOp::Add, k::Expr::var(o, span), x, span);
                }
                match bytes {
                    Some(n) => Place::Bytes { array: end.array.clone(), index: x, n, elem: Ty::UInt, readonly },
                    None => Place::Elem { array: end.array.clone(), index: x, elem: Ty::UInt, readonly },
                }
            };
            let (from, to) = (place(&c.src, true), place(&c.dst, false));
            let v = self.read_place(&from, span);
            let t = self.fresh("copied");
            self.emit(k::StmtKind::Local(sp_id(&t, span), Some(v.e)), span);
            self.write_place(&to, k::Expr::var(&t, span), span);
        }
    }
}
