//! Tests built from the SDV rules (paper, Figures 4-6; KPL.md "Meaning").

use kpl_semantics::report::{ArrayContents, Defect, Op, Outcome, RaceKind, Scope};
use kpl_semantics::{compile, run, Inputs, Options, RunResult};

fn exec_with(src: &str, inputs: Inputs, opts: Options) -> RunResult {
    let c = kpl_lang::check_kpl(src).unwrap_or_else(|d| panic!("{d:?}"));
    let prog = compile(&c.core, kpl_lang::Launch::of(&c.kernel));
    run(&prog, inputs, &opts)
}

fn exec(src: &str) -> RunResult {
    exec_with(src, Inputs::from_seed(1), Options::default())
}

fn race(r: &RunResult) -> (RaceKind, Scope, String, u32) {
    match &r.outcome {
        Outcome::Defect(Defect::Race { kind, scope, array, index, .. }) => (*kind, *scope, array.clone(), *index),
        o => panic!("expected a race, got {o:?}"),
    }
}

fn array<'a>(r: &'a RunResult, name: &str) -> &'a ArrayContents {
    &r.memory.iter().find(|(n, _)| n == name).unwrap().1
}

#[test]
fn two_reads_of_one_element_do_not_race() {
    let r = exec("kernel k { threads: 8; shared A[1]; global out[8]; main { out[lid] := A[0]; } }");
    assert_eq!(r.outcome, Outcome::Ok);
}

#[test]
fn a_write_and_a_read_by_the_same_thread_do_not_race() {
    let r = exec("kernel k { threads: 8; shared A[8]; global out[8]; main { A[lid] := lid; out[lid] := A[lid] + 1; } }");
    assert_eq!(r.outcome, Outcome::Ok);
    // The thread sees its own write before any barrier (delayed visibility is per thread).
    assert_eq!(array(&r, "out"), &ArrayContents::Dense((1..=8).collect()));
}

#[test]
fn a_write_and_a_read_by_two_threads_race() {
    let r = exec("kernel k { threads: 8; shared A[8]; main { A[lid] := 1; local x := A[(lid + 1) % 8]; } }");
    let (kind, scope, arr, _) = race(&r);
    assert_eq!((kind, scope, arr.as_str()), (RaceKind::ReadWrite, Scope::IntraGroup, "A"));
}

#[test]
fn a_write_after_a_barrier_does_not_race_with_a_read_before_it() {
    let r = exec(
        "kernel k { threads: 8; shared A[8]; global out[8];
           main { local x := A[(lid + 1) % 8]; barrier; A[lid] := x; barrier; out[lid] := A[(lid + 7) % 8]; } }",
    );
    assert_eq!(r.outcome, Outcome::Ok);
}

#[test]
fn writes_become_visible_to_the_group_at_a_barrier() {
    let r = exec(
        "kernel k { threads: 4; shared A[4]; global out[4];
           main { A[lid] := lid * 10; barrier; out[lid] := A[(lid + 1) % 4]; } }",
    );
    assert_eq!(r.outcome, Outcome::Ok);
    assert_eq!(array(&r, "out"), &ArrayContents::Dense(vec![10, 20, 30, 0]));
}

#[test]
fn two_writes_race_even_with_equal_values_unless_tolerated() {
    let src = "kernel k { threads: 4; shared F[1]; main { F[0] := 1; } }";
    let (kind, ..) = race(&exec(src));
    assert_eq!(kind, RaceKind::WriteWrite);
    let tolerant = Options { benign: true, ..Options::default() };
    assert_eq!(exec_with(src, Inputs::from_seed(1), tolerant.clone()).outcome, Outcome::Ok);
    // Different values still race under tolerance.
    let src2 = "kernel k { threads: 4; shared F[1]; main { F[0] := lid; } }";
    assert!(matches!(exec_with(src2, Inputs::from_seed(1), tolerant).outcome, Outcome::Defect(Defect::Race { .. })));
}

#[test]
fn a_barrier_with_every_thread_of_a_group_disabled_is_a_no_op() {
    // G-NO-OP: group 0 skips the barrier entirely, group 1 executes it with all threads.
    let r = exec("kernel k { groups: 2; threads: 4; main { if gid == 1 { barrier; } } }");
    assert_eq!(r.outcome, Outcome::Ok);
    // A barrier no thread reaches does not separate accesses: this still races.
    let r = exec(
        "kernel k { threads: 4; shared A[4]; main { A[lid] := 1; if lid > 99 { barrier; } local x := A[(lid + 1) % 4]; } }",
    );
    race(&r);
}

