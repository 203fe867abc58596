//! GPUVerify's two-thread annotations and access predicates, lowered onto KPL's `other`,
//! `enabled`, `written`, `was_read`, `write_index` and `read_index`: only inside assertions,
//! checked pre- and postconditions and invariants (`two_thread_ok`); its barrier
//! invariants (`__barrier_invariant_N`, `__barrier_invariant_binary_N`), attached to the
//! next barrier, and the ghost accesses they need (`__read_permission`).

use crate::lower::context::Lower;
use crate::lower::values::{Entity, Ty, Val, bin, call, not};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, BinOp, Builtin};
use kpl_lang::span::Span;

/// GPUVerify's words for an invariant that is not an invariant of the loop it belongs to.
const NOT_AT_HEAD: &str = "user-specified invariant does not appear at loop head.";

impl<'u> Lower<'u> {
    /// An invariant annotation (`call` is its whole call) that is not where an invariant
    /// of a loop can be.
    pub(crate) fn misplaced_invariant(&mut self, call: Span) {
        self.errors.push(
            kpl_lang::diagnostic::Diagnostic::error("user-specified invariant does not appear at loop head", call)
                .with_help("an `__invariant` must come just before a loop or first in its body")
                .with_gpuverify(NOT_AT_HEAD),
        );
    }

    /// GPUVerify's rule for an invariant at a loop head: no `&&`, `||` or `?:` in it (its C
    /// translation makes them branches, so the invariant would not be at the loop head).
    pub(crate) fn invariant_at_head(&mut self, call: Span, e: &Expr) {
        let mut short_circuit = false;
        e.walk(&mut |x| short_circuit |= matches!(x.kind, ExprKind::Binary(BOp::LAnd | BOp::LOr, ..) | ExprKind::Cond(..)));
        if short_circuit {
            self.errors.push(
                kpl_lang::diagnostic::Diagnostic::error("user-specified invariant does not appear at loop head", call)
                    .with_help("GPUVerify's rule: `&&`, `||` and `?:` in an invariant are branches, so it is not at the loop head; use `&`, `|` or `__implies`, or one invariant per conjunct")
                    .with_gpuverify(NOT_AT_HEAD),
            );
        }
    }

