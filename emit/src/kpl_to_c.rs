//! KPL core form ─► OpenCL C or CUDA C. Every value is a 32-bit unsigned word; every
//! operator is spelled so that it means what KPL says for all operands.

use kpl_lang::ast::*;
use kpl_lang::Launch;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    OpenCl,
    Cuda,
}

/// One argument of the emitted kernel, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A KPL param (a word).
    Param(String),
    /// A global array (`__global uint*`).
    Global(String),
    /// A shared array's initial contents for every group, then its final contents
    /// (`n` words per group), both global buffers.
    SharedInit { array: String, n: u32 },
    SharedFinal { array: String, n: u32 },
    /// An unsized shared array: local memory of `n` words per group (OpenCL only).
    Local { array: String, n: u32 },
}

pub struct Emitted {
    /// The kernel's source (with its helpers).
    pub source: String,
    /// The kernel function's name.
    pub name: String,
    pub args: Vec<Arg>,
}

const PRELUDE: &str = r#"/* KPL's meaning of each operation on 32-bit words (the SMT-LIB bit-vector rules). */
KPL_FN uint kpl_udiv(uint a, uint b) { return b ? a / b : 0xFFFFFFFFu; }
KPL_FN uint kpl_urem(uint a, uint b) { return b ? a % b : a; }
KPL_FN uint kpl_shl(uint a, uint b) { return b < 32u ? a << b : 0u; }
KPL_FN uint kpl_lshr(uint a, uint b) { return b < 32u ? a >> b : 0u; }
KPL_FN uint kpl_ashr(uint a, uint b) { return (uint)((int)a >> (b < 32u ? b : 31u)); }
KPL_FN uint kpl_sdiv(uint a, uint b) {
  int x = (int)a, y = (int)b;
  if (y == 0) return x < 0 ? 1u : 0xFFFFFFFFu;
  if (a == 0x80000000u && b == 0xFFFFFFFFu) return a;
  return (uint)(x / y);
}
KPL_FN uint kpl_srem(uint a, uint b) {
  int x = (int)a, y = (int)b;
  if (y == 0) return a;
  if (b == 0xFFFFFFFFu) return 0u;
  return (uint)(x % y);
}
KPL_FN uint kpl_b(int c) { return c ? 1u : 0u; }
KPL_FN float kpl_f(uint a) { return KPL_AS_FLOAT(a); }
KPL_FN uint kpl_w(float f) { return KPL_AS_UINT(f); }
KPL_FN uint kpl_fw(float f) { return f != f ? 0x7FFFFFFFu : KPL_AS_UINT(f); }
/* An atomic read-modify-write by compare-and-swap: NEW is an expression of the old value O;
   gives the old value. (Any address space: a macro, not a function.) */
#define kpl_atomic_cas_loop(P, O, NEW, CAS) \
  ({ uint O = *(P), kpl_seen; do { kpl_seen = O; O = CAS((P), kpl_seen, (NEW)); } while (O != kpl_seen); O; })
KPL_FN uint kpl_ftoi(uint a) {
  float f = kpl_f(a);
  if (f != f) return 0u;
  if (f >= 2147483648.0f) return 0x7FFFFFFFu;
  if (f <= -2147483648.0f) return 0x80000000u;
  return (uint)(int)f;
}
KPL_FN uint kpl_ftou(uint a) {
  float f = kpl_f(a);
  if (f != f || f <= 0.0f) return 0u;
  if (f >= 4294967296.0f) return 0xFFFFFFFFu;
  return (uint)f;
}
KPL_FN uint kpl_fmin(uint a, uint b) { float x = kpl_f(a), y = kpl_f(b); return kpl_fw(x != x ? y : y != y ? x : (x < y ? x : y)); }
KPL_FN uint kpl_fmax(uint a, uint b) { float x = kpl_f(a), y = kpl_f(b); return kpl_fw(x != x ? y : y != y ? x : (x > y ? x : y)); }
"#;

/// Free text as it may stand inside a C comment `/* ... */`: on one line, with nothing that
/// ends the comment (`*/`) or continues a line (a trailing `\\`), so no text gives the C
/// compiler code.
pub fn c_comment(s: &str) -> String {
    let one_line: String = s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    one_line.replace("*/", "* /").replace('\\', "\\ ")
}

fn target_prelude(t: Target) -> &'static str {
    match t {
        Target::OpenCl => "#pragma OPENCL FP_CONTRACT OFF\n#define KPL_FN static inline\n#define KPL_AS_FLOAT(a) as_float(a)\n#define KPL_AS_UINT(f) as_uint(f)\n",
        Target::Cuda => {
            "typedef unsigned int uint;\n#define KPL_FN __device__ static inline\n#define KPL_AS_FLOAT(a) __uint_as_float(a)\n#define KPL_AS_UINT(f) __float_as_uint(f)\n"
        }
    }
}

