//! C++ function templates and CUDA host code, on the token stream before type declarations
//! are resolved. A function template is instantiated once per distinct list of template
//! arguments the file uses (`f<128, float>(...)`, an explicit instantiation
//! `template __global__ void k<128>(int *);`, a launch `k<256><<<g, b>>>(...)` in host code)
//! or `--kernel=k<128,float>` gives: its tokens are copied with each parameter replaced by
//! its argument (a value in parentheses) and the function renamed `k_128_float`; uses
//! become that name. Arguments not written out are deduced in the simple cases (a type
//! parameter from a variable, `&variable` or literal argument, by its declared type) or
//! taken from defaults; anything else is an error that says so. A class template
//! (`template <class T> struct S {...};`) is instantiated the same way for each `S<float>`
//! the file names (its arguments written out), as `S_float`, or as its explicit
//! specialisation `template <> struct S<float> {...};` where the file has one; a function
//! template's explicit specialisation (`template <> float f<-1>(...)`) likewise. Integer
//! arguments are folded to their value (`f<i - 1>` in `f<4>` is `f<3>`), so recursive
//! templates that unroll a loop end at their specialisation. Host functions of a `.cu`
//! file (every function not `__global__` or `__device__`) are skipped with a note.

use crate::sema::template_args::*;
use crate::sema::host_items::{angle_args, function_name, items, host_class, host_function, host_variable, ident, is_p, plain_c_type, uses_undeclared};
use crate::text::tokens::{CTok, Dialect};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

/// Instantiations beyond this many are refused (a template instantiating itself forever).
const MAX_INSTANCES: usize = 256;

struct Param {
    name: String,
    /// A type parameter (`typename T`, `class T`), or a value.
    is_type: bool,
    default: Option<Vec<Tok>>,
}

struct Template {
    params: Vec<Param>,
    /// The declaration after `template <...>`.
    body: Vec<Tok>,
    /// Where the function's name is in `body`.
    name_at: usize,
    /// Instances by mangled name, in order of first use: their argument lists.
    instances: Vec<(String, Vec<Vec<Tok>>)>,
    /// A class template (`template <class T> struct S { ... };`): its arguments are
    /// always written out (`S<float>`), never deduced from a call.
    class: bool,
    /// Explicit specialisations (`template <> struct S<double> {...};`, `template <> float
    /// f<-1>(...) {...}`): their arguments, and their declaration with its name at `name_at`
    /// and the arguments after it.
    special: Vec<(Vec<Vec<Tok>>, Vec<Tok>, usize)>,
    /// A host function template (`template <class T> void run(T *x)` in a `.cu` file):
    /// instantiated only by calls in host code whose arguments give every parameter, its
    /// instances host code (`launches.rs` reads their launches, whose kernel templates'
    /// arguments its parameters' types then give).
    host: bool,
}

pub struct Output {
    pub toks: Vec<Tok>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
    /// `--kernel=k<...>`: the name of that instance.
    pub kernel: Option<String>,
    /// Host variables device code names, kept as `__device__` variables.
    pub host_variables: Vec<String>,
    /// The host functions skipped, as items of tokens (`launches.rs` reads their launches).
    pub host: Vec<Vec<Tok>>,
    /// The `__global__` function templates nothing in the file instantiates (a kernel
    /// `--kernel=k<...>` can name).
    pub kernel_templates: Vec<String>,
}

fn params(list: Vec<Vec<Tok>>) -> Option<Vec<Param>> {
    list.into_iter()
        .map(|p| {
            let eq = p.iter().position(|t| is_p(t, "="));
            let (head, default) = match eq {
                Some(e) => (&p[..e], Some(p[e + 1..].to_vec())),
                None => (&p[..], None),
            };
            let is_type = head
                .first()
                .is_some_and(|t| ident(t) == Some("typename") || matches!(t.1, CTok::Kw("class")));
            let name = head.iter().rev().find_map(ident)?.to_string();
            Some(Param {
                name,
                is_type,
                default,
            })
        })
        .collect()
}

