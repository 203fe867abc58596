//! A small checker of the theories we write, for tests where no Isabelle is installed:
//! comments, cartouches, quotes and parentheses balance; each theory's header names its file
//! and imports theories of the session or its base session in a subdirectory (`KPL/X.thy`
//! is imported as `"KPL.X"`), or of HOL-Library; every `lemma`, `have` and `show` has a proof; no
//! `sorry` or `oops`; and the lemmas and constants a theory uses are defined before use.

use std::collections::{BTreeMap, BTreeSet};

/// Problems found in a session's files (name, text); empty when there are none.
pub fn check(files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    let theories: Vec<&(String, String)> = files.iter().filter(|(n, _)| n.ends_with(".thy")).collect();
    // A theory's name is its file's; one in a subdirectory (a base session) is imported
    // qualified by it: `KPL/KPL_Ops.thy` is `"KPL.KPL_Ops"`.
    let base = |file: &str| file.rsplit('/').next().unwrap_or(file).trim_end_matches(".thy").to_string();
    let qualified: BTreeMap<String, String> = theories
        .iter()
        .filter_map(|(n, _)| n.rsplit_once('/').map(|(dir, _)| (format!("{}.{}", dir.replace('/', "."), base(n)), base(n))))
        .collect();
    let resolve = |imp: &str| -> String { qualified.get(imp).cloned().unwrap_or_else(|| imp.to_string()) };
    // Per theory: its imports (within the session) and the names it defines.
    let mut imports: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut defines: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, text) in &theories {
        let name = base(file);
        let words = if balanced(text).is_ok() { refs_and_commands(text) } else { Vec::new() };
        defines.insert(name.clone(), words.windows(2).filter(|w| DEFINERS.contains(&w[0].as_str())).map(|w| w[1].clone()).collect());
        let code = strip(text);
        let w: Vec<&str> = code.split_whitespace().collect();
        let imp = match (w.iter().position(|x| *x == "imports"), w.iter().position(|x| *x == "begin")) {
            (Some(i), Some(b)) if i < b => w[i + 1..b].iter().map(|x| resolve(x.trim_matches('"'))).collect(),
            _ => Vec::new(),
        };
        imports.insert(name, imp);
    }
    for (file, text) in &theories {
        let mut p = |m: String| problems.push(format!("{file}: {m}"));
        if let Err(e) = balanced(text) {
            p(e);
            continue;
        }
        let code = strip(text);
        let words: Vec<&str> = code.split_whitespace().collect();
        // Header.
        let want = base(file);
        let want = want.as_str();
        match (words.first(), words.get(1)) {
            (Some(&"theory"), Some(n)) if *n == want => {}
            _ => p(format!("does not start with `theory {want}`")),
        }
        let imports_at = words.iter().position(|w| *w == "imports");
        let begin_at = words.iter().position(|w| *w == "begin");
        match (imports_at, begin_at) {
            (Some(i), Some(b)) if i < b => {
                for imp in &words[i + 1..b] {
                    let imp = imp.trim_matches('"');
                    // Unqualified: a theory beside this one; qualified: one in that directory.
                    let dir = file.rsplit_once('/').map_or("", |(d, _)| d);
                    let known = if qualified.contains_key(imp) {
                        true
                    } else {
                        let path = if dir.is_empty() { format!("{imp}.thy") } else { format!("{dir}/{imp}.thy") };
                        theories.iter().any(|(n, _)| *n == path)
                    };
                    if !known && !imp.starts_with("HOL-Library.") {
                        p(format!("imports `{imp}`, which is not in the session"));
                    }
                }
            }
            _ => p("no `imports ... begin`".into()),
        }
        if words.last() != Some(&"end") {
            p("does not end with `end`".into());
        }
        for bad in ["sorry", "oops", "admit"] {
            if words.contains(&bad) {
                p(format!("contains `{bad}`"));
            }
        }
        // Every lemma has a proof before the next top-level command.
        let tops = ["lemma", "theorem", "context", "definition", "fun", "inductive", "datatype", "record", "text", "section", "end", "thm_oracles", "declare", "type_synonym", "consts", "unbundle"];
        for (i, w) in words.iter().enumerate() {
            if *w == "lemma" || *w == "theorem" {
                let next = words[i + 1..].iter().position(|x| tops.contains(x) && !x.is_empty()).map(|j| i + 1 + j).unwrap_or(words.len());
                let body = &words[i + 1..next];
                if !body.iter().any(|x| *x == "by" || *x == "proof" || *x == "." || x.starts_with("by(")) {
                    p(format!("lemma `{}` has no proof", words.get(i + 1).unwrap_or(&"?").trim_end_matches(':')));
                }
            }
        }
        // Every `have` and `show` is proved before the next step of its proof.
        let steps = ["have", "show", "also", "finally", "qed", "next", "then", "hence", "thus", "moreover", "ultimately"];
        for (i, w) in words.iter().enumerate() {
            if *w == "have" || *w == "show" {
                let next = words[i + 1..].iter().position(|x| steps.contains(x) || tops.contains(x)).map_or(words.len(), |j| i + 1 + j);
                if !words[i + 1..next].iter().any(|x| ["by", "proof", ".", ".."].contains(x) || x.starts_with("by(")) {
                    p(format!("a `{w}` {} has no proof", words.get(i + 1).map_or("", |n| n.trim_end_matches(':'))));
                }
            }
        }
        // `using` names at least one fact.
        if words.windows(2).any(|w| w[0] == "using" && ["by", "proof", "apply"].contains(&w[1])) {
            p("`using` with no fact".into());
        }
        // Names with our prefixes, in commands and inside terms, are defined before use:
        // earlier in the theory, or in a theory it imports (transitively).
        let mut visible: BTreeSet<String> = BTreeSet::new();
        let mut todo: Vec<String> = imports.get(want).cloned().unwrap_or_default();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        while let Some(t) = todo.pop() {
            if seen.insert(t.clone()) {
                visible.extend(defines.get(&t).into_iter().flatten().cloned());
                todo.extend(imports.get(&t).cloned().unwrap_or_default());
            }
        }
        let all = refs_and_commands(text);
        for (i, used) in all.iter().enumerate() {
            let is_ref = REF_PREFIXES.iter().any(|pre| used.starts_with(pre)) && !(i > 0 && DEFINERS.contains(&all[i - 1].as_str()));
            // `kernel_k_def` and `kernel_race.intros` are facts of `kernel_k`, `kernel_race`.
            let base = used.split('.').next().unwrap_or(used);
            let known = visible.contains(base) || base.strip_suffix("_def").is_some_and(|d| visible.contains(d));
            if is_ref && !known {
                p(format!("`{used}` is used before it is defined"));
            }
            if i > 0 && DEFINERS.contains(&all[i - 1].as_str()) {
                visible.insert(used.clone());
            }
        }
    }
    problems
}

