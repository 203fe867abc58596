//! Aggregate C types (structs and vector types) and their layout in 32-bit words. Every
//! scalar field, vector component and pointer field takes one word (kpl's element size for
//! every type, as for scalar arrays), fields in declaration order, a field array's
//! elements in row-major order. An array of structs in memory is one KPL array of words
//! (element `i`, field at word `o`, is word `i * words + o`); a struct or vector held in a
//! variable is one KPL local per word, and a pointer field of a by-value struct is an
//! array of its own.

use crate::lower::context::Lower;
use crate::lower::values::{CType, Field, LeafTy, Ty, swizzle};
use crate::sema::types::{struct_of, vector_name};
use crate::syntax::ast::*;
use std::rc::Rc;

impl<'u> Lower<'u> {
    /// The C type named by declaration specifiers (before any `*` or `[]`).
    pub fn spec_type(&mut self, specs: &[Spec]) -> CType {
        for s in specs {
            // cuRAND's states: an opaque word (XORWOW), or a block's 256 words (MTGP32).
            match s.word.as_str() {
                "curandState" | "curandState_t" | "curandStateXORWOW_t" => return CType::Scalar(Ty::UInt),
                "curandStateMtgp32_t" | "curandStateMtgp32" => {
                    return CType::Array(Box::new(CType::Scalar(Ty::UInt)), crate::lower::builtins::MTGP32_WORDS)
                }
                _ => {}
            }
            if let Some(n) = struct_of(&s.word) {
                return CType::Struct(n);
            }
            if let Some((elem, n)) = vector_name(&s.word, self.o.dialect) {
                let elem_spec = [Spec { word: elem.trim_start_matches("long").to_string(), span: s.span }];
                let ty = match elem {
                    "half" => Ty::Narrow { bits: 16, signed: false },
                    "float" | "double" => Ty::Float,
                    "long" | "ulong" | "longlong" | "ulonglong" => {
                        self.base_type(&[Spec { word: "long".into(), span: s.span }]);
                        Ty::Int
                    }
                    _ => self.base_type(&elem_spec),
                };
                return CType::Vector(ty, n);
            }
        }
        if let Some(signed) = crate::lower::long::long_spec(specs, self.o.pointer_bits == 64) {
            self.has_long = true;
            return CType::Long(signed);
        }
        CType::Scalar(self.base_type(specs))
    }

    /// The type of a declarator: specifiers, `*`s and constant array dimensions.
    pub fn declarator_type(&mut self, base: CType, ptrs: usize, dims: &[Option<Expr>]) -> Option<CType> {
        let mut t = base;
        for _ in 0..ptrs {
            t = CType::Pointer(Box::new(t));
        }
        for d in dims.iter().rev() {
            match d.as_ref().and_then(|e| self.const_eval(e)) {
                Some(n) if n > 0 && n <= u32::MAX as i64 => t = CType::Array(Box::new(t), n as u32),
                _ => {
                    let span = d.as_ref().map(|e| e.span).unwrap_or(kpl_lang::span::Span::new(0, 0));
                    self.err("an array inside a struct needs a constant positive size", span);
                    return None;
                }
            }
        }
        Some(t)
    }

