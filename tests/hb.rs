//! End-to-end tests of `kpl run --hb` (happens-before race detection with BARRACUDA's
//! rules): the litmus kernels of `tests/hb`, each with the outcome its `// hb: OUTCOME
//! [ARGS...]` lines expect: message passing with fences of each scope, locks with and
//! without fences, the last-block pattern, lock-step warps and branch-ordering races.

mod common;
use common::*;

/// The options of a GPUVerify-format kernel's second line that `kpl run` takes (the launch,
/// the preprocessor's, the kernel's name and arguments, benign tolerance); a `--warp-sync`
/// is left to the `// hb:` lines.
fn launch(p: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(p).unwrap();
    let line = text.lines().nth(1).unwrap_or("").trim_start_matches("//");
    let run = ["--blockDim", "--gridDim", "--local_size", "--num_groups", "--global_size", "--global_offset", "-I", "-D", "--kernel", "--no-benign"];
    line.split_whitespace().filter(|o| run.iter().any(|k| o.starts_with(k))).map(str::to_string).collect()
}

fn hb(p: &std::path::Path, args: &[String]) -> (String, serde_json::Value) {
    // (A kernel that loops on an arbitrary param ends as `timeout`, not a race, soon.)
    let mut a: Vec<String> = vec!["run".into(), "--hb".into(), "--json".into(), "--max-steps=2000000".into()];
    a.extend(launch(p));
    a.extend(args.iter().cloned());
    a.push(s(p).to_string());
    let refs: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = kpl_in(p.parent().unwrap(), &refs);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{}: {e}\n{}{}", s(p), o.stdout, o.stderr));
    (v["outcome"].as_str().unwrap_or("").to_string(), v)
}

#[test]
fn every_litmus_kernel_gets_its_expected_outcome() {
    let mut files = kernels("tests/hb", "cu");
    files.extend(kernels("tests/hb", "cl"));
    files.extend(kernels("tests/hb", "kpl"));
    assert!(files.len() >= 12, "{files:?}");
    let mut checked = 0;
    for f in &files {
        let lines = header(f, "hb");
        assert!(!lines.is_empty(), "{} has no `// hb:` line", s(f));
        for line in lines {
            let mut words = line.split_whitespace();
            let want = words.next().unwrap().to_string();
            let args: Vec<String> = words.map(str::to_string).collect();
            let (got, v) = hb(f, &args);
            assert_eq!(got, want, "{} {args:?}: {v}", s(f));
            assert_eq!(v["mode"], "hb");
            checked += 1;
        }
    }
    assert!(checked > files.len(), "some kernel is checked both ways");
}

#[test]
fn the_scope_of_the_fences_decides_message_passing_between_blocks() {
    let dir = root().join("tests/hb");
    let flag = vec!["--input=flag.json".to_string()];
    let (got, v) = hb(&dir.join("mp_block_fences.cu"), &flag);
    assert_eq!(got, "race");
    // The race is on the data, not the flag: the flag's store and load synchronise only
    // within a block at block scope, so the data's write and read stay unordered.
    assert_eq!(v["defect"]["array"], "data");
    assert_eq!(v["defect"]["scope"], "inter-group");
    let ops: Vec<&str> = v["defect"]["accesses"].as_array().unwrap().iter().map(|a| a["op"].as_str().unwrap()).collect();
    assert_eq!(ops, ["write", "read"]);
    assert_eq!(hb(&dir.join("mp_device_fences.cu"), &flag).0, "ok");
    // The plain run (SDV) has no fences: it reports the flag itself.
    let o = kpl_in(&dir, &["run", "--json", "--blockDim=32", "--gridDim=2", "--input=flag.json", "mp_device_fences.cu"]);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
    assert_eq!((v["outcome"].as_str(), v["defect"]["array"].as_str()), (Some("race"), Some("flag")), "{v}");
}

