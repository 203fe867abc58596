//! `#include`: where a header is looked for, and gathering the headers a C kernel names
//! into one source (`sources.rs`) before preprocessing, so that the preprocessor, every
//! later stage and certificates see one text and do no file I/O of their own.
//!
//! `#include "f"` is looked for beside the including file, then in each `-I` directory in
//! order; `#include <f>` in the `-I` directories, then (unless it is a known system header)
//! beside the including file, as a build with `-I.` finds it. A header found nowhere is a system
//! header (read as empty) when written with `<>` or when it is one of the C, C++, CUDA or
//! OpenCL headers (`is_system_header`); otherwise the preprocessor reports it.

use kpl_lang::sources;

/// At most this many files, and this many bytes of them, are gathered for one kernel.
pub const MAX_FILES: usize = 512;
pub const MAX_BYTES: usize = 64 << 20;

/// Where `#include` of `name` from file `from` is looked for, in order (lexically
/// normalised paths, `/`-separated).
pub fn candidates(from: &str, name: &str, quoted: bool, dirs: &[String]) -> Vec<String> {
    if name.starts_with('/') {
        return vec![normalize(name)];
    }
    let mut out = Vec::new();
    if quoted {
        let dir = from.rfind('/').map_or("", |i| &from[..=i]);
        out.push(normalize(&format!("{dir}{name}")));
    }
    for d in dirs {
        let d = d.trim_end_matches('/');
        out.push(normalize(&if d.is_empty() { name.to_string() } else { format!("{d}/{name}") }));
    }
    if !quoted && !is_system_header(name) {
        // `#include <common.cu>` of a file beside the kernel: built with `-I.`, as projects
        // that write it are.
        let dir = from.rfind('/').map_or("", |i| &from[..=i]);
        out.push(normalize(&format!("{dir}{name}")));
    }
    out
}

/// `a/./b/../c` as `a/c`; a leading `..` stays.
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else if joined.is_empty() {
        ".".into()
    } else {
        joined
    }
}

