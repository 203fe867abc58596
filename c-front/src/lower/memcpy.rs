//! `memcpy` and `memset` (and their `__builtin_` forms) with a length kpl knows: a constant,
//! or a local initialised with one and never assigned. C copies bytes; kpl keeps one field
//! or element per word, so the bytes are matched word by word through both sides' C
//! layouts: every word whose bytes the length reaches is written, from the source words
//! that hold its bytes (read as accesses, so races and bounds are checked like any other;
//! a padding byte is arbitrary; a word the length ends inside keeps its other bytes).
//! Refused: 8-byte words (`double`s, one word in kpl) other than between identical
//! layouts, a length or value kpl does not know, a pointer kpl cannot follow (a `char *`
//! offset into a struct); `NULL` is a null pointer access.

use crate::lower::context::Lower;
use crate::lower::values::{CType, Entity, Leaf, Lv, Place, Ty, Val, bin};
use crate::syntax::ast::*;
use kpl_lang::ast as k;
use kpl_lang::span::Span;

/// One word of a copied range: the element it belongs to, its word in the element, its
/// first byte in the range, its size and how many of its bytes the range covers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Part {
    elem: u32,
    word: usize,
    start: u32,
    size: u32,
    covered: u32,
}

/// The longest copy kpl writes out word by word.
const MAX_BYTES: u64 = 1 << 14;

/// A mask of the low `n` bytes of a word.
fn low_bytes(n: u32) -> u64 {
    if n >= 4 {
        0xffff_ffff
    } else {
        (1u64 << (8 * n)) - 1
    }
}

/// `memcpy`, `memset` and their `__builtin_` forms: which one (`true`: a copy).
pub(crate) fn mem_function(n: &str) -> Option<bool> {
    match n {
        "memcpy" | "__builtin_memcpy" => Some(true),
        "memset" | "__builtin_memset" => Some(false),
        _ => None,
    }
}

/// The words of the first `n` bytes from an element boundary of an array whose elements
/// are `size` bytes with words at `words` (byte offset, size).
fn parts(size: u32, words: &[(u32, u32)], n: u32) -> Vec<Part> {
    let mut out = Vec::new();
    let mut e = 0u32;
    while size > 0 && e.saturating_mul(size) < n {
        for (w, &(o, s)) in words.iter().enumerate() {
            let start = e * size + o;
            if start >= n {
                break;
            }
            out.push(Part { elem: e, word: w, start, size: s, covered: s.min(n - start) });
        }
        e += 1;
    }
    out
}

