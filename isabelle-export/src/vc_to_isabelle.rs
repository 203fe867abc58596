//! Verification-condition terms (s-expressions over 32-bit words, booleans and arrays) as
//! HOL terms: words are `32 word`, arrays `32 word \<Rightarrow> 32 word` (`select` is
//! application, `store` is `fun_upd`), and each operator is its KPL_Ops meaning. Sorts of
//! the symbols are inferred from how the terms use them.

use crate::names::Names;
use kpl_lang::sexp::Sx;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sort {
    Bool,
    Word,
    Array,
}

impl Sort {
    pub fn typ(self) -> &'static str {
        match self {
            Sort::Bool => "bool",
            Sort::Word => "32 word",
            Sort::Array => "32 word \\<Rightarrow> 32 word",
        }
    }
}

/// The sorts of a family of terms' symbols, and the arities of their uninterpreted
/// functions (`(fadd a b)`: words to a word).
#[derive(Default, Debug, Clone)]
pub struct Sorts {
    pub vars: BTreeMap<String, Sort>,
    pub funs: BTreeMap<String, usize>,
}

/// A word literal: SMT-LIB's `#x0000002a`, or decimal (as invariants print them).
pub fn literal(a: &str) -> Option<u32> {
    match a.strip_prefix("#x") {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None if a.starts_with(|c: char| c.is_ascii_digit()) => a.parse().ok(),
        None => None,
    }
}

/// Is this atom a symbol (not a literal)?
pub fn is_symbol(a: &str) -> bool {
    literal(a).is_none() && a != "true" && a != "false"
}

const WORD_OPS: &[&str] = &[
    "bvadd", "bvsub", "bvmul", "bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvshl", "bvlshr", "bvashr", "bvand", "bvor", "bvxor",
    "bvnot", "bvneg",
];
const WORD_PREDS: &[&str] = &["bvult", "bvule", "bvslt", "bvsle"];
const BOOL_OPS: &[&str] = &["and", "or", "not", "=>"];

impl Sorts {
    /// Learn from a term expected to have sort `want` (if known); gives its sort.
    pub fn visit(&mut self, t: &Sx, want: Option<Sort>) -> Option<Sort> {
        match t {
            Sx::Atom(a) if a == "true" || a == "false" => Some(Sort::Bool),
            Sx::Atom(a) if literal(a).is_some() => Some(Sort::Word),
            Sx::Atom(a) => {
                if let (Some(w), None) = (want, self.vars.get(a)) {
                    self.vars.insert(a.clone(), w);
                }
                self.vars.get(a).copied()
            }
            Sx::List(_) => {
                let (h, args) = (t.head(), t.args());
                if WORD_OPS.contains(&h) || WORD_PREDS.contains(&h) {
                    args.iter().for_each(|x| {
                        self.visit(x, Some(Sort::Word));
                    });
                    Some(if WORD_PREDS.contains(&h) { Sort::Bool } else { Sort::Word })
                } else if BOOL_OPS.contains(&h) {
                    args.iter().for_each(|x| {
                        self.visit(x, Some(Sort::Bool));
                    });
                    Some(Sort::Bool)
                } else if h == "=" && args.len() == 2 {
                    // Each side once, the first again only if the second fixed the sort: a
                    // visit with a known sort never revisits, so nesting stays polynomial.
                    let s0 = self.visit(&args[0], None);
                    let s1 = self.visit(&args[1], s0);
                    if s0.is_none() && s1.is_some() {
                        self.visit(&args[0], s1);
                    }
                    Some(Sort::Bool)
                } else if h == "ite" && args.len() == 3 {
                    self.visit(&args[0], Some(Sort::Bool));
                    let s1 = self.visit(&args[1], want);
                    let s = want.or(s1);
                    let s2 = self.visit(&args[2], s);
                    let s = s.or(s2);
                    if s1.is_none() && s.is_some() {
                        self.visit(&args[1], s);
                    }
                    s
                } else if h == "select" && args.len() == 2 {
                    self.visit(&args[0], Some(Sort::Array));
                    self.visit(&args[1], Some(Sort::Word));
                    Some(Sort::Word)
                } else if h == "store" && args.len() == 3 {
                    self.visit(&args[0], Some(Sort::Array));
                    self.visit(&args[1], Some(Sort::Word));
                    self.visit(&args[2], Some(Sort::Word));
                    Some(Sort::Array)
                } else {
                    self.funs.insert(h.to_string(), args.len());
                    args.iter().for_each(|x| {
                        self.visit(x, Some(Sort::Word));
                    });
                    Some(Sort::Word)
                }
            }
        }
    }