/// The headers of the C and C++ libraries, CUDA and OpenCL, which kpl reads as empty
/// (what kernels use from them is built in) when they are not found.
pub fn is_system_header(name: &str) -> bool {
    const C: &[&str] = &[
        "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h", "limits.h",
        "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdbool.h", "stddef.h", "stdint.h",
        "stdio.h", "stdlib.h", "string.h", "strings.h", "tgmath.h", "time.h", "uchar.h", "wchar.h", "wctype.h",
        "unistd.h", "fcntl.h", "getopt.h", "pthread.h", "omp.h", "malloc.h", "memory.h", "error.h", "dirent.h",
        "mma.h", "nvrtc.h", "nvToolsExt.h", "opencl-c.h", "clc.h", "math_constants.h", "math_functions.h",
        "vector_types.h", "vector_functions.h", "builtin_types.h", "host_defines.h", "driver_types.h",
        "device_launch_parameters.h", "device_functions.h", "device_atomic_functions.h", "device_double_functions.h",
        "device_types.h", "texture_types.h", "texture_fetch_functions.h", "surface_types.h", "channel_descriptor.h",
    ];
    const PREFIXES: &[&str] = &[
        "cuda", "cuComplex", "curand", "cublas", "cufft", "cusparse", "cusolver", "cudnn", "sm_", "cooperative_groups",
        "thrust/", "cub/", "sys/", "CL/", "OpenCL/", "crt/",
    ];
    let base = name.trim_start_matches("./");
    C.contains(&base)
        || PREFIXES.iter().any(|p| base.starts_with(p))
        || (!base.contains('.') && base.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

/// The macros a system header kpl reads as empty would define that kernels use as values:
/// CUDA's `<math_constants.h>` (`CUDART_PI_F`, ...; kpl's `double` is its `float`), and the
/// complex types of `<cuComplex.h>` and `<cufft.h>` (`float2`, `double2`) with
/// `<cuComplex.h>`'s arithmetic, as macros.
pub fn header_macros(name: &str) -> &'static [(&'static str, &'static str)] {
    const MATH_CONSTANTS: &[(&str, &str)] = &[
        ("CUDART_INF_F", "(1.0f/0.0f)"),
        ("CUDART_NAN_F", "(0.0f/0.0f)"),
        ("CUDART_MIN_DENORM_F", "1.40129846e-45f"),
        ("CUDART_MAX_NORMAL_F", "3.40282347e+38f"),
        ("CUDART_NEG_ZERO_F", "(-0.0f)"),
        ("CUDART_ZERO_F", "0.0f"),
        ("CUDART_ONE_F", "1.0f"),
        ("CUDART_SQRT_HALF_F", "0.707106781f"),
        ("CUDART_SQRT_TWO_F", "1.414213562f"),
        ("CUDART_THIRD_F", "0.333333333f"),
        ("CUDART_PIO4_F", "0.785398163f"),
        ("CUDART_PIO2_F", "1.570796327f"),
        ("CUDART_3PIO4_F", "2.356194490f"),
        ("CUDART_2_OVER_PI_F", "0.636619772f"),
        ("CUDART_SQRT_2_OVER_PI_F", "0.797884561f"),
        ("CUDART_PI_F", "3.141592654f"),
        ("CUDART_L2E_F", "1.442695041f"),
        ("CUDART_L2T_F", "3.321928094f"),
        ("CUDART_LG2_F", "0.301029996f"),
        ("CUDART_LGE_F", "0.434294482f"),
        ("CUDART_LN2_F", "0.693147181f"),
        ("CUDART_LNT_F", "2.302585093f"),
        ("CUDART_LNPI_F", "1.144729886f"),
        ("CUDART_TWO_TO_23_F", "8388608.0f"),
        ("CUDART_TWO_TO_24_F", "16777216.0f"),
        ("CUDART_TWO_TO_31_F", "2147483648.0f"),
        ("CUDART_TWO_TO_32_F", "4294967296.0f"),
        ("CUDART_NORM_HUGE_F", "3.402823466e38f"),
        ("CUDART_INF", "(1.0/0.0)"),
        ("CUDART_NAN", "(0.0/0.0)"),
        ("CUDART_NEG_ZERO", "(-0.0)"),
        ("CUDART_ZERO", "0.0"),
        ("CUDART_ONE", "1.0"),
        ("CUDART_SQRT_TWO", "1.4142135623730951"),
        ("CUDART_SQRT_PI", "1.7724538509055161"),
        ("CUDART_SQRT_PIO2", "1.2533141373155003"),
        ("CUDART_SQRT_2PI", "2.5066282746310002"),
        ("CUDART_SQRT_2OPI", "0.79788456080286536"),
        ("CUDART_SQRT_HALF", "0.70710678118654757"),
        ("CUDART_THIRD", "0.33333333333333333"),
        ("CUDART_TWOTHIRD", "0.66666666666666667"),
        ("CUDART_PIO4", "0.78539816339744828"),
        ("CUDART_PIO2", "1.5707963267948966"),
        ("CUDART_3PIO4", "2.3561944901923448"),
        ("CUDART_2_OVER_PI", "0.63661977236758138"),
        ("CUDART_PI", "3.1415926535897931"),
        ("CUDART_2PI", "6.2831853071795862"),
        ("CUDART_3PIO2", "4.7123889803846897"),
        ("CUDART_L2E", "1.4426950408889634"),
        ("CUDART_L2T", "3.3219280948873622"),
        ("CUDART_LG2", "0.30102999566398120"),
        ("CUDART_LGE", "0.43429448190325182"),
        ("CUDART_LN2", "0.69314718055994529"),
        ("CUDART_LNT", "2.3025850929940459"),
        ("CUDART_LNPI", "1.1447298858494002"),
    ];
    const CU_COMPLEX: &[(&str, &str)] = &[
        ("cuFloatComplex", "float2"),
        ("cuDoubleComplex", "double2"),
        ("cuComplex", "float2"),
        ("cuCrealf(z)", "((z).x)"),
        ("cuCimagf(z)", "((z).y)"),
        ("cuCreal(z)", "((z).x)"),
        ("cuCimag(z)", "((z).y)"),
        ("make_cuFloatComplex(r, i)", "make_float2((r), (i))"),
        ("make_cuComplex(r, i)", "make_float2((r), (i))"),
        ("make_cuDoubleComplex(r, i)", "make_double2((r), (i))"),
        ("cuConjf(z)", "make_float2((z).x, -(z).y)"),
        ("cuCaddf(a, b)", "make_float2((a).x + (b).x, (a).y + (b).y)"),
        ("cuCsubf(a, b)", "make_float2((a).x - (b).x, (a).y - (b).y)"),
        ("cuCmulf(a, b)", "make_float2((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x)"),
        ("cuCadd(a, b)", "make_double2((a).x + (b).x, (a).y + (b).y)"),
        ("cuCsub(a, b)", "make_double2((a).x - (b).x, (a).y - (b).y)"),
        ("cuCmul(a, b)", "make_double2((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x)"),
    ];
    const CUFFT: &[(&str, &str)] = &[
        ("cufftReal", "float"),
        ("cufftDoubleReal", "double"),
        ("cufftComplex", "float2"),
        ("cufftDoubleComplex", "double2"),
    ];
    match name.trim_start_matches("./") {
        "math_constants.h" => MATH_CONSTANTS,
        "cuComplex.h" => CU_COMPLEX,
        "cufft.h" | "cufftXt.h" => CUFFT,
        _ => &[],
    }
}

/// The `#include` lines of a text: the name and whether it was quoted. Every line is
/// taken, whatever `#if` it is under (the preprocessor decides which are used).
pub fn include_lines(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else { continue };
        let Some(rest) = rest.trim_start().strip_prefix("include") else { continue };
        let rest = rest.trim_start();
        let (close, quoted) = match rest.chars().next() {
            Some('"') => ('"', true),
            Some('<') => ('>', false),
            _ => continue,
        };
        if let Some(end) = rest[1..].find(close) {
            out.push((rest[1..1 + end].to_string(), quoted));
        }
    }
    out
}