#[test]
fn a_race_report_names_both_accesses_and_why_they_are_unordered() {
    let o = kpl_in(&root().join("tests/hb"), &["run", "--hb", "--blockDim=32", "--gridDim=4", "--input=lock.json", "spin_lock_no_fences.cu"]);
    assert_eq!(o.code, 1, "{}{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("inter-group data race on count[0]"), "{}", o.stderr);
    assert!(o.stderr.contains("spin_lock_no_fences.cu:12:"), "{}", o.stderr);
    assert!(o.stderr.contains("neither access happens before the other"), "{}", o.stderr);
    assert!(o.stdout.contains("(happens-before, one interleaving)"), "{}", o.stdout);
}

#[test]
fn hb_refuses_what_it_does_not_model() {
    let o = kpl_in(&root().join("tests/hb"), &["run", "--hb", "--delays", "1", "spin_lock.cu"]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    let o = kpl(&["run", "--hb", "tests/kernels/snapshot.kpl"]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    assert!(o.stderr.contains("`--hb` does not model ghost arrays"), "{}", o.stderr);
}

#[test]
fn emitted_cuda_and_opencl_keep_the_fences_with_their_scopes() {
    let o = kpl(&["emit", "--cuda", "tests/hb/fence_scopes.kpl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    // libcu++'s spelling of `__threadfence*`.
    let device = "cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);";
    let block = "cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block);";
    assert_eq!(o.stdout.matches(device).count(), 2, "{}", o.stdout);
    assert_eq!(o.stdout.matches(block).count(), 2, "{}", o.stdout);
    let o = kpl(&["emit", "--cuda", "tests/hb/mp_device_fences.cu", "--blockDim=32", "--gridDim=2"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout.matches(device).count(), 2, "{}", o.stdout);
    // One-way fences keep their way.
    let o = kpl(&["emit", "--cuda", "tests/hb/fence_orders.kpl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    for order in ["release", "acquire"] {
        let f = format!("cuda::atomic_thread_fence(cuda::memory_order_{order}, cuda::thread_scope_device);");
        assert_eq!(o.stdout.matches(&f).count(), 2, "{}", o.stdout);
    }
    // OpenCL 1.2 has no fence scopes: `mem_fence` on both memories.
    let o = kpl(&["emit", "--opencl", "tests/hb/fence_scopes.kpl"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.stdout.matches("mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);").count(), 4, "{}", o.stdout);
}

/// The oracle across the two race semantics: on a kernel without fences, happens-before
/// orders nothing SDV does not (program order, barriers, and in lock step nothing without
/// `--warp-sync`), so a race `--hb` finds is one `kpl verify` must not call verified. The
/// expected verdicts in the kernels' headers are what CI checks `kpl verify` against; each
/// kernel runs with its plain run's options.
#[test]
fn a_race_hb_finds_in_a_kernel_without_fences_is_never_verified() {
    let mut races = 0;
    for f in kernels("tests/kernels", "kpl") {
        let text = std::fs::read_to_string(&f).unwrap();
        if text.contains("fence") || text.contains("snapshot") {
            continue;
        }
        let Some(verdict) = header(&f, "verify").into_iter().next() else { continue };
        // The plain run's options (`// run: OUTCOME ARGS`: benign tolerance, params).
        let run = header(&f, "run").into_iter().next().unwrap_or_default();
        let mut args = vec!["run", "--hb", "--json", "--seed", "1"];
        args.extend(run.split_whitespace().skip(1));
        args.push(s(&f));
        args.push("--max-steps=2000000");
        let o = kpl_in(f.parent().unwrap(), &args);
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{}: {e}\n{}", s(&f), o.stderr));
        if v["outcome"] == "race" {
            races += 1;
            assert_ne!(verdict, "verified", "{}: --hb finds a race: {}", s(&f), v["defect"]);
        }
    }
    assert!(races >= 10, "only {races} kernels with races");
    // GPUVerify-format kernels: `//pass` is the verdict, line 2 the launch.
    let mut passing = 0;
    for f in kernels("tests/kernels-cuda", "cu").into_iter().chain(kernels("tests/kernels-cuda", "cl")) {
        let text = std::fs::read_to_string(&f).unwrap();
        let line2 = text.lines().nth(1).unwrap_or("");
        // (Kernels that pass only with races left out are not race-free.)
        let narrowed = ["warp-sync", "only-divergence", "only-intra-group", "/checkArrays"].iter().any(|o| line2.contains(o));
        if !text.starts_with("//pass") || text.contains("fence") || narrowed {
            continue;
        }
        let (got, v) = hb(&f, &[]);
        assert_ne!(got, "race", "{}: verified, but --hb finds a race: {}", s(&f), v["defect"]);
        passing += 1;
    }
    assert!(passing >= 50, "only {passing} passing CUDA/OpenCL kernels");
}

#[test]
fn hb_orders_only_the_lanes_that_ran_a_syncwarp_together() {
    // Two halves of a warp synchronise separately: the plain run orders the whole warp and
    // misses the race between them (KNOWN_ISSUES); --hb shows it.
    let f = root().join("tests/kernels-cuda/syncwarp_masks_race.cu");
    let (got, v) = hb(&f, &[]);
    assert_eq!(got, "race", "{v}");
    let (got, _) = hb(&root().join("tests/kernels-cuda/syncwarp_masks.cu"), &[]);
    assert_eq!(got, "ok");
}
