//! Block-scope storage that C and CUDA give one object whatever the number of calls: a
//! `__shared__` (OpenCL `__local`) variable in any function is one per group, a `static` one
//! per grid, the same for every inlined call of that function (and every call of one
//! template instance; each instance is a function of its own).
//!
//! A function-scope `static` (CUDA: implicitly `__device__`; OpenCL 2.0: `static global`,
//! or `static local` as declared) lives in global memory, like a file-scope `__device__`
//! variable: it keeps its value from one launch to the next, so kpl takes its contents at a
//! launch as arbitrary, whatever its initialiser (sound for every launch, the first one
//! included). A `static const` with an initialiser never changes and stays a constant, and
//! so does a scalar `static` with a constant initialiser that its function never assigns
//! and whose address it never takes (its value is the initialiser in every launch).

use crate::lower::context::Lower;
use crate::syntax::ast::Decl;

impl<'u> Lower<'u> {
    /// Lowers `d` if it declares such storage (true), once per function and declarator:
    /// a later call of the same function binds the names to the same arrays.
    pub(crate) fn static_storage(&mut self, d: &Decl) -> bool {
        let has = |w: &str| d.specs.iter().any(|s| s.word == w);
        let space = self.space(&d.specs);
        let is_static = has("static");
        let shared = space == Some("shared");
        // `static const int N = 32;`: a constant, lowered as a local that is never written.
        // So is a scalar `static` with a constant initialiser that its function never
        // assigns and whose address it never takes: nothing can change it, in any launch.
        let function = self.frames.last().map(|f| f.name.clone()).unwrap_or_default();
        // Assigned, or handed to a call (a C++ reference parameter may write it).
        let assigned = self.funcs.get(&function).map(|f| {
            let mut names = crate::lower::ast_facts::assigned_names(f.body.as_ref());
            if let Some(b) = &f.body {
                b.stmts.iter().for_each(|s| {
                    s.walk_exprs(&mut |e| {
                        e.walk(&mut |x| {
                            if let crate::syntax::ast::ExprKind::Call(_, args) = &x.kind {
                                for a in args {
                                    if let crate::syntax::ast::ExprKind::Ident(n) = &a.kind {
                                        names.insert(n.name.clone());
                                    }
                                }
                            }
                        })
                    })
                });
            }
            names
        });
        let never_written = |x: &crate::syntax::ast::Declarator| {
            x.dims.is_empty()
                && x.ptrs == 0
                && !self.addressed.contains(&x.name.name)
                && assigned.as_ref().is_some_and(|a| !a.contains(&x.name.name))
                && x.init.as_ref().is_some_and(|i| matches!(i, crate::syntax::ast::Init::Expr(e) if self.const_eval(e).is_some()))
        };
        let constant = ((has("const") || has("constexpr")) && d.decls.iter().all(|x| x.init.is_some() && x.ptrs == 0))
            || (is_static && !shared && d.decls.iter().all(never_written));
        // `__local int *w`: a thread's own pointer into local memory (the space is the
        // pointee's), lowered with the other pointer variables.
        let pointers = d.decls.iter().all(|x| x.ptrs > 0);
        if !(shared && !pointers) && !(is_static && !constant) {
            return false;
        }
        for x in &d.decls {
            let key = (function.clone(), x.name.span.start);
            if let Some(e) = self.statics.get(&key).cloned() {
                self.bind(&x.name.name, e);
                continue;
            }
            let one = Decl { specs: d.specs.clone(), decls: vec![x.clone()], span: d.span };
            match space {
                Some("shared") => self.shared_decl(&one),
                Some("constant") => self.memory_decl(&one, true),
                _ => self.memory_decl(&one, false),
            }
            if let Some(e) = self.lookup(&x.name.name) {
                self.statics.insert(key, e);
            }
        }
        true
    }
}
