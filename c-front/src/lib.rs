//! kpl's C, CUDA and OpenCL front end (CUDA.md tier 1): C source ─► checked KPL kernel.
//!
//! Pipeline position: beside `kpl_lang` at the start (`.cu`/`.cl` ─► KPL AST); it gives
//! ordinary KPL, so no later stage learns C.
//! Takes: a C source (with its headers, as one text: `include::bundle`) and `FrontOptions`.
//! Gives: a `kpl_lang::Checked` kernel whose spans point into the C source, so every later
//! stage reports at C lines; or diagnostics.
//! Stages, one folder each, imports pointing down this list only (`tests/layers.rs`):
//! `text` (preprocessor, lexer, tokens) ─► `syntax` (AST, parser) ─► `sema` (C++ to the C
//! subset on tokens, type declarations and layout, analyses of the AST) ─► `lower` (the
//! typed unit to KPL). This file drives them: `parse` runs the first three, `check_c` the
//! lowering and the KPL passes after it.
//! Depends on: `kpl_lang` only; no file or terminal I/O (the binary hands it the files).

pub mod lower;
pub mod options;
pub mod sema;
pub mod syntax;
pub mod text;

pub use lower::modular;
pub use syntax::annotations;
pub use options::FrontOptions;
pub use text::include;

use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::{check, core, Checked};
use lalrpop_util::ErrorRecovery;
pub use tokens::Dialect;

use syntax::{ast, grammar};
use text::{pp, tokens};
use sema::{classes, coop, coop_tiles, cxx, images, namespaces, operators, overloads, templates, textures, typedecls};
use syntax::nesting;
use sema::uninit;
use lower::long;

