//! C ─► KPL: kernels, parameters, declarations and statements. Every KPL name is unique in
//! the kernel (C's shadowing and sibling scopes become renamings), `__device__` functions
//! are inlined at their calls, `return` becomes a flag that disables the returned threads
//! for the rest of the function (the paper's K-CALL), `for` and `do` become `while`.
//! Stage 4, lowering: imports `text`, `syntax` and `sema`, never the stages after it.

pub(crate) mod agg;
pub(crate) mod annotations;
pub(crate) mod async_copy;
pub(crate) mod atomics;
pub(crate) mod auto_types;
pub(crate) mod builtins;
pub(crate) mod bytes;
pub(crate) mod casts;
pub(crate) mod context;
pub mod contract_calls;
pub(crate) mod ctypes;
pub(crate) mod expr;
pub(crate) mod fnptr;
pub(crate) mod gotos;
pub(crate) mod image_access;
pub(crate) mod inline_temps;
pub(crate) mod long;
pub(crate) mod long_counters;
pub(crate) mod long_div;
pub(crate) mod memcpy;
pub mod modular;
pub(crate) mod multiptr;
pub(crate) mod operator_calls;
pub(crate) mod overload_calls;
pub(crate) mod pointer_fields;
pub(crate) mod pointers;
pub(crate) mod private;
pub(crate) mod references;
pub(crate) mod statics;
pub(crate) mod values;
pub(crate) mod warp;

use crate::syntax::ast::*;
use crate::lower::values::PtrDecl;
use crate::lower::values::{CType, LeafTy};
use crate::lower::values::Leaf;
use crate::lower::values::{Place, Val};
use crate::text::tokens::Dialect;
use crate::sema::typedecls::TypeTable;
use crate::options::FrontOptions;
use kpl_lang::ast::{self as k, DeclKind, Ident};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::{HashMap, HashSet};
use crate::lower::values::{Ty, sp_id};
use crate::lower::context::{LoopCtx, ContinueAction, Ret, Frame, Lower};
use crate::lower::values::Entity;
use crate::lower::values::array_words;

pub(crate) struct Lowered {
    pub kernel: Option<k::Kernel>,
    pub layouts: kpl_lang::layout::Layouts,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

/// Lowering passes at most: each may find pointers with more targets than it knew, or
/// arrays a cast must see at bytes (`bytes.rs`).
const MAX_PASSES: usize = 5;

pub(crate) fn lower<'u>(unit: &'u Unit, types: &'u TypeTable, o: &'u FrontOptions, indeterminate: &'u HashSet<Span>) -> Lowered {
    let mut sets = HashMap::new();
    let mut bytes = HashMap::new();
    let mut pass = 1;
    loop {
        let (mut lowered, next, changed, wanted) = lower_pass(unit, types, o, indeterminate, sets, bytes.clone());
        // A cast found an array it must see at bytes: lower again with it so.
        let more_bytes = wanted.keys().any(|a| !bytes.contains_key(a));
        bytes.extend(wanted);
        if changed && pass == MAX_PASSES {
            // The last pass still skipped assignments it could not lower: never use it.
            lowered.errors.push(Diagnostic::error(
                format!("kpl could not settle which arrays the kernel's pointers point into in {MAX_PASSES} lowerings"),
                Span::new(0, 0),
            ));
        }
        // (A pass that wanted an array at bytes refused the cast that wanted it.)
        if !(changed || more_bytes) || pass == MAX_PASSES {
            return lowered;
        }
        sets = next;
        pass += 1;
    }
}

fn lower_pass<'u>(
    unit: &'u Unit,
    types: &'u TypeTable,
    o: &'u FrontOptions,
    indeterminate: &'u HashSet<Span>,
    sets: HashMap<PtrDecl, Vec<Option<Entity>>>,
    byte_level: HashMap<String, u32>,
) -> (Lowered, HashMap<PtrDecl, Vec<Option<Entity>>>, bool, HashMap<String, u32>) {
    let has_multi = sets.values().any(|s| crate::lower::multiptr::is_multi(s));
    let mut l = Lower {
        o,
        funcs: HashMap::new(),
        overloads: HashMap::new(),
        operator_functions: false,
        scopes: vec![HashMap::new()],
        used: HashSet::new(),
        blocks: Vec::new(),
        decls: Vec::new(),
        frames: Vec::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        temps: 0,
        pending_invariants: Vec::new(),
        pending_barrier_invariants: Vec::new(),
        hoisted_requires: HashSet::new(),
        pointers: HashSet::new(),
        two_thread_ok: false,
        has_long: false,
        in_loop_invariant: false,
        types,
        layouts: HashMap::new(),
        laying_out: Vec::new(),
        invalid_structs: HashSet::new(),
        array_layouts: Default::default(),
        word_bytes: HashMap::new(),
        constant_arrays: Default::default(),
        images_read: HashMap::new(),
        images_written: HashMap::new(),
        constant_locals: HashMap::new(),
        const_locals: HashMap::new(),
        private_regions: HashMap::new(),
        indeterminate,
        addressed: crate::lower::private::addressed(unit),
        sizeofs: crate::sema::sizeof_expr::sizes(unit, types, o.dialect),
        fn_order: Vec::new(),
        ptr_sets: sets,
        ptr_changed: false,
        has_multi,
        rewrites_pointer_paths: false,
        extern_shared: None,
        ptr_decl_of: HashMap::new(),
        ptr_result: None,
        copies: Vec::new(),
        copy_param: None,
        kernel_locals: Vec::new(),
        private_arrays: HashSet::new(),
        statics: HashMap::new(),
        byte_level,
        bytes_declared: HashSet::new(),
        wants_bytes: HashMap::new(),
        pointer_storage: HashSet::new(),
        host_variables: unit.host_variables.clone(),
    };
    for b in kpl_lang::ast::Builtin::ALL {
        l.used.insert(b.name().to_string());
    }
    let kernel = l.unit(unit);
    let lowered = Lowered { kernel, errors: l.errors, warnings: l.warnings, layouts: l.array_layouts };
    (lowered, l.ptr_sets, l.ptr_changed, l.wants_bytes)
}

impl<'u> Lower<'u> {
    // ---- the unit ----

    fn unit(&mut self, u: &'u Unit) -> Option<k::Kernel> {
        let mut kernels: Vec<&'u Func> = Vec::new();
        let mut axioms = Vec::new();
        for item in &u.items {
            match item {
                Item::Func(f) if self.is_kernel(f) => {
                    if f.body.is_some() {
                        kernels.push(f);
                    }
                }
                Item::Func(f) => {
                    if !self.funcs.contains_key(&f.name.name) {
                        self.fn_order.push(f.name.name.clone());
                    }
                    self.operator_functions |= f.name.name.starts_with(crate::sema::operators::PREFIX);
                    // A second body of one name: C++ overloads of one arity, chosen between
                    // at each call by argument types (`overloads.rs`).
                    if let Some(g) = self.funcs.get(&f.name.name).copied().filter(|g| f.body.is_some() && g.body.is_some()) {
                        if self.is_kernel(g) {
                            self.unsupported(&format!("overloaded kernels (a second definition of `{}`)", f.name.name), f.name.span);
                        }
                        self.overloads.entry(f.name.name.clone()).or_insert_with(|| vec![g]).push(f);
                        continue;
                    }
                    if f.body.is_some() || !self.funcs.contains_key(&f.name.name) {
                        self.funcs.insert(f.name.name.clone(), f);
                    }
                }
                Item::Var(d) => self.global_var(d),
                Item::Call(f, args, span) if f.name == "__axiom" && args.len() == 1 => axioms.push((args[0].clone(), *span)),
                Item::Call(f, _, span) => self.err(format!("a call to `{}` outside any function", f.name), *span),
                Item::Unsupported(what, span) => self.unsupported(what, *span),
                Item::Error => {}
            }
        }
        if let Some(name) = &self.o.check_function {
            let Some(f) = self.funcs.get(name).copied().filter(|f| f.body.is_some()) else {
                self.err(format!("no function `{name}` with a body to check"), Span::new(0, 0));
                return None;
            };
            let memories = self.memories_with_objects(u);
            return Some(self.function_check(f, &axioms, &memories));
        }
        let wanted = u.kernel_instance.clone().or_else(|| self.o.kernel.clone());
        let chosen = match &wanted {
            Some(name) => match kernels.iter().find(|f| f.name.name == *name) {
                Some(f) => *f,
                None => {
                    let names: Vec<String> = kernels.iter().map(|f| format!("`{}`", f.name.name)).collect();
                    self.err(
                        format!("no kernel named `{name}` (the file has {})", if names.is_empty() { "none".into() } else { names.join(", ") }),
                        Span::new(0, 0),
                    );
                    return None;
                }
            },
            None => match kernels.as_slice() {
                [f] => *f,
                [] => {
                    let what = if self.o.dialect == Dialect::Cuda { "`__global__`" } else { "`__kernel`" };
                    self.err(format!("the file has no {what} function to verify"), Span::new(0, 0));
                    return None;
                }
                many => {
                    let names: Vec<String> = many.iter().map(|f| format!("`{}`", f.name.name)).collect();
                    self.errors.push(
                        Diagnostic::error(format!("the file has several kernels: {}", names.join(", ")), many[1].name.span)
                            .with_help("choose one with `--kernel=NAME`"),
                    );
                    return None;
                }
            },
        };
        Some(self.kernel(chosen, &axioms))
    }