impl<'u> Lower<'u> {
    /// `memcpy(dst, src, n)` or `memset(dst, v, n)` as statements; `copy` says which.
    pub(crate) fn mem_call(&mut self, n: &str, copy: bool, args: &[Expr], span: Span) -> Val {
        let void = Val { e: k::Expr::num(0, span), ty: Ty::Void };
        if !self.arity_ok(n, args.len(), 3, span) {
            return void;
        }
        let Some(len) = self.known_value(&args[2]) else {
            self.unsupported(&format!("`{n}` with a length kpl does not know (a constant, or a local initialised with one and never assigned)"), args[2].span);
            return void;
        };
        let fill = if copy {
            None
        } else {
            let Some(v) = self.known_value(&args[1]) else {
                self.unsupported(&format!("`{n}` with a value kpl does not know (a constant)"), args[1].span);
                return void;
            };
            Some((v & 0xff) as u32)
        };
        if len > MAX_BYTES {
            self.unsupported(&format!("`{n}` of {len} bytes (kpl writes each word of a copy: at most {MAX_BYTES} bytes)"), args[2].span);
            return void;
        }
        let len = len as u32;
        let Some(dst) = self.mem_side(n, &args[0]) else { return void };
        let src = match copy {
            true => match self.mem_side(n, &args[1]) {
                Some(e) => Some(e),
                None => return void,
            },
            false => None,
        };
        let Some(dst_parts) = self.all_parts(&dst, len, &args[0]) else { return void };
        let src_parts = match &src {
            Some(ent) => match self.all_parts(ent, len, &args[1]) {
                Some(p) => Some(p),
                None => return void,
            },
            None => None,
        };
        // Identical layouts copy word for word (whatever the words hold); others are
        // assembled byte by byte from the source words that hold each byte.
        let key = |p: &Part| (p.start, p.size, p.covered);
        let aligned = src_parts.as_ref().is_some_and(|sp| sp.len() == dst_parts.len() && sp.iter().zip(&dst_parts).all(|(a, b)| key(a) == key(b)));
        let wide = |ps: &[Part]| ps.iter().any(|p| p.size > 4);
        if src_parts.is_some() && !aligned && (wide(&dst_parts) || src_parts.as_deref().is_some_and(wide)) {
            self.unsupported(
                &format!("`{n}` of 8-byte words (`double`s: kpl keeps each in one word) other than between identical layouts"),
                span,
            );
            return void;
        }
        // An 8-byte word is one word in kpl: it is copied whole, or cleared, or refused.
        let split = |ps: &[Part]| ps.iter().any(|p| p.size > 4 && p.covered < p.size);
        let pattern = fill.is_some_and(|b| b != 0) && wide(&dst_parts);
        if split(&dst_parts) || src_parts.as_deref().is_some_and(split) || pattern {
            self.unsupported(&format!("`{n}` of part of an 8-byte word, or a nonzero byte pattern into one (a `double`: kpl keeps it in one word)"), span);
            return void;
        }
        let mut src_vals: Vec<Option<k::Expr>> = vec![None; src_parts.as_ref().map_or(0, |p| p.len())];
        for (i, d) in dst_parts.iter().enumerate() {
            let Some(dp) = self.part_place(&dst, d, span) else { return void };
            let value = match (&src, &src_parts) {
                (Some(se), Some(sp)) if aligned => {
                    let Some(spl) = self.part_place(se, &sp[i], span) else { return void };
                    self.read_place(&spl, span).e
                }
                (Some(se), Some(sp)) => {
                    let Some(v) = self.assemble(se, sp, &mut src_vals, d, span) else { return void };
                    v
                }
                _ => {
                    let b = fill.unwrap_or(0) as u64;
                    k::Expr::num((0..d.covered).fold(0u64, |acc, i| acc | (b << (8 * i))), span)
                }
            };
            let value = if d.covered < d.size {
                // The bytes past the length keep the destination's.
                let mask = low_bytes(d.covered);
                let old = self.read_place(&dp, span).e;
                let keep = bin(k::BinOp::BitAnd, old, k::Expr::num(!mask & 0xffff_ffff, span), span);
                bin(k::BinOp::BitOr, keep, bin(k::BinOp::BitAnd, value, k::Expr::num(mask, span), span), span)
            } else {
                value
            };
            // A `char` or `short` word holds its value as C promotes it.
            let value = match &dp {
                Place::Elem { elem: t @ Ty::Narrow { .. }, .. } | Place::Local(_, t @ Ty::Narrow { .. }) => self.convert(Val { e: value, ty: Ty::UInt }, *t, span),
                _ => value,
            };
            let value = self.bind_temp(Val { e: value, ty: Ty::UInt }, span).e;
            self.write_place(&dp, value, span);
        }
        void
    }

    /// The covered bytes of destination word `d`, each from the source word that holds it
    /// (read once, into `vals`); a byte no source word holds (padding) is arbitrary.
    fn assemble(&mut self, se: &Entity, sp: &[Part], vals: &mut [Option<k::Expr>], d: &Part, span: Span) -> Option<k::Expr> {
        let num = |v: u64| k::Expr::num(v, span);
        let (mut b, end) = (d.start, d.start + d.covered);
        let mut value: Option<k::Expr> = None;
        while b < end {
            let (piece, next) = match sp.iter().position(|s| s.start <= b && b < s.start + s.covered) {
                Some(j) => {
                    let s = sp[j];
                    if vals[j].is_none() {
                        let place = self.part_place(se, &s, span)?;
                        let v = self.read_place(&place, span);
                        vals[j] = Some(self.bind_temp(Val { e: v.e, ty: Ty::UInt }, span).e);
                    }
                    let next = end.min(s.start + s.covered);
                    let v = vals[j].clone()?;
                    (if b > s.start { bin(k::BinOp::Shr, v, num(8 * (b - s.start) as u64), span) } else { v }, next)
                }
                None => {
                    let next = sp.iter().map(|s| s.start).filter(|&x| x > b).min().unwrap_or(end).min(end);
                    let r = self.fresh("padding");
                    self.emit(k::StmtKind::Local(k::Ident { name: r.clone(), span }, None), span);
                    self.emit(k::StmtKind::Havoc(k::Ident { name: r.clone(), span }), span);
                    (k::Expr::var(&r, span), next)
                }
            };
            let piece = bin(k::BinOp::BitAnd, piece, num(low_bytes(next - b)), span);
            let piece = if b > d.start { bin(k::BinOp::Shl, piece, num(8 * (b - d.start) as u64), span) } else { piece };
            value = Some(match value {
                Some(v) => bin(k::BinOp::BitOr, v, piece, span),
                None => piece,
            });
            b = next;
        }
        value
    }

