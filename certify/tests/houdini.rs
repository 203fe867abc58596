//! Houdini's promise: every candidate it keeps is proved. For each project kernel, the kept
//! candidates are re-checked in a fresh solver session (entry and preservation, all at once).

use kpl_certify::seq_to_vc::encode;
use kpl_certify::solve::{houdini, one_by_one, Answer, Session};
use kpl_certify::verify::{candidate_key, verify, Options, Outcome};

/// Every project kernel (`tests/kernels/*.kpl`), checked.
fn project_kernels() -> Vec<(std::path::PathBuf, kpl_lang::Checked)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/kernels");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "kpl") {
            let c = kpl_lang::check_kpl(&std::fs::read_to_string(&p).unwrap()).unwrap();
            out.push((p, c));
        }
    }
    out
}

#[test]
fn every_kept_candidate_is_proved_in_a_fresh_session() {
    let mut kept_total = 0;
    for (p, c) in project_kernels() {
        let o = Options::new(kpl_lang::Launch::of(&c.kernel));
        let r = verify(&c.core, &o, &|_| {});
        assert!(!matches!(r.outcome, Outcome::Inconclusive(_)), "{}", p.display());
        let enc = encode(&r.program);
        let mut s = Session::new(&enc, None);
        let goals: Vec<_> = (0..r.kept.len()).filter(|&i| r.kept[i]).flat_map(|i| enc.candidate_fails[i].clone()).collect();
        kept_total += goals.len();
        assert!(matches!(s.check(&goals, &r.kept), Answer::Unsat), "{}: a kept candidate is not inductive", p.display());
        // And dropping every candidate cannot make a verified kernel's candidates fail.
        assert_eq!(r.stats.invariants_kept, r.kept.iter().filter(|k| **k).count());
    }
    assert!(kept_total > 20, "too few kept candidates were checked: {kept_total}");
}

#[test]
fn candidates_refuted_by_concrete_runs_change_nothing_houdini_keeps() {
    // Every invariant Houdini keeps holds in every reachable state, so a candidate a run
    // shows false was never among them: with and without the runs, the same candidates
    // are kept and the verdict is the same; the runs save rounds.
    let (mut refuted, mut rounds, mut rounds_without) = (0, 0, 0);
    for (p, c) in project_kernels() {
        let o = Options::new(kpl_lang::Launch::of(&c.kernel));
        let with = verify(&c.core, &o, &|_| {});
        let without = verify(&c.core, &Options { refute: false, ..o }, &|_| {});
        assert_eq!(with.kept, without.kept, "{}: the runs changed what Houdini keeps", p.display());
        assert_eq!(with.outcome, without.outcome, "{}", p.display());
        assert_eq!(without.stats.candidates_refuted, 0);
        refuted += with.stats.candidates_refuted;
        rounds += with.stats.houdini_rounds;
        rounds_without += without.stats.houdini_rounds;
    }
    assert!(refuted > 50, "the runs refuted only {refuted} candidates");
    assert!(rounds < rounds_without, "Houdini rounds: {rounds} with the runs, {rounds_without} without");
}

#[test]
fn without_inference_loops_need_their_invariants() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/kernels/reduce.kpl")).unwrap();
    let c = kpl_lang::check_kpl(&src).unwrap();
    let mut o = Options { infer: false, ..Options::new(kpl_lang::Launch::of(&c.kernel)) };
    // No invariants: the loop's havoc loses uniformity, so a (false) alarm is expected.
    assert_eq!(verify(&c.core, &o, &|_| {}).outcome, Outcome::Defects);
    o.infer = true;
    assert_eq!(verify(&c.core, &o, &|_| {}).outcome, Outcome::Verified);
}

#[test]
fn equality_candidates_for_varying_locals_only_in_loops_that_synchronise() {
    // `x` starts at the thread's id: the uniformity analysis finds it varying. GPUVerify's
    // rule: its equality candidate only where the loop has a barrier.
    let kernel = |body: &str| {
        format!("kernel k {{ threads: 64; shared A[64]; main {{ local x := lid; local i := 0; while i < 4 {{ {body} x := x + 1; i := i + 1; }} A[lid] := x; }} }}")
    };
    let uniform_of = |src: &str, var: &str| {
        let c = kpl_lang::check_kpl(src).unwrap();
        let p = kpl_certify::verify::program(&c.core, &Options::new(kpl_lang::Launch::of(&c.kernel)));
        p.to_string().contains(&format!("candidate (= {var}$1 {var}$2);  // uniform\n"))
    };
    assert!(!uniform_of(&kernel(""), "x"), "a varying local got an equality candidate in a loop without a barrier");
    assert!(uniform_of(&kernel(""), "i"), "a uniform counter lost its equality candidate");
    assert!(uniform_of(&kernel("barrier;"), "x"), "a varying local lost its equality candidate in a loop with a barrier");
}

