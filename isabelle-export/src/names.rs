//! Isabelle names: string literals for KPL names, and identifiers for verification-condition
//! symbols (`reach@7`, `then$1@2`, `h!6`, `lid1.x`), unique and clear of Isabelle's own.

use std::collections::{BTreeMap, BTreeSet};

/// Free text (a file name, a command line, a message, an assertion's source) as it may
/// stand inside a text cartouche `\<open>...\<close>` or a comment of a generated theory:
/// printable ASCII is kept, except what could end or open one (`\`, which starts
/// `\<close>` and every other symbol, and `` ` ``), what Isabelle reads as an antiquotation
/// or control (`@`, `{`, `}`) and `%`, the escape; everything else, Unicode included (`‹`
/// and `›` are cartouche delimiters to Isabelle), is written as `%XX` per UTF-8 byte.
/// So no text from the user can close the cartouche and give Isabelle a command.
pub fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b' '..=b'~' if !matches!(b, b'\\' | b'`' | b'@' | b'{' | b'}' | b'%') => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Free text as it may stand inside a comment `(* ... *)`: `text`, with parentheses
/// encoded too, so that nothing can open or close a comment.
pub fn comment(s: &str) -> String {
    text(s).replace('(', "%28").replace(')', "%29")
}

/// A KPL name (letters, digits, `_`) as an Isabelle string, `''name''`.
pub fn string_lit(s: &str) -> String {
    let clean: String = s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    format!("''{clean}''")
}

/// A name usable in Isabelle identifiers (theory, lemma and constant names): letters,
/// digits and single `_`, starting with a letter, not ending with `_`.
pub fn ident_part(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let piece = match c {
            c if c.is_ascii_alphanumeric() => c.to_string(),
            '@' => "_at_".into(),
            '$' => "_S".into(),
            '!' => "_B".into(),
            '#' => "_H".into(),
            _ => "_".into(),
        };
        for p in piece.chars() {
            if p == '_' && (out.is_empty() || out.ends_with('_')) {
                continue;
            }
            out.push(p);
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() || !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 'x');
    }
    out
}

/// Gives each verification-condition symbol a distinct identifier `v_...`.
#[derive(Default, Debug, Clone)]
pub struct Names {
    of: BTreeMap<String, String>,
    taken: BTreeSet<String>,
}

impl Names {
    pub fn get(&mut self, symbol: &str) -> String {
        if let Some(n) = self.of.get(symbol) {
            return n.clone();
        }
        let base = format!("v_{}", ident_part(symbol));
        let mut name = base.clone();
        let mut k = 1;
        while self.taken.contains(&name) {
            k += 1;
            name = format!("{base}_{k}");
        }
        self.taken.insert(name.clone());
        self.of.insert(symbol.to_string(), name.clone());
        name
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn no_text_closes_a_cartouche_or_a_comment() {
        let closers = [
            "a\\<close>\\<close> axiomatization where evil: \"False\" text \\<open>\\<open>b.kpl",
            "x\u{203A}\u{203A} ML \u{2039}Isabelle_System.bash \"rm -rf /\"\u{203A} text \u{2039}",
            "*) axiomatization where e: \"False\" (*",
            "@{ML \\<open>error \"x\"\\<close>} \\<^ML>\\<open>()\\<close>",
            "line\nbreak %41",
        ];
        for c in closers {
            for t in [text(c), comment(c)] {
                assert!(t.bytes().all(|b| (b' '..=b'~').contains(&b)), "{t}");
                assert!(!t.contains(['\\', '@', '{', '}', '`']), "{t}");
            }
            assert!(!comment(c).contains(['(', ')']), "{}", comment(c));
        }
        assert_eq!(text("kpl run --seed 0 reduce.kpl"), "kpl run --seed 0 reduce.kpl");
        assert_eq!(text("100%"), "100%25");
        assert_ne!(text("a%5Cb"), text("a\\b"), "the encoding is one-to-one");
    }

    use super::*;

    #[test]
    fn symbols_become_distinct_identifiers() {
        let mut n = Names::default();
        assert_eq!(n.get("reach@7"), "v_reach_at_7");
        assert_eq!(n.get("then$1@2"), "v_then_S1_at_2");
        assert_eq!(n.get("h!6"), "v_h_B6");
        assert_eq!(n.get("lid1.x"), "v_lid1_x");
        assert_eq!(n.get("lid1_x"), "v_lid1_x_2");
        assert_eq!(n.get("reach@7"), "v_reach_at_7");
        assert_eq!(ident_part("_r0"), "r0");
        assert_eq!(ident_part("9lives"), "x9lives");
        assert_eq!(string_lit("A"), "''A''");
    }
}