/// The C tokens after the text stage and the token passes before templates: the
/// preprocessed file read by dialect, namespaces flattened, C++ conveniences, cooperative
/// groups, textures and images on the token stream. Gives the tokens, errors and warnings.
fn pre_templates(src: &str, o: &FrontOptions) -> (Vec<(usize, tokens::CTok, usize)>, Vec<Diagnostic>, Vec<Diagnostic>) {
    // `<limits.h>`/`<float.h>` (built into OpenCL C) for the widths kpl models.
    const LIMITS: &[(&str, &str)] = &[
        ("CHAR_BIT", "8"),
        ("SCHAR_MAX", "127"),
        ("SCHAR_MIN", "(-128)"),
        ("UCHAR_MAX", "255"),
        ("SHRT_MAX", "32767"),
        ("SHRT_MIN", "(-32768)"),
        ("USHRT_MAX", "65535"),
        ("INT_MAX", "2147483647"),
        ("INT_MIN", "(-2147483647-1)"),
        ("UINT_MAX", "0xffffffffU"),
        ("FLT_MAX", "3.402823466e+38f"),
        ("FLT_MIN", "1.175494351e-38f"),
        ("FLT_EPSILON", "1.192092896e-07f"),
        // GCC's and clang's alternate spelling of the qualifier (the AMD SDK's kernels use it).
        ("__const", "const"),
    ];
    let predefined: &[(&str, &str)] = match o.dialect {
        Dialect::Cuda => &[
            ("__CUDACC__", "1"),
            // Device code is what kpl reads, and nvcc defines this for it: Volta's 7.0, whose
            // independent thread scheduling is what kpl assumes without `--warp-sync`.
            ("__CUDA_ARCH__", "700"),
            // nvcc itself, of the CUDA 12.0 toolkit, whose headers' declarations kpl knows.
            ("__NVCC__", "1"),
            ("__CUDACC_VER_MAJOR__", "12"),
            ("__CUDACC_VER_MINOR__", "0"),
            ("__CUDACC_VER_BUILD__", "0"),
            // <math.h>'s constants (glibc's, which nvcc's host compiler gives device code).
            ("M_E", "2.7182818284590452354"),
            ("M_LOG2E", "1.4426950408889634074"),
            ("M_LOG10E", "0.43429448190325182765"),
            ("M_LN2", "0.69314718055994530942"),
            ("M_LN10", "2.30258509299404568402"),
            ("M_PI", "3.14159265358979323846"),
            ("M_PI_2", "1.57079632679489661923"),
            ("M_PI_4", "0.78539816339744830962"),
            ("M_1_PI", "0.31830988618379067154"),
            ("M_2_PI", "0.63661977236758134308"),
            ("M_2_SQRTPI", "1.12837916709551257390"),
            ("M_SQRT2", "1.41421356237309504880"),
            ("M_SQRT1_2", "0.70710678118654752440"),
            ("__GPUVERIFY__", "1"),
            ("NULL", "0"),
            ("NAN", "(0.0f/0.0f)"),
            ("INFINITY", "(1.0f/0.0f)"),
            // GPUVerify's ghost accesses for barrier invariants (its `__read_permission(T, x)`).
            ("__read_permission(T, x)", "__kpl_permission(x)"),
            ("__write_permission(T, x)", "__kpl_permission(x)"),
        ],
        Dialect::OpenCl => &[
            ("__OPENCL_VERSION__", "120"),
            ("__OPENCL_C_VERSION__", "120"),
            ("__GPUVERIFY__", "1"),
            ("NULL", "0"),
            ("NAN", "(0.0f/0.0f)"),
            ("INFINITY", "(1.0f/0.0f)"),
            ("HUGE_VALF", "(1.0f/0.0f)"),
            ("__read_permission(T, x)", "__kpl_permission(x)"),
            ("__write_permission(T, x)", "__kpl_permission(x)"),
            ("MAXFLOAT", "3.402823466e+38f"),
            ("CLK_LOCAL_MEM_FENCE", "1"),
            ("CLK_GLOBAL_MEM_FENCE", "2"),
            ("CLK_IMAGE_MEM_FENCE", "4"),
            // Sampler flags (clang's opencl-c-base.h values; a `sampler_t` is a `uint`).
            ("CLK_NORMALIZED_COORDS_FALSE", "0"),
            ("CLK_NORMALIZED_COORDS_TRUE", "1"),
            ("CLK_ADDRESS_NONE", "0"),
            ("CLK_ADDRESS_CLAMP_TO_EDGE", "2"),
            ("CLK_ADDRESS_CLAMP", "4"),
            ("CLK_ADDRESS_REPEAT", "6"),
            ("CLK_ADDRESS_MIRRORED_REPEAT", "8"),
            ("CLK_FILTER_NEAREST", "0x10"),
            ("CLK_FILTER_LINEAR", "0x20"),
            // OpenCL 2.0 memory orders and scopes (clang's values), for work_group_barrier
            // and atomic_work_item_fence.
            ("memory_order_relaxed", "0"),
            ("memory_order_acquire", "2"),
            ("memory_order_release", "3"),
            ("memory_order_acq_rel", "4"),
            ("memory_order_seq_cst", "5"),
            ("memory_scope_work_item", "0"),
            ("memory_scope_work_group", "1"),
            ("memory_scope_device", "2"),
            ("memory_scope_all_svm_devices", "3"),
            ("memory_scope_sub_group", "4"),
        ],
    };
    let predefined: Vec<(&str, &str)> = LIMITS.iter().chain(predefined).copied().collect();
    let pre = pp::preprocess(src, &o.defines, &predefined, &pp::Search { main: &o.file, dirs: &o.include_dirs });
    let mut errors = pre.errors;
    let mut warnings = pre.warnings;
    let (toks, terrs) = tokens::convert(&pre.tokens, o.dialect);
    errors.extend(terrs);
    let toks = if o.dialect == Dialect::Cuda {
        let (toks, aerrs, awarns) = sema::libcu_atomics::lower(sema::numeric_limits::lower(toks));
        errors.extend(aerrs);
        warnings.extend(awarns);
        coop::lower(coop_tiles::lower(textures::lower(sema::cache_hints::lower(cxx::lower(namespaces::flatten(sema::integral_constants::members(toks)))))))
    } else {
        images::lower(toks)
    };
    let toks = match &o.reference {
        Some(name) => {
            let (toks, err, warn) = sema::reference::as_kernel(toks, name, o.dialect, src);
            errors.extend(err);
            warnings.extend(warn);
            toks
        }
        None => toks,
    };
    (toks, errors, warnings)
}

