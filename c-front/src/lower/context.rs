//! The lowering's context: what a C name denotes (`Entity`), the frames of inlined calls,
//! and `Lower`, the state every concern module extends with its methods (`impl Lower` in
//! each), with the basic operations on it: names, scopes, emitting statements, errors.

use crate::lower::values::{AggVal, CType, Entity, Field, LONG_WORDS, Leaf, POINTER_SIZED, PtrDecl, Ty, Val};
use crate::options::FrontOptions;
use crate::sema::types::TypeTable;
use crate::syntax::ast::*;
use crate::text::tokens::Dialect;
use kpl_lang::ast::{self as k, Ident};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

pub(crate) struct LoopCtx {
    /// What `continue` must do first (a `for` step, a `do` condition), as C.
    pub on_continue: Vec<ContinueAction>,
    /// A `switch` (its `break`s are its own; `continue` goes to the loop around it).
    pub switch: bool,
    /// A `switch`'s flag that a `break` has ended it (the rest of it is skipped).
    pub done: Option<String>,
    /// The labels in a loop's body: a `goto` to one of them does not leave the loop.
    pub labels: HashSet<String>,
}

#[derive(Clone)]
pub(crate) enum ContinueAction {
    Step(Expr),
    /// `do ... while (c)`: check c, leave the loop if false.
    Check(Expr),
}

/// What an inlined call gives.
pub(crate) enum Ret {
    Scalar(k::Expr, Ty),
    Agg(AggVal),
}

/// A function being lowered (the kernel, or an inlined `__device__` function).
pub(crate) struct Frame {
    pub name: String,
    /// Where the result goes (`None` for void and the kernel).
    pub result: Option<(String, Ty)>,
    /// Where a struct or vector result goes.
    pub agg_result: Option<(CType, Vec<Leaf>)>,
    /// The flag set by `return` (if the function has a return).
    pub returned: Option<String>,
    pub loops: Vec<LoopCtx>,
    pub ensures: Vec<Expr>,
    /// `__global_ensures`: checked once the function ends, by every thread (a `global
    /// assert`: threads that did not call it too).
    pub global_ensures: Vec<Expr>,
    /// The values of the postconditions' `__old_int(e)`/`__old_bool(e)` (by the call's
    /// span), taken where the postcondition was met: the function's entry.
    pub olds: Vec<(Span, Val)>,
    /// The postconditions of a GPUVerify specification function (`__spec_` names): assumed
    /// at its end, not checked.
    pub assumed: Vec<Expr>,
    /// GPUVerify's `__function_wide_invariant`s (and `_candidate_` ones, flagged): invariants
    /// of every loop of the function, and the spans of every one that ends the body
    /// (accepted or refused).
    pub function_wide: Vec<(Expr, bool)>,
    pub function_wide_spans: Vec<Span>,
    /// A function returning a pointer: the caller's pointer variable its `return`s assign.
    pub ptr_result: Option<Ident>,
    /// Each label a `goto` jumps to, and the flag its `goto`s set (`gotos.rs`).
    pub gotos: HashMap<String, String>,
    /// A call that uses only the function's contract (`contract_calls.rs`): its
    /// postconditions are assumed at its end, not checked.
    pub contract: bool,
}

impl Frame {
    /// The frame of function `name` entered, with its `return` flag: no result, loops,
    /// contracts or jumps yet.
    pub(crate) fn new(name: String, returned: Option<String>) -> Frame {
        Frame {
            name,
            result: None,
            agg_result: None,
            returned,
            loops: Vec::new(),
            ensures: Vec::new(),
            global_ensures: Vec::new(),
            olds: Vec::new(),
            assumed: Vec::new(),
            function_wide: Vec::new(),
            function_wide_spans: Vec::new(),
            ptr_result: None,
            gotos: HashMap::new(),
            contract: false,
        }
    }
}