/// KPL's warp reductions in CUDA (`__reduce_*_sync` needs sm_80, and takes no lanes
/// past the block): a shuffle from each lane of the mask that exists, folded in lane order
/// from the reduction's identity.
const CUDA_REDUCTIONS: &str = "#define KPL_REDUCE(name, id, step) __device__ static inline uint kpl_reduce_##name(uint m, uint v) { \\
  uint n = blockDim.x * blockDim.y * blockDim.z; \\
  uint base = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & ~31u; \\
  uint r = (id); \\
  for (uint j = 0u; j < 32u; j++) { \\
    if (((m >> j) & 1u) && base + j < n) { uint b = __shfl_sync(m, v, (int)j); step; } \\
  } \\
  return r; \\
}
KPL_REDUCE(add, 0u, r = r + b)
KPL_REDUCE(min, 0xffffffffu, r = b < r ? b : r)
KPL_REDUCE(max, 0u, r = b > r ? b : r)
KPL_REDUCE(smin, 0x7fffffffu, r = (int)b < (int)r ? b : r)
KPL_REDUCE(smax, 0x80000000u, r = (int)b > (int)r ? b : r)
KPL_REDUCE(and, 0xffffffffu, r = r & b)
KPL_REDUCE(or, 0u, r = r | b)
KPL_REDUCE(xor, 0u, r = r ^ b)
";

/// `__match_all_sync` as a value (its predicate is the value's being nonzero).
const CUDA_MATCH_ALL: &str = "__device__ static inline uint kpl_match_all(uint m, uint v) { int p; return (uint)__match_all_sync(m, v, &p); }
";

/// libcu++'s name of a scope.
fn cuda_scope(f: FenceScope) -> &'static str {
    match f {
        FenceScope::Group => "cuda::thread_scope_block",
        FenceScope::Device => "cuda::thread_scope_device",
        FenceScope::System => "cuda::thread_scope_system",
    }
}

/// CUDA's atomics and fences are libcu++'s (`CUDA_CAS` after the prelude's `uint`): its
/// compare-and-swap gives the old value.
const CUDA_ATOMICS_INCLUDE: &str = "#include <cuda/atomic>\n";
const CUDA_CAS: &str = "template <cuda::thread_scope S> __device__ static inline uint kpl_cas(uint *p, uint c, uint v) {
  cuda::atomic_ref<uint, S>(*p).compare_exchange_strong(c, v, cuda::memory_order_relaxed);
  return c;
}
";

/// OpenCL's `group` atomics, `kpl_group_OP(SPACE, P, V)` and `kpl_group_cas_SPACE(P, C, V)`
/// (old values): OpenCL 2.0's at work-group scope, relaxed; OpenCL 1.2 has device atomics
/// only, which are atomic for more work-items than a group's, so they give the same values.
/// (A `system` atomic is a device one: while the kernel runs, nothing but the device
/// touches the harness's buffers.)
fn opencl_group_atomics() -> String {
    let ops = [("fetch_add", "atomic_add"), ("fetch_sub", "atomic_sub"), ("exchange", "atomic_xchg"), ("fetch_min", "atomic_min"), ("fetch_max", "atomic_max"), ("fetch_and", "atomic_and"), ("fetch_or", "atomic_or"), ("fetch_xor", "atomic_xor")];
    let mut s = String::from("#if __OPENCL_C_VERSION__ >= 200\n#define KPL_GROUP(AS, P) ((volatile AS atomic_uint *)(P))\n");
    for (m, _) in ops {
        let _ = writeln!(s, "#define kpl_group_{m}(AS, P, V) atomic_{m}_explicit(KPL_GROUP(AS, P), (V), memory_order_relaxed, memory_scope_work_group)");
    }
    s.push_str("#define kpl_group_cas(AS, P, C, V) \\\n  ({ uint kpl_e = (C); atomic_compare_exchange_strong_explicit(KPL_GROUP(AS, P), &kpl_e, (V), memory_order_relaxed, memory_order_relaxed, memory_scope_work_group); kpl_e; })\n#else\n");
    for (m, f) in ops {
        let _ = writeln!(s, "#define kpl_group_{m}(AS, P, V) {f}((P), (V))");
    }
    s.push_str("#define kpl_group_cas(AS, P, C, V) atomic_cmpxchg((P), (C), (V))\n#endif\n");
    s.push_str("#define kpl_group_cas_global(P, C, V) kpl_group_cas(__global, P, C, V)\n#define kpl_group_cas_local(P, C, V) kpl_group_cas(__local, P, C, V)\n");
    s
}

struct Em<'k> {
    t: Target,
    k: &'k Kernel,
    out: String,
    /// Every array with its C parameter list entry (for procs).
    arrays: Vec<(String, bool, Option<u32>)>,
    params: Vec<String>,
}