    /// File-scope variables: `__shared__` arrays and scalars.
    fn global_var(&mut self, d: &Decl) {
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
                    let names: Vec<String> = d.decls.iter().map(|x| format!("`{}`", x.name.name)).collect();
                    self.warnings.push(Diagnostic::warning(
                        format!("host code skipped: variable {} (no `__device__`, `__constant__` or `__shared__`)", names.join(", ")),
                        d.span,
                    ));
                } else if d.decls.iter().all(|x| x.init.is_none()) && d.specs.iter().any(|s| s.word == "extern") {
                    self.unsupported("`extern` declarations", d.span);
                } else {
                    self.unsupported("file-scope variables other than `__shared__` ones", d.span);
                }
            }
        }
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
                self.decls.push(k::Decl { kind: DeclKind::Global { name: sp_id(&name, x.name.span), size: None }, span: x.span });
                let (ty, agg) = elem.clone().split();
                if let Some(t) = &agg {
                    self.record_layout(&name, &d.specs, t);
                }
                self.note_word_bytes(&name, &d.specs);
                self.note_bytes_layout(&name);
                let readonly = constant || d.specs.iter().any(|s| s.word == "const");
                if constant && self.o.dialect == Dialect::Cuda {
                    self.constant_arrays.insert(name.clone());
                }
                self.bind(&x.name.name, Entity::Array { kpl: name, elem: ty, dims: vec![], readonly, offset: None, agg });
                continue;
            }
            let Some(dims) = self.array_dims(x, "a file-scope array") else { continue };
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
            self.decls.push(k::Decl { kind: DeclKind::Global { name: sp_id(&name, x.name.span), size: Some((total, x.span)) }, span: x.span });
            let (ty, agg) = elem.clone().split();
            if let Some(t) = &agg {
                self.record_layout(&name, &d.specs, t);
            }
            self.note_word_bytes(&name, &d.specs);
            self.note_bytes_layout(&name);
            if constant && self.o.dialect == Dialect::Cuda {
                self.constant_arrays.insert(name.clone());
            }
            let arr = Entity::Array { kpl: name.clone(), elem: ty, dims: dims.clone(), readonly: constant, offset: None, agg: agg.clone() };
            match (dims.is_empty(), &agg) {
                (false, _) => self.bind(&x.name.name, arr),
                (true, None) => self.bind(&x.name.name, Entity::SharedScalar { kpl: name, ty }),
                (true, Some(_)) => {
                    let zero = Expr::new(ExprKind::Int(0, false), x.span);
                    if let Some(crate::lower::values::Lv::Agg(ty, leaves)) = self.element_of(arr, &[&zero], x.span) {
                        self.bind(&x.name.name, Entity::Record { ty, leaves });
                    }
                }
            }
        }
    }

    /// The KPL name of a file-scope variable in memory. A host variable that device code
    /// names (`templates.rs`) gets one of its own, so that a parameter or local of its C
    /// name keeps that name; reports name it by its C name.
    fn file_scope_name(&mut self, c_name: &str) -> String {
        if !self.host_variables.iter().any(|h| h == c_name) {
            return self.array_name(c_name);
        }
        let kpl = self.fresh(&format!("{c_name}_host"));
        self.array_layouts.names.insert(kpl.clone(), c_name.to_string());
        kpl
    }

    /// A fresh KPL name for an array of C name `c_name`; reports name it by its C name
    /// where the two differ (`shared`, a KPL keyword, is `shared_`; a second `buf`, `buf_1`).
    fn array_name(&mut self, c_name: &str) -> String {
        let kpl = self.fresh(c_name);
        if kpl != c_name {
            self.array_layouts.names.entry(kpl.clone()).or_insert_with(|| c_name.to_string());
        }
        kpl
    }

    /// A file-scope pointer variable (`__device__ char *buffer;`): its storage, one word of
    /// global memory (a pointer is 4 bytes, GPUVerify's default `--pointer-bitwidth=32`),
    /// which `&buffer` names (`atomicAdd((unsigned *)&buffer, n)`). The host sets the pointer,
    /// so kpl cannot tell which array it points into: it is a pointer stored in memory, and
    /// going through it is refused as for any such pointer.
    fn pointer_variable(&mut self, x: &Declarator, constant: bool) {
        if !x.dims.is_empty() || x.init.is_some() || x.ptrs > 1 {
            self.unsupported("file-scope pointer variables other than `T *p;` (an array of them, an initialiser, a pointer to a pointer)", x.span);
            self.bind(&x.name.name, Entity::Invalid);
            return;
        }
        let name = self.file_scope_name(&x.name.name);
        self.decls.push(k::Decl { kind: DeclKind::Global { name: sp_id(&name, x.name.span), size: Some((1, x.span)) }, span: x.span });
        self.word_bytes.insert(name.clone(), 4);
        if constant && self.o.dialect == Dialect::Cuda {
            self.constant_arrays.insert(name.clone());
        }
        self.pointer_storage.insert(name.clone());
        self.bind(&x.name.name, Entity::SharedScalar { kpl: name, ty: Ty::UInt });
    }

    /// An OpenCL `__constant` array with an initialiser: a table of constant words (at most
    /// 4096; every initialiser a constant).
    fn constant_table(&mut self, x: &Declarator, elem: &CType, dims: Vec<u32>, total: u64) {
        let whole = dims.iter().rev().fold(elem.clone(), |t, &n| CType::Array(Box::new(t), n));
        let values = match &x.init {
            Some(Init::List(items, sp)) if total <= 4096 => {
                // Lowered into a scratch block: a constant initialiser emits nothing.
                self.blocks.push(Vec::new());
                let leaves = self.init_list(&whole, items, *sp);
                let emitted = self.blocks.pop().unwrap_or_default();
                let words: Option<Vec<u32>> = leaves.and_then(|ls| {
                    ls.into_iter()
                        .map(|l| match l {
                            crate::lower::values::VLeaf::Word(Val { e: k::Expr { kind: k::ExprKind::Num(n), .. }, .. }) => Some(n as u32),
                            _ => None,
                        })
                        .collect()
                });
                words.filter(|_| emitted.is_empty())
            }
            _ => None,
        };
        let Some(values) = values else {
            self.unsupported("this `__constant` initialiser (kpl keeps tables of at most 4096 constant words)", x.span);
            self.bind(&x.name.name, Entity::Invalid);
            return;
        };
        let (ty, agg) = elem.clone().split();
        let dims = if dims.is_empty() { vec![1] } else { dims };
        self.bind(&x.name.name, Entity::Table { values, elem: ty, dims, agg });
    }

    /// A declarator's constant dimensions (a first `[]` takes its initialiser list's
    /// length); `None`, with an error and the name bound as invalid, if one is not a positive
    /// constant.
    pub(crate) fn array_dims(&mut self, x: &Declarator, what: &str) -> Option<Vec<u32>> {
        let mut dims = Vec::new();
        for dim in &x.dims {
            let n = match (dim.as_ref().and_then(|e| self.const_eval(e)), &x.init) {
                (Some(n), _) if n > 0 && n <= u32::MAX as i64 => n as u32,
                (None, Some(Init::List(items, _))) if dim.is_none() && dims.is_empty() && !items.is_empty() => items.len() as u32,
                _ => {
                    self.err(format!("{what} needs a constant positive size"), dim.as_ref().map(|e| e.span).unwrap_or(x.span));
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
                    kind: DeclKind::Shared { name: sp_id(&name, x.name.span), size: Some((words, x.span)) },
                    span: x.span,
                });
                self.note_word_bytes(&name, &d.specs);
                match &agg {
                    // A `__shared__` struct or vector: element 0 of a one-element array.
                    Some(t) => {
                        let arr = Entity::Array { kpl: name, elem, dims: vec![], readonly: false, offset: None, agg: Some(t.clone()) };
                        let zero = Expr::new(ExprKind::Int(0, false), x.span);
                        if let Some(crate::lower::values::Lv::Agg(ty, leaves)) = self.element_of(arr, &[&zero], x.span) {
                            self.bind(&x.name.name, Entity::Record { ty, leaves });
                        }
                    }
                    None => self.bind(&x.name.name, Entity::SharedScalar { kpl: name, ty: elem }),
                }
                continue;
            }
            let Some(dims) = self.array_dims(x, "a `__shared__` array") else { continue };
            let total: u64 = array_words(&dims, words);
            if total > u32::MAX as u64 {
                self.err("this `__shared__` array has more than 2^32 elements", x.span);
                self.bind(&x.name.name, Entity::Invalid);
                continue;
            }
            let total = total * self.byte_scale(&name);
            self.decls.push(k::Decl {
                kind: DeclKind::Shared { name: sp_id(&name, x.name.span), size: Some((total, x.span)) },
                span: x.span,
            });
            if let Some(t) = &agg {
                self.record_layout(&name, &d.specs, t);
            }
            self.note_word_bytes(&name, &d.specs);
            self.note_bytes_layout(&name);
            self.bind(&x.name.name, Entity::Array { kpl: name, elem, dims, readonly: false, offset: None, agg: agg.clone() });
        }
    }

    /// `extern __shared__ T s[];`: CUDA's dynamic shared memory, whose size the launch gives.
    /// Every such declaration names the same memory, so all are one unsized `shared` array
    /// (`T` of one word: any two such declarations must agree on the word's layout).
    fn extern_shared(&mut self, x: &Declarator, ety: &CType, specs: &[Spec]) {
        let (elem, agg) = match ety {
            CType::Scalar(t) => (*t, None),
            t => (Ty::Int, Some(t.clone())),
        };
        let bytes = self.uniform_bytes(specs);
        let kpl = match self.extern_shared.clone() {
            Some((kpl, t, b)) if t == *ety || (matches!((&t, ety), (CType::Scalar(_), CType::Scalar(_))) && b == bytes) => kpl,
            Some(_) => {
                self.unsupported("`extern __shared__` arrays of element types of different sizes (they share one memory)", x.span);
                self.bind(&x.name.name, Entity::Invalid);
                return;
            }
            None => {
                let kpl = self.fresh(&x.name.name);
                self.decls.push(k::Decl { kind: DeclKind::Shared { name: sp_id(&kpl, x.name.span), size: None }, span: x.span });
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
        self.bind(&x.name.name, Entity::Array { kpl, elem, dims: vec![], readonly: false, offset: None, agg });
    }

    /// The `groups` and `threads` declarations of the launch (one thread when none is given).
    pub(crate) fn launch_decls(&mut self, f: &Func) -> Vec<k::Decl> {
        let launch = match self.o.launch {
            Some(l) => l,
            None => {
                let (b, g) = match self.o.dialect {
                    Dialect::Cuda => ("--blockDim", "--gridDim"),
                    Dialect::OpenCl => ("--local_size", "--num_groups"),
                };
                self.warnings.push(
                    Diagnostic::warning(format!("no launch given: using one group of one thread"), f.name.span)
                        .with_help(format!("give the launch with `{b}=` and `{g}=`")),
                );
                kpl_lang::Launch { groups: [1, 1, 1], threads: [1, 1, 1] }
            }
        };
        let n = launch.dims_used();
        let dims = |d: [u32; 3]| k::Dims { dims: d[..n].iter().map(|&x| (x as u64, f.name.span)).collect(), span: f.name.span };
        vec![
            k::Decl { kind: DeclKind::Groups(dims(launch.groups)), span: f.name.span },
            k::Decl { kind: DeclKind::Threads(dims(launch.threads)), span: f.name.span },
        ]
    }

    fn kernel(&mut self, f: &'u Func, axioms: &[(Expr, Span)]) -> k::Kernel {
        let mut decls = self.launch_decls(f);
        let assigned = assigned_names(f.body.as_ref());
        let mut copies = Vec::new();
        let mut narrow_copies = Vec::new();
        // The words of each scalar or by-value parameter, in order (`--kernel-args`).
        let mut scalars: Vec<(Vec<String>, Span)> = Vec::new();
        let mut ptr_params = Vec::new();
        for p in &f.params {
            let Some(name) = &p.name else {
                if !(p.ptrs.is_empty() && p.dims == 0 && self.base_type(&p.specs) == Ty::Void) {
                    self.err("a kernel parameter needs a name", p.span);
                }
                continue;
            };
            let base = self.spec_type(&p.specs);
            let pointer = !p.ptrs.is_empty() || p.dims > 0;
            if p.ptrs.len() > 2 || (p.ptrs.len() == 2 && p.dims > 0) {
                self.unsupported("pointers to pointers to pointers", p.span);
                continue;
            }
            if p.reference {
                self.err("a kernel parameter cannot be a reference (the host passes values)", p.span);
                continue;
            }
            if !pointer && base.is_aggregate() {
                // A struct or vector by value: a param per word, an array per pointer field.
                let copy = assigned.contains(&name.name);
                let mut leaves = Vec::new();
                let mut words = Vec::new();
                let names = self.leaf_names(&base);
                let paths = self.leaf_paths(&base);
                for ((leaf, ln), path) in self.leaves(&base).into_iter().zip(names).zip(paths) {
                    let kpl = self.fresh(&format!("{}_{}", name.name, ln));
                    match leaf {
                        LeafTy::Word(ty) => {
                            decls.push(k::Decl { kind: DeclKind::Param(sp_id(&kpl, name.span)), span: p.span });
                            words.push(kpl.clone());
                            if copy {
                                let local = self.fresh(&format!("{kpl}_"));
                                copies.push((local.clone(), kpl, name.span));
                                leaves.push(Leaf::Word(Place::Local(local, ty)));
                            } else {
                                leaves.push(Leaf::Word(Place::Local(kpl, ty)));
                            }
                        }
                        LeafTy::Ptr(pt) => {
                            decls.push(k::Decl { kind: DeclKind::Global { name: sp_id(&kpl, name.span), size: None }, span: p.span });
                            self.array_layouts.names.insert(kpl.clone(), format!("{}{path}", name.name));
                            let (elem, agg) = pt.split();
                            let array = Entity::Array { kpl, elem, dims: vec![], readonly: false, offset: None, agg };
                            if !copy {
                                leaves.push(Leaf::Ptr(array));
                                continue;
                            }
                            // The kernel assigns the struct: the field is a pointer variable
                            // that starts at its array (`pointer_fields.rs`), declared after
                            // the preconditions, which see the array.
                            let field = format!("{}{path}", name.name);
                            let hidden = param_array_name(&field);
                            self.bind(&hidden, array.clone());
                            self.bind(&field, array);
                            self.rewrites_pointer_paths = true;
                            let init = Expr::new(ExprKind::Ident(Ident { name: hidden, span: name.span }), name.span);
                            let d = Declarator { ptrs: 1, reference: false, name: Ident { name: field.clone(), span: name.span }, dims: Vec::new(), init: Some(Init::Expr(init)), span: p.span };
                            ptr_params.push((d, elem, false));
                            leaves.push(Leaf::PtrVar(field));
                        }
                    }
                }
                self.bind(&name.name, Entity::Record { ty: base, leaves });
                if !words.is_empty() {
                    scalars.push((words, name.span));
                }
                continue;
            }
            // `T **p`: an array of pointer words (what they point at is not followed).
            let words_are_pointers = p.ptrs.len() == 2;
            let (ty, agg) = if words_are_pointers { (Ty::UInt, Some(CType::Pointer(Box::new(base.clone())))) } else { base.split() };
            let kpl = self.fresh(&name.name);
            if pointer {
                let space = self.space(&p.specs);
                let readonly = p.specs.iter().any(|s| s.word == "const") || space == Some("constant");
                let kind = if space == Some("shared") {
                    DeclKind::Shared { name: sp_id(&kpl, name.span), size: None }
                } else {
                    DeclKind::Global { name: sp_id(&kpl, name.span), size: None }
                };
                decls.push(k::Decl { kind, span: p.span });
                if let Some(t) = &agg {
                    self.record_layout(&kpl, &p.specs, t);
                }
                if !words_are_pointers {
                    self.byte_scale(&kpl);
                    self.note_word_bytes(&kpl, &p.specs);
                    self.note_bytes_layout(&kpl);
                }
                let dims = if words_are_pointers { Some(vec![]) } else { self.param_dims(p) };
                let Some(dims) = dims else {
                    self.bind(&name.name, Entity::Invalid);
                    continue;
                };
                let array = Entity::Array { kpl, elem: ty, dims, readonly, offset: None, agg };
                if assigned.contains(&name.name) {
                    // C parameters are assignable: after the preconditions (which see the
                    // array), the body's `p` is a pointer variable that starts at the array
                    // (`pointers.rs`); the array keeps the parameter's name.
                    let hidden = param_array_name(&name.name);
                    self.bind(&hidden, array.clone());
                    let init = Expr::new(ExprKind::Ident(Ident { name: hidden, span: name.span }), name.span);
                    ptr_params.push((Declarator { ptrs: 1, reference: false, name: name.clone(), dims: Vec::new(), init: Some(Init::Expr(init)), span: p.span }, ty, readonly));
                }
                self.bind(&name.name, array);
            } else {
                if ty == Ty::Void {
                    self.err("a parameter cannot be `void`", p.span);
                    continue;
                }
                decls.push(k::Decl { kind: DeclKind::Param(sp_id(&kpl, name.span)), span: p.span });
                scalars.push((vec![kpl.clone()], name.span));
                if let Ty::Narrow { .. } = ty {
                    // A `char` or `short` argument is a word's low bits: a local holds them.
                    let local = self.fresh(&format!("{}_", name.name));
                    narrow_copies.push((local.clone(), kpl.clone(), ty, name.span));
                    self.bind(&name.name, Entity::Local { kpl: local, ty });
                } else if assigned.contains(&name.name) {
                    // C parameters are assignable; KPL params are not: use a local copy.
                    let local = self.fresh(&format!("{}_", name.name));
                    copies.push((local.clone(), kpl.clone(), name.span));
                    self.bind(&name.name, Entity::Local { kpl: local, ty });
                } else {
                    self.bind(&name.name, Entity::Param { kpl, ty });
                }
            }
        }
        // GPUVerify's `--kernel-args=K,v1,v2,...`: the scalar and by-value params' values, in
        // order; a value of a parameter of two words (a `long`, a struct of 8 bytes) gives
        // the low word first.
        if let Some((name, vals)) = &self.o.kernel_args {
            if *name != f.name.name {
                self.err(format!("`--kernel-args` names kernel `{name}`, not `{}`", f.name.name), f.name.span);
            } else if vals.len() != scalars.len() {
                self.err(
                    format!("`--kernel-args` gives {} value(s); `{}` has {} scalar parameter(s)", vals.len(), name, scalars.len()),
                    f.name.span,
                );
            } else {
                for ((words, span), v) in scalars.iter().zip(vals) {
                    // A 32-bit parameter takes a value of 32 bits, or a negative one that
                    // its low word holds (`-3`).
                    let fits_word = *v <= u64::from(u32::MAX) || (*v as i64) >= i64::from(i32::MIN) && (*v as i64) < 0;
                    if words.len() > 2 || (words.len() < 2 && !fits_word) {
                        let bits = 32 * words.len();
                        self.err(format!("`--kernel-args` value {v:#x} is for a parameter of {bits} bits (kpl takes values of 32 or 64 bits)"), *span);
                        continue;
                    }
                    for (i, p) in words.iter().enumerate() {
                        let word = (v >> (32 * i)) & 0xFFFF_FFFF;
                        let eq = k::Expr::new(
                            k::ExprKind::Binary(k::BinOp::Eq, Box::new(k::Expr::var(p, *span)), Box::new(k::Expr::num(word, *span))),
                            *span,
                        );
                        decls.push(k::Decl { kind: DeclKind::Requires(eq), span: *span });
                    }
                }
            }
        }
        self.blocks.push(Vec::new());
        for (local, param, span) in copies {
            self.emit(k::StmtKind::Local(sp_id(&local, span), Some(k::Expr::var(&param, span))), span);
        }
        for (local, param, ty, span) in narrow_copies {
            let v = crate::lower::values::Val { e: k::Expr::var(&param, span), ty: Ty::Int };
            let narrowed = self.convert(v, ty, span);
            self.emit(k::StmtKind::Local(sp_id(&local, span), Some(narrowed)), span);
        }
        let body = f.body.as_ref().map(|b| b.stmts.as_slice()).unwrap_or(&[]);
        let returned = has_return(body).then(|| self.fresh("returned"));
        if let Some(r) = &returned {
            self.emit(k::StmtKind::Local(sp_id(r, f.name.span), Some(k::Expr::num(0, f.name.span))), f.name.span);
        }
        let wide = self.checked_function_wide(f, body);
        let wide_spans = function_wide(body).iter().map(|e| e.0.span).collect();
        let gotos = self.goto_flags(body);
        self.frames.push(Frame {
            name: f.name.name.clone(),
            result: None,
            agg_result: None,
            returned,
            loops: Vec::new(),
            ensures: Vec::new(),
            global_ensures: Vec::new(),
            olds: Vec::new(),
            assumed: Vec::new(),
            function_wide: wide,
            function_wide_spans: wide_spans,
            ptr_result: None,
            gotos,
            contract: false,
        });
        self.scopes.push(HashMap::new());
        // Leading `__requires` of the kernel are preconditions over its params.
        let mut rest = body;
        while let Some((first, tail)) = rest.split_first() {
            // Every thread runs a kernel's start: `__global_requires` is `__requires` there.
            let Some(e) = annotation(first, "__requires").or_else(|| annotation(first, "__global_requires")) else { break };
            self.precondition(e, first.span, &mut decls);
            rest = tail;
        }
        for s in nested_requires(f, rest) {
            let e = annotation(s, "__requires").or_else(|| annotation(s, "__global_requires")).expect("a requires statement");
            if let StmtKind::Expr(call) = &s.kind {
                self.hoisted_requires.insert(call.span);
            }
            self.precondition(e, s.span, &mut decls);
        }
        for (d, ty, readonly) in ptr_params {
            self.pointer_decl(&d, ty, readonly);
        }
        self.axioms(axioms, &mut decls);
        self.stmts(rest);
        if let Some(inv) = self.pending_barrier_invariants.first() {
            let span = inv.span;
            self.err("a barrier invariant must come before a barrier (it is checked there)", span);
            self.pending_barrier_invariants.clear();
        }
        let ensures = std::mem::take(&mut self.frame().ensures);
        for e in ensures {
            let c = self.assertion_cond(&e);
            self.emit(k::StmtKind::Assert(c, false), e.span);
        }
        self.global_ensures_at_end();
        self.scopes.pop();
        self.frames.pop();
        let body = self.blocks.pop().unwrap_or_default();
        let main_stmts = self.with_kernel_locals(body);
        decls.append(&mut self.decls);
        let span = f.span;
        let name = self.fresh(&f.name.name);
        k::Kernel {
            name: sp_id(&name, f.name.span),
            decls,
            procs: Vec::new(),
            main: k::Block { stmts: main_stmts, span: f.body.as_ref().map(|b| b.span).unwrap_or(span) },
            span,
        }
    }

    /// A kernel `__requires(e)` as a KPL `requires`, if it mentions only params, launch
    /// sizes and constants (otherwise it becomes an `assume`).
    /// File-scope `__axiom`s: over launch sizes, params and constants a `requires`; over
    /// ids (`__axiom(blockIdx.x == 16)`) an `assume` of every thread at the start (KPL's:
    /// executions where it fails do not count).
    pub(crate) fn axioms(&mut self, axioms: &[(Expr, Span)], decls: &mut Vec<k::Decl>) {
        for (e, span) in axioms {
            match self.requirement(e) {
                Some(ke) => decls.push(k::Decl { kind: DeclKind::Requires(ke), span: *span }),
                None => {
                    let c = self.pure_cond(e, "an `__axiom`");
                    self.emit(k::StmtKind::Assume(c), *span);
                }
            }
        }
    }

    /// A kernel's precondition: a `requires` over its parameters, else an assumption at
    /// its start (which may read memory and relate the two threads of a pair, as
    /// `__requires(x == __other_int(x))` does).
    fn precondition(&mut self, e: &Expr, span: Span, decls: &mut Vec<k::Decl>) {
        if let Some(ke) = self.requirement(e) {
            decls.push(k::Decl { kind: DeclKind::Requires(ke), span });
        } else {
            let c = self.assertion_cond(e);
            self.emit(k::StmtKind::Assume(c), span);
        }
    }

    pub(crate) fn requirement(&mut self, e: &Expr) -> Option<k::Expr> {
        let errs = self.errors.len();
        self.blocks.push(Vec::new());
        let v = self.expr(e);
        let emitted = self.blocks.pop().unwrap_or_default();
        if !emitted.is_empty() || self.errors.len() != errs {
            self.errors.truncate(errs);
            return None;
        }
        let c = self.to_cond(v);
        let mut ok = true;
        c.walk(&mut |s| match &s.kind {
            k::ExprKind::Index(..) | k::ExprKind::Special(k::Special::Lid | k::Special::Gid, ..) => ok = false,
            k::ExprKind::Var(x) => {
                ok &= self.scopes.iter().any(|sc| sc.values().any(|en| matches!(en, Entity::Param { kpl, .. } if *kpl == x.name)))
            }
            _ => {}
        });
        ok.then_some(c)
    }

    // ---- statements ----

    /// Lower a statement list; after a statement that may jump (`return`, `goto`, a
    /// switch's `break`), what it jumps over runs only in the threads that did not.
    pub fn stmts(&mut self, list: &[Stmt]) {
        // Flags that earlier statements of this list may have set (`return`, `goto`, a
        // switch's `break`): each skips what follows, up to its label in this list
        // (`Some(index)`) or to the end.
        let mut pending: Vec<(String, Option<usize>)> = Vec::new();
        let mut i = 0;
        while i < list.len() {
            pending.retain(|(_, until)| *until != Some(i));
            if !pending.is_empty() {
                let end = pending.iter().filter_map(|p| p.1).min().unwrap_or(list.len());
                let run = &list[i..end];
                let span = run[0].span.to(run[run.len() - 1].span);
                let cond = pending
                    .iter()
                    .map(|(f, _)| k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(k::Expr::var(f, span))), span))
                    .reduce(|a, b| k::Expr::new(k::ExprKind::Binary(k::BinOp::LAnd, Box::new(a), Box::new(b)), span))
                    .expect("pending is not empty");
                let body = self.sub_block(|l| l.stmts(run), span);
                self.emit(k::StmtKind::If(cond, body, None), span);
                // The run's own statements left their loops already (`if flag { break; }`).
                for j in i..end {
                    self.jumps_after(list, j, &mut pending, false);
                }
                i = end;
                continue;
            }
            let s = &list[i];
            if let Some(e) = invariant_stmt(s) {
                self.invariant_at_head(s.span, e.0);
                self.pending_invariants.push((e.0.clone(), e.1, s.span));
                i += 1;
                continue;
            }
            if !self.pending_invariants.is_empty() && !is_loop(s) {
                let call = self.pending_invariants.remove(0).2;
                self.misplaced_invariant(call);
                self.pending_invariants.clear();
            }
            self.stmt(s);
            self.jumps_after(list, i, &mut pending, true);
            i += 1;
        }
        // An invariant with no loop after it in its block (say, last in a loop body) is
        // not an invariant of any loop: an error, never silently dropped.
        if let Some((_, _, call)) = self.pending_invariants.first().cloned() {
            self.misplaced_invariant(call);
            self.pending_invariants.clear();
        }
    }

    /// After `list[i]`: for each jump it may make past its own end (`return`, a `goto` to a
    /// label outside it, a `break` of the innermost switch), the flag that says it did. A
    /// jump that leaves the innermost loop leaves it at once (`if flag { break; }`); any
    /// other skips the rest of the list, or up to its label when the label is in the list.
    fn jumps_after(&mut self, list: &[Stmt], i: usize, pending: &mut Vec<(String, Option<usize>)>, leave_loops: bool) {
        let s = &list[i];
        let span = s.span;
        let mut jumps: Vec<(String, Option<String>)> = Vec::new();
        if stmt_returns(s) {
            if let Some(r) = self.frame().returned.clone() {
                jumps.push((r, None));
            }
        }
        if !self.frame().gotos.is_empty() {
            for l in crate::lower::gotos::jumps_out(s) {
                if let Some(f) = self.frame().gotos.get(&l).cloned() {
                    jumps.push((f, Some(l)));
                }
            }
        }
        let done = self.frame().loops.last().and_then(|l| l.done.clone());
        for (flag, label) in jumps {
            let here = label.as_ref().and_then(|l| list[i + 1..].iter().position(|t| matches!(&t.kind, StmtKind::Label(x) if &x.name == l)));
            let leaves_loop = self.innermost_loop_labels().is_some_and(|ls| label.as_ref().is_none_or(|l| !ls.contains(l)));
            if let Some(p) = here {
                pending.push((flag, Some(i + 1 + p)));
            } else if leaves_loop {
                if !leave_loops || matches!(s.kind, StmtKind::Return(_) | StmtKind::Goto(_)) {
                    continue; // it breaks itself
                }
                let brk = k::Block { stmts: vec![k::Stmt { kind: k::StmtKind::Break, span }], span };
                self.emit(k::StmtKind::If(k::Expr::var(&flag, span), brk, None), span);
            } else if i + 1 < list.len() && !pending.iter().any(|p| p.0 == flag) {
                pending.push((flag, None));
            }
        }
        // After a `break` of the innermost switch (inside an `if`, say): the rest runs
        // only in the threads that did not break.
        if let (Some(done), true) = (done, i + 1 < list.len() && breaks_switch(s)) {
            if !pending.iter().any(|p| p.0 == done) {
                pending.push((done, None));
            }
        }
    }

    /// The labels in the innermost loop's body (`None` outside loops; a `switch` is not one).
    fn innermost_loop_labels(&mut self) -> Option<&HashSet<String>> {
        self.frame().loops.iter().rev().find(|l| !l.switch).map(|l| &l.labels)
    }

    /// The flags a thread that returned or is jumping to a label has set.
    fn jump_flags(&mut self) -> Vec<String> {
        let f = self.frame();
        f.returned.iter().cloned().chain(f.gotos.values().cloned()).collect()
    }

    /// A local flag, cleared, for each label a `goto` of `body` jumps to; errors for the
    /// `goto`s kpl does not lower.
    fn goto_flags(&mut self, body: &[Stmt]) -> HashMap<String, String> {
        let (targets, errors) = crate::lower::gotos::targets(body);
        self.errors.extend(errors);
        let mut out = HashMap::new();
        for l in targets {
            let flag = self.fresh(&format!("goto_{l}"));
            let span = body.first().map(|s| s.span).unwrap_or_default();
            self.emit(k::StmtKind::Local(sp_id(&flag, span), Some(k::Expr::num(0, span))), span);
            out.insert(l, flag);
        }
        out
    }

    /// Lower one statement; gives whether it may execute `return`.
    fn stmt(&mut self, s: &Stmt) -> bool {
        if let Some(s2) = self.with_pointer_fields(s) {
            return self.stmt(&s2);
        }
        if let Some(s2) = self.with_pointer_calls(s) {
            return self.stmt(&s2) || stmt_returns(s);
        }
        if self.split_on_targets(s) {
            return stmt_returns(s);
        }
        self.stmt_plain(s)
    }

    /// A statement that goes through no pointer with several targets.
    pub(crate) fn stmt_plain(&mut self, s: &Stmt) -> bool {
        let span = s.span;
        match &s.kind {
            StmtKind::Block(b) => {
                self.scopes.push(HashMap::new());
                self.stmts(&b.stmts);
                self.scopes.pop();
                has_return(&b.stmts)
            }
            StmtKind::Decl(d) => {
                self.local_decl(d);
                false
            }
            StmtKind::Expr(e) => {
                self.expr_stmt(e);
                false
            }
            StmtKind::If(c, t, e) => {
                let cv = self.cond(c);
                let tb = self.sub_block(|l| l.stmts(std::slice::from_ref(t)), t.span);
                let eb = e.as_ref().map(|e| Box::new(k::Else::Block(self.sub_block(|l| l.stmts(std::slice::from_ref(e)), e.span))));
                self.emit(k::StmtKind::If(cv, tb, eb), span);
                stmt_returns(t) || e.as_deref().is_some_and(stmt_returns)
            }
            StmtKind::While(c, body) => {
                self.loop_(Some(c), None, None, body, span);
                stmt_returns(body)
            }
            StmtKind::For(init, c, step, body) => {
                self.scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(e) = self.long_counter_candidate(init.as_deref(), step.as_ref(), span) {
                    self.pending_invariants.push((e, true, span));
                }
                self.loop_(c.as_ref(), step.as_ref(), None, body, span);
                self.scopes.pop();
                stmt_returns(body)
            }
            StmtKind::DoWhile(body, c) => {
                self.loop_(None, None, Some(c), body, span);
                stmt_returns(body)
            }
            StmtKind::Break => {
                match self.frame().loops.last().map(|l| l.done.clone()) {
                    None => self.err("`break` outside a loop", span),
                    // Ends the switch: the rest of it is skipped (`stmts`).
                    Some(Some(done)) => self.emit(k::StmtKind::Assign(sp_id(&done, span), k::Expr::num(1, span)), span),
                    Some(None) => self.emit(k::StmtKind::Break, span),
                }
                false
            }
            StmtKind::Switch(c, body) => self.switch(c, body, span),
            StmtKind::Case(_) => {
                self.err("a `case` label outside the statements of a `switch`", span);
                false
            }
            StmtKind::Continue => {
                let Some(ctx) = self.frame().loops.iter().rev().find(|l| !l.switch).map(|l| l.on_continue.clone()) else {
                    self.err("`continue` outside a loop", span);
                    return false;
                };
                for a in ctx {
                    match a {
                        ContinueAction::Step(e) => self.expr_stmt(&e),
                        ContinueAction::Check(c) => self.exit_unless(&c),
                    }
                }
                self.emit(k::StmtKind::Continue, span);
                false
            }
            StmtKind::Return(e) => {
                self.return_(e.as_ref(), span);
                true
            }
            StmtKind::Goto(l) => {
                if let Some(flag) = self.frame().gotos.get(&l.name).cloned() {
                    self.emit(k::StmtKind::Assign(sp_id(&flag, span), k::Expr::num(1, span)), span);
                    if self.innermost_loop_labels().is_some_and(|ls| !ls.contains(&l.name)) {
                        self.emit(k::StmtKind::Break, span);
                    }
                }
                false
            }
            StmtKind::Label(l) => {
                if let Some(flag) = self.frame().gotos.get(&l.name).cloned() {
                    self.emit(k::StmtKind::Assign(sp_id(&flag, span), k::Expr::num(0, span)), span);
                }
                false
            }
            StmtKind::Empty => false,
            StmtKind::Unsupported(what) => {
                self.unsupported(what, span);
                false
            }
            StmtKind::Error => false,
        }
    }

    /// `if !c { break; }` (with c's side effects first).
    fn exit_unless(&mut self, c: &Expr) {
        let cv = self.cond(c);
        let span = c.span;
        let not = k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(cv)), span);
        let brk = k::Block { stmts: vec![k::Stmt { kind: k::StmtKind::Break, span }], span };
        self.emit(k::StmtKind::If(not, brk, None), span);
    }

    /// `while (c) body`, `for (; c; step) body` and `do body while (dc)`, with invariants
    /// from just before the loop and from the start of its body.
    fn loop_(&mut self, c: Option<&Expr>, step: Option<&Expr>, do_cond: Option<&Expr>, body: &Stmt, span: Span) {
        let mut invs: Vec<(Expr, bool)> = std::mem::take(&mut self.pending_invariants).into_iter().map(|(e, cand, _)| (e, cand)).collect();
        invs.extend(self.frame().function_wide.iter().cloned());
        let c = c.map(|c| {
            let (in_cond, cond) = condition_invariants(c);
            for (call, e, _) in &in_cond {
                self.invariant_at_head(*call, e);
            }
            invs.extend(in_cond.into_iter().map(|(_, e, cand)| (e.clone(), cand)));
            cond
        });
        let stmts: &[Stmt] = match &body.kind {
            StmtKind::Block(b) => &b.stmts,
            _ => std::slice::from_ref(body),
        };
        let mut start = 0;
        while let Some((e, cand)) = stmts.get(start).and_then(invariant_stmt) {
            self.invariant_at_head(stmts[start].span, e);
            invs.push((e.clone(), cand));
            start += 1;
        }
        // GPUVerify's `--invariants-as-candidates` makes every invariant a candidate.
        let as_candidates = self.o.invariants_as_candidates;
        let mut invariants: Vec<k::Expr> = Vec::new();
        let mut candidates: Vec<k::Expr> = Vec::new();
        for (e, cand) in &invs {
            let what = if *cand || as_candidates { "a candidate invariant" } else { "a loop invariant" };
            let before = std::mem::replace(&mut self.in_loop_invariant, true);
            let k = self.pure_cond(e, what);
            self.in_loop_invariant = before;
            if *cand || as_candidates {
                candidates.push(k);
            } else {
                invariants.push(k);
            }
        }
        // A condition that needs statements (side effects, guarded reads) or a `do` loop
        // is checked inside `while true`.
        let simple = c.filter(|c| !self.emits_statements(c));
        let mut on_continue = Vec::new();
        if let Some(st) = step {
            on_continue.push(ContinueAction::Step(st.clone()));
        }
        if let Some(dc) = do_cond {
            on_continue.push(ContinueAction::Check(dc.clone()));
        }
        let mut labels = HashSet::new();
        crate::lower::gotos::labels_in(body, &mut labels);
        self.frame().loops.push(LoopCtx { on_continue, switch: false, done: None, labels });
        let cond_k = match simple {
            Some(c) => {
                self.blocks.push(Vec::new());
                let v = self.cond(c);
                let _ = self.blocks.pop();
                v
            }
            None => k::Expr::new(k::ExprKind::Bool(true), span),
        };
        let rest = &stmts[start..];
        let kbody = self.sub_block(
            |l| {
                if let (Some(c), None) = (c, simple) {
                    l.exit_unless(c);
                }
                l.stmts(rest);
                if let Some(st) = step {
                    l.expr_stmt(st);
                }
                if let Some(dc) = do_cond {
                    l.exit_unless(dc);
                }
            },
            body.span,
        );
        self.frame().loops.pop();
        self.emit(k::StmtKind::While { cond: cond_k, invariants, candidates, body: kbody }, span);
    }

    fn return_(&mut self, e: Option<&Expr>, span: Span) {
        let result = self.frame().result.clone();
        if let (Some(e), Some((ty, dst))) = (e, self.frame().agg_result.clone()) {
            let v = match ty {
                CType::Long(_) if self.agg_type(e).is_none() => Some(crate::lower::values::AggVal { ty, leaves: self.long_leaves(e) }),
                _ => self.agg_value(e),
            };
            if let Some(v) = v {
                self.write_leaves(&dst, v, span);
            }
        }
        let e = if self.frame().agg_result.is_some() { None } else { e };
        match (e, &result) {
            (Some(e), Some((var, ty))) => {
                let v = self.expr(e);
                let v = self.convert(v, *ty, e.span);
                self.emit(k::StmtKind::Assign(sp_id(var, span), v), span);
            }
            (Some(e), None) if self.frame().ptr_result.is_some() => {
                if let Some(p) = self.frame().ptr_result.clone() {
                    self.pointer_assign(&p, e, span);
                }
            }
            (Some(e), None) => {
                if self.frames.len() == 1 {
                    self.err("a kernel returns nothing", e.span);
                } else {
                    self.expr_stmt(e);
                }
            }
            (None, _) => {}
        }
        let ensures = self.frame().ensures.clone();
        for en in ensures {
            let c = self.assertion_cond(&en);
            self.emit(k::StmtKind::Assert(c, false), en.span);
        }
        if let Some(flag) = self.frame().returned.clone() {
            self.emit(k::StmtKind::Assign(sp_id(&flag, span), k::Expr::num(1, span)), span);
            if self.in_loop() {
                self.emit(k::StmtKind::Break, span);
            }
        }
    }

    pub(crate) fn local_decl(&mut self, d: &Decl) {
        if d.decls.is_empty() {
            // `struct s { ... };` declares a type only.
            return;
        }
        if self.static_storage(d) {
            return;
        }
        if d.decls.iter().any(|x| x.reference) || crate::lower::auto_types::is_auto(&d.specs) {
            for x in &d.decls {
                if x.reference {
                    self.local_reference(d, x);
                } else if crate::lower::auto_types::is_auto(&d.specs) {
                    self.auto_decl(d, x);
                } else {
                    self.local_decl(&Decl { specs: d.specs.clone(), decls: vec![x.clone()], span: d.span });
                }
            }
            return;
        }
        // `__local int *p`, `__global float *q`: the space is the pointee's; the pointer
        // itself is a private variable.
        if !d.decls.is_empty() && d.decls.iter().all(|x| x.ptrs > 0) {
            let (ty, _) = self.spec_type(&d.specs).split();
            let pointee_const = d.specs.iter().any(|s| s.word == "const");
            for x in &d.decls {
                self.pointer_decl(x, ty, pointee_const);
            }
            return;
        }
        if self.space(&d.specs) == Some("shared") {
            return self.shared_decl(d);
        }
        if self.space(&d.specs).is_some() {
            return self.unsupported("this variable's memory space inside a function", d.span);
        }
        let base = self.spec_type(&d.specs);
        let (ty, _) = base.clone().split();
        let pointee_const = d.specs.iter().any(|s| s.word == "const");
        for x in &d.decls {
            if x.ptrs > 0 {
                self.pointer_decl(x, ty, pointee_const);
                continue;
            }
            if !x.dims.is_empty() || self.addressed.contains(&x.name.name) {
                self.private_decl(x, &base);
                continue;
            }
            if base.is_aggregate() {
                self.record_decl(x, &base);
                continue;
            }
            if ty == Ty::Void {
                self.err("a variable cannot be `void`", x.span);
                continue;
            }
            let init = match &x.init {
                Some(Init::Expr(e)) => {
                    let v = self.expr(e);
                    Some(self.convert(v, ty, e.span))
                }
                Some(Init::List(_, sp)) => {
                    self.unsupported("initialiser lists", *sp);
                    None
                }
                None => None,
            };
            let name = self.fresh(&x.name.name);
            if let Some(k::Expr { kind: k::ExprKind::Num(v), .. }) = &init {
                self.constant_locals.insert(name.clone(), *v);
            }
            if let (Some(Init::Expr(e)), true) = (&x.init, d.specs.iter().any(|s| s.word == "const") && matches!(ty, Ty::Int | Ty::UInt)) {
                if let Some(v) = self.const_eval(e) {
                    self.const_locals.insert(name.clone(), if ty == Ty::Int { v as i32 as i64 } else { v as u32 as i64 });
                }
            }
            let havoc = init.is_none() && self.indeterminate.contains(&x.span);
            self.emit(k::StmtKind::Local(sp_id(&name, x.name.span), init), x.span);
            if havoc {
                self.emit(k::StmtKind::Havoc(sp_id(&name, x.name.span)), x.span);
            }
            self.bind(&x.name.name, Entity::Local { kpl: name, ty });
        }
    }

    /// A struct or vector variable: a KPL local per word (initialised from `x`'s
    /// initialiser, if any).
    pub(crate) fn record_decl(&mut self, x: &Declarator, t: &CType) {
        let init = match &x.init {
            Some(Init::Expr(e)) => match (self.agg_type(e), t) {
                (None, CType::Long(_)) => Some(self.long_leaves(e)),
                (Some(_), _) => self.agg_value(e).map(|v| v.leaves),
                (None, CType::Vector(elem, n)) => {
                    // A scalar initialises every component.
                    let v = self.expr(e);
                    let v = Val { e: self.convert(v, *elem, e.span), ty: *elem };
                    let v = self.bind_temp(v, e.span);
                    Some(vec![crate::lower::values::VLeaf::Word(v); *n as usize])
                }
                (None, _) => {
                    self.err(format!("a `{}` needs a `{}` value or an initialiser list", x.name.name, self.type_name(t)), e.span);
                    None
                }
            },
            Some(Init::List(items, sp)) => self.init_list(t, items, *sp),
            None => None,
        };
        let havoc = init.is_none() && self.indeterminate.contains(&x.span);
        let leaves = self.record_locals(&x.name.name, t, init, x.span);
        if havoc {
            for l in &leaves {
                if let Leaf::Word(Place::Local(name, _)) = l {
                    self.emit(k::StmtKind::Havoc(sp_id(name, x.name.span)), x.span);
                }
            }
        }
        self.bind(&x.name.name, Entity::Record { ty: t.clone(), leaves });
    }

    /// Fresh locals for the words of a `t` named after `base`, with initial values.
    pub(crate) fn record_locals(&mut self, base: &str, t: &CType, init: Option<Vec<crate::lower::values::VLeaf>>, span: Span) -> Vec<Leaf> {
        use crate::lower::values::VLeaf;
        let names = self.leaf_names(t);
        let paths = self.leaf_paths(t);
        let tys = self.leaves(t);
        let mut init = init.map(|v| v.into_iter());
        let mut out = Vec::new();
        for ((lt, ln), path) in tys.into_iter().zip(names).zip(paths) {
            let v = init.as_mut().and_then(|i| i.next());
            match lt {
                LeafTy::Word(ty) => {
                    let name = self.fresh(&format!("{base}_{ln}"));
                    let e = match v {
                        Some(VLeaf::Word(val)) => Some(self.convert(val, ty, span)),
                        _ => None,
                    };
                    self.emit(k::StmtKind::Local(sp_id(&name, span), e), span);
                    out.push(Leaf::Word(Place::Local(name, ty)));
                }
                LeafTy::Ptr(pointee) => {
                    let field = format!("{base}{path}");
                    self.field_pointer_decl(&field, &pointee, v, span);
                    out.push(Leaf::PtrVar(field));
                }
            }
        }
        out
    }

    /// The array a pointer argument of a `__device__` call names: `a`, `a + i` or `&a[i]`
    /// of a one-dimensional array of the caller (the offset is fixed at the call, in a
    /// fresh local). Anything else is refused, never guessed.
    pub(crate) fn array_argument(&mut self, a: &Expr, const_param: bool) -> Option<Entity> {
        let span = a.span;
        // `&s` of a struct or vector variable whose address is taken: its region.
        if let ExprKind::Unary(UOp::Addr, inner) = &a.kind {
            if let Some(region) = self.private_record(inner) {
                return Some(region);
            }
            // `&m` of a `__shared__` (or file-scope `__device__`) scalar: its one-element array.
            if let ExprKind::Ident(x) = &inner.kind {
                if let Some(Entity::SharedScalar { kpl, ty }) = self.lookup(&x.name) {
                    let readonly = self.constant_arrays.contains(&kpl);
                    return Some(Entity::Array { kpl, elem: ty, dims: vec![], readonly, offset: None, agg: None });
                }
            }
        }
        // `(float *)&v + 1`, `(T *)p + i`: the cast's view, moved on.
        if let Some((b, i)) = crate::lower::pointers::pointer_sum(a).filter(|(b, _)| matches!(b.kind, ExprKind::Cast(..))) {
            let view = self.array_argument(b, const_param)?;
            return Some(self.advanced(view, &i, "cast", span));
        }
        let sum = crate::lower::pointers::pointer_sum(a).filter(|(b, _)| matches!(b.kind, ExprKind::Ident(_) | ExprKind::Member(..)));
        let (base, off): (&Expr, Option<&Expr>) = match &a.kind {
            ExprKind::Cast(t, inner) if t.ptrs > 0 && !crate::lower::multiptr::null_const(inner) => {
                if let Some(moved) = self.moved_by_bytes(t, inner, const_param, span) {
                    return moved;
                }
                let src = self.array_argument(inner, const_param)?;
                return self.cast_view(t, src, span);
            }
            ExprKind::Ident(_) | ExprKind::Member(..) => (a, None),
            // `s.p[2]`: an element of an array of pointers in a struct variable.
            ExprKind::Index(..) if self.names_field_array(a) => (a, None),
            ExprKind::Binary(..) if sum.is_some() => sum.as_ref().map(|(b, o)| (*b, Some(o)))?,
            ExprKind::Unary(UOp::Addr, inner) if matches!(&inner.kind, ExprKind::Ident(x) if matches!(self.lookup(&x.name), Some(Entity::Private { .. }))) => {
                let ExprKind::Ident(x) = &inner.kind else { return None };
                let Some(Entity::Private { kpl, base, ty }) = self.lookup(&x.name) else { return None };
                return Some(self.private_pointer(&kpl, &base, ty));
            }
            ExprKind::Unary(UOp::Addr, inner) => match &inner.kind {
                ExprKind::Index(b, i) if matches!(b.kind, ExprKind::Ident(_) | ExprKind::Member(..)) => (&**b, Some(&**i)),
                _ => {
                    self.unsupported("this pointer argument (kpl takes `a`, `a + i` or `&a[i]` of an array)", span);
                    return None;
                }
            },
            _ if self.pointer_in_memory(a) => {
                self.unsupported("a pointer read from memory (kpl cannot tell which array it points into)", span);
                return None;
            }
            _ => {
                self.unsupported("this pointer argument (kpl takes `a`, `a + i` or `&a[i]` of an array)", span);
                return None;
            }
        };
        let entity = match &base.kind {
            ExprKind::Ident(x) => self.lookup(&x.name),
            _ => self.lvalue(base).and_then(|lv| match lv {
                crate::lower::values::Lv::Array(a) => Some(a),
                _ => None,
            }),
        };
        if let Some(Entity::PendingPtr { .. }) = entity {
            self.pending_pointer(base);
            return None;
        }
        let Some(Entity::Array { kpl, elem, dims, readonly, offset, agg }) = entity else {
            let what = match &base.kind {
                ExprKind::Ident(x) => format!("`{}`", x.name),
                _ => "this".into(),
            };
            self.err(format!("{what} is not an array: kpl passes only arrays to pointer parameters"), base.span);
            return None;
        };
        let name = match &base.kind {
            ExprKind::Ident(x) => x.name.clone(),
            _ => kpl.clone(),
        };
        if dims.len() > 1 {
            self.unsupported("passing a two-dimensional array to a pointer parameter", span);
            return None;
        }
        let array = Entity::Array { kpl, elem, dims: vec![], readonly: readonly || const_param, offset, agg };
        match off {
            None => Some(array),
            Some(e) => Some(self.advanced(array, e, &name, span)),
        }
    }

    /// The dimensions of a multi-dimensional array parameter (`float a[][16]`, `float
    /// b[8][16]`) as an array entity's: the first unused (a parameter's extent is not
    /// known; indexing uses only the sizes after it), then the constant sizes after it.
    /// Empty for a pointer or a one-dimensional array parameter; `None` (reported) where
    /// a size after the first is not a constant.
    pub(crate) fn param_dims(&mut self, p: &Param) -> Option<Vec<u32>> {
        if p.dims < 2 || !p.ptrs.is_empty() {
            return Some(Vec::new());
        }
        let mut dims = vec![0];
        for d in p.dim_sizes.iter().skip(1) {
            match d.as_ref().and_then(|e| self.const_eval(e)).filter(|&n| n > 0 && n <= u32::MAX as i64) {
                Some(n) => dims.push(n as u32),
                None => {
                    let at = d.as_ref().map_or(p.span, |e| e.span);
                    self.err("a multi-dimensional array parameter needs a constant positive size in every bracket after the first", at);
                    return None;
                }
            }
        }
        Some(dims)
    }

    /// The argument of a multi-dimensional array parameter of shape `shape`
    /// (`param_dims`): an array of the same row sizes as it is, anything else as a pointer
    /// (`array_argument`) seen through the parameter's rows.
    fn shaped_argument(&mut self, a: &Expr, const_param: bool, shape: Vec<u32>) -> Option<Entity> {
        if let ExprKind::Ident(x) = &a.kind {
            if let Some(Entity::Array { kpl, elem, dims, readonly, offset, agg }) = self.lookup(&x.name) {
                if dims.len() == shape.len() && dims[1..] == shape[1..] {
                    return Some(Entity::Array { kpl, elem, dims, readonly: readonly || const_param, offset, agg });
                }
            }
        }
        match self.array_argument(a, const_param)? {
            Entity::Array { kpl, elem, readonly, offset, agg, .. } => Some(Entity::Array { kpl, elem, dims: shape, readonly, offset, agg }),
            e => Some(e),
        }
    }

    /// A pointer into an array moved on by `e` elements: its offset in a fresh local.
    fn advanced(&mut self, array: Entity, e: &Expr, name: &str, span: Span) -> Entity {
        let Entity::Array { kpl, elem, dims, readonly, offset, agg } = array else { return array };
        let v = self.expr(e);
        let mut i = self.convert(v, Ty::UInt, e.span);
        let w = self.elem_units(&kpl, elem, &agg);
        if w != 1 {
            i = k::Expr::new(k::ExprKind::Binary(k::BinOp::Mul, Box::new(i), Box::new(k::Expr::num(w as u64, span))), span);
        }
        if let Some(prev) = offset {
            i = k::Expr::new(k::ExprKind::Binary(k::BinOp::Add, Box::new(k::Expr::var(&prev, span)), Box::new(i)), span);
        }
        let local = self.fresh(&format!("{name}_offset"));
        self.emit(k::StmtKind::Local(sp_id(&local, span), Some(i)), span);
        Entity::Array { kpl, elem, dims, readonly, offset: Some(local), agg }
    }

    /// Inline a call of a `__device__` function; gives its result variable.
    pub fn inline_call(&mut self, f: &'u Func, args: &[Expr], span: Span) -> Option<Ret> {
        if self.frames.iter().any(|fr| fr.name == f.name.name) {
            self.errors.push(
                Diagnostic::error(format!("recursive call of `{}`", f.name.name), span)
                    .with_help("kernels cannot recurse (CUDA.md: no recursion)"),
            );
            return None;
        }
        let ptr_result = self.ptr_result.take();
        let Some(body) = &f.body else { return self.bodiless_call(f, args, span) };
        let params: Vec<&Param> = f.params.iter().filter(|p| !(p.name.is_none() && self.base_type(&p.specs) == Ty::Void)).collect();
        if params.len() != args.len() {
            self.err(format!("`{}` takes {} argument(s) but {} were given", f.name.name, params.len(), args.len()), span);
            return None;
        }
        // Arguments are evaluated in the caller, left to right, into fresh locals.
        let mut bound = Vec::new();
        let mut arrays = Vec::new();
        let mut agg_params = Vec::new();
        let mut ptr_params = Vec::new();
        // `T **p` given `&q` of a pointer variable: `*p` is `q` (`pointer_fields.rs`); the
        // caller's name, and the callee's name for `*p`.
        let mut ptr_refs: Vec<(String, String)> = Vec::new();
        let assigned = assigned_names(Some(body));
        // The caller's scalars the callee has by reference.
        let mut ref_locals = HashSet::new();
        for (p, a) in params.iter().zip(args) {
            if p.reference {
                let pname = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| "arg".into());
                let entity = self.reference_argument(p, a, assigned.contains(&pname))?;
                if let Entity::Local { kpl, .. } = &entity {
                    ref_locals.insert(kpl.clone());
                }
                arrays.push((pname, entity));
                continue;
            }
            if !p.ptrs.is_empty() || p.dims > 0 {
                let pname = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| "arg".into());
                if p.ptrs.len() == 2 && p.dims == 0 {
                    let (deref, entity, caller) = self.pointer_reference(&pname, a)?;
                    arrays.push((pname, Entity::Invalid));
                    arrays.push((deref.clone(), entity));
                    ptr_refs.push((caller, deref));
                    continue;
                }
                if p.ptrs.len() > 1 {
                    self.unsupported("a pointer to a pointer to a pointer as a parameter", p.span);
                    return None;
                }
                let const_param = p.specs.iter().any(|s| s.word == "const");
                if assigned.contains(&pname) {
                    // C parameters are assignable: the body's `p` is a pointer variable that
                    // starts where the argument points (`pointers.rs`).
                    let init = if crate::lower::multiptr::null_const(a) {
                        a.clone()
                    } else {
                        let entity = self.array_argument(a, const_param)?;
                        let hidden = param_array_name(&pname);
                        arrays.push((hidden.clone(), entity));
                        Expr::new(ExprKind::Ident(Ident { name: hidden, span: a.span }), a.span)
                    };
                    let name = p.name.clone().unwrap_or(Ident { name: pname, span: p.span });
                    ptr_params.push((Declarator { ptrs: 1, reference: false, name, dims: Vec::new(), init: Some(Init::Expr(init)), span: p.span }, self.base_type(&p.specs), const_param));
                    continue;
                }
                if crate::lower::multiptr::null_const(a) {
                    // `f(NULL)`: any access through the parameter fails.
                    let e = self.null_pointer(&pname, a.span);
                    self.has_multi = true;
                    arrays.push((pname, e));
                    continue;
                }
                let shape = self.param_dims(p)?;
                let entity = if shape.len() > 1 { self.shaped_argument(a, const_param, shape)? } else { self.array_argument(a, const_param)? };
                arrays.push((pname, entity));
                continue;
            }
            let pname = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| "arg".into());
            let pty = self.spec_type(&p.specs);
            if pty.is_aggregate() {
                // A struct or vector by value: fresh locals holding a copy.
                let v = match self.agg_type(a) {
                    None if matches!(pty, CType::Long(_)) => crate::lower::values::AggVal { ty: pty.clone(), leaves: self.long_leaves(a) },
                    Some(_) => self.agg_value(a)?,
                    None => {
                        self.err(format!("`{}` needs a `{}` here", f.name.name, self.type_name(&pty)), a.span);
                        return None;
                    }
                };
                let leaves = self.record_locals(&format!("{}_{}", f.name.name, pname), &pty, Some(v.leaves), a.span);
                agg_params.push((pname, Entity::Record { ty: pty, leaves }));
                continue;
            }
            let ty = self.base_type(&p.specs);
            let v = self.expr(a);
            let v = self.convert(v, ty, a.span);
            let local = self.fresh(&format!("{}_{}", f.name.name, pname));
            self.emit(k::StmtKind::Local(sp_id(&local, a.span), Some(v)), a.span);
            bound.push((pname, local, ty));
        }
        let rct = self.spec_type(&f.specs);
        let agg_result = (f.ptrs == 0 && rct.is_aggregate()).then(|| {
            let leaves = self.record_locals(&format!("{}_result", f.name.name), &rct, None, span);
            (rct.clone(), leaves)
        });
        let rty = if agg_result.is_some() { Ty::Void } else { self.base_type(&f.specs) };
        let result = (rty != Ty::Void && f.ptrs == 0).then(|| (self.fresh(&format!("{}_result", f.name.name)), rty));
        if let Some((r, _)) = &result {
            self.emit(k::StmtKind::Local(sp_id(r, span), Some(k::Expr::num(0, span))), span);
            if f.name.name.starts_with("__spec_") {
                // A specification function's result is what its `__ensures` say.
                self.emit(k::StmtKind::Havoc(sp_id(r, span)), span);
            }
        }
        let returned = has_return(&body.stmts).then(|| self.fresh(&format!("{}_returned", f.name.name)));
        if let Some(r) = &returned {
            self.emit(k::StmtKind::Local(sp_id(r, span), Some(k::Expr::num(0, span))), span);
        }
        // The callee sees its params and file-scope names only.
        let globals = self.scopes[0].clone();
        let saved = std::mem::replace(&mut self.scopes, vec![globals]);
        let mut scope = HashMap::new();
        let bound_locals: Vec<String> = bound.iter().map(|b| b.1.clone()).collect();
        for (c, kname, ty) in bound {
            scope.insert(c, Entity::Local { kpl: kname, ty });
        }
        for (c, entity) in arrays.into_iter().chain(agg_params) {
            // The pointer fields of a struct passed by value: the callee's own pointer
            // variables (`pointer_fields.rs`), declared with the copy.
            if let Entity::Record { leaves, .. } = &entity {
                for l in leaves {
                    if let Leaf::PtrVar(n) = l {
                        if let Some(e) = saved.iter().rev().find_map(|s| s.get(n)) {
                            scope.insert(n.clone(), e.clone());
                        }
                    }
                }
            }
            scope.insert(c, entity);
        }
        // A pointer result: the caller's variable, seen (and assigned) by the callee.
        let ptr_binding = ptr_result.as_ref().and_then(|r| Some((r.name.clone(), saved.iter().rev().find_map(|s| s.get(&r.name).cloned())?)));
        if let Some((n, e)) = &ptr_binding {
            scope.insert(n.clone(), e.clone());
        }
        self.scopes.push(scope);
        for (d, ty, readonly) in ptr_params {
            self.pointer_decl(&d, ty, readonly);
        }
        let wide = self.checked_function_wide(f, &body.stmts);
        let wide_spans = function_wide(&body.stmts).iter().map(|e| e.0.span).collect();
        let gotos = self.goto_flags(&body.stmts);
        self.frames.push(Frame {
            name: f.name.name.clone(),
            result: result.clone(),
            agg_result: agg_result.clone(),
            returned,
            loops: Vec::new(),
            ensures: Vec::new(),
            global_ensures: Vec::new(),
            olds: Vec::new(),
            assumed: Vec::new(),
            function_wide: wide,
            function_wide_spans: wide_spans,
            ptr_result: ptr_result.clone(),
            gotos,
            contract: false,
        });
        // `--no-inline`: a call with no effect another thread sees uses only the contract.
        let contract_effects = if self.contract_candidate(f) && agg_result.as_ref().is_none_or(|(_, ls)| ls.iter().all(|l| matches!(l, Leaf::Word(Place::Local(..))))) {
            let mut own: HashSet<String> = bound_locals.iter().cloned().collect();
            own.extend(result.iter().map(|r| r.0.clone()));
            own.extend(self.frame().returned.clone());
            self.pure_body(after_contract(&body.stmts), &own, &ref_locals, span)
        } else {
            None
        };
        if contract_effects.is_some() {
            self.frame().contract = true;
            self.array_layouts.contract_calls.insert(f.name.name.clone());
            // (`contract_candidate` leaves out specification functions, whose result is havocked above.)
            if let Some((r, _)) = &result {
                self.emit(k::StmtKind::Havoc(sp_id(r, span)), span);
            }
            for l in agg_result.iter().flat_map(|(_, ls)| ls) {
                if let Leaf::Word(Place::Local(name, _)) = l {
                    self.emit(k::StmtKind::Havoc(sp_id(name, span)), span);
                }
            }
        }
        let mut rest: &[Stmt] = &body.stmts;
        loop {
            let Some((first, tail)) = rest.split_first() else { break };
            let requires = annotation(first, "__requires").map(|e| (e, false));
            if let Some((e, global)) = requires.or_else(|| annotation(first, "__global_requires").map(|e| (e, true))) {
                let c = self.assertion_cond(e);
                // Checked at a call (`__global_requires` by every thread, calling or not);
                // assumed by the function's own check (`modular.rs`), where all threads call.
                let own_check = self.o.check_function.is_some() && self.frames.len() == 2;
                if !own_check {
                    let calls = self.array_layouts.preconditions.entry(first.span).or_default();
                    if !calls.contains(&span) {
                        calls.push(span);
                    }
                }
                self.emit(if own_check { k::StmtKind::Assume(c) } else { k::StmtKind::Assert(c, global) }, first.span);
            } else if let Some(e) = annotation(first, "__ensures") {
                self.postcondition(e, false);
            } else if let Some(e) = annotation(first, "__global_ensures") {
                self.postcondition(e, true);
            } else {
                break;
            }
            rest = tail;
        }
        match contract_effects {
            // What the body may have assigned in the caller (through references) is arbitrary.
            Some(assigned) => {
                for x in assigned {
                    self.emit(k::StmtKind::Havoc(sp_id(&x, span)), span);
                }
            }
            None => self.stmts(rest),
        }
        // Falling off the end (a void function) also establishes the postcondition.
        let ensures = self.frame().ensures.clone();
        if !ensures.is_empty() {
            let flag = self.frame().returned.clone();
            let checks = self.sub_block(
                |l| {
                    for en in &ensures {
                        let c = l.assertion_cond(en);
                        l.emit(k::StmtKind::Assert(c, false), en.span);
                    }
                },
                span,
            );
            match flag {
                Some(fl) => {
                    let not = k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(k::Expr::var(&fl, span))), span);
                    self.emit(k::StmtKind::If(not, checks, None), span);
                }
                None => {
                    if let Some(b) = self.blocks.last_mut() {
                        b.extend(checks.stmts);
                    }
                }
            }
        }
        self.global_ensures_at_end();
        self.frames.pop();
        let ptr_final = ptr_binding.and_then(|(n, _)| Some((n.clone(), self.lookup(&n)?)));
        // What the callee made of the caller's pointers it was given by reference.
        let refs_final: Vec<(String, Entity)> = ptr_refs.iter().filter_map(|(caller, deref)| Some((caller.clone(), self.lookup(deref)?))).collect();
        self.scopes = saved;
        if let Some((n, e)) = ptr_final {
            self.rebind(&n, e);
        }
        for (n, e) in refs_final {
            self.rebind(&n, e);
        }
        if let Some((ty, leaves)) = agg_result {
            let leaves = leaves
                .into_iter()
                .map(|l| match l {
                    Leaf::Word(p) => crate::lower::values::VLeaf::Word(self.read_place(&p, span)),
                    Leaf::Ptr(a) => crate::lower::values::VLeaf::Ptr(a),
                    Leaf::PtrVar(n) => crate::lower::values::VLeaf::Ptr(self.field_pointer_value(&n)),
                })
                .collect();
            return Some(Ret::Agg(crate::lower::values::AggVal { ty, leaves }));
        }
        Some(match result {
            Some((r, ty)) => Ret::Scalar(k::Expr::var(&r, span), ty),
            None => Ret::Scalar(k::Expr::num(0, span), Ty::Void),
        })
    }

    /// The spans of the current function's accepted function-wide invariants.
    pub(crate) fn frame_function_wide_spans(&mut self) -> Vec<Span> {
        self.frame().function_wide_spans.clone()
    }

    /// Inside a loop of the current function (a `switch` is not one)?
    fn in_loop(&mut self) -> bool {
        self.frame().loops.iter().any(|l| !l.switch)
    }

    /// `switch (e) { case K: ... }`: each case's statements run if its label or an earlier
    /// one matched (C's fall-through) and no `break` ended the switch; a `break` may only
    /// end a case. Gives whether it may `return`.
    fn switch(&mut self, c: &Expr, body: &Stmt, span: Span) -> bool {
        let stmts: &[Stmt] = match &body.kind {
            StmtKind::Block(b) => &b.stmts,
            _ => std::slice::from_ref(body),
        };
        let v = self.expr(c);
        let v = self.convert(v, Ty::UInt, c.span);
        let value = self.temp();
        self.emit(k::StmtKind::Local(sp_id(&value, c.span), Some(v)), c.span);
        let mut constants = Vec::new();
        for s in stmts {
            if let StmtKind::Case(Some(e)) = &s.kind {
                match self.const_eval(e) {
                    Some(n) => constants.push(n as u64 & 0xFFFF_FFFF),
                    None => self.err("a `case` label must be a constant", e.span),
                }
            }
        }
        let is = |n: u64| k::Expr::new(k::ExprKind::Binary(k::BinOp::Eq, Box::new(k::Expr::var(&value, span)), Box::new(k::Expr::num(n, span))), span);
        let matched = self.fresh("case_matched");
        let done = self.fresh("switch_done");
        self.emit(k::StmtKind::Local(sp_id(&matched, span), Some(k::Expr::num(0, span))), span);
        self.emit(k::StmtKind::Local(sp_id(&done, span), Some(k::Expr::num(0, span))), span);
        self.frame().loops.push(LoopCtx { on_continue: Vec::new(), switch: true, done: Some(done.clone()), labels: HashSet::new() });
        self.scopes.push(HashMap::new());
        let mut i = stmts.iter().position(|s| matches!(s.kind, StmtKind::Case(_))).unwrap_or(stmts.len());
        let bin = |op, a, b| k::Expr::new(k::ExprKind::Binary(op, Box::new(a), Box::new(b)), span);
        while i < stmts.len() {
            // The labels of this case, then its statements up to the next label.
            while let Some(StmtKind::Case(label)) = stmts.get(i).map(|s| &s.kind) {
                let hit = match label.as_ref().and_then(|e| self.const_eval(e)) {
                    Some(n) => is(n as u64 & 0xFFFF_FFFF),
                    // `default`: no case matches.
                    None => k::Expr::new(
                        k::ExprKind::Unary(
                            k::UnOp::Not,
                            Box::new(constants.iter().map(|&n| is(n)).reduce(|a, b| bin(k::BinOp::LOr, a, b)).unwrap_or_else(|| k::Expr::num(0, span))),
                        ),
                        span,
                    ),
                };
                self.emit(k::StmtKind::Assign(sp_id(&matched, span), bin(k::BinOp::LOr, k::Expr::var(&matched, span), hit)), span);
                i += 1;
            }
            let end = stmts[i..].iter().position(|s| matches!(s.kind, StmtKind::Case(_))).map(|p| i + p).unwrap_or(stmts.len());
            let section = &stmts[i..end];
            let (section, ends) = match section.split_last() {
                Some((last, rest)) if matches!(last.kind, StmtKind::Break) => (rest, true),
                _ => (section, false),
            };
            let mut guard = bin(k::BinOp::LAnd, k::Expr::var(&matched, span), k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(k::Expr::var(&done, span))), span));
            // A thread that returned or is jumping to a label runs nothing before it.
            for r in self.jump_flags() {
                guard = bin(k::BinOp::LAnd, guard, k::Expr::new(k::ExprKind::Unary(k::UnOp::Not, Box::new(k::Expr::var(&r, span))), span));
            }
            let block = self.sub_block(
                |l| {
                    l.stmts(section);
                    if ends {
                        l.emit(k::StmtKind::Assign(sp_id(&done, span), k::Expr::num(1, span)), span);
                    }
                },
                span,
            );
            self.emit(k::StmtKind::If(guard, block, None), span);
            i = end;
        }
        self.scopes.pop();
        self.frame().loops.pop();
        has_return(stmts)
    }

    /// The function's `__global_ensures`, at its end: every thread checks them, whether it
    /// called the function, returned early or fell off the end.
    /// A specification function's postconditions are assumed there instead, those that
    /// read no memory first: what they say of its accesses (`__write_implies(p, ...)`)
    /// holds before the reads of the others are race-checked.
    fn global_ensures_at_end(&mut self) {
        let ensures = std::mem::take(&mut self.frame().global_ensures);
        for en in ensures {
            let c = self.assertion_cond(&en);
            self.emit(k::StmtKind::Assert(c, true), en.span);
        }
        let assumed = std::mem::take(&mut self.frame().assumed);
        let contract = self.frame().contract;
        let mut lowered: Vec<(k::Expr, Span)> = assumed
            .iter()
            .map(|en| {
                let c = self.assertion_cond(en);
                // A contract call's two-thread postcondition was proved of two threads that
                // both call: it says nothing where the other thread does not.
                let c = if contract && mentions_other(&c) { both_called(c, en.span) } else { c };
                (c, en.span)
            })
            .collect();
        lowered.sort_by_key(|(c, _)| c.has_reads());
        for (c, span) in lowered {
            self.emit(k::StmtKind::Assume(c), span);
        }
    }

    /// A function's function-wide invariants, refused (GPUVerify's rules) if one calls a
    /// function with a body or names a parameter the function assigns.
    fn checked_function_wide(&mut self, f: &Func, body: &[Stmt]) -> Vec<(Expr, bool)> {
        let assigned = assigned_names(f.body.as_ref());
        let params: Vec<&str> =
            f.params.iter().filter_map(|p| p.name.as_ref().map(|n| n.name.as_str())).filter(|n| assigned.contains(*n)).collect();
        let mut ok = Vec::new();
        for (e, candidate) in function_wide(body) {
            let mut bad: Option<&str> = None;
            let mut check = |x: &Expr| match &x.kind {
                ExprKind::Call(g, _) if matches!(&g.kind, ExprKind::Ident(n) if self.funcs.get(&n.name).is_some_and(|h| h.body.is_some())) => {
                    bad = Some("calls a function with a body")
                }
                ExprKind::Ident(n) if params.contains(&n.name.as_str()) => bad = Some("names a parameter the function assigns"),
                _ => {}
            };
            e.walk(&mut check);
            match bad {
                Some(why) => self.err(format!("a `__function_wide_invariant` that {why} (GPUVerify does not allow it)"), e.span),
                None => ok.push((e, candidate)),
            }
        }
        ok
    }

    /// A call of a function declared without a body (CUDA.md tier 2): its scalar arguments
    /// are evaluated, it has no other effect, and its result is arbitrary (GPUVerify's
    /// reading of an external function).
    fn bodiless_call(&mut self, f: &'u Func, args: &[Expr], span: Span) -> Option<Ret> {
        if f.specs.iter().any(|s| s.word == "_Noreturn") {
            // A call that never returns: reaching it is an error (GPUVerify's `unreachable`).
            self.emit(k::StmtKind::Assert(k::Expr::num(0, span), false), span);
        }
        for (i, a) in args.iter().enumerate() {
            let pointer = f.params.get(i).is_some_and(|p| !p.ptrs.is_empty() || p.dims > 0);
            if !pointer && self.agg_type(a).is_none() {
                self.expr_stmt(a);
            }
        }
        let rct = self.spec_type(&f.specs);
        if f.ptrs > 0 {
            self.unsupported(&format!("using the pointer `{}` returns (it has no body)", f.name.name), span);
            return None;
        }
        if rct.is_aggregate() {
            let leaves = self.record_locals(&format!("{}_result", f.name.name), &rct, None, span);
            let mut vals = Vec::new();
            for l in leaves {
                vals.push(match &l {
                    Leaf::Word(p @ Place::Local(n, _)) => {
                        self.emit(k::StmtKind::Havoc(sp_id(n, span)), span);
                        crate::lower::values::VLeaf::Word(self.read_place(p, span))
                    }
                    _ => crate::lower::values::VLeaf::Ptr(Entity::Invalid),
                });
            }
            return Some(Ret::Agg(crate::lower::values::AggVal { ty: rct, leaves: vals }));
        }
        let rty = self.base_type(&f.specs);
        if rty == Ty::Void {
            return Some(Ret::Scalar(k::Expr::num(0, span), Ty::Void));
        }
        let r = self.arbitrary(&format!("{}_result", f.name.name), rty, span);
        Some(Ret::Scalar(r.e, rty))
    }

    /// The value of a constant integer expression (array sizes), `sizeof e` and `const`
    /// locals with constant initialisers included.
    pub fn const_eval(&self, e: &Expr) -> Option<i64> {
        crate::syntax::ast::const_eval_with(e, &|x| match &x.kind {
            ExprKind::Ident(n) => match self.lookup(&n.name) {
                Some(Entity::Local { kpl, .. }) => self.const_locals.get(&kpl).copied(),
                _ => None,
            },
            _ => crate::sema::sizeof_expr::operand(x).and_then(|_| self.sizeofs.get(&x.span)).map(|n| *n as i64),
        })
    }
}