    /// A two-thread annotation or access predicate call; `None` for any other name.
    pub(crate) fn annotation_call(&mut self, n: &str, args: &[Expr], span: Span) -> Option<Val> {
        let zero = Val { e: k::Expr::num(0, span), ty: Ty::Void };
        let arity = |l: &mut Self, k: usize| l.arity_ok(n, args.len(), k, span);
        Some(match n {
            // GPUVerify's two-thread annotations, over KPL's `other` and `enabled`.
            "__enabled" | "__other_int" | "__other_bool" | "__uniform_int" | "__uniform_bool" | "__distinct_int"
            | "__distinct_bool" | "__all" | "__at_most_one" | "__exclusive"
                if !self.two_thread_ok =>
            {
                self.unsupported(&format!("`{n}` outside an assertion, a checked pre- or postcondition or an invariant"), span);
                Val { e: k::Expr::num(0, span), ty: Ty::Int }
            }
            "__enabled" => {
                arity(self, 0);
                Val { e: call(Builtin::Enabled, vec![], span), ty: Ty::Int }
            }
            "__other_int" | "__other_bool" | "__uniform_int" | "__uniform_bool" | "__distinct_int" | "__distinct_bool"
            | "__all" | "__at_most_one" | "__exclusive" => {
                if !arity(self, 1) {
                    return Some(zero);
                }
                // GPUVerify's `__exclusive(x)` is `!__all(x)`: not in both threads.
                let (v, ty) = if n.ends_with("_bool") || n == "__all" || n == "__at_most_one" || n == "__exclusive" {
                    (self.cond(&args[0]), Ty::Int)
                } else {
                    // GPUVerify declares them over `int`: a 64-bit argument is converted, as C
                    // converts a call's argument to its parameter's type.
                    let v = self.expr(&args[0]);
                    let v = if matches!(v.ty, Ty::Long { .. }) { Val { e: self.convert(v, Ty::Int, span), ty: Ty::Int } } else { v };
                    (v.e, v.ty)
                };
                let other = call(Builtin::Other, vec![v.clone()], span);
                let e = match n {
                    "__other_int" | "__other_bool" => return Some(Val { e: other, ty }),
                    "__uniform_int" | "__uniform_bool" => bin(BinOp::Eq, v, other, span),
                    "__distinct_int" | "__distinct_bool" => bin(BinOp::Ne, v, other, span),
                    "__all" => bin(BinOp::LAnd, v, other, span),
                    _ => not(bin(BinOp::LAnd, v, other, span), span),
                };
                Val { e, ty: Ty::Int }
            }
            // GPUVerify's "the thread was enabled where the loop was entered": a KPL
            // invariant binds only the threads that entered the loop (and did not jump out
            // of it), so there it is true.
            "__dominator_enabled" if self.in_loop_invariant => {
                arity(self, 0);
                Val { e: k::Expr::num(1, span), ty: Ty::Int }
            }
            "__dominator_enabled" => {
                self.unsupported(&format!("`{n}` outside a loop invariant"), span);
                zero
            }
            // GPUVerify's access predicates over KPL's `written`, `was_read`, `write_index`,
            // `read_index` (in assertions and invariants).
            "__read" | "__write" | "__read_offset_bytes" | "__write_offset_bytes" | "__no_read" | "__no_write"
            | "__read_implies" | "__write_implies" => {
                let int0 = Val { e: k::Expr::num(0, span), ty: Ty::Int };
                if !self.two_thread_ok {
                    // In ordinary code (`baz(__read_offset_bytes(p))`) it speaks of the
                    // verifier's log, which the program cannot see: an arbitrary value.
                    return Some(self.arbitrary(n.trim_start_matches('_'), Ty::Int, span));
                }
                let implies = n.ends_with("_implies");
                if args.len() != if implies { 2 } else { 1 } {
                    self.err(format!("`{n}` takes {} argument(s)", if implies { 2 } else { 1 }), span);
                    return Some(int0);
                }
                // As GPUVerify's, offsets count from the start of the array the pointer
                // points into (`__ptr_offset_bytes` says where in it the pointer is).
                let Some(array) = self.annotated_array(&args[0]) else {
                    self.unsupported(&format!("`{n}` of anything but a one-dimensional array, array parameter or pointer parameter"), args[0].span);
                    return Some(int0);
                };
                let of = |b: Builtin| call(b, vec![k::Expr::var(&array, span)], span);
                let write = n.contains("write");
                let e = match n {
                    "__read" | "__write" => of(if write { Builtin::Written } else { Builtin::WasRead }),
                    "__no_read" | "__no_write" => not(of(if write { Builtin::Written } else { Builtin::WasRead }), span),
                    "__read_offset_bytes" | "__write_offset_bytes" => {
                        // Every element is a word (kpl models every scalar as one), counted
                        // in bytes as C lays the array out.
                        let idx = of(if write { Builtin::WriteIndex } else { Builtin::ReadIndex });
                        let size = self.element_bytes(&args[0]);
                        return Some(Val { e: bin(BinOp::Mul, idx, k::Expr::num(size, span), span), ty: Ty::UInt });
                    }
                    _ => {
                        let c = self.cond(&args[1]);
                        call(Builtin::Implies, vec![of(if write { Builtin::Written } else { Builtin::WasRead }), c], span)
                    }
                };
                Val { e, ty: Ty::Int }
            }
            "__kpl_permission" => {
                // `__read_permission(T, A[i])`: an access the barrier invariant may rely on
                // (kpl makes it a real read, so it is also checked for races).
                if arity(self, 1) {
                    let v = self.expr(&args[0]);
                    if !v.e.has_reads() {
                        self.err("`__read_permission` needs an array element", args[0].span);
                    }
                    self.bind_temp(v, span);
                }
                zero
            }
            // Whether the thread's atomics on a counter gave it a value (GPUVerify's refined
            // atomic abstraction): KPL's `taken(A, i, v)` in annotations; in ordinary code an
            // arbitrary value, as the access predicates are.
            "__atomic_has_taken_value" => {
                if !self.two_thread_ok {
                    if arity(self, 3) {
                        self.array_argument(&args[0], true);
                        for a in &args[1..] {
                            let v = self.expr(a);
                            self.bind_temp(v, a.span);
                        }
                    }
                    return Some(self.arbitrary("atomic_has_taken_value", Ty::Int, span));
                }
                if !arity(self, 3) {
                    return Some(zero);
                }
                let Some(array) = self.annotated_array(&args[0]) else {
                    self.unsupported("`__atomic_has_taken_value` of anything but a one-dimensional array, array parameter or pointer parameter", args[0].span);
                    return Some(zero);
                };
                let size = self.element_bytes(&args[0]);
                // GPUVerify declares the offset and value `unsigned`: converted as C does.
                let offset = self.expr(&args[1]);
                let offset = self.convert(offset, Ty::UInt, span);
                let elem = bin(BinOp::Div, offset, k::Expr::num(size, span), span);
                let value = self.expr(&args[2]);
                let value = self.convert(value, Ty::UInt, span);
                Val { e: call(Builtin::Taken, vec![k::Expr::var(&array, span), elem, value], span), ty: Ty::Int }
            }
            // A ghost copy of an array (KPL's `snapshot`).
            "__array_snapshot" => {
                if arity(self, 2) {
                    let arrays = [self.annotated_array(&args[0]), self.annotated_array(&args[1])];
                    match arrays {
                        [Some(dest), Some(src)] => {
                            let (dest, src) = (k::Ident::new(&dest, args[0].span), k::Ident::new(&src, args[1].span));
                            self.emit(k::StmtKind::Snapshot { dest, src }, span);
                        }
                        _ => self.unsupported("`__array_snapshot` of anything but one-dimensional arrays or array parameters", span),
                    }
                }
                zero
            }
            // A specification function's memory effects: unknown accesses to the array.
            "__writes_to" | "__reads_from" => {
                if arity(self, 1) {
                    match self.annotated_array(&args[0]) {
                        Some(array) => {
                            let array = k::Ident::new(&array, args[0].span);
                            self.emit(k::StmtKind::Touch { array, write: n == "__writes_to" }, span);
                        }
                        None => self.unsupported(&format!("`{n}` of anything but a one-dimensional array, array parameter or pointer parameter"), args[0].span),
                    }
                }
                zero
            }
            // The value taken at the function's entry (`postcondition`).
            "__old_int" | "__old_bool" => {
                arity(self, 1);
                match self.frame().olds.iter().find(|(s, _)| *s == span) {
                    Some((_, v)) => v.clone(),
                    None => {
                        self.err(format!("`{n}` outside a function's `__ensures`"), span);
                        Val { e: k::Expr::num(0, span), ty: Ty::Int }
                    }
                }
            }
            _ if n.starts_with("__barrier_invariant_") => {
                self.barrier_invariant(n, args, span);
                zero
            }
            _ => return None,
        })
    }