/// Emit a kernel (its core form). `local_sizes` gives the size of each unsized shared
/// array (words per group), needed to initialise and read it back.
pub fn emit(core: &Kernel, launch: Launch, t: Target, local_sizes: &dyn Fn(&str) -> u32) -> Result<Emitted, String> {
    let mut arrays = Vec::new();
    let mut params = Vec::new();
    for d in &core.decls {
        match &d.kind {
            DeclKind::Shared { name, size } => arrays.push((name.name.clone(), true, size.map(|s| s.0 as u32))),
            DeclKind::Global { name, size } => arrays.push((name.name.clone(), false, size.map(|s| s.0 as u32))),
            DeclKind::Param(x) => params.push(x.name.clone()),
            _ => {}
        }
    }
    if kernel_has(core, &|k| matches!(k, StmtKind::Havoc(_))) {
        return Err("the kernel has arbitrary values (`havoc`: indeterminate C values, calls of functions without a body), which a device run cannot reproduce".into());
    }
    if kernel_has(core, &|k| matches!(k, StmtKind::Touch { .. })) {
        return Err("the kernel has unknown accesses (`havoc reads`/`havoc writes`: a specification function's), which a device cannot run".into());
    }
    if kernel_has(core, &|k| matches!(k, StmtKind::Snapshot { .. })) {
        return Err("the kernel has ghost arrays (`snapshot`), which have no device counterpart".into());
    }
    // Its two words are 4-aligned in the emitted `uint` arrays, and a device's 64-bit
    // atomics need 8.
    if kernel_has(core, &|k| matches!(k, StmtKind::Atomic(a) if a.shape().bytes)) {
        return Err("the kernel has byte atomics (`add_bytes` ...: one atomic on several one-byte elements), which the emitted arrays of one word per element cannot run atomically".into());
    }
    if kernel_has(core, &|k| matches!(k, StmtKind::Atomic(a) if a.wide())) {
        return Err("the kernel has 64-bit atomics, which kpl does not emit yet".into());
    }
    // CUDA's needs a cooperative launch (`cudaLaunchCooperativeKernel`) the harness does not
    // make; OpenCL has none.
    if kernel_has(core, &|k| matches!(k, StmtKind::Barrier(f) if f.grid)) {
        return Err("the kernel has a grid barrier (`barrier grid;`), which kpl does not emit yet".into());
    }
    if t == Target::OpenCl && kernel_has(core, &|k| matches!(k, StmtKind::Warp(_))) {
        return Err("the kernel has warp collectives (shuffles, votes), which OpenCL 1.2 does not have".into());
    }
    if t == Target::Cuda && arrays.iter().any(|(_, sh, sz)| *sh && sz.is_none()) {
        return Err("CUDA code needs every shared array's size (`shared A[*]` is OpenCL's `__local` pointer)".into());
    }
    let mut e = Em { t, k: core, out: String::new(), arrays, params };
    if t == Target::Cuda && kernel_has(core, &|k| matches!(k, StmtKind::Atomic(_) | StmtKind::MemFence(..))) {
        e.out.push_str(CUDA_ATOMICS_INCLUDE);
    }
    e.out.push_str(target_prelude(t));
    if t == Target::Cuda && kernel_has(core, &|k| matches!(k, StmtKind::Atomic(_))) {
        e.out.push_str(CUDA_CAS);
    }
    if t == Target::OpenCl && kernel_has(core, &|k| matches!(k, StmtKind::Atomic(a) if a.scope == FenceScope::Group)) {
        e.out.push_str(&opencl_group_atomics());
    }
    if kernel_has(core, &|k| matches!(k, StmtKind::Warp(w) if w.operation().reduction().is_some())) {
        e.out.push_str(CUDA_REDUCTIONS);
    }
    if kernel_has(core, &|k| matches!(k, StmtKind::Warp(w) if w.operation() == WarpOp::MatchAll)) {
        e.out.push_str(CUDA_MATCH_ALL);
    }
    e.out.push_str(PRELUDE);
    e.out.push('\n');
    for p in &core.procs {
        e.proc(p);
    }
    let (name, args) = e.kernel(launch, local_sizes);
    Ok(Emitted { source: e.out, name, args })
}

/// Does a statement list (at any depth) contain a statement `f` picks?
fn has_stmt(stmts: &[Stmt], f: &dyn Fn(&StmtKind) -> bool) -> bool {
    stmts.iter().any(|s| {
        f(&s.kind)
            || match &s.kind {
                StmtKind::If(_, t, e) => {
                    has_stmt(&t.stmts, f)
                        || match e.as_deref() {
                            Some(Else::Block(b)) => has_stmt(&b.stmts, f),
                            Some(Else::If(s)) => has_stmt(std::slice::from_ref(s), f),
                            None => false,
                        }
                }
                StmtKind::While { body, .. } => has_stmt(&body.stmts, f),
                _ => false,
            }
    })
}

