//! libcu++'s atomics ─► KPL: the calls `sema/libcu_atomics.rs` makes of operations on
//! `cuda::atomic`/`cuda::atomic_ref` objects (`__kpl_catomic_<scope>_<op>(&x, operands...,
//! orders...)`) and `cuda::atomic_thread_fence`. Each is KPL's atomic of its scope (`block`:
//! `group`; `device`; `system`), with a `fence` of that scope before it when its order
//! releases (a store or read-modify-write with `release`, `acq_rel`, `seq_cst`) and after it
//! when its order acquires (a load or read-modify-write with `consume`, `acquire`,
//! `acq_rel`, `seq_cst`; a compare-exchange's failure order too): BARRACUDA's reading of
//! fences, which `kpl run --hb` applies. A load is `cas(x, 0, 0)` (the value stays; it races
//! with plain writes, and, unlike C++, with plain reads in the same barrier interval too), a
//! store an exchange whose old value is dropped. `compare_exchange_strong(e, d)` compares
//! with `e` (bit for bit), writes the old value to `e` and gives whether they were equal;
//! `_weak` may also fail when they are equal (then it writes back the value it found). An
//! atomic of `thread_scope_thread` is atomic for its own thread only: its operations are
//! plain reads and writes, which race with any other thread's; so are those of a thread's
//! own atomic variable (a local), which no other thread reaches, and the loads of a `const`
//! atomic (memory kpl takes as read-only).

use crate::lower::atomics::Operand;
use crate::lower::context::Lower;
use crate::lower::values::{Ty, Val, bin, kx};
use crate::sema::libcu_atomics::{CONST, FENCE, LOCAL, PREFIX};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, AtomicOp, BinOp, FenceOrder, FenceScope};
use kpl_lang::span::Span;

/// What an operation does.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Load,
    Store,
    Rmw(AtomicOp),
    Cas { weak: bool },
}

/// The operation of a method's name, and how many values it takes before its orders.
fn kind_of(method: &str) -> Option<(Kind, usize)> {
    use AtomicOp::*;
    Some(match method {
        "load" => (Kind::Load, 0),
        "store" => (Kind::Store, 1),
        "exchange" => (Kind::Rmw(Xchg), 1),
        "fetch_add" => (Kind::Rmw(Add), 1),
        "fetch_sub" => (Kind::Rmw(Sub), 1),
        "fetch_and" => (Kind::Rmw(And), 1),
        "fetch_or" => (Kind::Rmw(Or), 1),
        "fetch_xor" => (Kind::Rmw(Xor), 1),
        "fetch_min" => (Kind::Rmw(Min), 1),
        "fetch_max" => (Kind::Rmw(Max), 1),
        "compare_exchange_strong" => (Kind::Cas { weak: false }, 2),
        "compare_exchange_weak" => (Kind::Cas { weak: true }, 2),
        _ => return None,
    })
}

/// Does a memory order release (on a store or read-modify-write)?
fn releases(order: i64) -> bool {
    matches!(order, 3..=5)
}

/// Does it acquire (on a load or read-modify-write)?
fn acquires(order: i64) -> bool {
    matches!(order, 1 | 2 | 4 | 5)
}

/// The fence a C++ (and OpenCL 2.0) memory order makes of `atomic_thread_fence` (`None`:
/// relaxed, no fence at all): `acquire` (and `consume`) only acquires, `release` only
/// releases, `acq_rel` and `seq_cst` do both.
pub(crate) fn fence_order(order: i64) -> Option<FenceOrder> {
    match order {
        1 | 2 => Some(FenceOrder::Acquire),
        3 => Some(FenceOrder::Release),
        4 | 5 => Some(FenceOrder::Full),
        _ => None,
    }
}

/// The fence scope of a libcu++ thread scope (`None`: `thread_scope_thread`).
fn fence_scope(scope: u64) -> Option<FenceScope> {
    match scope {
        0 => Some(FenceScope::System),
        1 => Some(FenceScope::Device),
        2 => Some(FenceScope::Group),
        _ => None,
    }
}

