//! The rules of a crosscheck's equality proofs (`float_rules.rs`): every exact rule holds
//! for all words under IEEE 754 (Z3's floats, `float_z3.rs`), and every rule of an
//! assumption does not (it is an assumption, not a fact); and the second solver's encoding
//! (`float_smt.rs`) gives each float built-in the interpreter's meaning on special values.

use kpl_certify::float_rules::{RuleSet, FLOAT_RULES};
use kpl_certify::path_solve::{PathAnswer, PathSolver};
use kpl_certify::sexp::{to_term, Sx};
use kpl_certify::vc::{Sort, Terms, Vc};
use kpl_lang::ast::Builtin;
use std::time::Duration;

/// A rule's two sides as terms over fresh word variables.
fn sides(t: &mut Terms, l: &str, r: &str) -> (egg::Id, egg::Id) {
    let rename = |s: &str| s.replace('?', "v_");
    let (l, r) = (Sx::parse(&rename(l)).unwrap(), Sx::parse(&rename(r)).unwrap());
    for v in ["v_a", "v_b"] {
        t.var(v, Sort::Word);
    }
    (to_term(t, &l).unwrap(), to_term(t, &r).unwrap())
}

#[test]
fn exact_rules_hold_and_assumptions_do_not() {
    for (name, set, l, r) in FLOAT_RULES {
        let mut t = Terms::default();
        let (a, b) = sides(&mut t, l, r);
        let eq = t.add(Vc::Eq([a, b]));
        let ne = t.not(eq);
        let vars: Vec<egg::Id> = Vec::new();
        // (Commutativity of `fadd` takes Z3 some 20 s: two adders bit-blasted.)
        let answer = PathSolver::exact_floats().solve(&t, &[ne], &vars, Duration::from_secs(300));
        match (set, answer) {
            (RuleSet::Exact, PathAnswer::Unsat) => {}
            (RuleSet::Exact, _) => panic!("the exact rule `{name}` does not hold for every word"),
            (_, PathAnswer::Sat(_)) => {}
            (_, _) => panic!("the assumption rule `{name}` holds for every word: it belongs to the exact rules"),
        }
    }
}

fn words() -> Vec<u32> {
    let mut v: Vec<u32> = [0.0f32, -0.0, 1.0, -1.0, 0.5, -2.5, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, 1e-45, 2147483648.0, -2147483648.0, 2147483520.0, 4294967296.0, 16777217.0]
        .iter()
        .map(|x| x.to_bits())
        .collect();
    v.extend([0x7fc0_0000, 0xffc0_0001, 0x7f80_0001, 5, 0xffff_ffff, 0x8000_0000]);
    v
}

fn solver_answers(solver: &str, script: &str) -> Option<Vec<String>> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let args: &[&str] = if solver == "z3" { &["-in", "-smt2"] } else { &["--lang", "smt2", "--incremental", "-"] };
    let mut child = Command::new(solver).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().ok()?;
    child.stdin.take()?.write_all(script.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).lines().map(|l| l.trim().to_string()).collect())
}

#[test]
fn the_second_solvers_encoding_agrees_with_the_interpreter() {
    let ws = words();
    let mut t = Terms::default();
    let mut questions = Vec::new();
    let mut what = Vec::new();
    for name in ["fadd", "fsub", "fmul", "fdiv", "fsqrt", "fmin", "fmax", "flt", "fle", "feq", "itof", "utof", "ftoi", "ftou", "fneg", "fabs"] {
        let f = Builtin::from_name(name).unwrap();
        let seconds: Vec<u32> = if f.arity() == 1 { vec![0] } else { ws.clone() };
        for &a in &ws {
            for &b in seconds.iter().step_by(if f.arity() == 1 { 1 } else { 2 }) {
                let args = if f.arity() == 1 { vec![t.word(a)] } else { vec![t.word(a), t.word(b)] };
                let r = t.add(Vc::App(egg::Symbol::from(name), args));
                let want = t.word(kpl_lang::ops::builtin(f, a, b));
                let eq = t.add(Vc::Eq([r, want]));
                questions.push(vec![t.not(eq)]);
                what.push(format!("{name}({a:#010x}, {b:#010x})"));
            }
        }
    }
    let script = kpl_certify::float_smt::script_many(&t, &questions);
    let mut ran = 0;
    for solver in ["z3", "cvc5"] {
        let Some(lines) = solver_answers(solver, &script) else { continue };
        ran += 1;
        let answers: Vec<&String> = lines.iter().filter(|l| ["sat", "unsat", "unknown"].contains(&l.as_str())).collect();
        assert_eq!(answers.len(), questions.len(), "{solver}: {:?}", lines.iter().take(5).collect::<Vec<_>>());
        for (w, a) in what.iter().zip(answers) {
            assert_eq!(a, "unsat", "{solver}: {w} can differ from the interpreter's word");
        }
    }
    assert!(ran > 0, "neither z3 nor cvc5 is installed (scripts/setup.sh installs both)");
}