    /// A struct's fields with their offsets (computed once).
    pub fn fields(&mut self, id: usize) -> Rc<Vec<Field>> {
        if let Some(f) = self.layouts.get(&id) {
            return f.clone();
        }
        let Some(decl) = self.types.structs.get(id).cloned() else { return Rc::new(Vec::new()) };
        if self.laying_out.contains(&id) {
            // Every struct on the cycle contains itself; each is reported once, at its
            // definition, when its own layout finishes.
            let at = self.laying_out.iter().position(|&s| s == id).unwrap_or(0);
            let cycle: Vec<usize> = self.laying_out[at..].to_vec();
            self.invalid_structs.extend(cycle);
            return Rc::new(Vec::new());
        }
        if decl.union {
            self.unsupported("unions", decl.span);
        } else if !decl.defined {
            self.err(format!("struct `{}` is declared but never defined", decl.tag), decl.span);
        }
        self.laying_out.push(id);
        let mut out = Vec::new();
        let mut offset = 0u32;
        let mut byte = 0u32;
        let mut oversized = false;
        'fields: for d in &decl.fields {
            let base = self.spec_type(&d.specs);
            for x in &d.decls {
                let Some(ty) = self.declarator_type(base.clone(), x.ptrs, &x.dims) else { continue };
                let w = self.words(&ty);
                // One element's bytes (C's layout), repeated for an array field.
                let (unit, bytes_one, align) = self.elem_bytes(&d.specs, x.ptrs > 0);
                let count = (w / (bytes_one.len().max(1) as u32)).max(1);
                let start = if decl.union { 0 } else { byte.div_ceil(align.max(1)) * align.max(1) };
                // Sizes add up in checked arithmetic: kpl's arrays hold at most 2^32 words,
                // and so does a struct, in words and in bytes (`words` saturates).
                let end = start as u64 + count as u64 * unit as u64;
                if w == u32::MAX || offset.checked_add(w).is_none() || end > u32::MAX as u64 {
                    self.err(format!("struct `{}` takes more than 2^32 words (or bytes), more than kpl's arrays hold", decl.tag), x.span);
                    oversized = true;
                    break 'fields;
                }
                let bytes = (0..count)
                    .flat_map(|i| bytes_one.iter().map(move |(o, s)| (start + i * unit + o, *s)))
                    .collect();
                out.push(Field { name: x.name.name.clone(), ty, offset, bytes });
                offset += w;
                byte = end as u32;
            }
        }
        self.laying_out.pop();
        let cyclic = self.invalid_structs.contains(&id);
        if cyclic {
            let what = if decl.union { "union" } else { "struct" };
            self.errors.push(
                kpl_lang::Diagnostic::error(format!("{what} `{}` contains itself", decl.tag), decl.span)
                    .with_help(format!("a {what} cannot hold a value of its own type (its size would be infinite), only a pointer to it")),
            );
        }
        if cyclic || oversized {
            self.invalid_structs.insert(id);
            let out = Rc::new(Vec::new());
            self.layouts.insert(id, out.clone());
            return out;
        }
        if offset == 0 && decl.defined && !decl.union {
            // Every array element and variable needs a word to exist as a KPL array or local.
            self.unsupported(&format!("struct `{}`, which holds no data (kpl gives every struct at least one word)", decl.tag), decl.span);
        }
        let out = Rc::new(out);
        self.layouts.insert(id, out.clone());
        out
    }

    /// The bytes of one element named by specifiers (or a pointer): its size, each word's
    /// byte offset and size, and its alignment.
    pub fn elem_bytes(&mut self, specs: &[Spec], pointer: bool) -> (u32, Vec<(u32, u32)>, u32) {
        let words: Vec<&str> = specs.iter().map(|s| s.word.as_str()).collect();
        let (size, align) = crate::sema::layout::size_align(&words, pointer, self.types, self.o.dialect, 0).unwrap_or((4, 4));
        let (size, align) = (size as u32, align as u32);
        if pointer {
            return (size, vec![(0, size)], align);
        }
        match self.spec_type(specs) {
            CType::Struct(id) => {
                let fs = self.fields(id);
                (size, fs.iter().flat_map(|f| f.bytes.clone()).collect(), align)
            }
            CType::Vector(_, n) => {
                let comp = if n == 3 && self.o.dialect == crate::text::tokens::Dialect::OpenCl { size / 4 } else { size / n.max(1) };
                (size, (0..n).map(|i| (i * comp, comp)).collect(), align)
            }
            CType::Long(_) => (8, vec![(0, 4), (4, 4)], align),
            _ => (size, vec![(0, size)], align),
        }
    }

    /// The layout of an array's element of type `specs` for reports (arrays of structs and
    /// vectors only).
    pub fn record_layout(&mut self, kpl: &str, specs: &[Spec], t: &CType) {
        if !t.is_aggregate() {
            return;
        }
        let (_, bytes, _) = self.elem_bytes(specs, false);
        let paths = self.leaf_paths(t);
        if bytes.len() != paths.len() {
            return;
        }
        let parts = paths.into_iter().zip(bytes).map(|(p, (o, s))| (p, o, s)).collect();
        self.array_layouts.elems.insert(kpl.to_string(), kpl_lang::layout::ElemLayout { parts });
    }

    /// How many words a value of the type takes.
    pub fn words(&mut self, t: &CType) -> u32 {
        match t {
            CType::Scalar(_) | CType::Pointer(_) => 1,
            CType::Vector(_, n) => *n,
            CType::Long(_) => 2,
            CType::Array(e, n) => self.words(e).saturating_mul(*n),
            CType::Struct(id) => {
                let f = self.fields(*id);
                f.last().map(|l| l.offset + { let t = l.ty.clone(); self.words(&t) }).unwrap_or(0)
            }
        }
    }

    /// The words of a type, in layout order.
    pub fn leaves(&mut self, t: &CType) -> Vec<LeafTy> {
        match t {
            CType::Scalar(s) => vec![LeafTy::Word(*s)],
            CType::Pointer(p) => vec![LeafTy::Ptr((**p).clone())],
            CType::Vector(s, n) => vec![LeafTy::Word(*s); *n as usize],
            CType::Long(_) => vec![LeafTy::Word(Ty::UInt); 2],
            CType::Array(e, n) => {
                let one = self.leaves(e);
                // (An element of no words, a struct already refused, gives none, at once.)
                if one.is_empty() {
                    return one;
                }
                (0..*n).flat_map(|_| one.clone()).collect()
            }
            CType::Struct(id) => {
                let fs = self.fields(*id);
                fs.iter().flat_map(|f| self.leaves(&f.ty)).collect()
            }
        }
    }

    /// The name of each word of a type, for the KPL locals of a variable (`v_x`, `s_a_1`).
    pub fn leaf_names(&mut self, t: &CType) -> Vec<String> {
        self.leaf_paths(t)
            .into_iter()
            .map(|p| p.trim_start_matches(['.', '[']).replace("][", "_").replace("].", "_").replace(['.', '['], "_").replace(']', ""))
            .collect()
    }

    /// The C path of each word of a type (`.x`, `.p.y`, `.a[1]`), empty for a scalar.
    pub fn leaf_paths(&mut self, t: &CType) -> Vec<String> {
        match t {
            CType::Scalar(_) | CType::Pointer(_) => vec![String::new()],
            CType::Long(_) => vec![".lo".into(), ".hi".into()],
            CType::Vector(_, n) => {
                (0..*n).map(|i| ["x", "y", "z", "w"].get(i as usize).map(|s| format!(".{s}")).unwrap_or(format!(".s{i:x}"))).collect()
            }
            CType::Array(e, n) => {
                let one = self.leaf_paths(e);
                if one.is_empty() {
                    return one;
                }
                (0..*n).flat_map(|i| one.iter().map(move |s| format!("[{i}]{s}"))).collect()
            }
            CType::Struct(id) => {
                let fs = self.fields(*id);
                let mut out = Vec::new();
                for f in fs.iter() {
                    for s in self.leaf_paths(&f.ty) {
                        out.push(format!(".{}{s}", f.name));
                    }
                }
                out
            }
        }
    }

    /// A member of an aggregate: its type and the indices of its words within the
    /// aggregate's. `None` (with a diagnostic) if there is no such member.
    pub fn member_of(&mut self, t: &CType, m: &kpl_lang::ast::Ident) -> Option<(CType, Vec<u32>)> {
        match t {
            CType::Struct(id) => {
                let fs = self.fields(*id);
                match fs.iter().find(|f| f.name == m.name) {
                    Some(f) => {
                        let w = self.words(&f.ty);
                        Some((f.ty.clone(), (f.offset..f.offset + w).collect()))
                    }
                    // (A struct that contains itself is reported once, at its definition.)
                    None if self.invalid_structs.contains(id) => None,
                    None => {
                        let tag = self.types.structs.get(*id).map(|s| s.tag.clone()).unwrap_or_default();
                        self.err(format!("struct `{tag}` has no field `{}`", m.name), m.span);
                        None
                    }
                }
            }
            CType::Vector(s, n) => match swizzle(&m.name, *n) {
                Some(idx) if idx.len() == 1 => Some((CType::Scalar(*s), idx)),
                Some(idx) => {
                    let len = idx.len() as u32;
                    Some((CType::Vector(*s, len), idx))
                }
                None => {
                    self.err(format!("`{}` is not a component of a {n}-component vector", m.name), m.span);
                    None
                }
            },
            _ => {
                self.err(format!("`.{}` on a value that is not a struct or vector", m.name), m.span);
                None
            }
        }
    }

    /// A type as C writes it, for messages.
    pub fn type_name(&self, t: &CType) -> String {
        match t {
            CType::Scalar(s) => s.c_name().into(),
            CType::Vector(s, n) => format!("{}{n}", s.c_name()),
            CType::Long(signed) => if *signed { "long" } else { "unsigned long" }.into(),
            CType::Struct(id) => format!("struct {}", self.types.structs.get(*id).map(|s| s.tag.as_str()).unwrap_or("?")),
            CType::Array(e, n) => format!("{}[{n}]", self.type_name(e)),
            CType::Pointer(e) => format!("{} *", self.type_name(e)),
        }
    }
}
