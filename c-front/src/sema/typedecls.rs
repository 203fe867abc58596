//! Type declarations, resolved on the token stream before parsing (C's "lexer hack" as a
//! pass): `typedef` names become the specifier tokens they stand for, `struct T { ... }`
//! definitions are recorded in a [`TypeTable`] and replaced by one specifier token
//! `struct#N`, enumerators become integer literals and `enum T` the type `int`, and vector
//! type names (`float4`, `uint2`, ...) become specifiers. Names are file-wide from their
//! declaration on (a typedef declared in a function is not undone at its end).

use crate::sema::types::{StructDecl, TypeTable, struct_of, struct_word, vector_name};
use crate::syntax::ast::Decl;
use crate::text::tokens::{CTok, Dialect};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::HashMap;

/// The specifier a function-pointer typedef stands for (`lower/fnptr.rs` lowers its values).
pub const FNPTR: &str = "__fnptr";

type Tok = (usize, CTok, usize);

struct Pass<'a> {
    d: Dialect,
    table: TypeTable,
    /// typedef name → the specifier (and `*`) tokens it stands for.
    aliases: HashMap<String, Vec<CTok>>,
    tags: HashMap<String, usize>,
    /// Enumerators and CUDA's file-scope integer constants: value, and whether unsigned.
    enumerators: HashMap<String, (i64, bool)>,
    errors: Vec<Diagnostic>,
    parse_fields: &'a dyn Fn(Vec<Tok>) -> Result<Vec<Decl>, Diagnostic>,
    parse_const: &'a dyn Fn(Vec<Tok>) -> Option<i64>,
}

/// Resolve the type declarations of a token stream. `parse_fields` parses a struct body
/// (declarations), `parse_const` evaluates an enumerator's value.
pub fn resolve(
    toks: Vec<Tok>,
    d: Dialect,
    pointer_bytes: u64,
    parse_fields: &dyn Fn(Vec<Tok>) -> Result<Vec<Decl>, Diagnostic>,
    parse_const: &dyn Fn(Vec<Tok>) -> Option<i64>,
) -> (Vec<Tok>, TypeTable, Vec<Diagnostic>) {
    let mut p = Pass {
        d,
        table: TypeTable { pointer_bytes, ..TypeTable::default() },
        aliases: HashMap::new(),
        tags: HashMap::new(),
        enumerators: HashMap::new(),
        errors: Vec::new(),
        parse_fields,
        parse_const,
    };
    let out = p.run(&toks);
    (out, p.table, p.errors)
}