    /// The bytes of C that one word of an annotated array holds, as C lays it out: a
    /// `double` is one word of 8 bytes, a `long` two of 4, a `char` or `short` array's
    /// elements are words of 1 or 2; a word of a struct of mixed fields counts 4.
    fn element_bytes(&self, e: &Expr) -> u64 {
        match &e.kind {
            ExprKind::Ident(x) => match self.lookup(&x.name) {
                // A word holds one `double` (8 bytes), half a `long` (4), a byte (1), ...
                Some(Entity::Array { kpl, .. }) if self.word_bytes.contains_key(&kpl) => self.word_bytes[&kpl] as u64,
                Some(Entity::Array { elem: Ty::Narrow { bits, .. }, agg: None, .. }) => bits as u64 / 8,
                _ => 4,
            },
            _ => 4,
        }
    }

    /// The array an access predicate or memory effect names: a one-dimensional array, or
    /// an array or pointer parameter (the array it points into).
    fn annotated_array(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Ident(x) => match self.lookup(&x.name) {
                Some(Entity::Array { kpl, dims, .. }) if dims.len() <= 1 => Some(kpl),
                _ => None,
            },
            _ => None,
        }
    }

    /// A postcondition (`global`: a `__global_ensures`), kept for the function's returns
    /// (its end; a specification function's `__spec_` postconditions are assumed there),
    /// with the value of each `__old_int(e)`/`__old_bool(e)` in it taken now, at
    /// the function's entry, into a local of its own.
    pub(crate) fn postcondition(&mut self, e: &Expr, global: bool) {
        let mut olds = Vec::new();
        e.walk(&mut |x| {
            if let ExprKind::Call(f, args) = &x.kind {
                if matches!(&f.kind, ExprKind::Ident(n) if n.name == "__old_int" || n.name == "__old_bool") && args.len() == 1 {
                    olds.push((x.span, args[0].clone()));
                }
            }
        });
        for (span, a) in olds {
            let v = self.expr(&a);
            let t = self.temp();
            self.emit(k::StmtKind::Local(k::Ident::new(&t, span), Some(v.e)), span);
            self.frame().olds.push((span, Val { e: k::Expr::var(&t, span), ty: v.ty }));
        }
        if self.frame().name.starts_with("__spec_") || self.frame().contract {
            self.frame().assumed.push(e.clone());
        } else if global {
            self.frame().global_ensures.push(e.clone());
        } else {
            self.frame().ensures.push(e.clone());
        }
    }

    /// `__barrier_invariant_N(e, i1, ..., iN)` or `__barrier_invariant_binary_N(e, a1, b1,
    /// ...)`: kept for the next barrier.
    fn barrier_invariant(&mut self, n: &str, args: &[Expr], span: Span) {
        let rest = &n["__barrier_invariant_".len()..];
        let (binary, count) = match rest.strip_prefix("binary_") {
            Some(c) => (true, c),
            None => (false, rest),
        };
        let Some(count) = count.parse::<usize>().ok().filter(|c| *c > 0) else {
            self.err(format!("no function named `{n}` (GPUVerify's are `__barrier_invariant_N` and `__barrier_invariant_binary_N`)"), span);
            return;
        };
        let want = 1 + count * if binary { 2 } else { 1 };
        if !self.arity_ok(n, args.len(), want, span) {
            return;
        }
        // Lowered into a scratch block that must stay empty: no effects, calls or guarded
        // reads.
        let before = std::mem::replace(&mut self.two_thread_ok, true);
        let mut lowered = Vec::new();
        // (An instantiation stands for a thread's id: a 64-bit one is taken as C converts it
        // to a word.)
        let inst = |l: &mut Self, a: &Expr| {
            let v = l.expr(a);
            if matches!(v.ty, Ty::Long { .. }) { l.convert(v, Ty::UInt, span) } else { v.e }
        };
        let scratch = self.sub_block(|l| lowered = args.iter().enumerate().map(|(i, a)| if i == 0 { l.cond(a) } else { inst(l, a) }).collect(), span);
        self.two_thread_ok = before;
        if !scratch.stmts.is_empty() {
            self.err("a barrier invariant must be free of side effects, calls and guarded reads", span);
            return;
        }
        let mut lowered = lowered.into_iter();
        let Some(expr) = lowered.next() else { return };
        let rest: Vec<k::Expr> = lowered.collect();
        if let Some(i) = rest.iter().position(|e| e.has_reads()) {
            self.err("a barrier invariant's instantiations cannot read arrays", args[i + 1].span);
            return;
        }
        let insts = rest.chunks(if binary { 2 } else { 1 }).map(|c| c.to_vec()).collect();
        self.pending_barrier_invariants.push(k::BarrierInvariant { expr, insts, span });
    }

    /// A barrier the kernel writes: it takes the barrier invariants written before it.
    pub(crate) fn user_barrier(&mut self, mut fence: k::Fence, span: Span) {
        fence.invariants = std::mem::take(&mut self.pending_barrier_invariants);
        self.emit(k::StmtKind::Barrier(fence), span);
        self.copies_after_barrier(span);
    }
}
