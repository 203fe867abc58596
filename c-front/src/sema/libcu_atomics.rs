//! libcu++'s atomics (`<cuda/atomic>`) on the token stream, before namespaces are flattened:
//! `cuda::atomic<T, S>`, `cuda::atomic_ref<T, S>`, `cuda::std::atomic<T>` and
//! `cuda::std::atomic_ref<T>` (scope `thread_scope_system` when none is given), and the
//! `typedef`s and `using` aliases of them. A variable, array, pointer or reference of such a
//! type is one of `T`, and each operation on an object of it is a call
//! `__kpl_catomic_<scope>_<op>(&object, operands..., orders...)`, which
//! `lower/libcu_atomics.rs` makes KPL's atomic of that scope with the fences its orders ask:
//! `x.load(o)`, `x.store(v, o)`, `x.exchange(v, o)`, `x.fetch_add(v, o)` (`sub and or xor min
//! max`), `x.compare_exchange_strong(e, d, o...)` (and `_weak`), `x.wait(v, o)` (a loop on
//! the load), `notify_one/notify_all` (nothing to model); the operators `x++`, `x--` and, as
//! statements, `x = v`, `x += v` (`-= &= |= ^=`), `++x`, `--x`; any other read of `x` is
//! `x.load()`. `cuda::atomic_ref<T, S>(e).op(...)` is the operation on `e`, `cuda::atomic_ref<T,
//! S> r(e);` a reference to `e`, and `((cuda::atomic<T> *)p)->op(...)` or
//! `reinterpret_cast<cuda::atomic<T> *>(p)->op(...)` the operation on `*p`, as are `*p` and
//! `(*p)` of a pointer to atomics (`(*count) += n`).
//! `cuda::atomic_thread_fence(o, s)` is `__kpl_atomic_thread_fence(o, s)`;
//! `cuda::atomic_signal_fence(o)` orders nothing between threads and is dropped. Memory
//! orders and thread scopes are libcu++'s numbers (`memory_order_relaxed` 0 ...
//! `memory_order_seq_cst` 5; `thread_scope_system` 0, `_device` 1, `_block` 2, `_thread` 3).
//! A name declared again without an atomic type in an inner block is that variable there.
//! A thread's own atomic variable (a local that is not `__shared__` or `static`) is its own:
//! its calls (`__kpl_catomic_local_<op>(x, ...)`) take the variable, not its address. A
//! `const` atomic (`const data_type *dist`) is only loaded: `__kpl_catomic_const_load`, a read.

use crate::sema::coop::{close_of, ident, is_p, split_commas};
use crate::sema::namespaces::scope_op;
use crate::sema::textures::closing;
use crate::text::tokens::CTok;
use kpl_lang::Diagnostic;
use kpl_lang::span::Span;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

/// The calls of operations on atomic objects start so; the scope and the operation follow.
pub const PREFIX: &str = "__kpl_catomic_";
/// `cuda::atomic_thread_fence(order, scope)`.
pub const FENCE: &str = "__kpl_atomic_thread_fence";
/// The scope word of a thread's own atomic object (a local): its calls take the object, not
/// its address.
pub const LOCAL: &str = "local";
/// The scope word of a `const` atomic object, which is only loaded: plain reads.
pub const CONST: &str = "const";

/// libcu++'s memory orders, by name.
pub const ORDERS: [(&str, u64); 6] = [
    ("memory_order_relaxed", 0),
    ("memory_order_consume", 1),
    ("memory_order_acquire", 2),
    ("memory_order_release", 3),
    ("memory_order_acq_rel", 4),
    ("memory_order_seq_cst", 5),
];
/// libcu++'s thread scopes, by name, with the word of the calls `PREFIX` starts.
pub const SCOPES: [(&str, u64, &str); 4] =
    [("thread_scope_system", 0, "system"), ("thread_scope_device", 1, "device"), ("thread_scope_block", 2, "block"), ("thread_scope_thread", 3, "thread")];

const METHODS: &[&str] = &[
    "load",
    "store",
    "exchange",
    "fetch_add",
    "fetch_sub",
    "fetch_and",
    "fetch_or",
    "fetch_xor",
    "fetch_min",
    "fetch_max",
    "compare_exchange_strong",
    "compare_exchange_weak",
    "wait",
    "notify_one",
    "notify_all",
];

/// An atomic type as written: its value type's tokens, its scope's word, and whether it is
/// an `atomic_ref` (a view of another object).
#[derive(Clone, Debug)]
struct AType {
    elem: Vec<Tok>,
    scope: &'static str,
    is_ref: bool,
}

/// How a name holds atomic objects.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Holds {
    /// The name is the object (a variable, a reference, an `atomic_ref`).
    Object,
    /// An array of them.
    Array,
    /// A pointer to one (or to an array of them).
    Pointer,
}

#[derive(Clone, Copy, Debug)]
struct Obj {
    scope: &'static str,
    holds: Holds,
}

/// A name's declarations in the blocks open now, innermost last (`None`: not atomic).
type Scopes = HashMap<String, Vec<(usize, Option<Obj>)>>;

fn p(s: &'static str, at: usize) -> Tok {
    (at, CTok::P(s), at)
}

/// `cuda::`, `::cuda::`, `cuda::std::` at `i`: the index after it.
fn cuda_qualifier(toks: &[Tok], i: usize) -> Option<usize> {
    let mut j = i;
    if scope_op(toks, j) {
        j += 2;
    }
    if ident(toks.get(j)) != Some("cuda") || !scope_op(toks, j + 1) {
        return None;
    }
    j += 3;
    if ident(toks.get(j)) == Some("std") && scope_op(toks, j + 1) {
        j += 3;
    }
    Some(j)
}