/// Parse a C file (after preprocessing); gives the unit and every error.
pub fn parse(src: &str, o: &FrontOptions) -> (Option<sema::Parsed>, Vec<Diagnostic>, Vec<Diagnostic>) {
    let (toks, mut errors, mut warnings) = pre_templates(src, o);
    let inst = templates::instantiate(toks, o.dialect, o.kernel.as_deref());
    errors.extend(inst.errors);
    warnings.extend(inst.warnings);
    let toks = if o.dialect == Dialect::Cuda {
        let (toks, cerrs) = classes::lower(sema::integral_constants::tags(inst.toks));
        errors.extend(cerrs);
        // After overloads are told apart: a call names the one function it calls.
        let (toks, rerrs) = sema::ref_returns::lower(sema::braced_args::lower(overloads::resolve(operators::rename(toks))));
        errors.extend(rerrs);
        let (toks, lerrs) = sema::lambdas::lower(toks);
        errors.extend(lerrs);
        cxx::default_arguments(textures::objects(toks))
    } else {
        overloads::resolve(inst.toks)
    };
    let parse_fields = |body: Vec<(usize, tokens::CTok, usize)>| {
        let mut rec = Vec::new();
        let r = grammar::FieldsParser::new().parse(&mut rec, body.into_iter().map(Ok::<_, ()>));
        match (r, rec.into_iter().next()) {
            (Ok(fs), None) => Ok(fs),
            (_, Some(e)) => Err(syntax::parse_errors::to_diagnostic(e, src)),
            (Err(e), None) => Err(syntax::parse_errors::to_diagnostic(ErrorRecovery { error: e, dropped_tokens: vec![] }, src)),
        }
    };
    let parse_const = |toks: Vec<(usize, tokens::CTok, usize)>| {
        let mut rec = Vec::new();
        let e = grammar::ExprParser::new().parse(&mut rec, toks.into_iter().map(Ok::<_, ()>)).ok()?;
        rec.is_empty().then(|| ast::const_eval(&e)).flatten()
    };
    let pointer_bytes = if o.pointer_bits == 32 { 4 } else { 8 };
    let (toks, types, terrs) = typedecls::resolve(toks, o.dialect, pointer_bytes, &parse_fields, &parse_const);
    errors.extend(terrs);
    let toks = sema::layout::fold_sizeof(toks, &types, o.dialect);
    // Constructs outside the subset get one clear diagnostic each, before parsing.
    let unsupported = tokens::unsupported(&toks);
    if !unsupported.is_empty() {
        errors.extend(unsupported);
        errors.sort_by_key(|d| d.span.start);
        return (None, errors, warnings);
    }
    let mut recovered = Vec::new();
    let result = grammar::UnitParser::new().parse(&mut recovered, toks.into_iter().map(Ok::<_, ()>));
    // After an unknown type name, the parser's recovery mostly finds what follows from it:
    // only further unknown type names are said.
    let mut unknown_type = false;
    for r in recovered {
        let d = syntax::parse_errors::to_diagnostic(r, src);
        let this = d.message.starts_with("unknown type name");
        if !unknown_type || this {
            errors.push(d);
        }
        unknown_type |= this;
    }
    let unit = match result {
        Ok(mut u) => {
            u.kernel_instance = inst.kernel;
            u.host_variables = inst.host_variables;
            u.kernel_templates = inst.kernel_templates;
            Some(sema::Parsed { unit: u, types })
        }
        Err(e) => {
            errors.push(syntax::parse_errors::to_diagnostic(ErrorRecovery { error: e, dropped_tokens: vec![] }, src));
            None
        }
    };
    errors.sort_by_key(|d| d.span.start);
    errors.dedup_by(|a, b| a.span == b.span && a.message == b.message);
    (unit, errors, warnings)
}

/// What a CUDA file's host code says of its launches.
#[derive(Default)]
pub struct HostLaunches {
    /// The kernel launches of its host code, with what the host code decides of each
    /// (`sema::launches`).
    pub sites: Vec<sema::launches::LaunchSite>,
    /// Every launch in the file by kernel name and place, read or not
    /// (`launches::every_launch`).
    pub every: Vec<(String, usize)>,
    /// Where the file is a whole program (it defines `main`): what it may run
    /// (`sema::host_reach`).
    pub program: Option<sema::host_reach::Reach>,
}

/// The launches of a CUDA file's host code; none for OpenCL, whose host code is not in the
/// kernel's file.
pub fn launch_sites(src: &str, o: &FrontOptions) -> HostLaunches {
    if o.dialect != Dialect::Cuda {
        return HostLaunches::default();
    }
    let (toks, _, _) = pre_templates(src, o);
    let inst = templates::instantiate(toks.clone(), o.dialect, o.kernel.as_deref());
    let (sites, program) = sema::launches::find(&inst.host, &toks, &inst.toks);
    HostLaunches { sites, every: sema::launches::every_launch(&toks), program }
}

/// The device functions `--no-inline` checks on their own (`modular.rs`); none when the
/// file does not parse (the kernel's own check reports that).
pub fn modular_checks(src: &str, o: &FrontOptions) -> Vec<modular::ModularCheck> {
    match parse(src, o) {
        (Some(sema::Parsed { mut unit, .. }), errors, _) if errors.is_empty() => {
            annotations::filter(&mut unit, o.annotations);
            modular::checks(&unit, o.dialect)
        }
        _ => Vec::new(),
    }
}

