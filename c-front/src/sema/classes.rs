//! C++ classes with member functions in CUDA code, on the token stream after templates are
//! instantiated: a `struct` or `class` keeps its data members as a C struct, and each
//! `__device__` member function becomes a free function `C__m` whose first parameter
//! `C &__kpl_this` is the object (`const` for a `const` member function), so that a field
//! `x` in its body is `__kpl_this.x`, `this->x` the same, and a call `obj.m(a)`,
//! `p->m(a)` or `arr[i].m(a)` of a variable whose declared type is `C` is `C__m(obj, a)`.
//! A static member function takes no object. A class without data members (CUDA's
//! `SharedMemory<T>` helper) is no struct: its variables are dropped, its member functions
//! take no object, and a temporary `C()` is converted by its conversion operator
//! (`operator T *()`). A member function defined outside its class (`float C::m() {...}`,
//! `C__m` after `namespaces.rs`) is read as if defined inside it. Constructors, destructors
//! with a body, overloaded operators and member functions, base classes and static data
//! members are refused with a diagnostic that says so.

use crate::sema::coop::{closing, ident, is_p, span_of as span, split_commas};
use crate::text::tokens::CTok;
use kpl_lang::diagnostic::Diagnostic;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

/// The object parameter of a member function.
const THIS: &str = "__kpl_this";

fn word(t: Option<&Tok>) -> Option<&str> {
    match t.map(|t| &t.1) {
        Some(CTok::Ident(w) | CTok::Spec(w)) => Some(w.as_str()),
        _ => None,
    }
}

fn at(t: &Tok, c: CTok) -> Tok {
    (t.0, c, t.2)
}


struct Method {
    /// The free function's name.
    name: String,
    /// Static, or of a class without data members: no object parameter.
    no_object: bool,
}

struct Class {
    fields: Vec<String>,
    methods: HashMap<String, Method>,
    /// The function a conversion operator became (the first not `const`, else the first),
    /// and that operator's place among the class's member functions.
    conversion: Option<(String, usize)>,
    /// Constant static data members: the tokens each use becomes, `((T)(value))`.
    statics: HashMap<String, Vec<Tok>>,
    /// `operator[]`'s free function (of the first not `const`, else the first) and its
    /// place among the class's member functions.
    index: Option<(String, usize)>,
    /// The constructors with a body, by their number of parameters: the functions that
    /// make an object (`constructors.rs`).
    ctors: HashMap<usize, String>,
}

/// One member function of a class body.
struct MemberFn {
    /// Declaration words before the name (return type, `__device__`, `static`, ...).
    head: Vec<Tok>,
    /// The name's tokens (`m`, `operator float *`, `~C`).
    name: Vec<Tok>,
    /// The parameters, between the parentheses.
    params: Vec<Tok>,
    /// Qualifiers after the parameters (`const`).
    konst: bool,
    /// The body, braces included (`None`: a declaration only).
    body: Option<Vec<Tok>>,
    /// A constructor's member initialiser list (the tokens after its `:`; `None`: none).
    inits: Option<Vec<Tok>>,
}