#[test]
fn a_barrier_reached_by_some_threads_of_a_group_diverges() {
    let r = exec("kernel k { threads: 4; main { if lid < 2 { barrier; } } }");
    match r.outcome {
        Outcome::Defect(Defect::Divergence { enabled, disabled, .. }) => {
            assert_eq!(enabled.local[0], 0);
            assert_eq!(disabled.local[0], 2);
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn inter_group_accesses_race_even_across_barriers() {
    let r = exec(
        "kernel k { groups: 2; threads: 4; global G[8];
           main { if gid == 0 { G[lid] := 1; } barrier; barrier; if gid == 1 { local x := G[lid]; } } }",
    );
    let (kind, scope, _, idx) = race(&r);
    assert_eq!((kind, scope, idx), (RaceKind::ReadWrite, Scope::InterGroup, 0));
    // ...and not when inter-group checking is off (`--only-intra-group`).
    let c = kpl_lang::check_kpl(
        "kernel k { groups: 2; threads: 4; global G[8];
           main { if gid == 0 { G[lid] := 1; } barrier; if gid == 1 { local x := G[lid]; } } }",
    )
    .unwrap();
    let prog = compile(&c.core, kpl_lang::Launch::of(&c.kernel));
    let r = run(&prog, Inputs::from_seed(1), &Options { inter_group: false, ..Options::default() });
    assert_eq!(r.outcome, Outcome::Ok);
}

#[test]
fn a_shared_array_is_separate_per_group() {
    // Both groups write S[0] with their thread 0: no race, and each group reads its own value.
    let r = exec(
        "kernel k { groups: 2; threads: 2; shared S[1]; global out[4];
           main { if lid == 0 { S[0] := gid + 5; } barrier; out[gid * 2 + lid] := S[0]; } }",
    );
    assert_eq!(r.outcome, Outcome::Ok);
    assert_eq!(array(&r, "out"), &ArrayContents::Dense(vec![5, 5, 6, 6]));
    assert_eq!(array(&r, "S"), &ArrayContents::PerGroup(vec![vec![5], vec![6]]));
}

#[test]
fn the_figure_2_litmus_test_diverges_under_lock_step() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/kernels/litmus_nested_loops.kpl")).unwrap();
    assert!(matches!(exec(&src).outcome, Outcome::Defect(Defect::Divergence { .. })));
}

#[test]
fn a_loop_runs_while_any_thread_of_any_group_has_its_guard_true() {
    // Thread i runs i iterations; the barrier after the loop is reached by all together.
    let r = exec(
        "kernel k { groups: 2; threads: 4; global out[8];
           main { local i := 0; local n := 0; while i < lid + gid { i := i + 1; n := n + 2; } barrier; out[gid * 4 + lid] := n; } }",
    );
    assert_eq!(r.outcome, Outcome::Ok);
    assert_eq!(array(&r, "out"), &ArrayContents::Dense(vec![0, 2, 4, 6, 2, 4, 6, 8]));
}

#[test]
fn break_continue_and_return_disable_exactly_until_their_construct_ends() {
    let r = exec(
        "kernel k { threads: 4; global out[12];
           proc p(t) {
             local j := 0;
             while true { j := j + 1; if j > t { out[8 + t] := j; return; } }
             out[8 + t] := 99;
           }
           main {
             local i := 0; local acc := 0;
             while i < 10 {
               i := i + 1;
               if i % 2 == 0 { continue; }
               acc := acc + i;
               if i >= 2 * lid + 1 { break; }
             }
             out[lid] := acc; out[4 + lid] := i;
             p(lid);
           } }",
    );
    assert_eq!(r.outcome, Outcome::Ok);
    // Odd i are summed until i >= 2*lid+1: lid 0 -> 1, lid 1 -> 1+3, lid 2 -> 1+3+5, lid 3 -> 16.
    assert_eq!(array(&r, "out"), &ArrayContents::Dense(vec![1, 4, 9, 16, 1, 3, 5, 7, 1, 2, 3, 4]));
}

#[test]
fn a_fresh_local_is_zero_at_every_loop_iteration() {
    let r = exec(
        "kernel k { threads: 2; global out[2];
           main { local i := 0; local s := 0; while i < 3 { local x; x := x + i; s := s + x; i := i + 1; } out[lid] := s; } }",
    );
    assert_eq!(array(&r, "out"), &ArrayContents::Dense(vec![3, 3]));
}

