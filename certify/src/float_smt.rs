//! Conjunctions of terms whose float built-ins have their exact IEEE 754 meaning, as
//! SMT-LIB 2 text in the standard FloatingPoint theory: the second solver's questions of
//! `check-cert` for a crosscheck's certificate. Written apart from `float_z3` (the first
//! solver's encoding, through Z3's API) so that the re-proof shares no code with the proof:
//! a word is read as a `Float32` by `(_ to_fp 8 24)`; a float result is a fresh word whose
//! float is the result (SMT-LIB has no float-to-bits function), the canonical NaN where the
//! result is a NaN; conversions saturate as KPL's do. Every node is its own `define-fun`
//! (no sharing expanded).

use crate::vc::{Sort, Terms, Vc};
use crate::vc_to_smt::{sort_name, symbol};
use egg::{Id, Language};
use kpl_lang::ops::CANONICAL_NAN;
use std::collections::{BTreeMap, HashMap};

fn fp(x: &str) -> String {
    format!("((_ to_fp 8 24) {x})")
}

fn fp_lit(w: u32) -> String {
    fp(&format!("#x{w:08x}"))
}

/// The word of a float value `z` in the fresh word `r`: its bits, or the canonical NaN.
fn result_is(r: &str, z: &str) -> String {
    format!("(ite (fp.isNaN {z}) (= {r} #x{CANONICAL_NAN:08x}) (= {} {z}))", fp(r))
}

fn bool_word(b: &str) -> String {
    format!("(ite {b} #x00000001 #x00000000)")
}

/// A float built-in of words `a` (and `b`): either a word expression (`Ok`), or, for a
/// rounded result, the float value the fresh word must hold (`Err`).
fn float_op(name: &str, a: &str, b: Option<&str>) -> Option<Result<String, String>> {
    let (fa, fb) = (fp(a), b.map(fp));
    let two = |op: &str| fb.as_ref().map(|fb| Err(format!("({op} RNE {fa} {fb})")));
    let cmp = |op: &str| fb.as_ref().map(|fb| Ok(bool_word(&format!("({op} {fa} {fb})"))));
    match name {
        "fadd" => two("fp.add"),
        "fsub" => two("fp.sub"),
        "fmul" => two("fp.mul"),
        "fdiv" => two("fp.div"),
        "fsqrt" => Some(Err(format!("(fp.sqrt RNE {fa})"))),
        "itof" => Some(Err(format!("((_ to_fp 8 24) RNE {a})"))),
        "utof" => Some(Err(format!("((_ to_fp_unsigned 8 24) RNE {a})"))),
        "fneg" => Some(Ok(format!("(bvxor {a} #x80000000)"))),
        "fabs" => Some(Ok(format!("(bvand {a} #x7fffffff)"))),
        "flt" => cmp("fp.lt"),
        "fle" => cmp("fp.leq"),
        "feq" => cmp("fp.eq"),
        "fmin" | "fmax" => {
            let (b, fb) = (b?, fb?);
            let better = format!("({} {fa} {fb})", if name == "fmin" { "fp.lt" } else { "fp.gt" });
            let pick = format!("(ite (and (not (fp.isNaN {fa})) (or (fp.isNaN {fb}) {better})) {a} {b})");
            Some(Ok(format!("(ite (fp.isNaN {}) #x{CANONICAL_NAN:08x} {pick})", fp(&pick))))
        }
        "ftoi" => Some(Ok(format!(
            "(ite (fp.isNaN {fa}) #x00000000 (ite (fp.geq {fa} {}) #x7fffffff (ite (fp.lt {fa} {}) #x80000000 ((_ fp.to_sbv 32) RTZ {fa}))))",
            fp_lit(2147483648.0f32.to_bits()),
            fp_lit((-2147483648.0f32).to_bits())
        ))),
        "ftou" => Some(Ok(format!(
            "(ite (or (fp.isNaN {fa}) (fp.leq {fa} {})) #x00000000 (ite (fp.geq {fa} {}) #xffffffff ((_ fp.to_ubv 32) RTZ {fa})))",
            fp_lit(0),
            fp_lit(4294967296.0f32.to_bits())
        ))),
        _ => None,
    }
}

/// An SMT-LIB script asserting every term of `constraints` (booleans of `t`) and asking
/// `(check-sat)`: `unsat` proves that they cannot hold together.
pub fn script(t: &Terms, constraints: &[Id]) -> String {
    script_many(t, &[constraints.to_vec()])
}

/// One script for several questions (each a conjunction, asked between `push` and `pop`,
/// in order): the terms they share defined once.
pub fn script_many(t: &Terms, questions: &[Vec<Id>]) -> String {
    let all: Vec<Id> = questions.iter().flatten().copied().collect();
    let mut ids = t.reachable(&all);
    ids.sort();
    let mut out = String::from("(set-logic ALL)\n");
    let mut funs: BTreeMap<String, usize> = BTreeMap::new();
    let mut name: HashMap<Id, String> = HashMap::new();
    let mut sort: HashMap<Id, Sort> = HashMap::new();
    let mut body = String::new();
    for id in ids {
        let n = t.node(id);
        let s = n.sort(|c| sort.get(&c).copied().unwrap_or(Sort::Word), &t.sorts);
        sort.insert(id, s);
        let text = match n {
            Vc::Word(w) => w.to_string(),
            Vc::Bool(b) => b.to_string(),
            Vc::Var(v) => {
                let q = symbol(v.as_str());
                out.push_str(&format!("(declare-fun {q} () {})\n", sort_name(s)));
                name.insert(id, q);
                continue;
            }
            Vc::App(f, args) => {
                let a: Vec<&str> = args.iter().map(|c| name[c].as_str()).collect();
                let me = format!("n!{}", usize::from(id));
                match float_op(f.as_str(), a[0], a.get(1).copied()) {
                    Some(Ok(e)) => e,
                    Some(Err(z)) => {
                        body.push_str(&format!("(declare-fun {me} () (_ BitVec 32))\n(assert {})\n", result_is(&me, &z)));
                        name.insert(id, me);
                        continue;
                    }
                    None => {
                        funs.insert(f.as_str().to_string(), args.len());
                        format!("({} {})", symbol(f.as_str()), a.join(" "))
                    }
                }
            }
            _ => {
                let kids: Vec<&str> = n.children().iter().map(|c| name[c].as_str()).collect();
                let op = n.to_string();
                format!("({op} {})", kids.join(" "))
            }
        };
        let me = format!("n!{}", usize::from(id));
        body.push_str(&format!("(define-fun {me} () {} {text})\n", sort_name(s)));
        name.insert(id, me);
    }
    let word = sort_name(Sort::Word);
    for (f, k) in funs {
        out.push_str(&format!("(declare-fun {} ({}) {word})\n", symbol(&f), vec![word; k].join(" ")));
    }
    out.push_str(&body);
    for q in questions {
        out.push_str("(push 1)\n");
        for c in q {
            out.push_str(&format!("(assert {})\n", name[c]));
        }
        out.push_str("(check-sat)\n(pop 1)\n");
    }
    out
}