/// The members of a class body (between its braces): data member declarations (kept as
/// they are) and member functions.
fn members(body: &[Tok], errors: &mut Vec<Diagnostic>) -> (Vec<Tok>, Vec<MemberFn>, Vec<Static>) {
    let (mut data, mut fns, mut statics) = (Vec::new(), Vec::new(), Vec::new());
    let mut i = 0;
    while i < body.len() {
        // Access specifiers.
        if matches!(ident(body.get(i)), Some("public" | "private" | "protected")) && is_p(body.get(i + 1), ":") {
            i += 2;
            continue;
        }
        if is_p(body.get(i), ";") {
            i += 1;
            continue;
        }
        // The member's extent: to its `;`, or to its body's `}`.
        let start = i;
        let mut paren = None;
        let mut j = i;
        let mut end = None;
        while j < body.len() {
            match &body[j].1 {
                CTok::P("(") => {
                    if paren.is_none() && !body[start..j].iter().any(|t| is_p(Some(t), "=")) {
                        paren = Some(j);
                    }
                    j = closing(body, j).unwrap_or(body.len());
                }
                CTok::P("[") => j = closing(body, j).unwrap_or(body.len()),
                CTok::P("{") => {
                    let c = closing(body, j).unwrap_or(body.len() - 1);
                    if paren.is_some() {
                        end = Some((c + 1, Some(j)));
                        break;
                    }
                    j = c;
                }
                CTok::P(";") => {
                    end = Some((j + 1, None));
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        let (next, open) = end.unwrap_or((body.len(), None));
        let member = &body[start..next.min(body.len())];
        i = next;
        let Some(p) = paren else {
            let nested = member.iter().any(|t| is_p(Some(t), "{")) || member.iter().any(|t| matches!(&t.1, CTok::Kw("typedef" | "template")));
            if let Some(t) = member.iter().find(|t| matches!(&t.1, CTok::Kw("struct" | "class" | "union" | "enum" | "typedef" | "template"))).filter(|_| nested) {
                errors.push(Diagnostic::error("not supported: a type or template declared inside a class (CUDA.md tier 3)", span(t)));
            } else if let Some(t) = member.iter().find(|t| word(Some(t)) == Some("static")) {
                match constant_member(member) {
                    Some(c) => statics.push(c),
                    None => errors.push(Diagnostic::error("not supported: static data members other than constants (`static constexpr int n = 8;`, CUDA.md tier 3)", span(t))),
                }
            } else {
                data.extend(member.iter().cloned());
            }
            continue;
        };
        let p = p - start;
        // The name: `operator ...` up to the parameters, `~C`, or the identifier before them.
        let op = member[..p].iter().position(|t| ident(Some(t)) == Some("operator"));
        let name_start = match op {
            Some(o) => o,
            None if p >= 2 && is_p(member.get(p - 2), "~") => p - 2,
            None => p.saturating_sub(1),
        };
        // `operator()(...)`: the call operator's parameters are the second parentheses.
        let p = if op.is_some() && p == name_start + 1 && is_p(member.get(p + 1), ")") { p + 2 } else { p };
        // The parameters' `)`, before the body: anything else is no member function kpl reads.
        let stop = open.map_or(member.len(), |o| o - start);
        let close = closing(member, p).filter(|&c| is_p(member.get(p), "(") && c < stop && name_start < p);
        let Some(close) = close else {
            errors.push(Diagnostic::error("expected a member declaration or a member function", span(&member[p.min(member.len() - 1)])));
            continue;
        };
        let after = &member[close + 1..stop];
        fns.push(MemberFn {
            head: member[..name_start].to_vec(),
            name: member[name_start..p].to_vec(),
            params: member[p + 1..close].to_vec(),
            konst: after.iter().any(|t| word(Some(t)) == Some("const")),
            body: open.map(|o| member[o - start..].to_vec()),
            inits: is_p(after.first(), ":").then(|| after[1..].to_vec()),
        });
    }
    (data, fns, statics)
}

/// A class's constant static data member: its name, type and value.
struct Static {
    name: String,
    ty: Vec<Tok>,
    value: Vec<Tok>,
}

/// `static constexpr const int n = e;` (one declarator, a constant with a value): the member.
fn constant_member(member: &[Tok]) -> Option<Static> {
    let eq = member.iter().position(|t| is_p(Some(t), "="))?;
    let name = ident(member.get(eq.checked_sub(1)?))?.to_string();
    let words = &member[..eq - 1];
    if !words.iter().any(|t| matches!(word(Some(t)), Some("const" | "constexpr"))) {
        return None;
    }
    let end = member.len() - usize::from(is_p(member.last(), ";"));
    let value = member[eq + 1..end].to_vec();
    // One declarator only.
    if split_commas(&value).len() > 1 {
        return None;
    }
    let ty: Vec<Tok> = words.iter().filter(|t| !matches!(word(Some(t)), Some("static" | "const" | "constexpr" | "inline" | "__device__" | "__host__"))).cloned().collect();
    (!ty.is_empty() && !value.is_empty()).then_some(Static { name, ty, value })
}

/// The names a data member declaration declares (`float x, y;`, `int a[4];`).
fn field_names(data: &[Tok]) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut skip = false;
    for (k, t) in data.iter().enumerate() {
        match &t.1 {
            CTok::P("(" | "[" | "{") => depth += 1,
            CTok::P(")" | "]" | "}") => depth -= 1,
            CTok::P("=") if depth == 0 => skip = true,
            CTok::P("," | ";") if depth == 0 => skip = false,
            CTok::Ident(n) if depth == 0 && !skip => {
                if matches!(data.get(k + 1).map(|t| &t.1), Some(CTok::P("," | ";" | "[" | "=" | ":"))) {
                    out.push(n.clone());
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether the identifier at `k` is declared there (`float x`, `T *p`, `C &v`, followed by
/// `,` `;` `=` `)` or `[`): the index of the type word before it.
fn declared_at(toks: &[Tok], k: usize) -> Option<usize> {
    ident(toks.get(k))?;
    if !matches!(toks.get(k + 1).map(|t| &t.1), None | Some(CTok::P("," | ";" | "=" | ")" | "["))) {
        return None;
    }
    let mut j = k;
    while j > 0 && (is_p(toks.get(j - 1), "*") || is_p(toks.get(j - 1), "&")) {
        j -= 1;
    }
    let ty = j.checked_sub(1)?;
    let boundary = |b: usize| b == 0 || matches!(&toks[b - 1].1, CTok::P(";" | "{" | "}" | "(" | ",") | CTok::Spec(_));
    match &toks[ty].1 {
        CTok::Spec(_) => Some(ty),
        CTok::Ident(_) if boundary(ty) => Some(ty),
        _ => None,
    }
}

/// The names the parameters and local declarations of a member function declare, which
/// hide fields of the same name.
fn locals(params: &[Tok], body: &[Tok]) -> Vec<String> {
    let mut out = Vec::new();
    for toks in [params, body] {
        for k in 0..toks.len() {
            if declared_at(toks, k).is_some() {
                out.extend(ident(toks.get(k)).map(str::to_string));
            }
        }
    }
    out
}

/// A constructor with a body as the function that makes the object: `C C__ctorN(params) {
/// C __kpl_this; <member initialisers> <body> return __kpl_this; }`.
fn factory(cname: &str, class: &Class, f: &MemberFn, hide: &[String], errors: &mut Vec<Diagnostic>) -> Vec<Tok> {
    let t0 = &f.name[0];
    let body = f.body.as_deref().unwrap_or(&[]);
    if let Some(r) = body.iter().find(|t| matches!(t.1, CTok::Kw("return"))) {
        errors.push(Diagnostic::error("not supported: `return` in a constructor (CUDA.md tier 3)", span(r)));
        return Vec::new();
    }
    let n = crate::sema::constructors::arity(&f.params);
    let Some(fname) = class.ctors.get(&n) else { return Vec::new() };
    let mut out: Vec<Tok> = f.head.iter().filter(|t| !matches!(word(Some(t)), Some("static" | "virtual" | "explicit" | "constexpr" | "inline"))).cloned().collect();
    out.extend([at(t0, CTok::Ident(cname.to_string())), at(t0, CTok::Ident(fname.clone())), at(t0, CTok::P("("))]);
    if n > 0 {
        out.extend(f.params.iter().cloned());
    }
    out.extend([at(t0, CTok::P(")")), at(t0, CTok::P("{")), at(t0, CTok::Ident(cname.to_string())), at(t0, CTok::Ident(THIS.into())), at(t0, CTok::P(";"))]);
    for init in split_commas(f.inits.as_deref().unwrap_or(&[])) {
        let field = ident(init.first()).filter(|m| class.fields.iter().any(|x| x == m));
        let args = init.get(1).filter(|t| is_p(Some(t), "(") || is_p(Some(t), "{")).map(|_| &init[2..init.len().saturating_sub(1).max(2)]);
        let (Some(m), Some(args)) = (field, args) else {
            let at_tok = init.first().unwrap_or(t0);
            errors.push(Diagnostic::error("not supported: a member initialiser other than a field's (base classes, delegating constructors; CUDA.md tier 3)", span(at_tok)));
            continue;
        };
        let t = &init[0];
        out.extend([at(t, CTok::Ident(THIS.into())), at(t, CTok::P(".")), at(t, CTok::Ident(m.to_string())), at(t, CTok::P("=")), at(t, CTok::P("("))]);
        out.extend(member_body(class, args, hide));
        out.extend([at(t, CTok::P(")")), at(t, CTok::P(";"))]);
    }
    let inner = member_body(class, body, hide);
    if inner.len() >= 2 {
        out.extend(inner[1..inner.len() - 1].iter().cloned());
    }
    out.extend([at(t0, CTok::Kw("return")), at(t0, CTok::Ident(THIS.into())), at(t0, CTok::P(";")), at(t0, CTok::P("}"))]);
    out
}

/// A class's member function as a free function, or a diagnostic.
fn free_function(cname: &str, class: &Class, f: &MemberFn, locals_hide: &[String]) -> Vec<Tok> {
    let name_tok = &f.name[0];
    let method = match ident(f.name.first()) {
        Some("operator") if is_index(f) => class.index.as_ref().map(|c| c.0.clone()).unwrap_or_default(),
        Some("operator") => class.conversion.as_ref().map(|c| c.0.clone()).unwrap_or_default(),
        Some(n) => class.methods.get(n).map(|m| m.name.clone()).unwrap_or_else(|| format!("{cname}__{n}")),
        None => String::new(),
    };
    let no_object = takes_no_object(&class.fields, f);
    let mut out: Vec<Tok> = f
        .head
        .iter()
        .filter(|t| !matches!(word(Some(t)), Some("static" | "virtual" | "explicit" | "constexpr")))
        .cloned()
        .collect();
    if is_conversion(f) {
        // `operator T *()`: returns `T *`.
        out.extend(f.name[1..].iter().cloned());
    }
    out.push(at(name_tok, CTok::Ident(method)));
    out.push(at(name_tok, CTok::P("(")));
    let params: &[Tok] = if matches!(f.params.as_slice(), [t] if word(Some(t)) == Some("void")) { &[] } else { &f.params };
    if !no_object {
        if f.konst {
            out.push(at(name_tok, CTok::Spec("const".into())));
        }
        out.push(at(name_tok, CTok::Ident(cname.to_string())));
        out.push(at(name_tok, CTok::P("&")));
        out.push(at(name_tok, CTok::Ident(THIS.into())));
        if !params.is_empty() {
            out.push(at(name_tok, CTok::P(",")));
        }
    }
    out.extend(params.iter().cloned());
    out.push(at(name_tok, CTok::P(")")));
    let body = f.body.as_deref().unwrap_or(&[]);
    out.extend(member_body(class, body, locals_hide));
    out
}

/// A member function's body with its class's fields, `this` and its other member functions
/// spelled as a free function's.
fn member_body(class: &Class, body: &[Tok], hide: &[String]) -> Vec<Tok> {
    let mut out = Vec::with_capacity(body.len());
    let this = |t: &Tok| at(t, CTok::Ident(THIS.into()));
    let mut i = 0;
    while i < body.len() {
        let t = &body[i];
        let prev_member = is_p(out.last(), ".") || is_p(out.last(), "->");
        match ident(Some(t)) {
            // `this->x`, `(*this)`, `this`.
            Some("this") if is_p(body.get(i + 1), "->") && !class.fields.is_empty() => {
                let m = ident(body.get(i + 2));
                if m.is_some_and(|m| class.methods.contains_key(m)) && is_p(body.get(i + 3), "(") {
                    // `this->m(...)`: a call of a member function, below.
                    i += 2;
                    continue;
                }
                out.push(this(t));
                out.push(at(t, CTok::P(".")));
                i += 2;
                continue;
            }
            Some("this") if is_p(body.get(i + 1), "->") => {
                i += 2;
                continue;
            }
            Some("this") if is_p(out.last(), "*") => {
                out.pop();
                out.push(this(t));
                i += 1;
                continue;
            }
            Some("this") => {
                out.extend([at(t, CTok::P("(")), at(t, CTok::P("&")), this(t), at(t, CTok::P(")"))]);
                i += 1;
                continue;
            }
            Some(m) if !prev_member && is_p(body.get(i + 1), "(") && class.methods.contains_key(m) && !hide.iter().any(|h| h == m) => {
                let method = &class.methods[m];
                out.push(at(t, CTok::Ident(method.name.clone())));
                out.push(at(t, CTok::P("(")));
                if !method.no_object {
                    out.push(this(t));
                    if !is_p(body.get(i + 2), ")") {
                        out.push(at(t, CTok::P(",")));
                    }
                }
                i += 2;
                continue;
            }
            Some(f) if !prev_member && class.statics.contains_key(f) && !hide.iter().any(|h| h == f) => {
                out.extend(class.statics[f].iter().map(|x| at(t, x.1.clone())));
                i += 1;
                continue;
            }
            Some(f) if !prev_member && class.fields.iter().any(|x| x == f) && !hide.iter().any(|h| h == f) => {
                out.push(this(t));
                out.push(at(t, CTok::P(".")));
                out.push(t.clone());
                i += 1;
                continue;
            }
            _ => {}
        }
        out.push(t.clone());
        i += 1;
    }
    out
}

/// A class definition at `start` (`struct`/`class` at the start of a file-scope item):
/// its name, the index of its `{` and of its `}`.
fn class_at(toks: &[Tok], start: usize) -> Option<(String, usize, usize)> {
    if !matches!(toks.get(start).map(|t| &t.1), Some(CTok::Kw("struct" | "class"))) {
        return None;
    }
    if start > 0 && !matches!(toks[start - 1].1, CTok::P(";" | "}")) {
        return None;
    }
    let name = ident(toks.get(start + 1))?.to_string();
    let mut open = start + 2;
    if is_p(toks.get(open), ":") {
        // A base class list: up to the body.
        while open < toks.len() && !is_p(toks.get(open), "{") && !is_p(toks.get(open), ";") {
            open += 1;
        }
    }
    if !is_p(toks.get(open), "{") {
        return None;
    }
    Some((name, open, closing(toks, open)?))
}

/// The token stream with classes' member functions as free functions (see the module doc),
/// and diagnostics for what is refused.
pub fn lower(toks: Vec<Tok>) -> (Vec<Tok>, Vec<Diagnostic>) {
    let mut errors = Vec::new();
    if !toks.iter().any(|t| matches!(t.1, CTok::Kw("struct" | "class"))) {
        return (toks, errors);
    }
    // Pass 1: the classes with member functions, rewritten in place.
    let mut classes: HashMap<String, Class> = HashMap::new();
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if depth == 0 {
            if let Some((name, open, close)) = class_at(&toks, i) {
                let mut member_errors = Vec::new();
                let (data, fns, consts) = members(&toks[open + 1..close], &mut member_errors);
                if fns.is_empty() && consts.is_empty() {
                    // Data only: a C struct (`class` read as `struct`).
                    out.push(at(t, CTok::Kw("struct")));
                    i += 1;
                    continue;
                }
                errors.extend(member_errors);
                if open > i + 2 {
                    errors.push(Diagnostic::error("not supported: base classes (CUDA.md tier 3)", span(&toks[i + 2])));
                }
                let class = describe(&name, &data, &fns, &consts, &mut errors);
                // The struct of the data members (none: no struct), with the declarators
                // after the class body.
                let mut end = close + 1;
                while end < toks.len() && !is_p(toks.get(end), ";") {
                    end += 1;
                }
                if !class.fields.is_empty() {
                    out.push(at(t, CTok::Kw("struct")));
                    out.push(toks[i + 1].clone());
                    out.push(toks[open].clone());
                    out.extend(with_statics(&data, &class.statics));
                    out.push(toks[close].clone());
                    out.extend(toks[close + 1..(end + 1).min(toks.len())].iter().cloned());
                } else if end > close + 1 {
                    errors.push(Diagnostic::error("not supported: a variable of a class without data members", span(&toks[close + 1])));
                }
                for (k, f) in fns.iter().enumerate() {
                    let device = f.head.iter().any(|t| matches!(word(Some(t)), Some("__device__" | "__global__")));
                    if !device || f.body.is_none() || refused(&name, f, &mut errors) {
                        continue;
                    }
                    // Conversion operators other than the one `C()` uses.
                    if is_conversion(f) && class.conversion.as_ref().is_some_and(|c| c.1 != k) {
                        continue;
                    }
                    // `operator[]`s other than the one uses call (its `const` twin).
                    if is_index(f) && class.index.as_ref().is_some_and(|c| c.1 != k) {
                        continue;
                    }
                    let hide = locals(&f.params, f.body.as_deref().unwrap_or(&[]));
                    if ident(f.name.first()) == Some(name.as_str()) {
                        out.extend(factory(&name, &class, f, &hide, &mut errors));
                        continue;
                    }
                    out.extend(free_function(&name, &class, f, &hide));
                }
                classes.insert(name, class);
                i = end + 1;
                continue;
            }
        }
        if depth == 0 && is_p(toks.get(i + 1), "(") {
            if let Some(next) = outside_definition(&toks, i, &classes, &mut out, &mut errors) {
                i = next;
                continue;
            }
        }
        match &t.1 {
            CTok::P("{") => depth += 1,
            CTok::P("}") => depth = depth.saturating_sub(1),
            _ => {}
        }
        out.push(t.clone());
        i += 1;
    }
    if classes.is_empty() {
        return (out, errors);
    }
    (uses(resolve_aliases(out, &classes), &classes), errors)
}

/// `float C__m(...) const { ... }` at `i` (the name): a member function `m` of class `C`
/// defined outside it, whose head is the end of `out`. Emits it as a free function and
/// gives the index after it.
fn outside_definition(toks: &[Tok], i: usize, classes: &HashMap<String, Class>, out: &mut Vec<Tok>, errors: &mut Vec<Diagnostic>) -> Option<usize> {
    let full = ident(toks.get(i))?;
    let (cname, class, m) = classes.iter().find_map(|(c, class)| {
        let m = full.strip_prefix(c.as_str())?.strip_prefix("__")?;
        class.methods.contains_key(m).then_some((c, class, m))
    })?;
    let close = closing(toks, i + 1)?;
    let open = (close + 1..toks.len()).find(|&k| !matches!(&toks[k].1, CTok::Spec(_) | CTok::Ident(_)))?;
    if !is_p(toks.get(open), "{") {
        // A declaration, or a call at file scope: left as it is.
        return None;
    }
    let end = closing(toks, open)?;
    let from = out.iter().rposition(|t| matches!(t.1, CTok::P(";" | "}"))).map_or(0, |p| p + 1);
    let mut head: Vec<Tok> = out.drain(from..).collect();
    if !head.iter().any(|t| matches!(word(Some(t)), Some("__device__" | "__global__"))) {
        head.insert(0, at(&toks[i], CTok::Spec("__device__".into())));
    }
    let f = MemberFn {
        head,
        name: vec![at(&toks[i], CTok::Ident(m.to_string()))],
        params: toks[i + 2..close].to_vec(),
        konst: toks[close + 1..open].iter().any(|t| word(Some(t)) == Some("const")),
        body: Some(toks[open..=end].to_vec()),
        inits: None,
    };
    if !refused(cname, &f, errors) {
        let hide = locals(&f.params, f.body.as_deref().unwrap_or(&[]));
        out.extend(free_function(cname, class, &f, &hide));
    }
    Some(end + 1)
}

/// Is member function `f` of class `cname` one kpl refuses (with a diagnostic)?
fn refused(cname: &str, f: &MemberFn, errors: &mut Vec<Diagnostic>) -> bool {
    let first = &f.name[0];
    let what = match ident(f.name.first()) {
        Some(n) if n == cname => None,
        Some("operator") if !is_conversion(f) && !is_index(f) => Some("overloaded operators other than `[]` and conversions"),
        None if is_p(f.name.first(), "~") => {
            let empty = f.body.as_ref().is_some_and(|b| b.len() == 2);
            (!empty).then_some("destructors")
        }
        _ if f.inits.is_some() => Some("member initialiser lists on functions other than constructors"),
        _ => None,
    };
    if let Some(w) = what {
        errors.push(Diagnostic::error(format!("not supported: {w} (CUDA.md tier 3)"), span(first)));
    }
    what.is_some() || is_p(f.name.first(), "~")
}

/// Does member function `f` take no object (`static`, or of a class without data members)?
fn takes_no_object(fields: &[String], f: &MemberFn) -> bool {
    fields.is_empty() || f.head.iter().any(|t| word(Some(t)) == Some("static"))
}

/// Is `f` a conversion operator (`operator T *()`)?
fn is_conversion(f: &MemberFn) -> bool {
    ident(f.name.first()) == Some("operator") && f.name[1..].iter().any(|t| matches!(&t.1, CTok::Spec(_) | CTok::Ident(_))) && f.params.is_empty()
}

/// Is `f` `operator[]`?
fn is_index(f: &MemberFn) -> bool {
    ident(f.name.first()) == Some("operator") && f.name.len() == 3 && is_p(f.name.get(1), "[") && is_p(f.name.get(2), "]")
}

/// The tokens of `toks` (a class's data members, a constant's value) with each constant
/// static member named bare replaced by its value.
fn with_statics(toks: &[Tok], statics: &HashMap<String, Vec<Tok>>) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    for t in toks {
        let prev_member = is_p(out.last(), ".") || is_p(out.last(), "->");
        match ident(Some(t)).and_then(|n| statics.get(n).filter(|_| !prev_member)) {
            Some(v) => out.extend(v.iter().map(|x| at(t, x.1.clone()))),
            None => out.push(t.clone()),
        }
    }
    out
}

/// What the rest of the file needs to know of class `name`.
fn describe(name: &str, data: &[Tok], fns: &[MemberFn], consts: &[Static], errors: &mut Vec<Diagnostic>) -> Class {
    let fields = field_names(data);
    let mut statics: HashMap<String, Vec<Tok>> = HashMap::new();
    for c in consts {
        let t = &c.value[0];
        let mut v = vec![at(t, CTok::P("(")), at(t, CTok::P("("))];
        v.extend(c.ty.iter().cloned());
        v.extend([at(t, CTok::P(")")), at(t, CTok::P("("))]);
        v.extend(with_statics(&c.value, &statics));
        v.extend([at(t, CTok::P(")")), at(t, CTok::P(")"))]);
        statics.insert(c.name.clone(), v);
    }
    let mut ctors: HashMap<usize, String> = HashMap::new();
    let mut index: Option<(String, usize, bool)> = None;
    let mut methods: HashMap<String, Method> = HashMap::new();
    let mut conversion: Option<(String, usize, bool)> = None;
    for (k, f) in fns.iter().enumerate() {
        if !f.head.iter().any(|t| matches!(word(Some(t)), Some("__device__" | "__global__"))) {
            continue;
        }
        if ident(f.name.first()) == Some(name) {
            if f.body.is_some() {
                let n = crate::sema::constructors::arity(&f.params);
                if ctors.insert(n, format!("{name}__ctor{n}")).is_some() {
                    errors.push(Diagnostic::error(format!("not supported: two constructors of {n} parameters (overloads by type, CUDA.md tier 3)"), span(&f.name[0])));
                }
            }
            continue;
        }
        if is_index(f) {
            if index.as_ref().is_none_or(|c| c.2 && !f.konst) {
                index = Some((format!("{name}__index"), k, f.konst));
            }
            continue;
        }
        if is_conversion(f) {
            let n = format!("{name}__conversion");
            // The first conversion operator that is not `const` (they all give the object's
            // one pointer in `SharedMemory`).
            if conversion.as_ref().is_none_or(|c| c.2 && !f.konst) {
                conversion = Some((n, k, f.konst));
            }
            continue;
        }
        let Some(m) = ident(f.name.first()).filter(|m| *m != name && *m != "operator") else { continue };
        if methods.contains_key(m) {
            errors.push(Diagnostic::error(format!("not supported: overloaded member functions (`{m}`, CUDA.md tier 3)"), span(&f.name[0])));
            continue;
        }
        methods.insert(m.to_string(), Method { name: format!("{name}__{m}"), no_object: takes_no_object(&fields, f) });
    }
    Class { fields, methods, conversion: conversion.map(|c| (c.0, c.1)), statics, index: index.map(|c| (c.0, c.1)), ctors }
}

/// The declared class of each variable `toks` declares (the class named right before it,
/// `*` and `&` between), and whether it is an object itself (no `*` before it, no `[`
/// after it). A name also declared with another type, or with another class (in two
/// blocks), maps to no class (`""`): no member call is read through it.
fn class_vars(toks: &[Tok], classes: &HashMap<String, Class>) -> HashMap<String, (String, bool)> {
    let mut out: HashMap<String, (String, bool)> = HashMap::new();
    for k in 0..toks.len() {
        // `C v(args)`, `C v{args}`: an object made by a constructor.
        let constructed = (is_p(toks.get(k + 1), "(") || is_p(toks.get(k + 1), "{"))
            && ident(toks.get(k)).is_some()
            && k > 0
            && ident(toks.get(k - 1)).is_some_and(|c| classes.get(c).is_some_and(|c| !c.ctors.is_empty()))
            && (k < 2 || matches!(toks[k - 2].1, CTok::P(";" | "{" | "}") | CTok::Spec(_)));
        let declared = declared_at(toks, k).or(constructed.then(|| k - 1));
        let (Some(ty), Some(n)) = (declared, ident(toks.get(k))) else { continue };
        let c = ident(toks.get(ty)).filter(|c| classes.contains_key(*c)).unwrap_or("");
        let object = !toks[ty + 1..k].iter().any(|t| is_p(Some(t), "*")) && !is_p(toks.get(k + 1), "[");
        let v = match out.get(n) {
            Some(d) if d.0 != c || d.1 != object => (String::new(), false),
            _ => (c.to_string(), object),
        };
        out.insert(n.to_string(), v);
    }
    out
}

/// Type aliases of classes with member functions (`typedef C A;`, what `using A = C;`
/// became): each dropped, and `A` (and `A__m`, `A::m` flattened) read as `C` everywhere.
fn resolve_aliases(toks: Vec<Tok>, classes: &HashMap<String, Class>) -> Vec<Tok> {
    let mut aliases: HashMap<String, String> = HashMap::new();
    let mut drop = std::collections::HashSet::new();
    for k in 0..toks.len() {
        if matches!(toks[k].1, CTok::Kw("typedef")) && is_p(toks.get(k + 3), ";") {
            if let (Some(c), Some(a)) = (ident(toks.get(k + 1)).filter(|c| classes.contains_key(*c)), ident(toks.get(k + 2))) {
                let c = aliases.get(c).cloned().unwrap_or_else(|| c.to_string());
                aliases.insert(a.to_string(), c);
                drop.insert(k);
            }
        }
    }
    if aliases.is_empty() {
        return toks;
    }
    let mut out = Vec::with_capacity(toks.len());
    let mut k = 0;
    while k < toks.len() {
        if drop.contains(&k) {
            k += 4;
            continue;
        }
        let t = &toks[k];
        let renamed = ident(Some(t)).and_then(|n| match aliases.get(n) {
            Some(c) => Some(c.clone()),
            None => n.split_once("__").and_then(|(a, m)| aliases.get(a).map(|c| format!("{c}__{m}"))),
        });
        out.push(match renamed {
            Some(n) => at(t, CTok::Ident(n)),
            None => t.clone(),
        });
        k += 1;
    }
    out
}

/// The tokens of `toks` outside every brace and parenthesis: file-scope declarations.
fn file_scope(toks: &[Tok]) -> Vec<Tok> {
    let mut depth = 0i32;
    let mut out = Vec::new();
    for t in toks {
        match &t.1 {
            CTok::P("{" | "(") => depth += 1,
            CTok::P(")") => depth -= 1,
            // The end of a body ends a declaration: `A v;` after it starts afresh.
            CTok::P("}") => {
                depth -= 1;
                if depth == 0 {
                    out.push((t.0, CTok::P(";"), t.2));
                }
            }
            _ if depth == 0 => out.push(t.clone()),
            _ => {}
        }
    }
    out
}

/// Calls of member functions, temporaries converted by a conversion operator, variables
/// of classes without data members, constant static members (`C__n`, `v.n`), `v[i]` of an
/// object with `operator[]`, and constructors (`constructors.rs`), in the rest of the file.
fn uses(toks: Vec<Tok>, classes: &HashMap<String, Class>) -> Vec<Tok> {
    let globals = class_vars(&file_scope(&toks), classes);
    // `C__n` of a constant static member `n` of class `C`.
    let qualified: HashMap<String, &Vec<Tok>> = classes.iter().flat_map(|(c, class)| class.statics.iter().map(move |(n, v)| (format!("{c}__{n}"), v))).collect();
    let mut out = Vec::with_capacity(toks.len());
    let mut depth = 0usize;
    let mut vars = globals.clone();
    // Inside a function body, the declarations of each open block, innermost last: they
    // hide the function-wide `vars` (where one name is declared with two classes in two
    // blocks, `vars` knows neither).
    let mut scopes: Vec<HashMap<String, (String, bool)>> = Vec::new();
    // The brackets that close a call made of other brackets (`v[i]` became
    // `C__index(v, i)`, `C{a}` became `C__ctor1(a)`), innermost last.
    let mut closers: Vec<usize> = Vec::new();
    // A declaration of objects of a class with constructors: the class's name, and the
    // brace depth and bracket nesting of its declarators.
    let mut decl: Option<(&str, usize, i32)> = None;
    let mut nest = 0i32;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if closers.last() == Some(&i) {
            closers.pop();
            out.push(at(t, CTok::P(")")));
            nest -= 1;
            i += 1;
            continue;
        }
        match &t.1 {
            CTok::P("{") => {
                if depth == 0 {
                    // A function body: its parameters' and locals' classes (the parameters
                    // are before the body, in the item's tokens).
                    let from = out.iter().rposition(|t: &Tok| matches!(t.1, CTok::P(";" | "}"))).map_or(0, |p| p + 1);
                    let close = closing(&toks, i).unwrap_or(toks.len() - 1);
                    let mut item: Vec<Tok> = out[from..].to_vec();
                    item.extend(toks[i..=close.min(toks.len() - 1)].iter().cloned());
                    vars = globals.clone();
                    vars.extend(class_vars(&item, classes));
                    scopes.clear();
                }
                depth += 1;
                scopes.push(HashMap::new());
            }
            CTok::P("}") => {
                depth = depth.saturating_sub(1);
                scopes.pop();
            }
            CTok::P("(" | "[") => nest += 1,
            CTok::P(")" | "]") => nest -= 1,
            CTok::P(";") => decl = None,
            _ => {}
        }
        // A declarator of objects with constructors, right after the class name or a `,`.
        if let Some((c, d, n)) = decl {
            let starts = is_p(out.last(), ",") || ident(out.last()) == Some(c);
            if d == depth && n == nest && starts && ident(Some(t)) != Some(THIS) {
                if let Some((repl, next)) = crate::sema::constructors::declarator(&toks, i, &classes[c].ctors) {
                    out.extend(repl);
                    i = next;
                    continue;
                }
            }
        }
        let prev_member = i > 0 && (is_p(toks.get(i - 1), ".") || is_p(toks.get(i - 1), "->"));
        if let Some(n) = ident(Some(t)).filter(|_| !prev_member) {
            if let Some(v) = qualified.get(n) {
                out.extend(v.iter().map(|x| at(t, x.1.clone())));
                i += 1;
                continue;
            }
            let after_tag = matches!(out.last().map(|t: &Tok| &t.1), Some(CTok::Kw("struct" | "class")));
            if let Some((cname, class)) = classes.get_key_value(n).filter(|(_, c)| !c.ctors.is_empty() && !after_tag) {
                let statement = matches!(out.last().map(|t: &Tok| &t.1), Some(CTok::P(";" | "{" | "}") | CTok::Spec(_)));
                if depth > 0 && statement && ident(toks.get(i + 1)).is_some() {
                    // `C v...;` in a function: a declaration of objects.
                    decl = Some((cname.as_str(), depth, nest));
                } else if let Some((f, open, close)) = crate::sema::constructors::temporary(&toks, i, &class.ctors) {
                    // `C(args)`, `C{args}`: a temporary made by a constructor.
                    out.push(at(t, CTok::Ident(f.to_string())));
                    out.push(at(&toks[open], CTok::P("(")));
                    closers.push(close);
                    nest += 1;
                    i = open + 1;
                    continue;
                }
            }
            // `C()`: a temporary of a class without data members, converted.
            if let Some((conv, _)) = classes.get(n).filter(|c| c.fields.is_empty()).and_then(|c| c.conversion.as_ref()) {
                if is_p(toks.get(i + 1), "(") && is_p(toks.get(i + 2), ")") && !is_p(toks.get(i + 3), ".") {
                    out.push(at(t, CTok::Ident(conv.clone())));
                    i += 1;
                    continue;
                }
            }
            // `C v;` (or `C u, v;`) of a class without data members: nothing.
            if classes.get(n).is_some_and(|c| c.fields.is_empty()) && depth > 0 && matches!(out.last().map(|t: &Tok| &t.1), Some(CTok::P(";" | "{" | "}"))) {
                let mut j = i + 1;
                let mut whole = false;
                while ident(toks.get(j)).is_some() {
                    if is_p(toks.get(j + 1), ";") {
                        whole = true;
                        j += 2;
                        break;
                    }
                    if !is_p(toks.get(j + 1), ",") {
                        break;
                    }
                    j += 2;
                }
                if whole {
                    i = j;
                    continue;
                }
            }
            // A declaration here: the class of its variable, in this block.
            if let (Some(ty), Some(scope)) = (declared_at(&toks, i).filter(|_| depth > 0), scopes.last_mut()) {
                let c = ident(toks.get(ty)).filter(|c| classes.contains_key(*c)).unwrap_or("");
                let object = !toks[ty + 1..i].iter().any(|t| is_p(Some(t), "*")) && !is_p(toks.get(i + 1), "[");
                scope.insert(n.to_string(), (c.to_string(), object));
            }
            let seen = scopes.iter().rev().find_map(|s| s.get(n)).or_else(|| vars.get(n));
            if let Some((class, object)) = seen.and_then(|(c, o)| classes.get(c).map(|c| (c, *o))) {
                // `v[i]` of an object with `operator[]`: `C__index(v, i)`.
                if let (true, Some((f, _)), true) = (object, class.index.as_ref(), is_p(toks.get(i + 1), "[")) {
                    if let Some(close) = closing(&toks, i + 1) {
                        out.extend([at(t, CTok::Ident(f.clone())), at(t, CTok::P("(")), t.clone(), at(t, CTok::P(","))]);
                        closers.push(close);
                        nest += 1;
                        i += 2;
                        continue;
                    }
                }
                // `v.n` of a constant static member.
                if let Some(v) = ident(toks.get(i + 2)).and_then(|m| class.statics.get(m)).filter(|_| is_p(toks.get(i + 1), ".") || is_p(toks.get(i + 1), "->")) {
                    out.extend(v.iter().map(|x| at(t, x.1.clone())));
                    i += 3;
                    continue;
                }
                // `v.m(`, `p->m(`, `a[i].m(`.
                let mut j = i + 1;
                while is_p(toks.get(j), "[") {
                    j = closing(&toks, j).map_or(toks.len(), |c| c + 1);
                }
                let arrow = is_p(toks.get(j), "->");
                if arrow || is_p(toks.get(j), ".") {
                    if let Some(m) = ident(toks.get(j + 1)).and_then(|m| class.methods.get(m)).filter(|_| is_p(toks.get(j + 2), "(")) {
                        let name_tok = &toks[j + 1];
                        out.push(at(name_tok, CTok::Ident(m.name.clone())));
                        out.push(at(name_tok, CTok::P("(")));
                        if !m.no_object {
                            if arrow {
                                out.push(at(t, CTok::P("*")));
                            }
                            out.extend(toks[i..j].iter().cloned());
                            if !is_p(toks.get(j + 3), ")") {
                                out.push(at(name_tok, CTok::P(",")));
                            }
                        }
                        i = j + 3;
                        nest += 1;
                        continue;
                    }
                }
            }
        }
        out.push(t.clone());
        i += 1;
    }
    out
}