/// The arguments of the `__function_wide_invariant(e);` statements that end a function
/// body (GPUVerify's rule: they come last; one elsewhere is refused where it is lowered).
/// A body that ends in a nested block `{ ... }` ends where that block ends, as code
/// generators such as PPCG write it: Bugle sees one last basic block either way.
fn function_wide(stmts: &[Stmt]) -> Vec<(Expr, bool)> {
    let wide = |s: &Stmt| {
        annotation(s, "__function_wide_invariant")
            .map(|e| (e.clone(), false))
            .or_else(|| annotation(s, "__function_wide_candidate_invariant").map(|e| (e.clone(), true)))
    };
    let mut out: Vec<(Expr, bool)> = stmts.iter().rev().map_while(wide).collect();
    out.reverse();
    if let Some(StmtKind::Block(b)) = stmts[..stmts.len() - out.len()].last().map(|s| &s.kind) {
        let mut inner = function_wide(&b.stmts);
        inner.extend(out);
        out = inner;
    }
    out
}

/// The `__requires(e);` (and `__global_requires`) statements of a kernel body that come
/// after its first statements but only in nested blocks `{ ... }` that the body runs
/// unconditionally, and name only parameters the kernel never assigns: code generators
/// such as PPCG write a kernel's preconditions there, and GPUVerify (Bugle) takes every
/// `__requires` of a function as a precondition wherever it stands. Any other one stays
/// a check where it stands.
fn nested_requires<'s>(f: &Func, stmts: &'s [Stmt]) -> Vec<&'s Stmt> {
    let mut fixed: HashSet<String> = f.params.iter().filter_map(|p| p.name.as_ref().map(|n| n.name.clone())).collect();
    let assigned = assigned_names(f.body.as_ref());
    fixed.retain(|n| !assigned.contains(n));
    if let Some(b) = &f.body {
        for s in &b.stmts {
            s.walk_stmts(&mut |s| {
                if let StmtKind::Decl(d) = &s.kind {
                    d.decls.iter().for_each(|x| {
                        fixed.remove(&x.name.name);
                    });
                }
            });
        }
    }
    // GPUVerify's pure helpers may appear (PPCG writes `__ite` in its preconditions).
    const PURE: [&str; 2] = ["__ite", "__implies"];
    let only_fixed = |e: &Expr| {
        let mut ok = true;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Ident(n) if !fixed.contains(&n.name) && !PURE.contains(&n.name.as_str()) => ok = false,
            ExprKind::Call(g, _) if !matches!(&g.kind, ExprKind::Ident(n) if PURE.contains(&n.name.as_str())) => ok = false,
            ExprKind::Assign(..) | ExprKind::PreInc(..) | ExprKind::PostInc(..) | ExprKind::Index(..) => ok = false,
            _ => {}
        });
        ok
    };
    fn visit<'s>(stmts: &'s [Stmt], top: bool, pick: &dyn Fn(&Expr) -> bool, out: &mut Vec<&'s Stmt>) {
        for s in stmts {
            match &s.kind {
                StmtKind::Block(b) => visit(&b.stmts, false, pick, out),
                _ if top => {}
                _ => {
                    if let Some(e) = annotation(s, "__requires").or_else(|| annotation(s, "__global_requires")) {
                        if pick(e) {
                            out.push(s);
                        }
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    visit(stmts, true, &only_fixed, &mut out);
    out
}

/// `name(e);` as a statement: the annotation's argument.
pub(crate) fn annotation<'s>(s: &'s Stmt, name: &str) -> Option<&'s Expr> {
    match &s.kind {
        StmtKind::Expr(e) => call_annotation(e, name),
        _ => None,
    }
}

/// `name(a)` as an expression: gives `a`.
fn call_annotation<'e>(e: &'e Expr, name: &str) -> Option<&'e Expr> {
    if let ExprKind::Call(f, args) = &e.kind {
        if let (ExprKind::Ident(x), [a]) = (&f.kind, args.as_slice()) {
            if x.name == name {
                return Some(a);
            }
        }
    }
    None
}