/// The arguments of the call whose `(` is at `open`, split at top-level commas.
fn call_args(toks: &[Tok], open: usize) -> Option<Vec<Vec<Tok>>> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    for t in &toks[open + 1..] {
        match &t.1 {
            CTok::P("(") | CTok::P("[") | CTok::P("{") => depth += 1,
            CTok::P(")") if depth == 0 => {
                let args = if args.len() == 1 && args[0].is_empty() {
                    Vec::new()
                } else {
                    args
                };
                return Some(args);
            }
            CTok::P(")") | CTok::P("]") | CTok::P("}") => depth = depth.checked_sub(1)?,
            CTok::P(",") if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            CTok::P(";") => return None,
            _ => {}
        }
        args.last_mut()?.push(t.clone());
    }
    None
}

struct Pass {
    templates: HashMap<String, Template>,
    /// Function templates of one name told apart by their number of parameters: each one's
    /// fewest and most arguments (defaults), and its key in `templates`.
    overloads: HashMap<String, Vec<(usize, usize, String)>>,
    errors: Vec<Diagnostic>,
    count: usize,
    /// The declared types of the file's variables (`float *buffer;` at file scope), seen
    /// by every call that does not declare the name itself.
    file_decls: HashMap<String, (Vec<Tok>, bool)>,
}

/// The fewest and most arguments a function declaration (its name at `name_at`) takes.
fn arguments_taken(body: &[Tok], name_at: usize) -> Option<(usize, usize)> {
    let open = name_at + 1;
    if !body.get(open).is_some_and(|t| is_p(t, "(")) {
        return None;
    }
    let close = crate::sema::typedecls::closing(body, open);
    let params = body.get(open + 1..close)?;
    let n = crate::sema::constructors::arity(params);
    let defaults = crate::sema::coop::split_commas(params).iter().filter(|p| p.iter().any(|t| is_p(t, "="))).count();
    Some((n - defaults.min(n), n))
}

impl Pass {
    /// The instance of template `name` for `args` (defaults filled in), recorded if new.
    fn instance(&mut self, name: &str, mut args: Vec<Vec<Tok>>, span: Span) -> Option<String> {
        let t = self.templates.get_mut(name)?;
        if args.len() > t.params.len() {
            self.errors.push(Diagnostic::error(
                format!(
                    "`{name}` takes {} template argument(s), not {}",
                    t.params.len(),
                    args.len()
                ),
                span,
            ));
            return None;
        }
        for p in &t.params[args.len()..] {
            match &p.default {
                Some(d) => args.push(d.clone()),
                None => {
                    self.errors.push(
                        Diagnostic::error(format!("kpl cannot tell template argument `{}` of `{name}`", p.name), span)
                            .with_help("kpl deduces a type argument only from a variable, `&variable`, `p + i`, `&p[i]`, a literal or an arithmetic expression of those: write the arguments out, as in `f<float, 128>(...)`"),
                    );
                    return None;
                }
            }
        }
        for (a, p) in args.iter_mut().zip(&t.params) {
            if !p.is_type {
                if let Some(folded) = fold_integer(a) {
                    *a = folded;
                }
            }
        }
        if let Some((m, _)) = t.instances.iter().find(|(_, a)| same(a, &args)) {
            return Some(m.clone());
        }
        if self.count >= MAX_INSTANCES {
            self.errors.push(Diagnostic::error(format!("more than {MAX_INSTANCES} template instances: `{name}` instantiates without end?"), span));
            return None;
        }
        self.count += 1;
        let mut m = mangle(name, &args);
        while t.instances.iter().any(|(x, _)| *x == m) {
            m.push('_');
        }
        t.instances.push((m.clone(), args));
        Some(m)
    }