/// The index of the bracket closing the one at `i` (or the end).
pub(crate) fn closing(toks: &[Tok], i: usize) -> usize {
    let (open, close) = match toks[i].1 {
        CTok::P("{") => ("{", "}"),
        CTok::P("(") => ("(", ")"),
        _ => ("[", "]"),
    };
    let mut depth = 0;
    for (j, t) in toks.iter().enumerate().skip(i) {
        if t.1 == CTok::P(open) {
            depth += 1;
        } else if t.1 == CTok::P(close) {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    toks.len()
}

impl Pass<'_> {
    fn run(&mut self, toks: &[Tok]) -> Vec<Tok> {
        let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
        // Where the current `typedef` began in `out`, and the bracket depth it is at (a
        // typedef in a block ends at the `;` of that block).
        let mut typedef: Option<(usize, Span)> = None;
        let mut typedef_depth = 0i32;
        let mut depth = 0i32;
        let mut i = 0;
        // At the start of a file-scope declaration.
        let mut item_start = true;
        // Type names redeclared as variables, with the bracket depth of the declaration.
        let mut shadowed: Vec<(String, i32)> = Vec::new();
        while i < toks.len() {
            let (l, t, r) = &toks[i];
            let sp = Span::new(*l, *r);
            if item_start && depth == 0 && typedef.is_none() {
                if let Some(next) = self.file_constant(toks, i) {
                    i = next;
                    continue;
                }
            }
            let ends_item = matches!(t, CTok::P(";") | CTok::P("}"));
            match t {
                CTok::Kw("typedef") => {
                    typedef = Some((out.len(), sp));
                    typedef_depth = depth;
                    i += 1;
                }
                CTok::Kw(kw @ ("struct" | "union")) => i = self.record(toks, i, *kw == "union", &mut out),
                CTok::Kw("enum") => i = self.enumeration(toks, i, &mut out),
                // `LatLong *latLong = ...;` where `latLong` is also a type (a C++ struct
                // tag): a declarator's name, which hides the type in its block.
                CTok::Ident(x) if typedef.is_none() && self.aliases.contains_key(x) && declares(&out, toks.get(i + 1)) => {
                    shadowed.push((x.clone(), depth));
                    out.push(toks[i].clone());
                    i += 1;
                }
                CTok::Ident(x) if self.aliases.contains_key(x) && !is_member(&out) && !shadowed.iter().any(|(n, _)| n == x) => {
                    for a in &self.aliases[x] {
                        out.push((*l, a.clone(), *r));
                    }
                    i += 1;
                }
                CTok::Ident(x) if self.enumerators.contains_key(x) && !is_member(&out) => {
                    let (v, unsigned) = self.enumerators[x];
                    out.push((*l, CTok::Int(v as u64 & 0xFFFF_FFFF, unsigned), *r));
                    i += 1;
                }
                CTok::Ident(x) if vector_name(x, self.d).is_some() && !is_member(&out) => {
                    out.push((*l, CTok::Spec(x.clone()), *r));
                    i += 1;
                }
                CTok::P(";") if depth == typedef_depth && typedef.is_some() => {
                    let (start, tsp) = typedef.take().unwrap_or((out.len(), sp));
                    let body = out.split_off(start);
                    self.typedef(body, tsp);
                    i += 1;
                }
                _ => {
                    match t {
                        CTok::P("{") | CTok::P("(") => depth += 1,
                        CTok::P("}") | CTok::P(")") => depth -= 1,
                        _ => {}
                    }
                    // A name declared in a block (or a parameter list) is a type again
                    // after the block (the function body) that holds it, or after the
                    // prototype whose parameter it names (`;` at file scope).
                    if matches!(t, CTok::P("}")) || (matches!(t, CTok::P(";")) && depth == 0) {
                        shadowed.retain(|(_, d)| *d <= depth);
                    }
                    out.push(toks[i].clone());
                    i += 1;
                }
            }
            item_start = ends_item && depth == 0;
        }
        if let Some((_, sp)) = typedef {
            self.errors.push(Diagnostic::error("this `typedef` has no `;`", sp));
        }
        out
    }

    /// CUDA's `[static] const int N = 16;` at file scope (OpenCL's `constant int N = 16;`,
    /// `const sampler_t s = CLK_...;`): an integer constant device code may use (a constant
    /// expression), read as an enumerator is. Gives the index after
    /// its `;`, or `None` when the declaration is not one.
    fn file_constant(&mut self, toks: &[Tok], i: usize) -> Option<usize> {
        // The specifier words, a typedef name's (`const basic_t N = 8;`) among them.
        let (mut specs, mut consumed): (Vec<&str>, usize) = (Vec::new(), 0);
        for t in &toks[i..] {
            match &t.1 {
                CTok::Spec(w) => specs.push(w.as_str()),
                CTok::Ident(x) if specs.iter().all(|w| !INT_WORDS.contains(w)) && self.aliases.get(x).is_some_and(|a| a.iter().all(|w| matches!(w, CTok::Spec(_)))) => {
                    specs.extend(self.aliases[x].iter().filter_map(|w| match w {
                        CTok::Spec(w) => Some(w.as_str()),
                        _ => None,
                    }));
                }
                _ => break,
            }
            consumed += 1;
        }
        const INT_WORDS: &[&str] = &["int", "unsigned", "signed", "short", "char", "uint"];
        const OTHER: &[&str] = &["const", "constexpr", "static", "__device__", "__host__", "inline", "constant", "__constant"];
        let constant = specs.iter().any(|w| matches!(*w, "const" | "constexpr" | "constant" | "__constant"));
        let integer = specs.iter().any(|w| INT_WORDS.contains(w)) && specs.iter().all(|w| INT_WORDS.contains(w) || OTHER.contains(w));
        // A `__device__ const` variable is memory the lowering reads, not a constant.
        if !constant || !integer || specs.contains(&"__device__") {
            return None;
        }
        let at = i + consumed;
        let (CTok::Ident(name), CTok::P("=")) = (&toks.get(at)?.1, &toks.get(at + 1)?.1) else { return None };
        let end = toks[at + 2..].iter().position(|t| matches!(t.1, CTok::P(";") | CTok::P(",")))? + at + 2;
        if toks[end].1 != CTok::P(";") {
            return None;
        }
        let value: Vec<Tok> = toks[at + 2..end]
            .iter()
            .map(|(l, t, r)| match t {
                CTok::Ident(x) if self.enumerators.contains_key(x) => {
                    let (v, u) = self.enumerators[x];
                    (*l, CTok::Int(v as u64 & 0xFFFF_FFFF, u), *r)
                }
                _ => (*l, t.clone(), *r),
            })
            .collect();
        let v = (self.parse_const)(value)?;
        let unsigned = specs.contains(&"unsigned") || specs.contains(&"uint");
        self.enumerators.insert(name.clone(), (v, unsigned));
        Some(end + 1)
    }

    /// `typedef SPECS DECLARATOR, ...;` (its tokens after `typedef`, resolved).
    fn typedef(&mut self, body: Vec<Tok>, span: Span) {
        let specs: Vec<CTok> = body.iter().take_while(|t| matches!(t.1, CTok::Spec(_))).map(|t| t.1.clone()).collect();
        let mut rest = &body[specs.len()..];
        let refuse = |s: &mut Self, what: &str| {
            s.errors.push(
                Diagnostic::error(format!("not supported: {what}"), span)
                    .with_help("kpl reads typedefs of scalar, vector, struct and pointer types"),
            );
        };
        if specs.is_empty() {
            return refuse(self, "this `typedef` (it names no type kpl knows)");
        }
        // `typedef float real;` a second time (C11 allows it): the name was expanded, so
        // the body is its type twice over.
        let whole: Vec<CTok> = body.iter().map(|t| t.1.clone()).collect();
        let (first, second) = whole.split_at(whole.len() / 2);
        if whole.len() % 2 == 0 && first == second && self.aliases.values().any(|a| a.as_slice() == first) {
            return;
        }
        // `typedef unsigned int uint32_t;`: a file's own definition of a <stdint.h> name,
        // which kpl knows already.
        if rest.is_empty() && matches!(specs.last(), Some(CTok::Spec(w)) if crate::text::tokens::STDINT.contains(&w.as_str())) {
            return;
        }
        // `typedef unsigned int uint;`: a name kpl predefines, defined as the same type.
        if rest.is_empty() && redefines_builtin(&specs, self.table.pointer_bytes) {
            return;
        }
        if let (true, Some(CTok::Spec(w))) = (rest.is_empty(), specs.last()) {
            if PREDEFINED_SIZES.contains(&w.as_str()) {
                self.errors.push(
                    Diagnostic::error(format!("this file defines `{w}` as another type than kpl's own"), span)
                        .with_help("kpl predefines `size_t`, `uintptr_t` (unsigned) and `ptrdiff_t`, `intptr_t` (signed) as pointer-sized integers, as <stddef.h> and <stdint.h> do"),
                );
                return;
            }
        }
        // C++'s `typedef struct T { ... } T;`: the tag already names the type (its
        // alias was expanded into a second struct specifier).
        if rest.is_empty() && specs.len() >= 2 && specs.last() == specs.first() && matches!(specs.last(), Some(CTok::Spec(w)) if struct_of(w).is_some()) {
            return;
        }
        loop {
            let stars = rest.iter().take_while(|t| t.1 == CTok::P("*") || matches!(&t.1, CTok::Spec(_))).count();
            let Some((_, CTok::Ident(name), _)) = rest.get(stars) else {
                // `typedef R (*name)(params);`: a function-pointer type (a word, `fnptr.rs`).
                if let [(_, CTok::P("("), _), (_, CTok::P("*"), _), (_, CTok::Ident(name), _), (_, CTok::P(")"), _), (_, CTok::P("("), _), ..] = rest {
                    if rest.last().is_some_and(|t| t.1 == CTok::P(")")) {
                        self.aliases.insert(name.clone(), vec![CTok::Spec(FNPTR.into())]);
                        return;
                    }
                }
                return refuse(self, "this `typedef`");
            };
            let mut alias = specs.clone();
            alias.extend(rest[..stars].iter().filter(|t| t.1 == CTok::P("*")).map(|t| t.1.clone()));
            match rest.get(stars + 1).map(|t| &t.1) {
                None => {
                    self.aliases.insert(name.clone(), alias);
                    return;
                }
                Some(CTok::P(",")) => {
                    self.aliases.insert(name.clone(), alias);
                    rest = &rest[stars + 2..];
                }
                Some(CTok::P("[")) => return refuse(self, "typedefs of array types"),
                Some(_) => return refuse(self, "this `typedef`"),
            }
        }
    }

    /// `struct T { fields }`, `struct { fields }`, `struct T` (and C++'s `struct T : B {`).
    fn record(&mut self, toks: &[Tok], i: usize, union: bool, out: &mut Vec<Tok>) -> usize {
        let (l, _, r0) = toks[i];
        let mut j = i + 1;
        let tag = match toks.get(j) {
            Some((_, CTok::Ident(x), _)) => {
                j += 1;
                Some(x.clone())
            }
            _ => None,
        };
        let mut base_fields = Vec::new();
        if toks.get(j).is_some_and(|t| t.1 == CTok::P(":")) && self.d == Dialect::Cuda {
            // C++ inheritance: the bases' fields come first.
            j += 1;
            while let Some((bl, t, br)) = toks.get(j) {
                match t {
                    CTok::P("{") => break,
                    CTok::Ident(w) if w == "public" || w == "private" || w == "protected" => {}
                    CTok::P(",") => {}
                    CTok::Ident(b) => match self.tags.get(b) {
                        Some(&n) => base_fields.extend(self.table.structs[n].fields.clone()),
                        None => self.errors.push(Diagnostic::error(format!("`{b}` is not a struct"), Span::new(*bl, *br))),
                    },
                    _ => self.errors.push(Diagnostic::error("expected a base struct", Span::new(*bl, *br))),
                }
                j += 1;
            }
        }
        let defining = toks.get(j).is_some_and(|t| t.1 == CTok::P("{"));
        let id = match tag.as_ref().and_then(|t| self.tags.get(t)) {
            Some(&n) if !(defining && self.table.structs[n].defined) => n,
            _ => {
                let n = self.table.structs.len();
                self.table.structs.push(StructDecl {
                    tag: tag.clone().unwrap_or_else(|| "<anonymous>".into()),
                    fields: Vec::new(),
                    defined: false,
                    union,
                    span: Span::new(l, r0),
                });
                if let Some(t) = &tag {
                    self.tags.insert(t.clone(), n);
                    if self.d == Dialect::Cuda {
                        // In C++ the tag names the type on its own.
                        self.aliases.insert(t.clone(), vec![CTok::Spec(struct_word(n))]);
                    }
                }
                n
            }
        };
        let mut end = j;
        if defining {
            let close = closing(toks, j);
            let body = self.run(&toks[j + 1..close.min(toks.len())]);
            // `sizeof(T)` in an array field's size, of the types declared so far.
            let body = crate::sema::layout::fold_sizeof(body, &self.table, self.d);
            let mut fields = base_fields;
            match (self.parse_fields)(body) {
                Ok(fs) => {
                    for x in fs.iter().flat_map(|d| &d.decls).filter(|x| x.reference) {
                        self.errors.push(Diagnostic::error("not supported: a reference as a struct field", x.span));
                    }
                    fields.extend(fs)
                }
                Err(e) => self.errors.push(e.with_help("a struct holds field declarations only (no member functions)")),
            }
            let s = &mut self.table.structs[id];
            s.fields = fields;
            s.defined = true;
            s.span = Span::new(l, toks.get(close).map(|t| t.2).unwrap_or(r0));
            end = close + 1;
        } else if tag.is_none() {
            self.errors.push(Diagnostic::error("a struct needs a tag or a body", Span::new(l, r0)));
        }
        out.push((l, CTok::Spec(struct_word(id)), toks.get(end.saturating_sub(1)).map(|t| t.2).unwrap_or(r0)));
        end
    }

    /// `enum T { A, B = 3 }` (its enumerators become constants) or `enum T`: the type `int`.
    fn enumeration(&mut self, toks: &[Tok], i: usize, out: &mut Vec<Tok>) -> usize {
        let (l, _, r) = toks[i];
        let mut j = i + 1;
        if matches!(toks.get(j), Some((_, CTok::Ident(_), _))) {
            j += 1;
        }
        if toks.get(j).is_some_and(|t| t.1 == CTok::P(":")) {
            // C++11 `enum E : unsigned`: the underlying type is a 32-bit word either way.
            j += 1;
            while matches!(toks.get(j), Some((_, CTok::Spec(_), _))) {
                j += 1;
            }
        }
        if toks.get(j).is_some_and(|t| t.1 == CTok::P("{")) {
            let close = closing(toks, j).min(toks.len());
            let mut next: i64 = 0;
            let mut k = j + 1;
            while k < close {
                let item_end = (k..close).find(|&m| toks[m].1 == CTok::P(",")).unwrap_or(close);
                let item = &toks[k..item_end];
                if let Some((il, CTok::Ident(name), ir)) = item.first() {
                    let value = if item.len() > 1 {
                        let resolved = self.run(&item[2..]);
                        match (self.parse_const)(resolved) {
                            Some(v) => v,
                            None => {
                                self.errors.push(Diagnostic::error(
                                    format!("the value of enumerator `{name}` is not a constant kpl can evaluate"),
                                    Span::new(*il, *ir),
                                ));
                                next
                            }
                        }
                    } else {
                        next
                    };
                    self.enumerators.insert(name.clone(), (value, false));
                    next = value.wrapping_add(1);
                } else if !item.is_empty() {
                    let (il, _, ir) = item[0];
                    self.errors.push(Diagnostic::error("expected an enumerator", Span::new(il, ir)));
                }
                k = item_end + 1;
            }
            j = close + 1;
        }
        out.push((l, CTok::Spec("int".into()), r));
        j
    }
}

/// Is an identifier between `out` and `next` a declarator's name: after a type (a
/// specifier or `*`) and before `=`, `;`, `,`, `[` or `)`?
fn declares(out: &[Tok], next: Option<&Tok>) -> bool {
    let after_type = matches!(out.last(), Some((_, CTok::Spec(_) | CTok::P("*"), _)));
    after_type && matches!(next, Some((_, CTok::P("=" | ";" | "," | "[" | ")"), _)))
}

/// Is the next token a member name (after `.` or `->`), which no declaration renames?
fn is_member(out: &[Tok]) -> bool {
    matches!(out.last(), Some((_, CTok::P("." | "->"), _)))
}

/// The pointer-sized integer types kpl predefines, which a file may define again only as
/// the same type.
pub(crate) const PREDEFINED_SIZES: &[&str] = &["size_t", "ptrdiff_t", "intptr_t", "uintptr_t"];

/// `typedef unsigned int uint;` (`ushort`, `uchar`, `ulong`, `size_t`, `uintptr_t`, and the
/// signed `ptrdiff_t`, `intptr_t`): the specifiers
/// before a name kpl predefines give its size and signedness.
fn redefines_builtin(specs: &[CTok], pointer_bytes: u64) -> bool {
    let words: Vec<&str> = specs.iter().filter_map(|t| if let CTok::Spec(w) = t { Some(w.as_str()) } else { None }).collect();
    let Some((name, ty)) = words.split_last() else { return false };
    let signed = ["ptrdiff_t", "intptr_t"].contains(name);
    if ty.is_empty() || !(signed || ["uint", "ushort", "uchar", "ulong", "size_t", "uintptr_t"].contains(name)) {
        return false;
    }
    let size = crate::sema::layout::scalar_size(ty, false, pointer_bytes);
    size.is_some() && size == crate::sema::layout::scalar_size(&[name], false, pointer_bytes) && ty.contains(&"unsigned") != signed
}