/// The loop invariant annotations (GPUVerify's; the candidate ones Houdini may drop).
const INVARIANTS: [(&str, bool); 4] = [
    ("__invariant", false),
    ("__global_invariant", false),
    ("__candidate_invariant", true),
    ("__candidate_global_invariant", true),
];

/// A loop invariant annotation as a statement: its expression, and whether it is a
/// candidate.
fn invariant_stmt(s: &Stmt) -> Option<(&Expr, bool)> {
    INVARIANTS.iter().find_map(|(n, cand)| annotation(s, n).map(|e| (e, *cand)))
}

fn invariant_call(e: &Expr) -> Option<(&Expr, bool)> {
    INVARIANTS.iter().find_map(|(n, cand)| call_annotation(e, n).map(|x| (x, *cand)))
}

/// GPUVerify's invariants in a loop condition: `__invariant(a), __invariant(b), cond`
/// gives `[a, b]` and `cond` (a condition without them: none, and itself).
fn condition_invariants(c: &Expr) -> (Vec<(Span, &Expr, bool)>, &Expr) {
    let mut items = Vec::new();
    let mut cur = c;
    while let ExprKind::Comma(l, r) = &cur.kind {
        items.push(&**r);
        cur = l;
    }
    items.push(cur);
    items.reverse();
    let Some((cond, rest)) = items.split_last() else { return (vec![], c) };
    let invs: Option<Vec<(Span, &Expr, bool)>> = rest.iter().map(|e| invariant_call(e).map(|(a, cand)| (e.span, a, cand))).collect();
    match invs {
        Some(invs) if !invs.is_empty() => (invs, cond),
        _ => (vec![], c),
    }
}

