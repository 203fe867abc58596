//! Options shared by `run`, `verify`, `certify` and `export-isabelle`, with GPUVerify's
//! spellings.

use kpl_lang::launch::parse_dims;
use kpl_lang::Launch;

/// How to read a kernel file: the launch, and for CUDA/OpenCL files the preprocessor
/// definitions and the kernel to pick.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct LaunchArgs {
    /// Threads per group: N, [X,Y] or [X,Y,Z] (overrides `threads:`; required for .cu).
    #[arg(long = "blockDim", value_name = "DIMS", value_parser = parse_dims)]
    pub block_dim: Option<[u32; 3]>,
    /// Groups: N, [X,Y] or [X,Y,Z] (overrides `groups:`; required for .cu).
    #[arg(long = "gridDim", value_name = "DIMS", value_parser = parse_dims)]
    pub grid_dim: Option<[u32; 3]>,
    /// OpenCL: work-items per work-group (same as --blockDim).
    #[arg(long = "local_size", value_name = "DIMS", value_parser = parse_dims)]
    pub local_size: Option<[u32; 3]>,
    /// OpenCL: work-groups (same as --gridDim).
    #[arg(long = "num_groups", value_name = "DIMS", value_parser = parse_dims)]
    pub num_groups: Option<[u32; 3]>,
    /// OpenCL: work-items in all (each dimension a multiple of --local_size).
    #[arg(long = "global_size", value_name = "DIMS", value_parser = parse_dims)]
    pub global_size: Option<[u32; 3]>,
    /// OpenCL: the global work offset (`get_global_offset`; `get_global_id` counts from it):
    /// N, [X,Y] or [X,Y,Z].
    #[arg(long = "global_offset", value_name = "DIMS", value_parser = parse_offset)]
    pub global_offset: Option<[u32; 3]>,
    /// Define a preprocessor macro: -DNAME or -DNAME=VALUE (CUDA and OpenCL files).
    #[arg(short = 'D', value_name = "NAME[=VALUE]", value_parser = parse_define)]
    pub defines: Vec<String>,
    /// Look for `#include`d headers in this directory too (after the including file's own);
    /// repeatable, searched in order.
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<String>,
    /// The kernel to check when a CUDA or OpenCL file has several.
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// GPUVerify's option: ignore every source-level annotation (`__assert`, `__requires`,
    /// `__invariant`, ...) of a CUDA or OpenCL file.
    #[arg(long = "no-annotations", conflicts_with = "only_requires")]
    pub no_annotations: bool,
    /// GPUVerify's option: ignore every source-level annotation but `__requires`.
    #[arg(long = "only-requires")]
    pub only_requires: bool,
    /// GPUVerify's option: every loop invariant of a CUDA or OpenCL file is a candidate
    /// (inference keeps it only if it can prove it).
    #[arg(long = "invariants-as-candidates")]
    pub invariants_as_candidates: bool,
    /// GPUVerify's `--kernel-args=K,v1,v2,...`: kernel K's scalar parameters have these
    /// values (decimal or 0x hex; 64 bits for a `long` or a struct of 8 bytes, low word
    /// first), in order.
    #[arg(long = "kernel-args", value_name = "K,V,...", value_parser = parse_kernel_args)]
    pub kernel_args: Option<(String, Vec<u64>)>,
    /// Read this sequential C function of the file as the kernel, run by one thread
    /// (`kpl crosscheck`'s reference; `kpl run --reference=F --input ...` replays it).
    #[arg(long, value_name = "F")]
    pub reference: Option<String>,
    /// Not an option: load the kernel that checks this device function on its own
    /// (`--no-inline`).
    #[arg(skip)]
    pub check_function: Option<String>,
    /// Not an option: `verify --no-inline`'s lowering, where calls of functions with a
    /// postcondition and no shared effect use only the contract.
    #[arg(skip)]
    pub no_inline: bool,
    /// `kpl crosscheck --assume=fma`: the front end reads `fmaf(a, b, c)` as `a * b + c`
    /// (`kpl_c::FrontOptions::contract`).
    #[arg(skip)]
    pub contract: bool,
    /// Not an option: `verify` takes a grid the host code computes at run time as any
    /// grid (`Launch::free_groups`); the commands that run a launch need it fixed.
    #[arg(skip)]
    pub free_grid: bool,
    /// GPUVerify's option: the bits of a pointer and of `size_t`, `ptrdiff_t` and what
    /// OpenCL's work-item functions return: 32 or 64. Default 64 (every CUDA GPU; OpenCL
    /// devices' usual `size_t`), but 32, GPUVerify's default, for a file in GPUVerify's test
    /// format (first line `//pass` or `//xfail:...`), whose expected outcome assumes it.
    #[arg(long = "pointer-bitwidth", value_name = "BITS", value_parser = ["32", "64"])]
    pub pointer_bitwidth: Option<String>,
}