/// Does the kernel (its procedures too) contain a statement `f` picks?
fn kernel_has(core: &Kernel, f: &dyn Fn(&StmtKind) -> bool) -> bool {
    has_stmt(&core.main.stmts, f) || core.procs.iter().any(|p| has_stmt(&p.body.stmts, f))
}

impl Em<'_> {
    /// The C parameters every proc takes for the kernel's arrays.
    fn array_params(&self) -> String {
        self.arrays
            .iter()
            .map(|(n, shared, _)| match (self.t, shared) {
                (Target::OpenCl, true) => format!("__local uint *a_{n}"),
                (Target::OpenCl, false) => format!("__global uint *a_{n}"),
                (Target::Cuda, _) => format!("uint *a_{n}"),
            })
            .chain(self.params.iter().map(|p| format!("uint v_{p}")))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn array_args(&self) -> String {
        self.arrays.iter().map(|(n, _, _)| format!("a_{n}")).chain(self.params.iter().map(|p| format!("v_{p}"))).collect::<Vec<_>>().join(", ")
    }

    fn proc(&mut self, p: &Proc) {
        let kw = if self.t == Target::Cuda { "__device__ static" } else { "static" };
        let mut ps: Vec<String> = p.params.iter().map(|x| format!("uint v_{}", x.name)).collect();
        let ap = self.array_params();
        if !ap.is_empty() {
            ps.push(ap);
        }
        let _ = writeln!(self.out, "{kw} void p_{}({}) {{", p.name.name, ps.join(", "));
        self.block(&p.body, 1);
        self.out.push_str("}\n\n");
    }

    fn kernel(&mut self, launch: Launch, local_sizes: &dyn Fn(&str) -> u32) -> (String, Vec<Arg>) {
        let name = format!("kpl_{}", self.k.name.name);
        // The caller refuses groups of more than 2^32 threads.
        let tpg = u32::try_from(launch.threads_per_group()).unwrap_or(u32::MAX);
        let mut args = Vec::new();
        let mut sig = Vec::new();
        let g = if self.t == Target::OpenCl { "__global " } else { "" };
        for p in &self.params {
            args.push(Arg::Param(p.clone()));
            sig.push(format!("uint v_{p}"));
        }
        let mut body = String::new();
        let mut init = String::new();
        let mut fin = String::new();
        let (lin, gl) = match self.t {
            Target::OpenCl => (
                "(uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)))",
                "(uint)(get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)))",
            ),
            Target::Cuda => (
                "(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))",
                "(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z))",
            ),
        };
        for (n, shared, size) in self.arrays.clone() {
            if !shared {
                args.push(Arg::Global(n.clone()));
                sig.push(format!("{g}uint *a_{n}"));
                continue;
            }
            let words = size.unwrap_or_else(|| local_sizes(&n)).max(1);
            match (self.t, size) {
                (Target::OpenCl, None) => {
                    args.push(Arg::Local { array: n.clone(), n: words });
                    sig.push(format!("__local uint *a_{n}"));
                }
                (Target::OpenCl, Some(s)) => {
                    let _ = writeln!(body, "  __local uint a_{n}[{s}];");
                }
                (Target::Cuda, _) => {
                    let _ = writeln!(body, "  __shared__ uint a_{n}[{words}];");
                }
            }
            args.push(Arg::SharedInit { array: n.clone(), n: words });
            args.push(Arg::SharedFinal { array: n.clone(), n: words });
            sig.push(format!("{g}uint *init_{n}"));
            sig.push(format!("{g}uint *final_{n}"));
            let _ = writeln!(init, "  for (uint i = kpl_lin; i < {words}u; i += {tpg}u) a_{n}[i] = init_{n}[kpl_grp * {words}u + i];");
            let _ = writeln!(fin, "  for (uint i = kpl_lin; i < {words}u; i += {tpg}u) final_{n}[kpl_grp * {words}u + i] = a_{n}[i];");
        }
        let head = match self.t {
            Target::OpenCl => "__kernel void",
            Target::Cuda => "extern \"C\" __global__ void",
        };
        let _ = writeln!(self.out, "{head} {name}({}) {{", sig.join(", "));
        self.out.push_str(&body);
        if !init.is_empty() {
            let _ = writeln!(self.out, "  uint kpl_lin = {lin};\n  uint kpl_grp = {gl};");
            self.out.push_str("  /* Shared memory starts with the contents the interpreter gives it. */\n");
            self.out.push_str(&init);
            let _ = writeln!(self.out, "  {}", self.barrier());
        }
        self.block(&self.k.main.clone(), 1);
        if !fin.is_empty() {
            let _ = writeln!(self.out, "  {}", self.barrier());
            self.out.push_str(&fin);
        }
        self.out.push_str("}\n");
        (name, args)
    }

    fn barrier(&self) -> &'static str {
        match self.t {
            Target::OpenCl => "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);",
            Target::Cuda => "__syncthreads();",
        }
    }

    /// A KPL barrier: OpenCL names the memories its fence covers (`barrier(0)` orders
    /// none); CUDA's `__syncthreads()` orders both, which is stronger and so agrees with
    /// KPL on every race-free kernel.
    fn fenced_barrier(&self, f: &Fence) -> String {
        if self.t == Target::Cuda || f.as_constant() == Some((true, true)) {
            return self.barrier().to_string();
        }
        let flag = |e: &Expr, name: &str| match e.kind {
            ExprKind::Bool(b) => (if b { name } else { "0" }).to_string(),
            ExprKind::Num(n) => (if n != 0 { name } else { "0" }).to_string(),
            _ => format!("(({}) != 0u ? {name} : 0)", self.expr(e)),
        };
        format!("barrier({} | {});", flag(&f.shared, "CLK_LOCAL_MEM_FENCE"), flag(&f.global, "CLK_GLOBAL_MEM_FENCE"))
    }

    /// A memory fence: libcu++'s `cuda::atomic_thread_fence` of its scope and order (a full
    /// one is what `__threadfence*` is); OpenCL 1.2's `mem_fence`, which has no scope and
    /// orders the work-item's loads and stores (more than an acquire or release fence asks).
    fn fence(&self, f: FenceScope, o: FenceOrder) -> String {
        let order = match o {
            FenceOrder::Full => "seq_cst",
            FenceOrder::Acquire => "acquire",
            FenceOrder::Release => "release",
        };
        match self.t {
            Target::Cuda => format!("cuda::atomic_thread_fence(cuda::memory_order_{order}, {});", cuda_scope(f)),
            Target::OpenCl => "mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);".into(),
        }
    }

    /// An atomic as an expression giving the old value: the device's own atomic where it
    /// has KPL's meaning, else a compare-and-swap loop (`kpl_atomic_cas_loop`).
    /// A warp collective as CUDA's intrinsic (`emit` refuses them for OpenCL). A shuffle's
    /// width of 0 or past the warp is the whole warp, as in KPL.
    fn warp(&self, w: &Warp) -> String {
        let a: Vec<String> = w.args.iter().map(|e| self.expr(e)).collect();
        let width = |x: &str| format!("(int)(({x}) == 0u || ({x}) > 32u ? 32u : ({x}))");
        match w.operation() {
            WarpOp::Shfl => format!("__shfl_sync({}, {}, (int)({}), {})", a[0], a[1], a[2], width(&a[3])),
            WarpOp::ShflUp => format!("__shfl_up_sync({}, {}, {}, {})", a[0], a[1], a[2], width(&a[3])),
            WarpOp::ShflDown => format!("__shfl_down_sync({}, {}, {}, {})", a[0], a[1], a[2], width(&a[3])),
            WarpOp::ShflXor => format!("__shfl_xor_sync({}, {}, (int)({}), {})", a[0], a[1], a[2], width(&a[3])),
            WarpOp::Any => format!("(__any_sync({}, ({}) != 0u) ? 1u : 0u)", a[0], a[1]),
            WarpOp::All => format!("(__all_sync({}, ({}) != 0u) ? 1u : 0u)", a[0], a[1]),
            WarpOp::Ballot => format!("(uint)__ballot_sync({}, ({}) != 0u)", a[0], a[1]),
            WarpOp::Active => "(uint)__activemask()".into(),
            WarpOp::Sync => format!("(__syncwarp({}), 0u)", a[0]),
            WarpOp::MatchAny => format!("(uint)__match_any_sync({}, {})", a[0], a[1]),
            WarpOp::MatchAll => format!("kpl_match_all({}, {})", a[0], a[1]),
            op => format!("kpl_{}({}, {})", op.name(), a[0], a[1]),
        }
    }

    /// An atomic as an expression giving the old value: KPL's atomics are relaxed, at their
    /// scope. CUDA: libcu++'s `cuda::atomic_ref` of the scope. OpenCL: 1.2's device atomics,
    /// and for a `group` atomic the work-group scope of OpenCL 2.0's `atomic_*_explicit`
    /// where the compiler has it (`OPENCL_GROUP_ATOMICS`). What neither has is a
    /// compare-and-swap loop (`kpl_atomic_cas_loop`).
    fn atomic(&self, at: &Atomic) -> String {
        use AtomicOp::*;
        let elem = format!("a_{}[{}]", at.array.name, self.expr(&at.index));
        let args: Vec<String> = at.args.iter().map(|e| self.expr(e)).collect();
        let v = args.first().cloned().unwrap_or_else(|| "0u".into());
        let op = at.operation();
        // libcu++'s and OpenCL 2.0's name of the operation, and OpenCL 1.2's.
        let native = match op {
            Add => Some(("fetch_add", "atomic_add")),
            Sub => Some(("fetch_sub", "atomic_sub")),
            Xchg => Some(("exchange", "atomic_xchg")),
            Min => Some(("fetch_min", "atomic_min")),
            Max => Some(("fetch_max", "atomic_max")),
            And => Some(("fetch_and", "atomic_and")),
            Or => Some(("fetch_or", "atomic_or")),
            Xor => Some(("fetch_xor", "atomic_xor")),
            _ => None,
        };
        // OpenCL: the array's address space, for the work-group atomics' casts.
        let space = if self.arrays.iter().any(|(n, shared, _)| *shared && *n == at.array.name) { "__local" } else { "__global" };
        let group = self.t == Target::OpenCl && at.scope == FenceScope::Group;
        let cas = match self.t {
            Target::Cuda => format!("kpl_cas<{}>", cuda_scope(at.scope)),
            Target::OpenCl if group => format!("kpl_group_cas_{}", &space[2..]),
            Target::OpenCl => "atomic_cmpxchg".to_string(),
        };
        match (self.t, native) {
            (Target::Cuda, Some((m, _))) => return format!("cuda::atomic_ref<uint, {}>({elem}).{m}({v}, cuda::memory_order_relaxed)", cuda_scope(at.scope)),
            (Target::OpenCl, Some((m, _))) if group => return format!("kpl_group_{m}({space}, &{elem}, {v})"),
            (Target::OpenCl, Some((_, f))) => return format!("{f}(&{elem}, {v})"),
            _ => {}
        }
        if op == Cas {
            return format!("{cas}(&{elem}, {v}, {})", args.get(1).cloned().unwrap_or_else(|| "0u".into()));
        }
        // The new value from the old one, `o`.
        let new = match op {
            Smin => format!("((int)o < (int)({v}) ? o : ({v}))"),
            Smax => format!("((int)o > (int)({v}) ? o : ({v}))"),
            Inc => format!("(o >= ({v}) ? 0u : o + 1u)"),
            Fadd => format!("kpl_fw(kpl_f(o) + kpl_f({v}))"),
            _ => format!("((o == 0u || o > ({v})) ? ({v}) : o - 1u)"),
        };
        format!("kpl_atomic_cas_loop(&{elem}, o, {new}, {cas})")
    }

    fn block(&mut self, b: &Block, depth: usize) {
        for s in &b.stmts {
            self.stmt(s, depth);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        let pad = "  ".repeat(depth);
        match &s.kind {
            StmtKind::Local(x, None) => {
                let _ = writeln!(self.out, "{pad}uint v_{} = 0u;", x.name);
            }
            StmtKind::Local(x, Some(e)) => {
                let v = self.rhs(e);
                let _ = writeln!(self.out, "{pad}uint v_{} = {v};", x.name);
            }
            StmtKind::Assign(x, e) => {
                let v = self.rhs(e);
                let _ = writeln!(self.out, "{pad}v_{} = {v};", x.name);
            }
            StmtKind::Store(a, i, e) => {
                let (i, v) = (self.expr(i), self.expr(e));
                let _ = writeln!(self.out, "{pad}a_{}[{i}] = {v};", a.name);
            }
            // Refused by `emit` before any statement is written.
            StmtKind::Havoc(_) | StmtKind::Touch { .. } | StmtKind::Snapshot { .. } => {}
            StmtKind::Atomic(at) => {
                let call = self.atomic(at);
                let _ = match (&at.dest, at.declare) {
                    (Some(x), true) => writeln!(self.out, "{pad}uint v_{} = {call};", x.name),
                    (Some(x), false) => writeln!(self.out, "{pad}v_{} = {call};", x.name),
                    (None, _) => writeln!(self.out, "{pad}(void){call};"),
                };
            }
            StmtKind::Warp(w) => {
                let call = self.warp(w);
                let _ = match (&w.dest, w.declare) {
                    (Some(x), true) => writeln!(self.out, "{pad}uint v_{} = {call};", x.name),
                    (Some(x), false) => writeln!(self.out, "{pad}v_{} = {call};", x.name),
                    (None, _) => writeln!(self.out, "{pad}(void){call};"),
                };
            }
            StmtKind::If(c, t, e) => {
                let c = self.expr(c);
                let _ = writeln!(self.out, "{pad}if ({c} != 0u) {{");
                self.block(t, depth + 1);
                match e.as_deref() {
                    Some(Else::Block(b)) => {
                        let _ = writeln!(self.out, "{pad}}} else {{");
                        self.block(b, depth + 1);
                    }
                    Some(Else::If(s)) => {
                        let _ = writeln!(self.out, "{pad}}} else {{");
                        self.stmt(s, depth + 1);
                    }
                    None => {}
                }
                let _ = writeln!(self.out, "{pad}}}");
            }
            StmtKind::While { cond, body, .. } => {
                let c = self.expr(cond);
                let _ = writeln!(self.out, "{pad}while ({c} != 0u) {{");
                self.block(body, depth + 1);
                let _ = writeln!(self.out, "{pad}}}");
            }
            StmtKind::Call(f, args) => {
                let mut xs: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                let aa = self.array_args();
                if !aa.is_empty() {
                    xs.push(aa);
                }
                let _ = writeln!(self.out, "{pad}p_{}({});", f.name, xs.join(", "));
            }
            StmtKind::Barrier(f) => {
                let b = self.fenced_barrier(f);
                let _ = writeln!(self.out, "{pad}{b}");
            }
            StmtKind::MemFence(f, o) => {
                let f = self.fence(*f, *o);
                let _ = writeln!(self.out, "{pad}{f}");
            }
            StmtKind::Break => {
                let _ = writeln!(self.out, "{pad}break;");
            }
            StmtKind::Continue => {
                let _ = writeln!(self.out, "{pad}continue;");
            }
            StmtKind::Return => {
                let _ = writeln!(self.out, "{pad}return;");
            }
            StmtKind::Assert(e, _) | StmtKind::Assume(e) => {
                let what = match s.kind {
                    StmtKind::Assert(_, true) => "global assert",
                    StmtKind::Assert(..) => "assert",
                    _ => "assume",
                };
                let _ = writeln!(self.out, "{pad}/* {what} {} */", c_comment(&kpl_lang::printer::print_expr(e)));
            }
            StmtKind::Error => {}
        }
    }

    /// The right side of a basic statement: a read `A[i]` or an expression.
    fn rhs(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Index(a, i) => format!("a_{}[{}]", a.name, self.expr(i)),
            _ => self.expr(e),
        }
    }

    fn special(&self, s: Special, a: Axis) -> String {
        let d = a.index();
        let c = a.name();
        match (self.t, s) {
            (Target::OpenCl, Special::Lid) => format!("(uint)get_local_id({d})"),
            (Target::OpenCl, Special::Gid) => format!("(uint)get_group_id({d})"),
            (Target::OpenCl, Special::Threads) => format!("(uint)get_local_size({d})"),
            (Target::OpenCl, Special::Groups) => format!("(uint)get_num_groups({d})"),
            (Target::Cuda, Special::Lid) => format!("threadIdx.{c}"),
            (Target::Cuda, Special::Gid) => format!("blockIdx.{c}"),
            (Target::Cuda, Special::Threads) => format!("blockDim.{c}"),
            (Target::Cuda, Special::Groups) => format!("gridDim.{c}"),
        }
    }

    fn expr(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Num(n) => format!("{}u", *n as u32),
            ExprKind::Bool(b) => if *b { "1u" } else { "0u" }.into(),
            ExprKind::Var(x) => format!("v_{}", x.name),
            ExprKind::Special(s, a, _) => self.special(*s, *a),
            ExprKind::Unary(op, a) => {
                let a = self.expr(a);
                match op {
                    UnOp::Not => format!("kpl_b({a} == 0u)"),
                    UnOp::BitNot => format!("(~{a})"),
                    UnOp::Neg => format!("(0u - {a})"),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                use BinOp::*;
                match op {
                    LOr => format!("kpl_b({a} != 0u || {b} != 0u)"),
                    LAnd => format!("kpl_b({a} != 0u && {b} != 0u)"),
                    BitOr => format!("({a} | {b})"),
                    BitXor => format!("({a} ^ {b})"),
                    BitAnd => format!("({a} & {b})"),
                    Eq => format!("kpl_b({a} == {b})"),
                    Ne => format!("kpl_b({a} != {b})"),
                    Lt => format!("kpl_b({a} < {b})"),
                    Le => format!("kpl_b({a} <= {b})"),
                    Gt => format!("kpl_b({a} > {b})"),
                    Ge => format!("kpl_b({a} >= {b})"),
                    Shl => format!("kpl_shl({a}, {b})"),
                    Shr => format!("kpl_lshr({a}, {b})"),
                    Add => format!("({a} + {b})"),
                    Sub => format!("({a} - {b})"),
                    Mul => format!("({a} * {b})"),
                    Div => format!("kpl_udiv({a}, {b})"),
                    Rem => format!("kpl_urem({a}, {b})"),
                }
            }
            ExprKind::Cond(c, a, b) => format!("({} != 0u ? {} : {})", self.expr(c), self.expr(a), self.expr(b)),
            ExprKind::Call(f, args) => {
                let xs: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                let a = xs.first().cloned().unwrap_or_else(|| "0u".into());
                let b = xs.get(1).cloned().unwrap_or_else(|| "0u".into());
                use Builtin::*;
                match Builtin::from_name(&f.name) {
                    Some(Slt) => format!("kpl_b((int){a} < (int){b})"),
                    Some(Sle) => format!("kpl_b((int){a} <= (int){b})"),
                    Some(Sgt) => format!("kpl_b((int){a} > (int){b})"),
                    Some(Sge) => format!("kpl_b((int){a} >= (int){b})"),
                    Some(Sdiv) => format!("kpl_sdiv({a}, {b})"),
                    Some(Srem) => format!("kpl_srem({a}, {b})"),
                    Some(Ashr) => format!("kpl_ashr({a}, {b})"),
                    Some(Min) => format!("({a} < {b} ? {a} : {b})"),
                    Some(Max) => format!("({a} < {b} ? {b} : {a})"),
                    Some(Implies) => format!("kpl_b({a} == 0u || {b} != 0u)"),
                    Some(Fadd) => format!("kpl_fw(kpl_f({a}) + kpl_f({b}))"),
                    Some(Fsub) => format!("kpl_fw(kpl_f({a}) - kpl_f({b}))"),
                    Some(Fmul) => format!("kpl_fw(kpl_f({a}) * kpl_f({b}))"),
                    Some(Fdiv) => format!("kpl_fw(kpl_f({a}) / kpl_f({b}))"),
                    Some(Fneg) => format!("({a} ^ 0x80000000u)"),
                    Some(Fabs) => format!("({a} & 0x7FFFFFFFu)"),
                    Some(Flt) => format!("kpl_b(kpl_f({a}) < kpl_f({b}))"),
                    Some(Fle) => format!("kpl_b(kpl_f({a}) <= kpl_f({b}))"),
                    Some(Feq) => format!("kpl_b(kpl_f({a}) == kpl_f({b}))"),
                    Some(Fmin) => format!("kpl_fmin({a}, {b})"),
                    Some(Fmax) => format!("kpl_fmax({a}, {b})"),
                    Some(Fsqrt) => format!("kpl_fw(sqrt(kpl_f({a})))"),
                    Some(Itof) => format!("kpl_w((float)(int){a})"),
                    Some(Utof) => format!("kpl_w((float){a})"),
                    Some(Ftoi) => format!("kpl_ftoi({a})"),
                    Some(Ftou) => format!("kpl_ftou({a})"),
                    // Only in assertions and invariants, which are not emitted as code.
                    Some(Other) | Some(Enabled) | Some(Written) | Some(WasRead) | Some(WriteIndex) | Some(ReadIndex) | Some(Taken) | None => "0u".into(),
                }
            }
            // Reads are statements in the core form; errors never get here.
            ExprKind::Index(..) | ExprKind::Error => "0u".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    /// A KPL kernel emitted as CUDA and as OpenCL.
    fn emitted(src: &str) -> (String, String) {
        let c = kpl_lang::check_kpl(src).expect("the kernel checks");
        let launch = kpl_lang::Launch::of(&c.kernel);
        let emit = |t| super::emit(&c.core, launch, t, &|_| 0).expect("emits").source;
        (emit(super::Target::Cuda), emit(super::Target::OpenCl))
    }

    #[test]
    fn atomics_keep_their_scope_in_cuda() {
        let (cuda, opencl) = emitted("kernel k { groups: 2; threads: 4; global C[2];\n main { local a := atomic group add(C[0], 1); local b := atomic system cas(C[1], 0, 1); local c := atomic group smax(C[gid], lid); } }");
        assert!(cuda.starts_with("#include <cuda/atomic>"), "{cuda}");
        assert!(cuda.contains("cuda::atomic_ref<uint, cuda::thread_scope_block>(a_C[0u]).fetch_add(1u, cuda::memory_order_relaxed)"), "{cuda}");
        assert!(cuda.contains("kpl_cas<cuda::thread_scope_system>(&a_C[1u], 0u, 1u)"), "{cuda}");
        assert!(cuda.contains("kpl_cas<cuda::thread_scope_block>)"), "the compare-and-swap loop of `smax` at the scope: {cuda}");
        assert!(opencl.contains("kpl_group_fetch_add(__global, &a_C[0u], 1u)"), "{opencl}");
        assert!(opencl.contains("atomic_fetch_add_explicit(KPL_GROUP(AS, P), (V), memory_order_relaxed, memory_scope_work_group)"), "{opencl}");
        // A `system` atomic is OpenCL 1.2's (device) one.
        assert!(opencl.contains("atomic_cmpxchg(&a_C[1u], 0u, 1u)"), "{opencl}");
        assert!(opencl.contains("kpl_group_cas_global)"), "{opencl}");
    }

    #[test]
    fn a_kernel_without_group_atomics_has_no_opencl_2_macros_and_fences_are_libcu() {
        let (cuda, opencl) = emitted("kernel k { groups: 2; threads: 4; global C[2];\n main { local a := atomic add(C[0], 1); fence group; } }");
        assert!(!opencl.contains("kpl_group") && opencl.contains("atomic_add(&a_C[0u], 1u)"), "{opencl}");
        assert!(cuda.contains("cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block);"), "{cuda}");
    }

    #[test]
    fn no_text_ends_a_c_comment() {
        let c = super::c_comment("a */ int evil; /* b\\\nc");
        assert!(!c.contains("*/") && !c.contains('\n') && !c.ends_with('\\'), "{c}");
    }
}