impl Lower<'_> {
    /// Lower a libcu++ atomic operation or fence; `None` if `name` is not one.
    pub(crate) fn libcu_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let zero = Val { e: k::Expr::num(0, span), ty: Ty::Void };
        if name == FENCE {
            self.thread_fence(args, span);
            return Some(zero);
        }
        let rest = name.strip_prefix(PREFIX)?;
        let (scope_word, method) = rest.split_once('_')?;
        let scope = match scope_word {
            "block" => Some(FenceScope::Group),
            "device" => Some(FenceScope::Device),
            "system" => Some(FenceScope::System),
            "thread" | LOCAL | CONST => None,
            _ => return None,
        };
        let shown = format!("`{method}`");
        let Some((kind, n)) = kind_of(method) else {
            self.unsupported(&format!("the atomic operation {shown}"), span);
            return Some(zero);
        };
        if args.len() < 1 + n || args.len() > 3 + n {
            self.err(format!("{shown} takes {n} value(s) and at most two memory orders"), span);
            return Some(zero);
        }
        let mut orders = Vec::new();
        for o in &args[1 + n..] {
            match self.const_eval(o) {
                Some(v) if (0..=5).contains(&v) => orders.push(v),
                _ => {
                    self.unsupported("a memory order that is not a constant `cuda::memory_order_...`", o.span);
                    return Some(zero);
                }
            }
        }
        let order = orders.first().copied().unwrap_or(5);
        let Some(scope) = scope else {
            // A thread's own object: the first argument is the object itself; at thread
            // scope, a pointer to it.
            let object = if scope_word == LOCAL { args[0].clone() } else { Expr::new(ExprKind::Unary(UOp::Deref, Box::new(args[0].clone())), span) };
            return Some(self.thread_scoped(kind, &object, &args[1..1 + n], span));
        };
        let (release, acquire) = match kind {
            Kind::Load => (false, acquires(order)),
            Kind::Store => (releases(order), false),
            Kind::Rmw(_) | Kind::Cas { .. } => (releases(order), acquires(order) || orders.get(1).is_some_and(|&o| acquires(o))),
        };
        if release {
            self.emit(k::StmtKind::MemFence(scope, FenceOrder::Release), span);
        }
        let v = match kind {
            Kind::Load => {
                let z = || Operand::Lowered(Val { e: k::Expr::num(0, span), ty: Ty::Int });
                self.atomic_on(method, AtomicOp::Cas, scope, &args[0], &[z(), z()], span)
            }
            Kind::Store => {
                self.atomic_on(method, AtomicOp::Xchg, scope, &args[0], &[Operand::C(&args[1])], span);
                zero.clone()
            }
            Kind::Rmw(op) => self.atomic_on(method, op, scope, &args[0], &[Operand::C(&args[1])], span),
            Kind::Cas { weak } => self.compare_exchange(weak, scope, &args[0], &args[1], &args[2], span),
        };
        if acquire {
            self.emit(k::StmtKind::MemFence(scope, FenceOrder::Acquire), span);
        }
        Some(v)
    }

    /// `cuda::atomic_thread_fence(order, scope)`: a fence of the scope and order
    /// (`fence_order`), unless the order is relaxed or the scope the thread's own.
    fn thread_fence(&mut self, args: &[Expr], span: Span) {
        let [order, scope] = args else {
            self.err("`cuda::atomic_thread_fence` takes a memory order and a thread scope", span);
            return;
        };
        let (Some(o), Some(s)) = (self.const_eval(order), self.const_eval(scope)) else {
            self.unsupported("a fence whose memory order or scope is not a constant", span);
            return;
        };
        if let (Some(o), Some(f)) = (fence_order(o), fence_scope(s as u64)) {
            self.emit(k::StmtKind::MemFence(f, o), span);
        }
    }

    /// `compare_exchange_strong(expected, desired)` (or `_weak`) on `*pointer`: gives
    /// whether it exchanged; `expected` takes the value found.
    fn compare_exchange(&mut self, weak: bool, scope: FenceScope, pointer: &Expr, expected: &Expr, desired: &Expr, span: Span) -> Val {
        let failed = Val { e: k::Expr::num(0, span), ty: Ty::Int };
        let Some(place) = self.place(expected) else {
            self.unsupported("a compare-exchange whose expected value is not a variable or element", expected.span);
            return failed;
        };
        let place = self.pin(place, span);
        let cur = self.read_place(&place, span);
        let cur = self.bind_temp(cur, span);
        if matches!(cur.ty, Ty::Long { .. }) && weak {
            self.unsupported("`compare_exchange_weak` on a 64-bit value (`compare_exchange_strong` is read)", span);
            return failed;
        }
        let want = self.expr(desired);
        let want = self.convert(want, cur.ty, span);
        let want = self.bind_temp(Val { e: want, ty: cur.ty }, span);
        // A weak exchange may fail spuriously: then it writes back the value it found.
        let (new, ok) = if weak {
            let f = self.arbitrary("cas_weak_succeeds", Ty::Int, span);
            let keep = bin(BinOp::Ne, f.e, k::Expr::num(0, span), span);
            let keep = self.bind_temp(Val { e: keep, ty: Ty::Int }, span);
            (Val { e: kx(k::ExprKind::Cond(Box::new(keep.e.clone()), Box::new(want.e), Box::new(cur.e.clone())), span), ty: cur.ty }, Some(keep.e))
        } else {
            (want, None)
        };
        let old = self.atomic_on("compare_exchange", AtomicOp::Cas, scope, pointer, &[Operand::Lowered(cur.clone()), Operand::Lowered(new)], span);
        let old = self.bind_temp(old, span);
        let equal = if matches!(cur.ty, Ty::Long { .. }) {
            self.arith(BOp::Eq, old.clone(), cur, span).e
        } else {
            bin(BinOp::Eq, old.e.clone(), cur.e, span)
        };
        let equal = match ok {
            Some(keep) => bin(BinOp::LAnd, keep, equal, span),
            None => equal,
        };
        let result = self.bind_temp(Val { e: equal, ty: Ty::Int }, span);
        self.write_place(&place, old.e, span);
        result
    }

    /// An operation of an atomic only its own thread uses (`thread_scope_thread`, or a
    /// local): plain reads and writes of `object`.
    fn thread_scoped(&mut self, kind: Kind, object: &Expr, values: &[Expr], span: Span) -> Val {
        let zero = Val { e: k::Expr::num(0, span), ty: Ty::Void };
        let Some(place) = self.place(object) else { return zero };
        let place = self.pin(place, span);
        let op = match kind {
            Kind::Load => return self.read_place(&place, span),
            Kind::Store => {
                self.assign(&place, None, &values[0], span);
                return zero;
            }
            Kind::Rmw(AtomicOp::Xchg) => None,
            Kind::Rmw(AtomicOp::Add) => Some(BOp::Add),
            Kind::Rmw(AtomicOp::Sub) => Some(BOp::Sub),
            Kind::Rmw(AtomicOp::And) => Some(BOp::BitAnd),
            Kind::Rmw(AtomicOp::Or) => Some(BOp::BitOr),
            Kind::Rmw(AtomicOp::Xor) => Some(BOp::BitXor),
            _ => {
                self.unsupported("this operation on an atomic of `thread_scope_thread` (kpl reads load, store, exchange and fetch_add/sub/and/or/xor)", span);
                return zero;
            }
        };
        let old = self.read_place(&place, span);
        let old = self.bind_temp(old, span);
        self.assign(&place, op, &values[0], span);
        old
    }
}
