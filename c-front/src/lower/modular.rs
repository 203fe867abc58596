//! GPUVerify's modular mode (`--no-inline`) for device functions: which functions are
//! checked on their own, and the kernel that checks one. Calls are still inlined in the
//! kernel (as precise as any contract); these extra checks verify what inlining cannot:
//! that a function's `__ensures` follow from its `__requires` for every argument, and the
//! body of a function that nothing calls. Arguments are arbitrary per thread (`havoc`),
//! pointer arguments an arbitrary element of an array of the parameter's memory, or
//! `NULL` where the file has nothing in that memory.

use crate::lower::ast_facts::annotation;
use crate::lower::context::{Frame, Lower};
use crate::lower::values::{CType, Entity, Leaf, Place, sp_id};
use crate::syntax::ast::*;
use crate::text::tokens::Dialect;
use kpl_lang::ast as k;
use kpl_lang::span::Span;
use std::collections::{HashMap, HashSet};

/// A device function checked on its own under `--no-inline`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModularCheck {
    pub function: String,
    /// Races and barrier divergence are checked too: nothing calls the function, so this
    /// is its only check. A called function's races are checked where it is inlined, and
    /// its check is of its contract (assertions) only.
    pub whole: bool,
}

/// The functions `--no-inline` checks on their own: those nothing in the file names (not
/// a call, not a function-pointer value), and those with an `__ensures`.
pub fn checks(unit: &Unit, dialect: Dialect) -> Vec<ModularCheck> {
    let is_kernel = |f: &Func| {
        f.specs.iter().any(|s| match dialect {
            Dialect::Cuda => s.word == "__global__",
            Dialect::OpenCl => s.word == "__kernel" || s.word == "kernel",
        })
    };
    let funcs: Vec<&Func> = unit
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Func(f) if f.body.is_some() => Some(f),
            _ => None,
        })
        .collect();
    // Names used anywhere outside their own function.
    let mut used: HashSet<&str> = HashSet::new();
    for f in &funcs {
        let mut names = HashSet::new();
        for s in &f.body.as_ref().map(|b| b.stmts.as_slice()).unwrap_or(&[]).to_vec() {
            s.walk_exprs(&mut |e| {
                e.walk(&mut |x| {
                    if let ExprKind::Ident(id) = &x.kind {
                        names.insert(id.name.clone());
                    }
                })
            });
        }
        names.remove(&f.name.name);
        for n in names {
            if let Some(g) = funcs.iter().find(|g| g.name.name == n) {
                used.insert(g.name.name.as_str());
            }
        }
    }
    for item in &unit.items {
        if let Item::Var(d) = item {
            for x in &d.decls {
                if let Some(i) = &x.init {
                    i.walk(&mut |e| {
                        if let ExprKind::Ident(id) = &e.kind {
                            if let Some(g) = funcs.iter().find(|g| g.name.name == id.name) {
                                used.insert(g.name.name.as_str());
                            }
                        }
                    });
                }
            }
        }
    }
    let mut seen = HashSet::new();
    funcs
        .iter()
        // GPUVerify's specification functions (`__spec_` names) are contracts the kernel
        // relies on, not code to check.
        .filter(|f| !is_kernel(f) && !f.name.name.starts_with("__spec_") && seen.insert(f.name.name.clone()))
        .filter_map(|f| {
            let whole = !used.contains(f.name.name.as_str());
            (whole || has_postcondition(f)).then(|| ModularCheck { function: f.name.name.clone(), whole })
        })
        .collect()
}

/// Whether `f` has an `__ensures` or a `__global_ensures` among its body's statements: a
/// function checked on its own whether called or not, whose calls may use only the
/// contract (`contract_calls.rs`).
pub(crate) fn has_postcondition(f: &Func) -> bool {
    f.body.as_ref().is_some_and(|b| b.stmts.iter().any(|s| annotation(s, "__ensures").is_some() || annotation(s, "__global_ensures").is_some()))
}

/// An OpenCL memory that a pointer names (`__global`, `__local`, `__constant`); a pointer
/// without one points into private memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Memory {
    Global,
    Local,
    Constant,
}

/// The OpenCL memory `specs` name, if any.
fn named_memory(specs: &[Spec]) -> Option<Memory> {
    specs.iter().find_map(|s| match s.word.as_str() {
        "__global" | "global" => Some(Memory::Global),
        "__local" | "local" => Some(Memory::Local),
        "__constant" | "constant" => Some(Memory::Constant),
        _ => None,
    })
}

impl<'u> Lower<'u> {
    /// The OpenCL memories in which the file has an object a pointer may point at: a
    /// kernel's pointer parameter of that memory, or a variable declared in it (in any
    /// function or at file scope). A kernel's by-value struct parameter may hold a pointer
    /// into any of them. A pointer argument of a function checked on its own can only
    /// point into one of these: with none of its memory, it can only be `NULL` (or
    /// invalid), as GPUVerify, whose pointers range over the program's arrays, finds too.
    pub(crate) fn memories_with_objects(&mut self, unit: &Unit) -> HashSet<Memory> {
        let mut found = HashSet::new();
        for item in &unit.items {
            match item {
                Item::Var(d) => found.extend(named_memory(&d.specs)),
                Item::Func(f) => {
                    if self.is_kernel(f) {
                        for p in &f.params {
                            if !p.ptrs.is_empty() || p.dims > 0 {
                                found.extend(named_memory(&p.specs));
                            } else if self.spec_type(&p.specs).is_aggregate() {
                                found.extend([Memory::Global, Memory::Local, Memory::Constant]);
                            }
                        }
                    }
                    for s in f.body.iter().flat_map(|b| b.stmts.iter()) {
                        s.walk_stmts(&mut |s| {
                            if let StmtKind::Decl(d) = &s.kind {
                                found.extend(named_memory(&d.specs));
                            }
                        });
                    }
                }
                _ => {}
            }
        }
        found
    }