pub(crate) struct Lower<'u> {
    pub o: &'u FrontOptions,
    pub funcs: HashMap<String, &'u Func>,
    /// Functions with several definitions of one arity (C++ overloads), the first first;
    /// `funcs` holds the first (`overload_calls.rs` chooses at each call).
    pub overloads: HashMap<String, Vec<&'u Func>>,
    /// Whether the file defines operator functions (`operators.rs`; kept so that files
    /// without them skip that question for every expression).
    pub operator_functions: bool,
    pub scopes: Vec<HashMap<String, Entity>>,
    pub used: HashSet<String>,
    pub blocks: Vec<Vec<k::Stmt>>,
    pub decls: Vec<k::Decl>,
    /// The arrays of the kernel's pointer parameters, which the host may pass as `NULL`.
    pub param_arrays: HashSet<String>,
    /// For each such array a comparison with `NULL` asked about: the parameter that says it
    /// is null (`null_pointers.rs`).
    pub null_flags: HashMap<String, String>,
    pub frames: Vec<Frame>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    pub temps: usize,
    /// Invariants written just before a loop, waiting for it (with whether each is a
    /// candidate).
    pub pending_invariants: Vec<(Expr, bool, Span)>,
    /// GPUVerify's barrier invariants, waiting for the next barrier (`__syncthreads()`,
    /// `barrier(...)`).
    pub pending_barrier_invariants: Vec<k::BarrierInvariant>,
    /// The `__requires` statements of a kernel taken as its preconditions although they do
    /// not lead its body (`nested_requires`): skipped where they stand.
    pub hoisted_requires: HashSet<Span>,
    /// The offset locals of pointer variables (`pointers.rs`): assignable, unlike an
    /// array parameter's offset.
    pub pointers: HashSet<String>,
    /// Lowering an assertion, pre/postcondition checked as one, or an invariant: GPUVerify's
    /// two-thread annotations may appear.
    pub two_thread_ok: bool,
    /// A 64-bit integer type has been met: its arithmetic binds temps, so expressions
    /// without calls may emit statements too (`emits_statements`).
    pub has_long: bool,
    /// Lowering a loop invariant (where `__dominator_enabled()` has a meaning).
    pub in_loop_invariant: bool,
    /// The file's structs, and their layouts once computed (`ctypes.rs`).
    pub types: &'u TypeTable,
    pub layouts: HashMap<usize, Rc<Vec<Field>>>,
    pub laying_out: Vec<usize>,
    /// The structs found to contain themselves (C's rule: only through a pointer) or to
    /// pass 2^32 words: reported once, laid out with no fields so nothing recurses through
    /// them.
    pub invalid_structs: HashSet<usize>,
    /// The element layout of each array of structs or vectors, for reports.
    pub array_layouts: kpl_lang::layout::Layouts,
    /// The kernel's named C parameters with the value the host code's launch fixes (`None`:
    /// free), where the lowering took a launch's arguments (`FrontOptions::launch_args`).
    pub launch_params: Vec<(String, Option<i64>)>,
    /// The bytes of C each word of an array holds, for arrays whose words all hold the
    /// same number (`casts.rs`): what a pointer cast may view them as.
    pub word_bytes: HashMap<String, u32>,
    /// The bytes of C each element of a scalar array field holds, by the offset local of a
    /// pointer `&s.f` to it (`private.rs`): its layout for `memcpy`.
    pub field_widths: HashMap<String, u32>,
    /// The KPL arrays that are CUDA `__constant__` memory: a write to one is a defect
    /// (`Layouts::constant_writes`).
    pub constant_arrays: std::collections::BTreeSet<String>,
    /// The images the kernel reads and those it writes, with a call of each (`image_access.rs`:
    /// an image may not be both).
    pub images_read: HashMap<String, Span>,
    pub images_written: HashMap<String, Span>,
    /// Scalar locals initialised with a constant, by KPL name (`memcpy.rs` takes one as a
    /// length when nothing assigns it).
    pub constant_locals: HashMap<String, u64>,
    /// Locals declared `const` with a constant initialiser (`const int N = 256;`): their
    /// values, which constant expressions (array sizes, `case` labels) may name.
    pub const_locals: HashMap<String, i64>,
    /// The private region of each struct or vector variable whose address is taken, by its
    /// private array's KPL name (`private.rs`).
    pub private_regions: HashMap<String, Entity>,
    /// Declarators of locals that may be read before they are assigned (`uninit.rs`):
    /// they start with an arbitrary value.
    pub indeterminate: &'u HashSet<Span>,
    /// Names of locals whose address is taken somewhere (`private.rs`).
    pub addressed: HashSet<String>,
    /// Struct variables an array field of which is indexed by a variable (`private.rs`).
    pub field_indexed: HashSet<String>,
    /// The size of each `sizeof e` of an expression that can be typed (`sizeof_expr.rs`).
    pub sizeofs: HashMap<Span, u64>,
    /// The file's non-kernel functions in order: function-pointer values (`fnptr.rs`).
    pub fn_order: Vec<String>,
    /// The targets of each pointer variable, by declaration, as far as known: from the
    /// previous pass, and recorded in this one (`multiptr.rs`).
    pub ptr_sets: HashMap<PtrDecl, Vec<Option<Entity>>>,
    /// A pointer was found to have a target this pass did not lower it with.
    pub ptr_changed: bool,
    /// Some pointer may have several targets: statements are searched for them.
    pub has_multi: bool,
    /// The one array of CUDA's dynamic shared memory (`extern __shared__`), with the bytes
    /// per word of its element type (`None`: a struct or vector).
    pub extern_shared: Option<(String, CType, Option<u32>)>,
    /// Some struct variable has a pointer field, or some `T **` parameter is a pointer
    /// variable's address (`pointer_fields.rs`): statements are searched for paths to them.
    pub rewrites_pointer_paths: bool,
    /// The declaration of each pointer variable, by its offset local.
    pub ptr_decl_of: HashMap<String, PtrDecl>,
    /// The pointer variable the next inlined call's `return`s assign (`multiptr.rs`).
    pub ptr_result: Option<Ident>,
    /// OpenCL async copies in flight, and the param that rotates their copiers
    /// (`async_copy.rs`).
    pub copies: Vec<Copy>,
    pub copy_param: Option<String>,
    /// Locals of the kernel declared at the start of `main` (an async copy's state).
    pub kernel_locals: Vec<String>,
    /// The KPL arrays that hold private memory (`private.rs`): a thread's accesses to its
    /// own region race with nothing (`contract_calls.rs` reads them as no shared effect).
    pub private_arrays: HashSet<String>,
    /// The arrays this pass keeps one byte per word (`bytes.rs`), with their C bytes per
    /// word; those whose declaration did so; and those a cast of this pass asked for.
    pub byte_level: HashMap<String, u32>,
    pub bytes_declared: HashSet<String>,
    pub wants_bytes: HashMap<String, u32>,
    /// The one-word global arrays that hold file-scope pointer variables (`memory_decl`).
    pub pointer_storage: HashSet<String>,
    /// Block-scope storage with one object whatever the number of calls (`statics.rs`):
    /// what each declarator of a function (by function and position) denotes.
    pub statics: HashMap<(String, usize), Entity>,
    /// Host variables device code names (`Unit::host_variables`).
    pub host_variables: Vec<String>,
}

