//! The lowering's half of OpenCL images (`sema/images.rs` reads their types as memory):
//! `write_imagef/i/ui` as stores of a pixel's four words, `read_imageX` as an arbitrary
//! pixel, and the refusal of an image both read and written (see `sema/images.rs`).

use crate::lower::context::Lower;
use crate::lower::values::{AggVal, Ty, Val, bin};
use crate::syntax::ast::*;
use kpl_lang::ast::{self as k, BinOp};
use kpl_lang::span::Span;

/// The pixel type `read_imageX` gives.
pub(crate) fn read_type(n: &str) -> Option<crate::lower::values::CType> {
    let t = match n {
        "read_imagef" => Ty::Float,
        "read_imagei" => Ty::Int,
        "read_imageui" => Ty::UInt,
        _ => return None,
    };
    Some(crate::lower::values::CType::Vector(t, 4))
}

impl Lower<'_> {
    /// The words of a scalar or vector operand, each fixed in a local (so its reads stay).
    fn operand_words(&mut self, e: &Expr) -> Option<Vec<Val>> {
        let vals = if self.agg_type(e).is_some() {
            let v = self.agg_value(e)?;
            self.words_of(v)
        } else {
            vec![self.expr(e)]
        };
        Some(vals.into_iter().map(|v| self.bind_temp(v, e.span)).collect())
    }

    /// A read or write of an image: one the kernel both reads and writes (OpenCL 2.0's
    /// `read_write`) is refused, as its reads are not modelled as accesses.
    fn image_use(&mut self, img: &crate::lower::values::Entity, write: bool, span: Span) {
        let crate::lower::values::Entity::Array { kpl, .. } = img else { return };
        let (mine, other) = if write { (&mut self.images_written, &self.images_read) } else { (&mut self.images_read, &self.images_written) };
        mine.entry(kpl.clone()).or_insert(span);
        if let Some(at) = other.get(kpl).copied() {
            self.errors.push(
                kpl_lang::diagnostic::Diagnostic::error("not supported: an image the kernel both reads and writes (OpenCL 2.0's `read_write` images)", span)
                    .with_secondary(at, if write { "read here" } else { "written here" }),
            );
        }
    }

    /// `read_imagef(img, sampler, coord)` (or without the sampler): an arbitrary pixel.
    pub(crate) fn read_image(&mut self, ty: crate::lower::values::CType, args: &[Expr], span: Span) -> Option<AggVal> {
        let crate::lower::values::CType::Vector(elem, n) = ty else { return None };
        if !(2..=3).contains(&args.len()) {
            self.err("a `read_image` call takes an image, optionally a sampler, and coordinates", span);
            return None;
        }
        let img = self.array_argument(&args[0], true)?;
        self.image_use(&img, false, span);
        for a in &args[1..] {
            self.operand_words(a)?;
        }
        let leaves = (0..n).map(|_| crate::lower::values::VLeaf::Word(self.arbitrary("pixel", elem, span))).collect();
        Some(AggVal { ty, leaves })
    }

    /// `write_imagef(img, coord, color)`: the pixel's four words stored (see the module doc).
    pub(crate) fn write_image(&mut self, n: &str, args: &[Expr], span: Span) {
        if !self.arity_ok(n, args.len(), 3, span) {
            return;
        }
        let Some(img) = self.array_argument(&args[0], false) else { return };
        self.image_use(&img, true, span);
        let Some(coord) = self.operand_words(&args[1]) else { return };
        let Some(color) = self.operand_words(&args[2]) else { return };
        if color.len() != 4 {
            self.err(format!("`{n}` stores a 4-component pixel"), args[2].span);
            return;
        }
        let shifts: &[u64] = match coord.len() {
            1 => &[0],
            2 => &[0, 14],
            _ => &[0, 10, 20],
        };
        let mut linear: Option<k::Expr> = None;
        for (c, s) in coord.into_iter().zip(shifts) {
            let c = self.convert(c, Ty::UInt, span);
            let term = if *s == 0 { c } else { bin(BinOp::Shl, c, k::Expr::num(*s, span), span) };
            linear = Some(match linear {
                None => term,
                Some(l) => bin(BinOp::Add, l, term, span),
            });
        }
        let Some(linear) = linear else { return };
        let pixel = self.temp();
        self.emit(k::StmtKind::Local(k::Ident::new(&pixel, span), Some(linear)), span);
        let c_name = format!("<pixel {pixel}>");
        self.bind(&c_name, crate::lower::values::Entity::Local { kpl: pixel, ty: Ty::UInt });
        let at = Expr::new(ExprKind::Ident(kpl_lang::ast::Ident::new(&c_name, span)), span);
        for (idx, word) in self.vector_slots(&at, 4, span).into_iter().zip(color) {
            if let Some(crate::lower::values::Lv::Word(p)) = self.element_of(img.clone(), &[&idx], span) {
                // The pixel's bits as they are (a float's are not converted to an integer).
                self.write_place(&p, word.e, span);
            }
        }
    }

    /// `get_image_width(img)` and the like: an arbitrary size.
    pub(crate) fn image_size(&mut self, n: &str, args: &[Expr], span: Span) -> Val {
        if self.arity_ok(n, args.len(), 1, span) {
            self.array_argument(&args[0], true);
        }
        self.arbitrary(n, Ty::Int, span)
    }
}