/// Is this source in GPUVerify's test format (its first line `//pass` or `//xfail:...`)?
pub fn gpuverify_test_format(text: &str) -> bool {
    let first = text.lines().next().unwrap_or("").trim();
    first == "//pass" || first.starts_with("//xfail:")
}

/// `--global_offset`: like the sizes, but a dimension left out is 0 and 0 is allowed.
fn parse_offset(s: &str) -> Result<[u32; 3], String> {
    let inner = s.trim().trim_start_matches('[').trim_end_matches(']');
    let vals: Vec<u32> = inner.split(',').map(|v| v.trim().parse::<u32>().map_err(|_| format!("`{}` is not a 32-bit unsigned offset", v.trim()))).collect::<Result<_, _>>()?;
    if vals.is_empty() || vals.len() > 3 {
        return Err("expected N, [X,Y] or [X,Y,Z]".into());
    }
    let mut out = [0u32; 3];
    out[..vals.len()].copy_from_slice(&vals);
    Ok(out)
}

fn parse_kernel_args(s: &str) -> Result<(String, Vec<u64>), String> {
    let mut parts = s.split(',');
    let name = parts.next().map(str::trim).filter(|n| !n.is_empty()).ok_or("expected `KERNEL,V1,V2,...`")?;
    let vals = parts
        .map(|v| {
            let v = v.trim();
            let n = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                // A negative decimal is two's complement (a 32-bit parameter takes its low word).
                None if v.starts_with('-') => v.parse::<i64>().ok().map(|x| x as u64),
                None => v.parse::<u64>().ok(),
            };
            n.ok_or_else(|| format!("`{v}` is not a value of at most 64 bits"))
        })
        .collect::<Result<Vec<u64>, String>>()?;
    Ok((name.to_string(), vals))
}

/// Threads per group and groups per grid, each if given.
pub type GivenShape = (Option<[u32; 3]>, Option<[u32; 3]>);

impl LaunchArgs {
    /// Threads per group and groups as given on the command line, if both are.
    pub fn given(&self) -> Result<GivenShape, String> {
        if self.reference.is_some() {
            // The reference is sequential: one thread of one group.
            return Ok((Some([1, 1, 1]), Some([1, 1, 1])));
        }
        let threads = self.block_dim.or(self.local_size);
        let mut groups = self.grid_dim.or(self.num_groups);
        if let Some(global) = self.global_size {
            let Some(t) = threads else {
                return Err("`--global_size` needs `--local_size`".into());
            };
            let mut g = [1u32; 3];
            for d in 0..3 {
                if global[d] % t[d] != 0 {
                    // GPUVerify's words (dimensions counted from 0), then the sizes.
                    return Err(format!(
                        "Dimension {d} of global size does not divide by dimension {d} of local size (`--global_size` {} is not a multiple of `--local_size` {})",
                        global[d], t[d]
                    ));
                }
                g[d] = global[d] / t[d];
            }
            if groups.is_some() {
                // GPUVerify's rule (and its words): the groups or the work-items in all, not both.
                return Err("--num_groups=: not allowed with argument --global_size= (give the work-groups or the work-items in all, not both)".into());
            }
            groups = Some(g);
        }
        Ok((threads, groups))
    }

    /// The bits of a pointer the C front end reads `text` with (`--pointer-bitwidth`).
    pub fn pointer_bits(&self, text: &str) -> u32 {
        match self.pointer_bitwidth.as_deref() {
            Some("32") => 32,
            Some(_) => 64,
            None if gpuverify_test_format(text) => 32,
            None => 64,
        }
    }

    /// How the C front end reads the file `text` (recorded in certificates).
    pub fn front_settings(&self, text: &str) -> kpl_certify::certificate::FrontSettings {
        use kpl_c::annotations::Annotations;
        kpl_certify::certificate::FrontSettings {
            defines: self.defines.clone(),
            include_dirs: self.include_dirs.clone(),
            path: String::new(),
            kernel: self.kernel.clone(),
            annotations: if self.no_annotations {
                Annotations::None
            } else if self.only_requires {
                Annotations::OnlyRequires
            } else {
                Annotations::All
            },
            kernel_args: self.kernel_args.clone(),
            invariants_as_candidates: self.invariants_as_candidates,
            global_offset: self.global_offset.filter(|o| *o != [0; 3]),
            pointer_bits: self.pointer_bits(text),
            // What the host code's launch passes is `input::load`'s to say.
            launch_args: None,
        }
    }

