//! The lowering's vocabulary, shared by every concern: C's scalar types as kpl lowers them
//! (`Ty`), aggregate C types and their word layout (`CType`, `Field`, `LeafTy`), values and
//! places (`Val`, `Place`, `AggVal`, `Lv`, `Leaf`, `VLeaf`), and KPL expression builders.
//! Data and pure functions only: nothing here knows the `Lower` context.

use kpl_lang::ast::{self as k, BinOp, Builtin, Ident};
use kpl_lang::span::Span;

/// A lowered value: a KPL expression (free of effects) and its C type.
#[derive(Clone, Debug)]
pub(crate) struct Val {
    pub e: k::Expr,
    pub ty: Ty,
}

pub(crate) fn kx(kind: k::ExprKind, span: Span) -> k::Expr {
    k::Expr::new(kind, span)
}

pub(crate) fn bin(op: BinOp, a: k::Expr, b: k::Expr, span: Span) -> k::Expr {
    kx(k::ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

pub(crate) fn call(f: Builtin, args: Vec<k::Expr>, span: Span) -> k::Expr {
    kx(k::ExprKind::Call(sp_id(f.name(), span), args), span)
}

pub(crate) fn not(a: k::Expr, span: Span) -> k::Expr {
    kx(k::ExprKind::Unary(k::UnOp::Not, Box::new(a)), span)
}

/// An assignable place.
#[derive(Clone, Debug)]
pub(crate) enum Place {
    Local(String, Ty),
    /// A word of an OpenCL `__constant` table (`Entity::Table`): its value, read-only.
    Const(k::Expr, Ty),
    Elem { array: String, index: k::Expr, elem: Ty, readonly: bool },
    /// A scalar of `n` bytes of an array kept at bytes (`bytes.rs`), from `index`.
    Bytes { array: String, index: k::Expr, n: u32, elem: Ty, readonly: bool },
    /// A 64-bit integer's two words (`long.rs`).
    Pair { lo: Box<Place>, hi: Box<Place>, signed: bool },
}

/// The declared type of a place (a narrow one included).
pub(crate) fn place_ty(p: &Place) -> Ty {
    match p {
        Place::Local(_, t) | Place::Const(_, t) => *t,
        Place::Elem { elem, .. } | Place::Bytes { elem, .. } => *elem,
        Place::Pair { signed, .. } => Ty::Long { signed: *signed },
    }
}

/// One word of an aggregate place: a scalar place, or (in a struct variable) a pointer
/// field, which is an array of its own (a kernel's by-value parameter it never assigns) or
/// a pointer variable named by the field's path (`pointer_fields.rs`).
#[derive(Clone, Debug)]
pub(crate) enum Leaf {
    Word(Place),
    Ptr(Entity),
    PtrVar(String),
}

/// What an expression denotes as a place.
pub(crate) enum Lv {
    Word(Place),
    Agg(CType, Vec<Leaf>),
    Array(Entity),
    /// A pointer field of a struct in memory: one opaque word.
    PtrWord(Place),
}

#[derive(Clone)]
pub(crate) enum VLeaf {
    Word(Val),
    Ptr(Entity),
}

/// The value of a struct or vector expression, word by word.
pub(crate) struct AggVal {
    pub ty: CType,
    pub leaves: Vec<VLeaf>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CType {
    Scalar(Ty),
    /// A vector of `n` components.
    Vector(Ty, u32),
    Struct(usize),
    /// A fixed-size array field of a struct.
    Array(Box<CType>, u32),
    /// A pointer field, to elements of the given type.
    Pointer(Box<CType>),
    /// A 64-bit integer (`true`: signed) in a variable, a field or memory: two words, the
    /// low one first (`long.rs`). Its values are scalars of type `Ty::Long`.
    Long(bool),
}

/// One word of an aggregate's layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LeafTy {
    Word(Ty),
    /// A pointer field (one opaque word in memory).
    Ptr(CType),
}

/// A struct field: its name, type and first word.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub name: String,
    pub ty: CType,
    pub offset: u32,
    /// Each word's byte offset in the struct and byte size, in C's layout.
    pub bytes: Vec<(u32, u32)>,
}

impl CType {
    pub fn is_aggregate(&self) -> bool {
        !matches!(self, CType::Scalar(_))
    }

    /// An array element of this type: its scalar type, or the aggregate it is.
    pub fn split(self) -> (Ty, Option<CType>) {
        match self {
            CType::Scalar(t) => (t, None),
            CType::Pointer(_) => (Ty::UInt, None),
            t => (Ty::Int, Some(t)),
        }
    }

}

/// The component indices of an OpenCL/CUDA vector selector (`x`, `xyz`, `s01`, `lo`,
/// `even`, ...) on a vector of `n`, or `None` if it is not one.
pub(crate) fn swizzle(m: &str, n: u32) -> Option<Vec<u32>> {
    let half = n.div_ceil(2).max(1);
    let idx: Vec<u32> = match m {
        "lo" => (0..half).collect(),
        "hi" => (half..half * 2).collect(),
        "even" => (0..n).step_by(2).collect(),
        "odd" => (1..n).step_by(2).collect(),
        _ if (m.starts_with('s') || m.starts_with('S')) && m.len() > 1 => m[1..]
            .chars()
            .map(|c| c.to_digit(16))
            .collect::<Option<Vec<u32>>>()?,
        _ => m
            .chars()
            .map(|c| match c {
                'x' | 'r' => Some(0),
                'y' | 'g' => Some(1),
                'z' | 'b' => Some(2),
                'w' | 'a' => Some(3),
                _ => None,
            })
            .collect::<Option<Vec<u32>>>()?,
    };
    // A 3-vector's `hi` half reads its padding component; kpl has none to read.
    (!idx.is_empty() && idx.iter().all(|&i| i < n)).then_some(idx)
}

/// A C type, as far as the subset needs: every integer is a 32-bit word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    UInt,
    Bool,
    Float,
    Void,
    /// `char`, `short` and their unsigned forms: a 32-bit word holding the value as C
    /// promotes it to `int`; a conversion to one keeps its low `bits` (sign-extended when
    /// `signed`). Values are never of this type (`expr.rs` widens them to `int`);
    /// variables, elements, fields, parameters and results are.
    Narrow { bits: u8, signed: bool },
    /// A 64-bit integer value (`long`, `long long`, `ulong`, `[u]int64_t`): a pair of words
    /// (`long.rs`). Variables, fields and elements of it are `CType::Long`, two words each.
    Long { signed: bool },
}

