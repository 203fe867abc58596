//! The type table: the file's structs and unions (`StructDecl`, each a word `__struct_N` in
//! the token stream) and the vector type names of each dialect. `typedecls.rs` fills it,
//! `layout.rs` sizes its types, and the lowering lays them out in words.

use crate::syntax::ast::Decl;
use crate::text::tokens::Dialect;
use kpl_lang::span::Span;

/// A struct (or union) definition: its fields as declarations.
#[derive(Clone, Debug)]
pub struct StructDecl {
    /// The tag as written, or `<anonymous>`.
    pub tag: String,
    pub fields: Vec<Decl>,
    /// Fields of C++ base structs come first; they are already in `fields`.
    pub defined: bool,
    pub union: bool,
    pub span: Span,
}

/// Every struct of the file; specifier `struct#N` names `structs[N]`.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    pub structs: Vec<StructDecl>,
    /// The bytes of a pointer and of `size_t` (`FrontOptions::pointer_bits` / 8).
    pub pointer_bytes: u64,
}

/// The specifier word of struct `n`.
pub fn struct_word(n: usize) -> String {
    format!("struct#{n}")
}

/// The struct a specifier word names.
pub fn struct_of(word: &str) -> Option<usize> {
    word.strip_prefix("struct#")?.parse().ok()
}

/// A vector type name of the dialect: its element type word and length.
pub fn vector_name(word: &str, d: Dialect) -> Option<(&'static str, u32)> {
    const ELEMS: &[&str] =
        &["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half", "longlong", "ulonglong"];
    // CUDA's pairs of 16-bit floats (`cuda_fp16.h`, `cuda_bf16.h`), with members `x`, `y`.
    if d == Dialect::Cuda && matches!(word, "half2" | "__half2" | "__nv_bfloat162" | "nv_bfloat162") {
        return Some(("half", 2));
    }
    let split = word.find(|c: char| c.is_ascii_digit())?;
    let (base, n) = word.split_at(split);
    let n: u32 = n.parse().ok()?;
    let elem = ELEMS.iter().find(|e| **e == base)?;
    let ok = match d {
        Dialect::OpenCl => matches!(n, 2 | 3 | 4 | 8 | 16) && !elem.ends_with("longlong"),
        Dialect::Cuda => matches!(n, 1..=4) && *elem != "half",
    };
    (ok && !(d == Dialect::OpenCl && word.starts_with('0'))).then_some((elem, n))
}
