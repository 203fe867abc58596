//! C types' sizes and alignments in bytes: scalars by their specifier words, structs and
//! vector types from the type table (`typedecls.rs`); and `sizeof(T)` of a type folded to
//! its size on the token stream, once the type declarations are resolved.

use crate::sema::types::{TypeTable, struct_of, vector_name};
use crate::text::tokens::{CTok, Dialect};

/// The size in bytes of a scalar type named by specifier words (and `*`s): `sizeof(float)`
/// is 4, `sizeof(int *)` and `sizeof(size_t)` `pointer_bytes` (8, or 4 under
/// `--pointer-bitwidth=32`). `None` for anything else (structs, vector types, typedef
/// names), which stays unsupported.
pub(crate) fn scalar_size(words: &[&str], pointer: bool, pointer_bytes: u64) -> Option<u64> {
    const QUALIFIERS: &[&str] = &[
        "const", "volatile", "signed", "unsigned", "__global", "global", "__local", "local", "__constant", "constant", "__private", "private",
        "__shared__", "__device__", "__constant__", "__managed__", "static", "extern", "register", "__restrict__", "__restrict", "restrict",
    ];
    if pointer {
        return Some(pointer_bytes);
    }
    let types: Vec<&str> = words.iter().copied().filter(|w| !QUALIFIERS.contains(w)).collect();
    let unsigned_only = types.is_empty() && words.iter().any(|w| *w == "unsigned" || *w == "signed");
    match types.as_slice() {
        _ if unsigned_only => Some(4),
        ["int"] | ["float"] | ["uint"] | ["int32_t"] | ["uint32_t"] => Some(4),
        ["size_t"] | ["ptrdiff_t"] | ["intptr_t"] | ["uintptr_t"] | ["ssize_t"] => Some(pointer_bytes),
        ["short"] | ["short", "int"] | ["ushort"] | ["int16_t"] | ["uint16_t"] => Some(2),
        ["half"] | ["__half"] | ["__nv_bfloat16"] | ["nv_bfloat16"] => Some(2),
        ["char"] | ["uchar"] | ["bool"] | ["_Bool"] | ["int8_t"] | ["uint8_t"] => Some(1),
        ["double"] | ["long"] | ["long", "long"] | ["long", "int"] | ["ulong"] | ["int64_t"] | ["uint64_t"] => Some(8),
        _ => None,
    }
}

/// Size and alignment in bytes of a type named by specifier words and a pointer flag.
pub(crate) fn size_align(words: &[&str], pointer: bool, types: &TypeTable, d: Dialect, depth: usize) -> Option<(u64, u64)> {
    if pointer {
        return Some((types.pointer_bytes, types.pointer_bytes));
    }
    for w in words {
        if let Some(n) = struct_of(w) {
            return struct_size(n, types, d, depth + 1);
        }
        if let Some((elem, n)) = vector_name(w, d) {
            let (e, _) = size_align(&[elem_word(elem)], false, types, d, depth)?;
            let n = n as u64;
            return Some(match d {
                // OpenCL: a 3-vector takes the room of a 4-vector; alignment is the size.
                Dialect::OpenCl => {
                    let size = e * if n == 3 { 4 } else { n };
                    (size, size)
                }
                // CUDA: `float3` is 12 bytes aligned to 4; 2- and 4-vectors are aligned to their size.
                Dialect::Cuda => (e * n, if n == 3 || n == 1 { e } else { (e * n).min(16) }),
            });
        }
    }
    let s = scalar_size(words, false, types.pointer_bytes)?;
    Some((s, s))
}

fn elem_word(elem: &str) -> &str {
    match elem {
        "longlong" => "long",
        "ulonglong" => "ulong",
        "half" => "short",
        e => e,
    }
}

/// A struct's size with C's alignment rules (fields in order, each at a multiple of its
/// alignment, the whole a multiple of the largest).
pub(crate) fn struct_size(n: usize, types: &TypeTable, d: Dialect, depth: usize) -> Option<(u64, u64)> {
    let s = types.structs.get(n).filter(|s| s.defined && depth < 32)?;
    let (mut size, mut align) = (0u64, 1u64);
    for f in &s.fields {
        let words: Vec<&str> = f.specs.iter().map(|s| s.word.as_str()).collect();
        for x in &f.decls {
            let (fs, fa) = size_align(&words, x.ptrs > 0, types, d, depth)?;
            let mut count = 1u64;
            for dim in &x.dims {
                count = count.checked_mul(crate::syntax::ast::const_eval(dim.as_ref()?)? as u64)?;
            }
            let fsize = fs.checked_mul(count)?;
            if s.union {
                size = size.max(fsize);
            } else {
                size = size.div_ceil(fa) * fa + fsize;
            }
            align = align.max(fa);
        }
    }
    Some((size.div_ceil(align) * align, align))
}

/// Replace `sizeof(T)` of a type `T` (scalar, vector, struct, pointer) by its size, an
/// unsigned constant (`size_t`).
pub fn fold_sizeof(toks: Vec<(usize, CTok, usize)>, types: &TypeTable, d: Dialect) -> Vec<(usize, CTok, usize)> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if let (CTok::Kw("sizeof"), Some((_, CTok::P("("), _))) = (&toks[i].1, toks.get(i + 1)) {
            let mut j = i + 2;
            let mut words = Vec::new();
            let mut pointer = false;
            while let Some((_, t, _)) = toks.get(j) {
                match t {
                    CTok::Spec(w) => words.push(w.as_str()),
                    CTok::P("*") => pointer = true,
                    _ => break,
                }
                j += 1;
            }
            if let (Some((_, CTok::P(")"), end)), false) = (toks.get(j), words.is_empty()) {
                if let Some((n, _)) = size_align(&words, pointer, types, d, 0) {
                    // A `size_t`: 64 bits unless pointers are 32.
                    let lit = if types.pointer_bytes == 8 { CTok::LongInt(n, true) } else { CTok::Int(n, true) };
                    out.push((toks[i].0, lit, *end));
                    i = j + 1;
                    continue;
                }
            }
        }
        out.push(toks[i].clone());
        i += 1;
    }
    out
}