impl Ty {
    /// The C type's name, for messages.
    pub fn c_name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::UInt => "uint",
            Ty::Bool => "bool",
            Ty::Float => "float",
            Ty::Void => "void",
            Ty::Narrow { bits: 8, signed: true } => "char",
            Ty::Narrow { bits: 8, .. } => "uchar",
            Ty::Narrow { signed: true, .. } => "short",
            Ty::Narrow { .. } => "ushort",
            Ty::Long { signed: true } => "long",
            Ty::Long { .. } => "ulong",
        }
    }

    /// The type a value of this type has in an expression: narrow types become `int`.
    pub fn widen(self) -> Ty {
        match self {
            Ty::Narrow { .. } => Ty::Int,
            t => t,
        }
    }
}

pub(crate) fn sp_id(name: &str, span: Span) -> Ident {
    Ident::new(name, span)
}

/// What a C name denotes.
#[derive(Clone, Debug)]
pub(crate) enum Entity {
    /// A KPL local (or a kernel param's local copy).
    Local { kpl: String, ty: Ty },
    /// A kernel scalar param that is never assigned.
    Param { kpl: String, ty: Ty },
    /// A KPL array: a pointer param or a `__shared__` array (`dims` for 2-D shared arrays).
    /// In an inlined `__device__` function, a pointer parameter is the caller's array seen
    /// from `offset` (a local holding the element the argument pointed at).
    /// `agg`: the element is a struct or vector of that type (`elem` is then unused), taking
    /// `words(agg)` consecutive words; offsets count words.
    Array { kpl: String, elem: Ty, dims: Vec<u32>, readonly: bool, offset: Option<String>, agg: Option<CType> },
    /// A struct or vector variable (or by-value parameter): one leaf per word of its layout.
    Record { ty: CType, leaves: Vec<Leaf> },
    /// A `__shared__` scalar (or a file-scope `__device__` one), stored as element 0 of a
    /// one-element array.
    SharedScalar { kpl: String, ty: Ty },
    /// A pointer variable declared without an initialiser, before its first assignment
    /// (which fixes its array): its offset local.
    PendingPtr { name: String, offset: String, readonly: bool },
    /// A scalar local whose address is taken: a word of private memory (`private.rs`).
    Private { kpl: String, base: String, ty: Ty },
    /// An OpenCL `__constant` array with an initialiser: its words, row-major (`agg`: the
    /// element type when it is a struct or vector).
    Table { values: Vec<u32>, elem: Ty, dims: Vec<u32>, agg: Option<CType> },
    /// A pointer variable that may point into several arrays or be `NULL`
    /// (`multiptr.rs`): its target local (0 `NULL`, `j + 1` for `targets[j]`), its offset
    /// local, and the arrays (`None`: `NULL`).
    Ptr { sel: String, off: String, targets: Vec<Option<Entity>>, readonly: bool, decl: PtrDecl },
    /// A declaration already rejected: uses say nothing more.
    Invalid,
}

/// A pointer variable's declaration, the key of its known targets across lowerings: the
/// declarator's span and the pointer's C name (a struct variable's pointer fields share one
/// declarator: `s.p`, `s.q`).
pub(crate) type PtrDecl = (Span, String);

/// The type words that make an integer 64 bits wide (with `long long`, `unsigned long`).
pub(crate) const LONG_WORDS: [&str; 4] = ["long", "ulong", "int64_t", "uint64_t"];

/// The pointer-sized integer types: 64 bits unless pointers are 32 (`--pointer-bitwidth`),
/// and whether each is signed.
pub(crate) const POINTER_SIZED: [(&str, bool); 5] = [("size_t", false), ("uintptr_t", false), ("ptrdiff_t", true), ("intptr_t", true), ("ssize_t", true)];

/// The words of an array of `dims` elements of `words` words each, in checked arithmetic:
/// `u64::MAX` past 2^64 (every caller refuses more than 2^32).
pub(crate) fn array_words(dims: &[u32], words: u64) -> u64 {
    dims.iter().try_fold(words, |a, &d| a.checked_mul(d as u64)).unwrap_or(u64::MAX)
}
