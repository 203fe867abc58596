//! Pointer casts that keep the bytes each word holds: `(unsigned int *)f` over a `float`
//! array, `(float4 *)a` over a `float` array, `(int *)&l` over a `long` array. kpl keeps one
//! C element (or one 4-byte part of a struct, vector or `long`) per word, so a cast is the
//! same array seen through another element type exactly when both types put the same
//! number of bytes in every word; then element offsets, counted in words, carry over. A
//! cast that changes the bytes per word (`(char *)` over `int`s) makes kpl keep the array
//! one byte per word (`bytes.rs`); anything over `double`s is refused.
//! The one byte-level form real kernels use everywhere, a pitched row
//! `(T *)((char *)p + y * pitch)`, moves `p` by whole words: the byte offset is asserted to
//! be a multiple of the bytes per word (a misaligned access faults on a GPU) and divided.

use crate::lower::context::Lower;
use crate::lower::values::{Entity, Ty, Val};
use crate::syntax::ast::*;
use kpl_lang::ast as k;
use kpl_lang::span::Span;

/// Why a cast of an array whose bytes per word kpl does not know is refused.
const UNKNOWN_BYTES: &str =
    "a pointer cast of this array (kpl knows the bytes per word of kernel parameters and of `__shared__` and file-scope arrays only)";

/// A cast's element type as written (its specifiers).
fn spelling(t: &TypeName) -> String {
    const SPACES: &[&str] = &["__global", "global", "__local", "local", "__constant", "constant", "__private", "private"];
    t.specs.iter().map(|s| s.word.as_str()).filter(|w| !SPACES.contains(w)).collect::<Vec<_>>().join(" ")
}

/// `(char *)p + e` (any 1-byte element type, `e` possibly a sum): `p` and the byte
/// offset `e`; `None` for anything else.
pub(crate) fn byte_offset(e: &Expr) -> Option<(&TypeName, &Expr, Expr)> {
    let (base, off) = crate::lower::pointers::pointer_sum(e)?;
    let ExprKind::Cast(ct, p) = &base.kind else { return None };
    Some((ct, &**p, off))
}

impl<'u> Lower<'u> {
    /// `(T *)((char *)p + e)` when the cast to a 1-byte type only moves `p` by bytes: the
    /// array `p` names, moved by `e / b` words where `b` is its bytes per word, after an
    /// assertion that `e % b == 0`; then seen as `T`. `None` when `inner` is not that form.
    pub(crate) fn moved_by_bytes(&mut self, t: &TypeName, inner: &Expr, const_param: bool, span: Span) -> Option<Option<Entity>> {
        let (ct, p, off) = byte_offset(inner)?;
        if ct.ptrs != 1 || t.ptrs != 1 || self.uniform_bytes(&ct.specs) != Some(1) {
            return None;
        }
        let Some(src) = self.array_argument(p, const_param) else { return Some(None) };
        let Entity::Array { kpl, elem, readonly, offset, agg, .. } = src else {
            self.unsupported("a pointer cast of something that is not an array in memory", span);
            return Some(None);
        };
        let Some(bytes) = self.word_bytes.get(&kpl).copied() else {
            self.unsupported(UNKNOWN_BYTES, span);
            return Some(None);
        };
        let v = self.expr(&off);
        // Named for what it is: the assertion below shows it.
        let v = if let Ty::Long { .. } = v.ty {
            self.bind_temp(v, off.span)
        } else {
            let name = self.fresh("byte_offset");
            self.emit(k::StmtKind::Local(k::Ident { name: name.clone(), span: off.span }, Some(v.e)), off.span);
            Val { e: k::Expr::var(&name, off.span), ty: v.ty }
        };
        let b = Val { e: k::Expr::num(bytes as u64, off.span), ty: Ty::Int };
        if bytes > 1 {
            let rem = self.arith(BOp::Rem, v.clone(), b.clone(), off.span);
            let zero = Val { e: k::Expr::num(0, off.span), ty: Ty::Int };
            let aligned = self.arith(BOp::Eq, rem, zero, off.span);
            let c = self.to_cond(aligned);
            self.emit(k::StmtKind::Assert(c, false), off.span);
        }
        let words = if bytes > 1 { self.arith(BOp::Div, v, b, off.span) } else { v };
        let mut i = self.convert(words, Ty::UInt, off.span);
        if let Some(prev) = offset {
            i = k::Expr::new(k::ExprKind::Binary(k::BinOp::Add, Box::new(k::Expr::var(&prev, span)), Box::new(i)), span);
        }
        let local = self.fresh(&format!("{kpl}_offset"));
        self.emit(k::StmtKind::Local(k::Ident { name: local.clone(), span }, Some(i)), span);
        let moved = Entity::Array { kpl, elem, dims: vec![], readonly, offset: Some(local), agg };
        Some(self.cast_view(t, moved, span))
    }

