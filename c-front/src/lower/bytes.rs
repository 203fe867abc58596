//! Byte-level arrays: an array that a pointer cast views with elements of another size
//! (`(char *)` over `int`s, `(int *)` over `short`s, a `char` buffer read as `float4`s) is
//! kept one byte per word, as GPUVerify's front end keeps such an array as bytes. Each
//! access of an element of `n` bytes is then `n` accesses, one per byte (so races, bounds
//! and benign writes are judged per byte), whose value is assembled from, or split into,
//! the bytes in C's little-endian order. Offsets into such an array count bytes.
//!
//! Which arrays: lowering meets the cast first, asks for its array (`want_bytes`), and the
//! next lowering pass (`mod.rs`) declares that array at bytes. Arrays of elements of at
//! most 4 bytes per word only (not `double`s); a thread's private arrays stay as they are.

use crate::lower::context::Lower;
use crate::lower::values::{CType, Leaf, LeafTy, Lv, Place, Ty, Val, bin};
use kpl_lang::ast as k;
use kpl_lang::span::Span;

/// `index + k` (just `index` for 0).
fn plus(index: &k::Expr, k: u32, span: Span) -> k::Expr {
    if k == 0 {
        return index.clone();
    }
    bin(k::BinOp::Add, index.clone(), k::Expr::num(k as u64, span), span)
}

/// The size in bytes of a scalar of type `t` kept in a byte-level array.
fn scalar_bytes(t: Ty) -> Option<u32> {
    match t {
        Ty::Narrow { bits, .. } => Some(bits as u32 / 8),
        Ty::Bool => Some(1),
        Ty::Int | Ty::UInt | Ty::Float => Some(4),
        Ty::Void | Ty::Long { .. } => None,
    }
}

impl<'u> Lower<'u> {
    /// Is the KPL array `kpl` kept one byte per word (declared so in this pass)?
    pub(crate) fn is_bytes(&self, kpl: &str) -> bool {
        self.bytes_declared.contains(kpl)
    }

    /// A cast needs array `kpl`, whose words hold `per_word` bytes each, at bytes: the next
    /// pass declares it so (an array of wider words, or a thread's own, never is).
    pub(crate) fn want_bytes(&mut self, kpl: &str, per_word: u32) {
        if per_word <= 4 && !self.private_arrays.contains(kpl) {
            self.wants_bytes.entry(kpl.to_string()).or_insert(per_word);
        }
    }

    /// The number by which a declaration of `kpl` multiplies its size in words: its bytes
    /// per word when the array is kept at bytes (recorded so here), else 1.
    pub(crate) fn byte_scale(&mut self, kpl: &str) -> u64 {
        match self.byte_level.get(kpl) {
            Some(&b) => {
                self.bytes_declared.insert(kpl.to_string());
                b as u64
            }
            None => 1,
        }
    }

    /// The words of array `kpl` that one element of a view of it as `elem`/`agg` takes
    /// (what a pointer into it moves by per element): its bytes if the array is kept at
    /// bytes, else its words.
    pub(crate) fn elem_units(&mut self, kpl: &str, elem: Ty, agg: &Option<CType>) -> u32 {
        if self.is_bytes(kpl) {
            return self.view_layout(elem, agg).map_or(1, |(size, _)| size);
        }
        agg.as_ref().map_or(1, |t| self.words(t))
    }

    /// After a byte-level array's declaration: a pointer cast sees it as bytes, and reports
    /// name a byte as GPUVerify does (`A[1] (byte 0)`, the element its C type gives).
    pub(crate) fn note_bytes_layout(&mut self, kpl: &str) {
        if !self.is_bytes(kpl) {
            return;
        }
        let per_word = self.byte_level.get(kpl).copied().unwrap_or(1);
        self.word_bytes.insert(kpl.to_string(), 1);
        let words = match self.array_layouts.elems.get(kpl) {
            Some(l) => l.parts.clone(),
            None if per_word > 1 => vec![(String::new(), 0, per_word)],
            None => return,
        };
        let size = words.iter().map(|(_, o, s)| o + s).max().unwrap_or(1);
        // Each byte is named by its word's path and, in a word of several bytes, which byte of
        // it it is: `A[1] (byte 0)`, `P[2].x (byte 3)`.
        let parts = (0..size)
            .map(|b| {
                let path = match words.iter().find(|(_, o, s)| *o <= b && b < o + s) {
                    Some((p, o, s)) if *s > 1 => format!("{p} (byte {})", b - o),
                    Some((p, ..)) => p.clone(),
                    None => String::new(),
                };
                (path, b, 1)
            })
            .collect();
        self.array_layouts.elems.insert(kpl.to_string(), kpl_lang::layout::ElemLayout { parts });
    }

    /// The C layout of an element seen as `elem`/`agg` in a byte-level array: its size and
    /// each word's byte offset and size. `None` for what has no such layout here (a
    /// pointer, a `double`, a `long` scalar outside a struct is `CType::Long`).
    pub(crate) fn view_layout(&mut self, elem: Ty, agg: &Option<CType>) -> Option<(u32, Vec<(u32, u32)>)> {
        let (size, words) = self.c_layout(elem, agg, &scalar_bytes)?;
        if let Some(CType::Struct(id)) = agg {
            // Each word of the struct holds one of its scalar fields.
            let leaves = self.leaves(&CType::Struct(*id));
            let fits = leaves.len() == words.len()
                && leaves.iter().zip(&words).all(|(l, &(_, s))| matches!(l, LeafTy::Word(t) if scalar_bytes(*t) == Some(s) || s == 4));
            return fits.then_some((size, words));
        }
        Some((size, words))
    }

