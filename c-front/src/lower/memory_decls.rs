//! C's memory declarations ─► KPL arrays: file-scope variables, `__shared__` arrays and
//! scalars (`extern __shared__` ones unsized), `__constant__` memory and its tables, pointer
//! variables at file scope, array dimensions, and the KPL names of file-scope objects.

use crate::lower::context::Lower;
use crate::lower::values::{array_words, sp_id, CType, Entity, Ty, Val};
use crate::syntax::ast::*;
use crate::text::tokens::Dialect;
use kpl_lang::ast::{self as k, DeclKind};
use kpl_lang::diagnostic::Diagnostic;

impl<'u> Lower<'u> {
    /// File-scope variables: `__shared__` arrays and scalars.
    pub(crate) fn global_var(&mut self, d: &Decl) {
        if d.decls.is_empty() {
            // `struct s { ... };` declares a type only.
            return;
        }
        if let Some(x) = d.decls.iter().find(|x| x.reference) {
            self.unsupported("a reference at file scope", x.span);
            for x in &d.decls {
                self.bind(&x.name.name, Entity::Invalid);
            }
            return;
        }
        match self.space(&d.specs) {
            Some("shared") => self.shared_decl(d),
            Some(space) => self.memory_decl(d, space == "constant"),
            None => {
                if self.o.dialect == Dialect::Cuda {
                    // A CUDA variable in no memory space (`extern` or not) is the host's:
                    // device code cannot name it (a use is then "not declared").
                    let names: Vec<String> = d
                        .decls
                        .iter()
                        .map(|x| format!("`{}`", x.name.name))
                        .collect();
                    self.warnings.push(Diagnostic::warning(
                        format!("host code skipped: variable {} (no `__device__`, `__constant__` or `__shared__`)", names.join(", ")),
                        d.span,
                    ));
                } else if d.decls.iter().all(|x| x.init.is_none())
                    && d.specs.iter().any(|s| s.word == "extern")
                {
                    self.unsupported("`extern` declarations", d.span);
                } else {
                    self.unsupported("file-scope variables other than `__shared__` ones", d.span);
                }
            }
        }
    }

    /// The global array `name` of a file-scope variable `x` of declaration `d` (`size`
    /// words, or unsized), with the layout of its element type `elem` noted; gives the
    /// element's scalar type and aggregate type.
    fn global_memory(&mut self, name: &str, size: Option<u64>, elem: &CType, d: &Decl, x: &Declarator, constant: bool) -> (Ty, Option<CType>) {
        self.decls.push(k::Decl {
            kind: DeclKind::Global { name: sp_id(name, x.name.span), size: size.map(|n| (n, x.span)) },
            span: x.span,
        });
        let (ty, agg) = elem.clone().split();
        if let Some(t) = &agg {
            self.record_layout(name, &d.specs, t);
        }
        self.note_word_bytes(name, &d.specs);
        self.note_bytes_layout(name);
        if constant && self.o.dialect == Dialect::Cuda {
            self.constant_arrays.insert(name.to_string());
        }
        (ty, agg)
    }