    /// The bytes per word of an element of type `specs`, if every word holds the same
    /// number (C's layout: word `i` at byte `i * n`, nothing between them).
    pub(crate) fn uniform_bytes(&mut self, specs: &[Spec]) -> Option<u32> {
        // A type whose size kpl does not know (`half`, ...) is never reinterpreted.
        let words: Vec<&str> = specs.iter().map(|s| s.word.as_str()).collect();
        crate::sema::layout::size_align(&words, false, self.types, self.o.dialect, 0)?;
        let (size, words, _) = self.elem_bytes(specs, false);
        let n = words.first()?.1;
        let uniform = words.iter().enumerate().all(|(i, &(o, s))| s == n && o == i as u32 * n);
        (uniform && n > 0 && size == n * words.len() as u32).then_some(n)
    }

    /// Can an array kept at bytes be seen as elements of `t` (words of at most 4 bytes, in
    /// the layout `bytes.rs` gives them)?
    fn byte_viewable(&mut self, t: &TypeName, elem: Ty, agg: &Option<crate::lower::values::CType>) -> bool {
        let words: Vec<&str> = t.specs.iter().map(|s| s.word.as_str()).collect();
        if crate::sema::layout::size_align(&words, false, self.types, self.o.dialect, 0).is_none() {
            return false;
        }
        let (size, words, _) = self.elem_bytes(&t.specs, false);
        words.iter().all(|&(_, s)| s <= 4) && self.view_layout(elem, agg) == Some((size, words))
    }

    /// Record the bytes per word of array `kpl`, declared with element type `specs`.
    pub(crate) fn note_word_bytes(&mut self, kpl: &str, specs: &[Spec]) {
        if let Some(n) = self.uniform_bytes(specs) {
            self.word_bytes.insert(kpl.to_string(), n);
        }
    }

    /// `(T *)e` where `e` denotes array `src` (seen from its offset): the same words as
    /// elements of `T`, or a diagnostic saying why not.
    pub(crate) fn cast_view(&mut self, t: &TypeName, src: Entity, span: Span) -> Option<Entity> {
        if t.ptrs != 1 {
            self.unsupported("a cast to a pointer to a pointer", span);
            return None;
        }
        let Entity::Array { kpl, elem, readonly, offset, agg, .. } = src else {
            self.unsupported("a pointer cast of something that is not an array in memory", span);
            return None;
        };
        let target = self.spec_type(&t.specs);
        let (to_elem, to_agg) = target.clone().split();
        if to_elem == Ty::Void && to_agg.is_none() {
            self.unsupported("`void` pointers", span);
            return None;
        }
        let Some(from) = self.word_bytes.get(&kpl).copied() else {
            self.unsupported(UNKNOWN_BYTES, span);
            return None;
        };
        let readonly = readonly || t.specs.iter().any(|s| s.word == "const" || s.word == "__constant" || s.word == "constant");
        let byte_view = self.byte_viewable(t, to_elem, &to_agg);
        if self.is_bytes(&kpl) {
            if !byte_view {
                let what = spelling(t);
                self.unsupported(&format!("a pointer cast to `{what} *` of an array kpl keeps as bytes (it takes elements whose words hold at most 4 bytes)"), span);
                return None;
            }
            return Some(Entity::Array { kpl, elem: to_elem, dims: vec![], readonly, offset, agg: to_agg });
        }
        let to = self.uniform_bytes(&t.specs);
        let floaty = |e: Ty, a: &Option<crate::lower::values::CType>| e == Ty::Float && a.is_none();
        let same = to.is_some_and(|to| from == to && !(from != 4 && floaty(elem, &agg) != floaty(to_elem, &to_agg)));
        if !same {
            if byte_view {
                // Seen at bytes, the next lowering pass takes this cast.
                self.want_bytes(&kpl, from);
            }
            let what = spelling(t);
            let why = match to {
                None => "its words do not all hold the same number of bytes, and kpl cannot keep this array at bytes".to_string(),
                Some(to) if from > 4 || to > 4 => {
                    format!("from {from}-byte to {to}-byte elements: kpl keeps an 8-byte `double` in one word, so it cannot keep the array at bytes")
                }
                Some(to) => format!("from {from}-byte to {to}-byte elements: kpl cannot keep this array at bytes"),
            };
            self.unsupported(&format!("a pointer cast to `{what} *` ({why})"), span);
            return None;
        }
        Some(Entity::Array { kpl, elem: to_elem, dims: vec![], readonly, offset, agg: to_agg })
    }
}