    /// Infer from goals (booleans) and definitions (`symbol = term`), to a fixpoint.
    pub fn infer(goals: &[&Sx], defs: &[(&str, &Sx)]) -> Sorts {
        let mut s = Sorts::default();
        loop {
            let before = s.vars.len();
            for g in goals {
                s.visit(g, Some(Sort::Bool));
            }
            for (sym, t) in defs {
                let known = s.vars.get(*sym).copied();
                if let Some(found) = s.visit(t, known) {
                    s.vars.entry(sym.to_string()).or_insert(found);
                }
            }
            if s.vars.len() == before {
                return s;
            }
        }
    }

    /// The sort of a symbol; an unconstrained one is taken to be a word.
    pub fn of(&self, sym: &str) -> Sort {
        self.vars.get(sym).copied().unwrap_or(Sort::Word)
    }

    /// The sort of a term, from its head and the symbols' sorts; `None` when unknown.
    pub fn sort_of(&self, t: &Sx) -> Option<Sort> {
        match t {
            Sx::Atom(a) if a == "true" || a == "false" => Some(Sort::Bool),
            Sx::Atom(a) if literal(a).is_some() => Some(Sort::Word),
            Sx::Atom(a) => self.vars.get(a).copied(),
            Sx::List(_) => match t.head() {
                h if WORD_PREDS.contains(&h) || BOOL_OPS.contains(&h) || h == "=" => Some(Sort::Bool),
                "ite" if t.args().len() == 3 => self.sort_of(&t.args()[1]).or_else(|| self.sort_of(&t.args()[2])),
                "store" => Some(Sort::Array),
                _ => Some(Sort::Word),
            },
        }
    }
}

/// The symbols of a term, in order of first occurrence.
pub fn symbols(t: &Sx, out: &mut Vec<String>) {
    match t {
        Sx::Atom(a) => {
            if is_symbol(a) && !out.contains(a) {
                out.push(a.clone());
            }
        }
        Sx::List(xs) => {
            for x in &xs[1..] {
                symbols(x, out);
            }
        }
    }
}

/// The uninterpreted function heads of a term.
pub fn functions(t: &Sx, out: &mut Vec<String>) {
    if let Sx::List(xs) = t {
        let h = t.head();
        let known = WORD_OPS.contains(&h)
            || WORD_PREDS.contains(&h)
            || BOOL_OPS.contains(&h)
            || ["=", "ite", "select", "store"].contains(&h);
        if !known && !out.iter().any(|f| f == h) {
            out.push(h.to_string());
        }
        for x in &xs[1..] {
            functions(x, out);
        }
    }
}

/// A word literal as a HOL term.
pub fn word(n: u32) -> String {
    format!("({n}::32 word)")
}

/// The HOL text of a term. `name` gives each symbol's identifier.
pub fn term(t: &Sx, names: &mut Names) -> String {
    term_with(t, &mut |s| names.get(s))
}

/// The HOL text of a term, with symbols named by `name`.
pub fn term_with(t: &Sx, name: &mut dyn FnMut(&str) -> String) -> String {
    match t {
        Sx::Atom(a) if a == "true" => "True".into(),
        Sx::Atom(a) if a == "false" => "False".into(),
        Sx::Atom(a) => match literal(a) {
            Some(n) => word(n),
            None => name(a),
        },
        Sx::List(_) => {
            let h = t.head();
            let a: Vec<String> = t.args().iter().map(|x| term_with(x, name)).collect();
            let bin = |op: &str| format!("({} {op} {})", a[0], a[1]);
            let call = |f: &str| format!("({f} {})", a.join(" "));
            match (h, a.len()) {
                ("and", n) if n >= 2 => format!("({})", a.join(" \\<and> ")),
                ("or", n) if n >= 2 => format!("({})", a.join(" \\<or> ")),
                ("=>", 2) => bin("\\<longrightarrow>"),
                ("not", 1) => format!("(\\<not> {})", a[0]),
                ("=", 2) => bin("="),
                ("ite", 3) => format!("(if {} then {} else {})", a[0], a[1], a[2]),
                ("bvadd", 2) => bin("+"),
                ("bvsub", 2) => bin("-"),
                ("bvmul", 2) => bin("*"),
                ("bvneg", 1) => format!("(- {})", a[0]),
                ("bvnot", 1) => format!("(NOT {})", a[0]),
                ("bvand", 2) => bin("AND"),
                ("bvor", 2) => bin("OR"),
                ("bvxor", 2) => bin("XOR"),
                ("bvult", 2) => bin("<"),
                ("bvule", 2) => bin("\\<le>"),
                ("bvudiv", 2) => call("kpl_udiv"),
                ("bvurem", 2) => call("kpl_urem"),
                ("bvsdiv", 2) => call("kpl_sdiv"),
                ("bvsrem", 2) => call("kpl_srem"),
                ("bvshl", 2) => call("kpl_shl"),
                ("bvlshr", 2) => call("kpl_lshr"),
                ("bvashr", 2) => call("kpl_ashr"),
                ("bvslt", 2) => call("kpl_slt"),
                ("bvsle", 2) => call("kpl_sle"),
                ("select", 2) => format!("({} {})", a[0], a[1]),
                ("store", 3) => format!("({}({} := {}))", a[0], a[1], a[2]),
                _ => {
                    let f = name(h);
                    if a.is_empty() {
                        f
                    } else {
                        format!("({f} {})", a.join(" "))
                    }
                }
            }
        }
    }
}

