//! Calls in C expressions ─► KPL: the intrinsics (barriers, fences, ids, math, atomics,
//! warp functions, memory built-ins), GPUVerify's annotation functions, and calls of the
//! file's functions (overloads chosen, then inlined: `calls.rs`).

use crate::lower::context::Lower;
use crate::lower::values::{Ty, Val, bin, call, kx, sp_id};
use crate::syntax::ast::*;
use crate::text::tokens::Dialect;
use kpl_lang::ast::{self as k, Axis, BinOp, Builtin, Special};
use kpl_lang::span::Span;

impl<'u> Lower<'u> {
    // ---- calls: intrinsics, annotations, device functions ----

    pub(crate) fn call(&mut self, f: &Expr, args: &[Expr], span: Span) -> Val {
        let zero = Val { e: k::Expr::num(0, span), ty: Ty::Void };
        // What a call that could not be lowered stands for (its error is reported).
        let failed = || Val { e: k::Expr::num(0, span), ty: Ty::Int };
        if let (ExprKind::Ident(x), [_]) = (&f.kind, args) {
            if x.name == crate::sema::sizeof_expr::SIZEOF {
                // `sizeof e`: a constant of type `size_t` (as wide as a pointer).
                return match self.sizeofs.get(&span) {
                    Some(n) if self.o.pointer_bits == 64 => Val { e: crate::lower::long::pair(k::Expr::num(*n, span), k::Expr::num(0, span), span), ty: Ty::Long { signed: false } },
                    Some(n) => Val { e: k::Expr::num(*n, span), ty: Ty::UInt },
                    None => {
                        self.unsupported("`sizeof` of this expression (kpl sizes a variable, an element of it, or what a pointer points at)", span);
                        failed()
                    }
                };
            }
        }
        let direct = match &f.kind {
            ExprKind::Ident(x) if self.lookup(&x.name).is_none() => Some(x),
            _ => None,
        };
        let Some(name) = direct else {
            // `(*f)(...)` or `f(...)` with `f` a function-pointer value.
            let target = match &f.kind {
                ExprKind::Unary(UOp::Deref, inner) => &**inner,
                _ => f,
            };
            return self.indirect_call(target, args, span);
        };
        let n = name.name.as_str();
        let func = match self.resolve_call(n, args, span, true) {
            crate::lower::overload_calls::Callee::User(func) => Some(func),
            crate::lower::overload_calls::Callee::Refused => return failed(),
            crate::lower::overload_calls::Callee::Builtin => None,
        };
        if let Some(func) = func {
            return match self.inline_call(func, args, span) {
                Some(crate::lower::context::Ret::Scalar(e, ty)) => Val { e, ty },
                Some(crate::lower::context::Ret::Agg(crate::lower::values::AggVal { ty: crate::lower::values::CType::Long(signed), leaves })) => {
                    let words: Vec<k::Expr> = leaves
                        .into_iter()
                        .map(|l| match l {
                            crate::lower::values::VLeaf::Word(v) => v.e,
                            crate::lower::values::VLeaf::Ptr(_) => k::Expr::num(0, span),
                        })
                        .collect();
                    match words.as_slice() {
                        [lo, hi] => Val { e: crate::lower::long::pair(lo.clone(), hi.clone(), span), ty: Ty::Long { signed } },
                        _ => Val { e: k::Expr::num(0, span), ty: Ty::Int },
                    }
                }
                Some(crate::lower::context::Ret::Agg(v)) => self.not_scalar(&v.ty, span),
                None => failed(),
            };
        }
        let arity = |l: &mut Self, k: usize| l.arity_ok(n, args.len(), k, span);
        if let Some(v) = self.libcu_call(n, args, span) {
            return v;
        }
        if let Some(v) = self.atomic_call(n, args, span) {
            return v;
        }
        if let Some(v) = self.warp_call(n, args, span) {
            return v;
        }
        if let Some(v) = self.annotation_call(n, args, span) {
            return v;
        }
        if let Some(v) = self.library_call(n, args, span) {
            return v;
        }
        let cuda = self.o.dialect == Dialect::Cuda;
        match n {
            "__syncthreads" if cuda => {
                arity(self, 0);
                self.user_barrier(k::Fence::both(span), span);
                zero
            }
            // The multiprocessor's cycle counters (`clock_t` and `long long`): any value.
            "clock" | "clock64" if cuda => {
                arity(self, 0);
                let lo = self.arbitrary("clock_lo", Ty::UInt, span);
                let hi = self.arbitrary("clock_hi", Ty::UInt, span);
                Val { e: crate::lower::long::pair(lo.e, hi.e, span), ty: Ty::Long { signed: true } }
            }
            // CUDA's 16-bit floats (`__half`, `__nv_bfloat16`: opaque floats in one word):
            // their conversions and arithmetic give any value, like the math library.
            "__half2float" | "__float2half" | "__float2half_rn" | "__bfloat162float" | "__float2bfloat16" | "__float2bfloat16_rn"
            | "__hadd" | "__hsub" | "__hmul" | "__hdiv" | "__hfma" | "__hneg" | "__habs" | "__hmax" | "__hmin"
                if cuda =>
            {
                for a in args {
                    self.expr_stmt(a);
                }
                self.arbitrary(&format!("{}_result", n.trim_start_matches('_')), Ty::Float, span)
            }
            // `printf`: its arguments are evaluated (their reads are accesses), its output is
            // not modelled, and it returns any number.
            "printf" => {
                for a in args.iter().filter(|a| !matches!(a.kind, ExprKind::Str)) {
                    self.expr_stmt(a);
                }
                self.arbitrary("printf_result", Ty::Int, span)
            }
            crate::sema::coop::GRID_SYNC if cuda => {
                arity(self, 0);
                self.user_barrier(k::Fence::grid(span), span);
                zero
            }
            "async_work_group_copy" if !cuda => self.async_copy(args, span),
            "wait_group_events" if !cuda => self.wait_events(args, span),
            "__syncwarp" if cuda => {
                // In warp-synchronous mode a warp is in lock step already: nothing to order.
                // Otherwise KPL's warp barrier for the lanes of the mask (all by default).
                if args.len() > 1 {
                    self.err("`__syncwarp` takes at most a mask", span);
                    return zero;
                }
                let mask = match args.first() {
                    Some(m) => {
                        let m = self.expr(m);
                        self.convert(m, Ty::UInt, span)
                    }
                    None => k::Expr::num(u32::MAX as u64, span),
                };
                if self.o.warp_sync.is_none() {
                    let exited = self.exited(span);
                    let w = k::Warp { dest: None, declare: false, op: sp_id(k::WarpOp::Sync.name(), span), args: vec![mask], exited };
                    self.emit(k::StmtKind::Warp(w), span);
                }
                zero
            }
            "barrier" | "work_group_barrier" if !cuda => {
                // The flags name the memories the barrier orders (CUDA.md, OpenCL):
                // CLK_LOCAL_MEM_FENCE (1) local memory, CLK_GLOBAL_MEM_FENCE (2) global.
                // A work_group_barrier's memory scope (its second argument) is evaluated
                // for its effects only.
                if args.is_empty() || args.len() > 2 || (n == "barrier" && args.len() != 1) {
                    self.err(format!("`{n}` takes the fence flags (and, for work_group_barrier, a scope)"), span);
                    return zero;
                }
                let fence = match self.const_eval(&args[0]) {
                    Some(v) => k::Fence::constant(v & 1 != 0, v & 2 != 0, span),
                    None => {
                        let v = self.expr(&args[0]);
                        let flags = self.bind_temp(v, span).e;
                        let bit = |b: u64| {
                            let masked = bin(BinOp::BitAnd, flags.clone(), k::Expr::num(b, span), span);
                            bin(BinOp::Ne, masked, k::Expr::num(0, span), span)
                        };
                        k::Fence { shared: bit(1), global: bit(2), invariants: vec![], grid: false }
                    }
                };
                for a in &args[1..] {
                    self.expr_stmt(a);
                }
                self.user_barrier(fence, span);
                zero
            }
            "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" if cuda => {
                if !arity(self, 1) {
                    return zero;
                }
                self.sync_reduce(n, &args[0], span)
            }
            // Fences do not change the SDV semantics; `kpl run --hb` reads them (CUDA.md).
            "__threadfence" | "__threadfence_block" | "__threadfence_system" if cuda => {
                if arity(self, 0) {
                    let scope = match n {
                        "__threadfence_block" => k::FenceScope::Group,
                        "__threadfence" => k::FenceScope::Device,
                        _ => k::FenceScope::System,
                    };
                    self.emit(k::StmtKind::MemFence(scope, k::FenceOrder::Full), span);
                }
                zero
            }
            // OpenCL 1.2's fences order a work-item's accesses as its work-group sees them
            // (the flags only narrow which memories): group scope. `read_mem_fence` orders
            // loads only (it acquires), `write_mem_fence` stores only (it releases).
            "mem_fence" | "read_mem_fence" | "write_mem_fence" if !cuda => {
                if arity(self, 1) {
                    self.expr_stmt(&args[0]);
                    let order = match n {
                        "read_mem_fence" => k::FenceOrder::Acquire,
                        "write_mem_fence" => k::FenceOrder::Release,
                        _ => k::FenceOrder::Full,
                    };
                    self.emit(k::StmtKind::MemFence(k::FenceScope::Group, order), span);
                }
                zero
            }
            // OpenCL 2.0's `atomic_work_item_fence(flags, order, scope)`: the scope says how far,
            // the order which way (a relaxed one is no fence).
            "atomic_work_item_fence" if !cuda => {
                if arity(self, 3) {
                    self.expr_stmt(&args[0]);
                    let Some(order) = self.const_eval(&args[1]) else {
                        self.err("the order of `atomic_work_item_fence` must be a constant (memory_order_...)", span);
                        return zero;
                    };
                    let scope = match self.const_eval(&args[2]) {
                        Some(0 | 1 | 4) => k::FenceScope::Group,
                        Some(2) => k::FenceScope::Device,
                        Some(_) => k::FenceScope::System,
                        None => {
                            self.err("the scope of `atomic_work_item_fence` must be a constant (memory_scope_...)", span);
                            return zero;
                        }
                    };
                    if let Some(order) = crate::lower::libcu_atomics::fence_order(order) {
                        self.emit(k::StmtKind::MemFence(scope, order), span);
                    }
                }
                zero
            }
            "write_imagef" | "write_imagei" | "write_imageui" if !cuda => {
                self.write_image(n, args, span);
                zero
            }
            "get_image_width" | "get_image_height" | "get_image_depth" if !cuda => self.image_size(n, args, span),
            "vstore2" | "vstore3" | "vstore4" | "vstore8" | "vstore16" if !cuda => {
                self.vstore(n, args, span);
                zero
            }
            // CUDA's device-side `assert` (`<assert.h>`): a failure stops the kernel, a defect.
            "__assert" | "__assume" | "assert" if n != "assert" || cuda => {
                if arity(self, 1) {
                    // Both may relate the two threads of a pair (`__assume(x < __other_int(x))`).
                    let c = self.assertion_cond(&args[0]);
                    let kind = if n != "__assume" { k::StmtKind::Assert(c, false) } else { k::StmtKind::Assume(c) };
                    self.emit(kind, span);
                }
                zero
            }
            // `__trap()` ends the launch with an error: reaching it is a defect, as a failed
            // `assert` is.
            "__trap" if cuda => {
                arity(self, 0);
                self.emit(k::StmtKind::Assert(k::Expr::new(k::ExprKind::Bool(false), span), false), span);
                zero
            }
            "__candidate_assert" | "__candidate_global_assert" => {
                // A guess GPUVerify's Houdini keeps where it holds and then assumes: kpl has
                // no candidate assertions, and leaving one out only forgoes what it gives.
                // (Lowered for its diagnostics, then dropped.)
                if arity(self, 1) {
                    self.blocks.push(Vec::new());
                    let _ = self.assertion_cond(&args[0]);
                    self.blocks.pop();
                }
                zero
            }
            // Bugle's markers around an invariant's reads (which log nothing in kpl anyway).
            "__non_temporal_loads_begin" | "__non_temporal_loads_end" => {
                arity(self, 0);
                zero
            }
            "__requires" | "__global_requires" | "__global_assert" => {
                // `__requires` outside a function's first statements and not a kernel's
                // precondition (`nested_requires`): a check here. The global ones are checked
                // by every thread, enabled or not.
                if self.hoisted_requires.contains(&span) {
                    return zero;
                }
                if arity(self, 1) {
                    let c = self.assertion_cond(&args[0]);
                    self.emit(k::StmtKind::Assert(c, n != "__requires"), span);
                }
                zero
            }
            "__ensures" | "__global_ensures" => {
                if arity(self, 1) {
                    self.postcondition(&args[0], n == "__global_ensures");
                }
                zero
            }
            // Read where the function is entered (`function_wide`): an invariant of each loop.
            "__function_wide_invariant" | "__function_wide_candidate_invariant" => {
                let at_end = self.frame_function_wide_spans().contains(&args.first().map(|a| a.span).unwrap_or(span));
                if !at_end {
                    self.err(format!("a `{n}` must come at the end of the function body (GPUVerify's rule)"), span);
                }
                zero
            }
            "__invariant" | "__candidate_invariant" | "__candidate_global_invariant" => {
                self.misplaced_invariant(span);
                zero
            }
            "__implies" => {
                if !arity(self, 2) {
                    return zero;
                }
                let a = self.cond(&args[0]);
                let b = self.cond(&args[1]);
                Val { e: call(Builtin::Implies, vec![a, b], span), ty: Ty::Int }
            }
            "__return_val_int" | "__return_val_bool" | "__return_val_funptr" => match self.frame().result.clone() {
                Some((r, ty)) => Val { e: k::Expr::var(&r, span), ty },
                None => {
                    self.err(format!("`{n}` outside the `__ensures` of a function with a result"), span);
                    zero
                }
            },
            "__global_invariant" | "__axiom" => {
                self.unsupported(&format!("`{n}` here (CUDA.md tier 2)"), span);
                zero
            }
            "get_local_id" | "get_group_id" | "get_local_size" | "get_num_groups" | "get_global_id" | "get_global_size" | "get_global_offset"
                if !cuda =>
            {
                if !arity(self, 1) {
                    return zero;
                }
                let Some(d) = self.const_eval(&args[0]).filter(|d| (0..3).contains(d)) else {
                    self.err(format!("`{n}` needs a constant dimension 0, 1 or 2"), args[0].span);
                    return zero;
                };
                let a = Axis::ALL[d as usize];
                let sp = |s: Special| kx(k::ExprKind::Special(s, a, true), span);
                let e = match n {
                    "get_local_id" => sp(Special::Lid),
                    "get_group_id" => sp(Special::Gid),
                    "get_local_size" => sp(Special::Threads),
                    "get_num_groups" => sp(Special::Groups),
                    "get_global_id" => {
                        let id = bin(BinOp::Add, bin(BinOp::Mul, sp(Special::Gid), sp(Special::Threads), span), sp(Special::Lid), span);
                        match self.o.global_offset.map_or(0, |o| o[d as usize]) {
                            0 => id,
                            off => bin(BinOp::Add, id, k::Expr::num(off as u64, span), span),
                        }
                    }
                    "get_global_offset" => k::Expr::num(self.o.global_offset.map_or(0, |o| o[d as usize]) as u64, span),
                    _ => bin(BinOp::Mul, sp(Special::Groups), sp(Special::Threads), span),
                };
                // They return `size_t`: with 64-bit pointers, a 64-bit value whose high word
                // is the carry of the global id and size (0 for a launch below 2^32 items).
                if self.o.pointer_bits == 64 {
                    return self.wide_work_item(n, e, a, d as usize, span);
                }
                Val { e, ty: Ty::UInt }
            }
            "get_work_dim" if !cuda => {
                let d = self.o.launch.map(|l| l.dims_used()).unwrap_or(1) as u64;
                Val { e: k::Expr::num(d, span), ty: Ty::UInt }
            }
            "min" | "max" | "umin" | "umax" | "llmin" | "llmax" | "ullmin" | "ullmax" => {
                if !arity(self, 2) {
                    return zero;
                }
                let (a, b) = (self.expr(&args[0]), self.expr(&args[1]));
                // CUDA's `umin`/`umax` take `unsigned int`, `llmin`/`llmax` `long long` and
                // `ullmin`/`ullmax` `unsigned long long`: the arguments are converted to it.
                let ty = match n {
                    "umin" | "umax" => Ty::UInt,
                    "llmin" | "llmax" => Ty::Long { signed: true },
                    "ullmin" | "ullmax" => Ty::Long { signed: false },
                    _ => Lower::common(a.ty, b.ty),
                };
                let is_min = n.ends_with("min");
                if let Ty::Long { .. } = ty {
                    return self.long_min_max(is_min, a, b, ty, span);
                }
                let (x, y) = (self.convert(a, ty, span), self.convert(b, ty, span));
                let e = match ty {
                    Ty::Float => call(if is_min { Builtin::Fmin } else { Builtin::Fmax }, vec![x, y], span),
                    Ty::Int => {
                        let lt = call(Builtin::Slt, vec![x.clone(), y.clone()], span);
                        let (p, q) = if is_min { (x, y) } else { (y, x) };
                        kx(k::ExprKind::Cond(Box::new(lt), Box::new(p), Box::new(q)), span)
                    }
                    _ => call(if is_min { Builtin::Min } else { Builtin::Max }, vec![x, y], span),
                };
                Val { e, ty }
            }
            "abs" => {
                if !arity(self, 1) {
                    return zero;
                }
                let v = self.expr(&args[0]);
                let v = self.bind_temp(v, span);
                let x = self.convert(v, Ty::Int, span);
                let neg = kx(k::ExprKind::Unary(k::UnOp::Neg, Box::new(x.clone())), span);
                let lt = call(Builtin::Slt, vec![x.clone(), k::Expr::num(0, span)], span);
                Val { e: kx(k::ExprKind::Cond(Box::new(lt), Box::new(neg), Box::new(x)), span), ty: Ty::Int }
            }
            "sqrtf" | "sqrt" | "fabsf" | "fabs" | "fminf" | "fmaxf" | "fmin" | "fmax" => {
                let (b, k) = match n {
                    "sqrtf" | "sqrt" => (Builtin::Fsqrt, 1),
                    "fabsf" | "fabs" => (Builtin::Fabs, 1),
                    "fminf" | "fmin" => (Builtin::Fmin, 2),
                    _ => (Builtin::Fmax, 2),
                };
                if !arity(self, k) {
                    return zero;
                }
                let mut xs = Vec::new();
                for a in args {
                    let v = self.expr(a);
                    xs.push(self.convert(v, Ty::Float, span));
                }
                Val { e: call(b, xs, span), ty: Ty::Float }
            }
            _ => {
                let mut d = kpl_lang::Diagnostic::error(format!("no function named `{n}`"), name.span);
                if n.starts_with("__shfl") || n == "__syncwarp" {
                    d = kpl_lang::Diagnostic::error(format!("`{n}`: not a warp intrinsic kpl knows"), name.span).with_help(
                        "kpl knows __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync, __any_sync, __all_sync, \
                         __ballot_sync, __activemask, __reduce_{add,min,max,and,or,xor}_sync, and __shfl, __shfl_up, __shfl_down, __shfl_xor and __ballot",
                    );
                } else {
                    d = d.with_help("kpl knows the file's functions, the thread ids, barriers, fences, atomics, GPUVerify's annotations, the math library and the integer built-ins (min, max, abs, clamp, add_sat, clz, popcount, rotate, mul24, ...)");
                    // What clang (so GPUVerify) says.
                    d = d.with_gpuverify(match self.o.dialect {
                        crate::Dialect::Cuda => format!("error: use of undeclared identifier '{n}'"),
                        crate::Dialect::OpenCl => format!("error: implicit declaration of function '{n}' is invalid in C99"),
                    });
                }
                self.errors.push(d);
                failed()
            }
        }
    }
}
