//! Where template instances go in the file (`templates.rs` expands them): at their point of
//! instantiation, as C++ places them, so that an instance sees the types declared between
//! its template and its use (`typedef float floatX;` after `template<class T> struct P`,
//! and `P<floatX>` after both).

use crate::text::tokens::CTok;
use std::collections::HashMap;

type Tok = (usize, CTok, usize);

/// A file-scope item: kept tokens, or the place of a template's definition.
pub enum Item {
    Keep(Vec<Tok>),
    Template(String),
}

/// The file with each instance (by template: each instance's name and tokens) right before
/// the first item that names it (or, for one only other instances name, before the first
/// of theirs), never before its template; one nothing names stays at its template.
/// Instances placed together keep their templates' order.
pub fn place(items: Vec<Item>, mut instances: HashMap<String, Vec<(String, Vec<Tok>)>>) -> Vec<Tok> {
    // Each template's place, and each identifier's first item.
    let mut template_at: HashMap<&str, usize> = HashMap::new();
    let mut first_use: HashMap<&str, usize> = HashMap::new();
    for (k, p) in items.iter().enumerate() {
        match p {
            Item::Template(n) => {
                template_at.insert(n.as_str(), k);
            }
            Item::Keep(t) => {
                for x in t {
                    if let CTok::Ident(w) = &x.1 {
                        first_use.entry(w.as_str()).or_insert(k);
                    }
                }
            }
        }
    }
    // The instances: (template's place, name, tokens), in the templates' order.
    let mut names: Vec<String> = instances.keys().cloned().collect();
    names.sort_by_key(|n| (template_at.get(n.as_str()).copied().unwrap_or(usize::MAX), n.clone()));
    let mut all: Vec<(usize, String, Vec<Tok>)> = Vec::new();
    for n in names {
        let at = template_at.get(n.as_str()).copied().unwrap_or(0);
        for (m, body) in instances.remove(&n).unwrap_or_default() {
            all.push((at, m, body));
        }
    }
    // The instances whose tokens name each instance.
    let mut named_in: HashMap<&str, Vec<usize>> = HashMap::new();
    for (u, (_, m, body)) in all.iter().enumerate() {
        let mut seen = std::collections::HashSet::new();
        for x in body {
            if let CTok::Ident(w) = &x.1 {
                if w != m && seen.insert(w.as_str()) {
                    named_in.entry(w.as_str()).or_default().push(u);
                }
            }
        }
    }
    let mut anchor: Vec<usize> = all.iter().map(|(at, m, _)| first_use.get(m.as_str()).copied().unwrap_or(usize::MAX).max(*at)).collect();
    loop {
        let mut changed = false;
        for i in 0..all.len() {
            let users = named_in.get(all[i].1.as_str()).map(Vec::as_slice).unwrap_or(&[]);
            let a = users.iter().map(|&u| anchor[u]).min().unwrap_or(usize::MAX).max(all[i].0);
            if a < anchor[i] {
                anchor[i] = a;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // An instance only instances nothing anchors name (a kernel only skipped host code
    // launches, and the helpers it instantiates) goes right before the first of them,
    // which stay at their templates: `store128<floatX>` named only in such a kernel goes
    // after `typedef float floatX;`, not at `store128`'s template before it.
    let unanchored: Vec<usize> = (0..all.len()).filter(|&i| anchor[i] == usize::MAX).collect();
    for _ in 0..=unanchored.len() {
        let mut changed = false;
        for &i in &unanchored {
            let Some(users) = named_in.get(all[i].1.as_str()).filter(|u| !u.is_empty()) else { continue };
            let place = |u: usize| if anchor[u] == usize::MAX { all[u].0 } else { anchor[u] };
            let a = users.iter().map(|&u| place(u)).min().unwrap_or(usize::MAX).max(all[i].0);
            if a != anchor[i] {
                anchor[i] = a;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut by_anchor: HashMap<usize, Vec<Vec<Tok>>> = HashMap::new();
    for (i, (at, _, body)) in all.into_iter().enumerate() {
        let a = if anchor[i] == usize::MAX { at } else { anchor[i] };
        by_anchor.entry(a).or_default().push(body);
    }
    let mut out = Vec::new();
    for (k, p) in items.into_iter().enumerate() {
        for body in by_anchor.remove(&k).unwrap_or_default() {
            out.extend(body);
        }
        if let Item::Keep(t) = p {
            out.extend(t);
        }
    }
    out
}