    /// A file-scope `__constant__`/`__device__` (OpenCL `__constant`) variable: a global
    /// array whose contents the host sets, so arbitrary (a `__constant` one is read-only).
    /// CUDA's host may overwrite an initialiser (GPUVerify ignores it too); OpenCL keeps a
    /// `__constant` initialiser, which kpl cannot state yet, so that is refused.
    pub(crate) fn memory_decl(&mut self, d: &Decl, constant: bool) {
        let elem = self.spec_type(&d.specs);
        for x in &d.decls {
            if x.ptrs > 0 {
                self.pointer_variable(x, constant);
                continue;
            }
            let table = constant && x.init.is_some() && self.o.dialect == Dialect::OpenCl;
            if let ([None], None) = (x.dims.as_slice(), &x.init) {
                // `T a[];` (a texture, `textures.rs`): memory of a size the host decides.
                let name = self.file_scope_name(&x.name.name);
                self.byte_scale(&name);
                let (ty, agg) = self.global_memory(&name, None, &elem, d, x, constant);
                let readonly = constant || d.specs.iter().any(|s| s.word == "const");
                self.bind(
                    &x.name.name,
                    Entity::Array {
                        kpl: name,
                        elem: ty,
                        dims: vec![],
                        readonly,
                        offset: None,
                        agg,
                    },
                );
                continue;
            }
            let Some(dims) = self.array_dims(x, "a file-scope array") else {
                continue;
            };
            let words = self.words(&elem) as u64;
            let total: u64 = array_words(&dims, words);
            if total > u32::MAX as u64 {
                self.err("this array has more than 2^32 words", x.span);
                self.bind(&x.name.name, Entity::Invalid);
                continue;
            }
            if table {
                // OpenCL keeps a `__constant` initialiser: the values are the table.
                self.constant_table(x, &elem, dims, total);
                continue;
            }
            let name = self.file_scope_name(&x.name.name);
            let total = total * self.byte_scale(&name);
            let (ty, agg) = self.global_memory(&name, Some(total), &elem, d, x, constant);
            let arr = Entity::Array {
                kpl: name.clone(),
                elem: ty,
                dims: dims.clone(),
                readonly: constant,
                offset: None,
                agg: agg.clone(),
            };
            self.note_dims(&name, &dims, words);
            match (dims.is_empty(), &agg) {
                (false, _) => self.bind(&x.name.name, arr),
                (true, None) => self.bind(&x.name.name, Entity::SharedScalar { kpl: name, ty }),
                (true, Some(_)) => {
                    let zero = Expr::new(ExprKind::Int(0, false), x.span);
                    if let Some(crate::lower::values::Lv::Agg(ty, leaves)) =
                        self.element_of(arr, &[&zero], x.span)
                    {
                        self.bind(&x.name.name, Entity::Record { ty, leaves });
                    }
                }
            }
        }
    }

    /// A multi-dimensional array's C dimensions, for reports (`L[1][2]`): where an element
    /// is one word or has a layout of its own (whose `locate` gives the element).
    fn note_dims(&mut self, kpl: &str, dims: &[u32], words: u64) {
        if dims.len() > 1 && (words == 1 || self.array_layouts.elems.contains_key(kpl)) {
            self.array_layouts.dims.insert(kpl.to_string(), dims.to_vec());
        }
    }

    /// The KPL name of a file-scope variable in memory. A host variable that device code
    /// names (`templates.rs`) gets one of its own, so that a parameter or local of its C
    /// name keeps that name; reports name it by its C name.
    pub(crate) fn file_scope_name(&mut self, c_name: &str) -> String {
        if !self.host_variables.iter().any(|h| h == c_name) {
            return self.array_name(c_name);
        }
        let kpl = self.fresh(&format!("{c_name}_host"));
        self.array_layouts
            .names
            .insert(kpl.clone(), c_name.to_string());
        kpl
    }

    /// A fresh KPL name for an array of C name `c_name`; reports name it by its C name
    /// where the two differ (`shared`, a KPL keyword, is `shared_`; a second `buf`, `buf_1`).
    pub(crate) fn array_name(&mut self, c_name: &str) -> String {
        let kpl = self.fresh(c_name);
        if kpl != c_name {
            self.array_layouts
                .names
                .entry(kpl.clone())
                .or_insert_with(|| c_name.to_string());
        }
        kpl
    }

    /// A file-scope pointer variable (`__device__ char *buffer;`): its storage, one word of
    /// global memory (a pointer is 4 bytes, GPUVerify's default `--pointer-bitwidth=32`),
    /// which `&buffer` names (`atomicAdd((unsigned *)&buffer, n)`). The host sets the pointer,
    /// so kpl cannot tell which array it points into: it is a pointer stored in memory, and
    /// going through it is refused as for any such pointer.
    pub(crate) fn pointer_variable(&mut self, x: &Declarator, constant: bool) {
        if !x.dims.is_empty() || x.init.is_some() || x.ptrs > 1 {
            self.unsupported("file-scope pointer variables other than `T *p;` (an array of them, an initialiser, a pointer to a pointer)", x.span);
            self.bind(&x.name.name, Entity::Invalid);
            return;
        }
        let name = self.file_scope_name(&x.name.name);
        self.decls.push(k::Decl {
            kind: DeclKind::Global {
                name: sp_id(&name, x.name.span),
                size: Some((1, x.span)),
            },
            span: x.span,
        });
        self.word_bytes.insert(name.clone(), 4);
        if constant && self.o.dialect == Dialect::Cuda {
            self.constant_arrays.insert(name.clone());
        }
        self.pointer_storage.insert(name.clone());
        self.bind(
            &x.name.name,
            Entity::SharedScalar {
                kpl: name,
                ty: Ty::UInt,
            },
        );
    }