    /// An element's C layout: its size in bytes and each word's byte offset and size, with
    /// `scalar` the bytes of a scalar (`None` where the caller cannot tell them). A struct's
    /// words are its fields' (its callers check they are the words kpl keeps).
    pub(crate) fn c_layout(&mut self, elem: Ty, agg: &Option<CType>, scalar: &dyn Fn(Ty) -> Option<u32>) -> Option<(u32, Vec<(u32, u32)>)> {
        match agg {
            None => scalar(elem).map(|s| (s, vec![(0, s)])),
            Some(CType::Long(_)) => Some((8, vec![(0, 4), (4, 4)])),
            Some(CType::Vector(t, n)) => {
                let c = scalar(*t)?;
                let slots = if *n == 3 && self.o.dialect == crate::text::tokens::Dialect::OpenCl { 4 } else { *n };
                Some((c * slots, (0..*n).map(|i| (i * c, c)).collect()))
            }
            Some(CType::Struct(id)) => {
                let fields = self.fields(*id);
                let bytes: Vec<(u32, u32)> = fields.iter().flat_map(|f| f.bytes.clone()).collect();
                let (size, _) = crate::sema::layout::struct_size(*id, self.types, self.o.dialect, 0)?;
                Some((size as u32, bytes))
            }
            Some(_) => None,
        }
    }

    /// Element `index` (counted in elements of the view) of byte-level array `kpl` seen
    /// from byte `offset`: one place per word of the element, each its bytes.
    pub(crate) fn byte_element(&mut self, kpl: String, elem: Ty, agg: Option<CType>, readonly: bool, index: k::Expr, offset: Option<String>, span: Span) -> Option<Lv> {
        let Some((size, words)) = self.view_layout(elem, &agg) else {
            self.unsupported("this element type in an array kpl keeps as bytes (it takes scalars, 64-bit integers, vectors and structs of them)", span);
            return None;
        };
        let mut index = if size == 1 { index } else { bin(k::BinOp::Mul, index, k::Expr::num(size as u64, span), span) };
        if let Some(o) = offset {
            index = bin(k::BinOp::Add, k::Expr::var(&o, span), index, span);
        }
        // Every byte of the element shares the index: compute it once if it reads memory.
        let index = if index.has_reads() { self.bind_temp(Val { e: index, ty: Ty::UInt }, span).e } else { index };
        let Some(t) = agg else {
            return Some(Lv::Word(Place::Bytes { array: kpl, index, n: size, elem, readonly }));
        };
        let leaves = self
            .leaves(&t)
            .into_iter()
            .zip(words)
            .map(|(l, (o, n))| {
                let elem = match l {
                    LeafTy::Word(t) => t,
                    LeafTy::Ptr(_) => Ty::UInt,
                };
                Leaf::Word(Place::Bytes { array: kpl.clone(), index: plus(&index, o, span), n, elem, readonly })
            })
            .collect();
        Some(Lv::Agg(t, leaves))
    }

    /// The value of the `n` bytes of `array` from `index`, low byte first, as `elem`.
    pub(crate) fn read_bytes(&mut self, array: &str, index: &k::Expr, n: u32, elem: Ty, span: Span) -> Val {
        let mut value: Option<k::Expr> = None;
        for b in 0..n {
            let raw = k::Expr::new(k::ExprKind::Index(k::Ident::new(array, span), Box::new(plus(index, b, span))), span);
            // Memory starts arbitrary: a byte is the low 8 bits of its word.
            let byte = bin(k::BinOp::BitAnd, raw, k::Expr::num(0xff, span), span);
            let byte = if b == 0 { byte } else { bin(k::BinOp::Shl, byte, k::Expr::num(8 * b as u64, span), span) };
            value = Some(match value {
                Some(v) => bin(k::BinOp::BitOr, v, byte, span),
                None => byte,
            });
        }
        let e = value.unwrap_or_else(|| k::Expr::num(0, span));
        match elem {
            Ty::Narrow { .. } => Val { e: self.convert(Val { e, ty: Ty::UInt }, elem, span), ty: Ty::Int },
            _ => Val { e, ty: elem },
        }
    }

    /// Store `v` into the `n` bytes of `array` from `index`, low byte first.
    pub(crate) fn write_bytes(&mut self, array: &str, index: &k::Expr, n: u32, v: k::Expr, span: Span) {
        let v = if n > 1 { self.bind_temp(Val { e: v, ty: Ty::UInt }, span).e } else { v };
        for b in 0..n {
            let shifted = if b == 0 { v.clone() } else { bin(k::BinOp::Shr, v.clone(), k::Expr::num(8 * b as u64, span), span) };
            let byte = bin(k::BinOp::BitAnd, shifted, k::Expr::num(0xff, span), span);
            self.emit(k::StmtKind::Store(k::Ident::new(array, span), plus(index, b, span), byte), span);
        }
    }
}