    /// Replace every use `f<args>(...)` or `f(...)` of a template `f` in `toks` by its
    /// instance's name: arguments written out, then those deduced from the call
    /// (`deduce`), then defaults. A use whose arguments are still missing is an error.
    fn uses(&mut self, toks: Vec<Tok>) -> Vec<Tok> {
        self.uses_with(toks, &|_| HashMap::new(), false)
    }

    /// `uses`, where a name in a template argument written out at token `k` may be one of
    /// `consts(k)`: a host function's local constant (`const uint BM = 64;
    /// k<BM><<<...>>>`), replaced by its value so that the instance is the one the launch
    /// makes.
    fn uses_with(
        &mut self,
        toks: Vec<Tok>,
        consts: &dyn Fn(usize) -> HashMap<String, i64>,
        host: bool,
    ) -> Vec<Tok> {
        let mut decls = self.file_decls.clone();
        decls.extend(declared_types(&toks));
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            // A host function template is instantiated by host code's calls alone.
            let known = |n: &&str| self.templates.get(*n).is_some_and(|t| host || !t.host);
            if let Some(n) = ident(t).filter(known) {
                let mut n = n.to_string();
                // An overload by number of parameters: the one the call's arguments fit.
                if let Some(list) = self.overloads.get(&n) {
                    let after = toks.get(i + 1).filter(|x| is_p(x, "<")).and_then(|_| angle_args(&toks, i + 1)).map_or(i + 1, |a| a.1);
                    let count = toks.get(after).filter(|x| is_p(x, "(")).and_then(|_| call_args(&toks, after)).map(|c| c.len());
                    if let Some(key) = count.and_then(|c| list.iter().find(|o| o.0 <= c && c <= o.1)).map(|o| o.2.clone()) {
                        n = key;
                    }
                }
                let span = Span::new(t.0, t.2);
                let (explicit, next) = match toks
                    .get(i + 1)
                    .filter(|x| is_p(x, "<"))
                    .and_then(|_| angle_args(&toks, i + 1))
                {
                    Some((args, next)) => {
                        let c = if args.is_empty() {
                            HashMap::new()
                        } else {
                            consts(i)
                        };
                        (args.into_iter().map(|a| with_values(a, &c)).collect(), next)
                    }
                    None => (Vec::new(), i + 1),
                };
                // A launch `k<<<g, b>>>(...)` passes its arguments after the `>>>`.
                let open = launch_arguments(&toks, next).unwrap_or(next);
                let call = toks
                    .get(open)
                    .filter(|x| is_p(x, "("))
                    .and_then(|_| call_args(&toks, open));
                // In host code, a value argument kpl cannot fold (`k<int_const.value>` in a
                // generic lambda) makes no instance: the launch is one kpl cannot read.
                let unknown_value = host
                    && explicit.iter().zip(&self.templates[&n].params).any(|(a, p)| !p.is_type && fold_integer(a).is_none() && a.iter().any(|t| ident(t).is_some()));
                if unknown_value {
                    out.extend(toks[i..next].iter().cloned());
                    i = next;
                    continue;
                }
                let args = match &call {
                    Some(c) if !self.templates[&n].class => self.deduce(&n, explicit, c, &decls),
                    _ => explicit,
                };
                // A host template whose arguments kpl cannot tell, or a call of one past the
                // limit of instances, is left as written: host code never blocks a kernel
                // (its launches are read from the template as written).
                let tp = &self.templates[&n];
                let untold = tp.params[args.len().min(tp.params.len())..].iter().any(|p| p.default.is_none());
                if tp.host && (untold || args.len() > tp.params.len() || call.is_none() || self.count >= MAX_INSTANCES) {
                    out.extend(toks[i..next].iter().cloned());
                    i = next;
                    continue;
                }
                let m = self.instance(&n, args, span).unwrap_or(n);
                out.push((t.0, CTok::Ident(m), t.2));
                i = next;
                continue;
            }
            out.push(t.clone());
            i += 1;
        }
        out
    }

    /// `explicit` extended by the type parameters that the call's arguments give, as
    /// C++ deduces them in the simple cases: a parameter `T x` (or `const T &x`) takes
    /// the declared type of a variable or literal argument, `T *p` the element type of an
    /// array or pointer argument (or of `&x`). Stops at the first it cannot deduce.
    fn deduce(
        &self,
        name: &str,
        mut explicit: Vec<Vec<Tok>>,
        call: &[Vec<Tok>],
        decls: &HashMap<String, (Vec<Tok>, bool)>,
    ) -> Vec<Vec<Tok>> {
        let t = &self.templates[name];
        let fparams = t
            .body
            .iter()
            .skip(t.name_at + 1)
            .position(|x| is_p(x, "("))
            .and_then(|o| call_args(&t.body, t.name_at + 1 + o));
        let Some(fparams) = fparams else {
            return explicit;
        };
        while explicit.len() < t.params.len() {
            let p = &t.params[explicit.len()];
            let by_type = |(k, fp): (usize, &Vec<Tok>)| {
                let at = fp.iter().position(|x| ident(x) == Some(p.name.as_str()))?;
                let pointer = fp.get(at + 1).is_some_and(|x| is_p(x, "*"));
                arg_type(call.get(k)?, pointer, decls)
            };
            let by_class = |(k, fp): (usize, &Vec<Tok>)| crate::sema::deduction::from_class_argument(fp, call.get(k)?, &p.name);
            let found = fparams.iter().enumerate().find_map(by_class).or_else(|| {
                if p.is_type {
                    fparams.iter().enumerate().find_map(by_type)
                } else {
                    None
                }
            });
            match found {
                Some(ty) => explicit.push(ty),
                None => break,
            }
        }
        explicit
    }

    /// Instance `k` of template `name`: its declaration with the arguments in place.
    fn expand(&self, name: &str, k: usize) -> Vec<Tok> {
        let t = &self.templates[name];
        let (mangled, args) = &t.instances[k];
        if let Some((_, body, at)) = t.special.iter().find(|(a, _, _)| same(a, args)) {
            return self.specialisation(name, mangled, body, *at, t.class);
        }
        let mut out = Vec::new();
        for (i, tok) in t.body.iter().enumerate() {
            // A class's own name in its body (`S(...)`, `S &other`) is this instance.
            if i == t.name_at
                || (t.class
                    && ident(tok) == Some(name)
                    && !t.body.get(i + 1).is_some_and(|x| is_p(x, "<")))
            {
                out.push((tok.0, CTok::Ident(mangled.clone()), tok.2));
                continue;
            }
            match ident(tok).and_then(|n| t.params.iter().position(|p| p.name == n)) {
                Some(p) if t.params[p].is_type => out.extend(args[p].iter().cloned()),
                Some(p) => {
                    out.push((tok.0, CTok::P("("), tok.0));
                    out.extend(args[p].iter().cloned());
                    out.push((tok.2, CTok::P(")"), tok.2));
                }
                None => out.push(tok.clone()),
            }
        }
        out
    }

    /// An explicit specialisation's declaration as the instance `mangled`: its name and the
    /// arguments after it, and (a class's) its own name in its body, become `mangled`.
    fn specialisation(
        &self,
        name: &str,
        mangled: &str,
        body: &[Tok],
        at: usize,
        class: bool,
    ) -> Vec<Tok> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let tok = &body[i];
            if i == at || (class && ident(tok) == Some(name)) {
                out.push((tok.0, CTok::Ident(mangled.to_string()), tok.2));
                i = match body
                    .get(i + 1)
                    .filter(|x| is_p(x, "<"))
                    .and_then(|_| angle_args(body, i + 1))
                {
                    Some((_, next)) => next,
                    None => i + 1,
                };
                continue;
            }
            out.push(tok.clone());
            i += 1;
        }
        out
    }
}