/// Commands after which the next word is a name being defined.
const DEFINERS: &[&str] = &["lemma", "theorem", "definition", "fun", "inductive", "have", "consts"];

/// The prefixes of the names our generated theories define and cite.
const REF_PREFIXES: &[&str] = &["rule_", "def_", "kernel_", "launch_", "inputs_", "vc_"];

/// A theory's text in pieces: code, cartouches and quoted terms; comments are dropped.
enum Piece<'a> {
    Code(&'a str),
    Cartouche,
    Quoted(&'a str),
}

/// Split a theory into pieces, or say what does not balance: comments `(* *)` nest,
/// cartouches nest (and hide comments and quotes), quotes close, and inside a quoted term
/// parentheses balance.
fn pieces(text: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut out = Vec::new();
    let (mut i, mut code_from, mut line) = (0usize, 0usize, 1usize);
    let (mut comment, mut cart) = (0usize, 0usize);
    let b = text.as_bytes();
    fn code<'a>(out: &mut Vec<Piece<'a>>, text: &'a str, from: usize, to: usize) {
        if from < to {
            out.push(Piece::Code(&text[from..to]));
        }
    }
    while i < b.len() {
        let rest = &text[i..];
        if b[i] == b'\n' {
            line += 1;
        }
        if comment > 0 {
            if rest.starts_with("(*") {
                comment += 1;
                i += 2;
            } else if rest.starts_with("*)") {
                comment -= 1;
                i += 2;
                code_from = i;
            } else {
                i += 1;
            }
        } else if cart > 0 {
            if rest.starts_with("\\<open>") {
                cart += 1;
                i += 7;
            } else if rest.starts_with("\\<close>") {
                cart -= 1;
                i += 8;
                if cart == 0 {
                    out.push(Piece::Cartouche);
                    code_from = i;
                }
            } else {
                i += 1;
            }
        } else if rest.starts_with("(*") {
            code(&mut out, text, code_from, i);
            comment = 1;
            i += 2;
        } else if rest.starts_with("\\<open>") {
            code(&mut out, text, code_from, i);
            cart = 1;
            i += 7;
        } else if rest.starts_with("\\<close>") {
            return Err(format!("line {line}: `\\<close>` without `\\<open>`"));
        } else if b[i] == b'"' {
            code(&mut out, text, code_from, i);
            let end = text[i + 1..].find('"').ok_or_else(|| format!("line {line}: a `\"` is not closed"))?;
            let inner = &text[i + 1..i + 1 + end];
            let mut depth: i64 = 0;
            for c in inner.chars() {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                if depth < 0 {
                    return Err(format!("line {line}: unbalanced `)` in a term"));
                }
            }
            if depth != 0 {
                return Err(format!("line {line}: unbalanced `(` in a term"));
            }
            out.push(Piece::Quoted(inner));
            line += inner.matches('\n').count();
            i += end + 2;
            code_from = i;
        } else {
            i += 1;
        }
    }
    if comment > 0 {
        return Err("a comment is not closed".into());
    }
    if cart > 0 {
        return Err("a cartouche is not closed".into());
    }
    code(&mut out, text, code_from, b.len());
    Ok(out)
}