    /// The kernel that checks device function `f` on its own: every thread calls it with
    /// arbitrary arguments of its own that satisfy its `__requires` (assumed, not checked),
    /// and its `__ensures` are checked at each return. `memories`: those in which the file
    /// has objects (`memories_with_objects`).
    pub(crate) fn function_check(&mut self, f: &'u Func, axioms: &[(Expr, Span)], memories: &HashSet<Memory>) -> k::Kernel {
        let mut decls = self.launch_decls(f);
        self.blocks.push(Vec::new());
        self.frames.push(Frame::new(String::new(), None));
        self.scopes.push(HashMap::new());
        let mut args = Vec::new();
        for (i, p) in f.params.iter().enumerate() {
            if p.name.is_none() && p.ptrs.is_empty() && p.dims == 0 && self.base_type(&p.specs) == crate::lower::values::Ty::Void {
                continue;
            }
            let span = p.name.as_ref().map(|n| n.span).unwrap_or(p.span);
            let cname = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| format!("arg{i}"));
            let base = self.spec_type(&p.specs);
            if p.reference {
                // It may refer to shared or global memory that other threads use too.
                self.unsupported("checking on its own a function with a reference parameter", p.span);
                continue;
            }
            if !p.ptrs.is_empty() || p.dims > 0 {
                if p.ptrs.len() > 1 {
                    self.unsupported("pointers to pointers", p.span);
                    continue;
                }
                if self.o.dialect == Dialect::OpenCl && named_memory(&p.specs).is_some_and(|m| !memories.contains(&m)) {
                    // Nothing in the file is in this memory: the argument can only be `NULL`.
                    let memory = p.specs.iter().find(|s| named_memory(std::slice::from_ref(*s)).is_some()).map(|s| s.word.clone()).unwrap_or_default();
                    self.warnings.push(kpl_lang::diagnostic::Diagnostic::warning(
                        format!("checking `{}` on its own, `{cname}` is NULL: nothing in the file is in `{memory}` memory for it to point at", f.name.name),
                        span,
                    ));
                    args.push(Expr::new(ExprKind::Int(0, false), span));
                    continue;
                }
                let kpl = self.fresh(&cname);
                let decl = if self.space(&p.specs) == Some("shared") {
                    k::DeclKind::Shared { name: sp_id(&kpl, span), size: None }
                } else {
                    k::DeclKind::Global { name: sp_id(&kpl, span), size: None }
                };
                decls.push(k::Decl { kind: decl, span: p.span });
                let readonly = p.specs.iter().any(|s| s.word == "const") || self.space(&p.specs) == Some("constant");
                let (elem, agg) = base.split();
                if let Some(t) = &agg {
                    self.record_layout(&kpl, &p.specs, t);
                }
                let off = self.fresh(&format!("{cname}_offset"));
                self.emit(k::StmtKind::Local(sp_id(&off, span), Some(k::Expr::num(0, span))), span);
                self.emit(k::StmtKind::Havoc(sp_id(&off, span)), span);
                let Some(dims) = self.param_dims(p) else { continue };
                self.bind(&cname, Entity::Array { kpl, elem, dims, readonly, offset: Some(off), agg });
            } else if base.is_aggregate() {
                let leaves = self.record_locals(&cname, &base, None, span);
                for l in &leaves {
                    match l {
                        Leaf::Word(Place::Local(name, _)) => self.emit(k::StmtKind::Havoc(sp_id(name, span)), span),
                        _ => self.unsupported("a pointer inside a by-value parameter of a function checked on its own", p.span),
                    }
                }
                self.bind(&cname, Entity::Record { ty: base, leaves });
            } else {
                let (ty, _) = CType::split(base);
                let local = self.fresh(&cname);
                self.emit(k::StmtKind::Local(sp_id(&local, span), Some(k::Expr::num(0, span))), span);
                self.emit(k::StmtKind::Havoc(sp_id(&local, span)), span);
                if let crate::lower::values::Ty::Narrow { .. } = ty {
                    // A `char` or `short` argument holds a value of its type.
                    let v = crate::lower::values::Val { e: k::Expr::var(&local, span), ty: crate::lower::values::Ty::Int };
                    let narrowed = self.convert(v, ty, span);
                    self.emit(k::StmtKind::Assign(sp_id(&local, span), narrowed), span);
                }
                self.bind(&cname, Entity::Local { kpl: local, ty });
            }
            args.push(Expr::new(ExprKind::Ident(k::Ident::new(&cname, span)), span));
        }
        self.axioms(axioms, &mut decls);
        self.inline_call(f, &args, f.name.span);
        self.scopes.pop();
        self.frames.pop();
        let body = self.blocks.pop().unwrap_or_default();
        let main_stmts = self.with_kernel_locals(body);
        decls.append(&mut self.decls);
        let name = self.fresh(&f.name.name);
        let body_span = f.body.as_ref().map(|b| b.span).unwrap_or(f.span);
        k::Kernel { name: sp_id(&name, f.name.span), decls, procs: Vec::new(), main: k::Block { stmts: main_stmts, span: body_span }, span: f.span }
    }
}
