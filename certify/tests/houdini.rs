//! Houdini's promise: every candidate it keeps is proved. For each project kernel, the kept
//! candidates are re-checked in a fresh solver session (entry and preservation, all at once).

use kpl_certify::seq_to_vc::encode;
use kpl_certify::solve::{Answer, Session};
use kpl_certify::verify::{verify, Options, Outcome};

#[test]
fn every_kept_candidate_is_proved_in_a_fresh_session() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/kernels");
    let mut kept_total = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "kpl") {
            continue;
        }
        let c = kpl_lang::check_kpl(&std::fs::read_to_string(&p).unwrap()).unwrap();
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
fn without_inference_loops_need_their_invariants() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/kernels/reduce.kpl")).unwrap();
    let c = kpl_lang::check_kpl(&src).unwrap();
    let mut o = Options { infer: false, ..Options::new(kpl_lang::Launch::of(&c.kernel)) };
    // No invariants: the loop's havoc loses uniformity, so a (false) alarm is expected.
    assert_eq!(verify(&c.core, &o, &|_| {}).outcome, Outcome::Defects);
    o.infer = true;
    assert_eq!(verify(&c.core, &o, &|_| {}).outcome, Outcome::Verified);
}
