//! C ─► KPL at the top: the unit's functions and file-scope variables (their memory in
//! `memory_decls.rs`), the kernel's parameters, launch declarations, preconditions and
//! axioms, and the kernel itself.

use crate::lower::ast_facts::{
    annotation, assigned_names, function_wide, has_return, nested_requires, param_array_name,
};
use crate::lower::context::{Frame, Lower};
use crate::lower::values::{sp_id, CType, Entity, Leaf, LeafTy, Place, Ty};
use crate::syntax::ast::*;
use crate::text::tokens::CTok;
use crate::text::tokens::Dialect;
use kpl_lang::ast::{self as k, DeclKind, Ident};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::HashMap;

impl<'u> Lower<'u> {
    pub(crate) fn unit(&mut self, u: &'u Unit) -> Option<k::Kernel> {
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
                    self.operator_functions |=
                        f.name.name.starts_with(crate::sema::operators::PREFIX);
                    // A second body of one name: C++ overloads of one arity, chosen between
                    // at each call by argument types (`overloads.rs`).
                    if let Some(g) = self
                        .funcs
                        .get(&f.name.name)
                        .copied()
                        .filter(|g| f.body.is_some() && g.body.is_some())
                    {
                        if self.is_kernel(g) {
                            self.unsupported(
                                &format!(
                                    "overloaded kernels (a second definition of `{}`)",
                                    f.name.name
                                ),
                                f.name.span,
                            );
                        }
                        self.overloads
                            .entry(f.name.name.clone())
                            .or_insert_with(|| vec![g])
                            .push(f);
                        continue;
                    }
                    if f.body.is_some() || !self.funcs.contains_key(&f.name.name) {
                        self.funcs.insert(f.name.name.clone(), f);
                    }
                }
                Item::Var(d) => self.global_var(d),
                Item::Call(f, args, span) if f.name == "__axiom" && args.len() == 1 => {
                    axioms.push((args[0].clone(), *span))
                }
                Item::Call(f, _, span) => self.err(
                    format!("a call to `{}` outside any function", f.name),
                    *span,
                ),
                Item::Unsupported(what, span) => self.unsupported(what, *span),
                Item::Error => {}
            }
        }
        if let Some(name) = &self.o.check_function {
            let Some(f) = self.funcs.get(name).copied().filter(|f| f.body.is_some()) else {
                self.err(
                    format!("no function `{name}` with a body to check"),
                    Span::new(0, 0),
                );
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
                    let names: Vec<String> = kernels
                        .iter()
                        .map(|f| format!("`{}`", f.name.name))
                        .collect();
                    self.err(
                        format!(
                            "no kernel named `{name}` (the file has {})",
                            if names.is_empty() {
                                "none".into()
                            } else {
                                names.join(", ")
                            }
                        ),
                        Span::new(0, 0),
                    );
                    return None;
                }
            },
            None => match kernels.as_slice() {
                [f] => *f,
                [] => {
                    let what = if self.o.dialect == Dialect::Cuda {
                        "`__global__`"
                    } else {
                        "`__kernel`"
                    };
                    let mut d = Diagnostic::error(format!("the file has no {what} function to verify"), Span::new(0, 0));
                    if let Some(t) = u.kernel_templates.first() {
                        let all: Vec<String> = u.kernel_templates.iter().map(|t| format!("`{t}`")).collect();
                        d = d.with_help(format!(
                            "its kernel template{} {} {} no instance in the file: name one with its template arguments, `--kernel={t}<...>`",
                            if all.len() == 1 { "" } else { "s" },
                            all.join(", "),
                            if all.len() == 1 { "has" } else { "have" },
                        ));
                    }
                    self.errors.push(d);
                    return None;
                }
                many => {
                    let names: Vec<String> =
                        many.iter().map(|f| format!("`{}`", f.name.name)).collect();
                    self.errors.push(
                        Diagnostic::error(
                            format!("the file has several kernels: {}", names.join(", ")),
                            many[1].name.span,
                        )
                        .with_help("choose one with `--kernel=NAME`"),
                    );
                    return None;
                }
            },
        };
        Some(self.kernel(chosen, &axioms))
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
                    Diagnostic::warning(
                        format!("no launch given: using one group of one thread"),
                        f.name.span,
                    )
                    .with_help(format!("give the launch with `{b}=` and `{g}=`")),
                );
                kpl_lang::Launch::new([1, 1, 1], [1, 1, 1])
            }
        };
        let n = launch.dims_used();
        let dims = |d: [u32; 3]| k::Dims {
            dims: d[..n].iter().map(|&x| (x as u64, f.name.span)).collect(),
            span: f.name.span,
        };
        vec![
            k::Decl {
                kind: DeclKind::Groups(dims(launch.groups)),
                span: f.name.span,
            },
            k::Decl {
                kind: DeclKind::Threads(dims(launch.threads)),
                span: f.name.span,
            },
        ]
    }

    pub(crate) fn kernel(&mut self, f: &'u Func, axioms: &[(Expr, Span)]) -> k::Kernel {
        let mut decls = self.launch_decls(f);
        let assigned = assigned_names(f.body.as_ref());
        let mut copies = Vec::new();
        let mut narrow_copies = Vec::new();
        // The words of each scalar or by-value parameter, in order (`--kernel-args`).
        let mut scalars: Vec<(Vec<String>, Span)> = Vec::new();
        let mut ptr_params = Vec::new();
        // Each integer parameter's position, C name, words and type (a launch in host code
        // that passes it a constant: `launch_args`).
        let mut integers: Vec<(usize, String, Vec<String>, Ty, Span)> = Vec::new();
        // Each global pointer parameter's position, C name and array (a launch in host code
        // that passes it `NULL`: `launch_args`).
        let mut pointers: Vec<(usize, String, String)> = Vec::new();
        for (position, p) in f.params.iter().enumerate() {
            // An unnamed parameter (a tag such as `std::bool_constant<false>`) is one the
            // kernel never reads; it keeps its place among the arguments.
            let unnamed;
            let name = match &p.name {
                Some(n) => n,
                None if p.ptrs.is_empty() && p.dims == 0 && self.base_type(&p.specs) == Ty::Void => continue,
                None => {
                    unnamed = Ident { name: format!("__unnamed{position}"), span: p.span };
                    &unnamed
                }
            };
            let base = self.spec_type(&p.specs);
            let pointer = !p.ptrs.is_empty() || p.dims > 0;
            if p.ptrs.len() > 2 || (p.ptrs.len() == 2 && p.dims > 0) {
                self.unsupported("pointers to pointers to pointers", p.span);
                continue;
            }
            if p.reference {
                self.err(
                    "a kernel parameter cannot be a reference (the host passes values)",
                    p.span,
                );
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
                            decls.push(k::Decl {
                                kind: DeclKind::Param(sp_id(&kpl, name.span)),
                                span: p.span,
                            });
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
                            decls.push(k::Decl {
                                kind: DeclKind::Global {
                                    name: sp_id(&kpl, name.span),
                                    size: None,
                                },
                                span: p.span,
                            });
                            self.array_layouts
                                .names
                                .insert(kpl.clone(), format!("{}{path}", name.name));
                            let (elem, agg) = pt.split();
                            let array = Entity::Array {
                                kpl,
                                elem,
                                dims: vec![],
                                readonly: false,
                                offset: None,
                                agg,
                            };
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
                            let init = Expr::new(
                                ExprKind::Ident(Ident {
                                    name: hidden,
                                    span: name.span,
                                }),
                                name.span,
                            );
                            let d = Declarator {
                                ptrs: 1,
                                reference: false,
                                name: Ident {
                                    name: field.clone(),
                                    span: name.span,
                                },
                                dims: Vec::new(),
                                init: Some(Init::Expr(init)),
                                span: p.span,
                            };
                            ptr_params.push((d, elem, false));
                            leaves.push(Leaf::PtrVar(field));
                        }
                    }
                }
                if let CType::Long(signed) = base {
                    integers.push((
                        position,
                        name.name.clone(),
                        words.clone(),
                        Ty::Long { signed },
                        name.span,
                    ));
                }
                self.bind(&name.name, Entity::Record { ty: base, leaves });
                if !words.is_empty() {
                    scalars.push((words, name.span));
                }
                continue;
            }
            // `T **p`: an array of pointer words (what they point at is not followed).
            let words_are_pointers = p.ptrs.len() == 2;
            let (ty, agg) = if words_are_pointers {
                (Ty::UInt, Some(CType::Pointer(Box::new(base.clone()))))
            } else {
                base.split()
            };
            let kpl = self.fresh(&name.name);
            if pointer {
                let space = self.space(&p.specs);
                let readonly =
                    p.specs.iter().any(|s| s.word == "const") || space == Some("constant");
                let kind = if space == Some("shared") {
                    DeclKind::Shared {
                        name: sp_id(&kpl, name.span),
                        size: None,
                    }
                } else {
                    DeclKind::Global {
                        name: sp_id(&kpl, name.span),
                        size: None,
                    }
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
                let dims = if words_are_pointers {
                    Some(vec![])
                } else {
                    self.param_dims(p)
                };
                let Some(dims) = dims else {
                    self.bind(&name.name, Entity::Invalid);
                    continue;
                };
                if space != Some("shared") {
                    self.param_arrays.insert(kpl.clone());
                    pointers.push((position, name.name.clone(), kpl.clone()));
                }
                let array = Entity::Array {
                    kpl,
                    elem: ty,
                    dims,
                    readonly,
                    offset: None,
                    agg,
                };
                if assigned.contains(&name.name) {
                    // C parameters are assignable: after the preconditions (which see the
                    // array), the body's `p` is a pointer variable that starts at the array
                    // (`pointers.rs`); the array keeps the parameter's name.
                    let hidden = param_array_name(&name.name);
                    self.bind(&hidden, array.clone());
                    let init = Expr::new(
                        ExprKind::Ident(Ident {
                            name: hidden,
                            span: name.span,
                        }),
                        name.span,
                    );
                    ptr_params.push((
                        Declarator {
                            ptrs: 1,
                            reference: false,
                            name: name.clone(),
                            dims: Vec::new(),
                            init: Some(Init::Expr(init)),
                            span: p.span,
                        },
                        ty,
                        readonly,
                    ));
                }
                self.bind(&name.name, array);
            } else {
                if ty == Ty::Void {
                    self.err("a parameter cannot be `void`", p.span);
                    continue;
                }
                decls.push(k::Decl {
                    kind: DeclKind::Param(sp_id(&kpl, name.span)),
                    span: p.span,
                });
                scalars.push((vec![kpl.clone()], name.span));
                if ty != Ty::Float {
                    integers.push((
                        position,
                        name.name.clone(),
                        vec![kpl.clone()],
                        ty,
                        name.span,
                    ));
                }
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
                self.err(
                    format!(
                        "`--kernel-args` names kernel `{name}`, not `{}`",
                        f.name.name
                    ),
                    f.name.span,
                );
            } else if vals.len() != scalars.len() {
                self.err(
                    format!(
                        "`--kernel-args` gives {} value(s); `{}` has {} scalar parameter(s)",
                        vals.len(),
                        name,
                        scalars.len()
                    ),
                    f.name.span,
                );
            } else {
                for ((words, span), v) in scalars.iter().zip(vals) {
                    // A 32-bit parameter takes a value of 32 bits, or a negative one that
                    // its low word holds (`-3`).
                    let fits_word = *v <= u64::from(u32::MAX)
                        || (*v as i64) >= i64::from(i32::MIN) && (*v as i64) < 0;
                    if words.len() > 2 || (words.len() < 2 && !fits_word) {
                        let bits = 32 * words.len();
                        self.err(format!("`--kernel-args` value {v:#x} is for a parameter of {bits} bits (kpl takes values of 32 or 64 bits)"), *span);
                        continue;
                    }
                    fix_words(words, *v, *span, &mut decls);
                }
            }
        }
        // The constant arguments of the host code's launch (`sema/launches.rs`): C converts
        // each to its parameter's type.
        // A note says which parameters that fixes, by name: only integers are.
        let mut passed_null = std::collections::HashSet::new();
        if let Some(vals) = &self.o.launch_args {
            let mut fixed = Vec::new();
            let mut values = HashMap::new();
            for (position, c_name, words, ty, span) in &integers {
                let Some(Some(v)) = vals.get(*position) else {
                    continue;
                };
                fixed.push(format!("`{c_name}` = {v}"));
                values.insert(*position, *v);
                let v = if *ty == Ty::Bool {
                    u64::from(*v != 0)
                } else {
                    *v as u64
                };
                fix_words(words, v, *span, &mut decls);
            }
            // (A null pointer is 0 in `--json`'s `fixed`, as in C.)
            for (position, c_name, _) in pointers.iter().filter(|(i, ..)| vals.get(*i) == Some(&Some(0))) {
                fixed.push(format!("`{c_name}` = NULL"));
                values.insert(*position, 0);
                passed_null.insert(*position);
            }
            self.launch_params = f.params.iter().enumerate().filter_map(|(i, p)| p.name.as_ref().map(|n| (n.name.clone(), values.get(&i).copied()))).collect();
            let free = f.params.iter().filter(|p| p.name.is_some()).count() - fixed.len();
            let what = if fixed.is_empty() {
                "no parameter".to_string()
            } else {
                fixed.join(", ")
            };
            self.warnings.push(Diagnostic::note(
                format!("the host code's launch fixes {what}; {free} parameter{} free (pointers, floats, and values not the same integer constant at every launch)", if free == 1 { " stays" } else { "s stay" }),
                f.name.span,
            ));
        }
        self.launch_facts(&integers, f.name.span, &mut decls);
        self.blocks.push(Vec::new());
        for (local, param, span) in copies {
            self.emit(
                k::StmtKind::Local(sp_id(&local, span), Some(k::Expr::var(&param, span))),
                span,
            );
        }
        for (local, param, ty, span) in narrow_copies {
            let v = crate::lower::values::Val {
                e: k::Expr::var(&param, span),
                ty: Ty::Int,
            };
            let narrowed = self.convert(v, ty, span);
            self.emit(
                k::StmtKind::Local(sp_id(&local, span), Some(narrowed)),
                span,
            );
        }
        let body = f.body.as_ref().map(|b| b.stmts.as_slice()).unwrap_or(&[]);
        let returned = has_return(body).then(|| self.fresh("returned"));
        if let Some(r) = &returned {
            self.emit(
                k::StmtKind::Local(sp_id(r, f.name.span), Some(k::Expr::num(0, f.name.span))),
                f.name.span,
            );
        }
        let wide = self.checked_function_wide(f, body);
        let wide_spans = function_wide(body).iter().map(|e| e.0.span).collect();
        let gotos = self.goto_flags(body);
        self.frames.push(Frame {
            function_wide: wide,
            function_wide_spans: wide_spans,
            gotos,
            ..Frame::new(f.name.name.clone(), returned)
        });
        self.scopes.push(HashMap::new());
        // Leading `__requires` of the kernel are preconditions over its params.
        let mut rest = body;
        while let Some((first, tail)) = rest.split_first() {
            // Every thread runs a kernel's start: `__global_requires` is `__requires` there.
            let Some(e) =
                annotation(first, "__requires").or_else(|| annotation(first, "__global_requires"))
            else {
                break;
            };
            self.precondition(e, first.span, &mut decls);
            rest = tail;
        }
        for s in nested_requires(f, rest) {
            let e = annotation(s, "__requires")
                .or_else(|| annotation(s, "__global_requires"))
                .expect("a requires statement");
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
        // A pointer the host code passes as `NULL` is null where the kernel asks
        // (`null_pointers.rs` made its flag, a parameter, in `self.decls`).
        for (_, _, kpl) in pointers.iter().filter(|(i, ..)| passed_null.contains(i)) {
            if let Some(flag) = self.null_flags.get(kpl).cloned() {
                let span = f.name.span;
                let null = k::Expr::new(k::ExprKind::Binary(k::BinOp::Ne, Box::new(k::Expr::var(&flag, span)), Box::new(k::Expr::num(0, span))), span);
                self.decls.push(k::Decl { kind: DeclKind::Requires(null), span });
            }
        }
        if let Some(inv) = self.pending_barrier_invariants.first() {
            let span = inv.span;
            self.err(
                "a barrier invariant must come before a barrier (it is checked there)",
                span,
            );
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
            main: k::Block {
                stmts: main_stmts,
                span: f.body.as_ref().map(|b| b.span).unwrap_or(span),
            },
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
                Some(ke) => decls.push(k::Decl {
                    kind: DeclKind::Requires(ke),
                    span: *span,
                }),
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
    /// The preconditions a launch size given on the command line sets where the host code
    /// computes it from the kernel's parameters (`LaunchFact`): `(N + 31) / 32 == 4` for
    /// `--gridDim=4` and `dim3 grid(CEIL_DIV(N, 32)); k<<<grid, b>>>(N, ...)`. A fact over a
    /// parameter whose type is not the one the host variable has, or that the kernel
    /// assigns, is left out (the host's arithmetic would not be the kernel's).
    fn launch_facts(
        &mut self,
        integers: &[(usize, String, Vec<String>, Ty, Span)],
        at: Span,
        decls: &mut Vec<k::Decl>,
    ) {
        let mut said = Vec::new();
        for fact in &self.o.launch_facts.clone() {
            let name_of = |position: usize, host_ty: &str| {
                integers
                    .iter()
                    .find(|i| {
                        i.0 == position
                            && i.3.c_name() == host_ty
                            && matches!(i.3, Ty::Int | Ty::UInt | Ty::Long { .. })
                    })
                    .map(|i| i.1.clone())
            };
            let Some(names) = fact
                .expr
                .params
                .iter()
                .map(|(p, ty)| {
                    Some((
                        crate::sema::launches::param_placeholder(*p),
                        name_of(*p, ty)?,
                    ))
                })
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let mut toks: Vec<(usize, CTok, usize)> = vec![(at.start, CTok::P("("), at.start)];
            for t in &fact.expr.toks {
                match &t.1 {
                    CTok::Ident(n) => match names.iter().find(|(p, _)| p == n) {
                        Some((_, c)) => toks.push((at.start, CTok::Ident(c.clone()), at.end)),
                        None => toks.push((at.start, t.1.clone(), at.end)),
                    },
                    other => toks.push((at.start, other.clone(), at.end)),
                }
            }
            toks.push((at.end, CTok::P(")"), at.end));
            toks.push((at.end, CTok::P("=="), at.end));
            match fact.value {
                Some(v) => toks.push((at.end, CTok::Int(u64::from(v), false), at.end)),
                // The launch's own size: `gridDim.x`, ... (`fact.what`).
                None => {
                    let (s, axis) = fact.what.split_once('.').unwrap_or(("gridDim", "x"));
                    toks.push((at.end, CTok::Ident(s.to_string()), at.end));
                    toks.push((at.end, CTok::P("."), at.end));
                    toks.push((at.end, CTok::Ident(axis.to_string()), at.end));
                }
            }
            let mut rec = Vec::new();
            let Ok(e) = crate::syntax::grammar::ExprParser::new()
                .parse(&mut rec, toks.iter().cloned().map(Ok::<_, ()>))
            else {
                continue;
            };
            if !rec.is_empty() {
                continue;
            }
            if let Some(ke) = self.requirement(&e) {
                decls.push(k::Decl {
                    kind: DeclKind::Requires(ke),
                    span: at,
                });
                let shown: Vec<CTok> = toks.iter().map(|t| t.1.clone()).collect();
                said.push(match fact.value {
                    Some(_) => format!("`{}` ({} from the command line)", crate::text::tokens::render(&shown), fact.what),
                    None => format!("`{}`", crate::text::tokens::render(&shown).replace(" . ", ".")),
                });
            }
        }
        if !said.is_empty() {
            self.warnings.push(Diagnostic::note(format!("the host code computes the launch's size from the kernel's arguments: kpl assumes {}", said.join(", ")), at));
        }
    }

    pub(crate) fn precondition(&mut self, e: &Expr, span: Span, decls: &mut Vec<k::Decl>) {
        if let Some(ke) = self.requirement(e) {
            decls.push(k::Decl {
                kind: DeclKind::Requires(ke),
                span,
            });
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
            k::ExprKind::Index(..)
            | k::ExprKind::Special(k::Special::Lid | k::Special::Gid, ..) => ok = false,
            k::ExprKind::Var(x) => {
                ok &= self.scopes.iter().any(|sc| {
                    sc.values()
                        .any(|en| matches!(en, Entity::Param { kpl, .. } if *kpl == x.name))
                })
            }
            _ => {}
        });
        ok.then_some(c)
    }
}

/// Preconditions that the parameter of words `words` (low word first) holds `v`.
fn fix_words(words: &[String], v: u64, span: Span, decls: &mut Vec<k::Decl>) {
    for (i, w) in words.iter().enumerate() {
        let word = (v >> (32 * i)) & 0xFFFF_FFFF;
        let eq = k::Expr::new(k::ExprKind::Binary(k::BinOp::Eq, Box::new(k::Expr::var(w, span)), Box::new(k::Expr::num(word, span))), span);
        decls.push(k::Decl { kind: DeclKind::Requires(eq), span });
    }
}
