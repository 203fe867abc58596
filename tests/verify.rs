//! End-to-end tests of `kpl verify`: the `// verify:` line of every project kernel, the
//! abstractions, dumps replayed by a separate `z3`, several files at once.

mod common;
use common::*;

fn verdict_of(k: &std::path::Path, extra: &[&str]) -> (i32, String, serde_json::Value) {
    let mut args = vec!["verify", "--json"];
    args.extend_from_slice(extra);
    args.push(s(k));
    let o = kpl_in(k.parent().unwrap(), &args);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap_or(serde_json::Value::Null);
    (o.code, v["verdict"].as_str().unwrap_or("").to_string(), v)
}

#[test]
fn every_verify_line_holds_and_nothing_defective_is_verified() {
    let mut n = 0;
    for k in kernels("tests/kernels", "kpl") {
        let Some(want) = header(&k, "verify").pop() else { continue };
        let opts = header(&k, "options").pop().unwrap_or_default();
        let extra: Vec<&str> = opts.split_whitespace().collect();
        let (code, got, _) = verdict_of(&k, &extra);
        if want != "verified" {
            assert_ne!(code, 0, "UNSOUND: {} has a {want} but was verified", k.display());
        }
        assert_eq!(got, want, "{}", k.display());
        assert_eq!(code, if want == "verified" { 0 } else { 1 }, "{}", k.display());
        n += 1;
    }
    assert!(n >= 30, "only {n} kernels");
}

/// What a confirmed defect shows is what `kpl run --input` reports on its witness: the kind,
/// the array and element, and both accesses (thread, operation, line and column).
#[test]
fn every_confirmed_defect_is_what_kpl_run_reports_on_its_witness() {
    let dir = scratch("confirmed");
    std::fs::create_dir_all(&dir).unwrap();
    let access = |a: &serde_json::Value| (a["thread"].to_string(), a["op"].to_string(), a["line"].to_string(), a["col"].to_string());
    let mut n = 0;
    for k in kernels("tests/kernels", "kpl") {
        if header(&k, "verify").pop().as_deref() == Some("verified") {
            continue;
        }
        let opts = header(&k, "options").pop().unwrap_or_default();
        let extra: Vec<&str> = opts.split_whitespace().collect();
        let (_, _, v) = verdict_of(&k, &extra);
        for (i, d) in v["defects"].as_array().unwrap().iter().enumerate() {
            if d["confirmed"] != true {
                continue;
            }
            let input = dir.join(format!("{}-{i}.json", k.file_stem().unwrap().to_str().unwrap()));
            std::fs::write(&input, d["witness"].to_string()).unwrap();
            let mut args = vec!["run", "--json", "--input", s(&input)];
            args.extend(extra.iter().filter(|o| o.contains("benign") || o.contains("intra-group")));
            args.push(s(&k));
            let o = kpl(&args);
            let r: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
            let got = &r["defect"];
            assert_eq!(r["outcome"], d["kind"], "{}: {}", k.display(), o.stdout);
            match d["kind"].as_str().unwrap() {
                "race" => {
                    assert_eq!((&got["array"], &got["index"]), (&d["array"], &d["index"]), "{}", k.display());
                    let mut want: Vec<_> = d["accesses"].as_array().unwrap().iter().map(access).collect();
                    let mut seen: Vec<_> = got["accesses"].as_array().unwrap().iter().map(access).collect();
                    want.sort();
                    seen.sort();
                    assert_eq!(seen, want, "{}", k.display());
                }
                "out_of_bounds" => {
                    assert_eq!((&got["array"], &got["index"]), (&d["array"], &d["index"]), "{}", k.display());
                    assert_eq!(access(&got["accesses"][0]), access(&d["accesses"][0]), "{}", k.display());
                }
                "assertion" => {
                    assert_eq!((&got["line"], &got["col"], &got["thread"]), (&d["line"], &d["col"], &d["thread"]), "{}", k.display())
                }
                _ => assert_eq!((&got["line"], &got["col"]), (&d["line"], &d["col"]), "{}", k.display()),
            }
            n += 1;
        }
    }
    assert!(n >= 10, "only {n} confirmed defects");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn warshall_needs_the_equality_abstraction() {
    let k = root().join("tests/kernels/warshall.kpl");
    let (_, auto, v) = verdict_of(&k, &[]);
    assert_eq!(auto, "verified");
    assert_eq!(v["abstractions"]["gr"], "equality");
    let (code, adv, _) = verdict_of(&k, &["--adversarial-abstraction"]);
    assert_eq!((code, adv.as_str()), (1, "race"));
}

#[test]
fn strided_overflow_is_caught_by_bit_precision() {
    let (code, verdict, v) = verdict_of(&root().join("tests/kernels/strided_overflow.kpl"), &[]);
    assert_eq!((code, verdict.as_str()), (1, "race"));
    let d = &v["defects"][0];
    assert_eq!(d["scope"], "inter-group");
    // The witness's n makes gid * n wrap around 2^32.
    let n = d["witness"]["params"]["n"].as_u64().unwrap();
    assert!(n * 3 >= 1 << 32, "n = {n} does not overflow");
}

#[test]
fn reports_name_both_accesses_and_replay_the_witness() {
    let (_, _, v) = verdict_of(&root().join("tests/kernels/reduce_nobarrier.kpl"), &[]);
    let d = &v["defects"][0];
    assert_eq!(d["kind"], "race");
    assert_eq!(d["confirmed"], true);
    assert_eq!(d["accesses"].as_array().unwrap().len(), 2);
    assert!(v["stats"]["solver_calls"].as_u64().unwrap() >= 1);
    // The text report shows both accesses in the source.
    let o = kpl(&["verify", s(&root().join("tests/kernels/reduce_nobarrier.kpl"))]);
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("confirmed read-write race on A["), "{}", o.stderr);
    assert!(o.stderr.contains("reduce_nobarrier.kpl:13:"), "{}", o.stderr);
}

