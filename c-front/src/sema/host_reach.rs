//! Which host functions a whole program (a file that defines `main`) may call, read on the
//! token stream: `main`, and every function whose name is mentioned in code the program may
//! run (a call, its address taken, an argument of `benchmark_kernel`), where that code is
//! the body of a function it may call or anything outside the file's plain host functions
//! (templates, classes, lambdas at file scope, device code: all counted as run). A
//! function's own header, a declaration, the header of another function of the name and a
//! launch `f<<<...>>>` are not mentions. What is left is never called: the launches in it are
//! never made (a launcher under `#if` in its dispatcher, as llm.c writes them).

use crate::sema::host_constants::{closing, Tok};
use crate::text::tokens::CTok;
use std::collections::HashSet;

/// One plain host function of the file: its name, and the place of its whole item (from
/// its first token to its last).
pub(crate) struct HostItem<'a> {
    pub(crate) name: &'a str,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// What a program with `main` may run.
pub struct Reach {
    /// The host functions it never calls: name and item place.
    never: Vec<(String, usize, usize)>,
    /// The names mentioned in code it may run.
    mentions: HashSet<String>,
}

/// Is `file[k]` (a name) the name of a function's header or declaration (`void f(int);`,
/// `void f(int) {`), or of a launch `f<<<`, rather than a use of it?
pub(crate) fn declared_or_launched(file: &[Tok], k: usize) -> bool {
    let launched = file.get(k + 1).is_some_and(|t| t.1 == CTok::P("<<"))
        && file.get(k + 2).is_some_and(|t| t.1 == CTok::P("<"));
    let header = matches!(
        k.checked_sub(1).map(|b| &file[b].1),
        Some(CTok::Spec(_) | CTok::Ident(_) | CTok::P("*" | "&"))
    ) && file.get(k + 1).is_some_and(|t| t.1 == CTok::P("("))
        && closing(file, k + 1)
            .and_then(|c| file.get(c + 1))
            .is_some_and(|t| matches!(t.1, CTok::P(";" | "{")));
    launched || header
}

/// The reach of the program in `file` whose plain host functions are `items`; `None` where
/// the file defines no `main` (its functions may be called from another file).
pub(crate) fn reach(items: &[HostItem], file: &[Tok]) -> Option<Reach> {
    if !items.iter().any(|f| f.name == "main") {
        return None;
    }
    let names: HashSet<&str> = items.iter().map(|f| f.name).collect();
    // Each mention of a host function's name: the name of the function it is in (`None`:
    // outside every plain host function), what it names, and where.
    let mut edges: Vec<(Option<&str>, &str, usize)> = Vec::new();
    let mut all: Vec<(Option<&str>, &str)> = Vec::new();
    for (k, t) in file.iter().enumerate() {
        let CTok::Ident(n) = &t.1 else { continue };
        if declared_or_launched(file, k) {
            continue;
        }
        let within = items.iter().find(|f| f.start <= t.0 && t.0 < f.end).map(|f| f.name);
        if let Some(callee) = names.get(n.as_str()) {
            edges.push((within, callee, t.0));
        }
        all.push((within, n.as_str()));
    }
    let mut reached: HashSet<&str> = HashSet::from(["main"]);
    loop {
        let before = reached.len();
        for (within, callee, _) in &edges {
            if within.is_none_or(|w| reached.contains(w)) {
                reached.insert(callee);
            }
        }
        if reached.len() == before {
            break;
        }
    }
    Some(Reach {
        never: items
            .iter()
            .filter(|f| !reached.contains(f.name))
            .map(|f| (f.name.to_string(), f.start, f.end))
            .collect(),
        mentions: all
            .into_iter()
            .filter(|(within, _)| within.is_none_or(|w| reached.contains(w)))
            .map(|(_, n)| n.to_string())
            .collect(),
    })
}

impl Reach {
    /// The function the program never calls that holds the place `at`, if one does.
    pub fn never_called_at(&self, at: usize) -> Option<&str> {
        self.never.iter().find(|(_, s, e)| *s <= at && at < *e).map(|(n, _, _)| n.as_str())
    }

    /// Is `name` mentioned in code the program may run (other than in headers, declarations
    /// and launches)?
    pub fn mentioned(&self, name: &str) -> bool {
        self.mentions.contains(name)
    }
}
