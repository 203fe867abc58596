//! C atomics ─► KPL's `atomic` statement: CUDA's `atomicAdd` ... `atomicCAS` (and their
//! `_block`/`_system` variants, of `group`/`system` scope), OpenCL's `atomic_*`, `atom_*` and `atomic_fetch_*`, on an
//! element named by `&a[i]`, `a + i`, `a` or a `__shared__` scalar's address; on a 64-bit
//! integer (two words, `long.rs`) KPL's 64-bit form (`add64`); on an array kpl keeps at
//! bytes (`bytes.rs`) the byte forms (`add_bytes`, `add64_bytes`).

use crate::lower::context::Lower;
use crate::lower::long::pair;
use crate::lower::values::{Place, Ty, Val, sp_id};
use crate::syntax::ast::*;
use crate::text::tokens::Dialect;
use kpl_lang::ast::{self as k, AtomicOp, AtomicShape, FenceScope};
use kpl_lang::span::Span;

/// The KPL operation of a C atomic, and how many value operands it takes after the
/// pointer (`inc`/`dec` of OpenCL take none: they add or subtract 1).
fn operation(name: &str, d: Dialect) -> Option<(AtomicOp, usize)> {
    use AtomicOp::*;
    let base = name.strip_suffix("_block").or_else(|| name.strip_suffix("_system")).unwrap_or(name);
    Some(match d {
        Dialect::Cuda => match base {
            "atomicAdd" => (Add, 1),
            "atomicSub" => (Sub, 1),
            "atomicExch" => (Xchg, 1),
            "atomicMin" => (Min, 1),
            "atomicMax" => (Max, 1),
            "atomicInc" => (Inc, 1),
            "atomicDec" => (Dec, 1),
            "atomicCAS" => (Cas, 2),
            "atomicAnd" => (And, 1),
            "atomicOr" => (Or, 1),
            "atomicXor" => (Xor, 1),
            _ => return None,
        },
        Dialect::OpenCl => {
            let op = base
                .strip_prefix("atomic_fetch_")
                .or_else(|| base.strip_prefix("atomic_"))
                .or_else(|| base.strip_prefix("atom_"))?;
            match op {
                "add" => (Add, 1),
                "sub" => (Sub, 1),
                "xchg" | "exchange" => (Xchg, 1),
                "min" => (Min, 1),
                "max" => (Max, 1),
                "inc" => (Add, 0),
                "dec" => (Sub, 0),
                "cmpxchg" => (Cas, 2),
                "and" => (And, 1),
                "or" => (Or, 1),
                "xor" => (Xor, 1),
                _ => return None,
            }
        }
    })
}

/// The scope of a CUDA atomic, from its name: `atomicAdd_block` is atomic for its block only,
/// `atomicAdd_system` for the host too (within a kernel, as the device), the others for the
/// device.
fn scope_of(name: &str) -> FenceScope {
    if name.ends_with("_block") {
        FenceScope::Group
    } else if name.ends_with("_system") {
        FenceScope::System
    } else {
        FenceScope::Device
    }
}

