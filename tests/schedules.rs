//! End-to-end tests of `kpl run --delays K` (delay-bounded schedule exploration, NFM 2013):
//! results that depend on the order of a group's atomics, and failures only some orders
//! show, each with the schedule that shows it.

mod common;
use common::*;

fn run(k: &str, args: &[&str]) -> Out {
    let mut a = vec!["run"];
    a.extend(args);
    a.push(k);
    kpl_in(&root().join("tests/schedules"), &a)
}

#[test]
fn a_ticket_counter_s_result_depends_on_the_schedule() {
    let o = run("tickets.kpl", &["--delays", "1"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("3 schedules with at most 1 delay"), "{}", o.stdout);
    assert!(o.stdout.contains("3 distinct final states"), "{}", o.stdout);
    assert!(o.stdout.contains("thread 0 of group 0 delayed at its atomic at tickets.kpl:12:5"), "{}", o.stdout);
    assert!(o.stdout.contains("A[0] is 1, not 0"), "{}", o.stdout);
    // Without --delays, the run alone says nothing of schedules.
    let o = run("tickets.kpl", &[]);
    assert_eq!(o.code, 0);
    let o = run("tickets.kpl", &["--delays", "2", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["schedules"]["explored"], 6);
    assert_eq!(v["schedules"]["distinct_final_states"], 5);
    assert_eq!(v["schedules"]["differing"][0]["delays"][0]["line"], 12);
}

#[test]
fn a_commutative_update_is_the_same_in_every_schedule() {
    let o = run("sum.kpl", &["--delays", "2"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("1 distinct final state"), "{}", o.stdout);
    let line = o.stdout.lines().find(|l| l.contains("schedules with")).unwrap();
    let n: usize = line.split(": ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(n > 10, "{}", o.stdout);
}

#[test]
fn an_assertion_only_a_delay_breaks_is_reported_with_its_schedule() {
    let o = run("first_ticket.kpl", &[]);
    assert_eq!(o.code, 0, "thread order alone satisfies the assertion");
    let o = run("first_ticket.kpl", &["--delays", "1"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("assertion failure"), "{}", o.stderr);
    assert!(o.stderr.contains("under thread 0 of group 0 delayed at its atomic at first_ticket.kpl:11:5"), "{}", o.stderr);
}

#[test]
fn the_schedule_budget_is_reported() {
    let o = run("sum.kpl", &["--delays", "3", "--max-schedules", "5"]);
    assert!(o.stdout.contains("5 schedules") && o.stdout.contains("stopped at --max-schedules"), "{}", o.stdout);
}

/// The CD paper's benchmarks ported to CUDA (`tests/schedules/cd_*.cu`), each buggy
/// version with the delay bound at which its bug appears, and its fixed version clean at a
/// higher bound.
fn cd(k: &str, delays: &str) -> Out {
    run(k, &["--blockDim=4", "--gridDim=1", "--delays", delays])
}

#[test]
fn the_cd_paper_s_lost_atomicity_bugs_appear_at_one_delay() {
    // aMin: a compare-and-swap that fails is not retried. The canonical schedule is clean;
    // one delay (thread 0 between its read and its swap) loses its smaller value.
    for (k, line) in [("cd_amin_lost.cu", 9), ("cd_amin_update_lost.cu", 15)] {
        let o = run(k, &["--blockDim=4", "--gridDim=1"]);
        assert_eq!(o.code, 0, "{k}: lock step alone is clean\n{}{}", o.stdout, o.stderr);
        let o = cd(k, "1");
        assert_eq!(o.code, 1, "{k}\n{}{}", o.stdout, o.stderr);
        assert!(o.stderr.contains("assertion failure"), "{k}\n{}", o.stderr);
        let under = format!("under thread 0 of group 0 delayed at its atomic at {k}:{line}:");
        assert!(o.stderr.contains(&under), "{k}: {under}\n{}", o.stderr);
    }
    // The fixed versions: no failure and one final state in every schedule up to 2 delays.
    for k in ["cd_amin.cu", "cd_amin_update.cu"] {
        let o = cd(k, "2");
        assert_eq!(o.code, 0, "{k}\n{}{}", o.stdout, o.stderr);
        assert!(o.stdout.contains("1 distinct final state"), "{k}\n{}", o.stdout);
    }
}

#[test]
fn the_cd_paper_s_bintree_loses_a_node_at_one_delay_and_its_fix_keeps_every_node() {
    // The empty slot read, then exchanged: SDV lock step (every read before any exchange)
    // already loses nodes; GKLEE's canonical schedule needs one delay, as in the paper.
    let o = run("cd_bintree_lost.cu", &["--blockDim=4", "--gridDim=1"]);
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("assertion failure"), "{}", o.stderr);
    let o = cd("cd_bintree_lost.cu", "1");
    assert!(o.stderr.contains("under thread 1 of group 0 delayed at its atomic at cd_bintree_lost.cu:24:17"), "{}", o.stderr);
    // Linked by compare-and-swap: every node is found in every schedule, though the trees
    // differ (the paper's false positive of comparing final states: kpl reports the
    // difference, and no assertion failure).
    let o = cd("cd_bintree.cu", "2");
    assert!(!o.stderr.contains("assertion failure"), "{}", o.stderr);
    assert!(o.stdout.contains("2 distinct final states"), "{}", o.stdout);
}