/// Where the subterm at `pos` (argument indices, as `Sx::at` takes them) sits in the HOL term
/// that `term_with` prints: a word of `f` (the function of an application) and `a` (its
/// argument), as `kpl_rw` of `KPL_Rules.thy` follows it. `None` when `pos` is not in `t`.
pub fn hol_path(t: &Sx, pos: &[usize]) -> Option<String> {
    let mut path = String::new();
    let mut t = t;
    for &k in pos {
        let n = t.args().len();
        if k >= n {
            return None;
        }
        match t.head() {
            // `a \<and> b \<and> c` is `a \<and> (b \<and> c)`.
            "and" | "or" if n >= 2 => {
                path.push_str(&"a".repeat(k));
                if k + 1 < n {
                    path.push_str("fa");
                }
            }
            // `(A i)`: the array is the function.
            "select" if n == 2 => path.push(if k == 0 { 'f' } else { 'a' }),
            // Everything else is its operator applied to the arguments in order.
            _ => {
                path.push_str(&"f".repeat(n - 1 - k));
                path.push('a');
            }
        }
        t = &t.args()[k];
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sx(s: &str) -> Sx {
        Sx::parse(s).unwrap()
    }

    #[test]
    fn sorts_come_from_use() {
        let g = sx("(and reach@7 (bvule #x00000040 lid1.x))");
        let d = sx("(and (= A@1 (store A@0 i v)) (= b (ite c x y)))");
        let s = Sorts::infer(&[&g], &[("reach@7", &d)]);
        assert_eq!(s.of("reach@7"), Sort::Bool);
        assert_eq!(s.of("lid1.x"), Sort::Word);
        assert_eq!(s.of("A@1"), Sort::Array);
        assert_eq!(s.of("A@0"), Sort::Array);
        assert_eq!(s.of("c"), Sort::Bool);
        // `b`, `x`, `y` are unconstrained: words by default.
        assert_eq!(s.of("b"), Sort::Word);
        // A sort found on the right of `=` or in an `ite`'s else branch flows back.
        let g = sx("(and (= p (bvult x y)) (= q (ite c r (and p p))))");
        let s = Sorts::infer(&[&g], &[]);
        assert_eq!(s.of("p"), Sort::Bool);
        assert_eq!(s.of("q"), Sort::Bool);
        assert_eq!(s.of("r"), Sort::Bool);
    }

    #[test]
    fn deep_ite_chains_take_polynomial_time() {
        // Every write in a loop body adds an `ite` to the logged element's definition; one
        // visit per branch per level would be 2^80 here.
        let mut t = "u".to_string();
        for i in 0..80 {
            t = format!("(ite c{i} (ite d{i} v{i} w{i}) {t})");
        }
        let g = sx(&format!("(= {t} z)"));
        let s = Sorts::infer(&[&g], &[]);
        assert_eq!(s.of("c79"), Sort::Bool);
        assert_eq!(s.of("u"), Sort::Word);
    }

    #[test]
    fn paths_follow_the_printed_applications() {
        let t = sx("(and p (not (bvult x y)) (= (select A i) (ite c u v)) q)");
        assert_eq!(hol_path(&t, &[0]).as_deref(), Some("fa"));
        assert_eq!(hol_path(&t, &[1, 0, 1]).as_deref(), Some("afaaa"));
        assert_eq!(hol_path(&t, &[2, 0, 0]).as_deref(), Some("aafafaf"));
        assert_eq!(hol_path(&t, &[2, 1, 0]).as_deref(), Some("aafaaffa"));
        assert_eq!(hol_path(&t, &[3]).as_deref(), Some("aaa"));
        assert_eq!(hol_path(&t, &[4]), None);
        assert_eq!(hol_path(&t, &[]).as_deref(), Some(""));
    }

    #[test]
    fn terms_print_as_hol() {
        let mut n = Names::default();
        let t = sx("(not (=> (and p (bvult x #x0000000a)) (= (select (store A i #xffffffff) j) (bvudiv x y))))");
        assert_eq!(
            term(&t, &mut n),
            "(\\<not> ((v_p \\<and> (v_x < (10::32 word))) \\<longrightarrow> (((v_A(v_i := (4294967295::32 word))) v_j) = (kpl_udiv v_x v_y))))"
        );
        assert_eq!(term(&sx("(ite c true false)"), &mut n), "(if v_c then True else False)");
    }
}