    /// A kernel's declared launch with the overrides applied.
    pub fn apply(&self, declared: Launch) -> Launch {
        let (t, g) = self.given().unwrap_or((None, None));
        Launch::new(g.unwrap_or(declared.groups), t.unwrap_or(declared.threads))
    }
}

#[derive(clap::Args, Clone, Debug, Default)]
pub struct CheckArgs {
    /// Check races within groups only (no inter-group races).
    #[arg(long = "only-intra-group")]
    pub only_intra_group: bool,
    /// Tolerate write-write races that write equal values (the default for `.cu` and
    /// `.cl` files, as in GPUVerify).
    #[arg(long = "benign-tolerance", overrides_with = "no_benign_tolerance")]
    pub benign_tolerance: bool,
    /// Report every write-write race, equal values or not (the default for `.kpl`, KPL.md).
    #[arg(long = "no-benign-tolerance", visible_alias = "no-benign", overrides_with = "benign_tolerance")]
    pub no_benign_tolerance: bool,
    /// GPUVerify's warp-synchronous mode: warps of N threads (a power of two) run in lock
    /// step and see each other's writes at once; threads of one warp race only by writing
    /// one element in one statement.
    #[arg(long = "warp-sync", value_name = "N", value_parser = parse_warp_sync)]
    pub warp_sync: Option<u32>,
    /// GPUVerify's option: check barrier divergence (and assertions and bounds) but not
    /// races. `--only-log` (GPUVerify's: log accesses, check no races) means the same here:
    /// kpl always logs, so access predicates keep their meaning.
    #[arg(long = "only-divergence", alias = "only-log")]
    pub only_divergence: bool,
    /// GPUVerify's options for its back ends: `/checkArrays:A,B` checks races only on
    /// those arrays; others are accepted and have no effect in kpl.
    #[arg(long = "vcgen-opt", visible_alias = "vcgen-op", value_name = "OPT")]
    pub vcgen_opt: Vec<String>,
}

/// `-D NAME`, `-D NAME=VALUE` or `-D NAME(A,B)=VALUE` (as a C compiler takes them): the
/// name a C identifier, the parameters identifiers in closed parentheses.
fn parse_define(s: &str) -> Result<String, String> {
    let (head, _) = s.split_once('=').unwrap_or((s, ""));
    let ident = |w: &str| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let (name, params) = match head.split_once('(') {
        Some((n, p)) => (n, Some(p)),
        None => (head, None),
    };
    if !ident(name) {
        return Err(format!("`{name}` is not a macro name (a C identifier): expected NAME, NAME=VALUE or NAME(A,B)=VALUE"));
    }
    if let Some(p) = params {
        let Some(list) = p.strip_suffix(')') else {
            return Err(format!("the parameters of `{name}` need a closing `)`"));
        };
        let list = list.trim();
        let ok = list.is_empty() || list.split(',').map(str::trim).enumerate().all(|(i, w)| ident(w) || (w == "..." && i + 1 == list.split(',').count()));
        if !ok {
            return Err(format!("the parameters of `{name}` must be identifiers: `({list})`"));
        }
    }
    Ok(s.to_string())
}

/// A time limit in seconds: above 0, at most 1e9 (about 30 years; longer would overflow
/// the clock).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 1e9 => Ok(t),
        _ => Err(format!("`{s}`: expected a positive number of seconds, at most 1e9")),
    }
}

fn parse_warp_sync(s: &str) -> Result<u32, String> {
    let n: u32 = s.trim().parse().map_err(|_| format!("`{s}` is not a number of threads"))?;
    if n == 0 || !n.is_power_of_two() || n > 1024 {
        return Err(format!("the warp size must be a power of two from 1 to 1024 (got {n})"));
    }
    Ok(n)
}

impl CheckArgs {
    /// The interpreter's options these checks give, for a run of at most `max_steps`
    /// thread-statements of the kernel in `file`.
    pub fn run_options(&self, file: &std::path::Path, max_steps: u64) -> kpl_semantics::sdv::Options {
        kpl_semantics::sdv::Options {
            max_steps,
            inter_group: !self.only_intra_group,
            benign: self.benign(file),
            warp_sync: self.warp_sync,
            race_arrays: self.race_arrays(),
            ..Default::default()
        }
    }