/// Is `w` one of libcu++'s names this pass reads?
fn libcu_name(w: &str) -> bool {
    matches!(w, "atomic" | "atomic_ref" | "atomic_thread_fence" | "atomic_signal_fence") || w.starts_with("memory_order_") || w.starts_with("thread_scope_")
}

/// `using namespace cuda;` (or `cuda::std`) and `using cuda::NAME;` of a name `libcu_name`
/// picks, removed, with `cuda::` written before each unqualified use of the names they
/// bring in (all of libcu++'s, or that one).
fn qualify_using(toks: Vec<Tok>) -> Vec<Tok> {
    let mut all = false;
    let mut one: Vec<String> = Vec::new();
    let mut keep = vec![true; toks.len()];
    for i in 0..toks.len() {
        if ident(toks.get(i)) != Some("using") {
            continue;
        }
        let whole = ident(toks.get(i + 1)) == Some("namespace");
        let Some(j) = cuda_qualifier(&toks, i + 1 + usize::from(whole)).or_else(|| {
            // `using namespace cuda;`, `using namespace cuda::std;`: no `::` after the last word.
            let k = i + 2;
            (whole && ident(toks.get(k)) == Some("cuda")).then(|| if scope_op(&toks, k + 1) && ident(toks.get(k + 3)) == Some("std") { k + 4 } else { k + 1 })
        }) else {
            continue;
        };
        let (end, name) = match (whole, ident(toks.get(j))) {
            (true, _) if is_p(toks.get(j), ";") => (j, None),
            (false, Some(w)) if libcu_name(w) && is_p(toks.get(j + 1), ";") => (j + 1, Some(w.to_string())),
            _ => continue,
        };
        match name {
            Some(w) => one.push(w),
            None => all = true,
        }
        keep[i..=end].iter_mut().for_each(|k| *k = false);
    }
    if !all && one.is_empty() {
        return toks;
    }
    let mut out = Vec::with_capacity(toks.len());
    for (i, t) in toks.iter().enumerate() {
        if !keep[i] {
            continue;
        }
        let qualified = (i >= 2 && scope_op(&toks, i - 2)) || (i > 0 && (is_p(toks.get(i - 1), ".") || is_p(toks.get(i - 1), "->")));
        let brought = ident(Some(t)).is_some_and(|w| if all { libcu_name(w) } else { one.iter().any(|o| o == w) });
        if brought && !qualified {
            out.extend([(t.0, CTok::Ident("cuda".into()), t.0), p(":", t.0), p(":", t.0)]);
        }
        out.push(t.clone());
    }
    out
}

/// Does the file use libcu++'s atomics at all?
fn uses_libcu(toks: &[Tok]) -> bool {
    (0..toks.len()).any(|i| {
        cuda_qualifier(toks, i).is_some_and(|j| {
            matches!(ident(toks.get(j)), Some(w) if w.starts_with("atomic") || w.starts_with("memory_order") || w.starts_with("thread_scope"))
        })
    })
}

struct Pass<'a> {
    toks: &'a [Tok],
    aliases: HashMap<String, AType>,
    names: Scopes,
    depth: usize,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
}

/// libcu++'s atomics in `toks` as calls kpl lowers (see the module doc), with an error for
/// each use it does not read and a warning for each it reads as plain memory.
pub fn lower(toks: Vec<Tok>) -> (Vec<Tok>, Vec<Diagnostic>, Vec<Diagnostic>) {
    let toks = qualify_using(toks);
    if !uses_libcu(&toks) {
        return (toks, Vec::new(), Vec::new());
    }
    let mut pass = Pass { toks: &toks, aliases: HashMap::new(), names: HashMap::new(), depth: 0, errors: Vec::new(), warnings: Vec::new() };
    let out = pass.run(0, toks.len());
    (out, pass.errors, pass.warnings)
}