/// The main file's text followed by every header it includes, directly or not, that
/// `read` can read (each once), as one source. `main` is the main file's path as given.
pub fn bundle(main: &str, text: &str, dirs: &[String], read: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut src = text.replace('\0', " ");
    let mut seen: Vec<String> = vec![normalize(main)];
    let mut queue: Vec<(String, String)> = vec![(main.to_string(), src.clone())];
    let mut bytes = src.len();
    while let Some((from, text)) = queue.pop() {
        for (name, quoted) in include_lines(&text) {
            for c in candidates(&from, &name, quoted, dirs) {
                if seen.contains(&c) {
                    break;
                }
                if seen.len() >= MAX_FILES || bytes >= MAX_BYTES {
                    return src;
                }
                if let Some(t) = read(&c) {
                    bytes += t.len();
                    sources::append(&mut src, &c, &t);
                    seen.push(c.clone());
                    queue.push((c, t));
                    break;
                }
            }
        }
    }
    src
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_order_and_normal_form() {
        assert_eq!(candidates("k/a.cu", "../inc/h.h", true, &["x/".into(), "".into()]), ["inc/h.h", "inc/h.h", "../inc/h.h"].map(String::from));
        assert_eq!(candidates("k/a.cu", "h.h", false, &["d".into()]), ["d/h.h", "k/h.h"]);
        assert_eq!(candidates("k/a.cu", "stdio.h", false, &["d".into()]), ["d/stdio.h"]);
        assert_eq!(normalize("./a/./b/../c"), "a/c");
        assert_eq!(normalize("../a"), "../a");
        assert!(is_system_header("cuda_runtime.h") && is_system_header("stdio.h") && is_system_header("iostream"));
        assert!(!is_system_header("common.h"));
    }

    #[test]
    fn bundles_each_header_once_following_includes() {
        let files = [("k/h.h", "#include \"g.h\"\n#define X 1\n"), ("k/g.h", "#include \"h.h\"\nint g;\n")];
        let mut read = |p: &str| files.iter().find(|f| f.0 == p).map(|f| f.1.to_string());
        let src = bundle("k/k.cu", "#include \"h.h\"\n# include <stdio.h>\n#include \"missing.h\"\n", &[], &mut read);
        let names: Vec<_> = sources::segments(&src).iter().map(|s| s.name).collect();
        assert_eq!(names, [None, Some("k/h.h"), Some("k/g.h")]);
    }
}