impl Lower<'_> {
    /// Lower a call of a C atomic; `None` if `name` is not one.
    pub(crate) fn atomic_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let (op, operands) = operation(name, self.o.dialect)?;
        let values: Vec<Operand> = args.iter().skip(1).map(Operand::C).collect();
        if args.len() != operands + 1 {
            self.err(format!("`{name}` takes a pointer and {operands} value(s)"), span);
            return Some(Val { e: k::Expr::num(0, span), ty: Ty::Int });
        }
        Some(self.atomic_on(name, op, scope_of(name), &args[0], &values, span))
    }

    /// KPL's atomic `op` of scope `scope` on the element `pointer` points at, with `values`
    /// after it (none for OpenCL's `inc`/`dec`: 1) (`name` is the C function's, for
    /// messages); gives the old value.
    pub(crate) fn atomic_on(&mut self, name: &str, mut op: AtomicOp, scope: FenceScope, pointer: &Expr, values: &[Operand], span: Span) -> Val {
        let failed = Val { e: k::Expr::num(0, span), ty: Ty::Int };
        if crate::lower::multiptr::null_const(pointer) {
            self.null_access(format!("the pointer given to `{name}`"), pointer.span);
            return failed;
        }
        let Some(target) = self.atomic_target(pointer) else { return failed };
        // A group's shared memory is its own: a `group` atomic on it is a device one.
        let scope = if scope == FenceScope::Group && self.is_shared_array(target.array()) { FenceScope::Device } else { scope };
        let (array, index, elem, bytes) = match target {
            Target::Word(array, index, elem, bytes) => (array, index, elem, bytes),
            Target::Wide(array, index, signed, bytes) => return self.atomic64(op, scope, array, index, signed, bytes, values, span),
        };
        // CUDA's `atomicAdd` on a `float` (or a `double`, one float word in kpl) adds as
        // floats; OpenCL C has no float atomic arithmetic.
        if elem == Ty::Float && op == AtomicOp::Add && self.o.dialect == Dialect::Cuda {
            op = AtomicOp::Fadd;
        }
        if elem == Ty::Float && !matches!(op, AtomicOp::Xchg | AtomicOp::Cas | AtomicOp::Fadd) {
            self.unsupported("atomic arithmetic on floats other than CUDA's `atomicAdd`", span);
            return failed;
        }
        // Signed elements compare as signed numbers.
        if elem == Ty::Int {
            op = match op {
                AtomicOp::Min => AtomicOp::Smin,
                AtomicOp::Max => AtomicOp::Smax,
                o => o,
            };
        }
        let mut words: Vec<k::Expr> = Vec::new();
        for a in values {
            let v = a.lower(self);
            words.push(self.convert(v, elem, span));
        }
        if values.is_empty() {
            words.push(k::Expr::num(1, span));
        }
        let t = self.temp();
        let atomic = k::Atomic {
            dest: Some(sp_id(&t, span)),
            dest_hi: None,
            declare: true,
            op: sp_id(&op.name_in(AtomicShape { wide: false, bytes }), span),
            array: sp_id(&array, span),
            index,
            args: words,
            scope,
        };
        self.emit(k::StmtKind::Atomic(atomic), span);
        Val { e: k::Expr::var(&t, span), ty: elem }
    }

    /// A 64-bit atomic (KPL's `add64` ...) on the 64-bit integer whose low word is
    /// `array[index]` (whose lowest byte, `bytes`: `add64_bytes`): its operands as word
    /// pairs, its old value as a 64-bit value.
    #[allow(clippy::too_many_arguments)]
    fn atomic64(&mut self, op: AtomicOp, scope: FenceScope, array: String, index: k::Expr, signed: bool, bytes: bool, values: &[Operand], span: Span) -> Val {
        let ty = Ty::Long { signed };
        let op = match op {
            AtomicOp::Min if signed => AtomicOp::Smin,
            AtomicOp::Max if signed => AtomicOp::Smax,
            // OpenCL's `atom_inc`/`atom_dec` (no operand) add or subtract 1; CUDA has no
            // 64-bit `atomicInc`/`atomicDec`.
            AtomicOp::Inc | AtomicOp::Dec | AtomicOp::Fadd => {
                self.unsupported(&format!("`{}` on a 64-bit integer", op.name()), span);
                return Val { e: pair(k::Expr::num(0, span), k::Expr::num(0, span), span), ty };
            }
            o => o,
        };
        let mut words: Vec<k::Expr> = Vec::new();
        for a in values {
            let v = a.lower(self);
            let (lo, hi) = self.long_words(v, span);
            words.extend([lo, hi]);
        }
        if values.is_empty() {
            words.extend([k::Expr::num(1, span), k::Expr::num(0, span)]);
        }
        let (lo, hi) = (self.temp(), self.temp());
        let atomic = k::Atomic {
            dest: Some(sp_id(&lo, span)),
            dest_hi: Some(sp_id(&hi, span)),
            declare: true,
            op: sp_id(&op.name_in(AtomicShape { wide: true, bytes }), span),
            array: sp_id(&array, span),
            index,
            args: words,
            scope,
        };
        self.emit(k::StmtKind::Atomic(atomic), span);
        Val { e: pair(k::Expr::var(&lo, span), k::Expr::var(&hi, span), span), ty }
    }

    /// The element a pointer argument names: `&a[i]`, `&s` (a `__shared__` scalar),
    /// `a + i` or `a`.
    fn atomic_target(&mut self, p: &Expr) -> Option<Target> {
        let span = p.span;
        let as_index = |base: &Expr, i: &Expr| Expr::new(ExprKind::Index(Box::new(base.clone()), Box::new(i.clone())), span);
        let place = match &p.kind {
            ExprKind::Unary(UOp::Addr, inner) => self.place(inner),
            // `a + i`, `a + i + j`: the sum of the offsets.
            ExprKind::Binary(BOp::Add | BOp::Sub, ..)
                if crate::lower::pointers::pointer_sum(p).is_some_and(|(b, _)| matches!(b.kind, ExprKind::Ident(_))) =>
            {
                let (base, off) = crate::lower::pointers::pointer_sum(p)?;
                self.place(&as_index(base, &off))
            }
            ExprKind::Ident(_) => self.place(&as_index(p, &Expr::new(ExprKind::Int(0, false), span))),
            // `atomicCAS((int *)&f[i], ...)`, `(int *)g + 4`: the element through the cast's
            // type.
            ExprKind::Cast(t, _) if t.ptrs > 0 => self.cast_element(p),
            ExprKind::Binary(BOp::Add | BOp::Sub, base, _) if matches!(&base.kind, ExprKind::Cast(t, _) if t.ptrs > 0) => self.cast_element(p),
            _ => {
                self.unsupported("an atomic on this pointer expression (kpl takes `&a[i]`, `a + i` or `a`)", span);
                return None;
            }
        };
        match place? {
            Place::Elem { readonly: true, .. } => {
                self.err("an atomic on read-only (`const` or `__constant`) memory", span);
                None
            }
            Place::Elem { array, index, elem, .. } => Some(Target::Word(array, index, elem, false)),
            Place::Bytes { readonly: true, .. } => {
                self.err("an atomic on read-only (`const` or `__constant`) memory", span);
                None
            }
            // A 4-byte integer or float of an array kept at bytes: KPL's byte form.
            Place::Bytes { array, index, n: 4, elem, .. } => Some(Target::Word(array, index, elem, true)),
            Place::Bytes { n, .. } => {
                self.unsupported(&format!("an atomic on a {n}-byte element (kpl has atomics on 4- and 8-byte ones)"), span);
                None
            }
            Place::Const(..) => {
                self.err("an atomic on read-only (`const` or `__constant`) memory", span);
                None
            }
            Place::Local(..) => {
                self.unsupported("an atomic on a thread's own variable", span);
                None
            }
            Place::Pair { lo, hi, signed } => match (*lo, *hi) {
                (Place::Elem { readonly: true, .. }, _) => {
                    self.err("an atomic on read-only (`const` or `__constant`) memory", span);
                    None
                }
                // The words of a 64-bit element are consecutive, the low one first.
                (Place::Elem { array, index, .. }, Place::Elem { array: hi_array, .. }) if hi_array == array => {
                    Some(Target::Wide(array, index, signed, false))
                }
                (Place::Bytes { readonly: true, .. }, _) => {
                    self.err("an atomic on read-only (`const` or `__constant`) memory", span);
                    None
                }
                // In an array kept at bytes, the high word's 4 bytes follow the low word's.
                (Place::Bytes { array, index, n: 4, .. }, Place::Bytes { array: hi_array, n: 4, .. }) if hi_array == array => {
                    Some(Target::Wide(array, index, signed, true))
                }
                _ => {
                    self.unsupported("an atomic on a thread's own 64-bit variable", span);
                    None
                }
            },
        }
    }
}