fn is_loop(s: &Stmt) -> bool {
    matches!(s.kind, StmtKind::While(..) | StmtKind::For(..) | StmtKind::DoWhile(..))
}

/// Does `c` speak of the other thread (`other(...)`)?
fn mentions_other(c: &k::Expr) -> bool {
    let mut found = false;
    c.walk(&mut |e| found |= matches!(&e.kind, k::ExprKind::Call(f, _) if k::Builtin::from_name(&f.name) == Some(k::Builtin::Other)));
    found
}

/// `implies(other(enabled()), c)`.
fn both_called(c: k::Expr, span: Span) -> k::Expr {
    let call = |b: k::Builtin, args: Vec<k::Expr>| k::Expr::new(k::ExprKind::Call(sp_id(b.name(), span), args), span);
    let other_enabled = call(k::Builtin::Other, vec![call(k::Builtin::Enabled, Vec::new())]);
    call(k::Builtin::Implies, vec![other_enabled, c])
}

/// A body's statements after its leading `__requires`/`__ensures` (and global ones).
fn after_contract(stmts: &[Stmt]) -> &[Stmt] {
    let contract = |s: &Stmt| ["__requires", "__global_requires", "__ensures", "__global_ensures"].iter().any(|n| annotation(s, n).is_some());
    &stmts[stmts.iter().take_while(|s| contract(s)).count()..]
}