    /// An OpenCL `__constant` array with an initialiser: a table of constant words (at most
    /// 4096; every initialiser a constant).
    pub(crate) fn constant_table(
        &mut self,
        x: &Declarator,
        elem: &CType,
        dims: Vec<u32>,
        total: u64,
    ) {
        let whole = dims
            .iter()
            .rev()
            .fold(elem.clone(), |t, &n| CType::Array(Box::new(t), n));
        let values = match &x.init {
            Some(Init::List(items, sp)) if total <= 4096 => {
                // Lowered into a scratch block: a constant initialiser emits nothing.
                self.blocks.push(Vec::new());
                let leaves = self.init_list(&whole, items, *sp);
                let emitted = self.blocks.pop().unwrap_or_default();
                let words: Option<Vec<u32>> = leaves.and_then(|ls| {
                    ls.into_iter()
                        .map(|l| match l {
                            crate::lower::values::VLeaf::Word(Val {
                                e:
                                    k::Expr {
                                        kind: k::ExprKind::Num(n),
                                        ..
                                    },
                                ..
                            }) => Some(n as u32),
                            _ => None,
                        })
                        .collect()
                });
                words.filter(|_| emitted.is_empty())
            }
            _ => None,
        };
        let Some(values) = values else {
            self.unsupported(
                "this `__constant` initialiser (kpl keeps tables of at most 4096 constant words)",
                x.span,
            );
            self.bind(&x.name.name, Entity::Invalid);
            return;
        };
        let (ty, agg) = elem.clone().split();
        let dims = if dims.is_empty() { vec![1] } else { dims };
        self.bind(
            &x.name.name,
            Entity::Table {
                values,
                elem: ty,
                dims,
                agg,
            },
        );
    }

    /// A declarator's constant dimensions (a first `[]` takes its initialiser list's
    /// length); `None`, with an error and the name bound as invalid, if one is not a positive
    /// constant.
    pub(crate) fn array_dims(&mut self, x: &Declarator, what: &str) -> Option<Vec<u32>> {
        let mut dims = Vec::new();
        for dim in &x.dims {
            let n = match (dim.as_ref().and_then(|e| self.const_eval(e)), &x.init) {
                (Some(n), _) if n > 0 && n <= u32::MAX as i64 => n as u32,
                (None, Some(Init::List(items, _)))
                    if dim.is_none() && dims.is_empty() && !items.is_empty() =>
                {
                    items.len() as u32
                }
                _ => {
                    self.err(
                        format!("{what} needs a constant positive size"),
                        dim.as_ref().map(|e| e.span).unwrap_or(x.span),
                    );
                    self.bind(&x.name.name, Entity::Invalid);
                    return None;
                }
            };
            dims.push(n);
        }
        Some(dims)
    }