    /// A constant, or a local initialised with a constant that nothing assigns.
    fn known_value(&mut self, e: &Expr) -> Option<u64> {
        if let Some(v) = self.const_eval(e) {
            return Some(v as u64);
        }
        let ExprKind::Ident(x) = &e.kind else { return None };
        let Some(Entity::Local { kpl, .. }) = self.lookup(&x.name) else { return None };
        let v = *self.constant_locals.get(&kpl)?;
        let assigned = self.funcs.values().any(|f| crate::lower::ast_facts::assigned_names(f.body.as_ref()).contains(&x.name));
        (!assigned).then_some(v)
    }

    /// One pointer argument: its array (`NULL` is a null pointer access, reported here).
    fn mem_side(&mut self, n: &str, a: &Expr) -> Option<Entity> {
        if crate::lower::multiptr::null_const(a) {
            self.null_access(format!("the pointer given to `{n}`"), a.span);
            return None;
        }
        self.array_argument(a, false)
    }

    /// The words of `len` bytes of `ent` from its offset, or a diagnostic at `a`.
    fn all_parts(&mut self, ent: &Entity, len: u32, a: &Expr) -> Option<Vec<Part>> {
        let Some((size, words)) = self.elem_layout(ent) else {
            self.unsupported("`memcpy`/`memset` of memory whose C layout kpl does not know here (`float`s and `double`s of arrays other than kernel parameters, `__shared__` and file-scope arrays)", a.span);
            return None;
        };
        Some(parts(size, &words, len))
    }

    /// An element's size in bytes and its words' byte offsets and sizes.
    fn elem_layout(&mut self, ent: &Entity) -> Option<(u32, Vec<(u32, u32)>)> {
        let Entity::Array { kpl, elem, agg, offset, .. } = ent else { return None };
        if let Some(&w) = offset.as_ref().and_then(|o| self.field_widths.get(o)).filter(|_| agg.is_none()) {
            return Some((w, vec![(0, w)]));
        }
        // An array kept at bytes is copied byte by byte (its padding too, as C does).
        if self.is_bytes(kpl) {
            let (size, _) = self.view_layout(*elem, agg)?;
            return Some((size, (0..size).map(|b| (b, 1)).collect()));
        }
        let words = match agg {
            Some(t) => self.words(t),
            None => 1,
        };
        if let Some(&u) = self.word_bytes.get(kpl) {
            return Some((u * words, (0..words).map(|i| (i * u, u)).collect()));
        }
        let scalar = |t: Ty| match t {
            Ty::Narrow { bits, .. } => Some(bits as u32 / 8),
            Ty::Bool => Some(1),
            Ty::Int | Ty::UInt => Some(4),
            _ => None,
        };
        let (size, bytes) = self.c_layout(*elem, agg, &scalar)?;
        // A struct's fields must be the words kpl keeps for it.
        (!matches!(agg, Some(CType::Struct(_))) || bytes.len() == words as usize).then_some((size, bytes))
    }

    /// The place of one copied word (a byte, in an array kept at bytes).
    fn part_place(&mut self, ent: &Entity, p: &Part, span: Span) -> Option<Place> {
        let Entity::Array { kpl, elem, readonly, offset, agg, .. } = ent.clone() else { return None };
        if self.is_bytes(&kpl) {
            let at = k::Expr::num(p.start as u64, span);
            let index = match &offset {
                Some(o) => bin(k::BinOp::Add, k::Expr::var(o, span), at, span),
                None => at,
            };
            return Some(Place::Bytes { array: kpl, index, n: 1, elem: Ty::UInt, readonly });
        }
        let flat = Entity::Array { kpl, elem, dims: vec![], readonly, offset, agg };
        let idx = Expr::new(ExprKind::Int(p.elem as u64, false), span);
        match self.element_of(flat, &[&idx], span)? {
            Lv::Word(Place::Pair { lo, hi, .. }) => Some(if p.word == 0 { *lo } else { *hi }),
            Lv::Word(place) => Some(place),
            Lv::Agg(_, leaves) => match leaves.into_iter().nth(p.word)? {
                Leaf::Word(place) => Some(place),
                Leaf::Ptr(_) | Leaf::PtrVar(_) => None,
            },
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_whole_and_partial_words() {
        // struct { short x; short y; char z; }: 6 bytes, words at 0, 2, 4.
        let w = [(0, 2), (2, 2), (4, 1)];
        let p = parts(6, &w, 12);
        assert_eq!(p.len(), 6);
        assert_eq!((p[3].elem, p[3].word, p[3].start), (1, 0, 6));
        let p = parts(4, &[(0, 2), (2, 2)], 5);
        assert_eq!(p.len(), 3);
        assert_eq!((p[2].start, p[2].covered), (4, 1));
        assert!(parts(4, &[(0, 4)], 0).is_empty());
    }
}