impl<'u> Lower<'u> {
    pub fn err(&mut self, msg: impl Into<String>, span: Span) {
        self.errors.push(Diagnostic::error(msg, span));
    }

    pub fn unsupported(&mut self, what: &str, span: Span) {
        self.errors.push(
            Diagnostic::error(format!("not supported: {what}"), span)
                .with_help("kpl accepts the tier-1 subset of CUDA.md; the manual says what is in it (docs/src/cuda-opencl.md)"),
        );
    }

    /// A fresh KPL name based on a C name (or a path such as `s.p[2]`, whose punctuation
    /// becomes `_`).
    pub fn fresh(&mut self, base: &str) -> String {
        let base: String = base.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
        let base = if RESERVED.contains(&base.as_str()) { format!("{base}_") } else { base };
        if self.used.insert(base.clone()) {
            return base;
        }
        for n in 1.. {
            let cand = format!("{base}_{n}");
            if self.used.insert(cand.clone()) {
                return cand;
            }
        }
        unreachable!("an unbounded loop always finds a name")
    }

    pub fn temp(&mut self) -> String {
        self.temps += 1;
        let n = self.temps;
        self.fresh(&format!("_t{n}"))
    }

    pub fn lookup(&self, name: &str) -> Option<Entity> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    /// Replace what a name denotes in the scope that declares it.
    pub fn rebind(&mut self, name: &str, e: Entity) {
        if let Some(s) = self.scopes.iter_mut().rev().find(|s| s.contains_key(name)) {
            s.insert(name.to_string(), e);
        }
    }