    pub(crate) fn shared_decl(&mut self, d: &Decl) {
        let ety = self.spec_type(&d.specs);
        let (elem, agg) = match &ety {
            CType::Scalar(t) => (*t, None),
            t => (Ty::Int, Some(t.clone())),
        };
        let words = match &agg {
            Some(t) => self.words(t) as u64,
            None => 1,
        };
        for x in &d.decls {
            if x.init.is_some() {
                self.err("a `__shared__` variable cannot have an initialiser", x.span);
            }
            if x.ptrs > 0 {
                self.unsupported("`__shared__` pointers", x.span);
                continue;
            }
            if d.specs.iter().any(|s| s.word == "extern") && matches!(x.dims.as_slice(), [None]) {
                self.extern_shared(x, &ety, &d.specs);
                continue;
            }
            let name = self.array_name(&x.name.name);
            if x.dims.is_empty() {
                self.decls.push(k::Decl {
                    kind: DeclKind::Shared {
                        name: sp_id(&name, x.name.span),
                        size: Some((words, x.span)),
                    },
                    span: x.span,
                });
                self.note_word_bytes(&name, &d.specs);
                match &agg {
                    // A `__shared__` struct or vector: element 0 of a one-element array.
                    Some(t) => {
                        let arr = Entity::Array {
                            kpl: name,
                            elem,
                            dims: vec![],
                            readonly: false,
                            offset: None,
                            agg: Some(t.clone()),
                        };
                        let zero = Expr::new(ExprKind::Int(0, false), x.span);
                        if let Some(crate::lower::values::Lv::Agg(ty, leaves)) =
                            self.element_of(arr, &[&zero], x.span)
                        {
                            self.bind(&x.name.name, Entity::Record { ty, leaves });
                        }
                    }
                    None => self.bind(
                        &x.name.name,
                        Entity::SharedScalar {
                            kpl: name,
                            ty: elem,
                        },
                    ),
                }
                continue;
            }
            let Some(dims) = self.array_dims(x, "a `__shared__` array") else {
                continue;
            };
            let total: u64 = array_words(&dims, words);
            if total > u32::MAX as u64 {
                self.err(
                    "this `__shared__` array has more than 2^32 elements",
                    x.span,
                );
                self.bind(&x.name.name, Entity::Invalid);
                continue;
            }
            let total = total * self.byte_scale(&name);
            self.decls.push(k::Decl {
                kind: DeclKind::Shared {
                    name: sp_id(&name, x.name.span),
                    size: Some((total, x.span)),
                },
                span: x.span,
            });
            if let Some(t) = &agg {
                self.record_layout(&name, &d.specs, t);
            }
            self.note_word_bytes(&name, &d.specs);
            self.note_bytes_layout(&name);
            self.note_dims(&name, &dims, words);
            self.bind(
                &x.name.name,
                Entity::Array {
                    kpl: name,
                    elem,
                    dims,
                    readonly: false,
                    offset: None,
                    agg: agg.clone(),
                },
            );
        }
    }

    /// `extern __shared__ T s[];`: CUDA's dynamic shared memory, whose size the launch gives.
    /// Every such declaration names the same memory, so all are one unsized `shared` array
    /// (`T` of one word: any two such declarations must agree on the word's layout).
    pub(crate) fn extern_shared(&mut self, x: &Declarator, ety: &CType, specs: &[Spec]) {
        let (elem, agg) = match ety {
            CType::Scalar(t) => (*t, None),
            t => (Ty::Int, Some(t.clone())),
        };
        let bytes = self.uniform_bytes(specs);
        let kpl = match self.extern_shared.clone() {
            Some((kpl, t, b))
                if t == *ety
                    || (matches!((&t, ety), (CType::Scalar(_), CType::Scalar(_)))
                        && b == bytes) =>
            {
                kpl
            }
            Some(_) => {
                self.unsupported("`extern __shared__` arrays of element types of different sizes (they share one memory)", x.span);
                self.bind(&x.name.name, Entity::Invalid);
                return;
            }
            None => {
                let kpl = self.fresh(&x.name.name);
                self.decls.push(k::Decl {
                    kind: DeclKind::Shared {
                        name: sp_id(&kpl, x.name.span),
                        size: None,
                    },
                    span: x.span,
                });
                if let Some(b) = bytes {
                    self.word_bytes.insert(kpl.clone(), b);
                }
                if let Some(t) = &agg {
                    self.record_layout(&kpl, specs, t);
                }
                self.byte_scale(&kpl);
                self.note_bytes_layout(&kpl);
                self.extern_shared = Some((kpl.clone(), ety.clone(), bytes));
                kpl
            }
        };
        self.bind(
            &x.name.name,
            Entity::Array {
                kpl,
                elem,
                dims: vec![],
                readonly: false,
                offset: None,
                agg,
            },
        );
    }
}