    /// The arrays of `--vcgen-opt=/checkArrays:A,B` (the last such option).
    pub fn check_arrays(&self) -> Option<Vec<String>> {
        let list = self.vcgen_opt.iter().rev().find_map(|o| o.strip_prefix("/checkArrays:"))?;
        Some(list.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
    }

    /// The arrays whose races a run looks for (`None`: all): none under `--only-divergence`,
    /// those of `/checkArrays:` otherwise, as the verifier checks them.
    pub fn race_arrays(&self) -> Option<Vec<String>> {
        if self.only_divergence {
            return Some(Vec::new());
        }
        self.check_arrays()
    }

    /// `/checkArrays:` may name only the kernel's arrays (GPUVerify's error otherwise).
    pub fn known_arrays(&self, c: &kpl_lang::Checked) -> Result<(), crate::exit::Exit> {
        let Some(only) = self.check_arrays() else { return Ok(()) };
        let arrays: Vec<&str> = c
            .kernel
            .decls
            .iter()
            .filter_map(|d| match &d.kind {
                kpl_lang::ast::DeclKind::Shared { name, .. } | kpl_lang::ast::DeclKind::Global { name, .. } => Some(name.name.as_str()),
                _ => None,
            })
            .collect();
        if let Some(bad) = only.iter().find(|a| !arrays.contains(&a.as_str())) {
            eprintln!("error: Array name '{bad}' specified for restricted checking is not found (the kernel's arrays: {})", arrays.join(", "));
            return Err(crate::exit::Exit::BadInput);
        }
        Ok(())
    }

    /// Whether equal-value write-write races are tolerated for this file: the options, else
    /// the default of its language (KPL.md for `.kpl`, GPUVerify's for `.cu`/`.cl`).
    pub fn benign(&self, file: &std::path::Path) -> bool {
        if self.benign_tolerance || self.no_benign_tolerance {
            return self.benign_tolerance;
        }
        benign_by_default(file)
    }
}

/// Does a file's language tolerate equal-value write-write races by default: GPUVerify's
/// default for `.cu` and `.cl`, not KPL.md's for `.kpl`?
pub fn benign_by_default(file: &std::path::Path) -> bool {
    gpuverify_language(file)
}

/// Is the file in one of GPUVerify's input languages (`.cu`, `.cl`), where kpl follows
/// GPUVerify's defaults and rules?
pub fn gpuverify_language(file: &std::path::Path) -> bool {
    matches!(crate::input::kind_of(file).as_str(), "cu" | "cl")
}

/// The inputs of a run: a seed for everything not given, a JSON file, and params.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct InputArgs {
    /// Seed for params and array contents not given otherwise (documented generator).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Params and array contents as JSON: {"params": {..}, "arrays": {..}}.
    #[arg(long, value_name = "IN.json")]
    pub input: Option<std::path::PathBuf>,
    /// Set a param: NAME=V (decimal, 0x hex, or negative).
    #[arg(long = "param", value_name = "NAME=V")]
    pub params: Vec<String>,
}

impl InputArgs {
    /// The inputs for a compiled kernel; unknown names and bad values are errors (printed).
    pub fn inputs(&self, prog: &kpl_semantics::Program) -> Result<kpl_semantics::Inputs, crate::exit::Exit> {
        use crate::exit::Exit;
        let mut inputs = kpl_semantics::Inputs::from_seed(self.seed);
        // Params the kernel's `requires` pin (`--kernel-args`) take that value unless given.
        inputs.params.extend(kpl_semantics::inputs::pinned_params(prog));
        if let Some(path) = &self.input {
            let text = crate::input::read_bytes(path).map(|b| String::from_utf8_lossy(&b).into_owned()).map_err(|e| {
                eprintln!("error: {e}");
                Exit::BadInput
            })?;
            inputs.merge_json(&text).map_err(|e| {
                eprintln!("error: `{}`: {e}", path.display());
                Exit::BadInput
            })?;
        }
        for p in &self.params {
            let (k, v) = parse_param(p).map_err(|e| {
                eprintln!("error: {e}");
                Exit::BadInput
            })?;
            inputs.params.insert(k, v);
        }
        for k in inputs.params.keys() {
            if !prog.params.contains(k) {
                eprintln!("error: the kernel has no param named `{k}` (its params: {})", list(&prog.params));
                return Err(Exit::BadInput);
            }
        }
        if let Err(e) = fits(prog, &inputs) {
            eprintln!("error: {e}");
            return Err(Exit::BadInput);
        }
        Ok(inputs)
    }
}