/// The kernels of a file (`__global__`, `__kernel` functions with a body, template
/// instances by their instance names), in order; none when it does not parse.
pub fn kernel_names(src: &str, o: &FrontOptions) -> Vec<String> {
    let (Some(sema::Parsed { unit, .. }), errors, _) = parse(src, o) else { return Vec::new() };
    if !errors.is_empty() {
        return Vec::new();
    }
    let mut names: Vec<String> = Vec::new();
    for f in defined_kernels(&unit, o.dialect) {
        if !names.contains(&f.name.name) {
            names.push(f.name.name.clone());
        }
    }
    names
}

/// The kernels `unit` defines (with a body).
fn defined_kernels(unit: &ast::Unit, dialect: Dialect) -> impl Iterator<Item = &ast::Func> {
    unit.items.iter().filter_map(move |i| match i {
        syntax::ast::Item::Func(f) if lower::context::is_kernel(f, dialect) && f.body.is_some() => Some(f),
        _ => None,
    })
}

/// The file's kernel templates of which it names no instance kpl reads, where it has a
/// kernel to verify beside them (none when it does not parse, or has none: then the
/// lowering's error names them): `verify` cannot check them without their template
/// arguments.
pub fn kernel_templates(src: &str, o: &FrontOptions) -> Vec<String> {
    match parse(src, o) {
        (Some(sema::Parsed { unit, .. }), errors, _) if errors.is_empty() => {
            if defined_kernels(&unit, o.dialect).next().is_some() {
                unit.kernel_templates
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

/// Where the kernel `function` (or a function it calls) computes in double precision,
/// which kpl computes in single (`kpl crosscheck` gives no verdict on values then).
pub fn double_precision(src: &str, o: &FrontOptions, function: &str) -> Option<Diagnostic> {
    let (toks, _, _) = pre_templates(src, o);
    sema::reference::kernel_precision(&toks, src, function, o.dialect)
}

/// Read, lower and check a CUDA or OpenCL kernel. `Err` holds every error found.
pub fn check_c(src: &str, o: &FrontOptions) -> Result<Checked, Vec<Diagnostic>> {
    let (parsed, mut errors, mut warnings) = parse(src, o);
    let Some(sema::Parsed { mut unit, types }) = parsed else { return Err(errors) };
    annotations::filter(&mut unit, o.annotations);
    if !errors.is_empty() {
        return Err(errors);
    }
    if let Some(d) = nesting::check_unit(&unit) {
        return Err(vec![d]);
    }
    let (uninitialised, indeterminate) = uninit::check_unit(&unit);
    if !uninitialised.is_empty() {
        return Err(uninitialised);
    }
    let mut lowered = lower::lower(&unit, &types, o, &indeterminate);
    warnings.append(&mut lowered.warnings);
    errors.append(&mut lowered.errors);
    let Some(kernel) = lowered.kernel.take() else {
        errors.sort_by_key(|d| d.span.start);
        return Err(errors);
    };
    if !errors.is_empty() {
        errors.sort_by_key(|d| d.span.start);
        return Err(errors);
    }
    if let Some(d) = kpl_lang::depth::check_kernel(&kernel) {
        return Err(vec![d]);
    }
    // The lowering must produce well-formed KPL; a failure here is a bug of ours.
    let problems = check::check(&kernel);
    if !problems.is_empty() {
        return Err(problems
            .into_iter()
            .map(|d| match long::unhandled(&d.message) {
                Some(message) => Diagnostic { message, ..d },
                None => Diagnostic { message: format!("internal error in the C lowering: {}", d.message), ..d },
            })
            .collect());
    }
    // What the launch decides (the high words of 64-bit ids, their carries) folded once
    // here rather than at every solver query; only for a launch the user gave, so that a
    // kernel printed without one still reads as written.
    let mut kernel = kernel;
    if let Some(launch) = o.launch {
        kpl_lang::word_ranges::fold(&mut kernel, launch);
        kpl_lang::dead_temps::remove(&mut kernel);
        debug_assert!(check::check(&kernel).is_empty(), "folding by word ranges broke the kernel");
    }
    // libcu++'s loads (`cas(A[i], 0, 0)`) of arrays nothing writes are reads.
    kpl_lang::atomic_reads::to_reads(&mut kernel);
    let core = core::to_core(&kernel);
    Ok(Checked { kernel, core, comments: Vec::new(), warnings, layouts: lowered.layouts, launch_params: lowered.launch_params })
}
