//! The project's own import graph, read from the sources (issue 56): no circle of more than
//! two files in any crate, and in the C front end (`c-front/`) none at all, with every
//! import pointing down its stages: `text` ─► `syntax` ─► `sema` ─► `options` ─► `lower` ─►
//! the crate root that drives them. An import is a `use crate::...` or a `crate::a::b::C`
//! path in code (`super::` paths resolved); the module it names is the longest module
//! prefix of the path.

mod common;
use common::scratch;
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const CRATES: &[&str] = &["kpl-lang", "c-front", "semantics", "reduction", "certify", "isabelle-export", "emit", "testgen", "."];

/// The C front end's stages, bottom first; the crate root (`""`) drives them all.
const STAGES: &[&str] = &["text", "syntax", "sema", "options", "lower", ""];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `a/b.rs` is `a::b`, `a/mod.rs` is `a`, `lib.rs` and `main.rs` are the root `""`.
fn module_name(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts.join("::")
}

/// The code of a file without comments and string literals, so that neither names a path.
fn code_of(text: &str) -> String {
    let strings = Regex::new(r#""(\\.|[^"\\])*""#).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => l[..i].to_string(),
            None => l.to_string(),
        })
        .collect();
    strings.replace_all(&lines.join("\n"), "\"\"").into_owned()
}

/// Every path of a `use` tree, `a::{b, c::{d, E}}` giving `a::b`, `a::c::d`, `a::c::E`.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let (Some(open), true) = (tree.find('{'), tree.ends_with('}')) {
        let head = tree[..open].trim_end_matches("::");
        let prefix = if head.is_empty() { prefix.to_string() } else { format!("{prefix}::{head}") };
        let inner = &tree[open + 1..tree.len() - 1];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&prefix, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&prefix, &inner[start..], out);
    } else if !tree.is_empty() {
        out.push(format!("{prefix}::{}", tree.split(" as ").next().unwrap().trim()));
    }
}

/// The crate's modules and, for each, the modules it imports (itself left out).
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_name(src, f)).collect();
    let uses = Regex::new(r"(?s)\buse\s+(crate|super)::([^;]*);").unwrap();
    let inline = Regex::new(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)").unwrap();
    let mut edges = BTreeMap::new();
    for f in &files {
        let me = module_name(src, f);
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        let mut paths: Vec<(String, String)> = Vec::new();
        for c in uses.captures_iter(&code) {
            let mut v = Vec::new();
            expand("", &c[2], &mut v);
            paths.extend(v.into_iter().map(|p| (c[1].to_string(), p)));
        }
        let rest = uses.replace_all(&code, "");
        for c in inline.captures_iter(&rest) {
            paths.push((c[1].to_string(), c[2].to_string()));
        }
        // A file's parent module, for `super::`; a `mod tests` inside a file says `super::*`
        // of its own file, which names nothing.
        let parent = me.rsplit_once("::").map_or(String::new(), |(p, _)| p.to_string());
        let mut out = BTreeSet::new();
        for (root, path) in paths {
            let base = if root == "crate" { String::new() } else { parent.clone() };
            let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty() && *s != "*").collect();
            if root == "super" && segs.is_empty() {
                continue;
            }
            let full: Vec<String> = base.split("::").filter(|s| !s.is_empty()).map(String::from).chain(segs.iter().map(|s| s.to_string())).collect();
            let target = (0..=full.len()).rev().map(|k| full[..k].join("::")).find(|m| modules.contains(m)).unwrap_or_default();
            if target != me {
                out.insert(target);
            }
        }
        edges.insert(me, out);
    }
    edges
}

/// The strongly connected components of more than one module (Tarjan's algorithm).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.edges.get(v).into_iter().flatten() {
            if !t.edges.contains_key(w.as_str()) {
                continue;
            }
            if !t.index.contains_key(w.as_str()) {
                visit(t, w);
                let lw = t.low[w.as_str()];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w.as_str()) {
                let iw = t.index[w.as_str()];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut c = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                c.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                c.sort();
                t.out.push(c);
            }
        }
    }
    let mut t = T { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on: BTreeSet::new(), out: Vec::new() };
    for v in edges.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out
}

fn src_of(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(krate).join("src")
}

#[test]
fn no_crate_has_a_circle_of_more_than_two_files() {
    let mut bad = Vec::new();
    for k in CRATES {
        for c in circles(&graph(&src_of(k))) {
            if c.len() > 2 {
                bad.push(format!("{k}: {}", c.join(", ")));
            }
        }
    }
    assert!(bad.is_empty(), "import circles of more than two files:\n{}", bad.join("\n"));
}

#[test]
fn the_c_front_end_imports_down_its_stages_only() {
    let edges = graph(&src_of("c-front"));
    let circles = circles(&edges);
    assert!(circles.is_empty(), "import circles in c-front: {circles:?}");
    let stage = |m: &str| {
        let first = m.split("::").next().unwrap_or("");
        STAGES.iter().position(|s| *s == first).unwrap_or_else(|| panic!("c-front module `{m}` is in no stage of {STAGES:?}"))
    };
    let mut up = Vec::new();
    for (from, tos) in &edges {
        for to in tos {
            if stage(to) > stage(from) {
                up.push(format!("{from} -> {}", if to.is_empty() { "the crate root" } else { to }));
            }
        }
    }
    assert!(up.is_empty(), "imports pointing up the C front end's stages:\n{}", up.join("\n"));
    // The stages are all there, so the check above is about them.
    for s in &STAGES[..STAGES.len() - 1] {
        assert!(edges.keys().any(|m| m.split("::").next() == Some(s)), "no module of stage `{s}`");
    }
}

/// Issue 56's rule for the C front end: modules small enough to read, each under 1,000
/// lines, with a `//!` line saying what it does.
#[test]
fn every_c_front_module_is_under_a_thousand_lines_and_says_what_it_does() {
    let mut files = Vec::new();
    rust_files(&src_of("c-front"), &mut files);
    assert!(files.len() > 20, "{files:?}");
    let mut bad = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines = text.lines().count();
        if lines >= 1000 {
            bad.push(format!("{}: {lines} lines", f.display()));
        }
        if !text.trim_start().starts_with("//!") {
            bad.push(format!("{}: no `//!` line at the top", f.display()));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_graph_reader_sees_imports_and_circles() {
    // The reader itself, on a made-up crate: a circle of three through a `use` tree, an
    // inline path and a `super::` path, and a comment and a string that name none.
    let dir = scratch("import-graph");
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod c;\n").unwrap();
    std::fs::write(src.join("a/mod.rs"), "mod x;\nuse crate::{b::{self, B}};\n").unwrap();
    std::fs::write(src.join("a/x.rs"), "use super::y; // crate::c\nfn f() { let s = \"crate::c::C\"; }\n").unwrap();
    std::fs::write(src.join("b.rs"), "fn f() { crate::c::g(); }\n").unwrap();
    std::fs::write(src.join("c.rs"), "use crate::a::X as Y;\n").unwrap();
    let g = graph(&src);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(g["a"], BTreeSet::from(["b".to_string()]));
    assert_eq!(g["a::x"], BTreeSet::from(["a".to_string()]), "super:: is the parent module; comments and strings name nothing");
    assert_eq!(g["b"], BTreeSet::from(["c".to_string()]));
    assert_eq!(circles(&g), vec![vec!["a".to_string(), "b".to_string(), "c".to_string()]]);
}