/// Do the inputs fit the kernel: every array named is the kernel's, no value past an
/// array's end, a global array's contents one list (not one per group), no group past the
/// launch's? Else why not (`run --input`, `difftest --input`).
pub fn fits(prog: &kpl_semantics::Program, inputs: &kpl_semantics::Inputs) -> Result<(), String> {
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    for (k, given) in &inputs.arrays {
        let Some(a) = prog.array_index(k).map(|i| &prog.arrays[i]) else {
            let names: Vec<String> = prog.arrays.iter().map(|a| a.name.clone()).collect();
            return Err(format!("the kernel has no array named `{k}` (its arrays: {})", list(&names)));
        };
        if a.kind != kpl_semantics::ir::ArrayKind::Shared && !given.per_group.is_empty() {
            return Err(format!("`{k}` is a global array: give its contents as one list (or index: value object), not one per group"));
        }
        let groups = prog.launch.num_groups();
        if let Some(&g) = given.per_group.keys().max().filter(|&&g| g as u64 >= groups) {
            return Err(format!("the input gives the contents of `{k}` in group {g}, but the launch has {groups} group{}", plural(groups)));
        }
        if let Some(n) = a.size {
            let last = given.all.keys().chain(given.per_group.values().flat_map(|g| g.keys())).max();
            if let Some(&i) = last.filter(|&&i| i >= n) {
                return Err(format!("the input gives element {i} of `{k}`, which has {n} element{}", plural(n as u64)));
            }
        }
    }
    Ok(())
}

pub fn parse_param(s: &str) -> Result<(String, u32), String> {
    let (name, v) = s.split_once('=').ok_or_else(|| format!("`--param {s}`: expected NAME=V"))?;
    let v = v.trim();
    let val = if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        u32::from_str_radix(h, 16).ok()
    } else if let Some(n) = v.strip_prefix('-') {
        n.parse::<u32>().ok().filter(|&n| n <= 1 << 31).map(|n| n.wrapping_neg())
    } else {
        v.parse::<u32>().ok()
    };
    val.map(|x| (name.trim().to_string(), x)).ok_or_else(|| format!("`--param {s}`: `{v}` is not a 32-bit number"))
}

fn list(xs: &[String]) -> String {
    if xs.is_empty() {
        "none".into()
    } else {
        xs.iter().map(|x| format!("`{x}`")).collect::<Vec<_>>().join(", ")
    }
}

/// `--array-len N|NAME=N,...`: the number of elements of a C kernel's unsized arrays (its
/// pointer parameters), `N` for every one or `NAME=N` each; accesses outside them are
/// out-of-bounds defects.
#[derive(Clone, Debug, Default)]
pub struct ArrayLengths(pub Vec<(Option<String>, u32)>);

impl ArrayLengths {
    pub fn parse(xs: &[String]) -> Result<ArrayLengths, String> {
        xs.iter()
            .map(|x| {
                let (name, n) = match x.split_once('=') {
                    Some((k, v)) => (Some(k.trim().to_string()), v.trim()),
                    None => (None, x.trim()),
                };
                let n: u32 = n.parse().map_err(|_| format!("`{x}` is not N or NAME=N with N a number of elements"))?;
                if n == 0 {
                    return Err(format!("`{x}`: an array has at least one element"));
                }
                Ok((name, n))
            })
            .collect::<Result<Vec<_>, String>>()
            .map(ArrayLengths)
    }

    /// The length given to an array (`NAME=N` before `N`).
    pub fn of(&self, name: &str) -> Option<u32> {
        self.0.iter().find(|(n, _)| n.as_deref() == Some(name)).or_else(|| self.0.iter().find(|(n, _)| n.is_none())).map(|(_, l)| *l)
    }

    /// Give the lengths to the unsized global arrays of `p` among `names` (every one when
    /// `None`); a named array `p` does not have unsized is an error.
    pub fn apply(&self, p: &mut kpl_semantics::Program, names: Option<&[String]>) -> Result<(), String> {
        let free: Vec<String> = p
            .arrays
            .iter()
            .filter(|a| a.size.is_none() && a.kind == kpl_semantics::ir::ArrayKind::Global && names.is_none_or(|ns| ns.contains(&a.name)))
            .map(|a| a.name.clone())
            .collect();
        for (n, _) in &self.0 {
            if let Some(n) = n {
                if !free.contains(n) {
                    return Err(format!("the kernel has no unsized array `{n}` (it has {})", if free.is_empty() { "none".to_string() } else { free.join(", ") }));
                }
            }
        }
        for a in p.arrays.iter_mut().filter(|a| free.contains(&a.name)) {
            a.size = self.of(&a.name);
        }
        Ok(())
    }
}
