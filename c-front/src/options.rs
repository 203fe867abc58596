//! How to read a C file: what the command line says to the front end (`FrontOptions`).
//! Built of `text`'s and `syntax`'s types; read by the lowering and by the driver.

use crate::syntax::annotations;
use crate::text::tokens::Dialect;
use kpl_lang::launch::Launch;

/// How to read a C file.
#[derive(Clone, Debug)]
pub struct FrontOptions {
    pub dialect: Dialect,
    /// `-D NAME[=V]` definitions.
    pub defines: Vec<String>,
    /// The file's path as given (headers are looked for beside it; `include.rs`).
    pub file: String,
    /// `-I DIR` directories, in order.
    pub include_dirs: Vec<String>,
    /// `--kernel=NAME`: which kernel of the file.
    pub kernel: Option<String>,
    /// The launch (`--blockDim`/`--gridDim`, `--local_size`/`--num_groups`); required to
    /// run or verify, a warning when missing otherwise.
    pub launch: Option<Launch>,
    /// GPUVerify's `--no-annotations` / `--only-requires`.
    pub annotations: annotations::Annotations,
    /// GPUVerify's `--kernel-args=K,v1,...`: the kernel and its scalar params' values.
    pub kernel_args: Option<(String, Vec<u64>)>,
    /// `--warp-sync=N`: `__syncwarp` is then a no-op (warps run in lock step).
    pub warp_sync: Option<u32>,
    /// GPUVerify's `--invariants-as-candidates`: every loop invariant is a candidate.
    pub invariants_as_candidates: bool,
    /// GPUVerify's `--global_offset`: OpenCL's global work offset, per dimension
    /// (`get_global_offset`, and added to `get_global_id`).
    pub global_offset: Option<[u32; 3]>,
    /// Lower the kernel that checks this device function on its own (`--no-inline`,
    /// `modular.rs`) instead of a kernel.
    pub check_function: Option<String>,
    /// `kpl crosscheck`'s reference: this function of the file is read as the kernel, to
    /// run in one thread (`sema/reference.rs`).
    pub reference: Option<String>,
    /// `--no-inline`: a call of a function with a postcondition whose body has no effect
    /// on shared or global memory uses only its contract (`contract_calls.rs`).
    pub no_inline: bool,
    /// `kpl crosscheck --assume=fma`: `fma`/`fmaf`/`mad` (and their `__`/`native_` forms) read
    /// as `a * b + c`, rounded twice, as if contraction changed no result; otherwise they
    /// are math functions whose results are arbitrary floats.
    pub contract: bool,
    /// GPUVerify's `--pointer-bitwidth`: the bits of a pointer, and of `size_t`,
    /// `ptrdiff_t`, `intptr_t` and what OpenCL's work-item functions return: 64 (every CUDA
    /// GPU, and OpenCL devices' usual `size_t`) or 32 (GPUVerify's default).
    pub pointer_bits: u32,
    /// The values the host code's launch gives the kernel's arguments, by position, where
    /// they are integer constants (`sema/launches.rs`): preconditions on the parameters.
    pub launch_args: Option<Vec<Option<i64>>>,
    /// What a launch size the command line gives says of the kernel's parameters, where the
    /// host code computes that size from them (`SizeExpr`): preconditions too.
    pub launch_facts: Vec<LaunchFact>,
}

/// The host code's expression `expr` for a launch size is `value` (the size given), or,
/// where `None`, the launch's size itself (`gridDim.x`: a grid computed at run time).
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchFact {
    pub expr: crate::sema::launches::SizeExpr,
    pub value: Option<u32>,
    /// Which size: `gridDim.x`, ...
    pub what: String,
}

impl FrontOptions {
    pub fn new(dialect: Dialect) -> FrontOptions {
        FrontOptions {
            dialect,
            defines: Vec::new(),
            file: String::new(),
            include_dirs: Vec::new(),
            kernel: None,
            launch: None,
            annotations: Default::default(),
            kernel_args: None,
            warp_sync: None,
            invariants_as_candidates: false,
            global_offset: None,
            check_function: None,
            reference: None,
            no_inline: false,
            contract: false,
            pointer_bits: 64,
            launch_args: None,
            launch_facts: Vec::new(),
        }
    }
}