    pub fn bind(&mut self, name: &str, e: Entity) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), e);
        }
    }

    pub fn emit(&mut self, kind: k::StmtKind, span: Span) {
        if let Some(b) = self.blocks.last_mut() {
            b.push(k::Stmt { kind, span });
        }
    }

    /// Lower statements into a new block and give it back.
    pub fn sub_block(&mut self, f: impl FnOnce(&mut Self), span: Span) -> k::Block {
        self.blocks.push(Vec::new());
        self.scopes.push(HashMap::new());
        f(self);
        self.scopes.pop();
        k::Block { stmts: self.blocks.pop().unwrap_or_default(), span }
    }

    pub fn frame(&mut self) -> &mut Frame {
        let n = self.frames.len();
        &mut self.frames[n - 1]
    }

    // ---- types ----

    pub fn base_type(&mut self, specs: &[Spec]) -> Ty {
        let has = |w: &str| specs.iter().any(|s| s.word == w);
        if has("void") {
            return Ty::Void;
        }
        // CUDA's 16-bit floats are opaque (their conversions and arithmetic give any value,
        // `expr_calls.rs`): kept as their 16 bits, so that an array of them is laid out as C
        // lays it out (two bytes an element) when it is seen through a pointer cast.
        if has("half") || has("__half") || has("__nv_bfloat16") || has("nv_bfloat16") {
            return Ty::Narrow { bits: 16, signed: false };
        }
        if has("float") || has("double") {
            return Ty::Float;
        }
        if has(crate::sema::typedecls::FNPTR) {
            return Ty::UInt;
        }
        if has("bool") || has("_Bool") {
            return Ty::Bool;
        }
        // 64-bit integers are two words (`CType::Long`, `long.rs`); where a one-word type is
        // needed they are refused rather than truncated.
        let wide = self.o.pointer_bits == 64;
        let pointer_sized = |w: &str| wide && POINTER_SIZED.iter().any(|(p, _)| *p == w);
        if let Some(s) = specs.iter().find(|s| LONG_WORDS.contains(&s.word.as_str()) || pointer_sized(&s.word)) {
            let span = s.span;
            self.unsupported(&format!("`{}` (a 64-bit integer) here: kpl takes them in variables, fields, memory, parameters, results and arithmetic, not as vector elements or through function pointers", s.word), span);
        }
        let unsigned = has("unsigned") || has("uchar") || has("ushort");
        if has("char") || has("uchar") || has("int8_t") || has("uint8_t") {
            return Ty::Narrow { bits: 8, signed: !unsigned && !has("uint8_t") };
        }
        if has("short") || has("ushort") || has("int16_t") || has("uint16_t") {
            return Ty::Narrow { bits: 16, signed: !unsigned && !has("uint16_t") };
        }
        if has("unsigned") || has("size_t") || has("uint") || has("ulong") || has("uint32_t") {
            return Ty::UInt;
        }
        Ty::Int
    }

    pub(crate) fn space(&self, specs: &[Spec]) -> Option<&'static str> {
        let d = self.o.dialect;
        for s in specs {
            match (d, s.word.as_str()) {
                (Dialect::Cuda, "__shared__") | (Dialect::OpenCl, "__local" | "local") => return Some("shared"),
                (Dialect::Cuda, "__constant__") | (Dialect::OpenCl, "__constant" | "constant") => return Some("constant"),
                (Dialect::Cuda, "__device__") => return Some("device"),
                _ => {}
            }
        }
        None
    }

    pub(crate) fn is_kernel(&self, f: &Func) -> bool {
        is_kernel(f, self.o.dialect)
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

/// KPL keywords and built-in names a C name must not become.
const RESERVED: &[&str] = &[
    "kernel", "groups", "threads", "shared", "global", "param", "requires", "proc", "main", "local", "if", "else",
    "while", "invariant", "candidate", "barrier", "break", "continue", "return", "assert", "assume", "havoc", "true", "false", "lid", "gid", "warp",
];

/// One end of a copy: its array, offset local, the array's words per element, and each C
/// word of an element as (its first word in the element, its bytes when the array is kept
/// at bytes, `bytes.rs`: there a word of `n` bytes takes `n` elements).
#[derive(Clone)]
pub(crate) struct End {
    pub(crate) array: String,
    pub(crate) offset: Option<String>,
    pub(crate) stride: u64,
    pub(crate) words: Vec<(u64, Option<u32>)>,
}

/// A copy of the kernel: what it copies, and its kernel-level locals (declared at the
/// start of `main`, so a barrier anywhere after the call sees them): the offsets of its
/// destination and source, its event, and whether it is still in flight.
#[derive(Clone)]
pub(crate) struct Copy {
    pub(crate) dst: End,
    pub(crate) src: End,
    pub(crate) n: u64,
    pub(crate) event: String,
    pub(crate) pending: String,
}

/// Is `f` a kernel of dialect `d`: `__global__` in CUDA, `__kernel` in OpenCL?
pub(crate) fn is_kernel(f: &Func, d: Dialect) -> bool {
    f.specs.iter().any(|s| match d {
        Dialect::Cuda => s.word == "__global__",
        Dialect::OpenCl => s.word == "__kernel" || s.word == "kernel",
    })
}
