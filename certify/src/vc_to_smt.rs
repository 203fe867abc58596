//! VC terms ─► SMT-LIB 2 text (`--dump=smt`, and the second solver of `check-cert`).

use crate::vc::{Sort, Terms};
use egg::Id;
use std::collections::BTreeMap;

pub fn sort_name(s: Sort) -> &'static str {
    match s {
        Sort::Bool => "Bool",
        Sort::Word => "(_ BitVec 32)",
        Sort::Array => "(Array (_ BitVec 32) (_ BitVec 32))",
    }
}

/// Quote a symbol for SMT-LIB when it has characters outside simple symbols. A quoted
/// symbol cannot hold `|` or `\\`: those, `%` and what is not printable ASCII are written
/// `%XX` (one-to-one, so distinct names stay distinct), so no name can end the quote and
/// give the solver a command.
pub fn symbol(s: &str) -> String {
    let simple = !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c))
        && !s.starts_with(|c: char| c.is_ascii_digit());
    if simple {
        return s.to_string();
    }
    let mut out = String::from("|");
    for b in s.bytes() {
        match b {
            b' '..=b'~' if !matches!(b, b'|' | b'\\' | b'%') => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out.push('|');
    out
}

/// Free text as an SMT-LIB comment: one line (control characters written `%XX`), so that
/// nothing after it is read as a command.
pub fn comment(s: &str) -> String {
    let mut out = String::from("; ");
    for c in s.chars() {
        if c.is_control() {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Declarations of every variable the roots mention.
pub fn declarations(t: &Terms, roots: &[Id]) -> String {
    let mut vars = BTreeMap::new();
    let mut funs = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<Id> = roots.to_vec();
    while let Some(i) = stack.pop() {
        if !seen.insert(i) {
            continue;
        }
        let n = t.node(i);
        match n {
            crate::vc::Vc::Var(s) => {
                vars.insert(s.as_str().to_string(), t.sorts.get(s).copied().unwrap_or(Sort::Word));
            }
            crate::vc::Vc::App(f, args) => {
                funs.insert(f.as_str().to_string(), args.len());
            }
            _ => {}
        }
        stack.extend(egg::Language::children(n).iter().copied());
    }
    let word = sort_name(Sort::Word);
    let mut out: String = funs
        .into_iter()
        .map(|(f, n)| format!("(declare-fun {} ({}) {word})\n", symbol(&f), vec![word; n].join(" ")))
        .collect();
    out.extend(vars.into_iter().map(|(n, s)| format!("(declare-fun {} () {})\n", symbol(&n), sort_name(s))));
    out
}

/// A term as SMT-LIB text, with shared subterms in `let`s when they repeat.
pub fn term(t: &Terms, id: Id) -> String {
    // Terms are DAGs; printing through `show` expands sharing, which is fine for the sizes
    // kpl produces after SSA (every definition is its own equation).
    let s = t.show(id);
    quote_symbols(t, &s)
}

fn quote_symbols(_t: &Terms, s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for tok in s.split_inclusive([' ', '(', ')']) {
        let (word, delim) = match tok.char_indices().last() {
            Some((i, c)) if c == ' ' || c == '(' || c == ')' => (&tok[..i], &tok[i..]),
            _ => (tok, ""),
        };
        if word.is_empty() || word.starts_with("#x") || word == "true" || word == "false" {
            out.push_str(word);
        } else {
            out.push_str(&symbol(word));
        }
        out.push_str(delim);
    }
    out
}

/// A full SMT-LIB script: declarations, the definitions, and one query per goal, each
/// between push and pop, with `(check-sat)`.
pub fn script(t: &Terms, defs: &[(Id, Id)], assumptions: &[Id], goals: &[(String, Id)]) -> String {
    let mut roots: Vec<Id> = defs.iter().flat_map(|(a, b)| [*a, *b]).collect();
    roots.extend(assumptions.iter().copied());
    roots.extend(goals.iter().map(|g| g.1));
    let mut out = String::from("(set-logic QF_ABV)\n");
    out.push_str(&declarations(t, &roots));
    for (s, v) in defs {
        out.push_str(&format!("(assert (= {} {}))\n", term(t, *s), term(t, *v)));
    }
    for a in assumptions {
        out.push_str(&format!("(assert {})\n", term(t, *a)));
    }
    for (name, g) in goals {
        out.push_str(&format!("{}\n(push 1)\n(assert {})\n(check-sat)\n(pop 1)\n", comment(name), term(t, *g)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_name_ends_a_quoted_symbol_or_a_comment() {
        assert_eq!(symbol("x@3"), "x@3");
        assert_eq!(symbol("lid1.x"), "lid1.x");
        assert_eq!(symbol("a b"), "|a b|");
        // The closers: `|` ends a quoted symbol, `\\` escapes in some solvers, a newline ends a comment.
        let evil = "x|) (assert false) (check-sat) (|y";
        let q = symbol(evil);
        assert_eq!(q.matches('|').count(), 2, "{q}");
        assert!(q.starts_with('|') && q.ends_with('|') && !q[1..q.len() - 1].contains(['|', '\\']), "{q}");
        assert_ne!(symbol("a|b"), symbol("a%7Cb"), "the encoding is one-to-one");
        assert_eq!(symbol(""), "||");
        let c = comment("race\n(assert false)\r(check-sat)");
        assert!(!c.contains(['\n', '\r']) && c.starts_with("; "), "{c}");
    }
}