impl Pass<'_> {
    fn err(&mut self, msg: impl Into<String>, at: &Tok) {
        self.errors.push(Diagnostic::error(msg.into(), Span::new(at.0, at.2)));
    }

    fn lookup(&self, name: &str) -> Option<Obj> {
        self.names.get(name).and_then(|v| v.last()).and_then(|(_, o)| *o)
    }

    fn declare(&mut self, name: &str, depth: usize, obj: Option<Obj>) {
        self.names.entry(name.to_string()).or_default().push((depth, obj));
    }

    /// The atomic type at `i` (a libcu++ template or an alias of one), and the index after it.
    fn atomic_type(&mut self, i: usize) -> Option<(AType, usize)> {
        let toks = self.toks;
        if let Some(a) = ident(toks.get(i)).and_then(|w| self.aliases.get(w)) {
            if !scope_op(toks, i + 1) && !(i > 0 && (is_p(toks.get(i - 1), ".") || is_p(toks.get(i - 1), "->"))) {
                return Some((a.clone(), i + 1));
            }
        }
        let j = cuda_qualifier(toks, i)?;
        let is_ref = match ident(toks.get(j)) {
            Some("atomic") => false,
            Some("atomic_ref") => true,
            _ => return None,
        };
        if !is_p(toks.get(j + 1), "<") {
            return None;
        }
        let close = closing(toks, j + 1, "<", ">")?;
        let args = split_commas(&toks[j + 2..close]);
        let elem: Vec<Tok> = args.first().map(|a| a.to_vec()).unwrap_or_default();
        let scope = match args.get(1) {
            None => "system",
            Some(s) => match s.iter().filter_map(|t| ident(Some(t))).find_map(|w| SCOPES.iter().find(|x| x.0 == w)) {
                Some(x) => x.2,
                None => {
                    self.err("kpl reads an atomic's scope only when it is written: `cuda::thread_scope_block`, `_device`, `_system` or `_thread`", &toks[j]);
                    "system"
                }
            },
        };
        if elem.is_empty() {
            self.err("an atomic type without its value type", &toks[j]);
        }
        Some((AType { elem, scope, is_ref }, close + 1))
    }

    /// The tokens from `from` to `to` with every atomic rewritten.
    fn run(&mut self, from: usize, to: usize) -> Vec<Tok> {
        let toks = self.toks;
        let mut out: Vec<Tok> = Vec::with_capacity(to - from);
        let mut i = from;
        while i < to {
            let t = &toks[i];
            match &t.1 {
                CTok::P("{") => {
                    self.depth += 1;
                    out.push(t.clone());
                    i += 1;
                    continue;
                }
                CTok::P("}") => {
                    self.depth = self.depth.saturating_sub(1);
                    let d = self.depth;
                    for v in self.names.values_mut() {
                        v.retain(|(at, _)| *at <= d);
                    }
                    out.push(t.clone());
                    i += 1;
                    continue;
                }
                _ => {}
            }
            if let Some(next) = self.special(i, &mut out) {
                i = next;
                continue;
            }
            if let Some(next) = self.dereference(i, to, &mut out) {
                i = next;
                continue;
            }
            // A name declared again without an atomic type (`int x`, `int *x` in an inner
            // block). (`a * x` reads as such a declaration too: `x` is then plain there,
            // which checks more races, never fewer.)
            if let (Some(w), true) = (ident(Some(t)), i > from) {
                let before = toks[from..i].iter().rev().find(|t| !is_p(Some(t), "*") && !is_p(Some(t), "&") && !matches!(&t.1, CTok::Spec(w) if w == "const"));
                if self.lookup(w).is_some() && before.is_some_and(|b| matches!(b.1, CTok::Spec(_) | CTok::Ident(_))) {
                    let d = if self.in_parens(i) { self.depth + 1 } else { self.depth };
                    self.declare(w, d, None);
                    out.push(t.clone());
                    i += 1;
                    continue;
                }
            }
            if let Some(obj) = ident(Some(t)).and_then(|w| self.lookup(w)) {
                let member = i > 0 && (is_p(toks.get(i - 1), ".") || is_p(toks.get(i - 1), "->") || scope_op(toks, i.saturating_sub(2)));
                if !member {
                    if let Some(next) = self.object_use(i, to, obj, &mut out) {
                        i = next;
                        continue;
                    }
                }
            }
            out.push(t.clone());
            i += 1;
        }
        out
    }

    /// Orders, scopes, fences, aliases, declarations, casts and `atomic_ref` temporaries at
    /// `i`: what they become is pushed on `out`; gives the index after them.
    fn special(&mut self, i: usize, out: &mut Vec<Tok>) -> Option<usize> {
        let toks = self.toks;
        let t = &toks[i];
        // `cuda::memory_order_relaxed`, `cuda::thread_scope_block` (or unqualified).
        let (word_at, after_q) = match cuda_qualifier(toks, i) {
            Some(j) => (j, true),
            None => (i, false),
        };
        if let Some(w) = ident(toks.get(word_at)) {
            let number = ORDERS.iter().find(|o| o.0 == w).map(|o| o.1).or_else(|| SCOPES.iter().find(|s| s.0 == w).map(|s| s.1));
            if let Some(n) = number {
                out.push((t.0, CTok::Int(n, false), toks[word_at].2));
                return Some(word_at + 1);
            }
            if after_q && w == "atomic_thread_fence" {
                out.push((t.0, CTok::Ident(FENCE.into()), toks[word_at].2));
                return Some(word_at + 1);
            }
            if after_q && w == "atomic_signal_fence" && is_p(toks.get(word_at + 1), "(") {
                // A fence for a signal handler on the same thread: nothing between threads.
                let end = close_of(toks, word_at + 1)?;
                out.push((t.0, CTok::Int(0, false), toks[end - 1].2));
                return Some(end);
            }
        }
        // `typedef cuda::atomic<int> flag_t;` and `using flag_t = cuda::atomic<int>;`.
        if matches!(t.1, CTok::Kw("typedef")) {
            if let Some((ty, j)) = self.atomic_type(i + 1) {
                if let (Some(name), true) = (ident(toks.get(j)), is_p(toks.get(j + 1), ";")) {
                    self.aliases.insert(name.to_string(), ty);
                    return Some(j + 2);
                }
                self.err("kpl reads a `typedef` of an atomic type that names one type (`typedef cuda::atomic<int> flag_t;`)", t);
                return None;
            }
        }
        if ident(Some(t)) == Some("using") && is_p(toks.get(i + 2), "=") {
            if let Some(name) = ident(toks.get(i + 1)) {
                if let Some((ty, j)) = self.atomic_type(i + 3) {
                    if is_p(toks.get(j), ";") {
                        self.aliases.insert(name.to_string(), ty);
                        return Some(j + 1);
                    }
                }
            }
        }
        // `((cuda::atomic<T> *)e)->op(...)` and `reinterpret_cast<cuda::atomic<T> *>(e)->op(...)`.
        if is_p(Some(t), "(") && is_p(toks.get(i + 1), "(") {
            if let Some((ty, j)) = self.atomic_type(i + 2) {
                if is_p(toks.get(j), "*") && is_p(toks.get(j + 1), ")") {
                    let end = close_of(toks, i)?;
                    if is_p(toks.get(end), "->") || is_p(toks.get(end), "[") {
                        let ptr = self.cast_pointer(&ty, j + 2, end - 1, t);
                        return self.through_pointer(ptr, end, ty.scope, t, out);
                    }
                }
            }
        }
        if matches!(ident(Some(t)), Some("reinterpret_cast" | "static_cast")) && is_p(toks.get(i + 1), "<") {
            if let Some((ty, j)) = self.atomic_type(i + 2) {
                if is_p(toks.get(j), "*") && is_p(toks.get(j + 1), ">") && is_p(toks.get(j + 2), "(") {
                    let end = close_of(toks, j + 2)?;
                    let ptr = self.cast_pointer(&ty, j + 3, end - 1, t);
                    return self.through_pointer(ptr, end, ty.scope, t, out);
                }
            }
        }
        let (ty, j) = self.atomic_type(i)?;
        // `sizeof(cuda::atomic<T>)` is `sizeof(T)` (libcu++'s atomics of 4- and 8-byte types).
        if i > 1 && is_p(toks.get(i - 1), "(") && matches!(toks[i - 2].1, CTok::Kw("sizeof")) && is_p(toks.get(j), ")") {
            out.extend(ty.elem.iter().cloned());
            return Some(j);
        }
        // `cuda::atomic_ref<T, S>(e).op(...)`: the operation on `e`.
        if ty.is_ref && is_p(toks.get(j), "(") {
            let end = close_of(toks, j)?;
            let mut addr = vec![p("&", t.0), p("(", t.0)];
            addr.extend(self.run(j + 1, end - 1));
            addr.push(p(")", t.0));
            return self.apply(end, ty.scope, addr, t, out);
        }
        // `(cuda::atomic<T> *)e` anywhere else: a plain pointer.
        if i > 0 && is_p(toks.get(i - 1), "(") {
            let mut j2 = j;
            while is_p(toks.get(j2), "*") {
                j2 += 1;
            }
            if j2 > j && is_p(toks.get(j2), ")") {
                out.extend(ty.elem.iter().cloned());
                out.extend(toks[j..j2].iter().cloned());
                return Some(j2);
            }
        }
        self.declaration(i, ty, j, out)
    }

    /// `*p` and `(*p)` of a pointer to atomics `p`: the object it points at, and what is
    /// done to it (`(*count) += n`, `*flag = 1`, a read).
    fn dereference(&mut self, i: usize, to: usize, out: &mut Vec<Tok>) -> Option<usize> {
        let toks = self.toks;
        let pointer = |k: usize| {
            ident(toks.get(k)).and_then(|w| self.lookup(w)).filter(|o| o.holds == Holds::Pointer && !is_p(toks.get(k + 1), "[") && !is_p(toks.get(k + 1), "->"))
        };
        // `*` is unary where no operand ends before it, nor a type word (`int *p`).
        let unary = !matches!(out.last().map(|t| &t.1), Some(CTok::Ident(_) | CTok::Spec(_) | CTok::Int(..) | CTok::LongInt(..) | CTok::Float(_) | CTok::Char(_) | CTok::P(")" | "]")));
        let (name_at, after) = if is_p(toks.get(i), "(") && is_p(toks.get(i + 1), "*") && is_p(toks.get(i + 3), ")") {
            (i + 2, i + 4)
        } else if is_p(toks.get(i), "*") && unary {
            (i + 1, i + 2)
        } else {
            return None;
        };
        let obj = pointer(name_at)?;
        if after > to {
            return None;
        }
        self.apply(after, obj.scope, vec![toks[name_at].clone()], &toks[name_at], out)
    }

    /// `((T *)(e))` for a cast of the tokens `from..to` to a pointer to atomic `ty`.
    fn cast_pointer(&mut self, ty: &AType, from: usize, to: usize, t: &Tok) -> Vec<Tok> {
        let mut ptr = vec![p("(", t.0), p("(", t.0)];
        ptr.extend(ty.elem.iter().cloned());
        ptr.extend([p("*", t.0), p(")", t.0), p("(", t.0)]);
        ptr.extend(self.run(from, to));
        ptr.push(p(")", t.0));
        ptr.push(p(")", t.0));
        ptr
    }

    /// What follows a pointer to atomics at `e`: `->op(...)`, `[i]` and what is done to that
    /// element, or nothing (the pointer as a plain one: a parameter of the callee's atomic
    /// type makes the accesses atomic again).
    fn through_pointer(&mut self, ptr: Vec<Tok>, e: usize, scope: &'static str, t: &Tok, out: &mut Vec<Tok>) -> Option<usize> {
        let toks = self.toks;
        if is_p(toks.get(e), "->") {
            return self.operation(e, scope, ptr, t, out);
        }
        if is_p(toks.get(e), "[") {
            let close = closing(toks, e, "[", "]")?;
            let mut addr = vec![p("&", t.0)];
            addr.extend(ptr);
            addr.push(toks[e].clone());
            addr.extend(self.run(e + 1, close));
            addr.push(toks[close].clone());
            return self.apply(close + 1, scope, addr, t, out);
        }
        out.extend(ptr);
        Some(e)
    }

    /// A declaration of atomic objects: `ty` at `i`, its declarators from `j`.
    fn declaration(&mut self, i: usize, ty: AType, j: usize, out: &mut Vec<Tok>) -> Option<usize> {
        let toks = self.toks;
        let t = &toks[i];
        // A parameter when a `(` or `,` of a parameter list is open before it.
        // (Qualifiers may come first: `const cuda::atomic<int> *p`.)
        let start = i - toks[..i].iter().rev().take_while(|t| matches!(t.1, CTok::Spec(_))).count();
        let param = start > 0 && (is_p(toks.get(start - 1), "(") || is_p(toks.get(start - 1), ",")) && self.in_parens(i);
        out.extend(ty.elem.iter().cloned());
        let mut k = j;
        loop {
            let mut stars = 0;
            let mut amp = false;
            loop {
                if is_p(toks.get(k), "*") {
                    stars += 1;
                } else if is_p(toks.get(k), "&") {
                    amp = true;
                } else if matches!(toks.get(k).map(|t| &t.1), Some(CTok::Spec(w)) if w == "const" || w == "volatile" || w == "__restrict__") {
                } else {
                    break;
                }
                out.push(toks[k].clone());
                k += 1;
            }
            let Some(name) = ident(toks.get(k)) else {
                // Elsewhere (a template argument, a return type) the value type stands in:
                // what is done through it is checked as plain accesses, more races, never
                // fewer.
                self.warnings.push(
                    Diagnostic::warning("kpl reads this atomic type as its plain value type here: accesses through it are checked as plain ones".to_string(), Span::new(t.0, toks[j - 1].2))
                        .with_help("kpl reads `cuda::atomic` and `cuda::atomic_ref` in declarations of variables, arrays, pointers and references, casts, `sizeof` and `typedef`s"),
                );
                return Some(k);
            };
            let name = name.to_string();
            let mut dims = 0;
            let mut e = k + 1;
            while is_p(toks.get(e), "[") {
                e = closing(toks, e, "[", "]")? + 1;
                dims += 1;
            }
            let holds = if stars > 0 || (param && dims > 0) {
                Holds::Pointer
            } else if dims > 0 {
                Holds::Array
            } else {
                Holds::Object
            };
            if ty.is_ref && stars == 0 && dims == 0 && !amp {
                // `cuda::atomic_ref<T, S> r(e);`: a reference to `e`.
                out.push(p("&", toks[k].0));
            }
            out.extend(toks[k..e].iter().cloned());
            let depth = if param { self.depth + 1 } else { self.depth };
            // A thread's own atomic object (a local, not `__shared__` or `static`, not a
            // reference to another object): no other thread can reach it unless its address
            // is taken, so its operations are plain ones on the variable itself.
            let shared_or_static = toks[..i].iter().rev().take_while(|t| matches!(t.1, CTok::Spec(_) | CTok::Ident(_))).any(|t| matches!(ident(Some(t)), Some("__shared__" | "static")));
            let own = !param && self.depth > 0 && !ty.is_ref && !amp && stars == 0 && !shared_or_static;
            // A `const` atomic (`const data_type *dist`) is only loaded: a plain read of
            // memory kpl takes as read-only, as it takes any `const` pointer's.
            let is_const = |t: &Tok| matches!(&t.1, CTok::Spec(w) if w == "const");
            let constant = toks[..i].iter().rev().take_while(|t| matches!(t.1, CTok::Spec(_) | CTok::Ident(_))).any(is_const)
                || toks.get(j).is_some_and(is_const);
            let scope = if own {
                LOCAL
            } else if constant {
                CONST
            } else {
                ty.scope
            };
            self.declare(&name, depth, Some(Obj { scope, holds }));
            // An initialiser: `(v)` or `{v}` is `= v`.
            if is_p(toks.get(e), "(") || is_p(toks.get(e), "{") {
                let (open, close) = if is_p(toks.get(e), "(") { ("(", ")") } else { ("{", "}") };
                let end = closing(toks, e, open, close)?;
                out.push(p("=", toks[e].0));
                out.extend(self.run(e + 1, end));
                e = end + 1;
            } else if is_p(toks.get(e), "=") {
                let end = self.expression_end(e + 1);
                out.push(toks[e].clone());
                out.extend(self.run(e + 1, end));
                e = end;
            }
            if is_p(toks.get(e), ",") && !param {
                out.push(toks[e].clone());
                k = e + 1;
                continue;
            }
            return Some(e);
        }
    }

    /// Whether `i` is inside parentheses of the statement or declaration it is in (a
    /// parameter list).
    fn in_parens(&self, i: usize) -> bool {
        let mut depth = 0i32;
        for t in self.toks[..i].iter().rev() {
            match &t.1 {
                CTok::P(")") => depth += 1,
                CTok::P("(") => {
                    if depth == 0 {
                        return true;
                    }
                    depth -= 1;
                }
                CTok::P(";" | "{" | "}") => return false,
                _ => {}
            }
        }
        false
    }

    /// The index of the `;`, `,` or closing bracket that ends the expression from `from`.
    fn expression_end(&self, from: usize) -> usize {
        let mut depth = 0i32;
        for (k, t) in self.toks.iter().enumerate().skip(from) {
            match &t.1 {
                CTok::P("(" | "[" | "{") => depth += 1,
                CTok::P(")" | "]" | "}") => {
                    if depth == 0 {
                        return k;
                    }
                    depth -= 1;
                }
                CTok::P(";") => return k,
                CTok::P(",") if depth == 0 => return k,
                _ => {}
            }
        }
        self.toks.len()
    }

    /// Whether the last token of `out` lets an expression statement start after it.
    fn statement_starts(out: &[Tok]) -> bool {
        matches!(out.last().map(|t| &t.1), None | Some(CTok::P(";" | "{" | "}" | ")" | ":") | CTok::Kw("else" | "do")))
    }

    /// A use of the atomic name at `i`: its object (with any `[...]`), then what is done to
    /// it. `None`: not an object use (the array or pointer itself), left as written.
    fn object_use(&mut self, i: usize, to: usize, obj: Obj, out: &mut Vec<Tok>) -> Option<usize> {
        let toks = self.toks;
        let t = &toks[i];
        let mut e = i + 1;
        let mut object: Vec<Tok> = vec![t.clone()];
        while is_p(toks.get(e), "[") && e < to {
            let close = closing(toks, e, "[", "]")?;
            object.push(toks[e].clone());
            object.extend(self.run(e + 1, close));
            object.push(toks[close].clone());
            e = close + 1;
        }
        let indexed = e > i + 1;
        let arrow = is_p(toks.get(e), "->");
        let is_object = match obj.holds {
            Holds::Object => true,
            Holds::Array => indexed,
            Holds::Pointer => indexed || arrow,
        };
        if !is_object {
            return None;
        }
        // `&x`: the address of the object, a pointer the callee's parameter types.
        let unary_before = |out: &[Tok]| {
            out.len() >= 2
                && matches!(out[out.len() - 2].1, CTok::P(_) | CTok::Kw("return"))
                && !matches!(out[out.len() - 2].1, CTok::P(")" | "]"))
        };
        if is_p(out.last(), "&") && (out.len() == 1 || unary_before(out)) {
            out.extend(object);
            return Some(e);
        }
        let addr: Vec<Tok> = if arrow && !indexed {
            object
        } else {
            let mut a = vec![p("&", t.0)];
            a.extend(object);
            a
        };
        self.apply(e, obj.scope, addr, t, out)
    }

    /// What is done at `e` to the atomic object of scope `scope` whose address is `addr`
    /// (written at `t`): an operation, an operator, or a read.
    fn apply(&mut self, e: usize, scope: &'static str, addr: Vec<Tok>, t: &Tok, out: &mut Vec<Tok>) -> Option<usize> {
        let toks = self.toks;
        let arrow = is_p(toks.get(e), "->");
        // `++x`, `--x` as statements.
        if let Some(op) = out.last().and_then(|l| match l.1 {
            CTok::P("++") => Some("fetch_add"),
            CTok::P("--") => Some("fetch_sub"),
            _ => None,
        }) {
            let inc = out.pop()?;
            let one = vec![(inc.0, CTok::Int(1, false), inc.2)];
            if Self::statement_starts(out) && is_p(toks.get(e), ";") {
                out.extend(call(scope, op, inc.0, addr, one));
            } else {
                // The new value: the old one, plus or minus 1.
                let sign = if op == "fetch_add" { "+" } else { "-" };
                value_of(out, call(scope, op, inc.0, addr, one.clone()), sign, one, inc.0);
            }
            return Some(e);
        }
        if is_p(toks.get(e), ".") || arrow {
            return self.operation(e, scope, addr, t, out);
        }
        match toks.get(e).map(|t| &t.1) {
            Some(CTok::P(op @ ("++" | "--"))) => {
                let f = if *op == "++" { "fetch_add" } else { "fetch_sub" };
                out.extend(call(scope, f, t.0, addr, vec![(toks[e].0, CTok::Int(1, false), toks[e].2)]));
                Some(e + 1)
            }
            Some(CTok::P(op @ ("=" | "+=" | "-=" | "&=" | "|=" | "^="))) => {
                let f = match *op {
                    "=" => "store",
                    "+=" => "fetch_add",
                    "-=" => "fetch_sub",
                    "&=" => "fetch_and",
                    "|=" => "fetch_or",
                    _ => "fetch_xor",
                };
                let end = self.expression_end(e + 1);
                let value = self.run(e + 1, end);
                if Self::statement_starts(out) && is_p(toks.get(end), ";") {
                    out.extend(call(scope, f, t.0, addr, value));
                    return Some(end);
                }
                // The assignment's value (the new value: C++'s `operator+=` ...), where
                // computing the operand again changes nothing.
                let pure = !value.iter().any(|v| matches!(v.1, CTok::P("=" | "++" | "--" | "(" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=")));
                if !pure {
                    self.err(format!("kpl reads the value of `{op}` on an atomic only where its operand has no calls or assignments (write `x.fetch_add(v) + v`)"), &toks[e]);
                }
                let sign = match *op {
                    "=" => ",",
                    "+=" => "+",
                    "-=" => "-",
                    "&=" => "&",
                    "|=" => "|",
                    _ => "^",
                };
                value_of(out, call(scope, f, t.0, addr, value.clone()), sign, value, t.0);
                Some(end)
            }
            _ => {
                out.extend(call(scope, "load", t.0, addr, Vec::new()));
                Some(e)
            }
        }
    }

    /// `.op(args)` or `->op(args)` at `at` on the object whose address is `addr`.
    fn operation(&mut self, at: usize, scope: &'static str, addr: Vec<Tok>, t: &Tok, out: &mut Vec<Tok>) -> Option<usize> {
        let toks = self.toks;
        let method = ident(toks.get(at + 1));
        let Some(method) = method.filter(|m| METHODS.contains(m) && is_p(toks.get(at + 2), "(")) else {
            let what = method.unwrap_or("this");
            self.err(
                format!("`{what}` is not an operation of libcu++'s atomics that kpl reads (it reads {})", METHODS.join(", ")),
                toks.get(at + 1).unwrap_or(t),
            );
            // The call is dropped (its error said), so the parse goes on after it.
            let end = if is_p(toks.get(at + 2), "(") { close_of(toks, at + 2)? } else { at + 2 };
            out.push((t.0, CTok::Int(0, false), t.2));
            return Some(end);
        };
        let end = close_of(toks, at + 2)?;
        let args = self.run(at + 3, end - 1);
        match method {
            "notify_one" | "notify_all" => {
                // Wakes threads in `wait`, which kpl runs as a loop on the load.
                out.push((t.0, CTok::Int(0, false), toks[end - 1].2));
            }
            "wait" => {
                // `x.wait(old, o)`: until the value is not `old`.
                let parts = split_commas(&args);
                if !Self::statement_starts(out) || !is_p(toks.get(end), ";") {
                    self.err("kpl reads an atomic's `wait` as a statement only", &toks[at + 1]);
                }
                let (old, order) = (parts.first().map(|a| a.to_vec()).unwrap_or_default(), parts.get(1).map(|a| a.to_vec()).unwrap_or_default());
                let l = t.0;
                out.extend([(l, CTok::Kw("while"), l), p("(", l)]);
                out.extend(call(scope, "load", l, addr, order));
                out.extend([p("==", l), p("(", l)]);
                out.extend(old);
                out.extend([p(")", l), p(")", l), p("{", l), p("}", l)]);
            }
            m => out.extend(call(scope, m, t.0, addr, args)),
        }
        Some(end)
    }
}

/// `((CALL) OP (OPERAND))`: the value of an operator on an atomic from its operation's old
/// value (for `=`, OP is `,`: the stored value).
fn value_of(out: &mut Vec<Tok>, call: Vec<Tok>, op: &'static str, operand: Vec<Tok>, at: usize) {
    out.extend([p("(", at), p("(", at)]);
    out.extend(call);
    out.extend([p(")", at), p(op, at), p("(", at)]);
    out.extend(operand);
    out.extend([p(")", at), p(")", at)]);
}

/// `__kpl_catomic_<scope>_<op>(addr, args)`; of a thread's own object (`LOCAL`), the
/// object itself (its address not taken, so it stays a thread's local).
fn call(scope: &str, op: &str, at: usize, addr: Vec<Tok>, args: Vec<Tok>) -> Vec<Tok> {
    let mut out = vec![(at, CTok::Ident(format!("{PREFIX}{scope}_{op}")), at), p("(", at)];
    let object = match addr.split_first() {
        Some((first, rest)) if scope == LOCAL && is_p(Some(first), "&") => rest.to_vec(),
        _ => addr,
    };
    out.extend(object);
    if !args.is_empty() {
        out.push(p(",", at));
        out.extend(args);
    }
    out.push(p(")", at));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(src: &str) -> (String, Vec<String>) {
        let (lexed, _) = crate::text::lexer::lex(src);
        let (toks, _) = crate::text::tokens::convert(&lexed, crate::text::tokens::Dialect::Cuda);
        let (out, errs, _) = lower(toks);
        let text = out.iter().map(|t| crate::text::tokens::spelling(&t.1)).collect::<Vec<_>>().join(" ");
        (text, errs.into_iter().map(|d| d.message).collect())
    }

    #[test]
    fn declarations_become_the_value_type_and_operations_calls() {
        let (s, e) = rewrite("__global__ void k(cuda::atomic<int, cuda::thread_scope_block> *c) { c[1].fetch_add(2, cuda::memory_order_relaxed); }");
        assert!(e.is_empty(), "{e:?}");
        assert!(s.contains("int * c"), "{s}");
        assert!(s.contains("__kpl_catomic_block_fetch_add ( & c [ 1 ] , 2 , 0 )"), "{s}");
    }

    #[test]
    fn using_directives_and_declarations_bring_in_libcu_names() {
        let (s, e) = rewrite("using namespace cuda; __global__ void k(int *a) { atomic_ref<int, thread_scope_block> r(a[0]); r.fetch_add(1, memory_order_release); atomic_thread_fence(memory_order_seq_cst, thread_scope_device); }");
        assert!(e.is_empty(), "{e:?}");
        assert!(!s.contains("using"), "{s}");
        assert!(s.contains("int & r = a [ 0 ] ; __kpl_catomic_block_fetch_add ( & r , 1 , 3 )"), "{s}");
        assert!(s.contains("__kpl_atomic_thread_fence ( 5 , 1 )"), "{s}");
        let (s, e) = rewrite("using cuda::atomic_ref; __global__ void k(int *a) { atomic_ref<int, cuda::thread_scope_device>(a[0]).store(2, cuda::memory_order_relaxed); }");
        assert!(e.is_empty(), "{e:?}");
        assert!(s.contains("__kpl_catomic_device_store ( & ( a [ 0 ] ) , 2 , 0 )"), "{s}");
        // Without a using, an unqualified `atomic` is the file's own name.
        let (s, _) = rewrite("__global__ void k(int *atomic) { atomic[0] = 1; }");
        assert!(!s.contains("cuda"), "{s}");
    }

    #[test]
    fn implicit_loads_stores_and_increments() {
        let (s, e) = rewrite("__device__ cuda::atomic<int> f; __global__ void k(int *o) { f = 1; f++; o[0] = f; }");
        assert!(e.is_empty(), "{e:?}");
        assert!(s.contains("__kpl_catomic_system_store ( & f , 1 )"), "{s}");
        assert!(s.contains("__kpl_catomic_system_fetch_add ( & f , 1 )"), "{s}");
        assert!(s.contains("o [ 0 ] = __kpl_catomic_system_load ( & f )"), "{s}");
    }

    #[test]
    fn atomic_ref_temporaries_references_casts_and_aliases() {
        let (s, e) = rewrite(
            "typedef cuda::atomic<unsigned, cuda::thread_scope_device> flag_t; __global__ void k(int *a, unsigned *f) { cuda::atomic_ref<int, cuda::thread_scope_block>(a[0]).fetch_or(1); cuda::atomic_ref<int, cuda::thread_scope_device> r(a[1]); r.store(3, cuda::memory_order_release); ((flag_t *)f)->load(cuda::memory_order_acquire); }",
        );
        assert!(e.is_empty(), "{e:?}");
        assert!(s.contains("__kpl_catomic_block_fetch_or ( & ( a [ 0 ] ) , 1 )"), "{s}");
        assert!(s.contains("int & r = a [ 1 ]"), "{s}");
        assert!(s.contains("__kpl_catomic_device_store ( & r , 3 , 3 )"), "{s}");
        assert!(s.contains("__kpl_catomic_device_load ( ( ( unsigned * ) ( f ) ) , 2 )"), "{s}");
    }

    #[test]
    fn an_inner_plain_declaration_shadows_the_atomic() {
        let (s, _) = rewrite("__device__ cuda::atomic<int> n; __global__ void k(int *o) { { int n = 2; o[0] = n; } o[1] = n; }");
        assert!(s.contains("o [ 0 ] = n ;"), "{s}");
        assert!(s.contains("o [ 1 ] = __kpl_catomic_system_load ( & n )"), "{s}");
    }

    #[test]
    fn a_threads_own_atomic_variable_is_passed_itself() {
        let (s, e) = rewrite("__global__ void k(cuda::atomic<int> *d) { cuda::atomic<int> x = d[0].load(); __shared__ cuda::atomic<int> y; x.store(1); y.store(x); }");
        assert!(e.is_empty(), "{e:?}");
        assert!(s.contains("__kpl_catomic_local_store ( x , 1 )"), "{s}");
        assert!(s.contains("__kpl_catomic_system_store ( & y , __kpl_catomic_local_load ( x ) )"), "{s}");
    }

    #[test]
    fn a_dereferenced_pointer_is_the_object() {
        let (s, e) = rewrite("__global__ void k(cuda::atomic<int> *c, int *o, int n) { if (n) (*c) += n; *c = 2; o[0] = *c * 2; }");
        assert!(e.is_empty(), "{e:?}");
        assert!(s.contains("__kpl_catomic_system_fetch_add ( c , n )"), "{s}");
        assert!(s.contains("__kpl_catomic_system_store ( c , 2 )"), "{s}");
        assert!(s.contains("o [ 0 ] = __kpl_catomic_system_load ( c ) * 2"), "{s}");
    }

    #[test]
    fn a_const_atomic_is_read() {
        let (s, e) = rewrite("__global__ void k(const cuda::atomic<int> *d, const int *w, int *o) { int i = w[0]; o[i] = d[1].load(); }");
        assert!(e.is_empty(), "{e:?}");
        assert!(s.contains("const int * w"), "the next parameter is its own: {s}");
        assert!(s.contains("int i = w [ 0 ]"), "{s}");
        assert!(s.contains("__kpl_catomic_const_load ( & d [ 1 ] )"), "{s}");
    }

    #[test]
    fn an_inner_plain_pointer_shadows_the_atomic_one() {
        let (s, _) = rewrite("__global__ void k(cuda::atomic<int> *c, int *o) { { int *c = o; c[0] = 1; } c[0] = 2; }");
        assert!(s.contains("c [ 0 ] = 1 ;"), "{s}");
        assert!(s.contains("__kpl_catomic_system_store ( & c [ 0 ] , 2 )"), "{s}");
    }

    #[test]
    fn the_value_of_an_assignment_is_the_new_value() {
        let (s, e) = rewrite("__device__ cuda::atomic<int> n; __global__ void k(int *o, int v) { o[0] = (n += v * 2); o[1] = ++n; o[2] = (n = 3); }");
        assert!(e.is_empty(), "{e:?}");
        assert!(s.contains("o [ 0 ] = ( ( ( __kpl_catomic_system_fetch_add ( & n , v * 2 ) ) + ( v * 2 ) ) )"), "{s}");
        assert!(s.contains("o [ 1 ] = ( ( __kpl_catomic_system_fetch_add ( & n , 1 ) ) + ( 1 ) )"), "{s}");
        assert!(s.contains("o [ 2 ] = ( ( ( __kpl_catomic_system_store ( & n , 3 ) ) , ( 3 ) ) )"), "{s}");
        // An operand with a side effect would run twice.
        let (_, e) = rewrite("__device__ cuda::atomic<int> n; __global__ void k(int *o, int i) { o[0] = (n += i++); }");
        assert!(e.iter().any(|m| m.contains("no calls or assignments")), "{e:?}");
    }
}