/// Instantiate the file's function templates and skip its host code (see the module doc).
pub fn instantiate(toks: Vec<Tok>, dialect: Dialect, kernel: Option<&str>) -> Output {
    let mut pass = Pass {
        templates: HashMap::new(),
        overloads: HashMap::new(),
        errors: Vec::new(),
        count: 0,
        file_decls: file_variables(&toks),
    };
    let mut warnings = Vec::new();
    // Items in order: kept tokens, or the place of a template's instances.
    enum Part {
        Keep(Vec<Tok>),
        Template(String),
    }
    let mut parts = Vec::new();
    let mut explicit: Vec<(String, Vec<Vec<Tok>>, Span)> = Vec::new();
    let mut host: Vec<Vec<Tok>> = Vec::new();
    // Host variables: their part, names, place and whether their type is plain C; those
    // device code names.
    let mut host_vars: Vec<(usize, Vec<String>, Span, bool)> = Vec::new();
    let mut adopted: Vec<String> = Vec::new();
    // Host function templates (skipped): their explicit instantiations are host code too.
    let mut host_templates = std::collections::HashSet::new();
    let mut host_template_bodies: Vec<(String, Vec<Tok>)> = Vec::new();
    for r in items(&toks) {
        let item = &toks[r];
        if dialect == Dialect::Cuda {
            if let Some((name, span)) = host_class(item) {
                warnings.push(Diagnostic::warning(
                    format!("host code skipped: class `{name}` (no `__device__` member functions)"),
                    span,
                ));
                continue;
            }
        }
        let is_template = matches!(item.first(), Some((_, CTok::Kw("template"), _)));
        if is_template && item.get(1).is_some_and(|t| is_p(t, "<")) {
            let parsed = angle_args(item, 1).and_then(|(ps, next)| {
                let ps = params(ps)?;
                let body = item[next..].to_vec();
                let name_at = class_name(&body)
                    .or_else(|| function_name(&body))
                    .or_else(|| specialised_function_name(&body))?;
                Some((ps, body, name_at))
            });
            match parsed {
                // `template <> struct S<double> { ... };`, `template <> float f<-1>(...)`: an
                // explicit specialisation of a class or function template of this file.
                Some((ps, body, name_at))
                    if ps.is_empty() && body.get(name_at + 1).is_some_and(|t| is_p(t, "<")) =>
                {
                    let name = ident(&body[name_at]).unwrap_or_default().to_string();
                    let args = angle_args(&body, name_at + 1).map(|a| a.0);
                    let class = class_name(&body) == Some(name_at);
                    match (pass.templates.get_mut(&name), args) {
                        (Some(t), Some(mut args)) if t.class == class => {
                            for (a, p) in args.iter_mut().zip(&t.params) {
                                if let Some(folded) = fold_integer(a).filter(|_| !p.is_type) {
                                    *a = folded;
                                }
                            }
                            t.special.push((args, body, name_at))
                        }
                        _ => parts.push(Part::Keep(item.to_vec())),
                    }
                }
                // A class template: `template <class T> struct S { ... };` (a partial
                // specialisation `struct S<T *>` stays unsupported).
                Some((ps, body, name_at))
                    if !ps.is_empty()
                        && class_name(&body) == Some(name_at)
                        && !body.get(name_at + 1).is_some_and(|t| is_p(t, "<")) =>
                {
                    let name = ident(&body[name_at]).unwrap_or_default().to_string();
                    if pass.templates.contains_key(&name) || !body.iter().any(|t| is_p(t, "{")) {
                        continue;
                    }
                    pass.templates.insert(
                        name.clone(),
                        Template {
                            params: ps,
                            body,
                            name_at,
                            instances: Vec::new(),
                            class: true,
                            special: Vec::new(),
                            host: false,
                        },
                    );
                    parts.push(Part::Template(name));
                }
                // A host function template is host code too.
                Some((ps, body, name_at))
                    if dialect == Dialect::Cuda && host_function(&body).is_some() =>
                {
                    if let Some((name, span)) = host_function(&body) {
                        warnings.push(Diagnostic::warning(format!("host code skipped: function template `{name}` (kpl verifies the kernels)"), span));
                        host_templates.insert(name.clone());
                        // Its launches are read from each instance its host callers make
                        // (their arguments give its parameters' types), and from it as
                        // written where there is none (a launch size rarely depends on a
                        // type parameter).
                        host_template_bodies.push((name.clone(), body.to_vec()));
                        let defined = body.last().is_some_and(|t| is_p(t, "}"));
                        if defined && !pass.templates.contains_key(&name) {
                            pass.templates.insert(name, Template { params: ps, body, name_at, instances: Vec::new(), class: false, special: Vec::new(), host: true });
                        }
                    }
                }
                // `template <>` (a specialisation) and class templates stay unsupported.
                Some((ps, body, name_at))
                    if !ps.is_empty()
                        && !body
                            .iter()
                            .any(|t| matches!(t.1, CTok::Kw("struct") | CTok::Kw("class"))) =>
                {
                    let mut name = ident(&body[name_at]).unwrap_or_default().to_string();
                    // Another definition of the name with another number of parameters
                    // (`f(x)` beside `f(x, y, z)`): an overload of its own.
                    let taken = arguments_taken(&body, name_at);
                    let other = pass.templates.get(&name).and_then(|t| arguments_taken(&t.body, t.name_at));
                    let defined = |b: &[Tok]| b.last().is_some_and(|t| is_p(t, "}"));
                    if let (Some(now), Some(before), true) = (taken, other, defined(&body)) {
                        let first_defined = pass.templates.get(&name).is_some_and(|t| defined(&t.body));
                        if now != before && first_defined {
                            let list = pass.overloads.entry(name.clone()).or_insert_with(|| vec![(before.0, before.1, name.clone())]);
                            let key = format!("{name}__o{}", now.1);
                            if list.iter().any(|o| o.2 == key) {
                                continue;
                            }
                            list.push((now.0, now.1, key.clone()));
                            name = key;
                        }
                    }
                    if pass.templates.contains_key(&name) {
                        // A declaration then a definition: the definition counts.
                        if body.last().is_some_and(|t| is_p(t, "}")) {
                            if let Some(t) = pass.templates.get_mut(&name) {
                                t.body = body;
                                t.name_at = name_at;
                                t.params = ps;
                            }
                        }
                        continue;
                    }
                    pass.templates.insert(
                        name.clone(),
                        Template {
                            params: ps,
                            body,
                            name_at,
                            instances: Vec::new(),
                            class: false,
                            special: Vec::new(),
                            host: false,
                        },
                    );
                    parts.push(Part::Template(name));
                }
                _ => parts.push(Part::Keep(item.to_vec())),
            }
            continue;
        }
        if is_template {
            // `template __global__ void k<128>(int *);`: an explicit instantiation.
            let at = item.iter().position(|t| is_p(t, "<"));
            let named = at.filter(|a| *a > 0).and_then(|a| {
                Some((
                    ident(&item[a - 1])?.to_string(),
                    angle_args(item, a)?.0,
                    item[a - 1].clone(),
                ))
            });
            match named {
                Some((n, args, t)) => explicit.push((n, args, Span::new(t.0, t.2))),
                None => parts.push(Part::Keep(item.to_vec())),
            }
            continue;
        }
        if dialect == Dialect::Cuda {
            if let Some((name, span)) = host_function(item) {
                warnings.push(Diagnostic::warning(
                    format!("host code skipped: function `{name}` (kpl verifies the kernels)"),
                    span,
                ));
                host.push(item.to_vec());
                continue;
            }
            if let Some((names, span)) = host_variable(item) {
                // Kept for now: whether device code names it is known at the end.
                host_vars.push((parts.len(), names, span, plain_c_type(item)));
            }
        }
        parts.push(Part::Keep(item.to_vec()));
    }
    if !host_vars.is_empty() {
        // A host variable of a plain C type that device code names is global memory to
        // GPUVerify's front end (nvcc rejects the code): kpl takes it as `__device__`, as
        // GPUVerify does. Any other is host code, skipped.
        // A function that declares the name itself (a parameter, a local) does not name the
        // host variable.
        let host_parts: std::collections::HashSet<usize> = host_vars.iter().map(|h| h.0).collect();
        let names_it = |n: &str| {
            let in_kept = parts.iter().enumerate().any(|(k, p)| {
                !host_parts.contains(&k) && matches!(p, Part::Keep(t) if uses_undeclared(t, n))
            });
            in_kept || pass.templates.values().any(|t| !t.host && uses_undeclared(&t.body, n))
        };
        let device: Vec<bool> = host_vars
            .iter()
            .map(|(_, names, _, plain)| *plain && names.iter().any(|n| names_it(n)))
            .collect();
        let mut skipped = Vec::new();
        for ((k, names, span, _), device) in host_vars.iter().zip(device) {
            let adopted = &mut adopted;
            let shown: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            if device {
                warnings.push(Diagnostic::warning(
                    format!("variable {} has no memory space, but device code names it: kpl takes it, as GPUVerify does, as a `__device__` variable (nvcc rejects device code that names a host variable)", shown.join(", ")),
                    *span,
                ));
                if let Part::Keep(t) = &mut parts[*k] {
                    let at = t.first().map_or((span.start, span.start), |f| (f.0, f.0));
                    t.insert(0, (at.0, CTok::Spec("__device__".into()), at.1));
                }
                adopted.extend(names.iter().cloned());
            } else {
                warnings.push(Diagnostic::warning(format!("host code skipped: variable {} (no `__device__`, `__constant__` or `__shared__`)", shown.join(", ")), *span));
                skipped.push(*k);
            }
        }
        for k in skipped.into_iter().rev() {
            parts.remove(k);
        }
    }
    if dialect == Dialect::Cuda {
        // Types only host code names are host code too (`unused_types.rs`).
        let bodies: Vec<&[Tok]> = pass.templates.values().filter(|t| !t.host).map(|t| t.body.as_slice()).collect();
        let kept: Vec<&[Tok]> = parts
            .iter()
            .filter_map(|p| {
                if let Part::Keep(t) = p {
                    Some(t.as_slice())
                } else {
                    None
                }
            })
            .collect();
        let mut skip = crate::sema::unused_types::unused(&kept, &bodies).into_iter();
        let mut dropped = Vec::new();
        for (k, p) in parts.iter().enumerate() {
            if let Part::Keep(_) = p {
                if let Some((names, span)) = skip.next().flatten() {
                    warnings.push(Diagnostic::warning(
                        format!("host code skipped: type {names} (no device code names it)"),
                        span,
                    ));
                    dropped.push(k);
                }
            }
        }
        for k in dropped.into_iter().rev() {
            parts.remove(k);
        }
    }
    if pass.templates.is_empty() {
        let toks = parts
            .into_iter()
            .flat_map(|p| match p {
                Part::Keep(t) => t,
                Part::Template(_) => Vec::new(),
            })
            .collect();
        return Output {
            toks,
            errors: pass.errors,
            warnings,
            kernel: None,
            host_variables: adopted,
            host: host.into_iter().chain(host_template_bodies.into_iter().map(|(_, b)| b)).collect(),
            kernel_templates: Vec::new(),
        };
    }
    for (n, args, span) in explicit {
        if pass.templates.contains_key(&n) {
            pass.instance(&n, args, span);
        } else if host_templates.contains(&n) {
            continue;
        } else {
            pass.errors.push(Diagnostic::error(
                format!("`{n}` is not a function template of this file"),
                span,
            ));
        }
    }
    // Launches in skipped host code name instances too (their arguments are not read);
    // `launches.rs` reads them with the instances' names.
    // A launch's template arguments may name the host function's local constants.
    let file_consts =
        crate::sema::launches::file_constants(if host.is_empty() { &[] } else { &toks });
    let mut host: Vec<Vec<Tok>> = host
        .into_iter()
        .map(|h| {
            let consts = crate::sema::launches::local_constants(&h, &file_consts);
            pass.uses_with(h, &|k| consts.at(k), true)
        })
        .collect();
    let mut kernel_name = None;
    if let Some(k) = kernel.filter(|k| k.contains('<')) {
        let lexed = crate::text::lexer::lex(k);
        let (ktoks, _) = crate::text::tokens::convert(&lexed.0, dialect);
        if let Some(CTok::Ident(n)) = ktoks.first().map(|t| t.1.clone()) {
            if let Some((args, _)) = ktoks
                .get(1)
                .filter(|t| is_p(t, "<"))
                .and_then(|_| angle_args(&ktoks, 1))
            {
                if pass.templates.contains_key(&n) {
                    kernel_name = pass.instance(&n, args, Span::new(0, 0));
                }
            }
        }
        if kernel_name.is_none() {
            pass.errors.push(Diagnostic::error(
                format!(
                    "`--kernel={k}` does not name an instance of a kernel template of this file"
                ),
                Span::new(0, 0),
            ));
        }
    }
    let kept: Vec<Part> = parts
        .into_iter()
        .map(|p| match p {
            Part::Keep(t) => Part::Keep(pass.uses(t)),
            t => t,
        })
        .collect();
    // Instances may use further templates: expand until nothing new appears.
    let mut expanded: HashMap<String, Vec<Vec<Tok>>> = HashMap::new();
    loop {
        let mut todo = Vec::new();
        for (name, t) in &pass.templates {
            let done = expanded.get(name).map_or(0, |v| v.len());
            for k in done..t.instances.len() {
                todo.push((name.clone(), k));
            }
        }
        if todo.is_empty() {
            break;
        }
        for (name, k) in todo {
            let body = pass.expand(&name, k);
            let body = if pass.templates[&name].host {
                let consts = crate::sema::launches::local_constants(&body, &file_consts);
                pass.uses_with(body, &|k| consts.at(k), true)
            } else {
                pass.uses(body)
            };
            expanded.entry(name).or_default().push(body);
        }
    }
    // A host template's instances are host code; the template as written too where it has
    // none (its launches are read from it as written).
    // (A device template of the host template's name keeps its instances.)
    for (name, body) in host_template_bodies {
        let host_template = pass.templates.get(&name).is_some_and(|t| t.host);
        match host_template.then(|| expanded.remove(&name)).flatten() {
            Some(instances) => host.extend(instances),
            None => host.push(body),
        }
    }
    let items = kept
        .into_iter()
        .map(|p| match p {
            Part::Keep(t) => crate::sema::instance_places::Item::Keep(t),
            Part::Template(n) => crate::sema::instance_places::Item::Template(n),
        })
        .collect();
    let instances = expanded
        .into_iter()
        .map(|(n, bodies)| {
            let names = pass.templates[&n].instances.iter().map(|i| i.0.clone());
            let v = names.zip(bodies).collect();
            (n, v)
        })
        .collect();
    let out = crate::sema::instance_places::place(items, instances);
    let mut kernel_templates: Vec<String> = pass
        .templates
        .iter()
        .filter(|(_, t)| !t.class && t.instances.is_empty() && t.body.iter().any(|x| matches!(&x.1, CTok::Spec(w) | CTok::Ident(w) if w == "__global__")))
        .map(|(n, _)| n.clone())
        .collect();
    kernel_templates.sort();
    Output {
        toks: out,
        errors: pass.errors,
        warnings,
        kernel: kernel_name,
        host_variables: adopted,
        host,
        kernel_templates,
    }
}