impl Lower<'_> {
    /// The element a pointer through a cast names (`(int *)&f[i]`, `(long *)(g + 8)`).
    fn cast_element(&mut self, p: &Expr) -> Option<Place> {
        let span = p.span;
        let arr = self.array_argument(p, false)?;
        match self.element_of(arr, &[&Expr::new(ExprKind::Int(0, false), span)], span)? {
            crate::lower::values::Lv::Word(place) => Some(place),
            // A 64-bit integer in an array kept at bytes: its two 4-byte words.
            crate::lower::values::Lv::Agg(crate::lower::values::CType::Long(signed), leaves) => self.long_place(&leaves, signed),
            _ => {
                self.unsupported("an atomic on a struct or vector", span);
                None
            }
        }
    }
}

/// An operand of an atomic: a C expression, or a value already lowered.
pub(crate) enum Operand<'a> {
    C(&'a Expr),
    Lowered(Val),
}

impl Operand<'_> {
    fn lower(&self, l: &mut Lower<'_>) -> Val {
        match self {
            Operand::C(e) => l.expr(e),
            Operand::Lowered(v) => v.clone(),
        }
    }
}

/// What an atomic acts on: an element (array, index, element type), or the two words of a
/// 64-bit integer (array, the low word's index, signed); each also in an array kept at
/// bytes (`true`: the index is the lowest byte's).
enum Target {
    Word(String, k::Expr, Ty, bool),
    Wide(String, k::Expr, bool, bool),
}

impl Target {
    fn array(&self) -> &str {
        match self {
            Target::Word(a, ..) | Target::Wide(a, ..) => a,
        }
    }
}

impl Lower<'_> {
    /// Is `array` a KPL shared array (one instance per group)?
    fn is_shared_array(&self, array: &str) -> bool {
        self.decls.iter().any(|d| matches!(&d.kind, k::DeclKind::Shared { name, .. } if name.name == array))
    }
}