#[test]
fn a_multiple_of_a_step_that_differs_between_threads_is_a_bit_mask_candidate() {
    // Stepped by a per-thread value: GPUVerify's `e & (step - 1) == 0`, bits for the
    // solver; stepped by a param or a constant: the remainder.
    let text = |init: &str| {
        let src = format!("kernel k {{ threads: 64; global B[*]; param n; main {{ local s := {init}; local i := lid; while i < 1024 {{ B[i] := 1; i := i + s; }} }} }}");
        let c = kpl_lang::check_kpl(&src).unwrap();
        kpl_certify::verify::program(&c.core, &Options::new(kpl_lang::Launch::of(&c.kernel))).to_string()
    };
    let varying = text("lid + 1");
    assert!(varying.contains("(= (bvand (bvsub i$1 i_entry$1) (bvsub s$1 1)) 0);  // strength reduction"), "{varying}");
    for uniform in ["n", "64"] {
        let t = text(uniform);
        assert!(t.contains("(= (bvurem (bvsub i$1 i_entry$1) s$1) 0);  // strength reduction"), "{t}");
    }
}

#[test]
fn houdini_candidate_by_candidate_keeps_what_its_rounds_keep() {
    // Where a round's query is too hard as a whole, Houdini goes on one candidate at a
    // time; where every query is decided, both keep the largest inductive set of candidates.
    let mut compared = 0;
    for (p, c) in project_kernels() {
        let o = Options::new(kpl_lang::Launch::of(&c.kernel));
        let program = kpl_certify::verify::program(&c.core, &o);
        if program.candidates.is_empty() {
            continue;
        }
        let enc = encode(&program);
        let all = vec![true; program.candidates.len()];
        let rounds = houdini(&mut Session::new(&enc, None), all.clone(), &|_| {});
        let Ok(single) = one_by_one(&mut Session::new(&enc, None), all, 0, &|_| {}) else { panic!("{}: undecided with no deadline", p.display()) };
        assert!(rounds.unknown.is_none() && single.unknown.is_none(), "{}", p.display());
        assert_eq!(rounds.kept, single.kept, "{}", p.display());
        compared += 1;
    }
    assert!(compared > 20, "only {compared} kernels have candidates");
}

#[test]
fn candidates_dropped_under_another_launch_start_off_and_never_change_the_verdict() {
    // What a verified launch records (every candidate it did not keep) starts those
    // candidates off: the same invariants are kept, in no more rounds. Even a hint with
    // every candidate, the needed ones too, changes no verdict and no defect: a check that
    // finds a defect with candidates off runs Houdini again from all of them.
    let (mut saved, mut needed) = (0, 0);
    for (p, c) in project_kernels() {
        let o = Options::new(kpl_lang::Launch::of(&c.kernel));
        let plain = verify(&c.core, &o, &|_| {});
        let n = plain.program.candidates.len();
        if n == 0 {
            continue;
        }
        let keys = |pick: &dyn Fn(usize) -> bool| {
            let ks: std::collections::HashSet<String> = (0..n).filter(|&i| pick(i)).map(|i| candidate_key(&plain.program, i)).collect();
            Some(std::sync::Arc::new(ks))
        };
        let labels = |r: &kpl_certify::Report| r.findings.iter().map(|f| f.label).collect::<Vec<_>>();
        if plain.outcome == Outcome::Verified {
            // A finished Houdini rules out exactly what it does not keep.
            assert!(plain.ruled_out.iter().zip(&plain.kept).all(|(r, k)| r != k), "{}", p.display());
            let hinted = verify(&c.core, &Options { dropped_elsewhere: keys(&|i| !plain.kept[i]), ..o.clone() }, &|_| {});
            assert_eq!(hinted.outcome, Outcome::Verified, "{}", p.display());
            assert_eq!(hinted.kept, plain.kept, "{}", p.display());
            assert!(hinted.stats.houdini_rounds <= plain.stats.houdini_rounds, "{}", p.display());
            saved += plain.stats.houdini_rounds - hinted.stats.houdini_rounds;
        }
        let all = verify(&c.core, &Options { dropped_elsewhere: keys(&|_| true), ..o.clone() }, &|_| {});
        assert_eq!(all.outcome, plain.outcome, "{}", p.display());
        assert_eq!(labels(&all), labels(&plain), "{}", p.display());
        needed += usize::from(plain.outcome == Outcome::Verified && plain.kept.iter().any(|k| *k) && all.stats.houdini_rounds > 0);
    }
    assert!(saved > 10, "the hints saved only {saved} rounds");
    assert!(needed >= 3, "only {needed} kernels needed their invariants back");
}

#[test]
fn habits_change_no_verdict_and_no_kept_invariant() {
    // Starting with integers and candidate by candidate (what a kernel's next launch does
    // where they worked under its last: `Options::habits`) keeps the same invariants and
    // gives the same verdict and defects, under a deadline (without one the habit of
    // candidate by candidate is not taken).
    let habits = kpl_certify::solve::Habits { integers_first: true, one_at_a_time: true };
    let mut compared = 0;
    for (p, c) in project_kernels() {
        let o = Options { timeout: Some(std::time::Duration::from_secs(120)), ..Options::new(kpl_lang::Launch::of(&c.kernel)) };
        let plain = verify(&c.core, &o, &|_| {});
        let used = verify(&c.core, &Options { habits, ..o }, &|_| {});
        assert_eq!(plain.kept, used.kept, "{}", p.display());
        assert_eq!(plain.outcome, used.outcome, "{}", p.display());
        let labels = |r: &kpl_certify::verify::Report| {
            let mut l: Vec<usize> = r.findings.iter().map(|f| f.label).collect();
            l.sort_unstable();
            l
        };
        assert_eq!(labels(&plain), labels(&used), "{}", p.display());
        compared += usize::from(!plain.program.candidates.is_empty());
    }
    assert!(compared > 20, "only {compared} kernels have candidates");
}