pub(crate) fn has_return(stmts: &[Stmt]) -> bool {
    stmts.iter().any(stmt_returns)
}

/// May `s` execute a `break` of the switch it is in (not of a loop or switch inside it)?
fn breaks_switch(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(b) => b.stmts.iter().any(breaks_switch),
        StmtKind::If(_, t, e) => breaks_switch(t) || e.as_deref().is_some_and(breaks_switch),
        _ => false,
    }
}

fn stmt_returns(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Block(b) => has_return(&b.stmts),
        StmtKind::If(_, t, e) => stmt_returns(t) || e.as_deref().is_some_and(stmt_returns),
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For(_, _, _, b) | StmtKind::Switch(_, b) => stmt_returns(b),
        _ => false,
    }
}

/// Names assigned anywhere in a function body (to copy assigned params into locals).
/// The name an assigned pointer parameter's array is bound to, which no C name can be:
/// the parameter's own name is the pointer variable the body assigns.
fn param_array_name(param: &str) -> String {
    format!("{param}@param")
}

pub(crate) fn assigned_names(b: Option<&Block>) -> HashSet<String> {
    let mut out = HashSet::new();
    fn target(e: &Expr, out: &mut HashSet<String>) {
        match &e.kind {
            ExprKind::Ident(x) => {
                out.insert(x.name.clone());
            }
            // `s.f = ...` and `s.a[i] = ...` assign (part of) the struct variable `s`.
            ExprKind::Member(b, _) => target(b, out),
            ExprKind::Index(b, _) if matches!(b.kind, ExprKind::Member(..)) => target(b, out),
            _ => {}
        }
    }
    let mut visit = |e: &Expr| match &e.kind {
        ExprKind::Assign(_, l, _) | ExprKind::PreInc(_, l) | ExprKind::PostInc(_, l) => target(l, &mut out),
        _ => {}
    };
    if let Some(b) = b {
        b.stmts.iter().for_each(|s| s.walk_exprs(&mut |e| e.walk(&mut visit)));
    }
    out
}