#[test]
fn reads_in_a_loop_condition_happen_at_every_head() {
    let mut inputs = Inputs::from_seed(1);
    inputs.merge_json(r#"{"arrays": {"C": [3, 5]}}"#).unwrap();
    let c = kpl_lang::check_kpl(
        "kernel k { threads: 2; global C[2]; global out[2];
           main { local n := 0; while C[lid] > n { n := n + 1; } out[lid] := n; } }",
    )
    .unwrap();
    let r2 = run(&compile(&c.core, kpl_lang::Launch::of(&c.kernel)), inputs, &Options::default());
    assert_eq!(array(&r2, "out"), &ArrayContents::Dense(vec![3, 5]));
}

#[test]
fn out_of_bounds_comes_before_races_in_one_step() {
    let r = exec("kernel k { threads: 4; shared A[2]; main { A[lid % 3] := 1; } }");
    match r.outcome {
        Outcome::Defect(Defect::OutOfBounds { index, size, access, .. }) => {
            assert_eq!((index, size, access.op, access.thread.local[0]), (2, 2, Op::Write, 2));
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn intra_group_races_come_before_inter_group_ones() {
    let r = exec("kernel k { groups: 2; threads: 2; global G[1]; main { G[0] := 1; } }");
    let (_, scope, ..) = race(&r);
    assert_eq!(scope, Scope::IntraGroup);
}

#[test]
fn assertions_invariants_assumptions_and_requires() {
    let r = exec("kernel k { threads: 4; main { assert lid < 3; } }");
    assert!(matches!(r.outcome, Outcome::Defect(Defect::Assertion { invariant_of: None, .. })));
    let r = exec("kernel k { threads: 4; main { local i := 0; while i < 4 invariant i < 3; { i := i + 1; } } }");
    assert!(matches!(r.outcome, Outcome::Defect(Defect::Assertion { invariant_of: Some(_), .. })));
    let r = exec("kernel k { threads: 4; main { assume lid != 2; } }");
    assert!(matches!(r.outcome, Outcome::Infeasible { thread: Some(_), .. }));
    let mut i = Inputs::from_seed(1);
    i.params.insert("n".into(), 9);
    let src = "kernel k { threads: 4; param n; requires n < 8; main { } }";
    assert!(matches!(exec_with(src, i, Options::default()).outcome, Outcome::Infeasible { thread: None, .. }));
}

#[test]
fn a_run_past_max_steps_times_out() {
    let r = exec_with(
        "kernel k { threads: 4; main { local i := 0; while true { i := i + 1; } } }",
        Inputs::from_seed(1),
        Options { max_steps: 10_000, ..Options::default() },
    );
    assert_eq!(r.outcome, Outcome::Timeout);
    assert!(r.steps > 10_000 && r.steps < 10_100);
}

#[test]
fn arithmetic_follows_the_smt_lib_rules() {
    let r = exec(
        "kernel k { threads: 1; global out[8];
           main { out[0] := 7 / 0; out[1] := 7 % 0; out[2] := sdiv(0 - 7, 0); out[3] := 1 << 32;
                  out[4] := ashr(0x80000000, 40); out[5] := 0 - 1; out[6] := slt(0 - 1, 0); out[7] := 5 < 0 - 1; } }",
    );
    assert_eq!(array(&r, "out"), &ArrayContents::Dense(vec![u32::MAX, 7, 1, 0, u32::MAX, u32::MAX, 1, 1]));
}

#[test]
fn unsized_arrays_are_generated_lazily_and_deterministically() {
    let src = "kernel k { threads: 2; global big[*]; global out[2]; main { out[lid] := big[lid * 1000000000]; } }";
    let a = exec(src);
    let b = exec(src);
    assert_eq!(array(&a, "out"), array(&b, "out"));
    match array(&a, "big") {
        ArrayContents::Sparse(m) => assert_eq!(m.len(), 2),
        o => panic!("{o:?}"),
    }
}

#[test]
fn witness_inputs_replay() {
    let mut i = Inputs::from_seed(3);
    i.merge_json(r#"{"params": {"k": 0}}"#).unwrap();
    let src = "kernel k { threads: 4; global out[*]; param k; main { out[lid * k] := lid; } }";
    let (kind, _, _, idx) = race(&exec_with(src, i, Options::default()));
    assert_eq!((kind, idx), (RaceKind::WriteWrite, 0));
}