fn balanced(text: &str) -> Result<(), String> {
    pieces(text).map(|_| ())
}

/// The text without comments, cartouches and quoted terms (replaced by a placeholder
/// word), so that commands and names can be read off.
fn strip(text: &str) -> String {
    let mut out = String::new();
    for p in pieces(text).unwrap_or_default() {
        match p {
            Piece::Code(c) => out.push_str(c),
            Piece::Cartouche => out.push_str(" CARTOUCHE "),
            // Keep `"HOL-Library.Word"` in imports; a term becomes one word.
            Piece::Quoted(q) if q.contains('.') && !q.contains(' ') => out.push_str(q),
            Piece::Quoted(_) => out.push_str(" TERM "),
        }
        out.push(' ');
    }
    out
}

/// The identifiers of a theory outside comments and cartouches, including those inside
/// quoted terms, in order (`lemma a:` gives `lemma`, `a`).
fn refs_and_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for p in pieces(text).unwrap_or_default() {
        let (Piece::Code(t) | Piece::Quoted(t)) = p else { continue };
        // An Isabelle symbol such as `\<and>` separates words.
        let mut rest = t;
        while let Some(at) = rest.find("\\<") {
            words_of(&rest[..at], &mut out);
            rest = &rest[at + rest[at..].find('>').map_or(rest.len() - at, |e| e + 1)..];
        }
        words_of(rest, &mut out);
    }
    out
}

fn words_of(text: &str, out: &mut Vec<String>) {
    out.extend(
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '\'' || c == '.'))
            .filter(|w| !w.is_empty())
            .map(str::to_string),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Vec<String> {
        check(&[("T.thy".into(), text.into())])
    }

    #[test]
    fn a_good_theory_passes() {
        assert!(one("theory T\n  imports \"HOL-Library.Word\"\nbegin\nlemma a: \"x = x\" by simp\nend\n").is_empty());
    }

    #[test]
    fn each_kind_of_mistake_is_caught() {
        assert!(!one("theory T imports \"HOL-Library.Word\" begin lemma a: \"x = x\" sorry end").is_empty());
        assert!(!one("theory T imports \"HOL-Library.Word\" begin lemma a: \"x = x\" using by simp end").is_empty());
        assert!(!one("theory T imports \"HOL-Library.Word\" begin lemma a: \"x = x\" definition b where \"b = 1\" end").is_empty());
        assert!(!one("theory T imports \"HOL-Library.Word\" begin lemma a: \"(x = x\" by simp end").is_empty());
        assert!(!one("theory T imports \"HOL-Library.Word\" begin text \\<open>open end").is_empty());
        assert!(!one("theory U imports \"HOL-Library.Word\" begin end").is_empty());
        assert!(!one("theory T imports Missing begin end").is_empty());
        assert!(!one("theory T imports \"HOL-Library.Word\" begin lemma a: \"x = x\" by (rule rule_nope) end").is_empty());
        assert!(!one("theory T imports \"HOL-Library.Word\" begin lemma a: \"kernel_k = kernel_k\" by simp end").is_empty());
    }

    #[test]
    fn names_come_from_imported_theories_in_any_file_order() {
        let b = ("B.thy".to_string(), "theory B imports A begin lemma b: \"kernel_k = 1\" by (simp add: kernel_k_def rule_x) end".to_string());
        let a = ("A.thy".to_string(), "theory A imports \"HOL-Library.Word\" begin definition kernel_k where \"kernel_k = 1\" lemma rule_x: \"x = x\" by simp end".to_string());
        assert_eq!(check(&[b.clone(), a.clone()]), Vec::<String>::new());
        let c = ("C.thy".to_string(), "theory C imports \"HOL-Library.Word\" begin lemma c: \"kernel_k = 1\" by simp end".to_string());
        assert!(!check(&[a, b, c]).is_empty(), "C does not import A");
    }
}