/// An array kept at bytes (a cast sees its ints as chars): a race is on one byte, and both
/// kpl's report and GPUVerify's text name the int and the byte.
#[test]
fn a_race_in_an_array_kept_at_bytes_names_the_byte() {
    let k = root().join("tests/kernels-cuda/byte_views_race.cu");
    let o = kpl(&["verify", "--blockDim=64", "--gridDim=1", s(&k)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    let kpl_own = regex::Regex::new(r"confirmed write-write race on A\[\d+\] \(byte [0-3]\) \(intra-group\)").unwrap();
    assert!(kpl_own.is_match(&o.stderr), "{}", o.stderr);
    let gpuverify = regex::Regex::new(r"possible write-write race on A\[\d+\] \(byte [0-3]\):").unwrap();
    assert!(gpuverify.is_match(&o.stderr), "{}", o.stderr);
}

/// A race on a whole pixel (four word stores, one statement) is one confirmed defect, not
/// one per word.
/// A launch too long to replay whole (8192 groups, rows of 4096) has its witness's groups
/// replayed alone: the defect is confirmed, its witness names the groups, and `kpl run
/// --input` on that witness starts only those groups and reports the same race.
#[test]
fn a_witness_of_a_large_launch_is_replayed_in_its_groups_alone() {
    let k = root().join("tests/kernels-cuda/replay_groups_alone.cu");
    let launch = ["--blockDim=256", "--gridDim=8192"];
    let (code, verdict, v) = verdict_of(&k, &launch);
    assert_eq!((code, verdict.as_str()), (1, "race"), "{v}");
    let d = &v["defects"][0];
    assert_eq!(d["confirmed"], true, "{d}");
    // The groups started: those of the finding replayed, which hold both threads the
    // interpreter saw race (one, or two where the check without invariants' inter-group
    // finding ran into this race first, `ReplayOptions::relabel`).
    let groups = d["witness"]["groups"].as_array().expect("the witness names its groups");
    assert!((1..=2).contains(&groups.len()), "{d}");
    for a in d["accesses"].as_array().unwrap() {
        let g = &a["thread"]["group"][0];
        assert!(groups.contains(g), "{d}");
    }
    let dir = scratch("groups_alone");
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("witness.json");
    std::fs::write(&input, d["witness"].to_string()).unwrap();
    let mut args = vec!["run", "--json", "--input", s(&input)];
    args.extend(launch);
    args.push(s(&k));
    let o = kpl(&args);
    let r: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(r["outcome"], "race", "{}", o.stdout);
    assert_eq!((&r["defect"]["array"], &r["defect"]["index"]), (&d["array"], &d["index"]));
    // The run started one or two groups of 256 threads, not 8192 of them.
    assert!(r["steps"].as_u64().unwrap() < 1_000_000, "{}", r["steps"]);
}

/// `kpl run --groups` is refused where groups cannot run apart (a grid barrier waits for
/// every thread of the launch) and for a group outside the launch.
#[test]
fn groups_run_apart_only_where_the_kernel_allows_it() {
    let o = kpl(&["run", "--groups", "1", s(&root().join("tests/kernels/grid_barrier.kpl"))]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("cannot run apart"), "{}", o.stderr);
    let o = kpl(&["run", "--groups", "9999", s(&root().join("tests/kernels/reduce.kpl"))]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("not in the launch"), "{}", o.stderr);
    // An input file's `groups`: not empty, and not with an executor that starts every group.
    let dir = scratch("groups_refused");
    std::fs::create_dir_all(&dir).unwrap();
    let reduce = root().join("tests/kernels/reduce.kpl");
    for (json, extra, why) in [(r#"{"groups": []}"#, None, "no group named"), (r#"{"groups": [0]}"#, Some("--hb"), "start every group")] {
        let input = dir.join("in.json");
        std::fs::write(&input, json).unwrap();
        let mut args = vec!["run", "--input", s(&input)];
        args.extend(extra);
        args.push(s(&reduce));
        let o = kpl(&args);
        assert_eq!(o.code, 3, "{json}: {}", o.stderr);
        assert!(o.stderr.contains(why), "{json}: {}", o.stderr);
    }
}

#[test]
fn a_race_on_every_word_of_one_store_is_reported_once() {
    let k = root().join("tests/kernels-cuda/image_row_race.cl");
    let o = kpl(&["verify", "--json", "--local_size=[8,8]", "--num_groups=[4,4]", s(&k)]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    let defects = v["defects"].as_array().unwrap();
    assert_eq!(defects.len(), 1, "{}", o.stdout);
    assert_eq!(defects[0]["confirmed"], true);
    assert_eq!(defects[0]["kind"], "race");
}

#[test]
fn a_false_user_invariant_is_reported_not_assumed() {
    let (code, verdict, v) = verdict_of(&root().join("tests/kernels/false_invariant.kpl"), &[]);
    assert_eq!((code, verdict.as_str()), (1, "assertion"));
    assert_eq!(v["defects"][0]["invariant"], true);
    assert_eq!(v["defects"][0]["fails"], "not maintained");
}

#[test]
fn dumps_replay_in_a_separate_solver() {
    let dir = scratch("dump");
    for (kernel, any_sat) in [("reduce", false), ("reduce_nobarrier", true)] {
        let k = root().join(format!("tests/kernels/{kernel}.kpl"));
        let o = kpl(&["verify", "--dump=seq,vc,smt", "--dump-dir", s(&dir), s(&k)]);
        assert!(o.code == 0 || o.code == 1, "{}", o.stderr);
        for ext in ["seq", "vc", "smt2"] {
            assert!(dir.join(format!("{kernel}.{ext}")).exists(), "no .{ext} dump");
        }
        let z3 = std::process::Command::new("z3").arg(dir.join(format!("{kernel}.smt2"))).output().expect("z3 (scripts/setup.sh installs it)");
        let out = String::from_utf8_lossy(&z3.stdout);
        let answers: Vec<&str> = out.lines().filter(|l| *l == "sat" || *l == "unsat").collect();
        assert!(!answers.is_empty(), "{out}");
        assert_eq!(answers.contains(&"sat"), any_sat, "{kernel}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn several_files_are_verified_with_a_report_each() {
    let a = root().join("tests/kernels/reduce.kpl");
    let b = root().join("tests/kernels/benign_write.kpl");
    let o = kpl(&["verify", "--jobs", "2", s(&a), s(&b)]);
    assert_eq!(o.code, 1);
    assert!(o.stdout.contains("reduce.kpl: verified"), "{}", o.stdout);
    assert!(o.stdout.contains("benign_write.kpl: race"), "{}", o.stdout);
    // `--json` prints one object per file, one per line, in the order of the files; a
    // file that cannot be read or checked is an object too.
    let bad = root().join("tests/kernels/does_not_exist.kpl");
    let o = kpl(&["verify", "--json", s(&a), s(&b), s(&bad)]);
    assert_eq!(o.code, 3);
    let v: Vec<serde_json::Value> = o.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let verdicts: Vec<&str> = v.iter().map(|x| x["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["verified", "race", "bad_input"]);
    assert!(v[2]["file"].as_str().unwrap().ends_with("does_not_exist.kpl"));
}

#[test]
fn bad_options_exit_3() {
    let k = root().join("tests/kernels/reduce.kpl");
    assert_eq!(kpl(&["verify", "--dump=nope", s(&k)]).code, 3);
    assert_eq!(kpl(&["verify", "--timeout=-1", s(&k)]).code, 3);
    assert_eq!(kpl(&["verify", "--equality-abstraction", "--adversarial-abstraction", s(&k)]).code, 3);
    assert_eq!(kpl(&["verify", "--blockDim=[0,1]", s(&k)]).code, 3);
}

#[test]
fn a_tiny_time_budget_gives_inconclusive_never_verified() {
    let k = root().join("tests/kernels/strided_bounded.kpl");
    let o = kpl(&["verify", "--json", "--timeout=0.001", s(&k)]);
    assert_eq!(o.code, 2, "{}", o.stdout);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "inconclusive");
}

/// Generated kernels are race- and divergence-free by construction: the verifier must never
/// report a defect the interpreter confirms, and its invariant inference should prove most
/// of them (a share that falls means the candidates lost a pattern).
#[test]
fn generated_kernels_are_mostly_verified_and_never_confirmed_defective() {
    let dir = scratch("verify-gen");
    std::fs::create_dir_all(&dir).unwrap();
    let (mut verified, n) = (0, 60u64);
    let mut not = Vec::new();
    for seed in 0..n {
        let path = dir.join(format!("gen{seed}.kpl"));
        std::fs::write(&path, kpl_lang::printer::print_kernel(&kpl_lang::generate::generate(seed))).unwrap();
        let (code, verdict, v) = verdict_of(&path, &["--timeout=30"]);
        let confirmed = v["defects"].as_array().map_or(0, |d| d.iter().filter(|x| x["confirmed"] == true).count());
        assert_eq!(confirmed, 0, "seed {seed}: a generated kernel has a confirmed {verdict}: {v}");
        if code == 0 {
            verified += 1;
        } else {
            not.push(format!("{seed}: {verdict}"));
        }
    }
    assert!(verified * 100 >= n * 95, "only {verified} of {n} generated kernels verified; not: {not:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The kernels PoCL miscompiled (tests/difftest/pocl-loopvec) are race-free; their logged
/// accesses sit in procedures called from loops, which the candidates must cover.
#[test]
fn accesses_in_called_procedures_get_candidates() {
    for k in kernels("tests/difftest/pocl-loopvec", "kpl") {
        let (code, verdict, _) = verdict_of(&k, &[]);
        assert_eq!((code, verdict.as_str()), (0, "verified"), "{}", k.display());
    }
}

#[test]
fn loop_unwinding_finds_defects_but_never_verifies() {
    // reduce.kpl is race-free: bounded to 3 iterations per loop, nothing is found, and the
    // verdict says what was searched rather than "verified".
    let k = root().join("tests/kernels/reduce.kpl");
    let (code, text, v) = verdict_of(&k, &["--loop-unwind=3"]);
    assert_eq!(code, 2, "{text}");
    assert_eq!(v["verdict"], "inconclusive");
    assert!(v["reason"].as_str().unwrap().contains("at most 3 iterations"), "{v}");
    // reduce_nobarrier.kpl's race needs two iterations: found within two.
    let k = root().join("tests/kernels/reduce_nobarrier.kpl");
    let (code, _, v) = verdict_of(&k, &["--loop-unwind=2"]);
    assert_eq!(code, 1);
    assert_eq!(v["verdict"], "race");
}

/// A kernel with loops is first searched with every loop unrolled twice, then, where that
/// finds nothing, with loops of a constant trip count unrolled as many times as they run:
/// a race there is reported at once, saying the search stopped at the bound; a race only a
/// third iteration of a loop with a bound the search does not know shows is still found,
/// by the full check.
#[test]
fn a_bounded_search_comes_first_and_the_full_check_after_it() {
    let o = kpl(&["verify", s(&root().join("tests/kernels/strided_overflow.kpl"))]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("bounded search (every loop unrolled 2 times)"), "{}", o.stdout);
    let dir = scratch("bounded");
    std::fs::create_dir_all(&dir).unwrap();
    let k = dir.join("deep_race.kpl");
    std::fs::write(
        &k,
        "kernel deep_race { groups: 1; threads: 8; param n; shared s[64];\n  main { local i := 0; while i < n { if i == 3 { s[0] := lid; } i := i + 1; } } }\n",
    )
    .unwrap();
    let o = kpl(&["verify", s(&k)]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("race") && !o.stdout.contains("bounded search"), "{}", o.stdout);
    // A loop that always runs 16 times: cut after two iterations, no execution would leave
    // it, and the race after it would wait for the full check.
    let k = dir.join("after_constant_loop.kpl");
    std::fs::write(
        &k,
        "kernel after_constant_loop { groups: 1; threads: 8; shared s[64];\n  main { local i := 0; local x := 0; while slt(i, 16) { x := x + i; i := i + 1; } s[0] := x + lid; } }\n",
    )
    .unwrap();
    let o = kpl(&["verify", s(&k)]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("race") && o.stdout.contains("bounded search (loops that run a constant number of times"), "{}", o.stdout);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn contradictory_preconditions_make_a_verdict_that_says_it_is_vacuous() {
    let k = root().join("tests/kernels/contradictory_requires.kpl");
    let o = kpl(&["verify", s(&k)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("vacuously: its preconditions never hold together"), "{}", o.stdout);
    let (code, verdict, v) = verdict_of(&k, &[]);
    assert_eq!((code, verdict.as_str()), (0, "verified"));
    assert_eq!(v["vacuous"], true);
    // A C kernel's thread-dependent `__requires` (an assume the body starts with).
    let (code, _, v) = verdict_of(&root().join("tests/vacuous/requires_one_thread.cl"), &["--local_size=64", "--num_groups=1"]);
    assert_eq!((code, &v["vacuous"]), (0, &serde_json::Value::Bool(true)), "{v}");
    // Satisfiable preconditions: an ordinary verdict.
    let (code, _, v) = verdict_of(&root().join("tests/kernels/loop_param_barrier.kpl"), &[]);
    assert_eq!(code, 0);
    assert_eq!(v["vacuous"], false);
}

#[test]
fn ticket_counters_in_loops_are_verified_under_a_no_wrap_assumption_the_verdict_names() {
    // Additions in a loop: kpl cannot bound their sum, assumes it does not wrap, and says so.
    let k = root().join("tests/kernels/atomic_tickets_loop.kpl");
    let o = kpl(&["verify", s(&k)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("assuming, as GPUVerify does, that the atomic additions to `C` never wrap around"), "{}", o.stdout);
    let (code, _, v) = verdict_of(&k, &[]);
    assert_eq!(code, 0);
    assert_eq!(v["assumed_no_wrap"], serde_json::json!(["C"]));
    // Additions that run once per thread: the sum is bounded from the launch, nothing assumed.
    let k = root().join("tests/kernels/atomic_tickets.kpl");
    let o = kpl(&["verify", s(&k)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stdout.contains("wrap"), "{}", o.stdout);
    let (_, _, v) = verdict_of(&k, &[]);
    assert_eq!(v["assumed_no_wrap"], serde_json::json!([]));
    // The certificate's coverage, as `check-cert` re-derives it, names the assumption too.
    let dir = scratch("no-wrap");
    let _ = std::fs::remove_dir_all(&dir);
    let k = root().join("tests/kernels/atomic_tickets_loop.kpl");
    let o = kpl(&["certify", "--no-isabelle", s(&k), "-o", s(&dir)]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let o = kpl(&["check-cert", s(&dir)]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("ASSUMING the atomic additions to `C` never wrap around"), "{}", o.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_inline_calls_without_shared_effects_use_only_the_contract() {
    let launch = ["--blockDim=64", "--gridDim=1"];
    let modular = ["--blockDim=64", "--gridDim=1", "--no-inline"];
    // `bump`'s calls use its contract, which cannot prove `b == 4`; the interpreter, which
    // runs the body, does not confirm the report.
    let k = root().join("tests/kernels-cuda/modular_weak_contract.cu");
    let (code, verdict, v) = verdict_of(&k, &modular);
    assert_eq!((code, verdict.as_str()), (1, "assertion"), "{v}");
    assert_eq!(v["contract_calls"], serde_json::json!(["bump"]));
    assert_eq!(v["defects"][0]["confirmed"], false);
    // Inlined, the caller sees the body, and the kernel verifies.
    let (code, _, v) = verdict_of(&k, &launch);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["contract_calls"], serde_json::json!([]));
    // A certificate's kernel has its calls inlined (`check-cert` lowers it so).
    let dir = scratch("contract");
    let _ = std::fs::remove_dir_all(&dir);
    let o = kpl(&["certify", "--no-isabelle", "--blockDim=64", "--gridDim=1", "--no-inline", s(&k), "-o", s(&dir)]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let _ = std::fs::remove_dir_all(&dir);
    // `put` writes shared memory: its calls are inlined, and its race is found at the call.
    let k = root().join("tests/kernels-cuda/modular_contract_shared_write.cu");
    let (code, verdict, v) = verdict_of(&k, &modular);
    assert_eq!((code, verdict.as_str()), (1, "race"), "{v}");
    assert_eq!(v["contract_calls"], serde_json::json!([]));
    assert_eq!(v["defects"][0]["confirmed"], true);
}

#[test]
fn a_bad_input_json_report_says_why() {
    let dir = scratch("bad-json");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("undeclared.cu");
    std::fs::write(&f, "__global__ void k(int *a) {\n    a[threadIdx.x] = x;\n}\n").unwrap();
    // With a launch, and with none (the kernel is read first with one thread): the same
    // one error, at its line and column (not its byte offsets).
    for launch in [&["--blockDim=4"][..], &[]] {
        let o = kpl(&[&["verify", "--json"], launch, &[f.to_str().unwrap()]].concat());
        assert_eq!(o.code, 3);
        let v: serde_json::Value = serde_json::from_str(o.stdout.trim()).unwrap();
        assert_eq!(v["verdict"], "bad_input");
        assert_eq!(v["errors"].as_array().map(Vec::len), Some(1), "{}", o.stdout);
        assert_eq!(v["errors"][0]["message"], "`x` is not declared", "{}", o.stdout);
        assert_eq!((v["errors"][0]["line"].as_u64(), v["errors"][0]["col"].as_u64()), (Some(2), Some(22)));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_of_several_kernels_has_each_verified_when_none_is_chosen() {
    let dir = scratch("several");
    std::fs::create_dir_all(&dir).unwrap();
    let k = dir.join("two.cu");
    std::fs::write(
        &k,
        "__global__ void good(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n\
         __global__ void bad(int *a) { a[threadIdx.x] = blockIdx.x; }\n",
    )
    .unwrap();
    let o = kpl_in(&dir, &["verify", "--json", "--blockDim=64", "--gridDim=2", "two.cu"]);
    // The worst verdict's exit code: `bad` races between groups.
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    // A JSON line per kernel.
    let reports: Vec<serde_json::Value> = o.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(reports.len(), 2, "{}", o.stdout);
    let of = |name: &str| reports.iter().find(|r| r["kernel"] == name).map(|r| r["verdict"].as_str().unwrap_or("").to_string());
    assert_eq!(of("good").as_deref(), Some("verified"), "{}", o.stdout);
    assert_eq!(of("bad").as_deref(), Some("race"), "{}", o.stdout);
    let text = kpl_in(&dir, &["verify", "--blockDim=64", "--gridDim=2", "two.cu"]);
    assert!(text.stdout.contains("two.cu (kernel `good`): verified"), "{}", text.stdout);
    // `--kernel` chooses one, as before.
    let one = kpl_in(&dir, &["verify", "--blockDim=64", "--gridDim=2", "--kernel=good", "two.cu"]);
    assert_eq!(one.code, 0, "{}{}", one.stdout, one.stderr);
    // `check` checks each, as `verify` verifies each.
    let check = kpl_in(&dir, &["check", "--blockDim=64", "--gridDim=2", "two.cu"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("kernel `good` is well formed") && check.stdout.contains("kernel `bad` is well formed"), "{}", check.stdout);
    // A command that takes one kernel asks for it, naming them.
    let run = kpl_in(&dir, &["run", "two.cu"]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("several kernels") && run.stderr.contains("`bad`"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fail_on_confirmed_gives_possible_defects_their_own_verdict_and_exit_code() {
    let dir = root().join("tests/kernels-cuda");
    // `benign_copy_2d.cu`: a write-write race the interpreter does not reproduce.
    let possible = ["--blockDim=[16,16]", "--gridDim=[4,4]", "benign_copy_2d.cu"];
    let mut args = vec!["verify", "--json", "--fail-on=confirmed"];
    args.extend(possible);
    let o = kpl_in(&dir, &args);
    assert_eq!(o.code, 5, "{}{}", o.stdout, o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "possible", "{}", o.stdout);
    assert_eq!(v["kind"], "race", "{}", o.stdout);
    // By default (GPUVerify's contract) any defect fails, with its kind as the verdict.
    let mut plain = vec!["verify", "--json"];
    plain.extend(possible);
    let o = kpl_in(&dir, &plain);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "race");
    // A confirmed defect still fails, and outranks a possible one among several files.
    let o = kpl_in(&dir, &["verify", "--fail-on=confirmed", "--blockDim=[16,16]", "--gridDim=[4,4]", "benign_copy_2d.cu", "cast_view_race.cu"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stdout.contains("benign_copy_2d.cu: possible race: 1 defect (0 confirmed"), "{}", o.stdout);
}

#[test]
fn gpuverify_wording_only_when_asked_for_or_in_its_test_format() {
    let dir = scratch("gvtext");
    std::fs::create_dir_all(&dir).unwrap();
    let body = "__global__ void k(int *a) { a[0] = threadIdx.x; }\n";
    std::fs::write(dir.join("plain.cu"), body).unwrap();
    std::fs::write(dir.join("suite.cu"), format!("//xfail:NOT_ALL_VERIFIED\n//--blockDim=8\n{body}")).unwrap();
    let gv = "possible write-write race on a[0]:";
    // kpl's own report, once.
    let o = kpl_in(&dir, &["verify", "--blockDim=8", "plain.cu"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("confirmed write-write race on a[0]") && !o.stderr.contains(gv), "{}", o.stderr);
    let o = kpl_in(&dir, &["verify", "--blockDim=8", "--gpuverify-text", "plain.cu"]);
    assert!(o.stderr.contains(gv), "{}", o.stderr);
    // A file in GPUVerify's test format reads as GPUVerify's tests expect.
    let o = kpl_in(&dir, &["verify", "--blockDim=8", "suite.cu"]);
    assert!(o.stderr.contains(gv), "{}", o.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_directory_is_verified_file_by_file_with_a_summary_and_answered_again_from_the_cache() {
    let dir = scratch("tree-verify");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/old")).unwrap();
    let good = "kernel good {\n  groups: 2;\n  threads: 8;\n  global a[16];\n  main {\n    a[gid.x * 8 + lid.x] := 1;\n  }\n}\n";
    let bad = "kernel bad {\n  groups: 1;\n  threads: 8;\n  global a[16];\n  main {\n    a[0] := lid.x;\n  }\n}\n";
    std::fs::write(dir.join("src/good.kpl"), good).unwrap();
    std::fs::write(dir.join("src/bad.kpl"), bad).unwrap();
    std::fs::write(dir.join("src/old/stale.kpl"), "not a kernel").unwrap();
    std::fs::write(dir.join("src/notes.txt"), "not a kernel either").unwrap();
    let cache = dir.join("cache");
    let cache_arg = format!("--cache-dir={}", cache.display());
    let run = |extra: &[&str]| {
        let mut args = vec!["verify", cache_arg.as_str(), "--exclude=old/", "src"];
        args.extend_from_slice(extra);
        kpl_in(&dir, &args)
    };
    let first = run(&[]);
    // The worst verdict's exit code, and one summary naming both files (not the excluded
    // one, nor the text file).
    assert_eq!(first.code, 1, "{}{}", first.stdout, first.stderr);
    assert!(first.stdout.contains("summary: 2 checked"), "{}", first.stdout);
    assert!(first.stdout.contains("1 verified") && first.stdout.contains("1 race"), "{}", first.stdout);
    assert!(!first.stdout.contains("stale"), "{}", first.stdout);
    // Again: the same report, from the cache.
    let second = run(&[]);
    assert_eq!((second.code, &second.stdout, &second.stderr), (first.code, &first.stdout, &first.stderr));
    let json = run(&["--json"]);
    assert!(!json.stdout.contains("\"cached\""), "{}", json.stdout);
    let json_again = run(&["--json"]);
    assert_eq!(json_again.stdout.matches("\"cached\":true").count(), 2, "{}", json_again.stdout);
    assert!(!run(&["--json", "--no-cache"]).stdout.contains("\"cached\""));
    // A changed kernel is verified again.
    std::fs::write(dir.join("src/bad.kpl"), bad.replace("a[0] := lid.x", "a[lid.x] := 0")).unwrap();
    let changed = run(&["--json"]);
    assert_eq!(changed.code, 0, "{}{}", changed.stdout, changed.stderr);
    assert_eq!(changed.stdout.matches("\"cached\":true").count(), 1, "{}", changed.stdout);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sarif_output_loads_in_the_sarif_object_model_with_both_accesses_and_bad_input_notified() {
    let dir = scratch("sarif");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("race.cu"), "__global__ void k(int *a) {\n  a[0] = threadIdx.x;\n}\n").unwrap();
    std::fs::write(dir.join("fine.cu"), "__global__ void k(int *a) {\n  a[threadIdx.x] = 1;\n}\n").unwrap();
    std::fs::write(dir.join("broken.cu"), "__global__ void k(int *a) {\n  a[0] = nosuch;\n}\n").unwrap();
    let o = kpl_in(&dir, &["verify", "--format=sarif", "--blockDim=8", "race.cu", "fine.cu", "broken.cu"]);
    // The worst verdict: bad input.
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    // Valid against SARIF 2.1.0's schema (the one `serde-sarif` is generated from, which its
    // source ships), formats included ...
    let raw: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(sarif_schema()).unwrap()).unwrap();
    let validator = jsonschema::draft7::options().should_validate_formats(true).build(&schema).expect("the schema");
    let errors: Vec<String> = validator.iter_errors(&raw).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // ... and it loads in a SARIF viewer's model.
    let log: serde_sarif::sarif::Sarif = serde_json::from_str(&o.stdout).expect("a SARIF 2.1.0 log");
    let v: serde_json::Value = serde_json::to_value(&log).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let run = &v["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "kpl");
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{}", o.stdout);
    let r = &results[0];
    assert_eq!(r["ruleId"], "race");
    assert_eq!(r["level"], "error", "a confirmed race");
    assert_eq!(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "race.cu");
    assert_eq!(r["locations"][0]["physicalLocation"]["region"]["startLine"], 2);
    assert!(r["locations"][0]["physicalLocation"]["region"]["endColumn"].as_u64().is_some(), "{r}");
    assert!(r["relatedLocations"][0]["message"]["text"].as_str().unwrap().contains("by thread"), "{r}");
    assert!(r["properties"]["witness"].is_object(), "{r}");
    let notes = run["invocations"][0]["toolExecutionNotifications"].as_array().unwrap();
    assert!(notes.iter().any(|n| n["message"]["text"].as_str().unwrap().contains("nosuch")), "{}", o.stdout);
    assert_eq!(run["invocations"][0]["executionSuccessful"], false);
    std::fs::remove_dir_all(&dir).ok();
}

/// The SARIF 2.1.0 schema in the source of the `serde-sarif` package (found through `cargo
/// metadata`).
fn sarif_schema() -> std::path::PathBuf {
    let o = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(root().join("Cargo.toml"))
        .output()
        .expect("cargo metadata");
    let meta: serde_json::Value = serde_json::from_slice(&o.stdout).expect("cargo metadata's JSON");
    let manifest = meta["packages"].as_array().unwrap().iter().find(|p| p["name"] == "serde-sarif").expect("the serde-sarif package")["manifest_path"].as_str().unwrap().to_string();
    std::path::Path::new(&manifest).parent().unwrap().join("src/schema.json")
}

/// A launch read from host code says in `--json` which kernel, which launch, which
/// parameters it fixes and which stay free; a benchmark loop's sizes are a line each.
#[test]
fn json_says_each_launch_from_host_code_with_its_fixed_and_free_parameters() {
    let o = kpl(&["verify", "--json", "-q", "tests/kernels-cuda/host_launch_loop_sizes.cu"]);
    assert_eq!(o.code, 1, "the block of 128 races: {}{}", o.stdout, o.stderr);
    let lines = json_lines(&o.stdout);
    let blocks: Vec<u64> = lines.iter().map(|v| v["launch"]["block"][0].as_u64().unwrap()).collect();
    assert_eq!(blocks, [32, 64, 128], "{}", o.stdout);
    for v in &lines {
        assert_eq!(v["kernel"], "fold", "{v}");
        assert_eq!(v["launch"]["from"], "host code", "{v}");
        assert_eq!(v["launch"]["fixed"], serde_json::json!({"n": 256}), "{v}");
        assert_eq!(v["launch"]["free"], serde_json::json!(["a"]), "{v}");
    }
    let verdicts: Vec<&str> = lines.iter().map(|v| v["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["verified", "verified", "race"]);
    assert!(lines.iter().all(|v| v["launch"]["shared_bytes"] == 0), "no dynamic shared memory: {}", o.stdout);
    // The launch's third argument: its dynamic shared memory.
    let dir = scratch("shared");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("dyn.cu"),
        "__global__ void k(int *a) { extern __shared__ int s[]; s[threadIdx.x] = a[threadIdx.x]; __syncthreads(); a[threadIdx.x] = s[63 - threadIdx.x]; }\nint main() { int *d; k<<<1, 64, 64 * sizeof(int)>>>(d); return 0; }\n",
    )
    .unwrap();
    let o = kpl_in(&dir, &["verify", "--json", "-q", "dyn.cu"]);
    let v: serde_json::Value = serde_json::from_str(o.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}{}", o.stdout, o.stderr));
    assert_eq!((v["verdict"].as_str(), v["launch"]["shared_bytes"].as_u64()), (Some("verified"), Some(256)), "{v}");
}

/// Each line of a `--json` report.
fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// Each line's kernel and verdict.
fn kernel_verdicts(lines: &[serde_json::Value]) -> Vec<(&str, &str)> {
    lines.iter().map(|v| (v["kernel"].as_str().unwrap(), v["verdict"].as_str().unwrap())).collect()
}

/// The x sizes of the blocks of a `--json` report's launches, sorted.
fn sorted_blocks(stdout: &str) -> Vec<u64> {
    let mut blocks: Vec<u64> = json_lines(stdout).iter().map(|v| v["launch"]["block"][0].as_u64().unwrap()).collect();
    blocks.sort_unstable();
    blocks
}

/// Constant arrays of block sizes give each launch each size: an element at a loop's
/// variable passed to a host function or to a launch as it is (`run(block_sizes[j])`), and
/// a `std::vector` the program never changes, by a range-`for` and by a counting loop up
/// to its `size()`.
#[test]
fn constant_arrays_of_sizes_give_each_size() {
    for k in ["tests/programs/array_element_argument.cu", "tests/programs/vector_of_sizes.cu"] {
        let o = kpl(&["verify", "-q", "--json", k]);
        assert_eq!(o.code, 0, "{k}: {}{}", o.stdout, o.stderr);
        assert_eq!(sorted_blocks(&o.stdout), [32, 64, 128, 256], "{k}: {}", o.stdout);
    }
}

/// A block shape the host code computes with `max` and `std::min` of constants (llm.c's
/// `fused_residual_forward6`) is read: the kernel is verified under it, with no option.
#[test]
fn a_block_shape_from_max_and_min_is_read() {
    let o = kpl(&["verify", "--json", "--no-cache", "tests/programs/block_shape_from_max.cu"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let rows = json_lines(&o.stdout);
    assert_eq!(rows.len(), 1, "{}", o.stdout);
    assert_eq!(rows[0]["launch"]["block"], serde_json::json!([32, 8, 2]), "{}", rows[0]);
    assert_eq!(rows[0]["verdict"], "verified", "{}", rows[0]);
}

/// A program's host code is warned about once, not once per launch context (each of
/// `vector_of_sizes.cu`'s four launches loads the file again); each launch's own note stays.
#[test]
fn host_code_warnings_are_shown_once_for_all_launches() {
    let o = kpl(&["verify", "--no-cache", "tests/programs/vector_of_sizes.cu"]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(o.stderr.matches("host code skipped: function `main`").count(), 1, "{}", o.stderr);
    assert_eq!(o.stderr.matches("launch read from the host code").count(), 4, "{}", o.stderr);
}

/// A kernel a program launches under several block sizes is verified under each, and
/// Houdini's rounds are spent under the first only: the candidates it did not keep there
/// start off under the others, which keep the same invariants.
#[test]
fn houdini_rounds_are_spent_once_for_a_kernel_launched_several_ways() {
    let k = "tests/programs/row_sums.cu";
    let o = kpl(&["verify", "-q", "--json", "--no-cache", k]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let rows = json_lines(&o.stdout);
    assert_eq!(sorted_blocks(&o.stdout), [64, 128, 256], "{}", o.stdout);
    for v in &rows {
        assert_eq!(v["verdict"], "verified", "{v}");
        assert_eq!(v["stats"]["invariants_kept"], rows[0]["stats"]["invariants_kept"], "{v}");
    }
    assert!(rows[0]["stats"]["houdini_rounds"].as_u64() > Some(0), "{}", rows[0]);
    assert!(rows[1..].iter().all(|v| v["stats"]["houdini_rounds"] == 0), "{}", o.stdout);
}

/// A grid from the GPU's properties (`cudaGetDeviceProperties`) cannot be read, and is
/// no obstacle to `verify`, which verifies the kernel for every grid; a command that runs
/// one launch says where the grid comes from, and takes one given on the command line.
#[test]
fn a_grid_from_the_device_properties_is_any_grid() {
    let k = "tests/programs/device_property_grid.cu";
    let o = kpl(&["verify", "-q", "--json", k]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    for v in json_lines(&o.stdout) {
        assert_eq!(v["verdict"], "verified", "{v}");
        assert_eq!(v["launch"]["grid"], serde_json::json!([null, 1, 1]), "{v}");
        assert!(v["launch"]["free"].as_array().unwrap().contains(&serde_json::json!("gridDim.x")), "{v}");
    }
    assert_eq!(o.stdout.lines().count(), 2, "{}", o.stdout);
    let o = kpl(&["run", k]);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("`sms` comes from the properties of the GPU the program runs on"), "{}", o.stderr);
    assert!(o.stderr.contains("`kpl verify` verifies the kernel for every grid"), "{}", o.stderr);
    let o = kpl(&["verify", "-q", "--gridDim=4", k]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    assert_eq!(o.stdout.matches("verified").count(), 2, "{}", o.stdout);
}

/// A grid the host code computes from values read at run time is any grid: each kernel is
/// verified for every size the launch can have, tied to the kernel's arguments where the
/// host code computes it from them; a defect is replayed, and reported, at the grid its
/// witness gives (a small one where there is one), and `gridDim` is the launch's own.
#[test]
fn a_grid_computed_at_run_time_is_verified_for_every_size() {
    let k = "tests/programs/run_time_grid.cu";
    let o = kpl(&["verify", "-q", "--json", k]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    let lines = json_lines(&o.stdout);
    let verdicts = kernel_verdicts(&lines);
    assert_eq!(
        verdicts,
        [("saxpy", "verified"), ("shift", "race"), ("small_grid", "assertion"), ("several_groups", "assertion"), ("rows", "verified"), ("private_sum", "verified")],
        "{}",
        o.stdout
    );
    assert_eq!(lines[4]["launch"]["grid"], serde_json::json!([null, 4, 1]), "{}", o.stdout);
    // Each defect confirmed, at the grid of its witness.
    let grid = |v: &serde_json::Value| {
        let d = &v["defects"][0];
        assert_eq!(d["confirmed"], true, "{v}");
        d["witness"]["grid"][0].as_u64().unwrap()
    };
    assert!(grid(&lines[1]) <= 4, "a race of neighbours needs no more: {}", lines[1]);
    assert!(grid(&lines[2]) >= 100, "`gridDim.x < 100` fails only from 100 groups: {}", lines[2]);
    assert_eq!(grid(&lines[3]), 1, "one group of one thread: {}", lines[3]);
    assert!(o.stderr.contains("kpl assumes `((n + 255) / 256) == gridDim.x`"), "{}", o.stderr);
    // The witness replays under its grid, and only there.
    let dir = std::env::temp_dir().join(format!("kpl-run-time-grid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let w = dir.join("shift.json");
    std::fs::write(&w, lines[1]["defects"][0]["witness"].to_string()).unwrap();
    let g = format!("--gridDim={}", grid(&lines[1]));
    let o = kpl(&["run", "--kernel=shift", &g, "--input", w.to_str().unwrap(), k]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("race on y["), "{}", o.stderr);
    let o = kpl(&["run", "--kernel=shift", "--gridDim=9", "--input", w.to_str().unwrap(), k]);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("the input was found under a grid of"), "{}", o.stderr);
    std::fs::remove_dir_all(&dir).ok();
}

/// The oracle for grids computed at run time: where `kpl run` under some grid (and the `n`
/// that grid says, `n = block * grid`) finds a defect, `verify`, which takes every grid,
/// does not say verified.
#[test]
fn no_kernel_kpl_run_finds_defective_under_some_grid_is_verified_for_every_grid() {
    let mut defects = 0;
    for (file, kernels) in [
        ("tests/programs/run_time_grid.cu", &[("saxpy", 256, 1, true), ("shift", 256, 1, true), ("small_grid", 32, 1, false), ("several_groups", 1, 1, false), ("rows", 64, 4, true), ("private_sum", 128, 1, true)][..]),
        ("tests/programs/dim3_fields.cu", &[("init", 192, 1, true), ("columns", 256, 2, false), ("twice", 128, 1, true)][..]),
    ] {
        let verified: Vec<String> = json_lines(&kpl(&["verify", "-q", "--json", file]).stdout)
            .iter()
            .filter(|v| v["verdict"] == "verified")
            .map(|v| v["kernel"].as_str().unwrap().to_string())
            .collect();
        for &(kernel, block, rows, has_n) in kernels {
            for grid in [1u32, 2, 3, 101] {
                let n = format!("n={}", block * grid);
                let g = format!("--gridDim=[{grid},{rows}]");
                for seed in ["0", "1"] {
                    let k = format!("--kernel={kernel}");
                    let mut args = vec!["run", "-q", &k, &g, "--seed", seed, file];
                    if has_n {
                        args.extend(["--param", &n]);
                    }
                    let o = kpl(&args);
                    assert!(o.code == 0 || o.code == 1, "{kernel} {g}: {}{}", o.stdout, o.stderr);
                    if o.code == 1 {
                        defects += 1;
                        assert!(!verified.iter().any(|k| k == kernel), "`kpl run {g} --param {n} --seed {seed}` finds a defect in `{kernel}`, which verify calls verified: {}", o.stderr);
                    }
                }
            }
        }
    }
    assert!(defects > 0, "the oracle compared nothing: no run found a defect");
}

/// A host `assert` whose condition is false in a launch context: the program aborts
/// before that launch, which is not verified; false in every context, the kernel is never
/// launched, and the report says why. (Without it, `fill` under `n = 1600` is a confirmed
/// `__trap`.)
#[test]
fn a_launch_after_a_failing_host_assert_is_never_made() {
    let k = "tests/programs/host_assert.cu";
    let o = kpl(&["verify", "-q", "--json", k]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let lines = json_lines(&o.stdout);
    let got: Vec<(&str, &str)> = lines.iter().map(|v| (v["kernel"].as_str().unwrap(), v["verdict"].as_str().unwrap())).collect();
    assert_eq!(got, [("fill", "verified"), ("never", "not_launched")], "{}", o.stdout);
    assert_eq!(lines[0]["launch"]["block"][0], 128, "{}", lines[0]);
    assert!(lines[1]["reason"].as_str().unwrap().contains("`assert(n % 256 == 0)` before it fails"), "{}", lines[1]);
}

/// A pointer the host code passes as `NULL` is null in that launch's context: the kernel's
/// `opt != NULL` branch never runs there (no race), while the launch that passes a buffer
/// keeps its confirmed race.
#[test]
fn a_pointer_the_host_passes_as_null_is_null_in_that_launch() {
    let k = "tests/programs/null_argument.cu";
    let o = kpl(&["verify", "-q", "--json", k]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    let lines = json_lines(&o.stdout);
    let got: Vec<&str> = lines.iter().map(|v| v["verdict"].as_str().unwrap()).collect();
    assert_eq!(got, ["verified", "race"], "{}", o.stdout);
    assert_eq!(lines[0]["launch"]["fixed"]["opt"], 0, "{}", lines[0]);
    assert_eq!(lines[1]["defects"][0]["confirmed"], true, "{}", lines[1]);
    assert!(o.stderr.contains("`opt` = NULL"), "{}", o.stderr);
}

/// A witness under a grid with a free x size and a constant y size runs under the launch's
/// y size: the report and `--json` give the grid it replays under, not the model's 1 there.
#[test]
fn a_witness_grid_keeps_the_launchs_fixed_axes() {
    let k = "tests/programs/fixed_axis_grid.cu";
    let o = kpl(&["verify", "-q", "--json", k]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    let v = &json_lines(&o.stdout)[0];
    assert_eq!(v["launch"]["grid"], serde_json::json!([null, 4, 1]), "{v}");
    let d = &v["defects"][0];
    assert_eq!(d["confirmed"], true, "{d}");
    let g = &d["witness"]["grid"];
    assert_eq!((&g[1], &g[2]), (&serde_json::json!(4), &serde_json::json!(1)), "{d}");
    let shown = format!("--gridDim=[{},4]", g[0]);
    let o = kpl(&["verify", "-q", k]);
    assert!(o.stderr.contains(&shown), "{shown}: {}", o.stderr);
}

/// `dim3 g(...), b(...);` (`const` or not) and `dim3`s set field by field give their launch's sizes: a
/// field set once before the launch is its value, one set from a run-time value any size.
#[test]
fn dim3s_declared_together_or_set_field_by_field_are_read() {
    let k = "tests/programs/dim3_fields.cu";
    let o = kpl(&["verify", "-q", "--json", k]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    let lines = json_lines(&o.stdout);
    let got: Vec<(&str, &str, &serde_json::Value, &serde_json::Value)> =
        lines.iter().map(|v| (v["kernel"].as_str().unwrap(), v["verdict"].as_str().unwrap(), &v["launch"]["grid"], &v["launch"]["block"])).collect();
    use serde_json::json;
    assert_eq!(
        got,
        [
            ("init", "verified", &json!([null, 1, 1]), &json!([192, 1, 1])),
            ("columns", "race", &json!([null, null, 1]), &json!([256, 1, 1])),
            ("twice", "verified", &json!([null, 1, 1]), &json!([128, 1, 1])),
        ],
        "{}",
        o.stdout
    );
    let d = &lines[1]["defects"][0];
    assert_eq!(d["confirmed"], true, "{d}");
    assert!(d["witness"]["grid"][1].as_u64().unwrap() >= 2, "two rows of groups: {d}");
}

/// A whole program's kernel that the program never launches is not verified and fails
/// nothing: `--json` says `not_launched` and why; named with `--kernel` and no launch, the
/// error says why it has none. Without a `main` the file is no program: its host functions
/// may be called from elsewhere, and a launch still needs options.
#[test]
fn a_kernel_the_program_never_launches_is_reported_as_not_launched() {
    let k = "tests/programs/never_called_launcher.cu";
    let o = kpl(&["verify", "--json", "-q", k]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let lines = json_lines(&o.stdout);
    let verdicts = kernel_verdicts(&lines);
    assert_eq!(verdicts, [("scale_v1", "not_launched"), ("scale2", "verified"), ("scale2", "verified")], "{}", o.stdout);
    assert_eq!(lines[0]["reason"], "its launches are in `scale1`, which the program never calls", "{}", o.stdout);
    let blocks: Vec<u64> = lines[1..].iter().map(|v| v["launch"]["block"][0].as_u64().unwrap()).collect();
    assert_eq!(blocks, [64, 128], "each block size of main's loop: {}", o.stdout);
    let text = kpl(&["verify", "-q", k]);
    assert!(text.stdout.contains("(kernel `scale_v1`): not launched: its launches are in `scale1`, which the program never calls; not verified"), "{}", text.stdout);
    // In SARIF: a note, valid against the schema.
    let o = kpl(&["verify", "--format=sarif", "-q", k]);
    assert_eq!(o.code, 0, "{}{}", o.stdout, o.stderr);
    let raw: serde_json::Value = serde_json::from_str(&o.stdout).expect("JSON");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(sarif_schema()).unwrap()).unwrap();
    let validator = jsonschema::draft7::options().should_validate_formats(true).build(&schema).expect("the schema");
    assert!(validator.is_valid(&raw), "{}", o.stdout);
    let notes = raw["runs"][0]["invocations"][0]["toolExecutionNotifications"].as_array().unwrap();
    assert!(notes.iter().any(|n| n["level"] == "note" && n["message"]["text"].as_str().unwrap().contains("`scale_v1` not verified: not launched")), "{notes:?}");
    let o = kpl(&["verify", "--kernel=scale_v1", k]);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("is a program that never launches `scale_v1`: its launches are in `scale1`"), "{}", o.stderr);
    // Given a launch, it is checked on its own (and races: threads of different groups
    // write one element).
    let o = kpl(&["verify", "--kernel=scale_v1", "--blockDim=64", "--gridDim=2", "-q", k]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    // The same file without `main`: `scale1` may be called from another file.
    let dir = scratch("never_launched");
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join(k)).unwrap();
    let library = text.split("int main").next().unwrap();
    std::fs::write(dir.join("lib.cu"), library).unwrap();
    let o = kpl_in(&dir, &["verify", "--json", "-q", "--kernel=scale_v1", "lib.cu"]);
    assert_eq!(o.code, 3, "{}{}", o.stdout, o.stderr);
    assert!(!o.stdout.contains("not_launched"), "{}", o.stdout);
}

/// `--jobs` left over by the files verifies a kernel's launch contexts in parallel: the
/// same reports, in the launches' order, as one at a time.
#[test]
fn launch_contexts_verified_in_parallel_report_as_one_at_a_time() {
    let k = "tests/kernels-cuda/host_launch_loop_sizes.cu";
    let strip = |out: &str| -> Vec<serde_json::Value> {
        out.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                v.as_object_mut().unwrap().remove("stats");
                v
            })
            .collect()
    };
    let one = kpl(&["verify", "--json", "-q", "--no-cache", "--jobs", "1", k]);
    let two = kpl(&["verify", "--json", "-q", "--no-cache", "--jobs", "3", k]);
    assert_eq!((one.code, two.code), (1, 1), "{}{}", one.stdout, two.stdout);
    assert_eq!(strip(&one.stdout), strip(&two.stdout));
    assert_eq!(strip(&two.stdout).len(), 3, "{}", two.stdout);
}
